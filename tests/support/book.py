"""The book's files and the built site, as the tests read them."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml
from lint_chapters import is_notebook  # noqa: F401 (the one definition, re-exported)

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


def toc_files(root: Path = ROOT) -> list[Path]:
    """Every page the table of contents of the book in ``root`` names, in order (as source
    paths)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [chapter["file"] for chapter in part.get("chapters", [])]
    files += [chapter["file"] for chapter in toc.get("chapters", [])]
    paths = []
    for name in files:
        candidates = [root / f"{name}{suffix}" for suffix in (".md", ".ipynb")]
        paths.append(next(path for path in candidates if path.exists()))
    return paths


@functools.cache
def _read(path: Path, mtime_ns: int):
    import jupytext

    return jupytext.read(path)


def read_chapter(path: Path):
    """A chapter as JupyterLab reads it (jupytext), read once per version of the file and per
    test process (several test files read every chapter). Shared: copy it before changing it."""
    return _read(Path(path).resolve(), Path(path).stat().st_mtime_ns)


def edition_root(page: Path) -> Path:
    """The root of the edition a built page belongs to: _build/html, or _build/html/zh."""
    relative = page.resolve().relative_to(HTML.resolve())
    return HTML / "zh" if relative.parts[0] == "zh" else HTML


@functools.cache
def _parsed(path: Path, mtime_ns: int, size: int):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def built_page(path: Path):
    """The HTML page at ``path`` as BeautifulSoup, parsed once per version of the file and per
    test process (five test files read the same pages). Shared: no test may change it (parse a
    copy of your own to cut it up)."""
    stat = path.stat()
    return _parsed(path.resolve(), stat.st_mtime_ns, stat.st_size)


def bibliography_labels(bibliography) -> dict[str, str]:
    """{entry id: its label without brackets} of a built bibliography page (BeautifulSoup):
    "Vaswani et al. 2017", or "苏剑林 2021" in the Chinese edition."""
    return {
        item["id"]: item.select_one(".label").get_text(strip=True).strip("[]")
        for item in bibliography.select('div.citation[role="doc-biblioentry"]')
    }


def citation_links(page) -> list[tuple[str, str]]:
    """(what the citation says, its brackets dropped; the bibliography id it links to) for
    every link of every citation on a built page (BeautifulSoup)."""
    return [
        (
            " ".join(re.sub(r"[()（）\[\]]", " ", citation.get_text(" ")).split()),
            link["href"].split("#")[1],
        )
        for citation in page.select(".bibtex-citation")
        for link in citation.select('a[href*="bibliography.html#"]')
    ]


def requirements(path: Path) -> dict[str, str | None]:
    """{package: pinned version, or None for a bare name} of a requirements file, its names
    normalised as pip compares them (``packaging.utils.canonicalize_name``)."""
    from packaging.utils import canonicalize_name

    named = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.match(
            r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:==(\S+))?", line
        )
        if found:
            named[canonicalize_name(found.group(1))] = found.group(2)
    return named
