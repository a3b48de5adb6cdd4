"""Reports of verified claims: JSON and the plain-text views of the terminal (the LaTeX document is in
:mod:`.latex`).

Every text view is grouped by paper, under a heading with the paper's label and title, and every
line fits the width it is given (:mod:`.terminal`); a claim is shown by its short display form, the
full statement being in ``dpderive show`` and in the JSON report.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable

import sympy as sp

from .core import (CITATIONS, STRENGTH_LABELS, STRENGTHS, Claim, Erratum, Verdict, all_claims, all_errata,
                   all_findings, all_readings, registered)
from .papers import Paper, all_papers
from .provenance import provenance
from .render import hypotheses_unicode, prose_unicode, text_unicode
from .terminal import ELLIPSIS, MAX_WIDTH, cut, cut_apart, display, hanging, pretty, wrap

#: Width of the short display form kept in the JSON report.
DISPLAY_WIDTH = MAX_WIDTH
REFUTED = "REFUTED"


# -- counts ----------------------------------------------------------------------------------------
def label_of(v: Verdict) -> str:
    """The verdict's label without the scope of a finite check (``CHECKED (finite scope)``), for counts."""
    if v.expected and v.strength:
        return STRENGTH_LABELS[v.strength]
    return v.label


def label_counts(verdicts: Iterable[Verdict]) -> "OrderedDict[str, int]":
    """How many verdicts carry each label (finite scopes merged), strongest first, then the printed
    statements refuted, then any failure; labels with no verdict are left out."""
    order = [STRENGTH_LABELS[k] for k in STRENGTHS] + [REFUTED]
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[label_of(v)] = counts.get(label_of(v), 0) + 1
    return OrderedDict((k, counts[k]) for k in order + sorted(set(counts) - set(order)) if k in counts)


def strength_counts(verdicts) -> "OrderedDict[str, int]":
    """How many claims (stated by the toolkit or corrected, not printed errors) rest on each strength,
    strongest first; with the undecided and failed ones."""
    out: OrderedDict[str, int] = OrderedDict((STRENGTH_LABELS[k], 0) for k in STRENGTHS)
    for v in verdicts:
        if v.expected:
            out[label_of(v)] = out.get(label_of(v), 0) + 1
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


class Scope:
    """The claims of a report, with the errata, readings and findings that go with them.

    ``covers(paper, location, ids)`` decides for an erratum, reading or finding (default: those
    concerning a claim of the report, or naming no claim and belonging to a paper of the report)."""

    def __init__(self, claims: list[Claim], verdicts: dict[str, Verdict], covers=None, registry=None):
        """``registry``: the (errata, readings, findings) to choose from (default: the whole registry's;
        an index's entries serve as well, :mod:`.index`)."""
        self.claims = claims
        self.verdicts = verdicts
        ids = {c.id for c in claims}
        docs = {c.source.document for c in claims}
        if covers is None:
            def covers(paper, location, item_ids, selected):
                return bool(selected & set(item_ids)) if item_ids else paper.file in docs
        errata, readings, findings = registry or (all_errata(), all_readings(), all_findings())
        self.errata = [e for e in errata
                       if covers(e.source.paper, e.source.location, (e.printed.id, e.corrected.id), ids)]
        self.readings = [r for r in readings if covers(r.source.paper, r.source.location, r.claims, ids)]
        self.findings = [f for f in findings if covers(f.source.paper, f.source.location, f.claims, ids)]

    def papers(self) -> list[Paper]:
        docs = {c.source.document for c in self.claims}
        return [p for p in all_papers() if p.file in docs]

    def of(self, paper: Paper) -> dict:
        """Counts of one paper: claims, as expected, by label, errata, readings, findings."""
        vs = [self.verdicts[c.id] for c in self.claims if c.source.document == paper.file]
        ok = sum(v.ok for v in vs)
        return {"claims": len(vs), "as_expected": ok, "unexpected": len(vs) - ok,
                "by_label": dict(label_counts(vs)),
                "errata": sum(e.source.document == paper.file for e in self.errata),
                "readings": sum(r.source.document == paper.file for r in self.readings),
                "findings": sum(f.source.document == paper.file for f in self.findings)}


