"""Every page runs as it is shown: the code a reader sees on a built page (open or folded,
in page order), copied into a fresh Python in an empty folder, runs; each exercise solution
runs after the cells before it. A page may not lean on code it removes (imports or names set in
a `remove-cell` cell): a reader who copies the page could not run it.

The pages are read as a reader reads them, from the built HTML of the English edition (the
Chinese shows the same code). The code runs in plain Python (not IPython), as pasted into
`python`: `checks.watch`, which turns on the book's verdicts and negative controls in a
notebook, is the build's business and stays in a removed cell.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from support.book import ROOT, toc_files

pytestmark = pytest.mark.site

# Executes the cells of one page (a JSON list of [kind, source]) in one namespace, in order;
# a solution runs in a copy of the namespace, so that no later cell can lean on it. The first
# failure is reported with its cell and ends the run.
RUNNER = """
import json, sys, traceback
import matplotlib
matplotlib.use("Agg")
cells = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__main__"}
for number, (kind, source) in enumerate(cells, start=1):
    scope = dict(namespace) if kind == "solution" else namespace
    try:
        exec(compile(source, f"<{kind} cell {number}>", "exec"), scope)
    except BaseException:
        print(f"{kind} cell {number} failed:\\n{source}\\n", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def shown_code(page) -> list[tuple[str, str]]:
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


PAGES = [
    path.relative_to(ROOT).with_suffix(".html").as_posix()
    for path in toc_files()
    if path.stem.startswith(("ch", "appendix"))
]


def test_every_page_runs_as_shown(built_site, tmp_path):
    """Each page's shown code, run in a fresh Python from an empty folder (two at a time)."""
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER, encoding="utf-8")
    runs, failed = [], []
    for page in PAGES:
        cells = shown_code(built_site / page)
        if not cells:
            continue
        folder = tmp_path / page.replace("/", "-")
        folder.mkdir()
        (folder / "cells.json").write_text(json.dumps(cells), encoding="utf-8")
        while sum(run.poll() is None for _, run, _ in runs) >= 2:
            time.sleep(0.2)
        log = (folder / "log").open("w")
        command = [sys.executable, str(runner), "cells.json"]
        runs.append((page, subprocess.Popen(command, cwd=folder, stderr=log), log))
    for page, run, log in runs:
        status = run.wait(timeout=900)
        log.close()
        if status != 0:
            log_text = (tmp_path / page.replace("/", "-") / "log").read_text()
            failed.append(f"{page}: {log_text[-1500:]}")
    assert len(runs) >= 14, f"only {len(runs)} pages show code"
    assert not failed, f"{len(failed)} pages do not run as shown:\n\n" + "\n\n".join(failed)


def test_the_runner_sees_what_a_reader_sees(tmp_path):
    """Negative control: a page whose shown code leans on a removed cell fails; folded code and
    the cells before a solution count, the solution's own names do not reach later cells."""
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
    cells = shown_code(page)
    assert cells == [("main", "x = 1"), ("solution", "y = x + 1"), ("main", "z = x + y")]
    (tmp_path / "runner.py").write_text(RUNNER)
    (tmp_path / "cells.json").write_text(json.dumps(cells))
    result = subprocess.run(
        [sys.executable, "runner.py", "cells.json"], cwd=tmp_path, capture_output=True
    )
    assert result.returncode == 1 and b"main cell 3 failed" in result.stderr
    (tmp_path / "cells.json").write_text(json.dumps(cells[:2]))
    result = subprocess.run([sys.executable, "runner.py", "cells.json"], cwd=tmp_path)
    assert result.returncode == 0
