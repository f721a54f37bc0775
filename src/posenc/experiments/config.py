r"""The configuration of one training run, and the grid that ``make experiments`` runs.

A run is fixed by its :class:`Config`: the task, the encoding, the seed, the model's size,
the training schedule and the lengths it is evaluated at. :func:`config_hash` is the SHA-256
of its canonical JSON; the runner redoes a run when its record is missing,
unreadable or has another hash (or with ``--force``).
:data:`CODE_VERSION` is part of every configuration, so a change to the model, the tasks or
the training loop that changes results is made visible by raising it (every run is then redone).

Derived in chapter 15 (:ref:`ch15-grid`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math

from .._validate import check_count

#: Raised whenever a change to the model, tasks, training or evaluation changes results.
CODE_VERSION = 1

TASKS = ("recall", "offset")
ENCODINGS = ("nope", "sinusoidal", "learned", "t5", "alibi", "rope")
#: RoPE applied at inference only, beyond the training length, without retraining.
ROPE_VARIANTS = ("pi", "ntk")


@dataclasses.dataclass(frozen=True)
class Config:
    """One training run (all fields have the grid's values as defaults).

    Parameters
    ----------
    task : {"recall", "offset"}
        Multi-query associative recall (content retrieval at any distance) or the token
        ``offset`` positions back (a fixed relative offset); see :mod:`.tasks`.
    encoding : {"nope", "sinusoidal", "learned", "t5", "alibi", "rope"}
        How position enters the model; see :mod:`.positions`.
    seed : int
        Seeds the initial parameters and the training batches.
    rope_base : float
        RoPE's base :math:`b > 1` (``encoding="rope"`` only; ignored otherwise).
    train_length : int
        The sequence length L of every training batch.
    eval_lengths : tuple of int
        The lengths the trained model is evaluated at (the grid: L, 2L, 4L, 8L).
    d_model, n_layers, n_heads, d_mlp : int
        The Transformer's width, depth, heads (``d_model / n_heads`` must be even) and MLP width.
    n_keys, n_values : int
        The recall task's key and value alphabets; the offset task uses the values.
    offset : int
        The offset task's distance k.
    steps, batch : int
        Adam steps and sequences per step.
    learning_rate : float
        Adam's peak rate, reached after ``warmup`` steps and cosine-decayed to 0 at ``steps``.
    eval_tokens : int
        Tokens per evaluation length: ``eval_tokens // length`` sequences at each length.
    """

    task: str = "recall"
    encoding: str = "rope"
    seed: int = 0
    rope_base: float = 10000.0
    train_length: int = 64
    eval_lengths: tuple = (64, 128, 256, 512)
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    d_mlp: int = 256
    n_keys: int = 16
    n_values: int = 16
    offset: int = 8
    steps: int = 800
    batch: int = 32
    learning_rate: float = 3e-3
    warmup: int = 100
    eval_tokens: int = 8192
    code_version: int = CODE_VERSION

    def __post_init__(self):
        validate(self)

    @property
    def name(self) -> str:
        """A short readable name, unique within the grid: ``recall-rope-b10000-s0``."""
        return f"{self.task}-{self.label}-s{self.seed}"

    @property
    def label(self) -> str:
        """The encoding as the chapter's tables and figures name it: ``rope-b10000``."""
        if self.encoding == "rope":
            return f"rope-b{self.rope_base:g}"
        return self.encoding

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    @property
    def max_length(self) -> int:
        return max(self.eval_lengths + (self.train_length,))

    def as_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out["eval_lengths"] = list(self.eval_lengths)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Config:
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"config must hold only {sorted(known)}, got also {unknown}"
            )
        data = dict(data)
        if "eval_lengths" in data:
            data["eval_lengths"] = tuple(data["eval_lengths"])
        return cls(**data)


def _choice(value, name: str, allowed: tuple) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def _positive_real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return float(value)