# -- JSON ------------------------------------------------------------------------------------------
def claim_record(c: Claim, v: Verdict | None) -> dict:
    rec = {"id": c.id, "title": c.title, "paper": c.source.paper.short, "cite": c.source.cite(),
           "source": {"document": c.source.document, "location": c.source.location},
           "kind": c.kind, "statement": str(c.statement), "display": cut(display(c.statement), DISPLAY_WIDTH),
           "latex": c.latex(), "conditions": [str(k) for k in c.conditions],
           "conditions_display": [display(k) for k in c.conditions],
           "hypotheses": [{"kind": kind, "symbols": [display(sym) for sym in syms]} for kind, syms in c.hypotheses()],
           "hypotheses_display": hypotheses_unicode(c.hypotheses()), "expected": c.expected,
           "by_construction": c.by_construction, "hash": c.digest()}
    if v is not None:
        rec.update({"method": v.method, "passed": v.ok, "holds": v.holds, "label": v.label,
                    "strength": v.strength, "citations": v.citations,
                    "seconds": round(v.seconds, 4), "checks": v.as_dict()["checks"]})
    return rec


def _located(item) -> dict:
    return {"id": item.id, "paper": item.source.paper.short, "cite": item.source.cite(), "source": str(item.source)}


def json_report(verdicts: dict[str, Verdict]) -> dict:
    """Everything verified, with the provenance of the run (:mod:`.provenance`): per claim its id, paper, source, kind, statement (full and a short display
    form), method, passed, seconds; the errata with printed and corrected forms and counterexamples;
    the readings and findings of these claims (and those naming no claim, of their papers); the bibliographic record of every paper (``papers``, each with its
    counts in this report) that the ``paper`` field of each item names.  ``passed`` means the
    outcome was the expected one: proved for a claim, refuted by its counterexample for a printed
    erratum."""
    claims = [c for c in all_claims() if c.id in verdicts]
    vs = [verdicts[c.id] for c in claims]
    scope = Scope(claims, verdicts)
    errata = []
    for e in scope.errata:
        vp, vc = verdicts.get(e.printed.id), verdicts.get(e.corrected.id)
        errata.append({**_located(e), "printed_text": e.printed_text, "corrected_text": e.corrected_text,
                       "explanation": e.explanation, "readings": list(e.readings),
                       "printed": claim_record(e.printed, vp), "corrected": claim_record(e.corrected, vc),
                       "counterexample": {str(k): str(val) for k, val in e.printed.counterexample.items()}})
    readings = [dict(_located(r), printed=r.printed, reading=r.reading, why=r.why, alternatives=r.alternatives,
                     claims=list(r.claims)) for r in scope.readings]
    findings = [dict(_located(f), text=f.text, claims=list(f.claims)) for f in scope.findings]
    cites = [dict(key=k, name=CITATIONS[k].name, statement=CITATIONS[k].statement,
                  reference=CITATIONS[k].reference, claims=ids) for k, ids in citation_index(vs).items()]
    papers = [dict(p.record(), label=p.label(), number=p.number, **scope.of(p)) for p in all_papers()]
    ok = sum(v.ok for v in vs)
    return {"provenance": provenance(),
            "summary": {"claims": len(claims), "as_expected": ok, "unexpected": len(claims) - ok,
                        "errata": len(errata), "readings": len(readings), "findings": len(findings),
                        "by_strength": dict(strength_counts(vs)), "by_label": dict(label_counts(vs))},
            "papers": papers, "claims": [claim_record(c, verdicts[c.id]) for c in claims], "errata": errata,
            "readings": readings, "findings": findings, "citations": cites}


# -- text views ------------------------------------------------------------------------------------
def conditions_text(c: Claim) -> str:
    """The claim's conditions and the assumptions on its symbols, in one line of the papers' notation:
    ``x < 1; n = 1, 2, …; ε > 0; x real`` ('' when there are none)."""
    return "; ".join([display(k) for k in c.conditions] + hypotheses_unicode(c.hypotheses()))



