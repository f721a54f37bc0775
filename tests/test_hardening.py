"""Hardening: every public function of posenc at the extremes.

Property tests (hypothesis) over random dimensions (up to d = 8192), bases (from 1 + 1e-9 to
1e9), positions (up to 1e8 in magnitude) and empty inputs. For each name in ``posenc.__all__``
either the invariants hold, with no NaN, no inf and no warning (pytest turns warnings into
errors), or a ``ValueError`` whose message starts with the name of the offending argument is
raised. Examples are few and sizes bounded, so the whole file runs in a few seconds; the runs
are derandomised so that a failure reproduces.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import posenc
from posenc.pretrained import ChecksumError

HARD = settings(max_examples=40, deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

MAX_D = 8192
MAX_POSITION = 1e8
FLOAT_MAX = float(np.finfo(np.float64).max)

dims = st.one_of(st.sampled_from([2, MAX_D]), st.integers(1, MAX_D // 2).map(lambda k: 2 * k))
small_dims = st.integers(1, 64).map(lambda k: 2 * k)
# log-uniform from 1 + 1e-9 (frequencies all but equal) to 1 + 1e9
bases = st.one_of(st.sampled_from([1 + 1e-9, 1e9, 10000.0]),
                  st.floats(-9, 9).map(lambda e: 1 + 10.0 ** e))
layouts = st.sampled_from(["interleaved", "halves"])
reals = st.floats(-MAX_POSITION, MAX_POSITION, allow_nan=False, allow_infinity=False)
positions = st.one_of(st.just([]), st.lists(reals, max_size=16),
                      st.lists(st.sampled_from([0.0, MAX_POSITION, -MAX_POSITION, 1.0]),
                               min_size=1, max_size=4))
not_finite = st.sampled_from([math.nan, math.inf, -math.inf])


def raises_about(name: str):
    """A ValueError whose message starts with the argument's name."""
    return pytest.raises(ValueError, match=rf"^{name}\b")


def public(name: str):
    assert name in posenc.__all__, f"{name} is no longer public: update this file"
    return getattr(posenc, name)


def test_every_public_name_is_covered():
    covered = {"ToyModel", "alibi_bias", "alibi_slopes", "attention_weights", "decay_integral",
               "decay_sum", "frequencies", "gradient", "hessian_block", "layout_permutation",
               "load_safetensors", "minilm_embeddings", "rope", "self_attention", "shift_matrix",
               "sinusoidal", "softmax", "t5_bucket", "toy_model"}
    assert set(posenc.__all__) == covered, "a public function without hardening tests"


# --------------------------------------------------------------------------- sinusoidal.py


