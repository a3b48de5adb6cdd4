"""Soundness against a hostile referee: eight kinds of false statement the engine once PROVED.

Each test builds a statement that is false (or meaningless) as stated, shows that the engine no longer
proves it, and keeps a positive control (the same statement, honestly restricted, is still proved) so that
the refusal is not a refusal of everything.  The reference truth of each false statement is stated in the
test by a counterexample computed here, independently of the engine (plain SymPy evaluation at a point,
or a hand-computed integral).
"""
from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations.engine.core import Claim, Enumeration, Proof, Source, Step, verify_inline
from derivations.engine.notation import held
from derivations.engine.proofs import conclude, conclude_cases, conclude_evaluation, conclude_shift, exhaust

SRC = Source("test", "hostile review")


def _claim(lhs, rhs=0, relation="==", conditions=(), proof=None, kind=None, **kw):
    kind = kind or ("identity" if relation == "==" else "inequality")
    return Claim(id="t.hostile", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 conditions=tuple(conditions), proof=proof, **kw)


# ---------------------------------------------------------------------------------------------------------
# (1) removable singularities: a denominator that vanishes (or a logarithm of a nonpositive argument) at an
#     admissible point
# ---------------------------------------------------------------------------------------------------------
x = sp.Symbol("x", real=True)


def test_removable_singularity_is_not_proved_for_every_real_x():
    with sp.evaluate(False):
        quotient = (x**2 - 1) / (x - 1)
    # reference: at x = 1 the left side is 0/0, undefined (SymPy evaluates 0/0 to nan), so the statement
    # "for every real x" is false there
    assert quotient.subs(x, 1) is sp.nan
    v = verify_inline(_claim(quotient, x + 1))
    assert not v.proved and "denominator" in v.checks[0].detail
    with sp.evaluate(False):
        exp_quotient = (sp.exp(2 * x) - 1) / (sp.exp(x) - 1)
    assert exp_quotient.subs(x, 0) is sp.nan
    assert not verify_inline(_claim(exp_quotient, sp.exp(x) + 1)).proved
    # positive controls: the point excluded by a stated condition, or outside the conditions
    assert verify_inline(_claim(quotient, x + 1, conditions=[sp.Ne(x, 1)])).label == "PROVED"
    assert verify_inline(_claim(quotient, x + 1, conditions=[sp.Gt(x, 1)])).label == "PROVED"
    assert verify_inline(_claim(exp_quotient, sp.exp(x) + 1, conditions=[sp.Ne(x, 0)])).label == "PROVED"


def test_logarithm_of_a_nonpositive_argument_is_not_proved():
    # log(x - 1) - log(x - 1) is 0 where it is defined, and undefined for real 0 < x <= 1 (log(0) = zoo)
    assert sp.log(sp.Integer(0)) is sp.zoo
    lhs = held(sp.log(x - 1) + 1)
    v = verify_inline(_claim(lhs, sp.log(x - 1) + 1, conditions=[sp.Gt(x, 0)]))
    assert not v.proved and "logarithm" in v.checks[0].detail
    assert verify_inline(_claim(lhs, sp.log(x - 1) + 1, conditions=[sp.Gt(x, 1)])).label == "PROVED"


def test_definedness_reads_bound_variables_and_piecewise_conditions():
    from derivations.engine.core import undefined_points
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    t = sp.Symbol("t", real=True)
    assert undefined_points(sp.Sum(1 / k, (k, 1, n)), ()) == []               # k >= 1 inside the sum
    assert undefined_points(sp.Sum(1 / k, (k, 0, n)), ()) != []               # k = 0 is a term
    assert undefined_points(sp.Integral(1 / sp.sqrt(t), (t, 0, 1)), ()) == []  # an endpoint has measure 0
    assert undefined_points(sp.Piecewise((1 / x, sp.Gt(x, 0)), (0, True)), ()) == []
    assert undefined_points(sp.Piecewise((1 / x, sp.Ge(x, 0)), (0, True)), ()) != []


