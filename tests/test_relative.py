"""Tests for posenc.relative: T5's relative-position buckets and ALiBi's slopes and
bias.

Both functions must reproduce their reference implementations exactly, so each is
checked three ways: against a transcription of the reference code written here
independently of the library (an oracle), against a table of values worked out by hand
from the reference code, and against the properties the book states (ranges,
monotonicity, the geometric sequence, softmax invariance). Bad input is tested in
test_hardening.py.

References transcribed (read from the public repositories):
- T5: ``T5Attention._relative_position_bucket`` in huggingface/transformers,
  src/transformers/models/t5/modeling_t5.py, itself adapted from
  ``_relative_position_bucket`` in tensorflow/mesh,
  mesh_tensorflow/transformer/transformer_layers.py. The two agree: Mesh TF negates
  first (n = -relative_position) and counts n < 0 as the positive side, which is the
  Hugging Face ``relative_position > 0``.
- ALiBi: ``get_slopes`` in ofirpress/attention_with_linear_biases,
  fairseq/models/transformer.py.

Hand table for T5's defaults (32 buckets, max_distance 128). Bidirectional: 16 buckets a
sign, 8 of them exact; for n = |r| >= 8 the bucket is 8 + trunc(ln(n/8) / ln(16) * 8) =
8 + trunc(2 log2(n) - 6) = 2 + floor(log2(n^2)), capped at 15, and positive r adds 16.
So n = 8..11 -> 8 (n^2 < 128), 12..15 -> 9, 16 -> 10 (log2(256) = 8 exactly: the float32
value is exactly 2.0), 31 -> 11, 32 -> 12 (exactly 4.0), 64 -> 14 (exactly 6.0), 91 and
up -> 15. Unidirectional: only r < 0 counts, n = -r, 32 buckets, 16 exact; for n >= 16
the bucket is 16 + trunc(ln(n/16) / ln(8) * 16) = 16 + trunc(16/3 (log2 n - 4)), capped
at 31: 31 -> 21 (5.09), 32 -> 21 (5.33), 64 -> 26 (10.67), 100 -> 30 (14.10), 127 -> 31
(15.94); every r >= 0 -> 0.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.references import PROPERTY

from posenc import alibi_bias, alibi_slopes, t5_bucket

F32 = np.float32


# --------------------------------------------------------------------------- T5 oracle


def reference_bucket(
    relative_position, bidirectional=True, num_buckets=32, max_distance=128, log=None
):
    """``T5Attention._relative_position_bucket`` for one integer, line by line.

    The PyTorch code works on int64 tensors and does the logarithmic part in float32:
    ``relative_position.float() / max_exact`` is a float32 division, ``torch.log`` a
    float32 log, ``/ math.log(max_distance / max_exact)`` divides by that Python float
    cast to float32, ``* (num_buckets - max_exact)`` multiplies in float32, and
    ``.to(torch.long)`` truncates toward zero. ``log`` maps a float32 to its float32
    log; by default the correctly rounded one (the double log rounded to float32), which
    is what a logf accurate to well under an ulp returns.
    """
    if log is None:

        def log(value):
            return F32(math.log(float(value)))

    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += int(relative_position > 0) * num_buckets
        relative_position = abs(relative_position)
    else:
        relative_position = -min(relative_position, 0)
    # now relative_position is in the range [0, inf)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    if (
        is_small
    ):  # torch.where picks relative_position; the (unused) log branch is skipped here
        return relative_buckets + relative_position
    ratio = F32(relative_position) / F32(max_exact)
    scaled = (
        log(ratio)
        / F32(math.log(max_distance / max_exact))
        * F32(num_buckets - max_exact)
    )
    assert scaled.dtype == np.float32
    relative_position_if_large = max_exact + int(
        scaled
    )  # int() truncates like .to(torch.long)
    relative_position_if_large = min(relative_position_if_large, num_buckets - 1)
    return relative_buckets + relative_position_if_large


def numpy_log32(value):
    """NumPy's own float32 log: not correctly rounded, and CPU-dependent in its last
    bit."""
    return np.log(np.array([value], dtype=np.float32))[0]


def float64_bucket(
    relative_position, bidirectional=True, num_buckets=32, max_distance=128
):
    """The same algorithm in float64 throughout: the classic off-by-one."""
    offset = 0
    if bidirectional:
        num_buckets //= 2
        offset = num_buckets if relative_position > 0 else 0
        n = abs(relative_position)
    else:
        n = max(-relative_position, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return offset + n
    large = max_exact + int(
        math.log(n / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    )
    return offset + min(large, num_buckets - 1)


DISTANCES = list(range(0, 11)) + [15, 16, 31, 32, 64, 100, 127, 128, 129, 500, 10**6]
# fmt: off
# bucket for relative_position = -distance (key before the query), defaults,
# bidirectional
HAND_BIDIRECTIONAL_NEGATIVE = dict(zip(DISTANCES, [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 9, 10, 11, 12, 14, 15, 15, 15, 15, 15, 15,
], strict=True))
# ... and for relative_position = +distance: 16 more, except 0 stays in bucket 0
HAND_BIDIRECTIONAL_POSITIVE = dict(zip(DISTANCES, [
    0, 17, 18, 19, 20, 21, 22, 23, 24, 24, 24,
    25, 26, 27, 28, 30, 31, 31, 31, 31, 31, 31,
], strict=True))
HAND_UNIDIRECTIONAL_NEGATIVE = dict(zip(DISTANCES, [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 21, 21, 26, 30, 31, 31, 31, 31, 31,
], strict=True))
# fmt: on

# (num_buckets, max_distance) pairs tried in both modes (bidirectional needs num_buckets
# >= 4).
CONFIGS = [
    (32, 128),
    (64, 256),
    (16, 64),
    (8, 32),
    (32, 64),
    (128, 512),
    (4, 2),
    (4, 100),
    (6, 7),
    (20, 160),
    (10, 160),
    (36, 50),
    (48, 81),
    (100, 98),
    (128, 441),
    (2, 2),
    (2, 1000),
]
# Pairs of powers of two, as models use them: there no bucket depends on the log's last
# bit.
POWER_OF_TWO_CONFIGS = [
    (32, 128),
    (64, 256),
    (16, 64),
    (8, 32),
    (32, 64),
    (128, 512),
    (32, 256),
    (64, 128),
]
SWEEP = list(range(-1100, 1101)) + [
    2**20,
    -(2**20),
    2**31 - 1,
    -(2**31),
    10**12,
    -(10**12),
]


def configs(bidirectional):
    smallest = 4 if bidirectional else 2
    for num_buckets, max_distance in CONFIGS:
        max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
        if num_buckets >= smallest and max_distance > max_exact:
            yield num_buckets, max_distance


# --------------------------------------------------------------------- T5: exact values


@pytest.mark.parametrize("distance", DISTANCES)
def test_t5_hand_table_bidirectional(distance):
    assert t5_bucket(-distance) == HAND_BIDIRECTIONAL_NEGATIVE[distance]
    assert t5_bucket(distance) == HAND_BIDIRECTIONAL_POSITIVE[distance]
    # the oracle agrees with the hand table, so the table was read off the reference
    # correctly
    assert reference_bucket(-distance) == HAND_BIDIRECTIONAL_NEGATIVE[distance]
    assert reference_bucket(distance) == HAND_BIDIRECTIONAL_POSITIVE[distance]


@pytest.mark.parametrize("distance", DISTANCES)
def test_t5_hand_table_unidirectional(distance):
    assert (
        t5_bucket(-distance, bidirectional=False)
        == HAND_UNIDIRECTIONAL_NEGATIVE[distance]
    )
    assert t5_bucket(distance, bidirectional=False) == 0  # keys at or after the query
    assert reference_bucket(-distance, False) == HAND_UNIDIRECTIONAL_NEGATIVE[distance]


def test_t5_defaults_bucket_usage():
    """Unidirectional mode uses all 32 buckets. Bidirectional mode never uses bucket 16:
    it is the "exact distance 0" bucket of the positive side, and a positive relative
    position is at least 1 (distance 0 goes to bucket 0). The reference has the same
    unused bucket."""
    r = np.arange(-200, 201)
    assert set(t5_bucket(r).tolist()) == set(range(32)) - {16}
    assert set(t5_bucket(r, bidirectional=False).tolist()) == set(range(32))


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_matches_oracle_on_many_configs(bidirectional):
    for num_buckets, max_distance in configs(bidirectional):
        got = t5_bucket(np.array(SWEEP), bidirectional, num_buckets, max_distance)
        want = [
            reference_bucket(r, bidirectional, num_buckets, max_distance) for r in SWEEP
        ]
        assert got.tolist() == want, (num_buckets, max_distance)


@PROPERTY
@given(
    r=st.integers(-(10**6), 10**6),
    half=st.integers(2, 100),
    extra=st.integers(1, 2000),
    bidirectional=st.booleans(),
)
def test_t5_matches_oracle_property(r, half, extra, bidirectional):
    num_buckets = 2 * half
    max_exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    max_distance = max_exact + extra
    assert t5_bucket(r, bidirectional, num_buckets, max_distance) == reference_bucket(
        r, bidirectional, num_buckets, max_distance
    )


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_power_of_two_configs_do_not_depend_on_the_log_implementation(bidirectional):
    """With NumPy's float32 log (less accurate than the correctly rounded one) the
    buckets of the usual configurations come out the same (the next test says why)."""
    for num_buckets, max_distance in POWER_OF_TWO_CONFIGS:
        want = t5_bucket(
            np.arange(-1100, 1101), bidirectional, num_buckets, max_distance
        )
        other = [
            reference_bucket(
                r, bidirectional, num_buckets, max_distance, log=numpy_log32
            )
            for r in range(-1100, 1101)
        ]
        assert want.tolist() == other, (num_buckets, max_distance)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_power_of_two_configs_have_no_knife_edges(bidirectional):
    """Why the last bit of the float32 log does not matter for pairs of powers of two
    (t5_bucket's docstring): every scaled log value is either more than 100 float32 ulps
    from an integer where max_distance is at most 4 * num_buckets, and more than 20 up to
    4096 positions (21.8 at 128 buckets and 4096, bidirectional), so that a log a few ulps
    off truncates the same way; or it is an exact integer, which happens only where n / E is
    a power of two; the log of a power of two lies within 0.04 ulp of its float32, so any
    logf worth the name returns that float, and the float32 quotient is then exact."""
    pairs = [(2**i, 2**j) for i in range(3, 8) for j in range(3, 13)]
    for num_buckets, max_distance in pairs:
        if max_distance <= (num_buckets // 2 if bidirectional else num_buckets) // 2:
            continue  # every distance is in an exact bucket
        per_sign = num_buckets // 2 if bidirectional else num_buckets
        max_exact = per_sign // 2
        n = np.arange(max_exact + 1, max_distance)
        value = (
            np.log(n / max_exact)
            / math.log(max_distance / max_exact)
            * (per_sign - max_exact)
        )
        gap = np.abs(value - np.round(value))
        on_integer = gap < 1e-9
        ulps = gap[~on_integer] / np.spacing(value[~on_integer].astype(np.float32))
        margin = 100 if max_distance <= 4 * num_buckets else 20
        assert np.all(ulps > margin), (num_buckets, max_distance)
        for k in n[on_integer]:
            ratio = k // max_exact
            assert k % max_exact == 0 and ratio & (ratio - 1) == 0  # a power of two
            scaled = (
                F32(math.log(ratio))
                / F32(math.log(max_distance / max_exact))
                * F32(per_sign - max_exact)
            )
            assert scaled == round(float(value[n == k][0]))  # exact in float32


def test_t5_float32_matters():
    """ln(10/5) / ln(160/5) * 5 is exactly 1. The reference's float32 arithmetic gives
    exactly 1.0 (bucket 5 + 1); float64 gives 0.9999999999999999 and truncates to 0
    (bucket 5)."""
    assert F32(math.log(2.0)) / F32(math.log(160 / 5)) * F32(5) == F32(1.0)
    assert math.log(10 / 5) / math.log(160 / 5) * 5 < 1.0
    assert t5_bucket(-10, bidirectional=False, num_buckets=10, max_distance=160) == 6
    assert (
        float64_bucket(-10, bidirectional=False, num_buckets=10, max_distance=160) == 5
    )
    # the same in bidirectional mode with twice the buckets, on both sides
    assert t5_bucket(-10, num_buckets=20, max_distance=160) == 6
    assert t5_bucket(10, num_buckets=20, max_distance=160) == 16
    assert float64_bucket(10, num_buckets=20, max_distance=160) == 15


def log_one_ulp_high_at(*arguments):
    """A float32 log that is correctly rounded except one ulp high at ``arguments``: what the
    book's review measured of PyTorch's CPU float32 log at 3/2 and 5/3 (PyTorch is not
    installed here, so its log is emulated, not called)."""
    high = {F32(a) for a in arguments}

    def log(value):
        correct = F32(math.log(float(value)))
        return np.nextafter(correct, F32(np.inf)) if F32(value) in high else correct

    return log


# (bidirectional, num_buckets, max_distance), relative position, posenc's bucket and the
# reference's with the log of PyTorch's CPU: where (B - E) ln(n/E) / ln(M/E) is a whole number
# and n/E is 3/2 or 5/3
PYTORCH_CPU_KNIFE_EDGES = [
    ((True, 34, 27), -12, 10, 11),  # 9 ln(3/2) / ln(27/8) = 3 (chapter 10's example)
    ((True, 34, 27), 12, 27, 28),
    ((True, 38, 25), -15, 13, 14),  # 10 ln(5/3) / ln(25/9) = 5
    ((True, 38, 25), 15, 32, 33),
    ((False, 36, 50), -30, 26, 27),  # 18 ln(5/3) / ln(25/9) = 9
]


@pytest.mark.parametrize(("setting", "r", "ours", "pytorch"), PYTORCH_CPU_KNIFE_EDGES)
def test_t5_correctly_rounded_log_and_pytorchs_cpu_log_part_at_knife_edges(
    setting, r, ours, pytorch
):
    """Which log gives which bucket (review item 5): t5_bucket is the reference with a
    correctly rounded float32 log; with a log one ulp high at 3/2 and 5/3 the reference is one
    bucket higher at these entries, and nowhere else in the sweep's range."""
    high = log_one_ulp_high_at(1.5, F32(5) / F32(3))
    assert t5_bucket(r, *setting) == reference_bucket(r, *setting) == ours
    assert reference_bucket(r, *setting, log=high) == pytorch == ours + 1
    others = [x for x in range(-1100, 1101) if x not in (-abs(r), abs(r))]
    assert t5_bucket(np.array(others), *setting).tolist() == [
        reference_bucket(x, *setting, log=high) for x in others
    ]


def test_t5_defaults_have_no_knife_edge_at_three_halves_or_five_thirds():
    high = log_one_ulp_high_at(1.5, F32(5) / F32(3))
    for bidirectional in (True, False):
        assert t5_bucket(np.arange(-300, 301), bidirectional).tolist() == [
            reference_bucket(r, bidirectional, log=high) for r in range(-300, 301)
        ]


def glibc_logf():
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("m")
    if name is None or "libm.so" not in name:
        pytest.skip("no glibc libm here")
    libm = ctypes.CDLL(name)
    libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    return lambda value: F32(libm.logf(float(value)))


@pytest.mark.parametrize(
    "setting",
    [s for s, *_ in PYTORCH_CPU_KNIFE_EDGES] + [(True, 32, 128), (False, 32, 128)],
)
def test_t5_with_glibcs_logf_gives_the_same_buckets(setting):
    """With the C library's logf (glibc's is not correctly rounded everywhere, but is at
    these knife edges) the reference's buckets are t5_bucket's."""
    logf = glibc_logf()
    r = range(-1100, 1101)
    assert t5_bucket(np.array(r), *setting).tolist() == [
        reference_bucket(x, *setting, log=logf) for x in r
    ]


def test_t5_defaults_equal_float64_version():
    """For T5's defaults float32 and float64 agree everywhere (the exact powers
    included)."""
    for r in range(-300, 301):
        assert t5_bucket(r) == float64_bucket(r)
        assert t5_bucket(r, False) == float64_bucket(r, False)


def test_t5_compute_bias_orientation():
    """T5Attention.compute_bias uses relative_position = memory_position -
    context_position."""
    length = 40
    query = np.arange(length)[:, None]
    key = np.arange(length)[None, :]
    table = t5_bucket(key - query)
    assert table.shape == (length, length)
    assert table[5, 2] == HAND_BIDIRECTIONAL_NEGATIVE[3]  # key three before the query
    assert table[2, 5] == HAND_BIDIRECTIONAL_POSITIVE[3]  # key three after
    assert np.all(np.diag(table) == 0)
    causal = t5_bucket(key - query, bidirectional=False)
    assert np.all(causal[np.triu_indices(length)] == 0)


# ----------------------------------------------------------------------- T5: properties


@PROPERTY
@given(half=st.integers(2, 64), extra=st.integers(1, 1000), bidirectional=st.booleans())
def test_t5_range_and_monotone_per_sign(half, extra, bidirectional):
    num_buckets = 2 * half
    per_sign = num_buckets // 2 if bidirectional else num_buckets
    max_exact = per_sign // 2
    max_distance = max_exact + extra
    distance = np.arange(0, 2 * max_distance + 3)
    behind = t5_bucket(-distance, bidirectional, num_buckets, max_distance)
    ahead = t5_bucket(distance, bidirectional, num_buckets, max_distance)
    for buckets in (behind, ahead):
        assert buckets.dtype == np.int64
        assert np.all((buckets >= 0) & (buckets < num_buckets))
        assert np.all(
            np.diff(buckets) >= 0
        )  # non-decreasing in the distance, for each sign
    assert np.all(behind < per_sign)
    assert np.array_equal(behind[:max_exact], distance[:max_exact])  # the exact buckets
    assert np.all(behind[max_distance:] == per_sign - 1)  # clipped from max_distance
    if bidirectional:
        assert np.all(ahead[1:] == behind[1:] + per_sign)
        assert ahead[0] == 0
    else:
        assert np.all(ahead == 0)


@PROPERTY
@given(
    st.lists(
        st.one_of(
            st.integers(-(10**30), 10**30),
            st.integers(-200, 200),
            st.sampled_from([2**63 - 1, -(2**63), 10**400]),
        ),
        max_size=16,
    ),
    st.booleans(),
    st.integers(2, 500),
    st.integers(1, 10**7),
)
def test_t5_one_more_step_away_never_lowers_the_bucket(
    rp, bidirectional, half_buckets, extra
):
    """Monotone per sign for any distance up to 10**400 (clipped to 2**62 inside)."""
    num_buckets = 2 * half_buckets if not bidirectional else 2 * max(half_buckets, 2)
    per_sign = num_buckets // 2 if bidirectional else num_buckets
    max_distance = per_sign // 2 + extra
    buckets = np.asarray(t5_bucket(rp, bidirectional, num_buckets, max_distance))
    far = np.asarray(
        t5_bucket(
            [int(np.sign(v) or -1) * (abs(v) + 1) for v in rp],
            bidirectional,
            num_buckets,
            max_distance,
        )
    )
    nonzero = np.array([v != 0 for v in rp], dtype=bool)
    assert np.all(far[nonzero] >= buckets[nonzero])


def test_t5_shapes_and_types():
    assert type(t5_bucket(5)) is int
    assert type(t5_bucket(np.int32(-5))) is int
    assert type(t5_bucket(np.array(7))) is int
    out = t5_bucket(np.arange(-6, 6).reshape(3, 4))
    assert out.shape == (3, 4) and out.dtype == np.int64
    assert t5_bucket([]).shape == (0,)
    assert t5_bucket([[-3, 3]]).tolist() == [[3, 19]]


def test_t5_accepts_whole_floats_and_huge_integers():
    assert t5_bucket(-16.0) == 10
    assert t5_bucket(np.array([-16.0, 16.0], dtype=np.float32)).tolist() == [10, 26]
    assert t5_bucket(1e300) == 31 and t5_bucket(-1e300) == 15
    assert t5_bucket(2**80) == 31 and t5_bucket(-(2**80), bidirectional=False) == 31
    assert t5_bucket([2**80, -3]).tolist() == [31, 3]
    assert t5_bucket(np.array([2**64 - 1], dtype=np.uint64)).tolist() == [31]
    assert t5_bucket(np.iinfo(np.int64).min, bidirectional=False) == 31
    extremes = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max])
    assert t5_bucket(extremes).tolist() == [15, 31]


