"""Tests of numeric.above_threshold (001_1dd3d7af6edcb71d.txt, Section 2.1: AboveThreshold, its output law in
the proof of Théorème 2.1.0.1, the theorem itself; Lyu, Su and Li, PVLDB 10(6), 2017, for the query noise of
monotone queries).

Independent references, named in each test:

* ``quad_law``: mpmath.quad (Gauss-Legendre) at 30 digits (15 guard digits), split at every kink (T and each
  y_i), every min(b, b_T) between kinks and for 200 min(b, b_T) into both tails, of the integrand written from
  the algorithm (the earlier split, every 4 min(b, b_T) and none in the tails, with tanh-sinh, erred by 2e-5 on
  an entry near 1e-45 whose integrand is flat over 100 scales; this one agrees with a split every min/2 to
  2e-15 there);
* ``exact_law``: on each piece between the kinks every factor of the integrand is a sum of at most two terms
  c e^{a t}; the product is expanded and integrated term by term in mpmath at 60 digits (exact up to the
  working precision; the terms cancel by at most a factor 3^(K+1));
* closed forms (K = 1 with sympy; the exact threshold; K equal values as one 1-D integral);
* seeded Monte Carlo of the sampler, within 5 standard errors.
"""
from __future__ import annotations

import importlib
import itertools
import math

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

import numeric as nm
from numeric.above_threshold import _batch_log_law, _log_law

INF = math.inf


# == independent references =====================================================================================
def _pieces(y, T, k):
    return sorted(set([T] + list(y[:k + 1])))


def quad_law(y, T, bT, b, dps=30):
    """P(A = k), k = 0..K-1, then P(A = -1): mpmath.quad of the integrand as written in the algorithm."""
    with mp.workdps(dps + 15):
        y = [mp.mpf(v) for v in y]
        T, bT, b = mp.mpf(T), mp.mpf(bT), mp.mpf(b)
        s = min(b, bT)

        def F(x):                                   # P(nu <= x), nu ~ Lap(b)
            return mp.exp(x / b) / 2 if x < 0 else 1 - mp.exp(-x / b) / 2
        K = len(y)
        out = []
        for k in range(K + 1):
            def f(t, k=k):
                v = mp.exp(-abs(t - T) / bT) / (2 * bT)
                for i in range(k):
                    v *= F(t - y[i])
                return v * (1 - F(t - y[k])) if k < K else v
            kinks = _pieces(y, T, k)
            pts = [kinks[0] - s * j for j in range(200, 0, -1)] + [kinks[0]]
            for a, c in zip(kinks[:-1], kinks[1:]):
                n = max(1, min(400, int(mp.ceil((c - a) / s))))
                pts += [a + (c - a) * j / n for j in range(1, n + 1)]
            pts += [kinks[-1] + s * j for j in range(1, 201)]
            out.append(mp.quad(f, [-mp.inf] + pts + [mp.inf], method="gauss-legendre"))
        return out


def exact_law(y, T, bT, b, dps=60):
    """P(A = k) and P(A = -1) by expanding the integrand on each piece into terms c e^{a t} and integrating
    them exactly (mpmath at dps digits)."""
    with mp.workdps(dps):
        y = [mp.mpf(v) for v in y]
        T, bT, b = mp.mpf(T), mp.mpf(bT), mp.mpf(b)
        half = mp.mpf(1) / 2
        K = len(y)
        out = []
        for k in range(K + 1):
            edges = [-mp.inf] + _pieces(y, T, k) + [mp.inf]
            total = mp.mpf(0)
            for lo, hi in zip(edges[:-1], edges[1:]):
                mid = (lo + hi) / 2 if lo > -mp.inf and hi < mp.inf else (hi - 1 if lo == -mp.inf else lo + 1)
                terms = ([(mp.exp(-T / bT) / (2 * bT), 1 / bT)] if mid < T
                         else [(mp.exp(T / bT) / (2 * bT), -1 / bT)])
                factors = [[(half * mp.exp(-y[i] / b), 1 / b)] if mid < y[i]
                           else [(mp.mpf(1), mp.mpf(0)), (-half * mp.exp(y[i] / b), -1 / b)] for i in range(k)]
                if k < K:
                    factors.append([(mp.mpf(1), mp.mpf(0)), (-half * mp.exp(-y[k] / b), 1 / b)] if mid < y[k]
                                   else [(half * mp.exp(y[k] / b), -1 / b)])
                for fac in factors:
                    terms = [(c1 * c2, a1 + a2) for c1, a1 in terms for c2, a2 in fac]
                for c, a in terms:
                    if lo == -mp.inf:
                        total += c * mp.exp(a * hi) / a
                    elif hi == mp.inf:
                        total -= c * mp.exp(a * lo) / a
                    elif a == 0:
                        total += c * (hi - lo)
                    else:
                        total += c * mp.exp(a * lo) * mp.expm1(a * (hi - lo)) / a
            out.append(total)
        return out


def _rel(got, ref):
    return max(float(abs(mp.mpf(float(g)) / r - 1)) for g, r in zip(got, ref))


def _scales(eps, qs):
    return 2.0 / eps, (4.0 / eps if qs is None else qs)


# (values, threshold, epsilon, query_scale): ties, unsorted, far thresholds, huge and tiny probabilities
QUAD_CASES = [
    ([0.0], 0.0, 1.0, None),
    ([1.0, -2.0, 3.0], 0.5, 1.0, None),
    ([0.0, 0.0, 0.0, 5.0, 5.0], 1.0, 0.7, None),                   # ties
    ([3.0, 1.0, 4.0, 1.0, 5.0, 9.0], 2.0, 2.0, 1.0),               # unsorted, a tie, query_scale
    ([60.0, 70.0, -40.0, 55.0], 0.0, 1.0, None),                  # P down to 6e-20
    ([100.0, 200.0, 50.0], 0.0, 1.0, None),                        # P(A = 0) = 1 - 9e-12, others near 1e-33
]
EXACT_CASES = QUAD_CASES + [
    ([9.98, -23.34, 11.78], -82.43936831754742, 1.0, 0.5),         # P(A = 1) = 3e-43
    ([-5.0, 7.5, 7.5, -1.0, 30.0, 2.0], 4.0, 0.3, None),
    ([0.25] * 6, 0.25, 5.0, None),                                # all values at T
    ([1e6 + 1.0, 1e6 - 2.0, 1e6 + 0.5], 1e6, 1.0, 2.0),           # large magnitudes, monotone-scale noise
    ([-300.0, -200.0, 250.0, 0.0], 10.0, 0.5, None),              # P(A = 3) = 1e-63 or so
]


