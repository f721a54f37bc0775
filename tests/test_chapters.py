"""What the build executed, and the explorer cells it skips.

The strict build executes each chapter once, top to bottom in a fresh kernel (MyST-NB
through its cache), and tools/extensions/notebook_downloads.py writes the executed notebook
that the page's download button offers: the chapter read with jupytext (as JupyterLab reads
it) with the cached outputs merged in. These tests read that notebook rather than executing
every chapter a second time: each code cell ran once, in order, in a kernel whose count
started at 1; no cell failed or wrote to stderr; the notebook is valid and holds the code
cells of the current source.

The Jupyter-only explorer cells (ipywidgets, `make lab`) carry `skip-execution`, so the
build does not run them; they run here against a stand-in for ipywidgets that calls each
explorer's drawing function once with its widgets' initial values.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import jupytext
import matplotlib.pyplot as plt
import nbformat
import pytest
from support.book import ROOT, built_page, is_notebook, read_chapter, toc_files

CHAPTERS = [path for path in toc_files() if is_notebook(path)]
SKIP = "skip-execution"


def code_cells(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def explorer_cells() -> list[tuple[str, str, list[str]]]:
    """(chapter name, source, tags) of every code cell the build skips."""
    return [
        (path.name, cell.source, cell.metadata["tags"])
        for path in CHAPTERS
        for cell in code_cells(read_chapter(path))
        if SKIP in cell.metadata.get("tags", [])
    ]


EXPLORERS = explorer_cells()


def test_the_book_has_chapters():
    assert CHAPTERS, "the table of contents names no notebook chapter"


def offered_notebook(site: Path, chapter: Path) -> Path | None:
    """The .ipynb that the chapter's page offers for download (None: it offers none)."""
    page = site / chapter.relative_to(ROOT).with_suffix(".html")
    links = [
        a["href"]
        for a in built_page(page).find_all("a", href=True)
        if a["href"].endswith(".ipynb")
    ]
    return (page.parent / links[0]).resolve() if links else None


def runs_in_a_clone_only(chapter: Path) -> bool:
    """Its front matter says its code needs the repository: the site does not offer it."""
    return (
        read_chapter(chapter).metadata.get("posenc", {}).get("offer_notebook") is False
    )


def executed_in_the_cache(chapter: Path):
    """The chapter as the build executed it, from the execution cache."""
    from jupyter_cache import get_cache

    cache = get_cache(str(ROOT / "_build" / ".jupyter_cache"))
    return cache.merge_match_into_notebook(jupytext.read(chapter))[1]


REMOVED = "remove-cell"


@pytest.mark.site
@pytest.mark.parametrize("chapter", CHAPTERS, ids=[path.stem for path in CHAPTERS])
def test_every_chapter_executed_once_in_order(chapter, built_site):
    """The build executed every cell of the chapter (the current source's), top to bottom, in
    one fresh kernel, each cell once, without an error or output on stderr."""
    cells = code_cells(executed_in_the_cache(chapter))
    source = [cell.source for cell in code_cells(read_chapter(chapter))]
    assert [cell.source for cell in cells] == source, f"{chapter.name}: run `make book`"
    ran, problems = [], []
    for number, cell in enumerate(cells, start=1):
        where = f"{chapter.name} code cell {number}"
        if SKIP in cell.metadata.get("tags", []) or not cell.source.strip():
            if cell.get("execution_count") is not None or cell.outputs:
                problems.append(f"{where} should not have run")
            continue
        if not isinstance(cell.get("execution_count"), int):
            problems.append(f"{where} did not run")
            continue
        ran.append(cell.execution_count)
        problems += [
            f"{where}: {output.get('ename')}: {output.get('evalue')}"
            for output in cell.outputs
            if output.output_type == "error"
        ]
        problems += [
            f"{where} wrote to stderr: {output.get('text', '')[:300]!r}"
            for output in cell.outputs
            if output.output_type == "stream" and output.get("name") == "stderr"
        ]
    assert not problems, "\n".join(problems)
    assert ran == list(range(1, len(ran) + 1)), f"execution counts {ran}"


