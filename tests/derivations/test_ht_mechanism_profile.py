"""The claims ``profile.*`` (000_3f4b38deb4c4e7bd.txt, Sections 1.4, 2.2, 2.3 and the Abstract): their labels,
negative controls for each label, and independent references for the closed forms they state.

Labels.  Each claim is verified in this process and must get its label; each mutated statement (rhs -> 2 rhs + 1,
and for the inequality the reversed relation), each plausible wrong variant of a statement and each claim with a
condition its proof needs removed must not be proved.

References (none uses the module's proof routines or its enumerations):

* binary data: the law of the number of sampled ones by brute force over every sample of small designs
  (``itertools.combinations`` for simple random sampling, every subset with its probability for Bernoulli
  sampling), exact Fractions; the claims' own SymPy expressions are evaluated at the same integer points;
* Laplace and Gaussian kernels: mpmath at 40 digits, D(z) summed directly from its definition, integrals by
  ``mpmath.quad`` split at every atom and root, derivatives by ``mpmath.diff``; the recursions for L_j and R_j
  re-implemented here;
* the noise scale: the density of Laplace(b1) + X (X = 0 with probability rho, Laplace(b2) otherwise) by
  ``mpmath.quad`` of the convolution, against the Laplace(b2) density; the amplified epsilon of the generic scale
  at 40 digits.

Tolerances: exact equality for Fractions; relative 1e-25 for values at 40 digits (1e-20 where mpmath.diff or
mpmath.quad is involved).
"""
from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

import derivations
from _labels import assert_label_and_mutations
from derivations import CITATIONS
from derivations.engine.core import verify_inline
from derivations.ht_mechanism import profile as P

EXPECTED = {
    "profile.laplace.endpoint_form": "PROVED",
    "profile.laplace.interval_increasing": "PROVED",
    "profile.laplace.interval_decreasing": "PROVED",
    "profile.laplace.interval_no_root": "PROVED",
    "profile.laplace.tails": "PROVED",
    "profile.gaussian.exponential_sum": "PROVED",
    "profile.gaussian.rolle_step": "PROVED (with citations)",
    "profile.gaussian.half_line": "PROVED",
    "profile.srs.pmf_difference": "PROVED",
    "profile.bernoulli.pmf_difference": "PROVED",
    "profile.bernoulli.pmf_ratio": "PROVED",
    "profile.delta0_bound": "PROVED (with citations)",
    "profile.srs.zero_region": "PROVED (with citations)",
    "profile.scale_monotone": "PROVED (with citations)",
    "profile.amplification.generic_scale": "PROVED (with citations)",
}
REL = mp.mpf(10) ** -25
REL_QUAD = mp.mpf(10) ** -20


@pytest.fixture(autouse=True)
def forty_digits():
    with mp.workdps(40):
        yield


def close(a, b, rel=REL) -> bool:
    a, b = mp.mpf(a), mp.mpf(b)
    return abs(a - b) <= rel * max(abs(a), abs(b), mp.mpf(1))


# -- labels and negative controls -----------------------------------------------------------------------------
def test_every_profile_claim_is_listed():
    assert {c.id for c in derivations.claims() if c.id.startswith("profile.")} == set(EXPECTED)


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_label_and_mutations(claim_id):
    """The claim gets its label; its mutated statements are not proved (the proof is tied to the statement)."""
    assert_label_and_mutations(claim_id, EXPECTED[claim_id])


@pytest.mark.parametrize("claim_id", [i for i in sorted(EXPECTED) if derivations.get(i).enumeration is not None])
def test_enumerations_pass_and_state_their_scope(claim_id):
    c = derivations.get(claim_id)
    e = c.enumeration()
    assert e.ok and e.cases > 0 and e.scope


def wrong(claim_id, **changes):
    return dataclasses.replace(derivations.get(claim_id), id=claim_id + ".wrong", **changes)


def test_wrong_pmf_differences_are_not_proved():
    """Plausible slips: h_t(y) - h_t(y+1) in place of h_t(y) - h_t(y-1), and q = (n-1)/N."""
    N, n, t, y = P.N, P.n, P.t, P.y
    assert not verify_inline(wrong("profile.srs.pmf_difference", rhs=n / N * (P.h_srs(y) - P.h_srs(y + 1)))).proved
    assert not verify_inline(wrong("profile.srs.pmf_difference",
                                   rhs=(n - 1) / N * (P.h_srs(y) - P.h_srs(y - 1)))).proved
    p = P.p
    assert not verify_inline(wrong("profile.bernoulli.pmf_difference",
                                   rhs=p * (P.bin_sym(t, y) - P.bin_sym(t, y + 1)))).proved
    assert not verify_inline(wrong("profile.bernoulli.pmf_ratio", rhs=(t + 1 - y) / ((t + 1) * p))).proved


