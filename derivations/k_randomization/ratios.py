"""Sections 4 and 5: ratios of sums (Lemmas 4.1-4.3, Corollary 4.1) and the per-record statement of
Section 5 ("Old stuff").

Source: ``k-randomization`` (``003_6dfa2dbc38b4b249.txt``; Zhilyaev and Zeber, K-Randomization, 2016), Sections 4-5.

The extracted text of Section 4 garbles the conditions (4.2) and (4.3) of Lemma 4.2, refers to the
displays (4.1)-(4.5) as (5.1)-(5.5), and prints the proof of Lemma 4.2 after Corollary 4.1; the readings
below say how each is read and why.  Lemma 4.2 is stated for every m; its proof is encoded for every m
in three steps (cross-multiplication, the rearrangement of the double sum, the sign of each pair term),
of which the rearrangement is checked for m <= 8 and its induction step proved for every m.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, citation, claim, finding, reading
from ..engine.notation import defined
from ..engine.proofs import (Parametrization, conclude, conclude_evaluation, conclude_from_point, conclude_induction,
                              conclude_pair_sum, conclude_termwise, term_symbol)
from .common import DOC, n, p, q

S4 = Source(DOC, "Section 4, ratios of sums")
S4_L1 = Source(DOC, "Section 4, Lemma 4.1 and its proof")
S4_L2 = Source(DOC, "Section 4, Lemma 4.2, the note after it and its proof (printed after Corollary 4.1)")
S4_C1 = Source(DOC, "Section 4, Corollary 4.1")
S4_L3 = Source(DOC, "Section 4, Lemma 4.3, (4.4)-(4.5) and its proof")
S5 = Source(DOC, "Section 5 ('Old stuff'), records randomized independently")

i, j, t = sp.symbols("i j t", integer=True, positive=True)
m = sp.Symbol("m", integer=True, positive=True)      # number of terms (Section 4's m, not Section 3's)
M = sp.Symbol("M", real=True)                        # the largest ratio max_i a_i/b_i
a = sp.IndexedBase("a", positive=True)
ap = sp.IndexedBase("a'", positive=True)
lam = sp.IndexedBase("lambda", positive=True)
mu = sp.IndexedBase("mu", positive=True)
_g = sp.Symbol("g", nonnegative=True)
_h = sp.Symbol("h", nonnegative=True)

# =====================================================================================================
# Lemma 4.1
# =====================================================================================================
a_real = sp.IndexedBase("a", real=True)              # Lemma 4.1: a_i real, b_i > 0
b = sp.IndexedBase("b", positive=True)
A_T, B_T = term_symbol(a_real[i]), term_symbol(b[i])


def _ratio_bound_term(term: Claim) -> Proof:
    """One term: a_i <= M b_i, i.e. a_i = M b_i - g with g >= 0."""
    return conclude(term, Parametrization({A_T: M * B_T - _g}, {_g: M * B_T - A_T}))


claim(id="kr.lemma_4_1",
      title="Lemma 4.1, summed form, every m: if a_i <= M b_i for each i (b_i > 0), then a_1 + ... + a_m <= M (b_1 + "
            "... + b_m)",
      source=S4_L1, kind="inequality", lhs=sp.Sum(a_real[i], (i, 1, m)), rhs=sp.Sum(M * b[i], (i, 1, m)),
      relation="<=", conditions=(sp.Le(a_real[i], M * b[i]),),
      proof=lambda c: conclude_termwise(c, _ratio_bound_term),
      note="With M = max_i a_i/b_i the condition holds (a_i/b_i <= M is a_i <= M b_i since b_i > 0), and dividing "
           "the conclusion by b_1 + ... + b_m > 0 gives the printed (a_1 + ... + a_m)/(b_1 + ... + b_m) <= max_i "
           "a_i/b_i. Used (as 'Lemma 5.1') in the proof of Proposition 1.1.")

B_SUM = sp.Sum(b[j], (j, 1, m))
claim(id="kr.lemma_4_1_weights",
      title="Lemma 4.1, proof: (a_1 + ... + a_m)/(b_1 + ... + b_m) = sum_i (a_i/b_i) lambda_i with "
            "lambda_i = b_i/(b_1 + ... + b_m), for every m",
      source=S4_L1, kind="identity", lhs=sp.Sum(a_real[i], (i, 1, m)) / B_SUM,
      rhs=sp.Sum((a_real[i] / b[i]) * (b[i] / B_SUM), (i, 1, m)))

claim(id="kr.lemma_4_1_weights_sum",
      title="Lemma 4.1, proof: the weights lambda_i = b_i/(b_1 + ... + b_m) sum to 1, for every m",
      source=S4_L1, kind="identity", lhs=sp.Sum(b[i] / B_SUM, (i, 1, m)), rhs=1)

# =====================================================================================================
# Lemma 4.2: readings
# =====================================================================================================
reading("kr.reading.eq_4_2", S4_L2,
        printed="lambda_i/mu_i >= lambda_i/mu_i  (4.2)",
        reading="lambda_i/mu_i >= lambda_j/mu_j for 1 <= i < j <= m (equivalently lambda_i mu_j - lambda_j mu_i >= 0)",
        why="As printed (4.2) is vacuous. The note after the lemma says numerator and denominator have the same "
            "index in (4.2) and that (4.2) holds when lambda_1 >= ... >= lambda_m and mu_1 <= ... <= mu_m; the "
            "proof needs lambda_i mu_j - lambda_j mu_i >= 0 for i < j. lambda_i/mu_i >= lambda_j/mu_j meets all "
            "three (kr.lemma_4_2_monotone proves the second).",
        alternatives="lambda_i/mu_j >= lambda_j/mu_i (different indices, i.e. lambda_i mu_i >= lambda_j mu_j): "
                     "contradicts the note, and is not implied by lambda decreasing and mu increasing (lambda = "
                     "(2, 1), mu = (1, 10)); the reversed inequality would make the pair terms of the proof "
                     "nonpositive.",
        claims=("kr.lemma_4_2", "kr.lemma_4_2_pair", "kr.lemma_4_2_monotone"))

reading("kr.reading.eq_4_3", S4_L2,
        printed="a_i/a_i >= a'_i/a'_i  (4.3)",
        reading="a_i/a_j >= a'_i/a'_j for 1 <= i < j <= m (equivalently a_i a'_j - a_j a'_i >= 0)",
        why="As printed (4.3) is vacuous (1 >= 1). The note says the indices of numerator and denominator differ "
            "in (4.3), and the proof needs (a_i a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i) >= 0 'implied by "
            "(4.2) and (4.3)': with (4.2) read as lambda_i mu_j - lambda_j mu_i >= 0 this needs a_i a'_j >= a_j a'_i. "
            "Corollary 4.1 confirms the orientation: it is the case m = 2, lambda = (q, p), mu = (p, q) with both "
            "conditions reversed (q/p <= p/q, and its hypothesis a_2/a_1 >= a'_2/a'_1 is a_1/a_2 <= a'_1/a'_2).",
        alternatives="a_j/a_i >= a'_j/a'_i (the other orientation): each pair term would be <= 0 and the proof "
                     "would give (4.1) reversed. a_i/a'_i >= a_j/a'_j is the same condition with the same index in "
                     "each ratio, which the note excludes by its wording only.",
        claims=("kr.lemma_4_2", "kr.lemma_4_2_pair"))

reading("kr.reading.section_4_numbers", S4,
        printed="(5.1), (5.2), (5.3), (5.4), (5.5) in the note after Lemma 4.2 and in the proofs of Lemmas 4.2 and 4.3",
        reading="(4.1), (4.2), (4.3), (4.4), (4.5): the displays of Section 4",
        why="The displays are numbered (4.1)-(4.5) where they stand, and each reference matches its display under "
            "this shift: the proof of Lemma 4.3 cross-multiplies (5.4), which is (4.4), and ends 'implied by "
            "(5.5)', which is (4.5); Section 5 has two displays, neither numbered. The proof of Proposition 1.1 cites "
            "'Lemma 5.1' for Lemma 4.1 (kr.reading.lemma_5_1), the same shift.",
        alternatives="None: Section 5 has no numbered displays.",
        claims=("kr.lemma_4_2", "kr.lemma_4_3"))

reading("kr.reading.lemma_4_2_proof_place", S4_L2,
        printed="Corollary 4.1 ... whenever a_2/a_1 >= a'_2/a'_1. Proof. Cross-multiplying, we see that (5.1) is "
                "equivalent to sum_i sum_j a_i a'_j lambda_i mu_j >= ...",
        reading="the proof after Corollary 4.1 is the proof of Lemma 4.2; the corollary is given without proof",
        why="The proof manipulates the sums over i, j = 1..m, lambda and mu of (4.1) and ends with 'implied by (5.2) "
            "and (5.3)', the conditions of Lemma 4.2; the corollary has no lambda, mu or m. The note before the "
            "corollary ('It is also clear from the proof that ...') refers to a proof not yet given, as it would "
            "if the proof had been moved below the corollary.",
        alternatives="A proof of the corollary: it would not mention (4.2)-(4.3) or sums over m terms. The corollary "
                     "is proved directly here (kr.corollary_4_1).",
        claims=("kr.lemma_4_2_cross", "kr.lemma_4_2_rearrangement", "kr.lemma_4_2_pair"))

# =====================================================================================================
# Lemma 4.2: the proof for every m
# =====================================================================================================


def _sum(expr, index=i, lo=1, hi=m):
    return sp.Sum(expr, (index, lo, hi))


def cross_term(r, s):
    """a_r a'_s (lambda_r mu_s - lambda_s mu_r): a term of the cross-multiplied difference."""
    return a[r] * ap[s] * (lam[r] * mu[s] - lam[s] * mu[r])


