"""Tests of numeric.private_deciles (``001_1dd3d7af6edcb71d.txt``, Sections 2.2.1, 2.2.3, 2.2.4, Appendix A).

References, each independent of the code under test (every test names its own):

* the AboveThreshold law for fixed query values integrated in closed form (the integrand is a sum of
  exponentials between its kinks; every piece integrated exactly at 30 digits with mpmath);
* exact enumeration of the data for n <= 3 (all assignments of the values to the grid cells, with their
  multinomial probabilities) on top of that closed form; exact fractions when there is no noise;
* the printed formulas evaluated literally: fractions for the uniform ones, mpmath integrals of e^{-t^2/2}
  at 30 digits for the normal ones;
* order statistics and multinomial counts summed in exact fractions or mpmath;
* seeded Monte Carlo of histogram_deciles (or of the data alone), within 5 standard errors;
* the symmetry of Bin(n, 1/2) around n/2 (a probability of exactly 1/2 up to 1e-30).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from mpmath import mpf

import numeric
import numeric.private_deciles as pdm
from numeric import (decile_accuracy, empirical_decile_prob, histogram_deciles, interval_counts_prob,
                     printed_normal_bound, printed_normal_eta, printed_normal_mu, printed_uniform_bound,
                     printed_uniform_eta, printed_uniform_mu)
from numeric._common import ParameterError

DPS = 30


# == references ==============================================================================================
def _mul(A, B):
    out = {}
    for r1, c1 in A.items():
        for r2, c2 in B.items():
            out[r1 + r2] = out.get(r1 + r2, 0) + c1 * c2
    return out


def _integral(f, u, v):
    """int_u^v sum_r c_r e^{r x} dx (u = -inf or v = +inf only where every term decays)."""
    tot = mpf(0)
    for r, c in f.items():
        if r == 0:
            assert u != -mpmath.inf and v != mpmath.inf
            tot += c * (v - u)
            continue
        assert (u != -mpmath.inf or r > 0) and (v != mpmath.inf or r < 0)
        ev = 0 if v == mpmath.inf else mpmath.exp(r * v)
        eu = 0 if u == -mpmath.inf else mpmath.exp(r * u)
        tot += c * (ev - eu) / r
    return tot


def ref_at_law(y, T, eps):
    """Closed form of P(A = k), k = 0..K-1, and P(A = -1) (last) for AboveThreshold at eps on the integer query
    values y (threshold noise Lap(2/eps), query noise Lap(4/eps)): in x = t eps/4 every factor F(t - y_j),
    1 - F(t - y_k) and the threshold density is a sum of e^{r x} between consecutive kinks, integrated exactly."""
    with mpmath.workdps(DPS):
        kap = mpf(eps) / 4
        ys = [kap * mpf(int(v)) for v in y]
        xT = kap * mpf(T)
        pts = sorted(set(ys + [xT]))
        edges = [-mpmath.inf] + pts + [mpmath.inf]
        out = [mpf(0)] * (len(ys) + 1)
        for u, v in zip(edges[:-1], edges[1:]):
            pref = {2: mpmath.exp(-2 * xT)} if v <= xT else {-2: mpmath.exp(2 * xT)}   # e^{-2|x - xT|}
            for k, yk in enumerate(ys):
                if v <= yk:                       # x <= y_k: F = e^{x - y}/2
                    F, S = {1: mpmath.exp(-yk) / 2}, {0: mpf(1), 1: -mpmath.exp(-yk) / 2}
                else:                             # x >= y_k: F = 1 - e^{-(x - y)}/2
                    F, S = {0: mpf(1), -1: -mpmath.exp(yk) / 2}, {-1: mpmath.exp(yk) / 2}
                out[k] += _integral(_mul(pref, S), u, v)
                pref = _mul(pref, F)
            out[-1] += _integral(pref, u, v)
        return out


def _cell_masses(dist, g):
    """P(X in cell r), r = 0..K: cell 0 = (-inf, g_1), cell r = [g_r, g_{r+1}), cell K = [g_K, inf) (mpmath)."""
    with mpmath.workdps(DPS):
        if dist == "uniform":
            G = [min(max(mpf(v), 0), 1) for v in g]
        else:
            G = [mpmath.ncdf(mpf(v)) for v in g]
        G = [mpf(0)] + G + [mpf(1)]
        return [G[r + 1] - G[r] for r in range(len(g) + 1)]


def ref_decile_law(n, K, eps, dist, a, b):
    """law[d][k]: every assignment of the n values to the K + 1 cells of the grid (with its multinomial
    probability), its counts c_j = #{values in cells < j}, and the closed-form AboveThreshold law at eps/9 for
    the nine thresholds d n/10."""
    g = pdm._grid(a, b, K)                                   # the grid the method uses (floats, read exactly)
    mass = _cell_masses(dist, g)
    law = [[mpf(0)] * (K + 1) for _ in range(9)]
    with mpmath.workdps(DPS):
        for cells in itertools.combinations_with_replacement(range(K + 1), n):
            w = mpf(math.factorial(n))
            for r in set(cells):
                w /= math.factorial(cells.count(r))
            for r in cells:
                w *= mass[r]
            counts = [sum(1 for r in cells if r < j) for j in range(1, K + 1)]
            for d in range(1, 10):
                for k, v in enumerate(ref_at_law(counts, mpf(d * n) / 10, mpf(eps) / 9)):
                    law[d - 1][k] += w * v
    return law


def _members(i, gamma, a, b, K):
    """Grid indices J (1..K) with |g_J - i/10| <= gamma, in exact fractions of the decimals."""
    A, B, D, G = Fraction(str(a)), Fraction(str(b)), Fraction(i, 10), Fraction(str(gamma))
    return [J for J in range(1, K + 1) if abs(A + J * (B - A) / K - D) <= G]


def _bin_cdf_frac(k, n, p):
    """P(Bin(n, p) <= k) in fractions (p a Fraction)."""
    return sum((math.comb(n, j) * p**j * (1 - p)**(n - j) for j in range(0, min(k, n) + 1)), Fraction(0))


# == histogram_deciles =========================================================================================
def _deciles_by_hand(x, steps, a, b):
    """Reference: no noise, one data set: for each d the first grid point with more than d n/10 values below
    it, else b (a loop over the grid; the grid from exact fractions of a, b)."""
    n = len(x)
    out = []
    for d in range(1, 10):
        est = b
        for j in range(1, steps + 1):
            g = float(Fraction(a) + j * (Fraction(b) - Fraction(a)) / steps)
            if sum(1 for v in x if v < g) > d * n / 10:
                est = g
                break
        out.append(est)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_histogram_noiseless_is_the_first_grid_point_above(seed):
    """Reference: a plain loop over the grid (exact-fraction grid points) counting the values below each
    (no noise: eps = inf); data partly outside [a, b] (they count like any other value)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.3, 0.6, size=57)
    got = histogram_deciles(x, math.inf, 13, -0.5, 1.5)
    assert got.tolist() == pytest.approx(_deciles_by_hand(x.tolist(), 13, -0.5, 1.5), abs=1e-15)


def test_histogram_edges_by_hand():
    """Reference: worked by hand.  All values above b: no count ever exceeds d n/10 > 0, output -1 -> b.
    All values below a: f_1 = n > d n/10, the first grid point a + (b - a)/steps.  Negative control: the
    printed map AboveThreshold * (b - a)/steps would give (b - a)/steps - the offset a matters."""
    assert histogram_deciles([5.0, 6.0, 7.0], math.inf, 4, 0.0, 2.0).tolist() == [2.0] * 9
    out = histogram_deciles([-5.0, -6.0], math.inf, 4, 1.0, 3.0)
    assert out.tolist() == [1.5] * 9
    assert 0 * (3.0 - 1.0) / 4 not in out.tolist() and (3.0 - 1.0) / 4 not in out.tolist()


def test_histogram_rows_are_separate_data_sets():
    """Reference: the same method applied row by row (no noise: exact)."""
    rng = np.random.default_rng(5)
    x = rng.random((4, 3, 25))
    got = histogram_deciles(x, math.inf, 10, 0.0, 1.0)
    assert got.shape == (4, 3, 9)
    for idx in np.ndindex(4, 3):
        assert got[idx].tolist() == _deciles_by_hand(x[idx].tolist(), 10, 0.0, 1.0)


def test_histogram_seeded_and_on_the_grid():
    """Reference: the grid a + j (b - a)/steps computed independently; the same seed gives the same draws."""
    x = np.linspace(0.01, 0.99, 40)
    a1 = histogram_deciles(x, 1.0, 8, 0.0, 1.0, rng=3)
    a2 = histogram_deciles(x, 1.0, 8, 0.0, 1.0, rng=np.random.default_rng(3))
    assert a1.tolist() == a2.tolist()
    grid = {j / 8 for j in range(1, 9)}
    assert set(a1.tolist()) <= grid


def test_histogram_one_call_law_against_closed_form():
    """Reference: the closed-form AboveThreshold law at eps/9 for the counts of a fixed data set; seeded Monte
    Carlo of 40000 runs, every output frequency within 5 SE (negative control: the law at eps instead of
    eps/9 is rejected)."""
    x = np.array([0.05, 0.12, 0.18, 0.33, 0.35, 0.41, 0.52, 0.66, 0.71, 0.93])
    K, eps, reps = 5, 4.0, 40000
    g = [j / K for j in range(1, K + 1)]
    counts = [int(np.sum(x < gj)) for gj in g]
    out = histogram_deciles(np.broadcast_to(x, (reps, x.size)), eps, K, 0.0, 1.0, rng=11)
    rejected = 0
    for d in (2, 5, 8):
        law = [float(v) for v in ref_at_law(counts, d * x.size / 10, eps / 9)]
        wrong = [float(v) for v in ref_at_law(counts, d * x.size / 10, eps)]
        freq = [float(np.mean(out[:, d - 1] == gj)) for gj in g]
        p = law[:K]                                       # -1 -> b = g_K: its mass joins the last point
        p[-1] += law[K]
        q = wrong[:K]
        q[-1] += wrong[K]
        for f, pk, qk in zip(freq, p, q):
            se = math.sqrt(max(pk * (1 - pk), 1.0 / reps) / reps)
            assert abs(f - pk) <= 5 * se, (d, freq, p)
            rejected += abs(f - qk) > 5 * se
    assert rejected > 0


def test_histogram_calls_against_above_threshold_sampler():
    """Reference: numeric.above_threshold.above_threshold (the AboveThreshold sampler) on the counts of a fixed
    data set at eps/9, seeded: every output frequency of the two samplers within 5 SE of each other (40000 runs
    each)."""
    from numeric import _above_threshold as at
    x = np.array([0.05, 0.12, 0.18, 0.33, 0.35, 0.41, 0.52, 0.66, 0.71, 0.93])
    K, eps, reps = 5, 4.0, 40000
    counts = np.array([np.sum(x < j / K) for j in range(1, K + 1)], dtype=float)
    ours = histogram_deciles(np.broadcast_to(x, (reps, x.size)), eps, K, 0.0, 1.0, rng=21)
    for d in (3, 6):
        theirs = np.asarray(at.above_threshold(counts, d * x.size / 10, eps / 9, rng=22, size=reps))
        est = np.where(theirs < 0, 1.0, (theirs + 1) / K)                 # g_{k+1}, b for -1
        for v in np.unique(np.concatenate([est, ours[:, d - 1]])):
            f1, f2 = np.mean(ours[:, d - 1] == v), np.mean(est == v)
            p = 0.5 * (f1 + f2)
            assert abs(f1 - f2) <= 5 * math.sqrt(max(p * (1 - p), 1.0 / reps) * 2 / reps), (d, v, f1, f2)


# == the AboveThreshold law inside the exact computation ==========================================================
@pytest.mark.parametrize("y,T,eps", [([0, 3, 5, 5, 9], [4.0, 6.5], 2.0), ([0, 3, 5, 5, 9], [4.0], 0.3),
                                     ([1, 1, 2, 7], [3.0, 0.5], 20.0), ([0, 2, 40, 41], [2.5, 40.5], 400.0),
                                     ([5], [5.0], 1.0), ([0, 0, 0], [0.0], 9.0)])
def test_vectorised_at_law_against_closed_form(y, T, eps):
    """Reference: the closed form (30 digits).  The quadrature in t and the recursion of the exact law, on a
    chain with one state per step (its own thresholds share the nodes, or get their own origins when far
    apart: eps = 400)."""
    got = pdm._at_law(y, T, eps)
    for row, t in zip(got, T):
        ref = np.array([float(v) for v in ref_at_law(y, t, eps)])
        np.testing.assert_allclose(row, ref, rtol=0, atol=1e-13)


def test_vectorised_at_law_against_above_threshold_pmf():
    """Reference: numeric.above_threshold.above_threshold_pmf (its own integration of the same law)."""
    from numeric import _above_threshold as at
    rng = np.random.default_rng(4)
    for _ in range(4):
        y = np.sort(rng.integers(0, 30, size=12))
        T = float(rng.integers(5, 25)) + 0.5
        eps = float(rng.choice([0.3, 2.0, 15.0]))
        ref = np.asarray(at.above_threshold_pmf(y.astype(float), T, eps), dtype=float)
        got = pdm._at_law(y, [T], eps)[0]
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


# == decile_accuracy ================================================================================================
_TINY = [(1, 3, 0.7, "uniform", 0.0, 1.0), (3, 3, 6.0, "uniform", 0.0, 1.0), (2, 3, 2.0, "uniform", -0.5, 1.25),
         (2, 3, 3.0, "normal", -1.5, 1.5), (3, 2, 0.5, "normal", -1.0, 0.5)]


@pytest.mark.parametrize("n,K,eps,dist,a,b", _TINY)
def test_exact_law_against_enumeration(n, K, eps, dist, a, b):
    """Reference: exact enumeration of the data (n <= 3) and the closed-form AboveThreshold law at eps/9."""
    pdm._law.cache_clear()
    law, bound = pdm._law(n, K, eps, dist, a, b)
    ref = np.array([[float(v) for v in row] for row in ref_decile_law(n, K, eps, dist, a, b)])
    np.testing.assert_allclose(law, ref, rtol=0, atol=1e-12)
    assert bound < 1e-12


@pytest.mark.parametrize("n,K,eps", [(1, 3, 0.7), (3, 3, 6.0)])
def test_decile_accuracy_tiny_against_enumeration(n, K, eps):
    """Reference: exact enumeration (as above); the grid points in [i/10 - gamma, i/10 + gamma] found in exact
    fractions, the estimate b for the output -1."""
    law = ref_decile_law(n, K, eps, "uniform", 0.0, 1.0)
    for i in range(1, 10):
        for gamma in (0.0, 0.05, 0.15, 0.3, 0.9):
            J = _members(i, gamma, 0.0, 1.0, K)
            ref = sum(float(law[i - 1][j - 1]) for j in J) + (float(law[i - 1][K]) if K in J else 0.0)
            assert decile_accuracy(n, i, gamma, eps, K, "uniform") == pytest.approx(ref, abs=1e-12)


def test_decile_accuracy_noiseless_exact_fractions():
    """Reference: exact fractions.  No noise: A_d is the first grid point with more than d n/10 values below it
    (enumeration of the cells of 3 uniform values, grid 1/5..5/5)."""
    n, K = 3, 5
    mass = [Fraction(1, K)] * K + [Fraction(0)]           # cells (-inf, 1/5), [1/5, 2/5), ..., [1, inf)
    for d in range(1, 10):
        law = [Fraction(0)] * (K + 1)
        for cells in itertools.product(range(K + 1), repeat=n):
            w = Fraction(1)
            for r in cells:
                w *= mass[r]
            counts = [sum(1 for r in cells if r < j) for j in range(1, K + 1)]
            k = next((k for k, c in enumerate(counts) if c > Fraction(d * n, 10)), K)
            law[k] += w
        for gamma in (0.0, 0.1, 0.25):
            J = _members(d, gamma, 0.0, 1.0, K)
            ref = sum(law[j - 1] for j in J) + (law[K] if K in J else 0)
            assert decile_accuracy(n, d, gamma, math.inf, K, "uniform") == pytest.approx(float(ref), abs=1e-14)


def test_decile_accuracy_against_monte_carlo():
    """Reference: seeded Monte Carlo of histogram_deciles on uniform data (n = 40, 8 grid points, eps = 3) and
    normal data (n = 30, 10 points on [-2, 2], eps = 5), 20000 runs: the frequency of every grid value of every
    decile within 5 SE of the exact law."""
    for n, K, eps, dist, a, b, seed in ((40, 8, 3.0, "uniform", 0.0, 1.0, 1), (30, 10, 5.0, "normal", -2.0, 2.0, 2)):
        reps = 20000
        rng = np.random.default_rng(seed)
        x = rng.random((reps, n)) if dist == "uniform" else rng.standard_normal((reps, n))
        out = histogram_deciles(x, eps, K, a, b, rng=rng)
        law, _ = pdm._law(n, K, eps, dist, a, b)
        g = pdm._grid(a, b, K)
        for d in range(9):
            p = law[d, :K].copy()
            p[-1] += law[d, K]
            freq = np.array([np.mean(out[:, d] == gj) for gj in g])
            se = np.sqrt(np.maximum(p * (1 - p), 1.0 / reps) / reps)
            assert np.all(np.abs(freq - p) <= 5 * se), (dist, d, freq, p)


@pytest.mark.parametrize("n,K,eps,dist", [(400, 25, 0.3, "uniform"), (1000, 10, 0.5, "normal"),
                                          (600, 40, 1.5, "uniform")])
def test_quadrature_rule_against_cells_everywhere(n, K, eps, dist, monkeypatch):
    """Reference: the same law with every integer t of [0, n] a panel end (no kink inside any panel: Gauss-
    Legendre on analytic pieces).  The rule of large n (coarser panels away from the thresholds, kinks
    inside them) is forced here on small n."""
    a, b = (0.0, 1.0) if dist == "uniform" else (-4.0, 4.0)
    monkeypatch.setattr(pdm, "_CELL_NODES", 0)                 # the rule of large n, even here
    pdm._law.cache_clear()
    law, _ = pdm._law(n, K, eps, dist, a, b)
    monkeypatch.setattr(pdm, "_CELL_NODES", 10**9)
    pdm._law.cache_clear()
    ref, _ = pdm._law(n, K, eps, dist, a, b)
    pdm._law.cache_clear()
    assert 0 < np.max(np.abs(law - ref)) < 1e-9


def test_small_n_rule_against_finer_rule(monkeypatch):
    """Reference: every integer a panel end with 10 Gauss-Legendre nodes on pieces of at most 0.05 scales (many
    grid points per count value: n = 100, steps = 100, and the per-decile origins at eps = 60)."""
    for args in ((100, 100, 1.0, "uniform", 0.0, 1.0), (150, 12, 60.0, "normal", -4.0, 4.0)):
        pdm._law.cache_clear()
        law, _ = pdm._law(*args)
        monkeypatch.setattr(pdm, "_ORDERS", ((0.3, 10),))
        monkeypatch.setattr(pdm, "_H_NEAR", 0.05)
        monkeypatch.setattr(pdm, "_H_FAR", 0.05)
        pdm._law.cache_clear()
        ref, _ = pdm._law(*args)
        monkeypatch.undo()
        pdm._law.cache_clear()
        assert np.max(np.abs(law - ref)) < 1e-14


def test_law_is_a_probability_law():
    """Reference: total probability (the nine laws sum to 1 within the stated truncation bound + 1e-12)."""
    for args in ((500, 30, 0.5, "normal", -4.0, 4.0), (700, 15, 2.0, "uniform", 0.0, 1.0)):
        law, bound = pdm._law(*args)
        assert np.all(law >= 0)
        assert np.max(np.abs(law.sum(axis=1) - 1.0)) <= bound + 1e-12


def _earlier_fire_bound(n, i, eps):
    """U = sum_{j<i} P(c_j + nu > t) for uniform data on the grid 0.1 j, T = i n/10, AboveThreshold at eps/9:
    nu - (t - T) has P(. > s) = (b1^2 e^{-s/b1} - b2^2 e^{-s/b2})/(2 (b1^2 - b2^2)) for s >= 0 (b1 = 36/eps,
    b2 = 18/eps; the difference of two Laplace variables), averaged over c_j ~ Bin(n, j/10) (mpmath) within
    12 standard deviations of the mean, plus Hoeffding's 2 e^{-2 (12 sd)^2/n} for the rest."""
    with mpmath.workdps(DPS):
        b1, b2 = mpf(36) / eps, mpf(18) / eps
        T = mpf(i * n) / 10

        def tail(s):
            if s < 0:
                return 1 - tail(-s)
            return (b1**2 * mpmath.exp(-s / b1) - b2**2 * mpmath.exp(-s / b2)) / (2 * (b1**2 - b2**2))
        U = mpf(0)
        for j in range(1, i):
            p = mpf(j) / 10
            sd = math.sqrt(n * j / 10 * (1 - j / 10))
            c0, c1 = max(0, int(n * j / 10 - 12 * sd)), min(n, int(n * j / 10 + 12 * sd) + 1)
            U += mpmath.fsum(mpmath.binomial(n, c) * p**c * (1 - p)**(n - c) * tail(T - c) for c in range(c0, c1 + 1))
            U += 2 * mpmath.exp(-2 * (12 * sd)**2 / n)
        return float(U)


def test_theorem_2231_intended_reading_refuted():
    """Théorème 2.2.3.1 with the lemma read as intended (eta = S_1 + S_2) at n = 1000, i = 5, gamma = 0.05,
    eps = 10, steps = 10, beta = 0.1: the bound 0.779 exceeds the probability, which is 1/2.

    References: (1) symmetry: the grid is 0.1, ..., 1.0, the interval [0.45, 0.55] holds g_5 = 0.5 only, and
    A_5 = g_5 iff c_5 + nu_5 > t and no earlier query fires; c_5 - 500 ~ Bin(1000, 1/2) - 500 and
    nu_5 - (t - 500) are symmetric and the latter continuous, so P(c_5 + nu_5 > t) = 1/2 and the probability
    lies in [1/2 - U, 1/2], U = sum_{j<5} P(c_j + nu_j > t) (union bound, in closed form: 7e-9 here, 1e-80
    at n = 10^4).  (2) seeded Monte Carlo of histogram_deciles, 6000 runs, within 5 SE of 1/2.  At n = 10^4
    the bound is above 1/2 even with alpha at eps/9 (each call's budget)."""
    n, i, gamma, eps, K, beta = 1000, 5, 0.05, 10.0, 10, 0.1
    bound = printed_uniform_bound(n, i, gamma, eps, K, beta, reading="intended")
    with mpmath.workdps(DPS):
        alpha = int(mpmath.floor(8 * (mpmath.log(K) + mpmath.log(2 / mpf(str(beta)))) / eps))
    h = Fraction(1, 40)
    mu = 2 * sum((math.comb(n, k) * h**k * (1 - h)**(n - k) for k in range(alpha + 1)), Fraction(0))
    ref = 1 - Fraction(1, 10) - _eta_frac(n, i, gamma, "intended") - mu      # exact fractions
    assert bound == pytest.approx(float(ref), abs=1e-13) and bound > 0.77
    for m in (n, 10**4):
        exact = decile_accuracy(m, i, gamma, eps, K, "uniform")
        assert 0.5 - _earlier_fire_bound(m, i, eps) - 1e-12 <= exact <= 0.5 + 1e-12
    # n = 10^4: the same with alpha at eps/9 (the budget of each call): bound 0.89999
    assert printed_uniform_bound(10**4, i, gamma, eps / 9, K, beta, reading="intended") > 0.89
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(3):
        out = histogram_deciles(rng.random((2000, n)), eps, K, 0.0, 1.0, rng=rng)
        hits += int(np.sum(np.abs(out[:, i - 1] - 0.5) <= gamma))
    assert abs(hits / 6000 - 0.5) <= 5 * math.sqrt(0.25 / 6000)
    assert bound > exact + 0.25


