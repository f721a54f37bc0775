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
    captions = set(re.findall(r"Fig\. (\d+\.\d+):", text))
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
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    chinese = re.findall(r"[\u4e00-\u9fff]{4,}", bib)
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
