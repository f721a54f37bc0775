"""Lint the chapters' code: ruff on every book/*.md notebook's code cells (`make lint`).

Each chapter is read with jupytext, as JupyterLab reads it, and its code cells are
written as a notebook of code cells only to a temporary folder; ruff checks those
notebooks with the settings of pyproject.toml (a notebook is linted cell by cell, so an
import at the top of a cell or an expression ending a cell is judged as Jupyter runs it;
per-file-ignores for "*.ipynb" hold what chapters may do besides). Findings are reported
at their line in the chapter's .md source. A check cell's `falsify` mutants are linted too:
each `replace` text must occur exactly once in its cell (posenc.checks replaces the first
occurrence; a text found twice may mutate another line than the one meant, and reformatting a
cell may silently leave a mutant with nothing to replace), and a cell with mutants must be a
statement's check cell, the only kind whose mutants run. And a display formula (`$$` ... `$$`)
may hold no blank line: the site renders it, but JupyterLab (jupyterlab-myst) shows it as raw TeX.
Exit status: 0 when clean, 1 with findings.

    python tools/lint_chapters.py [book/ch05-decay-integral.md ...]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat

from posenc.checks import statements

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).parent / "ruff"


def is_notebook(path: Path) -> bool:
    """A MyST Markdown notebook carries a jupytext header with a kernelspec."""
    head = path.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "kernelspec:" in head


def code_cells(path: Path) -> list[tuple[str, int, dict]]:
    """Each code cell's source, the line of the .md where that source starts (1-based) and
    its metadata.

    The source is located after the cell's own ```{code-cell} fence, past its options.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    cells, cursor = [], 0
    for cell in jupytext.read(path).cells:
        if cell.cell_type != "code":
            continue
        source = cell.source.splitlines()
        fence = next(
            i
            for i in range(cursor, len(lines))
            if lines[i].lstrip().startswith(("```{code-cell}", "````{code-cell}"))
        )
        start = fence + 1
        if source:
            start = next(
                i
                for i in range(fence + 1, len(lines))
                if lines[i : i + len(source)] == source
            )
        cells.append((cell.source, start + 1, cell.metadata))
        cursor = start + max(len(source), 1)
    return cells


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def mutant_findings(path: Path, cells) -> list[tuple]:
    """A finding for each `falsify` mutant whose `replace` text does not occur exactly once
    in its cell, and for each cell whose mutants never run: posenc.checks runs them only in a
    statement's check cell (the first cell with `falsify` after the statement, before the
    next heading)."""
    findings = []
    check_cells = statements(path)[1]
    for source, line, metadata in cells:
        if "falsify" in metadata and source not in check_cells:
            message = "mutants in a cell that is no statement's check cell never run"
            findings.append((shown(path), line, 1, "MUT", message))
        for mutant in metadata.get("falsify", []):
            count = source.count(str(mutant.get("replace", "")))
            if count != 1:
                message = f"mutant's replace text occurs {count} times in its cell, not once"
                findings.append((shown(path), line, 1, "MUT", f"{message}: {mutant}"))
    return findings


# the opening fence of code (a code cell, a code block, a fence with a language), whose lines
# are not prose; a directive's fence ({prf:proof}, {dropdown}, ...) holds prose
CODE_FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\{code-cell\}|\{code-block\}|\{code\}|[A-Za-z])")


def display_math_findings(path: Path) -> list[tuple]:
    """A finding for each blank line inside a `$$` display formula of the prose."""
    findings, fence, opened = [], None, None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if fence is None and opened is None and (code := CODE_FENCE.match(text)):
            fence = code.group(1)
        elif fence is not None:
            fence = None if text == fence else fence
        elif text == "$$":
            opened = number if opened is None else None
        elif opened is not None and not text:
            message = f"blank line inside the display formula opened at line {opened}"
            findings.append((shown(path), number, 1, "MATH", message))
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "chapters",
        nargs="*",
        type=Path,
        help="chapter sources (default: every notebook in book/)",
    )
    args = parser.parse_args(argv)
    chapters = [p.resolve() for p in args.chapters] or sorted(
        (ROOT / "book").glob("*.md")
    )
    chapters = [path for path in chapters if is_notebook(path)]
    starts: dict[str, tuple[Path, list[int]]] = {}
    findings = []
    with tempfile.TemporaryDirectory(prefix="posenc-lint-") as tmp:
        for path in chapters:
            cells = code_cells(path)
            notebook = nbformat.v4.new_notebook(
                cells=[nbformat.v4.new_code_cell(source) for source, _, _ in cells],
                metadata={
                    "kernelspec": {
                        "name": "python3",
                        "language": "python",
                        "display_name": "Python 3",
                    },
                    "language_info": {"name": "python"},
                },
            )
            target = Path(tmp) / f"{path.stem}.ipynb"
            nbformat.write(notebook, target)
            starts[target.name] = (path, [line for _, line, _ in cells])
            findings += mutant_findings(path, cells) + display_math_findings(path)
        result = subprocess.run(
            [
                str(RUFF),
                "check",
                "--config",
                str(ROOT / "pyproject.toml"),
                # readers see this code on the page: 88 characters, comments included
                "--config",
                "lint.pycodestyle.max-line-length = 88",
                "--output-format",
                "json",
                "--exit-zero",
                tmp,
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return 2
    for item in json.loads(result.stdout):
        path, cell_starts = starts[Path(item["filename"]).name]
        # for a notebook, ruff counts rows within the cell and numbers cells from 1
        line = cell_starts[item["cell"] - 1] + item["location"]["row"] - 1
        findings.append(
            (
                shown(path),
                line,
                item["location"]["column"],
                item["code"] or "",
                item["message"],
            )
        )
    for name, line, column, code, message in sorted(findings):
        print(f"{name}:{line}:{column}: {code} {message}")
    count = len(findings)
    print(
        f"chapters: {count} finding{'s' * (count != 1)} in {len(chapters)} chapters"
        if count
        else f"chapters: all checks passed ({len(chapters)} chapters)"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
