"""Sections 4-5 of K-randomization (003): ratios of sums and the per-record statement.

Each claim is verified here on its own, and its changed statement (rhs -> 2 rhs + 1, or the relation
reversed) must not be proved.  References independent of the claims: exact rational arithmetic
(fractions.Fraction) on seeded random instances, including sizes beyond the checked scopes, mpmath
for ln c <= c - 1, and counterexamples that show why the readings of (4.2)-(4.3) are the ones taken."""
from __future__ import annotations

import random
from fractions import Fraction

import mpmath as mp
import pytest

import derivations
from derivations.engine.core import all_findings, all_readings, verify_inline
from _labels import assert_label, changed_verdict

PROVED = ["kr.lemma_4_1", "kr.lemma_4_1_weights", "kr.lemma_4_1_weights_sum", "kr.lemma_4_2_cross",
          "kr.lemma_4_2_ratio_difference", "kr.lemma_4_2_rearrangement_base", "kr.lemma_4_2_rearrangement_step",
          "kr.lemma_4_2_rearrangement",
          "kr.lemma_4_2_pair", "kr.lemma_4_2_pair_reversed", "kr.lemma_4_2_monotone", "kr.corollary_4_1_cross",
          "kr.corollary_4_1", "kr.lemma_4_3_cross", "kr.lemma_4_3", "kr.lemma_4_3_third_condition",
          "kr.record_ratio", "kr.record_bound_rappor", "kr.record_bound_printed", "kr.lemma_4_2",
          "kr.lemma_4_2_reversed"]


