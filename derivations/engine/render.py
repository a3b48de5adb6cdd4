"""One renderer from a claim's expression to the papers' notation: one line of Unicode, or LaTeX.

:func:`unicode` is the terminal's form, one line of plain text: products by juxtaposition (``2x``,
``εg/2``, ``(1 - q)(1 + q)``), small integer powers as superscripts (``x²``) and others after a caret
(``x^(n - k)``), ``e^x`` for the exponential, ``√x``, ``ln``, ``|x|``, ``⌊x⌋``, ``C(n, k)`` for the
binomial coefficient, ``1{a = b}`` for an indicator (Kronecker's delta), ``{a, if c; b, otherwise}`` for
cases, ``Σ``, ``Π`` and ``∫`` with their limits, ``∞``, and a quantity in the paper's notation
(:class:`~derivations.engine.notation.Defined`: ``E[e^{aX}]``, ``p_{j|i}``) by its notation.  No SymPy
source syntax (``*``, ``**``, ``Eq(``, ``Piecewise(``, ``binomial(``, ``oo``) appears in it.

:func:`latex` is SymPy's LaTeX with the same notation: ``\\ln``, an indicator ``\\mathbf{1}\\{a = b\\}``,
and the papers' notation for defined quantities.
"""
from __future__ import annotations

import functools
import re

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter


__all__ = ["unicode", "latex", "symbol_name", "RELATION_SIGNS"]

RELATION_SIGNS = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
          "varepsilon": "ε", "eta": "η", "lambda": "λ", "Lambda": "Λ", "mu": "μ", "nu": "ν", "omega": "ω",
          "Omega": "Ω", "phi": "φ", "varphi": "φ", "Phi": "Φ", "pi": "π", "Pi": "Π", "rho": "ρ", "sigma": "σ",
          "Sigma": "Σ", "tau": "τ", "theta": "θ", "Theta": "Θ", "xi": "ξ", "zeta": "ζ", "kappa": "κ",
          "psi": "ψ", "chi": "χ", "Gamma": "Γ"}
_MACROS = [(r"\geq", "≥"), (r"\leq", "≤"), (r"\mathrm{card}\,", "card "), (r"\textstyle", ""), (r"\displaystyle", ""), (r"\big(", "("),
           (r"\big)", ")"), (r"\Big(", "("), (r"\Big)", ")"), (r"\left", ""), (r"\right", ""), (r"\emptyset", "∅"),
           (r"\sum", "Σ"), (r"\prod", "Π"), (r"\int", "∫"), (r"\max", "max"), (r"\min", "min"), (r"\in ", " ∈ "),
           (r"\in", "∈"), (r"\notin", "∉"), (r"\ni", "∋"), (r"\mp", "∓"), (r"\pm", "±"), (r"\hat t", "t̂"),
           (r"\mid", "|"), (r"\Pr", "P"), (r"\le", "≤"), (r"\ge", "≥"), (r"\neq", "≠"), (r"\ne", "≠"),
           (r"\infty", "∞"), (r"\cdot", "·"), (r"\ldots", "…"), (r"\dots", "…"), (r"\cup", "∪"), (r"\cap", "∩"),
           (r"\to", "→"), (r"\,", " "), (r"\;", " "), (r"\:", " "), (r"\quad", " "), (r"\{", "{"), (r"\}", "}")]
_MACROS_LONGEST_FIRST = sorted(_MACROS, key=lambda m: -len(m[0]))
_GREEK_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")
_FONT = re.compile(r"\\(?:math(?:cal|rm|bf|bb|it|sf)|operatorname|text(?:rm|it|bf)?|tilde|hat|bar|widetilde|widehat)"
                   r"\{([^{}]*)\}")
_ACCENT = {"tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302", "widehat": "\u0302", "bar": "\u0304"}


