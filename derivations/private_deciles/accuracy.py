"""Sections 2.2.3-2.2.4 and Appendix A: the accuracy of HistogramMethod for uniform and standard normal
data (Lemmes 2.2.3.1-2.2.3.2, Théorème 2.2.3.1, Définition 2.2.4.1, Lemmes 2.2.4.1-2.2.4.3,
Théorème 2.2.4.1 and their proofs in Appendix A).

Source: ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``; Canesse, 2022), Sections 2.2.3, 2.2.4 and Appendix A.

Empirical deciles.  The report does not define them; its proof counts 'in/10 values smaller than ...', so
d_i is read as the order statistic X_(m), m = i n/10 (n a multiple of 10: n = 10 r, m = i r).  For data
with a continuous distribution function F and points l <= u, P(X_(m) <= x) = P(Bin(n, F(x)) >= m), so

    P(l <= X_(m) <= u) = B(m - 1; n, F(l)) - B(m - 1; n, F(u)),   B(c; n, p) = sum_{j<=c} C(n, j) p^j (1-p)^{n-j}.

The printed sums are S_1 = B(m; n, F(u)) (at most m values below u) and S_2 = B(n - m; n, 1 - F(l)) (at
most n - m values above l).  The proof of Lemme 2.2.3.1 treats the events 'at least m values below u'
and 'at least n - m values above l', which are the good events, as the bad ones, and arrives at
P >= S_1 + S_2 - 1: false (errata below).  The right bound from the same sums is P >= 1 - S_1 - S_2.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, claim, erratum, finding, reading, zero
from ..engine.integrals import conclude_sums_nonnegative
from ..engine.proofs import conclude_evaluation, exhaust
from ..engine.sums import conclude_sums
from .common import DOC

S_U1 = Source(DOC, "Section 2.2.3, Lemme 2.2.3.1 and its proof")
S_U2 = Source(DOC, "Section 2.2.3, Lemme 2.2.3.2 and its proof")
S_UT = Source(DOC, "Section 2.2.3, Théorème 2.2.3.1 and its proof")
S_ERF = Source(DOC, "Section 2.2.4, Définition 2.2.4.1 and Lemme 2.2.4.1 with its proof")
S_N1 = Source(DOC, "Section 2.2.4, Lemme 2.2.4.2, and Appendix A.1 (its proof)")
S_N2 = Source(DOC, "Section 2.2.4, Lemme 2.2.4.3, and Appendix A.2 (its proof)")
S_NT = Source(DOC, "Section 2.2.4, Théorème 2.2.4.1, and Appendix A.3")

r = sp.Symbol("r", integer=True, positive=True)        # n = 10 r records
i = sp.Symbol("i", integer=True, positive=True)        # the decile, 1..9
gam = sp.Symbol("gamma", nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
n_ = 10 * r
m_ = i * r                                               # i n / 10


def bcdf(c, nn, p):
    """B(c; n, p) = P(Bin(n, p) <= c) as a finite sum."""
    return sp.Sum(sp.binomial(nn, j) * p**j * (1 - p)**(nn - j), (j, 0, c))


def order_stat_in(nn, mm, p_lo, p_hi):
    """P(l <= X_(m) <= u) for F(l) = p_lo, F(u) = p_hi (continuous F)."""
    return bcdf(mm - 1, nn, p_lo) - bcdf(mm - 1, nn, p_hi)


def _printed_sums(p_lo, p_hi):
    """S_1 = B(m; n, F(u)) and S_2 = B(n - m; n, 1 - F(l)), the two sums of the printed eta."""
    return bcdf(m_, n_, p_hi), bcdf(n_ - m_, n_, 1 - p_lo)


_U_LO, _U_HI = sp.Rational(1, 10) * i - gam / 2, sp.Rational(1, 10) * i + gam / 2
_S1, _S2 = _printed_sums(_U_LO, _U_HI)
_DECILES = (sp.Ge(i, 1), sp.Le(i, 9), sp.Le(gam, sp.Rational(1, 10)))
_GRID = [{r: rr, i: ii, gam: gg} for rr in (1, 2, 3) for ii in range(1, 10)
         for gg in (sp.Integer(0), sp.Rational(1, 100), sp.Rational(1, 20), sp.Rational(1, 10))]
_GRID_SCOPE = "n in {10, 20, 30}, every decile i = 1..9, gamma in {0, 1/100, 1/20, 1/10}, evaluated exactly"



def _one_term(p_hi):
    """lhs - rhs of the corrected lemmas: B(m; n, u) - B(m - 1; n, u) = C(n, m) u^m (1 - u)^(n - m), the other
    sums cancelling by B(n - m; n, 1 - l) = 1 - B(m - 1; n, l) (reindexing j -> n - j, binomial theorem)."""
    return sp.binomial(n_, m_) * p_hi**m_ * (1 - p_hi)**(n_ - m_)


_u_printed = Claim(
    id="pd.unif.empirical_decile_printed",
    title="Lemme 2.2.3.1, last display of its proof, as printed: for n = 10r uniform values and d_i = X_(in/10), "
          "P(d_i in [0.1i - gamma/2, 0.1i + gamma/2]) >= S_1 + S_2 - 1",
    source=S_U1, kind="inequality", lhs=order_stat_in(n_, m_, _U_LO, _U_HI), rhs=_S1 + _S2 - 1, relation=">=",
    conditions=_DECILES, expected=False,
    counterexample={r: 1, i: 5, gam: sp.Rational(1, 100)},
    note="S_1 = sum_{k=0}^{in/10} C(n,k) (0.1i + gamma/2)^k (1 - 0.1i - gamma/2)^{n-k} and S_2 = "
         "sum_{k=0}^{(10-i)n/10} C(n,k) (1 - 0.1i + gamma/2)^k (0.1i - gamma/2)^{n-k}, the printed sums; 1 <= i <= 9, "
         "0 <= gamma <= 0.1. d_i = X_(in/10) (reading pd.reading.empirical_decile). At n = 10, i = 5, "
         "gamma = 1/100 the probability is 0.0246 and the bound 0.2214.")
_u_corrected = Claim(
    id="pd.unif.empirical_decile",
    title="Lemme 2.2.3.1, corrected: for n = 10r uniform values and d_i = X_(in/10), "
          "P(d_i in [0.1i - gamma/2, 0.1i + gamma/2]) >= 1 - S_1 - S_2 (the printed sums)",
    source=S_U1, kind="inequality", lhs=order_stat_in(n_, m_, _U_LO, _U_HI), rhs=1 - _S1 - _S2, relation=">=",
    conditions=_DECILES,
    proof=lambda c: conclude_sums(c, _one_term(_U_HI), reflect={_S2: n_}),
    enumeration=lambda c: exhaust(c, _GRID, scope=_GRID_SCOPE),
    note="S_1, S_2 as in pd.unif.empirical_decile_printed; 1 <= i <= 9, 0 <= gamma <= 0.1. It is the union bound over "
         "the events 'd_i > 0.1i + gamma/2' and 'd_i < 0.1i - gamma/2' (the proof compares the sums directly): "
         "P(X_(m) > u) = B(m - 1; n, u) <= B(m; n, u) = S_1 and P(X_(m) < l) = P(Bin(n, l) >= m) = B(n - m; n, 1 - l) "
         "= S_2. The lemma's eta should be S_1 + S_2 (not 2 - S_1 + S_2 as printed, nor the 2 - S_1 - S_2 the proof "
         "derives).")
erratum("pd.erratum.uniform_empirical_decile", _u_printed, _u_corrected,
        "For a single-valued empirical decile. The proof writes P(d_i in I) = 1 - P(A or B) with A = 'at least in/10 "
        "values below 0.1i + gamma/2' and B = 'at least (10 - i)n/10 values above 0.1i - gamma/2'. These are the "
        "events on which d_i is NOT above or below I: {d_i not in I} is the union of their complements, so "
        "1 - P(A or B) is not P(d_i in I) under any reading; and P(A) is 1 - P(N_u <= in/10 - 1), not 1 - S_1 (N_u "
        "the number of values below u). The bound it reaches, S_1 + S_2 - 1, exceeds the probability: for n = 10, "
        "i = 5, gamma = 1/100, P(X_(5) in [0.495, 0.505]) = 0.0246 < S_1 + S_2 - 1 = 0.2214 (X_(6): 0.0246; the "
        "midpoint (X_(5) + X_(6))/2: 0.0273; every usual sample-quantile rule gives one of these here). The display "
        "holds only if 'd_i in I' is read as 'the interval [X_(m), X_(m+1)] of empirical deciles meets I' (0.2706 "
        "here). The same sums give the valid bound 1 - S_1 - S_2 for any d_i in [X_(m), X_(m+1)], m = in/10 an "
        "integer (for d_i = X_(ceil(in/10)) in general); it is negative in this example, as it should be for n = 10.",
        readings=("pd.reading.empirical_decile",),
        printed_text='Soit gamma in [0, 0.1]. [...] On pose alors A = "il y a au moins in/10 valeurs plus petites que '
                     '0.1i + gamma/2" et B = "il y a au moins (10-i)n/10 valeurs plus grandes que 0.1i - gamma/2". On a '
                     'alors P(d_i in [0.1i - gamma/2, 0.1i + gamma/2]) = 1 - P(A u B) >= 1 - P(A) - P(B) = '
                     'sum_{k=0}^{in/10} C(n,k) (0.1i + gamma/2)^k (1 - 0.1i - gamma/2)^{n-k} + '
                     'sum_{k=0}^{(10-i)n/10} C(n,k) (1 - 0.1i + gamma/2)^k (0.1i - gamma/2)^{n-k} - 1',
        corrected_text="Soit gamma in [0, 0.1] et d_i = X_(in/10), la (in/10)-ième plus petite des n valeurs (n multiple "
                       "de 10). On a alors P(d_i in [0.1i - gamma/2, 0.1i + gamma/2]) >= 1 - sum_{k=0}^{in/10} C(n,k) "
                       "(0.1i + gamma/2)^k (1 - 0.1i - gamma/2)^{n-k} - sum_{k=0}^{(10-i)n/10} C(n,k) "
                       "(1 - 0.1i + gamma/2)^k (0.1i - gamma/2)^{n-k}. "
                       "[English] Let gamma in [0, 0.1] and d_i = X_(in/10), the (in/10)-th smallest of the n values "
                       "(n a multiple of 10), 1 <= i <= 9. Then P(d_i in [0.1i - gamma/2, 0.1i + gamma/2]) >= "
                       "1 - S_1 - S_2 with the two printed sums S_1 = sum_{k=0}^{in/10} ... and "
                       "S_2 = sum_{k=0}^{(10-i)n/10} ...: both sums are subtracted from 1, not added with 1 taken off.")

# == Lemme 2.2.3.2 and its normal twin: counts in two side intervals ========================================
al = sp.Symbol("alpha", integer=True, nonnegative=True)
p1, p2 = sp.Symbol("p_1", positive=True), sp.Symbol("p_2", positive=True)
a_, b_ = sp.Symbol("a", integer=True, nonnegative=True), sp.Symbol("b", integer=True, nonnegative=True)


def both_below(nn, alpha, q1, q2):
    """P(N_1 < alpha and N_2 < alpha), (N_1, N_2, rest) multinomial(n; q1, q2, 1 - q1 - q2) (disjoint intervals): the
    double sum of the trinomial probabilities C(n, a + b) C(a + b, a) q1^a q2^b (1 - q1 - q2)^(n - a - b), whose
    coefficient is n!/(a! b! (n - a - b)!) for a + b <= n and 0 beyond."""
    return sp.Sum(sp.Sum(sp.binomial(nn, a_ + b_) * sp.binomial(a_ + b_, a_) * q1**a_ * q2**b_
                         * (1 - q1 - q2)**(nn - a_ - b_), (b_, 0, alpha - 1)), (a_, 0, alpha - 1))


def both_at_least(nn, alpha, q1, q2):
    """P(N_1 >= alpha and N_2 >= alpha) by inclusion-exclusion: 1 - P(N_1 < alpha) - P(N_2 < alpha) +
    P(N_1 < alpha, N_2 < alpha)."""
    return 1 - bcdf(alpha - 1, nn, q1) - bcdf(alpha - 1, nn, q2) + both_below(nn, alpha, q1, q2)


nn_ = sp.Symbol("n", integer=True, positive=True)
def _end_term(alpha, nn, q):
    """B(alpha; n, q) - B(alpha - 1; n, q) = C(n, alpha) q^alpha (1 - q)^(n - alpha), the term the printed sum has
    beyond P(N < alpha)."""
    return sp.binomial(nn, alpha) * q**alpha * (1 - q)**(nn - alpha)


claim(id="pd.unif.interval_counts",
      title="Lemme 2.2.3.2: P(N_1 >= alpha and N_2 >= alpha) >= 1 - 2 sum_{k=0}^{alpha} C(n,k) p^k (1 - p)^{n-k}, "
            "counts in two disjoint intervals of probability p < 1/2, every n >= 1 and alpha >= 0 (the left side "
            "written by inclusion-exclusion and the trinomial law of (N_1, N_2))",
      source=S_U2, kind="inequality", lhs=both_at_least(nn_, al, p1, p1),
      rhs=1 - 2 * bcdf(al, nn_, p1), relation=">=", conditions=(sp.Lt(p1, sp.Rational(1, 2)),),
      proof=lambda c: conclude_sums_nonnegative(c, [both_below(nn_, al, p1, p1)],
                                                2 * _end_term(al, nn_, p1) + sp.Symbol("w_1", nonnegative=True)),
      note="In the lemma p = gamma/2, the length of each interval, for uniform values; gamma <= 0.1 gives p <= 1/20, "
           "inside p < 1/2 (at p = 1/2 a term (1 - 2p)^(n - a - b) with a + b > n would be 0^(negative) times a zero "
           "coefficient). The left side is the inclusion-exclusion form of the probability, with the trinomial law "
           "of (N_1, N_2, n - N_1 - N_2). lhs - rhs = 2 C(n, alpha) p^alpha (1 - p)^(n - alpha) + P(N_1 < alpha, "
           "N_2 < alpha) >= 0: the printed sum up to alpha is one term larger than P(N < alpha) = B(alpha - 1; n, p), "
           "so the bound holds with room, and the union bound drops P(N_1 < alpha, N_2 < alpha). "
           "The intervals [0.1i - gamma, 0.1i - gamma/2] and [0.1i + gamma/2, 0.1i + gamma] lie in [0, 1] for "
           "gamma <= 0.1.")

claim(id="pd.normal.interval_counts",
      title="Lemme 2.2.4.3 (limits of A.2): P(N_1 >= alpha and N_2 >= alpha) >= 1 - B(alpha; n, p_1) - "
            "B(alpha; n, p_2), counts in disjoint intervals of probabilities p_1, p_2 with p_1 + p_2 < 1, every n >= 1 "
            "and alpha >= 0 (the left side written by inclusion-exclusion and the trinomial law of (N_1, N_2))",
      source=S_N2, kind="inequality", lhs=both_at_least(nn_, al, p1, p2),
      rhs=1 - bcdf(al, nn_, p1) - bcdf(al, nn_, p2), relation=">=", conditions=(sp.Lt(p1 + p2, 1),),
      proof=lambda c: conclude_sums_nonnegative(c, [both_below(nn_, al, p1, p2)],
                                                _end_term(al, nn_, p1) + _end_term(al, nn_, p2)
                                                + sp.Symbol("w_1", nonnegative=True)),
      note="N_1, N_2 the counts of n values in the intervals [d - gamma, d - gamma/2] and [d + gamma/2, d + gamma], of "
           "probabilities p_1, p_2; B(c; n, p) = sum_{k=0}^{c} C(n,k) p^k (1 - p)^{n-k}. Distribution-free: only the "
           "two interval probabilities enter. For N(0, 1) and gamma > 0 the two intervals leave out the rest of the "
           "line, so p_1 + p_2 < 1. lhs - rhs = C(n, alpha) p_1^alpha (1 - p_1)^(n - alpha) + C(n, alpha) p_2^alpha "
           "(1 - p_2)^(n - alpha) + P(N_1 < alpha, N_2 < alpha) >= 0, as in pd.unif.interval_counts. Reading "
           "pd.reading.normal_interval_limits.")

# == Théorème 2.2.3.1: the printed bound is never positive ===================================================
beta = sp.Symbol("beta", positive=True)
eps = sp.Symbol("epsilon", positive=True)
kq = sp.Symbol("k", integer=True, positive=True)
_alpha_real = 8 * (sp.log(kq) + sp.log(2 / beta)) / eps
_MU = 2 * bcdf(sp.floor(_alpha_real), n_, gam / 2)
_ETA_PROOF = 2 - _S1 - _S2                                      # the eta the proof derives
_THM_GRID = [{r: rr, i: ii, gam: gg, beta: bb, eps: ee, kq: kk}
             for rr in (1, 3) for ii in (1, 5, 9) for gg in (sp.Rational(1, 100), sp.Rational(1, 10))
             for bb in (sp.Rational(1, 10), sp.Rational(9, 10)) for ee in (sp.Integer(1), sp.Integer(10))
             for kk in (1, 10)]

claim(id="pd.unif.theorem",
      limitation=("The sign of 1 - beta - eta - mu is that of a combination of binomial sums whose upper limit is the"
                  " floor of 8(log k + log(2/beta))/eps, and the engine decides the sign of no such sum for symbolic "
                  "n, gamma, beta, eps and k, so it is evaluated on a grid."),
      title="Théorème 2.2.3.1, its bound with the proof's eta = 2 - S_1 - S_2: 1 - beta - eta - mu < 0, "
            "mu = 2 sum_{k=0}^{alpha} C(n,k) (gamma/2)^k (1 - gamma/2)^{n-k}",
      source=S_UT, kind="inequality", lhs=1 - beta - _ETA_PROOF - _MU, rhs=0, relation="<",
      conditions=_DECILES + (sp.Lt(beta, 1),),
      enumeration=lambda c: exhaust(c, _THM_GRID,
                                    scope="n in {10, 30}, i in {1, 5, 9}, gamma in {1/100, 1/10}, beta in {1/10, 9/10}, "
                                          "eps in {1, 10}, k in {1, 10} (alpha = 8(log k + log(2/beta))/eps, the sum "
                                          "up to floor(alpha)): evaluated exactly"),
      note="On these points the theorem's bound is negative, so the theorem holds there but says nothing. "
           "Why for every n (an argument, not checked): S_1 + S_2 - 1 <= P(C_1 and C_2) (Bonferroni) with "
           "C_1 = {at most m values below u}, "
           "C_2 = {at most n - m values above l}, whose intersection leaves no value in ]l, u[: probability at most "
           "(1 - gamma)^n; and mu >= 2 (1 - gamma/2)^n (its k = 0 term, alpha >= 0). With the printed sign "
           "(eta = 2 - S_1 + S_2) the bound is S_1 - S_2 - 1 - beta - mu < 0 at once. The corrected lemma "
           "(eta = S_1 + S_2) makes the bound positive for large n, but the theorem's own argument uses alpha at eps "
           "while each call runs at eps/9, and ignores the grid: pd.finding.uniform_theorem.")

# == the normal case ========================================================================================
t = sp.Symbol("t", real=True)
_D_I = sp.sqrt(2) * sp.erfinv(sp.Rational(2, 10) * i - 1)
claim(id="pd.normal.deciles",
      title="Lemme 2.2.4.1: int_{-oo}^{d_i^l} e^{-t^2/2}/sqrt(2 pi) dt = i/10 for d_i^l = sqrt(2) erf^{-1}(0.2i - 1), "
            "1 <= i <= 9",
      source=S_ERF, kind="identity",
      lhs=sp.Integral(sp.exp(-t**2 / 2) / sp.sqrt(2 * sp.pi), (t, -sp.oo, _D_I)), rhs=sp.Rational(1, 10) * i,
      conditions=(sp.Ge(i, 1), sp.Le(i, 9)), proof=conclude_evaluation,
      note="erf(z) = (2/sqrt(pi)) int_0^z e^{-t^2} dt (Définition 2.2.4.1): so the d_i^l are the deciles of N(0, 1). "
           "The integral evaluated in closed form is (1 + erf(d_i/sqrt 2))/2, and erf(erf^{-1}(0.2i - 1)) = 0.2i - 1; "
           "the printed proof's steps (the substitution t = sqrt(2) s and the split at 0) are this evaluation.")

def _phi(x):
    """The standard normal distribution function, (1 + erf(x/sqrt 2))/2."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


