"""Tests for the figure registry posenc.figures and for how the book uses it.

Rendering is the slow part, so each figure is rendered a fixed, small number of times in this
process: once by ``write_all`` and once more as SVG, which must be the very bytes
``write_all`` wrote: a figure must not change when it is built a second time in one process
(for example with an unseeded or module-level random generator). That a figure
is the same in another process, with another hash seed, is checked against the figures the
build's kernels showed (every chapter ran in a process of its own), and against
``python -m posenc.figures`` writing one figure in a child process (the command line, and the
PNG too).
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from support.book import ROOT, read_chapter

import posenc.figures as figures

BOOK = ROOT / "book"

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# A call of the book's show(): show(...), figures.show(...) or posenc.figures.show(...), but not
# plt.show() or fig.show().
SHOW_CALL = re.compile(r"(?<![\w.])(?:(?:posenc\.)?figures\.)?show\s*\(")
SHOW_LITERAL = re.compile(
    r"(?<![\w.])(?:(?:posenc\.)?figures\.)?show\s*\(\s*(?P<q>['\"])(?P<name>[^'\"]*)(?P=q)\s*\)"
)


@pytest.fixture(autouse=True)
def _close_figures():
    """Close what a test left open, so one leak does not trip matplotlib's 'more than 20
    figures' RuntimeWarning (an error under filterwarnings=error) in an unrelated test."""
    yield
    plt.close("all")


# --------------------------------------------------------------------------- written files


# the figure ``python -m posenc.figures`` writes in a child process (one is enough: every
# figure's SVG and PDF from other processes are compared with the build's chapters)
CLI_FIGURE = "fig-ch05-regimes"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every figure written by ``write_all`` in this process, each built Figure's titles
    inspected on the way (so that no test builds it again); meanwhile, in a child process with
    another hash seed, ``python -m posenc.figures`` writes CLI_FIGURE."""
    dir_a = tmp_path_factory.mktemp("figures-a")
    dir_b = tmp_path_factory.mktemp("figures-b")
    env = dict(
        os.environ, PYTHONHASHSEED="12345"
    )  # a hash seed other than this process's
    child = subprocess.Popen(
        [sys.executable, "-m", "posenc.figures", str(dir_b), CLI_FIGURE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    titles = {}
    real_build = figures.build

    def inspecting_build(name, phone=False, language="en"):
        fig = real_build(name, phone, language)
        titles[f"{name}{PHONE}" if phone else name] = {
            "suptitle": fig.get_suptitle(),
            "texts": len(fig.texts),
            "axes": [
                ax.get_title(loc=loc)
                for ax in fig.axes
                for loc in ("left", "center", "right")
            ],
        }
        return fig

    patch = pytest.MonkeyPatch()
    patch.setattr(figures, "build", inspecting_build)
    try:
        # the English figures (tests/test_figures_zh.py checks the Chinese ones)
        paths_a = figures.write_all(dir_a, languages=("en",))
    finally:
        patch.undo()
        plt.close("all")
        out, err = child.communicate(timeout=300)
    assert child.returncode == 0, f"python -m posenc.figures failed:\n{err.decode()}"
    return {
        "a": dir_a,
        "b": dir_b,
        "paths_a": paths_a,
        "stdout_b": out.decode(),
        "titles": titles,
    }


STATIC = figures.names("static")
PHONE = figures.PHONE_SUFFIX
INTERACTIVE = figures.names("interactive")


def test_registry_holds_both_kinds_under_one_naming_rule():
    assert STATIC and INTERACTIVE, "no figures registered"
    for name in figures.names():
        module = figures.entry(name).builder.__module__.rsplit(".", 1)[-1]
        assert figures.NAME_RULE.match(name) and module.startswith(
            name.split("-")[1]
        ), name
    for name in INTERACTIVE:
        assert figures.entry(name).twin in STATIC, f"{name} has no static twin"
        assert figures.entry(name).description, (
            f"{name} has no description (aria-label)"
        )


def test_write_all_writes_every_figure_in_every_format(written):
    expected = {f"{name}.{fmt}" for name in STATIC for fmt in figures.FORMATS}
    expected |= {f"{name}{figures.PHONE_SUFFIX}" for name in STATIC}
    assert {p.name for p in written["paths_a"]} == expected
    assert len(written["paths_a"]) == len(expected)
    assert all(p.parent == written["a"] for p in written["paths_a"])
    assert {p.name for p in written["a"].iterdir()} == expected
    one_figure = {f"{CLI_FIGURE}.{fmt}" for fmt in figures.FORMATS} | {
        f"{CLI_FIGURE}{figures.PHONE_SUFFIX}"
    }
    # the command line writes the Chinese drawings too, into zh_CN/
    assert {p.name for p in written["b"].iterdir()} == one_figure | {"zh_CN"}
    assert {p.name for p in (written["b"] / "zh_CN").iterdir()} == one_figure


def test_written_files_are_byte_identical_between_runs(written):
    """The child process (another hash seed) wrote CLI_FIGURE's three files byte for byte."""
    differ = sorted(
        p.name
        for p in written["b"].iterdir()
        if p.is_file() and p.read_bytes() != (written["a"] / p.name).read_bytes()
    )
    assert not differ, f"not reproducible from run to run: {differ}"