def symbol_name(name: str) -> str:
    """A symbol's (or a notation's) LaTeX name as the papers print it in one line: Greek letters,
    accents on their letter, no markup.

    >>> symbol_name(r"\\varepsilon_{Z_0,X}(0)"), symbol_name("mu_i"), symbol_name(r"\\mathbb{E}[e^{aX}]")
    ('ε_{Z_0,X}(0)', 'μ_i', 'E[e^{aX}]')
    >>> symbol_name(r"\\tilde{f}_1"), symbol_name(r"\\Pr[\\tilde{f} \\mid f]")
    ('f̃_1', 'P[f̃ | f]')
    """
    name = _fractions(name)
    for macro, text in _MACROS_LONGEST_FIRST:          # \infty before \in, \left before \le
        name = name.replace(macro, text)
    name = re.sub(r"\\math(?:bf|rm|bb|cal|it) ([A-Za-z])", r"\1", name)     # \mathbf f

    def font(m: re.Match) -> str:
        head = m.group(0)[1:m.group(0).index("{")]
        body = m.group(1)
        return body + _ACCENT[head] if head in _ACCENT and len(body) == 1 else body

    for _ in range(3):                  # nested markup, innermost first
        name = _FONT.sub(font, name)
    name = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), name)
    return _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], name)


def _group(text: str, start: int) -> tuple[str, int]:
    """The brace group opening at ``text[start]`` and the index after it (balanced braces)."""
    depth = 0
    for k in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[k], 0)
        if depth == 0:
            return text[start + 1:k], k + 1
    return text[start + 1:], len(text)


def _fractions(name: str) -> str:
    """``\\frac{a}{b}`` as ``(a)/(b)`` (a single letter unbracketed), nested braces included."""
    while "\\frac{" in name:
        k = name.index("\\frac{")
        num, after = _group(name, k + 5)
        if after >= len(name) or name[after] != "{":
            break
        den, end = _group(name, after)
        wrap = [t if len(t) == 1 else f"({t})" for t in (num, den)]
        name = name[:k] + f"{wrap[0]}/{wrap[1]}" + name[end:]
    return name


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_TIGHT = re.compile(r"^[A-Za-zα-ωΑ-Ω][\u0300-\u036f]?[⁰¹²³⁴⁵⁶⁷⁸⁹]*$")   # one letter (x, σ²): juxtaposed, no space
_NUMBER = re.compile(r"^\d+(\.\d+)?$")


def _juxtapose(factors: list[str]) -> str:
    """Factors written side by side as the papers do: ``2x``, ``εg``, ``(1 - q)(1 + q)``, otherwise a
    space (``x_i p_i``, ``2 e^x``); two numbers get a middle dot (``2·3``)."""
    out = factors[0]
    for prev, cur in zip(factors, factors[1:]):
        if _NUMBER.match(prev) and _NUMBER.match(cur[:1] or " "):
            out += "·" + cur
        elif (_NUMBER.match(prev) or _TIGHT.match(prev)) and (_TIGHT.match(cur) or cur.startswith("(")):
            out += cur
        elif prev.endswith(")") and cur.startswith("(") and not prev.startswith(("ln", "e^", "√")):
            out += cur
        else:
            out += " " + cur
    return out


def _simple(text: str) -> bool:
    """A printed exponent or argument that needs no brackets after ``^`` / ``e^``: one token."""
    return bool(re.fullmatch(r"(\d+|∞|[A-Za-zα-ωΑ-Ω][\u0300-\u036f]?(_\{[^{}]*\}|_[A-Za-z0-9]+)?['′]*)", text))


