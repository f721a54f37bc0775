"""The site's interactive parts as a reader's browser meets them: the interactive figures, the
search (offline, in both editions) and the sidebars' toggles. The visit of every page (every
formula typeset, among the rest) is in tests/test_pages.py; the helpers are in
tools/browser.py. Outside CI a machine without chromium skips this file.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest
from browser import (
    DESKTOP,
    PHONE,
    keep_local,
    load_all_images,
    visit,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from support.book import ROOT

pytestmark = pytest.mark.browser


def _interactive_figures() -> list[tuple[str, str]]:
    """(page, figure name) of every interactive figure, from the registry: a figure named
    fig-chNN-... is shown on chapter NN's page."""
    from posenc import figures

    pages = {path.name[:4]: path.name for path in (ROOT / "book").glob("ch*.md")}
    return [
        (f"book/{pages[name[4:8]][:-3]}.html", name)
        for name in figures.names("interactive")
    ]


INTERACTIVE = _interactive_figures()


# Page coordinates of the last point of the first visible trace that has a hover read-out.
HOVER_TARGET = """(selector) => {
    const div = document.querySelector(selector), layout = div._fullLayout;
    const trace = div._fullData.find(t => t.visible === true && t.hoverinfo !== 'skip');
    if (!trace) return null;
    const n = trace.x.length - 1, xa = layout.xaxis, ya = layout.yaxis;
    const box = div.querySelector('.main-svg').getBoundingClientRect();
    return [box.left + xa._offset + xa.d2p(trace.x[n]),
            box.top + ya._offset + ya.d2p(trace.y[n])];
}"""


@pytest.mark.parametrize(("relative", "name"), INTERACTIVE)
def test_interactive_figure_draws_and_responds(browser, server, relative, name):
    """Each interactive figure is drawn by the site's own Plotly, reads out values on hover, and
    its slider and its menu (where it has them) change what is plotted."""
    page, outside, errors = visit(browser, f"{server}/{relative}", server)
    # figures above load lazily and would move the plot between measuring and clicking
    load_all_images(page)
    selector = f"#posenc-plotly-{name}"
    div = page.locator(selector)
    page.wait_for_function(
        f"document.querySelector('{selector}').data !== undefined", timeout=20000
    )
    assert div.locator("svg.main-svg").count() > 0, "no plot SVG"
    assert div.get_attribute("aria-label").strip()
    buttons = page.evaluate(
        f"[...document.querySelectorAll('{selector} .modebar-btn')]"
        ".map(b => b.getAttribute('data-title'))"
    )
    assert "Zoom" in buttons and not [
        b for b in buttons if "share" in b.lower() or "cloud" in b.lower()
    ]
    ys = f"JSON.stringify(document.querySelector('{selector}').data.map(t => t.y))"
    visible = (
        f"JSON.stringify(document.querySelector('{selector}').data.map(t => t.visible))"
    )
    div.scroll_into_view_if_needed()

    # hover read-out
    # the mouse goes to the last point of the first visible trace that reads out values; where
    # the page still moves (formulas above it typeset as they come into view), it goes again
    hovered = f"document.querySelectorAll('{selector} .hoverlayer text').length > 0"
    for _ in range(5):
        target = page.evaluate(HOVER_TARGET, selector)
        assert target, "no visible trace with a hover read-out"
        page.mouse.move(*target)
        try:
            page.wait_for_function(hovered, timeout=4000)
            break
        except PlaywrightTimeout:
            page.mouse.move(0, 0)
    assert page.evaluate(hovered), "no hover read-out at the trace's last point"

    controls = (
        div.locator(".slider-rail-touch-rect").count()
        + div.locator(".updatemenu-header-group").count()
    )
    assert controls, "an interactive figure without a slider or a menu"

    # the slider: a click at the left end of its rail selects the first value
    if div.locator(".slider-rail-touch-rect").count():
        before = page.evaluate(ys)
        rail = div.locator(".slider-rail-touch-rect").first.bounding_box()
        page.mouse.click(rail["x"] + 2, rail["y"] + rail["height"] / 2)
        page.wait_for_function(f"{ys} !== {before!r}", timeout=20000)

    # the menu: open it and choose its first item (another dimension d)
    if div.locator(".updatemenu-header-group").count():
        shown = page.evaluate(visible)
        div.locator(".updatemenu-header-group").first.click()
        div.locator(".updatemenu-dropdown-button").first.click()
        page.wait_for_function(f"{visible} !== {shown!r}", timeout=20000)

    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


