"""Tests for posenc.finite_differences: central differences for gradients and Hessian
blocks.

Central differences are exact for quadratics except for rounding, and for a smooth
function their error is of order h^2; both are checked, the latter by halving h and
watching the error fall by about four. chapter 2's own code on the toy model pins the
library's evaluation order, and taylor_errors is checked on a function whose expansion
is known exactly. Bad input is tested in test_hardening.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.references import PROPERTY, smooth

from posenc import gradient, hessian_block, taylor_errors, toy_model

entries = st.floats(min_value=-3, max_value=3, allow_nan=False, allow_infinity=False)


@st.composite
def quadratics(draw, max_n=5):
    """(A, b, c, x) for f(x) = x^T A x / 2 + b^T x + c, A symmetric, entries bounded; x
    near the origin or up to 1e3 away."""
    n = draw(st.integers(1, max_n))
    a = draw(hnp.arrays(np.float64, (n, n), elements=entries))
    b = draw(hnp.arrays(np.float64, n, elements=entries))
    c = draw(entries)
    x = draw(
        hnp.arrays(np.float64, n, elements=st.one_of(entries, st.floats(-1e3, 1e3)))
    )
    return (a + a.T) / 2, b, c, x


@settings(PROPERTY, max_examples=40)
@given(quadratics(), st.sampled_from([1e-3, 1e-2, 0.5]))
def test_exact_on_quadratics(quadratic, h):
    a, b, c, x = quadratic
    n = len(x)

    def f(y):
        return 0.5 * y @ a @ y + b @ y + c

    # Exact up to rounding: a few ulps of the values of f (of size `scale`) divided by h
    # or h^2.
    reach = 1 + np.abs(x).max()
    scale = 1 + np.abs(a).sum() * reach**2 + np.abs(b).sum() * reach + abs(c)
    assert np.allclose(gradient(f, x, h=h), a @ x + b, rtol=0, atol=1e-12 * scale / h)
    assert np.allclose(
        hessian_block(f, x, range(n), range(n), h=h),
        a,
        rtol=0,
        atol=1e-12 * scale / h**2,
    )


def smooth_gradient(y):
    return np.array(
        [
            np.cos(y[0]) * np.exp(0.5 * y[1]) + y[2] ** 3,
            0.5 * np.sin(y[0]) * np.exp(0.5 * y[1]),
            3 * y[0] * y[2] ** 2,
        ]
    )


def smooth_hessian(y):
    e = np.exp(0.5 * y[1])
    return np.array(
        [
            [-np.sin(y[0]) * e, 0.5 * np.cos(y[0]) * e, 3 * y[2] ** 2],
            [0.5 * np.cos(y[0]) * e, 0.25 * np.sin(y[0]) * e, 0.0],
            [3 * y[2] ** 2, 0.0, 6 * y[0] * y[2]],
        ]
    )


def test_second_order_accuracy_on_a_smooth_function():
    x = np.array([0.3, -0.7, 1.1])
    for h in (1e-2, 5e-3):
        g_err = np.abs(gradient(smooth, x, h=h) - smooth_gradient(x)).max()
        g_err_half = np.abs(gradient(smooth, x, h=h / 2) - smooth_gradient(x)).max()
        assert 3.5 < g_err / g_err_half < 4.5  # O(h^2): halving h quarters it
        h_err = np.abs(
            hessian_block(smooth, x, range(3), range(3), h=h) - smooth_hessian(x)
        ).max()
        h_err_half = np.abs(
            hessian_block(smooth, x, range(3), range(3), h=h / 2) - smooth_hessian(x)
        ).max()
        assert 3.5 < h_err / h_err_half < 4.5
    # With the default steps the errors are near the estimates of chapter 2.
    assert np.allclose(gradient(smooth, x), smooth_gradient(x), rtol=0, atol=1e-9)
    assert np.allclose(
        hessian_block(smooth, x, range(3), range(3)),
        smooth_hessian(x),
        rtol=0,
        atol=1e-6,
    )


def test_blocks_and_indices():
    x = np.array([0.3, -0.7, 1.1])
    full = hessian_block(smooth, x, range(3), range(3))
    assert np.array_equal(
        hessian_block(smooth, x, [0, 2], [1]), full[np.ix_([0, 2], [1])]
    )
    assert np.array_equal(hessian_block(smooth, x, [-1], [0]), full[[2]][:, [0]])
    assert hessian_block(smooth, x, [], [0, 1]).shape == (0, 2)
    assert np.allclose(full, full.T, atol=1e-7)


def test_same_numbers_as_chapter_two():
    """The chapter's place/fd_gradient/fd_hessian, transcribed, on the toy model at u =
    0."""
    model = toy_model()
    d, x = model.d, model.embed("A hit B")
    zero = np.zeros(d)

    def f_tilde(u_m, u_n):
        y = x.copy()
        y[0] += u_m
        y[2] += u_n
        return model.score(y)

    def place(vector, which):
        return (vector, zero) if which == "m" else (zero, vector)

    def fd_hessian(first, second, h=1e-4):
        E = np.eye(d)

        def at(i, si, j, sj):
            a, b = place(si * h * E[i], first)
            c, e = place(sj * h * E[j], second)
            return f_tilde(a + c, b + e)

        return np.array(
            [
                [
                    (
                        at(i, 1, j, 1)
                        - at(i, 1, j, -1)
                        - at(i, -1, j, 1)
                        + at(i, -1, j, -1)
                    )
                    / (4 * h * h)
                    for j in range(d)
                ]
                for i in range(d)
            ]
        )

    h = 1e-5
    grad_m = np.array(
        [
            (f_tilde(*place(h * e, "m")) - f_tilde(*place(-h * e, "m"))) / (2 * h)
            for e in np.eye(d)
        ]
    )

    def f_flat(u):
        return f_tilde(u[:d], u[d:])

    u0 = np.zeros(2 * d)
    assert np.array_equal(gradient(f_flat, u0)[:d], grad_m)
    assert np.array_equal(
        hessian_block(f_flat, u0, range(d), range(d, 2 * d)), fd_hessian("m", "n")
    )
    assert np.array_equal(
        hessian_block(f_flat, u0, range(d), range(d)), fd_hessian("m", "m")
    )


# ------------------------------------------------------------------------ taylor_errors


def polynomial(seed, d):
    """f(u_m, u_n) = c + g.u + u^T A u / 2 + (w1.u_m)^3 + (w2.u_m)^2 (w3.u_n) +
    (w4.u_n)^3 with u = (u_m, u_n), and the exact third-order remainders of its
    expansion at 0: the whole cubic for the second-order expansion, the mixed term
    (w2.u_m)^2 (w3.u_n) for the mixed difference."""
    rng = np.random.default_rng(seed)
    c = rng.standard_normal()
    g = rng.standard_normal(2 * d)
    a = rng.standard_normal((2 * d, 2 * d))
    a = (a + a.T) / 2
    w1, w2, w3, w4 = rng.standard_normal((4, d))

    def f(u_m, u_n):
        u = np.concatenate([u_m, u_n])
        return (
            c
            + g @ u
            + u @ a @ u / 2
            + (w1 @ u_m) ** 3
            + (w2 @ u_m) ** 2 * (w3 @ u_n)
            + (w4 @ u_n) ** 3
        )

    def cubic(p_m, p_n):
        return (w1 @ p_m) ** 3 + (w2 @ p_m) ** 2 * (w3 @ p_n) + (w4 @ p_n) ** 3

    def mixed(p_m, p_n):
        return (w2 @ p_m) ** 2 * (w3 @ p_n)

    return f, a[:d, d:], cubic, mixed


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("d", [1, 3, 8])
def test_taylor_errors_are_the_exact_cubic_remainders(seed, d):
    f, cross_block, cubic, mixed = polynomial(seed, d)
    rng = np.random.default_rng(100 + seed)
    p_m, p_n = rng.standard_normal((2, d))
    epsilons = np.array([1e-2, 3e-2, 0.1, 0.3, 1.0])
    second, cross_errors, cross = taylor_errors(f, p_m, p_n, epsilons)
    assert second.shape == cross_errors.shape == epsilons.shape
    assert cross == pytest.approx(p_m @ cross_block @ p_n, rel=1e-7, abs=1e-8)
    # The differences are exact for the quadratic part up to rounding: the gradient
    # carries the cubic's truncation error h^2 = 1e-10 (times eps in the expansion), the
    # Hessian blocks a rounding error of about u |f| / h^2 = 1e-8 |f| (times eps^2
    # |p|^2). A wrong coefficient of the expansion would leave an error of order eps^2,
    # not eps^3.
    size = 1 + p_m @ p_m + p_n @ p_n
    tolerance = 1e-9 * size * epsilons + 1e-7 * size * epsilons**2
    assert np.all(np.abs(second - epsilons**3 * abs(cubic(p_m, p_n))) <= tolerance)
    assert np.all(
        np.abs(cross_errors - epsilons**3 * abs(mixed(p_m, p_n))) <= tolerance
    )


def test_taylor_errors_vanish_for_a_quadratic():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 6))
    g = rng.standard_normal(6)

    def f(u_m, u_n):
        u = np.concatenate([u_m, u_n])
        return 1.5 + g @ u + u @ a @ u

    p_m, p_n = rng.standard_normal((2, 3))
    second, cross_errors, cross = taylor_errors(f, p_m, p_n, [1e-3, 1.0, 10.0])
    assert np.all(second <= 1e-6) and np.all(cross_errors <= 1e-6)
    assert cross == pytest.approx(p_m @ (a + a.T)[:3, 3:] @ p_n, rel=1e-6)


def test_taylor_errors_of_the_toy_model_fall_like_eps_cubed():
    """Chapter 2's claim on the model itself: halving eps divides both errors by about
    8."""
    model = toy_model()
    x = model.embed("A hit B")

    def f(u_m, u_n):
        y = x.copy()
        y[0] += u_m
        y[2] += u_n
        return model.score(y)

    rng = np.random.default_rng(0)
    p_m, p_n = rng.standard_normal((2, model.d))
    epsilons = np.array([0.04, 0.02, 0.01])
    second, cross_errors, _ = taylor_errors(f, p_m, p_n, epsilons)
    for errors in (second, cross_errors):
        ratios = errors[:-1] / errors[1:]
        assert np.all((6 < ratios) & (ratios < 10)), ratios
