"""English left on a page of the Chinese edition, as a reader meets it: the page's text and
the texts its elements show on hover or read to a screen reader (title, aria-label, alt,
placeholder), outside code, mathematics and citations.

What counts as English is a *phrase*: two or more Latin words in a row ("Show code cell
source", "Link to this heading", "The posenc book team"). A single Latin word inside Chinese
is how Chinese technical prose writes a name or a term (Gram 矩阵, 旋转 query 与 key, RoPE), and
is not counted. Phrases that are names (Hugging Face, Mesh TensorFlow, Position
Interpolation) are in NAMES, the short allow-list; each has its reason.
"""

from __future__ import annotations

import re
from collections import Counter

from bs4 import BeautifulSoup

# Not read: code, output printed by code, mathematics (MathJax's source and its rendering),
# drawings, and citations (in-text citations and the reference list's entries name works as
# they were published; bibstyle.py writes them), except a reference's note
NOT_READ = ", ".join(
    [
        "script", "style", "pre", "code", "kbd", "samp", "svg", "math",
        ".math", "mjx-container", ".highlight", "dt.sig",
        "div.citation", "span.bibtex-citation", "a[href*='bibliography.html#']",
    ]
)  # fmt: skip
SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
# A Latin word (two letters or more, with inner hyphens or apostrophes, or the words "a" and
# "I"; other single letters are variables, as in an alt text's "log x"), and two or more in a
# row
WORD = r"(?:[A-Za-z][A-Za-z'’]+|[aAI])(?:-[A-Za-z]+)*"
PHRASE = re.compile(rf"(?<![\w.\\/@=-]){WORD}(?:[ \u00a0]+{WORD})+(?![\w/(=])")
# A quotation: English words quoted as they were written (a code comment, a paper's title),
# which the Chinese text glosses; a work's title in 《》; and an original term in full-width
# brackets after its Chinese, as Chinese technical writing gives it (神经正切核（Neural
# Tangent Kernel，NTK）)
QUOTED = re.compile(r"“[^”]*”|‘[^’]*’|”[^”“]*”|《[^》]*》|（[^（）\u4e00-\u9fff]*）")

# Names of several words, and the words of the edition switch that leads to the English
NAMES = {
    "Hugging Face",  # the company (its library is `transformers`)
    "Mesh TensorFlow",  # T5's original library
    "Position Interpolation",  # Chen et al.'s method, named so in Chinese writing too
    "Read this page in English",  # the switch's tooltip, for a reader of English
    "Jianlin Su", "Su Jianlin",  # 苏剑林, as his papers sign
    "Sentence-Transformers",  # the library's name
    "MyST Markdown",  # the source format's name
    "All You Need",  # in "Attention Is All You Need", the paper's title
    "A hit B", "B hit A",  # chapter 1's two sentences: the toy model's words are English
    "TeX Live",  # the TeX distribution `make pdf` needs
    "make pdf",  # a command the download menu names, in a tooltip (no code there)
    "Noto Sans CJK SC", "DejaVu Sans",  # fonts, named in the reproducing appendix
    "Transformer Circuits Thread",  # a venue, in a reference's note
    "Machine Learning Mastery",  # a website, in a reference's note
    "Jupyter Book",  # the tool that builds the book, named in the reproducing appendix
    "Derived in chapter",  # how a docstring says where the book derives it (CONTRIBUTING)
}  # fmt: skip


def english_phrases(html: str) -> Counter:
    """The English phrases a reader meets on a page (its HTML), with their counts."""
    soup = BeautifulSoup(html, "html.parser")
    # a reference's note (what bibstyle.py adds to the work's own data) is read
    notes = [note.extract() for note in soup.select("div.citation .posenc-bib-note")]
    for element in soup.select(NOT_READ):
        element.decompose()
    texts = list(soup.stripped_strings)
    texts += [text for note in notes for text in note.stripped_strings]
    texts += [
        element[name]
        for element in soup.find_all(True)
        for name in SHOWN_ATTRIBUTES
        if isinstance(element.get(name), str)
    ]
    found = Counter()
    for text in texts:
        for phrase in PHRASE.findall(QUOTED.sub(" ", text)):
            phrase = re.sub(r"\s+", " ", phrase)
            if not any(name in phrase or phrase in name for name in NAMES):
                found[phrase] += 1
    return found
