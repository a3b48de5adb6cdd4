"""Tables of cells: numeric.tables (calibrate_table, release_table) and ``dpderive calibrate --cells``.

References (independent of the code under test):
* per-stratum calibrations and profiles by the exact search of one design (numeric.calibrate_scale /
  privacy_profile on SRS with a BinaryDomain: the branch and bound of profile/search/binary.py, which
  shares no code with the one-unit closed forms of profile/search/one_unit.py used by the table);
* the design variance of an SRS binary stratum from the hypergeometric law (scipy.stats.hypergeom:
  Var(N/n Y)), not the S_h^2 formula of the code;
* seeded Monte Carlo of the released noise (mean and variance within 5 standard errors).
"""
from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.stats import hypergeom

from numeric import SRS, BinaryDomain, calibrate_scale, privacy_profile
from numeric._common import ParameterError
from numeric.cli import main
from numeric.tables import calibrate_table, release_table

CELLS = pd.DataFrame({
    "cell": ["A", "A", "A", "B", "C", "C", "D"],
    "stratum": ["s1", "s2", "s3", "s1", "s1", "s2", "s1"],
    "N": [20_000, 500, 37, 800, 50, 70, 3_000],
    "n": [400, 100, 37, 80, 10, 7, 2_999],
})


def per_stratum(frame, eps, delta, noise="laplace"):
    """{cell: [exact scale of each stratum by the search of one design]}."""
    out = {}
    for cell, g in frame.groupby("cell"):
        out[cell] = [float(calibrate_scale(SRS(int(N), int(n)), BinaryDomain(int(N)), eps, delta, noise=noise))
                     for N, n in zip(g["N"], g["n"])]
    return out


@pytest.mark.parametrize("eps, delta, noise", [(1.0, 1e-6, "laplace"), (0.3, 1e-3, "laplace"),
                                               (1.0, 1e-5, "gaussian")])
def test_cell_scales_against_independent_per_stratum_calibrations(eps, delta, noise):
    """Each cell's scale is the largest of its strata's exact scales (to the calibration's rtol), never
    below what a stratum needs: at the cell's scale every stratum's exact delta meets the target."""
    table = calibrate_table(CELLS, eps, delta, noise=noise).set_index("cell")
    ref = per_stratum(CELLS, eps, delta, noise)
    for cell, scales in ref.items():
        b = table.loc[cell, "b"]
        assert max(scales) / (1 + 2e-9) <= b <= max(scales) * (1 + 2e-9)
        assert table.loc[cell, "exact"]
        g = CELLS[CELLS["cell"] == cell]
        for N, n in zip(g["N"], g["n"]):
            assert privacy_profile(SRS(int(N), int(n)), BinaryDomain(int(N)), b, eps, noise=noise) <= delta
        assert table.loc[cell, "noise_sd"] == pytest.approx(math.sqrt(2) * b if noise == "laplace" else b, rel=1e-15)
        if noise == "laplace":
            # generic route (delta = 0) is never below the exact scale
            assert table.loc[cell, "generic_b"] >= b and table.loc[cell, "ratio"] <= 1


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-6), (0.3, 1e-9), (3.0, 1e-5)])
def test_gaussian_generic_scale_is_the_amplified_gaussian_mechanism(eps, delta):
    """The generic sigma of a Gaussian cell is the smallest sigma at which the Gaussian mechanism on the sample
    total (sensitivity N/n) is (ln(1 + (e^eps - 1) N/n), delta N/n)-DP, which sampling without replacement
    amplifies to (eps, delta) (Balle, Barthe and Gaboardi 2018, Thm 9).  Reference: delta of the Gaussian
    mechanism (Balle and Wang 2018, Thm 8) written here with mpmath's erfc at 50 digits; at sigma it meets
    delta_b, and 1e-9 below sigma it does not.  The exact scale is near it: the ratio is within 1e-3."""
    import mpmath

    def delta_gauss(e, h, sigma):
        a, c = h / (2 * sigma), e * sigma / h
        phi = lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2
        return phi(a - c) - mpmath.exp(e) * phi(-a - c)

    table = calibrate_table(CELLS, eps, delta, noise="gaussian").set_index("cell")
    with mpmath.workdps(50):
        for cell, g in CELLS.groupby("cell"):
            sigma = table.loc[cell, "generic_b"]
            met = []
            for N, n in zip(g["N"], g["n"]):
                q = mpmath.mpf(int(n)) / int(N)
                e_b, d_b = mpmath.log1p(mpmath.expm1(eps) / q), delta / q
                if d_b < 1:          # (else no noise is needed on this route)
                    met.append([s for s in (sigma, sigma * (1 - 1e-9)) if delta_gauss(e_b, 1 / q, s) <= d_b])
            # the cell's generic sigma is its largest stratum's: every stratum is met at sigma, and one is
            # not met 1e-9 below it
            assert all(sigma in ok for ok in met)
            assert any(len(ok) == 1 for ok in met)
            assert abs(table.loc[cell, "ratio"] - 1) < 1e-3


