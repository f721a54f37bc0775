"""The build is strict, and its execution cache never serves results of an older
library.

Each test builds a small throw-away book with this project's _config.yml and build
extension.
"""

from __future__ import annotations

import pytest

from conftest import (
    INTRO,
    NOTEBOOK_HEADER,
    build_book,
    executed_stamp,
    make_small_book,
    stamped_page,
)

pytestmark = pytest.mark.build
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


def test_false_identity_fails_the_build(tmp_path):
    book = make_small_book(
        tmp_path,
        {"intro": INTRO, "proof": identity_chapter(TRUE_CLAIM.replace("- 1", "- 2"))},
    )
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "AssertionError" in log and "proof" in log


def test_unresolved_reference_fails_the_build(tmp_path):
    book = make_small_book(
        tmp_path, {"intro": INTRO + "\nSee {numref}`fig-that-does-not-exist`.\n"}
    )
    result = build_book(book, expect_ok=False)
    assert "fig-that-does-not-exist" in result.stdout + result.stderr


def test_python_warning_in_a_cell_fails_the_build(tmp_path):
    chapter = (
        NOTEBOOK_HEADER
        + """
# Warns

```{code-cell} ipython3
import warnings
warnings.warn("this output would end up in the page")
```
"""
    )
    book = make_small_book(tmp_path, {"intro": INTRO, "warns": chapter})
    build_book(book, expect_ok=False)


def test_cache_serves_unchanged_chapters_and_follows_library_and_pins(tmp_path):
    """A chapter is executed again when posenc or the pinned requirements change (the
    cache is deleted: every chapter imports posenc), and served from the cache
    otherwise. The same book's true identity is the control of
    test_false_identity_fails_the_build."""
    book = make_small_book(
        tmp_path,
        {
            "intro": INTRO,
            "proof": identity_chapter(TRUE_CLAIM),
            "uses": stamped_page("Uses posenc", "import posenc"),
        },
        with_library=True,
    )

    build_book(book, expect_ok=True)
    assert (book / "_build" / "html" / "book" / "proof.html").exists()
    first = executed_stamp(book, "uses")

    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") == first, (
        "nothing changed: served from the cache"
    )

    library = book / "src" / "posenc" / "__init__.py"
    library.write_text(library.read_text() + "\n# a change to the library\n")
    build_book(book, expect_ok=True)
    after_library = executed_stamp(book, "uses")
    assert after_library != first, "a library change must re-execute the chapters"

    requirements = book / "requirements.txt"
    requirements.write_text(requirements.read_text() + "\n# a change to the pins\n")
    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") != after_library, (
        "new pins must re-execute them"
    )
