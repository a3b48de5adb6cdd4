"""Appendix A of 004_005a37d6f70bd1b7.txt: the Horvitz-Thompson total of log-Laplace perturbed values
(Proposition 2, Corollary 3, Proposition 4, Corollary 5, A.3) and the analytic RSE of Section 4.3.

References, each independent of the code under test and named in its test:
* exact enumeration of the samples of a design (Fractions) with the law of total variance;
* mpmath quadrature at 50 digits of the Laplace density written with |x - mu| (noise moments);
* the first-principles expansion of Yhat and Yhat^2 as polynomials in the indicators and the noise
  factors (delta_i^2 = delta_i, Lemma 1 moments with a_i^2, not the printed shortcut) for N <= 3;
* deliberately wrong statements (negative controls), which must not get the label.
Tolerance: relative 1e-30 for the 50-digit quadratures, exact zero for the symbolic references.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction as F

import mpmath
import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.engine.proofs import exhaust
from derivations.log_laplace import appendix_a as H
from derivations.log_laplace import laplace as L

LABELS = {
    "ht.indicator_square": "PROVED (exhaustive)",
    "ht.inclusion_moment": "PROVED", "ht.inclusion_second_moment": "PROVED", "ht.joint_inclusion_moment": "PROVED",
    "ht.prop2_diagonal": "PROVED", "ht.prop2_offdiagonal": "PROVED", "ht.variance_decomposition": "PROVED",
    "ht.prop2_first_principles": "PROVED", "ht.cor5_first_principles": "PROVED", "ht.census_variance": "PROVED",
    "log_laplace.variance_stable": "PROVED", "ht.corrected_factor_variance": "PROVED",
    "ht.second_moment_infinite_at_half": "PROVED", "ht.corollary3": "PROVED", "ht.prop4_unbiased": "PROVED",
    "ht.prop4_unique": "PROVED", "ht.census_variance_stable": "PROVED", "ht.rse_first_principles": "PROVED",
    "ht.corrected_factor_variance_positive": "PROVED", "ht.rse_increasing_in_b": "PROVED",
    "log_laplace.variance_small_b": "PROVED",
}
FAST = [cid for cid in LABELS if cid not in ("ht.rse_first_principles", "ht.joint_inclusion_moment")]


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", list(LABELS))
def test_label(claim_id):
    v = verify_inline(derivations.get(claim_id))
    assert v.label == LABELS[claim_id], [c.detail for c in v.checks]
    kinds = [st["kind"] for ch in v.checks if ch.method == "symbolic" for st in ch.steps]
    assert "argument" not in kinds


def test_every_claim_of_the_module_has_an_expected_label():
    ids = {c.id for c in derivations.claims() if c.id.startswith(("ht.", "log_laplace."))}
    assert ids == set(LABELS)


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", FAST)
def test_negative_control_wrong_right_hand_side(claim_id):
    """Reference: rhs -> 2 rhs + 1 (and, for the sign claims, the reversed relation) is not proved."""
    c = derivations.get(claim_id)
    assert not verify_inline(c.mutated()).proved
    if c.relation != "==":
        assert not verify_inline(c.mutated("relation")).proved


# -- the inclusion moments are computed, not written into the left-hand side ---------------------
INCLUSION = ["ht.inclusion_moment", "ht.inclusion_second_moment", "ht.joint_inclusion_moment"]


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", INCLUSION)
def test_inclusion_moments_are_not_tautologies(claim_id):
    """The left-hand side is a sum over the samples of a design with the noise as a Laplace integral; it
    is not the right-hand side rewritten (lhs - rhs does not vanish before the integrals are evaluated),
    and the mutated statement is not proved."""
    c = derivations.get(claim_id)
    assert c.lhs.has(sp.Integral) and c.lhs.has(sp.Sum) and not c.rhs.has(sp.Integral)
    assert sp.expand(c.lhs - c.rhs) != 0
    assert not verify_inline(c.mutated()).proved


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
def test_joint_moment_with_independent_sampling_in_place_of_pi_ij_is_not_proved():
    """Negative control: E[delta_i delta_j] replaced by E[delta_i] E[delta_j] (pi_i pi_j for pi_ij)."""
    c = derivations.get("ht.joint_inclusion_moment")
    sums = c.rhs.atoms(sp.Sum)
    (joint,) = sums
    marginal = H._sample_sum(H.p_s[H.k] * H.delta_i[H.k]) * H._sample_sum(H.p_s[H.k] * H.delta_j[H.k])
    wrong = dataclasses.replace(c, id="t.independent", rhs=c.rhs.xreplace({joint: marginal}))
    assert not verify_inline(wrong).proved


UNEQUAL = ([(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)], [F(1, 5), F(1, 10), F(3, 10), F(1, 4), F(3, 20)])


def _noise_moment(a, b, mu, dps=50):
    """E[e^{aX}], X ~ Laplace(mu, b), by mpmath quadrature of the density with |x - mu|."""
    with mpmath.workdps(dps):
        f = lambda z: mpmath.exp(a * z) * mpmath.exp(-abs(z - mu) / b) / (2 * b)     # noqa: E731
        return mpmath.quad(f, [-mpmath.inf, mu, mpmath.inf])


def _eval_sample_sums(expr, values):
    """Write out the sums over samples and substitute the design."""
    return H._unroll(expr).xreplace(values)


def test_inclusion_moments_at_a_design_against_enumeration_and_quadrature():
    """Reference: pi_i, pi_ij by exact enumeration of the samples of an unequal-probability design; the
    noise moments by mpmath quadrature (50 digits)."""
    samples, probs = UNEQUAL
    i, j = 0, 3
    pi_i = sum(p for s, p in zip(samples, probs) if i in s)
    pi_ij = sum(p for s, p in zip(samples, probs) if i in s and j in s)
    values = {H.K: len(samples)}
    for kk, (s, p) in enumerate(zip(samples, probs), start=1):
        values.update({H.p_s[kk]: sp.Rational(p.numerator, p.denominator),
                       H.delta_i[kk]: int(i in s), H.delta_j[kk]: int(j in s)})
    with mpmath.workdps(50):
        a, b, mu = mpmath.mpf("0.7"), mpmath.mpf("0.4"), mpmath.mpf("-0.3")
        c = derivations.get("ht.inclusion_moment")
        got = sp.N(_eval_sample_sums(c.rhs.subs(H.K, len(samples)), values)
                   .subs({H.a_r: sp.Rational(7, 10), L.b: sp.Rational(2, 5), L.mu: sp.Rational(-3, 10)}), 50)
        want = mpmath.mpf(pi_i.numerator) / pi_i.denominator * _noise_moment(a, b, mu)
        assert abs(mpmath.mpf(got) - want) < mpmath.mpf(10) ** -30 * abs(want)

        c = derivations.get("ht.joint_inclusion_moment")
        pt = {H.ai_r: sp.Rational(1), H.bi: sp.Rational(1, 5), H.mui: sp.Rational(1, 2),
              H.aj_r: sp.Rational(-1, 2), H.bj: sp.Rational(3, 2), H.muj: sp.Rational(-1)}
        got = sp.N(_eval_sample_sums(c.rhs.subs(H.K, len(samples)), values).subs(pt), 50)
        want = (mpmath.mpf(pi_ij.numerator) / pi_ij.denominator
                * _noise_moment(1, mpmath.mpf(1) / 5, mpmath.mpf(1) / 2)
                * _noise_moment(mpmath.mpf(-1) / 2, mpmath.mpf(3) / 2, -1))
        assert abs(mpmath.mpf(got) - want) < mpmath.mpf(10) ** -30 * abs(want)

        # second moment: the samples containing unit i listed first (k <= K_1)
        ordered = [sp_ for sp_ in zip(samples, probs) if i in sp_[0]] + [sp_ for sp_ in zip(samples, probs)
                                                                         if i not in sp_[0]]
        k1 = sum(1 for s, _ in ordered if i in s)
        vals2 = {H.p_s[kk]: sp.Rational(p.numerator, p.denominator) for kk, (_, p) in enumerate(ordered, start=1)}
        c = derivations.get("ht.inclusion_second_moment")
        got = sp.N(_eval_sample_sums(c.rhs.subs({H.K: len(samples), H.K_1: k1}), vals2)
                   .subs({H.a_r: sp.Rational(3, 10), L.b: sp.Rational(1, 2), L.mu: sp.Rational(1, 4)}), 50)
        want = (mpmath.mpf(pi_i.numerator) / pi_i.denominator
                * _noise_moment(mpmath.mpf("0.6"), mpmath.mpf("0.5"), mpmath.mpf("0.25")))
        assert abs(mpmath.mpf(got) - want) < mpmath.mpf(10) ** -30 * abs(want)


# -- a_i^2 = a_i: the exhaustive label and its negative controls ----------------------------------------
def test_indicator_square_exhaustive_and_its_negative_controls():
    c = derivations.get("ht.indicator_square")
    assert c.finite and verify_inline(c).label == "PROVED (exhaustive)"
    # a wider finite set: a = 2 refutes it
    wider = dataclasses.replace(c, id="t.wider", conditions=(sp.Contains(H.a, sp.FiniteSet(0, 1, 2)),),
                                enumeration=lambda cl: exhaust(cl, [{H.a: 0}, {H.a: 1}, {H.a: 2}]))
    assert verify_inline(wider).label == "FAILED"
    # a general statement (every a >= 0) checked on {0, 1} is only a finite-scope check
    general = dataclasses.replace(c, id="t.general", conditions=(), finite=False,
                                  enumeration=lambda cl: exhaust(cl, [{H.a: 0}, {H.a: 1}], scope="a in {0, 1}"))
    assert verify_inline(general).label == "CHECKED (finite scope: a in {0, 1})"
    # without a scope the engine refuses the check
    unscoped = dataclasses.replace(general, id="t.unscoped", enumeration=lambda cl: exhaust(cl, [{H.a: 0}]))
    assert verify_inline(unscoped).label == "ERROR"


def test_printed_moments_are_lemma1_moments_only_on_the_indicator_range():
    """Reference: exact evaluation at a = 0, 1 (equal) and a = 2 (different): the shortcut needs a in {0, 1}."""
    b, mu = sp.Rational(1, 7), sp.Rational(1, 3)
    for av, same in ((0, True), (1, True), (2, False)):
        assert (H.moment(1, av, b, mu) == H.mean_printed(av, b, mu)) is same
        assert (H.moment(2, av, b, mu) == H.second_moment_printed(av, b, mu)) is same


# -- the variance for every N against independent references -----------------------------------------
def _population_values(pop, pattern):
    vals = {}
    for q in range(pop.n):
        idx = q + 1
        vals.update({H.Y[idx]: pop.y[q], H.A[idx]: pattern[q], H.B[idx]: pop.b[q], H.MU[idx]: pop.mu[q],
                     H.PI[idx]: pop.pi[q]})
        for r in range(pop.n):
            if r != q:
                vals[H.PI[idx, r + 1]] = pop.pi_pair(q, r)
    return vals


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("claim_id", ["ht.prop2_first_principles", "ht.cor5_first_principles"])
def test_every_n_claim_against_first_principles_expansion(claim_id, n):
    """Reference: Yhat and Yhat^2 expanded as polynomials in delta_i, Z_i, expectations monomial by monomial
    (delta_i^2 = delta_i, Lemma 1 moments with a_i^2) for N = n and every a in {0,1}^n, symbolic in
    y, b, mu, pi, pi_ij; equal to the claim's right-hand side (the printed formula) at N = n."""
    c = derivations.get(claim_id)
    pop = H.Population(n)
    for pattern in itertools.product((0, 1), repeat=n):
        weights = [1] * n if claim_id == "ht.prop2_first_principles" else pop.printed_weights(pattern)
        reference = pop.variance_first_principles(pattern, weights)
        printed = H._unroll(c.rhs.subs(H.N, n)).xreplace(_population_values(pop, pattern))
        assert H.is_zero(reference - printed), pattern