class UnicodePrinter(StrPrinter):
    """SymPy's string printer turned to the papers' notation in one line of Unicode."""

    printmethod = "_papers_unicode"     # not SymPy's _sympystr, which some classes (Indexed) define

    # -- atoms ------------------------------------------------------------------------------------
    def _print_Infinity(self, e):
        return "∞"

    def _print_NegativeInfinity(self, e):
        return "-∞"

    def _print_ComplexInfinity(self, e):
        return "∞ (complex)"

    def _print_NaN(self, e):
        return "undefined"

    def _print_Pi(self, e):
        return "π"

    def _print_Exp1(self, e):
        return "e"

    def _print_ImaginaryUnit(self, e):
        return "i"

    def _print_BooleanTrue(self, e):
        return "true"

    def _print_BooleanFalse(self, e):
        return "false"

    def _print_Symbol(self, e):
        return symbol_name(e.name)

    _print_Dummy = _print_Symbol

    def _print_Str(self, e):
        return symbol_name(e.name)

    def _print_Float(self, e):
        return sp.Float(e, 6).__str__().rstrip("0").rstrip(".") if e != int(e) else str(int(e))

    def _print_Defined(self, e):
        return symbol_name(e.name)

    def _print_UnevaluatedExpr(self, e):
        return self._print(e.args[0])

    def _print_Indexed(self, e):
        idx = [self._print(i) for i in e.indices]
        base = self._print(e.base)
        if "_" in base:                        # t_{-i} indexed by j: t_{-i}[j]
            return f"{base}[{', '.join(idx)}]"
        sub = idx[0] if len(idx) == 1 and _simple(idx[0]) and len(idx[0]) == 1 else "{" + ",".join(idx) + "}"
        return f"{base}_{sub}"

    def _print_IndexedBase(self, e):
        return symbol_name(str(e.label))

    # -- relations and logic ------------------------------------------------------------------------
    def _print_Relational(self, e):
        op = RELATION_SIGNS.get(e.rel_op, e.rel_op)
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    def _print_And(self, e):
        return " and ".join(self.parenthesize(a, 10) for a in e.args)

    def _print_Or(self, e):
        return " or ".join(self.parenthesize(a, 10) for a in e.args)

    def _print_Not(self, e):
        return f"not ({self._print(e.args[0])})"

    def _print_Contains(self, e):
        return f"{self._print(e.args[0])} ∈ {self._print(e.args[1])}"

    def _print_Interval(self, e):
        lo, hi = self._print(e.start), self._print(e.end)
        return ("(" if e.left_open else "[") + f"{lo}, {hi}" + (")" if e.right_open else "]")

    def _print_FiniteSet(self, e):
        return "{" + ", ".join(self._print(a) for a in sorted(e.args, key=sp.default_sort_key)) + "}"

    def _print_Union(self, e):
        return " ∪ ".join(self._print(a) for a in e.args)

    def _print_Intersection(self, e):
        return " ∩ ".join(self._print(a) for a in e.args)

    def _print_Naturals0(self, e):
        return "{0, 1, 2, …}"

    def _print_Naturals(self, e):
        return "{1, 2, 3, …}"

    def _print_Integers(self, e):
        return "ℤ"

    def _print_Reals(self, e):
        return "ℝ"

    def _print_Tuple(self, e):
        return "(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_MatrixBase(self, e):
        return "[" + "; ".join(", ".join(self._print(x) for x in e.row(i)) for i in range(e.rows)) + "]"

    _print_ImmutableDenseMatrix = _print_MutableDenseMatrix = _print_Matrix = _print_MatrixBase

    # -- arithmetic ---------------------------------------------------------------------------------
    def parenthesize(self, item, level, strict=False):
        """Integrals, sums, products and limits inside a product or power are bracketed (their extent
        is otherwise ambiguous on one line); a held form is bracketed as what it holds."""
        if isinstance(item, (sp.Integral, sp.Sum, sp.Product, sp.Limit)) and level >= PRECEDENCE["Mul"]:
            return f"({self._print(item)})"
        return super().parenthesize(item, level, strict)

    def _print_Mul(self, expr):
        """Factors side by side, the denominator after one ``/``: ``2x e^(-y)/3``, ``-(a + b)/(c d)``."""
        coeff, rest = expr.as_coeff_Mul()
        sign = ""
        if coeff.is_Number and coeff < 0:
            coeff, sign = -coeff, "-"
        factors = ([] if coeff == 1 else [coeff]) + ([] if rest == 1 else list(rest.as_ordered_factors()))
        num, den = [], []
        for f in factors:
            if f.is_Rational and not f.is_Integer:
                if f.p != 1:
                    num.append(sp.Integer(f.p))
                den.append(sp.Integer(f.q))
            elif f.is_commutative and f.is_Pow and f.exp.as_coeff_Mul()[0] < 0:
                den.append(f.base if f.exp == -1 else sp.Pow(f.base, -f.exp, evaluate=False))
            else:
                num.append(f)
        prec = PRECEDENCE["Mul"]
        top = _juxtapose([self.parenthesize(x, prec, strict=False) for x in num]) if num else "1"
        if not den:
            return sign + top
        bottom = _juxtapose([self.parenthesize(x, prec, strict=False) for x in den])
        if len(den) > 1:
            bottom = f"({bottom})"
        if len(num) == 1 and num[0].is_Add:
            top = top if top.startswith("(") else f"({top})"
        return sign + top + "/" + bottom

    def _print_Pow(self, e, rational=False):
        base, ex = e.base, e.exp
        if ex is sp.S.Half:
            return self._root(base)
        if e.is_commutative and ex.is_Rational and ex < 0:
            return "1/" + self.parenthesize(sp.Pow(base, -ex, evaluate=False), PRECEDENCE["Mul"], strict=True) \
                if ex != -1 else "1/" + self.parenthesize(base, PRECEDENCE["Pow"], strict=False)
        if base is sp.E:
            return self._exp(ex)
        b = self.parenthesize(base, PRECEDENCE["Pow"], strict=True)
        if isinstance(base, (sp.Pow, sp.exp)) or b.endswith(tuple("⁰¹²³⁴⁵⁶⁷⁸⁹")):
            b = f"({self._print(base)})"
        return b + self._exponent(ex)

    def _exponent(self, ex) -> str:
        if ex.is_Integer and 1 < ex < 100:
            return str(ex).translate(_SUPERSCRIPT)
        text = self._print(ex)
        return "^" + (text if _simple(text) else f"({text})")

    def _root(self, base) -> str:
        text = self._print(base)
        return "√" + (text if _simple(text) else f"({text})")

    def _exp(self, ex) -> str:
        text = self._print(ex)
        return "e^" + (text if _simple(text) else f"({text})")

    def _print_exp(self, e):
        return self._exp(e.args[0])

    def _print_log(self, e):
        return f"ln({self._print(e.args[0])})" if len(e.args) == 1 else \
            f"log_{self._print(e.args[1])}({self._print(e.args[0])})"

    def _print_Abs(self, e):
        return f"|{self._print(e.args[0])}|"

    def _print_floor(self, e):
        return f"⌊{self._print(e.args[0])}⌋"

    def _print_ceiling(self, e):
        return f"⌈{self._print(e.args[0])}⌉"

    def _print_sign(self, e):
        return f"sgn({self._print(e.args[0])})"

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_binomial(self, e):
        return f"C({self._print(e.args[0])}, {self._print(e.args[1])})"

    def _print_factorial(self, e):
        return self.parenthesize(e.args[0], PRECEDENCE["Func"], strict=True) + "!"

    def _print_gamma(self, e):
        return f"Γ({self._print(e.args[0])})"

    def _print_beta(self, e):
        return "B(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_KroneckerDelta(self, e):
        a, b = e.args if not e.args[0].is_number else e.args[::-1]     # 1{f_j = 1}, not 1{1 = f_j}
        return f"1{{{self._print(a)} = {self._print(b)}}}"

    def _print_Heaviside(self, e):
        return f"1{{{self._print(e.args[0])} > 0}}"

    def _print_Mod(self, e):
        return f"{self.parenthesize(e.args[0], PRECEDENCE['Mul'])} mod {self.parenthesize(e.args[1], PRECEDENCE['Mul'])}"

    def _print_LambertW(self, e):
        return "W(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Piecewise(self, e):
        parts = [f"{self._print(v)}, otherwise" if c is sp.true else f"{self._print(v)}, if {self._print(c)}"
                 for v, c in e.args]
        return "{" + "; ".join(parts) + "}"

    # -- operators with limits --------------------------------------------------------------------
    def _limits(self, limit) -> tuple[str, str, str]:
        var = self._print(limit[0])
        if len(limit) == 3:
            return var, self._print(limit[1]), self._print(limit[2])
        return var, "", ""

    def _print_Integral(self, e):
        body = self.parenthesize(e.function, PRECEDENCE["Add"])   # a sum in brackets
        outer = ""
        for limit in e.limits:
            var, lo, hi = self._limits(limit)
            outer = (f"∫_{{{lo}}}^{{{hi}}} " if lo or hi else "∫ ") + outer
            body += f" d{var}"
        return outer + body

    def _big(self, sign: str, e) -> str:
        head = ""
        for limit in e.limits:
            var, lo, hi = self._limits(limit)
            head += f"{sign}_{{{var}={lo}}}^{{{hi}}} " if lo or hi else f"{sign}_{{{var}}} "
        return head + self.parenthesize(e.function, PRECEDENCE["Mul"], strict=True)

    def _print_Sum(self, e):
        return self._big("Σ", e)

    def _print_Product(self, e):
        return self._big("Π", e)

    def _print_Limit(self, e):
        f, z, z0, direction = e.args
        side = "" if str(direction) in ("+-",) else str(direction)
        body = self.parenthesize(f, PRECEDENCE["Add"])
        return f"lim_{{{self._print(z)}→{self._print(z0)}{side}}} {body}"

    def _print_Derivative(self, e):
        vars_ = "".join(f"d{self._print(v)}" + (self._exponent(sp.Integer(n)) if n != 1 else "")
                        for v, n in e.variable_count)
        order = sum(n for _, n in e.variable_count)
        return f"d{self._exponent(sp.Integer(order)) if order != 1 else ''}/{vars_} ({self._print(e.expr)})"

    def _print_Subs(self, e):
        body, old, new = e.args
        at = ", ".join(f"{self._print(o)} = {self._print(n)}" for o, n in zip(old, new))
        return f"({self._print(body)})|_{{{at}}}"

    def _print_Function(self, e):
        return symbol_name(e.func.__name__) + "(" + ", ".join(self._print(a) for a in e.args) + ")"


