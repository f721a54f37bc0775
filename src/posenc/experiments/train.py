r"""Training and evaluation of one configuration: :func:`run` returns its record.

Training minimises the mean cross-entropy over the labelled positions,

.. math:: \mathcal L = -\frac{\sum_{b,t} w_{b,t}\,\log p_\phi(y_{b,t} \mid w_{b,0 \dots t})}
                            {\sum_{b,t} w_{b,t}},

with Adam (Optax), the gradient's global norm clipped to 1, the rate warmed up linearly for
``warmup`` steps and then cosine-decayed to 0 at ``steps``; every batch is drawn afresh at the
training length L. The evaluation scores the trained model, unchanged, on the fixed evaluation
sets of :func:`posenc.experiments.tasks.eval_batch` at each length of ``eval_lengths``: the
accuracy overall and by distance or position (in bins), the loss, and, at the training length
and the longest, each head's mean attention weight by query–key distance. RoPE is also scored
with its inference-time variants (Position Interpolation, the NTK-aware base) at the lengths
above L.

Results are bit-identical for a fixed program, seed, machine and number of cores a process
may use; the runner (``python -m posenc.experiments``) turns Eigen's threads inside XLA off
(:data:`posenc.experiments.runner.XLA_FLAGS`) before JAX starts. Derived in chapter 15
(:ref:`ch15-grid`).
"""

from __future__ import annotations

import functools
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .config import ROPE_VARIANTS, Config
from .model import count_parameters, forward, init_params
from .positions import position_terms
from .tasks import bin_edges, eval_batch, make_batch, training_rng

#: Training losses are recorded as means over windows of this many steps.
LOSS_WINDOW = 50
#: Sequences per forward pass in evaluation (bounds the memory of long sequences).
EVAL_CHUNK = 16
#: Distances up to the training length are recorded one by one in the attention profile;
#: beyond it, in bins of this many (the records stay small).
ATTENTION_BIN = 8


def optimizer(config: Config):
    """Adam behind global-norm clipping, with the warm-up and cosine schedule (one object per
    schedule, so that runs with the same schedule share the compiled training step)."""
    return _optimizer(config.learning_rate, config.warmup, config.steps)


@functools.cache
def _optimizer(learning_rate, warmup, steps):
    schedule = optax.warmup_cosine_decay_schedule(
        0.0, learning_rate, warmup, steps, end_value=0.0
    )
    return optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule))


def loss_and_accuracy(params, tokens, targets, weights, terms, n_heads):
    logits = forward(params, tokens, terms, n_heads)
    losses = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
    total = jnp.maximum(weights.sum(), 1.0)
    correct = (jnp.argmax(logits, axis=-1) == targets) * weights
    return (losses * weights).sum() / total, correct.sum() / total


@functools.partial(jax.jit, static_argnames=("n_heads", "tx"), donate_argnums=(0, 1))
def _train_step(params, opt_state, tokens, targets, weights, terms, n_heads, tx):
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(
        params, tokens, targets, weights, terms, n_heads
    )
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss, accuracy


@functools.partial(jax.jit, static_argnames=("n_heads",))
def _evaluate_chunk(params, tokens, targets, terms, n_heads):
    """Per position: correct (bool), loss; per layer and head: attention summed over the
    chunk's queries at each distance 0 … n-1."""
    logits, alpha = forward(params, tokens, terms, n_heads, return_attention=True)
    correct = jnp.argmax(logits, axis=-1) == targets
    losses = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
    n = tokens.shape[1]
    position = jnp.arange(n)
    distance = position[:, None] - position[None, :]  # query minus key
    # keys above the diagonal (the future) go to segment n, which is dropped
    ids = jnp.where(distance >= 0, distance, n).reshape(-1)
    summed = alpha.sum(axis=1)  # over the batch: (layers, heads, n, n)
    layers, heads = summed.shape[:2]
    flat = summed.reshape(layers * heads, n * n).T
    by_distance = jax.ops.segment_sum(flat, ids, num_segments=n + 1)[:n]
    return correct, losses, by_distance.T.reshape(layers, heads, n)


