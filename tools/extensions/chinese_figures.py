"""The Chinese edition's figures speak Chinese.

Both editions are built from the same executed notebooks, whose figures the English kernel drew.
In the Chinese build (`language = "zh_CN"`), each figure of `posenc.figures` is replaced by its
Chinese drawing (`posenc.figures.render(name, "svg", language="zh_CN")`: the same builder, its
words from the table in `posenc/figures/_labels.py`):

- a static figure's image, and its link to the full-size file (figure_links.py), point to the
  Chinese SVG, written to `_images/` as NAME-OF-THE-ENGLISH-FILE.DIGEST.zh_CN.svg (DIGEST: the
  hash of `posenc`'s sources, as for the drawings for phones, which phone_figures.py draws in
  Chinese in this edition);
- an interactive figure's HTML (legend, axis titles, slider and menu labels, aria-label) is
  written again from `posenc.figures.build(name, language="zh_CN")`.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from docutils import nodes
from phone_figures import library_digest, static_figure_images
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri

LANGUAGE = "zh_CN"
SUFFIX = f".{LANGUAGE}.svg"
# an interactive figure's element in the HTML the kernel wrote (posenc.figures._plotly)
PLOTLY_ELEMENT = re.compile(r'<div id="posenc-plotly-(?P<name>fig-[a-z0-9-]+)"')


def chinese(app: Sphinx) -> bool:
    return app.builder.format == "html" and app.config.language == LANGUAGE


def chinese_drawing(app: Sphinx, name: str, wide: str) -> str:
    """The file name, in _images/, of static figure ``name`` drawn in Chinese, written if
    needed (``wide``: the file name of the English figure the chapter shows)."""
    from posenc import figures

    drawing = f"{Path(wide).stem}.{library_digest()}{SUFFIX}"
    target = Path(app.outdir) / app.builder.imagedir / drawing
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(figures.render(name, "svg", language=LANGUAGE))
    return drawing


def chinese_figures(app: Sphinx, doctree, docname: str) -> None:
    """`doctree-resolved`, in the Chinese edition: each figure of `posenc.figures` becomes
    its Chinese drawing."""
    if not chinese(app):
        return
    from posenc import figures

    interactive = set(figures.names("interactive"))
    images = relative_uri(app.builder.get_target_uri(docname), app.builder.imagedir)
    for name, image, wide in static_figure_images(app, doctree):
        drawing = posixpath.join(images, chinese_drawing(app, name, wide))
        # not a file of the environment: the HTML writer writes this uri as it is
        image["uri"] = drawing
        image["candidates"] = {"*": drawing}
        if isinstance(image.parent, nodes.reference):
            image.parent["refuri"] = drawing
    for raw in list(doctree.findall(nodes.raw)):
        match = PLOTLY_ELEMENT.search(raw.astext())
        if not match or match.group("name") not in interactive:
            continue
        from posenc.figures._plotly import InteractiveFigure

        name = match.group("name")
        html = InteractiveFigure(
            name,
            figures.build(name, language=LANGUAGE),
            figures.description(name, LANGUAGE),
        )._repr_html_()
        raw.replace_self(nodes.raw("", html, format="html", classes=raw["classes"]))


def forget_old_drawings(app: Sphinx) -> None:
    """`builder-inited`: the Chinese drawings of an older `posenc` go."""
    if not chinese(app):
        return
    for path in (Path(app.outdir) / app.builder.imagedir).glob(f"*{SUFFIX}"):
        if f".{library_digest()}." not in path.name:
            path.unlink()


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", forget_old_drawings)
    # after phone_figures.py (600), which finds each figure's image by its English file
    app.connect("doctree-resolved", chinese_figures, priority=700)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
