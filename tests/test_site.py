"""Checks of the built HTML in _build/html (built by `make book`, which `make test` runs
first)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from browser import FETCHED
from bs4 import BeautifulSoup
from no_object_reprs import object_reprs
from support.book import (
    HTML,
    bibliography_labels,
    built_page,
    citation_links,
    edition_root,
    is_notebook,
    toc_files,
)

from posenc.display import NUMBER

pytestmark = pytest.mark.site

WARNING_TEXT = re.compile(r"\b\w*Warning\b:|Traceback \(most recent call last\)")


def pages(site: Path) -> list[Path]:
    # _static holds the theme's HTML templates, not pages
    return sorted(
        path
        for path in site.rglob("*.html")
        if not {"mathjax", "_static"} & set(path.relative_to(site).parts)
    )


@pytest.fixture(scope="module")
def soups(built_site):
    return {path: built_page(path) for path in pages(built_site)}


def is_external(url: str) -> bool:
    return urlsplit(url).scheme in {"http", "https"} or url.startswith("//")


def test_every_toc_page_was_built(built_site):
    for source in toc_files():
        page = built_site / source.relative_to(HTML.parents[1]).with_suffix(".html")
        assert page.exists(), f"{source.name} has no page in the site"


def test_nothing_loads_from_outside_the_site(soups):
    offenders = []
    for path, soup in soups.items():
        for tag, attribute in FETCHED.items():
            offenders += [
                (path.name, tag, el[attribute])
                for el in soup.find_all(tag)
                if el.get(attribute) and is_external(el[attribute])
            ]
        offenders += [
            (path.name, "link", el["href"])
            for el in soup.find_all("link")
            if el.get("href")
            and is_external(el["href"])
            and set(el.get("rel", []))
            & {"stylesheet", "preload", "icon", "modulepreload", "prefetch", "manifest"}
        ]
        offenders += [
            (path.name, "style", url)
            for el in soup.find_all(style=True)
            for url in re.findall(r"url\(['\"]?(https?:[^)'\"]+)", el["style"])
        ]
    assert not offenders, f"pages load external resources: {offenders[:10]}"


def test_stylesheets_and_scripts_fetch_nothing_from_outside(built_site):
    offenders = []
    for path in (built_site / "_static").rglob("*"):
        if path.suffix == ".css":
            offenders += [
                (path.name, url)
                for url in re.findall(
                    r"(?:url\(|@import\s+)['\"]?(https?://[^)'\"\s]+)",
                    path.read_text(errors="replace"),
                )
            ]
    assert not offenders, f"stylesheets reference external resources: {offenders[:10]}"


def test_mathjax_is_served_by_the_site(soups, built_site):
    scripts = [
        (path, el["src"])
        for path, soup in soups.items()
        for el in soup.find_all("script", src=True)
        if "mathjax" in el["src"].lower()
    ]
    assert scripts, "no page loads MathJax"
    for path, src in scripts:
        target = (path.parent / unquote(urlsplit(src).path)).resolve()
        assert target.is_file(), f"{path.name}: MathJax script {src} does not exist"
        assert (
            built_site / "mathjax"
        ) in target.parents and "_static" not in target.parts


def test_what_the_site_serves_of_others_carries_its_licence(built_site):
    """MathJax (Apache 2.0: a copy of the licence goes with every copy of the work) and Plotly's
    bundle (MIT: so does its notice) are served with their licences beside them, in both
    editions. Of MathJax only what the pages use (tools/extensions/offline_assets.py,
    MATHJAX_EXTRAS): under 3 MB, where the package's es5 folder holds 24 MB."""
    mathjax = built_site / "mathjax"
    assert "Apache License" in (mathjax / "LICENSE").read_text(encoding="utf-8")
    served = sum(path.stat().st_size for path in mathjax.rglob("*") if path.is_file())
    assert served < 3e6, f"the site serves {served / 1e6:.1f} MB of MathJax"
    bundles = sorted(built_site.rglob("plotly-basic.min.js"))
    assert len(bundles) == 2, f"Plotly's bundle in each edition: {bundles}"
    for bundle in bundles:
        notice = (bundle.parent / "LICENSE").read_text(encoding="utf-8")
        assert notice.startswith("MIT License") and "Plotly" in notice, bundle


