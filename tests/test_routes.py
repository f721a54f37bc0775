"""The reader's route into the chapters besides the website: JupyterLab (`make lab`), in the
environment that `make` builds from the pins. (A notebook downloaded from the site, run in a
reader's own environment: test_run_as_shown.py.)

JupyterLab and jupyterlab-myst come with requirements-lab.txt, which `make test` installs after
the build, so the tests that need them are marked `lab`. Outside CI a machine without them
skips; in CI that is a failure.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser import CHROMIUM, CHROMIUM_ARGS
from conftest import in_ci
from support.book import ROOT, requirements

BIN = Path(sys.executable).parent
# a theorem-like statement in view (a folded one, `:class: dropdown`, is not counted: the
# chapters fold statements of proof machinery, which jupyterlab-myst draws folded too)
PRF_OPEN = re.compile(
    r"^(`{3,}|:{3,})\{prf:(\w+)\}[^\n]*\n(?!(?::[^\n]*\n)*:class: dropdown)",
    re.MULTILINE,
)


def need(condition: bool, reason: str) -> None:
    if not condition:
        if in_ci():
            pytest.fail(f"CI must run this test: {reason}")
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def jupyterlab(tmp_path, built_site, jupyter_env):
    """JupyterLab as `make lab` runs it, on a copy of one offered notebook (so that nothing is
    saved into the site), headless on 127.0.0.1 with every cell rendered (no windowing)."""
    need(
        shutil.which("jupyter-lab", path=str(BIN)) is not None,
        "JupyterLab is not installed (requirements-lab.txt; `make test` installs it)",
    )
    need(Path(CHROMIUM).exists(), "Debian's chromium-headless-shell is not installed")
    # a short chapter with theorems and glued numbers: the JupyterLab test runs it
    source = built_site / "_sources" / "book" / f"{LAB_CHAPTER}.ipynb"
    shutil.copy(source, tmp_path / source.name)
    env = jupyter_env
    tracker = (
        Path(env["JUPYTERLAB_SETTINGS_DIR"]) / "@jupyterlab" / "notebook-extension"
    )
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"})
    )
    # Unix socket paths are at most 107 bytes: the kernel's sockets go to a short folder
    runtime = Path(tempfile.mkdtemp(prefix="lab-", dir="/tmp"))
    env["JUPYTER_RUNTIME_DIR"] = str(runtime)
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [
            str(BIN / "jupyter-lab"),
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--allow-root",
            "--LabApp.expose_app_in_browser=True",
            f"--ServerApp.root_dir={tmp_path}",
            # the kernel's channels on Unix sockets, not on TCP ports found free a moment
            # before the kernel binds them, which a kernel of another test may take first
            "--KernelManager.transport=ipc",
        ],
        env=env,
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=1)
                break
            except OSError:
                time.sleep(0.25)
        else:
            pytest.fail("JupyterLab did not start within a minute")
        yield f"http://127.0.0.1:{port}", source.name
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            # it waits for its kernels to shut down; nothing here needs that
            server.kill()
            server.wait(timeout=30)
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


LAB_CHAPTER = "ch11-alibi"
# the open notebook's kernel status in JupyterLab ('starting', 'idle', 'busy', ...)
KERNEL_STATUS = "jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel?.status"


def glued_on_the_site(site: Path, chapter: str) -> list[str]:
    """The glued numbers a chapter's page shows in its prose, in order."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup((site / "book" / f"{chapter}.html").read_text(), "html.parser")
    article = page.select_one("article")
    return [
        span.get_text()
        for span in article.select("span.pasted-text")
        if not span.find_parent(class_="cell_output")
    ]


