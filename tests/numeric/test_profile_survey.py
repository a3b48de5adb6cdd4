"""Stratified and Poisson designs and bounded values in numeric.profile, against independent references.

Code under test: the package numeric/profile/ (Stratified, Poisson, IntervalDomain, Scale and the
one-unit reductions of search/__init__.py and search/one_unit.py, their calibration in calibration.py).

References (none reuses that code):
* brute force: ``numeric.delta_bruteforce`` (every sample of the whole population enumerated,
  exact Fraction atoms, closed form in mpmath at 50 digits; tested on its own in
  test_bruteforce.py) over every ordered neighbouring pair, the samples of the stratified or
  Poisson design and the pairs enumerated here with itertools;
* ``one_unit_quad``: the one-unit mechanism y s/pi + noise integrated here with mpmath.quad at
  30 digits, the integrand max(f - e^eps f', 0) with the two densities summed directly and the
  line split at the atoms and at the sign changes (found by bisection in mpmath);
* the per-stratum calibrations of the existing exact search of one design (numeric.calibrate_scale
  on SRS or Bernoulli with a BinaryDomain: the branch and bound of profile/search/binary.py, which shares no
  code with the one-unit closed forms), and its privacy profile at the stratified scale.
Tolerances: 1e-9 relative against mpmath (computed integrals); brute force agrees to 1e-12 absolute
plus the certified rounding bound; scales to the calibration's rtol (1e-9).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from numeric import (SRS, Bernoulli, BinaryDomain, IntervalDomain, Poisson, Stratified, calibrate_scale,
                     delta_bruteforce, epsilon_for_delta, privacy_profile, worst_pair)
from numeric._common import ParameterError


# -- enumerated designs of the whole population ----------------------------------------------------
def srs_samples(units, n):
    return [(tuple(s), F(1, math.comb(len(units), n))) for s in itertools.combinations(units, n)]


def bernoulli_samples(units, p):
    out = []
    for bits in itertools.product((0, 1), repeat=len(units)):
        s = tuple(u for u, k in zip(units, bits) if k)
        out.append((s, F(p) ** len(s) * (1 - F(p)) ** (len(units) - len(s))))
    return out


def stratified_samples(strata):
    """Every sample of independent designs in consecutive blocks of units: [("srs", N, n) | ("bern", N, p)]."""
    start, blocks = 0, []
    for kind, N, par in strata:
        units = list(range(start, start + N))
        blocks.append(srs_samples(units, par) if kind == "srs" else bernoulli_samples(units, par))
        start += N
    samples, probs = [], []
    for combo in itertools.product(*blocks):
        samples.append(tuple(u for s, _ in combo for u in s))
        probs.append(math.prod((p for _, p in combo), start=F(1)))
    return samples, probs, start


def poisson_samples(pi):
    samples, probs = [], []
    for bits in itertools.product((0, 1), repeat=len(pi)):
        samples.append(tuple(j for j, k in enumerate(bits) if k))
        probs.append(math.prod((F(p) if k else 1 - F(p) for p, k in zip(pi, bits)), start=F(1)))
    return samples, probs


def neighbour_pairs(N, values):
    for x in itertools.product(values, repeat=N):
        for i in range(N):
            for v in values:
                if v != x[i]:
                    yield x, x[:i] + (v,) + x[i + 1:]


def brute_sup(samples, probs, N, values, eps, b):
    """max over every ordered neighbouring pair of values^N (pairs with the same pair of laws once)."""
    seen, best = set(), 0.0
    for x, xp in neighbour_pairs(N, values):
        key = (x, xp)
        if key in seen:
            continue
        seen.add(key)
        best = max(best, float(delta_bruteforce(samples, [float(p) for p in probs], x, xp, eps, b)))
    return best


def as_float_probs(probs):
    return [float(p) for p in probs]


# -- stratified ---------------------------------------------------------------------------------------
STRATA = [
    ([("srs", 3, 1), ("srs", 2, 1)], lambda: Stratified([SRS(3, 1), SRS(2, 1)])),
    ([("srs", 3, 2), ("bern", 2, F(1, 2))], lambda: Stratified([SRS(3, 2), Bernoulli(2, 0.5)])),
    ([("bern", 2, F(1, 4)), ("srs", 2, 2)], lambda: Stratified([Bernoulli(2, 0.25), SRS(2, 2)])),
]


@pytest.mark.parametrize("k", range(len(STRATA)))
@pytest.mark.parametrize("eps, b", [(0.3, 0.8), (1.0, 2.0), (0.0, 1.5)])
def test_stratified_binary_equals_brute_force(k, eps, b):
    """Every stratum total free in [0, N_h]: the profile is exact (the other strata may be all 0), equal
    to the supremum over every pair of {0,1}^N of the enumerated stratified design."""
    spec, make = STRATA[k]
    samples, probs, N = stratified_samples(spec)
    ref = brute_sup(samples, probs, N, (0, 1), eps, b)
    design = make()
    got = float(privacy_profile(design, BinaryDomain(N), b, eps))
    wp = worst_pair(design, BinaryDomain(N), b, eps)
    assert wp.exact and wp.delta == got
    assert ref - 1e-12 <= got <= ref + 1e-12


@pytest.mark.parametrize("strata, eps, delta, noise", [
    ([SRS(1000, 50), SRS(500, 100), Bernoulli(300, 0.1)], 1.0, 1e-6, "laplace"),
    ([SRS(20_000, 400), SRS(10, 10), SRS(777, 3)], 0.5, 1e-3, "laplace"),
    ([SRS(5000, 250), Bernoulli(80, 0.3)], 1.0, 1e-5, "gaussian"),
])
def test_stratified_scale_is_the_largest_per_stratum_scale(strata, eps, delta, noise):
    """The stratified scale against the strata's own calibrations by the exact search of one design:
    within the calibration's rtol of their maximum, and at that scale every stratum's exact profile
    (computed by the search) meets the target: never below what a stratum needs."""
    design = Stratified(strata)
    b = calibrate_scale(design, BinaryDomain(design.N), eps, delta, noise=noise)
    per = [float(calibrate_scale(d, BinaryDomain(d.N), eps, delta, noise=noise)) for d in strata]
    assert b.exact and b.stratum == int(np.argmax(per))
    assert max(per) / (1 + 2e-9) <= float(b) <= max(per) * (1 + 2e-9)
    for d in strata:
        assert privacy_profile(d, BinaryDomain(d.N), float(b), eps, noise=noise) <= delta
    assert b.lower <= float(b)


def test_stratified_constrained_domain_is_an_upper_value():
    """A stratum whose total is known to lie in [5, N - 5] cannot be constant: the scale is the largest
    per-stratum scale, said to be an upper value; the lower value comes from the strata whose pair is a
    pair of the population (the others may be constant)."""
    design = Stratified([SRS(1000, 50), Bernoulli(300, 0.1)])
    dom = [BinaryDomain(1000, 5, 995), IntervalDomain(0, 3)]
    b = calibrate_scale(design, dom, 1.0, 1e-6)
    b0 = calibrate_scale(SRS(1000, 50), BinaryDomain(1000, 5, 995), 1.0, 1e-6)
    b1 = 3 * calibrate_scale(Bernoulli(300, 0.1), BinaryDomain(300), 1.0, 1e-6)   # values in {0, 3}
    assert not b.exact and "upper value" in b.note
    assert float(b) >= max(b0, b1) / (1 + 2e-9)
    assert float(b) <= max(b0, b1) * (1 + 2e-9)
    # stratum 1's pair (others 0) is not a population pair: stratum 0 cannot be constant
    assert b.lower == pytest.approx(float(b0), rel=2e-9)


# -- Poisson ----------------------------------------------------------------------------------------
def one_unit_quad(pi, y, yp, eps, b, noise="laplace"):
    """int (f_y - e^eps f_y')_+ of the one-unit mechanism y s/pi + noise, mpmath.quad at 30 digits."""
    mp = mpmath.mp
    with mpmath.workdps(30):
        pi, y, yp, eps, b = (mp.mpf(F(v).numerator) / F(v).denominator if not isinstance(v, mpmath.mpf) else v
                             for v in (pi, y, yp, eps, b))
        if noise == "laplace":
            def K(z):
                return mp.exp(-abs(z) / b) / (2 * b)
        else:
            def K(z):
                return mp.npdf(z, 0, b)
        c = mp.exp(eps)

        def D(z):
            return ((1 - pi) * K(z) + pi * K(z - y / pi)) - c * ((1 - pi) * K(z) + pi * K(z - yp / pi))

        atoms = sorted({mp.mpf(0), y / pi, yp / pi})
        span = 60 * b
        grid = [atoms[0] - span] + atoms + [atoms[-1] + span]
        pts = []
        for lo, hi in zip(grid[:-1], grid[1:]):
            xs = [lo + (hi - lo) * k / 64 for k in range(65)]
            pts += xs            # every grid point is a breakpoint (a root may sit on one)
            for a, z in zip(xs[:-1], xs[1:]):
                if D(a) * D(z) < 0:
                    pts.append(mp.findroot(D, (a, z), solver="bisect"))
        pts.append(grid[-1])
        pts = sorted(set(pts))
        total = mp.quad(lambda z: max(D(z), 0), pts)
        # the tails beyond 60 b (Laplace: below e^-60 of the mass; Gaussian: nothing representable)
        return float(total)


@pytest.mark.parametrize("pi, eps, b", [(0.05, 1.0, 15.0), (0.5, 0.2, 1.0), (0.3, 2.0, 0.5), (1.0, 0.5, 1.0),
                                        (0.01, 0.7, 200.0)])
@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
def test_poisson_one_unit_against_quadrature(pi, eps, b, noise):
    """One unit of each probability (the others may be 0: exact): the profile is the larger of the two
    orders of the one-unit pair (0, 1), computed here by quadrature."""
    ref = max(one_unit_quad(pi, 1, 0, eps, b, noise), one_unit_quad(pi, 0, 1, eps, b, noise))
    got = float(privacy_profile(Poisson([pi]), BinaryDomain(1), b, eps, noise=noise))
    assert got >= ref * (1 - 1e-9) - 1e-15
    # abs: the certified rounding bound added to the upper value (about 1e-17 per atom for Laplace; for
    # Gaussian noise the bound of the Phi terms, 64 ulps each plus their arguments': a few 1e-14)
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-14 if noise == "laplace" else 1e-13)


