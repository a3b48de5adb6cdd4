"""The LaTeX report of verified claims (``dpderive latex``): a book a referee can read.

A title page with the summary counts, a table of contents, a chapter on how to read the verdicts,
then one chapter per source document, headed by its bibliographic record: its errata first, then
the readings of its damaged text, then its claims grouped by the section of the paper they come from
(in the paper's order), then the findings of the review; a last chapter lists the cited standard
results.  Every claim, erratum, reading, finding and cited result has an anchor, a PDF bookmark and
links from the places that name it.

Formulas are SymPy's LaTeX, broken across lines where they are too wide (:mod:`.texlayout`); the
prose of the registry has its ASCII mathematics typeset (:mod:`.texprose`).  The document uses the
Type 1 Computer Modern fonts of a base TeX installation (no bitmap fonts) and compiles with pdflatex
and the packages of Debian's ``texlive-latex-base`` and ``texlive-latex-recommended``.
"""
from __future__ import annotations

import datetime
import re
from collections import OrderedDict

import sympy as sp


from .core import CITATIONS, STRENGTH_LABELS, Claim, Verdict, all_claims, all_errata, all_findings, all_readings
from .papers import all_papers
from .report import json_report
from .provenance import provenance_line
from .render import MATH_OPEN, hypotheses_latex, text_parts
from .texlayout import LINE, display_within, fit
from .render import latex
from .texprose import breakable_tt, math_item, names_pattern, prose, ref, tex_escape
from .texwidth import tex_width

__all__ = ["catalogue_document", "latex_document", "paper_section", "section_key", "tex_escape"]

TITLE = "Catalogue of verified claims"
#: Tallest display of a statement (pt): a third of the text height of an A4 page with these margins.
MAX_FORMULA = 240.0
SUBTITLE = "The mathematics of privacy in official statistics, machine-checked"

#: The packages both documents use (Debian's texlive-latex-base and texlive-latex-recommended).
PREAMBLE_PACKAGES = r"""\usepackage{amsmath,amssymb}
\usepackage{microtype}
\usepackage{xcolor}
\usepackage[bookmarks=true,bookmarksnumbered=true,bookmarksopen=true,bookmarksdepth=2,
            colorlinks=true,linkcolor=blue!50!black,urlcolor=blue!50!black,
            pdftitle={%(title)s},pdfsubject={%(subtitle)s}]{hyperref}
\allowdisplaybreaks
"""
PREAMBLE = r"""\documentclass[11pt,a4paper,oneside]{report}
\usepackage[a4paper,margin=2.2cm]{geometry}
""" + PREAMBLE_PACKAGES + r"""
\setcounter{secnumdepth}{0}
\setcounter{tocdepth}{1}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex plus 0.3ex}
\tolerance=1000
\emergencystretch=4em
\newcommand{\entry}[3]{\par\phantomsection\label{#1}\addcontentsline{toc}{subsection}{#3}\subsection*{#2}}
\newcommand{\field}[1]{\emph{#1:}\ }
\newcommand{\ocr}[1]{\texttt{#1}}
\newcommand{\steplabel}[1]{\textsc{#1}:~}
\newenvironment{steps}{\begin{list}{--}{\setlength{\leftmargin}{1.2em}\setlength{\labelwidth}{0.8em}%%
  \setlength{\itemsep}{1pt}\setlength{\parsep}{0pt}\setlength{\topsep}{2pt}}}{\end{list}}
\newenvironment{record}{\begin{list}{}{\setlength{\leftmargin}{7em}\setlength{\labelwidth}{6.5em}%%
  \setlength{\labelsep}{0.5em}\setlength{\itemsep}{1pt}\setlength{\parsep}{0pt}%%
  \renewcommand{\makelabel}[1]{\textbf{##1}\hfill}}}{\end{list}}
"""

HOW_TO_READ = [
    ("PROVED", "every step mechanical (a symbolic zero or sign, an exact evaluation), ending in the engine's "
               "check of the stated relation under the stated conditions."),
    ("PROVED (with citations)", "some step cites a named standard result (listed in the last chapter); the "
                                "other steps are mechanical."),
    ("PROVED (exhaustive)", "an exact check of every case of the claim's own finite statement."),
    ("ARGUED", "some step is neither mechanical nor a citation: an argument, not a proof."),
    ("CHECKED (finite scope)", "a general statement checked exactly on the finite family the label names: "
                               "evidence, not a proof."),
    ("CHECKED (numeric)", "agreement at random points in high precision: evidence, not a proof."),
    ("REFUTED", "a statement as printed in a source, shown false by an exact counterexample that is checked to "
                "lie inside its printed conditions; its corrected form is a separate claim."),
]