@pytest.mark.parametrize("cid", PROVED)
def test_proved(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED")


@pytest.mark.parametrize("cid", ["kr.lemma_4_2", "kr.lemma_4_2_reversed"])
def test_lemma_4_2_for_every_m_and_a_changed_statement_is_not(cid):
    """The proof for every m: the identity by induction, the pair terms by their conditions.  Controls: the
    changed statement (2 rhs + 1) and the conditions of the other direction are not proved."""
    import dataclasses

    assert not changed_verdict(cid).proved
    other = derivations.get("kr.lemma_4_2_reversed" if cid == "kr.lemma_4_2" else "kr.lemma_4_2")
    swapped = dataclasses.replace(derivations.get(cid), id="t.swapped", conditions=other.conditions)
    assert not verify_inline(swapped).proved


def test_log_bound_is_proved_from_its_tangent_point_and_a_changed_statement_fails(all_verdicts):
    v = all_verdicts["kr.log_below_tangent"]
    assert v.label == "PROVED (with citations)" and v.citations == ["mean_value_theorem"]
    assert not changed_verdict("kr.log_below_tangent").holds


def test_readings_and_findings_of_sections_4_and_5():
    readings = {r.id for r in all_readings()}
    assert {"kr.reading.eq_4_2", "kr.reading.eq_4_3", "kr.reading.section_4_numbers",
            "kr.reading.lemma_4_2_proof_place"} <= readings
    findings = {f.id for f in all_findings()}
    assert {"kr.finding.lemma_4_3_redundant", "kr.finding.section_5_eps"} <= findings


def _rat(rng, lo=1, hi=20):
    return Fraction(rng.randint(lo, hi), rng.randint(1, 9))


# -- Lemma 4.1 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(30))
def test_lemma_4_1_ratio_of_sums_below_the_largest_ratio(seed):
    rng = random.Random(seed)
    m = rng.randint(1, 8)
    a = [Fraction(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(m)]
    b = [_rat(rng) for _ in range(m)]
    assert sum(a) / sum(b) <= max(x / y for x, y in zip(a, b))
    assert sum(a) / sum(b) >= min(x / y for x, y in zip(a, b))
    # negative control: strictly below the maximum unless all ratios are equal
    if len({x / y for x, y in zip(a, b)}) > 1:
        assert sum(a) / sum(b) < max(x / y for x, y in zip(a, b))


# -- Lemma 4.2 ------------------------------------------------------------------------------------------------
def _ratio(w, lam, mu):
    return sum(x * l for x, l in zip(w, lam)) / sum(x * u for x, u in zip(w, mu))


def _monotone_instance(rng, m, decreasing=True):
    """lambda_i/mu_i and a_i/a'_i nonincreasing (or nondecreasing) in i, all entries positive."""
    mu, ap = [_rat(rng) for _ in range(m)], [_rat(rng) for _ in range(m)]
    r = sorted((_rat(rng) for _ in range(m)), reverse=decreasing)
    t = sorted((_rat(rng) for _ in range(m)), reverse=decreasing)
    return [x * y for x, y in zip(mu, r)], mu, [x * y for x, y in zip(ap, t)], ap


@pytest.mark.parametrize("seed", range(40))
def test_lemma_4_2_under_the_reading_for_m_up_to_9(seed):
    rng = random.Random(seed)
    m = rng.randint(2, 9)
    lam, mu, a, ap = _monotone_instance(rng, m)
    for i in range(m):
        for j in range(i + 1, m):
            assert lam[i] / mu[i] >= lam[j] / mu[j] and a[i] / a[j] >= ap[i] / ap[j]     # (4.2), (4.3) as read
    assert _ratio(a, lam, mu) >= _ratio(ap, lam, mu)
    lam, mu, a, ap = _monotone_instance(rng, m, decreasing=False)                      # all reversed
    assert _ratio(a, lam, mu) >= _ratio(ap, lam, mu)


def test_the_other_readings_of_4_2_and_4_3_fail():
    # (4.3) in the other orientation, a_j/a_i >= a'_j/a'_i, with (4.2) as read: (4.1) reversed
    lam, mu = [Fraction(3), Fraction(1)], [Fraction(1), Fraction(3)]
    a, ap = [Fraction(1), Fraction(4)], [Fraction(1), Fraction(1)]
    assert a[1] / a[0] >= ap[1] / ap[0] and lam[0] / mu[0] >= lam[1] / mu[1]
    assert _ratio(a, lam, mu) < _ratio(ap, lam, mu)
    # (4.2) read with different indices, lambda_i mu_i >= lambda_j mu_j, with (4.3) as read: fails too
    lam, mu = [Fraction(1), Fraction(4)], [Fraction(4), Fraction(1)]       # lambda_1 mu_1 = lambda_2 mu_2 = 4
    a, ap = [Fraction(4), Fraction(1)], [Fraction(1), Fraction(1)]          # a_1/a_2 = 4 >= a'_1/a'_2 = 1
    assert lam[0] * mu[0] >= lam[1] * mu[1] and a[0] / a[1] >= ap[0] / ap[1]
    assert _ratio(a, lam, mu) < _ratio(ap, lam, mu)
    # the note's sufficient condition for (4.2) is not sufficient for the different-index reading
    lam, mu = [Fraction(2), Fraction(1)], [Fraction(1), Fraction(10)]
    assert lam[0] >= lam[1] and mu[0] <= mu[1] and not lam[0] * mu[0] >= lam[1] * mu[1]


@pytest.mark.parametrize("m", [6, 7, 8])
def test_rearrangement_beyond_the_checked_scope_exactly(m):
    rng = random.Random(m)
    a, ap, lam, mu = ([_rat(rng) for _ in range(m)] for _ in range(4))
    double = sum(a[i] * ap[j] * (lam[i] * mu[j] - lam[j] * mu[i]) for i in range(m) for j in range(m))
    pairs = sum((a[i] * ap[j] - a[j] * ap[i]) * (lam[i] * mu[j] - lam[j] * mu[i])
                for i in range(m) for j in range(i + 1, m))
    cross = (sum(x * y for x, y in zip(a, lam)) * sum(x * y for x, y in zip(ap, mu))
             - sum(x * y for x, y in zip(ap, lam)) * sum(x * y for x, y in zip(a, mu)))
    assert double == pairs == cross
    # negative control: the pair sum over i < j only (without the swapped terms) differs in general
    half = sum(a[i] * ap[j] * (lam[i] * mu[j] - lam[j] * mu[i]) for i in range(m) for j in range(i + 1, m))
    assert half != pairs


# -- Corollary 4.1 and Lemma 4.3 ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_corollary_4_1(seed):
    rng = random.Random(seed)
    q = Fraction(rng.randint(1, 49), 100)
    p = q + Fraction(rng.randint(1, 99), 100) * (1 - q)
    a1, a2, a1p, a2p = (_rat(rng) for _ in range(4))
    lhs = (q * a1 + p * a2) / (p * a1 + q * a2)
    rhs = (q * a1p + p * a2p) / (p * a1p + q * a2p)
    assert (lhs >= rhs) == (a2 / a1 >= a2p / a1p)          # both directions, since p^2 - q^2 > 0


def _lemma_4_3_instance(rng):
    a, ap, lam, mu = (_rat(rng) for _ in range(4))
    b, bp, c, cp = (Fraction(rng.randint(0, 20), rng.randint(1, 9)) for _ in range(4))
    return a, ap, lam, mu, b, bp, c, cp


@pytest.mark.parametrize("seed", range(300))
def test_lemma_4_3_and_its_redundant_condition(seed):
    a, ap, lam, mu, b, bp, c, cp = _lemma_4_3_instance(random.Random(seed))
    first, second, third = a * cp >= ap * c, a * bp <= ap * b, b * cp >= bp * c
    if first and second:
        assert third                                        # kr.lemma_4_3_third_condition
        assert (a * lam + b * mu) / (c * lam + a * mu) >= (ap * lam + bp * mu) / (cp * lam + ap * mu)


def test_neither_of_the_first_two_conditions_of_4_5_is_redundant():
    a, ap, c, cp, b, bp = Fraction(1), Fraction(1), Fraction(2), Fraction(1), Fraction(0), Fraction(0)
    assert not a * cp >= ap * c and a * bp <= ap * b and b * cp >= bp * c     # first fails, others hold
    lam = mu = Fraction(1)
    assert (a * lam + b * mu) / (c * lam + a * mu) < (ap * lam + bp * mu) / (cp * lam + ap * mu)
    a, ap, c, cp, b, bp = Fraction(1), Fraction(1), Fraction(0), Fraction(0), Fraction(1), Fraction(2)
    assert a * cp >= ap * c and not a * bp <= ap * b and b * cp >= bp * c     # second fails, others hold
    assert (a * lam + b * mu) / (c * lam + a * mu) < (ap * lam + bp * mu) / (cp * lam + ap * mu)


# -- Section 5 ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(10))
def test_record_ratio_of_independent_records(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    shared = [_rat(rng) for _ in range(n - 1)]
    r1, r1p = _rat(rng), _rat(rng)
    prod = Fraction(1)
    for x in shared:
        prod *= x
    assert (r1 * prod) / (r1p * prod) == r1 / r1p


@mp.workdps(40)
def test_log_below_its_tangent_and_the_printed_condition_is_loose():
    for c in ["0.01", "0.5", "1", "1.0001", "2", "2.718281828", "50", "1e6"]:
        c = mp.mpf(c)
        assert mp.log(c) <= c - 1
        assert mp.log(c) < c                           # (ln c)-DP is eps-DP at eps = c, as printed
    assert mp.log(1) == 0                              # equality at c = 1 only
    # negative control: the reversed inequality fails away from c = 1
    assert not mp.log(mp.mpf(2)) >= 1
