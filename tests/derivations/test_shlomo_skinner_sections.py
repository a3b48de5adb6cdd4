"""Sections 2.1 (log-linear model), 3 and 4 of the Shlomo-Skinner paper.

References, independent of the claims and their enumerations: finite differences of the Poisson
log-likelihood (mpmath, 40 digits), mpmath logarithms, a direct simulation-free count of swaps, and
labelled-outcome enumerations written here from equations (3) and (4) with fractions."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import mpmath as mp
import pytest
import sympy as sp

import derivations
from derivations.engine.core import all_errata, verify_inline

PROVED = ["ss.loglinear_score", "ss.loglinear_score_mu", "ss.tau1", "ss.tau2", "ss.srs_pmf_normalised",
          "ss.bernoulli_pmf_normalised", "ss.bernoulli_pmf_normalised_high", "ss.sampling_not_dp_srs",
          "ss.sampling_not_dp_bernoulli", "ss.cm_threshold", "ss.cm_threshold_cells", "ss.average_cell_size",
          "ss.record_ratio", "ss.sensitivity", "ss.swap_matrix_column", "ss.swap_dp_fails", "ss.not_bad_neighbour_law",
          "ss.pram_invariance_columns", "ss.finite_epsilon_positive_rows", "ss.bad_outcome_neighbour",
          "ss.finite_epsilon_rows", "ss.finite_epsilon_mixed_row", "ss.recoding_not_dp"]
CITED = ["ss.srs_pmf", "ss.bernoulli_pmf", "ss.sample_unique_prob", "ss.unique_proportion",
         "ss.misclassification_epsilon", "ss.released_count_pmf_enumerated", "ss.record_profile",
         "ss.sampled_pram", "ss.sampled_pram_epsilon"]
ARGUED = ["ss.structural_floor"]
CHECKED = ["ss.not_bad_feasible_hall"]
ERRATA = {"ss.loglinear_score_model", "ss.released_count_pmf", "ss.not_bad_feasible",
          "ss.swap_matrix", "ss.swap_dp", "ss.pram_invariance", "ss.finite_epsilon", "ss.bad_outcome"}


@pytest.mark.parametrize("cid", PROVED)
def test_proved(all_verdicts, cid):
    # the changed statement of each (rhs -> 2 rhs + 1, or the relation reversed) is verified by the
    # negative controls of tests/derivations/test_negative_controls.py
    assert all_verdicts[cid].label == "PROVED"


@pytest.mark.parametrize("cid", CITED)
def test_cited_laws_and_a_changed_statement_is_not(all_verdicts, cid):
    """The laws of the sample counts are instances of the cited laws (multivariate hypergeometric, Bernoulli, a
    simple random sample of iid units, the multiplication rule); the released table's epsilon and delta rest on
    post-processing (cited) and on the mechanism's definition (4)."""
    assert all_verdicts[cid].label == "PROVED (with citations)"
    assert not verify_inline(derivations.get(cid).mutated()).ok


@pytest.mark.parametrize("cid", ARGUED)
def test_argued_upper_bound_and_a_changed_statement_is_not(all_verdicts, cid):
    """The lower bound (the value attained, for every n) is checked by the engine; the upper bound, the records'
    floor, is the right side's own formula, which the engine does not accept as a bound: ARGUED, with its reason."""
    assert all_verdicts[cid].label == "ARGUED" and derivations.get(cid).limitation
    assert not verify_inline(derivations.get(cid).mutated()).ok


@pytest.mark.parametrize("cid", CHECKED)
def test_checked_on_a_stated_scope_and_a_changed_statement_is_not(all_verdicts, cid):
    assert all_verdicts[cid].ok and all_verdicts[cid].label.startswith("CHECKED (finite scope: ")
    assert not verify_inline(derivations.get(cid).mutated()).ok


def test_count_pmf_correction_is_proved_with_a_citation(all_verdicts):
    assert all_verdicts["ss.released_count_pmf"].label == "PROVED (with citations)"


def test_the_errata_of_this_paper(all_verdicts):
    found = {e.id for e in all_errata() if e.printed.source.document.startswith("002_")}
    assert found == ERRATA
    for e in all_errata():
        if e.id in ERRATA:
            assert all_verdicts[e.printed.id].label == "REFUTED", e.id