def pair_term(r, s):
    """(a_r a'_s - a_s a'_r)(lambda_r mu_s - lambda_s mu_r): the term of the pair r < s after rearrangement."""
    return (a[r] * ap[s] - a[s] * ap[r]) * (lam[r] * mu[s] - lam[s] * mu[r])


def ratio_of_sums(weights, top, bottom, terms=m):
    """(w_1 top_1 + ... + w_m top_m)/(w_1 bottom_1 + ... + w_m bottom_m)."""
    return _sum(weights[i] * top[i], hi=terms) / _sum(weights[i] * bottom[i], hi=terms)


CROSS_DIFFERENCE = (_sum(a[i] * lam[i]) * _sum(ap[j] * mu[j], j) - _sum(ap[i] * lam[i]) * _sum(a[j] * mu[j], j))
DOUBLE_SUM = _sum(_sum(cross_term(i, j), j))                       # sum over all (i, j); the diagonal terms vanish
PAIR_SUM = _sum(_sum(pair_term(i, j), j, i + 1, m))               # sum over i < j

claim(id="kr.lemma_4_2_cross",
      title="Lemma 4.2, proof, every m: (sum a_i lambda_i)(sum a'_j mu_j) - (sum a'_i lambda_i)(sum a_j mu_j) = "
            "sum_i sum_j a_i a'_j (lambda_i mu_j - lambda_j mu_i)",
      source=S4_L2, kind="identity", lhs=CROSS_DIFFERENCE, rhs=DOUBLE_SUM,
      note="The diagonal terms (i = j) of the double sum vanish, so it is the printed sum over j != i; with "
           "kr.lemma_4_2_ratio_difference, (4.1) is equivalent to its being >= 0.")

