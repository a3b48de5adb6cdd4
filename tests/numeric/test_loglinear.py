"""Log-linear risk model of sample uniques (``numeric.loglinear``; 002_89b9dd341c0215c2.txt, Section 2.1).

References, never the code under test (each test names its own):

* the closed form of the main-effects (independence) model on a full factorial of binary keys:
  mu_hat_j = n prod_i p_i(level of key i in cell j), p_i the sample margin of key i (exact fractions
  for small tables; floats for 2^16 cells);
* a different algorithm: scipy.optimize.minimize (Newton-CG with the analytic gradient and Hessian
  product) on the Poisson log-likelihood written out in the test;
* mpmath: the Hessian of the log-likelihood by numerical differentiation at 30 digits, the root of a
  cubic, the joint law of (F, f) summed over F;
* a parametric bootstrap (seeded; within 5 standard errors);
* the saturated model, by hand: lam_hat = f/pi, deviance 0, se = 1/sqrt(f);
* the numerical example of Section 3, simulated from the population (the truth is known there).
"""
from __future__ import annotations

import doctest
import math
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import numeric.loglinear
from numeric import fit_loglinear, tau1, tau2
from numeric._common import ParameterError
from numeric.loglinear import LoglinearFit

mp = mpmath.mp


# == helpers (independent of the code under test) ===========================================================
def _bits(K: int) -> np.ndarray:
    """(2^K, K) 0/1 levels of K binary keys, cell j has key i at level (j >> i) & 1."""
    return ((np.arange(2**K)[:, None] >> np.arange(K)) & 1).astype(float)


def _main_effects(K: int) -> np.ndarray:
    return np.column_stack([np.ones(2**K), _bits(K)])


def _independence_exact(f, K: int):
    """Closed form of the independence MLE in exact fractions: mu_j = n prod_i p_i, p_i the margin."""
    bits = _bits(K).astype(int)
    n = int(sum(f))
    ones = [sum(int(f[j]) for j in range(2**K) if bits[j, i]) for i in range(K)]
    mu = []
    for j in range(2**K):
        m = Fraction(n)
        for i in range(K):
            m *= Fraction(ones[i] if bits[j, i] else n - ones[i], n)
        mu.append(m)
    return mu, ones, n


def _loglik_grad_hess(X, f, pi):
    """The Poisson log-likelihood of log lam = X beta, f ~ Poisson(pi lam), written out (constants dropped)."""
    logpi = np.log(pi)

    def ll(b):
        eta = X @ b + logpi
        return float(f @ eta - np.exp(eta).sum())

    def grad(b):
        return X.T @ (f - np.exp(X @ b + logpi))

    def hessp(b, v):
        return -(X.T @ (np.exp(X @ b + logpi) * (X @ v)))

    return ll, grad, hessp


def _deviance_ref(f, mu) -> float:
    """2 sum [f log(f/mu) - (f - mu)] in mpmath (0 log 0 = 0)."""
    with mp.workdps(40):
        total = mpmath.mpf(0)
        for fj, mj in zip(f, mu):
            fj, mj = mpmath.mpf(float(fj)), mpmath.mpf(float(mj))
            total += (fj * mpmath.log(fj / mj) if fj else 0) - (fj - mj)
        return float(2 * total)


# == the closed form of the main-effects model =============================================================
@pytest.mark.parametrize("K,n,pi,seed", [(3, 40, 0.05, 1), (4, 200, 0.3, 2), (2, 12, 1.0, 3), (5, 60, 0.01, 4)])
def test_main_effects_against_the_closed_form_exact(K, n, pi, seed):
    """Reference: exact fractions, mu_j = n prod_i p_i (the independence model's MLE matches the one-way
    margins); lam = mu/pi; beta_0 = log(n prod_i (1 - p_i)/pi), beta_i = log(p_i/(1 - p_i)).  The
    counts include empty cells (the margins stay positive, so the MLE exists)."""
    rng = np.random.default_rng(seed)
    q = np.prod(np.where(_bits(K) == 1, 0.3, 0.7), axis=1)
    f = rng.multinomial(n, q)
    mu, ones, n = _independence_exact(f, K)
    assert all(0 < o < n for o in ones)
    fit = fit_loglinear(f, _main_effects(K), pi)
    assert fit.converged
    np.testing.assert_allclose(fit.mu, [float(m) for m in mu], rtol=1e-13)
    np.testing.assert_allclose(fit.lam, [float(m / Fraction(pi)) for m in mu], rtol=1e-13)
    with mp.workdps(30):
        b0 = mpmath.log(n * mpmath.fprod(1 - mpmath.mpf(o) / n for o in ones) / mpmath.mpf(pi))
        bi = [mpmath.log(mpmath.mpf(o) / (n - o)) for o in ones]
    np.testing.assert_allclose(fit.coef, [float(b0)] + [float(b) for b in bi], rtol=1e-12, atol=1e-13)
    assert fit.deviance == pytest.approx(_deviance_ref(f, [float(m) for m in mu]), rel=1e-10, abs=1e-12)