# Where a page names another file of the site: links, and what the browser fetches
ASSETS = {
    "a": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "source": "srcset",
    "iframe": "src",
}
CSS_URL = re.compile(r"url\(\s*['\"]?([^)'\"]+)")


def _local(url: str) -> bool:
    return bool(url) and not (
        urlsplit(url).scheme or url.startswith(("//", "#", "data:", "javascript:"))
    )


def _file(page: Path, url: str) -> Path:
    """The file of the site that ``url``, on ``page``, names."""
    if not urlsplit(url).path:
        return page.resolve()
    target = (page.parent / unquote(urlsplit(url).path)).resolve()
    return target / "index.html" if target.is_dir() else target


def test_every_internal_link_and_asset_resolves(soups, built_site):
    """Every link within the site, in both editions, leads to a file of the site, and to an id
    on that page; so does every file a page or a stylesheet of the site asks for (scripts,
    stylesheets, icons, images, a picture's sources, the Plotly bundle of the loader's
    data-src, fonts and images of url()). The landing page's link to the print edition once
    led to a PDF that only `make pdf` put there: a 404 on a site `make book` built."""
    ids = {
        path: {el["id"] for el in soup.find_all(id=True)}
        for path, soup in soups.items()
    }
    broken, checked = [], 0
    for path, soup in soups.items():
        urls = [
            (tag, el[attribute].split()[0])
            for tag, attribute in ASSETS.items()
            for el in soup.find_all(tag)
            if el.get(attribute)
        ]
        urls += [("data-src", el["data-src"]) for el in soup.select("[data-src]")]
        for tag, url in urls:
            if not _local(url) and not (tag == "a" and url.startswith("#")):
                continue
            checked += 1
            target = _file(path, url) if not url.startswith("#") else path
            fragment = unquote(urlsplit(url).fragment)
            if not target.exists():
                broken.append((path.relative_to(built_site).as_posix(), url))
            elif (
                tag == "a"
                and fragment
                and target in ids
                and fragment not in ids[target]
            ):
                broken.append((path.relative_to(built_site).as_posix(), url))
    for sheet in built_site.rglob("*.css"):
        for url in CSS_URL.findall(sheet.read_text(encoding="utf-8", errors="replace")):
            if _local(url) and not url.startswith("%23"):
                checked += 1
                if not _file(sheet, url).exists():
                    broken.append((sheet.relative_to(built_site).as_posix(), url))
    assert checked > 5000, f"only {checked} links and assets found"
    assert not broken, f"broken links and assets: {broken[:20]}"


PDF_NAME = (
    Path(
        yaml.safe_load((HTML.parents[1] / "_config.yml").read_text())["latex"][
            "latex_documents"
        ]["targetname"]
    )
    .with_suffix(".pdf")
    .name
)


