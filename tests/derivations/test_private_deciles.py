"""Claims of 001 (AboveThreshold, the histogram method, its accuracy, inverse sensitivity): labels,
negative controls and independent references.

References: mpmath quadrature of the order-statistic (Beta) densities at 30 digits and scipy's normal
quantile for the errata's probabilities; loops over math.comb with Fractions for the printed sums;
mpmath quadrature of the Laplace density for its tails; and, for the changes of variables, a wrong
shift (the one the hatted variables would give as new integration variables) as a negative control."""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

import derivations
from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.proofs import conclude_shift
from derivations.private_deciles import above_threshold as at

from _labels import assert_label, changed_verdict

PROVED = ["pd.def.events_from_outputs", "pd.at.substitution_threshold", "pd.at.substitution_query",
          "pd.at.monotone_noise", "pd.at.monotone_noise_below", "pd.hm.laplace_tail", "pd.hm.threshold_tail",
          "pd.hm.query_tail", "pd.hm.accuracy_reduction", "pd.hm.complexity", "pd.normal.deciles",
          "pd.normal.theorem", "pd.hm.composition", "pd.at.output_law"]
CITED = ["pd.at.laplace_shift", "pd.at.laplace_shift_reverse", "pd.at.max_shift", "pd.at.exponent_budget",
         "pd.at.epsilon_dp", "pd.at.output_minus_one", "pd.hm.accuracy_lemma",
         "pd.isens.epsilon_dp", "pd.unif.empirical_decile", "pd.normal.empirical_decile",
         "pd.unif.interval_counts", "pd.normal.interval_counts", "pd.isens.length"]
ARGUED = ["pd.isens.sample_monotone"]
CHECKED = ["pd.unif.theorem"]
REFUTED = ["pd.unif.empirical_decile_printed", "pd.normal.empirical_decile_printed"]


def test_every_claim_of_the_paper_is_pinned():
    ids = {c.id for c in derivations.claims() if c.source.document.startswith("001")}
    assert ids == set(PROVED + CITED + ARGUED + CHECKED + REFUTED + ["pd.def.count_sensitivity"])


