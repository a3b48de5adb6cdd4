"""Reports of verified claims: a plain-text table and JSON (the LaTeX document is in :mod:`.latex`)."""
from __future__ import annotations

from collections import OrderedDict

from .core import (CITATIONS, STRENGTH_LABELS, STRENGTHS, Claim, Verdict, all_claims, all_errata, all_findings,
                   all_readings)


def claim_record(c: Claim, v: Verdict | None) -> dict:
    rec = {"id": c.id, "title": c.title,
           "source": {"document": c.source.document, "location": c.source.location},
           "kind": c.kind, "statement": str(c.statement), "latex": c.latex(),
           "conditions": [str(k) for k in c.conditions], "expected": c.expected, "hash": c.digest()}
    if v is not None:
        rec.update({"method": v.method, "passed": v.ok, "holds": v.holds, "label": v.label,
                    "strength": v.strength, "citations": v.citations,
                    "seconds": round(v.seconds, 4), "checks": v.as_dict()["checks"]})
    return rec


def strength_counts(verdicts) -> "OrderedDict[str, int]":
    """How many claims (stated by the toolkit or corrected, not printed errors) rest on each strength,
    strongest first; with the undecided and failed ones."""
    out: OrderedDict[str, int] = OrderedDict((STRENGTH_LABELS[k], 0) for k in STRENGTHS)
    for v in verdicts:
        if not v.expected:
            continue
        key = STRENGTH_LABELS[v.strength] if v.strength else v.label
        out[key] = out.get(key, 0) + 1
    return out


def strength_line(verdicts) -> str:
    return "; ".join(f"{n} {k}" for k, n in strength_counts(verdicts).items() if n)


def citation_index(verdicts) -> "OrderedDict[str, list[str]]":
    """Every cited standard result with the claims whose verdict uses it."""
    out: OrderedDict[str, list[str]] = OrderedDict()
    for v in verdicts:
        for key in v.citations:
            out.setdefault(key, []).append(v.claim_id)
    return out


def json_report(verdicts: dict[str, Verdict]) -> dict:
    """Everything verified: per claim its id, source, kind, method, passed, seconds; the errata
    with printed and corrected forms and counterexamples.  ``passed`` means the outcome was the
    expected one: proved for a claim, refuted by its counterexample for a printed erratum."""
    claims = [c for c in all_claims() if c.id in verdicts]
    errata = []
    for e in all_errata():
        if e.printed.id not in verdicts and e.corrected.id not in verdicts:
            continue
        vp, vc = verdicts.get(e.printed.id), verdicts.get(e.corrected.id)
        errata.append({"id": e.id, "source": str(e.source), "explanation": e.explanation,
                       "readings": list(e.readings),
                       "printed": claim_record(e.printed, vp), "corrected": claim_record(e.corrected, vc),
                       "counterexample": {str(k): str(val) for k, val in e.printed.counterexample.items()}})
    ok = sum(verdicts[c.id].ok for c in claims)
    vs = [verdicts[c.id] for c in claims]
    readings = [dict(id=r.id, source=str(r.source), printed=r.printed, reading=r.reading, why=r.why,
                     alternatives=r.alternatives, claims=list(r.claims)) for r in all_readings()]
    findings = [dict(id=f.id, source=str(f.source), text=f.text, claims=list(f.claims)) for f in all_findings()]
    cites = [dict(key=k, name=CITATIONS[k].name, statement=CITATIONS[k].statement,
                  reference=CITATIONS[k].reference, claims=ids) for k, ids in citation_index(vs).items()]
    return {"summary": {"claims": len(claims), "as_expected": ok, "unexpected": len(claims) - ok,
                        "errata": len(errata), "readings": len(readings), "findings": len(findings),
                        "by_strength": dict(strength_counts(vs))},
            "claims": [claim_record(c, verdicts[c.id]) for c in claims], "errata": errata,
            "readings": readings, "findings": findings, "citations": cites}


def table(verdicts: list[Verdict]) -> str:
    """Plain-text table: id, source, method, verdict, seconds."""
    rows = [("id", "source", "method", "verdict", "seconds")]
    claims = {c.id: c for c in all_claims()}
    for v in verdicts:
        c = claims[v.claim_id]
        rows.append((c.id, c.source.location, v.method, v.label, f"{v.seconds:.2f}"))
    widths = [min(max(len(r[k]) for r in rows), 60) for k in range(5)]
    lines = []
    for i, r in enumerate(rows):
        lines.append("  ".join(col[:widths[k]].ljust(widths[k]) for k, col in enumerate(r)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
