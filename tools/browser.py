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
    """Open ``url`` in ``browser`` (a new context of its own) or in a browser context, and wait
    for its "load" event (and, if ``idle``, for the network to be quiet); return the page and
    what it requested from elsewhere and logged as errors."""
    page = browser.new_page(
        **({"viewport": viewport or DESKTOP} if hasattr(browser, "new_context") else {})
    )
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
