"""Checks of the print edition in _build/pdf (built by `make pdf`, which `make test` runs after
the book, from the same execution cache). Reads the PDF with poppler-utils (pdftotext,
pdffonts, pdfinfo) and XeLaTeX's log; builds nothing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml
from support.book import ROOT, toc_files

pytestmark = pytest.mark.pdf

TARGET = yaml.safe_load((ROOT / "_config.yml").read_text())["latex"]["latex_documents"][
    "targetname"
]
PDF = ROOT / "_build" / "pdf" / Path(TARGET).with_suffix(".pdf").name
LOG = ROOT / "_build" / "latex" / Path(TARGET).with_suffix(".log").name
SOURCES = [
    *toc_files(),
    ROOT / "_config.yml",
    *sorted((ROOT / "src" / "posenc").rglob("*.py")),
]


def run(*command: str) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def pdf() -> Path:
    if not PDF.exists():
        pytest.fail(f"no {PDF.relative_to(ROOT)}: run `make pdf` (`make test` does)")
    stale = [p.name for p in SOURCES if p.stat().st_mtime > PDF.stat().st_mtime]
    assert not stale, f"the PDF is older than {stale[:5]}: run `make pdf` again"
    return PDF


@pytest.fixture(scope="module")
def text(pdf) -> str:
    """The PDF's text with runs of white space as one space."""
    return " ".join(run("pdftotext", "-enc", "UTF-8", str(pdf), "-").split())


def title(page: Path) -> str:
    """A page's title as printed: its first heading, without MyST markup."""
    body = page.read_text(encoding="utf-8")
    heading = re.search(r"^# (.+)$", body, re.MULTILINE).group(1)
    return re.sub(r"[`*]", "", heading).strip()


def test_every_chapter_and_appendix_title_is_printed(text):
    missing = [title(page) for page in toc_files()[1:] if title(page) not in text]
    assert not missing, f"titles not in the PDF: {missing}"


def test_no_unresolved_reference(pdf, text):
    assert "??" not in text, (
        f"'??' in the PDF: …{text[max(0, text.find('??') - 80) :][:160]}…"
    )
    log = LOG.read_text(encoding="utf-8", errors="replace")
    undefined = re.findall(r"(?:Hyper r|R)eference `([^']+)' on page", log)
    assert not undefined, (
        f"undefined references in the LaTeX log: {sorted(set(undefined))[:10]}"
    )


def test_every_figure_is_printed_not_a_placeholder(pdf, text):
    for placeholder in ("<figure fig-", "<interactive figure fig-"):
        assert placeholder not in text, f"a figure printed as {placeholder}…>"
    # every figure cell of the chapters (static and interactive) has its numbered caption
    names = [
        name
        for page in toc_files()
        for name in re.findall(r'^show\("(fig-[a-z0-9-]+)"\)', page.read_text(), re.M)
    ]
    captions = set(re.findall(r"Fig\. ([A-Z0-9]+\.\d+):", text))  # appendices: C.1
    assert len(captions) == len(names), (
        f"{len(captions)} figure captions for {len(names)} figures"
    )


def test_page_count_is_plausible(pdf):
    pages = int(re.search(r"^Pages:\s+(\d+)", run("pdfinfo", str(pdf)), re.M).group(1))
    assert 150 <= pages <= 400, f"{pages} pages"


def test_every_font_is_embedded(pdf):
    rows = run("pdffonts", str(pdf)).splitlines()[2:]
    # columns: name type encoding emb sub uni object ID (the type may hold spaces)
    not_embedded = [row.split()[0] for row in rows if row.split()[-5] != "yes"]
    assert rows and not not_embedded, f"fonts not embedded: {not_embedded}"


def test_chinese_titles_are_printed(pdf):
    """The bibliography's Chinese titles need the CJK font (xeCJK); without it they vanish."""
    from pybtex.database import parse_file

    # the titles the English edition prints (not the Chinese edition's zh<name> fields)
    entries = parse_file(str(ROOT / "book" / "references.bib")).entries
    titles = " ".join(entry.fields.get("title", "") for entry in entries.values())
    chinese = re.findall(r"[\u4e00-\u9fff]{4,}", titles)
    assert chinese, "no Chinese title in references.bib to look for"
    # a line break inside a Chinese title is no space
    text = "".join(run("pdftotext", "-enc", "UTF-8", str(pdf), "-").split())
    assert all(run_ in text for run_ in chinese), [c for c in chinese if c not in text]