_PRINTER = UnicodePrinter()


@functools.lru_cache(maxsize=8192)
def _unicode(expr: sp.Basic) -> str:
    return _PRINTER.doprint(expr)


def unicode(expr) -> str:
    """One line of the papers' notation for a SymPy expression or statement (the whole of it).

    >>> x, y = sp.symbols("x y", real=True)
    >>> unicode(sp.Eq(sp.log(2), sp.oo, evaluate=False)), unicode(2 * x * sp.exp(-y) / 3)
    ('ln(2) = ∞', '2x e^(-y)/3')
    """
    return _unicode(sp.sympify(expr))


class PaperLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the papers' notation: ``\\ln``, indicators, defined quantities."""

    def __init__(self, settings=None):
        super().__init__({"ln_notation": True, **(settings or {})})

    def _print_Defined(self, e):
        return e.name

    def _print_Symbol(self, e, style="plain"):
        # a name written in LaTeX (a backslash command, or a formula with spaces) is printed as written:
        # SymPy would read its '_' and '^' as subscripts of the whole name
        if "\\" in e.name or " " in e.name:
            return e.name
        return super()._print_Symbol(e, style)

    def _print_KroneckerDelta(self, e, exp=None):
        a, b = e.args if not e.args[0].is_number else e.args[::-1]
        tex = r"\mathbf{1}\{" + self._print(a) + " = " + self._print(b) + r"\}"
        return tex if exp is None else r"\left(" + tex + r"\right)^{" + exp + "}"

    def _print_binomial(self, e, exp=None):
        tex = r"\binom{%s}{%s}" % (self._print(e.args[0]), self._print(e.args[1]))
        return tex if exp is None else r"%s^{%s}" % (tex, exp)


