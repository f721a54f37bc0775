r"""Checks that say how strong they are, and negative controls that show they can fail.

Every theorem-like statement of the book (``{prf:theorem}``, ``{prf:lemma}``,
``{prf:proposition}``, ``{prf:corollary}``) is followed by its *check cell*. The cell asserts
the statement through the functions below, each of which raises ``AssertionError`` when the
claim fails and records what kind of evidence it gave, and over what:

- :func:`identity` and :func:`symbolic`: proved symbolically (SymPy);
- :func:`exhaustive`: checked on every case of a finite set, enumerated in full;
- :func:`grid`: checked on a grid of points of a continuum;
- :func:`sampled`: checked on N random samples;
- :func:`numerical`: checked numerically to a tolerance against an independent method.

**Every check states its scope**, and the verdict line prints it, so that a reader sees what
was covered whenever it is less than the statement claims ("for all symbol values, d ≤ 3",
"a grid of 10⁶ points in [0, 10⁴]", "60,000 draws, 15 settings"). The scope is a required
argument: a check without one (or with a blank one) raises ``ValueError`` naming the argument,
so it cannot be forgotten. A symbolic proof that covers everything its statement claims says
so explicitly with ``scope=ALL`` ("for all symbol values"), and :func:`identity` refuses that
scope for an identity that has no symbols left (a fact about particular numbers is not one
about all values). "Exhaustive" is reserved for finite sets enumerated in full: its ``cases``
may not speak of random draws, grids or samples, which have their own functions. A check of
nothing (an empty condition) fails.

The check cell's metadata holds ``falsify``, a list of mutants: small edits of the cell's own
source (``{replace: "x_m - x_n", with: "x_m + x_n"}``) that state a false claim and so must
make the cell raise ``AssertionError``. A chapter turns the machinery on with :func:`watch`
in its first cell. After each check cell has run, the watcher

1. shows a one-line verdict generated from the checks the cell recorded (the cell's code is
   folded in the book; the verdict stays visible), and
2. runs each mutant in a copy of the namespace, right where the check cell ran, and records
   whether it failed with ``AssertionError`` as it must.

A mutant that passes, fails with another exception, or does not apply (its ``replace`` text is
not in the cell), and a statement without a check cell or without mutants, is reported on
standard error, which fails the strict book build, and is recorded in the cell's output
metadata (key :data:`METADATA_KEY`), which ``tests/test_negative_controls.py`` reads from the
executed chapters. The mechanism is described in the reproducing appendix.
"""

from __future__ import annotations

import copy
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: Key of the output metadata in which the watcher records a check cell's results.
METADATA_KEY = "posenc_checks"
#: Seconds a mutant may run before it counts as hanging (a failure of the control).
MUTANT_TIMEOUT = 60
#: The scope of a symbolic proof that covers every value its statement is about.
ALL = "for all symbol values"
STATEMENT = re.compile(
    r"^(`{3,}|:{3,})\{prf:(theorem|lemma|proposition|corollary)\}[^\n]*\n"
    r"(?:[^\n]*\n)*?:label:\s*(?P<label>\S+)",
    re.MULTILINE,
)
HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)

# kinds of evidence, strongest first
SYMBOLIC, EXHAUSTIVE, NUMERICAL, GRID, SAMPLED = (
    "symbolic",
    "exhaustive",
    "numerical",
    "grid",
    "sampled",
)
_ORDER = (SYMBOLIC, EXHAUSTIVE, NUMERICAL, GRID, SAMPLED)
# words that describe a sample of a continuum or of a larger set, not a finite set in full
_NOT_EXHAUSTIVE = re.compile(
    r"\b(random|grid|sampled?|samples|draws?)\b", re.IGNORECASE
)
_MISSING = object()


@dataclass
class _Evidence:
    kind: str
    scope: str
    # samples or grid points (sampled, grid); values compared (numerical)
    count: int = 0
    tol: float = 0.0  # numerical only
    against: str = ""  # numerical only


_RECORDED: list[_Evidence] = []


def _fail(message: str):
    raise AssertionError(message)


def _truths(condition) -> np.ndarray:
    values = np.asarray(condition, dtype=bool)
    if values.size == 0:
        _fail("nothing was checked: the condition is empty")
    return values


