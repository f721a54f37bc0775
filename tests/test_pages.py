"""Every page of the site as a reader's browser meets it on a first view, with nothing cached
(both editions): how much it loads; formulas typeset, figures loaded, nothing fetched from
elsewhere, no console error; nothing cut off or wider than the column, and inline formulas
broken only where TeX breaks them, at three screen widths. Each page is opened once for all of
it. How soon MathJax is done is a time, which `make bench` measures (bench/page_weight.py).
Helpers in tools/browser.py.
"""

from __future__ import annotations

import re

import pytest
from browser import (
    CUE_PATCHES,
    DESKTOP,
    DRAW_PLOTLY,
    PAGE_BUDGET,
    PHONE,
    first_view,
)
from support.book import ROOT

pytestmark = pytest.mark.browser


# Console errors that are expected and harmless, each with its reason.
CONSOLE_ALLOW = {}


def site_pages(site):
    return sorted(
        str(path.relative_to(site))
        for path in site.rglob("*.html")
        if not {"mathjax", "_static"} & set(path.relative_to(site).parts)
    )


TYPESET_ALL = """async () => {
    await MathJax.startup.promise;
    // ui/lazy typesets formulas as they scroll into view; checks want every one of them
    if (MathJax.startup.document.lazyTypesetAll) await MathJax.startup.document.lazyTypesetAll();
}"""


def start(page, script: str) -> None:
    """Start ``script`` (a JavaScript function, possibly async) in ``page`` and return at once;
    ``result(page)`` waits for what it returns. Each browser context renders in a process of
    its own, so scripts started in two pages run at once, one per core, where
    ``page.evaluate`` would wait for one page before it starts the next."""
    page.evaluate(
        f"""() => {{ window.posencResult = undefined; setTimeout(async () => {{
            try {{ window.posencResult = {{value: await ({script})()}}; }}
            catch (error) {{ window.posencResult = {{error: String(error)}}; }}
        }}, 0); }}"""
    )


def result(page, timeout: float = 20000):
    """What the script of the last ``start(page, ...)`` returned, once it has."""
    page.wait_for_function("window.posencResult !== undefined", timeout=timeout)
    outcome = page.evaluate("window.posencResult")
    if "error" in outcome:
        raise AssertionError(f"{page.url}: {outcome['error']}")
    return outcome.get("value")


# The whole page in view, as a script for start(): every formula typeset (not only those on
# screen), every figure loaded (not only those near the screen), the interactive figures drawn
# (Plotly comes when the reader nears one of them: DRAW_PLOTLY scrolls to each).
ALL_IN_VIEW = (
    "async () => { if (document.querySelector('.math')) await ("
    + TYPESET_ALL
    + """)();
    document.querySelectorAll('img[loading=lazy]').forEach(img => img.loading = 'eager');
    while (![...document.images].every(img => img.complete))
        await new Promise(resolve => setTimeout(resolve, 20));
    await ("""
    + DRAW_PLOTLY
    + """)();
}"""
)


CHECKS = """() => ({
    raw: [...document.querySelectorAll('.math')]
        .filter(el => !el.querySelector('mjx-container mjx-math'))
        .map(el => el.textContent.slice(0, 60)),
    typeset: [...document.querySelectorAll('.math')]
        .filter(el => el.querySelector('mjx-container mjx-math')).length,
    merror: document.querySelectorAll('mjx-merror').length,
    broken: [...document.images].filter(img => !img.complete || img.naturalWidth === 0)
        .map(img => img.src),
})"""


def pages_to_visit(site) -> list[str]:
    """Every page of the site but index.html, which only redirects to book/intro.html."""
    return [
        relative
        for relative in site_pages(site)
        if 'http-equiv="Refresh"'
        not in (site / relative).read_text(encoding="utf-8")[:500]
    ]


