"""The exact epsilon of aggregated randomized response (k-randomization (003), Section 3: the
'TODO: max value of ratio'), delta = 1e-6, eps0 = ln(p/q) in {0.5, 1, 2, 4}.

1. CPU time of the certified branch and bound (``aggregated_search``) against the full scan over every
   k with the same per-k routine, n = 10^4 .. 10^8.  The branch and bound is run to completion where
   its evaluations fit the budget (measured); otherwise it is stopped after a fixed number of
   evaluations, which still gives a certified bracket, and its complete time is extrapolated from the
   growth of the evaluation count over the measured n (a power law through the last two measured n)
   times the per-evaluation cost measured at that n.  The full scan is measured at n = 10^4 (not in
   --quick) and extrapolated everywhere as n x the per-k cost (30 random k timed at that n).
2. The comparison table: n = 10^2 .. 10^8, the exact epsilon (a certified bracket where the search
   was stopped), the Feldman-McMillan-Talwar clone bound computed exactly (``fmt_clone_bound``), the
   values quoted for it, and the ratio exact / FMT.

0. (the default) One evaluation of eps_k(delta) at n = 10^6 and 10^8: the window (FFT convolution of the
   components, the route before the Fourier kernel) against the kernel of numeric._saddle, as a ratio.
3. (the default) The grid n = 10^6, 10^7, 10^8, eps0 = 0.5, 1, 2, 4, delta = 1e-6, in CPU time
   (process time): the complete search (its worst k, and how far the value at k = n - 1, every
   other record equal, lies below the maximum), the search stopped at rtol = 1e-3 (or at its CPU budget)
   at every n with the relative width of its certified bracket, and the Feldman-McMillan-Talwar bound
   evaluated in the same run, as ratios (epsilon / FMT's epsilon, CPU / FMT's CPU); the published values
   of Wang et al. (VLDB 2024) where the grid meets them.

Run:  python benchmarks/bench_shuffle_rr.py [--quick] [--scaling] [--budget SECONDS]
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from numeric import aggregated_epsilon, aggregated_search, fmt_clone_bound
from numeric import shuffle_rr as sr

DELTA = 1e-6
QUOTED = {(10**6, 4.0): 0.0501, (10**5, 2.0): 0.0452, (10**4, 1.0): 0.0550}
WANG = {(10**6, 4.0): 0.0343, (10**5, 2.0): 0.0332, (10**4, 1.0): 0.0432}     # Wang et al. 2024, printed


def q_of(eps0):
    return 1.0 / (1.0 + math.exp(eps0))


def per_k_seconds(n, q, reps=30, seed=0):
    """Seconds of one per-k evaluation (window + closed-form epsilon) at random k."""
    rng = np.random.default_rng(seed)
    lt = -math.log(DELTA) + sr._L_MARGIN
    p = 1.0 - q
    ks = rng.integers(0, n, reps)
    t0 = time.process_time()
    for k in ks:
        sr._eps_k(sr._Tails(n - 1, int(k), q, lt), p, q, DELTA)
    return (time.process_time() - t0) / reps


def full_scan_seconds(n, q):
    """CPU seconds of the full scan with the window, and the largest (upper, lower) ends over k."""
    lt = -math.log(DELTA) + sr._L_MARGIN
    p = 1.0 - q
    t0 = time.process_time()
    ends = [sr._eps_k_bracket(sr._Tails(n - 1, k, q, lt), p, q, DELTA) for k in range(n)]
    return time.process_time() - t0, (max(u for u, _ in ends), max(lo for _, lo in ends))


def cpu(f, *a, **kw):
    t0 = time.process_time()
    v = f(*a, **kw)
    return v, time.process_time() - t0


def value_at_last_k(n, q):
    """The certified value (upper, lower) at k = n - 1: every other record equal to the changed one's new value
    (by the route of the search: the Fourier kernel from variance 400, the window below)."""
    lt = -math.log(DELTA) + sr._L_MARGIN
    up, lo = sr._eps_laws(np.array([[n - 1, 0, 0]], dtype=float), q, np.array([DELTA]), lt)
    return float(up[0]), float(lo[0])


def per_evaluation(ns, eps0s, laws=256, seed=0):
    """CPU seconds of one evaluation of eps_k(delta) at random k: the window (FFT convolution of the components,
    one law a call: the route before the kernel) against the Fourier kernel (``laws`` laws a call, as the search
    batches them), and their ratio, in the same run."""
    rng = np.random.default_rng(seed)
    lt = -math.log(DELTA) + sr._L_MARGIN
    sr._eps_laws(np.array([[10**6, 0, 0]], dtype=float), 0.25, np.array([DELTA]), lt)   # imports, outside
    print("== 0. one evaluation: the window (one law a call) against the Fourier kernel (256 laws a call), "
          "CPU seconds ==")
    print(f"{'n':>9} {'eps0':>4} | {'window ms':>10} {'kernel ms':>10} {'window/kernel':>14}")
    for n in ns:
        for e0 in eps0s:
            q = q_of(e0)
            ks = rng.integers(0, n, laws)
            reps = 8 if n >= 10**8 else 30
            t0 = time.process_time()
            for k in ks[:reps]:
                sr._eps_k_bracket(sr._Tails(n - 1, int(k), q, lt), 1.0 - q, q, DELTA)
            w = (time.process_time() - t0) / reps
            rows = np.stack([ks, n - 1 - ks, np.zeros(laws)], axis=1).astype(float)
            t0 = time.process_time()
            sr._eps_laws(rows, q, np.full(laws, DELTA), lt, None)
            kr = (time.process_time() - t0) / laws
            print(f"{n:>9.0e} {e0:>4} | {1e3 * w:>10.3f} {1e3 * kr:>10.4f} {w / kr:>14.0f}", flush=True)


def grid(ns, eps0s, budget, complete_max):
    aggregated_epsilon(1000, q_of(1.0), DELTA)           # imports and caches outside the measured calls
    fmt_clone_bound(1000, 1.0, DELTA)
    print("== 3. the grid, delta = 1e-6, CPU seconds (process time); FMT = Feldman-McMillan-Talwar evaluated "
          "exactly in this run ==")
    print(f"{'n':>9} {'eps0':>4} | {'complete: CPU s':>15} {'evals':>6} {'worst k':>10} {'n-1-k':>6} "
          f"{'excess over n-1':>17} | {'rtol=1e-3: CPU s':>16} {'evals':>6} {'width':>8} {'done':>4} "
          f"{'eps (upper)':>12} | {'FMT eps':>10} {'FMT CPU s':>9} | {'eps/FMT':>7} {'CPU/FMT':>7} {'Wang':>6}")
    for n in ns:
        for e0 in eps0s:
            q = q_of(e0)
            full = "-"
            if n <= complete_max:
                r, t = cpu(aggregated_epsilon, n, q, DELTA, cpu_budget=budget)
                up_last, lo_last = value_at_last_k(n, q)
                # the maximum's relative excess over the value at k = n - 1, bracketed by the certified ends
                gap = f"{max((r.lower - up_last) / r.upper, 0.0):.1e}..{(r.upper - lo_last) / r.upper:.1e}"
                full = (f"{t:>15.3g} {r.evaluations:>6} {r.worst_k:>10} {n - 1 - r.worst_k:>6} "
                        f"{gap:>17}" + ("" if r.complete else " (budget)"))
            else:
                full = f"{'':>15} {'':>6} {'':>10} {'':>6} {'':>17}"
            c, tc = cpu(aggregated_epsilon, n, q, DELTA, rtol=1e-3, cpu_budget=budget)
            width = (c.upper - c.lower) / c.upper
            f, tf = cpu(fmt_clone_bound, n, e0, DELTA)
            wang = WANG.get((n, e0))
            print(f"{n:>9.0e} {e0:>4} | {full} | {tc:>16.3g} {c.evaluations:>6} {width:>8.2e} "
                  f"{'yes' if width <= 1e-3 else 'no':>4} {c.upper:>12.6g} | {f:>10.6g} {tf:>9.3g} | "
                  f"{c.upper / f:>7.3f} {tc / tf:>7.2f} {wang if wang else '':>6}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="n <= 10^5, eps0 in {1, 4}, small budgets")
    ap.add_argument("--scaling", action="store_true", help="sections 1 and 2 (the growth of the search, "
                                                          "n = 10^2 .. 10^8) instead of the grid")
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds per search in the grid")
    args = ap.parse_args()
    if not args.scaling:
        if args.quick:
            per_evaluation([10**6], [1.0, 4.0])
            grid([10**5, 10**6], [1.0, 4.0], args.budget, 10**6)
        else:
            per_evaluation([10**6, 10**8], [0.5, 1.0, 2.0, 4.0])
            grid([10**6, 10**7, 10**8], [0.5, 1.0, 2.0, 4.0], args.budget, 10**8)
        return
    eps0s = [1.0, 4.0] if args.quick else [0.5, 1.0, 2.0, 4.0]
    top = 5 if args.quick else 8
    budget = 1500 if not args.quick else 300          # evaluations of a stopped search
    full_limit = 8000 if not args.quick else 1500     # run to completion when expected below this

    runs = {}
    print("== 1. branch and bound against the full scan (delta = 1e-6) ==")
    print(f"{'eps0':>5} {'n':>10} {'worst k':>10} {'evals':>7} {'B&B s':>9} {'how':>12} "
          f"{'per-k ms':>9} {'scan s':>10} {'how':>12} {'scan/B&B':>9}")
    for e0 in eps0s:
        q = q_of(e0)
        measured = []                                  # (n, evaluations) of complete searches
        for j in range(2, top + 1):
            n = 10**j
            expect = None
            if len(measured) >= 2:
                (n1, e1), (n2, e2) = measured[-2:]
                expect = e2 * (n / n2) ** (math.log(e2 / e1) / math.log(n2 / n1))
            complete = expect is None or expect <= full_limit
            r = aggregated_search(n, q, delta=DELTA, max_evaluations=None if complete else budget)
            runs[(n, e0)] = r
            if r.complete:
                measured.append((n, r.evaluations))
                bb, how = r.seconds, "measured"
            else:
                bb, how = expect * r.seconds / r.evaluations, "extrapolated"
            if j < 4:
                continue
            pk = per_k_seconds(n, q)
            if n == 10**4 and not args.quick:
                scan, (top, bottom) = full_scan_seconds(n, q)
                assert r.lower <= top and bottom <= r.upper, (top, bottom, r)   # the certificate, once more
                scan_how = "measured"
            else:
                scan, scan_how = n * pk, "extrapolated"
            print(f"{e0:>5} {n:>10} {r.worst_k:>10} {r.evaluations:>7} {bb:>9.3g} {how:>12} "
                  f"{1e3 * pk:>9.3f} {scan:>10.3g} {scan_how:>12} {scan / bb:>9.3g}", flush=True)

    print("\n== 2. exact epsilon against the Feldman-McMillan-Talwar clone bound (delta = 1e-6) ==")
    print(f"{'eps0':>5} {'n':>10} {'exact eps (certified)':>30} {'FMT (exact eval.)':>18} {'quoted':>8} "
          f"{'exact/FMT':>10}")
    for e0 in eps0s:
        for j in range(2, top + 1):
            n = 10**j
            r = runs[(n, e0)]
            f = fmt_clone_bound(n, e0, DELTA)
            ex = f"{r.value:.6g}" if r.complete else f"[{r.lower:.6g}, {r.upper:.6g}]"
            quoted = QUOTED.get((n, e0))
            ratio = f"{r.value / f:.3f}" if r.complete else f"{r.lower / f:.3f}-{r.upper / f:.3f}"
            print(f"{e0:>5} {n:>10} {ex:>30} {f:>18.6g} {quoted if quoted else '':>8} {ratio:>10}", flush=True)


if __name__ == "__main__":
    main()
