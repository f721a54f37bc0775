"""The book's colours, defined once: every figure module takes its colours from here.

The palette is Okabe and Ito's colour-blind-safe set (Okabe & Ito, *Color Universal Design*,
2008) without its yellow, which vanishes on white paper. It is matplotlib's colour cycle under
the book's style, ordered so that "C0" to "C4" keep the hue names the captions use: "C0" blue,
"C1" orange, "C2" green, "C3" red (vermillion), "C4" purple.

A dimension d has one colour across the book (``d_color(d)``), and so does each base of the
exponential schedule (``BASE_COLORS``).
"""

from __future__ import annotations

import numpy as np
from cycler import cycler
from matplotlib.colors import to_rgb

BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
RED = "#D55E00"  # Okabe-Ito's vermillion
PURPLE = "#CC79A7"
SKY = "#56B4E9"
BLACK = "#000000"
GREY = "#666666"

PALETTE = (BLUE, ORANGE, GREEN, RED, PURPLE, SKY, BLACK, GREY)

# One colour per dimension d, the same in every figure that draws it.
D_COLORS = {
    16: SKY,
    32: ORANGE,
    64: RED,
    128: GREEN,
    256: PURPLE,
    512: BLUE,
    1024: BLACK,
}

# Sequential colours for the bases 10, 100, 1000, 10^4, 10^6 of b^(-nu): a dark-to-light ramp
# of one hue family would fade into white, so the bases take distinct palette colours.
BASE_COLORS = {10.0: BLACK, 100.0: PURPLE, 1000.0: ORANGE, 1.0e4: BLUE, 1.0e6: GREEN}

# Diverging and sequential colour maps of the heat maps.
DIVERGING = "RdBu_r"
SEQUENTIAL = "viridis"

# Resolution of the rasterised layers inside SVG and PDF (fixed, so files stay reproducible).
RASTER_DPI = 150


def d_color(d: int) -> str:
    """The colour of dimension ``d`` in every figure of the book."""
    return D_COLORS[d]


def mix_white(color, amount: float) -> tuple[float, float, float]:
    """``color`` mixed with white, ``amount`` of the way (0: the colour, 1: white). Opaque, so
    overlapping pale curves do not blend into new shades as transparent ones would."""
    rgb = np.array(to_rgb(color))
    return tuple(float(v) for v in rgb + (1.0 - rgb) * amount)


RC = {
    "axes.prop_cycle": cycler(color=PALETTE),
    "image.cmap": DIVERGING,
    "figure.facecolor": "white",
}


# Set while a figure is drawn for phones (posenc.figures.build(name, phone=True)): a builder
# whose figure needs more than narrower panels there (a key of one column, more space between
# stacked panels) asks ``phone()``.
_DRAWING_FOR_PHONES = [False]


def phone() -> bool:
    """Whether the figure being built is drawn for phones."""
    return _DRAWING_FOR_PHONES[0]


def legend_place(headed: bool = False, **wide) -> dict:
    """Where a legend goes: ``wide`` (a place inside the plot, ``loc=...``) in the wide
    drawing; above its panel in the drawing for phones, where, at the phones' larger text,
    it would lie on the data: centred, or at the right if the panel is ``headed`` at the left
    ("Left", "Right": ``figures.PLACES``). Use ``ax.legend(**legend_place(loc="upper left"))``."""
    if phone():
        if headed:
            return {"loc": "lower right", "bbox_to_anchor": (1.0, 1.02)}
        return {"loc": "lower center", "bbox_to_anchor": (0.5, 1.02)}
    return wide


def panel_name(ax, name: str) -> None:
    """Write ``name`` in one line just above the top left corner of the panel ``ax``: for a
    panel whose name is part of what it shows (a bucket rule, a layout), where an axis label
    would be too long or, stacked on a phone, would read as the next panel's title."""
    ax.text(0.0, 1.03, name, transform=ax.transAxes, fontsize=10)


def heading_over_label(ax) -> None:
    """On a phone, lift a stacked panel's heading ("Left", "Right": ``figures.PLACES``) above
    the label its builder wrote over the panel, which it would otherwise cover."""
    if phone():
        ax.set_title(ax.get_title(loc="left"), loc="left", pad=18)
