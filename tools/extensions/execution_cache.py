"""The execution cache follows the library.

MyST-NB's cache (jupyter-cache) keys a chapter on its code cells only, so a change to
`src/posenc` or to the pinned requirements would leave every chapter showing the old code's
results. Both are fingerprinted (`fingerprint`); when the fingerprint changes, or when the cache
is damaged (an unreadable database, a cached notebook garbled or missing), the cache is deleted
and every page read again, so every chapter executes again. Every chapter imports posenc, so
dropping only some of them would spare none.

MyST-NB executes the chapters the cache does not hold, one after the other, as it always does.
(Two at a time, in jupyter-cache's `local-parallel` executor, saved about two minutes of a
fresh build but was given up: its forked workers' kernels pick TCP ports that can collide, and
`multiprocessing.Pool` waits for ever on a worker whose chapter never returns, which once held a
CI run until its time limit.)
"""

from __future__ import annotations

import hashlib
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
# in a builder's output folder, beside Sphinx's own .buildinfo
WRITTEN_WITH_FILE = ".posenc-buildinfo"


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
    were read with another library (another build that shares the cache, the Chinese
    edition's, may have filled it anew since), and, for a website, when its pages were not
    written with this library or nobody knows what they were written with
    (`WRITTEN_WITH_FILE`, absent until a build has finished without an error or a warning).
    The LaTeX build (`make pdf`) shares the website's Sphinx environment: it may have read the
    pages with a new library already, and Sphinx writes again only the pages it reads again
    (or whose source changed), so without this record the website would keep the old results.
    (The LaTeX builder writes every page at every build: it needs no record.)"""
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
    # saved with Sphinx's environment (a new one reads every page anyway)
    read_with = getattr(env, "posenc_fingerprint", None)
    env.posenc_fingerprint = current
    stale = reason or read_with != current
    if app.builder.format == "html":
        written = Path(app.outdir) / WRITTEN_WITH_FILE
        written_with = written.read_text().strip() if written.exists() else None
        written.unlink(missing_ok=True)  # until this build has finished
        stale = stale or written_with != current
    return sorted(env.found_docs) if stale else []


def record_written_with(app: Sphinx, exception: Exception | None) -> None:
    """`build-finished`: the library a website's pages were written with (the one its build
    started with), once they all are and none warned. Under `--keep-going` a warning is no
    exception; Sphinx counts it in `app._warncount` (an AttributeError here, should a later
    Sphinx rename it, fails the build loudly)."""
    if app.builder.format == "html" and exception is None and app._warncount == 0:
        written = Path(app.outdir) / WRITTEN_WITH_FILE
        written.write_text(app.env.posenc_fingerprint + "\n")


def setup(app: Sphinx) -> dict:
    # The chapters' kernels inherit this: an interactive figure then outputs its HTML alone, not
    # also Plotly's mime type for JupyterLab, which MyST-NB would warn about
    # (posenc.figures._plotly.HTML_ONLY_VARIABLE).
    os.environ["POSENC_HTML_ONLY"] = "1"
    app.connect("env-get-outdated", drop_untrusted_cache)
    app.connect("build-finished", record_written_with)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
