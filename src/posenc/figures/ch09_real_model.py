"""Figures of chapter 9, a real model: the embeddings of all-MiniLM-L6-v2.

The statistics drawn here come from posenc.tables and posenc.structure, which chapter 9 derives
in the open and checks.
"""

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import BoundaryNorm

from .. import (
    band_energy,
    cosine_matrix,
    diagonal_means,
    minilm_embeddings,
    random_like,
    reference_tables,
    sinusoidal,
    top_k_share,
)
from . import figure
from ._style import DIVERGING, legend_place, mix_white, panel_name, phone

SEED = 0
TOP_K = np.array([1, 2, 4, 8, 16, 32])


@lru_cache(maxsize=1)
def tables():
    """Word and position embeddings of all-MiniLM-L6-v2 in float64 (loaded once, hash checked)."""
    emb = minilm_embeddings()
    return emb.word.astype(np.float64), emb.position.astype(np.float64)


@lru_cache(maxsize=1)
def covariances():
    """{"word": (trained, random), "position": (trained, random)} covariance matrices."""
    word, position = tables()
    return {
        label: (
            np.cov(table, rowvar=False),
            np.cov(random_like(table, SEED), rowvar=False),
        )
        for label, table in (("word", word), ("position", position))
    }


@figure("fig-ch09-covariance")
def model_covariance():
    covs = covariances()
    # Two rows: the heat maps large enough to see their texture, the histograms under them
    # with the legend beside the plot rather than over the bars.
    fig = plt.figure(figsize=(8, 6.4))
    grid = fig.add_gridspec(
        2,
        3,
        width_ratios=[1, 1, 0.05],
        height_ratios=[1.25, 1],
        wspace=0.35 if phone() else 0.12,
        hspace=0.42,
        left=0.15 if phone() else 0.09,
        right=0.82 if phone() else 0.9,
        top=0.98,
        bottom=0.09,
    )
    levels = np.linspace(0, 0.6, 7)
    cmap = plt.get_cmap("magma_r", len(levels) - 1).with_extremes(bad="white")
    norm = BoundaryNorm(levels, cmap.N)
    for slot, label in enumerate(("word", "position")):
        ax = fig.add_subplot(grid[0, slot])
        cov = covs[label][0]
        scale = np.sqrt(np.diag(cov))
        corr = np.abs(cov / np.outer(scale, scale))
        # The matrix is symmetric with 1 on the diagonal: its lower triangle says it all, at
        # half the bytes. "none" draws the 384 x 384 pixels as they are (crisp in a browser,
        # no moiré); six colour levels keep the embedded image small.
        corr = np.where(np.tri(len(corr), k=-1, dtype=bool), corr, np.nan)
        image = ax.imshow(corr, cmap=cmap, norm=norm, interpolation="none")
        ax.grid(False)
        ax.set_xticks([0, 383])
        ax.set_yticks([0, 383] if slot == 0 else [])
        if phone():  # side by side, two long axis labels would run into each other
            panel_name(ax, f"{label}s")
            ax.set_xlabel("coordinate")
        else:
            ax.set_xlabel(f"{label} embeddings: coordinate")
        if slot == 0:
            ax.set_ylabel("coordinate")
    fig.colorbar(
        image,
        cax=fig.add_subplot(grid[0, 2]),
        label="|correlation|",
        ticks=[0, 0.2, 0.4, 0.6],
    )
    ax = fig.add_subplot(grid[1, :2])
    bins = np.logspace(-5, 0.5, 56)
    sizes = {"word": len(tables()[0]), "position": len(tables()[1])}
    for label, color in (("word", "C0"), ("position", "C3")):
        for cov, is_trained in zip(covs[label], (True, False), strict=False):
            off = (
                np.abs(cov[~np.eye(len(cov), dtype=bool)]) / np.abs(np.diag(cov)).mean()
            )
            ax.hist(
                off,
                bins=bins,
                histtype="step",
                color=color if is_trained else mix_white(color, 0.35),
                lw=1.6 if is_trained else 1.2,
                ls="-" if is_trained else "--",
                label=f"{label}s, trained"
                if is_trained
                else f"{label}s, random, N = {sizes[label]}",
            )
    ax.set_xscale("log")
    ax.set_xlabel("|off-diagonal| / mean diagonal")
    ax.set_ylabel("entries")
    if phone():  # the key under the plot: beside it, it would squeeze the bars
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=1, frameon=False)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


