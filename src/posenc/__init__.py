"""posenc: the tested core of "Sinusoidal Position Encoding, Derived".

Each function is derived in a chapter of the book before the chapters import it; its
docstring names that chapter.
"""

from .attention import ToyModel, attention_weights, self_attention, softmax, toy_model
from .decay import decay_integral, decay_sum
from .finite_differences import gradient, hessian_block
from .pretrained import load_safetensors, minilm_embeddings
from .relative import alibi_bias, alibi_slopes, t5_bucket
from .rope import rope
from .sinusoidal import frequencies, layout_permutation, shift_matrix, sinusoidal

__all__ = ["ToyModel", "alibi_bias", "alibi_slopes", "attention_weights", "decay_integral",
           "decay_sum", "frequencies", "gradient", "hessian_block", "layout_permutation",
           "load_safetensors", "minilm_embeddings", "rope", "self_attention", "shift_matrix",
           "sinusoidal", "softmax", "t5_bucket", "toy_model"]
__version__ = "0.1.0"
