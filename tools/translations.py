"""The Chinese edition: build it, and keep its message catalogues in step with the English.

    python tools/translations.py build    # _build/html/zh/ (part of `make book`)
    python tools/translations.py latex    # _build/latex-zh/ (part of `make pdf`)
    python tools/translations.py update   # `make translations`: catalogues after an English edit
    python tools/translations.py qualify  # glued numbers in translations name their page
    python tools/translations.py check    # markup of every translation = markup of its English
    python tools/translations.py export ch05-decay-integral > ch05.txt   # to translate in
    python tools/translations.py import ch05-decay-integral ch05.txt     # a text editor

`build` is Jupyter Book's own build (`_config.yml`, `_toc.yml`, the same extensions) with
`language = "zh_CN"` and the catalogues of `locale/`, written to `_build/html/zh/`. It reads the
English build's execution cache, so nothing executes a second time; it is strict like the
English build (a warning fails it, an untranslated or fuzzy message included: see
tools/extensions/chinese_edition.py).

`latex` is the same build with Sphinx's LaTeX writer, into `_build/latex-zh/`, where `make pdf`
runs XeLaTeX (latexmk) and copies the PDF to `_build/pdf/<name>-zh.pdf`: the print edition of
the Chinese edition (tools/extensions/print_edition.py names and titles it), with the English
edition's preamble (_config.yml) but for its CJK faces, FandolSong for the text and FandolHei
for the headings and code (TeX Live's own, in texlive-lang-chinese), and LaTeX's words in
Chinese (`CHINESE_PREAMBLE`).

`update` extracts the English messages (Sphinx's gettext builder, one catalogue per page,
`_build/gettext/`) and merges them into `locale/zh_CN/LC_MESSAGES/` with sphinx-intl: a new
message arrives untranslated, a changed one fuzzy (with the old translation as a start), a
removed one is dropped. Either fails the Chinese build until someone translates it. The
comments of the code cells the pages show go the same way into one catalogue of their own,
`locale/zh_CN/code-comments.po` (tools/extensions/translated_comments.py).

`qualify` rewrites a glue role in a translation, ``{glue:text}`key:.2f```, to the form that
names the page, ``{glue:text}`ch05-decay-integral.md::key:.2f```: Sphinx parses a translated
message on its own, away from the page's notebook, and only the qualified form finds the
number (MyST-NB then looks it up in that page's executed notebook).

`export` writes a page's messages as plain text, each under a header line `### N` (N
numbers the messages of the catalogue), the English followed by the current translation
(under `### N zh`) if there is one; `import` reads a file of `### N` blocks, each holding a
translation, into the catalogue (backslashes and quotes as typed: no escaping), then qualifies
its glue roles and checks its markup.

`check` compares each translation (of the pages and of the code comments) with its English
message: the same inline mathematics, the same roles with the same targets (a reference, a
citation, a glued number), the same inline code. Mathematics, code and numbers are shared
between the editions, never retyped. It also holds each translation to the Chinese
typesetting rules of the glossary (`TYPESETTING_RULES`, one function each): no half-width
space around a reference that renders as Chinese words, full-width brackets, no space beside
full-width punctuation, a sentence ended once, no slanted Chinese, and no number or quotation
marks typed around a reference to a chapter or a section (the Chinese build writes them:
chinese_edition.py).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = "zh_CN"
LOCALE = ROOT / "locale"
CATALOGUES = LOCALE / LANGUAGE / "LC_MESSAGES"
GLOSSARY = LOCALE / LANGUAGE / "glossary.md"
BUILD = ROOT / "_build"
# the code cells' comments: their catalogue, and the template the gettext build writes
sys.path.insert(0, str(ROOT / "tools" / "extensions"))
import translated_comments  # noqa: E402 - found through the path set just above

COMMENTS = ROOT / str(translated_comments.CATALOGUE).format(language=LANGUAGE)
COMMENTS_TEMPLATE = BUILD / translated_comments.TEMPLATE
OUTPUT = BUILD / "html" / "zh"
TEMPLATES = BUILD / "gettext"

TITLE = "正弦位置编码：从第一性原理推导"

# What the Chinese build changes in the English configuration (everything else is shared)
CHINESE = {
    "language": LANGUAGE,
    "locale_dirs": ["locale/"],
    # one catalogue per page (locale/zh_CN/LC_MESSAGES/book/ch05-decay-integral.po)
    "gettext_compact": False,
    # sphinx-intl keeps the catalogues; the build compiles them (Sphinx's default)
    "gettext_auto_build": True,
    "html_title": TITLE,
    "author": "posenc 编写组",
    # sphinx-togglebutton's hints on a folded box (its catalogue has no zh_CN)
    "togglebutton_hint": "点击展开",
    "togglebutton_hint_hide": "点击收起",
    "html_search_language": "zh",
    # MathJax from the English site's copy, one folder up (offline_assets.py copies it only
    # into the site that mathjax_path points into)
    "mathjax_path": "../../mathjax/startup.js",
}
# What the Chinese print edition changes in the English edition's LaTeX settings (_config.yml:
# latex_elements; Jupyter Book merges these into them key by key). For Chinese and XeLaTeX,
# Sphinx loads xeCJK itself (as its "fontenc") and babel with English captions: babel is left
# out, and the preamble names LaTeX's words in Chinese (第 1 章, 第一部分, 附录 A, 参考文献, 目录;
# Sphinx's own, 图 4.1 and 表 1.1, come from its Chinese catalogue). Quotation marks, dashes
# and ellipses are the CJK face's (full width), but the en dash of a range and the minus sign.
# A part's heading is LaTeX's `\partname\nobreakspace\thepart`: \thepart says 第一部分 (in the
# contents too) and \partname swallows the space. A chapter's heading is titlesec's (Sphinx
# loads it), its running head Sphinx's for a \@chappos (第 1 章 标题, 附录 A 标题: a quad after
# 章, where xeCJK drops the space between two Chinese characters). A caption
# is "图 1.1：" and its text (LaTeX's \@makecaption, with a full-width colon).
CHINESE_PREAMBLE = r"""
\setCJKmainfont{FandolSong}[Extension=.otf, UprightFont=*-Regular, BoldFont=*-Bold,
  ItalicFont=FandolKai-Regular]