def _q(f):
    return sp.Rational(f.numerator, f.denominator)


def _design_variance(samples, probs, y, m1, m2, w):
    """Var(sum_{i in s} w_i y_i Z_i / pi_i) by the law of total variance over the samples (exact design)."""
    n_pop = len(y)
    pi = [sum(p for s, p in zip(samples, probs) if q in s) for q in range(n_pop)]
    cond_mean = [sum(w[q] * y[q] * m1[q] / pi[q] for q in s) for s in samples]
    cond_var = [sum((w[q] * y[q] / pi[q]) ** 2 * (m2[q] - m1[q] ** 2) for q in s) for s in samples]
    mean = sum(p * cm for p, cm in zip(probs, cond_mean))
    return sum(p * cv for p, cv in zip(probs, cond_var)) + sum(p * (cm - mean) ** 2 for p, cm in zip(probs, cond_mean))


@pytest.mark.parametrize("claim_id", ["ht.prop2_first_principles", "ht.cor5_first_principles"])
def test_every_n_claim_against_design_enumeration_and_quadrature(claim_id):
    """Reference: an unequal-probability design on N = 4 units, every sample enumerated exactly; noise
    moments by mpmath quadrature; weights 1/E[e^X] from the quadrature (Proposition 4's meaning)."""
    samples, probs = UNEQUAL
    y = [F(7), F(-3), F(11, 2), F(2)]
    pattern = [1, 0, 1, 1]
    bs = [F(1, 5), F(1, 3), F(1, 4), F(1, 7)]
    mus = [F(1, 2), F(-1), F(1, 4), F(0)]
    n_pop = 4
    with mpmath.workdps(50):
        mp = lambda f: mpmath.mpf(f.numerator) / f.denominator      # noqa: E731
        m1 = [_noise_moment(pattern[q], mp(bs[q]), mp(mus[q])) for q in range(n_pop)]
        m2 = [_noise_moment(2 * pattern[q], mp(bs[q]), mp(mus[q])) for q in range(n_pop)]
        w = [1 / m1[q] if claim_id == "ht.cor5_first_principles" else 1 for q in range(n_pop)]
        want = _design_variance(samples, [mp(p) for p in probs], [mp(v) for v in y], m1, m2, w)
        vals = {}
        for q in range(n_pop):
            idx = q + 1
            vals.update({H.Y[idx]: sp.Rational(y[q].numerator, y[q].denominator), H.A[idx]: pattern[q],
                         H.B[idx]: sp.Rational(bs[q].numerator, bs[q].denominator),
                         H.MU[idx]: sp.Rational(mus[q].numerator, mus[q].denominator),
                         H.PI[idx]: _q(sum(p for s, p in zip(samples, probs) if q in s))})
            for r in range(n_pop):
                if r != q:
                    pij = sum(p for s, p in zip(samples, probs) if q in s and r in s)
                    vals[H.PI[idx, r + 1]] = _q(pij)
        c = derivations.get(claim_id)
        for side in (c.lhs, c.rhs):
            got = mpmath.mpf(sp.N(H._unroll(side.subs(H.N, n_pop)).xreplace(vals), 50))
            assert abs(got - want) < mpmath.mpf(10) ** -30 * abs(want)


def test_census_variance_against_independent_sum():
    """Reference: a census (every unit observed), mu = 0: Var(sum_h w_h y_h Z_h) = sum_h w_h^2 y_h^2 Var(Z_h)
    for independent Z_h, with the moments and w_h = 1/E[Z_h] by mpmath quadrature."""
    y = [F(1000), F(600), F(50)]
    pattern = [0, 1, 1]
    bs = [F(1, 3), F(1, 5), F(2, 5)]
    with mpmath.workdps(50):
        mp = lambda f: mpmath.mpf(f.numerator) / f.denominator      # noqa: E731
        want = 0
        for q in range(3):
            m1 = _noise_moment(pattern[q], mp(bs[q]), 0)
            m2 = _noise_moment(2 * pattern[q], mp(bs[q]), 0)
            want += (mp(y[q]) / m1) ** 2 * (m2 - m1**2)
        c = derivations.get("ht.census_variance")
        vals = {H.Y[q + 1]: sp.Integer(int(y[q])) for q in range(3)}
        vals.update({H.A[q + 1]: pattern[q] for q in range(3)})
        vals.update({H.B[q + 1]: sp.Rational(bs[q].numerator, bs[q].denominator) for q in range(3)})
        for side in (c.lhs, c.rhs):
            got = mpmath.mpf(sp.N(H._unroll(side.subs(H.N, 3)).xreplace(vals), 50))
            assert abs(got - want) < mpmath.mpf(10) ** -30 * want


