r"""Statistics of an embedding table, one row per position (chapter 9, a real model).

A learned position table :math:`P` (:math:`N \times d`) is compared with reference tables of the
same shape: white noise, its rows shuffled, a random walk along the positions, and the
sinusoidal table. These functions compute what chapter 9 defines in the open and its figures
draw.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_count, check_real_array

#: Largest entry a table may hold: energies and covariances square the entries.
MAX_ENTRY = 1e150


def _check_table(table) -> np.ndarray:
    table = check_real_array(table, "table", ndim=2, nonempty=True)
    if np.max(np.abs(table)) > MAX_ENTRY:
        raise ValueError(
            f"table must hold entries of magnitude at most {MAX_ENTRY:g}, whose "
            f"squares stay finite; got {np.max(np.abs(table)):g}"
        )
    return table


def random_like(table, seed=0) -> np.ndarray:
    """Independent Gaussian entries with the table's shape, overall mean and standard
    deviation, from ``np.random.default_rng(seed)``: a table with no structure at all.

    Derived in chapter 9 (:ref:`ch09-covariance`).
    """
    table = _check_table(table)
    seed = check_count(seed, "seed", 0)
    return np.random.default_rng(seed).normal(table.mean(), table.std(), table.shape)


def reference_tables(table, seed=0) -> dict[str, np.ndarray]:
    """Reference tables of the table's shape, from fixed seeds:

    - ``"shuffled"``: the rows in a random order (``np.random.default_rng(seed).permutation``):
      every vector kept, the order destroyed;
    - ``"noise"``: independent standard normal entries;
    - ``"walk"``: a random walk along the rows, each column a cumulative sum of standard normal
      steps, columns independent: smooth along positions, not periodic, no correlation between
      coordinates — the null model for statistics that smoothness alone inflates.

    ``noise`` and ``walk`` are drawn in that order from one ``np.random.default_rng(seed)``.
    Chapter 9 compares the learned table with each.

    Derived in chapter 9 (:ref:`ch09-spectrum`).
    """
    table = check_real_array(
        table, "table", ndim=2, nonempty=True
    )  # nothing is squared
    seed = check_count(seed, "seed", 0)
    shuffled = table[np.random.default_rng(seed).permutation(len(table))]
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal(table.shape)
    walk = np.cumsum(rng.standard_normal(table.shape), axis=0)
    return {"shuffled": shuffled, "noise": noise, "walk": walk}


def cosine_matrix(table) -> np.ndarray:
    r"""The cosines :math:`\cos\angle(p_m, p_n)` of every pair of rows.

    Derived in chapter 9 (:ref:`ch09-gram`).
    """
    table = _check_table(table)
    rows = np.max(np.abs(table), axis=1, keepdims=True)
    if np.any(rows == 0):
        raise ValueError("table must have no zero row (its cosines are undefined)")
    rows = table / rows  # each row scaled to largest entry 1: no underflow in the norms
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return unit @ unit.T


def band_energy(table) -> np.ndarray:
    r"""The energy :math:`e(f)` of each column at each DFT frequency :math:`f = 0, \dots, N/2`
    (rows), after removing the column's mean.

    :math:`e(f) = w_f |\hat P(f)|^2 / N` with weight 2 except at :math:`f = 0` and (N even)
    :math:`f = N/2`, so that each column's energies sum to its sum of squares (Parseval).
    Derived in chapter 9 (:ref:`ch09-spectrum`), lemma "The strongest frequencies are the best
    few sinusoids".
    """
    table = _check_table(table)
    n = len(table)
    spectrum = np.abs(np.fft.rfft(table - table.mean(axis=0), axis=0)) ** 2 / n
    weight = np.full(len(spectrum), 2.0)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    return spectrum * weight[:, None]


def top_k_share(table, ks=(1, 2, 4, 8, 16)) -> np.ndarray:
    """For each k in ``ks``: the share of a column's energy held by its k strongest DFT
    frequencies, averaged over the columns. Derived in chapter 9 (:ref:`ch09-spectrum`)."""
    table = _check_table(table)
    if np.any(np.ptp(table, axis=0) == 0):
        raise ValueError(
            "table must have no constant column: its energy share is undefined"
        )
    if isinstance(ks, (str, bytes)) or not hasattr(ks, "__iter__"):
        raise ValueError(f"ks must be a sequence of positive integers, got {ks!r}")
    ks = np.asarray([check_count(k, "ks", 1) for k in ks], dtype=int)
    # shares do not change when the table is scaled; scale it so that no energy underflows
    energy = np.sort(band_energy(table / np.max(np.abs(table))), axis=0)[::-1]
    if np.any(ks > len(energy)):
        raise ValueError(
            f"ks must not exceed the {len(energy)} DFT frequencies, got {ks.max()}"
        )
    share = np.cumsum(energy, axis=0) / energy.sum(axis=0)
    return share[ks - 1].mean(axis=1)
