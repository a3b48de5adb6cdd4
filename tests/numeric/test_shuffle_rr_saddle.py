"""The Fourier kernel of the aggregated randomized response (numeric._saddle) and the threshold form
evaluated at its located maximiser (numeric.shuffle_rr._eps_laws for epsilon, _delta_laws for the profile),
the route of every law of variance 400 or more (k-randomization (003), Section 3.1:
B_k = Bin(k, p) + Bin(N - k, q), and the fair-coin laws with Bin(m, 1/2) added).

References, each independent of the code under test (each test says which):
* EXACT: the pmf of each group from its exact recurrence in mpmath at 40 digits (q the exact rational value
  of its float), the sum's pmf by direct convolution at every point needed, its upper tail summed to 25
  standard deviations past the point (the rest is below e^-300 by Bernstein's inequality);
* SORT: the epsilon of the pair from those exact laws over every likelihood-ratio superlevel set (every
  outcome sorted; no threshold form, no location of the maximiser: test_shuffle_rr_search.eps_exact_mp);
* WINDOW: the FFT window of numeric.shuffle_rr._Tails (a different algorithm, tested against mpmath and the
  count recurrence in test_shuffle_rr_search), as the per-k values of a full scan over every k.
"""
from __future__ import annotations

import math
from fractions import Fraction as Fr

import mpmath
import numpy as np
import pytest

import numeric as nm
from numeric import _saddle
from numeric import shuffle_rr as sr
from test_shuffle_rr_search import eps_exact_mp

MPMATH_DPS = 40


def q_of(eps0):
    return 1.0 / (1.0 + math.exp(eps0))


def _pmf(m, r):
    """Bin(m, r) in mpmath, r an exact rational, by the ratio recurrence from P(0) = (1 - r)^m."""
    r = mpmath.mpf(r.numerator) / r.denominator
    out = [(1 - r) ** m]
    for j in range(m):
        out.append(out[-1] * (m - j) / (j + 1) * r / (1 - r))
    return out


def _conv_at(A, B, s):
    lo, hi = max(0, s - len(B) + 1), min(len(A) - 1, s)
    return mpmath.fsum(A[j] * B[s - j] for j in range(lo, hi + 1))


class Exact:
    """EXACT: b(s) and G(s) of Bin(a, p) + Bin(b, q) + Bin(m, 1/2), q exact, computed where asked."""

    def __init__(self, a, b, m, q):
        qf = Fr(q)
        self.A, self.B, self.C = _pmf(a, 1 - qf), _pmf(b, qf), _pmf(m, Fr(1, 2))
        self.top = a + b + m
        pf = float(1 - qf)
        self.sd = math.sqrt((a + b) * pf * float(qf) + m / 4)
        self._ab = {}
        self._b = {}

    def _two(self, s):
        if s not in self._ab:
            self._ab[s] = _conv_at(self.A, self.B, s) if 0 <= s <= len(self.A) + len(self.B) - 2 else mpmath.mpf(0)
        return self._ab[s]

    def b(self, s):
        if s not in self._b:
            self._b[s] = mpmath.fsum(self.C[i] * self._two(s - i) for i in range(len(self.C)))
        return self._b[s]

    def G(self, s):
        stop = min(self.top, s + int(25 * self.sd) + 25)
        return mpmath.fsum(self.b(x) for x in range(s, stop + 1))


LAWS = [  # (a, b, m, q): a two-group law at each end of k, one in between, and a fair-coin law
    (2999, 0, 0, 0.25),
    (1200, 1800, 0, q_of(1.0)),
    (0, 2600, 0, q_of(0.5)),
    (1500, 1100, 180, 0.25),
]


