"""Calibration of a whole table of cells, as ratios against baselines measured in the same run (CPU time).

A synthetic table of 10^4 heterogeneous cells: each cell has 1 to 20 strata, N_h log-uniform in
[10^2, 10^7], sampling fractions log-uniform in [0.1 %, 100 %] (census strata included), a third of
the cells on bounded values [0, upper].  (eps, delta) = (1, 1e-6), Laplace noise.

1. ``calibrate_table`` on the whole table (pandas, in-process): CPU seconds, per cell.
2. The generic closed form per cell (Laplace on the sample amplified by subsampling, delta = 0;
   vectorised numpy over every stratum, then the largest per cell): the baseline of the same run.
3. The previous route, one exact search per stratum (numeric.calibrate_scale on SRS + BinaryDomain),
   timed on a random sample of 40 strata and extrapolated to the table's strata.
4. Accuracy: the exact-to-generic ratio over the cells, and on the 40 sampled strata the relative
   difference between the table's stratum scale and the search's.
5. With --dask: the same table through a dask.distributed LocalCluster (threads of this process, so
   process_time counts the workers' CPU too): the cost of the shuffle by cell and the partitions.

Run:  python benchmarks/bench_tables.py [--cells 10000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from numeric import SRS, BinaryDomain, calibrate_scale, calibrate_table
from numeric.profile.search.one_unit import Components

EPS, DELTA = 1.0, 1e-6


def synthetic_table(cells: int, rng: np.random.Generator) -> pd.DataFrame:
    k = rng.integers(1, 21, size=cells)
    cell = np.repeat(np.arange(cells), k)
    stratum = np.concatenate([np.arange(m) for m in k])
    N = np.round(10 ** rng.uniform(2, 7, size=cell.size)).astype(np.int64)
    frac = 10 ** rng.uniform(-3, 0, size=cell.size)
    n = np.clip(np.round(N * frac), 1, N).astype(np.int64)
    bounded = np.isin(cell, np.flatnonzero(rng.random(cells) < 1 / 3))
    upper = np.where(bounded, np.round(10 ** rng.uniform(0, 4, size=cell.size), 2), 1.0)
    return pd.DataFrame({"cell": cell, "stratum": stratum, "N": N, "n": n, "lower": 0.0, "upper": upper})


def generic_per_cell(frame: pd.DataFrame) -> pd.Series:
    q = frame["n"].to_numpy() / frame["N"].to_numpy()
    b = (1 / q) / np.log1p(np.expm1(EPS) / q) * (frame["upper"] - frame["lower"]).to_numpy()
    return pd.Series(b, index=frame.index).groupby(frame["cell"]).max()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=10_000)
    ap.add_argument("--dask", action="store_true", help="also on a dask.distributed LocalCluster in this process")
    args = ap.parse_args()
    rng = np.random.default_rng(20261129)
    frame = synthetic_table(args.cells, rng)
    designs = len(frame[["N", "n"]].drop_duplicates())
    print(f"table: {args.cells} cells, {len(frame)} strata, {designs} distinct designs (N_h, n_h)")

    t0 = time.process_time()
    table = calibrate_table(frame, EPS, DELTA)
    t_table = time.process_time() - t0

    t0 = time.process_time()
    for _ in range(20):
        generic = generic_per_cell(frame)
    t_generic = (time.process_time() - t0) / 20

    sample = frame.sample(40, random_state=1)
    t0 = time.process_time()
    search = [float(calibrate_scale(SRS(int(N), int(n)), BinaryDomain(int(N)), EPS, DELTA))
              for N, n in zip(sample["N"], sample["n"])]
    t_search = (time.process_time() - t0) / len(sample)
    mine = Components(sample["n"] / sample["N"], np.zeros(40), np.ones(40), np.zeros(40),
                      np.ones(40, dtype=bool)).calibrate(EPS, DELTA, "laplace")[0]
    rel = np.abs(np.asarray(mine) / np.asarray(search) - 1)

    ratio = table.set_index("cell")["b"] / generic
    print(f"calibrate_table:            {t_table:8.3f} s CPU  ({1e3 * t_table / args.cells:.3f} ms per cell)")
    print(f"generic closed form:        {t_generic:8.3f} s CPU  (baseline; {1e6 * t_generic / args.cells:.2f} us per cell)"
          f"   calibrate_table / generic = {t_table / t_generic:.1f}")
    print(f"one exact search a stratum: {t_search:8.3f} s CPU per stratum (40 sampled) -> "
          f"{t_search * len(frame) / 60:.1f} min CPU for the table   (x{t_search * len(frame) / t_table:.0f} "
          "the table's time)")
    print(f"exact / generic scale over the cells: min {ratio.min():.6f}, median {ratio.median():.6f}, "
          f"max {ratio.max():.6f}")
    print(f"table vs search on the 40 sampled strata: largest relative difference {rel.max():.2e} "
          "(both brackets of relative width 1e-9)")
    if args.dask:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as cl, \
                Client(cl) as client:
            t0 = time.process_time()
            via = calibrate_table(frame, EPS, DELTA, client=client)
            t_dask = time.process_time() - t0
        same = np.array_equal(np.sort(via["b"].to_numpy()), np.sort(table["b"].to_numpy()))
        print(f"dask LocalCluster (2 threads): {t_dask:8.3f} s CPU   dask / in-process = {t_dask / t_table:.2f}; "
              f"same scales: {same}")


if __name__ == "__main__":
    main()
