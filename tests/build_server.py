"""A Python process that has imported the build's packages once, and runs each small book's
build in a child forked from it (``conftest.run_script``, which ``build_book`` uses).

Why: the tests of the build (test_strict_build, test_faults, test_negative_controls,
test_editions) build about twenty small books, beside the book's own build on the same two
cores, and a fresh ``jupyter-book`` process spent 2.3 s of a small book's 3 s importing
Sphinx, Jupyter Book, MyST-NB and the extensions: the same modules every time. A child
forked from this process starts with them imported and runs the very script a shell would
run (the ``jupyter-book`` console script, ``tools/translations.py``) as ``__main__``, with
the caller's arguments, folder, environment and output files, and exits with the script's
status (``test_a_forked_build_is_the_build_a_shell_runs`` compares the two).

Nothing of this project is imported before the fork (``posenc``, the build extensions in
``tools/``): a small book brings its own copy of them, and the child imports that one, as a
fresh process would. The server refuses to start otherwise, and with a thread running
(forking copies only the thread that forks).

Protocol: a JSON object per line on stdin, ``{"argv", "cwd", "env", "stdout", "stderr"}``
(``argv[0]`` a Python script; ``stdout`` and ``stderr`` the files its output goes to); for
each, a line ``{"pid": ...}`` once the child runs and ``{"returncode": ...}`` once it has
ended, on stdout. The server ends when its stdin closes.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import json
import os
import runpy
import sys
import threading
import traceback
from pathlib import Path

# What a build imports before it reads a page: tools/precompile.py's BUILD, which setup compiles
# too (loaded from its file, so that tools/ does not join the children's import path).
_spec = importlib.util.spec_from_file_location(
    "precompile", Path(__file__).resolve().parents[1] / "tools" / "precompile.py"
)
_precompile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_precompile)
PRELOADED = _precompile.BUILD

# Modules of this project, which every small book brings a copy of: never imported here.
OWN = ("posenc", "book_ext", "site_ext", "i18n_ext", "print_ext", "typeset_numbers")


def preload() -> None:
    for name in PRELOADED:
        importlib.import_module(name)
    own = sorted(name for name in sys.modules if name.split(".")[0] in OWN)
    if own:
        raise RuntimeError(f"the build server imported this project's {own}")
    if threading.active_count() != 1:
        raise RuntimeError(
            f"a thread runs in the build server: {threading.enumerate()}"
        )


def run_child(request: dict, protocol_fds: tuple[int, ...]) -> None:
    """In the forked child: become ``python ARGV...`` run in CWD with ENV, and exit."""
    for fd in protocol_fds:
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, fd)
        os.close(out)
    script = os.path.abspath(request["argv"][0])
    sys.argv = [request["argv"][0], *request["argv"][1:]]
    sys.path[0] = os.path.dirname(script)  # as `python SCRIPT` sets it
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:  # what the interpreter does with it
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()  # noqa: SLF001 (the interpreter's own exit, which os._exit skips)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve() -> None:
    # the protocol on descriptors of its own; 0 and 1 are the children's stdin and stdout
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    # sys.path[0] as the console script has it (.venv/bin), not tests/
    sys.path[0] = os.path.dirname(sys.executable)
    preload()

    def reply(**fields) -> None:
        replies.write(json.dumps(fields) + "\n")
        replies.flush()

    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            run_child(request, (requests.fileno(), replies.fileno()))
        reply(pid=pid)
        _, status = os.waitpid(pid, 0)
        reply(returncode=os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    serve()
