"""Figures of chapter 15, the experiment: drawn from the committed results (no training)."""

import matplotlib.pyplot as plt
import numpy as np

from .. import decay_sum
from ..experiments import results
from ..experiments.config import Config
from . import _style, figure

#: One colour and marker per encoding, the same in every figure of the chapter.
STYLE = {
    "nope": (_style.BLACK, "o", "NoPE"),
    "sinusoidal": (_style.BLUE, "s", "sinusoidal"),
    "learned": (_style.SKY, "D", "learned"),
    "t5": (_style.PURPLE, "v", "T5 bias"),
    "alibi": (_style.GREEN, "^", "ALiBi"),
    "rope-b10000": (_style.RED, "P", "RoPE, $b = 10^4$"),
    "rope-b10": (_style.ORANGE, "X", "RoPE, $b = 10$"),
}
TASK_TITLES = {"recall": "recall", "offset": "the token 8 back"}
CONFIG = Config()
L = CONFIG.train_length
LENGTHS = CONFIG.eval_lengths


def _load():
    return results.load()


def _spread(values, axis=0):
    """Mean, and the distances down to the smallest and up to the largest seed."""
    values = np.asarray(values, dtype=float)
    mean = np.nanmean(values, axis=axis)
    return (
        mean,
        mean - np.nanmin(values, axis=axis),
        np.nanmax(values, axis=axis) - mean,
    )


def _length_axis(ax):
    ax.set_xscale("log", base=2)
    ax.set_xticks(LENGTHS, [f"{n}\n({n // L}L)" for n in LENGTHS])
    ax.minorticks_off()
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("evaluation length")


@figure("fig-ch15-length", panels_by_place=True)
def accuracy_by_length():
    records = _load()
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.6), sharey=True)
    for ax, task in zip(axes, results.TASKS, strict=True):
        for k, label in enumerate(results.labels(records)):
            color, marker, name = STYLE[label]
            seeds = np.array(
                [results.accuracy(records, task, label, n) for n in LENGTHS]
            ).T
            mean, low, high = _spread(seeds)
            shift = 2 ** ((k - 3) * 0.025)  # side by side, so that the bars stay apart
            ax.errorbar(
                np.array(LENGTHS) * shift,
                mean,
                yerr=[low, high],
                color=color,
                marker=marker,
                ms=5,
                lw=1.2,
                capsize=2,
                label=name,
            )
        _length_axis(ax)
    axes[0].set_ylabel("accuracy")
    _legend_below(fig, axes[0], ncol=4)
    return fig


def _legend_below(fig, ax, ncol):
    """One legend for the whole figure, under the panels."""
    handles, names = ax.get_legend_handles_labels()
    bottom = 0.14
    if _style.phone():  # the key in two columns, its rows given room under the panels
        ncol = 1 if ncol <= 2 else 2  # the two-column keys have long labels
        bottom = 0.035 * -(-len(names) // ncol) + 0.06
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.legend(handles, names, loc="lower center", ncol=ncol, fontsize=8, frameon=False)


def _binned_panel(ax, records, task, labels, length, variant=None, styles=None):
    for label in labels:
        color, marker, name = STYLE[label]
        ls = "-"
        if styles is not None:
            color, ls, name = styles[label]
        edges, rows = results.binned(records, task, label, length, variant)
        centres = (edges[:-1] + edges[1:]) / 2
        mean, low, high = _spread(rows)
        keep = np.isfinite(mean)
        ax.plot(centres[keep], mean[keep], color=color, lw=1.4, ls=ls, label=name)
        ax.fill_between(
            centres[keep],
            (mean - low)[keep],
            (mean + high)[keep],
            color=color,
            alpha=0.12,
            lw=0,
        )
    ax.axvline(L, color=_style.GREY, lw=0.8, ls=":")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlim(0, length)


@figure("fig-ch15-distance", panels_by_place=True)
def accuracy_by_distance():
    records = _load()
    longest = max(LENGTHS)
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.6), sharey=True)
    for ax, task in zip(axes, results.TASKS, strict=True):
        _binned_panel(ax, records, task, results.labels(records), longest)
    axes[0].set_xlabel("distance from query to key")
    axes[1].set_xlabel("position of the query")
    axes[0].set_ylabel(f"accuracy at length {longest}")
    axes[0].text(L + 6, 0.02, "$L$", color=_style.GREY)
    _legend_below(fig, axes[0], ncol=4)
    return fig


