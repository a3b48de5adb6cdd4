"""Speed and accuracy of the HT-mechanism numerics, as ratios against baselines measured in the same run.

1. ``srs_binary_log_pmf`` (Loader's saddle point, long double) against the gammaln difference and
   against ``scipy.stats.hypergeom.logpmf``: time per point, and the worst relative error of the
   pmf against mpmath at 50 digits, for N up to 10^7.
2. ``delta_bruteforce`` for b > 0 (closed form between atoms, mpmath) against direct adaptive
   quadrature (mpmath.quad with the atoms as breakpoints) of the same delta.

Run:  python benchmarks/bench_ht_mechanism.py
"""
from __future__ import annotations

import itertools

import mpmath
import numpy as np
from scipy.special import gammaln
from scipy.stats import hypergeom

from _timing import best_of
from numeric import delta_bruteforce, ht_atoms, srs_binary_log_pmf


def naive_log_pmf(y, t, N, n):
    return (gammaln(t + 1) - gammaln(y + 1) - gammaln(t - y + 1) + gammaln(N - t + 1) - gammaln(n - y + 1)
            - gammaln(N - t - n + y + 1) - gammaln(N + 1) + gammaln(n + 1) + gammaln(N - n + 1))


def mp_pmf(y, t, N, n):
    with mpmath.workdps(50):
        return mpmath.binomial(t, y) * mpmath.binomial(N - t, n - y) / mpmath.binomial(N, n)


def hypergeometric():
    print("1. log pmf of the sample count (SRS on binary data): 10^6 points per call; errors on 200 points")
    print(f"{'N':>9} {'loader [s]':>11} {'gammaln [s]':>12} {'scipy [s]':>10} "
          f"{'err loader':>11} {'err gammaln':>12} {'err scipy':>10}")
    rng = np.random.default_rng(1)
    for N in (10**3, 10**5, 10**7):
        n = N // 10
        t = rng.integers(n, N - n, 10**6)
        # y around the mode, within 6 standard deviations (where the pmf is not negligible)
        sd = np.sqrt(n * 0.25)
        y = np.clip(np.rint(t * n / N + rng.normal(0, 2 * sd, t.size)), 0, n).astype(np.int64)
        times = (best_of(lambda: srs_binary_log_pmf(y, t, N, n), repeat=3),
                 best_of(lambda: naive_log_pmf(y, t, N, n), repeat=3),
                 best_of(lambda: hypergeom.logpmf(y, N, t, n), repeat=1))
        idx = rng.choice(t.size, 200, replace=False)
        ref = np.array([float(mpmath.log(mp_pmf(int(y[k]), int(t[k]), N, n))) for k in idx])
        errs = []
        for values in (srs_binary_log_pmf(y[idx], t[idx], N, n), naive_log_pmf(y[idx], t[idx], N, n),
                       hypergeom.logpmf(y[idx], N, t[idx], n)):
            errs.append(np.max(np.abs(np.expm1(values - ref))))   # relative error of the pmf
        print(f"{N:>9} {times[0]:>11.3f} {times[1]:>12.3f} {times[2]:>10.3f} "
              f"{errs[0]:>11.1e} {errs[1]:>12.1e} {errs[2]:>10.1e}")
    print("   (speed ratio loader/gammaln is the price of ~5 more correct digits at N = 10^7)")


def quad_delta(samples, probs, x, xp, eps, b):
    ax, _ = ht_atoms(samples, probs, x)
    axp, _ = ht_atoms(samples, probs, xp)
    with mpmath.workdps(20):
        def g(z):
            fx = sum(p * mpmath.exp(-abs(z - a) / b) for a, p in zip(ax, probs))
            fy = sum(p * mpmath.exp(-abs(z - a) / b) for a, p in zip(axp, probs))
            return max(fx - mpmath.e**eps * fy, 0) / (2 * b)
        pts = sorted(set(ax.tolist()) | set(axp.tolist()))
        return float(mpmath.quad(g, [-mpmath.inf] + pts + [mpmath.inf]))


def delta_exact_vs_quadrature():
    print("\n2. delta(eps, x, x') with Laplace noise: closed form between atoms vs adaptive quadrature")
    print(f"{'design':>12} {'closed [s]':>11} {'quad [s]':>9} {'speed-up':>9} {'|diff|':>9}")
    for N, n in ((6, 2), (8, 3), (10, 4)):
        samples = list(itertools.combinations(range(N), n))
        probs = [1 / len(samples)] * len(samples)
        x = [float(v) for v in np.arange(N) % 3]
        xp = list(x)
        xp[0] += 2.0
        t_closed = best_of(lambda: delta_bruteforce(samples, probs, x, xp, 0.5, 1.0), repeat=3)
        t_quad = best_of(lambda: quad_delta(samples, probs, x, xp, 0.5, 1.0), repeat=1)
        diff = abs(delta_bruteforce(samples, probs, x, xp, 0.5, 1.0) - quad_delta(samples, probs, x, xp, 0.5, 1.0))
        print(f"{f'SRS {N}/{n}':>12} {t_closed:>11.4f} {t_quad:>9.3f} {t_quad / t_closed:>8.0f}x {diff:>9.1e}")


if __name__ == "__main__":
    hypergeometric()
    delta_exact_vs_quadrature()
