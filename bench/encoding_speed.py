"""Benchmark: the sinusoidal table three ways against source note 001's double loop.

The seed (note 001, "getPositionEncoding") fills the table entry by entry: for each
position k and each pair i it calls np.power for the denominator and np.sin / np.cos for
the two entries. Chapter 4 replaces it by one outer product of positions and frequencies
and one call each of np.sin and np.cos. posenc.sinusoidal computes the same table from a
block of 64 rows and the rotations that shift it (chapter 4's shift matrices, in complex
form), one complex product per entry.
Targets, for 2048 positions at d = 512: the outer product >= 10x faster than the double
loop (chapter 4 once asserted this on itself), posenc.sinusoidal >= 100x faster, both
equal to the double loop within 1e-12.
"""

from __future__ import annotations

import time

import numpy as np

import posenc

TITLE = "Sinusoidal table: posenc and the outer product against the seed's double loop"
POSITIONS, D, BASE = 2048, 512, 10000.0
TARGETS = {"posenc": 100.0, "outer_product": 10.0, "max_abs_difference": 1e-12}


def seed_double_loop(seq_len: int, d: int, n: float = 10000.0) -> np.ndarray:
    """Source note 001's getPositionEncoding, as written there."""
    P = np.zeros((seq_len, d))
    for k in range(seq_len):
        for i in np.arange(int(d / 2)):
            denominator = np.power(n, 2 * i / d)
            P[k, 2 * i] = np.sin(k / denominator)
            P[k, 2 * i + 1] = np.cos(k / denominator)
    return P


def outer_product(n_positions: int, d: int, base: float = 10000.0) -> np.ndarray:
    """Chapter 4's vectorised table: the angles t θ_i as one outer product."""
    theta = base ** (-2.0 * np.arange(d // 2) / d)
    angles = np.outer(np.arange(n_positions), theta)
    table = np.empty((n_positions, d))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def best_of(function, repeats: int) -> tuple[float, np.ndarray]:
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


def measure() -> dict:
    library, table = best_of(lambda: posenc.sinusoidal(POSITIONS, D, BASE), 20)
    outer, outer_table = best_of(lambda: outer_product(POSITIONS, D, BASE), 20)
    loop, reference = best_of(lambda: seed_double_loop(POSITIONS, D, BASE), 2)
    difference = float(np.max(np.abs(table - reference)))
    outer_difference = float(np.max(np.abs(outer_table - reference)))
    r = {
        "positions": POSITIONS,
        "d": D,
        "base": BASE,
        "posenc_seconds": library,
        "outer_product_seconds": outer,
        "double_loop_seconds": loop,
        "speedup": loop / library,
        "outer_product_speedup": loop / outer,
        "max_abs_difference": difference,
        "outer_product_max_abs_difference": outer_difference,
    }
    tolerance = TARGETS["max_abs_difference"]
    r["targets"] = {
        "posenc.sinusoidal >= 100x faster than the seed's double loop": (
            r["speedup"] >= TARGETS["posenc"]
        ),
        "chapter 4's outer product >= 10x faster than the double loop": (
            r["outer_product_speedup"] >= TARGETS["outer_product"]
        ),
        "both equal to the double loop within 1e-12": (
            max(difference, outer_difference) <= tolerance
        ),
    }
    return r


def markdown(r: dict) -> str:
    lines = [
        f"| sinusoidal({r['positions']}, {r['d']}) | seconds |",
        "|---|---:|",
        "| posenc.sinusoidal (block rotation, best of 20) | "
        f"{r['posenc_seconds']:.4f} |",
        "| chapter 4's outer product (one sin, one cos; best of 20) | "
        f"{r['outer_product_seconds']:.4f} |",
        "| seed note 001 double loop (np.power, np.sin per entry; best of 2) | "
        f"{r['double_loop_seconds']:.2f} |",
        "",
        f"- speed-up over the double loop: posenc {r['speedup']:.0f}x, outer product "
        f"{r['outer_product_speedup']:.0f}x; largest difference from its table: "
        f"{r['max_abs_difference']:.1e} and "
        f"{r['outer_product_max_abs_difference']:.1e}",
    ]
    return "\n".join(lines) + "\n"