_LATEX = PaperLatexPrinter()


@functools.lru_cache(maxsize=8192)
def _latex(expr: sp.Basic) -> str:
    return _LATEX.doprint(expr)


def latex(expr) -> str:
    """LaTeX of a SymPy expression in the papers' notation (SymPy's, with ``\\ln``, indicators and the
    defined quantities' notation)."""
    return _latex(sp.sympify(expr))


# -- hypotheses: the assumptions declared on a claim's symbols ------------------------------------------
_HYPOTHESIS_UNICODE = {"positive integer": "{} = 1, 2, …", "nonnegative integer": "{} = 0, 1, 2, …",
                       "negative integer": "{} = -1, -2, …", "integer": "{} ∈ ℤ", "positive": "{} > 0",
                       "negative": "{} < 0", "nonnegative": "{} ≥ 0", "nonpositive": "{} ≤ 0",
                       "nonzero real": "{} ≠ 0 real", "real": "{} real"}
_HYPOTHESIS_LATEX = {"positive integer": r"{} \in \{{1, 2, \dots\}}", "nonnegative integer": r"{} \in \{{0, 1, \dots\}}",
                     "negative integer": r"{} \in \{{-1, -2, \dots\}}", "integer": r"{} \in \mathbb{{Z}}",
                     "positive": "{} > 0", "negative": "{} < 0", "nonnegative": r"{} \ge 0", "nonpositive": r"{} \le 0",
                     "nonzero real": r"{} \in \mathbb{{R}} \setminus \{{0\}}", "real": r"{} \in \mathbb{{R}}"}


def hypotheses_unicode(hypotheses) -> list[str]:
    """``Claim.hypotheses()`` in one-line notation: ``["n = 1, 2, …", "ε, b > 0", "x, y real"]``."""
    return [_HYPOTHESIS_UNICODE[kind].format(", ".join(unicode(s) for s in syms)) for kind, syms in hypotheses]


