"""Private deciles: the histogram method of private-deciles (001) (Canesse 2022, Section 2.2) against the
inverse-sensitivity mechanism of its Section 3 and the state of the art, on the same data and budgets.

Data: uniform on [0, 1] (bounds a, b = 0, 1) and standard normal (a, b = -4, 4: P(|X| > 4) = 6e-5, so about
one value in 16000 lies outside and is clipped or counted as the method does), n in {10^3, 10^4}, total
budget eps in {0.1, 1} for the nine deciles.  Budget split: JointExp spends eps once on the nine deciles
jointly; every other method composes nine single-quantile releases at eps/9 each (the report's
Theorem 2.2.1.1, basic composition).  Neighbours replace one entry (Definition 1.2.0.1).

Methods (grid: g_j = a + j (b - a)/1000, j = 0..1000):
  HM            the histogram method: AboveThreshold at eps/9 on #{x < g_j}, j = 1..1000, threshold d n/10,
                Lap(2/eps') threshold, Lap(4/eps') queries (Section 2.1); estimate g_{k+1}, b for -1
  HM-mono       the same with Lap(2/eps') query noise (monotone counts, claim pd.at.monotone_noise)
  EM            exponential mechanism on the grid (numeric.exponential_quantile_pmf)
  IS rho=0      inverse sensitivity on the grid (numeric.inverse_sensitivity_pmf), rho = 0
  IS rho=10h    the same, rho = 10 grid steps
  UQ clip       Durfee's unbounded estimator (numeric.unbounded_quantile, lower = a, beta = 1.001) clipped to
                [a, b] (post-processing); unclipped its mean error is infinite (see the notes printed)
  diffprivlib   diffprivlib.tools.quantile: exponential mechanism on the intervals between sorted values
  OpenDP        opendp make_private_quantile on the grid (known n, d_in = 2 for one replaced entry, scale
                from the library's own privacy map at eps/9)
  JointExp      numeric.joint_exp_quantiles (Gillenwater, Joseph and Kulesza 2021), eps jointly

Errors: |estimate - decile| against the distribution's decile and against the sample decile x_(r),
r = ceil(q n).  "exact": the law of the output given the data is computed (HM and HM-mono by the AboveThreshold
output law on the realised counts, compared once per configuration with numeric.above_threshold_pmf, UQ by numeric.unbounded_quantile_pmf, EM and IS by their pmfs, diffprivlib
by its interval law written from its source, checked here against the library by Monte Carlo) and averaged
over the seeded datasets; "MC": seeded Monte Carlo, mean +- one standard error.  q90 is the 0.9 quantile of
the error pooled over the nine deciles and the datasets.

Run:  python benchmarks/bench_private_quantiles.py [--quick]
"""
from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np

from _timing import best_of
import numeric.quantile_mechanisms as qm
from numeric import (exponential_quantile_pmf, inverse_sensitivity_pmf, joint_exp_quantiles, unbounded_quantile,
                     unbounded_quantile_pmf)

QS = np.arange(1, 10) / 10
STEPS = 1000
BETA = 1.001


# == the exact law of AboveThreshold on counts ===============================================================
def at_law(counts, threshold, b_threshold, b_query):
    """numeric.quantile_mechanisms' Gauss-Legendre law (the faster of the project's two exact laws; the
    other, numeric.above_threshold.above_threshold_pmf, is compared with it once per configuration)."""
    return qm._above_threshold_law(counts, threshold, b_threshold, b_query)


def at_law_crosscheck(counts, threshold, b_threshold, b_query):
    """max |difference| between the two exact laws, or None when numeric.above_threshold is absent."""
    try:
        from numeric.above_threshold import above_threshold_pmf
    except ImportError:
        return None
    other = np.asarray(above_threshold_pmf(counts, threshold, 2.0 / b_threshold, query_scale=b_query))
    return float(np.max(np.abs(other - at_law(counts, threshold, b_threshold, b_query))))


