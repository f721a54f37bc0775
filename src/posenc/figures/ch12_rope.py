"""Figures of chapter 12, RoPE: rotating queries and keys."""

import matplotlib.pyplot as plt
import numpy as np

from .. import (
    decay_sum,
    rope_bound,
    rope_bound_continuum,
    rope_partial_integral,
    rope_partial_sums,
)
from . import figure, interactive_figure
from ._plotly import COLORS, base_layout, power_label, rounded, slider_and_menu
from ._style import heading_over_label, phone
from ._widgets import dimension_slider, explorer, log_slider

D, BASE = 128, 1.0e4
MAX_DISTANCE = 256


@figure("fig-ch12-rotation", panels_by_place=True)
def rope_rotation():
    theta = 0.35
    q, k = 0.9 * np.exp(0.25j), 0.7 * np.exp(1.2j)
    pairs = [(2, 5), (6, 9)]
    circle = np.linspace(0, 2 * np.pi, 361)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
    for ax, (m, n) in zip(axes, pairs, strict=False):
        qm, kn = q * np.exp(1j * m * theta), k * np.exp(1j * n * theta)
        ax.plot(np.cos(circle), np.sin(circle), color="0.85", lw=0.8)
        for z, colour in [(q, "C0"), (k, "C3")]:
            ax.annotate(
                "",
                xy=(z.real, z.imag),
                xytext=(0, 0),
                arrowprops=dict(arrowstyle="->", color=colour, lw=1.0, alpha=0.35),
            )
        for z, colour, label in [
            (qm, "C0", f"$R_{{{m}}}q$"),
            (kn, "C3", f"$R_{{{n}}}k$"),
        ]:
            ax.annotate(
                "",
                xy=(z.real, z.imag),
                xytext=(0, 0),
                arrowprops=dict(arrowstyle="->", color=colour, lw=2.0),
            )
            ax.text(
                1.18 * z.real,
                1.18 * z.imag,
                label,
                color=colour,
                ha="center",
                va="center",
            )
        start, stop = np.angle(qm), np.angle(kn)
        if stop < start:
            stop += 2 * np.pi
        arc = np.linspace(start, stop, 60)
        ax.plot(0.3 * np.cos(arc), 0.3 * np.sin(arc), color="0.3", lw=1.0)
        # on a phone the note is wider than the stacked panel: it goes over the panel, under
        # the panel's heading ("Left", "Right"), instead of over the circle's lower ticks
        ax.text(
            0.5,
            1.02 if phone() else 0.02,
            f"m = {m}, n = {n}: angle $\\varphi_k - \\varphi_q + (n-m)\\theta$",
            transform=ax.transAxes,
            ha="center",
            va="bottom",
            fontsize=9,
        )
        heading_over_label(ax)
        ax.set_aspect("equal")
        ax.set_xlim(-1.3, 1.3)
        ax.set_ylim(-1.3, 1.3)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_xlabel("first coordinate of the pair")
    axes[0].set_ylabel("second coordinate")
    fig.tight_layout()
    return fig


@figure("fig-ch12-decay", panels_by_place=True)
def rope_decay():
    x = np.arange(MAX_DISTANCE + 1, dtype=float)
    curve = rope_bound(x, D, BASE)
    xs = np.linspace(0.25, MAX_DISTANCE, 1024)
    limit = rope_bound_continuum(xs, D, BASE)
    full = np.abs(rope_partial_sums(x, D, BASE)[:, -1]) / (D // 2)
    real = decay_sum(x, D, BASE)
    whole = rope_partial_integral(xs, 1.0, BASE)

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


# --------------------------------------------------------------------------- interactive

ROPE_BASES = (1.0e2, 1.0e3, 1.0e4, 1.0e5, 1.0e6)
ROPE_DIMS = (32, 64, 128, 256, 512)
ROPE_MAX_DISTANCE = 256


@interactive_figure(
    "fig-ch12-bound-interactive",
    "Interactive line chart of RoFormer's relative upper bound (1/(d/2)) sum_j |S_j(x)| "
    "against the distance x from 0 to 256, with its continuum approximation as a dashed "
    "line. A slider chooses the base b from 100 to 10^6 and a menu the dimension d from 32 "
    "to 512; hovering reads out both values.",
    twin="fig-ch12-decay",
)
def rope_figure():
    import plotly.graph_objects as go

    x = np.arange(ROPE_MAX_DISTANCE + 1, dtype=float)
    xc = np.arange(1, ROPE_MAX_DISTANCE + 1, 2, dtype=float)
    b0, d0 = 1.0e4, 128
    fig = go.Figure()
    for d in ROPE_DIMS:
        fig.add_scatter(
            x=rounded(x),
            y=rounded(rope_bound(x, d, b0)),
            mode="lines",
            name=f"(1/(d/2)) Σⱼ |S<sub>j</sub>(x)|, d = {d}",
            visible=d == d0,
            line={"color": COLORS[0], "width": 2},
            hovertemplate="%{y:.3f}",
        )
    for d in ROPE_DIMS:
        fig.add_scatter(
            x=rounded(xc),
            y=rounded(rope_bound_continuum(xc, d, b0)),
            mode="lines",
            name="continuum",
            visible=d == d0,
            line={"color": "#444", "width": 1.2, "dash": "dash"},
            hovertemplate="%{y:.3f}",
        )
    sliders, menus = slider_and_menu(
        range(len(fig.data)),
        lambda b: (
            [rope_bound(x, d, b) for d in ROPE_DIMS]
            + [rope_bound_continuum(xc, d, b) for d in ROPE_DIMS]
        ),
        ROPE_BASES,
        power_label,
        "base b = ",
        b0,
        lambda m: [d == m for d in ROPE_DIMS] * 2,
        ROPE_DIMS,
        lambda d: f"d = {d}",
        d0,
    )
    fig.update_layout(
        **base_layout(
            "relative distance x",
            "(1/(d/2)) Σⱼ |S<sub>j</sub>(x)|",
            sliders=sliders,
            updatemenus=menus,
        )
    )
    fig.update_xaxes(range=[0, ROPE_MAX_DISTANCE])
    fig.update_yaxes(rangemode="tozero", autorange=True)
    return fig


# --------------------------------------------------------------------------- Jupyter explorer


def explore_rope():
    """Live explorer of chapter 12: RoFormer's bound curve for any base, dimension and range."""
    import ipywidgets
    import matplotlib.pyplot as plt

    def draw(b, d, x_max):
        x = np.arange(int(x_max) + 1, dtype=float)
        fig, ax = plt.subplots(figsize=(8, 3.6))
        ax.plot(x, rope_bound(x, d, b), color="C0", lw=1.5, label=f"d = {d}")
        xc = np.linspace(0.5, x_max, 400)
        ax.plot(
            xc,
            rope_bound_continuum(xc, d, b),
            color="0.3",
            lw=1,
            ls="--",
            label="continuum",
        )
        ax.set_xlim(0, x_max)
        ax.set_ylim(0, None)
        ax.set_xlabel("relative distance $x$")
        ax.set_ylabel("$\\frac{1}{d/2}\\sum_j |S_j(x)|$")
        ax.legend(loc="upper right")
        fig.tight_layout()
        return fig

    return explorer(
        draw,
        b=log_slider(1e4, 1, 7, "base b"),
        d=dimension_slider(128, 8, 1024),
        x_max=ipywidgets.IntSlider(
            value=256,
            min=16,
            max=4096,
            step=16,
            description="max x",
            continuous_update=False,
        ),
    )