def test_proofs_need_the_stated_conditions():
    """Without the conditions its proof uses, a claim is not proved (they are checked, not assumed)."""
    assert not verify_inline(wrong("profile.srs.pmf_difference", conditions=(sp.Ge(P.n, 1), sp.Le(P.n, P.N)))).proved
    assert not verify_inline(wrong("profile.laplace.endpoint_form", conditions=(sp.Ge(P.u, 0),))).proved
    assert not verify_inline(wrong("profile.srs.zero_region", conditions=(sp.Le(P.n, P.t),))).proved
    assert not verify_inline(wrong("profile.delta0_bound", conditions=())).proved


def test_wrong_bounds_and_scales_are_not_proved():
    """delta_0 <= q h_t(k*) (without e^eps) is false for e^eps > 1; a wrong end point ratio; a wrong scale."""
    assert not verify_inline(wrong("profile.delta0_bound", lhs=P._q * P._hk)).proved
    N, n, t = P.N, P.n, P.t
    bad = sp.Max(sp.log((N - t) / (N - t - n)), sp.log((t + 1) / (t - n)))
    assert not verify_inline(wrong("profile.srs.zero_region", rhs=bad)).proved
    bad_scale = P.Delta / sp.log(1 + (sp.exp(P.eps_p) - 1) * P.q_)
    assert not verify_inline(wrong("profile.amplification.generic_scale",
                                   lhs=sp.Subs(P._AMPL, P.b, bad_scale))).proved


def test_citations_are_registered_with_references():
    for key in ("monotone_likelihood_ratio_region", "characteristic_function_sum_mixture", "laplace_mechanism_pure_dp",
                "amplification_by_subsampling", "data_processing_hockey_stick", "laguerre_rule_of_signs"):
        assert CITATIONS[key].reference and CITATIONS[key].statement


# -- binary data: brute force over every sample -----------------------------------------------------------------
def srs_law(N: int, n: int, x) -> dict[int, Fraction]:
    """Law of the number of sampled ones, every sample of size n enumerated."""
    law: dict[int, Fraction] = {}
    samples = list(itertools.combinations(range(N), n))
    for s in samples:
        k = sum(x[i] for i in s)
        law[k] = law.get(k, Fraction(0)) + Fraction(1, len(samples))
    return law


def srs_law_with_unit0(N: int, n: int, x) -> dict[int, Fraction]:
    """P(unit 0 sampled and k ones among the other sampled units), every sample enumerated."""
    law: dict[int, Fraction] = {}
    samples = list(itertools.combinations(range(N), n))
    for s in samples:
        if 0 in s:
            k = sum(x[i] for i in s if i != 0)
            law[k] = law.get(k, Fraction(0)) + Fraction(1, len(samples))
    return law


def bern_law(x, p: Fraction) -> dict[int, Fraction]:
    law: dict[int, Fraction] = {}
    N = len(x)
    for r in range(N + 1):
        for s in itertools.combinations(range(N), r):
            k = sum(x[i] for i in s)
            law[k] = law.get(k, Fraction(0)) + p**r * (1 - p)**(N - r)
    return law


def pair(N: int, t: int):
    """x with t ones and unit 0 = 0; x' = x with unit 0 = 1 (t + 1 ones)."""
    x = [0] + [1] * t + [0] * (N - 1 - t)
    return x, [1] + x[1:]


def cdf(law, k):
    return sum((v for y, v in law.items() if y <= k), Fraction(0))


def srs_designs(max_N=7):
    for N in range(2, max_N + 1):
        for n in range(1, N + 1):
            for t in range(0, N):
                yield N, n, t