@pytest.mark.parametrize("pi", [(0.2, 0.5, 0.5), (0.1, 0.9, 1.0), (0.3, 0.6)])
@pytest.mark.parametrize("eps, b", [(0.5, 1.0), (1.0, 4.0)])
def test_poisson_population_equals_brute_force(pi, eps, b):
    """The maximum over units of the one-unit mechanism equals the supremum over every pair of binary
    populations of the enumerated Poisson design (every sample listed)."""
    samples, probs = poisson_samples([F(p).limit_denominator(100) for p in pi])
    ref = brute_sup(samples, probs, len(pi), (0, 1), eps, b)
    got = float(privacy_profile(Poisson(list(pi)), BinaryDomain(len(pi)), b, eps))
    assert ref - 1e-12 <= got <= ref + 1e-12


def test_poisson_calibration_meets_the_target_by_quadrature():
    pi = [0.05, 0.05, 0.2, 0.7]
    b = calibrate_scale(Poisson(pi), BinaryDomain(4), 1.0, 1e-4)
    assert b.exact
    worst = max(max(one_unit_quad(p, 1, 0, 1.0, float(b)), one_unit_quad(p, 0, 1, 1.0, float(b))) for p in set(pi))
    assert worst <= 1e-4
    below = max(max(one_unit_quad(p, 1, 0, 1.0, float(b) * (1 - 1e-7)),
                    one_unit_quad(p, 0, 1, 1.0, float(b) * (1 - 1e-7))) for p in set(pi))
    assert below > 1e-4            # the smallest such scale (to 1e-7)


