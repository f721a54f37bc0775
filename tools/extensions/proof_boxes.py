"""Proofs are marked, so that the stylesheet can style every one of them.

sphinx-proof gives every proof box the id "proof" (unique_ids.py numbers the repeats) and no
class of its own, so its stylesheet styled only a page's first proof. Each proof's box gets the
class `prf-proof` (book/_static/custom.css), and the "Proof." that sphinx-proof writes before
the first word becomes a run-in title. A folded proof (`:class: dropdown`) gets a title bar
instead ("Proof", "证明"): sphinx-book-theme's togglebutton.js puts its button into the box's
`admonition-title`, and on a box without one it threw, which left every later dropdown of the
page unfolded.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

PROOF_CLASS = "prf-proof"
# how a proof begins, in the English and in the Chinese edition (locale/zh_CN)
PROOF_WORDS = ("Proof.", "证明：", "证明。", "证明.")


def mark_proofs(app: Sphinx, doctree, docname: str) -> None:
    from sphinx_proof.nodes import proof_node

    for proof in doctree.findall(proof_node):
        for box in proof.children:
            if PROOF_CLASS in box.get("classes", []):
                continue
            box["classes"].append(PROOF_CLASS)
            first = next(iter(box.findall(nodes.Text)), None)
            text = first.astext() if first is not None else ""
            word = next((word for word in PROOF_WORDS if text.startswith(word)), None)
            if (
                word is not None
                and "dropdown" in box["classes"]
                and app.builder.format == "html"
            ):
                bar = word.rstrip(".：。")
                box.insert(0, nodes.paragraph(bar, bar, classes=["admonition-title"]))
                first.parent.replace(first, nodes.Text(text[len(word) :].lstrip()))
            elif word is not None:
                title = nodes.inline(word, word, classes=["prf-proof-title"])
                first.parent.replace(first, title)
                title.parent.insert(
                    title.parent.index(title) + 1, nodes.Text(text[len(word) :])
                )


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", mark_proofs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
