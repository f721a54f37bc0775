"""The build is strict, and its execution cache never serves results of an older library.

Each test builds a small throw-away book with this project's _config.yml and build extension.
"""

from __future__ import annotations

import re

import pytest

from conftest import NOTEBOOK_HEADER, build_book, make_small_book

pytestmark = pytest.mark.build

INTRO = "# A small book\n\nA page.\n"


def identity_chapter(claim: str) -> str:
    return NOTEBOOK_HEADER + f"""
# A proof

```{{code-cell}} ipython3
import sympy as sp
x = sp.symbols("x")
assert sp.simplify({claim}) == 0
```
"""


def test_true_identity_builds(tmp_path):
    book = make_small_book(tmp_path, {"intro": INTRO,
                                      "proof": identity_chapter("sp.sin(x)**2 + sp.cos(x)**2 - 1")})
    build_book(book, expect_ok=True)
    assert (book / "_build" / "html" / "book" / "proof.html").exists()


def test_false_identity_fails_the_build(tmp_path):
    book = make_small_book(tmp_path, {"intro": INTRO,
                                      "proof": identity_chapter("sp.sin(x)**2 + sp.cos(x)**2 - 2")})
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "AssertionError" in log and "proof" in log


def test_unresolved_reference_fails_the_build(tmp_path):
    book = make_small_book(tmp_path, {"intro": INTRO + "\nSee {numref}`fig-that-does-not-exist`.\n"})
    result = build_book(book, expect_ok=False)
    assert "fig-that-does-not-exist" in result.stdout + result.stderr


def test_python_warning_in_a_cell_fails_the_build(tmp_path):
    chapter = NOTEBOOK_HEADER + """
# Warns

```{code-cell} ipython3
import warnings
warnings.warn("this output would end up in the page")
```
"""
    book = make_small_book(tmp_path, {"intro": INTRO, "warns": chapter})
    build_book(book, expect_ok=False)


STAMPED = NOTEBOOK_HEADER + """
# {title}

```{{code-cell}} ipython3
{imports}
import time
from myst_nb import glue
glue("stamp", str(time.time_ns()), display=False)
```

Executed at {{glue:text}}`stamp`.
"""


def executed_stamp(book, page):
    html = (book / "_build" / "html" / "book" / f"{page}.html").read_text()
    return re.search(r"Executed at\s*(?:<[^>]+>\s*)*'?(\d{12,})", html).group(1)


def test_library_change_reexecutes_the_chapters_that_use_it(tmp_path):
    book = make_small_book(tmp_path, {
        "intro": INTRO,
        "uses": STAMPED.format(title="Uses posenc", imports="import posenc"),
        "plain": STAMPED.format(title="Plain", imports="import math"),
    }, with_library=True)

    build_book(book, expect_ok=True)
    first = {page: executed_stamp(book, page) for page in ("uses", "plain")}

    build_book(book, expect_ok=True)  # nothing changed: both served from the cache
    assert {page: executed_stamp(book, page) for page in ("uses", "plain")} == first

    library = book / "src" / "posenc" / "sinusoidal.py"
    library.write_text(library.read_text() + "\n# a change to the library\n")
    build_book(book, expect_ok=True)
    after_library = {page: executed_stamp(book, page) for page in ("uses", "plain")}
    assert after_library["uses"] != first["uses"], "a library change must re-execute its users"
    assert after_library["plain"] == first["plain"], "a chapter without posenc stays cached"

    requirements = book / "requirements.txt"
    requirements.write_text(requirements.read_text() + "\n# a change to the pins\n")
    build_book(book, expect_ok=True)
    after_pins = {page: executed_stamp(book, page) for page in ("uses", "plain")}
    assert after_pins["uses"] != after_library["uses"]
    assert after_pins["plain"] != after_library["plain"], "new requirements re-execute everything"
