r"""Frequency schedules other than the paper's: the finite sum and its continuum limit.

A schedule gives the frequency of pair :math:`i` as :math:`\theta_i = \theta(\nu_i)` with
:math:`\nu_i = 2i/d`. The normalised inner product of two encodings :math:`x` apart is the finite
sum :math:`S_\theta(x) = \frac{2}{d}\sum_i \cos(x\,\theta(\nu_i))`, a left Riemann sum of the
*schedule integral* :math:`J_\theta(x) = \int_0^1 \cos(x\,\theta(\nu))\,d\nu`. The paper's schedule
:math:`\theta(\nu) = b^{-\nu}` gives :func:`~posenc.decay_sum` and :func:`~posenc.decay_integral`;
this module holds the power schedules :math:`\theta(\nu) = \nu^\alpha`. Derived in chapter 7
(:ref:`ch07-bases-schedules`); the special functions behind the closed forms are in the
special-functions appendix.
"""

from __future__ import annotations

from functools import lru_cache

import mpmath as mp
import numpy as np
from scipy.integrate import quad
from scipy.optimize import minimize_scalar
from scipy.special import fresnel, roots_jacobi

from ._validate import (
    check_callable,
    check_count,
    check_dimension,
    check_positive,
    check_real_array,
)

#: Exponents with an elementary (or Fresnel) closed form: 1/2, 1 and 2.
CLOSED_FORM_EXPONENTS = (0.5, 1.0, 2.0)
#: Exponents the quadrature routes accept: beyond them the Gauss–Jacobi weight u^(1/α - 1)
#: overflows or QUADPACK's amplitude becomes too steep to integrate to 1e-12.
ALPHA_RANGE = (0.01, 100.0)
#: |x| up to which the 400-node Gauss–Jacobi rule resolves cos(xu) (to about 1e-11).
JACOBI_MAX_X = 1000.0
#: Below this |x| the closed forms are summed as a series (they would cancel).
SERIES_BELOW = 0.05


def _check_alpha(alpha) -> float:
    alpha = check_positive(alpha, "alpha")
    if not ALPHA_RANGE[0] <= alpha <= ALPHA_RANGE[1]:
        raise ValueError(
            f"alpha must lie in [{ALPHA_RANGE[0]:g}, {ALPHA_RANGE[1]:g}] for "
            f"quadrature, got {alpha:g}"
        )
    return alpha


def _series(x: np.ndarray, alpha: float) -> np.ndarray:
    """J_alpha(x) = sum_k (-1)^k x^(2k) / ((2k)! (2k alpha + 1)); 8 terms are exact to
    double precision for |x| < 0.05."""
    out = np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(8):
        if k:
            term = term * (-x * x) / ((2 * k - 1) * (2 * k))
        out = out + term / (2 * k * alpha + 1)
    return out