# ---------------------------------------------------------------------------------------------------------
# (2) finite=True on a statement whose domain is not the enumerated set
# ---------------------------------------------------------------------------------------------------------
n0 = sp.Symbol("n", integer=True, nonnegative=True)


def test_a_finite_label_on_an_infinite_domain_is_refused():
    # reference: n = 2 is an admissible integer n >= 0 and 2^2 = 4 != 2
    assert 2**2 != 2
    c = _claim(n0**2, n0, finite=True, enumeration=lambda cl: exhaust(cl, [{n0: 0}, {n0: 1}]))
    v = verify_inline(c)
    assert not v.proved and "not finite" in v.checks[0].detail
    # positive control: the same enumeration over the claim's own finite domain {0, 1}
    ok = _claim(n0**2, n0, conditions=[sp.Le(n0, 1)], finite=True,
                enumeration=lambda cl: exhaust(cl, [{n0: 0}, {n0: 1}]))
    assert verify_inline(ok).label == "PROVED (exhaustive)"


def test_an_enumeration_that_misses_part_of_the_domain_is_refused():
    # the domain of n <= 2 is {0, 1, 2}; n = 2 is not enumerated (and n^2 = n fails there: 4 != 2)
    c = _claim(n0**2, n0, conditions=[sp.Le(n0, 2)], finite=True,
               enumeration=lambda cl: exhaust(cl, [{n0: 0}, {n0: 1}]))
    v = verify_inline(c)
    assert not v.proved and "misses" in v.checks[0].detail
    # a hand-made enumeration that names the statement but records no points is no proof either
    made = _claim(n0**2, n0, conditions=[sp.Le(n0, 1)], finite=True,
                  enumeration=lambda cl: Enumeration(True, 2, target=cl.digest()))
    assert not verify_inline(made).proved


@pytest.mark.parametrize("claim_id", ["kr.ratio_reduction", "puff.s44.risk_grid_q", "kr.bit_representation",
                                      "pd.def.count_sensitivity"])
def test_registry_finite_claims_refuse_a_dropped_condition(claim_id):
    """The mutants of the review: each of these finite claims with one condition dropped ranges over an
    infinite set (a nonnegative integer without its bound, a positive rational without its grid)."""
    import derivations

    c = derivations.get(claim_id)
    assert c.finite and c.conditions
    for k in range(len(c.conditions)):
        dropped = dataclasses.replace(c, id=c.id + ".dropped", conditions=c.conditions[:k] + c.conditions[k + 1:])
        v = verify_inline(dropped)
        assert not v.proved, (claim_id, k)


# ---------------------------------------------------------------------------------------------------------
# (3) unsatisfiable conditions
# ---------------------------------------------------------------------------------------------------------
def test_unsatisfiable_conditions_are_refused_as_vacuous():
    # reference: no real x has x > 1 and x < 0; every piece of the split of the line at 0 and 1 is empty,
    # so the case split once "proved" x = 5
    c = _claim(x, 5, conditions=[sp.Gt(x, 1), sp.Lt(x, 0)], proof=lambda cl: conclude_cases(cl, x, [0, 1]))
    v = verify_inline(c)
    assert not v.proved and "vacuous" in v.checks[0].detail
    # positive control: satisfiable conditions, the same routine, a true relation
    ok = _claim(x, 0, ">", conditions=[sp.Gt(x, 1), sp.Lt(x, 3)], proof=lambda cl: conclude_cases(cl, x, [0, 1]))
    assert verify_inline(ok).label == "PROVED"
    # a condition false for every value its symbol's assumptions allow (e^p - 1 < 0 for no p > 0)
    p = sp.Symbol("p", positive=True)
    v = verify_inline(_claim(p, 5, conditions=[sp.Lt(sp.exp(p) - 1, 0)], proof=lambda cl: conclude_cases(cl, p, [0])))
    assert not v.proved and "vacuous" in v.checks[0].detail


