"""Figures of chapter 12, RoPE: rotating queries and keys."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import sici

from .. import decay_sum, frequencies
from . import figure

D, BASE = 128, 1.0e4
MAX_DISTANCE = 256
CONTINUUM_D = 1 << 14  # a dimension large enough to stand in for d -> infinity on [0, 256]


def partial_sums(x, d=D, base=BASE):
    """S_j(x) = sum_{k<j} exp(i x theta_k) for j = 1 .. d/2; shape (len(x), d/2)."""
    theta = frequencies(d, base)
    return np.cumsum(np.exp(1j * np.multiply.outer(np.asarray(x, dtype=float), theta)), axis=-1)


def bound_curve(x, d=D, base=BASE):
    """RoFormer's relative upper bound (1/(d/2)) sum_j |S_j(x)|."""
    return np.abs(partial_sums(x, d, base)).sum(axis=-1) / (d // 2)


def continuum_partial(x, u, base=BASE):
    """int_0^u exp(i x b^-t) dt = [Ci(x) - Ci(x b^-u) + i (Si(x) - Si(x b^-u))] / ln b, x > 0."""
    x = np.asarray(x, dtype=float)[..., None]
    lo = x * base ** (-np.asarray(u, dtype=float))
    si_x, ci_x = sici(x)
    si_lo, ci_lo = sici(lo)
    return (ci_x - ci_lo + 1j * (si_x - si_lo)) / np.log(base)


def continuum_bound(x, d=D, base=BASE, points=400):
    """RoFormer's bound curve as d -> infinity: (d/2) int_0^1 |int_0^u exp(i x b^-t) dt| du,
    by the midpoint rule in u; x > 0."""
    u = (np.arange(points) + 0.5) / points
    return np.abs(continuum_partial(x, u, base)).mean(axis=-1) * (d // 2)


@figure("fig-rope-rotation")
def rope_rotation():
    theta = 0.35
    q, k = 0.9 * np.exp(0.25j), 0.7 * np.exp(1.2j)
    pairs = [(2, 5), (6, 9)]
    circle = np.linspace(0, 2 * np.pi, 361)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
    for ax, (m, n) in zip(axes, pairs):
        qm, kn = q * np.exp(1j * m * theta), k * np.exp(1j * n * theta)
        ax.plot(np.cos(circle), np.sin(circle), color="0.85", lw=0.8)
        for z, colour, label in [(q, "C0", "$q$"), (k, "C3", "$k$")]:
            ax.annotate("", xy=(z.real, z.imag), xytext=(0, 0),
                        arrowprops=dict(arrowstyle="->", color=colour, lw=1.0, alpha=0.35))
        for z, colour, label in [(qm, "C0", f"$R_{{{m}}}q$"), (kn, "C3", f"$R_{{{n}}}k$")]:
            ax.annotate("", xy=(z.real, z.imag), xytext=(0, 0),
                        arrowprops=dict(arrowstyle="->", color=colour, lw=2.0))
            ax.text(1.18 * z.real, 1.18 * z.imag, label, color=colour, ha="center", va="center")
        start, stop = np.angle(qm), np.angle(kn)
        if stop < start:
            stop += 2 * np.pi
        arc = np.linspace(start, stop, 60)
        ax.plot(0.3 * np.cos(arc), 0.3 * np.sin(arc), color="0.3", lw=1.0)
        ax.text(0.5, 0.02, f"m = {m}, n = {n}: angle $\\varphi_k - \\varphi_q + (n-m)\\theta$",
                transform=ax.transAxes, ha="center", va="bottom", fontsize=9)
        ax.set_aspect("equal")
        ax.set_xlim(-1.3, 1.3)
        ax.set_ylim(-1.3, 1.3)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_xlabel("first coordinate of the pair")
    axes[0].set_ylabel("second coordinate")
    fig.tight_layout()
    return fig


@figure("fig-rope-decay")
def rope_decay():
    x = np.arange(MAX_DISTANCE + 1, dtype=float)
    curve = bound_curve(x)
    xs = np.linspace(0.25, MAX_DISTANCE, 1024)
    limit = continuum_bound(xs)
    full = np.abs(partial_sums(x)[:, -1]) / (D // 2)
    real = decay_sum(x, D, BASE)
    whole = continuum_partial(xs, 1.0)[:, 0]

    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
    left.plot(x, curve, color="C0", lw=1.5, label="$d = 128$")
    left.plot(xs, limit, color="0.3", lw=1.0, ls="--", label="continuum")
    left.set_xlabel("relative distance $x$")
    left.set_ylabel("$\\frac{1}{d/2}\\sum_j |S_j(x)|$")
    left.set_xlim(0, MAX_DISTANCE)
    left.set_ylim(0, None)
    left.legend(loc="upper right")

    right.plot(x, full, color="C0", lw=1.5, label="$|S_{d/2}|/(d/2)$")
    right.plot(x, real, color="C1", lw=1.2, label="real part (decay_sum)")
    right.plot(xs, np.abs(whole), color="0.3", lw=1.0, ls="--", label="$|I_b + iJ_b|$")
    right.axhline(0, color="0.5", lw=0.7)
    right.set_xlabel("relative distance $x$")
    right.set_xlim(0, MAX_DISTANCE)
    right.legend(loc="upper right")
    fig.tight_layout()
    return fig
