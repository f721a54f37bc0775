"""The learner's main path stays short (issue: a learner's book; tools/main_path.py).

What a reader sees on chapters 1-14 without opening anything: at most 12,000 words of prose
(mathematics not counted; about 90 minutes of reading), none of the chapters above 1,100, and
800 lines of code; no code line wider than 88 characters, no `glue(` call in view and no
number in Python's e-notation in the prose.
"""

import pytest
from main_path import measure  # tools/ (tests/conftest.py puts it on the path)

WORD_BUDGET = 12_000
CHAPTER_WORD_BUDGET = 1_100
CODE_BUDGET = 800
FIRST_EDITION = [f"ch{n:02d}" for n in range(1, 15)]


@pytest.fixture(scope="module")
def measured(built_site):
    pages = sorted((built_site / "book").glob("ch*.html"))
    found = {page.stem: measure(page) for page in pages}
    assert {name[:4] for name in found} >= set(FIRST_EDITION), "chapters missing"
    return found


def test_the_main_path_fits_its_budget(measured):
    first = {name: m for name, m in measured.items() if name[:4] in FIRST_EDITION}
    words = sum(m["words"] for m in first.values())
    code = sum(m["code_lines"] for m in first.values())
    assert words <= WORD_BUDGET and code <= CODE_BUDGET, (
        f"chapters 1-14 show {words:,} words (budget {WORD_BUDGET:,}) and {code} code "
        f"lines (budget {CODE_BUDGET}): "
        + ", ".join(f"{n}: {m['words']}/{m['code_lines']}" for n, m in first.items())
    )


def test_no_chapter_is_longer_than_its_budget(measured):
    long = {n: m["words"] for n, m in measured.items() if m["words"] > CHAPTER_WORD_BUDGET}
    assert not long, f"chapters above {CHAPTER_WORD_BUDGET:,} words on the main path: {long}"


def test_visible_code_is_teaching_code(measured):
    problems = {
        name: {"lines over 88": m["long_lines"], "glue calls": m["glue_calls"]}
        for name, m in measured.items()
        if m["long_lines"] or m["glue_calls"]
    }
    assert not problems, problems


def test_no_e_notation_in_prose(measured):
    found = {name: m["e_notation"] for name, m in measured.items() if m["e_notation"]}
    assert not found, f"numbers written as Python prints them: {found}"


def test_the_measure_sees_what_it_counts(tmp_path):
    """Negative control: folded material is not counted, visible material is."""
    page = tmp_path / "ch99-x.html"
    page.write_text(
        "<html><body><article class='bd-article'><p>one two three 1.5e-03</p>"
        "<details><p>hidden words here</p></details>"
        "<div class='cell'><div class='cell_input'><pre>glue('k', 1)\n"
        + "x" * 90
        + "</pre></div></div></article></body></html>",
        encoding="utf-8",
    )
    m = measure(page)
    assert m["words"] == 4 and m["code_lines"] == 2
    assert (
        m["long_lines"] == 1 and m["glue_calls"] == 1 and m["e_notation"] == ["1.5e-03"]
    )
