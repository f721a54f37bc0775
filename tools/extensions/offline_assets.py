"""The site loads nothing from elsewhere: MathJax and Plotly are served from the site itself.

1. MathJax 3 comes from the `django-static-mathjax` package: what the pages use of it
   (`mathjax_files`: the loader, the components `mathjax3_config` names, the TeX extensions
   autoload may fetch, the CommonHTML fonts) and its licence (Apache 2.0, which asks that a
   copy goes with every copy of the work) are copied to `<html>/mathjax/`, where `mathjax_path`
   points. Not to `_static/`, which every page would carry, and not the rest of the package's
   24 MB (combined bundles, SVG output, the speech rule engine), which no page asks for.
2. Plotly's basic bundle (tools/vendor/plotly.js/, refused unless it is the plotly.js version
   the pinned `plotly` package writes figures for; `make vendor` refreshes it) is copied with
   its licence (MIT) to `<html>/plotly/`, and loaded only by the pages whose body holds an
   interactive figure, only when the reader comes near one of them (within a screen's height
   of the window; or to print the page), and after MathJax has typeset what is on screen: its
   1.2 MB would otherwise be fetched and compiled on every visit of such a page, read to its
   figure or not, in front of the page's formulas.
3. sphinx-thebe's scripts, which Jupyter Book always loads, are removed: this book runs no
   kernel service, and thebe would put an unpkg.com URL into every page.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parents[2]
MATHJAX_EXTRAS = ["input/tex/extensions", "output/chtml/fonts/woff-v2"]
PLOTLY_MARKER = 'class="posenc-plotly"'  # posenc.figures._plotly.MARKER
PLOTLY_SCRIPT = "plotly/plotly-basic.min.js"  # relative to the output folder
PLOTLY_VENDORED = ROOT / "tools" / "vendor" / "plotly.js" / "plotly-basic.min.js"
PLOTLY_VERSION = re.compile(r"plotly\.js \(basic - minified\) v(\S+)")
THEBE_CONFIG = re.compile(r'<script type="text/x-thebe-config">.*?</script>', re.DOTALL)


def mathjax_source() -> Path:
    """The `es5` folder of the installed django-static-mathjax package."""
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise ExtensionError(
            "MathJax not found: install the pinned requirements "
            "(package django-static-mathjax) with `make book`"
        )
    source = Path(list(spec.submodule_search_locations)[0]) / "static/mathjax/es5"
    if not (source / "startup.js").exists():
        raise ExtensionError(
            f"MathJax package found but {source}/startup.js is missing"
        )
    return source


def mathjax_components(config) -> list[str]:
    """The files MathJax's loader fetches after startup.js for `mathjax3_config`'s
    loader.load: its core, each component, and the font of the CommonHTML output."""
    load = config.mathjax3_config["loader"]["load"]
    files = ["core.js", *(f"{component}.js" for component in load)]
    if "output/chtml" in load:
        files.append("output/chtml/fonts/tex.js")
    return files


def mathjax_files(config) -> list[str]:
    """The files and folders of MathJax's es5 folder that the site serves."""
    return ["startup.js", *mathjax_components(config), *MATHJAX_EXTRAS]


def copy_mathjax(app: Sphinx, exception) -> None:
    """`build-finished`: copy mathjax_files and the licence where `mathjax_path` points."""
    if exception is not None or app.builder.format != "html":
        return
    # relative to _static/; the Chinese edition in html/zh/ uses the English site's copy
    target = (Path(app.outdir) / "_static" / app.config.mathjax_path).resolve().parent
    if Path(app.outdir).resolve() not in target.parents:
        return
    source, files = mathjax_source(), mathjax_files(app.config)
    missing = [f for f in [*files, "../LICENSE"] if not (source / f).exists()]
    if missing:
        raise ExtensionError(
            f"MathJax's package at {source} lacks {missing} (mathjax3_config's loader.load "
            "names a component it does not have?)"
        )
    shutil.rmtree(target, ignore_errors=True)
    for relative in files:
        origin, copy = source / relative, target / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, copy)
        else:
            shutil.copyfile(origin, copy)
    shutil.copyfile(source.parent / "LICENSE", target / "LICENSE")