def shown_by_the_book(built_site) -> dict[str, list[bytes]]:
    """{figure: [svg, ...]} as the build's kernels showed them: every static figure's output in
    the executed chapters (the pages' .ipynb downloads)."""
    import nbformat

    found: dict[str, list[bytes]] = {}
    for path in sorted((built_site / "_sources" / "book").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                shown = re.fullmatch(
                    r"<figure (fig-[\w-]+)>", data.get("text/plain", "")
                )
                if shown is not None:
                    svg = data["image/svg+xml"].encode("utf-8")
                    found.setdefault(shown.group(1), []).append(svg)
    return found


def test_the_book_shows_the_files_make_figures_writes(written, built_site):
    """Every static figure the chapters show is, byte for byte, the SVG that ``write_all``
    wrote here: the same figure in another process (each chapter's kernel, with its own hash
    seed), and the very file of `make figures`."""
    shown = shown_by_the_book(built_site)
    assert set(shown) == set(STATIC), (
        f"static figures no chapter shows: {sorted(set(STATIC) - set(shown))}"
    )
    differ = sorted(
        f"{name}.svg (shown {len(copies)} times)"
        for name, copies in shown.items()
        if any(copy != (written["a"] / f"{name}.svg").read_bytes() for copy in copies)
    )
    assert not differ, f"the book shows other bytes than make figures writes: {differ}"
    # and, on a phone, the figures drawn for phones (tools/extensions/phone_figures.py)
    served = {path.read_bytes() for path in (built_site / "_images").glob(f"*{PHONE}")}
    missing = sorted(
        name
        for name in STATIC
        if (written["a"] / f"{name}{PHONE}").read_bytes() not in served
    )
    assert not missing, f"the site serves no phone drawing of {missing}"


def test_the_site_serves_the_files_make_figures_writes(written, built_site):
    """Each static figure's file on the site (_images/) is, byte for byte, figures/NAME.svg."""
    served = {path.read_bytes() for path in (built_site / "_images").glob("*.svg")}
    missing = [
        name
        for name in STATIC
        if (written["a"] / f"{name}.svg").read_bytes() not in served
    ]
    assert not missing, (
        f"the site serves other bytes than make figures writes: {missing}"
    )


@pytest.mark.pdf
def test_the_print_edition_prints_the_files_make_figures_writes(written):
    """The print edition includes, for every static figure, the PDF `make figures` writes
    (tools/extensions/print_edition.py puts them beside the .tex file), and for an interactive
    figure its twin's: the notebooks carry SVG only."""
    latex = ROOT / "_build" / "latex"
    tex = (latex / "sinusoidal-position-encoding-derived.tex").read_text(
        encoding="utf-8"
    )
    included = set(
        re.findall(r"\\sphinxincludegraphics(?:\[[^\]]*\])?\{\{?(fig-[\w-]+)", tex)
    )
    assert included == set(STATIC), f"not printed: {sorted(set(STATIC) - included)}"
    differ = sorted(
        name
        for name in STATIC
        if (latex / f"{name}.pdf").read_bytes()
        != (written["a"] / f"{name}.pdf").read_bytes()
    )
    assert not differ, f"printed other bytes than make figures writes: {differ}"


@pytest.mark.parametrize("fmt", [*figures.FORMATS, "phone.svg"])
def test_written_files_have_right_format(written, fmt):
    for name in STATIC:
        data = (written["a"] / f"{name}.{fmt}").read_bytes()
        assert len(data) > 1000, f"{name}.{fmt} is (nearly) empty"
        if fmt == "pdf":
            assert data.startswith(b"%PDF-"), name
            assert data.rstrip().endswith(b"%%EOF"), name
        elif fmt == "png":
            assert data.startswith(PNG_SIGNATURE), name
        else:
            assert b"<svg" in data[:2000], name
            assert data.rstrip().endswith(b"</svg>"), name
            ET.fromstring(data)  # well-formed XML


SVG_LIMIT = 250_000  # bytes: dense layers are rasterised, so no page carries a huge SVG


def test_svg_files_are_at_most_250_kb(written):
    """Read from the files ``write_all`` wrote (the same bytes as ``render(name, "svg")``), so
    no figure is rendered an extra time."""
    sizes = {
        path.name: path.stat().st_size for path in sorted(written["a"].glob("*.svg"))
    }
    heavy = {
        name: f"{size // 1000} kB" for name, size in sizes.items() if size > SVG_LIMIT
    }
    assert not heavy, (
        f"SVG over {SVG_LIMIT // 1000} kB (rasterise dense layers): {heavy}"
    )


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    chunks, i = [], len(PNG_SIGNATURE)
    while i < len(data):
        (length,) = struct.unpack(">I", data[i : i + 4])
        chunks.append((data[i + 4 : i + 8], data[i + 8 : i + 8 + length]))
        i += 12 + length
    return chunks


def test_written_files_carry_no_dates_or_tool_versions(written):
    """Two runs within the same second would agree even with a timestamp inside; look for one."""
    for name in STATIC:
        pdf = (written["a"] / f"{name}.pdf").read_bytes()
        for key in (b"/CreationDate", b"/ModDate", b"/Producer", b"/Creator"):
            assert key not in pdf, f"{name}.pdf has {key.decode()}"
        png = png_chunks((written["a"] / f"{name}.png").read_bytes())
        assert png[0][0] == b"IHDR" and png[-1][0] == b"IEND", name
        assert b"tIME" not in {kind for kind, _ in png}, f"{name}.png has a tIME chunk"
        text_keys = {
            body.split(b"\0", 1)[0]
            for kind, body in png
            if kind in (b"tEXt", b"iTXt", b"zTXt")
        }
        assert not text_keys & {b"Software", b"Creation Time"}, (
            f"{name}.png has {text_keys}"
        )
        svg = (written["a"] / f"{name}.svg").read_text(encoding="utf-8")
        assert "<dc:date>" not in svg, f"{name}.svg has a date"
        assert "Matplotlib v" not in svg, f"{name}.svg names the Matplotlib version"


def test_cli_reports_what_it_wrote(written):
    assert "wrote 8 files for 1 figures" in written["stdout_b"]  # English and Chinese


def test_cli_rejects_unknown_figure(tmp_path, capsys):
    from posenc.figures.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "out"), "fig-not-a-figure"])
    assert exit_info.value.code != 0
    assert "fig-not-a-figure" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# --------------------------------------------------------------------------- show / build / render


