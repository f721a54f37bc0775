"""Each chapter's download menu offers the executed chapter as a notebook that reads like the
page, and the posenc wheel and the pins to run it with.

1. sphinx-book-theme offers an .ipynb only when a launch service (Binder, ...) is configured,
   which an offline book has not, and the notebook MyST-NB leaves in jupyter_execute/ has no
   outputs. The executed notebook is taken from the execution cache instead, without the cells
   the page removes (the build's own: verdicts, glued numbers), its cells numbered (ids cell-1,
   cell-2, ...; jupytext's are random), so that two builds offer the same file.
2. Its text reads as the page does: JupyterLab knows nothing of the build, and showed every glued
   number as its name ("ch05_I_1e5:.4f") and every reference as "⚠ label". Each role of the
   book's prose is replaced by what the page shows: a glued value, typeset
   (typeset_numbers.py), "Fig. 5.2", "Proposition 5.5", a section's title, "(Vaswani et al.
   2017)", each reference a link to its place on the site; a `{glue:md}` block by its Markdown.
   The links are relative to where the site serves the notebook (`_sources/`), or absolute when
   `html_baseurl` names the site's address.
3. `make book` builds the wheel with the standard build tool into `<html>/wheel/`, with the
   pins it was tested with (constraints.txt), before the pages are written; the menu offers
   both next to the .ipynb.
"""

from __future__ import annotations

import functools
import posixpath
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging
from typeset_numbers import typeset

LOGGER = logging.getLogger(__name__)
WHEEL_DIR = "wheel"
# A role (`{name}`text``) or an inline code span, whichever starts first
ROLE_OR_CODE = re.compile(
    r"\{(?P<name>[a-z][\w:-]*)\}(?P<ticks>`+)(?P<text>.+?)(?P=ticks)|(`+).+?\4", re.S
)
# A fenced block: its fence, its info string (`{directive} argument` or a language), its body
FENCE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.S | re.M,
)
NOT_PROSE = ("{code-block}", "{code}", "{code-cell}", "{raw-cell}", "{math}")
TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)


class ReadablePage:
    """What the site shows for each role of one page's Markdown."""

    def __init__(self, app: Sphinx, docname: str, glued: dict):
        self.app, self.env, self.docname, self.glued = app, app.env, docname, glued
        base = app.config.html_baseurl
        self.root = base.rstrip("/") + "/" if base else "../" * (docname.count("/") + 1)

    def url(self, docname: str, anchor: str = "") -> str:
        return f"{self.root}{docname}.html" + (f"#{anchor}" if anchor else "")

    def markdown(self, text: str) -> str:
        """``text`` with its roles resolved, inside the directives too; code left alone."""
        out, position = [], 0
        for block in FENCE.finditer(text):
            out.append(self.inline(text[position : block.start()]))
            info = block["info"].strip()
            if info.startswith("{glue:md}"):
                out.append(self.glue_markdown(info.split(None, 1)[1].strip()))
            elif info.startswith("{") and not info.startswith(NOT_PROSE):
                fence = block["fence"]
                out.append(
                    f"{fence}{self.inline(block['info'])}\n{self.markdown(block['body'])}{fence}"
                )
            else:
                out.append(block.group(0))
            position = block.end()
        out.append(self.inline(text[position:]))
        return "".join(out)

    def inline(self, text: str) -> str:
        def resolve(match: re.Match) -> str:
            if match["name"] is None:
                return match.group(0)  # code
            role = getattr(
                self, "role_" + match["name"].replace(":", "_").replace("-", "_"), None
            )
            return match.group(0) if role is None else role(match["text"])

        return ROLE_OR_CODE.sub(resolve, text)

    # ------------------------------------------------------------------ glued values

    def glue_data(self, key: str) -> dict:
        doc, _, key = key.rpartition("::")
        docname = posixpath.normpath(
            posixpath.join(posixpath.dirname(self.docname), doc)
        )
        glued = (
            self.glued
            if not doc
            else executed_glue(self.app, docname.removesuffix(".md"))
        )
        return glued[key]

    def role_glue_text(self, text: str) -> str:
        from myst_nb.core.variables import format_plain_text

        key, fmt = (
            text.rsplit(":", 1) if ":" in text else (text, "s")
        )  # as MyST-NB reads it
        return typeset(format_plain_text(self.glue_data(key)["text/plain"], fmt))

    def role_glue(self, text: str) -> str:
        data = self.glue_data(text)
        return data.get("text/html") or self.role_glue_text(text)

    def glue_markdown(self, key: str) -> str:
        return self.markdown(self.glue_data(key)["text/markdown"].rstrip("\n") + "\n")

    # ------------------------------------------------------------------ references

    def labelled(self, text: str) -> tuple[str | None, str]:
        found = TITLED.match(text)
        return (found["title"], found["target"]) if found else (None, text)

    def role_ref(self, text: str) -> str:
        title, label = self.labelled(text)
        std = self.env.get_domain("std")
        docname, anchor, name = std.labels.get(label) or (*std.anonlabels[label], "")
        return f"[{title or name or label}]({self.url(docname, anchor)})"

    def role_numref(self, text: str) -> str:
        title, label = self.labelled(text)
        docname, anchor = self.env.get_domain("std").anonlabels[label]
        for kind, numbers in self.env.toc_fignumbers.get(docname, {}).items():
            if anchor in numbers:
                number = ".".join(map(str, numbers[anchor]))
                shown = (title or self.app.config.numfig_format[kind]).replace(
                    "%s", number
                )
                return f"[{shown}]({self.url(docname, anchor)})"
        raise KeyError(f"{label} has no number")

    def role_prf_ref(self, text: str) -> str:
        title, label = self.labelled(text)
        found = self.env.proof_list[label]
        number = ".".join(
            map(
                str,
                self.env.toc_fignumbers[found["docname"]][found["countertype"]][label],
            )
        )
        shown = title or f"{found['realtype'].title()} {number}"
        return f"[{shown}]({self.url(found['docname'], label)})"

    def role_cite(self, text: str, parenthetical: bool = True) -> str:
        citations = {c.key: c for c in self.env.get_domain("cite").citations}
        shown = []
        for key in (k.strip() for k in text.split(",")):
            citation = citations[key]
            label = citation.formatted_entry.label
            if not parenthetical:
                author, _, year = label.rpartition(" ")
                label = f"{author} ({year})"
            link = self.url(citation.bibliography_key.docname, citation.citation_id)
            shown.append(f"[{label}]({link})")
        return f"({'; '.join(shown)})" if parenthetical else ", ".join(shown)

    role_cite_p = role_cite

    def role_cite_t(self, text: str) -> str:
        return self.role_cite(text, parenthetical=False)

    def role_doc(self, text: str) -> str:
        title, target = self.labelled(text)
        docname = posixpath.normpath(
            posixpath.join(posixpath.dirname(self.docname), target)
        )
        return f"[{title or self.env.titles[docname].astext()}]({self.url(docname)})"

    def role_other_edition(self, text: str) -> str:  # links only the website has
        return text

    role_pdf_edition = role_other_edition


