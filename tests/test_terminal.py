"""Display forms of the terminal (derivations.engine.terminal): the papers' notation in one line,
text fitted to a width.  References: the expected strings are written out by hand from the
mathematics (ln 2 = ∞ for Eq(log(2), oo)); the width guarantees are checked line by line."""
from __future__ import annotations

import doctest
import re

import pytest
import sympy as sp

import derivations
from derivations.engine import terminal
from derivations.engine.terminal import ELLIPSIS, cut, display, hanging, pretty, symbol_name, wrap

x, y, b, mu = sp.symbols("x y b mu", real=True)
n, k = sp.symbols("n k", integer=True)


q, g, eps = sp.symbols("q g epsilon", real=True)
f = sp.IndexedBase("f")


@pytest.mark.parametrize("expr, text", [
    (sp.Eq(sp.log(2), sp.oo, evaluate=False), "ln(2) = ∞"),
    (sp.Le(x, y ** 2, evaluate=False), "x ≤ y²"),
    (sp.Ge(sp.Abs(x - mu), 0, evaluate=False), "|μ - x| ≥ 0"),
    (sp.Ne(n, -sp.oo, evaluate=False), "n ≠ -∞"),
    (sp.Max(0, x) * sp.Min(x, y), "max(0, x) min(x, y)"),
    (sp.Integral(sp.exp(-x / b) / b, (x, 0, sp.oo)), "∫_{0}^{∞} e^(-x/b)/b dx"),
    (sp.Integral(x + 1, (x, 0, 1)), "∫_{0}^{1} (x + 1) dx"),
    (2 * sp.Integral(x, (x, 0, 1)), "2(∫_{0}^{1} x dx)"),
    (sp.Sum(k ** 2, (k, 1, n)), "Σ_{k=1}^{n} k²"),
    (sp.Product(1 - q, (k, 1, n)), "Π_{k=1}^{n} (1 - q)"),
    (sp.Piecewise((sp.exp(eps * g / 2) / 2, g < 0), (1 - sp.exp(-eps * g / 2) / 2, True)),
     "{e^(εg/2)/2, if g < 0; 1 - e^(-εg/2)/2, otherwise}"),
    (sp.And(x < 1, y > 0), "y > 0 and x < 1"),     # SymPy's order of the arguments
    (sp.Limit(1 / x, x, 0, "+"), "lim_{x→0+} 1/x"),
    (sp.pi * sp.E ** x, "π e^x"),
    (2 * x * sp.exp(-y) / 3, "2x e^(-y)/3"),             # juxtaposition; the exponent bracketed
    ((1 - q) * (1 + q), "(1 - q)(q + 1)"),
    (sp.binomial(n, k) * q ** k, "q^k C(n, k)"),
    (x ** (n - k), "x^(-k + n)"),
    (sp.sqrt(x + 1), "√(x + 1)"),
    (1 / (x * y), "1/(xy)"),
    (sp.KroneckerDelta(1, f[k]), "1{f_k = 1}"),         # an indicator, the variable first
    (sp.floor(x / 2), "⌊x/2⌋"),
    (sp.exp(2 * x), "e^(2x)"),
    (sp.Symbol(r"\tilde{f}_1") * sp.Symbol(r"\mathbb{E}[X]"), "E[X] f̃_1"),
])
def test_display_forms(expr, text):
    """Expected strings written out by hand from the mathematics."""
    assert display(expr) == text


def test_powers_of_symbols_named_with_a_star_are_not_garbled():
    """A name ending in '*' (R^*) next to a power must not become '^^'."""
    r = sp.Symbol("R^*")
    assert display(r ** 2) == "R^*²" and display(2 * r ** 3) == "2 R^*³"


@pytest.mark.parametrize("name, shown", [
    (r"\varepsilon_{Z_0,X}(0)", "ε_{Z_0,X}(0)"), ("mu_i", "μ_i"), ("lambda_1", "λ_1"), ("pi_ij", "π_ij"),
    (r"p(\emptyset)", "p(∅)"), (r"\mathrm{card}\,\mathcal{X}_1", "card X_1"), ("Delta", "Δ"),
    (r"P\big(\textstyle\sum_{i\in S} x_i = y\big)", "P(Σ_{i ∈ S} x_i = y)"),
    (r"\frac{\sum_j a_j}{b}", "(Σ_j a_j)/b"), (r"\Pr[\tilde{f} \mid f]", "P[f̃ | f]"), (r"\prod_{i \geq 2}", "Π_{i ≥ 2}"),
    # negative controls: Greek names inside longer words stay as they are
    ("mup", "mup"), ("epsilons", "epsilons"), ("alphabet", "alphabet"),
])
def test_symbol_names(name, shown):
    assert symbol_name(name) == shown