@pytest.fixture(scope="module")
def rebuilt(written):
    """Every figure built a second time in this process (after ``write_all``), as SVG."""
    return {name: figures.render(name, "svg") for name in STATIC}


def test_a_figure_built_again_in_one_process_is_the_same(written, rebuilt):
    """A figure must not depend on what ran before it in the process (a module-level random
    generator, say): its second build gives the bytes of figures/NAME.svg again."""
    differ = sorted(
        name
        for name in STATIC
        if rebuilt[name] != (written["a"] / f"{name}.svg").read_bytes()
    )
    assert not differ, f"changed when built a second time: {differ}"


def test_show_displays_exactly_the_file_make_figures_writes(written):
    """What ``show`` gives a notebook (and so the site) is the very bytes of figures/NAME.svg
    (every figure: the chapters' outputs, compared in
    test_the_book_shows_the_files_make_figures_writes; here ``show`` itself, on one). It gives
    no PDF: the print edition renders its own (test_the_print_edition_prints_...)."""
    shown = figures.show(CLI_FIGURE)
    bundle = shown._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    assert (
        bundle["image/svg+xml"].encode("utf-8")
        == (written["a"] / f"{CLI_FIGURE}.svg").read_bytes()
    )
    assert shown._repr_svg_() == bundle["image/svg+xml"]
    assert repr(shown) == f"<figure {CLI_FIGURE}>"