_SECTION = re.compile(r"^(Section|Appendix|Chapter)\s+(\d+|[A-Z])((?:\.\d+)?)")


def paper_section(location: str) -> str:
    """The section of the paper a location lies in, to two levels: ``"Section 2.3, Result 8"`` ->
    ``"Section 2.3"``, ``"Appendix B.1.2, ..."`` -> ``"Appendix B.1"``; a location outside the numbered
    sections keeps its first words (``"Abstract"``)."""
    m = _SECTION.match(location)
    if m:
        return f"{m.group(1)} {m.group(2)}{m.group(3)}"
    return re.split(r"[,(;]", location, maxsplit=1)[0].strip() or location


def section_key(section: str) -> tuple:
    """The paper's order: front matter (Abstract, Introduction), numbered sections, appendices, the rest."""
    m = _SECTION.match(section)
    if m:
        head, major, minor = m.groups()
        rank = {"Chapter": 1, "Section": 1, "Appendix": 2}[head]
        first = int(major) if major.isdigit() else ord(major) - ord("A")
        return (rank, first, int(minor[1:]) if minor else -1, section)
    front = section.split()[0] in ("Abstract", "Summary", "Introduction", "Preface")
    return (0 if front else 3, 0, 0, section)


def section_heading(paper, section: str) -> str:
    """``Section 2.1: AboveThreshold``, the heading the paper prints after its number (LaTeX)."""
    title = paper.section_title(section)
    if not title or title == section:
        return tex_escape(section)
    # the heading is text in the paper's language (not prose to typeset: 'La', 'du' are words); only its
    # Greek letters and a parenthesised relation are mathematics
    text = re.sub(r"\b(eps|delta)\b", lambda m: {"eps": "\x00varepsilon", "delta": "\x00delta"}[m.group(1)], title)
    text = (tex_escape(text).replace("\x00varepsilon", r"\texorpdfstring{$\varepsilon$}{eps}")
            .replace("\x00delta", r"\texorpdfstring{$\delta$}{delta}"))
    text = re.sub(r"\((\w) (\\textgreater\{\}|=) (\d)\)",
                  lambda m: "(" + rf"\texorpdfstring{{${m.group(1)} {'>' if 'greater' in m.group(2) else '='} {m.group(3)}$}}"
                  rf"{{{m.group(1)} {'>' if 'greater' in m.group(2) else '='} {m.group(3)}}}" + ")", text)
    return tex_escape(section) + ": " + text


def _in_paper_order(items, location=lambda x: x.source.location):
    """Items sorted by the section of the paper they come from (stable within a section)."""
    return sorted(items, key=lambda x: section_key(paper_section(location(x))))


