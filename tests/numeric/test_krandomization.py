"""Tests of numeric.krandomization (003_6dfa2dbc38b4b249.txt, Sections 2-3).

Independent references, named in each test: exact enumeration of all 2^n report vectors with
fractions.Fraction; mpmath at 50 digits of sum_j C(m, j) p^j q^(m-j) C(n-m, s-j) q^(s-j) p^(n-m-s+j)
(summed from its largest term outward by exact rational term ratios); the mpmath complement of the window."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

import numeric as nm
from numeric.krandomization import _count_window

MPMATH_DPS = 50      # every test of this module (tests/conftest.py)


# == independent references =====================================================================================
def enum_law(bits, q):
    """Exact law of the number of reported ones: every one of the 2^n report vectors, Fraction arithmetic."""
    q = Fraction(q)
    p = 1 - q
    n = len(bits)
    law = [Fraction(0)] * (n + 1)
    for y in itertools.product((0, 1), repeat=n):
        pr = Fraction(1)
        for x_, y_ in zip(bits, y):
            pr *= p if x_ == y_ else q
        law[sum(y)] += pr
    return law


def mp_log_pmf(N, k, q, s):
    """ln P[Bin(k,p) + Bin(N-k,q) = s] at 50 digits (the terms are log-concave in j: from the largest outward,
    stopping below 1e-40 of it)."""
    Q = mp.mpf(q)
    P = 1 - Q
    M = N - k
    if s < 0 or s > N:
        return mp.mpf("-inf")
    jlo, jhi = max(0, s - M), min(k, s)
    rho = (P / Q) ** 2

    def ratio(j):
        return rho * (k - j) * (s - j) / ((j + 1) * (M - s + j + 1))
    a, b = jlo, jhi
    while a < b:
        mid = (a + b) // 2
        if ratio(mid) >= 1:
            a = mid + 1
        else:
            b = mid
    jm = a
    lt = (mp.loggamma(k + 1) - mp.loggamma(jm + 1) - mp.loggamma(k - jm + 1) + jm * mp.log(P) + (k - jm) * mp.log(Q)
          + mp.loggamma(M + 1) - mp.loggamma(s - jm + 1) - mp.loggamma(M - s + jm + 1) + (s - jm) * mp.log(Q)
          + (M - s + jm) * mp.log(P))
    tot, t, j = mp.mpf(1), mp.mpf(1), jm
    while j < jhi:
        t *= ratio(j)
        j += 1
        tot += t
        if t < mp.mpf("1e-40"):
            break
    t, j = mp.mpf(1), jm
    while j > jlo:
        t /= ratio(j - 1)
        j -= 1
        tot += t
        if t < mp.mpf("1e-40"):
            break
    return lt + mp.log(tot)


def rel_err(computed_log, exact_log):
    return abs(float(mp.expm1(mp.mpf(float(computed_log)) - exact_log)))


# == rr_pmf =====================================================================================================
def test_rr_pmf_against_enumeration_of_flips():
    """Reference: the product over bits of p (kept) or q (flipped), exact Fractions, every pair x, y for L = 3."""
    q = 0.125
    xs = list(itertools.product((0, 1), repeat=3))
    X = np.array([[x] * len(xs) for x in xs])
    Y = np.array([xs] * len(xs))
    got = nm.rr_pmf(X, Y, q)
    for i, x in enumerate(xs):
        for j, y in enumerate(xs):
            want = math.prod(Fraction(7, 8) if a == b else Fraction(1, 8) for a, b in zip(x, y))
            assert got[i, j] == pytest.approx(float(want), rel=1e-15)
    assert np.allclose(nm.rr_pmf(X, Y, q, log=True), np.log(got), rtol=1e-14)     # the log flag
    assert got.sum(axis=1) == pytest.approx(np.ones(len(xs)), rel=1e-14)            # a law over y for each x


def test_rr_pmf_refuses_non_bits():
    with pytest.raises(ValueError, match="x"):
        nm.rr_pmf([2, 0], [1, 0], 0.2)
    with pytest.raises(ValueError, match="q"):
        nm.rr_pmf([1, 0], [1, 0], 0.6)


# == count_pmf ==================================================================================================
@pytest.mark.parametrize("n", [1, 3, 6])
def test_count_pmf_against_enumeration(n):
    """Reference: exact enumeration of all 2^n report vectors (Fraction), for every m; q a dyadic float."""
    q = 0.1875
    for m in range(n + 1):
        exact = enum_law([1] * m + [0] * (n - m), q)
        got = nm.count_pmf(n, m, q)
        assert np.allclose(got, [float(v) for v in exact], rtol=1e-13, atol=0)
        got_s = nm.count_pmf(n, m, q, s=[n, 0, -1, n + 1])
        assert got_s[0] == pytest.approx(float(exact[n]), rel=1e-13)
        assert got_s[1] == pytest.approx(float(exact[0]), rel=1e-13)
        assert got_s[2] == 0.0 and got_s[3] == 0.0                      # outside the support
        assert np.allclose(nm.count_pmf(n, m, q, log=True), np.log(got), rtol=1e-13)


def test_count_pmf_half_is_fair_coin():
    """q = 1/2: every report is a fair coin, A ~ Bin(n, 1/2) whatever m (exact: C(n, s) / 2^n)."""
    n = 9
    for m in (0, 4, 9):
        assert np.allclose(nm.count_pmf(n, m, 0.5), [math.comb(n, s) / 2**n for s in range(n + 1)], rtol=1e-14)


@pytest.mark.parametrize("N,k,q", [(10**6, 3 * 10**5, 0.3), (10**8, 10**7, 0.01), pytest.param(10**9, 4 * 10**8, 0.05, marks=pytest.mark.slow),
                                   (10**7, 10**7, 0.2), (10**7, 0, 0.01), (12345, 17, 0.001)])
def test_count_window_against_mpmath(N, k, q):
    """Reference: mpmath at 50 digits of the convolution sum, at the ends of the window, the mode and points
    between; relative error <= 1e-10 everywhere (the window reaches e^-800)."""
    start, lp, out = _count_window(N, k, q)
    n = lp.size
    assert max(lp[0], lp[-1]) < -790 or start == 0 or start + n - 1 == N
    idx = sorted({0, 1, n // 9, n // 3, int(np.argmax(lp)), n // 2 + 1, 3 * n // 4, n - 2, n - 1})
    worst = max(rel_err(lp[i], mp_log_pmf(N, k, q, start + i)) for i in idx)
    assert worst < 1e-10, worst


def test_count_pmf_far_tail_points_against_mpmath():
    """Reference: mpmath, at points far beyond the window (ln P down to -1.9e6) and inside it; the error is
    allowed the resolution of ln P as a float (|ln P| 2^-52) on top of 1e-10."""
    n, m, q = 10**6, 2 * 10**5, 0.1
    s = np.array([0, 10**5, 2.6 * 10**5, 5 * 10**5, 10**6])
    got = nm.count_pmf(n, m, q, s=s, log=True)
    for g, ss in zip(got, s):
        want = mp_log_pmf(n, m, q, int(ss))
        assert abs(float(g - want)) < 1e-10 + 4 * 2.0**-52 * abs(float(want))


def test_window_outside_mass_is_an_upper_bound():
    """Reference: mpmath complement of the window (sum of the exact pmf outside it), for floors that cut
    the law at moderate depth; the bound must hold and not be loose by more than e^5."""
    for N, k, q, floor in [(2000, 700, 0.2, -30.0), (500, 0, 0.05, -20.0), (3000, 2999, 0.3, -60.0)]:
        start, lp, out = _count_window(N, k, q, log_floor=floor)
        inside = set(range(start, start + lp.size))
        terms = [mp.exp(mp_log_pmf(N, k, q, s)) for s in range(N + 1) if s not in inside]
        exact = mp.log(mp.fsum(terms))
        assert out >= exact, (out, exact)
        assert out <= exact + 5
        # every point with ln P > floor is inside the window
        assert all(mp_log_pmf(N, k, q, s) <= floor for s in (start - 1, start + lp.size) if 0 <= s <= N)


def test_window_point_mass_at_zero():
    assert _count_window(0, 0, 0.3) == (0, pytest.approx(np.zeros(1)), -math.inf)


# == privacy_ratio ==============================================================================================
@pytest.mark.parametrize("n", [1, 2, 5])
def test_privacy_ratio_against_enumeration(n):
    """Reference: exact Fraction enumeration of both laws (m and m + 1 ones)."""
    q = 0.3125
    for m in range(n):
        a, b = enum_law([1] * m + [0] * (n - m), q), enum_law([1] * (m + 1) + [0] * (n - m - 1), q)
        got = nm.privacy_ratio(np.arange(n + 1), m, n, q)
        assert np.allclose(got, [float(x / y) for x, y in zip(a, b)], rtol=1e-13)


def test_privacy_ratio_bounds_attained_at_the_ends():
    """kr.agg.pure_epsilon: q/p <= pi <= p/q, p/q at s = 0 and q/p at s = n (exact values); pi decreasing in s.
    Negative control: interior points are strictly inside."""
    q = 0.2
    for n, m in [(7, 3), (200, 0), (200, 199), (10**6, 4 * 10**5)]:
        s = np.unique(np.linspace(0, n, 41).round())
        r = nm.privacy_ratio(s, m, n, q)
        assert r[0] == pytest.approx(4.0, rel=1e-15) and r[-1] == pytest.approx(0.25, rel=1e-15)
        assert np.all(np.diff(r) <= 0)
        assert np.all((r[1:-1] < 4.0) & (r[1:-1] > 0.25))


def test_privacy_ratio_large_n_against_mpmath():
    """Reference: mpmath ratio of the two pmfs at 50 digits, deep in the tail (ratio near its bounds) and near
    the centre; log flag checked against the log of the ratio."""
    n, m, q = 10**7, 3 * 10**6, 0.05
    for s in [3_400_000, 3_200_000, 3_000_000, 2_900_000]:
        want = mp_log_pmf(n, m, q, s) - mp_log_pmf(n, m + 1, q, s)
        got = nm.privacy_ratio(s, m, n, q, log=True)
        assert abs(float(got - want)) < 1e-10 * max(1.0, abs(float(want)))
        assert float(nm.privacy_ratio(s, m, n, q)) == pytest.approx(math.exp(float(want)), rel=1e-10)


# == count_quantile =============================================================================================
def test_count_quantile_against_enumeration_and_step_claim():
    """Reference: the exact Fraction cdf (enumeration); and the paper's claim tau_n(m) - tau_n(m-1) in {0, 1}
    (Section 3.1.3) on every m, for a grid of alpha."""
    n, q = 6, 0.25
    alphas = [0.01, 0.1, 0.3, 0.5, 0.77, 0.95, 0.999, 1.0]
    taus = []
    for m in range(n + 1):
        law = enum_law([1] * m + [0] * (n - m), q)
        cdf = list(itertools.accumulate(law))
        want = [next(y for y in range(n + 1) if cdf[y] >= Fraction(a)) for a in alphas]
        got = nm.count_quantile(n, m, q, alphas)
        assert list(got) == want
        taus.append(got)
    steps = np.diff(np.array(taus), axis=0)
    assert np.isin(steps, (0, 1)).all()


@pytest.mark.parametrize("n,q", [(1000, 0.1), (10**6, 0.3)])
def test_quantile_step_claim_large_n(n, q):
    """Paper's claim (Section 3.1.3) on consecutive m at large n; negative control: five steps apart the
    difference reaches 2 (so the comparison can see a step larger than 1)."""
    alphas = np.array([1e-6, 0.05, 0.5, 0.95])
    ms = list(range(0, 20)) + list(range(n // 3, n // 3 + 20)) + list(range(n - 19, n + 1))
    t = {m: nm.count_quantile(n, m, q, alphas) for m in ms}
    for m in ms:
        if m - 1 in t:
            assert np.isin(t[m] - t[m - 1], (0, 1)).all()
    assert any(np.any(t[m + 5] - t[m] >= 2) for m in ms if m + 5 in t)   # (p - q) per m: 5 steps move >= 2


def test_count_pmf_whole_law_refused_when_too_large():
    with pytest.raises(ValueError, match="n"):
        nm.count_pmf(10**9, 10, 0.1)


def test_count_pmf_whole_law_keeps_the_window_accuracy():
    """Reference: mpmath at 50 digits at the mode and in the tail of the whole law (s=None), n = 2e5: the
    far ends of the support (ln P ~ -1e5) must not pass their float resolution on to the centre."""
    n, m, q = 2 * 10**5, 6 * 10**4, 0.2
    pmf = nm.count_pmf(n, m, q)
    mode = int(np.argmax(pmf))
    for s in (mode, mode + 1500, mode - 3000):
        assert rel_err(math.log(pmf[s]), mp_log_pmf(n, m, q, s)) < 1e-11
    assert pmf.sum() == pytest.approx(1.0, rel=1e-12)
