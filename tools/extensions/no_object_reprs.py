"""No Python object's repr on a page: a page whose text shows ``<IPython.core.display.Markdown
object>`` or ``<… object at 0x7f…>`` fails the strict build (a warning).

Such a repr is what a glued value or a cell's output becomes when no richer form reaches the
page: the Chinese edition's reproducing appendix once offered its downloads as two
``<IPython.core.display.Markdown object>``, and nothing noticed.
"""

from __future__ import annotations

import html
import re

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
# IPython's display objects, and the default repr of any object
OBJECT_REPR = re.compile(r"<IPython\.[\w.]+ object>|<[\w.]+ object at 0x[0-9a-fA-F]+>")


def object_reprs(text: str) -> list[str]:
    """The object reprs in a page's text (its HTML, unescaped)."""
    return OBJECT_REPR.findall(html.unescape(text))


def refuse_object_reprs(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`: a warning for each object repr in the page's body."""
    for found in object_reprs(context.get("body", "")):
        LOGGER.warning(
            "%s shows a Python object's repr, %s: glue or display a value that renders "
            "(Markdown, a number, a figure)",
            pagename,
            found,
            location=pagename,
        )


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", refuse_object_reprs)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