claim(id="kr.lemma_4_2_ratio_difference",
      title="Lemma 4.2, proof, every m: the left side of (4.1) minus its right side equals [(sum a_i lambda_i)(sum "
            "a'_j mu_j) - (sum a'_i lambda_i)(sum a_j mu_j)] / [(sum a_j mu_j)(sum a'_i mu_i)]",
      source=S4_L2, kind="identity", lhs=ratio_of_sums(a, lam, mu) - ratio_of_sums(ap, lam, mu),
      rhs=CROSS_DIFFERENCE / (_sum(a[j] * mu[j], j) * _sum(ap[i] * mu[i])),
      note="The denominator is positive (a, a', mu > 0), so (4.1) holds iff the cross-multiplied difference "
           "(kr.lemma_4_2_cross) is >= 0.")


def _written_out(expr):
    """Every finite sum with integer limits written out term by term (inner limits may depend on outer indices)."""
    def out(s):
        (v, lo, hi), inner = s.limits[-1], s.limits[:-1]
        body = sp.Sum(s.function, *inner) if inner else s.function
        return sp.Add(*(_written_out(body.subs(v, k)) for k in range(int(lo), int(hi) + 1)))
    return expr.replace(lambda e: isinstance(e, sp.Sum), out)


def _rearrangement_cases(c: Claim) -> Enumeration:
    """The claim's identity at m = 1..8, every other quantity symbolic (sums written out, the difference expanded)."""
    top = 8
    for mm in range(1, top + 1):
        diff = sp.expand(_written_out((c.lhs - c.rhs).subs(m, mm)))   # a polynomial: 0 iff an identity
        if diff != 0:
            return Enumeration(False, mm, f"not an identity at m = {mm}", {"m": str(mm)}, scope=_SCOPE_REARR)
    return Enumeration(True, top, "the identity holds at each m with a, a', lambda, mu symbolic", scope=_SCOPE_REARR)


_SCOPE_REARR = "m = 1, ..., 8, with a_i, a'_i, lambda_i, mu_i symbolic (each side expanded exactly)"

