"""Figures of chapter 7, bases and frequency schedules."""

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import fresnel, roots_jacobi, sici

from .. import decay_integral, decay_sum, sinusoidal
from . import figure

BASES = (10.0, 100.0, 1000.0, 1.0e4, 1.0e6)
BASE_LABELS = ("$10^{-t}$", "$100^{-t}$", "$1000^{-t}$", "$(10^4)^{-t}$", "$(10^6)^{-t}$")
POWERS = (0.5, 1.0, 2.0)
POWER_LABELS = ("$t^{1/2}$", "$t$", "$t^{2}$")
D_SUM = 128  # the dimension of the finite sums drawn beside the integrals


def power_integral(x, alpha):
    r""":math:`\int_0^1 \cos(x t^\alpha)\,dt` for alpha in {1/2, 1, 2} (closed forms, x > 0)."""
    x = np.asarray(x, dtype=float)
    if alpha == 1.0:
        return np.sinc(x / np.pi)
    if alpha == 0.5:
        safe = np.where(x == 0, 1.0, x)
        return np.where(x == 0, 1.0, 2 * (safe * np.sin(safe) + np.cos(safe) - 1) / safe**2)
    if alpha == 2.0:
        safe = np.where(x == 0, 1.0, x)
        c = fresnel(np.sqrt(2 * safe / np.pi))[1]
        return np.where(x == 0, 1.0, np.sqrt(np.pi / (2 * safe)) * c)
    raise ValueError(f"alpha must be 1/2, 1 or 2, got {alpha}")


@lru_cache(maxsize=256)
def _jacobi_nodes(alpha, nodes):
    s, w = roots_jacobi(nodes, 0.0, 1.0 / alpha - 1.0)
    return (1 + s) / 2, w * 0.5 ** (1.0 / alpha) / alpha


def power_integral_jacobi(x, alpha, nodes=400):
    r""":math:`\int_0^1 \cos(x t^\alpha)\,dt = \frac1\alpha\int_0^1 u^{1/\alpha-1}\cos(xu)\,du`
    by Gauss-Jacobi quadrature (accurate to about 1e-11 for |x| up to a few hundred)."""
    u, w = _jacobi_nodes(float(alpha), nodes)
    return np.cos(np.multiply.outer(np.asarray(x, dtype=float), u)) @ w


def power_sum(x, d, alpha):
    """(2/d) sum_i cos(x t_i^alpha), t_i = 2i/d: the finite sum of the power schedule."""
    t = 2 * np.arange(d // 2) / d
    return np.cos(np.multiply.outer(np.asarray(x, dtype=float), t**alpha)).mean(axis=-1)


def first_trough(alpha):
    """Position and value of the first local minimum of the t^alpha integral."""
    xs = np.linspace(0.5, 12, 400)
    v = power_integral_jacobi(xs, alpha, nodes=120)
    k = np.flatnonzero((v[1:-1] < v[:-2]) & (v[1:-1] <= v[2:]))[0] + 1
    res = minimize_scalar(lambda z: float(power_integral_jacobi(z, alpha, nodes=120)),
                          bounds=(xs[k - 1], xs[k + 1]), method="bounded",
                          options={"xatol": 1e-12})
    return res.x, res.fun


def first_zero_exponential(base):
    """First zero of the b^(-t) integral, by a grid scan and brentq."""
    xs = np.linspace(0, 2 * base, 4001)
    k = np.flatnonzero(decay_integral(xs, base) < 0)[0]
    return brentq(lambda z: decay_integral(z, base), xs[k - 1], xs[k], xtol=1e-12 * base)


def _draw_integrals(left, right, x):
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(BASES)))
    for base, label, color in zip(BASES, BASE_LABELS, colors):
        left.plot(x, decay_integral(x, base), color=color, lw=1.5, label=label)
    for k, (alpha, label) in enumerate(zip(POWERS, POWER_LABELS)):
        right.plot(x, power_integral(x, alpha), color=f"C{k + 1}", lw=1.5, label=label)
    right.plot(x, decay_integral(x, 1.0e4), color="0.5", lw=1.2, ls="--",
               label="$(10^4)^{-t}$")


def _draw_sums(left, right, x, lw, ls):
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(BASES)))
    for base, color in zip(BASES, colors):
        left.plot(x, decay_sum(x, D_SUM, base), color=color, lw=lw, ls=ls)
    for k, alpha in enumerate(POWERS):
        right.plot(x, power_sum(x, D_SUM, alpha), color=f"C{k + 1}", lw=lw, ls=ls)


