"""The LaTeX report of verified claims (``dpderive latex``)."""
from __future__ import annotations

import datetime
import re
from collections import OrderedDict

import sympy as sp

from .core import CITATIONS, Claim, Verdict, all_claims, all_errata
from .report import json_report

_TEX_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "^": r"\^{}",
                "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "~": r"\~{}"}


# Characters outside ASCII (mostly OCR glyphs quoted in readings) in a form pdflatex sets with the base fonts
_TEX_UNICODE = {"\u2014": "---", "\u2013": "--", "\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''",
                "\u00a7": r"\S{}", "\u00a9": "(c)", "\u00a3": r"\pounds{}", "\u20ac": "EUR", "\ufb01": "fi",
                "\ufb02": "fl", "\u00a2": "c/"}


def tex_escape(text: str) -> str:
    """Text for LaTeX: special characters escaped, characters outside ASCII transliterated (or shown as
    their code point), so that the report compiles with pdflatex and the base fonts."""
    text = re.sub(r"[\\{}_^&%$#~]", lambda m: _TEX_ESCAPES[m.group()], text)
    return "".join(ch if ord(ch) < 128 else _TEX_UNICODE.get(ch, f"[U+{ord(ch):04X}]") for ch in text)


def display_math(tex: str) -> str:
    """Display math shrunk to the line width when it is wider (graphicx only)."""
    return ("\\begin{center}\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}"
            f"{{$\\displaystyle {tex}$}}\\end{{center}}\n")


def by_document(claims: list[Claim]) -> "OrderedDict[str, list[Claim]]":
    groups: OrderedDict[str, list[Claim]] = OrderedDict()
    for c in sorted(claims, key=lambda c: c.source.document):
        groups.setdefault(c.source.document, []).append(c)
    return groups


def _claim_tex(c: Claim, v: Verdict | None) -> str:
    out = [f"% claim {c.id} hash:{c.digest()}\n",
           f"\\subsection*{{\\texttt{{{tex_escape(c.id)}}}: {tex_escape(c.title)}}}\n",
           f"\\noindent\\emph{{Source:}} {tex_escape(c.source.location)}.\\quad "
           f"\\emph{{Kind:}} {c.kind}.\n", display_math(c.latex())]
    if c.conditions:
        out.append("\\noindent\\emph{Conditions:} $" + c.conditions_latex() + "$.\n\n")
    if c.note:
        out.append("\\noindent\\emph{Note:} " + tex_escape(c.note) + "\n\n")
    if v is not None:
        out.append(f"\\noindent\\textbf{{Verdict: {tex_escape(v.label)}}} ({v.method}, {v.seconds:.2f} s).\n")
        if v.citations:
            out.append("\\noindent\\emph{Cites:} " + tex_escape(", ".join(CITATIONS[k].name for k in v.citations)) + ".\n")
        out.append("\\begin{itemize}\n")
        for chk in v.checks:
            out.append(f"\\item {chk.method}: {tex_escape(chk.detail[:400])}\n")
        out.append("\\end{itemize}\n")
    return "".join(out)


