r"""Central finite differences for the gradient and blocks of the Hessian of a scalar function.

Derived in chapter 2 (the Taylor-expansion argument), which needs the gradient and three Hessian
blocks of the toy model's score with respect to the inputs at two positions, and explains the
step sizes: a central first difference has truncation error :math:`O(h^2)` and rounding error
:math:`O(u/h)` (:math:`u \approx 10^{-16}`), balanced near :math:`h = 10^{-5}`; a central second
difference has rounding error :math:`O(u/h^2)`, so it takes the larger :math:`h = 10^{-4}`.
These are the defaults, suited to a function of size about one in double precision.

The functions evaluate ``f`` at exactly the points the chapter's own code does, ``x`` plus a
step vector, and combine the values in the same order, so the two give the same numbers.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._validate import check_finite_real


def _check_function(f):
    if not callable(f):
        raise ValueError(f"f must be a callable that maps a 1-D array to a real number, got {f!r}")
    return f


def _check_point(x) -> np.ndarray:
    """``x`` as a new 1-D float64 array of finite real numbers."""
    try:
        array = np.asarray(x)
    except (TypeError, ValueError):
        raise ValueError(f"x must be a 1-D array of finite real numbers, got {x!r}") from None
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer)
                                   or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"x must hold real numbers, got dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"x must be a 1-D array, got an array of shape {array.shape}")
    if array.size == 0:
        raise ValueError("x must hold at least one coordinate, got an empty array")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        bad = array[~np.isfinite(array)][0]
        raise ValueError(f"x must be finite, got {bad}")
    return array


def _check_step(h) -> float:
    h = check_finite_real(h, "h")
    if h <= 0:
        raise ValueError(f"h must be a finite real number > 0, got {h}")
    return h


def _check_step_fits(x: np.ndarray, h: float, indices) -> None:
    """Hardening fix: at a coordinate so large that x + h rounds back to x (|x| > 1e11 for
    h = 1e-5) the differences came out 0, silently: the gradient of f(x) = x at 1e12 was 0.
    Refuse a step that rounding changes by more than 1 % (|x| above about 1e9 for h = 1e-5)."""
    coordinates = x[list(indices)]
    realised = np.minimum((coordinates + h) - coordinates, coordinates - (coordinates - h))
    bad = np.abs(realised - h) > 0.01 * h
    if np.any(bad):
        raise ValueError(f"h = {h} is too small for x = {coordinates[bad][0]}: in floating point "
                         f"x + h - x = {realised[bad][0]}; use a step of about 1e-5 times |x|")


def _check_indices(indices, name: str, size: int) -> list[int]:
    """Indices into a point of ``size`` coordinates (negative ones count from the end)."""
    if isinstance(indices, (numbers.Number, str, bytes)):
        raise ValueError(f"{name} must be a sequence of coordinate indices, got {indices!r}")
    try:
        array = np.asarray(list(indices))
    except TypeError:
        raise ValueError(f"{name} must be a sequence of coordinate indices, "
                         f"got {indices!r}") from None
    if array.size and (array.dtype == bool or not np.issubdtype(array.dtype, np.integer)):
        raise ValueError(f"{name} must hold integer indices, got dtype {array.dtype}")
    if array.ndim > 1:
        raise ValueError(f"{name} must be a 1-D sequence of indices, got shape {array.shape}")
    out = []
    for index in array.tolist():
        if not -size <= index < size:
            raise ValueError(f"{name} must hold indices in [{-size}, {size - 1}] for a point of "
                             f"{size} coordinates, got {index}")
        out.append(index % size)
    return out


def _evaluate(f, point: np.ndarray) -> float:
    value = np.asarray(f(point))
    if value.shape != () or not (np.issubdtype(value.dtype, np.integer)
                                 or np.issubdtype(value.dtype, np.floating)):
        raise ValueError(f"f must return a real scalar, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"f must return finite values, got {value} at x = {point!r}")
    return value


def gradient(f, x, h=1e-5) -> np.ndarray:
    r"""The gradient of a scalar function by central differences.

    .. math:: \frac{\partial f}{\partial x_i}(x) \approx \frac{f(x + h e_i) - f(x - h e_i)}{2h},

    exact for quadratics (up to rounding) and accurate to :math:`O(h^2)` for smooth ``f``.
    Derived in chapter 2.

    Parameters
    ----------
    f : callable
        Maps a 1-D float array of the shape of ``x`` to a real number.
    x : array_like, shape (n,)
        The point, finite.
    h : float
        The step, > 0 (default :math:`10^{-5}`, see the module docstring).

    Returns
    -------
    numpy.ndarray, shape (n,)
    """
    f = _check_function(f)
    x = _check_point(x)
    h = _check_step(h)
    _check_step_fits(x, h, range(x.size))
    grad = np.empty(x.size)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = h
        forward = _evaluate(f, x + step)
        step[i] = -h
        backward = _evaluate(f, x + step)
        grad[i] = (forward - backward) / (2 * h)
    return grad


def hessian_block(f, x, rows, cols, h=1e-4) -> np.ndarray:
    r"""A block of the Hessian of a scalar function by central differences.

    Entry :math:`(a, b)` approximates :math:`\partial^2 f / \partial x_i \partial x_j` with
    :math:`i = \mathrm{rows}[a]`, :math:`j = \mathrm{cols}[b]`:

    .. math:: \frac{f(x + h e_i + h e_j) - f(x + h e_i - h e_j) - f(x - h e_i + h e_j)
              + f(x - h e_i - h e_j)}{4h^2},

    exact for quadratics (up to rounding) and accurate to :math:`O(h^2)` for smooth ``f``. For
    :math:`i = j` it is the second difference with step :math:`2h`. With ``rows`` the
    coordinates of one input vector and ``cols`` those of another this is the cross block
    :math:`H = \partial^2 f / \partial x_m \partial x_n` of chapter 2; with
    ``rows = cols = range(n)`` it is the whole Hessian. Derived in chapter 2.

    Parameters
    ----------
    f : callable
        Maps a 1-D float array of the shape of ``x`` to a real number.
    x : array_like, shape (n,)
        The point, finite.
    rows, cols : sequence of int
        Coordinate indices (a ``range`` or a list); negative indices count from the end.
    h : float
        The step, > 0 (default :math:`10^{-4}`, see the module docstring).

    Returns
    -------
    numpy.ndarray, shape (len(rows), len(cols))
    """
    f = _check_function(f)
    x = _check_point(x)
    rows = _check_indices(rows, "rows", x.size)
    cols = _check_indices(cols, "cols", x.size)
    h = _check_step(h)
    _check_step_fits(x, h, sorted(set(rows) | set(cols)))

    def at(i, si, j, sj):
        step = np.zeros(x.size)
        step[i] += si * h
        step[j] += sj * h
        return _evaluate(f, x + step)

    return np.array([[(at(i, 1, j, 1) - at(i, 1, j, -1) - at(i, -1, j, 1) + at(i, -1, j, -1))
                      / (4 * h * h) for j in cols] for i in rows]).reshape(len(rows), len(cols))
