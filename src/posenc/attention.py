r"""Single-head self-attention and the book's toy model.

Derived in chapter 1 (the symmetry problem), where the head is written out in NumPy and shown
to be permutation equivariant; chapter 2 expands the toy model's pooled score in the position
vectors. The functions here compute exactly what the chapter writes in the open (same
operations in the same order), so the chapters' numbers do not depend on which copy runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import check_axis, check_bool, check_count, check_real_array


def softmax(scores, axis=-1) -> np.ndarray:
    r"""Numerically stable softmax along ``axis``.

    .. math:: \mathrm{softmax}(s)_j = \frac{e^{s_j - \max_k s_k}}{\sum_l e^{s_l - \max_k s_k}}

    Subtracting the maximum changes nothing mathematically (softmax is invariant under adding a
    constant to every score) and keeps every exponential at most 1, so nothing overflows.
    Derived in chapter 1 (:ref:`ch01-attention`).

    Parameters
    ----------
    scores : array_like
        Real scores of at least one dimension. An entry of ``-inf`` is a masked score and gets
        weight 0 (a causal mask is written this way); NaN and ``+inf`` are rejected, and every
        slice along ``axis`` needs at least one finite score.
    axis : int
        The axis whose entries are turned into weights that sum to one (default: the last).
    """
    scores = check_real_array(scores, "scores", finite=False)
    if scores.ndim == 0:
        raise ValueError("scores must have at least one dimension, got a scalar")
    axis = check_axis(axis, scores.ndim)
    if np.any(np.isnan(scores)) or np.any(scores == np.inf):
        bad = scores[np.isnan(scores) | (scores == np.inf)].flat[0]
        raise ValueError(f"scores must be finite or -inf (masked), got {bad}")
    if scores.shape[axis] == 0:
        raise ValueError(
            f"scores must have at least one entry along axis {axis}, "
            f"got shape {scores.shape}"
        )
    if not np.all(np.any(np.isfinite(scores), axis=axis)):
        raise ValueError(
            "scores must have at least one finite (unmasked) entry in every slice "
            f"along axis {axis}"
        )
    # Finite scores more than ~1.8e308 apart (1e308 and -1e308) differ by -inf: exp(-inf) = 0
    # is the right weight, and the overflow warning would fail the strict book build.
    with np.errstate(over="ignore"):
        shifted = scores - scores.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def _check_inputs(x, w_q, w_k, w_v=None):
    """Validate x (n x d_model) and the projections; return them as float64 arrays."""
    x = check_real_array(x, "x", ndim=2)
    if x.shape[0] == 0:
        raise ValueError(f"x must hold at least one token (row), got shape {x.shape}")
    weights = (
        {"w_q": w_q, "w_k": w_k}
        if w_v is None
        else {"w_q": w_q, "w_k": w_k, "w_v": w_v}
    )
    checked = {}
    for name, w in weights.items():
        w = check_real_array(w, name, ndim=2)
        if w.shape[0] != x.shape[1]:
            raise ValueError(
                f"{name} must have one row per input feature: x has shape {x.shape}, "
                f"so {name} needs {x.shape[1]} rows, got shape {w.shape}"
            )
        checked[name] = w
    if checked["w_q"].shape[1] != checked["w_k"].shape[1]:
        raise ValueError(
            f"w_q and w_k must project to the same key dimension, got shapes "
            f"{checked['w_q'].shape} and {checked['w_k'].shape}"
        )
    if checked["w_q"].shape[1] == 0:
        raise ValueError(
            f"w_q and w_k must have at least one column, got shape "
            f"{checked['w_q'].shape}"
        )
    return x, checked


def attention_weights(x, w_q, w_k, causal=False) -> np.ndarray:
    r"""The :math:`n \times n` attention matrix of one head; rows are queries, columns keys.

    .. math:: A(X) = \mathrm{softmax}\!\left(\frac{(X W_q)(X W_k)^\top}{\sqrt{d_k}}\right),

    with the softmax taken over each row, so every row is a set of weights that sums to one.
    With ``causal=True`` query :math:`i` only sees keys :math:`j \le i` (the scores above the
    diagonal are set to :math:`-\infty` before the softmax). Derived in chapter 1
    (:ref:`ch01-attention`).

    Parameters
    ----------
    x : array_like, shape (n, d_model)
        One row per token, finite.
    w_q, w_k : array_like, shape (d_model, d_k)
        Query and key projections; :math:`d_k` is their number of columns.
    causal : bool
        Apply the causal mask (a decoder's attention).
    """
    x, w = _check_inputs(x, w_q, w_k)
    causal = check_bool(causal, "causal")
    # Finite but huge inputs (x = 1e160) overflow the scores; name the caller's arguments
    # rather than let softmax reject "scores", which the caller never passed.
    with np.errstate(over="ignore", invalid="ignore"):
        scores = (x @ w["w_q"]) @ (x @ w["w_k"]).T / np.sqrt(w["w_q"].shape[1])
    if not np.all(np.isfinite(scores)):
        raise ValueError(
            "x, w_q and w_k give attention scores that overflow float64 (beyond "
            f"{np.finfo(np.float64).max:.3g}); scale the inputs down"
        )
    if causal:
        n = x.shape[0]
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    return softmax(scores)


def self_attention(x, w_q, w_k, w_v, causal=False) -> np.ndarray:
    r"""Single-head self-attention, one output row per input row.

    .. math:: \mathrm{Attn}(X) = A(X)\, X W_v,

    with :math:`A(X)` from :func:`attention_weights`. Without the causal mask it is permutation
    equivariant, :math:`\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)` for every permutation matrix
    :math:`P` (chapter 1, theorem "Permutation equivariance of self-attention").

    Derived in chapter 1 (:ref:`ch01-equivariance`).

    Parameters
    ----------
    x : array_like, shape (n, d_model)
        One row per token, finite.
    w_q, w_k : array_like, shape (d_model, d_k)
        Query and key projections.
    w_v : array_like, shape (d_model, d_v)
        Value projection.
    causal : bool
        Apply the causal mask.
    """
    x, w = _check_inputs(x, w_q, w_k, w_v)
    weights = attention_weights(x, w["w_q"], w["w_k"], causal=causal)
    # The weights are convex, so finite values give finite outputs: check the values.
    with np.errstate(over="ignore", invalid="ignore"):
        values = x @ w["w_v"]
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "x and w_v give values x @ w_v that overflow float64 (beyond "
            f"{np.finfo(np.float64).max:.3g}); scale the inputs down"
        )
    return weights @ values


@dataclass(frozen=True, eq=False)
class ToyModel:
    """The book's single-head attention model with a scalar readout (see :func:`toy_model`).

    The arrays are read-only; ``vocab`` maps each word to its embedding (a row vector).

    Derived in chapter 1 (:ref:`ch01-attention`).
    """

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    vocab: dict
    readout: np.ndarray

    @property
    def d(self) -> int:
        """The model width :math:`d` (embeddings, projections and readout)."""
        return self.w_q.shape[0]

    def embed(self, words) -> np.ndarray:
        """The input matrix of a sentence: one embedding row per word, in order.

        ``words`` is a sequence of words or a string of words separated by spaces.
        """
        if isinstance(words, str):
            words = words.split()
        words = list(words)
        unknown = [word for word in words if word not in self.vocab]
        if unknown:
            raise ValueError(
                f"words must come from the vocabulary {tuple(self.vocab)}, "
                f"got {unknown[0]!r}"
            )
        if not words:
            raise ValueError("words must hold at least one word")
        return np.array([self.vocab[word] for word in words])

    def attention(self, x, causal=False) -> np.ndarray:
        """:func:`self_attention` with this model's projections."""
        return self_attention(x, self.w_q, self.w_k, self.w_v, causal=causal)

    def score(self, x) -> np.ndarray:
        r"""The pooled scalar score :math:`\tfrac1N \mathbf 1^\top \mathrm{Attn}(X)\, r`.

        The mean of the head's outputs over the tokens, read out with the vector ``readout``
        (a stand-in for a classifier head). Chapter 1 shows it cannot tell "A hit B" from
        "B hit A"; chapter 2 expands it in the position vectors.
        """
        return self.readout @ self.attention(x).mean(axis=0)


def toy_model(d=8, seed=2021, words=("A", "hit", "B")) -> ToyModel:
    r"""The random single-head model of chapters 1 and 2, drawn from a fixed seed.

    With ``rng = np.random.default_rng(seed)``, in this order: the three projections
    ``W_q, W_k, W_v = rng.standard_normal((3, d, d)) / sqrt(d)``, one embedding per word
    ``rng.standard_normal((len(words), d))``, and the readout ``rng.standard_normal(d)``.
    Drawn in the open, in the same order, in chapter 1.

    Derived in chapter 1 (:ref:`ch01-attention`).

    Parameters
    ----------
    d : int
        Model width, a positive integer.
    seed : int
        Seed of ``numpy.random.default_rng``, a non-negative integer.
    words : sequence of str
        The vocabulary, distinct words.
    """
    d = check_count(d, "d", 1)
    seed = check_count(seed, "seed", 0)
    if isinstance(words, str):
        raise ValueError(
            f"words must be a sequence of words, not a single string, got {words!r}"
        )
    words = tuple(words)
    if not words or not all(isinstance(word, str) for word in words):
        raise ValueError(
            f"words must be a non-empty sequence of strings, got {words!r}"
        )
    if len(set(words)) != len(words):
        raise ValueError(f"words must be distinct, got {words!r}")
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v = rng.standard_normal((3, d, d)) / np.sqrt(d)
    vocab = dict(zip(words, rng.standard_normal((len(words), d)), strict=True))
    readout = rng.standard_normal(d)
    for array in (w_q, w_k, w_v, readout, *vocab.values()):
        array.setflags(write=False)
    return ToyModel(w_q=w_q, w_k=w_k, w_v=w_v, vocab=vocab, readout=readout)
