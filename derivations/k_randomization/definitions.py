"""Sections 1 and 2: differential privacy of a finite release (Proposition 1.1), bit and bit-vector
randomization, and the law of the aggregated query A = Phi o R (equation (2.1)).

Source: ``k-randomization`` (``003_6dfa2dbc38b4b249.txt``; Zhilyaev and Zeber, K-Randomization, 2016), Sections 1-2.

Conventions.  The lie probability is 0 < q < 1/2 and the truth probability p = 1 - q is written out
as ``1 - q`` in every Section 2 statement, so that no claim needs the side condition p = 1 - q.
Statements about single bits range over the finite set {0, 1}; those with a symbolic q are written as
one identity in free coefficients c_{b y} (one per case), which holds for every value of the c's iff
each of the cases holds, so the cases are proved together for every q.  A finite event S of the
release space is enumerated S = {s_1, ..., s_K}, with P_k = P[A(x) = s_k] and Q_k = P[A(x') = s_k].
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..engine.core import Claim, Proof, Source, claim, finding, reading
from ..engine.notation import defined, held
from ..engine.proofs import Parametrization, conclude, conclude_termwise, exhaust, term_symbol
from ..engine.laws import Law, conclude_laws
from .common import (BT_A, BT_A1, BT_K, BT_N, BT_P, DOC, PA_M, PA_P, PA_PZ, PA_R, L, n, q)

S1_PROP = Source(DOC, "Section 1, Proposition 1.1 and its proof")
S2_BIT = Source(DOC, "Section 2.1, bit randomization R(b) and its representation R(b; xi)")
S2_REMARKS = Source(DOC, "Section 2.1, the two remarks after the definition of R")
S2_VECTOR = Source(DOC, "Section 2.1, the Hamming distance and the law of R(x)")
S2_QUERY = Source(DOC, "Section 2.2, the query A = Phi o R, equation (2.1) and the support S_n")

TRUTH = 1 - q                                       # p = 1 - q, the probability of reporting the bit as-is
LIE_RANGE = (sp.Lt(q, sp.Rational(1, 2)),)          # 0 < q < 1/2 (q > 0 is an assumption of the symbol)
_u = sp.Symbol("u", positive=True)
HALF_PARAM = Parametrization({q: 1 / (2 * (1 + _u))}, {_u: (1 - 2 * q) / (2 * q)})   # q = 1/(2(1 + u)), u > 0

# =====================================================================================================
# Section 1: Proposition 1.1
# =====================================================================================================
eps = sp.Symbol("epsilon", positive=True)
k = sp.Symbol("k", integer=True, positive=True)      # index of the outcomes s_1, ..., s_K of S
K = sp.Symbol("K", integer=True, positive=True)      # |S|
j = sp.Symbol("j", integer=True, positive=True)
P = sp.IndexedBase("P", nonnegative=True)            # P_k = P[A(x) = s_k]
Q = sp.IndexedBase("Q", nonnegative=True)            # Q_k = P[A(x') = s_k]
_g = sp.Symbol("g", nonnegative=True)
_h = sp.Symbol("h", nonnegative=True)
P_T, Q_T = term_symbol(P[k]), term_symbol(Q[k])      # one term's P_k and Q_k, as conclude_termwise names them


def _pmf_bound_term(term: Claim) -> Proof:
    """One outcome: P_k <= e^eps Q_k, written P_k = e^eps Q_k - g with g >= 0 (the condition (1.2))."""
    return conclude(term, Parametrization({P_T: sp.exp(eps) * Q_T - _g}, {_g: sp.exp(eps) * Q_T - P_T}))


claim(id="kr.prop_1_1_if",
      title="Proposition 1.1 (<=) on a finite event S = {s_1, ..., s_K}, any K: P_k <= e^eps Q_k for each k implies "
            "sum_k P_k <= sum_k e^eps Q_k (P_k = P[A(x) = s_k], Q_k = P[A(x') = s_k])",
      source=S1_PROP, kind="inequality", lhs=sp.Sum(P[k], (k, 1, K)), rhs=sp.Sum(sp.exp(eps) * Q[k], (k, 1, K)),
      relation="<=", conditions=(sp.Le(P[k], sp.exp(eps) * Q[k]),),
      proof=lambda c: conclude_termwise(c, _pmf_bound_term),
      note="The condition holds for every k (every outcome of S). Summed term by term, so no division: this covers "
           "both cases of the paper's proof, which divides by P[A(x') in S] when it is positive and uses Lemma 4.1 "
           "(printed 'Lemma 5.1', reading kr.reading.lemma_5_1): sum P_k / sum Q_k <= max_k P_k/Q_k <= e^eps. Lemma "
           "4.1 in the same summed form is kr.lemma_4_1. The sums are P[A(x) in S] and e^eps P[A(x') in S], so the "
           "conclusion is (1.1) for the finite event S.")


def _zero_case_term(term: Claim) -> Proof:
    """One outcome with Q_k = 0: P_k <= e^eps * 0, so P_k + Q_k <= 0."""
    return conclude(term, Parametrization({P_T: -sp.exp(eps) * _h - _g, Q_T: -_h},
                                          {_g: sp.exp(eps) * Q_T - P_T, _h: -Q_T}))


claim(id="kr.prop_1_1_zero_case",
      title="Proposition 1.1, proof of (<=), case P[A(x') in S] = 0: Q_k <= 0 and P_k <= e^eps Q_k for each k imply "
            "sum_k (P_k + Q_k) <= 0",
      source=S1_PROP, kind="inequality", lhs=sp.Sum(P[k] + Q[k], (k, 1, K)), rhs=0, relation="<=",
      conditions=(sp.Le(P[k], sp.exp(eps) * Q[k]), sp.Le(Q[k], 0)),
      proof=lambda c: conclude_termwise(c, _zero_case_term),
      note="Q_k >= 0 (a probability) and Q_k <= 0 together say Q_k = 0 for every outcome s_k of S; the paper obtains "
           "this from P[A(x') in S] = 0 because a sum of nonnegative terms vanishes only if each term does. Since "
           "P_k, Q_k >= 0, sum_k (P_k + Q_k) <= 0 makes both P[A(x) in S] and P[A(x') in S] vanish, and (1.1) holds "
           "as 0 <= 0.")

claim(id="kr.prop_1_1_only_if",
      title="Proposition 1.1 (=>): (1.1) at the singleton S = {s}, P[A(x) in {s}] <= e^eps P[A(x') in {s}], "
            "is (1.2) at s: P[A(x) = s] <= e^eps P[A(x') = s]",
      source=S1_PROP, kind="inequality", lhs=P[j], rhs=sp.exp(eps) * Q[j], relation="<=",
      conditions=(sp.Le(sp.Sum(P[k] - sp.exp(eps) * Q[k], (k, j, j)), 0),),
      proof=lambda c: conclude(c, Parametrization({P[j]: sp.exp(eps) * Q[j] - _g},
                                                  {_g: -sp.Sum(P[k] - sp.exp(eps) * Q[k], (k, j, j))})),
      note="The condition is (1.1) for S = {s_j}, written as one sum over the single outcome s_j.")

reading("kr.reading.lemma_5_1", S1_PROP,
        printed="... <= max_{s in S} P[A(x) = s]/P[A(x') = s] <= exp(eps), using Lemma 5.1.",
        reading="using Lemma 4.1 (the ratio of sums is at most the largest ratio of terms).",
        why="The paper has no Lemma 5.1: Section 5 ('Old stuff') contains no lemma, and the step used is exactly "
            "Lemma 4.1 of Section 4. Section 4 refers to its own displays (4.1)-(4.5) as (5.1)-(5.5) as well "
            "(kr.reading.section_4_numbers): the numbering of Section 4 was shifted by one when the sections "
            "were rearranged, and these references were not updated.",
        alternatives="None that fits: Lemmas 4.2 and 4.3 compare two ratios of sums and do not bound one by a "
                     "maximum.",
        claims=("kr.prop_1_1_if", "kr.lemma_4_1"))

# =====================================================================================================
# Section 2.1: bit randomization
# =====================================================================================================
b, y, xi = sp.symbols("b y xi", integer=True, nonnegative=True)
c = sp.IndexedBase("c", real=True)                   # free coefficients, one per case (b, y)
BITS = (sp.Le(b, 1), sp.Le(y, 1))


def randomized_bit(bit, outcome):
    """R(b; xi) = b xi + (1 - b)(1 - xi): b when xi = 1 (truth), 1 - b when xi = 0 (lie)."""
    return bit * outcome + (1 - bit) * (1 - outcome)


def law_from_xi(bit, value, lie=q):
    """P[R(b) = y] = sum over xi in {0, 1} of P(xi) I(R(b; xi) = y), xi ~ Ber(1 - lie)."""
    return sp.Sum((1 - lie)**xi * lie**(1 - xi) * sp.KroneckerDelta(randomized_bit(bit, xi), value), (xi, 0, 1))


def hamming_bit(bit, value):
    """delta(b, y) = |b - y| for bits."""
    return sp.Abs(bit - value)


def each_pair(term):
    """sum over b, y in {0, 1} of c_{b y} term(b, y): an identity of these in the free c's is the four cases."""
    return sp.Add(*(c[bv, yv] * term(bv, yv) for bv in (0, 1) for yv in (0, 1)))


