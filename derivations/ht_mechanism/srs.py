"""Simple random sampling on binary data: Results 8 and 9 of the HT-mechanism paper (b = 0).

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``), Section 2.3 ("Cas particulier: données binaires et sondage
aléatoire simple"), Results 8 and 9 and the proof of Result 8.

Setting.  SRS of n among N, x in {0,1}^N with total t(x) in [m_t, M_t]; the HT estimate is
(N/n) y with y the number of ones in the sample, so for b = 0 (no Laplace noise)

    f_t(y) = C(t, y) C(N - t, n - y) / C(N, n),   y in [max(0, n + t - N), min(n, t)],

a hypergeometric law that depends on x only through t.  Result 8: delta_{Z_0}(eps) is the
maximum over neighbouring totals (|t - t'| = 1, both in [m_t, M_t]) of sum_y (f_t - e^eps f_t')_+.
Result 9: eps_{Z_0}(0) = +oo iff min(m_t, N - M_t) < n, else
ln max{(N - M_t + 1)/(N - M_t + 1 - n), (m_t + 1)/(m_t + 1 - n)}.

Result 8 is titled for the mechanism Z_b but states only b = 0 (a finding); every claim here is
about b = 0.  What is proved for all N: the pmf ratio f_t/f_{t+1} on the common support, its
monotonicity in y, the support condition (printed with max where min is needed: an erratum), the
two kernel bounds of Result 9, Result 8 and both cases of Result 9.  delta_{Z_0,X}(eps) and
eps_{Z_0,X}(0) are suprema over the neighbouring pairs of X (Section 1.4); the density depends on x
only through t(x) (the hypergeometric law, cited), so a pair is written by t = t(x) and the change at
its unit, and the suprema are decided over those integer ranges by the conclusions of
:mod:`derivations.engine.suprema`.  The density and Results 8 and 9 are also checked exactly
against every sample and every neighbouring pair of binary vectors (or of totals) for small N.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import sympy as sp

from ..engine.core import (Claim, Enumeration, Proof, Source, all_of, cite, erratum, finding, mechanical,
                           reading, register, zero)
from ..engine.formulas import formula
from ..engine.suprema import Family, Supremum, conclude_supremum
from ..engine.notation import defined
from ..engine.proofs import Parametrization, cited_form, conclude, conclude_instance, conclude_split

DOC = "000_3f4b38deb4c4e7bd.txt"
R8 = Source(DOC, "Section 2.3, Result 8 and its proof")
R9 = Source(DOC, "Section 2.3, Result 9")

N, n, t, y = sp.symbols("N n t y", integer=True, nonnegative=True)
m_t, M_t = sp.symbols("m_t M_t", integer=True, nonnegative=True)

SMALL = [(NN, nn) for NN in range(2, 8) for nn in range(1, NN)]


def hyper(NN: int, nn: int, tt: int, yy: int) -> Fraction:
    """f_t(y), exact (math.comb is 0 outside the support)."""
    if yy < 0 or yy > nn or tt < 0:
        return Fraction(0)
    return Fraction(comb(tt, yy) * comb(NN - tt, nn - yy), comb(NN, nn))


def brute_law(NN: int, nn: int, x) -> dict[int, Fraction]:
    """Law of the number of ones in the sample, every sample enumerated (each of probability 1/C(N, n): the
    samples with k ones are counted, then divided by their number)."""
    samples = list(itertools.combinations(range(NN), nn))
    counts: dict[int, int] = {}
    for s in samples:
        k = sum(x[j] for j in s)
        counts[k] = counts.get(k, 0) + 1
    return {k: Fraction(m, len(samples)) for k, m in counts.items()}


def _binary_pairs(NN: int, lo: int, hi: int):
    """Every ordered neighbouring pair of binary vectors with totals in [lo, hi]."""
    for x in itertools.product((0, 1), repeat=NN):
        if lo <= sum(x) <= hi:
            for i in range(NN):
                xp = x[:i] + (1 - x[i],) + x[i + 1:]
                if lo <= sum(xp) <= hi:
                    yield x, xp


def _fail(count, why, scope, **where) -> Enumeration:
    return Enumeration(False, count, why, {k: str(v) for k, v in where.items()}, scope=scope)


# -- readings and findings of Section 2.3 ------------------------------------------------------------
finding(
    "htm.r8.title_wider_than_result", R8,
    "Result 8 is titled 'Expression de delta_{Z,X}(eps)' (printed 'dz, x(€)'), i.e. for the noisy estimate Z_b "
    "with any b >= 0, but its statement opens with 'If b = 0, alors ...' and gives no expression for b > 0. The "
    "proof ends with a garbled display (sums over samples of p(s) exp(...) with t(x, s) in the exponents, printed "
    "'LN St P(s) exp ((22) 4 32,y o pls) exp (122)') that is not completed into a statement. Every claim of this "
    "module is the b = 0 case, and the titles say so.",
    claims=("htm.r8.density", "htm.r8.delta0", "htm.r8.pmf_ratio", "htm.r8.support_condition"))
finding(
    "htm.r9.no_printed_proof", R9,
    "Result 9 is printed without a proof. The proof given here writes eps_{Z_0,X}(0) as the supremum of the "
    "log-likelihood ratios of the neighbouring pairs (the hypergeometric density depends on x only through t(x)) and "
    "shows, for every N, each ratio at most one of the two printed bounds (the kernel inequalities "
    "htm.r9.bound_ratio_up, htm.r9.bound_ratio_down on the pmf ratio of the proof of Result 8), each bound attained, "
    "and, when min(m_t, N - M_t) < n, a ratio with a zero denominator (the supports differ, "
    "htm.r8.support_condition).",
    claims=("htm.r9.epsilon0", "htm.r9.epsilon0_infinite"))
reading(
    "htm.r8.support_line", R8,
    printed="If ! = t, + 1, then [max{0,n + ¢, — N}, min{n,t,}] = [max{0,n +t, — N + 1}, min{n, t, + 1}] © "
            "max{(N — 1) — t,,t,} > n. Si max{(N — 1) —t,,t,} > n, then for z € Hl n]]",
    reading="If t_{x'} = t_x + 1, then [max{0, n + t_x - N}, min{n, t_x}] = [max{0, n + t_x - N + 1}, "
            "min{n, t_x + 1}] <=> max{(N - 1) - t_x, t_x} >= n. Si max{(N - 1) - t_x, t_x} >= n, then for "
            "z in [[0, n]]",
    why="'t,' is t_x and '!' is t_{x'} as in the line before ('[max{0, n+t,—N}, min{n, t,}]' is the support of "
        "the total t_x); '©' stands between two statements and is read as the equivalence sign; '> n' is read as "
        ">= n, the sign that the OCR prints as '>' throughout (the stated range '0 < m_t < M_t < N' is "
        "0 <= m_t < M_t <= N); 'Hl n]]' is the integer interval [[0, n]] (the range of the ratio that follows). "
        "The glyphs 'max' are kept: the OCR renders min and max correctly everywhere else in the document, in this "
        "very line ('[max{0, ...}, min{n, t,}]') and in Result 9 ('min{m;, N — M;}'), and prints 'max' twice here.",
    alternatives="'> n' read as a strict inequality: the printed condition max{N-1-t, t} > n is refuted by the same "
                 "counterexample (N = 5, n = 2, t = 1: max = 3 > 2, supports differ), and the corrected one would "
                 "be min{N-1-t, t} >= n (with > it fails at N = 5, n = 2, t = 2, where both supports are {0, 1, 2}). "
                 "Reading 'max' as a garble of 'min' is not supported by the OCR (see why), so the printed condition "
                 "is registered as an erratum.",
    claims=("htm.r8.support_condition.printed", "htm.r8.support_condition", "htm.r8.pmf_ratio"))
reading(
    "htm.r8.pmf_ratio_lhs", R8,
    printed="( )(N t/) = Ut D) (N—to—n+t2)   [the fraction above: (W)t 1-2)(N—ta)]",
    reading="f_{t_x}(z)/f_{t_x + 1}(z) = (t_x + 1 - z)(N - t_x) / ((t_x + 1)(N - t_x - n + z))",
    why="The right-hand fraction is legible ('t 1-2' = t_x + 1 - z over '(t + 1)(N - t - n + z)'); the left side is "
        "a ratio of two products of binomials of which only '(N t/)' (C(N - t', .)) survives. The ratio f_t/f_{t+1} "
        "is the one under which the printed fraction holds (htm.r8.pmf_ratio proves it for all N); its inverse is "
        "f_{t+1}/f_t.",
    alternatives="f_{t+1}/f_t: the printed fraction would then be wrong; the neighbouring text (the support "
                 "condition for t' = t + 1) fixes the order t, t + 1.",
    claims=("htm.r8.pmf_ratio",))
reading(
    "htm.r9.finite_case", R9,
    printed="N-—M:+1 me+1 -  In <max { NeM i e }) otherwise",
    reading="ln max{(N - M_t + 1)/(N - M_t + 1 - n), (m_t + 1)/(m_t + 1 - n)}",
    why="The numerators N - M_t + 1 and m_t + 1 are legible, the denominators are not ('NeM i', 'e'). The pmf ratio "
        "of the proof of Result 8 gives exactly these values at its two extreme points, f_t/f_{t+1} at (t, y) = "
        "(M_t - 1, 0) and f_{t+1}/f_t at (t, y) = (m_t, n), and exact enumeration of eps_{Z_0}(0) for N <= 14 "
        "agrees with this reading in every case.",
    alternatives="Denominators N - M_t - n or m_t - n (dropping the + 1) are refuted by the same enumeration "
                 "(e.g. N = 4, n = 1, m_t = 1, M_t = 2: eps(0) = ln 2 = ln((m_t+1)/(m_t+1-n)), while "
                 "(m_t+1)/(m_t-n) is undefined).",
    claims=("htm.r9.epsilon0",))


# -- the density --------------------------------------------------------------------------------------
DENSITY_SCOPE = "every x in {0,1}^N and every sample of size n, 2 <= N <= 7, 1 <= n < N"


def _density_enum(claim: Claim) -> Enumeration:
    """The law of the number of sampled ones, every sample enumerated, against the claim's right side evaluated
    exactly at (N, n, t, y)."""
    stated: dict = {}

    def rhs_at(NN, nn, tt, k):
        if (NN, nn, tt, k) not in stated:
            stated[NN, nn, tt, k] = claim.rhs.subs({N: NN, n: nn, t: tt, y: k})
        return stated[NN, nn, tt, k]

    count = 0
    for NN, nn in SMALL:
        for x in itertools.product((0, 1), repeat=NN):
            count += 1
            law = brute_law(NN, nn, x)
            tt = sum(x)
            support = range(max(0, nn + tt - NN), min(nn, tt) + 1)
            if any(law.get(k, 0) != rhs_at(NN, nn, tt, k) for k in support) or sum(law.values()) != 1:
                return _fail(count, "the sample law differs from the stated density", DENSITY_SCOPE, N=NN, n=nn, x=x)
    return Enumeration(True, count, "the law of the number of sampled ones, every sample enumerated, equals the "
                                    "stated C(t,y)C(N-t,n-y)/C(N,n) exactly on the support", scope=DENSITY_SCOPE)


F_T = sp.binomial(t, y) * sp.binomial(N - t, n - y) / sp.binomial(N, n)

# the formal statement of the cited hypergeometric law, over its own symbols: N units, t of them with the
# property, a simple random sample of n, Y the number drawn with the property
_N_POP, _N_S, _T_POP, _Y_S = sp.symbols("N_{pop} n_{s} t_{pop} y_{s}", integer=True, nonnegative=True)
_P_HYPER = sp.Symbol("P(Y = y)")
cited_form("hypergeometric_law", _P_HYPER,
           sp.binomial(_T_POP, _Y_S) * sp.binomial(_N_POP - _T_POP, _N_S - _Y_S) / sp.binomial(_N_POP, _N_S),
           conditions=(sp.Le(_N_S, _N_POP), sp.Le(_T_POP, _N_POP)))
_P_SAMPLED = sp.Symbol(r"P\big(\textstyle\sum_{i\in S} x_i = y\big)")

register(Claim(
    id="htm.r8.density",
    title="Result 8 (b = 0), SRS of n among N units, t = t(x) <= N: P(sum_{i in S} x_i = y) = C(t,y) C(N-t,n-y)/"
          "C(N,n)",
    source=R8, kind="identity", lhs=_P_SAMPLED, rhs=F_T, conditions=(sp.Le(n, N), sp.Le(t, N)),
    proof=lambda c: conclude_instance(c, "hypergeometric_law", {_P_HYPER: _P_SAMPLED, _N_POP: N, _N_S: n,
                                                                _T_POP: t, _Y_S: y}),
    enumeration=_density_enum,
    note="P(sum_{i in S} x_i = y) = f_{Z_0|X=x}(N y/n), the law of the Horvitz-Thompson estimate (N/n) y for b = 0: "
         "the number of sampled units with x_i = 1 among the t = t(x) such units of the population. Depends on x only "
         "through t(x); support y in [max(0, n + t - N), min(n, t)]. It is the hypergeometric law (Feller, vol. I, "
         "II.6), cited; the exact law over every sample is also checked for N <= 7."))

# -- the pmf ratio and its monotonicity --------------------------------------------------------------
RATIO = (t + 1 - y) * (N - t) / ((t + 1) * (N - t - n + y))
_ratio_def = F_T / F_T.subs(t, t + 1)
# on the common support: y <= t, y <= n, n - y <= N - t - 1 (every binomial of f_t and f_{t+1} non-zero)
_COMMON_SUPPORT = (sp.Le(y, t), sp.Le(y, n), sp.Le(n - y, N - t - 1))
_a, _c, _d = sp.symbols("a c d", integer=True, nonnegative=True)


def prove_pmf_ratio(claim: Claim) -> Proof:
    """On the common support, t = y + a, n = y + c, N = t + 1 + (n - y) + d with a, c, d >= 0: the ratio of
    binomials is a ratio of factorials, which SymPy reduces exactly."""
    on_support = Parametrization(
        forward={y: y, t: y + _a, n: y + _c, N: y + _a + 1 + _c + _d},
        inverse={_a: t - y, _c: n - y, _d: N - t - 1 - n + y})
    return conclude(claim, param=on_support)


register(Claim(
    id="htm.r8.pmf_ratio",
    title="Proof of Result 8 (b = 0): f_t(y)/f_{t+1}(y) = (t+1-y)(N-t)/((t+1)(N-t-n+y)) for y <= t, y <= n, "
          "n - y <= N-t-1",
    source=R8, kind="identity", lhs=_ratio_def, rhs=RATIO, conditions=_COMMON_SUPPORT,
    proof=prove_pmf_ratio, budget=120.0,
    note="The source prints this fraction; its left side is OCR-damaged and is read as f_t/f_{t+1} (reading "
         "htm.r8.pmf_ratio_lhs). The conditions say that y is in the support of both laws (the common support); "
         "N, n, t, y are any non-negative integers."))


def _ratio_point(rng):
    NN = rng.randint(20, 10**6)
    nn = rng.randint(1, NN // 3)
    tt = rng.randint(nn, NN - nn - 1)        # common support: every y in [0, n]
    return rng.randint(0, nn), tt, NN, nn


def _eps_point(rng):
    NN = rng.randint(20, 10**6)
    nn = rng.randint(1, NN // 4)
    return NN, nn, rng.randint(nn, NN // 2), rng.randint(NN // 2 + 1, NN - nn)


formula("srs_binary_pmf_ratio", RATIO, (y, t, N, n), ("htm.r8.pmf_ratio",), R8,
        "f_t(y)/f_{t+1}(y) for simple random sampling on binary data (hypergeometric laws).", sample=_ratio_point)

_dlog = sp.diff(sp.log(RATIO), y)
_A, _C = sp.symbols("A C", positive=True)    # A = t + 1 - y, C = N - t - n + y


def prove_ratio_decreasing(claim: Claim) -> Proof:
    """With A = t + 1 - y > 0 and C = N - t - n + y > 0 (the conditions), d/dy ln ratio = -1/A - 1/C."""
    inside = Parametrization(forward={y: y, n: n, t: _A + y - 1, N: _C + _A + n - 1},
                             inverse={_A: t + 1 - y, _C: N - t - n + y})
    return all_of(zero(inside.apply(claim.lhs) - (-1 / _A - 1 / _C), "d/dy ln ratio = -1/A - 1/C"),
                  conclude(claim, param=inside))


register(Claim(
    id="htm.r8.ratio_decreasing",
    title="Proof of Result 8 (b = 0): d/dy ln[(t+1-y)(N-t)/((t+1)(N-t-n+y))] < 0 where t+1-y > 0, N-t-n+y > 0 and "
          "t <= N - 1",
    source=R8, kind="sign", lhs=_dlog, relation="<",
    conditions=(sp.Gt(t + 1 - y, 0), sp.Gt(N - t - n + y, 0), sp.Le(t, N - 1)),
    proof=prove_ratio_decreasing,
    note="t <= N - 1 is the paper's setting (t and t + 1 in [0, N]); it is stated because at N = t the printed "
         "logarithm's argument is 0 and its derivative, as printed, is 0/0. "
         "y is treated as a real variable; a step of the proof computes the derivative as -1/(t+1-y) - 1/(N-t-n+y). "
         "The expression is the closed form of f_t(y)/f_{t+1}(y) on the common support (htm.r8.pmf_ratio), so that "
         "ratio decreases in y: max_y f_t/f_{t+1} is at the smallest common y and max_y f_{t+1}/f_t at the largest."))

# -- the support condition (printed with max) ---------------------------------------------------------
_lo = lambda tt: sp.Max(0, n + tt - N)  # noqa: E731
_hi = lambda tt: sp.Min(n, tt)          # noqa: E731
SAME_SUPPORT = sp.Piecewise((1, sp.And(sp.Eq(_lo(t), _lo(t + 1)), sp.Eq(_hi(t), _hi(t + 1)))), (0, True))
# the paper's setting: n in {1..N}, t and t' = t + 1 in [0, N]
SRS_SETTING = (sp.Ge(n, 1), sp.Le(n, N), sp.Le(t, N - 1))
_u, _v, _w = sp.symbols("u v w", integer=True, nonnegative=True)


def support_cases(claim: Claim) -> Proof:
    """The claim on all integers, in four cases that cover them.

    With A = t - n (the upper ends min(n, t), min(n, t+1) agree iff A >= 0) and B = N - 1 - t - n (the lower
    ends max(0, n+t-N), max(0, n+t+1-N) agree iff B >= 0): A <= B with A >= 0 or A <= -1, and A >= B + 1 with
    B >= 0 or B <= -1.  In each case a parametrization by non-negative integers u, v, w fixes every max and min,
    and the claim's own relation is concluded."""
    A, B = t - n, N - 1 - t - n
    case1 = ({t: n + _u, N: 2 * n + 1 + 2 * _u + _w, n: n}, {_u: A, _w: B - A})                   # t = n + u, B = A + w
    case2 = ({t: n - 1 - _u, N: 2 * n - 1 - 2 * _u + _w, n: n}, {_u: -1 - A, _w: B - A})         # t = n - 1 - u
    case3 = ({t: n + _v + 1 + _w, N: 2 * n + 2 + 2 * _v + _w, n: n}, {_v: B, _w: A - B - 1})    # B = v, A = B + 1 + w
    case4 = ({t: n + _w - _v, N: 2 * n + _w - 2 * _v, n: n}, {_v: -1 - B, _w: A - B - 1})        # B = -1 - v

    def leaf(fw_inv):
        return lambda case: case.conclude(param=Parametrization(*fw_inv))

    return conclude_split(claim, B - A,
                          lambda case: case.split(A, leaf(case1), leaf(case2)),
                          lambda case: case.split(B, leaf(case3), leaf(case4)))


