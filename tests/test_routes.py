"""The reader's routes besides the website: the chapters in JupyterLab (`make lab`), and a
notebook downloaded from the site run against the `posenc` wheel that the site offers.

Both need what `make test` installs: JupyterLab and jupyterlab-myst (requirements-lab.txt; after
the build, so the JupyterLab test is marked `lab`) and uv (requirements.txt). Outside CI a
machine without them skips; in CI that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser import CHROMIUM, CHROMIUM_ARGS
from conftest import in_ci
from support.book import ROOT, requirements, toc_files

BIN = Path(sys.executable).parent
PRF_OPEN = re.compile(r"^(`{3,}|:{3,})\{prf:(\w+)\}", re.MULTILINE)


def need(condition: bool, reason: str) -> None:
    if not condition:
        if in_ci():
            pytest.fail(f"CI must run this test: {reason}")
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def quiet_jupyter_env(tmp: Path) -> dict[str, str]:
    """Jupyter's config, data, runtime and settings folders in ``tmp``: nothing of the user's
    (kernels, extensions settings) leaks in and nothing is left behind."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV"}
    }
    for name, folder in {
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_DATA_DIR": "data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_SETTINGS_DIR": "settings",
        "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
    }.items():
        (tmp / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp / folder)
    return env


def test_a_downloaded_notebook_runs_with_the_offered_wheel(built_site, tmp_path):
    """A fresh virtual environment (no system site packages) gets the site's wheel with its
    `book` extra, held to the site's constraints.txt, as book/appendix-reproducing.md tells a
    reader; a chapter's .ipynb downloaded from the site then runs from end to end in a folder
    outside the repository, importing posenc from that environment."""
    uv = shutil.which("uv", path=str(BIN))
    need(
        uv is not None, "uv is not installed in the test environment (requirements.txt)"
    )
    wheels = sorted((built_site / "wheel").glob("posenc-*.whl"))
    assert len(wheels) == 1, f"the site offers {len(wheels)} posenc wheels in wheel/"
    constraints = built_site / "wheel" / "constraints.txt"
    assert constraints.is_file(), "the site offers no constraints.txt next to the wheel"

    venv = tmp_path / "env"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True
    )
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(venv / "bin" / "python"),
            "-c",
            str(constraints),
            f"{wheels[0]}[book]",
        ],
        check=True,
        timeout=600,
    )

    # the first chapter, as its page's download button offers it
    chapter = next(path for path in toc_files() if path.name.startswith("ch"))
    notebook = nbformat.read(
        built_site / "_sources" / "book" / f"{chapter.stem}.ipynb", as_version=4
    )
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import sys, posenc\n"
            f"assert sys.prefix == {str(venv)!r}, sys.prefix\n"
            f"assert posenc.__file__.startswith({str(venv)!r}), posenc.__file__"
        )
    )
    folder = tmp_path / "downloads"
    folder.mkdir()
    nbformat.write(notebook, folder / f"{chapter.stem}.ipynb")
    env = quiet_jupyter_env(tmp_path / "jupyter")
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run(
        [
            str(venv / "bin" / "jupyter"),
            "execute",
            "--output",
            "executed",
            f"{chapter.stem}.ipynb",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"{chapter.name} failed:\n{result.stderr[-3000:]}"
    executed = nbformat.read(folder / "executed.ipynb", as_version=4)
    errors = [
        output
        for cell in executed.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]
    assert not errors, errors[:1]


@pytest.fixture
def jupyterlab(tmp_path):
    """JupyterLab as `make lab` runs it, on a copy of one chapter (so that nothing is saved into
    the repository), headless on 127.0.0.1 with every cell rendered (no windowing)."""
    need(
        shutil.which("jupyter-lab", path=str(BIN)) is not None,
        "JupyterLab is not installed (requirements-lab.txt; `make test` installs it)",
    )
    need(Path(CHROMIUM).exists(), "Debian's chromium-headless-shell is not installed")
    chapter = next(
        path
        for path in toc_files()
        if path.name.startswith("ch") and "{prf:theorem}" in path.read_text()
    )
    (tmp_path / "book").mkdir()
    shutil.copy(chapter, tmp_path / "book" / chapter.name)
    env = quiet_jupyter_env(tmp_path / "jupyter")
    tracker = (
        Path(env["JUPYTERLAB_SETTINGS_DIR"]) / "@jupyterlab" / "notebook-extension"
    )
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"})
    )
    port = free_port()
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
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
        yield f"http://127.0.0.1:{port}", f"book/{chapter.name}", chapter.read_text()
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            # it waits for its kernels to shut down; nothing here needs that
            server.kill()
            server.wait(timeout=30)


@pytest.mark.lab
def test_jupyterlab_renders_the_chapters_myst(jupyterlab):
    """Opened as a notebook (jupytext), a chapter's theorem-like statements and proofs render as
    MyST boxes (jupyterlab-myst), not as code fences. Numbers glued into the text do not render:
    jupyterlab-myst does not read MyST-NB's glue (jupyter-book/jupyterlab-myst#165)."""
    from playwright.sync_api import sync_playwright

    origin, path, source = jupyterlab
    statements = len(PRF_OPEN.findall(source))
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
            ".execute('docmanager:open', {path, factory: 'Jupytext Notebook'}); }",
            path,
        )
        page.wait_for_selector(".jp-Notebook .jp-MarkdownCell .myst", timeout=60000)
        page.wait_for_function(
            f"document.querySelectorAll('.jp-MarkdownCell aside.myst-proof')"
            f".length >= {statements}",
            timeout=30000,
        )
        raw = page.evaluate("""[...document.querySelectorAll('.jp-MarkdownCell')]
            .filter(cell => cell.innerText.includes('{prf:')).length""")
        browser.close()
    assert statements > 3, "the chapter has too few prf directives for this check"
    assert not raw, f"{raw} markdown cells show prf directives as text"


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