P_NAMED = defined("p", TRUTH)                        # p := 1 - q, written p as in the paper


def printed_bit_law(bit, value):
    """p^{I(b = y)} q^{I(b != y)} at one case (b, y), as printed: the indicators and p are the paper's notation
    (defined), and the product is held, so that SymPy does not evaluate the case when the claim is built."""
    with sp.evaluate(False):
        return held(P_NAMED**defined(rf"I({bit} = {value})", sp.KroneckerDelta(bit, value))
                    * q**defined(rf"I({bit} \neq {value})", 1 - sp.KroneckerDelta(bit, value)))


def printed_bit_law_distance(bit, value):
    """(1 - q)^{1 - delta(b, y)} q^{delta(b, y)} at one case (b, y), as printed, delta(b, y) = |b - y| defined."""
    dist = defined(rf"\delta({bit}, {value})", hamming_bit(bit, value))
    with sp.evaluate(False):
        return held((1 - q)**(1 - dist) * q**dist)


claim(id="kr.bit_representation",
      title="R(b; xi) = b xi + (1 - b)(1 - xi) is b when xi = 1 and 1 - b when xi = 0, for b, xi in {0, 1}",
      source=S2_BIT, kind="identity", lhs=sp.Piecewise((b, sp.Eq(xi, 1)), (1 - b, True)),
      rhs=randomized_bit(b, xi), conditions=(sp.Le(b, 1), sp.Le(xi, 1)), finite=True,
      enumeration=lambda cl: exhaust(cl, ({b: bv, xi: xv} for bv in (0, 1) for xv in (0, 1))),
      note="With xi ~ Ber(p), R(b; xi) therefore reports b with probability p and 1 - b with probability q: the "
           "definition of R, not a further check.")