def test_render_and_show_leave_no_figure_open():
    """Every render opens a pyplot figure; left open, they pile up (memory, and matplotlib's
    'more than 20 figures' RuntimeWarning, an error under filterwarnings=error, once write_all
    renders seven or more figures in one process)."""
    name = STATIC[0]
    plt.close("all")
    figures.show(name)
    assert plt.get_fignums() == [], "render()/show() leaves its pyplot figure open"


def test_figures_have_no_title(written):
    """Captions live in the book's cell metadata; a matplotlib title would duplicate them.
    The one exception is in a drawing for phones of a figure whose caption names its panels by
    place: its stacked panels are headed "Left", ("Middle",) "Right" at the left, the words
    the caption uses (test_a_caption_naming_panels_by_place_gets_them_headed_on_phones).
    (Checked on the Figures that ``write_all`` built, see the ``written`` fixture: each figure
    and its drawing for phones.)"""
    titles = written["titles"]
    assert set(titles) == set(STATIC) | {f"{name}{PHONE}" for name in STATIC}
    for name, seen in titles.items():
        assert seen["suptitle"] == "", name
        assert not seen["texts"], name
        headings = seen["axes"][0::3]  # left, centre and right title of each axes
        others = seen["axes"][1::3] + seen["axes"][2::3]
        assert all(title == "" for title in others), f"{name} has an axes title"
        figure = name.removesuffix(PHONE)
        if name.endswith(PHONE) and figures.entry(figure).panels_by_place:
            named = [title for title in headings if title]  # (not a colour bar's)
            places = figures.PLACES.get(len(named))
            assert places and named == list(places), f"{name}: panels headed {headings}"
        else:
            assert all(title == "" for title in headings), f"{name} has an axes title"


CAPTION_NAMING_PANELS_BY_PLACE = re.compile(r"\bLeft\b")


def test_a_caption_naming_panels_by_place_gets_them_headed_on_phones(book_cells):
    """A phone stacks a row of panels, so a caption's "Left: ... Right: ..." would point at
    nothing: exactly the figures whose captions name their panels by place are registered with
    ``panels_by_place`` (and their drawing for phones heads the panels with those words, see
    test_figures_have_no_title), and an alt text says "Left" only of such a figure. Negative
    control: a figure that names its panels by place but has no row to stack fails to build
    for phones."""
    by_place, alt_by_place = set(), set()
    for _, name, mystnb, _ in book_cells:
        if name in STATIC:
            if CAPTION_NAMING_PANELS_BY_PLACE.search(mystnb["figure"]["caption"]):
                by_place.add(name)
            if CAPTION_NAMING_PANELS_BY_PLACE.search(mystnb.get("image", {}).get("alt", "")):
                alt_by_place.add(name)
    registered = {name for name in STATIC if figures.entry(name).panels_by_place}
    assert len(by_place) >= 20
    assert by_place == registered, (
        f"captions name panels by place: {sorted(by_place - registered)} not registered "
        f"with panels_by_place; {sorted(registered - by_place)} registered, caption does not"
    )
    assert alt_by_place <= registered, (
        f"alt texts name panels by place: {sorted(alt_by_place - registered)} not registered "
        "with panels_by_place"
    )
    from posenc.figures import ch02_taylor_expansion

    def one_panel():
        return plt.subplots(figsize=(8, 3))[0]

    one_panel.__module__ = ch02_taylor_expansion.__name__
    figures.figure("fig-ch02-one-panel-by-place", panels_by_place=True)(one_panel)
    try:
        assert figures.build("fig-ch02-one-panel-by-place").axes  # wide: as ever
        with pytest.raises(ValueError, match="panels_by_place"):
            figures.build("fig-ch02-one-panel-by-place", phone=True)
    finally:
        del figures._REGISTRY["fig-ch02-one-panel-by-place"]
        plt.close("all")


