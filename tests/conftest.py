"""pytest's fixtures and hooks for the whole suite. What test files share besides is in
tests/support/; the browser's helpers are in tools/browser.py."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the scripts and the build extensions, importable by name as the build imports them
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tools" / "extensions")]

from support.book import HTML  # noqa: E402


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in {"", "0", "false"}


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site `make book` built (`make test` builds it first)."""
    if not (HTML / "index.html").exists():
        pytest.fail(
            "no built site in _build/html: run `make test` (it builds the book first)"
        )
    return HTML


@pytest.fixture
def jupyter_env(tmp_path) -> dict[str, str]:
    """The environment for a Jupyter command, with Jupyter's config, data, runtime and
    settings folders under ``tmp_path``: nothing of the user's (kernels, extensions settings)
    leaks in and nothing is left behind."""
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
        (tmp_path / "jupyter" / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp_path / "jupyter" / folder)
    return env


@pytest.fixture
def model_copy(tmp_path) -> Path:
    """A copy of the real all-MiniLM-L6-v2 model file that a test may damage."""
    from posenc import minilm_path

    path = tmp_path / "model.safetensors"
    shutil.copyfile(minilm_path(), path)
    return path


@pytest.fixture(scope="module")
def server(built_site):
    """The built site, served from 127.0.0.1."""
    from browser import serve

    with serve(built_site) as origin:
        yield origin


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium headless shell (tools/browser.py), driven by Playwright (never a
    downloaded browser). Outside CI a machine without it skips the test; in CI that fails."""
    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.skip(
            "Debian's chromium-headless-shell is not installed (bash .ci/run installs it)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# Module fixtures of test_figures.py and test_figures_zh.py that render every figure: the tests
# that use them are marked `render`, which `make check` leaves to `make test`.
RENDER_EVERY_FIGURE = {"written", "rebuilt", "chinese_texts"}


def pytest_collection_modifyitems(items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if RENDER_EVERY_FIGURE & fixtures:
            item.add_marker(pytest.mark.render)
        if "built_site" in fixtures:
            item.add_marker(pytest.mark.site)


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
