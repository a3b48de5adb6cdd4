"""Speed and accuracy of the exact law of AboveThreshold (private-deciles (001), Section 2.1), measured
against baselines in the same run:

1. ``numeric.above_threshold_pmf`` on a small instance (K = 6) against mpmath.quad at 30 digits (split at every
   kink) and against scipy.integrate.quad of the same integrand (split at the kinks, default tolerances):
   time ratios and worst relative errors against the mpmath values;
2. at K = 10^3, 10^4 (and 10^5 without ``--quick``) on cumulative counts of a sorted uniform sample (the
   histogram method's queries, threshold n/2) and on random values: time of the exact law, |sum - 1|, and the
   largest difference from numeric.quantile_mechanisms' fixed-rule Gauss-Legendre law (absolute error
   K e^-40) with its time;
3. CPU time (time.process_time) of the exact law at K = 10^3, 10^4 (and 10^5 without ``--quick``): the shared
   tree of sub-intervals (the default) against the per-output planner (``numeric.above_threshold._SHARED =
   False``) at the same K, as ratios, and the per-output planner against the earlier evaluation of the same
   quadrature (``_REFERENCE``) at K = 10^3, bit for bit;
4. the exact law against seeded Monte Carlo of ``numeric.above_threshold`` at equal accuracy: the number of
   runs whose standard error on the largest entry equals the law's error bound (1e-12 relative) is
   extrapolated from the time of 10^5 runs.

Run:  python benchmarks/bench_above_threshold.py [--quick]
"""
from __future__ import annotations

import argparse
import importlib
import math
import time

import numpy as np

from _timing import best_of
from numeric import above_threshold, above_threshold_pmf
from numeric.quantile_mechanisms import _above_threshold_law


def mp_law(y, T, bT, b, dps=30):
    import mpmath as mp
    with mp.workdps(dps + 15):
        ym = [mp.mpf(v) for v in y]
        Tm, bTm, bm = mp.mpf(T), mp.mpf(bT), mp.mpf(b)

        def F(x):
            return mp.exp(x / bm) / 2 if x < 0 else 1 - mp.exp(-x / bm) / 2
        out = []
        for k in range(len(y) + 1):
            def f(t, k=k):
                v = mp.exp(-abs(t - Tm) / bTm) / (2 * bTm)
                for i in range(k):
                    v *= F(t - ym[i])
                return v * (1 - F(t - ym[k])) if k < len(y) else v
            kinks = sorted(set([Tm] + ym[:k + 1]))
            out.append(mp.quad(f, [-mp.inf] + kinks + [mp.inf], method="gauss-legendre"))
        return out


def scipy_law(y, T, bT, b):
    from scipy.integrate import quad
    y = np.asarray(y, float)

    def F(x):
        return 0.5 * math.exp(x / b) if x < 0 else 1.0 - 0.5 * math.exp(-x / b)
    out = []
    for k in range(y.size + 1):
        def f(t, k=k):
            v = math.exp(-abs(t - T) / bT) / (2 * bT)
            for i in range(k):
                v *= F(t - y[i])
            return v * (1.0 - F(t - y[k])) if k < y.size else v
        kinks = sorted(set([T] + list(y[:k + 1])))
        tot = quad(f, -np.inf, kinks[0])[0] + quad(f, kinks[-1], np.inf)[0]
        tot += sum(quad(f, a, c)[0] for a, c in zip(kinks[:-1], kinks[1:]))
        out.append(tot)
    return np.array(out)


def cumulative_counts(K, seed=1):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.random(10 * K))
    return np.searchsorted(x, np.arange(1, K + 1) / K).astype(float)