# == the law ======================================================================================================
@pytest.mark.parametrize("y,T,eps,qs", QUAD_CASES)
def test_pmf_against_mpmath_quadrature(y, T, eps, qs):
    """Reference: quad_law (mpmath.quad at 30 digits split at every kink): relative 1e-12 on every entry,
    the tiny ones included."""
    bT, b = _scales(eps, qs)
    got = nm.above_threshold_pmf(y, T, eps, query_scale=qs)
    assert got.shape == (len(y) + 1,)
    assert _rel(got, quad_law(y, T, bT, b)) < 1e-12


@pytest.mark.parametrize("y,T,eps,qs", EXACT_CASES)
def test_log_law_against_exact_expansion(y, T, eps, qs):
    """Reference: exact_law (term-by-term exact integration at 60 digits): ln P within 1e-12 relative (the
    probability itself, also where it is below 1e-40), and the entries sum to 1 within 1e-13."""
    bT, b = _scales(eps, qs)
    lp = _log_law(np.array(y, dtype=float), T, bT, b)
    ref = exact_law(y, T, bT, b)
    assert max(float(abs(mp.exp(mp.mpf(float(v)) - mp.log(r)) - 1)) for v, r in zip(lp, ref)) < 1e-12
    assert abs(math.fsum(np.exp(lp)) - 1.0) < 1e-13


def test_the_two_references_agree():
    """The references against each other (so that neither is a copy of the other's mistake): quad_law and
    exact_law on one of the instances (ties, five values), 25 digits."""
    for y, T, eps, qs in (QUAD_CASES[2],):
        bT, b = _scales(eps, qs)
        for q, e in zip(quad_law(y, T, bT, b), exact_law(y, T, bT, b)):
            assert abs(q / e - 1) < mp.mpf(10) ** -25


@pytest.mark.parametrize("K,seed", [(1, 0), (10, 1), (200, 2), (2000, 3)])
def test_pmf_sums_to_one(K, seed):
    """Reference: the law of a random variable sums to 1 (math.fsum of the K + 1 entries, within 1e-13), on
    random values with ties (integers) and random thresholds and scales."""
    rng = np.random.default_rng(seed)
    y = rng.integers(-3 * K - 5, 3 * K + 5, K).astype(float)
    T = float(rng.integers(-K, K + 1))
    eps = float(rng.choice([0.1, 1.0, 3.0]))
    p = nm.above_threshold_pmf(y, T, eps)
    assert np.all(p >= 0)
    assert abs(math.fsum(p) - 1.0) < 1e-13
    p2 = nm.above_threshold_pmf(y, T, eps, query_scale=2.0 / eps)
    assert abs(math.fsum(p2) - 1.0) < 1e-13


@pytest.mark.parametrize("K", [50, pytest.param(2000, marks=pytest.mark.slow)])
def test_equal_values_against_one_dimensional_integrals(K):
    """Reference: with all K values equal to c, P(A = k) = int l_2(t - T) F(t - c)^k (1 - F(t - c)) dt, a 1-D
    integral with two kinks (T, c), by mpmath.quad at 30 digits; every k checked at k = 0, 1, K/2, K-1 and
    -1 (the code sees one kink of multiplicity k: the truncation and the series take over)."""
    c, T, eps = 3.0, 0.0, 0.5
    bT, b = 2.0 / eps, 4.0 / eps
    p = nm.above_threshold_pmf(np.full(K, c), T, eps)
    with mp.workdps(45):
        cc, TT, bb, bbT = mp.mpf(c), mp.mpf(T), mp.mpf(b), mp.mpf(bT)

        def F(x):
            return mp.exp(x / bb) / 2 if x < 0 else 1 - mp.exp(-x / bb) / 2
        for k in (0, 1, K // 2, K - 1, K):
            last = (lambda t: 1 - F(t - cc)) if k < K else (lambda t: 1)
            f = (lambda t, k=k, last=last: mp.exp(-abs(t - TT) / bbT) / (2 * bbT) * F(t - cc) ** k * last(t))
            ref = mp.quad(f, [-mp.inf, TT, cc] + [cc + bb * j for j in range(1, 40)] + [mp.inf])
            assert abs(mp.mpf(float(p[k])) / ref - 1) < 1e-12, k


def test_k1_closed_form():
    """Reference: K = 1 by sympy.  With D = nu - tau (nu ~ Lap(b) the query noise, tau ~ Lap(c) the threshold
    noise, c = 2/eps), P(A = 0) = P(D > T - y_0).  D is symmetric, so at y_0 = T, P(A = 0) = 1/2 exactly.  In
    general, for v >= 0 and b != c, P(D > v) = (b^2 e^{-v/b} - c^2 e^{-v/c})/(2 (b^2 - c^2)), and for b = c,
    (2 + v/c) e^{-v/c}/4: sympy integrates the Laplace density against the survival function piece by piece
    (exactly, rational parameters) and the hand formula is checked against it; then the code against both."""
    t = sp.Symbol("t", real=True)
    for b, c, x in ((sp.Integer(4), sp.Integer(2), sp.Rational(3, 2)), (sp.Integer(4), sp.Integer(2), sp.Rational(-7, 3)),
                    (sp.Integer(2), sp.Integer(2), sp.Rational(5, 4)), (sp.Integer(4), sp.Integer(2), sp.Integer(0))):
        # P(A = 0) = int l_c(t) S_b(t - x) dt, x = y_0 - T, T = 0; S_b(u) = P(nu > u)
        S_lo, S_hi = 1 - sp.exp((t - x) / b) / 2, sp.exp(-(t - x) / b) / 2          # u < 0, u > 0
        l_lo, l_hi = sp.exp(t / c) / (2 * c), sp.exp(-t / c) / (2 * c)             # t < 0, t > 0
        a, z = sorted([sp.Integer(0), x])
        total = 0
        for lo, hi in ((-sp.oo, a), (a, z), (z, sp.oo)):
            if lo == hi:
                continue
            m = (hi - 1) if lo == -sp.oo else ((lo + 1) if hi == sp.oo else (lo + hi) / 2)
            total += sp.integrate((l_lo if m < 0 else l_hi) * (S_lo if m < x else S_hi), (t, lo, hi))
        v = abs(x)
        tail = ((b**2 * sp.exp(-v / b) - c**2 * sp.exp(-v / c)) / (2 * (b**2 - c**2)) if b != c
                else (2 + v / c) * sp.exp(-v / c) / 4)
        hand = 1 - tail if x >= 0 else tail
        assert abs(sp.N(total - hand, 40)) < 1e-35
        if x == 0:
            assert sp.simplify(total - sp.Rational(1, 2)) == 0
        eps = 2.0 / float(c)
        got = nm.above_threshold_pmf([float(x)], 0.0, eps, query_scale=float(b))
        assert got[0] == pytest.approx(float(sp.N(hand, 30)), rel=1e-13)
        assert got[1] == pytest.approx(float(sp.N(1 - hand, 30)), rel=1e-13)


def test_exact_threshold_and_no_noise():
    """References by hand: eps = inf with no query_scale is the mechanism without noise (A = the first k with
    y_k > T, strictly); eps = inf with query_scale b keeps T exact and P(A = k) = prod_{i<k} F(T - y_i)
    (1 - F(T - y_k)), evaluated here in mpmath."""
    y = [-1.0, 5.0, 0.5, 9.0]
    assert nm.above_threshold_pmf(y, 0.5, INF).tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]
    assert nm.above_threshold_pmf(y, 9.0, INF).tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]      # 9 > 9 is false
    assert nm.above_threshold(y, 0.5, INF) == 1 and nm.above_threshold(y, 9.0, INF) == -1
    b = 1.7
    got = nm.above_threshold_pmf(y, 0.5, INF, query_scale=b)
    with mp.workdps(30):
        F = [mp.exp((0.5 - v) / b) / 2 if 0.5 - v < 0 else 1 - mp.exp(-(0.5 - v) / b) / 2 for v in y]
        ref = [mp.fprod(F[:k]) * (1 - F[k]) for k in range(4)] + [mp.fprod(F)]
    assert _rel(got, ref) < 1e-14