def test_theorem_2241_refuted_by_the_grid():
    """Théorème 2.2.4.1 at n = 10^4, i = 4, gamma = 0.1, eps = 10, k = steps = 10, grid on [a, b] = [-4, 4]:
    the interval [d_4 - 0.1, d_4 + 0.1] (d_4 = -0.2533) holds no grid point -4 + 0.8 j, so A_4 never lies in it:
    probability 0 (reference: the grid in exact fractions against d_4 by mpmath; decile_accuracy agrees).  The
    bound is 0.99992 with eta read as intended (beta = 1e-8; 0.99992 with alpha at eps/9 too) and 0.0081 with
    the eta the proof derives (beta = 1e-8); as printed it is negative."""
    with mpmath.workdps(DPS):
        d4 = mpmath.sqrt(2) * mpmath.erfinv(mpf(-2) / 10)
        inside = [j for j in range(1, 11) if abs(-4 + mpf(8 * j) / 10 - d4) <= mpf("0.1")]
    assert inside == []
    assert decile_accuracy(10**4, 4, 0.1, 10.0, 10, "normal") == 0.0
    assert printed_normal_bound(10**4, 4, 0.1, 10.0, 10, 1e-8, "intended") > 0.9999
    assert printed_normal_bound(10**4, 4, 0.1, 10.0 / 9, 10, 1e-6, "intended") > 0.9999
    assert printed_normal_bound(10**4, 4, 0.1, 10.0, 10, 1e-8, "proof") > 0.008
    assert printed_normal_bound(10**4, 4, 0.1, 10.0, 10, 1e-3, "printed") < 0


# == empirical_decile_prob ==========================================================================================
def _order_stat_frac(n, r, l, u):
    """P(l <= X_(r) <= u) for uniform data, l, u Fractions in [0, 1]: P(Bin(n, u) >= r) - P(Bin(n, l) >= r)."""
    return _bin_cdf_frac(r - 1, n, l) - _bin_cdf_frac(r - 1, n, u)