def test_main_effects_2_16_cells_closed_form_and_time():
    """Reference: the closed form in floats (sums of logs of the margins) for the 65,536-cell,
    17-parameter main-effects model of the numerical example (16 Bernoulli(0.2) keys, n = 10,000,
    pi = 0.01).  The fit must take under 5 s of CPU (the target; typically 0.1-0.3 s)."""
    K, n, pi = 16, 10_000, 0.01
    rng = np.random.default_rng(16)
    bits = _bits(K)
    f = rng.multinomial(n, np.prod(np.where(bits == 1, 0.2, 0.8), axis=1))
    X = np.column_stack([np.ones(2**K), bits])
    t0 = time.process_time()
    fit = fit_loglinear(f, X, pi)
    elapsed = time.process_time() - t0
    p1 = bits.T @ f / n
    log_mu = math.log(n) + np.where(bits == 1, np.log(p1), np.log1p(-p1)).sum(axis=1)
    assert fit.converged and fit.iterations <= 20
    np.testing.assert_allclose(fit.mu, np.exp(log_mu), rtol=1e-12)
    np.testing.assert_allclose(fit.lam, np.exp(log_mu) / pi, rtol=1e-12)
    np.testing.assert_allclose(fit.coef[1:], np.log(p1 / (1 - p1)), rtol=1e-12)
    assert elapsed < 5.0, elapsed


# == a different algorithm ================================================================================
@pytest.mark.parametrize("seed", range(5))
def test_against_scipy_minimize(seed):
    """Reference: scipy.optimize.minimize (Newton-CG, analytic gradient and Hessian product, the
    likelihood written out above, divided by sum f) on a random problem: 15 cells, intercept + 3 real
    covariates, pi_j in (0.01, 1), counts drawn from the model.  scipy stops with a score of 1e-6 to
    1e-9, so the coefficients must agree to 10 times the distance that score implies (H^{-1} score,
    plus 1e-10); the fit's own score must be smaller and its log-likelihood at least as large."""
    from scipy.optimize import minimize

    rng = np.random.default_rng(100 + seed)
    k, p = 15, 4
    X = np.column_stack([np.ones(k), rng.normal(size=(k, p - 1))])
    pi = rng.uniform(0.01, 1.0, k)
    beta = np.array([3.0, 0.5, -0.4, 0.3])
    f = rng.poisson(pi * np.exp(X @ beta)).astype(float)
    ll, grad, hessp = _loglik_grad_hess(X, f, pi)
    S = f.sum()
    ref = minimize(lambda b: -ll(b) / S, np.zeros(p), jac=lambda b: -grad(b) / S,
                   hessp=lambda b, v: hessp(b, v) / S, method="Newton-CG", options=dict(xtol=1e-14, maxiter=500))
    H = np.column_stack([-hessp(ref.x, e) for e in np.eye(p)])
    dist = np.abs(np.linalg.solve(H, grad(ref.x)))
    assert np.max(dist) < 1e-5
    fit = fit_loglinear(f, X, pi)
    assert np.all(np.abs(fit.coef - ref.x) <= 10 * dist + 1e-10), (fit.coef - ref.x, dist)
    assert np.max(np.abs(grad(fit.coef))) <= np.max(np.abs(grad(ref.x)))
    assert ll(fit.coef) >= ll(ref.x) - 1e-12 * abs(ll(ref.x))
    rel = np.max(10 * dist) + 1e-10
    np.testing.assert_allclose(fit.lam, np.exp(X @ ref.x), rtol=5 * rel)
    np.testing.assert_allclose(fit.mu, pi * np.exp(X @ ref.x), rtol=5 * rel)
    assert fit.deviance == pytest.approx(_deviance_ref(f, pi * np.exp(X @ fit.coef)), rel=1e-12)
    assert fit.deviance == pytest.approx(_deviance_ref(f, pi * np.exp(X @ ref.x)), rel=1e-6)