\setCJKsansfont{FandolHei}[Extension=.otf, UprightFont=*-Regular, BoldFont=*-Bold]
\setCJKmonofont{FandolHei}[Extension=.otf, UprightFont=*-Regular, BoldFont=*-Bold]
\xeCJKDeclareCharClass{Default}{"2013, "2212}
\linespread{1.2}
\usepackage{zhnumber}
\makeatletter
\renewcommand{\chaptername}{第}
\def\@chappos{章\quad}
\renewcommand{\appendixname}{附录}
\g@addto@macro\appendix{\gdef\@chappos{}}
\titleformat{\chapter}[display]{\normalfont\huge\bfseries}%
  {\@chapapp\ \thechapter\ \@chappos}{20\p@}{\Huge}
\renewcommand{\thepart}{第\zhnum{part}部分}
\renewcommand{\theHpart}{\arabic{part}}
\renewcommand{\partname}{\@gobble}
\renewcommand{\bibname}{参考文献}
\long\def\@makecaption#1#2{\vskip\abovecaptionskip
  \sbox\@tempboxa{#1：#2}\ifdim\wd\@tempboxa>\hsize #1：#2\par
  \else\global\@minipagefalse\hb@xt@\hsize{\hfil\box\@tempboxa\hfil}\fi
  \vskip\belowcaptionskip}
