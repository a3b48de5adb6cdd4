"""Shared symbols and sources of ``k-randomization`` (``003_6dfa2dbc38b4b249.txt``;
Zhilyaev and Zeber, K-Randomization, 2016)."""
from __future__ import annotations

import sympy as sp

DOC = "003_6dfa2dbc38b4b249.txt"

q = sp.Symbol("q", positive=True)            # lie probability, 0 < q < 1/2 (Section 2.1)
p = sp.Symbol("p", positive=True)            # truth probability p = 1 - q
n = sp.Symbol("n", integer=True, positive=True)   # records in the collection
m = sp.Symbol("m", integer=True, nonnegative=True)  # records equal to 1 (L = 1, Section 3.1)
s = sp.Symbol("s", integer=True, nonnegative=True)  # reported count of 1s
L = sp.Symbol("L", integer=True, positive=True)     # bits per record

# -- cited laws, with their formal statements (used by conclude_instance and conclude_laws) -------------------
from ..engine.core import citation  # noqa: E402
from ..engine.proofs import cited_form  # noqa: E402

citation("binomial_sum_all_terms", "Law of the sum of two independent binomial counts, summed over j = 0..s",
         "The number of successes in M independent trials, each a success with probability a, is Bin(M, a). If "
         "B_1 ~ Bin(M, a) and B_0 ~ Bin(K, b) are independent, P[B_1 + B_0 = s] = sum_{j=0}^{s} C(M, j) a^j "
         "(1 - a)^(M-j) C(K, s-j) b^(s-j) (1 - b)^(K-s+j) for every integer s >= 0 (the convolution of the two laws; "
         "C(K, i) = 0 for i > K).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), VI.2 (the binomial "
         "distribution) and XI.2 (convolutions).")
#: template symbols: M trials with success probability a (failure a' = 1 - a), K trials with b (b' = 1 - b)
BC_M, BC_K, BC_S, BC_J = sp.symbols("M_{bc} K_{bc} s_{bc} j_{bc}", integer=True, nonnegative=True)
BC_A, BC_A1, BC_B, BC_B1 = sp.symbols("a_{bc} a'_{bc} b_{bc} b'_{bc}", positive=True)
BC_P = sp.Symbol("P[B_1 + B_0 = s]", nonnegative=True)
cited_form("binomial_sum_all_terms", BC_P,
           sp.Sum(sp.binomial(BC_M, BC_J) * BC_A**BC_J * BC_A1**(BC_M - BC_J) * sp.binomial(BC_K, BC_S - BC_J)
                  * BC_B**(BC_S - BC_J) * BC_B1**(BC_K - BC_S + BC_J), (BC_J, 0, BC_S)),
           conditions=(sp.Eq(BC_A + BC_A1, 1), sp.Eq(BC_B + BC_B1, 1)))

citation("independent_sum_given_values", "Law of an independent sum, conditioning on the values of one term",
         "If Z and Y are independent random elements, Z takes the values z_1, ..., z_K and g maps z_j to the vector "
         "e_j, then P[g(Z) + Y = s] = sum_{j=1}^{K} P[Z = z_j] P[Y = s - e_j] for every s (the law of total "
         "probability over the events {Z = z_j}, and independence); with Y = 0 this is the law of g(Z), "
         "P[g(Z) = s] = sum_j P[Z = z_j] I(e_j = s).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), V.1 (total "
         "probability, (1.8)) and V.3-V.4 (independence); P. Billingsley, Probability and Measure, 3rd ed. (1995), "
         "Sec. 20 (independence, convolution).")
#: template: K values of Z; PZ_j = P[Z = z_j]; PY_j = P[Y = s - e_j]
IS_K = sp.Symbol("K_{is}", integer=True, positive=True)
IS_J = sp.Symbol("j_{is}", integer=True, positive=True)
IS_PZ = sp.IndexedBase(r"P[Z = z]", nonnegative=True)
IS_PY = sp.IndexedBase(r"P[Y = s - e]", nonnegative=True)
IS_P = sp.Symbol("P[g(Z) + Y = s]", nonnegative=True)
cited_form("independent_sum_given_values", IS_P, sp.Sum(IS_PZ[IS_J] * IS_PY[IS_J], (IS_J, 1, IS_K)))

citation("probability_monotone", "Monotonicity of probability",
         "If A is contained in B then P(A) <= P(B); in particular P[Z in B] >= P[Z = z] for every outcome z in B.",
         "P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 2 (probability measures, (2.5)).")
PM_Z = sp.Symbol("P[Z = z]", nonnegative=True)
PM_B = sp.Symbol(r"P[Z \in B]", nonnegative=True)
cited_form("probability_monotone", PM_B, PM_Z, ">=")

