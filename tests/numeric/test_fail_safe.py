"""The numeric layer fails safe: privacy figures are never understated, bad targets are refused at
once, and the privacy profile's cost does not grow with the population size.

Reference values are independent of the code under test: ``delta_bruteforce`` (exact rational
atoms, closed-form pieces in mpmath at 50 digits) over every ordered neighbouring pair of binary
populations, and the census closed form 1 - e^{(eps - Delta/b)/2} evaluated in mpmath.
"""
from __future__ import annotations

import itertools
import math
import time
import tracemalloc

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from _strategies import srs_designs
from numeric.profile.search import binary as pb
from numeric import (SRS, Bernoulli, BinaryDomain, amplified_laplace_scale, calibrate_scale, delta_bruteforce,
                     epsilon_for_delta, privacy_profile, worst_pair)


def exact_sup(N, n, m_t, M_t, eps, b):
    """sup over ordered neighbouring binary populations of delta_bruteforce (mpmath), SRS(N, n)."""
    samples = list(itertools.combinations(range(N), n))
    probs = [1 / len(samples)] * len(samples)
    best = mpmath.mpf(0)
    for t in range(m_t, M_t):
        x = [1] * t + [0] * (N - t)
        xp = [1] * (t + 1) + [0] * (N - t - 1)
        for a, c in ((x, xp), (xp, x)):
            best = max(best, mpmath.mpf(delta_bruteforce(samples, probs, a, c, eps, b)))
    return best


def small_srs():
    return srs_designs(6)


@settings(max_examples=25, deadline=None)
@given(small_srs(), st.sampled_from([0.0, 0.05, 0.3, 1.0, 2.5]), st.sampled_from([0.1, 0.7, 2.0, 9.0, 1e6]))
def test_profile_never_below_the_exact_delta(design, eps, b):
    """privacy_profile >= the exact supremum (mpmath), and above it by at most 1e-13."""
    N, n, m_t, M_t = design
    got = float(privacy_profile(SRS(N, n), BinaryDomain(N, m_t, M_t), b, eps))
    want = exact_sup(N, n, m_t, M_t, eps, b)
    assert mpmath.mpf(got) >= want, (got, want)
    assert mpmath.mpf(got) <= want + mpmath.mpf("1e-13"), (got, want)


@settings(max_examples=15, deadline=None)
@given(small_srs(), st.sampled_from([0.0, 0.2, 1.0]), st.sampled_from([1e-3, 0.05, 0.2]))
def test_calibrated_scale_meets_its_target(design, eps, delta):
    """At the returned scale the exact delta (mpmath) is <= the target, and 0.1 % lower is not."""
    N, n, m_t, M_t = design
    b = calibrate_scale(SRS(N, n), BinaryDomain(N, m_t, M_t), eps, delta, rtol=1e-6)
    if b == 0:
        assert exact_sup(N, n, m_t, M_t, eps, 0.0) <= delta
        return
    assert exact_sup(N, n, m_t, M_t, eps, b) <= delta
    assert exact_sup(N, n, m_t, M_t, eps, b * 0.999) > delta * (1 - 1e-9)


@settings(max_examples=15, deadline=None)
@given(small_srs(), st.sampled_from([0.3, 1.0, 4.0]), st.sampled_from([1e-4, 0.01, 0.1]))
def test_epsilon_for_delta_meets_its_target(design, b, delta):
    N, n, m_t, M_t = design
    e = epsilon_for_delta(SRS(N, n), BinaryDomain(N, m_t, M_t), b, delta, rtol=1e-6)
    assert exact_sup(N, n, m_t, M_t, e, b) <= delta
    if e > 1e-3:
        assert exact_sup(N, n, m_t, M_t, e * 0.99, b) > delta * (1 - 1e-9)


def census_delta(eps, b):
    """1 - e^{(eps - 1/b)/2} in mpmath (the census pair, Delta = 1)."""
    return max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(eps) - 1 / mpmath.mpf(b)) / 2))


def test_reproducer_calibration_at_eps_zero_meets_target():
    """SRS(3, 3) at eps = 0, delta = 1e-15 returned 4.87e14, whose exact delta was 2.7 % over."""
    b = calibrate_scale(SRS(3, 3), BinaryDomain(3), 0.0, 1e-15)
    assert census_delta(0.0, b) <= mpmath.mpf("1e-15")


def test_reproducer_unreachable_target_is_refused_at_once():
    """SRS(10, 3), eps = 0, delta = 1e-17 never returned; now it either meets the target (exact
    reference) or is refused naming delta, within a second."""
    start = time.process_time()
    try:
        b = calibrate_scale(SRS(10, 3), BinaryDomain(10), 0.0, 1e-17)
    except ValueError as exc:
        assert str(exc).startswith("delta")
    else:
        # the noise bound q (1 - e^{-Delta/(2b)}) of the supremum, Delta = 10/3 (mpmath)
        assert mpmath.mpf(3) / 10 * -mpmath.expm1(-mpmath.mpf(10) / 3 / (2 * b)) <= mpmath.mpf("1e-17")
    assert time.process_time() - start < 5


