"""Tests for the figures of the Chinese edition: ``posenc.figures.build(name,
language="zh_CN")`` and its table of labels, posenc/figures/_labels.py.

Every static figure, drawn in Chinese (wide and for phones), shows no English word outside its
mathematics and a short list of names; every entry of the table is used by some figure; the
Chinese files are the same bytes from run to run, in another process too; the interactive
figures' legends, axis titles, sliders, menus and aria-labels are Chinese; and the Chinese
site shows these drawings. The negative controls take entries out of the table and find the
English they leave.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import matplotlib.pyplot as plt
import pytest
from matplotlib.text import Text
from support.book import HTML, ROOT

import posenc.figures as figures
from posenc.figures import _labels
from posenc.figures._plotly import InteractiveFigure

LANGUAGE = "zh_CN"
STATIC = figures.names("static")
INTERACTIVE = figures.names("interactive")

# Latin words a Chinese figure may show: names the Chinese text writes in Latin letters too
# (locale/zh_CN/glossary.md: RoPE, ALiBi, T5, NoPE, query, key, token), functions and
# identifiers of the code (sin, cos, Ci, decay_sum, max_distance, tensor2tensor), and
# names the chapters use (PI, NTK, NTK-aware, PE, Re, Im for real and imaginary parts, YaRN,
# xPos, Sandwich, RoFormer, Toeplitz, as the glossary's "Toeplitz 矩阵"), and the word "hit"
# of chapter 1's toy sentence "A hit B", which the Chinese caption and alt text keep
ALLOWED = {
    "RoPE", "ALiBi", "T5", "NoPE", "query", "key", "token",
    "sin", "cos", "Ci", "decay_sum", "max_distance", "tensor2tensor",
    "PI", "NTK", "aware", "PE", "Re", "Im", "YaRN", "xPos", "Sandwich", "RoFormer",
    "Toeplitz", "hit",
}  # fmt: skip
# ... and in the interactive figures' plain-text mathematics (aria-labels): the names of the
# symbols
ALLOWED_INTERACTIVE = ALLOWED | {
    "theta_i",
    "nu",
    "alpha",
    "sum_i",
    "sum_j",
    "I_b",
    "S_j",
}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")
# a mathtext part of a matplotlib label: between unescaped dollars
DOLLAR = re.compile(r"(?<!\\)\$")


def english_words(text: str, allowed=ALLOWED) -> list[str]:
    """The Latin words of two letters or more in ``text`` outside its mathematics, less the
    ``allowed`` ones."""
    outside = " ".join(DOLLAR.split(text)[0::2])
    return [w for w in LATIN_WORD.findall(outside) if w not in allowed]


def shown_texts(fig) -> set[str]:
    """Every string ``fig`` shows, laid out as for saving (tick labels included)."""
    fig.draw_without_rendering()
    return {t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def chinese_texts():
    """{figure (NAME or NAME.phone): its texts} for every static figure drawn in Chinese, and
    the table's keys these drawings used."""
    _labels.USED.clear()
    texts = {}
    for name in STATIC:
        for phone in (False, True):
            fig = figures.build(name, phone, LANGUAGE)
            try:
                texts[name + (".phone" if phone else "")] = shown_texts(fig)
            finally:
                plt.close(fig)
    return {"texts": texts, "used": set(_labels.USED)}


def test_every_static_figure_drawn_in_chinese_shows_no_english_word(chinese_texts):
    left = {
        figure: sorted(t for t in texts if english_words(t))
        for figure, texts in chinese_texts["texts"].items()
    }
    left = {figure: found for figure, found in left.items() if found}
    assert not left, f"English left in the Chinese figures: {left}"


def test_the_chinese_figures_show_chinese(chinese_texts):
    for figure, texts in chinese_texts["texts"].items():
        if any(english_words(t, allowed=set()) or "$" in t for t in texts):
            assert any(figures.CJK.search(t) for t in texts), figure


def test_every_label_of_the_table_is_used_by_a_figure(chinese_texts):
    static = {key for kind, key in chinese_texts["used"] if kind == "static"}
    dead = sorted(set(_labels.STATIC) - static)
    assert not dead, f"entries of _labels.STATIC that no figure uses: {dead}"