MISSING_CHARACTER = re.compile(
    r"Missing character: There is no (.+?) \((U\+[0-9A-F]+)\) in font ([^/!:]+)"
)


def missing_characters(log: str) -> list[tuple[str, str, str]]:
    """(character, code point, font) of every character XeLaTeX left out of the page, from its
    log: a character its font lacks is dropped from the PDF with only this log line."""
    return sorted(set(MISSING_CHARACTER.findall(log)))


def test_every_character_is_printed(pdf):
    """No character of the text or the code is dropped for want of a glyph (the code once
    printed "for x  b" and "f(ν)": DejaVu Sans Mono has neither ≫ nor ⁗)."""
    missing = missing_characters(LOG.read_text(encoding="utf-8", errors="replace"))
    assert not missing, f"characters the PDF's fonts lack: {missing}"


def test_a_dropped_character_is_found_in_the_log():
    """Negative control of the test above, on the log line XeLaTeX writes (TeX Live 2022)."""
    line = (
        "Missing character: There is no ≫ (U+226B) in font DejaVu Sans Mono/OT:script=latn;"
        "language=dflt;!"
    )
    assert missing_characters(f"a\n{line}\nb\n{line}\n") == [
        ("≫", "U+226B", "DejaVu Sans Mono")
    ]
    assert missing_characters("Overfull \\hbox (1.2pt too wide) in paragraph") == []


TEX = LOG.with_suffix(".tex")


def page_lines(pdf: Path) -> list[list[str]]:
    """Each page's non-empty lines of text, in order."""
    text = run("pdftotext", "-enc", "UTF-8", str(pdf), "-")
    return [
        [line for line in page.splitlines() if line.strip()]
        for page in text.split("\f")
    ]


def test_the_contents_are_headed_contents(pdf):
    """The table of contents is headed "Contents" (Sphinx named it after the first part's
    caption, "Part I: Why sinusoids")."""
    contents = next(
        lines
        for lines in page_lines(pdf)[:6]
        if any("Introduction" in x for x in lines)
    )
    assert contents[0] == "Contents", contents[:3]


def test_parts_and_lettered_appendices(text):
    """The parts of the book are LaTeX parts, the appendices a part of their own after which
    LaTeX letters them (they were chapters 15 to 22)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    captions = [part["caption"] for part in toc["parts"] if part.get("caption")]
    for caption in captions:
        numbered = re.match(r"Part ([IVX]+): (.+)", caption)
        if numbered:
            assert f"Part {numbered.group(1)} {numbered.group(2)}" in text, caption
        else:
            assert f" {caption} " in text, caption
    appendices = next(p for p in toc["parts"] if p.get("caption") == "Appendices")
    for letter, chapter in zip("ABCDEFG", appendices["chapters"], strict=False):
        name = title(ROOT / f"{chapter['file']}.md")
        assert f"Appendix {letter} {name}" in text, f"Appendix {letter} {name}"
    # the appendices are not numbered on from the chapters (they were chapters 15 to 22)
    chapters = sum(
        len(part["chapters"])
        for part in toc["parts"]
        if re.match(r"Part [IVX]+", part.get("caption", ""))
    )
    assert f"Chapter {chapters + 1} " not in text, (
        f"an appendix set as chapter {chapters + 1}"
    )


def test_proofs_are_set_as_proofs(pdf):
    """Every proof is set in the book's proof style (a run-in "Proof." and an end mark), not
    in a box under an empty title bar."""
    tex = TEX.read_text(encoding="utf-8")
    proofs = sum(
        len(re.findall(r"^[`:]{3,}\{prf:proof\}", page.read_text(), re.M))
        for page in toc_files()
    )
    assert proofs > 40
    assert tex.count("\\begin{posencproof}") == proofs
    boxed = re.findall(
        r"\\begin\{sphinxadmonition\}\{note\}\s*\\sphinxAtStartPar\s*\\DUrole\{prf-proof",
        tex,
    )
    assert not boxed, f"{len(boxed)} proofs in a box"


def test_one_bibliography(pdf, text):
    """One bibliography, LaTeX's, listed once in the contents: not a chapter "Bibliography"
    holding one sentence before it."""
    tex = TEX.read_text(encoding="utf-8")
    assert tex.count("\\begin{sphinxthebibliography}") == 1
    assert "\\chapter{Bibliography}" not in tex
    assert "Every source the chapters cite, in one place." not in text
    contents = " ".join(" ".join(p) for p in page_lines(pdf)[:8])
    assert contents.count("Bibliography") == 1, "Bibliography twice in the contents"


def test_interactive_figures_read_as_such_on_paper(text):
    """An interactive figure is printed as a note that says it is interactive on the
    website and names the static figure to look at (its caption, naming a slider and a menu,
    once stood under a static picture)."""
    from posenc import figures

    interactive = figures.names("interactive")
    assert text.count("Interactive on the website:") == len(interactive)
    assert not re.search(r"Fig\. [A-Z0-9]+\.\d+: Interactive:", text)
    assert len(re.findall(r"On paper: Fig\. \d+\.\d+\.", text)) == len(interactive)


STATEMENT_TITLE = re.compile(
    r"^(Theorem|Lemma|Proposition|Corollary|Definition|Assumption) [A-Z0-9]+\.\d+"
)


def stranded_titles(pages: list[list[str]]) -> list[tuple[int, str]]:
    """(page, title) of each statement whose title is the last line of a page's text (the
    page's last two lines are its running foot: the page number and a heading)."""
    found = []
    for number, lines in enumerate(pages, start=1):
        body = lines[:-2]
        if body and STATEMENT_TITLE.match(body[-1]):
            found.append((number, body[-1]))
        elif (
            len(body) > 1 and STATEMENT_TITLE.match(body[-2]) and body[-1].endswith(")")
        ):
            found.append((number, body[-2]))  # a title over two lines
    return found


