"""The dpderive command line, run as a user would (subprocesses)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap


def run(*args, check_rc=None):
    r = subprocess.run([sys.executable, "-m", "numeric.cli", *args], capture_output=True, text=True, timeout=600)
    if check_rc is not None:
        assert r.returncode == check_rc, r.stdout + r.stderr
    return r


def test_verify_subset_table_errata_and_json(tmp_path):
    out = tmp_path / "v.json"
    r = run("verify", "--only", "laplace.mgf_ab_*", "--json", str(out), "--quiet", check_rc=0)
    assert "laplace.mgf_ab_plus_one.printed" in r.stdout and "REFUTED" in r.stdout
    assert "Errata (2)" in r.stdout and "counterexample: a = 1, b = 1, mu = 0" in r.stdout
    data = json.loads(out.read_text())
    assert {c["id"] for c in data["claims"]} >= {"laplace.mgf_ab_plus_one", "laplace.mgf_ab_minus_one"}
    assert all(c["passed"] for c in data["claims"])
    assert {e["id"] for e in data["errata"]} == {"laplace.mgf_ab_plus_one", "laplace.mgf_ab_minus_one"}


def test_verify_exits_nonzero_on_unexpected_failure(tmp_path):
    script = textwrap.dedent("""
        import sys, sympy as sp
        import derivations
        from derivations.engine.core import claim, Source
        x = sp.Symbol('x')
        claim(id='zz.false', title='false', source=Source('000_0000000000000000.txt', 'nowhere'),
              kind='identity', lhs=x + 1, rhs=x)
        from numeric.cli import main
        sys.exit(main(['verify', '--only', 'zz.*', '--quiet']))
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "UNEXPECTED: zz.false" in r.stdout


def test_list_and_show():
    r = run("list", check_rc=0)
    assert "laplace.mgf" in r.stdout and "(printed; refuted)" in r.stdout
    r = run("show", "laplace.mgf_ab_plus_one.printed", check_rc=0)
    assert "REFUTED" in r.stdout and "Appendix A.1, Lemma 1" in r.stdout and "latex:" in r.stdout
    assert run("show", "no.such.claim").returncode == 2


def test_latex_command(tmp_path):
    out = tmp_path / "r.tex"
    run("latex", "--out", str(out), "--only", "ht.prop4*", "--quiet", check_rc=0)
    assert r"\end{document}" in out.read_text()


def test_calibrate_census_closed_form():
    """Census (n = N): delta(eps) = 1 - e^{(eps - 1/b)/2}, so b = 1/(eps - 2 ln(1 - delta)) (htm.census.delta)."""
    import math
    r = run("calibrate", "--design", "srs", "--N", "4", "--n", "4", "--epsilon", "0.5", "--delta", "0.1", check_rc=0)
    line = next(s for s in r.stdout.splitlines() if s.startswith("smallest scale"))
    b = float(line.split("=")[1])
    assert abs(b - 1 / (0.5 - 2 * math.log(0.9))) < 1e-8
    assert "worst pair" in r.stdout and "generic route" in r.stdout


def test_profile_table_and_plot(tmp_path):
    """Census profile against the closed form of the Laplace mechanism with sensitivity 1."""
    import math
    png = tmp_path / "p.png"
    r = run("profile", "--N", "3", "--n", "3", "--b", "1", "--epsilons", "0,0.5", "--plot", str(png), "--quiet",
            check_rc=0)
    rows = [s.split() for s in r.stdout.splitlines() if s.strip()[:1].isdigit()]
    assert [(float(e), float(d)) for e, d in rows] == [
        (0.0, pytest_approx(1 - math.exp(-0.5))), (0.5, pytest_approx(1 - math.exp(-0.25)))]
    assert png.stat().st_size > 1000


def pytest_approx(v):
    import pytest
    return pytest.approx(v, abs=1e-14)


def test_calibrate_bad_input_names_the_parameter():
    r = run("calibrate", "--N", "100", "--n", "200", "--epsilon", "1", "--delta", "0.1", check_rc=2)
    assert "n must be" in r.stderr
    r = run("calibrate", "--N", "100", "--n", "20", "--epsilon", "1", "--delta", "1.5", check_rc=2)
    assert "delta must be" in r.stderr


def test_verify_prints_strengths_and_show_lists_citations_readings_findings(tmp_path):
    out = tmp_path / "r7.json"
    r = run("verify", "--only", "htm.r7.minus_out_x_zero_in.*", "--json", str(out), "--quiet", check_rc=0)
    assert "By strength:" in r.stdout and "PROVED" in r.stdout
    data = json.loads(out.read_text())
    assert data["summary"]["by_strength"]["PROVED"] >= 1
    assert all(c["strength"] in ("mechanical", "citations", "exhaustive", "argued", "finite-scope", "numeric", None)
               for c in data["claims"])
    assert {r["id"] for r in data["readings"]} >= {"htm.r7.reading.orientation", "htm.r7.reading.hypothesis"}
    r = run("show", "htm.r7.minus_out_x_zero_in.d_sign", check_rc=0)
    assert "finding:    htm.r7.finding.case8_uses_hypothesis" in r.stdout
    assert "reading:    htm.r7.reading.hypothesis" in r.stdout
    r = run("readings", check_rc=0)
    assert "htm.r7.reading.difference_not_derivative" in r.stdout and "read as:" in r.stdout
    r = run("findings", check_rc=0)
    assert "htm.r7.finding.case8_uses_hypothesis" in r.stdout
