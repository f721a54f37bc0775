"""Tests for posenc.tables: statistics of a position table and its reference tables.

band_energy is checked against Parseval's theorem and a DFT written as a loop over
frequencies; top_k_share against its definition (sort each column's energies,
accumulate, average over columns); cosine_matrix against a double loop. Bad input is
tested in test_hardening.py.
"""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import PROPERTY

from posenc import (
    band_energy,
    cosine_matrix,
    random_like,
    reference_tables,
    sinusoidal,
    top_k_share,
)

tables = st.tuples(st.integers(2, 24), st.integers(1, 5)).flatmap(
    lambda shape: hnp.arrays(np.float64, shape, elements=st.floats(-100, 100))
)


def energy_loop(column):
    """w_f |sum_t (x_t - mean) e^{-2 pi i f t / N}|^2 / N, f = 0 .. N // 2."""
    n = len(column)
    centred = [value - sum(column) / n for value in column]
    out = []
    for f in range(n // 2 + 1):
        coefficient = sum(
            x * cmath.exp(-2j * math.pi * f * t / n) for t, x in enumerate(centred)
        )
        weight = 1.0 if f == 0 or 2 * f == n else 2.0
        out.append(weight * abs(coefficient) ** 2 / n)
    return out


# --------------------------------------------------------------------------- energy


@PROPERTY
@given(tables)
def test_band_energy_equals_the_dft_loop_and_satisfies_parseval(table):
    energy = band_energy(table)
    n = len(table)
    assert energy.shape == (n // 2 + 1, table.shape[1])
    scale = 1 + (table**2).sum()
    for j in range(table.shape[1]):
        np.testing.assert_allclose(
            energy[:, j], energy_loop(table[:, j]), rtol=0, atol=1e-10 * scale
        )
    centred = table - table.mean(axis=0)
    np.testing.assert_allclose(
        energy.sum(axis=0), (centred**2).sum(axis=0), rtol=1e-12, atol=1e-9
    )
    assert np.all(energy >= 0)


@pytest.mark.parametrize("n", [16, 17])
def test_band_energy_of_a_pure_tone_sits_in_its_bin(n):
    t = np.arange(n)
    table = np.stack(
        [np.cos(2 * np.pi * 3 * t / n) + 5.0, np.sin(2 * np.pi * 5 * t / n)], 1
    )
    energy = band_energy(table)
    assert np.argmax(energy[:, 0]) == 3 and np.argmax(energy[:, 1]) == 5
    np.testing.assert_allclose(energy[[3, 5], [0, 1]], energy.sum(axis=0), rtol=1e-12)
    assert energy[0, 0] < 1e-20  # the mean (5.0) is removed


@PROPERTY
@given(tables.filter(lambda a: np.all(np.ptp(a, axis=0) > 1e-6)))
def test_top_k_share_is_the_sorted_cumulative_share(table):
    n_bins = len(table) // 2 + 1
    ks = list(range(1, n_bins + 1))
    share = top_k_share(table, ks)
    energy = band_energy(table)
    want = [
        np.mean(
            [
                sum(sorted(energy[:, j], reverse=True)[:k]) / energy[:, j].sum()
                for j in range(table.shape[1])
            ]
        )
        for k in ks
    ]
    np.testing.assert_allclose(share, want, rtol=1e-12, atol=1e-14)
    assert np.all(np.diff(share) >= -1e-15)  # monotone in k
    assert share[-1] == pytest.approx(1.0, abs=1e-14)  # every bin: all the energy
    assert (
        share[0] >= 1 / n_bins - 1e-14
    )  # the strongest bin holds at least the average


def test_top_k_share_of_the_sinusoidal_table():
    """Each column of a sinusoidal table over whole periods is one tone: one bin holds
    all."""
    n = 64
    theta = 2 * np.pi * np.array([1, 2, 4, 8]) / n
    table = np.concatenate(
        [np.sin(np.outer(np.arange(n), theta)), np.cos(np.outer(np.arange(n), theta))],
        axis=1,
    )
    np.testing.assert_allclose(top_k_share(table, (1, 2)), 1.0, rtol=1e-12)
    assert top_k_share(sinusoidal(n, 8), (1,))[0] < 1  # not over whole periods: leakage


def test_top_k_share_of_a_constant_column():
    """A constant column has no energy to share: the average must not turn into NaN
    (with a RuntimeWarning); leaving the column out or refusing the table are both fine.
    """
    table = np.stack([np.arange(8.0), np.ones(8)], axis=1)
    try:
        share = top_k_share(table, (1, 5))
    except ValueError as error:
        assert str(error).startswith("table ")
    else:
        assert np.all(np.isfinite(share))


# --------------------------------------------------------------------------- cosines


@PROPERTY
@given(
    tables.filter(lambda a: np.all(np.linalg.norm(a, axis=1) > 1e-3)),
    st.floats(1e-3, 1e3),
)
def test_cosine_matrix_equals_the_loop_and_ignores_row_scale(table, scale):
    cosines = cosine_matrix(table)
    n = len(table)
    for m in range(n):
        for k in range(n):
            want = (
                table[m]
                @ table[k]
                / (math.sqrt(table[m] @ table[m]) * math.sqrt(table[k] @ table[k]))
            )
            assert cosines[m, k] == pytest.approx(want, rel=0, abs=1e-12)
    np.testing.assert_allclose(np.diag(cosines), 1.0, rtol=1e-14)
    assert np.all(np.abs(cosines) <= 1 + 1e-14)
    scaled = table * (scale * (1 + np.arange(n)))[:, None]
    np.testing.assert_allclose(cosine_matrix(scaled), cosines, rtol=0, atol=1e-12)


# --------------------------------------------------------------------- reference tables


def test_random_like_matches_the_overall_mean_and_spread():
    rng = np.random.default_rng(11)
    table = 3.0 + 0.5 * rng.standard_normal((400, 50))
    noise = random_like(table, seed=4)
    assert noise.shape == table.shape
    # 20000 draws: the sample mean is within 4 standard errors, the spread within 2 %
    assert abs(noise.mean() - table.mean()) < 4 * table.std() / math.sqrt(table.size)
    assert noise.std() == pytest.approx(table.std(), rel=0.02)
    assert np.array_equal(random_like(table, seed=4), noise)
    assert not np.array_equal(random_like(table, seed=5), noise)
    # it depends on the table only through shape, mean and spread: not on the row order
    np.testing.assert_allclose(random_like(table[::-1], seed=4), noise, rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 3])
def test_reference_tables(seed):
    rng = np.random.default_rng(1)
    table = rng.standard_normal((60, 7))
    refs = reference_tables(table, seed)
    assert set(refs) == {"shuffled", "noise", "walk"}
    assert all(array.shape == table.shape for array in refs.values())
    # the shuffle keeps every row, in another order
    assert not np.array_equal(refs["shuffled"], table)
    assert np.array_equal(np.sort(refs["shuffled"], axis=0), np.sort(table, axis=0))
    assert {tuple(row) for row in refs["shuffled"]} == {tuple(row) for row in table}
    # the walk's steps are standard normal noise drawn after the noise table
    steps = np.diff(refs["walk"], axis=0, prepend=0)
    again = np.random.default_rng(seed)
    np.testing.assert_array_equal(refs["noise"], again.standard_normal(table.shape))
    np.testing.assert_allclose(
        steps, again.standard_normal(table.shape), rtol=0, atol=1e-12
    )
    # reproducible from the seed, different for another seed
    for name, array in reference_tables(table, seed).items():
        assert np.array_equal(array, refs[name])
    other = reference_tables(table, seed + 1)
    assert all(not np.array_equal(other[name], refs[name]) for name in refs)