ROPE_STYLES = {
    None: ("-", "as trained"),
    "pi": ("--", "Position Interpolation"),
    "ntk": (":", "NTK-aware base"),
}


@figure("fig-ch15-rope", panels_by_place=True)
def rope_variants():
    records = _load()
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.6), sharey=True)
    for ax, task in zip(axes, results.TASKS, strict=True):
        for label in ("rope-b10000", "rope-b10"):
            color, marker, name = STYLE[label]
            for variant, (ls, how) in ROPE_STYLES.items():
                seeds = np.array(
                    [
                        results.accuracy(records, task, label, n, variant)
                        for n in LENGTHS
                    ]
                ).T
                mean, low, high = _spread(seeds)
                ax.errorbar(
                    LENGTHS,
                    mean,
                    yerr=[low, high],
                    color=color,
                    marker=marker,
                    ms=4,
                    lw=1.2,
                    ls=ls,
                    capsize=2,
                    label=f"{name}, {how}",
                )
        _length_axis(ax)
    axes[0].set_ylabel("accuracy")
    _legend_below(fig, axes[0], ncol=2)
    return fig


#: Distances drawn in the attention figure: the tasks' distances (1 and 8) and some beyond.
ATTENTION_X = 24


def attention_by_distance(records, task, label, layer):
    """Mean attention weight at each distance 0 … L − 1, for each head of ``layer``,
    averaged over the seeds: ``(heads, L)``."""
    return results.attention_profile(records, task, label)[:, layer].mean(axis=0)


def decay_attention(length=L, d=CONFIG.d_model):
    r"""The attention the decay story gives the last query of ``length`` tokens: weights
    :math:`\propto \exp(\mathrm{PE}(m)^\top \mathrm{PE}(n)/\sqrt d) =
    \exp(\tfrac{\sqrt d}{2} S_d(m - n))`, the position–position term alone with H = I
    (chapters 2 and 5), at the distances 0 … length − 1."""
    x = np.arange(float(length))
    logits = np.sqrt(d) / 2 * decay_sum(x, d)
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


@figure("fig-ch15-attention")
def attention():
    records = _load()
    labels = results.labels(records)
    x = np.arange(ATTENTION_X + 1)
    # on a phone one row per encoding and a column per task: seven columns would be too
    # narrow for their names
    phone = _style.phone()
    shape = (len(labels), 2) if phone else (2, len(labels))
    figsize = (4.8, 1.6 * len(labels) / 0.85) if phone else (10.4, 4.4)
    fig, axes = plt.subplots(*shape, figsize=figsize, sharex=True, sharey=True)
    decay = decay_attention()[: x.size]
    for row, task in enumerate(results.TASKS):
        for col, label in enumerate(labels):
            ax = axes[col, row] if phone else axes[row, col]
            color, _, name = STYLE[label]
            ax.plot(x, decay, color=_style.GREY, lw=2.4, alpha=0.6, zorder=0)
            for layer, ls in ((0, "-"), (1, "--")):
                profile = attention_by_distance(records, task, label, layer)
                for head in profile:
                    ax.plot(x, head[: x.size], color=color, lw=0.9, ls=ls)
            ax.set_ylim(0, 1)
            ax.set_xticks([1, 8, 16, 24])
            if phone:  # at the right, clear of the spikes at distances 1 and 8
                ax.text(0.98, 0.96, name, transform=ax.transAxes, ha="right", va="top")
                if col == 0:
                    ax.text(
                        0.5,
                        1.04,
                        TASK_TITLES[task],
                        transform=ax.transAxes,
                        ha="center",
                        va="bottom",
                    )
                if col == len(labels) - 1:
                    ax.set_xlabel("distance $x$")
                continue
            if row == 0:  # the column's encoding inside its panel: no titles
                ax.text(
                    0.5,
                    0.96,
                    name,
                    transform=ax.transAxes,
                    ha="center",
                    va="top",
                    fontsize=9,
                )
            else:
                ax.set_xlabel("distance $x$")
        if not phone:
            axes[row, 0].set_ylabel(f"{TASK_TITLES[task]}\nmean attention")
    fig.tight_layout()
    return fig