def test_the_print_edition_is_linked_where_it_exists(soups, built_site):
    """The landing page's "print edition" and the ".pdf" of every page's download menu, in
    both editions, lead to the edition's PDF when `make pdf` has built it (beside the
    edition's root, the very file: <name>.pdf, zh/<name>-zh.pdf), and otherwise to the
    landing page's word that `make pdf` writes it; no page offers `window.print()` of itself
    as "the PDF"."""
    printing = [
        path.name for path, soup in soups.items() if soup.select('[onclick*="print"]')
    ]
    assert not printing, f"pages that print themselves as the PDF: {printing}"
    menus = 0
    for path, soup in soups.items():
        root = edition_root(path)
        name = PDF_NAME if root == HTML else f"{Path(PDF_NAME).stem}-zh.pdf"
        built = HTML.parents[1] / "_build" / "pdf" / name
        links = soup.select("a.btn-download-pdf-button")
        if path.name == "intro.html":
            links += soup.select("article a.posenc-pdf-edition")
            note = soup.select_one("article #print-edition")
            if not built.exists():
                assert note is not None and "make pdf" in note.get_text(), path
        for link in links:
            menus += 1
            target, fragment = (
                _file(path, link["href"]),
                urlsplit(link["href"]).fragment,
            )
            if built.exists():
                assert target == (root / name).resolve(), (path, link["href"])
                assert target.read_bytes() == built.read_bytes(), "a stale PDF"
            else:
                assert target.name == "intro.html" and fragment == "print-edition", (
                    path,
                    link["href"],
                )
    assert menus > 40, f"only {menus} links to the print edition"


def test_the_chinese_menu_says_its_sources_are_english(soups, built_site):
    """The Chinese edition's download menu offers the chapter's English source and notebook,
    and says so."""
    items = [
        item
        for path, soup in soups.items()
        if edition_root(path).name == "zh"
        for item in soup.select(
            "a.btn-download-source-button, a.btn-download-notebook-button"
        )
    ]
    assert len(items) > 30
    silent = [
        item.get_text(" ", strip=True) for item in items if "英文" not in item.text
    ]
    assert not silent, f"menu items that do not say they are English: {silent[:5]}"


def test_the_site_index_has_a_title_and_a_link(built_site):
    """Each edition's index.html, which sends the browser on to the landing page, has a title
    and a link to follow (it was a bare <meta refresh>)."""
    for site in (built_site, built_site / "zh"):
        soup = built_page(site / "index.html")
        assert soup.title and soup.title.get_text(strip=True), site
        link = soup.select_one("body a[href]")
        assert link is not None, site
        assert (
            _file(site / "index.html", link["href"])
            == (site / "book" / "intro.html").resolve()
        )


def test_no_glue_call_in_code_the_reader_sees(soups):
    """The code a page shows unfolded computes and checks; the calls that hand its numbers to
    the text (`glue(...)`) sit in cells the page does not show (the appendix of special
    functions showed ten of them, chapters 5 to 9 more)."""
    shown = []
    for path, soup in soups.items():
        for cell in soup.select("div.cell"):
            if {"tag_hide-input", "tag_hide-cell"} & set(cell.get("class", [])):
                continue
            source = cell.select_one(".cell_input")
            if source is not None and "glue(" in source.get_text():
                shown.append(path.relative_to(HTML).as_posix())
    assert not shown, f"pages showing glue(...) in open code: {sorted(set(shown))}"


def test_appendices_are_lettered_and_number_their_statements(soups):
    """The appendices are A, B, ... in the contents and their headings, and their statements
    and figures are numbered like the chapters' ("Definition B.1"; they were "Definition 1,
    2, 3" across all appendices), in both editions."""
    appendix_pages = {
        path: soup for path, soup in soups.items() if path.name.startswith("appendix-")
    }
    assert len(appendix_pages) == 14, sorted(p.name for p in appendix_pages)
    letters, statements = set(), 0
    for path, soup in appendix_pages.items():
        heading = soup.select_one("article h1").get_text(" ", strip=True)
        match = re.match(r"([A-Z])\. ", heading)
        assert match, f"{path.name}: heading {heading!r} has no letter"
        letters.add(match.group(1))
        for title in soup.select("article div.proof.admonition > p.admonition-title"):
            text = title.get_text(" ", strip=True)
            if re.match(r"(Proof|证明)", text):
                continue
            statements += 1
            assert re.search(rf"\b{match.group(1)}\.\d+\b", text), (path.name, text)
    assert letters == set("ABCDEFG"), letters
    assert statements >= 6