# == error summaries ===========================================================================================
class Exact:
    """Discrete laws (values, probabilities) and continuous interval laws, pooled."""

    def __init__(self):
        self.err_d, self.err_s, self.w = [], [], []          # discrete atoms
        self.iv = []                                          # (lo, hi, p, d_dist, d_sample) interval pieces
        self.units = 0
        self.extra = []

    def add(self, values, probs, d_dist, d_samp):
        self.err_d.append(np.abs(values - d_dist))
        self.err_s.append(np.abs(values - d_samp))
        self.w.append(probs)
        self.units += 1

    def add_intervals(self, lo, hi, probs, d_dist, d_samp):
        self.iv.append((lo, hi, probs, d_dist, d_samp))
        self.units += 1

    @staticmethod
    def _interval_mae(lo, hi, p, d):
        mid = (lo + hi) / 2
        wid = hi - lo
        inside = (lo < d) & (d < hi)
        with np.errstate(invalid="ignore", divide="ignore"):
            e_in = ((d - lo) ** 2 + (hi - d) ** 2) / (2 * np.where(wid > 0, wid, 1))
        e = np.where(inside, e_in, np.abs(mid - d))
        return float(np.sum(p * e))

    @staticmethod
    def _interval_cdf(lo, hi, p, d, e):
        wid = hi - lo
        cover = np.clip(np.minimum(hi, d + e) - np.maximum(lo, d - e), 0, None)
        frac = np.where(wid > 0, cover / np.where(wid > 0, wid, 1), (np.abs(lo - d) <= e).astype(float))
        return float(np.sum(p * frac))

    def mae(self, which):
        tot = 0.0
        errs = self.err_d if which == "d" else self.err_s
        for e, w in zip(errs, self.w):
            tot += float(np.sum(e * w))
        for lo, hi, p, dd, ds in self.iv:
            tot += self._interval_mae(lo, hi, p, dd if which == "d" else ds)
        return tot / self.units

    def q90(self, which):
        errs = self.err_d if which == "d" else self.err_s
        if not self.iv:
            e = np.concatenate(errs)
            w = np.concatenate(self.w)
            o = np.argsort(e)
            c = np.cumsum(w[o])
            return float(e[o][np.searchsorted(c, 0.9 * c[-1])])
        lo_e, hi_e = 0.0, 100.0
        for _ in range(80):
            mid = 0.5 * (lo_e + hi_e)
            tot = sum(self._interval_cdf(lo, hi, p, dd if which == "d" else ds, mid) for lo, hi, p, dd, ds in self.iv)
            if tot >= 0.9 * len(self.iv):
                hi_e = mid
            else:
                lo_e = mid
        return hi_e


class MC:
    def __init__(self):
        self.err_d, self.err_s = [], []

    def add(self, est, d_dist, d_samp):
        self.err_d.append(np.abs(est - d_dist).ravel())
        self.err_s.append(np.abs(est - d_samp).ravel())

    def mae(self, which):
        e = np.concatenate(self.err_d if which == "d" else self.err_s)
        return float(e.mean()), float(e.std(ddof=1) / math.sqrt(e.size)), e.size

    def q90(self, which):
        return float(np.quantile(np.concatenate(self.err_d if which == "d" else self.err_s), 0.9))


# == one configuration ===========================================================================================
def dataset(dist, n, seed):
    rng = np.random.default_rng([2022, n, seed, 0 if dist == "uniform" else 1])
    return rng.random(n) if dist == "uniform" else rng.standard_normal(n)


def true_deciles(dist):
    if dist == "uniform":
        return QS.copy()
    from scipy.special import ndtri
    return ndtri(QS)


def hm_values(a, b):
    grid = a + np.arange(STEPS + 1) * (b - a) / STEPS
    return np.concatenate((grid[1:], [b]))                     # g_{k+1} for k = 0..STEPS-1, b for -1


