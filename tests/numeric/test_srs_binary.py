"""numeric.srs_binary against independent references.

References (none reuses the code under test):
* brute force (N <= 8): every x in {0,1}^N with total in [m_t, M_t], every sample of
  itertools.combinations, the Horvitz-Thompson estimate sum_{j in s} x_j N/n as an exact Fraction;
  delta and epsilon as max over all pairs x, x' at Hamming distance 1 (Fractions, mpmath 40 digits);
* exact binomials (math.comb, Python integers) turned into mpmath numbers at 40-50 digits;
* mpmath.loggamma at 50 digits for ln f_t(y) at N = 1e7;
* closed forms: TV <= P(the differing unit is sampled) = n/N, attained by (N - 1, N).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction as F
from functools import lru_cache

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.special import gammaln

from numeric.srs_binary import (_pair_deltas, srs_binary_delta0, srs_binary_epsilon0, srs_binary_log_pmf,
                                srs_binary_pmf_ratio)

LN_3_2 = float(mpmath.log(mpmath.mpf(3) / 2))  # eps = ln(3/2); e^eps = 3/2 up to half an ulp of eps


def mp_exp(eps: float, dps: int = 40):
    with mpmath.workdps(dps):
        return mpmath.exp(mpmath.mpf(eps))


def rel_err(got, exact) -> float:
    """|got - exact| / |exact| in mpmath (exact != 0)."""
    with mpmath.workdps(50):
        return float(abs(mpmath.mpf(float(got)) - exact) / abs(exact))


# -- (a) brute force over all samples and all data sets ---------------------------------------------
@lru_cache(maxsize=None)
def brute_laws(N: int, n: int):
    """{x: {HT estimate: probability}} for every x in {0,1}^N, SRS of n among N, exact."""
    samples = list(itertools.combinations(range(N), n))
    p = F(1, len(samples))
    laws = {}
    for x in itertools.product((0, 1), repeat=N):
        law = {}
        for s in samples:
            z = F(N * sum(x[j] for j in s), n)  # sum_{j in s} x_j / pi_j, pi_j = n/N
            law[z] = law.get(z, F(0)) + p
        laws[x] = law
    return laws


def brute_pairs(N, n, m_t, M_t):
    """Every ordered pair (f_x, f_x') of laws with x, x' at Hamming distance 1, totals in [m_t, M_t]."""
    laws = brute_laws(N, n)
    for x, fx in laws.items():
        if not m_t <= sum(x) <= M_t:
            continue
        for j in range(N):
            xp = x[:j] + (1 - x[j],) + x[j + 1:]
            if m_t <= sum(xp) <= M_t:
                yield fx, laws[xp]


def brute_delta(N, n, m_t, M_t, c):
    """max over neighbouring x, x' of sum_z (f_x(z) - c f_x'(z))_+ (c a Fraction, or an mpf:
    then the probabilities are converted to mpf at the working precision)."""
    def num(q):
        return q if isinstance(c, F) else mpmath.mpf(q.numerator) / q.denominator

    best = 0
    for fx, fxp in brute_pairs(N, n, m_t, M_t):
        total = sum(max(num(fx.get(z, F(0))) - c * num(fxp.get(z, F(0))), 0) for z in set(fx) | set(fxp))
        best = max(best, total)
    return best


def brute_epsilon(N, n, m_t, M_t):
    """max over neighbouring x, x' of ln max_z f_x(z)/f_x'(z); inf if the supports differ."""
    best = F(1)
    for fx, fxp in brute_pairs(N, n, m_t, M_t):
        if set(fx) != set(fxp):
            return math.inf
        best = max(best, max(fx[z] / fxp[z] for z in fx))
    with mpmath.workdps(40):
        return mpmath.log(mpmath.mpf(best.numerator) / best.denominator)


# (N, n, m_t, M_t): Result 9 gives inf iff min(m_t, N - M_t) < n
BRUTE_CASES = [
    (1, 1, 0, 1), (4, 2, 1, 3), (5, 1, 1, 4), (6, 2, 2, 4), (6, 2, 1, 4), (6, 3, 0, 6), (7, 2, 2, 5),
    (7, 3, 3, 4), (7, 1, 0, 7), (8, 3, 3, 5), (8, 3, 2, 6), (8, 2, 2, 6), (8, 2, 0, 3), (8, 4, 3, 5),
    (8, 8, 0, 8), (8, 1, 1, 7),
]


@pytest.mark.parametrize("N", range(1, 9))
def test_pmf_matches_sample_enumeration(N):
    for n in range(1, N + 1):
        laws = brute_laws(N, n)
        for t in range(N + 1):
            x = (1,) * t + (0,) * (N - t)
            law = {int(z * n / N): q for z, q in laws[x].items()}  # z = (N/n) y
            got = np.exp(srs_binary_log_pmf(np.arange(-1, n + 2), t, N, n))
            for y, g in zip(range(-1, n + 2), got):
                exact = law.get(y, F(0))
                assert (g == 0) if exact == 0 else abs(F(float(g)) / exact - 1) < F(1, 10**15), (N, n, t, y)


@pytest.mark.parametrize("case", BRUTE_CASES, ids=str)
def test_delta0_matches_brute_force(case):
    exact0 = brute_delta(*case, F(1))  # eps = 0: exact rational
    got0 = srs_binary_delta0(0.0, *case)
    assert abs(F(float(got0)) - exact0) <= F(1, 10**14) * max(exact0, F(1, 10**300))
    with mpmath.workdps(40):
        exact = brute_delta(*case, mpmath.mpf(3) / 2)  # eps = ln(3/2)
    got = srs_binary_delta0(LN_3_2, *case)
    assert (got == 0) if exact == 0 else rel_err(got, exact) < 1e-13
    both = srs_binary_delta0(np.array([0.0, LN_3_2]), *case)
    assert both.shape == (2,) and both == pytest.approx([got0, got], rel=1e-13, abs=1e-300)


@pytest.mark.parametrize("case", BRUTE_CASES, ids=str)
def test_epsilon0_matches_brute_force(case):
    exact = brute_epsilon(*case)
    got = srs_binary_epsilon0(*case)
    if exact == math.inf:
        assert got == np.inf
    else:
        assert rel_err(got, exact) < 1e-14 if exact > 0 else got == 0
        # delta0 vanishes from epsilon0 on (the max ratio is attained, so not below it)
        assert srs_binary_delta0(got * (1 + 1e-12), *case) == 0
        assert srs_binary_delta0(got * (1 - 1e-6), *case) > 0


# -- (b) log pmf against exact binomials / mpmath ---------------------------------------------------
def exact_log_pmf(y, t, N, n):
    """ln f_t(y) from mpmath.loggamma at 50 digits (|ln N!| <= 2e8: 40 digits remain)."""
    with mpmath.workdps(50):
        def lc(a, b):
            return mpmath.loggamma(a + 1) - mpmath.loggamma(b + 1) - mpmath.loggamma(a - b + 1)
        return lc(t, y) + lc(N - t, n - y) - lc(N, n)


def probe_points(N, n, t):
    """y in the support: both ends, and mean +- k sd for k up to 1000 (tails included)."""
    lo, hi = max(0, n + t - N), min(n, t)
    mean = n * t / N
    sd = math.sqrt(n * (t / N) * (1 - t / N) * (N - n) / max(N - 1, 1))
    ys = {lo, hi, lo + 1, hi - 1}
    for k in (0, 0.5, 1, 2, 3, 5, 8, 12, 20, 30, 40, 60, 100, 300, 1000):
        ys.update({int(round(mean - k * sd)), int(round(mean + k * sd))})
    return sorted(y for y in ys if lo <= y <= hi)


def design_grid(N):
    ns = sorted({1, 2, 7, max(N // 1000, 3), N // 100, N // 10, N // 3, N // 2, N - N // 10, N - 1, N})
    for n in ns:
        for t in sorted({0, 1, 2, 5, n, N // 100, N // 10, N // 3, N // 2, N - n, 2 * N // 3, N - 7, N - 1, N}):
            yield n, t


EXTENDED = np.finfo(np.longdouble).eps < np.finfo(float).eps


@pytest.mark.skipif(not EXTENDED, reason="the 1e-13 target relies on numpy's long double having more "
                    "precision than double (x86-64, most Linux); plain double gives a few ulps of ln f")
@pytest.mark.parametrize("N", [10**3, 10**5, 10**7])
def test_log_pmf_relative_error_against_mpmath(N):
    """|f/f_exact - 1| <= 1e-13 at every probe point with f >= 1e-300, tails included."""
    checked = 0
    for n, t in design_grid(N):
        ys = probe_points(N, n, t)
        got = np.atleast_1d(srs_binary_log_pmf(np.array(ys), t, N, n))
        for y, g in zip(ys, got):
            exact = exact_log_pmf(y, t, N, n)
            if exact < math.log(1e-300):
                continue
            with mpmath.workdps(50):
                err = abs(mpmath.expm1(mpmath.mpf(float(g)) - exact))
            assert err <= 1e-13, (N, n, t, y, float(exact), float(err))
            checked += 1
    assert checked > 400


def test_log_pmf_full_support_against_math_comb():
    """Every y of a few laws at N = 1000 against the exact integer ratio (no loggamma)."""
    N = 1000
    for n, t in [(100, 400), (500, 500), (999, 3), (10, 990), (1, 1), (700, 650)]:
        ys = np.arange(-2, n + 3)
        got = srs_binary_log_pmf(ys, t, N, n)
        total = math.comb(N, n)
        for y, g in zip(ys, got):
            num = math.comb(t, int(y)) * math.comb(N - t, n - int(y)) if 0 <= y <= n else 0
            if num == 0:
                assert g == -np.inf
                continue
            with mpmath.workdps(50):
                exact = mpmath.log(mpmath.mpf(num) / total)
                if exact > math.log(1e-300):
                    assert abs(mpmath.expm1(mpmath.mpf(float(g)) - exact)) <= 1e-13, (n, t, y)


def test_naive_gammaln_difference_is_not_accurate_at_1e7():
    """Why Loader's method: ln f as a difference of gammaln values of size ~1.5e8 inherits their
    ulps (~3e-8), i.e. a relative pmf error ~1e-8 at N = 1e7, against < 1e-13 here."""
    N = 10**7

    def naive(y, t, n):
        def lc(a, b):
            return gammaln(a + 1.0) - gammaln(b + 1.0) - gammaln(a - b + 1.0)
        return lc(t, y) + lc(N - t, n - y) - lc(N, n)

    naive_worst = ours_worst = 0.0
    for n, t in [(N // 2, N // 2), (N // 3, 2 * N // 3), (N // 10, N // 2), (N - 5, N // 2)]:
        mean, lo, hi = n * t / N, max(0, n + t - N), min(n, t)
        for y in {min(max(int(mean) + k, lo), hi) for k in (0, 300, -1000)}:
            exact = exact_log_pmf(y, t, N, n)
            naive_worst = max(naive_worst, float(abs(naive(y, t, n) - exact)))
            ours_worst = max(ours_worst, float(abs(mpmath.mpf(float(srs_binary_log_pmf(y, t, N, n))) - exact)))
    assert naive_worst > 1e-9
    assert ours_worst < 1e-13


def test_log_pmf_broadcasts_and_census():
    out = srs_binary_log_pmf(np.arange(4)[:, None], np.arange(5)[None, :], 6, 3)
    assert out.shape == (4, 5)
    y, t = 1, 2  # C(2,1) C(4,2) / C(6,3) = 12/20
    assert out[y, t] == pytest.approx(math.log(12 / 20), rel=1e-15)
    assert np.exp(out).sum(axis=0) == pytest.approx(np.ones(5), rel=1e-14)
    census = srs_binary_log_pmf(np.arange(6), 3, 5, 5)  # n = N: y = t surely
    assert list(census) == [-np.inf, -np.inf, -np.inf, 0.0, -np.inf, -np.inf]


# -- (c) ratio against exact Fractions --------------------------------------------------------------
def exact_ratio(y, t, N, n):
    a = math.comb(t, y) * math.comb(N - t, n - y)
    b = math.comb(t + 1, y) * math.comb(N - t - 1, n - y)
    return math.inf if b == 0 else F(a, b)


def test_ratio_exhaustive_small():
    for N in range(2, 13):
        for n in range(1, N + 1):
            for t in range(N):
                ys = np.arange(max(0, n + t - N), min(n, t + 1) + 1)
                got = srs_binary_pmf_ratio(ys, t, N, n)
                assert np.all(np.diff(got) < 0)  # decreasing in y
                for y, g in zip(ys, got):
                    exact = exact_ratio(int(y), t, N, n)
                    assert g == exact if exact in (0, math.inf) else abs(F(float(g)) / exact - 1) <= F(1, 2**52)


def test_ratio_large_population():
    rng = np.random.default_rng(5)
    N = 10**6
    for _ in range(20):
        n, t = int(rng.integers(1, 3000)), int(rng.integers(0, N))
        y = int(rng.integers(max(0, n + t - N), min(n, t + 1) + 1))
        g = srs_binary_pmf_ratio(y, t, N, n)
        exact = exact_ratio(y, t, N, n)
        assert g == exact if exact in (0, math.inf) else abs(F(float(g)) / exact - 1) <= F(1, 2**52)


def test_ratio_consistent_with_log_pmf():
    N, n = 10**5, 1000
    t = np.array([n, 20000, 50000, N - n - 1])[:, None]
    y = np.arange(0, n + 1, 37)[None, :]
    lr = srs_binary_log_pmf(y, t, N, n) - srs_binary_log_pmf(y, t + 1, N, n)
    assert np.allclose(np.log(srs_binary_pmf_ratio(y, t, N, n)), lr, rtol=0, atol=1e-12)


# -- (d) properties -----------------------------------------------------------------------------------
def exact_laws(N, n):
    """f_t(y) for t = 0..N as lists of exact Fractions."""
    total = math.comb(N, n)
    return [[F(math.comb(t, y) * math.comb(N - t, n - y), total) for y in range(n + 1)] for t in range(N + 1)]


@st.composite
def designs(draw, max_n_pop=30):
    N = draw(st.integers(1, max_n_pop))
    n = draw(st.integers(1, N))
    m_t = draw(st.integers(0, N - 1))
    M_t = draw(st.integers(m_t + 1, N))
    return N, n, m_t, M_t


@settings(max_examples=100, deadline=None)
@given(designs())
def test_epsilon0_is_max_log_ratio_over_pairs(case):
    """Result 9 against the definition: max over t in [m_t, M_t - 1], both orders, over all y, of
    the exact log-ratio (inf where a y lies in one support only)."""
    N, n, m_t, M_t = case
    laws = exact_laws(N, n)
    best = F(1)
    for t in range(m_t, M_t):
        for a, b in ((laws[t], laws[t + 1]), (laws[t + 1], laws[t])):
            for fa, fb in zip(a, b):
                if fa > 0 and fb == 0:
                    best = math.inf
                elif fa > 0 and best != math.inf:
                    best = max(best, fa / fb)
    got = srs_binary_epsilon0(*case)
    if best == math.inf:
        assert got == np.inf
    else:
        assert got == pytest.approx(math.log(best.numerator) - math.log(best.denominator), rel=1e-14, abs=1e-15)


@settings(max_examples=120, deadline=None)
@given(designs(max_n_pop=10**6))
def test_epsilon0_monotone_and_symmetric(case):
    N, n, m_t, M_t = case
    e = srs_binary_epsilon0(N, n, m_t, M_t)
    assert e > 0
    assert srs_binary_epsilon0(N, n, N - M_t, N - m_t) == e  # x -> 1 - x
    if M_t - m_t >= 2:  # a smaller range of totals is no less private
        assert srs_binary_epsilon0(N, n, m_t + 1, M_t) <= e
        assert srs_binary_epsilon0(N, n, m_t, M_t - 1) <= e
    if n < N:  # a larger sample is no more private
        assert srs_binary_epsilon0(N, n + 1, m_t, M_t) >= e
    if e < np.inf:
        assert srs_binary_epsilon0(N, n, m_t, M_t) == pytest.approx(
            max(math.log((N - M_t + 1) / (N - M_t + 1 - n)), math.log((m_t + 1) / (m_t + 1 - n))), rel=1e-12)


def test_epsilon0_vectorised():
    got = srs_binary_epsilon0(10, [1, 2, 3, 4], 3, 7)
    assert got.shape == (4,) and np.all(np.diff(got) > 0) and got[-1] == np.inf


@settings(max_examples=60, deadline=None)
@given(designs(max_n_pop=40), st.lists(st.floats(0, 8), min_size=1, max_size=6))
def test_delta0_bounds_monotone_and_tv(case, eps_list):
    N, n, m_t, M_t = case
    eps = np.sort(np.array([0.0, *eps_list, np.inf]))
    d = srs_binary_delta0(eps, *case)
    assert np.all((d >= 0) & (d <= n / N * (1 + 1e-14)))  # <= P(differing unit sampled) = n/N
    assert np.all(np.diff(d) <= 1e-15 * d[:-1])  # nonincreasing (up to rounding)
    laws = exact_laws(N, n)
    tv = max(sum(abs(a - b) for a, b in zip(laws[t], laws[t + 1])) / 2 for t in range(m_t, M_t))
    assert d[0] == pytest.approx(float(tv), rel=1e-13, abs=1e-300)
    # eps = inf: the mass of f_t outside supp f_t', both orders
    outside = max(sum((a for a, b in zip(laws[u], laws[v]) if b == 0), F(0))
                  for t in range(m_t, M_t) for u, v in ((t, t + 1), (t + 1, t)))
    assert d[-1] == pytest.approx(float(outside), rel=1e-13, abs=1e-300)
    e0 = srs_binary_epsilon0(*case)
    if e0 < np.inf:
        assert np.all(d[eps >= e0 * (1 + 1e-12)] == 0)


def exact_pair_delta(N, n, t, tp, c):
    """sum_y (f_t(y) - c f_tp(y))_+ with exact binomials and c an mpf."""
    total = math.comb(N, n)
    s = mpmath.mpf(0)
    for y in range(n + 1):
        v = math.comb(t, y) * math.comb(N - t, n - y) - c * (math.comb(tp, y) * math.comb(N - tp, n - y))
        if v > 0:
            s += v
    return s / total


@pytest.mark.parametrize("case", [(60, 12, 0, 60), (60, 12, 12, 48), (60, 12, 5, 20), (150, 40, 50, 90),
                                  (150, 149, 100, 150), (200, 7, 0, 10), (200, 7, 190, 200)], ids=str)
def test_delta0_moderate_against_exact(case):
    """Every ordered pair searched directly (no symmetry), exact binomials, mpmath 40 digits."""
    N, n, m_t, M_t = case
    eps = np.array([0.0, 0.05, 0.3, 1.0, 3.0])
    got = srs_binary_delta0(eps, *case)
    with mpmath.workdps(40):
        for e, g in zip(eps, got):
            c = mpmath.exp(mpmath.mpf(e))
            exact = max(max(exact_pair_delta(N, n, t, t + 1, c), exact_pair_delta(N, n, t + 1, t, c))
                        for t in range(m_t, M_t))
            if exact < 1e-290:  # below the double range
                assert g < 1e-290
            else:
                assert rel_err(g, exact) < 1e-13, (e, float(exact))


def test_pair_deltas_large_population_against_exact():
    """D_t at N = 1e5, n = 1e3 for a few t (grid recurrence anchored by Loader) against exact
    integer binomials built by their own recurrences."""
    N, n = 10**5, 1000
    total = math.comb(N, n)
    eps = np.array([0.0, 0.02, 0.1])
    for t in (500, 1000, 30000, 99500):
        f0, f1 = exact_row(N, n, t), exact_row(N, n, t + 1)
        got = _pair_deltas(eps, np.array([t]), N, n)[0]
        with mpmath.workdps(40):
            for e, g in zip(eps, got):
                c = mpmath.exp(mpmath.mpf(e))
                exact = sum((a - c * b for a, b in zip(f0, f1) if a - c * b > 0), mpmath.mpf(0)) / total
                assert (g < 1e-290) if exact < 1e-290 else rel_err(g, exact) < 1e-13, (t, e)


def test_delta0_large_population_full_range():
    """N = 1e5, n = 1e3, all totals: the pair (N - 1, N) attains the coupling bound n/N for every
    eps (f_{N-1}(n - 1) = n/N while f_N(n - 1) = 0)."""
    d = srs_binary_delta0(np.array([0.0, 0.5, 5.0, np.inf]), 10**5, 1000, 0, 10**5)
    assert d == pytest.approx(np.full(4, 0.01), rel=1e-13)


def exact_row(N, n, t):
    """C(t, y) C(N - t, n - y) for y = 0..n, by exact integer recurrences."""
    a, b = [1], [1]  # a[y] = C(t, y), b[k] = C(N - t, k)
    for k in range(n):
        a.append(a[-1] * (t - k) // (k + 1))
        b.append(b[-1] * (N - t - k) // (k + 1))
    return [a[y] * b[n - y] for y in range(n + 1)]


@pytest.mark.slow
def test_delta0_large_population_inner_range_against_naive_search():
    """N = 1e5, n = 1e3, totals in [20000, 30000]: every ordered pair searched with the naive
    gammaln pmf, whose relative error (~3e-10 here: ulps of ln 1e5! ~ 1e6) gives sums over y off by
    up to ~(1 + e^eps) 3e-10, hence atol 1e-9; then the maximum itself against exact integers."""
    N, n, m_t, M_t = 10**5, 1000, 20000, 30000
    eps = np.array([0.0, 0.01, 0.03])
    got = srs_binary_delta0(eps, N, n, m_t, M_t)
    y = np.arange(n + 1.0)[None, :]

    def pmf(t):
        def lc(a, b):
            return gammaln(a + 1.0) - gammaln(b + 1.0) - gammaln(a - b + 1.0)
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(np.exp(lc(t, y) + lc(N - t, n - y) - lc(N, n)))

    best = np.zeros(eps.size)
    argbest = [None] * eps.size
    for start in range(m_t, M_t, 500):
        t = np.arange(start, min(start + 500, M_t), dtype=float)[:, None]
        f0, f1 = pmf(t), pmf(t + 1)
        for i, c in enumerate(np.exp(eps)):
            for pair, d in (((0, 1), np.maximum(f0 - c * f1, 0).sum(axis=1)),
                            ((1, 0), np.maximum(f1 - c * f0, 0).sum(axis=1))):
                if d.max() > best[i]:
                    best[i] = d.max()
                    argbest[i] = tuple(int(t[d.argmax(), 0]) + p for p in pair)
    assert np.all(np.abs(got - best) <= 1e-9)
    total = math.comb(N, n)
    with mpmath.workdps(40):
        for i, (ta, tb) in enumerate(argbest):  # the pair found by the naive search, exactly
            fa, fb = exact_row(N, n, ta), exact_row(N, n, tb)
            c = mpmath.exp(mpmath.mpf(eps[i]))
            exact = sum((a - c * b for a, b in zip(fa, fb) if a - c * b > 0), mpmath.mpf(0)) / total
            assert got[i] >= float(exact) * (1 - 1e-13)  # the maximum is at least this pair's value
            assert abs(got[i] - float(exact)) <= 1e-9


def test_delta0_shapes():
    assert np.ndim(srs_binary_delta0(0.1, 10, 3, 2, 8)) == 0
    assert srs_binary_delta0(np.zeros((2, 3)), 10, 3, 2, 8).shape == (2, 3)
    assert srs_binary_delta0(np.array([]), 10, 3, 2, 8).shape == (0,)


# -- (e) bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: srs_binary_log_pmf(1, 2, 10, 11), "n must be"),
    (lambda: srs_binary_log_pmf(1, 2, 10, 0), "n must be"),
    (lambda: srs_binary_log_pmf(1, 2, 10.5, 3), "N must be"),
    (lambda: srs_binary_log_pmf(1, 2, 0, 1), "N must be"),
    (lambda: srs_binary_log_pmf(1, 2, 2**31, 1), "N must be"),
    (lambda: srs_binary_log_pmf(1, 11, 10, 3), "t must be"),
    (lambda: srs_binary_log_pmf(1, -1, 10, 3), "t must be"),
    (lambda: srs_binary_log_pmf(1.5, 2, 10, 3), "y must be"),
    (lambda: srs_binary_log_pmf(np.nan, 2, 10, 3), "y must"),
    (lambda: srs_binary_log_pmf(1, 2, "ten", 3), "N must be"),
    (lambda: srs_binary_log_pmf(1, 2, True, 1), "N must be"),
    (lambda: srs_binary_pmf_ratio(1, 10, 10, 3), "t must be"),
    (lambda: srs_binary_pmf_ratio(3, 1, 10, 3), "y must be"),
    (lambda: srs_binary_pmf_ratio(0, 9, 10, 3), "y must be"),
    (lambda: srs_binary_pmf_ratio(0, 0, 1, 1), "N must be"),
    (lambda: srs_binary_delta0(-0.1, 10, 3, 2, 8), "epsilon must be"),
    (lambda: srs_binary_delta0(np.nan, 10, 3, 2, 8), "epsilon must"),
    (lambda: srs_binary_delta0(0.1, 10, 11, 2, 8), "n must be"),
    (lambda: srs_binary_delta0(0.1, 10, 3, 8, 2), "M_t must be"),
    (lambda: srs_binary_delta0(0.1, 10, 3, 4, 4), "M_t must be"),
    (lambda: srs_binary_delta0(0.1, 10, 3, 2, 11), "M_t must be"),
    (lambda: srs_binary_delta0(0.1, 10, 3, -1, 8), "m_t must be"),
    (lambda: srs_binary_delta0(0.1, 10, 3, 2.5, 8), "m_t must be"),
    (lambda: srs_binary_delta0(0.1, 9.9, 3, 2, 8), "N must be"),
    (lambda: srs_binary_delta0(0.1, [10, 11], 3, 2, 8), "N must be"),
    (lambda: srs_binary_epsilon0(10, 11, 2, 8), "n must be"),
    (lambda: srs_binary_epsilon0(10, 3, 8, 2), "M_t must be"),
    (lambda: srs_binary_epsilon0(10, 3, 2, 11), "M_t must be"),
    (lambda: srs_binary_epsilon0(10.5, 3, 2, 8), "N must be"),
    (lambda: srs_binary_epsilon0(10, 3, -1, 8), "m_t must be"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_claims_attached():
    assert srs_binary_log_pmf.__claims__ == ("htm.r8.density",)
    assert srs_binary_pmf_ratio.__claims__ == ("htm.r8.pmf_ratio",)
    assert srs_binary_delta0.__claims__ == ("htm.r8.delta0", "htm.r4.delta0_pair")
    assert srs_binary_epsilon0.__claims__ == ("htm.r9.epsilon0", "htm.r8.pmf_ratio")


def test_public_functions_agree_with_the_generated_proved_expressions():
    """srs_binary_pmf_ratio and srs_binary_epsilon0 use their own stable forms; the generated code is
    the expression of the claims htm.r8.pmf_ratio and htm.r9.epsilon0."""
    from numeric import _generated as gen

    rng = np.random.default_rng(3)
    for _ in range(200):
        N = int(rng.integers(20, 10**6))
        n = int(rng.integers(1, N // 4))
        t = int(rng.integers(n, N - n - 1))
        y = int(rng.integers(0, n + 1))
        assert srs_binary_pmf_ratio(y, t, N, n) == pytest.approx(gen.srs_binary_pmf_ratio(y, t, N, n), rel=1e-12)
        m_t, M_t = int(rng.integers(n, N // 2)), int(rng.integers(N // 2 + 1, N - n + 1))
        assert srs_binary_epsilon0(N, n, m_t, M_t) == pytest.approx(
            gen.srs_binary_epsilon0_finite(N, n, m_t, M_t), rel=1e-9)
