"""Glued numbers are typeset by the library's formatter (tools/extensions/typeset_numbers.py)."""

import pytest
from typeset_numbers import (
    typeset,  # tools/extensions/ (on the path: tests/conftest.py)
)


@pytest.mark.parametrize(
    ("glued", "shown"),
    [
        ("8.9e-04", "8.9 × 10⁻⁴"),
        ("-4.1e-04", "−4.1 × 10⁻⁴"),
        ("5.6e-17", "5.6 × 10⁻¹⁷"),
        ("1e+00", "1"),
        ("12345", "12,345"),
        ("-0.041", "−0.041"),
        ("0.0537", "0.0537"),
        ("1234", "1234"),
        ("73%", "73%"),
        ("base 10000", "base 10000"),
    ],
)
def test_python_number_spellings_become_a_readers(glued, shown):
    assert typeset(glued) == shown