PARTS = """(selector) => {
    const root = document.querySelector(selector);
    return ['.legend', '.nsewdrag', '.g-xtitle', '.slider-container', '.updatemenu-header-group']
        .filter(part => root.querySelector(part))
        .map(part => { const r = root.querySelector(part).getBoundingClientRect();
                       return [part, r.left, r.top, r.right, r.bottom]; });
}"""


# the pages with interactive figures, each with the figures it shows (one visit per page and
# screen checks them all)
FIGURES_ON = {
    relative: [name for page, name in INTERACTIVE if page == relative]
    for relative in dict.fromkeys(page for page, _ in INTERACTIVE)
}


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("relative", sorted(FIGURES_ON))
def test_interactive_figure_parts_do_not_overlap(browser, server, relative, screen):
    """Legend, plot area, axis title, slider and menu each have their own space, on a desktop
    and on a 390 px phone (side by side, the menu once covered the slider's label and the axis
    title on a phone), and stay inside the figure."""
    viewport = {"desktop": DESKTOP, "phone": PHONE}[screen]
    # the figures drawn are what this test waits for (what the page requests is the business
    # of test_interactive_figure_draws_and_responds)
    page, _, _ = visit(browser, f"{server}/{relative}", server, viewport, idle=False)
    problems = {}
    for name in FIGURES_ON[relative]:
        selector = f"#posenc-plotly-{name}"
        page.wait_for_function(
            f"document.querySelector('{selector}').data !== undefined", timeout=20000
        )
        parts = page.evaluate(PARTS, selector)
        figure = page.locator(selector).bounding_box()
        overlapping = [
            (a[0], b[0])
            for i, a in enumerate(parts)
            for b in parts[i + 1 :]
            if a[1] < b[3] - 1
            and b[1] < a[3] - 1
            and a[2] < b[4] - 1
            and b[2] < a[4] - 1
        ]
        outside = [
            part[0]
            for part in parts
            if part[1] < figure["x"] - 1 or part[3] > figure["x"] + figure["width"] + 1
        ]
        if overlapping or outside:
            problems[name] = {
                "overlapping": overlapping,
                "wider than the figure": outside,
            }
    page.close()
    assert not problems, f"{screen}: {problems}"


# A word each chapter below explains and, when this test was written, the only page that did;
# in the Chinese edition (zh/), terms of the glossary, which Sphinx's Chinese index finds only
# when jieba has split the text into words
SEARCHES = {
    "Fresnel": "book/ch07-bases-schedules.html",
    "Abel": "book/ch12-rope.html",
    "黎曼和": "zh/book/ch05-decay-integral.html",
    "外推": "zh/book/ch13-extrapolation.html",
}


@pytest.mark.parametrize("word", sorted(SEARCHES))
def test_search_finds_chapter_content_offline(browser, server, word):
    edition = "zh/" if SEARCHES[word].startswith("zh/") else ""
    url = f"{server}/{edition}search.html?q={quote(word)}"
    page, outside, errors = visit(browser, url, server)
    page.wait_for_function(
        """() => [...document.querySelectorAll('#search-results p, .search-summary')]
        .some(p => /Search finished|搜索完成/.test(p.textContent))""",
        timeout=20000,
    )
    found = {
        urlsplit(href).path.lstrip("/")
        for href in page.evaluate(
            "[...document.querySelectorAll('#search-results ul.search li a')].map(a => a.href)"
        )
    }
    assert SEARCHES[word] in found, f"search for {word!r} found {sorted(found)}"
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


