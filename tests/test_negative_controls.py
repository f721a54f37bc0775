"""Every theorem-like statement has a check that can fail, and the book shows how strong it is.

The build executes each chapter once; after each check cell, ``posenc.checks`` runs the cell's
``falsify`` mutants in a copy of the namespace and records the outcome in the cell's output
(see the module's docstring). These tests read those records from the executed chapters the
build wrote, so no chapter runs a second time, and fail naming the chapter, the statement's
label and the mutant. A small book shows that a surviving mutant fails the build itself.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from support.book import HTML, ROOT, built_page, is_notebook, read_chapter, toc_files
from support.small_books import NOTEBOOK_HEADER, build_book, make_small_book

from posenc.checks import METADATA_KEY, statements

CHAPTERS = [path for path in toc_files() if is_notebook(path)]
WITH_STATEMENTS = [path for path in CHAPTERS if statements(read_chapter(path))[0]]


def executed(chapter):
    """The executed notebook the build wrote for ``chapter`` (the page's .ipynb download)."""
    path = HTML / "_sources" / chapter.relative_to(ROOT).with_suffix(".ipynb")
    if not path.exists():
        pytest.fail(
            f"no executed notebook for {chapter.name} at {path}: run `make book` first"
        )
    return nbformat.read(path, as_version=4)


def records(notebook) -> dict[str, dict]:
    found = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get(METADATA_KEY)
            if record:
                found[record["label"]] = record
    return found


def test_the_book_states_and_checks_theorems():
    labels = [
        label
        for path in WITH_STATEMENTS
        for _, label in statements(read_chapter(path))[0]
    ]
    assert len(labels) >= 40, f"only {len(labels)} theorem-like statements found"


@pytest.mark.site
@pytest.mark.parametrize(
    "chapter", WITH_STATEMENTS, ids=[p.stem for p in WITH_STATEMENTS]
)
def test_every_statement_has_a_check_whose_mutants_all_fail(chapter, built_site):
    found, cells = statements(read_chapter(chapter))
    seen = records(executed(chapter))
    problems = []
    for kind, label in found:
        record = seen.get(label)
        if record is None:
            problems.append(
                f"{chapter.name}: {kind} {label}: no check cell ran its mutants "
                "(a check cell after the statement, before the next heading, "
                "with 'falsify' metadata)"
            )
            continue
        if not record["verdict"]:
            problems.append(
                f"{chapter.name}: {label}: the check records no kind of evidence"
            )
        if not record["mutants"]:
            problems.append(f"{chapter.name}: {label}: no mutants")
        for mutant in record["mutants"]:
            if mutant["outcome"] != "AssertionError":
                problems.append(
                    f"{chapter.name}: {label}: mutant replace {mutant['replace']!r} "
                    f"with {mutant['with']!r}: {mutant['outcome']}"
                )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "chapter", WITH_STATEMENTS, ids=[p.stem for p in WITH_STATEMENTS]
)
def test_check_cells_are_folded_under_their_proofs(chapter):
    """The check's code is folded (hide-input) so its verdict shows and the code does not."""
    _, cells = statements(read_chapter(chapter))
    notebook = read_chapter(chapter)
    unfolded = [
        cells[cell.source].label
        for cell in notebook.cells
        if cell.cell_type == "code"
        and cell.source in cells
        and "hide-input" not in cell.metadata.get("tags", [])
    ]
    assert not unfolded, (
        f"{chapter.name}: check cells not folded (tag hide-input): {unfolded}"
    )


PLAIN_QUOTES = str.maketrans("\u2018\u2019\u201c\u201d", "''\"\"")


@pytest.mark.site
def test_verdicts_are_visible_on_the_pages(built_site):
    """Each check's verdict line is in the page, next to its folded code."""
    missing = []
    for chapter in WITH_STATEMENTS:
        page = built_site / chapter.relative_to(ROOT).with_suffix(".html")
        text = built_page(page).get_text(" ")
        text = text.translate(
            PLAIN_QUOTES
        )  # Sphinx's smartquotes curl the page's quotes
        for record in records(executed(chapter)).values():
            if record["verdict"].translate(PLAIN_QUOTES) not in text:
                missing.append((chapter.name, record["label"]))
    assert not missing, f"verdicts missing from the pages: {missing[:10]}"


# --------------------------------------------------------------------------- the mechanism

HEADER = (
    NOTEBOOK_HEADER
    + """
# A chapter

```{code-cell} ipython3
:tags: [remove-cell]
from posenc import checks
checks.watch("chapter.md")
```
"""
)

# A section with a statement and its check cell, with one mutant (a check belongs to the
# statement before it in the same section)
STATEMENT = """
## Section {n}

```{{prf:lemma}} Doubling {n}
:label: lem-doubling-{n}

For every integer $n$, $n + n = 2n$.
```

```{{code-cell}} ipython3
---
tags: [hide-input]
falsify:
- {{replace: "{replace}", with: "{with_}"}}
---
# the check of lemma {n} (the watcher tells check cells apart by their code)
import numpy as np
n = np.arange(-50, 51)
checks.exhaustive(n + n == 2 * n, cases="every n from -50 to 50")
```
"""

# Mutants that do not do their job, and what the build must say about each
USELESS_MUTANTS = [
    ("2 * n", "2 * n + 0", "passes: the check cannot tell"),
    ("not in the cell", "x", "does not apply"),
    ("2 * n", "2 * undefined_name", "fails with NameError"),
]


def chapter(*mutants: tuple[str, str]) -> str:
    return HEADER + "".join(
        STATEMENT.format(n=n, replace=replace, with_=with_)
        for n, (replace, with_) in enumerate(mutants, start=1)
    )


@pytest.mark.build
def test_a_mutant_that_fails_lets_the_build_pass(tmp_path):
    book = make_small_book(
        tmp_path, {"chapter": chapter(("2 * n", "3 * n"))}, with_library=True
    )
    build_book(book, expect_ok=True)


@pytest.mark.build
def test_a_mutant_that_does_not_fail_fails_the_build(tmp_path):
    """One chapter, one statement per useless mutant (one build for the three): the build
    fails, naming the chapter, each statement's label and what is wrong with its mutant."""
    mutants = [(replace, with_) for replace, with_, _ in USELESS_MUTANTS]
    book = make_small_book(tmp_path, {"chapter": chapter(*mutants)}, with_library=True)
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "chapter.md" in log, log[-3000:]
    for n, (replace, _, why) in enumerate(USELESS_MUTANTS, start=1):
        line = next(
            (line for line in log.splitlines() if f"lem-doubling-{n}" in line), ""
        )
        assert why in line, f"lem-doubling-{n}: {why!r} not said\n{log[-3000:]}"
        assert json.dumps(replace)[1:-1] in line or replace in line
