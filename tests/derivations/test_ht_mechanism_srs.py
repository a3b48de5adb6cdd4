"""Independent checks of Results 8 and 9 (000_3f4b38deb4c4e7bd.txt, Section 2.3, b = 0) and of the labels
their claims get.

References (none uses the module's closed forms or its helpers):

* the hypergeometric pmf written here from ``math.comb`` in exact Fractions, and, for small N, the law of the
  number of sampled ones obtained by enumerating every sample of every binary vector;
* supports read off those exact laws (the indices with positive probability);
* eps_{Z_0}(0) by brute force: the largest likelihood ratio over every neighbouring pair of binary vectors
  (+oo when some supports differ).

All comparisons are exact (Fractions or SymPy rationals), so there is no tolerance.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from math import comb

import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.ht_mechanism import srs as S


# -- independent references --------------------------------------------------------------------------
def pmf(NN: int, nn: int, tt: int, yy: int) -> Fraction:
    """P(y ones in a simple random sample of nn among NN units, tt of which are ones)."""
    if yy < 0 or yy > nn or yy > tt or nn - yy > NN - tt:
        return Fraction(0)
    return Fraction(comb(tt, yy) * comb(NN - tt, nn - yy), comb(NN, nn))


def support(NN: int, nn: int, tt: int) -> set[int]:
    return {yy for yy in range(nn + 1) if pmf(NN, nn, tt, yy) > 0}


def sample_law(NN: int, nn: int, x) -> dict[int, Fraction]:
    """Law of the number of sampled ones, every sample of size nn enumerated."""
    samples = list(itertools.combinations(range(NN), nn))
    law: dict[int, Fraction] = {}
    for s in samples:
        k = sum(x[u] for u in s)
        law[k] = law.get(k, Fraction(0)) + Fraction(1, len(samples))
    return law


def eps0_brute(NN: int, nn: int, lo: int, hi: int) -> Fraction | None:
    """exp(eps_{Z_0}(0)) over every neighbouring pair of binary vectors with totals in [lo, hi]; None for +oo."""
    worst = Fraction(1)
    laws = {}
    for x in itertools.product((0, 1), repeat=NN):
        if lo <= sum(x) <= hi:
            laws[x] = sample_law(NN, nn, x)
    for x, f in laws.items():
        for u in range(NN):
            xp = x[:u] + (1 - x[u],) + x[u + 1:]
            if xp not in laws:
                continue
            g = laws[xp]
            if set(f) != set(g):
                return None
            worst = max(worst, max(f[k] / g[k] for k in f))
    return worst


# -- the support condition (erratum) ------------------------------------------------------------------
def test_support_condition_matches_exact_supports_for_many_N():
    """Reference: supports of the exact laws, 1 <= n <= N <= 40, 0 <= t <= N - 1."""
    printed_wrong = []
    for NN in range(1, 41):
        for nn in range(1, NN + 1):
            for tt in range(0, NN):
                same = support(NN, nn, tt) == support(NN, nn, tt + 1)
                assert same == (min(tt, NN - 1 - tt) >= nn), (NN, nn, tt)
                if same != (max(NN - 1 - tt, tt) >= nn):
                    printed_wrong.append((NN, nn, tt))
    assert (5, 2, 0) in printed_wrong and (5, 2, 1) in printed_wrong and len(printed_wrong) > 1000


def test_support_claim_encodes_the_supports():
    """The claim's Piecewise sides, evaluated by SymPy, against the exact supports (N <= 12)."""
    c = derivations.get("htm.r8.support_condition")
    printed = derivations.get("htm.r8.support_condition.printed")
    for NN in range(1, 13):
        for nn in range(1, NN + 1):
            for tt in range(0, NN):
                pt = {S.N: NN, S.n: nn, S.t: tt}
                same = int(support(NN, nn, tt) == support(NN, nn, tt + 1))
                assert c.lhs.subs(pt) == same == c.rhs.subs(pt), (NN, nn, tt)
                assert printed.lhs.subs(pt) == same