def plotly_source() -> Path:
    """The vendored basic bundle, refused unless it is the plotly.js version that the
    installed `plotly` package writes its figure JSON for."""
    import plotly.offline

    if not PLOTLY_VENDORED.is_file():
        raise ExtensionError(
            f"{PLOTLY_VENDORED} is missing: run `make vendor` (needs npm)"
        )
    found = PLOTLY_VERSION.search(PLOTLY_VENDORED.read_text(encoding="utf-8")[:300])
    wanted = plotly.offline.get_plotlyjs_version()
    have = found.group(1) if found else "(no version header)"
    if have != wanted:
        raise ExtensionError(
            f"{PLOTLY_VENDORED} is plotly.js {have}, but the pinned plotly package "
            f"writes figures for plotly.js {wanted}: run `make vendor`"
        )
    return PLOTLY_VENDORED


def copy_plotly(app: Sphinx) -> None:
    """`builder-inited`: Plotly's bundle and its licence into the site, before the pages are
    written (Sphinx adds a checksum of the file to the script's URL)."""
    if app.builder.format != "html":
        return
    source, target = plotly_source(), Path(app.outdir) / PLOTLY_SCRIPT
    for origin, copy in [
        (source, target),
        (source.parent / "LICENSE", target.parent / "LICENSE"),
    ]:
        if not copy.exists() or copy.read_bytes() != origin.read_bytes():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(origin, copy)


# On a page with an interactive figure: the promise `window.posencPlotly`, which the figures'
# inline scripts wait for, resolved once the bundle (in `data-src`) has loaded. It is fetched
# when a figure comes within a window's height of the window (an IntersectionObserver), or
# before printing, and after MathJax has typeset what is on screen.
PLOTLY_LOADER = """window.posencPlotly = new Promise(function (resolve, reject) {
  var src = document.currentScript.dataset.src, started = false;
  function load() {
    if (started) return;
    started = true;
    var typeset = window.MathJax && MathJax.startup && MathJax.startup.promise;
    Promise.resolve(typeset).catch(function () {}).then(function () {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }
  window.addEventListener("beforeprint", load);
  document.addEventListener("DOMContentLoaded", function () {
    if (!("IntersectionObserver" in window)) return load();
    var near = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        near.disconnect();
        load();
      }
    }, {rootMargin: "100% 0px"});  // a window's height above and below it
    document.querySelectorAll(".posenc-plotly").forEach(function (figure) {
      near.observe(figure);
    });
  });
});"""


def load_plotly_where_needed(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """`html-page-context`: the loader on the pages with an interactive figure, and only
    there (a script added during this event goes to this page alone)."""
    if PLOTLY_MARKER in context.get("body", ""):
        app.add_js_file(
            None,
            body=PLOTLY_LOADER,
            id="posenc-plotly-loader",
            **{"data-src": context["pathto"](PLOTLY_SCRIPT, 1)},
        )


def drop_thebe(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`: no sphinx-thebe script, stylesheet or configuration."""

    def is_thebe(asset) -> bool:
        filename = str(getattr(asset, "filename", asset) or "")
        body = getattr(asset, "attributes", {}).get("body", "")
        return "thebe" in filename or "THEBE" in body

    for key in (
        "script_files",
        "css_files",
    ):  # the builder's own lists: changed in place
        if key in context:
            context[key][:] = [a for a in context[key] if not is_thebe(a)]
    if "body" in context:
        context["body"] = THEBE_CONFIG.sub("", context["body"])


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", copy_plotly)
    app.connect("build-finished", copy_mathjax)
    app.connect("html-page-context", load_plotly_where_needed)
    # a changed loader is a changed "html" setting: Sphinx then writes every page again
    digest = hashlib.sha256(PLOTLY_LOADER.encode()).hexdigest()
    app.add_config_value("posenc_plotly_loader", digest, "html")
    app.connect("html-page-context", drop_thebe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
