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

import numpy as np

from ._validate import (
    check_callable,
    check_indices,
    check_positive,
    check_real_array,
    check_step_fits,
)


def _evaluate(f, point: np.ndarray) -> float:
    value = np.asarray(f(point))
    if value.shape != () or not (
        np.issubdtype(value.dtype, np.integer)
        or np.issubdtype(value.dtype, np.floating)
    ):
        raise ValueError(f"f must return a real scalar, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"f must return finite values, got {value} at x = {point!r}")
    return value


def gradient(f, x, h=1e-5) -> np.ndarray:
    r"""The gradient of a scalar function by central differences.

    .. math:: \frac{\partial f}{\partial x_i}(x) \approx \frac{f(x + h e_i) - f(x - h e_i)}{2h},

    exact for quadratics (up to rounding) and accurate to :math:`O(h^2)` for smooth ``f``.
    Derived in chapter 2 (:ref:`ch02-numerical-check`).

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
    f = check_callable(f, "f", "a callable that maps a 1-D array to a real number")
    x = check_real_array(x, "x", ndim=1, nonempty=True)
    h = check_positive(h, "h")
    check_step_fits(x, h, range(x.size))
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

    .. math::
        \begin{aligned}
        \frac{1}{4h^2}\bigl(&f(x + h e_i + h e_j) - f(x + h e_i - h e_j)\\
                            &- f(x - h e_i + h e_j) + f(x - h e_i - h e_j)\bigr),
        \end{aligned}

    exact for quadratics (up to rounding) and accurate to :math:`O(h^2)` for smooth ``f``. For
    :math:`i = j` it is the second difference with step :math:`2h`. With ``rows`` the
    coordinates of one input vector and ``cols`` those of another this is the cross block
    :math:`H = \partial^2 f / \partial x_m \partial x_n` of chapter 2; with
    ``rows = cols = range(n)`` it is the whole Hessian. Derived in chapter 2
    (:ref:`ch02-numerical-check`).

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
    f = check_callable(f, "f", "a callable that maps a 1-D array to a real number")
    x = check_real_array(x, "x", ndim=1, nonempty=True)
    rows = check_indices(rows, "rows", x.size)
    cols = check_indices(cols, "cols", x.size)
    h = check_positive(h, "h")
    check_step_fits(x, h, sorted(set(rows) | set(cols)))

    def at(i, si, j, sj):
        step = np.zeros(x.size)
        step[i] += si * h
        step[j] += sj * h
        return _evaluate(f, x + step)

    return np.array(
        [
            [
                (at(i, 1, j, 1) - at(i, 1, j, -1) - at(i, -1, j, 1) + at(i, -1, j, -1))
                / (4 * h * h)
                for j in cols
            ]
            for i in rows
        ]
    ).reshape(len(rows), len(cols))


def taylor_errors(f, p_m, p_n, epsilons, h_gradient=1e-5, h_hessian=1e-4):
    r"""How well the second-order expansion in two position vectors fits a function.

    For a scalar ``f(u_m, u_n)`` (the model with :math:`u_m` added to token m and :math:`u_n`
    to token n) and position vectors :math:`p_m, p_n` scaled by :math:`\varepsilon`, returns

    - the error of the second-order Taylor expansion at :math:`(\varepsilon p_m, \varepsilon p_n)`,
      :math:`|\tilde f(\varepsilon) - f_0 - \varepsilon(p_m^\top g_m + p_n^\top g_n)
      - \varepsilon^2(\tfrac12 p_m^\top H_{mm} p_m + \tfrac12 p_n^\top H_{nn} p_n
      + p_m^\top H p_n)|`;
    - the error of the mixed difference against the cross term,
      :math:`|\Delta(\varepsilon) - \varepsilon^2 p_m^\top H p_n|`, where
      :math:`\Delta(\varepsilon) = \tilde f(\varepsilon p_m, \varepsilon p_n)
      - \tilde f(\varepsilon p_m, 0) - \tilde f(0, \varepsilon p_n) + \tilde f(0, 0)`;
    - the cross term :math:`p_m^\top H p_n`,

    with the gradients and Hessian blocks at 0 taken by :func:`gradient` and
    :func:`hessian_block`. Both errors are :math:`O(\varepsilon^3)` when the expansion is right.
    Derived in chapter 2 (:ref:`ch02-numerical-check`).

    Returns
    -------
    (second_order_errors, cross_term_errors, cross_term) : (ndarray, ndarray, float)
    """
    f = check_callable(f, "f", "a callable f(u_m, u_n) returning a real number")
    p_m = check_real_array(p_m, "p_m", ndim=1, nonempty=True)
    p_n = check_real_array(p_n, "p_n", ndim=1, nonempty=True)
    if p_n.shape != p_m.shape:
        raise ValueError(f"p_n must have the shape of p_m {p_m.shape}, got {p_n.shape}")
    epsilons = check_real_array(epsilons, "epsilons", ndim=1, nonempty=True)
    h_gradient = check_positive(h_gradient, "h_gradient")
    h_hessian = check_positive(h_hessian, "h_hessian")
    reach = np.max(np.abs(epsilons)) * max(
        np.max(np.abs(p_m)), np.max(np.abs(p_n)), 1.0
    )
    if reach > 1e100:
        raise ValueError(
            f"epsilons must keep epsilon * p below 1e100 (their squares enter the "
            f"expansion), got a largest |epsilon p| of {reach:g}"
        )
    d = p_m.size
    zero = np.zeros(d)

    def f_flat(u):
        return f(u[:d], u[d:])

    u0, m, n = np.zeros(2 * d), range(d), range(d, 2 * d)
    g_m, g_n = np.split(gradient(f_flat, u0, h=h_gradient), 2)
    h_mm = hessian_block(f_flat, u0, m, m, h=h_hessian)
    h_nn = hessian_block(f_flat, u0, n, n, h=h_hessian)
    h_mn = hessian_block(f_flat, u0, m, n, h=h_hessian)
    f0 = _evaluate(f_flat, u0)
    cross_term = float(p_m @ h_mn @ p_n)
    second, mixed_error = [], []
    for eps in epsilons:
        expansion = (
            f0
            + eps * (p_m @ g_m + p_n @ g_n)
            + eps**2 * (0.5 * p_m @ h_mm @ p_m + 0.5 * p_n @ h_nn @ p_n + cross_term)
        )
        both = _evaluate(f_flat, np.concatenate([eps * p_m, eps * p_n]))
        second.append(abs(both - expansion))
        mixed = (
            both
            - _evaluate(f_flat, np.concatenate([eps * p_m, zero]))
            - _evaluate(f_flat, np.concatenate([zero, eps * p_n]))
            + f0
        )
        mixed_error.append(abs(mixed - eps**2 * cross_term))
    return np.array(second), np.array(mixed_error), cross_term
