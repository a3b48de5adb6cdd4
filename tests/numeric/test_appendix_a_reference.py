"""Appendix A numerics against independent references.

References: exact rationals from enumerating every sample of small designs together with the
exact noise moments (law of total variance, no formula of the code under test); mpmath at 50
digits; seeded Monte Carlo within 5 standard errors.  Tolerance: relative 1e-12 (closed forms).
"""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from numeric import (bias_correction, census_rse, ht_variance, laplace_cdf, laplace_mgf, laplace_pdf,
                     log_laplace_mean, log_laplace_variance, simulate_rse)


def srs(n_pop, n):
    samples = list(itertools.combinations(range(n_pop), n))
    return samples, [F(1, len(samples))] * len(samples)


UNEQUAL = ([(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)], [F(1, 5), F(1, 10), F(3, 10), F(1, 4), F(3, 20)])


def exact_variance(samples, probs, y, perturbed, b, corrected):
    """Var over (sample, noise) by the law of total variance, every sample enumerated, exact.
    Noise moments for mu = 0 and rational b: E e^X = 1/(1-b^2), E e^{2X} = 1/(1-4b^2)."""
    n_pop = len(y)
    pi = [sum(p for s, p in zip(samples, probs) if i in s) for i in range(n_pop)]
    m = [1 / (1 - b**2) if perturbed[i] else F(1) for i in range(n_pop)]
    m2 = [1 / (1 - 4 * b**2) if perturbed[i] else F(1) for i in range(n_pop)]
    w = [(1 - b**2) if (perturbed[i] and corrected) else F(1) for i in range(n_pop)]
    cond_mean, cond_var = [], []
    for s in samples:
        cond_mean.append(sum(w[i] * y[i] * m[i] / pi[i] for i in s))
        cond_var.append(sum((w[i] * y[i] / pi[i]) ** 2 * (m2[i] - m[i] ** 2) for i in s))
    mean = sum(p * c for p, c in zip(probs, cond_mean))
    return (sum(p * v for p, v in zip(probs, cond_var))
            + sum(p * (c - mean) ** 2 for p, c in zip(probs, cond_mean))), pi


def joint(samples, probs, n_pop):
    return np.array([[float(sum(p for s, p in zip(samples, probs) if i in s and j in s))
                      for j in range(n_pop)] for i in range(n_pop)])


@pytest.mark.parametrize("design", [srs(4, 2), srs(5, 3), srs(5, 2), UNEQUAL], ids=["srs42", "srs53", "srs52", "unequal"])
@pytest.mark.parametrize("corrected", [True, False])
@pytest.mark.parametrize("b", [F(1, 5), F(1, 3)])
def test_ht_variance_exact_enumeration(design, corrected, b):
    samples, probs = design
    n_pop = max(max(s) for s in samples) + 1
    y = [F(7), F(-3), F(11, 2), F(2), F(9)][:n_pop]
    for perturbed in itertools.product([False, True], repeat=n_pop):
        want, pi = exact_variance(samples, probs, y, perturbed, b, corrected)
        got = ht_variance([float(v) for v in y], [float(p) for p in pi], joint(samples, probs, n_pop),
                          list(perturbed), float(b), bias_corrected=corrected)
        assert got == pytest.approx(float(want), rel=1e-12, abs=1e-12)


def test_ht_variance_with_location_against_mpmath():
    """mu != 0: reference from the same total-variance enumeration with mpmath moments at 50 digits."""
    samples, probs = srs(4, 2)
    y, b, mu = [3.0, 1.0, 4.0, 1.5], [0.1, 0.2, 0.3, 0.15], [0.5, -1.0, 0.25, 2.0]
    pert = [True, False, True, True]
    with mpmath.workdps(50):
        for corrected in (True, False):
            pi = [mpmath.mpf(1) / 2] * 4
            m = [mpmath.exp(mu[i]) / (1 - mpmath.mpf(b[i]) ** 2) if pert[i] else 1 for i in range(4)]
            m2 = [mpmath.exp(2 * mu[i]) / (1 - 4 * mpmath.mpf(b[i]) ** 2) if pert[i] else 1 for i in range(4)]
            w = [1 / m[i] if (pert[i] and corrected) else 1 for i in range(4)]
            cm = [sum(w[i] * y[i] * m[i] / pi[i] for i in s) for s in samples]
            cv = [sum((w[i] * y[i] / pi[i]) ** 2 * (m2[i] - m[i] ** 2) for i in s) for s in samples]
            mean = sum(cm) / len(samples)
            want = (sum(cv) + sum((c - mean) ** 2 for c in cm)) / len(samples)
            got = ht_variance(y, [0.5] * 4, joint(samples, [F(1, 6)] * 6, 4), pert, b, mu, corrected)
            assert got == pytest.approx(float(want), rel=1e-12)