@pytest.fixture(scope="module")
def pages(browser, server, built_site):
    """Every page of the site, each opened once as a reader's first view opens it (a browser
    context of its own, nothing cached): what it loads (bytes, other hosts) and logs as errors,
    and when MathJax has typeset what is on screen; then, on the same page, every formula
    typeset, every figure loaded and the interactive figures drawn, the checks of CHECKS, and
    the layout of MEASURE on a desktop (1280 px), a tablet (900 px) and a phone (390 px)
    screen. The pages go two at a time, one per core (browser.start and browser.result)."""
    found = {}
    relatives = pages_to_visit(built_site)
    for pair in (relatives[i : i + 2] for i in range(0, len(relatives), 2)):
        opened = []
        for relative in pair:
            page, outside, errors, loaded, mathjax_ms = first_view(
                browser, server, relative
            )
            # the interactive figures, which come when the reader nears them, are drawn now
            page.evaluate(DRAW_PLOTLY)
            opened.append(page)
            found[relative] = {
                "outside": outside,
                "errors": errors,
                "bytes": loaded,
                "mathjax_ms": mathjax_ms,
            }
        # Then each page in full and at each screen width. Resizing a page returns once its
        # renderer has laid it out again, on one core, so each page is resized while the other
        # one runs a script: its checks, or its measures at the last width.
        for page in opened:
            start(page, ALL_IN_VIEW)
        previous = None
        for screen, viewport in SCREENS.items():
            for relative, page in zip(pair, opened, strict=True):
                if previous is None:
                    result(page)  # ALL_IN_VIEW
                    found[relative] |= {
                        "interactive": bool(
                            page.evaluate(
                                "document.querySelectorAll('.posenc-plotly').length"
                            )
                        ),
                        **page.evaluate(CHECKS),
                    }
                else:
                    found[relative][previous] = result(page)
                page.set_viewport_size(viewport)
                start(page, MEASURE)
            previous = screen
        for relative, page in zip(pair, opened, strict=True):
            found[relative][previous] = result(page)
        for page in opened:
            page.context.close()
    return found


def stray_requests_and_errors(relative: str, found: dict) -> list[str]:
    failures = []
    if found["outside"]:
        failures.append(f"{relative}: requests left 127.0.0.1: {found['outside']}")
    unexpected = [
        e for e in found["errors"] if not any(key in e for key in CONSOLE_ALLOW)
    ]
    if unexpected:
        failures.append(f"{relative}: console errors: {unexpected}")
    return failures


def test_every_page_typesets_loads_and_stays_local(pages):
    """Every formula typeset without a MathJax error, every image loaded, nothing requested from
    another host (on a first view, with nothing in the browser's cache), no console error."""
    failures = []
    for relative, found in pages.items():
        if found["raw"]:
            failures.append(f"{relative}: math not typeset: {found['raw'][:3]}")
        if found["merror"]:
            failures.append(f"{relative}: {found['merror']} MathJax error(s)")
        if found["broken"]:
            failures.append(f"{relative}: images did not load: {found['broken']}")
        failures += stray_requests_and_errors(relative, found)
    assert not failures, "\n".join(failures)


def test_the_typeset_check_is_not_vacuous(pages):
    """Guard against the check above passing vacuously (a selector that finds no formula finds
    none untypeset): every chapter page, in both editions, shows at least 100 typeset formulas
    (the fewest, chapter 11, has 139)."""
    chapters = {
        relative: found["typeset"]
        for relative, found in pages.items()
        if relative.rsplit("/", 1)[-1].startswith("ch")
    }
    assert len(chapters) >= 28, f"chapter pages visited: {sorted(chapters)}"
    thin = {relative: n for relative, n in chapters.items() if n < 100}
    assert not thin, f"chapter pages with fewer than 100 typeset formulas: {thin}"


