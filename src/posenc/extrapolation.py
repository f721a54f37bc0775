r"""Base versus context length (chapter 13).

Men et al. (2024) require the sums :math:`B_x = \sum_i \cos(x\theta_i)` to stay non-negative
for every distance :math:`x` below the context length L; NTK-aware scaling changes the base so
that the lowest frequency slows down by the scale factor.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_base, check_count, check_dimension, check_positive
from .encoding import frequencies

#: Positions per block in :func:`cos_sums` (32 to 128 are equally fast).
COS_SUM_BLOCK = 64


def cos_sums(length, d, base=10000.0) -> np.ndarray:
    r""":math:`B_x = \sum_{i=0}^{d/2-1} \cos(x\,\theta_i)` for :math:`x = 0, \dots, L - 1`,
    :math:`\theta_i = b^{-2i/d}`.

    :math:`B_x = \frac{d}{2}\,S_{d,b}(x)`, the unnormalised :func:`~posenc.decay_sum`. Computed by
    blocks: with :math:`x = x_0 + j`, :math:`0 \le j < 64`,
    :math:`\cos((x_0 + j)\theta) = \cos x_0\theta\cos j\theta - \sin x_0\theta \sin j\theta`,
    so all :math:`B_x` come from two matrix products. Derived in chapter 13
    (:ref:`ch13-base-bound`).
    """
    length = check_count(length, "length", 0)
    theta = frequencies(d, base)
    j = np.arange(COS_SUM_BLOCK)[:, None] * theta
    m0 = np.arange(0, length, COS_SUM_BLOCK)[:, None] * theta
    values = np.cos(m0) @ np.cos(j).T - np.sin(m0) @ np.sin(j).T
    return values.ravel()[:length]


def ntk_base(base, scale, d) -> float:
    r"""The NTK-aware base :math:`b' = b\,s^{d/(d-2)}`.

    It keeps :math:`\theta_0 = 1` and divides the lowest frequency
    :math:`\theta_{d/2-1} = b^{-(d-2)/d}` by exactly :math:`s` (proposition "The larger base
    fixes the highest frequency and stretches the lowest one by s"). Derived in chapter 13
    (:ref:`ch13-scaling`).

    Parameters
    ----------
    base : float
        The trained base b > 1.
    scale : float
        The factor s ≥ 1 by which the context grows (new length over trained length).
    d : int
        Dimension, an even integer ≥ 4 (d = 2 has one frequency, 1, which no base moves).
    """
    base = check_base(base)
    scale = check_positive(scale, "scale")
    d = check_dimension(d)
    if d == 2:
        raise ValueError(
            "d must be at least 4 for NTK scaling (d = 2 has one frequency, 1)"
        )
    if scale < 1:
        raise ValueError(
            f"scale must be >= 1 (a context s times the training length), got {scale}"
        )
    log_new = np.log(base) + d / (d - 2) * np.log(scale)
    if log_new >= np.log(np.finfo(np.float64).max):
        raise ValueError(
            f"scale = {scale:g} with base {base:g} and d = {d} gives a base beyond "
            "the largest float"
        )
    return float(base * scale ** (d / (d - 2)))
