"""Amplification by simple random sampling as the numeric layer uses it, against the cited formula.

Claim ``htm.srs.amplification`` cites Balle, Barthe & Gaboardi (2018, Thm 9): a mechanism M on a simple random
sample of n of N records, under substitution neighbours, has delta_{M o S}(eps') <= (n/N) delta_M(eps0) with
eps' = ln(1 + (n/N)(e^{eps0} - 1)).  The numeric layer inverts that map in closed form.

Reference (independent of the code under test): the cited formula eps'(x) = ln(1 + q(e^x - 1)), q = n/N, evaluated
in mpmath at 60 digits and solved by bisection (not by the closed inverse the code uses):

* the generic scale b = Delta/x with eps'(x) = eps (Delta = N/n, binary data): ``amplified_laplace_scale``, the
  pure scale of the one-unit rows and the certified pure scale of the binary search;
* the closed scale: x0 with eps'(x0) = eps, then b with q (1 - e^{(x0 - Delta/b)/2}) = delta (the Laplace
  mechanism's delta, claim ``htm.census.delta``), both by bisection: ``calibration.closed_scale`` and the
  calibrated scale of SRS with values in an interval.
"""
from __future__ import annotations

import math

import mpmath as mp
import pytest

from numeric import SRS, BinaryDomain, IntervalDomain, amplified_laplace_scale, calibrate_scale
from numeric.profile.calibration import closed_scale
from numeric.profile.search.binary import SRSFamily, pure_scale
from numeric.profile.search.one_unit import Components

DPS = 60
DESIGNS = [(100, 10), (10_000, 500), (10**7, 3), (50, 50), (1000, 999), (7, 1)]
EPSILONS = [1e-3, 0.5, 1.0, 1.0000001, 3.0, 30.0, 700.0]


def bisect(f, lo, hi, steps=400):
    """The root of an increasing f on [lo, hi] (f(lo) <= 0 <= f(hi)) by bisection in mpmath."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    assert f(lo) <= 0 <= f(hi)
    for _ in range(steps):
        mid = (lo + hi) / 2
        if f(mid) <= 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def sample_eps(q, eps):
    """x >= 0 with ln(1 + q(e^x - 1)) = eps: the cited amplified epsilon solved for the mechanism's epsilon.
    It lies in [eps, eps - ln q] (ln(1 + q(e^x - 1)) is between x + ln q and x): bracketed by
    [eps/2, eps - ln q + 1]."""
    q, eps = mp.mpf(q), mp.mpf(eps)
    return bisect(lambda x: mp.log(1 + q * mp.expm1(x)) - eps, eps / 2, eps - mp.log(q) + 1)


def reference_generic(N, n, eps):
    with mp.workdps(DPS):
        q = mp.mpf(n) / N
        return (1 / q) / sample_eps(q, eps)


def reference_closed(N, n, eps, delta):
    """The Laplace scale b with q delta_Lap(x0; Delta/b) = delta, x0 the mechanism's epsilon: Delta/y with y the
    root of q (1 - e^{(x0 - y)/2}) = delta, found by bisection above x0."""
    with mp.workdps(DPS):
        q = mp.mpf(n) / N
        x0 = sample_eps(q, eps)
        g = lambda y: q * (1 - mp.exp((x0 - y) / 2)) - delta      # noqa: E731  increasing in y
        assert delta < q, "no scale: the sampling alone gives delta >= n/N"
        hi = x0 + 1
        while g(hi) < 0:
            hi = x0 + 2 * (hi - x0)
        return (1 / q) / bisect(g, x0, hi)


@pytest.mark.parametrize("N, n", DESIGNS)
def test_generic_scale_inverts_the_cited_amplification(N, n):
    """amplified_laplace_scale and the pure scale of the one-unit rows are the b of the mpmath root, to 1e-13;
    the pure scales that declare delta = 0 exactly are never below it."""
    q = n / N
    for eps in EPSILONS:
        ref = reference_generic(N, n, eps)
        got = amplified_laplace_scale(SRS(N, n), BinaryDomain(N), eps)
        assert abs(mp.mpf(got) / ref - 1) < 1e-13, (N, n, eps, got, ref)
        rows = float(Components([q], [0.0], [1.0], [0], [True]).pure_scale(eps)[0])
        assert ref <= mp.mpf(rows) <= ref * (1 + 2e-12), (N, n, eps, rows, ref)
        certified = pure_scale(SRSFamily(N, n), eps)
        assert ref <= mp.mpf(certified) <= ref * (1 + 1e-9), (N, n, eps, certified, ref)


@pytest.mark.parametrize("N, n", [d for d in DESIGNS if d[1] < d[0]])
def test_closed_scale_is_the_amplified_laplace_delta(N, n):
    """calibration.closed_scale (the start of the calibration of SRS rows) against the mpmath root, to 1e-12;
    zero where delta >= n/N (the sampling alone meets the target)."""
    q = n / N
    row = Components([q], [0.0], [1.0], [0], [True])
    for eps in [1e-3, 0.5, 1.0, 3.0, 30.0]:
        for delta in [d for d in (1e-12, 1e-6, 0.5 * q) if d < q]:
            ref = reference_closed(N, n, eps, delta)
            got = float(closed_scale(row, eps, delta)[0])
            assert abs(mp.mpf(got) / ref - 1) < 1e-12, (N, n, eps, delta, got, ref)
        assert float(closed_scale(row, eps, 2 * q)[0]) == 0.0


@pytest.mark.parametrize("N, n, a, b", [(1000, 50, 0.0, 1.0), (24_606, 492, 0.0, 2000.0), (300, 299, -5.0, 5.0)])
def test_srs_interval_scale_meets_the_cited_bound_exactly(N, n, a, b):
    """The calibrated scale of SRS with values in [a, b] (the reduction to the pair every-a / one-b, exact by the
    cited theorem) is the mpmath closed-scale reference times b - a, never below it, and above by at most the
    bracket of the calibration (rtol 1e-9) and its rounding bound; it is reported exact."""
    for eps, delta in [(0.5, 1e-6), (1.0, 1e-9), (3.0, 1e-3)]:
        ref = reference_closed(N, n, eps, delta) * (mp.mpf(b) - a)
        got = calibrate_scale(SRS(N, n), IntervalDomain(a, b), eps, delta)
        assert ref * (1 - 1e-12) <= mp.mpf(float(got)) <= ref * (1 + 3e-9), (N, n, eps, delta, float(got), ref)
        assert got.exact


def test_the_reference_tells_the_formulas_apart():
    """Control: the reference separates the cited amplification from the same formula with q and 1/q swapped,
    and from the unamplified Laplace mechanism (b = Delta/eps)."""
    N, n, eps = 1000, 50, 1.0
    ref = reference_generic(N, n, eps)
    swapped = (N / n) / math.log1p(math.expm1(eps) * n / N)
    assert abs(mp.mpf(swapped) / ref - 1) > 1e-3
    assert abs(mp.mpf((N / n) / eps) / ref - 1) > 1e-3