@pytest.mark.site
@pytest.mark.parametrize("chapter", CHAPTERS, ids=[path.stem for path in CHAPTERS])
def test_the_page_offers_the_executed_chapter(chapter, built_site):
    """The page offers the executed chapter, unless its code runs only in a clone: a valid
    notebook, the same file from every build (cells numbered, not jupytext's random ids), with
    the chapter's code but the cells the page removes (the build's own), as executed, and the
    live explorers, unexecuted, for Jupyter (`make lab` opens these notebooks)."""
    executed = offered_notebook(built_site, chapter)
    if runs_in_a_clone_only(chapter):
        assert executed is None, f"{chapter.name} runs in a clone only, yet is offered"
        return
    assert executed is not None, f"{chapter.name}'s page offers no .ipynb download"
    assert executed.is_file(), (
        f"{chapter.name}'s page offers {executed}, which is missing"
    )
    notebook = nbformat.read(executed, as_version=4)
    nbformat.validate(notebook)
    ids = [cell.get("id") for cell in notebook.cells]
    assert ids == [f"cell-{n}" for n in range(1, len(ids) + 1)], f"cell ids: {ids[:4]}"
    kept = [
        cell
        for cell in code_cells(executed_in_the_cache(chapter))
        if REMOVED not in (tags := cell.metadata.get("tags", [])) or SKIP in tags
    ]
    offered = code_cells(notebook)
    assert [c.source for c in offered] == [c.source for c in kept], (
        f"{executed.name} does not hold the shown code of {chapter.name}"
    )
    assert [c.get("execution_count") for c in offered] == [
        c.get("execution_count") for c in kept
    ]


# --------------------------------------------------------------------------- the
# explorers


def test_only_jupyter_explorers_skip_execution():
    """`skip-execution` is for the ipywidgets explorers alone (removed from the pages),
    never a way around a cell that fails in the build."""
    assert EXPLORERS, "no explorer cell found: the tag or the chapters changed"
    for chapter, source, tags in EXPLORERS:
        assert "remove-cell" in tags, (
            f"{chapter}: a skipped cell shown on the page: {tags}"
        )
        assert "explore_" in source, (
            f"{chapter}: a skipped cell that is no explorer:\n{source}"
        )


class _Widget:
    """Stands in for any ipywidgets widget: keeps its arguments; its value is the
    initial one."""

    def __init__(self, *args, **kwargs):
        self.kwargs = kwargs
        self.value = kwargs.get("value", (kwargs.get("options") or [None])[0])


def fake_ipywidgets() -> types.ModuleType:
    module = types.ModuleType("ipywidgets")

    def interactive(function, **widgets):
        values = {
            name: getattr(widget, "value", widget) for name, widget in widgets.items()
        }
        result = _Widget(value=function(**values))
        result.kwargs = widgets
        return result

    module.interactive = module.interact = interactive
    module.__getattr__ = lambda name: (
        _Widget
    )  # FloatLogSlider, IntSlider, Dropdown, ...
    return module


@pytest.mark.parametrize(
    "chapter, source",
    [cell[:2] for cell in EXPLORERS],
    ids=[cell[0] for cell in EXPLORERS],
)
def test_explorer_cell_draws_its_figure(chapter, source, monkeypatch):
    drawn = []
    monkeypatch.setitem(sys.modules, "ipywidgets", fake_ipywidgets())
    monkeypatch.setattr(plt, "show", lambda *args, **kwargs: drawn.append(plt.gcf()))
    try:
        exec(
            compile(source, f"{chapter} (explorer cell)", "exec"),
            {"__name__": "__main__"},
        )
    finally:
        plt.close("all")
    assert len(drawn) == 1, f"{chapter}: the explorer drew {len(drawn)} figures"
    lines = [line for ax in drawn[0].axes for line in ax.lines if len(line.get_xdata())]
    assert len(lines) >= 2, f"{chapter}: the explorer drew {len(lines)} curves"


# a role of the book's prose as written in book/*.md, which only the build can resolve
UNRESOLVED_ROLE = re.compile(r"\{(glue(:\w+)?|numref|ref|prf:ref|cite(:\w)?|doc|eq)\}`")


@pytest.mark.site
def test_the_offered_notebooks_read_like_the_page(built_site):
    """The offered notebooks' text shows what the page shows: no glued number as its key, no
    reference, citation or figure number as a role (JupyterLab showed "ch05_I_1e5:.4f" and
    "⚠ label"), but the number and a link to the site."""
    offered = [offered_notebook(built_site, c) for c in CHAPTERS]
    offered = [path for path in offered if path is not None]
    assert len(offered) >= 18
    left = {}
    for path in offered:
        notebook = nbformat.read(path, as_version=4)
        text = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
        if found := UNRESOLVED_ROLE.findall(text):
            left[path.name] = sorted({role for role, *_ in found})
        assert "as the book's build executed it" in notebook.cells[0].source
    assert not left, f"roles the notebooks show as written: {left}"
    ch05 = nbformat.read(
        offered_notebook(built_site, ROOT / "book/ch05-decay-integral.md"), 4
    )
    text = "\n".join(c.source for c in ch05.cells if c.cell_type == "markdown")
    assert (
        "[Proposition 5.5](../../book/ch05-decay-integral.html#prop-ch05-log-regime)"
        in text
    )
    assert re.search(
        r"\(\[Vaswani et al\. 2017\]\(\.\./\.\./book/bibliography\.html#\w+\)\)", text
    )
