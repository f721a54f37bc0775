"""The site as a reader's browser meets it: Debian's chromium driven by Playwright for
Python.

Never downloads a browser: Playwright drives /usr/bin/chromium (`.ci/run` installs it).
Outside CI a machine without chromium skips this file; in CI a missing browser is a
failure.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
import time
from urllib.parse import urlsplit

import pytest
from conftest import in_ci

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # pages loaded side by side are all in the foreground: no throttled timers
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
]
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}

if not shutil.which("chromium") and not in_ci():
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium, or run .ci/run)",
        allow_module_level=True,
    )


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
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def site_pages(site):
    return sorted(
        str(path.relative_to(site))
        for path in site.rglob("*.html")
        if not {"mathjax", "_static"} & set(path.relative_to(site).parts)
    )


def open_page(browser, url, origin, viewport=DESKTOP):
    """Start loading ``url``; return the page and the lists that collect what it
    requests from elsewhere (refused) and what it logs as errors. ``page.inflight``
    holds its requests under way."""
    page = browser.new_page(viewport=viewport)
    outside, errors = [], []
    page.inflight = set()
    page.on("request", lambda request: page.inflight.add(request.url))
    page.on("requestfinished", lambda request: page.inflight.discard(request.url))
    page.on("requestfailed", lambda request: page.inflight.discard(request.url))

    def route(request_route):
        request = request_route.request
        if urlsplit(request.url).netloc == urlsplit(
            origin
        ).netloc or request.url.startswith("data:"):
            request_route.continue_()
        else:
            outside.append(request.url)
            request_route.abort()

    page.route("**/*", route)
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="commit")
    return page, outside, errors


def visit(browser, url, origin, viewport=DESKTOP):
    """Open ``url`` and wait until it has loaded (see open_page)."""
    page, outside, errors = open_page(browser, url, origin, viewport)
    page.wait_for_load_state("load")
    return page, outside, errors


def settle(page, quiet: float = 0.5, timeout: float = 30.0) -> list[str]:
    """Wait until ``page`` has had no request under way for ``quiet`` seconds; return
    the requests still under way after ``timeout`` seconds (none when it settled)."""
    deadline = time.monotonic() + timeout
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        if page.inflight:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= quiet:
            return []
        page.wait_for_timeout(100)  # Playwright handles the page's events meanwhile
    return sorted(page.inflight)


TYPESET = "window.MathJax && MathJax.startup && MathJax.startup.promise"
STATE = """() => ({
    raw: [...document.querySelectorAll('.math')]
        .filter(el => !el.querySelector('mjx-container'))
        .map(el => el.textContent.slice(0, 60)),
    merror: document.querySelectorAll('mjx-merror').length,
    typeset: document.querySelectorAll('mjx-container').length,
    broken: [...document.images].filter(img => !img.complete || img.naturalWidth === 0)
        .map(img => img.src),
})"""
MEASURE = """() => {
    const article = document.querySelector('article.bd-article')
        || document.querySelector('main');
    const right = article.getBoundingClientRect().right;
    const math = [...document.querySelectorAll('div.math mjx-container')].filter(c => {
        const box = c.querySelector('mjx-math').getBoundingClientRect();
        return c.scrollWidth > c.clientWidth + 1 || box.right > right + 1;
    }).map(c => c.parentElement.textContent.trim().slice(0, 50));
    const images = [...article.querySelectorAll('figure img, img.figure')].map(img => ({
        src: img.src.split('/').pop(),
        ratio: img.getBoundingClientRect().width / img.naturalWidth}));
    return {overflow: document.documentElement.scrollWidth - innerWidth, math, images};
}"""


@pytest.fixture(scope="module")
def every_page(browser, server, built_site):
    """Every page opened once (four at a time, to keep this quick) and left to load,
    typeset its math and go quiet on the network; then what it requested from elsewhere
    and logged as errors, its math and images, and its layout on a desktop and on a
    phone screen."""
    seen = {}
    pages = site_pages(built_site)
    for start in range(0, len(pages), 4):
        batch = [
            (relative, *open_page(browser, f"{server}/{relative}", server))
            for relative in pages[start : start + 4]
        ]
        for relative, page, outside, errors in batch:
            page.wait_for_load_state("load")
            if page.evaluate("document.querySelectorAll('.math').length"):
                page.wait_for_function(TYPESET, timeout=20000)
                page.evaluate("MathJax.startup.promise")
            pending = settle(page)  # what MathJax fetched for its fonts, say
            state = page.evaluate(STATE)
            state["desktop"] = page.evaluate(MEASURE)
            page.set_viewport_size(PHONE)
            state["phone"] = page.evaluate(MEASURE)
            page.close()
            seen[relative] = {
                **state,
                "outside": outside,
                "errors": errors,
                "pending": pending,
            }
    return seen


def test_every_page_typesets_loads_and_stays_local(every_page):
    failures = []
    for relative, seen in every_page.items():
        if seen["raw"]:
            failures.append(f"{relative}: math not typeset: {seen['raw'][:3]}")
        if seen["merror"]:
            failures.append(f"{relative}: {seen['merror']} MathJax error(s)")
        if seen["broken"]:
            failures.append(f"{relative}: images did not load: {seen['broken']}")
        if seen["outside"]:
            failures.append(f"{relative}: requests left 127.0.0.1: {seen['outside']}")
        if seen["pending"]:
            failures.append(
                f"{relative}: requests that never finished: {seen['pending']}"
            )
        if seen["errors"]:
            failures.append(f"{relative}: console errors: {seen['errors']}")
    assert not failures, "\n".join(failures)


def test_chapter_math_is_really_rendered(every_page):
    """Guards the check above against passing vacuously: chapter 4 has typeset math."""
    assert every_page["book/ch04-standard-formula.html"]["typeset"] > 0


INTERACTIVE = {
    "book/ch05-decay-integral.html": "fig-ch05-decay-interactive",
    "book/ch07-bases-schedules.html": "fig-ch07-schedules-interactive",
    "book/ch12-rope.html": "fig-ch12-bound-interactive",
}


@pytest.mark.parametrize("relative", sorted(INTERACTIVE))
def test_interactive_figure_draws_and_responds(browser, server, relative):
    """Each interactive figure is drawn by the site's own Plotly, reads out values on
    hover, and its slider and its menu change what is plotted."""
    name = INTERACTIVE[relative]
    page, outside, errors = visit(browser, f"{server}/{relative}", server)
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
    box = div.locator(".nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.wait_for_function(
        f"document.querySelectorAll('{selector} .hoverlayer text').length > 0",
        timeout=5000,
    )

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
    return ['.legend', '.nsewdrag', '.g-xtitle', '.slider-container',
            '.updatemenu-header-group']
        .map(part => { const r = root.querySelector(part).getBoundingClientRect();
                       return [part, r.left, r.top, r.right, r.bottom]; });
}"""


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("relative", sorted(INTERACTIVE))
def test_interactive_figure_parts_do_not_overlap(browser, server, relative, screen):
    """Legend, plot area, axis title, slider and menu each have their own space, on a
    desktop and on a 390 px phone (side by side, the menu once covered the slider's
    label and the axis title on a phone), and stay inside the figure."""
    selector = f"#posenc-plotly-{INTERACTIVE[relative]}"
    viewport = {"desktop": DESKTOP, "phone": PHONE}[screen]
    page, _, _ = visit(browser, f"{server}/{relative}", server, viewport)
    page.wait_for_function(
        f"document.querySelector('{selector}').data !== undefined", timeout=20000
    )
    parts = page.evaluate(PARTS, selector)
    figure = page.locator(selector).bounding_box()
    page.close()
    overlapping = [
        (a[0], b[0])
        for i, a in enumerate(parts)
        for b in parts[i + 1 :]
        if a[1] < b[3] - 1 and b[1] < a[3] - 1 and a[2] < b[4] - 1 and b[2] < a[4] - 1
    ]
    assert not overlapping, f"{screen}: overlapping parts {overlapping}"
    outside = [
        part[0]
        for part in parts
        if part[1] < figure["x"] - 1 or part[3] > figure["x"] + figure["width"] + 1
    ]
    assert not outside, f"{screen}: parts wider than the figure: {outside}"