def glue_of(notebook) -> dict:
    """{key: mime bundle} of what a notebook's cells glued (MyST-NB's `glue`)."""
    glued = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            scrapbook = output.get("metadata", {}).get("scrapbook")
            if scrapbook:
                prefix = len(scrapbook.get("mime_prefix", ""))
                glued[scrapbook["name"]] = {
                    k[prefix:]: v for k, v in output["data"].items()
                }
    return glued


def executed(app: Sphinx, docname: str):
    """The page's notebook (jupytext) with its outputs from the execution cache."""
    import jupytext
    from jupyter_cache import get_cache

    notebook = jupytext.read(app.env.doc2path(docname))
    cache = get_cache(app.env.mystnb_config.execution_cache_path)
    return cache.merge_match_into_notebook(notebook)[1]


@functools.cache
def executed_glue(app: Sphinx, docname: str) -> dict:
    """What another page glued (a cross-page `{glue:text}`), read once per build."""
    return glue_of(executed(app, docname))


def offer_notebook(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, before the theme builds its header buttons (priority 501)."""
    import nbformat

    if app.builder.format != "html" or pagename not in app.env.found_docs:
        return
    if not (Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb").exists():
        return  # not a notebook page
    try:
        notebook = executed(app, pagename)
    except KeyError:
        LOGGER.warning("no executed copy of %s in the cache: not offered", pagename)
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    if not notebook.metadata.get("posenc", {}).get("offer_notebook", True):
        target.unlink(missing_ok=True)  # an earlier build's
        return  # it runs in a clone only (its front matter says so)
    page = ReadablePage(app, pagename, glue_of(notebook))
    # the cells the page removes are the build's (its verdicts, the numbers glued into the
    # text, which the notebook's text now shows): the notebook holds the page's code, and the
    # live explorers the page cannot run (`skip-execution`), which are for Jupyter
    notebook.cells = [
        cell
        for cell in notebook.cells
        if "remove-cell" not in (tags := cell.metadata.get("tags", []))
        or "skip-execution" in tags
    ]
    notebook.cells.insert(0, nbformat.v4.new_markdown_cell(banner(app, pagename)))
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{number}"
        if cell.cell_type == "markdown":
            try:
                cell.source = page.markdown(cell.source)
            except KeyError as missing:
                LOGGER.warning("%s: the download cannot resolve %s", pagename, missing)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def banner(app: Sphinx, pagename: str) -> str:
    """The first cell of an offered notebook: what it is, and where its source is."""
    title = app.env.titles[pagename].astext()
    source = Path(app.env.doc2path(pagename)).relative_to(app.srcdir)
    return (
        f"*{title}*, a page of *{app.config.html_title}*, as the book's build executed it: "
        "the numbers and references in its text are the website's. Run the cells to compute "
        f"them again. Its source is `{source.as_posix()}` in the book's repository."
    )


# What a chapter's download menu offers besides the notebook (book/appendix-reproducing.md
# says how to use them): (file in <html>/wheel/, the menu's text, its tooltip, its icon)
OFFERED = [
    ("posenc-*.whl", ".whl", "The posenc library, to run the notebook with", "fa-cube"),
    (
        "constraints.txt",
        "constraints.txt",
        "The versions it was built with",
        "fa-list-ul",
    ),
    ("lab.txt", "lab.txt", "JupyterLab, as it was built with", "fa-list-ul"),
]


def offer_wheel(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, after the theme has made its header buttons: the wheel and the
    pins in a chapter's download menu, next to the .ipynb."""
    if not context.get("ipynb_source"):
        return
    buttons = []
    for pattern, text, tooltip, icon in OFFERED:
        for found in sorted((Path(app.outdir) / WHEEL_DIR).glob(pattern))[-1:]:
            url = context["pathto"](f"{WHEEL_DIR}/{found.name}", 1)
            label = f"download-{found.name.split('-')[0].split('.')[0]}-button"
            buttons.append(
                {"type": "link", "url": url, "text": text, "tooltip": tooltip,
                 "icon": f"fas {icon}", "label": label}
            )  # fmt: skip
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"][1:1] = buttons


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", offer_notebook, priority=400)
    app.connect("html-page-context", offer_wheel, priority=600)
    app.connect("build-finished", lambda app, exception: executed_glue.cache_clear())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