def cpu_of(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def cpu_scaling(quick: bool) -> None:
    """CPU of above_threshold_pmf (the shared tree, the default) against the per-output planner (the module's
    _SHARED = False) at K = 10^3, 10^4 (and 10^5 without --quick), as ratios in the same run; the per-output
    planner against the earlier evaluation of the same quadrature (_REFERENCE) at K = 10^3, bit for bit."""
    mod = importlib.import_module("numeric.above_threshold")
    Ks = (10**3, 10**4) if quick else (10**3, 10**4, 10**5)
    print("CPU (process_time) of the exact law: shared tree (default) against the per-output planner:")
    for name in ("counts", "random"):
        def inst(K):
            if name == "counts":
                return cumulative_counts(K), 5.0 * K
            return np.random.default_rng(K).uniform(-K / 10, K / 10, K), 0.0
        above_threshold_pmf(*inst(10), 1.0)                     # imports and caches outside the timings
        y3, T3 = inst(10**3)
        try:
            mod._SHARED = False
            per3 = above_threshold_pmf(y3, T3, 1.0)
            mod._REFERENCE = True
            ref3 = above_threshold_pmf(y3, T3, 1.0)
        finally:
            mod._SHARED, mod._REFERENCE = True, False
        same = "bit for bit" if np.array_equal(ref3, per3) else f"max |difference| {np.max(np.abs(per3 - ref3)):.1e}"
        parts = []
        for K in Ks:
            yK, TK = inst(K)
            c = cpu_of(lambda: above_threshold_pmf(yK, TK, 1.0))
            try:
                mod._SHARED = False
                c_per = cpu_of(lambda: above_threshold_pmf(yK, TK, 1.0))
            finally:
                mod._SHARED = True
            parts.append(f"K = {K}: {c:.2f} s against {c_per:.2f} s ({c_per / c:.1f}x)")
        print(f"  {name:7s}: " + "; ".join(parts))
        print(f"           per-output planner against the earlier evaluation at K = 10^3: {same}")


def main(quick: bool) -> None:
    import mpmath as mp
    y, T, eps = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0], 2.0, 1.0
    bT, b = 2.0 / eps, 4.0 / eps
    ours = best_of(lambda: above_threshold_pmf(y, T, eps), 5)
    t_mp = best_of(lambda: mp_law(y, T, bT, b), 1)
    t_sp = best_of(lambda: scipy_law(y, T, bT, b), 3)
    ref = mp_law(y, T, bT, b)
    p, s = above_threshold_pmf(y, T, eps), scipy_law(y, T, bT, b)

    def rel(v):
        return max(float(abs(mp.mpf(float(a)) / r - 1)) for a, r in zip(v, ref))
    print(f"K = 6: above_threshold_pmf {ours * 1e3:.2f} ms; mpmath.quad (30 digits) {t_mp * 1e3:.0f} ms "
          f"({t_mp / ours:.0f}x); scipy quad {t_sp * 1e3:.1f} ms ({t_sp / ours:.1f}x)")
    print(f"  worst relative error against mpmath: above_threshold_pmf {rel(p):.1e}, scipy quad {rel(s):.1e}")

    print("large K (eps = 1, query noise 4/eps), one run each:")
    for K in ((10**3, 10**4) if quick else (10**3, 10**4, 10**5)):
        rng = np.random.default_rng(K)
        for name, yy, TT in (("counts", cumulative_counts(K), 5.0 * K), ("random", rng.uniform(-K / 10, K / 10, K), 0.0)):
            t = best_of(lambda: above_threshold_pmf(yy, TT, 1.0), 1)
            t_gl = best_of(lambda: _above_threshold_law(yy, TT, 2.0, 4.0), 1)
            pk = above_threshold_pmf(yy, TT, 1.0)
            d = float(np.max(np.abs(pk - _above_threshold_law(yy, TT, 2.0, 4.0))))
            faster = f"that one {t / t_gl:.0f}x faster" if t_gl < t else f"the exact law {t_gl / t:.1f}x faster"
            print(f"  K = {K:6d} {name:7s}: exact law {t:7.2f} s ({t / K * 1e3:.2f} ms per output), "
                  f"|sum - 1| = {abs(math.fsum(pk) - 1):.1e}; fixed-rule law {t_gl:6.3f} s "
                  f"({faster}; max |difference| {d:.1e})")

    cpu_scaling(quick)

    yy = cumulative_counts(1000)
    pk = above_threshold_pmf(yy, 5000.0, 1.0)
    m = 10**5
    t_mc = best_of(lambda: above_threshold(yy, 5000.0, 1.0, rng=3, size=m), 1)
    t_ex = best_of(lambda: above_threshold_pmf(yy, 5000.0, 1.0), 1)
    pm = float(pk.max())
    need = pm * (1 - pm) / (1e-12 * pm) ** 2          # runs for a standard error of 1e-12 P on the largest entry
    print(f"Monte Carlo, K = 1000 counts: 10^5 runs {t_mc:.2f} s; equal accuracy (SE = 1e-12 relative on P = "
          f"{pm:.3f}) needs {need:.1e} runs, about {t_mc * need / m:.1e} s ({t_mc * need / m / t_ex:.1e}x the exact "
          f"law's {t_ex:.2f} s)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    main(ap.parse_args().quick)