# -- bounded values ---------------------------------------------------------------------------------
GRID = (0.0, 1.0, 2.5, 4.0)          # values in [a, b] = [0, 4]: a sub-domain of the interval
GRID_NEG = (-1.0, 0.0, 1.5, 2.0)     # [a, b] = [-1, 2]


@pytest.mark.parametrize("make, samples", [
    (lambda: SRS(3, 1), lambda: stratified_samples([("srs", 3, 1)])[:2]),
    (lambda: SRS(3, 2), lambda: stratified_samples([("srs", 3, 2)])[:2]),
    (lambda: Bernoulli(2, 0.4), lambda: stratified_samples([("bern", 2, F(2, 5))])[:2]),
    (lambda: Poisson([0.3, 0.8]), lambda: poisson_samples([F(3, 10), F(4, 5)])),
])
@pytest.mark.parametrize("values", [GRID, GRID_NEG])
@pytest.mark.parametrize("eps, b", [(0.5, 2.0), (1.0, 6.0)])
def test_interval_bounds_enclose_the_enumerated_grid(make, samples, values, eps, b):
    """lower <= sup over a grid of values in [a, b] (every population enumerated) <= upper: the grid is a
    sub-domain of the interval holding the endpoints (and 0), so its supremum lies between the binary
    pair's value and the generic route's."""
    design = make()
    s, p = samples()
    N = design.N
    ref = brute_sup(s, p, N, values, eps, b)
    dom = IntervalDomain(min(values), max(values))
    wp = worst_pair(design, dom, b, eps)
    assert wp.delta_lower <= ref + 1e-12
    assert ref <= wp.delta + 1e-12
    assert wp.exact       # 0 in [a, b]: the bounds agree (SRS: the every-a / one-b pair; Poisson: the extremes)