claim(id="kr.lemma_4_2_rearrangement",
      title="Lemma 4.2, proof, every m >= 1: sum_i sum_j a_i a'_j (lambda_i mu_j - lambda_j mu_i) = sum_{i<j} (a_i "
            "a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i)",
      source=S4_L2, kind="identity", lhs=DOUBLE_SUM, rhs=PAIR_SUM, proof=lambda c: conclude_induction(c, m, 1),
      enumeration=_rearrangement_cases,
      note="By induction on m: at m = 1 both sides are 0 (as in kr.lemma_4_2_rearrangement_base), and the terms "
           "that m -> m + 1 adds to the two sides are equal (as in kr.lemma_4_2_rearrangement_step): the engine forms "
           "both from the statement itself. The identity is also checked written out for m <= 8.")

claim(id="kr.lemma_4_2_rearrangement_base",
      title="Lemma 4.2, proof, the rearrangement at m = 1: both sides are 0",
      source=S4_L2, kind="identity", lhs=DOUBLE_SUM.subs(m, 1), rhs=PAIR_SUM.subs(m, 1), proof=conclude_evaluation)

claim(id="kr.lemma_4_2_rearrangement_step",
      title="Lemma 4.2, proof, rearrangement step, every m: sum_{i<=m} [T(i, m+1) + T(m+1, i)] + T(m+1, m+1) = "
            "sum_{i<=m} (a_i a'_{m+1} - a_{m+1} a'_i)(lambda_i mu_{m+1} - lambda_{m+1} mu_i)",
      source=S4_L2, kind="identity",
      lhs=_sum(cross_term(i, m + 1)) + _sum(cross_term(m + 1, i)) + cross_term(m + 1, m + 1),
      rhs=_sum(pair_term(i, m + 1)),
      note="T(r, s) = a_r a'_s (lambda_r mu_s - lambda_s mu_r). The left side is what going from m to m + 1 adds to "
           "the double sum (row and column m + 1), the right side what it adds to the pair sum (the pairs (i, m + "
           "1)); with kr.lemma_4_2_rearrangement_base this is the induction for kr.lemma_4_2_rearrangement (the "
           "engine has no induction conclusion).")

# -- the sign of each pair term -----------------------------------------------------------------------
a_i, a_j, ap_i, ap_j = sp.symbols("a_i a_j a'_i a'_j", positive=True)
l_i, l_j, mu_i, mu_j = sp.symbols("lambda_i lambda_j mu_i mu_j", positive=True)
PAIR = (a_i * ap_j - a_j * ap_i) * (l_i * mu_j - l_j * mu_i)
COND_4_2 = sp.Ge(l_i / mu_i, l_j / mu_j)
COND_4_3 = sp.Ge(a_i / a_j, ap_i / ap_j)
COND_4_2_REV = sp.Le(l_i / mu_i, l_j / mu_j)
COND_4_3_REV = sp.Le(a_i / a_j, ap_i / ap_j)

claim(id="kr.lemma_4_2_pair",
      title="Lemma 4.2, proof: under (4.2) lambda_i/mu_i >= lambda_j/mu_j and (4.3) a_i/a_j >= a'_i/a'_j (as read), "
            "each pair term (a_i a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i) is >= 0",
      source=S4_L2, kind="sign", lhs=PAIR, relation=">=", conditions=(COND_4_2, COND_4_3),
      proof=lambda c: conclude(c, Parametrization(
          {l_i: mu_i * (l_j / mu_j + _g), a_i: a_j * (ap_i / ap_j + _h)},
          {_g: l_i / mu_i - l_j / mu_j, _h: a_i / a_j - ap_i / ap_j})))

claim(id="kr.lemma_4_2_pair_reversed",
      title="Lemma 4.2, note: if lambda_i/mu_i <= lambda_j/mu_j and a_i/a_j <= a'_i/a'_j ((4.2), (4.3) reversed), "
            "then (a_i a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i) >= 0",
      source=S4_L2, kind="sign", lhs=PAIR, relation=">=", conditions=(COND_4_2_REV, COND_4_3_REV),
      proof=lambda c: conclude(c, Parametrization(
          {l_j: mu_j * (l_i / mu_i + _g), a_j: a_i * (ap_j / ap_i + _h)},
          {_g: l_j / mu_j - l_i / mu_i, _h: a_j / a_i - ap_j / ap_i})),
      note="So the proof of Lemma 4.2 still gives (4.1) when both conditions are reversed (kr.lemma_4_2_reversed).")

