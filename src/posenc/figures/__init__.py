"""Every figure of the book, defined once.

A chapter shows a figure with ``show("fig-name")``; ``make figures`` (``python -m
posenc.figures OUTDIR``) writes the same figures as SVG, PNG and PDF. Both go through
:func:`render`, so the picture in the book and the file in ``figures/`` are the same bytes.

Figures are registered per chapter module with the :func:`figure` decorator; a builder takes no
arguments and returns a :class:`matplotlib.figure.Figure`. Captions and alt text live in the
chapter's cell metadata, not here: the figure carries no title.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

FORMATS = ("svg", "png", "pdf")

# Fixed metadata and hash salt make the output byte-identical from run to run.
SAVE_METADATA = {
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "Creator": None, "Producer": None},
    "png": {"Software": None},
}

STYLE = {
    "svg.hashsalt": "posenc",
    "svg.fonttype": "path",
    "font.size": 11,
    "axes.titlesize": 11,
    "axes.labelsize": 11,
    "legend.fontsize": 10,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "image.cmap": "RdBu_r",
}

_BUILDERS: dict[str, Callable[[], Figure]] = {}


def figure(name: str):
    """Register ``builder`` as the definition of the figure called ``name``."""
    if not name.startswith("fig-"):
        raise ValueError(f"figure names start with 'fig-', got {name!r}")

    def register(builder: Callable[[], Figure]) -> Callable[[], Figure]:
        previous = _BUILDERS.get(name)
        # Re-importing the same module (importlib.reload, %autoreload) redefines its figures.
        if previous is not None and _origin(previous) != _origin(builder):
            raise ValueError(f"figure {name!r} is defined twice: in {_origin(previous)} "
                             f"and in {_origin(builder)}")
        _BUILDERS[name] = builder
        return builder

    return register


def _origin(builder: Callable) -> str:
    return f"{builder.__module__}.{builder.__qualname__}"


def names() -> list[str]:
    """Names of all registered figures, sorted."""
    return sorted(_BUILDERS)


def build(name: str) -> Figure:
    """Build the figure called ``name`` under the book's style."""
    if name not in _BUILDERS:
        raise ValueError(f"name must be a registered figure ({', '.join(names())}), got {name!r}")
    with matplotlib.rc_context(STYLE):
        return _BUILDERS[name]()


def render(name: str, fmt: str) -> bytes:
    """The figure called ``name`` as ``fmt`` bytes ("svg", "png" or "pdf"), deterministic."""
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    fig = build(name)
    try:
        return _save(fig, fmt)
    finally:
        # Closed at once: pyplot would otherwise keep it (and a notebook would show it twice).
        plt.close(fig)


def _save(fig: Figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        fig.savefig(buffer, format=fmt, metadata=SAVE_METADATA[fmt])
    return buffer.getvalue()


class RenderedFigure:
    """A rendered SVG that a notebook displays as is (IPython's ``SVG`` would rewrite it)."""

    def __init__(self, name: str, svg: bytes):
        self.name = name
        self.data = svg.decode("utf-8")

    def _repr_svg_(self) -> str:
        return self.data

    def __repr__(self) -> str:
        return f"<figure {self.name}>"


def show(name: str) -> RenderedFigure:
    """Display the figure in a notebook: the same SVG bytes that ``make figures`` writes."""
    return RenderedFigure(name, render(name, "svg"))


def write_all(outdir: str | Path, selected: Iterable[str] | None = None) -> list[Path]:
    """Write every figure (or the ``selected`` ones) to ``outdir`` in every format."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in (names() if selected is None else list(selected)):
        # Built once and saved in every format (the same bytes as render(name, fmt) for each
        # format, which the tests check): building is most of the cost of a figure.
        fig = build(name)
        try:
            for fmt in FORMATS:
                path = outdir / f"{name}.{fmt}"
                path.write_bytes(_save(fig, fmt))
                written.append(path)
        finally:
            plt.close(fig)
    return written


# Importing the chapter modules registers their figures.
from . import (  # noqa: E402,F401
    alibi,
    beyond_identity,
    complex_solution,
    extrapolation,
    finite_sum,
    learned_t5,
    long_range_decay,
    real_model,
    rope,
    schedules,
    standard_formula,
    symmetry,
    taylor_expansion,
)