# -- Section 2.1: the score, by finite differences ------------------------------------------------------------
def _loglik_derivative(f, z, beta, pi, offset: bool):
    """d/d beta of f log(mu) - mu by numerical differentiation (call at 40 digits); mu = pi e^{z beta} (offset)
    or e^{z beta}."""
    def ll(bb):
        mu = (pi if offset else 1) * mp.exp(z * bb)
        return f * mp.log(mu) - mu
    return mp.diff(ll, beta)


@pytest.mark.parametrize("f, z, beta, pi", [(1, 1, 0, "0.5"), (3, 2, "0.3", "0.01"), (0, -1, "1.5", "0.2")])
@mp.workdps(40)
def test_score_equations_against_finite_differences(f, z, beta, pi):
    pi, beta = mp.mpf(pi), mp.mpf(beta)
    printed_term = (f - pi * mp.exp(z * beta)) * z
    # the printed score is the derivative of the offset model (log lambda = z beta) ...
    assert abs(_loglik_derivative(f, z, beta, pi, offset=True) - printed_term) < mp.mpf(10) ** -25
    # ... and not of the printed model log mu = z beta, where the term is (f - e^{z beta}) z
    plain = _loglik_derivative(f, z, beta, pi, offset=False)
    assert abs(plain - (f - mp.exp(z * beta)) * z) < mp.mpf(10) ** -25
    assert abs(plain - printed_term) > mp.mpf("0.001")


# -- Section 3 -----------------------------------------------------------------------------------------------
def test_threshold_of_the_numerical_example_with_mpmath():
    with mp.workdps(30):
        t = 2 / (mp.mpf(1) / 3) * mp.log(2 * 2**16 / (mp.mpf(1) / 3))
        assert mp.nstr(t, 6) == "77.2927"
        assert int(mp.floor(t)) + 1 == 78          # "suppressing cells with F_j < 78"
        assert mp.nstr(mp.mpf(10**6) / 2**16, 3) == "15.3"


def test_srs_pmf_without_the_total_does_not_normalise():
    # the reading ss.reading.srs_support: over the box alone the sum is 2^N / C(N, n)
    F, n = (2, 1, 3), 2
    box = sum(comb(F[0], a) * comb(F[1], b) * comb(F[2], c)
              for a in range(F[0] + 1) for b in range(F[1] + 1) for c in range(F[2] + 1))
    assert Fraction(box, comb(sum(F), n)) == Fraction(64, 15) == Fraction(2**6, comb(6, 2))


# -- Section 4: labelled outcomes, written from (3) and (4) ---------------------------------------------------
def _pr_table(M, f, ft):
    """Pr[f~ | f] by summing prod M[x~_i, x_i] over every labelled outcome x~ with counts f~."""
    cats = [j for j, fj in enumerate(f) for _ in range(fj)]
    total = Fraction(0)
    for out in itertools.product(range(len(M)), repeat=len(cats)):
        if tuple(out.count(c) for c in range(len(M))) == tuple(ft):
            pr = Fraction(1)
            for o, j in zip(out, cats):
                pr *= M[o][j]
            total += pr
    return total


def test_printed_count_pmf_counterexample_and_its_total():
    M = [[Fraction(1, 2), Fraction(1, 3)], [Fraction(1, 2), Fraction(2, 3)]]
    assert _pr_table(M, (2, 0), (1, 1)) == Fraction(1, 2)
    # the printed sum (one term per matrix a, no multinomial factor) over the three outcomes of f = (2, 0)
    printed = sum(M[0][0] ** t * M[1][0] ** (2 - t) for t in range(3))
    assert printed == Fraction(3, 4)


def test_not_bad_counterexample_by_enumeration():
    third = Fraction(1, 3)
    M = [[third, third, 0], [third, third, 0], [third, third, 1]]
    assert _pr_table(M, (0, 2, 0), (1, 1, 0)) == Fraction(2, 9)
    assert _pr_table(M, (0, 1, 1), (1, 1, 0)) == 0


