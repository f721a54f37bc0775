"""Inline formulas break at the end of a line only where TeX would break them: after a
relation, a binary operator or a comma, never inside `Ld` or `Ci(x)`.

The work is done in the browser, by inline_math_breaks.js (beside this file, which says how),
run on every page with mathematics after `window.MathJax = {...}` (the configuration it adds
to) and before the deferred startup.js.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx

SCRIPT = (Path(__file__).parent / "inline_math_breaks.js").read_text(encoding="utf-8")


def add_script(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, after sphinx.ext.mathjax's (priority 500), on pages with maths."""
    if app.builder.format == "html" and app.env.get_domain("math").has_equations(
        pagename
    ):
        app.add_js_file(None, body=SCRIPT)


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", add_script, priority=600)
    # a changed script is a changed "html" setting: Sphinx then writes every page again
    digest = hashlib.sha256(SCRIPT.encode()).hexdigest()
    app.add_config_value("posenc_inline_math_breaks", digest, "html")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
