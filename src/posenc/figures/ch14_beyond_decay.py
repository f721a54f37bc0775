"""Figures of chapter 14, what the decay story does not explain."""

import matplotlib.pyplot as plt
import numpy as np

from .. import (
    decay_integral,
    decay_sum,
    fit_score_coefficients,
    frequencies,
    ntk_base,
    p_rope_frequencies,
    rope_score_moments,
    sandwich_bias,
    score_from_coefficients,
    xpos_zeta,
    yarn_ramp,
)
from . import figure
from ._style import legend_place, phone

D, BASE = 128, 1.0e4
# RoPE scores for random q, k
MOMENT_X = np.arange(0.0, 2001.0)
SLOW_X = np.arange(0.0, 8193.0, 4.0)
P_ROPE = 0.75
# Position Interpolation's demonstration
PI_L, PI_RIDGE, PI_SEED, PI_SCALE = 2048, 1e-3, 2306, 4
# YaRN on LLaMA
YARN_L, YARN_S, YARN_ALPHA, YARN_BETA = 4096, 16, 1.0, 32.0
# Sandwich and xPos
XPOS_SCALE_BASE = 512
SANDWICH_X = np.arange(0.0, 3001.0)


def pi_fit():
    """The fitted coefficients h, the training positions and the random target."""
    s = np.arange(float(PI_L))
    target = np.random.default_rng(PI_SEED).uniform(-1, 1, PI_L)
    return fit_score_coefficients(target, s, D, BASE, ridge=PI_RIDGE), s, target


def xpos_expected(x):
    """(2/d) sum_i cos(x theta_i) zeta_i^(x/512): xPos's score for q = k, normalised."""
    theta = frequencies(D, BASE)
    x = np.asarray(x, dtype=float)[:, None]
    return (
        2 / D * (np.cos(x * theta) * xpos_zeta(D) ** (x / XPOS_SCALE_BASE)).sum(axis=1)
    )


@figure("fig-ch14-independent", panels_by_place=True)
def independent_qk():
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.5))
    for rho, color in ((0.0, "C0"), (0.5, "C2"), (1.0, "C3")):
        mean, var = rope_score_moments(MOMENT_X, D, BASE, rho)
        left.plot(MOMENT_X, mean / D, color=color, lw=1.2, label=f"$\\rho = {rho:g}$")
        if rho in (0.0, 1.0):
            sd = np.sqrt(var) / D
            left.fill_between(
                MOMENT_X, mean / D - sd, mean / D + sd, color=color, alpha=0.3, lw=0
            )
    left.set_xlabel("distance $x$")
    left.set_ylabel("score $/\\,d$: mean $\\pm$ one sd")
    left.legend(loc="upper right")
    theta = frequencies(D, BASE)
    right.plot(
        SLOW_X,
        np.cos(SLOW_X * theta[-1]),
        color="C1",
        lw=1.6,
        label="$q = k$ in the slowest pair",
    )
    right.plot(
        SLOW_X,
        decay_sum(SLOW_X, D, BASE),
        color="C3",
        lw=0.8,
        label="$q = k$ spread evenly ($S_d$)",
    )
    p_theta = p_rope_frequencies(D, BASE, P_ROPE)
    right.plot(
        SLOW_X,
        np.cos(np.outer(SLOW_X, p_theta)).mean(axis=1),
        color="C4",
        lw=0.8,
        ls="--",
        label=f"the same, p-RoPE $p = {P_ROPE:g}$",
    )
    right.set_xlabel("distance $x$")
    right.set_ylabel("expected score $/\\,d$")
    right.set_ylim(-0.4, 1.05)
    # on a phone the legend goes under the axis label: above, it would meet the heading "Right"
    if phone():
        right.legend(
            loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False, fontsize=8
        )
    else:
        right.legend(loc="lower left", fontsize=8)
    # Thousands of oscillations per curve: the data layers are rasterised (at the fixed
    # savefig dpi, so the files stay reproducible); axes, labels and legend stay vectors.
    for ax in (left, right):
        for artist in (*ax.lines, *ax.collections):
            artist.set_rasterized(True)
    fig.tight_layout()
    return fig