\makeatother
"""
# the English preamble's CJK lines (for the bibliography's Chinese titles): replaced by the above
ENGLISH_CJK_LINES = ("\\usepackage{xeCJK}", "\\setCJK", "\\xeCJKDeclareCharClass")
CHINESE_LATEX = {
    "babel": "",
    "tableofcontents": "\\renewcommand{\\contentsname}{目录}\\sphinxtableofcontents",
}
# The two texts of the theme's options in _config.yml, in Chinese
THEME_TEXTS = {
    "search_bar_text": "搜索本书…",
    "extra_footer": "每一幅图都由 <code>make figures</code> 重新生成；每一个恒等式都是一条断言。",
}


def run_build(
    builder: str, output: Path, doctrees: Path, overrides: dict, theme_texts: dict
) -> int:
    """Jupyter Book's build (as `jupyter-book build . -W -n --keep-going`), with overrides."""
    from jupyter_book.config import get_final_config
    from jupyter_book.sphinx import build_sphinx

    config = ROOT / "_config.yml"
    final, _ = get_final_config(
        user_yaml=config,
        cli_config={"latex_individualpages": False},
        sourcedir=ROOT,
        use_external_toc=True,
    )
    theme = dict(final.get("html_theme_options", {}))
    theme.update(theme_texts)
    cache = final.get("nb_execution_cache_path") or str(BUILD / ".jupyter_cache")
    overrides = {
        "external_toc_path": "_toc.yml",
        "latex_individualpages": False,
        "nitpicky": True,
        # the English build's cache: its executed notebooks, found by their code
        "nb_execution_cache_path": str((ROOT / cache).resolve()),
        "html_theme_options": theme,
        **overrides,
    }
    status = build_sphinx(
        ROOT,
        output,
        noconfig=True,
        path_config=str(config),
        confoverrides=overrides,
        doctreedir=doctrees,
        builder=builder,
        warningiserror=True,
        keep_going=True,
    )
    # build_sphinx returns Sphinx's status, or the exception that stopped the build
    return status if isinstance(status, int) else 1


def search_terms() -> list[str]:
    """The glossary's Chinese terms, for the search index's word splitter (jieba would cut
    外推 into 外 and 推, and Sphinx indexes no single character)."""
    terms = []
    if not GLOSSARY.exists():  # a book without a glossary (the tests' small books)
        return terms
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and CJK_WORD.search(cells[1]):
            terms += CJK_WORD.findall(cells[1])
    return sorted(set(terms))


CJK_WORD = re.compile(r"[\u4e00-\u9fff]{2,}")


def build() -> int:
    """The Chinese edition into _build/html/zh (strict; the English build executed it)."""
    words = BUILD / "zh-search-terms.txt"
    words.parent.mkdir(parents=True, exist_ok=True)
    words.write_text("".join(f"{term} 1000\n" for term in search_terms()), "utf-8")
    overrides = {**CHINESE, "html_search_options": {"dict": str(words)}}
    return build_chinese("html", OUTPUT, overrides, THEME_TEXTS)


def build_chinese(builder: str, output: Path, overrides: dict, theme_texts: dict) -> int:
    """`run_build` for the Chinese edition; as `make book` does, a failed strict build drops
    the saved environment, which would let the next build skip the failing page."""
    status = run_build(builder, output, BUILD / ".doctrees-zh", overrides, theme_texts)
    if status:
        shutil.rmtree(BUILD / ".doctrees-zh", ignore_errors=True)
        print(
            f"the strict {builder} build of the Chinese edition failed (see above)",
            file=sys.stderr,
        )
    return status


def latex() -> int:
    """The Chinese print edition's LaTeX into _build/latex-zh (strict, as `build`)."""
    import yaml

    english = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    elements = english["sphinx"]["config"]["latex_elements"]
    kept = [
        line
        for line in elements.get("preamble", "").splitlines()
        if not line.startswith(ENGLISH_CJK_LINES)
    ]
    preamble = CHINESE_PREAMBLE.lstrip("\n") + "\n".join(kept) + "\n"
    overrides = {**CHINESE, "latex_elements": {**CHINESE_LATEX, "preamble": preamble}}
    return build_chinese("latex", BUILD / "latex-zh", overrides, {})


def update() -> int:
    """English messages → _build/gettext/*.pot → locale/zh_CN/LC_MESSAGES/*.po."""
    # every page read afresh: messages are collected while a page is read
    shutil.rmtree(TEMPLATES, ignore_errors=True)
    shutil.rmtree(BUILD / ".doctrees-gettext", ignore_errors=True)
    from myst_nb.core.render import base_render_priority

    # One catalogue per page, and of each cell output the format the HTML shows: MyST-NB's
    # choice for its gettext builder would keep text only, and the figures' alt texts would
    # never reach the catalogues.
    html_choice = base_render_priority()["html"]
    extract = {
        "gettext_compact": False,
        "nb_mime_priority_overrides": [
            ("gettext", mime, rank) for mime, rank in html_choice.items()
        ],
    }
    status = run_build("gettext", TEMPLATES, BUILD / ".doctrees-gettext", extract, {})
    if status:
        return status
    # the gettext builder also writes a catalogue of the templates' texts (sphinx.pot); their
    # Chinese, with the other interface texts of Sphinx and the themes, is kept by hand in
    # locale/zh_CN/LC_MESSAGES/sphinx.po, which sphinx-intl would empty of all the others
    (TEMPLATES / "sphinx.pot").unlink(missing_ok=True)
    command = [
        sys.executable, "-m", "sphinx_intl", "update",
        "--pot-dir", str(TEMPLATES), "--locale-dir", str(LOCALE),
        "--language", LANGUAGE, "--line-width", "-1",
    ]  # fmt: skip
    status = subprocess.run(command, cwd=ROOT, check=False).returncode
    return status or drop_line_numbers() or update_code_comments()


