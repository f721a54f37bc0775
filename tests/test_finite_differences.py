"""Tests for posenc.finite_differences: central differences for gradients and Hessian blocks.

Central differences are exact for quadratics except for rounding, and for a smooth function their
error is of order h^2; both are checked, the latter by halving h and watching the error fall by
about four. The last test pins the library to chapter 2's own code on the toy model.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from posenc import gradient, hessian_block, toy_model

PROPERTY = settings(max_examples=40, deadline=None)
entries = st.floats(min_value=-3, max_value=3, allow_nan=False, allow_infinity=False)


@st.composite
def quadratics(draw, max_n=5):
    """(A, b, c, x) for f(x) = x^T A x / 2 + b^T x + c, A symmetric, entries bounded."""
    n = draw(st.integers(1, max_n))
    a = draw(hnp.arrays(np.float64, (n, n), elements=entries))
    b = draw(hnp.arrays(np.float64, n, elements=entries))
    c = draw(entries)
    x = draw(hnp.arrays(np.float64, n, elements=entries))
    return (a + a.T) / 2, b, c, x


@PROPERTY
@given(quadratics(), st.sampled_from([1e-3, 1e-2, 0.5]))
def test_exact_on_quadratics(quadratic, h):
    a, b, c, x = quadratic
    n = len(x)

    def f(y):
        return 0.5 * y @ a @ y + b @ y + c

    # Exact up to rounding: the error is a few ulps of f (at most ~100) divided by h or h^2.
    assert np.allclose(gradient(f, x, h=h), a @ x + b, rtol=0, atol=1e-10 / h)
    assert np.allclose(hessian_block(f, x, range(n), range(n), h=h), a, rtol=0,
                       atol=1e-10 / h ** 2)


def smooth(y):
    return np.sin(y[0]) * np.exp(0.5 * y[1]) + y[0] * y[2] ** 3


def smooth_gradient(y):
    return np.array([np.cos(y[0]) * np.exp(0.5 * y[1]) + y[2] ** 3,
                     0.5 * np.sin(y[0]) * np.exp(0.5 * y[1]),
                     3 * y[0] * y[2] ** 2])


def smooth_hessian(y):
    e = np.exp(0.5 * y[1])
    return np.array([[-np.sin(y[0]) * e, 0.5 * np.cos(y[0]) * e, 3 * y[2] ** 2],
                     [0.5 * np.cos(y[0]) * e, 0.25 * np.sin(y[0]) * e, 0.0],
                     [3 * y[2] ** 2, 0.0, 6 * y[0] * y[2]]])


def test_second_order_accuracy_on_a_smooth_function():
    x = np.array([0.3, -0.7, 1.1])
    for h in (1e-2, 5e-3):
        g_err = np.abs(gradient(smooth, x, h=h) - smooth_gradient(x)).max()
        g_err_half = np.abs(gradient(smooth, x, h=h / 2) - smooth_gradient(x)).max()
        assert 3.5 < g_err / g_err_half < 4.5                 # O(h^2): halving h quarters it
        h_err = np.abs(hessian_block(smooth, x, range(3), range(3), h=h) - smooth_hessian(x)).max()
        h_err_half = np.abs(hessian_block(smooth, x, range(3), range(3), h=h / 2)
                            - smooth_hessian(x)).max()
        assert 3.5 < h_err / h_err_half < 4.5
    # With the default steps the errors are near the estimates of chapter 2.
    assert np.allclose(gradient(smooth, x), smooth_gradient(x), rtol=0, atol=1e-9)
    assert np.allclose(hessian_block(smooth, x, range(3), range(3)), smooth_hessian(x),
                       rtol=0, atol=1e-6)


def test_blocks_and_indices():
    x = np.array([0.3, -0.7, 1.1])
    full = hessian_block(smooth, x, range(3), range(3))
    assert np.array_equal(hessian_block(smooth, x, [0, 2], [1]), full[np.ix_([0, 2], [1])])
    assert np.array_equal(hessian_block(smooth, x, [-1], [0]), full[[2]][:, [0]])
    assert hessian_block(smooth, x, [], [0, 1]).shape == (0, 2)
    assert np.allclose(full, full.T, atol=1e-7)


def test_same_numbers_as_chapter_two():
    """The chapter's place/fd_gradient/fd_hessian, transcribed, on the toy model at u = 0."""
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

        return np.array([[(at(i, 1, j, 1) - at(i, 1, j, -1) - at(i, -1, j, 1) + at(i, -1, j, -1))
                          / (4 * h * h) for j in range(d)] for i in range(d)])

    h = 1e-5
    grad_m = np.array([(f_tilde(*place(h * e, "m")) - f_tilde(*place(-h * e, "m"))) / (2 * h)
                       for e in np.eye(d)])

    def f_flat(u):
        return f_tilde(u[:d], u[d:])

    u0 = np.zeros(2 * d)
    assert np.array_equal(gradient(f_flat, u0)[:d], grad_m)
    assert np.array_equal(hessian_block(f_flat, u0, range(d), range(d, 2 * d)),
                          fd_hessian("m", "n"))
    assert np.array_equal(hessian_block(f_flat, u0, range(d), range(d)), fd_hessian("m", "m"))


def test_bad_input_raises_value_error_naming_the_argument():
    x = np.array([0.3, -0.7, 1.1])
    cases = [
        (lambda: gradient("sin", x), "f"),
        (lambda: gradient(smooth, [0.3, np.nan, 1.0]), "x"),
        (lambda: gradient(smooth, [[0.3, 0.1, 1.0]]), "x"),
        (lambda: gradient(smooth, []), "x"),
        (lambda: gradient(smooth, ["a", "b"]), "x"),
        (lambda: gradient(smooth, x, h=0.0), "h"),
        (lambda: gradient(smooth, x, h=-1e-3), "h"),
        (lambda: gradient(smooth, x, h=np.inf), "h"),
        (lambda: gradient(smooth, x, h="small"), "h"),
        (lambda: gradient(lambda y: y, x), "f"),                  # not a scalar
        (lambda: gradient(lambda y: np.inf if y[0] < 0.3 else 0.0, x), "f"),  # inf at x - h e_0
        (lambda: hessian_block(smooth, x, [3], [0]), "rows"),
        (lambda: hessian_block(smooth, x, [0], [0.5]), "cols"),
        (lambda: hessian_block(smooth, x, 0, [0]), "rows"),
        (lambda: hessian_block(smooth, x, [0], [True]), "cols"),
        (lambda: hessian_block(smooth, x, [0], [0], h=0), "h"),
    ]
    for call, name in cases:
        with pytest.raises(ValueError, match=rf"^{name}\b"):
            call()
