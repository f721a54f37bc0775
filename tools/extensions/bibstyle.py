"""The book's bibliography style (a Sphinx extension loaded through `sphinx.local_extensions`).

sphinxcontrib-bibtex prints each reference-list entry with the label of a pybtex formatting style;
its default (alpha) made labels such as [VSP+17] or [Anonymousbauthor22] that match nothing in
the author-year citations of the text. Following sphinxcontrib-bibtex's documented way to add
styles (pybtex's and its own plugin registries), this module registers:

- `posenc`, a pybtex formatting style (``bibtex_default_style``): the label is the citation
  itself, "Vaswani et al. 2017" ("Su 2024a", "Su 2024b" when an author has two works in one
  year); the entry after it does not repeat the year; titles keep their capitalisation
  (article titles in quotes, book and proceedings titles in italics); more than ten authors are
  cut to seven and "et al."; arXiv ids, DOIs and URLs are links. Entries are sorted as their
  labels read: organisations by their name without braces or a leading "The", people by last
  name; one author before two before more; then year and title.
- `posenc`, a sphinxcontrib-bibtex referencing style (``bibtex_reference_style``): ``{cite:t}``
  gives "Vaswani et al. (2017)", ``{cite}``/``{cite:p}`` gives "(Vaswani et al. 2017)"; both
  are cut from the entry's label, so the text and the list always agree.
- `posenc-zh`, the formatting style of the Chinese edition, which `setup` puts in place of
  `posenc` when the build's language is Chinese (tools/translations.py). It is `posenc` with
  one mechanism added: a field ``zh<name>`` of references.bib (``zhnote``, ``zhhowpublished``,
  ``zhauthor``, ``zhtitle``) is the Chinese text of the field ``<name>``.

  * The texts written for this book, ``note`` and ``howpublished`` ("Blog post", "Preprint",
    "First posted in 2021 as a preprint"), are printed in Chinese, each in a
    ``<span class="posenc-bib-note">`` (only in this edition; the English is as it was).
    The note, a Chinese sentence, closes the entry (after its links), ended by "。". An entry
    with a ``note`` or a ``howpublished`` and no Chinese twin is a warning, which fails the
    strict build, as an untranslated message does.
  * Chinese sources (``langid = {chinese}``: Su Jianlin's posts on kexue.fm and the
    anonymous source notes) are printed as GB/T 7714 prints them, with its marks: the author in
    Chinese, the title in 《》, then the venue: 苏剑林.《Transformer升级之路：1、Sinusoidal位置
    编码追根溯源》. 科学空间. Their labels and citations name the Chinese author ("苏剑林
    2021", "佚名博主 2023"; several authors: "张三等"), and they come first in the list
    (GB/T 7714 groups the references by language), in the pinyin order of their authors
    (``zhsortkey``, else the English name, which for a Chinese person is the pinyin).
    Western works keep their names, "and" and "et al." (GB/T 7714's rule for Western
    authors), titles and venues as published.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pybtex.plugin
from pybtex.backends.plaintext import Backend as PlainTextBackend
from pybtex.richtext import Symbol, Text
from pybtex.style import FormattedEntry
from pybtex.style.formatting import toplevel
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.template import (
    FieldIsMissing,
    field,
    first_of,
    href,
    join,
    node,
    optional,
    optional_field,
    sentence,
    tag,
    words,
)
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import (
    BaseReferenceStyle,
    BracketStyle,
    GroupReferenceStyle,
)
from sphinxcontrib.bibtex.style.referencing.basic_label import (
    BasicLabelParentheticalReferenceStyle,
)
from sphinxcontrib.bibtex.style.referencing.extra_empty import ExtraEmptyReferenceStyle
from sphinxcontrib.bibtex.style.referencing.extra_label import ExtraLabelReferenceStyle
from sphinxcontrib.bibtex.style.template import join2, post_text, pre_text, reference

NAME = "posenc"
CHINESE_NAME = "posenc-zh"  # the formatting style of the Chinese edition
NOTE_TAG = "posenc-bib-note"  # the class of a note's <span> in the Chinese edition
# the fields of references.bib that are this book's own prose, not the work's bibliographic
# data: each needs a Chinese twin zh<name> (a Chinese source also needs zhauthor and zhtitle)
PROSE_FIELDS = ("howpublished", "note")
MAX_AUTHORS, KEPT_AUTHORS = 10, 7  # longer author lists become seven names and "et al."
LABEL_SPLIT = re.compile(r"^(?P<author>.+) (?P<year>\S+)$")


# One plain-text backend for every name and field: Text.render_as("text") would look the
# backend up among the entry points of every installed package on each call (about 10 ms; 8 s
# of each build of the bibliography page).
PLAIN_TEXT = PlainTextBackend()


@functools.cache
def _plain(latex: str) -> str:
    """A BibTeX name or field as plain text: braces and accents commands resolved."""
    return Text.from_latex(latex).render(PLAIN_TEXT)


def _last(person) -> str:
    """A person's name as a label shows it: last names ("de Doncker-Kapenga"), or the whole
    name of an organisation ("PyTorch contributors"), which BibTeX keeps in braces."""
    return " ".join(_plain(part) for part in person.prelast_names + person.last_names)


def _people(entry):
    for role in ("author", "editor"):
        if entry.persons.get(role):
            return entry.persons[role]
    return []


def is_chinese_source(entry) -> bool:
    """A work written in Chinese (``langid = {chinese}``)."""
    return entry.fields.get("langid", "").strip().casefold() == "chinese"


def chinese_authors(entry) -> list[str]:
    """The Chinese names of a Chinese source's authors (``zhauthor``, "A and B")."""
    return [name.strip() for name in _plain(entry.fields["zhauthor"]).split(" and ")]


