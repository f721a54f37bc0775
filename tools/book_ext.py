"""Sphinx extension for this book's build (loaded through `sphinx.local_extensions`).

1. Library-aware execution cache. MyST-NB's cache keys on a chapter's code cells only, so a
   change to `src/posenc` or to the pinned requirements would leave chapters showing results of the
   old code. We fingerprint both; when the fingerprint changes, the cached results of every
   chapter that imports posenc (all chapters, if the requirements changed) are dropped and those
   chapters are marked outdated, so they re-execute.
2. Offline pages. MathJax 3 is copied from the `django-static-mathjax` package into
   `<html>/mathjax/` (outside `_static/`, which every page would otherwise carry), where
   `mathjax_path` points; sphinx-thebe's scripts (and their unpkg.com URL) are removed.
3. Valid pages: ids repeated by sphinx-proof and sphinx-exercise are numbered.
4. Downloads: each chapter's download button offers the executed notebook (.ipynb).
5. Interactive figures: Plotly's basic bundle (tools/vendor/plotly.js/, the same plotly.js
   version as the pinned `plotly` package writes figures for) is copied once into `<html>/plotly/`
   and loaded only by the pages whose body holds an interactive figure (a div of
   class `posenc-plotly`, written by `posenc.figures.interactive`); ipywidgets state, which the
   build records for Jupyter-only explorer cells, is not put into pages that have no widget JS.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "src" / "posenc"
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "requirements-nodeps.txt"]
FINGERPRINT_FILE = "posenc-fingerprint.txt"
USES_POSENC = re.compile(r"^\s*(from|import)\s+posenc\b", re.MULTILINE)
THEBE_CONFIG = re.compile(r'<script type="text/x-thebe-config">.*?</script>', re.DOTALL)
PLOTLY_MARKER = 'class="posenc-plotly"'  # posenc.figures.interactive.MARKER
PLOTLY_SCRIPT = "plotly/plotly-basic.min.js"  # relative to the output folder
# The basic bundle (scatter, bar and pie traces; sliders, menus, hover and zoom are in its core)
# is 1.2 MB against the full bundle's 4.8 MB that the plotly package ships, and our figures use
# scatter traces only. It comes from npm's plotly.js-basic-dist-min (`make vendor`).
PLOTLY_VENDORED = ROOT / "tools" / "vendor" / "plotly.js" / "plotly-basic.min.js"
PLOTLY_VERSION = re.compile(r"plotly\.js \(basic - minified\) v(\S+)")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def fingerprints() -> dict[str, str]:
    """SHA-256 of the library's Python sources and of the pinned requirements."""
    return {
        "library": _digest([p for p in LIBRARY.rglob("*.py") if "__pycache__" not in p.parts]),
        "requirements": _digest([path for path in REQUIREMENTS if path.exists()]),
    }