def read_catalogue(path: Path, **options):
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle, **options)


def write_catalogue(path: Path, catalogue, **options) -> None:
    """Write a catalogue as every catalogue here is written: lines unwrapped, and its
    messages' source files named without line numbers (see `drop_line_numbers`)."""
    from babel.messages.pofile import write_po

    with path.open("wb") as handle:
        write_po(handle, catalogue, width=0, include_lineno=False, **options)


def update_code_comments() -> int:
    """Merge the code cells' comments (tools/extensions/translated_comments.py) into their
    catalogue, as sphinx-intl merges the prose: new ones untranslated, changed ones fuzzy,
    removed ones dropped."""
    from babel.messages.catalog import Catalog

    template = read_catalogue(COMMENTS_TEMPLATE)
    path = COMMENTS
    catalogue = Catalog(locale=LANGUAGE)
    if path.exists():
        catalogue = read_catalogue(path, locale=LANGUAGE)
    # the template's creation date is not copied: an unchanged catalogue is written unchanged
    catalogue.update(template, update_creation_date=False)
    write_catalogue(path, catalogue, ignore_obsolete=True)
    untranslated = sum(1 for entry in catalogue if entry.id and not entry.string)
    fuzzy = sum(1 for entry in catalogue if entry.id and entry.fuzzy)
    print(
        f"{path.relative_to(ROOT)}: {len(catalogue)} code comments, "
        f"{untranslated} untranslated, {fuzzy} fuzzy"
    )
    return 0


def drop_line_numbers() -> int:
    """Rewrite every catalogue without the line numbers of its messages' sources (the file
    names stay): with them, a sentence added near the top of a page renumbered every message
    below it, and a one-sentence edit became a diff of the whole catalogue."""
    for path in catalogues():
        write_catalogue(path, read_catalogue(path))
    return 0


# Markup that a translation must keep exactly: inline maths, roles with their targets,
# inline code, and link targets
MARKUP = re.compile(
    r"""
    \$\$.+?\$\$                     # display maths written inline
  | (?<![\\$])\$[^$\n]+?\$          # inline maths
  | \{[a-z][\w:-]*\}`[^`]*`         # a role: {eq}`...`, {glue:text}`...`, {cite:t}`...`
  | ``[^`]+``|`[^`]+`               # inline code
  | \]\([^)\s]+\)                   # the target of a Markdown link
    """,
    re.VERBOSE,
)
# A role whose text a translation may change: its target (after '<', or the whole of a plain
# ``{ref}`label```) must stay the same
RETEXTABLE = re.compile(r"\{(ref|numref|doc|prf:ref|term)\}`(?:[^`<]*<)?([^`>]+)>?`")
GLUE = re.compile(r"\{glue(?::\w+)?\}`([^`]*)`")


# A reStructuredText role, as the library's docstrings write them (:ref:`label`, :math:`x`)
RST_ROLE = re.compile(r"(?<![\w`}]):([a-z][\w-]*(?::[a-z][\w-]*)?):`([^`]*)`")


DEFAULT_GLUE_FORMAT = {"glue:text": "s", "glue:md": "commonmark"}