claim(id="kr.hamming_bit",
      title="For b, y in {0, 1}: I(b != y) = 1 - I(b = y) = |b - y| (the two sums defining delta(x, x') agree term "
            "by term)",
      source=S2_VECTOR, kind="identity", lhs=1 - sp.KroneckerDelta(b, y), rhs=hamming_bit(b, y),
      conditions=BITS, finite=True,
      enumeration=lambda cl: exhaust(cl, ({b: bv, y: yv} for bv in (0, 1) for yv in (0, 1))))

claim(id="kr.bit_pmf",
      title="P[R(b) = y] = p^{I(b = y)} q^{I(b != y)} for b, y in {0, 1}, p = 1 - q, 0 < q < 1/2, the left side "
            "summed over xi ~ Ber(p) in R(b; xi) (four cases, free coefficients c_{b y})",
      source=S2_VECTOR, kind="identity", lhs=each_pair(law_from_xi), rhs=each_pair(printed_bit_law),
      conditions=LIE_RANGE,
      note="I(b != y) = 1 - I(b = y). The identity holds for every value of the c's iff the coefficient of each "
           "c_{b y} vanishes, i.e. iff each of the four cases holds. The right side is printed case by case "
           "(p, I(b = y), I(b != y) are the paper's notation for 1 - q and the indicators).")