# ---------------------------------------------------------------------------------------------------------
# (4) assumptions on symbols that exclude the counterexample
# ---------------------------------------------------------------------------------------------------------
def test_assumptions_are_hypotheses_shown_with_the_claim():
    """Decision: an assumption declared on a symbol is a hypothesis of the claim.  The engine uses it, so
    it must be shown with the conditions: ``Claim.hypotheses()`` lists it (``show``, the report and the
    LaTeX print it), and a symbol carrying an assumption that the displayed hypotheses cannot say (even,
    odd, prime, rational, a nonzero complex number, ...) is refused, since a reader would take the claim
    for a wider one.  The statement for every real x is a different claim, and it is not proved."""
    from derivations.engine.render import hypotheses_unicode

    xp = sp.Symbol("x", positive=True)
    with sp.evaluate(False):
        root = held(sp.sqrt(xp**2))
        root_real = held(sp.sqrt(x**2))
    # reference: at x = -1, sqrt(x^2) = 1 != -1, so the statement over every real x is false
    assert sp.sqrt(sp.Integer(-1) ** 2) == 1
    positive = _claim(root, xp)
    assert verify_inline(positive).label == "PROVED"
    assert ("positive", (xp,)) in positive.hypotheses()
    assert any("x > 0" in h for h in hypotheses_unicode(positive.hypotheses()))
    assert not verify_inline(_claim(root_real, x)).proved
    # a hypothesis the display cannot show: (-1)^m = 1 "for an integer m" with m declared even
    m = sp.Symbol("m", even=True)
    assert (-1) ** sp.Integer(3) == -1                                # reference: false at the integer m = 3
    with sp.evaluate(False):
        sign = held((-1) ** m)
    v = verify_inline(_claim(sign, 1))
    assert not v.proved and "even" in v.checks[0].detail


# ---------------------------------------------------------------------------------------------------------
# (5) a translation whose shift contains the variable it shifts
# ---------------------------------------------------------------------------------------------------------
def test_a_shift_containing_its_own_variable_is_refused():
    t = sp.Symbol("t", real=True)
    # reference: int_0^1 t dt = 1/2 (antiderivative t^2/2), so 0 = int_0^1 t dt is false
    assert sp.integrate(t, (t, 0, 1)) == sp.Rational(1, 2)
    c = _claim(sp.Integer(0), sp.Integral(t, (t, 0, 1)), proof=lambda cl: conclude_shift(cl, (t, t)))
    v = verify_inline(c)
    assert not v.proved and "contains" in v.checks[0].detail
    # positive control: int_1^2 f(t - 1) dt = int_0^1 f(t) dt by the translation t -> t - 1
    f = sp.Function("f")
    ok = _claim(sp.Integral(f(t - 1), (t, 1, 2)), sp.Integral(f(t), (t, 0, 1)),
                proof=lambda cl: conclude_shift(cl, (t, 1)))
    assert verify_inline(ok).label == "PROVED"


# ---------------------------------------------------------------------------------------------------------
# (6) nan = nan
# ---------------------------------------------------------------------------------------------------------
def test_undefined_values_are_never_equal():
    with sp.evaluate(False):
        zero_times_inf = sp.Mul(0, sp.oo)
        inf_minus_inf = sp.Add(sp.oo, -sp.oo)
    # reference: both are undefined (nan) in the extended reals
    assert zero_times_inf.doit() is sp.nan and inf_minus_inf.doit() is sp.nan
    v = verify_inline(_claim(zero_times_inf, inf_minus_inf, proof=conclude_evaluation))
    assert not v.proved
    # zoo = zoo at a point of an exhaustive check: 1/n and 2/n at n = 0
    c = _claim(1 / n0, 2 / n0, conditions=[sp.Le(n0, 0)], finite=True,
               enumeration=lambda cl: exhaust(cl, [{n0: 0}]))
    assert not verify_inline(c).proved
    # positive control: a closed statement that is true
    assert verify_inline(_claim(held(sp.Integer(2) + 2), 4, proof=conclude_evaluation)).label == "PROVED"