INDENT = "  "
ROW = "    "           # claims under a location
DETAIL = "      "      # lines under a claim: its title
STATEMENT = "        " # its statement, conditions and scope


def heading(paper: Paper, width: int) -> list[str]:
    """``ht-mechanism (000): <title>``, wrapped."""
    return wrap(f"{paper.label()}: {paper.title}", width, INDENT, first="")


def by_paper(items, paper=lambda x: x.source.paper):
    """``items`` grouped by paper, papers in their order, items in theirs."""
    groups: OrderedDict[Paper, list] = OrderedDict((p, []) for p in all_papers())
    for it in items:
        groups[paper(it)].append(it)
    return [(p, group) for p, group in groups.items() if group]


def _grouped(claims: list[Claim], width: int, rows) -> list[str]:
    """Claims under a heading per paper and a line per location; ``rows(c)`` gives a claim's lines."""
    out: list[str] = []
    for paper, group in by_paper(claims):
        out += ([""] if out else []) + heading(paper, width)
        where = None
        for c in group:
            if c.source.location != where:
                where = c.source.location
                out += wrap(where, width, DETAIL, first=INDENT)   # continued below the ids, not at them
            out += rows(c)
    return out


def _widths(cells: list[tuple[str, ...]]) -> tuple[list[int], int]:
    """The widths of the columns after the id, and the width of a full row."""
    widths = [max(len(r[k]) for r in cells) for k in range(1, len(cells[0]))]
    return widths, len(ROW) + max(len(r[0]) for r in cells) + sum(widths) + 2 * len(widths)


def _columns(cells: list[tuple[str, ...]], width: int, indent: str = ROW) -> dict[str, list[str]]:
    """Rows of (id, column, ...): the id left, the other columns aligned; an id too long for its
    column takes a line of its own.  Returns {id: lines}."""
    if not cells:
        return {}
    widths, _ = _widths(cells)
    right_w = sum(widths) + 2 * len(widths)
    id_w = max(0, min(max(len(r[0]) for r in cells), width - len(indent) - right_w))
    out = {}
    for r in cells:
        right = "".join("  " + (col.rjust(w) if k == len(widths) - 1 else col.ljust(w))
                        for k, (col, w) in enumerate(zip(r[1:], widths)))
        if len(r[0]) <= id_w:
            out[r[0]] = [(indent + r[0].ljust(id_w) + right).rstrip()]
        else:
            out[r[0]] = [indent + r[0], (indent + " " * id_w + right).rstrip()]
    return out


def verdict_table(claims: list[Claim], verdicts: dict[str, Verdict], width: int) -> str:
    """The claims by paper and location: id, verdict, method, seconds; under each its title, then its
    statement in the papers' notation and its conditions and hypotheses (each cut to the width:
    ``dpderive show ID`` prints them whole) and, for a check on a finite scope, the scope."""
    cells = [(c.id, label_of(verdicts[c.id]), verdicts[c.id].method, f"{verdicts[c.id].seconds:.2f} s")
             for c in claims]
    if cells and _widths(cells)[1] > width:          # the method goes before an id is pushed to its own line
        cells = [(i, label, seconds) for i, label, _, seconds in cells]
    lines = _columns(cells, width)

    def rows(c: Claim) -> list[str]:
        v = verdicts[c.id]
        out = lines[c.id] + [cut(DETAIL + prose_unicode(c.title), width), cut(STATEMENT + display(c.statement), width)]
        where = conditions_text(c)
        if where:
            out.append(cut(STATEMENT + "if " + where, width))
        scope = next((chk.scope for chk in v.checks if chk.strength == v.strength == "finite-scope"), "")
        if scope:
            out += hanging(STATEMENT + "checked on:", prose_unicode(scope), width, len(STATEMENT) + 12, lines=2)
        return out

    return "\n".join(_grouped(claims, width, rows))