@pytest.mark.parametrize("a,b,m,q", LAWS)
def test_kernel_against_exact_laws(a, b, m, q):
    """b(x) and G(x) from the Fourier kernel at points from the mode to far in the tail (tilted at the saddle
    point of each stretch of points) are within their reported relative error bounds of EXACT, and those
    bounds are below 1e-9."""
    p = 1.0 - q
    ex = Exact(a, b, m, q)
    counts = np.array([[a, b, m]], dtype=float)
    r = np.array([p, q, 0.5])
    mu = a * p + b * q + m / 2
    for z in (0.3, 2.0, 4.5, 7.0):
        x0 = round(mu + z * ex.sd)
        theta = np.array([max(z, 1.5) / ex.sd])
        for _ in range(4):                            # the saddle point of x0
            _, _, mean, var = _saddle.tilted(counts, r, theta)
            theta = np.maximum(theta + (x0 - mean) / var, 1.5 / ex.sd)
        f = _saddle.at_points(counts, r, theta, np.array([x0 - 2.0]), 5)
        for i in range(5):
            x = x0 - 2 + i
            for name, lg, e, ref in (("b", f["lb"], f["eb"], ex.b(x)), ("G", f["lG"], f["eG"], ex.G(x))):
                err = abs(float(mpmath.exp(mpmath.mpf(float(lg[0, i])) - mpmath.log(ref)) - 1))
                assert e[0, i] < 1e-9, (name, z, x, e[0, i])
                assert err <= e[0, i], (name, z, x, err, e[0, i])


def _sort_eps(ex, q, delta):
    """SORT: the exact epsilon of (B + Ber(p), B + Ber(q)) over every outcome, the laws of EXACT."""
    n = ex.top + 1
    bs = [ex.b(s) for s in range(n)] + [mpmath.mpf(0)]
    q = mpmath.mpf(Fr(q).numerator) / Fr(q).denominator
    p = 1 - q
    U = [p * (bs[s - 1] if s else 0) + q * bs[s] for s in range(n + 1)]
    V = [q * (bs[s - 1] if s else 0) + p * bs[s] for s in range(n + 1)]
    return eps_exact_mp(U, V, delta)


@pytest.mark.parametrize("q,delta", [(0.25, 1e-6), (q_of(1.0), 1e-3)])
def test_epsilon_of_a_law_contains_the_exact_value(q, delta, monkeypatch):
    """n = 2200 records, all but the differing one equal to 1 (variance >= 400 at these q, so the kernel
    answers: the window is made to fail if it is called): the bracket of _eps_laws contains the SORT epsilon
    and is narrower than 1e-7 relative."""
    N = 2199
    monkeypatch.setattr(sr, "_eps_k_bracket", lambda *a: pytest.fail("the window was used"))
    ex = Exact(N, 0, 0, q)
    exact = _sort_eps(ex, q, mpmath.mpf(delta))
    up, lo = sr._eps_laws(np.array([[N, 0, 0]], dtype=float), q, np.array([delta]), 40.0)
    assert lo[0] <= exact <= up[0], (float(exact), lo[0], up[0])
    assert up[0] - lo[0] <= 1e-7 * up[0]


def test_a_certificate_without_its_crossing_check_understates(monkeypatch):
    """Negative control: with the points of the threshold form moved 15 places right of the maximiser
    (the tilted mean shifted), _eps_laws with its check that the exact crossing t* lies among the points
    moves them back and its bracket contains the exact epsilon; with that check turned off it returns the
    largest value among the wrong points, below the exact epsilon.  Reference: EXACT laws, the threshold
    value at every t right of the mode (kr.agg.threshold_form)."""
    q, delta = 0.25, 1e-6
    N = 2999
    ex = Exact(N, 0, 0, q)
    qm = mpmath.mpf(Fr(q).numerator) / Fr(q).denominator
    R = {}
    for t in range(int(N * (1 - q)), int(N * (1 - q) + 10 * ex.sd)):
        G, b1 = ex.G(t), ex.b(t - 1)
        R[t] = (G + (1 - qm) * b1 - delta) / (G + qm * b1)
    exact = mpmath.log(max(R.values()))
    law = np.array([[N, 0, 0]], dtype=float)
    shifted = _saddle.mean_tilt
    monkeypatch.setattr(_saddle, "mean_tilt", lambda *a: shifted(*a) + 15.0)
    up, lo = sr._eps_laws(law, q, np.array([delta]), 40.0)
    assert lo[0] <= exact <= up[0]
    monkeypatch.setattr(sr, "_CHECK_CROSSING", False)
    up, lo = sr._eps_laws(law, q, np.array([delta]), 40.0)
    assert up[0] < exact


