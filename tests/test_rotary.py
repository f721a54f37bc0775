"""Tests for posenc.rotary: the rotary position embedding and RoFormer's bound.

The library applies the rotation pair by pair with cos and sin arrays. The tests compare
it with four independent formulations: the block-diagonal matrix R_m of RoFormer applied
row by row, the complex multiply of meta-llama (pairs as complex numbers times e^{i m
theta}), GPT-J's ``rotate_every_two`` and GPT-NeoX / Hugging Face Llama's
``rotate_half`` (x cos + rotate(x) sin), and check the properties chapter 12 proves:
rotations keep norms, (R_m q).(R_n k) = q^T R_{n-m} k depends on n - m only, position 0
is the identity, and the halves layout is the interleaved one conjugated by the
permutation [0, 2, ..., d-2, 1, 3, ..., d-1].

Tolerances. Positions are at most 1e4 in magnitude and entries of x at most 10, so
angles carry an absolute rounding error near ulp(1e4) ~ 2e-12 and each output entry
about 1e-11 relative to the size of x. Dot products over d <= 32 coordinates of size 10
then agree to about 1e-8; ATOL = 1e-8 (scaled by the sizes involved) leaves a margin,
yet a wrong sign, frequency or pairing gives errors of order 1. Norms are kept whatever
the size of the angle, so that property is tested out to positions of 1e8, entries of
1e150 and d = 8192.

RoFormer's partial sums and bound are compared with the double loop over j and k that
defines them, and their continuum limit with mpmath's quadrature. Bad input is tested in
test_hardening.py.
"""

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import LAYOUTS, MAX_POSITION, PROPERTY, frequencies_loop

from posenc import (
    decay_integral,
    layout_permutation,
    rope,
    rope_bound,
    rope_bound_continuum,
    rope_partial_integral,
    rope_partial_sums,
)

ATOL = 1e-8

dims = st.integers(min_value=1, max_value=16).map(lambda half: 2 * half)
bases = st.one_of(
    st.sampled_from([10000.0, 500000.0, 100.0, 2.0]),
    st.floats(min_value=1.01, max_value=1e6, allow_nan=False, allow_infinity=False),
)
layouts = st.sampled_from(LAYOUTS)
entries = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)
int_positions = st.integers(min_value=-MAX_POSITION, max_value=MAX_POSITION)
real_positions = st.floats(
    min_value=-MAX_POSITION,
    max_value=MAX_POSITION,
    allow_nan=False,
    allow_infinity=False,
)


@st.composite
def rows_and_positions(draw, max_rows=6):
    """An (n, d) array x and n positions (integers or reals)."""
    d = draw(dims)
    n = draw(st.integers(min_value=1, max_value=max_rows))
    x = draw(hnp.arrays(np.float64, (n, d), elements=entries))
    positions = draw(
        st.lists(st.one_of(int_positions, real_positions), min_size=n, max_size=n)
    )
    return x, np.array(positions, dtype=np.float64)


thetas = frequencies_loop


