r"""Relative position biases: T5's bucketed bias and ALiBi's linear bias.

T5 (Raffel et al.) adds a learned scalar per head and per *bucket* of the relative distance
(chapter 10); ALiBi (Press et al.) adds a fixed, head-specific linear penalty (chapter 11). Both
are written here to reproduce their reference implementations exactly, not just in spirit:

- :func:`t5_bucket` follows ``_relative_position_bucket`` of Mesh TensorFlow
  (``mesh_tensorflow/transformer/transformer_layers.py``), as ported to PyTorch in Hugging Face
  ``T5Attention._relative_position_bucket``, including its float32 arithmetic and truncation,
  with a correctly rounded float32 logarithm (PyTorch's CPU one is an ulp high at 3/2 and 5/3,
  which moves a bucket at a few knife-edge settings: see its docstring);
- :func:`alibi_slopes` follows ``get_slopes`` of the ALiBi authors' fairseq code
  (``fairseq/models/transformer.py`` in ``ofirpress/attention_with_linear_biases``).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import check_bool, check_count, check_integer_array

# Relative positions of larger magnitude all share the last bucket of their sign, so they are
# clipped to this before any arithmetic (the reference's own int64 negation of -2**63 overflows).
_POSITION_CLIP = 2**62


def t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    r"""T5's relative-position bucket for ``relative_position = key − query``.

    With :math:`r` the relative position (memory position minus query position), write
    :math:`B` for the buckets available to one sign: :math:`B = \texttt{num\_buckets}/2` when
    ``bidirectional`` (positive :math:`r` use buckets :math:`B, \dots, 2B-1`, the others
    :math:`0, \dots, B-1`) and :math:`B = \texttt{num\_buckets}` otherwise (then every
    :math:`r \ge 0` lands in bucket 0). With :math:`n = |r|` (bidirectional) or
    :math:`n = \max(-r, 0)` (unidirectional) and :math:`E = \lfloor B/2 \rfloor` exact buckets,

    .. math::
        \begin{aligned}
        \mathrm{bucket}(n) &= n \quad (n < E),\\
        \mathrm{bucket}(n) &= \min\bigl(E + \operatorname{trunc}(s_n),\; B - 1\bigr)
        \quad (n \ge E),\\
        s_n &= \frac{\ln(n/E)}{\ln(\texttt{max\_distance}/E)}\,(B - E).
        \end{aligned}

    Derived in chapter 10 (:ref:`ch10-buckets`). The defaults are T5's: 32 buckets,
    ``max_distance`` 128.

    **What it equals, and what it does not.** This is ``_relative_position_bucket`` of Mesh
    TensorFlow and of Hugging Face ``T5Attention`` (transformers 5.24.0,
    ``models/t5/modeling_t5.py``, as in 4.x), which compute the logarithmic part in float32:
    ``n`` is converted to float32 and divided by :math:`E`; its log is divided by
    ``math.log(max_distance / E)`` (a Python float, which becomes float32) and multiplied by
    :math:`B - E`, in float32; the result is truncated toward zero. This function does the same
    steps with NumPy float32, except the logarithm itself: it is computed in float64 and
    rounded to float32, which gives the *correctly rounded* float32 log (short of a double
    rounding, which would need the float64 log within about :math:`2^{-29}` float32 ulp of a
    rounding midpoint). So it equals the reference computed with a correctly rounded float32
    log, bucket for bucket. glibc's ``logf`` is not correctly rounded everywhere (2.36 differs
    at 39 of the 52,322 ratios :math:`n/E` with :math:`n < 2200`, :math:`E < 40`), but with
    it the reference gives the same buckets as this function on all of chapter 10's sweep.

    **PyTorch's CPU float32 log is one ulp high at 3/2 and 5/3**, measured by the book's
    review with transformers' ``_relative_position_bucket`` on PyTorch's CPU. Where the scaled
    value is exactly a whole number in real arithmetic, that ulp moves the reference one
    bucket up: with ``(bidirectional, num_buckets, max_distance) = (True, 34, 27)``,
    :math:`9\ln(3/2)/\ln(27/8) = 3` exactly, and at ``relative_position`` −12 and +12 this
    function gives buckets 10 and 27, PyTorch 11 and 28. The review counted 7 such entries in
    5 of 12,137 settings; emulating that log (correctly rounded elsewhere) on chapter 10's
    sweep moves 5 entries in 3 of its 3,912 settings: ``(True, 34, 27)`` at ±12,
    ``(True, 38, 25)`` at ±15 and ``(False, 36, 50)`` at −30. T5's defaults have no such knife
    edge. NumPy's own float32 ``log`` is less accurate still, and by how much depends on the
    CPU kernel it dispatches to.

    On CUDA, PyTorch divides a tensor by a Python number by multiplying with the float32
    reciprocal (``a * (1/b)``), which rounds differently at knife edges: buckets then move for
    ``(bidirectional, num_buckets, max_distance)`` = ``(True, 6, 36)``, ``(True, 10, 54)``,
    ``(True, 64, 25)``, ``(False, 32, 25)`` and ``(False, 64, 50)``, 5 of the 3912 settings
    of chapter 10's sweep, never at T5's defaults.

    Where float32 matters: the truncation sits exactly on an integer whenever
    :math:`n/E = (\texttt{max\_distance}/E)^{k/(B-E)}` for an integer :math:`k`. For the
    defaults that happens at :math:`n` = 16, 32 and 64 (bidirectional), where float32 gives
    exactly 2, 4 and 6 (buckets 10, 12, 14), as float64 does. For other parameters the two
    can part: with ``num_buckets=10, max_distance=160, bidirectional=False`` and
    :math:`r = -10` the float32 value is exactly 1 (bucket 6), while float64 gives
    0.9999999999999999 (bucket 5). At such knife edges the reference itself depends on the
    last bit of its float32 ``log`` implementation. For T5's defaults, and for every pair of
    powers of two from 8 to 128 buckets and up to 4096 positions, no bucket does: every other
    scaled value is more than 100 float32 ulps from an integer where ``max_distance`` is at
    most 4 times ``num_buckets`` (more than 20 elsewhere), and the exact ones are logs of
    powers of two, which lie within 0.04 ulp of a float32.

    In bidirectional mode bucket ``num_buckets/2`` is never used (it would hold the positive
    distance 0, but relative position 0 goes to bucket 0), exactly as in the reference.

    Parameters
    ----------
    relative_position : int or array_like of int
        Key position minus query position. Floats are accepted when they are whole numbers.
        Magnitudes beyond :math:`2^{62}` are clipped (they share the last bucket anyway).
    bidirectional : bool
        True for encoder self-attention (both signs), False for causal decoder attention.
    num_buckets : int
        A positive even integer: at least 4 when bidirectional (each sign needs
        :math:`E \ge 1` exact bucket, or the reference takes the log of 0/0), at least 2
        otherwise. (The reference would also accept an odd count, leaving the last bucket
        unused in bidirectional mode as well as bucket ``num_buckets // 2``; here it must be
        even.)
    max_distance : int
        An integer greater than :math:`E`; distances from ``max_distance`` on share the last
        bucket of their sign. (At :math:`\le E` the reference divides by a log that is zero
        or negative.)

    Returns
    -------
    int or ndarray of int64
        An int for a scalar input, else an array of the same shape, values in
        ``[0, num_buckets)``.
    """
    bidirectional = check_bool(bidirectional, "bidirectional")
    smallest = 4 if bidirectional else 2
    num_buckets = check_count(num_buckets, "num_buckets", 0)
    if num_buckets < smallest or num_buckets % 2:
        mode = "bidirectional" if bidirectional else "unidirectional"
        raise ValueError(
            f"num_buckets must be an even integer >= {smallest} in {mode} mode, "
            f"got {num_buckets}"
        )
    per_sign = num_buckets // 2 if bidirectional else num_buckets
    max_exact = per_sign // 2
    max_distance = check_count(max_distance, "max_distance", 0)
    if max_distance <= max_exact:
        raise ValueError(
            f"max_distance must be an integer greater than the {max_exact} exact "
            f"buckets (num_buckets={num_buckets}, bidirectional={bidirectional}), "
            f"got {max_distance}"
        )
    if (
        max_distance.bit_length() > 1000
    ):  # max_distance / max_exact would overflow a float
        raise ValueError(
            f"max_distance must be an integer below 2**1000, "
            f"got one of {max_distance.bit_length()} bits"
        )

    rp = check_integer_array(
        relative_position, "relative_position", clip=_POSITION_CLIP
    )
    scalar = rp.ndim == 0
    rp = np.atleast_1d(rp)

    buckets = np.zeros(rp.shape, dtype=np.int64)
    if bidirectional:
        buckets += (rp > 0).astype(np.int64) * per_sign
        n = np.abs(rp)
    else:
        n = -np.minimum(rp, 0)

    is_small = n < max_exact
    large = ~is_small
    # Only n >= max_exact >= 1 reaches the log, so it never sees log(0).
    ratio = n[large].astype(np.float32) / np.float32(max_exact)  # float32 division
    log_ratio = np.log(ratio.astype(np.float64)).astype(
        np.float32
    )  # correctly rounded log
    scale = np.float32(math.log(max_distance / max_exact))  # Python float -> float32
    value = (
        log_ratio / scale * np.float32(per_sign - max_exact)
    )  # float32, as the reference
    if_large = max_exact + value.astype(np.int64)  # truncation toward zero
    if_large = np.minimum(if_large, per_sign - 1)

    position_bucket = n.copy()
    position_bucket[large] = if_large
    buckets += position_bucket
    if scalar:
        return int(buckets[0])
    return buckets


def _slopes_power_of_two(n: int) -> list[float]:
    """The reference's ``get_slopes_power_of_2``, with the same Python float operations."""
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    ratio = start
    return [start * ratio**i for i in range(n)]


