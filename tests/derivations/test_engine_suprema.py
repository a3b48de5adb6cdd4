"""Suprema over a symbolic range (:mod:`derivations.engine.suprema`).

True: sup{k : 0 <= k <= m} = m; sup{k/(k + 1)} over k <= m is m/(m + 1); sup{ln(2^k)} over k <= m is ln 2^m; a
quotient 1/(m - k) is +oo at k = m; two descriptions of the same range give equal suprema.  Negative controls,
one for each way a conclusion checks: a bound that fails, a right side that is not attained, a witness outside the
range, a bound that is not an argument of the right side, a parametrization that does not cover the range, the
wrong number of cases, a member that is not +oo at its witness, ranges with different points, members that
differ, and the rewriting of min and max conditions into cases."""
from __future__ import annotations

import sympy as sp

from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.suprema import (Family, Supremum, condition_cases, conclude_same_values,
                                            conclude_supremum)
from derivations.engine.proofs import Parametrization

SRC = Source("test", "supremum")
k, m, j = sp.symbols("k m j", integer=True, nonnegative=True)
p = sp.Symbol("p", integer=True, positive=True)
RANGE = (sp.Le(k, m),)
BELOW = Parametrization(forward={k: k, m: k + j}, inverse={j: m - k})     # every point with k <= m
ANY = Parametrization(forward={m: m}, inverse={})


def _sup(member, conditions=RANGE):
    return Supremum(Family(member, (k,), conditions))


def _claim(lhs, rhs, proof, conditions=()):
    return Claim(id="t.sup", title="", source=SRC, kind="identity", lhs=lhs, rhs=rhs, conditions=conditions,
                 proof=proof)


def _proved(cl) -> bool:
    return verify_inline(cl).proved


def test_free_symbols_leave_out_the_bound_variables_and_printing():
    from derivations.engine.render import latex, unicode
    s = _sup(k / (k + 1))
    assert s.free_symbols == {m}
    assert unicode(s) == "sup{k/(k + 1) : k ≤ m}" and latex(s).startswith(r"\sup\left\{")


def test_true_suprema_are_proved():
    one = [{"param": ANY, "bounds": [BELOW], "witnesses": [(0, {k: m})]}]
    assert _proved(_claim(_sup(k), m, lambda c: conclude_supremum(c, one)))
    assert _proved(_claim(_sup(k / (k + 1)), m / (m + 1), lambda c: conclude_supremum(c, one)))
    assert _proved(_claim(_sup(sp.log(2**k)), sp.log(2**m), lambda c: conclude_supremum(c, one)))
    # +oo: 1/(m - k) at k = m
    inf = [{"param": ANY, "witnesses": [(0, {k: m})]}]
    assert _proved(_claim(_sup(1 / (m - k)), sp.oo, lambda c: conclude_supremum(c, inf)))


def test_false_or_uncovered_suprema_are_refused():
    one = [{"param": ANY, "bounds": [BELOW], "witnesses": [(0, {k: m})]}]
    cases = [
        _claim(_sup(k), m - 1, lambda c: conclude_supremum(c, [{"param": ANY, "bounds": [BELOW],
                                                                 "witnesses": [(0, {k: m - 1})]}]),
               (sp.Ge(m, 1),)),                                            # the bound fails at k = m
        _claim(_sup(k), m + 1, lambda c: conclude_supremum(c, one)),       # at most m + 1, never m + 1
        _claim(_sup(k), m + 1, lambda c: conclude_supremum(                 # the witness k = m + 1 is outside
            c, [{"param": ANY, "bounds": [BELOW], "witnesses": [(0, {k: m + 1})]}])),
        _claim(_sup(k), sp.Max(m, 2 * m), lambda c: conclude_supremum(      # bound named outside the right side
            c, [{"param": ANY, "bounds": [(BELOW, 3 * m)], "witnesses": [(0, {k: m})]}])),
        _claim(_sup(k), m, lambda c: conclude_supremum(                     # m = k + 1 + j misses k = m
            c, [{"param": ANY, "bounds": [Parametrization(forward={k: k, m: k + 1 + j}, inverse={j: m - k - 1})],
                 "witnesses": [(0, {k: m})]}])),
        _claim(_sup(k), m, lambda c: conclude_supremum(c, one + one)),     # two cases given, one needed
        _claim(_sup(1 / (m + 1 - k)), sp.oo, lambda c: conclude_supremum(   # 1/(m + 1 - k) is finite at k = m
            c, [{"param": ANY, "witnesses": [(0, {k: m})]}])),
        _claim(_sup(sp.log(k + 1)), 2 * sp.log(m + 1) + 1, lambda c: conclude_supremum(c, one)),   # not ln R
    ]
    for cl in cases:
        assert not _proved(cl), cl.rhs