#: SymPy source syntax that the terminal form must never show (a product's '*' between operands, '**',
#: constructor calls, SymPy's names for infinity, abs, exp, sqrt and the binomial coefficient; 'log(' is
#: also the papers' own notation, and SymPy's log is printed ln).
_SYNTAX = [re.compile(p) for p in (
    r"[\w)\]]\s*\*\s*[\w(]", r"\*\*", r"\b(Eq|Ne|Le|Ge|Lt|Gt|Piecewise|Integral|Sum|Product|Abs|Max|Min|"
    r"KroneckerDelta|binomial|Rational|Symbol|Indexed|IndexedBase|Tuple|Matrix|Limit|Derivative|exp|sqrt|"
    r"UnevaluatedExpr|Defined|Str)\(", r"(?<![A-Za-z])z?oo(?![A-Za-z])", r"\bnan\b")]


def sympy_syntax(text: str) -> list[str]:
    """The pieces of SymPy source syntax in ``text``."""
    return [m.group(0) for pat in _SYNTAX for m in pat.finditer(text)]


@pytest.mark.parametrize("raw", [
    "Eq(x, 1)", "2*x", "x**2", "Piecewise((1, x < 0), (0, True))", "binomial(n, k)", "exp(x) + 1", "x + oo",
    "Abs(x)", "sqrt(x)", "Sum(k, (k, 1, n))", "KroneckerDelta(i, j)", "(a + b)*c", "zoo"])
def test_the_syntax_test_sees_sympy_source(raw):
    """Negative controls: SymPy's own string form of these is caught."""
    assert sympy_syntax(raw), raw


@pytest.mark.parametrize("fine", ["k^{*} q e^ε", "R^*²", "2x e^(-y)/3", "⌊x⌋ floor", "C(n, k) zoom", "t̂'_j"])
def test_the_syntax_test_passes_the_papers_notation(fine):
    assert not sympy_syntax(fine), fine


def test_no_registered_statement_shows_sympy_syntax():
    """Every claim's statement, conditions and hypotheses in the terminal use the papers' notation."""
    from derivations.engine.report import conditions_text
    for c in derivations.claims():
        for text in (display(c.statement), conditions_text(c)):
            assert not sympy_syntax(text), (c.id, sympy_syntax(text), text)


def test_the_display_of_a_statement_depends_on_it():
    """Negative control: a mutated claim (another right-hand side or the relation reversed) is
    displayed differently."""
    for cid in ("laplace.pdf_normalised", "puff.lemma321.third"):
        c = derivations.get(cid)
        assert display(c.mutated().statement) != display(c.statement)


def test_cut_and_wrap_fit_the_width():
    text = "word " * 60 + "a" * 150
    for width in (60, 80, 100):
        assert len(cut(text, width)) == width and cut(text, width).endswith(ELLIPSIS)
        lines = wrap(text, width, "    ", first="  * ")
        assert all(len(line) <= width for line in lines) and lines[0].startswith("  * word")
        assert all(line.startswith("    ") for line in lines[1:])
        short = wrap(text, width, "  ", lines=2)
        assert len(short) == 2 and short[-1].endswith(ELLIPSIS) and len(short[-1]) <= width
        assert all(len(line) <= width for line in hanging("  label:", text, width, 12))
    assert cut("short", 80) == "short"                       # nothing cut: no ellipsis
    assert wrap("two words", 80, "  ", lines=3) == ["  two words"]


def test_pretty_form_only_when_it_fits_and_says_more():
    frac = sp.Eq(x / (y + 1), b, evaluate=False)
    two_d = pretty(frac, 80)
    assert two_d is not None and len(two_d.splitlines()) == 3 and "─" in two_d
    assert pretty(frac, 5) is None                          # wider than the width
    assert pretty(sp.Eq(x, b, evaluate=False), 80) is None  # one line: the display form says it
    named = pretty(sp.Symbol(r"\varepsilon_{Z}") / (x + 1), 80)
    assert "\\varepsilon" not in named and "ε" in named


def test_terminal_width_is_capped(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert terminal.terminal_width() == terminal.MAX_WIDTH == 100
    monkeypatch.setenv("COLUMNS", "72")
    assert terminal.terminal_width() == 72
    assert terminal.terminal_width(80) == 80


def test_docstring_examples():
    from derivations.engine import notation, render
    for module, least in ((terminal, 1), (render, 4), (notation, 4)):
        result = doctest.testmod(module)
        assert result.attempted >= least and result.failed == 0, module.__name__
