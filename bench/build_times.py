"""Benchmark: what the strict build costs on top of executing the chapters.

In one folder holding a throw-away copy of the committed book (bench/run.py makes it
with `git archive HEAD`, so that work in progress does not skew the numbers):
1. a clean strict build (`jupyter-book build -W -n --keep-going`, empty cache);
2. executing the same chapters alone with nbclient, one fresh kernel each;
3. a no-op rebuild;
4. a rebuild after editing one code cell of one chapter (only that chapter may
   re-execute).
Per chapter, the execution time inside the build is read from the execution cache.
Each build is the command `make book` runs, in a new process.
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

ROOT = Path(__file__).resolve().parents[1]
STRICT_BUILD = [
    "jupyter-book",
    "build",
    ".",
    "--builder",
    "html",
    "-W",
    "-n",
    "--keep-going",
]
TITLE = "Build times"
TARGETS = {"overhead": 0.25, "noop_fraction": 0.10, "chapter_seconds": 60.0}
# a chapter taking more than this share of the execution dominates the build
DOMINANT = 0.30


def copy_committed(destination: Path) -> None:
    """The book as committed (HEAD) into ``destination``."""
    archive = subprocess.run(
        ["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(
        ["tar", "-x", "-C", str(destination)], input=archive.stdout, check=True
    )


def pages(book: Path) -> list[str]:
    """Every docname of the table of contents, in order ("book/ch01-symmetry", ...)."""
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    chapters = [c["file"] for part in toc.get("parts", []) for c in part["chapters"]]
    return [toc["root"], *chapters]


def notebooks(book: Path) -> list[Path]:
    """The pages that are notebooks (a jupytext header with a kernelspec)."""
    paths = [book / f"{page}.md" for page in pages(book)]
    return [p for p in paths if "kernelspec:" in p.read_text(encoding="utf-8")[:600]]


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
    jupyter_book = Path(sys.executable).parent / STRICT_BUILD[0]
    result = subprocess.run(
        [str(jupyter_book), *STRICT_BUILD[1:]],
        cwd=book,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, result.stdout + result.stderr


def executed_in(log: str) -> list[str]:
    """Pages the build executed (rather than took from the cache), as its log says:
    jupyter-cache's executor, or MyST-NB itself."""
    found = re.findall(
        r"Executing: \S*/([\w.-]+)\.md|([\w.-]+)\.md: Executing notebook", log
    )
    return sorted({a or b for a, b in found})


def execute_alone(paths: list[Path]) -> dict[str, float]:
    """Seconds each chapter takes in a fresh kernel of its own, outside the build."""
    seconds = {}
    for path in paths:
        notebook = jupytext.read(path)
        start = time.perf_counter()
        resources = {"metadata": {"path": str(path.parent)}}
        client = NotebookClient(
            notebook, timeout=600, kernel_name="python3", resources=resources
        )
        client.execute()
        seconds[path.stem] = time.perf_counter() - start
    return seconds


def build_runtimes(book: Path) -> dict[str, float]:
    """Seconds each chapter took to execute inside the build, as the cache recorded
    them."""
    from jupyter_cache import get_cache

    cache = get_cache(str(book / "_build" / ".jupyter_cache"))
    return {
        Path(record.uri).stem: float(record.data.get("execution_seconds") or 0.0)
        for record in cache.list_cache_records()
        if record.uri
    }


def edit_one_cell(path: Path) -> None:
    """Append a harmless statement to the first code cell (a change the cache sees)."""
    notebook = jupytext.read(path)
    cell = next(c for c in notebook.cells if c.cell_type == "code")
    cell.source += "\n_bench_edit = 1  # edited by bench/build_times.py"
    jupytext.write(notebook, path, fmt="md:myst")


def measure(book: Path) -> dict:
    """Run the measurements on the copy of the book in ``book`` (left built there)."""
    with library_of(book):
        paths = notebooks(book)
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
        "slowest_chapter_seconds": alone[slowest],
        "slowest_chapter_share": alone[slowest] / total,
    }
    met = {
        "clean build <= 1.25 x executing the chapters alone": (
            r["overhead_fraction"] <= TARGETS["overhead"]
        ),
        "no-op rebuild <= 10 % of a clean build": (
            r["noop_fraction"] <= TARGETS["noop_fraction"]
        ),
        "no-op rebuild executes nothing": not r["noop_reexecuted"],
        "after editing one cell only that chapter re-executes": (
            r["reexecuted_after_edit"] == [edited.stem]
        ),
        # chapter 13, the slowest, once asserted this on itself
        "every chapter executes alone in <= 60 s": (
            r["slowest_chapter_seconds"] <= TARGETS["chapter_seconds"]
        ),
    }
    r["targets"] = met
    return r


def markdown(r: dict) -> str:
    dominates = r["slowest_chapter_share"] > DOMINANT
    lines = [
        "| measurement | seconds |",
        "|---|---:|",
        f"| clean strict build | {r['clean_build_seconds']:.1f} |",
        f"| executing the {len(r['chapters'])} notebook pages alone (nbclient) | "
        f"{r['execution_alone_seconds']:.1f} |",
        f"| no-op rebuild | {r['noop_rebuild_seconds']:.1f} |",
        f"| rebuild after editing one cell of {r['edited_chapter']} | "
        f"{r['rebuild_after_edit_seconds']:.1f} |",
        "",
        f"- build overhead over pure execution: {100 * r['overhead_fraction']:.0f} % "
        f"(target ≤ 25 %)",
        f"- no-op rebuild: {100 * r['noop_fraction']:.0f} % of a clean build "
        f"(target ≤ 10 %); re-executed: {', '.join(r['noop_reexecuted']) or 'nothing'}",
        "- after the edit, re-executed: "
        f"{', '.join(r['reexecuted_after_edit']) or 'nothing'}",
        f"- slowest chapter: {r['slowest_chapter']}, "
        f"{r['slowest_chapter_seconds']:.1f} s alone (target ≤ 60 s), "
        f"{100 * r['slowest_chapter_share']:.0f} % of the execution time"
        + ("; it dominates the build" if dominates else ""),
    ]
    return "\n".join(lines) + "\n"
