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

# Two groups of about the same cost, with little in common (Matplotlib and the first group
# both import NumPy: compiled twice at worst, a fraction of a second).
GROUPS = (
    # the library, and what every chapter's kernel imports
    "numpy scipy.integrate scipy.optimize scipy.special scipy.stats scipy.linalg"
    " sympy mpmath posenc",
    # the build and its extensions, the kernels' own modules, the tests and their tools
    "matplotlib.pyplot posenc.figures jupyter_book.cli.main jupyter_book.sphinx"
    " sphinx_book_theme myst_nb sphinx_proof sphinx_exercise sphinxcontrib.bibtex"
    " ipykernel.kernelapp nbclient jupytext jupyter_cache pytest xdist hypothesis bs4"
    " playwright.sync_api plotly safetensors",
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