SUPPORT = Claim(
    id="htm.r8.support_condition",
    title="Proof of Result 8 (corrected, b = 0), 1 <= n <= N, 0 <= t <= N-1: supp f_t = supp f_{t+1} iff "
          "min(t, N-1-t) >= n",
    source=R8, kind="identity", lhs=SAME_SUPPORT,
    rhs=sp.Piecewise((1, sp.Ge(sp.Min(t, N - 1 - t), n)), (0, True)), conditions=SRS_SETTING,
    proof=support_cases,
    note="lhs is 1 when [max(0, n+t-N), min(n, t)] = [max(0, n+t+1-N), min(n, t+1)]: the upper ends agree iff "
         "t >= n, the lower ends iff N - 1 - t >= n; both are needed. Proved for every integer N, n, t by a case "
         "split that fixes each max and min.")
erratum("htm.r8.support_condition",
        printed=Claim(id="htm.r8.support_condition.printed",
                      title="Proof of Result 8 as printed (b = 0), 1 <= n <= N, 0 <= t <= N-1: supp f_t = supp f_{t+1} "
                            "iff max(N-1-t, t) >= n",
                      source=R8, kind="identity", lhs=SAME_SUPPORT,
                      rhs=sp.Piecewise((1, sp.Ge(sp.Max(N - 1 - t, t), n)), (0, True)), conditions=SRS_SETTING,
                      counterexample={N: sp.Integer(5), n: sp.Integer(2), t: sp.Integer(1)}),
        corrected=SUPPORT,
        explanation="The two ends of the support must both agree, which needs t >= n and N - 1 - t >= n, i.e. the "
                    "minimum. With N = 5, n = 2, t = 1 (inside Section 2.3's setting n, m_t, M_t in {1, ..., N} under "
                    "either reading of its '<'): max(3, 1) = 3 >= 2, yet supp f_1 = {0, 1} and supp f_2 = {0, 1, 2} "
                    "(the sample can hold both ones only when there are two). The OCR prints 'max' twice in this line while rendering the neighbouring max and "
                    "min correctly, so this is the printed text, not a garble (reading htm.r8.support_line). It is a "
                    "slip of the printed equivalence, not of the results: the very next clause uses the full range "
                    "z in [[0, n]] as the common support, which is right only under the minimum, and Result 9's "
                    "condition min(m_t, N - M_t) < n is the corrected one. The refutation holds under both readings "
                    "of '>' (>= or >).",
        readings=("htm.r8.support_line",),
        printed_text="If [t_{x'}] = t_x + 1, then [max{0, n + t_x - N}, min{n, t_x}] = [max{0, n + t_x - N + 1}, "
                     "min{n, t_x + 1}] [<=>] max{(N - 1) - t_x, t_x} [>=] n.",
        corrected_text="If t_{x'} = t_x + 1 (1 <= n <= N, 0 <= t_x <= N - 1), then [max{0, n + t_x - N}, min{n, t_x}] = "
                       "[max{0, n + t_x - N + 1}, min{n, t_x + 1}] <=> min{(N - 1) - t_x, t_x} >= n.")


