"""Display forms for the terminal: statements in one readable line, text fitted to a width.

A statement is shown in the terminal by :func:`display`: one line, with the notation of the
papers (``=``, ``≤``, ``∞``, ``ln``, ``|x|``, ``∫``, ``Σ``, Greek letters) in place of SymPy's
``Eq(...)``, ``oo``, ``log``, ``Abs``.  Tables cut it to the width with :func:`cut`; the whole form
is printed by ``dpderive show`` (wrapped, and as a two-dimensional :func:`pretty` form when that
fits) and kept in the JSON report.  Every line this module returns fits the width it is given.
"""
from __future__ import annotations

import functools
import re
import shutil
import textwrap

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

#: Widest output of the terminal commands, whatever the terminal.
MAX_WIDTH = 100
#: Narrowest width the commands accept.
MIN_WIDTH = 60
ELLIPSIS = "…"

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
          "varepsilon": "ε", "lambda": "λ", "mu": "μ", "nu": "ν", "omega": "ω", "phi": "φ", "pi": "π",
          "rho": "ρ", "sigma": "σ", "tau": "τ", "theta": "θ", "Sigma": "Σ"}
_MACROS = [(r"\mathrm{card}\,", "card "), (r"\textstyle", ""), (r"\big(", "("), (r"\big)", ")"),
           (r"\Big(", "("), (r"\Big)", ")"), (r"\emptyset", "∅"), (r"\sum", "Σ"), (r"\int", "∫"),
           (r"\max", "max"), (r"\in ", " ∈ "), (r"\in", "∈"), (r"\mp", "∓"), (r"\hat t", "t̂"), (r"\,", " ")]
_GREEK_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")


def symbol_name(name: str) -> str:
    """A symbol's name as the papers print it: Greek letters, no LaTeX markup.

    >>> symbol_name(r"\\varepsilon_{Z_0,X}(0)"), symbol_name("mu_i"), symbol_name(r"p(\\emptyset)")
    ('ε_{Z_0,X}(0)', 'μ_i', 'p(∅)')
    """
    for macro, text in _MACROS:
        name = name.replace(macro, text)
    name = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", name)
    name = re.sub(r"\\math(?:cal|rm|bf)\{([^{}]*)\}", r"\1", name)
    name = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), name)
    return _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], name)


class _Readable(StrPrinter):
    """SymPy's string printer with the papers' notation (one line, plain Unicode)."""

    _relations = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}

    def _print_Relational(self, e):
        op = self._relations.get(e.rel_op, e.rel_op)
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    def _print_Infinity(self, e):
        return "∞"

    def _print_NegativeInfinity(self, e):
        return "-∞"

    def _print_ComplexInfinity(self, e):
        return "zoo"

    def _print_Pi(self, e):
        return "π"

    def _print_Exp1(self, e):
        return "e"

    def _print_Symbol(self, e):
        return symbol_name(e.name)

    _print_Dummy = _print_Symbol

    def _print_Indexed(self, e):
        return f"{self._print(e.base)}[{', '.join(self._print(i) for i in e.indices)}]"

    def _print_IndexedBase(self, e):
        return symbol_name(str(e.label))

    def _print_log(self, e):
        return f"ln({self._print(e.args[0])})" if len(e.args) == 1 else super()._print_Function(e)

    def _print_Abs(self, e):
        return f"|{self._print(e.args[0])}|"

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Pow(self, e, rational=False):
        text = super()._print_Pow(e, rational)
        base = self.parenthesize(e.base, precedence(e), strict=False)
        return base + "^" + text[len(base) + 2:] if text.startswith(base + "**") else text

    def parenthesize(self, item, level, strict=False):
        """Integrals, sums and limits inside a product or power are bracketed (their extent is
        otherwise ambiguous on one line)."""
        if isinstance(item, (sp.Integral, sp.Sum, sp.Limit)) and level >= PRECEDENCE["Mul"]:
            return f"({self._print(item)})"
        return super().parenthesize(item, level, strict)

    def _print_And(self, e):
        return " and ".join(self.parenthesize(a, 10) for a in e.args)

    def _print_Or(self, e):
        return " or ".join(self.parenthesize(a, 10) for a in e.args)

    def _print_Not(self, e):
        return f"not ({self._print(e.args[0])})"

    def _print_Piecewise(self, e):
        parts = []
        for value, cond in e.args:
            parts.append(f"{self._print(value)} otherwise" if cond is sp.true
                         else f"{self._print(value)} if {self._print(cond)}")
        return "{" + "; ".join(parts) + "}"

    def _bounds(self, limit) -> tuple[str, str]:
        if len(limit) == 3:
            return self._print(limit[0]), f"_{{{self._print(limit[1])}}}^{{{self._print(limit[2])}}}"
        return self._print(limit[0]), ""

    def _print_Integral(self, e):
        body = self.parenthesize(e.function, PRECEDENCE["Add"])   # a sum in brackets
        outer = ""
        for limit in e.limits:
            var, bounds = self._bounds(limit)
            outer = f"∫{bounds} " + outer
            body += f" d{var}"
        return outer + body

    def _print_Sum(self, e):
        head = ""
        for limit in e.limits:
            var, _ = self._bounds(limit)
            lo, hi = (self._print(limit[1]), self._print(limit[2])) if len(limit) == 3 else ("", "")
            head += f"Σ_{{{var}={lo}}}^{{{hi}}} "
        return head + self.parenthesize(e.function, PRECEDENCE["Add"])

    def _print_Limit(self, e):
        f, z, z0, direction = e.args
        side = "" if str(direction) in ("+-",) else str(direction)
        body = self.parenthesize(f, PRECEDENCE["Add"])
        return f"lim_{{{self._print(z)}→{self._print(z0)}{side}}} {body}"

    def _print_Derivative(self, e):
        vars_ = "".join(f"d{self._print(v)}" + (f"^{n}" if n != 1 else "") for v, n in e.variable_count)
        order = sum(n for _, n in e.variable_count)
        return f"d{'^' + str(order) if order != 1 else ''}/{vars_} ({self._print(e.expr)})"


