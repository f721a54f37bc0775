"""Compile to bytecode, once, the modules that the build and the tests import.

`make`'s setup runs this after uv has installed the pinned packages. uv writes no bytecode, and
compiling the whole virtual environment (`uv pip sync --compile-bytecode`, 1 GB) took 22 s on
both cores here, mostly for modules nothing imports (SciPy's and SymPy's many submodules,
test folders). Left to themselves, the first processes of `make test` (the build, its two
kernels and two test processes, started at once) would each compile NumPy, SciPy, SymPy and
Matplotlib. So these imports run first, in two processes side by side (about 5 s), and leave
the compiled files in the venv for every later process; a module missing here is compiled by
the first process that imports it, as Python does.
"""

from __future__ import annotations

import subprocess
import sys

# What a Jupyter Book build imports before it reads a page (with what imports it): most of a
# build's start. tests/build_server.py imports the same list once and forks each small book's
# build from there.
BUILD = (
    "jupyter_book.cli.main",  # the console script
    "jupyter_book.sphinx",  # build_sphinx (tools/translations.py too)
    "jupyter_book.config",
    "sphinx.application",
    "sphinx.builders.html",
    "sphinx.search.zh",  # tools/i18n_ext.py
    "sphinx.ext.autodoc",  # _config.yml's extra_extensions
    "sphinx.ext.napoleon",
    "myst_nb.sphinx_ext",  # Jupyter Book's extensions
    "myst_parser.sphinx_ext.main",
    "sphinx_book_theme",
    "pydata_sphinx_theme",
    "sphinx_comments",
    "sphinx_copybutton",
    "sphinx_design",
    "sphinx_external_toc",
    "sphinx_jupyterbook_latex",
    "sphinx_multitoc_numbering",
    "sphinx_thebe",
    "sphinx_togglebutton",
    "sphinxcontrib.bibtex",
    "sphinx_proof",
    "sphinx_exercise",
    "jupyter_cache.executors.utils",  # tools/book_ext.py
    "nbclient",
    "jupytext",
    "plotly.offline",
    "bs4",
)

# Two groups of about the same cost, with little in common (Matplotlib and the first group
# both import NumPy: compiled twice at worst, a fraction of a second).
GROUPS = (
    # the library, and what every chapter's kernel imports
    "numpy scipy.integrate scipy.optimize scipy.special scipy.stats scipy.linalg"
    " sympy mpmath posenc",
    # the build and its extensions, the kernels' own modules, the tests and their tools
    " ".join(BUILD)
    + " matplotlib.pyplot posenc.figures ipykernel.kernelapp pytest xdist"
    " hypothesis playwright.sync_api safetensors",
)


def main() -> int:
    children = [
        # written even where PYTHONDONTWRITEBYTECODE says otherwise (`make` unexports it too)
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; sys.dont_write_bytecode = False; import "
                + ", ".join(group.split()),
            ]
        )
        for group in GROUPS
    ]
    return max(child.wait() for child in children)


if __name__ == "__main__":
    sys.exit(main())