claim(id="kr.lemma_4_2_monotone",
      title="Lemma 4.2, note, lambda_i, lambda_j, mu_i, mu_j > 0: lambda_i >= lambda_j and mu_i <= mu_j imply (4.2) "
            "lambda_i/mu_i >= lambda_j/mu_j",
      source=S4_L2, kind="inequality", lhs=l_i / mu_i, rhs=l_j / mu_j, relation=">=",
      conditions=(sp.Ge(l_i, l_j), sp.Le(mu_i, mu_j)),
      proof=lambda c: conclude(c, Parametrization({l_i: l_j + _g, mu_j: mu_i + _h}, {_g: l_i - l_j, _h: mu_j - mu_i})))


# -- Lemma 4.2 itself, for every m -------------------------------------------------------------------------

_WEIGHT_4_2 = _sum(a[j] * mu[j], j) * _sum(ap[i] * mu[i])     # the two denominators of (4.1), positive


def _pair_term_proof(reversed_: bool):
    """The pair term (a_i a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i) >= 0 under the pair's conditions, by the
    parametrization of kr.lemma_4_2_pair (kr.lemma_4_2_pair_reversed), on the term's own symbols."""
    def prove(term: Claim) -> Proof:
        S = {str(x): x for x in term.lhs.free_symbols}
        li, lj, mi, mj = S["lambda_{i}"], S["lambda_{j}"], S["mu_{i}"], S["mu_{j}"]
        ai, aj, api, apj = S["a_{i}"], S["a_{j}"], S["a'_{i}"], S["a'_{j}"]
        if reversed_:
            return conclude(term, Parametrization({lj: mj * (li / mi + _g), aj: ai * (apj / api + _h)},
                                                  {_g: lj / mj - li / mi, _h: aj / ai - apj / api}))
        return conclude(term, Parametrization({li: mi * (lj / mj + _g), ai: aj * (api / apj + _h)},
                                              {_g: li / mi - lj / mj, _h: ai / aj - api / apj}))
    return prove


def _lemma_4_2_proof(reversed_: bool):
    """The proof of Lemma 4.2 for every m: (lhs - rhs) (sum a_j mu_j)(sum a'_i mu_i) = sum_{i<j} (pair terms), an
    identity proved by induction on m (cross-multiplication and rearrangement, kr.lemma_4_2_ratio_difference,
    kr.lemma_4_2_cross, kr.lemma_4_2_rearrangement), and each pair term >= 0 (kr.lemma_4_2_pair)."""
    return lambda c: conclude_pair_sum(c, _WEIGHT_4_2, PAIR_SUM, m, 1, _pair_term_proof(reversed_))


claim(id="kr.lemma_4_2",
      title="Lemma 4.2 as read, every m >= 1: if lambda_i/mu_i >= lambda_j/mu_j and a_i/a_j >= a'_i/a'_j for all "
            "i < j, then sum a_i lambda_i / sum a_i mu_i >= sum a'_i lambda_i / sum a'_i mu_i",
      source=S4_L2, kind="inequality", lhs=ratio_of_sums(a, lam, mu), rhs=ratio_of_sums(ap, lam, mu),
      relation=">=", conditions=(sp.Ge(lam[i] / mu[i], lam[j] / mu[j]), sp.Ge(a[i] / a[j], ap[i] / ap[j]), sp.Lt(i, j)),
      proof=_lemma_4_2_proof(False),
      note="Read with kr.reading.eq_4_2 and kr.reading.eq_4_3. The conditions hold for every pair 1 <= i < j <= m. "
           "The paper's proof: cross-multiplication (kr.lemma_4_2_ratio_difference, kr.lemma_4_2_cross), the "
           "rearrangement into pairs (kr.lemma_4_2_rearrangement) and the sign of each pair term (kr.lemma_4_2_pair): "
           "a sum of nonnegative terms over a positive denominator. The engine proves the identity (lhs - rhs) "
           "(sum a_j mu_j)(sum a'_i mu_i) = sum_{i<j} (a_i a'_j - a_j a'_i)(lambda_i mu_j - lambda_j mu_i) by induction "
           "on m and the sign of the pair term under the conditions of the pair.")

claim(id="kr.lemma_4_2_reversed",
      title="Lemma 4.2, note, every m >= 1: (4.1) also holds if lambda_i/mu_i <= lambda_j/mu_j and a_i/a_j <= "
            "a'_i/a'_j for all i < j",
      source=S4_L2, kind="inequality", lhs=ratio_of_sums(a, lam, mu), rhs=ratio_of_sums(ap, lam, mu),
      relation=">=", conditions=(sp.Le(lam[i] / mu[i], lam[j] / mu[j]), sp.Le(a[i] / a[j], ap[i] / ap[j]), sp.Lt(i, j)),
      proof=_lemma_4_2_proof(True),
      note="For every m: the same proof with kr.lemma_4_2_pair_reversed.")

