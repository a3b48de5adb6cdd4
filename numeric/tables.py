r"""Noise for whole tables of survey totals: calibration per cell, the accuracy of the release, the release.

A table is a set of cells, each the Horvitz-Thompson total of one variable over its own strata
(simple random sampling of n_h among N_h in each stratum, independent between strata and cells),
released with one Laplace (or Gaussian) noise per cell.  The cells come as a pandas DataFrame (a
CSV file at the command line), one row per stratum of each cell:

==========  ==================================================================================
column      meaning
==========  ==================================================================================
cell        the cell's label (any value; the rows of a cell share it)
stratum     the stratum's label, unique within its cell
N, n        the stratum's population and sample sizes, integers, 1 <= n <= N
lower,      optional, together: every value of the stratum lies in [lower, upper] (turnover,
upper       income); binary 0/1 data when absent
total       optional: an expected stratum total (for the accuracy of the release)
sd          optional: the expected standard deviation S_h of the stratum's values (bounded
            values; on binary data it follows from the total)
==========  ==================================================================================

Privacy of one cell.  A pair of neighbouring populations changes one unit's value within one stratum
h of the cell.  The other strata's estimates are independent of it (post-processing: claim
``htm.strat.mixture_bound``) and may be constant (every value 0, or every value equal under simple
random sampling: ``htm.strat.translation``), so the cell's delta is the largest stratum delta and its
calibrated scale the largest stratum scale, exactly.  A stratum's exact scale is (upper - lower)
times the scale of binary data (claim ``htm.bounded.binary_pair``: the values {a, b} are the binary
problem scaled by b - a), and on binary data with every total possible the worst pair is the
population of 0s against one 1, the one-unit mechanism with q = n/N and shift N/n (see
:mod:`numeric.profile.search.one_unit`): its scale solves q delta_K(eps0; (N/n)/b) = delta,

.. math:: b = \frac{N/n}{\varepsilon_0 - 2\ln(1 - \delta N/n)}, \qquad
          e^{\varepsilon_0} = 1 + (e^{\varepsilon} - 1) N/n

for Laplace noise (0 when delta >= n/N), checked at the value returned by the certified upper value
of delta (never below the exact delta).

The table's budget.  Cells that partition the population (a unit's value changes within its cell)
compose in parallel: each cell is released at (eps, delta) (claim ``htm.table.parallel``).  When a
unit may change k cells (a unit that may move between two cells: k = 2; k overlapping margins), each
cell gets (eps/k, delta/k) (basic composition, claim ``htm.table.basic_composition``).

Accuracy.  The variance of the noisy total is the design variance plus the noise variance,
2 b^2 for Laplace and sigma^2 for Gaussian noise (claim ``htm.accuracy.variance``); under stratified
simple random sampling the design variance is sum_h N_h^2 (1 - n_h/N_h) S_h^2/n_h.

Source: ht-mechanism (000), Abstract (which noise scale for (eps, delta)), Section 1.3 (the design
and the Horvitz-Thompson total), Section 1.4 (delta); claims htm.strat.*, htm.bounded.*,
htm.table.*, htm.accuracy.variance.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from ._common import ParameterError, provenance, scalar, tolerance
from .srs_binary import _N_MAX

REQUIRED = ("cell", "stratum", "N", "n")
OPTIONAL = ("lower", "upper", "total", "sd")
NOISES = ("laplace", "gaussian")
#: what the release says of its noise when it is simulated with numpy
SIMULATED = "numpy Generator (simulation only: not safe against floating-point attacks)"
INSTALL = 'pip install "dpderive[opendp]"'
_CLAIMS = ("htm.strat.mixture_bound", "htm.strat.translation", "htm.bounded.binary_pair",
           "htm.poisson.laplace_forward", "htm.poisson.laplace_reverse", "htm.table.parallel",
           "htm.table.basic_composition", "htm.table.kov_composition", "htm.accuracy.variance")


def _bad(where: str, column: str, what: str):
    raise ParameterError("cells", f"cells {where}, column {column!r}: {what}")


def _where(frame, pos: int, row_word: str) -> str:
    import pandas as pd

    label = frame.index[pos]
    cell = frame["cell"].iloc[pos] if "cell" in frame.columns else None
    return f"{row_word} {label}" + ("" if cell is None or pd.isna(cell) else f" (cell {cell!r})")


def validate_cells(frame, row_word: str = "row"):
    """The frame checked and normalised (N, n as int64, lower/upper/total/sd as float): a
    ``ParameterError`` naming ``cells``, the row (its index label, called ``row_word``) and the column
    of the first bad value.  Returns a new DataFrame (the input is not modified)."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise ParameterError("cells", f"cells must be a pandas DataFrame (or a Dask DataFrame) with columns "
                             f"{', '.join(REQUIRED)} [{', '.join(OPTIONAL)}], got {type(frame).__name__}")
    cols = [str(c) for c in frame.columns]
    missing = [c for c in REQUIRED if c not in cols]
    if missing:
        raise ParameterError("cells", f"cells column {missing[0]!r} is missing (the columns are "
                             f"{', '.join(REQUIRED)}, optionally {', '.join(OPTIONAL)}; found {', '.join(cols) or 'none'})")
    unknown = [c for c in cols if c not in REQUIRED + OPTIONAL]
    if unknown:
        raise ParameterError("cells", f"cells column {unknown[0]!r} is not one of {', '.join(REQUIRED + OPTIONAL)}")
    if ("lower" in cols) != ("upper" in cols):
        raise ParameterError("cells", "cells columns 'lower' and 'upper' go together (the range of the values); "
                             f"only {'lower' if 'lower' in cols else 'upper'!r} is given")
    if len(set(cols)) != len(cols):
        raise ParameterError("cells", "cells has a column name twice")
    if len(frame) == 0:
        raise ParameterError("cells", "cells has no rows")
    out = frame.copy()
    out.columns = cols
    for c in ("cell", "stratum"):
        bad = out[c].isna().to_numpy()
        if bad.any():
            _bad(_where(out, int(np.argmax(bad)), row_word), c, "is empty (every row needs a label)")

    def numbers_of(c):
        vals = pd.to_numeric(out[c], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(vals)
        if bad.any():
            k = int(np.argmax(bad))
            _bad(_where(out, k, row_word), c, f"must be a finite number, got {out[c].iloc[k]!r}")
        return vals

    N = numbers_of("N")
    bad = (N != np.round(N)) | (N < 1) | (N > _N_MAX)
    if bad.any():
        k = int(np.argmax(bad))
        _bad(_where(out, k, row_word), "N", f"must be an integer in [1, {_N_MAX}], got {out['N'].iloc[k]!r}")
    n = numbers_of("n")
    bad = (n != np.round(n)) | (n < 1) | (n > N)
    if bad.any():
        k = int(np.argmax(bad))
        _bad(_where(out, k, row_word), "n", f"must be an integer in [1, N] = [1, {int(N[k])}], got {out['n'].iloc[k]!r}")
    out["N"], out["n"] = N.astype(np.int64), n.astype(np.int64)
    if "lower" in cols:
        lo, hi = numbers_of("lower"), numbers_of("upper")
        bad = ~(lo < hi)
        if bad.any():
            k = int(np.argmax(bad))
            _bad(_where(out, k, row_word), "upper", f"must be > lower ({lo[k]!r}), got {hi[k]!r}")
        out["lower"], out["upper"] = lo, hi
    if "total" in cols:
        t = numbers_of("total")
        lo = out["lower"].to_numpy() * N if "lower" in cols else np.zeros(len(out))
        hi = out["upper"].to_numpy() * N if "lower" in cols else N
        bad = (t < lo) | (t > hi)
        if bad.any():
            k = int(np.argmax(bad))
            _bad(_where(out, k, row_word), "total", f"must lie in [N lower, N upper] = [{lo[k]:g}, {hi[k]:g}] "
                 f"(binary data: [0, N]), got {t[k]!r}")
        out["total"] = t
    if "sd" in cols:
        s = numbers_of("sd")
        bad = s < 0
        if bad.any():
            k = int(np.argmax(bad))
            _bad(_where(out, k, row_word), "sd", f"must be >= 0, got {s[k]!r}")
        out["sd"] = s
    dup = out.duplicated(subset=["cell", "stratum"]).to_numpy()
    if dup.any():
        k = int(np.argmax(dup))
        _bad(_where(out, k, row_word), "stratum", f"repeats stratum {out['stratum'].iloc[k]!r} of its cell")
    return out


#: The largest k of split=("kov", k) (the search is O(k^2) in 50-digit arithmetic).
KOV_MAX = 200


def _kov_delta_i(k: int, i: int, e0):
    """delta_i of the optimal composition theorem at eps0 (claim ``htm.table.kov_composition``):
    sum_{l<i} C(k, l)(e^{(k-l) eps0} - e^{(k-2i+l) eps0})/(1 + e^{eps0})^k, in mpmath."""
    import mpmath

    den = k * mpmath.log1p(mpmath.exp(e0))
    return mpmath.fsum(mpmath.binomial(k, l) * (mpmath.exp((k - l) * e0 - den) - mpmath.exp((k - 2 * i + l) * e0 - den))
                       for l in range(i))


def kov_budget(epsilon: float, delta: float, k: int):
    """(eps0, delta0, i): a per-release budget whose k-fold composition is (epsilon, delta)-DP by the
    optimal composition theorem of Kairouz, Oh and Viswanath (2015, Thm 3.3; claim
    ``htm.table.kov_composition``): k releases each (eps0, delta0)-DP are jointly
    ((k - 2i) eps0, 1 - (1 - delta0)^k (1 - delta_i))-DP.  Half of delta goes to the releases
    ((1 - delta0)^k = 1 - delta/2) and eps0 is the largest (over i, to 1e-12 relative, by bisection)
    with (k - 2i) eps0 <= epsilon and delta_i(eps0) <= 1 - (1 - delta)/(1 - delta/2).  When no i >= 1
    beats eps/k, basic composition (epsilon/k, delta/k, 0) is returned (claim
    ``htm.table.basic_composition``).  The pair returned is checked in 50-digit arithmetic after
    rounding both down to doubles.

    Source: ht-mechanism (000), Section 1.4 (delta of a release); Kairouz, Oh & Viswanath (2015).

    >>> e0, d0, i = kov_budget(1.0, 1e-6, 50)
    >>> round(e0, 6), i          # against eps/k = 0.02 by basic composition
    (0.033333, 10)
    """
    import mpmath

    with mpmath.workdps(50):
        d0 = float(-mpmath.expm1(mpmath.log1p(-mpmath.mpf(delta) / 2) / k))
        d0 = float(np.nextafter(d0, 0.0))
        rem = 1 - (1 - mpmath.mpf(delta)) / (1 - mpmath.mpf(d0)) ** k
        best = (float(np.nextafter(epsilon / k, 0.0)), 0)
        for i in range(1, (k + 1) // 2):
            cap = epsilon / (k - 2 * i)
            if cap <= best[0]:
                continue
            if _kov_delta_i(k, i, mpmath.mpf(cap)) <= rem:
                e0 = cap
            else:
                lo, hi = 0.0, cap
                if _kov_delta_i(k, i, mpmath.mpf(best[0])) > rem:
                    continue          # no better than the best so far at any eps0 above it
                lo = best[0]
                while hi - lo > 1e-12 * hi:
                    mid = 0.5 * (lo + hi)
                    if _kov_delta_i(k, i, mpmath.mpf(mid)) <= rem:
                        lo = mid
                    else:
                        hi = mid
                e0 = lo
            e0 = float(np.nextafter(e0, 0.0))
            if e0 > best[0]:
                best = (e0, i)
        e0, i = best
        if i == 0:           # nothing gained over eps/k: basic composition keeps delta/k (more than d0)
            return epsilon / k, delta / k, 0
        total = 1 - (1 - mpmath.mpf(d0)) ** k * (1 - _kov_delta_i(k, i, mpmath.mpf(e0)))
        assert (k - 2 * i) * mpmath.mpf(e0) <= epsilon and total <= delta, (e0, d0, i)
    return e0, d0, i


def _budget(epsilon, delta, split, cells_count: int):
    eps = scalar("epsilon", epsilon, 0.0, math.inf, hi_open=True)
    dlt = scalar("delta", delta, 0.0, 1.0, lo_open=True, hi_open=True)
    if split == "parallel":
        k = 1
    elif split == "basic":
        k = cells_count
    elif isinstance(split, numbers.Integral) and not isinstance(split, bool) and split >= 1:
        k = int(split)
    elif (isinstance(split, tuple) and len(split) == 2 and split[0] == "kov" and isinstance(split[1], numbers.Integral)
          and not isinstance(split[1], bool) and 1 <= split[1] <= KOV_MAX):
        e0, d0, _ = kov_budget(eps, dlt, int(split[1]))
        return e0, d0, int(split[1])
    else:
        raise ParameterError("split", f"split must be 'parallel' (cells partition the population), 'basic' "
                             f"(every unit may be in every cell), an integer k >= 1 (a unit changes at most k "
                             f"cells: basic composition) or ('kov', k) with 1 <= k <= {KOV_MAX} (the optimal "
                             f"composition theorem), got {split!r}")
    return eps / k, dlt / k, k


def _binary_scales(N: np.ndarray, n: np.ndarray, eps: float, delta: float, noise: str, rtol: float):
    """The exact scale of binary data with every total possible, per distinct (N, n): one batch."""
    from .profile.search.one_unit import Components

    key = np.stack([N, n], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    q = uniq[:, 1] / uniq[:, 0]
    k = len(uniq)
    comp = Components(q, np.zeros(k), np.ones(k), np.zeros(k), np.ones(k, dtype=bool))
    b_up, _, _ = comp.calibrate(eps, delta, noise, rtol)
    if eps > 0 and noise == "laplace":
        e = eps
        h = 1.0 / q
        log_term = np.where(e <= 1, np.log1p(np.expm1(min(e, 1.0)) / q),
                            e - np.log(q) + np.log1p((q - 1) * np.exp(-e)))
        generic = h / log_term
    elif eps > 0 and noise == "gaussian":
        generic = np.array([_generic_gaussian_sigma(float(qi), eps, delta) for qi in q])
    else:
        generic = np.full(k, np.inf)
    return b_up[np.ravel(inv)], generic[np.ravel(inv)]


def _gaussian_delta(eps, sensitivity, sigma):
    """delta(eps) of the Gaussian mechanism with this L2 sensitivity and sigma (Balle and Wang, "Improving the
    Gaussian mechanism for differential privacy", ICML 2018, Theorem 8), in mpmath:
    Phi(D/(2 sigma) - eps sigma/D) - e^eps Phi(-D/(2 sigma) - eps sigma/D).  The float form of the profile
    (``numeric.profile.kernels._mechanism_delta``), and the census calibration built on it, are upper values
    whose rounding is about 1e-6 relative at delta near 1e-9: too loose for the bisection's 1e-12."""
    import mpmath

    a, c = sensitivity / (2 * sigma), eps * sigma / sensitivity
    return mpmath.ncdf(a - c) - mpmath.exp(eps) * mpmath.ncdf(-a - c)


def _generic_gaussian_sigma(q: float, eps: float, delta: float) -> float:
    """The sigma of the generic route with Gaussian noise, per unit of value range: the Gaussian mechanism on
    the sample total (sensitivity 1/q for the HT total), (eps_b, delta_b)-DP with eps_b = ln(1 + (e^eps -
    1)/q) and delta_b = delta/q, so that amplification by sampling without replacement (Balle, Barthe and
    Gaboardi 2018, Thm 9; claim ``htm.srs.amplification``) makes it (eps, delta)-DP.  The smallest such sigma
    by bisection in mpmath at 30 digits (delta(eps) of the mechanism decreases in sigma), returned rounded
    up; 0 when delta_b >= 1 (no noise is needed on that route)."""
    import mpmath

    with mpmath.workdps(30):
        qm, e = mpmath.mpf(q), mpmath.mpf(eps)
        eps_b = mpmath.log1p(mpmath.expm1(e) / qm)
        delta_b = mpmath.mpf(delta) / qm
        if delta_b >= 1:
            return 0.0
        h = 1 / qm
        lo, hi = mpmath.mpf(0), h
        while _gaussian_delta(eps_b, h, hi) > delta_b:
            lo, hi = hi, 2 * hi
        while hi - lo > hi * mpmath.mpf("1e-12"):
            mid = (lo + hi) / 2
            if _gaussian_delta(eps_b, h, mid) > delta_b:
                lo = mid
            else:
                hi = mid
        return float(np.nextafter(float(hi), np.inf))


def _round_up_product(a, b):
    p = np.asarray(a, dtype=float) * np.asarray(b, dtype=float)
    return np.nextafter(p, np.inf)


def _calibrate_frame(frame, eps: float, delta: float, noise: str, rtol: float, row_word: str = "row"):
    """calibrate_table on one validated pandas frame whose cells are whole (every stratum of a cell in it)."""
    import pandas as pd

    df = validate_cells(frame, row_word)
    N, n = df["N"].to_numpy(), df["n"].to_numpy()
    b_bin, gen_bin = _binary_scales(N, n, eps, delta, noise, rtol)
    bounded = "lower" in df.columns
    width = (df["upper"] - df["lower"]).to_numpy() if bounded else np.ones(len(df))
    df["_b"] = np.where(b_bin > 0, _round_up_product(b_bin, width), 0.0)
    df["_generic"] = gen_bin * width
    if "total" in df.columns:
        N_f, n_f = N.astype(float), n.astype(float)
        if "sd" in df.columns:
            S2 = df["sd"].to_numpy() ** 2
        elif not bounded:
            t = df["total"].to_numpy()
            S2 = np.where(N > 1, t * (N_f - t) / (N_f * np.maximum(N_f - 1, 1)), 0.0)
        else:
            S2 = np.full(len(df), np.nan)     # bounded values without sd: the design variance is unknown
        df["_var"] = N_f ** 2 * (1 - n_f / N_f) * S2 / n_f
    rows = []
    for cell, g in df.groupby("cell", sort=False):
        k = int(np.argmax(g["_b"].to_numpy()))
        b = float(g["_b"].iloc[k])
        worst = g.iloc[k]
        if bounded:
            pair = f"every value {worst['lower']:g}, one unit {worst['upper']:g} (or the mirror)"
        else:
            pair = "total 0 -> 1 (or N -> N - 1)"
        gen = float(g["_generic"].max())
        rec = {"cell": cell, "strata": len(g), "epsilon": eps, "delta": delta, "noise": noise, "b": b,
               "noise_sd": math.sqrt(2) * b if noise == "laplace" else b, "exact": True,
               "worst_stratum": worst["stratum"], "worst_pair": pair,
               "generic_b": gen, "ratio": b / gen if gen and math.isfinite(gen) else math.nan}
        if "total" in df.columns:
            T = float(g["total"].sum())
            V = float(g["_var"].sum())
            noise_var = 2 * b * b if noise == "laplace" else b * b
            rec.update(total=T, design_sd=math.sqrt(V) if V == V else math.nan,
                       rse_design=math.sqrt(V) / T if T > 0 else math.nan,
                       rse=math.sqrt(V + noise_var) / T if T > 0 else math.nan,
                       ci95_halfwidth=1.959963984540054 * math.sqrt(V + noise_var))
        rows.append(rec)
    return pd.DataFrame(rows)


def _meta(with_total: bool):
    import pandas as pd

    cols = {"cell": "object", "strata": "int64", "epsilon": "float64", "delta": "float64", "noise": "object",
            "b": "float64", "noise_sd": "float64", "exact": "bool", "worst_stratum": "object",
            "worst_pair": "object", "generic_b": "float64", "ratio": "float64"}
    if with_total:
        cols.update(total="float64", design_sd="float64", rse_design="float64", rse="float64",
                    ci95_halfwidth="float64")
    return pd.DataFrame({k: pd.Series(dtype=v) for k, v in cols.items()})


def _is_dask(obj) -> bool:
    return type(obj).__module__.startswith("dask")


@provenance(*_CLAIMS)
def calibrate_table(cells, epsilon, delta, noise="laplace", split="parallel", client=None, rtol=1e-9):
    r"""The noise scale of every cell of a table of stratified survey totals, and its accuracy.

    Per cell (the rows of ``cells`` sharing its label, one per stratum; format in the module's
    docstring): b = max_h (upper_h - lower_h) b_h, b_h the exact Laplace (or Gaussian sigma) scale of
    binary data under SRS(N_h, n_h) with every total possible,

    .. math:: b_h = \frac{N_h/n_h}{\varepsilon_0 - 2\ln(1 - \delta N_h/n_h)},\qquad
              e^{\varepsilon_0} = 1 + (e^{\varepsilon} - 1) N_h/n_h \quad(\text{Laplace}),

    exact (``exact`` is True): the other strata may be constant, so the largest stratum scale is the
    cell's (claims ``htm.strat.mixture_bound``, ``htm.strat.translation``), and the values {a, b} are
    the binary problem scaled by b - a (``htm.bounded.binary_pair``), whose worst pair the
    amplification bound of sampling without replacement (Balle, Barthe & Gaboardi 2018) shows to be
    the one-unit pair.  Each b_h is the upper end of a bracket of relative width ``rtol`` at which the
    certified upper value of delta is checked to be <= the cell's delta: never below the exact scale.

    Budget: ``split="parallel"`` (cells partition the population: each cell at (eps, delta), claim
    ``htm.table.parallel``), ``"basic"`` (a unit may be in every cell: (eps/k, delta/k) with k the number
    of cells) or an integer k (a unit changes at most k cells), both by basic composition
    (``htm.table.basic_composition``), or ``("kov", k)``: the k cells a unit may change, calibrated
    alike, share (eps, delta) by the optimal composition theorem (:func:`kov_budget`, claim
    ``htm.table.kov_composition``), which allows a larger eps per cell than eps/k.

    Returns a DataFrame, one row per cell: ``cell, strata, epsilon, delta`` (the cell's share),
    ``noise, b`` (sigma for Gaussian noise), ``noise_sd`` (sqrt(2) b or sigma), ``exact``,
    ``worst_stratum, worst_pair``, ``generic_b`` (the Laplace mechanism on the sample amplified by
    subsampling, delta = 0: :func:`numeric.amplified_laplace_scale` times the width; for Gaussian noise the
    Gaussian mechanism on the sample at (ln(1 + (e^eps - 1)/q), delta/q), amplified the same way, times the
    width) and ``ratio`` = b/generic_b; with a ``total`` column also ``total, design_sd, rse_design``
    (without noise), ``rse`` (with it: Var = design variance + 2 b^2 or sigma^2, claim
    ``htm.accuracy.variance``) and ``ci95_halfwidth`` (normal approximation).

    Cells sharing a design (N_h, n_h) are calibrated once, all distinct designs in one vectorised
    batch.  A Dask DataFrame (or a ``client`` of ``dask.distributed``) runs the same computation
    partition by partition: the rows are first shuffled so that each cell's strata share a partition,
    and the result is a Dask DataFrame (computed with ``client`` when one is given).

    Source: ht-mechanism (000), Abstract (which noise scale for (eps, delta)), Section 1.3.

    >>> import pandas as pd
    >>> t = calibrate_table(pd.DataFrame({"cell": ["A", "A"], "stratum": [1, 2], "N": [10_000, 500],
    ...                                   "n": [500, 100]}), 1.0, 1e-6)
    >>> round(float(t["b"].iloc[0]), 4), bool(t["exact"].iloc[0])
    (5.6089, True)
    """
    require_noise(noise)
    rtol = tolerance("rtol", rtol)
    if _is_dask(cells) or client is not None:
        return _calibrate_dask(cells, epsilon, delta, noise, split, client, rtol)
    import pandas as pd

    if not isinstance(cells, pd.DataFrame):
        validate_cells(cells)             # the refusal naming what cells must be
    ncells = int(cells["cell"].nunique()) if "cell" in cells.columns else 1
    eps, dlt, _ = _budget(epsilon, delta, split, ncells)
    return _calibrate_frame(cells, eps, dlt, noise, rtol)


def require_noise(noise):
    if noise not in NOISES:
        raise ParameterError("noise", f"noise must be one of {NOISES}, got {noise!r}")


def _calibrate_dask(cells, epsilon, delta, noise, split, client, rtol):
    try:
        import dask.dataframe as dd
    except ImportError:         # pragma: no cover - the optional extra
        raise ImportError('calibrate_table on Dask needs the optional dependency: pip install "dpderive[dask]"')
    import pandas as pd

    ddf = cells
    if isinstance(cells, pd.DataFrame):
        validate_cells(cells)
        workers = len(client.scheduler_info().get("workers", {})) if client is not None else 1
        ddf = dd.from_pandas(cells, npartitions=max(1, min(len(cells), 4 * max(workers, 1))))
    cols = [str(c) for c in ddf.columns]
    if "cell" not in cols:
        raise ParameterError("cells", f"cells column 'cell' is missing (found {', '.join(cols)})")
    ncells = int(ddf["cell"].nunique().compute()) if split == "basic" else 1
    eps, dlt, _ = _budget(epsilon, delta, split, ncells)
    whole = ddf.shuffle(on="cell") if ddf.npartitions > 1 else ddf
    out = whole.map_partitions(_calibrate_partition, eps, dlt, noise, rtol, meta=_meta("total" in cols))
    if client is not None and isinstance(cells, pd.DataFrame):
        return client.compute(out).result().reset_index(drop=True)
    return out


def _calibrate_partition(part, eps, dlt, noise, rtol):
    if len(part) == 0:
        return _meta("total" in part.columns)
    return _calibrate_frame(part, eps, dlt, noise, rtol)


# -- the release ------------------------------------------------------------------------------------
@provenance("htm.accuracy.variance", "htm.table.parallel")
def release_table(scales, estimates, simulate=False, rng=None):
    """Add the calibrated noise to each cell's estimate: the released table.

    ``scales`` is the result of :func:`calibrate_table` (columns ``cell``, ``b``, ``noise``);
    ``estimates`` maps each cell to its Horvitz-Thompson estimate (a dict, a pandas Series indexed by
    cell, or a DataFrame with columns ``cell`` and ``estimate``).  For a real release the noise comes
    from OpenDP's samplers (``make_laplace`` / ``make_gaussian`` on floats), which are safe against the
    floating-point attacks on naive samplers (Mironov 2012); OpenDP is an optional dependency, and
    without it the function refuses with the command that installs it
    (``pip install "dpderive[opendp]"``).  ``simulate=True`` draws with the numpy Generator ``rng``
    instead, for simulations only: its samples are *not* safe for a release, and the result says so
    in its ``sampler`` column.

    Returns a DataFrame: ``cell, estimate, noise, b, released, sampler``.  The variance of
    ``released`` about the population total is the design variance plus 2 b^2 (Laplace) or sigma^2
    (claim ``htm.accuracy.variance``).

    Source: ht-mechanism (000), Section 1.4 (the released Z = t(X, S) + noise).
    """
    import pandas as pd

    from ._common import as_rng

    need = {"cell", "b", "noise"}
    if not isinstance(scales, pd.DataFrame) or not need <= set(scales.columns):
        raise ParameterError("scales", "scales must be the DataFrame of calibrate_table (columns cell, b, noise)")
    if isinstance(estimates, pd.DataFrame):
        if not {"cell", "estimate"} <= set(estimates.columns):
            raise ParameterError("estimates", "estimates must have columns 'cell' and 'estimate' (or be a "
                                 "mapping cell -> estimate)")
        est = dict(zip(estimates["cell"], estimates["estimate"]))
    elif isinstance(estimates, (pd.Series, dict)):
        est = dict(estimates.items())
    else:
        raise ParameterError("estimates", "estimates must be a dict or Series cell -> estimate, or a DataFrame "
                             "with columns cell and estimate")
    cells = list(scales["cell"])
    missing = [c for c in cells if c not in est]
    if missing:
        raise ParameterError("estimates", f"estimates has no estimate for cell {missing[0]!r}")
    x = np.array([float(est[c]) for c in cells])
    if not np.all(np.isfinite(x)):
        raise ParameterError("estimates", f"estimates must be finite (cell {cells[int(np.argmax(~np.isfinite(x)))]!r})")
    b = scales["b"].to_numpy(dtype=float)
    kinds = list(scales["noise"])
    if simulate is not True and simulate is not False:
        raise ParameterError("simulate", f"simulate must be True or False, got {simulate!r}")
    if simulate:
        if rng is None:
            raise ParameterError("rng", "rng must be a numpy Generator (np.random.default_rng(seed)) for a simulation")
        g = as_rng(rng)
        noise = np.array([(g.laplace(0.0, s) if k == "laplace" else g.normal(0.0, s)) if s > 0 else 0.0
                          for s, k in zip(b, kinds)])
        released = x + noise
        sampler = SIMULATED
    else:
        if rng is not None:
            raise ParameterError("rng", "rng is for simulate=True only (a release draws with OpenDP's sampler)")
        try:
            import opendp.prelude as dp
        except ImportError:
            raise ImportError(f"release_table needs OpenDP's samplers for a real release: {INSTALL} "
                              "(or simulate=True with a numpy Generator, for simulations only)") from None
        dp.enable_features("contrib")
        import opendp

        cache: dict = {}
        released = x.copy()          # a scale of 0: the estimate itself (the sample must then stay secret)
        for k, (s, kind, v) in enumerate(zip(b, kinds, x)):
            if s == 0:
                continue
            key = (kind, float(s))
            if key not in cache:
                make = dp.m.make_laplace if kind == "laplace" else dp.m.make_gaussian
                cache[key] = make(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=float(s))
            released[k] = cache[key](float(v))
        sampler = f"OpenDP {getattr(opendp, '__version__', '')}".strip()
    return pd.DataFrame({"cell": cells, "estimate": x, "noise": kinds, "b": b, "released": released,
                         "sampler": sampler})


__all__ = ["calibrate_table", "kov_budget", "release_table", "validate_cells"]
