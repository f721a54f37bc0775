"""Valid HTML: ids repeated on a page are numbered.

sphinx-proof and sphinx-exercise give every proof, exercise and solution body the same id
("proof", "proof-content", ...): the second becomes "proof-2", and so on. Only in HTML: the LaTeX
builder resolves the whole book as one doctree, where renumbering would rename each chapter's
own anchors and break the links to them.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def number_repeated_ids(app: Sphinx, doctree, docname: str) -> None:
    if app.builder.format != "html":
        return
    seen: set[str] = set()
    for node in doctree.findall(
        lambda n: bool(getattr(n, "get", None) and n.get("ids"))
    ):
        ids = []
        for node_id in node["ids"]:
            if node_id in seen:
                number = 2
                while f"{node_id}-{number}" in seen:
                    number += 1
                node_id = f"{node_id}-{number}"
            seen.add(node_id)
            ids.append(node_id)
        node["ids"] = ids


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", number_repeated_ids)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
