"""Long formulas broken across lines, by the structure of the SymPy expression.

A formula wider than the line is not shrunk: a sum is broken between its terms, a product between
its factors, and a term that is still too wide is opened up -- a fraction with a long numerator
becomes ``\\frac{1}{d}`` times the numerator, ``e^{x}`` with a long exponent becomes
``\\exp(x)``, the arguments of ``\\max`` go one per line, the rows of a ``cases`` block get the
width they need -- recursively, until every piece fits.  Widths are estimated by
:func:`~derivations.engine.texwidth.tex_width`.  Where an expression fits, its LaTeX is exactly
SymPy's, so the report prints the same formula as ``Claim.latex``.

:func:`display` sets a statement ``lhs <rel> rhs`` as one ``\\[...\\]`` or as an ``align*`` whose
lines start with the operator that continues them.  At the top of each side, a sum, a power of a
sum and a product are broken into rows of the ``align*`` itself, so that a long display may break
across pages (the brackets around a sum broken into rows are sized alike on its first and last
row); deeper breaks are ``aligned`` blocks inside their brackets.
"""
from __future__ import annotations

import functools
import re

import sympy as sp
from sympy.core.function import AppliedUndef

from .render import PaperLatexPrinter, latex as render_latex
from .texwidth import EM, tex_width

LINE = 455.0     # pt usable for a display (the text width less a margin for the estimate's error)
INDENT = 2 * EM  # the \qquad that indents a continuation line

_PRINTER = PaperLatexPrinter()
_BLOCK = r"\begin{aligned}"
_REL_TEX = {"==": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">", "!=": r"\ne"}
_FUNC_TEX = {"Max": r"\max", "Min": r"\min", "log": r"\ln", "exp": r"\exp", "sin": r"\sin", "cos": r"\cos",
             "sinh": r"\sinh", "cosh": r"\cosh", "tanh": r"\tanh", "KroneckerDelta": r"\delta"}


@functools.lru_cache(maxsize=8192)
def width(tex: str) -> float:
    return tex_width(tex, 0)


def latex(e: sp.Basic) -> str:
    """The LaTeX of ``e`` in the papers' notation (:func:`derivations.engine.render.latex`, remembered: the
    layout asks for the same sub-expressions often)."""
    return render_latex(e)


def _paren(tex: str) -> str:
    return r"\left(" + tex + r"\right)"


def _block(lines: list[str]) -> str:
    """Lines stacked in an ``aligned`` block (a box as tall as the lines)."""
    if len(lines) == 1:
        return lines[0]
    return r"\begin{aligned}" + r"\\ ".join("&" + ln for ln in lines) + r"\end{aligned}"


def _pack(items: list[str], avail: float, joiner: str, lead: str) -> list[str]:
    """Greedy lines of ``items``: each line at most ``avail`` wide where possible; continuation
    lines start with ``lead`` (an indent and the operator that continues the line)."""
    lines: list[str] = []
    cur = ""
    for item in items:
        trial = item if not cur else cur + joiner + item
        room = avail if not lines else avail - width(lead)
        if cur and width(trial) > room:
            lines.append(cur)
            cur = item
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return [ln if k == 0 else lead + ln for k, ln in enumerate(lines)]


def add_lines(e: sp.Expr, avail: float, rows: bool = False) -> list[str]:
    """The terms of a sum on as few lines as fit in ``avail``; continuation lines start ``+``/``-``.
    With ``rows``, a term too wide for a line is itself broken into lines (rows of the outer
    ``align*``, so that a long display may break across pages) instead of a block."""
    terms = _PRINTER._as_ordered_terms(e, order=None)
    lines: list[str] = []
    joinable = False
    for k, term in enumerate(terms):
        sign = ""
        if k and term.could_extract_minus_sign():
            sign, term = "- ", -term
        elif k:
            sign = "+ "
        room = avail - INDENT - 1.2 * EM
        tex = fit(term, room)
        bracket = _PRINTER._needs_add_brackets(term)
        if bracket:
            tex = _paren(tex)
        elif rows and (_BLOCK in tex or width(tex) > room):
            sub = _rows(term, room)
            if len(sub) > 1:
                lines.append(sign + sub[0])
                lines.extend(r"\qquad{} " + r for r in sub[1:])
                joinable = False
                continue
        item = sign + tex
        joined = lines[-1] + " " + item if lines else item
        if lines and joinable and width(joined) <= (avail if len(lines) == 1 else avail - INDENT):
            lines[-1] = joined
        else:
            lines.append(item)
        joinable = _BLOCK not in item
    return [ln if k == 0 else r"\qquad{} " + ln for k, ln in enumerate(lines)]