# -- the neighbouring pairs of X, by the total of x and the changed unit --------------------------------------
# X = {x in {0,1}^N : m_t <= t(x) <= M_t}; a neighbouring pair (x, x') of X differs at one unit i.  By the density
# (htm.r8.density) the law of the estimate given x is f_{t(x)}, so a quantity of the pair is a function of t = t(x)
# and of the change at unit i: x_i = 0, x'_i = 1 (t(x') = t + 1; x has a zero, t <= N - 1) or x_i = 1, x'_i = 0
# (t(x') = t - 1; x has a one, t >= 1); both totals lie in [m_t, M_t].  Each such t is the total of a pair
# (the other N - 1 units hold t - x_i ones, 0 <= t - x_i <= N - 1).
SRS_DOMAIN = (sp.Ge(n, 1), sp.Le(n, N), sp.Lt(m_t, M_t), sp.Le(M_t, N))   # n, m_t, M_t in {0..N}, 1 <= n, m_t < M_t
PAIRS_UP = (sp.Le(m_t, t), sp.Le(t + 1, M_t), sp.Le(t, N - 1))            # x_i = 0, x'_i = 1
PAIRS_DOWN = (sp.Le(m_t, t - 1), sp.Le(t, M_t), sp.Ge(t, 1))              # x_i = 1, x'_i = 0
TOTALS_UP = (sp.Le(m_t, t), sp.Le(t + 1, M_t))                            # (t, t + 1) in [m_t, M_t]^2
TOTALS_DOWN = (sp.Le(m_t, t - 1), sp.Le(t, M_t))                          # (t, t - 1) in [m_t, M_t]^2
_SHIFT = {(0, 1): 1, (1, 0): -1}                                           # (x_i, x'_i) -> t(x') - t(x)