def train(config: Config, log_every=None):
    """Train ``config``'s model; return ``(params, history)`` where ``history`` holds the
    windowed mean losses and accuracies and the seconds spent."""
    tx = optimizer(config)
    params = init_params(config, jax.random.PRNGKey(config.seed))
    opt_state = tx.init(params)
    terms = {
        name: jnp.asarray(value)
        for name, value in position_terms(config, config.train_length).items()
    }
    rng = training_rng(config)
    losses, accuracies = [], []
    start = time.perf_counter()
    for step in range(config.steps):
        batch = make_batch(config, config.train_length, config.batch, rng)
        params, opt_state, loss, accuracy = _train_step(
            params,
            opt_state,
            jnp.asarray(batch.tokens),
            jnp.asarray(batch.targets),
            jnp.asarray(batch.weights),
            terms,
            config.n_heads,
            tx,
        )
        losses.append(loss)
        accuracies.append(accuracy)
        if log_every and (step + 1) % log_every == 0:
            print(f"step {step + 1}: loss {float(loss):.4f}", flush=True)
    losses = np.asarray(jax.device_get(losses), dtype=np.float64)
    accuracies = np.asarray(jax.device_get(accuracies), dtype=np.float64)
    windows = config.steps // LOSS_WINDOW
    history = {
        "window": LOSS_WINDOW,
        "loss": _rounded(
            losses[: windows * LOSS_WINDOW].reshape(windows, -1).mean(axis=1)
        ),
        "accuracy": _rounded(
            accuracies[: windows * LOSS_WINDOW].reshape(windows, -1).mean(axis=1)
        ),
        "final_loss": _rounded(losses[-LOSS_WINDOW:].mean()),
        "final_accuracy": _rounded(accuracies[-LOSS_WINDOW:].mean()),
        "seconds": round(time.perf_counter() - start, 2),
        "parameters": count_parameters(params),
    }
    return params, history


def evaluate(config: Config, params, length, variant=None, attention=True) -> dict:
    """Score ``params`` at ``length`` on the task's evaluation set (``variant``: RoPE's
    "pi" or "ntk", or None); with ``attention``, also each head's mean attention weight by
    distance."""
    batch = eval_batch(config, length)
    terms = {
        name: jnp.asarray(value)
        for name, value in position_terms(config, length, variant).items()
    }
    correct, losses, summed = [], [], 0.0
    for start in range(0, batch.tokens.shape[0], EVAL_CHUNK):
        chunk = slice(start, start + EVAL_CHUNK)
        c, loss, by_distance = _evaluate_chunk(
            params,
            jnp.asarray(batch.tokens[chunk]),
            jnp.asarray(batch.targets[chunk]),
            terms,
            config.n_heads,
        )
        correct.append(np.asarray(c))
        losses.append(np.asarray(loss, dtype=np.float64))
        summed = summed + np.asarray(by_distance, dtype=np.float64)
    correct = np.concatenate(correct)
    losses = np.concatenate(losses)
    labelled = batch.weights > 0
    edges = bin_edges(config, length)
    where = batch.where[labelled]
    hits = correct[labelled]
    count = np.histogram(where, edges)[0]
    right = np.histogram(where[hits], edges)[0]
    # mean attention weight at distance x: the weights summed over the queries that have a
    # key at distance x (length - x of them in each sequence), divided by their number
    queries = batch.tokens.shape[0] * (length - np.arange(length))
    profile = summed / queries  # (layers, heads, length)
    near = min(length, config.train_length)
    far_edges = np.arange(near, length + ATTENTION_BIN, ATTENTION_BIN)
    far = [
        profile[:, :, lo:hi].mean(axis=2)
        for lo, hi in zip(far_edges[:-1], far_edges[1:], strict=True)
        if hi <= length
    ]
    scores = {
        "accuracy": _rounded(hits.mean()),
        "loss": _rounded(losses[labelled].mean()),
        "labelled": int(labelled.sum()),
        "bins": {
            "edges": edges.tolist(),
            "count": count.tolist(),
            "correct": right.tolist(),
        },
    }
    if attention:
        scores["attention"] = {
            "near": _rounded(profile[:, :, :near], 4),
            "far_edges": far_edges[: len(far) + 1].tolist() if far else [],
            "far": _rounded(np.stack(far, axis=2), 4) if far else [],
        }
    return scores


def run(config: Config, log_every=None) -> dict:
    """Train ``config``'s model and evaluate it at every length: the record's results
    (without its provenance, which the runner adds)."""
    params, history = train(config, log_every)
    start = time.perf_counter()
    # the attention profile at the training length and at the longest (the records stay small)
    profiled = {config.train_length, max(config.eval_lengths)}
    evaluation = {
        str(n): evaluate(config, params, n, attention=n in profiled)
        for n in config.eval_lengths
    }
    variants = {}
    if config.encoding == "rope":
        above = [n for n in config.eval_lengths if n > config.train_length]
        variants = {
            variant: {
                str(n): evaluate(config, params, n, variant, attention=False)
                for n in above
            }
            for variant in ROPE_VARIANTS
        }
    history["eval_seconds"] = round(time.perf_counter() - start, 2)
    return {"train": history, "eval": evaluation, "variants": variants}


def _rounded(values, digits=6):
    """Floats with ``digits`` significant digits, as (nested) lists: records stay small and
    byte-stable."""
    array = np.asarray(values, dtype=np.float64)
    rounded = np.vectorize(lambda v: float(f"{v:.{digits}g}"), otypes=[float])(array)
    return rounded.tolist() if array.ndim else float(rounded)