def test_printed_counterexample_by_sample_enumeration():
    """N = 5, n = 2, t = 1 and t' = 2 (totals in Section 2.3's range {1, ..., N} under either reading of
    its '<'): the supports from every sample differ although max(N-1-t, t) >= n; the erratum uses this point."""
    f1 = sample_law(5, 2, (1, 0, 0, 0, 0))
    f2 = sample_law(5, 2, (1, 1, 0, 0, 0))
    assert set(f1) == {0, 1} and set(f2) == {0, 1, 2}
    assert max(5 - 1 - 1, 1) >= 2
    cex = derivations.get("htm.r8.support_condition.printed").counterexample
    assert {str(k): int(v) for k, v in cex.items()} == {"N": 5, "n": 2, "t": 1}


# -- the density and the pmf ratio ------------------------------------------------------------------------
def test_density_by_sample_enumeration():
    """Reference: every sample of every binary vector, N <= 6; the claim's right side evaluated by SymPy."""
    c = derivations.get("htm.r8.density")
    for NN in range(2, 7):
        for nn in range(1, NN):
            for x in itertools.product((0, 1), repeat=NN):
                law = sample_law(NN, nn, x)
                tt = sum(x)
                for yy in range(nn + 1):
                    assert law.get(yy, 0) == pmf(NN, nn, tt, yy)
                    if yy in law:
                        assert c.rhs.subs({S.N: NN, S.n: nn, S.t: tt, S.y: yy}) == sp.Rational(
                            law[yy].numerator, law[yy].denominator)


def test_pmf_ratio_on_the_common_support():
    """Reference: exact Fractions f_t(y)/f_{t+1}(y), N <= 30, every y in the common support."""
    for NN in range(2, 31):
        for nn in range(1, NN + 1):
            for tt in range(0, NN):
                for yy in support(NN, nn, tt) & support(NN, nn, tt + 1):
                    want = pmf(NN, nn, tt, yy) / pmf(NN, nn, tt + 1, yy)
                    assert want == Fraction((tt + 1 - yy) * (NN - tt), (tt + 1) * (NN - tt - nn + yy))


def test_pmf_ratio_claim_sides_at_points():
    c = derivations.get("htm.r8.pmf_ratio")
    for NN, nn, tt, yy in [(10, 3, 4, 2), (30, 7, 12, 0), (9, 4, 4, 4), (6, 2, 3, 1)]:
        pt = {S.N: NN, S.n: nn, S.t: tt, S.y: yy}
        want = pmf(NN, nn, tt, yy) / pmf(NN, nn, tt + 1, yy)
        q = sp.Rational(want.numerator, want.denominator)
        assert sp.simplify(c.lhs.subs(pt)) == q == c.rhs.subs(pt)


def test_ratio_decreasing_in_y():
    """Reference: consecutive exact ratios on the common support, N <= 30."""
    for NN in range(2, 31):
        for nn in range(1, NN + 1):
            for tt in range(0, NN):
                ys = sorted(support(NN, nn, tt) & support(NN, nn, tt + 1))
                r = [pmf(NN, nn, tt, yy) / pmf(NN, nn, tt + 1, yy) for yy in ys]
                assert all(a > b for a, b in zip(r, r[1:])), (NN, nn, tt)


