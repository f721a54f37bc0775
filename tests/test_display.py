"""Tests for posenc.display: the chapters show the library's own code with ``source``
and write numbers as a reader does with ``format_number``.

The shown code is compared with the function's source as Python parses it: the same
statements (ast.dump), without the docstring unless asked for.
"""

from __future__ import annotations

import ast
import inspect
import math
import textwrap

import numpy as np
import pytest

import posenc
from posenc.display import format_number, source, table


def parsed(code):
    """The first definition in ``code``."""
    return ast.parse(code).body[0]


def without_docstring(node):
    body = node.body
    if ast.get_docstring(node) is not None:
        body = body[1:]
    if len(body) == 1 and isinstance(
        body[0], ast.Pass
    ):  # what stands in for a docstring
        body = []
    return [ast.dump(statement) for statement in body]


PUBLIC_CALLABLES = sorted(
    name for name in posenc.__all__ if callable(getattr(posenc, name))
)


@pytest.mark.parametrize("name", PUBLIC_CALLABLES)
def test_source_is_the_code_without_the_docstring(name):
    obj = getattr(posenc, name)
    shown = source(obj)
    original = parsed(textwrap.dedent(inspect.getsource(obj)))
    node = parsed(shown.code)
    assert ast.get_docstring(node) is None
    assert node.name == obj.__name__
    assert without_docstring(node) == without_docstring(original)
    assert [ast.dump(d) for d in node.decorator_list] == [
        ast.dump(d) for d in original.decorator_list
    ]
    assert shown.name == f"{obj.__module__}.{obj.__qualname__}"


def test_docstring_on_request_and_markdown():
    shown = source(posenc.ntk_base, docstring=True)
    assert shown.code == textwrap.dedent(inspect.getsource(posenc.ntk_base)).rstrip()
    assert ast.get_docstring(parsed(shown.code)) == inspect.getdoc(posenc.ntk_base)
    markdown = source(posenc.ntk_base)._repr_markdown_()
    assert markdown.startswith("```python\ndef ntk_base(") and markdown.endswith(
        "\n```"
    )
    assert repr(source(posenc.ntk_base)) == source(posenc.ntk_base).code
    assert '"""' not in source(posenc.ntk_base).code


def test_a_class_keeps_its_methods_docstrings():
    code = source(posenc.ToyModel).code
    assert ast.get_docstring(parsed(code)) is None
    assert "The pooled scalar score" in code  # ToyModel.score's docstring stays


def test_decorators_are_shown():
    assert source(posenc.ci_first_zero).code.startswith("@lru_cache(maxsize=1)\ndef ")


def someone_elses():
    """Not posenc's."""


@pytest.mark.parametrize(
    "obj", [np.sum, len, inspect.getsource, someone_elses, 42, "cin", posenc]
)
def test_refuses_what_is_not_a_posenc_function(obj):
    with pytest.raises(ValueError, match=r"^obj must be"):
        source(obj)


def test_refuses_a_module_that_only_starts_like_posenc():
    """posencx (or posenc_extras) is not posenc: the check is on the package, not a
    prefix."""

    def impostor():
        return 1

    impostor.__module__ = "posencx.tools"
    with pytest.raises(ValueError, match=r"^obj must be"):
        source(impostor)


# ----------------------------------------------------------------------- format_number


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (12345, 2, "12,345"),  # integers keep every digit, with separators
        (-1234567, 2, "−1,234,567"),
        (0.25, 2, "0.25"),
        (-0.041, 2, "−0.041"),  # U+2212, not a hyphen
        (0.999, 2, "1.0"),  # rounded first: 1.0, not 1.00
        (1234.5, 2, "1,200"),
        (1.2e-4, 2, "1.2 × 10⁻⁴"),  # below 10^-3: scientific, superscript exponent
        (2.5e6, 2, "2.5 × 10⁶"),  # from 10^6 on
        (-3.7e-12, 2, "−3.7 × 10⁻¹²"),
        (1e6, 2, "10⁶"),
        (3.14159, 4, "3.142"),
        (0.0, 2, "0"),
    ],
)
def test_format_number(value, digits, shown):
    assert format_number(value, digits) == shown
    assert "e" not in format_number(value, digits).replace("10", "")


@pytest.mark.parametrize("integer", [np.int64(12345), np.int32(-7), np.uint8(200)])
def test_format_number_keeps_numpy_integers_whole(integer):
    """A count computed by NumPy is still a count: every digit, like a Python int."""
    assert format_number(integer) == format_number(int(integer))


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((True,), "value"),
        ((math.nan,), "value"),
        ((math.inf,), "value"),
        (("abc",), "value"),
        ((None,), "value"),
        ((3.0, -1), "digits"),
        ((3.0, 2.5), "digits"),
        ((3.0, True), "digits"),
    ],
)
def test_format_number_bad_input_names_the_argument(args, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        format_number(*args)


def test_a_table_is_markdown_on_the_page_and_aligned_text_in_a_terminal():
    shown = table(["$x$", "share of slow pairs"], [[1000, "0.25"], [10, 0.5]])
    assert shown._repr_markdown_().splitlines() == [
        "| $x$ | share of slow pairs |",
        "| ---: | ---: |",
        "| 1,000 | 0.25 |",
        "| 10 | 0.500 |",
    ]
    assert repr(shown).splitlines() == [
        "  $x$  share of slow pairs",
        "1,000                 0.25",
        "   10                0.500",
    ]


def test_a_table_sets_numbers_flush_right_and_labels_left():
    shown = table(
        ["table", "$D/O$", "$D$"], [["word", "27.0", 0.00306], ["pos", 4.8, 5.37e-4]]
    )
    assert shown._repr_markdown_().splitlines()[1] == "| :--- | ---: | ---: |"
    assert repr(shown).splitlines() == [
        "table  $D/O$          $D$",
        "word    27.0      0.00306",
        "pos     4.80  5.37 × 10⁻⁴",
    ]


@pytest.mark.parametrize(
    "columns, rows, named",
    [
        ("x", [], "columns"),
        ([], [], "columns"),
        (["x", 2], [], "columns"),
        (["x", "y"], [[1]], "rows"),
        (["x"], [["a|b"]], "cell"),
        (["x"], [["two\nlines"]], "cell"),
        (["x"], [[float("nan")]], "value"),
    ],
)
def test_a_table_refuses_what_it_cannot_show(columns, rows, named):
    with pytest.raises(ValueError, match=named):
        table(columns, rows)