def alibi_slopes(n_heads) -> np.ndarray:
    r"""ALiBi's head slopes, for any number of heads, in the reference order.

    For a power of two :math:`n_{\text{heads}}` the slopes are the geometric sequence
    :math:`s_h = 2^{-8h/n_{\text{heads}}}`, :math:`h = 1, \dots, n_{\text{heads}}` (for 8 heads:
    1/2, 1/4, …, 1/256). For other :math:`n_{\text{heads}}`, with
    :math:`c = 2^{\lfloor \log_2 n_{\text{heads}} \rfloor}`, the slopes are those of :math:`c`
    heads followed by the 1st, 3rd, 5th, … slopes of the :math:`2c`-head sequence until there are
    :math:`n_{\text{heads}}`, i.e. :math:`2^{-8(2k-1)/(2c)}` for
    :math:`k = 1, \dots, n_{\text{heads}} - c`; the list is then
    not sorted. Derived in chapter 11 (:ref:`ch11-slopes`).

    The values are computed with the reference's own Python float operations
    (``start = 2**(-2**-(log2(c) - 3))``, ``start * start**i``), so they agree with
    ``get_slopes`` in ``ofirpress/attention_with_linear_biases`` to the last bit.

    Parameters
    ----------
    n_heads : int
        Number of attention heads, a positive integer.

    Returns
    -------
    ndarray of shape ``(n_heads,)``, float64
    """
    n = check_count(n_heads, "n_heads", 1)
    # 2**floor(log2(n)). The reference tests math.log2(n).is_integer(), which is the same test
    # for every n < 2**49 - 1 (log2(2**49 - 1) rounds to 49.0); bit_length stays exact.
    closest = 1 << (n.bit_length() - 1)
    slopes = _slopes_power_of_two(closest)
    if closest != n:
        slopes += _slopes_power_of_two(2 * closest)[0::2][: n - closest]
    return np.array(slopes, dtype=np.float64)