# -- Result 9 -------------------------------------------------------------------------------------------------
def test_kernel_bounds_are_the_maxima_and_their_decompositions():
    """Reference: exact Fractions over t in [m_t, M_t - 1], y in [0, n], N <= 18, min(m_t, N - M_t) >= n; the
    hand decompositions quoted in the proofs' docstrings hold term by term."""
    cases = 0
    for NN in range(2, 19):
        for nn in range(1, NN):
            for lo in range(nn, NN):
                for hi in range(lo + 1, NN - nn + 1):
                    up = Fraction(NN - hi + 1, NN - hi + 1 - nn)
                    down = Fraction(lo + 1, lo + 1 - nn)
                    best_up = best_down = Fraction(0)
                    for tt in range(lo, hi):
                        for yy in range(nn + 1):
                            r = pmf(NN, nn, tt, yy) / pmf(NN, nn, tt + 1, yy)
                            best_up, best_down = max(best_up, r), max(best_down, 1 / r)
                            assert up - r == (Fraction(nn * (hi - 1 - tt), (NN - hi + 1 - nn) * (NN - tt - nn))
                                              + Fraction(yy * (NN + 1 - nn) * (NN - tt),
                                                         (NN - tt - nn) * (tt + 1) * (NN - tt - nn + yy)))
                            assert down - 1 / r == (Fraction(nn * (tt - lo), (lo + 1 - nn) * (tt + 1 - nn))
                                                    + Fraction((tt + 1) * (nn - yy) * (NN + 1 - nn),
                                                               (tt + 1 - nn) * (tt + 1 - yy) * (NN - tt)))
                    assert (best_up, best_down) == (up, down)
                    cases += 1
    assert cases > 500


@pytest.mark.parametrize("NN", range(2, 7))
def test_epsilon0_by_brute_force_over_binary_vectors(NN):
    """Reference: every neighbouring pair of binary vectors, every sample (N <= 6); the claims' right sides."""
    finite = derivations.get("htm.r9.epsilon0")
    for nn in range(1, NN):
        for lo in range(0, NN):
            for hi in range(lo + 1, NN + 1):
                got = eps0_brute(NN, nn, lo, hi)
                if min(lo, NN - hi) < nn:
                    assert got is None, (NN, nn, lo, hi)
                else:
                    stated = sp.exp(finite.rhs.subs({S.N: NN, S.n: nn, S.m_t: lo, S.M_t: hi}))
                    assert stated == sp.Rational(got.numerator, got.denominator), (NN, nn, lo, hi)


def test_reading_of_result9_against_the_alternative_denominators():
    """The example of reading htm.r9.finite_case: N = 4, n = 1, m_t = 1, M_t = 2 gives exp(eps(0)) = 2."""
    assert eps0_brute(4, 1, 1, 2) == 2 == max(Fraction(4 - 2 + 1, 4 - 2 + 1 - 1), Fraction(1 + 1, 1 + 1 - 1))


def test_result8_check_has_teeth():
    """The finite check of Result 8 would catch a wrong formula: keeping only t' = t + 1 (one direction) differs
    from the brute force over every neighbouring pair somewhere (N = 4, e^eps = 3/2), while Result 8's formula
    (the module's helper) agrees with it everywhere there."""
    c = Fraction(3, 2)

    def brute(NN, nn, lo, hi):
        best = Fraction(0)
        for x in itertools.product((0, 1), repeat=NN):
            if not lo <= sum(x) <= hi:
                continue
            for u in range(NN):
                xp = x[:u] + (1 - x[u],) + x[u + 1:]
                if lo <= sum(xp) <= hi:
                    f, g = sample_law(NN, nn, x), sample_law(NN, nn, xp)
                    best = max(best, sum((max(f[k] - c * g.get(k, 0), 0) for k in f), Fraction(0)))
        return best

    def one_direction(NN, nn, lo, hi):
        return max(sum((max(pmf(NN, nn, tt, k) - c * pmf(NN, nn, tt + 1, k), 0) for k in range(nn + 1)),
                       Fraction(0)) for tt in range(lo, hi))

    grid = [(nn, lo, hi) for nn in (1, 2, 3) for lo in range(4) for hi in range(lo + 1, 5)]
    assert any(brute(4, *g) != one_direction(4, *g) for g in grid)
    assert all(brute(4, *g) == S.delta0_by_totals(4, *g, c) for g in grid)