def _scope(scope, argument: str, kind: str, example: str) -> str:
    """``scope`` if it is a non-blank string; otherwise a ``ValueError`` naming the argument."""
    if scope is _MISSING or scope is None:
        raise ValueError(
            f"{argument}: a {kind} check must say what it covered (for example "
            f"{example!r}); none was given"
        )
    if not isinstance(scope, str) or not scope.strip():
        raise ValueError(
            f"{argument}: a {kind} check must say what it covered (for example "
            f"{example!r}); got {scope!r}"
        )
    return " ".join(scope.split())


def symbolic(condition, what: str = "identity", *, scope=_MISSING) -> None:
    """Record a fact SymPy established (``condition`` is the Python truth of a SymPy
    computation, for example ``sp.solve(...) == [sp.sqrt(R)]``, or a list of them).

    ``scope`` (required) says for which values it holds: :data:`ALL` when the proof covers
    every value the statement is about, otherwise what it covers (``"for all symbol values,
    d ≤ 3"``, ``"exact arithmetic at α = 6/5"``)."""
    scope = _scope(scope, "scope", "symbolic", "for all symbol values, d ≤ 3")
    if not _truths(condition).all():
        _fail(f"not proved symbolically: {what}")
    _RECORDED.append(_Evidence(SYMBOLIC, scope))


def identity(
    lhs, rhs=0, *, simplify=None, what: str = "identity", scope=_MISSING
) -> None:
    """Prove ``lhs == rhs``: ``simplify(lhs - rhs)`` must be 0 (``sympy.simplify`` unless
    another simplifier is given).

    ``scope`` (required) is :data:`ALL` when the identity covers every value its statement is
    about, which it can only do if it has symbols; otherwise it says what the identity covers
    (``"for all symbol values, d ≤ 3"``)."""
    import sympy as sp

    scope = _scope(scope, "scope", "symbolic", "for all symbol values, d ≤ 3")
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    if scope == ALL and not (lhs.free_symbols or rhs.free_symbols):
        raise ValueError(
            f"scope: {what!r} has no symbols, so it is not a proof {ALL}; say which "
            "values it is about"
        )
    simplify = sp.simplify if simplify is None else simplify
    difference = simplify(lhs - rhs)
    if isinstance(difference, sp.MatrixBase):  # an explicit matrix: every entry is 0
        zero = all(entry == 0 for entry in difference)
    else:  # a scalar, or a matrix expression (0 as ZeroMatrix)
        zero = difference == 0 or bool(getattr(difference, "is_ZeroMatrix", False))
    if not zero:
        _fail(f"{what} fails: lhs - rhs simplifies to {difference}, not 0")
    _RECORDED.append(_Evidence(SYMBOLIC, scope))


def exhaustive(condition, cases=_MISSING) -> None:
    """Record a check of every case of a finite set, enumerated in full; ``cases`` (required)
    says which set (for example ``"every d = 2, 4, …, 512"``). A grid on a continuum or random
    draws are not exhaustive: use :func:`grid` or :func:`sampled`."""
    cases = _scope(cases, "cases", "exhaustive", "every d = 2, 4, …, 512")
    if _NOT_EXHAUSTIVE.search(cases):
        raise ValueError(
            f"cases: {cases!r} is not a finite set enumerated in full; a grid on a "
            "continuum is checked with grid(), random draws with sampled()"
        )
    values = _truths(condition).ravel()
    if not values.all():
        failing = np.flatnonzero(~values)
        _fail(
            f"fails on {failing.size} of the cases ({cases}), the first at index {failing[0]}"
        )
    _RECORDED.append(_Evidence(EXHAUSTIVE, cases, values.size))


def grid(condition, scope=_MISSING, *, points: int | None = None) -> None:
    """Record a check on a grid of points of a continuum: ``condition`` holds one truth value
    per point (or give ``points``, the number behind a single truth value); ``scope``
    (required) says where the grid lies (``"x in [0, 10⁴], five bases"``). The verdict says
    "checked on N grid points (scope)": a grid is a sample of a continuum. Checks of one cell
    with the same scope count as properties of the same points."""
    scope = _scope(scope, "scope", "grid", "x in [0, 10⁴], five bases")
    values = _truths(condition)
    n = int(values.size if points is None else points)
    if not values.all():
        _fail(f"fails at {int((~values).sum())} of {n} grid points ({scope})")
    _RECORDED.append(_Evidence(GRID, scope, n))