def latex_document(verdicts: dict[str, Verdict]) -> str:
    """A complete LaTeX document: summary, errata, then every claim grouped by source document."""
    data = json_report(verdicts)
    s = data["summary"]
    head = [r"\documentclass[11pt]{article}", r"\usepackage[margin=2cm]{geometry}",
            r"\usepackage{amsmath,amssymb,graphicx}", r"\usepackage[T1]{fontenc}",
            r"\title{Verified derivations: the mathematics of privacy in official statistics}",
            f"\\date{{{datetime.date.today().isoformat()}}}", r"\begin{document}", r"\maketitle",
            r"\section*{Summary}",
            f"{s['claims']} claims verified, {s['as_expected']} with the expected outcome, "
            f"{s['unexpected']} unexpected; {s['errata']} errata in the source documents, "
            f"{s['readings']} readings of damaged text, {s['findings']} findings.",
            "", "By strength: " + tex_escape("; ".join(f"{n} {k}" for k, n in s["by_strength"].items() if n)) + ".",
            "", "PROVED: every step mechanical (a symbolic zero or sign, an exact evaluation), ending in the "
            "engine's check of the stated relation; PROVED (with citations): some step cites a named standard "
            "result (listed below); PROVED (exhaustive): an exact check of every case of the claim's own finite "
            "statement; ARGUED: some step is neither mechanical nor a citation; CHECKED (finite scope): a general "
            "statement checked exactly on the finite family the label names (evidence, not a proof); CHECKED "
            "(numeric): agreement at random points in high precision (evidence); REFUTED: a printed statement "
            "shown false by an exact counterexample checked to lie inside its printed conditions.",
            r"\section*{Errata}"]
    body = ["\n".join(head) + "\n"]
    claims = {c.id: c for c in all_claims()}
    for e in all_errata():
        if e.printed.id not in verdicts:
            continue
        vp = verdicts[e.printed.id]
        cex = ", ".join(f"${k} = {v}$" for k, v in
                        ((sp.latex(k), sp.latex(val)) for k, val in e.printed.counterexample.items())) \
            or "the closed statement itself (see the claim's note)"
        body.append(f"\\subsection*{{{tex_escape(e.id)}}}\n\\noindent\\emph{{Source:}} "
                    f"{tex_escape(str(e.source))}.\n\n\\noindent\\emph{{As printed}} "
                    f"({tex_escape(vp.label)}):\n" + display_math(e.printed.latex())
                    + f"\\noindent\\emph{{Counterexample:}} {cex}. "
                    f"{tex_escape(vp.checks[0].detail) if vp.checks else ''}\n\n"
                    f"\\noindent\\emph{{Why:}} {tex_escape(e.explanation)}\n\n"
                    f"\\noindent\\emph{{Corrected}} (claim \\texttt{{{tex_escape(e.corrected.id)}}}, "
                    f"{tex_escape(verdicts[e.corrected.id].label) if e.corrected.id in verdicts else 'not run'}):\n"
                    + display_math(e.corrected.latex()))
    body.append("\\section*{Readings of damaged text}\n"
                "The sources are OCR'd. Each repair records the printed glyphs, the reading taken and why; "
                "readings are not errata.\n")
    for r in data["readings"]:
        body.append(f"\\subsection*{{{tex_escape(r['id'])}}}\n\\noindent\\emph{{Source:}} {tex_escape(r['source'])}.\n\n"
                    f"\\noindent\\emph{{Printed:}} {tex_escape(r['printed'])}\n\n"
                    f"\\noindent\\emph{{Read as:}} {tex_escape(r['reading'])}\n\n"
                    f"\\noindent\\emph{{Why:}} {tex_escape(r['why'])}\n\n"
                    + (f"\\noindent\\emph{{Other readings:}} {tex_escape(r['alternatives'])}\n\n" if r['alternatives'] else ""))
    body.append("\\section*{Findings of the review}\n")
    for f in data["findings"]:
        body.append(f"\\subsection*{{{tex_escape(f['id'])}}}\n\\noindent\\emph{{Source:}} {tex_escape(f['source'])}.\n\n"
                    f"{tex_escape(f['text'])}\n\n")
    body.append("\\section*{Cited standard results}\n")
    for c in data["citations"]:
        body.append(f"\\subsection*{{{tex_escape(c['name'])}}}\n{tex_escape(c['statement'])}\n\n"
                    f"\\noindent\\emph{{Reference:}} {tex_escape(c['reference'])}\n\n"
                    f"\\noindent\\emph{{Used by:}} {tex_escape(', '.join(c['claims']))}\n\n")
    for doc, group in by_document([claims[i] for i in claims if i in verdicts]).items():
        body.append(f"\\section{{\\texttt{{{tex_escape(doc)}}}}}\n")
        body.extend(_claim_tex(c, verdicts.get(c.id)) for c in group)
    body.append("\\end{document}\n")
    return "\n".join(body)