def test_swap_matrix_is_the_law_of_one_random_swap():
    """Every pair of records equally likely; count how often record i (category x_i) ends in category j1."""
    for x in [(0, 0, 1, 2), (0, 1, 1, 2, 2, 2), (0, 1, 2)]:
        n, pairs = len(x), list(itertools.combinations(range(len(x)), 2))
        f = [x.count(c) for c in range(3)]
        for i in range(n):
            partners = [p[0] + p[1] - i for p in pairs if i in p]
            for j1 in range(3):
                if j1 != x[i]:   # moved: paired with a record of category j1
                    got = Fraction(sum(x[q] == j1 for q in partners), len(pairs))
                    assert got == Fraction(f[j1], comb(n, 2)), (x, i, j1)
                else:            # kept: not paired with a record of another category
                    got = 1 - Fraction(sum(x[q] != j1 for q in partners), len(pairs))
                    assert got == 1 - Fraction(n - f[j1], comb(n, 2)), (x, i, j1)


def test_pram_invariance_counterexample():
    M = sp.Matrix([[1, sp.Rational(1, 2)], [0, sp.Rational(1, 2)]])
    v = sp.Matrix([[sp.Rational(1, 2), sp.Rational(1, 2)]])
    assert v * M == v                                   # the printed condition holds ...
    assert (M * v.T).T == sp.Matrix([[sp.Rational(3, 4), sp.Rational(1, 4)]])   # ... yet E[f~/n] != v


# -- Section 4: finite epsilon, bad outcomes, structural zeros (labelled outcomes, written here) ---------------
def _compositions(n, k):
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first,) + rest


def _moves(f):
    """Every neighbour of the count vector f: one record moved from an occupied category to another."""
    for j, fj in enumerate(f):
        for l in range(len(f)):
            if fj and l != j:
                g = list(f)
                g[j] -= 1
                g[l] += 1
                yield tuple(g)


def _largest_ratio(M, n):
    """max of Pr[f~ | f1] / Pr[f~ | f2] over neighbours f1, f2 of n records and possible outcomes (None: +oo)."""
    k, best = len(M[0]), Fraction(0)
    for f1 in _compositions(n, k):
        for ft in _compositions(n, len(M)):
            p1 = _pr_table(M, f1, ft)
            if p1:
                for f2 in _moves(f1):
                    p2 = _pr_table(M, f2, ft)
                    if not p2:
                        return None
                    best = max(best, p1 / p2)
    return best


def _bad_rows(M, f1, ft):
    """The rows j~ at which f~ is bad for f^(1) by the printed definition: f~_j~ = n - sum_{M[j~, j] = 0} f_j."""
    n = sum(f1)
    return [jt for jt in range(len(M)) if ft[jt] == n - sum(f1[j] for j in range(len(f1)) if M[jt][j] == 0)]


def test_finite_epsilon_counterexample_and_illustration_by_enumeration():
    """ss.finite_epsilon: a row of zeros leaves epsilon finite (reference: labelled outcomes, n = 1, 2, 3)."""
    recode = [[1, 1, 1], [0, 0, 0], [0, 0, 0]]
    h, q = Fraction(1, 2), Fraction(1, 4)
    pram = [[h, q, 1 - q], [h, 1 - q, q], [0, 0, 0]]
    for n in (1, 2, 3):
        assert _largest_ratio(recode, n) == 1            # 0-DP although M has zeros
        assert _largest_ratio(pram, n) == 3              # epsilon = ln 3 = ln(3/4) - ln(1/4), row 2
    # a zero next to a positive entry in a row makes it infinite (the direction the paper's argument covers)
    assert _largest_ratio([[1, h, 0], [0, h, 0], [0, 0, 1]], 1) is None
    e = next(x for x in derivations.errata() if x.id == "ss.finite_epsilon")
    assert e.printed.counterexample[sp.Symbol("M_{31}", nonnegative=True)] == 0


def test_finite_epsilon_iff_no_mixed_row_on_3x3_zero_patterns():
    """Over every zero pattern of a 3 x 3 column-stochastic matrix (positive entries unequal within a column, so
    that ratios differ from 1), n = 1: epsilon is finite exactly when no row has both a zero and a positive
    entry, and 'every element positive' misses the patterns with a row of zeros."""
    differ = 0
    for support in itertools.product([s for r in (1, 2, 3) for s in itertools.combinations(range(3), r)], repeat=3):
        M = [[Fraction(0)] * 3 for _ in range(3)]
        for j, rows in enumerate(support):
            weights = [Fraction(i + 1) for i in range(len(rows))]
            for w, r in zip(weights, rows):
                M[r][j] = w / sum(weights)
        mixed = any(any(m == 0 for m in row) and any(m > 0 for m in row) for row in M)
        finite = _largest_ratio(M, 1) is not None
        assert finite == (not mixed), M
        differ += finite != all(m > 0 for row in M for m in row)
    # no mixed row: the positive rows R are the same for every column, R non-empty; R a proper subset: 6 patterns
    assert differ == 6