def test_no_duplicate_ids(soups):
    duplicates = {}
    for path, soup in soups.items():
        ids = [el["id"] for el in soup.find_all(id=True)]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            duplicates[path.name] = repeated
    assert not duplicates, f"ids used more than once on a page: {duplicates}"


def test_no_unresolved_references(soups):
    problems = [
        (path.name, el.get_text()[:80])
        for path, soup in soups.items()
        for el in soup.select(".problematic, .system-message")
    ]
    assert not problems, problems


def test_no_python_warnings_or_tracebacks_in_outputs(soups):
    found = [
        (path.name, match.group(0))
        for path, soup in soups.items()
        for output in soup.select(".cell_output, .output")
        for match in [WARNING_TEXT.search(output.get_text())]
        if match
    ]
    assert not found, f"cell outputs contain warning or traceback text: {found}"


def test_every_image_has_alt_text(soups):
    missing = [
        (path.name, img.get("src"))
        for path, soup in soups.items()
        for img in soup.select("main img, article img")
        if not img.get("alt", "").strip()
    ]
    assert not missing, f"images without alt text: {missing}"


def test_every_figure_has_a_numbered_caption(soups):
    bad = [
        (path.name, fig.get("id"))
        for path, soup in soups.items()
        for fig in soup.select("figure")
        if not fig.select_one("figcaption .caption-number")
        or not fig.select_one("figcaption").get_text(strip=True)
    ]
    assert not bad, f"figures without a numbered caption: {bad}"


def test_plotly_is_served_by_the_site_only_where_needed(soups, built_site):
    """Plotly's basic bundle comes from <html>/plotly/ (not a CDN, not _static/), it is
    the plotly.js version the pinned plotly package writes figures for, and only the
    pages with an interactive figure (a div of class posenc-plotly) load it, through the
    loader that waits for the page and its formulas (no <script src> of Plotly)."""
    import plotly.offline

    served = (built_site / "plotly" / "plotly-basic.min.js").resolve()
    assert served.is_file() and 1_000_000 < served.stat().st_size < 2_000_000

    def served_for(page: Path) -> Path:  # each edition serves its own copy
        return (edition_root(page) / "plotly" / "plotly-basic.min.js").resolve()

    header = served.read_text(encoding="utf-8")[:200]
    assert (
        f"plotly.js (basic - minified) v{plotly.offline.get_plotlyjs_version()}"
        in header
    )
    assert not (built_site / "plotly" / "plotly.min.js").exists(), (
        "the 4.8 MB full bundle"
    )
    with_figures, loading = set(), set()
    for path, soup in soups.items():
        figures = soup.select("div.posenc-plotly")
        if figures:
            with_figures.add(path.name)
        assert all(div.get("aria-label", "").strip() for div in figures), (
            f"{path.name}: no aria-label"
        )
        for el in soup.find_all("script", src=True):
            assert "plotly" not in el["src"].lower(), (
                f"{path.name}: Plotly in the head, before the formulas: {el['src']}"
            )
        loader = soup.select_one("head script#posenc-plotly-loader[data-src]")
        if loader is not None:
            target = (
                path.parent / unquote(urlsplit(loader["data-src"]).path)
            ).resolve()
            assert target == served_for(path), (
                f"{path}: Plotly from {loader['data-src']}"
            )
            assert "MathJax.startup.promise" in loader.string, (
                f"{path.name}: Plotly's loader does not wait for MathJax"
            )
            loading.add(path.name)
    assert {
        "ch05-decay-integral.html",
        "ch07-bases-schedules.html",
        "ch12-rope.html",
    } <= with_figures
    assert loading == with_figures, (
        f"Plotly loaded by {sorted(loading)}, needed by {sorted(with_figures)}"
    )
    assert not list((built_site / "_static").rglob("plotly*.js")), (
        "Plotly under _static/ (every page)"
    )


SEARCH_SCRIPTS = ("searchtools.js", "language_data.js", "searchindex.js")


