"""Throw-away books with this project's configuration and extensions, built as a shell builds
them: the `jupyter-book` command of `make book`, in a new process."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from support.book import ROOT

JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
STRICT = ["-W", "-n", "--keep-going"]


def run(argv: list, timeout: float = 900) -> subprocess.CompletedProcess:
    """``argv`` in a new process, its output captured, with an empty stdin."""
    return subprocess.run(
        [str(part) for part in argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def build_book(source: Path, *, expect_ok: bool | None = None, builder: str = "html"):
    """The strict build of the book in ``source``, as `make book` runs it (`make pdf`:
    ``builder="latex"``)."""
    result = run([JUPYTER_BOOK, "build", source, "--builder", builder, *STRICT])
    if expect_ok is not None and (result.returncode == 0) != expect_ok:
        raise AssertionError(
            f"build of {source} exited {result.returncode}, expected "
            f"{'success' if expect_ok else 'failure'}\n{result.stdout[-4000:]}\n"
            f"{result.stderr[-4000:]}"
        )
    return result


def make_small_book(
    tmp: Path, pages: dict[str, str], with_library: bool = False
) -> Path:
    """A book in ``tmp`` with this project's _config.yml, tools/ and ``pages`` (name -> MyST
    source); the first page is the root. ``with_library``: a copy of src/ too, which the build
    fingerprints (the chapters' kernels still import the installed posenc)."""
    (tmp / "book").mkdir(parents=True)
    shutil.copy(ROOT / "_config.yml", tmp / "_config.yml")
    shutil.copytree(
        ROOT / "tools", tmp / "tools", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "requirements.txt", tmp / "requirements.txt")
    shutil.copy(ROOT / "book" / "references.bib", tmp / "book" / "references.bib")
    for folder in ("_static", "_templates"):  # _config.yml's static and template paths
        shutil.copytree(ROOT / "book" / folder, tmp / "book" / folder)
    if with_library:
        shutil.copytree(
            ROOT / "src", tmp / "src", ignore=shutil.ignore_patterns("__pycache__")
        )
    names = list(pages)
    for name, text in pages.items():
        (tmp / "book" / f"{name}.md").write_text(text)
    toc = {"format": "jb-book", "root": f"book/{names[0]}"}
    if names[1:]:
        toc["chapters"] = [{"file": f"book/{name}"} for name in names[1:]]
    (tmp / "_toc.yml").write_text(yaml.safe_dump(toc))
    return tmp


def extension(name: str):
    """A fresh copy of the build extension tools/extensions/<name>.py, as a module."""
    path = ROOT / "tools" / "extensions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


INTRO = "# A small book\n\nA page.\n"
NOTEBOOK_HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""
# A page that glues the time at which it executed: a rebuild shows whether it ran again.
STAMPED = (
    NOTEBOOK_HEADER
    + """
# {title}

```{{code-cell}} ipython3
{imports}
import time
from myst_nb import glue
glue("stamp", str(time.time_ns()), display=False)
```

Executed at {{glue:text}}`stamp`.
"""
)


def stamped_page(title: str = "Stamped", imports: str = "") -> str:
    return STAMPED.format(title=title, imports=imports)


def executed_stamp(book: Path, page: str) -> str:
    """When the build last executed ``page`` of ``book`` (a stamped page)."""
    html = (book / "_build" / "html" / "book" / f"{page}.html").read_text()
    # glued numbers are typeset (typeset_numbers.py): 1,700,000,000,000 and the like
    stamp = re.search(r"Executed at\s*(?:<[^>]+>\s*)*'?(\d[\d,]{11,})", html).group(1)
    return stamp.replace(",", "")
