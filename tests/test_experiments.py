"""Tests for posenc.experiments: chapter 15's small Transformers, tasks, runner and results.

Three kinds of test:

- the model's position terms against posenc's NumPy functions, recomputed here from the
  library (``posenc.rope``, ``posenc.sinusoidal``, ``posenc.alibi_bias``,
  ``posenc.t5_bucket``, ``posenc.ntk_base``), not from the experiment's own position module;
  the tasks against their definitions; bad configurations;
- the committed results: complete for the current grid, with their provenance, shipped in
  the wheel, readable without JAX;
- the reproduction test: one configuration of the grid is retrained by the runner, in a fresh
  process, and must reproduce its committed numbers to the tolerances below; two negative
  controls show the comparison fails on numbers that drifted (a committed value moved by
  twice the tolerance) and on another seed's run of the same configuration.
"""

from __future__ import annotations

import copy
import math
import re
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from conftest import ROOT

import posenc
from posenc.experiments import results as committed
from posenc.experiments.config import (
    CODE_VERSION,
    ENCODINGS,
    Config,
    config_hash,
    grid,
)
from posenc.experiments.positions import position_terms
from posenc.experiments.tasks import (
    BOS,
    bin_edges,
    eval_batch,
    make_batch,
    training_rng,
    vocab_size,
)

jax = pytest.importorskip("jax")
jnp = jax.numpy
from posenc.experiments import model  # noqa: E402

SMALL = dict(
    d_model=16,
    n_heads=2,
    d_mlp=32,
    train_length=16,
    eval_lengths=(16, 32),
    n_keys=8,
    n_values=5,
    offset=3,
    steps=4,
    warmup=1,
    batch=2,
    eval_tokens=64,
)


def small(**changes) -> Config:
    return Config(**{**SMALL, **changes})


def small_params(config: Config, seed=0) -> dict:
    params = model.init_params(config, jax.random.PRNGKey(seed))
    if config.encoding == "t5":  # non-zero biases, so that the test sees them
        params["t5"] = jax.random.normal(
            jax.random.PRNGKey(seed + 1), params["t5"].shape
        )
    return params


# --------------------------------------------------------------------------- position terms


@pytest.mark.parametrize("base", [10.0, 10000.0])
@pytest.mark.parametrize("variant", [None, "pi", "ntk"])
def test_the_model_rotates_as_posenc_rope(base, variant):
    config = small(encoding="rope", rope_base=base)
    length = 32  # twice the training length: s = 2 for the variants
    terms = position_terms(config, length, variant)
    x = np.random.default_rng(7).normal(size=(3, 2, length, config.head_dim))
    rotated = np.asarray(
        model.rotate(jnp.asarray(x, jnp.float32), terms["cos"], terms["sin"])
    )
    positions = np.arange(length, dtype=float)
    if variant == "pi":
        expected = posenc.rope(x, positions / 2.0, base)
    elif variant == "ntk":
        expected = posenc.rope(
            x, positions, posenc.ntk_base(base, 2.0, config.head_dim)
        )
    else:
        expected = posenc.rope(x, positions, base)
    np.testing.assert_allclose(rotated, expected, atol=2e-5)


def test_the_variants_are_plain_rope_up_to_the_training_length():
    config = small(encoding="rope")
    plain = position_terms(config, 16)
    for variant in ("pi", "ntk"):
        for name, value in position_terms(config, 16, variant).items():
            np.testing.assert_array_equal(value, plain[name])