def test_only_the_search_page_loads_the_search_index(soups, built_site):
    """pydata-sphinx-theme puts Sphinx's search scripts and the whole search index in every
    page's head, for a search-as-you-type that this book leaves off (drop_search_scripts, in
    tools/extensions/lighter_pages.py); each edition's search page still loads all three."""

    def search_scripts(soup) -> set[str]:
        return {
            name
            for el in soup.find_all("script", src=True)
            for name in SEARCH_SCRIPTS
            if urlsplit(el["src"]).path.endswith(name)
        }

    loading = {
        path.relative_to(built_site).as_posix(): sorted(search_scripts(soup))
        for path, soup in soups.items()
        if path.name != "search.html" and search_scripts(soup)
    }
    assert not loading, f"pages loading the search index: {loading}"
    search_pages = [path for path in soups if path.name == "search.html"]
    assert len(search_pages) == 2, search_pages  # English and Chinese
    for path in search_pages:
        assert search_scripts(soups[path]) == set(SEARCH_SCRIPTS), path


def test_no_widget_state_or_widget_manager_in_pages(soups):
    """The ipywidgets explorers are for Jupyter only: no page carries their state or a
    manager."""
    offenders = [
        (path.name, el.get("type") or el.get("src"))
        for path, soup in soups.items()
        for el in soup.find_all("script")
        if el.get("type") == "application/vnd.jupyter.widget-state+json"
        or "require.min.js" in el.get("src", "")
        or "embed-amd" in el.get("src", "")
    ]
    assert not offenders, offenders


PRF_OPEN = re.compile(r"^(`{3,}|:{3,})\{prf:(\w+)\}")
CITE_ROLE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")


def book_sources() -> list[Path]:
    return [
        path
        for path in toc_files()
        if path.parent.name == "book" and path.suffix == ".md"
    ]


def prf_labels(text: str) -> list[str]:
    """The `:label:` of every prf directive except proofs (which sphinx-proof does not
    index)."""
    labels, lines = [], text.splitlines()
    for number, line in enumerate(lines):
        match = PRF_OPEN.match(line.strip())
        if not match or match.group(2) == "proof":
            continue
        for option in lines[number + 1 :]:
            if not option.startswith(":") or option.startswith(match.group(1)[:3]):
                break
            if option.startswith(":label:"):
                labels.append(option.split(":", 2)[2].strip())
    return labels


def test_proof_index_lists_every_labelled_statement(built_site):
    index = built_site / "prf-prf.html"
    assert index.exists(), "no index of statements (prf-prf.html)"
    soup = built_page(index)
    # each entry links to the statement (href "book/chNN-….html#<label>") and is named as
    # the book numbers it ("Theorem 5.3"), grouped by chapter (statement_index.py)
    links = soup.select("article a[href], main a[href]")
    listed = {urlsplit(a["href"]).fragment for a in links}
    named = [a.get_text(strip=True) for a in links if "#" in a["href"]]
    assert "Theorem 5.3" in named and not any(n.startswith("thm-") for n in named)
    labels = {
        label: source.name
        for source in book_sources()
        for label in prf_labels(source.read_text(encoding="utf-8"))
    }
    assert len(labels) > 40, (
        f"found only {len(labels)} labelled statements: is the parser broken?"
    )
    missing = sorted(
        f"{label} ({name})" for label, name in labels.items() if label not in listed
    )
    assert not missing, f"labelled statements missing from the proof index: {missing}"
    intro = built_page(built_site / "book" / "intro.html").select_one("article")
    assert intro.select('a[href$="prf-prf.html"]'), (
        "the introduction does not link the proof index"
    )


def _plain(text: str) -> str:
    """Letters and digits only, case-folded: a BibTeX title compares with its
    rendering."""
    return "".join(
        ch for ch in re.sub(r"\\[a-zA-Z]+|[{}]", "", text).casefold() if ch.isalnum()
    )


