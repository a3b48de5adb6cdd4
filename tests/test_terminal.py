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


@pytest.mark.parametrize("expr, text", [
    (sp.Eq(sp.log(2), sp.oo, evaluate=False), "ln(2) = ∞"),
    (sp.Le(x, y ** 2, evaluate=False), "x ≤ y^2"),
    (sp.Ge(sp.Abs(x - mu), 0, evaluate=False), "|μ - x| ≥ 0"),
    (sp.Ne(n, -sp.oo, evaluate=False), "n ≠ -∞"),
    (sp.Max(0, x) * sp.Min(x, y), "max(0, x)*min(x, y)"),
    (sp.Integral(sp.exp(-x / b) / b, (x, 0, sp.oo)), "∫_{0}^{∞} exp(-x/b)/b dx"),
    (sp.Integral(x + 1, (x, 0, 1)), "∫_{0}^{1} (x + 1) dx"),
    (2 * sp.Integral(x, (x, 0, 1)), "2*(∫_{0}^{1} x dx)"),
    (sp.Sum(k ** 2, (k, 1, n)), "Σ_{k=1}^{n} k^2"),
    (sp.Piecewise((1, x < 0), (0, True)), "{1 if x < 0; 0 otherwise}"),
    (sp.And(x < 1, y > 0), "y > 0 and x < 1"),     # SymPy's order of the arguments
    (sp.Limit(1 / x, x, 0, "+"), "lim_{x→0+} 1/x"),
    (sp.pi * sp.E ** x, "π*exp(x)"),
])
def test_display_forms(expr, text):
    assert display(expr) == text


def test_powers_of_symbols_named_with_a_star_are_not_garbled():
    """A name ending in '*' (R^*) next to SymPy's '**' must not become '^^'."""
    r = sp.Symbol("R^*")
    assert display(r ** 2) == "R^*^2" and display(2 * r ** 3) == "2*R^*^3"


@pytest.mark.parametrize("name, shown", [
    (r"\varepsilon_{Z_0,X}(0)", "ε_{Z_0,X}(0)"), ("mu_i", "μ_i"), ("lambda_1", "λ_1"), ("pi_ij", "π_ij"),
    (r"p(\emptyset)", "p(∅)"), (r"\mathrm{card}\,\mathcal{X}_1", "card X_1"), ("Delta", "Δ"),
    (r"P\big(\textstyle\sum_{i\in S} x_i = y\big)", "P(Σ_{i ∈ S} x_i = y)"),
    # negative controls: Greek names inside longer words stay as they are
    ("mup", "mup"), ("epsilons", "epsilons"), ("alphabet", "alphabet"),
])
def test_symbol_names(name, shown):
    assert symbol_name(name) == shown


def test_no_registered_statement_shows_sympy_syntax():
    """Every claim's display form uses the papers' notation: no Eq(, oo, log(, Abs(, **, Piecewise."""
    for c in derivations.claims():
        text = display(c.statement)
        for raw in ("Eq(", "Le(", "Ge(", "log(", "Abs(", "**", "Piecewise(", "Integral(", "Sum("):
            assert raw not in text, (c.id, raw, text)
        assert not re.search(r"(?<![A-Za-z])oo(?![A-Za-z])", text), (c.id, text)    # sympy's infinity, not floor


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
    result = doctest.testmod(terminal)
    assert result.attempted >= 2 and result.failed == 0
