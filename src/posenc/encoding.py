"""The Transformer's sinusoidal position encoding and its shift matrices.

Derived in chapter 3 (the complex-number solution) and made concrete in chapter 4
(the standard formula and its implementation).
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    check_base,
    check_dimension,
    check_finite_real,
    check_layout,
    check_positions,
    check_real_array,
)


def frequencies(d, base=10000.0) -> np.ndarray:
    r"""Angular frequencies :math:`\theta_i = b^{-2i/d}` for :math:`i = 0, \dots, d/2 - 1`.

    The highest frequency is 1 (wavelength :math:`2\pi`); the lowest is :math:`b^{-(d-2)/d}`,
    a factor :math:`b^{2/d}` above :math:`1/b`. Derived in chapter 4 (:ref:`ch04-formula`); the
    wavelengths are discussed in chapter 4.

    Parameters
    ----------
    d : int
        Model dimension, a positive even integer.
    base : float
        The base :math:`b > 1` (10000 in the original Transformer).
    """
    d = check_dimension(d)
    base = check_base(base)
    return np.power(base, -2.0 * np.arange(d // 2) / d)


def layout_permutation(d) -> np.ndarray:
    """Column order that turns the interleaved layout into the halves layout.

    ``sinusoidal(p, d, layout="halves") == sinusoidal(p, d)[:, layout_permutation(d)]``:
    the permutation is ``[0, 2, …, d-2, 1, 3, …, d-1]``; RoPE's ``rotate_every_two`` and
    ``rotate_half`` conventions differ by the same permutation.
    Derived in chapter 4 (:ref:`ch04-two-layouts`); the codebases that use each layout are in
    :ref:`appendix-real-code`.
    """
    d = check_dimension(d)
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def sinusoidal(positions, d, base=10000.0, layout="interleaved") -> np.ndarray:
    r"""Sinusoidal position encodings, one row per position.

    Interleaved layout (the formula of Vaswani et al.), for position :math:`t`:

    .. math:: \mathrm{PE}(t)_{2i} = \sin(t\,\theta_i), \qquad
              \mathrm{PE}(t)_{2i+1} = \cos(t\,\theta_i), \qquad \theta_i = b^{-2i/d}.

    The halves layout stores all the sines first, then all the cosines, with the same
    frequencies. Derived in chapter 4 (:ref:`ch04-formula`), implemented and compared in chapter 4.

    Parameters
    ----------
    positions : int or 1-D array of real numbers
        An int ``n`` means positions ``0 … n-1``; an array gives the positions themselves.
    d : int
        Dimension, a positive even integer.
    base : float
        The base :math:`b > 1`.
    layout : {"interleaved", "halves"}

    Returns
    -------
    ndarray of shape ``(len(positions), d)``
    """
    t = check_positions(positions)
    theta = frequencies(d, base)
    layout = check_layout(layout)
    sin, cos = _sin_cos(t, theta)
    if layout == "interleaved":
        return np.stack([sin, cos], axis=-1).reshape(t.size, d)
    return np.concatenate([sin, cos], axis=1)


PHASOR_BLOCK = 64  # positions per block in _sin_cos; 32 to 128 are equally fast


def _sin_cos(t: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\sin(t\theta_i)` and :math:`\cos(t\theta_i)` for every position t and frequency θ_i.

    Integer positions are written :math:`t = 64q + r` with :math:`0 \le r < 64`, and

    .. math:: e^{i t \theta} = e^{i\,64q\,\theta}\; e^{i r \theta},

    the shift property of chapter 4 (:math:`\mathrm{PE}(t + k) = M_k\,\mathrm{PE}(t)`, a
    rotation) in complex form. Only the distinct 64q and r need an exponential; every entry is
    then one complex product: about 3 times faster than a sine and a cosine of every angle
    (``make bench`` times the table of 2048 positions at d = 512). The accuracy is that
    of the direct formula:
    both round an angle once (``t * θ``, or ``64q * θ`` and ``r * θ``), and the product adds a
    few units in the last place (the two differ by at most 2.3e-13 on that table). Each row
    depends on its own position only, so a table and its rows agree bit for bit. Fractional
    positions (Position Interpolation) take the sine and cosine of ``t * θ`` directly.
    """
    if not np.all(t == np.floor(t)):
        angles = np.multiply.outer(t, theta)
        return np.sin(angles), np.cos(angles)
    if t.size > 1 and np.all(np.diff(t) == 1):
        # consecutive positions (the usual table): whole blocks by broadcasting, then trimmed;
        # the same products as below, without gathering rows
        first = np.floor(t[0] / PHASOR_BLOCK) * PHASOR_BLOCK
        starts = first + PHASOR_BLOCK * np.arange((t[-1] - first) // PHASOR_BLOCK + 1)
        phasor = (
            np.exp(1j * np.multiply.outer(starts, theta))[:, None, :]
            * np.exp(1j * np.multiply.outer(np.arange(PHASOR_BLOCK), theta))[None, :, :]
        )
        skip = int(t[0] - first)
        phasor = phasor.reshape(-1, theta.size)[skip : skip + t.size]
    else:
        block, offset = np.divmod(t, PHASOR_BLOCK)
        starts, start_of = np.unique(block * PHASOR_BLOCK, return_inverse=True)
        offsets, offset_of = np.unique(offset, return_inverse=True)
        phasor = (
            np.exp(1j * np.multiply.outer(starts, theta))[start_of]
            * np.exp(1j * np.multiply.outer(offsets, theta))[offset_of]
        )
    # |phasor| = 1 to a few ulp: clip so no entry leaves [-1, 1], as sin and cos never do
    return np.clip(phasor.imag, -1.0, 1.0), np.clip(phasor.real, -1.0, 1.0)


def shift_matrix(k, d, base=10000.0, layout="interleaved") -> np.ndarray:
    r"""The matrix :math:`M_k` with :math:`\mathrm{PE}(t + k) = M_k\,\mathrm{PE}(t)` for every t.

    In the interleaved layout :math:`M_k` is block diagonal; the block acting on the pair
    :math:`(\sin t\theta_i, \cos t\theta_i)` is

    .. math:: \begin{pmatrix} \cos k\theta_i & \sin k\theta_i \\
                              -\sin k\theta_i & \cos k\theta_i \end{pmatrix},

    a clockwise rotation by :math:`k\theta_i` (the counter-clockwise form often printed is
    right only for :math:`(\cos, \sin)` pairs). :math:`M_k` is orthogonal and
    :math:`M_j M_k = M_{j+k}`. Derived in chapter 4 (:ref:`ch04-shift`).

    Parameters
    ----------
    k : real
        The shift; any finite real number (negative shifts move backwards).
    d, base, layout
        As for :func:`sinusoidal`.
    """
    k = check_finite_real(k, "k")
    theta = frequencies(d, base)
    layout = check_layout(layout)
    c, s = np.cos(k * theta), np.sin(k * theta)
    m = np.zeros((d, d))
    rows = np.arange(0, d, 2)
    m[rows, rows] = c
    m[rows, rows + 1] = s
    m[rows + 1, rows] = -s
    m[rows + 1, rows + 1] = c
    if layout == "halves":
        perm = layout_permutation(d)
        m = m[np.ix_(perm, perm)]
    return m


def block_encoding(positions, theta) -> np.ndarray:
    r"""Position vectors built from 2-D blocks with arbitrary frequencies, in (cos, sin) order:

    .. math:: p_m = (\cos m\theta_0, \sin m\theta_0, \cos m\theta_1, \sin m\theta_1, \dots).

    Every such table satisfies :math:`\langle p_m, p_n\rangle = \sum_i \cos((m-n)\theta_i)`,
    whatever the :math:`\theta_i` (chapter 3, theorem "Block solution"); the paper's encoding is
    the case :math:`\theta_i = b^{-2i/d}` with each pair written (sin, cos).

    Derived in chapter 3 (:ref:`ch03-blocks`).

    Parameters
    ----------
    positions : int or 1-D array of real numbers
        As for :func:`sinusoidal`.
    theta : 1-D array of real numbers
        The frequencies, one per block.

    Returns
    -------
    ndarray of shape ``(len(positions), 2 * len(theta))``
    """
    t = check_positions(positions)
    theta = check_real_array(theta, "theta", ndim=1, nonempty=True)
    with np.errstate(over="ignore", invalid="ignore"):
        angles = np.multiply.outer(t, theta)
    if not np.all(np.isfinite(angles)):
        raise ValueError(
            "positions times theta overflows float64: the angles have no sine"
        )
    table = np.empty((t.size, 2 * theta.size))
    table[:, 0::2] = np.cos(angles)
    table[:, 1::2] = np.sin(angles)
    return table


def tensor2tensor_frequencies(d, max_timescale=10000.0) -> np.ndarray:
    r"""The frequencies of tensor2tensor's and fairseq's code: :math:`d/2` frequencies,
    geometrically spaced (:math:`d/2 - 1` steps) from 1 down to exactly
    :math:`1/\text{max\_timescale}`,

    .. math:: \theta_i = \exp\!\Big(-\,i\,\frac{\ln(\text{max\_timescale})}{d/2 - 1}\Big),
              \qquad i = 0, \dots, d/2 - 1,

    for an even d of at least 4 (tensor2tensor also takes d = 2, dividing by
    :math:`\max(d/2 - 1, 1)`). The paper's formula (:func:`frequencies`) steps by
    :math:`\ln(b)/(d/2)` instead, so its lowest frequency stops one step short of :math:`1/b`.
    Derived in chapter 4 (:ref:`ch04-wavelengths`), against the paper's frequencies; the
    tensor2tensor source is read in :ref:`appendix-real-code-t2t`.
    """
    d = check_dimension(d)
    if d < 4:
        raise ValueError(
            f"d must be at least 4 (d/2 - 1 steps divide the range), got {d}"
        )
    max_timescale = check_base(max_timescale, "max_timescale")
    half = d // 2
    return np.exp(-np.arange(half) * np.log(max_timescale) / (half - 1))
