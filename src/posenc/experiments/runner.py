"""The runner of ``python -m posenc.experiments`` (``make experiments``): the grid, resumably.

Every run of :func:`posenc.experiments.config.grid` whose record in the results folder is
missing, or was made from another configuration (its ``config_hash`` differs), is trained and
evaluated; the others are left alone, so a second invocation does nothing. Runs go to worker
processes, one per core, with Eigen's threads inside XLA turned off (:data:`XLA_FLAGS`). XLA's
own thread pool still follows the cores a process may use, so the results are bit-identical for
a given machine, program, seed and number of usable cores, whichever worker ran them. If
JAX finds an accelerator, the runs go to it, one at a time. Each record is written when its run
ends (to a temporary file, then renamed), with its provenance: the configuration, the versions
of Python, JAX, jaxlib, Optax, NumPy and posenc, the git commit (and whether the library's files
differed from it), the device, the wall and CPU time and the date.

Options: ``--only PATTERN`` (runs whose name contains it), ``--jobs N``, ``--out DIR``,
``--list`` (show what would run), ``--force`` (redo even matching runs).

Derived in chapter 15 (:ref:`ch15-grid`).
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from .config import Config, config_hash, grid

#: Eigen's own threads off inside XLA. XLA's thread pool still follows the cores a process may
#: use: the grid's two workers on two cores reproduced the records bit for bit, a retraining on
#: one core agreed to about 1e-5. (The committed records also name
#: ``intra_op_parallelism_threads=1``, which is no XLA flag: XLA ignored it.)
XLA_FLAGS = "--xla_cpu_multi_thread_eigen=false"
RESULTS = Path(__file__).resolve().parent / "results"


def record_path(directory: Path, config: Config) -> Path:
    return Path(directory) / f"{config.name}.json"


def is_done(directory: Path, config: Config) -> bool:
    """Whether ``directory`` holds a finished record of exactly this configuration."""
    path = record_path(directory, config)
    if not path.is_file():
        return False
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return record.get("config_hash") == config_hash(config) and "results" in record


def pin_threads() -> None:
    """Set :data:`XLA_FLAGS` for JAX, which reads it when it starts; refuse if it started."""
    if "jax" in sys.modules:
        raise RuntimeError(
            "JAX is already imported: XLA's thread count can no longer be pinned"
        )
    flags = os.environ.get("XLA_FLAGS", "")
    if XLA_FLAGS not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} {XLA_FLAGS}".strip()


#: glibc's mallopt parameters M_TRIM_THRESHOLD and M_MMAP_THRESHOLD, and the value given to both
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _MALLOC_THRESHOLD = -1, -3, 256 * 2**20


def keep_memory() -> bool:
    """Ask glibc to keep freed memory instead of returning it to the system at once.

    XLA allocates and frees the same temporary buffers at every training step; with glibc's
    defaults each large one is a fresh ``mmap``, whose pages fault in again (10,000 page faults
    a step here). Raising the two thresholds to 256 MB cut a training step from about 64 to
    about 47 ms of CPU time on this project's machine. The results are the same: it changes
    where memory comes from, not what is computed. Returns whether glibc accepted it (other C
    libraries are left alone)."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        return bool(
            libc.mallopt(_M_TRIM_THRESHOLD, _MALLOC_THRESHOLD)
            and libc.mallopt(_M_MMAP_THRESHOLD, _MALLOC_THRESHOLD)
        )
    except (OSError, AttributeError):
        return False


