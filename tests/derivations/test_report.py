"""The JSON report: complete and serialisable (the LaTeX report is tested in test_latex.py)."""
from __future__ import annotations

import json

import derivations
from derivations.engine.report import json_report


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