def test_bad_outcome_witness_by_enumeration():
    """ss.bad_outcome: M = [[1, 1/2], [0, 1/2]], f1 = (2, 0), f~ = (2, 0) is bad, yet positive under every
    database of two records, with largest neighbour ratio 2 (reference: labelled outcomes)."""
    h = Fraction(1, 2)
    M = [[1, h], [0, h]]
    assert _bad_rows(M, (2, 0), (2, 0)) == [0, 1]
    assert [_pr_table(M, f, (2, 0)) for f in ((2, 0), (1, 1), (0, 2))] == [1, h, h * h]
    ratios = [_pr_table(M, f1, (2, 0)) / _pr_table(M, f2, (2, 0)) for f1 in ((2, 0), (1, 1), (0, 2))
              for f2 in _moves(f1)]
    assert max(ratios) == 2
    # the constant release: bad at j~ = 2 with A_2 = {1, 2} non-empty, and 0-DP
    assert _bad_rows([[1, 1], [0, 0]], (2, 0), (2, 0)) == [0, 1]
    assert _largest_ratio([[1, 1], [0, 0]], 2) == 1


def test_bad_outcome_corrected_conditions_by_enumeration():
    """Every 3 x 3 zero pattern, n <= 3: a bad outcome at a row j~ with A_j~ non-empty and f~_j~ >= 1 has a
    neighbour under which it is impossible (the corrected statement); without those two conditions some bad
    outcomes have none (the printed statement fails). Reference: labelled outcomes."""
    corrected_fails = printed_fails = 0
    for support in itertools.product([s for r in (1, 2, 3) for s in itertools.combinations(range(3), r)], repeat=3):
        M = [[Fraction(1, len(support[j])) if r in support[j] else Fraction(0) for j in range(3)] for r in range(3)]
        for n in (1, 2, 3):
            for f1 in _compositions(n, 3):
                for ft in _compositions(n, 3):
                    if not _pr_table(M, f1, ft):
                        continue
                    rows = _bad_rows(M, f1, ft)
                    if not rows:
                        continue
                    blocked = any(_pr_table(M, f2, ft) == 0 for f2 in _moves(f1))
                    printed_fails += not blocked
                    if any(ft[jt] >= 1 and any(M[jt][j] == 0 for j in range(3)) for jt in rows):
                        corrected_fails += not blocked
    assert corrected_fails == 0
    assert printed_fails > 0


def test_bad_outcome_counterexample_must_lie_inside_the_definition():
    """Negative control: the printed claim's counterexample moved to a = 0 (f~ = (2, 0) impossible under f1,
    so not an outcome 'which could arise from f^(1)') is refused as outside the claim."""
    import dataclasses
    c = derivations.get("ss.bad_outcome.printed")
    a_, b_ = sp.symbols("a b", nonnegative=True)
    moved = dataclasses.replace(c, id="ss.bad_outcome.printed.moved", counterexample={a_: 0, b_: sp.Rational(1, 2)})
    v = verify_inline(moved)
    assert not v.ok and "outside" in v.checks[0].detail


def test_structural_zeros_finding_points_to_the_corrections():
    f = {x.id: x for x in derivations.findings()}["ss.finding.structural_zeros"]
    assert set(f.claims) == {"ss.finite_epsilon_positive_rows", "ss.structural_floor"}
    assert "not applicable" in f.text



# -- the amendments of the review: readings of 'bad', the k = 4 'not bad' case, the converse of finite epsilon -----
def test_bad_outcome_erratum_names_its_two_readings():
    """ss.bad_outcome rests on two readings of the printed definition (f~^(1) read f^(1), A_j read A_j~); the
    erratum names both, and its explanation says the slip does not harm the (epsilon, delta) conclusion."""
    e = next(x for x in derivations.errata() if x.id == "ss.bad_outcome")
    readings = {r.id: r for r in derivations.readings()}
    assert set(e.readings) == {"ss.reading.bad_arise_from", "ss.reading.bad_index"}
    for rid in e.readings:
        assert readings[rid].claims == ("ss.bad_outcome.printed",)
    assert "f~^(1)" in readings["ss.reading.bad_arise_from"].printed
    assert "A_j =" in readings["ss.reading.bad_index"].printed
    assert "does not harm the paper's (epsilon, delta) conclusion" in e.explanation


