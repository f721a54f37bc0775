"""Each chapter's download menu offers the executed chapter as a notebook, and the posenc wheel
to run it with.

1. sphinx-book-theme offers an .ipynb only when a launch service (Binder, ...) is configured,
   which an offline book has not, and the notebook MyST-NB leaves in jupyter_execute/ has no
   outputs. The executed notebook is taken from the execution cache instead, its cells numbered
   (ids cell-1, cell-2, ...; jupytext's are random), so that two builds offer the same file.
2. `make book` builds the wheel with the standard build tool into `<html>/wheel/` (with the
   pinned versions, constraints.txt) before the pages are written; the menu links it.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
WHEEL_DIR = "wheel"


def offer_notebook(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, before the theme builds its header buttons (priority 501)."""
    import jupytext
    import nbformat
    from jupyter_cache import get_cache

    if app.builder.format != "html" or pagename not in app.env.found_docs:
        return
    if not (Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb").exists():
        return  # not a notebook page
    notebook = jupytext.read(app.env.doc2path(pagename))
    try:
        cache = get_cache(app.env.mystnb_config.execution_cache_path)
        _, notebook = cache.merge_match_into_notebook(notebook)
    except KeyError:
        LOGGER.warning(
            "no executed copy of %s in the cache: its download has no outputs", pagename
        )
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{number}"
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def offer_wheel(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, after the theme has made its header buttons: the wheel in a
    chapter's download menu, next to the .ipynb."""
    wheels = sorted((Path(app.outdir) / WHEEL_DIR).glob("posenc-*.whl"))
    if not wheels or not context.get("ipynb_source"):
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].insert(
                1,
                {
                    "type": "link",
                    "url": context["pathto"](f"{WHEEL_DIR}/{wheels[-1].name}", 1),
                    "text": ".whl",
                    "tooltip": "The posenc library, to run the notebook with",
                    "icon": "fas fa-cube",
                    "label": "download-wheel-button",
                },
            )


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", offer_notebook, priority=400)
    app.connect("html-page-context", offer_wheel, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