def sampled(condition, scope=_MISSING, *, samples: int | None = None) -> None:
    """Record a check on random samples: ``condition`` holds one truth value per sample (or
    give ``samples``, the number of samples behind a single truth value); ``scope``
    (required) says what was drawn, and from where (``"(d, t, k): d ≤ 64, |k| ≤ 10⁴"``).
    Checks of one cell with the same scope count as properties of the same draws (the
    verdict counts them once); other draws need a scope of their own."""
    scope = _scope(scope, "scope", "sampled", "(d, t, k): d ≤ 64, |k| ≤ 10⁴")
    values = _truths(condition)
    n = int(values.size if samples is None else samples)
    if not values.all():
        _fail(f"fails on {int((~values).sum())} of {n} random samples ({scope})")
    _RECORDED.append(_Evidence(SAMPLED, scope, n))


def numerical(actual, expected, tol: float, against: str, scope=_MISSING) -> None:
    """Check ``|actual - expected| <= tol`` elementwise, where ``expected`` comes from an
    independent method named by ``against`` (for example ``"mpmath at 30 digits"``);
    ``scope`` (required) says where the two were compared (``"400 points, x in [10⁻³,
    10⁶]"``, ``"the constant c₀"``)."""
    scope = _scope(scope, "scope", "numerical", "400 points, x in [10⁻³, 10⁶]")
    tol = float(tol)
    actual = np.asarray(actual, dtype=complex if np.iscomplexobj(actual) else float)
    expected = np.asarray(
        expected, dtype=complex if np.iscomplexobj(expected) else float
    )
    error = np.abs(actual - expected)
    if error.size == 0:
        _fail("nothing was checked: no values to compare")
    worst = float(np.max(error))
    if not np.all(np.isfinite(error)) or worst > tol:
        _fail(
            f"differs from {against} by {worst:.3g}, more than the tolerance {tol:.3g}"
        )
    _RECORDED.append(_Evidence(NUMERICAL, scope, error.size, tol, against))


# --------------------------------------------------------------------------- verdicts


def format_number(value: float, digits: int = 2) -> str:
    """A number as a reader writes it: ``1.2 × 10⁻³``, ``12,345``, ``0.25``."""
    from .display import format_number as _format

    return _format(value, digits)


def _by_scope(items: list[_Evidence]) -> dict[str, list[_Evidence]]:
    groups: dict[str, list[_Evidence]] = {}
    for e in items:
        groups.setdefault(e.scope, []).append(e)
    return groups


def verdict(evidence: list[_Evidence]) -> str:
    """The one-line verdict for the evidence a check cell recorded, strongest kind first,
    each with the scope its check stated."""
    parts = []
    for kind in _ORDER:
        items = [e for e in evidence if e.kind == kind]
        if not items:
            continue
        groups = _by_scope(items)
        if kind == SYMBOLIC:
            pieces = []
            for scope, group in groups.items():
                n = len(group)
                pieces.append(f"{n} {'identity' if n == 1 else 'identities'}, {scope}")
            parts.append(f"proved symbolically ({'; '.join(pieces)})")
        elif kind == EXHAUSTIVE:
            parts.append(f"checked exhaustively ({'; '.join(groups)})")
        elif kind in (GRID, SAMPLED):
            pieces = []
            for scope, group in groups.items():
                # checks with the same scope are properties of the same draws or points
                n = max(e.count for e in group)
                noun = "grid point" if kind == GRID else "random sample"
                plural = "" if n == 1 else "s"
                pieces.append(f"{format_number(n, 0)} {noun}{plural} ({scope})")
            parts.append(f"checked on {'; '.join(pieces)}")
        else:
            against = ", ".join(dict.fromkeys(e.against for e in items))
            tol = max(e.tol for e in items)
            parts.append(
                f"checked numerically to {format_number(tol, 1)} against {against} "
                f"({'; '.join(groups)})"
            )
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:]


# --------------------------------------------------------------------------- the watcher


@dataclass
class Mutant:
    replace: str
    with_: str

    def describe(self) -> str:
        return f"replace {self.replace!r} with {self.with_!r}"


