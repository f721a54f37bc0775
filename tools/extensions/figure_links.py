"""Figures open their full-size file, and load only when the reader comes near them.

Each figure's image is wrapped in a link to the image file the builder copies to _images/ (on a
phone the column shows it scaled down; a tap shows it whole; Sphinx itself links only images
given a size), and marked `loading="lazy"`.
"""

from __future__ import annotations

import posixpath

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri


def link_figures(app: Sphinx, doctree, docname: str) -> None:
    if app.builder.format != "html":
        return
    image_dir = relative_uri(app.builder.get_target_uri(docname), "_images")
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if (
            not any(isinstance(p, nodes.figure) for p in _ancestors(image))
            or isinstance(image.parent, nodes.reference)
            or uri not in app.env.images
        ):
            continue
        image["loading"] = "lazy"
        link = nodes.reference(
            "",
            "",
            internal=True,
            classes=["posenc-figure-link"],
            refuri=posixpath.join(image_dir, app.env.images[uri][1]),
        )
        image.replace_self(link)
        link.append(image)


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", link_figures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
