r"""Long-range decay: the inner product of two encodings as a function of their distance.

For two positions :math:`x = m - n` apart, :math:`\langle \mathrm{PE}(m), \mathrm{PE}(n) \rangle
= \sum_i \cos(x\theta_i)`. Divided by :math:`d/2` this is a Riemann sum of
:math:`\cos(x b^{-\nu})` on :math:`[0, 1]`, whose integral has a closed form in the cosine
integral. Derived in chapter 5; the sum against the integral is chapter 6.
"""

from __future__ import annotations

import math
from functools import lru_cache, partial

import numpy as np
from scipy.integrate import quad
from scipy.optimize import brentq
from scipy.special import roots_legendre, sici

from ._validate import (
    check_base,
    check_bool,
    check_finite_real,
    check_positive,
    check_real_array,
)
from .encoding import frequencies

# Below this the power series of Cin is used.
CIN_SERIES_LIMIT = 2.0
# A base below e with an integration interval [x/b, x] narrower than this many radians is
# integrated by Gauss-Legendre quadrature: there the closed form loses digits to cancellation.
NARROW_WIDTH = 100.0


def _composite_gauss_legendre(panels: int, order: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights on [0, 1]: Gauss-Legendre of ``order`` on each of ``panels`` panels.
    (One rule of high order would carry weight errors near 1e-14.)"""
    nodes, weights = roots_legendre(order)
    half = 0.5 / panels
    centres = (np.arange(panels) + 0.5) / panels
    return (
        (centres[:, None] + half * nodes[None, :]).ravel(),
        np.tile(weights * half, panels),
    )


# The phase x b^-t of the narrow case changes at a rate of at most about 1.6 NARROW_WIDTH over
# t in [0, 1]; 16 panels of 16 nodes integrate cos(300 t) to 1e-15.
_T_NODES, _T_WEIGHTS = _composite_gauss_legendre(16, 16)
# Ranges in which decay_integral_quad keeps about 1e-13 (QUADPACK's QAWO).
QUAD_X_RANGE = (1e-6, 1e6)
QUAD_BASE_RANGE = (1.001, 1e10)
CHUNK = (
    1 << 14
)  # values of x at once: bounds memory (the quadrature takes 256 per value)


# Cin(z) = sum_{k>=1} (-1)^(k+1) z^(2k) / (2k (2k)!); 13 terms reach 1e-17 relative at z = 2.
_CIN_COEFFICIENTS = np.array(
    [(-1) ** (k + 1) / (2 * k * math.factorial(2 * k)) for k in range(1, 14)]
)


def cin(z):
    r"""The entire cosine integral :math:`\mathrm{Cin}(z) = \int_0^z (1 - \cos u)/u\,du
    = \gamma + \ln z - \mathrm{Ci}(z)`, for :math:`z \ge 0`.

    By its power series :math:`\sum_{k \ge 1} (-1)^{k+1} z^{2k} / (2k\,(2k)!)` up to
    :math:`z = 2`, where the right-hand side would lose digits to cancellation, and by
    ``scipy.special.sici`` beyond. Accurate to double precision at every :math:`z \ge 0`.
    Derived in chapter 5 (:ref:`ch05-closed-form`) (the closed form near the origin) and
    in the special-functions
    appendix.
    """
    z = check_real_array(z, "z")
    if np.any(z < 0):
        raise ValueError(f"z must be >= 0, got {z[z < 0].flat[0]}")
    out = np.empty_like(z)
    small = z <= CIN_SERIES_LIMIT
    z2 = z[small] ** 2
    series = np.zeros_like(z2)
    for coefficient in _CIN_COEFFICIENTS[::-1]:  # Horner's rule in z^2
        series = series * z2 + coefficient
    out[small] = series * z2
    out[~small] = np.euler_gamma + np.log(z[~small]) - sici(z[~small])[1]
    return float(out) if out.ndim == 0 else out


def _cin_scalar(z: float) -> float:
    if z <= CIN_SERIES_LIMIT:
        z2, series = z * z, 0.0
        for coefficient in _CIN_COEFFICIENTS[::-1]:
            series = series * z2 + coefficient
        return float(series * z2)
    return float(np.euler_gamma + np.log(z) - sici(z)[1])


def _decay_integral_abs_scalar(x: float, base: float) -> float:
    """The same cases as :func:`_decay_integral_abs` for one x >= 0, without array overhead
    (root finders and loops call the integral point by point)."""
    log_base = np.log1p(base - 1.0)
    if x == 0.0:
        return 1.0
    if log_base < 1.0 and x * -np.expm1(-log_base) <= NARROW_WIDTH:
        return float(_decay_integral_abs(np.array([x]), base)[0])
    if x / base > CIN_SERIES_LIMIT:
        return float((sici(x)[1] - sici(x / base)[1]) / log_base)
    return float(1.0 - (_cin_scalar(x) - _cin_scalar(x / base)) / log_base)


def _decay_integral_abs(x: np.ndarray, base: float) -> np.ndarray:
    """The integral for x >= 0 (a 1-D chunk)."""
    log_base = np.log1p(
        base - 1.0
    )  # base - 1 is exact near 1, where log(base) would lose digits
    out = np.empty_like(x)
    width = x * -np.expm1(
        -log_base
    )  # length of [x/b, x], the range of the phase x b^-t
    narrow = (log_base < 1.0) & (width <= NARROW_WIDTH)
    both_large = ~narrow & (x / base > CIN_SERIES_LIMIT)
    rest = ~narrow & ~both_large

    # Both ends oscillatory: the cosine integrals are O(1/x), their difference is accurate.
    xl = x[both_large]
    out[both_large] = (sici(xl)[1] - sici(xl / base)[1]) / log_base
    # Near the origin: 1 - (Cin(x) - Cin(x/b)) / ln b keeps every digit of the small difference.
    xr = x[rest]
    out[rest] = 1.0 - (cin(xr) - cin(xr / base)) / log_base
    # Base close to 1: the closed form would divide a cancelled difference by a tiny ln b, so
    # integrate cos(x e^{-t ln b}) over t in [0, 1] by composite Gauss-Legendre instead.
    xn = x[narrow]
    if xn.size:
        phases = np.multiply.outer(xn, np.exp(-log_base * _T_NODES))
        out[narrow] = np.where(xn == 0, 1.0, np.cos(phases) @ _T_WEIGHTS)
    return out


def decay_integral(x, base=10000.0):
    r"""The continuum limit of the normalised inner product of two encodings ``x`` apart.

    .. math:: I_b(x) = \int_0^1 \cos\!\left(x\, b^{-\nu}\right) d\nu
              = \frac{\mathrm{Ci}(|x|) - \mathrm{Ci}(|x|/b)}{\ln b}, \qquad I_b(0) = 1,

    the real part of :math:`\int_0^1 e^{\mathrm{i} x b^{-\nu}} d\nu`. Even in x, vectorised over x.
    Evaluated as :math:`1 - (\mathrm{Cin}(x) - \mathrm{Cin}(x/b))/\ln b` near the origin
    (no cancellation), as the difference of cosine integrals where both are oscillatory, and
    by Gauss-Legendre quadrature when the base is so close to 1 that the closed form cancels.
    Derived in chapter 5 (:ref:`ch05-closed-form`).

    Parameters
    ----------
    x : real or array of reals
        Relative distance m - n (any finite real).
    base : float
        The base b > 1 of the frequencies.

    Returns
    -------
    float or ndarray of the shape of x
    """
    base = check_base(base)
    if isinstance(x, (float, int, np.floating, np.integer)) and not isinstance(
        x, (bool, np.bool_)
    ):
        return _decay_integral_abs_scalar(abs(check_finite_real(x, "x")), base)
    values = check_real_array(x, "x")
    flat = np.abs(values.ravel())
    out = np.empty_like(flat)
    for start in range(0, flat.size, CHUNK):
        out[start : start + CHUNK] = _decay_integral_abs(
            flat[start : start + CHUNK], base
        )
    out = out.reshape(values.shape)
    return float(out) if out.ndim == 0 else out


def decay_sum(x, d, base=10000.0):
    r"""The normalised inner product of two sinusoidal encodings ``x`` positions apart.

    .. math:: S_{d,b}(x) = \frac{2}{d} \sum_{i=0}^{d/2-1} \cos(x\,\theta_i),
              \qquad \theta_i = b^{-2i/d},

    so that :math:`S(0) = 1` and :math:`S(x) = \langle \mathrm{PE}(m), \mathrm{PE}(n)\rangle
    / (d/2)` for :math:`x = m - n`. A left Riemann sum of :func:`decay_integral`'s integrand
    with step 2/d. Derived in chapter 5 (:ref:`ch05-riemann`); compared with the
    integral in chapter 6.

    Parameters
    ----------
    x : real or array of reals
    d : int
        Dimension, a positive even integer.
    base : float
        The base b > 1.
    """
    theta = frequencies(d, base)
    values = check_real_array(x, "x")
    flat = values.ravel()
    out = np.empty_like(flat)
    rows = max(1, (1 << 20) // theta.size)  # about 8 MB of angles at a time
    for start in range(0, flat.size, rows):
        out[start : start + rows] = np.cos(
            np.multiply.outer(flat[start : start + rows], theta)
        ).mean(axis=1)
    out = out.reshape(values.shape)
    return float(out) if out.ndim == 0 else out


@lru_cache(maxsize=1)
def ci_first_zero() -> float:
    r"""The first zero :math:`c_0 = 0.6165054856\ldots` of the cosine integral
    :math:`\mathrm{Ci}`, to double precision (Brent's method on ``scipy.special.sici``).

    For :math:`b \ge 100` the decay integral's first zero lies within 3 of :math:`c_0 b`
    (chapter 5, proposition "The first zero"); for small bases it is elsewhere.

    Derived in chapter 5 (:ref:`ch05-zero-dip`).
    """
    return float(brentq(lambda z: sici(z)[1], 0.1, 1.0, xtol=1e-16, rtol=8.9e-16))


def decay_integral_slope_bound(x, base) -> float:
    r"""An upper bound on :math:`|I_b'|` over :math:`[x, \infty)`.

    :math:`I_b'(x) = (\cos x - \cos(x/b))/(x \ln b)` and
    :math:`|\cos x - \cos(x/b)| \le \min\big(2,\; x(1 - b^{-1})\big)`, so
    :math:`|I_b'| \le \min\big(2/x,\; 1 - b^{-1}\big)/\ln b`, a bound that does not increase
    with x. Derived in chapter 5 (:ref:`ch05-zero-dip`).
    """
    x = check_finite_real(x, "x")
    base = check_base(base)
    # for x <= 0 the interval [x, oo) holds 0, where the bound is largest
    return min(2.0 / x if x > 0 else np.inf, -np.expm1(-np.log(base))) / np.log(base)


def decay_first_zero(base=10000.0, *, with_certificate=False):
    r"""The first zero :math:`x_0(b)` of the decay integral, certified (below) to be the first.

    A walk from :math:`x = 0` takes steps short enough that :math:`I_b` cannot reach zero
    within them. From a point where :math:`I_b(x) = v > 0` it may step by
    :math:`h_1 = v / (2 L(x))`, with :math:`L(x)` from :func:`decay_integral_slope_bound`, or
    by the second-order step :math:`h_2 = (s + \sqrt{s^2 + Mv})/M`, where
    :math:`s = I_b'(x) = (\cos x - \cos(x/b))/(x \ln b)` and
    :math:`M = (1 - b^{-2})/(2\ln b) \ge |I_b''|` everywhere; either way
    :math:`I_b \ge v/2 > 0` on :math:`[x, x + h]`, and it takes the longer. The steps shrink
    as the walk nears the first zero; once a step falls below :math:`10^{-9}(1 + x)` the walk
    probes ahead for the first negative value and Brent's method locates the sign change.
    Every point the walk passed is certified positive (up to the :math:`10^{-16}` error of
    evaluating :math:`I_b`), so no zero lies before the final bracket, at most about
    :math:`10^{-6} x_0` long, in which Brent's method finds the sign change.
    Derived in chapter 5 (:ref:`ch05-zero-dip`).

    Parameters
    ----------
    base : float
        The base b > 1.
    with_certificate : bool
        Also return the walk: the start of the final bracket (up to which :math:`I_b > 0` is
        certified) and the number of steps.

    Returns
    -------
    float, or (x0, certified_up_to, steps) with ``with_certificate=True``
    """
    base = check_base(base)
    with_certificate = check_bool(with_certificate, "with_certificate")
    log_base = np.log1p(base - 1.0)
    curvature = -np.expm1(-2.0 * log_base) / (2.0 * log_base)  # bounds |I_b''|
    value = partial(_decay_integral_abs_scalar, base=base)
    x, v, steps = 0.0, 1.0, 0
    while True:
        slope = 0.0 if x == 0 else (np.cos(x) - np.cos(x / base)) / x / log_base
        first = v / (2.0 * decay_integral_slope_bound(x, base))
        second = (slope + np.sqrt(slope * slope + curvature * v)) / curvature
        h = max(first, second)
        if h < 1e-9 * (1.0 + x):
            break
        x += h
        v = value(x)
        steps += 1
        if steps > 100_000:  # unreachable for bases up to 1e12 (a few hundred steps)
            raise RuntimeError(
                f"the certified walk did not reach the first zero for base {base}"
            )
    certified = x
    probe = 1e-9 * (1.0 + x)
    while value(x + probe) >= 0:
        probe *= 2.0
        if probe > 1e-6 * (1.0 + x):
            raise RuntimeError(f"I_b touches zero near x = {x} without changing sign")
    zero = brentq(value, x, x + probe, xtol=1e-15 * (1.0 + x), rtol=8.9e-16)
    return (zero, certified, steps) if with_certificate else zero


def decay_integral_quad(x, base=10000.0) -> float:
    r""":math:`I_b(x)` for one :math:`x > 0` by QUADPACK's oscillatory rule, an independent
    route to the closed form.

    After the substitution :math:`u = x b^{-\nu}`,
    :math:`I_b(x) = \int_{x/b}^{x} \frac{1}{u \ln b}\cos u\,du`: a smooth amplitude times
    :math:`\cos u`, which QAWO (``scipy.integrate.quad`` with ``weight="cos"``) integrates with
    modified Clenshaw–Curtis moments; about :math:`10^{-13}` accurate for
    :math:`10^{-6} \le x \le 10^6`, :math:`1.001 \le b \le 10^{10}` and :math:`x \ge 10^{-12} b`,
    the ranges it accepts.
    Derived in chapter 5 (:ref:`ch05-numerics`); chapter 7 uses it again.
    """
    x = check_positive(x, "x")
    base = check_base(base)
    # QAWO's moments need a few oscillations and a tame amplitude: outside these ranges it
    # warns or loses digits, and the closed form (decay_integral) is the better route anyway.
    if not QUAD_X_RANGE[0] <= x <= QUAD_X_RANGE[1]:
        raise ValueError(
            f"x must lie in [{QUAD_X_RANGE[0]:g}, {QUAD_X_RANGE[1]:g}] for "
            f"QUADPACK's oscillatory rule, got {x:g}; use decay_integral"
        )
    if not QUAD_BASE_RANGE[0] <= base <= QUAD_BASE_RANGE[1]:
        raise ValueError(
            f"base must lie in [{QUAD_BASE_RANGE[0]:g}, {QUAD_BASE_RANGE[1]:g}] "
            f"for QUADPACK's oscillatory rule, got {base:g}; use decay_integral"
        )
    if x / base < 1e-12:
        raise ValueError(
            f"x must be at least 1e-12 times the base for QUADPACK's oscillatory "
            f"rule (the amplitude 1/u then spans too many decades), got x = {x:g} "
            f"with base {base:g}; use decay_integral"
        )
    log_base = np.log(base)
    return quad(
        lambda u: 1.0 / (u * log_base),
        x / base,
        x,
        weight="cos",
        wvar=1.0,
        epsabs=1e-14,
        limit=500,
    )[0]
