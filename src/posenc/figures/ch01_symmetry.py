"""Figures of chapter 1, the symmetry problem."""

import matplotlib.pyplot as plt
import numpy as np

from .. import attention_weights, sinusoidal, toy_model
from . import figure
from ._style import phone

# The chapter's toy model (chapter 1 draws it in the open and checks it against posenc.toy_model).
MODEL = toy_model()
WORDS = tuple(MODEL.vocab)


def _weights_pair(with_positions):
    """Weights for "A hit B" and for "B hit A", the latter relabelled into the order A, hit, B."""
    pe = sinusoidal(3, MODEL.d) if with_positions else np.zeros((3, MODEL.d))
    forward = MODEL.embed(("A", "hit", "B")) + pe
    backward = MODEL.embed(("B", "hit", "A")) + pe
    order = [2, 1, 0]  # row i of "A hit B" is row order[i] of "B hit A"

    def weights(x):
        return attention_weights(x, MODEL.w_q, MODEL.w_k)

    return weights(forward), weights(backward)[np.ix_(order, order)]


@figure("fig-ch01-attention")
def symmetry_attention():
    fig, axes = plt.subplots(2, 3, figsize=(8, 5.4), sharex=True, sharey=True)
    pairs = [_weights_pair(False), _weights_pair(True)]
    vmax = max(w.max() for pair in pairs for w in pair)
    dmax = max(np.abs(a - b).max() for a, b in pairs)
    row_names = ["no position vectors", "with position vectors"]
    if phone():  # rotated on one line, the two names would run into each other
        row_names = ["no position\nvectors", "with position\nvectors"]
    col_names = ['"A hit B"', '"B hit A", reordered', "difference"]
    for r, (fwd, bwd) in enumerate(pairs):
        for c, (mat, cmap, lo, hi) in enumerate(
            [
                (fwd, "Blues", 0, vmax),
                (bwd, "Blues", 0, vmax),
                (fwd - bwd, "RdBu_r", -dmax, dmax),
            ]
        ):
            ax = axes[r, c]
            ax.imshow(mat, cmap=cmap, vmin=lo, vmax=hi)
            ax.grid(False)
            for i in range(3):
                for j in range(3):
                    value = mat[i, j]
                    dark = abs(value) > 0.6 * (hi if c < 2 else dmax)
                    text = f"{value:+.2f}" if c == 2 else f"{value:.2f}"
                    if c == 2 and abs(value) < 5e-3:
                        text = "0.00"
                    if phone():  # three values to a 1.3 cm row: ".24", "+.03", "-.01"
                        text = text.replace("0.", ".", 1)
                    ax.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=10,
                        color="white" if dark else "black",
                    )
            ax.set_xticks(range(3), WORDS)
            ax.set_yticks(range(3), WORDS)
            if phone() and c > 0:  # the shared row ticks would touch the first values
                ax.tick_params(axis="y", length=0)
            if r == 0:  # a column header, not a title: the caption explains the panels
                ax.text(
                    0.5,
                    1.04,
                    col_names[c],
                    transform=ax.transAxes,
                    ha="center",
                    va="bottom",
                )
            if r == 1:
                ax.set_xlabel("key")
            if c == 0:
                ax.set_ylabel(f"{row_names[r]}\nquery")
    fig.tight_layout()
    return fig