def f_at(tt, yy=y) -> sp.Expr:
    """f_tt(yy) = C(tt, yy) C(N - tt, n - yy)/C(N, n) (htm.r8.density)."""
    return F_T.xreplace({t: tt, y: yy})


def support_of(tt) -> tuple:
    """y in supp f_tt: y <= n, y <= tt, n - y <= N - tt (y >= 0 by its assumption)."""
    return (sp.Le(y, n), sp.Le(y, tt), sp.Le(n - y, N - tt))


def _pairs_described() -> Proof:
    """The two families describe the neighbouring pairs of X: the change at unit i moves the total by x'_i - x_i,
    and a binary x with total t has a zero iff t <= N - 1, a one iff t >= 1."""
    u_, v_ = sp.symbols("x_i x'_i", integer=True, nonnegative=True)
    moved = {(a, c): (t - u_ + v_).xreplace({u_: a, v_: c}) - t for a, c in _SHIFT}
    ok = (moved == _SHIFT and sp.Le(t, N - 1) in PAIRS_UP and sp.Ge(t, 1) in PAIRS_DOWN
          and all(c in PAIRS_UP for c in TOTALS_UP) and all(c in PAIRS_DOWN for c in TOTALS_DOWN))
    return mechanical(ok, "for x, x' in {0,1}^N that differ at unit i, t(x') - t(x) = x'_i - x_i: +1 for (x_i, x'_i) "
                          "= (0, 1), -1 for (1, 0); the other N - 1 units hold t - x_i ones, so a pair with t(x) = t "
                          "and x_i = 0 exists iff t <= N - 1, with x_i = 1 iff t >= 1; both totals in [m_t, M_t]")


