"""Shared paths and helpers for the test-suite (bench/ imports them too)."""

from __future__ import annotations

import atexit
import functools
import importlib.util
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml

# A chapter as JupyterLab reads it (jupytext), read once per version of the file and per test
# process, by the library's own reader (which posenc.checks.statements uses)
from posenc.checks import _read_chapter as read_chapter  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
STRICT_FLAGS = ["--builder", "html", "-W", "-n", "--keep-going"]


# Elements whose URL the browser fetches when the page loads, and the attribute holding
# it.
FETCHED = {
    "script": "src",
    "img": "src",
    "source": "src",
    "iframe": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
}


def edition_root(page: Path) -> Path:
    """The root of the edition a built page belongs to: _build/html, or _build/html/zh for
    the Chinese edition (tools/translations.py)."""
    relative = page.resolve().relative_to(HTML.resolve())
    return HTML / "zh" if relative.parts[0] == "zh" else HTML


def toc_files(root: Path = ROOT) -> list[Path]:
    """Every page the table of contents of the book in ``root`` names, in order (as
    source paths)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [chapter["file"] for chapter in part.get("chapters", [])]
    files += [chapter["file"] for chapter in toc.get("chapters", [])]
    paths = []
    for name in files:
        candidates = [root / f"{name}{suffix}" for suffix in (".md", ".ipynb")]
        paths.append(next(path for path in candidates if path.exists()))
    return paths


def is_notebook(path: Path) -> bool:
    """A MyST Markdown notebook carries a jupytext header with a kernelspec."""
    head = path.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "kernelspec:" in head


def requirements(path: Path) -> dict[str, str | None]:
    """{package: pinned version, or None for a bare name} of a requirements file, its names
    normalised as pip compares them (``packaging.utils.canonicalize_name``)."""
    from packaging.utils import canonicalize_name

    named = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.match(
            r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:==(\S+))?", line
        )
        if found:
            named[canonicalize_name(found.group(1))] = found.group(2)
    return named


class _BuildServer:
    """This test process's tests/build_server.py: a Python that has imported the build's
    packages once and runs each script in a child forked from it (why: that file)."""

    def __init__(self) -> None:
        # started with this process's environment: what Python reads when it starts
        # (PYTHONPATH and the other PYTHON* variables) is then the children's too
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "build_server.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.pending = b""
        atexit.register(self.stop)

    def reply(self, deadline: float) -> dict | None:
        """The server's next line, or None at the deadline."""
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(
                    f"tests/build_server.py ended ({self.process.wait()})"
                )
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def run(self, argv: list[str], out: Path, err: Path, timeout: float) -> int | None:
        """Run ``argv`` (a Python script and its arguments) in a forked child, its output
        in ``out`` and ``err``; its exit status, or None if it ran out of time (killed)."""
        request = {
            "argv": argv,
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "stdout": str(out),
            "stderr": str(err),
        }
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        child = self.reply(deadline + 60)["pid"]
        ended = self.reply(deadline)
        if ended is None:
            os.kill(child, signal.SIGKILL)
            self.reply(time.monotonic() + 60)
            return None
        return ended["returncode"]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=60)


@functools.cache
def _build_server(python_variables: frozenset) -> _BuildServer:
    """The build server for these PYTHON* variables: the values Python reads only when it
    starts (sys.path from PYTHONPATH, the hash seed, the flags) are its children's, so a
    script run with other values needs a server started with them."""
    return _BuildServer()


def run_script(
    argv: list, timeout: float, *, fresh: bool = False
) -> subprocess.CompletedProcess:
    """``subprocess.run(argv, capture_output=True, text=True, timeout=timeout)`` for a Python
    script (``argv[0]``, a console script such as ``jupyter-book`` or a file such as
    ``tools/translations.py``), run in a child of this process's build server (a Python that
    has imported the build's packages: tests/build_server.py says why), or, if ``fresh``, by
    that very call (a new interpreter, as a shell runs it). Either way stdin is empty
    (/dev/null): a test must not hang on a script that reads it."""
    argv = [str(part) for part in argv]
    if fresh:
        return subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    python_variables = frozenset(
        item for item in os.environ.items() if item[0].startswith("PYTHON")
    )
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        returncode = _build_server(python_variables).run(argv, out, err, timeout)
        stdout = out.read_text(encoding="utf-8", errors="replace")
        stderr = err.read_text(encoding="utf-8", errors="replace")
    if returncode is None:
        raise subprocess.TimeoutExpired(argv, timeout, stdout, stderr)
    return subprocess.CompletedProcess(argv, returncode, stdout, stderr)


