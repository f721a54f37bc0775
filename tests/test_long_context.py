"""Tests for posenc.long_context (chapter 14): RoPE score moments against Monte Carlo,
p-RoPE, the fitted score functions and the interpolation bound, YaRN's ramp, frequencies
and temperature, the critical dimension, Sandwich and xPos; and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import (
    critical_dimension,
    decay_sum,
    fit_score_coefficients,
    frequencies,
    interpolation_bound,
    ntk_base,
    p_rope_frequencies,
    rope,
    rope_score_moments,
    sandwich_bias,
    score_from_coefficients,
    xpos_zeta,
    yarn_frequencies,
    yarn_ramp,
    yarn_temperature,
)


@pytest.mark.parametrize("rho", [0.0, 0.6, 1.0])
def test_rope_score_moments_match_monte_carlo(rho):
    d, base, n = 16, 100.0, 40_000
    rng = np.random.default_rng(7)
    k = rng.normal(size=(n, d))
    q = rho * k + math.sqrt(1 - rho**2) * rng.normal(size=(n, d))
    for x in (0.0, 3.0, 41.0):
        scores = np.einsum("nd,nd->n", rope(q[:, None], [x], base=base)[:, 0], k)
        mean, var = rope_score_moments([x], d, base, rho)
        sd = math.sqrt(var[0])
        assert abs(scores.mean() - mean[0]) < 5 * sd / math.sqrt(n)
        assert abs(scores.var() - var[0]) < 0.05 * var[0]


def test_rope_score_moments_closed_cases():
    x = np.arange(0.0, 300.0, 7.0)
    mean, var = rope_score_moments(x, 64, 1e4, 0.0)
    assert np.all(mean == 0) and np.allclose(var, 64)
    mean, _ = rope_score_moments(x, 64, 1e4, 1.0)
    np.testing.assert_allclose(mean / 64, decay_sum(x, 64, 1e4), atol=1e-12)


def test_p_rope_frequencies():
    theta = frequencies(128, 1e4)
    out = p_rope_frequencies(128, 1e4, 0.75)
    assert np.array_equal(out[:48], theta[:48]) and np.all(out[48:] == 0)
    assert np.array_equal(p_rope_frequencies(128, 1e4, 1.0), theta)
    assert np.all(p_rope_frequencies(128, 1e4, 0.0) == 0)


def test_fit_and_score_and_bound():
    d, base = 32, 1e4
    s = np.arange(200.0)
    target = np.sin(s / 9.0)
    h = fit_score_coefficients(target, s, d, base, ridge=1e-2)
    a = score_from_coefficients(h, s, d, base)
    assert np.isclose(np.abs(a).max(), 1.0)
    theta = frequencies(d, base)
    loop = [
        sum((hj * np.exp(1j * si * tj)).real for hj, tj in zip(h, theta, strict=False))
        for si in s[:5]
    ]
    np.testing.assert_allclose(a[:5], loop, atol=1e-12)
    # the bound holds between neighbouring integers, and is nearly attained by cos(s)
    mid = s[:-1] + 0.5
    line = (a[:-1] + a[1:]) / 2
    assert np.all(
        np.abs(score_from_coefficients(h, mid, d, base) - line)
        <= interpolation_bound(h, 1.0, d, base) + 1e-12
    )
    single = np.zeros(d // 2, complex)
    single[0] = 1.0
    gap_dev = 1 - math.cos(0.5)
    assert gap_dev <= interpolation_bound(single, 1.0, d, base) < 1.03 * gap_dev


def test_yarn_llama():
    gamma = yarn_ramp(128, 1e4, 4096, 1, 32)
    assert ((gamma == 0).sum(), (gamma == 1).sum()) == (18, 21)
    theta = frequencies(128, 1e4)
    new = yarn_frequencies(128, 1e4, 4096, 16, 1, 32)
    assert np.array_equal(new[gamma == 1], theta[gamma == 1])
    np.testing.assert_allclose(new[gamma == 0], theta[gamma == 0] / 16, rtol=1e-15)
    mid = (gamma > 0) & (gamma < 1)
    assert np.all((new[mid] > theta[mid] / 16) & (new[mid] < theta[mid]))
    assert math.isclose(yarn_temperature(16), 0.1 * math.log(16) + 1)
    assert yarn_temperature(1) == 1.0


def test_critical_dimension():
    assert critical_dimension(128, 1e4, 4096) == 92
    for d, b, L in [(64, 1e4, 512), (128, 5e5, 4096), (128, 1e4, 2048)]:
        turns = L * frequencies(d, b) / (2 * math.pi)
        assert critical_dimension(d, b, L) == 2 * int((turns >= 1).sum())
    assert critical_dimension(8, 1e4, 1.0) == 0


def test_sandwich_and_xpos():
    x = np.arange(0.0, 500.0)
    np.testing.assert_allclose(
        sandwich_bias(x, 64, 1e4), 32 * (decay_sum(x, 64, 1e4) - 1), atol=1e-10
    )
    assert sandwich_bias([0.0], 64)[0] == 0 and np.all(sandwich_bias(x, 64) <= 1e-12)
    zeta = xpos_zeta(128)
    # torchscale: (arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)
    np.testing.assert_allclose(zeta, (np.arange(0, 128, 2) + 0.4 * 128) / (1.4 * 128))
    assert np.all(np.diff(zeta) > 0) and zeta[-1] < 1


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rope_score_moments([1.0], 8, correlation=1.5), "correlation"),
        (lambda: p_rope_frequencies(8, p=2), "p"),
        (lambda: yarn_ramp(8, 1e4, 100, alpha=32, beta=1), "beta"),
        (lambda: yarn_frequencies(8, 1e4, 100, scale=0.5), "scale"),
        (lambda: yarn_temperature(-1), "scale"),
        (lambda: critical_dimension(7, 1e4, 100), "d"),
        (lambda: critical_dimension(8, 1.0, 100), "base"),
        (lambda: interpolation_bound(np.ones(3), 1.0, 8), "h"),
        (lambda: interpolation_bound(np.ones(4), 0.0, 8), "gap"),
        (lambda: fit_score_coefficients([1.0, 2.0], [0.0], 8), "target"),
        (lambda: fit_score_coefficients([1.0], [0.0], 8, ridge=0), "ridge"),
        (lambda: score_from_coefficients(np.ones(4), [np.nan], 8), "positions"),
        (lambda: sandwich_bias([np.inf], 8), "x"),
        (lambda: xpos_zeta(8, gamma=-1), "gamma"),
    ],
)
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_ntk_base_for_llama_scale_8():
    assert math.isclose(ntk_base(1e4, 8, 128), 1e4 * 8 ** (128 / 126))