def hypotheses_latex(hypotheses) -> list[str]:
    """``Claim.hypotheses()`` as LaTeX formulas (without ``$``)."""
    return [_HYPOTHESIS_LATEX[kind].format(", ".join(latex(s) for s in syms)) for kind, syms in hypotheses]


# -- mathematics inside text: proof steps and check details ---------------------------------------------
#: Brackets around an expression (its ``srepr``) inside a step's text: each renderer sets it in its form.
MATH_OPEN, MATH_CLOSE = "⟦", "⟧"
_MARKED = re.compile(re.escape(MATH_OPEN) + r"(.*?)" + re.escape(MATH_CLOSE), re.S)


def math(expr) -> str:
    """``expr`` marked inside a text (a proof step), so that the terminal shows it in one line of the papers'
    notation and the LaTeX documents typeset it (:func:`text_parts`)."""
    return MATH_OPEN + sp.srepr(sp.sympify(expr)) + MATH_CLOSE


def text_parts(text: str) -> list[tuple[str, object]]:
    """``text`` as ``[("text", str) | ("math", expr), ...]``, the marked expressions rebuilt."""
    out, k = [], 0
    for m in _MARKED.finditer(text):
        if m.start() > k:
            out.append(("text", text[k:m.start()]))
        out.append(("math", sp.sympify(m.group(1))))
        k = m.end()
    if k < len(text):
        out.append(("text", text[k:]))
    return out


def text_unicode(text: str) -> str:
    """``text`` with its marked expressions in one line of the papers' notation.

    >>> text_unicode("lhs - rhs = " + math(sp.Symbol("x") ** 2) + ", which is nonnegative")
    'lhs - rhs = x², which is nonnegative'
    """
    if MATH_OPEN not in text:
        return text
    return "".join(part if kind == "text" else unicode(part) for kind, part in text_parts(text))


# -- prose: titles, sentences, notes written with ASCII mathematics ----------------------------------------
_PROSE_GREEK = {"eps": "ε", "epsilon": "ε", "varepsilon": "ε", "alpha": "α", "beta": "β", "gamma": "γ",
                "delta": "δ", "Delta": "Δ", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
                "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "Phi": "Φ", "omega": "ω"}
_PROSE_WORD = re.compile(r"(?<![A-Za-z_.\\])(" + "|".join(sorted(_PROSE_GREEK, key=len, reverse=True))
                         + r")(?![A-Za-z\\]|\.\w)")
_PROSE_SIGNS = [("<=>", "⇔"), ("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("->", "→"), ("=>", "⇒"), ("**", "^"),
                ("sqrt(", "√("), ("sqrt ", "√"), ("int_", "∫_"), ("sum_", "Σ_"), ("prod_", "Π_")]
_PROSE_INFINITY = re.compile(r"(?<![A-Za-z_.])oo(?![A-Za-z_])")
_PROSE_EXP = re.compile(r"(?<![A-Za-z_.])exp\(")
_PROSE_STAR = re.compile(r"(?<=\w)\*(?=[(\s,.;:)]|$)")          # b*(eps): a starred symbol, b^*
_PROSE_SQUARE = re.compile(r"\^([0-9])(?![0-9.,])")


def prose_unicode(text: str) -> str:
    """Prose written with ASCII mathematics (titles, the papers' sentences, notes) in the notation of
    the terminal: Greek letters, ≤ ≥ ≠ →, ∞ for ``oo``, √, e^(…) for ``exp(…)``, ∫ Σ Π, small powers as
    superscripts; names of the registry (``htm.delta.split``) and words are left alone.

    >>> prose_unicode("eps*(b) <= eps for b >= b*(eps), E[e^{aX}] = +oo, exp(-x^2/2)/sqrt(2 pi)")
    'ε^*(b) ≤ ε for b ≥ b^*(ε), E[e^{aX}] = +∞, e^(-x²/2)/√(2 π)'
    """
    for ascii_, sign in _PROSE_SIGNS:
        text = text.replace(ascii_, sign)
    text = _PROSE_INFINITY.sub("∞", text)
    text = _PROSE_EXP.sub("e^(", text)
    text = _PROSE_STAR.sub("^*", text)
    text = _PROSE_SQUARE.sub(lambda m: m.group(1).translate(_SUPERSCRIPT), text)
    return _PROSE_WORD.sub(lambda m: _PROSE_GREEK[m.group(1)], text)
