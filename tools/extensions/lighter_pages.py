"""Lighter pages: two scripts the theme puts on every page are left out
(book/_templates/layout.html passes the page head through these two Jinja filters).

1. pydata-sphinx-theme loads Font Awesome's 1.5 MB script (SVG icons), although its stylesheet
   draws the same icons from Font Awesome's web font: `drop_fontawesome_script`.
2. It also loads Sphinx's search (searchtools.js, language_data.js and the whole search index,
   150 KB in English and 245 KB in Chinese, parsed before the page is shown) for a
   search-as-you-type that this book leaves off: `drop_search_scripts` leaves them to the search
   page, which has its own.
"""

from __future__ import annotations

import re

from markupsafe import Markup
from sphinx.application import Sphinx

FONTAWESOME_SCRIPT = re.compile(
    r'\s*<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>\s*</script>'
)
SEARCH_SCRIPTS = re.compile(
    r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
    r'searchindex\.js)"></script>'
)


def drop_fontawesome_script(html: str) -> Markup:
    return Markup(FONTAWESOME_SCRIPT.sub("", str(html)))


def drop_search_scripts(html: str) -> Markup:
    return Markup(SEARCH_SCRIPTS.sub("", str(html)))


def add_filters(app: Sphinx) -> None:
    if hasattr(app.builder, "templates"):
        filters = app.builder.templates.environment.filters
        filters["drop_fontawesome_script"] = drop_fontawesome_script
        filters["drop_search_scripts"] = drop_search_scripts


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", add_filters)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
