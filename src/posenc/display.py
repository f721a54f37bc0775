"""Showing the library's own code, and a cell's results, in the book.

A chapter that derives a function in prose then shows the library's source with
:func:`source`, so the code a reader sees is the code that runs (nothing is retyped), and the
chapter's checks test that same function. An open cell that computes a few rows of numbers
shows them with :func:`table`: a table on the page and in Jupyter, whose column titles the
Chinese edition translates like any sentence of the page (a printed line would stay English).
"""

from __future__ import annotations

import inspect
import re
import textwrap


class Source:
    """The source of a function, displayed as a Python code block (Markdown)."""

    def __init__(self, obj, *, docstring: bool):
        if not callable(obj):
            raise ValueError(f"obj must be a function or class of posenc, got {obj!r}")
        module = getattr(obj, "__module__", "") or ""
        if module != "posenc" and not module.startswith("posenc."):
            raise ValueError(f"obj must be defined in posenc, got one from {module!r}")
        self.name = f"{module}.{obj.__qualname__}"
        code = textwrap.dedent(inspect.getsource(obj))
        if not docstring and obj.__doc__:
            code = _drop_docstring(code)
        self.code = code.rstrip()

    def _repr_markdown_(self) -> str:
        return f"```python\n{self.code}\n```"

    def __repr__(self) -> str:
        return self.code


def _drop_docstring(code: str) -> str:
    """The function's code without its docstring (the first string literal of the body)."""
    import ast

    tree = ast.parse(code)
    node = tree.body[0]
    first = node.body[0]
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return code
    lines = code.splitlines()
    indent = lines[first.lineno - 1][: first.col_offset]
    # a body that is only the docstring keeps a `pass`, so the code shown still parses
    lines[first.lineno - 1 : first.end_lineno] = (
        [indent + "pass"] if len(node.body) == 1 else []
    )
    return "\n".join(lines)


def source(obj, *, docstring: bool = False) -> Source:
    """Display the source of ``obj`` (a posenc function or class) as a code block.

    The docstring is left out unless ``docstring=True``: the chapter's prose says what the
    docstring would.
    """
    return Source(obj, docstring=docstring)


class Table:
    """Rows of results under column titles: a Markdown table in Jupyter and on the page,
    aligned columns of text where only ``repr`` is shown (a terminal)."""

    def __init__(self, columns, rows):
        given = columns
        columns = None if isinstance(columns, str) else list(columns)
        if columns is None or not all(isinstance(title, str) for title in columns):
            raise ValueError(
                f"columns must be a list of titles (strings), got {given!r}"
            )
        self.columns = [_cell(title) for title in columns]
        if not self.columns:
            raise ValueError("columns must name at least one column, got none")
        self.rows = [[_cell(value) for value in row] for row in rows]
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"rows must have one value per column ({len(self.columns)}), "
                    f"got a row of {len(row)}: {row!r}"
                )

    def numeric(self, column: int) -> bool:
        """Whether every value of the column is a number (set flush right, labels left)."""
        return all(NUMBER.fullmatch(row[column]) for row in self.rows)

    def _repr_markdown_(self) -> str:
        align = [
            "---:" if self.numeric(k) else ":---" for k in range(len(self.columns))
        ]
        lines = [self.columns, align, *self.rows]
        return "\n".join("| " + " | ".join(line) + " |" for line in lines)

    def __repr__(self) -> str:
        lines = [self.columns, *self.rows]
        texts = []
        for k in range(len(self.columns)):
            width = max(len(line[k]) for line in lines)
            pad = str.rjust if self.numeric(k) else str.ljust
            texts.append([pad(line[k], width) for line in lines])
        return "\n".join("  ".join(line).rstrip() for line in zip(*texts, strict=True))


# A number as a cell shows it: "1,000", "−0.041", "+0.436773", "1.14 × 10⁻⁴", "38%"; and "—"
# or an empty cell, which stand for a number that is missing and keep the column flush right
NUMBER = re.compile(
    r"[-+−]?[\d,.]+(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?%?|[-+−]?10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|—|"
)


def _cell(value) -> str:
    """A table cell: text as given (a number the caller formatted), a number by
    :func:`format_number`."""
    if isinstance(value, str):
        if "|" in value or "\n" in value:
            raise ValueError(
                f"a table cell may not hold '|' or a line break, got {value!r}"
            )
        return value
    return format_number(value, 3)


def table(columns, rows) -> Table:
    """Display ``rows`` (each a list of one value per column) under the titles ``columns``.

    A value that is a string is shown as written, so the cell's own f-string chooses the
    digits; a number is written by :func:`format_number` to three significant digits. Titles
    may hold inline maths (``"$x$"``), which the page and Jupyter typeset.
    """
    return Table(columns, rows)


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def format_number(value, digits: int = 2) -> str:
    """A number as a reader writes it: ``1.2 × 10⁻⁴``, ``12,345``, ``0.25``, ``−0.041``.

    Integers get thousands separators. Other numbers keep ``digits`` significant digits;
    below 10⁻³ or from 10⁶ on they are written in scientific form with a Unicode "×" and
    superscript exponent (never Python's ``1.2e-04``). The minus sign is U+2212.
    """
    import math
    import numbers

    import numpy as np

    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"value must be a real number, got {value!r}")
    if (
        isinstance(digits, (bool, np.bool_))
        or not isinstance(digits, numbers.Integral)
        or not 0 <= digits <= 17
    ):
        raise ValueError(f"digits must be an integer from 0 to 17, got {digits!r}")
    if isinstance(value, numbers.Integral):
        value = int(value)
    if isinstance(value, int) or (
        isinstance(value, float)
        and value.is_integer()
        and abs(value) < 1e15
        and digits == 0
    ):
        text = f"{int(value):,}"
    else:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"value must be finite, got {value}")
        if value == 0:
            return "0"
        if digits > 0:  # round first, so that 0.999 to 2 digits is 1.0, not 1.00
            value = float(f"{value:.{digits}g}")
        exponent = math.floor(math.log10(abs(value)))
        if -3 <= exponent < 6:
            decimals = max(digits - 1 - exponent, 0)
            text = f"{value:,.{decimals}f}"
        else:
            mantissa = value / 10.0**exponent
            if round(abs(mantissa), max(digits - 1, 0)) >= 10:
                mantissa, exponent = mantissa / 10, exponent + 1
            shown = f"{mantissa:.{max(digits - 1, 0)}f}"
            power = "10" + str(exponent).translate(SUPERSCRIPT)
            text = power if shown in ("1", "1.0", "1.00") else f"{shown} × {power}"
            if shown in ("-1", "-1.0", "-1.00"):
                text = "-" + power
    return text.replace("-", "−")
