"""Benchmark: the weight of each built page, measured from the HTML files on disk.

A page's weight is its HTML plus every local file it makes the browser load at once: images,
scripts and stylesheets (fonts that stylesheets pull in are listed once for the whole site, as a
browser caches them; so is MathJax, which every page shares). Each page is parsed with
BeautifulSoup and the bytes of the files it references are summed.

Where Debian's Chromium headless shell is installed, each page is also opened as a reader's
first view (Playwright, empty cache): the bytes it really loads (lazy figures not yet scrolled
to are not fetched; MathJax's components and fonts are) and the milliseconds until MathJax has
typeset what is on screen. tests/test_pages.py holds the first to 2.5 MB; the second is a time,
which depends on the machine and what else it does, so it is a target here, not a test.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from browser import FETCHED, PAGE_BUDGET
from bs4 import BeautifulSoup

TITLE = "Page weight (built HTML on disk)"
# ms from navigation until MathJax has typeset what is on screen, on a first view
MATHJAX_BUDGET_MS = 1000
LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload"}
CSS_URL = re.compile(r"""(?:url\(\s*|@import\s+)['"]?([^'")\s;]+)""")
FONT_SUFFIXES = {".woff2", ".woff", ".ttf", ".otf", ".eot"}


def first_views(site: Path, pages: list[str]) -> dict[str, dict]:
    """{docname: {"bytes", "mathjax_ms", "interactive"}} from the browser, or {} without it: each
    page opened as tests/test_pages.py opens it (browser.first_view)."""
    from browser import CHROMIUM, CHROMIUM_ARGS, first_view, serve

    if not Path(CHROMIUM).exists():
        return {}
    from playwright.sync_api import sync_playwright

    found = {}
    with serve(site) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        for name in pages:
            page, _, _, loaded, mathjax_ms = first_view(browser, origin, f"{name}.html")
            found[name] = {
                "bytes": loaded,
                "mathjax_ms": mathjax_ms,
                "interactive": bool(
                    page.evaluate("document.querySelectorAll('.posenc-plotly').length")
                ),
            }
            page.context.close()
        browser.close()
    return found


def _local(page: Path, url: str, site: Path) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme or url.startswith(("//", "data:", "#")) or not parts.path:
        return None
    path = (page.parent / unquote(parts.path)).resolve()
    return path if path.is_file() and site.resolve() in path.parents else None


def _css_fonts(stylesheet: Path, site: Path, seen: set[Path]) -> set[Path]:
    """Font files a stylesheet (and what it @imports) refers to."""
    if stylesheet in seen:
        return set()
    seen.add(stylesheet)
    fonts = set()
    for url in CSS_URL.findall(
        stylesheet.read_text(encoding="utf-8", errors="replace")
    ):
        target = _local(stylesheet, url, site)
        if target is None:
            continue
        if target.suffix == ".css":
            fonts |= _css_fonts(target, site, seen)
        elif target.suffix in FONT_SUFFIXES:
            fonts.add(target)
    return fonts


def _one_format_per_face(fonts: set[Path]) -> list[Path]:
    """A browser fetches one format of each face: woff2 where there is one."""
    by_face: dict[tuple[Path, str], list[Path]] = {}
    for font in fonts:
        by_face.setdefault((font.parent, font.stem), []).append(font)
    order = [".woff2", ".woff", ".ttf", ".otf", ".eot"]
    return [
        min(files, key=lambda f: order.index(f.suffix)) for files in by_face.values()
    ]


def measure(site: Path, pages: list[str]) -> dict:
    """``pages``: docnames such as "book/ch01-symmetry" (their HTML is
    site/<name>.html)."""
    site = Path(site)
    rows, mathjax, fonts, stylesheets = {}, set(), set(), set()
    for name in pages:
        page = site / f"{name}.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        files = {
            "images": set(),
            "scripts": set(),
            "stylesheets": set(),
            "other": set(),
        }
        urls = [
            (tag, el[attr])
            for tag, attr in FETCHED.items()
            for el in soup.find_all(tag)
            if el.get(attr)
        ]
        urls += [
            ("link", el["href"])
            for el in soup.find_all("link", href=True)
            if set(el.get("rel", [])) & LOADED_LINKS
        ]
        for tag, url in urls:
            path = _local(page, url, site)
            if path is None:
                continue
            if "mathjax" in path.relative_to(site.resolve()).parts:
                mathjax.add(path)
            elif tag in {"img", "source", "object", "embed"}:
                files["images"].add(path)
            elif tag == "script":
                files["scripts"].add(path)
            elif path.suffix == ".css":
                files["stylesheets"].add(path)
            else:
                files["other"].add(path)
        for css in files["stylesheets"]:
            fonts |= _css_fonts(css, site.resolve(), set())
        stylesheets |= files["stylesheets"]
        sizes = {
            kind: sum(p.stat().st_size for p in paths) for kind, paths in files.items()
        }
        html = page.stat().st_size
        rows[name] = {
            "html": html,
            **sizes,
            "total": html + sum(sizes.values()),
            "own": html + sizes["images"],
            "image_count": len(files["images"]),
        }
    views = first_views(site, pages)
    for name, view in views.items():
        rows[name]["first_view"] = view["bytes"]
        rows[name]["mathjax_ms"] = view["mathjax_ms"]
        rows[name]["interactive"] = view["interactive"]
    fonts_once = _one_format_per_face(fonts)
    mathjax_root = site / "mathjax"
    mathjax_fonts = [p for p in mathjax_root.rglob("*") if p.suffix in FONT_SUFFIXES]
    heaviest = max(rows, key=lambda n: rows[n]["total"])
    return {
        "pages": rows,
        "heaviest_page": heaviest,
        "heaviest_own_page": max(rows, key=lambda n: rows[n]["own"]),
        "css_fonts_bytes_once": sum(p.stat().st_size for p in fonts_once),
        "css_fonts_count": len(fonts_once),
        "mathjax_script_bytes_once": sum(p.stat().st_size for p in mathjax),
        "mathjax_fonts_bytes_available": sum(p.stat().st_size for p in mathjax_fonts),
        "targets": {}
        if not views
        else {
            "first view of a page without an interactive figure <= 2.5 MB": all(
                v["bytes"] <= PAGE_BUDGET
                for v in views.values()
                if not v["interactive"]
            ),
            "MathJax done on screen <= 1 s after navigation": all(
                v["mathjax_ms"] <= MATHJAX_BUDGET_MS
                for v in views.values()
                if v["mathjax_ms"] is not None
            ),
        },
    }


