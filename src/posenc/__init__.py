"""posenc: the tested core of "Sinusoidal Position Encoding, Derived".

Each function is derived in a chapter of the book before the chapters import it; its
docstring names that chapter.
"""

from .decay import decay_integral, decay_sum
from .pretrained import load_safetensors, minilm_embeddings
from .relative import alibi_bias, alibi_slopes, t5_bucket
from .rope import rope
from .sinusoidal import frequencies, layout_permutation, shift_matrix, sinusoidal

__all__ = ["alibi_bias", "alibi_slopes", "decay_integral", "decay_sum", "frequencies",
           "layout_permutation", "load_safetensors", "minilm_embeddings", "rope",
           "shift_matrix", "sinusoidal", "t5_bucket"]
__version__ = "0.1.0"
