"""Hardening: every public name of posenc at the extremes, and every kind of bad input.

The contract: for any input, a public function either returns a result of the promised
shape and range with no NaN, no inf and no warning (pytest turns warnings into errors),
or raises a ``ValueError`` whose message starts with the name of the offending argument.
The extremes are dimensions up to 8192, bases from 1 + 1e-9 to 1 + 1e9 (and beyond where
a function allows it), positions up to 1e8, values up to 1e300 and empty inputs. The
mathematical identities live in each module's own test file; here only the contract is
checked, so a property is tested once.

``test_every_public_name_is_covered`` reads this file: every name in ``posenc.__all__``
must be reached through ``public("...")`` somewhere in it, and nothing else may be.
Examples are few and sizes bounded, so the file runs in a few seconds; the runs are
derandomised so that a failure reproduces.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import FLOAT_MAX, MINILM_FIX, smooth

import posenc

HARD = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
FEW = settings(HARD, max_examples=10)

MAX_D = 8192
FAR = 1e8  # the farthest position

dims = st.one_of(
    st.sampled_from([2, MAX_D]), st.integers(1, MAX_D // 2).map(lambda k: 2 * k)
)
small_dims = st.integers(1, 64).map(lambda k: 2 * k)
# log-uniform from 1 + 1e-9 (frequencies all but equal) to 1 + 1e9
bases = st.one_of(
    st.sampled_from([1 + 1e-9, 1e9, 10000.0]),
    st.floats(-9, 9).map(lambda e: 1 + 10.0**e),
)
# every base a float allows, from the next float above 1 to the largest
all_bases = st.one_of(
    bases,
    st.sampled_from([1 + 2**-52, 1e300, FLOAT_MAX]),
    st.floats(-15, 308).map(lambda e: 1 + 10.0**e),
)
layouts = st.sampled_from(["interleaved", "halves"])
reals = st.floats(-FAR, FAR, allow_nan=False, allow_infinity=False)
positions = st.one_of(
    st.just([]),
    st.lists(reals, max_size=16),
    st.lists(st.sampled_from([0.0, FAR, -FAR, 1.0]), min_size=1, max_size=4),
)
huge_reals = st.one_of(reals, st.sampled_from([0.0, 1e-300, 1e300, -1e300, FLOAT_MAX]))
xs = st.one_of(st.just([]), st.lists(huge_reals, max_size=16))
positive_xs = st.lists(
    st.one_of(
        st.floats(1e-300, 1e300),
        st.sampled_from([1e-300, 1e-3, 1.0, FAR, 1e300, FLOAT_MAX]),
    ),
    min_size=1,
    max_size=8,
)
exponents = st.one_of(
    st.sampled_from([1e-300, 1e-9, 1e-4, 0.5, 1.0, 2.0, 1e4, 1e17, 1e300]),
    st.floats(-300, 300).map(lambda e: 10.0**e),
)
magnitudes = st.sampled_from([1e-300, 1e-150, 1.0, 1e150, 1e300])


def raises_about(name: str):
    """A ValueError whose message starts with the argument's name."""
    return pytest.raises(ValueError, match=rf"^{re.escape(name)}(?!\w)")


def refused(error: ValueError, *names: str) -> bool:
    """Whether ``error``'s message starts with one of the argument names."""
    return any(re.match(rf"{re.escape(name)}(?!\w)", str(error)) for name in names)


def public(name: str):
    assert name in posenc.__all__, f"{name} is no longer public: update this file"
    return getattr(posenc, name)


def test_every_public_name_is_covered():
    """Every public name is reached through public("...") here, and only those."""
    called = set(re.findall(r'public\("(\w+)"\)', Path(__file__).read_text()))
    untested = sorted(set(posenc.__all__) - called)
    assert not untested, f"public names without hardening tests: {untested}"
    stale = sorted(called - set(posenc.__all__))
    assert not stale, f"names tested here that are no longer public: {stale}"


# ------------------------------------------------------------------------- attention.py

huge = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)


@HARD
@given(st.data(), st.integers(1, 3), st.sampled_from([-1, 0]))
def test_softmax_at_the_extremes(data, ndim, axis):
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    scores = data.draw(
        hnp.arrays(
            np.float64,
            shape,
            elements=st.one_of(
                huge, st.sampled_from([FLOAT_MAX, -FLOAT_MAX, 0.0, -np.inf])
            ),
        )
    )
    try:
        weights = public("softmax")(scores, axis=axis)
    except ValueError as error:  # a slice with every score masked
        assert refused(error, "scores") and np.any(np.all(scores == -np.inf, axis=axis))
    else:
        assert weights.shape == scores.shape and np.all(np.isfinite(weights))
        assert np.all((weights >= 0) & (weights <= 1))


def attention_inputs(magnitude: float):
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


@HARD
@given(st.one_of(attention_inputs(1e50), attention_inputs(1e300)), st.booleans())
def test_attention_at_the_extremes(inputs, causal):
    """Scores beyond the largest float: a finite answer or an error naming x."""
    x, w_q, w_k, w_v = inputs
    for function, args, shape in (
        (public("attention_weights"), (x, w_q, w_k), (len(x), len(x))),
        (public("self_attention"), (x, w_q, w_k, w_v), (len(x), 3)),
    ):
        try:
            result = function(*args, causal=causal)
        except ValueError as error:
            assert refused(error, "x"), str(error)
            assert max(np.abs(array).max() for array in inputs) > 1e50
        else:
            assert result.shape == shape and np.all(np.isfinite(result))


@HARD
@given(
    st.integers(1, 64), st.one_of(st.integers(0, 2**64), st.sampled_from([0, 2**63]))
)
def test_toy_model_at_the_extremes(d, seed):
    model = public("toy_model")(d=d, seed=seed)
    assert isinstance(model, public("ToyModel")) and model.d == d
    for array in (
        model.w_q,
        model.w_k,
        model.w_v,
        model.readout,
        *model.vocab.values(),
    ):
        assert np.all(np.isfinite(array))
    x = model.embed("A hit B")
    assert x.shape == (3, d) and np.isfinite(model.score(x))
    assert np.all(np.isfinite(model.attention(x, causal=True)))


# ---------------------------------------------------------------- finite_differences.py


@HARD
@given(st.floats(-1e15, 1e15, allow_nan=False), st.sampled_from([1e-5, 1e-3, 1.0]))
@example(1e12, 1e-5)
@example(1e8, 1e-5)
def test_differences_never_silently_lose_the_step(x0, h):
    """Far out, x + h rounds to x: an error about h, never a wrong derivative."""
    try:
        grad = public("gradient")(lambda v: 3.0 * v[0], [x0], h=h)
    except ValueError as error:
        assert refused(error, "h"), str(error)
        assert abs(np.spacing(x0)) > 0.005 * h
    else:
        assert np.isfinite(grad[0]) and abs(grad[0] - 3.0) <= 0.05 * 3.0
    try:
        hess = public("hessian_block")(lambda v: v[0] ** 2, [x0], [0], [0], h=h)
    except ValueError as error:
        assert refused(error, "h"), str(error)
    else:
        assert np.isfinite(hess[0, 0])


