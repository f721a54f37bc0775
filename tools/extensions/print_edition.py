"""The print editions (`make pdf`) and each site's link to its own (a Sphinx extension loaded
through `sphinx.local_extensions`).

There are two PDFs, one per edition, from the same sources: `_build/pdf/<name>.pdf` (English,
Jupyter Book's LaTeX build) and `_build/pdf/<name>-zh.pdf` (Chinese, `tools/translations.py
latex`, which gives it a CJK preamble). Everything below follows the edition's language: the
PDF's name and title (`name_the_document`), the words the print edition adds (`PRINT_WORDS`),
the figures (`render` draws them in the edition's language where it can) and the site's words.

1. Folded cells, printed. The website folds the code of a `hide-input` cell; LaTeX has no fold,
   so MyST-NB would print every line of it. In print, a figure's cell shows the figure only
   (its code is one `show(...)` call, and `make figures` is the place to read drawing code);
   a check cell shows its one-line verdict first, then its code in a smaller face (the
   preamble in _config.yml defines the environment `posencprintcheck`).
2. The site links the PDF where there is one, and says how to get it where there is not: the
   role ``{pdf-edition}`text``` on the landing page and the ".pdf" item of every page's
   download menu (which the theme made a `window.print()` of the one page) lead to the
   edition's PDF beside the edition's root (`_build/html/<name>.pdf`,
   `_build/html/zh/<name>-zh.pdf`, copied there from `_build/pdf/` before the pages are
   written) when `make pdf` has built it; otherwise the landing page says that
   `make pdf` writes it, and the menu item leads there. Whether the PDF is built is an "html"
   setting (`posenc_print_edition_built`), so the pages are written again when it changes
   (`make pdf` rebuilds a site that exists). In the PDF itself the paragraph holding the link
   is left out.
3. Print fixes: the landing page is an unnumbered introduction (not chapters 1 to 3), and an
   exercise referred to from another chapter gets the label that reference looks for.
4. Figures in print: the notebooks hold each figure as SVG (the website's form), which LaTeX
   cannot include; each static figure of `posenc.figures` is printed from the PDF its `render`
   gives, the very bytes `make figures` writes. An interactive figure is printed as a numbered
   note, its caption (which names its slider and menu) said to be of the website, pointing to
   its static twin, which the chapter prints as a figure of its own: printed again under the
   interactive caption, it read as a picture with a slider.
5. The book's structure in print: "Contents" (目录) heads the contents (Sphinx names them after
   the first part's caption); each part of _toc.yml is a LaTeX part ("Part I, Why sinusoids",
   第一部分 为什么用正弦函数: its caption without its number), the appendices one unnumbered
   part after `\appendix`, so LaTeX letters them (A, B, ... as sphinx_patches.py does on
   the site); the bibliography page is LaTeX's bibliography alone (its own chapter heading and
   sentence made a second "Bibliography" and an almost empty page).
6. Statements and proofs in print: a proof is set in the book's proof style, a run-in italic
   "Proof." (证明：, sphinx-proof's title in the edition's language) and an end mark (the
   preamble's `posencproof`), not in an admonition box with an empty title bar; a statement
   starts on a new page unless ten lines fit below its title, which names its kind in the
   edition's language (定理 2.1: sphinx-proof translates it on the website only).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

CHECK_CLASS = "posencprintcheck"  # \begin{sphinxuseclass}{posencprintcheck} in LaTeX
LINK_CLASS = "posenc-pdf-edition"
# links that only mean something on the website: to the PDF itself, to the other edition
# (chinese_edition.py's role {other-edition})
WEB_ONLY_LINKS = {LINK_CLASS, "posenc-other-edition"}


def language(app: Sphinx) -> str:
    """The edition's language: "en", or "zh_CN" for the Chinese edition."""
    return app.config.language or "en"


# What an edition's PDF adds to the English one's name: sinusoidal-position-encoding-derived.pdf
# and sinusoidal-position-encoding-derived-zh.pdf
NAME_SUFFIX = {"en": "", "zh_CN": "-zh"}