def qualify_glue(text: str, page: str, docstring: bool = False) -> str:
    """``text`` as the Chinese build must read it: every glue role names ``page`` (see
    `qualify`); and, for a message from the library's docstrings (the API appendix), whose
    English is reStructuredText, the roles are MyST roles, because Sphinx parses every
    translated message of a page with the page's own parser.
    """

    def qualified(match: re.Match) -> str:
        role, key = match.group(1), match.group(2)
        if "::" in key:
            return match.group(0)
        # {glue:text} and {glue:md} read `page::key:format` from the right, so a key
        # without a format gets the default one
        if ":" not in key and role in DEFAULT_GLUE_FORMAT:
            key += f":{DEFAULT_GLUE_FORMAT[role]}"
        return f"{{{role}}}`{page}::{key}`"

    if docstring:
        text = RST_ROLE.sub(
            lambda match: f"{{{match.group(1)}}}`{match.group(2)}`", text
        )
    # (not a role named in inline code, `{glue:md}`, which a later backtick would close)
    return re.sub(r"(?<!`)\{(glue(?::\w+)?)\}`([^`]*)`", qualified, text)


def from_docstring(message) -> bool:
    """Whether a catalogue entry comes from the library's docstrings (autodoc)."""
    # Sphinx writes the location "../../src/posenc/attention.py:docstring of
    # posenc.attention.softmax:5"; babel's catalogue reader splits it at its spaces (and
    # writes back "of posenc.attention.softmax:5")
    return any(
        location == "of" or location.startswith(("../../src/", "posenc."))
        for location, _ in message.locations
    )


def markup(text: str) -> Counter:
    """The markup a message holds, retextable roles reduced to their targets."""
    found = Counter()
    text = RST_ROLE.sub(lambda match: f"{{{match.group(1)}}}`{match.group(2)}`", text)
    for match in MARKUP.finditer(text):
        piece = match.group(0)
        # links whose text a translation translates
        if piece.startswith(("{pdf-edition}", "{other-edition}")):
            piece = piece[: piece.index("}") + 1]
        elif retextable := RETEXTABLE.fullmatch(piece):
            piece = f"{{{retextable.group(1)}}}<{retextable.group(2)}>"
        elif glue := GLUE.fullmatch(piece):
            # a translation names the page the number was glued in, and a key without a
            # format gets the default one (see qualify_glue): the same number either way
            role = piece[1 : piece.index("}")]
            key = glue.group(1).split("::")[-1]
            default = DEFAULT_GLUE_FORMAT.get(role)
            if default and key.endswith(f":{default}"):
                key = key[: -len(default) - 1]
            piece = "{glue}" + key
        found[piece] += 1
    return found


TEXT_IN_MATHS = re.compile(r"\\text\{[^{}]*\}")
# Words set in a formula (\text{for all }, \text{left Riemann sum}): not a label in a
# subscript or superscript (d_{\text{model}}) and not a name from the code (max\_timescale).
PROSE_IN_MATHS = re.compile(
    r"(?<!_\{)(?<!\^\{)(?<![_^])\\text\{([^{}_]*[A-Za-z]{2,}[^{}_]*)\}"
)
CJK = re.compile(r"[\u4e00-\u9fff]")


def english_left_in_formula(translation: str) -> list[str]:
    """The words of a translated display formula still in English."""
    return [
        words for words in PROSE_IN_MATHS.findall(translation) if not CJK.search(words)
    ]


def is_display_formula(message: str) -> bool:
    """A display formula with words in it (chinese_edition.py makes those messages)."""
    inline_maths = ("$", ":math:`", "{math}`")  # a paragraph with maths in it
    return "\\text{" in message and not any(mark in message for mark in inline_maths)


def catalogues() -> list[Path]:
    """The pages' catalogues (locale/zh_CN/LC_MESSAGES/book/); sphinx.po beside them holds
    the interface texts of Sphinx and the themes."""
    return sorted((CATALOGUES / "book").rglob("*.po"))


def page_source(catalogue: Path) -> str:
    """The page a catalogue translates, as a glue role names it (``ch05-decay-integral.md``)."""
    return catalogue.with_suffix(".md").name


def qualify() -> int:
    """Rewrite the glue roles of every translation to name their page."""
    changed = 0
    for path in catalogues():
        catalogue = read_catalogue(path)
        count = 0
        for message in catalogue:
            if message.id and isinstance(message.string, str) and message.string:
                new = qualify_glue(
                    message.string, page_source(path), from_docstring(message)
                )
                count += new != message.string
                message.string = new
        if count:
            write_catalogue(path, catalogue)
            changed += count
            print(f"{path.relative_to(ROOT)}: {count} messages")
    print(f"{changed} messages rewritten")
    return 0