# -- Result 8: delta_{Z_0}(eps) -----------------------------------------------------------------------
def delta0_by_totals(NN: int, nn: int, lo: int, hi: int, c: Fraction) -> Fraction:
    """Result 8's formula: max over neighbouring totals of sum_y (f_t - c f_t')_+ ."""
    best = Fraction(0)
    for tt in range(lo, hi + 1):
        for tp in (tt - 1, tt + 1):
            if lo <= tp <= hi:
                s = sum((max(hyper(NN, nn, tt, k) - c * hyper(NN, nn, tp, k), Fraction(0)) for k in range(nn + 1)),
                        Fraction(0))
                best = max(best, s)
    return best


DELTA_SCOPE = "every neighbouring pair of binary vectors and every sample, 2 <= N <= 6, 0 <= m_t < M_t <= N, " \
              "e^eps in {1, 3/2}"


def _delta_enum(claim: Claim) -> Enumeration:
    count = 0
    for NN, nn in SMALL[:15]:                     # N <= 6
        laws: dict = {}                           # x -> brute_law(NN, nn, x), each computed once
        pair_delta: dict = {}                     # (x, x', c) -> sum_k (f_x(k) - c f_x'(k))_+, each computed once

        def brute_pair(x, xp, c):
            key = (x, xp, c)
            if key not in pair_delta:
                for u in (x, xp):
                    if u not in laws:
                        laws[u] = brute_law(NN, nn, u)
                f, g = laws[x], laws[xp]
                pair_delta[key] = sum((max(f[k] - c * g.get(k, 0), Fraction(0)) for k in f), Fraction(0))
            return pair_delta[key]

        for lo in range(0, NN):
            for hi in range(lo + 1, NN + 1):
                for c in (Fraction(1), Fraction(3, 2)):
                    count += 1
                    brute = Fraction(0)
                    for x, xp in _binary_pairs(NN, lo, hi):
                        brute = max(brute, brute_pair(x, xp, c))
                    if brute != delta0_by_totals(NN, nn, lo, hi, c):
                        return _fail(count, "Result 8 differs from the brute force", DELTA_SCOPE,
                                     N=NN, n=nn, m_t=lo, M_t=hi, c=c)
    return Enumeration(True, count, "delta by brute force over the neighbouring pairs equals Result 8's maximum over "
                                    "neighbouring totals, exactly", scope=DELTA_SCOPE)