def test_bounded_values_scale_by_the_width():
    """Values in [lower, upper]: the exact scale is the width times the binary scale (claim
    htm.bounded.binary_pair); checked with the search on binary data at b / width."""
    frame = CELLS.assign(lower=[0.0, 10.0, -5.0, 0.0, 2.0, 2.0, 0.0], upper=[100.0, 30.0, 5.0, 1.0, 3.0, 12.0, 7.5])
    table = calibrate_table(frame, 1.0, 1e-6).set_index("cell")
    for cell, g in frame.groupby("cell"):
        widths = (g["upper"] - g["lower"]).to_numpy()
        ref = [w * float(calibrate_scale(SRS(int(N), int(n)), BinaryDomain(int(N)), 1.0, 1e-6))
               for w, N, n in zip(widths, g["N"], g["n"])]
        b = table.loc[cell, "b"]
        assert max(ref) / (1 + 2e-9) <= b <= max(ref) * (1 + 2e-9)
        for w, N, n in zip(widths, g["N"], g["n"]):
            assert privacy_profile(SRS(int(N), int(n)), BinaryDomain(int(N)), b / w, 1.0) <= 1e-6


@pytest.mark.parametrize("split, k", [("basic", 4), (3, 3), ("parallel", 1)])
def test_budget_split(split, k):
    """basic composition: every cell calibrated at (eps/k, delta/k)."""
    table = calibrate_table(CELLS, 1.2, 1e-5, split=split).set_index("cell")
    ref = per_stratum(CELLS, 1.2 / k, 1e-5 / k)
    for cell, scales in ref.items():
        assert table.loc[cell, "epsilon"] == pytest.approx(1.2 / k) and table.loc[cell, "delta"] == pytest.approx(1e-5 / k)
        assert max(scales) / (1 + 2e-9) <= table.loc[cell, "b"] <= max(scales) * (1 + 2e-9)


def test_cells_sharing_a_design_are_computed_once(monkeypatch):
    from numeric.profile.search.one_unit import Components

    seen = []
    original = Components.calibrate

    def spy(self, *a, **k):
        seen.append(len(self))
        return original(self, *a, **k)

    monkeypatch.setattr(Components, "calibrate", spy)
    frame = pd.DataFrame({"cell": np.repeat(np.arange(500), 2), "stratum": np.tile([1, 2], 500),
                          "N": np.tile([1000, 40], 500), "n": np.tile([50, 4], 500)})
    table = calibrate_table(frame, 1.0, 1e-6)
    assert seen == [2] and len(table) == 500            # two distinct designs, one batch
    assert table["b"].nunique() == 1