# ---------------------------------------------------------------------------------------------------------
# (7) a routine that rewrites the claim it is handed
# ---------------------------------------------------------------------------------------------------------
def test_a_routine_that_rewrites_its_claim_proves_nothing():
    def rewrite(cl):
        cl.rhs = cl.lhs
        return conclude(cl)

    c = _claim(x + 1, x, proof=rewrite)                               # false: 1 != 0
    v = verify_inline(c)
    assert not v.proved and "changed the claim" in v.checks[0].detail
    assert c.rhs == x                                                 # the claim itself is untouched


def test_a_routine_that_leaves_its_claim_alone_is_proved():
    """Positive control of (7): a routine that reads its claim and concludes on it unchanged."""
    with sp.evaluate(False):
        lhs = held((x + 1) ** 2)
    assert verify_inline(_claim(lhs, x**2 + 2 * x + 1, proof=lambda cl: conclude(cl))).label == "PROVED"


# ---------------------------------------------------------------------------------------------------------
# (8) a routine that makes its own conclusion step
# ---------------------------------------------------------------------------------------------------------
def test_only_the_engine_makes_a_conclusion_step():
    def forged(cl):
        return Proof(Step("conclusion", "trust me", True, target=cl.digest()))

    v = verify_inline(_claim(x + 1, x, proof=forged))                 # false: 1 != 0
    assert not v.proved
    with pytest.raises(ValueError):
        Step("conclusion", "trust me", True, target="0" * 16)

    def private_helper(cl):
        from derivations.engine.proofs import _conclusion
        return _conclusion(cl, True, "trust me")

    assert not verify_inline(_claim(x + 1, x, proof=private_helper)).proved

    def recycled(cl):                                                 # a failed conclusion, turned into a pass
        step = conclude(cl).steps[-1]
        return Proof(dataclasses.replace(step, ok=True))

    assert not verify_inline(_claim(x + 1, x, proof=recycled)).proved


# ---------------------------------------------------------------------------------------------------------
# The registry: no claim with an unexcluded singular point, no finite claim that misses part of its domain
# ---------------------------------------------------------------------------------------------------------
def test_no_registered_claim_has_an_unexcluded_singular_point():
    """Every registered statement (printed errata aside: they are refuted as printed) is defined at every
    admissible point, as the engine's check decides: each denominator nonzero and each logarithm's argument
    positive under its conditions and assumptions, or the point excluded by a condition.  Its hypotheses are
    all shown and its conditions are not shown vacuous.  (A finite claim is evaluated point by point; its
    domain is the next test's.)"""
    import derivations
    from derivations.engine.core import hidden_assumptions, undefined_points, vacuity

    exposed = {}
    for c in derivations.claims():
        if c.by_construction or c.counterexample is not None:
            continue
        why = hidden_assumptions(c) + ([vacuity(c)] if vacuity(c) else [])
        if c.kind in ("identity", "inequality", "sign") and not c.finite:
            why += undefined_points(c.lhs, c.conditions) + undefined_points(c.rhs, c.conditions)
        if why:
            exposed[c.id] = why
    assert set(exposed) == set(_EXPOSED_NOT_PROVED), "\n".join(f"{k}: {v}" for k, v in exposed.items())


# Claims still exposed (a statement undefined at an admissible point, checked on a finite scope only): none.
# The interval-count claims of private-deciles now state p_1 + p_2 < 1, where every term of their trinomial sums
# is defined.
_EXPOSED_NOT_PROVED = ()


def test_every_finite_claim_enumerates_its_whole_domain():
    """A finite claim's domain, derived from its conditions and its symbols' assumptions, is finite and is
    exactly the set of points its enumeration evaluates (the exhaustive label depends on it)."""
    import derivations

    finite = [c for c in derivations.claims() if c.finite and c.counterexample is None]
    assert len(finite) >= 10
    for c in finite:
        v = verify_inline(c)
        assert v.label == "PROVED (exhaustive)", (c.id, v.checks[0].detail)
        assert "whole domain" in v.checks[0].detail, c.id