def catalogue_of(page: str) -> Path:
    path = CATALOGUES / "book" / f"{Path(page).stem}.po"
    if not path.exists():
        raise SystemExit(f"no catalogue {path.relative_to(ROOT)}")
    return path


def export(page: str) -> int:
    """A page's messages as `### N` blocks (English, then `### N zh` and the translation)."""
    messages = [message for message in read_catalogue(catalogue_of(page)) if message.id]
    for number, message in enumerate(messages, start=1):
        print(f"### {number}\n{message.id}\n")
        if message.string:
            print(f"### {number} zh\n{message.string}\n")
    return 0


def import_(page: str, text_file: str) -> int:
    """Translations from `### N` blocks into the page's catalogue; then qualify and check."""
    path = catalogue_of(page)
    catalogue = read_catalogue(path)
    messages = [message for message in catalogue if message.id]
    blocks = re.split(
        r"^### (\d+)(?: zh)?[ \t]*$", Path(text_file).read_text("utf-8"), flags=re.M
    )
    translations = {
        int(n): body.strip("\n").rstrip()
        for n, body in zip(blocks[1::2], blocks[2::2], strict=True)
    }
    for number, text in translations.items():
        if not 1 <= number <= len(messages):
            raise SystemExit(
                f"{text_file}: no message {number} (the page has {len(messages)})"
            )
        if text:
            message = messages[number - 1]
            message.string = qualify_glue(
                text, page_source(path), from_docstring(message)
            )
            messages[number - 1].flags.discard("fuzzy")
    write_catalogue(path, catalogue)
    missing = sum(1 for message in messages if not message.string)
    print(
        f"{path.relative_to(ROOT)}: {len(translations)} read, {missing} still untranslated"
    )
    return check([path])


# ------------------------------------------------------------------ Chinese typesetting
# The glossary's typesetting rules ("Style") that a program can see, one function each: given a
# translation, the pieces of it that break the rule (a little context around each). `check`
# runs them on every translation and names the catalogue, the message and the piece.

CJK_OR_FULL_WIDTH = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# The references that render as Chinese words in the Chinese edition: a section's or a page's
# title (``{ref}``, ``{doc}``: chinese_edition.py numbers it, 第 5 章《从和到积分》), a figure's
# or a statement's name and number (``{numref}``: 图 5.2; ``{prf:ref}``: 定理 4.3); and a
# parenthetical citation (``{cite}``, ``{cite:p}``), which chinese_edition.py sets in full-width
# brackets, （Vaswani et al. 2017）. An equation's number (``{eq}``: (5.3)) and a textual
# citation (``{cite:t}``: Vaswani et al. (2017)) are Latin text, spaced from Chinese like any
# other.
REFERENCE = re.compile(r"\{(ref|doc|numref|prf:ref|cite|cite:p)\}`([^`]*)`")


def rendered_ends(role: str, content: str) -> tuple[str, str]:
    """The first and last character a reference renders as in the Chinese edition."""
    if role in ("cite", "cite:p"):
        return "（", "）"
    if "<" in content and content.endswith(">"):  # its own text: {ref}`上文 <label>`
        text = content[: content.rindex("<")].strip().replace("%s", "1")
        return (text[:1], text[-1:]) if text else ("字", "字")
    if role in ("numref", "prf:ref") or content.startswith("ex-"):
        # 图 5.2, 定理 4.3, 练习 1.1 (sphinx-exercise names an exercise, whose labels in
        # this book begin "ex-"): a word, then a number
        return "图", "1"
    return "第", "》"  # 第 5 章《从和到积分》, 第 5.3 节“…”


def spaced_references(text: str) -> list[str]:
    """A reference that renders as Chinese words takes no half-width space between it and
    Chinese text or full-width punctuation (由引理 3.1，, not 由 引理 3.1 ，); after a number
    (定理 4.3 给出) the space is the one between a number and Chinese. A parenthetical
    citation, set in full-width brackets, takes no space on either side."""
    found = []
    for match in REFERENCE.finditer(text):
        first, last = rendered_ends(match.group(1), match.group(2))
        before, after = text[: match.start()], text[match.end() :]
        spaced_before = re.search(r"\S[ \t]+$", before)
        spaced_after = re.match(r"[ \t]+\S", after)
        if (
            spaced_before
            and CJK_OR_FULL_WIDTH.match(first)
            and (
                first in FULL_WIDTH_PUNCTUATION
                or CJK_OR_FULL_WIDTH.match(before.rstrip()[-1])
            )
        ) or (
            spaced_after
            and CJK_OR_FULL_WIDTH.match(last)
            and (
                last in FULL_WIDTH_PUNCTUATION
                or CJK_OR_FULL_WIDTH.match(after.lstrip()[0])
            )
        ):
            found.append(text[max(0, match.start() - 6) : match.end() + 6])
    return found