def test_se_against_the_numerically_differentiated_hessian():
    """Reference: -d^2 l / d beta d beta' by mpmath.diff at 30 digits of the log-likelihood written out
    in mpmath, at the fitted beta; its inverse's diagonal gives the standard errors."""
    rng = np.random.default_rng(7)
    k, p = 10, 3
    X = np.column_stack([np.ones(k), rng.normal(size=(k, 2))])
    pi = rng.uniform(0.05, 0.5, k)
    f = rng.poisson(pi * np.exp(X @ np.array([4.0, 0.3, -0.2]))).astype(float)
    fit = fit_loglinear(f, X, pi)
    with mp.workdps(30):
        Xm = [[mpmath.mpf(float(v)) for v in row] for row in X]
        lp = [mpmath.log(mpmath.mpf(float(v))) for v in pi]

        def ll(*b):
            s = mpmath.mpf(0)
            for j in range(k):
                eta = lp[j] + mpmath.fsum(Xm[j][i] * b[i] for i in range(p))
                s += f[j] * eta - mpmath.exp(eta)
            return s

        b = [mpmath.mpf(float(v)) for v in fit.coef]
        H = mpmath.matrix(p, p)
        for i in range(p):
            for j in range(p):
                order = [0] * p
                order[i] += 1
                order[j] += 1
                H[i, j] = -mpmath.diff(ll, b, tuple(order))
        cov = H**-1
        se = [float(mpmath.sqrt(cov[i, i])) for i in range(p)]
        cov = [[float(cov[i, j]) for j in range(p)] for i in range(p)]
    np.testing.assert_allclose(fit.se, se, rtol=1e-9)
    np.testing.assert_allclose(fit.cov, cov, rtol=1e-9, atol=1e-15)


def test_se_against_a_parametric_bootstrap():
    """Reference: a parametric bootstrap (seeded, 400 replicates) from the fitted model; the standard
    deviation of the refitted coefficients must be within 5 of its standard errors (sd/sqrt(2B), the
    normal approximation) of the reported se.  Expected counts 20-400: the MLE is close to normal."""
    rng = np.random.default_rng(11)
    K = 3
    X = _main_effects(K)
    pi = 0.02
    lam = np.exp(X @ np.array([8.0, -0.7, 0.4, -1.2]))
    f = rng.poisson(pi * lam)
    fit = fit_loglinear(f, X, pi)
    B = 400
    coefs = np.array([fit_loglinear(rng.poisson(fit.mu), X, pi).coef for _ in range(B)])
    sd = coefs.std(axis=0, ddof=1)
    assert np.all(np.abs(sd - fit.se) <= 5 * fit.se / math.sqrt(2 * B)), (sd, fit.se)
    # negative control: the se of the wrong (offset-free) information would be off by sqrt(pi) ~ 7x
    assert np.all(np.abs(sd - fit.se / math.sqrt(pi)) > 5 * fit.se / math.sqrt(2 * B))


# == the saturated model ==================================================================================
@pytest.mark.parametrize("pi", [0.01, 0.5, 1.0, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])
def test_saturated_model(pi):
    """Reference, by hand: with the identity design every cell has its own parameter, so mu_hat = f,
    lam_hat = f/pi, deviance 0 and, from Z' W Z = diag(f), se = 1/sqrt(f)."""
    f = np.array([1, 3, 7, 2, 50, 1000])
    fit = fit_loglinear(f, np.eye(6), pi)
    pi = np.broadcast_to(np.asarray(pi, dtype=float), (6,))
    np.testing.assert_allclose(fit.lam, f / pi, rtol=1e-13)
    np.testing.assert_allclose(fit.mu, f, rtol=1e-13)
    np.testing.assert_allclose(fit.se, 1 / np.sqrt(f), rtol=1e-12)
    assert 0.0 <= fit.deviance < 1e-20
    assert fit.df_resid == 0


def test_saturated_model_with_an_empty_cell_has_no_mle():
    """Reference, by hand: a saturated cell with f = 0 has lam_hat = 0, log lam = -inf: no MLE.  The
    error names counts and lists that cell; negative control: the same cell with f = 1 fits."""
    f = np.array([1, 3, 0, 2])
    with pytest.raises(ParameterError) as err:
        fit_loglinear(f, np.eye(4), 0.1)
    assert err.value.param == "counts" and err.value.cells.tolist() == [2]
    f[2] = 1
    assert fit_loglinear(f, np.eye(4), 0.1).converged


# == existence of the MLE ==================================================================================
def test_a_key_level_absent_from_the_sample_has_no_mle():
    """Reference, by hand: in a main-effects model the margin of each key level is fitted exactly, so a
    level with no sample unit forces mu_hat = 0 on its 2^(K-1) cells (beta_i -> -inf).  The error lists
    exactly those cells.  Negative control: one unit in one of those cells and the fit exists (the
    closed form holds)."""
    K = 4
    bits = _bits(K)
    f = np.random.default_rng(5).poisson(8.0, 2**K)
    f[bits[:, 2] == 1] = 0
    with pytest.raises(ParameterError, match="^counts ") as err:
        fit_loglinear(f, _main_effects(K), 0.1)
    assert err.value.cells.tolist() == np.flatnonzero(bits[:, 2] == 1).tolist()
    f[np.flatnonzero(bits[:, 2] == 1)[3]] = 1
    fit = fit_loglinear(f, _main_effects(K), 0.1)
    mu, _, _ = _independence_exact(f, K)
    np.testing.assert_allclose(fit.mu, [float(m) for m in mu], rtol=1e-12)


