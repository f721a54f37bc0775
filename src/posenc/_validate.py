"""Argument checks shared by every public function of posenc.

Each check raises ``ValueError`` whose message starts with the argument's name, then says the
value it got and what is allowed, so that bad input never turns into a silent NaN or a
confusing NumPy broadcasting error. Every public function validates its arguments through the
functions here; no module keeps a check of its own.
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
        raise ValueError(
            f"{name} must be a finite real number, got {shown}, which overflows a float"
        ) from None


def _is_integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(
        value, (bool, np.bool_)
    )


def check_count(value, name: str, minimum: int = 0) -> int:
    """An int (or NumPy integer; not a bool) that is at least ``minimum``."""
    if not _is_integer(value):
        raise ValueError(
            f"{name} must be an integer >= {minimum}, "
            f"got {value!r} of type {type(value).__name__}"
        )
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def check_dimension(d, name: str = "d") -> int:
    """Return ``d`` as an int if it is a positive even integer."""
    if not _is_integer(d):
        raise ValueError(
            f"{name} must be a positive even integer, got {d!r} of type {type(d).__name__}"
        )
    d = int(d)
    if d <= 0 or d % 2:
        raise ValueError(f"{name} must be a positive even integer, got {d}")
    return d


def check_finite_real(value, name: str) -> float:
    """A single finite real number (an int, float or NumPy scalar; not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    value = _to_float(value, name)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def check_base(base, name: str = "base") -> float:
    """Return ``base`` as a float if it is a finite real number greater than 1."""
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise ValueError(f"{name} must be a finite real number > 1, got {base!r}")
    base = _to_float(base, name)
    if not math.isfinite(base) or base <= 1.0:
        raise ValueError(f"{name} must be a finite real number > 1, got {base}")
    return base


def check_positive(value, name: str) -> float:
    """A finite real number > 0."""
    value = check_finite_real(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value}")
    return value


def check_layout(layout) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    return layout


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def check_real_array(
    value,
    name: str,
    *,
    ndim: int | None = None,
    min_ndim: int = 0,
    finite: bool = True,
    nonempty: bool = False,
    shape_hint: str = "",
) -> np.ndarray:
    """``value`` as a float64 array of real numbers (not bools, not complex, not strings).

    ``ndim`` asks for exactly that many axes, ``min_ndim`` for at least that many;
    ``finite`` rejects NaN and infinities; ``nonempty`` rejects an array with no entries.
    ``shape_hint`` (for example ``" (n, d)"``) is quoted in the messages about the shape.
    """
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):  # ragged nesting, for instance
        raise ValueError(
            f"{name} must be an array of real numbers{shape_hint}, got {value!r}"
        ) from None
    if array.dtype == object:  # e.g. Python integers too large for int64
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{name} must hold finite real numbers") from None
    if array.dtype == bool or not (
        np.issubdtype(array.dtype, np.integer)
        or np.issubdtype(array.dtype, np.floating)
    ):
        raise ValueError(f"{name} must hold real numbers, got dtype {array.dtype}")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(
            f"{name} must be a {ndim}-D array{shape_hint}, got an array of shape {array.shape}"
        )
    if array.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} axes{shape_hint}, got shape {array.shape}"
        )
    if nonempty and array.size == 0:
        raise ValueError(f"{name} must hold at least one entry, got an empty array")
    array = array.astype(np.float64)
    if finite and not np.all(np.isfinite(array)):
        raise ValueError(
            f"{name} must be finite, got {array[~np.isfinite(array)].flat[0]}"
        )
    return array


def check_complex_vector(
    value, name: str, size: int, size_label: str = ""
) -> np.ndarray:
    """``value`` as a complex array of ``size`` finite numbers (for example the d/2
    coefficients h_j of chapter 14); bools and strings are not numbers here.
    ``size_label`` (for example ``"d/2 = "``) is quoted before the size in the message."""
    array = np.asarray(value)
    if array.dtype.kind not in "iufc" or array.shape != (size,):
        raise ValueError(
            f"{name} must hold {size_label}{size} finite (complex) numbers, got "
            f"shape {array.shape} of {array.dtype}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(
            f"{name} must hold finite numbers, got {array[~np.isfinite(array)][0]}"
        )
    return array.astype(complex)


def check_positions(positions) -> np.ndarray:
    """Positions as a 1-D float array.

    An integer ``n`` means the positions ``0, 1, …, n-1``. An array may hold any finite real
    numbers (fractional positions are what Position Interpolation feeds the formula).
    """
    if isinstance(positions, (bool, np.bool_)):
        raise ValueError(
            f"positions must be a non-negative integer count or a 1-D array of "
            f"finite real numbers, got {positions!r}"
        )
    if isinstance(positions, numbers.Number):
        if not isinstance(positions, numbers.Integral):
            raise ValueError(
                f"positions given as a single number is a count and must be a non-negative "
                f"integer, got {positions!r}; pass an array such as [{positions!r}] for one "
                f"position"
            )
        if positions < 0:
            raise ValueError(
                f"positions given as a count must be non-negative, got {positions}"
            )
        return np.arange(int(positions), dtype=np.float64)
    return check_real_array(positions, "positions", ndim=1)


