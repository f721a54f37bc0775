"""Figures of chapter 5, from sum to integral: the decay integral and its regimes."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import sici

from .. import decay_first_zero, decay_integral, decay_sum
from . import figure, interactive_figure
from ._plotly import COLORS, base_layout, power_label, rounded, slider_and_menu, zero_line
from ._widgets import dimension_slider, explorer, log_slider

BASE = 1.0e4


@figure("fig-ch05-su-range")
def decay_su_range():
    x = np.linspace(-128, 128, 2049)
    k = np.arange(-128, 129, dtype=float)
    fig, ax = plt.subplots(figsize=(8, 3.4))
    ax.plot(x, decay_integral(x, BASE), color="C0", lw=2.0,
            label="integral $\\int_0^1 \\cos(x\\, b^{-t})\\, dt$")
    ax.plot(k, decay_sum(k, 128, BASE), "o", color="C3", ms=2.2,
            label="sum $(2/d)\\sum_i \\cos(x\\theta_i)$, $d = 128$, integer $x$")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(-128, 128)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xticks(np.arange(-128, 129, 32))
    ax.set_xlabel("relative distance x = m − n")
    ax.set_ylabel("normalised inner product")
    ax.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch05-log-range")
def decay_log_range():
    x = np.logspace(-2, 7, 6000)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for colour, base in zip(["C0", "C1", "C2", "C3"], [1e2, 1e3, 1e4, 1e5]):
        exponent = int(round(np.log10(base)))
        ax.semilogx(x, decay_integral(x, base), color=colour, lw=1.5,
                    label=f"$b = 10^{exponent}$")
        x0 = decay_first_zero(base)
        ax.plot([x0], [0.0], "o", color=colour, ms=5, mec="white", mew=0.8)
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(1e-2, 1e7)
    ax.set_ylim(-0.15, 1.05)
    ax.set_xlabel("relative distance x (log scale)")
    ax.set_ylabel("$I_b(x)$")
    ax.legend(loc="lower left", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-ch05-regimes")
def decay_regimes():
    log_b = np.log(BASE)
    fig, axes = plt.subplots(1, 3, figsize=(8.4, 3.4))

    ax = axes[0]
    x = np.linspace(0, 4, 400)
    ax.plot(x, decay_integral(x, BASE), color="0.15", lw=2.2, label="$I_b(x)$")
    ax.plot(x, 1 - x ** 2 * (1 - BASE ** -2) / (4 * log_b), color="C1", lw=1.6, ls="--",
            label="$1 - x^2(1-b^{-2})/(4\\ln b)$")
    ax.set_ylim(0.5, 1.02)
    ax.set_xlabel("x  (small x)")
    ax.set_ylabel("$I_b(x)$, $b = 10^4$")
    ax.legend(loc="lower left", frameon=False, fontsize=9)

    ax = axes[1]
    x = np.logspace(0, np.log10(3e3), 3000)
    ax.semilogx(x, decay_integral(x, BASE), color="0.15", lw=2.2)
    ax.semilogx(x, 1 - (np.euler_gamma + np.log(x)) / log_b + np.sin(x) / (x * log_b),
                color="C2", lw=1.4, ls="--",
                label="$1 - \\frac{\\gamma + \\ln x}{\\ln b} + \\frac{\\sin x}{x \\ln b}$")
    ax.set_xlabel("x  ($1 \\ll x \\ll b$)")
    ax.legend(loc="lower left", frameon=False, fontsize=9)

    ax = axes[2]
    z = np.logspace(np.log10(0.3), np.log10(30), 2000)
    x = z * BASE
    ax.semilogx(z, decay_integral(x, BASE), color="0.15", lw=2.2)
    ax.semilogx(z, (np.sin(x) - BASE * np.sin(z)) / (x * log_b), color="C3", lw=1.4, ls="--",
                label="$\\frac{\\sin x - b \\sin(x/b)}{x \\ln b}$")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.axhline(-sici(np.pi / 2)[1] / log_b, color="0.5", lw=0.8, ls=":")
    ax.set_xlabel("x / b  ($x \\gg b$)")
    ax.set_ylim(-0.1, 0.1)
    ax.legend(loc="upper right", frameon=False, fontsize=9)
    fig.tight_layout()
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
    fig.add_scatter(x=rounded(x), y=rounded(decay_integral(x, b0)), mode="lines",
                    name="integral I<sub>b</sub>(x)", line={"color": COLORS[0], "width": 2.5},
                    hovertemplate="%{y:.4f}")
    for d in DECAY_DIMS:
        fig.add_scatter(x=rounded(x), y=rounded(decay_sum(x, d, b0)), mode="markers",
                        name=f"sum (2/d) Σᵢ cos(xθᵢ), d = {d}", visible=d == d0,
                        marker={"color": COLORS[1], "size": 4}, hovertemplate="%{y:.4f}")
    sliders, menus = slider_and_menu(
        range(len(fig.data)),
        lambda b: [decay_integral(x, b)] + [decay_sum(x, d, b) for d in DECAY_DIMS],
        DECAY_BASES, power_label, "base b = ", b0,
        lambda m: [True] + [d == m for d in DECAY_DIMS], DECAY_DIMS, lambda d: f"d = {d}", d0)
    fig.update_layout(**base_layout(
        "distance x (log scale)", "normalised inner product",
        sliders=sliders, updatemenus=menus, shapes=[zero_line()]))
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
        ax.semilogx(x, decay_integral(x, b), color="C0", lw=2, label="integral $I_b(x)$")
        ax.semilogx(x, decay_sum(x, d, b), ".", color="C3", ms=3,
                    label=f"sum $(2/d)\\sum_i\\cos(x\\theta_i)$, $d = {d}$")
        ax.axhline(0, color="0.4", lw=0.8)
        ax.set_ylim(-0.4, 1.05)
        ax.set_xlabel("relative distance x (log scale)")
        ax.set_ylabel("normalised inner product")
        ax.legend(loc="upper right", frameon=False)
        fig.tight_layout()
        return fig

    import ipywidgets
    return explorer(draw, b=log_slider(1e4, 1, 7, "base b"), d=dimension_slider(128, 8, 2048),
                     x_max=ipywidgets.FloatLogSlider(value=1e5, base=10, min=1, max=7, step=0.25,
                                                     description="max x",
                                                     continuous_update=False))