def test_no_query():
    """By definition: with no query the output is -1."""
    assert nm.above_threshold_pmf([], 3.0, 1.0).tolist() == [1.0]
    assert nm.above_threshold([], 3.0, 1.0, rng=1) == -1
    assert nm.above_threshold([], 3.0, 1.0, rng=1, size=3).tolist() == [-1, -1, -1]


def test_law_depends_on_the_earlier_values_as_a_set():
    """Reference: the formula (P(A = k) depends on y_k, T and the multiset {y_i, i < k} only): permuting the
    earlier values, or changing the later ones, leaves P(A = k) unchanged; the translation (y, T) -> (y + s,
    T + s) leaves the whole law unchanged.  Negative control: changing an earlier value changes it."""
    rng = np.random.default_rng(5)
    y = rng.normal(0, 8, 9)
    p = nm.above_threshold_pmf(y, 1.0, 0.8)
    k = 6
    z = y.copy()
    z[:k] = rng.permutation(z[:k])
    z[k + 1:] = rng.normal(0, 30, z.size - k - 1)
    q = nm.above_threshold_pmf(z, 1.0, 0.8)
    assert q[k] == pytest.approx(p[k], rel=1e-13)
    assert nm.above_threshold_pmf(y + 1000.0, 1001.0, 0.8) == pytest.approx(p, rel=1e-11)
    z2 = y.copy()
    z2[2] += 1.0
    assert abs(nm.above_threshold_pmf(z2, 1.0, 0.8)[k] / p[k] - 1) > 1e-3


# == the sampler ==================================================================================================
@pytest.mark.parametrize("y,T,eps,qs", [([1.0, -1.0, 2.0, 0.5], 0.3, 1.0, None), ([0.0, 0.0, 3.0], 1.0, 0.5, 1.0),
                                        ([-2.0, 4.0, 4.0, -6.0, 1.0], 0.0, 3.0, None)])
def test_sampler_against_pmf(y, T, eps, qs):
    """Reference: the exact law (itself checked against mpmath above); seeded Monte Carlo, 2e5 runs, every
    entry within 5 standard errors.  Negative control: the law at 1.5 eps is rejected by the same test."""
    n = 200_000
    out = nm.above_threshold(y, T, eps, rng=11, size=n, query_scale=qs)
    counts = np.bincount(np.where(out < 0, len(y), out), minlength=len(y) + 1)
    p = nm.above_threshold_pmf(y, T, eps, query_scale=qs)
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(counts / n - p) <= 5 * se + 1e-12)
    wrong = nm.above_threshold_pmf(y, T, 1.5 * eps, query_scale=None if qs is None else qs / 1.5)
    assert np.any(np.abs(counts / n - wrong) > 5 * np.sqrt(wrong * (1 - wrong) / n))


def test_sampler_shapes_seeds_and_blocks():
    """By definition: one run gives a Python int, size m an int64 array of m runs; a seed reproduces the runs;
    many queries with many runs are scanned in blocks (here 3000 queries x 3000 runs: 9e6 draws, more than
    one block) and still follow the law (Monte Carlo within 5 SE on the first outputs and on -1)."""
    y = [0.0, 10.0]
    assert isinstance(nm.above_threshold(y, 5.0, 1.0, rng=3), int)
    a = nm.above_threshold(y, 5.0, 1.0, rng=3, size=50)
    assert a.dtype == np.int64 and a.shape == (50,) and set(a.tolist()) <= {-1, 0, 1}
    assert np.array_equal(a, nm.above_threshold(y, 5.0, 1.0, rng=3, size=50))
    assert nm.above_threshold(y, 5.0, 1.0, rng=3, size=0).shape == (0,)
    yy = np.full(3000, -8.0)
    n = 3000
    out = nm.above_threshold(yy, 0.0, 1.0, rng=np.random.default_rng(8), size=n)
    p = nm.above_threshold_pmf(yy, 0.0, 1.0)
    for k in (0, 1, 2, -1):
        f = np.mean(out == k)
        assert abs(f - p[k]) <= 5 * math.sqrt(p[k] * (1 - p[k]) / n) + 1e-12


