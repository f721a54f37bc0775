"""Tests for posenc.encoding: frequencies, the sinusoidal table, shift matrices,
layouts, block encodings with arbitrary frequencies and tensor2tensor's frequencies.

Unit tests pin concrete values; property tests (hypothesis) check the identities the
book proves: the Gram matrix depends only on the distance, every row has the same norm,
a shift is an orthogonal matrix and shifts compose. Bad input is tested in
test_hardening.py.

Tolerances. Positions and shifts here are at most 1e4 in magnitude (the row-norm, layout
and orthogonality properties, which do not depend on the size of the angle, also far
beyond). An angle t*theta is then computed with an absolute rounding error of about
ulp(1e4) ~ 2e-12, so sines and cosines are off by a few 1e-12, and a sum over at most
d/2 = 32 products by about 1e-10. ATOL = 1e-9 leaves a margin of ten over that, yet a
wrong sign, frequency or layout produces errors of order 1.
"""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.references import (
    LAYOUTS,
    MAX_POSITION,
    PROPERTY,
    frequencies_loop,
    reference_table,
)

from posenc import (
    block_encoding,
    frequencies,
    layout_permutation,
    shift_matrix,
    sinusoidal,
    tensor2tensor_frequencies,
)

ATOL = 1e-9

dims = st.integers(min_value=1, max_value=32).map(lambda half: 2 * half)
bases = st.one_of(
    st.sampled_from([10000.0, 100.0, 2.0]),
    st.floats(min_value=1.01, max_value=1e6, allow_nan=False, allow_infinity=False),
)
layouts = st.sampled_from(LAYOUTS)
int_positions = st.lists(
    st.integers(min_value=-MAX_POSITION, max_value=MAX_POSITION),
    min_size=1,
    max_size=12,
)
real_positions = st.lists(
    st.floats(
        min_value=-MAX_POSITION,
        max_value=MAX_POSITION,
        allow_nan=False,
        allow_infinity=False,
    ),
    min_size=1,
    max_size=12,
)
shifts = st.floats(
    min_value=-MAX_POSITION,
    max_value=MAX_POSITION,
    allow_nan=False,
    allow_infinity=False,
)
int_shifts = st.integers(min_value=-MAX_POSITION, max_value=MAX_POSITION)

# The properties that hold whatever the size of the angle, tested out to the extremes: d
# up to 8192, bases from 1 + 1e-9 to 1 + 1e9, positions up to 1e8 and shifts up to the
# largest float.
FAR_POSITION = 1e8
wide_dims = st.one_of(
    st.sampled_from([2, 8192]), st.integers(1, 4096).map(lambda k: 2 * k)
)
wide_bases = st.one_of(
    st.sampled_from([1 + 1e-9, 1e9, 10000.0]),
    st.floats(-9, 9).map(lambda e: 1 + 10.0**e),
)
far_positions = st.lists(
    st.one_of(
        st.floats(-FAR_POSITION, FAR_POSITION, allow_nan=False, allow_infinity=False),
        st.sampled_from([0.0, FAR_POSITION, -FAR_POSITION]),
    ),
    min_size=1,
    max_size=8,
)
WIDE = settings(max_examples=40, deadline=None)


def rotation_block(angle):
    """The block acting on a (sin, cos) pair: PE(t+k) = block @ PE(t)."""
    return np.array(
        [[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]]
    )


# -------------------------------------------------------------------------- frequencies