_PHI_D = sp.Rational(1, 10) * i                                   # int_{-oo}^{d_i} phi = i/10 (pd.normal.deciles)
_N1, _N2 = bcdf(m_, n_, _PHI_D), bcdf(n_ - m_, n_, 1 - _PHI_D)
_n_printed = Claim(
    id="pd.normal.empirical_decile_printed",
    title="Lemme 2.2.4.2, last display of A.1, as printed: n = 10r N(0, 1) values, d_i = X_(in/10), 0 <= gamma <= "
          "d_i^l: P(d_i in [d_i^l - gamma/2, d_i^l + gamma/2]) >= N_1 + N_2 - 1",
    source=S_N1, kind="inequality",
    lhs=order_stat_in(n_, m_, _phi(_D_I - gam / 2), _phi(_D_I + gam / 2)),
    rhs=_N1 + _N2 - 1, relation=">=",
    conditions=(sp.Ge(i, 1), sp.Le(i, 9), sp.Le(gam, _D_I)), expected=False,
    counterexample={r: 1, i: 5, gam: 0},
    illustration={r: 1, i: 7, gam: sp.Rational(1, 10)},
    note="N_1 = (2 pi)^{-n/2} sum_{k=0}^{in/10} C(n,k) (int_{-oo}^{d_i^l} e^{-t^2/2} dt)^k (int_{d_i^l}^{oo} "
         "e^{-t^2/2} dt)^{n-k} = B(in/10; n, i/10) and N_2 = (2 pi)^{-n/2} sum_{k=0}^{(10-i)n/10} C(n,k) "
         "(int_{d_i^l}^{oo} e^{-t^2/2} dt)^k (int_{-oo}^{d_i^l} e^{-t^2/2} dt)^{n-k} = B((10-i)n/10; n, 1 - i/10), the "
         "printed sums (pd.normal.deciles). The illustration n = 10, i = 7, gamma = 1/10 (inside [0, d_7^l], "
         "d_7^l = 0.524) gives the probability 0.0926 against the bound C(10, 7) 0.7^7 0.3^3 = 0.2668. "
         "At gamma = 0 (allowed: gamma in [0, d_i^l], and d_5^l = 0 leaves only gamma = 0) the interval is the point "
         "d_i^l, of probability 0; the printed integrals stop at d_i^l itself, so the bound does not depend on gamma "
         "and is 2 B(5; 10, 1/2) - 1 = 63/256 at n = 10, i = 5.")
_N_S2 = bcdf(n_ - m_, n_, 1 - p2)
_n_corrected = Claim(
    id="pd.normal.empirical_decile",
    title="Lemme 2.2.4.2, corrected: d_i = X_(m), m = in/10, of n = 10r values of a continuous F: P(d_i in [d - gamma/2, "
          "d + gamma/2]) >= 1 - B(m; n, F(d + gamma/2)) - B(n - m; n, 1 - F(d - gamma/2))",
    source=S_N1, kind="inequality",
    lhs=bcdf(m_ - 1, n_, p2) - bcdf(m_ - 1, n_, p1), rhs=1 - bcdf(m_, n_, p1) - _N_S2,
    relation=">=", conditions=(sp.Ge(i, 1), sp.Le(i, 9), sp.Le(p2, p1), sp.Le(p1, 1)),
    proof=lambda c: conclude_sums(c, _one_term(p1), reflect={_N_S2: n_}),
    enumeration=lambda c: exhaust(c, [{r: rr, i: ii, p2: lo, p1: hi} for rr in (1, 2) for ii in range(1, 10)
                                      for lo, hi in ((sp.Rational(ii, 10) - sp.Rational(1, 50), sp.Rational(ii, 10)
                                                      + sp.Rational(1, 30)),
                                                     (sp.Rational(ii, 10), sp.Rational(ii, 10)))],
                                  scope="n in {10, 20}, i = 1..9, (p_l, p_u) in {(i/10 - 1/50, i/10 + 1/30), "
                                        "(i/10, i/10)}: evaluated exactly"),
    note="p_1 = p_u = F(d + gamma/2), p_2 = p_l = F(d - gamma/2), 0 < p_l <= p_u <= 1, 1 <= i <= 9; for N(0, 1), "
         "d = d_i^l and p_l, p_u = Phi(d_i^l -+ gamma/2); B(c; n, p) = sum_{k=0}^{c} C(n,k) p^k (1 - p)^{n-k}. "
         "The same union bound as pd.unif.empirical_decile; "
         "the probability integral transform makes it distribution-free.")
erratum("pd.erratum.normal_empirical_decile", _n_printed, _n_corrected,
        "For a single-valued empirical decile. Appendix A.1 repeats the argument of Lemme 2.2.3.1 (the good events "
        "taken for the bad ones) and stops its integrals at d_i^l instead of d_i^l +- gamma/2, so the bound does not "
        "depend on gamma. At n = 10, i = 7, gamma = 1/10 (the printed claim's illustration, checked by the engine) the "
        "bound is C(10, 7) 0.7^7 0.3^3 = 0.267 while "
        "P(X_(7) in [d_7^l - 0.05, d_7^l + 0.05]) = 0.093 (X_(8): 0.093; weighted rules 0.10-0.103); the engine's "
        "exact counterexample is i = 5, where d_5^l = 0 leaves gamma = 0 and the event {d_5 = 0} has probability 0 "
        "against 63/256. Moving the limits to d_i^l +- gamma/2 does not rescue the display (0.172 > 0.103 at i = 7): "
        "the error is the events'. Read as 'the interval of empirical deciles meets I' the display holds.",
        readings=("pd.reading.empirical_decile",),
        printed_text='Soit gamma in [0, d_i^l]. [...] On pose alors A = "il y a au moins in/10 valeurs plus petites que '
                     'd_i^l + gamma/2" et B = "il y a au moins (10-i)n/10 valeurs plus grandes que d_i^l - gamma/2". On a '
                     'alors P(d_i in [d_i^l - gamma/2, d_i^l + gamma/2]) = 1 - P(A u B) >= 1 - P(A) - P(B) = '
                     'sum_{k=0}^{in/10} C(n,k) (int_{-oo}^{d_i^l} (1/sqrt(2 pi)) exp(-t^2/2) dt)^k '
                     '(int_{d_i^l}^{+oo} (1/sqrt(2 pi)) exp(-t^2/2) dt)^{n-k} + sum_{k=0}^{(10-i)n/10} C(n,k) '
                     '(int_{d_i^l}^{+oo} (1/sqrt(2 pi)) exp(-t^2/2) dt)^k '
                     '(int_{-oo}^{d_i^l} (1/sqrt(2 pi)) exp(-t^2/2) dt)^{n-k} - 1',
        corrected_text="Soit gamma >= 0 et d_i = X_(in/10), la (in/10)-ième plus petite des n valeurs (n multiple de 10). "
                       "On a alors P(d_i in [d_i^l - gamma/2, d_i^l + gamma/2]) >= 1 - sum_{k=0}^{in/10} C(n,k) "
                       "(int_{-oo}^{d_i^l + gamma/2} phi)^k (int_{d_i^l + gamma/2}^{+oo} phi)^{n-k} - "
                       "sum_{k=0}^{(10-i)n/10} C(n,k) (int_{d_i^l - gamma/2}^{+oo} phi)^k "
                       "(int_{-oo}^{d_i^l - gamma/2} phi)^{n-k}, avec phi(t) = exp(-t^2/2)/sqrt(2 pi). "
                       "[English] Let gamma >= 0 and d_i = X_(in/10), the (in/10)-th smallest of the n values (n a "
                       "multiple of 10), 1 <= i <= 9. Then P(d_i in [d_i^l - gamma/2, d_i^l + gamma/2]) >= "
                       "1 - B(in/10; n, Phi(d_i^l + gamma/2)) - B((10-i)n/10; n, 1 - Phi(d_i^l - gamma/2)), "
                       "B(c; n, p) = sum_{k=0}^{c} C(n,k) p^k (1 - p)^{n-k}: the printed sums with their limits moved "
                       "from d_i^l to d_i^l + gamma/2 and d_i^l - gamma/2, both subtracted from 1.")

c_lim = sp.Symbol("c", real=True)     # the common limit d_i^l + gamma/2 of the zero-width integrals


def _zero_width_proof(c: Claim) -> Proof:
    """Each zero-width integral is 0; the sum is then evaluated in closed form for every n and alpha >= 0."""
    width0 = sp.Integral(sp.exp(-t**2 / 2), (t, c_lim, c_lim))
    return all_of(zero(width0, "int_c^c e^{-t^2/2} dt = 0 (an integral over a single point)"),
                  conclude_evaluation(c))


claim(id="pd.normal.theorem",
      title="Théorème 2.2.4.1 (A.3) as printed, the second sum of mu, with zero-width integrals: "
            "sum_{k=0}^{alpha} C(n,k) (int_c^c e^{-t^2/2} dt)^k (1 - int_c^c e^{-t^2/2} dt)^{n-k} = 1",
      source=S_NT, kind="identity",
      lhs=sp.Sum(sp.binomial(nn_, j) * sp.Integral(sp.exp(-t**2 / 2), (t, c_lim, c_lim))**j
                 * (1 - sp.Integral(sp.exp(-t**2 / 2), (t, c_lim, c_lim)))**(nn_ - j), (j, 0, al)),
      rhs=1, proof=_zero_width_proof,
      enumeration=lambda c: exhaust(c, [{nn_: nv, al: av, c_lim: g} for nv in (1, 10, 50) for av in (0, 3, 60)
                                        for g in (sp.Integer(0), sp.Rational(1, 2))],
                                    scope="n in {1, 10, 50}, alpha in {0, 3, 60}, the limit c = d + gamma/2 in {0, 1/2}"),
      note="c = d_i^l + gamma/2, the common limit. For every n and alpha >= 0 the zero-width integrals are 0, so only "
           "the term k = 0 is not 0 (0^0 = 1), and it is C(n, 0) 1^n = 1. Since this sum is 1, mu >= 1 and the "
           "bound 1 - beta - eta - mu <= -beta - eta is negative when eta >= 0: the theorem holds but says nothing "
           "(not checked here). With the limits of Appendix A.2 (reading "
           "pd.reading.normal_interval_limits) mu is the bound of pd.normal.interval_counts and the theorem is the "
           "uniform one with normal interval probabilities, open to the same remarks (pd.finding.uniform_theorem).")

# == readings and findings ==================================================================================
reading("pd.reading.empirical_decile", S_U1,
        printed="Notons (d_i)_i les déciles empiriques de X",
        reading="d_i = X_(in/10), the (i n/10)-th smallest value (n a multiple of 10), a single value",
        why="The report does not define them; its proof counts 'au moins in/10 valeurs plus petites que ...', the "
            "order statistic X_(in/10), and the theorem places the estimate A_i relative to one value d_i. The errata "
            "hold for X_(in/10 + 1), the midpoint and the usual interpolation rules as well (numbers in the "
            "explanations).",
        alternatives="d_i as the whole interval [X_(m), X_(m+1)] of empirical deciles, with 'd_i in I' meaning that "
                     "it meets I: under this reading the printed last displays of both proofs hold (checked on "
                     "n <= 40), though the proofs' step P(d_i in I) = 1 - P(A or B) is still wrong",
        claims=("pd.unif.empirical_decile", "pd.normal.empirical_decile"))
reading("pd.reading.eta_sign", S_U1,
        printed="eta = 2 - sum_{k=0}^{in/10} ... + sum_{k=0}^{(10-i)n/10} ...",
        reading="eta = 2 - sum ... - sum ... (the bound S_1 + S_2 - 1 of the proof's last display)",
        why="The proof ends with P >= S_1 + S_2 - 1, i.e. eta = 2 - S_1 - S_2; the '+' may be the author's "
            "line break of '2 - (S_1 + S_2)'. As printed (2 - S_1 + S_2) the bound 1 - eta = S_1 - S_2 - 1 is never "
            "positive and the lemma is empty; read as the proof has it, the lemma is false "
            "(pd.erratum.uniform_empirical_decile). Either way the useful eta is S_1 + S_2.",
        alternatives="as printed: a true but empty lemma", claims=("pd.unif.empirical_decile_printed",))
