"""The fair-coin bound of numeric.shuffle_rr (``kr.agg.fair_coin``; 003_6dfa2dbc38b4b249.txt, Section 3.1):
for every k in [k1, k2], H_eps(U_k || V_k) <= H_eps(U'' || V'') + P(M < m0), where M ~ Bin(k2 - k1, 2q) counts
the records between k1 and k2 whose report is a fair coin and U'', V'' are the laws with those records
replaced by m0 fair coins; and the three-component window it is evaluated on.

References, each independent of the code under test (each test says which):
* exact laws in ``fractions.Fraction`` (binomials convolved term by term; q a rational), the hockey-stick
  divergence summed over every outcome and eps(delta) over every likelihood-ratio superlevel set, the
  logarithm taken in mpmath;
* the same laws in mpmath at 60 digits for the float routines (q the exact rational value of its float);
* the window: numeric.krandomization._count_window (a three-term recurrence for Bin(k, p) + Bin(N - k, q))
  convolved directly (positive terms) with Bin(m0, 1/2) from scipy.stats.
"""
from __future__ import annotations

import math
from fractions import Fraction as Fr

import mpmath
import numpy as np
import pytest
from scipy import stats

import numeric as nm
from numeric import shuffle_rr as sr
from test_shuffle_rr_search import eps_exact_mp

MPMATH_DPS = 60


def q_of(eps0):
    return 1.0 / (1.0 + math.exp(eps0))


# == exact laws in Fractions ======================================================================================
def _bin(m, r):
    return [math.comb(m, j) * r**j * (1 - r)**(m - j) for j in range(m + 1)]


