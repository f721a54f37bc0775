"""One version number for posenc: pyproject.toml's.

The wheel's metadata said 0.1.0 while ``posenc.__version__`` said 0.2.0 (review item 7): two
hand-written numbers had drifted apart. pyproject.toml now holds the only one and
``posenc.__version__`` reads the installed metadata; the built site's wheel is checked against
it in tests/test_site.py.
"""

from __future__ import annotations

import re
import tomllib

from conftest import ROOT

import posenc


def pyproject_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_posenc_version_is_pyprojects():
    """Fails on a stale install too: the environment's metadata must be pyproject.toml's."""
    assert posenc.__version__ == pyproject_version()
    assert "__version__" in dir(posenc)


def test_no_second_version_number_is_written_in_the_library():
    written = [
        path.relative_to(ROOT)
        for path in (ROOT / "src" / "posenc").rglob("*.py")
        if re.search(r"^__version__\s*=", path.read_text(), re.MULTILINE)
    ]
    assert not written, f"a version number written by hand in {written}"
