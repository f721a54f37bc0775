"""The project's own tooling: the make-target table, the chapter linter, and how the tests wait
for the print edition that `make test` builds beside them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

import conftest
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


def test_the_tests_wait_for_the_print_edition_while_make_test_builds_it(
    tmp_path, monkeypatch
):
    """While PDF_PENDING names a live process, wait_for_the_print_edition waits until the file
    goes; without the file, or when its process is gone (an interrupted `make test`), it
    returns at once."""
    pending = tmp_path / "pdf.pending"
    monkeypatch.setattr(conftest, "PDF_PENDING", pending)

    start = time.monotonic()
    conftest.wait_for_the_print_edition(timeout=30)
    assert time.monotonic() - start < 1, "waited without a pending print edition"

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pending.write_text(gone)
    start = time.monotonic()
    conftest.wait_for_the_print_edition(timeout=30)
    assert time.monotonic() - start < 1, "waited for a make test that is gone"

    pending.write_text(str(os.getpid()))
    threading.Timer(1.5, pending.unlink).start()
    start = time.monotonic()
    conftest.wait_for_the_print_edition(timeout=30)
    waited = time.monotonic() - start
    assert 1.4 < waited < 5, f"returned after {waited:.1f} s, not when the file went"


def test_the_lab_pins_leave_out_what_the_excludes_file_names():
    """`make lock` leaves rfc3987-syntax out of JupyterLab's pins (requirements-lab-excludes.txt
    says why: 2.9 s in every process that reads a notebook once it is installed). A lock run
    without --excludes would bring it back, and nothing else would notice but the clock."""
    excluded = set(conftest.requirements(ROOT / "requirements-lab-excludes.txt"))
    assert "rfc3987-syntax" in excluded
    pinned = set(conftest.requirements(ROOT / "requirements-lab.txt"))
    assert "jupyterlab" in pinned and "jsonschema" in pinned  # the names are read
    assert not excluded & pinned, f"pinned though excluded: {sorted(excluded & pinned)}"
    assert "--excludes requirements-lab-excludes.txt" in (ROOT / "Makefile").read_text()