def _conv(a, b):
    out = [a[0] * 0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _pair(B, q):
    """(U, V) = (B + Ber(p), B + Ber(q))."""
    p = 1 - q
    return _conv(B, [q, p]), _conv(B, [p, q])


def _hockey(P, Q, c):
    return sum(max(a - c * b, 0 * a) for a, b in zip(P, Q))


def _eps_frac(P, Q, delta):
    """eps(delta) = max(0, ln max_S (P(S) - delta)/Q(S)) over the superlevel sets of P/Q (exact ratio, mpmath log)."""
    order = sorted(range(len(P)), key=lambda i: -(P[i] / Q[i]))
    cp = cq = 0 * P[0]
    best = None
    for i in order:
        cp += P[i]
        cq += Q[i]
        r = (cp - delta) / cq
        best = r if best is None or r > best else best
    return 0.0 if best <= 1 else mpmath.log(mpmath.mpf(best.numerator) / best.denominator)


def _count(N, k, q, extra=()):
    """Bin(k, p) + Bin(N - k, q) (+ further laws), exactly."""
    B = _conv(_bin(k, 1 - q), _bin(N - k, q))
    for law in extra:
        B = _conv(B, law)
    return B


def _fair_pair(N, k1, k2, q, m0):
    """(U'', V''): the records between k1 and k2 replaced by m0 fair coins; and P(M < m0), M ~ Bin(k2 - k1, 2q)."""
    B = _conv(_conv(_bin(k1, 1 - q), _bin(N - k2, q)), _bin(m0, Fr(1, 2)))
    tail = sum(_bin(k2 - k1, 2 * q)[:m0])
    return _pair(B, q), tail


QS = (Fr(1, 4), Fr(1, 8), Fr(3, 8))
CS = (Fr(1), Fr(3, 2), Fr(3))


@pytest.mark.parametrize("q", QS, ids=str)
@pytest.mark.parametrize("n", [2, 4, 7])
def test_fair_coin_bound_dominates_every_k_exactly(n, q):
    """Reference: exact laws in Fractions.  For every interval [k1, k2] of k, every m0 = 0..k2 - k1 and
    e^eps in {1, 3/2, 3}: H(U_k || V_k) <= H(U'' || V'') + P(M < m0) for every k in the interval, and in the
    (eps, delta) form eps_k(delta) <= eps''(delta - P(M < m0)) where that is positive."""
    N = n - 1
    H = {k: _pair(_count(N, k, q), q) for k in range(N + 1)}
    for k1 in range(N + 1):
        for k2 in range(k1 + 1, N + 1):
            for m0 in range(k2 - k1 + 1):
                (U2, V2), tail = _fair_pair(N, k1, k2, q, m0)
                for c in CS:
                    bound = _hockey(U2, V2, c) + tail
                    for k in range(k1, k2 + 1):
                        assert _hockey(*H[k], c) <= bound, (k1, k2, m0, c, k)
                for delta in (Fr(1, 10), Fr(1, 1000)):
                    if delta - tail <= 0:
                        continue
                    b = _eps_frac(U2, V2, delta - tail)
                    for k in range(k1, k2 + 1):
                        assert _eps_frac(*H[k], delta) <= b, (k1, k2, m0, delta, k)


def test_a_bound_without_the_tail_term_is_caught():
    """Negative control for the test above: replacing all k2 - k1 records by fair coins and dropping P(M < m0)
    (a bound that is too small: fair coins have more variance than the records' reports) fails it.
    Reference: exact laws in Fractions."""
    caught = 0
    for q in QS:
        for n in (4, 7):
            N = n - 1
            for k1 in range(N + 1):
                for k2 in range(k1 + 1, N + 1):
                    (U2, V2), _ = _fair_pair(N, k1, k2, q, k2 - k1)
                    for c in CS:
                        wrong = _hockey(U2, V2, c)
                        caught += any(_hockey(*_pair(_count(N, k, q), q), c) > wrong for k in range(k1, k2 + 1))
    assert caught > 0


# == the float routine ===========================================================================================
def _laws_mp(N, k, q, coins=0):
    """(U, V) in mpmath at 60 digits, q the exact rational value of its float."""
    qf = Fr(q)
    qm = mpmath.mpf(qf.numerator) / qf.denominator
    B = _count(N, k, qm, extra=[[mpmath.binomial(coins, j) / mpmath.mpf(2)**coins for j in range(coins + 1)]])
    return _pair(B, qm)


INTERVALS = [(0, 59), (5, 45), (20, 59), (30, 50), (40, 59)]


@pytest.mark.parametrize("eps0", [0.5, 1.0])
@pytest.mark.parametrize("delta", [1e-2, 1e-4])
@pytest.mark.parametrize("rho", [None, 0.1])
def test_fair_bound_routine_dominates_every_k(eps0, delta, rho, monkeypatch):
    """Reference: exact eps_k(delta) of every k of the interval (mpmath laws at 60 digits), n = 60: the
    routine's bound (window, Bernstein's m0, delta lowered) is never below them, with the share rho of delta
    spent on P(M < m0) as used (1e-6) and at 0.1 (more fair coins kept at these small n).  Negative control:
    the same routine with every record of the interval a fair coin and delta kept (too small) falls below
    some eps_k, so the comparison would catch a bound that is too small."""
    if rho is not None:
        monkeypatch.setattr(sr, "_FAIR_RHO", rho)
    q = q_of(eps0)
    p = 1.0 - q
    N = 59
    lt = -math.log(delta) + sr._L_MARGIN
    exact = [eps_exact_mp(*_laws_mp(N, k, q), delta) for k in range(N + 1)]
    used = caught = 0
    for k1, k2 in INTERVALS:
        b = sr._fair_bound(N, k1, k2, q, delta, lt)
        top = max(exact[k1:k2 + 1])
        if b is not None:
            used += 1
            assert b >= top, (k1, k2, b, float(top))
        wrong = sr._eps_k_bracket(sr._Tails(N - (k2 - k1), k1, q, lt, coins=k2 - k1), p, q, delta)[0]
        caught += wrong < top
    assert caught >= 1
    assert used >= 1 or (rho is None and eps0 == 1.0 and delta == 1e-4)   # there Bernstein's m0 is 0 at n = 60


def test_fair_coins_tail_bound():
    """P(M < m0) <= e^-log_tau for the m0 of _fair_coins, M ~ Bin(w, 2q).  Reference: the binomial cdf in
    mpmath at 60 digits (a direct sum), over w up to 2000 and three q."""
    for q in (0.05, 0.25, 0.45):
        for w in (16, 100, 2000):
            for log_tau in (5.0, 20.0, 40.0):
                m0 = sr._fair_coins(w, q, log_tau)
                r = mpmath.mpf(Fr(2 * q).numerator) / Fr(2 * q).denominator
                tail = mpmath.fsum(mpmath.binomial(w, j) * r**j * (1 - r)**(w - j) for j in range(m0))
                assert tail <= mpmath.exp(-log_tau), (q, w, log_tau, m0)
                assert m0 >= 0.5 * 2 * q * w - 10 * math.sqrt(log_tau * w) - log_tau   # not a vacuous m0


# == the three-component window ==================================================================================
@pytest.mark.parametrize("N,k,coins,eps0", [(2000, 700, 900, 0.5), (60000, 59000, 30000, 4.0),
                                            (200000, 100000, 150000, 1.0)])
def test_window_with_coins_against_the_recurrence(N, k, coins, eps0):
    """Reference: numeric.krandomization._count_window (an independent recurrence) for Bin(k, p) +
    Bin(N - k, q), convolved directly with the pmf of Bin(coins, 1/2) from scipy.stats (positive terms),
    where the probability exceeds e^-60: the window (direct path for the first case, FFT for the others)
    is within its stated relative error eta."""
    from numeric.krandomization import _count_window

    q = q_of(eps0)
    s1, l1, _ = _count_window(N, k, q, log_floor=-120.0)[:3]
    coin = stats.binom.pmf(np.arange(coins + 1), coins, 0.5)
    keep = coin > 1e-80
    c0 = int(np.argmax(keep))
    ref = np.convolve(np.exp(np.where(np.isfinite(l1), l1, -np.inf)), coin[keep])
    s_ref = s1 + c0
    s2, l2, _, eta = sr._own_window(N, k, q, 100.0, coins=coins)
    a, b = max(s_ref, s2), min(s_ref + ref.size, s2 + l2.size)
    x, y = ref[a - s_ref:b - s_ref], l2[a - s2:b - s2]
    ok = x > math.exp(-60)
    assert ok.sum() > 100
    err = np.abs(np.expm1(y[ok] - np.log(x[ok])))
    assert np.all(err <= max(eta, 1e-9) + 1e-12), float(err.max())


# == the search with it ==========================================================================================
@pytest.mark.parametrize("eps0", [0.5, 4.0])
def test_search_with_the_fair_bound_contains_exact(eps0):
    """n = 150 (intervals long enough for the fair-coin bound): the brackets of the complete search and of one
    stopped at rtol = 0.02 contain the exact maximum over every k (mpmath laws at 60 digits)."""
    n, delta = 150, 1e-4
    q = q_of(eps0)
    exact = max(eps_exact_mp(*_laws_mp(n - 1, k, q), delta) for k in range(n))
    for kw in ({}, dict(rtol=0.02)):
        r = nm.aggregated_search(n, q, delta=delta, **kw)
        assert r.lower <= exact <= r.upper, (kw, r)


def test_fewer_evaluations_at_large_n():
    """The fair-coin bound keeps a share 1/(2p) of the removed records' variance, so a 0.1 % bracket at
    n = 10^6, eps0 = 1 needs fewer than half of the 845 evaluations of the remove-records bound alone
    (benchmarks/bench_shuffle_rr.py, before the fair-coin bound); its bracket still holds the complete
    search's value at n = 10^5 (reference: the complete search, certified equal to the full scan)."""
    r = nm.aggregated_search(10**6, q_of(1.0), delta=1e-6, rtol=1e-3)
    assert r.evaluations < 845 / 2 and r.upper - r.lower <= 1e-3 * r.upper
    full = nm.aggregated_search(10**5, q_of(1.0), delta=1e-6)
    cut = nm.aggregated_search(10**5, q_of(1.0), delta=1e-6, rtol=1e-3)
    assert cut.lower <= full.value <= cut.upper
