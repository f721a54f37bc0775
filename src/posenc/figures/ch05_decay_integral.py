"""Figures of chapter 5, from sum to integral: phasors, the decay integral and its regimes."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import sici

from .. import decay_first_zero, decay_integral, decay_sum, frequencies
from . import figure, interactive_figure
from ._plotly import (
    COLORS,
    MENU_BELOW,
    SLIDER_BELOW,
    base_layout,
    power_label,
    rounded,
    slider_and_menu,
    zero_line,
)
from ._style import legend_place, phone
from ._widgets import dimension_slider, explorer, log_slider

BASE = 1.0e4


@figure("fig-ch05-su-range")
def decay_su_range():
    x = np.linspace(-128, 128, 2049)
    k = np.arange(-128, 129, dtype=float)
    # on a phone, room above the plot for the legend
    fig, ax = plt.subplots(figsize=(8, 4.6 if phone() else 3.4))
    ax.plot(
        x,
        decay_integral(x, BASE),
        color="C0",
        lw=2.0,
        label="integral $\\int_0^1 \\cos(x\\, b^{-\\nu})\\, d\\nu$",
    )
    ax.plot(
        k,
        decay_sum(k, 128, BASE),
        "o",
        color="C3",
        ms=2.2,
        label="sum $(2/d)\\sum_i \\cos(x\\theta_i)$, $d = 128$, integer $x$",
    )
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(-128, 128)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xticks(np.arange(-128, 129, 32))
    ax.set_xlabel("relative distance x = m − n")
    ax.set_ylabel("normalised inner product")
    ax.legend(**legend_place(loc="upper left"), frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch05-log-range")
def decay_log_range():
    x = np.logspace(-2, 7, 6000)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for colour, base in zip(
        ["C0", "C1", "C2", "C3"], [1e2, 1e3, 1e4, 1e5], strict=False
    ):
        exponent = int(round(np.log10(base)))
        ax.semilogx(
            x,
            decay_integral(x, base),
            color=colour,
            lw=1.5,
            label=f"$b = 10^{exponent}$",
        )
        x0 = decay_first_zero(base)
        ax.plot([x0], [0.0], "o", color=colour, ms=5, mec="white", mew=0.8)
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(1e-2, 1e7)
    ax.set_ylim(-0.15, 1.05)
    ax.set_xlabel("relative distance x (log scale)")
    ax.set_ylabel("$I_b(x)$")
    ax.legend(loc="upper right" if phone() else "lower left", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch05-regimes")
def decay_regimes():
    log_b = np.log(BASE)
    fig, axes = plt.subplots(1, 3, figsize=(8.4, 4.1))
    exact = {"color": "0.1", "lw": 2.2}
    approx = {"lw": 1.6, "ls": (0, (4, 2))}

    ax = axes[0]
    x = np.linspace(0, 4, 400)
    ax.plot(x, decay_integral(x, BASE), **exact, label="$I_b(x)$, $b = 10^4$")
    ax.plot(
        x,
        1 - x**2 * (1 - BASE**-2) / (4 * log_b),
        color="C1",
        **approx,
        label=r"small $x$: $1 - x^2(1-b^{-2})\,/\,(4\ln b)$",
    )
    ax.set_ylim(0.5, 1.02)
    ax.set_xlabel("$x$  (small $x$)")
    ax.set_ylabel("$I_b(x)$, $b = 10^4$")

    ax = axes[1]
    x = np.logspace(0, np.log10(3e3), 3000)
    ax.semilogx(x, decay_integral(x, BASE), **exact)
    ax.semilogx(
        x,
        1 - (np.euler_gamma + np.log(x)) / log_b + np.sin(x) / (x * log_b),
        color="C0",
        **approx,
        label=r"$1 \ll x \ll b$: $1 - (\gamma + \ln x)\,/\,\ln b"
        r" + \sin x\,/\,(x \ln b)$",
    )
    ax.set_xlabel(r"$x$  ($1 \ll x \ll b$)")

    ax = axes[2]
    z = np.logspace(np.log10(0.3), np.log10(30), 2000)
    x = z * BASE
    ax.semilogx(z, decay_integral(x, BASE), **exact)
    ax.semilogx(
        z,
        (np.sin(x) - BASE * np.sin(z)) / (x * log_b),
        color="C3",
        **approx,
        label=r"$x \gg b$: $(\sin x - b \sin(x/b))\,/\,(x \ln b)$",
    )
    ax.axhline(0, color="0.4", lw=0.8)
    ax.axhline(
        -sici(np.pi / 2)[1] / log_b,
        color="0.3",
        lw=1.0,
        ls=":",
        label=r"$-\mathrm{Ci}(\pi/2)\,/\,\ln b$",
    )
    ax.set_xlabel(r"$x / b$  ($x \gg b$)")
    ax.set_ylim(-0.1, 0.1)
    # One legend under the three panels, at the size of the axis labels: the formulas are
    # the point of the figure and were unreadable inside the narrow panels.
    handles = [h for a in axes for h in a.get_legend_handles_labels()[0]]
    labels = [t for a in axes for t in a.get_legend_handles_labels()[1]]
    fig.legend(
        handles,
        labels,
        loc="lower center",
        ncol=1 if phone() else 2,
        frameon=False,
        fontsize=10,
        handlelength=2.6,
        columnspacing=1.5,
    )
    fig.tight_layout(rect=(0, 0.12 if phone() else 0.2, 1, 1))
    return fig


# --------------------------------------------------------------------------- phasors

PHASOR_D = 128
PHASOR_DISTANCES = (1.0, 10.0, 100.0, 1000.0)


def phasors(x: float, d: int = PHASOR_D, base: float = BASE):
    """The d/2 unit phasors e^{i x theta_i}, a mask of the slow ones (x theta_i <= 1), and
    their mean, whose real part is the normalised inner product (2/d) sum_i cos(x theta_i)."""
    phase = x * frequencies(d, base)
    arrows = np.exp(1j * phase)
    return arrows, phase <= 1.0, arrows.mean()


@figure("fig-ch05-phasors")
def decay_phasors():
    fig, axes = plt.subplots(1, 4, figsize=(8.8, 2.6))
    circle = np.exp(1j * np.linspace(0, 2 * np.pi, 200))
    for ax, x in zip(axes, PHASOR_DISTANCES, strict=False):
        arrows, slow, mean = phasors(x)
        ax.plot(circle.real, circle.imag, color="0.8", lw=0.8)
        for z, is_slow in zip(arrows, slow, strict=False):
            ax.plot(
                [0, z.real],
                [0, z.imag],
                lw=0.9,
                color="C0" if is_slow else "0.55",
                alpha=0.9 if is_slow else 0.6,
            )
        ax.annotate(
            "",
            xy=(mean.real, mean.imag),
            xytext=(0, 0),
            arrowprops={"arrowstyle": "-|>", "color": "C3", "lw": 2.2},
        )
        ax.text(-1.05, 1.02, f"x = {x:,.0f}", fontsize=10, va="bottom")
        ax.set_xlim(-1.12, 1.12)
        ax.set_ylim(-1.12, 1.25)
        ax.set_aspect("equal")
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.grid(False)
    axes[0].set_ylabel("imaginary part")
    for ax in axes:
        ax.set_xlabel("real part")
    fig.tight_layout()
    return fig


PHASOR_SLIDER = tuple(10 ** (k / 5) for k in range(21))  # x from 1 to 10^4
PHASOR_DIMS = (32, 64, 128)


def _spokes(points) -> tuple[list, list]:
    """Segments from the origin to each point, as one line trace (None between segments)."""
    xs, ys = [], []
    for z in points:
        xs += [0.0, z.real, None]
        ys += [0.0, z.imag, None]
    return xs, ys


def _phasor_traces(x: float) -> list[tuple[list, list]]:
    """(xs, ys) of the three traces of every dimension: slow arrows, fast arrows, mean."""
    traces = []
    for d in PHASOR_DIMS:
        arrows, slow, mean = phasors(x, d)
        traces += [
            _spokes(arrows[slow]),
            _spokes(arrows[~slow]),
            ([0.0, mean.real], [0.0, mean.imag]),
        ]
    return traces


def _rounded_coordinates(values: list) -> list:
    return [None if v is None else rounded([v])[0] for v in values]


@interactive_figure(
    "fig-ch05-phasors-interactive",
    "Interactive phasor diagram: the d/2 unit arrows at angles x times theta_i drawn from the "
    "origin inside the unit circle, slow ones (x theta_i at most 1) in blue and fast ones in "
    "grey, and their mean as a thick red arrow. A slider chooses the distance x from 1 to "
    "10^4 and a menu the dimension d (32, 64 or 128), with base 10^4; hovering the red "
    "arrow's tip reads out the mean.",
    twin="fig-ch05-phasors",
)
def phasor_figure():
    import plotly.graph_objects as go

    x0, d0 = 10.0, PHASOR_D
    fig = go.Figure()
    circle = np.exp(1j * np.linspace(0, 2 * np.pi, 121))
    fig.add_scatter(
        x=rounded(circle.real),
        y=rounded(circle.imag),
        mode="lines",
        line={"color": "#bbbbbb", "width": 1},
        hoverinfo="skip",
        showlegend=False,
    )
    names = ("slow pairs, xθᵢ ≤ 1", "fast pairs, xθᵢ > 1", "mean of the arrows")
    styles = (
        {"color": COLORS[0], "width": 1.5},
        {"color": "#999999", "width": 1},
        {"color": COLORS[1], "width": 5},
    )
    for d in PHASOR_DIMS:
        for (xs, ys), name, style in zip(
            _phasor_traces(x0)[3 * PHASOR_DIMS.index(d) :][:3],
            names,
            styles,
            strict=False,
        ):
            mean = name.startswith("mean")
            fig.add_scatter(
                x=_rounded_coordinates(xs),
                y=_rounded_coordinates(ys),
                mode="lines+markers" if mean else "lines",
                name=name,
                visible=d == d0,
                line=style,
                legendgroup=name,
                marker={"size": [0, 10]} if mean else None,
                hovertemplate="mean: %{x:.3f} + %{y:.3f} i<extra></extra>"
                if mean
                else None,
                hoverinfo=None if mean else "skip",
            )
    traces = list(range(1, len(fig.data)))
    slider = {
        "active": PHASOR_SLIDER.index(x0),
        "currentvalue": {"prefix": "distance x = "},
        "x": 0.0,
        "len": 1.0,
        "y": 0.0,
        "yanchor": "top",
        "pad": {"t": SLIDER_BELOW, "l": 0},
        "steps": [
            {
                "method": "restyle",
                "label": f"{x:,.0f}" if x >= 10 else f"{x:.2g}",
                "args": [
                    {
                        "x": [_rounded_coordinates(t[0]) for t in _phasor_traces(x)],
                        "y": [_rounded_coordinates(t[1]) for t in _phasor_traces(x)],
                    },
                    traces,
                ],
            }
            for x in PHASOR_SLIDER
        ],
    }
    menu = {
        "type": "dropdown",
        "direction": "up",
        "active": PHASOR_DIMS.index(d0),
        "x": 0.0,
        "xanchor": "left",
        "y": 0.0,
        "yanchor": "top",
        "pad": {"t": MENU_BELOW, "r": 10},
        "buttons": [
            {
                "method": "restyle",
                "label": f"d = {d}",
                "args": [
                    {
                        "visible": [True]
                        + [m == d for m in PHASOR_DIMS for _ in range(3)]
                    }
                ],
            }
            for d in PHASOR_DIMS
        ],
    }
    fig.update_layout(
        **base_layout(
            "real part",
            "imaginary part",
            sliders=[slider],
            updatemenus=[menu],
            hovermode="closest",
        )
    )
    fig.update_xaxes(range=[-1.15, 1.15])
    fig.update_yaxes(range=[-1.15, 1.15], scaleanchor="x", scaleratio=1)
    return fig


# --------------------------------------------------------------------------- interactive

DECAY_BASES = (1.0e2, 1.0e3, 1.0e4, 1.0e5, 1.0e6)
DECAY_DIMS = (32, 64, 128, 256, 512)


def decay_distances() -> np.ndarray:
    """Integer distances 1 .. 10^5, about evenly spaced on a log axis."""
    return np.unique(np.round(np.logspace(0, 5, 330)))


@interactive_figure(
    "fig-ch05-decay-interactive",
    "Interactive line chart of the decay integral I_b(x) and the normalised finite sum "
    "(2/d) sum_i cos(x theta_i) against the distance x on a logarithmic axis from 1 to "
    "100000. A slider chooses the base b from 100 to 10^6 and a menu the dimension d from "
    "32 to 512; hovering reads out both values.",
    twin="fig-ch05-log-range",
)
def decay_figure():
    import plotly.graph_objects as go

    x = decay_distances()
    b0, d0 = 1.0e4, 128
    fig = go.Figure()
    fig.add_scatter(
        x=rounded(x),
        y=rounded(decay_integral(x, b0)),
        mode="lines",
        name="integral I<sub>b</sub>(x)",
        line={"color": COLORS[0], "width": 2.5},
        hovertemplate="%{y:.4f}",
    )
    for d in DECAY_DIMS:
        fig.add_scatter(
            x=rounded(x),
            y=rounded(decay_sum(x, d, b0)),
            mode="markers",
            name=f"sum (2/d) Σᵢ cos(xθᵢ), d = {d}",
            visible=d == d0,
            marker={"color": COLORS[1], "size": 4},
            hovertemplate="%{y:.4f}",
        )
    sliders, menus = slider_and_menu(
        range(len(fig.data)),
        lambda b: [decay_integral(x, b)] + [decay_sum(x, d, b) for d in DECAY_DIMS],
        DECAY_BASES,
        power_label,
        "base b = ",
        b0,
        lambda m: [True] + [d == m for d in DECAY_DIMS],
        DECAY_DIMS,
        lambda d: f"d = {d}",
        d0,
    )
    fig.update_layout(
        **base_layout(
            "distance x (log scale)",
            "normalised inner product",
            sliders=sliders,
            updatemenus=menus,
            shapes=[zero_line()],
        )
    )
    fig.update_xaxes(type="log", range=[0, 5])
    fig.update_yaxes(range=[-0.35, 1.05])
    return fig


# --------------------------------------------------------------------------- Jupyter explorer


def explore_decay():
    """Live explorer of chapter 5: base b, dimension d and the largest distance shown."""
    import matplotlib.pyplot as plt

    def draw(b, d, x_max):
        x = np.unique(np.round(np.logspace(0, np.log10(x_max), 600)))
        fig, ax = plt.subplots(figsize=(8, 3.6))
        ax.semilogx(
            x, decay_integral(x, b), color="C0", lw=2, label="integral $I_b(x)$"
        )
        ax.semilogx(
            x,
            decay_sum(x, d, b),
            ".",
            color="C3",
            ms=3,
            label=f"sum $(2/d)\\sum_i\\cos(x\\theta_i)$, $d = {d}$",
        )
        ax.axhline(0, color="0.4", lw=0.8)
        ax.set_ylim(-0.4, 1.05)
        ax.set_xlabel("relative distance x (log scale)")
        ax.set_ylabel("normalised inner product")
        ax.legend(loc="upper right", frameon=False)
        fig.tight_layout()
        return fig

    import ipywidgets

    return explorer(
        draw,
        b=log_slider(1e4, 1, 7, "base b"),
        d=dimension_slider(128, 8, 2048),
        x_max=ipywidgets.FloatLogSlider(
            value=1e5,
            base=10,
            min=1,
            max=7,
            step=0.25,
            description="max x",
            continuous_update=False,
        ),
    )
