"""Every change this book makes to Sphinx's own behaviour, in one place.

Each patch was measured against the plain build and kept because it still pays (the numbers are
in its docstring; a {numref} patch that saved 3 s of a 33 s build went), and each checks the
Sphinx version it was written for: on another version the
build stops (`ExtensionError`) and asks for the patch to be measured again, and then updated or
removed. Nothing else in tools/ replaces or reaches into Sphinx's private methods.
"""

from __future__ import annotations

import filecmp
import hashlib
import json
import shutil
from pathlib import Path

import sphinx
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.search.zh import SearchChinese

WRITTEN_FOR = (7, 4)  # Sphinx's major and minor version


def require_sphinx_written_for(app: Sphinx, config) -> None:
    if sphinx.version_info[:2] != WRITTEN_FOR:
        raise ExtensionError(
            f"tools/extensions/sphinx_patches.py was written for Sphinx "
            f"{'.'.join(map(str, WRITTEN_FOR))}, not {sphinx.__version__}: measure each patch "
            "against the plain build again, then update WRITTEN_FOR or remove the patch"
        )


class _LatinTerms(set):
    """A set that SearchChinese can ``extend`` as it extends its list."""

    extend = set.update


class ChineseSearch(SearchChinese):
    """Sphinx's Chinese search index, with the Latin words it has seen kept in a set.

    Sphinx 7.4's SearchChinese appends every Latin word of every text it splits to one list
    (duplicates included) and, for each word it stems, asks whether the word is in that list:
    a scan of a list that grows to tens of thousands of words. The question and the index are
    the same with a set. Measured on the whole Chinese edition, read and written afresh with the
    chapters' execution cached: 45.0 s of CPU with this patch, 52.6 s without (7.6 s, 14 %)."""

    def init(self, options: dict[str, str]) -> None:
        super().init(options)
        self.latin_terms = _LatinTerms()


def forget_message_documents(app: Sphinx, doctree: nodes.document) -> None:
    """Nodes that Sphinx's translation parsed from a message keep a reference to the small
    document they were parsed in, whose settings hold the build environment; pickled with the
    page, that environment made every doctree of the Chinese edition megabytes. They belong to
    the page's document. Measured as above: 45.0 s of CPU and 8.4 MB of doctrees with this
    patch, 105.7 s and 44 MB without."""
    for node in doctree.findall():
        if node._document is not None and node._document is not doctree:
            node.document = doctree


def refresh_static_files(app: Sphinx, exception) -> None:
    """Sphinx 7.4 copies `html_static_path` only when it writes some page, so a build after an
    edit of book/_static/custom.css alone kept the old stylesheet: changed files are copied."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static"
    for folder in app.config.html_static_path:
        source = Path(app.confdir) / folder
        for path in source.rglob("*") if source.is_dir() else []:
            copy = target / path.relative_to(source)
            if path.is_file() and copy.exists() and not filecmp.cmp(path, copy, False):
                shutil.copyfile(path, copy)


# The caption of the part of _toc.yml whose chapters are lettered
APPENDICES = "Appendices"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letter_appendices(app: Sphinx, env) -> list[str]:
    """`env-get-updated`, after Sphinx has numbered the sections, statements and figures: the
    appendices are A, B, ... where Sphinx (with sphinx-multitoc-numbering) counts on from the
    chapters, 15, 16, ...; an unnumbered part, as they were before, numbered their statements
    "Definition 1, 2, 3" across all of them. The first number of each appendix's sections,
    statements and figures becomes its letter, in the four places Sphinx keeps it: the
    environment's section and figure numbers, and the secnumber of the page's contents and of
    its title (the sidebar, the headings and "Definition B.1" read them; LaTeX letters the
    chapters after \\appendix itself, print_edition.py). Sphinx numbers everything afresh in each
    build, so each build letters it afresh (and writes the appendices again: their numbers
    differ from the saved ones). Checked on the site and the PDF: "B. Special functions used",
    "Definition B.1", "Fig. C.1" (tests/test_site.py)."""
    site_map = getattr(env, "external_site_map", None)
    if site_map is None:
        return []
    parts = site_map[site_map.root.docname].subtrees
    part = next((p for p in parts if p.caption == APPENDICES and p.numbered), None)
    if part is None:
        return []
    docs = [doc for doc in part.items if env.toc_secnumbers.get(doc, {}).get("")]
    letters = {env.toc_secnumbers[doc][""][0]: LETTERS[i] for i, doc in enumerate(docs)}

    def lettered(number):
        if not number or number[0] not in letters:
            return number
        return type(number)([letters[number[0]], *number[1:]])

    for doc in docs:
        secnumbers = env.toc_secnumbers[doc]
        for anchor, number in secnumbers.items():
            secnumbers[anchor] = lettered(number)
        for numbers in env.toc_fignumbers.get(doc, {}).values():
            for target, number in numbers.items():
                numbers[target] = lettered(number)
        for reference in env.tocs[doc].findall(nodes.reference):
            if reference.get("secnumber"):
                reference["secnumber"] = lettered(reference["secnumber"])
        title = env.titles.get(doc)
        if title is not None and title.get("secnumber"):
            title["secnumber"] = lettered(title["secnumber"])
    return []


SEARCH_EXCERPTS = (Path(__file__).parent / "sphinx_patches_search.js").read_text(
    encoding="utf-8"
)


def search_excerpts(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Sphinx 7.4's search page shows an excerpt of each page it finds, cut from the text of
    the page's ``[role="main"]`` element (searchtools.js, ``Search.htmlToText``). In this theme
    that element also holds the header's buttons, the contents printed on paper and the footer,
    so an excerpt of a page found by a word in its title began with "中文 .ipynb .md .pdf" and
    the page's table of contents; and formulas, which the browser typesets, showed as TeX
    ("\\(x\\theta_i\\)"). Measured on both editions' search pages (queries "ALiBi", "Abel",
    "RoPE", "外推", "黎曼和"): of 44 excerpts, 5 showed the header's buttons or the printed
    contents, 22 raw TeX. With
    sphinx_patches_search.js, which replaces ``Search.htmlToText`` (the article's text) and
    wraps ``Search.makeSearchSummary`` (a formula the excerpt cuts is left out, the others are
    typeset by MathJax, which the search page now loads): none (tests/test_browser.py)."""
    if pagename != "search" or app.builder.format != "html":
        return
    app.add_js_file(None, body=SEARCH_EXCERPTS)
    app.add_js_file(
        None, body=f"window.MathJax = {json.dumps(app.config.mathjax3_config)}"
    )
    app.add_js_file(app.config.mathjax_path, defer="defer")


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", require_sphinx_written_for)
    app.add_search_language(ChineseSearch)
    app.connect("doctree-read", forget_message_documents)
    app.connect("build-finished", refresh_static_files)
    app.connect("html-page-context", search_excerpts)
    app.connect("env-get-updated", letter_appendices, priority=900)
    # a changed script is a changed "html" setting: Sphinx then writes the search page again
    digest = hashlib.sha256(SEARCH_EXCERPTS.encode()).hexdigest()
    app.add_config_value("posenc_search_excerpts", digest, "html")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