# == the privacy loss ==============================================================================================
def test_loss_lap4_at_most_eps_on_random_neighbours():
    """Théorème 2.1.0.1: with Lap(2/eps) and Lap(4/eps), |ln P - ln P'| <= eps for neighbours (|y_i - y'_i|
    <= 1).  Reference: the theorem (its proof is checked in derivations, pd.at.epsilon_dp); the loss returned
    is an upper bound, so it may exceed eps only by its own error margin (2e-12 + 1e-14 |ln P|).  Random
    neighbours in boxes of several sizes, random eps."""
    rng = np.random.default_rng(12)
    for _ in range(40):
        K = int(rng.integers(1, 8))
        eps = float(rng.choice([0.2, 1.0, 2.5]))
        y = rng.uniform(-1, 1, K) * float(rng.choice([2.0, 20.0, 80.0])) / eps
        d = rng.uniform(-1, 1, K)
        loss = nm.above_threshold_privacy_loss(y, y + d, 0.0, eps)
        assert loss <= eps * (1 + 1e-12) + 1e-11


def test_loss_lap4_approaches_eps_but_not_above():
    """The structure of the worst case (earlier queries far above T, moved up by 1; the last far below, moved
    down): reference exact_law at 60 digits, ln P(A = k) - ln P'(A = k) < eps (the ratio of the integrands is
    below e^eps where the noisy threshold is below T), within 1e-9 of eps (e^eps is approached as the values
    move apart, not attained).  The loss returned is then eps up to its margin."""
    eps = 1.0
    y = [40.0] * 5 + [-80.0]
    y2 = [41.0] * 5 + [-81.0]
    ref = [mp.log(a) - mp.log(c) for a, c in zip(exact_law(y, 0.0, 2.0, 4.0), exact_law(y2, 0.0, 2.0, 4.0))]
    gap = eps - ref[5]
    assert 0 < gap < 1e-9
    assert max(abs(v) for v in ref) == ref[5]
    loss = nm.above_threshold_privacy_loss(y, y2, 0.0, eps)
    assert float(ref[5]) <= loss <= eps + 1e-11


def test_loss_lap2_non_monotone_exceeds_eps():
    """Negative control for the monotone question: query noise Lap(2/eps) without monotonicity is not eps-DP.
    T = 0, eps = 1, y = (0, 0, 0), y' = (1, 1, -1) (neighbours: each query moves by 1, not all the same way):
    ln P(A = 2) - ln P'(A = 2) = 1.15321856133580258330... > 1 (quad_law at 30 digits, confirmed by
    exact_law); the function returns it (rounded up)."""
    ref_q = [mp.log(a) - mp.log(c) for a, c in zip(quad_law([0, 0, 0], 0, 2, 2), quad_law([1, 1, -1], 0, 2, 2))]
    ref_e = [mp.log(a) - mp.log(c) for a, c in zip(exact_law([0, 0, 0], 0, 2, 2), exact_law([1, 1, -1], 0, 2, 2))]
    assert abs(ref_q[2] - ref_e[2]) < mp.mpf(10) ** -28
    assert mp.nstr(ref_q[2], 20) == "1.1532185613358025833"
    loss = nm.above_threshold_privacy_loss([0.0, 0.0, 0.0], [1.0, 1.0, -1.0], 0.0, 1.0, query_scale=2.0)
    assert float(ref_q[2]) <= loss <= float(ref_q[2]) + 1e-11
    assert loss > 1.15
    # the same pair with the paper's Lap(4/eps) stays below eps
    assert nm.above_threshold_privacy_loss([0.0, 0.0, 0.0], [1.0, 1.0, -1.0], 0.0, 1.0) < 1.0


def test_loss_lap2_monotone_at_most_eps():
    """Lyu, Su and Li (PVLDB 2017, Algorithm 1 with c = 1, eps_1 = eps_2 = eps/2): for monotone queries the
    query noise Lap(2/eps) suffices.  Random monotone neighbours (all differences in [0, 1], or all in
    [-1, 0]) and a near-worst monotone pair (three earlier queries far above T moved up by 1, the last far
    below and not moved; loss within 1e-5 of eps): never above eps beyond the returned margin.  Reference:
    the published theorem (derivations pd.at.monotone_noise) and exact_law for the near-worst pair."""
    rng = np.random.default_rng(13)
    for _ in range(40):
        K = int(rng.integers(1, 7))
        y = rng.uniform(-40, 40, K)
        d = rng.uniform(0, 1, K) * (1 if rng.random() < 0.5 else -1)
        assert nm.above_threshold_privacy_loss(y, y + d, 0.0, 1.0, query_scale=2.0) <= 1.0 + 1e-11
    y, y2 = [20.0, 20.0, 20.0, -20.0], [21.0, 21.0, 21.0, -20.0]
    ref = [mp.log(a) - mp.log(c) for a, c in zip(exact_law(y, 0, 2, 2), exact_law(y2, 0, 2, 2))]
    assert 0 < 1 - max(abs(v) for v in ref) < 1e-5
    assert nm.above_threshold_privacy_loss(y, y2, 0.0, 1.0, query_scale=2.0) <= 1.0 + 1e-11


def test_loss_is_rounded_up_and_symmetric():
    """Reference: exact_law (60 digits).  The returned loss is at least the exact one and within 1e-11 of it;
    it is symmetric in the two vectors; 0 for equal vectors; inf when one law gives probability 0 to an
    output the other does not (no noise); and a length mismatch is refused naming neighbour."""
    y, y2 = [2.0, -1.0, 0.5], [2.5, -0.2, 1.3]
    ref = max(abs(mp.log(a) - mp.log(c)) for a, c in zip(exact_law(y, 0.7, 2.0, 4.0), exact_law(y2, 0.7, 2.0, 4.0)))
    loss = nm.above_threshold_privacy_loss(y, y2, 0.7, 1.0)
    assert float(ref) <= loss <= float(ref) + 1e-11
    assert nm.above_threshold_privacy_loss(y2, y, 0.7, 1.0) == loss
    assert nm.above_threshold_privacy_loss(y, y, 0.7, 1.0) == 0.0
    assert nm.above_threshold_privacy_loss([0.0, 0.0], [1.0, -1.0], 0.0, INF) == INF
    with pytest.raises(ValueError, match="^neighbour "):
        nm.above_threshold_privacy_loss(y, y2[:2], 0.7, 1.0)


