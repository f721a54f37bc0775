r"""The committed results of the experiment, read with NumPy alone (no JAX).

``python -m posenc.experiments`` writes one JSON record per run into ``results/`` beside this
module, and the wheel carries them, so a chapter notebook downloaded from the site reads them
with the posenc wheel alone. A record holds:

- ``config`` and ``config_hash`` (:mod:`posenc.experiments.config`);
- ``provenance``: versions of Python, JAX, jaxlib, Optax, NumPy and posenc, the git commit and
  whether the library's files differed from it, the device, XLA's flags, the machine, the wall
  and CPU seconds and the date;
- ``results``: ``train`` (losses and accuracies in windows of steps, seconds), ``eval`` (for
  each length: accuracy, loss, accuracy by distance or position in bins; at the training length
  and the longest, each head's mean attention weight by distance) and ``variants`` (the same
  without attention, for RoPE's inference-time variants "pi" and "ntk", at the lengths above
  the training length).

Derived in chapter 15 (:ref:`ch15-grid`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .config import GRID_SEEDS, TASKS, Config, config_hash, grid

RESULTS = Path(__file__).resolve().parent / "results"


def load(directory=None) -> dict[str, dict]:
    """Every record in ``directory`` (the committed results by default), by run name."""
    directory = RESULTS if directory is None else Path(directory)
    if not directory.is_dir():
        raise ValueError(
            f"directory must be a folder of results, got {str(directory)!r}"
        )
    records = {}
    for path in sorted(directory.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        records[record["name"]] = record
    return records


def stale(records: dict, configs=None) -> list[str]:
    """Names of the runs of ``configs`` (the grid by default) that ``records`` lacks, or holds
    for another configuration (another hash: the code version or a setting changed)."""
    configs = grid() if configs is None else configs
    return [
        config.name
        for config in configs
        if records.get(config.name, {}).get("config_hash") != config_hash(config)
    ]


def labels(records: dict) -> list[str]:
    """The encodings' labels present in ``records``, in the grid's order."""
    present = {config_of(record).label for record in records.values()}
    order = [config.label for config in grid() if config.task == TASKS[0]]
    return [label for label in dict.fromkeys(order) if label in present]


def runs(records: dict, task: str, label: str) -> list[dict]:
    """The records of one task and encoding, one per seed, in seed order."""
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}")
    found = [
        record
        for record in records.values()
        if record["config"]["task"] == task and config_of(record).label == label
    ]
    if not found:
        raise ValueError(f"label must name an encoding of the results, got {label!r}")
    return sorted(found, key=lambda record: record["config"]["seed"])


def _scores(record: dict, length: int, variant=None) -> dict:
    results = record["results"]
    train_length = record["config"]["train_length"]
    if str(length) not in results["eval"]:  # 512.0 or True name no evaluated length either
        evaluated = sorted(int(n) for n in results["eval"])
        raise ValueError(f"length must be one of the evaluated lengths {evaluated}, got {length!r}")
    variants = tuple(results.get("variants", {}))
    if variant is not None and variant not in variants:
        raise ValueError(
            f"variant must be None or one of this encoding's variants {variants}, got {variant!r}"
        )
    if variant is None or length <= train_length:
        return results["eval"][str(length)]
    return results["variants"][variant][str(length)]


def accuracy(records: dict, task: str, label: str, length, variant=None) -> np.ndarray:
    """Overall accuracy at ``length``, one value per seed."""
    return np.array(
        [_scores(r, length, variant)["accuracy"] for r in runs(records, task, label)]
    )


def binned(records: dict, task: str, label: str, length, variant=None):
    """``(edges, accuracy)``: the bin edges of distance (recall) or position (offset), and
    the accuracy in each bin, one row per seed (NaN for a bin without labelled positions)."""
    rows, edges = [], None
    for record in runs(records, task, label):
        bins = _scores(record, length, variant)["bins"]
        edges = np.array(bins["edges"])
        count = np.array(bins["count"], dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            rows.append(np.where(count > 0, np.array(bins["correct"]) / count, np.nan))
    return edges, np.array(rows)


def beyond(records: dict, task: str, label: str, length, variant=None) -> np.ndarray:
    """Accuracy over the labelled positions whose distance (recall) or position (offset) is at
    least the training length: the part of the test the training never showed. One value per
    seed; NaN when there is none (at the training length)."""
    out = []
    for record in runs(records, task, label):
        bins = _scores(record, length, variant)["bins"]
        edges = np.array(bins["edges"][:-1])
        keep = edges >= record["config"]["train_length"]
        count = np.array(bins["count"])[keep].sum()
        correct = np.array(bins["correct"])[keep].sum()
        out.append(correct / count if count else np.nan)
    return np.array(out, dtype=float)


def attention_profile(records: dict, task: str, label: str, length=None) -> np.ndarray:
    """Each head's mean attention weight at the distances 0 … L − 1 (L the training length),
    measured at ``length``: the training length (the default) or the longest evaluated length,
    the two the records profile. ``(seeds, layers, heads, L)``."""
    chosen = runs(records, task, label)
    length = chosen[0]["config"]["train_length"] if length is None else length
    scores = [_scores(r, length) for r in chosen]
    if any("attention" not in s for s in scores):
        profiled = sorted(
            int(n) for n, s in chosen[0]["results"]["eval"].items() if "attention" in s
        )
        raise ValueError(f"length must be one of the profiled lengths {profiled}, got {length!r}")
    return np.array([s["attention"]["near"] for s in scores])


def seeds() -> tuple:
    return GRID_SEEDS


def config_of(record: dict) -> Config:
    return Config.from_dict(record["config"])