def test_srs_pmf_difference_against_brute_force():
    """Reference: every sample enumerated.  The claim's own expressions at each integer point (also outside the
    supports) equal the brute-force f_t - f_{t+1} and (n/N)(h_t(y) - h_t(y-1)); the cdf difference equals
    P(unit 0 sampled, <= k ones among the others) = (n/N) h_t(k) (the coupling)."""
    c = derivations.get("profile.srs.pmf_difference")
    for N, n, t in srs_designs():
        x, xp = pair(N, t)
        f, g, with0 = srs_law(N, n, x), srs_law(N, n, xp), srs_law_with_unit0(N, n, x)
        pt = {P.N: N, P.n: n, P.t: t}
        for y in range(0, n + 2):
            direct = f.get(y, 0) - g.get(y, 0)
            assert sp.Rational(direct) == c.lhs.subs({**pt, P.y: y}) == c.rhs.subs({**pt, P.y: y}), (N, n, t, y)
        for k in range(0, n + 1):
            # P(0 in S, k ones among the others) for x equals (n/N) h_t(k) with h_t the law given 0 in S
            assert cdf(f, k) - cdf(g, k) == with0.get(k, 0), (N, n, t, k)


@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(2, 5), Fraction(3, 4)])
def test_bernoulli_pmf_difference_and_ratio_against_brute_force(p):
    """Reference: every subset of the population with its probability p^|s| (1-p)^(N-|s|)."""
    diff = derivations.get("profile.bernoulli.pmf_difference")
    ratio = derivations.get("profile.bernoulli.pmf_ratio")
    for t in range(0, 6):
        x = [1] * t
        f, g = bern_law(x, p), bern_law(x + [1], p)
        for y in range(0, t + 3):
            pt = {P.t: t, P.y: y, P.p: sp.Rational(p)}
            assert sp.Rational(f.get(y, 0) - g.get(y, 0)) == diff.lhs.subs(pt) == diff.rhs.subs(pt)
            if y <= t + 1:
                assert sp.Rational(f.get(y, 0) / g[y]) == ratio.rhs.subs(pt)


def test_delta0_closed_form_and_bound_against_brute_force():
    """Reference: delta_0 = sum_y (f_t(y) - e^eps f_{t+1}(y))_+ from brute-force laws (SRS, N <= 7, and Bernoulli
    sampling), k* found directly.  The claim's rhs (the closed form) equals it and its lhs (the bound) is >= it
    (b > 0: test_delta_b_below_delta0_and_non_increasing_in_b)."""
    c = derivations.get("profile.delta0_bound")
    cases = []
    for N, n, t in srs_designs():
        x, xp = pair(N, t)
        cases.append((srs_law(N, n, x), srs_law(N, n, xp), Fraction(n, N), srs_law_with_unit0(N, n, x)))
    for t in range(0, 5):
        p = Fraction(2, 5)
        f = bern_law([1] * t, p)
        cases.append((f, bern_law([1] * (t + 1), p), p, {y: p * v for y, v in f.items()}))
    checked = 0
    for f, g, q, qh in cases:
        support = sorted(set(f) | set(g))
        for e in (Fraction(1), Fraction(3, 2), Fraction(4), Fraction(7, 3)):
            direct = sum((max(f.get(y, 0) - e * g.get(y, 0), Fraction(0)) for y in support), Fraction(0))
            kstar = max((y for y in support if f.get(y, 0) >= e * g.get(y, 0)), default=-1)
            pt = {P._F: sp.Rational(cdf(f, kstar)), P._hk: sp.Rational(qh.get(kstar, 0) / q), P._q: sp.Rational(q),
                  P.eps: sp.log(sp.Rational(e))}
            assert sp.Rational(direct) == c.rhs.subs(pt)
            assert c.lhs.subs(pt) >= c.rhs.subs(pt)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("N,n,t", [(5, 2, 1), (6, 3, 2), (4, 1, 0)])
def test_delta_b_below_delta0_and_non_increasing_in_b(N, n, t):
    """The cited steps for b > 0 (data-processing inequality, profile.scale_monotone) on SRS designs.  Reference:
    delta_b = int (f_x - e^eps f_x')_+ by mpmath.quad of the Laplace mixture densities of the Horvitz-Thompson
    total (atoms N y/n, laws by brute force), split at every atom; delta_0 by direct summation."""
    x, xp = pair(N, t)
    f, g = srs_law(N, n, x), srs_law(N, n, xp)
    atoms = sorted({mp.mpf(N) * y / n for y in set(f) | set(g)})

    def density(law, zz, bb):
        return sum(mp.mpf(v.numerator) / v.denominator * laplace_density(zz - mp.mpf(N) * y / n, bb)
                   for y, v in law.items())

    for e in (Fraction(1), Fraction(3, 2), Fraction(4)):
        ce = mp.mpf(e.numerator) / e.denominator
        delta0 = sum((max(f.get(y, 0) - e * g.get(y, 0), Fraction(0)) for y in set(f) | set(g)), Fraction(0))
        previous = mp.mpf(delta0.numerator) / delta0.denominator
        for bb in (mp.mpf("0.2"), mp.mpf("0.7"), mp.mpf(2)):
            with mp.workdps(20):
                db = mp.quad(lambda zz: max(density(f, zz, bb) - ce * density(g, zz, bb), 0),
                             [-mp.inf, *atoms, mp.inf])
            assert db <= previous + mp.mpf(10) ** -12, (e, bb, db, previous)
            previous = db