def test_search_on_the_kernel_against_the_window_scan():
    """n = 3000, q = 1/4 (every law of variance >= 400, so the search uses the kernel only): the bracket of
    the complete search meets the WINDOW full scan's maximum (its upper ends bound the exact values from
    above, its lower ends from below), and the search evaluates fewer than a quarter of the k."""
    n, q, delta = 3000, 0.25, 1e-6
    p = 1 - q
    lt = -math.log(delta) + sr._L_MARGIN
    scan = [sr._eps_k_bracket(sr._Tails(n - 1, k, q, lt), p, q, delta) for k in range(n)]
    top_up = max(u for u, _ in scan)
    top_lo = max(lo for _, lo in scan)
    r = nm.aggregated_search(n, q, delta=delta)
    assert r.complete and r.evaluations < n / 4
    assert r.lower <= top_up and top_lo <= r.upper
    assert r.upper - r.lower <= 1e-7 * r.upper


@pytest.mark.parametrize("eps0", [0.5, 1.0, 2.0, 4.0])
def test_targets_of_the_national_scale(eps0):
    """The two targets in CPU time (process time): n = 10^8 to rtol = 1e-3 and the complete search at
    n = 10^6, each well under 1 s (measured: 0.02-0.04 s and 0.05-0.35 s), with brackets of the stated
    widths.  Reference for the values: the rtol bracket holds the complete search's value at 10^6."""
    import time

    q = q_of(eps0)
    nm.aggregated_epsilon(10**4, q, 1e-6)             # imports outside the measured calls
    t0 = time.process_time()
    cut = nm.aggregated_epsilon(10**8, q, 1e-6, rtol=1e-3)
    t1 = time.process_time()
    full = nm.aggregated_epsilon(10**6, q, 1e-6)
    t2 = time.process_time()
    assert cut.upper - cut.lower <= 1e-3 * cut.upper and not cut.complete
    assert full.complete and full.upper - full.lower <= 1e-7 * full.upper
    assert t1 - t0 < 1.0 and t2 - t1 < 1.0, (t1 - t0, t2 - t1)
    assert nm.aggregated_epsilon(10**6, q, 1e-6, rtol=1e-3).lower <= full.upper


def _hockey_exact(ex, q, eps):
    """H_eps(B + Ber(p) || B + Ber(q)) summed over every outcome, the laws of EXACT (no threshold form)."""
    n = ex.top + 1
    bs = [ex.b(s) for s in range(n)] + [mpmath.mpf(0)]
    q = mpmath.mpf(Fr(q).numerator) / Fr(q).denominator
    p = 1 - q
    E = mpmath.exp(mpmath.mpf(eps))
    out = mpmath.mpf(0)
    for s in range(n + 1):
        prev = bs[s - 1] if s else 0
        d = (p * prev + q * bs[s]) - E * (q * prev + p * bs[s])
        if d > 0:
            out += d
    return out


@pytest.mark.parametrize("a,b,q", [(2199, 0, 0.25), (900, 1300, q_of(1.0)), (0, 2600, q_of(0.5))])
def test_delta_of_a_law_contains_the_exact_value(a, b, q):
    """The profile's kernel (_delta_laws) at four eps: each bracket contains the hockey-stick divergence of
    the EXACT laws summed over every outcome, and is narrow (1e-6 relative where delta > 1e-30)."""
    eps0 = math.log((1 - q) / q)
    eps = np.array([0.0, 0.02, 0.1, 0.4]) * eps0
    up, lo = sr._delta_laws(np.array([[a, b, 0]], dtype=float), q, eps)
    assert np.all(np.isfinite(up))
    ex = Exact(a, b, 0, q)
    for j, e in enumerate(eps):
        exact = _hockey_exact(ex, q, float(e))
        assert lo[0, j] <= exact <= up[0, j], (e, lo[0, j], float(exact), up[0, j])
        if exact > 1e-30:
            assert up[0, j] - lo[0, j] <= 1e-6 * up[0, j]