def test_no_statement_title_at_a_page_foot(pdf):
    """A statement's title never ends a page, its statement on the next (p. 102 of the first
    print edition ended with "Proposition 7.3 (Integrals of the power schedules)")."""
    stranded = stranded_titles(page_lines(pdf))
    assert not stranded, f"statement titles at a page's foot: {stranded}"


def test_a_stranded_title_is_found():
    """Negative control of the test above, on the text of that page."""
    page = [
        "Header",
        "7.2.1 Closed forms",
        "Proposition 7.3 (Integrals of the power",
        "schedules)",
        "96",
        "Chapter 7. Bases and frequency schedules",
    ]
    assert stranded_titles([page]) == [(1, "Proposition 7.3 (Integrals of the power")]
    assert stranded_titles([page[:3] + ["The text.", "96", "Chapter 7."]]) == []


# The Chinese print edition: the same book from the same sources, built by
# `tools/translations.py latex` into _build/latex-zh and named <name>-zh.pdf (`make pdf`).
PDF_ZH = PDF.with_name(f"{PDF.stem}-zh.pdf")
LOG_ZH = ROOT / "_build" / "latex-zh" / f"{PDF.stem}-zh.log"
TEX_ZH = LOG_ZH.with_suffix(".tex")
CATALOGUES = ROOT / "locale" / "zh_CN" / "LC_MESSAGES"
ZH_SITE = ROOT / "_build" / "html" / "zh"


@pytest.fixture(scope="module")
def pdf_zh() -> Path:
    if not PDF_ZH.exists():
        pytest.fail(f"no {PDF_ZH.relative_to(ROOT)}: run `make pdf` (`make test` does)")
    sources = [*SOURCES, *sorted(CATALOGUES.rglob("*.po"))]
    stale = [p.name for p in sources if p.stat().st_mtime > PDF_ZH.stat().st_mtime]
    assert not stale, f"the Chinese PDF is older than {stale[:5]}: run `make pdf` again"
    return PDF_ZH


@pytest.fixture(scope="module")
def text_zh(pdf_zh) -> str:
    """The Chinese PDF's text without white space (pdftotext breaks Chinese lines anywhere)."""
    return "".join(run("pdftotext", "-enc", "UTF-8", str(pdf_zh), "-").split())


def chinese_title(page: Path) -> str:
    """A page's title in the Chinese edition: its catalogue's translation of the English."""
    from babel.messages.pofile import read_po

    english = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M).group(1)
    catalogue = CATALOGUES / page.relative_to(ROOT).with_suffix(".po")
    with catalogue.open("rb") as handle:
        message = read_po(handle).get(english.strip())
    assert message is not None and message.string, f"{page.name}: no translated title"
    return re.sub(r"[`*]", "", message.string).strip()


