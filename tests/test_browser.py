"""The site as a reader's browser meets it: Debian's chromium driven by Playwright for Python.

Never downloads a browser: Playwright drives /usr/bin/chromium (`.ci/run` installs it). Outside
CI a machine without chromium skips this file; in CI a missing browser is a failure.
"""

from __future__ import annotations

import functools
import http.server
import math
import os
import shutil
import threading
import time
from urllib.parse import quote, urlsplit

import pytest
from conftest import ROOT, in_ci

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
]
# Console errors that are expected and harmless, each with its reason.
CONSOLE_ALLOW = {}

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


def visit(browser, url, origin, viewport=None):
    """Open ``url``; return the page and what it requested from elsewhere and logged as errors."""
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900})
    outside, errors = [], []

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
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    return page, outside, errors


TYPESET_ALL = """async () => {
    await MathJax.startup.promise;
    // ui/lazy typesets formulas as they scroll into view; checks want every one of them
    if (MathJax.startup.document.lazyTypesetAll) await MathJax.startup.document.lazyTypesetAll();
}"""


def load_all_images(page, timeout=20000):
    """Figures load lazily (when scrolled near); fetch them all now and wait for them."""
    page.evaluate(
        "document.querySelectorAll('img[loading=lazy]').forEach(img => img.loading = 'eager')"
    )
    page.wait_for_function(
        "[...document.images].every(img => img.complete)", timeout=timeout
    )


def typeset_all(page, timeout=20000):
    """Wait for MathJax, then have it typeset every formula of the page (not only those on
    screen, which is all ui/lazy does at first)."""
    page.wait_for_function(
        "window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=timeout
    )
    page.evaluate(TYPESET_ALL)


# Set before the page's scripts run: the moment MathJax has typeset what the reader sees.
MATHJAX_CLOCK = """(() => { const t = setInterval(() => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) { clearInterval(t);
        MathJax.startup.promise.then(() => { window.posencMathJaxDone = performance.now(); }); }
}, 2); })();"""
LOADED_BYTES = """() => [performance.getEntriesByType('navigation')[0],
                      ...performance.getEntriesByType('resource')]
    .reduce((sum, entry) => sum + entry.encodedBodySize, 0)"""
CHECKS = """() => ({
    raw: [...document.querySelectorAll('.math')]
        .filter(el => !el.querySelector('mjx-container mjx-math'))
        .map(el => el.textContent.slice(0, 60)),
    merror: document.querySelectorAll('mjx-merror').length,
    broken: [...document.images].filter(img => !img.complete || img.naturalWidth === 0)
        .map(img => img.src),
})"""