def test_not_bad_sentence_fails_at_k_4_by_enumeration():
    """'If the outcome is not bad and |f^(1) - f^(2)| = 2 then Pr[f~ | f^(2)] != 0' (the sentence of the erratum
    ss.not_bad_feasible) fails also where no single column is blocked: k = 4, true categories {1, 2} released
    uniformly in {1, 2}, {3, 4} uniformly in {3, 4}; f^(1) = f~ = (1, 1, 1, 1) has probability 1/4 and is not
    bad (f~_j~ = 1 < 2 = n - sum_{A_j~} f_j for every j~), yet the neighbour (0, 1, 2, 1) gives it probability 0
    (reference: labelled outcomes, exact)."""
    h = Fraction(1, 2)
    M = [[h, h, 0, 0], [h, h, 0, 0], [0, 0, h, h], [0, 0, h, h]]
    assert all(sum(M[r][c] for r in range(4)) == 1 for c in range(4))
    f1 = ft = (1, 1, 1, 1)
    assert _pr_table(M, f1, ft) == Fraction(1, 4)
    assert _bad_rows(M, f1, ft) == []
    blocked = [f2 for f2 in _moves(f1) if _pr_table(M, f2, ft) == 0]
    assert (0, 1, 2, 1) in blocked and len(blocked) == 8          # every move across the two blocks
    assert "ss.not_bad_feasible" in {x.id for x in derivations.errata()}


def test_finite_epsilon_counterexample_is_the_non_degenerate_matrix():
    """The printed claim's counterexample is M = [[1/2, 1/4, 3/4], [1/2, 3/4, 1/4], [0, 0, 0]]; rebuilt from the
    registered point, its largest neighbour ratio is 3 (epsilon = ln 3) for n = 1, 2, 3, although M has zeros
    (reference: labelled outcomes)."""
    e = next(x for x in derivations.errata() if x.id == "ss.finite_epsilon")
    cx = e.printed.counterexample
    M = [[Fraction(str(cx[sp.Symbol(f"M_{{{r}{c}}}", nonnegative=True)])) for c in (1, 2, 3)] for r in (1, 2, 3)]
    assert M == [[Fraction(1, 2), Fraction(1, 4), Fraction(3, 4)], [Fraction(1, 2), Fraction(3, 4), Fraction(1, 4)],
                 [0, 0, 0]]
    assert e.printed.illustration is None
    for n in (1, 2, 3):
        assert _largest_ratio(M, n) == 3
    assert "recoding with a = k" not in e.explanation and "undefined on a row of zeros" in e.explanation


def test_finite_epsilon_converse_construction_by_enumeration():
    """ss.finite_epsilon_mixed_row: for every 3 x 3 zero pattern (positive entries unequal in a column), every row
    j~ with M[j~, j] = 0 < M[j~, j'] and n = 1, 2, 3: f~ = n e_j~ has probability M[j~, j']^n under n e_j' and 0
    under (n - 1) e_j' + e_j (reference: labelled outcomes)."""
    cases = 0
    for support in itertools.product([s for r in (1, 2, 3) for s in itertools.combinations(range(3), r)], repeat=3):
        M = [[Fraction(0)] * 3 for _ in range(3)]
        for j, rows in enumerate(support):
            for i, r in enumerate(rows):
                M[r][j] = Fraction(i + 1, sum(range(1, len(rows) + 1)))
        for jt, j, jp in itertools.product(range(3), repeat=3):
            if M[jt][j] == 0 < M[jt][jp]:
                for n in (1, 2, 3):
                    ft = tuple(n if c == jt else 0 for c in range(3))
                    f1 = tuple(n if c == jp else 0 for c in range(3))
                    f2 = tuple(f1[c] - (c == jp) + (c == j) for c in range(3))
                    assert _pr_table(M, f1, ft) == M[jt][jp] ** n > 0
                    assert _pr_table(M, f2, ft) == 0
                    cases += 1
    assert cases > 0


