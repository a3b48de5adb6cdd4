"""Sections 1.2 and 2.1: neighbouring databases, differential privacy, and AboveThreshold
(Théorème 2.1.0.1, a rewriting of Dwork and Roth 2014, Theorem 3.23), step by step.

Source: ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``; Canesse, 2022), Sections 1.2 and 2.1.

Notation of the proof.  Neighbouring databases D, D'; queries f_i of sensitivity 1 with y_i = f_i(D),
y'_i = f_i(D'); the noisy threshold T^ = T + Lap(2/eps) with density l_2, query noises
nu_i ~ Lap(4/eps) with density l_4; with nu_i (i < k) fixed, g_k = max_{i<k} (y_i + nu_i) and
g'_k = max_{i<k} (y'_i + nu_i).  A = k exactly when g_k <= T^ < y_k + nu_k.

The proof shifts the threshold by g_k - g'_k and the query noise by g_k - g'_k + y'_k - y_k, and bounds
the shifted densities by the triangle inequality.  Its steps are claims here; the last one is the
integrand bound that, integrated (monotonicity of the integral), gives P(A = k) <= e^eps P(A' = k).
Statements about log-densities leave out the normalising constants, which are the same on both sides.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Source, all_of, cite, citation, claim, finding, reading
from ..engine.integrals import case_integrals
from ..engine.proofs import Parametrization, conclude, conclude_cases, conclude_shift, conclude_split, conclude_termwise
from ..engine.proofs import exhaust
from ..engine.proofs import term_symbol
from .common import DOC, eps, laplace_density

S_NEIGH = Source(DOC, "Section 1.2, Définition 1.2.0.1 (bases de données voisines)")
S_DP = Source(DOC, "Section 1.2, Définition 1.2.0.2 (differential privacy)")
S_ALG = Source(DOC, "Section 2.1, the pseudo-code of AboveThreshold")
S_THM = Source(DOC, "Section 2.1, Théorème 2.1.0.1 and its proof")
S_HM = Source(DOC, "Section 2.2.1, HistogramMethod and the proof of Théorème 2.2.1.1")

citation("maximum_below_common_bound", "A finite maximum is at most every common upper bound",
         "If x_i <= c for i = 1..m then max_i x_i <= c (the maximum is one of the x_i).",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Def. 1.8 (upper bounds, least upper bound).")

# == Definition 1.2.0.1: a count changes by at most 1 between neighbours =================================
e_x = sp.Symbol("e", integer=True, nonnegative=True)      # 1[x_l < g] for the changed entry in D
e_y = sp.Symbol("e'", integer=True, nonnegative=True)     # the same indicator in D'

claim(id="pd.def.count_sensitivity",
      title="Définition 1.2.0.1 and Section 2.2.1, a count's change between neighbours: |e - e'| <= 1 for the "
            "changed entry's indicators e, e' in {0, 1}",
      source=S_NEIGH, kind="inequality", lhs=sp.Abs(e_x - e_y), rhs=1, relation="<=",
      conditions=(sp.Le(e_x, 1), sp.Le(e_y, 1)), finite=True,
      enumeration=lambda c: exhaust(c, [{e_x: a, e_y: b} for a in (0, 1) for b in (0, 1)]),
      note="e = 1[x_l < g] in D and e' the same indicator in D' for the one changed entry: a count f(x) = "
           "#{x_l < g} of neighbouring databases changes by e - e', so the queries of HistogramMethod have "
           "sensitivity 1 (that reduction is not checked here, only the four cases). "
           "The definition writes the neighbour relation ||x - y||_1 <= 1 but defines it as 'differ in at most one "
           "entry' (Hamming distance): replacement of one entry, the relation used throughout (a histogram of a "
           "replaced entry moves by 2 in l1). Under replacement the sensitivity of a count is 1; under addition or "
           "removal of an entry it is 1 as well.")

# == Definition 1.2.0.2: the event form from the outputs ==================================================
k = sp.Symbol("k", integer=True, nonnegative=True)
K = sp.Symbol("K", integer=True, nonnegative=True)
P = sp.IndexedBase("P", nonnegative=True)      # P(A = k) on D
Q = sp.IndexedBase("Q", nonnegative=True)      # P(A' = k) on D'
_g = sp.Symbol("g", nonnegative=True)


def _term_bound(term):
    pt, qt = term_symbol(P[k]), term_symbol(Q[k])
    return conclude(term, Parametrization({pt: sp.exp(eps) * qt - _g}, {_g: sp.exp(eps) * qt - pt}))


claim(id="pd.def.events_from_outputs",
      title="Définition 1.2.0.2 (delta = 0) summed over outputs: if P(A = k) <= e^eps P(A' = k) for each k, then "
            "sum_{k=0}^{K} P(A = k) <= sum_{k=0}^{K} e^eps P(A' = k)",
      source=S_DP, kind="inequality", lhs=sp.Sum(P[k], (k, 0, K)), rhs=sp.Sum(sp.exp(eps) * Q[k], (k, 0, K)),
      relation="<=", conditions=(sp.Le(P[k], sp.exp(eps) * Q[k]),),
      proof=lambda c: conclude_termwise(c, _term_bound),
      note="The sum runs over the outputs in a set S, enumerated k = 0..K (the output -1 relabelled); AboveThreshold has "
           "the finite output set {-1, 0, ..., K-1}, so with the pointwise bound that the proof of Théorème 2.1.0.1 "
           "gives this is P(A in S) <= e^eps P(A' in S) for every S, Définition 1.2.0.2 with delta = 0. Summed term "
           "by term.")

# == the first display: the law of A given the earlier query noises =======================================
t, nu = sp.symbols("t nu", real=True)
g, gp, y, yp = sp.symbols("g g' y y'", real=True)   # g_k, g'_k, y_k, y'_k


def _laplace_cdf(x, scale):
    return sp.Piecewise((sp.exp(x / scale) / 2, x < 0), (1 - sp.exp(-x / scale) / 2, True))


_L2, _L4 = laplace_density(t, 2 / eps), laplace_density(nu, 4 / eps)
_SET_FORM = sp.Integral(_L4 * (_laplace_cdf(y + nu, 2 / eps) - _laplace_cdf(g, 2 / eps)), (nu, g - y, sp.oo))
_THRESHOLD_FORM = sp.Integral(laplace_density(t, 2 / eps) * (1 - _laplace_cdf(t - y, 4 / eps)), (t, g, sp.oo))
# the six orders of g_k, y_k and 0, each covered by a change of variables (u, w >= 0 or > 0)
_u0, _w0 = sp.Symbol("u", nonnegative=True), sp.Symbol("w", nonnegative=True)
_up, _wp = sp.Symbol("u", positive=True), sp.Symbol("w", positive=True)
_ORDERS = {
    "0 <= g <= y": Parametrization({g: _u0, y: _u0 + _w0}, {_u0: g, _w0: y - g}),
    "0 <= y < g": Parametrization({y: _u0, g: _u0 + _wp}, {_u0: y, _wp: g - y}),
    "y < 0 <= g": Parametrization({y: -_wp, g: _u0}, {_wp: -y, _u0: g}),
    "g < 0 <= y": Parametrization({g: -_wp, y: _u0}, {_wp: -g, _u0: y}),
    "g <= y < 0": Parametrization({y: -_wp, g: -_wp - _u0}, {_wp: -y, _u0: y - g}),
    "y < g < 0": Parametrization({g: -_wp, y: -_wp - _up}, {_wp: -g, _up: g - y}),
}


def _order(key):
    return lambda case: case_integrals(case, _ORDERS[key])


def _output_law_proof(c):
    """Split on the signs of g_k, y_k - g_k and y_k (six orders of g_k, y_k, 0); in each, both integrals are
    evaluated piece by piece, their ranges cut where nu + y_k, nu, t - y_k and t change sign."""
    return conclude_split(
        c, g,
        lambda cs: cs.split(y - g, _order("0 <= g <= y"),
                            lambda c2: c2.split(y, _order("0 <= y < g"), _order("y < 0 <= g"))),
        lambda cs: cs.split(y, _order("g < 0 <= y"),
                            lambda c2: c2.split(y - g, _order("g <= y < 0"), _order("y < g < 0"))))


claim(id="pd.at.output_law",
      title="Théorème 2.1.0.1, proof, first display (threshold at 0): int_{g_k - y_k}^oo l_4(nu) P(T^ in ]g_k, y_k + nu]) "
            "dnu = int_{g_k}^oo l_2(t) P(nu_k > t - y_k) dt for every eps > 0 and real g_k, y_k",
      source=S_THM, kind="identity", lhs=_SET_FORM, rhs=_THRESHOLD_FORM, proof=_output_law_proof,
      note="With the earlier noises fixed both sides are P(A = k): the left one is the printed int_R l_4(nu) "
           "P(T^ in ]g_k, y_k + nu]) dnu, whose integrand is 0 for y_k + nu <= g_k; the right one integrates nu out "
           "first (Fubini). Reading pd.reading.interval_integral: the printed int_{g_k}^{y_k + nu} is the integral over the interval "
           "]g_k, y_k + nu], empty when y_k + nu <= g_k (as an oriented integral it would be negative there and the "
           "display false). The right-hand side is the form numeric.above_threshold_pmf integrates, with the "
           "factors P(nu_i <= t - y_i) of the earlier queries restored when the nu_i are integrated out. "
           "Proved by evaluating both integrals in closed form in each of the six orders of g_k, y_k and 0, their "
           "ranges cut where nu + y_k, nu, t - y_k and t change sign.")

# == the two changes of variables ==========================================================================
l2 = sp.Function("l_2")
l4 = sp.Function("l_4")
_shift_t = g - gp                          # t^ = t + g_k - g'_k
_shift_nu = g - gp + yp - y                # nu^ = nu + g_k - g'_k + y'_k - y_k

claim(id="pd.at.substitution_threshold",
      title="Théorème 2.1.0.1, proof, first change of variables t^ = t + g_k - g'_k: int_{g_k}^{y_k + nu} l_2(t) dt = "
            "int_{g'_k}^{y_k + nu - g_k + g'_k} l_2(t + g_k - g'_k) dt for every function l_2",
      source=S_THM, kind="identity",
      lhs=sp.Integral(l2(t), (t, g, y + nu)),
      rhs=sp.Integral(l2(t + _shift_t), (t, gp, y + nu - g + gp)),
      proof=lambda c: conclude_shift(c, (t, _shift_t)),
      note="The printed l_2(t^) with t^ = t + g_k - g'_k and the integral kept in t (reading pd.reading.hat_variables). "
           "The translation rule for integrals; no property of l_2 is used.")

claim(id="pd.at.substitution_query",
      title="Théorème 2.1.0.1, proof, both changes of variables: int l_4(nu) int_{g_k}^{y_k + nu} l_2(t) dt dnu = "
            "int l_4(nu^) int_{g'_k}^{y'_k + nu} l_2(t^) dt dnu for all functions l_2, l_4",
      source=S_THM, kind="identity",
      lhs=sp.Integral(l4(nu) * sp.Integral(l2(t), (t, g, y + nu)), (nu, -sp.oo, sp.oo)),
      rhs=sp.Integral(l4(nu + _shift_nu) * sp.Integral(l2(t + _shift_t), (t, gp, yp + nu)), (nu, -sp.oo, sp.oo)),
      proof=lambda c: conclude_shift(c, (nu, _shift_nu), (t, _shift_t)),
      note="t^ = t + g_k - g'_k and nu^ = nu + g_k - g'_k + y'_k - y_k (the second change of variables). "
           "Both translations of the printed proof, composed: the limits g'_k and y'_k + nu are those of D', and "
           "only the arguments of the densities carry the shifts.")

# == the triangle inequality on the Laplace log-densities ===================================================
z, u1, u2 = sp.symbols("z u_1 u_2", real=True)
b = sp.Symbol("b", positive=True)
_w = sp.Symbol("w", nonnegative=True)
_ORDERED = Parametrization({u2: u1 + _w}, {_w: u2 - u1})


def _shift_proof(c):
    return all_of(cite("triangle_inequality", "| |z - u_1| - |z - u_2| | <= |u_2 - u_1|; checked piece by piece"),
                  conclude_cases(c, z, [u1, u2], param=_ORDERED))


for _id, _lhs, _side, _other in (("pd.at.laplace_shift", sp.Abs(z - u1) - sp.Abs(z - u2), "u_1", "u_2"),
                                 ("pd.at.laplace_shift_reverse", sp.Abs(z - u2) - sp.Abs(z - u1), "u_2", "u_1")):
    claim(id=_id,
          title="Théorème 2.1.0.1, proof, the triangle-inequality step: "
                f"(|z - {_other}| - |z - {_side}|)/b <= (u_2 - u_1)/b for every real z, u_1 <= u_2, b > 0",
          source=S_THM, kind="inequality", lhs=-_lhs / b, rhs=(u2 - u1) / b, relation="<=",
          conditions=(sp.Le(u1, u2),), proof=_shift_proof,
          note=f"For the Laplace density l_b(x) = e^{{-|x|/b}}/(2b) of scale b the left-hand side is ln l_b(z - {_side}) - "
               f"ln l_b(z - {_other}), so l_b(z - {_side}) <= e^{{|u_2 - u_1|/b}} l_b(z - {_other}): the shifted density "
               "is at most e^{|shift|/b} times the unshifted one. With z = t, the points 0 and -(g_k - g'_k) give the threshold step "
               "(b = 2/eps); with z = nu, 0 and -(g_k - g'_k + y'_k - y_k) the query step (b = 4/eps). Reading "
               "pd.reading.density_signs: the printed exponentials lost their minus signs.")

# == |g_k - g'_k| <= 1 =====================================================================================
yi, ypi, nui = sp.symbols("y_i y'_i nu_i", real=True)
_s1, _s2 = sp.Symbol("s_1", nonnegative=True), sp.Symbol("s_2", nonnegative=True)

claim(id="pd.at.max_shift",
      title="Théorème 2.1.0.1, proof, the shift of g_k: y_i + nu_i <= g'_k + 1 when y_i <= y'_i + 1 (sensitivity 1) "
            "and y'_i + nu_i <= g'_k (g'_k the maximum on D')",
      source=S_THM, kind="inequality", lhs=yi + nui, rhs=gp + 1, relation="<=",
      conditions=(sp.Le(yi, ypi + 1), sp.Le(ypi + nui, gp)),
      proof=lambda c: all_of(
          cite("maximum_below_common_bound", "every y_i + nu_i (i < k) is at most g'_k + 1, hence so is g_k"),
          conclude(c, Parametrization({yi: ypi + 1 - _s1, gp: ypi + nui + _s2},
                                      {_s1: ypi + 1 - yi, _s2: gp - ypi - nui}))),
      note="Each earlier noisy query on D is at most g'_k + 1; a maximum is at most a common bound (cited), so "
           "g_k <= g'_k + 1, and symmetrically g'_k <= g_k + 1: |g_k - g'_k| <= 1 (those two steps are not checked "
           "here). Reading pd.reading.max_shift_equals: the printed '1 = |g_k - g'_k|' is false in general (D = D' gives 0); "
           "the next step uses only the bound.")

# == the exponent budget and the integrand bound ===========================================================
A_, B_, C_ = (sp.Symbol(s, nonnegative=True) for s in ("A", "B", "C"))   # |g - g'|, |y' - y|, |g - g' + y' - y|
_a, _bb, _c = (sp.Symbol(s, nonnegative=True) for s in ("a", "beta", "c"))
_BUDGET = Parametrization({A_: 1 - _a, B_: 1 - _bb, C_: 2 - _a - _bb - _c}, {_a: 1 - A_, _bb: 1 - B_, _c: A_ + B_ - C_})

claim(id="pd.at.exponent_budget",
      title="Théorème 2.1.0.1, proof, the exponent budget: eps A/2 + eps C/4 <= eps when 0 <= A <= 1, 0 <= B <= 1 and "
            "0 <= C <= A + B",
      source=S_THM, kind="inequality", lhs=eps * A_ / 2 + eps * C_ / 4, rhs=eps, relation="<=",
      conditions=(sp.Le(A_, 1), sp.Le(B_, 1), sp.Le(C_, A_ + B_)),
      proof=lambda c: all_of(cite("triangle_inequality", "C <= A + B"), conclude(c, _BUDGET)),
      note="A = |g_k - g'_k|, B = |y'_k - y_k|, C = |g_k - g'_k + y'_k - y_k| (C <= A + B by the triangle inequality: "
           "the printed '2 >= |g_k - g'_k| + |y'_k - y_k| >= ...'). The two shifts then cost at most "
           "e^{eps A/2} e^{eps C/4} <= e^eps.")

Th, Nh, Tt, Nn = (sp.Symbol(s, nonnegative=True) for s in ("|t^|", "|nu^|", "|t|", "|nu|"))
_d1, _d2, _d3, _d4 = (sp.Symbol(f"d_{j}", nonnegative=True) for j in range(1, 5))
_INTEGRAND = Parametrization({Tt: Th + 1 - _d3 - _d1, Nn: Nh + 2 - _d4 - _d2, A_: 1 - _d3, C_: 2 - _d4},
                             {_d1: Th + A_ - Tt, _d2: Nh + C_ - Nn, _d3: 1 - A_, _d4: 2 - C_})

claim(id="pd.at.epsilon_dp",
      title="Théorème 2.1.0.1, proof, integrand bound: -eps|t^|/2 - eps|nu^|/4 <= eps - eps|t|/2 - eps|nu|/4 if "
            "|t| <= |t^| + A, |nu| <= |nu^| + C, A <= 1, C <= 2",
      source=S_THM, kind="inequality",
      lhs=-eps * Th / 2 - eps * Nh / 4, rhs=eps - eps * Tt / 2 - eps * Nn / 4, relation="<=",
      conditions=(sp.Le(Tt, Th + A_), sp.Le(Nn, Nh + C_), sp.Le(A_, 1), sp.Le(C_, 2)),
      proof=lambda c: all_of(cite("integral_monotonicity", "the integrand bound holds at every point of the region"),
                             cite("fubini_tonelli", "integrating the conditional bound over the earlier noises"),
                             conclude(c, _INTEGRAND)),
      note="This is ln l_2(t^) + ln l_4(nu^) <= eps + ln l_2(t) + ln l_4(nu), the log-densities without their "
           "constants: ln l_2(x) = -eps |x|/2 + ln(eps/4), ln l_4(x) = -eps |x|/4 + ln(eps/8). The conditions come "
           "from pd.at.laplace_shift, pd.at.max_shift and pd.at.exponent_budget. Integrated over the region of "
           "pd.at.substitution_query (monotonicity of the integral, cited) it gives P(A = k) <= e^eps P(A' = k) "
           "given the earlier noises, and integrated over them (Fubini, cited) Théorème 2.1.0.1 for every output "
           "k >= 0; those integrations are not checked here. Reading pd.reading.at_goal: the printed goal "
           "'P(A = k) <= P(A' = k)' lost its exp(eps). The output -1 is pd.at.output_minus_one; the events of "
           "Definition 1.2.0.2 follow by pd.def.events_from_outputs.")

_d5 = sp.Symbol("d_5", nonnegative=True)
claim(id="pd.at.output_minus_one",
      title="Théorème 2.1.0.1, the output -1 (left out by the printed proof), its integrand bound: "
            "-eps|t^|/2 <= eps/2 - eps|t|/2 when |t| <= |t^| + A, 0 <= A <= 1",
      source=S_THM, kind="inequality", lhs=-eps * Th / 2, rhs=eps / 2 - eps * Tt / 2, relation="<=",
      conditions=(sp.Le(Tt, Th + A_), sp.Le(A_, 1)),
      proof=lambda c: all_of(cite("integral_monotonicity", "the bound holds at every t >= g'_K"),
                             conclude(c, Parametrization({Tt: Th + 1 - _d5 - _d1, A_: 1 - _d5},
                                                         {_d1: Th + A_ - Tt, _d5: 1 - A_}))),
      note="The printed proof takes k in N. Given all K noises, A = -1 exactly when T^ >= g_K, so P(A = -1) = "
           "int_{g_K}^oo l_2, and only the threshold moves: the statement is ln l_2(t^) <= eps/2 + ln l_2(t) without "
           "the constants, and integrated (monotonicity, cited; not checked here) it gives "
           "P(A = -1) <= e^{eps/2} P(A' = -1).")

# == monotone queries: query noise Lap(2/eps) ===============================================================
Dq = sp.Symbol("d", nonnegative=True)      # y'_k - y_k in [0, 1]: every query moves up (the other way is symmetric)
_e1, _e2 = sp.Symbol("e_1", nonnegative=True), sp.Symbol("e_2", nonnegative=True)
_MONO = {"above": Parametrization({Dq: 1 - _e2}, {_e2: 1 - Dq}), "below": Parametrization({A_: 1 - _e1}, {_e1: 1 - A_})}
for _id, _shift, _sign, _case, _shift_text, _range in (
        ("pd.at.monotone_noise", Dq - A_, "d >= A", "above", "(d - A)", "0 <= A <= d <= 1"),
        ("pd.at.monotone_noise_below", A_ - Dq, "d <= A", "below", "(A - d)", "0 <= d <= A <= 1")):
    claim(id=_id,
          title=f"Not in the report: monotone queries with query noise Lap(2/eps), the case {_sign}: "
                f"eps A/2 + eps {_shift_text}/2 <= eps when {_range}",
          source=S_HM, kind="inequality", lhs=eps * A_ / 2 + eps * _shift / 2, rhs=eps, relation="<=",
          conditions=(sp.Le(A_, 1), sp.Le(Dq, 1)) + ((sp.Ge(Dq, A_),) if _shift == Dq - A_ else (sp.Le(Dq, A_),)),
          proof=lambda c, _case=_case: conclude(c, _MONO[_case]),
          note="Monotone queries: every query moves the same way between D and D', as cumulative counts do (Lyu, Su "
               "and Li, PVLDB 2017). If y'_i >= y_i for all i then A = g'_k - g_k is in [0, 1] and the query shift is "
               "d - A with d = y'_k - y_k in [0, 1] (not checked here); the two shifts cost eps A/2 + eps |d - A|/2. "
               "With the integrand bound of pd.at.epsilon_dp (scale 2/eps for both noises) this makes "
               "AboveThreshold eps-DP on monotone queries with half the query noise. Queries moving down are the "
               "mirror case. Without monotonicity the same argument gives only eps A/2 + eps C/2 <= 3 eps/2, and "
               "numeric.above_threshold_worst_case finds query vectors whose loss exceeds eps.")

# == readings and findings of Section 2.1 =================================================================
reading("pd.reading.at_neighbour", S_THM,
        printed="On pose alors A ... AboveThreshold(D, Q, T, epsilon) et A' ... AboveThreshold(D, Q, T, epsilon)",
        reading="A' = AboveThreshold(D', Q, T, epsilon)",
        why="The proof compares the runs on D and on D' (g'_k and y'_k are computed on D'); with D twice, A' = A.",
        claims=("pd.at.epsilon_dp",))
reading("pd.reading.at_goal", S_THM,
        printed="Montrons que P(A = k) <= P(A' = k)",
        reading="Montrons que P(A = k) <= exp(eps) P(A' = k)",
        why="The proof ends with '= exp(eps) P(A' = k)', and the bound without exp(eps) would make A and A' equal in "
            "law for every pair of neighbours.", claims=("pd.at.epsilon_dp",))
reading("pd.reading.interval_integral", S_THM,
        printed="P(A = k) = P(T^ in ]g_k, y_k + nu_k]) = int_R int_{g_k}^{y_k + nu} l_2(t) l_4(nu) dt dnu",
        reading="the inner integral is over the interval ]g_k, y_k + nu], empty (0) when y_k + nu <= g_k",
        why="It is the probability of the interval written in the line before. As an oriented integral it is "
            "negative when y_k + nu < g_k and the display would be false; the later steps bound the integrand "
            "pointwise, which bounds the integral only over a set (monotonicity).",
        alternatives="oriented integral: false (negative contributions)", claims=("pd.at.output_law",))
reading("pd.reading.hat_variables", S_THM,
        printed="t^ = t + g_k - g'_k ... int int_{g'_k}^{y_k + nu - g_k + g'_k} l_2(t^) l_4(nu) dt dnu",
        reading="t^ (and nu^) stand for the shifted arguments t + g_k - g'_k (nu + g_k - g'_k + y'_k - y_k) inside the "
                "densities; the integrals stay in t and nu, with the moved limits",
        why="The printed integrals keep 'dt dnu'. With t^ as the new integration variable the limits g'_k and "
            "y_k + nu - g_k + g'_k would belong to t^ = t - g_k + g'_k, the opposite shift, and the display would be "
            "false; read as printed (arguments shifted, variable kept) every line is an identity "
            "(pd.at.substitution_threshold, pd.at.substitution_query).",
        claims=("pd.at.substitution_threshold", "pd.at.substitution_query"))
reading("pd.reading.density_signs", S_THM,
        printed="exp(|t^| eps/2) exp(|nu^| eps/4) ... exp(|t^ - t| eps/2) exp(|t| eps/2) ...",
        reading="(eps/4) exp(-|t^| eps/2) (eps/8) exp(-|nu^| eps/4), and exp(|t^ - t| eps/2) exp(-|t| eps/2) ...",
        why="l_2 and l_4 are Laplace densities ('par définition de l_2 et l_4'); the minus signs are lost in every "
            "exponent of |t|, |t^|, |nu|, |nu^| but kept in none, while the shifts |t^ - t| rightly carry +; the "
            "constants eps/4 and eps/8 are dropped on both sides and return in the last display as l_2 l_4. As "
            "printed the integrals diverge.", claims=("pd.at.laplace_shift", "pd.at.epsilon_dp"))
reading("pd.reading.max_shift_equals", S_THM,
        printed="1 = |g_k - g'_k|", reading="1 >= |g_k - g'_k|",
        why="g_k = g'_k when D = D' or when the changed entry leaves the earlier queries unchanged; the next display "
            "uses only the bound (exp(|g_k - g'_k| eps/2) <= exp(eps/2)).", claims=("pd.at.max_shift",))
reading("pd.reading.threshold_density", S_THM,
        printed="l_2 la densité de la loi de LAPLACE de paramètre 2/eps ... int l_2(t)",
        reading="l_2(t) is the density of the noisy threshold T^ = T + Lap(2/eps), i.e. the Laplace density centred "
                "at T (or T = 0 after shifting every query by -T)",
        why="The integrals are over the values t of T^; no step depends on the centre.",
        claims=("pd.at.output_law",))
finding("pd.finding.at_conditioning", S_THM,
        "The proof fixes the earlier noises nu_i (i < k) and bounds the conditional probabilities; the theorem "
        "follows by integrating both sides over the nu_i (Fubini, monotonicity), a step the text leaves implicit. "
        "The neighbour's g'_k uses the same nu_i: the coupling that makes the shifts at most 1.",
        claims=("pd.at.epsilon_dp",))
finding("pd.finding.at_minus_one", S_THM,
        "The proof covers the outputs k in N only. The output -1 (no query above the threshold) needs its own "
        "line: only the threshold moves, and P(A = -1) <= e^{eps/2} P(A' = -1) (pd.at.output_minus_one).",
        claims=("pd.at.output_minus_one",))
finding("pd.finding.at_bound_tight", S_THM,
        "The constant e^eps of Théorème 2.1.0.1 cannot be lowered, and it is approached only with four queries or "
        "more. With y = (B, ..., B, -B) and y' = y + (1, ..., 1, -1) (K queries, threshold 0, eps = 1) the exact "
        "privacy loss (numeric.above_threshold_privacy_loss) is 0.977, 0.994 and 0.997 at B = 40, 160, 320 for "
        "K = 4, and 1 - 4e-6 at B = 40, within its error bound (3e-12) of 1 from B = 160, for K = 5; along this "
        "family it tends to K eps/4 for K <= 3, and the search numeric.above_threshold_worst_case finds nothing "
        "above 3 eps/4 for K = 3. No finite pair attains e^eps in these computations; that none can is an "
        "argument (the integrand bound of the proof is strict where the Laplace log-density ratio is below its "
        "maximum), not a verdict.",
        claims=("pd.at.epsilon_dp",))
finding("pd.finding.lap2_needs_monotone", S_HM,
        "Query noise Lap(2/eps) is not enough without monotonicity: with threshold 0 and eps = 1, the neighbours "
        "y = (0, 0, 0) and y' = (1, 1, -1), every query of sensitivity 1 but moving both ways, have exact privacy "
        "loss 1.153 > eps (numeric.above_threshold_privacy_loss with query_scale = 2/eps), and the search "
        "numeric.above_threshold_worst_case finds 1.488 eps at K = 3; for neighbours that move every query the same "
        "way the same search finds 0.988 eps, below eps as pd.at.monotone_noise proves for every K.",
        claims=("pd.at.monotone_noise",))
