"""Figures of chapter 2, the Taylor-expansion argument."""

import matplotlib.pyplot as plt
import numpy as np

from .. import gradient, hessian_block, sinusoidal, toy_model
from . import figure

# The chapter's setting: the toy model of chapter 1 on "A hit B", position vectors at m and n.
SENTENCE = ("A", "hit", "B")
M, N = 0, 2
EPSILONS = np.logspace(-1, -3, 9)
H_GRAD, H_HESS = 1e-5, 1e-4


def _readout_function():
    """f̃(u_m, u_n): the scalar readout with u_m added to token m and u_n to token n."""
    model = toy_model()
    x = model.embed(SENTENCE)

    def f(u_m, u_n):
        y = x.copy()
        y[M] += u_m
        y[N] += u_n
        return model.score(y)

    return f, model.d


def error_curves():
    """(epsilons, second-order model error, cross-term error), as computed in chapter 2."""
    f, d = _readout_function()
    z = np.zeros(d)
    pe = sinusoidal(3, d)
    p_m, p_n = pe[M], pe[N]

    # The finite differences act on one flat vector u = (u_m, u_n), at u = 0.
    def f_flat(u):
        return f(u[:d], u[d:])

    u0, block = np.zeros(2 * d), {"m": range(d), "n": range(d, 2 * d)}

    def hess(wi, wj):
        return hessian_block(f_flat, u0, block[wi], block[wj], h=H_HESS)

    g_m, g_n = np.split(gradient(f_flat, u0, h=H_GRAD), 2)
    h_mm, h_nn, h_mn = hess("m", "m"), hess("n", "n"), hess("m", "n")
    f0 = f(z, z)
    second, cross = [], []
    for eps in EPSILONS:
        model = (f0 + eps * (p_m @ g_m + p_n @ g_n)
                 + eps ** 2 * (0.5 * p_m @ h_mm @ p_m + 0.5 * p_n @ h_nn @ p_n + p_m @ h_mn @ p_n))
        second.append(abs(f(eps * p_m, eps * p_n) - model))
        mixed = f(eps * p_m, eps * p_n) - f(eps * p_m, z) - f(z, eps * p_n) + f0
        cross.append(abs(mixed - eps ** 2 * p_m @ h_mn @ p_n))
    return EPSILONS, np.array(second), np.array(cross)


@figure("fig-taylor-error")
def taylor_error():
    eps, second, cross = error_curves()
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for err, color, marker, label in [
            (second, "C0", "o", r"$\tilde f$ minus its second-order expansion"),
            (cross, "C3", "s", r"mixed difference minus $\varepsilon^2 p_m^\top H p_n$")]:
        slope, intercept = np.polyfit(np.log(eps), np.log(err), 1)
        ax.loglog(eps, err, marker, color=color, label=f"{label} (slope {slope:.2f})")
        ax.loglog(eps, np.exp(intercept) * eps ** slope, "-", color=color, lw=1, alpha=0.7)
    guide = second[0] * 3 * (eps / eps[0]) ** 3
    ax.loglog(eps, guide, ":", color="0.4", label="slope 3 (guide)")
    ax.set_xlabel(r"scale $\varepsilon$ of the position vectors")
    ax.set_ylabel("absolute error")
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig
