"""Tests of numeric.quantile_mechanisms (001_1dd3d7af6edcb71d.txt, Section 3; Smith 2011; Gillenwater,
Joseph and Kulesza 2021; Durfee 2023).

Independent references, named in each test: brute force of len over every replaced dataset (exact
integers, Definition 3.1.0.1 taken literally); mpmath at 40 digits of the normalised weights from those
brute-force lengths or from counts made by Python loops; enumeration of every interval tuple of JointExp
with its density evaluated from the definition (counts of data in [o_{j-1}, o_j)) and its volume;
mpmath.quad of the AboveThreshold integrals split at every kink; seeded Monte Carlo within 5 standard
errors for the samplers."""
from __future__ import annotations

import doctest
import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

import numeric
import numeric.quantile_mechanisms as qm
from numeric import (exponential_quantile_pmf, inverse_sensitivity_loss, inverse_sensitivity_pmf,
                     joint_exp_quantiles, unbounded_quantile, unbounded_quantile_pmf)

MPMATH_DPS = 40      # every test of this module (tests/conftest.py)


# == independent references =====================================================================================
def order_stat(x, r):
    return sorted(x)[r - 1]


def r_of(q, n):
    """r = max(1, ceil(q n)) with q read as its decimal string (Fraction arithmetic)."""
    return max(1, math.ceil(Fraction(str(q)) * n))


def brute_lengths(x, grid, q, universe):
    """len(x, t) for t in grid: the fewest entries of x to replace, by values of ``universe``, so that the
    r-th order statistic equals t (every dataset of universe^n tried; inf if none has that quantile)."""
    n = len(x)
    r = r_of(q, n)
    best = {t: math.inf for t in grid}
    for other in itertools.product(universe, repeat=n):
        t = order_stat(other, r)
        if t in best:
            d = sum(a != b for a, b in zip(x, other))
            best[t] = min(best[t], d)
    return [best[t] for t in grid]


def smooth(lengths, grid, rho):
    """Definition 3.1.0.3 literally: min over grid points s with |s - t| <= rho (exact Fractions)."""
    g = [Fraction(v) for v in grid]
    r = Fraction(rho) if rho != math.inf else None
    return [min(l for s, l in zip(g, lengths) if r is None or abs(s - t) <= r) for t in g]


def mp_law(weights_log):
    """Normalised exp of mpmath log-weights (-inf allowed)."""
    w = [mp.e**v if v != -mp.inf else mp.mpf(0) for v in weights_log]
    z = mp.fsum(w)
    return [v / z for v in w]


def mp_isens(lengths, eps):
    return mp_law([-mp.mpf(l) * mp.mpf(eps) / 2 if l != math.inf else -mp.inf for l in lengths])


def mp_loss(p, p2):
    out = mp.mpf(0)
    for a, b in zip(p, p2):
        if a == 0 and b == 0:
            continue
        if a == 0 or b == 0:
            return mp.inf
        out = max(out, abs(mp.log(a) - mp.log(b)))
    return out


def neighbours(universe, n):
    """Every ordered pair (x, x') of datasets of universe^n differing in exactly one entry."""
    for x in itertools.product(universe, repeat=n):
        for i in range(n):
            for v in universe:
                if v != x[i]:
                    yield x, x[:i] + (v,) + x[i + 1:]


def mp_exp_mech(x, grid, eps, q):
    """Exponential mechanism from counts made by a Python loop: weights exp(-eps |#{x < t} - q n| / 2)."""
    n = len(x)
    return mp_law([-mp.mpf(eps) / 2 * abs(sum(1 for v in x if v < t) - mp.mpf(q) * n) for t in grid])


# == the inverse-sensitivity mechanism (Section 3.1) ================================================================
U4 = (0.0, 1.0, 2.0, 3.0)
GRID4 = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0)


