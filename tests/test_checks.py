"""posenc.checks: every check states its scope, and the verdict line says it.

The book's verdict lines are generated from what a check cell recorded; these tests pin that a
check cannot be recorded without saying what it covered, that "exhaustive" is kept for finite
sets enumerated in full, and that the verdict a reader sees carries each check's scope. The
mutant machinery itself is tested on a small book in tests/test_negative_controls.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from posenc import checks


@pytest.fixture(autouse=True)
def fresh_record():
    checks._RECORDED.clear()
    yield
    checks._RECORDED.clear()


def recorded_verdict() -> str:
    return checks.verdict(list(checks._RECORDED))


x, d = sp.symbols("x d", positive=True)

# one call per kind of check, each without its scope; the name of the scope's argument and a
# scope that the call accepts
WITHOUT_SCOPE = [
    (
        lambda **kw: checks.identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, **kw),
        "scope",
        checks.ALL,
    ),
    (
        lambda **kw: checks.symbolic(True, what="a fact", **kw),
        "scope",
        "for all symbol values, d ≤ 3",
    ),
    (lambda **kw: checks.exhaustive(np.ones(4, bool), **kw), "cases", "every n ≤ 4"),
    (lambda **kw: checks.grid(np.ones(4, bool), **kw), "scope", "x in [0, 1]"),
    (lambda **kw: checks.sampled(np.ones(4, bool), **kw), "scope", "(d, t): d ≤ 8"),
    (
        lambda **kw: checks.numerical([1.0], [1.0], 1e-9, against="mpmath", **kw),
        "scope",
        "x = 1",
    ),
]
IDS = ["identity", "symbolic", "exhaustive", "grid", "sampled", "numerical"]


@pytest.mark.parametrize(("check", "argument", "scope"), WITHOUT_SCOPE, ids=IDS)
def test_a_check_without_its_scope_is_refused(check, argument, scope):
    with pytest.raises(ValueError, match=rf"^{argument}: .* must say what it covered"):
        check()
    assert not checks._RECORDED  # nothing was recorded, so no verdict can claim it


@pytest.mark.parametrize(("check", "argument", "scope"), WITHOUT_SCOPE, ids=IDS)
@pytest.mark.parametrize("blank", ["", "   ", None, 3])
def test_a_blank_scope_is_refused(check, argument, scope, blank):
    with pytest.raises(ValueError, match=rf"^{argument}: "):
        check(**{argument: blank})


@pytest.mark.parametrize(("check", "argument", "scope"), WITHOUT_SCOPE, ids=IDS)
def test_the_same_check_with_its_scope_is_recorded_and_shown(check, argument, scope):
    """The negative control of the two tests above: with a scope, each call passes, and the
    verdict a reader sees contains the scope word for word."""
    check(**{argument: scope})
    assert len(checks._RECORDED) == 1
    assert f"{scope})" in recorded_verdict()


@pytest.mark.parametrize(
    "cases",
    [
        "a grid of 10⁶ points over five bases",
        "301 random x in [1, b]",
        "at one random larger x for each",
        "60,000 draws, 15 settings",
        "1,000 samples of (d, t)",
    ],
)
def test_exhaustive_is_kept_for_finite_sets_enumerated_in_full(cases):
    with pytest.raises(
        ValueError, match="^cases: .* not a finite set enumerated in full"
    ):
        checks.exhaustive(np.ones(3, bool), cases)
    checks.grid(
        np.ones(3, bool), cases
    )  # what the same evidence is: a grid or a sample
    assert "exhaustively" not in recorded_verdict()


def test_a_proof_for_all_values_needs_symbols():
    """An identity between numbers holds for no symbol: it says which values it is about
    (review item 9: an identity at α = 6/5 was called a proof 'for all values')."""
    alpha = sp.Rational(6, 5)
    with pytest.raises(ValueError, match="^scope: .* has no symbols"):
        checks.identity(sp.cos(2 * sp.pi * alpha * 5), 1, scope=checks.ALL)
    checks.identity(sp.cos(2 * sp.pi * alpha * 5), 1, scope="exact, at α = 6/5")
    assert recorded_verdict() == "Proved symbolically (1 identity, exact, at α = 6/5)"


def test_a_check_of_nothing_fails():
    for check in (
        lambda: checks.exhaustive([], "every case of an empty list"),
        lambda: checks.grid(np.array([], bool), "x in []"),
        lambda: checks.sampled([], "no draws"),
        lambda: checks.symbolic([], scope=checks.ALL),
        lambda: checks.numerical([], [], 1e-9, against="nothing", scope="no points"),
    ):
        with pytest.raises(AssertionError, match="nothing was checked"):
            check()


def test_false_claims_fail_with_assertion_error_naming_the_scope():
    with pytest.raises(AssertionError, match="simplifies to"):
        checks.identity(sp.sin(x) ** 2, 1, scope=checks.ALL)
    with pytest.raises(AssertionError, match=r"2 of 4 grid points \(x in \[0, 1\]\)"):
        checks.grid([True, False, True, False], "x in [0, 1]")
    with pytest.raises(AssertionError, match=r"1 of 3 random samples \(\(d, t\)\)"):
        checks.sampled([True, True, False], "(d, t)")
    with pytest.raises(AssertionError, match="first at index 1"):
        checks.exhaustive([True, False], "every n = 1, 2")
    with pytest.raises(AssertionError, match="more than the tolerance"):
        checks.numerical([1.0], [1.1], 1e-3, against="a reference", scope="one point")
    assert not checks._RECORDED


def test_the_verdict_states_each_kind_with_its_scope_strongest_first():
    checks.sampled(np.ones(60_000, bool), "60,000 draws, 15 settings", samples=60_000)
    checks.grid(np.ones((1000, 1000), bool), "x in [0, 10⁴], five bases")
    checks.numerical(
        [1.0, 2.0], [1.0, 2.0 + 1e-14], 1e-13, against="mpmath", scope="two points"
    )
    checks.identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, scope=checks.ALL)
    checks.symbolic([True, True], what="d ≤ 3", scope="for all symbol values, d ≤ 3")
    checks.symbolic(True, what="another", scope="for all symbol values, d ≤ 3")
    checks.exhaustive([True] * 9, "every d = 2, 4, …, 18")
    assert recorded_verdict() == (
        "Proved symbolically (1 identity, for all symbol values; 2 identities, for all "
        "symbol values, d ≤ 3); checked exhaustively (every d = 2, 4, …, 18); checked "
        "numerically to 10⁻¹³ against mpmath (two points); checked on 1,000,000 grid "
        "points (x in [0, 10⁴], five bases); checked on 60,000 random samples "
        "(60,000 draws, 15 settings)"
    )


def test_a_scope_is_written_on_one_line():
    checks.sampled([True], "(d, t):\n   d ≤ 64")
    assert recorded_verdict() == "Checked on 1 random sample ((d, t): d ≤ 64)"


def test_checks_with_one_scope_are_properties_of_the_same_draws():
    """Two properties of the same 40 draws are 40 samples, not 80; other draws, with a scope
    of their own, are listed beside them."""
    checks.sampled(np.ones(40, bool), "40 draws of (q, k)")
    checks.sampled(np.ones(40, bool), "40 draws of (q, k)")
    checks.sampled(np.ones(7, bool), "7 draws of x")
    assert recorded_verdict() == (
        "Checked on 40 random samples (40 draws of (q, k)); 7 random samples (7 draws of x)"
    )


def test_an_identity_between_matrices():
    n = sp.Symbol("n", integer=True, positive=True)
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    checks.identity(
        sp.block_collapse(sp.BlockMatrix([[A, B]]) * sp.BlockMatrix([[A], [B]])),
        A * A + B * B,
        scope=checks.ALL,
    )
    checks.identity(sp.Matrix([[x, 1]]) * 2, sp.Matrix([[2 * x, 2]]), scope=checks.ALL)
    with pytest.raises(AssertionError, match="simplifies to"):
        checks.identity(A * B, B * A, scope=checks.ALL)
    with pytest.raises(AssertionError, match="simplifies to"):
        checks.identity(sp.Matrix([[x, 1]]), sp.Matrix([[x, 2]]), scope=checks.ALL)
