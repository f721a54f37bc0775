"""Figures legible on a phone: a screen narrower than PHONE_SCREEN shows each static figure as
it is drawn for phones.

A figure of the book is drawn about 8 in wide with 10 pt type; a 390 px phone's column showed it
at about 41 %, its labels 4 to 5 px tall. `posenc.figures` draws every static figure a second
time for phones (`render(name, "svg", phone=True)`: 4.8 in wide, a row of panels stacked, no
text under 9.5 pt, so about 9 px or more as shown). Here each figure's image becomes a
``<picture>`` whose ``<source>`` gives that drawing to narrow screens; wider screens, and the
link to the full-size file (figure_links.py), keep the figure as the chapter's notebook holds
it. The drawing is written beside the figure's file in `_images/`, named after that file (the
hash of the figure's SVG) and a hash of `posenc`'s sources, so that a changed figure, or a
changed drawing for phones, gets a new file and an unchanged one is drawn once. The Chinese
edition draws them in Chinese (NAME.DIGEST.zh_CN.phone.svg; chinese_figures.py swaps its wide
figures).
"""

from __future__ import annotations

import functools
import hashlib
import html
import posixpath
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri

PHONE_SCREEN = "(max-width: 575.98px)"  # the themes' phone breakpoint
# around the image Sphinx writes (which also copies the figure's file to _images/)
PICTURE_START = '<picture><source media="{media}" srcset="{phone}" />'
PICTURE_END = "</picture>"


def _english_images(app: Sphinx) -> Path:
    """The English site's _images/ (the Chinese edition is built into its zh/)."""
    translated = (app.config.language or "en") != "en"
    site = Path(app.outdir).parent if translated else Path(app.outdir)
    return site / app.builder.imagedir


@functools.cache
def library_digest() -> str:
    """A short hash of posenc's sources: the figures' drawing code and what they draw."""
    import posenc

    digest = hashlib.sha256()
    for path in sorted(Path(posenc.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def phone_drawing(app: Sphinx, name: str, wide: str) -> str:
    """The file name, in _images/, of figure ``name`` drawn for phones, written if needed
    (``wide`` is the file name of the figure as the chapter shows it)."""
    from posenc import figures

    # the Chinese edition's drawing is in Chinese (chinese_figures.py draws its wide figures)
    language = "zh_CN" if app.config.language == "zh_CN" else "en"
    tag = "" if language == "en" else f".{language}"
    phone = f"{Path(wide).stem}.{library_digest()}{tag}{figures.PHONE_SUFFIX}"
    target = Path(app.outdir) / app.builder.imagedir / phone
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        english = _english_images(app) / phone
        if english.exists() and english != target:
            shutil.copyfile(english, target)
        else:
            target.write_bytes(
                figures.render(name, "svg", phone=True, language=language)
            )
    return phone


def phone_pictures(app: Sphinx, doctree, docname: str) -> None:
    """`doctree-resolved`, on the website: the image of each static figure of
    `posenc.figures` becomes a picture with its drawing for phones."""
    if app.builder.format != "html":
        return
    images = relative_uri(app.builder.get_target_uri(docname), app.builder.imagedir)
    for name, image, wide in static_figure_images(app, doctree):
        phone = phone_drawing(app, name, wide)
        start = PICTURE_START.format(
            media=PHONE_SCREEN,
            phone=html.escape(posixpath.join(images, phone), quote=True),
        )
        parent, index = image.parent, image.parent.index(image)
        parent.insert(index + 1, nodes.raw("", PICTURE_END, format="html"))
        parent.insert(index, nodes.raw("", start, format="html"))
        if isinstance(parent, nodes.reference) and not isinstance(
            parent.parent, nodes.TextElement
        ):
            # Sphinx writes a link outside text only around an image alone: the link to
            # the full-size file (figure_links.py) goes into a span
            span = nodes.inline("", "")
            parent.parent.replace(parent, span)
            span.append(parent)


def static_figure_images(app: Sphinx, doctree):
    """(name, image node, file name of its SVG in the build) for each static figure of
    `posenc.figures` on the page (chinese_figures.py uses it too)."""
    from posenc import figures

    static = set(figures.names("static"))
    for figure in doctree.findall(nodes.figure):
        name = next((n for n in figure["names"] if n in static), None)
        if name is None:
            continue
        for image in list(figure.findall(nodes.image)):
            uri = image.get("uri", "")
            if uri.endswith(".svg") and uri in app.env.images:
                yield name, image, app.env.images[uri][1]


def forget_old_drawings(app: Sphinx) -> None:
    """`builder-inited`: the drawings of an older `posenc` go (a change there executes every
    chapter again, so every page with a figure is written again, with the new ones)."""
    if app.builder.format != "html":
        return
    from posenc import figures

    for path in (Path(app.outdir) / app.builder.imagedir).glob(
        f"*{figures.PHONE_SUFFIX}"
    ):
        if f".{library_digest()}." not in path.name:
            path.unlink()


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", forget_old_drawings)
    # after figure_links.py has linked each image to its full-size file (same event, listed
    # before this module in _config.yml)
    app.connect("doctree-resolved", phone_pictures, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