def test_one_sided_loss_is_convex_in_the_shift():
    """The structure the search rests on: ln P_y(k) is concave in y (the integrand is log-concave jointly in
    t and y: Prékopa), so for fixed y the one-sided loss ln P_y(k) - ln P_{y+d}(k) is convex in d and its
    maximum over [-1, 1]^K is at a vertex.  Checked on a 7 x 7 grid of d (K = 2) for every output: the
    maximum over the grid is at a corner, and midpoints lie below chords.  Negative control: the loss itself
    is not constant (the check is not vacuous)."""
    y = np.array([[1.5, -0.5]])
    g = np.linspace(-1, 1, 7)
    D = np.array(list(itertools.product(g, g)))
    l0 = _batch_log_law(y, 0.0, 2.0, 4.0)[0]
    L = l0[None, :] - _batch_log_law(y + D, 0.0, 2.0, 4.0)
    corners = np.all(np.abs(D) == 1, axis=1)
    for k in range(3):
        assert L[corners, k].max() >= L[:, k].max() - 1e-13
        assert np.ptp(L[:, k]) > 1e-2
    grid = L.reshape(7, 7, 3)
    assert np.all(grid[1:-1] <= 0.5 * (grid[:-2] + grid[2:]) + 1e-12)
    assert np.all(grid[:, 1:-1] <= 0.5 * (grid[:, :-2] + grid[:, 2:]) + 1e-12)


# == the search ====================================================================================================
def test_worst_case_k1_is_eps_over_4():
    """Reference: for K = 1 the loss tends to eps/4 as y -> -inf (the left tail of nu - tau has rate 1/b =
    eps/4: P(A = 0) ratio e^{eps/4}) and never reaches it: the search returns a value in (0.24, 0.25 + margin]
    at eps = 1, reproducibly."""
    r1 = nm.above_threshold_worst_case(1, 1.0, population=16, starts=2, iterations=20)
    r2 = nm.above_threshold_worst_case(1, 1.0, population=16, starts=2, iterations=20)
    assert 0.24 < r1[0] <= 0.25 + 1e-11
    assert r1[0] == r2[0] and np.array_equal(r1[1], r2[1])
    y, y2, k = r1[1], r1[2], r1[3]
    assert np.all(np.abs(y - y2) <= 1) and k in (0, -1)


def test_worst_case_monotone_question():
    """Lyu-Su-Li's monotone statement and its negative control, K = 3, eps = 1, query noise Lap(2/eps): the
    monotone search stays at most eps (its best is near 0.99: earlier queries up, the last one fixed); the
    unrestricted search exceeds eps (its best is near 1.49: the last one moved down too).  With the paper's
    Lap(4/eps) the unrestricted search stays at most 3 eps/4 for K = 3."""
    kw = dict(population=32, starts=3, iterations=25)
    mono = nm.above_threshold_worst_case(3, 1.0, monotone=True, query_scale=2.0, **kw)
    anyd = nm.above_threshold_worst_case(3, 1.0, monotone=False, query_scale=2.0, **kw)
    paper = nm.above_threshold_worst_case(3, 1.0, **kw)
    assert 0.9 < mono[0] <= 1.0 + 1e-11
    d = mono[2] - mono[1]
    assert np.all(d >= 0) or np.all(d <= 0)
    assert anyd[0] > 1.4
    assert 0.7 < paper[0] <= 0.75 + 1e-11