def pdf_name(app: Sphinx) -> str:
    """The PDF's file name: the LaTeX target that _config.yml names (latex: latex_documents:
    targetname), read from the file: Jupyter Book puts it into `latex_documents` only once
    Sphinx has started, after the settings that decide which pages to write again. The
    Chinese edition's is the same name with "-zh" before ".pdf"."""
    config = yaml.safe_load(
        (Path(app.srcdir) / "_config.yml").read_text(encoding="utf-8")
    )
    target = (config.get("latex") or {}).get("latex_documents", {}).get("targetname")
    stem = Path(target or app.config.latex_documents[0][1]).stem
    return f"{stem}{NAME_SUFFIX.get(language(app), '-' + language(app))}.pdf"


def name_the_document(app: Sphinx, env) -> None:
    """`env-updated`, in a translated edition's LaTeX build: the document is the edition's
    (its .tex named after its PDF, its title the edition's html_title, its author the
    edition's). Jupyter Book sets `latex_documents` from _config.yml after Sphinx has
    started, with the English name, title and author; the LaTeX builder reads it when it
    writes."""
    if app.builder.name != "latex" or language(app) == "en":
        return
    start, _, _, _, theme, *rest = app.config.latex_documents[0]
    target = Path(pdf_name(app)).with_suffix(".tex").name
    title = app.config.html_title or app.config.project
    author = app.config.author  # the edition's (translations.py: posenc 编写组)
    app.config.latex_documents = [(start, target, title, author, theme, *rest)]


class PrintFoldedCells(SphinxPostTransform):
    """In LaTeX: a figure cell without its code; a check cell's verdict before its code."""

    default_priority = 199  # where MyST-NB folds the same cells for HTML
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for cell in list(self.document.findall(nodes.container)):
            if (
                cell.get("nb_element") != "cell_code"
                or cell.get("hide_mode") != "input"
            ):
                continue
            if (
                not cell.children
                or cell.children[0].get("nb_element") != "cell_code_source"
            ):
                continue
            source = cell.children[0]
            outputs = cell.children[1:]
            if any(
                next(output.findall(nodes.figure), None) is not None
                for output in outputs
            ):
                cell.remove(source)
                continue
            source["classes"].append(CHECK_CLASS)
            cell.remove(source)
            cell.append(source)


class FiguresInPrint(SphinxPostTransform):
    """In LaTeX, the output of a cell that shows a registered static figure (its figure node is
    named after it) is that figure's PDF, written beside the .tex file; an interactive figure
    is a note that points to its static twin."""

    default_priority = (
        3  # before MyST-NB picks one output of each cell (SelectMimeType, 4)
    )
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from posenc import figures

        registered = set(figures.names())
        for figure in list(self.document.findall(nodes.figure)):
            name = next((n for n in figure["names"] if n in registered), None)
            if name is None:
                continue
            if figures.entry(name).kind == figures.INTERACTIVE:
                self.note(figure, figures.entry(name).twin)
                continue
            pdf = Path(self.app.outdir) / f"{name}.pdf"
            if not pdf.exists():
                pdf.write_bytes(figures.render(name, "pdf", language=language(self.app)))
            for bundle in list(figure.findall(_is_output)):
                shown = next(
                    (i for i in bundle.findall(nodes.image) if "alt" in i), None
                )
                alt = shown["alt"] if shown is not None else ""
                image = nodes.image(uri=pdf.name, candidates={"*": pdf.name}, alt=alt)
                # the alt text of the image the site shows, whose translation the site's
                # build asks for: not a message of its own (chinese_edition.py would ask
                # for a translation of the Chinese alt text)
                image["translated"] = True
                bundle.children = []
                bundle += nodes.container("", image, mime_type="application/pdf")

    def note(self, figure: nodes.figure, twin: str) -> None:
        """The interactive figure as a paragraph: its number (a figure's, so that the numbers
        and the references to it stay those of the website), its caption as of the website,
        and the static twin to look at on paper."""
        docname = _docname(figure, self.env.docname)
        labels = "".join(
            f"\\label{{\\detokenize{{{docname}:{target}}}}}" for target in figure["ids"]
        )
        caption = next(figure.findall(nodes.caption), None)
        words = caption.deepcopy().children if caption is not None else []
        said = PRINT_WORDS.get(language(self.app), PRINT_WORDS["en"])
        first = next((w for w in words if isinstance(w, nodes.Text)), None)
        if first is not None and str(first).startswith(said["interactive"]):
            rest = str(first)[len(said["interactive"]) :]
            words[words.index(first)] = nodes.Text(rest)
        twin_figure = next(
            (f for f in self.document.findall(nodes.figure) if twin in f["names"]), None
        )
        twin_doc = _docname(twin_figure, docname) if twin_figure else docname
        start = (
            "\\par\\medskip\\noindent\\refstepcounter{figure}"
            f"{labels}\\textbf{{{said['figure']}}} "
        )
        reference = f"\\ref{{\\detokenize{{{twin_doc}:{twin}}}}}"
        end = said["on paper"].replace("REF", reference) + "\\par\\medskip"
        paragraph = nodes.paragraph(
            "",
            "",
            nodes.raw("", start, format="latex"),
            nodes.Text(said["website"]),
            *words,
            nodes.raw("", end, format="latex"),
        )
        figure.parent.replace(figure, paragraph)


