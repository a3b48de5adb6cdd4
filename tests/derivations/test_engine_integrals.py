"""Negative controls of the conclusions of derivations.engine.integrals: for each way they check, a false (or
undecidable) statement that must not be PROVED, beside a true control that is.

References: the values of the integrals are computed by hand in each test (elementary antiderivatives), the
sums in Karr's convention by SymPy's own evaluation at a point."""
from __future__ import annotations

import sympy as sp

from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.integrals import case_integrals, conclude_integrals, conclude_sums_nonnegative
from derivations.engine.proofs import Parametrization, conclude_split

SRC = Source("test", "integrals")
t = sp.Symbol("t", real=True)
c = sp.Symbol("c", real=True)
lam = sp.Symbol("lambda", positive=True)
s = sp.Symbol("s", nonnegative=True)


def _claim(lhs, rhs, proof, relation="==", conditions=()):
    kind = "identity" if relation == "==" else "inequality"
    return Claim(id="t.integrals", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 conditions=tuple(conditions), proof=proof)


def test_exponential_integral_true_and_false():
    # int_0^oo lam e^{-lam t} dt = 1 (by hand: [-e^{-lam t}]_0^oo)
    integral = sp.Integral(lam * sp.exp(-lam * t), (t, 0, sp.oo))
    assert verify_inline(_claim(integral, 1, conclude_integrals)).label == "PROVED"
    assert not verify_inline(_claim(integral, 2, conclude_integrals)).proved
    assert not verify_inline(_claim(integral, 1, conclude_integrals, relation=">")).proved


def test_a_term_that_does_not_decay_is_refused():
    # int_0^oo e^t dt = oo; the formula e^{a v}/a taken at oo as 0 would give -1
    integral = sp.Integral(sp.exp(t), (t, 0, sp.oo))
    v = verify_inline(_claim(integral, -1, conclude_integrals))
    assert not v.proved and "decay" in str(v.checks[0].steps)


def test_pieces_are_decided_or_refused():
    # int_0^oo e^{-|t - c|} dt with c real and no case: the cut at t = c is not placed in ]0, oo[ -- refused
    integral = sp.Integral(sp.exp(-sp.Abs(t - c)), (t, 0, sp.oo))
    assert not verify_inline(_claim(integral, 2 - sp.exp(-c), conclude_integrals)).proved
    # with c >= 0 (by hand: int_0^c e^{t - c} dt + int_c^oo e^{c - t} dt = 1 - e^{-c} + 1) it is proved by a split
    cp, cn = sp.Symbol("c_p", nonnegative=True), sp.Symbol("c_n", positive=True)

    def split(cl):
        return conclude_split(cl, c, lambda k: case_integrals(k, Parametrization({c: cp}, {cp: c})),
                              lambda k: case_integrals(k, Parametrization({c: -cn}, {cn: -c})))
    right = sp.Piecewise((2 - sp.exp(-c), c >= 0), (sp.exp(c), True))    # c < 0: int_0^oo e^{c - t} dt = e^c
    assert verify_inline(_claim(integral, right, split)).label == "PROVED"
    wrong = sp.Piecewise((2 - sp.exp(-c), c >= 0), (1, True))
    assert not verify_inline(_claim(integral, wrong, split)).proved
    # a parametrization that does not cover the case is refused (c = c_p >= 0 used for c < 0)
    def bad(cl):
        return conclude_split(cl, c, lambda k: case_integrals(k, Parametrization({c: cp}, {cp: c})),
                              lambda k: case_integrals(k, Parametrization({c: cp}, {cp: c})))
    assert not verify_inline(_claim(integral, right, bad)).proved


def test_a_piece_of_width_s_and_nonlinear_pieces():
    # int_0^oo (1 if t < s else e^{s - t}) dt = s + 1 for s >= 0 (the piece ]0, s[ is empty at s = 0)
    integral = sp.Integral(sp.Piecewise((1, t < s), (sp.exp(s - t), True)), (t, 0, sp.oo))
    assert verify_inline(_claim(integral, s + 1, conclude_integrals)).label == "PROVED"
    assert not verify_inline(_claim(integral, s + 2, conclude_integrals)).proved
    # a piece condition that is not linear in the variable is refused, though the statement is true
    # (int_0^oo e^{-t} 1[t^2 < 1] dt = 1 - 1/e)
    curved = sp.Integral(sp.Piecewise((sp.exp(-t), t**2 < 1), (0, True)), (t, 0, sp.oo))
    assert not verify_inline(_claim(curved, 1 - sp.exp(-1), conclude_integrals)).proved
    # an integrand that is not a sum of exponentials is refused (int_0^oo t e^{-t} dt = 1, true)
    assert not verify_inline(_claim(sp.Integral(t * sp.exp(-t), (t, 0, sp.oo)), 1, conclude_integrals)).proved


n = sp.Symbol("n", integer=True, positive=True)
al = sp.Symbol("alpha", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
a = sp.Symbol("a", integer=True, nonnegative=True)
p = sp.Symbol("p", positive=True)


def _B(top):
    return sp.Sum(sp.binomial(n, j) * p**j * (1 - p)**(n - j), (j, 0, top))


def test_sums_with_a_nonnegative_block():
    w = sp.Symbol("w_1", nonnegative=True)
    block = sp.Sum(p**a, (a, 0, al - 1))
    end = sp.binomial(n, al) * p**al * (1 - p)**(n - al)
    conds = (sp.Lt(p, 1),)

    def proof(cl):
        return conclude_sums_nonnegative(cl, [block], end + w)
    # B(alpha; n, p) + sum_{a < alpha} p^a >= B(alpha - 1; n, p): true
    true = _claim(_B(al) + block, _B(al - 1), proof, ">=", conds)
    assert verify_inline(true).label == "PROVED (with citations)"
    # the reversed relation, and a false right side (one more), are refused
    assert not verify_inline(true.mutated("relation")).proved
    assert not verify_inline(_claim(_B(al) + block, _B(al - 1) + 1, proof, ">=", conds)).proved
    # a block whose terms may be negative: sum_{a < alpha} (p - 1/2) >= 0 is false at p = 1/4, alpha = 1
    neg = sp.Sum(p - sp.Rational(1, 2), (a, 0, al - 1))
    assert (neg.subs({p: sp.Rational(1, 4), al: 1}).doit()) < 0
    assert not verify_inline(_claim(neg, 0, lambda cl: conclude_sums_nonnegative(cl, [neg], w), ">=")).proved
    # a reversed range: in Karr's convention sum_{a=0}^{alpha-3} 1 = -2 at alpha = 0
    rev = sp.Sum(sp.Integer(1), (a, 0, al - 3))
    assert rev.subs(al, 0).doit() == -2
    assert not verify_inline(_claim(rev, 0, lambda cl: conclude_sums_nonnegative(cl, [rev], w), ">=")).proved
    # a block that is not in the statement
    assert not verify_inline(_claim(_B(al), _B(al - 1), proof, ">=", conds)).proved