claim(id="kr.bit_pmf_distance",
      title="p^{I(b = y)} q^{I(b != y)} = (1 - q)^{1 - delta(b, y)} q^{delta(b, y)} for b, y in {0, 1}, "
            "delta(b, y) = |b - y|, p = 1 - q (four cases, free coefficients c_{b y})",
      source=S2_VECTOR, kind="identity",
      lhs=each_pair(printed_bit_law), rhs=each_pair(printed_bit_law_distance),
      conditions=LIE_RANGE,
      note="The second equality of the display for P[R(b) = y]. Each case is kept as printed (p, the indicators "
           "and delta(b, y) are the paper's notation, defined as 1 - q, the indicators and |b - y|); the engine "
           "evaluates them when it checks the identity. It holds for every value of the c's iff each of the four "
           "cases holds.")

claim(id="kr.truth_likelier",
      title="R reports the original bit with probability p = 1 - q > q when q < 1/2",
      source=S2_REMARKS, kind="sign", lhs=TRUTH - q, relation=">", conditions=LIE_RANGE,
      proof=lambda cl: conclude(cl, HALF_PARAM))

f = sp.Symbol("f", positive=True)                    # randomized response: a fair coin with probability f
tell = sp.Symbol("t", integer=True, nonnegative=True)   # 1: report the truth (probability 1 - f)


def rr_law(bit, value):
    """P[RR(b) = y] summed over T ~ Ber(1 - f) (truth) and the two sides C of a fair coin: the report is
    T b + (1 - T) C."""
    coin_law = sp.Add(*(sp.Rational(1, 2) * sp.KroneckerDelta(tell * bit + (1 - tell) * side, value) for side in (0, 1)))
    return sp.Sum((1 - f)**tell * f**(1 - tell) * coin_law, (tell, 0, 1))


claim(id="kr.rr_equivalence",
      title="Randomized response (b kept with probability 1 - f, else a fair coin): P[RR(b) = y] = (1 - f/2)^{1 - "
            "delta(b, y)} (f/2)^{delta(b, y)}, R's law at q = f/2, for b, y in {0, 1}, 0 < f < 1",
      source=S2_REMARKS, kind="identity", lhs=each_pair(rr_law),
      rhs=each_pair(lambda bv, yv: (1 - f / 2)**(1 - hamming_bit(bv, yv)) * (f / 2)**hamming_bit(bv, yv)),
      conditions=(sp.Lt(f, 1),),
      note="The left side is summed over the randomness of the response (T ~ Ber(1 - f) and the coin); the right "
           "side is kr.bit_pmf at q = f/2, which lies in (0, 1/2) for 0 < f < 1.")

claim(id="kr.bit_half",
      title="At q = 1/2, R(0) and R(1) have the same law: P[R(0) = y] = P[R(1) = y] for y in {0, 1} (both laws "
            "summed over xi; the two cases in free coefficients c_{0 y})",
      source=S2_REMARKS, kind="identity",
      lhs=sp.Add(*(c[0, yv] * law_from_xi(0, yv, sp.Rational(1, 2)) for yv in (0, 1))),
      rhs=sp.Add(*(c[0, yv] * law_from_xi(1, yv, sp.Rational(1, 2)) for yv in (0, 1))),
      note="q = 1/2 is the edge of the definition's range 0 < q < 1/2; kr.bit_half_only shows no other q does this.")

claim(id="kr.bit_half_only",
      title="P[R(1) = 1] - P[R(0) = 1] = 1 - 2q for every q > 0 (laws summed over xi)",
      source=S2_REMARKS, kind="identity", lhs=law_from_xi(1, 1) - law_from_xi(0, 1), rhs=1 - 2 * q,
      note="1 - 2q vanishes only at q = 1/2, and a law on {0, 1} is fixed by its mass at 1, so R(0) and R(1) have "
           "the same law only at q = 1/2 (kr.bit_half checks that q).")