def rotation_matrix(m, d, base):
    """RoFormer's R_m: block diagonal, block i = [[cos m t_i, -sin m t_i], [sin m t_i,
    cos m t_i]] acting on (x_{2i}, x_{2i+1})."""
    r = np.zeros((d, d))
    for i, theta in enumerate(thetas(d, base)):
        c, s = math.cos(m * theta), math.sin(m * theta)
        r[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return r


def complex_rope(x, positions, base):
    """meta-llama's form: x_{2i} + i x_{2i+1}, times e^{i m t_i}."""
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
    cos, sin = (
        np.repeat(np.cos(angles), 2, axis=-1),
        np.repeat(np.sin(angles), 2, axis=-1),
    )
    return x * cos + rotate_every_two(x) * sin


def neox_rope(x, positions, base):
    angles = np.multiply.outer(positions, thetas(x.shape[-1], base))
    emb = np.concatenate([angles, angles], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


# ---------------------------------------------------------------------- concrete values


def test_quarter_turn_of_the_first_pair():
    # d = 2: theta_0 = 1, so position pi/2 turns (1, 0) into (0, 1) and (0, 1) into (-1,
    # 0)
    out = rope(np.array([[1.0, 0.0], [0.0, 1.0]]), [math.pi / 2, math.pi / 2])
    np.testing.assert_allclose(out, [[0.0, 1.0], [-1.0, 0.0]], atol=1e-15)


def test_concrete_values_interleaved_and_halves():
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    # d = 4, base 100: theta = (1, 0.1); position 3 gives angles 3 and 0.3
    c0, s0, c1, s1 = math.cos(3), math.sin(3), math.cos(0.3), math.sin(0.3)
    np.testing.assert_allclose(
        rope(x, [3], base=100.0),
        [[1 * c0 - 2 * s0, 1 * s0 + 2 * c0, 3 * c1 - 4 * s1, 3 * s1 + 4 * c1]],
        rtol=1e-15,
    )
    # halves: pairs (x0, x2) at angle 3 and (x1, x3) at angle 0.3
    np.testing.assert_allclose(
        rope(x, [3], base=100.0, layout="halves"),
        [[1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 1 * s0 + 3 * c0, 2 * s1 + 4 * c1]],
        rtol=1e-15,
    )


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


# ------------------------------------------------------------------------- equivalences


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_equals_block_diagonal_rotation_row_by_row(data, base):
    x, positions = data
    d = x.shape[-1]
    out = rope(x, positions, base)
    for t, m in enumerate(positions):
        np.testing.assert_allclose(
            out[t], rotation_matrix(m, d, base) @ x[t], rtol=0, atol=ATOL
        )
    perm = layout_permutation(d)
    halves = rope(x, positions, base, layout="halves")
    for t, m in enumerate(positions):
        r = rotation_matrix(m, d, base)[
            np.ix_(perm, perm)
        ]  # R_m in the halves coordinates
        np.testing.assert_allclose(halves[t], r @ x[t], rtol=0, atol=ATOL)


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_matches_complex_gptj_and_neox_forms(data, base):
    x, positions = data
    interleaved = rope(x, positions, base)
    np.testing.assert_allclose(
        interleaved, complex_rope(x, positions, base), rtol=0, atol=ATOL
    )
    np.testing.assert_allclose(
        interleaved, gptj_rope(x, positions, base), rtol=0, atol=ATOL
    )
    np.testing.assert_allclose(
        rope(x, positions, base, layout="halves"),
        neox_rope(x, positions, base),
        rtol=0,
        atol=ATOL,
    )


@PROPERTY
@given(data=rows_and_positions(), base=bases)
def test_halves_is_interleaved_conjugated_by_the_permutation(data, base):
    x, positions = data
    perm = layout_permutation(x.shape[-1])
    np.testing.assert_array_equal(
        rope(x[..., perm], positions, base, layout="halves"),
        rope(x, positions, base)[..., perm],
    )
    inverse = np.argsort(perm)
    np.testing.assert_array_equal(
        rope(x, positions, base, layout="halves"),
        rope(x[..., inverse], positions, base)[..., perm],
    )


@PROPERTY
@given(
    batch=st.lists(st.integers(1, 3), min_size=0, max_size=3),
    data=rows_and_positions(4),
    layout=layouts,
)
def test_batch_axes_broadcast(batch, data, layout):
    x0, positions = data
    rng = np.random.default_rng(len(batch))
    x = rng.normal(size=(*batch, *x0.shape))
    out = rope(x, positions, layout=layout)
    assert out.shape == x.shape
    for index in np.ndindex(*batch):
        np.testing.assert_array_equal(
            out[index], rope(x[index], positions, layout=layout)
        )


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(
    st.data(),
    st.integers(0, 12),
    st.one_of(st.sampled_from([2, 8192]), st.integers(1, 4096).map(lambda k: 2 * k)),
    st.one_of(
        st.sampled_from([1 + 1e-9, 1e9, 10000.0]),
        st.floats(-9, 9).map(lambda e: 1 + 10.0**e),
    ),
    layouts,
)
def test_preserves_the_norm_of_every_pair(data, n, d, base, layout):
    """Each pair is rotated, so its norm is kept: to 1e-12 for any position up to 1e8
    and entries up to 1e150 (few rows when d is large: memory and time stay bounded)."""
    n = min(n, max(1, 8192 // d))
    x = data.draw(
        hnp.arrays(
            np.float64,
            (n, d),
            elements=st.one_of(entries, st.floats(-1e150, 1e150, allow_nan=False)),
        )
    )
    t = data.draw(
        st.lists(
            st.one_of(
                real_positions, st.floats(-1e8, 1e8), st.sampled_from([1e8, -1e8])
            ),
            min_size=n,
            max_size=n,
        )
    )
    y = rope(x, t, base, layout)
    assert y.shape == x.shape
    if layout == "interleaved":
        before, after = (
            np.hypot(x[:, 0::2], x[:, 1::2]),
            np.hypot(y[:, 0::2], y[:, 1::2]),
        )
    else:
        h = d // 2
        before, after = np.hypot(x[:, :h], x[:, h:]), np.hypot(y[:, :h], y[:, h:])
    np.testing.assert_allclose(after, before, rtol=1e-12, atol=1e-300)


@PROPERTY
@given(
    d=dims,
    base=bases,
    layout=layouts,
    m=int_positions,
    n=int_positions,
    shift=st.integers(-MAX_POSITION, MAX_POSITION),
    seed=st.integers(0, 2**32 - 1),
)
def test_score_depends_on_the_offset_only(d, base, layout, m, n, shift, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.uniform(-10, 10, size=(2, 1, d))
    score = rope(q, [m], base, layout)[0] @ rope(k, [n], base, layout)[0]
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    # (R_m q).(R_n k) = q^T R_{n-m} k ...
    relative = q[0] @ rope(k, [n - m], base, layout)[0]
    assert abs(score - relative) <= ATOL * scale
    # ... so shifting both positions changes nothing
    shifted = (
        rope(q, [m + shift], base, layout)[0] @ rope(k, [n + shift], base, layout)[0]
    )
    assert abs(score - shifted) <= 2 * ATOL * scale


@PROPERTY
@given(d=dims, base=bases, m=real_positions, n=real_positions)
def test_rotation_matrices_compose(d, base, m, n):
    """R_m^T R_n = R_{n-m}, checked on the identity: rope of the unit vectors is R_m
    itself."""
    eye = np.eye(d)
    r_m = rope(eye[:, None, :], np.array([m]), base)[:, 0, :].T  # column j = R_m e_j
    r_n = rope(eye[:, None, :], np.array([n]), base)[:, 0, :].T
    np.testing.assert_allclose(r_m, rotation_matrix(m, d, base), rtol=0, atol=ATOL)
    np.testing.assert_allclose(
        r_m.T @ r_n, rotation_matrix(n - m, d, base), rtol=0, atol=ATOL
    )


# --------------------------------------------------------------------- RoFormer's bound


def partial_sums_loop(x, d, base):
    """S_j(x) = sum_{k<j} e^{i x theta_k}, j = 1 .. d/2, by a double loop."""
    theta = thetas(d, base)
    return np.array(
        [
            sum(
                complex(math.cos(x * theta[k]), math.sin(x * theta[k]))
                for k in range(j)
            )
            for j in range(1, d // 2 + 1)
        ]
    )


def bound_loop(x, d, base):
    """(1 / (d/2)) sum_j |S_j(x)|, the double loop of RoFormer's section 3.4.3."""
    return sum(abs(s) for s in partial_sums_loop(x, d, base)) / (d // 2)


@PROPERTY
@given(x=st.one_of(real_positions, st.floats(-1e8, 1e8)), d=dims, base=bases)
@example(x=0.0, d=2, base=10000.0)
def test_partial_sums_and_bound_equal_the_double_loop(x, d, base):
    sums = rope_partial_sums(x, d, base)
    assert sums.shape == (d // 2,) and np.iscomplexobj(sums)
    # angles of size |x| carry a rounding error of about |x| * 1e-16 each
    atol = 1e-12 + 1e-15 * abs(x) * d
    np.testing.assert_allclose(sums, partial_sums_loop(x, d, base), rtol=0, atol=atol)
    assert rope_bound(x, d, base) == pytest.approx(
        bound_loop(x, d, base), rel=0, abs=atol
    )
    assert rope_bound(-x, d, base) == pytest.approx(
        rope_bound(x, d, base), rel=0, abs=atol
    )


def test_partial_sums_shapes():
    xs = np.arange(12.0).reshape(3, 4)
    sums = rope_partial_sums(xs, 16)
    assert sums.shape == (3, 4, 8)
    assert rope_bound(xs, 16).shape == (3, 4) and isinstance(rope_bound(2.0, 16), float)
    np.testing.assert_allclose(
        sums[..., 0], np.exp(1j * xs), rtol=0, atol=1e-15
    )  # theta_0 = 1


@pytest.mark.parametrize("d", [2, 8, 64, 512])
def test_bound_starts_at_half_of_d_over_two_plus_one(d):
    """At x = 0 every term is 1, |S_j| = j, and (1/(d/2)) sum_j j = (d/2 + 1)/2."""
    assert rope_bound(0.0, d) == (d // 2 + 1) / 2
    # ... and it never exceeds that: |S_j| <= j
    xs = np.linspace(0, 2e4, 2001)
    assert np.all(rope_bound(xs, d) <= (d // 2 + 1) / 2 + 1e-12)


def test_bound_is_not_monotone():
    """RoFormer's plot suggests decay; the bound rises again in places (chapter 12)."""
    xs = np.linspace(0, 2000, 20001)
    bound = rope_bound(xs, 128)
    lowest_so_far = np.minimum.accumulate(bound)
    assert (
        np.max(bound / lowest_so_far) > 1.5
    )  # a later distance scores 50 % above an earlier
    assert bound[-1] < bound[0] / 4  # yet it does fall overall


@pytest.mark.parametrize("base", [2.0, 100.0, 10000.0, 1e8])
@pytest.mark.parametrize("x", [1e-3, 0.7, 5.0, 60.0, 300.0])
def test_partial_integral_equals_mpmath_quadrature(x, base):
    """int_0^u e^{i x b^-t} dt by mpmath's quadrature at 20 digits, the t-interval cut
    where the phase x b^-t crosses a multiple of pi."""
    us = np.array([0.0, 0.3, 1.0])
    got = rope_partial_integral(x, us, base)
    assert got.shape == us.shape
    with mp.workdps(20):
        xm, bm = mp.mpf(x), mp.mpf(base)
        for u, value in zip(us, got, strict=True):
            # x b^-t = k pi  <=>  t = ln(x / (k pi)) / ln b
            cuts = [mp.mpf(0)] + sorted(
                mp.log(xm / (k * mp.pi)) / mp.log(bm)
                for k in range(1, int(x / math.pi) + 1)
                if 0 < mp.log(xm / (k * mp.pi)) / mp.log(bm) < u
            )
            want = mp.quad(lambda t: mp.expj(xm * bm ** (-t)), cuts + [mp.mpf(u)])
            assert abs(value - complex(want)) <= 1e-13


@pytest.mark.parametrize("base", [1.5, 10000.0])
def test_partial_integral_to_one_is_the_decay_integral(base):
    """The real part of the whole integral is chapter 5's I_b(x)."""
    xs = np.array([0.01, 1.0, 7.0, 300.0, 1e5])
    whole = rope_partial_integral(xs, 1.0, base)
    np.testing.assert_allclose(whole.real, decay_integral(xs, base), rtol=0, atol=1e-14)
    assert np.all(rope_partial_integral(xs, 0.0, base) == 0)
    assert rope_partial_integral(xs, np.array([0.2, 0.4]), base).shape == (5, 2)


def test_bound_continuum_approaches_the_bound_as_d_grows():
    """rope_bound / (d/2) is a Riemann sum of int_0^1 |int_0^u e^{i x b^-t} dt| du: the
    two agree to O(1/d) at fixed x."""
    xs = np.array([0.5, 3.0, 20.0, 100.0])
    errors = []
    for d in (1024, 4096, 16384):
        relative = np.abs(
            rope_bound_continuum(xs, d, points=4000) / rope_bound(xs, d) - 1
        )
        errors.append(relative.max())
    assert errors[0] < 3e-3 and errors[2] < 2e-4
    assert errors[0] > 3 * errors[1] > 9 * errors[2]


def test_bound_continuum_midpoint_rule_converges():
    xs = np.array([0.5, 3.0, 20.0, 100.0])
    fine = rope_bound_continuum(xs, 64, points=20000)
    assert np.max(np.abs(rope_bound_continuum(xs, 64) / fine - 1)) < 1e-4  # 400 points
    assert isinstance(rope_bound_continuum(2.0, 64), float)


@pytest.mark.parametrize("base", [1 + 1e-6, 1 + 1e-9, 1 + 1e-12, 1 + 2**-52])
def test_partial_integral_for_a_base_close_to_one(base):
    """As b -> 1 the phase stops turning: |e^{i x b^-t} - e^{i x}| <= x t ln b, so the
    integral to u is u e^{i x} within x u^2 ln(b) / 2 (a bound the true value nearly
    reaches; 1 % is left for rounding). decay_integral keeps full accuracy there."""
    xs, us = np.array([0.5, 3.0, 40.0]), np.array([0.25, 0.5, 1.0])
    got = rope_partial_integral(xs, us, base)
    want = us * np.exp(1j * xs[:, None])
    bound = 1.01 * xs[:, None] * us**2 * math.log(base) / 2 + 1e-12
    assert np.all(np.abs(got - want) <= bound)