@figure("fig-schedules-short")
def schedules_short():
    x = np.linspace(0, 50, 1001)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.6), sharey=True)
    _draw_integrals(left, right, x)
    _draw_sums(left, right, x, lw=0.8, ls=":")
    for ax in (left, right):
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xlabel("relative distance x")
        ax.legend(loc="lower right", ncol=2, fontsize=9)
    left.set_ylabel("$\\int_0^1 \\cos(x\\theta_t)\\,dt$")
    fig.tight_layout()
    return fig


@figure("fig-schedules-long")
def schedules_long():
    x = np.linspace(0, 2000, 8001)
    fig, axes = plt.subplots(2, 2, figsize=(8, 5.2), sharex=True, sharey=True)
    _draw_integrals(axes[0, 0], axes[0, 1], x)
    _draw_sums(axes[1, 0], axes[1, 1], x, lw=0.6, ls="-")
    for ax in axes.flat:
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_ylim(-0.35, 1.02)
    for ax in axes[1]:
        ax.set_xlabel("relative distance x")
    axes[0, 0].set_ylabel("integral")
    axes[1, 0].set_ylabel(f"finite sum, d = {D_SUM}")
    axes[0, 0].legend(loc="upper right", ncol=2, fontsize=9)
    axes[0, 1].legend(loc="upper right", ncol=2, fontsize=9)
    fig.tight_layout()
    return fig


@figure("fig-schedules-crossings")
def schedules_crossings():
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    bases = np.logspace(0.5, 8, 31)
    ratio = [first_zero_exponential(b) / b for b in bases]
    z0 = brentq(lambda z: sici(z)[1], 0.3, 1.0)
    left.semilogx(bases, ratio, "o-", color="C0", ms=3, lw=1.2)
    left.axhline(z0, color="C3", lw=1, ls="--")
    left.text(2e4, z0 - 0.03, f"zero of Ci, {z0:.4f}", color="C3", va="top")
    left.set_xlabel("base b")
    left.set_ylabel("first zero / b")
    alphas = np.linspace(0.3, 2.0, 35)
    troughs = [first_trough(a)[1] for a in alphas]
    alpha_c = brentq(lambda a: first_trough(a)[1], 1.2, 1.45, xtol=1e-10)
    right.plot(alphas, troughs, color="C1", lw=1.5)
    right.axhline(0, color="0.3", lw=0.8)
    right.axvline(alpha_c, color="C3", lw=1, ls="--")
    right.text(alpha_c + 0.04, -0.5, f"$\\alpha_c \\approx$ {alpha_c:.3f}", color="C3")
    right.set_xlabel("exponent $\\alpha$ of $\\theta_t = t^\\alpha$")
    right.set_ylabel("value at the first trough")
    fig.tight_layout()
    return fig


@figure("fig-schedules-seed-bases")
def schedules_seed_bases():
    d, column = 100, 10
    positions = np.arange(101.0)
    bases = (10.0, 100.0, 1.0e4, 1.0e8)
    labels = ("b = 10", "b = 100", "b = $10^4$", "b = $10^8$")
    fig, axes = plt.subplots(2, 2, figsize=(8, 3.8), sharex=True, sharey=True)
    for ax, base, label in zip(axes.flat, bases, labels):
        values = sinusoidal(positions, d, base=base)[:, column]
        ax.plot(positions, values, color="C0", lw=1.2, marker=".", ms=3)
        wavelength = 2 * np.pi * base ** (column / d)
        ax.text(0.01, 0.98, f"{label}, wavelength {wavelength:.1f}", transform=ax.transAxes,
                ha="left", va="top", fontsize=9)
        ax.set_ylim(-1.15, 1.75)
        ax.set_yticks([-1, 0, 1])
    for ax in axes[1]:
        ax.set_xlabel("position k")
    for ax in axes[:, 0]:
        ax.set_ylabel("PE(k)$_{10}$")
    fig.tight_layout()
    return fig


@figure("fig-schedules-distance")
def schedules_distance():
    d = 512
    k = np.unique(np.round(np.logspace(0, np.log10(32767), 3000)))
    fig, ax = plt.subplots(figsize=(8, 3.4))
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(BASES)))
    for base, label, color in zip(BASES, ("10", "100", "1000", "$10^4$", "$10^6$"), colors):
        dist = np.sqrt(np.maximum(1 - decay_sum(k, d, base), 0))
        ax.semilogx(k, dist, color=color, lw=1.2, label=label)
        ax.plot(1, dist[0], "o", color=color, ms=4)
    ax.axhline(1, color="0.3", lw=0.8, ls=":")
    ax.set_xlabel("distance k = |m − n|")
    ax.set_ylabel("$\\|PE(m) - PE(n)\\| / \\sqrt{d}$")
    ax.legend(title="base b", loc="lower right", ncol=5, fontsize=9)
    fig.tight_layout()
    return fig