def test_pages_are_light(pages):
    """A first view of a page without an interactive figure loads at most 2.5 MB (main's pages
    loaded 3.7 to 4.9 MB: Font Awesome's 1.5 MB script, MathJax's 1.2 MB bundle, every figure)."""
    assert sum(found["bytes"] > 0 for found in pages.values()) == len(pages)
    heavy = {
        page: round(found["bytes"] / 1e6, 2)
        for page, found in pages.items()
        if not found["interactive"] and found["bytes"] > PAGE_BUDGET
    }
    assert not heavy, f"pages loading more than {PAGE_BUDGET / 1e6} MB: {heavy}"


# How many pieces brackets may hold and still never break inside (inline_math_breaks.js)
LONG = int(
    re.search(
        r"var LONG = (\d+);",
        (ROOT / "tools" / "extensions" / "inline_math_breaks.js").read_text(),
    ).group(1)
)
MEASURE = """async () => {
    // At a new width a figure's <picture> may choose another drawing (the phone's, under 576
    // px), which the browser then fetches: measure once every image has what it now shows.
    // Plotly lays an interactive figure out again after a resize, when it gets to it
    const laidOut = f => !f._fullLayout || [f, f.querySelector('.main-svg')].every(
        e => !e || e.getBoundingClientRect().width
                   <= f.parentElement.getBoundingClientRect().width + 1);
    for (let waited = 0; waited < 15000; waited += 100) {
        if ([...document.images].every(img => img.complete && img.currentSrc)
            && [...document.querySelectorAll('.posenc-plotly')].every(laidOut)) break;
        await new Promise(resolve => setTimeout(resolve, 100));
    }
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
        // a folded proof (togglebutton.js) hides its body on purpose, as a closed <details> does
        if (['hidden', 'clip'].includes(overflow) && !el.classList.contains('toggle-hidden')) {
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
        return {src: img.src.split('/').pop(), shown: img.currentSrc.split('/').pop(),
                ratio: r.width / img.naturalWidth,
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
    // 7. an inline formula broken where TeX would not break it: a line of it ends after a
    // piece that MathJax's own TeX classes make no relation, binary operator or punctuation
    // (the pieces are the top-level nodes of the formula, grouped by INLINE_MATH_BREAKS)
    const CLASSES = ['ORD', 'OP', 'BIN', 'REL', 'OPEN', 'CLOSE', 'PUNCT', 'INNER', 'VCENTER'];
    const badBreaks = [];
    const items = window.MathJax && MathJax.startup && MathJax.startup.document
        ? [...MathJax.startup.document.math] : [];
    for (const item of items) {
        const top = item.typesetRoot && item.typesetRoot.querySelector(':scope > mjx-math');
        if (item.display || !top || !article.contains(top)) continue;
        const pieces = [...top.querySelectorAll(':scope > *, :scope > mjx-break-group > *')]
            .filter(piece => piece.tagName !== 'MJX-BREAK-GROUP');
        let nodes = item.root.childNodes[0].childNodes;  // the formula's inferred row
        if (nodes.length === 1 && nodes[0].isInferred) nodes = nodes[0].childNodes;
        if (nodes.length !== pieces.length) {
            badBreaks.push(`${item.math}: ${pieces.length} pieces, ${nodes.length} nodes`);
            continue;
        }
        // the innermost bracket around each piece, and how many pieces each pair holds (| and
        // ‖ open and close); a break inside brackets that hold LONG pieces or fewer is wrong
        const inside = [], open = [], holds = {}, bars = {};
        nodes.forEach((node, k) => {
            const core = node.isEmbellished ? node.coreMO() : null;
            const text = core && core.getText ? core.getText() : '';
            const bar = text === '|' || text === '\u2016' ? text : null;
            const closes = open.length > 0
                && (bar ? bars[bar] : CLASSES[node.texClass] === 'CLOSE');
            const opens = !closes && (bar ? !bars[bar] : CLASSES[node.texClass] === 'OPEN');
            if (closes) {
                const start = open.pop();
                holds[start] = k - start - 1;
            }
            inside.push(open.length ? open[open.length - 1] : -1);
            if (opens) open.push(k);
            if (bar) bars[bar] = opens;
        });
        open.forEach(start => { holds[start] = nodes.length - start - 1; });
        let last = null;
        pieces.forEach((piece, k) => {
            const box = piece.getBoundingClientRect();
            if (box.width === 0) return;
            const starts = last && box.top >= last.box.bottom - 2 && box.left < last.box.left;
            if (starts && !['BIN', 'REL', 'PUNCT'].includes(CLASSES[nodes[last.k].texClass]))
                badBreaks.push(`${item.math} (after ${CLASSES[nodes[last.k].texClass]})`);
            else if (starts && inside[last.k] >= 0 && holds[inside[last.k]] <= LONG)
                badBreaks.push(`${item.math} (inside brackets)`);
            // TeX drops the space at a break: the new line does not start with it
            if (starts && parseFloat(getComputedStyle(piece).marginLeft) > 0.5)
                badBreaks.push(`${item.math} (a line starts with a space)`);
            last = {box, k};
        });
        // punctuation that follows the formula stays on its last line
        const after = item.typesetRoot.parentNode.nextSibling;
        const mark = after && after.nodeType === 3
            && /^\\u2060?[，。；：、）！？,.;:)]/.exec(after.data);
        if (last && mark) {
            const range = document.createRange();
            range.setStart(after, mark[0].length - 1);
            range.setEnd(after, mark[0].length);
            const box = range.getBoundingClientRect();
            if (box.top >= last.box.bottom - 2 && box.left < last.box.left)
                badBreaks.push(`${item.math} (a line starts with "${mark[0].slice(-1)}")`);
        }
    }
    // 8. code blocks that scroll sideways
    const scrollingCode = [...article.querySelectorAll('div.highlight pre, .cell_output pre')]
        .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
        .map(pre => pre.textContent.trim().slice(0, 40));
    return {overflow: document.documentElement.scrollWidth - innerWidth, unscrolled, cut, silent,
            math, images, split, badBreaks, scrollingCode, cuePatches: CUE_PATCHES()};
}""".replace("CUE_PATCHES()", f"({CUE_PATCHES})()").replace("LONG", str(LONG))