def test_structural_zeros_finding_carries_the_strengthening_and_the_caveat():
    f = {x.id: x for x in derivations.findings()}["ss.finding.structural_zeros"]
    assert "column of M equal to another column" in f.text and "full universe" in f.text
    assert "age is released unperturbed" in f.text


# -- the general proofs of the released table's epsilon and delta: their bounds against labelled outcomes ----------
def _table_floor(M, n):
    """max over neighbours f1, f2 of n records of the mass of Pr[. | f1] on the outcomes impossible under f2."""
    k, best = len(M[0]), Fraction(0)
    for f1 in _compositions(n, k):
        for f2 in _moves(f1):
            mass = sum((_pr_table(M, f1, ft) for ft in _compositions(n, len(M)) if not _pr_table(M, f2, ft)),
                       Fraction(0))
            best = max(best, mass)
    return best


_GRID_AB = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1)]


@pytest.mark.parametrize("n", [1, 2, 4])
def test_attained_epsilon_and_floor_are_the_tables_for_n_up_to_4(n):
    """The lower bounds the proofs of ss.misclassification_epsilon and ss.structural_floor evaluate for symbolic n
    (the outcome f~ = n e_j~, the pair (n-1) e_j2 + e_j1 against n e_j2) and the claims' right sides are the table's
    epsilon and floor; the reference is the largest neighbour ratio and the impossible mass over every labelled
    outcome (n = 4 beyond the floor claim's own enumeration, n <= 3)."""
    from derivations.shlomo_skinner import misclassification as mc
    a, b = mc.a, mc.b
    for av, bv in itertools.product(_GRID_AB, repeat=2):
        M = [[av, bv], [1 - av, 1 - bv]]
        at = {a: sp.Rational(av), b: sp.Rational(bv), mc._n_rec: n}
        ratio = _largest_ratio(M, n)
        expected = sp.oo if ratio is None else sp.log(sp.Rational(ratio))
        for side in (mc._EPS_ATTAINED, derivations.get("ss.misclassification_epsilon").rhs):
            got = sp.simplify(side.subs(at))
            assert got == expected or sp.simplify(got - expected) == 0, (av, bv, n, got, expected)
        floor = mc._floor_attained(mc.M2, mc._n_rec).subs(at)
        assert floor == _table_floor(M, n), (av, bv, n)
        assert derivations.get("ss.structural_floor").rhs.subs(at) == floor


def test_recoding_row_one_is_a_witness_for_every_k_up_to_7():
    """ss.recoding_not_dp for every k <= 7 and a < k: the matrix written here (categories 1..a to 1, the others
    shifted) has M[1, 1] = 1 and M[1, a + 1] = 0, the entries the claim's two sides evaluate to, and the epsilon of
    (1) for one record is infinite (reference: labelled outcomes, n = 1)."""
    from derivations.engine.notation import release
    c = derivations.get("ss.recoding_not_dp")
    # the two sides as the engine reads them: M[1, 1] = 1 and e^eps M[1, a + 1] = 0 for every positive integer a
    assert release(c.lhs) == 1 and release(c.rhs) == 0
    for k in range(2, 8):
        for merged in range(1, k):
            M = [[Fraction(int((j2 < merged and j1 == 0) or (j2 >= merged and j1 == j2 - merged + 1)))
                  for j2 in range(k)] for j1 in range(k)]
            assert all(sum(M[r][j] for r in range(k)) == 1 for j in range(k))
            assert _largest_ratio(M, 1) is None
            assert M[0][0] == 1 and M[0][merged] == 0


def test_unique_proportion_product_of_the_two_laws():
    """ss.unique_proportion: Pr(F_c = 1) Pr(f_c = 1 | F_c = 1) = N q (1 - q)^{N-1} C(N-1, n-1)/C(N, n) by the
    binomial and hypergeometric laws written here, equal to the claim's right side (reference: exact rationals)."""
    c = derivations.get("ss.unique_proportion")
    syms = {s.name: s for s in c.rhs.free_symbols}
    for N in range(1, 9):
        for n in range(1, N + 1):
            for q in (Fraction(1, 5), Fraction(2, 3)):
                pu = N * q * (1 - q) ** (N - 1)
                given = Fraction(comb(1, 1) * comb(N - 1, n - 1), comb(N, n))
                assert pu * given == c.rhs.subs({syms["N"]: N, syms["n"]: n, syms["q"]: sp.Rational(q)})


