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


def visit(browser, url, origin):
    """Open ``url``; return the page and what it requested from elsewhere and logged as errors."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
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
