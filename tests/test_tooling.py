"""The project's own tooling: the make-target table, the chapter linter and the pins."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from support.book import ROOT, requirements
from support.small_books import NOTEBOOK_HEADER


def table_targets() -> list[str]:
    """The targets CONTRIBUTING.md's "Make targets" table lists, in order."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Make targets", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `make (\S+)` \|", section, re.MULTILINE)


def makefile_targets() -> set[str]:
    """The targets the Makefile declares phony: the ones a person runs."""
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    phony = re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE)
    return set(phony.group(1).split())


def test_the_target_table_lists_every_target_once():
    listed = table_targets()
    assert len(listed) == len(set(listed)), f"listed twice: {listed}"
    assert set(listed) == makefile_targets(), (
        f"in the Makefile only: {sorted(makefile_targets() - set(listed))}; "
        f"in CONTRIBUTING.md only: {sorted(set(listed) - makefile_targets())}"
    )


def test_make_help_prints_the_table():
    shown = subprocess.run(
        ["make", "--no-print-directory", "help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    printed = re.findall(r"^  make (\S+) ", shown, re.MULTILINE)
    assert printed == table_targets()


def test_chapter_lint_points_at_the_line_of_the_chapter(tmp_path):
    """A finding in a chapter's code cell is reported at its line of the .md source."""
    chapter = tmp_path / "ch99-lint.md"
    text = NOTEBOOK_HEADER + (
        "\n# Lint\n\nText.\n\n```{code-cell} ipython3\nx = 1\n```\n\n"
        "```{code-cell} ipython3\n:tags: [hide-input]\n\nimport os\ny = 2\n```\n"
    )
    chapter.write_text(text)
    line = text.splitlines().index("import os") + 1
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lint_chapters.py"), str(chapter)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{chapter}:{line}:8: F401" in result.stdout, result.stdout


MUTANT_CELL = """
```{{prf:proposition}} One
:label: prop-one

One minus one is zero.
```

```{{code-cell}} ipython3
---
falsify:
- {{replace: "{replace}", with: "x - 2"}}
---
x = 1
assert x - 1 == 0
```
"""


@pytest.mark.parametrize(("replace", "found"), [("x - 1", 1), ("x", 2), ("y", 0)])
def test_chapter_lint_wants_each_mutant_text_exactly_once(tmp_path, replace, found):
    """A mutant's `replace` text must occur once in its cell: twice, the mutant may change
    another line than the one meant; never, it changes nothing."""
    chapter = tmp_path / "ch99-mutant.md"
    chapter.write_text(
        NOTEBOOK_HEADER + "\n# Mutants\n" + MUTANT_CELL.format(replace=replace)
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lint_chapters.py"), str(chapter)],
        capture_output=True,
        text=True,
    )
    flagged = f"replace text occurs {found} times in its cell" in result.stdout
    assert (result.returncode, flagged) == ((0, False) if found == 1 else (1, True)), (
        result.stdout + result.stderr
    )


def test_chapter_lint_fails_mutants_that_would_never_run(tmp_path):
    """Mutants run only in a statement's check cell; the same cell under a heading of its
    own, after no statement, would pass the build with mutants nobody ran."""
    chapter = tmp_path / "ch99-orphan.md"
    cell = MUTANT_CELL.format(replace="x - 1")
    orphan = cell[cell.index("```{code-cell}") :].replace("x = 1", "x = 1.0")
    chapter.write_text(NOTEBOOK_HEADER + "\n# Mutants\n" + cell + "\n## Later\n" + orphan)
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lint_chapters.py"), str(chapter)],
        capture_output=True,
        text=True,
    )
    line = chapter.read_text().splitlines().index("x = 1.0") + 1
    assert result.returncode == 1, result.stdout + result.stderr
    found = [row for row in result.stdout.splitlines() if "never run" in row]
    assert found == [
        f"{chapter}:{line}:1: MUT mutants in a cell that is no statement's check cell "
        "never run"
    ], result.stdout


MATHS_CHAPTER = """
# Maths

$$
x = 1

$$

```{code-cell} ipython3
s = '''
$$

$$
'''
```
"""


def test_chapter_lint_refuses_a_blank_line_inside_display_maths(tmp_path):
    """jupyterlab-myst shows a display formula with a blank line inside as raw TeX (the site
    renders it): the lint names the line. The same lines in a code cell are code."""
    chapter = tmp_path / "ch99-maths.md"
    chapter.write_text(NOTEBOOK_HEADER + MATHS_CHAPTER)
    blank = (NOTEBOOK_HEADER + MATHS_CHAPTER).splitlines().index("x = 1") + 2
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lint_chapters.py"), str(chapter)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{chapter}:{blank}:1: MATH blank line" in result.stdout, result.stdout
    assert result.stdout.count("MATH") == 1, result.stdout


def test_the_lab_pins_leave_out_what_the_excludes_file_names():
    """`make lock` leaves rfc3987-syntax out of JupyterLab's pins (requirements-lab-excludes.txt
    says why: 2.9 s in every process that reads a notebook once it is installed). A lock run
    without --excludes would bring it back, and nothing else would notice but the clock."""
    excluded = set(requirements(ROOT / "requirements-lab-excludes.txt"))
    assert "rfc3987-syntax" in excluded
    pinned = set(requirements(ROOT / "requirements-lab.txt"))
    assert "jupyterlab" in pinned and "jsonschema" in pinned  # the names are read
    assert not excluded & pinned, f"pinned though excluded: {sorted(excluded & pinned)}"
    assert "--excludes requirements-lab-excludes.txt" in (ROOT / "Makefile").read_text()