def test_census_rse_exact():
    """Census: Var = sum y_h^2 (1-b^2)^2 (1/(1-4b^2) - 1/(1-b^2)^2), exact rationals."""
    y, b = [F(1000), F(600), F(50)], F(1, 5)
    var = y[1] ** 2 * (1 - b**2) ** 2 * (1 / (1 - 4 * b**2) - 1 / (1 - b**2) ** 2)
    want = mpmath.sqrt(mpmath.mpf(var.numerator) / var.denominator) / 1650
    assert census_rse([1000.0, 600.0, 50.0], [False, True, False], 0.2) == pytest.approx(float(want), rel=1e-13)


def test_ht_variance_monte_carlo():
    """Seeded Monte Carlo over samples and noise (SRSWOR 3 of 6, b = 0.15): 5 standard errors."""
    rng = np.random.default_rng(12345)
    y = np.array([10.0, 4.0, 7.0, 1.0, 3.0, 8.0])
    pert = np.array([True, False, True, False, False, True])
    reps, n = 200_000, 3
    keys = rng.random((reps, 6))
    incl = np.argsort(keys, axis=1)[:, :n]
    noise = np.exp(rng.laplace(0.0, 0.15, (reps, 6)))
    factor = np.where(pert, (1 - 0.15**2) * noise, 1.0)
    vals = np.take_along_axis(factor * y / 0.5, incl, axis=1).sum(axis=1)
    dev2 = (vals - vals.mean()) ** 2
    mc, se = dev2.mean() * reps / (reps - 1), dev2.std(ddof=1) / np.sqrt(reps)
    pij = np.full((6, 6), n * (n - 1) / 30); np.fill_diagonal(pij, 0.5)
    assert abs(mc - ht_variance(y, np.full(6, 0.5), pij, pert, 0.15)) < 5 * se


def test_simulate_rse_monte_carlo_and_reproducible():
    """Algorithm 4.3.1 against the analytic RSE within 5 of its own standard errors (b < 1/4)."""
    for b in (0.05, 0.12, 0.2):
        rse, se = simulate_rse([1000.0, 600.0, 50.0], [False, True, False], b, 400_000, 2024, return_se=True)
        assert abs(rse - census_rse([1000.0, 600.0, 50.0], [False, True, False], b)) < 5 * se
    a = simulate_rse([3.0, 1.0], [False, True], 0.1, 1000, np.random.default_rng(5))
    assert a == simulate_rse([3.0, 1.0], [False, True], 0.1, 1000, np.random.default_rng(5))


def test_simulate_rse_extreme_magnitudes():
    """Scale invariance of the RSE: the same replicates for y and 1e±200 * y."""
    base = simulate_rse([1.0, 0.6], [False, True], 0.2, 2000, 0)
    for c in (1e-200, 1e200):
        assert simulate_rse([c, 0.6 * c], [False, True], 0.2, 2000, 0) == pytest.approx(base, rel=1e-12)


def test_infinite_and_boundary():
    pi = np.ones(2); pij = np.ones((2, 2))
    assert np.isfinite(ht_variance([1.0, 2.0], pi, pij, [True, False], 0.5 - 1e-9))
    assert ht_variance([1.0, 2.0], pi, pij, [True, False], 0.5) == np.inf
    assert ht_variance([0.0, 2.0], pi, pij, [True, False], 0.9) == 0.0  # y = 0: Corollary 3 erratum
    assert census_rse([1.0, 2.0], [True, False], 0.5) == np.inf
    assert log_laplace_variance(0.5) == np.inf and log_laplace_mean(1.0) == np.inf
    assert laplace_mgf(-2.0, 0.5) == np.inf