@pytest.mark.parametrize(
    "d, base",
    [(2, 10000.0), (4, 100.0), (8, 10000.0), (512, 10000.0), (64, 500000.0), (6, 1.5)],
)
def test_frequencies_endpoints_and_length(d, base):
    theta = frequencies(d, base)
    assert theta.shape == (d // 2,)
    assert theta.dtype == np.float64
    assert theta[0] == 1.0
    np.testing.assert_allclose(theta[-1], base ** (-(d - 2) / d), rtol=1e-13)
    np.testing.assert_allclose(
        theta, base ** (-2.0 * np.arange(d // 2) / d), rtol=1e-13
    )


def test_frequencies_default_base_is_10000():
    np.testing.assert_array_equal(frequencies(8), frequencies(8, 10000.0))
    np.testing.assert_allclose(frequencies(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-13)


@PROPERTY
@given(d=dims, base=bases)
def test_frequencies_strictly_decreasing_in_range(d, base):
    theta = frequencies(d, base)
    assert theta.shape == (d // 2,)
    assert theta[0] == 1.0
    assert np.all(np.diff(theta) < 0)
    assert np.all(theta > 1.0 / base)  # lowest is base^(-(d-2)/d), above 1/base
    assert np.all(theta <= 1.0)


# --------------------------------------------------------------------------- sinusoidal


def test_seed_example():
    expected = np.array(
        [
            [0.0, 1.0, 0.0, 1.0],
            [0.84147098, 0.54030231, 0.09983342, 0.99500417],
            [0.90929743, -0.41614684, 0.19866933, 0.98006658],
            [0.14112001, -0.9899925, 0.29552021, 0.95533649],
        ]
    )
    table = sinusoidal(4, 4, base=100)
    assert table.shape == (4, 4)
    assert table.dtype == np.float64
    np.testing.assert_allclose(table, expected, rtol=0, atol=1e-8)


def test_seed_example_halves():
    table = sinusoidal(4, 4, base=100, layout="halves")
    np.testing.assert_allclose(
        table[:, :2], np.sin(np.outer(np.arange(4), [1.0, 0.1])), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(
        table[:, 2:], np.cos(np.outer(np.arange(4), [1.0, 0.1])), rtol=0, atol=1e-15
    )


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "positions, d, base",
    [
        (7, 2, 10000.0),
        (10, 6, 100.0),
        (50, 16, 10000.0),
        ([0, 3, 1000, 4095, -12], 32, 10000.0),
        (5, 128, 500000.0),
    ],
)
def test_matches_double_loop_reference(positions, d, base, layout):
    pos_list = list(range(positions)) if isinstance(positions, int) else positions
    expected = reference_table(pos_list, d, base, layout)
    table = sinusoidal(positions, d, base=base, layout=layout)
    assert table.shape == (len(pos_list), d)
    np.testing.assert_allclose(table, expected, rtol=0, atol=1e-12)


def test_defaults_are_base_10000_interleaved():
    np.testing.assert_array_equal(
        sinusoidal(20, 8), sinusoidal(20, 8, 10000.0, "interleaved")
    )


def test_count_means_positions_zero_to_n_minus_one():
    np.testing.assert_array_equal(sinusoidal(6, 8), sinusoidal(np.arange(6), 8))
    np.testing.assert_array_equal(
        sinusoidal(np.int64(6), 8), sinusoidal([0, 1, 2, 3, 4, 5], 8)
    )


def test_count_zero_and_empty_array_give_empty_table():
    assert sinusoidal(0, 8).shape == (0, 8)
    assert sinusoidal(np.array([], dtype=float), 8).shape == (0, 8)


def test_position_zero_row():
    row = sinusoidal(1, 10)[0]
    np.testing.assert_array_equal(row[0::2], 0.0)
    np.testing.assert_array_equal(row[1::2], 1.0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_fractional_positions(layout):
    positions = [0.5, 2.25, -1.75, 1234.125]
    table = sinusoidal(positions, 8, base=100.0, layout=layout)
    np.testing.assert_allclose(
        table, reference_table(positions, 8, 100.0, layout), rtol=0, atol=1e-12
    )
    # the first column pair is sin t, cos t (theta_0 = 1)
    np.testing.assert_allclose(
        sinusoidal([0.5, 2.25], 4)[:, :2],
        [[math.sin(0.5), math.cos(0.5)], [math.sin(2.25), math.cos(2.25)]],
        rtol=0,
        atol=1e-15,
    )


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_position_array_dtypes_accepted(dtype):
    positions = np.array([0, 1, 5, 9], dtype=dtype)
    np.testing.assert_allclose(
        sinusoidal(positions, 6),
        reference_table([0, 1, 5, 9], 6, 1e4),
        rtol=0,
        atol=1e-12,
    )


def test_does_not_modify_input():
    positions = np.array([3.0, 1.0, 2.0])
    sinusoidal(positions, 4)
    np.testing.assert_array_equal(positions, [3.0, 1.0, 2.0])


@PROPERTY
@given(positions=real_positions, d=dims, base=bases, layout=layouts)
def test_property_matches_reference(positions, d, base, layout):
    np.testing.assert_allclose(
        sinusoidal(positions, d, base, layout),
        reference_table(positions, d, base, layout),
        rtol=0,
        atol=ATOL,
    )


@WIDE
@given(positions=far_positions, d=wide_dims, base=wide_bases, layout=layouts)
@example([FAR_POSITION, -FAR_POSITION], 8192, 1e9, "interleaved")
@example([0.5, 3.0], 8192, 1 + 1e-9, "halves")
def test_property_row_norm_is_sqrt_half_d(positions, d, base, layout):
    """sin^2 + cos^2 = 1 in every pair, for any position however far."""
    table = sinusoidal(positions, d, base, layout)
    assert np.all(np.abs(table) <= 1)
    np.testing.assert_allclose(
        np.linalg.norm(table, axis=1), math.sqrt(d / 2), rtol=1e-12, atol=0
    )


@PROPERTY
@given(
    start=st.integers(-MAX_POSITION, MAX_POSITION - 20),
    n=st.integers(2, 16),
    d=dims,
    base=bases,
    layout=layouts,
)
def test_property_gram_matrix_is_toeplitz(start, n, d, base, layout):
    table = sinusoidal(np.arange(start, start + n), d, base, layout)
    gram = table @ table.T
    np.testing.assert_allclose(gram[:-1, :-1], gram[1:, 1:], rtol=0, atol=ATOL)
    # and the entries are sum_i cos((m - n) theta_i)
    lags = np.subtract.outer(np.arange(n), np.arange(n))
    expected = np.cos(np.multiply.outer(lags, frequencies(d, base))).sum(axis=-1)
    np.testing.assert_allclose(gram, expected, rtol=0, atol=ATOL)


@PROPERTY
@given(
    positions=st.lists(
        st.integers(-MAX_POSITION // 2, MAX_POSITION // 2), min_size=2, max_size=10
    ),
    offset=st.integers(-MAX_POSITION // 2, MAX_POSITION // 2),
    d=dims,
    base=bases,
    layout=layouts,
)
def test_property_gram_matrix_depends_on_difference_only(
    positions, offset, d, base, layout
):
    p = np.array(positions)
    a = sinusoidal(p, d, base, layout)
    b = sinusoidal(p + offset, d, base, layout)
    np.testing.assert_allclose(a @ a.T, b @ b.T, rtol=0, atol=ATOL)


@PROPERTY
@given(positions=real_positions, d=dims, base=bases)
def test_property_gram_equal_across_layouts(positions, d, base):
    inter = sinusoidal(positions, d, base, "interleaved")
    halves = sinusoidal(positions, d, base, "halves")
    # a column permutation leaves inner products exactly unchanged up to summation order
    np.testing.assert_allclose(inter @ inter.T, halves @ halves.T, rtol=0, atol=ATOL)


# --------------------------------------------------------------------------- layouts


def test_layout_permutation_values():
    np.testing.assert_array_equal(layout_permutation(2), [0, 1])
    np.testing.assert_array_equal(layout_permutation(8), [0, 2, 4, 6, 1, 3, 5, 7])


@PROPERTY
@given(d=wide_dims)
def test_property_layout_permutation_is_a_permutation(d):
    perm = layout_permutation(d)
    assert perm.shape == (d,)
    assert np.issubdtype(perm.dtype, np.integer)
    np.testing.assert_array_equal(np.sort(perm), np.arange(d))


@WIDE
@given(positions=far_positions, d=wide_dims, base=wide_bases)
def test_property_halves_is_permuted_interleaved(positions, d, base):
    inter = sinusoidal(positions, d, base, "interleaved")
    halves = sinusoidal(positions, d, base, "halves")
    # the same numbers, only moved: exact equality
    np.testing.assert_array_equal(halves, inter[:, layout_permutation(d)])


@PROPERTY
@given(k=shifts, d=dims, base=bases)
def test_property_permutation_conjugates_shift_matrices(k, d, base):
    perm = np.eye(d)[layout_permutation(d)]  # P with (P x) = x[perm]
    m_inter = shift_matrix(k, d, base, "interleaved")
    m_halves = shift_matrix(k, d, base, "halves")
    np.testing.assert_allclose(m_halves, perm @ m_inter @ perm.T, rtol=0, atol=1e-15)


# ----------------------------------------------------------------------- shift matrices


@pytest.mark.parametrize("k", [1, 3, -2, 0.5, 1000])
def test_shift_block_sign(k):
    """The block acting on (sin, cos) is [[cos, sin], [-sin, cos]]; the common slip
    flips it."""
    m = shift_matrix(k, 2, base=10000.0)
    np.testing.assert_allclose(m, rotation_block(k), rtol=0, atol=1e-15)
    assert m[0, 1] == pytest.approx(math.sin(k))  # the sign that is easy to get wrong
    assert m[1, 0] == pytest.approx(-math.sin(k))


@pytest.mark.parametrize("k", [1, 7, -3.5])
def test_shift_matrix_block_diagonal_interleaved(k):
    d, base = 8, 100.0
    m = shift_matrix(k, d, base)
    expected = np.zeros((d, d))
    for i, theta in enumerate(frequencies(d, base)):
        expected[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_block(k * theta)
    np.testing.assert_allclose(m, expected, rtol=0, atol=1e-15)


def test_shift_matrix_halves_explicit():
    k, d, base = 2.0, 4, 100.0
    c = np.cos(k * frequencies(d, base))
    s = np.sin(k * frequencies(d, base))
    expected = np.array(
        [
            [c[0], 0, s[0], 0],
            [0, c[1], 0, s[1]],
            [-s[0], 0, c[0], 0],
            [0, -s[1], 0, c[1]],
        ]
    )
    np.testing.assert_allclose(
        shift_matrix(k, d, base, "halves"), expected, rtol=0, atol=1e-15
    )


@pytest.mark.parametrize("layout", LAYOUTS)
def test_shift_zero_is_identity(layout):
    np.testing.assert_array_equal(shift_matrix(0, 6, layout=layout), np.eye(6))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_shift_matches_next_position(layout):
    """PE(t + 1) = M_1 PE(t) on the seed example."""
    table = sinusoidal(4, 4, base=100, layout=layout)
    m1 = shift_matrix(1, 4, base=100, layout=layout)
    np.testing.assert_allclose(table[1:], table[:-1] @ m1.T, rtol=0, atol=1e-14)


@PROPERTY
@given(
    k=st.one_of(
        shifts, st.sampled_from([1e300, -1e300, float(np.finfo(np.float64).max)])
    ),
    d=st.one_of(dims, st.integers(1, 128).map(lambda half: 2 * half)),
    base=st.one_of(bases, wide_bases),
    layout=layouts,
)
def test_property_shift_matrix_orthogonal(k, d, base, layout):
    m = shift_matrix(k, d, base, layout)
    assert m.shape == (d, d)
    np.testing.assert_allclose(m @ m.T, np.eye(d), rtol=0, atol=ATOL)
    np.testing.assert_allclose(m.T @ m, np.eye(d), rtol=0, atol=ATOL)


@PROPERTY
@given(j=shifts, k=shifts, d=dims, base=bases, layout=layouts)
def test_property_shifts_compose(j, k, d, base, layout):
    np.testing.assert_allclose(
        shift_matrix(j, d, base, layout) @ shift_matrix(k, d, base, layout),
        shift_matrix(j + k, d, base, layout),
        rtol=0,
        atol=ATOL,
    )


@PROPERTY
@given(k=shifts, d=dims, base=bases, layout=layouts)
def test_property_negative_shift_inverts(k, d, base, layout):
    m = shift_matrix(k, d, base, layout)
    m_back = shift_matrix(-k, d, base, layout)
    np.testing.assert_allclose(m_back @ m, np.eye(d), rtol=0, atol=ATOL)
    np.testing.assert_allclose(m_back, m.T, rtol=0, atol=ATOL)


@PROPERTY
@given(positions=real_positions, k=shifts, d=dims, base=bases, layout=layouts)
def test_property_shift_moves_encoding(positions, k, d, base, layout):
    """sinusoidal(t + k) == sinusoidal(t) @ M_k^T, i.e. PE(t + k) = M_k PE(t) for every
    row."""
    t = np.array(positions)
    shifted = sinusoidal(t + k, d, base, layout)
    moved = sinusoidal(t, d, base, layout) @ shift_matrix(k, d, base, layout).T
    np.testing.assert_allclose(shifted, moved, rtol=0, atol=ATOL)


@PROPERTY
@given(positions=int_positions, k=int_shifts, d=dims, base=bases, layout=layouts)
def test_property_shift_moves_encoding_integer(positions, k, d, base, layout):
    t = np.array(positions)
    shifted = sinusoidal(t + k, d, base, layout)
    moved = sinusoidal(t, d, base, layout) @ shift_matrix(k, d, base, layout).T
    np.testing.assert_allclose(shifted, moved, rtol=0, atol=ATOL)


# -------------------------------------------------------------- accepted argument types


@pytest.mark.parametrize("k", [np.float64(2.5), np.int64(3), 2, -1.25])
def test_numpy_and_python_scalars_accepted_for_k(k):
    np.testing.assert_allclose(
        shift_matrix(k, 2), rotation_block(float(k)), rtol=0, atol=1e-15
    )


def test_numpy_scalar_arguments_accepted():
    np.testing.assert_array_equal(
        sinusoidal(np.int64(3), np.int64(4), base=np.float64(100.0)),
        sinusoidal(3, 4, base=100.0),
    )
    np.testing.assert_array_equal(
        sinusoidal(3, 4, base=100), sinusoidal(3, 4, base=100.0)
    )


# -------------------------------------------------------- the block-rotation evaluation


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(10**8), 10**8), min_size=1, max_size=80),
    st.integers(1, 64).map(lambda k: 2 * k),
    st.floats(1.01, 1e9),
)
def test_integer_positions_match_the_formula(positions, d, base):
    """Integer positions go through e^{i 64q θ} e^{i r θ}; the result is the formula's
    up to rounding of the angle, which is about |t θ| times 1e-16."""
    table = sinusoidal(positions, d, base)
    scale = max(1.0, max(abs(p) for p in positions))
    np.testing.assert_allclose(
        table, reference_table(positions, d, base), rtol=0, atol=4e-16 * scale + 1e-15
    )
    assert np.all(np.abs(table) <= 1.0)


def test_a_table_and_its_rows_agree_bit_for_bit():
    positions = np.array([0, 1, 63, 64, 65, 127, 128, 4095, -1, -64, -65, 10**8 + 3])
    table = sinusoidal(positions, 64)
    for row, t in zip(table, positions, strict=True):
        np.testing.assert_array_equal(row, sinusoidal([t], 64)[0])


@pytest.mark.parametrize(
    "start, stop", [(0, 2048), (-130, 200), (5, 6), (63, 65), (10**8, 10**8 + 300)]
)
def test_consecutive_and_scattered_positions_agree_bit_for_bit(start, stop):
    """Consecutive positions are computed by broadcasting whole blocks, any others by
    gathering rows: the two paths multiply the same numbers."""
    consecutive = np.arange(start, stop)
    order = np.random.default_rng(0).permutation(consecutive.size)
    scattered = sinusoidal(consecutive[order], 32)
    np.testing.assert_array_equal(sinusoidal(consecutive, 32)[order], scattered)
    np.testing.assert_array_equal(
        sinusoidal(consecutive.astype(float), 32, layout="halves")[order],
        sinusoidal(consecutive[order], 32, layout="halves"),
    )


def test_a_long_table_is_the_formula_to_1e_12():
    """2048 positions: 32 blocks of 64 rotated rows, every offset and block start."""
    np.testing.assert_allclose(
        sinusoidal(2048, 64),
        reference_table(range(2048), 64, 10000.0),
        rtol=0,
        atol=1e-12,
    )


def test_fractional_positions_match_the_formula():
    positions = [0.5, 1.25, 2047.75, -3.5]
    np.testing.assert_allclose(
        sinusoidal(positions, 16),
        reference_table(positions, 16, 10000.0),
        rtol=0,
        atol=1e-12,
    )


# ---------------------------------------------------------- blocks with any frequencies


@PROPERTY
@given(
    theta=st.lists(
        st.floats(-10, 10, allow_nan=False, allow_infinity=False),
        min_size=1,
        max_size=12,
    ),
    positions=st.lists(st.integers(-1000, 1000), min_size=1, max_size=10),
)
def test_block_encoding_gram_is_a_sum_of_cosines_of_the_distance(theta, positions):
    """<p_m, p_n> = sum_i cos((m - n) theta_i) for any frequencies (chapter 3, "Block
    solutions"), written out here as a double loop over positions and a sum over blocks.
    """
    table = block_encoding(positions, theta)
    assert table.shape == (len(positions), 2 * len(theta))
    want = np.array(
        [
            [sum(math.cos((m - n) * t) for t in theta) for n in positions]
            for m in positions
        ]
    )
    np.testing.assert_allclose(table @ table.T, want, rtol=0, atol=1e-9)


def test_block_encoding_is_cos_then_sin_of_each_block():
    table = block_encoding([0, 2, -1.5], [1.0, 0.25])
    for row, m in enumerate([0, 2, -1.5]):
        np.testing.assert_allclose(
            table[row],
            [math.cos(m), math.sin(m), math.cos(m / 4), math.sin(m / 4)],
            rtol=0,
            atol=1e-15,
        )
    assert block_encoding(0, [1.0]).shape == (0, 2)


@pytest.mark.parametrize("d, base", [(2, 100.0), (16, 10000.0), (64, 500000.0)])
def test_block_encoding_of_the_papers_frequencies_swaps_each_pair(d, base):
    """The paper writes each pair (sin, cos); block_encoding writes (cos, sin)."""
    positions = np.arange(-5, 40)
    blocks = block_encoding(positions, frequencies(d, base))
    table = reference_table(positions, d, base)
    np.testing.assert_allclose(blocks[:, 0::2], table[:, 1::2], rtol=0, atol=1e-12)
    np.testing.assert_allclose(blocks[:, 1::2], table[:, 0::2], rtol=0, atol=1e-12)


# ---------------------------------------------------------- tensor2tensor's frequencies


@pytest.mark.parametrize("d", [4, 6, 64, 512])
@pytest.mark.parametrize("max_timescale", [1.5, 100.0, 10000.0, 1e9])
def test_tensor2tensor_longest_wavelength_is_two_pi_max_timescale(d, max_timescale):
    theta = tensor2tensor_frequencies(d, max_timescale)
    assert theta.shape == (d // 2,) and theta[0] == 1.0
    # the longest wavelength 2 pi / theta_min is exactly 2 pi max_timescale (to
    # rounding)
    assert 2 * math.pi / theta[-1] == pytest.approx(
        2 * math.pi * max_timescale, rel=1e-14
    )
    # geometric: one ratio, the (d/2 - 1)-th root of 1 / max_timescale
    ratio = max_timescale ** (-1 / (d // 2 - 1))
    np.testing.assert_allclose(theta[1:] / theta[:-1], ratio, rtol=1e-13)
    # tensor2tensor's code, get_timing_signal_1d: log_timescale_increment, then exp(-i *
    # inc)
    increment = math.log(max_timescale) / (d // 2 - 1)
    np.testing.assert_allclose(
        theta, [math.exp(-i * increment) for i in range(d // 2)], rtol=1e-14
    )


@pytest.mark.parametrize("d", [4, 8, 512])
def test_tensor2tensor_steps_further_than_the_paper(d):
    """The paper's lowest frequency stops one step short of 1/b; tensor2tensor's reaches
    it."""
    paper, t2t = frequencies(d, 10000.0), tensor2tensor_frequencies(d, 10000.0)
    assert t2t[0] == paper[0] == 1.0
    assert np.all(t2t[1:] < paper[1:])
    assert paper[-1] == pytest.approx(10000.0 ** (-(d - 2) / d), rel=1e-14)
    assert paper[-1] > 1e-4 == pytest.approx(t2t[-1], rel=1e-14)


@pytest.mark.parametrize("d, base", [(2, 10000.0), (8, 1.5), (512, 10000.0), (64, 1e9)])
def test_frequencies_equal_the_power_loop(d, base):
    np.testing.assert_allclose(
        frequencies(d, base), frequencies_loop(d, base), rtol=1e-14
    )