citation("bernoulli_trials_sequence", "Probability of a given outcome of independent Bernoulli trials",
         "In N independent trials, each a success with probability a, a given sequence of outcomes with k successes "
         "and N - k failures has probability a^k (1 - a)^(N - k).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), VI.1 (Bernoulli "
         "trials).")
BT_N, BT_K = sp.symbols("N_{bt} k_{bt}", integer=True, nonnegative=True)
BT_A, BT_A1 = sp.symbols("a_{bt} a'_{bt}", positive=True)
BT_P = sp.Symbol(r"P[(B_1, \dots, B_N) = b]", nonnegative=True)
cited_form("bernoulli_trials_sequence", BT_P, BT_A**BT_K * BT_A1**(BT_N - BT_K),
           conditions=(sp.Eq(BT_A + BT_A1, 1), sp.Le(BT_K, BT_N)))

citation("largest_ratio_over_events", "Largest ratio of two laws over events (mediant inequality)",
         "For finitely many pairs of laws (P_t, Q_t) on a finite set F with P_t(s) > 0 for every t and s in F: the "
         "largest Q_t(S)/P_t(S) over t and nonempty events S of F equals the largest Q_t(s)/P_t(s) over t and "
         "s in F. Each Q_t(S)/P_t(S) = sum_S Q_t(s) / sum_S P_t(s) is at most max_{s in S} Q_t(s)/P_t(s) (the "
         "ratio of sums, or mediant, inequality), and the event S = {s} attains Q_t(s)/P_t(s).",
         "G. H. Hardy, J. E. Littlewood, G. Polya, Inequalities, 2nd ed. (1952), Ch. II, Thm 1; C. Dwork, A. Roth, The "
         "Algorithmic Foundations of Differential Privacy (2014), Sec. 2.3 (pure differential privacy of a "
         "discrete release from its pointwise ratios).")
LR_EVENTS = sp.Symbol(r"\max_{t, S} Q_t(S)/P_t(S)", positive=True)
LR_POINTS = sp.Symbol(r"\max_{t, s} Q_t(s)/P_t(s)", positive=True)
LR_MIN = sp.Symbol(r"\min_{t, s} P_t(s)", positive=True)
cited_form("largest_ratio_over_events", LR_EVENTS, LR_POINTS, conditions=(sp.Gt(LR_MIN, 0),))

citation("probability_additive_outcomes", "Probability of an event as the sum over its outcomes",
         "If a discrete random element Z takes values in a finite set and the event B consists of the distinct "
         "outcomes z_1, ..., z_M, then P[Z in B] = sum_{r=1}^{M} P[Z = z_r] (finite additivity); in particular "
         "P[g(Z) = s] is the sum of P[Z = z] over the z with g(z) = s.",
         "P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 2 (finite additivity) and Sec. 5 (simple "
         "random variables); W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. "
         "(1968), I.7 and IX.1.")
PA_M = sp.Symbol("M_{pa}", integer=True, nonnegative=True)
PA_R = sp.Symbol("r", integer=True, positive=True)           # index of the outcomes of the event
PA_PZ = sp.IndexedBase("P[Z = z]", nonnegative=True)
PA_P = sp.Symbol(r"P[Z \in \{z_1, \dots, z_M\}]", nonnegative=True)
cited_form("probability_additive_outcomes", PA_P, sp.Sum(PA_PZ[PA_R], (PA_R, 1, PA_M)))

citation("quantile_order", "Quantiles of ordered distribution functions",
         "For a distribution function F and alpha in (0, 1], the quantile tau_F(alpha) = inf{y : F(y) >= alpha}, "
         "where finite, satisfies F(tau_F(alpha)) >= alpha (F is right-continuous), and F(y) >= alpha implies "
         "y >= tau_F(alpha). Hence if F(y) <= G(y + c) for every real y (c a real constant), then "
         "tau_F(alpha) >= tau_G(alpha) - c: alpha <= F(tau_F) <= G(tau_F + c).",
         "P. Embrechts, M. Hofert, A note on generalized inverses, Math. Methods Oper. Res. 77 (2013) 423-432, "
         "Proposition 1; M. Shaked, J. G. Shanthikumar, Stochastic Orders (2007), Sec. 1.A.1.")
QO_TF, QO_TG = sp.Symbol(r"\tau_F(\alpha)", real=True), sp.Symbol(r"\tau_G(\alpha)", real=True)
QO_C, QO_GAP = sp.Symbol("c", real=True), sp.Symbol(r"\sup_y [F(y) - G(y + c)]", real=True)
QO_ALPHA = sp.Symbol(r"\alpha", positive=True)
cited_form("quantile_order", QO_TF, QO_TG - QO_C, ">=", conditions=(sp.Le(QO_GAP, 0), sp.Le(QO_ALPHA, 1)))