def first_view(browser, server, relative):
    """Open a page as a reader's first visit does (own browser context, empty cache) and wait
    until MathJax has typeset what is on screen. Returns the page, what the page asked of other
    hosts, its console errors, the bytes loaded and the MathJax time (ms after navigation)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.add_init_script(MATHJAX_CLOCK)
    outside, errors = [], []

    def route(request_route):
        url = request_route.request.url
        if urlsplit(url).netloc == urlsplit(server).netloc or url.startswith("data:"):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    page.route("**/*", route)
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{relative}", wait_until="load")
    mathjax_ms = None
    if page.evaluate("document.querySelectorAll('.math').length"):
        page.wait_for_function("window.posencMathJaxDone !== undefined", timeout=20000)
        mathjax_ms = page.evaluate("window.posencMathJaxDone")
    page.evaluate("document.fonts.ready.then(() => true)")
    return page, outside, errors, page.evaluate(LOADED_BYTES), mathjax_ms


@pytest.fixture(scope="module")
def visits(browser, server, built_site):
    """Every page of the site, visited once: on a first view, what it loads (bytes, other
    hosts, console errors) and when MathJax is done; then, all formulas typeset and all figures
    loaded, the checks of CHECKS and the layout of MEASURE on a desktop (1280 px), a tablet
    (900 px) and a phone (390 px) screen."""
    found = {}
    for relative in site_pages(built_site):
        if (
            'http-equiv="Refresh"'
            in (built_site / relative).read_text(encoding="utf-8")[:500]
        ):
            continue  # index.html only redirects to book/intro.html
        page, outside, errors, loaded, mathjax_ms = first_view(
            browser, server, relative
        )
        if mathjax_ms is not None:
            typeset_all(page)
        load_all_images(page)
        found[relative] = {
            "outside": outside,
            "errors": errors,
            "bytes": loaded,
            "mathjax_ms": mathjax_ms,
            "interactive": bool(
                page.evaluate("document.querySelectorAll('.posenc-plotly').length")
            ),
            **page.evaluate(CHECKS),
        }
        for screen, viewport in SCREENS.items():
            page.set_viewport_size(viewport)
            found[relative][screen] = page.evaluate(MEASURE)
        page.context.close()
    return found


def test_every_page_typesets_loads_and_stays_local(visits):
    failures = []
    for relative, found in visits.items():
        if found["raw"]:
            failures.append(f"{relative}: math not typeset: {found['raw'][:3]}")
        if found["merror"]:
            failures.append(f"{relative}: {found['merror']} MathJax error(s)")
        if found["broken"]:
            failures.append(f"{relative}: images did not load: {found['broken']}")
        if found["outside"]:
            failures.append(f"{relative}: requests left 127.0.0.1: {found['outside']}")
        unexpected = [
            e for e in found["errors"] if not any(key in e for key in CONSOLE_ALLOW)
        ]
        if unexpected:
            failures.append(f"{relative}: console errors: {unexpected}")
    assert not failures, "\n".join(failures)


PAGE_BUDGET = (
    2_500_000  # bytes a first view may load, for a page without an interactive figure
)
# ms from navigation until MathJax has typeset what is on screen, for every page with math; a
# busier machine than the book's build machine may set POSENC_MATHJAX_BUDGET_MS.
MATHJAX_BUDGET_MS = float(os.environ.get("POSENC_MATHJAX_BUDGET_MS", "1000"))


def test_pages_are_light(visits):
    """A first view of a page without an interactive figure loads at most 2.5 MB (main's pages
    loaded 3.7 to 4.9 MB: Font Awesome's 1.5 MB script, MathJax's 1.2 MB bundle, every figure)."""
    assert sum(found["bytes"] > 0 for found in visits.values()) == len(visits)
    heavy = {
        page: round(found["bytes"] / 1e6, 2)
        for page, found in visits.items()
        if not found["interactive"] and found["bytes"] > PAGE_BUDGET
    }
    assert not heavy, f"pages loading more than {PAGE_BUDGET / 1e6} MB: {heavy}"


@pytest.mark.timing
def test_mathjax_is_done_within_a_second(browser, server, built_site):
    """On a first view MathJax has typeset what the reader sees within MATHJAX_BUDGET_MS of
    navigation (main's pages took 1.0 to 2.7 s here). `make test` runs this test alone, after
    the others, so that it times the pages and not the rest of the test suite; a page over
    budget is measured up to three times more, a second apart, and judged by its best time."""
    with_math = [
        relative
        for relative in site_pages(built_site)
        if 'class="math' in (built_site / relative).read_text(encoding="utf-8")
    ]
    assert len(with_math) > 15, "too few pages with mathematics measured"
    timed = {}
    for page in with_math:
        for attempt in range(4):
            if attempt:
                time.sleep(1)
            view = first_view(browser, server, page)
            view[0].context.close()
            timed[page] = min(timed.get(page, math.inf), view[4])
            if timed[page] <= MATHJAX_BUDGET_MS:
                break
    slow = {page: round(ms) for page, ms in timed.items() if ms > MATHJAX_BUDGET_MS}
    assert not slow, (
        f"MathJax done later than {MATHJAX_BUDGET_MS:.0f} ms after navigation: {slow}"
    )


def test_chapter_math_is_really_rendered(browser, server, built_site):
    """Guard against the check above passing vacuously: chapter 4 has typeset formulas."""
    page, _, _ = visit(browser, f"{server}/book/ch04-standard-formula.html", server)
    typeset_all(page)
    assert (
        page.evaluate("document.querySelectorAll('mjx-container mjx-math').length")
        > 100
    )
    page.close()


DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


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
    # the mouse goes to the last point of the first visible trace that reads out values
    target = page.evaluate(HOVER_TARGET, selector)
    assert target, "no visible trace with a hover read-out"
    page.mouse.move(*target)
    page.wait_for_function(
        f"document.querySelectorAll('{selector} .hoverlayer text').length > 0",
        timeout=5000,
    )

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
        page.wait_for_function(f"{ys} !== {before!r}", timeout=5000)

    # the menu: open it and choose its first item (another dimension d)
    if div.locator(".updatemenu-header-group").count():
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
        .filter(part => root.querySelector(part))
        .map(part => { const r = root.querySelector(part).getBoundingClientRect();
                       return [part, r.left, r.top, r.right, r.bottom]; });
}"""


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize(("relative", "name"), INTERACTIVE)
def test_interactive_figure_parts_do_not_overlap(
    browser, server, relative, name, screen
):
    """Legend, plot area, axis title, slider and menu each have their own space, on a desktop
    and on a 390 px phone (side by side, the menu once covered the slider's label and the axis
    title on a phone), and stay inside the figure."""
    selector = f"#posenc-plotly-{name}"
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


MEASURE = """() => {
    const article = document.querySelector('article.bd-article') || document.querySelector('main');
    const column = article.getBoundingClientRect();
    const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + (el.className && typeof el.className === 'string'
           ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
        + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
    // each formula counts as one box (its inside is MathJax's business, and thousands of
    // elements); hidden helpers do not count
    const SEEN = '*:not(mjx-container *, .headerlink, .visually-hidden)';
    const seen = [...article.querySelectorAll(SEEN)];
    const unscrolled = [], cut = [], silent = [];
    for (const el of seen) {
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) continue;
        // 1. wider than the column: only inside a box that scrolls and itself fits the column
        if (r.right > column.right + 1 || r.left < column.left - 1) {
            let box = el.parentElement;
            while (box && box !== article
                   && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
                box = box.parentElement;
            if (!box || box === article || box.getBoundingClientRect().right > column.right + 1)
                unscrolled.push(name(el));
        }
        if (el.scrollWidth <= el.clientWidth + 1) continue;
        const overflow = getComputedStyle(el).overflowX;
        if (['hidden', 'clip'].includes(overflow)) {
            // 2. a box that hides part of what it holds
            const hidden = [...el.querySelectorAll(SEEN)]
                .some(child => { const c = child.getBoundingClientRect();
                                 return c.width > 1
                                     && (c.right > r.right + 1 || c.left < r.left - 1); });
            if (hidden) cut.push(name(el));
        } else if (['auto', 'scroll'].includes(overflow) && !el.closest('.posenc-plotly')
                   && !getComputedStyle(el).backgroundImage.includes('gradient')) {
            // 3. boxes that scroll sideways show a cue (the shadow of book/_static/custom.css)
            silent.push(name(el));
        }
    }
    // 4. display mathematics wider than the column
    const math = [...document.querySelectorAll('div.math mjx-container')].filter(c => {
        const box = c.querySelector('mjx-math').getBoundingClientRect();
        return c.scrollWidth > c.clientWidth + 1 || box.right > column.right + 1;
    }).map(c => c.parentElement.textContent.trim().slice(0, 50));
    // 5. figures: their size against their natural width, inside the column, linked to the file
    const images = [...article.querySelectorAll('figure img, img.figure')].map(img => {
        const r = img.getBoundingClientRect(), link = img.closest('a[href]');
        return {src: img.src.split('/').pop(), ratio: r.width / img.naturalWidth,
                fits: r.left >= column.left - 1 && r.right <= column.right + 1,
                linked: !!link && link.href === img.src};
    });
    // 6. a code name broken inside a word: a line starts after a letter, digit or underscore
    const split = [...article.querySelectorAll('code.literal span.pre')]
        .filter(s => s.getClientRects().length > 1 && s.firstChild).filter(s => {
            const text = s.firstChild.textContent, range = document.createRange();
            let top = null;
            for (let i = 0; i < text.length; i++) {
                range.setStart(s.firstChild, i); range.setEnd(s.firstChild, i + 1);
                const rect = range.getBoundingClientRect();
                if (top !== null && rect.top > top + 2
                    && /[A-Za-z0-9_]/.test(text[i - 1])) return true;
                top = rect.top;
            }
            return false;
        }).map(s => s.textContent);
    return {overflow: document.documentElement.scrollWidth - innerWidth, unscrolled, cut, silent,
            math, images, split};
}"""

SCREENS = {"desktop": DESKTOP, "tablet": {"width": 900, "height": 900}, "phone": PHONE}


@pytest.fixture(scope="module")
def layouts(visits):
    """{screen: {page: MEASURE's findings}}, from the one visit of each page."""
    return {
        screen: {page: found[screen] for page, found in visits.items()}
        for screen in SCREENS
    }


def test_display_math_fits_the_column_on_desktop(layouts):
    """On a 1280 px screen no display equation is wider than the text column (break it with an
    aligned environment instead; on a phone wide equations scroll inside their own box)."""
    wide = {page: m["math"] for page, m in layouts["desktop"].items() if m["math"]}
    assert not wide, f"display equations wider than the column: {wide}"


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_nothing_is_cut_off_or_wider_than_the_column(layouts, screen):
    """Anything wider than the text column (a display equation, a table, code) scrolls inside a
    box of its own that fits the column and shows a cue that it scrolls; nothing is hidden by a
    box that clips (the theme's inline-math boxes once cut formulas off mid-symbol)."""
    problems = {
        page: {key: m[key] for key in ("unscrolled", "cut", "silent") if m[key]}
        for page, m in layouts[screen].items()
    }
    problems = {page: found for page, found in problems.items() if found}
    assert not problems, f"{screen}: {problems}"


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_figures_fit_the_column_and_open_full_size(layouts, screen):
    """Figures (drawn 8 in wide with 10 pt type) take at most the column's width, so a phone
    shows the whole figure, scaled; a tap on it opens the full-size file. On a desktop they are
    shown at 70 % of their natural size or more, so their labels stay above about 7 pt."""
    measured = layouts[screen]
    images = [(page, image) for page, m in measured.items() for image in m["images"]]
    assert len(images) > 20, "no figures measured"
    outside = [(page, image["src"][:12]) for page, image in images if not image["fits"]]
    assert not outside, f"{screen}: figures wider than the column: {outside}"
    unlinked = [
        (page, image["src"][:12]) for page, image in images if not image["linked"]
    ]
    assert not unlinked, f"figures that do not link to their full-size file: {unlinked}"
    if screen == "desktop":
        shrunk = [
            (page, image["src"][:12], round(image["ratio"], 2))
            for page, image in images
            if image["ratio"] < 0.7
        ]
        assert not shrunk, f"figures shown below 70% of their natural width: {shrunk}"


@pytest.mark.parametrize("screen", ["desktop", "tablet"])
def test_code_names_are_not_split_on_wide_screens(layouts, screen):
    """An inline code name (max_distance, a file name) is never broken inside the word where
    the column has room (the old `overflow-wrap: anywhere` split "max_distan / ce")."""
    split = {page: m["split"] for page, m in layouts[screen].items() if m["split"]}
    assert not split, f"{screen}: code names broken across lines: {split}"


def test_no_page_scrolls_sideways_on_a_phone(layouts):
    """Long inline code wraps and wide equations scroll inside their own box (book/_static/
    custom.css), so the page itself never needs a sideways scroll on a 390 px phone."""
    overflowing = {
        page: m["overflow"] for page, m in layouts["phone"].items() if m["overflow"] > 1
    }
    assert not overflowing, (
        f"pages wider than a 390 px screen (px of overflow): {overflowing}"
    )


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
                f"({ON_SCREEN})({panel!r}) !== {str(was_open).lower()}", timeout=3000
            )
            # close again: a second click where the panel sits beside the text, else Escape
            if was_open:
                toggle.click()
            else:
                page.keyboard.press("Escape")
            page.wait_for_function(
                f"({ON_SCREEN})({panel!r}) === {str(was_open).lower()}", timeout=3000
            )
    assert not outside and not errors, (outside, errors)
    page.close()