def test_every_citation_resolves_to_the_bibliography(soups, built_site):
    from pybtex.database import parse_file

    entries = parse_file(str(HTML.parents[1] / "book" / "references.bib")).entries
    cited = {
        key.strip(): source.name
        for source in book_sources()
        for keys in CITE_ROLE.findall(source.read_text(encoding="utf-8"))
        for key in keys.split(",")
    }
    assert cited, "no {cite} roles found in the book"
    unknown = sorted(
        f"{key} ({name})" for key, name in cited.items() if key not in entries
    )
    assert not unknown, f"cited keys missing from book/references.bib: {unknown}"

    unresolved = []
    for path, soup in soups.items():
        article = soup.select_one("article") or soup
        # the text outside code: a set of what is inside, where asking each string for a
        # parent of those kinds walked up the tree from each of about 170,000 (5 s)
        in_code = {
            id(text)
            for element in article.find_all(["code", "pre", "script", "style"])
            for text in element.find_all(string=True)
        }
        prose = " ".join(
            text for text in article.find_all(string=True) if id(text) not in in_code
        )
        unresolved += [
            (path.name, m) for m in re.findall(r"\{cite[^}]*\}`[^`]*`?", prose)
        ]
        unresolved += [
            (path.name, el.get_text(strip=True))
            for el in soup.select(".bibtex-citation")
            if not el.select('a[href*="bibliography.html#"]')
        ]
    assert not unresolved, f"unresolved citations: {unresolved[:10]}"

    page = built_page(built_site / "book" / "bibliography.html")
    listed = [
        _plain(el.get_text(" ")) for el in page.select('[role="doc-biblioentry"]')
    ]
    absent = sorted(
        key
        for key in cited
        if not any(
            _plain(entries[key].fields.get("title", key)) in entry for entry in listed
        )
    )
    assert not absent, f"cited works missing from the bibliography page: {absent}"


def _bibliography(built_site):
    from pybtex.database import parse_file

    entries = parse_file(str(HTML.parents[1] / "book" / "references.bib")).entries
    return entries, built_page(built_site / "book" / "bibliography.html")


def test_bibliography_labels_are_the_author_year_citations(built_site):
    """Each reference-list label is "Author 2017", "Author and Other 2019" or "Author et al.
    2020" (a letter after the year tells one author's works of a year apart), built from the
    entry's first author and year; labels are in alphabetical order with organisations by name
    ("The" ignored). No alpha labels such as [VSP+17] or [Anonymousbauthor22]."""
    from pybtex.richtext import Text

    entries, page = _bibliography(built_site)
    listed = page.select('div.citation[role="doc-biblioentry"]')
    assert len(listed) > 20
    labels, bad = [], []
    for item in listed:
        label = item.select_one(".label").get_text(strip=True).strip("[]")
        labels.append(label)
        body = item.p.get_text(" ", strip=True)
        entry = next(
            (e for e in entries.values() if _plain(e.fields["title"]) in _plain(body)),
            None,
        )
        if entry is None:
            bad.append((label, "no entry of references.bib has this title"))
            continue
        people = entry.persons.get("author") or entry.persons.get("editor")
        first = Text.from_latex(
            " ".join(people[0].prelast_names + people[0].last_names)
        ).render_as("text")
        if len(people) == 1:
            tail = ""
        elif len(people) == 2:
            tail = " and " + Text.from_latex(" ".join(people[1].last_names)).render_as(
                "text"
            )
        else:
            tail = " et al."
        expected = f"{first}{tail} {entry.fields['year']}"
        if not re.fullmatch(re.escape(expected) + "[a-z]?", label):
            bad.append((label, f"expected {expected!r}"))
    assert not bad, f"labels that are not the author-year citation: {bad}"
    assert len(set(labels)) == len(labels), "two entries share a label"
    keys = [re.sub(r"^the\s+", "", label.casefold()) for label in labels]
    assert keys == sorted(keys), f"not in alphabetical order: {labels}"