def squeezed(words: str) -> str:
    return "".join(words.split())


def test_the_chinese_pdf_is_the_chinese_book(pdf_zh, text_zh):
    """The Chinese PDF carries the Chinese title (on its title page and as its PDF title)
    and every chapter's and appendix's Chinese title."""
    import translations  # tools/ (tests/conftest.py puts it on the path)

    info = run("pdfinfo", str(pdf_zh))
    assert re.search(r"^Title:\s+(.+)$", info, re.M).group(1) == translations.TITLE
    assert squeezed(translations.TITLE) in text_zh
    missing = [
        chinese_title(page)
        for page in toc_files()[1:]
        if squeezed(chinese_title(page)) not in text_zh
    ]
    assert not missing, f"Chinese titles not in the Chinese PDF: {missing}"


def test_the_chinese_pdf_is_typeset_in_a_cjk_face(pdf_zh):
    """Its text is set in FandolSong (Song) and its headings in FandolHei (Hei), embedded, as
    is every other font; the English PDF needs neither."""
    rows = [row.split() for row in run("pdffonts", str(pdf_zh)).splitlines()[2:]]
    not_embedded = [row[0] for row in rows if row[-5] != "yes"]
    assert rows and not not_embedded, f"fonts not embedded: {not_embedded}"
    faces = {re.sub(r"^[A-Z]{6}\+|-Identity-H$", "", row[0]) for row in rows}
    assert {"FandolSong-Regular", "FandolHei-Bold"} <= faces, sorted(faces)


def test_the_chinese_pdf_numbers_chapters_in_chinese(pdf_zh, text_zh):
    """第 1 章 to 第 15 章, the parts 第一部分 to 第五部分, the appendices 附录 A to 附录 G
    after them (not chapters 16 to 22), statements titled 定理 1.1 (sphinx-proof wrote
    "Theorem 1.1" into LaTeX), and no English word of LaTeX's or of the print edition's: not
    in the contents, where every heading is, nor anywhere else for the words
    only the print edition writes (the code and the bibliography have English of their own:
    "Chapter 1's score", "An Introduction to Harmonic Analysis")."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbered = [
        p for p in toc["parts"] if re.match(r"Part [IVX]+", p.get("caption", ""))
    ]
    chapters = sum(len(part["chapters"]) for part in numbered)
    for number in range(1, chapters + 1):
        assert f"第{number}章" in text_zh, f"第 {number} 章"
    for number in "一二三四五六七八九"[: len(numbered)]:
        assert f"第{number}部分" in text_zh, f"第{number}部分"
    appendices = next(p for p in toc["parts"] if p.get("caption") == "Appendices")
    for letter, chapter in zip("ABCDEFG", appendices["chapters"], strict=False):
        name = chinese_title(ROOT / f"{chapter['file']}.md")
        assert f"附录{letter}{squeezed(name)}" in text_zh, f"附录 {letter} {name}"
        # an appendix's heading or running head as a chapter's (the bibliography's notes
        # cite chapters of other books: the DLMF's 第 16 章)
        for number in range(chapters + 1, chapters + 9):
            assert f"第{number}章{squeezed(name)}" not in text_zh, (
                f"an appendix set as chapter {number}: {name}"
            )
    contents = next(
        "".join("".join(lines).split())
        for lines in page_lines(pdf_zh)[:6]
        if any("引言" in line for line in lines)
    )
    assert contents.startswith("目录"), contents[:20]
    english = re.findall(
        r"Contents|Chapter|Part|Appendix|Bibliography|Introduction", contents
    )
    assert not english, f"English words in the contents: {sorted(set(english))}"
    for word in ("引言", "参考文献", "证明："):
        assert word in text_zh, word
    english = re.findall(
        rf"Chapter{chapters + 1}|Proof\.|Interactiveonthewebsite|Onpaper:|Fig\.\d"
        r"|Appendix[A-G]",
        text_zh,
    )
    assert not english, f"English words of the print edition: {sorted(set(english))}"
    # a statement's title, as the LaTeX sets it (a code comment says "their Theorem 2.1")
    kinds = re.findall(
        r"\\begin\{sphinxadmonition\}\{note\}\{(\w+) [A-Z0-9]+\.\d",
        TEX_ZH.read_text(encoding="utf-8"),
    )
    chinese_kinds = {"定理", "引理", "命题", "推论", "定义", "假设", "练习"}
    assert len(kinds) > 40 and set(kinds) <= chinese_kinds, sorted(set(kinds))


def test_the_chinese_pdf_prints_every_figure_and_proof(pdf_zh, text_zh):
    """Every figure has its numbered caption (图 4.1), an interactive one as a note pointing to
    its static twin; every proof is set in the book's proof style."""
    from posenc import figures

    names = [
        name
        for page in toc_files()
        for name in re.findall(r'^show\("(fig-[a-z0-9-]+)"\)', page.read_text(), re.M)
    ]
    captions = set(re.findall(r"图([A-Z0-9]+\.\d+)：", text_zh))
    assert len(captions) == len(names), (
        f"{len(captions)} figure captions for {len(names)} figures"
    )
    interactive = figures.names("interactive")
    assert text_zh.count("网站上的交互图，") == len(interactive)
    assert len(re.findall(r"纸面上请看图\d+\.\d+。", text_zh)) == len(interactive)
    tex = TEX_ZH.read_text(encoding="utf-8")
    proofs = sum(
        len(re.findall(r"^[`:]{3,}\{prf:proof\}", page.read_text(), re.M))
        for page in toc_files()
    )
    assert tex.count("\\begin{posencproof}") == proofs