def _expr(srepr: str) -> sp.Basic:
    """An expression stored by its ``srepr`` (the exact evaluations of a check)."""
    return sp.sympify(srepr)


def evaluation_text(record: dict, whole: bool = False) -> tuple[str, str]:
    """The point of an exact evaluation and what both sides are there, each number with its decimal:
    (``N = 3, γ = 1/100 (= 0.01)``, ``lhs = 1 - 16 ln(2)² (≈ -6.687), rhs = 0``)."""
    def value(text: str, dec: str) -> str:
        exact = display(_expr(text))
        if dec and len(exact) > 60 and not whole:    # a long exact form: its decimal (`show` prints the form)
            return f"{dec[2:]} ({'exact' if dec[0] == '=' else 'rounded'}; its exact form is long)"
        return exact + (f" ({dec})" if dec else "")

    point = ", ".join(f"{display(_expr(k))} = {value(v, dec)}" for k, v, dec in record["point"])
    sides = f"lhs = {value(record['lhs'], record['lhs_decimal'])}, rhs = {value(record['rhs'], record['rhs_decimal'])}"
    return point or "the closed statement itself", sides


def erratum_text(e: Erratum, verdicts: dict[str, Verdict], width: int) -> list[str]:
    """One erratum: where; the paper's sentence as printed and the printed statement with its verdict;
    each counterexample with both sides there, in decimals; the corrected statement and sentence; the
    explanation.  The printed and corrected formulas are cut where they differ, so that they are told
    apart at any width."""
    vp, vc = verdicts.get(e.printed.id), verdicts.get(e.corrected.id)
    lab = 20
    out = wrap(f"{e.id}: {e.source.cite()}", width, DETAIL, first=INDENT + "* ")
    if e.printed_text:
        out += hanging(ROW + "the paper says:", f"“{prose_unicode(e.printed_text)}”", width, lab)
    avail = width - lab
    tags = [f"[{vp.label if vp else 'not run'}] ", f"[{vc.label if vc else 'not run'}] "]
    printed, corrected = cut_apart(display(e.printed.statement), display(e.corrected.statement),
                                   [avail - len(t) for t in tags])
    out += hanging(ROW + "printed:", tags[0] + printed, width, lab)
    records = next((chk.evaluations for chk in vp.checks if chk.evaluations), []) if vp else []
    if not records:
        cex = ", ".join(f"{display(k)} = {display(v)}" for k, v in e.printed.counterexample.items())
        out += hanging(ROW + "counterexample:", cex or "the closed statement itself", width, lab, lines=3)
    for rec in records:
        point, sides = evaluation_text(rec)
        label = "counterexample:" if rec["role"] == "counterexample" else "also false at:"
        out += hanging(ROW + label, f"{point}; there {sides}", width, lab, lines=4)
    out += hanging(ROW + "corrected:", tags[1] + corrected, width, lab)
    if e.corrected_text:
        out += hanging(ROW + "corrected, it says:", f"“{prose_unicode(e.corrected_text)}”", width, lab)
    if ELLIPSIS in printed + corrected:
        out += hanging(ROW + "in full:", f"dpderive show {e.printed.id}; dpderive show {e.corrected.id}", width, lab)
    return out + wrap(prose_unicode(e.explanation), width, ROW)


def errata_text(errata: list[Erratum], verdicts: dict[str, Verdict], width: int) -> str:
    if not errata:
        return ""
    out = wrap(f"Errata ({len(errata)}): statements printed in the sources that are wrong", width)
    for e in errata:
        out += [""] + erratum_text(e, verdicts, width)
    return "\n".join(out)


def summary_text(scope: Scope, width: int) -> str:
    """A block per paper: its claims by verdict label, errata, readings and findings."""
    out: list[str] = []
    for paper in scope.papers():
        s = scope.of(paper)
        rows = [("claims", s["claims"], f"({s['as_expected']} as expected, {s['unexpected']} unexpected)")]
        rows += [(INDENT + label, n, "") for label, n in s["by_label"].items()]
        rows += [("errata", s["errata"], ""), ("readings of damaged text", s["readings"], ""),
                 ("findings", s["findings"], "")]
        name_w = max(len(r[0]) for r in rows)
        out += ([""] if out else []) + heading(paper, width)
        out += [cut(f"{ROW}{name:<{name_w}}  {n:>4}  {note}".rstrip(), width) for name, n, note in rows]
    return "\n".join(out)


