"""Section 3: the privacy ratio, its conditioning form (3.1), and the single-bit count A_n(m) (Section 3.1).

Source: ``k-randomization`` (``003_6dfa2dbc38b4b249.txt``), Section 3 (display (3.1)) and
Section 3.1 (3.1.1 recursions (3.2),
(3.3) and the cdf recursions; 3.1.2 mean, variance, cdf differences and sandwiches; 3.1.3 quantiles).

*General L (Section 3).*  The conditioning identity behind (3.1) and the two printed expressions of the
privacy ratio are checked against an exact enumeration of every collection and every synthetic collection
of a few records (CHECKED on the stated scope); the first printed expression carries x_1' in numerator
and denominator (a ratio identically 1) and is read with x_1 in the denominator (a reading).

*L = 1 (Section 3.1).*  With m of the n records equal to 1, the generating function of the count is

    G_{n,m}(z) = E z^{A_n(m)} = (q + p z)^m (p + q z)^{n-m},

the product of the records' generating functions.  Every general statement of 3.1 is proved on
generating functions: equal power series have equal coefficients, so an identity of generating
functions is the identity of the pmfs at every s (and of the cdfs at every integer k, whose generating
function is G(z)/(1 - z)); a cdf of an integer-valued count is constant between integers, so the
cdf identities hold for real x through k = floor(x).  Statements that need p + q = 1 are written with
p = 1 - q or with the weaker condition they use (p < 1).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import lcm

import sympy as sp

from ..engine.core import (Claim, Proof, Source, all_of, cite, citation, claim, mechanical, reading,
                           zero)
from ..engine.notation import defined
from ..engine.laws import Law, conclude_laws, evaluates_under
from ..engine.proofs import Parametrization, conclude, conclude_instance, exhaust
from .common import (BC_A, BC_A1, BC_B, BC_B1, BC_K, BC_M, BC_P, BC_S, BT_A, BT_A1, BT_K, BT_N, BT_P, DOC, IS_K, IS_P,
                     IS_PY, IS_PZ, LR_EVENTS, LR_MIN, LR_POINTS, PM_B, PM_Z, QO_ALPHA, QO_C, QO_GAP, QO_TF,
                     QO_TG, m, n, p, q, s)

S3 = Source(DOC, "Section 3, the privacy ratio pi(s; x, x') and display (3.1)")
S31 = Source(DOC, "Section 3.1, the case L = 1: A_n(m) and the reduction to pi(s; m)")
S311 = Source(DOC, "Section 3.1.1, recursions (3.2), (3.3), the bullets after them and the cdf recursions")
S312 = Source(DOC, "Section 3.1.2, mean, variance, the two cdf differences and the sandwich inequalities")
S313 = Source(DOC, "Section 3.1.3, quantiles: tau_n(m) in {tau_n(m-1), tau_n(m-1) + 1}")

citation("pgf_of_independent_sum", "Generating function of a sum of independent integer-valued variables",
         "If X and Y are independent with values in {0, 1, ...} and generating functions A(z) = E z^X and "
         "B(z) = E z^Y, then X + Y has generating function A(z) B(z); its law is the convolution of theirs.",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), Ch. XI, "
         "Sec. 2 (convolutions).")
citation("power_series_coefficients", "Equal power series have equal coefficients",
         "Two power series (in particular polynomials, or a polynomial divided by 1 - z) that agree on an "
         "interval of z have the same coefficients; a law on {0, 1, ...} is determined by its generating "
         "function, and P[X = k] is the coefficient of z^k.",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), Ch. XI, "
         "Sec. 1; W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 8.5 (uniqueness of "
         "power series).")
citation("cdf_generating_function", "Generating function of a distribution function",
         "For X with values in {0, 1, ...} and generating function G, sum_{k>=0} P[X <= k] z^k = G(z)/(1 - z) "
         "(|z| < 1), and P[X <= x] = P[X <= floor(x)] for every real x (P[X <= x] = 0 for x < 0).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), Ch. XI, "
         "Sec. 1, Thm 1 (the tail generating function (1 - G(z))/(1 - z)).")
citation("pgf_moments", "Moments from the generating function",
         "For X with values in {0, ..., n} and generating function G: E X = G'(1) and "
         "Var X = G''(1) + G'(1) - G'(1)^2.",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), Ch. XI, "
         "Sec. 1, (1.9)-(1.10).")

z = sp.Symbol("z", positive=True)
x_real = sp.Symbol("x", real=True)


def count_pgf(nn, mm, zz=z):
    """G_{n,m}(z) = E z^{A_n(m)}: m records equal to 1 (each reported 1 with probability p) and n - m equal to 0
    (each reported 1 with probability q)."""
    return (q + p * zz)**mm * (p + q * zz)**(nn - mm)


def cdf_gf(nn, mm):
    """sum_k F_{n,m}(k) z^k = G_{n,m}(z)/(1 - z), F_{n,m}(x) = P[A_n(m) <= x]."""
    return count_pgf(nn, mm) / (1 - z)


def _floor_shift() -> Proof:
    """floor(x - 1) = floor(x) - 1 and floor(x + 1) = floor(x) + 1 for real x: the cdf identities at real x are
    the identities at the integer floor(x)."""
    gap = sp.Abs(sp.floor(x_real - 1) - sp.floor(x_real) + 1) + sp.Abs(sp.floor(x_real + 1) - sp.floor(x_real) - 1)
    return zero(gap, "floor(x -+ 1) = floor(x) -+ 1 for every real x, so F(x -+ 1) = F(floor(x) -+ 1)")


def _coefficients(how: str) -> Proof:
    return cite("power_series_coefficients", how)


# ======================================================================================================
# Section 3: the privacy ratio and (3.1), general L, by exact enumeration
# ======================================================================================================
_Q_GRID = (Fraction(1, 5), Fraction(1, 3))
_SMALL = ((1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (2, 2), (3, 2), (1, 3))   # (n, L) enumerated


def _bit_vectors(L):
    """D = {0,1}^L with d_1 = (1, ..., 1) first and d_{2^L} = (0, ..., 0) last, as in Section 2.2."""
    return sorted(itertools.product((0, 1), repeat=L), reverse=True)


_LAWS: dict = {}     # the laws below, each computed once per argument (callers only read them)


def _memo(name, key, compute):
    if (name, key) not in _LAWS:
        _LAWS[name, key] = compute()
    return _LAWS[name, key]


def _record_law(x, qq):
    """{y: P[R(x) = y]} for one record: every bit kept with probability 1 - q, flipped with probability q."""
    return _memo("record", (tuple(x), qq), lambda: _record_law_once(x, qq))


def _record_law_once(x, qq):
    law = {}
    for y in itertools.product((0, 1), repeat=len(x)):
        pr = Fraction(1)
        for b, c in zip(x, y):
            pr *= (1 - qq) if b == c else qq
        law[y] = pr
    return law


def _count_law(records, D, qq):
    """{counts s: P[A(x) = s]}: every synthetic collection y of the records (independent records), counted by Phi."""
    return _memo("count", (tuple(tuple(r) for r in records), tuple(D), qq), lambda: _count_law_once(records, D, qq))


def _count_law_once(records, D, qq):
    index = {d: j for j, d in enumerate(D)}
    laws = [_record_law(x, qq) for x in records]
    out = {}
    for ys in itertools.product(*(list(law.items()) for law in laws)):
        pr = Fraction(1)
        counts = [0] * len(D)
        for y, py in ys:
            pr *= py
            counts[index[y]] += 1
        out[tuple(counts)] = out.get(tuple(counts), 0) + pr
    return out


def _support(nn, K):
    """S_n: every vector of K counts summing to n."""
    return [c for c in itertools.product(range(nn + 1), repeat=K) if sum(c) == nn]


def _unit(j, K):
    return tuple(int(i == j) for i in range(K))


def _minus(s_vec, e):
    return tuple(a - b for a, b in zip(s_vec, e))


def _rat(x):
    return sp.Rational(x.numerator, x.denominator)


def _cases():
    """Every (n, L) of _SMALL, q of the grid, collection x in D^n and s in S_n, with the laws needed."""
    for (nn, L), qq in itertools.product(_SMALL, _Q_GRID):
        D = _bit_vectors(L)
        K = len(D)
        for x in itertools.product(D, repeat=nn):
            yield nn, L, qq, D, K, x


P_JOINT = sp.Symbol(r"\mathsf{P}[A(\mathbf{x}) = \mathbf{s}]", nonnegative=True)
P_COND = sp.Symbol(r"\sum_j \mathsf{P}[R(x_1) = d_j]\,\mathsf{P}[A(\tilde{\mathbf{x}}) = \mathbf{s} - \mathbf{i}_j]",
                   nonnegative=True)
P_A1 = sp.Symbol(r"\mathsf{P}[A(x_1) = \mathbf{i}_j]", nonnegative=True)
P_R1 = sp.Symbol(r"\mathsf{P}[R(x_1) = d_j]", nonnegative=True)
P_MIN = sp.Symbol(r"\min_{\mathbf{x}, \mathbf{s} \in \mathcal{S}_n} \mathsf{P}[A(\mathbf{x}) = \mathbf{s}]", nonnegative=True)
PI_ENUM = sp.Symbol(r"\pi(\mathbf{s}; \mathbf{x}, \mathbf{x}')", positive=True)
PI_R = sp.Symbol(r"\frac{\sum_j \mathsf{P}[R(x_1') = d_j] \mathsf{P}[A(\tilde{\mathbf{x}}) = \mathbf{s} - \mathbf{i}_j]}"
                 r"{\sum_j \mathsf{P}[R(x_1) = d_j] \mathsf{P}[A(\tilde{\mathbf{x}}) = \mathbf{s} - \mathbf{i}_j]}",
                 positive=True)
PI_A = sp.Symbol(r"\frac{\sum_j \mathsf{P}[A(x_1') = \mathbf{i}_j] \mathsf{P}[A(\tilde{\mathbf{x}}) = \mathbf{s} - \mathbf{i}_j]}"
                 r"{\sum_j \mathsf{P}[A(x_1) = \mathbf{i}_j] \mathsf{P}[A(\tilde{\mathbf{x}}) = \mathbf{s} - \mathbf{i}_j]}",
                 positive=True)

_SCOPE_S3 = ("(n, L) in {(1..4, 1), (1..3, 2), (1, 3)}, q in {1/5, 1/3}, every collection x in D^n and every s in "
             "S_n; laws by enumerating every synthetic collection, exact rationals")
_SCOPE_RATIO = ("(n, L) in {(2..4, 1), (2..3, 2)}, q in {1/5, 1/3}, every collection x in D^n, every x_1' != x_1 and "
                "every s in S_n; laws by enumerating every synthetic collection, exact rationals")


def _conditioned_sum(weights, rest, s_vec, K):
    """sum_j w_j P[A(x~) = s - i_j] (terms with a negative count are 0)."""
    return sum(weights[j] * rest.get(_minus(s_vec, _unit(j, K)), 0) for j in range(K))


_w = sp.Symbol("w", positive=True)
_HALF = Parametrization({q: 1 / (2 * (1 + _w))}, {_w: (1 - 2 * q) / (2 * q)})   # q = 1/(2(1 + w)), 0 < q < 1/2
DELTA_STAR = sp.Symbol(r"\delta^*", integer=True, nonnegative=True)   # delta(x, y*), y* listing d_j s_j times
P_STAR = sp.Symbol(r"\mathsf{P}[R(\mathbf{x}) = \mathbf{y}^*]", nonnegative=True)
S_COUNTS = sp.IndexedBase("s", integer=True, nonnegative=True)       # the counts s_1, ..., s_{2^L}
L_bits = sp.Symbol("L", integer=True, positive=True)


def _star_counts() -> Proof:
    """Phi(y*) = s: y* lists d_j s_j times, so its k-th count is sum_j s_j I(d_j = d_k) = s_k (1 <= k <= 2^L)."""
    j, k = sp.symbols("j k", integer=True, positive=True)
    count = sp.Sum(S_COUNTS[j] * sp.KroneckerDelta(j, k), (j, 1, 2**L_bits))
    ok = evaluates_under(count, S_COUNTS[k], (sp.Le(k, 2**L_bits),))
    return mechanical(ok, "Phi(y*) = s: the k-th count of y* is sum_{j=1}^{2^L} s_j I(d_j = d_k) = s_k for 1 <= k <= 2^L")


claim(id="kr.support_positive",
      title="pi is well defined: P[A(x) = s] > 0 for every x in D^n and s in S_n, every n and L, 0 < q < 1/2 "
            "(delta* = delta(x, y*) <= nL for the collection y* listing d_j s_j times)",
      source=S3, kind="inequality", relation=">", lhs=P_JOINT, rhs=0,
      conditions=(sp.Lt(q, sp.Rational(1, 2)), sp.Le(DELTA_STAR, n * L_bits)),
      proof=lambda c: all_of(_star_counts(), conclude_laws(c, [
          Law(P_JOINT, "probability_monotone", {PM_B: P_JOINT, PM_Z: P_STAR}),
          Law(P_STAR, "bernoulli_trials_sequence", {BT_P: P_STAR, BT_N: n * L_bits, BT_K: DELTA_STAR, BT_A: q,
                                                    BT_A1: 1 - q})],
          _HALF)),
      note="The event {A(x) = s} = {R(x) in Phi^{-1}(s)} contains {R(x) = y*}, y* the collection of n records listing "
           "d_j s_j times (s in S_n: its counts sum to n), since Phi(y*) = s (the proof's first step), so P[A(x) = s] "
           ">= P[R(x) = y*] (monotonicity of probability, cited). R(x) is nL independent bit randomizations, each a lie "
           "with probability q, and y* differs from x in delta* = delta(x, y*) of the nL bits, so P[R(x) = y*] = "
           "(1 - q)^(nL - delta*) q^(delta*) (Bernoulli trials, cited), which is positive for 0 < q < 1/2. By (2.1) "
           "P[A(x) = s] is the sum of such terms over every y with Phi(y) = s, and y* is one of them. Also checked "
           "exactly against every synthetic collection in the tests.")


RHO = sp.IndexedBase("rho", nonnegative=True)       # rho_j = P[R(x_1) = d_j]
A_REST = sp.IndexedBase("a", nonnegative=True)      # a_j = P[A(x~) = s - i_j]
j_rec = sp.Symbol("j", integer=True, positive=True)  # index of D = (d_1, ..., d_{2^L})
P_X = P_JOINT                                       # P[A(x) = s]


def conditioned_sum(weights, rest=A_REST):
    """sum_{j=1}^{2^L} w_j a_j, a_j = P[A(x~) = s - i_j]: the right side of the conditioning on x_1."""
    return sp.Sum(weights[j_rec] * rest[j_rec], (j_rec, 1, 2**L_bits))


def _independent_sum(weights, notation):
    """A(x) = Phi(R(x_1)) + A(x~): the cited law of an independent sum, conditioning on R(x_1) in D = (d_1, ...,
    d_{2^L}), with Phi((d_j)) = i_j (the counts of the single report d_j)."""
    return Law(notation, "independent_sum_given_values", {IS_P: notation, IS_K: 2**L_bits, IS_PZ: weights,
                                                          IS_PY: A_REST})


r_rec = sp.Symbol("r", integer=True, positive=True)
UNIT_MATCH = sp.Lambda(r_rec, sp.KroneckerDelta(r_rec, j_rec))   # I(i_r = i_j): P[0 = i_j - i_r] for A of no record
_D_COUNT = 2**L_bits


def _units_distinct() -> Proof:
    """i_r = i_j only for r = j: the inner product sum_k I(k = r) I(k = j) of two unit vectors is I(r = j), for
    1 <= r, j <= 2^L (so i_r and i_j differ unless r = j, and i_r . i_r = 1)."""
    k = sp.Symbol("k", integer=True, positive=True)
    dot = sp.Sum(sp.KroneckerDelta(r_rec, k) * sp.KroneckerDelta(j_rec, k), (k, 1, _D_COUNT))
    ok = evaluates_under(dot, sp.KroneckerDelta(r_rec, j_rec), (sp.Le(r_rec, _D_COUNT), sp.Le(j_rec, _D_COUNT)))
    return mechanical(ok, "Phi((d_r)) = i_r, and i_r = i_j iff r = j: the inner product sum_{k=1}^{2^L} I(k = r) "
                          "I(k = j) is I(r = j) for 1 <= r, j <= 2^L")


claim(id="kr.record_count_law",
      title="(3.1): for one record, P[A(x_1) = i_j] = rho_j = P[R(x_1) = d_j] for every x_1 in D, every L and every "
            "j = 1..2^L",
      source=S3, kind="identity", lhs=P_A1, rhs=RHO[j_rec], conditions=(sp.Le(j_rec, _D_COUNT),),
      proof=lambda c: all_of(_units_distinct(), conclude_laws(c, [Law(
          P_A1, "independent_sum_given_values",
          {IS_P: P_A1, IS_K: _D_COUNT, IS_PZ: RHO, IS_PY: UNIT_MATCH})])),
      note="A(x_1) = Phi(R(x_1)) is the cited law with Y = 0 (no other record): P[A(x_1) = i_j] = sum_{r=1}^{2^L} "
           "P[R(x_1) = d_r] I(i_r = i_j), since Phi of the single report d_r is i_r; the unit vectors are distinct "
           "(the proof's first step), so the sum has the one term r = j. This turns the first expression of (3.1) "
           "into the second.")


claim(id="kr.conditioning",
      title="(3.1), conditioning on x_1: P[A(x) = s] = sum_{j=1}^{2^L} rho_j a_j, rho_j = P[R(x_1) = d_j], a_j = "
            "P[A(x~) = s - i_j], every n >= 2 and L",
      source=S3, kind="identity", lhs=P_X, rhs=conditioned_sum(RHO),
      proof=lambda c: conclude_laws(c, [_independent_sum(RHO, P_X)]),
      note="Printed as sum_j P[R(x_1) = d_j] P[A(x~) = s - i_j]. A(x) = Phi(R(x_1)) + A(x~) (Phi counts records, so "
           "the counts of a collection are the sum of those of its parts), R(x_1) and A(x~) are independent (the "
           "records are randomized independently, Section 2.2 (a)), R(x_1) takes the 2^L values d_j and Phi((d_j)) "
           "= i_j: the cited law of an independent sum, conditioning on the value of R(x_1), gives the right side, a_j = 0 "
           "where s - i_j has a negative count. Numerator and denominator of pi are this sum for x_1' and x_1. "
           "Also checked exactly against every synthetic collection in the tests (n <= 4 for L = 1, n <= 3 for "
           "L = 2).")


RHO_P = sp.IndexedBase(r"\rho'", nonnegative=True)    # rho'_j = P[R(x_1') = d_j]
PHI = sp.IndexedBase("phi", nonnegative=True)        # phi_j = P[A(x_1) = i_j]
PHI_P = sp.IndexedBase(r"\phi'", nonnegative=True)     # phi'_j = P[A(x_1') = i_j]
P_XP = sp.Symbol(r"\mathsf{P}[A(\mathbf{x}') = \mathbf{s}]", nonnegative=True)
PI_DEF = defined(r"\pi(\mathbf{s}; \mathbf{x}, \mathbf{x}')", P_XP / P_X)   # pi := P[A(x') = s] / P[A(x) = s]


def _ratio_claim(cid, title, num_w, den_w, note):
    """pi(s; x, x') = sum_j w'_j a_j / sum_j w_j a_j: numerator and denominator of pi by the conditioning law
    (x' = (x_1', x~), x = (x_1, x~)); defined where P[A(x) = s] and the printed denominator are nonzero."""
    claim(id=cid, title=title, source=S3, kind="identity", lhs=PI_DEF,
          rhs=conditioned_sum(num_w) / conditioned_sum(den_w),
          conditions=(sp.Gt(P_X, 0), sp.Ne(conditioned_sum(den_w), 0)),
          proof=lambda c: conclude_laws(c, [_independent_sum(num_w, P_XP), _independent_sum(den_w, P_X)]),
          note=note)


_ratio_claim(
    "kr.ratio_conditioning",
    "(3.1), second expression: pi(s; x, x') = sum_{j=1}^{2^L} rho'_j a_j / sum_{j=1}^{2^L} rho_j a_j, rho'_j = "
    "P[R(x_1') = d_j], rho_j = P[R(x_1) = d_j], a_j = P[A(x~) = s - i_j], every n >= 2 and L",
    RHO_P, RHO,
    "Printed as sum_j P[R(x_1') = d_j] P[A(x~) = s - i_j] / sum_j P[R(x_1) = d_j] P[A(x~) = s - i_j]; pi(s; x, x') := "
    "P[A(x') = s] / P[A(x) = s]. The conditioning law (kr.conditioning, the cited law of an independent sum) "
    "applied to the numerator (x' = (x_1', x~)) and to the denominator (x = (x_1, x~)). The conditions exclude "
    "nothing for s in S_n: P[A(x) = s] > 0 (kr.support_positive), and the printed denominator is P[A(x) = s] "
    "(kr.conditioning). Also checked exactly against every synthetic collection in the tests.")

_ratio_claim(
    "kr.ratio_conditioning_read",
    "(3.1), first expression as read (x_1 in the denominator): pi(s; x, x') = sum_{j=1}^{2^L} phi'_j a_j / "
    "sum_{j=1}^{2^L} phi_j a_j, phi'_j = P[A(x_1') = i_j], phi_j = P[A(x_1) = i_j], a_j = P[A(x~) = s - i_j], every "
    "n >= 2 and L",
    PHI_P, PHI,
    "Read with x_1 in the denominator (kr.reading.ratio_denominator). A(x) = A(x_1) + A(x~), A(x_1) takes the "
    "values i_j: the cited law of an independent sum, for the numerator (x_1') and the denominator (x_1). The "
    "conditions exclude nothing for s in S_n (kr.support_positive, kr.conditioning with kr.record_count_law). "
    "With kr.record_count_law (phi_j = rho_j) it is the second expression. Also checked exactly in the tests.")

reading("kr.reading.ratio_denominator", S3,
        printed="pi(s; x~, x_1, x_1') = sum_j P[A(x_1') = i_j] P[A(x~) = s - i_j] / "
                "sum_j P[A(x_1') = i_j] P[A(x~) = s - i_j] = ...",
        reading="the denominator of the first expression has x_1: sum_j P[A(x_1) = i_j] P[A(x~) = s - i_j]",
        why="As printed, numerator and denominator are the same sum, so the first expression is 1 for every s, "
            "whereas pi is not (n = 1, L = 1, x_1 = 0, x_1' = 1, s = (1, 0): pi = P[R(1) = 1] / P[R(0) = 1] = "
            "p/q). The definition of pi puts x' (x_1') in the numerator and x (x_1) in the denominator, and the "
            "second expression of the same display has R(x_1') over R(x_1): one prime is missing.",
        alternatives="x_1' in the denominator and x_1 in the numerator would give 1/pi, contradicting the "
                     "definition and the second expression; reading both sums with x_1 gives 1 again. Only "
                     "the reading taken makes the display an identity (kr.ratio_conditioning_read).",
        claims=("kr.ratio_conditioning_read",))

EXP_EPS_EVENTS = sp.Symbol(r"\max_{\mathbf{x} \sim \mathbf{x}', S} \frac{\mathsf{P}[A(\mathbf{x}') \in S]}"
                           r"{\mathsf{P}[A(\mathbf{x}) \in S]}", positive=True)
MAX_PI = sp.Symbol(r"\max_{\mathbf{x} \sim \mathbf{x}', \mathbf{s} \in \mathcal{S}_n} \pi(\mathbf{s}; \mathbf{x}, "
                   r"\mathbf{x}')", positive=True)


def _neighbour_law_pairs(nn, L, qq):
    """The distinct pairs (law of A(x), law of A(x')) over ordered pairs of collections differing in one row."""
    D = _bit_vectors(L)
    laws = {x: _count_law(x, D, qq) for x in itertools.product(D, repeat=nn)}
    support = _support(nn, len(D))
    pairs = set()
    for x in laws:
        for i in range(nn):
            for d in D:
                if d != x[i]:
                    xp = x[:i] + (d,) + x[i + 1:]
                    pairs.add((tuple(laws[x][c] for c in support), tuple(laws[xp][c] for c in support)))
    return pairs


def _epsilon_points():
    """The largest ratio of (1.1) over every event S of S_n against the largest pointwise ratio pi, with the
    smallest P[A(x) = s] over the collections and s in S_n."""
    for (nn, L), qq in itertools.product(((1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (2, 2)), _Q_GRID):
        best_event = best_point = Fraction(0)
        smallest = min(min(law) for law, _ in _neighbour_law_pairs(nn, L, qq))
        for law, law_p in _neighbour_law_pairs(nn, L, qq):
            best_point = max(best_point, max(b / a for a, b in zip(law, law_p)))
            # P[A(x) in S] and P[A(x') in S] for every event S, exactly: the probabilities times their common
            # denominator are integers, and the sums over the subsets (index = the mask of S) are built by
            # doubling; the largest ratio is found by cross-multiplication
            den = lcm(*(Fraction(v).denominator for v in law + law_p))
            a_int = [(Fraction(v) * den).numerator for v in law]
            b_int = [(Fraction(v) * den).numerator for v in law_p]
            sums_a, sums_b = [0], [0]
            for av, bv in zip(a_int, b_int):
                sums_a += [s + av for s in sums_a]
                sums_b += [s + bv for s in sums_b]
            top, bottom = best_event.numerator, best_event.denominator
            for sa, sb in zip(sums_a[1:], sums_b[1:]):       # every nonempty S
                if sb * bottom > top * sa:
                    top, bottom = sb, sa
            best_event = Fraction(top, bottom)
        yield {EXP_EPS_EVENTS: _rat(best_event), MAX_PI: _rat(best_point), P_MIN: _rat(smallest)}


claim(id="kr.epsilon_pointwise",
      title="Section 3: max over x ~ x' and events S of P[A(x') in S]/P[A(x) in S] = max over x ~ x' and s in S_n of "
            "pi(s; x, x'), when every P[A(x) = s], s in S_n, is positive",
      source=S3, kind="identity", lhs=EXP_EPS_EVENTS, rhs=MAX_PI, conditions=(sp.Gt(P_MIN, 0),),
      proof=lambda c: conclude_instance(c, "largest_ratio_over_events", {LR_EVENTS: EXP_EPS_EVENTS,
                                                                        LR_POINTS: MAX_PI, LR_MIN: P_MIN}),
      enumeration=lambda c: exhaust(c, _epsilon_points(), scope=(
          "(n, L) in {(1..4, 1), (1..2, 2)}, q in {1/5, 1/3}; every ordered pair of collections differing in one "
          "row and every nonempty event S of S_n, exact rationals")),
      note="x ~ x': collections differing in one row; S: every nonempty event of S_n. By Proposition 1.1 the left "
           "side is e^eps for the smallest eps of (1.1), so that eps is the largest log pi(s; x, x'). The printed "
           "maximum runs over s in S and x, x' in D^n; pi is defined for collections differing in one row and s in "
           "S_n (outside S_n both probabilities are 0), which is how it is read here. The pairs (P[A(x) = .], "
           "P[A(x') = .]) over x ~ x' are finitely many laws on S_n, and the two maxima agree by the cited ratio-of-"
           "sums bound (Lemma 4.1, kr.lemma_4_1) with the singletons S = {s}. The condition is kr.support_positive "
           "(proved for every n, L and 0 < q < 1/2). The enumeration for L = 1, n <= 4 and L = 2, n <= 2 is an "
           "independent check.")

# ======================================================================================================
# Section 3.1: L = 1, the count A_n(m)
# ======================================================================================================
j_ = sp.Symbol("j", integer=True, nonnegative=True)
k_ = sp.Symbol("k", integer=True, nonnegative=True)
u = sp.Symbol("u", positive=True)          # p - q


def _binomial_pgf(trials, success, failure, idx, zz):
    """E zz^Bin(trials, success) = sum_j C(trials, j) success^j failure^(trials - j) zz^j, unevaluated."""
    return sp.Sum(sp.binomial(trials, idx) * success**idx * failure**(trials - idx) * zz**idx, (idx, 0, trials))


z1, z2 = sp.symbols("z_1 z_0", positive=True)
w1, w2 = sp.symbols("w_1 w_0", positive=True)

claim(id="kr.count_law",
      title="L = 1: (q + p z_1)^m (p + q z_0)^(n-m) = [sum_j C(m, j) p^j q^(m-j) z_1^j] [sum_k C(n-m, k) q^k "
            "p^(n-m-k) z_0^k], the Bin(m, p) and Bin(n - m, q) generating functions",
      source=S31, kind="identity",
      lhs=(q + p * z1)**m * (p + q * z2)**(n - m),
      rhs=_binomial_pgf(m, p, q, j_, z1) * _binomial_pgf(n - m, q, p, k_, z2),
      conditions=(sp.Le(m, n), sp.Lt(z1, q / p), sp.Lt(z2, p / q)),
      proof=lambda c: all_of(
          cite("pgf_of_independent_sum", "the records are randomized independently; a record equal to 1 contributes "
                                         "the factor E z_1^I(R(1) = 1) = q + p z_1, one equal to 0 the factor "
                                         "E z_0^I(R(0) = 1) = p + q z_0"),
          _coefficients("both sides are polynomials in (z_1, z_0) that agree on 0 < z_1 < q/p, 0 < z_0 < p/q, so "
                        "the joint law of (B_1, B_0) is the product of the two binomial laws"),
          conclude(c, Parametrization({z1: q / (p * (1 + w1)), z2: p / (q * (1 + w2))},
                                      {w1: q / (p * z1) - 1, w2: p / (q * z2) - 1}))),
      note="By the cited product rule (pgf_of_independent_sum), the left side is E z_1^B_1 z_0^B_0 for the numbers "
           "B_1, B_0 of reported 1s among the m records of x in D^n_m equal to 1 and the n - m equal to 0; by the "
           "cited uniqueness of power series the identity makes B_1 ~ Bin(m, p) and B_0 ~ Bin(n - m, q) independent, "
           "so A_n(m) = B_1 + B_0 ~ Bin(m, p) + Bin(n - m, q), with generating function G_{n,m}(z) (z_1 = z_0 = z). "
           "The binomial sums are evaluated in closed form on the stated box (where SymPy's summation applies); the "
           "identity of polynomials extends to every (z_1, z_0). The law of A(x) = (A_n(m), n - A_n(m)) depends on x "
           "only through m = |x|; G_{n,m}(z) = (q + p z)^m (p + q z)^(n-m) is the generating function used below.")

P_COUNT = sp.Symbol(r"\mathsf{P}[A(\mathbf{x}) = (s, n - s)]", nonnegative=True)


def _convolution_pmf(nn, mm, ss):
    """P[Bin(m, p) + Bin(n - m, q) = s] = sum_j C(m, j) p^j q^(m-j) C(n-m, s-j) q^(s-j) p^(n-m-s+j), unevaluated."""
    return sp.Sum(sp.binomial(mm, j_) * p**j_ * q**(mm - j_) * sp.binomial(nn - mm, ss - j_) * q**(ss - j_)
                  * p**(nn - mm - ss + j_), (j_, 0, ss))


def _count_law_points():
    """Every x in {0,1}^n, n <= 5, every s: P[A(x) = (s, n-s)] from every synthetic collection y in {0,1}^n."""
    D = _bit_vectors(1)
    for nn in range(1, 6):
        for qq in _Q_GRID:
            for x in itertools.product(D, repeat=nn):
                law = _count_law(x, D, qq)
                mm = sum(b for (b,) in x)
                for ss in range(nn + 1):
                    yield {n: nn, m: mm, s: ss, q: _rat(qq), p: _rat(1 - qq),
                           P_COUNT: _rat(law.get((ss, nn - ss), Fraction(0)))}


claim(id="kr.count_law_enumerated",
      title="L = 1: P[A(x) = (s, n - s)] = sum_j C(m, j) p^j q^(m-j) C(n-m, s-j) q^(s-j) p^(n-m-s+j) for x in D^n_m, "
            "p + q = 1, every n, m <= n and s <= n",
      source=S31, kind="identity", lhs=P_COUNT, rhs=_convolution_pmf(n, m, s),
      conditions=(sp.Le(m, n), sp.Le(s, n), sp.Eq(p + q, 1)),
      proof=lambda c: conclude_instance(c, "binomial_sum_all_terms", {
          BC_P: P_COUNT, BC_M: m, BC_K: n - m, BC_S: s, BC_A: p, BC_A1: q, BC_B: q, BC_B1: p}),
      enumeration=lambda c: exhaust(c, _count_law_points(), scope=(
          "n <= 5, q in {1/5, 1/3}, every x in {0,1}^n and every s = 0..n; the left side from every synthetic "
          "collection y in {0,1}^n, exact rationals")),
      note="A_n(m), the first count of A(x), is the number B_1 of reported 1s among the m records equal to 1, each "
           "reported 1 with probability p, plus the number B_0 among the n - m equal to 0, each reported 1 with "
           "probability q, all randomized independently (Section 2.2 (a)): B_1 ~ Bin(m, p) and B_0 ~ Bin(n - m, q) "
           "are independent, and the law of their sum is the cited convolution (binomial_convolution). The "
           "enumeration of every synthetic collection (n <= 5) is an independent check; kr.count_law is the same law "
           "as generating functions.")

x1, x1p = sp.symbols("x_1 x_1'", integer=True, nonnegative=True)
_x = sp.IndexedBase("x", integer=True, nonnegative=True)
i_ = sp.Symbol("i", integer=True, positive=True)
_REST_ONES = sp.Sum(_x[i_], (i_, 2, n))

claim(id="kr.neighbour_counts",
      title="L = 1: (x_1' - x_1)^2 = 1 for bits x_1 != x_1', which is (|x'| - |x|)^2 = 1 when x, x' share x_2, ..., "
            "x_n",
      source=S31, kind="identity",
      lhs=((x1p + _REST_ONES) - (x1 + _REST_ONES))**2, rhs=1,
      conditions=(sp.Le(x1, 1), sp.Le(x1p, 1), sp.Ne(x1, x1p)),
      finite=True,
      enumeration=lambda c: exhaust(c, ({x1: a, x1p: 1 - a} for a in (0, 1))),
      note="The lhs is built as ((x_1' + sum_{i>=2} x_i) - (x_1 + sum_{i>=2} x_i))^2 and SymPy cancels the shared "
           "sum when the claim is built, so that step is by construction; the check is the exhaustive evaluation "
           "over the two pairs (x_1, x_1') = (0, 1), (1, 0). Hence |x'| = |x| -+ 1: x in D^n_m puts x' in D^n_{m-1} "
           "u D^n_{m+1}.")

# pi((s, n-s); x, x') with x in D_m: the law of A(x') is that of A_n(m + x_1' - x_1) (kr.count_law)
_P_SHIFT = sp.Function(r"\mathsf{P}[A_n(m + \cdot) = s]")   # k -> P[A_n(m + k) = s], any n, m, s


def _pi_shift(k):
    """pi(s; m + k) = P[A_n(m + k) = s] / P[A_n(m + k + 1) = s]."""
    return _P_SHIFT(k) / _P_SHIFT(k + 1)


claim(id="kr.ratio_reduction",
      title="L = 1, x_1' = 1 - x_1: P[A_n(m + x_1' - x_1) = s] / P[A_n(m) = s] is pi(s; m-1) if x_1 = 1 and pi(s; "
            "m)^(-1) if x_1 = 0, for every n, m, s",
      source=S31, kind="identity",
      lhs=_P_SHIFT((1 - x1) - x1) / _P_SHIFT(0),
      rhs=sp.Piecewise((_pi_shift(-1), sp.Eq(x1, 1)), (sp.Pow(_pi_shift(0), -1, evaluate=False), True)),
      conditions=(sp.Le(x1, 1),),
      finite=True,
      enumeration=lambda c: exhaust(c, ({x1: a} for a in (0, 1))),
      note="The function k -> P[A_n(m + k) = s] stands for the pmf at any n, m, s; the statement ranges over x_1 in "
           "{0, 1}. That the left side is pi((s, n - s); x, x') for x in D^n_m (the law of A(x') depends on x' only "
           "through |x'| = m + x_1' - x_1: kr.count_law, kr.neighbour_counts) is not checked here.")

# -- 3.1.1: recursions (3.2), (3.3) --------------------------------------------------------------------------


def _boundary_one() -> Proof:
    """(3.2)'s conventions: the first term has no z^0 coefficient (s = 0), and G_{n-1,m-1} has degree n - 1, so its
    coefficient of z^n is 0 (s = n)."""
    low = (p * z * count_pgf(n - 1, m - 1)).subs(z, 0)
    degree = (m - 1) + ((n - 1) - (m - 1))
    return all_of(mechanical(low == 0, f"s = 0: p z G_(n-1,m-1)(z) at z = 0 is {low}, so the first term is 0"),
                  zero(degree - (n - 1), "s = n: G_(n-1,m-1) is a polynomial of degree (m-1) + (n-m) = n - 1, "
                                         "so P[A_(n-1)(m-1) = n] = 0"))


def _boundary_zero() -> Proof:
    low = (q * z * count_pgf(n - 1, m)).subs(z, 0)
    degree = m + ((n - 1) - m)
    return all_of(mechanical(low == 0, f"s = 0: q z G_(n-1,m)(z) at z = 0 is {low}, so the first term is 0"),
                  zero(degree - (n - 1), "s = n: G_(n-1,m) has degree m + (n-1-m) = n - 1, so P[A_(n-1)(m) = n] = 0"))


claim(id="kr.recursion_one",
      title="(3.2) as generating functions: G_{n,m}(z) = p z G_{n-1,m-1}(z) + q G_{n-1,m-1}(z) for 1 <= m <= n",
      source=S311, kind="identity",
      lhs=count_pgf(n, m), rhs=p * z * count_pgf(n - 1, m - 1) + q * count_pgf(n - 1, m - 1),
      conditions=(sp.Ge(m, 1), sp.Le(m, n)),
      proof=lambda c: all_of(
          _coefficients("the coefficient of z^s on the left is P[A_n(m) = s], on the right "
                        "p P[A_(n-1)(m-1) = s-1] + q P[A_(n-1)(m-1) = s]"),
          _boundary_one(), conclude(c)),
      note="Its coefficient of z^s (cited: equal power series have equal coefficients) is (3.2): P[A_n(m) = s] = p "
           "P[A_{n-1}(m-1) = s-1] + q P[A_{n-1}(m-1) = s] for s = 0..n, the first term 0 at s = 0 and the last at s "
           "= n. A_n(m) ~ Ber(p) + A_{n-1}(m-1) (one original 1 conditioned on): its generating function is (q + p "
           "z) G_{n-1,m-1}(z) (pgf_of_independent_sum, kr.count_law).")

claim(id="kr.recursion_zero",
      title="(3.3) as generating functions: G_{n,m}(z) = q z G_{n-1,m}(z) + p G_{n-1,m}(z) for 0 <= m <= n - 1",
      source=S311, kind="identity",
      lhs=count_pgf(n, m), rhs=q * z * count_pgf(n - 1, m) + p * count_pgf(n - 1, m),
      conditions=(sp.Le(m, n - 1),),
      proof=lambda c: all_of(
          _coefficients("the coefficient of z^s on the left is P[A_n(m) = s], on the right "
                        "q P[A_(n-1)(m) = s-1] + p P[A_(n-1)(m) = s]"),
          _boundary_zero(), conclude(c)),
      note="Its coefficient of z^s (cited) is (3.3): P[A_n(m) = s] = q P[A_{n-1}(m) = s-1] + p P[A_{n-1}(m) = s] for "
           "s = 0..n, the first term 0 at s = 0 and the last at s = n. A_n(m) ~ Ber(q) + A_{n-1}(m) (one original 0 "
           "conditioned on).")

# -- the bullets after (3.3) ------------------------------------------------------------------------------------
v = sp.Symbol("v", positive=True)          # 1/p - 1 > 0

claim(id="kr.pmf_zero_decreases",
      title="Bullet after (3.3), at s = 0: G_{n,m}(0) = q^m p^(n-m) <= q^m p^(n-1-m) = G_{n-1,m}(0) for m <= n - 1 "
            "and p < 1",
      source=S311, kind="inequality", relation="<=",
      lhs=count_pgf(n, m, 0), rhs=count_pgf(n - 1, m, 0),
      conditions=(sp.Le(m, n - 1), sp.Lt(p, 1)),
      proof=lambda c: all_of(
          _coefficients("P[A_n(m) = 0] = G_(n,m)(0)"),
          zero(count_pgf(n, m, 0) - p * count_pgf(n - 1, m, 0), "(3.3) at s = 0: P[A_n(m) = 0] = p P[A_(n-1)(m) = 0]"),
          conclude(c, Parametrization({p: 1 / (1 + v)}, {v: 1 / p - 1}),
                   certificate=-(1 - p) * q**m * p**(n - 1 - m))),
      note="G(0) = P[A = 0] (cited), so this is P[A_n(m) = 0] <= P[A_{n-1}(m) = 0]. lhs - rhs = -(1 - p) q^m "
           "p^(n-1-m) = -q^(m+1) p^(n-1-m) with p = 1 - q.")

a_ = sp.Symbol("a", nonnegative=True)      # P[A_{n-1}(m) = s - 1]
b_ = sp.Symbol("b", nonnegative=True)      # P[A_{n-1}(m) = s]
t_ = sp.Symbol("t", positive=True)         # 1/q - 2 > 0
_Q_HALF = Parametrization({q: 1 / (2 + t_)}, {t_: 1 / q - 2})


def _between(x_value):
    """(X - a)(X - b): nonpositive exactly when X lies between a and b."""
    return (x_value - a_) * (x_value - b_)


def _pmf_recursions() -> Proof:
    return all_of(zero(count_pgf(n, m) - (q * z + p) * count_pgf(n - 1, m),
                       "(3.3): P[A_n(m) = s] = q a + p b with a = P[A_(n-1)(m) = s-1], b = P[A_(n-1)(m) = s]"),
                  zero(count_pgf(n, m + 1) - (p * z + q) * count_pgf(n - 1, m),
                       "(3.2) at m + 1: P[A_n(m+1) = s] = p a + q b"),
                  _coefficients("coefficients of z^s of the two generating-function identities"))


claim(id="kr.pmf_between_shift",
      title="Bullet after (3.3): q a + p b lies between a and b, (q a + p b - a)(q a + p b - b) <= 0, for a, b >= 0, "
            "p = 1 - q, 0 < q < 1/2",
      source=S311, kind="inequality", relation="<=",
      lhs=_between(q * a_ + (1 - q) * b_), rhs=0,
      conditions=(sp.Lt(q, sp.Rational(1, 2)),),
      proof=lambda c: all_of(_pmf_recursions(),
                             conclude(c, _Q_HALF, certificate=-q * (1 - q) * (a_ - b_)**2)),
      note="a = P[A_{n-1}(m) = s-1], b = P[A_{n-1}(m) = s]; by (3.3) (the proof's generating-function steps) q a + p "
           "b = P[A_n(m) = s], which therefore lies between them. lhs = -q p (a - b)^2: a convex combination of a "
           "and b. For s >= 1 and m <= n - 1 (at s = 0, a = 0 and P[A_n(m) = 0] = p b). Also the first half of the "
           "third bullet.")

claim(id="kr.pmf_between_neighbour",
      title="Bullet after (3.3): p a + q b lies between a and b, (p a + q b - a)(p a + q b - b) <= 0, for a, b >= 0, "
            "p = 1 - q, 0 < q < 1/2",
      source=S311, kind="inequality", relation="<=",
      lhs=_between((1 - q) * a_ + q * b_), rhs=0,
      conditions=(sp.Lt(q, sp.Rational(1, 2)),),
      proof=lambda c: all_of(_pmf_recursions(),
                             conclude(c, _Q_HALF, certificate=-q * (1 - q) * (a_ - b_)**2)),
      note="a = P[A_{n-1}(m) = s-1], b = P[A_{n-1}(m) = s]; by (3.2) at m + 1 (the proof's generating-function "
           "steps) p a + q b = P[A_n(m+1) = s]. With kr.pmf_between_shift: P[A_n(m) = s] and P[A_n(m+1) = s] both "
           "lie between the consecutive pmf values P[A_{n-1}(m) = s-1] and P[A_{n-1}(m) = s] (0 <= m <= n - 1), so "
           "pi(s; m) = (q a + p b)/(p a + q b).")

# -- the cdf recursions ----------------------------------------------------------------------------------------
claim(id="kr.cdf_recursion_one",
      title="Cdf form of (3.2) as generating functions: G_{n,m}(z)/(1 - z) = (p z + q) G_{n-1,m-1}(z)/(1 - z) for 1 "
            "<= m <= n and z != 1",
      source=S311, kind="identity",
      lhs=cdf_gf(n, m), rhs=p * z * cdf_gf(n - 1, m - 1) + q * cdf_gf(n - 1, m - 1),
      conditions=(sp.Ge(m, 1), sp.Le(m, n), sp.Ne(z, 1)),
      proof=lambda c: all_of(
          cite("cdf_generating_function", "sum_k F_(n,m)(k) z^k = G_(n,m)(z)/(1 - z); z times it is the series of "
                                          "F(k - 1) (F = 0 below 0)"),
          _coefficients("coefficients of z^k, k = floor(x)"), _floor_shift(), conclude(c)),
      note="z != 1 is stated: at z = 1 the sides hold 1/(1 - z) (G(1) = 1), and the "
           "difference of two cdf series is 0/0 there. sum_k F_{n,m}(k) z^k = G_{n,m}(z)/(1 - z) (cited); its coefficients and floor(x - 1) = floor(x) - 1 give "
           "F_{n,m}(x) = p F_{n-1,m-1}(x-1) + q F_{n-1,m-1}(x) for every real x. Summing (3.2) over s <= x, as the "
           "paper says.")

claim(id="kr.cdf_recursion_zero",
      title="Cdf form of (3.3) as generating functions: G_{n,m}(z)/(1 - z) = (q z + p) G_{n-1,m}(z)/(1 - z) for 0 <= "
            "m <= n - 1 and z != 1",
      source=S311, kind="identity",
      lhs=cdf_gf(n, m), rhs=q * z * cdf_gf(n - 1, m) + p * cdf_gf(n - 1, m),
      conditions=(sp.Le(m, n - 1), sp.Ne(z, 1)),
      proof=lambda c: all_of(
          cite("cdf_generating_function", "sum_k F_(n,m)(k) z^k = G_(n,m)(z)/(1 - z)"),
          _coefficients("coefficients of z^k, k = floor(x)"), _floor_shift(), conclude(c)),
      note="z != 1 is stated: at z = 1 the sides hold 1/(1 - z) (G(1) = 1), and the "
           "difference of two cdf series is 0/0 there. sum_k F_{n,m}(k) z^k = G_{n,m}(z)/(1 - z) (cited); its coefficients and floor(x - 1) = floor(x) - 1 give "
           "F_{n,m}(x) = q F_{n-1,m}(x-1) + p F_{n-1,m}(x) for every real x.")

# -- 3.1.2: mean and variance (p = 1 - q) -----------------------------------------------------------------------
_G1 = count_pgf(n, m).subs(p, 1 - q)            # the generating function with p = 1 - q
_D1 = sp.diff(_G1, z).subs(z, 1)                 # G'(1)
_D2 = sp.diff(_G1, z, 2).subs(z, 1)              # G''(1)

claim(id="kr.mean",
      title="3.1.2, mean: G'_{n,m}(1) = m p + (n - m) q = n q + m (p - q), p = 1 - q",
      source=S312, kind="identity", lhs=_D1, rhs=n * q + m * ((1 - q) - q),
      conditions=(sp.Le(m, n),),
      proof=lambda c: all_of(cite("pgf_moments", "E A_n(m) = G'_(n,m)(1), with G_(n,m) of kr.count_law"),
                             zero(_D1 - (m * (1 - q) + (n - m) * q), "the middle expression m p + (n - m) q"),
                             conclude(c)),
      note="E A_n(m) = G'_{n,m}(1) (cited, pgf_moments). Written with p = 1 - q (the generating function is 1 at z = "
           "1 only then).")

claim(id="kr.variance",
      title="3.1.2, variance: G''(1) + G'(1) - G'(1)^2 = m p q + (n - m) q p = n p q for G = G_{n,m}, p = 1 - q",
      source=S312, kind="identity", lhs=_D2 + _D1 - _D1**2, rhs=n * q * (1 - q),
      conditions=(sp.Le(m, n),),
      proof=lambda c: all_of(cite("pgf_moments", "Var A_n(m) = G''(1) + G'(1) - G'(1)^2"),
                             zero(_D2 + _D1 - _D1**2 - (m * (1 - q) * q + (n - m) * q * (1 - q)),
                                  "the middle expression m p q + (n - m) q p"),
                             conclude(c)),
      note="Var A_n(m) = G''(1) + G'(1) - G'(1)^2 (cited, pgf_moments), so Var A_n(m) = n p q.")

# -- 3.1.2: the two cdf differences ---------------------------------------------------------------------------
_C = cdf_gf(n - 1, m - 1)                # F' = F_{n-1,m-1}
_G = count_pgf(n - 1, m - 1)             # its pmf's generating function


def _printed_lines_one() -> Proof:
    """The display's lines, as series over k = floor(x): F'(x - 1) <-> z C, F'(x) <-> C."""
    line2 = p * z * _C + q * _C - q * z * _C - p * _C
    line3 = (p - q) * (z * _C - _C)
    return all_of(zero(cdf_gf(n, m) - cdf_gf(n, m - 1) - line2, "line 2: the cdf recursions (3.2) at m and (3.3) at m - 1"),
                  zero(line2 - line3, "line 3: (p - q)[F_(n-1,m-1)(x-1) - F_(n-1,m-1)(x)]"))


claim(id="kr.cdf_difference",
      title="3.1.2, first cdf difference as generating functions: [G_{n,m}(z) - G_{n,m-1}(z)]/(1 - z) = -(p - q) "
            "G_{n-1,m-1}(z) for 1 <= m <= n and z != 1",
      source=S312, kind="identity",
      lhs=cdf_gf(n, m) - cdf_gf(n, m - 1), rhs=-(p - q) * _G,
      conditions=(sp.Ge(m, 1), sp.Le(m, n), sp.Ne(z, 1)),
      proof=lambda c: all_of(
          cite("cdf_generating_function", "F(x) = F(floor(x)) and sum_k F(k) z^k = G(z)/(1 - z)"),
          _printed_lines_one(), _floor_shift(),
          _coefficients("coefficient of z^k, k = floor(x); for x < 0 both sides are 0"),
          conclude(c)),
      note="z != 1 is stated: at z = 1 the sides hold 1/(1 - z) (G(1) = 1), and the "
           "difference of two cdf series is 0/0 there. Coefficients (cited) give F_{n,m}(x) - F_{n,m-1}(x) = -(p - q) P[A_{n-1}(m-1) = floor(x)] for m = 1..n "
           "and every real x (printed '|x|', read as floor: kr.reading.floor). Holds for every real x, not only "
           "integers: F'(x-1) - F'(x) = -P[x - 1 < A_{n-1}(m-1) <= x] and the only integer in (x-1, x] is floor(x).")


def _printed_lines_two() -> Proof:
    """Over k = floor(x) in the integers (k >= -1 matters): F(k + 1) <-> C/z, F'(k - 1) <-> z C."""
    line2 = p * _C + q * _C / z - q * z * _C - p * _C
    line3 = q * (_C / z - z * _C)
    return all_of(zero(cdf_gf(n, m) / z - cdf_gf(n, m - 1) - line2,
                       "line 2: F_(n,m)(x+1) = p F'(x) + q F'(x+1) and F_(n,m-1)(x) = q F'(x-1) + p F'(x)"),
                  zero(line2 - line3, "line 3: q[F_(n-1,m-1)(x+1) - F_(n-1,m-1)(x-1)]"))


claim(id="kr.cdf_difference_shift",
      title="3.1.2, second cdf difference as generating functions: G_{n,m}(z)/(z (1 - z)) - G_{n,m-1}(z)/(1 - z) = q "
            "(G_{n-1,m-1}(z) + G_{n-1,m-1}(z)/z) for 1 <= m <= n and z != 1",
      source=S312, kind="identity",
      lhs=cdf_gf(n, m) / z - cdf_gf(n, m - 1), rhs=q * (_G + _G / z),
      conditions=(sp.Ge(m, 1), sp.Le(m, n), sp.Ne(z, 1)),
      proof=lambda c: all_of(
          cite("cdf_generating_function", "F(x) = F(floor(x)) and sum_k F(k) z^k = G(z)/(1 - z); the series of "
                                          "F(k + 1) over every integer k is C(z)/z"),
          _printed_lines_two(), _floor_shift(),
          _coefficients("coefficient of z^k, k = floor(x) >= -1; for x < -1 both sides are 0"),
          conclude(c)),
      note="z != 1 is stated: at z = 1 the sides hold 1/(1 - z) (G(1) = 1), and the "
           "difference of two cdf series is 0/0 there. Coefficients (cited), k over the integers, give F_{n,m}(x+1) - F_{n,m-1}(x) = q {P[A_{n-1}(m-1) = "
           "floor(x)] + P[A_{n-1}(m-1) = floor(x+1)]} for every real x. Holds for every real x: the integers in "
           "(x-1, x+1] are floor(x) and floor(x) + 1 = floor(x + 1).")

reading("kr.reading.floor", S312,
        printed="= -(p - q) P[A_{n-1}(m-1) = |x|]",
        reading="-(p - q) P[A_{n-1}(m-1) = floor(x)]",
        why="The line before is (p - q)[F_{n-1,m-1}(x-1) - F_{n-1,m-1}(x)] = -(p - q) P[x - 1 < A <= x], and the "
            "only integer in (x-1, x] is floor(x); the second identity of the same display prints floor(x) and "
            "floor(x + 1) with the floor brackets, of which the extraction kept only the vertical strokes here.",
        alternatives="|x| as the absolute value agrees with floor(x) only at integers x >= 0: at x = 1/2 it "
                     "gives P[A = 1/2] = 0 while F_{n,m}(1/2) - F_{n,m-1}(1/2) = -(p - q) q^(m-1) p^(n-m) != 0; "
                     "at x = -1 it gives -(p - q) P[A = 1] != 0 while both cdfs are 0.",
        claims=("kr.cdf_difference",))

# -- the sandwich inequalities ------------------------------------------------------------------------------------
f_m2, f_m1, f_0, f_p1 = sp.symbols("F'_{k-2} F'_{k-1} F'_k F'_{k+1}", nonnegative=True)   # F_{n-1,m-1}(k + i)
d1, d2 = sp.symbols("d_1 d_2", nonnegative=True)


def _sandwich_steps() -> Proof:
    return all_of(zero(cdf_gf(n, m) - (p * z + q) * _C, "cdf recursion (3.2): F_(n,m)(x) = p F'(x-1) + q F'(x)"),
                  zero(cdf_gf(n, m - 1) - (q * z + p) * _C,
                       "cdf recursion (3.3) at m - 1: F_(n,m-1)(x) = q F'(x-1) + p F'(x)"),
                  _coefficients("coefficients of z^k, k = floor(x)"), _floor_shift())


claim(id="kr.cdf_sandwich_lower",
      title="3.1.2, the step of F_{n,m}(x) <= F_{n,m-1}(x): p F'(k-1) + q F'(k) <= q F'(k-1) + p F'(k) if F'(k-1) <= "
            "F'(k) and q < p",
      source=S312, kind="inequality", relation="<=",
      lhs=p * f_m1 + q * f_0, rhs=q * f_m1 + p * f_0,
      conditions=(sp.Lt(q, p), sp.Le(f_m1, f_0)),
      proof=lambda c: all_of(_sandwich_steps(),
                             conclude(c, Parametrization({p: q + u, f_0: f_m1 + d1}, {u: p - q, d1: f_0 - f_m1}))),
      note="F' = F_{n-1,m-1}, k = floor(x); by the cdf recursions (the proof's steps) the two sides are F_{n,m}(x) "
           "and F_{n,m-1}(x), so F_{n,m}(x) <= F_{n,m-1}(x) for m = 1..n and every real x. lhs - rhs = -(p - "
           "q)[F'(k) - F'(k-1)] = -(p - q) P[A_{n-1}(m-1) = k] (kr.cdf_difference). The left inequality of the first "
           "chain and the right one of the second.")

claim(id="kr.cdf_sandwich_upper",
      title="3.1.2, the step of F_{n,m-1}(x) <= F_{n,m}(x+1): q F'(k-1) + p F'(k) <= p F'(k) + q F'(k+1) if F'(k-1) "
            "<= F'(k) <= F'(k+1)",
      source=S312, kind="inequality", relation="<=",
      lhs=q * f_m1 + p * f_0, rhs=p * f_0 + q * f_p1,
      conditions=(sp.Le(f_m1, f_0), sp.Le(f_0, f_p1)),
      proof=lambda c: all_of(
          _sandwich_steps(),
          conclude(c, Parametrization({f_0: f_m1 + d1, f_p1: f_m1 + d1 + d2}, {d1: f_0 - f_m1, d2: f_p1 - f_0}))),
      note="F' = F_{n-1,m-1}, k = floor(x); by the cdf recursions the two sides are F_{n,m-1}(x) and F_{n,m}(x+1). "
           "rhs - lhs = q[F'(k+1) - F'(k-1)] (kr.cdf_difference_shift). The right inequality of the first chain.")

claim(id="kr.cdf_sandwich_left",
      title="3.1.2, the step of F_{n,m-1}(x-1) <= F_{n,m}(x): q F'(k-2) + p F'(k-1) <= p F'(k-1) + q F'(k) if "
            "F'(k-2) <= F'(k-1) <= F'(k)",
      source=S312, kind="inequality", relation="<=",
      lhs=q * f_m2 + p * f_m1, rhs=p * f_m1 + q * f_0,
      conditions=(sp.Le(f_m2, f_m1), sp.Le(f_m1, f_0)),
      proof=lambda c: all_of(
          _sandwich_steps(),
          conclude(c, Parametrization({f_m1: f_m2 + d1, f_0: f_m2 + d1 + d2}, {d1: f_m1 - f_m2, d2: f_0 - f_m1}))),
      note="F' = F_{n-1,m-1}, k = floor(x); by the cdf recursions the two sides are F_{n,m-1}(x-1) and F_{n,m}(x). "
           "kr.cdf_sandwich_upper at x - 1. The left inequality of the second chain; its right inequality is "
           "kr.cdf_sandwich_lower.")

# -- 3.1.3: quantiles ------------------------------------------------------------------------------------------
ALPHA = sp.Symbol("alpha", positive=True)                  # the level of the quantile, 0 < alpha <= 1
TAU_M = sp.Symbol(r"\tau_n(m)", integer=True)          # the alpha-quantile of F_{n,m}
TAU_M1 = sp.Symbol(r"\tau_n(m-1)", integer=True)       # the alpha-quantile of F_{n,m-1}
SUP_LOWER = sp.Symbol(r"\sup_x [F_{n,m}(x) - F_{n,m-1}(x)]", real=True)
SUP_UPPER = sp.Symbol(r"\sup_x [F_{n,m-1}(x) - F_{n,m}(x+1)]", real=True)
_D_TAU = sp.Symbol("D", integer=True)


def _quantile_fact(tau_f, tau_g, shift, gap):
    """tau_F(alpha) >= tau_G(alpha) - c from F(y) <= G(y + c) for every y (cited)."""
    return Law(tau_f, "quantile_order", {QO_TF: tau_f, QO_TG: tau_g, QO_C: shift, QO_GAP: gap, QO_ALPHA: ALPHA},
               as_condition=True)


claim(id="kr.quantile_step",
      title="3.1.3, 0 < alpha <= 1: tau_n(m) - tau_n(m-1) in {0, 1}, i.e. (tau_n(m) - tau_n(m-1))(tau_n(m) - tau_n(m-1) "
            "- 1) = 0, where F_{n,m}(x) <= F_{n,m-1}(x) <= F_{n,m}(x+1) for every x (kr.cdf_sandwich_lower, "
            "kr.cdf_sandwich_upper)",
      source=S313, kind="identity", lhs=(TAU_M - TAU_M1) * (TAU_M - TAU_M1 - 1), rhs=0,
      conditions=(sp.Le(ALPHA, 1), sp.Lt(q, sp.Rational(1, 2)), sp.Le(SUP_LOWER, 0), sp.Le(SUP_UPPER, 0)),
      proof=lambda c: conclude_laws(c, [_quantile_fact(TAU_M, TAU_M1, 0, SUP_LOWER),
                                        _quantile_fact(TAU_M1, TAU_M, 1, SUP_UPPER)],
                                    Parametrization({TAU_M: TAU_M1 + _D_TAU}, {_D_TAU: TAU_M - TAU_M1})),
      note="tau_n(m) = inf{y : F_{n,m}(y) >= alpha}. The printed proof, as cited facts on quantiles (quantile_order): "
           "F_{n,m} <= F_{n,m-1} gives tau_n(m) >= tau_n(m-1), and F_{n,m-1}(x) <= F_{n,m}(x + 1) gives tau_n(m-1) "
           ">= tau_n(m) - 1, so the step is an integer in [0, 1]. The last two conditions hold for every n and m = "
           "1..n when 0 < q < 1/2: they are kr.cdf_sandwich_lower and kr.cdf_sandwich_upper (with the cdf "
           "recursions, proved for every n), so they exclude nothing. alpha in (0, 1] is a condition the text leaves "
           "to 'the alpha-th quantile': for alpha <= 0 every y has F_{n,m}(y) >= alpha and tau_n(m) = -oo, for alpha "
           "> 1 none has and tau_n(m) = +oo, so tau_n(m) is not the integer the text says it is. 0 < q < 1/2 is the "
           "paper's own (Section 2.1, 'lie probability 0 < q < 1/2'), which the sandwiches need (p >= q): at q = "
           "3/4, n = 3, alpha = 1/2 the quantiles tau_3(0..3) are 2, 2, 1, 1, a step of -1. Checked exactly in the "
           "tests for n <= 9 and every alpha at a cdf value.")

reading("kr.reading.epsilon_neighbours", S3,
        printed="epsilon = max over s in S and x, x' in D^n of log pi(s; x, x')",
        reading="the maximum over collections x, x' differing in one row and s in S_n",
        why="pi(s; x, x') is defined just above for two collections differing in one row and s in S_n, and the "
            "sentence derives epsilon from Proposition 1.1, whose pairs differ in one row. Over every pair of "
            "collections the maximum is (p/q)^(nL) (exactly, for L = 1, n <= 4 and L = 2, n <= 3), a true but loose "
            "epsilon that is not the one the section studies.",
        alternatives="Literal: every pair in D^n and every s in S (off S_n both probabilities are 0): true, loose.",
        claims=("kr.epsilon_pointwise",))

reading("kr.reading.bullet_s_minus_1", S311,
        printed="P[A_n(m) = s] falling between P[A_{n-1}(m) = s 1] and P[A_{n-1}(m) = s]",
        reading="between P[A_{n-1}(m) = s - 1] and P[A_{n-1}(m) = s]",
        why="The minus sign is lost in extraction; (3.3), just above, writes P[A_n(m) = s] as q P[A_{n-1}(m) = s-1] + "
            "p P[A_{n-1}(m) = s], a convex combination of exactly these two values.",
        alternatives="None that parses.",
        claims=("kr.pmf_between_shift",))