def test_zero_region_against_brute_force():
    """Reference: max over y of max(r, 1/r), r = f_t/f_{t+1} from brute-force laws, equals exp of both sides."""
    c = derivations.get("profile.srs.zero_region")
    for N in range(3, 9):
        for n in range(1, N):
            for t in range(n, N - n):
                x, xp = pair(N, t)
                f, g = srs_law(N, n, x), srs_law(N, n, xp)
                assert set(f) == set(g) == set(range(n + 1))
                worst = max(max(f[y] / g[y], g[y] / f[y]) for y in range(n + 1))
                pt = {P.N: N, P.n: n, P.t: t}
                assert sp.exp(c.rhs.subs(pt)) == sp.Rational(worst), (N, n, t)
                assert sp.simplify(sp.exp(c.lhs.subs(pt))) == sp.Rational(worst), (N, n, t)


# -- Laplace and Gaussian kernels at 40 digits --------------------------------------------------------------------
def configuration(rng, K=4):
    a = [mp.mpf(rng.uniform(-2, 2))]
    for _ in range(K - 1):
        a.append(a[-1] + mp.mpf(rng.uniform(0.05, 1.5)))
    w = [mp.mpf(rng.uniform(-1, 1)) for _ in range(K)]
    return a, w, mp.mpf(rng.uniform(0.1, 2))


def D_laplace(zz, a, w, bb):
    return sum(wk * mp.exp(-abs(zz - ak) / bb) for wk, ak in zip(w, a)) / (2 * bb)


def recursions(a, w, bb):
    """L_j forward from L_1 = w_1, R_j backward from R_K = 0 (0-based lists)."""
    K = len(a)
    L, R = [w[0]], [mp.mpf(0)] * K
    for j in range(1, K):
        L.append(mp.exp(-(a[j] - a[j - 1]) / bb) * L[-1] + w[j])
    for j in range(K - 2, -1, -1):
        R[j] = mp.exp(-(a[j + 1] - a[j]) / bb) * (R[j + 1] + w[j + 1])
    return L, R


def test_laplace_endpoint_form_and_tails_against_direct_sum():
    """Reference: D summed from its definition; L_j, R_j by the recursions re-implemented here; the tails by
    mpmath.quad of max(D, 0) beyond the extreme atoms against max(R_0, 0)/2 and max(L_K, 0)/2 (the claim's rhs)."""
    rng = random.Random(20240611)
    tails = derivations.get("profile.laplace.tails")
    for _ in range(20):
        a, w, bb = configuration(rng)
        L, R = recursions(a, w, bb)
        for j in range(len(a) - 1):
            for frac in (0, mp.mpf(1) / 3, mp.mpf(1)):
                uu = frac * (a[j + 1] - a[j])
                assert close(2 * bb * D_laplace(a[j] + uu, a, w, bb), R[j] * mp.exp(uu / bb) + L[j] * mp.exp(-uu / bb))
        R0, LK = R[0] + w[0], L[-1]
        left = mp.quad(lambda zz: max(D_laplace(zz, a, w, bb), 0), [-mp.inf, a[0]])
        right = mp.quad(lambda zz: max(D_laplace(zz, a, w, bb), 0), [a[-1], mp.inf])
        rhs = tails.rhs.subs({P._Rsym: sp.Float(str(R0), 40), P._Lsym: sp.Float(str(LK), 40)})
        assert close(left + right, mp.mpf(str(sp.N(rhs, 40))), REL_QUAD)


