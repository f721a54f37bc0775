r"""The two synthetic tasks, as NumPy batches of tokens, targets and weights.

Both label positions of the input (the model's output at position t is scored against
``targets[:, t]`` where ``weights[:, t] = 1``), and both start with a beginning-of-sequence
token (token 0). The vocabulary is ``1 + n_keys + n_values`` tokens: BOS, the keys
``1 … n_keys``, the values ``n_keys + 1 … n_keys + n_values``.

**recall** (multi-query associative recall, content retrieval at any distance). After BOS
come :math:`P = L/4` key–value pairs :math:`k_1 v_1 \dots k_P v_P` (L the training length),
with distinct keys and random values, then queries up to the end of the sequence, each a key
drawn from the P; the target at a query is its key's value. At the training length the queries
fill the second half but its first position; at n = 8L the same P pairs are followed by
n − 1 − 2P queries, so the distance of a query at position t from its key at position s,
:math:`t - s`, runs up to n − 2: the longer input asks for the same retrieval from farther
away, with nothing new but the distance (and more queries before it).

**offset** (a fixed relative offset). After BOS come n − 1 random values
:math:`x_1 \dots x_{n-1}`; the target at position :math:`t > k` is :math:`x_{t-k}`, the
token k back. The distance is always k, so a longer input only adds positions (and
distractors): the accuracy is recorded by position t.

Derived in chapter 15 (:ref:`ch15-tasks`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._validate import check_count
from .config import TASKS, Config

BOS = 0


@dataclasses.dataclass(frozen=True)
class Batch:
    """Sequences of one length: ``tokens``, ``targets``, ``weights`` (0 or 1) and ``where``
    (int64), each of shape ``(batch, length)``. ``where`` is what accuracy is recorded by:
    the query–key distance (recall) or the position (offset); 0 where the weight is 0."""

    tokens: np.ndarray
    targets: np.ndarray
    weights: np.ndarray
    where: np.ndarray


def vocab_size(config: Config) -> int:
    """BOS, the keys and the values: ``1 + n_keys + n_values``."""
    return 1 + config.n_keys + config.n_values


def make_batch(config: Config, length, batch, rng: np.random.Generator) -> Batch:
    """``batch`` sequences of ``length`` tokens of ``config.task``, drawn from ``rng``."""
    length = check_count(length, "length", 8)
    batch = check_count(batch, "batch", 1)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {rng!r}")
    if config.task == "recall":
        return _recall(config, length, batch, rng)
    if config.offset >= length:
        raise ValueError(
            f"length must exceed the offset {config.offset} of the offset task, got {length}"
        )
    return _offset(config, length, batch, rng)


def _recall(config: Config, n: int, batch: int, rng) -> Batch:
    pairs = config.train_length // 4
    if 2 * pairs + 2 > n:
        raise ValueError(
            f"length must leave room for the {pairs} pairs and a query, got {n}"
        )
    first_value = 1 + config.n_keys
    keys = 1 + np.argsort(rng.random((batch, config.n_keys)), axis=1)[:, :pairs]
    values = first_value + rng.integers(0, config.n_values, size=(batch, pairs))
    tokens = np.zeros((batch, n), dtype=np.int64)
    tokens[:, 1 : 1 + 2 * pairs : 2] = keys
    tokens[:, 2 : 2 + 2 * pairs : 2] = values
    queries = n - 1 - 2 * pairs
    asked = rng.integers(0, pairs, size=(batch, queries))  # which pair each query asks
    rows = np.arange(batch)[:, None]
    start = 1 + 2 * pairs
    tokens[:, start:] = keys[rows, asked]
    targets = np.zeros_like(tokens)
    targets[:, start:] = values[rows, asked]
    weights = np.zeros((batch, n), dtype=np.float32)
    weights[:, start:] = 1.0
    where = np.zeros_like(tokens)
    query_position = np.arange(start, n)[None, :]
    where[:, start:] = query_position - (1 + 2 * asked)  # query minus key position
    return Batch(tokens, targets, weights, where)


def _offset(config: Config, n: int, batch: int, rng) -> Batch:
    k = config.offset
    first_value = 1 + config.n_keys
    tokens = np.zeros((batch, n), dtype=np.int64)
    tokens[:, 1:] = first_value + rng.integers(0, config.n_values, size=(batch, n - 1))
    targets = np.zeros_like(tokens)
    targets[:, k + 1 :] = tokens[:, 1 : n - k]
    weights = np.zeros((batch, n), dtype=np.float32)
    weights[:, k + 1 :] = 1.0
    where = np.zeros_like(tokens)
    where[:, k + 1 :] = np.arange(k + 1, n)[None, :]
    return Batch(tokens, targets, weights, where)


#: The seed of the evaluation sets, the same for every run (and different from any training
#: seed's stream), so that every model is scored on the same sequences.
EVAL_SEED = 20230615


def training_rng(config: Config) -> np.random.Generator:
    """The stream of training batches: seeded by the run's seed and its task."""
    return np.random.default_rng([config.seed, 1 + TASKS.index(config.task)])


def eval_batch(config: Config, length) -> Batch:
    """The evaluation set at ``length``: ``max(eval_tokens // length, 1)`` sequences, the same for
    every run of the task (seeded by :data:`EVAL_SEED`, the task and the length)."""
    length = check_count(length, "length", 8)
    rng = np.random.default_rng([EVAL_SEED, 1 + TASKS.index(config.task), length])
    return make_batch(config, length, max(config.eval_tokens // length, 1), rng)


def bin_edges(config: Config, length) -> np.ndarray:
    """Edges of the bins in which accuracy by distance (recall) or position (offset) is
    recorded: width ``train_length // 4``, from 0 to ``length``."""
    length = check_count(length, "length", 8)
    width = max(config.train_length // 4, 1)
    return np.arange(0, length + width, width)
