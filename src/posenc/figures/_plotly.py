"""Shared drawing code of the interactive figures (Plotly): layout, controls, display.

An interactive figure (registered with :func:`posenc.figures.interactive_figure` in its
chapter's module) is shown as a ``<div>`` with the marker class :data:`MARKER` and an inline
script calling ``Plotly.newPlot``; the build extension (tools/extensions/offline_assets.py)
serves Plotly's basic bundle from the site and loads it on the pages that carry the marker only,
once the page and its formulas are done. In JupyterLab the same output also carries Plotly's own
mime type, which the jupyterlab-plotly renderer (shipped with the ``plotly`` package) draws.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Sequence

import numpy as np

from . import _style

# class of the div; tools/extensions/offline_assets.py looks for it in a page's body
MARKER = "posenc-plotly"
# Set to "1" by the book build (tools/extensions/execution_cache.py), whose kernels inherit
# it: the website uses the HTML, and MyST-NB would warn about Plotly's mime type, which it
# does not know.
HTML_ONLY_VARIABLE = "POSENC_HTML_ONLY"
PLOTLY_MIME = "application/vnd.plotly.v1+json"
SIGNIFICANT = 4  # digits kept in the JSON: plenty for a plot, and it keeps pages light
# Vertical layout in pixels. The controls sit under the plot, one below the other, each placed
# a fixed number of pixels below the plot area (paper y = 0 plus a pad): side by side they
# collided with each other and with the axis title on a 390 px phone, and a paper-relative
# position moved whenever a legend that wraps on a narrow screen shrank the plot area.
SLIDER_BELOW = (
    55  # px from the plot area down to the slider (clears tick labels and x title)
)
MENU_BELOW = 140  # px down to the menu (clears the slider's label, rail and ticks)
MARGIN_TOP, MARGIN_BOTTOM = 70, 185
HEIGHT = 520
# The book's palette (_style), in the order the interactive figures use: blue, red, green, ...
COLORS = (
    _style.BLUE,
    _style.RED,
    _style.GREEN,
    _style.ORANGE,
    _style.PURPLE,
    _style.SKY,
    _style.GREY,
)
# No Plotly logo (a link to plotly.com) and no "Share chart" button (an upload to Plotly Cloud):
# this book's pages talk to no other site.
PLOTLY_CONFIG = {
    "displaylogo": False,
    "responsive": True,
    "showLink": False,
    "showSendToCloud": False,
    "showEditInChartStudio": False,
    "modeBarButtonsToRemove": [
        "select2d",
        "lasso2d",
        "sendChartToCloud",
        "sendDataToCloud",
        "editInChartStudio",
    ],
}


def rounded(values) -> list[float | None]:
    """``values`` as a list of floats with :data:`SIGNIFICANT` significant digits."""
    return [
        float(f"{v:.{SIGNIFICANT}g}") if np.isfinite(v) else None
        for v in np.asarray(values, dtype=float).ravel()
    ]


SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_label(value: float) -> str:
    """10², 10³, ... for powers of ten from 100 on; the number itself otherwise."""
    exponent = np.log10(value)
    if abs(exponent - round(exponent)) < 1e-9 and value >= 100:
        return "10" + str(int(round(exponent))).translate(SUPERSCRIPTS)
    return f"{value:g}"


def base_layout(xtitle: str, ytitle: str, **extra) -> dict:
    layout = {
        "height": HEIGHT,
        "margin": {"l": 60, "r": 20, "t": MARGIN_TOP, "b": MARGIN_BOTTOM},
        "font": {"size": 13},
        # an empty template: Plotly's default one would add 6 KB of JSON to every figure
        "template": {"layout": {}},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "hovermode": "x unified",
        "xaxis": {
            "title": {"text": xtitle},
            "zeroline": False,
            "gridcolor": "#e5e5e5",
            "linecolor": "#444",
            "ticks": "outside",
        },
        "yaxis": {
            "title": {"text": ytitle},
            "zeroline": False,
            "gridcolor": "#e5e5e5",
            "linecolor": "#444",
            "ticks": "outside",
        },
        "legend": {
            "orientation": "h",
            "x": 0,
            "y": 1.02,
            "xanchor": "left",
            "yanchor": "bottom",
        },
    }
    layout.update(extra)
    return layout


def slider_and_menu(
    traces: Sequence[int],
    ys: Callable[[float], list],
    slider_values: Sequence[float],
    slider_label: Callable[[float], str],
    slider_prefix: str,
    slider_default: float,
    visible: Callable[[float], list],
    menu_values: Sequence[float],
    menu_label: Callable[[float], str],
    menu_default: float,
) -> tuple[list, list]:
    """A slider over one parameter and a menu over another, all data precomputed.

    ``ys(s)`` gives the y arrays of ``traces`` for slider value s: the traces for every menu
    value, shown or not, so each slider step restyles them all. The menu only switches which
    traces are visible (``visible(m)``, one flag per trace of the figure), so the two controls
    are independent and no data is stored twice.
    """
    slider = {
        "active": list(slider_values).index(slider_default),
        "currentvalue": {"prefix": slider_prefix},
        "x": 0.0,
        "len": 1.0,
        "y": 0.0,
        "yanchor": "top",
        "pad": {"t": SLIDER_BELOW, "l": 0},
        "steps": [
            {
                "method": "restyle",
                "label": slider_label(s),
                "args": [{"y": [rounded(y) for y in ys(s)]}, list(traces)],
            }
            for s in slider_values
        ],
    }
    menu = {
        "type": "dropdown",
        "direction": "up",
        "active": list(menu_values).index(menu_default),
        "x": 0.0,
        "xanchor": "left",
        "y": 0.0,
        "yanchor": "top",
        "pad": {"t": MENU_BELOW, "r": 10},
        "buttons": [
            {
                "method": "restyle",
                "label": menu_label(m),
                "args": [{"visible": visible(m)}],
            }
            for m in menu_values
        ],
    }
    return [slider], [menu]


# --------------------------------------------------------------------------- display


class InteractiveFigure:
    """What ``show`` returns for an interactive figure: HTML for the website, Plotly's mime type
    for Jupyter."""

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
            f'  function draw() {{ Plotly.newPlot("{element}", spec.data, spec.layout,'
            " spec.config); }\n"
            # the website's pages load Plotly after the page and its formulas
            # (window.posencPlotly, tools/extensions/offline_assets.py); any other page
            # brings its own Plotly
            "  if (window.Plotly) { draw(); }\n"
            "  else if (window.posencPlotly) { window.posencPlotly.then(draw); }\n"
            '  else { window.addEventListener("load", draw); }\n'
            "})();</script>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = {"text/html": self._repr_html_(), "text/plain": repr(self)}
        if os.environ.get(HTML_ONLY_VARIABLE) != "1":
            # JupyterLab draws this with the jupyterlab-plotly renderer that ships with plotly
            # (the HTML above needs the page's Plotly bundle, which only the website has)
            spec = self.spec()
            bundle[PLOTLY_MIME] = {
                key: spec[key] for key in ("data", "layout", "config")
            }
        return bundle

    def __repr__(self) -> str:
        return f"<interactive figure {self.name}>"


def zero_line() -> dict:
    """A thin horizontal line at y = 0 across the plot."""
    return {
        "type": "line",
        "xref": "paper",
        "x0": 0,
        "x1": 1,
        "y0": 0,
        "y1": 0,
        "line": {"color": "#666", "width": 1},
    }