def test_laplace_interval_closed_forms_against_quadrature():
    """Reference: mpmath.quad of the positive part of (A e^{u/b} + B e^{-u/b})/(2b) over [0, h], split at the
    root, against the claims' right-hand sides (the contribution of one interval to delta)."""
    rng = random.Random(7)
    inc = derivations.get("profile.laplace.interval_increasing")
    dec = derivations.get("profile.laplace.interval_decreasing")
    noroot = derivations.get("profile.laplace.interval_no_root")
    for _ in range(10):
        al, ga, bb = (mp.mpf(rng.uniform(0.2, 2)) for _ in range(3))
        u0 = bb * mp.log(ga / al)
        h = abs(u0) + mp.mpf(rng.uniform(0.1, 2))
        pt = {P.alpha: sp.Float(str(al), 40), P.gamma: sp.Float(str(ga), 40), P.b: sp.Float(str(bb), 40),
              P.h: sp.Float(str(h), 40)}
        for claim, A, B in ((inc, al**2, -ga**2), (dec, -al**2, ga**2)):
            g = lambda uu: max((A * mp.exp(uu / bb) + B * mp.exp(-uu / bb)) / (2 * bb), 0)   # noqa: E731
            if u0 < 0:      # the root lies outside [0, h]: the claims' conditions exclude it
                continue
            ref = mp.quad(g, [0, u0, h])
            assert close(ref, mp.mpf(str(sp.N(claim.rhs.subs(pt), 40))), REL_QUAD)
        A, B = mp.mpf(rng.uniform(-2, 2)), mp.mpf(rng.uniform(-2, 2))
        ref = mp.quad(lambda uu: (A * mp.exp(uu / bb) + B * mp.exp(-uu / bb)) / (2 * bb), [0, h])
        val = noroot.rhs.subs({**pt, P.A_: sp.Float(str(A), 40), P.B_: sp.Float(str(B), 40)})
        assert close(ref, mp.mpf(str(sp.N(val, 40))), REL_QUAD)


def test_gaussian_identities_against_mpmath():
    """Reference: d/dr sum_k w_k Phi((r - a_k)/sigma) by mpmath.diff, Phi by mpmath.ncdf, against D(r) from the
    normal density; the exponential sum against sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} D(z)."""
    rng = random.Random(3)
    for _ in range(10):
        a, w, sg = configuration(rng, K=3)
        D = lambda zz: sum(wk * mp.npdf(zz, ak, sg) for wk, ak in zip(w, a))   # noqa: E731
        r = mp.mpf(rng.uniform(-3, 3))
        deriv = mp.diff(lambda rr: sum(wk * mp.ncdf((rr - ak) / sg) for wk, ak in zip(w, a)), r)
        assert close(deriv, D(r), REL_QUAD)
        expsum = sum(wk * mp.exp(-ak**2 / (2 * sg**2)) * mp.exp(ak * r / sg**2) for wk, ak in zip(w, a))
        assert close(sg * mp.sqrt(2 * mp.pi) * mp.exp(r**2 / (2 * sg**2)) * D(r), expsum)


# -- the noise scale ------------------------------------------------------------------------------------------------
def laplace_density(x, bb):
    return mp.exp(-abs(x) / bb) / (2 * bb)


@pytest.mark.parametrize("b1,b2", [(mp.mpf("0.5"), mp.mpf("1.25")), (mp.mpf(1), mp.mpf(3)), (mp.mpf(2), mp.mpf(2))])
def test_laplace_b2_is_laplace_b1_plus_independent_noise(b1, b2):
    """Reference: the density of Laplace(b1) + X, X = 0 w.p. rho = (b1/b2)^2 and Laplace(b2) otherwise, by
    mpmath.quad of the convolution split at the kinks, equals the Laplace(b2) density."""
    rho = (b1 / b2)**2
    for x in (mp.mpf(0), mp.mpf("0.3"), mp.mpf(-1), mp.mpf("2.5")):
        conv = mp.quad(lambda yy: laplace_density(x - yy, b1) * laplace_density(yy, b2), [-mp.inf, min(0, x), max(0, x), mp.inf])
        assert close(rho * laplace_density(x, b1) + (1 - rho) * conv, laplace_density(x, b2), REL_QUAD)


def test_generic_scale_reaches_eps_at_40_digits():
    """Reference: ln(1 + q(e^{Delta/b} - 1)) at b = Delta/ln(1 + (e^eps - 1)/q), evaluated in mpmath, is eps; a
    slightly smaller (larger) b gives a larger (smaller) amplified eps."""
    rng = random.Random(11)
    for _ in range(20):
        e, Dl, q = mp.mpf(rng.uniform(0.05, 3)), mp.mpf(rng.uniform(0.5, 50)), mp.mpf(rng.uniform(0.01, 1))
        bb = Dl / mp.log(1 + (mp.exp(e) - 1) / q)
        ampl = lambda s: mp.log(1 + q * (mp.exp(Dl / s) - 1))   # noqa: E731
        assert close(ampl(bb), e)
        assert ampl(bb * mp.mpf("0.999")) > e > ampl(bb * mp.mpf("1.001"))