# What the print edition says in each language: the introduction's heading; an interactive
# figure's note (how its caption begins on the site, what the note says instead, its number,
# and where to look on paper: REF is the reference to the static twin); the contents' heading
# is _config.yml's latex_elements (tableofcontents), and tools/translations.py's for Chinese.
PRINT_WORDS = {
    "en": {
        "introduction": "Introduction",
        "interactive": "Interactive: ",
        "website": "Interactive on the website: ",
        "figure": "Fig.~\\thefigure:",
        "on paper": " On paper: Fig.~REF.",
    },
    "zh_CN": {
        "introduction": "引言",
        "interactive": "交互图：",
        "website": "网站上的交互图，",
        "figure": "图~\\thefigure：",
        "on paper": "纸面上请看图~REF。",
    },
}


def _docname(node, default: str) -> str:
    """The page a node of the print edition's one big document came from: the docname that
    Sphinx gives each section of an included page (its nodes' parents stop at the page)."""
    while node is not None:
        if isinstance(node, nodes.section) and node.get("docname"):
            return node["docname"]
        node = node.parent
    return default


def _is_output(node) -> bool:
    return isinstance(node, nodes.container) and node.get("nb_element") == "mime_bundle"


class LabelExercises(SphinxPostTransform):
    """A reference to an exercise from another chapter points at ``<docname>:<label>``, but
    sphinx-exercise labels the exercise ``exercise:<label>`` only: give it both."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_enumerable_node

        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for exercise in list(self.document.findall(exercise_enumerable_node)):
            if exercise.get("label") not in registry:
                continue
            docname = registry[exercise["label"]]["docname"]
            label = f"\\phantomsection\\label{{\\detokenize{{{docname}:{exercise['label']}}}}}"
            exercise.parent.insert(
                exercise.parent.index(exercise), nodes.raw("", label, format="latex")
            )


class UnnumberedIntroduction(SphinxPostTransform):
    """Sphinx's LaTeX writer makes each section of the landing page a numbered chapter, so
    "What makes this book different" became chapter 1 and every chapter number shifted by
    three against the numbers of its theorems and figures. In print the landing page is one
    unnumbered "Introduction", its sections run-in headings."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        top = next(iter(self.document.findall(nodes.section)), None)
        if top is None or self.env.docname != self.config.root_doc:
            return
        for section in [
            child for child in top.children if isinstance(child, nodes.section)
        ]:
            if next(section.findall(nodes.compound), None) is not None:
                continue  # holds the book's toctree: the chapters themselves
            heading = nodes.rubric("", "", *section[0].children)
            top.replace(section, [heading, *section.children[1:]])
        heading = PRINT_WORDS.get(language(self.app), PRINT_WORDS["en"])["introduction"]
        start = nodes.raw(
            "",
            f"\\chapter*{{{heading}}}\\addcontentsline{{toc}}{{chapter}}{{{heading}}}\n",
            format="latex",
        )
        first = next(
            (
                i
                for i, child in enumerate(top.children)
                if not isinstance(child, (nodes.title, nodes.target))
            ),
            len(top),
        )
        top.insert(first, start)