def test_min_conditions_give_cases():
    a, b, c = sp.symbols("a b c", integer=True, nonnegative=True)
    assert condition_cases([sp.Ge(sp.Min(a, b), c)]) == [(sp.Ge(a, c), sp.Ge(b, c))]
    assert condition_cases([sp.Lt(sp.Min(a, b), c)]) == [(sp.Lt(a, c),), (sp.Lt(b, c),)]
    assert condition_cases([sp.Le(sp.Max(a, b), c)]) == [(sp.Le(a, c), sp.Le(b, c))]
    assert condition_cases([sp.Gt(c, sp.Max(a, b))]) == [(sp.Lt(a, c), sp.Lt(b, c))]
    assert condition_cases([sp.Gt(sp.Max(a, b), c)]) == [(sp.Gt(a, c),), (sp.Gt(b, c),)]
    assert condition_cases([sp.Eq(sp.Min(a, b), c)]) is None


def test_cases_of_a_min_condition_each_need_a_witness():
    """sup{k : k <= m} = +oo is false; a claim 'min(m, p) < 1' has two cases and each must be covered."""
    inf = [{"param": ANY, "witnesses": [(0, {k: m})]}] * 2
    assert not _proved(_claim(_sup(1 / (m - k + 1)), sp.oo, lambda c: conclude_supremum(c, inf),
                              (sp.Lt(sp.Min(m, p), 1),)))


def test_same_values():
    t, u = sp.symbols("t u", integer=True, nonnegative=True)
    left = Supremum(Family(t**2, (t,), (sp.Le(t, m),)))
    right = Supremum(Family((u - 1)**2, (u,), (sp.Ge(u, 1), sp.Le(u, m + 1))))
    shift = Parametrization(forward={t: t, m: t + j}, inverse={j: m - t})
    back = Parametrization(forward={u: 1 + k, m: k + j}, inverse={k: u - 1, j: m + 1 - u})
    maps = [{"to": 0, "point": {u: t + 1}, "param": shift}, {"to": 0, "point": {t: u - 1}, "param": back}]
    assert _proved(_claim(left, right, lambda c: conclude_same_values(c, maps)))
    # a range with one more point (u <= m + 2) and a member that differs are refused
    wider = Supremum(Family((u - 1)**2, (u,), (sp.Ge(u, 1), sp.Le(u, m + 2))))
    back2 = Parametrization(forward={u: 1 + k, m: k + j}, inverse={k: u - 1, j: m + 2 - u})
    assert not _proved(_claim(left, wider, lambda c: conclude_same_values(
        c, [maps[0], {"to": 0, "point": {t: u - 1}, "param": back2}])))
    other = Supremum(Family((u - 1)**3, (u,), (sp.Ge(u, 1), sp.Le(u, m + 1))))
    assert not _proved(_claim(left, other, lambda c: conclude_same_values(c, maps)))
    assert not _proved(_claim(left, 2 * right + 1, lambda c: conclude_same_values(c, maps)))


