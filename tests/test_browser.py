"""The site as a reader's browser meets it: Debian's chromium driven by Playwright for Python.

Never downloads a browser: Playwright drives /usr/bin/chromium (`.ci/run` installs it). Outside
CI a machine without chromium skips this file; in CI a missing browser is a failure.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from urllib.parse import urlsplit

import pytest

from conftest import in_ci

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]
# Console errors that are expected and harmless, each with its reason.
CONSOLE_ALLOW = {
}

if not shutil.which("chromium") and not in_ci():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium, or run .ci/run)",
                allow_module_level=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built_site):
    handler = functools.partial(QuietHandler, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def site_pages(site):
    return sorted(str(path.relative_to(site)) for path in site.rglob("*.html")
                  if not {"mathjax", "_static"} & set(path.relative_to(site).parts))


def visit(browser, url, origin, viewport=None):
    """Open ``url``; return the page and what it requested from elsewhere and logged as errors."""
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900})
    outside, errors = [], []

    def route(request_route):
        request = request_route.request
        if urlsplit(request.url).netloc == urlsplit(origin).netloc or request.url.startswith("data:"):
            request_route.continue_()
        else:
            outside.append(request.url)
            request_route.abort()

    page.route("**/*", route)
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    return page, outside, errors


def test_every_page_typesets_loads_and_stays_local(browser, server, built_site):
    failures = []
    for relative in site_pages(built_site):
        page, outside, errors = visit(browser, f"{server}/{relative}", server)
        has_math = page.evaluate("document.querySelectorAll('.math').length") > 0
        if has_math:
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                                   timeout=20000)
            page.evaluate("MathJax.startup.promise")
            raw = page.evaluate("""[...document.querySelectorAll('.math')]
                .filter(el => !el.querySelector('mjx-container'))
                .map(el => el.textContent.slice(0, 60))""")
            if raw:
                failures.append(f"{relative}: math not typeset: {raw[:3]}")
            merror = page.evaluate("document.querySelectorAll('mjx-merror').length")
            if merror:
                failures.append(f"{relative}: {merror} MathJax error(s)")
        broken = page.evaluate("""[...document.images]
            .filter(img => !img.complete || img.naturalWidth === 0).map(img => img.src)""")
        if broken:
            failures.append(f"{relative}: images did not load: {broken}")
        if outside:
            failures.append(f"{relative}: requests left 127.0.0.1: {outside}")
        unexpected = [e for e in errors if not any(key in e for key in CONSOLE_ALLOW)]
        if unexpected:
            failures.append(f"{relative}: console errors: {unexpected}")
        page.close()
    assert not failures, "\n".join(failures)


def test_chapter_math_is_really_rendered(browser, server, built_site):
    """Guard against the check above passing vacuously: chapter 4 has typeset formulas."""
    page, _, _ = visit(browser, f"{server}/book/ch04-standard-formula.html", server)
    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("MathJax.startup.promise")
    assert page.evaluate("document.querySelectorAll('mjx-container').length") > 0
    page.close()


DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


INTERACTIVE = {"book/ch05-decay-integral.html": "decay",
               "book/ch07-bases-schedules.html": "schedules",
               "book/ch12-rope.html": "rope"}


@pytest.mark.parametrize("relative", sorted(INTERACTIVE))
def test_interactive_figure_draws_and_responds(browser, server, relative):
    """Each interactive figure is drawn by the site's own Plotly, reads out values on hover, and
    its slider and its menu change what is plotted."""
    name = INTERACTIVE[relative]
    page, outside, errors = visit(browser, f"{server}/{relative}", server)
    selector = f"#posenc-plotly-{name}"
    div = page.locator(selector)
    page.wait_for_function(f"document.querySelector('{selector}').data !== undefined",
                           timeout=20000)
    assert div.locator("svg.main-svg").count() > 0, "no plot SVG"
    assert div.get_attribute("aria-label").strip()
    buttons = page.evaluate(f"[...document.querySelectorAll('{selector} .modebar-btn')]"
                            ".map(b => b.getAttribute('data-title'))")
    assert "Zoom" in buttons and not [b for b in buttons if "share" in b.lower() or "cloud" in b.lower()]
    ys = f"JSON.stringify(document.querySelector('{selector}').data.map(t => t.y))"
    visible = f"JSON.stringify(document.querySelector('{selector}').data.map(t => t.visible))"
    div.scroll_into_view_if_needed()

    # hover read-out
    box = div.locator(".nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.wait_for_function(f"document.querySelectorAll('{selector} .hoverlayer text').length > 0",
                           timeout=5000)

    # the slider: a click at the left end of its rail selects the first value
    before = page.evaluate(ys)
    rail = div.locator(".slider-rail-touch-rect").first.bounding_box()
    page.mouse.click(rail["x"] + 2, rail["y"] + rail["height"] / 2)
    page.wait_for_function(f"{ys} !== {before!r}", timeout=5000)

    # the menu: open it and choose its first item (another dimension d)
    shown = page.evaluate(visible)
    div.locator(".updatemenu-header-group").first.click()
    div.locator(".updatemenu-dropdown-button").first.click()
    page.wait_for_function(f"{visible} !== {shown!r}", timeout=5000)

    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


PARTS = """(selector) => {
    const root = document.querySelector(selector);
    return ['.legend', '.nsewdrag', '.g-xtitle', '.slider-container', '.updatemenu-header-group']
        .map(part => { const r = root.querySelector(part).getBoundingClientRect();
                       return [part, r.left, r.top, r.right, r.bottom]; });
}"""


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("relative", sorted(INTERACTIVE))
def test_interactive_figure_parts_do_not_overlap(browser, server, relative, screen):
    """Legend, plot area, axis title, slider and menu each have their own space, on a desktop
    and on a 390 px phone (side by side, the menu once covered the slider's label and the axis
    title on a phone), and stay inside the figure."""
    selector = f"#posenc-plotly-{INTERACTIVE[relative]}"
    viewport = {"desktop": DESKTOP, "phone": PHONE}[screen]
    page, _, _ = visit(browser, f"{server}/{relative}", server, viewport)
    page.wait_for_function(f"document.querySelector('{selector}').data !== undefined",
                           timeout=20000)
    parts = page.evaluate(PARTS, selector)
    figure = page.locator(selector).bounding_box()
    page.close()
    overlapping = [(a[0], b[0]) for i, a in enumerate(parts) for b in parts[i + 1:]
                   if a[1] < b[3] - 1 and b[1] < a[3] - 1 and a[2] < b[4] - 1 and b[2] < a[4] - 1]
    assert not overlapping, f"{screen}: overlapping parts {overlapping}"
    outside = [part[0] for part in parts if part[1] < figure["x"] - 1
               or part[3] > figure["x"] + figure["width"] + 1]
    assert not outside, f"{screen}: parts wider than the figure: {outside}"


# A word each chapter below explains and, when this test was written, the only page that did.
SEARCHES = {"Fresnel": "book/ch07-bases-schedules.html", "Abel": "book/ch12-rope.html"}


@pytest.mark.parametrize("word", sorted(SEARCHES))
def test_search_finds_chapter_content_offline(browser, server, word):
    page, outside, errors = visit(browser, f"{server}/search.html?q={word}", server)
    page.wait_for_function("""() => [...document.querySelectorAll('#search-results p, .search-summary')]
        .some(p => p.textContent.includes('Search finished'))""", timeout=20000)
    found = {urlsplit(href).path.lstrip("/") for href in page.evaluate(
        "[...document.querySelectorAll('#search-results ul.search li a')].map(a => a.href)")}
    assert SEARCHES[word] in found, f"search for {word!r} found {sorted(found)}"
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


MEASURE = """() => {
    const article = document.querySelector('article.bd-article') || document.querySelector('main');
    const right = article.getBoundingClientRect().right;
    const math = [...document.querySelectorAll('div.math mjx-container')].filter(c => {
        const box = c.querySelector('mjx-math').getBoundingClientRect();
        return c.scrollWidth > c.clientWidth + 1 || box.right > right + 1;
    }).map(c => c.parentElement.textContent.trim().slice(0, 50));
    const images = [...article.querySelectorAll('figure img, img.figure')].map(img => ({
        src: img.src.split('/').pop(), ratio: img.getBoundingClientRect().width / img.naturalWidth}));
    return {overflow: document.documentElement.scrollWidth - innerWidth, math, images};
}"""




@pytest.fixture(scope="module")
def layouts(browser, server, built_site):
    """Every page laid out on a desktop and on a phone screen: page overflow, display math
    wider than the column, figure scales. Pages load a few at a time to keep this quick."""
    measured = {"desktop": {}, "phone": {}}
    pages = site_pages(built_site)
    for start in range(0, len(pages), 4):
        batch = []
        for relative in pages[start:start + 4]:
            page = browser.new_page(viewport=DESKTOP)
            page.route("**/*", lambda route: route.continue_()
                       if route.request.url.startswith(server) or route.request.url.startswith("data:")
                       else route.abort())
            page.goto(f"{server}/{relative}", wait_until="commit")
            batch.append((relative, page))
        for relative, page in batch:
            page.wait_for_load_state("load")
            if page.evaluate("document.querySelectorAll('.math').length"):
                page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                                       timeout=20000)
                page.evaluate("MathJax.startup.promise")
            measured["desktop"][relative] = page.evaluate(MEASURE)
            page.set_viewport_size(PHONE)
            measured["phone"][relative] = page.evaluate(MEASURE)
            page.close()
    return measured


def test_display_math_fits_the_column_on_desktop(layouts):
    """On a 1280 px screen no display equation is wider than the text column (break it with an
    aligned environment instead; on a phone wide equations scroll inside their own box)."""
    wide = {page: m["math"] for page, m in layouts["desktop"].items() if m["math"]}
    assert not wide, f"display equations wider than the column: {wide}"


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_figures_are_not_shrunk(layouts, screen):
    """Figures are drawn with readable fonts at their natural size (8 in wide, 10 pt type); shown
    at less than 70% of it, their labels fall below about 7 pt. On a phone they keep 560 px and
    scroll inside their own box (book/_static/custom.css)."""
    measured = layouts[screen]
    assert sum(len(m["images"]) for m in measured.values()) > 20, "no figures measured"
    shrunk = [(page, image["src"][:12], round(image["ratio"], 2))
              for page, m in measured.items() for image in m["images"] if image["ratio"] < 0.7]
    assert not shrunk, f"figures shown below 70% of their natural width on a {screen}: {shrunk}"


def test_no_page_scrolls_sideways_on_a_phone(layouts):
    """Long inline code wraps and wide equations scroll inside their own box (book/_static/
    custom.css), so the page itself never needs a sideways scroll on a 390 px phone."""
    overflowing = {page: m["overflow"] for page, m in layouts["phone"].items() if m["overflow"] > 1}
    assert not overflowing, f"pages wider than a 390 px screen (px of overflow): {overflowing}"


# The panel each sidebar toggle controls, and whether it is on screen: inside the viewport and
# the topmost element at its centre (not hidden, not off-canvas, not under a backdrop).
PANELS = {".primary-toggle": "#pst-primary-sidebar-modal[open] nav.bd-docs-nav, "
                             "#pst-primary-sidebar nav.bd-docs-nav",
          ".secondary-toggle": "#pst-secondary-sidebar-modal[open] nav.page-toc, "
                               "#pst-secondary-sidebar nav.page-toc"}
ON_SCREEN = """(selector) => [...document.querySelectorAll(selector)].some(el => {
    const r = el.getBoundingClientRect();
    if (r.width < 20 || r.height < 20 || r.right <= 0 || r.left >= innerWidth || r.bottom <= 0) return false;
    const x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height, 200) / 2, 1), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    return !!top && el.contains(top);
})"""
VISIBLE = """(selector) => [...document.querySelectorAll(selector)].filter(el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && r.right > 0 && r.left < innerWidth;
}).length"""


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_sidebar_toggles_open_and_close_their_panels(browser, server, width):
    """Every visible chapter-list and page-contents toggle opens and closes its panel (they once
    did nothing: pydata-sphinx-theme#2451); one search box and no empty top bar."""
    page, outside, errors = visit(browser, f"{server}/book/ch04-standard-formula.html", server,
                                  {"width": width, "height": 844 if width < 500 else 900})
    toggles = {selector: [t for t in page.locator(selector).all() if t.is_visible()]
               for selector in PANELS}
    assert toggles[".primary-toggle"], f"{width} px: no visible chapter-list toggle"
    if width < 1200:  # wider, the page contents are always shown and have no toggle
        assert toggles[".secondary-toggle"], f"{width} px: no visible page-contents toggle"
    assert page.evaluate(VISIBLE, ".search-button-field, .search-button") <= 1, "two search boxes"
    assert page.evaluate("document.querySelector('#pst-header').getBoundingClientRect().height") < 1
    for selector, found in toggles.items():
        assert len(found) <= 1, f"{width} px: {len(found)} visible {selector} buttons"
        for toggle in found:
            panel = PANELS[selector]
            was_open = page.evaluate(ON_SCREEN, panel)
            toggle.click()
            page.wait_for_function(f"({ON_SCREEN})({panel!r}) !== {str(was_open).lower()}",
                                   timeout=3000)
            # close again: a second click where the panel sits beside the text, else Escape
            if was_open:
                toggle.click()
            else:
                page.keyboard.press("Escape")
            page.wait_for_function(f"({ON_SCREEN})({panel!r}) === {str(was_open).lower()}",
                                   timeout=3000)
    assert not outside and not errors, (outside, errors)
    page.close()
