"""Every chapter runs from top to bottom in a fresh kernel, outside the build and its cache.

The build executes chapters through MyST-NB's cache; this test does not trust it: it converts
each chapter with jupytext and executes it with nbclient, as a reader's Jupyter would.
"""

from __future__ import annotations

import jupytext
import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from conftest import ROOT, is_notebook, toc_files

CHAPTERS = [path for path in toc_files() if is_notebook(path)]


def test_the_book_has_chapters():
    assert CHAPTERS, "the table of contents names no notebook chapter"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[path.stem for path in CHAPTERS])
def test_chapter_executes_fresh(chapter, tmp_path):
    notebook = jupytext.read(chapter)
    # IPC, not TCP: no port to race for with other kernels starting on the machine. The socket
    # path is absolute because the kernel runs in the chapter's folder, the client here.
    kernel = KernelManager(kernel_name="python3", transport="ipc", ip=str(tmp_path / "kernel"))
    client = NotebookClient(notebook, km=kernel, timeout=600,
                            resources={"metadata": {"path": str(chapter.parent)}})
    try:
        client.execute()
    finally:  # nbclient leaves a kernel it did not start to its owner
        if client.kc is not None:
            client.kc.stop_channels()
        if kernel.has_kernel:
            kernel.shutdown_kernel(now=True)
        kernel.cleanup_resources()
    stderr = [output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
              for output in cell.get("outputs", [])
              if output.get("output_type") == "stream" and output.get("name") == "stderr"]
    assert not stderr, f"{chapter.relative_to(ROOT)} wrote to stderr: {stderr}"
    nbformat.validate(notebook)