def uq_cut_count(a, b):
    k = math.ceil(math.log1p(b - a) / math.log(BETA))
    while qm._cutoffs(a, BETA, np.array([k - 1]))[0] >= b:
        k -= 1
    while qm._cutoffs(a, BETA, np.array([k]))[0] < b:
        k += 1
    return k                                                    # first k with cutoff >= b


def libraries():
    """(diffprivlib module or None, opendp.prelude or None, notes)."""
    notes = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import diffprivlib
            import diffprivlib.tools  # noqa: F401
        notes.append(f"diffprivlib {diffprivlib.__version__}")
    except Exception as e:                                      # pragma: no cover - environment dependent
        diffprivlib = None
        notes.append(f"diffprivlib not run: {type(e).__name__}: {e}")
    try:
        import opendp.prelude as dp
        dp.enable_features("contrib")
        from importlib.metadata import version
        notes.append(f"opendp {version('opendp')}")
    except Exception as e:                                      # pragma: no cover
        dp = None
        notes.append(f"opendp not run: {type(e).__name__}: {e}")
    return diffprivlib, dp, notes


def opendp_scale(dp, n, grid, q, eps_each):
    dom = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=n)
    m1 = dp.m.make_private_quantile(dom, dp.symmetric_distance(), dp.max_divergence(), list(grid), float(q), 1.0)
    c = m1.map(2)                                               # the map is c / scale
    return dom, c / eps_each


def run_config(dist, n, eps, D, reps, libs, rng_seed):
    dpl, dp, _ = libs
    a, b = (0.0, 1.0) if dist == "uniform" else (-4.0, 4.0)
    grid = a + np.arange(STEPS + 1) * (b - a) / STEPS
    h = (b - a) / STEPS
    e1 = eps / 9
    dtrue = true_deciles(dist)
    hm_vals = hm_values(a, b)
    kb = uq_cut_count(a, b)
    uq_vals = np.concatenate((qm._cutoffs(a, BETA, np.arange(kb)), [b]))
    uq_vals = np.minimum(uq_vals, b)
    res = {k: Exact() for k in ("HM", "HM-mono", "EM", "IS rho=0", "IS rho=10h", "UQ clip", "diffprivlib")}
    mc = {k: MC() for k in ("JointExp", "diffprivlib (library)", "OpenDP")}
    above_b, checks = [], []
    rng = np.random.default_rng(rng_seed)
    for s in range(D):
        x = dataset(dist, n, s)
        xs = np.sort(x)
        dsamp = np.array([xs[qm.order_index(q, n) - 1] for q in QS])
        counts = np.searchsorted(xs, grid[1:], side="left").astype(float)
        xc = np.clip(xs, a, b)
        edges = np.concatenate(([a], xc, [b]))
        for i, q in enumerate(QS):
            T = (i + 1) * n / 10
            res["HM"].add(hm_vals, at_law(counts, T, 2 / e1, 4 / e1), dtrue[i], dsamp[i])
            if s == 0 and i == 4:
                checks.append(at_law_crosscheck(counts, T, 2 / e1, 4 / e1))
            res["HM-mono"].add(hm_vals, at_law(counts, T, 2 / e1, 2 / e1), dtrue[i], dsamp[i])
            res["EM"].add(grid, exponential_quantile_pmf(x, grid, e1, q=q), dtrue[i], dsamp[i])
            res["IS rho=0"].add(grid, inverse_sensitivity_pmf(x, grid, e1, q=q), dtrue[i], dsamp[i])
            res["IS rho=10h"].add(grid, inverse_sensitivity_pmf(x, grid, e1, rho=10 * h * (1 + 1e-9), q=q),
                                  dtrue[i], dsamp[i])
            p_uq = unbounded_quantile_pmf(x, q, e1, beta=BETA, lower=a, num_queries=kb)
            res["UQ clip"].add(uq_vals, p_uq, dtrue[i], dsamp[i])
            above_b.append(p_uq[-1])
            # diffprivlib's law: interval i (above i values) with weight length exp(-eps' |i - q n|/2)
            w = np.diff(edges) * np.exp(-e1 / 2 * (np.abs(np.arange(n + 1) - q * n) - abs(round(q * n) - q * n)))
            res["diffprivlib"].add_intervals(edges[:-1], edges[1:], w / w.sum(), dtrue[i], dsamp[i])
        o = joint_exp_quantiles(x, QS, eps, a, b, rng=rng, size=reps["jointexp"])
        mc["JointExp"].add(o, dtrue, dsamp)
        if dpl is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = np.array([dpl.tools.quantile(x, QS, epsilon=eps, bounds=(a, b),
                                                   random_state=int(rng.integers(2**31)))
                                for _ in range(reps["diffprivlib"])])
            mc["diffprivlib (library)"].add(est, dtrue, dsamp)
        if dp is not None and s < reps["opendp_sets"]:
            xl = x.tolist()
            est = np.empty((reps["opendp"], 9))
            for i, q in enumerate(QS):
                dom, scale = opendp_scale(dp, n, grid, q, e1)
                m = dp.m.make_private_quantile(dom, dp.symmetric_distance(), dp.max_divergence(), list(grid),
                                               float(q), scale)
                assert abs(m.map(2) - e1) <= 1e-9 * e1
                est[:, i] = [m(xl) for _ in range(reps["opendp"])]
            mc["OpenDP"].add(est, dtrue, dsamp)
    return res, mc, float(np.mean(above_b)), float(np.max(above_b)), checks[0]


