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