@HARD
@given(dims, bases)
def test_frequencies_in_range(d, base):
    theta = public("frequencies")(d, base)
    assert theta.shape == (d // 2,) and np.all(np.isfinite(theta))
    assert theta[0] == 1.0
    assert np.all(theta > 0) and np.all(np.diff(theta) <= 0)
    assert theta[-1] >= 1 / base * (1 - 1e-12)


@pytest.mark.parametrize(("args", "name"), [
    ((0, 10.0), "d"), ((3, 10.0), "d"), ((-2, 10.0), "d"), ((2.0, 10.0), "d"), ((True, 10.0), "d"),
    ((4, 1.0), "base"), ((4, 0.5), "base"), ((4, math.nan), "base"), ((4, math.inf), "base"),
    ((4, 10 ** 400), "base"), ((4, "10"), "base"),
])
def test_frequencies_bad_arguments(args, name):
    with raises_about(name):
        public("frequencies")(*args)


@HARD
@given(dims)
def test_layout_permutation_is_a_permutation(d):
    perm = public("layout_permutation")(d)
    assert np.array_equal(np.sort(perm), np.arange(d))


@HARD
@given(positions, dims, bases, layouts)
@example([MAX_POSITION, -MAX_POSITION], MAX_D, 1e9, "interleaved")
@example([], MAX_D, 1 + 1e-9, "halves")
def test_sinusoidal_rows_have_norm_sqrt_half_d(t, d, base, layout):
    table = public("sinusoidal")(t, d, base, layout)
    assert table.shape == (len(t), d)
    assert np.all(np.isfinite(table)) and np.all(np.abs(table) <= 1)
    assert np.allclose(np.linalg.norm(table, axis=1), math.sqrt(d / 2), rtol=1e-12, atol=0)
    if layout == "halves":
        interleaved = posenc.sinusoidal(t, d, base)
        assert np.array_equal(table, interleaved[:, posenc.layout_permutation(d)])


def test_sinusoidal_empty_and_bad_positions():
    assert posenc.sinusoidal(0, 8).shape == (0, 8)
    assert posenc.sinusoidal(np.array([], dtype=np.int64), 8).shape == (0, 8)
    for bad in ([math.nan], [1.0, math.inf], -1, 2.5, [[1.0]], ["a"], [10 ** 400], True):
        with raises_about("positions"):
            posenc.sinusoidal(bad, 8)
    with raises_about("layout"):
        posenc.sinusoidal(2, 8, layout="split")


@HARD
@given(st.one_of(reals, st.sampled_from([1e300, -1e300, FLOAT_MAX])),
       st.integers(1, 128).map(lambda k: 2 * k), bases, layouts)
def test_shift_matrix_orthogonal_for_any_shift(k, d, base, layout):
    m = public("shift_matrix")(k, d, base, layout)
    assert m.shape == (d, d) and np.all(np.isfinite(m))
    assert np.allclose(m @ m.T, np.eye(d), atol=1e-12, rtol=0)


@HARD
@given(st.integers(-10_000, 10_000), st.integers(-10_000, 10_000), small_dims, bases, layouts)
def test_shift_matrix_moves_encodings(t, k, d, base, layout):
    shifted = posenc.shift_matrix(k, d, base, layout) @ posenc.sinusoidal([t], d, base, layout)[0]
    assert np.allclose(shifted, posenc.sinusoidal([t + k], d, base, layout)[0], atol=1e-9)


@pytest.mark.parametrize("k", [math.nan, math.inf, "1", True, 10 ** 400, None])
def test_shift_matrix_bad_shift(k):
    with raises_about("k"):
        posenc.shift_matrix(k, 4)


# --------------------------------------------------------------------------- decay.py


xs = st.one_of(st.just([]), st.lists(st.one_of(reals, st.sampled_from([0.0, 1e300, -1e300])),
                                     max_size=16))


@HARD
@given(xs, dims, bases)
@example([0.0, MAX_POSITION, 1e300], MAX_D, 1 + 1e-9)
def test_decay_sum_in_unit_interval(x, d, base):
    s = public("decay_sum")(np.array(x, dtype=float), d, base)
    assert s.shape == (len(x),) and np.all(np.isfinite(s))
    assert np.all(np.abs(s) <= 1 + 1e-12)
    assert np.all(s[np.array(x) == 0] == 1.0) if len(x) else True
    assert np.allclose(posenc.decay_sum(-np.array(x, dtype=float), d, base), s, atol=0, rtol=0)


@HARD
@given(xs, bases)
@example([0.0, 1e-300, MAX_POSITION, 1e11, 1e300], 1 + 1e-9)
@example([0.0, 2.0, MAX_POSITION, 1e300], 1e9)
def test_decay_integral_in_unit_interval(x, base):
    values = public("decay_integral")(np.array(x, dtype=float), base)
    assert values.shape == (len(x),) and np.all(np.isfinite(values))
    assert np.all(np.abs(values) <= 1 + 1e-12)
    assert np.array_equal(posenc.decay_integral(-np.array(x, dtype=float), base), values)
    for point, value in list(zip(x, values))[:4]:  # the scalar path agrees with the vector one
        scalar = posenc.decay_integral(point, base)
        assert isinstance(scalar, float) and abs(scalar - value) <= 1e-12


def test_decay_bad_arguments():
    for bad in ([math.nan], [math.inf], ["a"], [True], math.inf):
        with raises_about("x"):
            posenc.decay_integral(bad)
        with raises_about("x"):
            posenc.decay_sum(bad, 8)
    with raises_about("base"):
        posenc.decay_integral(1.0, 1.0)
    with raises_about("d"):
        posenc.decay_sum(1.0, 7)


# --------------------------------------------------------------------------- rope.py


@HARD
@given(st.data(), st.integers(0, 12), st.integers(1, MAX_D // 2).map(lambda k: 2 * k), bases,
       layouts)
def test_rope_preserves_norms_far_out(data, n, d, base, layout):
    # few rows when d is large: memory and time stay bounded
    n = min(n, max(1, 8192 // d))
    x = data.draw(hnp.arrays(np.float64, (n, d), elements=st.floats(-1e150, 1e150,
                                                                   allow_nan=False)))
    t = data.draw(st.lists(st.one_of(reals, st.just(MAX_POSITION)), min_size=n, max_size=n))
    y = public("rope")(x, t, base, layout)
    assert y.shape == x.shape and np.all(np.isfinite(y))
    if layout == "interleaved":
        before, after = np.hypot(x[:, 0::2], x[:, 1::2]), np.hypot(y[:, 0::2], y[:, 1::2])
    else:
        h = d // 2
        before, after = np.hypot(x[:, :h], x[:, h:]), np.hypot(y[:, :h], y[:, h:])
    assert np.allclose(after, before, rtol=1e-12, atol=1e-300)


@HARD
@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.integers(-1000, 1000), small_dims,
       bases)
def test_rope_scores_depend_on_distance_only(m, n, shift, d, base):
    rng = np.random.default_rng(abs(m) + abs(n))
    q, k = rng.standard_normal((2, 1, d))
    score = (posenc.rope(q, [m], base) @ posenc.rope(k, [n], base).T).item()
    moved = (posenc.rope(q, [m + shift], base) @ posenc.rope(k, [n + shift], base).T).item()
    assert abs(score - moved) <= 1e-9 * max(1.0, abs(score))


def test_rope_empty_and_bad_arguments():
    assert posenc.rope(np.zeros((0, 4)), 0).shape == (0, 4)
    assert posenc.rope(np.zeros((3, 0, 4)), []).shape == (3, 0, 4)
    for bad in (np.zeros((2, 3)), np.zeros(4), np.full((1, 2), math.nan), [["a", "b"]]):
        with raises_about("x"):
            posenc.rope(bad, 1 if np.ndim(bad) == 2 else 0)
    with raises_about("x"):  # a pair whose norm is beyond the largest float cannot be rotated
        posenc.rope(np.array([[FLOAT_MAX, FLOAT_MAX]]), [1.0])
    with raises_about("positions"):
        posenc.rope(np.zeros((2, 4)), [0.0])
    with raises_about("positions"):
        posenc.rope(np.zeros((2, 4)), 3)
    with raises_about("positions"):
        posenc.rope(np.zeros((1, 4)), [math.nan])


# --------------------------------------------------------------------------- relative.py


@HARD
@given(st.lists(st.one_of(st.integers(-10 ** 30, 10 ** 30), st.integers(-200, 200),
                          st.sampled_from([2 ** 63 - 1, -2 ** 63, 10 ** 400])), max_size=16),
       st.booleans(), st.integers(2, 500), st.integers(1, 10 ** 7))
def test_t5_bucket_in_range_for_huge_distances(rp, bidirectional, half_buckets, extra):
    num_buckets = 2 * half_buckets if not bidirectional else 2 * max(half_buckets, 2)
    per_sign = num_buckets // 2 if bidirectional else num_buckets
    max_distance = per_sign // 2 + extra
    buckets = public("t5_bucket")(rp, bidirectional=bidirectional, num_buckets=num_buckets,
                                  max_distance=max_distance)
    buckets = np.asarray(buckets)
    assert buckets.shape == (len(rp),)
    assert np.all((0 <= buckets) & (buckets < num_buckets))
    if len(rp):  # one more step away never lowers the bucket (within a sign)
        far = np.asarray(posenc.t5_bucket([int(np.sign(v) or -1) * (abs(v) + 1) for v in rp],
                                          bidirectional=bidirectional, num_buckets=num_buckets,
                                          max_distance=max_distance))
        nonzero = np.array([v != 0 for v in rp])
        assert np.all(far[nonzero] >= buckets[nonzero])


def test_t5_bucket_bad_arguments():
    assert np.asarray(posenc.t5_bucket([])).shape == (0,)
    with raises_about("relative_position"):
        posenc.t5_bucket([1.5])
    with raises_about("relative_position"):
        posenc.t5_bucket([math.nan])
    with raises_about("bidirectional"):
        posenc.t5_bucket(1, bidirectional=1)
    with raises_about("num_buckets"):
        posenc.t5_bucket(1, num_buckets=7)
    with raises_about("max_distance"):
        posenc.t5_bucket(1, num_buckets=32, max_distance=8)
    with raises_about("max_distance"):
        posenc.t5_bucket(1, max_distance=2 ** 2000)


@HARD
@given(st.one_of(st.integers(1, 10_000), st.sampled_from([1, 2, 3, 8192, 10_000])))
def test_alibi_slopes_positive_and_finite(n_heads):
    slopes = public("alibi_slopes")(n_heads)
    assert slopes.shape == (n_heads,) and slopes.dtype == np.float64
    assert np.all(np.isfinite(slopes)) and np.all(slopes > 0) and np.all(slopes < 1)
    closest = 1 << (n_heads.bit_length() - 1)
    assert np.all(np.diff(slopes[:closest]) < 0)
    assert slopes[closest - 1] == pytest.approx(2.0 ** -8, rel=1e-12)


@HARD
@given(st.integers(1, 16), st.one_of(st.sampled_from([0, 1]), st.integers(0, 48)))
def test_alibi_bias_is_a_causal_penalty(n_heads, length):
    bias = public("alibi_bias")(n_heads, length)
    assert bias.shape == (n_heads, length, length)
    below = np.tril(np.ones((length, length), dtype=bool))
    assert np.all(np.isfinite(bias[:, below])) and np.all(bias[:, below] <= 0)
    assert np.all(bias[:, ~below] == -np.inf)
    assert np.all(np.diagonal(bias, axis1=1, axis2=2) == 0)
    if length:  # as logits, every row is a valid softmax input
        weights = posenc.softmax(bias)
        assert np.allclose(weights.sum(axis=-1), 1.0) and np.all(weights[:, ~below] == 0)


@pytest.mark.parametrize(("args", "name"), [
    ((0, 4), "n_heads"), ((-1, 4), "n_heads"), ((1.5, 4), "n_heads"), ((True, 4), "n_heads"),
    ((2, -1), "length"), ((2, 2.0), "length"),
])
def test_alibi_bad_arguments(args, name):
    with raises_about(name):
        posenc.alibi_bias(*args)
    if name == "n_heads":
        with raises_about(name):
            posenc.alibi_slopes(args[0])


# --------------------------------------------------------------------------- attention.py

huge = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)


@HARD
@given(st.data(), st.integers(1, 3), st.sampled_from([-1, 0]))
def test_softmax_stable_for_huge_scores(data, ndim, axis):
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    scores = data.draw(hnp.arrays(np.float64, shape, elements=st.one_of(
        huge, st.sampled_from([FLOAT_MAX, -FLOAT_MAX, 0.0]))))
    weights = public("softmax")(scores, axis=axis)
    assert weights.shape == scores.shape and np.all(np.isfinite(weights))
    assert np.all((weights >= 0) & (weights <= 1))
    assert np.allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)
    assert np.all(np.take_along_axis(weights, np.argmax(scores, axis=axis)[..., None]
                                     if axis == -1 else np.argmax(scores, axis=0)[None], axis=axis) > 0)


def test_softmax_masks_and_bad_scores():
    assert np.array_equal(posenc.softmax([FLOAT_MAX, -FLOAT_MAX]), [1.0, 0.0])
    assert np.array_equal(posenc.softmax([-np.inf, 5.0]), [0.0, 1.0])
    assert posenc.softmax(np.zeros((0, 3))).shape == (0, 3)
    for bad in ([math.nan, 1.0], [math.inf], [-math.inf, -math.inf], 3.0, [], [True]):
        with raises_about("scores"):
            posenc.softmax(bad)
    with raises_about("axis"):
        posenc.softmax([1.0, 2.0], axis=1)


def attention_inputs(magnitude: float):
    elements = st.floats(-magnitude, magnitude, allow_nan=False, allow_infinity=False)
    return st.integers(1, 6).flatmap(lambda n: st.integers(1, 6).flatmap(lambda d: st.tuples(
        *(hnp.arrays(np.float64, shape, elements=elements)
          for shape in [(n, d), (d, d), (d, d), (d, 3)]))))


@HARD
@given(attention_inputs(1e50), st.booleans())
def test_attention_finite_for_large_inputs(inputs, causal):
    """|x|, |w| <= 1e50 keep every score below 1e203: the softmax must handle the spread."""
    x, w_q, w_k, w_v = inputs
    weights = public("attention_weights")(x, w_q, w_k, causal=causal)
    assert np.all(np.isfinite(weights)) and np.allclose(weights.sum(axis=1), 1.0)
    if causal:
        assert np.all(np.triu(weights, 1) == 0)
    out = public("self_attention")(x, w_q, w_k, w_v, causal=causal)
    assert out.shape == (x.shape[0], 3) and np.all(np.isfinite(out))
    assert np.all(np.abs(out) <= np.abs(x @ w_v).max(initial=0) * (1 + 1e-12))


@HARD
@given(attention_inputs(1e300))
def test_attention_overflow_is_reported(inputs):
    """Scores beyond the largest float: a finite answer or an error naming the inputs."""
    x, w_q, w_k, w_v = inputs
    for function, args in ((posenc.attention_weights, (x, w_q, w_k)),
                           (posenc.self_attention, (x, w_q, w_k, w_v))):
        try:
            result = function(*args)
        except ValueError as error:
            assert str(error).startswith("x ") or str(error).startswith("x,"), str(error)
        else:
            assert np.all(np.isfinite(result))


def test_attention_bad_arguments():
    x, w = np.ones((2, 3)), np.ones((3, 3))
    with raises_about("x"):
        posenc.attention_weights(np.ones((0, 3)), w, w)
    with raises_about("x"):
        posenc.attention_weights(np.full((2, 3), math.nan), w, w)
    with raises_about("w_q"):
        posenc.attention_weights(x, np.ones((2, 3)), w)
    with raises_about("causal"):
        posenc.attention_weights(x, w, w, causal=1)
    with raises_about("x"):  # overflow of the scores is named, not passed on to softmax
        posenc.attention_weights(np.full((2, 3), 1e160), w, w)
    with raises_about("x"):
        posenc.self_attention(np.full((2, 3), 1e300), w * 1e-300, w * 1e-300, w * 1e10)


@HARD
@given(st.integers(1, 32), st.integers(0, 2 ** 32))
def test_toy_model_deterministic_and_finite(d, seed):
    model = public("toy_model")(d=d, seed=seed)
    again = posenc.toy_model(d=d, seed=seed)
    assert isinstance(model, public("ToyModel")) and model.d == d
    for a, b in zip((model.w_q, model.w_k, model.w_v, model.readout),
                    (again.w_q, again.w_k, again.w_v, again.readout)):
        assert np.array_equal(a, b) and np.all(np.isfinite(a)) and not a.flags.writeable
    x = model.embed("A hit B")
    assert x.shape == (3, d) and np.isfinite(model.score(x))
    assert np.all(np.isfinite(model.attention(x, causal=True)))


def test_toy_model_bad_arguments():
    for kwargs, name in (({"d": 0}, "d"), ({"d": 2.0}, "d"), ({"seed": -1}, "seed"),
                         ({"words": ("a", "a")}, "words"), ({"words": "a b"}, "words"),
                         ({"words": ()}, "words")):
        with raises_about(name):
            posenc.toy_model(**kwargs)
    model = posenc.toy_model()
    with raises_about("words"):
        model.embed("A kissed B")
    with raises_about("words"):
        model.embed([])


# --------------------------------------------------------------------------- finite_differences.py


@HARD
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, (n,), elements=st.floats(-1e3, 1e3)),
    hnp.arrays(np.float64, (n, n), elements=st.floats(-10, 10)),
    hnp.arrays(np.float64, (n,), elements=st.floats(-10, 10)))))