# Whether `make pdf` has built the print edition: an "html" setting, set when the build starts
PDF_BUILT = "posenc_print_edition_built"
# The landing page's paragraph that names the print edition (the menu leads there without one)
PDF_ANCHOR = "print-edition"
# What the site says of the print edition, in each edition's language (each links its own)
WORDS = {
    "en": {
        "missing": (" (not part of this copy of the site: ", "make pdf", " writes it)"),
        "menu": ".pdf",
        "built": "The whole book, typeset for print (PDF)",
        "not built": "The print edition is not part of this copy of the site: make pdf "
        "writes it",
    },
    "zh_CN": {
        "missing": ("（本网站未附带，运行 ", "make pdf", " 即可生成）"),
        "menu": ".pdf",
        "built": "整本书的印刷版（PDF）",
        "not built": "本网站未附带印刷版：运行 make pdf 即可生成",
    },
}


def _words(app: Sphinx) -> dict:
    return WORDS.get(app.config.language or "en", WORDS["en"])


def _site(app: Sphinx) -> Path:
    """The root of the site: the English edition's folder (the Chinese one is its zh/)."""
    translated = (app.config.language or "en") != "en"
    return Path(app.outdir).parent if translated else Path(app.outdir)


def built_pdf(app: Sphinx) -> Path:
    """Where `make pdf` writes the edition's print edition: _build/pdf/<name>.pdf, or
    <name>-zh.pdf for the Chinese edition."""
    return _site(app).parent / "pdf" / pdf_name(app)


# A part's caption in _toc.yml ("Part I: Why sinusoids") or in its translation ("第一部分：为什么
# 用正弦函数"): LaTeX numbers the part itself
PART_NUMBER = re.compile(r"^(?:Part [IVXLC]+:|第[一二三四五六七八九十]+部分：)\s*")
# The caption of the part that holds the appendices in _toc.yml (sphinx_patches.py letters them
# on the site), found by its place in _toc.yml: a translated edition translates the caption
APPENDICES = "Appendices"


def appendices_part(app: Sphinx) -> int | None:
    """The index, among the parts of _toc.yml, of the appendices' part."""
    toc = yaml.safe_load((Path(app.srcdir) / "_toc.yml").read_text(encoding="utf-8"))
    captions = [part.get("caption") for part in toc.get("parts", [])]
    return captions.index(APPENDICES) if APPENDICES in captions else None