def schedule_sum(x, d, schedule):
    r"""The finite sum of a frequency schedule, :math:`\frac{2}{d}\sum_{i=0}^{d/2-1}
    \cos\big(x\,\theta(2i/d)\big)`.

    Derived in chapter 7 (:ref:`ch07-bases-schedules`). With ``schedule = lambda t: b**-t``
    it is :func:`~posenc.decay_sum`.

    Parameters
    ----------
    x : real or array of reals
        Relative distances.
    d : int
        Dimension, a positive even integer.
    schedule : callable
        Maps an array of indices :math:`\nu` in :math:`[0, 1)` to the frequencies
        :math:`\theta(\nu)`.

    Returns
    -------
    float or ndarray of the shape of x
    """
    d = check_dimension(d)
    schedule = check_callable(
        schedule, "schedule", "a callable mapping t in [0, 1) to θ(t)"
    )
    values = check_real_array(x, "x")
    t = 2 * np.arange(d // 2) / d
    theta = check_real_array(schedule(t), "schedule(t)")
    if theta.shape != t.shape:
        raise ValueError(
            f"schedule(t) must return one frequency per t, shape {t.shape}, "
            f"got shape {theta.shape}"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        angles = np.multiply.outer(values, theta)
    if not np.all(np.isfinite(angles)):
        raise ValueError(
            "x times schedule(t) overflows float64: the angles have no cosine"
        )
    out = np.cos(angles).mean(axis=-1)
    return float(out) if out.ndim == 0 else out


def power_sum(x, d, alpha):
    r"""The finite sum of the power schedule :math:`\theta(\nu) = \nu^\alpha`:
    :math:`\frac{2}{d}\sum_i \cos\big(x\,(2i/d)^\alpha\big)`. Derived in chapter 7
    (:ref:`ch07-schedules`)."""
    alpha = check_positive(alpha, "alpha")
    return schedule_sum(x, d, lambda t: t**alpha)


def power_integral_closed(x, alpha):
    r"""The closed forms of :math:`J_\alpha(x) = \int_0^1 \cos(x\,\nu^\alpha)\,d\nu` for
    :math:`\alpha \in \{1/2, 1, 2\}`:

    .. math::
        \begin{aligned}
        J_1(x) &= \frac{\sin x}{x},\\
        J_{1/2}(x) &= \frac{2(x \sin x + \cos x - 1)}{x^2},\\
        J_2(x) &= \sqrt{\frac{\pi}{2x}}\; C\!\left(\sqrt{2x/\pi}\right),
        \end{aligned}

    with :math:`C` the Fresnel cosine integral, :math:`J_\alpha(0) = 1` and :math:`J_\alpha`
    even in x (proposition "Integrals of the power schedules").
    Derived in chapter 7 (:ref:`ch07-closed-forms`).
    """
    alpha = check_positive(alpha, "alpha")
    if alpha not in CLOSED_FORM_EXPONENTS:
        raise ValueError(
            f"alpha must be one of {CLOSED_FORM_EXPONENTS} for a closed form, "
            f"got {alpha}; use power_integral for other exponents"
        )
    x = np.abs(check_real_array(x, "x"))
    small = x < SERIES_BELOW
    safe = np.where(small, 1.0, x)
    if alpha == 1.0:
        out = np.sin(safe) / safe
    elif alpha == 0.5:
        # 2 sin x / x + 2 (cos x - 1) / x^2: no x^2 that could overflow
        out = 2 * np.sin(safe) / safe + 2 * (np.cos(safe) - 1) / safe / safe
    else:
        out = (
            np.sqrt(np.pi / 2)
            / np.sqrt(safe)
            * fresnel(np.sqrt(2 / np.pi) * np.sqrt(safe))[1]
        )
    out = np.where(small, _series(np.where(small, x, 0.0), alpha), out)
    return float(out) if out.ndim == 0 else out


@lru_cache(maxsize=256)
def _jacobi_rule(alpha: float, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes u and weights on [0, 1] for (1/α) ∫ u^(1/α - 1) f(u) du (Gauss–Jacobi)."""
    s, w = roots_jacobi(nodes, 0.0, 1.0 / alpha - 1.0)
    return (1 + s) / 2, w * 0.5 ** (1.0 / alpha) / alpha


def power_integral_jacobi(x, alpha, nodes=400):
    r""":math:`J_\alpha(x)` by Gauss–Jacobi quadrature on the substituted form

    .. math:: J_\alpha(x) = \frac{1}{\alpha}\int_0^1 u^{1/\alpha - 1}\cos(xu)\,du,

    whose weight :math:`u^{1/\alpha-1}` the rule integrates exactly. With 400 nodes it agrees
    with the closed forms to about :math:`10^{-11}` for :math:`|x| \le 1000` (chapter 7 checks
    it up to 300); :math:`|x| > 1000` is refused. For
    :math:`\alpha > 2` the rule loses digits as nodes are added; :func:`power_integral` then
    takes the QUADPACK route. Derived in chapter 7 (:ref:`ch07-crossings`).
    """
    alpha = _check_alpha(alpha)
    nodes = check_count(nodes, "nodes", 1)
    x = check_real_array(x, "x")
    if np.any(np.abs(x) > JACOBI_MAX_X):
        raise ValueError(
            f"x must satisfy |x| <= {JACOBI_MAX_X:g} for the Gauss–Jacobi rule, "
            f"got {np.abs(x).max():g}; use power_integral_quad"
        )
    u, w = _jacobi_rule(alpha, nodes)
    out = np.cos(np.multiply.outer(x, u)) @ w
    return float(out) if out.ndim == 0 else out


def power_integral(x, alpha):
    r""":math:`J_\alpha(x) = \int_0^1 \cos(x\,\nu^\alpha)\,d\nu` by the best route: the closed
    form for :math:`\alpha \in \{1/2, 1, 2\}`; Gauss–Jacobi quadrature
    (:func:`power_integral_jacobi`) for :math:`\alpha < 2` and :math:`|x| \le 1000`; QUADPACK
    (:func:`power_integral_quad`) otherwise. Accurate to about :math:`10^{-10}`. Outside the
    closed forms, :math:`\alpha` must lie in :math:`[0.01, 100]`, and on the QUADPACK route
    every nonzero :math:`|x|` in :math:`[10^{-6}, 10^6]`; anything else is refused.
    Derived in chapter 7 (:ref:`ch07-closed-forms`)."""
    alpha = check_positive(alpha, "alpha")
    if alpha in CLOSED_FORM_EXPONENTS:
        return power_integral_closed(x, alpha)
    alpha = _check_alpha(alpha)
    values = check_real_array(x, "x")
    if alpha < 2 and np.all(np.abs(values) <= JACOBI_MAX_X):
        return power_integral_jacobi(values, alpha)
    flat = np.abs(values.ravel())
    out = np.array([1.0 if v == 0 else power_integral_quad(v, alpha) for v in flat])
    out = out.reshape(values.shape)
    return float(out) if out.ndim == 0 else out


def power_integral_quad(x, alpha):
    r""":math:`J_\alpha(x)` for one x > 0 by QUADPACK, an independent route.

    The substituted form :math:`\frac1\alpha\int_0^1 u^{1/\alpha-1}\cos(xu)\,du` is split at
    :math:`u = \min(1, 1/x)`: the head, where the cosine does not oscillate yet (and the
    amplitude may be infinite at 0), goes to the adaptive rule; the tail to QAWO, the
    oscillatory rule for a smooth amplitude times :math:`\cos(xu)`. Accurate to about
    :math:`10^{-10}` (QUADPACK's default relative tolerance: asked for less, it warns of
    round-off at the ends of the range); x must lie in :math:`[10^{-6}, 10^6]` and
    :math:`\alpha` in :math:`[0.01, 100]`. Derived in chapter 7 (:ref:`ch07-closed-forms`) and
    used again in the special-functions appendix.
    """
    x = check_positive(x, "x")
    alpha = _check_alpha(alpha)
    if not 1e-6 <= x <= 1e6:
        raise ValueError(f"x must lie in [1e-06, 1e+06] for QUADPACK, got {x:g}")

    def amplitude(u):
        return u ** (1 / alpha - 1) / alpha

    split = min(1.0, 1.0 / x)
    head = quad(
        lambda u: amplitude(u) * np.cos(x * u), 0, split, epsabs=1e-14, limit=200
    )[0]
    tail = 0.0
    if split < 1:
        tail = quad(amplitude, split, 1, weight="cos", wvar=x, epsabs=1e-14, limit=200)[
            0
        ]
    return head + tail


def first_trough(alpha):
    r"""Position and value of the first local minimum of :math:`J_\alpha` on :math:`x > 0`.

    A grid on :math:`[0.5, 12]` finds the first grid point lower than both neighbours, then a
    bounded scalar search refines it. For :math:`0.3 \le \alpha \le 2` the first trough lies
    in that range (near :math:`3\pi/2` for :math:`\alpha` near the critical exponent).
    Derived in chapter 7 (:ref:`ch07-crossings`).

    Returns
    -------
    (x, J_alpha(x)) : tuple of floats
    """
    alpha = _check_alpha(alpha)
    xs = np.linspace(0.5, 12, 400)
    v = power_integral_jacobi(xs, alpha, nodes=120)
    interior = np.flatnonzero((v[1:-1] < v[:-2]) & (v[1:-1] <= v[2:]))
    if not interior.size:
        raise ValueError(f"alpha = {alpha} has no trough of J_alpha on [0.5, 12]")
    k = interior[0] + 1
    res = minimize_scalar(
        lambda z: power_integral_jacobi(z, alpha, nodes=120),
        bounds=(xs[k - 1], xs[k + 1]),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(res.x), float(res.fun)


@lru_cache(maxsize=1)
def critical_exponent() -> float:
    r"""The critical exponent :math:`\alpha_c \approx 1.446014`, where the first trough of
    :math:`J_\alpha` touches zero. :math:`J_\alpha` changes sign for every
    :math:`\alpha \le 1` (proved by its asymptotics); that it dips below zero exactly for
    :math:`\alpha < \alpha_c` is established numerically, on the exponents chapter 7 scans
    (it would follow from the first trough's value rising with :math:`\alpha`, which is not
    proved).

    Integration by parts gives :math:`J_\alpha(x) = \cos x - \alpha x J_\alpha'(x)`, so at a
    critical point :math:`J_\alpha(x^*) = \cos x^*`, and the first trough touches zero exactly
    when it sits at :math:`x = 3\pi/2`; :math:`\alpha_c` is the root of
    :math:`J_\alpha(3\pi/2) = 0`,
    computed in mpmath (30 digits) from the hypergeometric form
    :math:`J_\alpha(x) = {}_1F_2\big(\tfrac{1}{2\alpha}; \tfrac12, 1 + \tfrac{1}{2\alpha};
    -x^2/4\big)`. Derived in chapter 7 (:ref:`ch07-crossings`) (lemma "Values at the
    critical points").
    """
    with mp.workdps(30):
        root = mp.findroot(
            lambda a: mp.hyp1f2(
                1 / (2 * a), mp.mpf(1) / 2, 1 + 1 / (2 * a), -((3 * mp.pi / 2) ** 2) / 4
            ),
            1.45,
        )
    return float(root)
