"""The Chinese edition (tools/translations.py, tools/i18n_ext.py, locale/zh_CN): complete
catalogues whose translations keep the English's mathematics and markup; a strict build that
fails on an untranslated or fuzzy message; and, in the built site, a Chinese page for every
English one, with the same figures and numbers, each linking the other."""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
import translations  # tools/ (tests/conftest.py puts it on the path)
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from support.book import HTML, ROOT, built_page, toc_files
from support.small_books import INTRO, make_small_book, run

ZH = HTML / "zh"
CJK = translations.CJK


def catalogue(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def test_every_page_has_a_catalogue():
    pages = {path.relative_to(ROOT).with_suffix("").as_posix() for path in toc_files()}
    catalogues = {
        path.relative_to(translations.CATALOGUES).with_suffix("").as_posix()
        for path in translations.catalogues()
    }
    assert pages == catalogues


def test_catalogues_record_no_line_numbers():
    """A message's location is its page, not its line: with line numbers, one sentence added
    near the top of a page renumbered every message below it in the catalogue's diff."""
    numbered = [
        f"{path.name}: {line}"
        for path in translations.catalogues()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#:") and re.search(r":\d+(\s|$)", line)
    ]
    assert not numbered, "\n".join(numbered[:10]) + f"\n({len(numbered)} in all)"


def test_no_message_is_untranslated_or_fuzzy():
    problems = []
    for path in translations.catalogues():
        for message in catalogue(path):
            if not message.id:
                continue
            if not message.string:
                problems.append(f"{path.name}: untranslated: {message.id[:60]!r}")
            elif message.fuzzy:
                problems.append(f"{path.name}: fuzzy: {message.id[:60]!r}")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_translations_keep_the_mathematics_and_markup(capsys):
    status = translations.check()
    assert status == 0, capsys.readouterr().out[-4000:]


@pytest.mark.parametrize(
    ("english", "translation"),
    [
        ("the sum $S_d(x)$ decays", "和 $S_d(y)$ 衰减"),  # maths retyped
        ("see {ref}`ch05-phasors`", "见 {ref}`ch05-riemann`"),  # another target
        ("is {glue:text}`ch05_a:.2f`", "为 {glue:text}`ch05_b:.2f`"),  # another number
        ("call `decay_sum`", "调用 decay_sum"),  # code lost
        ("by {cite:t}`su2021sinusoidal`", "苏剑林"),  # citation lost
    ],
)
def test_the_markup_check_catches_a_changed_translation(english, translation):
    """Negative controls of the check above: each pair differs in what must be shared."""
    assert translations.markup(english) != translations.markup(translation)


def test_the_markup_check_accepts_what_may_change():
    pairs = [
        ("see {ref}`the phasors <ch05-phasors>`", "见{ref}`相量图 <ch05-phasors>`"),
        ("{pdf-edition}`The print edition (PDF)`", "{pdf-edition}`印刷版（PDF）`"),
        (
            "is {glue:text}`ch05_a:.2f`",
            "为 {glue:text}`ch05-decay-integral.md::ch05_a:.2f`",
        ),
        ("the :math:`n \\times n` matrix (:ref:`ch01-attention`)",
         "{math}`n \\times n` 矩阵（{ref}`ch01-attention`）"),
    ]  # fmt: skip
    for english, translation in pairs:
        assert translations.markup(english) == translations.markup(translation)


def test_words_in_a_translated_formula_must_be_chinese():
    """A display formula's words (\\text{...}) are translated; labels in a subscript and names
    from the code stay as they are."""
    left = translations.english_left_in_formula
    assert left(r"g(m - n) \qquad \text{for all positions } m, n.") == [
        "for all positions "
    ]
    assert left(r"S_d(x) \approx \frac{\text{slow pairs}}{d/2}") == ["slow pairs"]
    assert left(r"g(m - n) \qquad \text{对所有位置 } m, n.") == []
    assert left(r"s_h = 2^{-8h/n_{\text{heads}}}, \quad d_\text{model}") == []
    assert left(r"\ln(\text{max\_timescale})") == []


def test_glue_roles_are_qualified_with_their_page():
    text = "为 {glue:text}`ch05_a:.2f`，{glue:text}`ch05_b`，{glue:md}`k`，:math:`x`"
    page = "ch05-decay-integral.md"
    assert translations.qualify_glue(text, page) == (
        f"为 {{glue:text}}`{page}::ch05_a:.2f`，{{glue:text}}`{page}::ch05_b:s`，"
        f"{{glue:md}}`{page}::k:commonmark`，:math:`x`"
    )
    assert translations.qualify_glue("{glue:md}`x.md::k`", page) == "{glue:md}`x.md::k`"
    # a docstring's reStructuredText roles become MyST roles (the page is parsed as MyST)
    assert translations.qualify_glue(":math:`x` (:ref:`y`)", page, docstring=True) == (
        "{math}`x` ({ref}`y`)"
    )


# --------------------------------------------------------------- a small book, both ways

SMALL_PAGE = (
    INTRO + "\nA second paragraph.\n\n```{exercise} An exercise title\nDo it.\n```\n"
)


def small_catalogue(translated: dict[str, str], fuzzy: set[str] = frozenset()) -> str:
    entries = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n']
    for english, chinese in translated.items():
        flag = "#, fuzzy\n" if english in fuzzy else ""
        entries.append(f'{flag}msgid "{english}"\nmsgstr "{chinese}"\n')
    return "\n".join(entries)


def build_small_chinese(tmp: Path, translated: dict, fuzzy=frozenset()):
    book = make_small_book(tmp, {"intro": SMALL_PAGE})
    folder = book / "locale" / "zh_CN" / "LC_MESSAGES" / "book"
    folder.mkdir(parents=True)
    (folder / "intro.po").write_text(small_catalogue(translated, fuzzy))
    result = run(
        [sys.executable, book / "tools" / "translations.py", "build"], timeout=600
    )
    return book, result


ALL_TRANSLATED = {
    "A small book": "一本小书",
    "A page.": "一页。",
    "A second paragraph.": "第二段。",
    "An exercise title": "一个练习的标题",
    "Do it.": "做一做。",
}


@pytest.mark.build
def test_a_complete_catalogue_builds_and_links_the_english(tmp_path):
    book, result = build_small_chinese(tmp_path, ALL_TRANSLATED)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    page = (book / "_build" / "html" / "zh" / "book" / "intro.html").read_text()
    for chinese in ALL_TRANSLATED.values():
        assert chinese in page
    soup = BeautifulSoup(page, "html.parser")
    switch = soup.select_one("a.posenc-edition-switch")
    assert switch["href"] == "../../book/intro.html" and switch["hreflang"] == "en"


@pytest.mark.build
def test_an_untranslated_or_fuzzy_message_fails_the_build(tmp_path):
    """The negative control: one message missing, one fuzzy; the build names both."""
    partial = {k: v for k, v in ALL_TRANSLATED.items() if k != "A second paragraph."}
    book, result = build_small_chinese(tmp_path, partial, fuzzy={"An exercise title"})
    log = result.stdout + result.stderr
    assert result.returncode != 0
    assert "no translation for 'A second paragraph.'" in log
    assert "no translation for 'An exercise title'" in log


# ----------------------------------------------------------------- the built Chinese site


def site_pages() -> list[str]:
    return [
        path.relative_to(ROOT).with_suffix(".html").as_posix() for path in toc_files()
    ]


@pytest.fixture(scope="module")
def pairs(built_site):
    if not (ZH / "index.html").exists():
        pytest.fail("no Chinese edition in _build/html/zh: run `make book`")
    return {
        page: (built_page(HTML / page), built_page(ZH / page)) for page in site_pages()
    }


@pytest.mark.site
def test_every_english_page_has_a_chinese_page(pairs):
    assert all((ZH / page).exists() for page in pairs)


@pytest.mark.site
def test_each_edition_links_the_other(pairs):
    for page, (english, chinese) in pairs.items():
        to_chinese = english.select_one("a.posenc-edition-switch")["href"]
        to_english = chinese.select_one("a.posenc-edition-switch")["href"]
        assert (HTML / page).parent.joinpath(to_chinese).resolve() == (ZH / page)
        assert (ZH / page).parent.joinpath(to_english).resolve() == (HTML / page)
        assert chinese.html["lang"] == "zh-CN" and english.html["lang"] == "en"


@pytest.mark.site
def test_chinese_pages_are_in_chinese(pairs):
    """The running text of every Chinese page is mostly Chinese (maths, code and numbers
    aside): a page left in English, or built without its catalogue, fails."""
    for page, (_, chinese) in pairs.items():
        if page.endswith("bibliography.html"):
            continue  # the references, in the languages they were written in
        article = chinese.select_one("article") or chinese
        # the text outside these (read, not cut out: the parsed page is shared)
        hidden = {
            id(text)
            for element in article.select(
                "div.cell, .math, pre, code, script, .bibliography, dl.py"
            )
            for text in element.strings
        }
        text = " ".join(s for s in article.strings if id(s) not in hidden)
        letters = len(re.findall(r"[A-Za-z]", text))
        cjk = len(CJK.findall(text))
        assert cjk > 0.5 * letters, f"{page}: {cjk} Chinese characters, {letters} Latin"


def image_digests(page_soup: BeautifulSoup, page: Path) -> Counter:
    """The SHA-256 of each image the page shows; for a figure drawn in Chinese
    (tools/extensions/chinese_figures.py), that of the English figure it stands for, whose
    file name (the hash of its bytes, as MyST-NB names it) begins its own."""
    found = Counter()
    for image in page_soup.select("article img"):
        file = page.parent / image["src"]
        if file.name.endswith(".zh_CN.svg"):
            found[file.name.split(".")[0]] += 1
        else:
            found[hashlib.sha256(file.read_bytes()).hexdigest()] += 1
    return found


@pytest.mark.site
def test_the_same_figures_in_both_editions(pairs):
    """The same images, a figure of the book in the Chinese edition as its Chinese drawing
    of the same figure (tests/test_figures_zh.py checks that drawing)."""
    for page, (english, chinese) in pairs.items():
        assert image_digests(english, HTML / page) == image_digests(chinese, ZH / page)


@pytest.mark.site
def test_the_same_numbers_in_both_editions(pairs):
    """Every number glued into the English text appears, identical, in the Chinese."""
    compared = 0
    for page, (english, chinese) in pairs.items():
        numbers = [Counter(s.get_text() for s in x.select(".pasted-text")) for x in
                   (english, chinese)]  # fmt: skip
        assert numbers[0] == numbers[1], page
        compared += sum(numbers[0].values())
    assert compared > 300


@pytest.mark.site
def test_the_same_statements_and_verdicts_in_both_editions(pairs):
    """The same numbered theorems, figures and check verdicts, in the same order."""
    for page, (english, chinese) in pairs.items():
        for selector in ("div.proof", "figure", "div.cell_output .output"):
            assert len(english.select(selector)) == len(chinese.select(selector)), (
                page,
                selector,
            )
