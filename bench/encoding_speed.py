"""Benchmark: posenc.sinusoidal against the double loop of source note 001.

The seed (note 001, "getPositionEncoding") fills the table entry by entry: for each position k
and each pair i it calls np.power for the denominator and np.sin / np.cos for the two entries.
posenc.sinusoidal computes the same table from a block of 64 rows and the rotations that shift
it (chapter 4's shift matrices, in complex form), one complex product per entry.
Target: >= 100x faster for 2048 positions at d = 512, and equal to 1e-12.
"""

from __future__ import annotations

import time

import numpy as np

import posenc

TITLE = "Sinusoidal table: posenc against the seed's double loop"
POSITIONS, D, BASE = 2048, 512, 10000.0
TARGETS = {"speedup": 100.0, "max_abs_difference": 1e-12}


def seed_double_loop(seq_len: int, d: int, n: float = 10000.0) -> np.ndarray:
    """Source note 001's getPositionEncoding, as written there."""
    P = np.zeros((seq_len, d))
    for k in range(seq_len):
        for i in np.arange(int(d / 2)):
            denominator = np.power(n, 2 * i / d)
            P[k, 2 * i] = np.sin(k / denominator)
            P[k, 2 * i + 1] = np.cos(k / denominator)
    return P


def best_of(function, repeats: int) -> tuple[float, np.ndarray]:
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


def measure() -> dict:
    vectorised, table = best_of(lambda: posenc.sinusoidal(POSITIONS, D, BASE), 20)
    loop, reference = best_of(lambda: seed_double_loop(POSITIONS, D, BASE), 2)
    difference = float(np.max(np.abs(table - reference)))
    results = {"positions": POSITIONS, "d": D, "base": BASE,
               "posenc_seconds": vectorised, "double_loop_seconds": loop,
               "speedup": loop / vectorised, "max_abs_difference": difference}
    results["targets"] = {
        f">= {TARGETS['speedup']:.0f}x faster than the seed's double loop":
            results["speedup"] >= TARGETS["speedup"],
        "equal to the double loop within 1e-12": difference <= TARGETS["max_abs_difference"],
    }
    return results


def markdown(r: dict) -> str:
    return "\n".join([
        f"| sinusoidal({r['positions']}, {r['d']}) | seconds |", "|---|---:|",
        f"| posenc.sinusoidal (block rotation, best of 20) | {r['posenc_seconds']:.4f} |",
        f"| seed note 001 double loop (np.power, np.sin per entry; best of 2) | "
        f"{r['double_loop_seconds']:.2f} |", "",
        f"- speed-up {r['speedup']:.0f}x; largest difference between the tables "
        f"{r['max_abs_difference']:.1e}",
    ]) + "\n"
