"""derivations.engine.sums: finite sums with symbolic limits (indefinite sums, reindexing, binomial theorem)
and signs under linear conditions.  Each conclusion is shown to fail on a changed statement; the
indefinite-sum rewriting is checked against SymPy's own evaluation of the sums at integer limits, reversed
(Karr) ranges included."""
from __future__ import annotations

import itertools

import pytest
import sympy as sp

from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.sums import conclude_sums, sign_under

SRC = Source("test", "sums")
j = sp.Symbol("j", integer=True, nonnegative=True)
a, b, c = sp.symbols("a b c", integer=True)
n, m = sp.symbols("n m", integer=True, positive=True)
p = sp.Symbol("p", positive=True)
f = j**2 + 3 * j                                   # any summand
binom_term = sp.binomial(n, j) * p**j * (1 - p)**(n - j)


def B(top, prob):
    return sp.Sum(sp.binomial(n, j) * prob**j * (1 - prob)**(n - j), (j, 0, top))


def identity(lhs, rhs, proof, conditions=(), relation="==", kind="identity"):
    return Claim(id="t.sums", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 conditions=conditions, proof=proof)


def test_adjacent_ranges_merge_and_the_identity_holds_at_integer_limits_reversed_included():
    k = sp.Symbol("k", integer=True)             # negative limits: an index of any sign
    g = f.subs(j, k)
    lhs = sp.Sum(g, (k, a, b)) + sp.Sum(g, (k, b + 1, c))
    rhs = sp.Sum(g, (k, a, c))
    assert verify_inline(identity(lhs, rhs, lambda cl: conclude_sums(cl, 0))).label.startswith("PROVED")
    # reference: SymPy's evaluation of the three sums, every order of a, b, c in -3..3 (Karr's convention)
    for av, bv, cv in itertools.product(range(-3, 4), repeat=3):
        pt = {a: av, b: bv, c: cv}
        assert (lhs - rhs).subs(pt).doit() == 0, pt


def test_a_sum_one_term_longer_differs_by_that_term_and_a_wrong_term_fails():
    lhs = sp.Sum(f, (j, 0, c)) - sp.Sum(f, (j, 0, c - 1))
    good = identity(lhs, f.subs(j, c), lambda cl: conclude_sums(cl, 0))
    bad = identity(lhs, f.subs(j, c - 1), lambda cl: conclude_sums(cl, 0))      # negative control
    assert verify_inline(good).label.startswith("PROVED")
    assert not verify_inline(bad).proved


def test_binomial_tail_reflection_needs_the_reindexing_and_the_binomial_theorem():
    """B(n - m; n, 1 - p) = 1 - B(m - 1; n, p) for m <= n: without the reindexing the proof does not go through
    (m <= n is stated: for m > n + 1 and p = 1 a term (1 - p)^(n - j) is 0^(-1))."""
    tail = B(n - m, 1 - p)
    cl = identity(tail, 1 - B(m - 1, p), lambda c_: conclude_sums(c_, 0, reflect={tail: n}), conditions=(sp.Le(m, n),))
    v = verify_inline(cl)
    assert v.label == "PROVED (with citations)"
    assert {"karr_indefinite_sum", "binomial_symmetry", "binomial_theorem"} <= set(v.citations)
    unreflected = identity(tail, 1 - B(m - 1, p), lambda c_: conclude_sums(c_, 0))
    assert not verify_inline(unreflected).proved
    wrong = identity(tail, 1 - B(m, p), lambda c_: conclude_sums(c_, 0, reflect={tail: n}))
    assert not verify_inline(wrong).proved
    # reference: both sides evaluated exactly at small n, m and p = 1/3
    for nv, mv in ((1, 1), (4, 2), (7, 7), (6, 1)):
        pt = {n: nv, m: mv, p: sp.Rational(1, 3)}
        assert (tail - 1 + B(m - 1, p)).subs(pt).doit() == 0


def test_reindexing_needs_a_nonnegative_integer():
    x = sp.Symbol("x", real=True)
    tail = B(n - m, 1 - p).subs(n, x)
    cl = identity(tail, 1 - B(m - 1, p).subs(n, x), lambda c_: conclude_sums(c_, 0, reflect={tail: x}))
    assert not verify_inline(cl).proved


def test_inequality_needs_the_certificate_and_its_sign():
    """B(m; n, p) >= B(m - 1; n, p): proved with the term C(n, m) p^m (1 - p)^(n - m) for p <= 1; not for a wrong
    certificate, and not without the condition p <= 1 (the term's sign is then unknown)."""
    term = sp.binomial(n, m) * p**m * (1 - p)**(n - m)
    conds = (sp.Le(p, 1), sp.Le(m, n))

    def claim_(cert, conditions=conds, relation=">="):
        return identity(B(m, p), B(m - 1, p), lambda c_: conclude_sums(c_, cert), conditions=conditions,
                        relation=relation, kind="inequality")
    assert verify_inline(claim_(term)).label.startswith("PROVED")
    assert not verify_inline(claim_(2 * term)).proved
    assert not verify_inline(claim_(term, conditions=())).proved
    assert not verify_inline(claim_(term, relation="<=")).proved


@pytest.mark.parametrize("expr, need, expected", [
    (1 - sp.Symbol("i", integer=True, positive=True) / 10 - sp.Symbol("g", nonnegative=True) / 2, "positive", True),
    (sp.Rational(19, 20) - sp.Symbol("i", integer=True, positive=True) / 10 - sp.Symbol("g", nonnegative=True) / 2,
     "nonnegative", True),
    (sp.Rational(19, 20) - sp.Symbol("i", integer=True, positive=True) / 10 - sp.Symbol("g", nonnegative=True) / 2,
     "positive", False),                 # zero at i = 9, g = 1/10
    (sp.Rational(18, 19) - sp.Symbol("i", integer=True, positive=True) / 10 - sp.Symbol("g", nonnegative=True) / 2,
     "nonnegative", False),              # negative at i = 9, g = 1/10
])
def test_linear_signs_from_the_conditions(expr, need, expected):
    i, g = sp.Symbol("i", integer=True, positive=True), sp.Symbol("g", nonnegative=True)
    conds = (sp.Le(i, 9), sp.Le(g, sp.Rational(1, 10)))
    assert sign_under(expr, need, conds) is expected
    # reference: the corners of the box 1 <= i <= 9, 0 <= g <= 1/10 (a linear function's extremes)
    values = [expr.subs({i: iv, g: gv}) for iv in (1, 9) for gv in (0, sp.Rational(1, 10))]
    holds = all(v > 0 for v in values) if need == "positive" else all(v >= 0 for v in values)
    assert holds is expected


def test_products_and_powers_count_their_negative_factors():
    i, r = sp.Symbol("i", integer=True, positive=True), sp.Symbol("r", integer=True, positive=True)
    conds = (sp.Le(i, 9), sp.Le(p, 1))
    assert sign_under(10 * r - i * r, "positive", conds)          # r (10 - i), factored
    assert not sign_under(8 * r - i * r, "nonnegative", conds)    # negative at i = 9
    assert sign_under((1 - p)**(10 * r - i * r), "nonnegative", conds)
    assert not sign_under((1 - p)**(10 * r - i * r), "positive", conds)   # 0 at p = 1
    assert sign_under(-(1 - p)**r, "nonpositive", conds) and not sign_under(-(1 - p)**r, "nonnegative", conds)
    assert sign_under((p - 1) * (i - 10), "nonnegative", conds)   # two nonpositive factors
    assert not sign_under((p - 1) * (10 - i), "nonnegative", conds)