def _without(monkeypatch, kind: str, keys=None):
    """The table of ``kind`` without ``keys`` (all of them if None), for this test."""
    table = getattr(_labels, kind.upper())
    kept = {} if keys is None else {k: v for k, v in table.items() if k not in keys}
    monkeypatch.setattr(_labels, kind.upper(), kept)
    _labels._templates.cache_clear()


@pytest.fixture
def fresh_templates():
    _labels._templates.cache_clear()
    yield
    _labels._templates.cache_clear()


# a quick figure with an axis label, legend entries, a template key and mathematics
CONTROL = "fig-ch02-taylor-error"


def test_negative_control_an_emptied_table_leaves_the_english(
    monkeypatch, fresh_templates
):
    assert not english_words(
        " ".join(shown_texts(figures.build(CONTROL, False, LANGUAGE)))
    )
    _without(monkeypatch, "static")
    found = english_words(
        " ".join(shown_texts(figures.build(CONTROL, False, LANGUAGE)))
    )
    assert {"absolute", "error", "scale", "slope"} <= set(found)


def test_negative_control_one_entry_removed_is_found(monkeypatch, fresh_templates):
    _without(monkeypatch, "static", {"absolute error"})
    found = english_words(
        " ".join(shown_texts(figures.build(CONTROL, False, LANGUAGE)))
    )
    assert found == ["absolute", "error"]


def test_negative_control_a_removed_template_is_found(monkeypatch, fresh_templates):
    _without(
        monkeypatch,
        "static",
        {"mixed difference minus $\\varepsilon^2 p_m^\\top H p_n$ (slope {0})"},
    )
    found = english_words(
        " ".join(shown_texts(figures.build(CONTROL, False, LANGUAGE)))
    )
    assert {"mixed", "difference", "minus", "slope"} <= set(found)


def test_templates_fill_in_the_numbers():
    assert (
        _labels.translate("coordinate 93: 15% at 88 cycles")
        == "坐标 93：88 个周期处占 15%"
    )
    # an exact key wins over a template, a longer template over a shorter one
    assert (
        _labels.translate("RoPE, $b = 10$, NTK-aware base")
        == "RoPE，$b = 10$，NTK-aware 底数"
    )
    assert _labels.translate("RoPE, $b = 10$") == "RoPE，$b = 10$"
    assert _labels.translate("no such label") == "no such label"


def test_language_must_be_english_or_chinese():
    for call in (
        lambda: figures.render(CONTROL, "svg", language="fr"),
        lambda: figures.build(CONTROL, language="zh"),
        lambda: figures.write_all("/nonexistent", [CONTROL], languages=("de",)),
    ):
        with pytest.raises(ValueError, match="language must be one of"):
            call()


def test_english_figures_keep_their_font():
    """The Chinese style changes the font family for Chinese only."""
    figures.style(LANGUAGE)  # registers the CJK font in this process
    assert figures.style("en") is figures.STYLE
    assert "font.family" not in figures.STYLE
    assert figures.style(LANGUAGE)["font.family"] == ["DejaVu Sans", figures.CJK_FONT]


# --------------------------------------------------------------------------- files

# figures with mathematics and Chinese in one label, CJK tick labels and a colour bar
REPRODUCED = ["fig-ch02-taylor-error", "fig-ch01-attention", "fig-ch09-covariance"]