class PartsInPrint(SphinxPostTransform):
    """Each toctree of the landing page (a part of _toc.yml) starts a LaTeX part; the appendices
    an unnumbered part after \\appendix; a part without a caption (the bibliography) none."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        if self.env.docname != self.config.root_doc:
            return
        captions = [
            toctree.get("caption")
            for toctree in self.env.get_doctree(self.config.root_doc).findall(
                addnodes.toctree
            )
        ]
        wrappers = [
            compound
            for compound in self.document.findall(nodes.compound)
            if "toctree-wrapper" in compound.get("classes", [])
        ]
        appendices = appendices_part(self.app)
        for number, (caption, wrapper) in enumerate(
            zip(captions, wrappers, strict=False)
        ):
            if not caption:
                continue
            title = PART_NUMBER.sub("", caption)
            if number == appendices:
                # Sphinx numbers figures and tables with the chapter's arabic number:
                # lettered here, as on the site (Fig. C.1)
                start = (
                    "\\cleardoublepage\\appendix"
                    "\\renewcommand{\\thefigure}{\\thechapter.\\arabic{figure}}"
                    "\\renewcommand{\\thetable}{\\thechapter.\\arabic{table}}"
                    "\\part*{" + title + "}\\addcontentsline{toc}{part}{" + title + "}"
                )
            else:
                start = "\\part{" + title + "}"
            wrapper.insert(0, nodes.raw("", start + "\n", format="latex"))


class OneBibliography(SphinxPostTransform):
    """The bibliography page in print is LaTeX's bibliography, which is a chapter with its own
    heading: the page's heading and its sentence go, its labels stay (at the top of the page
    where the bibliography starts)."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for section in list(self.document.findall(nodes.section)):
            if section.get("docname") != BIBLIOGRAPHY:
                continue
            docname = section["docname"]
            labels = "".join(
                f"\\label{{\\detokenize{{{docname}:{target}}}}}"
                for target in section["ids"]
            )
            kept = [
                child
                for child in section.children
                if not isinstance(child, (nodes.title, nodes.paragraph))
            ]
            start = nodes.raw(
                "", "\\cleardoublepage\\phantomsection" + labels + "\n", format="latex"
            )
            section.replace_self([start, *kept])
            return


# The bibliography's page (book/bibliography.md)
BIBLIOGRAPHY = "book/bibliography"


class ProofsAndStatementsInPrint(SphinxPostTransform):
    """A proof in the preamble's `posencproof` style instead of an admonition box with an
    empty title; before a statement, `\\needspace` keeps its title from the foot of a page."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from sphinx_proof.nodes import NODE_TYPES, proof_node

        statements = tuple(set(NODE_TYPES.values()) - {proof_node})
        for statement in list(
            self.document.findall(lambda n: isinstance(n, statements))
        ):
            statement.parent.insert(
                statement.parent.index(statement),
                nodes.raw("", "\\needspace{10\\baselineskip}\n", format="latex"),
            )
        for proof in list(self.document.findall(proof_node)):
            for box in list(proof.children):
                if not isinstance(box, nodes.admonition):
                    continue
                proof.replace(
                    box,
                    [
                        nodes.raw("", "\\begin{posencproof}\n", format="latex"),
                        *box.children,
                        nodes.raw("", "\\end{posencproof}\n", format="latex"),
                    ],
                )


def statement_kind_translated(depart):
    """sphinx-proof's LaTeX writer as `depart`, but with the kind of the statement in the
    edition's language (定理 2.1): sphinx-proof translates it on the website only, and wrote
    "Theorem 2.1" into the Chinese PDF."""

    def depart_in_print(self, node) -> None:
        from sphinx_proof.nodes import _ as proof_words
        from sphinx_proof.nodes import latex_admonition_start, list_rindex

        depart(self, node)
        kind = node.attributes.get("realtype", "").title()
        at = list_rindex(self.body, latex_admonition_start) + 2
        if kind and self.body[at].startswith(kind):
            self.body[at] = str(proof_words(kind)) + self.body[at][len(kind) :]

    return depart_in_print


def translate_statement_kinds(app: Sphinx) -> None:
    """Wrap sphinx-proof's LaTeX departure of every statement (numbered or not)."""
    from sphinx_proof import nodes as proof

    for node in {*proof.NODE_TYPES.values(), proof.unenumerable_node} - {
        proof.proof_node
    }:
        numbered = node is not proof.unenumerable_node
        visit, depart = (
            (proof.visit_enumerable_node, proof.depart_enumerable_node)
            if numbered
            else (proof.visit_unenumerable_node, proof.depart_unenumerable_node)
        )
        app.add_node(
            node, override=True, latex=(visit, statement_kind_translated(depart))
        )