SPLIT = {"HM": "eps/9 each", "HM-mono": "eps/9 each", "EM": "eps/9 each", "IS rho=0": "eps/9 each",
         "IS rho=10h": "eps/9 each", "UQ clip": "eps/9 each", "diffprivlib": "eps/9 each",
         "diffprivlib (library)": "eps/9 each", "OpenDP": "eps/9 each", "JointExp": "eps jointly"}


def print_table(title, res, mc, above_mean, above_max, check):
    print(f"\n{title}")
    print(f"  {'method':22s} {'budget':11s} {'law':5s} {'MAE vs decile':>20s} {'MAE vs sample':>20s} "
          f"{'q90 vs decile':>14s} {'q90 vs sample':>14s}")
    for name, r in res.items():
        print(f"  {name:22s} {SPLIT[name]:11s} {'exact':5s} {r.mae('d'):20.5f} {r.mae('s'):20.5f} "
              f"{r.q90('d'):14.5f} {r.q90('s'):14.5f}")
    for name, r in mc.items():
        if not r.err_d:
            continue
        md, sd, N = r.mae("d")
        ms, ss, _ = r.mae("s")
        print(f"  {name:22s} {SPLIT[name]:11s} {'MC':5s} {md:11.5f} +-{sd:7.5f} {ms:11.5f} +-{ss:7.5f} "
              f"{r.q90('d'):14.5f} {r.q90('s'):14.5f}   ({N} errors)")
    print(f"  UQ unclipped: P(output >= b) = {above_mean:.3g} on average (largest {above_max:.3g}; exact law, below "
          "1e-308 prints as 0); its mean error is infinite whatever the data: past max(x) every query is n and, "
          "given a threshold t, P(k) falls like F(t - n)^k while the outputs grow like beta^k, and "
          "F(t - n) beta > 1 for every t > n + (2/eps') ln(beta/(2(beta - 1))), a set of positive probability")
    if check is not None:
        print(f"  HM law, median decile of the first dataset: max |difference| from "
              f"numeric.above_threshold.above_threshold_pmf {check:.1e}")