# -- bit vectors -------------------------------------------------------------------------------------------
ell = sp.Symbol("l", integer=True, positive=True)    # bit position 1..L
d = sp.IndexedBase("d", integer=True, nonnegative=True)   # d_l = delta(x_l, y_l) in {0, 1}
DELTA = sp.Sum(d[ell], (ell, 1, L))                 # delta(x, y), the Hamming distance


def log_bit_pmf(dist):
    """ln P[R(b) = y] = (1 - delta) ln p + delta ln q (kr.bit_pmf)."""
    return (1 - dist) * sp.log(TRUTH) + dist * sp.log(q)


def log_vector_pmf(length, dist):
    """ln [p^{L - delta} q^delta]."""
    return (length - dist) * sp.log(TRUTH) + dist * sp.log(q)


claim(id="kr.vector_pmf",
      title="Law of R(x) in logarithms: sum_{l=1}^{L} [(1 - d_l) ln p + d_l ln q] = (L - delta) ln p + delta ln q, "
            "delta = sum_l d_l, p = 1 - q, every L",
      source=S2_VECTOR, kind="identity", lhs=sp.Sum(log_bit_pmf(d[ell]), (ell, 1, L)),
      rhs=log_vector_pmf(L, DELTA), conditions=LIE_RANGE,
      note="d_l = delta(x_l, y_l) in {0, 1}. That the left side is ln P[R(x) = y] = sum_l ln P[R(x_l) = y_l] is the "
           "definition of bit-vector randomization (bits randomized independently), not checked here. The per-bit "
           "law is kr.bit_pmf (with kr.bit_pmf_distance); the identity is stated for the logarithms, which are "
           "defined because 0 < q < 1/2, and exponentiating both sides gives the printed product form.")

delta = sp.Symbol("delta", integer=True, nonnegative=True)

claim(id="kr.vector_pmf_max",
      title="p^{L - delta} q^delta is largest at delta = 0: (L - delta) ln p + delta ln q <= L ln p for 0 <= delta "
            "<= L, p = 1 - q, q < 1/2",
      source=S2_VECTOR, kind="inequality", lhs=log_vector_pmf(L, delta), rhs=log_vector_pmf(L, 0), relation="<=",
      conditions=LIE_RANGE + (sp.Le(delta, L),), proof=lambda cl: conclude(cl, HALF_PARAM),
      note="Equality at delta = 0; the difference is delta ln(q/p) <= 0 since q < p. With kr.vector_pmf: P[R(x) = y] "
           "is largest at y = x.")

claim(id="kr.vector_pmf_min",
      title="p^{L - delta} q^delta is smallest at delta = L: (L - delta) ln p + delta ln q >= L ln q for 0 <= delta "
            "<= L, p = 1 - q, q < 1/2",
      source=S2_VECTOR, kind="inequality", lhs=log_vector_pmf(L, delta), rhs=log_vector_pmf(L, L), relation=">=",
      conditions=LIE_RANGE + (sp.Le(delta, L),),
      proof=lambda cl: conclude(cl, Parametrization({q: 1 / (2 * (1 + _u)), delta: L - _g},
                                                    {_u: (1 - 2 * q) / (2 * q), _g: L - delta})),
      note="Equality at delta = L; the difference is (L - delta) ln(p/q) >= 0. With kr.vector_pmf: P[R(x) = y] is "
           "smallest at the opposite of x.")

# =====================================================================================================
# Section 2.2: the query A = Phi o R and equation (2.1)
# =====================================================================================================
i_rec = sp.Symbol("i", integer=True, positive=True)  # record 1..n
dr = sp.IndexedBase(r"\delta", integer=True, nonnegative=True)   # dr_i = delta(x_i, y_i) in {0, ..., L}

claim(id="kr.query_pmf_product",
      title="(2.1), product step in logarithms: sum_{i=1}^{n} [(L - delta_i) ln p + delta_i ln q] = (nL - delta) ln "
            "p + delta ln q, delta = sum_i delta_i, every n and L",
      source=S2_QUERY, kind="identity", lhs=sp.Sum(log_vector_pmf(L, dr[i_rec]), (i_rec, 1, n)),
      rhs=log_vector_pmf(n * L, sp.Sum(dr[i_rec], (i_rec, 1, n))), conditions=LIE_RANGE,
      note="delta_i = delta(x_i, y_i) and delta = delta(x, y); exponentiating both sides gives the printed "
           "prod_{i=1}^{n} p^{L - delta(x_i, y_i)} q^{delta(x_i, y_i)} = p^{nL - delta(x, y)} q^{delta(x, y)}.")