def alibi_bias(n_heads, length) -> np.ndarray:
    r"""ALiBi's causal attention bias, one ``(length, length)`` matrix per head.

    For head :math:`h` with slope :math:`s_h` (:func:`alibi_slopes`), query :math:`m` and key
    :math:`n`:

    .. math:: \mathrm{bias}[h, m, n] = \begin{cases} -s_h\,(m - n), & n \le m,\\
              -\infty, & n > m. \end{cases}

    The entries above the diagonal are ``-inf``: they are the causal mask, so that adding the bias
    to the logits both penalises distance and hides future keys, and the softmax gives those keys
    a weight of exactly 0. The diagonal is ``+0.0``. The reference implementation adds
    :math:`s_h\,n` instead of :math:`-s_h(m - n)`; the two differ by :math:`s_h m`, a constant in
    each row, which the softmax ignores. Derived in chapter 11 (:ref:`ch11-bias`).

    Parameters
    ----------
    n_heads : int
        Number of heads, a positive integer.
    length : int
        Sequence length, a non-negative integer.

    Returns
    -------
    ndarray of shape ``(n_heads, length, length)``, float64
    """
    slopes = alibi_slopes(n_heads)
    length = check_count(length, "length", 0)
    position = np.arange(length, dtype=np.float64)
    offset = position[None, :] - position[:, None]  # j - i
    bias = (
        slopes[:, None, None] * offset[None, :, :]
    )  # = -m (i - j), +0.0 on the diagonal
    bias[:, offset > 0] = -np.inf
    return bias
