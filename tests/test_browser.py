"""The site's interactive parts as a reader's browser meets them: the interactive figures, the
search (offline, in both editions) and the sidebars' toggles. The visit of every page (every
formula typeset, among the rest) is in tests/test_pages.py; the helpers are in
tools/browser.py. Outside CI a machine without chromium skips this file.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

import pytest
from browser import (
    CUE_PATCHES,
    DESKTOP,
    DRAW_PLOTLY,
    PHONE,
    keep_local,
    load_all_images,
    visit,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from support.book import ROOT
from support.english_left import english_phrases

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
    div.scroll_into_view_if_needed()  # Plotly comes when the reader nears the figure
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
    return ['.legend', '.nsewdrag', '.g-xtitle', '.slider-container', '.updatemenu-header-group',
            '.modebar']
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
    """Legend, plot area, axis title, slider, menu and Plotly's toolbar each have their own
    space, on a desktop and on a 390 px phone (side by side, the menu once covered the slider's
    label and the axis title on a phone; the toolbar covered the legend's first line there),
    and stay inside the figure."""
    viewport = {"desktop": DESKTOP, "phone": PHONE}[screen]
    # the figures drawn are what this test waits for (what the page requests is the business
    # of test_interactive_figure_draws_and_responds)
    page, _, _ = visit(browser, f"{server}/{relative}", server, viewport, idle=False)
    page.evaluate(DRAW_PLOTLY)
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


PLOTLY_BUNDLE = "plotly-basic.min.js"


@pytest.mark.parametrize("relative", sorted(FIGURES_ON))
def test_plotly_comes_when_the_reader_nears_a_figure(browser, server, relative):
    """A page with an interactive figure fetches Plotly's 1.2 MB bundle only when the reader
    scrolls near the figure (it came on every visit, once MathJax was done, read to the figure
    or not); then the figure is drawn."""
    page = browser.new_page(viewport=DESKTOP)
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{server}/{relative}", wait_until="load")
    page.wait_for_load_state("networkidle")
    page.evaluate("MathJax.startup.promise.then(() => true)")
    page.wait_for_timeout(500)
    distance = page.evaluate(
        "document.querySelector('.posenc-plotly').getBoundingClientRect().top / innerHeight"
    )
    if distance > 2.5:  # more than a window's height below the first screen
        assert not [url for url in fetched if PLOTLY_BUNDLE in url], (
            f"{relative}: Plotly fetched with its first figure {distance:.1f} windows down"
        )
    page.evaluate(DRAW_PLOTLY)
    assert [url for url in fetched if PLOTLY_BUNDLE in url]
    page.close()


LUMINANCE = """(selector) => {
    const el = document.querySelector(selector);
    const style = getComputedStyle(el);
    const colour = (style.fill && style.fill !== 'none' && el.tagName !== 'svg')
        ? style.fill : style.backgroundColor;
    const [r, g, b] = colour.match(/[\\d.]+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_plotly_figures_follow_the_colour_mode(browser, server, mode):
    """An interactive figure takes the page's colours: dark paper and light text in dark mode
    (it stayed a white panel), and the theme's light colours in light mode."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(
        f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}')"
    )
    page = context.new_page()
    page.goto(f"{server}/book/ch05-decay-integral.html", wait_until="load")
    page.evaluate(DRAW_PLOTLY)
    assert page.evaluate("document.documentElement.dataset.theme") == mode
    figure = ".posenc-plotly"
    paper = page.evaluate(LUMINANCE, f"{figure} .main-svg")
    text = page.evaluate(LUMINANCE, f"{figure} .xtick text")
    context.close()
    if mode == "dark":
        assert paper < 0.2 and text > 0.6, (
            f"dark mode: paper {paper:.2f}, text {text:.2f}"
        )
    else:
        assert paper > 0.9 and text < 0.5, (
            f"light mode: paper {paper:.2f}, text {text:.2f}"
        )


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


# Searches whose results include pages found by their title (whose excerpts came from the
# whole page, its header's buttons included) and pages dense with formulas, in both editions
EXCERPT_SEARCHES = ["ALiBi", "Abel", "RoPE", "外推", "黎曼和"]
# What the header's buttons, the print-only contents and the skip link say (not ".whl", which
# the prose's "Run this chapter" box names too)
CHROME = re.compile(
    r"中文|English|\.ipynb|\.pdf|Skip to main content|跳转|Contents|目录"
)
RAW_TEX = re.compile(r"\\[()\[\]]|\\(?:theta|frac|sum|mathrm|cos|sin|le|in)\b|[_^]\{")
EXCERPTS = """async () => {
    // a page's excerpt comes when the page has been fetched; an object (a function of the
    // API reference) has its description instead
    const done = () => [...document.querySelectorAll('#search-results ul.search li')]
        .every(li => li.querySelector('p.context, :scope > span'));
    for (let i = 0; i < 200 && !done(); i++) await new Promise(r => setTimeout(r, 50));
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
        await new Promise(r => setTimeout(r, 100));
        const doc = MathJax.startup.document;
        if (doc.lazyTypesetAll) await doc.lazyTypesetAll();
    }
    return [...document.querySelectorAll('#search-results ul.search li')].map(li => {
        const p = li.querySelector('p.context');
        if (!p) return {page: li.querySelector('a').href, typeset: 0,
                        text: li.querySelector(':scope > span') ? '' : null};
        const copy = p.cloneNode(true);
        copy.querySelectorAll('mjx-container').forEach(m => m.remove());
        return {page: li.querySelector('a').href, text: copy.textContent,
                typeset: p.querySelectorAll('mjx-container').length};
    });
}"""


@pytest.mark.parametrize("word", EXCERPT_SEARCHES)
def test_search_excerpts_show_the_text(browser, server, word):
    """Each result's excerpt is cut from the page's text, not from its header's buttons or the
    contents printed on paper ("…中文 .ipynb", "….pdf ALiBi: … Contents…"), and its formulas
    are typeset, none shown as TeX ("\\(x\\theta_i\\)"), in both editions
    (tools/extensions/sphinx_patches.py)."""
    edition = "zh/" if re.search(r"[\u4e00-\u9fff]", word) else ""
    url = f"{server}/{edition}search.html?q={quote(word)}"
    page, outside, errors = visit(browser, url, server)
    page.wait_for_function(
        """() => [...document.querySelectorAll('#search-results p, .search-summary')]
        .some(p => /Search finished|搜索完成/.test(p.textContent))""",
        timeout=20000,
    )
    results = page.evaluate(EXCERPTS)
    page.close()
    assert results, f"no result for {word!r}"
    missing = [r["page"] for r in results if r["text"] is None]
    chrome = {r["page"]: CHROME.findall(r["text"] or "") for r in results}
    tex = {r["page"]: RAW_TEX.findall(r["text"] or "") for r in results}
    problems = {
        "no excerpt": missing,
        "page chrome": {page: found for page, found in chrome.items() if found},
        "raw TeX": {page: found for page, found in tex.items() if found},
    }
    assert not any(problems.values()), f"{word!r}: {problems}"
    assert not outside and not errors, (outside, errors)


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


@pytest.mark.parametrize("width", [390, 900])
def test_the_contents_drawer_closes_after_a_pick(browser, server, width):
    """On a phone and a tablet the page's contents open as a drawer; picking a section in it
    scrolls there and closes the drawer (it stayed open over the text it had scrolled to)."""
    page, outside, errors = visit(
        browser,
        f"{server}/book/ch05-decay-integral.html",
        server,
        {"width": width, "height": 844 if width < 500 else 900},
    )
    panel = PANELS[".secondary-toggle"]
    page.locator(".secondary-toggle").first.click()
    page.wait_for_function(f"({ON_SCREEN})({panel!r})", timeout=3000)
    link = page.locator("dialog[open] nav.page-toc a[href^='#']").nth(3)
    target = link.get_attribute("href")[1:]
    link.click()
    page.wait_for_function(f"!({ON_SCREEN})({panel!r})", timeout=3000)
    assert not page.evaluate("!!document.querySelector('dialog[open]')")
    top = page.evaluate(
        "(id) => document.getElementById(id).getBoundingClientRect().top", target
    )
    assert 0 <= top < 200, f"{target} is at {top} px after the pick"
    assert not outside and not errors, (outside, errors)
    page.close()


@pytest.mark.parametrize("edition", ["", "zh/"])
def test_the_edition_switch_keeps_the_section(browser, server, edition):
    """The link to the other edition leads to the same section: the one the address names,
    or the one the reader has scrolled to (it dropped the anchor and opened the page at its
    top)."""
    other = "" if edition else "zh/"
    url = f"{server}/{edition}book/ch05-decay-integral.html"
    page, outside, errors = visit(browser, url + "#ch05-closed-form", server, PHONE)
    page.locator("a.posenc-edition-switch").first.click()
    page.wait_for_url(f"**/{other}book/ch05-decay-integral.html#ch05-closed-form")
    page.wait_for_load_state("load")
    top = page.evaluate(
        "document.getElementById('ch05-closed-form').getBoundingClientRect().top"
    )
    assert 0 <= top < 200, f"the section is at {top} px in the other edition"
    # without an anchor in the address: where the reader has scrolled to
    page.goto(url, wait_until="load")
    section = page.evaluate(
        "document.getElementById('ch05-regimes').closest('section').id"
    )
    page.evaluate(
        f"window.scrollTo(0, document.getElementById('{section}')"
        ".getBoundingClientRect().top + scrollY + 300)"
    )
    page.locator("a.posenc-edition-switch").first.click()
    page.wait_for_url(f"**/{other}book/ch05-decay-integral.html#{section}")
    assert not outside and not errors, (outside, errors)
    page.close()


@pytest.mark.parametrize(
    "relative", ["zh/book/ch05-decay-integral.html", "zh/book/ch12-rope.html"]
)
def test_the_chinese_edition_as_the_browser_shows_it_leaves_nothing_in_english(
    browser, server, relative
):
    """What scripts add to a Chinese page once it has loaded (dropdown buttons and their
    labels, among the rest) holds no English phrase either (tests/support/english_left.py;
    tests/test_editions.py scans the pages as the build wrote them), nor a screen-reader label
    in English. The control: the English page, as the browser shows it, has the dropdown
    buttons' English label."""
    english, outside, errors = visit(browser, f"{server}/{relative[3:]}", server)
    assert english.locator(
        'button.toggle-button[aria-label="Toggle hidden content"]'
    ).count()
    english.close()
    page, outside, errors = visit(browser, f"{server}/{relative}", server)
    assert page.locator("button.toggle-button").count() > 3
    found = english_phrases(page.content())
    assert not found, dict(found.most_common(10))
    # and no screen-reader label in English words alone (a single word, "Main", is not a
    # phrase): what a Chinese reader's screen reader would read out in English
    labels = page.evaluate(
        "[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))"
    )
    english = [label for label in labels if re.fullmatch(r"[A-Za-z][A-Za-z ]+", label)]
    assert not english, english
    assert not outside and not errors, (outside, errors)
    page.close()


# The text nodes of the article that hold Chinese and are set in italic (a browser slants the
# upright face), each as its first characters
SLANTED_CHINESE = """() => {
    const walker = document.createTreeWalker(
        document.querySelector('article'), NodeFilter.SHOW_TEXT);
    const slanted = []; let chinese = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!/[\u4e00-\u9fff]/.test(node.data)) continue;
        chinese += 1;
        if (getComputedStyle(node.parentElement).fontStyle !== 'normal')
            slanted.push(node.data.trim().slice(0, 30));
    }
    return [chinese, slanted];
}"""


@pytest.mark.parametrize(
    "relative", ["zh/book/ch05-decay-integral.html", "zh/book/ch12-rope.html"]
)
def test_chinese_is_never_slanted(browser, server, relative):
    """No Chinese text of a page is set in italic: emphasis, figure numbers and proof titles
    stand upright (book/_static/custom.css), and so do the code comments, which the Pygments
    style sets upright. The control: a Chinese word put
    into an <em> of the English page, which slants it, is found."""
    page, outside, errors = visit(browser, f"{server}/{relative}", server)
    chinese, slanted = page.evaluate(SLANTED_CHINESE)
    assert chinese > 200 and not slanted, slanted[:10]
    page.close()
    english, outside, errors = visit(browser, f"{server}/{relative[3:]}", server)
    english.evaluate(
        "document.querySelector('article p').insertAdjacentHTML('beforeend', "
        "'<em>斜体</em>')"
    )
    assert english.evaluate(SLANTED_CHINESE)[1] == ["斜体"]
    english.close()


END_MARK = "getComputedStyle(document.querySelector('{0}'), '::after').content"


def test_a_folded_proof_shows_its_end_mark_only_when_opened(browser, server):
    """The ∎ after a proof belongs to the proof: a folded proof, which shows only its title
    bar, has none, and the same proof opened has it."""
    page, outside, errors = visit(browser, f"{server}/book/ch12-rope.html", server)
    proof = "div.prf-proof.dropdown"
    assert page.evaluate(END_MARK.format(proof)) == "none"
    # A click event on the title itself, as togglebutton listens for: a mouse click at the
    # title's centre can land on a neighbour when MathJax, typesetting as the page scrolls,
    # moves the title between Playwright's aim and its click (failed so in CI under load).
    page.locator(f"{proof} > .admonition-title").first.dispatch_event("click")
    page.wait_for_function(
        f"!document.querySelector('{proof}').classList.contains('toggle-hidden')"
    )
    assert page.evaluate(END_MARK.format(proof)) == '"∎"'
    assert not outside and not errors, (outside, errors)
    page.close()


# Every formula typeset (ui/lazy typesets them as they scroll into view)
EVERY_FORMULA = """async () => {
    await MathJax.startup.promise;
    const doc = MathJax.startup.document;
    if (doc.lazyTypesetAll) await doc.lazyTypesetAll();
}"""


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize(
    "relative", ["book/ch12-rope.html", "zh/book/ch03-complex-solution.html"]
)
def test_scroll_cues_take_the_colour_behind_them(browser, server, relative, mode):
    """A wide equation in a statement, a table in a dropdown, an output in a hidden cell: the
    cover of each box's scroll cue is the colour behind the box, in both colour modes (the
    page's colour over a statement's tint left a white, or near-black, patch each side of
    nearly every wide equation in a statement). Light mode on every page: test_pages.py."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(
        f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}')"
    )
    page = context.new_page()
    page.goto(f"{server}/{relative}", wait_until="load")
    page.evaluate(EVERY_FORMULA)
    assert page.evaluate("document.documentElement.dataset.theme") == mode
    in_statements = page.evaluate(
        "document.querySelectorAll('div.proof.admonition:not(.prf-proof) "
        "mjx-container[display=true]').length"
    )
    patches = page.evaluate(CUE_PATCHES)
    context.close()
    assert in_statements > 0, "no display equation in a statement to look at"
    assert not patches, f"{mode}: scroll cues in the wrong colour: {patches}"


SEARCH_CONTROLS = """() => [...document.querySelectorAll('.search-button, .search-button-field')]
    .filter(el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
                    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; })
    .map(el => el.closest('.bd-header-article') ? 'header' : 'elsewhere')"""


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_the_header_has_a_search_button_at_every_width(browser, server, width):
    """One search control, the magnifier in the header, at every width and with the chapter
    list collapsed on a desktop (from 992 px the themes hid it behind the sidebar's search
    field, so a collapsed sidebar left only Ctrl+K); it opens the search."""
    page, outside, errors = visit(
        browser,
        f"{server}/book/ch04-standard-formula.html",
        server,
        {"width": width, "height": 844 if width < 500 else 900},
    )
    assert page.evaluate(SEARCH_CONTROLS) == ["header"], page.evaluate(SEARCH_CONTROLS)
    if width >= 1200:  # collapse the chapter list: the magnifier stays
        page.locator(".primary-toggle").first.click()
        page.wait_for_timeout(500)
        assert page.evaluate(SEARCH_CONTROLS) == ["header"]
    page.locator(".bd-header-article .search-button").first.click()
    page.wait_for_function(
        "document.querySelector('#pst-search-dialog') "
        "&& document.querySelector('#pst-search-dialog').open",
        timeout=3000,
    )
    assert not outside and not errors, (outside, errors)
    page.close()


MAGNIFIER = """() => [...document.querySelectorAll('form.bd-search')]
    .filter(form => form.getBoundingClientRect().width > 0).map(form => {
        const icon = form.querySelector('.fa-magnifying-glass').getBoundingClientRect();
        const input = form.querySelector('input');
        const text = input.getBoundingClientRect().left
            + parseFloat(getComputedStyle(input).paddingLeft);
        return {icon: icon.right, text};
    })"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_search_field_shows_the_whole_query(browser, server, width):
    """On the search page the magnifier sits before the query, not over its first letter."""
    page, _, _ = visit(
        browser,
        f"{server}/search.html?q=Abel",
        server,
        {"width": width, "height": 844 if width < 500 else 900},
    )
    fields = page.evaluate(MAGNIFIER)
    page.close()
    assert fields
    covered = [field for field in fields if field["icon"] > field["text"]]
    assert not covered, f"{width} px: the magnifier covers the query: {covered}"


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