def pdf_edition_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{pdf-edition}`Print edition (PDF)```: the link to the PDF, resolved when the page is
    written (link_print_edition)."""
    node = nodes.reference(rawtext, text, refuri="", classes=[LINK_CLASS])
    return [node], []


def _up(app: Sphinx, docname: str) -> str:
    """From a page up to its edition's root, where the edition's PDF is."""
    return "../" * docname.count("/")


def link_print_edition(app: Sphinx, doctree, docname: str) -> None:
    """`doctree-resolved`, on the website: each {pdf-edition} link leads to the PDF, or, when
    there is none, becomes its text and a note on how to get it."""
    if app.builder.format != "html":
        return
    for link in list(doctree.findall(nodes.reference)):
        if LINK_CLASS not in link.get("classes", []):
            continue
        if app.config[PDF_BUILT]:
            link["refuri"] = _up(app, docname) + pdf_name(app)
            continue
        before, command, after = _words(app)["missing"]
        note = nodes.inline(
            "",
            "",
            *link.children,
            nodes.Text(before),
            nodes.literal(command, command),
            nodes.Text(after),
            ids=[PDF_ANCHOR],
            classes=["posenc-pdf-missing"],
        )
        link.replace_self(note)


def offer_print_edition(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, after the theme has made its header buttons: the download menu's
    ".pdf" leads to the PDF, or to the landing page's word on how to get it."""
    words = _words(app)
    if app.config[PDF_BUILT]:
        url, tooltip = _up(app, pagename) + pdf_name(app), words["built"]
    else:
        root = context["pathto"](app.config.root_doc)  # "#" on the landing page itself
        url = root.split("#")[0] + "#" + PDF_ANCHOR
        tooltip = words["not built"]
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        for number, button in enumerate(group["buttons"]):
            if button.get("label") == "download-pdf-button":
                group["buttons"][number] = {
                    "type": "link",
                    "url": url,
                    "text": words["menu"],
                    "tooltip": tooltip,
                    "icon": "fas fa-file-pdf",
                    "label": "download-pdf-button",
                }


def note_whether_the_pdf_is_built(app: Sphinx, config) -> None:
    """`config-inited`: the PDF's presence, a setting of the pages (they change with it)."""
    config[PDF_BUILT] = built_pdf(app).exists()


class DropPdfLinkInPrint(SphinxPostTransform):
    """The PDF does not link to itself, nor to a web page of the other edition: the paragraph
    with such a link is left out."""

    default_priority = 199
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for link in list(self.document.findall(nodes.reference)):
            if WEB_ONLY_LINKS & set(link.get("classes", [])):
                block = link.parent
                while (
                    not isinstance(block, nodes.paragraph) and block.parent is not None
                ):
                    block = block.parent
                if isinstance(block.parent, nodes.list_item) and len(block.parent) == 1:
                    block = block.parent  # a list item of its own: the item goes
                block.parent.remove(block)


def copy_pdf_into_site(app: Sphinx) -> None:
    """`builder-inited`: the edition's print edition beside the edition's root (the Chinese
    PDF in _build/html/zh/), before the pages that link it are written."""
    if app.builder.format != "html" or not app.config[PDF_BUILT]:
        return
    target = Path(app.outdir) / pdf_name(app)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(built_pdf(app), target)


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinx_proof")
    translate_statement_kinds(app)
    app.add_post_transform(FiguresInPrint)
    app.add_post_transform(PrintFoldedCells)
    app.add_post_transform(DropPdfLinkInPrint)
    app.add_post_transform(LabelExercises)
    app.add_post_transform(UnnumberedIntroduction)
    app.add_post_transform(PartsInPrint)
    app.add_post_transform(OneBibliography)
    app.add_post_transform(ProofsAndStatementsInPrint)
    app.add_role("pdf-edition", pdf_edition_role)
    app.add_config_value(PDF_BUILT, False, "html")
    app.connect("config-inited", note_whether_the_pdf_is_built)
    app.connect("env-updated", name_the_document)
    app.connect("builder-inited", copy_pdf_into_site)
    app.connect("doctree-resolved", link_print_edition)
    # after the theme's header buttons (501) and the wheel (notebook_downloads.py, 600)
    app.connect("html-page-context", offer_print_edition, priority=700)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