@pytest.mark.parametrize("call,name", [
    (lambda: laplace_mgf(1.0, 0.0), "b"), (lambda: log_laplace_variance(-1.0), "b"),
    (lambda: bias_correction(1.0), "b"), (lambda: laplace_pdf(0.0, -1.0), "b"),
    (lambda: ht_variance([1.0], [0.0], [[0.0]], [True], 0.1), "pi"),
    (lambda: ht_variance([1.0], [1.5], [[1.5]], [True], 0.1), "pi"),
    (lambda: ht_variance([1.0, 1.0], [0.5, 0.5], [[0.5, 0.2], [0.3, 0.5]], [True, True], 0.1), "pi_ij"),
    (lambda: ht_variance([1.0, 1.0], [0.5, 0.5], [[0.5, 0.2], [0.2, 0.5]], [True], 0.1), "perturbed"),
    (lambda: ht_variance([1.0, 1.0], [0.5, 0.5], [[0.5, 0.2], [0.2, 0.5]], [True, True], 0.0), "b"),
    (lambda: census_rse([1.0, -1.0], [True, False], 0.1), "y"),
    (lambda: simulate_rse([1.0], [True], 0.1, 1, 0), "reps"),
    (lambda: simulate_rse([1.0], [True], 1.2, 10, 0), "b"),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        call()


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-12, 0.4999999))
def test_log_laplace_variance_mpmath(b):
    """Relative 1e-12 against mpmath at 50 digits of the printed difference (cancellation at small b)."""
    with mpmath.workdps(50):
        B = mpmath.mpf(b)
        want = 1 / (1 - 4 * B**2) - 1 / (1 - B**2) ** 2
    assert float(log_laplace_variance(b)) == pytest.approx(float(want), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-10, 0.4999), st.floats(1e-150, 1e150), st.floats(0.01, 100.0))
def test_census_rse_mpmath_and_scaling(b, c, r):
    """mpmath reference at 50 digits; y -> c*y leaves the RSE unchanged (no overflow to nan)."""
    y = [r * c, c]
    with mpmath.workdps(50):
        B = mpmath.mpf(b)
        want = abs(mpmath.mpf(c)) * mpmath.sqrt((1 - B**2) ** 2 * (1 / (1 - 4 * B**2) - 1 / (1 - B**2) ** 2)) / (
            mpmath.mpf(r * c) + c)
    assert census_rse(y, [False, True], b) == pytest.approx(float(want), rel=1e-11)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=3, max_size=3), st.floats(1e-6, 0.49), st.lists(st.booleans(), min_size=3, max_size=3))
def test_ht_variance_properties(y, b, pert):
    """Non-negative; equals the unperturbed HT variance when nothing is perturbed; quadratic in y."""
    pi = np.full(3, 2 / 3); pij = np.full((3, 3), 1 / 3); np.fill_diagonal(pij, 2 / 3)
    v = ht_variance(y, pi, pij, pert, b)
    assert v >= 0
    y = np.array(y)
    plain = float(sum(y[i] * y[j] * (pij[i, j] - pi[i] * pi[j]) / (pi[i] * pi[j]) for i in range(3) for j in range(3)))
    assert ht_variance(y, pi, pij, [False] * 3, b) == pytest.approx(plain, rel=1e-9, abs=1e-6)
    assert ht_variance(3 * y, pi, pij, pert, b) == pytest.approx(9 * v, rel=1e-12, abs=1e-9)


def test_laplace_pdf_cdf_mpmath():
    """pdf/cdf against mpmath (50 digits) of the defining formula and its integral."""
    for x, b, mu in [(-3.0, 0.5, 0.2), (0.2, 2.0, 0.2), (4.0, 1.5, -1.0)]:
        with mpmath.workdps(50):
            pdf = mpmath.exp(-abs(mpmath.mpf(x) - mu) / b) / (2 * b)
            cdf = mpmath.quad(lambda t: mpmath.exp(-abs(t - mu) / b) / (2 * b), [-mpmath.inf, min(x, mu), x])
        assert laplace_pdf(x, b, mu) == pytest.approx(float(pdf), rel=1e-13)
        assert laplace_cdf(x, b, mu) == pytest.approx(float(cdf), rel=1e-13)
    assert isinstance(laplace_mgf(0.5, 1.0), np.floating) and laplace_mgf(0.5, [1.0, 2.0]).shape == (2,)