def test_reproducer_no_noise_verdict_at_delta_n_over_N():
    """At delta = n/N (as a double, just below 3/10) SRS(10, 3) needs noise: delta_0 >= 3/10 exactly
    (the pair (1, 0): the sampled unit's atom has probability 3/10 and no counterpart)."""
    assert calibrate_scale(SRS(10, 3), BinaryDomain(10), 0.0, 3 / 10) > 0


def test_reproducer_amplified_scale_large_eps():
    """ln(1 + (e^709 - 1)/0.1) = 709 + ln 10 + ln(1 - 0.9 e^-709) (mpmath): b = 10 / that."""
    want = 10 / (709 + mpmath.log(10) + mpmath.log1p(-mpmath.mpf("0.9") * mpmath.exp(-709)))
    got = amplified_laplace_scale(SRS(100, 10), BinaryDomain(100), 709.0)
    assert abs(got - float(want)) <= 1e-15 * float(want)
    assert amplified_laplace_scale(SRS(100, 10), BinaryDomain(100), 0.0) == math.inf


@pytest.mark.parametrize("fn", ["profile", "worst", "calibrate", "epsilon"])
def test_reproducer_eps_above_709_does_not_overflow(fn):
    """e^eps overflowed a double for eps > 709.  At eps = 800 and b = 0.5 the Laplace mechanism with
    the Horvitz-Thompson sensitivity Delta = N/n = 10 is pure DP with eps = Delta/b = 20 < 800, so
    delta = 0 exactly; the calibrated scale is at most Delta/eps."""
    d, dom = SRS(100, 10), BinaryDomain(100)
    if fn == "profile":
        assert privacy_profile(d, dom, 0.5, 800.0) == 0.0
        assert privacy_profile(d, dom, 0.5, 800.0, noise="gaussian") >= 0.0
    elif fn == "worst":
        assert worst_pair(d, dom, 0.5, 800.0).delta == 0.0
    elif fn == "calibrate":
        assert 0 < calibrate_scale(d, dom, 800.0, 1e-6) <= 10 / 800 * 1.001     # <= Delta/eps
    else:
        assert epsilon_for_delta(SRS(10, 3), BinaryDomain(10), 1e-3, 0.01) <= (10 / 3) / 1e-3


def test_bernoulli_supremum_at_smallest_total():
    """The data-processing argument: for Bernoulli sampling the worst pair is at the smallest total.
    Checked against the maximum over every pair of totals, each evaluated by the same pair kernel
    (the kernel itself is checked against mpmath in test_profile.py): this tests the reduction."""
    fam = pb.BernoulliFamily(0.2)
    for m_t in (0, 3):
        dom = BinaryDomain(40, m_t, 40)
        t = np.repeat(np.arange(m_t, 40), 2)
        up = np.tile([True, False], 40 - m_t)
        for eps, b in [(0.0, 5.0), (0.5, 20.0), (0.2, 60.0)]:
            fast = privacy_profile(Bernoulli(40, 0.2), dom, b, eps)
            every = pb.pair_deltas(fam, t, up, eps, b, "laplace").max()
            assert abs(fast - every) <= 1e-13


@pytest.mark.parametrize("N", [10**4, 10**6, 10**9])
def test_profile_cost_independent_of_N(N):
    """Bernoulli and SRS profiles at N up to 1e9 in well under a second of CPU each, with little memory."""
    tracemalloc.start()
    start = time.process_time()
    privacy_profile(Bernoulli(N, 0.01), BinaryDomain(N), 19.4, [0.5, 1.0])
    privacy_profile(SRS(N, N // 100), BinaryDomain(N), 50.0, [0.0, 0.5, 1.0])
    elapsed = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < 5.0, elapsed
    assert peak < 200 * 2**20, peak


@pytest.mark.parametrize("samples", [[(0, 1.5)], [(0, 0)], [(0, True)], [(0, 1), (2,)]])
def test_explicit_design_refuses_bad_units(samples):
    """A unit index of 1.5 was truncated to 1; repeated, boolean and out-of-range units are refused
    too, naming ``samples`` (the last one with N = 2)."""
    from numeric import ExplicitDesign
    from numeric._common import ParameterError

    with pytest.raises(ParameterError) as info:
        ExplicitDesign(samples, [1.0 / len(samples)] * len(samples), N=2 if len(samples) == 2 else None)
    assert info.value.param == "samples"
