"""Result 10: the Horvitz-Thompson estimate conditional on the selection of one unit.

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``), Section 2.4, Result 10 and its proof.

For a unit i with p_i not in {0, 1}, with I_j = 1{j in S},

    p_{j|i} = p_ij/p_i,            p_{j|-i} = (p_j - p_ij)/(1 - p_i),
    p_{jl|i} = p_ijl/p_i,          p_{jl|-i} = (p_jl - p_ijl)/(1 - p_i),
    t_{-i|i}(x) = sum_{j != i} x_j p_{j|i}/p_j,   t_{-i|-i}(x) = sum_{j != i} x_j p_{j|-i}/p_j,
    s2_{-i|i}(x) = sum_{j,l != i} x_j x_l/(p_j p_l) (p_{jl|i} - p_{j|i} p_{l|i})   (likewise |-i),

    E[t(X,S) | i in S, X = x]  = t_{-i|i}(x) + x_i/p_i,   Var[t(X,S) | i in S, X = x]  = s2_{-i|i}(x),
    E[t(X,S) | i not in S, X = x] = t_{-i|-i}(x),        Var[t(X,S) | i not in S, X = x] = s2_{-i|-i}(x).

Joint inclusion probabilities are those of sets: p_ijj = P({i, j} in S) = p_ij and p_jj = p_j.

Two kinds of claims, both for a general design:

* the conditional probabilities and covariances of the indicators that the statement and the proof print
  (p_{j|-i} = E[I_j | I_i = 0] = (p_j - p_ij)/(1 - p_i), Cov[I_j, I_l | I_i = 1] = p_{jl|i} - p_{j|i} p_{l|i}, ...)
  are proved on the generic joint law of (I_i, I_j, I_l): eight outcome probabilities, seven of them free
  (zeros allowed, which covers j = l), which is the law of these indicators under any design;
* the four moments are proved for a design on N = M + 1 units with M symbolic: the units other than i are
  numbered 1..M, the conditional moments of t(x, S) = x_i I_i/p_i + sum_j x_j I_j/p_j are expanded by
  linearity of expectation (cited) into the joint inclusion probabilities, and SymPy checks the printed closed
  forms against that expansion with the sums over the symbolic index set kept as sums.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, cite, finding, reading, register
from ..engine.notation import defined
from ..engine.proofs import conclude

R10 = Source("000_3f4b38deb4c4e7bd.txt", "Section 2.4, Result 10 and its proof")

LINEARITY = "linearity_conditional_expectation"
# -- readings and findings of Section 2.4 -------------------------------------------------------------------
reading(
    "htm.r10.statement", R10,
    printed="E[i(X,5) i€ 8 X =a] =t_y(x)+ =, Var[i(X,9)|ie8X=a] =0, ... E[H(X,9)|SZi, X =x] =t_(z) "
            "Var [{(X,9) | S Fi,X =z] = ozﬂ_i(:v).",
    reading="E[t(X,S) | i in S, X = x] = t_{-i|i}(x) + x_i/p_i, Var[t(X,S) | i in S, X = x] = sigma^2_{-i|i}(x), "
            "E[t(X,S) | S not ni i, X = x] = t_{-i|-i}(x), Var[t(X,S) | S not ni i, X = x] = sigma^2_{-i|-i}(x)",
    why="The quantities defined just below are t_{-i|i}, t_{-i|-i}, sigma^2_{-i|i}, sigma^2_{-i|-i}, and the proof "
        "ends each computation with them ('= t_{-i|-i}(x)', 'Uzuz‘@)' = sigma^2_{-i|i}(x), 'O—zi\\—i(m)' = "
        "sigma^2_{-i|-i}(x)); '+ =,' is the damaged x_i/p_i of the proof's first line ('x_i/p_i + sum ... car "
        "p_ii = 1').",
    alternatives="'Var[...|i in S] = 0' taken literally is false: under SRS of 2 among 4 with x = (1, 0, 1, 0) and "
                 "i = 1, t(x, S) given 1 in S is 2 + 2 x_j for the other sampled unit j, which is not constant. It "
                 "contradicts the proof's own last line, so it is an OCR artefact, not an erratum.",
    claims=("htm.r10.mean_in", "htm.r10.var_in", "htm.r10.mean_out", "htm.r10.var_out"))
reading(
    "htm.r10.conditional_probabilities", R10,
    printed="Di,j bj — Dij =B =1 =P =B | =0 =2 \"Pu Dj| [; | ] s Dj| [£; | ] 1—ps ... pigi = E[LL | 1 =1] = Bt "
            "pig—i = B[LI | I; = 0] = Dt~ gt / bi 1T —p;",
    reading="p_{j|i} = E[I_j | I_i = 1] = p_ij/p_i, p_{j|-i} = E[I_j | I_i = 0] = (p_j - p_ij)/(1 - p_i), "
            "p_{jl|i} = E[I_j I_l | I_i = 1] = p_ijl/p_i, p_{jl|-i} = E[I_j I_l | I_i = 0] = (p_jl - p_ijl)/(1 - p_i)",
    why="The numerators 'Di,j' (p_{i,j}) and 'bj — Dij' (p_j - p_ij) and the denominators 'bi' (p_i) and '1—ps', "
        "'1T —p;' (1 - p_i) are legible, as are the conditioning events '| I_i = 1', '| I; = 0'; the proof uses "
        "the same forms ('x_j (p_j - p_ij)/(1 - p_i)' in the mean given i not in S). Each reading is proved for "
        "every design (htm.r10.pj_given_in ... htm.r10.pjl_given_out).",
    claims=("htm.r10.pj_given_in", "htm.r10.pj_given_out", "htm.r10.pjl_given_in", "htm.r10.pjl_given_out"))
reading(
    "htm.r10.index_sets", R10,
    printed="jeun{iy ... jany ... G eet\\{i} ... Jreet\\{i} ... jecungiy ... jeauiy",
    reading="j in U \\ {i} (the means), j, l in U \\ {i} (the variances), including j = l",
    why="'\\{i}' and 'un{i' are legible; the remark that the quantities indexed by -i do not depend on x_i needs the "
        "sums to exclude i. Pairs with j = l are kept (the double sum of the variance of a sum), with p_{jj|i} = "
        "p_{j|i} since p_ijj is the inclusion probability of the set {i, j}.",
    claims=("htm.r10.var_in", "htm.r10.var_out", "htm.r10.free_of_x_i"))
reading(
    "htm.r10.car_p_ii", R10,
    printed="Z; X - D T Z _jpﬂz’ car p;; = 1",
    reading="x_i/p_i + sum_{j in U \\ {i}} x_j p_{j|i}/p_j, car p_{i|i} = 1",
    why="Unit i contributes (x_i/p_i) E[I_i | I_i = 1] = x_i/p_i; 'p;; = 1' is p_{i|i} = P(i in S | i in S) = 1. "
        "Read literally as p_ii = 1, it would say p_i = 1, which Result 10 excludes.",
    alternatives="'car p_ii = p_i' (the joint inclusion probability of {i, i}) gives the same term.",
    claims=("htm.r10.mean_in",))
finding(
    "htm.s24.gaussian_not_given", R10,
    "Section 2.4 is titled 'Additinal Gaussian privacy mechanism' but contains only Result 10 (conditional mean and "
    "variance of the Horvitz-Thompson estimate given the selection of one unit); no Gaussian mechanism is defined "
    "or analysed in it, and the paper moves on to its Discussion.",
    claims=("htm.r10.mean_in", "htm.r10.var_in", "htm.r10.mean_out", "htm.r10.var_out"))

# -- the generic joint law of (I_i, I_j, I_l) -----------------------------------------------------------------
OUTCOMES = list(itertools.product((0, 1), repeat=3))            # (I_i, I_j, I_l)
_q = {o: sp.Symbol("q_{" + "".join(map(str, o)) + "}", nonnegative=True) for o in OUTCOMES if o != (0, 0, 0)}
LAW = dict(_q)
LAW[(0, 0, 0)] = 1 - sum(_q.values())                           # normalisation


def prob(event) -> sp.Expr:
    """P(event) under the generic law; ``event`` is a predicate on the outcome (I_i, I_j, I_l)."""
    return sum((LAW[o] for o in OUTCOMES if event(o)), sp.Integer(0))


def cond_mean(f, given: int) -> sp.Expr:
    """E[f(I_j, I_l) | I_i = given], from the definition (sum over the outcomes with I_i = given)."""
    return sum((LAW[o] * f(o[1], o[2]) for o in OUTCOMES if o[0] == given), sp.Integer(0)) / prob(
        lambda o: o[0] == given)


P_I, P_J, P_L = prob(lambda o: o[0]), prob(lambda o: o[1]), prob(lambda o: o[2])
P_IJ, P_IL, P_JL = prob(lambda o: o[0] and o[1]), prob(lambda o: o[0] and o[2]), prob(lambda o: o[1] and o[2])
P_IJL = prob(lambda o: o[0] and o[1] and o[2])
LAW_CONDITIONS = (sp.Gt(P_I, 0), sp.Lt(P_I, 1))                  # p_i not in {0, 1}

# the printed conditional probabilities, from the inclusion probabilities
PJ_GIVEN_IN, PL_GIVEN_IN = P_IJ / P_I, P_IL / P_I
PJ_GIVEN_OUT, PL_GIVEN_OUT = (P_J - P_IJ) / (1 - P_I), (P_L - P_IL) / (1 - P_I)
PJL_GIVEN_IN = P_IJL / P_I
PJL_GIVEN_OUT = (P_JL - P_IJL) / (1 - P_I)


def _law_claim(id_: str, title: str, lhs, rhs, note: str) -> Claim:
    return register(Claim(id=id_, title=title, source=R10, kind="identity", lhs=lhs, rhs=rhs,
                          conditions=LAW_CONDITIONS, proof=conclude,
                          note=note + " The generic law of (I_i, I_j, I_l): seven free outcome probabilities "
                                      "(zeros allowed, so j = l is the case q_{a01} = q_{a10} = 0)."))


# the paper's notation: each quantity is a notation node that means its expression in the generic law, so a
# statement is stored as printed (E[I_j | I_i = 1] = p_ij/p_i) and the engine unfolds both sides before it checks
def _E(what: str, given: int, f) -> sp.Expr:
    """E[what | I_i = given], from the definition (sum over the outcomes with I_i = given)."""
    return defined(rf"\mathbb{{E}}[{what} \mid I_i = {given}]", cond_mean(f, given))


p_i_, p_j_, p_l_ = defined("p_i", P_I), defined("p_j", P_J), defined("p_l", P_L)
p_ij_, p_il_, p_jl_ = defined("p_{ij}", P_IJ), defined("p_{il}", P_IL), defined("p_{jl}", P_JL)
p_ijl_ = defined("p_{ijl}", P_IJL)
pj_in = defined(r"p_{j|i}", PJ_GIVEN_IN)
pl_in = defined(r"p_{l|i}", PL_GIVEN_IN)
pj_out = defined(r"p_{j|-i}", PJ_GIVEN_OUT)
pl_out = defined(r"p_{l|-i}", PL_GIVEN_OUT)
pjl_in = defined(r"p_{jl|i}", PJL_GIVEN_IN)
pjl_out = defined(r"p_{jl|-i}", PJL_GIVEN_OUT)

_law_claim("htm.r10.pj_given_in",
           "Result 10, definitions (any design, 0 < p_i < 1): E[I_j | I_i = 1] = p_ij/p_i (the paper's p_{j|i})",
           _E("I_j", 1, lambda b, c: b), p_ij_ / p_i_,
           "E[I_j | I_i = 1] from the definition (the outcomes with I_i = 1, over P(I_i = 1)); p_ij = P(I_i = I_j = 1), "
           "p_i = P(I_i = 1). The paper defines p_{j|i} = E[I_j | I_i = 1] = p_ij/p_i; the checked equality is the "
           "second one.")
_law_claim("htm.r10.pj_given_out",
           "Result 10, definitions (any design, 0 < p_i < 1): E[I_j | I_i = 0] = (p_j - p_ij)/(1 - p_i) (the paper's "
           "p_{j|-i})",
           _E("I_j", 0, lambda b, c: b), (p_j_ - p_ij_) / (1 - p_i_),
           "E[I_j | I_i = 0] from the definition. The paper defines p_{j|-i} = E[I_j | I_i = 0] = (p_j - p_ij)/(1 - p_i); "
           "the checked equality is the second one.")
_law_claim("htm.r10.pjl_given_in",
           "Result 10, definitions (any design, 0 < p_i < 1): E[I_j I_l | I_i = 1] = p_ijl/p_i (the paper's p_{jl|i})",
           _E("I_j I_l", 1, lambda b, c: b * c), p_ijl_ / p_i_,
           "E[I_j I_l | I_i = 1] from the definition; p_ijl = P(I_i = I_j = I_l = 1). The paper defines p_{jl|i} = "
           "E[I_j I_l | I_i = 1] = p_ijl/p_i; the checked equality is the second one.")
_law_claim("htm.r10.pjl_given_out",
           "Result 10, definitions (any design, 0 < p_i < 1): E[I_j I_l | I_i = 0] = (p_jl - p_ijl)/(1 - p_i) (the "
           "paper's p_{jl|-i})",
           _E("I_j I_l", 0, lambda b, c: b * c), (p_jl_ - p_ijl_) / (1 - p_i_),
           "E[I_j I_l | I_i = 0] from the definition. The paper defines p_{jl|-i} = E[I_j I_l | I_i = 0] = "
           "(p_jl - p_ijl)/(1 - p_i); the checked equality is the second one.")


def _cov_definition(given: int) -> sp.Expr:
    """Cov[I_j, I_l | I_i = given] = E[(I_j - E[I_j|.])(I_l - E[I_l|.]) | I_i = given], from the definition."""
    mj, ml = cond_mean(lambda b, c: b, given), cond_mean(lambda b, c: c, given)
    return defined(rf"\operatorname{{Cov}}[I_j, I_l \mid I_i = {given}]",
                   cond_mean(lambda b, c: (b - mj) * (c - ml), given))


_law_claim("htm.r10.cov_given_in",
           "Proof of Result 10 (any design, 0 < p_i < 1): Cov[I_j, I_l | I_i = 1] = p_{jl|i} - p_{j|i} p_{l|i}",
           _cov_definition(1), pjl_in - pj_in * pl_in,
           "The covariance of the proof's variance line, from its definition E[(I_j - E[I_j|I_i=1])(I_l - "
           "E[I_l|I_i=1]) | I_i = 1], against the printed p_{.|i}: p_{j|i} = p_ij/p_i, p_{jl|i} = p_ijl/p_i.")
_law_claim("htm.r10.cov_given_out",
           "Proof of Result 10 (any design, 0 < p_i < 1): Cov[I_j, I_l | I_i = 0] = p_{jl|-i} - p_{j|-i} p_{l|-i}",
           _cov_definition(0), pjl_out - pj_out * pl_out,
           "The covariance of the proof's variance line, from its definition, against the printed p_{.|-i}: "
           "p_{j|-i} = (p_j - p_ij)/(1 - p_i), p_{jl|-i} = (p_jl - p_ijl)/(1 - p_i).")

# -- the four moments, for a design on N = M + 1 units ------------------------------------------------------
M = sp.Symbol("M", integer=True, positive=True)                 # the units other than i, numbered 1..M
j, l = sp.symbols("j l", integer=True, positive=True)
x = sp.IndexedBase("x", real=True)                               # x_j
p = sp.IndexedBase("p", positive=True)                           # p_j, and p_jl = p[j, l]
p_with_i = sp.IndexedBase("p^{(i)}", positive=True)             # p_ij = p_with_i[j], p_ijl = p_with_i[j, l]
x_i = sp.Symbol("x_i", real=True)
p_i = sp.Symbol("p_i", positive=True)
MOMENT_CONDITIONS = (sp.Lt(p_i, 1),)


def _sum(expr, k) -> sp.Sum:
    return sp.Sum(expr, (k, 1, M))


def weight(k) -> sp.Expr:
    """x_k/p_k, the Horvitz-Thompson weight of unit k (k = None for unit i)."""
    return x_i / p_i if k is None else x[k] / p[k]


def joint_with_event(units, inside: bool) -> sp.Expr:
    """P(every unit of ``units`` in S, and A), A = {i in S} (inside) or {i not in S}; None stands for unit i.

    P(B, i in S) is the inclusion probability of B + {i}; P(B, i not in S) = P(B) - P(B, i in S)."""
    others = [k for k in units if k is not None]
    with_i = p_i if not others else p_with_i[others[0]] if len(others) == 1 else p_with_i[others[0], others[1]]
    if inside:
        return with_i
    if None in units:                       # B contains i: P(B) = P(B + {i})
        return with_i - with_i
    alone = p[others[0]] if len(others) == 1 else p[others[0], others[1]]
    return alone - with_i


def event_mass(inside: bool) -> sp.Expr:
    return p_i if inside else 1 - p_i


def conditional_mean(inside: bool, k) -> sp.Expr:
    """E[t(x, S) | A] = E[t 1_A]/P(A), t = sum_{a in U} x_a I_a/p_a, by linearity (dummy index k)."""
    total = weight(None) * joint_with_event((None,), inside) + _sum(weight(k) * joint_with_event((k,), inside), k)
    return total / event_mass(inside)


def conditional_second_moment(inside: bool) -> sp.Expr:
    """E[t(x, S)^2 | A] = sum_{a, b in U} (x_a/p_a)(x_b/p_b) P({a, b} in S, A)/P(A), by linearity; the pairs
    (i, i), (i, l), (j, i), (j, l) written out."""
    pairs = (weight(None) ** 2 * joint_with_event((None, None), inside)
             + weight(None) * _sum(weight(l) * joint_with_event((None, l), inside), l)
             + _sum(weight(j) * joint_with_event((j, None), inside), j) * weight(None)
             + _sum(_sum(weight(j) * weight(l) * joint_with_event((j, l), inside), l), j))
    return pairs / event_mass(inside)


def conditional_variance(inside: bool) -> sp.Expr:
    """Var[t | A] = E[t^2 | A] - E[t | A] E[t | A] (the two factors written with the dummies j and l)."""
    return conditional_second_moment(inside) - conditional_mean(inside, j) * conditional_mean(inside, l)


# the printed closed forms
def p_given_i(k) -> sp.Expr:
    return p_with_i[k] / p_i


def p_given_not_i(k) -> sp.Expr:
    return (p[k] - p_with_i[k]) / (1 - p_i)


def p_pair_given_i(a, b) -> sp.Expr:
    return p_with_i[a, b] / p_i


def p_pair_given_not_i(a, b) -> sp.Expr:
    return (p[a, b] - p_with_i[a, b]) / (1 - p_i)


def t_minus_i(inside: bool) -> sp.Expr:
    """t_{-i|i}(x) = sum_{j != i} x_j p_{j|i}/p_j, or t_{-i|-i}(x) with p_{j|-i}."""
    cond = p_given_i if inside else p_given_not_i
    return _sum(x[j] * cond(j) / p[j], j)


def sigma2_minus_i(inside: bool) -> sp.Expr:
    """sigma^2_{-i|i}(x) = sum_{j, l != i} x_j x_l/(p_j p_l) (p_{jl|i} - p_{j|i} p_{l|i}), or the -i version."""
    single, pair = (p_given_i, p_pair_given_i) if inside else (p_given_not_i, p_pair_given_not_i)
    return _sum(_sum(x[j] * x[l] / (p[j] * p[l]) * (pair(j, l) - single(j) * single(l)), l), j)


def prove_moment(claim: Claim) -> Proof:
    return all_of(cite(LINEARITY, "the left side is the conditional moment of t(x, S) = sum_{a in U} x_a I_a/p_a "
                                  "given A (i in S, or i not in S), E[. | A] = E[. 1_A]/P(A), with E[I_a 1_A] = "
                                  "P(a in S, A) and E[I_a I_b 1_A] = P({a, b} in S, A) for the finitely many units "
                                  "of U (I_i^2 = I_i, I_i (1 - I_i) = 0)"),
                  conclude(claim))


def _notation(name: str, expr) -> sp.Expr:
    return defined(name, expr)


_MEAN_IN = r"\mathbb{E}[t(X,S) \mid i \in S, X = x]"
_VAR_IN = r"\mathrm{Var}[t(X,S) \mid i \in S, X = x]"
_MEAN_OUT = r"\mathbb{E}[t(X,S) \mid i \notin S, X = x]"
_VAR_OUT = r"\mathrm{Var}[t(X,S) \mid i \notin S, X = x]"
_MOMENTS = (
    ("mean_in", "E[t(X,S) | i in S, X = x] = t_{-i|i}(x) + x_i/p_i",
     _notation(_MEAN_IN, conditional_mean(True, j)), _notation(r"t_{-i|i}(x)", t_minus_i(True)) + x_i / p_i,
     "The proof's remark 'car p_ii = 1' is read as p_{i|i} = 1 (reading htm.r10.car_p_ii)."),
    ("var_in", "Var[t(X,S) | i in S, X = x] = sigma^2_{-i|i}(x)",
     _notation(_VAR_IN, conditional_variance(True)), _notation(r"\sigma^2_{-i|i}(x)", sigma2_minus_i(True)),
     "The OCR of the statement shows '= 0'; the proof's last line gives sigma^2_{-i|i}(x) (reading "
     "htm.r10.statement). The double sum includes j = l, where p^{(i)}_{jj} = p_ij."),
    ("mean_out", "E[t(X,S) | i not in S, X = x] = t_{-i|-i}(x)",
     _notation(_MEAN_OUT, conditional_mean(False, j)), _notation(r"t_{-i|-i}(x)", t_minus_i(False)), ""),
    ("var_out", "Var[t(X,S) | i not in S, X = x] = sigma^2_{-i|-i}(x)",
     _notation(_VAR_OUT, conditional_variance(False)), _notation(r"\sigma^2_{-i|-i}(x)", sigma2_minus_i(False)),
     "The double sum includes j = l, where p_jj = p_j and p^{(i)}_{jj} = p_ij."),
)
for _id, _what, _lhs, _rhs, _note in _MOMENTS:
    register(Claim(
        id=f"htm.r10.{_id}", title=f"Result 10 (any design on N = M + 1 >= 2 units, 0 < p_i < 1): {_what}",
        source=R10, kind="identity", lhs=_lhs, rhs=_rhs, conditions=MOMENT_CONDITIONS, proof=prove_moment,
        note=("Units other than i numbered 1..M, M symbolic; p_j = p[j], p_jl = p[j, l], p_ij = p^{(i)}[j], "
              "p_ijl = p^{(i)}[j, l]. The left side means the conditional moment written out by linearity of "
              "expectation (a cited step): E[t 1_A]/P(A) with E[I_a 1_A] = P(a in S, A), E[I_a I_b 1_A] = "
              "P({a, b} in S, A); t_{-i|i}(x) = sum_j x_j p_{j|i}/p_j, sigma^2_{-i|i}(x) = sum_{j,l} x_j x_l/(p_j p_l) "
              "(p_{jl|i} - p_{j|i} p_{l|i}), likewise for -i. " + _note).strip(),
        budget=120.0))

# -- the remark: the -i quantities do not depend on x_i -----------------------------------------------------
N = sp.Symbol("N", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
_not_i = lambda k: 1 - sp.KroneckerDelta(i, k)                  # noqa: E731  1{k != i}
_p2 = sp.IndexedBase("p", positive=True)                          # p[i, j] = p_ij, p[i, j, l] = p_ijl on U = 1..N


def _over_units(expr, k) -> sp.Sum:
    return sp.Sum(_not_i(k) * expr, (k, 1, N))


def _given(k, inside):
    return _p2[i, k] / _p2[i] if inside else (_p2[k] - _p2[i, k]) / (1 - _p2[i])


def _pair_given(a, b, inside):
    return _p2[i, a, b] / _p2[i] if inside else (_p2[a, b] - _p2[i, a, b]) / (1 - _p2[i])


def _t_over_units(inside):
    return _over_units(x[j] * _given(j, inside) / _p2[j], j)


def _sigma2_over_units(inside):
    return _over_units(_over_units(x[j] * x[l] / (_p2[j] * _p2[l]) * (_pair_given(j, l, inside)
                                                                        - _given(j, inside) * _given(l, inside)), l), j)


_w = sp.symbols("w_1:5", real=True)
_COMBINATION = (_w[0] * _t_over_units(True) + _w[1] * _t_over_units(False)
                + _w[2] * _sigma2_over_units(True) + _w[3] * _sigma2_over_units(False))
_D_NAME = (r"\frac{d}{dx_i}\big(w_1 t_{-i|i}(x) + w_2 t_{-i|-i}(x) + w_3 \sigma^2_{-i|i}(x) "
           r"+ w_4 \sigma^2_{-i|-i}(x)\big)")
register(Claim(
    id="htm.r10.free_of_x_i",
    title="Result 10's remark: d/dx_i (w_1 t_{-i|i} + w_2 t_{-i|-i} + w_3 sigma^2_{-i|i} + w_4 sigma^2_{-i|-i})(x) = 0 "
          "for all real w_k (0 < p_i < 1)",
    source=R10, kind="identity", lhs=defined(_D_NAME, sp.diff(_COMBINATION, x[i])), rhs=0, proof=conclude,
    conditions=(sp.Lt(p[i], 1),),
    note="The paper remarks that the quantities indexed by -i do not depend on x_i. The left side is SymPy's "
         "derivative in x_i of the weighted sum, the four quantities written as sums over the units 1..N with the "
         "factor 1{j != i} (j in U \\ {i}, reading htm.r10.index_sets); the derivative of each summand carries "
         "1{j = i} 1{j != i} = 0. Arbitrary weights w_k make the one identity say that each of the four "
         "derivatives vanishes; as each quantity is a polynomial in the x's, it is then free of x_i."))