@pytest.mark.render  # about 20 s: left to `make test`, as the English twin's figures are
def test_chinese_files_are_byte_identical_from_run_to_run(tmp_path):
    """Written twice in this process and once by ``python -m posenc.figures`` in a child
    process with another hash seed: the same bytes, every format."""
    env = dict(os.environ, PYTHONHASHSEED="4321")
    child = subprocess.run(
        [sys.executable, "-m", "posenc.figures", str(tmp_path / "b"), *REPRODUCED],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert child.returncode == 0, child.stderr.decode()
    first = figures.write_all(tmp_path / "a", REPRODUCED, languages=(LANGUAGE,))
    again = figures.write_all(tmp_path / "c", REPRODUCED, languages=(LANGUAGE,))
    assert len(first) == len(REPRODUCED) * 4
    for path, repeat in zip(first, again, strict=True):
        assert path.parent.name == LANGUAGE
        other = tmp_path / "b" / LANGUAGE / path.name
        assert path.read_bytes() == repeat.read_bytes(), path.name
        assert path.read_bytes() == other.read_bytes(), path.name
    # and the English files beside them are not the Chinese ones
    english = tmp_path / "b" / f"{REPRODUCED[0]}.svg"
    assert (
        english.read_bytes() != (tmp_path / "a" / LANGUAGE / english.name).read_bytes()
    )


# --------------------------------------------------------------------------- interactive


def _plotly_texts(html: str) -> list[str]:
    """The texts a reader sees in an interactive figure's HTML: its aria-label, and the
    legend names, titles, hover texts, slider and menu labels of its Plotly spec."""
    label = re.search(r'aria-label="([^"]*)"', html).group(1)
    spec = json.loads(
        re.search(r"var spec = (\{.*\});\n", html).group(1).replace("<\\/", "</")
    )
    found = [label]

    def walk(value, key=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in figures.PLOTLY_TEXT_KEYS:
            found.append(value)

    walk(spec["data"])
    walk(spec["layout"])
    return found


def _english_in_plotly(name: str) -> dict[str, list[str]]:
    html = InteractiveFigure(
        name,
        figures.build(name, language=LANGUAGE),
        figures.description(name, LANGUAGE),
    )._repr_html_()
    found = {}
    for text in _plotly_texts(html):
        plain = re.sub(r"<[^>]*>|%\{[^}]*\}", " ", text)
        words = english_words(plain, ALLOWED_INTERACTIVE)
        if words:
            found[text] = words
    return found


@pytest.mark.parametrize("name", INTERACTIVE)
def test_interactive_figures_in_chinese_show_no_english_word(name):
    assert not _english_in_plotly(name)


def test_negative_control_interactive_figures_without_the_table(
    monkeypatch, fresh_templates
):
    _without(monkeypatch, "interactive")
    found = _english_in_plotly("fig-ch05-decay-interactive")
    assert (
        "Interactive" in str(found)
        and "distance" in str(found)
        and "integral" in str(found)
    )


def test_every_interactive_label_is_used():
    _labels.USED.clear()
    for name in INTERACTIVE:
        figures.build(name, language=LANGUAGE)
        figures.description(name, LANGUAGE)
    used = {key for kind, key in _labels.USED if kind == "interactive"}
    assert not sorted(set(_labels.INTERACTIVE) - used)


# --------------------------------------------------------------------------- the Chinese site


def _figure_elements(page_html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(page_html, "html.parser")


@pytest.mark.site
def test_the_chinese_site_shows_the_chinese_drawings(built_site):
    """Each static figure on a page of the Chinese edition is its Chinese drawing (image,
    link to the full-size file, and drawing for phones); the English edition keeps its own;
    each interactive figure carries the Chinese aria-label."""
    zh = HTML / "zh"
    seen, checked = set(), 0
    for page in sorted((zh / "book").glob("*.html")):
        soup = _figure_elements(page.read_text(encoding="utf-8"))
        for name in STATIC:
            figure = soup.find(id=name)
            if figure is None:
                continue
            seen.add(name)
            image = figure.find("img")
            source = figure.find("source")
            assert image["src"].endswith(f".{LANGUAGE}.svg"), (page.name, name)
            assert source["srcset"].endswith(f".{LANGUAGE}.phone.svg"), (
                page.name,
                name,
            )
            assert figure.find("a")["href"] == image["src"], (page.name, name)
            if name in REPRODUCED and checked < 2:
                drawn = (page.parent / image["src"]).read_bytes()
                assert drawn == figures.render(name, "svg", language=LANGUAGE), name
                checked += 1
        for name in INTERACTIVE:
            element = soup.find(id=f"posenc-plotly-{name}")
            if element is not None:
                seen.add(name)
                assert element["aria-label"] == figures.description(name, LANGUAGE)
    assert seen == set(STATIC) | set(INTERACTIVE), sorted(
        set(STATIC) | set(INTERACTIVE) - seen
    )
    for page in sorted((HTML / "book").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert f".{LANGUAGE}." not in text, page.name