SCREENS = {"desktop": DESKTOP, "tablet": {"width": 900, "height": 900}, "phone": PHONE}


@pytest.fixture(scope="module")
def layouts(pages):
    """{screen: {page: MEASURE's findings}}, from the one visit of each page."""
    return {
        screen: {page: found[screen] for page, found in pages.items()}
        for screen in SCREENS
    }


def test_display_math_fits_the_column_on_desktop(layouts):
    """On a 1280 px screen no display equation is wider than the text column (break it with an
    aligned environment instead; on a phone wide equations scroll inside their own box)."""
    wide = {page: m["math"] for page, m in layouts["desktop"].items() if m["math"]}
    assert not wide, f"display equations wider than the column: {wide}"


def test_the_defining_formula_fits_a_phone(layouts):
    """The landing page's formula, the book's subject, is stacked (one line per equation) and
    fits a 390 px phone's column in both editions; on one line it had to be scrolled."""
    wide = {
        page: m["math"]
        for page, m in layouts["phone"].items()
        if page.endswith("book/intro.html") and m["math"]
    }
    assert len([p for p in layouts["phone"] if p.endswith("book/intro.html")]) == 2
    assert not wide, f"display equations wider than a phone's column: {wide}"


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


def test_figures_are_legible_on_a_phone(layouts):
    """On a 390 px phone each figure is shown as drawn for phones (tools/extensions/
    phone_figures.py; posenc.figures draws it 4.8 in wide, panels stacked, no text under
    PHONE_TEXT points) and shown large enough that its smallest text is at least 9 px tall.
    Drawn for a desktop, figures shrank to about 41 % there: 4 to 5 px labels."""
    from posenc.figures import PHONE_SUFFIX, PHONE_TEXT

    small = {}
    for page, m in layouts["phone"].items():
        for image in m["images"]:
            text_px = PHONE_TEXT * 96 / 72 * image["ratio"]
            if not image["shown"].endswith(PHONE_SUFFIX) or text_px < 9:
                small.setdefault(page, []).append(
                    (image["shown"][:16], f"{text_px:.1f} px")
                )
    assert not small, f"figures not drawn for phones, or their text under 9 px: {small}"