@dataclass
class CheckCell:
    label: str
    kind: str
    source: str
    mutants: list[Mutant] = field(default_factory=list)


def statements(chapter) -> tuple[list[tuple[str, str]], dict[str, CheckCell]]:
    """The theorem-like statements of a chapter, as (kind, label) in order, and their check
    cells, keyed by the cell's source. A statement's check cell is the first code cell after
    it, before the next heading, whose metadata holds ``falsify``. ``chapter`` is the path of
    the chapter's source, or the chapter already read with jupytext."""
    if isinstance(chapter, (str, Path)):
        import jupytext

        chapter = jupytext.read(chapter)
    notebook = chapter
    found, cells = [], {}
    pending: list[tuple[str, str]] = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            text = cell.source
            for match in STATEMENT.finditer(text):
                # a heading after the statement ends its search for a check cell
                rest = text[match.end() :]
                statement = (match.group(2), match.group("label"))
                found.append(statement)
                pending = [] if HEADING.search(rest) else [*pending, statement]
            else:
                if HEADING.search(text) and not STATEMENT.search(text):
                    pending = []
            continue
        if cell.cell_type != "code" or not pending:
            continue
        falsify = cell.metadata.get("falsify")
        if falsify is None:
            continue
        kind, label = pending.pop(0)
        mutants = [
            Mutant(item.get("replace", ""), item.get("with", "")) for item in falsify
        ]
        cells[cell.source] = CheckCell(label, kind, cell.source, mutants)
    return found, cells


class _Timeout(Exception):
    pass


def _copy_namespace(namespace: dict) -> tuple[dict, list[np.ndarray]]:
    """A copy of the user namespace in which the cell can run without touching the original:
    containers are copied one level deep; arrays are shared but made read-only for the run
    (returned, so that they can be made writeable again)."""
    frozen = []
    copied = {}
    for name, value in namespace.items():
        if isinstance(value, np.ndarray):
            if value.flags.writeable:
                value.setflags(write=False)
                frozen.append(value)
            copied[name] = value
        elif isinstance(value, (list, dict, set)):
            copied[name] = copy.copy(value)
        else:
            copied[name] = value
    return copied, frozen


def run_mutant(source: str, mutant: Mutant, namespace: dict) -> str:
    """Run one mutant of ``source`` in a copy of ``namespace``; return its outcome:
    ``"AssertionError"`` (as it must), ``"passed"``, ``"not applicable"``, or the name of the
    exception it raised instead."""
    if not mutant.replace or mutant.replace not in source:
        return "not applicable"
    mutated = source.replace(mutant.replace, mutant.with_)
    if mutated == source:
        return "not applicable"
    from IPython.utils.capture import capture_output

    scope, frozen = _copy_namespace(namespace)

    def on_alarm(signum, frame):
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(MUTANT_TIMEOUT)
    saved = list(_RECORDED)
    try:
        with capture_output():
            exec(compile(mutated, "<mutant>", "exec"), scope)
        return "passed"
    except AssertionError:
        return "AssertionError"
    except _Timeout:
        return f"timeout after {MUTANT_TIMEOUT} s"
    except BaseException as error:  # noqa: BLE001 - any other exception is the outcome
        return type(error).__name__
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        for array in frozen:
            array.setflags(write=True)
        _RECORDED[:] = saved