_PMF_MATRICES = [(Fraction(1, 2), Fraction(1, 3)), (Fraction(1), Fraction(1, 4)), (Fraction(0), Fraction(2, 3)),
                 (Fraction(3, 5), Fraction(3, 5)), (Fraction(1, 4), Fraction(1))]


def test_released_count_law_against_labelled_outcomes():
    """ss.released_count_pmf_enumerated: the printed sum with its multinomial factors is Pr[f~_1 = t | f] for f_1,
    f_2 <= 3, every t and five matrices (reference: every labelled outcome of the records, exact)."""
    c = derivations.get("ss.released_count_pmf_enumerated")
    syms = {s.name: s for s in c.rhs.free_symbols}
    for av, bv in _PMF_MATRICES:
        M = [[av, bv], [1 - av, 1 - bv]]
        for f1, f2 in itertools.product(range(4), repeat=2):
            for t in range(f1 + f2 + 1):
                at = {syms["a"]: sp.Rational(av), syms["b"]: sp.Rational(bv), syms["f_1"]: f1, syms["f_2"]: f2,
                      syms["t"]: t}
                assert c.rhs.subs(at).doit() == _pr_table(M, (f1, f2), (t, f1 + f2 - t)), (av, bv, f1, f2, t)


def _sampled_law(M, F, p):
    """{f~: Pr} for a population with category counts F: each unit is not drawn (1 - p) or drawn and released in
    j~ (p M[j~, x]), independently; f~ counts the released categories (who was drawn is not released)."""
    cats = [j for j, Fj in enumerate(F) for _ in range(Fj)]
    law = {}
    for out in itertools.product(range(len(M) + 1), repeat=len(cats)):
        pr = Fraction(1)
        for o, j in zip(out, cats):
            pr *= (1 - p) if o == len(M) else p * M[o][j]
        if pr:
            ft = tuple(out.count(jt) for jt in range(len(M)))
            law[ft] = law.get(ft, 0) + pr
    return law


@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(1, 2), Fraction(1)])
def test_sampled_release_epsilon_and_profile_against_exact_laws(p):
    """ss.sampled_pram_epsilon and ss.sampled_pram: for populations of N <= 3 units, a, b in {0, 1/3, 2/3, 1}, the
    epsilon of (1) over every pair of neighbouring populations and every outcome is the formula of
    ss.misclassification_epsilon, and the delta at e^eps in {1, 3/2, 3} is at most p delta_M(eps), with equality
    for N = 1 (reference: the units' outcomes enumerated here, exact)."""
    eps_c, delta_c = derivations.get("ss.sampled_pram_epsilon"), derivations.get("ss.sampled_pram")
    syms = {s.name: s for s in delta_c.rhs.free_symbols}
    grid = [Fraction(i, 3) for i in range(4)]
    for av, bv in itertools.product(grid, repeat=2):
        M = [[av, bv], [1 - av, 1 - bv]]
        for N in (1, 2, 3):
            laws = {F: _sampled_law(M, F, p) for F in _compositions(N, 2)}
            pairs = [(laws[F1], laws[F2]) for F1 in laws for F2 in _moves(F1)]
            ratio = Fraction(0)
            for l1, l2 in pairs:
                for o, p1 in l1.items():
                    ratio = None if ratio is None or not l2.get(o) else max(ratio, p1 / l2[o])
            expected = sp.oo if ratio is None else sp.log(sp.Rational(ratio))
            got = eps_c.rhs.subs({syms["a"]: sp.Rational(av), syms["b"]: sp.Rational(bv)})
            assert got == expected or sp.simplify(got - expected) == 0, (av, bv, N, p)
            for r in (Fraction(1), Fraction(3, 2), Fraction(3)):
                delta = max(sum((max(Fraction(0), p1 - r * l2.get(o, 0)) for o, p1 in l1.items()), Fraction(0))
                            for l1, l2 in pairs)
                bound = delta_c.rhs.subs({syms["a"]: sp.Rational(av), syms["b"]: sp.Rational(bv),
                                          syms["p"]: sp.Rational(p), syms["r"]: sp.Rational(r)})
                assert delta <= bound, (av, bv, N, p, r)
                if N == 1:
                    assert delta == bound, (av, bv, p, r)
