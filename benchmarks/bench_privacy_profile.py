"""Speed and accuracy of the exact privacy profile, as ratios against baselines measured in the same run.

1. One pair of SRS on binary data, N = 10^4, n = 500 (a middle pair, ~300 atoms, and the worst
   pair): the closed form against scipy ``quad`` of (f_x - e^eps f_x')_+ split at every atom
   (the baseline), both against mpmath ``quad`` at 30 digits (the accuracy reference).
2. The full supremum over every neighbouring pair of totals in [0, N] (``privacy_profile``) against
   the same search done by quadrature (extrapolated from five of the pairs it visits).
3. Scaling of the full supremum in N and n (up to N = 10^6, n = 10^4), with the exact scale b for
   (eps, delta) = (1, 1e-6) and half of it.

Run:  python benchmarks/bench_privacy_profile.py
"""
from __future__ import annotations

import math
import time

import mpmath
import numpy as np
from scipy.integrate import quad

from _timing import best_of
from numeric import SRS, BinaryDomain, calibrate_scale, privacy_profile, srs_binary_log_pmf
from numeric.profile.search.binary import SRSFamily, pair_deltas

N, n, EPS = 10_000, 500, 0.5


def laws(t):
    """Atoms (N/n) y and the two hypergeometric laws f_t, f_{t+1} on the y where either is > 1e-40."""
    y = np.arange(0, n + 1)
    p0 = np.exp(srs_binary_log_pmf(y, t, N, n))
    p1 = np.exp(srs_binary_log_pmf(y, t + 1, N, n))
    keep = (p0 > 1e-40) | (p1 > 1e-40)
    return (N / n) * y[keep], p0[keep], p1[keep]


def scipy_delta(t, b, up=True):
    a, p0, p1 = laws(t)
    w = p0 - math.exp(EPS) * p1 if up else p1 - math.exp(EPS) * p0

    def integrand(z):
        return max(float(np.sum(w * np.exp(-np.abs(z - a) / b))) / (2 * b), 0.0)

    edges = np.concatenate([[a[0] - 60 * b], a, [a[-1] + 60 * b]])
    return sum(quad(integrand, lo, hi, epsabs=1e-15, epsrel=1e-12, limit=200)[0]
               for lo, hi in zip(edges[:-1], edges[1:]))


def mpmath_delta(t, b):
    """Accuracy reference: mpmath.quad at 30 digits, split at every atom and at every sign change of
    the integrand (found by bisection in mpmath), so that each piece is smooth."""
    a, p0, p1 = laws(t)
    with mpmath.workdps(30):
        am = [mpmath.mpf(float(v)) for v in a]
        wm = [mpmath.mpf(float(u)) - mpmath.exp(EPS) * mpmath.mpf(float(v)) for u, v in zip(p0, p1)]
        bm = mpmath.mpf(b)

        def d(z):
            return mpmath.fsum(wk * mpmath.exp(-abs(z - ak) / bm) for wk, ak in zip(wm, am)) / (2 * bm)

        pts = [am[0] - 60 * bm] + am + [am[-1] + 60 * bm]
        cuts = []
        for lo, hi in zip(pts[:-1], pts[1:]):
            cuts.append(lo)
            if d(lo) * d(hi) < 0:
                cuts.append(mpmath.findroot(d, (lo, hi), solver="bisect"))
        cuts.append(pts[-1])
        return float(mpmath.quad(lambda z: max(d(z), 0), cuts))


