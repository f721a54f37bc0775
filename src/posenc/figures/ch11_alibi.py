"""Figures of chapter 11, ALiBi's linear biases."""

import matplotlib.pyplot as plt
import numpy as np

from .. import alibi_bias, alibi_slopes, decay_sum
from . import figure
from ._style import SEQUENTIAL, d_color, panel_name

HEAD_COUNTS = (8, 12, 16, 20, 32)
MARKERS = ("o", "s", "^", "D", "v")


@figure("fig-ch11-slopes", panels_by_place=True)
def alibi_slopes_figure():
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.6), sharey=True)
    colours = ("C0", "C1", "C2", "C3", "C4")
    for rank, (n, marker, colour) in enumerate(
        zip(HEAD_COUNTS, MARKERS, colours, strict=False)
    ):
        slopes = alibi_slopes(n)
        heads = np.arange(1, n + 1)
        z = (
            10 - rank
        )  # fewer heads on top: their slopes reappear in the larger head counts
        left.plot(
            heads,
            slopes,
            marker=marker,
            ms=4,
            lw=0.8,
            color=colour,
            label=f"{n} heads",
            zorder=z,
        )
        right.plot(
            heads / n,
            np.sort(slopes)[::-1],
            marker=marker,
            ms=4,
            lw=0.8,
            color=colour,
            zorder=z,
        )
    for ax in (left, right):
        ax.set_yscale("log", base=2)
    left.set_xlabel("head h (reference order)")
    left.set_ylabel("slope $s_h$")
    right.set_xlabel("rank / number of heads (sorted)")
    left.legend(fontsize=9, ncol=1, loc="upper right")
    fig.tight_layout()
    return fig


@figure("fig-ch11-bias")
def alibi_bias_figure():
    length, n_heads, heads = 16, 8, (0, 2)
    bias = alibi_bias(n_heads, length)
    slopes = alibi_slopes(n_heads)
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.85")
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
    for ax, h in zip(axes, heads, strict=False):
        masked = np.ma.masked_invalid(bias[h])
        image = ax.imshow(masked, cmap=cmap, interpolation="nearest")
        ax.grid(False)
        ax.set_xlabel("key n")
        ax.set_ylabel("query m")
        panel_name(ax, f"head {h + 1} of {n_heads}, slope 1/{1 / slopes[h]:.0f}")
        ax.text(
            length - 1.5,
            1.5,
            "masked\n(−∞)",
            ha="right",
            va="top",
            fontsize=9,
            color="0.3",
        )
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="bias")
    fig.tight_layout()
    return fig


@figure("fig-ch11-vs-sinusoidal", panels_by_place=True)
def alibi_vs_sinusoidal():
    x_alibi = np.arange(0, 513)
    slopes = alibi_slopes(8)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    for h, s in enumerate(slopes):
        left.plot(
            x_alibi,
            np.exp(-s * x_alibi),
            lw=1.3,
            # viridis without its pale yellow end, which vanishes on white
            color=plt.get_cmap(SEQUENTIAL)(0.8 * h / 7),
            label=f"1/{1 / s:.0f}" if h in (0, 3, 7) else None,
        )
    left.set_xlabel("distance x = m − n")
    left.set_ylabel("$\\exp(-s_h x)$")  # (e^{-s_h x} set its exponent too small to read)
    # loc="best" said, not defaulted to: matplotlib times a defaulted search and warns (an
    # error in the tests) when a busy machine makes it slower than a second
    left.legend(loc="best", title="slope", fontsize=9, title_fontsize=9)
    x = np.arange(0, 4001)
    for d in (64, 512):
        right.plot(
            x,
            decay_sum(x.astype(float), d),
            lw=1.0,
            color=d_color(d),
            label=f"$d = {d}$",
        )
    right.axhline(0, color="0.4", lw=0.8)
    right.set_xlabel("distance x")
    right.set_ylabel("$S_d(x)$")
    right.legend(loc="best", fontsize=9)
    fig.tight_layout()
    return fig