# "(left)", "the right column", "the left one": a caption or an alt text pointing at a panel
# by place in passing
PLACE_IN_PASSING = re.compile(
    r"\((?:left|middle|right)\b|\b(?:left|middle|right)\s+(?:panel|column|map|one)s?\b", re.I
)


def _panels_side_by_side(fig) -> bool:
    """Whether two of the figure's panels share a row. A colour bar is not a panel: matplotlib
    marks the axes it draws one in (``_colorbar``), whether it made them or was given them."""
    panels = [ax for ax in fig.axes if getattr(ax, "_colorbar", None) is None]
    boxes = [ax.get_position() for ax in panels]
    return any(
        a.x1 <= b.x0 and min(a.y1, b.y1) > max(a.y0, b.y0)
        for a in boxes
        for b in boxes
    )


def test_a_caption_or_alt_text_pointing_at_a_panel_in_passing_is_true_on_phones(book_cells):
    """Unless its figure is registered ``panels_by_place`` (whose stacked panels are headed
    "Left", "Right" on a phone), a caption or an alt text may say "(left)", "the right column"
    or "the left one" only of a figure whose drawing for phones still sets panels side by
    side (a grid of rows keeps its columns); of a stacked row it would point at nothing (it
    did, for T5's buckets and the two layouts of appendix C). The alt texts are read: some
    figure (today T5's Toeplitz figure and ch03's Gram) is found through its alt text alone.
    Negative control: a stacked row has no panels side by side (and the pattern is checked on
    the caption T5's buckets had)."""
    pointing = {
        name
        for _, name, mystnb, _ in book_cells
        if name in STATIC
        and PLACE_IN_PASSING.search(
            mystnb["figure"]["caption"] + " " + mystnb.get("image", {}).get("alt", "")
        )
    }
    # some figure is found through its alt text alone, so the alt texts are read
    by_caption_alone = {
        name
        for _, name, mystnb, _ in book_cells
        if name in STATIC and PLACE_IN_PASSING.search(mystnb["figure"]["caption"])
    }
    assert pointing - by_caption_alone, "no figure is found through its alt text alone"
    in_passing = {name for name in pointing if not figures.entry(name).panels_by_place}
    assert "fig-ch01-attention" in in_passing  # (left), (middle), the right column
    try:
        for name in sorted(in_passing):
            assert _panels_side_by_side(figures.build(name, phone=True)), (
                f"{name}'s caption or alt text points at panels by place, but its drawing "
                "for phones stacks them: name them by what they show, or register "
                "panels_by_place"
            )
        assert PLACE_IN_PASSING.search("bidirectional (left) and unidirectional (right)")
        assert PLACE_IN_PASSING.search("The left one is speckled noise")
        assert PLACE_IN_PASSING.search("the left and right panels")  # plurals too
        assert PLACE_IN_PASSING.search("the right columns")
        assert PLACE_IN_PASSING.search("the left\npanel")  # a caption keeps its line breaks
        assert not PLACE_IN_PASSING.search("constant columns on the right")
        assert _panels_side_by_side(figures.build("fig-ch15-length"))
        assert not _panels_side_by_side(figures.build("fig-ch15-length", phone=True))
        # two stacked panels beside a colour bar drawn in axes of its own (cax=) are stacked
        fig = plt.figure()
        grid = fig.add_gridspec(2, 2, width_ratios=[1, 0.05])
        image = fig.add_subplot(grid[0, 0]).imshow([[0, 1]])
        fig.add_subplot(grid[1, 0])
        fig.colorbar(image, cax=fig.add_subplot(grid[:, 1]))
        assert not _panels_side_by_side(fig)
    finally:
        plt.close("all")


