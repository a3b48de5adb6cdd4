"""Sampling and privacy (Section 3): the law of the sample counts, why sampling is not epsilon-DP, the
Chaudhuri-Mishra threshold of the numerical example, and the proportion of sample uniques that are
population uniques.

Source: ``shlomo-skinner`` (``002_89b9dd341c0215c2.txt``), Section 3.  The release is the
vector f of sample counts of the k cells (no perturbation: f~ = f).  Under simple random sampling of n of the N units, equation (2)(i),

    Pr(f | x_U) = prod_j C(F_j, f_j) / C(N, n),      0 <= f_j <= F_j, sum_j f_j = n,

and under Bernoulli sampling with probability p, equation (2)(ii),

    Pr(f | x_U) = prod_j C(F_j, f_j) p^{f_j} (1 - p)^{F_j - f_j}.

The laws are checked against an enumeration of every sample of small populations; their
normalisation is proved symbolically (Chu-Vandermonde; the binomial theorem, each summed exactly).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, citation, claim, finding, mechanical, reading
from ..engine.notation import defined, held
from ..engine.proofs import Parametrization, cited_form, conclude, conclude_evaluation, conclude_instance, exhaust
from .identification import DOC

S3_LAW = Source(DOC, "Section 3, equation (2): the law of the sample counts f under SRS (i) and Bernoulli sampling (ii)")
S3_NOT_DP = Source(DOC, "Section 3, sampling does not give epsilon-differential privacy")
S3_EXAMPLE = Source(DOC, "Section 3, numerical example (k = 2^16, N = 10^6, delta = epsilon = 1/3)")
S3_UNIQUES = Source(DOC, "Section 3, numerical example continued: sample uniques that are population uniques")

# -- (2)(i) and (2)(ii) against every sample of small populations ---------------------------------------
K = 3                                                      # cells of the displayed statements
F = sp.symbols("F_1:4", integer=True, nonnegative=True)    # population counts
fs = sp.symbols("f_1:4", integer=True, nonnegative=True)   # sample counts
p = sp.Symbol("p", positive=True)                          # Bernoulli selection probability
P_SRS = sp.Symbol(r"\Pr_{SRS}(\mathbf{f} \mid x_U)", nonnegative=True)
P_BER = sp.Symbol(r"\Pr_{Ber}(\mathbf{f} \mid x_U)", nonnegative=True)
_POPULATIONS = [Fs for Fs in itertools.product(range(4), repeat=K) if 1 <= sum(Fs) <= 6]
_P_VALUES = (Fraction(1, 5), Fraction(1, 2), Fraction(2, 3))


def _units(Fs):
    """The cell of each unit of a population with cell counts Fs."""
    return [j for j, Fj in enumerate(Fs) for _ in range(Fj)]


def _sample_tally(Fs):
    """{(n, f): number of samples of size n whose cell counts are f}, over every subset of the population."""
    cells, tally = _units(Fs), {}
    for n in range(len(cells) + 1):
        for s in itertools.combinations(range(len(cells)), n):
            c = [0] * K
            for i in s:
                c[cells[i]] += 1
            tally[n, tuple(c)] = tally.get((n, tuple(c)), 0) + 1
    return tally


def _cell_values(Fs, c):
    return {**dict(zip(F, Fs)), **dict(zip(fs, c))}


def _srs_points():
    """Every population with N <= 6 over 3 cells, every n and every f: Pr by counting the samples."""
    for Fs in _POPULATIONS:
        N, tally = sum(Fs), _sample_tally(Fs)
        for c in itertools.product(*(range(Fj + 1) for Fj in Fs)):
            n = sum(c)
            yield {**_cell_values(Fs, c), P_SRS: sp.Rational(tally.get((n, c), 0), comb(N, n))}


def _bernoulli_points():
    """Every population with N <= 6 over 3 cells, three values of p: Pr by summing p^|s| (1-p)^(N-|s|) over samples."""
    for Fs in _POPULATIONS:
        N, tally = sum(Fs), _sample_tally(Fs)
        for q in _P_VALUES:
            for c in itertools.product(*(range(Fj + 1) for Fj in Fs)):
                n = sum(c)
                pr = tally.get((n, c), 0) * q**n * (1 - q)**(N - n)
                yield {**_cell_values(Fs, c), p: sp.Rational(q.numerator, q.denominator),
                       P_BER: sp.Rational(pr.numerator, pr.denominator)}


_SCOPE_SRS = ("every population of N <= 6 units over 3 cells (cell counts <= 3), every n <= N and every f with "
              "sum f_j = n; Pr counted over all C(N, n) samples, exact rationals")
_SCOPE_BER = ("every population of N <= 6 units over 3 cells (cell counts <= 3), p in {1/5, 1/2, 2/3}, every f; "
              "Pr summed over all 2^N samples, exact rationals")

# the cited laws of the sample counts, and their formal statements for three cells over their own symbols
citation("multivariate_hypergeometric_law", "Multivariate hypergeometric law",
         "Under simple random sampling of n units among N units that fall into cells of sizes F_1, ..., F_k "
         "(sum_j F_j = N), the sample counts f_1, ..., f_k (sum_j f_j = n, 0 <= f_j <= F_j) have probability "
         "prod_j C(F_j, f_j) / C(N, n): C(F_j, f_j) ways to choose the sampled units of cell j, among C(N, n) "
         "equally likely samples.",
         "N. L. Johnson, S. Kotz, N. Balakrishnan, Discrete Multivariate Distributions (1997), Ch. 39; W. Feller, An "
         "Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), II.6.")
citation("bernoulli_sampling_counts", "Cell counts under Bernoulli sampling",
         "Under Bernoulli sampling (each unit drawn independently with probability p), the sample counts of disjoint "
         "cells of sizes F_1, ..., F_k are independent, f_j ~ Binomial(F_j, p): P(f) = prod_j C(F_j, f_j) p^{f_j} "
         "(1 - p)^{F_j - f_j}.",
         "C.-E. Sarndal, B. Swensson, J. Wretman, Model Assisted Survey Sampling (1992), Sec. 3.4 (Bernoulli "
         "sampling); W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), VI.2.")
_F_POP = sp.symbols("F_{pop1:4}", integer=True, nonnegative=True)
_F_SMP = sp.symbols("f_{smp1:4}", integer=True, nonnegative=True)
_P_SMP = sp.Symbol("p_{smp}", positive=True)
_P_COUNTS, _P_COUNTS_BER = sp.Symbol("P(f)"), sp.Symbol("P_{Ber}(f)")
cited_form("multivariate_hypergeometric_law", _P_COUNTS,
           sp.Mul(*(sp.binomial(Fj, fj) for Fj, fj in zip(_F_POP, _F_SMP))) / sp.binomial(sum(_F_POP), sum(_F_SMP)),
           conditions=tuple(sp.Le(fj, Fj) for Fj, fj in zip(_F_POP, _F_SMP)))
cited_form("bernoulli_sampling_counts", _P_COUNTS_BER,
           sp.Mul(*(sp.binomial(Fj, fj) * _P_SMP**fj * (1 - _P_SMP)**(Fj - fj) for Fj, fj in zip(_F_POP, _F_SMP))),
           conditions=(sp.Le(_P_SMP, 1),))


def _counts_instance(key, notation, law, with_p=False):
    """The claim as the cited law ``key`` at F_j, f_j (and p)."""
    mapping = {notation: law, **dict(zip(_F_POP, F)), **dict(zip(_F_SMP, fs))}
    if with_p:
        mapping[_P_SMP] = p
    return lambda c: conclude_instance(c, key, mapping)


claim(id="ss.srs_pmf",
      title="(2)(i), 3 cells: under simple random sampling of n = sum f_j of the N = sum F_j units, Pr(f | x_U) = "
            "prod_j C(F_j, f_j) / C(N, n)",
      source=S3_LAW, kind="identity", lhs=P_SRS,
      rhs=sp.Mul(*(sp.binomial(Fj, fj) for Fj, fj in zip(F, fs))) / sp.binomial(sum(F), sum(fs)),
      conditions=tuple(sp.Le(fj, Fj) for Fj, fj in zip(F, fs)),
      proof=_counts_instance("multivariate_hypergeometric_law", _P_COUNTS, P_SRS),
      enumeration=lambda c: exhaust(c, _srs_points(), scope=_SCOPE_SRS),
      note="Stated for 3 cells, as the enumeration's populations. The multivariate hypergeometric law (cited): "
           "C(F_j, f_j) ways to choose the sampled units of cell j, among C(N, n) equally likely samples; also "
           "checked by counting every sample of small populations.")

claim(id="ss.bernoulli_pmf",
      title="(2)(ii), 3 cells: under Bernoulli sampling with probability p < 1, Pr(f | x_U) = prod_j C(F_j, f_j) "
            "p^{f_j} (1 - p)^{F_j - f_j}",
      source=S3_LAW, kind="identity", lhs=P_BER,
      rhs=sp.Mul(*(sp.binomial(Fj, fj) * p**fj * (1 - p)**(Fj - fj) for Fj, fj in zip(F, fs))),
      conditions=tuple(sp.Le(fj, Fj) for Fj, fj in zip(F, fs)) + (sp.Lt(p, 1),),
      proof=_counts_instance("bernoulli_sampling_counts", _P_COUNTS_BER, P_BER, with_p=True),
      enumeration=lambda c: exhaust(c, _bernoulli_points(), scope=_SCOPE_BER),
      note="Stated for 3 cells, as the enumeration's populations. Each cell's count is Binomial(F_j, p), "
           "independently across cells (cited); also checked by summing over every sample of small populations.")

finding("ss.finding.srs_support", S3_LAW,
        "(2)(i) is stated for 0 <= f_j <= F_j only; it is the law of f on {0 <= f_j <= F_j, sum_j f_j = n}, which "
        "simple random sampling of size n implies. Over the box alone the expression sums to 2^N / C(N, n) (64/15 for "
        "F = (2, 1, 3), n = 2), not 1; with the total fixed it sums to 1 (ss.srs_pmf_normalised).",
        claims=("ss.srs_pmf", "ss.srs_pmf_normalised"))

# -- normalisation, proved -----------------------------------------------------------------------------------
_A, _B, _n = sp.symbols("A B n", integer=True, nonnegative=True)
_t = sp.Symbol("t", integer=True, nonnegative=True)
_Fc = sp.Symbol("F_j", integer=True, positive=True)
_u = sp.Symbol("u", nonnegative=True)

claim(id="ss.srs_pmf_normalised",
      title="Chu-Vandermonde, the step merging two cells in the normalisation of (2)(i): sum_{t=0}^{n} C(A, t) "
            "C(B, n - t) = C(A + B, n)",
      source=S3_LAW, kind="identity", lhs=sp.Sum(sp.binomial(_A, _t) * sp.binomial(_B, _n - _t), (_t, 0, _n)),
      rhs=sp.binomial(_A + _B, _n), proof=conclude_evaluation,
      note="The identity is proved for symbolic A, B, n. Not checked here: the sum of (2)(i) over the counts of k "
           "cells with total n is C(N, n) by k - 1 applications of it (merging cells one at a time), so (2)(i) sums "
           "to 1.")

claim(id="ss.bernoulli_pmf_normalised",
      title="One cell's factor of (2)(ii) sums to 1 for 0 < p <= 1/2: sum_{f=0}^{F_j} C(F_j, f) p^f "
            "(1 - p)^{F_j - f} = 1",
      source=S3_LAW, kind="identity",
      lhs=sp.Sum(sp.binomial(_Fc, _t) * p**_t * (1 - p)**(_Fc - _t), (_t, 0, _Fc)), rhs=1,
      conditions=(sp.Le(p, sp.Rational(1, 2)),),
      proof=lambda c: conclude(c, Parametrization({p: 1 / (2 * (1 + _u))}, {_u: (1 - 2 * p) / (2 * p)})),
      note="p = 1/(2(1 + u)), u >= 0, so that the closed form of the sum applies. (2)(ii) is the product of the "
           "cells' factors, so it sums to 1 over the box 0 <= f_j <= F_j when each factor does.")

claim(id="ss.bernoulli_pmf_normalised_high",
      title="One cell's factor of (2)(ii) sums to 1 for 1/2 <= p < 1, indexed by g = F_j - f: sum_{g=0}^{F_j} "
            "C(F_j, g) (1 - p)^g p^{F_j - g} = 1",
      source=S3_LAW, kind="identity",
      lhs=sp.Sum(sp.binomial(_Fc, _t) * (1 - p)**_t * p**(_Fc - _t), (_t, 0, _Fc)), rhs=1,
      conditions=(sp.Le(sp.Rational(1, 2), p), sp.Lt(p, 1)),
      proof=lambda c: conclude(c, Parametrization({p: (1 + _u) / (2 + _u)}, {_u: (2 * p - 1) / (1 - p)})),
      note="p = (1 + u)/(2 + u), u >= 0. The same sum as ss.bernoulli_pmf_normalised indexed by g = F_j - f (C(F_j, g) = C(F_j, F_j - g)); "
           "the two claims together cover 0 < p < 1 (at p = 1, a census, only the term g = 0 is nonzero).")

# -- sampling is not epsilon-DP --------------------------------------------------------------------------------
_Fj = sp.Symbol("F_j", integer=True, positive=True)       # F_j^(1) = f_j >= 1
_G, _g = sp.symbols("F_l f_l", integer=True, nonnegative=True)   # the cell l that receives the moved unit
_N1, _n1 = sp.symbols("N n", integer=True, positive=True)
# the factors of the other cells (and 1/C(N, n) under SRS) are the same under x^(1) and x^(2); positive, as f has
# positive probability under x^(1)
_REST_SRS = sp.Symbol(r"\prod_{c \neq j, l} \binom{F_c}{f_c} / \binom{N}{n}", positive=True)
_REST_BER = sp.Symbol(r"\prod_{c \neq j, l} \binom{F_c}{f_c} p^{f_c} (1 - p)^{F_c - f_c}", positive=True)
_PR_X2 = r"\Pr[\mathbf f \mid x^{(2)}_U]"
_PR_X1 = r"\Pr[\mathbf f \mid x^{(1)}_U]"


def _srs_ratio():
    """Pr[f | x^(2)] / Pr[f | x^(1)] by (2)(i) at f_j = F_j^(1), with one unit of cell j moved to cell l in x^(2);
    each law as printed (unevaluated), so that the engine's conclusion does the cancelling."""
    with sp.evaluate(False):
        x2 = sp.binomial(_Fj - 1, _Fj) * sp.binomial(_G + 1, _g) * _REST_SRS
        x1 = sp.binomial(_Fj, _Fj) * sp.binomial(_G, _g) * _REST_SRS
    return defined(_PR_X2, x2) / defined(_PR_X1, x1)


def _ber_ratio():
    """The same ratio by (2)(ii)."""
    def law(Fj, G):
        with sp.evaluate(False):
            return (sp.binomial(Fj, _Fj) * p**_Fj * (1 - p)**(Fj - _Fj)
                    * sp.binomial(G, _g) * p**_g * (1 - p)**(G - _g) * _REST_BER)
    return defined(_PR_X2, law(_Fj - 1, _G + 1)) / defined(_PR_X1, law(_Fj, _G))


def _not_dp_proof(c: Claim) -> Proof:
    return all_of(mechanical(sp.binomial(_Fj, _Fj) == 1 and sp.binomial(_Fj - 1, _Fj) == 0,
                             "C(F_j, F_j) = 1 (f has positive probability under x^(1)) and C(F_j - 1, F_j) = 0"),
                  conclude(c))


claim(id="ss.sampling_not_dp_srs",
      title="(2)(i) at f_j = F_j^(1) >= 1, x^(2) = x^(1) with one unit moved from cell j to cell l: Pr[f | "
            "x^(2)_U] / Pr[f | x^(1)_U] = 0",
      source=S3_NOT_DP, kind="identity", lhs=_srs_ratio(), rhs=0, conditions=(sp.Le(_g, _G),),
      proof=_not_dp_proof,
      note="Pr[f | x^(2)_U] = C(F_j - 1, f_j) C(F_l + 1, f_l) prod_{c != j, l} C(F_c, f_c) / C(N, n) and "
           "Pr[f | x^(1)_U] = C(F_j, f_j) C(F_l, f_l) prod_{c != j, l} C(F_c, f_c) / C(N, n) at f_j = F_j^(1), the "
           "product over the other cells positive (f has positive probability under x^(1)). F_j^(2) = F_j^(1) - 1 "
           "< f_j: the sample of x^(2) cannot contain f_j units of cell j. Hence (1) fails at this f for every "
           "finite epsilon (Pr[f | x^(1)_U] > 0 while e^epsilon Pr[f | x^(2)_U] = 0): sampling is not epsilon-DP.")

claim(id="ss.sampling_not_dp_bernoulli",
      title="(2)(ii), 0 < p < 1, at f_j = F_j^(1) >= 1, x^(2) = x^(1) with one unit moved from cell j to cell l: "
            "Pr[f | x^(2)_U] / Pr[f | x^(1)_U] = 0",
      source=S3_NOT_DP, kind="identity", lhs=_ber_ratio(), rhs=0, conditions=(sp.Le(_g, _G), sp.Lt(p, 1)),
      proof=_not_dp_proof,
      note="Each law as printed in (2)(ii), cells j and l written out, the other cells' (common, positive) factor "
           "kept as one symbol. F_j^(2) = F_j^(1) - 1 < f_j makes C(F_j - 1, f_j) = 0; hence (1) fails at this f "
           "for every finite epsilon.")

# -- the numerical example: threshold and cell size -----------------------------------------------------------
_eps_ex, _delta_ex, _k_ex, _N_ex = sp.Rational(1, 3), sp.Rational(1, 3), 2**16, 10**6
THRESHOLD = 2 / _eps_ex * sp.log(2 * _k_ex / _delta_ex)   # 2 eps^{-1} log(2k/delta), natural log

# the threshold in the paper's notation, meaning 6 ln 393216 (kept unevaluated: the engine evaluates it)
THRESHOLD_PRINTED = defined(r"2 \varepsilon^{-1} \ln(2k/\delta)", THRESHOLD)

with sp.evaluate(False):
    _THRESHOLD_ERROR = held(sp.Abs(THRESHOLD_PRINTED - sp.Rational(773, 10)))
    _THRESHOLD_FLOOR = held(sp.floor(THRESHOLD_PRINTED))
    _CELL_SIZE_ERROR = held(sp.Abs(sp.Integer(10)**6 / sp.Integer(2)**16 - sp.Rational(153, 10)))   # N/k - 15.3

claim(id="ss.cm_threshold",
      title="Numerical example, eps = delta = 1/3, k = 2^16: the threshold 2 eps^{-1} ln(2k/delta) = 6 ln 393216 "
            "is 77.3 to one decimal: |6 ln 393216 - 77.3| < 0.05",
      source=S3_EXAMPLE, kind="inequality", lhs=_THRESHOLD_ERROR, rhs=sp.Rational(1, 20),
      relation="<", proof=conclude_evaluation,
      note="The natural logarithm: log10 gives 33.6 and log2 gives 111.5. The absolute value is kept as printed "
           "and evaluated by the engine (6 ln 393216 = 77.2927...).")

claim(id="ss.cm_threshold_cells",
      title="Numerical example, eps = delta = 1/3, k = 2^16: floor(2 eps^{-1} ln(2k/delta)) = floor(6 ln 393216) ="
            " 77",
      source=S3_EXAMPLE, kind="identity", lhs=_THRESHOLD_FLOOR, rhs=77, proof=conclude_evaluation,
      note="The threshold is irrational, so an integer count F_j lies below it iff F_j <= 77, i.e. F_j < 78: the "
           "paper's 'suppressing cells with F_j < 78'.")

claim(id="ss.average_cell_size",
      title="Numerical example: the average cell size N/k = 10^6 / 2^16 is 15.3 to one decimal: |10^6 / 2^16 - "
            "15.3| < 0.05",
      source=S3_EXAMPLE, kind="inequality", lhs=_CELL_SIZE_ERROR,
      rhs=sp.Rational(1, 20), relation="<", proof=conclude_evaluation)

reading("ss.reading.cm_log", S3_EXAMPLE,
        printed="the threshold 2e-1 log(2k/d) = 77.3",
        reading="2 epsilon^{-1} ln(2k/delta), natural logarithm, exponent -1 flattened by the extraction",
        why="Only the natural logarithm reproduces 77.3 (ss.cm_threshold); the superscript -1 of epsilon is set "
            "on the line as '-1' in the extracted text.",
        alternatives="log10 (33.6) or log2 (111.5) contradict the printed 77.3 and 'F_j < 78'.",
        claims=("ss.cm_threshold", "ss.cm_threshold_cells"))

# -- sample uniques that are population uniques ------------------------------------------------------------
q = sp.Symbol("q", positive=True)                 # probability of the cell for one population unit
_Nu, _nu = sp.symbols("N n", integer=True, positive=True)
P_SU = sp.Symbol(r"\Pr(f_c = 1)", nonnegative=True)
P_SU_PU = sp.Symbol(r"\Pr(f_c = 1, F_c = 1)", nonnegative=True)
_Q_VALUES = (Fraction(1, 5), Fraction(1, 2), Fraction(4, 5))


