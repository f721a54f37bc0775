"""Figures of chapter 4, the standard formula and its implementation."""

import matplotlib.pyplot as plt
import numpy as np

from .. import frequencies, shift_matrix, sinusoidal, tensor2tensor_frequencies
from . import figure
from ._style import panel_name, phone

PE_LABEL = "$\\mathrm{PE}(t)_j$"

# The paper's setting, used by most figures of the chapter.
D_MODEL = 512
BASE = 1.0e4


@figure("fig-ch04-heatmap")
def pe_heatmap():
    table = sinusoidal(100, D_MODEL)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    # "none": the 100 x 512 table embedded pixel for pixel and scaled once, by the browser,
    # with pixelated rendering (the SVG asks for it). Resampled first at the savefig dpi and
    # then again by the browser ("nearest"), the alternating sin/cos columns beat (moiré);
    # a smoothing filter would triple the file.
    image = ax.imshow(table, aspect="auto", vmin=-1, vmax=1, interpolation="none")
    ax.grid(False)
    ax.set_xlabel("coordinate $j$")
    ax.set_ylabel("position $t$")
    fig.colorbar(image, ax=ax, label=PE_LABEL)
    return fig


@figure("fig-ch04-sinusoids")
def pe_sinusoids():
    positions = [0, 4, 8, 12]
    n_coords = 128
    table = sinusoidal(np.array(positions, dtype=float), D_MODEL)[:, :n_coords]
    j = np.arange(n_coords)
    fig, axes = plt.subplots(1, len(positions), figsize=(8, 3.2), sharey=True)
    for ax, t, row in zip(axes, positions, table, strict=False):
        ax.plot(j[0::2], row[0::2], color="C0", lw=1.4, label="sin (even j)")
        ax.plot(j[1::2], row[1::2], color="C3", lw=1.4, ls="--", label="cos (odd j)")
        ax.text(0.5, 0.97, f"t = {t}", transform=ax.transAxes, ha="center", va="top")
        ax.set_xlabel("coordinate j")
        ax.set_xticks([0, 64, 128])
        ax.set_ylim(-1.1, 1.4)
        ax.set_yticks([-1, -0.5, 0, 0.5, 1])
    axes[0].set_ylabel(PE_LABEL)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="upper center",
        ncol=2,
        frameon=False,
        bbox_to_anchor=(0.5, 1.06),
    )
    fig.tight_layout()
    return fig


@figure("fig-ch04-wavelengths", panels_by_place=True)
def pe_wavelengths():
    i = np.arange(D_MODEL // 2)
    paper = 2 * np.pi / frequencies(D_MODEL, BASE)
    t2t = 2 * np.pi / tensor2tensor_frequencies(D_MODEL, BASE)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    left.semilogy(i, paper, color="C0", lw=1.6, label="paper, $2\\pi b^{2i/d}$")
    left.semilogy(i, t2t, color="C1", lw=1.4, ls="--", label="tensor2tensor")
    left.axhline(2 * np.pi, color="0.4", lw=0.8, ls=":")
    left.axhline(2 * np.pi * BASE, color="0.4", lw=0.8, ls=":")
    left.text(250, 2 * np.pi * 1.3, "$2\\pi$", color="0.3", ha="right", va="bottom")
    left.text(2, 2 * np.pi * BASE * 1.3, "$2\\pi b$", color="0.3", va="bottom")
    left.set_ylim(3, 2e5)
    left.set_xlabel("frequency index i")
    left.set_ylabel("wavelength (positions)")
    left.legend(loc="center left", bbox_to_anchor=(0.0, 0.62))
    right.plot(i, t2t / paper, color="C1", lw=1.6)
    right.set_xlabel("frequency index i")
    right.set_ylabel("tensor2tensor / paper")
    fig.tight_layout()
    return fig


@figure("fig-ch04-layouts")
def pe_layouts():
    n_pos, d = 64, 64
    tables = [
        sinusoidal(n_pos, d, layout="interleaved"),
        sinusoidal(n_pos, d, layout="halves"),
    ]
    labels = ["interleaved: sin, cos, sin, cos, …", "halves: sin, …, sin, cos, …, cos"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4), sharey=True)
    for ax, table, label in zip(axes, tables, labels, strict=False):
        image = ax.imshow(
            table, aspect="auto", vmin=-1, vmax=1, interpolation="nearest"
        )
        ax.grid(False)
        # stacked, a name under the axis label would read as the next panel's title
        if phone():
            panel_name(ax, label)
            ax.set_xlabel("coordinate j")
        else:
            ax.set_xlabel(f"coordinate j\n{label}")
    axes[0].set_ylabel("position t")
    if phone():  # stacked: room for the upper panel's label and the lower one's title
        fig.subplots_adjust(hspace=0.75)
        fig.colorbar(
            image, ax=axes, label=PE_LABEL, orientation="horizontal", pad=0.22, aspect=30
        )
    else:
        fig.colorbar(image, ax=axes, label=PE_LABEL, fraction=0.05, pad=0.02)
    return fig


@figure("fig-ch04-shift-rotation", panels_by_place=True)
def shift_rotation():
    omega, k, steps = 0.3, 3, 14
    t = np.arange(steps)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(8, 3.8), gridspec_kw={"width_ratios": [1, 1.15]}
    )
    circle = np.linspace(0, 2 * np.pi, 400)
    left.plot(np.cos(circle), np.sin(circle), color="0.75", lw=1)
    left.plot(np.sin(t * omega), np.cos(t * omega), "o", color="C0", ms=4)
    for start in (0, 6):
        a, b = start * omega, (start + k) * omega
        left.annotate(
            "",
            xy=(np.sin(b), np.cos(b)),
            xytext=(np.sin(a), np.cos(a)),
            arrowprops={
                "arrowstyle": "->",
                "color": "C3",
                "lw": 1.6,
                "connectionstyle": "arc3,rad=-0.25",
            },
        )
    for label_t in (0, 6):
        x, y = np.sin(label_t * omega), np.cos(label_t * omega)
        left.text(1.36 * x, 1.36 * y, f"t = {label_t}", ha="center", va="center")
    left.set_aspect("equal")
    left.set_xlim(-1.5, 1.5)
    left.set_ylim(-1.5, 1.5)
    left.set_xlabel("sin(tω)  (coordinate 2i)")
    left.set_ylabel("cos(tω)  (coordinate 2i+1)")
    m = shift_matrix(k, 16, base=BASE)
    image = right.imshow(m, vmin=-1, vmax=1, interpolation="nearest")
    right.grid(False)
    right.set_xlabel("column")
    right.set_ylabel("row")
    fig.colorbar(image, ax=right, label="entry of $M_k$", fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig


@figure("fig-ch04-inner-product", panels_by_place=True)
def pe_inner_product():
    theta = frequencies(D_MODEL, BASE)
    near = np.arange(-60, 61)
    far = np.unique(np.round(np.logspace(0, np.log10(2e4), 1500)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4), sharey=True)
    left.plot(
        near, np.cos(np.multiply.outer(near, theta)).sum(axis=1), color="C0", lw=1.4
    )
    left.set_xlabel("distance $x$")
    left.set_ylabel("$\\sum_i \\cos(x\\theta_i)$")
    right.semilogx(
        far, np.cos(np.multiply.outer(far, theta)).sum(axis=1), color="C0", lw=1.0
    )
    right.axhline(0, color="0.4", lw=0.8)
    right.set_xlabel("distance $x$ (log scale)")
    fig.tight_layout()
    return fig