EPS = sp.Symbol("epsilon", nonnegative=True)


def hockey_stick(tt, tp) -> sp.Expr:
    """sum_{y=0}^{n} (f_tt(y) - e^eps f_tp(y))_+ : delta(eps, x, x') for t(x) = tt, t(x') = tp (b = 0)."""
    return sp.Sum(sp.Max(f_at(tt) - sp.exp(EPS) * f_at(tp), 0), (y, 0, n))


DELTA_Z0 = defined(r"\delta_{Z_0,X}(\varepsilon)",
                   Supremum(Family(hockey_stick(t, t + 1), (t,), PAIRS_UP),
                            Family(hockey_stick(t, t - 1), (t,), PAIRS_DOWN)))
_R8_RHS = defined(r"\max_{(t,t')}\sum_y \big(f_t(y) - e^{\varepsilon} f_{t'}(y)\big)_+",
                  Supremum(Family(hockey_stick(t, t + 1), (t,), TOTALS_UP),
                           Family(hockey_stick(t, t - 1), (t,), TOTALS_DOWN)))
register(Claim(
    id="htm.r8.delta0",
    title="Result 8 (b = 0): delta_{Z_0,X}(eps) = max over t, t' in [m_t, M_t], |t - t'| = 1, of sum_y (f_t(y) - "
          "e^eps f_t'(y))_+",
    source=R8, kind="identity", lhs=DELTA_Z0, rhs=_R8_RHS, conditions=SRS_DOMAIN,
    enumeration=_delta_enum, budget=120.0,
    limitation=("The left side is a supremum, over the neighbouring pairs of binary vectors of a domain with symbolic "
                "N, m_t and M_t, of hockey-stick sums; the engine does not derive from the vectors that these are the "
                "sums of neighbouring totals, so the reduction is checked for N <= 6."),
    note="f_t(y) = C(t,y) C(N-t,n-y)/C(N,n) (htm.r8.density). The left side is the supremum of delta(eps, x, x') = "
         "sum_y (f_x(y) - e^eps f_x'(y))_+ over the neighbouring pairs of X = {x in {0,1}^N : t(x) in [m_t, M_t]}, "
         "written by t = t(x) and the change at the unit i (x_i = 0 -> 1 with t <= N - 1, or 1 -> 0 with t >= 1); "
         "the right side, Result 8's maximum over H_t(X), the neighbouring totals (t, t +- 1) of [m_t, M_t]. The "
         "enumeration computes the left side by brute force over every pair of binary vectors and every sample. Only "
         "the case b = 0 is stated in the source (finding htm.r8.title_wider_than_result)."))


# -- Result 9 -----------------------------------------------------------------------------------------
UP = (N - M_t + 1) / (N - M_t + 1 - n)        # f_t/f_{t+1} at (t, y) = (M_t - 1, 0)
DOWN = (m_t + 1) / (m_t + 1 - n)              # f_{t+1}/f_t at (t, y) = (m_t, n)
EXP_EPS0 = sp.Max(UP, DOWN)
# t in [m_t, M_t - 1] (the pair (t, t+1) inside [m_t, M_t]), y in [0, n], and min(m_t, N - M_t) >= n
KERNEL_RANGE = (sp.Le(y, n), sp.Le(n, m_t), sp.Le(m_t, t), sp.Le(t, M_t - 1), sp.Le(n, N - M_t))
_ce, _e, _f, _g, _h = sp.symbols("c e f g h", integer=True, nonnegative=True)
_nn = y + _ce
_mm = _nn + _e
_tt = _mm + _f
_MM = _tt + 1 + _g
KERNEL_PARAM = Parametrization(
    forward={y: y, n: _nn, m_t: _mm, t: _tt, M_t: _MM, N: _MM + _nn + _h},
    inverse={_ce: n - y, _e: m_t - n, _f: t - m_t, _g: M_t - 1 - t, _h: N - M_t - n})


def prove_bound_up(claim: Claim) -> Proof:
    """On the kernel range, parametrized by non-negative integers, SymPy's factored form of UP - r_t(y) has
    non-negative factors only.  (By hand: UP - r_t(y) = n (M_t - 1 - t)/((N - M_t + 1 - n)(N - t - n)) + y (N + 1 -
    n)(N - t)/((N - t - n)(t + 1)(N - t - n + y)), the steps in t and in y.)"""
    return conclude(claim, param=KERNEL_PARAM)


def prove_bound_down(claim: Claim) -> Proof:
    """As for the first bound.  (By hand: DOWN - 1/r_t(y) = n (t - m_t)/((m_t + 1 - n)(t + 1 - n)) + (t + 1)(n - y)
    (N + 1 - n)/((t + 1 - n)(t + 1 - y)(N - t)).)"""
    return conclude(claim, param=KERNEL_PARAM)