def missing_chinese(entries) -> list[str]:
    """The entries of ``entries`` (pybtex's, by key) that lack a Chinese twin of one of their
    prose fields (or, for a Chinese source, of its author or title): "key: zhnote, ..."."""
    missing = []
    for key, entry in entries.items():
        wanted = [name for name in PROSE_FIELDS if name in entry.fields]
        if is_chinese_source(entry):
            wanted += ["author", "title"]
        absent = [
            f"zh{name}"
            for name in wanted
            if not entry.fields.get(f"zh{name}", "").strip()
        ]
        if absent:
            missing.append(f"{key}: {', '.join(absent)}")
    return missing


def label_author(entry, chinese: bool = False) -> str:
    """The author part of a label; ``chinese``: in the Chinese edition (a Chinese source is
    cited by its authors' Chinese names, GB/T 7714's 等 after the first of several)."""
    if chinese and is_chinese_source(entry) and entry.fields.get("zhauthor"):
        names = chinese_authors(entry)
        return names[0] if len(names) == 1 else f"{names[0]}等"
    people = _people(entry)
    if not people:
        return _plain(entry.fields.get("title", entry.key))
    if len(people) == 1:
        return _last(people[0])
    if len(people) == 2:
        return f"{_last(people[0])} and {_last(people[1])}"
    return f"{_last(people[0])} et al."


def _sortable(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"^the\s+", "", text.casefold())


class AuthorYearLabels(BaseLabelStyle):
    """ "Author 2017", "Author and Other 2019", "Author et al. 2020"; "2024a", "2024b" when two
    works would share a label (in the order of the sorted list)."""

    chinese = False  # the labels of the Chinese edition

    def format_labels(self, sorted_entries):
        labels = [
            f"{label_author(e, self.chinese)} {e.fields.get('year', 'n.d.')}"
            for e in sorted_entries
        ]
        repeated = {label for label in labels if labels.count(label) > 1}
        seen: dict[str, int] = {}
        for label in labels:
            if label in repeated:
                seen[label] = seen.get(label, 0) + 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            else:
                yield label


class AuthorNameSorting(BaseSortingStyle):
    """In the order of the labels: first author, then one author before two before more (the
    second author breaks ties between pairs), then year and title."""

    def sorting_key(self, entry):
        people = [
            (
                _sortable(_last(p)),
                _sortable(" ".join(map(_plain, p.first_names + p.middle_names))),
            )
            for p in _people(entry)
        ]
        first = (
            people[0]
            if people
            else (_sortable(_plain(entry.fields.get("title", ""))), "")
        )
        second = people[1] if len(people) == 2 else ("", "")
        return (
            first,
            min(len(people), 3),
            second,
            entry.fields.get("year", ""),
            _sortable(_plain(entry.fields.get("title", ""))),
        )


class ChineseLabels(AuthorYearLabels):
    chinese = True


class ChineseSorting(AuthorNameSorting):
    """Chinese sources first, in the pinyin order of their authors (``zhsortkey``, else the
    English name), then year and title; then the other works as in the English edition."""

    def sorting_key(self, entry):
        if not is_chinese_source(entry):
            return (1, super().sorting_key(entry))
        pinyin = entry.fields.get("zhsortkey") or " ".join(
            _last(person) for person in _people(entry)
        )
        title = entry.fields.get("zhtitle", entry.fields.get("title", ""))
        return (
            0,
            (_sortable(_plain(pinyin)), entry.fields.get("year", ""), _plain(title)),
        )


