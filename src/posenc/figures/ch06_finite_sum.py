"""Figures of chapter 6, how good is the integral: the finite sum against its continuum limit."""

import matplotlib.pyplot as plt
import numpy as np

from .. import decay_integral, decay_sum
from . import figure

BASE = 1.0e4


def _log_integers(lo, hi, n):
    """About n distinct integers spread evenly in log scale over [lo, hi]."""
    return np.unique(np.round(np.logspace(np.log10(lo), np.log10(hi), n)))


@figure("fig-ch06-sum-vs-integral")
def finite_sum_vs_integral():
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(8.4, 3.6), sharey=True, gridspec_kw={"width_ratios": [1, 1.3]}
    )
    k = np.arange(0, 101, dtype=float)
    x = np.linspace(0, 100, 1001)
    left.plot(x, decay_integral(x, BASE), color="0.1", lw=2.0, label="integral")
    far = _log_integers(100, 1e5, 2500)
    xf = np.logspace(2, 5, 3000)
    right.semilogx(xf, decay_integral(xf, BASE), color="0.1", lw=2.0, zorder=3)
    for colour, d in zip(["C3", "C0"], [64, 512], strict=False):
        left.plot(
            k,
            decay_sum(k, d, BASE),
            "-",
            color=colour,
            lw=1.0,
            marker="o",
            ms=2,
            label=f"sum, d = {d}",
        )
        right.semilogx(far, decay_sum(far, d, BASE), color=colour, lw=0.7, alpha=0.8)
    for ax in (left, right):
        ax.axhline(0, color="0.4", lw=0.8)
    left.set_xlim(0, 100)
    left.set_ylim(-0.45, 1.02)
    left.set_xlabel("x (integer distances)")
    left.set_ylabel("normalised inner product, $b = 10^4$")
    left.legend(loc="lower left", frameon=False)
    right.set_xlim(100, 1e5)
    right.set_xlabel("x (log scale)")
    fig.tight_layout()
    return fig


@figure("fig-ch06-error")
def finite_error():
    log_b = np.log(BASE)
    x = np.logspace(-1, 7, 4000)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for colour, d in zip(["C3", "C0"], [64, 512], strict=False):
        error = np.abs(decay_sum(x, d, BASE) - decay_integral(x, BASE))
        ax.loglog(x, error, color=colour, lw=0.5, alpha=0.45)
        nu_star = np.clip(np.log(2 * x * log_b / (np.pi * d)) / log_b, 0, 1)
        resolved = x < np.pi * d / (2 * log_b)
        model = np.where(resolved, np.nan, np.sqrt(nu_star / d))
        ax.loglog(
            x,
            model,
            color=colour,
            lw=2.0,
            label=f"d = {d}: RMS model $\\sqrt{{\\nu^*/d}}$",
        )
        em = np.abs(np.cos(x) - np.cos(x / BASE)) / d
        ax.loglog(
            x[resolved],
            em[resolved],
            color=colour,
            lw=1.2,
            ls="--",
            label=f"d = {d}: $|\\cos x - \\cos(x/b)|/d$",
        )
        ax.axvline(np.pi * d / (2 * log_b), color=colour, lw=1.0, ls=":")
        ax.text(
            np.pi * d / (2 * log_b) * 1.1,
            2e-7,
            f"$\\pi d/(2\\ln b)$\nd = {d}",
            color=colour,
            fontsize=9,
            va="bottom",
        )
    ax.set_xlim(1e-1, 1e7)
    ax.set_ylim(1e-7, 20)
    ax.set_xlabel("relative distance x")
    ax.set_ylabel("|sum − integral|")
    ax.legend(loc="upper left", frameon=False, fontsize=9, ncol=2)
    fig.tight_layout()
    return fig