def test_t5_smallest_parameters():
    # bidirectional, 4 buckets: 2 a sign, 1 exact (distance 0), 1 logarithmic
    assert t5_bucket(np.arange(-3, 4), num_buckets=4, max_distance=2).tolist() == [
        1,
        1,
        1,
        0,
        3,
        3,
        3,
    ]
    assert t5_bucket(
        np.arange(-3, 4), bidirectional=False, num_buckets=2, max_distance=2
    ).tolist() == [1, 1, 1, 0, 0, 0, 0]
    assert t5_bucket(5, bidirectional=np.bool_(True)) == 21
    assert t5_bucket(-9, num_buckets=np.int64(32), max_distance=np.int16(9)) == 15
    assert t5_bucket([-(10**6), -17, 17], max_distance=2**999).tolist() == [8, 8, 24]


# ------------------------------------------------------------------------- ALiBi slopes


def reference_get_slopes(n):
    """``get_slopes`` from the ALiBi authors' fairseq/models/transformer.py, as written
    there."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    else:
        closest_power_of_2 = 2 ** math.floor(math.log2(n))
        return (
            get_slopes_power_of_2(closest_power_of_2)
            + reference_get_slopes(2 * closest_power_of_2)[0::2][
                : n - closest_power_of_2
            ]
        )


@pytest.mark.parametrize("n", range(1, 129))
def test_alibi_slopes_equal_reference_to_the_last_bit(n):
    got = alibi_slopes(n)
    want = np.array(reference_get_slopes(n), dtype=np.float64)
    assert got.shape == (n,) and got.dtype == np.float64
    assert got.tobytes() == want.tobytes()


def test_alibi_slopes_known_values():
    assert alibi_slopes(8).tolist() == [
        1 / 2,
        1 / 4,
        1 / 8,
        1 / 16,
        1 / 32,
        1 / 64,
        1 / 128,
        1 / 256,
    ]
    assert alibi_slopes(1).tolist() == [1 / 256]
    assert alibi_slopes(2).tolist() == [1 / 16, 1 / 256]
    assert alibi_slopes(4).tolist() == [1 / 4, 1 / 16, 1 / 64, 1 / 256]
    # 3 heads: the 2-head slopes, then the first slope of the 4-head sequence
    assert alibi_slopes(3).tolist() == [1 / 16, 1 / 256, 1 / 4]
    # 12 heads: the 8-head slopes, then the 1st, 3rd, 5th, 7th of the 16-head sequence
    twelve = alibi_slopes(12)
    assert twelve[:8].tolist() == alibi_slopes(8).tolist()
    np.testing.assert_allclose(
        twelve[8:], 2.0 ** -np.array([0.5, 1.5, 2.5, 3.5]), rtol=1e-15
    )
    # start * start**i is not exactly 2**(-(i+1)/2): the last of 16 slopes is 1/256 +
    # 4e-18, as in the reference (checked bit for bit above)
    sixteen = alibi_slopes(16)
    np.testing.assert_allclose(sixteen, 2.0 ** (-np.arange(1, 17) / 2), rtol=4e-15)
    assert sixteen[-1] != 1 / 256


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16, 32, 64, 128, 256])
def test_alibi_slopes_geometric_for_powers_of_two(n):
    slopes = alibi_slopes(n)
    np.testing.assert_allclose(
        slopes, 2.0 ** (-8.0 * np.arange(1, n + 1) / n), rtol=1e-13
    )
    np.testing.assert_allclose(slopes[1:] / slopes[:-1], slopes[0], rtol=1e-13)
    assert slopes[-1] == pytest.approx(2.0**-8, rel=1e-13)


@pytest.mark.parametrize("n", [3, 5, 6, 7, 12, 20, 24, 40, 96, 100])
def test_alibi_slopes_interleave_for_other_counts(n):
    slopes = alibi_slopes(n)
    closest = 2 ** math.floor(math.log2(n))
    assert slopes[:closest].tolist() == alibi_slopes(closest).tolist()
    assert (
        slopes[closest:].tolist()
        == alibi_slopes(2 * closest)[0::2][: n - closest].tolist()
    )
    assert not np.all(np.diff(slopes) < 0)  # no longer sorted


@PROPERTY
@given(
    n=st.one_of(
        st.integers(1, 300), st.integers(1, 10_000), st.sampled_from([8192, 10_000])
    )
)
def test_alibi_slopes_positive_and_distinct(n):
    slopes = alibi_slopes(n)
    assert np.all(slopes > 0) and np.all(slopes < 1)
    assert np.all(slopes >= 2.0**-8 * (1 - 1e-12))
    assert len(set(slopes.tolist())) == n
    closest = 1 << (
        n.bit_length() - 1
    )  # the first 2**floor(log2 n) fall geometrically to 2**-8
    assert np.all(np.diff(slopes[:closest]) < 0)
    assert slopes[closest - 1] == pytest.approx(2.0**-8, rel=1e-12)


def test_alibi_slopes_accepts_numpy_integers():
    assert alibi_slopes(np.int64(12)).tolist() == alibi_slopes(12).tolist()


# --------------------------------------------------------------------------- ALiBi bias


def softmax_rows(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("n_heads, length", [(1, 1), (8, 5), (12, 7), (3, 16)])
def test_alibi_bias_equals_definition(n_heads, length):
    bias = alibi_bias(n_heads, length)
    slopes = alibi_slopes(n_heads)
    assert bias.shape == (n_heads, length, length) and bias.dtype == np.float64
    for h in range(n_heads):
        for i in range(length):
            for j in range(length):
                if j <= i:
                    assert bias[h, i, j] == -slopes[h] * (i - j)
                else:
                    assert bias[h, i, j] == -np.inf


def test_alibi_bias_diagonal_and_mask():
    bias = alibi_bias(4, 6)
    assert np.all(np.diagonal(bias, axis1=1, axis2=2) == 0)
    assert not np.any(np.signbit(np.diagonal(bias, axis1=1, axis2=2)))  # +0.0, not -0.0
    upper = np.triu(np.ones((6, 6), dtype=bool), 1)
    assert np.all(np.isneginf(bias[:, upper]))
    assert np.all(np.isfinite(bias[:, ~upper]))
    # last row, head h: -(5 m_h), -(4 m_h), ..., 0
    np.testing.assert_array_equal(
        bias[:, 5, :], -alibi_slopes(4)[:, None] * np.arange(5, -1, -1)
    )


def test_alibi_bias_empty_length():
    assert alibi_bias(3, 0).shape == (3, 0, 0)


@pytest.mark.parametrize("n_heads", [1, 8, 12])
def test_alibi_softmax_invariance(n_heads):
    """The reference adds slope * j (the same row for every query) plus the -inf future
    mask; that differs from -slope * (i - j) by slope * i, constant along each row, so
    the attention weights are the same."""
    length = 9
    rng = np.random.default_rng(12)
    logits = rng.normal(scale=3.0, size=(n_heads, length, length))
    slopes = alibi_slopes(n_heads)
    future_mask = np.triu(np.full((length, length), -np.inf), 1)
    reference = slopes[:, None, None] * np.arange(length)[None, None, :] + future_mask
    ours = softmax_rows(logits + alibi_bias(n_heads, length))
    theirs = softmax_rows(logits + reference)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    upper = np.triu(np.ones((length, length), dtype=bool), 1)
    assert np.all(ours[:, upper] == 0)  # masked keys get exactly no weight
    np.testing.assert_allclose(ours.sum(axis=-1), 1.0, rtol=1e-14)