@figure("fig-ch14-pi", panels_by_place=True)
def position_interpolation():
    h, s, _ = pi_fit()
    far = np.arange(0.0, 2.0 * PI_L)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.4))
    a_far = score_from_coefficients(h, far, D, BASE)
    left.plot(far, a_far, color="C0", lw=0.5)
    left.axvspan(0, PI_L - 1, color="C2", alpha=0.12, lw=0, label="training range")
    left.set_xlabel("distance $x$")
    left.set_ylabel("$a(x)$")
    left.legend(loc="upper left")
    fine = np.arange(0.0, 256.0, 1.0 / PI_SCALE)
    right.plot(
        fine,
        score_from_coefficients(h, fine, D, BASE),
        color="C1",
        lw=0.8,
        label=f"positions $m/{PI_SCALE}$ (interpolated)",
    )
    right.plot(
        s[:256],
        score_from_coefficients(h, s[:256], D, BASE),
        "o",
        color="C0",
        ms=2.0,
        label="integer positions",
    )
    right.set_ylim(-1.6, 1.6)
    right.set_xlabel("distance $x$")
    right.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig


@figure("fig-ch14-yarn")
def yarn_partition():
    i = np.arange(D // 2)
    theta = frequencies(D, BASE)
    gamma = yarn_ramp(D, BASE, YARN_L, YARN_ALPHA, YARN_BETA, ramp="turns")
    yarn = (1 - gamma) / YARN_S + gamma
    gamma_code = yarn_ramp(D, BASE, YARN_L, YARN_ALPHA, YARN_BETA, ramp="index")
    yarn_code = (1 - gamma_code) / YARN_S + gamma_code
    ntk = frequencies(D, ntk_base(BASE, YARN_S, D)) / theta
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    ax.semilogy(
        i,
        np.full(i.shape, 1 / YARN_S),
        color="C0",
        lw=1.4,
        label="Position Interpolation",
    )
    ax.semilogy(i, ntk, color="C3", lw=1.4, ls="--", label="NTK-aware base")
    ax.semilogy(i, yarn, color="C2", lw=2.0, label="YaRN, the paper's ramp")
    ax.semilogy(i, yarn_code, color="C2", lw=1.4, ls=":", label="YaRN, the code's ramp")
    ax.axvspan(-0.5, i[gamma == 1][-1] + 0.5, color="C2", alpha=0.08, lw=0)
    ax.axvspan(i[gamma == 0][0] - 0.5, D // 2 - 0.5, color="C0", alpha=0.08, lw=0)
    ax.set_xlim(-0.5, D // 2 - 0.5)
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel("$\\theta_i' / \\theta_i$")
    ncol = 2 if phone() else 1  # above the plot on a phone: two columns fit its width
    ax.legend(**legend_place(loc="center left"), ncol=ncol, fontsize=9)
    fig.tight_layout()
    return fig


@figure("fig-ch14-sandwich")
def sandwich_xpos():
    x = SANDWICH_X
    fig, ax = plt.subplots(figsize=(8.0, 3.5))
    ax.plot(
        x,
        decay_integral(x, BASE),
        color="0.3",
        lw=2.2,
        alpha=0.6,
        label="chapter 5: $I_b(x)$",
    )
    ax.plot(x, decay_sum(x, D, BASE), color="C0", lw=0.8, label="$S_d(x)$, $d = 128$")
    ax.plot(
        x,
        sandwich_bias(x, D, BASE) / (D / 2),
        color="C1",
        lw=0.9,
        ls="--",
        label="Sandwich bias $/\\,(d/2)$",
    )
    ax.plot(x, xpos_expected(x), color="C3", lw=1.2, label="xPos, $q = k$")
    factor = (xpos_zeta(D)[None, :] ** (x[:, None] / XPOS_SCALE_BASE)).mean(axis=1)
    ax.plot(x, factor, color="C3", lw=1.0, ls=":", label="xPos's factor alone")
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set_xlabel("distance $x$")
    ax.set_ylabel("normalised score or bias")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    return fig