class _Writer:
    """The document's parts, with the anchors that the prose links to."""

    def __init__(self, verdicts: dict[str, Verdict]):
        self.verdicts = verdicts
        self.data = json_report(verdicts)
        self.claims = [c for c in all_claims() if c.id in verdicts]
        shown = {kind: {x["id"] for x in self.data[kind]} for kind in ("errata", "readings", "findings")}
        self.errata = [e for e in all_errata() if e.id in shown["errata"]]
        self.readings = [r for r in all_readings() if r.id in shown["readings"]]
        self.findings = [f for f in all_findings() if f.id in shown["findings"]]
        self.cites = self.data["citations"]
        self.links: dict[str, str] = {}
        for prefix, items in (("claim", self.claims), ("erratum", self.errata), ("reading", self.readings),
                              ("finding", self.findings)):
            self.links.update({x.id: f"{prefix}:{x.id}" for x in items})
        self.links.update({c["key"]: f"cite:{c['key']}" for c in self.cites})
        every = [c.id for c in all_claims()] + [e.id for e in all_errata()] + [r.id for r in all_readings()] \
            + [f.id for f in all_findings()] + list(CITATIONS)
        # a name of the numeric layer in the prose (numeric.above_threshold_privacy_loss) is a name too:
        # one entry with its prefix makes every numeric.<name> one
        self.names = names_pattern(every + ["numeric.functions"])

    # -- pieces ------------------------------------------------------------------------------------
    def text(self, s: str) -> str:
        """Prose for LaTeX: its ASCII mathematics typeset, names linked; an expression marked by the
        engine (:func:`~derivations.engine.render.math`) set from the expression itself, as a display
        when it is wider than half a line."""
        if MATH_OPEN not in s:
            return _wide_math_displayed(prose(s, self.links, self.names))
        out = []
        for kind, part in text_parts(s):
            if kind == "text":
                out.append(_wide_math_displayed(prose(part, self.links, self.names)))
            else:
                tex = latex(part)
                out.append(f"${tex}$" if tex_width(tex, 1) <= LINE / 2 else f"\n\\[ {fit(part, LINE - 40)} \\]\n")
        return "".join(out)

    def ref(self, name: str) -> str:
        return ref(name, self.links)

    def refs(self, names) -> str:
        return ", ".join(self.ref(n) for n in names)

    def entry(self, anchor: str, name: str, heading: str | None = None) -> str:
        bookmark = tex_escape(name)
        return f"\\entry{{{anchor}}}{{{heading or breakable_tt(name)}}}{{{bookmark}}}\n"

    # -- document ------------------------------------------------------------------------------------
    def document(self) -> str:
        s = self.data["summary"]
        parts = [PREAMBLE % {"title": TITLE, "subtitle": SUBTITLE}, "\\begin{document}\n", self.title_page(s),
                 "\\tableofcontents\n", self.how_to_read()]
        for paper in all_papers():
            chapter = self.paper_chapter(paper)
            if chapter:
                parts.append(chapter)
        parts.append(self.citations_chapter())
        parts.append("\\end{document}\n")
        return "".join(parts)

    def title_page(self, s: dict) -> str:
        rows = [(s["claims"], "claims verified"), (s["as_expected"], "with the expected outcome"),
                (s["unexpected"], "with an unexpected outcome"), (s["errata"], "errata in the source documents"),
                (s["readings"], "readings of damaged text"), (s["findings"], "findings of the review")]
        strength = [(n, k) for k, n in s["by_strength"].items() if n]
        table = "\n".join(f"{n} & {tex_escape(what)} \\\\" for n, what in rows)
        by = "\n".join(f"{n} & {tex_escape(k)} \\\\" for n, k in strength)
        papers = [p for p in all_papers() if any(c.source.document == p.file for c in self.claims)]
        return ("\\begin{titlepage}\n\\centering\n\\vspace*{3cm}\n"
                f"{{\\Huge\\bfseries {tex_escape(TITLE)}\\par}}\n\\vspace{{1.5ex}}\n"
                f"{{\\Large {tex_escape(SUBTITLE)}\\par}}\n\\vspace{{2ex}}\n"
                f"{{\\large claims from {len(papers)} of the {len(all_papers())} source documents\\par}}\n"
                "\\vspace{1.5cm}\n"
                f"{{\\large {datetime.date.today().isoformat()}\\par}}\n\\vspace{{1ex}}\n"
                f"{{\\small {tex_escape(provenance_line())}\\par}}\n\\vspace{{2cm}}\n"
                "\\begin{tabular}{rl}\n" + table + "\n\\end{tabular}\n\\par\\vspace{1cm}\n"
                "\\textbf{The claims stated by the toolkit or corrected, by strength of the verdict}\\par"
                "\\vspace{1ex}\n\\begin{tabular}{rl}\n" + by + "\n\\end{tabular}\n\\end{titlepage}\n")

    def how_to_read(self) -> str:
        labels = "\n".join(f"\\item[{tex_escape(k)}] {tex_escape(v)}" for k, v in HOW_TO_READ)
        with_claims = [p for p in all_papers() if any(c.source.document == p.file for c in self.claims)]
        without = [p for p in all_papers() if p not in with_claims]
        out = ["\\chapter{How to read this report}\n",
               "Each statement of a source document that the toolkit encodes is a \\emph{claim}: a SymPy "
               "relation with the conditions under which it is claimed, the place in the source where it is "
               "made, and the verdict of its verification.  The verdict's label states its strength:\n",
               "\\begin{description}\n" + labels + "\n\\end{description}\n",
               "An \\emph{erratum} pairs a printed statement that is refuted with its corrected form, which is "
               "proved.  A \\emph{reading} records how a passage damaged by the text conversion of a source was "
               "read: the printed glyphs, the reading taken and why; readings are not errata.  A \\emph{finding} "
               "is a remark of the review that is neither.\n\n",
               "Each of the following chapters covers one source document, headed by its bibliographic record: "
               "its errata come first, then the readings of its damaged text, then its claims grouped by the "
               "section of the paper they come from, in the paper's order, then the findings.  Each claim shows "
               "its statement as a formula, its conditions, the verdict and the steps of each check; names of "
               "claims in the text are links.  The last chapter lists the standard results that proofs cite.  "
               "The LaTeX source carries, for each claim, a comment with the hash of its statement.\n\n"]
        if without:
            out.append("Source documents with no encoded claim yet: "
                       + "; ".join(f"{tex_escape(p.title)} ({breakable_tt(p.file)})" for p in without) + ".\n\n")
        return "".join(out)

    def of_paper(self, paper) -> tuple[list, list, list, list]:
        """The claims, errata, readings and findings of one paper, each in the paper's order."""
        doc = paper.file
        return ([c for c in self.claims if c.source.document == doc],
                *(_in_paper_order([x for x in items if x.source.document == doc])
                  for items in (self.errata, self.readings, self.findings)))

    def paper_chapter(self, paper) -> str:
        claims, errata, readings, findings = self.of_paper(paper)
        if not (claims or errata or readings or findings):
            return ""
        out = [f"\\chapter{{{tex_escape(paper.title)}}}\n", self.record(paper)]
        ok = sum(self.verdicts[c.id].ok for c in claims)
        out.append(f"{len(claims)} claims ({ok} with the expected outcome), {len(errata)} errata, "
                   f"{len(readings)} readings of damaged text, {len(findings)} findings.\n\n")
        if errata:
            out.append("\\section{Errata}\n")
            out.extend(self.erratum(e) for e in errata)
        if readings:
            out.append("\\section{Readings of damaged text}\n"
                       "The source is a text conversion; each repair records the printed glyphs, the reading "
                       "taken and why.\n\n")
            out.extend(self.reading(r) for r in readings)
        sections: OrderedDict[str, list[Claim]] = OrderedDict()
        for c in _in_paper_order(claims):
            sections.setdefault(paper_section(c.source.location), []).append(c)
        for name, group in sections.items():
            out.append(f"\\section{{{section_heading(paper, name)}}}\n")
            out.extend(self.claim(c) for c in group)
        if findings:
            out.append("\\section{Findings of the review}\n")
            out.extend(self.finding(f) for f in findings)
        return "".join(out)

    def record(self, paper) -> str:
        missing = "\\emph{not stated}"
        rows = [("Title", tex_escape(paper.title)),
                ("Authors", tex_escape(", ".join(paper.authors)) if paper.authors else missing),
                ("Date", tex_escape(paper.date) if paper.date else missing),
                ("Venue", tex_escape(paper.venue) if paper.venue else missing)]
        if paper.remark:
            rows.append(("Remark", tex_escape(paper.remark)))
        rows += [("Short name", breakable_tt(paper.short)), ("File", breakable_tt(paper.file))]
        return "\\begin{record}\n" + "\n".join(f"\\item[{k}] {v}" for k, v in rows) + "\n\\end{record}\n\n"

    def erratum(self, e) -> str:
        vp, vc = self.verdicts.get(e.printed.id), self.verdicts.get(e.corrected.id)
        out = [self.entry(f"erratum:{e.id}", e.id), f"\\field{{Source}}{self.text(e.source.location)}.\n\n"]
        out.append(self.erratum_body(e, vp, vc))
        if e.readings:
            out.append(f"\\field{{Rests on the readings}}{self.refs(e.readings)}.\n\n")
        return "".join(out)

    def erratum_body(self, e, vp, vc, max_formula: float = MAX_FORMULA) -> str:
        """The paper's sentence and the printed formula with its verdict, the counterexamples (both
        sides in decimals), why, the corrected formula and sentence with its verdict."""
        out = []
        if e.printed_text:
            out.append(f"\\field{{The paper says}}``{self.text(e.printed_text)}''\n\n")
        out.append(f"\\field{{As printed}}claim {self.ref(e.printed.id)}, {self.text(vp.label) if vp else 'not run'}.\n")
        out.append(self.formula(e.printed, max_formula))
        records = next((chk.evaluations for chk in vp.checks if chk.evaluations), []) if vp else []
        for rec in records:
            what = "Counterexample" if rec["role"] == "counterexample" else "Also false at"
            out.append(f"\\field{{{what}}}{evaluation_tex(rec)}.\n\n")
        if not records:
            cex = ", ".join(f"${latex(k)} = {latex(v)}$" for k, v in e.printed.counterexample.items()) \
                or "the closed statement itself"
            out.append(f"\\field{{Counterexample}}{cex}.\n\n")
        out.append(f"\\field{{Why}}{self.text(e.explanation)}\n\n")
        out.append(f"\\field{{Corrected}}claim {self.ref(e.corrected.id)}, "
                   f"{self.text(vc.label) if vc else 'not run'}.\n")
        out.append(self.formula(e.corrected, max_formula))
        if e.corrected_text:
            out.append(f"\\field{{Corrected, it says}}``{self.text(e.corrected_text)}''\n\n")
        return "".join(out)

    def formula(self, c: Claim, max_formula: float) -> str:
        tex, short = display_within(c.lhs, c.relation, c.rhs, max_formula)
        if short:
            tex += f"{{\\small (Shortened: \\texttt{{dpderive show {tex_escape(c.id)}}} prints it whole.)}}\n\n"
        return tex

    def reading(self, r) -> str:
        out = [self.entry(f"reading:{r.id}", r.id),
               f"\\field{{Source}}{self.text(r.source.location)}.\n\n",
               f"\\field{{Printed}}\\ocr{{{_glyphs(r.printed)}}}\n\n",
               f"\\field{{Read as}}{self.text(r.reading)}\n\n",
               f"\\field{{Why}}{self.text(r.why)}\n\n"]
        if r.alternatives:
            out.append(f"\\field{{Other readings}}{self.text(r.alternatives)}\n\n")
        if r.claims:
            out.append(f"\\field{{Claims}}{self.refs(r.claims)}.\n\n")
        return "".join(out)

    def finding(self, f) -> str:
        out = [self.entry(f"finding:{f.id}", f.id), f"\\field{{Source}}{self.text(f.source.location)}.\n\n",
               self.text(f.text) + "\n\n"]
        if f.claims:
            out.append(f"\\field{{Claims}}{self.refs(f.claims)}.\n\n")
        return "".join(out)

    def claim(self, c: Claim) -> str:
        v = self.verdicts.get(c.id)
        out = [f"% claim {c.id} hash:{c.digest()}\n", self.entry(f"claim:{c.id}", c.id),
               f"\\textbf{{{self.text(c.title)}}}\n\n",
               f"\\field{{Source}}{self.text(c.source.location)}.\\quad \\field{{Kind}}{c.kind}.\n",
               self.formula(c, MAX_FORMULA)]
        where = conditions_tex(c)
        if where:
            out.append("\\field{Conditions}" + where + ".\n\n")
        if c.note:
            out.append(f"\\field{{Note}}{self.text(c.note)}\n\n")
        if c.limitation:
            out.append(f"\\field{{Not proved in general}}{self.text(c.limitation)}\n\n")
        if v is not None:
            out.append(self.verdict(v))
        return "".join(out)

    def verdict(self, v: Verdict) -> str:
        out = [f"\\field{{Verdict}}\\textbf{{{self.text(v.label)}}} ({v.method}, {v.seconds:.2f}\\,s)."]
        if v.citations:
            out.append(" \\field{Cites}" + ", ".join(f"\\hyperref[cite:{k}]{{{tex_escape(CITATIONS[k].name)}}}"
                                                    for k in v.citations) + ".")
        out.append("\n{\\small\n\\begin{steps}\n")
        for chk in v.checks:
            status = "error" if chk.error else ("passed" if chk.passed else "failed")
            head = f"\\item[] \\textbf{{{chk.method}}} ({status}, {chk.seconds:.2f}\\,s)"
            if chk.strength:
                head += f", {tex_escape(STRENGTH_LABELS.get(chk.strength, chk.strength))}"
            out.append(head + ".\n")
            if chk.counterexample:
                out.append(" Counterexample: " + ", ".join(math_item(f"{k} = {val}")
                                                           for k, val in chk.counterexample.items()) + ".\n")
            if chk.method == "enumeration" and chk.passed and chk.scope:
                out.append(" " + finite_check_words(chk, self.text) + "\n")
                continue
            steps, rest = _steps(chk)
            if steps:
                out.append("\\begin{steps}\n")
                out.extend(f"\\item \\steplabel{{{kind}}}{self.text(text)}\n" for kind, text in steps)
                out.append("\\end{steps}\n")
            if rest:
                out.append(" " + self.text(rest) + "\n")
        out.append("\\end{steps}\n}\n")
        return "".join(out)

    def citations_chapter(self) -> str:
        out = ["\\chapter{Cited standard results}\n",
               "The standard results that the proofs cite, each with the claims whose verdict uses it.\n\n"]
        for c in self.cites:
            out.append(self.entry(f"cite:{c['key']}", c["name"], tex_escape(c["name"])))
            out.append(f"{self.text(c['statement'])}\n\n\\field{{Reference}}{tex_escape(c['reference'])}\n\n"
                       f"\\field{{Used by}}{self.refs(c['claims'])}.\n\n")
        return "".join(out)