def test_a_trend_pushed_to_the_boundary_has_no_mle():
    """Reference, by hand: log lam_j = b0 + b1 j (j = 0, 1, 2) with f = (0, 0, 5): along b1 -> +inf,
    b0 + 2 b1 fixed, the likelihood increases to its supremum with mu_0, mu_1 -> 0.  Negative control:
    f = (1, 0, 5), whose positive cells determine both parameters: the MLE exists and solves the
    score equations (checked in mpmath)."""
    X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    with pytest.raises(ParameterError) as err:
        fit_loglinear([0, 0, 5], X, 0.5)
    assert err.value.cells.tolist() == [0, 1]
    fit = fit_loglinear([1, 0, 5], X, 0.5)
    with mp.workdps(30):
        b0, b1 = (mpmath.mpf(float(v)) for v in fit.coef)
        mus = [mpmath.mpf(0.5) * mpmath.exp(b0 + b1 * j) for j in range(3)]
        s0, s1 = 6 - mpmath.fsum(mus), (0 + 2 * 5) - mpmath.fsum(j * m for j, m in enumerate(mus))
    assert abs(float(s0)) < 1e-12 and abs(float(s1)) < 1e-12
    assert fit.mu[1] > 0.1


def test_zero_counts_without_a_recession_direction_keep_the_mle():
    """Reference, by hand.  (a) z = (1, -1), f = (0, 0): l(b) = -pi (e^b + e^{-b}) is maximal at b = 0,
    lam_hat = (1, 1) although every count is 0.  (b) z_1 = (1, 0), z_2 = (0, 1), z_3 = (-1, -1),
    f = (3, 0, 0): the score gives mu_2 = mu_3 = m and mu_1 = 3 + m with mu_1 mu_2 mu_3 = pi^3, so
    (3 + m) m^2 = pi^3 (the root by mpmath.findroot).  In both the positive cells leave beta
    underdetermined, and the existence check must still find no direction to the boundary."""
    fit = fit_loglinear([0, 0], [[1.0], [-1.0]], 0.5)
    np.testing.assert_allclose(fit.lam, [1.0, 1.0], rtol=1e-14)
    assert fit.coef[0] == pytest.approx(0.0, abs=1e-15) and fit.deviance == pytest.approx(2.0, rel=1e-14)
    pi = 0.3
    fit = fit_loglinear([3, 0, 0], [[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]], pi)
    with mp.workdps(30):
        m = mpmath.findroot(lambda m: (3 + m) * m**2 - mpmath.mpf(pi) ** 3, 0.05)
    np.testing.assert_allclose(fit.mu, [3 + float(m), float(m), float(m)], rtol=1e-12)
    # negative control: with an intercept, all-zero counts have no MLE
    with pytest.raises(ParameterError) as err:
        fit_loglinear([0, 0, 0], [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], pi)
    assert err.value.cells.tolist() == [0, 1, 2]


