r"""Which part of a Gram matrix depends on :math:`m - n` and which on :math:`m + n`.

A matrix :math:`C_{mn}` that depends on :math:`m - n` alone is constant along its diagonals (a
Toeplitz matrix); one that depends on :math:`m + n` alone is constant along its anti-diagonals
(a Hankel matrix). Chapter 8 shows that a diagonal :math:`H \ne I` adds an :math:`m + n` part to
the cross term :math:`p_m^\top H p_n`; chapter 9 asks how Toeplitz a learned table's Gram matrix
is. Both fit these structures by least squares and report the fraction of variance explained.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import scipy.sparse as sparse

from ._validate import check_count, check_real_array


def _check_square(matrix, name: str = "matrix") -> np.ndarray:
    array = check_real_array(matrix, name, ndim=2, nonempty=True)
    if array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be square, got shape {array.shape}")
    return array


def _scaled(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """matrix / s and s = max |entry| (1 for a zero matrix): the fits are linear, so they are
    computed on entries of size at most 1, where nothing overflows or underflows."""
    scale = float(np.max(np.abs(matrix)))
    scale = scale if scale > 0 else 1.0
    return matrix / scale, scale


def diagonal_means(matrix) -> np.ndarray:
    r"""The means :math:`\bar g(k)` of a square matrix over the entries with
    :math:`|m - n| = k`, for :math:`k = 0, \dots, N - 1`.

    For a symmetric matrix, :math:`\bar g(|m - n|)` is its best approximation in least squares
    by any function of :math:`m - n` (chapter 9, lemma "Diagonal averaging is the least-squares
    Toeplitz fit").

    Derived in chapter 9 (:ref:`ch09-gram`).
    """
    matrix, scale = _scaled(_check_square(matrix))
    n = len(matrix)
    lag = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    return np.bincount(lag.ravel(), matrix.ravel()) / np.bincount(lag.ravel()) * scale


def toeplitz_fit(matrix) -> np.ndarray:
    r"""The best symmetric Toeplitz approximation :math:`T_{mn} = \bar g(|m - n|)` of a square
    matrix (:func:`diagonal_means` spread along the diagonals). Derived in chapter 9
    (:ref:`ch09-gram`); used for
    chapter 8's cross term."""
    matrix = _check_square(matrix)
    n = len(matrix)
    lag = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    return diagonal_means(matrix)[lag]


@lru_cache(maxsize=8)
def _toeplitz_hankel_design(n: int):
    """Sparse indicator matrix of C[m, k] = f(m - k) + g(m + k), one row per entry, and the
    pseudo-inverse of its normal matrix (the split between f and g is not unique)."""
    m, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    rows = np.arange(n * n)
    cols = np.r_[(m - k).ravel() + n - 1, (m + k).ravel() + 2 * n - 1]
    design = sparse.csr_matrix(
        (np.ones(2 * n * n), (np.r_[rows, rows], cols)), shape=(n * n, 4 * n - 2)
    )
    return design, np.linalg.pinv((design.T @ design).toarray())


def toeplitz_hankel_fit(matrix) -> np.ndarray:
    r"""The least-squares best :math:`f(m - n) + g(m + n)` for a square matrix: one unknown per
    diagonal and one per anti-diagonal. The fitted sum is unique even though the split between
    f and g is not (a constant can move between them, separately on the even and on the odd
    diagonals). Derived in chapter 8
    (:ref:`ch08-diagonal`)."""
    matrix, scale = _scaled(_check_square(matrix))
    design, normal_pinv = _toeplitz_hankel_design(len(matrix))
    fit = (design @ (normal_pinv @ (design.T @ matrix.ravel()))).reshape(matrix.shape)
    return fit * scale


def variance_explained(matrix, fit) -> float:
    r"""The fraction of variance of ``matrix`` that ``fit`` explains,
    :math:`R^2 = 1 - \|C - F\|_F^2 / \|C - \bar C\|_F^2`. Derived in chapter 9
    (:ref:`ch09-gram`)."""
    matrix = _check_square(matrix)
    fit = check_real_array(fit, "fit")
    if fit.shape != matrix.shape:
        raise ValueError(
            f"fit must have the shape of matrix {matrix.shape}, got {fit.shape}"
        )
    if np.all(matrix == matrix.flat[0]):
        raise ValueError("matrix must not be constant: its variance is zero")
    # R^2 does not change when both are divided by the same number; dividing by the largest
    # entry keeps the squares finite
    scale = max(float(np.max(np.abs(matrix))), float(np.max(np.abs(fit))))
    m, f = matrix / scale, fit / scale
    spread = ((m - m.mean()) ** 2).sum()
    if spread == 0:  # entries differ only below the resolution of their squares
        m = (matrix - matrix.flat[0]) / np.max(np.abs(matrix - matrix.flat[0]))
        f = (fit - matrix.flat[0]) / np.max(np.abs(matrix - matrix.flat[0]))
        spread = ((m - m.mean()) ** 2).sum()
    return float(1 - ((m - f) ** 2).sum() / spread)


def random_symmetric(d, seed=0) -> np.ndarray:
    r"""A random symmetric :math:`G = (X + X^\top)/2`, :math:`X` standard normal from
    ``np.random.default_rng(seed)``, scaled to the Frobenius norm of the identity,
    :math:`\|G\|_F = \sqrt d`. Chapter 8 mixes it into H.

    Derived in chapter 8 (:ref:`ch08-non-diagonal`).
    """
    d = check_count(d, "d", 1)
    seed = check_count(seed, "seed", 0)
    x = np.random.default_rng(seed).standard_normal((d, d))
    g = (x + x.T) / 2
    return g * (np.sqrt(d) / np.linalg.norm(g))