def validate(config: Config) -> None:
    """Raise ``ValueError`` naming the first bad field of ``config``."""
    _choice(config.task, "task", TASKS)
    _choice(config.encoding, "encoding", ENCODINGS)
    check_count(config.seed, "seed", 0)
    base = _positive_real(config.rope_base, "rope_base")
    if base <= 1:
        raise ValueError(f"rope_base must be a finite real number > 1, got {base}")
    check_count(config.train_length, "train_length", 8)
    if not isinstance(config.eval_lengths, tuple) or not config.eval_lengths:
        raise ValueError(
            f"eval_lengths must be a non-empty tuple of integers >= 8, "
            f"got {config.eval_lengths!r}"
        )
    for length in config.eval_lengths:
        check_count(length, "eval_lengths", 8)
    if list(config.eval_lengths) != sorted(set(config.eval_lengths)):
        raise ValueError(
            f"eval_lengths must be increasing, without repeats, got {config.eval_lengths}"
        )
    check_count(config.d_model, "d_model", 2)
    check_count(config.n_layers, "n_layers", 1)
    check_count(config.n_heads, "n_heads", 1)
    if config.d_model % config.n_heads or (config.d_model // config.n_heads) % 2:
        raise ValueError(
            f"n_heads must divide d_model into heads of even size (RoPE rotates pairs), "
            f"got n_heads={config.n_heads} for d_model={config.d_model}"
        )
    check_count(config.d_mlp, "d_mlp", 1)
    check_count(config.n_values, "n_values", 2)
    check_count(config.n_keys, "n_keys", 1)
    if config.n_keys < config.train_length // 4:
        raise ValueError(
            f"n_keys must be at least train_length // 4 = {config.train_length // 4} (the "
            f"recall task's pairs have distinct keys), got {config.n_keys}"
        )
    if min(config.eval_lengths) < config.train_length // 2 + 2:
        raise ValueError(
            f"eval_lengths must be at least train_length // 2 + 2 = "
            f"{config.train_length // 2 + 2} (the recall task's pairs and a query), "
            f"got {min(config.eval_lengths)}"
        )
    check_count(config.offset, "offset", 1)
    if config.offset >= config.train_length:
        raise ValueError(
            f"offset must be below train_length = {config.train_length}, got {config.offset}"
        )
    check_count(config.steps, "steps", 1)
    check_count(config.batch, "batch", 1)
    _positive_real(config.learning_rate, "learning_rate")
    check_count(config.warmup, "warmup", 0)
    if config.warmup >= config.steps:
        raise ValueError(
            f"warmup must be below steps = {config.steps}, got {config.warmup}"
        )
    check_count(config.eval_tokens, "eval_tokens", config.max_length)
    check_count(config.code_version, "code_version", 1)


def config_hash(config: Config) -> str:
    """SHA-256 of the configuration's canonical JSON (sorted keys, floats as Python writes
    them): a run on disk whose hash matches is not redone."""
    if not isinstance(config, Config):
        raise ValueError(f"config must be a Config, got {config!r}")
    text = json.dumps(config.as_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


#: The encodings of the grid: (encoding, RoPE base). RoPE at the usual base and at a base so
#: small that every pair turns at least once within the training length (chapter 13).
GRID_ENCODINGS = (
    ("nope", 10000.0),
    ("sinusoidal", 10000.0),
    ("learned", 10000.0),
    ("t5", 10000.0),
    ("alibi", 10000.0),
    ("rope", 10000.0),
    ("rope", 10.0),
)
GRID_SEEDS = (0, 1, 2)


def grid() -> list[Config]:
    """Every run of the experiment: each task, each encoding of :data:`GRID_ENCODINGS`,
    each seed of :data:`GRID_SEEDS`."""
    return [
        Config(task=task, encoding=encoding, rope_base=base, seed=seed)
        for task in TASKS
        for encoding, base in GRID_ENCODINGS
        for seed in GRID_SEEDS
    ]
