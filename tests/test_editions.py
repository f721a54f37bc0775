"""The Chinese edition (tools/translations.py, tools/extensions/chinese_edition.py,
locale/zh_CN): complete catalogues whose translations keep the English's mathematics and
markup; a strict build that fails on an untranslated or fuzzy message; and, in the built site,
a Chinese page for every English one, with the same figures and numbers, each linking the
other."""

from __future__ import annotations

import hashlib
import html
import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

import pytest
import translations  # tools/ (tests/conftest.py puts it on the path)
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from support.book import HTML, ROOT, built_page, toc_files
from support.english_left import english_phrases
from support.small_books import INTRO, NOTEBOOK_HEADER, extension, make_small_book, run

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
    # a role named in inline code is not one (CONTRIBUTING's `{glue:md}`, then `table`)
    named = "placed with `{glue:md}`: as `table` does"
    assert translations.qualify_glue(named, page) == named
    # a docstring's reStructuredText roles become MyST roles (the page is parsed as MyST)
    assert translations.qualify_glue(":math:`x` (:ref:`y`)", page, docstring=True) == (
        "{math}`x` ({ref}`y`)"
    )


# ------------------------------------------------- Chinese typesetting (translations.check)

# Each rule, a translation that breaks it (the review's own examples, in catalogue form) and
# the same translation set right
TYPESETTING = [
    (
        "spaced_references",
        "为什么这与 {prf:ref}`thm-attention-equivariance` 并不矛盾？",
        "为什么这与{prf:ref}`thm-attention-equivariance` 并不矛盾？",
    ),
    (
        "spaced_references",
        "第二部分从 {ref}`ch05-decay-integral` 开始解释",
        "第二部分从{ref}`ch05-decay-integral`开始解释",
    ),
    ("half_width_brackets", "练习 1.1 (因果掩码)", "练习 1.1（因果掩码）"),
    (
        "half_width_brackets",
        "见{ref}`ch04-formula`(表格)",
        "见{ref}`ch04-formula`（表格）",
    ),
    ("spaces_beside_full_width_punctuation", "定理 1.1 （平移）", "定理 1.1（平移）"),
    ("spaces_beside_full_width_punctuation", "它衰减。 下一句", "它衰减。下一句"),
    (
        "doubled_punctuation",
        "（另见 10000 是最大输入长度吗？。）",
        "（另见“10000 是最大输入长度吗？”）",
    ),
    ("doubled_punctuation", "是最大输入长度吗？。", "是最大输入长度吗？"),
    ("slanted_chinese", "*证明*：由引理可得。", "**证明**：由引理可得。"),
    ("slanted_chinese", "_充分性_：显然。", "**充分性**：显然。"),
    (
        "numbered_by_hand",
        "推导见第 9 章（{ref}`ch09-gram`）。",
        "推导见{ref}`ch09-gram`。",
    ),
    (
        "numbered_by_hand",
        "第 6 章《{ref}`ch06-finite-sum`》要问",
        "{ref}`ch06-finite-sum`要问",
    ),
    (
        "unclosed_bold",
        "本章要问的是：**自注意力能否区分它们。**答案是不能。",
        "本章要问的是：**自注意力能否区分它们**。答案是不能。",
    ),
    (
        "unclosed_bold",
        "**何时变负？**积分在零点附近变负。",
        "**何时变负**？积分在零点附近变负。",
    ),
    ("unclosed_bold", "这就是**“远程衰减”**的含义", "这就是“**远程衰减**”的含义"),
]


@pytest.mark.parametrize(("rule", "bad", "good"), TYPESETTING)
def test_each_typesetting_rule_catches_its_fault(rule, bad, good):
    """Negative controls of the typesetting rules: the faulty translation is caught by its
    rule; the corrected one passes every rule."""
    assert getattr(translations, rule)(bad), f"{rule} missed {bad!r}"
    assert translations.typesetting(good) == {}


def test_every_typesetting_rule_is_checked():
    assert {rule for rule, _, _ in TYPESETTING} == {
        rule.__name__ for rule in translations.TYPESETTING_RULES
    }


