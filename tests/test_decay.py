"""Tests for posenc.decay: the decay integral, the finite sum, Cin, and the first zero.

Every value is compared with an independent reference: mpmath at 30 to 40 digits (the
closed form in Ci, its root finder and its numerical derivative), or QUADPACK. Bad input
is tested in test_hardening.py.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.references import mp_decay_integral, mp_decay_sum

import posenc
from posenc import (
    ci_first_zero,
    cin,
    decay_first_zero,
    decay_integral,
    decay_integral_quad,
    decay_integral_slope_bound,
)

reference_integral = mp_decay_integral
reference_sum = mp_decay_sum


# Accuracy target of the Part II issue: 1e-13 for x in [1e-3, 1e6] and b in [10, 1e6].
TARGET_X = np.concatenate(
    [np.logspace(-3, 6, 46), [0.6166e4, 1.0, np.pi, 2.0, 2.0000001]]
)
TARGET_BASES = [10.0, 100.0, 1e3, 1e4, 1e5, 1e6]


@pytest.mark.parametrize("base", TARGET_BASES)
def test_decay_integral_meets_the_target_against_mpmath(base):
    got = posenc.decay_integral(TARGET_X, base)
    want = np.array([reference_integral(x, base) for x in TARGET_X])
    assert np.max(np.abs(got - want)) <= 1e-13


@pytest.mark.parametrize(
    "base", [1 + 1e-9, 1 + 1e-6, 1.001, 1.5, 2.0, np.e - 1e-9, np.e + 1e-9, 1e9]
)
def test_decay_integral_is_stable_for_extreme_bases(base):
    xs = np.array([1e-6, 1e-3, 0.5, 3.0, 40.0, 1e3, 1e4])
    got = posenc.decay_integral(xs, base)
    want = np.array([reference_integral(x, base) for x in xs])
    # Beyond the cancellation the closed form suffers near b = 1, the remaining error is
    # the conditioning of cos at large x (about x * 1e-16).
    assert np.all(np.abs(got - want) <= 1e-13 + 1e-15 * xs)


def test_decay_integral_far_out():
    xs = np.array([1e7, 3.3e7, 1e8])
    got = posenc.decay_integral(xs, 1e4)
    want = np.array([reference_integral(x, 1e4) for x in xs])
    assert np.all(np.abs(got - want) <= 1e-13)
    assert np.all(np.abs(got) <= 2 / (xs / 1e4) / np.log(1e4))  # the O(1/x) envelope


def test_decay_integral_exact_at_zero_and_shapes():
    assert posenc.decay_integral(0) == 1.0
    assert posenc.decay_integral(0.0, 1 + 1e-9) == 1.0
    assert isinstance(posenc.decay_integral(3), float)
    assert posenc.decay_integral(np.zeros((2, 3))).shape == (2, 3)
    assert posenc.decay_integral([]).shape == (0,)


def test_decay_integral_large_input_is_chunked_and_consistent():
    xs = np.linspace(-2e5, 2e5, 100_003)  # several chunks, odd length
    whole = posenc.decay_integral(xs)
    pieces = np.concatenate(
        [posenc.decay_integral(part) for part in np.array_split(xs, 7)]
    )
    assert np.array_equal(whole, pieces)
    assert np.all(np.isfinite(whole))


@settings(deadline=None, max_examples=200)
@given(
    x=st.one_of(
        st.floats(-1e8, 1e8, allow_nan=False),
        st.sampled_from([0.0, 1e-300, 1e11, 1e300, -1e300]),
    ),
    base=st.one_of(
        st.floats(1.0001, 1e9, allow_nan=False), st.sampled_from([1 + 1e-9, 1e9])
    ),
)
def test_decay_integral_is_even_and_bounded(x, base):
    value = posenc.decay_integral(x, base)
    assert value == posenc.decay_integral(-x, base)
    assert -1.0 <= value <= 1.0


@settings(deadline=None, max_examples=100)
@given(
    x=st.lists(
        st.one_of(
            st.floats(-1e8, 1e8, allow_nan=False), st.sampled_from([0.0, 1e300, -1e300])
        ),
        max_size=16,
    ),
    d=st.one_of(st.sampled_from([2, 8192]), st.integers(1, 4096).map(lambda k: 2 * k)),
    base=st.one_of(
        st.sampled_from([1 + 1e-9, 1e9]), st.floats(-9, 9).map(lambda e: 1 + 10.0**e)
    ),
)
@example(x=[0.0, 1e8, 1e300], d=8192, base=1 + 1e-9)
def test_decay_sum_is_even_bounded_and_one_at_zero(x, d, base):
    x = np.array(x, dtype=float)
    s = posenc.decay_sum(x, d, base)
    assert s.shape == x.shape
    assert np.all(np.abs(s) <= 1 + 1e-12) and np.all(s[x == 0] == 1.0)
    assert np.array_equal(posenc.decay_sum(-x, d, base), s)


@settings(deadline=None, max_examples=50)
@given(x=st.floats(0, 1e-2), base=st.floats(2.0, 1e9))
def test_decay_integral_small_x_series(x, base):
    series = 1 - x**2 * (1 - base**-2) / (4 * np.log(base))
    assert (
        abs(posenc.decay_integral(x, base) - series) <= x**4 + 4e-16
    )  # a few ulp of 1.0


def test_cin_matches_mpmath_on_both_sides_of_the_series_switch():
    zs = np.array([0.0, 1e-8, 1e-3, 0.5, 1.999999, 2.0, 2.000001, 3.0, 50.0, 1e6])
    with mp.workdps(40):
        want = np.array(
            [float(mp.euler + mp.log(z) - mp.ci(z)) if z else 0.0 for z in zs]
        )
    assert np.allclose(cin(zs), want, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("d,base", [(2, 10.0), (64, 1e4), (128, 1e4), (130, 500.0)])
def test_decay_sum_against_mpmath(d, base):
    xs = np.array([0.0, 1.0, 7.5, -12.0, 1e3, 1e6])
    got = posenc.decay_sum(xs, d, base)
    want = np.array([reference_sum(x, d, base) for x in xs])
    assert np.allclose(got, want, rtol=0, atol=1e-13 + 1e-16 * np.abs(xs) * d)


def test_decay_sum_is_the_normalised_inner_product():
    d = 64
    table = posenc.sinusoidal(np.arange(50), d)
    gram = table @ table.T
    x = np.arange(50)
    assert np.allclose(gram[x, 0] / (d / 2), posenc.decay_sum(x, d))


def test_decay_sum_tends_to_the_integral_as_d_grows():
    xs = np.linspace(0, 15, 31)  # resolved for these d: x < pi d / (2 ln b)
    errors = [
        np.max(np.abs(posenc.decay_sum(xs, d) - posenc.decay_integral(xs)))
        for d in (64, 256, 1024)
    ]
    assert errors[0] > errors[1] > errors[2]
    # the left Riemann sum converges like 1/d
    assert errors[2] < errors[0] / 8


def test_decay_sum_chunks_consistently_and_keeps_shape():
    xs = np.arange(20_001.0).reshape(3, -1)[:, :6667]
    got = posenc.decay_sum(xs, 512)
    assert got.shape == xs.shape
    assert np.array_equal(got.ravel(), posenc.decay_sum(xs.ravel(), 512))
    assert posenc.decay_sum(0, 8) == 1.0 and isinstance(posenc.decay_sum(1, 8), float)


@settings(deadline=None, max_examples=300)
@given(
    x=st.one_of(
        st.floats(-1e7, 1e7, allow_nan=False),
        st.integers(-(10**7), 10**7),
        st.sampled_from([1e300, -1e300, 1e-300]),
    ),
    base=st.one_of(
        st.floats(1.0001, 1e9), st.sampled_from([1 + 1e-9, 1.5, np.e, 10.0, 1e4])
    ),
)
def test_scalar_fast_path_agrees_with_the_array_path(x, base):
    scalar = posenc.decay_integral(x, base)
    array = posenc.decay_integral(np.array([x], dtype=float), base)[0]
    assert isinstance(scalar, float)
    assert abs(scalar - array) <= 4e-16


# --------------------------------------------------------------------------- Cin


def test_cin_scalar_and_array():
    assert cin(0) == 0.0 and isinstance(cin(2.0), float)
    assert cin(np.zeros((2, 3))).shape == (2, 3)
    # continuous where the series hands over to sici (z = 2)
    below, above = cin(np.nextafter(2.0, 0)), cin(np.nextafter(2.0, 3))
    assert abs(above - below) <= 1e-15
    # Cin(z) = int_0^z (1 - cos u)/u du, by quadrature
    for z in (0.3, 2.0, 7.5):
        with mp.workdps(30):
            want = mp.quad(lambda u: (1 - mp.cos(u)) / u, [0, z])
        assert cin(z) == pytest.approx(float(want), rel=1e-15)


# ----------------------------------------------------------------------- the first zero


def mp_integral(x, base):
    """I_b(x) at 30 digits, for root finding and signs (no float rounding of the
    result)."""
    x, b = mp.mpf(x), mp.mpf(base)
    return (mp.ci(x) - mp.ci(x / b)) / mp.log(b)


FIRST_ZERO_BASES = [1.01, 1.5, 2.0, math.e, 5.0, 10.0, 10.59, 100.0, 1e3, 1e4, 1e6, 1e8]


def test_ci_first_zero_against_mpmath():
    with mp.workdps(30):
        want = mp.findroot(mp.ci, 0.6)
        assert abs(mp.ci(ci_first_zero())) < 1e-16
    assert ci_first_zero() == pytest.approx(float(want), rel=2e-16)


@pytest.mark.parametrize("base", FIRST_ZERO_BASES)
def test_first_zero_is_a_zero(base):
    x0 = decay_first_zero(base)
    with mp.workdps(30):
        assert abs(mp_integral(x0, base)) <= 1e-13
        # mpmath's own root, started from the library's, lands on the same point
        root = mp.findroot(lambda x: mp_integral(x, base), x0)
    assert x0 == pytest.approx(float(root), rel=1e-12)


@pytest.mark.parametrize("base", FIRST_ZERO_BASES)
def test_no_zero_before_the_first_zero(base):
    """I_b > 0 (at 30 digits) on a grid of [0, x0): uniform, then ever closer to x0."""
    x0 = decay_first_zero(base)
    grid = np.concatenate(
        [
            np.linspace(0, x0, 400, endpoint=False)[1:],
            x0 * (1 - np.logspace(-9, -1, 40)),
        ]
    )
    with mp.workdps(30):
        assert all(mp_integral(x, base) > 0 for x in grid)


def test_first_zero_in_the_limit_of_a_base_close_to_one():
    """As b -> 1, I_b(x) -> cos x, whose first zero is pi/2."""
    assert decay_first_zero(1 + 1e-9) == pytest.approx(math.pi / 2, rel=1e-8)


@pytest.mark.parametrize("base", [1e2, 1e3, 1e4, 1e5, 1e6, 1e8, 1e10, 1e12])
def test_first_zero_over_base_tends_to_the_first_zero_of_ci(base):
    """Ci(x0) = Ci(x0/b) at the zero; |Ci(x0)| <= about 1/x0 and Ci'(c0) = cos(c0)/c0,
    so x0/b = c0 + delta with |delta| <= 1/(b cos c0) = 1.2256/b to first order."""
    c0 = ci_first_zero()
    assert abs(decay_first_zero(base) / base - c0) <= 1.23 / base


def test_first_zero_finds_a_crossing_a_coarse_scan_skips():
    """For b = 10.59, I_b dips below zero on (5.63, 5.87) and comes back up before
    falling for good near 7.5: a scan of I_b with step 0.5 sees no sign change before 8.
    """
    base = 10.59
    with mp.workdps(30):
        assert mp_integral(5.741, base) < -2e-4 and mp_integral(6.0, base) > 8e-4
    grid = np.arange(0.5, 20, 0.5)
    values = decay_integral(grid, base)
    assert (
        grid[np.argmax(values < 0)] == 8.0
    )  # what the coarse scan would call the zero
    x0 = decay_first_zero(base)
    assert 5.6 < x0 < 5.7
    with mp.workdps(30):
        assert abs(mp_integral(x0, base)) < 1e-15


def test_first_zero_of_a_shallow_dip():
    """For b = 10.59867507 the dip reaches only -3.4e-6 (at x = 5.7415), still ten
    orders of magnitude above the error of evaluating I_b: the first zero is in that
    dip."""
    base = 10.5986750712411
    with mp.workdps(30):
        assert mp_integral(5.74147, base) < -3e-6
    x0 = decay_first_zero(base)
    assert 5.70 < x0 < 5.7415
    with mp.workdps(30):
        assert abs(mp_integral(x0, base)) < 1e-15


@pytest.mark.parametrize("base", [1.5, 10.0, 1e4, 1e12])
def test_first_zero_certificate(base):
    x0, certified, steps = decay_first_zero(base, with_certificate=True)
    assert x0 == decay_first_zero(base)
    assert isinstance(steps, int) and 1 <= steps < 10_000
    # the walk stopped just short of the zero; the rest is Brent's bracket
    assert 0 < x0 - certified <= 1e-6 * (1 + x0)
    with mp.workdps(30):
        assert mp_integral(certified, base) > 0


@pytest.mark.parametrize("base", [1.01, 2.0, 10.0, 1e4, 1e8])
def test_slope_bound_bounds_the_derivative_from_x_on(base):
    """|I_b'(x')| <= slope_bound(x) for every x' >= x, I_b' by mpmath's numerical
    derivative of the closed form; the bound never increases."""
    xs = np.concatenate([[0.0], np.logspace(-3, math.log10(50 * base) + 1, 60)])
    with mp.workdps(30):
        slopes = np.array(
            [
                abs(float(mp.diff(lambda x: mp_integral(x, base), x))) if x else 0.0
                for x in xs
            ]
        )
    bounds = np.array([decay_integral_slope_bound(x, base) for x in xs])
    sup_from_here = np.maximum.accumulate(slopes[::-1])[::-1]
    assert np.all(sup_from_here <= bounds * (1 + 1e-12))
    assert np.all(np.diff(bounds) <= 0)
    # and it is not vacuous: within a factor 3 of the true slope somewhere beyond x = 1
    assert np.any((xs > 1) & (slopes > bounds / 3))


@pytest.mark.parametrize("base", [1.01, 1.5, 10.0, 1e4, 1e8])
def test_decay_integral_quad_against_mpmath(base):
    for x in np.logspace(-3, 6, 10):
        assert decay_integral_quad(x, base) == pytest.approx(
            reference_integral(x, base), rel=0, abs=1e-13
        )
