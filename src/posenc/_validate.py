"""Argument checks shared by every public function.

Each check raises ``ValueError`` naming the argument, the value it got and what is allowed,
so that bad input never turns into a silent NaN or a confusing NumPy broadcasting error.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

LAYOUTS = ("interleaved", "halves")


def _to_float(value, name: str) -> float:
    try:
        return float(value)
    except OverflowError:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"{name} must be a finite real number, got {shown}, "
                         f"which overflows a float") from None


def check_dimension(d) -> int:
    """Return ``d`` as an int if it is a positive even integer."""
    if isinstance(d, bool) or not isinstance(d, numbers.Integral):
        raise ValueError(f"d must be a positive even integer, got {d!r} of type {type(d).__name__}")
    d = int(d)
    if d <= 0 or d % 2:
        raise ValueError(f"d must be a positive even integer, got {d}")
    return d


def check_base(base) -> float:
    """Return ``base`` as a float if it is a finite real number greater than 1."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise ValueError(f"base must be a finite real number > 1, got {base!r}")
    base = _to_float(base, "base")
    if not math.isfinite(base) or base <= 1.0:
        raise ValueError(f"base must be a finite real number > 1, got {base}")
    return base


def check_layout(layout) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    return layout


def check_finite_real(value, name: str) -> float:
    """A single finite real number (an int, float or NumPy scalar; not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    value = _to_float(value, name)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def check_positions(positions) -> np.ndarray:
    """Positions as a 1-D float array.

    An integer ``n`` means the positions ``0, 1, …, n-1``. An array may hold any finite real
    numbers (fractional positions are what Position Interpolation feeds the formula).
    """
    if isinstance(positions, bool):
        raise ValueError(f"positions must be a non-negative integer count or a 1-D array of "
                         f"finite real numbers, got {positions!r}")
    if isinstance(positions, numbers.Number):
        if not isinstance(positions, numbers.Integral):
            raise ValueError(
                f"positions given as a single number is a count and must be a non-negative "
                f"integer, got {positions!r}; pass an array such as [{positions!r}] for one position")
        if positions < 0:
            raise ValueError(f"positions given as a count must be non-negative, got {positions}")
        return np.arange(int(positions), dtype=np.float64)
    array = np.asarray(positions)
    if array.dtype == object:  # e.g. integers too large for int64
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError("positions must hold finite real numbers") from None
    if array.ndim != 1:
        raise ValueError(f"positions must be a 1-D array, got an array of shape {array.shape}")
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer)
                                   or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"positions must hold real numbers, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        bad = array[~np.isfinite(array)][0]
        raise ValueError(f"positions must be finite, got {bad}")
    return array
