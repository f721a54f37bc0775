"""Figures of chapter 5, from sum to integral: the decay integral and its regimes."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import brentq
from scipy.special import sici

from .. import decay_integral, decay_sum
from . import figure

BASE = 1.0e4
EULER_GAMMA = 0.57721566490153286061


def _first_zero(base):
    """First positive zero of the decay integral: coarse scan, fine scan, then brentq."""
    coarse = np.linspace(0.01, 1.5, 1491) * base
    k = int(np.argmax(decay_integral(coarse, base) < 0))
    fine = np.arange(coarse[k - 1] - 5.0, coarse[k] + 0.05, 0.05)
    j = int(np.argmax(decay_integral(fine, base) < 0))
    return brentq(lambda x: decay_integral(x, base), fine[j - 1], fine[j], xtol=1e-10)


@figure("fig-decay-su-range")
def decay_su_range():
    x = np.linspace(-128, 128, 2049)
    k = np.arange(-128, 129, dtype=float)
    fig, ax = plt.subplots(figsize=(8, 3.4))
    ax.plot(x, decay_integral(x, BASE), color="C0", lw=2.0,
            label="integral $\\int_0^1 \\cos(x\\, b^{-t})\\, dt$")
    ax.plot(k, decay_sum(k, 128, BASE), "o", color="C3", ms=2.2,
            label="sum $(2/d)\\sum_i \\cos(x\\theta_i)$, $d = 128$, integer $x$")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(-128, 128)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xticks(np.arange(-128, 129, 32))
    ax.set_xlabel("relative distance x = m − n")
    ax.set_ylabel("normalised inner product")
    ax.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-decay-log-range")
def decay_log_range():
    x = np.logspace(-2, 7, 6000)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for colour, base in zip(["C0", "C1", "C2", "C3"], [1e2, 1e3, 1e4, 1e5]):
        exponent = int(round(np.log10(base)))
        ax.semilogx(x, decay_integral(x, base), color=colour, lw=1.5,
                    label=f"$b = 10^{exponent}$")
        x0 = _first_zero(base)
        ax.plot([x0], [0.0], "o", color=colour, ms=5, mec="white", mew=0.8)
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlim(1e-2, 1e7)
    ax.set_ylim(-0.15, 1.05)
    ax.set_xlabel("relative distance x (log scale)")
    ax.set_ylabel("$I_b(x)$")
    ax.legend(loc="lower left", frameon=False)
    fig.tight_layout()
    return fig


@figure("fig-decay-regimes")
def decay_regimes():
    log_b = np.log(BASE)
    fig, axes = plt.subplots(1, 3, figsize=(8.4, 3.4))

    ax = axes[0]
    x = np.linspace(0, 4, 400)
    ax.plot(x, decay_integral(x, BASE), color="0.15", lw=2.2, label="$I_b(x)$")
    ax.plot(x, 1 - x ** 2 * (1 - BASE ** -2) / (4 * log_b), color="C1", lw=1.6, ls="--",
            label="$1 - x^2(1-b^{-2})/(4\\ln b)$")
    ax.set_ylim(0.5, 1.02)
    ax.set_xlabel("x  (small x)")
    ax.set_ylabel("$I_b(x)$, $b = 10^4$")
    ax.legend(loc="lower left", frameon=False, fontsize=9)

    ax = axes[1]
    x = np.logspace(0, np.log10(3e3), 3000)
    ax.semilogx(x, decay_integral(x, BASE), color="0.15", lw=2.2)
    ax.semilogx(x, 1 - (EULER_GAMMA + np.log(x)) / log_b + np.sin(x) / (x * log_b),
                color="C2", lw=1.4, ls="--",
                label="$1 - \\frac{\\gamma + \\ln x}{\\ln b} + \\frac{\\sin x}{x \\ln b}$")
    ax.set_xlabel("x  ($1 \\ll x \\ll b$)")
    ax.legend(loc="lower left", frameon=False, fontsize=9)

    ax = axes[2]
    z = np.logspace(np.log10(0.3), np.log10(30), 2000)
    x = z * BASE
    ax.semilogx(z, decay_integral(x, BASE), color="0.15", lw=2.2)
    ax.semilogx(z, (np.sin(x) - BASE * np.sin(z)) / (x * log_b), color="C3", lw=1.4, ls="--",
                label="$\\frac{\\sin x - b \\sin(x/b)}{x \\ln b}$")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.axhline(-sici(np.pi / 2)[1] / log_b, color="0.5", lw=0.8, ls=":")
    ax.set_xlabel("x / b  ($x \\gg b$)")
    ax.set_ylim(-0.1, 0.1)
    ax.legend(loc="upper right", frameon=False, fontsize=9)
    fig.tight_layout()
    return fig
