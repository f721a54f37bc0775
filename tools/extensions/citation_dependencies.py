"""A page that cites depends on references.bib: an edit of the .bib renders it again.

sphinxcontrib-bibtex numbers the bibliography's entries (their HTML ids) in the order it lists
them, and a citation links to that id. A new or removed entry renumbers the others, but Sphinx
writes again only the pages that changed: an unchanged page kept linking its citations to the
old ids, so "Andonian et al. 2021" led to Touvron et al.'s entry until `make clean`. Noting the
.bib files as a dependency of every page that cites (as a page depends on an included file)
makes Sphinx read and write those pages again; the execution cache keeps the cells' outputs.
"""

from __future__ import annotations

from pathlib import Path

from sphinx import addnodes
from sphinx.application import Sphinx


def depend_on_bibfiles(app: Sphinx, doctree) -> None:
    cites = any(
        node.get("refdomain") == "cite" for node in doctree.findall(addnodes.pending_xref)
    )
    if cites:
        for bibfile in app.config.bibtex_bibfiles:
            app.env.note_dependency(str(Path(app.confdir) / bibfile))


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", depend_on_bibfiles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
