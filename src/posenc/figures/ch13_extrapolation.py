"""Figures of chapter 13, extrapolation and base versus context length."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullLocator

from .. import cos_sums, frequencies, ntk_base
from . import figure
from ._style import legend_place, phone

D, BASE = 128, 1.0e4
TRAIN_L, SCALE = 4096, 4
CRITERION_L = 4096


@figure("fig-ch13-angles", panels_by_place=True)
def extrap_angles():
    theta = frequencies(D, BASE)
    i = np.arange(D // 2)
    fig, (left, right) = plt.subplots(
        1,
        2,
        figsize=(8, 4.3 if phone() else 3.5),  # on a phone, room for the legend below
        gridspec_kw={"width_ratios": [1.6, 1]},
    )
    left.semilogy(
        i, (TRAIN_L - 1) * theta, color="C0", lw=1.6, label=f"training, $x < {TRAIN_L}$"
    )
    left.semilogy(
        i,
        (SCALE * TRAIN_L - 1) * theta,
        color="C3",
        lw=1.4,
        ls="--",
        label=f"evaluation, $x < {SCALE * TRAIN_L}$",
    )
    left.axhline(2 * np.pi, color="0.4", lw=0.8, ls=":")
    left.text(1, 2 * np.pi * 1.4, "one full turn, $2\\pi$", color="0.3", va="bottom")
    unseen = (TRAIN_L - 1) * theta < 2 * np.pi
    left.axvspan(i[unseen][0] - 0.5, i[-1] + 0.5, color="C1", alpha=0.12, lw=0)
    left.set_xlabel("frequency index $i$")
    left.set_ylabel("largest angle $(L-1)\\theta_i$ (rad)")
    left.set_xlim(0, D // 2 - 1)
    left.legend(loc="upper right")

    lowest = theta[-1]
    circle = np.linspace(0, 2 * np.pi, 361)
    right.plot(np.cos(circle), np.sin(circle), color="0.85", lw=1.0)
    seen = np.linspace(0, (TRAIN_L - 1) * lowest, 200)
    more = np.linspace((TRAIN_L - 1) * lowest, (SCALE * TRAIN_L - 1) * lowest, 200)
    right.plot(
        np.cos(seen),
        np.sin(seen),
        color="C0",
        lw=4,
        solid_capstyle="butt",
        label="angles seen in training",
    )
    right.plot(
        np.cos(more),
        np.sin(more),
        color="C3",
        lw=2,
        ls="--",
        label="new angles at evaluation",
    )
    right.set_aspect("equal")
    right.set_xlim(-1.3, 1.3)
    right.set_ylim(-1.3, 1.6)
    right.set_xticks([-1, 0, 1])
    right.set_yticks([-1, 0, 1])
    right.set_xlabel("lowest frequency, $i = d/2 - 1$")
    if phone():  # under the axis label: on a phone the legend covered the circle
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.38), frameon=False)
    else:
        right.legend(loc="upper center", fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch13-scaling", panels_by_place=True)
def extrap_scaling():
    i = np.arange(D // 2)
    theta = frequencies(D, BASE)
    ntk = frequencies(D, ntk_base(BASE, SCALE, D))
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    left.plot(
        i,
        np.full(i.shape, 1 / SCALE),
        color="C0",
        lw=1.6,
        label="Position Interpolation",
    )
    left.plot(i, ntk / theta, color="C3", lw=1.6, ls="--", label="NTK-aware base")
    left.set_xlabel("frequency index $i$")
    left.set_ylabel("$\\theta_i' / \\theta_i$")
    left.set_ylim(0, 1.05)
    left.legend(loc="upper right")
    length = SCALE * TRAIN_L
    right.semilogy(
        i,
        (TRAIN_L - 1) * theta,
        color="0.6",
        lw=5,
        alpha=0.5,
        label="original, training",
    )
    right.semilogy(
        i,
        (length - 1) * theta / SCALE,
        color="C0",
        lw=1.4,
        ls=":",
        label="PI, evaluation",
    )
    right.semilogy(
        i, (length - 1) * ntk, color="C3", lw=1.6, ls="--", label="NTK, evaluation"
    )
    right.set_xlabel("frequency index $i$")
    right.set_ylabel("largest angle (rad)")
    right.legend(loc="upper right")
    fig.tight_layout()
    return fig


@figure("fig-ch13-min-vs-base", panels_by_place=True)
def extrap_min_vs_base():
    bases = np.geomspace(1.2e4, 6.0e4, 1200)
    low = np.array([cos_sums(CRITERION_L, D, b).min() for b in bases])
    zoom = np.linspace(2.66e4, 2.90e4, 600)
    low_zoom = np.array([cos_sums(CRITERION_L, D, b).min() for b in zoom])
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.5))
    for ax, x, y in [(left, bases, low), (right, zoom, low_zoom)]:
        ax.plot(x, y, color="C0", lw=1.0)
        ax.fill_between(
            x,
            0,
            1,
            where=y >= 0,
            color="C2",
            alpha=0.25,
            lw=0,
            transform=ax.get_xaxis_transform(),
            label="admissible",
        )
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xlabel("base $b$")
    left.set_xscale("log")
    # Ticks placed and written by hand: no offset label, no colliding "2 x 10^4" strings.
    left_ticks = [1.2e4, 2e4, 3e4, 4e4, 5e4, 6e4]
    left.set_xticks(left_ticks, [f"{t / 1e4:g}" for t in left_ticks])
    left.xaxis.set_minor_locator(NullLocator())
    left.set_xlabel("base $b$ ($\\times 10^4$)")
    left.axvspan(
        zoom[0], zoom[-1], fill=False, ec="0.35", lw=0.9, ls="--", label="zoom (right)"
    )
    left.set_ylabel(f"$\\min_{{x < {CRITERION_L}}} B_x$")
    left.legend(**legend_place(headed=True, loc="lower right"))
    right_ticks = [2.7e4, 2.75e4, 2.8e4, 2.85e4, 2.9e4]
    right.set_xticks(right_ticks, [f"{t / 1e4:.2f}" for t in right_ticks])
    right.set_xlabel("base $b$ ($\\times 10^4$)")
    right.set_ylim(-2.5, 1.0)
    fig.tight_layout()
    return fig