@node
def author_list(children, context, role="author"):
    """All names ("A, B and C"), or the first seven and "et al." when there are more than ten."""
    assert not children
    persons = context["entry"].persons.get(role)
    if not persons:
        raise FieldIsMissing(role, context["entry"])
    style = context["style"]
    names = [style.format_name(person, style.abbreviate_names) for person in persons]
    if len(names) > MAX_AUTHORS:
        return Text(
            join(sep=", ")[names[:KEPT_AUTHORS]].format_data(context), ", et al."
        )
    return join(sep=", ", sep2=" and ", last_sep=" and ")[names].format_data(context)


def dashify(text):
    return Text(Symbol("ndash")).join(text.split(re.compile(r"-+")))


pages = field("pages", apply_func=dashify)


class BookStyle(UnsrtStyle):
    """Reference-list entries that read like a book's; the year is in the label only."""

    default_label_style, default_sorting_style = AuthorYearLabels, AuthorNameSorting

    # pieces -------------------------------------------------------------------------------
    def format_names(self, role, as_sentence=True):
        return (
            sentence[author_list(role=role)] if as_sentence else author_list(role=role)
        )

    def format_title(self, e, which_field, as_sentence=True):
        """An article's title as written (no forced lower case), in quotes."""
        return join["\u201c", sentence[field(which_field)], "\u201d"]

    def format_web_refs(self, e):
        return sentence[
            optional[self.format_eprint(e)],
            optional[self.format_doi(e)],
            optional[self.format_url(e)],
        ]

    def format_url(self, e):
        return href[
            field("url", raw=True), field("url", raw=True, apply_func=_short_url)
        ]

    def format_howpublished(self, e):
        return sentence[optional_field("howpublished")]

    def format_note(self, e):
        return sentence[optional_field("note")]

    def entry(self, *parts):
        """The entry's parts, each a sentence, in order (none that is None)."""
        return toplevel[[part for part in parts if part is not None]]

    # entry types --------------------------------------------------------------------------
    def get_article_template(self, e):
        volume = first_of[
            optional[
                join[field("volume"), optional[" (", field("number"), ")"], ": ", pages]
            ],
            optional[join[field("volume"), optional[" (", field("number"), ")"]]],
            optional[pages],
        ]
        return self.entry(
            self.format_names("author"),
            self.format_title(e, "title"),
            sentence[words[tag("em")[field("journal")], optional[volume]]],
            self.format_note(e),
            self.format_web_refs(e),
        )

    def get_inproceedings_template(self, e):
        return self.entry(
            self.format_names("author"),
            self.format_title(e, "title"),
            words["In", sentence[tag("em")[field("booktitle")], optional[pages]]],
            self.format_note(e),
            self.format_web_refs(e),
        )

    def get_book_template(self, e):
        return self.entry(
            self.format_author_or_editor(e),
            sentence[tag("em")[field("title")]],
            optional[sentence[words[field("series"), optional[field("volume")]]]],
            optional[sentence[words[field("edition"), "edition"]]],
            sentence[field("publisher")],
            self.format_note(e),
            self.format_web_refs(e),
        )

    def get_misc_template(self, e):
        return self.entry(
            optional[self.format_names("author")],
            optional[self.format_title(e, "title")],
            self.format_howpublished(e),
            self.format_note(e),
            self.format_web_refs(e),
        )


@node
def chinese_author_list(children, context):
    """A Chinese source's authors as GB/T 7714 lists them: "甲, 乙, 丙", the first three
    and ", 等" when there are more."""
    assert not children
    names = chinese_authors(context["entry"])
    if len(names) > 3:
        return Text(", ".join(names[:3]), ", 等")
    return Text(", ".join(names))


class ChineseBookStyle(BookStyle):
    """The Chinese edition's entries: the book's own texts in Chinese, Chinese sources as
    GB/T 7714 prints them (see the module's docstring)."""

    default_label_style, default_sorting_style = ChineseLabels, ChineseSorting

    def format_howpublished(self, e):
        # a text of this book, marked as such; "." is one of GB/T 7714's marks
        return sentence[optional[tag(NOTE_TAG)[field("zhhowpublished")]]]

    def format_note(self, e):
        return None  # a Chinese sentence: it closes the entry (entry)

    def entry(self, *parts):
        note = optional[tag(NOTE_TAG)[join[field("zhnote"), "\u3002"]]]
        return super().entry(*parts, note)

    def get_chinese_template(self, e):
        # 苏剑林.《Transformer升级之路：…》. 科学空间. kexue.fm/archives/8231. 本书……。
        return self.entry(
            join[chinese_author_list, ".\u300a", field("zhtitle"), "\u300b."],
            self.format_howpublished(e),
            self.format_web_refs(e),
        )

    def format_entry(self, label, entry, bib_data=None):
        # (a Chinese source without its Chinese author or title, which the build reports,
        # is printed as the English edition prints it)
        chinese = all(entry.fields.get(name) for name in ("zhauthor", "zhtitle"))
        if not (is_chinese_source(entry) and chinese):
            return super().format_entry(label, entry, bib_data)
        context = {"entry": entry, "style": self, "bib_data": bib_data}
        text = self.get_chinese_template(entry).format_data(context)
        return FormattedEntry(entry.key, text, label)


