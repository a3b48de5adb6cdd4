"""Formulas for the numeric layer.

A :class:`Formula` is a SymPy expression that the code generator turns into a
NumPy function in ``numeric/_generated.py``.  Each formula names the claims
that prove it (its provenance): the expression printed as code is the very
expression those claims verify, so the two cannot drift apart.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

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
    sample: Callable | None = field(default=None, compare=False)   # rng -> argument values in the domain

    def digest(self) -> str:
        text = sp.srepr(self.expr) + "|" + ",".join(map(str, self.args))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_FORMULAS: dict[str, Formula] = {}


def formula(name: str, expr, args, claims, source: Source, doc: str, sample: Callable | None = None) -> Formula:
    """Register a formula for code generation.

    ``sample(rng)`` (a ``random.Random``) returns one tuple of argument values inside the formula's
    domain; the tests compare the generated code with the expression there.  Without it, the
    tests draw b in (0.01, 0.45) and every other argument in (-2, 2)."""
    if name in _FORMULAS:
        raise ValueError(f"duplicate formula name {name!r}")
    if not claims:
        raise ValueError(f"formula {name!r} must name the claims that prove it")
    f = Formula(name, sp.sympify(expr), tuple(args), tuple(claims), source, doc, sample)
    bad = [str(a) for a in f.args if not str(a).isidentifier()]
    if bad:
        raise ValueError(f"formula {name!r}: argument names {bad} are not Python identifiers")
    free = f.expr.free_symbols - set(f.args)
    if free:
        raise ValueError(f"formula {name!r} has symbols {free} that are not arguments")
    _FORMULAS[name] = f
    return f


def all_formulas() -> list[Formula]:
    """Every formula of every paper (the encodings built first)."""
    from .core import _LOADER
    if "all" in _LOADER:
        _LOADER["all"]()
    return list(_FORMULAS.values())