def _steps(chk) -> tuple[list[tuple[str, str]], str]:
    """The typed steps of a check, and the rest of its detail (a remark after the steps)."""
    if not chk.steps:
        return [], chk.detail
    steps = [(st["kind"], st["text"]) for st in chk.steps]
    joined = "; ".join(f"[{k}] {t}" for k, t in steps)
    rest = chk.detail[len(joined):].lstrip("; ") if chk.detail.startswith(joined) else ""
    return steps, rest.strip()


_INLINE = re.compile(r"(?<!\\)\$([^$]+)\$")


def _wide_math_displayed(tex: str, line: float = LINE) -> str:
    """Inline formulas of prose between half a line and a line wide set as displays (TeX breaks them
    badly inside a paragraph); wider ones stay inline, where TeX may still break them at a relation."""
    def one(m: re.Match) -> str:
        return m.group(0) if not line / 2 < tex_width(m.group(1), 1) <= 0.95 * line \
            else "\n\\[ " + m.group(1) + " \\]\n"
    return _INLINE.sub(one, tex)


def evaluation_tex(record: dict) -> str:
    """An exact evaluation of a check: the point and both sides there, each number with its decimal."""
    def value(text: str, dec: str) -> str:
        tex = latex(sp.sympify(text))
        if dec and tex_width(tex, 1) > LINE / 3:     # a long exact form: its decimal, the form in `show`
            return (r"\approx " if dec.startswith("≈") else "= ") + dec[2:] + r"\ \text{(exact form: \texttt{show})}"
        if dec:
            tex += r" \approx " + dec[2:] if dec.startswith("≈") else " = " + dec[2:]
        return tex

    point = ", ".join(f"${latex(sp.sympify(k))} = {value(v, d)}$" for k, v, d in record["point"])
    sides = [value(record[k], record[k + "_decimal"]) for k in ("lhs", "rhs")]
    sides = [v if v.startswith(("=", r"\approx")) else "= " + v for v in sides]
    return (point or "the closed statement itself") + f"; there $\\text{{lhs}} {sides[0]}$ and $\\text{{rhs}} {sides[1]}$"