@pytest.mark.parametrize("claim_id", ["ht.prop2_first_principles", "ht.cor5_first_principles",
                                      "ht.census_variance", "ht.variance_decomposition"])
def test_every_n_negative_control_wrong_coefficient(claim_id):
    """Negative control: the printed 1 - 4 a b^2 mis-read as 1 - 3 a b^2 (or, for the decomposition, M_i
    replaced by m_i^2) is not proved; it fails at once at the exact N = 2 check."""
    c = derivations.get(claim_id)
    if claim_id == "ht.variance_decomposition":
        wrong_rhs = c.rhs.xreplace({H.SECOND[H.i]: H.MEAN[H.i] ** 2})
    else:
        wrong_rhs = c.rhs.xreplace({1 - 4 * H.A[H.i] * H.B[H.i] ** 2: 1 - 3 * H.A[H.i] * H.B[H.i] ** 2})
    assert wrong_rhs != c.rhs
    v = verify_inline(dataclasses.replace(c, id="t.wrong", rhs=wrong_rhs))
    assert not v.proved and "N = 2 at a rational point" in v.checks[0].detail


# -- Corollary 3: a finding (tacit y_i != 0), not an erratum -------------------------------------------
def test_corollary3_is_a_finding_with_the_corrected_claim_proved():
    assert "ht.corollary3_zero_value" not in {e.id for e in derivations.errata()}
    assert "ht.corollary3.printed" not in {c.id for c in derivations.claims()}
    f = next(f for f in derivations.findings() if f.id == "ht.corollary3_tacit_nonzero_value")
    assert "ht.corollary3" in f.claims
    assert derivations.get("ht.corollary3").lhs.free_symbols >= {H.y_nz}
    assert H.y_nz.is_nonzero


