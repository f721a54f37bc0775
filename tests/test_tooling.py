"""The project's own tooling: the make-target table and the chapter linter."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import NOTEBOOK_HEADER, ROOT


def table_targets() -> list[str]:
    """The targets CONTRIBUTING.md's "Make targets" table lists, in order."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Make targets", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `make (\S+)` \|", section, re.MULTILINE)


def makefile_targets() -> set[str]:
    """The targets the Makefile declares phony: the ones a person runs."""
    phony = re.search(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
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