def test_accuracy_against_the_hypergeometric_variance():
    """Var(noisy total) = design variance + 2 b^2 (claim htm.accuracy.variance); the design variance of
    each binary SRS stratum from scipy's hypergeometric law: Var((N/n) Y), Y ~ Hyp(N, t, n)."""
    frame = CELLS.assign(total=[3_000, 120, 5, 400, 10, 35, 1])
    table = calibrate_table(frame, 1.0, 1e-6).set_index("cell")
    for cell, g in frame.groupby("cell"):
        with np.errstate(divide="ignore", invalid="ignore"):     # scipy's kurtosis term at a census stratum
            V = sum((N / n) ** 2 * float(hypergeom(int(N), int(t), int(n)).stats(moments="v"))
                    for N, n, t in zip(g["N"], g["n"], g["total"]))
        T = g["total"].sum()
        b = table.loc[cell, "b"]
        assert table.loc[cell, "rse_design"] == pytest.approx(math.sqrt(V) / T, rel=1e-10)
        assert table.loc[cell, "rse"] == pytest.approx(math.sqrt(V + 2 * b * b) / T, rel=1e-10)
        assert table.loc[cell, "ci95_halfwidth"] == pytest.approx(1.959963984540054 * math.sqrt(V + 2 * b * b), rel=1e-10)