# A word each chapter below explains and, when this test was written, the only page that
# did.
SEARCHES = {"Fresnel": "book/ch07-bases-schedules.html", "Abel": "book/ch12-rope.html"}


@pytest.mark.parametrize("word", sorted(SEARCHES))
def test_search_finds_chapter_content_offline(browser, server, word):
    page, outside, errors = visit(browser, f"{server}/search.html?q={word}", server)
    page.wait_for_function(
        """() => [...document.querySelectorAll('#search-results p, .search-summary')]
        .some(p => p.textContent.includes('Search finished'))""",
        timeout=20000,
    )
    found = {
        urlsplit(href).path.lstrip("/")
        for href in page.evaluate(
            "[...document.querySelectorAll('#search-results ul.search li a')]"
            ".map(a => a.href)"
        )
    }
    assert SEARCHES[word] in found, f"search for {word!r} found {sorted(found)}"
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


def test_display_math_fits_the_column_on_desktop(every_page):
    """On a 1280 px screen no display equation is wider than the text column (break it
    with an aligned environment instead; on a phone wide equations scroll inside their
    own box)."""
    wide = {
        page: seen["desktop"]["math"]
        for page, seen in every_page.items()
        if seen["desktop"]["math"]
    }
    assert not wide, f"display equations wider than the column: {wide}"


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_figures_are_not_shrunk(every_page, screen):
    """Figures are drawn with readable fonts at their natural size (8 in wide, 10 pt
    type); shown at less than 70% of it, their labels fall below about 7 pt. On a phone
    they keep 560 px and scroll inside their own box (book/_static/custom.css)."""
    measured = {page: seen[screen] for page, seen in every_page.items()}
    assert sum(len(m["images"]) for m in measured.values()) > 20, "no figures measured"
    shrunk = [
        (page, image["src"][:12], round(image["ratio"], 2))
        for page, m in measured.items()
        for image in m["images"]
        if image["ratio"] < 0.7
    ]
    assert not shrunk, (
        f"figures shown below 70% of their natural width on a {screen}: {shrunk}"
    )


def test_no_page_scrolls_sideways_on_a_phone(every_page):
    """Long inline code wraps and wide equations scroll inside their own box
    (book/_static/ custom.css), so the page itself never needs a sideways scroll on a
    390 px phone."""
    overflowing = {
        page: seen["phone"]["overflow"]
        for page, seen in every_page.items()
        if seen["phone"]["overflow"] > 1
    }
    assert not overflowing, (
        f"pages wider than a 390 px screen (px of overflow): {overflowing}"
    )