def totals_text(scope: Scope, width: int) -> str:
    vs = [scope.verdicts[c.id] for c in scope.claims]
    bad = sum(not v.ok for v in vs)
    lines = wrap(f"{len(vs)} claims: {len(vs) - bad} as expected, {bad} unexpected; {len(scope.errata)} errata; "
                 f"{len(scope.readings)} readings of damaged text and {len(scope.findings)} findings "
                 "(`dpderive readings`, `dpderive findings`).", width)
    return "\n".join(lines + wrap("By strength: " + strength_line(vs) + ".", width))


def list_text(claims: list[Claim], width: int) -> str:
    """Every claim by paper and location: id and kind, and under them the title (cut to the width)."""
    cells = _columns([(c.id, c.kind, "(printed; refuted)" if not c.expected else "") for c in claims], width)

    def rows(c: Claim) -> list[str]:
        return cells[c.id] + [cut(DETAIL + prose_unicode(c.title), width)]

    return "\n".join(_grouped(claims, width, rows))


def remarks_text(items, width: int, fields) -> str:
    """Readings or findings by paper: ``* id: location`` and the ``fields(item)`` (label, text) wrapped."""
    out: list[str] = []
    for paper, group in by_paper(items):
        out += ([""] if out else []) + heading(paper, width)
        for it in group:
            out += wrap(f"{it.id}: {it.source.location}", width, DETAIL, first=INDENT + "* ")
            for label, text in fields(it):
                if text:
                    text = text if label == "printed" else prose_unicode(text)   # the OCR's glyphs verbatim
                    out += wrap(f"{label}: {text}" if label else text, width, DETAIL, first=ROW)
    return "\n".join(out)


def paper_fields(p: Paper) -> list[tuple[str, str]]:
    """The fields of a paper's record that it has, as (label, text)."""
    fields = [("title", p.title), ("authors", " and ".join(p.authors) or "none named"),
              ("date", p.date or "none printed"), ("venue", p.venue), ("file", p.file), ("remark", p.remark)]
    return [(label, text) for label, text in fields if text]


def papers_text(width: int, registry=None) -> str:
    """Every registered paper: label, title, authors, date, venue, file, and what is encoded of it
    (``registry``: the claims, errata, readings and findings to count; default the whole registry's)."""
    claims, errata, readings, findings = registry or (all_claims(), all_errata(), all_readings(), all_findings())
    out: list[str] = []
    for p in all_papers():
        def n(items):
            return sum(it.source.document == p.file for it in items)
        out += ([""] if out else []) + [cut(p.label(), width)]
        for label, text in paper_fields(p):
            if label != "remark":
                out += hanging(f"{INDENT}{label}:", text, width, len(INDENT) + 10)
        if n(claims):
            out += hanging(f"{INDENT}encoded:", f"{n(claims)} claims, {n(errata)} errata, {n(readings)} readings, "
                           f"{n(findings)} findings", width, len(INDENT) + 10)
        else:
            out.append(INDENT + "not yet encoded")
    return "\n".join(out)


