"""The build is strict, and its execution cache never serves results of an older
library.

Each test marked `build` builds a small throw-away book with this project's _config.yml
and build extension.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading

import pytest
from conftest import (
    INTRO,
    NOTEBOOK_HEADER,
    build_book,
    executed_stamp,
    load_book_ext,
    make_small_book,
    run_script,
    stamped_page,
)

TRUE_CLAIM = "sp.sin(x)**2 + sp.cos(x)**2 - 1"


def identity_chapter(claim: str) -> str:
    return (
        NOTEBOOK_HEADER
        + f"""
# A proof

```{{code-cell}} ipython3
import sympy as sp
x = sp.symbols("x")
assert sp.simplify({claim}) == 0
```
"""
    )


SHOW_START = """#!{python}
import json, os, sys
print(json.dumps({{
    "name": __name__, "argv": sys.argv, "path": sys.path, "cwd": os.getcwd(),
    "flags": list(sys.flags), "variable": os.environ.get("POSENC_PROBE"),
    "stdin": sys.stdin.read(),
}}))
print("to stderr", file=sys.stderr)
sys.exit(3)
"""


@pytest.mark.build  # starts a build server of its own (its PYTHONPATH is another)
def test_a_forked_script_starts_as_a_fresh_one(tmp_path, monkeypatch):
    """What a script sees of its interpreter, run in a child of the build server and by a
    new process: the same name, arguments, import path (with a PYTHONPATH set after this
    process's server started: a server is started for it), folder, flags, environment,
    empty stdin, output and exit status."""
    script = tmp_path / "show_start.py"
    script.write_text(SHOW_START.format(python=sys.executable))
    script.chmod(0o755)
    extra = tmp_path / "on-the-path"
    extra.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(extra))
    monkeypatch.setenv("POSENC_PROBE", "seen")
    monkeypatch.chdir(tmp_path)
    fresh = run_script([script, "an argument"], timeout=120, fresh=True)
    forked = run_script([script, "an argument"], timeout=120)
    assert (forked.returncode, forked.stderr) == (fresh.returncode, fresh.stderr)
    assert fresh.returncode == 3 and fresh.stderr == "to stderr\n"
    seen_fresh, seen_forked = json.loads(fresh.stdout), json.loads(forked.stdout)
    assert seen_fresh["path"][1] == str(extra), seen_fresh["path"][:3]
    assert seen_forked == seen_fresh


@pytest.mark.build
def test_a_forked_build_is_the_build_a_shell_runs(tmp_path):
    """build_book runs `jupyter-book` in a child of the build server (tests/build_server.py),
    which has imported the build's packages already: the same book built there and by a
    fresh `jupyter-book` process, as a shell runs it, exits with the same status, reports the
    same warnings and writes the same pages. The book executes a chapter, glues a number and
    refers to a label that does not exist (the warning fails the strict build)."""
    pages = {
        "intro": INTRO + "\nSee {ref}`no-such-label`.\n",
        "chapter": NOTEBOOK_HEADER
        + """
# A chapter

```{code-cell} ipython3
from myst_nb import glue
import posenc
glue("width", posenc.sinusoidal(4, 8).shape[1], display=False)
print("executed")
```

The encoding has {glue:text}`width` columns.
""",
    }
    source = make_small_book(tmp_path / "book", pages)
    shell = tmp_path / "shell"
    shutil.copytree(source, shell)
    by_shell = build_book(shell, fresh=True)
    forked = tmp_path / "forked"
    shutil.copytree(source, forked)
    by_fork = build_book(forked)

    def warnings(result, book) -> list[str]:
        """Sphinx's warnings and errors ("WARNING: ...", "ERROR: ..."). Not what the
        chapter's kernel logs to the same stderr ("[IPKernelApp] WARNING | ...",
        "ERROR:tornado.general:..."): a kernel once logged an uncaught exception in one
        build and not in the other, while both builds did the same."""
        log = (result.stdout + result.stderr).replace(str(book), "BOOK")
        return sorted(re.findall(r"^.*\b(?:WARNING|ERROR): .*$", log, re.MULTILINE))

    assert by_shell.returncode != 0, "the unresolved reference must fail the build"
    assert by_fork.returncode == by_shell.returncode
    assert warnings(by_fork, forked) == warnings(by_shell, shell)
    assert any("no-such-label" in line for line in warnings(by_shell, shell))

    def pages_of(book) -> dict[str, str]:
        html = book / "_build" / "html"
        return {
            str(path.relative_to(html)): path.read_text(encoding="utf-8")
            for path in sorted(html.rglob("*.html"))
        }

    written = pages_of(shell)
    assert "The encoding has" in written["book/chapter.html"]
    assert pages_of(forked) == written


@pytest.mark.build
def test_false_identity_fails_the_build(tmp_path):
    """Two chapters to execute, so they run in parallel first (tools/book_ext.py,
    execute_in_parallel): the failing one is not cached there, and MyST-NB's own run of it
    fails the build as a serial build would."""
    book = make_small_book(
        tmp_path,
        {
            "intro": INTRO,
            "proof": identity_chapter(TRUE_CLAIM.replace("- 1", "- 2")),
            "other": stamped_page("Another chapter"),
        },
    )
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "executing 2 chapters, 2 at a time" in log, log[-3000:]
    assert "book/proof: CellExecutionError when executed in parallel" in log
    assert "AssertionError" in log and "proof" in log


WARNS = (
    NOTEBOOK_HEADER
    + """
# Warns

