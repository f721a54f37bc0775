r"""Rotary position embedding (RoPE, Su et al., RoFormer).

The same complex-number argument that gives the sinusoidal encoding (chapter 3) applied to the
queries and keys themselves: rotate each pair of coordinates by an angle proportional to the
position, and the attention score depends on the positions only through their difference.
Derived in chapter 12.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_layout, check_positions
from .sinusoidal import frequencies


def _check_x(x) -> np.ndarray:
    """``x`` as a float64 array of shape ``(..., n, d)`` with ``d`` positive and even."""
    try:
        array = np.asarray(x)
    except (TypeError, ValueError):  # ragged nesting, for instance
        raise ValueError("x must be an array of real numbers of shape (..., n, d)") from None
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer)
                                   or np.issubdtype(array.dtype, np.floating)):
        raise ValueError(f"x must hold real numbers, got dtype {array.dtype}")
    if array.ndim < 2:
        raise ValueError(f"x must have at least 2 axes, (..., n, d): positions on the "
                         f"second-to-last and features on the last; got shape {array.shape}")
    d = array.shape[-1]
    if d == 0 or d % 2:
        raise ValueError(f"x must have a last axis of positive even length d (coordinates are "
                         f"rotated in pairs), got shape {array.shape} with d = {d}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"x must be finite, got {array[~np.isfinite(array)].flat[0]}")
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
    Derived in chapter 12.

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
    if (isinstance(positions, (int, np.integer)) and not isinstance(positions, bool)
            and positions >= 0 and positions != n):
        raise ValueError(f"positions given as a count must equal the {n} positions of x "
                         f"(its second-to-last axis, shape {array.shape}), got {positions}")
    t = check_positions(positions)
    if t.size != n:
        raise ValueError(f"positions must give one position for each of the {n} rows of x "
                         f"(its second-to-last axis, shape {array.shape}), got {t.size}")
    theta = frequencies(d, base)
    layout = check_layout(layout)

    angles = np.multiply.outer(t, theta)  # (n, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    if layout == "interleaved":
        first, second = np.s_[..., 0::2], np.s_[..., 1::2]
    else:
        first, second = np.s_[..., : d // 2], np.s_[..., d // 2:]
    out = np.empty_like(array)
    # Hardening fix: a pair whose norm is beyond the largest float (1.7e308 in both coordinates,
    # say) has no finite rotation; it used to come back as inf with a RuntimeWarning.
    with np.errstate(over="ignore", invalid="ignore"):
        out[first] = array[first] * cos - array[second] * sin
        out[second] = array[first] * sin + array[second] * cos
    if not np.all(np.isfinite(out)):
        raise ValueError(f"x is too large to rotate: a coordinate pair's rotation overflows "
                         f"float64 (beyond {np.finfo(np.float64).max:.3g})")
    return out
