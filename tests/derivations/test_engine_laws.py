"""Negative controls of derivations.engine.laws.conclude_laws: for each way it checks, a false statement (or a
law that is not an instance of its cited result) is refused, and a true control next to it is proved.

The claims are built here over the cited forms of the k-randomization package (no citation is registered by
these tests); every false variant is false as mathematics, not only as a formal mismatch."""
from __future__ import annotations

import sympy as sp

import derivations
from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.laws import Law, conclude_laws, evaluates_under
from derivations.engine.proofs import Parametrization
from derivations.k_randomization import common as kc

SRC = Source("003_6dfa2dbc38b4b249.txt", "negative controls of conclude_laws")
derivations.get("kr.conditioning")        # builds the package (its cited forms)

L = sp.Symbol("L", integer=True, positive=True)
j = sp.Symbol("j", integer=True, positive=True)
r = sp.Symbol("r", integer=True, positive=True)
q = sp.Symbol("q", positive=True)
P_X = sp.Symbol("P[A(x) = s]", nonnegative=True)
W = sp.IndexedBase("w", nonnegative=True)
T = sp.IndexedBase("t", nonnegative=True)
K = 2**L


def _conv(notation=P_X, weights=W, rest=T, **extra):
    return Law(notation, "independent_sum_given_values", {kc.IS_P: notation, kc.IS_K: K, kc.IS_PZ: weights,
                                                          kc.IS_PY: rest, **extra})


def verdict(lhs, rhs, laws, relation="==", kind=None, conditions=(), param=None):
    kind = kind or ("identity" if relation == "==" else "inequality")
    c = Claim(id="t.laws", title="t", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
              conditions=tuple(conditions), proof=lambda cl: conclude_laws(cl, laws, param))
    return verify_inline(c)


def test_an_identity_from_a_cited_law_and_a_changed_one():
    rhs = sp.Sum(W[j] * T[j], (j, 1, K))
    assert verdict(P_X, rhs, [_conv()]).label == "PROVED (with citations)"
    assert not verdict(P_X, 2 * rhs + 1, [_conv()]).proved                       # a changed right side
    assert not verdict(P_X, sp.Sum(W[j] * T[j], (j, 1, K - 1)), [_conv()]).proved   # one term short


def test_an_unregistered_citation_or_an_unmapped_template_is_refused():
    rhs = sp.Sum(W[j] * T[j], (j, 1, K))
    assert not verdict(P_X, rhs, [Law(P_X, "no_such_citation", {})]).proved
    law = Law(P_X, "independent_sum_given_values", {kc.IS_P: P_X, kc.IS_K: K, kc.IS_PZ: W})   # P[Y = s - e] left
    assert not verdict(P_X, rhs, [law]).proved


def test_the_notation_must_be_the_cited_quantity_and_occur_in_the_statement():
    rhs = sp.Sum(W[j] * T[j], (j, 1, K))
    other = sp.Symbol("P[A(x') = s]", nonnegative=True)
    law = Law(P_X, "independent_sum_given_values", {kc.IS_P: other, kc.IS_K: K, kc.IS_PZ: W, kc.IS_PY: T})
    assert not verdict(P_X, rhs, [law]).proved          # the form's left side is mapped to another notation
    assert not verdict(P_X, rhs, [_conv(), _conv(other)]).proved     # a notation not in the statement


def test_a_mapping_must_meet_the_template_assumptions():
    rhs = sp.Sum(W[j] * T[j], (j, 1, K))
    signed = sp.IndexedBase("v", real=True)             # may be negative: not a probability
    assert not verdict(P_X, sp.Sum(signed[j] * T[j], (j, 1, K)), [_conv(weights=signed)]).proved
    assert not verdict(P_X, rhs, [_conv(rest=sp.Lambda(r, r - j))]).proved     # r - j may be negative
    x = sp.Symbol("x", real=True)                       # a count of values that is not a positive integer
    law = Law(P_X, "independent_sum_given_values", {kc.IS_P: P_X, kc.IS_K: x, kc.IS_PZ: W, kc.IS_PY: T})
    assert not verdict(P_X, sp.Sum(W[j] * T[j], (j, 1, x)), [law]).proved


def test_a_cited_condition_must_follow_from_the_claim():
    n, k = sp.symbols("n k", integer=True, nonnegative=True)
    P_Y = sp.Symbol("P[R(x) = y]", nonnegative=True)
    law = Law(P_Y, "bernoulli_trials_sequence", {kc.BT_P: P_Y, kc.BT_N: n, kc.BT_K: k, kc.BT_A: q, kc.BT_A1: 1 - q})
    rhs = q**k * (1 - q)**(n - k)
    cond = (sp.Lt(q, sp.Rational(1, 2)),)
    assert verdict(P_Y, rhs, [law], conditions=cond + (sp.Le(k, n),)).proved
    assert not verdict(P_Y, rhs, [law], conditions=cond).proved                  # k <= n not stated
    bad = Law(P_Y, "bernoulli_trials_sequence", {kc.BT_P: P_Y, kc.BT_N: n, kc.BT_K: k, kc.BT_A: q, kc.BT_A1: q})
    assert not verdict(P_Y, q**k * q**(n - k), [bad], conditions=cond + (sp.Le(k, n),)).proved   # q + q != 1


