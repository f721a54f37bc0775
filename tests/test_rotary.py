"""Tests for posenc.rope: the rotary position embedding.

The library applies the rotation pair by pair with cos and sin arrays. The tests compare it with
four independent formulations: the block-diagonal matrix R_m of RoFormer applied row by row, the
complex multiply of meta-llama (pairs as complex numbers times e^{i m theta}), GPT-J's
``rotate_every_two`` and GPT-NeoX / Hugging Face Llama's ``rotate_half`` (x cos + rotate(x) sin),
and check the properties chapter 12 proves: rotations keep norms, (R_m q).(R_n k) = q^T R_{n-m} k
depends on n - m only, position 0 is the identity, and the halves layout is the interleaved one
conjugated by the permutation [0, 2, ..., d-2, 1, 3, ..., d-1].

Tolerances. Positions are at most 1e4 in magnitude and entries of x at most 10, so angles carry
an absolute rounding error near ulp(1e4) ~ 2e-12 and each output entry about 1e-11 relative to
the size of x. Dot products over d <= 32 coordinates of size 10 then agree to about 1e-8; ATOL =
1e-8 (scaled by the sizes involved) leaves a margin, yet a wrong sign, frequency or pairing gives
errors of order 1.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import posenc
from posenc import layout_permutation, rope

MAX_POSITION = 10_000
ATOL = 1e-8
LAYOUTS = ("interleaved", "halves")
PROPERTY = settings(max_examples=100, deadline=None)

dims = st.integers(min_value=1, max_value=16).map(lambda half: 2 * half)
bases = st.one_of(st.sampled_from([10000.0, 500000.0, 100.0, 2.0]),
                  st.floats(min_value=1.01, max_value=1e6, allow_nan=False, allow_infinity=False))
layouts = st.sampled_from(LAYOUTS)
entries = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)
int_positions = st.integers(min_value=-MAX_POSITION, max_value=MAX_POSITION)
real_positions = st.floats(min_value=-MAX_POSITION, max_value=MAX_POSITION,
                           allow_nan=False, allow_infinity=False)


@st.composite
def rows_and_positions(draw, max_rows=6):
    """An (n, d) array x and n positions (integers or reals)."""
    d = draw(dims)
    n = draw(st.integers(min_value=1, max_value=max_rows))
    x = draw(hnp.arrays(np.float64, (n, d), elements=entries))
    positions = draw(st.lists(st.one_of(int_positions, real_positions), min_size=n, max_size=n))
    return x, np.array(positions, dtype=np.float64)


def thetas(d, base):
    return np.array([base ** (-2.0 * i / d) for i in range(d // 2)])


def rotation_matrix(m, d, base):
    """RoFormer's R_m: block diagonal, block i = [[cos m t_i, -sin m t_i], [sin m t_i, cos m t_i]]
    acting on (x_{2i}, x_{2i+1})."""
    r = np.zeros((d, d))
    for i, theta in enumerate(thetas(d, base)):
        c, s = math.cos(m * theta), math.sin(m * theta)
        r[2 * i: 2 * i + 2, 2 * i: 2 * i + 2] = [[c, -s], [s, c]]
    return r


def complex_rope(x, positions, base):
    """meta-llama's form: (x_{2i}, x_{2i+1}) as x_{2i} + i x_{2i+1}, times e^{i m t_i}."""
    d = x.shape[-1]
    z = x[..., 0::2] + 1j * x[..., 1::2]
    z = z * np.exp(1j * np.multiply.outer(positions, thetas(d, base)))
    out = np.empty(x.shape)
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def rotate_every_two(x):
    """GPT-J: (x0, x1, x2, x3, ...) -> (-x1, x0, -x3, x2, ...)."""
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return out


