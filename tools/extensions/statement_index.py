"""The index of statements (prf-prf.html, linked from the landing page): every numbered
theorem, lemma, proposition, corollary, definition and assumption, under its chapter (the
chapter's number or the appendix's letter, then its title), in the book's order, each entry
named as the book numbers it ("Theorem 5.3", 定理 5.3) and linked to it, its title beside it.

sphinx-proof's own index ("Proof Index") listed the statements' labels (thm-inner-product,
prop-ch03-many-solutions) in alphabetical order, typed and headed in English in both
editions. Its domain is replaced here by a subclass whose only change is the index.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Index, IndexEntry
from sphinx.locale import get_translation
from sphinx_proof.domain import ProofDomain

# sphinx-proof's catalogue: the type names as its statements show them ("Theorem", 定理)
proof_words = get_translation("proof")
# The index's title, by the edition's language
TITLES = {"en": ("Index of statements", "Statements"), "zh_CN": ("定理索引", "定理")}


def statement_titles(app: Sphinx, doctree: nodes.document) -> None:
    """`doctree-read`: each statement's own title as the page shows it (after translation),
    without the brackets sphinx-proof sets around it."""
    titles = app.env.__dict__.setdefault("posenc_statement_titles", {})
    titles[app.env.docname] = page = {}
    for node in doctree.findall(nodes.Element):
        if "realtype" in node.attributes and node.get("label") and node.children:
            if isinstance(node[0], nodes.title):
                text = node[0].astext().strip()
                page[node["label"]] = text.strip(" ()（）")


def forget_titles(app: Sphinx, env, docname: str) -> None:
    """`env-purge-doc`: a page read again records its titles again."""
    env.__dict__.get("posenc_statement_titles", {}).pop(docname, None)


def reading_order(env) -> list[str]:
    """The pages in the order of the table of contents (depth first from the root)."""
    order, stack = [], [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in order:
            continue
        order.append(docname)
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return order


class StatementIndex(Index):
    name = "prf"
    localname, shortname = TITLES["en"]

    def generate(self, docnames=None) -> tuple[list, bool]:
        env = self.domain.env
        titles = getattr(env, "posenc_statement_titles", {})
        by_page: dict[str, list] = {}
        for label, found in getattr(env, "proof_list", {}).items():
            docname = found["docname"]
            number = env.toc_fignumbers.get(docname, {}).get(found["countertype"], {})
            if found.get("nonumber") or label not in number:
                continue
            typename = proof_words(found["realtype"].title())
            key = tuple(number[label])
            name = f"{typename} {'.'.join(map(str, key))}"
            title = titles.get(docname, {}).get(label, "")
            entry = IndexEntry(name, 2, docname, label, "", "", title)
            by_page.setdefault(docname, []).append((key, entry))
        # Under each chapter's number (or appendix's letter; the index's headings and the
        # bar of links to them, which the theme makes anchors of), the chapter, then its
        # statements in order
        content = []
        for docname in reading_order(env):
            if docname in by_page:
                number = env.toc_secnumbers.get(docname, {}).get("", ("",))
                chapter = IndexEntry(
                    env.titles[docname].astext(), 1, docname, "", "", "", ""
                )
                entries = [entry for _, entry in sorted(by_page[docname])]
                content.append((str(number[0]), [chapter, *entries]))
        return content, False


def use_statement_index(app: Sphinx, config) -> None:
    """`config-inited`: sphinx-proof's domain with this index, titled in the edition's
    language."""
    StatementIndex.localname, StatementIndex.shortname = TITLES.get(
        config.language or "en", TITLES["en"]
    )

    class StatementDomain(ProofDomain):
        indices = [StatementIndex]

    app.add_domain(StatementDomain, override=True)


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinx_proof")
    app.connect("config-inited", use_statement_index)
    app.connect("doctree-read", statement_titles)
    app.connect("env-purge-doc", forget_titles)
    # pages are read one at a time (no build passes -j), so there is nothing to merge
    return {"parallel_read_safe": False, "parallel_write_safe": True, "version": "1"}
