"""The conclusions of :mod:`derivations.engine.bounds`: a composed instance of cited results, bounds on a
notation, and pieces compared on the extended real line.  Each has a true control, and a false statement for each
way it checks, which must not be PROVED."""
from __future__ import annotations

import sympy as sp

import derivations
from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.notation import held
from derivations.engine.proofs import CITED_FORMS, conclude
from derivations.engine.bounds import conclude_bounds, conclude_composed, conclude_extended_pieces

SRC = Source("test", "bounds")
N, n = sp.symbols("N n", integer=True, positive=True)
q = sp.Symbol("q", positive=True)
JOINT = sp.Symbol("Pr(f = 1, F = 1)", nonnegative=True)
FIRST = sp.Symbol("Pr(F = 1)", nonnegative=True)
GIVEN = sp.Symbol("Pr(f = 1 | F = 1)", nonnegative=True)
RIGHT = n * q * (1 - q)**(N - 1)


def _templates(key):
    derivations.get("ss.unique_proportion")          # the package that registers the forms
    form = CITED_FORMS[key]
    syms = form.lhs.free_symbols | form.rhs.free_symbols
    for cnd in form.conditions:
        syms |= cnd.free_symbols
    return form, {s.name: s for s in syms}


def _composed(rhs=RIGHT, conditions=(sp.Le(n, N), sp.Lt(q, 1)), lhs=JOINT, outer_given=GIVEN, given_lhs=GIVEN,
              extra_inner=False):
    rule, r = _templates("multiplication_rule")
    iid, i = _templates("srs_of_iid_units")
    hyp, h = _templates("multivariate_hypergeometric_law")
    inner = {FIRST: ("srs_of_iid_units", {iid.lhs: FIRST, i["N_{iid}"]: N, i["n_{iid}"]: N, i["k_{iid}"]: 1,
                                          i["q_{iid}"]: q}),
             GIVEN: ("multivariate_hypergeometric_law",
                     {hyp.lhs: given_lhs, h["F_{pop1}"]: 1, h["f_{smp1}"]: 1, h["F_{pop2}"]: N - 1,
                      h["f_{smp2}"]: n - 1, h["F_{pop3}"]: 0, h["f_{smp3}"]: 0})}
    if extra_inner:
        spare = sp.Symbol("Pr(unused)", nonnegative=True)
        inner[spare] = inner[FIRST][0], {**inner[FIRST][1], iid.lhs: spare}
    outer = ("multiplication_rule", {rule.lhs: lhs, r["P(A)"]: FIRST, r["P(B | A)"]: outer_given})
    return Claim(id="t.composed", title="", source=SRC, kind="identity", lhs=lhs, rhs=rhs, conditions=conditions,
                 proof=lambda c: conclude_composed(c, outer, inner))


def test_composed_instance_is_proved_with_its_citations():
    v = verify_inline(_composed())
    assert v.label == "PROVED (with citations)"
    assert set(v.citations) == {"multiplication_rule", "srs_of_iid_units", "multivariate_hypergeometric_law"}


def test_composed_controls_are_not_proved():
    other = sp.Symbol("Pr(other)", nonnegative=True)
    cases = [_composed(rhs=2 * RIGHT),                          # a changed right side
             _composed(rhs=N * q * (1 - q)**(N - 1)),          # the binomial factor alone (n/N dropped)
             _composed(conditions=(sp.Lt(q, 1),)),              # n <= N not stated: the cited f_2 <= F_2 fails
             _composed(conditions=(sp.Le(n, N),)),              # q < 1 not stated: the cited q <= 1 not shown
             _composed(lhs=sp.binomial(N, n)),                  # a formula on the left
             _composed(given_lhs=other),                        # the inner law is about another quantity
             _composed(outer_given=other),                      # the outer rule does not use the inner quantity
             _composed(extra_inner=True)]                       # an inner quantity the outer rule does not use
    for c in cases:
        assert not verify_inline(c).proved, (c.rhs, c.lhs, c.conditions)


x = sp.Symbol("x", positive=True)
L = sp.Symbol("L", real=True)
with sp.evaluate(False):
    ONE = held(x + (1 - x))


def _bounded(rhs=x + 1, relation="==", above=None, below=None, lhs=L):
    kind = "identity" if relation == "==" else "inequality"
    return Claim(id="t.bounds", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 proof=lambda c: conclude_bounds(c, above=above, below=below))


def test_bounds_prove_an_identity_and_an_inequality():
    up, down = ((x + 1) * ONE, conclude), (x + ONE, conclude)
    assert verify_inline(_bounded(above=up, below=down)).label == "PROVED"
    assert verify_inline(_bounded(relation="<=", above=((x + 1) * ONE - x**2, conclude), rhs=x + 1)).label == "PROVED"
    # a bound given as an argument makes the verdict ARGUED
    assert verify_inline(_bounded(above="an argument", below=down)).label == "ARGUED"