def rotate_half(x):
    """GPT-NeoX / Hugging Face Llama: (x1, x2) -> (-x2, x1) on the two halves."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def gptj_rope(x, positions, base):
    angles = np.multiply.outer(positions, thetas(x.shape[-1], base))
    cos, sin = np.repeat(np.cos(angles), 2, axis=-1), np.repeat(np.sin(angles), 2, axis=-1)
    return x * cos + rotate_every_two(x) * sin


def neox_rope(x, positions, base):
    angles = np.multiply.outer(positions, thetas(x.shape[-1], base))
    emb = np.concatenate([angles, angles], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


def test_public_name_exported():
    assert "rope" in posenc.__all__ and callable(posenc.rope)


# --------------------------------------------------------------------------- concrete values


def test_quarter_turn_of_the_first_pair():
    # d = 2: theta_0 = 1, so position pi/2 turns (1, 0) into (0, 1) and (0, 1) into (-1, 0)
    out = rope(np.array([[1.0, 0.0], [0.0, 1.0]]), [math.pi / 2, math.pi / 2])
    np.testing.assert_allclose(out, [[0.0, 1.0], [-1.0, 0.0]], atol=1e-15)


def test_concrete_values_interleaved_and_halves():
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    # d = 4, base 100: theta = (1, 0.1); position 3 gives angles 3 and 0.3
    c0, s0, c1, s1 = math.cos(3), math.sin(3), math.cos(0.3), math.sin(0.3)
    np.testing.assert_allclose(rope(x, [3], base=100.0),
                               [[1 * c0 - 2 * s0, 1 * s0 + 2 * c0, 3 * c1 - 4 * s1,
                                 3 * s1 + 4 * c1]], rtol=1e-15)
    # halves: pairs (x0, x2) at angle 3 and (x1, x3) at angle 0.3
    np.testing.assert_allclose(rope(x, [3], base=100.0, layout="halves"),
                               [[1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 1 * s0 + 3 * c0,
                                 2 * s1 + 4 * c1]], rtol=1e-15)


def test_integer_count_means_zero_to_n_minus_one():
    x = np.random.default_rng(1).normal(size=(5, 8))
    np.testing.assert_array_equal(rope(x, 5), rope(x, np.arange(5)))
    np.testing.assert_array_equal(rope(x, np.int64(5)), rope(x, [0, 1, 2, 3, 4]))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_position_zero_is_the_identity(layout):
    x = np.random.default_rng(2).normal(size=(2, 3, 4, 6))
    np.testing.assert_array_equal(rope(x, np.zeros(4), layout=layout), x)
    np.testing.assert_array_equal(rope(x[..., :1, :], 1, layout=layout), x[..., :1, :])


def test_returns_float64_copy_of_the_shape_of_x():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    out = rope(x, 3)
    assert out.shape == x.shape and out.dtype == np.float64
    assert rope(np.ones((2, 2), dtype=np.float32), 2).dtype == np.float64
    y = np.ones((3, 4))
    rope(y, 3)
    assert np.all(y == 1)  # x itself is left alone
    assert rope(np.zeros((0, 4)), 0).shape == (0, 4)


# --------------------------------------------------------------------------- equivalences


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_equals_block_diagonal_rotation_row_by_row(data, base):
    x, positions = data
    d = x.shape[-1]
    out = rope(x, positions, base)
    for t, m in enumerate(positions):
        np.testing.assert_allclose(out[t], rotation_matrix(m, d, base) @ x[t], rtol=0, atol=ATOL)
    perm = layout_permutation(d)
    halves = rope(x, positions, base, layout="halves")
    for t, m in enumerate(positions):
        r = rotation_matrix(m, d, base)[np.ix_(perm, perm)]  # R_m in the halves coordinates
        np.testing.assert_allclose(halves[t], r @ x[t], rtol=0, atol=ATOL)


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_matches_complex_gptj_and_neox_forms(data, base):
    x, positions = data
    interleaved = rope(x, positions, base)
    np.testing.assert_allclose(interleaved, complex_rope(x, positions, base), rtol=0, atol=ATOL)
    np.testing.assert_allclose(interleaved, gptj_rope(x, positions, base), rtol=0, atol=ATOL)
    np.testing.assert_allclose(rope(x, positions, base, layout="halves"),
                               neox_rope(x, positions, base), rtol=0, atol=ATOL)


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_halves_is_interleaved_conjugated_by_the_permutation(data, base):
    x, positions = data
    perm = layout_permutation(x.shape[-1])
    np.testing.assert_array_equal(rope(x[..., perm], positions, base, layout="halves"),
                                  rope(x, positions, base)[..., perm])
    inverse = np.argsort(perm)
    np.testing.assert_array_equal(rope(x, positions, base, layout="halves"),
                                  rope(x[..., inverse], positions, base)[..., perm])


@PROPERTY
@given(batch=st.lists(st.integers(1, 3), min_size=0, max_size=3), data=rows_and_positions(4),
       layout=layouts)
def test_batch_axes_broadcast(batch, data, layout):
    x0, positions = data
    rng = np.random.default_rng(len(batch))
    x = rng.normal(size=(*batch, *x0.shape))
    out = rope(x, positions, layout=layout)
    assert out.shape == x.shape
    for index in np.ndindex(*batch):
        np.testing.assert_array_equal(out[index], rope(x[index], positions, layout=layout))


# --------------------------------------------------------------------------- properties


@PROPERTY
@given(data=rows_and_positions(), base=bases, layout=layouts)
def test_preserves_norms(data, base, layout):
    x, positions = data
    out = rope(x, positions, base, layout)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1),
                               rtol=1e-12, atol=1e-12)


@PROPERTY
@given(d=dims, base=bases, layout=layouts, m=int_positions, n=int_positions,
       shift=st.integers(-MAX_POSITION, MAX_POSITION),
       seed=st.integers(0, 2 ** 32 - 1))
def test_score_depends_on_the_offset_only(d, base, layout, m, n, shift, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.uniform(-10, 10, size=(2, 1, d))
    score = rope(q, [m], base, layout)[0] @ rope(k, [n], base, layout)[0]
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    # (R_m q).(R_n k) = q^T R_{n-m} k ...
    relative = q[0] @ rope(k, [n - m], base, layout)[0]
    assert abs(score - relative) <= ATOL * scale
    # ... so shifting both positions changes nothing
    shifted = rope(q, [m + shift], base, layout)[0] @ rope(k, [n + shift], base, layout)[0]
    assert abs(score - shifted) <= 2 * ATOL * scale


@PROPERTY
@given(d=dims, base=bases, m=real_positions, n=real_positions)
def test_rotation_matrices_compose(d, base, m, n):
    """R_m^T R_n = R_{n-m}, checked on the identity: rope of the unit vectors is R_m itself."""
    eye = np.eye(d)
    r_m = rope(eye[:, None, :], np.array([m]), base)[:, 0, :].T  # column j = R_m e_j
    r_n = rope(eye[:, None, :], np.array([n]), base)[:, 0, :].T
    np.testing.assert_allclose(r_m, rotation_matrix(m, d, base), rtol=0, atol=ATOL)
    np.testing.assert_allclose(r_m.T @ r_n, rotation_matrix(n - m, d, base), rtol=0, atol=ATOL)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("x, pattern", [
    (np.ones((3, 5)), r"^x must have a last axis of positive even length d .* d = 5"),
    (np.ones((3, 0)), r"^x must have a last axis of positive even length d"),
    (np.ones(4), r"^x must have at least 2 axes, \(\.\.\., n, d\).* shape \(4,\)"),
    (np.float64(1.0), r"^x must have at least 2 axes"),
    (np.array([[1.0, np.nan]]), r"^x must be finite, got nan"),
    (np.array([[np.inf, 1.0]]), r"^x must be finite, got inf"),
    (np.ones((1, 2), dtype=complex), r"^x must hold real numbers, got dtype complex128"),
    (np.ones((1, 2), dtype=bool), r"^x must hold real numbers, got dtype bool"),
    ([["a", "b"]], r"^x must hold real numbers"),
    ([[1.0, 2.0], [3.0]], r"^x must be an array of real numbers"),
])
def test_rejects_bad_x(x, pattern):
    with pytest.raises(ValueError, match=pattern):
        rope(x, 1)


@pytest.mark.parametrize("positions, pattern", [
    (4, r"^positions given as a count must equal the 3 positions of x .* got 4"),
    ([0, 1], r"^positions must give one position for each of the 3 rows of x .* got 2"),
    (np.arange(4.0), r"^positions must give one position for each of the 3 rows"),
    ([0.0, np.nan, 2.0], r"^positions must be finite, got nan"),
    ([0.0, 1.0, -np.inf], r"^positions must be finite, got -inf"),
    ([[0, 1, 2]], r"^positions must be a 1-D array"),
    (-3, r"^positions given as a count must be non-negative"),
    (3.0, r"^positions given as a single number is a count"),
    (True, r"^positions must be a non-negative integer count"),
    (["a", "b", "c"], r"^positions must hold real numbers"),
])
def test_rejects_bad_positions(positions, pattern):
    with pytest.raises(ValueError, match=pattern):
        rope(np.ones((2, 3, 4)), positions)


@pytest.mark.parametrize("base", [1.0, 0.5, 0, -10.0, float("nan"), float("inf"), True, "1e4"])
def test_rejects_bad_base(base):
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 1"):
        rope(np.ones((3, 4)), 3, base=base)


@pytest.mark.parametrize("layout", ["interleave", "Halves", None, "rotate_half"])
def test_rejects_unknown_layout(layout):
    with pytest.raises(ValueError, match=r"^layout must be one of \('interleaved', 'halves'\)"):
        rope(np.ones((3, 4)), 3, layout=layout)