def without_markup(text: str) -> str:
    """The translation's own words: each piece of markup (maths, roles, code, link targets)
    becomes one Latin letter, and bold's asterisks go (a run-in heading, **小标题？** 正文,
    is set as its words are)."""
    return MARKUP.sub("M", text).replace("**", "")


def half_width_brackets(text: str) -> list[str]:
    """Brackets in a Chinese sentence are full-width （…）: a half-width pair around Chinese
    words, or touching a Chinese character, is not (练习 1.1（…）, not 练习 1.1 (…))."""
    words = without_markup(text)
    found = []
    for match in re.finditer(r"\(([^()]*)\)", words):
        before = words[match.start() - 1 : match.start()]
        after = words[match.end() : match.end() + 1]
        if CJK.search(match.group(1)) or CJK.match(before) or CJK.match(after):
            found.append(words[max(0, match.start() - 6) : match.end() + 6])
    return found


# Full-width punctuation carries its own space: no half-width space on either side of it.
# The quotation marks “” are the same characters in Latin text (“halves” layout, Vaswani et al.
# “Attention …”): beside them a space is a fault only on the side of a Chinese character.
FULL_WIDTH_PUNCTUATION = "。？！，；：、（）《》"


def spaces_beside_full_width_punctuation(text: str) -> list[str]:
    """No half-width space before or after 。？！，；：、（）《》 (定理 1.1（…）, not
    定理 1.1 （…）; 。下一句, not 。 下一句), nor between a Chinese character and “ or ”."""
    words = without_markup(text)
    mark = f"[{FULL_WIDTH_PUNCTUATION}]"
    pattern = (
        rf"{mark}[ \t]+\S|\S[ \t]+{mark}"
        r"|[\u4e00-\u9fff][ \t]+[“”]|[“”][ \t]+[\u4e00-\u9fff]"
    )
    return [
        words[max(0, match.start() - 6) : match.end() + 6]
        for match in re.finditer(pattern, words)
    ]


def doubled_punctuation(text: str) -> list[str]:
    """A sentence ends once: no 。 or ， after ？ or ！ or 。 (见……吗？。)."""
    words = without_markup(text)
    return [
        words[max(0, match.start() - 6) : match.end() + 6]
        for match in re.finditer(r"[。？！][。，；：、]", words)
    ]


def slanted_chinese(text: str) -> list[str]:
    """Chinese is never slanted: emphasis of Chinese words is bold (``**重点**``), not italic
    (``*重点*``, which browsers fake by slanting the upright face)."""
    words = MARKUP.sub("M", text)
    italic = re.compile(
        r"(?<![*\\])\*(?![*\s])[^*]+?(?<![\s\\])\*(?!\*)"  # *重点*, not **重点**
        r"|(?<![\w\\])_(?!\s)[^_]+?(?<![\s\\])_(?!\w)"  # _重点_, not R\_{n-m}
    )
    return [
        match.group(0) for match in italic.finditer(words) if CJK.search(match.group(0))
    ]


