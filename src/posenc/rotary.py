r"""Rotary position embedding (RoPE, Su et al., RoFormer).

The same complex-number argument that gives the sinusoidal encoding (chapter 3) applied to the
queries and keys themselves: rotate each pair of coordinates by an angle proportional to the
position, and the attention score depends on the positions only through their difference.
Derived in chapter 12.
"""

from __future__ import annotations

import numpy as np
from scipy.special import sici

from ._validate import (
    check_base,
    check_count,
    check_dimension,
    check_layout,
    check_positions,
    check_real_array,
)
from .decay import _T_NODES, _T_WEIGHTS, NARROW_WIDTH, cin
from .encoding import frequencies


def _check_x(x) -> np.ndarray:
    """``x`` as a float64 array of shape ``(..., n, d)`` with ``d`` positive and even."""
    array = check_real_array(
        x,
        "x",
        min_ndim=2,
        shape_hint=", (..., n, d): positions on the "
        "second-to-last and features on the last",
    )
    d = array.shape[-1]
    if d == 0 or d % 2:
        raise ValueError(
            f"x must have a last axis of positive even length d (coordinates are "
            f"rotated in pairs), got shape {array.shape} with d = {d}"
        )
    return array


def rope(x, positions, base=10000.0, layout="interleaved") -> np.ndarray:
    r"""Rotary position embedding of ``x``: each row rotated by its position.

    ``x`` has shape ``(..., n, d)``: row :math:`t` (second-to-last axis) sits at position
    :math:`m_t`, and its :math:`d/2` coordinate pairs are rotated by the angles
    :math:`m_t\theta_i`, :math:`\theta_i = b^{-2i/d}`, :math:`i = 0, \dots, d/2 - 1`. In the
    interleaved layout (RoFormer; meta-llama's complex multiply; GPT-J's ``rotate_every_two``)
    pair :math:`i` is :math:`(x_{2i}, x_{2i+1})` and

    .. math:: \begin{pmatrix} y_{2i} \\ y_{2i+1} \end{pmatrix} =
              \begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\
                              \sin m\theta_i & \cos m\theta_i \end{pmatrix}
              \begin{pmatrix} x_{2i} \\ x_{2i+1} \end{pmatrix},

    that is :math:`y = R_m x` with :math:`R_m` block diagonal; as complex numbers,
    :math:`y_{2i} + \mathrm{i}\,y_{2i+1} = e^{\mathrm{i} m\theta_i}(x_{2i} + \mathrm{i}\,x_{2i+1})`.
    In the halves layout (GPT-NeoX; Hugging Face Llama's ``rotate_half``) pair :math:`i` is
    :math:`(x_i, x_{i+d/2})`, rotated the same way; the two layouts differ by the coordinate
    permutation :func:`~posenc.layout_permutation`. Since :math:`R_m^\top R_n = R_{n-m}`,
    :math:`(R_m q)^\top (R_n k) = q^\top R_{n-m} k` depends on :math:`n - m` only.
    Derived in chapter 12 (:ref:`ch12-elementwise`).

    Parameters
    ----------
    x : array_like of real numbers, shape ``(..., n, d)``
        Queries or keys: any leading (batch, head) axes, then positions, then an even number
        ``d`` of features.
    positions : int or 1-D array of real numbers
        An int must equal ``n`` and means positions ``0 … n-1``; an array gives the ``n``
        positions (fractional ones too, as Position Interpolation uses), shared by every
        leading index.
    base : float
        The base :math:`b > 1` (10000 in RoFormer).
    layout : {"interleaved", "halves"}

    Returns
    -------
    ndarray of the shape of ``x``, float64
    """
    array = _check_x(x)
    n, d = array.shape[-2], array.shape[-1]
    if (
        isinstance(positions, (int, np.integer))
        and not isinstance(positions, bool)
        and positions >= 0
        and positions != n
    ):
        raise ValueError(
            f"positions given as a count must equal the {n} positions of x "
            f"(its second-to-last axis, shape {array.shape}), got {positions}"
        )
    t = check_positions(positions)
    if t.size != n:
        raise ValueError(
            f"positions must give one position for each of the {n} rows of x "
            f"(its second-to-last axis, shape {array.shape}), got {t.size}"
        )
    theta = frequencies(d, base)
    layout = check_layout(layout)

    angles = np.multiply.outer(t, theta)  # (n, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "interleaved":
        first, second = np.s_[..., 0::2], np.s_[..., 1::2]
    else:
        first, second = np.s_[..., : d // 2], np.s_[..., d // 2 :]
    out = np.empty_like(array)
    # A pair whose norm is beyond the largest float (1.7e308 in both coordinates) has no
    # finite rotation: refuse it rather than return inf.
    with np.errstate(over="ignore", invalid="ignore"):
        out[first] = array[first] * cos - array[second] * sin
        out[second] = array[first] * sin + array[second] * cos
    if not np.all(np.isfinite(out)):
        raise ValueError(
            f"x is too large to rotate: a coordinate pair's rotation overflows "
            f"float64 (beyond {np.finfo(np.float64).max:.3g})"
        )
    return out


def rope_partial_sums(x, d, base=10000.0) -> np.ndarray:
    r"""RoFormer's partial sums :math:`S_j(x) = \sum_{k<j} e^{\mathrm{i} x\theta_k}`,
    :math:`j = 1, \dots, d/2`.

    Abel summation writes the RoPE score :math:`\mathrm{Re}\sum_i h_i e^{\mathrm{i}x\theta_i}`
    through these sums (RoFormer §3.4.3). Derived in chapter 12 (:ref:`ch12-decay`).

    Returns
    -------
    complex ndarray of shape ``x.shape + (d/2,)``
    """
    theta = frequencies(d, base)
    values = check_real_array(x, "x")
    return np.cumsum(np.exp(1j * np.multiply.outer(values, theta)), axis=-1)


def rope_bound(x, d, base=10000.0):
    r"""RoFormer's relative upper bound :math:`\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j(x)|`.

    Times :math:`d/2` and :math:`\max_{0 \le j < d/2} |h_{j+1} - h_j|` (with :math:`h_{d/2} = 0`)
    it bounds the RoPE score's modulus (theorem "RoFormer's decay bound"); RoFormer plots it to
    argue for long-term decay. It starts at :math:`(d/2 + 1)/2` and, for d >= 4, is not
    monotone (for d = 2 it is 1 everywhere). Derived in chapter 12 (:ref:`ch12-decay`).
    """
    d = check_dimension(d)
    out = np.abs(rope_partial_sums(x, d, base)).sum(axis=-1) / (d // 2)
    return float(out) if out.ndim == 0 else out


def rope_partial_integral(x, u, base=10000.0) -> np.ndarray:
    r"""The continuum limit of :math:`S_j(x)/(d/2)` at :math:`u = 2j/d`:

    .. math:: \int_0^u e^{\mathrm{i}x b^{-\nu}}\,d\nu =
              \frac{\mathrm{Ci}(x) - \mathrm{Ci}(x b^{-u})
              + \mathrm{i}\,\big(\mathrm{Si}(x) - \mathrm{Si}(x b^{-u})\big)}{\ln b},
              \qquad x > 0,

    by the substitution :math:`v = x b^{-\nu}` of chapter 5. The real part is evaluated as
    :math:`u - (\mathrm{Cin}(x) - \mathrm{Cin}(x b^{-u}))/\ln b`, which keeps its digits for
    small x, and a base so close to 1 that the division by :math:`\ln b` would cancel is
    integrated by Gauss–Legendre quadrature in :math:`\nu` instead, as in :func:`decay_integral`.
    Derived in chapter 12 (:ref:`ch12-decay`).

    Parameters
    ----------
    x : positive real or array of positive reals
    u : real in [0, 1] or 1-D array of them
    base : float
        The base b > 1.

    Returns
    -------
    complex ndarray of shape ``x.shape + u.shape``
    """
    base = check_base(base)
    values = check_real_array(x, "x")
    if np.any(values <= 0):
        raise ValueError(f"x must be > 0, got {values[values <= 0].flat[0]}")
    u = check_real_array(u, "u")
    if u.ndim > 1:
        raise ValueError(f"u must be a number or a 1-D array, got shape {u.shape}")
    if np.any((u < 0) | (u > 1)):
        raise ValueError(f"u must lie in [0, 1], got {u[(u < 0) | (u > 1)].flat[0]}")
    log_base = np.log1p(base - 1.0)
    xv, uv = np.broadcast_arrays(values[..., None] if u.ndim else values, u)
    lower = xv * np.exp(-uv * log_base)
    out = np.empty(xv.shape, dtype=complex)
    narrow = (log_base < 1.0) & (xv - lower <= NARROW_WIDTH)
    wide = ~narrow
    out[wide] = (
        uv[wide]
        - (cin(xv[wide]) - cin(lower[wide])) / log_base
        + 1j * (sici(xv[wide])[0] - sici(lower[wide])[0]) / log_base
    )
    if np.any(narrow):
        t = np.multiply.outer(uv[narrow], _T_NODES)  # nodes on [0, u]
        phases = xv[narrow][:, None] * np.exp(-log_base * t)
        out[narrow] = uv[narrow] * (np.exp(1j * phases) @ _T_WEIGHTS)
    return out


def rope_bound_continuum(x, d, base=10000.0, points=400):
    r""":func:`rope_bound` as :math:`d \to \infty` with x fixed:

    .. math:: \frac{1}{d/2}\sum_j |S_j(x)| \approx
              \frac{d}{2}\int_0^1 \Big|\int_0^u e^{\mathrm{i}x b^{-\nu}}\,d\nu\Big|\,du,

    by the midpoint rule with ``points`` nodes in u; x > 0. Derived in chapter 12
    (:ref:`ch12-decay`).
    """
    d = check_dimension(d)
    points = check_count(points, "points", 1)
    u = (np.arange(points) + 0.5) / points
    out = np.abs(rope_partial_integral(x, u, base)).mean(axis=-1) * (d // 2)
    return float(out) if out.ndim == 0 else out
