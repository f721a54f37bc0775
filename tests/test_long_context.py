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


def paper_ramp(d, base, length, alpha, beta):
    """YaRN's ramp as the paper writes it (Peng et al. 2023, eq. 18-19), one pair at a time:
    r = L / lambda turns; 0 below alpha, 1 above beta, linear in r between."""
    out = []
    for i in range(d // 2):
        turns = length / (2 * math.pi * base ** (2 * i / d))
        if turns < alpha:
            out.append(0.0)
        elif turns > beta:
            out.append(1.0)
        else:
            out.append((turns - alpha) / (beta - alpha))
    return np.array(out)


def transformers_yarn(d, base, length, factor, beta_fast=32, beta_slow=1):
    """transformers' _compute_yarn_parameters (modeling_rope_utils; read in 5.24.0, the same in
    4.x; its default truncate=True), transcribed into plain Python: the inverse frequencies it
    returns, in float64 where it uses float32. The YaRN authors' code and vLLM's YaRN rotary
    embedding compute the same ramp."""

    def correction_dim(rotations):
        return (d * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), d - 1)
    if low == high:
        high += 0.001
    inv_freq = []
    for i in range(d // 2):
        pos_freq = base ** (2 * i / d)
        ramp = min(max((i - low) / (high - low), 0.0), 1.0)
        extrapolation_factor = 1 - ramp
        inv_freq.append(
            (1 / (factor * pos_freq)) * (1 - extrapolation_factor)
            + (1 / pos_freq) * extrapolation_factor
        )
    return np.array(inv_freq)


def llama3_rope(d, base, factor, low_freq_factor, high_freq_factor, original_length):
    """Llama 3.1's rope scaling (transformers' _compute_llama3_parameters), transcribed:
    by wavelength, unchanged below L/high_freq_factor, divided by factor above
    L/low_freq_factor, smoothly mixed between."""
    out = []
    for i in range(d // 2):
        inv_freq = 1 / base ** (2 * i / d)
        wavelen = 2 * math.pi / inv_freq
        if wavelen < original_length / high_freq_factor:
            out.append(inv_freq)
        elif wavelen > original_length / low_freq_factor:
            out.append(inv_freq / factor)
        else:
            smooth = (original_length / wavelen - low_freq_factor) / (
                high_freq_factor - low_freq_factor
            )
            out.append((1 - smooth) * inv_freq / factor + smooth * inv_freq)
    return np.array(out)


YARN_SETTINGS = [
    # (d, base, training length, scale): Llama 2, Mistral-like, Qwen-like, small ones
    (128, 1e4, 4096, 16),
    (128, 1e4, 4096, 2),
    (128, 1e6, 32768, 4),
    (64, 1e4, 2048, 8),
    (128, 5e5, 8192, 8),
    (96, 1e4, 2048, 32),
    (16, 100.0, 256, 4),
    (8, 1e4, 64, 2),  # every pair turns less than beta_fast times: no unchanged pair
]


@pytest.mark.parametrize(("d", "base", "length", "scale"), YARN_SETTINGS)
def test_yarn_turns_ramp_is_the_papers(d, base, length, scale):
    gamma = yarn_ramp(d, base, length, 1, 32, ramp="turns")
    np.testing.assert_allclose(gamma, paper_ramp(d, base, length, 1, 32), atol=1e-12)
    assert np.array_equal(gamma, yarn_ramp(d, base, length, 1, 32))  # the default
    theta = 1 / base ** (2 * np.arange(d // 2) / d)
    np.testing.assert_allclose(
        yarn_frequencies(d, base, length, scale, 1, 32, ramp="turns"),
        (1 - gamma) * theta / scale + gamma * theta,
        rtol=1e-12,
    )


@pytest.mark.parametrize(("d", "base", "length", "scale"), YARN_SETTINGS)
def test_yarn_index_ramp_is_what_transformers_runs(d, base, length, scale):
    np.testing.assert_allclose(
        yarn_frequencies(d, base, length, scale, 1, 32, ramp="index"),
        transformers_yarn(d, base, length, scale),
        rtol=1e-12,
    )


@pytest.mark.parametrize(
    ("d", "base", "factor", "low", "high", "length"),
    [(128, 5e5, 8, 1, 4, 8192), (64, 1e4, 4, 1, 8, 2048), (128, 1e4, 16, 2, 32, 4096)],
)
def test_llama3_rope_scaling_is_the_turns_ramp(d, base, factor, low, high, length):
    np.testing.assert_allclose(
        yarn_frequencies(d, base, length, factor, low, high, ramp="turns"),
        llama3_rope(d, base, factor, low, high, length),
        rtol=1e-12,
    )


def test_the_two_yarn_ramps_agree_at_the_ends_and_differ_inside():
    """Llama 2 (d = 128, b = 10^4, L = 4096): the same unchanged and fully interpolated
    pairs, but inside the ramp gamma differs by 0.367 and, at s = 16, the frequency by a
    factor of up to 3.04. Fails if the two keywords gave the same ramp."""
    turns = yarn_ramp(128, 1e4, 4096, ramp="turns")
    index = yarn_ramp(128, 1e4, 4096, ramp="index")
    for value in (0.0, 1.0):
        assert np.array_equal(turns == value, index == value)
    assert math.isclose(np.abs(turns - index).max(), 0.3672166, abs_tol=1e-6)
    ratio = yarn_frequencies(128, 1e4, 4096, 16, ramp="index") / yarn_frequencies(
        128, 1e4, 4096, 16, ramp="turns"
    )
    assert math.isclose(ratio.max(), 3.0414149, rel_tol=1e-6)


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
        (lambda: yarn_ramp(8, 1e4, 100, ramp="paper"), "ramp"),
        (lambda: yarn_frequencies(8, 1e4, 100, 2, ramp=None), "ramp"),
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