def test_a_lower_bound_replaces_only_where_it_is_safe():
    P_Y = sp.Symbol("P[R(x) = y]", nonnegative=True)
    low = Law(P_X, "probability_monotone", {kc.PM_B: P_X, kc.PM_Z: P_Y})
    assert verdict(P_X, P_Y, [low], relation=">=").proved                        # P[A in B] >= P[A = y]
    assert not verdict(P_X, P_Y, [low], relation="<=").proved                    # not an upper bound
    assert not verdict(-P_X, -P_Y, [low], relation=">=").proved                  # a negative coefficient
    assert not verdict(P_X**2, P_Y**2, [low], relation=">=").proved              # not linear in the notation


def test_pieces_are_read_only_under_stated_conditions():
    one = sp.Lambda(r, sp.KroneckerDelta(r, j))
    law = _conv(rest=one)
    assert verdict(P_X, W[j], [law], conditions=(sp.Le(j, K),)).proved
    assert not verdict(P_X, W[j], [law]).proved             # j <= 2^L not stated: the piece is undecided
    assert not verdict(P_X, 2 * W[j], [law], conditions=(sp.Le(j, K),)).proved
    assert evaluates_under(sp.Sum(sp.KroneckerDelta(r, j), (r, 1, K)), 1, (sp.Le(j, K),))
    assert not evaluates_under(sp.Sum(sp.KroneckerDelta(r, j), (r, 1, K)), 1, ())


def test_sums_are_exchanged_but_a_wrong_grouping_is_refused():
    n, M = sp.symbols("n M", integer=True, nonnegative=True)
    d = sp.Symbol("d", integer=True, nonnegative=True)
    delta = sp.IndexedBase("delta", integer=True, nonnegative=True)
    term = lambda e: (1 - q)**(n - e) * q**e                                   # noqa: E731
    grouped = sp.Sum(sp.Sum(sp.KroneckerDelta(delta[r], d), (r, 1, M)) * term(d), (d, 0, n))
    half = (sp.Lt(q, sp.Rational(1, 2)),)             # 1 - q > 0: every power is defined
    cond = half + (sp.Le(delta[r], n),)
    lhs = sp.Sum(term(delta[r]), (r, 1, M))
    assert verdict(lhs, grouped, [], conditions=cond).label == "PROVED"
    assert not verdict(lhs, grouped, [], conditions=half).proved                # a distance may exceed n
    shifted = sp.Sum(sp.Sum(sp.KroneckerDelta(delta[r], d), (r, 1, M)) * term(d + 1), (d, 0, n))
    assert not verdict(lhs, shifted, [], conditions=cond).proved


def test_quantile_facts_decide_integer_cases_and_a_wrong_shift_is_refused():
    tm, tm1 = sp.symbols("tau_m tau_m1", integer=True)
    gap1, gap2 = sp.symbols("g_1 g_2", real=True)
    alpha = sp.Symbol("alpha", positive=True)
    D = sp.Symbol("D", integer=True)
    param = Parametrization({tm: tm1 + D}, {D: tm - tm1})

    def fact(tf, tg, c, gap):
        return Law(tf, "quantile_order", {kc.QO_TF: tf, kc.QO_TG: tg, kc.QO_C: c, kc.QO_GAP: gap, kc.QO_ALPHA: alpha},
                   as_condition=True)

    conds = (sp.Le(alpha, 1), sp.Le(gap1, 0), sp.Le(gap2, 0))
    lhs = (tm - tm1) * (tm - tm1 - 1)
    good = [fact(tm, tm1, 0, gap1), fact(tm1, tm, 1, gap2)]
    assert verdict(lhs, 0, good, conditions=conds, param=param).proved
    wide = [fact(tm, tm1, 0, gap1), fact(tm1, tm, 2, gap2)]                   # a step of 2 is then possible
    assert not verdict(lhs, 0, wide, conditions=conds, param=param).proved
    assert not verdict(lhs, 0, good[:1], conditions=conds, param=param).proved  # no upper bound on the step
    assert not verdict(lhs, 0, good, conditions=conds[:2], param=param).proved  # gap_2 <= 0 not stated
    assert not verdict(lhs, 1, good, conditions=conds, param=param).proved