# == large K =======================================================================================================
def _cumulative_counts(K, seed):
    """#{x_j < j'/K}, j' = 1..K, for a sorted uniform sample of 10 K points (the histogram method's queries)."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.random(10 * K))
    return np.searchsorted(x, np.arange(1, K + 1) / K).astype(float)


def window_quad_entry(y, T, bT, b, k, dps=30, drop=60.0):
    """P(A = k) (k = len(y): P(A = -1)) by mpmath.quad (Gauss-Legendre rule, dps digits + 15 guard digits) of
    the integrand written from the algorithm, on the window where ln f is within ``drop`` of its maximum
    (located on a float grid; f is log-concave, so the mass outside is below e^-drop of the total times the
    window's width in units of the slope), split at every kink inside it and wherever ln f could change by
    more than 1.  Earlier values above the window enter exactly (F = e^{(t - y)/b}/2 there); those more than
    ``drop`` b below it are left out (each factor is within e^-drop/2 of 1).  tanh-sinh was tried and errs
    by 1e-13 on the steep pieces; Gauss-Legendre agrees with exact_law to 1e-20 on a 13-value instance."""
    y = np.asarray(y, float)
    K = y.size
    prev, last = y[:k], (y[k] if k < K else None)
    ends = [T] + ([last] if last is not None else []) + ([prev.min(), prev.max()] if prev.size else [])
    g = np.linspace(min(ends) - 80 * max(b, bT), max(ends) + 80 * max(b, bT), 20001)

    def lnf(t):
        v = -np.abs(t - T) / bT
        if prev.size:
            x = t[:, None] - prev[None, :]
            v = v + np.where(x < 0, x / b - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(x) / b))).sum(axis=1)
        if last is not None:
            u = t - last
            v = v + np.where(u >= 0, -u / b - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(u) / b)))
        return v
    lv = np.concatenate([lnf(c) for c in np.array_split(g, 50)])
    inside = np.flatnonzero(lv >= lv.max() - drop)
    a, c = g[max(inside[0] - 1, 0)], g[min(inside[-1] + 1, g.size - 1)]
    with mp.workdps(dps + 15):
        Tm, bTm, bm = mp.mpf(T), mp.mpf(bT), mp.mpf(b)
        above = [mp.mpf(v) for v in prev if v > c]
        mid = [mp.mpf(v) for v in prev if a - drop * b <= v <= c]
        na, sa = len(above), mp.fsum(above)
        lm = mp.mpf(last) if last is not None else None

        def f(t):
            v = mp.exp(-abs(t - Tm) / bTm + (na * t - sa) / bm) / (2 * bTm * mp.mpf(2) ** na)
            for yi in mid:
                x = t - yi
                v *= mp.exp(x / bm) / 2 if x < 0 else 1 - mp.exp(-x / bm) / 2
            if lm is not None:
                x = t - lm
                v *= 1 - mp.exp(x / bm) / 2 if x < 0 else mp.exp(-x / bm) / 2
            return v
        inner = [v for v in mid + [Tm] + ([lm] if lm is not None else []) if a < v < c]
        kinks = sorted(set([mp.mpf(a), mp.mpf(c)] + inner))
        pts = [kinks[0]]
        for p, q in zip(kinks[:-1], kinks[1:]):
            slope = 1 / bTm + (na + 1 + sum(1 for v in mid if v > p)) / bm
            n = max(1, int(mp.ceil((q - p) * slope)))
            pts += [p + (q - p) * j / n for j in range(1, n + 1)]
        return mp.quad(f, pts, method="gauss-legendre")


@pytest.mark.slow
def test_window_reference_against_exact_expansion():
    """The windowed reference itself, against exact_law (term-by-term at 80 digits) on 13 consecutive values of
    the K = 1000 instance below (the steep part, P near e^-128): agreement to 1e-20."""
    y = _cumulative_counts(1000, 1)[518:531] - 5000.0
    ex = exact_law(list(y), 0.0, 2.0, 4.0, dps=80)[12]
    assert abs(window_quad_entry(y, 0.0, 2.0, 4.0, 12) / ex - 1) < mp.mpf(10) ** -20


@pytest.mark.slow
def test_k1000_entries_against_windowed_mpmath():
    """Reference: window_quad_entry (mpmath at 30 digits) on entries of the K = 1000 law of cumulative counts
    (n = 10^4, threshold n/2, eps = 1): the mode (P = 0.69), two entries 30 steps either side (P near 1e-32
    and 1e-62) and -1 (P = e^-2498, compared in log space: ln P within 1e-12 relative).  About 10 s."""
    y = _cumulative_counts(1000, 1)
    T = 5000.0
    lp = _log_law(y, T, 2.0, 4.0)
    p = nm.above_threshold_pmf(y, T, 1.0)
    mode = int(np.argmax(p))
    for k in (mode, mode - 30, mode + 30, 1000):
        ref = mp.log(window_quad_entry(y, T, 2.0, 4.0, k))
        assert abs(mp.mpf(float(lp[k])) - ref) < 1e-12 * max(1.0, abs(float(ref))), k


@pytest.mark.parametrize("K", [1000, pytest.param(10**5, marks=pytest.mark.slow)])
def test_large_k_sums_to_one_and_matches_the_fixed_rule_law(K):
    """References: the entries sum to 1 (math.fsum, within 1e-13), and numeric.quantile_mechanisms'
    _above_threshold_law (Gauss-Legendre on a fixed grid of sub-intervals, a different method) agrees within
    1e-13 absolute, on cumulative counts (threshold n/2) and on random values, eps = 1 and query noise 4/eps
    and 2/eps.  K = 10^5 takes about 3 minutes (see the docstring of above_threshold_pmf)."""
    from numeric.quantile_mechanisms import _above_threshold_law
    rng = np.random.default_rng(K)
    for y, T in ((_cumulative_counts(K, 2), 5.0 * K), (rng.uniform(-K / 10, K / 10, K), 0.0)):
        for qs in (None, 2.0):
            p = nm.above_threshold_pmf(y, T, 1.0, query_scale=qs)
            assert abs(math.fsum(p) - 1.0) < 1e-13
            other = _above_threshold_law(y, T, 2.0, 4.0 if qs is None else qs)
            assert np.max(np.abs(p - other)) < 1e-13


# == the evaluation order kept as a reference =====================================================================
_AT = importlib.import_module("numeric.above_threshold")
_DEFAULT_BATCH_ROWS = _AT._BATCH_ROWS


def _random_instance(rng, K):
    """Random values with ties or without, a random threshold and scale, query noise 4/eps or 2/eps."""
    eps = float(rng.choice([0.1, 0.5, 1.0, 3.0]))
    if rng.random() < 0.5:
        y = rng.integers(-3 * K - 5, 3 * K + 5, K).astype(float)
    else:
        y = rng.uniform(-1, 1, K) * float(rng.choice([2.0, 20.0, 200.0])) / eps
    T = float(rng.uniform(y.min(), y.max())) if K else 0.0
    qs = None if rng.random() < 0.5 else 2.0 / eps
    return y, T, eps, qs


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_against_reference_path(seed, monkeypatch):
    """The per-output planner (``_SHARED = False``) against the earlier evaluation of the same quadrature
    (``_REFERENCE = True``: one call per chunk of outputs, the series coefficients gathered per term, the
    quadrature orders compared on one 3-D array), on
    random instances of K up to 300 and on cumulative counts (K = 300, the short chunks of sorted values are
    joined), with the default grouping of outputs and with groups of 7 (chunks split).  Every ln P within the
    certified error bound of the pmf (1e-12 + 4e-15 |ln P|, see _log_err), zeros (underflow) at the same
    places, the entries summing to 1."""
    rng = np.random.default_rng(100 + seed)
    for K in (1, 7, 40, 300, 301):
        if K == 301:      # cumulative counts (sorted, each chunk of outputs short): chunks joined in one call
            y, T, eps, qs = _cumulative_counts(300, seed), 1500.0, float(rng.choice([0.5, 1.0])), None
        else:
            y, T, eps, qs = _random_instance(rng, K)
        bT, b = _scales(eps, qs)
        monkeypatch.setattr(_AT, "_REFERENCE", True)
        ref = _log_law(y, T, bT, b)
        monkeypatch.setattr(_AT, "_REFERENCE", False)
        monkeypatch.setattr(_AT, "_SHARED", False)          # every chunk through the per-output planner
        ok = np.isfinite(ref)
        for rows in (_DEFAULT_BATCH_ROWS, 7):
            monkeypatch.setattr(_AT, "_BATCH_ROWS", rows)
            fast = _log_law(y, T, bT, b)
            assert np.array_equal(np.isfinite(fast), ok)
            assert np.all(np.abs(fast[ok] - ref[ok]) <= 1e-12 + 4e-15 * np.abs(ref[ok])), (K, seed, rows)
            assert abs(math.fsum(np.exp(fast)) - 1.0) < 1e-13


@pytest.mark.parametrize("seed", range(4))
def test_fast_path_against_mpmath_on_random_small_instances(seed):
    """Reference: quad_law (mpmath.quad at 30 digits, split at every kink and every min(b, b_T)) on random
    instances with K = 2..6 (ties, both query scales): every entry within 1e-12 relative."""
    rng = np.random.default_rng(200 + seed)
    K = int(rng.integers(2, 7))
    y, T, eps, qs = _random_instance(rng, K)
    bT, b = _scales(eps, qs)
    got = nm.above_threshold_pmf(y, T, eps, query_scale=qs)
    assert _rel(got, quad_law(list(y), T, bT, b)) < 1e-12


# == one tree shared by the outputs of several chunks ==============================================================
def _varied_instance(rng):
    """Random, sorted, reversed, or tied values; a threshold anywhere around them; query noise 4/eps, or a
    scale from 1/4 to 15 times the threshold's (below 2 the left end from the threshold does not apply)."""
    K = int(rng.choice([1, 2, 5, 40, 200, 600]))
    eps = float(rng.choice([0.1, 0.5, 1.0, 3.0]))
    shape = int(rng.integers(0, 4))
    if shape == 0:
        y = rng.uniform(-1, 1, K) * float(rng.choice([2.0, 20.0, 200.0])) / eps
    elif shape == 1:
        y = np.sort(rng.uniform(0, 1, K)) * K * float(rng.choice([0.5, 5.0])) / eps
    elif shape == 2:
        y = rng.integers(0, 5, K).astype(float) * float(rng.choice([0.3, 3.0])) / eps
    else:
        y = np.sort(rng.uniform(0, 1, K))[::-1] * K * 3.0 / eps
    T = float(rng.uniform(y.min() - 10 / eps, y.max() + 10 / eps))
    qs = None if rng.random() < 0.5 else float(rng.choice([0.5, 2.0, 4.0, 30.0])) / eps
    return y, T, eps, qs


def _against_per_output(y, T, bT, b, monkeypatch):
    """(shared, per-output) ln P, the second with _SHARED = False (restored after)."""
    shared = _log_law(y, T, bT, b)
    monkeypatch.setattr(_AT, "_SHARED", False)
    ref = _log_law(y, T, bT, b)
    monkeypatch.setattr(_AT, "_SHARED", True)
    return shared, ref


def _within_bound(got, ref):
    ok = np.isfinite(ref)
    return np.array_equal(np.isfinite(got), ok) and bool(
        np.all(np.abs(got[ok] - ref[ok]) <= 1e-12 + 4e-15 * np.abs(ref[ok])))


@pytest.mark.parametrize("seed", range(8))
def test_shared_tree_against_per_output_planner(seed, monkeypatch):
    """Reference: the per-output planner (``_SHARED = False``: a tree of sub-intervals for each output, every
    earlier value in the series, no classes, no left end from the threshold), itself checked against mpmath
    above.  Random, sorted, reversed and tied values, query scales from b_T/4 to 15 b_T, with the default batch
    of integrands and batches of 7 (several chunks per batch), every chunk through the shared tree
    (_KINK_SHARE = 1) and the default split: every ln P within the certified error bound (1e-12 + 4e-15 |ln P|),
    zeros at the same places, the entries summing to 1."""
    rng = np.random.default_rng(300 + seed)
    for _ in range(5):
        y, T, eps, qs = _varied_instance(rng)
        bT, b = _scales(eps, qs)
        for batch, share in ((_AT._SHARED_BATCH, _AT._KINK_SHARE), (7, 1.0)):
            monkeypatch.setattr(_AT, "_SHARED_BATCH", batch)
            monkeypatch.setattr(_AT, "_KINK_SHARE", share)
            got, ref = _against_per_output(y, T, bT, b, monkeypatch)
            assert _within_bound(got, ref), (seed, y.size, eps, qs, batch, share)
            assert abs(math.fsum(np.exp(got)) - 1.0) < 1e-13


@pytest.mark.parametrize("seed", range(4))
def test_shared_tree_against_mpmath_on_small_instances(seed, monkeypatch):
    """Reference: quad_law (mpmath.quad at 30 digits, split at every kink) on random instances with K = 2..6,
    every chunk through the shared tree: every entry within 1e-12 relative."""
    monkeypatch.setattr(_AT, "_KINK_SHARE", 1.0)
    rng = np.random.default_rng(400 + seed)
    K = int(rng.integers(2, 7))
    y, T, eps, qs = _random_instance(rng, K)
    bT, b = _scales(eps, qs)
    assert _rel(nm.above_threshold_pmf(y, T, eps, query_scale=qs), quad_law(list(y), T, bT, b)) < 1e-12


def _class_instance():
    """Sixty earlier values from 10 to 24.75 (eps = 1: b_T = 2, b = 4, threshold 0), close enough that the left
    end L falls among them (at 15.2), then 200 equal values 25.2 b below L: classes of outputs whose earlier values
    in the class add d_k up to 200 e^-25.2/2 = 1.1e-9, with J1/J0 = 0.03 (the mass of the integrand near L)."""
    cl = 10.0 + 0.25 * np.arange(60)
    L = _AT._left_end(cl / 2.0, np.ones(60, dtype=np.int64), 3.0, 4, 2.0)     # normalised units: y/b_T, b = 2
    return np.concatenate((cl, np.full(200, 2.0 * (L - 25.2 * 2.0)))), 0.0


def test_class_law_against_per_output_planner_and_windowed_mpmath(monkeypatch):
    """References: the per-output planner (every earlier value in its series, one integral per output) on the
    whole law, and window_quad_entry (mpmath at 30 digits) on four outputs of the class, ln P within 1e-12
    relative.  The instance (_class_instance) goes through one class of two integrals (J0, J1), asserted by
    recording the classes.  Negative control: without the first-order term d_k J1 the class's outputs are off
    by up to 3e-11 in ln P, outside the bound."""
    y, T = _class_instance()
    seen = []
    real = _AT._class_log_p

    def record(lJ0, lJ1, dk, yoff):
        seen.append((lJ1 > -math.inf, dk.size))
        return real(lJ0, lJ1, dk, yoff)
    monkeypatch.setattr(_AT, "_class_log_p", record)
    got, ref = _against_per_output(y, T, 2.0, 4.0, monkeypatch)
    assert any(two and n >= 100 for two, n in seen)
    assert _within_bound(got, ref)
    for k in (80, 160, 259):
        w = mp.log(window_quad_entry(y, T, 2.0, 4.0, k))
        assert abs(mp.mpf(float(got[k])) - w) < 1e-12 * max(1.0, abs(float(w))), k
    monkeypatch.setattr(_AT, "_class_log_p", lambda lJ0, lJ1, dk, yoff: real(lJ0, -math.inf, dk, yoff))
    bad = _log_law(y, T, 2.0, 4.0)
    assert not _within_bound(bad, ref)
    assert np.max(np.abs(bad - got)) > 1e-11


def test_threshold_left_end_is_checked(monkeypatch):
    """Negative control of the comparisons above: a left end from the threshold 30 b_T too far right (it cuts
    off about e^-15 of the mass of every output, whose maximum is at T) takes the law outside the bound; the
    real one stays in it.  Values 100 to 200 b_T below T (eps = 1), so that the left end from the threshold is
    the one used."""
    rng = np.random.default_rng(5)
    y, T = rng.uniform(-400.0, -200.0, 300), 0.0
    got, ref = _against_per_output(y, T, 2.0, 4.0, monkeypatch)
    assert _within_bound(got, ref)
    real = _AT._threshold_left_end
    monkeypatch.setattr(_AT, "_threshold_left_end", lambda bT, b: real(bT, b) + 30.0)
    assert not _within_bound(_log_law(y, T, 2.0, 4.0), ref)


def test_shared_tree_is_faster_than_per_output_planner(monkeypatch):
    """The speed the shared tree is for, as a ratio of CPU time (time.process_time) in the same process: at
    K = 10^4, random values (the outputs fall into classes) at least 3 times faster than the per-output planner
    (measured 6 times), and cumulative counts with the threshold far above (every output's maximum at T) at least
    5 times (measured 15 times); the laws agree within the bound."""
    import time
    rng = np.random.default_rng(6)
    for y, T, factor in ((rng.uniform(-1000.0, 1000.0, 10**4), 0.0, 3.0), (_cumulative_counts(10**4, 3), 1e7, 5.0)):
        _log_law(y[:50], T, 2.0, 4.0)
        t0 = time.process_time()
        got = _log_law(y, T, 2.0, 4.0)
        t1 = time.process_time()
        monkeypatch.setattr(_AT, "_SHARED", False)
        ref = _log_law(y, T, 2.0, 4.0)
        t2 = time.process_time()
        monkeypatch.setattr(_AT, "_SHARED", True)
        assert _within_bound(got, ref)
        assert (t2 - t1) >= factor * (t1 - t0), (t2 - t1, t1 - t0)


@pytest.mark.parametrize("K,T", [(1206, 0.0), (5000, 20.0)])
def test_many_tied_values_against_one_dimensional_integrals(K, T):
    """Reference: with all K values 0, P(A = k) = int l_2(t - T) F(t)^k (1 - F(t)) dt (eps = 1), a 1-D integral,
    by mpmath.quad at 30 digits, at k = 0, K/2, K - 3, K - 1 and -1.  More than about 1075 tied earlier values
    at a piece's left end: the product of their factors underflowed when it was taken before its logarithm
    (P(A = -1) came out 5.4e-10 instead of 2.74e-6 at K = 1206, 7e-7 instead of 3.5e-3 at K = 5000)."""
    p = nm.above_threshold_pmf(np.zeros(K), T, 1.0)
    assert abs(math.fsum(p) - 1.0) < 1e-13
    with mp.workdps(45):
        TT = mp.mpf(T)

        def F(x):
            return mp.exp(x / 4) / 2 if x < 0 else 1 - mp.exp(-x / 4) / 2
        for k in (0, K // 2, K - 3, K - 1, K):
            last = (lambda t: 1 - F(t)) if k < K else (lambda t: 1)
            f = (lambda t, k=k, last=last: mp.exp(-abs(t - TT) / 2) / 4 * F(t) ** k * last(t))
            ref = mp.quad(f, sorted(set([-mp.inf, TT, mp.mpf(0)] + [mp.mpf(4 * j) for j in range(1, 60)] + [mp.inf])),
                          method="gauss-legendre")
            assert abs(mp.mpf(float(p[k])) / ref - 1) < 1e-12, k


def test_long_pieces_against_exact_values():
    """References exact up to the rounding of the result: pieces of 10^5 to 10^11 noise scales, where a node
    near a piece's right end must be placed from that end (placed from the left, it was off by an ulp of the
    piece's length, and the last sub-interval ran past T: ln P(A = 0) = +1.3e-9 at y = 10^8).
    * K = 1, y_0 = v above T = 0 (eps = 1): P(A = -1) = P(D > v) = (2/3) e^{-v/4} - (1/6) e^{-v/2} (D = nu - tau,
      the closed form of test_k1_closed_form), so ln P(A = 0) = ln(1 - P(D > v)) = 0 to double precision and
      ln P(A = -1) is computed in mpmath.
    * Twenty values 10^6 to 10^8 below T = 0, then y_20 = T (query noise 2 and 3.9): the earlier queries never
      fire (P < e^{-2.5 10^5}), so P(A = 20) = P(nu > tau) = 1/2 by symmetry.
    * Twenty values 10^9 below T (query noise 2): nothing fires, ln P(A = -1) = 0 to double precision."""
    for v in (1e5, 1e8, 1e9, 1e11):
        lp = _log_law(np.array([v]), 0.0, 2.0, 4.0)
        with mp.workdps(40):
            ref = mp.log(mp.mpf(2) / 3 * mp.exp(-mp.mpf(v) / 4) - mp.exp(-mp.mpf(v) / 2) / 6)
        assert abs(lp[0]) <= 1e-12, v
        assert abs(mp.mpf(float(lp[1])) - ref) <= 1e-12 + 4e-15 * abs(float(ref)), v
    y = np.concatenate((-1e6 - np.linspace(0, 200, 16), [-1e8] * 4, [0.0] * 13))
    for qs in (2.0, 3.9):
        p = nm.above_threshold_pmf(y, 0.0, 1.0, query_scale=qs)
        assert abs(p[20] - 0.5) <= 0.5e-12, qs
    y = -1e9 + np.random.default_rng(0).uniform(0, 20, 20)
    assert abs(_log_law(y, 0.0, 2.0, 2.0)[-1]) <= 1e-12