def finite_check_words(chk, text) -> str:
    """A passing exact check over a finite set, in words: what it ranged over and what it checked."""
    cases = re.match(r"(\d+) cases", chk.detail)
    n = f"{cases.group(1)} points" if cases else "every point"
    if chk.strength == "exhaustive":
        return (f"The claim ranges over a finite set; the stated relation was evaluated exactly at each of its "
                f"{n} and holds at each ({text(chk.scope)}): a proof.")
    return (f"The stated relation was evaluated exactly at {n} of this finite family and holds at each: "
            f"{text(chk.scope)}. This is evidence for the general statement, not a proof of it.")


def conditions_tex(c: Claim) -> str:
    """The conditions and the hypotheses on the symbols, for a sentence: formulas in math mode."""
    parts = [_conditions(c.conditions)] if c.conditions else []
    hyp = hypotheses_latex(c.hypotheses())
    if hyp:
        parts.append("; ".join(f"${h}$" for h in hyp) + " (declared on the symbols)")
    return "; ".join(parts)


def _conditions(conditions) -> str:
    """The conditions in math, one formula each (so that a line may break between them); a condition
    wider than most of a line is set as a display."""
    out = []
    for cond in conditions:
        tex = latex(cond)
        if tex_width(tex, 1) > 0.8 * LINE:
            out.append("\n\\[ " + fit(cond, LINE - 20) + " \\]\n")
        else:
            out.append(f"${tex}$")
    return ", ".join(out)


def _glyphs(text: str) -> str:
    """Printed (OCR'd) text quoted verbatim in typewriter type, breakable after punctuation."""
    return breakable_tt(text)[len("\\texttt{"):-1]


def catalogue_document(verdicts: dict[str, Verdict]) -> str:
    """The catalogue of claims (LaTeX): title page, contents, how to read it, one chapter per source
    document (its record, errata, readings, claims by section, findings), and the cited standard results."""
    return _Writer(verdicts).document()


latex_document = catalogue_document     # the name of earlier versions