def one_pair():
    print(f"1. one pair, SRS N = {N}, n = {n}, eps = {EPS}: closed form vs scipy quad (split at every atom)")
    fam = SRSFamily(N, n)
    print(f"{'pair':>16} {'atoms':>6} {'b':>6} {'closed [s]':>11} {'quad [s]':>9} {'ratio':>8} "
          f"{'|closed - mp|':>14} {'|quad - mp|':>12}")
    for t, b in ((N // 2, 2.0), (N // 2, 20.0), (N - 1, 5.0)):
        tt, up = np.array([t]), np.array([True])
        closed = float(pair_deltas(fam, tt, up, EPS, b, "laplace")[0])
        t_closed = best_of(lambda: pair_deltas(fam, tt, up, EPS, b, "laplace"), repeat=20)
        t0 = time.perf_counter()
        via_quad = scipy_delta(t, b)
        t_quad = time.perf_counter() - t0
        ref = mpmath_delta(t, b)
        atoms = laws(t)[0].size
        print(f"{f'{t} -> {t + 1}':>16} {atoms:>6} {b:>6g} {t_closed:>11.2e} {t_quad:>9.2f} "
              f"{t_quad / t_closed:>8.0f} {abs(closed - ref):>14.1e} {abs(via_quad - ref):>12.1e}")



def full_supremum():
    """The profile value delta(eps) is a supremum over pairs: the quadrature route would integrate
    every pair the (same, pruned) search visits.  Its time is extrapolated from the quadrature of
    five of those pairs, chosen at random."""
    import numeric.profile.search.binary as pb

    design, domain = SRS(N, n), BinaryDomain(N)
    print(f"\n2. delta(eps = {EPS}) = sup over all {2 * N} ordered pairs of totals in [0, {N}]")
    print(f"{'b':>6} {'delta':>10} {'pairs':>6} {'exact [s]':>10} {'per pair [s]':>13} "
          f"{'quad per pair [s]':>18} {'quad route [s]':>15} {'ratio':>8}")
    rng = np.random.default_rng(0)
    t_all = np.concatenate([np.arange(N), np.arange(N)])
    up_all = np.repeat([True, False], N)
    for b in (2.0, 5.0, 20.0):
        visited = []
        original = pb.pair_deltas

        def counting(fam, t, up, *rest):
            visited.extend(zip(t.tolist(), up.tolist()))
            return original(fam, t, up, *rest)

        pb.pair_deltas = counting
        try:
            delta = float(privacy_profile(design, domain, b, EPS))
        finally:
            pb.pair_deltas = original
        t_sup = best_of(lambda: privacy_profile(design, domain, b, EPS), repeat=3)
        picks = [visited[k] for k in rng.choice(len(visited), 5, replace=False)]
        t0 = time.perf_counter()
        for t, up in picks:
            scipy_delta(t, b, up)
        q = (time.perf_counter() - t0) / len(picks)
        total = q * len(visited)
        print(f"{b:>6g} {delta:>10.3e} {len(visited):>6} {t_sup:>10.3f} {t_sup / len(visited):>13.1e} "
              f"{q:>18.3f} {total:>15.0f} {total / t_sup:>8.0f}   (pruned search)")
        t_full = best_of(lambda: privacy_profile(design, domain, b, EPS, prune=False), repeat=1)
        t0 = time.perf_counter()
        for k in rng.choice(len(t_all), 5, replace=False):
            scipy_delta(int(t_all[k]), b, bool(up_all[k]))
        q = (time.perf_counter() - t0) / 5
        total = q * len(t_all)
        print(f"{'':>6} {'':>10} {len(t_all):>6} {t_full:>10.3f} {t_full / len(t_all):>13.1e} "
              f"{q:>18.3f} {total:>15.0f} {total / t_full:>8.0f}   (every pair)")


def scaling():
    import numeric.profile.search.binary as pb

    print("\n3. full supremum over [0, N], one eps (cold: pruning bounds included); "
          "b = exact scale for (1, 1e-6) and half of it")
    print(f"{'N':>9} {'n':>7} {'b':>10} {'delta':>10} {'time [s]':>9} {'b/2: delta':>11} {'time [s]':>9}")
    for NN, nn in ((10**4, 100), (10**4, 500), (10**5, 1000), (10**5, 5000), (10**6, 10**4), (10**6, 5 * 10**4)):
        design, domain = SRS(NN, nn), BinaryDomain(NN)
        b = calibrate_scale(design, domain, 1.0, 1e-6)
        row = []
        for scale in (b, b / 2):
            pb._RANKED.clear()          # cold: the pruning bounds of every pair are computed again
            t0 = time.perf_counter()
            d = float(privacy_profile(design, domain, scale, 1.0))
            row += [d, time.perf_counter() - t0]
        print(f"{NN:>9} {nn:>7} {b:>10.4g} {row[0]:>10.3e} {row[1]:>9.2f} {row[2]:>11.3e} {row[3]:>9.2f}")


if __name__ == "__main__":
    one_pair()
    full_supremum()
    scaling()