def _factors(e: sp.Expr) -> list[sp.Expr]:
    return list(e.as_ordered_factors()) if isinstance(e, sp.Mul) else [e]


def _factor_tex(f: sp.Expr, avail: float) -> str:
    tex = fit(f, avail - (1.0 * EM if f.is_Add else 0))
    return _paren(tex) if f.is_Add else tex


def _product(factors: list[sp.Expr], avail: float, prefix: str = "") -> str:
    """Factors side by side; the widest one broken to fit beside the others; or, when the others
    leave it too little room, the factors on several lines joined by a centred dot."""
    texs = [_factor_tex(f, avail - INDENT) for f in factors]
    tex = prefix + " ".join(texs)
    if width(tex) <= avail:
        return tex
    k = max(range(len(texs)), key=lambda j: width(texs[j]))
    room = avail - width(prefix + " ".join(t for j, t in enumerate(texs) if j != k)) - EM
    if room >= 0.45 * avail:
        texs[k] = _factor_tex(factors[k], room)
        tex = prefix + " ".join(texs)
        if width(tex) <= avail:
            return tex
    items = ([prefix.strip()] if prefix else []) + texs
    return _block(_pack(items, avail, " ", r"\qquad{}\cdot "))


def _fraction(e: sp.Expr, avail: float) -> str | None:
    n, d = sp.fraction(e, exact=True)
    if d == 1:
        return None
    dt = fit(d, avail - EM)
    if n == 1:
        return r"\frac{1}{" + dt + "}"
    head = r"\frac{1}{" + dt + "} "
    return _product(_factors(n), avail, prefix=head)


def _mul(e: sp.Expr, avail: float) -> str:
    if e.could_extract_minus_sign():
        return "- " + fit(-e, avail - EM)
    frac = _fraction(e, avail)
    if frac is not None:
        return frac
    return _product(_factors(e), avail)


def _args(head: str, args, avail: float, left: str = r"\left(", right: str = r"\right)") -> str:
    inner = avail - width(head) - EM
    texs = [fit(a, inner) for a in args]
    tex = head + left + ", ".join(texs) + right
    if width(tex) <= avail or len(texs) == 1:
        return tex
    return head + left + _block([t + ("," if k < len(texs) - 1 else "") for k, t in enumerate(texs)]) + right


def _function(e: sp.Expr, avail: float) -> str | None:
    name = type(e).__name__
    if isinstance(e, sp.Abs):
        return r"\left|" + fit(e.args[0], avail - EM) + r"\right|"
    if isinstance(e, (sp.Max, sp.Min)):
        return _args(_FUNC_TEX[name], sorted(e.args, key=sp.default_sort_key), avail)
    if name in _FUNC_TEX:
        return _args(_FUNC_TEX[name], e.args, avail)
    if isinstance(e, AppliedUndef):
        return _args(latex(sp.Symbol(name)), e.args, avail)
    return None


def _pow(e: sp.Expr, avail: float) -> str | None:
    base, ex = e.args
    if ex == sp.Rational(1, 2):
        return r"\sqrt{" + fit(base, avail - EM) + "}"
    frac = _fraction(e, avail)
    if frac is not None:
        return frac
    extex = latex(ex)
    if base.is_Add or base.is_Mul or isinstance(base, sp.Pow):
        return _paren(fit(base, avail - width(extex) * 0.7 - EM)) + "^{" + extex + "}"
    return None


def _piecewise(e: sp.Piecewise, avail: float) -> str:
    rows = []
    conds = [r"\text{otherwise}" if c == sp.true else r"\text{for}\: " + latex(c) for _, c in e.args]
    cw = max(width(c) for c in conds)
    room = max(avail - cw - 2 * EM, 0.5 * avail)
    for (val, cond), ctex in zip(e.args, conds):
        if width(ctex) > avail - room - 2 * EM and cond != sp.true:
            ctex = r"\text{for}\: " + fit(cond, avail - room - 4 * EM)
        rows.append(fit(val, room) + " & " + ctex)
    return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"


def _relational(e: sp.Expr, avail: float) -> str:
    rel = _PRINTER._print(type(e)(sp.Symbol("A"), sp.Symbol("B"))).split()[1]
    lhs, rhs = fit(e.lhs, avail), fit(e.rhs, avail - INDENT - 1.5 * EM)
    tex = lhs + " " + rel + " " + rhs
    if width(tex) <= avail:
        return tex
    return _block([lhs, r"\qquad{} " + rel + " " + rhs])