def _git(*args) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def provenance_base() -> dict:
    """What every record of this invocation shares: versions, commit, device, machine."""
    from importlib.metadata import PackageNotFoundError, version

    import jax

    versions = {"python": platform.python_version()}
    for package in ("jax", "jaxlib", "optax", "numpy", "posenc"):
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = None
    library = Path(__file__).resolve().parents[1]
    # the library's sources, not the records this runner writes
    status = _git("status", "--porcelain", "--", str(library), f":(exclude){RESULTS}")
    device = jax.devices()[0]
    return {
        "versions": versions,
        "git_commit": _git("rev-parse", "HEAD"),
        "library_differs_from_commit": None if status is None else bool(status),
        "device": f"{device.platform}: {device.device_kind}",
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "machine": f"{platform.system()} {platform.machine()}, {_cpu_name()}",
        "command": "python -m posenc.experiments",
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def run_one(config_dict: dict) -> dict:
    """Worker: train and evaluate one configuration; the record without shared provenance."""
    from .train import run

    keep_memory()
    config = Config.from_dict(config_dict)
    start, cpu = time.perf_counter(), time.process_time()
    results = run(config)
    return {
        "name": config.name,
        "config": config.as_dict(),
        "config_hash": config_hash(config),
        "wall_seconds": round(time.perf_counter() - start, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "results": results,
    }


def write_record(directory: Path, record: dict, shared: dict) -> Path:
    config = Config.from_dict(record["config"])
    provenance = dict(shared)
    provenance["wall_seconds"] = record.pop("wall_seconds")
    provenance["cpu_seconds"] = record.pop("cpu_seconds")
    provenance["finished"] = datetime.datetime.now(datetime.UTC).isoformat(
        timespec="seconds"
    )
    record = {**record, "provenance": provenance}
    path = record_path(directory, config)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(dumps(record) + "\n")
    temporary.replace(path)
    return path


def dumps(value, indent: int = 0) -> str:
    """JSON with one key a line and every list of numbers on one line: readable provenance,
    compact data (``json.dumps(indent=1)`` would give every number its own line)."""
    if isinstance(value, dict) and value:
        pad = " " * (indent + 1)
        items = [
            f"{pad}{json.dumps(key)}: {dumps(value[key], indent + 1)}"
            for key in sorted(value)
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    return json.dumps(value, separators=(", ", ": "))


class Progress:
    """A one-line progress bar on a terminal; one line per finished run otherwise."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.start = time.perf_counter()
        self.live = stream.isatty()

    def update(self, name: str, seconds: float) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        left = elapsed / self.done * (self.total - self.done)
        width = 30
        filled = round(width * self.done / self.total)
        bar = "#" * filled + "." * (width - filled)
        line = (
            f"[{bar}] {self.done}/{self.total} {name} ({seconds:.0f} s); "
            f"{elapsed / 60:.1f} min elapsed, about {left / 60:.1f} min left"
        )
        if self.live:
            end = "\n" if self.done == self.total else ""
            self.stream.write("\r\033[K" + line + end)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m posenc.experiments", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--only", default="", help="runs whose name contains this")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--list", action="store_true", help="show what would run")
    parser.add_argument("--force", action="store_true", help="redo matching runs")
    args = parser.parse_args(argv)

    selected = [config for config in grid() if args.only in config.name]
    if not selected:
        parser.error(f"--only {args.only!r} matches no run of the grid")
    todo = [c for c in selected if args.force or not is_done(args.out, c)]
    # the runs of one encoding one after another: a worker compiles the model's training and
    # evaluation functions once per encoding (both tasks share them), not once per run
    labels = list(dict.fromkeys(config.label for config in grid()))
    todo.sort(key=lambda config: labels.index(config.label))
    print(
        f"posenc.experiments: {len(selected)} runs selected, "
        f"{len(selected) - len(todo)} already done, {len(todo)} to run "
        f"(results in {args.out})",
        flush=True,
    )
    if args.list:
        for config in todo:
            print(f"  {config.name}")
        return 0
    if not todo:
        return 0

    pin_threads()
    shared = provenance_base()  # imports JAX here, after the flags are set
    import jax

    accelerated = jax.default_backend() != "cpu"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    jobs = 1 if accelerated else (args.jobs or cores)
    jobs = max(1, min(jobs, len(todo)))
    print(
        f"posenc.experiments: {jobs} worker(s) on {shared['device']}; "
        f"XLA_FLAGS={os.environ['XLA_FLAGS']!r}",
        flush=True,
    )
    progress = Progress(len(todo))
    start = time.perf_counter()
    payload = [config.as_dict() for config in todo]
    if jobs == 1:
        results = map(run_one, payload)
        pool = None
    else:
        # fresh interpreters: each worker starts JAX itself, with the pinned flags
        pool = multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=None)
        results = pool.imap_unordered(run_one, payload)
    try:
        for record in results:
            name, seconds = record["name"], record["wall_seconds"]
            write_record(args.out, record, shared)
            progress.update(name, seconds)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(
        f"posenc.experiments: {len(todo)} runs in {(time.perf_counter() - start) / 60:.1f} "
        f"min with {jobs} worker(s)",
        flush=True,
    )
    return 0