BAD = [
    (lambda f: f.drop(columns="n"), "column 'n' is missing"),
    (lambda f: f.assign(n=[400, 100, 38, 80, 10, 7, 2_999]), "row 2 (cell 'A'), column 'n'"),
    (lambda f: f.assign(N=[20_000, 500.5, 37, 800, 50, 70, 3_000]), "row 1 (cell 'A'), column 'N'"),
    (lambda f: f.assign(N=[20_000, 500, 37, 800, np.nan, 70, 3_000]), "row 4 (cell 'C'), column 'N'"),
    (lambda f: f.assign(stratum=["s1", "s2", "s1", "s1", "s1", "s2", "s1"]), "row 2 (cell 'A'), column 'stratum'"),
    (lambda f: f.assign(lower=0.0, upper=[1, 1, 1, 0, 1, 1, 1]), "row 3 (cell 'B'), column 'upper'"),
    (lambda f: f.assign(lower=0.0), "'lower' and 'upper' go together"),
    (lambda f: f.assign(total=[1, 2, 38, 4, 5, 6, 7]), "row 2 (cell 'A'), column 'total'"),
    (lambda f: f.assign(weight=1.0), "column 'weight' is not one of"),
    (lambda f: f.assign(cell=["A", None, "A", "B", "C", "C", "D"]), "row 1, column 'cell'"),
    (lambda f: f.iloc[:0], "has no rows"),
    (lambda f: f.to_dict(), "must be a pandas DataFrame"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_frames_are_refused_by_row_and_column(k):
    make, text = BAD[k]
    with pytest.raises(ParameterError) as exc:
        calibrate_table(make(CELLS.copy()), 1.0, 1e-6)
    assert exc.value.param == "cells" and text in str(exc.value)


@pytest.mark.parametrize("kw, param", [({"split": "some"}, "split"), ({"split": 0}, "split"),
                                       ({"noise": "cauchy"}, "noise"), ({"rtol": 0.5}, "rtol")])
def test_bad_options(kw, param):
    with pytest.raises(ParameterError) as exc:
        calibrate_table(CELLS, 1.0, 1e-6, **kw)
    assert exc.value.param == param


# -- the release --------------------------------------------------------------------------------------
def test_release_with_opendp_adds_noise_of_the_calibrated_law():
    """OpenDP's sampler (no seed: a real release); 4,000 cells of scale 3: the noise has mean 0 and
    variance 2 b^2 = 18 within 5 standard errors (SE of the mean sqrt(18/4000), of the variance
    sqrt((mu4 - sigma^4)/4000) with mu4 = 24 b^4 for Laplace)."""
    m = 4000
    scales = pd.DataFrame({"cell": np.arange(m), "b": 3.0, "noise": "laplace"})
    est = pd.Series(np.linspace(0, 1e4, m), index=np.arange(m))
    out = release_table(scales, est)
    assert out["sampler"].iloc[0].startswith("OpenDP")
    z = out["released"].to_numpy() - out["estimate"].to_numpy()
    assert abs(z.mean()) <= 5 * math.sqrt(18 / m)
    assert abs(z.var() - 18) <= 5 * math.sqrt((24 * 3.0**4 - 18**2) / m)


def test_release_simulation_uses_the_generator_and_says_so():
    scales = calibrate_table(CELLS, 1.0, 1e-6)
    est = {c: 100.0 for c in scales["cell"]}
    a = release_table(scales, est, simulate=True, rng=np.random.default_rng(7))
    b = release_table(scales, est, simulate=True, rng=np.random.default_rng(7))
    assert a["released"].tolist() == b["released"].tolist()
    assert "simulation only" in a["sampler"].iloc[0]
    with pytest.raises(ParameterError) as exc:
        release_table(scales, est, simulate=True)
    assert exc.value.param == "rng"
    with pytest.raises(ParameterError) as exc:
        release_table(scales, {"A": 1.0}, simulate=True, rng=np.random.default_rng(1))
    assert exc.value.param == "estimates" and "'B'" in str(exc.value)


def test_release_refuses_without_opendp(monkeypatch):
    monkeypatch.setitem(sys.modules, "opendp", None)
    monkeypatch.setitem(sys.modules, "opendp.prelude", None)
    scales = calibrate_table(CELLS, 1.0, 1e-6)
    with pytest.raises(ImportError, match=r'pip install "dpderive\[opendp\]"'):
        release_table(scales, {c: 1.0 for c in scales["cell"]})


# -- Dask ---------------------------------------------------------------------------------------------
def _same(a, b):
    a = a.sort_values("cell").reset_index(drop=True)
    b = b.sort_values("cell").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_dtype=False)


def test_dask_dataframe_partitions_split_cells():
    """A Dask DataFrame whose partitions cut cells apart: the rows are shuffled by cell first, and the
    result equals the in-process one."""
    dd = pytest.importorskip("dask.dataframe")
    frame = CELLS.assign(total=[3_000, 120, 5, 400, 10, 35, 1])
    got = calibrate_table(dd.from_pandas(frame, npartitions=3), 1.0, 1e-6).compute(scheduler="sync")
    _same(got, calibrate_table(frame, 1.0, 1e-6))


def test_dask_local_cluster_client():
    distributed = pytest.importorskip("dask.distributed")
    frame = pd.concat([CELLS.assign(cell=CELLS["cell"] + str(k)) for k in range(5)], ignore_index=True)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        got = calibrate_table(frame, 1.0, 1e-6, client=client)
    _same(got, calibrate_table(frame, 1.0, 1e-6))


# -- the command line ---------------------------------------------------------------------------------
def run(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def write(path, text):
    path.write_text(text)
    return str(path)


def test_cli_cells_to_csv_equals_the_function(capsys, tmp_path):
    src = write(tmp_path / "cells.csv", "cell,stratum,N,n,total\n" + "".join(
        f"{c},{s},{N},{n},{t}\n" for c, s, N, n, t in zip(CELLS["cell"], CELLS["stratum"], CELLS["N"], CELLS["n"],
                                                         [3000, 120, 5, 400, 10, 35, 1])))
    out = tmp_path / "scales.csv"
    rc, stdout, err = run(capsys, "calibrate", "--cells", src, "--epsilon", "1", "--delta", "1e-6", "--out", str(out))
    assert rc == 0 and err == "" and "4 cells" in stdout
    got = pd.read_csv(out)
    ref = calibrate_table(CELLS.assign(total=[3000.0, 120, 5, 400, 10, 35, 1]), 1.0, 1e-6)
    assert got["b"].tolist() == ref["b"].tolist()              # written with 17 digits: the same doubles
    assert got["rse"].tolist() == pytest.approx(ref["rse"].tolist(), rel=1e-15)
    rc, stdout, _ = run(capsys, "calibrate", "--cells", src, "--epsilon", "1", "--delta", "1e-6")
    assert rc == 0 and "exact" in stdout and "rse" in stdout and len(stdout.splitlines()) == 2 + 4


@pytest.mark.parametrize("text, where", [
    ("cell,stratum,N,n\nA,1,100,10\nA,2,50,60\n", "line 3 (cell 'A'), column 'n'"),
    ("cell,stratum,N,n\nA,1,100,10\nB,1,abc,5\n", "line 3 (cell 'B'), column 'N'"),
    ("cell,stratum,N,n\nA,1,100,10,7\n", "line 2 of"),
    ("cell,stratum,N\nA,1,100\n", "column 'n' is missing"),
    ("cell,stratum,N,n,lower,upper\nA,1,100,10,5,5\n", "line 2 (cell 'A'), column 'upper'"),
    ("cell,stratum,N,n\nA,1,100,10\n,2,100,10\n", "line 3, column 'cell'"),
    ("", "is empty"),
])
def test_cli_malformed_csv_refused_by_line_and_column_nothing_written(capsys, tmp_path, text, where):
    src = write(tmp_path / "cells.csv", text)
    out = tmp_path / "scales.csv"
    out.write_text("kept\n")
    rc, stdout, err = run(capsys, "calibrate", "--cells", src, "--epsilon", "1", "--delta", "1e-6", "--out", str(out))
    assert rc == 2 and stdout == ""
    assert err.startswith("dpderive: --cells: ") and where in err and len(err.strip().splitlines()) == 1
    assert out.read_text() == "kept\n"


@pytest.mark.parametrize("args, flag", [
    (["--N", "100"], "--N"), (["--n", "5"], "--n"), (["--split", "two"], "--split"),
])
def test_cli_cells_flag_conflicts(capsys, tmp_path, args, flag):
    src = write(tmp_path / "cells.csv", "cell,stratum,N,n\nA,1,100,10\n")
    rc, stdout, err = run(capsys, "calibrate", "--cells", src, "--epsilon", "1", "--delta", "1e-6", *args)
    assert rc == 2 and stdout == "" and err.startswith(f"dpderive: {flag}: ")


def test_cli_one_design_still_needs_N(capsys):
    rc, stdout, err = run(capsys, "calibrate", "--epsilon", "1", "--delta", "1e-6")
    assert rc == 2 and err.startswith("dpderive: --N: ")
    rc, stdout, err = run(capsys, "calibrate", "--N", "100", "--n", "10", "--epsilon", "1", "--delta", "1e-6",
                          "--out", "x.csv")
    assert rc == 2 and err.startswith("dpderive: --out: ")


def test_docstring_examples_of_the_tables_module():
    import doctest

    import numeric.tables

    result = doctest.testmod(numeric.tables, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def rr_composition_delta(k, e0, eps):
    """Hockey-stick divergence at e^eps of k independent randomized responses with parameter e0, by
    enumeration of the number l of flipped answers (mpmath, 50 digits): the worst case of k
    (e0, 0)-DP releases (Kairouz, Oh & Viswanath 2015)."""
    import mpmath

    with mpmath.workdps(50):
        e0, eps = mpmath.mpf(e0), mpmath.mpf(eps)
        den = (1 + mpmath.exp(e0)) ** k
        return mpmath.fsum(max(mpmath.mpf(0), mpmath.binomial(k, l) * (mpmath.exp((k - l) * e0) - mpmath.exp(eps + l * e0)) / den)
                           for l in range(k + 1))


@pytest.mark.parametrize("k, eps, delta", [(50, 1.0, 1e-6), (200, 2.0, 1e-5), (30, 0.5, 1e-3), (3, 1.0, 1e-6)])
def test_kov_budget_composes_to_the_target(k, eps, delta):
    """The per-cell budget of split=("kov", k): k releases each (eps0, delta0) compose, by the optimal
    composition theorem, to 1 - (1 - delta0)^k (1 - delta_RR(eps)) <= delta, with delta_RR the k-fold
    randomized response divergence computed here by enumeration (not the code's delta_i sum); and
    eps0 is never below basic composition's eps/k."""
    from numeric.tables import kov_budget

    e0, d0, i = kov_budget(eps, delta, k)
    assert e0 >= eps / k * (1 - 1e-15)
    total = 1 - (1 - d0) ** k * (1 - float(rr_composition_delta(k, e0, eps)))
    assert total <= delta * (1 + 1e-12)
    if k >= 30:
        assert i >= 1 and e0 > 1.2 * eps / k      # the theorem's gain over basic composition
    table = calibrate_table(CELLS, eps, delta, split=("kov", k))
    assert (table["epsilon"] == e0).all() and (table["delta"] == d0).all()