def _boolean(e: sp.Expr, avail: float) -> str:
    op = r"\wedge" if isinstance(e, sp.And) else r"\vee"
    texs = [fit(a, avail - INDENT - EM) for a in sorted(e.args, key=sp.default_sort_key)]
    return _block(_pack(texs, avail, " " + op + " ", r"\qquad{}" + op + " "))


def _sum(e: sp.Sum, avail: float) -> str | None:
    if len(e.limits) != 1:
        return None
    head = r"\sum_{%s=%s}^{%s} " % tuple(latex(x) for x in e.limits[0])
    body = fit(e.function, avail - width(head) - EM)
    return head + (_paren(body) if e.function.is_Add else body)


def _integral(e: sp.Integral, avail: float) -> str | None:
    if len(e.limits) != 1 or len(e.limits[0]) != 3:
        return None
    x, a, b = e.limits[0]
    head = r"\int\limits_{%s}^{%s} " % (latex(a), latex(b))
    tail = r"\, d" + latex(x)
    body = fit(e.function, avail - width(head + tail) - EM)
    return head + (_paren(body) if e.function.is_Add else body) + tail


def fit(e, avail: float) -> str:
    """LaTeX of ``e`` no wider than ``avail`` pt where the expression allows it: SymPy's own LaTeX
    when it fits, otherwise broken by the structure of ``e``."""
    e = sp.sympify(e)
    tex = latex(e)
    if width(tex) <= avail:
        return tex
    if isinstance(e, sp.UnevaluatedExpr):        # a held form is laid out as what it holds
        return fit(e.args[0], avail)
    out: str | None = None
    if e.is_Add:
        out = _block(add_lines(e, avail))
    elif isinstance(e, sp.exp):
        out = r"\exp" + _paren(fit(e.args[0], avail - 3 * EM))
    elif e.is_Mul:
        out = _mul(e, avail)
    elif e.is_Pow:
        out = _pow(e, avail)
    elif isinstance(e, sp.Piecewise):
        out = _piecewise(e, avail)
    elif e.is_Relational:
        out = _relational(e, avail)
    elif isinstance(e, (sp.And, sp.Or)):
        out = _boolean(e, avail)
    elif isinstance(e, sp.Sum):
        out = _sum(e, avail)
    elif isinstance(e, sp.Integral):
        out = _integral(e, avail)
    elif isinstance(e, (sp.Function, sp.Max, sp.Min)):
        out = _function(e, avail)
    return tex if out is None else out


def _tallest(lines: list[str]) -> str:
    """The line likely to be the taller (more fractions and rows): the brackets around a sum broken
    into rows are sized to the taller of its first and last rows."""
    return max(lines, key=lambda t: t.count(r"\frac") + 4 * t.count(r"\\") + t.count(r"\sum"))


def _bracket_rows(pre: str, inner: sp.Expr, post: str, avail: float) -> list[str]:
    """``pre (inner) post`` with the sum ``inner`` broken into rows; the brackets on the first and the
    last row are sized alike."""
    room = max(avail - width(pre) - width(post) - 2 * EM, 0.5 * avail)
    lines = add_lines(inner, room, rows=True)
    if len(lines) == 1:
        return [pre + _paren(lines[0]) + post]
    strut = r"\vphantom{" + _tallest([lines[0], lines[-1]]).replace(r"\qquad{} ", "") + "}"
    lines[0] = pre + r"\left(" + strut + lines[0] + r"\right."
    lines[-1] = r"\left." + strut + lines[-1] + r"\right)" + post
    return lines


def _product_rows(head: str, factors: list[sp.Expr], avail: float) -> list[str]:
    """A product as rows: factors side by side while they fit, a sum among them broken into rows,
    a new row (starting with a centred dot) for a factor that does not fit beside the others."""
    one = _product(factors, avail, prefix=head)
    if _BLOCK not in one and width(one) <= avail:
        return [one]
    rows: list[str] = []
    cur = head.strip()
    for f in factors:
        ft = _factor_tex(f, avail - INDENT)
        trial = (cur + " " + ft).strip()
        if (_BLOCK not in ft and width(trial) <= avail) or (cur == head.strip() and not f.is_Add):
            cur = trial             # a sign or 1/d stays with the factor after it
            continue
        if f.is_Add:
            pre = cur + " " if cur and width(cur) < 0.4 * avail else ""
            if cur and not pre:
                rows.append(cur)
                pre = r"\qquad{}\cdot "
            sub = _bracket_rows(pre, f, "", avail)
            rows.extend(sub[:-1])
            cur = sub[-1]
            continue
        if cur:
            rows.append(cur)
            cur = r"\qquad{}\cdot " + ft
        else:
            cur = ft
    rows.append(cur)
    return rows