def test_build_unknown_name_raises():
    with pytest.raises(ValueError, match=r"\bname\b.*'not-a-figure'"):
        figures.build("not-a-figure")
    with pytest.raises(ValueError, match=r"\bname\b"):
        figures.render("not-a-figure", "svg")
    with pytest.raises(ValueError, match=r"\bname\b"):
        figures.show("fig-not-registered")


def test_render_unknown_format_raises():
    with pytest.raises(ValueError, match=r"\bfmt\b"):
        figures.render(STATIC[0], "jpg")
    with pytest.raises(ValueError, match=r"\bname\b.*interactive"):
        figures.render(INTERACTIVE[0], "svg")


@pytest.mark.parametrize(
    "bad",
    [
        "pe-heatmap",
        "Fig-x",
        "",
        "figure-x",
        "fig-heatmap",
        "fig-ch4-heatmap",
        "fig-ch04-Heat_map",
        "fig-ch04-",
    ],
)
def test_register_name_breaking_the_rule_raises(bad):
    before = figures.names()
    with pytest.raises(ValueError, match="fig-chNN"):
        figures.figure(bad)(lambda: None)
    assert figures.names() == before


def test_register_name_of_another_chapter_raises():
    """A builder in ch05_decay_integral.py cannot register a fig-ch06 name."""
    from posenc.figures import ch05_decay_integral

    def builder():
        return None

    builder.__module__ = ch05_decay_integral.__name__
    before = figures.names()
    with pytest.raises(ValueError, match="fig-ch05-"):
        figures.figure("fig-ch06-borrowed")(builder)
    assert figures.names() == before


@pytest.mark.parametrize("kind", ["static", "interactive"])
def test_register_same_name_twice_raises_across_kinds(kind):
    """Static and interactive figures share one registry: a name is unique across both."""
    before = figures.names()
    for name in (STATIC[0], INTERACTIVE[0]):
        register = (
            figures.figure(name)
            if kind == "static"
            else figures.interactive_figure(name, "a description", twin=STATIC[0])
        )
        with pytest.raises(ValueError, match="twice"):
            register(lambda: None)
    assert figures.names() == before


# --------------------------------------------------------------------------- the book


def myst_notebooks() -> list[Path]:
    paths = []
    for path in sorted(BOOK.rglob("*.md")):
        if any(
            part.startswith((".", "_")) for part in path.relative_to(BOOK).parts[:-1]
        ):
            continue
        nb = read_chapter(path)
        fmt = (
            nb.metadata.get("jupytext", {})
            .get("text_representation", {})
            .get("format_name")
        )
        if fmt == "myst":
            paths.append(path)
    return paths


def figure_cells():
    """(where, figure name or None, metadata, source) for every code cell of every chapter."""
    cells = []
    for path in myst_notebooks():
        nb = read_chapter(path)
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            where = f"{path.relative_to(ROOT)} cell {index}"
            mystnb = cell.metadata.get("mystnb", {})
            name = mystnb.get("figure", {}).get("name")
            cells.append((where, name, mystnb, cell.source))
    return cells


@pytest.fixture(scope="module")
def book_cells():
    return figure_cells()


def test_book_has_notebooks():
    assert BOOK.is_dir(), f"no book folder at {BOOK}"
    assert myst_notebooks(), f"no MyST notebooks in {BOOK}"


