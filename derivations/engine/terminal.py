"""Display forms for the terminal: statements in one readable line, text fitted to a width.

A statement is shown in the terminal by :func:`display`: one line, with the notation of the
papers (``=``, ``≤``, ``∞``, ``ln``, ``|x|``, ``∫``, ``Σ``, Greek letters) in place of SymPy's
``Eq(...)``, ``oo``, ``log``, ``Abs``.  Tables cut it to the width with :func:`cut`; the whole form
is printed by ``dpderive show`` (wrapped, and as a two-dimensional :func:`pretty` form when that
fits) and kept in the JSON report.  Every line this module returns fits the width it is given.
"""
from __future__ import annotations

import shutil
import textwrap

import sympy as sp

from .render import symbol_name, unicode

#: Widest output of the terminal commands, whatever the terminal.
MAX_WIDTH = 100
#: Narrowest width the commands accept.
MIN_WIDTH = 60
ELLIPSIS = "…"


def display(expr) -> str:
    """One readable line for a SymPy expression or statement (the whole of it), in the papers'
    notation (:func:`derivations.engine.render.unicode`).

    >>> display(sp.Eq(sp.log(2), sp.oo, evaluate=False))
    'ln(2) = ∞'
    """
    return unicode(expr)


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


def cut_apart(a: str, b: str, widths: list[int]) -> tuple[str, str]:
    """Two lines cut to ``widths`` so that a reader tells them apart: when both are too long and share
    a beginning that the cut would leave alone on screen, both start shortly before their first
    difference (``…``) instead.

    >>> cut_apart("f(x) + g(x) = 1 + 2 + 3 + 4", "f(x) + g(x) = 1 + 2 + 3 + 5", [14, 14])
    ('… 2 + 3 + 4', '… 2 + 3 + 5')
    """
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) <= widths[0] and len(b) <= widths[1] or k < min(widths) - 10:
        return cut(a, widths[0]), cut(b, widths[1])
    start = max(0, k - max(8, min(widths) // 3))
    start = a.rfind(" ", 0, start + 1) + 1 if " " in a[:start + 1] else start
    return tuple(cut(ELLIPSIS + " " + t[start:].lstrip(), w) for t, w in ((a, widths[0]), (b, widths[1])))


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
