"""The site's index.html: a page with a title, in the edition's language, that sends the
browser on to the landing page, with a link for one that does not follow.

sphinx-external-toc writes index.html when the build has none, as a bare
``<meta http-equiv="Refresh">``: no title (a tab, a bookmark or a search result showed the
address) and nothing to click. This extension writes it first, at the end of each HTML build,
so sphinx-external-toc leaves it alone.
"""

from __future__ import annotations

import html
from pathlib import Path

from sphinx.application import Sphinx

PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta http-equiv="Refresh" content="0; url={url}">
<link rel="canonical" href="{url}">
</head>
<body>
<p><a href="{url}">{go}</a></p>
</body>
</html>
"""
# What the link says, in each edition's language, and the language code of the page
WORDS = {
    "en": ("en", "Continue to {title}"),
    "zh_CN": ("zh-Hans", "进入《{title}》"),
}


def write_index(app: Sphinx, exception) -> None:
    """`build-finished`, before sphinx-external-toc's (500): index.html leads to the root page."""
    if exception is not None or app.builder.name != "html":
        return
    root = app.config.root_doc
    if root == "index":
        return
    title = (
        app.env.titles[root].astext() if root in app.env.titles else app.config.project
    )
    lang, go = WORDS.get(app.config.language or "en", WORDS["en"])
    page = PAGE.format(
        lang=lang,
        title=html.escape(title),
        url=html.escape(app.builder.get_target_uri(root), quote=True),
        go=html.escape(go.format(title=title)),
    )
    (Path(app.outdir) / "index.html").write_text(page, encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_index, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
