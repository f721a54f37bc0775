"""Figures of chapter 2, the Taylor-expansion argument."""

import matplotlib.pyplot as plt
import numpy as np

from .. import sinusoidal
from . import figure
from .symmetry import D, tiny_model

# The chapter's setting: the toy model of chapter 1 on "A hit B", position vectors at m and n.
SENTENCE = ("A", "hit", "B")
M, N = 0, 2
EPSILONS = np.logspace(-1, -3, 9)
H_GRAD, H_HESS = 1e-5, 1e-4


def _readout_function():
    """f̃(u_m, u_n): the scalar readout with u_m added to token m and u_n to token n."""
    w_q, w_k, w_v, vocab, readout = tiny_model()
    x = np.array([vocab[w] for w in SENTENCE])

    def f(u_m, u_n):
        y = x.copy()
        y[M] += u_m
        y[N] += u_n
        s = (y @ w_q) @ (y @ w_k).T / np.sqrt(D)
        a = np.exp(s - s.max(axis=-1, keepdims=True))
        a /= a.sum(axis=-1, keepdims=True)
        return readout @ (a @ (y @ w_v)).mean(axis=0)

    return f


def error_curves():
    """(epsilons, second-order model error, cross-term error), as computed in chapter 2."""
    f = _readout_function()
    z, eye = np.zeros(D), np.eye(D)
    pe = sinusoidal(3, D)
    p_m, p_n = pe[M], pe[N]

    def split(v, which):
        return (v, z) if which == "m" else (z, v)

    def grad(which):
        h = H_GRAD
        return np.array([(f(*split(h * e, which)) - f(*split(-h * e, which))) / (2 * h)
                         for e in eye])

    def hess(wi, wj):
        h = H_HESS

        def at(i, si, j, sj):
            a, b = split(si * h * eye[i], wi)
            c, e = split(sj * h * eye[j], wj)
            return f(a + c, b + e)

        return np.array([[(at(i, 1, j, 1) - at(i, 1, j, -1) - at(i, -1, j, 1) + at(i, -1, j, -1))
                          / (4 * h * h) for j in range(D)] for i in range(D)])

    g_m, g_n = grad("m"), grad("n")
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
