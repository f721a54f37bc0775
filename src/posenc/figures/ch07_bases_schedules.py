"""Figures of chapter 7, bases and frequency schedules."""

import matplotlib.pyplot as plt
import numpy as np

from .. import (
    ci_first_zero,
    critical_exponent,
    decay_first_zero,
    decay_integral,
    decay_sum,
    first_trough,
    power_integral,
    power_integral_jacobi,
    power_sum,
    sinusoidal,
)
from . import figure, interactive_figure
from ._plotly import (
    COLORS,
    HEIGHT,
    MARGIN_TOP,
    base_layout,
    power_label,
    rounded,
    slider_and_menu,
    zero_line,
)
from ._style import BASE_COLORS, GREY, legend_place, mix_white, phone
from ._widgets import dimension_slider, explorer, log_slider

BASES = (10.0, 100.0, 1000.0, 1.0e4, 1.0e6)
BASE_LABELS = (
    "$10^{-\\nu}$",
    "$100^{-\\nu}$",
    "$1000^{-\\nu}$",
    "$(10^4)^{-\\nu}$",
    "$(10^6)^{-\\nu}$",
)
POWERS = (0.5, 1.0, 2.0)
POWER_LABELS = ("$\\nu^{1/2}$", "$\\nu$", "$\\nu^{2}$")
D_SUM = 128  # the dimension of the finite sums drawn beside the integrals


def _draw_integrals(left, right, x):
    for base, label in zip(BASES, BASE_LABELS, strict=False):
        left.plot(
            x, decay_integral(x, base), color=BASE_COLORS[base], lw=1.5, label=label
        )
    for k, (alpha, label) in enumerate(zip(POWERS, POWER_LABELS, strict=False)):
        right.plot(x, power_integral(x, alpha), color=f"C{k + 1}", lw=1.5, label=label)
    right.plot(
        x,
        decay_integral(x, 1.0e4),
        color=BASE_COLORS[1.0e4],
        lw=1.2,
        ls="--",
        label="$(10^4)^{-\\nu}$",
    )


def _draw_sums(left, right, x, lw, ls, pale=0.0, **style):
    """The finite sums; ``pale`` mixes their colours with white (opaque, unlike alpha, so a
    rasterised layer keeps few distinct colours and compresses well)."""

    def colour(c):
        return mix_white(c, pale)

    for base in BASES:
        left.plot(
            x,
            decay_sum(x, D_SUM, base),
            color=colour(BASE_COLORS[base]),
            lw=lw,
            ls=ls,
            **style,
        )
    for k, alpha in enumerate(POWERS):
        right.plot(
            x,
            power_sum(x, D_SUM, alpha),
            color=colour(f"C{k + 1}"),
            lw=lw,
            ls=ls,
            **style,
        )


@figure("fig-ch07-short-range", panels_by_place=True)
def schedules_short():
    x = np.linspace(0, 50, 1001)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.6), sharey=True)
    _draw_integrals(left, right, x)
    _draw_sums(left, right, x, lw=0.8, ls=":")
    for ax in (left, right):
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xlabel("relative distance x")
        ax.legend(**legend_place(headed=True, loc="lower right"), ncol=2, fontsize=9)
    left.set_ylabel("$\\int_0^1 \\cos(x\\theta(\\nu))\\,d\\nu$")
    fig.tight_layout()
    return fig


@figure("fig-ch07-long-range")
def schedules_long():
    x = np.linspace(0, 2000, 8001)
    fig, axes = plt.subplots(2, 2, figsize=(8, 5.2), sharex=True, sharey=True)
    _draw_integrals(axes[0, 0], axes[0, 1], x)
    # The sums oscillate thousands of times over this range: drawn pale and rasterised (a
    # fixed dpi, so the files stay reproducible), under their integrals as thin dark lines, so
    # the eye sees how far each sum strays from its limit instead of a wall of strokes.
    _draw_sums(
        axes[1, 0],
        axes[1, 1],
        x,
        lw=0.6,
        ls="-",
        pale=0.55,
        rasterized=True,
        antialiased=False,
    )
    for base in BASES:
        axes[1, 0].plot(x, decay_integral(x, base), color=BASE_COLORS[base], lw=1.3)
    for k, alpha in enumerate(POWERS):
        axes[1, 1].plot(x, power_integral(x, alpha), color=f"C{k + 1}", lw=1.3)
    axes[1, 1].text(
        0.98,
        0.96,
        "pale: sum; line: integral",
        transform=axes[1, 1].transAxes,
        ha="right",
        va="top",
        fontsize=9,
        color=GREY,
    )
    for ax in axes.flat:
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_ylim(-0.35, 1.02)
    for ax in axes[1]:
        ax.set_xlabel("relative distance x")
    axes[0, 0].set_ylabel("integral")
    axes[1, 0].set_ylabel(f"finite sum, d = {D_SUM}")
    axes[0, 0].legend(**legend_place(loc="upper right"), ncol=2, fontsize=9)
    axes[0, 1].legend(**legend_place(loc="upper right"), ncol=2, fontsize=9)
    for ax in axes.flat:
        for line in ax.get_lines()[:-1]:  # the data; the zero line stays a vector
            line.set_rasterized(True)
    fig.tight_layout()
    return fig