def _alphabet(bits):
    """D = (d_1, ..., d_{2^L}) with d_1 = (1, ..., 1) and d_{2^L} = (0, ..., 0), as in Section 2.2."""
    return tuple(itertools.product((1, 0), repeat=bits))


def _counts(records, alphabet):
    """Phi(y): the number of records equal to each element of the alphabet."""
    return tuple(sum(1 for r in records if r == a) for a in alphabet)


def law_by_randomization(x, bits, lie: Fraction) -> dict:
    """{s: P[A(x) = s]} by enumerating every randomization outcome xi in {0, 1}^{nL}: each has probability
    p^{#(xi = 1)} q^{#(xi = 0)}, and gives the synthetic collection y = R(x; xi) bit by bit."""
    alphabet, law = _alphabet(bits), {}
    flat = [bit for rec in x for bit in rec]
    for outcome in itertools.product((0, 1), repeat=len(flat)):
        pr = Fraction(1)
        for o in outcome:
            pr *= (1 - lie) if o else lie
        ybits = [bb * o + (1 - bb) * (1 - o) for bb, o in zip(flat, outcome)]
        ys = [tuple(ybits[r * bits:(r + 1) * bits]) for r in range(len(x))]
        s_out = _counts(ys, alphabet)
        law[s_out] = law.get(s_out, Fraction(0)) + pr
    return law


P_A = sp.Symbol(r"P_{\xi}[A(\mathbf{x}) = \mathbf{s}]", nonnegative=True)
M_OUT = sp.Symbol("M", integer=True, nonnegative=True)    # the number of synthetic collections y with Phi(y) = s
P_RY = sp.IndexedBase(r"\mathsf{P}[R(\mathbf{x}) = \mathbf{y}]", nonnegative=True)   # P[R(x) = y_r]
dist_d = sp.Symbol("d", integer=True, nonnegative=True)
N_DIST = defined("N_d", sp.Sum(sp.KroneckerDelta(dr[PA_R], dist_d), (PA_R, 1, M_OUT)))   # #{r : delta(x, y_r) = d}
SUM_2_1 = sp.Sum(N_DIST * TRUTH**(n * L - dist_d) * q**dist_d, (dist_d, 0, n * L))

claim(id="kr.query_pmf",
      title="(2.1): P[A(x) = s] = sum_{d=0}^{nL} N_d p^{nL - d} q^d, N_d = #{r : delta(x, y_r) = d}, y_1, ..., y_M the "
            "synthetic collections with Phi(y) = s, p = 1 - q, every n and L",
      source=S2_QUERY, kind="identity", lhs=P_A, rhs=SUM_2_1,
      conditions=LIE_RANGE + (sp.Le(dr[PA_R], n * L),),
      proof=lambda cl: conclude_laws(cl, [
          Law(P_A, "probability_additive_outcomes", {PA_P: P_A, PA_M: M_OUT, PA_PZ: P_RY}),
          Law(P_RY[PA_R], "bernoulli_trials_sequence", {BT_P: P_RY[PA_R], BT_N: n * L, BT_K: dr[PA_R], BT_A: q,
                                                          BT_A1: 1 - q})]),
      note="N_d = #{y in D^n : Phi(y) = s, delta(x, y) = d}, written as the number of r with delta_r = delta(x, y_r) "
           "= d. {A(x) = s} is the event that R(x) is one of y_1, ..., y_M, so P[A(x) = s] = sum_r P[R(x) = y_r] "
           "(finite additivity, cited); R(x) is nL independent bit randomizations, each a lie with probability q, "
           "and y_r differs from x in delta_r of the nL bits, so P[R(x) = y_r] = p^{nL - delta_r} q^{delta_r} "
           "(Bernoulli trials, cited; the product step is kr.query_pmf_product). Grouping the terms by their "
           "distance d gives the right side. Also checked in the tests against the law of A(x) summed over all 2^{nL} "
           "randomization outcomes xi, for nL <= 4.")