def timings(libs, quick):
    dpl, dp, _ = libs
    x = dataset("uniform", 10**4, 99)
    a, b, eps = 0.0, 1.0, 1.0
    e1 = eps / 9
    grid = a + np.arange(STEPS + 1) * (b - a) / STEPS
    rng = np.random.default_rng(5)
    reps = 3

    def em():
        return [rng.choice(grid, p=exponential_quantile_pmf(x, grid, e1, q=q)) for q in QS]

    def isens():
        return [rng.choice(grid, p=inverse_sensitivity_pmf(x, grid, e1, q=q)) for q in QS]

    def hm():
        try:
            from numeric.private_deciles import histogram_deciles
        except ImportError:
            xs = np.sort(x)
            counts = np.searchsorted(xs, grid[1:], side="left")
            out = []
            for i in range(9):
                thr = (i + 1) * len(x) / 10 + rng.laplace(0, 2 / e1)
                passed = counts + rng.laplace(0, 4 / e1, counts.size) > thr
                out.append(grid[1 + int(np.argmax(passed))] if passed.any() else b)
            return out
        return histogram_deciles(x, eps, STEPS, a, b, rng=rng)

    def uq():
        return [unbounded_quantile(x, q, e1, rng=rng, lower=a) for q in QS]

    def jexp():
        return joint_exp_quantiles(x, QS, eps, a, b, rng=rng)

    funcs = {"EM (baseline)": em, "IS rho=0": isens, "HM": hm, "UQ": uq, "JointExp": jexp}
    if dpl is not None:
        def dpl_q():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return dpl.tools.quantile(x, QS, epsilon=eps, bounds=(a, b), random_state=1)
        funcs["diffprivlib"] = dpl_q
    if dp is not None:
        xl = x.tolist()

        def odp():
            out = []
            for q in QS:
                dom, scale = opendp_scale(dp, len(x), grid, q, e1)
                m = dp.m.make_private_quantile(dom, dp.symmetric_distance(), dp.max_divergence(), list(grid),
                                               float(q), scale)
                out.append(m(xl))
            return out
        funcs["OpenDP"] = odp
    times = {k: best_of(f, reps) for k, f in funcs.items()}
    base = times["EM (baseline)"]
    print("\nTime of one release of the nine deciles (uniform, n = 10^4, eps = 1, best of "
          f"{reps}), as a ratio to the exponential mechanism measured in the same run ({base * 1e3:.1f} ms):")
    for k, t in times.items():
        print(f"  {k:16s} {t * 1e3:9.1f} ms   {t / base:7.2f} x")


def main(quick: bool) -> None:
    t0 = time.perf_counter()
    libs = libraries()
    print("Private deciles (private-deciles (001), Sections 2.2 and 3) against the state of the art")
    print("  libraries: " + "; ".join(libs[2]))
    print("  HM and UQ laws: numeric.quantile_mechanisms._above_threshold_law on the realised counts")
    if quick:
        configs = [(d, 10**3, e) for d in ("uniform", "normal") for e in (0.1, 1.0)]
        D = 1
        reps = dict(jointexp=200, diffprivlib=10, opendp=5, opendp_sets=1)
    else:
        configs = [(d, n, e) for d in ("uniform", "normal") for n in (10**3, 10**4) for e in (0.1, 1.0)]
        D = 3
        reps = dict(jointexp=400, diffprivlib=40, opendp=20, opendp_sets=1)
    print(f"  {D} seeded dataset(s) per configuration; Monte Carlo: JointExp {reps['jointexp']} draws, diffprivlib "
          f"{reps['diffprivlib']} and OpenDP {reps['opendp']} releases per dataset (OpenDP on "
          f"{reps['opendp_sets']} dataset)")
    for k, (dist, n, eps) in enumerate(configs):
        t1 = time.perf_counter()
        res, mc, am, ax, check = run_config(dist, n, eps, D, reps, libs, 1000 + k)
        print_table(f"{dist}, n = {n}, eps = {eps} (total for the nine deciles; computed in "
                    f"{time.perf_counter() - t1:.1f} s)", res, mc, am, ax, check)
    timings(libs, quick)
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    main(ap.parse_args().quick)
