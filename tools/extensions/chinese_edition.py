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
6. A reference to a chapter or a section cites it as Chinese running text does, with its
   number and its title in quotation marks: ``{ref}`ch05-decay-integral``` renders
   第 5 章《从和到积分》, a section 第 7.1 节“为什么底数是 10000”, an appendix 附录 B《…》
   (`NumberedSectionReferences`). The numbers are Sphinx's own (the toc's section numbers,
   lettered for the appendices by sphinx_patches.py), read when the reference is resolved, so
   they cannot drift from the headings; a reference with its own text
   (``{ref}`上面的单元格 <label>```) is left as written. `tools/translations.py check` refuses
   a number or quotation marks typed around such a reference (they would be said twice).
   Chosen as the plainest robust way: a translator writes the plain ``{ref}`` the English
   writes, with no role of the edition's own to learn, and no number is typed that a new
   section could make wrong (a number a translator does type, in a reference's own text, is
   checked against the English build by tests/test_editions.py: it found one wrong).
7. Statement, exercise and solution titles are set as Chinese: 定理 1.1（标题）, 练习 1.1（标题）
   and 练习 1.1 的解答（标题）, where sphinx-proof, sphinx-exercise and Sphinx's writer gave
   定理 1.1 （…）, 练习 1.1 (…) and 解答 练习 1.1(English title)
   (`chinese_admonition_titles`).
8. A parenthetical citation is set in full-width brackets, （Vaswani et al. 2017）
   (`full_width_citations`).
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
from sphinx.util.nodes import clean_astext, extract_messages

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
# ... but for the text a reference gives itself (``{ref}`learned <ch10-learned>```): words the
# page shows, which the Chinese edition says in Chinese
OWN_TEXT_REFERENCE = re.compile(r"\{(?:ref|doc|prf:ref|term)\}`([^`<]*?)\s*<[^`>]*>`")


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
                text = OWN_TEXT_REFERENCE.sub(r" \1 ", node.rawsource or node.astext())
                text = SHARED_MARKUP.sub("", text)
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


class NumberedSectionReferences(SphinxPostTransform):
    """In the Chinese edition, a ``{ref}`` (or ``{doc}``) without its own text that leads to a
    chapter or a section renders its number and quoted title (see the module's docstring,
    item 6): Sphinx would render the bare title, which in Chinese running text reads as
    part of the sentence (第二部分从 从和到积分 开始解释). Run before Sphinx resolves the
    reference (its priority 10): the reference gets this text as its own."""

    default_priority = 5

    def run(self, **kwargs) -> None:
        if not is_translation(self.app):
            return
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("refdomain") != "std" or node.get("refexplicit"):
                continue
            if node.get("reftype") == "ref":
                found = self.section_of_label(node["reftarget"])
            elif node.get("reftype") == "doc":
                found = self.page(node)
            else:
                continue
            if found is None:
                continue
            if self.opens_numbered_item(node):
                docname, _, title, is_page = found
                found = (docname, None, title, is_page)  # the list numbers it
            text = cited_title(*found)
            node["refexplicit"] = True
            classes = node.children[0].get("classes", []) if node.children else []
            node.children = [nodes.inline(text, text, classes=classes)]

    @staticmethod
    def opens_numbered_item(node) -> bool:
        """Whether the reference opens an item of a numbered list (the intro's map of the
        book: "1. {ref}`ch01-symmetry`: …"): the list gives the number, so the reference is
        its quoted title alone (1. 《对称性问题》：…, not 1. 第 1 章《对称性问题》)."""
        paragraph = node.parent
        item = paragraph.parent if paragraph is not None else None
        return (
            isinstance(item, nodes.list_item)
            and isinstance(item.parent, nodes.enumerated_list)
            and item.index(paragraph) == 0
            and paragraph.index(node) == 0
        )

    def section_of_label(self, label: str):
        """(page, section numbers, title, whether it is the page's title) of a label that
        names a section, or None."""
        labels = self.env.domaindata["std"]["labels"]
        if label not in labels:
            return None
        docname, labelid, title = labels[label]
        target = self.env.get_doctree(docname).ids.get(labelid)
        if not isinstance(target, nodes.section) or not title:
            return None
        is_page = isinstance(target.parent, nodes.document)
        anchor = "" if is_page else "#" + target["ids"][0]
        number = self.env.toc_secnumbers.get(docname, {}).get(anchor)
        return docname, number, title, is_page

    def page(self, node):
        from sphinx.util import docname_join

        docname = docname_join(node.get("refdoc", self.env.docname), node["reftarget"])
        if docname not in self.env.titles:
            return None
        title = clean_astext(self.env.titles[docname])
        return docname, self.env.toc_secnumbers.get(docname, {}).get(""), title, True


def cited_title(docname: str, number, title: str, is_page: bool) -> str:
    """How Chinese running text cites a chapter (第 5 章《从和到积分》), a section (第 5.3 节
    “标题”), an appendix (附录 B《特殊函数》) or a section of one (附录 B.2 节“标题”); a page
    or section without a number by its quoted title alone. Quotation marks in the title become
    the inner ones (‘’, 〈〉)."""
    if is_page:
        quoted = f"《{title.replace('《', '〈').replace('》', '〉')}》"
    else:  # quotation marks inside quotation marks are single: “‘远程衰减’承诺了什么”
        quoted = f"“{title.replace('“', '‘').replace('”', '’')}”"
    if not number:
        return quoted
    digits = ".".join(str(part) for part in number)
    if not str(number[0]).isdigit():  # an appendix (sphinx_patches.py letters them)
        return f"附录 {digits}{quoted}" if is_page else f"附录 {digits} 节{quoted}"
    return f"第 {digits} 章{quoted}" if is_page else f"第 {digits} 节{quoted}"


