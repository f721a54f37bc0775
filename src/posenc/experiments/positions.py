r"""Where position enters the model: NumPy arrays from posenc's own functions.

For a sequence of n tokens, :func:`position_terms` returns the arrays the model adds or
applies, all computed by the library the book derives (none of them is retyped here):

- ``nope``: only the causal mask (0 on and below the diagonal, :math:`-\infty` above);
- ``sinusoidal``: ``table`` = :func:`posenc.sinusoidal` ``(n, d_model)``, added to the token
  embeddings (interleaved layout, base :math:`10^4`);
- ``learned``: ``positions`` = :math:`0 \dots n-1`, the rows of a learned table added to the
  token embeddings (rows never reached in training keep their random initial values);
- ``t5``: ``buckets`` = :func:`posenc.t5_bucket` of key − query, unidirectional, T5's 32
  buckets and ``max_distance`` 128; the model adds a learned scalar per bucket and head,
  shared by the layers as in T5;
- ``alibi``: ``bias`` = :func:`posenc.alibi_bias`, the heads' linear penalties with the causal
  mask built in;
- ``rope``: ``cos`` and ``sin`` of the angles :math:`m\,\theta_i`, with
  :math:`\theta_i` = :func:`posenc.frequencies` ``(head_dim, rope_base)``, rotating queries
  and keys as :func:`posenc.rope` does (interleaved pairs).

RoPE's two inference-time variants, at a length :math:`n` above the training length
:math:`L`, with :math:`s = n / L`: ``"pi"`` (Position Interpolation) feeds the positions
:math:`m/s`; ``"ntk"`` uses the base :func:`posenc.ntk_base` ``(b, s, head_dim)``
:math:`= b\,s^{d/(d-2)}` (chapter 13, :ref:`ch13-scaling`). At :math:`n \le L` both are plain RoPE.

Derived in chapter 15 (:ref:`ch15-grid`).
"""

from __future__ import annotations

import numpy as np

from .. import alibi_bias, frequencies, ntk_base, sinusoidal, t5_bucket
from .._validate import check_count
from .config import ROPE_VARIANTS, Config

#: T5's defaults, used unchanged (decoder self-attention is unidirectional).
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128


def causal_mask(length) -> np.ndarray:
    """``(length, length)`` float32: 0 where the key j ≤ the query i, :math:`-\\infty` above."""
    length = check_count(length, "length", 0)
    mask = np.zeros((length, length), dtype=np.float32)
    mask[np.triu_indices(length, 1)] = -np.inf
    return mask


def rope_scale(config: Config, length) -> float:
    """The factor :math:`s = \\max(n / L, 1)` of the inference-time variants."""
    length = check_count(length, "length", 1)
    return max(length / config.train_length, 1.0)


def rope_angles(config: Config, length, variant=None) -> np.ndarray:
    r"""The angles :math:`m\,\theta_i`, shape ``(length, head_dim / 2)``, of plain RoPE
    (``variant=None``), Position Interpolation (``"pi"``: positions :math:`m/s`) or the
    NTK-aware base (``"ntk"``)."""
    if variant is not None and variant not in ROPE_VARIANTS:
        raise ValueError(
            f"variant must be None or one of {ROPE_VARIANTS}, got {variant!r}"
        )
    s = rope_scale(config, length)
    positions = np.arange(length, dtype=np.float64)
    base = config.rope_base
    if variant == "pi":
        positions = positions / s
    elif variant == "ntk":
        base = ntk_base(base, s, config.head_dim)
    return np.multiply.outer(positions, frequencies(config.head_dim, base))


def position_terms(config: Config, length, variant=None) -> dict[str, np.ndarray]:
    """The position arrays of ``config.encoding`` for ``length`` tokens (see the module's
    docstring); float32, except the integer ``positions`` and ``buckets``. ``variant``
    ("pi" or "ntk") applies to RoPE only."""
    length = check_count(length, "length", 1)
    encoding = config.encoding
    if variant is not None and encoding != "rope":
        raise ValueError(
            f"variant must be None for encoding {encoding!r}, got {variant!r}"
        )
    if encoding == "alibi":
        return {"bias": alibi_bias(config.n_heads, length).astype(np.float32)}
    terms = {"mask": causal_mask(length)}
    if encoding == "sinusoidal":
        terms["table"] = sinusoidal(length, config.d_model).astype(np.float32)
    elif encoding == "learned":
        if length > config.max_length:
            raise ValueError(
                f"length must be at most the learned table's {config.max_length} rows, "
                f"got {length}"
            )
        terms["positions"] = np.arange(length, dtype=np.int32)
    elif encoding == "t5":
        position = np.arange(length)
        relative = position[None, :] - position[:, None]  # key - query
        buckets = t5_bucket(
            relative,
            bidirectional=False,
            num_buckets=T5_BUCKETS,
            max_distance=T5_MAX_DISTANCE,
        )
        terms["buckets"] = np.asarray(buckets, dtype=np.int32)
    elif encoding == "rope":
        angles = rope_angles(config, length, variant)
        terms["cos"] = np.cos(angles).astype(np.float32)
        terms["sin"] = np.sin(angles).astype(np.float32)
    return terms
