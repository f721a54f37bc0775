r"""A small decoder-only Transformer in JAX, with position entering through posenc's arrays.

The model, for tokens :math:`w_0 \dots w_{n-1}`:

.. math::

    x^{(0)}_t = E[w_t] \;(+\; \mathrm{PE}(t)\ \text{sinusoidal, or}\ P[t]\ \text{learned}),

then ``n_layers`` pre-norm blocks
:math:`x \leftarrow x + \mathrm{Attn}(\mathrm{RMS}(x))`,
:math:`x \leftarrow x + W_2\,\mathrm{GELU}(W_1\,\mathrm{RMS}(x))`, a last RMS norm and a linear
read-out to the vocabulary. Each head h of a layer computes, for query position i and key j,

.. math::

    a_{h,i,j} = \frac{(\tilde q_{h,i})^\top \tilde k_{h,j}}{\sqrt{d_h}} + \beta_{h,i,j},
    \qquad \alpha_{h,i,\cdot} = \mathrm{softmax}_j(a_{h,i,\cdot}),

where :math:`\tilde q, \tilde k` are the queries and keys, rotated by RoPE's angles for
``rope`` (as :func:`posenc.rope`), and :math:`\beta` is the causal mask
(:math:`-\infty` for :math:`j > i`) plus, for ``t5``, the learned scalar of the bucket
:func:`posenc.t5_bucket` ``(j - i)``, or, for ``alibi``, :func:`posenc.alibi_bias`. The arrays
come from :func:`posenc.experiments.positions.position_terms`; this module only applies them.

Parameters are a dict of JAX arrays (:func:`init_params`); :func:`forward` is a pure function
of the parameters, the tokens and the position arrays, so a change of length, or RoPE's
inference-time variants, needs no retraining, only other arrays. Derived in chapter 15
(:ref:`ch15-grid`).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from .config import Config
from .positions import T5_BUCKETS
from .tasks import vocab_size

#: Standard deviation of the learned position table's initial entries: the root mean
#: square of an entry of the sinusoidal table (each pair holds a sine and a cosine), so the
#: two absolute encodings start at the same scale.
LEARNED_INIT_STD = 1 / math.sqrt(2)


def init_params(config: Config, key) -> dict:
    """Initial parameters: token embeddings N(0, 1), weight matrices N(0, 1/fan-in), RMS
    gains 1; a learned position table of ``max_length`` rows N(0, 1/2) (``learned``); T5's
    bucket biases 0 (``t5``)."""
    d, vocab = config.d_model, vocab_size(config)
    keys = iter(jax.random.split(key, 4 + 6 * config.n_layers))

    def normal(shape, std):
        return std * jax.random.normal(next(keys), shape, dtype=jnp.float32)

    params = {
        "embed": normal((vocab, d), 1.0),
        "final_norm": jnp.ones((d,), jnp.float32),
        "head": normal((d, vocab), 1 / math.sqrt(d)),
        "layers": [],
    }
    if config.encoding == "learned":
        params["positions"] = normal((config.max_length, d), LEARNED_INIT_STD)
    if config.encoding == "t5":
        params["t5"] = jnp.zeros((T5_BUCKETS, config.n_heads), jnp.float32)
    for _ in range(config.n_layers):
        params["layers"].append(
            {
                "norm1": jnp.ones((d,), jnp.float32),
                "wq": normal((d, d), 1 / math.sqrt(d)),
                "wk": normal((d, d), 1 / math.sqrt(d)),
                "wv": normal((d, d), 1 / math.sqrt(d)),
                "wo": normal((d, d), 1 / math.sqrt(d)),
                "norm2": jnp.ones((d,), jnp.float32),
                "w1": normal((d, config.d_mlp), 1 / math.sqrt(d)),
                "w2": normal((config.d_mlp, d), 1 / math.sqrt(config.d_mlp)),
            }
        )
    return params


def count_parameters(params) -> int:
    return int(sum(np.prod(leaf.shape) for leaf in jax.tree_util.tree_leaves(params)))


def rms_norm(x, gain, eps=1e-6):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def rotate(x, cos, sin):
    r"""RoPE on the last axis of ``x`` (``(..., n, d_h)``), interleaved pairs
    :math:`(x_{2i}, x_{2i+1})` rotated by the angles whose cosines and sines are ``cos`` and
    ``sin`` (``(n, d_h/2)``): the same map as :func:`posenc.rope`."""
    first, second = x[..., 0::2], x[..., 1::2]
    out_first = first * cos - second * sin
    out_second = first * sin + second * cos
    return jnp.stack([out_first, out_second], axis=-1).reshape(x.shape)


def attention_logits(layer, h, terms, n_heads, t5_table=None):
    """The logits :math:`a_{h,i,j}` of one layer for normalised inputs ``h``
    (``(batch, n, d)``), and the values; shapes ``(batch, heads, n, n)`` and
    ``(batch, heads, n, d_h)``."""
    batch, n, d = h.shape
    head_dim = d // n_heads

    def split(w):
        return (h @ w).reshape(batch, n, n_heads, head_dim).transpose(0, 2, 1, 3)

    q, k, v = split(layer["wq"]), split(layer["wk"]), split(layer["wv"])
    if "cos" in terms:
        q = rotate(q, terms["cos"], terms["sin"])
        k = rotate(k, terms["cos"], terms["sin"])
    logits = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head_dim)
    if "bias" in terms:  # ALiBi: the penalties with the causal mask built in
        logits = logits + terms["bias"][None]
    else:
        logits = logits + terms["mask"][None, None]
    if "buckets" in terms:
        logits = logits + t5_table[terms["buckets"]].transpose(2, 0, 1)[None]
    return logits, v


def embed(params, tokens, terms):
    """The first layer's input :math:`x^{(0)}`, ``(batch, n, d)``: the token embeddings plus
    the sinusoidal table (``sinusoidal``) or the learned table's first n rows (``learned``)."""
    x = params["embed"][tokens]
    if "table" in terms:
        x = x + terms["table"][None]
    if "positions" in terms:
        x = x + params["positions"][terms["positions"]][None]
    return x


def forward(params, tokens, terms, n_heads, return_attention=False):
    """Logits over the vocabulary, ``(batch, n, vocab)``, for ``tokens`` ``(batch, n)``;
    with ``return_attention`` also the attention weights of every layer,
    ``(layers, batch, heads, n, n)``."""
    x = embed(params, tokens, terms)
    weights = []
    for layer in params["layers"]:
        h = rms_norm(x, layer["norm1"])
        logits, v = attention_logits(layer, h, terms, n_heads, params.get("t5"))
        alpha = jax.nn.softmax(logits, axis=-1)
        if return_attention:
            weights.append(alpha)
        out = (alpha @ v).transpose(0, 2, 1, 3).reshape(x.shape)
        x = x + out @ layer["wo"]
        h = rms_norm(x, layer["norm2"])
        x = x + jax.nn.gelu(h @ layer["w1"]) @ layer["w2"]
    out = rms_norm(x, params["final_norm"]) @ params["head"]
    if return_attention:
        return out, jnp.stack(weights)
    return out