def _short_url(text):
    """A URL as the reader sees it: without the scheme and a trailing slash."""
    return Text(re.sub(r"^https?://(www\.)?|/$", "", str(text)))


# in-text citations cut from the label -----------------------------------------------------
def _label_part(data, part: str) -> Text:
    label = data["formatted_entry"].label
    match = LABEL_SPLIT.match(label)
    return Text(match.group(part) if match else label)


@node
def cited_author(children, data):
    assert not children
    return _label_part(data, "author")


@node
def cited_year(children, data):
    assert not children
    return _label_part(data, "year")


@dataclass
class TextualStyle(BaseReferenceStyle):  # Vaswani et al. (2017)
    bracket: BracketStyle = dataclasses.field(
        default_factory=lambda: BracketStyle(left="(", right=")")
    )

    def role_names(self) -> Iterable[str]:
        return ["t", "ts", "ct", "cts"]

    def outer(self, role_name, children):
        return self.bracket.outer(children, brackets=False, capfirst="c" in role_name)

    def inner(self, role_name):
        return join(sep=" ")[
            cited_author,
            join[
                self.bracket.left,
                join2(sep1=" ", sep2=", ")[pre_text, reference[cited_year], post_text],
                self.bracket.right,
            ],
        ]


@dataclass
class AuthorStyle(BaseReferenceStyle):  # {cite:author}, {cite:year}
    def role_names(self) -> Iterable[str]:
        return ["author", "year"]

    def outer(self, role_name, children):
        return BracketStyle().outer(children, brackets=False, capfirst=False)

    def inner(self, role_name):
        return reference[cited_author if role_name == "author" else cited_year]


@dataclass
class ReferenceStyle(GroupReferenceStyle):
    def __post_init__(self):
        self.styles.extend(
            [
                BasicLabelParentheticalReferenceStyle(
                    bracket=BracketStyle(left="(", right=")", sep="; ")
                ),
                TextualStyle(),
                AuthorStyle(),
                ExtraLabelReferenceStyle(),
                ExtraEmptyReferenceStyle(),
            ]
        )
        super().__post_init__()


def _is_chinese(config) -> bool:
    return (config.language or "en").casefold().startswith("zh")


def _chinese_edition(app, config):
    """The Chinese edition formats the references with `posenc-zh` (when the English uses
    `posenc`)."""
    if _is_chinese(config) and config.bibtex_default_style == NAME:
        config.bibtex_default_style = CHINESE_NAME


def _check_chinese_texts(app):
    """In the Chinese edition, an entry whose note (or howpublished, or a Chinese source's
    author or title) has no Chinese text is a warning: the strict build fails, as it does for
    an untranslated message. Checked on every build, read from the .bib files themselves."""
    if app.config.bibtex_default_style != CHINESE_NAME:
        return
    from pybtex.database import parse_file
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    for name in app.config.bibtex_bibfiles:
        path = Path(app.srcdir) / name
        for missing in missing_chinese(parse_file(str(path)).entries):
            logger.warning(
                f"no Chinese text in {name} for {missing}",
                location=str(path),
                type="posenc",
                subtype="bibliography",
            )


def setup(app):
    # Sphinx re-reads every page when an "env" config value changes: tie one to this file, so
    # an edit of the style re-formats the bibliography and the citations (not just new pages).
    app.add_config_value(
        "posenc_bibstyle_digest",
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
        "env",
    )
    pybtex.plugin.register_plugin("pybtex.style.formatting", NAME, BookStyle)
    pybtex.plugin.register_plugin(
        "pybtex.style.formatting", CHINESE_NAME, ChineseBookStyle
    )
    register_plugin("sphinxcontrib.bibtex.style.referencing", NAME, ReferenceStyle)
    # the note's tag: a <span class="posenc-bib-note"> (pybtex-docutils knows only the tags of
    # emphasis, bold, code, super- and subscript; LaTeX's backend prints an unknown one's text)
    from docutils import nodes
    from pybtex_docutils import Backend

    Backend.tags.setdefault(
        NOTE_TAG, functools.partial(nodes.inline, classes=[NOTE_TAG])
    )
    app.connect("config-inited", _chinese_edition, priority=400)
    app.connect("builder-inited", _check_chinese_texts)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
