"""The site's frame (a Sphinx extension loaded through `sphinx.local_extensions`).

1. Proofs are marked: sphinx-proof gives every proof box the id "proof" (tools/book_ext.py
   numbers the repeats) and no class of its own, so its stylesheet styled only a page's first
   proof. Each proof's box gets the class `prf-proof`, which book/_static/custom.css styles.
2. Edited stylesheets reach the site: Sphinx 7.4 copies `html_static_path` only when some page
   is rewritten, so a build after a CSS-only edit kept the old file; changed files are copied.
"""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

from sphinx.application import Sphinx

PROOF_CLASS = "prf-proof"


def mark_proofs(app: Sphinx, doctree, docname: str) -> None:
    from sphinx_proof.nodes import proof_node

    for proof in doctree.findall(proof_node):
        for box in proof.children:
            if PROOF_CLASS not in box.get("classes", []):
                box["classes"].append(PROOF_CLASS)


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
    app.connect("doctree-resolved", mark_proofs)
    app.connect("build-finished", refresh_static_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