@figure("fig-ch07-crossings", panels_by_place=True)
def schedules_crossings():
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    bases = np.logspace(0.5, 8, 31)
    ratio = [decay_first_zero(b) / b for b in bases]
    z0 = ci_first_zero()
    left.semilogx(bases, ratio, "o-", color="C0", ms=3, lw=1.2)
    left.axhline(z0, color="C3", lw=1, ls="--")
    left.text(2e4, z0 - 0.03, f"zero of Ci, {z0:.4f}", color="C3", va="top")
    left.set_xlabel("base b")
    left.set_ylabel("first zero / b")
    alphas = np.linspace(0.3, 2.0, 35)
    troughs = [first_trough(a)[1] for a in alphas]
    alpha_c = critical_exponent()
    right.plot(alphas, troughs, color="C1", lw=1.5)
    right.axhline(0, color="0.3", lw=0.8)
    right.axvline(alpha_c, color="C3", lw=1, ls="--")
    right.text(alpha_c + 0.04, -0.5, f"$\\alpha_c \\approx$ {alpha_c:.3f}", color="C3")
    right.set_xlabel("exponent $\\alpha$ of $\\theta(\\nu) = \\nu^\\alpha$")
    right.set_ylabel("value at the first trough")
    fig.tight_layout()
    return fig


@figure("fig-ch07-seed-bases")
def schedules_seed_bases():
    d, column = 100, 10
    positions = np.arange(101.0)
    bases = (10.0, 100.0, 1.0e4, 1.0e8)
    labels = ("b = 10", "b = 100", "b = $10^4$", "b = $10^8$")
    fig, axes = plt.subplots(2, 2, figsize=(8, 3.8), sharex=True, sharey=True)
    for ax, base, label in zip(axes.flat, bases, labels, strict=False):
        values = sinusoidal(positions, d, base=base)[:, column]
        ax.plot(positions, values, color="C0", lw=1.2, marker=".", ms=3)
        wavelength = 2 * np.pi * base ** (column / d)
        ax.text(
            0.01,
            0.98,
            f"{label}, wavelength {wavelength:.1f}",
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize=9,
        )
        ax.set_ylim(-1.15, 1.75)
        ax.set_yticks([-1, 0, 1])
    for ax in axes[1]:
        ax.set_xlabel("position m")
    if phone():  # one label for both rows: two would run into each other
        axes[0, 0].set_ylabel("PE(m)$_{10}$")
        axes[0, 0].yaxis.set_label_coords(-0.2, -0.1)
    else:
        for ax in axes[:, 0]:
            ax.set_ylabel("PE(m)$_{10}$")
    fig.tight_layout()
    return fig


@figure("fig-ch07-distance")
def schedules_distance():
    d = 512
    k = np.unique(np.round(np.logspace(0, np.log10(32767), 3000)))
    fig, ax = plt.subplots(figsize=(8, 3.4))
    for base, label in zip(
        BASES, ("10", "100", "1000", "$10^4$", "$10^6$"), strict=False
    ):
        color = BASE_COLORS[base]
        dist = np.sqrt(np.maximum(1 - decay_sum(k, d, base), 0))
        ax.semilogx(k, dist, color=color, lw=1.2, label=label)
        ax.plot(1, dist[0], "o", color=color, ms=4)
    ax.axhline(1, color="0.3", lw=0.8, ls=":")
    ax.set_xlabel("distance x = |m − n|")
    ax.set_ylabel("$\\|PE(m) - PE(n)\\| / \\sqrt{d}$")
    ax.legend(**legend_place(loc="lower right"), title="base b", ncol=5, fontsize=9)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- interactive

SCHEDULE_BASES = (10.0, 100.0, 1000.0, 1.0e4, 1.0e6)
SCHEDULE_ALPHAS = tuple(round(a, 2) for a in np.arange(0.3, 2.01, 0.1))
SCHEDULE_DIMS = (32, 128, 512)
SCHEDULE_X = np.linspace(0, 60, 161)


