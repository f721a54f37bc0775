"""Benchmark: what the strict build costs on top of executing the chapters.

In one folder holding a throw-away copy of the committed book (bench/run.py makes it with
`git archive HEAD`, so that work in progress does not skew the numbers):
1. a clean strict build (`jupyter-book build -W -n --keep-going`, empty cache);
2. executing the same chapters alone with nbclient, one fresh kernel each;
3. a no-op rebuild;
4. a rebuild after editing one code cell of one chapter (only that chapter may re-execute).
Per chapter, the execution time inside the build is read from the execution cache.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import yaml
from nbclient import NotebookClient

TITLE = "Build times"
ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
FLAGS = ["--builder", "html", "-W", "-n", "--keep-going"]
TARGETS = {"overhead": 0.25, "noop_fraction": 0.10}
DOMINANT = 0.30  # a chapter taking more than this share of the execution dominates the build


def copy_committed(destination: Path) -> None:
    """The book as committed (HEAD) into ``destination``."""
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(destination)], input=archive.stdout, check=True)


def pages(book: Path) -> list[str]:
    """Every docname of the table of contents, in order ("book/ch01-symmetry", ...)."""
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    return [toc["root"]] + [c["file"] for part in toc.get("parts", []) for c in part["chapters"]]


def chapters(book: Path) -> list[Path]:
    paths = [book / f"{name}.md" for name in pages(book)]
    return [p for p in paths if "kernelspec:" in p.read_text()[:600]]


@contextlib.contextmanager
def library_of(book: Path):
    """Builds and kernels import the copy's own posenc, not the editable install."""
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(book / "src")
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def timed_build(book: Path) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run([str(JUPYTER_BOOK), "build", str(book), *FLAGS],
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed, result.stdout


def executed_in(log: str) -> list[str]:
    """Pages MyST-NB executed (rather than took from the cache) in a build log."""
    return sorted(set(re.findall(r"([\w.-]+)\.md: Executing notebook", log)))


def execute_alone(paths: list[Path]) -> dict[str, float]:
    seconds = {}
    for path in paths:
        notebook = jupytext.read(path)
        start = time.perf_counter()
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        seconds[path.stem] = time.perf_counter() - start
    return seconds


def build_runtimes(book: Path) -> dict[str, float]:
    """Seconds each chapter took to execute inside the build, as the cache recorded them."""
    from jupyter_cache import get_cache

    cache = get_cache(str(book / "_build" / ".jupyter_cache"))
    return {Path(record.uri).stem: float(record.data.get("execution_seconds") or 0.0)
            for record in cache.list_cache_records() if record.uri}


def edit_one_cell(path: Path) -> None:
    """Append a harmless statement to the first code cell (a change the cache sees)."""
    notebook = jupytext.read(path)
    cell = next(c for c in notebook.cells if c.cell_type == "code")
    cell.source += "\n_bench_edit = 1  # edited by bench/build_times.py"
    jupytext.write(notebook, path, fmt="md:myst")


def measure(book: Path) -> dict:
    """Run the four measurements on the copy of the book in ``book`` (left built there)."""
    with library_of(book):
        paths = chapters(book)
        clean, _ = timed_build(book)
        in_build = build_runtimes(book)
        alone = execute_alone(paths)
        noop, noop_log = timed_build(book)
        edited = paths[-1]
        edit_one_cell(edited)
        after_edit, edit_log = timed_build(book)
    total = sum(alone.values())
    slowest = max(alone, key=alone.get)
    r = {
        "chapters": [p.stem for p in paths],
        "clean_build_seconds": clean,
        "execution_alone_seconds": total,
        "execution_alone_per_chapter": alone,
        "execution_in_build_per_chapter": in_build,
        "overhead_fraction": clean / total - 1,
        "noop_rebuild_seconds": noop,
        "noop_fraction": noop / clean,
        "noop_reexecuted": executed_in(noop_log),
        "edited_chapter": edited.stem,
        "rebuild_after_edit_seconds": after_edit,
        "reexecuted_after_edit": executed_in(edit_log),
        "slowest_chapter": slowest,
        "slowest_chapter_share": alone[slowest] / total,
    }
    r["targets"] = {
        "clean build <= 1.25 x executing the chapters alone":
            r["overhead_fraction"] <= TARGETS["overhead"],
        "no-op rebuild <= 10 % of a clean build": r["noop_fraction"] <= TARGETS["noop_fraction"],
        "no-op rebuild executes nothing": not r["noop_reexecuted"],
        "after editing one cell only that chapter re-executes":
            r["reexecuted_after_edit"] == [edited.stem],
    }
    return r


def markdown(r: dict) -> str:
    lines = ["| measurement | seconds |", "|---|---:|",
             f"| clean strict build | {r['clean_build_seconds']:.1f} |",
             f"| executing the {len(r['chapters'])} notebook pages alone (nbclient) | "
             f"{r['execution_alone_seconds']:.1f} |",
             f"| no-op rebuild | {r['noop_rebuild_seconds']:.1f} |",
             f"| rebuild after editing one cell of {r['edited_chapter']} | "
             f"{r['rebuild_after_edit_seconds']:.1f} |", "",
             f"- build overhead over pure execution: {100 * r['overhead_fraction']:.0f} % "
             f"(target ≤ 25 %)",
             f"- no-op rebuild: {100 * r['noop_fraction']:.0f} % of a clean build (target ≤ 10 %); "
             f"re-executed: {', '.join(r['noop_reexecuted']) or 'nothing'}",
             f"- after the edit, re-executed: {', '.join(r['reexecuted_after_edit']) or 'nothing'}",
             f"- slowest chapter: {r['slowest_chapter']} "
             f"({100 * r['slowest_chapter_share']:.0f} % of the execution time"
             + ("; it dominates the build)" if r["slowest_chapter_share"] > DOMINANT else ")")]
    return "\n".join(lines) + "\n"
