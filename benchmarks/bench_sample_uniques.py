"""The numerical example of Shlomo and Skinner, Section 3 (shlomo-skinner (002)): N = 10^6 units,
16 Bernoulli(0.2) keys, 1000 simple random samples of n = 5000 and of n = 10000, the proportion of
sample uniques that are population uniques.

Measured in the same run:

1. ``numeric.simulate_sample_uniques`` for both n, against the 60 s target, and against a naive
   per-sample baseline (``rng.choice`` with its default shuffle, then ``np.unique`` with counts and a
   dictionary lookup of the population counts), timed on fewer samples and scaled to 1000;
2. three ways of drawing the samples, per sample: ``Generator.choice(replace=False, shuffle=False)``
   one sample at a time (Floyd's algorithm, the method used), a batched draw of a chunk of samples
   with replacement and rejection of repeats (first n distinct of each row), and random keys with
   ``argpartition`` (O(N) per sample).

Run:  python benchmarks/bench_sample_uniques.py [--quick]
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from _timing import best_of
from numeric import expected_unique_proportion, simulate_sample_uniques

TARGET = 60.0   # seconds for the full example, one n


def naive_per_sample(N, n, n_keys, p_key, reps, seed):
    """Seconds per sample of the naive loop (population and dictionary built outside the timing)."""
    rng = np.random.default_rng(seed)
    cell = np.zeros(N, dtype=np.int64)
    for j in range(n_keys):
        cell |= (rng.random(N) < p_key).astype(np.int64) << j
    F = Counter(cell.tolist())
    t0 = time.perf_counter()
    for _ in range(reps):
        vals, cnt = np.unique(cell[rng.choice(N, n, replace=False)], return_counts=True)
        su = vals[cnt == 1]
        _ = sum(F[int(v)] == 1 for v in su) / max(len(su), 1)
    return (time.perf_counter() - t0) / reps


def draw_choice(rng, N, n, reps):
    return np.stack([rng.choice(N, n, replace=False, shuffle=False) for _ in range(reps)])


def draw_batched(rng, N, n, reps, chunk=100):
    """First n distinct of rows of draws with replacement (a row short of n distinct is redrawn)."""
    extra = int(4 * n * n / N) + 64            # about 4x the expected number of repeats
    out = np.empty((reps, n), dtype=np.int64)
    done = 0
    while done < reps:
        r = min(chunk, reps - done)
        d = rng.integers(0, N, size=(r, n + extra))
        order = np.argsort(d, axis=1, kind="stable")
        s = np.take_along_axis(d, order, axis=1)
        first = np.ones_like(s, dtype=bool)
        first[:, 1:] = s[:, 1:] != s[:, :-1]          # stable: the first occurrence in draw order
        keep = np.zeros_like(first)
        np.put_along_axis(keep, order, first, axis=1)
        pos = np.cumsum(keep, axis=1)
        good = pos[:, -1] >= n
        sel = keep & (pos <= n)
        rows = d[good][sel[good]].reshape(-1, n)
        out[done:done + rows.shape[0]] = rows
        done += rows.shape[0]
    return out


def draw_keys(rng, N, n, reps):
    return np.stack([np.argpartition(rng.random(N), n)[:n] for _ in range(reps)])


def main(quick: bool):
    N, reps, sizes, naive_reps = (10**5, 100, (500, 1000), 20) if quick else (10**6, 1000, (5000, 10000), 50)
    K, p = 16, 0.2
    print(f"Section 3 example: N = {N}, {K} keys, p = {p}, {reps} samples per n (target {TARGET:.0f} s per n)")
    print("simulate = population + all samples; samples = simulate minus a run with 2 samples; the naive loop")
    print(f"is timed on {naive_reps} samples (population and dictionary built outside its timing) and scaled.")
    print(f"{'n':>6} {'simulate [s]':>13} {'vs target':>10} {'samples [s]':>12} {'naive, scaled [s]':>18} "
          f"{'speed-up':>9} {'mean +- SE':>18} {'conditional':>12} {'multinomial':>12} {'poisson':>9}")
    for n in sizes:
        res = {}

        def run():
            res["r"] = simulate_sample_uniques(N, n, K, p, reps, 2012)
        t = best_of(run, repeat=3)
        t_pop = best_of(lambda: simulate_sample_uniques(N, n, K, p, 2, 2012), repeat=3)
        t_samples = max(t - t_pop, 1e-9)
        r = res["r"]
        t_naive = naive_per_sample(N, n, K, p, naive_reps, 2012) * reps
        mult = float(expected_unique_proportion(N, n, K, p))
        pois = float(expected_unique_proportion(N, n, K, p, "poisson"))
        print(f"{n:>6} {t:>13.2f} {t / TARGET:>9.1%} {t_samples:>12.2f} {t_naive:>18.2f} {t_naive / t_samples:>8.1f}x "
              f"{r.mean:>9.5f} +- {r.se:.5f} {r.analytic:>12.5f} {mult:>12.5f} {pois:>9.5f}")

    print(f"\nsampling without replacement, per sample (N = {N}, average over the samples drawn)")
    print(f"{'n':>6} {'choice [ms]':>12} {'batched [ms]':>13} {'ratio':>7} {'random keys [ms]':>17} {'ratio':>7}")
    for n in sizes:
        rng = np.random.default_rng(1)
        m = 200 if not quick else 50
        t_choice = best_of(lambda: draw_choice(rng, N, n, m), repeat=3) / m
        t_batch = best_of(lambda: draw_batched(rng, N, n, m), repeat=3) / m
        mk = 10 if not quick else 20
        t_keys = best_of(lambda: draw_keys(rng, N, n, mk), repeat=1) / mk
        print(f"{n:>6} {t_choice * 1e3:>12.3f} {t_batch * 1e3:>13.3f} {t_batch / t_choice:>6.1f}x "
              f"{t_keys * 1e3:>17.3f} {t_keys / t_choice:>6.1f}x")
    # the batched draw is an SRS too: the first n distinct of iid uniform draws (label symmetry)
    d = draw_batched(np.random.default_rng(3), 20, 5, 20000)
    assert all(len(set(row)) == 5 for row in d[:100])
    freq = np.bincount(d.ravel(), minlength=20) / d.size
    print(f"(batched draw check: unit frequencies {freq.min():.4f}..{freq.max():.4f}, expected 0.05)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="N = 10^5, 100 samples of n = 500 and 1000")
    main(ap.parse_args().quick)
