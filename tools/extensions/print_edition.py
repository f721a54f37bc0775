"""The print edition (`make pdf`) and the site's link to it (a Sphinx extension loaded through
`sphinx.local_extensions`).

1. Folded cells, printed. The website folds the code of a `hide-input` cell; LaTeX has no fold,
   so MyST-NB would print every line of it. In print, a figure's cell shows the figure only
   (its code is one `show(...)` call, and `make figures` is the place to read drawing code);
   a check cell shows its one-line verdict first, then its code in a smaller face (the
   preamble in _config.yml defines the environment `posencprintcheck`).
2. The landing page links the PDF: the role ``{pdf-edition}`text``` is a link to the PDF
   beside the site's root (`_build/html/<name>.pdf`; `make pdf` and every later HTML build
   copy it there from `_build/pdf/`). In the PDF itself the paragraph holding the link is
   left out.
3. Print fixes: the landing page is an unnumbered introduction (not chapters 1 to 3), and an
   exercise referred to from another chapter gets the label that reference looks for.
4. Figures in print: the notebooks hold each figure as SVG (the website's form), which LaTeX
   cannot include; each figure of `posenc.figures` is printed from the PDF its `render` gives
   (an interactive figure's static twin), the very bytes `make figures` writes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

CHECK_CLASS = "posencprintcheck"  # \begin{sphinxuseclass}{posencprintcheck} in LaTeX
LINK_CLASS = "posenc-pdf-edition"
# links that only mean something on the website: to the PDF itself, to the other edition
# (chinese_edition.py's role {other-edition})
WEB_ONLY_LINKS = {LINK_CLASS, "posenc-other-edition"}


def pdf_name(app: Sphinx) -> str:
    """The PDF's file name: the LaTeX target of `latex_documents` (set in _config.yml)."""
    return Path(app.config.latex_documents[0][1]).with_suffix(".pdf").name


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
    """In LaTeX, the output of a cell that shows a registered figure (its figure node is named
    after it) is that figure's PDF, written beside the .tex file."""

    default_priority = (
        3  # before MyST-NB picks one output of each cell (SelectMimeType, 4)
    )
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from posenc import figures

        registered = set(figures.names())
        for figure in self.document.findall(nodes.figure):
            name = next((n for n in figure["names"] if n in registered), None)
            if name is None:
                continue
            static = figures.print_twin(name)
            pdf = Path(self.app.outdir) / f"{static}.pdf"
            if not pdf.exists():
                pdf.write_bytes(figures.render(static, "pdf"))
            for bundle in list(figure.findall(_is_output)):
                alt = next(
                    (i["alt"] for i in bundle.findall(nodes.image) if "alt" in i), ""
                )
                image = nodes.image(uri=pdf.name, candidates={"*": pdf.name}, alt=alt)
                bundle.children = []
                bundle += nodes.container("", image, mime_type="application/pdf")


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
        start = nodes.raw(
            "",
            "\\chapter*{Introduction}\\addcontentsline{toc}{chapter}{Introduction}\n",
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


def pdf_edition_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{pdf-edition}`Print edition (PDF)```: a link to the PDF at the site's root."""
    env = inliner.document.settings.env
    # the Chinese edition (_build/html/zh) links the one PDF at the English root
    up = "../" * (env.docname.count("/") + (env.config.language not in (None, "en")))
    name = pdf_name(env.app)
    node = nodes.reference(rawtext, text, refuri=f"{up}{name}", classes=[LINK_CLASS])
    return [node], []


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


def copy_pdf_into_site(app: Sphinx, exception) -> None:
    """After an HTML build, put the print edition beside the site's root if it was built."""
    if exception is not None or app.builder.format != "html":
        return
    built = Path(app.outdir).parent / "pdf" / pdf_name(app)
    if built.exists():
        shutil.copyfile(built, Path(app.outdir) / built.name)


def setup(app: Sphinx) -> dict:
    app.add_post_transform(FiguresInPrint)
    app.add_post_transform(PrintFoldedCells)
    app.add_post_transform(DropPdfLinkInPrint)
    app.add_post_transform(LabelExercises)
    app.add_post_transform(UnnumberedIntroduction)
    app.add_role("pdf-edition", pdf_edition_role)
    app.connect("build-finished", copy_pdf_into_site)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