@HARD
@given(
    st.lists(
        st.one_of(st.floats(0, 1e300), st.sampled_from([0.0, 1e150, 1e300])),
        min_size=1,
        max_size=5,
    ),
    st.integers(1, 4),
)
def test_taylor_errors_at_the_extremes(epsilons, d):
    """A bounded function at any scale: finite errors, or an error naming epsilons."""
    rng = np.random.default_rng(d)
    p_m, p_n = rng.standard_normal((2, d))

    def f(u_m, u_n):
        return math.sin(u_m.sum()) * math.cos(u_n.sum())

    try:
        second, cross_errors, cross = public("taylor_errors")(f, p_m, p_n, epsilons)
    except ValueError as error:
        assert refused(error, "epsilons"), str(error)
    else:
        assert second.shape == cross_errors.shape == (len(epsilons),)
        assert np.all(np.isfinite(second)) and np.all(np.isfinite(cross_errors))
        assert math.isfinite(cross)


# -------------------------------------------------------------------------- encoding.py


@HARD
@given(dims, all_bases)
def test_frequencies_at_the_extremes(d, base):
    theta = public("frequencies")(d, base)
    assert theta.shape == (d // 2,) and np.all(np.isfinite(theta))
    assert theta[0] == 1.0 and np.all(theta > 0) and np.all(np.diff(theta) <= 0)


@HARD
@given(positions, dims, bases, layouts)
@example([FAR, -FAR], MAX_D, 1e9, "interleaved")
@example([], MAX_D, 1 + 1e-9, "halves")
def test_sinusoidal_at_the_extremes(t, d, base, layout):
    table = public("sinusoidal")(t, d, base, layout)
    assert table.shape == (len(t), d)
    assert np.all(np.isfinite(table)) and np.all(np.abs(table) <= 1)


@HARD
@given(
    st.one_of(reals, st.sampled_from([1e300, -1e300, FLOAT_MAX])),
    small_dims,
    all_bases,
    layouts,
)
def test_shift_matrix_at_the_extremes(k, d, base, layout):
    m = public("shift_matrix")(k, d, base, layout)
    assert m.shape == (d, d) and np.all(np.isfinite(m)) and np.all(np.abs(m) <= 1)


@HARD
@given(
    positions,
    st.lists(
        st.one_of(
            st.floats(-1e300, 1e300), st.sampled_from([0.0, 1e-300, 1e300, -FLOAT_MAX])
        ),
        min_size=1,
        max_size=16,
    ),
)
@example([FAR], [1e305])
def test_block_encoding_at_the_extremes(t, theta):
    """Angles t * theta beyond the largest float have no sine: refused, never NaN."""
    try:
        table = public("block_encoding")(t, theta)
    except ValueError as error:
        assert refused(error, "positions", "theta"), str(error)
    else:
        assert table.shape == (len(t), 2 * len(theta))
        assert np.all(np.isfinite(table)) and np.all(np.abs(table) <= 1)


@HARD
@given(st.integers(2, MAX_D // 2).map(lambda k: 2 * k), all_bases)
def test_tensor2tensor_frequencies_at_the_extremes(d, max_timescale):
    theta = public("tensor2tensor_frequencies")(d, max_timescale)
    assert theta.shape == (d // 2,) and np.all(np.isfinite(theta))
    assert theta[0] == 1.0 and np.all(theta >= 0) and np.all(np.diff(theta) <= 0)


# --------------------------------------------------------------------------- decay.py


@HARD
@given(xs, dims, bases)
@example([0.0, FAR, 1e300], MAX_D, 1 + 1e-9)
def test_decay_sum_at_the_extremes(x, d, base):
    s = public("decay_sum")(np.array(x, dtype=float), d, base)
    assert (
        s.shape == (len(x),)
        and np.all(np.isfinite(s))
        and np.all(np.abs(s) <= 1 + 1e-12)
    )


@HARD
@given(xs, all_bases)
@example([0.0, 1e-300, FAR, 1e11, 1e300], 1 + 1e-9)
@example([0.0, 2.0, FAR, 1e300], 1e9)
def test_decay_integral_and_cin_at_the_extremes(x, base):
    values = public("decay_integral")(np.array(x, dtype=float), base)
    assert values.shape == (len(x),) and np.all(np.isfinite(values))
    assert np.all(np.abs(values) <= 1 + 1e-12)
    z = np.abs(np.array(x, dtype=float))
    cin = public("cin")(z)
    assert cin.shape == z.shape and np.all(np.isfinite(cin)) and np.all(cin >= 0)


@HARD
@given(all_bases)
@example(1 + 2**-52)
@example(FLOAT_MAX)
def test_decay_first_zero_at_the_extremes(base):
    x0, certified, steps = public("decay_first_zero")(base, with_certificate=True)
    assert math.isfinite(x0) and 0 < certified < x0 and steps >= 1
    if base > 100:  # x0 is close to c0 b
        assert abs(x0 / base / public("ci_first_zero")() - 1) < 0.05


@HARD
@given(st.one_of(huge_reals, st.just(-1.0)), all_bases)
def test_decay_integral_slope_bound_at_the_extremes(x, base):
    bound = public("decay_integral_slope_bound")(x, base)
    assert math.isfinite(bound) and bound >= 0


@FEW
@given(positive_xs, all_bases)
@example([1e-300, 1e9, 1e12], 10000.0)
@example([5.0, 1e6], FLOAT_MAX)
def test_decay_integral_quad_at_the_extremes(x, base):
    """QUADPACK's answer, without a warning, or an error saying x (or base) is out of
    its range."""
    for point in x:
        try:
            value = public("decay_integral_quad")(point, base)
        except ValueError as error:
            assert refused(error, "x", "base"), str(error)
        else:
            assert math.isfinite(value) and abs(value) <= 1 + 1e-9


# ------------------------------------------------------------------------- schedules.py


@HARD
@given(xs, dims, st.one_of(exponents, all_bases.map(lambda b: -b)))
def test_schedule_and_power_sums_at_the_extremes(x, d, parameter):
    """A negative parameter stands for the paper's schedule b^-t, a positive one for
    t^alpha."""
    x = np.array(x, dtype=float)
    if parameter < 0:
        base = -parameter
        s = public("schedule_sum")(x, d, lambda t: base**-t)
    else:
        s = public("power_sum")(x, d, parameter)
    assert (
        s.shape == x.shape and np.all(np.isfinite(s)) and np.all(np.abs(s) <= 1 + 1e-12)
    )


@HARD
@given(xs, st.sampled_from([1e300, FLOAT_MAX]))
def test_schedule_sum_of_a_fast_schedule(x, top):
    """Frequencies near the largest float: x theta may overflow; refused, never NaN."""
    try:
        s = public("schedule_sum")(
            np.array(x, dtype=float), 8, lambda t: top * (1 - t / 2)
        )
    except ValueError as error:
        assert refused(error, "x", "schedule", "schedule(t)"), str(error)
    else:
        assert np.all(np.isfinite(s))


@HARD
@given(xs, st.sampled_from([0.5, 1.0, 2.0]))
@example([1e-300, 1e-200, 0.0, 1e200, 1e300, -FLOAT_MAX], 0.5)
def test_power_integral_closed_at_the_extremes(x, alpha):
    values = public("power_integral_closed")(np.array(x, dtype=float), alpha)
    assert values.shape == (len(x),) and np.all(np.isfinite(values))
    assert np.all(np.abs(values) <= 1 + 1e-12)


@FEW
@given(
    st.lists(huge_reals, max_size=6),
    exponents,
    st.one_of(st.integers(1, 2000), st.sampled_from([1, 400])),
)
@example([5.0], 1e-4, 400)
@example([5.0], 1e17, 400)
def test_power_integral_routes_at_the_extremes(x, alpha, nodes):
    """Any exponent: a finite value in [-1, 1], or an error naming alpha (or x)."""
    x = np.array(x, dtype=float)
    for function, args in (
        (public("power_integral_jacobi"), (x, alpha, nodes)),
        (public("power_integral"), (x, alpha)),
    ):
        try:
            values = function(*args)
        except ValueError as error:
            assert refused(error, "alpha", "x", "nodes"), str(error)
        else:
            assert values.shape == x.shape and np.all(np.isfinite(values))
            assert np.all(np.abs(values) <= 1 + 1e-9)


@FEW
@given(
    st.one_of(st.floats(1e-300, 1e12), st.sampled_from([1e-300, 1.0, 1e12])), exponents
)
@example(5.0, 1e4)
@example(5.0, 1e6)
def test_power_integral_quad_at_the_extremes(x, alpha):
    try:
        value = public("power_integral_quad")(x, alpha)
    except ValueError as error:
        assert refused(error, "x", "alpha"), str(error)
    else:
        assert math.isfinite(value) and abs(value) <= 1 + 1e-9


@FEW
@given(exponents)
@example(1e-6)
@example(1e300)
def test_first_trough_at_the_extremes(alpha):
    try:
        x, value = public("first_trough")(alpha)
    except ValueError as error:
        assert refused(error, "alpha"), str(error)
    else:
        assert 0.5 <= x <= 12 and -1 <= value <= 1
    assert 1.44 < public("critical_exponent")() < 1.45


# ------------------------------------------------------------------------- structure.py


def square_matrices(max_n: int = 12):
    return st.tuples(st.integers(1, max_n), magnitudes).flatmap(
        lambda nm: hnp.arrays(
            np.float64,
            (nm[0], nm[0]),
            elements=st.floats(-1, 1).map(lambda v, m=nm[1]: v * m),
        )
    )


@HARD
@given(square_matrices())
@example(np.array([[1e300, -1e300], [1e300, 1e300]]))
@example(np.array([[1e-300, 0.0], [0.0, -1e-300]]))
def test_structure_fits_at_the_extremes(matrix):
    n = len(matrix)
    means = public("diagonal_means")(matrix)
    assert means.shape == (n,) and np.all(np.isfinite(means))
    for fit in (public("toeplitz_fit")(matrix), public("toeplitz_hankel_fit")(matrix)):
        assert fit.shape == (n, n) and np.all(np.isfinite(fit))
        try:
            r2 = public("variance_explained")(matrix, fit)
        except ValueError as error:  # only a constant matrix has no variance to explain
            assert refused(error, "matrix") and np.all(matrix == matrix.flat[0]), str(
                error
            )
        else:
            assert -1e-9 <= r2 <= 1 + 1e-9


@HARD
@given(
    st.integers(1, 256), st.one_of(st.integers(0, 2**64), st.sampled_from([0, 2**63]))
)
def test_random_symmetric_at_the_extremes(d, seed):
    g = public("random_symmetric")(d, seed)
    assert g.shape == (d, d) and np.all(np.isfinite(g)) and np.array_equal(g, g.T)


# --------------------------------------------------------------------------- tables.py


def tables(max_rows: int = 16):
    return st.tuples(st.integers(1, max_rows), st.integers(1, 4), magnitudes).flatmap(
        lambda s: hnp.arrays(
            np.float64,
            (s[0], s[1]),
            elements=st.floats(-1, 1).map(lambda v, m=s[2]: v * m),
        )
    )


@HARD
@given(tables(), st.integers(0, 2**64))
@example(np.full((3, 2), 1e300), 0)
@example(np.array([[1e-300, 2e-300], [3e-300, -1e-300]]), 0)
def test_table_statistics_at_the_extremes(table, seed):
    """Entries from 1e-300 to 1e300: finite statistics, or an error naming the table."""
    n = len(table)
    for function, args, check in (
        (public("random_like"), (table, seed), lambda out: out.shape == table.shape),
        (
            public("cosine_matrix"),
            (table,),
            lambda out: out.shape == (n, n) and np.all(np.abs(out) <= 1 + 1e-12),
        ),
        (
            public("band_energy"),
            (table,),
            lambda out: out.shape == (n // 2 + 1, table.shape[1]) and np.all(out >= 0),
        ),
        (
            public("top_k_share"),
            (table, (1,)),
            lambda out: np.all((out >= 0) & (out <= 1 + 1e-12)),
        ),
    ):
        try:
            out = function(*args)
        except ValueError as error:
            assert refused(error, "table"), str(error)
        else:
            assert np.all(np.isfinite(out)) and check(out), function.__name__
    refs = public("reference_tables")(table, seed)
    assert all(
        array.shape == table.shape and np.all(np.isfinite(array))
        for array in refs.values()
    )


# --------------------------------------------------------------------------- rotary.py


@HARD
@given(
    st.data(),
    st.integers(0, 12),
    st.integers(1, MAX_D // 2).map(lambda k: 2 * k),
    bases,
    layouts,
)
def test_rope_at_the_extremes(data, n, d, base, layout):
    n = min(
        n, max(1, 8192 // d)
    )  # few rows when d is large: memory and time stay bounded
    x = data.draw(
        hnp.arrays(
            np.float64,
            (n, d),
            elements=st.one_of(
                st.floats(-1e150, 1e150, allow_nan=False),
                st.sampled_from([FLOAT_MAX, -FLOAT_MAX]),
            ),
        )
    )
    t = data.draw(st.lists(st.one_of(reals, st.just(FAR)), min_size=n, max_size=n))
    try:
        y = public("rope")(x, t, base, layout)
    except ValueError as error:  # a pair whose norm is beyond the largest float
        assert refused(error, "x") and np.any(np.abs(x) == FLOAT_MAX), str(error)
    else:
        assert y.shape == x.shape and np.all(np.isfinite(y))


@HARD
@given(xs, dims, bases)
def test_rope_partial_sums_and_bound_at_the_extremes(x, d, base):
    x = np.array(x, dtype=float)
    sums = public("rope_partial_sums")(x, d, base)
    assert sums.shape == (*x.shape, d // 2) and np.all(np.isfinite(sums))
    assert np.all(np.abs(sums) <= np.arange(1, d // 2 + 1) * (1 + 1e-12))
    bound = public("rope_bound")(x, d, base)
    assert bound.shape == x.shape and np.all(
        (bound >= 0) & (bound <= (d // 2 + 1) / 2 + 1e-9)
    )


@HARD
@given(positive_xs, all_bases, st.integers(1, 50))
@example([3.0, 1e-300], 1 + 2**-52, 10)
@example([1e-300, 1e300], 1e300, 1)
def test_rope_continuum_at_the_extremes(x, base, points):
    u = np.linspace(0, 1, 5)
    integral = public("rope_partial_integral")(x, u, base)
    assert integral.shape == (len(x), 5) and np.all(np.isfinite(integral))
    assert np.all(np.abs(integral) <= u * (1 + 1e-9) + 1e-12)  # |int_0^u e^{i...}| <= u
    bound = public("rope_bound_continuum")(x, 64, base, points)
    assert bound.shape == (len(x),) and np.all(np.isfinite(bound))
    assert np.all((bound >= 0) & (bound <= 64 / 4 + 1e-9))  # (d/2) int_0^1 u du


# --------------------------------------------------------------------- extrapolation.py


@FEW
@given(st.one_of(st.integers(0, 300), st.sampled_from([0, 1, 10**5])), dims, all_bases)
def test_cos_sums_at_the_extremes(length, d, base):
    length = min(length, 2 * 10**7 // d)  # memory stays bounded
    sums = public("cos_sums")(length, d, base)
    assert sums.shape == (length,) and np.all(np.isfinite(sums))
    assert np.all(np.abs(sums) <= d / 2 * (1 + 1e-12))


@HARD
@given(
    all_bases,
    st.one_of(st.floats(1.0, 1e300), st.sampled_from([1.0, 1e300, FLOAT_MAX])),
    st.integers(2, MAX_D // 2).map(lambda k: 2 * k),
)
@example(1e4, 1e300, 4)
@example(1e9, 1e150, 4)
def test_ntk_base_at_the_extremes(base, scale, d):
    """A base beyond the largest float is refused naming scale (or base), never inf."""
    try:
        new = public("ntk_base")(base, scale, d)
    except ValueError as error:
        assert refused(error, "scale", "base"), str(error)
    else:
        assert math.isfinite(new) and new >= base


# -------------------------------------------------------------------------- relative.py


@HARD
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
def test_t5_bucket_at_the_extremes(rp, bidirectional, half_buckets, extra):
    num_buckets = 2 * half_buckets if not bidirectional else 2 * max(half_buckets, 2)
    per_sign = num_buckets // 2 if bidirectional else num_buckets
    buckets = np.asarray(
        public("t5_bucket")(
            rp,
            bidirectional=bidirectional,
            num_buckets=num_buckets,
            max_distance=per_sign // 2 + extra,
        )
    )
    assert buckets.shape == (len(rp),) and buckets.dtype == np.int64
    assert np.all((0 <= buckets) & (buckets < num_buckets))


@HARD
@given(
    st.one_of(st.integers(1, 10_000), st.sampled_from([1, 2, 3, 8192, 10_000])),
    st.one_of(st.sampled_from([0, 1]), st.integers(0, 48)),
)
def test_alibi_at_the_extremes(n_heads, length):
    slopes = public("alibi_slopes")(n_heads)
    assert slopes.shape == (n_heads,) and slopes.dtype == np.float64
    assert np.all(np.isfinite(slopes)) and np.all((slopes > 0) & (slopes < 1))
    heads = min(n_heads, 16)
    bias = public("alibi_bias")(heads, length)
    assert bias.shape == (heads, length, length)
    below = np.tril(np.ones((length, length), dtype=bool))
    assert np.all(np.isfinite(bias[:, below])) and np.all(bias[:, ~below] == -np.inf)


# ------------------------------------------------------------------------ pretrained.py


@HARD
@given(
    st.one_of(
        st.binary(max_size=64),
        st.binary(max_size=48).map(lambda body: len(body).to_bytes(8, "little") + body),
        st.sampled_from(
            [
                b"[" * 5000,
                b'{"a": ' * 5000,
                b"1e999",
                b'{"a": {"dtype": "F32", "shape": [1e400], "data_offsets": [0, 4]}}',
                b'{"__metadata__": []}',
                b'{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'
                + b"\0" * 4,
                b'{"a": {"dtype": "F32", "shape": [99999999999999999999], '
                b'"data_offsets": [0, 4]}}',
            ]
        ).map(lambda body: len(body).to_bytes(8, "little") + body),
    )
)
@example(b"")
def test_damaged_files_raise_value_error_naming_the_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("junk") / "junk.safetensors"
    path.write_bytes(data)
    try:
        tensors = public("load_safetensors")(path)
    except ValueError as error:
        assert str(path) in str(error)
    else:
        assert isinstance(tensors, dict)
    # not the pinned model, whatever it holds
    for function in (public("minilm_embeddings"), public("minilm_tensors")):
        with pytest.raises(public("ChecksumError")) as info:
            function(path)
        assert str(path) in str(info.value) and MINILM_FIX in str(info.value)
    assert public("sha256_file")(path) == hashlib.sha256(data).hexdigest()


def test_the_model_file_and_its_types():
    path = public("minilm_path")()
    assert path.is_file() and path.name == "model.safetensors"
    assert issubclass(public("ChecksumError"), ValueError)
    fields = {field.name for field in dataclasses.fields(public("Embeddings"))}
    assert fields == {"word", "position", "token_type", "path", "sha256"}


# =========================================================================== bad input


def short(value) -> str:
    """A short, stable name for a test id (no memory addresses)."""
    if callable(value):
        return getattr(value, "__name__", type(value).__name__)
    if isinstance(value, np.ndarray) and value.size > 4:
        return f"array{value.shape}"
    if isinstance(value, Path):
        return value.name
    text = re.sub(r"\s+", " ", repr(value))
    return text if len(text) <= 30 else text[:27] + "..."


def bad(function, argument, *args, pattern=None, **kwargs):
    """One bad call: ``function(*args, **kwargs)`` must raise a ValueError whose message
    starts with ``argument`` (and matches ``pattern``, when given)."""
    shown = ", ".join(
        [*map(short, args), *(f"{k}={short(v)}" for k, v in kwargs.items())]
    )
    return pytest.param(
        function,
        args,
        kwargs,
        argument,
        pattern,
        id=f"{function.__name__}({shown})->{argument}",
    )


BAD_D = [3, 7, 0, -2, -4, 4.0, True, False, "4", None, np.float64(4.0), 4 + 0j]
BAD_BASE = [
    1,
    1.0,
    0.5,
    0,
    -3,
    math.inf,
    -math.inf,
    math.nan,
    True,
    "100",
    None,
    100 + 0j,
    10**400,
]
BAD_LAYOUT = ["foo", "Interleaved", "interleave", "Halves", "", None, 0, "rotate_half"]
BAD_POSITIONS = [
    3.5,
    np.float64(3.0),
    -1,
    True,
    np.array([[0.0, 1.0], [2.0, 3.0]]),
    [[0, 1]],
    np.array(3.0),
    [0.0, math.nan],
    [0.0, math.inf],
    [-math.inf],
    np.array([1 + 2j, 3 + 0j]),
    [1 + 0j],
    np.array([True, False]),
    [True, False],
    "abc",
    ["a", "b"],
    [10**400],
]
BAD_SHIFT = [math.nan, math.inf, -math.inf, "1", None, True, 1 + 0j, [1.0], 10**400]
BAD_X = [
    math.nan,
    [math.nan],
    [1.0, math.inf],
    "3",
    ["a"],
    [True],
    [1j],
    True,
    math.inf,
]
BAD_ALPHA = [0, -1.0, math.nan, math.inf, "1", True, None]
BAD_COUNT = [-1, 2.0, True, "4", None]
BAD_MATRIX = [
    np.ones(3),
    np.ones((2, 3)),
    np.zeros((0, 0)),
    [[math.nan]],
    [["a"]],
    [[True]],
]
BAD_TABLE = [np.ones(3), np.ones((2, 2, 2)), np.zeros((0, 3)), [[math.inf]], [["a"]]]


def product(u_m, u_n):
    return float(u_m @ u_n)


X3 = np.array([0.3, -0.7, 1.1])
RNG = np.random.default_rng(0)
X34, W44 = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 4))
NAN_X34 = X34.copy()
NAN_X34[1, 2] = np.nan

BAD_INPUT = [
    # ------------------------------------------------------------------ attention.py
    bad(public("softmax"), "scores", [np.nan, 1.0], pattern="finite or -inf"),
    bad(public("softmax"), "scores", [math.inf, 1.0]),
    bad(
        public("softmax"),
        "scores",
        [-math.inf, -math.inf],
        pattern="at least one finite",
    ),
    bad(public("softmax"), "scores", 3.0, pattern="at least one dimension"),
    bad(public("softmax"), "scores", []),
    bad(public("softmax"), "scores", ["a", "b"]),
    bad(public("softmax"), "scores", [True]),
    bad(public("softmax"), "axis", [1.0, 2.0], axis=1),
    bad(public("softmax"), "axis", [1.0, 2.0], axis=0.5),
    bad(public("attention_weights"), "x", NAN_X34, W44, W44),
    bad(public("attention_weights"), "x", X34[0], W44, W44),
    bad(public("attention_weights"), "x", np.zeros((0, 4)), W44, W44),
    bad(
        public("attention_weights"),
        "x",
        np.full((2, 4), 1e160),
        W44,
        W44,
        pattern="overflow",
    ),  # overflow of the scores is named, not passed on to softmax
    bad(public("attention_weights"), "w_q", X34, W44[:3], W44),
    bad(public("attention_weights"), "w_q and w_k", X34, W44, W44[:, :2]),
    bad(public("attention_weights"), "w_k", X34, W44, np.full((4, 4), np.inf)),
    bad(public("attention_weights"), "causal", X34, W44, W44, causal="yes"),
    bad(public("attention_weights"), "causal", X34, W44, W44, causal=1),
    bad(public("self_attention"), "w_v", X34, W44, W44, W44[:2]),
    bad(public("self_attention"), "w_v", X34, W44, W44, [[True] * 4] * 4),
    bad(
        public("self_attention"),
        "x",
        np.full((2, 4), 1e300),
        W44 * 1e-300,
        W44 * 1e-300,
        W44 * 1e10,
    ),
    *[
        bad(public("toy_model"), name, **kwargs)
        for kwargs, name in (
            ({"d": 0}, "d"),
            ({"d": 2.0}, "d"),
            ({"d": 2.5}, "d"),
            ({"seed": -1}, "seed"),
            ({"words": ("a", "a")}, "words"),
            ({"words": "a b"}, "words"),
            ({"words": ()}, "words"),
            ({"words": (1, 2)}, "words"),
        )
    ],
    bad(posenc.toy_model().embed, "words", "A kissed B"),
    bad(posenc.toy_model().embed, "words", []),
    # ------------------------------------------------------------ finite_differences.py
    bad(public("gradient"), "f", "sin", X3),
    bad(public("gradient"), "f", 3.0, [1.0]),
    bad(public("gradient"), "f", lambda y: math.inf, [1.0]),
    bad(public("gradient"), "f", lambda y: y, X3, pattern="a real scalar"),
    bad(public("gradient"), "f", lambda y: np.inf if y[0] < 0.3 else 0.0, X3),
    bad(public("gradient"), "f", lambda y: math.nan, [1.0]),
    bad(public("gradient"), "x", smooth, [0.3, np.nan, 1.0]),
    bad(public("gradient"), "x", smooth, [[0.3, 0.1, 1.0]]),
    bad(public("gradient"), "x", smooth, []),
    bad(public("gradient"), "x", smooth, ["a", "b"]),
    bad(public("gradient"), "x", smooth, [math.inf]),
    *[
        bad(public("gradient"), "h", smooth, X3, h=h)
        for h in (0.0, -1e-3, np.inf, "small")
    ],
    bad(public("gradient"), "h", lambda v: 0.0, [1e12], pattern="too small for x"),
    bad(public("hessian_block"), "rows", smooth, X3, [3], [0]),
    bad(public("hessian_block"), "rows", smooth, X3, 0, [0]),
    bad(public("hessian_block"), "cols", smooth, X3, [0], [0.5]),
    bad(public("hessian_block"), "cols", smooth, X3, [0], [True]),
    bad(public("hessian_block"), "h", smooth, X3, [0], [0], h=0),
    bad(public("taylor_errors"), "f", 3.0, [1.0], [1.0], [0.1]),
    bad(
        public("taylor_errors"),
        "f",
        lambda a, b: math.nan if abs(a[0]) > 0.01 else 0.0,
        [1.0],
        [1.0],
        [0.1],
    ),  # NaN only at eps p_m, where the expansion is compared
    bad(public("taylor_errors"), "p_m", product, [[1.0]], [1.0], [0.1]),
    bad(public("taylor_errors"), "p_m", product, [], [], [0.1]),
    bad(public("taylor_errors"), "p_n", product, [1.0], [1.0, 2.0], [0.1]),
    bad(public("taylor_errors"), "p_n", product, [1.0], [math.nan], [0.1]),
    bad(public("taylor_errors"), "epsilons", product, [1.0], [1.0], []),
    bad(public("taylor_errors"), "epsilons", product, [1.0], [1.0], [math.inf]),
    bad(
        public("taylor_errors"),
        "h_gradient",
        product,
        [1.0],
        [1.0],
        [0.1],
        h_gradient=0.0,
    ),
    bad(
        public("taylor_errors"),
        "h_hessian",
        product,
        [1.0],
        [1.0],
        [0.1],
        h_hessian=-1.0,
    ),
    # ------------------------------------------------------------------ encoding.py
    *[bad(public("frequencies"), "d", d) for d in BAD_D],
    *[bad(public("sinusoidal"), "d", 3, d) for d in BAD_D],
    *[bad(public("shift_matrix"), "d", 1, d) for d in BAD_D],
    *[bad(public("layout_permutation"), "d", d) for d in BAD_D],
    *[bad(public("frequencies"), "base", 4, base) for base in BAD_BASE],
    *[bad(public("sinusoidal"), "base", 3, 4, base=base) for base in BAD_BASE],
    *[bad(public("shift_matrix"), "base", 1, 4, base=base) for base in BAD_BASE],
    *[
        bad(public("sinusoidal"), "layout", 3, 4, layout=layout)
        for layout in BAD_LAYOUT
    ],
    *[
        bad(public("shift_matrix"), "layout", 1, 4, layout=layout)
        for layout in BAD_LAYOUT
    ],
    *[
        bad(public("sinusoidal"), "positions", positions, 4)
        for positions in BAD_POSITIONS
    ],
    *[bad(public("shift_matrix"), "k", k, 4) for k in BAD_SHIFT],
    bad(
        public("sinusoidal"),
        "d",
        3,
        3,
        pattern="must be a positive even integer, got 3",
    ),
    bad(public("frequencies"), "base", 4, 0.5, pattern=r"must be .*> 1, got 0\.5"),
    bad(
        public("sinusoidal"),
        "layout",
        3,
        4,
        layout="foo",
        pattern=r"must be one of .*'foo'",
    ),
    bad(
        public("sinusoidal"),
        "positions",
        [0.0, math.nan],
        4,
        pattern="must be finite, got nan",
    ),
    *[
        bad(public("block_encoding"), "positions", positions, [1.0])
        for positions in BAD_POSITIONS
    ],
    *[
        bad(public("block_encoding"), "theta", 3, theta)
        for theta in ([], [[1.0]], 1.0, [math.nan], ["a"], [True])
    ],
    *[bad(public("tensor2tensor_frequencies"), "d", d) for d in [*BAD_D, 2]],
    *[
        bad(public("tensor2tensor_frequencies"), "max_timescale", 8, base)
        for base in BAD_BASE
    ],
    # ------------------------------------------------------------------ decay.py
    *[bad(public("decay_integral"), "x", x) for x in (*BAD_X, 10**400)],
    *[bad(public("decay_sum"), "x", x, 8) for x in BAD_X],
    *[bad(public("decay_integral"), "base", 1.0, base) for base in BAD_BASE],
    *[bad(public("decay_sum"), "base", 1.0, 8, base) for base in BAD_BASE],
    *[bad(public("decay_sum"), "d", 1.0, d) for d in BAD_D],
    *[
        bad(public("cin"), "z", z)
        for z in (-1.0, [0.0, -1e-300], math.nan, [math.inf], "a", True)
    ],
    bad(public("cin"), "z", -2.0, pattern=">= 0, got -2"),
    *[bad(public("decay_first_zero"), "base", base) for base in BAD_BASE],
    *[
        bad(public("decay_first_zero"), "with_certificate", 10.0, with_certificate=flag)
        for flag in ("yes", 1, None)
    ],
    *[
        bad(public("decay_integral_slope_bound"), "x", x, 10.0)
        for x in (math.nan, math.inf, "a", "3", True, None, [1.0])
    ],
    *[
        bad(public("decay_integral_slope_bound"), "base", 1.0, base)
        for base in BAD_BASE
    ],
    *[
        bad(public("decay_integral_quad"), "x", x)
        for x in (0.0, -1.0, math.nan, math.inf, [1.0], "1", True)
    ],
    *[bad(public("decay_integral_quad"), "base", 1.0, base) for base in BAD_BASE],
    # ------------------------------------------------------------------ schedules.py
    *[bad(public("schedule_sum"), "x", x, 8, lambda t: t) for x in BAD_X],
    *[bad(public("schedule_sum"), "d", 1.0, d, lambda t: t) for d in BAD_D],
    bad(public("schedule_sum"), "schedule", 1.0, 8, 3.0),
    bad(
        public("schedule_sum"), "schedule(t)", 1.0, 8, lambda t: np.full_like(t, np.nan)
    ),
    bad(public("schedule_sum"), "schedule(t)", 1.0, 8, lambda t: [str(v) for v in t]),
    *[
        bad(public("schedule_sum"), "schedule(t)", x, 8, schedule)
        for x in (1.0, [1.0, 2.0, 3.0])
        for schedule in (lambda t: 1.0, lambda t: t[:2], lambda t: np.outer(t, t))
    ],
    *[bad(public("power_sum"), "alpha", 1.0, 8, alpha) for alpha in BAD_ALPHA],
    *[bad(public("power_sum"), "d", 1.0, d, 1.0) for d in BAD_D],
    *[
        bad(public("power_integral_closed"), "alpha", 1.0, alpha)
        for alpha in (*BAD_ALPHA, 1.5, 3.0)
    ],
    *[bad(public("power_integral_closed"), "x", x, 1.0) for x in BAD_X],
    *[bad(public("power_integral_jacobi"), "alpha", 1.0, alpha) for alpha in BAD_ALPHA],
    *[bad(public("power_integral_jacobi"), "x", x, 1.3) for x in BAD_X],
    *[
        bad(public("power_integral_jacobi"), "nodes", 1.0, 1.3, nodes=nodes)
        for nodes in (0, -1, 2.5, "a", True, None)
    ],
    *[bad(public("power_integral"), "alpha", 1.0, alpha) for alpha in BAD_ALPHA],
    *[bad(public("power_integral"), "x", x, 1.3) for x in BAD_X],
    *[
        bad(public("power_integral_quad"), "x", x, 1.3)
        for x in (0.0, -1.0, math.nan, [1.0], "1", True)
    ],
    *[bad(public("power_integral_quad"), "alpha", 1.0, alpha) for alpha in BAD_ALPHA],
    *[bad(public("first_trough"), "alpha", alpha) for alpha in BAD_ALPHA],
    # ------------------------------------------------------------------ structure.py
    *[
        bad(function, "matrix", matrix)
        for function in (
            public("diagonal_means"),
            public("toeplitz_fit"),
            public("toeplitz_hankel_fit"),
        )
        for matrix in BAD_MATRIX
    ],
    *[
        bad(public("variance_explained"), "matrix", matrix, np.zeros((2, 2)))
        for matrix in (*BAD_MATRIX, np.ones((2, 2)))
    ],  # a constant matrix has no variance
    *[
        bad(public("variance_explained"), "fit", np.eye(2), fit)
        for fit in (np.eye(3), [[math.nan, 0], [0, 1]], [["a"]], np.eye(2)[0])
    ],
    *[bad(public("random_symmetric"), "d", d) for d in (0, -1, 2.0, True, "4", None)],
    *[
        bad(public("random_symmetric"), "seed", 4, seed)
        for seed in (-1, 1.5, True, None)
    ],
    # ------------------------------------------------------------------ tables.py
    *[
        bad(function, "table", table)
        for function in (
            public("random_like"),
            public("reference_tables"),
            public("cosine_matrix"),
            public("band_energy"),
            public("top_k_share"),
        )
        for table in BAD_TABLE
    ],
    bad(
        public("cosine_matrix"),
        "table",
        [[1.0, 0.0], [0.0, 0.0]],
        pattern="no zero row",
    ),
    *[
        bad(function, "seed", np.eye(2), seed)
        for function in (public("random_like"), public("reference_tables"))
        for seed in (-1, 1.5, True, None)
    ],
    *[
        bad(public("top_k_share"), "ks", np.eye(8), ks)
        for ks in ([0], [1.5], [True], [6], 3, None, "1")
    ],
    # ------------------------------------------------------------------ rotary.py
    *[
        bad(public("rope"), "x", x, 1, pattern=pattern)
        for x, pattern in (
            (
                np.ones((3, 5)),
                r"^x must have a last axis of positive even length d .* d = 5",
            ),
            (np.ones((3, 0)), r"^x must have a last axis of positive even length d"),
            (
                np.ones(4),
                r"^x must have at least 2 axes, \(\.\.\., n, d\).* shape \(4,\)",
            ),
            (np.float64(1.0), r"^x must have at least 2 axes"),
            (np.array([[1.0, np.nan]]), r"^x must be finite, got nan"),
            (np.array([[np.inf, 1.0]]), r"^x must be finite, got inf"),
            (
                np.ones((1, 2), dtype=complex),
                r"^x must hold real numbers, got dtype complex128",
            ),
            (np.ones((1, 2), dtype=bool), r"^x must hold real numbers, got dtype bool"),
            ([["a", "b"]], r"^x must hold real numbers"),
            ([[1.0, 2.0], [3.0]], r"^x must be an array of real numbers"),
        )
    ],
    bad(
        public("rope"),
        "x",
        np.array([[FLOAT_MAX, FLOAT_MAX]]),
        [1.0],
        pattern="too large to rotate",
    ),
    *[
        bad(public("rope"), "positions", np.ones((2, 3, 4)), positions, pattern=pattern)
        for positions, pattern in (
            (
                4,
                r"^positions given as a count must equal the 3 positions of x .* got 4",
            ),
            (
                [0, 1],
                r"^positions must give one position for each of the 3 rows of x .* 2",
            ),
            (
                np.arange(4.0),
                r"^positions must give one position for each of the 3 rows",
            ),
            ([0.0, np.nan, 2.0], r"^positions must be finite, got nan"),
            ([0.0, 1.0, -np.inf], r"^positions must be finite, got -inf"),
            ([[0, 1, 2]], r"^positions must be a 1-D array"),
            (-3, r"^positions given as a count must be non-negative"),
            (3.0, r"^positions given as a single number is a count"),
            (True, r"^positions must be a non-negative integer count"),
            (["a", "b", "c"], r"^positions must hold real numbers"),
        )
    ],
    *[
        bad(
            public("rope"),
            "base",
            np.ones((3, 4)),
            3,
            base=base,
            pattern=r"^base must be a finite real number > 1",
        )
        for base in BAD_BASE[:12]
    ],
    *[
        bad(
            public("rope"),
            "layout",
            np.ones((3, 4)),
            3,
            layout=layout,
            pattern=r"^layout must be one of \('interleaved', 'halves'\)",
        )
        for layout in BAD_LAYOUT
    ],
    *[
        bad(function, "x", x, 8)
        for function in (public("rope_partial_sums"), public("rope_bound"))
        for x in BAD_X
    ],
    *[
        bad(function, "d", 1.0, d)
        for function in (public("rope_partial_sums"), public("rope_bound"))
        for d in BAD_D
    ],
    *[bad(public("rope_partial_sums"), "base", 1.0, 8, base) for base in BAD_BASE],
    *[
        bad(public("rope_partial_integral"), "x", x, 0.5)
        for x in (0.0, [1.0, -1.0], *BAD_X)
    ],
    *[
        bad(public("rope_partial_integral"), "u", 1.0, u)
        for u in (-0.1, [0.5, 1.5], math.nan, "a", True, [[0.5, 0.5]])
    ],
    *[
        bad(public("rope_partial_integral"), "base", 1.0, 0.5, base)
        for base in BAD_BASE
    ],
    *[bad(public("rope_bound_continuum"), "x", x, 8) for x in (0.0, -1.0, *BAD_X)],
    *[
        bad(public("rope_bound_continuum"), "points", 1.0, 8, points=points)
        for points in (0, -1, 2.5, True)
    ],
    *[bad(public("rope_bound_continuum"), "d", 1.0, d) for d in BAD_D],
    # ----------------------------------------------------------------- extrapolation.py
    *[bad(public("cos_sums"), "length", length, 8) for length in BAD_COUNT],
    *[bad(public("cos_sums"), "d", 10, d) for d in BAD_D],
    *[bad(public("cos_sums"), "base", 10, 8, base) for base in BAD_BASE],
    *[bad(public("ntk_base"), "base", base, 2.0, 8) for base in BAD_BASE],
    *[
        bad(public("ntk_base"), "scale", 1e4, scale, 8)
        for scale in (0.0, -2.0, math.nan, math.inf, "2", True)
    ],
    *[bad(public("ntk_base"), "d", 1e4, 2.0, d) for d in [*BAD_D, 2]],
    # ------------------------------------------------------------------ relative.py
    *[
        bad(
            public("t5_bucket"),
            "relative_position",
            relative_position,
            pattern="^relative_position must",
        )
        for relative_position in (
            2.5,
            [1, 2.5],
            math.nan,
            [1.0, math.inf],
            -math.inf,
            True,
            [True, False],
            np.array([1, 0], dtype=bool),
            "3",
            ["a"],
            1 + 2j,
            np.array([1j]),
            None,
            [1, None],
            [[1, 2], [3]],
            [1.5, 2**80],
        )
    ],
    *[
        bad(public("t5_bucket"), kwargs_name, 3, pattern=pattern, **kwargs)
        for kwargs, kwargs_name, pattern in (
            (
                {"num_buckets": 0},
                "num_buckets",
                r"^num_buckets must be an even integer >= 4",
            ),
            (
                {"num_buckets": 2},
                "num_buckets",
                r"^num_buckets must be an even integer >= 4 in bidirectional mode,"
                r" got 2",
            ),
            ({"num_buckets": 31}, "num_buckets", r"^num_buckets must .* got 31"),
            ({"num_buckets": -4}, "num_buckets", None),
            (
                {"num_buckets": 32.0},
                "num_buckets",
                r"^num_buckets must .* of type float",
            ),
            ({"num_buckets": True}, "num_buckets", None),
            (
                {"num_buckets": 0, "bidirectional": False},
                "num_buckets",
                r"^num_buckets must be an even integer >= 2",
            ),
            ({"num_buckets": 3, "bidirectional": False}, "num_buckets", None),
            ({"num_buckets": 7}, "num_buckets", None),
            (
                {"max_distance": 8},
                "max_distance",
                r"^max_distance must be an integer greater than the 8 exact buckets",
            ),
            ({"max_distance": 0}, "max_distance", None),
            (
                {"max_distance": 16, "bidirectional": False},
                "max_distance",
                r"^max_distance must .* 16 exact buckets",
            ),
            (
                {"max_distance": 128.0},
                "max_distance",
                r"^max_distance must .* of type float",
            ),
            ({"max_distance": None}, "max_distance", None),
            (
                {"max_distance": 10**400},
                "max_distance",
                r"^max_distance must be an integer below 2\*\*1000",
            ),
            (
                {"bidirectional": 1},
                "bidirectional",
                r"^bidirectional must be a bool, got 1",
            ),
            (
                {"bidirectional": "yes"},
                "bidirectional",
                r"^bidirectional must be a bool",
            ),
            (
                {"bidirectional": None},
                "bidirectional",
                r"^bidirectional must be a bool",
            ),
        )
    ],
    *[
        bad(
            public("alibi_slopes"),
            "n_heads",
            n_heads,
            pattern=r"^n_heads must be an integer >= 1",
        )
        for n_heads in (0, -1, 2.0, 8.5, True, False, "8", None, [8])
    ],
    *[
        bad(public("alibi_bias"), "n_heads", n_heads, 4)
        for n_heads in (0, -1, 1.5, True, False)
    ],
    *[
        bad(
            public("alibi_bias"),
            "length",
            2,
            length,
            pattern=r"^length must be an integer >= 0",
        )
        for length in (-1, 2.0, True, "4", None)
    ],
    # ------------------------------------------------------------------ pretrained.py
    *[
        bad(
            public("load_safetensors"), "sha256", public("minilm_path")(), sha256=digest
        )
        for digest in (123, b"00", "not a digest", "0" * 63)
    ],
    # ---------------------------------------------------------------- long_context.py
    bad(public("rope_score_moments"), "x", [math.nan], 8),
    bad(public("rope_score_moments"), "d", [1.0], 3),
    bad(public("rope_score_moments"), "correlation", [1.0], 8, correlation=1.5),
    bad(public("rope_score_moments"), "base", [1.0], 8, base=1.0),
    bad(public("p_rope_frequencies"), "p", 8, p=1.5),
    bad(public("p_rope_frequencies"), "d", 5),
    bad(public("score_from_coefficients"), "h", np.ones(3), [0, 1], 8),
    *[
        bad(function, "h", h, *rest)
        for function, rest in (
            (public("score_from_coefficients"), ([0, 1], 8)),
            (public("interpolation_bound"), (1.0, 8)),
        )
        for h in (["a"] * 4, [None] * 4, [1.0, 2.0, math.inf, 3.0])
    ],
    bad(public("score_from_coefficients"), "positions", np.ones(4) + 0j, [math.nan], 8),
    bad(public("fit_score_coefficients"), "target", [1.0, 2.0], [0, 1, 2], 8),
    bad(public("fit_score_coefficients"), "ridge", [1.0, 2.0], [0, 1], 8, ridge=0),
    bad(public("interpolation_bound"), "gap", np.ones(4) + 0j, -1.0, 8),
    bad(public("interpolation_bound"), "h", np.ones(3), 1.0, 8),
    bad(public("yarn_ramp"), "length", 8, 1e4, 0),
    bad(public("yarn_ramp"), "alpha", 8, 1e4, 4096, alpha=-1.0),
    bad(public("yarn_ramp"), "beta", 8, 1e4, 4096, alpha=40.0),
    bad(public("yarn_ramp"), "ramp", 8, 1e4, 4096, ramp="linear"),
    bad(public("yarn_ramp"), "base", 8, 1.0, 4096, ramp="index"),
    bad(public("yarn_frequencies"), "scale", 8, 1e4, 4096, 0.5),
    bad(public("yarn_frequencies"), "ramp", 8, 1e4, 4096, 2.0, ramp="Index"),
    bad(public("yarn_temperature"), "scale", 0.5),
    bad(public("critical_dimension"), "length", 128, 1e4, -5),
    bad(public("critical_dimension"), "base", 128, 0.5, 4096),
    bad(public("sandwich_bias"), "x", [math.inf], 8),
    bad(public("xpos_zeta"), "gamma", 8, gamma=-1.0),
    bad(public("xpos_zeta"), "d", 0),
]


@pytest.mark.parametrize(
    ("function", "args", "kwargs", "argument", "pattern"), BAD_INPUT
)
def test_bad_input_raises_value_error_naming_the_argument(
    function, args, kwargs, argument, pattern
):
    with raises_about(argument) as info:
        function(*args, **kwargs)
    if pattern is not None:
        assert re.search(pattern, str(info.value)), str(info.value)


def test_empty_inputs_are_not_bad_input():
    assert public("sinusoidal")(0, 8).shape == (0, 8)
    assert posenc.sinusoidal(np.array([], dtype=np.int64), 8).shape == (0, 8)
    assert posenc.rope(np.zeros((0, 4)), 0).shape == (0, 4)
    assert posenc.rope(np.zeros((3, 0, 4)), []).shape == (3, 0, 4)
    assert posenc.softmax(np.zeros((0, 3))).shape == (0, 3)
    assert np.asarray(posenc.t5_bucket([])).shape == (0,)
    assert posenc.decay_integral([]).shape == (0,)
    assert posenc.decay_sum([], 8).shape == (0,)
    assert posenc.block_encoding([], [1.0]).shape == (0, 2)
    assert posenc.cos_sums(0, 8).shape == (0,)
    assert posenc.alibi_bias(2, 0).shape == (2, 0, 0)
    assert posenc.hessian_block(smooth, X3, [], [0, 1]).shape == (0, 2)
