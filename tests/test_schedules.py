"""Tests for posenc.schedules: finite sums of frequency schedules and the power-schedule
integral J_alpha(x) = int_0^1 cos(x t^alpha) dt.

The references are independent of the library: a plain loop over the pairs for the sums,
mpmath's tanh-sinh quadrature at 30 digits and its hypergeometric 1F2 for J_alpha, and
the classical first minimum of sin(x)/x (tan x = x) for the troughs. Bad input is tested
in test_hardening.py.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.references import PROPERTY, mp_power_integral

from posenc import (
    critical_exponent,
    decay_sum,
    first_trough,
    power_integral,
    power_integral_closed,
    power_integral_jacobi,
    power_integral_quad,
    power_sum,
    schedule_sum,
)
from posenc.schedules import ALPHA_RANGE, JACOBI_MAX_X


def mp_hypergeometric(x, alpha):
    """J_alpha(x) = 1F2(1/(2 alpha); 1/2, 1 + 1/(2 alpha); -x^2/4), term by term
    integration of the cosine series."""
    a = 1 / (2 * mp.mpf(alpha))
    return mp.hyp1f2(a, mp.mpf(1) / 2, 1 + a, -(mp.mpf(x) ** 2) / 4)


def sum_loop(x, d, theta):
    return 2 / d * sum(math.cos(x * theta(2 * i / d)) for i in range(d // 2))


# -------------------------------------------------------------------------- finite sums


@PROPERTY
@given(
    x=st.floats(-1e4, 1e4),
    d=st.integers(1, 64).map(lambda k: 2 * k),
    base=st.floats(1.01, 1e8),
)
def test_schedule_sum_of_the_papers_schedule_is_decay_sum(x, d, base):
    got = schedule_sum(x, d, lambda t: base**-t)
    assert got == pytest.approx(decay_sum(x, d, base), rel=0, abs=1e-12)
    assert got == pytest.approx(sum_loop(x, d, lambda t: base**-t), rel=0, abs=1e-11)


@pytest.mark.parametrize("alpha", [0.3, 0.5, 1.0, 1.446, 2.0, 5.0])
@pytest.mark.parametrize("d", [2, 16, 128])
def test_power_sum_equals_the_loop(alpha, d):
    xs = np.array([0.0, 0.5, -3.0, 40.0, 1e3])
    got = power_sum(xs, d, alpha)
    want = [sum_loop(x, d, lambda t: t**alpha) for x in xs]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert power_sum(0.0, d, alpha) == 1.0 and isinstance(
        power_sum(1.0, d, alpha), float
    )


def test_schedule_sum_keeps_the_shape_of_x():
    xs = np.arange(12.0).reshape(3, 4)
    assert schedule_sum(xs, 8, lambda t: 1 - t).shape == (3, 4)
    assert schedule_sum([], 8, lambda t: 1 - t).shape == (0,)


@pytest.mark.parametrize("alpha", [0.5, 1.3, 2.0])
def test_power_sum_tends_to_the_integral(alpha):
    """A left Riemann sum with step 2/d: its error falls like 1/d."""
    xs = np.linspace(0, 20, 41)
    errors = [
        np.max(np.abs(power_sum(xs, d, alpha) - power_integral(xs, alpha)))
        for d in (64, 256, 1024)
    ]
    assert errors[0] > 3 * errors[1] > 9 * errors[2]
    assert errors[2] < 0.02


# ------------------------------------------------------------------------- the integral


CLOSED = [0.5, 1.0, 2.0]


@pytest.mark.parametrize("alpha", CLOSED)
@pytest.mark.parametrize("x", [0.5, 1.0, 3.0, 4.712, 7.0, 50.0, 300.0])
def test_closed_forms_against_mpmath_quadrature(alpha, x):
    want = mp_power_integral(x, alpha)
    assert power_integral_closed(x, alpha) == pytest.approx(want, rel=0, abs=2e-15)
    assert power_integral_closed(-x, alpha) == power_integral_closed(x, alpha)


@pytest.mark.parametrize("alpha", CLOSED)
def test_closed_forms_near_zero(alpha):
    """J_alpha(x) = 1 - x^2 / (2 (2 alpha + 1)) + O(x^4): no cancellation may eat it."""
    xs = np.array([1e-12, 1e-8, 1e-4, 1e-2])
    want = [float(mp_hypergeometric(x, alpha)) for x in xs]
    np.testing.assert_allclose(
        power_integral_closed(xs, alpha), want, rtol=1e-15, atol=0
    )
    assert power_integral_closed(0.0, alpha) == 1.0


@pytest.mark.parametrize("alpha", CLOSED)
def test_closed_forms_far_out(alpha):
    """|J_alpha(x)| <= C / x^min(1, 1/alpha) far out; no overflow on the way."""
    xs = np.array([1e10, 1e100, 1e200, 1e300])
    values = power_integral_closed(xs, alpha)
    assert np.all(np.abs(values) <= 3 / xs ** min(1, 1 / alpha))


@pytest.mark.parametrize("alpha", CLOSED)
def test_jacobi_rule_equals_the_closed_forms_up_to_the_refusal_limit(alpha):
    """The docstring's promise: 400 nodes agree with the closed forms to about 1e-11 for
    every |x| <= 1000 (measured: at most 3.7e-12, at alpha = 2). With 200 nodes the rule
    misses by 0.2 near |x| = 1000, so this grid does see the rule running out of nodes."""
    xs = np.linspace(-JACOBI_MAX_X, JACOBI_MAX_X, 4001)
    np.testing.assert_allclose(
        power_integral_jacobi(xs, alpha),
        power_integral_closed(xs, alpha),
        rtol=0,
        atol=1e-11,
    )


@pytest.mark.parametrize("alpha", [0.2, 0.7, 1.3, 1.446, 2.5])
@pytest.mark.parametrize("x", [0.3, 4.712, 25.0, 120.0, 300.0])
def test_jacobi_and_quad_against_mpmath(alpha, x):
    want = mp_power_integral(x, alpha)
    assert power_integral_jacobi(x, alpha) == pytest.approx(want, rel=0, abs=1e-10)
    assert power_integral(x, alpha) == pytest.approx(want, rel=0, abs=1e-10)
    assert power_integral_quad(x, alpha) == pytest.approx(want, rel=0, abs=1e-12)


@pytest.mark.parametrize("alpha", [3.0, 10.0])
@pytest.mark.parametrize("x", [4.712, 120.0])
def test_power_integral_for_large_exponents(alpha, x):
    """For alpha > 2 the weight u^(1/alpha - 1) nears 1/u; QUADPACK keeps 1e-12, and the
    public power_integral must keep the 1e-10 it has for small exponents."""
    want = mp_power_integral(x, alpha)
    assert power_integral_quad(x, alpha) == pytest.approx(want, rel=0, abs=1e-12)
    assert power_integral(x, alpha) == pytest.approx(want, rel=0, abs=1e-10)


def test_quad_route_keeps_its_docstrings_accuracy():
    """power_integral_quad says "accurate to about 1e-10": QUADPACK stops at its default
    relative tolerance, and asked for a tighter one it warns of round-off at the ends of its
    range. Measured on these 150 random (x, alpha): at most 9.2e-11 (x = 0.20, alpha = 0.50),
    the next worst 2.1e-12. The docstring said 1e-13 before, which this test refutes."""
    rng = np.random.default_rng(0)
    xs = 10 ** rng.uniform(-1, math.log10(200), 150)
    alphas = rng.uniform(0.2, 5, 150)
    errors = [
        abs(power_integral_quad(x, a) - mp_power_integral(x, a))
        for x, a in zip(xs, alphas, strict=True)
    ]
    assert max(errors) < 2e-10


@pytest.mark.parametrize("x", [2e3, 1e4])
def test_power_integral_far_out_is_right_or_refused(x):
    """Beyond |x| ~ 1000 the 400-node Gauss-Jacobi rule no longer resolves cos(x u): the
    public power_integral must then either stay accurate or refuse x, never be silently
    off."""
    want = power_integral_quad(x, 1.3)
    try:
        got = power_integral(x, 1.3)
    except ValueError as error:
        assert str(error).startswith("x ")
    else:
        assert got == pytest.approx(want, rel=0, abs=1e-10)


def test_power_integral_dispatches_to_the_closed_forms():
    xs = np.linspace(-40, 40, 81)
    for alpha in CLOSED:
        np.testing.assert_array_equal(
            power_integral(xs, alpha), power_integral_closed(xs, alpha)
        )
    np.testing.assert_array_equal(
        power_integral(xs, 1.3), power_integral_jacobi(xs, 1.3)
    )


# --------------------------------------------------------------------------- troughs


def test_first_trough_of_sinc():
    """J_1 = sin(x)/x; its first minimum solves tan x = x, where J_1 = cos x."""
    with mp.workdps(30):
        root = mp.findroot(lambda x: mp.tan(x) - x, 4.49)
    x, value = first_trough(1.0)
    assert x == pytest.approx(float(root), rel=1e-8)
    assert value == pytest.approx(float(mp.sin(root) / root), rel=1e-12)


@pytest.mark.parametrize("alpha", [0.5, 0.8, 1.2, 1.446, 1.7, 2.0])
def test_first_trough_is_a_critical_point_where_j_equals_cos(alpha):
    """At a critical point of J_alpha, J_alpha(x) = cos x (integration by parts:
    J = cos x - alpha x J'); the point is where mpmath's derivative of 1F2 vanishes."""
    x, value = first_trough(alpha)
    assert 3 < x < 2 * math.pi
    assert value == pytest.approx(math.cos(x), rel=0, abs=1e-8)
    with mp.workdps(30):
        root = mp.findroot(
            lambda z: mp.diff(lambda y: mp_hypergeometric(y, alpha), z), x
        )
        assert value == pytest.approx(
            float(mp_hypergeometric(root, alpha)), rel=0, abs=5e-12
        )
    assert x == pytest.approx(float(root), rel=1e-7)


def test_critical_exponent_puts_the_trough_at_zero():
    alpha_c = critical_exponent()
    assert alpha_c == pytest.approx(1.446014, abs=1e-6)
    with mp.workdps(30):
        assert abs(mp_hypergeometric(3 * mp.pi / 2, alpha_c)) < 1e-15
    assert abs(mp_power_integral(3 * math.pi / 2, alpha_c)) < 1e-15
    assert abs(power_integral_quad(3 * math.pi / 2, alpha_c)) < 1e-12
    x, value = first_trough(alpha_c)
    assert x == pytest.approx(3 * math.pi / 2, abs=1e-5) and abs(value) < 1e-9


def test_critical_exponent_separates_dipping_from_staying_positive():
    """J_alpha dips below zero exactly for alpha < alpha_c."""
    alpha_c = critical_exponent()
    for alpha, sign in (
        (alpha_c - 0.01, -1),
        (alpha_c - 1e-4, -1),
        (alpha_c + 1e-4, 1),
        (alpha_c + 0.01, 1),
    ):
        assert np.sign(first_trough(alpha)[1]) == sign
    # and for alpha above it J stays positive everywhere, not only at the first trough
    xs = np.linspace(0, 300, 6001)
    assert np.all(power_integral(xs, alpha_c + 0.01) > 0)
    assert np.min(power_integral(xs, alpha_c - 0.01)) < 0


# ---------------------------------------------------------------------- limits in alpha

ROUTES = {
    "quad": power_integral_quad,
    "power_integral": power_integral,
    "jacobi": power_integral_jacobi,
}


def value_or_refusal(route, x, alpha):
    """The route's value, or None when alpha lies outside the range quadrature accepts
    (then the refusal must name alpha)."""
    inside = ALPHA_RANGE[0] <= alpha <= ALPHA_RANGE[1]
    if inside:
        return ROUTES[route](x, alpha)
    with pytest.raises(ValueError, match=r"^alpha must lie in"):
        ROUTES[route](x, alpha)
    return None


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("alpha", [1e-8, 1e-4, 1e-2, 0.02])
def test_tiny_exponents_tend_to_cos_x(route, alpha):
    """|cos(x t^a) - cos x| <= x (1 - t^a) <= x a |ln t| and int_0^1 |ln t| dt = 1, so
    |J_a(x) - cos x| <= a x."""
    for x in (0.5, 5.0, 50.0):
        value = value_or_refusal(route, x, alpha)
        if value is not None:
            assert abs(value - math.cos(x)) <= alpha * x + 1e-12


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("alpha", [50.0, 1e2, 1e6, 1e300])
def test_huge_exponents_tend_to_one(route, alpha):
    """1 - cos y <= y^2 / 2 and int_0^1 x^2 t^(2a) / 2 dt = x^2 / (2 (2a + 1)), so
    0 <= 1 - J_a(x) <= x^2 / (2 (2a + 1))."""
    for x in (0.5, 5.0, 50.0):
        value = value_or_refusal(route, x, alpha)
        if value is not None:
            assert -1e-12 <= 1 - value <= x**2 / (2 * (2 * alpha + 1)) + 1e-12
