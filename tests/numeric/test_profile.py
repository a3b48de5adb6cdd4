"""numeric.profile (privacy profile, worst pair, calibration) against independent references.

The code under test is the package numeric/profile/: kernels.py (closed forms per pair),
search/binary.py (SRS and Bernoulli on binary data: counts and a pruned search), search/explicit.py
(every sample and every pair of an explicit design) and calibration.py.

References (none reuses that code, none is a value copied from its output):
* brute force: ``numeric.delta_bruteforce`` (every sample enumerated, exact Fraction atoms, closed
  form in mpmath at 50 digits; checked on its own in test_bruteforce.py) for every ordered pair of
  neighbouring populations, the pairs enumerated here with itertools.  Pairs whose exact laws
  (f_x, f_x') coincide (computed here with Fractions) are evaluated once: delta(eps, x, x') is a
  function of the two laws only, so the maximum is unchanged.
* Gaussian noise: ``gauss_pair_delta``, mpmath.quad at 30 digits of max(f_x - e^eps f_x', 0) with
  the densities summed directly, on pieces of width sigma/8 from (min atom - 14 sigma) to
  (max atom + 14 sigma), with the atoms and the sign changes (bisection in mpmath) as breakpoints.
* closed forms for the census design (no sampling): the Laplace mechanism
  (``numeric.laplace_mechanism_delta``, numeric/ht_mechanism.py) and the analytic Gaussian
  mechanism of Balle & Wang (2018), written here in mpmath.
* theorems: data processing (delta_b <= delta_0, the noiseless delta of
  ``numeric.srs_binary_delta0``, separate code: Abel summation on Loader's pmf; delta
  non-increasing in the scale because Laplace(b2) is Laplace(b1) plus independent noise and
  N(0, s2^2) is N(0, s1^2) plus independent noise when b1 <= b2, s1 <= s2); the definition
  (delta non-increasing in eps); amplification by subsampling (Balle, Barthe & Gaboardi 2018).
* two algorithms of the code that share no pair computation: the count-based path for SRS and
  Bernoulli designs on binary data against the sample-by-sample path of the same design given as
  an ExplicitDesign (both also against brute force).
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from _strategies import srs_designs
from numeric import (SRS, Bernoulli, BinaryDomain, ExplicitDesign, FiniteDomain, amplified_laplace_scale,
                     calibrate_scale, delta_bruteforce, epsilon_for_delta, laplace_mechanism_delta,
                     privacy_profile, srs_binary_delta0, worst_pair)


# -- designs: (samples, exact probabilities); the code receives the nearest floats -------------------
def srs_listing(N, n):
    samples = list(itertools.combinations(range(N), n))
    return samples, [F(1, len(samples))] * len(samples)


def bernoulli_listing(N, p):
    """Every subset of 0..N-1 (the empty sample included), p(s) = p^|s| (1 - p)^(N - |s|)."""
    samples = [tuple(j for j in range(N) if bits[j]) for bits in itertools.product((0, 1), repeat=N)]
    return samples, [p ** len(s) * (1 - p) ** (N - len(s)) for s in samples]


def explicit(design, N=None):
    samples, probs = design
    return ExplicitDesign(samples, [float(p) for p in probs], N=N)


SRS42 = srs_listing(4, 2)
UNEQUAL = ([(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)], [F("0.2"), F("0.1"), F("0.3"), F("0.25"), F("0.15")])
BERN3 = bernoulli_listing(3, F("0.4"))
DESIGNS = {"srs42": SRS42, "unequal": UNEQUAL, "bern3": BERN3}
N_OF = {"srs42": 4, "unequal": 4, "bern3": 3}
# the same designs as the dedicated classes (count-based path on binary data)
CLASS_OF = {"srs42": SRS(4, 2), "bern3": Bernoulli(3, 0.4)}


# -- neighbouring pairs, enumerated here ---------------------------------------------------------------
def finite_pairs(N, values):
    """Every ordered (x, x', i): x, x' in values^N differing exactly at unit i."""
    for x in itertools.product(values, repeat=N):
        for i in range(N):
            for v in values:
                if v != x[i]:
                    yield x, x[:i] + (v,) + x[i + 1:], i


def binary_pairs(N, m_t, M_t):
    """Every ordered (x, x', i): x, x' in {0, 1}^N with totals in [m_t, M_t], differing at unit i."""
    for x in itertools.product((0, 1), repeat=N):
        if m_t <= sum(x) <= M_t:
            for i in range(N):
                xp = x[:i] + (1 - x[i],) + x[i + 1:]
                if m_t <= sum(xp) <= M_t:
                    yield x, xp, i


def domain_and_pairs(spec, N):
    """(the code's domain, the list of ordered neighbouring pairs) for ("finite", values) or
    ("binary", m_t, M_t)."""
    if spec[0] == "finite":
        return FiniteDomain(spec[1]), list(finite_pairs(N, spec[1]))
    return BinaryDomain(N, spec[1], spec[2]), list(binary_pairs(N, spec[1], spec[2]))


# -- exact laws of the Horvitz-Thompson estimate ----------------------------------------------------
def inclusion(samples, probs, N):
    return [sum((F(p) for s, p in zip(samples, probs) if j in s), F(0)) for j in range(N)]


def exact_law(samples, probs, pi, x):
    """{t(x, s): P} with t(x, s) = sum_{j in s} x_j / pi_j, exact (samples of probability 0 skipped)."""
    law = Counter()
    for s, p in zip(samples, probs):
        if p:
            law[sum((F(x[j]) / pi[j] for j in s), F(0))] += F(p)
    return law


def distinct_law_pairs(design, pairs):
    """{(law of x, law of x'): (x, x')} over the pairs: one representative per pair of laws."""
    samples, probs = design
    N = len(pairs[0][0])
    pi = inclusion(samples, probs, N)
    laws: dict = {}

    def law(x):
        if x not in laws:
            laws[x] = exact_law(samples, probs, pi, x)
        return laws[x]

    out: dict = {}
    for x, xp, _ in pairs:
        key = (frozenset(law(x).items()), frozenset(law(xp).items()))
        out.setdefault(key, (x, xp))
    return out


def brute_sup(design, pairs, eps, b):
    """max over the ordered pairs of delta_bruteforce (one call per distinct pair of laws)."""
    samples, probs = design
    return max(delta_bruteforce(samples, probs, x, xp, eps, b) for x, xp in distinct_law_pairs(design, pairs).values())


_BRUTE: dict = {}


def brute_sup_case(name, spec, eps, b):
    """brute_sup for a named design of section 1 (kept: tests 1a and 1b share it)."""
    key = (name, spec, eps, b)
    if key not in _BRUTE:
        _BRUTE[key] = brute_sup(DESIGNS[name], domain_and_pairs(spec, N_OF[name])[1], eps, b)
    return _BRUTE[key]


# -- Gaussian reference: quadrature ----------------------------------------------------------------------
def mpq(q: F):
    return mpmath.mpf(q.numerator) / q.denominator


def signed_weights(fx, fy, e_eps):
    """[(atom, f_x(atom) - e^eps f_x'(atom))] over the sorted union of the atoms, zeros dropped (mpmath)."""
    out = [(a, mpq(fx.get(a, F(0))) - e_eps * mpq(fy.get(a, F(0)))) for a in sorted(set(fx) | set(fy))]
    return [(a, w) for a, w in out if w != 0]


def sign_changes(weights) -> int:
    s = [w > 0 for _, w in weights]
    return sum(u != v for u, v in zip(s, s[1:]))


def gauss_pair_delta(fx, fy, eps, sigma):
    """int max(f_x - e^eps f_x', 0) for N(0, sigma^2) noise, by mpmath.quad at 30 digits.

    f_x - e^eps f_x' = sum_a w_a phi((z - a)/sigma)/sigma is summed directly.  Breakpoints: every
    sigma/8 from min atom - 14 sigma to max atom + 14 sigma (beyond, the integrand is below
    e^{-98}), the atoms, and every sign change between consecutive breakpoints (bisection to 1e-25
    sigma).  Each piece where the integrand is positive somewhere among its ends and midpoint is
    integrated by Gauss-Legendre quadrature."""
    with mpmath.workdps(30):
        s = mpmath.mpf(sigma)
        weights = signed_weights(fx, fy, mpmath.exp(mpmath.mpf(eps)))
        if not weights:
            return mpmath.mpf(0)
        norm, h = 1 / (s * mpmath.sqrt(2 * mpmath.pi)), 1 / (2 * s * s)
        terms = [(mpq(a), w * norm) for a, w in weights]

        def D(z):
            return mpmath.fsum([c * mpmath.exp(-h * (z - a) ** 2) for a, c in terms])

        lo, hi = terms[0][0] - 14 * s, terms[-1][0] + 14 * s
        k = int(mpmath.ceil((hi - lo) / (s / 8)))
        grid = sorted(set([lo + j * (hi - lo) / k for j in range(k + 1)] + [a for a, _ in terms]))
        values = [D(z) for z in grid]
        points = [(grid[0], values[0])]           # breakpoints with the integrand's value there
        for u, fu, v, fv in zip(grid, values, grid[1:], values[1:]):
            if fu * fv < 0:                      # a sign change inside: bisect it
                a, c, fa = u, v, fu
                while c - a > s * mpmath.mpf(10) ** -25:
                    m = (a + c) / 2
                    fm = D(m)
                    if fm * fa > 0:
                        a, fa = m, fm
                    else:
                        c = m
                points.append(((a + c) / 2, mpmath.mpf(0)))
            points.append((v, fv))
        total = mpmath.mpf(0)
        for (u, fu), (v, fv) in zip(points, points[1:]):
            if max(fu, D((u + v) / 2), fv) > 0:  # 6-node Gauss-Legendre (after 3 nodes): a piece
                # of width <= sigma/8 of an analytic function, error far below 1e-20
                total += mpmath.quad(lambda z: max(D(z), 0), [u, v], method="gauss-legendre", maxdegree=2)
        return total


def gauss_sup(design, pairs, eps, sigma):
    """(max over the ordered pairs of gauss_pair_delta, sign changes of the weights at the argmax).

    Pairs are visited in decreasing order of their exact noiseless delta_0 = sum_a (f_x - e^eps f_x')_+
    and the search stops when delta_0 is not above the best value found: delta_sigma <= delta_0 for
    each pair (data processing: the noise is a post-processing of the noiseless estimate)."""
    with mpmath.workdps(30):
        e_eps = mpmath.exp(mpmath.mpf(eps))
        ranked = []
        for fx_key, fy_key in distinct_law_pairs(design, pairs):
            fx, fy = dict(fx_key), dict(fy_key)
            d0 = mpmath.fsum(max(w, 0) for _, w in signed_weights(fx, fy, e_eps))
            ranked.append((d0, fx, fy))
        ranked.sort(key=lambda r: -r[0])
        best, changes = mpmath.mpf(-1), None
        for d0, fx, fy in ranked:
            if d0 <= best:
                break
            d = gauss_pair_delta(fx, fy, eps, sigma)
            if d > best:
                best, changes = d, sign_changes(signed_weights(fx, fy, e_eps))
        return float(best), changes


# =====================================================================================================
# 1. brute force, Laplace noise, small explicit designs
# =====================================================================================================
CASES_1 = [
    ("srs42", ("finite", (0, 1, 2)), [(0.0, 0.5), (1.0, 2.0)]),
    ("srs42", ("binary", 0, 4), [(0.3, 1.0), (2.5, 0.3)]),
    ("srs42", ("binary", 1, 3), [(0.0, 0.5), (1.0, 2.0)]),
    ("srs42", ("binary", 0, 2), [(0.3, 1.0), (2.5, 0.3)]),
    ("unequal", ("finite", (0, 1, 2)), [(0.3, 1.0), (2.5, 0.3)]),
    ("unequal", ("binary", 0, 4), [(0.0, 0.5), (1.0, 2.0)]),
    ("unequal", ("binary", 1, 3), [(0.3, 1.0), (2.5, 0.3)]),
    ("unequal", ("binary", 2, 4), [(0.0, 0.5), (1.0, 2.0)]),
    ("bern3", ("finite", (0, 1, 2)), [(0.0, 0.5), (1.0, 2.0), (2.5, 0.3)]),
    ("bern3", ("binary", 0, 3), [(0.3, 1.0), (2.5, 0.3)]),
    ("bern3", ("binary", 1, 2), [(0.0, 0.5), (1.0, 2.0)]),
]


@pytest.mark.parametrize("name, spec, grid", CASES_1, ids=lambda v: str(v))
def test_profile_equals_brute_force(name, spec, grid):
    """privacy_profile = max over every ordered neighbouring pair (itertools) of delta_bruteforce, for
    the design listed sample by sample and, for SRS(4, 2) and Bernoulli(3, 0.4), as the class."""
    design, N = DESIGNS[name], N_OF[name]
    domain, pairs = domain_and_pairs(spec, N)
    codes = [explicit(design, N)] + ([CLASS_OF[name]] if name in CLASS_OF else [])
    for eps, b in grid:
        want = brute_sup_case(name, spec, eps, b)
        for code in codes:
            got = privacy_profile(code, domain, b, eps)
            assert abs(got - want) <= 1e-12, (code, eps, b, got, want)


def in_domain(x, spec):
    if spec[0] == "finite":
        return all(v in spec[1] for v in x)
    return all(v in (0, 1) for v in x) and spec[1] <= sum(x) <= spec[2]


@pytest.mark.parametrize("name, spec, grid", CASES_1, ids=lambda v: str(v))
def test_worst_pair_against_brute_force(name, spec, grid):
    """worst_pair: x, x' in the domain, differing exactly at ``unit``; its delta = delta_bruteforce at
    (x, x') = the brute-force supremum.  For the classes (pair given by its totals) the pair
    (1^t 0^(N-t), one more unit set) has the law of every pair with those totals (exchangeable design)."""
    design, N = DESIGNS[name], N_OF[name]
    samples, probs = design
    domain, pairs = domain_and_pairs(spec, N)
    for eps, b in grid:
        want = brute_sup_case(name, spec, eps, b)
        wp = worst_pair(explicit(design, N), domain, b, eps)
        assert (wp.epsilon, wp.b, wp.noise) == (eps, b, "laplace")
        assert len(wp.x) == len(wp.x_prime) == N
        assert [j for j in range(N) if wp.x[j] != wp.x_prime[j]] == [wp.unit]
        assert in_domain(wp.x, spec) and in_domain(wp.x_prime, spec)
        assert (wp.total, wp.total_prime) == (sum(wp.x), sum(wp.x_prime))
        assert abs(wp.delta - delta_bruteforce(samples, probs, wp.x, wp.x_prime, eps, b)) <= 1e-12
        assert abs(wp.delta - want) <= 1e-12
        if name in CLASS_OF and spec[0] == "binary":
            wc = worst_pair(CLASS_OF[name], domain, b, eps)
            t, tp = int(wc.total), int(wc.total_prime)
            assert (t, tp) == (wc.total, wc.total_prime) and abs(t - tp) == 1
            assert spec[1] <= min(t, tp) and max(t, tp) <= spec[2]
            x = (1,) * t + (0,) * (N - t)
            xp = (1,) * tp + (0,) * (N - tp)
            assert abs(wc.delta - delta_bruteforce(samples, probs, x, xp, eps, b)) <= 1e-12
            assert abs(wc.delta - want) <= 1e-12


# =====================================================================================================
# 2. count-based path (SRS, Bernoulli on binary data) vs the generic path and brute force
# =====================================================================================================
def ranges(N):
    r = {(0, N), (0, 1), (N // 2, N) if N // 2 < N else (0, N)}
    if N - 1 > 1:
        r.add((1, N - 1))
    return sorted(r)


EPS_2 = np.array([0.0, 0.25, 1.0, 3.0])


@pytest.mark.parametrize("N", range(1, 8))
def test_srs_fast_path_vs_explicit_laplace(N):
    """SRS(N, n) on BinaryDomain vs the same design as an ExplicitDesign of its C(N, n) samples."""
    for n in range(1, N + 1):
        generic = explicit(srs_listing(N, n), N)
        for m_t, M_t in ranges(N):
            dom = BinaryDomain(N, m_t, M_t)
            for b in (0.4, 1.5):
                got = privacy_profile(SRS(N, n), dom, b, EPS_2)
                want = privacy_profile(generic, dom, b, EPS_2)
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=str((n, m_t, M_t, b)))


def srs_brute_check(N):
    for n in range(1, N + 1):
        design = srs_listing(N, n)
        for m_t, M_t in ranges(N):
            pairs = list(binary_pairs(N, m_t, M_t))
            for eps, b in ((0.25, 0.4), (1.0, 1.5)):
                want = brute_sup(design, pairs, eps, b)
                got = privacy_profile(SRS(N, n), BinaryDomain(N, m_t, M_t), b, eps)
                assert abs(got - want) <= 1e-12, (n, m_t, M_t, eps, b, got, want)


@pytest.mark.parametrize("N", range(1, 6))
def test_srs_fast_path_vs_brute_force(N):
    """SRS(N, n) on BinaryDomain vs max over every pair of delta_bruteforce (N <= 5)."""
    srs_brute_check(N)


@pytest.mark.slow
@pytest.mark.parametrize("N", [6, 7])
def test_srs_fast_path_vs_brute_force_slow(N):
    srs_brute_check(N)


def srs_gauss_check(N, eps=(0.0, 0.5, 2.0), sigmas=(0.5, 2.0)):
    for n in range(1, N + 1):
        generic = explicit(srs_listing(N, n), N)
        for m_t, M_t in ranges(N):
            dom = BinaryDomain(N, m_t, M_t)
            for s in sigmas:
                got = privacy_profile(SRS(N, n), dom, s, np.array(eps), noise="gaussian")
                want = privacy_profile(generic, dom, s, np.array(eps), noise="gaussian")
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=str((n, m_t, M_t, s)))


@pytest.mark.parametrize("N", range(1, 4))
def test_srs_fast_path_vs_explicit_gaussian(N):
    """Gaussian noise: SRS(N, n) on BinaryDomain vs the same design as an ExplicitDesign."""
    srs_gauss_check(N)


@pytest.mark.slow
@pytest.mark.parametrize("N", [4, 5, 6, 7])
def test_srs_fast_path_vs_explicit_gaussian_slow(N):
    if N <= 5:
        srs_gauss_check(N)
    else:                 # the generic Gaussian path evaluates each of the N 2^N pairs in Python
        srs_gauss_check(N, eps=(0.0, 1.0), sigmas=(1.0,))


P_BERN = (F("0.15"), F("0.4"), F("0.75"))


@pytest.mark.parametrize("N", range(1, 6))
@pytest.mark.parametrize("p", P_BERN, ids=str)
def test_bernoulli_fast_path_laplace(N, p):
    """Bernoulli(N, p) on BinaryDomain vs the ExplicitDesign of its 2^N samples and vs brute force."""
    design = bernoulli_listing(N, p)
    generic = explicit(design, N)
    for m_t, M_t in ranges(N):
        dom = BinaryDomain(N, m_t, M_t)
        for b in (0.4, 1.5):
            got = privacy_profile(Bernoulli(N, float(p)), dom, b, EPS_2)
            want = privacy_profile(generic, dom, b, EPS_2)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=str((m_t, M_t, b)))
        pairs = list(binary_pairs(N, m_t, M_t))
        for eps, b in ((0.25, 0.4), (1.0, 1.5)):
            want = brute_sup(design, pairs, eps, b)
            got = privacy_profile(Bernoulli(N, float(p)), dom, b, eps)
            assert abs(got - want) <= 1e-12, (m_t, M_t, eps, b, got, want)


def bern_gauss_check(N, p):
    generic = explicit(bernoulli_listing(N, p), N)
    for m_t, M_t in ranges(N):
        dom = BinaryDomain(N, m_t, M_t)
        for s in (0.5, 2.0):
            got = privacy_profile(Bernoulli(N, float(p)), dom, s, np.array([0.0, 0.5, 2.0]), noise="gaussian")
            want = privacy_profile(generic, dom, s, np.array([0.0, 0.5, 2.0]), noise="gaussian")
            # both are upper values; the explicit path's rounding bound includes the displacement of the
            # double atoms (41 e/sigma for a Gaussian kernel), a few 1e-12 here
            np.testing.assert_allclose(got, want, rtol=0, atol=5e-12, err_msg=str((m_t, M_t, s)))


@pytest.mark.parametrize("N", range(1, 4))
@pytest.mark.parametrize("p", P_BERN, ids=str)
def test_bernoulli_fast_path_vs_explicit_gaussian(N, p):
    bern_gauss_check(N, p)


@pytest.mark.slow
@pytest.mark.parametrize("N", [4, 5])
@pytest.mark.parametrize("p", P_BERN, ids=str)
def test_bernoulli_fast_path_vs_explicit_gaussian_slow(N, p):
    bern_gauss_check(N, p)


# =====================================================================================================
# 3. Gaussian noise against quadrature
# =====================================================================================================
# small unequal-probability designs (dyadic probabilities) whose worst pair has 3 sign changes
MULTI_A = ([(0,), (1,), (0, 1)], [F(1, 8), F(3, 8), F(1, 2)])
MULTI_B = ([(), (1,), (0, 1)], [F(1, 4), F(5, 8), F(1, 8)])
MULTI_C = ([(), (0,), (0, 1)], [F(1, 2), F(1, 4), F(1, 4)])
UNEQUAL2 = ([(), (0,), (1,), (0, 1)], [F("0.1"), F("0.3"), F("0.2"), F("0.4")])

GAUSS_CASES = [
    # (id, design, N, domain spec, eps, sigma, class form or None, minimum sign changes at the worst pair)
    ("srs42-a", SRS42, 4, ("binary", 0, 4), 0.3, 0.7, SRS(4, 2), 0),
    ("bern3", BERN3, 3, ("binary", 1, 3), 0.5, 1.0, Bernoulli(3, 0.4), 0),
    ("unequal2-a", UNEQUAL2, 2, ("finite", (-1, 0, 3)), 0.5, 0.7, None, 0),
    ("multi-a", MULTI_A, 2, ("finite", (3, 4)), 0.3, 2.0, None, 2),
]
GAUSS_CASES_SLOW = [
    ("multi-c", MULTI_C, 2, ("finite", (3, 4)), 0.3, 1.0, None, 2),
    ("srs42-b", SRS42, 4, ("binary", 0, 4), 1.0, 2.0, SRS(4, 2), 0),
    ("srs42-c", SRS42, 4, ("binary", 1, 3), 0.0, 1.0, SRS(4, 2), 0),
    ("unequal2-b", UNEQUAL2, 2, ("finite", (-1, 0, 3)), 1.0, 1.5, None, 0),
    ("multi-b", MULTI_B, 2, ("finite", (-2, -1, 0)), 0.7, 2.0, None, 2),
]


@pytest.mark.parametrize("case", GAUSS_CASES + [pytest.param(c, marks=pytest.mark.slow) for c in GAUSS_CASES_SLOW],
                         ids=lambda c: c[0])
def test_gaussian_against_quadrature(case):
    """privacy_profile(noise="gaussian") = max over pairs of the mpmath quadrature, to 1e-9; the multi-*
    cases have a worst pair whose weights change sign at least twice (the multi-root algorithm), as
    counted by the reference itself; worst_pair's delta is the quadrature at its own pair."""
    _, design, N, spec, eps, sigma, cls, min_changes = case
    domain, pairs = domain_and_pairs(spec, N)
    codes = [explicit(design, N)] + ([cls] if cls is not None else [])
    got = [float(privacy_profile(code, domain, sigma, eps, noise="gaussian")) for code in codes]
    wp = worst_pair(codes[0], domain, sigma, eps, noise="gaussian")
    want, changes = gauss_sup(design, pairs, eps, sigma)
    assert changes >= min_changes
    for g in got:
        assert abs(g - want) <= 1e-9, (g, want)
    samples, probs = design
    pi = inclusion(samples, probs, N)
    at_pair = gauss_pair_delta(exact_law(samples, probs, pi, wp.x), exact_law(samples, probs, pi, wp.x_prime),
                               eps, sigma)
    assert abs(wp.delta - float(at_pair)) <= 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("eps, sigma", [(0.5, 0.7), (1.0, 3.0)])
def test_gaussian_against_quadrature_unequal4(eps, sigma):
    """The 5-sample unequal design on FiniteDomain((-1, 0, 3)) (648 pairs, most with several sign changes)."""
    domain, pairs = domain_and_pairs(("finite", (-1, 0, 3)), 4)
    got = privacy_profile(explicit(UNEQUAL, 4), domain, sigma, eps, noise="gaussian")
    want, _ = gauss_sup(UNEQUAL, pairs, eps, sigma)
    assert abs(got - want) <= 1e-9


# Atoms that coincide in exact arithmetic but not after rounding (x = (-2, 1), x' = (-2, -2):
# -2/pi_0 + 1/pi_1 = -2/pi_1 = -10/3 with pi = (0.4, 0.6)), and atoms 2e-9 apart.
NEAR_CASES = [
    ("rounded-coincident", ([(1,), (0,), (), (0, 1)], [F("0.33"), F("0.13"), F("0.27"), F("0.27")]), 2,
     ("finite", (-2, 1)), 1.0, 2.0),
    ("close-values", ([(), (0,)], [F(1, 2), F(1, 2)]), 1, ("finite", (0, 1, 1 + 1e-9)), 0.5, 1.0),
]


@pytest.mark.parametrize("case", NEAR_CASES, ids=lambda c: c[0])
def test_gaussian_near_coincident_atoms_against_quadrature(case):
    """Valid designs and domains whose pairs have (nearly) coinciding atoms and several sign changes:
    delta is continuous in the atoms, the quadrature reference is unaffected."""
    _, design, N, spec, eps, sigma = case
    domain, pairs = domain_and_pairs(spec, N)
    got = privacy_profile(explicit(design, N), domain, sigma, eps, noise="gaussian")
    want, _ = gauss_sup(design, pairs, eps, sigma)
    assert abs(got - want) <= 1e-9


# =====================================================================================================
# 4. census: no sampling
# =====================================================================================================
def analytic_gaussian_delta(eps, delta_t, sigma):
    """Balle & Wang (2018), Theorem 8: Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D), mpmath."""
    with mpmath.workdps(40):
        e, D, s = mpmath.mpf(eps), mpmath.mpf(delta_t), mpmath.mpf(sigma)
        return mpmath.ncdf(D / (2 * s) - e * s / D) - mpmath.exp(e) * mpmath.ncdf(-D / (2 * s) - e * s / D)


EPS_4 = np.array([0.0, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0])


@pytest.mark.parametrize("N", [1, 5, 50])
@pytest.mark.parametrize("b", [0.05, 0.3, 1.0, 4.0])
def test_census_laplace(N, b):
    """SRS(N, N) on BinaryDomain(N): the Laplace mechanism with sensitivity 1."""
    got = privacy_profile(SRS(N, N), BinaryDomain(N), b, EPS_4)
    np.testing.assert_allclose(got, laplace_mechanism_delta(EPS_4, 1.0, b), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("b", [0.3, 1.0, 4.0])
def test_census_explicit_laplace(b):
    """One sample holding every unit: FiniteDomain((0, 2.5)) gives sensitivity 2.5, BinaryDomain gives 1."""
    census = ExplicitDesign([(0, 1, 2)], [1.0])
    got = privacy_profile(census, FiniteDomain((0, 2.5)), b, EPS_4)
    assert_upper(got, laplace_mechanism_delta(EPS_4, 2.5, b))
    got = privacy_profile(census, BinaryDomain(3, 1, 3), b, EPS_4)
    assert_upper(got, laplace_mechanism_delta(EPS_4, 1.0, b))


def assert_upper(got, want, rtol=1e-12, margin=1e-13):
    """The contract of the profile: never below the exact value (up to the one rounding of the
    reference ``want``, computed in double), above it by at most the rounding bound."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert np.all(got >= want - 2 * np.spacing(want)), (got, want)
    assert np.all(got <= want * (1 + rtol) + margin), (got, want)


@pytest.mark.parametrize("sigma", [0.1, 0.5, 1.0, 3.0])
def test_census_gaussian(sigma):
    """Gaussian census against the analytic Gaussian mechanism (Delta = 1 and 2.5)."""
    want1 = [float(analytic_gaussian_delta(e, 1, sigma)) for e in EPS_4]
    want25 = [float(analytic_gaussian_delta(e, 2.5, sigma)) for e in EPS_4]
    for N in (1, 5, 50):
        got = privacy_profile(SRS(N, N), BinaryDomain(N), sigma, EPS_4, noise="gaussian")
        assert_upper(got, want1, rtol=1e-10, margin=1e-13)
    census = ExplicitDesign([(0, 1)], [1.0])
    got = privacy_profile(census, FiniteDomain((0, 2.5)), sigma, EPS_4, noise="gaussian")
    assert_upper(got, want25, rtol=1e-10, margin=5e-12)


# =====================================================================================================
# 5. monotonicity in eps and in the scale
# =====================================================================================================
MONO = [
    ("srs200", SRS(200, 20), BinaryDomain(200)),
    ("srs200-restricted", SRS(200, 20), BinaryDomain(200, 30, 170)),
    ("bern150", Bernoulli(150, 0.1), BinaryDomain(150)),
    ("bern150-restricted", Bernoulli(150, 0.1), BinaryDomain(150, 10, 100)),
]


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
@pytest.mark.parametrize("name, design, domain", MONO, ids=lambda v: v if isinstance(v, str) else "")
def test_monotone_in_eps_and_scale(name, design, domain, noise):
    """delta non-increasing in eps (the definition) and in the scale (data processing), up to the
    rounding bounds of two upper values (1e-13)."""
    eps = np.linspace(0.0, 5.0, 11)
    scales = np.geomspace(0.05, 80.0, 9)
    table = np.array([privacy_profile(design, domain, b, eps, noise=noise) for b in scales])
    assert np.all((table >= 0) & (table <= 1))
    assert np.all(np.diff(table, axis=1) <= 1e-13)      # along eps
    assert np.all(np.diff(table, axis=0) <= 1e-13)      # along the scale
    assert table[0, 0] > 0.01                           # not trivially zero


# =====================================================================================================
# 6. pruning changes nothing
# =====================================================================================================
PRUNE = [
    (SRS(300, 30), BinaryDomain(300)), (SRS(300, 30), BinaryDomain(300, 40, 260)),
    (SRS(300, 30), BinaryDomain(300, 5, 295)), (Bernoulli(200, 0.1), BinaryDomain(200)),
]


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
@pytest.mark.parametrize("k", range(len(PRUNE)))
def test_pruning_equals_full_search(k, noise):
    """The certified pruning bound skips only pairs that cannot be the maximum: prune=True = prune=False."""
    design, domain = PRUNE[k]
    for eps, b in [(0.0, 1.0), (0.1, 0.5), (0.5, 5.0), (1.0, 20.0), (2.0, 2.0), (3.0, 60.0)]:
        a = privacy_profile(design, domain, b, eps, noise=noise, prune=True)
        c = privacy_profile(design, domain, b, eps, noise=noise, prune=False)
        assert abs(a - c) <= 1e-13, (eps, b, a, c)       # two upper values of one supremum


# =====================================================================================================
# 7. properties (hypothesis)
# =====================================================================================================
@st.composite
def srs_cases(draw):
    N, n, m_t, M_t = draw(srs_designs(60))
    b = draw(st.floats(0.05, 50.0))
    eps = draw(st.floats(0.0, 4.0))
    noise = draw(st.sampled_from(["laplace", "gaussian"]))
    return N, n, m_t, M_t, b, eps, noise


@settings(max_examples=80, deadline=None)
@given(srs_cases())
@example((43, 2, 6, 7, 0.05078125, 0.0, "gaussian"))
def test_properties_srs(case):
    """0 <= delta <= 1; delta_b <= delta_0 of srs_binary_delta0 (data processing, separate code);
    non-increasing in eps and in the scale."""
    N, n, m_t, M_t, b, eps, noise = case
    design, domain = SRS(N, n), BinaryDomain(N, m_t, M_t)
    d, d_next = privacy_profile(design, domain, b, [eps, eps + 0.1], noise=noise)
    d_2b = privacy_profile(design, domain, 2 * b, eps, noise=noise)
    assert 0 <= d <= 1 and 0 <= d_next <= 1 and 0 <= d_2b <= 1
    # the Gaussian path adds the certified bound of its zero's bracket, (hi - lo) 2/(sigma sqrt(2 pi)) with
    # hi - lo a few units in the last place of the window's end (gaussian_delta_one_change): with a small
    # sigma that margin is above 1e-12 (N = 43, n = 2, sigma = 0.0508 returned 1.04e-12 above delta_0 = 36/903)
    ulp = np.spacing(N + 40.0 * b)
    margin = 1e-12 + (64 * ulp * 2 / (b * math.sqrt(2 * math.pi)) if noise == "gaussian" else 0.0)
    assert d <= srs_binary_delta0(eps, N, n, m_t, M_t) + margin
    assert d >= d_next - 1e-13
    assert d >= d_2b - 1e-13


# =====================================================================================================
# 8. calibration
# =====================================================================================================
@pytest.mark.parametrize("eps, delta", [(0.1, 1e-9), (0.5, 0.1), (1.0, 1e-5), (2.0, 0.5), (0.0, 0.01)])
def test_calibrate_census_laplace(eps, delta):
    """Census: delta(eps) = 1 - e^{(eps - Delta/b)/2} <= delta iff b >= Delta/(eps - 2 ln(1 - delta))."""
    want = 1 / (eps - 2 * math.log1p(-delta))
    got = calibrate_scale(SRS(10, 10), BinaryDomain(10), eps, delta)
    assert want * (1 - 1e-12) <= got <= want * (1 + 2e-9)
    got = calibrate_scale(ExplicitDesign([(0, 1)], [1.0]), FiniteDomain((0, 2.5)), eps, delta)
    assert 2.5 * want * (1 - 1e-12) <= got <= 2.5 * want * (1 + 2e-9)


@pytest.mark.parametrize("b, delta", [(0.2, 1e-3), (1.0, 1e-2), (0.05, 1e-9), (0.5, 0.3)])
def test_epsilon_for_delta_census_laplace(b, delta):
    """Census: the smallest eps with delta(eps) <= delta is 1/b + 2 ln(1 - delta) (when > 0)."""
    want = 1 / b + 2 * math.log1p(-delta)
    assert want > 0
    got = epsilon_for_delta(SRS(10, 10), BinaryDomain(10), b, delta)
    assert want - 1e-12 * max(1.0, want) <= got <= want + 2e-9 * max(1.0, want)


def gaussian_census_sigma(eps, delta):
    """The sigma with analytic_gaussian_delta(eps, 1, sigma) = delta (decreasing in sigma), by bisection in mpmath."""
    with mpmath.workdps(40):
        lo, hi = mpmath.mpf("1e-3"), mpmath.mpf(1)
        while analytic_gaussian_delta(eps, 1, hi) > delta:
            hi *= 2
        for _ in range(200):
            mid = (lo + hi) / 2
            if analytic_gaussian_delta(eps, 1, mid) > delta:
                lo = mid
            else:
                hi = mid
        return float(hi)


@pytest.mark.parametrize("eps, delta", [(0.5, 1e-5), (1.0, 1e-3), (2.0, 0.05)])
def test_calibrate_census_gaussian(eps, delta):
    """Census, Gaussian noise: the root of the analytic Gaussian mechanism (Balle & Wang 2018)."""
    want = gaussian_census_sigma(eps, delta)
    got = calibrate_scale(SRS(10, 10), BinaryDomain(10), eps, delta, noise="gaussian")
    assert want * (1 - 1e-10) <= got <= want * (1 + 2e-9)


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
@pytest.mark.parametrize("eps, delta", [(1.0, 1e-6), (0.3, 1e-3)])
def test_calibrate_srs_meets_target_and_is_smallest(noise, eps, delta):
    """SRS(500, 50): the returned scale meets delta(eps) <= delta, 1e-6 below it does not
    (delta is checked with privacy_profile, the definition of the target)."""
    design, domain = SRS(500, 50), BinaryDomain(500)
    b = calibrate_scale(design, domain, eps, delta, noise=noise)
    assert b > 0
    assert privacy_profile(design, domain, b, eps, noise=noise) <= delta
    assert privacy_profile(design, domain, b * (1 - 1e-6), eps, noise=noise) > delta


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
def test_calibrate_returns_zero_when_no_noise_needed(noise):
    """delta_b <= delta_0 (data processing): a target at or above delta_0 = srs_binary_delta0 needs no
    noise; below delta_0 some noise is needed (delta_b -> delta_0 as b -> 0)."""
    eps = 1.0
    d0 = float(srs_binary_delta0(eps, 100, 10, 0, 100))
    assert 0 < d0 < 1
    assert calibrate_scale(SRS(100, 10), BinaryDomain(100), eps, min(d0 * (1 + 1e-9), 0.5), noise=noise) == 0.0
    assert calibrate_scale(SRS(100, 10), BinaryDomain(100), eps, d0 * (1 - 1e-6), noise=noise) > 0
    # totals in [20, 80], eps = 1 >= ln(21/11) = eps_0 (Result 9): delta_0 = 0, no noise for any delta
    assert float(srs_binary_delta0(eps, 100, 10, 20, 80)) == 0.0
    assert calibrate_scale(SRS(100, 10), BinaryDomain(100, 20, 80), eps, 1e-9, noise=noise) == 0.0


def test_epsilon_for_delta_zero_when_delta0_small():
    """delta(0) <= delta gives eps = 0: census delta(0) = 1 - e^{-1/(2b)}; SRS delta_b(0) <= delta_0(0)."""
    b = 0.7
    d_at_0 = float(laplace_mechanism_delta(0.0, 1.0, b))
    assert epsilon_for_delta(SRS(5, 5), BinaryDomain(5), b, d_at_0 * (1 + 1e-9)) == 0.0
    assert epsilon_for_delta(SRS(5, 5), BinaryDomain(5), b, d_at_0 * (1 - 1e-6)) > 0
    tv0 = float(srs_binary_delta0(0.0, 100, 10, 0, 100))
    for noise in ("laplace", "gaussian"):
        assert epsilon_for_delta(SRS(100, 10), BinaryDomain(100), b, tv0, noise=noise) == 0.0


# =====================================================================================================
# 9. amplification by subsampling
# =====================================================================================================
AMP = [(10, 1), (10, 3), (20, 20), (50, 5), (100, 10), (500, 50), (1000, 10), (60, 30)]


@pytest.mark.parametrize("N, n", AMP)
def test_amplified_scale_is_pure_dp(N, n):
    """Balle, Barthe & Gaboardi (2018), sampling without replacement under substitution: the
    Laplace mechanism on the sample with scale b is eps_0 = (N/n)/b-DP, so the release is
    ln(1 + (n/N)(e^eps_0 - 1))-DP; at b = (N/n)/ln(1 + (e^eps - 1) N/n) that is eps: delta(eps) = 0.
    Hence the exact calibration for any delta > 0 is at most that scale (up to its rtol = 1e-9)."""
    design, domain = SRS(N, n), BinaryDomain(N)
    for eps in (0.1, 1.0, 3.0):
        b = amplified_laplace_scale(design, domain, eps)
        assert privacy_profile(design, domain, b, eps) <= 1e-12
    b = amplified_laplace_scale(design, domain, 1.0)
    for delta in (2e-9, 1e-4, 5e-3):
        assert calibrate_scale(design, domain, 1.0, delta) <= b * (1 + 1e-9)


@pytest.mark.parametrize("N, p", [(10, 0.1), (100, 0.05), (400, 0.3)])
def test_amplified_scale_bernoulli_is_pure_dp(N, p):
    """Bernoulli(p) on binary data: with g the law of the other units' estimate plus noise and
    h = g shifted by 1/p, the two laws are g and (1 - p) g + p h with h/g in [e^-eps_0, e^eps_0],
    eps_0 = (1/p)/b.  Their ratio lies within 1 + p(e^eps_0 - 1) and 1/(1 - p(1 - e^-eps_0)) <=
    1 + p(e^eps_0 - 1) (the product minus 1 is p(1 - p)(e^eps_0 - 1)^2 e^-eps_0 >= 0): pure eps-DP at
    the amplified scale."""
    design, domain = Bernoulli(N, p), BinaryDomain(N)
    for eps in (0.1, 1.0, 3.0):
        b = amplified_laplace_scale(design, domain, eps)
        assert privacy_profile(design, domain, b, eps) <= 1e-12


def _mp_generic_scale(q, eps):
    """h / ln(1 + (e^eps - 1)/q), h = 1/q, at 50 digits (q an exact Fraction): the scale from which
    the release is pure eps-DP (amplification by subsampling, claim profile.amplification.generic_scale)."""
    with mpmath.workdps(50):
        qq = mpmath.mpf(q.numerator) / q.denominator
        return 1 / qq / mpmath.log(1 + mpmath.expm1(eps) / qq)


@pytest.mark.parametrize("design, q", [(SRS(1000, 50), F(50, 1000)), (Bernoulli(1000, 0.05), F(0.05)),
                                       (SRS(100, 10), F(1, 10))])
@pytest.mark.parametrize("target", [1e-15, 1e-30])
def test_calibrate_tiny_delta_returns_the_pure_scale(design, q, target):
    """A target at or below the rounding bound of the computation (~1e-16..1e-15): the exact delta is
    0 from the generic scale b_g on (reference: b_g from its formula in mpmath at 50 digits), so
    the answer is at most b_g (within the rounding of the certification: a few ulps) and, being
    certified pure, not below it (the amplified epsilon is decreasing in b: eps >= ln(1 + q(e^{h/b} - 1))
    iff b >= b_g); at that scale the worst pair and the profile are exactly 0.  It used to return a scale
    2% above b_g whose printed worst-pair delta (3.1e-15) exceeded the target."""
    eps = 1.0
    domain = BinaryDomain(design.N)
    b = calibrate_scale(design, domain, eps, target)
    bg = _mp_generic_scale(q, eps)
    assert bg <= b <= bg * (1 + 1e-15), (b, float(bg))
    assert worst_pair(design, domain, b, eps).delta == 0.0
    assert privacy_profile(design, domain, b, eps) == 0.0


def test_calibrate_tiny_delta_explicit_design_and_gaussian():
    """Explicit design (a census of 2 units, values in {0, 2.5}), Laplace noise: delta(eps) =
    max(0, 1 - e^{(eps - 2.5/b)/2}) (htm.census.delta), 0 from b = 2.5/eps on and, at eps = 1, above 1e-30
    for b < 2.5 (1 - 1e-28) (by hand: 1 - e^{-x} >= x/2 for small x).  So a target of 1e-30, below the
    rounding bound, is met at b = 2.5 instead of being refused.  Gaussian noise has no pure region: the
    same target cannot be certified and is refused naming delta."""
    design, domain = ExplicitDesign([(0, 1)], [1.0]), FiniteDomain((0, 2.5))
    b = calibrate_scale(design, domain, 1.0, 1e-30)
    assert 2.5 * (1 - 1e-15) <= b <= 2.5
    assert privacy_profile(design, domain, b, 1.0) == 0.0 and worst_pair(design, domain, b, 1.0).delta == 0.0
    with pytest.raises(ValueError, match=r"^delta\b"):
        calibrate_scale(design, domain, 1.0, 1e-30, noise="gaussian")


@pytest.mark.parametrize("N, p, b", [(1000, 0.05, 5.0), (100, 0.3, 0.8), (10, 0.1, 20.0)])
def test_bernoulli_profile_is_exactly_zero_in_the_pure_region(N, p, b):
    """Bernoulli(p) on binary data, Laplace(b): the two laws of a pair are g and (1 - p) g + p g_h,
    so the privacy loss is at most eps_p = ln(1 + p(e^{h/b} - 1)), h = 1/p (amplification,
    profile.amplification.generic_scale; reference value in mpmath at 50 digits): delta(eps) = 0 exactly
    for eps >= eps_p, as on the SRS path; it used to return the rounding bound 9.4e-17.  Just below eps_p
    the worst pair (t = 0: the atoms 0 and 1/p with probabilities 1 - p, p against the atom 0) has a
    positive delta, from the brute force (exact atoms, mpmath): the zero region starts at eps_p."""
    with mpmath.workdps(50):
        pp = mpmath.mpf(F(p).numerator) / F(p).denominator
        eps_p = float(mpmath.log(1 + pp * mpmath.expm1(1 / (pp * b))))
    design, domain = Bernoulli(N, p), BinaryDomain(N)
    above = [eps_p * (1 + 1e-9), eps_p * 1.01, 2 * eps_p, eps_p + 5]
    assert privacy_profile(design, domain, b, above).tolist() == [0.0] * len(above)
    assert worst_pair(design, domain, b, above[0]).delta == 0.0
    below = eps_p * (1 - 1e-6)
    ref = max(float(delta_bruteforce([(), (0,)], [1 - p, p], x, xp, below, b)) for x, xp in [((0,), (1,)), ((1,), (0,))])
    assert ref > 0
    assert float(privacy_profile(design, domain, b, below)) >= ref


# =====================================================================================================
# 10. bad input
# =====================================================================================================
S10, D10 = SRS(10, 3), BinaryDomain(10)

BAD = [
    (lambda: privacy_profile(S10, D10, 0.0, 1.0), "b"),
    (lambda: privacy_profile(S10, D10, -1.0, 1.0), "b"),
    (lambda: privacy_profile(S10, D10, float("nan"), 1.0), "b"),
    (lambda: privacy_profile(S10, D10, float("inf"), 1.0), "b"),
    (lambda: worst_pair(S10, D10, 0.0, 1.0), "b"),
    (lambda: epsilon_for_delta(S10, D10, -2.0, 0.1), "b"),
    (lambda: privacy_profile(S10, D10, 1.0, -0.1), "epsilons"),
    (lambda: privacy_profile(S10, D10, 1.0, [0.5, -1e-9]), "epsilons"),
    (lambda: worst_pair(S10, D10, 1.0, -1.0), "epsilon"),
    (lambda: calibrate_scale(S10, D10, -0.5, 0.1), "epsilon"),
    (lambda: SRS(5, 6), "n"),
    (lambda: BinaryDomain(10, 6, 4), "M_t"),
    (lambda: BinaryDomain(10, 4, 4), "M_t"),
    (lambda: calibrate_scale(S10, D10, 1.0, 0.0), "delta"),
    (lambda: calibrate_scale(S10, D10, 1.0, 1.0), "delta"),
    (lambda: epsilon_for_delta(S10, D10, 1.0, -0.1), "delta"),
    (lambda: epsilon_for_delta(S10, D10, 1.0, 1.5), "delta"),
    (lambda: privacy_profile(S10, D10, 1.0, 1.0, noise="cauchy"), "noise"),
    (lambda: calibrate_scale(S10, D10, 1.0, 0.1, noise="Laplace"), "noise"),
    (lambda: privacy_profile(S10, BinaryDomain(11), 1.0, 1.0), "domain"),
    (lambda: worst_pair(Bernoulli(10, 0.2), BinaryDomain(9), 1.0, 1.0), "domain"),
    (lambda: Bernoulli(10, 0.0), "p"),
    (lambda: Bernoulli(10, 1.0), "p"),
    (lambda: Bernoulli(10, 1.2), "p"),
    (lambda: ExplicitDesign([(0,), (1,)], [0.5, 0.6]), "probabilities"),
    (lambda: ExplicitDesign([(0,), (1,)], [0.5, 0.5 - 1e-9]), "probabilities"),
    (lambda: ExplicitDesign([(0,), (1,)], [1.0, 0.0]), "probabilities"),      # unit 1: pi = 0
    (lambda: ExplicitDesign([(0,), (1,)], [0.5, 0.5], N=3), "samples"),      # unit 2 in no sample
    (lambda: FiniteDomain((1.0,)), "values"),
    (lambda: FiniteDomain((2, 2.0)), "values"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_input(k):
    call, name = BAD[k]
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


@pytest.mark.parametrize("N, n, eps", [(100, 10, 1.0), (10_000, 500, 0.1), (10**6, 10**4, 3.0), (50, 50, 0.5)])
def test_amplified_scale_matches_generated_formula(N, n, eps):
    """The public function (log1p/expm1) against the kernel generated from the claim's expression
    (``profile.amplification.generic_scale``) and mpmath at 30 digits."""
    from numeric import _generated
    got = amplified_laplace_scale(SRS(N, n), BinaryDomain(N), eps)
    with mpmath.workdps(30):
        ref = mpmath.mpf(N) / n / mpmath.log(1 + mpmath.expm1(eps) * N / n)
    assert got == pytest.approx(float(ref), rel=1e-14)
    assert float(_generated.amplified_laplace_scale(eps, N / n, n / N)) == pytest.approx(float(ref), rel=1e-12)
