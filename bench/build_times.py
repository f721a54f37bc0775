"""Benchmark: what the strict build costs on top of executing the chapters.

In one run, on a throw-away copy of the committed book (git archive HEAD):
1. a clean strict build (`jupyter-book build -W -n --keep-going`, empty cache);
2. executing the same chapters alone with nbclient, one fresh kernel each;
3. a no-op rebuild;
4. a rebuild after editing one code cell of one chapter (only that chapter may re-execute).
Writes a Markdown table and a JSON file (`make bench` puts them in _build/bench/).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jupytext
import yaml
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
FLAGS = ["--builder", "html", "-W", "-n", "--keep-going"]


def copy_committed(destination: Path) -> None:
    """The book as committed (HEAD), so that work in progress does not skew the numbers."""
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(destination)], input=archive.stdout, check=True)


def chapters(book: Path) -> list[Path]:
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    names = [toc["root"]] + [c["file"] for part in toc.get("parts", []) for c in part["chapters"]]
    paths = [book / f"{name}.md" for name in names]
    return [p for p in paths if "kernelspec:" in p.read_text()[:600]]


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


def edit_one_cell(path: Path) -> None:
    """Append a harmless statement to the first code cell (a change the cache sees)."""
    notebook = jupytext.read(path)
    cell = next(c for c in notebook.cells if c.cell_type == "code")
    cell.source += "\n_bench_edit = 1  # edited by bench/build_times.py"
    jupytext.write(notebook, path, fmt="md:myst")


def measure() -> dict:
    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as tmp:
        book = Path(tmp)
        copy_committed(book)
        # the copy's own library, not the editable install of the working tree
        os.environ["PYTHONPATH"] = str(book / "src")
        paths = chapters(book)
        clean, _ = timed_build(book)
        alone = execute_alone(paths)
        noop, noop_log = timed_build(book)
        edited = paths[-1]
        edit_one_cell(edited)
        after_edit, edit_log = timed_build(book)
        return {
            "chapters": [p.stem for p in paths],
            "clean_build_seconds": clean,
            "execution_alone_seconds": sum(alone.values()),
            "execution_alone_per_chapter": alone,
            "overhead_fraction": clean / sum(alone.values()) - 1,
            "noop_rebuild_seconds": noop,
            "noop_reexecuted": executed_in(noop_log),
            "edited_chapter": edited.stem,
            "rebuild_after_edit_seconds": after_edit,
            "reexecuted_after_edit": executed_in(edit_log),
        }


def markdown(r: dict) -> str:
    lines = ["## Build times", "", "| measurement | seconds |", "|---|---:|",
             f"| clean strict build | {r['clean_build_seconds']:.1f} |",
             f"| executing the {len(r['chapters'])} notebook pages alone (nbclient) | "
             f"{r['execution_alone_seconds']:.1f} |",
             f"| no-op rebuild | {r['noop_rebuild_seconds']:.1f} |",
             f"| rebuild after editing one cell of {r['edited_chapter']} | "
             f"{r['rebuild_after_edit_seconds']:.1f} |", "",
             f"- build overhead over pure execution: {100 * r['overhead_fraction']:.0f} % (target ≤ 25 %)",
             f"- no-op rebuild: {100 * r['noop_rebuild_seconds'] / r['clean_build_seconds']:.0f} % "
             f"of a clean build (target ≤ 10 %); re-executed: {r['noop_reexecuted'] or 'nothing'}",
             f"- after the edit, re-executed: {r['reexecuted_after_edit'] or 'nothing'}", "",
             "| chapter | executing alone (s) |", "|---|---:|"]
    lines += [f"| {name} | {sec:.1f} |" for name, sec in r["execution_alone_per_chapter"].items()]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("_build/bench"))
    args = parser.parse_args(argv)
    results = measure()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "build_times.json").write_text(json.dumps(results, indent=2))
    table = markdown(results)
    (args.out / "build_times.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
