"""The exact epsilon of aggregated randomized response (k-randomization (003), Section 3: the
'TODO: max value of ratio'), delta = 1e-6, eps0 = ln(p/q) in {0.5, 1, 2, 4}.

1. Timing of the certified branch and bound (``aggregated_search``) against the full scan over every
   k with the same per-k routine, n = 10^4 .. 10^8.  The branch and bound is run to completion where
   its evaluations fit the budget (measured); otherwise it is stopped after a fixed number of
   evaluations, which still gives a certified bracket, and its complete time is extrapolated from the
   growth of the evaluation count over the measured n (a power law through the last two measured n)
   times the per-evaluation cost measured at that n.  The full scan is measured at n = 10^4 (not in
   --quick) and extrapolated everywhere as n x the per-k cost (30 random k timed at that n).
2. The comparison table: n = 10^2 .. 10^8, the exact epsilon (a certified bracket where the search
   was stopped), the Feldman-McMillan-Talwar clone bound computed exactly (``fmt_clone_bound``), the
   values quoted for it, and the ratio exact / FMT.

Run:  python benchmarks/bench_shuffle_rr.py [--quick]
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from numeric import aggregated_search, fmt_clone_bound
from numeric import shuffle_rr as sr

DELTA = 1e-6
QUOTED = {(10**6, 4.0): 0.0501, (10**5, 2.0): 0.0452, (10**4, 1.0): 0.0550}


def q_of(eps0):
    return 1.0 / (1.0 + math.exp(eps0))


def per_k_seconds(n, q, reps=30, seed=0):
    """Seconds of one per-k evaluation (window + closed-form epsilon) at random k."""
    rng = np.random.default_rng(seed)
    lt = -math.log(DELTA) + sr._L_MARGIN
    p = 1.0 - q
    ks = rng.integers(0, n, reps)
    t0 = time.perf_counter()
    for k in ks:
        sr._eps_k(sr._Tails(n - 1, int(k), q, lt), p, q, DELTA)
    return (time.perf_counter() - t0) / reps


def full_scan_seconds(n, q):
    lt = -math.log(DELTA) + sr._L_MARGIN
    p = 1.0 - q
    t0 = time.perf_counter()
    best = max(sr._eps_k(sr._Tails(n - 1, k, q, lt), p, q, DELTA) for k in range(n))
    return time.perf_counter() - t0, best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="n <= 10^5, eps0 in {1, 4}, small budgets")
    args = ap.parse_args()
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
                scan, best = full_scan_seconds(n, q)
                assert best == r.value, (best, r.value)       # the certificate, once more
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