```{code-cell} ipython3
import warnings
warnings.warn("this output would end up in the page")
```
"""
)


@pytest.mark.build
def test_unresolved_reference_and_python_warning_fail_the_build(tmp_path):
    """Two faults that the strict build reports as warnings (so that each one alone
    fails it under -W) and, with --keep-going, both in one build: a reference to a
    label that does not exist, and a cell that writes a Python warning to stderr."""
    book = make_small_book(
        tmp_path,
        {"intro": INTRO + "\nSee {numref}`fig-that-does-not-exist`.\n", "warns": WARNS},
    )
    result = build_book(book, expect_ok=False)
    log = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    assert re.search(
        r"intro\.md:\d+: (WARNING|ERROR): .*fig-that-does-not-exist", log
    ), log[-3000:]
    assert re.search(r"warns\.md:\d+: (WARNING|ERROR): .*stderr", log), log[-3000:]


@pytest.mark.build
def test_cache_serves_unchanged_chapters_and_follows_the_library(tmp_path):
    """A chapter is served from the cache until posenc changes, then executed again
    (the cache is deleted: every chapter imports posenc). The same book's true identity
    is the control of test_false_identity_fails_the_build."""
    book = make_small_book(
        tmp_path,
        {
            "intro": INTRO,
            "proof": identity_chapter(TRUE_CLAIM),
            "uses": stamped_page("Uses posenc", "import posenc"),
        },
        with_library=True,
    )

    result = build_book(book, expect_ok=True)
    assert (book / "_build" / "html" / "book" / "proof.html").exists()
    # executed in parallel (tools/book_ext.py), then served to MyST-NB from the cache
    assert "executing 2 chapters, 2 at a time" in result.stdout
    assert "uses.md: Using cached notebook" in result.stdout
    first = executed_stamp(book, "uses")

    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") == first, (
        "nothing changed: served from the cache"
    )

    library = book / "src" / "posenc" / "__init__.py"
    library.write_text(library.read_text() + "\n# a change to the library\n")
    build_book(book, expect_ok=True)
    assert executed_stamp(book, "uses") != first, "a library change must re-execute"


def test_the_fingerprint_follows_every_library_file_and_the_pins(tmp_path, monkeypatch):
    """What makes the build above drop its cache: any file of posenc (not its bytecode)
    and either requirements file."""
    book_ext = load_book_ext()
    library = tmp_path / "src" / "posenc"
    (library / "data").mkdir(parents=True)
    pins = [tmp_path / "requirements.txt", tmp_path / "requirements-nodeps.txt"]
    for path in [library / "__init__.py", library / "data" / "table.json", *pins]:
        path.write_text("original\n")
    monkeypatch.setattr(book_ext, "ROOT", tmp_path)
    monkeypatch.setattr(book_ext, "LIBRARY", library)
    monkeypatch.setattr(book_ext, "REQUIREMENTS", pins)

    seen = {book_ext.fingerprint()}
    (library / "__pycache__").mkdir()
    (library / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"bytecode")
    assert book_ext.fingerprint() in seen, "bytecode changed the fingerprint"
    for path in [library / "__init__.py", library / "data" / "table.json", *pins]:
        path.write_text("changed\n")
        assert book_ext.fingerprint() not in seen, f"{path.name} is not fingerprinted"
        seen.add(book_ext.fingerprint())
    (library / "new.py").write_text("")
    assert book_ext.fingerprint() not in seen, "a new library file is not fingerprinted"


def one_cell_notebook(source: str, kernel: str = "python3"):
    import nbformat

    return nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source)],
        metadata={
            "kernelspec": {"name": kernel, "language": "python", "display_name": kernel}
        },
    )


def test_parallel_kernels_talk_over_their_own_sockets_not_tcp(tmp_path):
    """The chapters executed in parallel (tools/book_ext.py, _execute_chapter) use ZeroMQ's
    IPC transport: no TCP port that another kernel starting at the same time could take."""
    book_ext = load_book_ext()
    notebook = one_cell_notebook(
        "from ipykernel import get_connection_info\n"
        "print(get_connection_info(unpack=True)['transport'])"
    )
    executed, _, error = book_ext._execute_chapter((notebook, str(tmp_path), 60, False))
    assert error is None, error
    assert executed.cells[0].outputs[0]["text"].strip() == "ipc"
    assert list(tmp_path.iterdir()) == [], (
        "the kernel left files in the chapter's folder"
    )


def test_a_build_waits_while_another_one_holds_the_execution_cache(tmp_path):
    """Two builds that share an execution cache (`make test` starts the English and the
    Chinese edition together) take turns: while one holds tools/book_ext.py's cache_lock,
    the other's check of the cache and its execution wait; they go on once it lets go."""
    book_ext = load_book_ext()
    cache = tmp_path / "_build" / ".jupyter_cache"
    entered = threading.Event()

    def other_build():
        with book_ext.cache_lock(cache):
            entered.set()

    with book_ext.cache_lock(cache):
        other = threading.Thread(target=other_build)
        other.start()
        assert not entered.wait(1.0), "entered the cache while another build held it"
    assert entered.wait(10), "still waiting after the other build let go"
    other.join()
    with book_ext.cache_lock(cache):  # and free again afterwards
        pass


def test_a_kernel_that_cannot_start_is_left_to_myst_nb(tmp_path):
    """A chapter whose kernel fails (here: it does not exist) is reported, not raised: the
    build goes on, and MyST-NB executes the chapter again and reports its failure."""
    book_ext = load_book_ext()
    notebook = one_cell_notebook("1 + 1", kernel="no-such-kernel")
    _, _, error = book_ext._execute_chapter((notebook, str(tmp_path), 60, False))
    assert error is not None and "no-such-kernel" in error, error