@pytest.mark.parametrize("q", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_length_closed_form_against_every_replaced_dataset(q):
    """Reference: brute force over every dataset of U^n (U = {0, 1, 2, 3}, n <= 4) for the finite universe,
    and over (U + grid)^n for the real line (a replaced entry never needs a value outside the grid and the
    data to reach a grid point).  Definition 3.1.0.1 of the report, exact integers."""
    checked = 0
    for n in range(1, 5):
        for x in itertools.product(U4, repeat=n):
            got = qm._smooth_lengths(np.array(x), np.array(GRID4), 0.0, q, np.array(U4))
            assert list(got) == brute_lengths(x, GRID4, q, U4), x
            checked += 1
    for n in range(1, 4):
        for x in itertools.product(U4, repeat=n):
            got = qm._smooth_lengths(np.array(x), np.array(GRID4), 0.0, q, None)
            assert list(got) == brute_lengths(x, GRID4, q, sorted(set(U4 + GRID4))), x
    assert checked == 4 + 16 + 64 + 256


def test_length_negative_control_off_by_one():
    """Negative control: the closed form without the +1 on the left side (len = max(0, #{x < t} - r,
    r - #{x <= t})) disagrees with the brute force: the test above can fail."""
    x, grid = (0.0, 1.0, 2.0), (0.0, 1.0, 2.0, 3.0)
    xs = np.sort(np.array(x))
    below = np.searchsorted(xs, grid, side="left")
    upto = np.searchsorted(xs, grid, side="right")
    r = 2
    wrong = np.maximum(0, np.maximum(below - r, r - upto))
    assert list(wrong) != brute_lengths(x, grid, 0.5, U4)
    assert list(qm._lengths(xs, np.array(grid), r)) == brute_lengths(x, grid, 0.5, U4)


@pytest.mark.parametrize("rho", [0.5, 1.0, 1.5, 10.0, math.inf])
def test_smooth_length_against_definition(rho):
    """Reference: Definition 3.1.0.3 taken literally (min over the grid points within rho, exact Fractions)
    of the brute-force lengths; grid points outside the universe have len = inf."""
    for n in range(1, 4):
        for x in itertools.product(U4, repeat=n):
            for q, universe in ((0.5, U4), (0.75, U4), (0.5, None)):
                uni = U4 if universe is not None else sorted(set(U4 + GRID4))
                ref = smooth(brute_lengths(x, GRID4, q, uni), GRID4, rho)
                got = qm._smooth_lengths(np.array(x), np.array(GRID4), rho, q,
                                         None if universe is None else np.array(universe))
                assert list(got) == ref, (x, q, universe)


def test_pmf_against_mpmath():
    """Reference: mpmath (40 digits) of exp(-len^rho eps/2) normalised, len^rho from the brute force;
    relative 1e-13 (ln P absolute 1e-13)."""
    for x, q, rho, eps, universe in [((0.0, 3.0, 3.0, 1.0), 0.5, 0.0, 0.7, U4), ((2.0, 2.0, 0.0), 0.25, 1.0, 3.0, U4),
                                     ((1.0, 3.0), 1.0, 0.5, 0.01, None), ((0.0, 0.0, 1.0, 3.0), 0.75, 1.5, 20.0, U4)]:
        uni = U4 if universe is not None else sorted(set(U4 + GRID4))
        ref = mp_isens(smooth(brute_lengths(x, GRID4, q, uni), GRID4, rho), eps)
        got = inverse_sensitivity_pmf(x, GRID4, eps, rho=rho, q=q, universe=universe)
        lgot = inverse_sensitivity_pmf(x, GRID4, eps, rho=rho, q=q, universe=universe, log=True)
        for g, lg, r in zip(got, lgot, ref):
            if r == 0:
                assert g == 0 and lg == -np.inf
            else:
                assert g == pytest.approx(float(r), rel=1e-13)
                assert lg == pytest.approx(float(mp.log(r)), abs=1e-13)


def test_large_n_in_log_space():
    """Reference: a different route to len at a few grid points (bisect on a sorted Python list) and the
    exact log-ratio ln P(t) - ln P(t') = -(len(t) - len(t')) eps/2; n = 10^6, eps = 1, where the weights
    e^{-len/2} underflow (len up to 5e5)."""
    import bisect

    rng = np.random.default_rng(11)
    x = rng.random(10**6)
    grid = np.linspace(0.0, 1.0, 1001)
    lp = inverse_sensitivity_pmf(x, grid, 1.0, log=True)
    assert np.all(np.isfinite(lp)) and math.fsum(np.exp(lp)) == pytest.approx(1.0, rel=1e-12)
    xs = sorted(x.tolist())
    r = 500000

    def length(t):
        below, upto = bisect.bisect_left(xs, t), bisect.bisect_right(xs, t)
        return max(0, below - r + 1, r - upto)
    ks = [0, 1, 250, 499, 500, 501, 900, 1000]
    for k in ks:
        assert lp[k] - lp[500] == pytest.approx(-(length(grid[k]) - length(grid[500])) * 0.5, abs=1e-9)
    assert lp[0] < -2e5                                  # e^{-len/2} with len ~ r: far below the float range


def test_quantile_index_reads_q_as_a_decimal():
    """Reference: Fraction of the decimal string (q = 0.9, n = 10: r = 9).  Negative control: the exact
    binary value of the float 0.9 (slightly above 9/10) would give r = 10."""
    assert qm.order_index(0.9, 10) == 9 and qm.order_index(0.7, 10) == 7 and qm.order_index(0.5, 3) == 2
    assert qm.order_index(0.0, 5) == 1 and qm.order_index(1.0, 5) == 5 and qm.order_index(0.34, 3) == 2
    assert math.ceil(Fraction(0.9) * 10) == 10
    for q in (0.1, 0.2, 0.3, 0.45, 0.6, 0.7, 0.8, 0.9):
        for n in (7, 10, 100, 1000):
            assert qm.order_index(q, n) == r_of(q, n)


U3 = (0.0, 1.0, 2.0)
GRID3 = (0.0, 0.5, 1.0, 1.5, 2.0)


def _isens_dp_sweep(eps_mech, rho, q, universe=U3, grid=GRID3, nmax=4):
    """Largest exact loss (mpmath, from brute-force lengths) over every neighbour pair, and the pair."""
    worst, arg = mp.mpf(0), None
    cache = {}
    for n in range(1, nmax + 1):
        for x, y in neighbours(universe, n):
            for z in (x, y):
                if z not in cache:
                    cache[z] = mp_isens(smooth(brute_lengths(z, grid, q, universe), grid, rho), eps_mech)
            loss = mp_loss(cache[x], cache[y])
            if loss > worst:
                worst, arg = loss, (x, y)
    return worst, arg


@pytest.mark.parametrize("rho", [0.0, 0.5, 1.0])
def test_inverse_sensitivity_is_eps_dp_exactly(rho):
    """Theorem 3.1.0.1 checked exactly: every pair of neighbours (one entry replaced) over U = {0, 1, 2},
    n <= 4, grid {0, 1/2, 1, 3/2, 2} (1/2 and 3/2 unreachable: len = inf, probability 0), q = 1/2 and 3/4,
    eps = 1.  Reference: mpmath (40 digits) from brute-force lengths.  The bound eps is NOT attained here:
    the largest loss is 1/2 + ln((1 + 2e^{-1/2})/(1 + e^{-1/2} + e^{-1})) = 0.614 eps (rho = 0, at
    x = (0, 1) -> (2, 1)), 0.663 eps (rho = 1/2) and eps/2 (rho = 1, n = 1).  The function's rounded-up
    loss is never below the exact one and within 1e-12 of it."""
    eps = 1.0
    expected = {0.0: mp.mpf(0.5) + mp.log((1 + 2 * mp.e**-0.5) / (1 + mp.e**-0.5 + mp.e**-1)),
                0.5: None, 1.0: mp.mpf(0.5)}
    for q in (0.5, 0.75):
        worst, (x, y) = _isens_dp_sweep(eps, rho, q)
        assert worst < eps
        if expected[rho] is not None:
            assert abs(worst - expected[rho]) < mp.mpf(10)**-30
        got = inverse_sensitivity_loss(x, y, GRID3, eps, rho=rho, q=q, universe=U3)
        assert float(worst) <= got <= float(worst) + 1e-12
    # the function on every pair of a smaller sweep: rounded up, tight
    for x, y in neighbours(U3, 3):
        ref = mp_loss(mp_isens(smooth(brute_lengths(x, GRID3, 0.5, U3), GRID3, rho), eps),
                      mp_isens(smooth(brute_lengths(y, GRID3, 0.5, U3), GRID3, rho), eps))
        got = inverse_sensitivity_loss(x, y, GRID3, eps, rho=rho, q=0.5, universe=U3)
        assert ref <= got <= ref + mp.mpf(1e-12)


def test_inverse_sensitivity_dp_negative_control():
    """Negative control: weights exp(-len eps) (Definition 3.1.0.2 without its 1/2) break eps-DP on the
    same sweep (some pair has loss > eps), so the exact check above can fail."""
    worst, _ = _isens_dp_sweep(2.0, 0.0, 0.5, nmax=3)
    assert worst > 1.0


def test_inverse_sensitivity_loss_approaches_eps_on_larger_universes():
    """The supremum of the loss grows toward eps with the universe (U = {0..6}, grid U, n <= 2, q = 1/2:
    0.797 eps at x = (0, 1) -> (6, 1); n = 3 gives the same), still below eps.  Reference: mpmath from
    brute-force lengths at the worst pair; the sweep itself uses the function (its values are checked
    above)."""
    U = tuple(float(v) for v in range(7))
    worst, arg = 0.0, None
    for n in range(1, 3):
        for x, y in neighbours(U, n):
            loss = inverse_sensitivity_loss(x, y, U, 1.0, universe=U)
            if loss > worst:
                worst, arg = loss, (x, y)
    assert arg == ((0.0, 1.0), (6.0, 1.0)) and 0.79 < worst < 1.0
    x, y = arg
    ref = mp_loss(mp_isens(brute_lengths(x, U, 0.5, U), 1.0), mp_isens(brute_lengths(y, U, 0.5, U), 1.0))
    assert float(ref) <= worst <= float(ref) + 1e-12


# == the exponential mechanism ====================================================================================
def test_exponential_mechanism_against_mpmath():
    """Reference: mpmath (40 digits) of exp(-eps |#{x < t} - q n|/2) normalised, counts by a Python loop;
    relative 1e-13."""
    rng = np.random.default_rng(3)
    for n, q, eps in ((1, 0.5, 1.0), (5, 0.1, 2.0), (7, 0.9, 0.3), (40, 0.5, 5.0), (40, 0.25, 0.05)):
        x = np.round(rng.random(n), 2)
        grid = np.linspace(-0.05, 1.05, 23)
        ref = mp_exp_mech(x.tolist(), grid.tolist(), eps, q)
        got = exponential_quantile_pmf(x, grid, eps, q=q)
        lgot = exponential_quantile_pmf(x, grid, eps, q=q, log=True)
        for g, lg, r in zip(got, lgot, ref):
            assert g == pytest.approx(float(r), rel=1e-13)
            assert lg == pytest.approx(float(mp.log(r)), abs=1e-12)


def test_exponential_mechanism_is_eps_dp_exactly():
    """Every neighbour pair over U = {0, 1, 2}, n <= 4, grid {-1/2, 0, ..., 5/2}: exact loss (mpmath from
    counts) <= eps (largest 0.5 eps here).  Negative control: without the 1/2 (weights exp(eps u)) the loss
    reaches eps exactly on this sweep and exceeds it on U = {0..5}, n <= 2 (1.43 eps at (0, 1) -> (5, 1)):
    the factor 1/2 of the exponential mechanism is needed, and the check can fail.  The function agrees with
    the mpmath laws of the worst pair (relative 1e-13)."""
    grid = (-0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5)
    for q in (0.5, 0.25):
        worst, arg = mp.mpf(0), None
        for n in range(1, 5):
            for x, y in neighbours(U3, n):
                loss = mp_loss(mp_exp_mech(x, grid, 1.0, q), mp_exp_mech(y, grid, 1.0, q))
                if loss > worst:
                    worst, arg = loss, (x, y)
        assert worst <= 1.0 + mp.mpf(10)**-30
        for z in arg:
            ref = mp_exp_mech(z, grid, 1.0, q)
            got = exponential_quantile_pmf(z, grid, 1.0, q=q)
            assert np.allclose(got, [float(v) for v in ref], rtol=1e-13, atol=0)
    U6, grid6 = tuple(float(v) for v in range(6)), tuple(v - 0.5 for v in range(8))
    worst_double = max(mp_loss(mp_exp_mech(x, grid6, 2.0, 0.5), mp_exp_mech(y, grid6, 2.0, 0.5))
                       for n in (1, 2) for x, y in neighbours(U6, n))
    assert worst_double > 1.4


def _diffprivlib_interval_law(x, q, eps, a, b):
    """diffprivlib 0.6 ``quantile`` as read in its source: intervals between the sorted values with the bounds
    appended, weights length * exp(eps u/2), u = -|i - q n| for the interval above i values."""
    edges = np.concatenate(([a], np.sort(x), [b]))
    i = np.arange(len(x) + 1)
    w = np.diff(edges) * np.exp(-eps / 2 * np.abs(i - q * len(x)))
    return edges, w / w.sum()


def test_exponential_mechanism_tends_to_the_diffprivlib_law():
    """Reference: diffprivlib's interval law written from its source (above).  On the midpoints of a uniform
    lattice of step h the grid law, summed over each interval, is within O(h) of it (here 2e-4 at
    h = 1e-5); negative control: the interval law with u = -|i + 1 - q n| is 0.1 away."""
    rng = np.random.default_rng(5)
    x, q, eps = np.round(rng.random(12), 3), 0.3, 1.5
    h = 1e-5
    grid = np.arange(h / 2, 1.0, h)
    p = exponential_quantile_pmf(x, grid, eps, q=q)
    edges, ref = _diffprivlib_interval_law(x, q, eps, 0.0, 1.0)
    which = np.searchsorted(edges, grid, side="right") - 1
    got = np.bincount(which, weights=p, minlength=ref.size)
    assert np.max(np.abs(got - ref)) < 2e-4
    wrong = np.diff(edges) * np.exp(-eps / 2 * np.abs(np.arange(13) + 1 - q * 12))
    assert np.max(np.abs(got - wrong / wrong.sum())) > 0.05


# == JointExp ========================================================================================================
def jointexp_law(x, qs, eps, a, b, delta=2.0):
    """Every interval tuple i_1 <= ... <= i_m of JointExp with its probability: the density evaluated from its
    definition at the interval midpoints (counts of data in [o_{j-1}, o_j), the last interval closed) times
    the volume prod L^k/k! of the ordered runs; normalised (double precision is ample: the tuples are few)."""
    x = np.sort(np.clip(np.asarray(x, float), a, b))
    n, m = len(x), len(qs)
    edges = np.concatenate(([a], x, [b]))
    L = np.diff(edges)
    qq = [0.0] + list(qs) + [1.0]
    law = {}
    for tup in itertools.combinations_with_replacement(range(n + 1), m):
        o = [a] + [(edges[i] + edges[i + 1]) / 2 for i in tup] + [b]
        u = 0.0
        for j in range(m + 1):
            inside = (x >= o[j]) & ((x < o[j + 1]) if j < m else (x <= o[j + 1]))
            u += abs(int(inside.sum()) - (qq[j + 1] - qq[j]) * n)
        vol = 1.0
        for i, run in itertools.groupby(tup):
            k = len(list(run))
            vol *= L[i] ** k / math.factorial(k)
        law[tup] = math.exp(-eps / (2 * delta) * u) * vol
    z = sum(law.values())
    return {k: v / z for k, v in law.items()}


def _tuple_zscores(x, o, law, a, b):
    xs = np.sort(np.clip(x, a, b))
    idx = np.searchsorted(xs, o, side="right")           # the interval of each output (data distinct or tied)
    N = o.shape[0]
    codes = {t: c for c, t in enumerate(law)}
    got = np.zeros(len(law))
    for row in map(tuple, idx):
        got[codes[row]] += 1
    p = np.array(list(law.values()))
    se = np.sqrt(p * (1 - p) / N) + 1.0 / N
    return np.abs(got / N - p) / se


@pytest.mark.parametrize("x,qs,eps,a,b", [
    ([0.2, 0.5, 0.6], [0.3, 0.7], 2.0, 0.0, 1.0),
    ([0.2, 0.2, 0.5], [0.4, 0.6], 5.0, 0.0, 1.0),                      # a tie: an interval of length 0
    ([-3.0, 0.4, 9.0], [0.25, 0.5], 1.0, 0.0, 1.0),                   # clipped to the bounds
])
def test_jointexp_exact_law_n3_m2(x, qs, eps, a, b):
    """Reference: enumeration of the interval tuples with the density from its definition (jointexp_law);
    40000 seeded draws, every tuple within 5 standard errors.  Negative control: the same draws against the
    law with Delta = 1 (twice the exponent) are more than 5 SE away somewhere."""
    o = joint_exp_quantiles(x, qs, eps, a, b, rng=2024, size=40000)
    assert np.all(np.diff(o, axis=1) >= 0) and o.min() >= a and o.max() <= b
    assert np.max(_tuple_zscores(np.array(x), o, jointexp_law(x, qs, eps, a, b), a, b)) < 5
    if eps <= 2.0:
        assert np.max(_tuple_zscores(np.array(x), o, jointexp_law(x, qs, eps, a, b, delta=1.0), a, b)) > 5


def test_jointexp_marginals_with_wide_windows():
    """n = 30, m = 3 (tau = 7.5: windows of 7 intervals across block ends).  Reference: the marginal law of
    each output's interval from the enumeration of all 5456 tuples; 60000 seeded draws within 5 SE."""
    rng = np.random.default_rng(8)
    x = np.sort(rng.random(30))
    qs, eps = [0.25, 0.5, 0.75], 1.0
    law = jointexp_law(x, qs, eps, 0.0, 1.0)
    o = joint_exp_quantiles(x, qs, eps, 0.0, 1.0, rng=99, size=60000)
    idx = np.searchsorted(x, o, side="right")
    for j in range(3):
        p = np.zeros(31)
        for t, v in law.items():
            p[t[j]] += v
        f = np.bincount(idx[:, j], minlength=31) / o.shape[0]
        se = np.sqrt(p * (1 - p) / o.shape[0]) + 1.0 / o.shape[0]
        assert np.max(np.abs(f - p) / se) < 5, j


def test_jointexp_single_quantile_is_the_interval_exponential_mechanism():
    """m = 1: the two counts |i - q n| and |n - i - (1 - q) n| are equal, so with Delta = 2 the weight is
    L_i exp(-eps |i - q n|/2), diffprivlib's interval law (reference: _diffprivlib_interval_law); 50000
    seeded draws within 5 SE."""
    x = np.array([0.05, 0.3, 0.31, 0.6, 0.95])
    edges, ref = _diffprivlib_interval_law(x, 0.4, 1.2, 0.0, 1.0)
    o = joint_exp_quantiles(x, [0.4], 1.2, 0.0, 1.0, rng=5, size=50000)[:, 0]
    f = np.bincount(np.searchsorted(x, o, side="right"), minlength=6) / o.size
    se = np.sqrt(ref * (1 - ref) / o.size)
    assert np.max(np.abs(f - ref) / se) < 5


def test_jointexp_bounds_whose_difference_overflows():
    """a = -1e308, b = 1e308: b - a = 2e308 is beyond the float range, and so is the length of the
    interval [-9e307, 9e307].  m = 1, so the interval law is L_i exp(-eps |i - q n|/2) (as in the test
    above); reference: that law with the lengths L_i exact (Fractions of the doubles) and the weights in
    mpmath at 30 digits, nothing overflowing.  40000 seeded draws: every interval's frequency within 5 SE;
    inside the interval longer than the float range and inside [a, -9e307] the position (o - lo)/L, in
    Fractions, has mean 1/2 within 5 SE (uniform: sd 1/sqrt(12)).  Negative control: the same law with
    every L_i = 1 (what the lengths contribute) is more than 5 SE away."""
    x = np.array([-9e307, 9e307, 9.5e307])
    q, eps, a, b = 0.5, 1.0, -1e308, 1e308
    edges = [Fraction(v) for v in [a, *x, b]]
    lengths = [hi - lo for lo, hi in zip(edges, edges[1:])]
    assert lengths[1] > Fraction(np.finfo(float).max) and lengths[0] + lengths[1] + lengths[2] + lengths[3] > 2**1024
    with mp.workdps(30):
        w = [mp.mpf(L.numerator) / L.denominator * mp.e ** (-eps * abs(i - q * x.size) / 2)
             for i, L in enumerate(lengths)]
        ref = np.array([float(v / mp.fsum(w)) for v in w])
        flat = [mp.e ** (-eps * abs(i - q * x.size) / 2) for i in range(len(lengths))]
        wrong = np.array([float(v / mp.fsum(flat)) for v in flat])
    o = joint_exp_quantiles(x, [q], eps, a, b, rng=11, size=40000)[:, 0]
    assert np.all(np.isfinite(o)) and o.min() >= a and o.max() <= b
    idx = np.searchsorted(x, o, side="right")
    f = np.bincount(idx, minlength=x.size + 1) / o.size
    assert np.max(np.abs(f - ref) / np.sqrt(ref * (1 - ref) / o.size)) < 5
    assert np.max(np.abs(f - wrong) / np.sqrt(wrong * (1 - wrong) / o.size)) > 5
    for i in (0, 1):
        pos = [float((Fraction(v) - edges[i]) / lengths[i]) for v in o[idx == i].tolist()]
        assert len(pos) > 100 and abs(np.mean(pos) - 0.5) < 5 / math.sqrt(12 * len(pos)), i


def test_jointexp_kernel_sums_against_direct_sums():
    """Reference: sum_{i' < i} exp(-c |i - i' - tau| + v(i')) summed directly (mpmath, 30 digits) for random
    v with -inf entries, tau below 1, fractional, integer, beyond n; relative 1e-12."""
    rng = np.random.default_rng(1)
    n = 40
    v = rng.normal(0, 3, n)
    v[[3, 4, 17]] = -np.inf
    for c, tau in ((0.7, 0.4), (0.3, 2.5), (1.1, 7.0), (0.05, 13.7), (0.2, 55.0), (4.0, 39.0)):
        kern = qm._Kernel(v, c, tau)
        got = kern.total(np.arange(n + 1))
        for i in range(n + 1):
            terms = [mp.e**(-c * abs(i - j - tau) + v[j]) for j in range(i) if np.isfinite(v[j])]
            ref = mp.log(mp.fsum(terms)) if terms else -mp.inf
            if ref == -mp.inf:
                assert got[i] == -np.inf
            else:
                assert got[i] == pytest.approx(float(ref), rel=1e-12, abs=1e-12)


def test_jointexp_draw_properties():
    """Shapes, order, bounds and seeding: size None gives (m,), a seed gives the same draws twice, the outputs
    are sorted inside [a, b]."""
    x = np.random.default_rng(2).normal(size=200)
    one = joint_exp_quantiles(x, [0.1, 0.5, 0.9], 1.0, -4.0, 4.0, rng=3)
    assert one.shape == (3,)
    many = joint_exp_quantiles(x, [0.1, 0.5, 0.9], 1.0, -4.0, 4.0, rng=3, size=5)
    again = joint_exp_quantiles(x, [0.1, 0.5, 0.9], 1.0, -4.0, 4.0, rng=np.random.default_rng(3), size=5)
    assert many.shape == (5, 3) and np.array_equal(many, again)
    assert np.all(np.diff(many, axis=1) >= 0) and many.min() >= -4.0 and many.max() <= 4.0


# == AboveThreshold and the unbounded estimator =======================================================================
def mp_at_law(y, T, bt, bq):
    """P(A = k) and P(A = -1) by mpmath.quad (25 digits) of the Section 2.1 integral, split at every kink."""
    with mp.workdps(25):
        return [+v for v in _mp_at_law(y, T, bt, bq)]


def _mp_at_law(y, T, bt, bq):
    y = [mp.mpf(v) for v in y]
    T, bt, bq = mp.mpf(T), mp.mpf(bt), mp.mpf(bq)

    def F(z):
        return mp.e**(z / bq) / 2 if z < 0 else 1 - mp.e**(-z / bq) / 2
    pts = [-mp.inf] + sorted(set([T] + y)) + [mp.inf]
    out = []
    for k in range(len(y) + 1):
        def f(t, k=k):
            v = mp.e**(-abs(t - T) / bt) / (2 * bt)
            for i in range(k):
                v *= F(t - y[i])
            return v * (1 - F(t - y[k])) if k < len(y) else v
        out.append(mp.quad(f, pts))
    return out


@pytest.mark.parametrize("y,T,bt,bq", [
    ([0, 2, 2], 1.5, 2.0, 2.0), ([0, 1, 3, 3, 7], 2.0, 2.0, 4.0), ([5, 5, 5], 1.0, 0.3, 0.5),
    ([0, 10, 20, 30], 15.0, 50.0, 50.0), ([3, 1, 2, 0], 1.5, 1.0, 3.0),
    (list(range(0, 5)), 2.5, 16.0, 16.0),              # kinks 1 apart, scales 16: the narrowest pieces
    ([0, 0, 0, 1, 200, 200, 400, 400, 401], 200.5, 1.5, 1.5)])
def test_above_threshold_law_against_mpmath(y, T, bt, bq):
    """Reference: mpmath.quad (25 digits) of the output law split at every kink; absolute 5e-15 on every
    entry, relative 1e-12 where the probability exceeds 1e-6 (the tails beyond 40 threshold scales, e^-40,
    are left out by design)."""
    got = qm._above_threshold_law(np.array(y, float), T, bt, bq)
    ref = np.array([float(v) for v in mp_at_law(y, T, bt, bq)])
    assert np.max(np.abs(got - ref)) < 5e-15
    big = ref > 1e-6
    assert np.max(np.abs(got[big] / ref[big] - 1)) < 1e-12


@pytest.mark.slow
def test_above_threshold_law_dense_kinks_against_mpmath():
    """Reference: as above, 21 queries one unit apart under noise scales 10 (every piece of the narrowest
    class); absolute 5e-15.  Negative control: 3 nodes on those pieces miss by more than 5e-15."""
    y, T, b = np.arange(0.0, 21.0), 10.5, 10.0
    ref = np.array([float(v) for v in mp_at_law(y.tolist(), T, b, b)])
    assert np.max(np.abs(qm._above_threshold_law(y, T, b, b) - ref)) < 5e-15
    saved = qm._GL_ORDERS
    try:
        qm._GL_ORDERS = ((3, 1 / 16),) + saved[1:]
        assert np.max(np.abs(qm._above_threshold_law(y, T, b, b) - ref)) > 5e-15
    finally:
        qm._GL_ORDERS = saved


def _compare_with_other_law(cases):
    at = pytest.importorskip("numeric.above_threshold")
    rng = np.random.default_rng(4)
    for n, normal, eps, frac, mono in cases:
        x = rng.standard_normal(n) if normal else rng.random(n)
        lower, K = (-4.0, 2198) if normal else (0.0, 694)
        counts = np.searchsorted(np.sort(x), qm._cutoffs(lower, 1.001, np.arange(K))).astype(float)
        bq = (2 if mono else 4) / eps
        mine = qm._above_threshold_law(counts, frac * n, 2 / eps, bq)
        other = at.above_threshold_pmf(counts, frac * n, eps, query_scale=bq)
        assert np.max(np.abs(mine - other)) < 1e-14, (n, normal, eps, frac, mono)


def test_above_threshold_law_against_the_other_implementation():
    """Reference: numeric.above_threshold.above_threshold_pmf (a different method: per-piece series of
    power sums with Bernstein-ellipse-graded quadrature) on cumulative counts of a uniform and a normal
    sample at the benchmark's budgets; absolute 1e-14 on every entry.  Skipped while that module is absent."""
    _compare_with_other_law([(1000, False, 0.1 / 9, 0.5, False), (1000, True, 1 / 9, 0.9, True)])


@pytest.mark.slow
def test_above_threshold_law_against_the_other_implementation_everywhere():
    """As above on every combination: n in {1000, 3000}, uniform and normal, eps/9 for eps = 0.1 and 1,
    thresholds at the 1st, 5th and 9th deciles, the paper's query noise and the monotone one."""
    _compare_with_other_law([(n, normal, eps, frac, mono) for n in (1000, 3000) for normal in (False, True)
                             for eps in (0.1 / 9, 1 / 9) for frac in (0.1, 0.5, 0.9) for mono in (False, True)])


def test_unbounded_pmf_is_above_threshold_on_the_counts():
    """Reference: the counts #{x < ell + beta^k - 1} made by hand (x = (0, 0, 5), beta = 2, ell = 0: cutoffs
    0, 1, 3, 7; counts 0, 2, 2, 3) and mpmath.quad of the law with Laplace(2/eps) on both noises."""
    p = unbounded_quantile_pmf([0.0, 0.0, 5.0], 0.5, 1.0, beta=2.0, num_queries=4)
    ref = [float(v) for v in mp_at_law([0, 2, 2, 3], 1.5, 2.0, 2.0)]
    assert np.allclose(p, ref, rtol=1e-12, atol=1e-15)
    # lower shifts the cutoffs: ell = -1 gives -1, 0, 2, 6 and counts 0, 0, 2, 3
    p = unbounded_quantile_pmf([0.0, 0.0, 5.0], 0.5, 1.0, beta=2.0, lower=-1.0, num_queries=4)
    assert np.allclose(p, [float(v) for v in mp_at_law([0, 0, 2, 3], 1.5, 2.0, 2.0)], rtol=1e-12, atol=1e-15)
    # the default K: the first cutoff above max(x) = 5 is 7 (k = 3), K = 4
    assert np.array_equal(unbounded_quantile_pmf([0.0, 0.0, 5.0], 0.5, 1.0, beta=2.0),
                          unbounded_quantile_pmf([0.0, 0.0, 5.0], 0.5, 1.0, beta=2.0, num_queries=4))


@pytest.mark.parametrize("q,eps,beta", [(0.5, 1.0, 1.1), (0.9, 3.0, 1.05), (0.2, 0.5, 1.3), (1.0, 0.2, 1.2)])
def test_unbounded_sampler_against_pmf(q, eps, beta):
    """Reference: the exact law (unbounded_quantile_pmf, itself checked against mpmath above); 100000 seeded
    draws of the sampler, every output index (and the tail k >= 60) within 5 SE."""
    x = np.array([0.05, 0.2, 0.21, 0.5, 0.7, 0.9, 1.3, 2.0])
    K = 60
    p = unbounded_quantile_pmf(x, q, eps, beta=beta, num_queries=K)
    N = 100000
    s = unbounded_quantile(x, q, eps, rng=17, beta=beta, size=N)
    cut = np.expm1(np.arange(K + 1) * math.log(beta))
    k = np.searchsorted(cut, s, side="right") - 1
    assert np.all(np.isclose(cut[np.minimum(k, K)], s) | (k >= K))
    f = np.bincount(np.minimum(k, K), minlength=K + 1) / N
    se = np.sqrt(p * (1 - p) / N) + 1.0 / N
    assert np.max(np.abs(f - p) / se) < 5


def test_unbounded_monotone_noise_is_eps_dp_exactly():
    """Claim pd.at.monotone_noise on the estimator: every neighbour pair over U = {0, ..., 5}, n <= 3,
    beta = 3/2 (cutoffs 0, 1/2, 5/4, 19/8, ...), the exact law of the outputs (K = 8 and the tail) has loss
    <= eps (1e-9 for the quadrature); the largest is 0.88 eps, at (0, 0, 0) -> (5, 0, 0).  Negative
    control: query noise Lap(1/eps) instead of Lap(2/eps) exceeds eps (1.35 eps)."""
    eps, beta, K = 1.0, 1.5, 8
    U = tuple(float(v) for v in range(6))
    cut = np.expm1(np.arange(K) * math.log(beta))
    laws, halves = {}, {}
    worst = worst_half = 0.0
    for n in range(1, 4):
        for x, y in neighbours(U, n):
            for z in (x, y):
                key = tuple(sorted(z))
                if key not in laws:
                    laws[key] = unbounded_quantile_pmf(z, 0.5, eps, beta=beta, num_queries=K)
                    counts = np.searchsorted(np.array(key), cut, side="left").astype(float)
                    halves[key] = qm._above_threshold_law(counts, 0.5 * n, 2.0 / eps, 1.0 / eps)
            kx, ky = tuple(sorted(x)), tuple(sorted(y))
            worst = max(worst, float(np.max(np.abs(np.log(laws[kx]) - np.log(laws[ky])))))
            worst_half = max(worst_half, float(np.max(np.abs(np.log(halves[kx]) - np.log(halves[ky])))))
    assert 0.85 < worst <= eps + 1e-9
    assert worst_half > 1.3 * eps


def test_unbounded_limits():
    """Limits worked by hand: with eps = 1e6 the output is the first cutoff whose count exceeds q n
    (x = 0.1..0.9 step 0.1, q = 0.5: the first k with #{x < 1.001^k - 1} > 4.5 is the cutoff just above 0.5);
    values below lower count in every query (x < lower: the output is lower, k = 0)."""
    x = np.arange(1, 10) / 10
    s = unbounded_quantile(x, 0.5, 1e6, rng=1, size=50)
    k = math.ceil(math.log1p(0.5) / math.log(1.001))
    while math.expm1(k * math.log(1.001)) <= 0.5:
        k += 1
    assert np.all(s == np.expm1(k * math.log(1.001)))
    assert np.all(unbounded_quantile([-5.0, -6.0], 0.5, 1e6, rng=2, size=20, lower=0.0) == 0.0)
    assert unbounded_quantile(x, 0.5, 1.0, rng=3).shape == ()


# == provenance and docstrings =======================================================================================
def test_provenance_and_docstring_examples():
    assert inverse_sensitivity_pmf.__claims__ == ("pd.isens.length", "pd.isens.epsilon_dp")
    assert inverse_sensitivity_loss.__claims__ == ("pd.isens.epsilon_dp",)
    assert exponential_quantile_pmf.__claims__ == ("pd.def.count_sensitivity", "pd.isens.epsilon_dp")
    assert joint_exp_quantiles.__claims__ == ("pd.def.count_sensitivity", "pd.isens.epsilon_dp")
    assert unbounded_quantile.__claims__ == ("pd.at.output_law", "pd.at.monotone_noise")
    assert unbounded_quantile_pmf.__claims__ == ("pd.at.output_law", "pd.at.monotone_noise")
    for name in qm.__all__:
        assert "private-deciles" in getattr(numeric, name).__doc__, name   # cited by short name
    assert set(qm.__all__) <= set(numeric.__all__)
    result = doctest.testmod(qm, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
