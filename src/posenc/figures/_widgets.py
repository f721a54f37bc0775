"""Shared code of the Jupyter explorers: ipywidgets controls that redraw a matplotlib figure.

The explorers run only in a live kernel (``make lab``); the book's pages skip their cells.
ipywidgets is imported when an explorer is built, so the library does not need it otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from . import STYLE


def explorer(draw: Callable, **widgets):
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


def log_slider(value, low, high, description):
    import ipywidgets

    return ipywidgets.FloatLogSlider(
        value=value,
        base=10,
        min=low,
        max=high,
        step=0.05,
        description=description,
        continuous_update=False,
    )


def dimension_slider(value, low, high):
    import ipywidgets

    return ipywidgets.IntSlider(
        value=value, min=low, max=high, step=2, description="d", continuous_update=False
    )