def kib(n: int) -> str:
    return f"{n / 1024:.0f}"


def markdown(r: dict, columns: dict[str, dict[str, float]] | None = None) -> str:
    """``columns``: more per-page numbers to show first, {heading: {page stem:
    seconds}}."""
    columns = columns or {}
    lines = [
        "| page | "
        + "".join(f"{heading} | " for heading in columns)
        + "HTML (KiB) | images (KiB, n) | scripts (KiB) | stylesheets (KiB) | "
        "page weight (KiB) | first view (KiB) | MathJax on screen (ms) |",
        "|---|" + "---:|" * (len(columns) + 7),
    ]
    for name, row in r["pages"].items():
        stem = name.rsplit("/", 1)[-1]
        run = "".join(
            f"{values[stem]:.1f} | " if stem in values else "– | "
            for values in columns.values()
        )
        lines.append(
            f"| {stem} | {run}{kib(row['html'])} | {kib(row['images'])} "
            f"({row['image_count']}) | {kib(row['scripts'])} | "
            f"{kib(row['stylesheets'])} | {kib(row['total'])} | "
            f"{kib(row['first_view']) if 'first_view' in row else '–'} | "
            f"{round(row['mathjax_ms']) if row.get('mathjax_ms') is not None else '–'} |"
        )
    lines += [
        "",
        f"- heaviest page: {r['heaviest_page'].rsplit('/', 1)[-1]} "
        f"({kib(r['pages'][r['heaviest_page']]['total'])} KiB, of which "
        f"{kib(r['pages'][r['heaviest_page']]['own'])} KiB its own HTML and images)",
        f"- counted once for the whole site: MathJax's loader "
        f"{kib(r['mathjax_script_bytes_once'])} KiB (the components it fetches are in the first "
        f"view column; its fonts, fetched as needed: at most "
        f"{kib(r['mathjax_fonts_bytes_available'])} KiB); fonts the stylesheets load: "
        f"{r['css_fonts_count']} faces, {kib(r['css_fonts_bytes_once'])} KiB (woff2; a "
        f"browser fetches only the faces a page uses)",
    ]
    return "\n".join(lines) + "\n"