def test_bounds_controls_are_not_proved():
    up, down = ((x + 1) * ONE, conclude), (x + ONE, conclude)
    unrelated = Claim(id="t.other", title="", source=SRC, kind="identity", lhs=x * ONE, rhs=x)
    cases = [_bounded(above=up),                                          # an identity needs both bounds
             _bounded(below=down),
             _bounded(above=up, below=(x * ONE, conclude)),               # the lower bound x is below x + 1
             _bounded(relation="<=", above=((x + 2) * ONE, conclude)),    # the upper bound x + 2 is above x + 1
             _bounded(relation="<=", above=((x + 1) * ONE, lambda s: conclude(unrelated))),   # a side claim's proof
             _bounded(relation=">=", above=up),                           # >= needs a lower bound
             _bounded(above=up, below=down, lhs=x**2),                    # a formula on the left
             _bounded(rhs=x + 1, above=(x + 1, None), below=down)]        # the right side itself as the bound
    for c in cases:
        assert not verify_inline(c).proved, (c.relation, c.lhs)


a = sp.Symbol("a", nonnegative=True)
y = sp.Symbol("y", real=True)
LOG_INV = sp.Piecewise((sp.oo, sp.Eq(a, 0)), (sp.log(1 / a), True))


def _pieces(lhs, rhs, relation="==", lines=((a, (0, 1)),)):
    kind = "identity" if relation == "==" else "inequality"
    return Claim(id="t.pieces", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 conditions=(sp.Le(a, 1),), proof=lambda c: conclude_extended_pieces(c, lines))


def test_extended_pieces_compare_infinities_and_finite_values():
    lhs = sp.Piecewise((sp.oo, sp.Eq(a, 0)), (-sp.log(a), True))
    assert verify_inline(_pieces(lhs, LOG_INV)).label == "PROVED"
    assert verify_inline(_pieces(lhs, sp.Piecewise((-sp.oo, sp.Eq(a, 0)), (0, True)), ">=")).label == "PROVED"


def test_extended_pieces_controls_are_not_proved():
    lhs = sp.Piecewise((sp.oo, sp.Eq(a, 0)), (-sp.log(a), True))
    cases = [_pieces(lhs, sp.Piecewise((-sp.oo, sp.Eq(a, 0)), (sp.log(1 / a), True))),   # +oo against -oo
             _pieces(lhs, sp.Piecewise((sp.oo, sp.Eq(a, 0)), (sp.log(2 / a), True))),    # finite values differ
             _pieces(lhs, sp.Piecewise((sp.oo, sp.Eq(a, 0)), (5, True))),                # oo = oo but not elsewhere
             _pieces(lhs, sp.Piecewise((-sp.oo, sp.Eq(a, 0)), (0, True)), "<="),         # reversed relation
             _pieces(lhs, LOG_INV, lines=((a, (0, y)),)),                                # a breakpoint not a number
             _pieces(lhs, LOG_INV, lines=((a, (1, 0)),)),                                # breakpoints not increasing
             _pieces(sp.Piecewise((sp.oo, sp.Gt(a, y)), ((x + 1)**2, True)), x**2 + 2 * x + 1)]   # a > y undecided
    for c in cases:
        assert not verify_inline(c).proved, (c.lhs, c.rhs, c.relation)


def test_a_bound_that_is_the_right_side_gives_no_strict_relation():
    assert not verify_inline(_bounded(relation="<", above=(x + 1, None))).proved
    assert not verify_inline(_bounded(relation="<", above=((x + 1) * ONE, None))).proved     # no check given
    assert verify_inline(_bounded(relation="<", above=(x * ONE, conclude))).label == "PROVED"


def test_registered_bounds_do_not_follow_the_right_side():
    """A proof by bounds must not take its bound from the claim it is handed: with the right side replaced by
    -oo (and by rhs - 1 where it is finite) none of the registered claims proved by bounds is PROVED (an upper
    bound copied from the statement would follow the change and prove it)."""
    import dataclasses

    from derivations.engine import core

    ids = ["ss.record_profile", "ss.sampled_pram", "ss.misclassification_epsilon", "ss.structural_floor",
           "ss.sampled_pram_epsilon"]
    for cid in ids:
        c = derivations.get(cid)
        for rhs in (-sp.oo, c.rhs - 1):
            changed = dataclasses.replace(c, id=cid + ".lowered", rhs=rhs, expected=True)
            changed.numeric_points, changed.enumeration = 0, None
            assert not verify_inline(changed).proved, (cid, rhs)
