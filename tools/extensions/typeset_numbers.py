"""Glued numbers as a reader writes them (Sphinx extension).

A chapter glues a number with a Python format spec (``{glue:text}`key:.1e```), which would
print ``8.9e-04``. After the pages are resolved, every glued number in Python's scientific
notation is re-rendered by the library's one number formatter,
:func:`posenc.display.format_number` (``8.9 × 10⁻⁴``, keeping the mantissa's significant
digits); integers of five or more digits get thousands separators, and a leading hyphen
becomes a minus sign. Other glued text is left as written.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx

from posenc.display import format_number

SCIENTIFIC = re.compile(r"^([+-]?)(\d)(?:\.(\d+))?e([+-]?\d+)$")
LONG_INTEGER = re.compile(r"^[+-]?\d{5,}$")
NEGATIVE = re.compile(r"^-(?=[\d.])")


def typeset(text: str) -> str:
    """The text of a glued value, with Python's number spellings replaced."""
    match = SCIENTIFIC.match(text)
    if match:
        sign, lead, decimals, exponent = match.groups()
        digits = 1 + len(decimals or "")
        return format_number(float(text), digits)
    if LONG_INTEGER.match(text):
        return format_number(int(text))
    return NEGATIVE.sub("\u2212", text)


def typeset_glued_numbers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in doctree.findall(nodes.inline):
        if "pasted-text" not in node["classes"] or len(node.children) != 1:
            continue
        child = node.children[0]
        if isinstance(child, nodes.Text):
            new = typeset(child.astext().strip())
            if new != child.astext().strip():
                node.replace(child, nodes.Text(new))


def setup(app: Sphinx):
    app.connect("doctree-resolved", typeset_glued_numbers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