# =====================================================================================================
# Corollary 4.1
# =====================================================================================================
a1, a2, a1p, a2p = sp.symbols("a_1 a_2 a'_1 a'_2", positive=True)


def corollary_ratio(x1, x2):
    """(q x_1 + p x_2)/(p x_1 + q x_2)."""
    return (q * x1 + p * x2) / (p * x1 + q * x2)


CROSS_C41 = (p**2 - q**2) * (a2 * a1p - a1 * a2p)

claim(id="kr.corollary_4_1_cross",
      title="Corollary 4.1, cross-multiplied: (q a_1 + p a_2)(p a'_1 + q a'_2) - (q a'_1 + p a'_2)(p a_1 + q a_2) = "
            "(p^2 - q^2)(a_2 a'_1 - a_1 a'_2)",
      source=S4_C1, kind="identity",
      lhs=(q * a1 + p * a2) * (p * a1p + q * a2p) - (q * a1p + p * a2p) * (p * a1 + q * a2), rhs=CROSS_C41)

claim(id="kr.corollary_4_1",
      title="Corollary 4.1: for 0 < q < p < 1 and a_i, a'_i > 0, (q a_1 + p a_2)/(p a_1 + q a_2) >= "
            "(q a'_1 + p a'_2)/(p a'_1 + q a'_2) whenever a_2/a_1 >= a'_2/a'_1",
      source=S4_C1, kind="inequality", lhs=corollary_ratio(a1, a2), rhs=corollary_ratio(a1p, a2p), relation=">=",
      conditions=(sp.Lt(q, p), sp.Lt(p, 1), sp.Ge(a2 / a1, a2p / a1p)),
      proof=lambda c: conclude(
          c, Parametrization({p: q + _g, a2: a1 * (a2p / a1p + _h)}, {_g: p - q, _h: a2 / a1 - a2p / a1p}),
          certificate=CROSS_C41 / ((p * a1 + q * a2) * (p * a1p + q * a2p))),
      note="The difference is (p^2 - q^2)(a_2 a'_1 - a_1 a'_2) (kr.corollary_4_1_cross) over a positive denominator. "
           "It is Lemma 4.2 at m = 2 with lambda = (q, p), mu = (p, q) and both conditions reversed "
           "(kr.lemma_4_2_reversed); p < 1 is not needed.")

# =====================================================================================================
# Lemma 4.3
# =====================================================================================================
la, lap, lmb, lmu = sp.symbols("a a' lambda mu", positive=True)
lb, lbp, lc, lcp = sp.symbols("b b' c c'", nonnegative=True)
COND_4_5 = (sp.Ge(la * lcp, lap * lc), sp.Le(la * lbp, lap * lb), sp.Ge(lb * lcp, lbp * lc))
# (4.5), first two: c' = (a' c + u)/a and b = (a b' + v)/a' with u, v >= 0
_U = sp.Symbol("u", nonnegative=True)
_V = sp.Symbol("v", nonnegative=True)
PARAM_4_5 = Parametrization({lcp: (lap * lc + _U) / la, lb: (la * lbp + _V) / lap},
                            {_U: la * lcp - lap * lc, _V: lap * lb - la * lbp})

claim(id="kr.lemma_4_3_cross",
      title="Lemma 4.3, proof: (a lambda + b mu)(c' lambda + a' mu) - (a' lambda + b' mu)(c lambda + a mu) = "
            "(a c' - a' c) lambda^2 + (b c' - b' c) lambda mu + (a' b - a b') mu^2",
      source=S4_L3, kind="identity",
      lhs=(la * lmb + lb * lmu) * (lcp * lmb + lap * lmu) - (lap * lmb + lbp * lmu) * (lc * lmb + la * lmu),
      rhs=(la * lcp - lap * lc) * lmb**2 + (lb * lcp - lbp * lc) * lmb * lmu + (lap * lb - la * lbp) * lmu**2)