def _rows(e: sp.Expr, avail: float) -> list[str]:
    """``e`` as rows of the outer ``align*``: a sum broken between its terms, a power or product of
    a sum broken inside the sum, so that a long display may break across pages."""
    tex = latex(e)
    if width(tex) <= avail:
        return [tex]
    if e.is_Add:
        return add_lines(e, avail, rows=True)
    if e.is_Pow and e.base.is_Add and sp.fraction(e, exact=True)[1] == 1:
        return _bracket_rows("", e.base, "^{" + latex(e.exp) + "}", avail)
    if e.is_Mul:
        sign = ""
        if e.could_extract_minus_sign():
            sign, e = "- ", -e
        n, d = sp.fraction(e, exact=True)
        if n == 1:
            return [sign + r"\frac{1}{" + fit(d, avail - 2 * EM) + "}"]
        head = sign + (r"\frac{1}{" + fit(d, avail - 2 * EM) + "} " if d != 1 else "")
        return _product_rows(head, _factors(n), avail)
    return [fit(e, avail)]


#: Estimated height of a display row, ordinary and with a fraction, sum, integral, binomial or cases (pt).
ROW_PT, TALL_PT = 17.0, 28.0
_TALL = re.compile(r"\\(frac|sum|int|prod|binom|begin\{cases\})")


def height(tex: str) -> float:
    """Estimated height in pt of display LaTeX: each of its lines (nested ones included) counts
    :data:`ROW_PT`, or :data:`TALL_PT` when it holds a fraction, sum, integral, binomial or cases."""
    return sum(TALL_PT if _TALL.search(row) else ROW_PT for row in tex.split("\\\\"))


def _side_rows(e: sp.Expr, avail: float) -> list[str]:
    """Rows of one side; a tall ``cases`` block (a Piecewise side) is split into one row per case so that
    it can be shortened like a sum."""
    if isinstance(e, sp.Piecewise):
        block = _piecewise(e, avail)
        if height(block) > 4 * TALL_PT:
            inner = block[len(r"\begin{cases} "):-len(r" \end{cases}")].split(r" \\ ")
            return [r"\left\{\;\begin{aligned} " + row.replace(" & ", r" && ") + r"\end{aligned}\right." for row in inner]
    return _rows(e, avail)


def display_within(lhs, rel: str, rhs, max_height: float, avail: float = LINE) -> tuple[str, bool]:
    """:func:`display`, shortened to at most about ``max_height`` pt: when the whole is taller, each side
    keeps its first rows and a row ``\\cdots`` stands for the rest.  Returns (LaTeX, shortened)."""
    tex = display(lhs, rel, rhs, avail)
    if height(tex) <= max_height:
        return tex, False
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    rt = _REL_TEX[rel]

    def first(rows: list[str], room: float) -> tuple[list[str], float]:
        """The first rows that fit in ``room`` (a row ``\\cdots`` for the rest), and the height used."""
        kept, used = [], 0.0
        for k, row in enumerate(rows):
            h = height(row)
            if used + h > room - (ROW_PT if k < len(rows) - 1 else 0):
                return kept + [r"\qquad \cdots" if kept else r"\cdots"], used + ROW_PT
            kept.append(row)
            used += h
        return kept, used

    left, used = first(_side_rows(lhs, avail), max_height - 2 * ROW_PT)    # the right side keeps two rows
    right, _ = first(_side_rows(rhs, avail - 2 * EM), max(max_height - used, 2 * ROW_PT))
    rows = ["&" + ln for ln in left] + ["&" + rt + " " + right[0]] + ["&" + ln for ln in right[1:]]
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n", True


def display(lhs, rel: str, rhs, avail: float = LINE) -> str:
    """The statement ``lhs <rel> rhs`` (``rel`` one of ``== <= < >= > !=``) as display math that
    fits in ``avail`` pt: ``\\[ ... \\]`` when it fits on a line, else an ``align*`` broken by
    :func:`fit`."""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    rt = _REL_TEX[rel]
    one = f"{latex(lhs)} {rt} {latex(rhs)}"
    if width(one) <= avail:
        return "\\[ " + one + " \\]\n"
    left = _rows(lhs, avail)
    lw = width(left[0])
    if len(left) == 1 and lw <= 0.4 * avail:
        right = _rows(rhs, avail - lw - 2 * EM)
        rows = [left[0] + " &" + rt + " " + right[0]] + ["&" + ln for ln in right[1:]]
    else:
        right = _rows(rhs, avail - 2 * EM)
        rows = ["&" + ln for ln in left] + ["&" + rt + " " + right[0]] + ["&" + ln for ln in right[1:]]
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n"