@pytest.mark.parametrize("cid", PROVED)
def test_proved(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED")


@pytest.mark.parametrize("cid", CITED)
def test_proved_with_citations(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED (with citations)")


@pytest.mark.parametrize("cid", ["pd.def.count_sensitivity"])
def test_proved_exhaustively(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED (exhaustive)")


@pytest.mark.parametrize("cid", CHECKED)
def test_checked_and_its_changed_statement_is_not(cid, all_verdicts):
    assert_label(all_verdicts, cid, "CHECKED (finite scope: ")
    v = changed_verdict(cid)
    assert not v.ok and not v.proved, (cid, v.label)


@pytest.mark.parametrize("cid", REFUTED)
def test_printed_display_refuted(cid, all_verdicts):
    v = all_verdicts[cid]
    assert v.label == "REFUTED" and v.ok


# -- the errata's numbers, independently ------------------------------------------------------------------
def _beta_prob(n, m, lo, hi):
    """P(lo <= X_(m) <= hi) for n uniform values: the Beta(m, n - m + 1) density integrated at 30 digits."""
    mp.mp.dps = 30
    c = mp.factorial(n) / (mp.factorial(m - 1) * mp.factorial(n - m))
    return mp.quad(lambda x: c * x**(m - 1) * (1 - x)**(n - m), [lo, hi])


def _sums(n, i, p_lo, p_hi):
    """The printed S_1 + S_2 - 1 with math.comb and Fractions."""
    m = i * n // 10
    s1 = sum(Fraction(math.comb(n, k)) * p_hi**k * (1 - p_hi)**(n - k) for k in range(m + 1))
    s2 = sum(Fraction(math.comb(n, k)) * (1 - p_lo)**k * p_lo**(n - k) for k in range(n - m + 1))
    return s1 + s2 - 1


def test_uniform_counterexample_numbers():
    lo, hi = Fraction(495, 1000), Fraction(505, 1000)
    bound = float(_sums(10, 5, lo, hi))
    for m in (5, 6):                      # X_(5) and X_(6)
        prob = _beta_prob(10, m, lo, hi)
        assert abs(float(prob) - 0.0246061) < 1e-6 and float(prob) < bound
    assert abs(bound - 0.2213646) < 1e-6
    # the midpoint of X_(5) and X_(6): their joint density integrated over the strip at 30 digits
    c = mp.factorial(10) / (mp.factorial(4) * mp.factorial(4))

    def inner(x):
        a, b = max(x, 2 * 0.495 - x), min(1, 2 * 0.505 - x)
        return 0 if b <= a else c * x**4 * ((1 - a)**5 - (1 - b)**5) / 5
    mid = mp.quad(inner, [0, 0.485, 0.495, 0.5, 0.505, 1])
    assert abs(float(mid) - 0.027339) < 1e-5 and float(mid) < bound
    v = verify_inline(derivations.get("pd.unif.empirical_decile_printed"))
    assert "629916007559640007/25600000000000000000" in v.checks[0].detail     # = 0.0246061..., the Beta integral


def test_normal_counterexample_numbers():
    from scipy.stats import norm
    assert _sums(10, 5, Fraction(1, 2), Fraction(1, 2)) == Fraction(63, 256)
    d7 = norm.ppf(0.7)
    lo, hi = norm.cdf(d7 - 0.05), norm.cdf(d7 + 0.05)
    prob = _beta_prob(10, 7, lo, hi)
    bound = float(_sums(10, 7, Fraction(7, 10), Fraction(7, 10)))
    assert abs(float(prob) - 0.0926) < 1e-3 and abs(bound - 0.26683) < 1e-4 and float(prob) < bound


def test_laplace_tail_against_quadrature():
    mp.mp.dps = 30
    for e, x in ((1, 0.3), (0.2, 5.0), (3, 2.0)):
        s = 2 / mp.mpf(e)
        tail = 2 * mp.quad(lambda t: mp.exp(-t / s) / (2 * s), [x, mp.inf])
        assert abs(tail - mp.exp(-x / s)) < mp.mpf(10)**-25


def test_accuracy_lemma_numbers():
    """k e^{-eps alpha/8} = beta/2 and e^{-eps alpha/4} = (beta/(2k))^2 at 30 digits, several (k, beta, eps)."""
    mp.mp.dps = 30
    for k, b, e in ((1, 0.5, 1), (10, 0.05, 0.1), (1000, 0.9, 7)):
        a = 8 * (mp.log(k) + mp.log(2 / mp.mpf(b))) / e
        assert abs(k * mp.exp(-e * a / 8) - mp.mpf(b) / 2) < mp.mpf(10)**-25
        assert abs(mp.exp(-e * a / 4) - (mp.mpf(b) / (2 * k))**2) < mp.mpf(10)**-25


def test_wrong_change_of_variables_is_not_proved():
    """Negative control of conclude_shift: the limits g', y + nu - g + g' with the density shifted the other way
    (t^ taken as the new variable) is a false identity and must not be proved."""
    wrong = Claim(id="pd.test.wrong_shift", title="wrong", source=Source("x", "y"), kind="identity",
                  lhs=sp.Integral(at.l2(at.t), (at.t, at.g, at.y + at.nu)),
                  rhs=sp.Integral(at.l2(at.t - at.g + at.gp), (at.t, at.gp, at.y + at.nu - at.g + at.gp)),
                  proof=lambda c: conclude_shift(c, (at.t, at.g - at.gp)))
    assert not verify_inline(wrong).proved
    no_integral = Claim(id="pd.test.no_integral", title="none", source=Source("x", "y"), kind="identity",
                        lhs=at.g, rhs=at.g + 0 * at.t + 1, proof=lambda c: conclude_shift(c, (at.t, 1)))
    assert not verify_inline(no_integral).proved      # nothing to translate: the routine says so


# -- the findings on AboveThreshold's constant, independently -------------------------------------------------
def _at_log_law(y, b_threshold, b_query):
    """ln P(A = k), k = 0..K-1, and ln P(A = -1), threshold 0: mpmath quadrature at 30 digits over the noisy
    threshold t, split at every kink (0 and the y_i)."""
    lap_pdf = lambda t, s: mp.exp(-abs(t) / s) / (2 * s)
    cdf = lambda x: mp.exp(x / b_query) / 2 if x < 0 else 1 - mp.exp(-x / b_query) / 2
    cuts = sorted({0, *map(mp.mpf, y)})
    pts = [-mp.inf] + cuts + [mp.inf]
    out = []
    for k in range(len(y) + 1):
        def f(t, k=k):
            v = lap_pdf(t, b_threshold)
            for yi in y[:k]:
                v *= cdf(t - yi)
            return v * (1 - cdf(t - y[k])) if k < len(y) else v
        out.append(mp.log(mp.quad(f, pts)))
    return out


def _loss(y, y2, b_threshold, b_query):
    return max(abs(a - b) for a, b in zip(_at_log_law(y, b_threshold, b_query), _at_log_law(y2, b_threshold, b_query)))


def test_finding_lap2_query_noise_exceeds_eps_without_monotonicity():
    """pd.finding.lap2_needs_monotone: y = (0, 0, 0), y' = (1, 1, -1), eps = 1, threshold Lap(2), queries Lap(2)."""
    with mp.workdps(30):
        loss = _loss([0, 0, 0], [1, 1, -1], 2, 2)
        assert abs(loss - mp.mpf("1.1532185613")) < 1e-9 and loss > 1
        assert _loss([0, 0, 0], [1, 1, 1], 2, 2) <= 1          # control: the monotone neighbour stays within eps
    text = {f.id: f.text for f in derivations.findings()}["pd.finding.lap2_needs_monotone"]
    assert "loss 1.153 > eps" in text


def test_finding_the_constant_is_approached_with_four_queries():
    """pd.finding.at_bound_tight: K = 4, B = 40, eps = 1 (threshold Lap(2), queries Lap(4)): 0.977 < eps."""
    with mp.workdps(30):
        y = [40, 40, 40, -40]
        loss = _loss(y, [41, 41, 41, -41], 2, 4)
        assert abs(loss - mp.mpf("0.9774256779637902")) < 1e-9 and loss < 1
    assert "0.977, 0.994 and 0.997 at B = 40" in {f.id: f.text for f in derivations.findings()}["pd.finding.at_bound_tight"]


# -- composition, the normaliser of Théorème 3.1.0.1, Section 3.2 -------------------------------------------------
def test_composition_needs_its_per_call_budget():
    """Negative control on the conditions: with each call at eps/8 instead of eps/9 the nine add up to 9 eps/8 and
    pd.hm.composition's routine must not prove the bound eps."""
    import dataclasses
    c = derivations.get("pd.hm.composition")
    eps = sp.Symbol("epsilon", positive=True)
    looser = tuple(sp.Le(cnd.lhs, eps / 8) for cnd in c.conditions)
    assert len(looser) == 9 and all(cnd.rhs == eps / 9 for cnd in c.conditions)
    v = verify_inline(dataclasses.replace(c, id="pd.hm.composition.looser", conditions=looser))
    assert not v.proved


def test_composition_of_nine_randomised_responses_is_exactly_eps():
    """Reference: nine independent binary randomised responses, each eps/9-DP (keep with probability
    e^{eps/9}/(1 + e^{eps/9})), on neighbouring inputs 0 and 1: the joint law by enumerating all 2^9 outputs
    (mpmath, 30 digits); the largest log-ratio is eps, attained, never exceeded."""
    import itertools
    with mp.workdps(30):
        eps = mp.mpf("0.7")
        keep = mp.exp(eps / 9) / (1 + mp.exp(eps / 9))
        worst = max(sum(mp.log(keep if o == 0 else 1 - keep) - mp.log(keep if o == 1 else 1 - keep) for o in out)
                    for out in itertools.product((0, 1), repeat=9))
        assert abs(worst - eps) < mp.mpf(10) ** -25


def test_inverse_sensitivity_normaliser_hypothesis_is_shown():
    c = derivations.get("pd.isens.epsilon_dp")
    real = dict(c.hypotheses())["real"]
    assert {str(s) for s in real} == {r"\ln Z(x)", r"\ln Z(x')"}
    assert "0 < Z(x), Z(x') < oo" in c.title


def test_inverse_sensitivity_density_ratio_on_a_finite_grid():
    """Théorème 3.1.0.1 where its hypothesis holds (T = {0, 1, 2, 3}, mu the counting measure, so 0 < Z < oo):
    the density of the rho-smooth mechanism at every t is at most e^eps times that of every neighbour, databases of
    1 to 3 entries. Reference: brute-force lengths, densities in mpmath at 30 digits."""
    import itertools
    from derivations.private_deciles import inverse_sensitivity as isens
    grid = isens._UNIVERSE
    with mp.workdps(30):
        eps = mp.mpf(1)

        def density(x, rho):
            w = [mp.exp(-isens._smooth_length(x, t, rho) * eps / 2) for t in grid]
            return [wi / mp.fsum(w) for wi in w]

        worst = mp.mpf(0)
        for rho in (0, 1):
            for size in (1, 2, 3):
                for x in itertools.product(grid, repeat=size):
                    dx = density(x, rho)
                    for pos, val in itertools.product(range(size), grid):
                        dxp = density(x[:pos] + (val,) + x[pos + 1:], rho)
                        worst = max(worst, max(mp.log(a / b) for a, b in zip(dx, dxp)))
        assert 0 < worst <= eps


def test_section_3_2_states_no_result():
    """pd.finding.quasi_optimality_missing, against the source text: between the heading of Section 3.2 and the
    appendix there is one definition and no theorem, lemma, proposition or corollary."""
    assert "pd.finding.quasi_optimality_missing" in {f.id for f in derivations.findings()}
    text = _seed_001()
    start = text.index("3.2 Quasi-optimalit", text.index("Théorème 3.1.0.1"))
    section = text[start:text.index("A HistogramMethod", start)]
    assert "Définition 3.2.0.1" in section
    assert not any(word in section for word in ("Théorème", "Lemme", "Proposition", "Corollaire"))



def _seed_001():
    from _seeds import seed_text
    return seed_text("001_1dd3d7af6edcb71d.txt")


def test_isens_len_reading_and_denominator_slip_against_the_source():
    """pd.reading.isens_len and pd.finding.isens_denominator, against the source text: every density of Section
    3.1 prints the operator \\ln where Définitions 3.1.0.1 and 3.1.0.3 define len; the proof's third line has
    x' in its numerator and x in its denominator, while the line before has x' in both."""
    text = _seed_001()
    sec = text[text.index("3.1 Présentation du mécanisme"):text.index("3.2 Quasi-optimalit")]
    assert r"\operatorname{len}_{f}(x,t) = \inf" in sec and r"\operatorname{len}_{f}^{\rho}" in sec
    assert sec.count(r"\ln_f") + sec.count(r"\ln^{\rho}_{f}") >= 8          # 'len' printed as \ln throughout
    lines = [ln for ln in sec.splitlines() if r"\int_{\mathcal{S}}" in ln]
    before, third = lines[1], lines[2]
    assert r"(x',t)-1" in before and r"(x',s)+1" in before                 # the bound by the lengths of x'
    assert r"\ln^{\rho}_{f}(x',t)" in third and r"\ln^{\rho}_{f}(x,s)" in third   # x in the denominator: the slip
    readings = {r.id: r for r in derivations.readings()}
    findings = {f.id: f for f in derivations.findings()}
    assert "pd.reading.isens_len" in readings and "pd.reading.isens_denominator" not in readings
    assert findings["pd.finding.isens_denominator"].claims == ("pd.isens.epsilon_dp",)


def test_isens_claim_states_measurability_in_its_title():
    c = derivations.get("pd.isens.epsilon_dp")
    assert "mu-measurable" in c.title and "0 < Z(x), Z(x') < oo" in c.title


def test_composition_states_its_hypotheses_and_the_threshold_needs_equal_sizes():
    """pd.hm.composition names independent noise, non-adaptive queries and neighbours of equal size. Reference,
    exact fractions over every database of 1 to 4 entries in {0, 1, 2} and every grid point g in {1, 2}: the
    threshold T = d n/10 is the same for same-size neighbours, so q - T moves by the count's change (at most 1);
    for add/remove neighbours T itself moves by d/10 and f - T by at most 9/10."""
    import itertools
    title = derivations.get("pd.hm.composition").title
    assert "independent noise" in title and "fixed in advance" in title and "same size" in title
    worst_same, worst_addrem, moved_t = Fraction(0), Fraction(0), False
    for size in range(1, 5):
        for x in itertools.product(range(3), repeat=size):
            for d_, g in itertools.product(range(1, 10), (1, 2)):
                def shifted(y):
                    return sum(v < g for v in y) - Fraction(d_ * len(y), 10)
                for pos, v in itertools.product(range(size), range(3)):        # same size: one entry replaced
                    y = x[:pos] + (v,) + x[pos + 1:]
                    worst_same = max(worst_same, abs(shifted(x) - shifted(y)))
                for v in range(3):                                             # one entry added
                    y = x + (v,)
                    moved_t |= Fraction(d_ * len(y), 10) != Fraction(d_ * size, 10)
                    worst_addrem = max(worst_addrem, abs(shifted(x) - shifted(y)))
    assert worst_same == 1 and moved_t and worst_addrem == Fraction(9, 10)


# -- the claims proved in general, against independent references ----------------------------------------------
@pytest.mark.parametrize("cid", ["pd.unif.interval_counts", "pd.normal.interval_counts", "pd.isens.length",
                                 "pd.isens.sample_monotone"])
def test_general_inequalities_refuse_their_reversed_relation(cid):
    """The reversed relation (false wherever the claim is true) is not proved by the same routine (nor argued: the
    argued step of pd.isens.sample_monotone does not carry a false chain)."""
    c = derivations.get(cid)
    assert verify_inline(c).ok
    assert not verify_inline(c.mutated("relation")).ok


def test_argued_claims_say_why():
    for cid in ARGUED:
        v = verify_inline(derivations.get(cid))
        assert v.label == "ARGUED" and derivations.get(cid).limitation, cid


def _laplace_cdf(x, b):
    return mp.exp(x / b) / 2 if x < 0 else 1 - mp.exp(-x / b) / 2


def test_output_law_against_quadrature():
    """pd.at.output_law at 30 digits, both sides written here from the Laplace densities (threshold scale 2/eps,
    query scale 4/eps) and integrated by mpmath, split at every kink; the claim's own sides, compiled, agree."""
    mp.mp.dps = 30
    points = [("1", "0", "0"), ("1", "-1", "0.5"), ("0.5", "1.5", "-1"), ("3", "2", "2"), ("0.2", "-3", "-1"),
              ("2", "-0.5", "-2"), ("1", "0.7", "0.3")]
    c = derivations.get("pd.at.output_law")
    for es, gs, ys in points:
        e, g, y = mp.mpf(es), mp.mpf(gs), mp.mpf(ys)
        b2, b4 = 2 / e, 4 / e
        cuts_nu = sorted({g - y, max(g - y, -y), max(g - y, 0)}) + [mp.inf]
        cuts_t = sorted({g, max(g, y), max(g, 0)}) + [mp.inf]
        left = mp.quad(lambda v: mp.exp(-abs(v) / b4) / (2 * b4) * (_laplace_cdf(y + v, b2) - _laplace_cdf(g, b2)),
                       cuts_nu)
        right = mp.quad(lambda t: mp.exp(-abs(t) / b2) / (2 * b2) * (1 - _laplace_cdf(t - y, b4)), cuts_t)
        assert abs(left - right) < mp.mpf(10) ** -25 and 0 < left < 1
        sub = {at.eps: sp.Rational(es), at.g: sp.Rational(gs), at.y: sp.Rational(ys)}
        for side, var, cuts, ref in ((c.lhs, at.nu, cuts_nu, left), (c.rhs, at.t, cuts_t, right)):
            f = sp.lambdify(var, side.function.subs(sub), "mpmath")
            assert abs(mp.quad(f, cuts) - ref) < mp.mpf(10) ** -25


def _trinomial_both_at_least(n, alpha, p1, p2):
    """P(N_1 >= alpha and N_2 >= alpha) for (N_1, N_2, n - N_1 - N_2) trinomial: every outcome, exact fractions."""
    total = Fraction(0)
    for a in range(alpha, n + 1):
        for b in range(alpha, n - a + 1):
            coef = math.factorial(n) // (math.factorial(a) * math.factorial(b) * math.factorial(n - a - b))
            total += coef * p1**a * p2**b * (1 - p1 - p2)**(n - a - b)
    return total


def test_interval_counts_are_the_trinomial_probability_and_the_bound_holds():
    """The left sides of pd.unif.interval_counts and pd.normal.interval_counts (inclusion-exclusion with the
    coefficient C(n, a + b) C(a + b, a)) equal the trinomial probability summed outcome by outcome, for alpha
    beyond n/2 too, and exceed the printed bounds."""
    from derivations.private_deciles import accuracy as acc
    unif, normal = derivations.get("pd.unif.interval_counts"), derivations.get("pd.normal.interval_counts")
    cases = [(1, 0, Fraction(1, 40), Fraction(1, 40)), (4, 3, Fraction(1, 5), Fraction(1, 10)),
             (5, 2, Fraction(9, 20), Fraction(9, 20)), (6, 4, Fraction(2, 5), Fraction(1, 2)),
             (10, 3, Fraction(3, 10), Fraction(1, 7)), (3, 2, Fraction(1, 2), Fraction(49, 100))]
    for n, alpha, q1, q2 in cases:
        ref = _trinomial_both_at_least(n, alpha, q1, q2)
        c = unif if q1 == q2 else normal
        sub = {acc.nn_: n, acc.al: alpha, acc.p1: sp.Rational(q1.numerator, q1.denominator),
               acc.p2: sp.Rational(q2.numerator, q2.denominator)}
        lhs, rhs = sp.nsimplify(c.lhs.subs(sub).doit()), sp.nsimplify(c.rhs.subs(sub).doit())
        assert lhs == sp.Rational(ref.numerator, ref.denominator), (n, alpha)
        bound = 1 - sum(Fraction(math.comb(n, k)) * q**k * (1 - q)**(n - k) for q in (q1, q2) for k in range(alpha + 1))
        assert rhs == sp.Rational(bound.numerator, bound.denominator) and ref >= bound


def _median(x, m=None):
    s = sorted(x)
    return s[(len(s) + 1) // 2 - 1 if m is None else m - 1]


def _brute_length(x, accept, universe):
    """The least number of entries of x to change so that accept(z) holds: every database z of the universe."""
    import itertools
    return min(sum(a != b for a, b in zip(x, z)) for z in itertools.product(universe, repeat=len(x)) if accept(z))


def test_length_lipschitz_by_brute_force():
    """pd.isens.length's relation on every database of 1 to 3 entries in {0, 1, 2, 3}, every neighbour, t and
    rho in {0, 1}: |len^rho(x, t) - len^rho(x', t)| <= 1, lengths by brute force written here (and equal to the
    module's helper)."""
    import itertools
    from derivations.private_deciles import inverse_sensitivity as isens
    grid = (0, 1, 2, 3)
    worst = 0
    for size in (1, 2, 3):
        for x in itertools.product(grid, repeat=size):
            for rho, t in itertools.product((0, 1), grid):
                lx = _brute_length(x, lambda z: abs(_median(z) - t) <= rho, grid)
                assert lx == isens._smooth_length(x, t, rho)
                for pos, v in itertools.product(range(size), grid):
                    xp = x[:pos] + (v,) + x[pos + 1:]
                    worst = max(worst, abs(lx - _brute_length(xp, lambda z: abs(_median(z) - t) <= rho, grid)))
    assert worst == 1                      # attained: the bound is tight


def test_sample_monotone_and_the_clipping_by_brute_force():
    """pd.isens.sample_monotone for X_(m), every m, databases of 1 to 4 entries in {0, 1, 2, 3}: len(x, s) <=
    len(x, t) when f(x) <= s <= t or t <= s <= f(x); and the proof's construction: a z attaining len(x, t), clipped
    at s entry by entry towards x, has X_(m) = s and differs from x in no more entries than z."""
    import itertools
    grid = (0, 1, 2, 3)
    checked = 0
    for size in (1, 2, 3, 4):
        for m in range(1, size + 1):
            for x in itertools.product(grid, repeat=size):
                fx = _median(x, m)
                length = {t: _brute_length(x, lambda z: _median(z, m) == t, grid) for t in grid}
                for s_, t_ in itertools.product(grid, repeat=2):
                    if not (fx <= s_ <= t_ or t_ <= s_ <= fx):
                        continue
                    assert length[s_] <= length[t_]
                    z = min((z for z in itertools.product(grid, repeat=size) if _median(z, m) == t_),
                            key=lambda z: sum(a != b for a, b in zip(x, z)))
                    clip = (lambda zi, xi: min(zi, max(xi, s_))) if fx <= s_ <= t_ else (lambda zi, xi: max(zi, min(xi, s_)))
                    zc = tuple(clip(zi, xi) for zi, xi in zip(z, x))
                    assert _median(zc, m) == s_
                    assert sum(a != b for a, b in zip(x, zc)) <= sum(a != b for a, b in zip(x, z))
                    checked += 1
    assert checked > 1000
