"""Sections 2.2.1-2.2.2: HistogramMethod, its privacy (Théorème 2.2.1.1), the accuracy lemma of
AboveThreshold (Lemme 2.2.1.1, after Dwork and Roth 2014, Theorem 3.24) and its cost.

Source: ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``; Canesse, 2022), Sections 2.2.1-2.2.2.

The method as intended: the grid g_j = a + j (b - a)/steps (j = 1..steps), the cumulative counts
f_j(x) = #{x_l < g_j} as queries (sensitivity 1, ``pd.def.count_sensitivity``), and for each decile
d = 1..9 one AboveThreshold at eps/9 with threshold d n / 10; the estimate is the grid point of the
first count above the noisy threshold.  The printed pseudo-code departs from this in ways recorded as
findings (``numeric.histogram_deciles`` implements the intended method).
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Source, all_of, cite, citation, claim, finding, reading
from ..engine.notation import defined
from ..engine.proofs import Parametrization, conclude
from .common import DOC, eps, laplace_density

S_HM = Source(DOC, "Section 2.2.1, the pseudo-code of HistogramMethod and Théorème 2.2.1.1")
S_LEMMA = Source(DOC, "Section 2.2.1, Lemme 2.2.1.1 and its proof")
S_COST = Source(DOC, "Section 2.2.2, Analyse de complexité")

citation("basic_composition", "Basic composition of differential privacy",
         "Running mechanisms that are eps_1-, ..., eps_m-DP (each on the same database, with independent "
         "randomness, possibly chosen adaptively) is (eps_1 + ... + eps_m)-DP.",
         "C. Dwork, A. Roth, The Algorithmic Foundations of Differential Privacy (2014), Thm 3.16.")
citation("union_bound", "Union bound (Boole's inequality)",
         "P(E_1 or ... or E_m) <= P(E_1) + ... + P(E_m); hence P(all complements) >= 1 - sum P(E_j).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), IV.1.")

d = sp.Symbol("d", integer=True, positive=True)
steps = sp.Symbol("k", integer=True, positive=True)       # the number of queries ('steps', called k)

# the nine calls: p_d = P(A_d = k_d | x), q_d = P(A_d = k_d | x') for neighbours x, x' and an output k_d of the d-th
_p_call = tuple(sp.Symbol(f"p_{i}", positive=True) for i in range(1, 10))
_q_call = tuple(sp.Symbol(f"q_{i}", positive=True) for i in range(1, 10))
_v_call = tuple(sp.Symbol(f"v_{i}", nonnegative=True) for i in range(1, 10))
# independent noise, queries fixed in advance: the law of the nine outputs is the product of theirs, so the log of
# the ratio of the joint probabilities is the sum of the calls' log-ratios
_JOINT_LOSS = defined(r"\ln[\Pr(A = k \mid x) / \Pr(A = k \mid x')]",
                      sp.Add(*(sp.log(pd_) - sp.log(qd_) for pd_, qd_ in zip(_p_call, _q_call))))

claim(id="pd.hm.composition",
      title="Théorème 2.2.1.1, proof, composition of the nine calls (independent noise in each call, queries fixed in "
            "advance, neighbours x, x' of the same size): ln[P(A = k | x)/P(A = k | x')] = sum_d (ln p_d - ln q_d) <= "
            "eps if ln p_d - ln q_d <= eps/9 for d = 1..9",
      source=S_HM, kind="inequality", lhs=_JOINT_LOSS, rhs=eps, relation="<=",
      conditions=tuple(sp.Le(sp.log(pd_) - sp.log(qd_), eps / 9) for pd_, qd_ in zip(_p_call, _q_call)),
      proof=lambda c: conclude(c, Parametrization(
          {pd_: qd_ * sp.exp(eps / 9 - vd_) for pd_, qd_, vd_ in zip(_p_call, _q_call, _v_call)},
          {vd_: eps / 9 - sp.log(pd_) + sp.log(qd_) for pd_, qd_, vd_ in zip(_p_call, _q_call, _v_call)})),
      note="p_d = P(A_d = k_d | x) > 0 and q_d = P(A_d = k_d | x'), A_d the output (a grid index) of the d-th call of "
           "AboveThreshold at eps/9, x and x' neighbours, A = (A_1, ..., A_9), k = (k_1, ..., k_9). The calls draw "
           "independent noise and their queries and thresholds do not depend on the earlier outputs, so the joint "
           "law is the product of the nine and its log-ratio the sum of theirs (the definition of the left side). "
           "ln p_d - ln q_d <= eps/9 is Théorème 2.1.0.1 at eps/9 (pd.at.epsilon_dp; the counts have sensitivity 1, "
           "pd.def.count_sensitivity). With p_d = q_d e^{eps/9 - v_d}, v_d >= 0, the difference of the two sides "
           "is -(v_1 + ... + v_9). An output with some p_d = 0 has probability 0 under x; summed over the output "
           "tuples of a set S the bound gives P(HistogramMethod(x) in S) <= e^eps P(HistogramMethod(x') in S): the "
           "basic composition the proof invokes, here for nine non-adaptive calls with discrete outputs. It holds "
           "for the printed pseudo-code too, whose query list grows from call to call without depending on the "
           "outputs (pd.finding.hm_pseudocode). The hypotheses, stated in the title: (i) each call of AboveThreshold "
           "draws its own Laplace noise, independent of the other calls'; (ii) the queries of every call are fixed "
           "in advance (non-adaptive); (iii) x and x' have the same size, as Définition 1.2.0.1 defines neighbours "
           "by Hamming distance <= 1: the threshold T = d card(x)/10 depends on the size, and the proof's step 'the "
           "queries have sensitivity 1, so each call is eps/9-DP' treats T as the same for x and x'. Under "
           "add/remove neighbours T moves with the data and that step needs another argument (the shifted queries "
           "f_i - T then change by at most 9/10, as f_i and T move the same way).")

# == Lemme 2.2.1.1 ==========================================================================================
x = sp.Symbol("x", nonnegative=True)
x_pos = sp.Symbol("x", positive=True)
tt = sp.Symbol("t", real=True)
beta = sp.Symbol("beta", positive=True)
# the printed alpha, k the number of queries; kept as the paper's notation, the engine unfolds it
alpha = defined(r"\alpha", 8 * (sp.log(steps) + sp.log(2 / beta)) / eps)

claim(id="pd.hm.laplace_tail",
      title="Lemme 2.2.1.1, proof: for X ~ Lap(2/eps), P(|X| >= x) = int_x^oo l_2 + int_{-oo}^{-x} l_2 = "
            "e^{-eps x/2}, x > 0",
      source=S_LEMMA, kind="identity",
      lhs=sp.Integral(laplace_density(tt, 2 / eps), (tt, x_pos, sp.oo))
      + sp.Integral(laplace_density(tt, 2 / eps), (tt, -sp.oo, -x_pos)),
      rhs=sp.exp(-eps * x_pos / 2),
      note="l_2(t) = (eps/4) e^{-eps |t|/2}, the density of the threshold noise. At x = alpha/2 this is the printed "
           "e^{-eps alpha/4}. Checked for the scale 2/eps only; a query noise (scale 4/eps) is the same computation "
           "with eps/2 in place of eps, giving e^{-eps alpha/8}.")

# beta^2/(4k^2) - beta/2 = -beta (2(k^2 - 1) + beta (1 + 2(1/beta - 1)))/(4k^2): both terms in the bracket >= 0
_CERT = -beta * (2 * (steps**2 - 1) + beta * (1 + 2 * (1 / beta - 1))) / (4 * steps**2)

claim(id="pd.hm.threshold_tail",
      title="Lemme 2.2.1.1, proof: e^{-eps alpha/4} <= beta/2 for alpha = 8(log k + log(2/beta))/eps, k >= 1, "
            "0 < beta < 1",
      source=S_LEMMA, kind="inequality", lhs=sp.exp(-eps * alpha / 4), rhs=beta / 2, relation="<=",
      conditions=(sp.Lt(beta, 1),),
      proof=lambda c: conclude(c, Parametrization({beta: 1 / (1 + x)}, {x: 1 / beta - 1}),
                               certificate=_CERT),
      note="e^{-eps alpha/4} = (beta/(2k))^2 is P(|T - T^| >= alpha/2) for the threshold noise (pd.hm.laplace_tail at "
           "x = alpha/2). The certificate (beta/(2k))^2 - beta/2 = beta (beta - 2k^2)/(4k^2) < 0 since beta < 1 <= 2k^2.")

claim(id="pd.hm.query_tail",
      title="Lemme 2.2.1.1, proof: k e^{-eps alpha/8} = beta/2 for alpha = 8(log k + log(2/beta))/eps "
            "(printed 'k exp(-(-alpha eps)/8) = ... = (k/k) beta/2')",
      source=S_LEMMA, kind="identity", lhs=steps * sp.exp(-eps * alpha / 8), rhs=beta / 2,
      note="The statement keeps alpha as the paper writes it; the engine unfolds it before its check. k e^{-eps alpha/8} "
           "is the union bound sum_{i=1}^{k} P(|nu_i| >= alpha/2) over the k query noises of scale 4/eps (not checked "
           "here). Reading pd.reading.query_tail_sign (the double minus). The sum runs over the k queries i = 1..k, as "
           "printed; with 0-based indices i <= k it would have k + 1 terms.")

claim(id="pd.hm.accuracy_lemma",
      title="Lemme 2.2.1.1, proof, last step: 1 - k e^{-eps alpha/8} - e^{-eps alpha/4} >= 1 - beta for "
            "alpha = 8(log k + log(2/beta))/eps, k >= 1, 0 < beta < 1",
      source=S_LEMMA, kind="inequality",
      lhs=1 - steps * sp.exp(-eps * alpha / 8) - sp.exp(-eps * alpha / 4), rhs=1 - beta, relation=">=",
      conditions=(sp.Lt(beta, 1),),
      proof=lambda c: all_of(cite("union_bound", "the complement of the event is the union of the k + 1 tail events"),
                             conclude(c, Parametrization({beta: 1 / (1 + x)}, {x: 1 / beta - 1}),
                                      certificate=-_CERT)),
      note="By the union bound (cited) the left-hand side is a lower bound on P(max_i |nu_i| < alpha/2 and "
           "|T - T^| < alpha/2), which gives (1) of the proof, P >= 1 - beta. "
           "Reading pd.reading.accuracy_k: k is the number of queries (Dwork and Roth 2014, Thm 3.24), not the output "
           "of AboveThreshold as printed. On this event the lemma's conclusion follows: pd.hm.accuracy_reduction.")

T_, Th_, val, al = sp.symbols("T T^ v alpha", real=True)
_r1, _r2, _r3 = (sp.Symbol(f"r_{j}", nonnegative=True) for j in (1, 2, 3))
_rp = sp.Symbol("r", positive=True)
claim(id="pd.hm.accuracy_reduction",
      title="Lemme 2.2.1.1, proof: v < T + alpha when v <= T^, T^ <= T + r and 0 <= r < alpha (v = f_i(x) + nu_i of "
            "a query that did not fire, r = |T - T^|)",
      source=S_LEMMA, kind="inequality", lhs=val, rhs=T_ + al, relation="<",
      conditions=(sp.Le(val, Th_), sp.Le(Th_, T_ + _r3), sp.Lt(_r3, al)),
      proof=lambda c: conclude(c, Parametrization({val: T_ + _r3 - _r2 - _r1, Th_: T_ + _r3 - _r2, al: _r3 + _rp},
                                                  {_r1: Th_ - val, _r2: T_ + _r3 - Th_, _rp: al - _r3})),
      note="v = f_i(x) + nu_i; r = r_3 = |T - T^|. The firing query is the mirror case, f_k(x) + nu_k > T^ >= "
           "T - |T - T^| > T - alpha (not checked separately). Only the threshold noise is used: the statement of the lemma is "
           "about the noisy values f_i(x) + nu_i, while the proof's displays bound the values y_i with |nu_i| "
           "(pd.finding.accuracy_statement).")

claim(id="pd.hm.complexity",
      title="Section 2.2.2, the count of count-queries of the printed pseudo-code (d k at the d-th call): "
            "sum_{d=1}^{9} d k = 45 k",
      source=S_COST, kind="identity", lhs=sp.Sum(d * steps, (d, 1, 9)), rhs=45 * steps,
      note="The printed pseudo-code never clears its query list, so the d-th call evaluates d k counts, 45 k counts "
           "of O(n) each in all, against 9 k for the intended method: O(n k) either way, as printed. "
           "All steps cumulative counts come from one sort, O(n log n + k), then O(k) per decile: the cost of "
           "numeric.histogram_deciles.")

# == readings and findings ==================================================================================
reading("pd.reading.accuracy_k", S_LEMMA,
        printed="en posant alpha = 8(log(k) + log(2/beta))/eps et k = AboveThreshold(x, Q, T, epsilon)",
        reading="k is the number of queries (the length of Q)",
        why="With k the (random) output, alpha would be random and log k undefined for the outputs 0 and -1. The "
            "proof sums k tail probabilities of the query noises (one per query), Dwork and Roth (2014, Thm 3.24) "
            "state the lemma for k queries, and Théorème 2.2.3.1 takes k = steps.",
        claims=("pd.hm.accuracy_lemma", "pd.hm.query_tail", "pd.hm.threshold_tail"))
reading("pd.reading.query_tail_sign", S_LEMMA,
        printed="k exp(-(-alpha eps)/8)", reading="k exp(-alpha eps/8)",
        why="A Laplace(4/eps) tail at alpha/2 is exp(-alpha eps/8); the next expression, exp(-log k - log(2/beta)), "
            "has the single minus.", claims=("pd.hm.query_tail",))
reading("pd.reading.hm_grid", S_HM,
        printed="fi = x -> card({element in x | element < i*(b-a)/steps})",
        reading="f_i(x) = #{x_l < a + i (b - a)/steps}",
        why="'L'algorithme découpe alors l'intervalle [a, b] en steps intervalles de même tailles': the grid starts at "
            "a; as printed it starts at 0 and matches only for a = 0 (the paper's figure has a = 0).",
        claims=("pd.hm.composition",))
finding("pd.finding.hm_pseudocode", S_HM,
        "The printed pseudo-code of HistogramMethod departs from the method its text describes: (1) the list "
        "`queries` is never cleared, so the d-th call of AboveThreshold receives the grid's counts d times over, and "
        "an estimate can run past b when no count of the first pass fires; (2) the threshold T is assigned twice; "
        "(3) the result `AboveThreshold(...) * (b-a)/steps` omits the offset a and the shift from the 0-based "
        "output to the grid point (k + 1)(b - a)/steps, and maps the output -1 to -(b - a)/steps; (4) `epsilon /= 9` "
        "divides the budget once for all nine calls, as composition requires. (1)-(3) change the accuracy, not the "
        "privacy. numeric.histogram_deciles implements the method as described.",
        claims=("pd.hm.composition", "pd.hm.complexity"))
finding("pd.finding.accuracy_statement", S_LEMMA,
        "Lemme 2.2.1.1 states its event for the noisy values f_i(x) + nu_i, for which the threshold noise alone "
        "suffices (pd.hm.accuracy_reduction); its proof bounds the values f_i(x) themselves (y_i <= T^ + |nu_i|), "
        "the form of Dwork and Roth (2014, Thm 3.24), for which the query noises are needed. Both hold on the "
        "event of pd.hm.accuracy_lemma. The lemma's alpha is in units of the queries (counts): Théorème 2.2.3.1 "
        "uses it with eps although each call runs at eps/9.",
        claims=("pd.hm.accuracy_lemma", "pd.hm.accuracy_reduction"))
