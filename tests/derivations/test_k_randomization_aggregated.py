"""The exact privacy of the aggregated counts (003, beyond the paper): independent checks.

References: exact enumeration with Fractions of every randomized collection (each record's report drawn
bit by bit, probability a product of p's and q's), independent of the claims' formulas; and the claims'
own statements evaluated at the enumerated values.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy as sp

import derivations
from derivations.engine.core import Claim, verify_inline
from derivations.k_randomization import aggregated as agg
from derivations.k_randomization.common import p, q


def _report_law(records, qq, L):
    """{histogram over the 2^L vectors: probability}, enumerating every randomized collection."""
    pp, law = 1 - qq, {}
    vectors = list(itertools.product((0, 1), repeat=L))
    for ys in itertools.product(vectors, repeat=len(records)):
        pr = Fraction(1)
        for x, y in zip(records, ys):
            for xb, yb in zip(x, y):
                pr *= pp if xb == yb else qq
        hist = tuple(sum(1 for y in ys if y == d) for d in vectors)
        law[hist] = law.get(hist, 0) + pr
    return law


def _max_ratio(n, qq, L):
    """max over neighbouring collections and outcomes of P[A(x') = s]/P[A(x) = s], by brute force."""
    vectors = list(itertools.product((0, 1), repeat=L))
    best = Fraction(0)
    for x in itertools.product(vectors, repeat=n):
        law_x = _report_law(x, qq, L)
        for x1 in vectors:
            if x1 == x[0]:
                continue
            law_y = _report_law((x1,) + x[1:], qq, L)
            best = max(best, max(law_y[s] / law_x[s] for s in law_x))
    return best


@pytest.mark.parametrize("n, qq, L", [(1, Fraction(1, 4), 1), (3, Fraction(1, 4), 1), (4, Fraction(1, 5), 1),
                                      (2, Fraction(1, 3), 2), (3, Fraction(1, 4), 2)])
def test_pure_epsilon_is_the_per_record_bound_for_every_n(n, qq, L):
    """Brute force: the largest privacy ratio of the counts is (p/q)^L, whatever n (kr.agg.* claims)."""
    assert _max_ratio(n, qq, L) == ((1 - qq) / qq) ** L


def _count_law(n, m, qq):
    """P[A_n(m) = s] for s = 0..n: enumeration of every report vector of m ones and n - m zeros."""
    law = _report_law([(1,)] * m + [(0,)] * (n - m), qq, 1)
    return [law.get((n - s, s), Fraction(0)) for s in range(n + 1)]   # vectors ordered (0,), (1,)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_ratio_range_and_its_attainment_on_enumerated_laws(n):
    """q/p <= pi(s; m) <= p/q for every s and m, with pi(0; m) = p/q: the claims' statements at the enumerated
    pmf values a = P[A_{n-1}(m) = s-1], b = P[A_{n-1}(m) = s] (and pi itself from the enumerated laws)."""
    qq = Fraction(1, 4)
    pp = 1 - qq
    for mm in range(n):
        lo, hi = _count_law(n, mm, qq), _count_law(n, mm + 1, qq)
        ratios = [lo[s] / hi[s] for s in range(n + 1)]
        assert ratios[0] == pp / qq and ratios[-1] == qq / pp
        assert all(qq / pp <= r <= pp / qq for r in ratios)
        prev = [Fraction(0)] + _count_law(n - 1, mm, qq) + [Fraction(0)]
        for s in range(n + 1):
            a, b = prev[s], prev[s + 1]
            assert (qq * a + pp * b) / (pp * a + qq * b) == ratios[s]     # the decomposition (3.2)-(3.3)
            if a > 0:   # the claim's own lhs at the enumerated values is the enumerated ratio
                lhs = derivations.get("kr.agg.loss_range_upper").lhs.subs(
                    {agg.a_pos: _r(a), agg.b_here: _r(b), p: _r(pp), q: _r(qq)})
                assert lhs == _r(ratios[s])


def _r(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def test_symmetry_on_enumerated_laws():
    """P[U_k = s] = P[V_{N-k} = n - s] on enumerated laws (kr.agg.symmetry), n = 5, every k."""
    qq, n = Fraction(1, 5), 5
    for k in range(n):
        U = _report_law([(1,)] + [(1,)] * k + [(0,)] * (n - 1 - k), qq, 1)
        V = _report_law([(0,)] + [(1,)] * (n - 1 - k) + [(0,)] * k, qq, 1)
        for (zeros, ones), pr in U.items():
            assert V[(ones, zeros)] == pr


def test_monotone_likelihood_ratio_on_enumerated_laws():
    """U_k(s)/V_k(s) is nondecreasing in s for every k (kr.agg.loss_monotone), n = 6, exact."""
    qq, n = Fraction(2, 7), 6
    for k in range(n):
        U = _report_law([(1,)] + [(1,)] * k + [(0,)] * (n - 1 - k), qq, 1)
        V = _report_law([(0,)] + [(1,)] * k + [(0,)] * (n - 1 - k), qq, 1)
        lr = [U[(n - s, s)] / V[(n - s, s)] for s in range(n + 1)]
        assert all(x <= y for x, y in zip(lr, lr[1:]))


def test_threshold_form_fails_with_p_and_q_exchanged_in_the_tails():
    """Negative control of kr.agg.threshold_form: with U(>= t) = q G(t-1) + p G(t) (p and q exchanged) the
    enumeration finds a counterexample."""
    wrong = sp.Symbol("wrong", real=True)

    def points():
        for nn, qq, cc in itertools.product(range(1, 5), agg._Q_VALUES, agg._C_VALUES):
            pp = 1 - qq
            for k in range(nn):
                b = agg._conv(agg._bin(k, pp), agg._bin(nn - 1 - k, qq)) + [Fraction(0)]
                U, V = agg._conv(b, [qq, pp])[:nn + 1], agg._conv(b, [pp, qq])[:nn + 1]
                hsum = sum(max(Fraction(0), U[s] - cc * V[s]) for s in range(nn + 1))
                G = [sum(b[t:]) for t in range(0, nn + 2)]
                G = [Fraction(1)] + G
                thr = max(qq * G[t] + pp * G[t + 1] - cc * (pp * G[t] + qq * G[t + 1]) for t in range(nn + 2))
                yield {agg.H_SUM: sp.Rational(hsum.numerator, hsum.denominator),
                       wrong: sp.Rational(thr.numerator, thr.denominator)}

    from derivations.engine.proofs import exhaust
    c = Claim(id="kr.agg.threshold_form.control", title="control", source=agg.S31, kind="identity",
              lhs=agg.H_SUM, rhs=wrong, enumeration=lambda cl: exhaust(cl, points(), scope="n <= 4 (control)"))
    v = verify_inline(c)
    assert not v.holds and v.counterexample is not None


def test_record_log_ratio_bound_is_tight_only_at_opposite_vectors():
    """kr.agg.record_log_ratio at integer points: equality iff delta(x_1, y) = L and delta(x_1', y) = 0."""
    c = derivations.get("kr.agg.record_log_ratio")
    for LL, dx, dxp in [(3, 3, 0), (3, 2, 0), (3, 3, 1), (2, 0, 2)]:
        val = (c.lhs - c.rhs).subs({agg.L: LL, agg.d_x: dx, agg.d_xp: dxp, p: sp.Rational(3, 4), q: sp.Rational(1, 4)})
        val = sp.nsimplify(sp.simplify(sp.expand_log(val, force=True)))
        assert (val == 0) == (dx == LL and dxp == 0) and val <= 0


def test_remove_records_bound_holds_on_enumerated_divergences():
    """The data-processing bound of kr.agg.remove_records, checked exactly: for n = 6, every interval
    [k1, k2] and every k in it, H_c(U_k || V_k) <= H_c for the population without the k2 - k1 records."""
    qq = Fraction(1, 4)
    pp = 1 - qq

    def hockey(ones, zeros, c):
        b = agg._conv(agg._bin(ones, pp), agg._bin(zeros, qq))
        U, V = agg._conv(b, [qq, pp]), agg._conv(b, [pp, qq])
        return sum(max(Fraction(0), u - c * v) for u, v in zip(U, V))

    N = 5
    for c in (Fraction(1), Fraction(3, 2)):
        for k1 in range(N + 1):
            for k2 in range(k1, N + 1):
                bound = hockey(k1, N - k2, c)
                assert all(hockey(k, N - k, c) <= bound for k in range(k1, k2 + 1))