def build_book(
    source: Path, *, expect_ok: bool | None = None, fresh: bool = False
) -> subprocess.CompletedProcess:
    """Run the strict Jupyter Book build on ``source`` as `make book` does: the
    ``jupyter-book`` command with the same options, in a child of the build server, or, if
    ``fresh``, in a new process (what a timing of the whole command needs: bench/)."""
    result = run_script(
        [JUPYTER_BOOK, "build", source, *STRICT_FLAGS], timeout=900, fresh=fresh
    )
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
    """A throw-away book with this project's _config.yml and build extension and
    ``pages`` (name -> MyST source); the first page is the root. Returns its folder."""
    (tmp / "book").mkdir(parents=True)
    shutil.copy(ROOT / "_config.yml", tmp / "_config.yml")
    shutil.copytree(
        ROOT / "tools", tmp / "tools", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "requirements.txt", tmp / "requirements.txt")
    (tmp / "book" / "references.bib").write_text(
        (ROOT / "book" / "references.bib").read_text()
    )
    for folder in ("_static", "_templates"):  # _config.yml's static and template paths
        if (ROOT / "book" / folder).is_dir():
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
    # glued numbers are typeset (tools/typeset_numbers.py): 1,700,000,000,000 and the like
    stamp = re.search(r"Executed at\s*(?:<[^>]+>\s*)*'?(\d[\d,]{11,})", html).group(1)
    return stamp.replace(",", "")


@pytest.fixture
def model_copy(tmp_path) -> Path:
    """A copy of the real all-MiniLM-L6-v2 model file that a test may damage."""
    from posenc import minilm_path

    path = tmp_path / "model.safetensors"
    shutil.copyfile(minilm_path(), path)
    return path


def load_book_ext():
    """A fresh copy of the build extension tools/book_ext.py, as a module."""
    spec = importlib.util.spec_from_file_location(
        "book_ext", ROOT / "tools" / "book_ext.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _parsed(path: Path, mtime_ns: int, size: int):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def built_page(path: Path):
    """The HTML page at ``path`` as BeautifulSoup, parsed once per version of the file and per
    test process: test_site, test_editions and three other files read the same pages, and
    parsing them all once took 5 s. Shared by every test, so no test may change it (parse a
    copy of your own to cut it up)."""
    stat = path.stat()
    return _parsed(path.resolve(), stat.st_mtime_ns, stat.st_size)


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site `make book` built. `make test` builds it first; a bare pytest run needs
    it too."""
    if not (HTML / "index.html").exists():
        pytest.fail(
            "no built site in _build/html: run `make test` (it builds the book first)"
        )
    return HTML


# `make test` builds the print edition in the background while the site's tests run (Makefile,
# `test`): this file holds the PID of make test's shell, and goes when `make pdf` has ended.
PDF_PENDING = ROOT / "_build" / "pdf.pending"


def wait_for_the_print_edition(timeout: float = 900) -> None:
    """Return once no `make test` is still building the print edition (at most ``timeout``
    seconds): at once when PDF_PENDING is absent, or left behind by a `make test` that is gone
    (interrupted)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(int(PDF_PENDING.read_text(encoding="utf-8")), 0)
        except (OSError, ValueError):  # no such file, no such process, or half written
            return
        time.sleep(0.5)


@pytest.fixture(scope="session")
def print_edition() -> None:
    """For the tests that read the PDF (or the site's link to it): the print edition `make
    test` may still be building beside them is done."""
    wait_for_the_print_edition()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in {"", "0", "false"}


# Module fixtures of test_figures.py that render every figure (write_all, then once more):
# the tests that use them are marked `render`, which `make check` leaves to `make test`.
RENDER_EVERY_FIGURE = {"written", "rebuilt"}


# How `make test` and `make check` share the tests between two processes (pytest-xdist,
# --dist loadfile --no-loadscope-reorder): one test file per process at a time, so that a
# file's module fixtures are computed once, in the order of the collection, which puts the
# longest files first, so that no long one starts last (seconds in a fresh-clone `make test`,
# beside the build / after it; pytest-xdist's own reordering goes by the number of tests).
LONGEST_FIRST = [
    "tests/test_figures.py",  # every figure rendered twice (- / ~45 s)
    "tests/test_browser.py",  # interactive figures, search, sidebars (- / ~45 s)
    "tests/test_strict_build.py",  # small books (~40 s / -)
    "tests/test_faults.py",  # small books (~20 s / -)
    "tests/test_routes.py",  # JupyterLab, a notebook run against the wheel (- / ~20 s)
    "tests/test_site.py",  # every page parsed (- / ~15 s)
    "tests/test_negative_controls.py",  # small books (~10 s / ~4 s)
    "tests/test_editions.py",  # small books; both editions parsed (~8 s / ~8 s)
]


def rank(item) -> int:
    module = item.nodeid.split("::", 1)[0]
    return (
        LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)
    )


def pytest_collection_modifyitems(items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if RENDER_EVERY_FIGURE & fixtures:
            item.add_marker(pytest.mark.render)
        # A test that reads the built site waits for the build, wherever it is declared.
        if "built_site" in fixtures:
            item.add_marker(pytest.mark.site)
    # stable: within a file, and among the other files, the order is kept
    items.sort(key=rank)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI a skipped test is a failed test: every check must really run there."""
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped:
        report.outcome = "failed"
        report.longrepr = (
            f"skipped under CI, which must run every test: {report.longrepr}"
        )


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def server(built_site):
    """The built site, served from 127.0.0.1 (tests/test_browser.py, tests/test_pages.py)."""
    from chromium import serve

    with serve(built_site) as origin:
        yield origin


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium headless shell (tests/chromium.CHROMIUM), driven by Playwright (never
    a downloaded browser)."""
    from chromium import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