# The panel each sidebar toggle controls, and whether it is on screen: inside the viewport and
# the topmost element at its centre (not hidden, not off-canvas, not under a backdrop).
PANELS = {
    ".primary-toggle": "#pst-primary-sidebar-modal[open] nav.bd-docs-nav, "
    "#pst-primary-sidebar nav.bd-docs-nav",
    ".secondary-toggle": "#pst-secondary-sidebar-modal[open] nav.page-toc, "
    "#pst-secondary-sidebar nav.page-toc",
}
ON_SCREEN = """(selector) => [...document.querySelectorAll(selector)].some(el => {
    const r = el.getBoundingClientRect();
    if (r.width < 20 || r.height < 20 || r.right <= 0 || r.left >= innerWidth
        || r.bottom <= 0) return false;
    const x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height, 200) / 2, 1), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    return !!top && el.contains(top);
})"""
VISIBLE = """(selector) => [...document.querySelectorAll(selector)].filter(el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && r.right > 0
        && r.left < innerWidth;
}).length"""


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_sidebar_toggles_open_and_close_their_panels(browser, server, width):
    """Every visible chapter-list and page-contents toggle opens and closes its panel (they once
    did nothing: pydata-sphinx-theme#2451); one search box and no empty top bar."""
    page, outside, errors = visit(
        browser,
        f"{server}/book/ch04-standard-formula.html",
        server,
        {"width": width, "height": 844 if width < 500 else 900},
    )
    toggles = {
        selector: [t for t in page.locator(selector).all() if t.is_visible()]
        for selector in PANELS
    }
    assert toggles[".primary-toggle"], f"{width} px: no visible chapter-list toggle"
    if width < 1200:  # wider, the page contents are always shown and have no toggle
        assert toggles[".secondary-toggle"], (
            f"{width} px: no visible page-contents toggle"
        )
    assert page.evaluate(VISIBLE, ".search-button-field, .search-button") <= 1, (
        "two search boxes"
    )
    assert (
        page.evaluate(
            "document.querySelector('#pst-header').getBoundingClientRect().height"
        )
        < 1
    )
    for selector, found in toggles.items():
        assert len(found) <= 1, f"{width} px: {len(found)} visible {selector} buttons"
        for toggle in found:
            panel = PANELS[selector]
            was_open = page.evaluate(ON_SCREEN, panel)
            toggle.click()
            page.wait_for_function(
                f"({ON_SCREEN})({panel!r}) !== {str(was_open).lower()}", timeout=20000
            )
            # close again: a second click where the panel sits beside the text, else Escape
            if was_open:
                toggle.click()
            else:
                page.keyboard.press("Escape")
            page.wait_for_function(
                f"({ON_SCREEN})({panel!r}) === {str(was_open).lower()}", timeout=20000
            )
    assert not outside and not errors, (outside, errors)
    page.close()


def test_requests_to_other_hosts_are_seen_and_refused(browser, server):
    """Negative control of every "nothing left 127.0.0.1" above and in tests/test_pages.py: a
    page of the site that asks another host for a script, an image and a font has all three
    reported by keep_local, and none of them arrives (the browser knows no other host)."""
    url = f"{server}/posenc-reaches-out.html"
    page = browser.new_page()
    outside, errors = keep_local(page, server)
    page.route(
        url,
        lambda route: route.fulfill(
            content_type="text/html",
            body="<!doctype html><html><head>"
            "<script src='https://cdn.example.org/lib.js'></script>"
            "<style>@font-face { font-family: F; src: url(https://fonts.example.net/f.woff2) }"
            " p { font-family: F }</style></head>"
            "<body><p>text</p><img src='http://images.example.com/a.png'></body></html>",
        ),
    )
    page.goto(url, wait_until="load")
    page.wait_for_function("document.fonts.status === 'loaded'")
    arrived = page.evaluate(
        "[document.images[0].naturalWidth, document.fonts.check('12px F')]"
    )
    page.close()
    hosts = sorted(urlsplit(u).netloc for u in outside)
    assert hosts == ["cdn.example.org", "fonts.example.net", "images.example.com"], (
        outside
    )
    assert arrived == [0, False], "a request to another host was answered"
    assert errors, "a refused request logs an error"
