"""LaTeX and JSON reports: complete, hash-stamped, and (where pdflatex exists) compiling."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

import derivations
from derivations.engine.latex import latex_document
from derivations.engine.report import json_report


def test_latex_document_structure_and_hashes(all_verdicts):
    tex = latex_document(all_verdicts)
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert tex.count(r"\begin{document}") == 1
    assert r"\section*{Errata}" in tex and r"\section{\texttt{004\_005a37d6f70bd1b7.txt}}" in tex
    for head in ("Readings of damaged text", "Findings of the review", "Cited standard results"):
        assert f"\\section*{{{head}}}" in tex
    assert "By strength:" in tex
    stamped = dict(re.findall(r"% claim (\S+) hash:([0-9a-f]{16})", tex))
    claims = {c.id: c for c in derivations.claims()}
    assert set(stamped) == set(claims)
    for cid, digest in stamped.items():
        assert claims[cid].digest() == digest
    # braces balance outside escaped ones
    body = tex.replace(r"\{", "").replace(r"\}", "")
    assert body.count("{") == body.count("}")


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex is not installed (.ci/run installs it on Debian)")
def test_latex_report_compiles(all_verdicts, tmp_path):
    tex = tmp_path / "report.tex"
    tex.write_text(latex_document(all_verdicts))
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:]
    assert (tmp_path / "report.pdf").stat().st_size > 10_000


def test_json_report_fields(all_verdicts):
    data = json_report(all_verdicts)
    json.dumps(data)  # serialisable
    assert data["summary"]["claims"] == len(derivations.claims())
    for rec in data["claims"]:
        assert {"id", "source", "kind", "method", "passed", "seconds", "strength", "citations"} <= set(rec)
    assert sum(data["summary"]["by_strength"].values()) == sum(1 for c in derivations.claims() if c.expected)
    cited = {k for rec in data["claims"] for k in rec["citations"]}
    assert cited == {c["key"] for c in data["citations"]}
    for c in data["citations"]:       # every cited result is listed with the claims that use it
        assert c["reference"] and c["claims"]
    for e in data["errata"]:
        assert e["printed"]["statement"] and e["corrected"]["statement"]
        # a point, or {} for a closed statement refuted as it stands
        assert e["counterexample"] or not derivations.get(e["printed"]["id"]).lhs.free_symbols