claim(id="kr.lemma_4_3",
      title="Lemma 4.3: for a, a', lambda, mu > 0 and b, b', c, c' >= 0, (4.4) (a lambda + b mu)/(c lambda + a mu) >= "
            "(a' lambda + b' mu)/(c' lambda + a' mu) if (4.5) a c' >= a' c, a b' <= a' b and b c' >= b' c",
      source=S4_L3, kind="inequality", lhs=(la * lmb + lb * lmu) / (lc * lmb + la * lmu),
      rhs=(lap * lmb + lbp * lmu) / (lcp * lmb + lap * lmu), relation=">=", conditions=COND_4_5,
      proof=lambda c: conclude(c, PARAM_4_5),
      note="The proof uses only the first two conditions of (4.5) through the parametrization; the third follows "
           "from them (kr.lemma_4_3_third_condition).")

claim(id="kr.lemma_4_3_third_condition",
      title="Lemma 4.3: the third condition of (4.5) follows from the first two: a c' >= a' c and a b' <= a' b imply "
            "b c' >= b' c (a, a' > 0, b', c >= 0)",
      source=S4_L3, kind="inequality", lhs=lb * lcp, rhs=lbp * lc, relation=">=", conditions=COND_4_5[:2],
      proof=lambda c: conclude(c, PARAM_4_5,
                               certificate=(la * lbp * (la * lcp - lap * lc) + lap * lc * (lap * lb - la * lbp)
                                            + (la * lcp - lap * lc) * (lap * lb - la * lbp)) / (la * lap)),
      note="b c' - b' c = [a b' u + a' c v + u v]/(a a') with u = a c' - a' c >= 0 and v = a' b - a b' >= 0.")

finding("kr.finding.lemma_4_3_redundant", S4_L3,
        "The third condition of (4.5), b c' >= b' c, is implied by the first two (a c' >= a' c, a b' <= a' b) when "
        "a, a' > 0 and b', c >= 0: b c' - b' c = [a b' (a c' - a' c) + a' c (a' b - a b') + (a c' - a' c)(a' b - "
        "a b')]/(a a') (kr.lemma_4_3_third_condition). Neither of the first two follows from the other two: "
        "b = b' = 0 satisfies the second and third for any a c' < a' c, and c = c' = 0 the first and third for any "
        "a b' > a' b. Lemma 4.3 is true as stated; the redundant hypothesis costs nothing.",
        claims=("kr.lemma_4_3", "kr.lemma_4_3_third_condition"))

# =====================================================================================================
# Section 5: records randomized independently
# =====================================================================================================
rec = sp.IndexedBase(r"P_0", positive=True)          # rec[i] = P[A_0(x_i) = s_i], i = 2..n (shared records)
r1 = sp.Symbol(r"\mathsf{P}[A_0(x_1) = s_1]", positive=True)     # the differing record's factor in x
r1p = sp.Symbol(r"\mathsf{P}[A_0(x'_1) = s_1]", positive=True)   # ... and in x'
OTHERS = sp.Product(rec[i], (i, 2, n))
eps = sp.Symbol("epsilon", positive=True)
cbound = sp.Symbol("c", positive=True)               # a bound on the per-record ratio

# the joint pmfs of x and x' (x'_i = x_i for i >= 2) as the products of the records' pmfs: the independence of
# the records is the model of Section 5, taken here as the definition of these products, not checked
PROD_X = defined(r"\prod_{i=1}^{n} \mathsf{P}[A_0(x_i) = s_i]", r1 * OTHERS)
PROD_XP = defined(r"\prod_{i=1}^{n} \mathsf{P}[A_0(x'_i) = s_i]", r1p * OTHERS)

claim(id="kr.record_ratio",
      title="Section 5: prod_{i=1}^{n} P[A_0(x_i) = s_i] / prod_{i=1}^{n} P[A_0(x'_i) = s_i] = "
            "P[A_0(x_1) = s_1]/P[A_0(x'_1) = s_1] when x'_i = x_i for i >= 2 (every n)",
      source=S5, kind="identity", lhs=PROD_X / PROD_XP, rhs=r1 / r1p,
      note="Each product is defined as the first record's factor times prod_{i=2}^{n} P[A_0(x_i) = s_i], the "
           "factor of the records that x and x' share (x'_i = x_i), which is positive; the engine unfolds the "
           "products and cancels that factor. That P[A(x) = s] is this product (records randomized independently) "
           "is the paper's model of Section 5, built into the encoding and not checked; with it the left side is "
           "P[A(x) = s]/P[A(x') = s], the printed ratio.")

R_OTHERS = sp.Symbol(r"\prod_{i=2}^{n} \mathsf{P}[A_0(x_i) = s_i]", positive=True)   # the shared factor, positive