@pytest.mark.parametrize("screen", ["desktop", "tablet"])
def test_code_names_are_not_split_on_wide_screens(layouts, screen):
    """An inline code name (max_distance, a file name) is never broken inside the word where
    the column has room (the old `overflow-wrap: anywhere` split "max_distan / ce")."""
    split = {page: m["split"] for page, m in layouts[screen].items() if m["split"]}
    assert not split, f"{screen}: code names broken across lines: {split}"


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_inline_formulas_break_only_where_tex_would(layouts, screen):
    """An inline formula that meets the end of a line goes on after a relation, a binary
    operator or a comma (TeX's rule, by MathJax's own classes of the pieces), never inside a
    product or a function's argument, and never inside brackets that hold a few pieces
    (LONG or fewer; a longer bracketed list or bound may break after its commas and
    operators): "f(q," / "m)" broke a function's arguments on a phone, where TeX never breaks
    at such a comma. Before
    tools/extensions/inline_math_breaks.js the
    browser broke formulas elsewhere 1,040 times on a phone and 419 times on a desktop, in
    both editions ("Ci(" / "x)", "L" / "d", "x" / "θ_i"). Nor does a line start with the
    punctuation after a formula (the Chinese edition's "：" and "；" did, 6 times on a phone),
    nor with the space after the relation it broke at (TeX drops it; MathJax's space in front
    of the next piece indented 1,085 lines on a phone, 281 on a tablet, 425 on a desktop)."""
    broken = {
        page: m["badBreaks"] for page, m in layouts[screen].items() if m["badBreaks"]
    }
    assert not broken, f"{screen}: inline formulas broken where TeX would not: {broken}"


def test_code_fits_the_desktop_column_as_well_as_the_tablets(layouts):
    """At 1280 px, with both sidebars beside the text, no more code blocks scroll sideways
    than at 900 px, where the sidebars are drawers (with the themes' sidebar widths the column
    was narrower at 1280: 7 to 17 blocks per chapter scrolled there, none or one at 900)."""
    worse = {
        page: {
            "desktop": len(m["scrollingCode"]),
            "tablet": len(layouts["tablet"][page]["scrollingCode"]),
            "first": m["scrollingCode"][:2],
        }
        for page, m in layouts["desktop"].items()
        if len(m["scrollingCode"]) > len(layouts["tablet"][page]["scrollingCode"])
    }
    assert not worse, f"more code blocks scroll at 1280 px than at 900 px: {worse}"


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_scroll_cues_leave_no_patch(layouts, screen):
    """A box that scrolls sideways (a wide equation, a table, code) covers its shadow, where
    nothing is hidden, with the colour behind it: inside a statement, an admonition or a
    dropdown that is the box's own tint, not the page's white (which left a patch on each side
    of nearly every equation in a statement). Dark mode: tests/test_browser.py."""
    patches = {
        page: m["cuePatches"] for page, m in layouts[screen].items() if m["cuePatches"]
    }
    assert not patches, f"{screen}: scroll cues in the wrong colour: {patches}"


def test_no_page_scrolls_sideways_on_a_phone(layouts):
    """Long inline code wraps and wide equations scroll inside their own box (book/_static/
    custom.css), so the page itself never needs a sideways scroll on a 390 px phone."""
    overflowing = {
        page: m["overflow"] for page, m in layouts["phone"].items() if m["overflow"] > 1
    }
    assert not overflowing, (
        f"pages wider than a 390 px screen (px of overflow): {overflowing}"
    )