_READABLE = _Readable()


def display(expr) -> str:
    """One readable line for a SymPy expression or statement (the whole of it).

    >>> display(sp.Eq(sp.log(2), sp.oo, evaluate=False))
    'ln(2) = ∞'
    """
    return _display(sp.sympify(expr))


@functools.lru_cache(maxsize=4096)
def _display(expr: sp.Basic) -> str:      # the verify table and the JSON report print the same statements
    return _READABLE.doprint(expr)


def pretty(expr, width: int) -> str | None:
    """SymPy's two-dimensional Unicode form (symbols named as in :func:`symbol_name`), or None when
    it is a single line (the one-line :func:`display` form says the same), wider than ``width`` or
    taller than 12 lines (then the one-line form, wrapped, is the readable one)."""
    expr = sp.sympify(expr)
    names = {s: sp.Symbol(symbol_name(s.name), **s.assumptions0) for s in expr.atoms(sp.Symbol)}
    try:
        text = sp.pretty(expr.xreplace(names), use_unicode=True, num_columns=10_000)
    except Exception:           # a printer without a 2-D form for some object: the one-line form serves
        return None
    lines = text.splitlines()
    if not 1 < len(lines) <= 12 or max(map(len, lines)) > width:
        return None
    return text


# -- text fitted to a width ------------------------------------------------------------------------
def terminal_width(width: int | None = None) -> int:
    """``width`` if given, else the terminal's width (100 when it is unknown), never above
    :data:`MAX_WIDTH`."""
    if width is None:
        width = shutil.get_terminal_size((MAX_WIDTH, 24)).columns
    return max(MIN_WIDTH, min(int(width), MAX_WIDTH))


def cut(text: str, width: int) -> str:
    """``text`` on one line (its spacing kept), cut to ``width`` characters with a final ``…`` when longer."""
    text = text.replace("\n", " ").rstrip()
    return text if len(text) <= width else text[:max(0, width - 1)].rstrip() + ELLIPSIS


def wrap(text: str, width: int, indent: str = "", first: str | None = None, lines: int | None = None) -> list[str]:
    """``text`` wrapped to ``width`` columns: the first line starts with ``first`` (default ``indent``),
    the others with ``indent``; at most ``lines`` lines, the last then ending in ``…``.  Long words
    (formulas without spaces) are broken."""
    first = indent if first is None else first
    out = textwrap.wrap(" ".join(str(text).split()), width, initial_indent=first, subsequent_indent=indent,
                        break_long_words=True, break_on_hyphens=False) or [first.rstrip()]
    if lines is not None and len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:width - 2] + " " + ELLIPSIS
    return out


def hanging(label: str, text: str, width: int, indent: int, lines: int | None = None) -> list[str]:
    """``label`` followed by ``text`` wrapped under a hanging indent of ``indent`` columns."""
    head = label.ljust(indent) if len(label) < indent else label + " "
    return wrap(text, width, " " * indent, first=head, lines=lines)
