"""The referee report (``dpderive latex``): what the verification found in the papers, read in an hour.

A short document, apart from the catalogue of every claim (:mod:`.latex`): a summary with the
verdict counts of each paper and a table of all errata of all papers; then one section per paper with
its bibliographic record, its errata (the paper's sentence as printed, the printed formula, each
counterexample with both sides in decimals, why, the corrected formula and sentence, and the verdicts
of both), the readings of its damaged text and the findings of the review, in prose.  It records the
toolkit's version, commit and library versions.  Claims are named by id: the catalogue (and
``dpderive show ID``) has each in full.
"""
from __future__ import annotations

from .core import STRENGTH_LABELS, Verdict
from .latex import PREAMBLE_PACKAGES, _glyphs, _in_paper_order, _Writer
from .papers import all_papers
from .provenance import provenance_line
from .report import is_weak, label_of
from .texprose import breakable_tt, prose, tex_escape

__all__ = ["referee_document"]

TITLE = "Referee report"
SUBTITLE = "Errata, readings and findings in the source papers, machine-checked"
#: Tallest formula of an erratum in this report (pt): a quarter of a page.
MAX_FORMULA = 180.0

PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[a4paper,margin=2cm]{geometry}
""" + PREAMBLE_PACKAGES + r"""
\usepackage{booktabs,longtable,array}
\setcounter{secnumdepth}{2}
\setcounter{tocdepth}{1}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.45ex plus 0.2ex}
\tolerance=1000
\emergencystretch=4em
\newcommand{\field}[1]{\emph{#1:}\ }
\newcommand{\ocr}[1]{\texttt{#1}}
\newcommand{\entry}[2]{\par\phantomsection\label{#1}\subsubsection*{#2}}
"""

_PROVED = [STRENGTH_LABELS[k] for k in ("mechanical", "citations", "exhaustive")]


class _Referee(_Writer):
    """The report's parts; names of claims are set in type (the catalogue has them), names of the
    errata, readings and findings link inside this report."""

    def __init__(self, verdicts: dict[str, Verdict]):
        super().__init__(verdicts)
        self.links = {k: v for k, v in self.links.items() if v.split(":")[0] in ("erratum", "reading", "finding")}
        self.number = {e.id: k + 1 for k, e in enumerate(self._ordered_errata())}

    def _ordered_errata(self):
        return [e for p in all_papers() for e in _in_paper_order([e for e in self.errata if e.source.document == p.file])]

    def cell(self, text: str) -> str:
        """Prose for a narrow table column: formulas inline, where TeX may break them."""
        return prose(text, self.links, self.names)

    def entry(self, anchor: str, name: str, heading: str | None = None) -> str:
        return f"\\entry{{{anchor}}}{{{heading or breakable_tt(name)}}}\n"

    def document(self) -> str:
        parts = [PREAMBLE % {"title": TITLE, "subtitle": SUBTITLE}, "\\begin{document}\n", self.head(),
                 self.summary(), self.errata_table(), self.how_to_read()]
        for paper in all_papers():
            parts.append(self.paper_section(paper))
        parts.append("\\end{document}\n")
        return "".join(parts)

    def head(self) -> str:
        return ("\\begin{center}\n"
                f"{{\\LARGE\\bfseries {tex_escape(TITLE)}\\par}}\\vspace{{0.6ex}}\n"
                f"{{\\large {tex_escape(SUBTITLE)}\\par}}\\vspace{{0.8ex}}\n"
                f"{{\\small {tex_escape(provenance_line())}\\par}}\n"
                "\\end{center}\n")

    def summary(self) -> str:
        rows = []
        for p in all_papers():
            vs = [self.verdicts[c.id] for c in self.claims if c.source.document == p.file]
            if not vs:
                continue
            labels = [label_of(v) for v in vs if v.expected]
            proved = sum(lab in _PROVED for lab in labels)
            checked = sum(lab.startswith("CHECKED") for lab in labels)
            other = len(labels) - proved - checked
            n = {kind: sum(x.source.document == p.file for x in getattr(self, kind))
                 for kind in ("errata", "readings", "findings")}
            rows.append(f"\\texttt{{{tex_escape(p.short)}}} & {tex_escape(p.by)} ({tex_escape(p.year)}) & {len(vs)} & "
                        f"{proved} & {checked} & {other} & {n['errata']} & {n['readings']} & {n['findings']} \\\\")
        total = len(self.claims)
        bad = sum(not self.verdicts[c.id].ok for c in self.claims)
        return ("\\section*{Summary}\n"
                f"The derivations of {len(rows)} papers were encoded as {total} claims, each a SymPy statement with "
                "its conditions and its place in the paper, and verified by a symbolic engine whose last step always "
                "checks the stated relation itself. "
                f"{len(self.errata)} printed statements are wrong: each is refuted by an exact counterexample that the "
                "engine checks to lie inside the printed conditions, and its corrected form is proved. "
                "Before an erratum was registered, the plausible readings of the damaged text were tried, and an "
                "independent referee re-derived the printed statement and tried to save it. "
                f"Repairs of the text conversion are listed as readings, remarks as findings. "
                + (f"{bad} claims had an unexpected outcome in this run." if bad else
                   "Every claim had its expected outcome in this run.") + "\n\n"
                "\\begin{center}\\small\\setlength{\\tabcolsep}{4pt}\n\\begin{tabular}{@{}llrrrrrrr@{}}\n\\toprule\n"
                "paper & by & claims & proved & checked & other & errata & readings & findings \\\\\n\\midrule\n"
                + "\n".join(rows) + "\n\\bottomrule\n\\end{tabular}\n\\end{center}\n"
                "\\emph{proved}: PROVED, PROVED (with citations) or PROVED (exhaustive); \\emph{checked}: exact checks "
                "on a stated finite family, or numerics (evidence); \\emph{other}: ARGUED or BY CONSTRUCTION "
                "(not proofs). Printed statements refuted are counted among the claims, not in these columns.\n\n")

    def errata_table(self) -> str:
        rows = []
        for e in self._ordered_errata():
            vc = self.verdicts.get(e.corrected.id)
            rows.append(f"\\hyperref[erratum:{e.id}]{{{self.number[e.id]}}} & \\texttt{{{tex_escape(e.source.paper.short)}}}"
                        f" & {self.text(e.source.location)} & {self.cell(e.printed.title)} & "
                        f"{tex_escape(vc.label if vc else 'not run')} \\\\")
        return ("\\section*{The errata at a glance}\n"
                "{\\small\\setlength{\\tabcolsep}{4pt}\n\\begin{longtable}{@{}r>{\\raggedright}p{2.6cm}"
                ">{\\raggedright}p{3.2cm}>{\\raggedright}p{7.4cm}>{\\raggedright\\arraybackslash}p{2.1cm}@{}}\n"
                "\\toprule\n"
                "& paper & place & what the paper prints & correction \\\\\n\\midrule\n\\endhead\n"
                + "\n".join(rows) + "\n\\bottomrule\n\\end{longtable}\n}\n")

    def how_to_read(self) -> str:
        return ("\\section*{How to read the verdicts}\n{\\small "
                "PROVED: every step mechanical (a symbolic zero or sign, an exact evaluation), ending in the engine's "
                "check of the stated relation under the stated conditions. PROVED (with citations): some steps cite "
                "named standard results. PROVED (exhaustive): an exact check of every case of a finite statement. "
                "CHECKED: exact checks on a stated finite family, or high-precision numerics: evidence, not a proof. "
                "ARGUED: some step is an argument. REFUTED: a printed statement shown false by an exact "
                "counterexample inside its printed conditions. Exact values carry their decimals ($\\approx$ when "
                "rounded). The catalogue of claims, produced with this report, has every claim in full with its "
                "proof steps; \\texttt{dpderive show ID} prints one.\\par}\n\n")

    def paper_section(self, paper) -> str:
        claims, errata, readings, findings = self.of_paper(paper)
        if not (claims or errata or readings or findings):
            return ""
        doc = paper.file
        who = ", ".join(paper.authors) if paper.authors else (paper.venue or "no author printed")
        out = [f"\\section{{{tex_escape(paper.title)}}}\n",
               f"{tex_escape(who)}; {tex_escape(paper.date or 'no date printed')}. "
               f"Short name \\texttt{{{tex_escape(paper.short)}}}, file {breakable_tt(paper.file)}.\n\n"]
        counts = self.data["papers"][[p.file for p in all_papers()].index(doc)]["by_label"]
        out.append(f"{len(claims)} claims: " + "; ".join(f"{n} {tex_escape(k)}" for k, n in counts.items()) + ".\n\n")
        if errata:
            out.append("\\subsection{Errata}\n")
            for e in errata:
                vp, vc = self.verdicts.get(e.printed.id), self.verdicts.get(e.corrected.id)
                out.append(self.entry(f"erratum:{e.id}",
                                      e.id, f"{self.number[e.id]}.\\ {self.text(e.source.location)}"))
                out.append(self.erratum_body(e, vp, vc, MAX_FORMULA))
                if e.readings:
                    out.append(f"\\field{{Rests on the readings}}{self.refs(e.readings)}.\n\n")
        if readings:
            out.append("\\subsection{Readings of damaged text}\n{\\small\n")
            for r in readings:
                text = (f"\\phantomsection\\label{{reading:{r.id}}}\\textbf{{{self.text(r.source.location)}}} "
                        f"(\\texttt{{{tex_escape(r.id)}}}). The text prints \\ocr{{{_glyphs(r.printed)}}}; it is read as "
                        f"{self.text(r.reading)} {self.text(r.why)}")
                if r.alternatives:
                    text += f" Other readings: {self.text(r.alternatives)}"
                out.append(text + "\n\n")
            out.append("}\n")
        if findings:
            out.append("\\subsection{Findings}\n{\\small\n")
            for f in findings:
                out.append(f"\\phantomsection\\label{{finding:{f.id}}}\\textbf{{{self.text(f.source.location)}}} "
                           f"(\\texttt{{{tex_escape(f.id)}}}). {self.text(f.text)}\n\n")
            out.append("}\n")
        weak = [(c, self.verdicts[c.id]) for c in claims
                if c.expected and c.id in self.verdicts and is_weak(label_of(self.verdicts[c.id]))]
        if weak:
            out.append("\\subsection{Not proved in general}\n{\\small\n")
            for c, v in weak:
                why = self.text(c.limitation) if c.limitation else "No reason is given."
                out.append(f"\\textbf{{{self.text(c.source.location)}}} (\\texttt{{{tex_escape(c.id)}}}, "
                           f"{tex_escape(label_of(v))}). {why}\n\n")
            out.append("}\n")
        return "".join(out)


def referee_document(verdicts: dict[str, Verdict]) -> str:
    """The referee report (LaTeX): summary and table of errata, then per paper its errata, readings and
    findings."""
    return _Referee(verdicts).document()