# -- labels and negative controls -----------------------------------------------------------------------------
LABELS = {
    "htm.r8.density": "PROVED (with citations)",
    "htm.r8.pmf_ratio": "PROVED",
    "htm.r8.ratio_decreasing": "PROVED",
    "htm.r8.support_condition": "PROVED",
    "htm.r8.support_condition.printed": "REFUTED",
    "htm.r9.bound_ratio_up": "PROVED",
    "htm.r9.bound_ratio_down": "PROVED",
    "htm.r9.epsilon0": "PROVED (with citations)",
    "htm.r9.epsilon0_infinite": "PROVED (with citations)",
    "htm.r8.delta0": "CHECKED (finite scope: ",
}


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(LABELS))
def test_label_and_negative_controls(claim_id):
    c = derivations.get(claim_id)
    v = verify_inline(c)
    want = LABELS[claim_id]
    assert v.label == want or (want.endswith(": ") and v.label.startswith(want)), v.label
    if not c.expected:
        return
    wrong = verify_inline(c.mutated())                       # rhs -> 2 rhs + 1
    assert not wrong.proved, wrong.label
    # (an infinite rhs is mutated to 0); Result 8's enumeration computes both maxima itself, not the symbols
    assert wrong.label == "FAILED" or c.enumeration is not None, wrong.label
    if c.relation != "==":
        flipped = verify_inline(c.mutated("relation"))
        assert not flipped.proved and flipped.label == "FAILED", flipped.label


def test_result_9_is_proved_without_an_argument():
    """Each proof cites the hypergeometric law and the pure-DP likelihood-ratio form, and ends in a conclusion on
    the supremum; no step is an argument and every step passes."""
    cites = {"htm.r9.epsilon0": {"pure_dp_likelihood_ratio", "hypergeometric_law"},
             "htm.r9.epsilon0_infinite": {"pure_dp_likelihood_ratio", "hypergeometric_law"}}
    for cid, keys in cites.items():
        c = derivations.get(cid)
        steps = c.proof(c).steps
        assert "argument" not in [st.kind for st in steps] and all(st.ok for st in steps), cid
        assert {st.citation for st in steps if st.citation} == keys, cid
        assert steps[-1].kind == "conclusion" and c.limitation is None


def test_supremum_proofs_refuse_wrong_right_sides():
    """Negative controls on the statements themselves: Result 9 with the bounds without their + 1 (the alternative
    reading refuted in htm.r9.finite_case), with only one of the two bounds, and the infinite case claimed under the
    finite case's condition."""
    finite = derivations.get("htm.r9.epsilon0")
    infinite = derivations.get("htm.r9.epsilon0_infinite")
    wrong = [dataclasses.replace(finite, rhs=sp.log(sp.Max((S.N - S.M_t + 1) / (S.N - S.M_t - S.n),
                                                           (S.m_t + 1) / (S.m_t - S.n))),
                                 conditions=finite.conditions + (sp.Gt(S.m_t, S.n), sp.Gt(S.N - S.M_t, S.n))),
             dataclasses.replace(finite, rhs=sp.log(S.UP)),
             dataclasses.replace(infinite, conditions=finite.conditions)]
    for c in wrong:
        c.enumeration = None
        v = verify_inline(c)
        assert not v.proved, (c.id, v.label)


def test_delta0_against_the_brute_force_over_binary_vectors():
    """Result 8, checked for N <= 6: delta by brute force over every neighbouring pair of binary vectors
    and every sample (N <= 6, e^eps in {1, 3/2}) equals its maximum over neighbouring totals, exactly."""
    c = derivations.get("htm.r8.delta0")
    e = S._delta_enum(c)
    assert e.ok and e.cases == 420 and "N <= 6" in e.scope and not c.finite


def test_title_says_b_zero_and_finding_registered():
    for cid in LABELS:
        assert "b = 0" in derivations.get(cid).title, cid
    assert "b = 0" in derivations.get("htm.r8.delta0").title
    f = {x.id: x for x in derivations.findings()}["htm.r8.title_wider_than_result"]
    assert "htm.r8.delta0" in f.claims