@pytest.mark.parametrize("n", [1, 7, 10, 23, 40])
def test_empirical_decile_uniform_exact_fractions(n):
    """Reference: binomial sums in exact fractions, r = ceil(i n/10)."""
    for i in range(1, 10):
        for gamma in (Fraction(0), Fraction(1, 100), Fraction(1, 20), Fraction(1, 10), Fraction(3, 10)):
            r = -(-i * n // 10)
            l = max(Fraction(i, 10) - gamma / 2, Fraction(0))
            u = min(Fraction(i, 10) + gamma / 2, Fraction(1))
            ref = float(_order_stat_frac(n, r, l, u))
            assert empirical_decile_prob(n, i, float(gamma), "uniform") == pytest.approx(ref, abs=2e-15)


def test_empirical_decile_normal_mpmath():
    """Reference: mpmath at 30 digits, P(X_(r) <= x) = sum_{k >= r} C(n, k) Phi(x)^k (1 - Phi(x))^{n - k}."""
    with mpmath.workdps(DPS):
        for n, i, gamma in ((10, 5, 0.01), (37, 2, 0.3), (200, 8, 0.1), (15, 9, 1.5)):
            r = -(-i * n // 10)
            d = mpmath.sqrt(2) * mpmath.erfinv(mpf(2 * i) / 10 - 1)

            def le(x):
                p = mpmath.ncdf(x)
                return mpmath.fsum(mpmath.binomial(n, k) * p**k * (1 - p)**(n - k) for k in range(r, n + 1))
            ref = le(d + mpf(gamma) / 2) - le(d - mpf(gamma) / 2)
            assert empirical_decile_prob(n, i, gamma, "normal") == pytest.approx(float(ref), rel=1e-12, abs=1e-15)


def test_empirical_decile_monte_carlo():
    """Reference: seeded Monte Carlo of the r-th order statistic of 23 normal values (50000 samples), 5 SE."""
    rng = np.random.default_rng(3)
    x = np.sort(rng.standard_normal((50000, 23)), axis=1)
    for i, gamma in ((3, 0.4), (7, 0.2)):
        r = -(-i * 23 // 10)
        d = float(pdm._decile("normal", i))
        f = np.mean(np.abs(x[:, r - 1] - d) <= gamma / 2)
        p = empirical_decile_prob(23, i, gamma, "normal")
        assert abs(f - p) <= 5 * math.sqrt(p * (1 - p) / 50000)


def test_intended_eta_is_exact_unless_ten_divides_in():
    """Reference: the exact probability (fractions, above) and the identity of the docstring: with eta =
    S_1 + S_2 (the bad events are disjoint) 1 - eta is the probability when 10 does not divide i n, and falls
    short by P(Bin(n, u) = i n/10) when it does (negative control: n = 20 differs)."""
    for n, i in ((7, 3), (13, 5), (21, 9)):
        for g in (0.01, 0.1):
            assert 1 - printed_uniform_eta(n, i, g, "intended") == pytest.approx(
                empirical_decile_prob(n, i, g, "uniform"), abs=1e-14)
    n, i, g = 20, 5, 0.1
    u = Fraction(1, 2) + Fraction(1, 20)
    extra = float(math.comb(n, 10) * u**10 * (1 - u)**10)
    gap = empirical_decile_prob(n, i, g, "uniform") - (1 - printed_uniform_eta(n, i, g, "intended"))
    assert gap == pytest.approx(extra, rel=1e-12) and gap > 0.1


# == interval_counts_prob =============================================================================================
def _both_at_least_frac(n, a, p1, p2):
    """P(N_1 >= a, N_2 >= a), multinomial(n; p1, p2, rest), by enumeration in fractions."""
    tot = Fraction(0)
    for k1 in range(a, n + 1):
        for k2 in range(a, n - k1 + 1):
            tot += (math.factorial(n) // (math.factorial(k1) * math.factorial(k2) * math.factorial(n - k1 - k2))
                    * p1**k1 * p2**k2 * (1 - p1 - p2)**(n - k1 - k2))
    return tot


@pytest.mark.parametrize("n", [1, 4, 15, 30])
def test_interval_counts_uniform_exact_fractions(n):
    """Reference: multinomial enumeration in fractions (both intervals of probability gamma/2 on [0, 1]);
    alpha real counts as ceil(alpha), alpha <= 0 gives 1."""
    for gamma in (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4)):
        for alpha, a in ((0.0, 0), (-2.0, 0), (1.0, 1), (1.5, 2), (2.0, 2), (3.2, 4)):
            for i in (1, 5, 9):
                p1 = min(Fraction(i, 10) - gamma / 2, Fraction(1)) - max(Fraction(i, 10) - gamma, Fraction(0))
                p2 = min(Fraction(i, 10) + gamma, Fraction(1)) - max(Fraction(i, 10) + gamma / 2, Fraction(0))
                p1, p2 = max(p1, Fraction(0)), max(p2, Fraction(0))
                ref = float(_both_at_least_frac(n, a, p1, p2))
                got = interval_counts_prob(n, i, float(gamma), alpha, "uniform")
                assert got == pytest.approx(ref, abs=2e-15), (n, gamma, alpha, i)


def test_interval_counts_normal_inclusion_exclusion_mpmath():
    """Reference: mpmath (30 digits), a different formula: 1 - P(N_1 < a) - P(N_2 < a) + P(N_1 < a, N_2 < a)."""
    with mpmath.workdps(DPS):
        for n, i, gamma, a in ((50, 3, 0.3, 2), (400, 7, 0.05, 3), (2000, 5, 0.02, 4)):
            d = mpmath.sqrt(2) * mpmath.erfinv(mpf(2 * i) / 10 - 1)
            g = mpf(gamma)
            p1 = mpmath.ncdf(d - g / 2) - mpmath.ncdf(d - g)
            p2 = mpmath.ncdf(d + g) - mpmath.ncdf(d + g / 2)
            below1 = mpmath.fsum(mpmath.binomial(n, k) * p1**k * (1 - p1)**(n - k) for k in range(a))
            below2 = mpmath.fsum(mpmath.binomial(n, k) * p2**k * (1 - p2)**(n - k) for k in range(a))
            both = mpmath.fsum(mpmath.factorial(n) / (mpmath.factorial(k1) * mpmath.factorial(k2)
                                                      * mpmath.factorial(n - k1 - k2))
                               * p1**k1 * p2**k2 * (1 - p1 - p2)**(n - k1 - k2)
                               for k1 in range(a) for k2 in range(a))
            ref = 1 - below1 - below2 + both
            assert interval_counts_prob(n, i, gamma, a, "normal") == pytest.approx(float(ref), rel=1e-12)


def test_lemma_2232_and_2243_hold():
    """Reference: the exact probability against the printed 1 - mu (union bound, sum up to alpha inclusive):
    always below, on a grid of n, i, gamma, alpha (Lemmas 2.2.3.2, 2.2.4.3 are valid)."""
    for n in (10, 100, 1000):
        for i in (1, 4, 5, 9):
            for gamma in (0.01, 0.05, 0.1):
                for alpha in (0.0, 1.0, 4.24, 9.5, 30.0):
                    assert 1 - printed_uniform_mu(n, gamma, alpha) <= interval_counts_prob(n, i, gamma, alpha,
                                                                                            "uniform") + 1e-15
                    assert 1 - printed_normal_mu(n, i, gamma, alpha) <= interval_counts_prob(n, i, gamma, alpha,
                                                                                             "normal") + 1e-15


# == the printed bounds ============================================================================================
def _eta_frac(n, i, gamma, reading):
    """The printed eta of Lemma 2.2.3.1 in fractions, sums up to floor(i n/10), floor((10 - i) n/10)."""
    g = Fraction(str(gamma))
    hi, lo = Fraction(i, 10) + g / 2, Fraction(i, 10) - g / 2
    S1 = sum((math.comb(n, k) * hi**k * (1 - hi)**(n - k) for k in range(i * n // 10 + 1)), Fraction(0))
    S2 = sum((math.comb(n, k) * (1 - lo)**k * lo**(n - k) for k in range((10 - i) * n // 10 + 1)), Fraction(0))
    return {"printed": 2 - S1 + S2, "proof": 2 - S1 - S2, "intended": S1 + S2}[reading]


@pytest.mark.parametrize("reading", ["printed", "proof", "intended"])
def test_printed_uniform_eta_literal_fractions(reading):
    """Reference: the display of Lemma 2.2.3.1 in exact fractions (with the three readings' signs)."""
    for n in (1, 10, 17, 60):
        for i in (1, 3, 5, 9):
            for gamma in (0.0, 0.01, 0.05, 0.1):
                ref = float(_eta_frac(n, i, gamma, reading))
                assert printed_uniform_eta(n, i, gamma, reading) == pytest.approx(ref, rel=1e-13, abs=1e-15)


def test_readings_differ():
    """Negative control of the reading flag: the three etas differ (n = 10, i = 5, gamma = 0.01), and so do
    the bounds."""
    v = [printed_uniform_eta(10, 5, 0.01, r) for r in ("printed", "proof", "intended")]
    assert len({round(x, 12) for x in v}) == 3
    w = [printed_normal_bound(1000, 7, 0.05, 1.0, 100, 0.1, r) for r in ("printed", "proof", "intended")]
    assert len({round(x, 12) for x in w}) == 3


def test_printed_uniform_mu_and_bound_literal_fractions():
    """Reference: mu = 2 sum_{k <= alpha} C(n, k) (gamma/2)^k (1 - gamma/2)^{n - k} in fractions, alpha =
    8 (log k + log(2/beta))/eps in mpmath (its floor is the sum's limit), and 1 - beta - eta - mu."""
    for n, i, gamma, eps, K, beta in ((10, 5, 0.01, 1.0, 10, 0.1), (200, 2, 0.1, 10.0, 100, 0.05),
                                      (1000, 9, 0.05, 10.0, 10, 0.5), (50, 4, 0.1, 3.0, 7, 1.0)):
        with mpmath.workdps(DPS):
            alpha = 8 * (mpmath.log(K) + mpmath.log(2 / mpf(str(beta)))) / eps
        h = Fraction(str(gamma)) / 2
        mu = 2 * sum((math.comb(n, k) * h**k * (1 - h)**(n - k) for k in range(int(mpmath.floor(alpha)) + 1)),
                     Fraction(0))
        assert printed_uniform_mu(n, gamma, float(alpha)) == pytest.approx(float(mu), rel=1e-13, abs=1e-15)
        for reading in ("printed", "proof", "intended"):
            ref = 1 - Fraction(str(beta)) - _eta_frac(n, i, gamma, reading) - mu
            assert printed_uniform_bound(n, i, gamma, eps, K, beta, reading) == pytest.approx(float(ref), abs=1e-13)


def _normal_int(lo, hi):
    """int_lo^hi e^{-t^2/2} dt by mpmath quadrature."""
    return mpmath.quad(lambda t: mpmath.exp(-t * t / 2), [lo, hi])


@pytest.mark.parametrize("n,i,gamma", [(10, 5, 0.01), (30, 2, 0.4), (60, 8, 0.1)])
def test_printed_normal_eta_literal_integrals(n, i, gamma):
    """Reference: the display of Lemma 2.2.4.2 literally: (2 pi)^{-n/2} and the integrals of e^{-t^2/2} by mpmath
    quadrature (30 digits), d = sqrt(2) erfinv(0.2 i - 1); 'intended' with the limits d +- gamma/2."""
    with mpmath.workdps(DPS):
        d = mpmath.sqrt(2) * mpmath.erfinv(mpf(2 * i) / 10 - 1)
        c = (2 * mpmath.pi) ** (-mpf(n) / 2)

        def sums(up, low):
            below_up, above_up = _normal_int(-mpmath.inf, up), _normal_int(up, mpmath.inf)
            below_low, above_low = _normal_int(-mpmath.inf, low), _normal_int(low, mpmath.inf)
            s1 = c * mpmath.fsum(mpmath.binomial(n, k) * below_up**k * above_up**(n - k)
                                 for k in range(i * n // 10 + 1))
            s2 = c * mpmath.fsum(mpmath.binomial(n, k) * above_low**k * below_low**(n - k)
                                 for k in range((10 - i) * n // 10 + 1))
            return s1, s2
        S1, S2 = sums(d, d)
        T1, T2 = sums(d + mpf(gamma) / 2, d - mpf(gamma) / 2)
        assert printed_normal_eta(n, i, gamma, "printed") == pytest.approx(float(2 - S1 + S2), rel=1e-13)
        assert printed_normal_eta(n, i, gamma, "proof") == pytest.approx(float(2 - S1 - S2), rel=1e-13)
        assert printed_normal_eta(n, i, gamma, "intended") == pytest.approx(float(T1 + T2), rel=1e-12)


def test_printed_normal_mu_and_bound_literal_integrals():
    """Reference: mu with the limits of Appendix A.2 (int_{d - gamma}^{d - gamma/2}, int_{d + gamma/2}^{d + gamma}
    of the normal density by mpmath quadrature), alpha in mpmath, the bound 1 - beta - eta - mu."""
    with mpmath.workdps(DPS):
        for n, i, gamma, eps, K, beta in ((40, 3, 0.2, 2.0, 10, 0.1), (300, 7, 0.05, 10.0, 100, 0.3)):
            d = mpmath.sqrt(2) * mpmath.erfinv(mpf(2 * i) / 10 - 1)
            g = mpf(gamma)
            p1 = _normal_int(d - g, d - g / 2) / mpmath.sqrt(2 * mpmath.pi)
            p2 = _normal_int(d + g / 2, d + g) / mpmath.sqrt(2 * mpmath.pi)
            alpha = 8 * (mpmath.log(K) + mpmath.log(2 / mpf(str(beta)))) / eps
            top = int(mpmath.floor(alpha))
            mu = mpmath.fsum(mpmath.binomial(n, k) * (p1**k * (1 - p1)**(n - k) + p2**k * (1 - p2)**(n - k))
                             for k in range(top + 1))
            assert printed_normal_mu(n, i, gamma, float(alpha)) == pytest.approx(float(mu), rel=1e-12, abs=1e-15)
            eta = printed_normal_eta(n, i, gamma, "intended")
            ref = 1 - mpf(str(beta)) - mpf(eta) - mu
            assert printed_normal_bound(n, i, gamma, eps, K, beta, "intended") == pytest.approx(float(ref), abs=1e-13)


def test_printed_sign_makes_every_bound_empty():
    """Reference: exact fractions.  With the printed sign, 1 - eta = S_1 - S_2 - 1 <= 0 for every n, i, gamma
    (S_1 <= 1, S_2 >= 0): Lemma 2.2.3.1 and Théorème 2.2.3.1 as printed hold and say nothing."""
    for n in (1, 10, 100):
        for i in range(1, 10):
            for gamma in (0.0, 0.01, 0.1):
                assert 1 - _eta_frac(n, i, gamma, "printed") <= 0
                assert 1 - printed_uniform_eta(n, i, gamma) <= 0
                assert printed_uniform_bound(n, i, gamma, 10.0, 10, 0.01) < 0


def test_proof_reading_of_lemma_2231_refuted():
    """Reference: exact fractions.  With the eta the proof derives (2 - S_1 - S_2), n = 10, i = 5,
    gamma = 0.01: 1 - eta = S_1 + S_2 - 1 = 0.2214 while P(X_(5) in [0.495, 0.505]) = 0.0246 (the order
    statistic probability in fractions, and empirical_decile_prob)."""
    bound = 1 - _eta_frac(10, 5, 0.01, "proof")
    exact = _order_stat_frac(10, 5, Fraction(495, 1000), Fraction(505, 1000))
    assert float(bound) == pytest.approx(0.22136, abs=1e-5)
    assert float(exact) == pytest.approx(0.024606, abs=1e-6)
    assert 1 - printed_uniform_eta(10, 5, 0.01, "proof") == pytest.approx(float(bound), abs=1e-14)
    assert empirical_decile_prob(10, 5, 0.01, "uniform") == pytest.approx(float(exact), abs=1e-15)


# == validation ====================================================================================================
def test_bad_inputs_name_their_parameter():
    """Reference: the documented domains."""
    cases = [(lambda: decile_accuracy(10, 0, 0.1, 1.0, 5, "uniform"), "i"),
             (lambda: decile_accuracy(10, 5, -0.1, 1.0, 5, "uniform"), "gamma"),
             (lambda: decile_accuracy(10, 5, 0.1, 0.0, 5, "uniform"), "epsilon"),
             (lambda: decile_accuracy(10, 5, 0.1, 1.0, 5, "cauchy"), "distribution"),
             (lambda: decile_accuracy(10, 5, 0.1, 1.0, 5, "uniform", a=1.0, b=0.0), "b"),
             (lambda: decile_accuracy(10**6, 5, 0.1, 1.0, 5, "uniform"), "n"),
             (lambda: histogram_deciles([], 1.0, 5, 0.0, 1.0), "x"),
             (lambda: histogram_deciles([0.5], 1.0, 0, 0.0, 1.0), "steps"),
             (lambda: printed_uniform_eta(10, 5, 0.2), "gamma"),
             (lambda: printed_uniform_eta(10, 5, 0.05, "as printed"), "reading"),
             (lambda: printed_uniform_bound(10, 5, 0.05, 1.0, 10, 1.5), "beta")]
    for call, name in cases:
        with pytest.raises(ParameterError) as err:
            call()
        assert err.value.param == name


def test_public_names_and_claims():
    """Reference: the module's __all__ re-exported by numeric, each function naming its claims."""
    for name in pdm.__all__:
        assert getattr(numeric, name) is getattr(pdm, name)
        assert all(c.startswith("pd.") for c in getattr(pdm, name).__claims__)


# == slow ============================================================================================================
@pytest.mark.slow
def test_large_n_all_deciles_speed_and_mass():
    """Reference: total probability within the stated bound, and wall time (n = 10^4, steps = 200, the nine
    deciles; seconds on one core)."""
    import time

    for eps in (10.0, 1.0, 0.1):
        pdm._law.cache_clear()
        t0 = time.process_time()
        law, bound = pdm._law(10**4, 200, eps, "uniform", 0.0, 1.0)
        assert time.process_time() - t0 < 120
        assert np.max(np.abs(law.sum(axis=1) - 1)) <= bound + 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("n,K,eps,dist", [(1000, 100, 1.0, "normal"), (800, 100, 2.0, "uniform"),
                                          (1500, 50, 0.1, "uniform")])
def test_quadrature_rule_against_cells_everywhere_larger(n, K, eps, dist, monkeypatch):
    """Reference: every integer t of [0, n] a panel end (as the default-run test, larger n)."""
    test_quadrature_rule_against_cells_everywhere(n, K, eps, dist, monkeypatch)


@pytest.mark.slow
def test_decile_accuracy_against_monte_carlo_large():
    """Reference: seeded Monte Carlo of histogram_deciles, n = 2000 normal values, 100 points on [-4, 4],
    eps = 1, 4000 runs: P(A_i in [d_i - 0.1, d_i + 0.1]) within 5 SE for every i."""
    n, K, eps, reps = 2000, 100, 1.0, 4000
    rng = np.random.default_rng(9)
    hits = np.zeros(9)
    for _ in range(4):
        out = histogram_deciles(rng.standard_normal((reps // 4, n)), eps, K, -4.0, 4.0, rng=rng)
        d = pdm._decile("normal", np.arange(1, 10))
        hits += np.sum(np.abs(out - d) <= 0.1, axis=0)
    for i in range(1, 10):
        p = decile_accuracy(n, i, 0.1, eps, K, "normal")
        assert abs(hits[i - 1] / reps - p) <= 5 * math.sqrt(max(p * (1 - p), 1 / reps) / reps)
