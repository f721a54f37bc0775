"""Tests for posenc.pretrained: reading safetensors files and the pinned
all-MiniLM-L6-v2.

Parsing is the ``safetensors`` package's; what is ours, and tested here, is what the
book relies on: the real model's tensors and pinned SHA-256, the SHA-256 checked on
request (with hashlib as the reference), read-only arrays, and errors that name the
file: ``ValueError`` for anything the package rejects, ``ChecksumError`` (a
``ValueError``) for a wrong digest, ``FileNotFoundError`` for a missing file. Synthetic
files are written with ``safetensors.numpy.save_file``. The book-level faults (a damaged
or missing model reported with the command that fixes it) are in test_faults.py.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np
import pytest
import safetensors.numpy
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from posenc import (
    ChecksumError,
    Embeddings,
    load_safetensors,
    minilm_embeddings,
    minilm_path,
    minilm_tensors,
    sha256_file,
)
from posenc.pretrained import MINILM_SHA256

PINNED_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MODEL_BYTES = 90_868_376


def sample_tensors():
    rng = np.random.default_rng(0)
    return {
        "f32": rng.normal(size=(4, 3)).astype(np.float32),
        "f16": rng.normal(size=(5,)).astype(np.float16),
        "f64": rng.normal(size=(2, 2, 2)),
        "i64": np.arange(-3, 9, dtype=np.int64).reshape(3, 4),
        "i8": np.arange(-4, 4, dtype=np.int8),
        "u8": np.arange(7, dtype=np.uint8),
        "flag": np.array([True, False, True]),
        "scalar": np.array(2.5, dtype=np.float32),
        "empty": np.zeros((0, 3), dtype=np.float32),
        "ünïcode name.with/dots": np.ones((1, 1), dtype=np.float64),
    }


def write(path, tensors=None, metadata=None):
    safetensors.numpy.save_file(
        sample_tensors() if tensors is None else tensors, path, metadata=metadata
    )
    return path


# ----------------------------------------------------------------------- the real model


def test_real_model_shapes_and_pinned_hash():
    emb = minilm_embeddings()
    assert isinstance(emb, Embeddings)
    assert emb.word.shape == (30522, 384)
    assert emb.position.shape == (512, 384)
    assert emb.token_type.shape == (2, 384)
    for table in (emb.word, emb.position, emb.token_type):
        assert table.dtype == np.float32
        assert not table.flags.writeable
        assert np.isfinite(table).all()
    assert emb.path == minilm_path()
    assert (
        emb.path.name == "model.safetensors" and emb.path.stat().st_size == MODEL_BYTES
    )
    # the pinned digest, computed here by hashlib as well as by the library
    assert emb.sha256 == MINILM_SHA256 == PINNED_SHA256 == sha256_file(emb.path)
    assert hashlib.sha256(emb.path.read_bytes()).hexdigest() == PINNED_SHA256
    with pytest.raises(dataclasses.FrozenInstanceError):
        emb.word = emb.position


def test_real_model_tensor_names():
    tensors = minilm_tensors()
    assert (
        len(tensors) == 104
    )  # 6 layers of 16 tensors, 6 embedding tensors, the pooler's 2
    assert not any(name.startswith("bert.") for name in tensors)
    assert np.array_equal(tensors["embeddings.position_ids"], np.arange(512)[None, :])
    for layer in range(6):
        prefix = f"encoder.layer.{layer}.attention.self."
        for part in ("query", "key", "value"):
            assert tensors[prefix + part + ".weight"].shape == (384, 384)
            assert tensors[prefix + part + ".bias"].shape == (384,)
    assert tensors["pooler.dense.weight"].shape == (384, 384)
    assert all(not array.flags.writeable for array in tensors.values())
    # the embedding tables are the tensors of the same names
    emb = minilm_embeddings()
    assert np.array_equal(
        emb.position, tensors["embeddings.position_embeddings.weight"]
    )


# ---------------------------------------------------------------------- synthetic files


def assert_same_tensors(loaded, tensors):
    assert set(loaded) == set(tensors)
    for name, array in tensors.items():
        assert loaded[name].dtype == array.dtype
        assert loaded[name].shape == array.shape
        assert np.array_equal(loaded[name], array)


def test_round_trip(tmp_path):
    tensors = sample_tensors()
    path = write(tmp_path / "t.safetensors", tensors, metadata={"format": "np"})
    assert_same_tensors(load_safetensors(path), tensors)
    assert_same_tensors(load_safetensors(str(path)), tensors)  # a str path works too


DTYPES = [
    "float64",
    "float32",
    "float16",
    "int64",
    "int32",
    "int16",
    "int8",
    "uint64",
    "uint32",
    "uint16",
    "uint8",
    "bool",
]


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8).filter(lambda name: name != "__metadata__"),
        st.tuples(
            st.sampled_from(DTYPES),
            hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
        ),
        max_size=5,
    )
)
def test_round_trip_of_any_names_dtypes_and_shapes(tmp_path_factory, spec):
    rng = np.random.default_rng(0)
    tensors = {
        name: np.asarray(rng.standard_normal(shape) * 100).astype(dtype)
        for name, (dtype, shape) in spec.items()
    }
    path = write(tmp_path_factory.mktemp("st") / "t.safetensors", tensors)
    assert_same_tensors(load_safetensors(path), tensors)


def test_arrays_are_read_only(tmp_path):
    loaded = load_safetensors(write(tmp_path / "t.safetensors"))
    for array in loaded.values():
        assert not array.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        loaded["f32"][0, 0] = 1.0


def test_checksum_on_request(tmp_path):
    path = write(tmp_path / "t.safetensors")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert sha256_file(path) == digest
    assert set(load_safetensors(path, sha256=digest)) == set(sample_tensors())
    assert set(load_safetensors(path, sha256=digest.upper())) == set(sample_tensors())
    with pytest.raises(ChecksumError) as info:
        load_safetensors(path, sha256="0" * 64)
    message = str(info.value)
    assert str(path) in message and digest in message and "0" * 64 in message
    assert isinstance(info.value, ValueError)


@settings(max_examples=30, deadline=None)
@given(st.binary(max_size=5000))
def test_sha256_file_is_hashlib_sha256(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "blob"
    path.write_bytes(data)
    assert sha256_file(path) == hashlib.sha256(data).hexdigest()


def test_a_flipped_byte_fails_the_pinned_hash(model_copy):
    """One bit changed in the middle of the data: the file is still a valid safetensors
    file with one number changed (only the digest can tell), and the pinned digest
    catches it."""
    original = load_safetensors(minilm_path())
    with open(model_copy, "r+b") as stream:
        stream.seek(-(MODEL_BYTES // 2), 2)
        byte = stream.read(1)
        stream.seek(-1, 1)
        stream.write(bytes([byte[0] ^ 0x01]))
    loaded = load_safetensors(model_copy)
    changed = [
        name
        for name, array in loaded.items()
        if not np.array_equal(array, original[name])
    ]
    assert len(changed) == 1
    assert np.sum(loaded[changed[0]] != original[changed[0]]) == 1
    with pytest.raises(ChecksumError) as info:
        load_safetensors(model_copy, sha256=MINILM_SHA256)
    assert str(model_copy) in str(info.value)


def test_a_truncated_model_raises_value_error_naming_the_file(model_copy):
    data = model_copy.read_bytes()
    model_copy.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError) as info:
        load_safetensors(model_copy)
    assert str(model_copy) in str(info.value)
    assert not isinstance(info.value, ChecksumError)  # the parser caught it, unasked


def header(entries):
    """An 8-byte little-endian length and a JSON header, as the format writes them."""
    text = json.dumps(entries).encode()
    return len(text).to_bytes(8, "little") + text


F32_ENTRY = {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]}
REJECTED = {
    "empty file": b"",
    "shorter than the length field": b"\x10\x00\x00",
    "header length beyond the file": (10**6).to_bytes(8, "little") + b"{}",
    "header length beyond any file": (2**63).to_bytes(8, "little") + b"{}",
    "text": b"hello world, this is not a safetensors file at all",
    "malformed JSON": b"\x17" + b"\x00" * 7 + b'{"x": {"dtype": "F32", ',
    "JSON array": header([1, 2]),
    "data outside the file": header({"a": {**F32_ENTRY, "data_offsets": [0, 10_000]}})
    + b"\0" * 48,
    "negative offset": header({"a": {**F32_ENTRY, "data_offsets": [-4, 44]}})
    + b"\0" * 48,
    "offsets reversed": header({"a": {**F32_ENTRY, "data_offsets": [8, 4]}})
    + b"\0" * 48,
    "too few bytes for the shape": header({"a": {**F32_ENTRY, "data_offsets": [0, 40]}})
    + b"\0" * 40,
    "offsets not a pair": header({"a": {**F32_ENTRY, "data_offsets": "0-48"}})
    + b"\0" * 48,
    "shape too large": header({"a": {**F32_ENTRY, "shape": [4, 4]}}) + b"\0" * 48,
    "negative shape": header({"a": {**F32_ENTRY, "shape": [4, -3]}}) + b"\0" * 48,
    "huge shape": header({"a": {**F32_ENTRY, "shape": [10**20]}}) + b"\0" * 48,
    "unknown dtype": header({"a": {**F32_ENTRY, "dtype": "X99"}}) + b"\0" * 48,
    "overlapping tensors": header(
        {
            "a": {**F32_ENTRY, "shape": [1], "data_offsets": [0, 4]},
            "b": {**F32_ENTRY, "shape": [1], "data_offsets": [0, 4]},
        }
    )
    + b"\0" * 4,
    "metadata not a map of strings": header({"__metadata__": {"n": 3}}),
    "metadata a list": header({"__metadata__": []}),
}


def test_the_rejected_files_differ_from_a_valid_one_in_one_defect(tmp_path):
    """The control for the table above: the same header and data, undamaged, load."""
    path = tmp_path / "good.safetensors"
    path.write_bytes(header({"a": F32_ENTRY}) + np.arange(12, dtype="<f4").tobytes())
    assert np.array_equal(load_safetensors(path)["a"], np.arange(12.0).reshape(4, 3))


@pytest.mark.parametrize("data", list(REJECTED.values()), ids=list(REJECTED))
def test_a_file_the_package_rejects_raises_value_error_naming_the_file(tmp_path, data):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(data)
    with pytest.raises(ValueError) as info:
        load_safetensors(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("dtype", ["BF16", "F8_E4M3", "F8_E5M2"])
def test_a_dtype_numpy_lacks_raises_value_error_naming_the_file(tmp_path, dtype):
    """bfloat16 and the float8 types are valid safetensors but have no NumPy dtype: the
    error must name the file and the dtype, like every other file the reader cannot
    return."""
    path = tmp_path / "wide.safetensors"
    size = 2 if dtype == "BF16" else 1
    path.write_bytes(
        header({"w": {"dtype": dtype, "shape": [2], "data_offsets": [0, 2 * size]}})
        + b"\0" * (2 * size)
    )
    with pytest.raises(ValueError) as info:
        load_safetensors(path)
    assert str(path) in str(info.value) and dtype in str(info.value)


@pytest.mark.parametrize("dtype", ["BF16", "F8_E4M3", "F8_E5M2"])
def test_the_same_dtypes_are_refused_once_ml_dtypes_is_imported(tmp_path, dtype):
    """JAX imports ml_dtypes, which gives NumPy a bfloat16 and float8 types; safetensors then
    returns such arrays. The reader refuses them all the same (before, whether it did
    depended on whether the process had imported JAX)."""
    pytest.importorskip("ml_dtypes")
    path = tmp_path / "wide.safetensors"
    size = 2 if dtype == "BF16" else 1
    path.write_bytes(
        header({"w": {"dtype": dtype, "shape": [2], "data_offsets": [0, 2 * size]}})
        + b"\0" * (2 * size)
    )
    with pytest.raises(ValueError) as info:
        load_safetensors(path)
    assert str(path) in str(info.value) and dtype in str(info.value)


def test_a_missing_file(tmp_path):
    missing = tmp_path / "nothing.safetensors"
    with pytest.raises(FileNotFoundError, match="nothing.safetensors"):
        load_safetensors(missing)
    with pytest.raises(FileNotFoundError):
        load_safetensors(missing, sha256=MINILM_SHA256)
    with pytest.raises(FileNotFoundError):
        load_safetensors(tmp_path)  # a directory is not a file
    with pytest.raises(FileNotFoundError):
        minilm_tensors(missing)
