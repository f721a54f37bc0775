r"""What the decay story does not explain (chapter 14).

The RoPE score for random queries and keys, p-RoPE's frequencies, Position Interpolation's
fitted score functions and its interpolation bound, YaRN's frequency ramp and temperature,
the critical dimension of Liu et al., and the Sandwich and xPos modifications.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    check_base,
    check_complex_vector,
    check_dimension,
    check_finite_real,
    check_positions,
    check_positive,
    check_real_array,
)
from .encoding import frequencies


def _check_correlation(correlation) -> float:
    rho = check_finite_real(correlation, "correlation")
    if not -1.0 <= rho <= 1.0:
        raise ValueError(f"correlation must be a real number in [-1, 1], got {rho}")
    return rho


def _check_scale(scale) -> float:
    scale = check_positive(scale, "scale")
    if scale < 1:
        raise ValueError(
            f"scale must be >= 1 (a context s times the training length), got {scale}"
        )
    return scale


def rope_score_moments(x, d, base=10000.0, correlation=0.0):
    r"""Mean and variance of the RoPE score :math:`(R_m q)^\top (R_n k)` at distance
    :math:`x = m - n` for random Gaussian queries and keys.

    The key is :math:`k \sim N(0, I_d)` and the query :math:`q = \rho k +
    \sqrt{1-\rho^2}\,\varepsilon` with an independent :math:`\varepsilon \sim N(0, I_d)`
    (``correlation`` is :math:`\rho`). Then

    .. math::

        \mathrm E = \rho \sum_{i} 2\cos(x\theta_i) = \rho\, d\, S_d(x), \qquad
        \mathrm{Var} = 4\rho^2 \sum_i \cos^2(x\theta_i) + (1 - \rho^2)\, d,

    with :math:`S_d` the normalised sum :func:`~posenc.decay_sum`. For independent q and k
    (:math:`\rho = 0`) the mean is 0 and the variance d at every distance.
    Derived in chapter 14 (:ref:`ch14-independent-qk`).

    Returns
    -------
    (mean, variance) : tuple of ndarray, each of the shape of ``x``.
    """
    x = check_real_array(x, "x")
    d = check_dimension(d)
    theta = frequencies(d, base)
    rho = _check_correlation(correlation)
    cosines = np.cos(np.multiply.outer(x, theta))
    mean = rho * 2 * cosines.sum(axis=-1)
    variance = 4 * rho**2 * (cosines**2).sum(axis=-1) + (1 - rho**2) * d
    return mean, variance


def p_rope_frequencies(d, base=10000.0, p=0.75) -> np.ndarray:
    r"""The frequencies of p-RoPE: the fraction p of the pairs with the highest frequencies
    keep :math:`\theta_i = b^{-2i/d}`, the remaining (lowest) ones get frequency 0.

    Pairs :math:`i < \lfloor p\,d/2 \rfloor` rotate, the others do not (their score term
    does not depend on position). ``p = 1`` is RoPE, ``p = 0`` no rotation at all. This is
    our reading of Barbero et al. (2024).
    Derived in chapter 14 (:ref:`ch14-independent-qk`).
    """
    theta = frequencies(d, base)
    p = check_finite_real(p, "p")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a real number in [0, 1], got {p}")
    kept = int(np.floor(p * theta.size + 1e-9))
    out = theta.copy()
    out[kept:] = 0.0
    return out


def score_from_coefficients(h, positions, d, base=10000.0) -> np.ndarray:
    r"""The score function :math:`a(s) = \mathrm{Re}\sum_j h_j e^{\mathrm{i} s\theta_j}` of
    Position Interpolation, at the given (real) positions.

    Derived in chapter 14 (:ref:`ch14-pi`).

    Parameters
    ----------
    h : array_like of d/2 finite complex numbers
        The coefficients :math:`h_j = \tilde q_j \overline{\tilde k_j}`.
    positions : real or 1-D array of reals
    d : int
        Dimension, a positive even integer.
    base : float
        The base b > 1.
    """
    d = check_dimension(d)
    theta = frequencies(d, base)
    h = check_complex_vector(h, "h", theta.size, "d/2 = ")
    s = check_positions(positions)
    return (np.exp(1j * np.multiply.outer(s, theta)) @ h).real


def fit_score_coefficients(
    target, positions, d, base=10000.0, ridge=1e-3
) -> np.ndarray:
    r"""Coefficients :math:`h_j` whose score function :math:`a(s)` fits ``target`` at
    ``positions`` by ridge-regularised least squares, then rescaled so that
    :math:`\max |a(s)| = 1` over those positions.

    Minimises :math:`\sum_s (a(s) - y_s)^2 + \lambda \|h\|^2` (``ridge`` is
    :math:`\lambda > 0`; the slow pairs are nearly collinear on a short range, and without
    it the coefficients would be astronomically large).
    Derived in chapter 14 (:ref:`ch14-pi`).
    """
    d = check_dimension(d)
    theta = frequencies(d, base)
    s = check_positions(positions)
    y = check_real_array(target, "target", ndim=1)
    if y.shape != s.shape:
        raise ValueError(
            f"target must have one value per position ({s.size}), got {y.size}"
        )
    if s.size == 0:
        raise ValueError("positions must hold at least one position")
    ridge = check_positive(ridge, "ridge")
    angles = np.multiply.outer(s, theta)
    A = np.hstack([np.cos(angles), -np.sin(angles)])  # a(s) = A @ [Re h, Im h]
    U, sv, Vt = np.linalg.svd(A, full_matrices=False)
    c = Vt.T @ ((sv / (sv**2 + ridge)) * (U.T @ y))
    peak = np.abs(A @ c).max()
    if peak == 0:
        raise ValueError("target must not be zero at every position")
    c = c / peak
    return c[: theta.size] + 1j * c[theta.size :]


def interpolation_bound(h, gap, d, base=10000.0) -> float:
    r"""Position Interpolation's bound: between two positions :math:`s_1 < s_2` with
    :math:`s_2 - s_1 = ` ``gap``, the score function departs from the straight line
    through :math:`a(s_1), a(s_2)` by at most

    .. math::

        \frac{(s_2 - s_1)^2}{8}\sum_j |h_j|\,\theta_j^2
        \;\le\; \frac{(s_2 - s_1)^2}{8}\,\max_j |h_j| \sum_j \theta_j^2.

    Returns the left-hand (sharper) value.
    Derived in chapter 14 (:ref:`ch14-pi`).

    Parameters
    ----------
    h : array_like of d/2 finite complex numbers
        The coefficients :math:`h_j` of :func:`score_from_coefficients`.
    gap : float
        :math:`s_2 - s_1 > 0`.
    d : int
        Dimension, a positive even integer.
    base : float
        The base b > 1.
    """
    d = check_dimension(d)
    theta = frequencies(d, base)
    h = check_complex_vector(h, "h", theta.size, "d/2 = ")
    gap = check_positive(gap, "gap")
    return float(gap**2 / 8 * np.sum(np.abs(h) * theta**2))


#: The two ramps :func:`yarn_ramp` offers (its ``ramp`` keyword).
YARN_RAMPS = ("turns", "index")


def yarn_ramp(d, base, length, alpha=1.0, beta=32.0, ramp="turns") -> np.ndarray:
    r"""YaRN's ramp :math:`\gamma_i \in [0, 1]` for each pair ("NTK-by-parts"): the weight of
    pair i's own frequency against the interpolated one (:func:`yarn_frequencies`), 1 for a
    pair left unchanged, 0 for one fully interpolated.

    Write :math:`r_i = L/\lambda_i = L\theta_i/(2\pi)` for the number of turns pair i makes
    over the training length L, with :math:`\alpha < \beta` the two bounds in turns
    (``beta_slow`` = 1 and ``beta_fast`` = 32 in YaRN's code). ``ramp`` chooses between the
    two ramps in use, which agree on which pairs are unchanged and which fully interpolated
    but not in between:

    ``ramp="turns"`` (the default): the paper's ramp (Peng et al. 2023, §3.2), linear in the
    number of turns,

    .. math:: \gamma_i = \operatorname{clip}\Big(\frac{r_i - \alpha}{\beta - \alpha},
              0, 1\Big).

    Llama 3.1's rope scaling (``rope_type="llama3"`` in transformers) has exactly this form,
    with :math:`\alpha, \beta` its ``low_freq_factor`` and ``high_freq_factor``.

    ``ramp="index"``: the ramp of the YaRN authors' code and of transformers'
    ``_compute_yarn_parameters`` (``modeling_rope_utils``, transformers 4.x and 5.x), which is
    what models run when they run YaRN: linear in the pair *index* between bounds rounded
    outward. With :math:`c(r) = \frac{d}{2}\ln\frac{L}{2\pi r} / \ln b`, the (fractional)
    index of the pair that makes r turns,

    .. math::
        \begin{aligned}
        i_{\text{lo}} &= \max(\lfloor c(\beta) \rfloor, 0), \qquad
        i_{\text{hi}} = \min(\lceil c(\alpha) \rceil, d - 1),\\
        \gamma_i &= 1 - \operatorname{clip}\Big(\frac{i - i_{\text{lo}}}
        {i_{\text{hi}} - i_{\text{lo}}}, 0, 1\Big),
        \end{aligned}

    with :math:`i_{\text{hi}}` raised by 0.001 when the two bounds are equal, as the code
    does. (transformers' ``truncate: false``, used by gpt-oss, leaves the bounds unrounded;
    that variant is not offered here.) Since :math:`c(r_i) = i`, this ramp is linear in
    :math:`\ln r_i` rather than in :math:`r_i`. Inside the ramp the two differ: for Llama 2
    (d = 128, b = 10⁴, L = 4096, :math:`\alpha, \beta` = 1, 32) :math:`\gamma_i` by up to 0.37,
    and at s = 16 the index ramp's frequency is up to 3.0 times the paper's.

    Derived in chapter 14 (:ref:`ch14-yarn`).
    """
    theta = frequencies(d, base)
    d = theta.size * 2
    length = check_positive(length, "length")
    alpha = check_positive(alpha, "alpha")
    beta = check_positive(beta, "beta")
    if beta <= alpha:
        raise ValueError(
            f"beta must be larger than alpha, got alpha = {alpha}, beta = {beta}"
        )
    if ramp == "turns":
        turns = length * theta / (2 * np.pi)
        return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    if ramp == "index":
        log_base = np.log(check_base(base))

        def index_of(turns):  # the fractional pair index that makes `turns` turns
            return d * np.log(length / (2 * np.pi * turns)) / (2 * log_base)

        low = max(math.floor(index_of(beta)), 0)
        high = min(math.ceil(index_of(alpha)), d - 1)
        if low == high:
            high += 0.001
        pairs = np.arange(d // 2, dtype=np.float64)
        return 1.0 - np.clip((pairs - low) / (high - low), 0.0, 1.0)
    raise ValueError(f"ramp must be one of {YARN_RAMPS}, got {ramp!r}")


def yarn_frequencies(
    d, base, length, scale, alpha=1.0, beta=32.0, ramp="turns"
) -> np.ndarray:
    r"""YaRN's frequencies :math:`\theta_i' = (1 - \gamma_i)\,\theta_i/s + \gamma_i\,\theta_i`,
    with :math:`\gamma_i` from :func:`yarn_ramp` and the scale factor :math:`s \ge 1`.

    ``ramp="turns"`` (the default) is the paper's ramp, and with :math:`\alpha, \beta` =
    ``low_freq_factor``, ``high_freq_factor`` Llama 3.1's rope scaling; ``ramp="index"`` is
    the ramp of the YaRN authors' code and of transformers' ``_compute_yarn_parameters``,
    which deployed YaRN models run (see :func:`yarn_ramp`).

    Derived in chapter 14 (:ref:`ch14-yarn`).
    """
    scale = _check_scale(scale)
    gamma = yarn_ramp(d, base, length, alpha, beta, ramp=ramp)
    theta = frequencies(d, base)
    return (1 - gamma) * theta / scale + gamma * theta


def yarn_temperature(scale) -> float:
    r"""YaRN's attention factor :math:`\sqrt{1/\tau} = 0.1 \ln s + 1` (for :math:`s \ge 1`), with
    :math:`\tau` the temperature; queries and keys are both multiplied by it, so the logits by
    :math:`1/\tau`.

    Derived in chapter 14 (:ref:`ch14-yarn`).
    """
    scale = _check_scale(scale)
    return float(0.1 * np.log(scale) + 1.0)


def critical_dimension(d, base, length) -> int:
    r"""Liu et al.'s critical dimension
    :math:`d_{\text{extra}} = 2\lceil \tfrac d2 \log_b \tfrac{L}{2\pi} \rceil`: the number of
    dimensions (two per pair) whose frequency completes a full turn within the training
    length L, clipped to [0, d].
    Derived in chapter 14 (:ref:`ch14-yarn`).
    """
    d = check_dimension(d)
    base = check_base(base)
    length = check_positive(length, "length")
    u = d / 2 * np.log(length / (2 * np.pi)) / np.log(base)
    return int(min(max(2 * int(np.ceil(u)), 0), d))


def sandwich_bias(x, d, base=10000.0) -> np.ndarray:
    r"""Sandwich's bias :math:`\mathrm{PE}(m)^\top \mathrm{PE}(n) - d/2 =
    \sum_i \cos(x\theta_i) - d/2 = \tfrac d2 (S_d(x) - 1) \le 0` at distance
    :math:`x = m - n`, before the per-head scaling.
    Derived in chapter 14 (:ref:`ch14-sandwich`).
    """
    x = check_real_array(x, "x")
    d = check_dimension(d)
    theta = frequencies(d, base)
    return np.cos(np.multiply.outer(x, theta)).sum(axis=-1) - d / 2


def xpos_zeta(d, gamma=0.4) -> np.ndarray:
    r"""xPos's per-pair decay rates :math:`\zeta_i = (2i/d + c)/(1 + c)`, :math:`c` = ``gamma``,
    :math:`i = 0, \dots, d/2 - 1`; the score of pair i at distance :math:`x \ge 0` is
    multiplied by :math:`\zeta_i^{x/B}` (scale base B = 512 in xPos).
    Derived in chapter 14 (:ref:`ch14-sandwich`).
    """
    d = check_dimension(d)
    gamma = check_positive(gamma, "gamma")
    return (2 * np.arange(d // 2) / d + gamma) / (1 + gamma)


__all__ = [
    "critical_dimension",
    "fit_score_coefficients",
    "interpolation_bound",
    "p_rope_frequencies",
    "rope_score_moments",
    "sandwich_bias",
    "score_from_coefficients",
    "xpos_zeta",
    "yarn_frequencies",
    "yarn_ramp",
    "yarn_temperature",
]