reading("pd.reading.normal_interval_limits", S_N2,
        printed="int_{d_i^l - gamma/2}^{d_i^l - gamma/2} ... int_{d_i^l + gamma/2}^{d_i^l + gamma/2}",
        reading="int_{d_i^l - gamma}^{d_i^l - gamma/2} and int_{d_i^l + gamma/2}^{d_i^l + gamma} (the limits of the "
                "proof in Appendix A.2)",
        why="The lemma is about the intervals [d - gamma, d - gamma/2] and [d + gamma/2, d + gamma], and the proof's "
            "last display has these limits; as printed the integrals have zero width and 1 - beta <= 0.",
        claims=("pd.normal.interval_counts", "pd.normal.theorem"))
finding("pd.finding.uniform_theorem", S_UT,
        "Théorème 2.2.3.1 combines three events by the union bound. Beyond the lemma's sign error "
        "(pd.erratum.uniform_empirical_decile), its alpha is that of AboveThreshold at eps (the theorem's own "
        "parameter) while each of the nine calls runs at eps/9 (Théorème 2.2.1.1), and the event 'fewer than alpha "
        "values separate d_i and A_i' ignores the grid: A_i is a grid point, at best (b - a)/steps from the count "
        "crossing. As printed the bound is never positive (pd.unif.theorem); numeric.decile_accuracy gives the "
        "exact probability it is meant to bound.", claims=("pd.unif.theorem",))
finding("pd.finding.normal_copy", S_N1,
        "Appendix A.1's proof opens with 'suivant toutes la loi uniforme sur [0, 1]' (copied from Section 2.2.3), "
        "writes the normalising factor as 1/sqrt(2 pi^n) for (2 pi)^{-n/2}, and its first line reads "
        "[d - gamma/2, d + gamma + 2] for [d - gamma/2, d + gamma/2]. The range gamma in [0, d_i^l] is empty for "
        "i <= 4 (d_i^l < 0) and {0} for i = 5; [0, |d_i^l|] or [0, 1] is presumably meant.",
        claims=("pd.normal.empirical_decile",))
