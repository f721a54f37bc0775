"""The site's frame (a Sphinx extension loaded through `sphinx.local_extensions`).

1. Proofs are marked: sphinx-proof gives every proof box the id "proof" (tools/book_ext.py
   numbers the repeats) and no class of its own, so its stylesheet styled only a page's first
   proof. Each proof's box gets the class `prf-proof`, which book/_static/custom.css styles,
   and the "Proof." that sphinx-proof writes before the first word becomes a run-in title.
2. Figures open their full-size file: each figure's image is wrapped in a link to the image
   file (on a phone the column shows it scaled down; a tap shows it whole), and loads lazily:
   only when the reader scrolls near it, not with the page.
3. Lighter pages: pydata-sphinx-theme puts Font Awesome's 1.5 MB script (SVG icons) in every
   page's head, although its stylesheet draws the same icons from Font Awesome's web font.
   book/_templates/layout.html passes the head through `drop_fontawesome_script`. It also
   loads Sphinx's search (searchtools.js, language_data.js and the whole search index, 150 KB
   in English and 245 KB in Chinese, parsed before the page is shown) on every page, for its
   search-as-you-type, which this book does not turn on: `drop_search_scripts` leaves them to
   the search page, which has its own.
4. The posenc wheel: every build puts `wheel/posenc-<version>-py3-none-any.whl` (built from
   src/ with `pip wheel --no-deps`) and `wheel/constraints.txt` (requirements.txt and
   requirements-lab.txt) into the site, and each chapter's download menu offers the wheel
   next to the .ipynb, so that a downloaded notebook runs outside a clone
   (book/appendix-reproducing.md says how).
5. Edited stylesheets reach the site: Sphinx 7.4 copies `html_static_path` only when some page
   is rewritten, so a build after a CSS-only edit kept the old file; changed files are copied.
"""

from __future__ import annotations

import filecmp
import hashlib
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from markupsafe import Markup
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

PROOF_CLASS = "prf-proof"
# how a proof begins, in the English and in the Chinese edition (locale/zh_CN)
PROOF_WORDS = ("Proof.", "证明：", "证明。", "证明.")


def mark_proofs(app: Sphinx, doctree, docname: str) -> None:
    from docutils import nodes
    from sphinx_proof.nodes import proof_node

    for proof in doctree.findall(proof_node):
        for box in proof.children:
            if PROOF_CLASS in box.get("classes", []):
                continue
            box["classes"].append(PROOF_CLASS)
            first = next(iter(box.findall(nodes.Text)), None)
            text = first.astext() if first is not None else ""
            word = next((word for word in PROOF_WORDS if text.startswith(word)), None)
            if word is not None:
                rest = text[len(word) :]
                title = nodes.inline(word, word, classes=["prf-proof-title"])
                first.parent.replace(first, title)
                title.parent.insert(title.parent.index(title) + 1, nodes.Text(rest))


def link_figures(app: Sphinx, doctree, docname: str) -> None:
    """Wrap every figure's image in a link to the image file the builder copies to _images/
    (env.images knows its final name; Sphinx itself links only images given a size)."""
    from docutils import nodes
    from sphinx.util.osutil import relative_uri

    if app.builder.format != "html":
        return
    image_dir = relative_uri(app.builder.get_target_uri(docname), "_images")
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if (
            not any(isinstance(p, nodes.figure) for p in _ancestors(image))
            or isinstance(image.parent, nodes.reference)
            or uri not in app.env.images
        ):
            continue
        image["loading"] = "lazy"  # fetched when the reader scrolls near it
        link = nodes.reference(
            "",
            "",
            internal=True,
            classes=["posenc-figure-link"],
            refuri=posixpath.join(image_dir, app.env.images[uri][1]),
        )
        image.replace_self(link)
        link.append(image)


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


FONTAWESOME_SCRIPT = re.compile(
    r'\s*<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>\s*</script>'
)


def drop_fontawesome_script(html: str) -> Markup:
    """Jinja filter: the page head without the <script> of fontawesome.js."""
    return Markup(FONTAWESOME_SCRIPT.sub("", str(html)))


SEARCH_SCRIPTS = re.compile(
    r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
    r'searchindex\.js)"></script>'
)


