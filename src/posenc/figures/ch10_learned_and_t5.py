"""Figures of chapter 10, learned absolute embeddings and T5's relative bias."""

import matplotlib.pyplot as plt
import numpy as np

from .. import t5_bucket
from . import figure
from ._style import heading_over_label, panel_name

# T5's defaults (Raffel et al. 2020; Hugging Face T5Attention).
NUM_BUCKETS = 32
MAX_DISTANCE = 128
SEED = 10


def saturation_distance(
    bidirectional, num_buckets=NUM_BUCKETS, max_distance=MAX_DISTANCE
):
    """The smallest distance x = |key - query| whose bucket is the last one of its side."""
    n = np.arange(0, 4 * max_distance + 1)
    buckets = t5_bucket(-n, bidirectional, num_buckets, max_distance)
    return int(n[np.argmax(buckets == buckets.max())])


@figure("fig-ch10-t5-buckets")
def t5_buckets():
    r = np.arange(-300, 301)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4), sharey=True)
    for ax, bidirectional, label in zip(
        axes, (True, False), ("bidirectional", "unidirectional"), strict=False
    ):
        b = t5_bucket(r, bidirectional, NUM_BUCKETS, MAX_DISTANCE)
        ax.step(r, b, where="mid", color="C0", lw=1.4)
        ax.axvline(-MAX_DISTANCE, color="0.4", lw=0.9, ls=":", label="± max_distance")
        if bidirectional:
            ax.axvline(MAX_DISTANCE, color="0.4", lw=0.9, ls=":")
        n_sat = saturation_distance(bidirectional)
        sat = [-n_sat] + ([n_sat] if bidirectional else [])
        ax.plot(
            sat,
            t5_bucket(np.array(sat), bidirectional),
            "o",
            color="C3",
            ms=5,
            label="last bucket begins",
        )
        panel_name(ax, label)
        ax.set_xlabel("relative position key − query")
        ax.set_xlim(-300, 300)
        ax.set_xticks([-300, -128, 0, 128, 300])
    axes[0].set_ylabel("bucket")
    axes[0].set_yticks([0, 8, 16, 24, 31])
    axes[1].legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig


@figure("fig-ch10-t5-toeplitz", panels_by_place=True)
def t5_toeplitz():
    length, d = 48, 32
    rng = np.random.default_rng(SEED)
    table = rng.standard_normal((length, d)) / np.sqrt(d)  # an untrained learned table
    gram = table @ table.T
    values = rng.standard_normal(NUM_BUCKETS)  # one head's learned bias per bucket
    position = np.arange(length)
    bias = values[t5_bucket(position[None, :] - position[:, None])]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
    for ax, matrix, label in zip(
        axes,
        (gram, bias),
        ("$\\langle p_m, p_n\\rangle$, random table", "T5 bias $b(n - m)$"),
        strict=False,
    ):
        limit = np.abs(matrix).max()
        image = ax.imshow(matrix, vmin=-limit, vmax=limit, interpolation="nearest")
        ax.grid(False)
        ax.set_xlabel("key position n")
        ax.set_ylabel("query position m")
        panel_name(ax, label)
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        heading_over_label(ax)
    fig.tight_layout()
    return fig
