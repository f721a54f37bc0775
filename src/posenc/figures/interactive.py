"""Interactive twins of key figures: Plotly on the website, ipywidgets explorers in Jupyter.

Each interactive figure is defined once here, by a builder that returns a
:class:`plotly.graph_objects.Figure` whose slider steps and menu items carry precomputed data
(the website runs no kernel). A chapter shows it with ``show_interactive(name)``: the output is a
``<div>`` with the marker class :data:`MARKER` and an inline script calling ``Plotly.newPlot``;
the build extension (tools/book_ext.py) serves Plotly's basic bundle from the site and loads it on
the pages that carry the marker only. In JupyterLab the same output also carries Plotly's own
mime type, which the jupyterlab-plotly renderer (shipped with the ``plotly`` package) draws.

The static matplotlib figures of the chapters stay the reference (``make figures`` writes them);
these reuse their computations (``schedules.power_integral_jacobi``, ``rope.bound_curve``, ...).

The ``explore_*`` functions are live explorers for a running kernel (``make lab``): ipywidgets
sliders that recompute with the library and redraw with matplotlib.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Sequence

import numpy as np

from .. import decay_integral, decay_sum
from . import STYLE
from .rope import bound_curve, continuum_bound
from .schedules import power_integral, power_integral_jacobi, power_sum

MARKER = "posenc-plotly"  # class of the div; tools/book_ext.py looks for it in a page's body
# Set to "1" by the book build (tools/book_ext.py), whose kernels inherit it: the website uses the
# HTML, and MyST-NB would warn about Plotly's mime type, which it does not know.
HTML_ONLY_VARIABLE = "POSENC_HTML_ONLY"
PLOTLY_MIME = "application/vnd.plotly.v1+json"
SIGNIFICANT = 4  # digits kept in the JSON: plenty for a plot, and it keeps pages light
# Vertical layout in pixels. The controls sit under the plot, one below the other, each placed
# a fixed number of pixels below the plot area (paper y = 0 plus a pad): side by side they
# collided with each other and with the axis title on a 390 px phone, and a paper-relative
# position moved whenever a legend that wraps on a narrow screen shrank the plot area.
SLIDER_BELOW = 55  # px from the plot area down to the slider (clears tick labels and x title)
MENU_BELOW = 140  # px down to the menu (clears the slider's label, rail and ticks)
MARGIN_TOP, MARGIN_BOTTOM = 70, 185
HEIGHT = 520
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#7f7f7f")
# No Plotly logo (a link to plotly.com) and no "Share chart" button (an upload to Plotly Cloud):
# this book's pages talk to no other site.
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True, "showLink": False,
                 "showSendToCloud": False, "showEditInChartStudio": False,
                 "modeBarButtonsToRemove": ["select2d", "lasso2d", "sendChartToCloud",
                                            "sendDataToCloud", "editInChartStudio"]}

_BUILDERS: dict[str, Callable] = {}
_DESCRIPTIONS: dict[str, str] = {}


def interactive(name: str, description: str):
    """Register a builder of the interactive figure ``name``; ``description`` becomes the
    aria-label of its element (what the figure shows and how to operate it)."""
    def register(builder):
        _BUILDERS[name] = builder
        _DESCRIPTIONS[name] = description
        return builder
    return register


def names() -> list[str]:
    """Names of all interactive figures, sorted."""
    return sorted(_BUILDERS)


def build(name: str):
    """The Plotly figure called ``name``."""
    if name not in _BUILDERS:
        raise ValueError(f"name must be an interactive figure ({', '.join(names())}), got {name!r}")
    return _BUILDERS[name]()


def rounded(values) -> list[float | None]:
    """``values`` as a list of floats with :data:`SIGNIFICANT` significant digits."""
    return [float(f"{v:.{SIGNIFICANT}g}") if np.isfinite(v) else None
            for v in np.asarray(values, dtype=float).ravel()]


SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _power_label(value: float) -> str:
    """10², 10³, ... for powers of ten from 100 on; the number itself otherwise."""
    exponent = np.log10(value)
    if abs(exponent - round(exponent)) < 1e-9 and value >= 100:
        return "10" + str(int(round(exponent))).translate(SUPERSCRIPTS)
    return f"{value:g}"


def _base_layout(xtitle: str, ytitle: str, **extra) -> dict:
    layout = {
        "height": HEIGHT,
        "margin": {"l": 60, "r": 20, "t": MARGIN_TOP, "b": MARGIN_BOTTOM},
        "font": {"size": 13},
        # an empty template: Plotly's default one would add 6 KB of JSON to every figure
        "template": {"layout": {}},
        "paper_bgcolor": "white", "plot_bgcolor": "white",
        "hovermode": "x unified",
        "xaxis": {"title": {"text": xtitle}, "zeroline": False, "gridcolor": "#e5e5e5",
                  "linecolor": "#444", "ticks": "outside"},
        "yaxis": {"title": {"text": ytitle}, "zeroline": False, "gridcolor": "#e5e5e5",
                  "linecolor": "#444", "ticks": "outside"},
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "xanchor": "left", "yanchor": "bottom"},
    }
    layout.update(extra)
    return layout


def _slider_and_menu(traces: Sequence[int], ys: Callable[[float], list],
                     slider_values: Sequence[float], slider_label: Callable[[float], str],
                     slider_prefix: str, slider_default: float,
                     visible: Callable[[float], list], menu_values: Sequence[float],
                     menu_label: Callable[[float], str], menu_default: float) -> tuple[list, list]:
    """A slider over one parameter and a menu over another, all data precomputed.

    ``ys(s)`` gives the y arrays of ``traces`` for slider value s: the traces for every menu
    value, shown or not, so each slider step restyles them all. The menu only switches which
    traces are visible (``visible(m)``, one flag per trace of the figure), so the two controls
    are independent and no data is stored twice.
    """
    slider = {
        "active": list(slider_values).index(slider_default),
        "currentvalue": {"prefix": slider_prefix},
        "x": 0.0, "len": 1.0, "y": 0.0, "yanchor": "top",
        "pad": {"t": SLIDER_BELOW, "l": 0},
        "steps": [{"method": "restyle", "label": slider_label(s),
                   "args": [{"y": [rounded(y) for y in ys(s)]}, list(traces)]}
                  for s in slider_values],
    }
    menu = {
        "type": "dropdown", "direction": "up",
        "active": list(menu_values).index(menu_default),
        "x": 0.0, "xanchor": "left", "y": 0.0, "yanchor": "top",
        "pad": {"t": MENU_BELOW, "r": 10},
        "buttons": [{"method": "restyle", "label": menu_label(m), "args": [{"visible": visible(m)}]}
                    for m in menu_values],
    }
    return [slider], [menu]


# --------------------------------------------------------------------------- chapter 5

DECAY_BASES = (1.0e2, 1.0e3, 1.0e4, 1.0e5, 1.0e6)
DECAY_DIMS = (32, 64, 128, 256, 512)


def decay_distances() -> np.ndarray:
    """Integer distances 1 .. 10^5, about evenly spaced on a log axis."""
    return np.unique(np.round(np.logspace(0, 5, 330)))


def _zero_line() -> dict:
    return {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 0, "y1": 0,
            "line": {"color": "#666", "width": 1}}


@interactive("decay", "Interactive line chart of the decay integral I_b(x) and the normalised "
             "finite sum (2/d) sum_i cos(x theta_i) against the distance x on a logarithmic axis "
             "from 1 to 100000. A slider chooses the base b from 100 to 10^6 and a menu the "
             "dimension d from 32 to 512; hovering reads out both values.")
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
    sliders, menus = _slider_and_menu(
        range(len(fig.data)),
        lambda b: [decay_integral(x, b)] + [decay_sum(x, d, b) for d in DECAY_DIMS],
        DECAY_BASES, _power_label, "base b = ", b0,
        lambda m: [True] + [d == m for d in DECAY_DIMS], DECAY_DIMS, lambda d: f"d = {d}", d0)
    fig.update_layout(**_base_layout(
        "relative distance x = m − n (log scale)", "normalised inner product",
        sliders=sliders, updatemenus=menus, shapes=[_zero_line()]))
    fig.update_xaxes(type="log", range=[0, 5])
    fig.update_yaxes(range=[-0.35, 1.05])
    return fig


# --------------------------------------------------------------------------- chapter 7

SCHEDULE_BASES = (10.0, 100.0, 1000.0, 1.0e4, 1.0e6)
SCHEDULE_ALPHAS = tuple(round(a, 2) for a in np.arange(0.3, 2.01, 0.1))
SCHEDULE_DIMS = (32, 128, 512)
SCHEDULE_X = np.linspace(0, 60, 161)


def schedule_alpha_integral(x, alpha):
    """J(x) for theta_t = t^alpha: the closed forms of chapter 7 at alpha = 1/2, 1, 2,
    Gauss-Jacobi quadrature elsewhere."""
    if alpha in (0.5, 1.0, 2.0):
        return power_integral(x, alpha)
    return power_integral_jacobi(x, alpha)


@interactive("schedules", "Interactive line chart of the continuum inner product J(x) of "
             "frequency schedules against the distance x from 0 to 60: the exponential "
             "schedules b^(-t) for b = 10, 100, 1000, 10^4 and 10^6 and the linear schedule t as "
             "fixed curves, and the power schedule t^alpha with its finite sum, where a slider "
             "sets alpha from 0.3 to 2 and a menu the dimension d of the sum. Legend entries "
             "hide or show curves; hovering reads out the values.")
def schedules_figure():
    import plotly.graph_objects as go

    x = SCHEDULE_X
    fig = go.Figure()
    blues = ("#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c")
    for base, colour in zip(SCHEDULE_BASES, blues):
        fig.add_scatter(x=rounded(x), y=rounded(decay_integral(x, base)), mode="lines",
                        name=f"b<sup>−t</sup>, {_power_label(base)}",
                        line={"color": colour, "width": 1.5}, hovertemplate="%{y:.4f}")
    fig.add_scatter(x=rounded(x), y=rounded(power_integral(x, 1.0)), mode="lines",
                    name="t", line={"color": "#555", "width": 1.5, "dash": "dash"},
                    hovertemplate="%{y:.4f}")
    fixed = len(fig.data)
    a0, d0 = 2.0, 128
    fig.add_scatter(x=rounded(x), y=rounded(schedule_alpha_integral(x, a0)), mode="lines",
                    name="t<sup>α</sup>", line={"color": COLORS[1], "width": 3},
                    hovertemplate="%{y:.4f}")
    for d in SCHEDULE_DIMS:
        fig.add_scatter(x=rounded(x), y=rounded(power_sum(x, d, a0)), mode="lines",
                        name="t<sup>α</sup>, sum", visible=d == d0,
                        line={"color": COLORS[1], "width": 1.5, "dash": "dot"},
                        hovertemplate="%{y:.4f}")
    sliders, menus = _slider_and_menu(
        range(fixed, len(fig.data)),
        lambda a: [schedule_alpha_integral(x, a)] + [power_sum(x, d, a) for d in SCHEDULE_DIMS],
        SCHEDULE_ALPHAS, lambda a: f"{a:g}", "exponent α = ", a0,
        lambda m: [True] * (fixed + 1) + [d == m for d in SCHEDULE_DIMS],
        SCHEDULE_DIMS, lambda d: f"d = {d}", d0)
    fig.update_layout(**_base_layout(
        "relative distance x", "J(x) = ∫₀¹ cos(xθₜ) dt",
        sliders=sliders, updatemenus=menus, shapes=[_zero_line()]))
    fig.update_layout(height=HEIGHT + 20, margin={"t": MARGIN_TOP + 20})
    fig.update_xaxes(range=[0, 60])
    fig.update_yaxes(range=[-0.3, 1.02])
    return fig


# --------------------------------------------------------------------------- chapter 12

ROPE_BASES = (1.0e2, 1.0e3, 1.0e4, 1.0e5, 1.0e6)
ROPE_DIMS = (32, 64, 128, 256, 512)
ROPE_MAX_DISTANCE = 256
@interactive("rope", "Interactive line chart of RoFormer's relative upper bound "
             "(1/(d/2)) sum_j |S_j(x)| against the distance x from 0 to 256, with its continuum "
             "approximation as a dashed line. A slider chooses the base b from 100 to 10^6 and a "
             "menu the dimension d from 32 to 512; hovering reads out both values.")
def rope_figure():
    import plotly.graph_objects as go

    x = np.arange(ROPE_MAX_DISTANCE + 1, dtype=float)
    xc = np.arange(1, ROPE_MAX_DISTANCE + 1, 2, dtype=float)
    b0, d0 = 1.0e4, 128
    fig = go.Figure()
    for d in ROPE_DIMS:
        fig.add_scatter(x=rounded(x), y=rounded(bound_curve(x, d, b0)), mode="lines",
                        name=f"(1/(d/2)) Σⱼ |S<sub>j</sub>(x)|, d = {d}", visible=d == d0,
                        line={"color": COLORS[0], "width": 2}, hovertemplate="%{y:.3f}")
    for d in ROPE_DIMS:
        fig.add_scatter(x=rounded(xc), y=rounded(continuum_bound(xc, d, b0)), mode="lines",
                        name="continuum", visible=d == d0,
                        line={"color": "#444", "width": 1.2, "dash": "dash"},
                        hovertemplate="%{y:.3f}")
    sliders, menus = _slider_and_menu(
        range(len(fig.data)),
        lambda b: [bound_curve(x, d, b) for d in ROPE_DIMS]
        + [continuum_bound(xc, d, b) for d in ROPE_DIMS],
        ROPE_BASES, _power_label, "base b = ", b0,
        lambda m: [d == m for d in ROPE_DIMS] * 2, ROPE_DIMS, lambda d: f"d = {d}", d0)
    fig.update_layout(**_base_layout("relative distance x", "(1/(d/2)) Σⱼ |S<sub>j</sub>(x)|",
                                     sliders=sliders, updatemenus=menus))
    fig.update_xaxes(range=[0, ROPE_MAX_DISTANCE])
    fig.update_yaxes(rangemode="tozero", autorange=True)
    return fig


# --------------------------------------------------------------------------- display


class InteractiveFigure:
    """What ``show_interactive`` returns: HTML for the website, Plotly's mime type for Jupyter."""

    def __init__(self, name: str, figure, description: str):
        self.name = name
        self.figure = figure
        self.description = description

    def spec(self) -> dict:
        spec = json.loads(self.figure.to_json())
        spec.pop("frames", None)
        spec["config"] = PLOTLY_CONFIG
        return spec

    def _repr_html_(self) -> str:
        element = f"posenc-plotly-{self.name}"
        spec = json.dumps(self.spec(), separators=(",", ":"), ensure_ascii=False)
        spec = spec.replace("</", "<\\/")  # never close the script element early
        height = self.figure.layout.height or HEIGHT
        return (
            f'<div id="{element}" class="{MARKER}" role="img" '
            f'aria-label="{html.escape(self.description, quote=True)}" '
            f'style="width:100%;height:{height}px"></div>\n'
            "<script>(function () {\n"
            f"  var spec = {spec};\n"
            f"  function draw() {{ Plotly.newPlot(\"{element}\", spec.data, spec.layout, spec.config); }}\n"
            "  if (window.Plotly) { draw(); } else { window.addEventListener(\"load\", draw); }\n"
            "})();</script>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = {"text/html": self._repr_html_(), "text/plain": repr(self)}
        if os.environ.get(HTML_ONLY_VARIABLE) != "1":
            # JupyterLab draws this with the jupyterlab-plotly renderer that ships with plotly
            # (the HTML above needs the page's Plotly bundle, which only the website has)
            spec = self.spec()
            bundle[PLOTLY_MIME] = {key: spec[key] for key in ("data", "layout", "config")}
        return bundle

    def __repr__(self) -> str:
        return f"<interactive figure {self.name}>"


def show_interactive(name: str) -> InteractiveFigure:
    """Display the interactive figure called ``name`` (in the book, or in JupyterLab)."""
    return InteractiveFigure(name, build(name), _DESCRIPTIONS[name])


# --------------------------------------------------------------------------- Jupyter explorers


def _explorer(draw: Callable, **widgets):
    """``ipywidgets.interactive`` over ``widgets``, redrawing with matplotlib in the book style."""
    import ipywidgets
    import matplotlib
    import matplotlib.pyplot as plt

    def redraw(**values):
        with matplotlib.rc_context(STYLE):
            fig = draw(**values)
            plt.show()
            plt.close(fig)

    return ipywidgets.interactive(redraw, **widgets)


def _log_slider(value, low, high, description):
    import ipywidgets
    return ipywidgets.FloatLogSlider(value=value, base=10, min=low, max=high, step=0.05,
                                     description=description, continuous_update=False)


def _dimension_slider(value, low, high):
    import ipywidgets
    return ipywidgets.IntSlider(value=value, min=low, max=high, step=2, description="d",
                                continuous_update=False)


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
    return _explorer(draw, b=_log_slider(1e4, 1, 7, "base b"), d=_dimension_slider(128, 8, 2048),
                     x_max=ipywidgets.FloatLogSlider(value=1e5, base=10, min=1, max=7, step=0.25,
                                                     description="max x",
                                                     continuous_update=False))


def explore_schedules():
    """Live explorer of chapter 7: the power schedule t^alpha against b^(-t), with dimension d."""
    import ipywidgets
    import matplotlib.pyplot as plt

    def draw(alpha, b, d, x_max):
        x = np.linspace(0, x_max, 801)
        fig, ax = plt.subplots(figsize=(8, 3.6))
        ax.plot(x, power_integral_jacobi(x, alpha), color="C3", lw=2,
                label=f"$t^{{{alpha:g}}}$, integral")
        ax.plot(x, power_sum(x, d, alpha), color="C3", lw=1, ls=":", label=f"$t^{{{alpha:g}}}$, d = {d}")
        ax.plot(x, decay_integral(x, b), color="C0", lw=2, label=f"$b^{{-t}}$, b = {b:.3g}")
        ax.plot(x, decay_sum(x, d, b), color="C0", lw=1, ls=":", label=f"$b^{{-t}}$, d = {d}")
        ax.axhline(0, color="0.4", lw=0.8)
        ax.set_ylim(-0.4, 1.02)
        ax.set_xlabel("relative distance x")
        ax.set_ylabel("$\\int_0^1 \\cos(x\\theta_t)\\,dt$")
        ax.legend(loc="upper right", ncol=2, frameon=False, fontsize=9)
        fig.tight_layout()
        return fig

    return _explorer(draw,
                     alpha=ipywidgets.FloatSlider(value=1.0, min=0.2, max=3.0, step=0.05,
                                                  description="α", continuous_update=False),
                     b=_log_slider(1e4, 1, 7, "base b"), d=_dimension_slider(128, 8, 1024),
                     x_max=ipywidgets.FloatLogSlider(value=60, base=10, min=1, max=4, step=0.1,
                                                     description="max x",
                                                     continuous_update=False))


def explore_rope():
    """Live explorer of chapter 12: RoFormer's bound curve for any base, dimension and range."""
    import ipywidgets
    import matplotlib.pyplot as plt

    def draw(b, d, x_max):
        x = np.arange(int(x_max) + 1, dtype=float)
        fig, ax = plt.subplots(figsize=(8, 3.6))
        ax.plot(x, bound_curve(x, d, b), color="C0", lw=1.5, label=f"d = {d}")
        xc = np.linspace(0.5, x_max, 400)
        ax.plot(xc, continuum_bound(xc, d, b), color="0.3", lw=1, ls="--", label="continuum")
        ax.set_xlim(0, x_max)
        ax.set_ylim(0, None)
        ax.set_xlabel("relative distance $x$")
        ax.set_ylabel("$\\frac{1}{d/2}\\sum_j |S_j(x)|$")
        ax.legend(loc="upper right")
        fig.tight_layout()
        return fig

    return _explorer(draw, b=_log_slider(1e4, 1, 7, "base b"), d=_dimension_slider(128, 8, 1024),
                     x_max=ipywidgets.IntSlider(value=256, min=16, max=4096, step=16,
                                                description="max x", continuous_update=False))
