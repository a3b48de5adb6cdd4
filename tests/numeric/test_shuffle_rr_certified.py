"""Certified results of numeric.shuffle_rr (003_6dfa2dbc38b4b249.txt, Section 3 and its 'TODO: max value of
ratio'): the safe side as q -> 1/2 (where ln(p/q) -> 0), the brackets of a search stopped early, the
result object of aggregated_epsilon, and the stated limits of n (numeric.krandomization.count_pmf,
fmt_clone_bound).

References, each independent of the code under test (each test says which):
* MID (tests/numeric/_ref_shuffle_rr.py): exact integer laws of the count for every k from the
  generating polynomials, q the exact rational value of its float, then the hockey-stick sums and the
  superlevel-set ratios in mpmath at 80 digits;
* BRUTE (same file): every collection, every neighbour and every randomized collection in Fractions;
* ln(p/q) in mpmath at 60 digits from the exact rational q.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction as Fr

import mpmath
import numpy as np
import pytest

import numeric as nm
from numeric import shuffle_rr as sr
from numeric.krandomization import count_pmf

import _ref_shuffle_rr as ref

MPMATH_DPS = 60

Q_HALF = 0.49999982837895435          # the q of the two reproducers (ln(p/q) = 6.86e-7)


def q_of(eps0):
    return 1.0 / (1.0 + math.exp(eps0))


def ln_odds(q):
    """ln(p/q) in mpmath at 60 digits, q its exact rational value."""
    with mpmath.workdps(60):
        qm = mpmath.mpf(Fr(q).numerator) / Fr(q).denominator
        return mpmath.log((1 - qm) / qm)


# == q -> 1/2: never below the exact value =======================================================================
def test_reproducers_near_one_half():
    """The two reproducers of a fuzz: at q = 0.49999982837895435 ln(p/q) of the rounded ratio is 6e-11
    relative below the exact value, so the pure epsilon was understated and eps = 6.864841825694195e-07
    (below the exact ln(p/q)) was given delta = 0 where the exact delta is 1.28e-18.  References: MID
    (exact integer laws, mpmath at 80 digits) and ln(p/q) at 60 digits."""
    e0 = ln_odds(Q_HALF)
    got = nm.aggregated_epsilon(5, Q_HALF, 0.0)
    assert got >= e0 and got <= e0 * (1 + 1e-15)
    eps = 6.864841825694195e-07
    assert mpmath.mpf(eps) < e0
    exact = ref.mid_profile(5, Fr(Q_HALF), eps=eps, dps=80)
    assert mpmath.mpf("1.2e-18") < exact < mpmath.mpf("1.3e-18")
    got = float(nm.aggregated_profile(5, Q_HALF, eps))
    assert exact <= got <= exact + 1e-15 * eps


@pytest.mark.parametrize("q", [Q_HALF, 0.5 - 2.0**-20, 0.5 - 2.0**-40, 0.5 - 2.0**-52, 0.375, 0.2, 1e-6])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_profile_near_the_pure_epsilon_never_below_exact(n, q):
    """At the floats around the exact ln(p/q) and a little below it, delta is never below the exact
    value, and is 0 exactly at floats above ln(p/q).  Reference: MID at 80 digits."""
    e0 = ln_odds(q)
    c = float(e0)
    below = [float(np.nextafter(c, 0.0)), c * (1 - 1e-9), c * (1 - 1e-3)]
    for eps in below + [c, float(np.nextafter(c, math.inf))]:
        exact = ref.mid_profile(n, Fr(q), eps=eps, dps=80)
        got = float(nm.aggregated_profile(n, q, eps))
        assert got >= exact, (eps, got, exact)
        assert got <= exact * (1 + 1e-7) + 1e-15 * max(eps, 1.0), (eps, got, exact)
        if mpmath.mpf(eps) > e0:
            assert exact == 0 and got == 0.0


@pytest.mark.parametrize("q", [Q_HALF, 0.5 - 2.0**-30, 0.5 - 2.0**-50, 0.3, 1e-6])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_epsilon_near_one_half_never_below_exact(n, q):
    """eps(delta) at tiny and moderate delta, and the pure epsilon, never below the exact value, and above
    it by at most the documented 2 eta absolute (eta, the relative error allowed for the window's
    probabilities, is below 2e-12 for these windows of at most 6 points).  Reference: MID (exact integer
    laws, the superlevel-set ratios in mpmath at 80 digits)."""
    e0 = ln_odds(q)
    got = nm.aggregated_epsilon(n, q, 0.0)
    assert e0 <= got <= float(np.nextafter(float(e0), math.inf))
    for delta in (1e-30, 1e-12, 1e-4):
        exact = ref.mid_epsilon(n, Fr(q), Fr(delta), dps=80)
        got = nm.aggregated_epsilon(n, q, delta)
        assert got >= exact, (delta, got, exact)
        assert got <= exact + 4e-12, (delta, got, exact)


# == the bracket contains the exact value ========================================================================
@pytest.mark.parametrize("q", [Fr(1, 4), Fr(1, 8), Fr(3, 8)], ids=str)
@pytest.mark.parametrize("n", [2, 4, 6])
def test_bracket_contains_bruteforce_value(n, q):
    """The bracket of aggregated_search (complete, and stopped after one evaluation) contains the exact
    maximum: eps from BRUTE (every collection and outcome, Fractions; the logarithm in mpmath) and delta
    at e^eps = 3/2 exactly (BRUTE in Fractions)."""
    qf = float(q)
    for delta in (Fr(1, 10), Fr(1, 1000)):
        exact = ref.brute_epsilon(n, q, delta)
        for budget in (None, 1):
            r = nm.aggregated_search(n, qf, delta=float(delta), max_evaluations=budget)
            assert r.lower <= exact <= r.upper, (delta, budget, r)
            assert r.upper >= r.value >= r.lower
    r_eps = float(mpmath.log(mpmath.mpf(3) / 2))
    exact = ref.brute_profile_at(n, q, r_eps)
    for budget in (None, 1):
        r = nm.aggregated_search(n, qf, epsilon=r_eps, max_evaluations=budget)
        assert r.lower <= exact <= r.upper, (budget, r)


@pytest.mark.parametrize("eps0", [0.5, 4.0])
def test_bracket_contains_exact_mid_size(eps0):
    """n = 120: the brackets of a complete search, of one stopped by rtol and of one stopped after 3
    evaluations all contain the exact maximum over every k (MID: exact integer laws, mpmath at 50 digits)."""
    n, q = 120, Fr(q_of(eps0))
    delta = Fr(1, 10**6)
    exact = ref.mid_epsilon(n, q, delta)
    for kw in ({}, dict(rtol=0.05), dict(max_evaluations=3)):
        r = nm.aggregated_search(n, float(q), delta=float(delta), **kw)
        assert r.lower <= exact <= r.upper, (kw, r)
        if "rtol" in kw:
            assert r.upper - r.lower <= 0.05 * r.upper


# == rtol, the CPU budget and the result object ==================================================================
def test_rtol_bracket_against_the_complete_search():
    """n = 20000, eps0 = 0.5: stopping at rtol = 1e-3 takes fewer evaluations, and its bracket contains the
    value of the complete search (certified equal to the full scan in test_shuffle_rr_search)."""
    n, q, delta = 20000, q_of(0.5), 1e-6
    full = nm.aggregated_epsilon(n, q, delta)
    cut = nm.aggregated_epsilon(n, q, delta, rtol=1e-3)
    assert full.complete and full.method == "search"
    assert cut.evaluations < full.evaluations
    assert cut.upper - cut.lower <= 1e-3 * cut.upper
    assert cut.lower <= full.lower and full.upper <= cut.upper
    assert float(cut) == cut.upper and float(full) == full.upper


def test_result_object():
    """The float returned carries its bracket, worst k, evaluations and completeness; they agree with
    aggregated_search, and with the exact full-scan maximum (n = 50, eps0 = 4: the worst k at delta = 0.2
    found by a scan of the exact per-k values, MID)."""
    n, q, delta = 50, q_of(4.0), 0.2
    e = nm.aggregated_epsilon(n, q, delta)
    r = nm.aggregated_search(n, q, delta=delta)
    assert isinstance(e, float) and float(e) == r.upper == e.upper
    assert e.lower == r.lower and e.worst_k == r.worst_k and e.evaluations == r.evaluations and e.complete
    exact = ref.mid_epsilon(n, Fr(q), Fr(delta))
    assert e.lower <= exact <= e.upper
    assert "complete" in e.describe() and f"worst k = {e.worst_k}" in e.describe()
    assert nm.aggregated_epsilon(n, q, 0.0).method == "pure"
    assert nm.aggregated_epsilon(3, q, 1e-3, L=2).method == "enumeration"
    fmt = nm.aggregated_epsilon(40, q, 1e-6, L=2)
    assert fmt.method == "clone bound" and fmt.lower == 0.0
    import pickle

    back = pickle.loads(pickle.dumps(e))
    assert back == e and back.worst_k == e.worst_k and back.lower == e.lower


def test_cpu_budget_returns_a_certified_bracket_at_huge_n():
    """aggregated_epsilon(10^9, 1/4, 1e-6) (no answer in 30 s before) stops at its CPU budget with a
    certified bracket; the upper end is the value.  Reference for the lower end: the certified upper end
    at n = 10^6, since the maximum does not increase with n (one more record adds an independent count to
    both laws: kr.agg.remove_records)."""
    t0 = time.process_time()
    e = nm.aggregated_epsilon(10**9, 0.25, 1e-6, cpu_budget=1.0)
    spent = time.process_time() - t0
    assert not e.complete and 0 < e.lower <= e.upper == float(e)
    assert spent < 10.0                           # the budget plus the evaluations under way
    assert e.lower <= nm.aggregated_epsilon(10**6, 0.25, 1e-6, rtol=1e-2).upper


# == stated limits ================================================================================================
def test_limits_are_enforced():
    """The calls that gave no answer in 30 s inside the documented domain are refused, naming n."""
    with pytest.raises(ValueError, match="^n "):
        count_pmf(2**50, 2**49, 0.25, s=[2**49])
    with pytest.raises(ValueError, match="^n "):
        nm.fmt_clone_bound(10**9, 1.0, 1e-6)
    with pytest.raises(ValueError, match="^n "):
        nm.fmt_clone_bound(2**31 - 1, 1.0, 1e-6)
    with pytest.raises(ValueError, match="^n "):
        nm.aggregated_epsilon(10**11, 0.25, 1e-6)
    with pytest.raises(ValueError, match="^n "):
        nm.aggregated_epsilon(10**9, 0.2, 1e-6, L=2)
    with pytest.raises(ValueError, match="^rtol "):
        nm.aggregated_epsilon(100, 0.2, 1e-6, rtol=0.0)
    with pytest.raises(ValueError, match="^cpu_budget "):
        nm.aggregated_epsilon(100, 0.2, 1e-6, cpu_budget=-1.0)


def test_count_pmf_at_the_limit():
    """count_pmf at n = 10^12 (the limit) at one point: the law of Bin(m, p) + Bin(n - m, q) with
    m = n/2, q = 1/4 at its centre s = n/2.  Reference: the local limit theorem with its first correction
    (a symmetric law: B = n/2 + Bin(m, q) - Bin(m, q) in law; P(B = n/2) = 1/sqrt(2 pi sigma^2) (1 + O(1/sigma^2))
    with sigma^2 = n p q), to 1e-9 relative at sigma^2 = 1.9e11."""
    n = 10**12
    got = float(count_pmf(n, n // 2, 0.25, s=[n // 2])[0])
    ref_v = 1.0 / math.sqrt(2 * math.pi * n * 0.25 * 0.75)
    assert abs(got / ref_v - 1) < 1e-9