@figure("fig-ch09-norms", panels_by_place=True)
def model_norms():
    word, position = tables()
    word_norm = np.linalg.norm(word, axis=1)
    pos_norm = np.linalg.norm(position, axis=1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.3), width_ratios=[1.4, 1])
    low, mid, high = np.percentile(word_norm, [5, 50, 95])
    left.axhspan(low, high, color="C0", alpha=0.15, lw=0, label="words, 5–95 %")
    left.axhline(mid, color="C0", lw=1.2, label="words, median")
    left.plot(np.arange(len(pos_norm)), pos_norm, color="C3", lw=1.2, label="positions")
    left.set_yscale("log")
    left.set_xlabel("position m")
    left.set_ylabel("norm")
    left.set_xlim(-5, len(pos_norm) + 5)
    left.legend(loc="upper right", fontsize=8, frameon=False, ncol=3)
    left.set_ylim(0.3, 4)
    left.set_yticks([0.3, 0.5, 1, 2, 3], ["0.3", "0.5", "1", "2", "3"])
    left.minorticks_off()
    bins = np.linspace(0, 2.5, 51)
    right.hist(word_norm, bins=bins, density=True, color="C0", alpha=0.6, label="words")
    right.hist(
        pos_norm, bins=bins, density=True, color="C3", alpha=0.6, label="positions"
    )
    right.set_xlabel("norm")
    right.set_ylabel("density")
    # loc="best" said, not defaulted to: matplotlib times a defaulted search and warns (an
    # error in the tests) when a busy machine makes it slower than a second
    right.legend(loc="best", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch09-gram", panels_by_place=True)
def model_gram():
    _, position = tables()
    n, d = position.shape
    cos = cosine_matrix(position)
    shuffled = reference_tables(position, SEED)["shuffled"]
    lag = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    counts = np.bincount(lag.ravel())
    mean = diagonal_means(cos)
    spread = np.sqrt(
        np.maximum(np.bincount(lag.ravel(), (cos - mean[lag]).ravel() ** 2) / counts, 0)
    )
    reference = diagonal_means(cosine_matrix(sinusoidal(n, d)))
    height = 4.2 if phone() else 3.4  # on a phone, room for the key above its panel
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, height), width_ratios=[1, 1.45])
    # The heat map at the resolution a page shows it: means over 2 x 2 blocks of positions
    # (256 x 256, about the panel's width in pixels), drawn pixel for pixel ("none": crisp,
    # no moiré) in sixteen colour levels, which keeps the embedded image small.
    blocks = cos.reshape(n // 2, 2, n // 2, 2).mean(axis=(1, 3))
    levels = np.linspace(-1, 1, 17)
    cmap = plt.get_cmap(DIVERGING, len(levels) - 1)
    image = left.imshow(
        blocks,
        cmap=cmap,
        norm=BoundaryNorm(levels, cmap.N),
        interpolation="none",
        extent=(-0.5, n - 0.5, n - 0.5, -0.5),
    )
    left.grid(False)
    left.set_xlabel("position n")
    left.set_ylabel("position m")
    fig.colorbar(
        image, ax=left, shrink=0.85, label="cosine", ticks=[-1, -0.5, 0, 0.5, 1]
    )
    k = np.arange(n)
    right.fill_between(
        k,
        mean - spread,
        mean + spread,
        color="C3",
        alpha=0.2,
        lw=0,
        label="learned, ± 1 s.d.",
    )
    right.plot(k, mean, color="C3", lw=1.5, label="learned, mean")
    right.plot(k, reference, color="C0", lw=1.2, label=f"sinusoidal, d = {d}")
    right.plot(
        k,
        diagonal_means(cosine_matrix(shuffled)),
        color="0.4",
        lw=1.0,
        ls="--",
        label="learned, positions shuffled",
    )
    right.set_xscale("symlog", linthresh=1)
    right.set_xlim(0, n)
    right.set_ylim(-0.4, 1.02)
    right.set_xlabel("offset |m − n|")
    right.set_ylabel("cosine")
    right.legend(
        **legend_place(headed=True, loc="lower left"), fontsize=8, frameon=False
    )
    fig.tight_layout()
    return fig


@figure("fig-ch09-spectrum", panels_by_place=True)
def model_spectrum():
    _, position = tables()
    n, d = position.shape
    references = reference_tables(position, SEED)
    shuffled, noise, walk = (
        references["shuffled"],
        references["noise"],
        references["walk"],
    )
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    cases = [
        ("learned", position, "C3", "-", "o"),
        (f"sinusoidal, d = {d}", sinusoidal(n, d), "C0", "-", "s"),
        ("random walk", walk, "C2", "--", "^"),
        ("learned, shuffled", shuffled, "0.3", ":", "x"),
        ("white noise", noise, "0.6", "--", "v"),
    ]
    for label, table, color, style, marker in cases:
        left.plot(
            TOP_K,
            top_k_share(table, TOP_K),
            color=color,
            ls=style,
            marker=marker,
            ms=4,
            lw=1.4,
            label=label,
        )
    left.set_xscale("log", base=2)
    left.set_xticks(TOP_K, [str(k) for k in TOP_K])
    left.set_ylim(0, 1.02)
    left.set_xlabel("k strongest frequencies")
    left.set_ylabel("share of energy")
    freq = np.arange(n // 2 + 1)
    for _label, table, color, style in [
        ("learned", position, "C3", "-"),
        ("random walk", walk, "C2", "--"),
        ("white noise", noise, "0.6", "--"),
    ]:
        energy = band_energy(table).sum(axis=1)
        right.loglog(freq[1:], energy[1:] / energy.sum(), color=color, ls=style, lw=1.2)
    energy = band_energy(position).sum(axis=1)
    share = energy / energy.sum()
    for peak in (1, 3, 10, 30, 88):
        right.annotate(
            f"{n / peak:.0f}",
            (peak, share[peak]),
            xytext=(0, 6),
            textcoords="offset points",
            ha="center",
            fontsize=8,
            color="C3",
        )
    right.set_ylim(1e-6, 1)
    right.set_xlabel("frequency (cycles per 512 positions)")
    right.set_ylabel("share of energy")
    fig.tight_layout()
    fig.legend(
        *left.get_legend_handles_labels(),
        loc="lower center",
        ncol=2 if phone() else 5,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.5, 0.98),
        columnspacing=1.2,
    )
    return fig


@figure("fig-ch09-columns")
def model_columns():
    _, position = tables()
    n = len(position)
    energy = band_energy(position)
    dominant = energy.argmax(axis=0)
    share = energy.max(axis=0) / energy.sum(axis=0)
    fig, axes = plt.subplots(2, 2, figsize=(8, 3.8), sharex=True)
    t = np.arange(n)
    for ax, peak in zip(axes.flat, (3, 10, 30, 88), strict=False):
        candidates = np.flatnonzero(dominant == peak)
        j = int(candidates[np.argmax(share[candidates])])
        ax.plot(t, position[:, j], color="C3", lw=1.0)
        if phone():  # inside a panel half as wide, the label would cover the curve
            ax.text(
                0.5,
                1.03,
                f"coordinate {j}\n{share[j]:.0%} at {peak} cycles",
                transform=ax.transAxes,
                ha="center",
                va="bottom",
            )
        else:
            ax.text(
                0.99,
                0.95,
                f"coordinate {j}: {share[j]:.0%} at {peak} cycles",
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=8,
                bbox={
                    "facecolor": "white",
                    "edgecolor": "none",
                    "alpha": 0.8,
                    "pad": 1,
                },
            )
        ax.set_xlim(0, n - 1)
    for ax in axes[1]:
        ax.set_xlabel("position m")
    for ax in axes[:, 0]:
        ax.set_ylabel("value")
    fig.tight_layout()
    return fig
