"""The two documents of ``dpderive latex``.  The catalogue: its structure (title page with provenance,
contents with the papers' section headings, one chapter per paper with its record, errata before readings
before claims before findings), mathematics typeset in the prose, long formulas broken instead of
shrunk and none taller than a third of a page, finite checks in words.  The referee report: a summary, a
table of every erratum, the errata with sentences and decimals, readings and findings, at most 25 pages.
Where pdflatex exists both are compiled, with few overfull lines and no bitmap fonts."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import sympy as sp

import derivations
from derivations.engine.latex import MAX_FORMULA, catalogue_document, paper_section, section_heading, section_key
from derivations.engine.referee import referee_document
from derivations.engine.texlayout import LINE, display, display_within, fit, height, width
from derivations.engine.texprose import prose, raw_sympy, names_pattern, tex_escape
from derivations.engine.texwidth import tex_width


@pytest.fixture(scope="module")
def tex(all_verdicts):
    return catalogue_document(all_verdicts)


@pytest.fixture(scope="module")
def referee(all_verdicts):
    return referee_document(all_verdicts)


def braced(text: str, start: int) -> str:
    """The brace group opening at ``text[start]``."""
    depth, k = 0, start
    while True:
        depth += (text[k] == "{") - (text[k] == "}")
        k += 1
        if depth == 0:
            return text[start + 1:k - 1]


def section_titles(body: str) -> list[str]:
    return [braced(body, m.end() - 1) for m in re.finditer(r"\\section\{", body)]


def chapters(tex: str) -> list[tuple[str, str]]:
    """(title, body) of every chapter, in order."""
    parts = re.split(r"\\chapter\{", tex)[1:]
    out = []
    for part in parts:
        depth, k = 1, 0
        while depth:
            depth += (part[k] == "{") - (part[k] == "}")
            k += 1
        out.append((part[:k - 1], part[k:]))
    return out


def papers_with_claims(verdicts):
    docs = {derivations.get(cid).source.document for cid in verdicts}
    return [p for p in derivations.all_papers() if p.file in docs]


# -- structure ------------------------------------------------------------------------------------------
def test_title_page_then_contents_then_chapters(tex):
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert re.search(r"\\documentclass\[[^\]]*\]\{report\}", tex)
    assert r"\usepackage" in tex and "{hyperref}" in tex
    body = tex.split(r"\begin{document}", 1)[1]
    title, toc, first = body.index(r"\begin{titlepage}"), body.index(r"\tableofcontents"), body.index(r"\chapter{")
    assert title < toc < first
    page = body[title:body.index(r"\end{titlepage}")]
    assert "claims verified" in page and "errata" in page and "PROVED" in page
    assert re.search(r"\d{4}-\d{2}-\d{2}", page)                        # the date
    assert "SymPy" in page and "mpmath" in page and "NumPy" in page      # the provenance
    names = [t for t, _ in chapters(tex)]
    assert names[0] == "How to read this report" and names[-1] == "Cited standard results"
    how = chapters(tex)[0][1]
    for label in ("PROVED", "PROVED (with citations)", "ARGUED", "CHECKED (finite scope)", "REFUTED"):
        assert f"\\item[{label}]" in how


def test_one_chapter_per_paper_with_its_record(tex, all_verdicts):
    papers = papers_with_claims(all_verdicts)
    paper_chapters = chapters(tex)[1:-1]
    assert [t for t, _ in paper_chapters] == [tex_escape(p.title) for p in papers]   # file order
    for paper, (_, body) in zip(papers, paper_chapters):
        record = body[:body.index(r"\end{record}")]
        assert f"\\item[Title] {tex_escape(paper.title)}" in record
        authors = tex_escape(", ".join(paper.authors)) if paper.authors else r"\emph{not stated}"
        assert f"\\item[Authors] {authors}" in record
        assert r"\item[Date]" in record and r"\item[Venue]" in record
        assert (r"\item[Remark]" in record) == bool(paper.remark)
        assert tex_escape(paper.short).replace("-", r"-\allowbreak{}") in record
        assert paper.file.split("_")[1].split(".")[0] in record                     # the file name


def test_errata_then_readings_then_claims_by_section_then_findings(tex, all_verdicts):
    papers = papers_with_claims(all_verdicts)
    for paper, (_, body) in zip(papers, chapters(tex)[1:-1]):
        sections = section_titles(body)
        fixed = ["Errata", "Readings of damaged text", "Findings of the review"]
        paper_sections = [s for s in sections if s not in fixed]
        order = ([s for s in sections if s == "Errata"] + [s for s in sections if s.startswith("Readings")]
                 + paper_sections + [s for s in sections if s.startswith("Findings")])
        assert sections == order
        names = [s.split(":")[0] for s in paper_sections]
        assert names == sorted(names, key=section_key) and len(set(names)) == len(names)
        for name, heading in zip(names, paper_sections):      # the paper's own heading after the number
            title = paper.section_title(name)
            assert heading == section_heading(paper, name) and (": " in heading) == bool(title and title != name)
        errata = [e for e in derivations.errata() if e.source.document == paper.file]
        assert ("Errata" in sections) == bool(errata)
        # every claim of the paper sits under the section its location names
        for head, part in zip(sections, re.split(r"\\section\{", body)[1:]):
            for cid in re.findall(r"% claim (\S+) hash:", part):
                assert section_heading(paper, paper_section(derivations.get(cid).source.location)) == head, cid
        for e in errata:
            assert f"erratum:{e.id}" in body


def test_every_paper_section_of_a_claim_has_its_printed_heading():
    for c in derivations.claims():
        assert c.source.paper.section_title(paper_section(c.source.location)), c.id


def test_no_statement_takes_more_than_a_third_of_a_page(tex):
    """Each statement's display, as the catalogue sets it, is at most MAX_FORMULA pt tall (estimated); the
    shortened ones say where to read them whole.  Control: the tallest statement is taller unshortened."""
    tallest = max(derivations.claims(), key=lambda c: height(display(c.lhs, c.relation, c.rhs)))
    assert height(display(tallest.lhs, tallest.relation, tallest.rhs)) > MAX_FORMULA
    for c in derivations.claims():
        shown, short = display_within(c.lhs, c.relation, c.rhs, MAX_FORMULA)
        assert height(shown) <= MAX_FORMULA, c.id
        if short:
            assert shown in tex and f"dpderive show {c.id}".replace("_", r"\_") in tex, c.id


def test_finite_checks_are_stated_in_words(tex, all_verdicts):
    checked = [c for c in derivations.claims() if all_verdicts[c.id].label.startswith("CHECKED (finite scope")]
    assert checked
    assert tex.count("This is evidence for the general statement, not a proof of it.") >= len(checked)


def test_every_claim_stamped_once_with_its_hash_in_its_papers_chapter(tex, all_verdicts):
    stamped = re.findall(r"% claim (\S+) hash:([0-9a-f]{16})", tex)
    claims = {c.id: c for c in derivations.claims()}
    assert sorted(cid for cid, _ in stamped) == sorted(claims) == sorted(all_verdicts)
    for cid, digest in stamped:
        assert claims[cid].digest() == digest
    for paper, (_, body) in zip(papers_with_claims(all_verdicts), chapters(tex)[1:-1]):
        ids = re.findall(r"% claim (\S+) hash:", body)
        assert {claims[i].source.document for i in ids} == {paper.file}
    braces = tex.replace(r"\{", "").replace(r"\}", "")
    assert braces.count("{") == braces.count("}")


def test_links_point_at_anchors(tex):
    anchors = set(re.findall(r"\\entry\{([^}]*)\}", tex))
    targets = set(re.findall(r"\\hyperref\[([^\]]*)\]", tex))
    assert targets and targets <= anchors


# -- mathematics in the prose ---------------------------------------------------------------------------
def test_no_raw_sympy_in_prose(tex, all_verdicts):
    ids = {c.id for c in derivations.claims()} | {e.id for e in derivations.errata()} \
        | {r.id for r in derivations.readings()} | {f.id for f in derivations.findings()}
    assert raw_sympy(tex, allowed_tt=ids) == []
    assert r"\resizebox" not in tex


@pytest.mark.parametrize("text", [
    "the value is oo here", "evaluates to 2*exp(1/2)*sinh(3/4)", "it is x**2", "Eq(log(2), oo) fails",
    "sqrt(2) and Abs(x)", "a <= b", r"\texttt{exp(1)}"])
def test_raw_sympy_detector_catches_ascii_math(text):
    doc = r"\begin{document}" + text + r"\end{document}"
    assert raw_sympy(doc)


@pytest.mark.parametrize("text", [
    r"$x = \infty$", r"\[ e^{\frac{1}{2}} \]", "% claim a.b hash:0123 oo", r"\ocr{exp(-[z - #(w, )| /b)}",
    r"\texttt{htm.r7.result7_larger}", "a room of books, a zoo"])
def test_raw_sympy_detector_passes_typeset_text(text):
    doc = r"\begin{document}" + text + r"\end{document}"
    assert raw_sympy(doc, allowed_tt={"htm.r7.result7_larger"}) == []


@pytest.mark.parametrize("ascii_math, expected", [
    ("2*exp(1/2)*sinh(3/4)", r"$2 e^{\frac{1}{2}} \sinh{\left(\frac{3}{4} \right)}$"),
    ("lhs = oo, rhs = -1/4", r"$\mathrm{lhs} = \infty$, $\mathrm{rhs} = -1/4$"),
    ("Eq(log(2), oo)", r"$\ln{\left(2 \right)} = \infty$"),
    ("x_i <= e^eps", r"$x_{i} \le e^{\varepsilon}$"),
    ("tau -> -oo", r"$\tau \to -\infty$"),
    ("q in (0, 1)", r"$q \in (0, 1)$"),
    ("sqrt(alpha gamma)", r"$\sqrt{\alpha \gamma}$"),
    ("E[e^{aX}] = e^{a mu}/(1 - a^2 b^2)", r"$E[e^{aX}] = e^{a \mu}/(1 - a^{2} b^{2})$"),
])
def test_prose_sets_ascii_math_as_math(ascii_math, expected):
    assert prose(ascii_math) == expected


def test_accented_latin_letters_are_text_with_accent_commands():
    """The French names of 001's statements (Théorème, Définition) stay words, set with TeX's accents."""
    assert tex_escape("Théorème, Définition, ça, naïve") == r"Th\'{e}or\`{e}me, D\'{e}finition, \c{c}a, na\"{i}ve"
    assert prose("Théorème 2.2.3.1 and Lemme 2.2.3.1") == r"Th\'{e}or\`{e}me 2.2.3.1 and Lemme 2.2.3.1"
    assert tex_escape("\u2200") == "[U+2200]"                  # control: a symbol without a base letter


def test_prose_leaves_english_alone_and_links_names():
    assert prose("A slip in an intermediate line of the proof.") == "A slip in an intermediate line of the proof."
    names = names_pattern(["htm.r3.corrected", "pigeonhole_principle"])
    out = prose("see htm.r3.corrected and pigeonhole_principle, for a unit", {"htm.r3.corrected": "claim:x"}, names)
    assert out.startswith(r"see \hyperref[claim:x]{\texttt{htm.")
    assert r"\texttt{pigeonhole\_\allowbreak{}principle}" in out and out.endswith("for a unit")
    assert "$" not in out


# -- long formulas -------------------------------------------------------------------------------------------
def test_estimated_widths_match_tex():
    """Widths measured by TeX (\\sbox, 11pt, display style) for formulas of the registry."""
    measured = {r"a^{2} = a": 30.9, r"\frac{\gamma \left(1 - \gamma\right)}{M} \le \frac{1}{4 M}": 78.4,
                r"e^{- \frac{\epsilon \log{\left(\frac{1}{1 - q} \right)}}{4 \log{\left(1 - q \right)}}} "
                r"= e^{- \frac{\epsilon}{4}}": 86.7,
                r"\max\left(0, \mu - \mu'\right) = \mu - \min\left(\mu, \mu'\right)": 157.5,
                # limits in script style holding a fraction in scriptscript style (pd.unif.theorem)
                r"\sum_{j=0}^{\left\lfloor{\frac{8 \log{\left(\frac{2}{\beta} \right)} + 8 \log{\left(k \right)}}"
                r"{\epsilon}}\right\rfloor}": 75.7}
    for formula, pt in measured.items():
        assert 0.85 * pt <= tex_width(formula) <= 1.15 * pt, formula


@pytest.mark.parametrize("cid", ["htm.r2.tight", "ht.cor5_first_principles", "puff.prop1.case2",
                                 "puff.s44.mc_epsilon_steps_unresolved"])
def test_long_formulas_are_broken_into_lines_that_fit(cid):
    c = derivations.get(cid)
    assert width(c.latex()) > LINE                                  # too wide for one line
    out = display(c.lhs, c.relation, c.rhs)
    assert out.startswith(r"\begin{align*}")
    rows = out.split("\n")[1:-2]
    assert len(rows) >= 2
    for row in rows:
        assert width(row.rstrip(" \\").replace("&", "")) <= LINE * 1.02, row[:80]


def test_a_formula_that_fits_is_set_whole():
    c = derivations.get("ht.indicator_square")
    assert display(c.lhs, c.relation, c.rhs) == "\\[ " + c.latex() + " \\]\n"
    x = sp.Symbol("x")
    assert fit(x + 1, LINE) == sp.latex(x + 1)


# -- the referee report ------------------------------------------------------------------------------------
def test_referee_report_summary_errata_table_and_sections(referee, all_verdicts):
    assert referee.startswith(r"\documentclass") and referee.rstrip().endswith(r"\end{document}")
    body = referee.split(r"\begin{document}", 1)[1]
    summary, table, how = (body.index(r"\section*{" + t) for t in ("Summary", "The errata at a glance",
                                                                    "How to read"))
    first_paper = body.index(r"\section{")
    assert summary < table < how < first_paper
    assert "SymPy" in body[:summary] and "NumPy" in body[:summary]        # the provenance line
    errata = derivations.errata()
    rows = re.findall(r"\\hyperref\[erratum:([^\]]+)\]\{(\d+)\}", body[table:how])
    assert sorted(e for e, _ in rows) == sorted(e.id for e in errata) and [int(n) for _, n in rows] == list(
        range(1, len(errata) + 1))
    papers = papers_with_claims(all_verdicts)
    assert section_titles(body) == [tex_escape(p.title) for p in papers]
    for e in errata:
        start = body.index(f"\\entry{{erratum:{e.id}}}")
        entry = body[start:body.find(r"\subsubsection*", start + 40)]
        assert "The paper says" in entry and "Corrected, it says" in entry, e.id
        assert "Counterexample" in entry and ("REFUTED" in entry), e.id
    for r in derivations.readings():
        assert f"\\label{{reading:{r.id}}}" in body
    for f in derivations.findings():
        assert f"\\label{{finding:{f.id}}}" in body
    targets = set(re.findall(r"\\hyperref\[([^\]]*)\]", referee))
    anchors = set(re.findall(r"\\(?:label|entry)\{([^}]*)\}", referee))
    assert targets and targets <= anchors


def test_no_raw_sympy_in_the_referee_report(referee):
    ids = {c.id for c in derivations.claims()} | {e.id for e in derivations.errata()} \
        | {r.id for r in derivations.readings()} | {f.id for f in derivations.findings()}
    assert raw_sympy(referee, allowed_tt=ids) == []


# -- the compiled documents -------------------------------------------------------------------------------
def _compile(tmp_path, name: str, text: str) -> str:
    """pdflatex twice (contents, links); returns the log.  A missing package is a failure too: the
    documents use only texlive-latex-base/-recommended, which .ci/run installs with pdflatex."""
    (tmp_path / f"{name}.tex").write_text(text)
    for _ in range(2):
        r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                           cwd=tmp_path, capture_output=True, text=True, errors="replace", timeout=900)
        assert r.returncode == 0, r.stdout[-3000:]
    return (tmp_path / f"{name}.log").read_text(errors="replace")


def _fonts_are_type1(tmp_path, pdf: str) -> None:
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", pdf], cwd=tmp_path, capture_output=True, text=True,
                               errors="replace").stdout
        assert fonts.count("Type 1") > 5 and "Type 3" not in fonts, fonts


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex is not installed (.ci/run installs it on Debian)")
def test_catalogue_compiles_without_overfull_lines_or_bitmap_fonts(tex, tmp_path, all_verdicts):
    log = _compile(tmp_path, "catalogue", tex)
    overfull = [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert len(overfull) <= 3 and max(overfull, default=0) <= 20, overfull
    assert "Overfull \\vbox" not in log
    toc = (tmp_path / "catalogue.toc").read_text(errors="replace")
    for paper in papers_with_claims(all_verdicts):
        assert "{chapter}" in toc and tex_escape(paper.title)[:30] in toc
    assert "AboveThreshold" in toc and "Variance with bias correction" in toc      # titled sections
    assert (tmp_path / "catalogue.pdf").stat().st_size > 100_000
    _fonts_are_type1(tmp_path, "catalogue.pdf")


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex is not installed (.ci/run installs it on Debian)")
def test_referee_report_compiles_within_25_pages(referee, tmp_path):
    log = _compile(tmp_path, "referee", referee)
    pages = int(re.search(r"Output written on referee\.pdf \((\d+) pages?", log).group(1))
    assert 10 <= pages <= 25, pages
    overfull = [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert len(overfull) <= 3 and max(overfull, default=0) <= 20, overfull
    assert "Overfull \\vbox" not in log
    _fonts_are_type1(tmp_path, "referee.pdf")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_prose_of_arbitrary_text_compiles(tmp_path):
    """Whatever a future note or check detail says, its typeset form is valid LaTeX: 400 random
    strings of symbols, operators, brackets and words compile without a TeX error."""
    import random

    from derivations.engine.latex import PREAMBLE

    rng = random.Random(20261124)
    pieces = list("abxyzAEIS _^{}()[]<>=!*+-/|~\\'.,;:%$#&0123456789") + [
        " eps ", " mu ", "oo", " in ", " not in ", " u ", " x ", "exp(", "sqrt(", "**", "<=", "->", "e^{", "_{",
        " a ", "Eq(", "Abs(", "x'", "sum_", "int_", "^-", "0+", "ln ", " the ", "max(", "|", "2*x"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) for _ in range(400)]
    body = "".join(f"\\par {k}: {prose(t)}\n" for k, t in enumerate(texts))
    (tmp_path / "p.tex").write_text(PREAMBLE % {"title": "t", "subtitle": "s"} + "\\begin{document}\n" + body
                                    + "\\end{document}\n")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "p.tex"], cwd=tmp_path, capture_output=True,
                       text=True, errors="replace", timeout=300)
    errors = re.findall(r"^! .*", r.stdout, re.M)
    assert r.returncode == 0 and not errors, errors[:5]


def test_weak_claims_give_their_reason_in_the_catalogue_and_the_report(tex, referee, all_verdicts):
    """Each claim left ARGUED or CHECKED has its reason (``limitation``) in its catalogue entry and in its paper's
    section 'Not proved in general' of the referee report; a proved claim has neither."""
    from derivations.engine.report import is_weak, label_of

    weak = [c for c in derivations.claims() if c.expected and is_weak(label_of(all_verdicts[c.id]))]
    assert weak
    for c in weak:
        entry = tex.split(f"% claim {c.id} hash:", 1)[1].split("% claim ", 1)[0]
        assert r"\field{Not proved in general}" in entry, c.id
        assert f"\\texttt{{{tex_escape(c.id)}}}, {tex_escape(label_of(all_verdicts[c.id]))})" in referee, c.id
    assert referee.count(r"\subsection{Not proved in general}") == len({c.source.document for c in weak})
    proved = next(c for c in derivations.claims() if all_verdicts[c.id].proved)
    assert r"\field{Not proved in general}" not in tex.split(f"% claim {proved.id} hash:", 1)[1].split("% claim ", 1)[0]


def test_a_symbol_named_in_latex_is_printed_as_written():
    """A quantity named by its LaTeX (kr.agg.threshold_form's left side) keeps its '_s' and '_+' where the
    author put them; a plain name is still subscripted (control)."""
    import sympy as sp

    from derivations.engine.render import latex

    assert latex(sp.Symbol(r"\sum_s (U(s) - c V(s))_+")) == r"\sum_s (U(s) - c V(s))_+"
    assert latex(derivations.get("kr.agg.threshold_form").lhs).startswith(r"\sum_s (U(s)")
    assert latex(sp.Symbol("x_i")) == "x_{i}"