def test_bibliography_gives_the_year_once_and_links_ids(built_site):
    """The year is in the label only (titles, venues and notes may name one); every arXiv id,
    DOI and URL of references.bib is a link, and no bare "arXiv:" id is left unlinked."""
    entries, page = _bibliography(built_site)
    repeated, unlinked, links = [], [], 0
    for item in page.select('div.citation[role="doc-biblioentry"]'):
        body = item.p
        text = body.get_text(" ", strip=True)
        entry = next(
            e for e in entries.values() if _plain(e.fields["title"]) in _plain(text)
        )
        rest = " ".join(s for s in body.find_all(string=True) if not s.find_parent("a"))
        rest = " ".join(rest.split())
        for name in ("title", "booktitle", "journal", "note", "howpublished"):
            if name in entry.fields:
                words = re.sub(r"\\[a-zA-Z]+|[{}]", "", entry.fields[name])
                rest = rest.replace(words, "")
        if entry.fields["year"] in rest:
            repeated.append(text[:80])
        hrefs = {a["href"] for a in body.find_all("a", href=True)}
        wanted = set()
        if "eprint" in entry.fields:
            wanted.add(f"https://arxiv.org/abs/{entry.fields['eprint']}")
        if "doi" in entry.fields:
            wanted.add(f"https://doi.org/{entry.fields['doi']}")
        if "url" in entry.fields:
            wanted.add(entry.fields["url"])
        links += len(wanted)
        if not wanted <= hrefs:
            unlinked.append((text[:40], sorted(wanted - hrefs)))
        for string in body.find_all(
            string=re.compile(r"arXiv:\s*\d{4}\.\d{4,5}|https?://|doi:10\.")
        ):
            if not string.find_parent("a"):
                unlinked.append((text[:40], str(string).strip()[:60]))
    assert links > 15, "references.bib has lost its arXiv ids, DOIs and URLs"
    assert not repeated, f"entries that repeat the label's year: {repeated}"
    assert not unlinked, f"ids and URLs that are not links: {unlinked}"


def test_citations_in_the_text_match_their_labels(soups):
    """A citation in the text reads as its entry's label in the bibliography of its edition:
    "Vaswani et al. (2017)" or "(Vaswani et al. 2017)" for the label "Vaswani et al. 2017"
    ("(苏剑林 2021)" for "苏剑林 2021" in the Chinese edition)."""
    label_of = {
        (edition_root(path), fragment): label
        for path, soup in soups.items()
        if path.name == "bibliography.html"
        for fragment, label in bibliography_labels(soup).items()
    }
    checked, mismatched = 0, []
    for path, soup in soups.items():
        for said, fragment in citation_links(soup):
            label = label_of.get((edition_root(path), fragment), "")
            checked += 1
            if not label or label not in said:
                mismatched.append((path.name, said, label))
    assert checked > 50
    assert not mismatched, (
        f"citations that do not read as their label: {mismatched[:10]}"
    )


def test_the_offered_wheel_is_the_installed_posenc_version(built_site):
    """The wheel's name and its metadata carry posenc.__version__ (they said 0.1.0 while the
    library said 0.2.0: review item 7)."""
    import zipfile

    import posenc

    wheels = sorted((built_site / "wheel").glob("posenc-*-py3-none-any.whl"))
    assert [w.name for w in wheels] == [f"posenc-{posenc.__version__}-py3-none-any.whl"]
    with zipfile.ZipFile(wheels[0]) as wheel:
        metadata = wheel.read(
            f"posenc-{posenc.__version__}.dist-info/METADATA"
        ).decode()
    assert f"\nVersion: {posenc.__version__}\n" in metadata