def test_show_calls_match_their_cells(book_cells):
    problems = []
    for where, name, _, source in book_cells:
        calls = SHOW_CALL.findall(source)
        shown = [m.group("name") for m in SHOW_LITERAL.finditer(source)]
        if len(calls) != len(shown):
            problems.append(
                f"{where}: show() must be called with a literal figure name"
            )
        if name is None:
            if shown:
                problems.append(
                    f"{where}: show({shown}) in a cell without mystnb.figure.name"
                )
        elif shown != [name]:
            problems.append(
                f"{where}: figure cell {name!r} must call show({name!r}) once, "
                f"calls show() with {shown}"
            )
    assert not problems, "\n".join(problems)


def test_each_figure_named_once_in_book(book_cells):
    counts = Counter(name for _, name, _, _ in book_cells if name is not None)
    twice = sorted(name for name, n in counts.items() if n > 1)
    assert not twice, f"figures named in more than one cell: {twice}"


def test_registered_figures_equal_figures_in_book(book_cells):
    in_book = {name for _, name, _, _ in book_cells if name is not None}
    registered = set(figures.names())
    not_registered = sorted(in_book - registered)
    not_shown = sorted(registered - in_book)
    assert not not_registered and not not_shown, (
        f"named in the book but not registered in posenc.figures: {not_registered}; "
        f"registered but never shown in the book: {not_shown}"
    )


def test_figure_cells_have_caption_and_alt_text(book_cells):
    """Every figure has a caption; a static figure's alt text is in the cell, an interactive
    figure's is its registered description (the element's aria-label)."""
    problems = []
    for where, name, mystnb, _ in book_cells:
        if name is None:
            continue
        caption = mystnb.get("figure", {}).get("caption")
        alt = mystnb.get("image", {}).get("alt")
        if not isinstance(caption, str) or not caption.strip():
            problems.append(f"{where} ({name}): no caption (mystnb.figure.caption)")
        if name in STATIC and (not isinstance(alt, str) or not alt.strip()):
            problems.append(f"{where} ({name}): no alt text (mystnb.image.alt)")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- interactive twins


@pytest.mark.parametrize("name", INTERACTIVE)
def test_interactive_figure_carries_its_data_compactly(name):
    """Slider steps hold precomputed data for every value; numbers are rounded; the HTML is a
    marked div with an accessible label and a script that draws it with the site's Plotly."""
    from posenc.figures import _plotly as interactive

    shown = figures.show(name)
    spec = shown.spec()
    (slider,) = spec["layout"]["sliders"]
    (menu,) = spec["layout"]["updatemenus"]
    assert len(slider["steps"]) >= 5 and len(menu["buttons"]) >= 3
    first, last = (
        slider["steps"][0]["args"][0]["y"],
        slider["steps"][-1]["args"][0]["y"],
    )
    assert first != last, "slider steps carry the same data"
    visible = [button["args"][0]["visible"] for button in menu["buttons"]]
    assert all(len(v) == len(spec["data"]) for v in visible) and len(
        {str(v) for v in visible}
    ) == len(visible)
    numbers = [v for step in slider["steps"] for y in step["args"][0]["y"] for v in y]
    assert all(
        v is None or float(f"{v:.{interactive.SIGNIFICANT}g}") == v for v in numbers
    )
    page = shown._repr_html_()
    assert f'class="{interactive.MARKER}"' in page and 'aria-label="' in page
    assert "Plotly.newPlot" in page and "http" not in page.split("<script>")[0]
    assert len(page) < 150_000, f"{name}: {len(page) // 1024} KB of HTML"


def test_interactive_figure_bundle_for_jupyter_and_for_the_site(monkeypatch):
    """JupyterLab gets Plotly's mime type (its renderer ships with plotly); the book build, which
    sets POSENC_HTML_ONLY, gets the HTML alone."""
    from posenc.figures import _plotly as interactive

    shown = figures.show(INTERACTIVE[0])
    monkeypatch.delenv(interactive.HTML_ONLY_VARIABLE, raising=False)
    assert {"text/html", interactive.PLOTLY_MIME} <= set(shown._repr_mimebundle_())
    monkeypatch.setenv(interactive.HTML_ONLY_VARIABLE, "1")
    assert interactive.PLOTLY_MIME not in shown._repr_mimebundle_()