@interactive_figure(
    "fig-ch07-schedules-interactive",
    "Interactive line chart of the continuum inner product J(x) of frequency schedules "
    "against the distance x from 0 to 60: the exponential schedules b^(-nu) for b = 10, 100, "
    "1000, 10^4 and 10^6 and the linear schedule nu as fixed curves, and the power schedule "
    "nu^alpha with its finite sum, where a slider sets alpha from 0.3 to 2 and a menu the "
    "dimension d of the sum. Legend entries hide or show curves; hovering reads out the "
    "values.",
    twin="fig-ch07-short-range",
)
def schedules_figure():
    import plotly.graph_objects as go

    x = SCHEDULE_X
    fig = go.Figure()
    # a ramp of blues whose palest member still reads on white (the caption calls them blue)
    blues = ("#7fb8e0", "#4a9bd1", "#1f78b4", "#0a5a96", "#08306b")
    for base, colour in zip(SCHEDULE_BASES, blues, strict=False):
        fig.add_scatter(
            x=rounded(x),
            y=rounded(decay_integral(x, base)),
            mode="lines",
            name=f"b<sup>−ν</sup>, {power_label(base)}",
            line={"color": colour, "width": 1.5},
            hovertemplate="%{y:.4f}",
        )
    fig.add_scatter(
        x=rounded(x),
        y=rounded(power_integral(x, 1.0)),
        mode="lines",
        name="ν",
        line={"color": "#555", "width": 1.5, "dash": "dash"},
        hovertemplate="%{y:.4f}",
    )
    fixed = len(fig.data)
    a0, d0 = 2.0, 128
    fig.add_scatter(
        x=rounded(x),
        y=rounded(power_integral(x, a0)),
        mode="lines",
        name="ν<sup>α</sup>",
        line={"color": COLORS[1], "width": 3},
        hovertemplate="%{y:.4f}",
    )
    for d in SCHEDULE_DIMS:
        fig.add_scatter(
            x=rounded(x),
            y=rounded(power_sum(x, d, a0)),
            mode="lines",
            name="ν<sup>α</sup>, sum",
            visible=d == d0,
            line={"color": COLORS[1], "width": 1.5, "dash": "dot"},
            hovertemplate="%{y:.4f}",
        )
    sliders, menus = slider_and_menu(
        range(fixed, len(fig.data)),
        lambda a: [power_integral(x, a)] + [power_sum(x, d, a) for d in SCHEDULE_DIMS],
        SCHEDULE_ALPHAS,
        lambda a: f"{a:g}",
        "exponent α = ",
        a0,
        lambda m: [True] * (fixed + 1) + [d == m for d in SCHEDULE_DIMS],
        SCHEDULE_DIMS,
        lambda d: f"d = {d}",
        d0,
    )
    fig.update_layout(
        **base_layout(
            "relative distance x",
            "J(x) = ∫₀¹ cos(xθ(ν)) dν",
            sliders=sliders,
            updatemenus=menus,
            shapes=[zero_line()],
        )
    )
    fig.update_layout(height=HEIGHT + 20, margin={"t": MARGIN_TOP + 20})
    fig.update_xaxes(range=[0, 60])
    fig.update_yaxes(range=[-0.3, 1.02])
    return fig


# --------------------------------------------------------------------------- Jupyter explorer


def explore_schedules():
    """Live explorer of chapter 7: the power schedule nu^alpha against b^(-nu), with dimension d."""
    import ipywidgets
    import matplotlib.pyplot as plt

    def draw(alpha, b, d, x_max):
        x = np.linspace(0, x_max, 801)
        fig, ax = plt.subplots(figsize=(8, 3.6))
        ax.plot(
            x,
            power_integral_jacobi(x, alpha),
            color="C3",
            lw=2,
            label=f"$\\nu^{{{alpha:g}}}$, integral",
        )
        ax.plot(
            x,
            power_sum(x, d, alpha),
            color="C3",
            lw=1,
            ls=":",
            label=f"$\\nu^{{{alpha:g}}}$, d = {d}",
        )
        ax.plot(
            x,
            decay_integral(x, b),
            color="C0",
            lw=2,
            label=f"$b^{{-\\nu}}$, b = {b:.3g}",
        )
        ax.plot(
            x,
            decay_sum(x, d, b),
            color="C0",
            lw=1,
            ls=":",
            label=f"$b^{{-\\nu}}$, d = {d}",
        )
        ax.axhline(0, color="0.4", lw=0.8)
        ax.set_ylim(-0.4, 1.02)
        ax.set_xlabel("relative distance x")
        ax.set_ylabel("$\\int_0^1 \\cos(x\\theta(\\nu))\\,d\\nu$")
        ax.legend(loc="upper right", ncol=2, frameon=False, fontsize=9)
        fig.tight_layout()
        return fig

    return explorer(
        draw,
        alpha=ipywidgets.FloatSlider(
            value=1.0,
            min=0.2,
            max=3.0,
            step=0.05,
            description="α",
            continuous_update=False,
        ),
        b=log_slider(1e4, 1, 7, "base b"),
        d=dimension_slider(128, 8, 1024),
        x_max=ipywidgets.FloatLogSlider(
            value=60,
            base=10,
            min=1,
            max=4,
            step=0.1,
            description="max x",
            continuous_update=False,
        ),
    )