def claim_text(c: Claim, v: Verdict, width: int, results: str = "") -> str:
    """Everything about one claim (``dpderive show``): its title, its paper's record, the source, the
    statement in full (one line in the papers' notation, two-dimensional when that fits, and LaTeX),
    its conditions and the hypotheses on its symbols, the verdict and its checks, where the verdict
    came from (``results``), citations, errata, readings and findings."""
    col = 13

    def field(label: str, text) -> list[str]:
        return hanging(label, str(text), width, col)

    p = c.source.paper
    out = wrap(f"{c.id}: {prose_unicode(c.title)}", width, ROW, first="")
    out += field("paper:", p.label())
    for label, text in paper_fields(p):
        out += field(f"{INDENT}{label}:", text)
    out += field("source:", c.source.cite()) + field("kind:", c.kind)
    out += field("statement:", display(c.statement))
    two_d = pretty(c.statement, width - col)
    if two_d:
        out += [(" " * col + line).rstrip() for line in two_d.splitlines()]
    if c.conditions:
        out += field("conditions:", "; ".join(display(k) for k in c.conditions))
    hyp = hypotheses_unicode(c.hypotheses())
    if hyp:
        out += field("hypotheses:", "; ".join(hyp) + " (declared on the symbols; the checks use them)")
    out += field("latex:", c.latex())
    if c.note:
        out += field("note:", prose_unicode(c.note))
    out += field("verdict:", f"{v.label} ({v.method}, {v.seconds:.2f} s)")
    if c.limitation:
        out += field("not general:", prose_unicode(c.limitation))
    if results:
        out += field("results:", results)
    for chk in v.checks:
        if chk.steps:                      # a proof: one line per typed step
            status = "passed" if chk.passed else ("error" if chk.error else "not proved")
            out += wrap(f"- {chk.method} ({status}), {len(chk.steps)} steps:", width, ROW, first=INDENT)
            out += [line for st in chk.steps
                    for line in wrap(f"[{st['kind']}] {text_unicode(st['text'])}", width, ROW + "  ", first=ROW)]
            joined = "; ".join(f"[{st['kind']}] {st['text']}" for st in chk.steps)
            rest = chk.detail[len(joined):].strip("; ") if chk.detail.startswith(joined) else ""
            if rest:
                out += wrap(text_unicode(rest), width, ROW, first=ROW)
        else:
            out += wrap(f"- {chk.method}: {text_unicode(chk.detail)}", width, ROW, first=INDENT)
        for rec in chk.evaluations:
            point, sides = evaluation_text(rec, whole=True)
            out += wrap(f"{rec['role']}: {point}; there {sides}", width, ROW, first=ROW)
        if chk.counterexample and not chk.evaluations:
            out += wrap("counterexample: " + ", ".join(f"{k} = {x}" for k, x in chk.counterexample.items()),
                        width, ROW, first=ROW)
    for key in v.citations:
        ref = CITATIONS[key]
        out += field("cites:", f"{ref.name}. {ref.statement} [{ref.reference}]")
    for e in registered("erratum"):          # the claim's own paper is built: no other needs to be
        if c.id in (e.printed.id, e.corrected.id):
            text = (f"this is the printed statement; the corrected one is {e.corrected.id}" if c.id == e.printed.id
                    else f"this is the corrected statement; the printed one is {e.printed.id}")
            out += field("erratum:", f"{e.id} ({text})")
            sentence = e.printed_text if c.id == e.printed.id else e.corrected_text
            if sentence:
                out += field("", f"“{prose_unicode(sentence)}”")
    for r in registered("reading"):
        if c.id in r.claims:
            out += field("reading:", f"{r.id}: printed '{r.printed}', read as '{r.reading}'")
    for f in registered("finding"):
        if c.id in f.claims:
            out += field("finding:", f"{f.id}: {f.text}")
    return "\n".join(out)


def is_weak(label: str) -> bool:
    """A verdict that holds but is no proof of the general statement: ARGUED or CHECKED (finite scope or
    numeric)."""
    return label == "ARGUED" or label.startswith("CHECKED")


def unexplained_weak(claims, verdicts) -> list[str]:
    """Ids of the claims whose verdict is weak (:func:`is_weak`) but which give no ``limitation`` (the
    sentence saying why a general proof is out of reach), and of those that give one although they are
    proved: a reason must accompany every weak verdict and only those."""
    out = []
    for c in claims:
        v = verdicts.get(c.id)
        if v is None or not c.expected:
            continue
        weak = is_weak(v.label)
        if weak != bool((c.limitation or "").strip()):
            out.append(c.id)
    return out
