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

``import posenc`` imports none of these modules: each is imported when one of its names is
first used (``posenc.sinusoidal``, ``from posenc import rope``). A process that needs one
module does not pay for all of them: the build's number typesetter imports
:mod:`posenc.display` in every Sphinx build (the small books of the tests among them), and
importing every module, SciPy's integrators with them, took 0.7 s.
"""

from __future__ import annotations

import importlib

# Each module and the public names it defines, separated by spaces (the API reference appendix
# lists them by module too).
_MODULES = {
    "attention": "ToyModel attention_weights self_attention softmax toy_model",
    "decay": "ci_first_zero cin decay_first_zero decay_integral decay_integral_quad"
    " decay_integral_slope_bound decay_sum",
    "encoding": "block_encoding frequencies layout_permutation shift_matrix sinusoidal"
    " tensor2tensor_frequencies",
    "extrapolation": "cos_sums ntk_base",
    "finite_differences": "gradient hessian_block taylor_errors",
    "long_context": "critical_dimension fit_score_coefficients interpolation_bound"
    " p_rope_frequencies rope_score_moments sandwich_bias"
    " score_from_coefficients xpos_zeta yarn_frequencies yarn_ramp"
    " yarn_temperature",
    "pretrained": "ChecksumError Embeddings load_safetensors minilm_embeddings"
    " minilm_path minilm_tensors sha256_file",
    "relative": "alibi_bias alibi_slopes t5_bucket",
    "rotary": "rope rope_bound rope_bound_continuum rope_partial_integral"
    " rope_partial_sums",
    "schedules": "critical_exponent first_trough power_integral power_integral_closed"
    " power_integral_jacobi power_integral_quad power_sum schedule_sum",
    "structure": "diagonal_means random_symmetric toeplitz_fit toeplitz_hankel_fit"
    " variance_explained",
    "tables": "band_energy cosine_matrix random_like reference_tables top_k_share",
}
_HOME = {name: module for module, names in _MODULES.items() for name in names.split()}

__all__ = sorted(_HOME)  # capitalised names (classes) first


def _version() -> str:
    """posenc's version: pyproject.toml's, the one source of truth, which the installed
    package's metadata (and the wheel's) carries; read from pyproject.toml itself when posenc
    runs from a source tree that was never installed."""
    from importlib import metadata

    try:
        return metadata.version(__name__)
    except metadata.PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]


def __getattr__(name: str):
    """A public name, or a submodule (``posenc.decay``), imported at first use (PEP 562);
    ``__version__`` is read from the package's metadata at first use."""
    if name == "__version__":
        value = _version()
    elif name in _HOME:
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{name}":
                raise  # a submodule that failed to import something else
            raise AttributeError(
                f"module {__name__!r} has no attribute {name!r}"
            ) from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME, "__version__"})
