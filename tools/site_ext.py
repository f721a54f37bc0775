"""The site's frame (a Sphinx extension loaded through `sphinx.local_extensions`).

1. Proofs are marked: sphinx-proof gives every proof box the id "proof" (tools/book_ext.py
   numbers the repeats) and no class of its own, so its stylesheet styled only a page's first
   proof. Each proof's box gets the class `prf-proof`, which book/_static/custom.css styles,
   and the "Proof." that sphinx-proof writes before the first word becomes a run-in title.
2. Figures open their full-size file: each figure's image is wrapped in a link to the image
   file (on a phone the column shows it scaled down; a tap shows it whole), and loads lazily:
   only when the reader scrolls near it, not with the page.
3. Lighter pages: pydata-sphinx-theme puts Font Awesome's 1.5 MB script (SVG icons) in every
   page's head, although its stylesheet draws the same icons from Font Awesome's web font.
   book/_templates/layout.html passes the head through `drop_fontawesome_script`.
4. Edited stylesheets reach the site: Sphinx 7.4 copies `html_static_path` only when some page
   is rewritten, so a build after a CSS-only edit kept the old file; changed files are copied.
"""

from __future__ import annotations

import filecmp
import hashlib
import posixpath
import re
import shutil
from pathlib import Path

from markupsafe import Markup
from sphinx.application import Sphinx

PROOF_CLASS = "prf-proof"


def mark_proofs(app: Sphinx, doctree, docname: str) -> None:
    from docutils import nodes
    from sphinx_proof.nodes import proof_node

    for proof in doctree.findall(proof_node):
        for box in proof.children:
            if PROOF_CLASS in box.get("classes", []):
                continue
            box["classes"].append(PROOF_CLASS)
            first = next(iter(box.findall(nodes.Text)), None)
            if first is not None and first.astext().startswith("Proof."):
                rest = first.astext()[len("Proof."):]
                title = nodes.inline("Proof.", "Proof.", classes=["prf-proof-title"])
                first.parent.replace(first, title)
                title.parent.insert(title.parent.index(title) + 1, nodes.Text(rest))


def link_figures(app: Sphinx, doctree, docname: str) -> None:
    """Wrap every figure's image in a link to the image file the builder copies to _images/
    (env.images knows its final name; Sphinx itself links only images given a size)."""
    from docutils import nodes
    from sphinx.util.osutil import relative_uri

    if app.builder.format != "html":
        return
    image_dir = relative_uri(app.builder.get_target_uri(docname), "_images")
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if (not any(isinstance(p, nodes.figure) for p in _ancestors(image))
                or isinstance(image.parent, nodes.reference) or uri not in app.env.images):
            continue
        image["loading"] = "lazy"  # fetched when the reader scrolls near it
        link = nodes.reference("", "", internal=True, classes=["posenc-figure-link"],
                               refuri=posixpath.join(image_dir, app.env.images[uri][1]))
        image.replace_self(link)
        link.append(image)


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


FONTAWESOME_SCRIPT = re.compile(r'\s*<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>\s*</script>')


def drop_fontawesome_script(html: str) -> Markup:
    """Jinja filter: the page head without the <script> of fontawesome.js."""
    return Markup(FONTAWESOME_SCRIPT.sub("", str(html)))


def add_filters(app: Sphinx) -> None:
    if hasattr(app.builder, "templates"):
        app.builder.templates.environment.filters["drop_fontawesome_script"] = drop_fontawesome_script


def refresh_static_files(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static"
    for folder in app.config.html_static_path:
        source = Path(app.confdir) / folder
        for path in source.rglob("*") if source.is_dir() else []:
            copy = target / path.relative_to(source)
            if path.is_file() and copy.exists() and not filecmp.cmp(path, copy, shallow=False):
                shutil.copyfile(path, copy)


def setup(app: Sphinx):
    # an edit of this file rewrites every page (Sphinx compares "html" config values)
    app.add_config_value("posenc_site_ext_digest",
                         hashlib.sha256(Path(__file__).read_bytes()).hexdigest(), "html")
    app.connect("builder-inited", add_filters)
    app.connect("doctree-resolved", mark_proofs)
    app.connect("doctree-resolved", link_figures)
    app.connect("build-finished", refresh_static_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
