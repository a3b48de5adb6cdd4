"""The exact privacy of the aggregated counts (003, beyond the paper): independent checks.

References: exact enumeration with Fractions of every randomized collection (each record's report drawn
bit by bit, probability a product of p's and q's), independent of the claims' formulas; and the claims'
own statements evaluated at the enumerated values.
"""
from __future__ import annotations

import itertools
from math import comb
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


def _fair_coin_joint(ones, zeros, qq):
    """{(D, M): probability}: every record drawn in two stages (a fair coin with probability 2q, else its own
    bit), enumerated stage by stage in Fractions; D the count of reported 1s, M the number of fair coins."""
    law = {(0, 0): Fraction(1)}
    for bit in [1] * ones + [0] * zeros:
        new = {}
        for (d, m), pr in law.items():
            for dd, mm, w in ((0, 1, qq), (1, 1, qq), (bit, 0, 1 - 2 * qq)):   # 2q (1/2) for each coin face
                new[(d + dd, m + mm)] = new.get((d + dd, m + mm), 0) + pr * w
        law = new
    return law


@pytest.mark.parametrize("qq", [Fraction(1, 4), Fraction(1, 10), Fraction(2, 5)])
def test_fair_coin_decomposition_on_enumerated_laws(qq):
    """kr.agg.fair_coin against enumeration: for e_2 ones and e_3 zeros (e_2 + e_3 <= 5), the two-stage draw
    gives the count law of the records' own reports (enumerated report by report, _report_law), the
    fair-coin count M ~ Bin(e_2 + e_3, 2q) whatever the split, and the claim's two sides, expanded at q,
    are the generating polynomial of that count."""
    z = agg.z
    c = derivations.get("kr.agg.fair_coin")
    for w in range(6):
        m_law = None
        for e2 in range(w + 1):
            e3 = w - e2
            joint = _fair_coin_joint(e2, e3, qq)
            d_law = [sum(pr for (d, _), pr in joint.items() if d == s) for s in range(w + 1)]
            assert d_law == _count_law(w, e2, qq)
            ms = [sum(pr for (_, m), pr in joint.items() if m == j) for j in range(w + 1)]
            assert ms == [comb(w, j) * (2 * qq)**j * (1 - 2 * qq)**(w - j) for j in range(w + 1)]
            assert m_law is None or ms == m_law
            m_law = ms
            at = {agg.e2: e2, agg.e3: e3, q: _r(qq)}
            poly = sum(_r(pr) * z**s for s, pr in enumerate(d_law))
            assert sp.expand(c.lhs.subs(at) - poly) == 0 and sp.expand(c.rhs.subs(at) - poly) == 0


def test_fair_coin_with_the_weights_exchanged_is_refused():
    """Negative control of kr.agg.fair_coin: the mixture with the weights of the coin and of the bit exchanged
    (1 - 2q a fair coin, 2q the bit) is not the law of the reports (engine and enumeration both refuse it)."""
    z = agg.z
    coin = (1 + z) / 2
    wrong = ((1 - 2 * q) * coin + 2 * q * z)**agg.e2 * ((1 - 2 * q) * coin + 2 * q)**agg.e3
    c = Claim(id="kr.agg.fair_coin.control", title="control", source=agg.S31, kind="identity",
              lhs=derivations.get("kr.agg.fair_coin").lhs, rhs=wrong)
    assert not verify_inline(c).proved
    at = {agg.e2: 2, agg.e3: 1, q: sp.Rational(1, 5)}     # (at q = 1/4 the two weights are both 1/2)
    poly = sum(_r(pr) * z**s for s, pr in enumerate(_count_law(3, 2, Fraction(1, 5))))
    assert sp.expand(wrong.subs(at) - poly) != 0
