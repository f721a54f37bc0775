"""The execution cache: it follows the library, and it is filled two chapters at a time.

1. MyST-NB's cache (jupyter-cache) keys a chapter on its code cells only, so a change to
   `src/posenc` or to the pinned requirements would leave every chapter showing the old code's
   results. Both are fingerprinted (`fingerprint`); when the fingerprint changes, or when the
   cache is damaged (an unreadable database, a cached notebook garbled or missing), the cache is
   deleted and every page read again, so every chapter executes again. Every chapter imports
   posenc, so dropping only some of them would spare none.
2. Before Sphinx reads the pages, the chapters the cache does not hold are executed by
   jupyter-cache's own `local-parallel` executor (one process per core) and cached; MyST-NB then
   finds each of them in the cache. A chapter that fails there is not cached: MyST-NB executes it
   again as it always does, and its error fails the strict build with the usual report.
   (Sphinx's own parallel reading is no help: sphinx-proof cannot merge its domain's data.)
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging as sphinx_logging

LOGGER = sphinx_logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "src" / "posenc"
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "requirements-nodeps.txt"]
FINGERPRINT_FILE = "posenc-fingerprint.txt"
# how jupyter-cache reads a MyST Markdown chapter: MyST-NB's own reader
MYST_READER = {"name": "myst_nb_md", "type": "plugin"}


def fingerprint() -> str:
    """SHA-256 over the library's files and the pinned requirements (names and contents)."""
    library = [
        p for p in LIBRARY.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    ]
    digest = hashlib.sha256()
    for path in sorted(library) + [p for p in REQUIREMENTS if p.exists()]:
        digest.update(f"{path.relative_to(ROOT)}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def cache_damage(cache_dir: Path) -> str | None:
    """Why the cache cannot be trusted, or None: opens it and reads every executed notebook."""
    if not (cache_dir / "global.db").exists():
        return None
    try:
        from jupyter_cache import get_cache

        cache = get_cache(str(cache_dir))
        for record in cache.list_cache_records():
            cache.get_cache_bundle(record.pk)  # reads and parses the executed notebook
    except (
        Exception
    ) as error:  # sqlite, JSON, a missing file: any damage means the same
        return f"{type(error).__name__}: {str(error)[:200]}"
    return None


def drop_untrusted_cache(app: Sphinx, env, added, changed, removed) -> list[str]:
    """`env-get-outdated`: delete a cache filled with another library or other requirements,
    or a damaged one, and read every page again. Every page is read again too when the pages
    this build read last were read with another library: another build that shares the cache
    (the Chinese edition's, `make translations`) may have filled it anew since."""
    cache_dir = Path(env.mystnb_config.execution_cache_path)
    stamp = cache_dir / FINGERPRINT_FILE
    current = fingerprint()
    reason = None
    if cache_dir.exists():
        if not stamp.exists() or stamp.read_text().strip() != current:
            reason = "posenc or the pinned requirements changed"
        elif damage := cache_damage(cache_dir):
            reason = f"the execution cache {cache_dir} is damaged ({damage})"
    if reason:
        LOGGER.info("%s: deleting the execution cache; every chapter executes", reason)
        shutil.rmtree(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current + "\n")
    read_with = getattr(env, "posenc_fingerprint", None)  # (a new environment reads all)
    env.posenc_fingerprint = current  # saved with Sphinx's environment
    return sorted(env.found_docs) if reason or read_with != current else []


def is_notebook(path: Path) -> bool:
    """A MyST Markdown notebook carries a jupytext header with a kernelspec."""
    head = path.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "kernelspec:" in head


def execute_uncached(app: Sphinx, env, docnames: list[str]) -> None:
    """`env-before-read-docs`: run jupyter-cache's `local-parallel` executor on the chapters
    about to be read that the cache does not hold."""
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    config = env.mystnb_config
    if config.execution_mode != "cache":
        return
    paths = [Path(env.doc2path(docname)) for docname in docnames]
    chapters = [
        path
        for path in paths
        if is_notebook(path)
        and not any(path.match(pattern) for pattern in config.execution_excludepatterns)
    ]
    cache = get_cache(config.execution_cache_path)
    records = [cache.add_nb_to_project(str(p), read_data=MYST_READER) for p in chapters]
    uncached = cache.list_unexecuted(filter_pks=[record.pk for record in records])
    if not uncached:
        return
    count = f"{len(uncached)} chapter" + "s" * (len(uncached) > 1)
    LOGGER.info("executing %s, %d at a time", count, os.cpu_count())
    logger = logging.getLogger("jupyter_cache")
    logger.setLevel(logging.INFO)  # the workers report each chapter on stderr
    result = load_executor("local-parallel", cache, logger=logger).run_and_cache(
        filter_pks=[record.pk for record in uncached],
        timeout=config.execution_timeout,
        allow_errors=config.execution_allow_errors,
    )
    for path in result.excepted + result.errored:
        LOGGER.info("%s failed: MyST-NB executes it again and reports why", path)


def setup(app: Sphinx) -> dict:
    # The chapters' kernels inherit this: an interactive figure then outputs its HTML alone, not
    # also Plotly's mime type for JupyterLab, which MyST-NB would warn about
    # (posenc.figures._plotly.HTML_ONLY_VARIABLE).
    os.environ["POSENC_HTML_ONLY"] = "1"
    app.connect("env-get-outdated", drop_untrusted_cache)
    app.connect("env-before-read-docs", execute_uncached)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