BOUND_UP = register(Claim(
    id="htm.r9.bound_ratio_up",
    title="Result 9 (b = 0), kernel: (t+1-y)(N-t)/((t+1)(N-t-n+y)) <= (N-M_t+1)/(N-M_t+1-n) for 0 <= y <= n <= m_t "
          "<= t <= M_t-1, n <= N-M_t",
    source=R9, kind="inequality", lhs=RATIO, relation="<=", rhs=UP, conditions=KERNEL_RANGE,
    proof=prove_bound_up,
    note="The ratio is the closed form of htm.r8.pmf_ratio (valid on the common support, here all of [0, n]). "
         "Equality at (t, y) = (M_t - 1, 0): the bound is the largest f_t/f_{t+1}."))
BOUND_DOWN = register(Claim(
    id="htm.r9.bound_ratio_down",
    title="Result 9 (b = 0), kernel: (t+1)(N-t-n+y)/((N-t)(t+1-y)) <= (m_t+1)/(m_t+1-n) for 0 <= y <= n <= m_t "
          "<= t <= M_t-1, n <= N-M_t",
    source=R9, kind="inequality", lhs=1 / RATIO, relation="<=", rhs=DOWN, conditions=KERNEL_RANGE,
    proof=prove_bound_down,
    note="The left side is 1/r_t(y) = f_{t+1}(y)/f_t(y) (htm.r8.pmf_ratio). Equality at (t, y) = (m_t, n): the bound "
         "is the largest f_{t+1}/f_t."))


def _eps_enum(claim: Claim, infinite: bool) -> Enumeration:
    """eps_{Z_0}(0) from the exact laws of every neighbouring pair of totals: +oo when two supports differ, else
    the log of the largest likelihood ratio in either direction."""
    scope = "exact hypergeometric laws of every neighbouring pair of totals, 2 <= N <= 14, 1 <= n < N, " \
            "0 <= m_t < M_t <= N" + (", min(m_t, N - M_t) < n" if infinite else ", min(m_t, N - M_t) >= n")
    count = 0
    ratios: dict = {}       # (N, n, t) -> the largest ratio f_t/f_{t+1} or f_{t+1}/f_t, None if the supports differ

    def largest_ratio(NN, nn, tt):
        if (NN, nn, tt) not in ratios:
            f, g = ({k: v for k in range(nn + 1) if (v := hyper(NN, nn, u, k))} for u in (tt, tt + 1))
            ratios[NN, nn, tt] = None if set(f) != set(g) else \
                max(max(f[k] / g[k] for k in f), max(g[k] / f[k] for k in f))
        return ratios[NN, nn, tt]

    for NN in range(2, 15):
        for nn in range(1, NN):
            for lo in range(0, NN):
                for hi in range(lo + 1, NN + 1):
                    if (min(lo, NN - hi) < nn) != infinite:
                        continue
                    count += 1
                    worst: Fraction | None = Fraction(1)
                    for tt in range(lo, hi):          # the pairs (t, t+1) and (t+1, t): laws depend on t only
                        ratio = largest_ratio(NN, nn, tt)
                        if ratio is None:
                            worst = None
                            break
                        worst = max(worst, ratio)
                    if infinite and worst is not None:
                        return _fail(count, "eps(0) is finite", scope, N=NN, n=nn, m_t=lo, M_t=hi)
                    if not infinite and sp.exp(claim.rhs.xreplace({N: sp.Integer(NN), n: sp.Integer(nn), m_t: sp.Integer(lo),
                                                                   M_t: sp.Integer(hi)})) != sp.Rational(
                            worst.numerator, worst.denominator):
                        return _fail(count, f"exp(eps(0)) is {worst}, the statement differs", scope,
                                     N=NN, n=nn, m_t=lo, M_t=hi)
    detail = ("some neighbouring supports differ in every case" if infinite else
              "exp(eps(0)) (max ratio over all neighbouring totals) equals exp of the stated right side exactly")
    return Enumeration(True, count, detail, scope=scope)


RESULT9_SETTING = SRS_DOMAIN
# eps_{Z_0,X}(0): the largest ln f_x(y)/f_x'(y) over the neighbouring pairs and the y of supp f_x (+oo if f_x'(y) = 0)
EPS0_Z0 = defined(r"\varepsilon_{Z_0,X}(0)",
                  Supremum(Family(sp.log(f_at(t) / f_at(t + 1)), (t, y), PAIRS_UP + support_of(t)),
                           Family(sp.log(f_at(t) / f_at(t - 1)), (t, y), PAIRS_DOWN + support_of(t))))
_up, _gp = sp.symbols("u' g'", integer=True, positive=True)
# the finite case: n = 1 + a, m_t = n + e, M_t = m_t + g', N = M_t + n + h
_FINITE_CASE = Parametrization(
    forward={n: 1 + _a, m_t: 1 + _a + _e, M_t: 1 + _a + _e + _gp, N: 2 + 2 * _a + _e + _gp + _h},
    inverse={_a: n - 1, _e: m_t - n, _gp: M_t - m_t, _h: N - M_t - n})
# the pairs (t, t - 1) on the kernel range: t = m_t + 1 + f, M_t = t + g (KERNEL_PARAM is the pairs (t, t + 1))
KERNEL_PARAM_DOWN = Parametrization(
    forward={y: y, n: _nn, m_t: _mm, t: _mm + 1 + _f, M_t: _mm + 1 + _f + _g, N: _mm + 1 + _f + _g + _nn + _h},
    inverse={_ce: n - y, _e: m_t - n, _f: t - 1 - m_t, _g: M_t - t, _h: N - M_t - n})