def drop_search_scripts(html: str) -> Markup:
    """Jinja filter: the page head without the <script>s of Sphinx's search, which
    pydata-sphinx-theme puts on every page for search-as-you-type (only there when
    the theme option search_as_you_type is false: book/_templates/layout.html)."""
    return Markup(SEARCH_SCRIPTS.sub("", str(html)))


def add_filters(app: Sphinx) -> None:
    if hasattr(app.builder, "templates"):
        filters = app.builder.templates.environment.filters
        filters["drop_fontawesome_script"] = drop_fontawesome_script
        filters["drop_search_scripts"] = drop_search_scripts


WHEEL_DIR = "wheel"


def wheel_name(root: Path) -> str | None:
    """posenc-<version>-py3-none-any.whl, from pyproject.toml (None outside the repository)."""
    import tomllib

    pyproject = root / "pyproject.toml"
    if not pyproject.is_file() or not (root / "src" / "posenc").is_dir():
        return None
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return f"{project['name']}-{project['version']}-py3-none-any.whl"


def build_wheel(app: Sphinx) -> None:
    """`builder-inited`: the wheel of posenc and the pinned versions, into <html>/wheel/.
    Built in a copy of the sources (setuptools leaves build/ behind) and only when src/,
    pyproject.toml or requirements.txt changed."""
    root = Path(app.confdir)
    name = wheel_name(root)
    if app.builder.format != "html" or name is None:
        return
    target = Path(app.outdir) / WHEEL_DIR
    sources = sorted(
        p
        for p in (root / "src").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and ".egg-info" not in str(p)
    )
    digest = hashlib.sha256()
    for path in [
        root / "pyproject.toml",
        root / "requirements.txt",
        root / "requirements-lab.txt",
        *sources,
    ]:
        if path.exists():
            digest.update(
                str(path.relative_to(root)).encode() + b"\0" + path.read_bytes()
            )
    stamp = target / ".source-digest"
    if (
        (target / name).exists()
        and stamp.exists()
        and stamp.read_text() == digest.hexdigest()
    ):
        return
    shutil.rmtree(target, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="posenc-wheel-") as tmp:
        for part in ("pyproject.toml", "README.md"):
            shutil.copy(root / part, Path(tmp) / part)
        shutil.copytree(
            root / "src",
            Path(tmp) / "src",
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
        )
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--no-build-isolation",
                "--wheel-dir",
                str(target),
                tmp,
            ],
            check=True,
            capture_output=True,
        )
    if not (target / name).exists():
        raise ExtensionError(f"pip wheel did not write {name} into {target}")
    pins = [
        root / "requirements.txt",
        root / "requirements-lab.txt",
    ]  # the book's, JupyterLab's
    (target / "constraints.txt").write_text(
        "".join(p.read_text() for p in pins if p.exists())
    )
    stamp.write_text(digest.hexdigest())


def offer_wheel_download(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """A chapter's download menu (sphinx-book-theme's header buttons) offers the wheel."""
    name = wheel_name(Path(app.confdir))
    if name is None or not context.get("ipynb_source"):
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].insert(
                1,
                {
                    "type": "link",
                    "url": context["pathto"](f"{WHEEL_DIR}/{name}", 1),
                    "text": ".whl",
                    "tooltip": "The posenc library, to run the notebook with",
                    "icon": "fas fa-cube",
                    "label": "download-wheel-button",
                },
            )


def refresh_static_files(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static"
    for folder in app.config.html_static_path:
        source = Path(app.confdir) / folder
        for path in source.rglob("*") if source.is_dir() else []:
            copy = target / path.relative_to(source)
            if (
                path.is_file()
                and copy.exists()
                and not filecmp.cmp(path, copy, shallow=False)
            ):
                shutil.copyfile(path, copy)


def setup(app: Sphinx):
    # an edit of this file rewrites every page (Sphinx compares "html" config values)
    app.add_config_value(
        "posenc_site_ext_digest",
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
        "html",
    )
    app.connect("builder-inited", add_filters)
    app.connect("builder-inited", build_wheel)
    # after sphinx-book-theme has made the header buttons (priority 501)
    app.connect("html-page-context", offer_wheel_download, priority=600)
    app.connect("doctree-resolved", mark_proofs)
    app.connect("doctree-resolved", link_figures)
    app.connect("build-finished", refresh_static_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
