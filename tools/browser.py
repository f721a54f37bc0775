"""Debian's Chromium headless shell driven by Playwright for Python, over a site served from
127.0.0.1: the browser tests (tests/test_browser.py, test_pages.py, test_routes.py) and `make
bench`'s page timings use these helpers.

Never downloads a browser: Playwright drives /usr/bin/chromium-headless-shell (Debian's package
chromium-headless-shell, which `.ci/run` installs), Chromium's engine without the browser's user
interface (Debian's full `chromium` opens a toolbar for every browser context, and renders its
omnibox popup in a second process: 0.6 s of CPU per first view of a page, on two cores).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from urllib.parse import urlsplit

CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # every host but this machine's is unknown: the tests' pages reach nothing else (what
    # a page asks of other hosts is still seen, and reported: keep_local)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
# Elements whose URL the browser fetches when the page loads, and the attribute holding it
FETCHED = {
    "script": "src",
    "img": "src",
    "source": "src",
    "iframe": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
}
# Bytes a first view of a page without an interactive figure may load (tests/test_pages.py)
PAGE_BUDGET = 2_500_000


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(site):
    """Serve the folder ``site`` from 127.0.0.1 while the block runs; yields its origin."""
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


def keep_local(page, origin: str) -> tuple[list[str], list[str]]:
    """Collect what ``page`` asks of hosts other than ``origin``'s and what it logs as errors
    (two lists, filled as the page runs). The requests are watched, not intercepted: routing
    every request through this process (Playwright's ``page.route``) made a first view about
    9 % slower, its MathJax time included. The browser itself refuses every other host
    (CHROMIUM_ARGS: ``--host-resolver-rules``), so nothing leaves the machine either way."""
    outside, errors = [], []
    host = urlsplit(origin).netloc

    def watch(request):
        url = request.url
        if urlsplit(url).netloc != host and not url.startswith("data:"):
            outside.append(url)

    page.on("request", watch)
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    return outside, errors


def visit(browser, url, origin, viewport=None, idle=True):
    """Open ``url`` in a new page of ``browser`` (a context of its own), and wait for its "load"
    event (and, if ``idle``, for the network to be quiet); return the page and what it
    requested from elsewhere and logged as errors."""
    page = browser.new_page(viewport=viewport or DESKTOP)
    outside, errors = keep_local(page, origin)
    page.goto(url, wait_until="load")
    if idle:
        page.wait_for_load_state("networkidle")
    return page, outside, errors


def load_all_images(page, timeout=20000):
    """Figures load lazily (when scrolled near); fetch them all now and wait for them."""
    page.evaluate(
        "document.querySelectorAll('img[loading=lazy]').forEach(img => img.loading = 'eager')"
    )
    page.wait_for_function(
        "[...document.images].every(img => img.complete)", timeout=timeout
    )


# The interactive figures drawn, as a reader gets them: Plotly is fetched when a figure comes
# near the window (tools/extensions/offline_assets.py), so each is scrolled to; then back to the
# top of the page.
DRAW_PLOTLY = """async () => {
    const figures = [...document.querySelectorAll('.posenc-plotly')];
    if (!figures.length) return true;
    const top = window.scrollY;
    for (const figure of figures) {
        figure.scrollIntoView({block: 'center'});
        await window.posencPlotly;
        // drawn: Plotly has laid it out (a resize before that would not reach it)
        while (!(figure._fullLayout && figure.querySelector('.main-svg')))
            await new Promise(resolve => setTimeout(resolve, 20));
        await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 50)));
    }
    window.scrollTo(0, top);
    return true;
}"""


# Boxes that scroll sideways (book/_static/custom.css) show a shadow where more is hidden and
# cover it, where nothing is, with a gradient from the colour behind the box. The boxes whose
# cover does not match what is behind them, as a reader sees it (the page's colour over a
# statement's tint left a patch beside every wide equation): "tag.class (behind: ...)" for each.
CUE_PATCHES = """() => {
    const rgba = text => {
        const m = /rgba?\\(([^)]+)\\)/.exec(text || '');
        if (!m) return null;
        const v = m[1].split(',').map(Number);
        return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    };
    const over = (top, below) => [0, 1, 2].map(i => top[i] * top[3] + below[i] * (1 - top[3]))
        .concat([1]);
    const BOXES = '.bd-article div.math mjx-container[display="true"], '
        + '.bd-article .pst-scrollable-table-container, .bd-article .cell_output > .output, '
        + '.bd-article .cell_output figure > .output, .bd-article div.highlight pre, '
        + '.bd-article .cell_output pre';
    const patches = [];
    for (const box of document.querySelectorAll(BOXES)) {
        const cover = /linear-gradient\\([^,]*,\\s*(rgba?\\([^)]*\\))/
            .exec(getComputedStyle(box).backgroundImage);
        if (!cover) continue;
        // what is behind the box: the backgrounds of its ancestors, painted over one another
        const chain = [];
        for (let el = box.parentElement; el; el = el.parentElement) chain.unshift(el);
        let behind = [255, 255, 255, 1], holder = 'page';
        for (const el of chain) {
            const colour = rgba(getComputedStyle(el).backgroundColor);
            if (colour && colour[3] > 0) {
                behind = over(colour, behind);
                holder = el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 2).join('.');
            }
        }
        const own = rgba(getComputedStyle(box).backgroundColor);
        if (own && own[3] > 0) behind = over(own, behind);
        const seen = over(rgba(cover[1]), behind);
        if (Math.max(...[0, 1, 2].map(i => Math.abs(seen[i] - behind[i]))) > 2)
            patches.push(box.tagName.toLowerCase() + ' in ' + holder + ' "'
                + box.textContent.trim().slice(0, 30) + '"');
    }
    return patches;
}"""


# Set before the page's scripts run: the moment MathJax has typeset what the reader sees.
MATHJAX_CLOCK = """(() => { const t = setInterval(() => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) { clearInterval(t);
        MathJax.startup.promise.then(() => { window.posencMathJaxDone = performance.now(); }); }
}, 2); })();"""
LOADED_BYTES = """() => [performance.getEntriesByType('navigation')[0],
                      ...performance.getEntriesByType('resource')]
    .reduce((sum, entry) => sum + entry.encodedBodySize, 0)"""


def first_view(browser, server, relative):
    """Open a page as a reader's first visit does (own browser context, empty cache) and wait
    until MathJax has typeset what is on screen. Returns the page, what the page asked of other
    hosts, its console errors, the bytes loaded and the MathJax time (ms after navigation)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.add_init_script(MATHJAX_CLOCK)
    outside, errors = keep_local(page, server)
    page.goto(f"{server}/{relative}", wait_until="load")
    mathjax_ms = None
    if page.evaluate("document.querySelectorAll('.math').length"):
        page.wait_for_function("window.posencMathJaxDone !== undefined", timeout=20000)
        mathjax_ms = page.evaluate("window.posencMathJaxDone")
    page.evaluate("document.fonts.ready.then(() => true)")
    return page, outside, errors, page.evaluate(LOADED_BYTES), mathjax_ms