@pytest.mark.parametrize(
    "text",
    [
        "取 $n = 0$ 时，$f(0) = 1$。",  # spaces beside maths, brackets inside it
        "底数 10000 在 RoPE 中",  # spaces beside numbers and Latin words
        "由 {cite:t}`vaswani2017attention` 的公式",  # a citation is Latin text
        "{numref}`fig-ch04-layouts` 把同一张表画了两次",  # 图 4.2 把…: after a number
        "由{prf:ref}`lem-ch03-real-part` 可得",
        "见{ref}`上面的单元格 <corr-notes-arithmetic>`和式 {eq}`eq-ch05-decay`",
        "它在 CPU 上 *not* 正确舍入，矩阵 R\\_{n-m} 与 `f(x)` 不同",  # Latin italic, code
        "**x**（实数或实数数组）：相对距离 (m - n)",  # Latin in half-width brackets
    ],
)
def test_the_typesetting_rules_accept_the_books_conventions(text):
    assert translations.typesetting(text) == {}


def test_references_to_sections_are_cited_with_number_and_title():
    """chinese_edition.py's form of a chapter, a section, an appendix and an unnumbered page
    in Chinese running text."""
    from chinese_edition import cited_title

    assert cited_title("ch05", (5,), "从和到积分", True) == "第 5 章《从和到积分》"
    assert cited_title("ch07", (7, 1), "为什么底数是 10000", False) == (
        "第 7.1 节“为什么底数是 10000”"
    )
    assert cited_title("appendix", ("B",), "特殊函数", True) == "附录 B《特殊函数》"
    assert (
        cited_title("appendix", ("B", 2), "余弦积分", False) == "附录 B.2 节“余弦积分”"
    )
    assert cited_title("bibliography", None, "参考文献", True) == "《参考文献》"
    assert cited_title("ch06", (6, 4, 1), "“远程衰减”承诺了什么", False) == (
        "第 6.4.1 节“‘远程衰减’承诺了什么”"
    )


class ChineseBuild:
    class config:  # noqa: N801 (what Sphinx's app offers)
        language = "zh_CN"


def test_chinese_pages_set_titles_and_citations_as_chinese():
    """chinese_edition.py on the HTML the writers produce (as on ch01 and ch13 before): no
    space before the full-width bracket of a statement's title, full-width brackets for an
    exercise's title and for a parenthetical citation, a solution titled after its
    exercise's Chinese title; a textual citation keeps its Latin brackets."""
    from chinese_edition import chinese_admonition_titles, full_width_citations

    body = (
        '<p class="admonition-title"><span class="caption-number">定理 1.1 </span>'
        "（自注意力的置换等变性）</p>"
        '<div class="exercise dropdown admonition" id="ex-ch01-causal">\n\n'
        '<p class="admonition-title"><span class="caption-number">练习 1.1 </span>'
        "(因果掩码本身就是位置信息)</p>"
        '<p class="admonition-title">解答<a class="reference internal" '
        'href="#ex-ch01-causal"> 练习 1.1(A causal mask is position information)</a></p>'
        '<span class="bibtex-citation" id="id1">(<a href="b.html#x" title="A (2023).">'
        "Chen et al. 2023</a>)</span>"
        '<span class="bibtex-citation" id="id4">Men et al. (<a href="b.html#y">2024</a>)'
        "</span>"
    )
    context = {"body": body}
    chinese_admonition_titles(ChineseBuild, "p", "page.html", context, None)
    full_width_citations(ChineseBuild, "p", "page.html", context, None)
    out = context["body"]
    assert "定理 1.1</span>（自注意力的置换等变性）" in out
    assert "练习 1.1</span>（因果掩码本身就是位置信息）" in out
    assert (
        '"#ex-ch01-causal">练习 1.1</a> 的解答（因果掩码本身就是位置信息）</p>' in out
    )
    assert "A causal mask" not in out
    assert (
        '>（<a href="b.html#x" title="A (2023).">Chen et al. 2023</a>）</span>' in out
    )
    assert 'Men et al. (<a href="b.html#y">2024</a>)</span>' in out


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


CODE_PAGE = NOTEBOOK_HEADER + """
# Code

```{code-cell} ipython3
x = 1  # the first value
print(x)  # noqa: T201
```
"""