R_IDX = sp.IndexedBase("r", integer=True, positive=True)     # y_i = d_{r_i}: the element of D that record i reports
k_cell = sp.Symbol("k", integer=True, positive=True)         # a coordinate of Phi (an element d_k of D)
PHI_K = defined(r"\Phi_k(\mathbf{y})", sp.Sum(sp.KroneckerDelta(R_IDX[i_rec], k_cell), (i_rec, 1, n)))

claim(id="kr.support",
      title="Support of A(x) within S_n = {s : s_1 + ... + s_{2^L} = n}: the counts of every synthetic collection y in "
            "D^n sum to n, sum_{k=1}^{2^L} Phi_k(y) = n (y_i = d_{r_i}, 1 <= r_i <= 2^L), every n and L",
      source=S2_QUERY, kind="identity", lhs=sp.Sum(PHI_K, (k_cell, 1, 2**L)), rhs=n,
      conditions=(sp.Le(R_IDX[i_rec], 2**L),),
      proof=lambda cl: conclude_laws(cl, []),
      note="Phi_k(y) = sum_i I(y_i = d_k) = sum_i I(r_i = k), the number of records of y equal to d_k. Each record "
           "equals exactly one element of D, so the counts of y sum to n and A(x) = Phi(R(x)) lies in S_n whatever "
           "the randomization: no outcome off S_n has positive probability. Every s in S_n has positive probability "
           "(kr.support_positive, every n and L, 0 < q < 1/2), so the support of A(x) is exactly S_n; |S_n| = "
           "C(n + 2^L - 1, n). Also checked in the tests against the law of A(x) from all 2^{nL} randomization "
           "outcomes, nL <= 4.")

claim(id="kr.query_term_positive",
      title="Every term of (2.1) is positive: p^{nL - delta} q^delta > 0 for p = 1 - q, 0 < q < 1/2, 0 <= delta <= nL",
      source=S2_QUERY, kind="sign", lhs=TRUTH**(n * L - delta) * q**delta, relation=">",
      conditions=LIE_RANGE + (sp.Le(delta, n * L),), proof=lambda cl: conclude(cl, HALF_PARAM),
      note="Hence P[A(x) = s] > 0 for every s that is Phi(y) of some y in D^n. Each s in S_n is Phi(y) of the "
           "collection y listing d_j s_j times (j = 1, ..., 2^L); the support is exactly S_n by kr.support (no mass "
           "off S_n) and kr.support_positive.")

reading("kr.reading.phi_last_index", S2_QUERY,
        printed="Phi(y) := ( sum_i I(y_i = d_1), ..., sum_i I(y_i = d_{2L}).)",
        reading="the last coordinate counts d_{2^L}, the last element of D = (d_1, ..., d_{2^L}); the stray period "
                "inside the parenthesis is dropped",
        why="D = {0, 1}^L has 2^L elements, enumerated (d_1, ..., d_{2^L}) two lines earlier, and the counts s take "
            "values in S_n = {0, ..., n}^{2^L}; the superscript of 2^L was flattened to '2L' by the extraction, as "
            "it was not elsewhere in the same paragraph.",
        alternatives="d_{2L} literally: for L >= 3 there are 2L < 2^L coordinates and Phi would not count every "
                     "element of D, contradicting 'occurrence counts for every possible randomization outcome' and "
                     "s_1 + ... + s_{2^L} = n.",
        claims=("kr.query_pmf", "kr.support"))


finding("kr.finding.prop_1_1_proof_gap", S1_PROP,
        "The proof of Proposition 1.1 (<=) bounds the ratio of sums by max over s in S of P[A(x) = s]/P[A(x') = s], "
        "which is 0/0 for an s in S off the support of A(x') while P[A(x') in S] > 0 (n = 1, L = 1, "
        "S = {(1, 0), (1, 1)}: (1, 1) is not a possible count vector). Those s have P[A(x) = s] = 0 by (1.2) and "
        "can be dropped first; the statement stands. kr.prop_1_1_if sums (1.2) term by term and needs no division.",
        claims=("kr.prop_1_1_if",))