def test_corollary3_degenerate_and_divergent_cases():
    """Reference: at y = 0 the unit's perturbed value is 0 (second moment exactly 0, whatever b); for
    y != 0 and b = 0.6 the truncated second moment grows without bound (mpmath)."""
    zero_value = L.expectation((0 * sp.exp(L.x)) ** 2, b=sp.Rational(3, 4)).doit()
    assert zero_value == 0
    with mpmath.workdps(30):
        b = mpmath.mpf("0.6")
        f = lambda z: mpmath.exp(2 * z) * mpmath.exp(-abs(z) / b) / (2 * b)     # noqa: E731
        vals = [mpmath.quad(f, [-H_, 0, H_]) for H_ in (10, 40, 160)]
        assert vals[0] < vals[1] < vals[2] and vals[2] > 1e10


# -- Proposition 4 and the RSE ---------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,mu", [("1", "0.9", "0.7"), ("1", "0.1", "-2"), ("0.5", "1.5", "0")])
def test_prop4_weight_against_quadrature(a, b, mu):
    """Reference: mpmath quadrature of E[e^{aX}]; the weight (1 - a^2 b^2)/e^{a mu} times it is 1."""
    with mpmath.workdps(50):
        a, b, mu = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(mu)
        wt = (1 - a**2 * b**2) / mpmath.exp(a * mu)
        assert abs(wt * _noise_moment(a, b, mu) - 1) < mpmath.mpf(10) ** -30


def test_prop4_printed_combined_weight_on_the_indicator_range():
    """Exact: ((1 - a b^2)/e^{a mu})^a is 1 at a = 0 and (1 - b^2)/e^{mu} at a = 1, i.e. (1 - a^2 b^2)/e^{a mu}."""
    for av in (0, 1):
        assert sp.simplify(H.weight_printed(av, H.b, H.mu) - H.weight_lemma1(av, H.b, H.mu)) == 0
    assert sp.simplify(H.weight_printed(2, H.b, H.mu) - H.weight_lemma1(2, H.b, H.mu)) != 0


@pytest.mark.parametrize("b", ["0.1", "0.3", "0.45"])
def test_rse_against_quadrature(b):
    """Reference: mpmath quadrature of E[((1 - b^2) e^X - 1)^2], X ~ Laplace(0, b)."""
    with mpmath.workdps(50):
        b = mpmath.mpf(b)
        f = lambda z: ((1 - b**2) * mpmath.exp(z) - 1) ** 2 * mpmath.exp(-abs(z) / b) / (2 * b)    # noqa: E731
        want = mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf])
        got = b**2 * (2 + b**2) / ((1 - 2 * b) * (1 + 2 * b))
        assert abs(got - want) < mpmath.mpf(10) ** -30 * want


def test_sign_claims_need_their_condition():
    """Negative control: Var(c e^X) > 0 claimed for b < 1 is not proved (it is negative at b = 3/5)."""
    c = derivations.get("ht.corrected_factor_variance_positive")
    wider = dataclasses.replace(c, id="t.wider", conditions=(sp.Lt(H.b, 1),))
    assert not verify_inline(wider).proved
    assert H.relative_variance(sp.Rational(3, 5)) < 0


def test_population_helper_detects_a_wrong_printed_coefficient():
    """The first-principles reference itself has teeth: a mis-printed 1 - 3 a b^2 is caught."""
    pop = H.Population(2)
    good = pop.variance_first_principles((1, 1), [1, 1]) - pop.variance_printed((1, 1), [1, 1])
    assert H.is_zero(good)
    wrong = pop.variance_printed((1, 1), [1, 1]).subs(4 * pop.b[0] ** 2, 3 * pop.b[0] ** 2)
    assert not H.is_zero(pop.variance_first_principles((1, 1), [1, 1]) - wrong)