def test_every_chapter_offers_the_posenc_wheel(built_site):
    """Each chapter's download menu and the reproducing appendix link the posenc wheel that the
    build put into the site (and the appendix its constraints.txt)."""
    wheels = sorted((built_site / "wheel").glob("posenc-*-py3-none-any.whl"))
    assert len(wheels) == 1, f"wheel/ holds {[w.name for w in wheels]}"
    for source in filter(is_notebook, toc_files()):
        page = built_site / source.relative_to(HTML.parents[1]).with_suffix(".html")
        links = {
            (page.parent / a["href"]).resolve()
            for a in built_page(page).find_all("a", href=True)
            if a["href"].endswith((".whl", "constraints.txt"))
        }
        assert wheels[0].resolve() in links, (
            f"{page.name} does not offer {wheels[0].name}"
        )
        if page.stem == "appendix-reproducing":
            assert (built_site / "wheel" / "constraints.txt").resolve() in links


@pytest.mark.parametrize(
    "html, found",
    [
        ("<p>&lt;IPython.core.display.Markdown object&gt;</p>", 1),
        ("<p>&lt;posenc.checks.Verdict object at 0x7f3a2c1d&gt;</p>", 1),
        ("<p>&lt;figure fig-ch05-decay&gt; and <code>object</code> at 0.5</p>", 0),
    ],
)
def test_an_object_repr_is_found(html, found):
    """no_object_reprs.py's pattern, on what a glued IPython object and a default repr look
    like in a page (the build warns on each: a failed strict build)."""
    assert len(object_reprs(html)) == found


@pytest.mark.site
def test_no_page_shows_an_object_repr(built_site):
    """No page of either edition shows a Python object's repr (the Chinese reproducing
    appendix showed two `<IPython.core.display.Markdown object>` where its links belong)."""
    shown = {
        page.relative_to(built_site).as_posix(): object_reprs(page.read_text("utf-8"))
        for page in built_site.rglob("*.html")
        if "_sources" not in page.parts
    }
    assert not {page: found for page, found in shown.items() if found}


def numbers_not_flush_right(soup) -> list[str]:
    """The titles of a page's table columns whose every cell is a number (the pattern by
    which `posenc.display.table` sets a column flush right) but not every cell is."""
    found = []
    for table in soup.select("main table"):
        rows = [row.find_all("td") for row in table.select("tbody tr")]
        for k, title in enumerate(table.select("thead th")):
            cells = [row[k] for row in rows if len(row) > k]
            texts = [cell.get_text(strip=True) for cell in cells]
            if (
                any(texts)
                and all(NUMBER.fullmatch(text) for text in texts)
                and not all("text-right" in cell.get("class", []) for cell in cells)
            ):
                found.append(title.get_text(" ", strip=True))
    return found


@pytest.mark.parametrize(
    "align, found",
    [
        ("", ["d", "error"]),  # Markdown's `|---|`
        ("text-left", ["d", "error"]),  # `|:---|`
        ("text-right", []),  # `|---:|`, as posenc.display.table writes a column of numbers
    ],
)
def test_a_column_of_numbers_not_flush_right_is_found(align, found):
    html = (
        "<main><table><thead><tr><th>d</th><th>error</th><th>note</th></tr></thead><tbody>"
        f'<tr><td class="{align}">64</td><td class="{align}">1.9 × 10⁻⁴</td><td>—</td></tr>'
        f'<tr><td class="{align}">128</td><td class="{align}">−0.031</td><td>all</td></tr>'
        "</tbody></table></main>"
    )
    assert numbers_not_flush_right(BeautifulSoup(html, "html.parser")) == found


def test_columns_of_numbers_are_flush_right(soups, built_site):
    """Every table's columns of numbers are set flush right, in both editions, whether
    `table` built it or it is typed in a page's Markdown with glued numbers (eight such
    tables were `|---|`, left-aligned, beside `table`'s right-aligned ones)."""
    found = {
        path.relative_to(built_site).as_posix(): titles
        for path, soup in soups.items()
        if (titles := numbers_not_flush_right(soup))
    }
    assert not found, f"columns of numbers not flush right: {found}"
