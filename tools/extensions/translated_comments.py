"""Code comments in the reader's language: the Chinese edition shows the chapters' code (and
the library's, where a cell prints it) with its comments in Chinese, and nothing else of the
code changed.

Both editions show the code the English build executed (one execution cache). Sphinx's own
translation would make each whole code cell a message, whose translation retypes the code; a
comment is the only part of a cell that is prose, so the comment alone is the message:

- `tools/translations.py update` (Sphinx's gettext builder) collects the comments of every code
  cell a page shows (`english_comments`) into `_build/code-comments.pot`, and merges
  them into the catalogue `locale/zh_CN/code-comments.po` (one message per distinct comment,
  wherever it occurs).
- The Chinese build replaces each comment of a shown code cell by its translation
  (`translate_comments`). Only Python's comment tokens are rewritten, so the code a Chinese
  reader copies is the code that ran; a comment without a translation is a warning, which fails
  the strict build, as an untranslated sentence of prose does.

A comment is a message when it holds a word of two or more Latin letters; a tool's directive
(``# noqa``, ``# fmt: skip``, ``# type: ignore``) never is.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging as sphinx_logging

LOGGER = sphinx_logging.getLogger(__name__)
CATALOGUE = Path("locale") / "{language}" / "code-comments.po"
TEMPLATE = "code-comments.pot"
WORD = re.compile(r"[A-Za-z]{2,}")
DIRECTIVE = re.compile(r"#\s*(noqa|fmt:|type:|pragma|pyright:|ruff:)")


def shown_code(doctree: nodes.document) -> list[nodes.literal_block]:
    """The source of each code cell the page shows (open or folded: MyST-NB's cell_input),
    and the library code a cell prints (`posenc.display.source`: a Python block in its
    output)."""
    blocks = []
    for container in doctree.findall(nodes.container):
        classes = container.get("classes", [])
        if "cell_input" in classes:
            blocks += container.findall(nodes.literal_block)
        elif "cell_output" in classes:
            blocks += [
                block
                for block in container.findall(nodes.literal_block)
                if block.get("language") == "python"
            ]
    return blocks


def comments(code: str) -> list[tokenize.TokenInfo]:
    """Python's comment tokens in a cell's code (none if the code does not tokenize)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    return [token for token in tokens if token.type == tokenize.COMMENT]


def message(comment: str) -> str | None:
    """A comment's text without its '#' and spaces, if it is prose to translate."""
    if DIRECTIVE.match(comment):
        return None
    text = comment.lstrip("#").strip()
    return text if WORD.search(text) else None


def english_comments(code: str) -> list[str]:
    return [text for token in comments(code) if (text := message(token.string))]


def with_comments_translated(code: str, translate) -> tuple[str, list[str]]:
    """The code with each comment's text replaced by `translate(text)` (None: left as it is),
    and the comments that had no translation. Everything but comment tokens is kept."""
    lines = code.splitlines(keepends=True)
    missing = []
    # from the last comment up, so that earlier positions stay valid
    for token in reversed(comments(code)):
        text = message(token.string)
        if text is None:
            continue
        translation = translate(text)
        if not translation:
            missing.append(text)
            continue
        (row, start), (_, end) = token.start, token.end
        line = lines[row - 1]
        prefix = token.string[: len(token.string) - len(token.string.lstrip("#"))]
        space = " " if token.string[len(prefix) :].startswith(" ") else ""
        lines[row - 1] = f"{line[:start]}{prefix}{space}{translation}{line[end:]}"
    return "".join(lines), missing[::-1]


def catalogue_path(app: Sphinx) -> Path:
    return Path(app.srcdir) / str(CATALOGUE).format(language=app.config.language)


def load_catalogue(app: Sphinx) -> dict[str, str]:
    """The translated comments (fuzzy ones count as missing)."""
    from babel.messages.pofile import read_po

    path = catalogue_path(app)
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    return {
        entry.id: entry.string
        for entry in catalogue
        if entry.id and entry.string and not entry.fuzzy
    }


def translate_comments(app: Sphinx, doctree: nodes.document) -> None:
    """`doctree-read`: the Chinese edition's code cells with their comments translated; the
    gettext builder's run collects the English comments instead."""
    blocks = shown_code(doctree)
    language = app.config.language or "en"
    if app.builder.name == "gettext":
        found = app.env.__dict__.setdefault("posenc_code_comments", {})
        found[app.env.docname] = [
            text for block in blocks for text in english_comments(block.astext())
        ]
        return
    if language == "en":
        return
    path = catalogue_path(app)
    app.env.note_dependency(str(path))  # a new translation reads the pages again
    if not hasattr(app, "posenc_comment_catalogue"):
        app.posenc_comment_catalogue = load_catalogue(app)
    known = app.posenc_comment_catalogue
    for block in blocks:
        code, missing = with_comments_translated(block.astext(), known.get)
        for text in missing:
            LOGGER.warning(
                "no translation for the code comment %r (run `make translations`, then "
                "translate it in %s)",
                text[:80],
                CATALOGUE.as_posix().format(language=language),
                location=block,
                type="posenc",
                subtype="translation",
            )
        if code != block.astext():
            block.children = [nodes.Text(code)]
            block.rawsource = code


def forget_page(app: Sphinx, env, docname: str) -> None:
    env.__dict__.get("posenc_code_comments", {}).pop(docname, None)


def write_template(app: Sphinx, exception) -> None:
    """`build-finished` (gettext): every shown comment, once, in `code-comments.pot`."""
    if exception or app.builder.name != "gettext":
        return
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    found = app.env.__dict__.get("posenc_code_comments", {})
    template = Catalog(project=app.config.project)
    for docname in sorted(found):
        for text in found[docname]:
            template.add(text, locations=[(f"{docname}.md", None)])
    # beside the gettext builder's folder, not in it: sphinx-intl would make a page of it
    with (Path(app.outdir).parent / TEMPLATE).open("wb") as handle:
        write_po(handle, template, width=0, include_lineno=False, omit_header=True)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", translate_comments)
    app.connect("env-purge-doc", forget_page)
    app.connect("build-finished", write_template)
    return {"parallel_read_safe": False, "parallel_write_safe": True}
