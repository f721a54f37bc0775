"""``python -m posenc.experiments``: :func:`posenc.experiments.runner.main` (``make
experiments``). The runner lives in its own module so that the worker processes, which start
fresh interpreters, can import the function they run."""

import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())
