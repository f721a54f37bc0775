"""Tests for posenc.structure: Toeplitz and Toeplitz-plus-Hankel least-squares fits.

The fits are checked against their definition: numpy.linalg.lstsq on an explicit
indicator basis (one column per diagonal, and per anti-diagonal), built here entry by
entry. A least-squares fit is an orthogonal projection, so it must also be idempotent,
reproduce every matrix of its class exactly, and leave a residual orthogonal to every
basis matrix. Bad input is tested in test_hardening.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import PROPERTY

from posenc import (
    diagonal_means,
    random_symmetric,
    sinusoidal,
    toeplitz_fit,
    toeplitz_hankel_fit,
    variance_explained,
)

entries = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
square = st.integers(1, 9).flatmap(
    lambda n: hnp.arrays(np.float64, (n, n), elements=entries)
)


def toeplitz_basis(n):
    """One indicator matrix per lag k = |m - n|, as columns of an (n*n, n) design."""
    basis = np.zeros((n * n, n))
    for m in range(n):
        for k in range(n):
            basis[m * n + k, abs(m - k)] = 1.0
    return basis


def toeplitz_hankel_basis(n):
    """Indicators of every diagonal m - k and every anti-diagonal m + k."""
    basis = np.zeros((n * n, 4 * n - 2))
    for m in range(n):
        for k in range(n):
            basis[m * n + k, m - k + n - 1] = 1.0
            basis[m * n + k, 2 * n - 1 + m + k] = 1.0
    return basis


def projection(basis, matrix):
    coefficients = np.linalg.lstsq(basis, matrix.ravel(), rcond=None)[0]
    return (basis @ coefficients).reshape(matrix.shape)


# --------------------------------------------------------------------------- Toeplitz


@PROPERTY
@given(square)
def test_diagonal_means_equal_the_loop(matrix):
    n = len(matrix)
    want = [
        np.mean([matrix[m, k] for m in range(n) for k in range(n) if abs(m - k) == lag])
        for lag in range(n)
    ]
    np.testing.assert_allclose(diagonal_means(matrix), want, rtol=1e-13, atol=1e-12)


@PROPERTY
@given(square)
def test_toeplitz_fit_is_the_least_squares_projection(matrix):
    fit = toeplitz_fit(matrix)
    n = len(matrix)
    np.testing.assert_allclose(
        fit, projection(toeplitz_basis(n), matrix), rtol=0, atol=1e-10
    )
    np.testing.assert_allclose(toeplitz_fit(fit), fit, rtol=0, atol=1e-12)  # idempotent
    assert np.array_equal(fit, fit.T)
    lag = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    np.testing.assert_allclose(fit, diagonal_means(matrix)[lag], rtol=0, atol=0)


def test_toeplitz_fit_reproduces_a_symmetric_toeplitz_matrix():
    table = sinusoidal(40, 16)
    gram = table @ table.T
    np.testing.assert_allclose(toeplitz_fit(gram), gram, rtol=0, atol=1e-12)
    assert variance_explained(gram, toeplitz_fit(gram)) == pytest.approx(1.0, abs=1e-14)


# -------------------------------------------------------------------- Toeplitz + Hankel


@PROPERTY
@given(square)
def test_toeplitz_hankel_fit_is_the_least_squares_projection(matrix):
    fit = toeplitz_hankel_fit(matrix)
    basis = toeplitz_hankel_basis(len(matrix))
    scale = 1 + np.abs(matrix).max()
    np.testing.assert_allclose(
        fit, projection(basis, matrix), rtol=0, atol=1e-10 * scale
    )
    np.testing.assert_allclose(
        toeplitz_hankel_fit(fit), fit, rtol=0, atol=1e-10 * scale
    )
    # the residual is orthogonal to every diagonal and anti-diagonal indicator
    np.testing.assert_allclose(
        basis.T @ (matrix - fit).ravel(), 0, rtol=0, atol=1e-9 * scale
    )


@PROPERTY
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            hnp.arrays(np.float64, 2 * n - 1, elements=entries),
            hnp.arrays(np.float64, 2 * n - 1, elements=entries),
        )
    )
)
def test_toeplitz_hankel_fit_reproduces_any_f_of_difference_plus_g_of_sum(fg):
    f, g = fg
    n = (len(f) + 1) // 2
    m, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    matrix = f[m - k + n - 1] + g[m + k]
    np.testing.assert_allclose(toeplitz_hankel_fit(matrix), matrix, rtol=0, atol=1e-9)


def test_a_diagonal_metric_adds_a_sum_part():
    """Chapter 8: p_m^T H p_n with a diagonal H != I depends on m + n too. The Toeplitz
    fit misses that part, the Toeplitz-plus-Hankel fit recovers it exactly."""
    table = sinusoidal(32, 8)
    h = np.diag(np.arange(1.0, 9.0))
    cross = table @ h @ table.T
    assert variance_explained(cross, toeplitz_fit(cross)) < 0.99
    np.testing.assert_allclose(toeplitz_hankel_fit(cross), cross, rtol=0, atol=1e-10)


# --------------------------------------------------------------------------- R^2


@PROPERTY
@given(square.filter(lambda a: np.ptp(a) > 1e-3))
def test_variance_explained_by_a_projection_is_in_the_unit_interval(matrix):
    for fit in (toeplitz_fit(matrix), toeplitz_hankel_fit(matrix)):
        r2 = variance_explained(matrix, fit)
        assert -1e-12 <= r2 <= 1 + 1e-12
        sse = sum(
            (matrix[i, j] - fit[i, j]) ** 2
            for i in range(len(matrix))
            for j in range(len(matrix))
        )
        sst = sum((value - matrix.mean()) ** 2 for value in matrix.ravel())
        assert r2 == pytest.approx(1 - sse / sst, rel=0, abs=1e-12)
    assert variance_explained(matrix, matrix) == 1.0
    assert variance_explained(
        matrix, np.full_like(matrix, matrix.mean())
    ) == pytest.approx(0.0, abs=1e-12)


def test_variance_explained_is_invariant_under_an_affine_change_of_units():
    rng = np.random.default_rng(3)
    c = rng.standard_normal((6, 6))
    f = toeplitz_fit(c)
    assert variance_explained(7.5 * c - 2, 7.5 * f - 2) == pytest.approx(
        variance_explained(c, f), rel=1e-12
    )


# --------------------------------------------------------------------------- random G


@pytest.mark.parametrize("d", [1, 2, 16, 100])
@pytest.mark.parametrize("seed", [0, 7])
def test_random_symmetric_is_symmetric_with_the_norm_of_the_identity(d, seed):
    g = random_symmetric(d, seed)
    assert g.shape == (d, d) and np.array_equal(g, g.T)
    assert np.linalg.norm(g) == pytest.approx(np.linalg.norm(np.eye(d)), rel=1e-14)
    assert np.array_equal(random_symmetric(d, seed), g)  # the seed fixes it
    x = np.random.default_rng(seed).standard_normal((d, d))
    np.testing.assert_allclose(
        g, (x + x.T) / np.linalg.norm(x + x.T) * np.sqrt(d), rtol=1e-14
    )


def test_random_symmetric_seeds_differ():
    assert not np.allclose(random_symmetric(8, 0), random_symmetric(8, 1))