def reference_logits(config, layer, h, t5_table=None):
    """Layer logits from posenc's NumPy functions, in float64: queries and keys of ``h``,
    RoPE by posenc.rope, the causal mask, ALiBi by posenc.alibi_bias, T5 by the table
    at posenc.t5_bucket(key - query)."""
    layer = {name: np.asarray(value, dtype=np.float64) for name, value in layer.items()}
    batch, n, d = h.shape
    heads, head_dim = config.n_heads, config.head_dim

    def split(w):
        return (h @ w).reshape(batch, n, heads, head_dim).transpose(0, 2, 1, 3)

    q, k = split(layer["wq"]), split(layer["wk"])
    if config.encoding == "rope":
        q = posenc.rope(q, n, config.rope_base)
        k = posenc.rope(k, n, config.rope_base)
    logits = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head_dim)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    logits = np.where(j > i, -np.inf, logits)
    if config.encoding == "alibi":
        logits = logits + posenc.alibi_bias(heads, n)
    if config.encoding == "t5":
        buckets = posenc.t5_bucket(
            j - i, bidirectional=False, num_buckets=32, max_distance=128
        )
        logits = logits + np.asarray(t5_table, np.float64)[buckets].transpose(2, 0, 1)
    return logits


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("length", [16, 200])  # 200: T5's distances beyond max_distance
def test_the_attention_logits_are_posencs(encoding, length):
    config = small(
        encoding=encoding, rope_base=100.0, eval_lengths=(16, 200), eval_tokens=200
    )
    params = small_params(config)
    layer = params["layers"][0]
    h = np.random.default_rng(3).normal(size=(2, length, config.d_model))
    terms = {n: jnp.asarray(v) for n, v in position_terms(config, length).items()}
    logits, _ = model.attention_logits(
        layer, jnp.asarray(h, jnp.float32), terms, config.n_heads, params.get("t5")
    )
    logits = np.asarray(logits, dtype=np.float64)
    expected = reference_logits(config, layer, h, params.get("t5"))
    assert np.array_equal(np.isneginf(logits), np.isneginf(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(logits[finite], expected[finite], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_absolute_encodings_are_added_to_the_embeddings(encoding):
    config = small(encoding=encoding)
    params = small_params(config)
    tokens = np.array([[0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]])
    terms = {n: jnp.asarray(v) for n, v in position_terms(config, 16).items()}
    added = (
        np.asarray(model.embed(params, tokens, terms))
        - np.asarray(params["embed"])[tokens]
    )
    if encoding == "sinusoidal":
        expected = posenc.sinusoidal(16, config.d_model)
    elif encoding == "learned":
        expected = np.asarray(params["positions"])[:16]
    else:
        expected = np.zeros((16, config.d_model))
    np.testing.assert_allclose(added[0], expected, atol=1e-6)


def test_the_learned_table_starts_at_the_sinusoidal_tables_scale():
    config = Config(encoding="learned")
    table = np.asarray(model.init_params(config, jax.random.PRNGKey(0))["positions"])
    sinusoidal_rms = np.sqrt(np.mean(posenc.sinusoidal(512, config.d_model) ** 2))
    assert table.shape == (512, config.d_model)
    assert abs(np.sqrt(np.mean(table**2)) - sinusoidal_rms) < 0.02


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_no_position_sees_the_future(encoding):
    config = small(encoding=encoding)
    params = small_params(config)
    terms = {n: jnp.asarray(v) for n, v in position_terms(config, 16).items()}
    tokens = np.random.default_rng(5).integers(0, vocab_size(config), size=(1, 16))
    changed = tokens.copy()
    changed[0, 9:] = (changed[0, 9:] + 1) % vocab_size(config)
    before = np.asarray(model.forward(params, tokens, terms, config.n_heads))
    after = np.asarray(model.forward(params, changed, terms, config.n_heads))
    np.testing.assert_array_equal(before[0, :9], after[0, :9])
    assert not np.allclose(before[0, 9:], after[0, 9:])


def test_nope_without_the_mask_would_not_see_order():
    """Control for the test above and for chapter 14's claim: NoPE's only position signal is
    the mask. With the mask removed, permuting the input permutes the output."""
    config = small(encoding="nope")
    params = small_params(config)
    tokens = np.random.default_rng(9).integers(0, vocab_size(config), size=(1, 16))
    permutation = np.random.default_rng(10).permutation(16)
    open_terms = {"mask": jnp.zeros((16, 16), jnp.float32)}
    out = np.asarray(model.forward(params, tokens, open_terms, config.n_heads))
    permuted = np.asarray(
        model.forward(params, tokens[:, permutation], open_terms, config.n_heads)
    )
    np.testing.assert_allclose(permuted[0], out[0, permutation], atol=1e-5)
    masked = {n: jnp.asarray(v) for n, v in position_terms(config, 16).items()}
    causal = np.asarray(
        model.forward(params, tokens[:, permutation], masked, config.n_heads)
    )
    assert not np.allclose(causal[0], out[0, permutation], atol=1e-3)


# --------------------------------------------------------------------------- tasks


def test_recall_asks_each_query_for_its_keys_value():
    config = small(task="recall")
    batch = make_batch(config, 32, 50, np.random.default_rng(1))
    pairs = config.train_length // 4
    for tokens, targets, weights, where in zip(
        batch.tokens, batch.targets, batch.weights, batch.where, strict=True
    ):
        assert tokens[0] == BOS
        keys, values = tokens[1 : 1 + 2 * pairs : 2], tokens[2 : 2 + 2 * pairs : 2]
        assert len(set(keys)) == pairs and np.all((keys >= 1) & (keys <= config.n_keys))
        assert np.all(values > config.n_keys) and np.all(values < vocab_size(config))
        value_of = dict(zip(keys, values, strict=True))
        for t in range(32):
            if t < 1 + 2 * pairs:
                assert weights[t] == 0
                continue
            assert weights[t] == 1 and targets[t] == value_of[tokens[t]]
            key_position = 1 + 2 * list(keys).index(tokens[t])
            assert where[t] == t - key_position


def test_offset_asks_for_the_token_k_back():
    config = small(task="offset")
    batch = make_batch(config, 32, 20, np.random.default_rng(2))
    k = config.offset
    assert np.all(batch.tokens[:, 0] == BOS) and np.all(
        batch.tokens[:, 1:] > config.n_keys
    )
    assert np.all(batch.weights[:, : k + 1] == 0) and np.all(
        batch.weights[:, k + 1 :] == 1
    )
    np.testing.assert_array_equal(
        batch.targets[:, k + 1 :], batch.tokens[:, 1 : 32 - k]
    )
    np.testing.assert_array_equal(batch.where[0, k + 1 :], np.arange(k + 1, 32))


def test_the_evaluation_sets_are_fixed_and_shared_by_the_seeds():
    first = eval_batch(small(seed=0), 32)
    again = eval_batch(small(seed=5, encoding="alibi"), 32)
    np.testing.assert_array_equal(first.tokens, again.tokens)
    assert first.tokens.shape == (64 // 32, 32)
    a = make_batch(small(seed=0), 16, 4, training_rng(small(seed=0)))
    b = make_batch(small(seed=1), 16, 4, training_rng(small(seed=1)))
    assert not np.array_equal(a.tokens, b.tokens)


def test_bins_cover_every_labelled_position():
    config = Config()
    for task in ("recall", "offset"):
        for length in config.eval_lengths:
            batch = eval_batch(Config(task=task), length)
            edges = bin_edges(config, length)
            where = batch.where[batch.weights > 0]
            assert edges[0] == 0 and edges[-1] >= length
            assert np.histogram(where, edges)[0].sum() == where.size


# --------------------------------------------------------------------------- configurations


BAD = [
    ({"task": "copy"}, "task"),
    ({"encoding": "xpos"}, "encoding"),
    ({"seed": -1}, "seed"),
    ({"rope_base": 1.0}, "rope_base"),
    ({"rope_base": math.nan}, "rope_base"),
    ({"train_length": 4}, "train_length"),
    ({"eval_lengths": ()}, "eval_lengths"),
    ({"eval_lengths": (128, 64)}, "eval_lengths"),
    ({"eval_lengths": [64, 128]}, "eval_lengths"),
    ({"eval_lengths": (16, 64)}, "eval_lengths"),
    ({"n_heads": 3}, "n_heads"),
    ({"d_model": 64, "n_heads": 64}, "n_heads"),
    ({"n_keys": 8}, "n_keys"),
    ({"offset": 64}, "offset"),
    ({"offset": 0}, "offset"),
    ({"steps": 0}, "steps"),
    ({"learning_rate": -1e-3}, "learning_rate"),
    ({"learning_rate": True}, "learning_rate"),
    ({"warmup": 1000}, "warmup"),
    ({"eval_tokens": 100}, "eval_tokens"),
    ({"batch": 2.0}, "batch"),
]


@pytest.mark.parametrize(("changes", "argument"), BAD, ids=[a for _, a in BAD])
def test_a_bad_configuration_raises_value_error_naming_the_field(changes, argument):
    with pytest.raises(ValueError, match=rf"^{argument}(?!\w)"):
        Config(**changes)


def test_bad_calls_raise_value_error_naming_the_argument():
    config = Config()
    with pytest.raises(ValueError, match=r"^length(?!\w)"):
        make_batch(config, 4, 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^rng(?!\w)"):
        make_batch(config, 64, 1, 0)
    with pytest.raises(ValueError, match=r"^variant(?!\w)"):
        position_terms(config, 64, "yarn")
    with pytest.raises(ValueError, match=r"^variant(?!\w)"):
        position_terms(Config(encoding="alibi"), 64, "pi")
    with pytest.raises(ValueError, match=r"^length(?!\w)"):
        position_terms(Config(encoding="learned"), 513)
    with pytest.raises(ValueError, match=r"^config(?!\w)"):
        Config.from_dict({"task": "recall", "colour": "blue"})
    with pytest.raises(ValueError, match=r"^config(?!\w)"):
        config_hash({"task": "recall"})
    with pytest.raises(ValueError, match=r"^length(?!\w)"):
        make_batch(Config(task="offset", offset=20), 20, 1, np.random.default_rng(0))


def test_the_hash_follows_every_field_and_the_code_version():
    config = Config()
    assert config_hash(config) == config_hash(Config.from_dict(config.as_dict()))
    assert config_hash(config) != config_hash(Config(seed=1))
    assert config_hash(config) != config_hash(Config(code_version=CODE_VERSION + 1))
    assert config_hash(config) != config_hash(Config(eval_lengths=(64, 128)))


def test_the_grid_names_each_run_once():
    names = [config.name for config in grid()]
    assert len(names) == len(set(names))
    assert {c.task for c in grid()} == {"recall", "offset"}
    assert {c.label for c in grid()} >= {"nope", "alibi", "rope-b10000", "rope-b10"}


# --------------------------------------------------------------------------- the committed
# results


@pytest.fixture(scope="module")
def records():
    return committed.load()


def test_the_committed_results_are_the_current_grid(records):
    """Every run of the grid has a record made from its current configuration: a change to
    the grid or to CODE_VERSION without `make experiments` fails here (and the chapter)."""
    assert not committed.stale(records), committed.stale(records)
    assert set(records) == {config.name for config in grid()}


def test_every_record_carries_its_provenance(records):
    for name, record in records.items():
        provenance = record["provenance"]
        assert record["config_hash"] == config_hash(committed.config_of(record)), name
        assert set(provenance["versions"]) >= {
            "python",
            "jax",
            "jaxlib",
            "optax",
            "numpy",
        }
        assert all(provenance["versions"].values()), name
        assert re.fullmatch(r"[0-9a-f]{40}", provenance["git_commit"]), name
        assert provenance["library_differs_from_commit"] is False, name
        assert provenance["wall_seconds"] > 0 and provenance["cpu_seconds"] > 0, name
        assert "--xla_cpu_multi_thread_eigen=false" in provenance["xla_flags"], name
        assert record["results"]["train"]["parameters"] > 0, name


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda r: committed.runs(r, "copy", "alibi"), "task"),
        (lambda r: committed.accuracy(r, "recall", "alibi", 100), "length"),
        (lambda r: committed.accuracy(r, "recall", "alibi", 512.0), "length"),
        (lambda r: committed.accuracy(r, "recall", "rope-b10000", 512, "yarn"), "variant"),
        (lambda r: committed.accuracy(r, "recall", "alibi", 512, "pi"), "variant"),
        (lambda r: committed.attention_profile(r, "recall", "alibi", 128), "length"),
    ],
)
def test_the_results_reader_refuses_what_the_records_do_not_hold(call, argument):
    """A task, length or variant the records do not hold is a ValueError naming the argument
    and what is allowed (it was a KeyError, or blamed the label, or for an unknown variant at
    the training length silently returned the plain scores)."""
    with pytest.raises(ValueError, match=rf"^{argument} must be"):
        call(committed.load())


def test_the_results_reader_needs_no_jax():
    """The chapter, its figures and a notebook downloaded with the wheel read the results with
    NumPy alone; `import posenc` imports no JAX either."""
    script = (
        "import sys\n"
        "import posenc\n"
        "posenc.sinusoidal(4, 8)\n"
        "assert 'jax' not in sys.modules\n"
        "from posenc.experiments import results\n"
        "from posenc.figures import ch15_experiment\n"
        "records = results.load()\n"
        "assert records and not results.stale(records)\n"
        "assert 'jax' not in sys.modules and 'optax' not in sys.modules, 'JAX imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)


def test_the_wheel_carries_the_results(tmp_path):
    """The wheel a chapter page offers holds every record (built as the site builds it)."""
    source = tmp_path / "source"
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("posenc-*.whl")
    held = {
        name.rsplit("/", 1)[-1]
        for name in zipfile.ZipFile(wheel).namelist()
        if name.startswith("posenc/experiments/results/")
    }
    assert held == {f"{config.name}.json" for config in grid()}


def test_binned_and_beyond_count_what_the_records_hold(records):
    record = records["offset-alibi-s0"]
    scores = record["results"]["eval"]["512"]
    edges, rows = committed.binned(records, "offset", "alibi", 512)
    assert rows.shape == (3, len(edges) - 1)
    count = np.array(scores["bins"]["count"])
    np.testing.assert_array_equal(np.isnan(rows[0]), count == 0)
    beyond = committed.beyond(records, "offset", "alibi", 512)[0]
    keep = np.array(scores["bins"]["edges"][:-1]) >= 64
    expected = np.array(scores["bins"]["correct"])[keep].sum() / count[keep].sum()
    assert beyond == expected
    assert np.isnan(committed.beyond(records, "offset", "alibi", 64)).all()
    overall = committed.accuracy(records, "offset", "alibi", 512)[0]
    assert overall == scores["accuracy"]


# --------------------------------------------------------------------------- reproduction

#: The configuration the test retrains: no RoPE variants to score (about a minute of CPU), and
#: its seeds differ in accuracy beyond the training length, not only in their losses.
REPRODUCED = "offset-sinusoidal-s0"
#: Tolerances: overall accuracy at each length (absolute), accuracy in each bin holding at
#: least BIN_MINIMUM labelled positions (absolute), the windowed training losses (relative).
#: On the machine and versions that made the records, a retraining (one process pinned to one core)
#: gave the same accuracies in every bin and losses within 1e-5 relative, not bit for bit: XLA's
#: results depend on the number of cores a process may use, and the grid's workers had two. The
#: tolerances leave room for another CPU's arithmetic; the negative controls below show they still
#: catch a drift or another seed.
ACCURACY_TOL, BIN_TOL, BIN_MINIMUM, LOSS_RTOL = 0.02, 0.05, 200, 0.1


def discrepancies(retrained: dict, reference: dict) -> list[str]:
    """Where ``retrained``'s numbers leave ``reference``'s by more than the tolerances."""
    found = []
    mine, theirs = retrained["results"], reference["results"]
    curves = np.array(mine["train"]["loss"]), np.array(theirs["train"]["loss"])
    off = np.abs(curves[0] - curves[1]) > LOSS_RTOL * np.abs(curves[1])
    if off.any():
        found.append(f"training loss differs in {off.sum()} of {off.size} windows")
    for group in ("eval", "variants"):
        pairs = [(mine[group], theirs[group], "")]
        if group == "variants":
            pairs = [
                (mine[group][v], theirs[group][v], f" ({v})") for v in theirs[group]
            ]
        for ours, reference_scores, what in pairs:
            for length, scores in reference_scores.items():
                accuracy = ours[length]["accuracy"]
                if abs(accuracy - scores["accuracy"]) > ACCURACY_TOL:
                    found.append(
                        f"accuracy at {length}{what}: {accuracy} against {scores['accuracy']}"
                    )
                count = np.array(scores["bins"]["count"])
                with np.errstate(invalid="ignore", divide="ignore"):
                    a = np.array(ours[length]["bins"]["correct"]) / count
                    b = np.array(scores["bins"]["correct"]) / count
                big = count >= BIN_MINIMUM
                if np.any(np.abs(a - b)[big] > BIN_TOL):
                    found.append(f"accuracy by bin at {length}{what}")
    return found


@pytest.fixture(scope="module")
def retrained(tmp_path_factory):
    """The runner, in a fresh process (it pins XLA's threads before JAX starts), retrains
    REPRODUCED into a temporary folder: about a minute of CPU."""
    out = tmp_path_factory.mktemp("retrained")
    command = [
        sys.executable,
        "-m",
        "posenc.experiments",
        "--only",
        REPRODUCED,
        "--out",
        str(out),
        "--jobs",
        "1",
    ]
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True)
    return out, command


@pytest.mark.train
def test_a_retrained_run_reproduces_its_committed_numbers(retrained, records):
    out, _ = retrained
    record = committed.load(out)[REPRODUCED]
    reference = records[REPRODUCED]
    assert record["config_hash"] == reference["config_hash"]
    assert discrepancies(record, reference) == []


@pytest.mark.train
def test_a_second_run_does_nothing(retrained):
    out, command = retrained
    path = out / f"{REPRODUCED}.json"
    before = path.read_bytes()
    done = subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True)
    assert "0 to run" in done.stdout
    assert path.read_bytes() == before


def test_drifted_numbers_fail_the_comparison(records):
    """Negative control: a committed number moved by twice its tolerance is caught."""
    reference = records[REPRODUCED]
    for move in ("accuracy", "loss"):
        drifted = copy.deepcopy(reference)
        if move == "accuracy":
            scores = drifted["results"]["eval"]["512"]
            scores["accuracy"] += (
                2 * ACCURACY_TOL * (1 if scores["accuracy"] < 0.5 else -1)
            )
        else:
            drifted["results"]["train"]["loss"][-1] *= 1 + 2 * LOSS_RTOL
        assert discrepancies(reference, drifted) != [], move


@pytest.mark.train
def test_another_seed_fails_the_comparison(retrained, records):
    """Negative control: the same configuration with another seed lies outside the
    tolerances, so a retraining that silently changed its seed (or its data) would fail."""
    out, _ = retrained
    record = committed.load(out)[REPRODUCED]
    for seed in (1, 2):
        other = records[REPRODUCED.replace("-s0", f"-s{seed}")]
        assert discrepancies(record, other) != [], seed