def test_extreme_offsets_converge_to_the_true_root():
    """Reference: mpmath.  The exactly independent 2 x 2 table f = (1, 3, 2, 6) (cells (r, c) = 00, 01, 10,
    11) with pi = (1/2, 1/2, 1e-300, 1): the fitted margins are those of f (rows 4, 8, columns 3, 9) and
    the cross ratio mu_00 mu_11 / (mu_01 mu_10) = pi_00 pi_11 / (pi_01 pi_10) = 1e300, so with
    mu_10 = e: (3 - e)(8 - e) = 1e300 (1 + e) e, e ~ 2.4e-299.  (A start far above the root once
    stalled here: two cells underflowed together and the information became singular.)"""
    Z = [[1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
    fit = fit_loglinear([1, 3, 2, 6], Z, [0.5, 0.5, 1e-300, 1.0])
    with mp.workdps(40):
        c = mpmath.mpf(0.5) * 1 / (mpmath.mpf(0.5) * mpmath.mpf(1e-300))
        e = mpmath.findroot(lambda e: (3 - e) * (8 - e) - c * (1 + e) * e, mpmath.mpf("2.4e-299"))
        ref = [3 - e, 1 + e, e, 8 - e]
    assert fit.converged
    np.testing.assert_allclose(fit.mu, [float(v) for v in ref], rtol=1e-12)


def test_a_badly_scaled_design_gives_the_same_fit():
    """Reference: the closed form (main effects, K = 3), with the design's columns multiplied by
    1e150, 1e-150, 1 and 3: the fitted values are unchanged, the coefficients divided by the factors."""
    K = 3
    f = np.array([5, 1, 7, 3, 2, 9, 4, 6])
    mu, _, _ = _independence_exact(f, K)
    scale = np.array([1e150, 1e-150, 1.0, 3.0])
    plain = fit_loglinear(f, _main_effects(K), 0.2)
    scaled = fit_loglinear(f, _main_effects(K) * scale, 0.2)
    np.testing.assert_allclose(scaled.mu, [float(m) for m in mu], rtol=1e-13)
    np.testing.assert_allclose(scaled.coef * scale, plain.coef, rtol=1e-12)
    np.testing.assert_allclose(scaled.se * scale, plain.se, rtol=1e-12)


def test_tiny_inclusion_probability_and_overflowing_lam():
    """Reference, by hand (exactly independent 2 x 2 table: mu_hat = f): with pi = 1e-300 lam_hat = f/pi
    is finite; with pi = 5e-324 it is beyond the float range (inf, documented), mu_hat is still f."""
    Z = [[1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
    f = np.array([1.0, 3.0, 2.0, 6.0])
    fit = fit_loglinear(f, Z, 1e-300)
    np.testing.assert_allclose(fit.lam, f * 1e300, rtol=1e-12)
    fit = fit_loglinear(f, Z, 5e-324)
    assert np.all(fit.lam == np.inf)
    np.testing.assert_allclose(fit.mu, f, rtol=1e-12)


# == inputs =================================================================================================
@pytest.mark.parametrize("Z", [
    [[1, 0, 0], [1, 0, 0], [1, 1, 1], [1, 1, 1]],        # column 2 = column 1
    [[1, 0, 2], [1, 1, 2], [1, 0, 2], [1, 1, 2]],        # column 2 = 2 x intercept
    [[1, 0, 0], [1, 1, 0], [1, 0, 0], [1, 1, 0]],        # a zero column
    [[1, 0, 1], [1, 1, 2], [1, 0, 1], [1, 1, 2]],        # column 2 = intercept + column 1
])
def test_rank_deficient_design_is_refused(Z):
    """Reference, by hand: each design has a column that is a combination of the others (negative
    control: the 2 x 2 main-effects design fits the same counts)."""
    with pytest.raises(ParameterError) as err:
        fit_loglinear([4, 5, 6, 7], Z, 0.5)
    assert err.value.param == "design_matrix"
    assert fit_loglinear([4, 5, 6, 7], [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], 0.5).converged


@pytest.mark.parametrize("kw,param", [
    (dict(counts=[1, 2, 3.5, 4]), "counts"), (dict(counts=[1, 2, -3, 4]), "counts"),
    (dict(counts=[1, 2, 3]), "design_matrix"), (dict(counts=[[1, 2, 3, 4]]), "counts"),
    (dict(design_matrix=[1, 1, 1, 1]), "design_matrix"), (dict(design_matrix=np.ones((4, 5))), "design_matrix"),
    (dict(pi=0.0), "pi"), (dict(pi=1.0000001), "pi"), (dict(pi=[0.5, 0.5]), "pi"),
    (dict(tol=0.0), "tol"), (dict(tol=1e-16), "tol"), (dict(max_iter=0), "max_iter"), (dict(max_iter=2.0), "max_iter"),
])
def test_fit_errors_name_the_parameter(kw, param):
    """Reference: the documented domains."""
    args = dict(counts=[1, 2, 3, 4], design_matrix=[[1, 0], [1, 1], [1, 0], [1, 1]], pi=0.5)
    args.update(kw)
    with pytest.raises(ParameterError) as err:
        fit_loglinear(**args)
    assert err.value.param == param and str(err.value).startswith(param)


def test_an_unconverged_fit_is_flagged_and_refused_by_tau():
    """Reference: the documented contract.  One Newton step from the start does not meet the score
    criterion on this table (its score is far from 0, checked here from the data); tau1/tau2 refuse
    the fit naming fit.  Negative control: the default max_iter converges and tau1 accepts it."""
    Z = np.array([[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], dtype=float)
    f = np.array([1, 30, 2, 600])
    fit = fit_loglinear(f, Z, 0.5, max_iter=1)
    assert not fit.converged and fit.iterations == 1
    assert np.max(np.abs(Z.T @ (f - fit.mu))) > 1e-3
    for fn in (tau1, tau2):
        with pytest.raises(ParameterError) as err:
            fn(fit)
        assert err.value.param == "fit"
    good = fit_loglinear(f, Z, 0.5)
    assert good.converged and np.max(np.abs(Z.T @ (f - good.mu))) < 1e-10
    assert tau1(good) > 0


def test_the_fit_follows_the_printed_score_equations():
    """Reference: the score equations as printed in Section 2.1, sum_j [f_j - pi_j exp(z_j' beta)] z_j = 0,
    evaluated in mpmath at the returned beta; lam_hat = exp(z' beta_hat) and mu_hat = pi lam_hat.
    Negative control for the source's other sentence (mu_hat = exp(z' beta_hat)): that rule does not
    reproduce the sample size n = sum f (it gives n/pi here), which any fit with an intercept must."""
    f = [10, 20, 30, 40]
    Z = [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]]
    pi = 0.25
    fit = fit_loglinear(f, Z, pi)
    with mp.workdps(30):
        b = [mpmath.mpf(float(v)) for v in fit.coef]
        ez = [mpmath.exp(mpmath.fsum(zi * bi for zi, bi in zip(z, b))) for z in Z]
        score = [mpmath.fsum((f[j] - pi * ez[j]) * Z[j][i] for j in range(4)) for i in range(3)]
    assert max(abs(float(s)) for s in score) < 1e-12
    np.testing.assert_allclose(fit.lam, [float(v) for v in ez], rtol=1e-14)
    np.testing.assert_allclose(fit.mu, pi * fit.lam, rtol=1e-15)
    assert fit.mu.sum() == pytest.approx(100, rel=1e-14)
    assert float(mpmath.fsum(ez)) == pytest.approx(100 / pi, rel=1e-13)        # the printed rule: 400, not 100


def test_result_is_frozen_and_read_only():
    fit = fit_loglinear([1, 3, 2, 6], [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], 0.5)
    assert isinstance(fit, LoglinearFit)
    with pytest.raises(Exception):
        fit.deviance = 1.0
    with pytest.raises(ValueError):
        fit.lam[0] = 1.0
    counts = np.array([1, 3, 2, 6])
    fit = fit_loglinear(counts, [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], 0.5)
    counts[0] = 100                                   # the fit keeps its own copy
    assert fit.counts[0] == 1


# == tau_1 and tau_2 ========================================================================================
def _joint_law(lam, pi):
    """P(F = 1 | f = 1) and E(1/F | f = 1) from the joint law F ~ Poisson(lam), f | F ~ Binomial(F, pi):
    P(F, f = 1) = e^{-lam} lam^F / F! F pi (1 - pi)^{F - 1}, summed over F >= 1 in mpmath until the
    terms vanish (50 digits)."""
    with mp.workdps(50):
        L, p = mpmath.mpf(lam), mpmath.mpf(pi)
        term = mpmath.exp(-L) * L * p                 # F = 1
        total = first = term
        inv = term
        F = 1
        while True:
            term = term * L * (1 - p) / F          # P(F + 1, f = 1) / P(F, f = 1) = lam (1 - pi) / F
            F += 1
            total += term
            inv += term / F
            if F > L and term < total * mpmath.mpf(10) ** -45:
                break
        return first / total, inv / total


LAMS = [0.01, 0.3, 1.0, 2.5, 7.0, 15.3, 40.0]
PIS = [0.005, 0.01, 0.3, 0.9, 1.0]


def test_tau_against_the_joint_law():
    """Reference: ``_joint_law`` (mpmath) summed over the sample uniques; cells with f != 1 carry
    values that would change the sums if they were counted."""
    lam = np.array([l for l in LAMS for _ in PIS] + [3.0, 0.1])
    pi = np.array([p for _ in LAMS for p in PIS] + [0.5, 0.5])
    counts = np.array([1] * (len(LAMS) * len(PIS)) + [0, 2])
    ref1 = ref2 = mpmath.mpf(0)
    for l, p in zip(lam[:-2], pi[:-2]):
        a, b = _joint_law(l, p)
        ref1 += a
        ref2 += b
    assert tau1(counts=counts, lam=lam, pi=pi) == pytest.approx(float(ref1), rel=1e-13)
    assert tau2(counts=counts, lam=lam, pi=pi) == pytest.approx(float(ref2), rel=1e-13)


def test_tau_of_a_fit_uses_its_fitted_values():
    """Reference: the saturated fit has lam_hat = f/pi (by hand), so its sample uniques have lam = 1/pi;
    the joint law at lam = 1/pi (mpmath) times the number of sample uniques."""
    pi = 0.25
    f = np.array([1, 3, 1, 7, 2, 1])
    fit = fit_loglinear(f, np.eye(6), pi)
    np.testing.assert_allclose(fit.lam, f / pi, rtol=1e-13)
    a, b = _joint_law(1 / pi, pi)
    assert tau1(fit) == pytest.approx(3 * float(a), rel=1e-13)
    assert tau2(fit) == pytest.approx(3 * float(b), rel=1e-13)
    # the same numbers from the explicit call
    assert tau1(counts=fit.counts, lam=fit.lam, pi=fit.pi) == tau1(fit)
    assert tau2(counts=f, lam=fit.lam, pi=pi) == tau2(fit)


def test_tau_limits_and_empty_sums():
    """By hand: no sample unique gives 0; pi = 1 (census) gives 1 per sample unique for every lam;
    lam = 0 gives 1 per sample unique; lam = inf gives 0 (pi < 1)."""
    for fn in (tau1, tau2):
        assert fn(counts=[0, 2, 3], lam=[1.0, 2.0, 3.0], pi=0.1) == 0.0
        assert fn(counts=[1, 1, 2], lam=[1.0, np.inf, 3.0], pi=1.0) == 2.0
        assert fn(counts=[1, 1, 2], lam=0.0, pi=0.3) == 2.0
        assert fn(counts=[1, 1, 2], lam=np.inf, pi=0.3) == 0.0


@pytest.mark.parametrize("fn", [tau1, tau2])
@pytest.mark.parametrize("call,param", [
    (lambda fn, fit: fn(fit, counts=[1]), "fit"),
    (lambda fn, fit: fn(fit, lam=[1.0]), "fit"),
    (lambda fn, fit: fn("fit"), "fit"),
    (lambda fn, fit: fn(), "fit"),
    (lambda fn, fit: fn(counts=[1, 1], lam=[1.0, 1.0]), "pi"),
    (lambda fn, fit: fn(lam=[1.0, 1.0], pi=0.5), "counts"),
    (lambda fn, fit: fn(counts=[1, 1], lam=[-1.0, 1.0], pi=0.5), "lam"),
    (lambda fn, fit: fn(counts=[1, 1], lam=[1.0, 1.0], pi=0.0), "pi"),
    (lambda fn, fit: fn(counts=[1, 0.5], lam=[1.0, 1.0], pi=0.5), "counts"),
    (lambda fn, fit: fn(counts=[1, 1, 1], lam=[1.0, 1.0], pi=0.5), "lam"),
])
def test_tau_errors_name_the_parameter(fn, call, param):
    """Reference: the documented signature (a fit alone, or counts, lam and pi as keywords)."""
    fit = fit_loglinear([1, 3, 2, 6], [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], 0.5)
    with pytest.raises(ParameterError) as err:
        call(fn, fit)
    assert err.value.param == param


# == the numerical example of Section 3, end to end ========================================================
def _numerical_example(seed: int, N: int = 1_000_000, n: int = 10_000, K: int = 16):
    """A population of N units with K independent Bernoulli(0.2) keys (Section 3), an SRS of n, the
    population and sample cell counts."""
    rng = np.random.default_rng(seed)
    cell = np.zeros(N, dtype=np.int64)
    for i in range(K):
        cell |= (rng.random(N) < 0.2).astype(np.int64) << i
    F = np.bincount(cell, minlength=2**K)
    f = np.bincount(cell[rng.choice(N, n, replace=False)], minlength=2**K)
    return F, f


def _example_check(seed: int, report: bool = False):
    """Fit the main-effects model to the sample; tau1, tau2 against the truth known from the population:
    T1 = #{j: f_j = 1, F_j = 1} and T2 = sum over sample uniques of 1/F_j.

    Tolerance, 5 standard deviations of T - tau_hat given the sample, under the model: (i) T1 is a sum
    of independent Bernoulli(p_j) (p_j = P(F_j = 1 | f_j = 1)), variance sum p_j (1 - p_j); T2 a sum of
    independent 1/F_j, variance sum E(1/F_j^2 | f_j = 1) - E(1/F_j | f_j = 1)^2, with
    E(1/F^2 | f = 1) = e^{-m} (Ei(m) - gamma - ln m)/m, m = lam (1 - pi) (the series sum_k m^k/(k!(k+1)^2)
    summed in closed form; <= 1/m^2 + 2/m^3 ... for m > 700, bounded there by 2/m^2); (ii) the
    estimation error of lam_hat by the delta method, grad' (Z' W Z)^{-1} grad (numpy, here).  A finite
    population and SRS instead of Poisson counts and Bernoulli sampling change these by O(n/N)."""
    from scipy.special import expi

    K, pi = 16, 0.01
    F, f = _numerical_example(seed)
    X = _main_effects(K)
    fit = fit_loglinear(f, X, pi)
    t1, t2 = tau1(fit), tau2(fit)
    su = f == 1
    T1 = int(np.sum(su & (F == 1)))
    T2 = float(np.sum(1.0 / F[su]))
    lam = fit.lam[su]
    m = lam * (1 - pi)
    p1 = np.exp(-m)
    e1 = -np.expm1(-m) / m
    small = m < 700
    ms = m[small]
    e2 = np.full(m.shape, 0.0)
    e2[small] = np.exp(-ms) * (expi(ms) - np.euler_gamma - np.log(ms)) / ms
    e2[~small] = 2 / m[~small] ** 2
    cov = np.linalg.inv(X.T @ (X * fit.mu[:, None]))
    g1 = -(p1 * m) @ X[su]
    g2 = ((np.exp(-m) * (1 + m) - 1) / m) @ X[su]
    sd1 = math.sqrt(np.sum(p1 * (1 - p1)) + g1 @ cov @ g1)
    sd2 = math.sqrt(np.sum(e2 - e1**2) + g2 @ cov @ g2)
    if report:
        print(f"\nseed {seed}: sample uniques {int(su.sum())}; T1 = {T1}, tau1_hat = {t1:.2f} (sd {sd1:.2f}); "
              f"T2 = {T2:.2f}, tau2_hat = {t2:.2f} (sd {sd2:.2f}); T1/SU = {T1 / su.sum():.4f}, "
              f"tau1_hat/SU = {t1 / su.sum():.4f}")
    return T1, t1, sd1, T2, t2, sd2


def test_numerical_example_end_to_end():
    """Reference: the simulated population of Section 3 (seeded): the truth T1, T2 is counted there, and
    tau1_hat, tau2_hat must be within 5 model standard deviations (see ``_example_check``).  Negative
    control: the saturated estimate lam = f/pi gives every sample unique lam = 100 and
    P(F = 1 | f = 1) = e^{-99}, so its tau1 (about 0) is far outside the same band."""
    T1, t1, sd1, T2, t2, sd2 = _example_check(2012, report=True)
    assert abs(T1 - t1) <= 5 * sd1, (T1, t1, sd1)
    assert abs(T2 - t2) <= 5 * sd2, (T2, t2, sd2)
    F, f = _numerical_example(2012)
    naive = tau1(counts=f, lam=f / 0.01, pi=0.01)                 # lam = 100 for every sample unique
    assert abs(T1 - naive) > 5 * sd1


@pytest.mark.slow
def test_numerical_example_over_many_populations():
    """Reference: as above, over 20 seeded populations: the mean of (T - tau_hat)/sd must be within 5
    standard errors of 0 (sd of the mean = 1/sqrt(20) if the model bands are right)."""
    z1, z2 = [], []
    for seed in range(20):
        T1, t1, sd1, T2, t2, sd2 = _example_check(seed, report=True)
        z1.append((T1 - t1) / sd1)
        z2.append((T2 - t2) / sd2)
    assert abs(np.mean(z1)) <= 5 / math.sqrt(20) and abs(np.mean(z2)) <= 5 / math.sqrt(20)
    assert np.std(z1) < 2.0 and np.std(z2) < 2.0


# == provenance and examples ================================================================================
def test_provenance_and_docstring_examples():
    assert fit_loglinear.__claims__ == ("ss.loglinear_score",)
    assert tau1.__claims__ == ("ss.tau1", "ss.p_population_unique")
    assert tau2.__claims__ == ("ss.tau2", "ss.expected_inverse_frequency")
    for fn in (fit_loglinear, tau1, tau2):
        assert "shlomo-skinner" in fn.__doc__ and "Section 2.1" in fn.__doc__
    assert set(numeric.loglinear.__all__) == {"fit_loglinear", "tau1", "tau2"}
    result = doctest.testmod(numeric.loglinear, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("counts", [["1", "3", "2", "6", "1"], ["1", "3"], np.array(["a", "b"]), ["x"],
                                    ("1", "3", "2", "6", "1", "0")])
def test_string_counts_are_named_not_the_design(counts):
    """Reference: the documented domain (counts nonnegative integers).  Counts made of strings are wrong
    whatever their length, so the error names counts, not the (valid, 4 x 3) design whose number of rows
    merely differs from the number of strings; the same in tau1/tau2, whose lam then must not be blamed.
    Negative control: numeric counts of the wrong length still name the design (its shape is what clashes)."""
    Z = [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]]
    with pytest.raises(ParameterError) as err:
        fit_loglinear(counts, Z, 0.5)
    assert err.value.param == "counts" and str(err.value).startswith("counts ")
    for fn in (tau1, tau2):
        with pytest.raises(ParameterError) as err:
            fn(counts=counts, lam=[1.0, 2.0, 3.0], pi=0.5)
        assert err.value.param == "counts"
    with pytest.raises(ParameterError) as err:
        fit_loglinear([1, 3, 2, 6, 1], Z, 0.5)
    assert err.value.param == "design_matrix"