def test_a_delta_without_its_crossing_check_understates(monkeypatch):
    """Negative control: with the points moved 15 places right of the maximiser, _delta_laws with its crossing
    check contains the exact delta, and without it returns a value below it.  Reference: the EXACT laws summed
    over every outcome."""
    q, a = 0.25, 2999
    e = 0.05 * math.log(3.0)
    exact = _hockey_exact(Exact(a, 0, 0, q), q, e)
    law = np.array([[a, 0, 0]], dtype=float)
    shifted = _saddle.mean_tilt
    monkeypatch.setattr(_saddle, "mean_tilt", lambda *x: shifted(*x) + 15.0)
    up, lo = sr._delta_laws(law, q, np.array([e]))
    assert lo[0, 0] <= exact <= up[0, 0]
    monkeypatch.setattr(sr, "_CHECK_CROSSING", False)
    up, _ = sr._delta_laws(law, q, np.array([e]))
    assert up[0, 0] < exact


def test_profile_search_on_the_kernel_against_the_window_scan():
    """n = 3000, q = 1/4: the profile's search (delta given eps, on the kernel) brackets the maximum of the
    WINDOW full scan at three eps, and the profile at 10^7 records takes under 5 s of CPU (measured 0.6 s;
    it took more than 60 s with the window)."""
    import time

    n, q = 3000, 0.25
    p = 1 - q
    eps = np.array([0.01, 0.05, 0.2])
    ends = [sr._delta_k_bracket(sr._Tails(n - 1, k, q, sr._L_PROFILE), p, q, eps) for k in range(n)]
    top_up = np.max([u for u, _ in ends], axis=0)
    top_lo = np.max([lo for _, lo in ends], axis=0)
    for j, e in enumerate(eps):
        r = nm.aggregated_search(n, q, epsilon=float(e))
        assert r.complete and r.lower <= top_up[j] and top_lo[j] <= r.upper, (e, r)
    t0 = time.process_time()
    d = nm.aggregated_profile(10**7, q_of(1.0), 7.8e-4)
    assert time.process_time() - t0 < 5.0 and 0 < d < 1


def test_near_one_half_the_gap_p_minus_q_is_exact():
    """q = 1/2 - 11 2^-54: 1 - q is not a float, and p - q of the rounded p was off by 2^-54 (a relative 1/11),
    which moved the certified crossing and gave epsilon 0 where the exact value is positive.  Reference: the
    law (4000, 4000) is symmetric about 4000, so G(4001) = (1 - b(4000))/2 exactly; b(s) by direct sums in
    mpmath at 40 digits (q exact), G at the other t from it, and epsilon the largest
    ln((G(t) + p b(t-1) - delta)/(G(t) + q b(t-1))) over t = 3980..4030 (it peaks at 4004 and falls on both
    sides: the threshold form, kr.agg.threshold_form)."""
    q, delta = 0.4999999999999994, 1e-17
    qm = mpmath.mpf(Fr(q).numerator) / Fr(q).denominator
    pm = 1 - qm
    A, B = _pmf(4000, Fr(1) - Fr(q)), _pmf(4000, Fr(q))
    b = {s: _conv_at(A, B, s) for s in range(3978, 4031)}
    G = {4001: (1 - b[4000]) / 2}
    for t in range(4002, 4031):
        G[t] = G[t - 1] - b[t - 1]
    for t in range(4000, 3979, -1):
        G[t] = G[t + 1] + b[t]
    R = {t: (G[t] + pm * b[t - 1] - delta) / (G[t] + qm * b[t - 1]) for t in range(3980, 4031)}
    top = max(R, key=R.get)
    assert 3980 < top < 4030
    exact = mpmath.log(R[top])
    up, lo = sr._eps_laws(np.array([[4000, 4000, 0]], dtype=float), q, np.array([delta]), 70.0)
    assert lo[0] <= exact <= up[0], (lo[0], float(exact), up[0])
    e = nm.aggregated_epsilon(8001, q, delta)
    assert e.upper >= exact
    tv = (pm - qm) * b[4000]                      # H_0 = (p - q) max_s b(s) for log-concave b
    assert nm.aggregated_profile(8001, q, 0.0) >= tv