# -- an integral over the line split at breakpoints -------------------------------------------------------------------
def test_line_split_proves_the_tails_and_refuses_wrong_ones():
    """True: int_{-oo}^{oo} (sum_k q_k e^{-|z - a_k|})_+ / 2 = (1/2) U_+ e^{c} + int_c^{d} (...)_+/2 + (1/2) V_+ e^{-d}
    for atoms a_k in [c, d] (U = sum_k q_k e^{-a_k}, V = sum_k q_k e^{a_k}).  Refused: a factor 1 for 1/2 on a tail,
    the left tail form used on the right piece, the claim without the atoms' range (the tail form is then not shown),
    breakpoints not shown ordered, and a sign split on a quantity not shown real."""
    from derivations.engine.suprema import conclude_line_split
    from derivations.engine.proofs import term_symbol
    z = sp.Symbol("z", real=True)
    c, d = sp.symbols("c d", real=True)
    w = sp.Symbol("w", positive=True)
    e0 = sp.Symbol("e_0", nonnegative=True)
    kk = sp.Symbol("k", integer=True, positive=True)
    K = sp.Symbol("K", integer=True, positive=True)
    q, at = sp.IndexedBase("q", nonnegative=True), sp.IndexedBase("a", real=True)
    H = sp.Sum(q[kk] * sp.exp(-sp.Abs(z - at[kk])), (kk, 1, K))
    U = sp.Sum(q[kk] * sp.exp(-at[kk]), (kk, 1, K))
    V = sp.Sum(q[kk] * sp.exp(at[kk]), (kk, 1, K))
    one = term_symbol(at[kk])
    left = Parametrization(forward={z: c - w, one: c + e0}, inverse={w: c - z, e0: one - c})
    right = Parametrization(forward={z: d + w, one: d - e0}, inverse={w: z - d, e0: d - one})
    lhs = sp.Integral(sp.Max(H, 0) / 2, (z, -sp.oo, sp.oo))
    middle = sp.Integral(sp.Max(H, 0) / 2, (z, c, d))
    rhs = sp.Max(U, 0) * sp.exp(c) / 2 + middle + sp.Max(V, 0) * sp.exp(-d) / 2
    conds = (sp.Le(c, d), sp.Le(c, at[kk]), sp.Le(at[kk], d))
    good = {0: (H, sp.exp(z) * U, left), 2: (H, sp.exp(-z) * V, right)}

    def claim(r=rhs, conditions=conds, tails=good, cuts=(c, d), signs=(U, V)):
        return _claim(lhs, r, lambda cl: conclude_line_split(cl, z, list(cuts), tails, signs), conditions)

    assert _proved(claim())
    s = sp.Symbol("s")                                         # complex: not a real quantity
    for cl in (claim(r=sp.Max(U, 0) * sp.exp(c) + middle + sp.Max(V, 0) * sp.exp(-d) / 2),
               claim(tails={0: good[0], 2: (H, sp.exp(-z) * V, left)}),
               claim(conditions=(sp.Le(c, d),)),
               claim(conditions=conds[1:]),
               claim(signs=(U, V, s))):
        assert not _proved(cl)


def test_kept_pieces_must_be_finite_values():
    """A piece kept as written is compared as an opaque number only when its integrand is continuous on a finite
    interval (so the number is finite and cancels): 1/(z - c) is not, (sum_k q_k e^{-|z - a_k|})_+ is."""
    from derivations.engine.suprema import _bounded_in
    z, c = sp.symbols("z c", real=True)
    kk = sp.Symbol("k", integer=True, positive=True)
    K = sp.Symbol("K", integer=True, positive=True)
    q, at = sp.IndexedBase("q", nonnegative=True), sp.IndexedBase("a", real=True)
    assert _bounded_in(sp.Max(sp.Sum(q[kk] * sp.exp(-sp.Abs(z - at[kk])), (kk, 1, K)), 0) / 2, z)
    assert not _bounded_in(1 / (z - c), z) and not _bounded_in(sp.log(sp.Abs(z)), z)
    assert not _bounded_in(sp.Sum(q[kk], (kk, 1, z)), z)
