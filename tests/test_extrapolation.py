"""Tests for posenc.extrapolation: the cosine sums B_m of chapter 13 and NTK-aware
scaling.

cos_sums is compared with a loop over the frequencies, with mpmath far out, and with
(d/2) decay_sum; ntk_base with what it promises to do to the frequencies. Bad input is
tested in test_hardening.py.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.references import frequencies_loop

from posenc import cos_sums, decay_sum, frequencies, ntk_base


@pytest.mark.parametrize(
    "d, base", [(2, 10000.0), (8, 100.0), (64, 10000.0), (128, 5e5)]
)
def test_cos_sums_equal_the_loop(d, base):
    theta = frequencies_loop(d, base)
    length = 200  # several blocks of 64, the last one cut
    want = [sum(math.cos(m * t) for t in theta) for m in range(length)]
    np.testing.assert_allclose(cos_sums(length, d, base), want, rtol=0, atol=1e-11)


@pytest.mark.parametrize("length", [0, 1, 63, 64, 65, 1000])
@pytest.mark.parametrize("d, base", [(8, 100.0), (128, 10000.0)])
def test_cos_sums_are_d_over_two_times_decay_sum(length, d, base):
    sums = cos_sums(length, d, base)
    assert sums.shape == (length,)
    np.testing.assert_allclose(
        sums, d / 2 * decay_sum(np.arange(length), d, base), rtol=0, atol=1e-10
    )
    if length:
        assert sums[0] == d / 2


def test_cos_sums_far_out_against_mpmath():
    """The block method rounds the angles m0 theta and j theta once each, like the
    formula: at m near 1e6 the error is about m * 1e-16 per term."""
    d, base, length = 128, 10000.0, 10**6
    sums = cos_sums(length, d, base)
    with mp.workdps(30):
        b = mp.mpf(base)
        for m in (length - 1, 777_777, 123_457):
            want = sum(mp.cos(m * b ** (-mp.mpf(2 * i) / d)) for i in range(d // 2))
            assert sums[m] == pytest.approx(float(want), rel=0, abs=1e-8)


@settings(max_examples=60, deadline=None)
@given(
    base=st.floats(1.5, 1e8),
    scale=st.floats(1.0, 1e3),
    d=st.integers(2, 256).map(lambda k: 2 * k),
)
def test_ntk_base_keeps_the_highest_frequency_and_divides_the_lowest_by_the_scale(
    base, scale, d
):
    old, new = frequencies(d, base), frequencies(d, ntk_base(base, scale, d))
    assert new[0] == old[0] == 1.0
    assert new[-1] == pytest.approx(old[-1] / scale, rel=1e-12)
    # every frequency is slowed by a power of s between 1 and s: theta_i' = theta_i
    # s^(-2i/(d-2))
    np.testing.assert_allclose(
        new, old * scale ** (-2 * np.arange(d // 2) / (d - 2)), rtol=1e-12
    )


def test_ntk_base_values():
    assert ntk_base(10000.0, 1.0, 128) == 10000.0
    assert ntk_base(10000.0, 4.0, 128) == pytest.approx(
        10000.0 * 4.0 ** (128 / 126), rel=1e-15
    )
    assert ntk_base(10000.0, 2.0, 4) == pytest.approx(40000.0, rel=1e-15)
    assert ntk_base(10000.0, 8.0, 64) > ntk_base(10000.0, 4.0, 64) > 10000.0