# A theorem-like statement's or an exercise's title as Sphinx's HTML writer and
# sphinx-proof/sphinx-exercise write it: the number in a span with a space after it, then the
# title in brackets (full-width from sphinx-proof's catalogue, half-width from sphinx-exercise)
NUMBERED_TITLE = re.compile(
    r'(<p class="admonition-title"><span class="caption-number">[^<]*?)\s*</span>'
    r"\s*[(（](.*?)[)）]</p>",
    re.S,
)
# sphinx-exercise's title of a solution: "解答", then a link to the exercise holding its
# number and the exercise's title, which it takes from the English source
SOLUTION_TITLE = re.compile(
    r'<p class="admonition-title">(?P<word>[^<]*?)<a class="reference internal" '
    r'href="#(?P<target>[^"]+)">\s*(?P<number>[^<(（]*?)\s*(?:[(（].*?[)）])?</a></p>',
    re.S,
)


def chinese_admonition_titles(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    """`html-page-context`, in the Chinese edition: statement and exercise titles read
    定理 1.1（标题）, no space before the full-width bracket and no half-width bracket
    (sphinx-proof and Sphinx write 定理 1.1 （…）, sphinx-exercise 练习 1.1 (…)); a
    solution's title reads 练习 1.1 的解答（标题）, with the exercise's title as the page
    shows it in Chinese (sphinx-exercise wrote 解答 练习 1.1(English title), the title taken
    from the English source). Done on the page's HTML, where the writers put these together."""
    if not is_translation(app) or "body" not in context:
        return
    body = NUMBERED_TITLE.sub(r"\1</span>（\2）</p>", context["body"])
    titles = {}  # an exercise's id: its Chinese title as the page shows it
    for match in re.finditer(
        r'<div class="exercise[^"]*" id="([^"]+)">\s*<p class="admonition-title">'
        r'<span class="caption-number">[^<]*</span>（(.*?)）</p>',
        body,
        re.S,
    ):
        titles[match.group(1)] = match.group(2)

    def solution(match: re.Match) -> str:
        title = titles.get(match["target"])
        suffix = f"（{title}）" if title else ""
        return (
            f'<p class="admonition-title"><a class="reference internal" '
            f'href="#{match["target"]}">{match["number"]}</a>'
            f" 的{match['word'].strip()}{suffix}</p>"
        )

    context["body"] = SOLUTION_TITLE.sub(solution, body)


# A parenthetical citation as sphinxcontrib-bibtex writes it with bibstyle.py's style:
# (<a …>Vaswani et al. 2017</a>), several separated by "; "
PARENTHETICAL_CITATION = re.compile(
    r'(<span class="bibtex-citation"[^>]*>)\((.*?)\)</span>', re.S
)


def full_width_citations(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """`html-page-context`, in the Chinese edition: a parenthetical citation inside Chinese
    text is set in full-width brackets, （Vaswani et al. 2017）, as every other bracket of a
    Chinese sentence (the catalogues write no space around it: translations.py check). A
    textual citation, Vaswani et al. (2017), is a Latin phrase and keeps its brackets,
    unless its author is Chinese: 苏剑林（2021）."""
    if not is_translation(app) or "body" not in context:
        return
    body = PARENTHETICAL_CITATION.sub(r"\1（\2）</span>", context["body"])
    context["body"] = CHINESE_TEXTUAL_CITATION.sub(r"\1\2（\3）</span>", body)


# A textual citation of a work written in Chinese (bibstyle.py's Chinese style cites it by its
# Chinese author): 苏剑林 (2021) is set as Chinese text sets it, 苏剑林（2021）
CHINESE_TEXTUAL_CITATION = re.compile(
    r'(<span class="bibtex-citation"[^>]*>)([\u4e00-\u9fff]+) \((.*?)\)</span>', re.S
)


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
        # each catalogue of a domain, the project's first (locale/zh_CN/.../sphinx.po),
        # then Sphinx's and the themes' as its fallbacks
        while translator is not None:
            catalogue = getattr(translator, "_catalog", {})
            words.update(text for text in catalogue.values() if text)
            translator = getattr(translator, "_fallback", None)
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
    app.add_js_file(None, body=SCREEN_READER_LABELS_JS)


# Labels that the themes and sphinx-togglebutton write in English where no setting or message
# reaches them (togglebutton's script writes its buttons' label itself; sphinx-book-theme's
# templates name two navigation landmarks), put into Chinese once the page has loaded: this
# listener runs after togglebutton's, which was registered first.
SCREEN_READER_LABELS_JS = """document.addEventListener("DOMContentLoaded", () => {
  const chinese = {"Toggle hidden content": "展开或收起隐藏的内容",
                   "Main": "全书目录", "Page": "本页目录"};
  for (const element of document.querySelectorAll("[aria-label]")) {
    const label = chinese[element.getAttribute("aria-label")];
    if (label) element.setAttribute("aria-label", label);
  }
});"""


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
    app.add_role("other-edition", other_edition_role)
    app.add_transform(TranslatableExerciseTitles)
    app.add_transform(NothingToTranslate)
    app.add_transform(TranslatedPartCaptions)
    app.add_transform(RequireTranslatedExerciseTitles)
    app.add_post_transform(NumberedSectionReferences)
    app.connect("doctree-resolved", require_translations)
    app.connect("html-page-context", link_other_edition)
    app.connect("html-page-context", label_english_downloads, priority=700)
    app.connect("html-page-context", chinese_admonition_titles)
    app.connect("html-page-context", full_width_citations)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
