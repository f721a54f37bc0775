"""Figures of chapter 8, beyond H = I."""

import matplotlib.pyplot as plt
import numpy as np

from .. import (
    frequencies,
    random_symmetric,
    sinusoidal,
    toeplitz_fit,
    toeplitz_hankel_fit,
    variance_explained,
)
from . import figure
from ._style import phone

D = 64  # dimension of the encodings
N = 128  # positions 0 … N-1
SEED = 0


def diagonal_h(d=D, seed=SEED):
    """A random positive diagonal H (entries uniform in [0.5, 1.5])."""
    return np.diag(np.random.default_rng(seed).uniform(0.5, 1.5, d))


def _explained(c):
    """Variance of c explained by m - n alone and by m - n and m + n."""
    return (
        variance_explained(c, toeplitz_fit(c)),
        variance_explained(c, toeplitz_hankel_fit(c)),
    )


@figure("fig-ch08-diagonal", panels_by_place=True)
def beyond_diagonal():
    p = sinusoidal(N, D)
    h = np.diag(diagonal_h())
    c = p @ np.diag(h) @ p.T
    theta = frequencies(D)
    h_sin, h_cos = h[0::2], h[1::2]  # sin at 2i, cos at 2i+1
    k = np.arange(-(N - 1), N)
    s = np.arange(2 * N - 1)
    relative = 0.5 * np.cos(np.multiply.outer(k, theta)) @ (h_cos + h_sin)
    absolute = 0.5 * np.cos(np.multiply.outer(s, theta)) @ (h_cos - h_sin)
    # Stacked on a phone, the square heat map takes a taller row than the two curves: in a
    # row of their height it would be a third of the screen's width.
    fig, axes = plt.subplots(
        1,
        3,
        figsize=(8, 3.8 if phone() else 3.2),
        gridspec_kw={"height_ratios": [1.7, 1, 1]} if phone() else None,
    )
    lim = np.abs(c).max()
    image = axes[0].imshow(c, vmin=-lim, vmax=lim, interpolation="nearest")
    axes[0].grid(False)
    axes[0].set_xlabel("position $n$")
    axes[0].set_ylabel("position $m$")
    fig.colorbar(image, ax=axes[0], fraction=0.046, pad=0.04)
    axes[1].plot(k, relative, color="C0", lw=1.3)
    axes[1].set_xlabel("$m - n$")
    axes[1].set_ylabel("relative part")
    axes[2].plot(s, absolute, color="C3", lw=1.3)
    axes[2].set_xlabel("$m + n$")
    axes[2].set_ylabel("absolute part")
    fig.tight_layout()
    return fig


@figure("fig-ch08-offdiagonal", panels_by_place=True)
def beyond_offdiagonal():
    p = sinusoidal(N, D)
    strengths = np.linspace(0, 1, 21)
    # the heat map's row taller on a phone, as in fig-ch08-diagonal
    fig, (left, right) = plt.subplots(
        1,
        2,
        figsize=(8, 4.0 if phone() else 3.4),
        gridspec_kw={"height_ratios": [1, 1.5]} if phone() else {"width_ratios": [1.3, 1]},
    )
    for seed in range(5):
        g = random_symmetric(D, seed)
        fractions = np.array(
            [_explained(p @ ((1 - s) * np.eye(D) + s * g) @ p.T) for s in strengths]
        )
        bold = seed == SEED
        kwargs = {"lw": 1.6 if bold else 0.7, "alpha": 1 if bold else 0.45}
        left.plot(
            strengths,
            fractions[:, 0],
            color="C0",
            **kwargs,
            label="m − n only (Toeplitz)" if bold else None,
        )
        left.plot(
            strengths,
            fractions[:, 1],
            color="C1",
            ls="--",
            **kwargs,
            label="m − n and m + n" if bold else None,
        )
    left.set_xlabel("off-diagonal strength $s$")
    # one line would be taller than the panel stacked on a phone
    left.set_ylabel(
        "fraction of variance\nexplained" if phone() else "fraction of variance explained"
    )
    left.set_ylim(0, 1.03)
    left.legend(loc="lower left")
    s_show = 0.5
    c = p @ ((1 - s_show) * np.eye(D) + s_show * random_symmetric(D, SEED)) @ p.T
    lim = np.abs(c).max()
    image = right.imshow(c, vmin=-lim, vmax=lim, interpolation="nearest")
    right.grid(False)
    right.set_xlabel(f"position $n$  ($s = {s_show}$)")
    right.set_ylabel("position $m$")
    fig.colorbar(image, ax=right, fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig
