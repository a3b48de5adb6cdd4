"""Perturbation and privacy (Section 4): misclassification matrices, the epsilon of a release, the law of
the released table, bad outcomes, and the recoding, swapping and PRAM matrices.

Source: ``shlomo-skinner`` (``002_89b9dd341c0215c2.txt``), Section 4 (the sample is the population, n = N, s = U).
Equation (3): M[j1, j2] = Pr(x~_i = j1 | x_i = j2), so the COLUMNS of M sum to 1; equation (4): the
records are misclassified independently.  Neighbouring databases differ in one record's category.
The released table is f~, the counts of the released categories.

Small exact cases are computed here with fractions (every labelled outcome of the n records); the
claims evaluate the paper's statements on them, or on symbolic 2 x 2 matrices
M = [[a, b], [1 - a, 1 - b]].
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..engine.core import (Claim, Proof, Source, all_of, citation, cite, claim, erratum, finding, mechanical, reading,
                           zero)
from ..engine.notation import defined, held
from ..engine.proofs import (Parametrization, cited_form, conclude, conclude_evaluation, conclude_instance, lemma,
                             conclude_pieces, exhaust)
from ..engine.bounds import conclude_bounds, conclude_extended_pieces
from .identification import DOC

S4 = Source(DOC, "Section 4, misclassification and epsilon-differential privacy (equations (3), (4))")
S4_COUNTS = Source(DOC, "Section 4, the released counts f~: Pr[f~ | x_s] as a sum over matrices a")
S4_BAD = Source(DOC, "Section 4, bad outcomes and probabilistic differential privacy")
S4_METHODS = Source(DOC, "Section 4, recoding, random data swapping and PRAM")

a, b = sp.symbols("a b", nonnegative=True)                 # M = [[a, b], [1 - a, 1 - b]]
M2 = ((a, b), (1 - a, 1 - b))
UNIT = (sp.Le(a, 1), sp.Le(b, 1))


# -- exact laws of the released table (fractions) ------------------------------------------------------------
def table_law(M, f):
    """{f~: Pr[f~ | f]} for the column-stochastic M (nested sequences of Fractions) and true counts f,
    by enumerating every labelled outcome of the records (independent misclassification, (4))."""
    k_out = len(M)
    cats = [j for j, fj in enumerate(f) for _ in range(fj)]
    law: dict = {}
    for out in itertools.product(range(k_out), repeat=len(cats)):
        pr = Fraction(1)
        for jt, j in zip(out, cats):
            pr *= M[jt][j]
        if pr:
            ft = tuple(out.count(jt) for jt in range(k_out))
            law[ft] = law.get(ft, 0) + pr
    return law


def neighbours(f):
    """Every count vector with one record moved from an occupied category to another."""
    for j, fj in enumerate(f):
        if fj:
            for l in range(len(f)):
                if l != j:
                    g = list(f)
                    g[j] -= 1
                    g[l] += 1
                    yield tuple(g)


def compositions(n, k):
    """Every count vector of n records over k categories."""
    for cut in itertools.combinations(range(n + k - 1), k - 1):
        parts, prev = [], -1
        for c in cut + (n + k - 1,):
            parts.append(c - prev - 1)
            prev = c
        yield tuple(parts)


def _row_spread(row):
    """ln max - ln min of one row of M: -oo for a row of zeros (never released), +oo for a row with a zero
    and a positive entry."""
    any_zero = sp.Or(*(sp.Eq(x, 0) for x in row))
    all_zero = sp.And(*(sp.Eq(x, 0) for x in row))
    return sp.Piecewise((-sp.oo, all_zero), (sp.oo, any_zero),
                        (sp.log(sp.Max(*row)) - sp.log(sp.Min(*row)), True))


def per_record_epsilon(M):
    """max over released categories of ln max_j M[j~, j] - ln min_j M[j~, j] (the paper's formula)."""
    return sp.Max(*(_row_spread(row) for row in M))


EPSILON_M2 = per_record_epsilon(M2)      # the formula for the symbolic 2 x 2 matrix, built once


# -- the per-record ratio (4) ----------------------------------------------------------------------------------
_n_rec = sp.Symbol("n", integer=True, positive=True)
_i = sp.Symbol("i", integer=True, positive=True)
_r = sp.Symbol("r", integer=True, positive=True)
_P = sp.IndexedBase(r"\Pr(\tilde{x}_i \mid x_i)", positive=True)
_m1, _m2 = sp.symbols(r"M_{\tilde{x}_r\,x^{(1)}_r} M_{\tilde{x}_r\,x^{(2)}_r}", positive=True)
_others = sp.Product(_P[_i], (_i, 1, _r - 1)) * sp.Product(_P[_i], (_i, _r + 1, _n_rec))

# Pr[x~_s | x_s] by (4): the product of the records' factors, record r's being M[x~_r, x_r]
_PR_REC1 = defined(r"\Pr[\tilde{x}_s \mid x^{(1)}_s]", _others * _m1)
_PR_REC2 = defined(r"\Pr[\tilde{x}_s \mid x^{(2)}_s]", _others * _m2)

claim(id="ss.record_ratio",
      title="(4), x^(1)_s and x^(2)_s differing only in record r, all factors positive: Pr[x~_s | x^(1)_s] / "
            "Pr[x~_s | x^(2)_s] = M[x~_r, x^(1)_r] / M[x~_r, x^(2)_r]",
      source=S4, kind="identity", lhs=_PR_REC1 / _PR_REC2, rhs=_m1 / _m2,
      conditions=(sp.Le(_r, _n_rec),),
      note="Pr[x~_s | x^(k)_s] = prod_{i != r} Pr(x~_i | x_i) * M[x~_r, x^(k)_r] by (4); the factors of the other "
           "records are the same for both databases and cancel. Positive factors; where M[x~_r, x^(2)_r] = 0 the "
           "ratio is infinite, which is the subject of the claims below.")

# -- the epsilon of the released table ----------------------------------------------------------------------
E_TABLE = sp.Symbol(r"\varepsilon(\tilde{\mathbf f})", extended_real=True)


def table_laws(M, n):
    """{f: law of the released table} for every count vector f of n records."""
    return {f: table_law(M, f) for f in compositions(n, len(M[0]))}


# the mechanism's definition, cited by the proofs of the released table's epsilon and delta
citation("ss_independent_misclassification", "Independent misclassification (the definition of the mechanism)",
         "Each record's released category is drawn independently of the others, x~_i = j~ with probability "
         "M[j~, x_i]: Pr[x~_s | x_s] = prod_i M[x~_i, x_i]; the released table f~ counts the released categories, a "
         "function of x~_s.",
         "shlomo-skinner (002_89b9dd341c0215c2.txt), Section 4, equations (3) and (4).")
_o1, _o2 = sp.symbols("n_1' n_2'", integer=True, nonnegative=True)   # the other records' categories
_c_pos, _d_real = sp.Symbol("c", nonnegative=True), sp.Symbol("d", real=True)


def _positive_part_scales() -> Proof:
    """(c d)_+ = c (d)_+ for c >= 0, on d = u >= 0 and d = -v < 0 (computed): a common factor of two laws leaves
    the positive part of their difference."""
    u, v = sp.Symbol("u", nonnegative=True), sp.Symbol("v", positive=True)
    diff = sp.Max(_c_pos * _d_real, 0) - _c_pos * sp.Max(_d_real, 0)
    ok = diff.subs(_d_real, u) == 0 and diff.subs(_d_real, -v) == 0
    return mechanical(ok, "(c d)_+ = c (d)_+ for c >= 0: both sides c d for d >= 0 and 0 for d < 0")


def _record_level_epsilon() -> Proof:
    """The upper bound of the epsilon of the released table: the records' epsilon, then post-processing."""
    return all_of(
        cite("ss_independent_misclassification", "databases x^(1)_s and x^(2)_s of n records differing in record r "
             "give x~_s the laws prod_{i != r} M[x~_i, x_i] times M[x~_r, x^(1)_r] and times M[x~_r, x^(2)_r]"),
        zero(_PR_REC1 / _PR_REC2 - _m1 / _m2, "where the other records' factors are positive the ratio of (1) is "
             "M[x~_r, x^(1)_r] / M[x~_r, x^(2)_r] (ss.record_ratio); where one is 0 the outcome is impossible under "
             "both"),
        lemma("ss.finite_epsilon_positive_rows", "for a released category whose row is positive that ratio "
                      "is at most max_j M[x~_r, j] / min_j M[x~_r, j]; a row with a zero and a positive entry has "
                      "the value +oo in U, and a row of zeros is never released: the records' epsilon is at most U = "
                      "max over the rows of ln max_j M[j~, j] - ln min_j M[j~, j] (+oo for a row with a zero and a "
                      "positive entry, -oo for a row of zeros)"),
        cite("data_processing_hockey_stick", "f~ is a function of x~_s, a post-processing (delta = 0), and "
             "neighbouring count vectors are the counts of databases differing in one record: the epsilon of (1) for "
             "f~ is at most the records' epsilon, so at most U"))


def _attained_row(row, n):
    """ln of the ratio of (1) at f~ = n e_j~ (every record released in the category j~ of ``row``) between
    f^(1) = n e_c and its neighbour f^(2) = (n - 1) e_c + e_d, c the column of the row's largest entry and d of its
    smallest: by (4) Pr[f~ = n e_j~ | f] = prod_j M[j~, j]^{f_j}, the one labelled outcome with those counts, so
    M[j~, c]^n against M[j~, c]^{n-1} M[j~, d]; -oo where f~ is impossible under f^(1) (a row of zeros), +oo where
    it is impossible under f^(2) only."""
    p1 = sp.Max(*row)**n
    p2 = sp.Max(*row)**(n - 1) * sp.Min(*row)
    return sp.Piecewise((-sp.oo, sp.Eq(p1, 0)), (sp.oo, sp.Eq(p2, 0)), (sp.log(p1) - sp.log(p2), True))


_EPS_ATTAINED = sp.Max(*(_attained_row(row, _n_rec) for row in M2))
_LINES_AB = [(a, [0, 1]), (b, [0, 1])]


# U, the records' epsilon as the proof builds it from the rows of M (one record: the row's largest entry against
# its smallest), checked against the right side on every piece of a, b
_EPS_RECORDS = sp.Max(*(_attained_row(row, 1) for row in M2))
_EPSILON_UPPER = (_EPS_RECORDS, lambda s: conclude_extended_pieces(s, _LINES_AB))


def _epsilon_table_proof(c: Claim) -> Proof:
    return all_of(
        _record_level_epsilon(),
        cite("ss_independent_misclassification", "lower bound, every n >= 1: the outcome f~ = n e_j~ has probability "
             "M[j~, c]^n under f^(1) = n e_c and M[j~, c]^{n-1} M[j~, d] under its neighbour (n - 1) e_c + e_d (c, d "
             "the columns of the row's largest and smallest entries); the largest of these log-ratios over the rows is"
             " a value of the maximum in (1)"),
        conclude_bounds(c, above=_EPSILON_UPPER,
                        below=(_EPS_ATTAINED, lambda s: conclude_extended_pieces(s, _LINES_AB))))


claim(id="ss.misclassification_epsilon",
      title="2 x 2 M: the epsilon of (1) for the released table f~ of n >= 1 records is max over rows j~ of ln max_j "
            "M[j~, j] - ln min_j M[j~, j] (+oo for a row with a zero and a positive entry; zero rows ignored)",
      source=S4, kind="identity", lhs=E_TABLE, rhs=EPSILON_M2, conditions=UNIT, proof=_epsilon_table_proof,
      note="The paper's bound, attained, for every n. <=: the records' epsilon is the right side (ss.record_ratio, "
           "ss.finite_epsilon_positive_rows) and the table, a function of the records, can only have a smaller "
           "epsilon (post-processing, cited). >=: the outcome f~ = n e_j~ has probability M[j~, c]^n under "
           "f^(1) = n e_c and M[j~, c]^{n-1} M[j~, d] under f^(2) = (n - 1) e_c + e_d, by (4); with c and d the "
           "columns of the largest and smallest entries of row j~ the log-ratio is the row's ln max - ln min "
           "(+oo for a row with a zero and a positive entry), for symbolic n. The engine checks that the largest of "
           "these equals the right side for every a, b in [0, 1], infinities included. The tests compare both "
           "sides with the largest ratio over every labelled outcome for n in {1, 2, 4} on a grid of matrices.")

# -- "a finite epsilon exists iff all elements of M are positive" ---------------------------------------------
# (1) holds with a finite epsilon iff no term of its maximum is +oo: no outcome j~ possible under one category
# (M[j~, j1] > 0) and impossible under another (M[j~, j2] = 0); one record, so outcomes are categories
_INFINITE_TERM = sp.Or(*(sp.And(sp.Gt(row[j1], 0), sp.Eq(row[j2], 0))
                         for row in M2 for j1 in range(2) for j2 in range(2) if j1 != j2))
_FINITE = sp.Piecewise((0, _INFINITE_TERM), (1, True))    # 1 if (1) holds for some finite epsilon
_ZERO_PATTERNS = tuple(sp.Rational(v) for v in (0, Fraction(1, 3), Fraction(1, 2), 1))
_SCOPE_PATTERNS = ("a, b in {0, 1/3, 1/2, 1}: every zero pattern of a 2 x 2 column-stochastic matrix (each of "
                   "a, 1 - a, b, 1 - b zero or not), n = 1")

claim(id="ss.finite_epsilon_rows",
      title="A finite epsilon exists iff no row of M has both a zero and a positive entry (2 x 2, one record)",
      source=S4, kind="identity", lhs=_FINITE,
      rhs=sp.Piecewise((0, sp.Or(sp.Xor(sp.Eq(a, 0), sp.Eq(b, 0)), sp.Xor(sp.Eq(a, 1), sp.Eq(b, 1)))), (1, True)),
      conditions=UNIT,
      proof=lambda c: conclude_pieces(c, a, [0, 1], more=[(b, [0, 1])]),
      note="Both sides depend only on which of a, 1 - a, b, 1 - b vanish: proved on every piece of the lines of a "
           "and of b cut at 0 and 1 (the points 0 and 1 and the open intervals between), for every a, b in [0, 1]; "
           "also checked at a representative of every zero pattern.",
      enumeration=lambda c: exhaust(c, ({a: av, b: bv} for av in _ZERO_PATTERNS for bv in _ZERO_PATTERNS),
                                    scope=_SCOPE_PATTERNS))

# the printed statement on 3 x 3 matrices M[j~, j] (columns: true categories), one record (n = 1 lies inside the
# statement; the outcomes are then the categories j~ and the ratios those of (2))
_M3 = tuple(tuple(sp.Symbol(f"M_{{{r}{c}}}", nonnegative=True) for c in (1, 2, 3)) for r in (1, 2, 3))
_COLUMNS3 = tuple(sp.Eq(sum(_M3[r][c] for r in range(3)), 1) for c in range(3))
_INFINITE_TERM3 = sp.Or(*(sp.And(sp.Gt(row[j1], 0), sp.Eq(row[j2], 0))
                          for row in _M3 for j1 in range(3) for j2 in range(3) if j1 != j2))
_FINITE3 = defined(r"\mathrm{I}[\text{(1) holds for some }\varepsilon < \infty]",
                   sp.Piecewise((0, _INFINITE_TERM3), (1, True)))
_ALL_POSITIVE3 = defined(r"\mathrm{I}[\text{every }M_{\tilde{j} j} > 0]",
                         sp.Piecewise((1, sp.And(*(sp.Gt(m, 0) for row in _M3 for m in row))), (0, True)))


def _m3(rows):
    return {_M3[r][c]: sp.Rational(rows[r][c]) for r in range(3) for c in range(3)}


_h, _q = Fraction(1, 2), Fraction(1, 4)
# the per-row bound of the paper's display, for a row that can be released (all its entries positive)
_row_max = sp.Symbol(r"\max_j M_{\tilde{x}_r j}", positive=True)
_row_min = sp.Symbol(r"\min_j M_{\tilde{x}_r j}", positive=True)
_g_up, _h_up = sp.symbols("g h", nonnegative=True)

# the converse: a row j~ with a zero M[j~, j] and a positive M[j~, j'] makes epsilon infinite, for every n and k:
# by (4) f~ = n e_j~ (every record released as j~) has probability prod_j M[j~, j]^{f_j}
_m_pos = sp.Symbol(r"M_{\tilde{j} j'}", positive=True)
_m_zero = sp.Symbol(r"M_{\tilde{j} j}", nonnegative=True)
_eps_real = sp.Symbol(r"\varepsilon", real=True)
_PR_ALL_F1 = defined(r"\Pr[\tilde{\mathbf f} = n e_{\tilde{j}} \mid \mathbf f^{(1)} = n e_{j'}]", _m_pos**_n_rec)
_PR_ALL_F2 = defined(r"\Pr[\tilde{\mathbf f} = n e_{\tilde{j}} \mid \mathbf f^{(2)} = (n - 1) e_{j'} + e_j]",
                     _m_pos**(_n_rec - 1) * _m_zero)

claim(id="ss.finite_epsilon_mixed_row",
      title="(4), a row j~ of M with M[j~, j] = 0, M[j~, j'] > 0: Pr[f~ = n e_j~ | n e_j'] = M[j~, j']^n > e^eps "
            "M[j~, j']^{n-1} M[j~, j] = e^eps Pr[f~ = n e_j~ | (n - 1) e_j' + e_j] for every real eps",
      source=S4, kind="inequality", lhs=_PR_ALL_F1, rhs=sp.exp(_eps_real) * _PR_ALL_F2, relation=">",
      conditions=(sp.Eq(_m_zero, 0),),
      proof=lambda c: conclude_pieces(c, _m_zero, [0]),
      note="Every n >= 1 and k >= 2. By (4) the outcome f~ = n e_j~ (every record released in category j~) has "
           "probability prod_j M[j~, j]^{f_j}: M[j~, j']^n under f^(1) = n e_j' and M[j~, j']^{n-1} M[j~, j] = 0 "
           "under the neighbour f^(2) = (n - 1) e_j' + e_j (one record moved from j' to j). So (1) fails at f~ for "
           "every finite epsilon: a row with both a zero and a positive entry makes epsilon infinite, the converse "
           "of ss.finite_epsilon_positive_rows (the paper's own argument with its f^(1) chosen so that f~ is "
           "possible under it).")

erratum(
    "ss.finite_epsilon",
    printed=Claim(id="ss.finite_epsilon.printed",
                  title="Section 4 as printed, 3 x 3 M, one record: (1) holds for some finite epsilon iff every "
                        "element of M is positive (indicators equal)",
                  source=S4, kind="identity", lhs=_FINITE3, rhs=_ALL_POSITIVE3, conditions=_COLUMNS3,
                  counterexample=_m3(((_h, _q, 1 - _q), (_h, 1 - _q, _q), (0, 0, 0))),
                  note="lhs: 0 if some outcome j~ has M[j~, j1] > 0 = M[j~, j2] (the ratio of (2) is infinite: j~ "
                       "possible under x_i = j1, impossible under x_i = j2), else 1; a ratio 0/0 does not occur, as "
                       "(1) ranges over the possible outcomes. Counterexample: a PRAM that never releases category "
                       "3, M = [[1/2, 1/4, 3/4], [1/2, 3/4, 1/4], [0, 0, 0]] (columns sum to 1): (1) holds with "
                       "epsilon = ln 3, the largest within-row ratio (3/4)/(1/4) of the rows that can be released."),
    corrected=Claim(id="ss.finite_epsilon_positive_rows",
                    title="(2), a released category x~_r whose row of M is positive: M[x~_r, x^(1)_r] / "
                          "M[x~_r, x^(2)_r] <= max_j M[x~_r, j] / min_j M[x~_r, j]",
                    source=S4, kind="inequality", lhs=_m1 / _m2, rhs=_row_max / _row_min, relation="<=",
                    conditions=(sp.Le(_m1, _row_max), sp.Le(_row_min, _m2)),
                    proof=lambda c: conclude(c, Parametrization({_row_max: _m1 + _g_up, _m2: _row_min + _h_up},
                                                                {_g_up: _row_max - _m1, _h_up: _m2 - _row_min})),
                    note="Every k and n: by (2) (ss.record_ratio) the ratio of (1) for databases differing in record "
                         "r is M[x~_r, x^(1)_r] / M[x~_r, x^(2)_r], and x~_r is a category that can be released, "
                         "so its row has a positive entry; a row of zeros is never released and does not enter (1). "
                         "Hence (1) holds with epsilon = max over the positive rows of ln max_j M - ln min_j M (the "
                         "paper's display) whenever every row of M is zero or positive."),
    explanation="The 'only if' half fails for a row of zeros, a category that is never released: it is not a "
                "possible value in (1), so it adds no ratio. With M = [[1/2, 1/4, 3/4], [1/2, 3/4, 1/4], [0, 0, 0]] "
                "(1) holds with epsilon = ln 3 for n = 1, 2 and 3 (exact enumeration); in the extreme case "
                "M = [[1, 1, 1], [0, 0, 0], [0, 0, 0]] every outcome has probability 1 under every database and (1) "
                "holds for every epsilon > 0. Zero rows are within the paper's scope: its own recoding matrix has the "
                "zero rows k - a + 2, ..., k whenever a >= 2 (for 2 <= a < k its row 1 mixes zeros and ones, so the "
                "paper's conclusion for recoding is right, ss.recoding_not_dp). What makes epsilon infinite is a row "
                "with both a zero and a positive entry: if M[j~, j] = 0 < M[j~, j'], the outcome f~ = n e_j~ has "
                "probability M[j~, j']^n under f^(1) = n e_j' and 0 under its neighbour (n - 1) e_j' + e_j "
                "(ss.finite_epsilon_mixed_row, every n and k: the paper's construction, 'n - f_j in cell j~, f_j in "
                "cell j', also needs M[j~, j'] > 0 for every other occupied category j'; this choice of f^(1) gives "
                "it). With ss.finite_epsilon_positive_rows this is the corrected 'iff': a finite epsilon exists "
                "exactly when every row of M is all zero or all positive (both directions proved for every k and n; "
                "ss.finite_epsilon_rows states it for 2 x 2 matrices, misclassification_epsilon implements it for any "
                "k). The paper's displayed bound max_j~ (ln max_j M_j~j - ln min_j M_j~j) is undefined on a row of "
                "zeros (ln 0 - ln 0) and must range over the positive rows. The same holds for f~ (a function of the "
                "records) and for the abstract's and the conclusion's 'no zero entries'. The statement is right for "
                "matrices with no row of zeros.",
    printed_text="It follows that there exists a finite epsilon for which epsilon-differential privacy holds iff all "
                 "elements of M are positive (i.e., none are zero).",
    corrected_text="There exists a finite epsilon for which epsilon-differential privacy holds iff every row of M is "
                   "either all zero or all positive: a row of zeros is a category never released, for a released "
                   "category x~_r the ratio M_{x~_r x_r^(1)} / M_{x~_r x_r^(2)} is at most max_j M_{x~_r j} / "
                   "min_j M_{x~_r j}, so epsilon = max over the positive rows of ln max_j M_j~j - ln min_j M_j~j; and "
                   "a row with a zero M_j~j and a positive M_j~j' gives f~ = n e_j~ probability M_j~j'^n under "
                   "f^(1) = n e_j' and 0 under its neighbour (n - 1) e_j' + e_j.")

finding("ss.finding.structural_zeros", S4_METHODS,
        "'Note that in practice, there may be zero elements in the misclassification matrix which represent structural "
        "zeros in the population [...]. For these cases, differential privacy is not applicable.' A judgement that "
        "rests on the printed 'iff all elements of M are positive' (ss.finite_epsilon), not a statement to refute. A "
        "structural zero is a combination that cannot occur. As a released category it is a row of zeros of M, which "
        "leaves epsilon finite (ss.finite_epsilon_positive_rows: the ratios of (1) come from the released rows only); "
        "as a true category no record holds it, so the databases over which (1) ranges exclude it and its column "
        "does not enter (1). So differential privacy applies to such matrices, with epsilon the largest within-row "
        "log-ratio of the released rows. What makes epsilon infinite is a zero in a row that also has a positive "
        "entry, a released category impossible from one possible true category and possible from another; (epsilon, "
        "delta)-DP then needs delta at least the structural-zero floor (ss.structural_floor). The conclusion does not "
        "need the impossible category to be excluded from the data universe: even if a record could hold it, the "
        "designer may set its column of M equal to another column, so that every row stays all zero or all "
        "positive and epsilon is finite over the full universe. Caveat: this is PRAM on the cross-classified "
        "variable, the paper's one-variable framework with k categories; if structural zeros are handled instead by "
        "applying PRAM to occupation within age strata while age is released unperturbed, DP fails for another "
        "reason, the exact release of age.",
        claims=("ss.finite_epsilon_positive_rows", "ss.structural_floor"))

# -- the law of the released table: the sum over matrices a --------------------------------------------------
_m = sp.Symbol("m", nonnegative=True)                      # M[1, 1], so M[2, 1] = 1 - m
_f1, _f2, _t, _u = sp.symbols("f_1 f_2 t u", integer=True, nonnegative=True)
P_TABLE = sp.Symbol(r"\Pr[\tilde{\mathbf f} \mid \mathbf f]", nonnegative=True)
# k = 2: a matrix a with column sums f and row sums f~ is fixed by u = a[1, 1] (records of category 1 kept)
def _multinomial(n, *parts):
    """n! / prod parts!: the number of ways to split n labelled records into groups of these sizes."""
    return sp.factorial(n) / sp.Mul(*(sp.factorial(q) for q in parts))


_MULTINOMIAL_SUM = sp.Sum(_multinomial(_f1, _u, _f1 - _u) * a**_u * (1 - a)**(_f1 - _u)
                          * _multinomial(_f2, _t - _u, _f2 - _t + _u) * b**(_t - _u) * (1 - b)**(_f2 - _t + _u),
                          (_u, sp.Max(0, _t - _f2), sp.Min(_t, _f1)))

def _binomial_pmf(n, p, k):
    return sp.binomial(n, k) * p**k * (1 - p)**(n - k)


# by (4) the f_1 records of category 1 released as 1 are Binomial(f_1, a), those of category 2 Binomial(f_2, b),
# independent: f~_1 is their sum
_CONVOLUTION = sp.Sum(_binomial_pmf(_f1, a, _u) * _binomial_pmf(_f2, b, _t - _u), (_u, sp.Max(0, _t - _f2), sp.Min(_t, _f1)))


def _convolution_proof(c: Claim) -> Proof:
    return all_of(cite("density_of_independent_sum", "f~_1 = U + V with U ~ Binomial(f_1, a) and V ~ Binomial(f_2, b) "
                       "independent (equation (4)): its pmf is the convolution sum"),
                  conclude(c))


# the cited law of the sum of two independent binomial counts, over its own symbols
citation("binomial_convolution_support", "Law of the sum of two independent binomial counts, summed over its support",
         "The number of successes in m independent trials with success probability alpha in [0, 1] is Binomial(m, "
         "alpha); if U ~ Binomial(m, alpha) and V ~ Binomial(l, beta) are independent, P(U + V = t) = sum_u P(U = u) "
         "P(V = t - u) = sum_{u = max(0, t - l)}^{min(m, t)} C(m, u) alpha^u (1 - alpha)^{m - u} C(l, t - u) "
         "beta^{t - u} (1 - beta)^{l - t + u} for 0 <= t <= m + l (the convolution of their laws, over the u with "
         "both factors possibly positive; 0^0 = 1).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), VI.2 (the "
         "binomial distribution) and XI.2 (convolutions of integral-valued variables).")
_m_cv, _l_cv, _t_cv = sp.symbols("m_{cv} l_{cv} t_{cv}", integer=True, nonnegative=True)   # (summed over u)
_al_cv, _be_cv = sp.symbols(r"\alpha_{cv} \beta_{cv}", nonnegative=True)
_P_CV = sp.Symbol("P(U + V = t)")
cited_form("binomial_convolution_support", _P_CV,
           sp.Sum(_binomial_pmf(_m_cv, _al_cv, _u) * _binomial_pmf(_l_cv, _be_cv, _t_cv - _u),
                  (_u, sp.Max(0, _t_cv - _l_cv), sp.Min(_t_cv, _m_cv))),
           conditions=(sp.Le(_al_cv, 1), sp.Le(_be_cv, 1), sp.Le(_t_cv, _m_cv + _l_cv)))


def _count_pmf_proof(c: Claim) -> Proof:
    return all_of(
        cite("ss_independent_misclassification", "f~_1 = U + V: U the number of the f_1 records of category 1 "
             "released in 1 (each independently with probability M[1, 1] = a), V that of the f_2 records of category 2"
             " (probability M[1, 2] = b), independent"),
        conclude_instance(c, "binomial_convolution_support", {_P_CV: P_TABLE, _m_cv: _f1, _l_cv: _f2, _t_cv: _t,
                                                      _al_cv: a, _be_cv: b}))


claim(id="ss.released_count_pmf_enumerated",
      title="k = 2, M = [[a, b], [1 - a, 1 - b]]: Pr[f~_1 = t | f] = sum_u f_1!/(u! (f_1 - u)!) a^u (1 - a)^{f_1 -"
            " u} f_2!/((t - u)! (f_2 - t + u)!) b^{t - u} (1 - b)^{f_2 - t + u}",
      source=S4_COUNTS, kind="identity", lhs=P_TABLE, rhs=_MULTINOMIAL_SUM, conditions=UNIT + (sp.Le(_t, _f1 + _f2),),
      proof=_count_pmf_proof,
      note="Every f_1, f_2 and t. By (4) the released count f~_1 is the number of category-1 records kept in 1 plus "
           "the number of category-2 records moved to 1, independent binomial counts; their convolution (cited) is "
           "the sum above: the paper's sum with the multinomial factors it leaves out restored (erratum "
           "ss.released_count_pmf; the engine checks the two sums equal). The tests compare it with the law "
           "obtained by enumerating every labelled outcome for f_1, f_2 <= 3 and five matrices.")

erratum(
    "ss.released_count_pmf",
    printed=Claim(id="ss.released_count_pmf.printed",
                  title="As printed, Pr[f~ | x_s] = sum_{a in A} prod_{j~, j} M[j~, j]^{a[j~, j]}; at f = (2, 0), "
                        "f~ = (1, 1), m = M[1,1]: 2 m (1 - m) (two labelled outcomes) = m (1 - m) (one matrix a)",
                  source=S4_COUNTS, kind="identity", lhs=_m * (1 - _m) + (1 - _m) * _m, rhs=_m * (1 - _m),
                  conditions=(sp.Le(_m, 1),), counterexample={_m: sp.Rational(1, 2)},
                  note="lhs: the two labelled outcomes, each of probability M[1,1] M[2,1] by (4); rhs: the printed "
                       "sum, whose only matrix is a = [[1, 0], [1, 0]]."),
    corrected=Claim(id="ss.released_count_pmf",
                    title="Corrected law, k = 2: Pr[f~_1 = t | f], the convolution of Binomial(f_1, a) and "
                          "Binomial(f_2, b), = sum_{u = a[1,1]} prod_j [f_j! / prod_j~ a[j~, j]!] prod M[j~, "
                          "j]^{a[j~, j]}",
                    source=S4_COUNTS, kind="identity", lhs=_CONVOLUTION, rhs=_MULTINOMIAL_SUM,
                    conditions=UNIT + (sp.Le(_t, _f1 + _f2),), proof=_convolution_proof,
                    note="For k = 2 a matrix a with column sums f and row sums f~ is fixed by u = a[1, 1], and the "
                         "factor prod_j f_j! / prod_j~ a[j~, j]! is C(f_1, u) C(f_2, t - u). The general-k formula is "
                         "the same count (f_j! / prod_j~ a[j~, j]! labelled outcomes per matrix a), not checked here."),
    explanation="The records of category j released in category j~ can be any a[j~, j] of the f_j records: each "
                "matrix a stands for prod_j f_j! / prod_j~ a[j~, j]! labelled outcomes, all with the printed "
                "probability. At f = (2, 0), f~ = (1, 1) and M[1, 1] = 1/2 the probability is 1/2 (the outcomes "
                "(1, 2) and (2, 1)); the printed sum gives 1/4, and summed over f~ it gives 3/4, not 1. Only the "
                "support of the law (which f~ have positive probability) is used in the rest of Section 4, so the "
                "conclusions drawn from it stand. The multinomial factors are not in the extracted text, and a "
                "fraction of factorials does not vanish in the conversion without a trace.",
    printed_text="Then assuming again independent misclassification as in (3) we may write "
                 "Pr[f~ | x_s] = sum_{a in A} prod_j~ prod_j M_{j~ j}^{a_{j~ j}}, where A is the set of possible values "
                 "of a for which the vectors of row and column totals of a are f and f~, respectively.",
    corrected_text="For k = 2, assuming independent misclassification as in (3): Pr[f~ | x_s] = sum_{a in A} prod_j "
                   "[f_j! / prod_j~ a_{j~ j}!] prod_j~ M_{j~ j}^{a_{j~ j}}, where A is the set of matrices a with "
                   "column totals f and row totals f~; this is the convolution of Binomial(f_1, M_11) and "
                   "Binomial(f_2, M_12) at f~_1.")

finding("ss.finding.a_margins", S4_COUNTS,
        "The paper defines a[j~, j] = sum_i I(x~_i = j~, x_i = j) and says 'the vectors of row and column totals of a "
        "are f and f~, respectively'; with the first index j~ the row totals are f~ and the column totals f "
        "(as used in ss.released_count_pmf). A notational slip with no consequence.",
        claims=("ss.released_count_pmf",))

# -- sensitivity -----------------------------------------------------------------------------------------------
_fj, _fl = sp.symbols("f_j f_l", integer=True, nonnegative=True)

with sp.evaluate(False):
    _SENSITIVITY = held(sp.Abs(_fj - (_fj - 1)) + sp.Abs(_fl - (_fl + 1)))

claim(id="ss.sensitivity",
      title="One record moved from category j to l (f_j -> f_j - 1, f_l -> f_l + 1): |f_j - (f_j - 1)| + |f_l - "
            "(f_l + 1)| = 2",
      source=S4_COUNTS, kind="identity", lhs=_SENSITIVITY, rhs=2,
      conditions=(sp.Ge(_fj, 1),), proof=conclude_evaluation,
      note="The move changes f_j by -1 and f_l by +1 and no other count, so sum_c |f^(1)_c - f^(2)_c| is the sum "
           "shown: the sensitivity |f^(1) - f^(2)| = 2 of the paper.")

# -- bad outcomes -----------------------------------------------------------------------------------------------
_mm = {(r, c): sp.Symbol(f"M_{{{r}{c}}}", nonnegative=True) for r in (1, 2, 3) for c in (2, 3)}
_COLUMNS = (sp.Eq(_mm[1, 2] + _mm[2, 2] + _mm[3, 2], 1), sp.Eq(_mm[1, 3] + _mm[2, 3] + _mm[3, 3], 1))


def _labelled_prob():
    """Pr[f~ = (1, 1, 0) | f = (0, 1, 1)] by (4): the sum over the released pairs (x~ of the category-2 record,
    x~ of the category-3 record) with counts (1, 1, 0)."""
    return sp.Add(*(_mm[r2, 2] * _mm[r3, 3] for r2 in (1, 2, 3) for r3 in (1, 2, 3)
                    if sorted((r2, r3)) == [1, 2]), evaluate=False)


claim(id="ss.not_bad_feasible_hall",
      limitation=("The general statement is Hall's condition over every subset of categories against the law of every"
                  " labelled outcome, which the engine cannot represent for symbolic k and n, so it is checked for k "
                  "= 3 and n <= 2."),
      title="k = 3: f~ possible under f^(1) has probability 0 under the neighbour f^(2) moving a record from j to "
            "l iff some T with l in T, j not in T has f~(N(T)) = f^(1)(T)",
      source=S4_BAD, kind="identity",
      lhs=sp.Piecewise((1, sp.Gt(sp.Symbol(r"\Pr[\tilde{\mathbf f} \mid \mathbf f^{(2)}]", nonnegative=True), 0)),
                       (0, True)),
      rhs=1 - sp.Symbol("H", integer=True, nonnegative=True),
      enumeration=lambda c: exhaust(c, _hall_points(), scope=_SCOPE_HALL))

erratum(
    "ss.not_bad_feasible",
    printed=Claim(id="ss.not_bad_feasible.printed",
                  title="Section 4 as printed: if the outcome f~ is not bad and |f^(1) - f^(2)| = 2 then "
                        "Pr[f~ | f^(2)] != 0; at f^(1) = (0, 2, 0), f~ = (1, 1, 0), f^(2) = (0, 1, 1)",
                  source=S4_BAD, kind="inequality",
                  lhs=_mm[1, 2] * _mm[2, 3] + _mm[2, 2] * _mm[1, 3], rhs=0, relation=">",
                  conditions=_COLUMNS + (sp.Gt(_mm[1, 2], 0), sp.Gt(_mm[2, 2], 0), sp.Gt(_mm[3, 2], 0)),
                  counterexample={_mm[1, 2]: sp.Rational(1, 3), _mm[2, 2]: sp.Rational(1, 3),
                                  _mm[3, 2]: sp.Rational(1, 3), _mm[1, 3]: 0, _mm[2, 3]: 0, _mm[3, 3]: 1},
                  note="lhs: Pr[f~ = (1, 1, 0) | f^(2) = (0, 1, 1)], the record of category 2 released in 1 and the "
                       "record of category 3 in 2, or the other way round. Conditions: columns 2 and 3 of M sum to 1; "
                       "M[1,2] M[2,2] > 0, so f~ is possible under f^(1) (probability 2 M[1,2] M[2,2]); M[3,2] > 0, "
                       "which is exactly 'f~ is not bad' for f^(1) = (0, 2, 0): f~_1 = f~_2 = 1 differ from "
                       "2 - 2 I(M[j~,2] = 0) in {0, 2} for every M, and f~_3 = 0 equals 2 - 2 I(M[3,2] = 0) only if "
                       "M[3,2] = 0."),
    corrected=Claim(id="ss.not_bad_neighbour_law",
                    title="At f~ = (1, 1, 0), f^(2) = (0, 1, 1), columns of M summing to 1: Pr[f~ | f^(2)] = "
                          "M[1,2] M[2,3] + M[2,2] M[1,3] <= (M[1,2] + M[2,2]) (M[1,3] + M[2,3])",
                    source=S4_BAD, kind="inequality", lhs=_labelled_prob(),
                    rhs=(_mm[1, 2] + _mm[2, 2]) * (_mm[1, 3] + _mm[2, 3]), relation="<=", conditions=_COLUMNS,
                    proof=conclude,
                    note="lhs: the record of category 2 released in 1 and that of category 3 in 2, or the other way "
                         "round, by (4). So Pr[f~ | f^(2)] = 0 whenever column 3 puts no mass on {1, 2}, whatever row 3 "
                         "holds: a condition on a column, which the single-row test of 'bad' does not see."),
    explanation="'Not bad' tests each released category on its own; whether f~ is possible under f^(2) is a "
                "transportation (Hall) condition on sets of categories. With M = [[1/3, 1/3, 0], [1/3, 1/3, 0], "
                "[1/3, 1/3, 1]] (columns: true categories), f^(1) = (0, 2, 0) and f~ = (1, 1, 0): f~ is not bad and "
                "has probability 2/9, but under the neighbour f^(2) = (0, 1, 1) the record of category 3 is always "
                "released as 3, so f~ has probability 0 and the ratio in (1) is infinite. By the supply-demand "
                "theorem (Gale, 1957) f~ is possible under f^(2) iff f^(2)(T) <= f~(N(T)) for every set T of "
                "categories; as f~ is possible under f^(1), this can fail only for T containing l and not j with "
                "f~(N(T)) = f^(1)(T). The corrected notion of a good outcome is 'possible under every neighbour'; "
                "the numeric layer computes the probability of the complement (pram_certificate).",
    printed_text="we define an outcome f~ which could arise from f^(1) to be bad if, for some j~, "
                 "f~_j~ = n - sum_{j in A_j~} f_j^(1) where A_j~ = {j | M_j~j = 0}. [...] If the outcome is not bad and "
                 "f^(2) is defined such that |f^(1) - f^(2)| = 2 then Pr[f~ | f^(2)] [!=] 0.",
    corrected_text="If the outcome is not bad and |f^(1) - f^(2)| = 2, Pr[f~ | f^(2)] may still be 0: at "
                   "f^(1) = (0, 2, 0), f~ = (1, 1, 0), f^(2) = (0, 1, 1), Pr[f~ | f^(2)] = M_12 M_23 + M_22 M_13 <= "
                   "(M_12 + M_22)(M_13 + M_23), which is 0 when column 3 of M puts no mass on categories 1 and 2.")


def _support(M, f):
    return {ft for ft, pr in table_law(M, f).items() if pr}


def _reach(M, T):
    return {jt for jt in range(len(M)) for j in T if M[jt][j]}


def _tight(M, f1, ft, j, l):
    """1 if some T with l in T, j not in T has f~(N(T)) = f^(1)(T)."""
    k = len(f1)
    others = [c for c in range(k) if c not in (j, l)]
    for r in range(len(others) + 1):
        for extra in itertools.combinations(others, r):
            T = (l,) + extra
            if sum(ft[jt] for jt in _reach(M, T)) == sum(f1[c] for c in T):
                return 1
    return 0


def _patterns(k):
    """Every zero pattern of a k x k column-stochastic matrix, positive entries equal within a column."""
    cols = [s for r in range(1, k + 1) for s in itertools.combinations(range(k), r)]
    for choice in itertools.product(cols, repeat=k):
        yield tuple(tuple(Fraction(1, len(choice[j])) if jt in choice[j] else Fraction(0) for j in range(k))
                    for jt in range(k))


def _hall_points():
    seen = set()
    for M in _patterns(3):
        for n in (1, 2):
            for f1 in compositions(n, 3):
                law1 = _support(M, f1)
                for j, fj in enumerate(f1):
                    if not fj:
                        continue
                    for l in range(3):
                        if l == j:
                            continue
                        f2 = list(f1)
                        f2[j] -= 1
                        f2[l] += 1
                        law2 = table_law(M, tuple(f2))
                        for ft in law1:
                            key = (law2.get(ft, Fraction(0)), _tight(M, f1, ft, j, l))
                            if key not in seen:
                                seen.add(key)
                                yield {sp.Symbol(r"\Pr[\tilde{\mathbf f} \mid \mathbf f^{(2)}]", nonnegative=True):
                                       sp.Rational(key[0]), sp.Symbol("H", integer=True, nonnegative=True): key[1]}


_SCOPE_HALL = ("k = 3: every zero pattern of M (343), n in {1, 2}, every f^(1), every f~ possible under it and every "
               "neighbour f^(2); Pr by enumerating labelled outcomes, exact; each distinct (Pr, H) evaluated")

reading("ss.reading.pdp_infinity", S4_BAD,
        printed="(e, d)- probabilistic differential privacy will hold for some (e, d) with e < 1, d < 1",
        reading="for some (epsilon, delta) with epsilon < infinity, delta < 1",
        why="The argument just given is that the good outcomes are finitely many, each with a finite ratio, which "
            "yields a finite epsilon, not one below 1. The extracted text renders symbol-font glyphs as digits "
            "or letters elsewhere ('6=' for the not-equal sign), and the infinity glyph sits where '1' does in "
            "that font. Read literally the bound fails: with n = 2 and M = [[99/100, 1/100], [1/100, 99/100]] "
            "every outcome has a ratio of at least 49.5 against some neighbour (f~ = (1, 1): 0.9802/0.0198 "
            "between f = (2, 0) and (1, 1)), so no outcome is good for any epsilon < ln 49.5 = 3.9.",
        alternatives="epsilon < 1 literally (false, as above). Under either reading delta < 1 needs a condition: "
                     "see ss.finding.pdp_delta.",
        claims=())

finding("ss.finding.pdp_delta", S4_BAD,
        "delta < 1 is not automatic: with M the identity (no perturbation) or a recoding matrix every possible "
        "outcome has a neighbour under which it is impossible, so Pr(bad | f) = 1 for every f and no delta < 1 "
        "works. (epsilon, delta)-PDP holds with delta = max over f of the probability of the outcomes impossible "
        "under some neighbour (computed by pram_certificate), which is below 1 iff no database makes such an outcome "
        "certain. The next sentence of the paper ('bad samples will be unlikely' for many M) states the condition "
        "informally.")

# "epsilon-DP does not hold for any bad outcome": n = 2, k = 2, f^(1) = (2, 0), f~ = (2, 0); the databases of two
# records are (2, 0), (1, 1) and (0, 2), linked by neighbours, so (1) fails at f~ for every finite epsilon iff one of
# them gives f~ probability 0 (f~ being possible under (2, 0))
def _is_zero(x):
    return sp.Piecewise((1, sp.Eq(x, 0)), (0, True))


_F1_BAD, _FT_BAD = (2, 0), (2, 0)
_PR_BAD = {f: defined(rf"\Pr[\tilde{{\mathbf f}} = (2, 0) \mid \mathbf f = ({f[0]}, {f[1]})]",
                      M2[0][0]**f[0] * M2[0][1]**f[1]) for f in ((2, 0), (1, 1), (0, 2))}
# the printed definition: f~ is bad if for some j~, f~_j~ = n - sum_{j in A_j~} f^(1)_j, A_j~ = {j : M[j~, j] = 0}
_BAD = sp.Or(*(sp.Eq(_FT_BAD[r], 2 - sum(_F1_BAD[j] * _is_zero(M2[r][j]) for j in range(2))) for r in range(2)))
_HAS_ZERO = sp.Or(*(sp.Eq(m, 0) for row in M2 for m in row))
_sum_a1 = sp.Symbol(r"\sum_{j\in A_{\tilde{j}}} f^{(1)}_j", integer=True, nonnegative=True)
_sum_a2 = defined(r"\sum_{j\in A_{\tilde{j}}} f^{(2)}_j", _sum_a1 + 1)
_ft_bad = defined(r"\tilde{f}_{\tilde{j}}", _n_rec - _sum_a1)

reading("ss.reading.bad_arise_from", S4_BAD,
        printed="we define an outcome f~ which could arise from f~^(1) to be bad if",
        reading="an outcome f~ which could arise from f^(1) (the true counts of the first database)",
        why="f~^(1) is defined nowhere; the definition's own formula, f~_j~ = n - sum_{j in A} f_j^(1), and the "
            "argument just before it ('Pr[f~ | f^(1)] > 0') are about the true counts f^(1), and the tilde of f~ "
            "stands next to it in the glyph run.",
        alternatives="None that parses: a released table f~^(1) is not introduced, and an outcome arising from "
                     "another outcome has no meaning in (1).",
        claims=("ss.bad_outcome.printed",))

reading("ss.reading.bad_index", S4_BAD,
        printed="f~_j~ = n - sum_{j in A_j} f_j^(1) where A_j = {j | M_j~j = 0}",
        reading="A_j~ = {j | M_j~j = 0}, the set indexed by the row j~ of the definition",
        why="j is the bound variable inside the set and of the sum, so A_j cannot depend on it; the set is defined "
            "through M_j~j, the row j~ fixed by 'for some j~', and the argument before it bounds f~_j~ by the "
            "records outside the categories j with M_j~j = 0.",
        alternatives="None that parses: A indexed by the bound j is not a set the sum can range over.",
        claims=("ss.bad_outcome.printed",))

erratum(
    "ss.bad_outcome",
    printed=Claim(id="ss.bad_outcome.printed",
                  title="Section 4 as printed, 'epsilon-DP does not hold for any bad outcome': n = 2, f^(1) = (2, 0), "
                        "f~ = (2, 0) bad: min over the databases f of Pr[f~ | f] = 0",
                  source=S4_BAD, kind="identity", lhs=sp.Min(*_PR_BAD.values()), rhs=0,
                  conditions=UNIT + (sp.Gt(_PR_BAD[(2, 0)], 0), _BAD, _HAS_ZERO),
                  counterexample={a: 1, b: sp.Rational(1, 2)},
                  note="M = [[a, b], [1 - a, 1 - b]] as in (3); by (4) Pr[f~ = (2, 0) | f] = a^f_1 b^f_2. Conditions: "
                       "f~ can arise from f^(1) (a^2 > 0); f~ is bad by the printed definition, for j~ = 1 "
                       "(f~_1 = 2 - 2 I(a = 0)) or j~ = 2 (f~_2 = 0 = 2 - 2 I(1 - a = 0)); M has a zero (the "
                       "setting of the definition). At a = 1, b = 1/2 the probabilities are 1, 1/2 and 1/4."),
    corrected=Claim(id="ss.bad_outcome_neighbour",
                    title="Bad at j~ with f~_j~ >= 1, A_j~ non-empty, f^(2): a record of f^(1) moved from outside A_j~ "
                          "into it: n - sum_{A_j~} f^(2)_j < f~_j~ = n - sum_{A_j~} f^(1)_j",
                    source=S4_BAD, kind="inequality", lhs=_n_rec - _sum_a2, rhs=_ft_bad, relation="<",
                    conditions=(sp.Ge(_ft_bad, 1),), proof=conclude,
                    note="Every n and k. Records of a category in A_j~ = {j : M[j~, j] = 0} are never released in j~, "
                         "so under f^(2) at most n - sum_{A_j~} f^(2)_j records can be: Pr[f~ | f^(2)] = 0, while f~ "
                         "can arise from f^(1), and (1) fails at f~ for every epsilon. The move needs a record "
                         "outside A_j~ (there are f~_j~ >= 1 of them) and a category in A_j~ to move it to (A_j~ "
                         "non-empty); f^(2) is then a neighbour, |f^(1) - f^(2)| = 2."),
    explanation="A bad outcome violates (1) only if a neighbour can lower the bound n - sum_{A_j~} f_j below "
                "f~_j~, which needs a category in A_j~ to move a record into and a record outside A_j~ to move. "
                "Neither exists when A_j~ is empty (then every f~ = n e_j~ is 'bad', even for a positive M) or when "
                "f~_j~ = 0 (every record of f^(1) already in A_j~). At M = [[1, 1/2], [0, 1/2]], f^(1) = (2, 0), "
                "f~ = (2, 0) is bad (j~ = 2: A_2 = {1}, f~_2 = 0 = 2 - 2), yet its probabilities under the "
                "databases (2, 0), (1, 1), (0, 2) are 1, 1/2 and 1/4: at f~, (1) holds with epsilon = ln 2. Read "
                "as 'epsilon-DP fails when a bad outcome exists', it fails too: with M = [[1, 1], [0, 0]] "
                "f~ = (2, 0) is bad (A_2 = {1, 2}) and the release is 0-DP (ss.finite_epsilon). With both "
                "conditions the paper's argument goes through (ss.bad_outcome_neighbour). The slip does not harm the "
                "paper's (epsilon, delta) conclusion: the bad outcomes serve only to bound delta, and counting too "
                "many outcomes as bad only makes delta conservative. The erratum rests on two readings of the "
                "definition, 'could arise from f~^(1)' as f^(1) (ss.reading.bad_arise_from) and 'A_j' as A_j~ "
                "(ss.reading.bad_index); neither has a competing reading that parses, and the counterexample "
                "refutes the printed sentence under them. The next sentence, about outcomes that are not bad, is "
                "ss.not_bad_feasible.",
    readings=("ss.reading.bad_arise_from", "ss.reading.bad_index"),
    printed_text="we define an outcome f~ which could arise from f~^(1) [read f^(1)] to be bad if, for some j~, "
                 "f~_j~ = n - sum_{j in A_j [read A_j~]} f_j^(1) where A_j [read A_j~] = {j | M_j~j = 0}. Following a "
                 "similar argument to that above, epsilon-differential privacy does not hold for any bad outcome.",
    corrected_text="Epsilon-differential privacy does not hold for a bad outcome whose j~ has A_j~ non-empty and "
                   "f~_j~ >= 1: moving a record of f^(1) from outside A_j~ into A_j~ gives a neighbour f^(2) with "
                   "n - sum_{j in A_j~} f_j^(2) < f~_j~, the most records that can be released in j~ under f^(2).")

# -- recoding, swapping, PRAM -----------------------------------------------------------------------------------
_kr, _ar = sp.symbols("k a", integer=True, positive=True)
_eps_rc = sp.Symbol(r"\varepsilon", real=True)


def recoding_entry(j1, j2, merged):
    """M[j1, j2] of the recoding matrix (1-based): 1 if j2 <= merged and j1 = 1 (the merged categories go to 1), or
    j2 > merged and j1 = j2 - merged + 1 (the others shifted down), else 0."""
    return sp.Piecewise((1, sp.Or(sp.And(sp.Le(j2, merged), sp.Eq(j1, 1)),
                                  sp.And(sp.Gt(j2, merged), sp.Eq(j1, j2 - merged + 1)))), (0, True))


def recoding_matrix(k, merged):
    """The k x k recoding matrix of :func:`recoding_entry` with Fraction entries."""
    return tuple(tuple(Fraction(int(recoding_entry(j1, j2, merged))) for j2 in range(1, k + 1))
                 for j1 in range(1, k + 1))


# one record (n = 1): Pr[x~ = j~ | x = j] = M[j~, j] by (3); the entries at the witness pair, kept as printed
with sp.evaluate(False):
    _RC_KEEP = held(recoding_entry(1, 1, _ar))
    _RC_MOVE = held(recoding_entry(1, _ar + 1, _ar))
_PR_RC1 = defined(r"\Pr[\tilde{x} = 1 \mid x = 1]", _RC_KEEP)
_PR_RC2 = defined(r"\Pr[\tilde{x} = 1 \mid x = a + 1]", _RC_MOVE)

claim(id="ss.recoding_not_dp",
      title="Recoding (categories 1..a merged into 1, the others shifted), one record, a < k: Pr[x~ = 1 | x = 1] = "
            "M[1, 1] > e^eps M[1, a + 1] = e^eps Pr[x~ = 1 | x = a + 1] for every real eps",
      source=S4_METHODS, kind="inequality", lhs=_PR_RC1, rhs=sp.exp(_eps_rc) * _PR_RC2, relation=">",
      conditions=(sp.Lt(_ar, _kr),), proof=conclude,
      note="So the epsilon of (1) is infinite and epsilon-DP is not guaranteed by recoding: for every k and a < k, "
           "the released category 1 has probability M[1, 1] = 1 from x = 1 (merged) and M[1, a + 1] = 0 from "
           "x = a + 1 (the first category above a, which exists as a < k, shifted to 2), so (1) fails at x~ = 1 for "
           "every finite epsilon. Both entries are the recoding matrix's formula evaluated by the engine. For a = k "
           "(everything merged) the release is constant and 0-DP, but the paper's recoding paragraph ('categories "
           "above a are not changed') presupposes a < k. The tests also compute the epsilon of (1) from the law of "
           "one record for every k <= 7 and a < k.")

_s = sp.symbols("f_1:4", integer=True, positive=True)
_nsw = sum(_s)
_pairs = sp.binomial(_nsw, 2)

erratum(
    "ss.swap_matrix",
    printed=Claim(id="ss.swap_matrix.printed",
                  title="Random data swapping as printed, M[j1, j2] = f_j1 f_j2 / C(n, 2) (j1 != j2), M[j, j] = "
                        "C(f_j, 2) / C(n, 2), three categories, no zero count: column 1 sums to 1 as (3) requires",
                  source=S4_METHODS, kind="identity",
                  lhs=(sp.binomial(_s[0], 2) + _s[1] * _s[0] + _s[2] * _s[0]) / _pairs, rhs=1,
                  counterexample={_s[0]: 2, _s[1]: 1, _s[2]: 1}),
    corrected=Claim(id="ss.swap_matrix_column",
                    title="The one-swap matrix M[j1, j2] = f_j1 / C(n, 2) (j1 != j2), M[j2, j2] = 1 - (n - f_j2) /"
                          " C(n, 2), three categories: column 1 sums to 1",
                    note="Only column 1 is summed here; the other columns have the same form. For one swap of a "
                         "uniformly chosen pair of records, M[j1, j2] is the probability that a given "
                         "record of category j2 is released as j1: it must be paired with one of the f_j1 records of "
                         "j1 (checked by enumeration in the tests).",
                    source=S4_METHODS, kind="identity",
                    lhs=_s[1] / _pairs + _s[2] / _pairs + 1 - (_nsw - _s[0]) / _pairs, rhs=1),
    explanation="The printed entries are the probabilities that the chosen pair has categories {j1, j2}: they sum "
                "to 1 over unordered pairs of categories, not down each column. At f = (2, 1, 1) column 1 sums to "
                "(1 + 2 + 2)/6 = 5/6, and M[j, j] = C(f_j, 2)/C(n, 2) is 0 for a category with one record although "
                "no count is zero. A record of category j2 changes to j1 exactly when it is paired with one of the "
                "f_j1 records of j1 (probability f_j1 / C(n, 2)). The matrix also depends on the data f.",
    printed_text="Let f_j be the number of records taking value j, as before, and assume counts f_j1 and f_j2 are "
                 "positive, then: [M_{j1 j2} = M_{j2 j1} = f_j1 f_j2 / C(n, 2), M_jj = C(f_j, 2) / C(n, 2)] and, "
                 "provided there are no zero counts of categories, there are no zero elements in the misclassification "
                 "matrix.",
    corrected_text="Let f_j be the number of records taking value j, as before; then M_{j1 j2} = f_j1 / C(n, 2) for "
                   "j1 != j2 and M_{j2 j2} = 1 - (n - f_j2) / C(n, 2); with three categories its column 1 sums to 1, as "
                   "(3) requires of every column.")

_eps_sw = sp.Symbol("epsilon", positive=True)
_g1, _g2 = sp.symbols("f_1 f_2", integer=True, nonnegative=True)
_h1, _h2 = sp.symbols(r"\tilde{f}_1 \tilde{f}_2", integer=True, nonnegative=True)
_fc = sp.Symbol("f_c", integer=True, nonnegative=True)
_ii = sp.Symbol(r"\mathrm{I}(x_i = c)", integer=True, nonnegative=True)
_ij = sp.Symbol(r"\mathrm{I}(x_{i'} = c)", integer=True, nonnegative=True)


def _swap_law(ft1, ft2, f1, f2):
    """Pr[f~ | f] for random data swapping: a swap exchanges two records' values, so f~ = f."""
    return sp.KroneckerDelta(ft1, f1) * sp.KroneckerDelta(ft2, f2)


erratum(
    "ss.swap_dp",
    printed=Claim(id="ss.swap_dp.printed",
                  title="Section 4 as printed, swapping 'will guarantee epsilon-DP', with Pr[f~ | f] = I(f~ = f): "
                        "Pr[f~ | f^(1)] <= e^eps Pr[f~ | f^(2)], f^(1) = (f_1, f_2), f^(2) = (f_1 - 1, f_2 + 1)",
                  source=S4_METHODS, kind="inequality", lhs=_swap_law(_h1, _h2, _g1, _g2),
                  rhs=sp.exp(_eps_sw) * _swap_law(_h1, _h2, _g1 - 1, _g2 + 1), relation="<=",
                  conditions=(sp.Ge(_g1, 2), sp.Ge(_g2, 1)),
                  counterexample={_g1: 3, _g2: 2, _h1: 3, _h2: 2, _eps_sw: 1},
                  note="Pr[f~ | f] = I(f~ = f) for swapping (ss.swap_dp_fails). At f^(1) = (3, 2), f^(2) = (2, 3) every "
                       "entry of the paper's swap matrix is positive under both, and f~ = (3, 2) has probability 1 "
                       "against 0."),
    corrected=Claim(id="ss.swap_dp_fails",
                    title="A swap of records i and i' leaves the count of each category c unchanged: f_c - I(x_i ="
                          " c) - I(x_i' = c) + I(x_i' = c) + I(x_i = c) = f_c",
                    source=S4_METHODS, kind="identity",
                    lhs=held(sp.Add(_fc, -_ii, -_ij, _ij, _ii, evaluate=False)), rhs=_fc,
                    note="Record i leaves c if x_i = c and record i' enters it if x_i' = c (and the other way "
                         "round), hence the four terms. So Pr[f~ | f] = I(f~ = f), and neighbouring databases, "
                         "whose counts differ, have disjoint laws: (1) fails for every finite epsilon "
                         "(ss.swap_dp.printed, refuted at f = (3, 2))."),
    explanation="A swap exchanges the values of two records, so the released counts equal the true ones: "
                "Pr[f~ | f] = 1 if f~ = f and 0 otherwise. Neighbouring databases have different counts, so at "
                "f~ = f^(1) the ratio in (1) is 1/0 for every epsilon (at f = (3, 2): 1 <= e^epsilon times 0 fails). "
                "Swapping also does not misclassify records independently, so (4) does not apply to it, and the "
                "matrix it is given depends on the data (ss.swap_matrix). The paper's conclusion holds for "
                "independent misclassification with a positive matrix, a model of swapping rather than swapping "
                "itself.",
    printed_text="[...] provided there are no zero counts of categories, there are no zero elements in the "
                 "misclassification matrix. This strategy will guarantee epsilon-differential privacy as the "
                 "denominator in (1) will now be positive.",
    corrected_text="This strategy does not guarantee epsilon-differential privacy: a swap of records i and i' leaves "
                   "the count of every category c unchanged, f_c - I(x_i = c) - I(x_i' = c) + I(x_i' = c) + "
                   "I(x_i = c) = f_c, so the released counts are the true ones.")

_v = sp.Symbol("v_1", nonnegative=True)
_nv = sp.Symbol("n", integer=True, positive=True)

erratum(
    "ss.pram_invariance",
    printed=Claim(id="ss.pram_invariance.printed",
                  title="PRAM invariance as printed: if v M = v (v the vector of sample proportions) then the "
                        "expected released proportions E[f~/n] = M v' equal v (first component, 2 x 2)",
                  source=S4_METHODS, kind="identity", lhs=a * _v + b * (1 - _v), rhs=_v,
                  conditions=UNIT + (sp.Le(_v, 1), sp.Eq(_v * a + (1 - _v) * (1 - a), _v),
                                     sp.Eq(_v * b + (1 - _v) * (1 - b), 1 - _v)),
                  counterexample={a: 1, b: sp.Rational(1, 2), _v: sp.Rational(1, 2)},
                  illustration={a: sp.Rational(3, 4), b: sp.Rational(1, 2), _v: sp.Rational(1, 2)},
                  note="lhs: E[f~_1]/n = sum_j M[1, j] f_j / n by (3) and (4); the last two conditions are the two "
                       "components of v M = v, v = (v_1, 1 - v_1). Illustration with no zero entry: "
                       "M = [[3/4, 1/2], [1/4, 1/2]], v = (1/2, 1/2): v M = v, but E[f~/n] = (5/8, 3/8)."),
    corrected=Claim(id="ss.pram_invariance_columns",
                    title="2 x 2 M as in (3), M[1,2] = v_1 (1 - a)/(1 - v_1), v_1 < 1: E[f~_1]/n = [n v_1 a + n (1"
                          " - v_1) M[1,2]]/n = v_1, the first component of M v' = v'",
                    source=S4_METHODS, kind="identity",
                    lhs=(_nv * _v * a + _nv * (1 - _v) * (_v * (1 - a) / (1 - _v))) / _nv, rhs=_v,
                    conditions=(sp.Le(a, 1), sp.Lt(_v, 1)),
                    note="E[f~_1] is the sum of Pr(x~_i = 1 | x_i) = M[1, x_i] over the n v_1 records of category 1 and "
                         "the n (1 - v_1) of category 2. M[1,2] = v_1 (1 - a)/(1 - v_1) is the 2 x 2 solution of "
                         "M v' = v' with M[1,1] = a: matrices built to satisfy M v' = v' keep the expected proportions."),
    explanation="vM = v is the invariance condition for a PRAM matrix written by rows, P[k, l] = Pr(l | k) "
                "(Gouweleeuw et al., 1998). Equation (3) writes M by columns, M[j1, j2] = Pr(x~ = j1 | x = j2), so "
                "E[f~] = M f and invariance is M v' = v'. With M = [[1, 1/2], [0, 1/2]] and v = (1/2, 1/2), v M = v "
                "but E[f~/n] = (3/4, 1/4). A transposition between two conventions; matrices built to satisfy vM = v "
                "must be transposed before use in (3).",
    printed_text="We can also require the property of invariance of the[ ]misclassification matrix: vM = v where v is "
                 "the vector of sample proportions: v = (f_1/n, ..., f_k/n). This ensures that the perturbed marginal "
                 "distribution will be similar to the original marginal distribution in the microdata.",
    corrected_text="With M as in (3), whose columns sum to 1, the invariance property is M v' = v' (v written as a "
                   "column): for k = 2, M_11 = a and M_12 = v_1 (1 - a)/(1 - v_1) with v_1 < 1, the expected "
                   "perturbed proportion E[f~_1]/n equals v_1.")

# -- (epsilon, delta) of the released table: the record profile, the structural-zero floor, and sampling ----------
R_EPS = sp.Symbol("r", positive=True)                     # r = e^epsilon >= 1
D_TABLE = sp.Symbol(r"\delta_{\tilde{\mathbf f}}(\varepsilon)", nonnegative=True)
FLOOR_TABLE = sp.Symbol(r"\delta_{\tilde{\mathbf f}}(\infty)", nonnegative=True)
_PROFILE_GRID = tuple(Fraction(i, 3) for i in range(4))
_R_VALUES = (Fraction(1), Fraction(3, 2), Fraction(3))


def record_profile(M, r):
    """delta_M(eps) = max over j1 != j2 of sum_j~ max(0, M[j~, j1] - r M[j~, j2]), r = e^eps."""
    k = len(M[0])
    return sp.Max(*(sum((sp.Max(0, row[j1] - r * row[j2]) for row in M), sp.S.Zero)
                    for j1 in range(k) for j2 in range(k) if j1 != j2))


PROFILE_M2 = record_profile(M2, R_EPS)   # delta_M(epsilon) of the symbolic 2 x 2 matrix, built once


def record_floor(M):
    """delta_M(oo) = max over j1 != j2 of the mass of M[., j1] on the rows where M[., j2] = 0."""
    k = len(M[0])
    return max(sum((row[j1] for row in M if row[j2] == 0), Fraction(0))
               for j1 in range(k) for j2 in range(k) if j1 != j2)


def _hockey(law1, law2, r):
    return sum((max(Fraction(0), p1 - r * law2.get(o, 0)) for o, p1 in law1.items()), Fraction(0))


def _table_profile(laws, r):
    """max over ordered neighbouring pairs of the hockey-stick divergence of the released laws at e^eps = r
    (r = None: the mass impossible under the neighbour)."""
    best = Fraction(0)
    for f1, law1 in laws.items():
        for f2 in neighbours(f1):
            law2 = laws[f2]
            val = (sum((p1 for o, p1 in law1.items() if not law2.get(o)), Fraction(0)) if r is None
                   else _hockey(law1, law2, r))
            best = max(best, val)
    return best


def _matrices():
    for av, bv in itertools.product(_PROFILE_GRID, repeat=2):
        yield ((av, bv), (1 - av, 1 - bv))


def _table_cases():
    """Every 2 x 2 matrix of the grid, n in {1, 2, 3}, with the laws of the released table."""
    for M in _matrices():
        for n in (1, 2, 3):
            yield M, n, table_laws(M, n)


def _profile_points():
    for M, n, laws in _table_cases():
        for r in _R_VALUES:
            yield {a: sp.Rational(M[0][0]), b: sp.Rational(M[0][1]), _n_rec: n, R_EPS: sp.Rational(r),
                   D_TABLE: sp.Rational(_table_profile(laws, r))}


def _floor_points():
    for M, n, laws in _table_cases():
        yield {a: sp.Rational(M[0][0]), b: sp.Rational(M[0][1]), _n_rec: n,
               FLOOR_TABLE: sp.Rational(_table_profile(laws, None))}


_SCOPE_2x2 = "2 x 2 matrices with a, b in {0, 1/3, 2/3, 1}, n in {1, 2, 3}"

# the other records: by (4) the sum over their released categories of the product of their factors is the product
# of their columns' sums, n'_1 records of category 1 and n'_2 of category 2 (kept as printed: the engine sums them)
with sp.evaluate(False):
    _OTHER_RECORDS = held(a + (1 - a))**_o1 * held(b + (1 - b))**_o2


def _other_records_factor() -> Proof:
    return cite("ss_independent_misclassification", "neighbouring databases differ in one record r (category j1 "
                "against j2); the laws of x~_s are the product of the other records' factors with M[x~_r, j1] and "
                "with M[x~_r, j2], so a sum over x~_s of a function of x~_r alone is that sum over x~_r times the "
                "product of the other records' column sums, (a + (1 - a))^{n'_1} (b + (1 - b))^{n'_2}")


def _record_profile_proof(c: Claim) -> Proof:
    return all_of(
        _other_records_factor(),
        cite("hockey_stick_event_form", "the delta of the records at (x^(1)_s, x^(2)_s) is sum over x~_s of "
             "(P(x~_s) - e^eps Q(x~_s))_+, P and Q the two product laws"),
        _positive_part_scales(),
        cite("data_processing_hockey_stick", "f~ is a function of x~_s (post-processing): its delta at every pair "
             "of neighbouring count vectors is at most the records' at databases with those counts"),
        conclude_bounds(c, above=(PROFILE_M2 * _OTHER_RECORDS, conclude)))


claim(id="ss.record_profile",
      title="2 x 2 M: the (eps, delta) profile of the released table is at most delta_M(eps) = max_{j1 != j2} "
            "sum_j~ max(0, M[j~, j1] - e^eps M[j~, j2])",
      source=S4, kind="inequality", lhs=D_TABLE, rhs=PROFILE_M2, relation="<=",
      conditions=UNIT + (sp.Ge(R_EPS, 1),), proof=_record_profile_proof,
      enumeration=lambda c: exhaust(c, _profile_points(), scope=_SCOPE_2x2 + ", e^epsilon in {1, 3/2, 3}; the "
                                    "hockey-stick divergence over every ordered pair of neighbouring f, exact"),
      note="Every n. The released records differ in one factor of a product law (4): as (c d)_+ = c (d)_+ for c >= 0, "
           "their delta is sum_j~ (M[j~, j1] - e^eps M[j~, j2])_+ times the other records' column sums, which the "
           "engine sums to 1 (symbolic numbers n'_1, n'_2 of them); the table is a function of the records "
           "(post-processing, cited). Equality holds at n = 1. Also checked exactly for n <= 3 on a grid.")


def _floor_attained(M, n):
    """max over j1 != j2 of the mass of the table's law under f^(1) = (n - 1) e_j2 + e_j1 on the outcomes impossible
    under f^(2) = n e_j2: by (4), the record of category j1 released in a row with M[j~, j2] = 0, the other n - 1
    released in the support of column j2 (probability (sum_{j~: M[j~, j2] > 0} M[j~, j2])^{n-1})."""
    k = len(M[0])
    return sp.Max(*(sum((row[j1] * sp.Piecewise((1, sp.Eq(row[j2], 0)), (0, True)) for row in M), sp.S.Zero)
                    * sum((row[j2] * sp.Piecewise((1, sp.Gt(row[j2], 0)), (0, True)) for row in M), sp.S.Zero)**(n - 1)
                    for j1 in range(k) for j2 in range(k) if j1 != j2))


def _structural_floor_proof(c: Claim) -> Proof:
    return all_of(
        _other_records_factor(),
        cite("hockey_stick_event_form", "the mass of P on the outcomes where Q = 0 is the limit of sum (P - e^eps "
             "Q)_+ as eps -> oo; for the records it is sum_{j~: M[j~, j2] = 0} M[j~, j1] times the other records' "
             "column sums"),
        cite("data_processing_hockey_stick", "at every eps, so in the limit: the table's floor at each pair of "
             "neighbouring count vectors is at most the records'"),
        cite("ss_independent_misclassification", "lower bound, every n >= 1: under f^(2) = n e_j2 every table whose "
             "counts lie in the support of column j2 is possible and no other; under f^(1) = (n - 1) e_j2 + e_j1 a "
             "table falls outside it exactly when the record of category j1 is released in a row with M[j~, j2] = 0"),
        conclude_bounds(c, above="the records' floor, sum_{j~: M[j~, j2] = 0} M[j~, j1] times the other records' "
                        "column sums (which are 1), is at most the right side, and the table's floor is at most the "
                        "records' (data processing); the records' floor as built from the rows of M is the right side "
                        "itself, which the engine does not accept as a bound",
                        below=(_floor_attained(M2, _n_rec), lambda s: conclude_extended_pieces(s, _LINES_AB))))


claim(id="ss.structural_floor",
      title="2 x 2 M: the structural-zero floor of delta of the released table (mass impossible under a neighbour)"
            " = max_{j1 != j2} sum_{j~: M[j~, j2] = 0} M[j~, j1]",
      source=S4, kind="identity", lhs=FLOOR_TABLE,
      rhs=sp.Max(*(sum((row[j1] * sp.Piecewise((1, sp.Eq(row[j2], 0)), (0, True)) for row in M2), sp.S.Zero)
                   for j1 in range(2) for j2 in range(2) if j1 != j2)),
      conditions=UNIT, proof=_structural_floor_proof,
      enumeration=lambda c: exhaust(c, _floor_points(), scope=_SCOPE_2x2 + "; every ordered pair of neighbouring f, "
                                    "exact"),
      note="Every n >= 1. <=: the records' floor is the right side times the other records' column sums (1), and the "
           "table is a function of the records (post-processing, in the limit eps -> oo). >=: f^(1) = (n-1) e_j2 + "
           "e_j1 against f^(2) = n e_j2, whose outcomes all lie in the support of M[., j2]: the mass is "
           "sum_{j~: M[j~, j2] = 0} M[j~, j1] times (sum_{j~: M[j~, j2] > 0} M[j~, j2])^{n-1}, which the engine "
           "shows equal to the right side for every a, b in [0, 1] and symbolic n. Also checked exactly for n <= 3.",
      limitation="The upper bound (the table's floor at most the right side) rests on the records' floor, which "
                 "is the right side's own formula, so it is argued; the lower bound (attained) is shown by the "
                 "engine for every n.")

# Bernoulli sampling before misclassification: each unit releases nothing (1 - p) or j~ (p M[j~, x])
_ps = sp.Symbol("p", positive=True)
_NS = sp.Symbol("N", integer=True, positive=True)
E_SAMPLED = sp.Symbol(r"\varepsilon_{p}(\tilde{\mathbf f})", extended_real=True)
D_SAMPLED = sp.Symbol(r"\delta_{p}(\varepsilon)", nonnegative=True)
# the other units of the population: each releases nothing (1 - p) or a category (p times its column of M), so the sum
# of the product of their factors over their outcomes is the product of (1 - p) + p (column sum), kept as printed
with sp.evaluate(False):
    _OTHER_UNITS = (held((1 - _ps) + _ps * a + _ps * (1 - a))**_o1
                    * held((1 - _ps) + _ps * b + _ps * (1 - b))**_o2)
_s_up, _w_up = sp.symbols("s w", nonnegative=True)


def _max_of_shifted() -> Proof:
    """max(c + p x, c + p y) = c + p max(x, y) for p >= 0, on x = y + t and y = x + t, t >= 0 (computed)."""
    c, x, y = sp.symbols("c x y", real=True)
    pp, t = sp.symbols("p t", nonnegative=True)
    ok = all(sp.Max(c + pp * u, c + pp * v) - (c + pp * sp.Max(u, v)) == 0 for u, v in ((y + t, y), (x, x + t)))
    return mechanical(ok, "max_{j1 != j2} (c + p S_{j1 j2}) = c + p max_{j1 != j2} S_{j1 j2} for p >= 0 and c free of "
                          "the pair: max(c + p x, c + p y) = c + p max(x, y) on x >= y and on x <= y")


def _sampled_profile_proof(c: Claim) -> Proof:
    return all_of(
        cite("bernoulli_sampling_counts", "each unit is drawn independently with probability p"),
        cite("ss_independent_misclassification", "a drawn unit of category j is released in j~ with probability "
             "M[j~, j], independently: each unit's outcome is 'nothing' with probability 1 - p, whatever its "
             "category, or j~ with probability p M[j~, j]; neighbouring populations differ in one unit's category "
             "(j1 against j2), and the other units' factors sum over their outcomes to ((1 - p) + p (a + (1 - a)))^"
             "{n'_1} ((1 - p) + p (b + (1 - b)))^{n'_2}"),
        cite("hockey_stick_event_form", "the changed unit's delta is ((1 - p) - e^eps (1 - p))_+ + sum_j~ (p M[j~, j1] "
             "- e^eps p M[j~, j2])_+"),
        _positive_part_scales(),
        _max_of_shifted(),
        cite("data_processing_hockey_stick", "the released table (the counts of the released categories; who was "
             "drawn is not released) is a function of the units' outcomes, a post-processing"),
        conclude_bounds(c, above=((sp.Max(0, (1 - _ps) * (1 - R_EPS)) + _ps * PROFILE_M2) * _OTHER_UNITS,
                                  lambda s: conclude(s, Parametrization({R_EPS: 1 + _s_up, _ps: 1 - _w_up},
                                                                        {_s_up: R_EPS - 1, _w_up: 1 - _ps})))))


claim(id="ss.sampled_pram",
      title="2 x 2 M, Bernoulli(p) sampling before misclassification: the (eps, delta) profile of the released "
            "table is at most p delta_M(eps), e^eps >= 1",
      source=Source(DOC, "Section 5 (the combined effect of sampling and perturbation, left to further work)"),
      kind="inequality", lhs=D_SAMPLED, rhs=_ps * PROFILE_M2, relation="<=",
      conditions=UNIT + (sp.Ge(R_EPS, 1), sp.Le(_ps, 1)), proof=_sampled_profile_proof,
      note="Every population size N and every e^eps >= 1. No response knowledge: the release does not say who was "
           "sampled. Per unit the release is 'nothing' with probability 1 - p, whatever its category, so the unit's "
           "profile is p delta_M(epsilon) + max(0, (1 - p)(1 - e^epsilon)) = p delta_M(epsilon); the other units' "
           "factors sum to 1 and the table is a function of the units' releases (post-processing, cited). The "
           "engine checks the bound with e^eps = 1 + s, p = 1 - w (s, w >= 0). The structural-zero floor becomes p "
           "times that of M. The tests compare it with the exact laws of every population of N <= 3 units.")

def _attained_row_sampled(row, n, p):
    """ln of the ratio of (1) at f~ = N e_j~ (every unit drawn and released in j~) between the population counts
    F^(1) = N e_c and F^(2) = (N - 1) e_c + e_d: (p M[j~, c])^N against (p M[j~, c])^{N-1} p M[j~, d], c and d the
    columns of the row's largest and smallest entries; -oo and +oo as in :func:`_attained_row`."""
    p1 = p**n * sp.Max(*row)**n
    p2 = p**n * sp.Max(*row)**(n - 1) * sp.Min(*row)
    return sp.Piecewise((-sp.oo, sp.Eq(p1, 0)), (sp.oo, sp.Eq(p2, 0)), (sp.log(p1) - sp.log(p2), True))


_EPS_ATTAINED_SAMPLED = sp.Max(*(_attained_row_sampled(row, _NS, _ps) for row in M2))


def _sampled_epsilon_proof(c: Claim) -> Proof:
    m1, m2 = _m1, _m2
    return all_of(
        cite("bernoulli_sampling_counts", "each unit is drawn independently with probability p"),
        cite("ss_independent_misclassification", "a drawn unit of category j is released in j~ with probability "
             "M[j~, j], independently: a unit's outcome is 'nothing' with probability 1 - p or j~ with probability "
             "p M[j~, j]; neighbouring populations differ in one unit's category"),
        zero((_ps * m1) / (_ps * m2) - m1 / m2, "a released category j~: the ratio p M[j~, j1] / (p M[j~, j2]) is the "
             "record's, at most the right side as for the records (below)"),
        mechanical(all(sum(row[j] for row in M2) == 1 for j in range(2)),
                   "the columns of M sum to 1 (a + (1 - a) = b + (1 - b) = 1), so sum_j~ p M[j~, j1] / sum_j~ p "
                   "M[j~, j2] = 1 = (1 - p)/(1 - p)"),
        cite("mediant_inequality", "the ratio 1 of the outcome 'nothing' (p < 1) is the ratio of the sums over the "
             "released categories, so at most the largest ratio M[j~, j1] / M[j~, j2] of a released category: it adds"
             " nothing to the maximum in (1)"),
        _record_level_epsilon(),
        cite("ss_independent_misclassification", "lower bound, every N >= 1: f~ = N e_j~ (every unit drawn and "
             "released in j~) has probability (p M[j~, c])^N under N e_c and (p M[j~, c])^{N-1} p M[j~, d] under its "
             "neighbour (N - 1) e_c + e_d"),
        conclude_bounds(c, above=_EPSILON_UPPER,
                        below=(_EPS_ATTAINED_SAMPLED, lambda s: conclude_extended_pieces(s, _LINES_AB))))


claim(id="ss.sampled_pram_epsilon",
      title="2 x 2 M, Bernoulli(p) sampling before misclassification: the epsilon of (1) for the released table "
            "equals that of M (the formula of ss.misclassification_epsilon)",
      source=Source(DOC, "Section 5 (the combined effect of sampling and perturbation, left to further work)"),
      kind="identity", lhs=E_SAMPLED, rhs=EPSILON_M2, conditions=UNIT + (sp.Le(_ps, 1),),
      proof=_sampled_epsilon_proof,
      note="Every population size N. Bernoulli sampling does not lower the pure epsilon of misclassification. <=: a "
           "unit's outcome 'nothing' has ratio 1, which the mediant inequality puts below the largest ratio of a "
           "released category, and a released category has the record's ratio; the table is a function of the "
           "units' outcomes (post-processing). >=: at f~ = N e_j~ (all N units sampled and released as j~) the laws "
           "of populations differing in one unit have ratio M[j~, j1] / M[j~, j2]; the engine checks that the "
           "largest of these equals the right side for every a, b in [0, 1], symbolic N and p. What sampling buys is "
           "in delta (ss.sampled_pram). The tests compare it with the exact laws of every population of N <= 3 "
           "units.")