@pytest.mark.lab
def test_jupyterlab_shows_the_books_numbers_and_myst(jupyterlab, built_site, tmp_path):
    """`make lab`'s route: a chapter opened in JupyterLab and run from top to bottom shows the
    numbers the website shows where the website shows them (not a glue key), no reference as
    "⚠ label", every theorem-like statement as a MyST box (jupyterlab-myst), and no error."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    origin, path = jupyterlab
    numbers = glued_on_the_site(built_site, LAB_CHAPTER)
    notebook = nbformat.read(built_site / "_sources" / "book" / path, as_version=4)
    statements = sum(
        len(PRF_OPEN.findall(cell.source))
        for cell in notebook.cells
        if cell.cell_type == "markdown"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{origin}/lab", wait_until="load")
        page.wait_for_function(
            "window.jupyterapp && window.jupyterapp.commands", timeout=60000
        )
        page.evaluate(
            "async (path) => { await jupyterapp.restored; await jupyterapp.commands"
            ".execute('docmanager:open', {path}); }",
            path,
        )
        page.wait_for_selector(".jp-Notebook .jp-MarkdownCell .myst", timeout=60000)
        # Run all only once the kernel is up: cells run while it is still starting may be
        # skipped (under load, the prompts then stayed empty until the timeout)
        page.wait_for_function(f"{KERNEL_STATUS} === 'idle'", timeout=120000)
        page.evaluate("jupyterapp.commands.execute('notebook:run-all-cells')")
        try:
            page.wait_for_function(
                "[...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]"
                ".every(p => /\\[\\d+\\]/.test(p.innerText))",
                timeout=300000,
            )
        except PlaywrightTimeout:
            prompts = page.evaluate(
                "[...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]"
                ".map(p => p.innerText.trim())"
            )
            status = page.evaluate(KERNEL_STATUS)
            log = (tmp_path / "server.log").read_text()[-3000:]
            pytest.fail(f"run-all unfinished: prompts {prompts}, kernel {status}\n{log}")
        shown = page.evaluate(
            "[...document.querySelectorAll('.jp-MarkdownCell')].map(c => c.textContent).join('\\n')"
        )
        boxes = page.evaluate(
            "document.querySelectorAll('.jp-MarkdownCell aside.myst-proof').length"
        )
        errors = page.evaluate(
            "document.querySelectorAll('.jp-OutputArea-output[data-mime-type=\"application/vnd.jupyter.stderr\"]').length"
        )
        browser.close()
    assert len(numbers) >= 5, (
        f"{LAB_CHAPTER}'s page shows too few glued numbers: {numbers}"
    )
    missing = [number for number in numbers if number not in shown]
    assert not missing, f"numbers of the site that JupyterLab does not show: {missing}"
    assert "{glue" not in shown and "⚠" not in shown
    assert statements >= 2 and boxes >= statements, (boxes, statements)
    assert not errors, f"{errors} outputs on stderr"


@pytest.mark.lab
def test_the_environment_holds_exactly_the_pins():
    """With JupyterLab installed, the environment holds the pinned packages and nothing else
    (but the project itself and the venv's own pip): requirements.txt, requirements-nodeps.txt
    and requirements-lab.txt, each at its pinned version. `make lock` leaves out of the lab's
    pins what requirements-lab-excludes.txt names (2.9 s in every process that reads a
    notebook); an install that resolved the pins again would bring it back."""
    import importlib.metadata

    need(
        shutil.which("jupyter-lab", path=str(BIN)) is not None,
        "JupyterLab is not installed (requirements-lab.txt; `make test` installs it)",
    )
    from packaging.utils import canonicalize_name

    pins = {
        name: version
        for file in (
            "requirements.txt",
            "requirements-nodeps.txt",
            "requirements-lab.txt",
        )
        for name, version in requirements(ROOT / file).items()
    }
    installed = {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions()
    }
    assert {"numpy", "jupyterlab", "uv"} <= installed.keys() & pins.keys()
    unpinned = sorted(set(installed) - set(pins) - {"posenc", "pip"})
    assert not unpinned, f"installed but not pinned: {unpinned}"
    moved = {
        name: (version, pins[name])
        for name, version in installed.items()
        if name in pins and version != pins[name]
    }
    assert not moved, f"installed at another version than pinned: {moved}"


@pytest.mark.lab
def test_jupyterlab_reports_every_extension_compatible():
    """`jupyter labextension list` finds each extension built for this JupyterLab: a
    jupyterlab-myst built against another @jupyter/ydoc is reported "not compatible" (it
    rendered, until some notebook it could not)."""
    need(
        shutil.which("jupyter-lab", path=str(BIN)) is not None,
        "JupyterLab is not installed (requirements-lab.txt; `make test` installs it)",
    )
    listed = subprocess.run(
        [str(BIN / "jupyter"), "labextension", "list"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = listed.stdout + listed.stderr
    assert "jupyterlab-myst" in report, report
    assert "not compatible" not in report, report


def test_a_kernel_starts_without_noise(tmp_path):
    """A kernel started as the build and `jupyter execute` start it writes nothing to stderr
    (ipykernel 7.3 and later warn there, on every start, that TCP is unencrypted)."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name="python3")
    with (tmp_path / "stderr").open("w") as stderr:
        manager.start_kernel(stderr=stderr)
        client = manager.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    noise = (tmp_path / "stderr").read_text()
    assert "without encryption" not in noise and "WARNING" not in noise, noise