def check_axis(axis, ndim: int) -> int:
    """An axis index valid for an array of ``ndim`` dimensions."""
    if not _is_integer(axis):
        raise ValueError(f"axis must be an integer, got {axis!r}")
    if not -ndim <= int(axis) < ndim:
        raise ValueError(
            f"axis must be in [{-ndim}, {ndim - 1}] for scores of {ndim} dimension(s), got {axis}"
        )
    return int(axis)


def check_integer_array(value, name: str, clip: int) -> np.ndarray:
    """``value`` as an int64 array of the same shape, magnitudes clipped to ``clip``.

    Integers of any size are accepted, and so are floats that hold whole numbers (1.0, -16.0);
    fractions, NaN, infinities, bools, complex numbers and strings are not.
    """
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must hold integers, got the bool {value!r}")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):  # ragged nesting, for instance
        raise ValueError(
            f"{name} must be an integer or an array of integers, got {value!r}"
        ) from None
    if array.dtype == object:  # Python integers too large for int64, or mixed junk
        flat = []
        for item in array.ravel():
            if isinstance(item, bool) or not isinstance(item, numbers.Real):
                raise ValueError(f"{name} must hold integers, got {item!r}")
            if isinstance(item, numbers.Integral):
                flat.append(max(-clip, min(clip, int(item))))
                continue
            try:
                value = float(item)
            except OverflowError:
                raise ValueError(
                    f"{name} must hold finite integers, got {item!r}"
                ) from None
            if not math.isfinite(value) or value != math.floor(value):
                raise ValueError(f"{name} must hold finite integers, got {item!r}")
            flat.append(int(max(-clip, min(clip, value))))
        return np.array(flat, dtype=np.int64).reshape(array.shape)
    if array.dtype == bool:
        raise ValueError(f"{name} must hold integers, got dtype bool")
    if np.issubdtype(array.dtype, np.integer):
        if np.issubdtype(array.dtype, np.unsignedinteger):
            array = np.minimum(array, np.uint64(clip))
        return np.clip(array.astype(np.int64), -clip, clip)
    if np.issubdtype(array.dtype, np.floating):
        if not np.all(np.isfinite(array)):
            bad = array[~np.isfinite(array)].flat[0]
            raise ValueError(f"{name} must hold finite integers, got {bad}")
        fractional = array != np.floor(array)
        if np.any(fractional):
            raise ValueError(
                f"{name} must hold integers (floats are accepted only when they are "
                f"whole numbers), got {array[fractional].flat[0]}"
            )
        clipped = np.clip(array.astype(np.float64), -float(clip), float(clip))
        return clipped.astype(np.int64)
    raise ValueError(f"{name} must hold integers, got dtype {array.dtype}")


def check_callable(f, name: str, what: str):
    if not callable(f):
        raise ValueError(f"{name} must be {what}, got {f!r}")
    return f


def check_step_fits(x: np.ndarray, h: float, indices) -> None:
    """A finite-difference step ``h`` that rounding leaves intact at the coordinates used.

    At a coordinate so large that ``x + h`` rounds back to ``x`` (``|x| > 1e11`` for
    ``h = 1e-5``) the differences would silently come out 0; a step that rounding changes by
    more than 1 % is refused.
    """
    coordinates = x[list(indices)]
    realised = np.minimum(
        (coordinates + h) - coordinates, coordinates - (coordinates - h)
    )
    bad = np.abs(realised - h) > 0.01 * h
    if np.any(bad):
        raise ValueError(
            f"h = {h} is too small for x = {coordinates[bad][0]}: in floating point "
            f"x + h - x = {realised[bad][0]}; use a step of about 1e-5 times |x|"
        )


def check_indices(indices, name: str, size: int) -> list[int]:
    """Indices into a point of ``size`` coordinates (negative ones count from the end)."""
    if isinstance(indices, (numbers.Number, str, bytes)):
        raise ValueError(
            f"{name} must be a sequence of coordinate indices, got {indices!r}"
        )
    try:
        array = np.asarray(list(indices))
    except TypeError:
        raise ValueError(
            f"{name} must be a sequence of coordinate indices, got {indices!r}"
        ) from None
    if array.size and (
        array.dtype == bool or not np.issubdtype(array.dtype, np.integer)
    ):
        raise ValueError(f"{name} must hold integer indices, got dtype {array.dtype}")
    if array.ndim > 1:
        raise ValueError(
            f"{name} must be a 1-D sequence of indices, got shape {array.shape}"
        )
    out = []
    for index in array.tolist():
        if not -size <= index < size:
            raise ValueError(
                f"{name} must hold indices in [{-size}, {size - 1}] for a point of "
                f"{size} coordinates, got {index}"
            )
        out.append(index % size)
    return out
