"""Figures of chapter 2, the Taylor-expansion argument."""

import matplotlib.pyplot as plt
import numpy as np

from .. import sinusoidal, taylor_errors, toy_model
from . import figure
from ._style import legend_place, phone

# The chapter's setting: the toy model of chapter 1 on "A hit B", position vectors at m and n.
SENTENCE = ("A", "hit", "B")
M, N = 0, 2
EPSILONS = np.logspace(-1, -3, 9)
H_GRAD, H_HESS = 1e-5, 1e-4


def error_curves():
    """(epsilons, second-order error, cross-term error) for chapter 2's toy model."""
    model = toy_model()
    x = model.embed(SENTENCE)

    def f(u_m, u_n):
        y = x.copy()
        y[M] += u_m
        y[N] += u_n
        return model.score(y)

    pe = sinusoidal(3, model.d)
    second, cross, _ = taylor_errors(f, pe[M], pe[N], EPSILONS, H_GRAD, H_HESS)
    return EPSILONS, second, cross


@figure("fig-ch02-taylor-error")
def taylor_error():
    eps, second, cross = error_curves()
    # on a phone the key goes above the plot (legend_place): a taller figure holds both
    fig, ax = plt.subplots(figsize=(8, 5.0 if phone() else 3.8))
    for err, color, marker, label in [
        (second, "C0", "o", r"$\tilde f$ minus its second-order expansion"),
        (cross, "C3", "s", r"mixed difference minus $\varepsilon^2 p_m^\top H p_n$"),
    ]:
        slope, intercept = np.polyfit(np.log(eps), np.log(err), 1)
        ax.loglog(eps, err, marker, color=color, label=f"{label} (slope {slope:.2f})")
        ax.loglog(
            eps, np.exp(intercept) * eps**slope, "-", color=color, lw=1, alpha=0.7
        )
    guide = second[0] * 3 * (eps / eps[0]) ** 3
    ax.loglog(eps, guide, ":", color="0.4", label="slope 3 (guide)")
    ax.set_xlabel(r"scale $\varepsilon$ of the position vectors")
    ax.set_ylabel("absolute error")
    ax.legend(**legend_place(loc="upper left"))
    fig.tight_layout()
    return fig
