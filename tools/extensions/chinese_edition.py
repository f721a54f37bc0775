"""The two editions, English and Chinese, from one set of sources (a Sphinx extension loaded
through `sphinx.local_extensions`; `tools/translations.py` builds the Chinese edition and
keeps its catalogues in step).

The English site is the root of `_build/html`; the Chinese edition is the same book built with
`language = "zh_CN"` into `_build/html/zh/`, its prose taken from the message catalogues
`locale/zh_CN/LC_MESSAGES/book/<page>.po` (Sphinx's gettext translation), its code, execution,
glued numbers and figures shared with the English build (the same execution cache).

What this extension adds to Sphinx's own translation machinery:

1. Exercise titles are translatable. sphinx-exercise builds the title of ``{exercise} Title``
   from parsed inline nodes without recording their source, so Sphinx neither extracts nor
   translates them; here each subtitle node gets its source text back.
2. A page of the Chinese edition with a message that has no translation (new English text that
   `make translations` has not brought into the catalogue, an empty or a fuzzy entry) is a
   warning, which fails the strict build: the editions cannot drift apart unnoticed.
3. Display maths, and text that holds only code, maths, references and numbers, are not
   messages: both editions show them as they are. A display formula with words in it
   (`\\text{...}`) is a message, translated here rather than by Sphinx.
4. Every page links its counterpart in the other edition (a link at the start of the page
   header's buttons, book/_templates/edition-switch.html, and a `<link rel="alternate"
   hreflang>` in its head); the role ``{other-edition}`text``` links it from the text.
5. The Chinese edition's download menu says that the chapter's source and notebook it offers
   are the English ones (the Chinese text lives in the catalogues).
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.locale import init as init_locale
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

LOGGER = logging.getLogger(__name__)

ENGLISH = "en"
# Each edition: the folder of its site below _build/html, the label of the button that
# leads to it, and the language code of the <html> element (BCP 47)
EDITIONS = {
    "en": {
        "folder": "",
        "label": "English",
        "hreflang": "en",
        "tooltip": "Read this page in English",
    },
    "zh_CN": {
        "folder": "zh/",
        "label": "中文",
        "hreflang": "zh-Hans",
        "tooltip": "阅读本页的中文版",
    },
}


def is_translation(app: Sphinx) -> bool:
    return (app.config.language or ENGLISH) != ENGLISH


def site_root(app: Sphinx) -> str:
    """The path from an edition's root up to the English site's root ('' or '../')."""
    return "../" if is_translation(app) else ""


class TranslatableExerciseTitles(SphinxTransform):
    """Give sphinx-exercise's subtitle nodes their source text, so that they are messages."""

    default_priority = 10  # before Sphinx's Locale transform (20)

    def apply(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_subtitle

        subtitles = list(self.document.findall(exercise_subtitle))
        if not subtitles:
            return
        path = Path(self.env.doc2path(self.env.docname))
        written = _exercise_titles(path)
        if len(written) != len(subtitles):  # an exercise from elsewhere: its plain text
            written = [subtitle.astext() for subtitle in subtitles]
        extracting = self.app.builder.name == "gettext"
        for subtitle, title in zip(subtitles, written, strict=True):
            subtitle.rawsource = title
            subtitle.source, subtitle.line = str(path), 0
            if extracting:
                # sphinx-exercise rebuilds its titles after this point, so the gettext
                # builder's own pass would not find this node: the message goes in now
                domain = docname_to_domain(
                    self.env.docname, self.config.gettext_compact
                )
                subtitle.uid = (
                    ""  # the catalogue wants one (Sphinx does the same for toctrees)
                )
                self.app.builder.catalogs[domain].add(title, subtitle)


# What a message may hold that is the same in every language: inline code, inline maths,
# roles (references, citations, glued numbers)
SHARED_MARKUP = re.compile(r"``[^`]*``|`[^`]*`|\$[^$]*\$|\{[\w:-]+\}`[^`]*`")


# Units a measured number may carry (a timing table's "559 µs" differs on every machine, and
# must not become a message that the next build finds untranslated)
UNITS = {"s", "ms", "µs", "μs", "ns", "min", "h", "kB", "MB", "GB", "B", "x"}


class NothingToTranslate(SphinxTransform):
    """Display maths, and text with nothing but code, maths, references and numbers in it
    (a table of package versions, a cell with a function name), are not messages: they are
    the same in both editions, and a catalogue entry for them would only go stale."""

    default_priority = 15  # before Sphinx's Locale transform (20) and its message ids

    def apply(self, **kwargs) -> None:
        for node in list(self.document.findall(nodes.TextElement)):
            if (
                isinstance(node, nodes.paragraph)
                and isinstance(node.parent, nodes.entry)
                and not node.source
            ):
                # a table cell that MyST left without a source (a table inside a dropdown)
                # would be neither extracted nor translated: it is the page's text
                node.source = self.document["source"]
            if isinstance(node, nodes.math_block):
                if WORDS_IN_MATHS in node.astext():
                    self.translate_words_in_maths(node)
                else:
                    node["translatable"] = False
            elif isinstance(node, (nodes.paragraph, nodes.title, nodes.caption)):
                text = SHARED_MARKUP.sub("", node.rawsource or node.astext())
                words = {
                    word
                    for word in re.findall(r"[^\W\d_]+", text)
                    if any(character.isalpha() for character in word)  # not "⁴"
                }
                if words <= UNITS:  # numbers, maybe with a unit: "559 µs", "4.1 × 10⁻⁴"
                    node["translatable"] = False

    def translate_words_in_maths(self, node: nodes.math_block) -> None:
        """A display formula with words in it (``\\text{share of slow pairs}``) is a
        message, whose translation changes those words only (`tools/translations.py check`).
        Sphinx would set a translated formula as a literal block, so the translation puts it
        in place here, and Sphinx leaves the node alone."""
        if not is_translation(self.app):
            return  # the English, or the gettext builder extracting the message
        message = node.rawsource or node.astext()
        known = getattr(page_catalogue(self.app, self.env.docname), "_catalog", {})
        if message not in known:
            _untranslated(node, message)
        else:
            node.children = [nodes.Text(known[message])]
            node.rawsource = known[message]
        node["translatable"] = False


# What makes a display formula a message: words set as text inside it
WORDS_IN_MATHS = "\\text{"


class TranslatedPartCaptions(SphinxTransform):
    """The captions of the table of contents' parts ("Part I: Why sinusoids"), in the
    translation. sphinx-external-toc inserts the root page's toctrees (priority 100) after
    Sphinx has translated the page (20); the captions are messages of that page."""

    default_priority = 101

    def apply(self, **kwargs) -> None:
        if not is_translation(self.app):
            return
        catalogue = None
        for toctree in self.document.findall(addnodes.toctree):
            caption = toctree.get("caption")
            if not caption:
                continue
            catalogue = catalogue or page_catalogue(self.app, self.env.docname)
            translated = catalogue.gettext(caption)
            if translated == caption:
                _untranslated(toctree, caption)
            toctree["caption"] = translated


class RequireTranslatedExerciseTitles(SphinxTransform):
    """The check of `require_translations` for exercise titles, right after Sphinx has
    translated the page: sphinx-exercise rebuilds its titles later, out of its reach."""

    default_priority = 21  # after Sphinx's Locale transform (20)

    def apply(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_subtitle

        if not is_translation(self.app):
            return
        known = getattr(page_catalogue(self.app, self.env.docname), "_catalog", {})
        for subtitle in self.document.findall(exercise_subtitle):
            if subtitle.rawsource not in known and not subtitle.get("translated"):
                _untranslated(subtitle, subtitle.rawsource)


def _exercise_titles(path: Path) -> list[str]:
    """The titles of a page's exercises as written, markup included, in page order."""
    titles = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        for fence in ("```{exercise}", ":::{exercise}"):
            if text.startswith(fence) and text[len(fence) :].strip():
                titles.append(text[len(fence) :].strip())
    return titles


def page_catalogue(app: Sphinx, docname: str) -> gettext.NullTranslations:
    """The compiled catalogue Sphinx translates this page with (its .po, made a .mo)."""
    domain = docname_to_domain(docname, app.config.gettext_compact)
    directories = [
        str(Path(app.srcdir) / directory) for directory in app.config.locale_dirs
    ]
    catalogue, _ = init_locale(directories, app.config.language, domain)
    return catalogue


def require_translations(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """In a translation, a message shown without a translation is a warning (a failed
    build). Run on the page as it will be written (`doctree-resolved`), so that the outputs
    MyST-NB does not show (a figure's PNG beside its SVG) are not asked for.
    """
    if not is_translation(app):
        return
    known = getattr(page_catalogue(app, docname), "_catalog", {})
    built_in = sphinx_words(app)
    for node, message in extract_messages(doctree):
        if message in built_in:  # Sphinx's own words, already in the language
            continue
        if message and message not in known and not node.get("translated"):
            _untranslated(node, message)


def sphinx_words(app: Sphinx) -> set[str]:
    """The words Sphinx and its extensions write in the page's language themselves
    ("参数" for a docstring's Parameters, say): they come translated, from their own
    catalogues."""
    from sphinx.locale import translators

    words = set()
    for translator in translators.values():
        words.update(
            text for text in getattr(translator, "_catalog", {}).values() if text
        )
    return words


def _untranslated(node: nodes.Node, message: str) -> None:
    LOGGER.warning(
        "no translation for %r (run `make translations`, then translate the message "
        "in locale/)",
        message[:80],
        location=node,
        type="posenc",
        subtype="translation",
    )


def link_other_edition(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """The page's counterpart: `other_edition` for book/_templates/edition-switch.html (a
    link in the article header) and a `<link rel="alternate" hreflang>` per edition.
    """
    if app.builder.format != "html":
        return
    language = app.config.language or ENGLISH
    up = "../" * pagename.count("/") + site_root(app)
    alternates = []
    for code, edition in EDITIONS.items():
        url = f"{up}{edition['folder']}{pagename}.html"
        alternates.append(
            f'<link rel="alternate" hreflang="{edition["hreflang"]}" href="{url}" />'
        )
        if code != language:
            context["other_edition"] = {**edition, "url": url}
    context["metatags"] = context.get("metatags", "") + "\n".join(alternates)


def other_edition_role(
    name, rawtext, text, lineno, inliner, options=None, content=None
):
    """``{other-edition}`text```: a link to this page in the other edition."""
    env = inliner.document.settings.env
    language = env.config.language or ENGLISH
    other = next(code for code in EDITIONS if code != language)
    up = "../" * env.docname.count("/") + site_root(env.app)
    url = f"{up}{EDITIONS[other]['folder']}{env.docname}.html"
    reference = nodes.reference(rawtext, text, refuri=url)
    reference["classes"].append("posenc-other-edition")
    return [reference], []


# The download menu's items that are the same files in both editions, and what the Chinese
# edition says of them: they are in English
ENGLISH_DOWNLOADS = {
    "download-source-button": (
        "（英文）",
        "本章的源文件（MyST Markdown，英文原文；中文译文在 locale/zh_CN 中）",
    ),
    "download-notebook-button": ("（英文）", "本章执行后的 notebook（英文）"),
    # notebook_downloads.py's items: the files are the same, their tooltips Chinese
    "download-posenc-button": ("", "posenc 库：运行本章 notebook 所需"),
    "download-constraints-button": ("", "构建本书时所用的各个依赖版本"),
    "download-lab-button": ("", "构建本书时所用的 JupyterLab 版本"),
}


def label_english_downloads(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """`html-page-context`, after the theme's header buttons: in the Chinese edition, the
    download menu's source and notebook say that they are English."""
    if not is_translation(app):
        return
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        for button in group["buttons"]:
            if button.get("label") in ENGLISH_DOWNLOADS:
                suffix, tooltip = ENGLISH_DOWNLOADS[button["label"]]
                button["text"] = button["text"] + suffix
                button["tooltip"] = tooltip


class ChineseExerciseTitles(SphinxPostTransform):
    """In the Chinese edition, an exercise's title in full-width brackets, 练习 1.1（因果掩码本身
    就是位置信息）, and its solution's as Chinese says it, 练习 1.1 的解答（…）, linked to the
    exercise. sphinx-exercise writes 练习 1.1 (…) and 解答 练习 1.1 (…), the latter with the
    exercise's English title (its registry keeps the exercise as it was read, before
    translation); the translated title is the exercise's on the same page. A solution whose
    exercise is on another page is a warning."""

    default_priority = 23  # after sphinx-exercise's titles (20, 21) and link texts (22)

    def run(self, **kwargs) -> None:
        if not is_translation(self.app):
            return
        from sphinx_exercise.nodes import (
            exercise_enumerable_node,
            exercise_node,
            solution_node,
        )

        exercises = {}
        for node in self.document.findall(
            lambda n: isinstance(n, exercise_enumerable_node | exercise_node)
        ):
            title = node[0]
            if (
                len(title) >= 2
                and title[0].astext() == " ("
                and title[-1].astext() == ")"
            ):
                title[0], title[-1] = nodes.Text("（"), nodes.Text("）")
            exercises[node.get("label")] = title
        for node in self.document.findall(solution_node):
            title = node[0]
            links = [child for child in title if isinstance(child, nodes.reference)]
            exercise = exercises.get(node.get("target_label"))
            if exercise is None or len(links) != 1:
                LOGGER.warning(
                    "the solution %r: no exercise %r on its page to take the Chinese "
                    "title from",
                    node.get("label"),
                    node.get("target_label"),
                    location=node,
                )
                continue
            number = re.match(r"\s*(\S+ [\d.]+)", links[0].astext())
            link = links[0].copy()  # its target, without its text
            link += nodes.Text(f"{number.group(1) if number else ''} 的解答")
            link += [child.deepcopy() for child in exercise.children]
            title.children = []
            title += link


CAPTION_NUMBER_SPACE = re.compile(r'(class="caption-number">[^<]*?) </span>\s*(?=（)')


def no_space_before_full_width_brackets(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """`html-page-context`, in the Chinese edition: Sphinx ends a number's label with a space
    (练习 1.1 ), which before a full-width bracket reads as a gap (练习 1.1 （…）)."""
    if is_translation(app) and "body" in context:
        context["body"] = CAPTION_NUMBER_SPACE.sub(r"\1</span>", context["body"])


# MyST-NB's titles of a folded cell, by what is folded (its `{type}`: the source of a
# `hide-input` cell, the whole of a `hide-cell` one, the outputs of a `hide-output` one), and
# the label of its fold for screen readers, written in English by MyST-NB's HTML visitor
CODE_CELL_PROMPTS = {
    "Show code cell source": "显示代码",
    "Hide code cell source": "隐藏代码",
    "Show code cell content": "显示单元格",
    "Hide code cell content": "隐藏单元格",
    "Show code cell outputs": "显示输出",
    "Hide code cell outputs": "隐藏输出",
    "Show code cell output": "显示输出",
    "Hide code cell output": "隐藏输出",
}
CODE_CELL_FOLD_LABEL = "展开或收起"


def chinese_code_cell_folds(app: Sphinx) -> None:
    """`builder-inited`, in the Chinese edition: MyST-NB's folded code cells titled and
    labelled in Chinese. MyST-NB's visitor writes the aria-label in English and takes the
    titles from two settings whose `{type}` it fills with an English word; here the same
    HTML is written with the Chinese of each title. A title this table does not know (a
    MyST-NB that words them otherwise) is a warning, which fails the strict build."""
    if not is_translation(app) or app.builder.format != "html":
        return
    from html import escape

    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput

    def visit(self, node) -> None:
        titles = []
        for key in ("prompt_show", "prompt_hide"):
            if node[key] not in CODE_CELL_PROMPTS:
                LOGGER.warning(
                    "no Chinese for MyST-NB's folded-cell title %r "
                    "(chinese_edition.CODE_CELL_PROMPTS)",
                    node[key],
                    location=node,
                )
            titles.append(escape(CODE_CELL_PROMPTS.get(node[key], node[key])))
        classes = " ".join(node["classes"])
        self.body.append(f'<details class="admonition hide {classes}">\n')
        self.body.append(f'<summary aria-label="{CODE_CELL_FOLD_LABEL}">\n')
        self.body.append(f'<p class="collapsed admonition-title">{titles[0]}</p>\n')
        self.body.append(f'<p class="expanded admonition-title">{titles[1]}</p>\n')
        self.body.append("</summary>\n")

    app.add_node(HideCodeCellNode, override=True, html=(visit, depart_HideCellInput))


def quiet_word_splitter(app: Sphinx, config) -> None:
    """jieba (Sphinx's Chinese search index splits words with it) logs its dictionary loading
    at DEBUG level to stderr; only its warnings belong in the build log."""
    if config.html_search_language == "zh" or str(config.language).startswith("zh"):
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", quiet_word_splitter)
    app.connect("builder-inited", chinese_code_cell_folds)
    app.add_post_transform(ChineseExerciseTitles)
    app.connect("html-page-context", no_space_before_full_width_brackets)
    app.add_role("other-edition", other_edition_role)
    app.add_transform(TranslatableExerciseTitles)
    app.add_transform(NothingToTranslate)
    app.add_transform(TranslatedPartCaptions)
    app.add_transform(RequireTranslatedExerciseTitles)
    app.connect("doctree-resolved", require_translations)
    app.connect("html-page-context", link_other_edition)
    app.connect("html-page-context", label_english_downloads, priority=700)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