@pytest.mark.parametrize("make, samples", [
    (lambda: Bernoulli(2, 0.4), lambda: stratified_samples([("bern", 2, F(2, 5))])[:2]),
    (lambda: Poisson([0.3, 0.8]), lambda: poisson_samples([F(3, 10), F(4, 5)])),
])
def test_interval_without_zero_under_poisson_is_an_upper_value(make, samples):
    """Values in [1, 3]: the other units cannot be 0, so the one-unit bound is only an upper value (no
    lower value is claimed), and it is above the supremum over the enumerated grid {1, 2, 3}."""
    design = make()
    s, p = samples()
    ref = brute_sup(s, p, design.N, (1.0, 2.0, 3.0), 0.5, 2.0)
    wp = worst_pair(design, IntervalDomain(1.0, 3.0), 2.0, 0.5)
    assert not wp.exact and wp.delta_lower is None
    assert ref <= wp.delta + 1e-12
    b = calibrate_scale(design, IntervalDomain(1.0, 3.0), 0.5, 1e-3)
    assert not b.exact and "upper value" in b.note


def test_interval_srs_scale_is_the_binary_scale_times_the_width():
    """Under SRS the values {a, b} are the binary problem scaled by b - a (claim htm.bounded.binary_pair):
    the interval's scale is (b - a) times the exact binary scale of the search, and exact."""
    b = calibrate_scale(SRS(2000, 100), IntervalDomain(10.0, 35.0), 1.0, 1e-6)
    ref = 25.0 * calibrate_scale(SRS(2000, 100), BinaryDomain(2000), 1.0, 1e-6)
    assert b.exact and float(b) == pytest.approx(ref, rel=2e-9)


def test_epsilon_for_delta_stratified_inverts_calibration():
    design = Stratified([SRS(400, 40), Bernoulli(100, 0.2)])
    b = calibrate_scale(design, BinaryDomain(500), 0.8, 1e-5)
    e = epsilon_for_delta(design, BinaryDomain(500), float(b), 1e-5)
    assert e == pytest.approx(0.8, rel=1e-6) and e <= 0.8 * (1 + 1e-6)
    assert privacy_profile(design, BinaryDomain(500), float(b), e) <= 1e-5


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, param", [
    (lambda: Stratified([]), "strata"),
    (lambda: Stratified([SRS(3, 1), "x"]), "strata"),
    (lambda: Poisson([0.0, 0.5]), "pi"),
    (lambda: Poisson([0.5, 1.5]), "pi"),
    (lambda: Poisson([0.5, float("nan")]), "pi"),
    (lambda: IntervalDomain(2.0, 1.0), "b"),
    (lambda: IntervalDomain(float("inf"), 1.0), "a"),
    (lambda: calibrate_scale(Stratified([SRS(3, 1), SRS(2, 1)]), [BinaryDomain(3)], 1.0, 0.1), "domain"),
    (lambda: calibrate_scale(Stratified([SRS(3, 1), SRS(2, 1)]), [BinaryDomain(3), BinaryDomain(3)], 1.0, 0.1),
     "domain"),
    (lambda: privacy_profile(Poisson([0.5, 0.5]), BinaryDomain(3), 1.0, 1.0), "domain"),
])
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ParameterError) as exc:
        call()
    assert exc.value.param == param


def test_one_unit_scale_equals_the_exact_search_on_random_designs():
    """Evidence for the exactness of the SRS reduction on binary data with every total possible: the
    closed form of the one-unit pair (the table's path) against the exact branch-and-bound search of
    one design, 16 seeded random designs and targets; the table's scale is checked to meet the target by
    the search's own profile."""
    from numeric.profile.search.one_unit import Components

    rng = np.random.default_rng(27)
    for _ in range(16):
        N = int(10 ** rng.uniform(1, 3.3))      # the search's windows grow with n: kept small here
        n = int(rng.integers(1, N + 1))
        eps = float(rng.choice([0.1, 0.5, 1.0, 3.0]))
        delta = float(rng.choice([1e-9, 1e-6, 1e-3]))
        noise = str(rng.choice(["laplace", "gaussian"]))
        search = float(calibrate_scale(SRS(N, n), BinaryDomain(N), eps, delta, noise=noise))
        mine = float(Components([n / N], [0.0], [1.0], [0], [True]).calibrate(eps, delta, noise)[0][0])
        # never below (both are upper ends of brackets of width 1e-9); above by at most the brackets plus
        # what the wider rounding bound of the closed form costs: it carries q = n/N rounded to a double
        # (weights within 16 ulps: about 4e-15 of delta), the search's pmf is exact in long double
        assert search / (1 + 2e-9) <= mine <= search * (1 + 2e-9 + 4e-15 / delta), (N, n, eps, delta, noise)
        if mine > 0:
            assert privacy_profile(SRS(N, n), BinaryDomain(N), mine, eps, noise=noise) <= delta
