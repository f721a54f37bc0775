"""Figures of chapter 3, the complex-number solution."""

import matplotlib.pyplot as plt
import numpy as np

from .. import block_encoding, decay_integral, decay_sum, frequencies, sinusoidal
from . import figure
from ._style import SEQUENTIAL, d_color, heading_over_label, legend_place, phone

# Small settings that keep the pictures legible.
CIRCLE_D, CIRCLE_BASE, CIRCLE_STEPS = 6, 100.0, 24
GRAM_D, GRAM_POSITIONS, BASE = 64, 96, 1.0e4
SEED = 3


def random_frequencies(d, seed=SEED):
    """d/2 frequencies drawn uniformly from [0, pi), sorted; a fixed seed."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.uniform(0.0, np.pi, d // 2))


@figure("fig-ch03-circle")
def complex_circle():
    theta = frequencies(CIRCLE_D, CIRCLE_BASE)
    m = np.arange(CIRCLE_STEPS + 1)
    circle = np.linspace(0.0, 2 * np.pi, 361)
    fig, axes = plt.subplots(1, len(theta), figsize=(8, 3.3))
    for ax, omega in zip(axes, theta, strict=False):
        z = np.exp(1j * m * omega)
        ax.plot(np.cos(circle), np.sin(circle), color="0.75", lw=1.0, zorder=1)
        ax.plot(z.real, z.imag, color="0.55", lw=0.6, alpha=0.8, zorder=2)
        points = ax.scatter(
            z.real,
            z.imag,
            c=m,
            cmap=SEQUENTIAL,
            s=26,
            zorder=3,
            edgecolors="0.25",  # a dark rim: the pale yellow end of the map stays visible
            linewidths=0.5,
        )
        ax.annotate("$p_0$", (1.0, 0.0), xytext=(1.12, -0.2), fontsize=10)
        ax.set_aspect("equal")
        ax.set_xlim(-1.35, 1.35)
        ax.set_ylim(-1.35, 1.35)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_xlabel("Re $p_m$")
        ax.text(
            0.5,
            1.02,
            f"$\\theta$ = {omega:.3f}",
            transform=ax.transAxes,
            ha="center",
            va="bottom",
        )
    axes[0].set_ylabel("Im $p_m$")
    fig.tight_layout()
    fig.colorbar(points, ax=list(axes), label="position m", shrink=0.8, pad=0.02)
    return fig


@figure("fig-ch03-gram", panels_by_place=True)
def complex_gram():
    m = np.arange(GRAM_POSITIONS)
    paper = sinusoidal(m, GRAM_D, BASE)
    shuffled = block_encoding(m, random_frequencies(GRAM_D))
    # constrained: the colour bar spans both panels, and on a phone, where they are stacked,
    # the lower panel's label clears the upper one's axis
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6), sharey=True, layout="constrained")
    for ax, table in zip(axes, (paper, shuffled), strict=False):
        gram = table @ table.T / (GRAM_D / 2)
        image = ax.imshow(gram, vmin=-1, vmax=1, interpolation="nearest")
        ax.grid(False)
        ax.set_xlabel("position n")
    axes[0].set_ylabel("position m")
    axes[0].text(
        0.5,
        1.02,
        "$\\theta_i = b^{-2i/d}$",
        transform=axes[0].transAxes,
        ha="center",
        va="bottom",
    )
    axes[1].text(
        0.5,
        1.02,
        "$\\theta_i$ uniform random in $[0, \\pi)$",
        transform=axes[1].transAxes,
        ha="center",
        va="bottom",
    )
    fig.colorbar(
        image,
        ax=list(axes),
        label="$\\langle p_m, p_n\\rangle / (d/2)$",
        shrink=0.9,
        pad=0.02,
    )
    for ax in axes:
        heading_over_label(ax)
    return fig


@figure("fig-ch03-decay-glimpse")
def complex_decay_glimpse():
    x = np.unique(np.round(np.geomspace(1, 3.0e4, 3000)))
    theta_random = random_frequencies(GRAM_D)
    random_sum = np.cos(np.multiply.outer(x, theta_random)).mean(axis=1)
    # on a phone the key goes above the plot (legend_place): a taller figure holds both
    fig, ax = plt.subplots(figsize=(8, 4.6 if phone() else 3.4))
    ax.axhline(0.0, color="0.4", lw=0.8)
    ax.semilogx(
        x, random_sum, color="0.6", lw=0.7, label=f"random $\\theta_i$, $d = {GRAM_D}$"
    )
    ax.semilogx(
        x,
        decay_sum(x, GRAM_D, BASE),
        color=d_color(GRAM_D),
        lw=0.9,
        label=f"$\\theta_i = b^{{-2i/d}}$, $d = {GRAM_D}$",
    )
    ax.semilogx(
        x,
        decay_sum(x, 512, BASE),
        color=d_color(512),
        lw=0.9,
        label="$\\theta_i = b^{-2i/d}$, $d = 512$",
    )
    ax.semilogx(
        x,
        decay_integral(x, BASE),
        color="k",
        lw=1.8,
        ls="--",
        label="integral, $d \\to \\infty$",
    )
    ax.set_xlabel("distance $x = m - n$ (log scale)")
    ax.set_ylabel("$(2/d)\\,\\sum_i \\cos(x\\theta_i)$")
    ax.set_ylim(-0.45, 1.05)
    ax.legend(**legend_place(loc="upper right"), ncol=2, fontsize=9)
    fig.tight_layout()
    return fig


# One pair against several: the settings of "Why several frequencies".
ONE_PAIR_THETA, SEVERAL_D, SEVERAL_MAX_X = 0.1, 64, 300


@figure("fig-ch03-one-vs-many")
def complex_one_vs_many():
    x = np.arange(SEVERAL_MAX_X + 1)
    fig, ax = plt.subplots(figsize=(8, 4.0 if phone() else 3.0))  # as above
    ax.axhline(0.0, color="0.4", lw=0.8)
    ax.plot(
        x,
        np.cos(ONE_PAIR_THETA * x),
        color="0.55",
        lw=1.2,
        label=f"one pair, $\\theta = {ONE_PAIR_THETA}$",
    )
    ax.plot(
        x,
        decay_sum(x, SEVERAL_D, BASE),
        color=d_color(SEVERAL_D),
        lw=1.6,
        label=f"{SEVERAL_D // 2} pairs, $\\theta_i = b^{{-2i/d}}$",
    )
    ax.set_xlabel("distance $x = m - n$")
    ax.set_ylabel("$\\langle p_m, p_n\\rangle / (d/2)$")
    ax.set_xlim(0, SEVERAL_MAX_X)
    ax.set_ylim(-1.1, 1.1)
    ax.legend(**legend_place(loc="lower right"), fontsize=9)
    fig.tight_layout()
    return fig
