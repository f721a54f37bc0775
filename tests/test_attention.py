"""Tests for posenc.attention: softmax, single-head self-attention and the book's toy
model.

Unit tests pin the toy model to the draws chapter 1 makes in the open and the weights to
an independent transcription of the formula; property tests (hypothesis) check what
chapter 1 proves: rows of the attention matrix are probability vectors, softmax ignores
a constant shift, and self-attention is permutation equivariant while its causal variant
masks the future. The stability claims are tested far out: scores up to the largest
float, inputs up to 1e50. Bad input is tested in test_hardening.py.

Tolerances. Inputs are bounded by 10 in magnitude and widths by 8, so scores stay below
a few hundred and every quantity is computed to a relative accuracy of about 1e-13; ATOL
= 1e-10 leaves a wide margin, while a wrong axis, scale or mask gives errors of order
0.1 to 1.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import FLOAT_MAX, PROPERTY

import posenc
from posenc import ToyModel, attention_weights, self_attention, softmax, toy_model

ATOL = 1e-10

finite = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


@st.composite
def heads(draw, max_n=6, max_d=8):
    """(x, w_q, w_k, w_v) of compatible shapes with bounded entries."""
    n = draw(st.integers(1, max_n))
    d_model = draw(st.integers(1, max_d))
    d_k = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, max_d))
    x = draw(hnp.arrays(np.float64, (n, d_model), elements=finite))
    w_q = draw(hnp.arrays(np.float64, (d_model, d_k), elements=finite)) / np.sqrt(
        d_model
    )
    w_k = draw(hnp.arrays(np.float64, (d_model, d_k), elements=finite)) / np.sqrt(
        d_model
    )
    w_v = draw(hnp.arrays(np.float64, (d_model, d_v), elements=finite))
    return x, w_q, w_k, w_v


def reference_weights(x, w_q, w_k, causal=False):
    """The attention matrix written out entry by entry, independently of the library."""
    n, d_k = x.shape[0], w_q.shape[1]
    q, k = x @ w_q, x @ w_k
    out = np.zeros((n, n))
    for i in range(n):
        keys = range(i + 1) if causal else range(n)
        s = np.array([q[i] @ k[j] / np.sqrt(d_k) for j in keys])
        e = np.exp(s - s.max())
        out[i, list(keys)] = e / e.sum()
    return out


# --------------------------------------------------------------------------- softmax


def test_softmax_values():
    assert np.allclose(softmax([0.0, 0.0]), [0.5, 0.5])
    assert np.allclose(softmax([0.0, np.log(3.0)]), [0.25, 0.75])
    assert np.allclose(
        softmax([[1.0, 0.0], [0.0, np.log(3.0)]], axis=0),
        [[np.e / (np.e + 1), 0.25], [1 / (np.e + 1), 0.75]],
    )


@settings(PROPERTY, max_examples=40)
@given(st.data(), st.integers(1, 3), st.sampled_from([-1, 0]))
def test_softmax_is_stable_for_huge_scores(data, ndim, axis):
    """Subtracting the maximum keeps every exponential at most 1: the weights sum to one
    and the largest score keeps a positive weight, for scores up to the largest float.
    """
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    scores = data.draw(
        hnp.arrays(
            np.float64,
            shape,
            elements=st.one_of(
                st.floats(-1e300, 1e300), st.sampled_from([FLOAT_MAX, -FLOAT_MAX, 0.0])
            ),
        )
    )
    weights = softmax(scores, axis=axis)
    assert np.allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)
    top = np.take_along_axis(
        weights, np.expand_dims(np.argmax(scores, axis=axis), axis), axis
    )
    assert np.all(top > 0)
    assert np.allclose(softmax([1000.0, 1000.0, -1000.0]), [0.5, 0.5, 0.0])
    assert np.array_equal(softmax([FLOAT_MAX, -FLOAT_MAX]), [1.0, 0.0])


def test_softmax_masked_entries_get_zero_weight():
    weights = softmax([[1.0, -np.inf], [2.0, 2.0]])
    assert np.array_equal(weights[0], [1.0, 0.0])
    assert np.allclose(weights[1], [0.5, 0.5])


@PROPERTY
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, max_side=6),
        elements=st.floats(-50, 50),
    ),
    st.integers(-1, 0),
    finite,
)
def test_softmax_rows_sum_to_one_and_shift_invariant(scores, axis, shift):
    weights = softmax(scores, axis=axis)
    assert weights.shape == scores.shape
    assert np.all(weights >= 0) and np.all(weights <= 1)
    assert np.allclose(weights.sum(axis=axis), 1.0, atol=ATOL)
    assert np.allclose(softmax(scores + shift, axis=axis), weights, atol=ATOL)


# --------------------------------------------------------------------------- attention


@PROPERTY
@given(heads(), st.booleans())
def test_attention_weights_match_the_formula(head, causal):
    x, w_q, w_k, _ = head
    weights = attention_weights(x, w_q, w_k, causal=causal)
    assert np.allclose(
        weights, reference_weights(x, w_q, w_k, causal=causal), atol=ATOL
    )
    assert np.allclose(weights.sum(axis=1), 1.0, atol=ATOL)  # row-stochastic


@PROPERTY
@given(heads(), st.randoms(use_true_random=False))
def test_self_attention_is_permutation_equivariant(head, random):
    x, w_q, w_k, w_v = head
    n = x.shape[0]
    perm = list(range(n))
    random.shuffle(perm)
    P = np.eye(n)[perm]
    out = self_attention(x, w_q, w_k, w_v)
    assert np.allclose(
        attention_weights(P @ x, w_q, w_k),
        P @ attention_weights(x, w_q, w_k) @ P.T,
        atol=ATOL,
    )
    assert np.allclose(self_attention(P @ x, w_q, w_k, w_v), P @ out, atol=1e-8)
    assert np.allclose(
        self_attention(P @ x, w_q, w_k, w_v).mean(axis=0), out.mean(axis=0), atol=1e-8
    )


@PROPERTY
@given(heads())
def test_causal_mask_zeros_the_future(head):
    x, w_q, w_k, w_v = head
    n = x.shape[0]
    weights = attention_weights(x, w_q, w_k, causal=True)
    assert np.all(weights[np.triu_indices(n, k=1)] == 0.0)
    assert np.allclose(weights.sum(axis=1), 1.0, atol=ATOL)
    out = self_attention(x, w_q, w_k, w_v, causal=True)
    assert np.allclose(
        out[0], x[0] @ w_v, atol=1e-8
    )  # the first token sees itself only
    # Output i depends only on tokens 0..i: changing the last token leaves the others
    # alone.
    changed = x.copy()
    changed[-1] += 1.0
    assert np.allclose(
        self_attention(changed, w_q, w_k, w_v, causal=True)[:-1], out[:-1], atol=1e-12
    )


def large_heads(magnitude: float):
    elements = st.floats(-magnitude, magnitude, allow_nan=False, allow_infinity=False)
    return st.integers(1, 6).flatmap(
        lambda n: st.integers(1, 6).flatmap(
            lambda d: st.tuples(
                *(
                    hnp.arrays(np.float64, shape, elements=elements)
                    for shape in [(n, d), (d, d), (d, d), (d, 3)]
                )
            )
        )
    )


@settings(PROPERTY, max_examples=40)
@given(large_heads(1e50), st.booleans())
def test_attention_is_a_convex_combination_for_large_inputs(head, causal):
    """|x|, |w| <= 1e50 keep every score below 1e203: the rows still sum to one, the
    mask still holds, and each output is a convex combination of the values x W_v."""
    x, w_q, w_k, w_v = head
    weights = attention_weights(x, w_q, w_k, causal=causal)
    assert np.allclose(weights.sum(axis=1), 1.0)
    if causal:
        assert np.all(np.triu(weights, 1) == 0)
    out = self_attention(x, w_q, w_k, w_v, causal=causal)
    assert np.all(np.abs(out) <= np.abs(x @ w_v).max(initial=0) * (1 + 1e-12))


def test_self_attention_shapes_and_scale():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4))
    w_q, w_k = rng.standard_normal((2, 4, 3))
    w_v = rng.standard_normal((4, 7))
    assert self_attention(x, w_q, w_k, w_v).shape == (5, 7)
    # scaled by 1/sqrt(d_k) with d_k = 3, the number of columns of w_q
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(3)
    assert np.allclose(attention_weights(x, w_q, w_k), softmax(scores), atol=ATOL)
    assert np.allclose(
        self_attention(x, w_q, w_k, w_v), softmax(scores) @ (x @ w_v), atol=ATOL
    )


# --------------------------------------------------------------------------- toy model


def test_toy_model_is_chapter_one_model():
    rng = np.random.default_rng(2021)  # the draws of chapter 1, in the same order
    w_q, w_k, w_v = rng.standard_normal((3, 8, 8)) / np.sqrt(8)
    embeddings = rng.standard_normal((3, 8))
    readout = rng.standard_normal(8)
    model = toy_model()
    assert isinstance(model, ToyModel) and model.d == 8
    for ours, theirs in [
        (w_q, model.w_q),
        (w_k, model.w_k),
        (w_v, model.w_v),
        (readout, model.readout),
    ]:
        assert np.array_equal(ours, theirs)
    assert list(model.vocab) == ["A", "hit", "B"]
    assert all(
        np.array_equal(e, model.vocab[w])
        for e, w in zip(embeddings, ["A", "hit", "B"], strict=True)
    )


def test_toy_model_is_deterministic_and_frozen():
    a, b = toy_model(), toy_model()
    assert np.array_equal(a.w_q, b.w_q) and np.array_equal(a.readout, b.readout)
    assert not np.array_equal(toy_model(seed=1).w_q, a.w_q)
    other = toy_model(d=4, seed=3, words=("x", "y"))
    assert other.w_v.shape == (4, 4) and list(other.vocab) == ["x", "y"]
    with pytest.raises(AttributeError):
        a.w_q = b.w_q
    with pytest.raises(ValueError):  # the arrays are read-only
        a.w_q[0, 0] = 1.0


def test_toy_model_score_and_symmetry():
    model = toy_model()
    x_ab, x_ba = model.embed("A hit B"), model.embed(["B", "hit", "A"])
    assert np.array_equal(x_ab[[2, 1, 0]], x_ba)
    expected = model.readout @ self_attention(
        x_ab, model.w_q, model.w_k, model.w_v
    ).mean(axis=0)
    assert model.score(x_ab) == expected
    assert np.isclose(
        model.score(x_ab), model.score(x_ba), rtol=0, atol=1e-12
    )  # chapter 1
    pe = posenc.sinusoidal(3, model.d)
    assert abs(model.score(x_ab + pe) - model.score(x_ba + pe)) > 1e-3
