"""posenc: the tested core of "Sinusoidal Position Encoding, Derived".

Every name here is derived in a chapter of the book before the chapters import it; its
docstring gives the formula and names the chapter. The API reference appendix lists them all.

Modules, in the order the book derives them:

- :mod:`posenc.attention` (chapters 1–2): the attention head and the toy model;
- :mod:`posenc.finite_differences` (chapter 2): gradients and Hessian blocks;
- :mod:`posenc.encoding` (chapters 3–4): frequencies, the sinusoidal table, shift matrices;
- :mod:`posenc.decay` (chapters 5–6): the decay integral, its first zero, the finite sum;
- :mod:`posenc.schedules` (chapter 7): power schedules and their integrals;
- :mod:`posenc.structure` (chapters 8–9): Toeplitz and Hankel fits of Gram matrices;
- :mod:`posenc.tables`, :mod:`posenc.pretrained` (chapter 9): a real model's tables;
- :mod:`posenc.relative` (chapters 10–11): T5 buckets and ALiBi;
- :mod:`posenc.rotary` (chapter 12): RoPE and RoFormer's bound;
- :mod:`posenc.extrapolation` (chapter 13): base versus context length;
- :mod:`posenc.long_context` (chapter 14): what the decay story does not explain.

Argument checks live in one private module, ``posenc._validate``.
"""

from .attention import ToyModel, attention_weights, self_attention, softmax, toy_model
from .decay import (
    ci_first_zero,
    cin,
    decay_first_zero,
    decay_integral,
    decay_integral_quad,
    decay_integral_slope_bound,
    decay_sum,
)
from .encoding import (
    block_encoding,
    frequencies,
    layout_permutation,
    shift_matrix,
    sinusoidal,
    tensor2tensor_frequencies,
)
from .extrapolation import cos_sums, ntk_base
from .finite_differences import gradient, hessian_block, taylor_errors
from .long_context import (
    critical_dimension,
    fit_score_coefficients,
    interpolation_bound,
    p_rope_frequencies,
    rope_score_moments,
    sandwich_bias,
    score_from_coefficients,
    xpos_zeta,
    yarn_frequencies,
    yarn_ramp,
    yarn_temperature,
)
from .pretrained import (
    ChecksumError,
    Embeddings,
    load_safetensors,
    minilm_embeddings,
    minilm_path,
    minilm_tensors,
    sha256_file,
)
from .relative import alibi_bias, alibi_slopes, t5_bucket
from .rotary import (
    rope,
    rope_bound,
    rope_bound_continuum,
    rope_partial_integral,
    rope_partial_sums,
)
from .schedules import (
    critical_exponent,
    first_trough,
    power_integral,
    power_integral_closed,
    power_integral_jacobi,
    power_integral_quad,
    power_sum,
    schedule_sum,
)
from .structure import (
    diagonal_means,
    random_symmetric,
    toeplitz_fit,
    toeplitz_hankel_fit,
    variance_explained,
)
from .tables import (
    band_energy,
    cosine_matrix,
    random_like,
    reference_tables,
    top_k_share,
)

__all__ = [
    "ChecksumError",
    "Embeddings",
    "ToyModel",
    "alibi_bias",
    "alibi_slopes",
    "attention_weights",
    "band_energy",
    "block_encoding",
    "ci_first_zero",
    "cin",
    "cos_sums",
    "cosine_matrix",
    "critical_exponent",
    "decay_first_zero",
    "decay_integral",
    "decay_integral_quad",
    "decay_integral_slope_bound",
    "decay_sum",
    "diagonal_means",
    "first_trough",
    "frequencies",
    "gradient",
    "hessian_block",
    "layout_permutation",
    "load_safetensors",
    "minilm_embeddings",
    "minilm_path",
    "minilm_tensors",
    "ntk_base",
    "power_integral",
    "power_integral_closed",
    "power_integral_jacobi",
    "power_integral_quad",
    "power_sum",
    "random_like",
    "random_symmetric",
    "reference_tables",
    "rope",
    "rope_bound",
    "rope_bound_continuum",
    "rope_partial_integral",
    "rope_partial_sums",
    "schedule_sum",
    "self_attention",
    "sha256_file",
    "shift_matrix",
    "sinusoidal",
    "softmax",
    "t5_bucket",
    "taylor_errors",
    "tensor2tensor_frequencies",
    "toeplitz_fit",
    "toeplitz_hankel_fit",
    "top_k_share",
    "toy_model",
    "variance_explained",
    "critical_dimension",
    "fit_score_coefficients",
    "interpolation_bound",
    "p_rope_frequencies",
    "rope_score_moments",
    "sandwich_bias",
    "score_from_coefficients",
    "xpos_zeta",
    "yarn_frequencies",
    "yarn_ramp",
    "yarn_temperature",
]
__version__ = "0.2.0"