def _unique_points():
    """N <= 7 iid units, SRS of n <= N: Pr(f_c = 1) and Pr(f_c = F_c = 1) summed over F_c ~ Binomial(N, q)
    and the hypergeometric f_c | F_c."""
    for N in range(1, 8):
        for n in range(1, N + 1):
            for qq in _Q_VALUES:
                su = su_pu = Fraction(0)
                for Fc in range(N + 1):
                    pF = comb(N, Fc) * qq**Fc * (1 - qq)**(N - Fc)
                    p1 = Fraction(Fc * comb(N - Fc, n - 1), comb(N, n))        # hypergeometric at f_c = 1
                    su += pF * p1
                    su_pu += pF * p1 * (Fc == 1)
                yield {_Nu: N, _nu: n, q: sp.Rational(qq.numerator, qq.denominator),
                       P_SU: sp.Rational(su.numerator, su.denominator),
                       P_SU_PU: sp.Rational(su_pu.numerator, su_pu.denominator)}


_SCOPE_U = "N <= 7, every n <= N, q in {1/5, 1/2, 4/5}; F_c ~ Binomial(N, q) then f_c | F_c hypergeometric, exact"

citation("srs_of_iid_units", "A simple random sample of independent, identically distributed units",
         "If the N units of a population fall independently into cell c, each with probability q, and a simple random "
         "sample of n <= N units is drawn independently of where they fall, the sampled units are n independent such "
         "units: the sample count is Binomial(n, q), P(f_c = k) = C(n, k) q^k (1 - q)^{n-k}.",
         "C. M. Cassel, C.-E. Sarndal, J. H. Wretman, Foundations of Inference in Survey Sampling (1977), Sec. 4.2 "
         "(noninformative designs under a superpopulation model); W. Feller, An Introduction to Probability Theory "
         "and Its Applications I, 3rd ed. (1968), VI.2.")
_N_IID, _n_IID, _k_IID = sp.symbols("N_{iid} n_{iid} k_{iid}", integer=True, nonnegative=True)
_q_IID = sp.Symbol("q_{iid}", positive=True)
_P_IID = sp.Symbol("P(f_c = k)")
cited_form("srs_of_iid_units", _P_IID, sp.binomial(_n_IID, _k_IID) * _q_IID**_k_IID * (1 - _q_IID)**(_n_IID - _k_IID),
           conditions=(sp.Le(_n_IID, _N_IID), sp.Le(_q_IID, 1)))

claim(id="ss.sample_unique_prob",
      title="Example's model (N iid units, cell probability q < 1, SRS of n <= N): Pr(f_c = 1) = n q (1 - q)^{n-1}",
      source=S3_UNIQUES, kind="identity", lhs=P_SU, rhs=_nu * q * (1 - q)**(_nu - 1),
      conditions=(sp.Le(_nu, _Nu), sp.Lt(q, 1)),
      proof=lambda c: conclude_instance(c, "srs_of_iid_units", {_P_IID: P_SU, _N_IID: _Nu, _n_IID: _nu, _k_IID: 1,
                                                                _q_IID: q}),
      enumeration=lambda c: exhaust(c, _unique_points(), scope=_SCOPE_U),
      note="A simple random sample of an iid population is an iid sample of size n (cited): Pr(f_c = 1) is the "
           "Binomial(n, q) probability of 1. Also checked exactly from the two-stage model (F_c ~ Binomial(N, q), then "
           "f_c | F_c hypergeometric) for N <= 7.")

# P(f_c = 1, F_c = 1) = P(F_c = 1) P(f_c = 1 | F_c = 1): the multiplication rule, with the binomial law of F_c (the
# census n = N of the iid units) and the hypergeometric law of the sample count given the population (cell c of
# one unit against the other N - 1 units, a third cell empty)
_P_JOINT, _P_FIRST, _P_GIVEN = sp.Symbol(r"P(A \cap B)"), sp.Symbol("P(A)"), sp.Symbol("P(B | A)")
cited_form("multiplication_rule", _P_JOINT, _P_FIRST * _P_GIVEN)
P_PU = sp.Symbol(r"\Pr(F_c = 1)", nonnegative=True)
P_SU_GIVEN_PU = sp.Symbol(r"\Pr(f_c = 1 \mid F_c = 1)", nonnegative=True)


def _unique_proportion_proof(c: Claim) -> Proof:
    from ..engine.bounds import conclude_composed
    given = {_P_COUNTS: P_SU_GIVEN_PU, _F_POP[0]: 1, _F_SMP[0]: 1, _F_POP[1]: _Nu - 1, _F_SMP[1]: _nu - 1,
             _F_POP[2]: 0, _F_SMP[2]: 0}
    return conclude_composed(
        c, ("multiplication_rule", {_P_JOINT: P_SU_PU, _P_FIRST: P_PU, _P_GIVEN: P_SU_GIVEN_PU}),
        {P_PU: ("srs_of_iid_units", {_P_IID: P_PU, _N_IID: _Nu, _n_IID: _Nu, _k_IID: 1, _q_IID: q}),
         P_SU_GIVEN_PU: ("multivariate_hypergeometric_law", given)})


claim(id="ss.unique_proportion",
      title="Example's model (N iid units, cell probability q < 1, SRS of n <= N): Pr(f_c = F_c = 1) = (n/N) N q "
            "(1 - q)^{N-1}",
      source=S3_UNIQUES, kind="identity", lhs=P_SU_PU, rhs=_nu * q * (1 - q)**(_Nu - 1),
      conditions=(sp.Le(_nu, _Nu), sp.Lt(q, 1)), proof=_unique_proportion_proof,
      enumeration=lambda c: exhaust(c, _unique_points(), scope=_SCOPE_U),
      note="Pr(f_c = 1, F_c = 1) = Pr(F_c = 1) Pr(f_c = 1 | F_c = 1) (the multiplication rule, cited): a population "
           "unique has probability N q (1 - q)^{N-1} (the census n = N of the iid units, cited as "
           "ss.sample_unique_prob's law) and, given the population, the simple random sample contains it with the "
           "hypergeometric probability C(1, 1) C(N - 1, n - 1) / C(N, n) = n/N (cited; cell c of one unit against "
           "the other N - 1). The engine checks that the product is the stated right side. Also checked exactly "
           "from the two-stage model for N <= 7. The proportion of "
           "sample uniques that are population uniques is then taken as sum_c Pr(f_c = F_c = 1) / sum_c Pr(f_c = 1) "
           "(a ratio of expectations, with ss.sample_unique_prob). With q_c = "
           "0.2^w 0.8^{16-w} and N = 10^6 the ratio is 0.02606 (n = 5000) and 0.03574 (n = 10000).")

finding("ss.finding.section6", Source(DOC, "Section 1"),
        "The introduction announces 'a discussion in Section 6'; the paper ends with Section 5 (Conclusion).")

finding("ss.finding.numex_proportions", S3_UNIQUES,
        "The printed average proportions of sample uniques that are population uniques, regenerated "
        "(simulate_sample_uniques, N = 10^6, 16 Bernoulli(0.2) keys, 1000 simple random samples, seeded) and "
        "computed (ss.unique_proportion; expected_unique_proportion): n = 10,000 gives 0.0356 +- 0.0001 simulated "
        "and 0.0357 analytic, so the printed 0.035 reproduces; n = 5,000 gives 0.0262 +- 0.0001 simulated and 0.0261 "
        "analytic (the value given one population varies between populations with standard deviation 0.0003, range "
        "0.0254-0.0266 over 12 populations), so the printed 0.024 does not reproduce from the design as described: "
        "it is about 7 such standard deviations low. The paper does not give the simulation's details, so this is a "
        "number that could not be regenerated, not a mathematical error; the conclusion drawn from it ('typically "
        "also unlikely') holds with either value.",
        claims=("ss.unique_proportion",))