claim(id="kr.record_bound_rappor",
      title="Section 5 with e^eps: P[A_0(x_1) = s_1] <= e^eps P[A_0(x'_1) = s_1] implies the same inequality times R "
            "= prod_{i=2}^{n} P[A_0(x_i) = s_i] > 0",
      source=S5, kind="inequality", lhs=r1 * R_OTHERS, rhs=sp.exp(eps) * r1p * R_OTHERS, relation="<=",
      conditions=(sp.Le(r1, sp.exp(eps) * r1p),),
      proof=lambda c: conclude(c, Parametrization({r1: sp.exp(eps) * r1p - _g}, {_g: sp.exp(eps) * r1p - r1})),
      note="R = prod_{i=2}^{n} P[A_0(x_i) = s_i], the factor of the records that neighbouring collections share. "
           "The condition is the RAPPOR formulation (per-record bound with e^eps) at the differing record. That the "
           "joint pmf P[A(x) = s] is the product P[A_0(x_1) = s_1] R (records randomized independently) is the "
           "model of Section 5, built into the encoding and not checked; with it the conclusion is (1.2) for "
           "neighbouring collections, and with Proposition 1.1 (kr.prop_1_1_if) A is eps-DP in the sense of (1.1).")

claim(id="kr.record_bound_printed",
      title="Section 5 as printed, a bound c for e^eps: P[A_0(x_1) = s_1] <= c P[A_0(x'_1) = s_1] implies the same "
            "inequality times R = prod_{i=2}^{n} P[A_0(x_i) = s_i] > 0",
      source=S5, kind="inequality", lhs=r1 * R_OTHERS, rhs=sp.exp(sp.log(cbound)) * r1p * R_OTHERS, relation="<=",
      conditions=(sp.Le(r1, cbound * r1p),),
      proof=lambda c: conclude(c, Parametrization({r1: cbound * r1p - _g}, {_g: cbound * r1p - r1})),
      note="R = prod_{i=2}^{n} P[A_0(x_i) = s_i], the shared records' factor; e^{ln c} = c. With the joint pmf "
           "taken as the product of the records' pmfs (the model of Section 5, built into the encoding, not "
           "checked) the conclusion is (1.2) with eps = ln c. The printed condition has c = eps; the release is "
           "then (ln eps)-DP, and ln eps <= eps - 1 < eps (kr.log_below_tangent), so it is eps-DP as printed, with "
           "room to spare.")

citation("logarithm_below_tangent", "The logarithm lies below its tangent at 1",
         "ln(1 + x) <= x for every x > -1, with equality only at x = 0; equivalently ln c <= c - 1 for c > 0.",
         "NIST Digital Library of Mathematical Functions, Eq. 4.5.1; M. Abramowitz, I. A. Stegun, Handbook of "
         "Mathematical Functions (1964), 4.1.33.")


def _tangent_proof(c: Claim) -> Proof:
    """D(c) = ln c - (c - 1) is 0 at c = 1 and (c - 1) D'(c) = -(c - 1)^2/c <= 0: D falls away from c = 1 on both
    sides (the engine's conclusion from a point and the derivative's sign, by the mean value theorem)."""
    return conclude_from_point(c, cbound, 1)


claim(id="kr.log_below_tangent",
      title="Section 5: ln c <= c - 1 for every c > 0",
      source=S5, kind="inequality", lhs=sp.log(cbound), rhs=cbound - 1, relation="<=", proof=_tangent_proof,
      domain={cbound: (sp.Rational(1, 100), 50)}, numeric_points=40,
      note="With kr.record_bound_printed: a per-record bound c gives (ln c)-DP, and ln c < c, so the printed "
           "condition with eps (not e^eps) implies eps-DP. The standard inequality (DLMF 4.5.1) proved from its "
           "value 0 at c = 1 and the sign of the derivative of ln c - (c - 1), 1/c - 1, on either side of 1.")

finding("kr.finding.section_5_eps", S5,
        "Section 5 states that A is differentially private if P[A_0(x) = s] <= eps P[A_0(x') = s], with eps where "
        "(1.1) has exp(eps). As printed the statement is true but loose: a per-record bound c gives (ln c)-DP "
        "(kr.record_bound_printed, with kr.record_ratio and Proposition 1.1), and ln c <= c - 1 < c "
        "(kr.log_below_tangent), so c = eps gives eps-DP. With e^eps in place of eps it is exact, and it is the "
        "formulation of the RAPPOR paper the text refers to (kr.record_bound_rappor). Not an erratum: nothing "
        "printed is false.",
        claims=("kr.record_bound_printed", "kr.record_bound_rappor", "kr.log_below_tangent", "kr.record_ratio"))