def test_differences_of_quadratics(args):
    x, a, b = args

    def f(v):
        return float(v @ a @ v + b @ v)

    grad = public("gradient")(f, x)
    want = (a + a.T) @ x + b
    scale = 1 + np.abs(a).sum() * (1 + np.abs(x).max()) + np.abs(b).sum()
    assert np.all(np.isfinite(grad)) and np.allclose(grad, want, atol=1e-4 * scale)
    hess = public("hessian_block")(f, x, range(x.size), range(x.size))
    assert np.allclose(hess, a + a.T, atol=1e-2 * scale)


@HARD
@given(st.floats(-1e15, 1e15, allow_nan=False), st.sampled_from([1e-5, 1e-3, 1.0]))
@example(1e12, 1e-5)
@example(1e8, 1e-5)
def test_gradient_never_silently_loses_the_step(x0, h):
    """Far out, x + h rounds to x: an error about h, never a silently wrong derivative."""
    try:
        grad = posenc.gradient(lambda v: 3.0 * v[0], [x0], h=h)
    except ValueError as error:
        assert str(error).startswith("h "), str(error)
        assert abs(np.spacing(x0)) > 0.005 * h
    else:
        assert np.isfinite(grad[0]) and abs(grad[0] - 3.0) <= 0.05 * 3.0
    try:
        hess = posenc.hessian_block(lambda v: v[0] ** 2, [x0], [0], [0], h=h)
    except ValueError as error:
        assert str(error).startswith("h "), str(error)
    else:
        assert np.isfinite(hess[0, 0])