def test_the_chinese_pdf_prints_the_chinese_figures(pdf_zh):
    """Every static figure of the Chinese PDF is its Chinese drawing, the bytes
    `render(name, "pdf", language="zh_CN")` gives (print_edition.py puts them beside the .tex
    file), not the English one."""
    from posenc import figures

    latex = TEX_ZH.parent
    included = set(
        re.findall(
            r"\\sphinxincludegraphics(?:\[[^\]]*\])?\{\{?(fig-[\w-]+)",
            TEX_ZH.read_text(encoding="utf-8"),
        )
    )
    static = figures.names("static")
    assert included == set(static), f"not printed: {sorted(set(static) - included)}"
    differ = [
        name
        for name in static
        if (latex / f"{name}.pdf").read_bytes()
        != figures.render(name, "pdf", language="zh_CN")
    ]
    assert not differ, f"printed other drawings than the Chinese ones: {differ}"


def test_the_chinese_pdf_resolves_and_prints_everything(pdf_zh, text_zh):
    """No unresolved reference, no character dropped for want of a glyph, a plausible length."""
    assert "??" not in text_zh
    log = LOG_ZH.read_text(encoding="utf-8", errors="replace")
    undefined = re.findall(r"(?:Hyper r|R)eference `([^']+)' on page", log)
    assert not undefined, f"undefined references: {sorted(set(undefined))[:10]}"
    missing = missing_characters(log)
    assert not missing, f"characters the Chinese PDF's fonts lack: {missing}"
    pages = int(
        re.search(r"^Pages:\s+(\d+)", run("pdfinfo", str(pdf_zh)), re.M).group(1)
    )
    assert 150 <= pages <= 400, f"{pages} pages"


def test_each_edition_links_its_own_pdf(pdf, pdf_zh):
    """The landing page of each edition links its own PDF, beside its root (the very file
    `make pdf` wrote), in its own words: the Chinese one no longer says the PDF is English."""
    from bs4 import BeautifulSoup

    for root, built in ((ZH_SITE.parent, pdf), (ZH_SITE, pdf_zh)):
        intro = root / "book" / "intro.html"
        soup = BeautifulSoup(intro.read_text(encoding="utf-8"), "html.parser")
        links = soup.select("article a.posenc-pdf-edition")
        links += soup.select("a.btn-download-pdf-button")
        assert len(links) == 2, (intro, links)
        for link in links:
            target = (intro.parent / link["href"]).resolve()
            assert target == (root / built.name).resolve(), (intro, link["href"])
            assert target.read_bytes() == built.read_bytes(), "a stale PDF"
        if root == ZH_SITE:
            said = " ".join(
                [links[0].get_text(), links[1].get_text(), links[1].get("title", "")]
            )
            assert "印刷版（PDF）" in said and "英文" not in said, said
