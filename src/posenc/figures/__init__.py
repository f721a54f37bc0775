"""Every figure of the book, defined once: one module per chapter.

``figures/chNN_<chapter>.py`` holds the drawing code of chapter NN's figures, static and
interactive; the mathematics they draw comes from :mod:`posenc`. A chapter shows a figure with
``show("fig-chNN-...")``; ``make figures`` (``python -m posenc.figures OUTDIR``) writes every
static figure as SVG, PNG and PDF. Both go through :func:`render`, so the picture in the book
and the file in ``figures/`` are the same bytes.

The rules, checked when a module registers its figures:

- a figure's name is ``fig-chNN-<what>``, where ``chNN`` is its module's chapter;
- names are unique across static and interactive figures (one registry holds both);
- a static builder takes no arguments and returns a :class:`matplotlib.figure.Figure` with no
  title (captions and alt text live in the chapter's cell metadata);
- an interactive builder returns a :class:`plotly.graph_objects.Figure` whose data is
  precomputed (the website runs no kernel), and carries a description that becomes its
  ``aria-label``. Each interactive figure has a static twin, named in ``twin``.

Every static figure is also drawn for phones (``render(name, "svg", phone=True)``; the website
shows it on screens narrower than 576 px, tools/extensions/phone_figures.py): the same builder,
its figure :data:`PHONE_WIDTH` wide instead of about 8 in, a row of panels stacked (four or
six panels into rows of two, fewer into one column), and no text under :data:`PHONE_TEXT`.
Drawn 8 in wide, a figure shrank to about 41 % in a phone's column, its labels 4 to 5 px tall.
A figure whose caption names its panels by place ("Left: ...; Right: ...") is registered with
``panels_by_place=True``: stacked, its panels are headed with those words (:data:`PLACES`),
which the caption still points at.

Every figure is also drawn in Chinese for the Chinese edition (``language="zh_CN"`` of
:func:`build` and :func:`render`; ``make figures`` writes them to ``figures/zh_CN/``): the same
builder, then every label it drew replaced by its entry in the one table of
:mod:`posenc.figures._labels`, in :data:`CJK_FONT` where DejaVu Sans has no glyph
(:func:`style`). The English figures are drawn exactly as before.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.axis
import matplotlib.pyplot as plt
import matplotlib.ticker
from matplotlib.figure import Figure
from matplotlib.text import Text

from . import _labels, _style

FORMATS = ("svg", "png", "pdf")
STATIC, INTERACTIVE = "static", "interactive"

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
    "savefig.dpi": _style.RASTER_DPI,  # also the rasterised layers of SVG and PDF
    "savefig.bbox": "tight",
    **_style.RC,  # the book's palette and colour maps, defined once
}

NAME_RULE = re.compile(r"^fig-(ch\d\d)-[a-z0-9]+(-[a-z0-9]+)*$")
MODULE_RULE = re.compile(r"^(ch\d\d)_[a-z0-9_]+$")


@dataclass(frozen=True)
class Entry:
    """A registered figure: its kind, its builder and (interactive figures) its description
    and static twin."""

    name: str
    kind: str
    builder: Callable
    description: str = ""
    twin: str = ""
    panels_by_place: bool = False

    @property
    def origin(self) -> str:
        return f"{self.builder.__module__}.{self.builder.__qualname__}"


_REGISTRY: dict[str, Entry] = {}


def _register(entry: Entry) -> None:
    match = NAME_RULE.match(entry.name)
    if not match:
        raise ValueError(
            f"name must look like 'fig-chNN-what' (lower case, digits and "
            f"hyphens), got {entry.name!r}"
        )
    module = entry.builder.__module__.rsplit(".", 1)[-1]
    module_match = MODULE_RULE.match(module)
    if module_match and module_match.group(1) != match.group(1):
        raise ValueError(
            f"name {entry.name!r} must start with 'fig-{module_match.group(1)}-': "
            f"it is defined in {module}"
        )
    previous = _REGISTRY.get(entry.name)
    # Re-importing the same module (importlib.reload, %autoreload) redefines its figures.
    if previous is not None and previous.origin != entry.origin:
        raise ValueError(
            f"figure {entry.name!r} is defined twice: in {previous.origin} "
            f"and in {entry.origin}"
        )
    _REGISTRY[entry.name] = entry


def figure(name: str, panels_by_place: bool = False):
    """Register a static figure: ``builder()`` returns a matplotlib Figure. With
    ``panels_by_place``, its caption names a row's panels "Left", ("Middle",) "Right", and the
    drawing for phones, which stacks them, heads each with that word."""

    def register(builder: Callable[[], Figure]) -> Callable[[], Figure]:
        _register(Entry(name, STATIC, builder, panels_by_place=panels_by_place))
        return builder

    return register


def interactive_figure(name: str, description: str, twin: str):
    """Register an interactive figure: ``builder()`` returns a Plotly Figure. ``description``
    becomes the element's aria-label (what it shows and how to operate it); ``twin`` names
    the static figure that shows the same thing in print and in ``make figures``."""

    def register(builder: Callable) -> Callable:
        _register(Entry(name, INTERACTIVE, builder, description, twin))
        return builder

    return register


def names(kind: str | None = None) -> list[str]:
    """Names of the registered figures (of one ``kind``, "static" or "interactive")."""
    if kind not in (None, STATIC, INTERACTIVE):
        raise ValueError(
            f"kind must be None, {STATIC!r} or {INTERACTIVE!r}, got {kind!r}"
        )
    return sorted(
        name for name, entry in _REGISTRY.items() if kind in (None, entry.kind)
    )


def entry(name: str) -> Entry:
    if name not in _REGISTRY:
        raise ValueError(
            f"name must be a registered figure ({', '.join(names())}), got {name!r}"
        )
    return _REGISTRY[name]


# A figure drawn for phones: this wide (inches; 480 px, which a 390 px phone's column shows at
# about three quarters), its height this share of the figure's, and no text smaller than this
# (points: about 9 px as the phone shows it)
PHONE_WIDTH = 4.8
PHONE_HEIGHT = 0.85
PHONE_TEXT = 9.5
# The words a caption uses for the panels of a row of two or three; the stacked drawing for
# phones heads its panels with them (translated by the table of _labels in the Chinese one).
PLACES = {2: ("Left", "Right"), 3: ("Left", "Middle", "Right")}


@contextlib.contextmanager
def _drawn_for_phones(panels_by_place: bool = False):
    """While the block runs, a builder's ``plt.subplots`` and ``plt.figure`` make a figure
    for phones: :data:`PHONE_WIDTH` wide, and a single row of panels stacked, four or six into
    rows of two, two or three into one column (the axes come back in the shape the builder
    asked for, so its code runs unchanged). With ``panels_by_place``, a row stacked into one
    column has its panels headed with the words of :data:`PLACES`; the block yields the list
    of those headings."""
    subplots, figure = plt.subplots, plt.figure
    headings = []

    def size(figsize, rows=1, new_rows=1):
        width, height = figsize or matplotlib.rcParams["figure.figsize"]
        return (PHONE_WIDTH, height * PHONE_HEIGHT * new_rows / rows)

    def phone_subplots(nrows=1, ncols=1, *, figsize=None, squeeze=True, **kwargs):
        if nrows == 1 and ncols > 1:
            columns = 2 if ncols >= 4 and ncols % 2 == 0 else 1
            rows = math.ceil(ncols / columns)
            for key in ("gridspec_kw",):
                kwargs[key] = {
                    k: v
                    for k, v in (kwargs.get(key) or {}).items()
                    if k != "width_ratios"
                }
            kwargs.pop("width_ratios", None)
            fig, axes = subplots(
                rows, columns, figsize=size(figsize, 1, rows), squeeze=False, **kwargs
            )
            axes = axes.ravel()
            if panels_by_place and columns == 1 and ncols in PLACES:
                for ax, place in zip(axes, PLACES[ncols], strict=True):
                    # a heading of its own at the left, beside any title the builder sets
                    headings.append(ax.set_title(place, loc="left"))
            return fig, (axes if squeeze else axes.reshape(1, ncols))
        return subplots(nrows, ncols, figsize=size(figsize), squeeze=squeeze, **kwargs)

    def phone_figure(*args, figsize=None, **kwargs):
        return figure(*args, figsize=size(figsize), **kwargs)

    plt.subplots, plt.figure = phone_subplots, phone_figure
    _style._DRAWING_FOR_PHONES[0] = True
    try:
        yield headings
    finally:
        plt.subplots, plt.figure = subplots, figure
        _style._DRAWING_FOR_PHONES[0] = False


def build(name: str, phone: bool = False, language: str = "en"):
    """Build the figure called ``name`` (under the book's style, for a static figure; drawn
    for phones if ``phone``), its words in ``language`` ("en" or "zh_CN": the Chinese
    edition's, from the table in :mod:`posenc.figures._labels`)."""
    _labels.check_language(language)
    found = entry(name)
    if found.kind == INTERACTIVE:
        fig = found.builder()
        return fig if language == "en" else _chinese_plotly(fig)
    with matplotlib.rc_context(style(language)):
        if not phone:
            fig = found.builder()
        else:
            with _drawn_for_phones(found.panels_by_place) as headings:
                fig = found.builder()
            if found.panels_by_place and not headings:
                raise ValueError(
                    f"figure {name!r} is registered with panels_by_place=True, but its "
                    "drawing for phones stacks no row of two or three panels into a column"
                )
            for text in fig.findobj(Text):
                if text.get_fontsize() < PHONE_TEXT:
                    text.set_fontsize(PHONE_TEXT)
        if language != "en":
            _chinese_matplotlib(fig)
        return fig


# The Chinese edition's font for the CJK characters (matplotlib falls back to it, glyph by
# glyph, from DejaVu Sans, which draws the Latin letters, digits and mathematics as in the
# English figures): the Simplified Chinese face of Noto Sans CJK, from the noto-cjk-sans-otc
# package (requirements.in) and registered from its file, so no system font is looked up and
# the figures are the same on every machine.
CJK_FONT = "Noto Sans CJK SC"
CJK = re.compile("[\u2e80-\u9fff\uff00-\uffef]")  # CJK characters and full-width forms


def style(language: str = "en") -> dict:
    """The book's matplotlib style for figures in ``language``: :data:`STYLE`, and for Chinese
    the font family DejaVu Sans with :data:`CJK_FONT` as its fallback."""
    _labels.check_language(language)
    if language == "en":
        return STYLE
    from matplotlib import font_manager

    try:
        import noto_cjk_sans_otc
    except (
        ImportError
    ) as error:  # pragma: no cover - the pinned requirements install it
        raise RuntimeError(
            "the Chinese figures need the font package noto-cjk-sans-otc "
            "(requirements.txt; `make book` installs it)"
        ) from error
    path = str(noto_cjk_sans_otc.FONT_PATH)
    if not any(font.fname == path for font in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    return {**STYLE, "font.family": ["DejaVu Sans", CJK_FONT]}


def _chinese_matplotlib(fig: Figure) -> None:
    """Every word ``fig`` shows, in Chinese: each Text artist (titles, axis labels, legend
    entries, annotations, colour-bar labels) and each axis's fixed tick labels."""
    for text in fig.findobj(Text):
        text.set_text(_labels.translate(text.get_text()))
        if "$" in text.get_text() and CJK.search(text.get_text()):
            # matplotlib draws the words around the mathematics in the text's first font,
            # without fallback: for Chinese words that is the CJK font (whose Latin letters
            # then draw the Latin words; the mathematics keeps its own fonts)
            text.set_fontfamily([CJK_FONT])
    for axis in fig.findobj(matplotlib.axis.Axis):
        for formatter in (axis.get_major_formatter(), axis.get_minor_formatter()):
            if isinstance(formatter, matplotlib.ticker.FixedFormatter):
                formatter.seq = [_labels.translate(str(s)) for s in formatter.seq]
            elif isinstance(formatter, matplotlib.ticker.FuncFormatter):
                # tick labels given as words (``set_xticks(ticks, labels)``, which
                # matplotlib keeps as a FuncFormatter) or made by a function
                formatter.func = _translated_ticks(formatter.func)


def _translated_ticks(func: Callable) -> Callable:
    def translated(x, pos=None):
        return _labels.translate(func(x, pos))

    return translated


# the keys of a Plotly figure's JSON whose text a reader sees (legend names, hover text, axis
# and plot titles, slider prefixes and steps, menu buttons, annotations)
PLOTLY_TEXT_KEYS = {"name", "legendgroup", "hovertemplate", "text", "prefix", "label"}


def _chinese_plotly(fig):
    """The Plotly figure ``fig`` with every word it shows in Chinese."""
    import plotly.graph_objects as go

    def translated(value, key=""):
        if isinstance(value, dict):
            return {k: translated(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [translated(v, key) for v in value]
        if isinstance(value, str) and key in PLOTLY_TEXT_KEYS:
            return _labels.translate(value, "interactive")
        return value

    return go.Figure(translated(fig.to_plotly_json()))


def description(name: str, language: str = "en") -> str:
    """The description (aria-label) of the interactive figure ``name`` in ``language``."""
    _labels.check_language(language)
    text = entry(name).description
    return text if language == "en" else _labels.translate(text, "interactive")


def render(name: str, fmt: str, phone: bool = False, language: str = "en") -> bytes:
    """The static figure called ``name`` as ``fmt`` bytes ("svg", "png" or "pdf"),
    deterministic; drawn for phones if ``phone``; its words in ``language`` ("en" or
    "zh_CN")."""
    return _render_formats(name, (fmt,), phone, language)[fmt]


def _render_formats(
    name: str, fmts: Iterable[str], phone: bool = False, language: str = "en"
) -> dict[str, bytes]:
    """The static figure called ``name`` built once and saved in each of ``fmts``."""
    _labels.check_language(language)
    fmts = tuple(fmts)
    for fmt in fmts:
        if fmt not in FORMATS:
            raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    if entry(name).kind != STATIC:
        raise ValueError(
            f"name must be a static figure to render as {fmts[0]}, got the "
            f"interactive {name!r} (its static twin is {entry(name).twin!r})"
        )
    fig = build(name, phone, language)
    try:
        return _save(fig, fmts, language)
    finally:
        # Closed at once: pyplot would otherwise keep it (and a notebook would show it twice).
        plt.close(fig)


def _save(fig: Figure, fmts: Iterable[str], language: str = "en") -> dict[str, bytes]:
    """``fig`` saved in each of ``fmts``, laid out once for all of them.

    ``savefig(bbox_inches="tight")`` lays a figure out again for every file it writes: a draw
    that renders nothing but measures every text, as long as the drawing itself. Here the
    figure is laid out once (its layout run, its tight bounding box measured and padded as
    savefig pads it), its layout is frozen, and every format is cut to that box, so each file
    costs one draw and all formats show the same layout."""
    with matplotlib.rc_context(style(language)):
        fig.draw_without_rendering()
        box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(
            matplotlib.rcParams["savefig.pad_inches"]
        )
        fig.set_layout_engine(None)  # positions stay where the layout put them
        saved = {}
        for fmt in fmts:
            buffer = io.BytesIO()
            fig.savefig(
                buffer, format=fmt, metadata=SAVE_METADATA[fmt], bbox_inches=box
            )
            saved[fmt] = buffer.getvalue()
        if "svg" in saved:
            # without matplotlib's final newline, which MyST-NB drops when it writes a notebook's
            # SVG output to the site: figures/NAME.svg, the notebook's output and the site's
            # file are then the same bytes
            saved["svg"] = saved["svg"].removesuffix(b"\n")
    return saved


class RenderedFigure:
    """A rendered figure that a notebook displays as is (IPython's ``SVG`` would rewrite it): the
    SVG for the website and JupyterLab, the bytes that ``make figures`` writes. The print edition
    takes the PDF of the same figure from :func:`render` (tools/extensions/print_edition.py), so
    the notebooks carry no second copy."""

    def __init__(self, name: str, svg: bytes):
        self.name = name
        self.data = svg.decode("utf-8")

    def _repr_svg_(self) -> str:
        return self.data

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return {"image/svg+xml": self.data, "text/plain": repr(self)}

    def __repr__(self) -> str:
        return f"<figure {self.name}>"


def show(name: str):
    """Display the figure called ``name`` in a notebook: a static figure as the same SVG bytes
    that ``make figures`` writes, an interactive one as Plotly HTML (website) and Plotly's mime
    type (JupyterLab). In print, each is its static figure's PDF (an interactive figure's twin)."""
    found = entry(name)
    if found.kind == INTERACTIVE:
        from ._plotly import InteractiveFigure

        return InteractiveFigure(name, build(name), found.description)
    return RenderedFigure(name, render(name, "svg"))


def print_twin(name: str) -> str:
    """The static figure that stands for ``name`` on paper: itself, or an interactive
    figure's twin."""
    found = entry(name)
    return found.twin if found.kind == INTERACTIVE else name


# The file name of a figure drawn for phones: NAME.phone.svg (SVG only: the website shows it)
PHONE_SUFFIX = ".phone.svg"
# the languages a figure is drawn in (`make figures` writes each; the Chinese into a folder
# of that name: figures/zh_CN/NAME.svg)
LANGUAGES = _labels.LANGUAGES


def write_all(
    outdir: str | Path,
    selected: Iterable[str] | None = None,
    languages: Iterable[str] = LANGUAGES,
) -> list[Path]:
    """Write every static figure (or the ``selected`` ones) to ``outdir`` in every format, and
    drawn for phones as NAME.phone.svg; in English into ``outdir``, in each other of
    ``languages`` into ``outdir/LANGUAGE/``."""
    outdir = Path(outdir)
    languages = tuple(languages)
    for language in languages:
        _labels.check_language(language)
    selected = names(STATIC) if selected is None else list(selected)
    for name in selected:
        if entry(name).kind != STATIC:
            raise ValueError(
                f"selected must name static figures, got the interactive {name!r}"
            )
    written = []
    for language in languages:
        folder = outdir if language == "en" else outdir / language
        folder.mkdir(parents=True, exist_ok=True)
        for name in selected:
            # Built and laid out once, saved in every format (the same bytes as
            # render(name, fmt, language=language) for each format, which the tests check).
            fig = build(name, language=language)
            try:
                for fmt, data in _save(fig, FORMATS, language).items():
                    path = folder / f"{name}.{fmt}"
                    path.write_bytes(data)
                    written.append(path)
            finally:
                plt.close(fig)
            path = folder / f"{name}{PHONE_SUFFIX}"
            path.write_bytes(render(name, "svg", phone=True, language=language))
            written.append(path)
    return written


# Importing the chapter modules registers their figures.
from . import (  # noqa: E402,F401
    ch01_symmetry,
    ch02_taylor_expansion,
    ch03_complex_solution,
    ch04_standard_formula,
    ch05_decay_integral,
    ch06_finite_sum,
    ch07_bases_schedules,
    ch08_beyond_identity,
    ch09_real_model,
    ch10_learned_and_t5,
    ch11_alibi,
    ch12_rope,
    ch13_extrapolation,
    ch14_beyond_decay,
    ch15_experiment,
)


def _check_twins() -> None:
    for found in _REGISTRY.values():
        if found.kind == INTERACTIVE and entry(found.twin).kind != STATIC:
            raise ValueError(
                f"twin of {found.name!r} must be a static figure, got {found.twin!r}"
            )


_check_twins()