def test_differences_bad_arguments():
    with raises_about("f"):
        posenc.gradient(3.0, [1.0])
    with raises_about("f"):
        posenc.gradient(lambda v: math.nan, [1.0])
    with raises_about("f"):
        posenc.gradient(lambda v: math.inf, [1.0])
    with raises_about("x"):
        posenc.gradient(lambda v: 0.0, [])
    with raises_about("x"):
        posenc.gradient(lambda v: 0.0, [math.inf])
    with raises_about("h"):
        posenc.gradient(lambda v: 0.0, [1.0], h=0.0)
    with raises_about("h"):
        posenc.gradient(lambda v: 0.0, [1e12])
    with raises_about("rows"):
        posenc.hessian_block(lambda v: 0.0, [1.0], [1], [0])


# --------------------------------------------------------------------------- pretrained.py

DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "U8": "u1"}


@HARD
@given(st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda s: s != "__metadata__"),
                       st.tuples(st.sampled_from(sorted(DTYPES)),
                                 hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)),
                       max_size=5))
def test_safetensors_round_trip(tmp_path_factory, spec):
    rng = np.random.default_rng(0)
    header, blobs, offset, arrays = {}, [], 0, {}
    for name, (dtype_name, shape) in spec.items():
        array = (rng.standard_normal(shape) * 100).astype(DTYPES[dtype_name])
        blob = array.tobytes()
        header[name] = {"dtype": dtype_name, "shape": list(shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        arrays[name] = array
        offset += len(blob)
    text = json.dumps(header).encode()
    path = tmp_path_factory.mktemp("st") / "t.safetensors"
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"".join(blobs))
    loaded = public("load_safetensors")(path)
    assert set(loaded) == set(arrays)
    for name, array in arrays.items():
        assert loaded[name].dtype == array.dtype and np.array_equal(loaded[name], array)


@HARD
@given(st.one_of(
    st.binary(max_size=64),
    st.binary(max_size=48).map(lambda body: len(body).to_bytes(8, "little") + body),
    st.sampled_from([b"[" * 5000, b'{"a": ' * 5000, b"1e999", b'{"a": {"dtype": "F32", '
                     b'"shape": [1e400], "data_offsets": [0, 4]}}', b'{"__metadata__": []}',
                     b'{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}' + b"\0" * 4,
                     b'{"a": {"dtype": "F32", "shape": [99999999999999999999], '
                     b'"data_offsets": [0, 4]}}'])
    .map(lambda body: len(body).to_bytes(8, "little") + body)))
@example(b"")
def test_damaged_safetensors_raise_value_error_naming_the_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("junk") / "junk.safetensors"
    path.write_bytes(data)
    try:
        tensors = posenc.load_safetensors(path)
    except ValueError as error:
        assert str(path) in str(error)
    else:
        assert isinstance(tensors, dict)
    with pytest.raises(ChecksumError) as info:  # not the pinned model, whatever it holds
        public("minilm_embeddings")(path)
    assert str(path) in str(info.value) and "pip install" in str(info.value)