def _eps0_steps() -> Proof:
    return all_of(
        cite("pure_dp_likelihood_ratio",
             "for b = 0 the laws are pmfs: eps_{Z_0,X}(0), the least eps with delta_{Z_0,X}(eps) = 0 (Section 1.4), "
             "is the supremum of ln f_x(y)/f_x'(y) over the neighbouring pairs of X and the y with f_x(y) > 0 (+oo "
             "where f_x'(y) = 0)"),
        cite("hypergeometric_law", "f_x(y) = C(t(x), y) C(N - t(x), n - y)/C(N, n) (htm.r8.density): f_x depends on x "
                                   "only through t(x), positive exactly on its support"),
        _pairs_described())


def prove_epsilon0(claim: Claim) -> Proof:
    """Every ratio f_t/f_{t+1} and f_t/f_{t-1} of the range is finite and at most one of the two bounds
    (htm.r9.bound_ratio_up, htm.r9.bound_ratio_down, here on the members themselves), and each bound is a ratio
    at a point of the range: (t, y) = (M_t - 1, 0) for the pairs (t, t + 1), (m_t + 1, n) for (t, t - 1)."""
    return all_of(_eps0_steps(), conclude_supremum(claim, [
        {"param": _FINITE_CASE, "bounds": [(KERNEL_PARAM, UP), (KERNEL_PARAM_DOWN, DOWN)],
         "witnesses": [(0, {t: M_t - 1, y: 0}), (1, {t: m_t + 1, y: n})]}]))


register(Claim(
    id="htm.r9.epsilon0",
    title="Result 9 (b = 0), finite case: if min(m_t, N - M_t) >= n, eps_{Z_0,X}(0) = ln max{(N-M_t+1)/(N-M_t+1-n), "
          "(m_t+1)/(m_t+1-n)}",
    source=R9, kind="identity", lhs=EPS0_Z0, rhs=sp.log(EXP_EPS0),
    conditions=RESULT9_SETTING + (sp.Ge(sp.Min(m_t, N - M_t), n),),
    proof=prove_epsilon0, enumeration=lambda claim: _eps_enum(claim, infinite=False),
    note="The OCR of the finite case is damaged (reading htm.r9.finite_case). eps_{Z_0,X}(0) is ln of the supremum of "
         "the likelihood ratios f_x(y)/f_x'(y) over the neighbouring pairs of X = {x in {0,1}^N : t(x) in [m_t, M_t]} "
         "and the y of supp f_x, written by t = t(x) and the change at the unit i (f_t/f_{t+1} for x_i = 0 -> 1, "
         "f_t/f_{t-1} for 1 -> 0). The engine shows every ratio of the range finite and at most one of the two bounds, "
         "and each bound attained, for every N (the kernel inequalities htm.r9.bound_ratio_up and "
         "htm.r9.bound_ratio_down on the closed form of the ratio are the same bounds). Exact enumeration confirms the "
         "value for N <= 14."))
formula("srs_binary_epsilon0_finite", sp.log(EXP_EPS0), (N, n, m_t, M_t), ("htm.r9.epsilon0",), R9,
        "eps_{Z_0}(0) of SRS on binary data when min(m_t, N - M_t) >= n (else +oo).", sample=_eps_point)


# m_t < n: n = m_t + u', N = n + v, M_t = m_t + g'; N - M_t < n: N - M_t = w, n = w + u', N - n = v, M_t - m_t = g'
_LOW_CASE = Parametrization(forward={m_t: m_t, n: m_t + _up, N: m_t + _up + _v, M_t: m_t + _gp},
                            inverse={_up: n - m_t, _v: N - n, _gp: M_t - m_t})
_HIGH_CASE = Parametrization(forward={N: _w + _up + _v, M_t: _up + _v, n: _w + _up, m_t: _up + _v - _gp},
                             inverse={_w: N - M_t, _up: n - N + M_t, _v: N - n, _gp: M_t - m_t})


def prove_epsilon0_infinite(claim: Claim) -> Proof:
    """min(m_t, N - M_t) < n: if m_t < n, the pair with totals (m_t + 1, m_t) has f_{m_t + 1}(m_t + 1) > 0 =
    f_{m_t}(m_t + 1); if N - M_t < n, the pair (M_t - 1, M_t) has f_{M_t - 1}(y) > 0 = f_{M_t}(y) at
    y = n + M_t - 1 - N.  Either ratio is +oo."""
    return all_of(_eps0_steps(), conclude_supremum(claim, [
        {"param": _LOW_CASE, "witnesses": [(1, {t: m_t + 1, y: m_t + 1})]},
        {"param": _HIGH_CASE, "witnesses": [(0, {t: M_t - 1, y: n + M_t - 1 - N})]}]))


register(Claim(
    id="htm.r9.epsilon0_infinite",
    title="Result 9 (b = 0), infinite case: if m_t < M_t <= N and min(m_t, N - M_t) < n, eps_{Z_0,X}(0) = +oo",
    source=R9, kind="identity", lhs=EPS0_Z0, rhs=sp.oo,
    conditions=RESULT9_SETTING + (sp.Lt(sp.Min(m_t, N - M_t), n),),
    proof=prove_epsilon0_infinite, enumeration=lambda claim: _eps_enum(claim, infinite=True),
    note="eps_{Z_0,X}(0) as in htm.r9.epsilon0. If m_t < n the pair of totals (m_t + 1, m_t) has y = m_t + 1 in the "
         "support of f_{m_t + 1} and not of f_{m_t}; if N - M_t < n the pair (M_t - 1, M_t) has y = n + M_t - 1 - N in "
         "the support of f_{M_t - 1} and not of f_{M_t}: a likelihood ratio is +oo, for every N (the engine checks the "
         "point, the zero denominator and the positive numerator in each case). Exact enumeration confirms it for "
         "N <= 14."))