def numbered_by_hand(text: str) -> list[str]:
    """A reference to a chapter or a section renders its number and its title in quotation
    marks in the Chinese edition (chinese_edition.py: 第 5 章《从和到积分》, 第 7.1 节“为什么底数是
    10000”): a number or quotation marks typed around it would be said twice."""
    pattern = re.compile(
        r"(?:第\s*[\dA-Z][\d.]*\s*[章节]|附录\s*[A-Z]?)\s*[（(《“]?\s*\{(?:ref|doc)\}`[^`<]*`"
        r"|[《“]\{(?:ref|doc)\}`[^`<]*`[》”]"
    )
    return [match.group(0) for match in pattern.finditer(text)]


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def unclosed_bold(text: str) -> list[str]:
    """Bold that CommonMark (MyST's parser) leaves as two literal asterisks: ``**`` opens
    only where the next character is not punctuation (or a space or punctuation comes
    before), and closes only where the previous character is not punctuation (or a space
    or punctuation comes after). Chinese sets no space beside its words, so
    ``本章要问：**能否区分？**答案是`` shows its asterisks; ``**能否区分**？答案是`` is bold.
    The pairs are matched as the parser matches them, left to right."""
    words = re.sub(r"`[^`]*`|\$[^$]*\$", "x", MARKUP.sub("M", text))
    opened, stray = [], []
    for match in re.finditer(r"(?<!\*)\*\*(?!\*)", words):
        at = match.start()
        before = words[at - 1] if at else " "
        after = words[at + 2] if at + 2 < len(words) else " "
        can_open = not after.isspace() and (
            not _is_punctuation(after) or before.isspace() or _is_punctuation(before)
        )
        can_close = not before.isspace() and (
            not _is_punctuation(before) or after.isspace() or _is_punctuation(after)
        )
        if can_close and opened:
            opened.pop()
        elif can_open:
            opened.append(at)
        else:
            stray.append(at)
    return [words[max(0, at - 8) : at + 10] for at in sorted(opened + stray)]


TYPESETTING_RULES = (
    spaced_references,
    half_width_brackets,
    spaces_beside_full_width_punctuation,
    doubled_punctuation,
    slanted_chinese,
    numbered_by_hand,
    unclosed_bold,
)


def typesetting(text: str) -> dict[str, list[str]]:
    """What each typesetting rule finds in a translation (the rules that find nothing left
    out)."""
    found = {rule.__name__: rule(text) for rule in TYPESETTING_RULES}
    return {name: pieces for name, pieces in found.items() if pieces}


def check(paths: list[Path] | None = None) -> int:
    """Every translated message keeps its English message's markup, a display formula's
    words are in Chinese, and the Chinese follows the typesetting rules
    (`TYPESETTING_RULES`); report what differs."""
    problems = typeset = 0
    paths = paths or catalogues() + ([COMMENTS] if COMMENTS.exists() else [])
    for path in paths:
        catalogue = read_catalogue(path)
        for message in catalogue:
            if not message.id or not message.string:
                continue
            english, chinese = markup(message.id), markup(message.string)
            if is_display_formula(message.id):
                # only the words set as \text{...} may change
                english = Counter([TEXT_IN_MATHS.sub(r"\\text{}", message.id).strip()])
                chinese = Counter(
                    [TEXT_IN_MATHS.sub(r"\\text{}", message.string).strip()]
                )
            page = page_source(path)
            unqualified = (
                qualify_glue(message.string, page, from_docstring(message))
                != message.string
            )
            left = (
                english_left_in_formula(message.string)
                if is_display_formula(message.id)
                else []
            )
            broken = typesetting(message.string)
            if broken:
                typeset += 1
                for rule, pieces in broken.items():
                    print(f"{path.relative_to(ROOT)}: {message.id[:70]!r}")
                    print(f"    {rule}: {' | '.join(repr(piece) for piece in pieces)}")
            if english != chinese or unqualified or left:
                problems += 1
                missing = english - chinese
                extra = chinese - english
                where = path.relative_to(ROOT)
                print(f"{where}: {message.id[:70]!r}")
                if missing:
                    print(f"    missing in the translation: {sorted(missing)}")
                if extra:
                    print(f"    not in the English: {sorted(extra)}")
                if unqualified:
                    print("    a glue role without its page: run `qualify`")
                if left:
                    print(f"    words of the formula left in English: {left}")
    print(
        f"{len(paths)} catalogues, {problems} messages whose markup differs or whose "
        f"formula keeps English words, {typeset} that break a typesetting rule"
    )
    return 1 if problems or typeset else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = {
        "build": build,
        "latex": latex,
        "update": update,
        "qualify": qualify,
        "check": check,
        "export": export,
        "import": import_,
    }
    parser.add_argument("command", choices=list(commands))
    parser.add_argument("arguments", nargs="*", help="export: PAGE; import: PAGE FILE")
    arguments = parser.parse_args()
    return commands[arguments.command](*arguments.arguments)


if __name__ == "__main__":
    sys.exit(main())