@pytest.mark.build
def test_code_comments_are_translated_and_an_untranslated_one_fails_the_build(
    tmp_path,
):
    """A code cell's comment is shown in Chinese (tools/extensions/translated_comments.py),
    the code around it as it ran, a tool's directive as written; the negative control: the
    same book without the comment's translation fails its strict build, naming it."""
    book = make_small_book(tmp_path, {"intro": SMALL_PAGE, "code": CODE_PAGE})
    folder = book / "locale" / "zh_CN" / "LC_MESSAGES" / "book"
    folder.mkdir(parents=True)
    (folder / "intro.po").write_text(small_catalogue(ALL_TRANSLATED))
    (folder / "code.po").write_text(small_catalogue({"Code": "代码"}))
    comments = book / "locale" / "zh_CN" / "code-comments.po"
    build = [sys.executable, book / "tools" / "translations.py", "build"]

    comments.write_text(small_catalogue({}))
    result = run(build, timeout=600)
    assert result.returncode != 0
    assert "no translation for the code comment 'the first value'" in (
        result.stdout + result.stderr
    )

    comments.write_text(small_catalogue({"the first value": "第一个值"}))
    result = run(build, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    page = BeautifulSoup(
        (book / "_build" / "html" / "zh" / "book" / "code.html").read_text(),
        "html.parser",
    )
    code = page.select_one("div.cell_input pre").get_text()
    assert code == "x = 1  # 第一个值\nprint(x)  # noqa: T201\n", code


def test_only_comment_tokens_are_rewritten():
    translated_comments = extension("translated_comments")
    code = 's = "# not a comment"  # a comment\n# noqa: E501\ny = 2  # another one\n'
    out, missing = translated_comments.with_comments_translated(
        code, {"a comment": "一条注释"}.get
    )
    assert out == 's = "# not a comment"  # 一条注释\n# noqa: E501\ny = 2  # another one\n'
    assert missing == ["another one"]


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


# What a reader of the Chinese edition meets in English (tests/support/english_left.py):
# phrases of two or more Latin words outside code, mathematics, citations and names.
@pytest.mark.parametrize(
    "html, found",
    [
        ("<p>点这里 Show code cell source</p>", {"Show code cell source"}),
        ('<a title="Link to this heading">#</a>', {"Link to this heading"}),
        ("<p>作者：The posenc book team</p>", {"The posenc book team"}),
        (
            "<p>旋转 query 与 key，RoPE 也是如此</p>",
            set(),
        ),  # single words: terms, names
        ("<p>代码 <code>show(name, phone=True)</code></p>", set()),
        (r'<p>公式 <span class="math">\(\text{for all } m\)</span></p>', set()),
        ("<p>见 Hugging Face 的实现</p>", set()),  # a name of two words
    ],
)
def test_the_english_scan_finds_english_phrases_only(html, found):
    assert set(english_phrases(html)) == found


def shown_code(page: BeautifulSoup) -> list[str]:
    """The code cells' code, and the library code cells print (posenc.display.source)."""
    shown = "div.cell_input pre, div.cell_output div.highlight-python pre"
    return [pre.get_text() for pre in page.select(shown)]


def tokens(code: str) -> list[tokenize.TokenInfo] | None:
    try:
        return list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return None


def without_comments(code: str):
    """The code's tokens but its comments (the code itself if it does not tokenize)."""
    found = tokens(code)
    if found is None:
        return code
    return [(t.type, t.string) for t in found if t.type != tokenize.COMMENT]


def comment_phrases(code: str) -> Counter:
    """English phrases in the code's comments (inline code in backticks aside)."""
    found = Counter()
    for token in tokens(code) or []:
        if token.type == tokenize.COMMENT:
            comment = re.sub(r"`[^`]*`", " ", token.string)
            found += english_phrases(f"<p>{html.escape(comment)}</p>")
    return found


@pytest.mark.site
def test_chinese_code_cells_are_the_english_code_with_chinese_comments(pairs):
    """Each code cell of a Chinese page is the English page's, token for token, but for its
    comments (tools/extensions/translated_comments.py), and no comment keeps an English
    phrase. The control: the English pages' comments are found English by the same scan."""
    left, english_found = {}, 0
    for page, (english, chinese) in pairs.items():
        english_code, chinese_code = shown_code(english), shown_code(chinese)
        assert len(english_code) == len(chinese_code), page
        for ours, theirs in zip(english_code, chinese_code, strict=True):
            assert without_comments(ours) == without_comments(theirs), (page, ours)
            english_found += sum(comment_phrases(ours).values())
            if found := comment_phrases(theirs):
                left.setdefault(page, Counter()).update(found)
    assert english_found > 300, english_found
    assert not left, f"English left in the comments of {len(left)} pages: {left}"


# What a cell prints as text (not code, not a table: a table's titles are messages of the page)
PRINTED = "div.cell_output > div.output.stream, div.cell_output > div.output.text_plain"


def printed_phrases(page: BeautifulSoup) -> Counter:
    """English phrases in the text the page's cells print."""
    found = Counter()
    for output in page.select(PRINTED):
        found += english_phrases(f"<p>{html.escape(output.get_text())}</p>")
    return found


def test_the_printed_output_scan_finds_a_printed_label():
    """The control: a label printed in English, as chapter 5 printed one, is found."""
    printed = (
        '<div class="cell_output"><div class="output stream"><pre>'
        "x =   10: mean arrow 0.67+0.17j, slow share 0.75</pre></div></div>"
    )
    found = printed_phrases(BeautifulSoup(printed, "html.parser"))
    assert set(found) == {"mean arrow", "slow share"}


@pytest.mark.site
def test_chinese_cells_print_no_english_labels(pairs):
    """A cell shows its labelled results as a table (posenc.display.table), whose titles the
    catalogue translates, never as English printed beside the numbers; what cells print is
    arrays, formulas and numbers. Errors a cell shows are in a table as code."""
    left = {}
    for page, (_, chinese) in pairs.items():
        if found := printed_phrases(chinese):
            left[page] = dict(found)
    assert not left, f"English printed by the cells of {len(left)} pages: {left}"


def chinese_site_pages() -> list[Path]:
    """Every HTML page of the Chinese edition (chapters, the index of statements, the search
    page), not the assets."""
    assets = {"_sources", "_static", "_images", "plotly", "wheel", "mathjax"}
    return [p for p in sorted(ZH.rglob("*.html")) if not assets & set(p.parts)]


@pytest.mark.site
def test_the_chinese_edition_leaves_nothing_in_english(built_site):
    """No English phrase on any page of the Chinese edition outside code, mathematics, names
    and citations: interface texts (folds, tooltips, screen-reader labels, the footer, the
    download menu, the index of statements) come from locale/zh_CN/LC_MESSAGES/sphinx.po,
    chinese_edition.py and translations.py's settings; the prose from the catalogues."""
    pages = chinese_site_pages()
    assert len(pages) > 20, "no Chinese edition in _build/html/zh: run `make book`"
    left = {}
    for page in pages:
        found = english_phrases(page.read_text(encoding="utf-8"))
        if found:
            left[page.relative_to(ZH).as_posix()] = dict(found.most_common(8))
    assert not left, f"English left on {len(left)} Chinese pages: {left}"


@pytest.mark.site
def test_the_english_scan_reads_what_the_chinese_scan_reads(built_site):
    """The scan's negative control on the real pages: the same scan finds English on every
    English chapter (it would pass a Chinese edition left in English only if it read
    nothing)."""
    for page in site_pages():
        found = english_phrases((HTML / page).read_text(encoding="utf-8"))
        assert sum(found.values()) > 20, page


# A number typed in a reference's own text: 第 7 章的单元格, 第 6.2 节, 附录 C
TYPED_NUMBER = re.compile(
    r"第 ([0-9]+(?:\.[0-9]+)*) ([章节])|附录 ([A-Z](?:\.[0-9]+)*)"
)


def english_numbers(site: Path, labels: set[str]) -> dict[str, tuple[str, str]]:
    """{label: (its page's number, its section's number)} as the English build shows them
    (the number in the heading of the page and of the section the label is in)."""
    from sphinx.util.inventory import InventoryFile

    with (site / "objects.inv").open("rb") as handle:
        inventory = InventoryFile.load(handle, "", lambda base, uri: uri)
    numbers = {}
    for label, (_, _, uri, _) in inventory.get("std:label", {}).items():
        page, _, anchor = uri.partition("#")
        if label not in labels:
            continue
        soup = built_page(site / page)

        def number(element):
            heading = element.find(re.compile("^h[1-6]$")) if element else None
            span = heading.find(class_="section-number") if heading else None
            return span.get_text().strip().rstrip(".") if span else ""

        target = soup.find(id=anchor) if anchor else None
        section = (
            target
            if target is None or target.name == "section"
            else (target.find_parent("section"))
        )
        numbers[label] = (number(soup.find("section")), number(section))
    return numbers


@pytest.mark.site
def test_numbers_typed_in_chinese_references_are_the_english_builds(built_site):
    """A translation that types a number in a reference's text ({ref}`第 7 章的单元格 <label>`)
    must type the number the build gives the label's page or section, in the English build."""
    typed = [
        (path, match)
        for path in translations.catalogues()
        for message in catalogue(path)
        if message.id and message.string
        for match in re.finditer(r"\{ref\}`([^`<]*)<([^`>]+)>`", message.string)
        if TYPED_NUMBER.search(match.group(1))
    ]
    assert typed  # the test sees the references it is about
    numbers = english_numbers(built_site, {match.group(2) for _, match in typed})
    wrong = []
    for path, match in typed:
        text, label = match.groups()
        page, section = numbers.get(label, ("?", "?"))
        for number, kind, appendix in TYPED_NUMBER.findall(text):
            if appendix:
                right = appendix in (page, section)
            else:
                right = number == (page if kind == "章" else section)
            if not right:
                wrong.append(
                    f"{path.name}: {match.group(0)} (English: {page}, {section})"
                )
    assert not wrong, "\n".join(wrong)


def typeset_text(block) -> str:
    """A block's text as the reader sees it, each formula and piece of code one letter."""
    block = BeautifulSoup(str(block), "html.parser")
    for piece in block.select(".math, code, script, .MathJax"):
        piece.replace_with("M")
    return block.get_text()


@pytest.mark.site
def test_chinese_pages_follow_the_typesetting_rules(pairs):
    """The rules of translations.check, in the built pages (where the references have their
    text): no half-width space between Chinese and a reference that renders as Chinese words,
    or beside full-width punctuation; no half-width bracket around Chinese; no title of a
    section cited without its number."""
    faults = []
    for page, (_, chinese) in pairs.items():
        article = chinese.select_one("article.bd-article")
        for link in article.select("a.reference.internal"):
            text = link.get_text()
            before = link.previous_sibling
            if (
                text[:1]
                and CJK.match(text[:1])
                and isinstance(before, str)
                and re.search(r"[\u4e00-\u9fff，。；：、（“]\s$", before)
            ):
                faults.append(f"{page}: space before {text!r}")
        for block in article.select("p, li, .admonition-title, figcaption"):
            if block.find(["p", "li"]):
                continue  # its paragraphs are checked on their own
            if block.find_parent("div", class_="citation"):
                continue  # a reference, punctuated as GB/T 7714 does (bibstyle.py)
            text = typeset_text(block)
            for rule in (
                translations.spaces_beside_full_width_punctuation,
                translations.half_width_brackets,
                translations.doubled_punctuation,
            ):
                faults += [
                    f"{page}: {rule.__name__}: {piece!r}" for piece in rule(text)
                ]
    assert not faults, "\n".join(faults[:40]) + f"\n({len(faults)} in all)"


@pytest.mark.site
def test_no_page_shows_markdown_asterisks(built_site):
    """Bold that MyST could not close shows its two asterisks (本章要问的是：**能否区分？**答案
    是: translations.py's rule unclosed_bold); no page of either edition shows any outside
    code and mathematics."""
    shown = {}
    for edition in (HTML, ZH):
        for page in site_pages():
            soup = BeautifulSoup((edition / page).read_text("utf-8"), "html.parser")
            for element in soup.select("pre, code, script, style, .math, .highlight"):
                element.decompose()
            if "**" in soup.get_text():
                shown[f"{edition.name}/{page}"] = soup.get_text().count("**")
    assert not shown, f"pages showing ** (literal Markdown): {shown}"
