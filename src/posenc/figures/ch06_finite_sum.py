"""Figures of chapter 6, how good is the integral: the finite sum against its continuum limit."""

import matplotlib.pyplot as plt
import numpy as np

from .. import decay_integral, decay_sum
from . import figure
from ._style import d_color, mix_white, phone

BASE = 1.0e4


def _log_integers(lo, hi, n):
    """About n distinct integers spread evenly in log scale over [lo, hi]."""
    return np.unique(np.round(np.logspace(np.log10(lo), np.log10(hi), n)))


@figure("fig-ch06-sum-vs-integral", panels_by_place=True)
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
    # on a phone the key is a column of six rows under the plot: a taller figure
    fig, ax = plt.subplots(figsize=(8, 7.4 if phone() else 4.4))
    handles = {"model": [], "term": [], "edge": []}
    for d in (64, 512):
        colour = d_color(d)
        error = np.abs(decay_sum(x, d, BASE) - decay_integral(x, BASE))
        # the raw error: pale, opaque and rasterised (thousands of spikes)
        ax.loglog(x, error, color=mix_white(colour, 0.6), lw=0.5, rasterized=True)
        nu_star = np.clip(np.log(2 * x * log_b / (np.pi * d)) / log_b, 0, 1)
        edge = np.pi * d / (2 * log_b)
        resolved = x < edge
        model = np.where(resolved, np.nan, np.sqrt(nu_star / d))
        (line,) = ax.loglog(
            x,
            model,
            color=colour,
            lw=2.2,
            label=f"$d = {d}$: RMS model $\\sqrt{{\\nu^*/d}}$",
        )
        handles["model"].append(line)
        em = np.abs(np.cos(x) - np.cos(x / BASE)) / d
        (line,) = ax.loglog(
            x[resolved],
            em[resolved],
            color=colour,
            lw=1.2,
            ls="--",
            label=f"$d = {d}$: $|\\cos x - \\cos(x/b)|\\,/\\,d$",
        )
        handles["term"].append(line)
        handles["edge"].append(
            ax.axvline(
                edge,
                color=colour,
                lw=1.0,
                ls=":",
                label=f"$d = {d}$: $x = \\pi d\\,/\\,(2\\ln b) \\approx {edge:.0f}$",
            )
        )
    ax.set_xlim(1e-1, 1e7)
    ax.set_ylim(1e-7, 2)
    ax.set_xlabel("relative distance $x$")
    ax.set_ylabel("$|S_d(x) - I_b(x)|$")
    # The key sits under the plot, one row per d, so no label lies on the data.
    ax.legend(
        handles=[h for kind in ("model", "term", "edge") for h in handles[kind]],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.22 if phone() else -0.2),
        ncol=1 if phone() else 3,
        frameon=False,
        fontsize=9,
        columnspacing=1.2,
    )
    fig.tight_layout()
    return fig
