"""The build is strict, and its execution cache never serves results of an older
library.

Each test marked `build` builds a small throw-away book with this project's _config.yml
and build extensions (tests/support/small_books.py), as a shell builds it.
"""

from __future__ import annotations

import re
import shutil

import pytest
from support.small_books import (
    INTRO,
    NOTEBOOK_HEADER,
    build_book,
    executed_stamp,
    extension,
    make_small_book,
    stamped_page,
)

TRUE_CLAIM = "sp.sin(x)**2 + sp.cos(x)**2 - 1"


def identity_chapter(claim: str) -> str:
    return (
        NOTEBOOK_HEADER
        + f"""
# A proof

```{{code-cell}} ipython3
import sympy as sp
x = sp.symbols("x")
assert sp.simplify({claim}) == 0
```
"""
    )


@pytest.mark.build
def test_false_identity_fails_the_build(tmp_path):
    """A chapter whose check fails its assertion fails the strict build (the other chapter
    executes and is cached as usual)."""
    book = make_small_book(
        tmp_path,
        {
            "intro": INTRO,
            "proof": identity_chapter(TRUE_CLAIM.replace("- 1", "- 2")),
            "other": stamped_page("Another chapter"),
        },
    )
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "AssertionError" in log and "proof" in log


WARNS = (
    NOTEBOOK_HEADER
    + """
# Warns

```{code-cell} ipython3
import warnings
warnings.warn("this output would end up in the page")
```
"""
)


@pytest.mark.build
def test_unresolved_reference_and_python_warning_fail_the_build(tmp_path):
    """Two faults that the strict build reports as warnings (so that each one alone
    fails it under -W) and, with --keep-going, both in one build: a reference to a
    label that does not exist, and a cell that writes a Python warning to stderr."""
    book = make_small_book(
        tmp_path,
        {"intro": INTRO + "\nSee {numref}`fig-that-does-not-exist`.\n", "warns": WARNS},
    )
    result = build_book(book, expect_ok=False)
    log = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    assert re.search(
        r"intro\.md:\d+: (WARNING|ERROR): .*fig-that-does-not-exist", log
    ), log[-3000:]
    assert re.search(r"warns\.md:\d+: (WARNING|ERROR): .*stderr", log), log[-3000:]
    # a build that warned has not written its pages for good: the next one must not trust them
    # (test_cache_serves_unchanged_chapters_and_follows_the_library: a passing build does)
    assert not (book / "_build" / "html" / ".posenc-buildinfo").exists()


@pytest.mark.build
def test_cache_serves_unchanged_chapters_and_follows_the_library(tmp_path):
    """A chapter is served from the cache until posenc changes, then executed again
    (the cache is deleted: every chapter imports posenc). The same book's true identity
    is the control of test_false_identity_fails_the_build."""
    book = make_small_book(
        tmp_path,
        {
            "intro": INTRO,
            "proof": identity_chapter(TRUE_CLAIM),
            "uses": stamped_page("Uses posenc", "import posenc"),
        },
        with_library=True,
    )

    result = build_book(book, expect_ok=True)
    assert (book / "_build" / "html" / "book" / "proof.html").exists()
    assert (book / "_build" / "html" / ".posenc-buildinfo").exists(), "nothing recorded"
    first = executed_stamp(book, "uses")

    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") == first, (
        "nothing changed: served from the cache"
    )

    library = book / "src" / "posenc" / "__init__.py"
    library.write_text(library.read_text() + "\n# a change to the library\n")
    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") != first, "a library change must re-execute"

    # Another build that shares the cache (the Chinese edition's, `make translations`) may
    # meet the next library change first, and fill the cache for it: this build's pages,
    # read with the library before, are read again all the same.
    library.write_text(library.read_text() + "\n# another change\n")
    execution_cache = extension("execution_cache")
    execution_cache.ROOT, execution_cache.LIBRARY = book, book / "src" / "posenc"
    execution_cache.REQUIREMENTS = [book / "requirements.txt"]
    stamp = book / "_build" / ".jupyter_cache" / execution_cache.FINGERPRINT_FILE
    stamp.write_text(execution_cache.fingerprint() + "\n")
    result = build_book(book, expect_ok=True)
    assert re.search(r"reading sources\.\.\..*book/uses", result.stdout), result.stdout[
        -2000:
    ]

    # The LaTeX build (`make pdf`) shares this build's Sphinx environment (_build/.doctrees):
    # when it meets a library change first, it reads every page again for itself, and the
    # website's pages must still be written again with the new results.
    before = executed_stamp(book, "uses")
    library.write_text(library.read_text() + "\n# a change the LaTeX build meets first\n")
    build_book(book, expect_ok=True, builder="latex")
    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") != before, "the website shows the old results"

    # The same after a failed LaTeX build, which deletes the saved environment (Makefile):
    # the next LaTeX build starts a new one, and the website's build must not trust it.
    before = executed_stamp(book, "uses")
    library.write_text(library.read_text() + "\n# a change, then a failed LaTeX build\n")
    shutil.rmtree(book / "_build" / ".doctrees")
    build_book(book, expect_ok=True, builder="latex")
    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") != before, (
        "after a failed LaTeX build the website shows the old results"
    )


def test_the_fingerprint_follows_every_library_file_and_the_pins(tmp_path, monkeypatch):
    """What makes the build above drop its cache: any file of posenc (not its bytecode)
    and either requirements file."""
    execution_cache = extension("execution_cache")
    library = tmp_path / "src" / "posenc"
    (library / "data").mkdir(parents=True)
    pins = [tmp_path / "requirements.txt", tmp_path / "requirements-nodeps.txt"]
    for path in [library / "__init__.py", library / "data" / "table.json", *pins]:
        path.write_text("original\n")
    monkeypatch.setattr(execution_cache, "ROOT", tmp_path)
    monkeypatch.setattr(execution_cache, "LIBRARY", library)
    monkeypatch.setattr(execution_cache, "REQUIREMENTS", pins)

    seen = {execution_cache.fingerprint()}
    (library / "__pycache__").mkdir()
    (library / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"bytecode")
    assert execution_cache.fingerprint() in seen, "bytecode changed the fingerprint"
    for path in [library / "__init__.py", library / "data" / "table.json", *pins]:
        path.write_text("changed\n")
        assert execution_cache.fingerprint() not in seen, (
            f"{path.name} is not fingerprinted"
        )
        seen.add(execution_cache.fingerprint())
    (library / "new.py").write_text("")
    assert execution_cache.fingerprint() not in seen, (
        "a new library file is not fingerprinted"
    )


SHOWS_A_REPR = (
    NOTEBOOK_HEADER
    + """
# Shows a repr

```{code-cell} ipython3
from IPython.display import Markdown

print([Markdown("a link that should have rendered")])
```
"""
)


@pytest.mark.build
def test_an_object_repr_on_a_page_fails_the_build(tmp_path):
    """A page that shows `<IPython.core.display.Markdown object>` (what a glued value became
    on the Chinese reproducing appendix) fails the strict build (no_object_reprs.py)."""
    book = make_small_book(tmp_path, {"intro": INTRO, "repr": SHOWS_A_REPR})
    result = build_book(book, expect_ok=False)
    log = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    assert (
        "shows a Python object's repr, <IPython.core.display.Markdown object>" in log
    ), log[-3000:]
