"""Sphinx extension for this book's build (loaded through `sphinx.local_extensions`).

1. Execution cache that follows the library. MyST-NB's cache keys on a chapter's code
   cells only, so a change to `src/posenc` or to the pinned requirements would leave
   chapters showing results of the old code. Both are fingerprinted; when the
   fingerprint changes, or when the cache is damaged (unreadable database, a cached
   notebook garbled or missing), the cache is deleted and every page re-read, so every
   chapter re-executes. (Every chapter imports posenc, so dropping only some of them
   would spare none.)
2. Offline pages. What the pages use of MathJax 3 (mathjax_files) is copied from the
   `django-static-mathjax` package, with its licence, into `<html>/mathjax/` (outside
   `_static/`, which every page would otherwise carry), where `mathjax_path` points;
   sphinx-thebe's scripts (and their unpkg.com URL) are removed.
3. Valid pages: ids repeated by sphinx-proof and sphinx-exercise are numbered.
4. Downloads: each chapter's download button offers the executed notebook (.ipynb).
5. Chapters execute two at a time: before Sphinx reads the pages, the chapters that the
   execution cache does not hold yet are executed in parallel processes (as many as the
   machine has cores) and cached; MyST-NB then finds every one of them in the cache. Sphinx's
   own parallel reading is not available: sphinx-proof cannot merge its domain's data.
   Two builds may share one cache (`make test` starts the English and the Chinese build
   together): one of them executes, under a lock, and the other waits, then finds every
   chapter cached.
6. Interactive figures: Plotly's basic bundle (tools/vendor/plotly.js/, the same
   plotly.js version as the pinned `plotly` package writes figures for) is copied once
   into `<html>/plotly/` and loaded only by the pages whose body holds an interactive
   figure (a div of class `posenc-plotly`, written by `posenc.figures._plotly`), and there
   only after the page has loaded and MathJax has typeset what is on screen.
7. Pages with mathematics ask for MathJax's components in their head (`<link rel=preload>`),
   while the browser is still reading the page; MathJax's loader would fetch them only once
   it runs, each after the one it depends on.
8. Inline formulas break at the end of a line where TeX breaks them: after a relation, a
   binary operator or a comma, never inside `Ld` or `Ci(x)` (INLINE_MATH_BREAKS).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import posixpath
import re
import shutil
import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.errors import ExtensionError
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "src" / "posenc"
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "requirements-nodeps.txt"]
FINGERPRINT_FILE = "posenc-fingerprint.txt"
THEBE_CONFIG = re.compile(r'<script type="text/x-thebe-config">.*?</script>', re.DOTALL)
PLOTLY_MARKER = 'class="posenc-plotly"'  # posenc.figures._plotly.MARKER
PLOTLY_SCRIPT = "plotly/plotly-basic.min.js"  # relative to the output folder
# The basic bundle (scatter, bar and pie traces; sliders, menus, hover and zoom are in
# its core) is 1.2 MB against the full bundle's 4.8 MB that the plotly package ships,
# and our figures use scatter traces only. It comes from npm's plotly.js-basic-dist-min
# (`make vendor`).
PLOTLY_VENDORED = ROOT / "tools" / "vendor" / "plotly.js" / "plotly-basic.min.js"
PLOTLY_VERSION = re.compile(r"plotly\.js \(basic - minified\) v(\S+)")


def fingerprint() -> str:
    """SHA-256 over the library's files and the pinned requirements (names and
    contents)."""
    library = [
        p for p in LIBRARY.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    ]
    digest = hashlib.sha256()
    for path in sorted(library) + [p for p in REQUIREMENTS if p.exists()]:
        digest.update(f"{path.relative_to(ROOT)}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def cache_damage(cache_dir: Path) -> str | None:
    """Why the cache cannot be trusted, or None: opens it and reads every executed
    notebook."""
    if not (cache_dir / "global.db").exists():
        return None
    try:
        from jupyter_cache import get_cache

        cache = get_cache(str(cache_dir))
        for record in cache.list_cache_records():
            cache.get_cache_bundle(record.pk)  # reads and parses the executed notebook
    except Exception as error:  # sqlite, JSON, missing file: any damage means the same
        return f"{type(error).__name__}: {str(error)[:200]}"
    return None


@contextlib.contextmanager
def cache_lock(cache_dir: Path):
    """Hold the execution cache in ``cache_dir`` alone while the block runs: another build
    that shares it (the Chinese edition's, which `make test` starts with the English one)
    waits meanwhile, so that only one of them executes a chapter, and none deletes or reads
    the cache while the other fills it. The lock is a file beside the cache (which may be
    deleted), released when the block ends or the process does."""
    lock = cache_dir.parent / f"{cache_dir.name}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            LOGGER.info("waiting for another build that executes the chapters")
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def drop_untrusted_cache(app: Sphinx, env, added, changed, removed) -> list[str]:
    """`env-get-outdated` handler: delete an execution cache that was filled with
    another library or other requirements, or that is damaged, and re-read every page.
    """
    cache_dir = Path(env.mystnb_config.execution_cache_path)
    with cache_lock(cache_dir):
        return _drop_untrusted_cache(env, cache_dir)


def _drop_untrusted_cache(env, cache_dir: Path) -> list[str]:
    stamp = cache_dir / FINGERPRINT_FILE
    current = fingerprint()
    reason = None
    if cache_dir.exists():
        if not stamp.exists() or stamp.read_text().strip() != current:
            reason = "posenc or the pinned requirements changed"
        elif damage := cache_damage(cache_dir):
            reason = f"the execution cache {cache_dir} is damaged ({damage})"
    if reason:
        LOGGER.info(
            "%s: deleting the execution cache and re-executing every chapter", reason
        )
        shutil.rmtree(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current + "\n")
    return sorted(env.found_docs) if reason else []


def _execute_chapter(job):
    """In a worker process: execute one chapter as MyST-NB does (its folder as the working
    directory, the book's timeout, errors not allowed). Returns the executed notebook, the
    seconds it took and what went wrong (None on success).

    The kernel talks over Unix sockets in a folder of its own (ZeroMQ's IPC transport), not
    over TCP: a TCP port is found free before the kernel binds it, and with kernels of other
    builds starting at the same time (`make test` runs the small books beside the build) two
    of them once got the same port; the kernel failed with "Address already in use" and the
    build waited a minute for it before it failed."""
    import tempfile

    from jupyter_cache.executors.utils import single_nb_execution
    from traitlets.config import Config

    notebook, cwd, timeout, allow_errors = job
    with tempfile.TemporaryDirectory(prefix="posenc-kernel-") as sockets:
        sockets_only = Config(
            {"KernelManager": {"transport": "ipc", "ip": os.path.join(sockets, "k")}}
        )
        try:
            result = single_nb_execution(
                notebook,
                cwd=cwd,
                timeout=timeout,
                allow_errors=allow_errors,
                meta_override=True,
                config=sockets_only,
            )
        except Exception as err:
            # the kernel did not start, or died: not the error of a cell
            return notebook, 0.0, f"{type(err).__name__} ({err})"
    error = None if result.err is None else type(result.err).__name__
    return notebook, result.time, error


def execute_in_parallel(app: Sphinx, env, docnames: list[str]) -> None:
    """`env-before-read-docs`: execute the pages that MyST-NB would execute (notebooks not
    in the execution cache, in `cache` mode) in parallel processes, and cache them.

    Each is read with MyST-NB's own reader and configuration, so the cache matches it by its
    code when MyST-NB reads the page. A chapter that fails here is not cached: MyST-NB then
    executes it again and reports the failure as always (the strict build fails); so does a
    chapter whose kernel or worker failed here. With fewer
    than two chapters to execute, nothing is gained, and MyST-NB executes as usual."""
    nb_config = env.mystnb_config
    if nb_config.execution_mode != "cache":
        return
    # what the cache holds is judged under the lock, after any other build has filled it
    with cache_lock(Path(nb_config.execution_cache_path)):
        _execute_in_parallel(env, docnames, nb_config)


def _execute_in_parallel(env, docnames: list[str], nb_config) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from myst_nb.core.read import create_nb_reader

    cache = get_cache(nb_config.execution_cache_path)
    jobs = {}
    for docname in docnames:
        path = Path(env.doc2path(docname))
        if any(path.match(pattern) for pattern in nb_config.execution_excludepatterns):
            continue
        content = path.read_text(encoding="utf-8")
        reader = create_nb_reader(str(path), env.myst_config, nb_config, content)
        if reader is None:
            continue  # a Markdown page
        notebook = reader.read(content)
        if nb_config.metadata_key in notebook.metadata:
            continue  # the page changes MyST-NB's configuration: left to MyST-NB
        try:
            cache.match_cache_notebook(notebook)
            continue  # cached
        except KeyError:
            pass
        jobs[docname] = (
            path,
            (
                notebook,
                str(path.parent),
                nb_config.execution_timeout,
                nb_config.execution_allow_errors,
            ),
        )
    workers = min(os.cpu_count() or 1, len(jobs))
    if workers < 2:
        return
    LOGGER.info(
        "executing %d chapters, %d at a time, before reading them", len(jobs), workers
    )
    start = time.monotonic()
    # the largest sources first, so that no long chapter starts last
    order = sorted(jobs, key=lambda doc: -jobs[doc][0].stat().st_size)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        running = {pool.submit(_execute_chapter, jobs[doc][1]): doc for doc in order}
        for future in as_completed(running):
            docname = running[future]
            try:
                notebook, seconds, error = future.result()
            except Exception as err:  # the worker process itself failed
                error = f"{type(err).__name__} ({err})"
            if error is not None:
                LOGGER.info(
                    "%s: %s when executed in parallel; MyST-NB executes it again",
                    docname,
                    error,
                )
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(
                    notebook,
                    str(jobs[docname][0]),
                    data={"execution_seconds": seconds},
                ),
                check_validity=False,
                overwrite=True,
            )
            LOGGER.info("%s: executed in %.1f s", docname, seconds)
    LOGGER.info("executed %d chapters in %.0f s", len(jobs), time.monotonic() - start)


def mathjax_source() -> Path:
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise ExtensionError(
            "MathJax not found: install the pinned requirements "
            "(package django-static-mathjax) with `make book`"
        )
    source = (
        Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax" / "es5"
    )
    if not (source / "startup.js").exists():
        raise ExtensionError(
            f"MathJax package found but {source}/startup.js is missing"
        )
    return source


# What the site serves of MathJax, relative to the package's es5 folder: the loader
# (startup.js), the components it fetches for `mathjax3_config` (mathjax_components), the TeX
# extensions that autoload fetches when a page uses a rarer macro, and the CommonHTML font
# files. Not the rest of the folder's 24 MB (combined bundles, SVG output, MathML input, the
# speech rule engine, the menu), which no page asks for. MathJax's licence (Apache 2.0, whose
# section 4 asks that a copy goes with every copy of the work) lies beside es5/.
MATHJAX_EXTRAS = ["input/tex/extensions", "output/chtml/fonts/woff-v2"]


def mathjax_files(config) -> list[str]:
    """The files and folders of MathJax's es5 folder that the site serves (MATHJAX_EXTRAS)."""
    return ["startup.js", *mathjax_components(config), *MATHJAX_EXTRAS]


def copy_mathjax(app: Sphinx, exception) -> None:
    """`build-finished`: copy what the pages use of MathJax (mathjax_files) and its licence
    where `mathjax_path` points, unless the copy there came from the same package and the same
    list."""
    if exception is not None or app.builder.format != "html":
        return
    # where mathjax_path (relative to _static/) points: the Chinese edition in html/zh/ uses
    # the English site's copy, outside its own folder
    target = (Path(app.outdir) / "_static" / app.config.mathjax_path).resolve().parent
    if Path(app.outdir).resolve() not in target.parents:
        return
    source, files = mathjax_source(), mathjax_files(app.config)
    marker = target / ".copied-from"
    stamp = "\n".join([str(source), *files])
    if marker.exists() and marker.read_text() == stamp:
        return
    missing = [f for f in [*files, "../LICENSE"] if not (source / f).exists()]
    if missing:
        raise ExtensionError(
            f"MathJax's package at {source} lacks {missing} (mathjax3_config's loader.load "
            "names a component it does not have?)"
        )
    shutil.rmtree(target, ignore_errors=True)
    for relative in files:
        origin, copy = source / relative, target / relative
        if origin.is_dir():
            shutil.copytree(origin, copy)
        else:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(origin, copy)
    shutil.copyfile(source.parent / "LICENSE", target / "LICENSE")
    marker.write_text(stamp)


def drop_thebe(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Remove sphinx-thebe's scripts (Jupyter Book always loads the extension).

    This book runs no kernel service; thebe would put an unpkg.com URL into every page
    and, as Jupyter Book registers it twice, a script that redeclares a constant (a
    console error).
    """

    def is_thebe(asset) -> bool:
        filename = str(getattr(asset, "filename", asset) or "")
        body = getattr(asset, "attributes", {}).get("body", "")
        return "thebe" in filename or "THEBE" in body

    # in place: these are the builder's own lists, which add_js_file extends
    for key in ("script_files", "css_files"):
        if key in context:
            context[key][:] = [a for a in context[key] if not is_thebe(a)]
    if "body" in context:
        context["body"] = THEBE_CONFIG.sub("", context["body"])


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
    """`builder-inited`: copy Plotly's bundle, with its licence (MIT, whose notice goes with
    every copy), into the site before pages are written (Sphinx adds a checksum of the file to
    the script's URL)."""
    if app.builder.format != "html":
        return
    source, target = plotly_source(), Path(app.outdir) / PLOTLY_SCRIPT
    licence = (source.parent / "LICENSE", target.parent / "LICENSE")
    for origin, copy in [(source, target), licence]:
        if not copy.exists() or copy.read_bytes() != origin.read_bytes():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(origin, copy)
    for stale in target.parent.glob("*.js"):  # a bundle an earlier build served
        if stale != target:
            stale.unlink()


# The loader of Plotly's bundle on a page with an interactive figure: the promise
# `window.posencPlotly`, which the figures' inline scripts wait for. Run in the head, it fetches
# the bundle only once the page has loaded and MathJax has typeset the formulas on screen: the
# bundle's 1.2 MB took 150-300 ms to compile and the first figure 190 ms to draw, in front of
# MathJax (chapters 5 and 7 needed 0.9-1.1 s until their formulas were typeset, the others
# 0.5-0.8 s), although the figures sit far below the first screen.
PLOTLY_LOADER = """window.posencPlotly = new Promise(function (resolve, reject) {
  var src = document.currentScript.dataset.src;
  window.addEventListener("load", function () {
    var typeset = window.MathJax && MathJax.startup && MathJax.startup.promise;
    // loaded even if MathJax failed
    Promise.resolve(typeset).catch(function () {}).then(function () {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  });
});"""


def load_plotly_where_needed(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """Give the pages with an interactive figure (and only those) the loader of Plotly's
    bundle (PLOTLY_LOADER, with the bundle's address relative to the page in its `data-src`),
    in the page head. Sphinx adds a script given to `add_js_file` during
    `html-page-context` to that page alone."""
    if PLOTLY_MARKER in context.get("body", ""):
        app.add_js_file(
            None,
            body=PLOTLY_LOADER,
            id="posenc-plotly-loader",
            **{"data-src": context["pathto"](PLOTLY_SCRIPT, 1)},
        )


def mathjax_components(config) -> list[str]:
    """The files MathJax's loader fetches after startup.js for the components named in
    `mathjax3_config` (loader.load, as `_config.yml` sets it): its core, each component, and
    the font of the CommonHTML output."""
    load = config.mathjax3_config["loader"]["load"]
    files = ["core.js", *(f"{component}.js" for component in load)]
    if "output/chtml" in load:
        files.append("output/chtml/fonts/tex.js")
    return files


def loads_mathjax(app: Sphinx, pagename: str) -> bool:
    """Whether the page is an HTML page with mathematics: one sphinx.ext.mathjax gives
    MathJax's configuration and startup.js."""
    return app.builder.format == "html" and app.env.get_domain("math").has_equations(
        pagename
    )


def preload_mathjax(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`: on a page with mathematics (where sphinx.ext.mathjax adds
    startup.js), preload MathJax's components from the head. Deferred, startup.js runs only
    once the page is read, then fetches core.js and, once that has run, the rest: two round
    trips in front of the first formula. Preloaded, they are read while the page is; MathJax
    was done 40-65 ms sooner (about 7 %) on a first view of chapter 5 here."""
    if not loads_mathjax(app, pagename):
        return
    startup = context["pathto"]("_static/" + app.config.mathjax_path, 1)
    folder = posixpath.dirname(posixpath.normpath(startup))
    context["metatags"] = context.get("metatags", "") + "".join(
        f'\n<link rel="preload" as="script" href="{folder}/{name}" />'
        for name in mathjax_components(app.config)
    )


# MathJax 3 cannot break a formula itself. book/_static/custom.css lets the browser break
# inline formulas (a long one would otherwise overflow a phone's column), but the browser
# breaks between any two of MathJax's pieces: "Ci(" at the end of a line and "x)" on the next,
# or "L" and "d" of the product Ld. This groups each inline formula's top-level pieces into
# runs that end after a relation (=, <, \in, ...), a binary operator (+, -, \times, ...) or a
# comma, the places TeX breaks a formula in a paragraph, and custom.css keeps each run on
# one line. A relation or binary operator counts when MathJax spaces it as one (its `space`
# attribute: "4", a thick space, before a relation; "3", a medium one, before an operator): a
# minus sign that starts a formula or follows "=" is a sign, spaced as a letter, and TeX does
# not break after it (tests/test_pages.py checks every break against MathJax's own classes
# of the pieces); the space in front of a run is moved to the end of the run before it, so
# that a line of a formula does not start with it. A Chinese colon or semicolon after a formula
# is kept on its line too.
# MathJax runs this on each formula once it is typeset (a render action after `update`, which
# puts the formula into the page); with ui/lazy, MathJax's options take no new render action,
# so it is added to the document in startup.ready.
INLINE_MATH_BREAKS = r"""(function () {
  if (!window.MathJax) return;
  var RELATIONS = "=<>:≤≥≠≈≡∼≃≅≪≫∝∈∉∋⊂⊃⊆⊇→←↔↦⇒⇔⊥∥∣";
  var OPERATORS = "+−±∓×⋅∗∘∙⊕⊗∪∩∧∨∖";
  var PUNCTUATION = ",;";
  function breaksAfter(piece) {
    if (piece.tagName !== "MJX-MO") return false;
    var glyphs = piece.querySelectorAll("mjx-c");
    var code = glyphs.length && glyphs[glyphs.length - 1].className.match(/mjx-c([0-9A-F]+)/);
    if (!code) return false;
    var symbol = String.fromCodePoint(parseInt(code[1], 16));
    var space = piece.getAttribute("space");
    return PUNCTUATION.indexOf(symbol) >= 0 ||
      (RELATIONS.indexOf(symbol) >= 0 && space === "4") ||
      (OPERATORS.indexOf(symbol) >= 0 && space === "3");
  }
  function group(math) {
    var top = !math.display && math.typesetRoot &&
      math.typesetRoot.querySelector(":scope > mjx-math");
    if (!top || top.querySelector(":scope > mjx-break-group")) return;
    var run = null;
    Array.prototype.slice.call(top.children).forEach(function (piece) {
      if (run === null) {
        run = document.createElement("mjx-break-group");
        top.insertBefore(run, piece);
      }
      run.appendChild(piece);
      if (breaksAfter(piece)) run = null;
    });
    // MathJax puts the space between two pieces on the left of the second one (its `space`
    // attribute, or a margin). After a break that space would indent the next line; TeX drops
    // it there. So the space in front of a run goes to the end of the run before it (MathJax's
    // own `rspace`, or a margin), where a line that ends there does not show it.
    Array.prototype.slice.call(top.children, 1).forEach(function (next) {
      var first = next.firstElementChild, end = next.previousElementSibling.lastElementChild;
      if (end.getAttribute("rspace") || end.style.marginRight) return;
      if (first.getAttribute("space")) {
        end.setAttribute("rspace", first.getAttribute("space"));
        first.removeAttribute("space");
      } else if (first.style.marginLeft) {
        end.style.marginRight = first.style.marginLeft;
        first.style.marginLeft = "";
      }
    });
    // A full-width colon or semicolon may not start a line of Chinese, but after a formula
    // the browser breaks before it; a word joiner keeps it on the formula's line.
    var after = math.typesetRoot.parentNode.nextSibling;
    if (after && after.nodeType === 3 && /^[：；]/.test(after.data)) {
      after.data = "\u2060" + after.data;
    }
  }
  var startup = (MathJax.startup = MathJax.startup || {});
  startup.ready = function () {
    MathJax.startup.defaultReady();
    MathJax.startup.document.addRenderAction("posencInlineBreaks", 202, function (doc) {
      for (var math of doc.math) group(math);
    }, group);
  };
})();"""


def break_inline_math_as_tex_does(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """`html-page-context`, after sphinx.ext.mathjax's (priority 500): on a page with
    mathematics, INLINE_MATH_BREAKS, inline after `window.MathJax = {...}` (the configuration
    it adds to) and run before the deferred startup.js."""
    if loads_mathjax(app, pagename):
        app.add_js_file(None, body=INLINE_MATH_BREAKS)


def unique_ids(app: Sphinx, doctree, docname: str) -> None:
    """Number repeated ids: sphinx-proof and sphinx-exercise give every proof, exercise
    and solution body the same id ("proof", "proof-content", ...), which is invalid
    HTML. Only in HTML: the LaTeX builder resolves the whole book as one doctree, where
    renumbering would rename each chapter's own anchors and break the links to them."""
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


def offer_notebook_download(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """Let the theme's download button offer the executed chapter as .ipynb.

    sphinx-book-theme does this only when a launch service (Binder, …) is configured,
    which an offline book has not, and the notebook MyST-NB leaves in jupyter_execute/
    has no outputs; the executed notebook is taken from the execution cache instead. Its
    cells are numbered (ids cell-1, cell-2, ...), so two builds of a chapter offer the same
    file.
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
        _, notebook = get_cache(
            app.env.mystnb_config.execution_cache_path
        ).merge_match_into_notebook(notebook)
    except KeyError:
        LOGGER.warning(
            "no executed copy of %s in the cache: its download has no outputs", pagename
        )
    # jupytext gives every cell a random id; numbered, every build offers the same file
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{number}"
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


# Pages unpickled for {numref} during one build (cleared when it finishes)
_NUMREF_PAGES: dict[str, object] = {}


class NumrefWithoutRepeatedUnpickling(StandardDomain):
    """Sphinx's standard domain, resolving ``{numref}`` from one unpickled copy of each page.

    Sphinx 7.4 unpickles the whole target page for every ``{numref}`` to read the type and the
    number of the referenced node; this book's executed pages are 0.3–0.6 MB doctrees, and the
    106 references cost about 50 s of each build (English, Chinese and LaTeX alike). The
    references only read the node, and no page changes while a build resolves them, so one
    copy per page serves them all. Registered with ``app.add_domain(..., override=True)``.
    """

    def _resolve_numref_xref(self, env, *args, **kwargs):
        def get_doctree(docname: str):
            if docname not in _NUMREF_PAGES:
                _NUMREF_PAGES[docname] = type(env).get_doctree(env, docname)
            return _NUMREF_PAGES[docname]

        env.get_doctree = get_doctree  # this call's lookups only
        try:
            return super()._resolve_numref_xref(env, *args, **kwargs)
        finally:
            del env.get_doctree


def forget_numref_pages(app: Sphinx, *args) -> None:
    _NUMREF_PAGES.clear()


def setup(app: Sphinx):
    app.add_domain(NumrefWithoutRepeatedUnpickling, override=True)
    app.connect("env-before-read-docs", forget_numref_pages)
    app.connect("build-finished", forget_numref_pages)
    # Chapters' kernels inherit this: interactive figures then output their HTML alone,
    # not also Plotly's mime type (for JupyterLab), which MyST-NB would warn about
    # (the variable is posenc.figures._plotly.HTML_ONLY_VARIABLE).
    os.environ["POSENC_HTML_ONLY"] = "1"
    app.connect("env-get-outdated", drop_untrusted_cache)
    app.connect("env-before-read-docs", execute_in_parallel)
    app.connect("build-finished", copy_mathjax)
    app.connect("html-page-context", drop_thebe)
    app.connect("builder-inited", copy_plotly)
    app.connect("html-page-context", load_plotly_where_needed)
    app.connect("html-page-context", preload_mathjax)
    app.connect("html-page-context", break_inline_math_as_tex_does, priority=600)
    app.connect("doctree-resolved", unique_ids)
    # before the theme builds its header buttons (priority 501)
    app.connect("html-page-context", offer_notebook_download, priority=400)
    # env_version: raised when a change here changes the pages a build writes (version 2:
    # INLINE_MATH_BREAKS and the numbered cells of the downloads; 3: INLINE_MATH_BREAKS moves
    # the space at a break). Sphinx then sets aside the environment an earlier build saved
    # and reads and writes every page again; otherwise `make book` after such a change would
    # write only the pages whose sources changed. Nothing executes again (the execution cache
    # stays).
    return {
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "version": "1",
        "env_version": 3,
    }
