"""Formulas for the numeric layer.

A :class:`Formula` is a SymPy expression that the code generator turns into a
NumPy function in ``numeric/_generated.py``.  Each formula names the claims
that prove it (its provenance): the expression printed as code is the very
expression those claims verify, so the two cannot drift apart.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import sympy as sp

from .core import Source


@dataclass(frozen=True)
class Formula:
    name: str
    expr: sp.Expr
    args: tuple[sp.Symbol, ...]
    claims: tuple[str, ...]
    source: Source
    doc: str

    def digest(self) -> str:
        text = sp.srepr(self.expr) + "|" + ",".join(map(str, self.args))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_FORMULAS: dict[str, Formula] = {}


def formula(name: str, expr, args, claims, source: Source, doc: str) -> Formula:
    """Register a formula for code generation."""
    if name in _FORMULAS:
        raise ValueError(f"duplicate formula name {name!r}")
    if not claims:
        raise ValueError(f"formula {name!r} must name the claims that prove it")
    f = Formula(name, sp.sympify(expr), tuple(args), tuple(claims), source, doc)
    free = f.expr.free_symbols - set(f.args)
    if free:
        raise ValueError(f"formula {name!r} has symbols {free} that are not arguments")
    _FORMULAS[name] = f
    return f


def all_formulas() -> list[Formula]:
    return list(_FORMULAS.values())