class Watcher:
    """Runs after every cell of one chapter: verdicts and negative controls."""

    def __init__(self, chapter: Path, shell):
        self.chapter = chapter
        self.shell = shell
        self.statements, self.check_cells = statements(chapter)
        self.results: dict[str, dict] = {}
        for kind, label in self.statements:
            if label not in {cell.label for cell in self.check_cells.values()}:
                self.problem(
                    f"{kind} {label} has no check cell with 'falsify' mutants "
                    "before the next heading"
                )
        for cell in self.check_cells.values():
            if not cell.mutants:
                self.problem(f"{cell.label}: the check cell's 'falsify' list is empty")

    def problem(self, message: str) -> None:
        text = f"posenc.checks: {self.chapter.name}: {message}"
        # The cell's stderr fails the build; MyST-NB's error names only the cell, so the
        # message also goes to the kernel's own stderr, which the build's log shows.
        print(text, file=sys.stderr)
        if sys.__stderr__ is not None and sys.__stderr__ is not sys.stderr:
            print(text, file=sys.__stderr__, flush=True)

    def pre_run_cell(self, info) -> None:
        _RECORDED.clear()

    def post_run_cell(self, result) -> None:
        # IPython reports an exception in a callback on stdout, where the build would not see
        # it: report it on stderr, which fails the build.
        try:
            self._post_run_cell(result)
        except Exception as error:  # noqa: BLE001 - reported, then the build fails
            import traceback

            self.problem(
                f"the check watcher failed: {type(error).__name__}: {error}\n"
                + traceback.format_exc()
            )

    def _post_run_cell(self, result) -> None:
        from IPython.display import Markdown, display

        evidence = list(_RECORDED)
        _RECORDED.clear()
        if result.error_in_exec is not None or result.error_before_exec is not None:
            return
        cell = self.check_cells.get(result.info.raw_cell)
        if cell is None:
            if evidence:
                display(Markdown(f"✓ {_markdown_text(verdict(evidence))}."))
            return
        if not evidence:
            self.problem(
                f"{cell.label}: the check cell records no check (use posenc.checks: "
                "identity, symbolic, exhaustive, grid, sampled or numerical)"
            )
        outcomes = []
        for mutant in cell.mutants:
            outcome = run_mutant(cell.source, mutant, self.shell.user_ns)
            outcomes.append(
                {"replace": mutant.replace, "with": mutant.with_, "outcome": outcome}
            )
            if outcome != "AssertionError":
                self.problem(
                    f"{cell.kind} {cell.label}: the mutant "
                    f"({mutant.describe()}) {_explain(outcome)}"
                )
        killed = sum(o["outcome"] == "AssertionError" for o in outcomes)
        record = {
            "chapter": self.chapter.name,
            "label": cell.label,
            "kind": cell.kind,
            "verdict": verdict(evidence),
            "mutants": outcomes,
        }
        self.results[cell.label] = record
        n = len(outcomes)
        if killed == n:
            controls = {
                1: "Its negative control fails, as it must",
                2: "Both negative controls fail, as they must",
            }.get(n, f"All {n} negative controls fail, as they must")
        else:
            controls = f"Only {killed} of {n} negative controls fail"
        display(
            Markdown(f"✓ {_markdown_text(verdict(evidence))}. {controls}."),
            metadata={METADATA_KEY: record},
        )


def _markdown_text(text: str) -> str:
    """``text`` escaped for Markdown, so that a verdict such as ``|B_m''| <= M_m`` reads on the
    page exactly as it is recorded (no emphasis from underscores, no table from bars)."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", text)


def _explain(outcome: str) -> str:
    if outcome == "passed":
        return "passes: the check cannot tell the false claim from the true one"
    if outcome == "not applicable":
        return "does not apply: its 'replace' text is not in the cell"
    return f"fails with {outcome}, not AssertionError"


_WATCHERS: dict[int, Watcher] = {}


def watch(chapter: str) -> None:
    """Turn on verdicts and negative controls for the chapter file ``chapter`` (relative to
    the working directory, which is ``book/`` in the build and in JupyterLab; a notebook
    downloaded from the site is found under the same name with ``.ipynb``). Idempotent."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        raise RuntimeError("posenc.checks.watch runs in an IPython kernel (a notebook)")
    path = Path(chapter)
    if not path.is_file() and path.with_suffix(".ipynb").is_file():
        # a chapter downloaded from the site as a notebook carries the same cells and metadata
        path = path.with_suffix(".ipynb")
    if not path.is_file():
        raise ValueError(
            f"chapter must name the chapter's file, got {chapter!r}, which does "
            f"not exist in {Path.cwd()} (nor does {path.with_suffix('.ipynb').name})"
        )
    old = _WATCHERS.pop(id(shell), None)
    if old is not None:
        shell.events.unregister("pre_run_cell", old.pre_run_cell)
        shell.events.unregister("post_run_cell", old.post_run_cell)
    watcher = Watcher(path, shell)
    shell.events.register("pre_run_cell", watcher.pre_run_cell)
    shell.events.register("post_run_cell", watcher.post_run_cell)
    _WATCHERS[id(shell)] = watcher