def _read_fingerprints(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def invalidate_stale_results(app: Sphinx, env, added, changed, removed) -> list[str]:
    """`env-get-outdated` handler: drop cached results computed with another library."""
    cache_dir = Path(env.mystnb_config.execution_cache_path)
    stamp = cache_dir / FINGERPRINT_FILE
    old, new = _read_fingerprints(stamp), fingerprints()
    if old == new:
        return []
    everything = old.get("requirements") != new["requirements"]
    stale = []
    for docname in env.found_docs:
        source = Path(env.doc2path(docname))
        if source.suffix in {".md", ".ipynb"} and (
                everything or USES_POSENC.search(source.read_text(encoding="utf-8"))):
            stale.append(docname)
    if (cache_dir / "global.db").exists():
        from jupyter_cache import get_cache

        cache = get_cache(str(cache_dir))
        stale_paths = {Path(env.doc2path(doc)).resolve() for doc in stale}
        for record in cache.list_cache_records():
            if record.uri and Path(record.uri).resolve() in stale_paths:
                cache.remove_cache(record.pk)
    if old:
        LOGGER.info("posenc or requirements changed: re-executing %d chapter(s)", len(stale))
    cache_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text("".join(f"{key}={value}\n" for key, value in new.items()))
    return stale


def discard_damaged_cache(app: Sphinx, env, added, changed, removed) -> list[str]:
    """`env-get-outdated` handler: a damaged execution cache is deleted, never served.

    Opens the cache and reads every record's executed notebook. If anything fails (global.db
    overwritten, a cached notebook deleted or garbled), the cache folder is removed and every
    page is marked outdated, so each chapter re-executes from its source. Runs before
    `invalidate_stale_results`, which opens the same database.
    """
    cache_dir = Path(env.mystnb_config.execution_cache_path)
    if not cache_dir.exists():
        return []
    try:
        from jupyter_cache import get_cache

        cache = get_cache(str(cache_dir))
        for record in cache.list_cache_records():
            cache.get_cache_bundle(record.pk)  # reads and parses the executed notebook
    except Exception as error:  # sqlite, JSON, missing file: any damage means the same
        LOGGER.info("the execution cache %s is damaged (%s: %s): deleting it and re-executing "
                    "every chapter", cache_dir, type(error).__name__, str(error)[:200])
        shutil.rmtree(cache_dir)
        return sorted(env.found_docs)
    return []


def mathjax_source() -> Path:
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise ExtensionError("MathJax not found: install the pinned requirements "
                             "(package django-static-mathjax) with `make book`")
    source = Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax" / "es5"
    if not (source / "tex-mml-chtml.js").exists():
        raise ExtensionError(f"MathJax package found but {source}/tex-mml-chtml.js is missing")
    return source


def copy_mathjax(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "mathjax"
    source = mathjax_source()
    marker = target / ".copied-from"
    if marker.exists() and marker.read_text() == str(source):
        return
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    marker.write_text(str(source))


def drop_thebe(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Remove sphinx-thebe's scripts (Jupyter Book always loads the extension).

    This book runs no kernel service; thebe would put an unpkg.com URL into every page and, as
    Jupyter Book registers it twice, a script that redeclares a constant (a console error).
    """
    def is_thebe(asset) -> bool:
        filename = getattr(asset, "filename", asset) or ""
        body = getattr(asset, "attributes", {}).get("body", "") if hasattr(asset, "attributes") else ""
        return "thebe" in str(filename) or "THEBE" in body

    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if not is_thebe(asset)]
    if "body" in context:
        context["body"] = THEBE_CONFIG.sub("", context["body"])


def plotly_source() -> Path:
    """The vendored basic bundle, refused unless it is the plotly.js version that the installed
    `plotly` package writes its figure JSON for."""
    import plotly.offline

    if not PLOTLY_VENDORED.is_file():
        raise ExtensionError(f"{PLOTLY_VENDORED} is missing: run `make vendor` (needs npm)")
    found = PLOTLY_VERSION.search(PLOTLY_VENDORED.read_text(encoding="utf-8")[:300])
    wanted = plotly.offline.get_plotlyjs_version()
    if not found or found.group(1) != wanted:
        raise ExtensionError(
            f"{PLOTLY_VENDORED} is plotly.js {found.group(1) if found else '(no version header)'}, "
            f"but the pinned plotly package writes figures for plotly.js {wanted}: run `make vendor`")
    return PLOTLY_VENDORED


def copy_plotly(app: Sphinx) -> None:
    """`builder-inited`: copy Plotly's bundle into the site before pages are written (Sphinx adds
    a checksum of the file to the script's URL)."""
    if app.builder.format != "html":
        return
    source, target = plotly_source(), Path(app.outdir) / PLOTLY_SCRIPT
    if not target.exists() or target.read_bytes() != source.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for stale in target.parent.glob("*.js"):  # a bundle an earlier build served
        if stale != target:
            stale.unlink()


def load_plotly_where_needed(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Give the pages with an interactive figure (and only those) a <script> for Plotly;
    the script goes in the page head, deferred (the figures' inline scripts wait for it)."""
    if PLOTLY_MARKER not in context.get("body", "") or "script_files" not in context:
        return
    from sphinx.builders.html._assets import _JavaScript

    # deferred: its 1.2 MB no longer holds up the page (and MathJax) while it compiles; the
    # figures' inline scripts draw on window "load", which waits for deferred scripts
    context["script_files"].append(_JavaScript(PLOTLY_SCRIPT, defer="defer"))


def drop_widget_state(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """The explorer cells (ipywidgets, tagged remove-cell) run in the build, which records their
    widget state; with no widget JavaScript on the site (nb_ipywidgets_js is empty) that state
    would be dead weight in the page."""
    if "script_files" in context:  # in place: the list is the builder's own
        context["script_files"][:] = [
            asset for asset in context["script_files"]
            if getattr(asset, "attributes", {}).get("type") != WIDGET_STATE]


def unique_ids(app: Sphinx, doctree, docname: str) -> None:
    """Number repeated ids: sphinx-proof and sphinx-exercise give every proof, exercise and
    solution body the same id ("proof", "proof-content", ...), which is invalid HTML."""
    seen: set[str] = set()
    for node in doctree.findall(lambda n: bool(getattr(n, "get", None) and n.get("ids"))):
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


def offer_notebook_download(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Let the theme's download button offer the executed chapter as .ipynb.

    sphinx-book-theme does this only when a launch service (Binder, …) is configured, which an
    offline book has not, and the notebook MyST-NB leaves in jupyter_execute/ has no outputs;
    the executed notebook is taken from the execution cache instead.
    """
    import jupytext
    import nbformat
    from jupyter_cache import get_cache

    if app.builder.format != "html" or pagename not in app.env.found_docs:
        return
    if not (Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb").exists():
        return  # not a notebook page
    notebook = jupytext.read(app.env.doc2path(pagename))
    try:
        _, notebook = get_cache(app.env.mystnb_config.execution_cache_path) \
            .merge_match_into_notebook(notebook)
    except KeyError:
        LOGGER.warning("no executed copy of %s in the cache: its download has no outputs",
                       pagename)
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app: Sphinx):
    app.connect("env-get-outdated", discard_damaged_cache, priority=400)
    # Chapters' kernels inherit this: interactive figures then output their HTML alone, not
    # also Plotly's mime type (for JupyterLab), which MyST-NB would warn about.
    os.environ["POSENC_HTML_ONLY"] = "1"  # posenc.figures.interactive.HTML_ONLY_VARIABLE
    app.connect("env-get-outdated", invalidate_stale_results)
    app.connect("build-finished", copy_mathjax)
    app.connect("html-page-context", drop_thebe)
    app.connect("builder-inited", copy_plotly)
    # after MyST-NB has added a page's own scripts (priority 500)
    app.connect("html-page-context", load_plotly_where_needed, priority=900)
    app.connect("html-page-context", drop_widget_state, priority=900)
    app.connect("doctree-resolved", unique_ids)
    # before the theme builds its header buttons (priority 501)
    app.connect("html-page-context", offer_notebook_download, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
