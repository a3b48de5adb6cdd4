"""The papers' notation inside a statement: quantities written as the paper writes them, with their definitions.

A statement is stored as the paper prints it (:class:`~derivations.engine.core.Claim`).  Where the
paper writes a named quantity -- ``E[e^{aX}]``, ``p_{j|i}``, ``t(x, s)`` -- and the encoding knows its
definition (two integrals, a quotient of design probabilities, a Horvitz-Thompson sum), the statement
holds a :class:`Defined` node: it prints as the paper's notation and *means* its definition.  SymPy
does not look inside it, so two quantities that the paper writes differently but that have the same
definition (``t(x, s)`` and ``t(x', s)`` for a sample without unit i) do not cancel when the claim is
built; the engine's conclusion unfolds the definitions (:func:`release`) and does the cancelling, so
that a changed statement changes the verdict.

:func:`held` keeps a printed operation from being folded: an expression built under
``sympy.evaluate(False)`` and passed to ``held`` stays as written in the statement (``x - (x - 1)``), and
is carried out only by the engine.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> m = Defined(r"\\mathbb{E}[e^{X}]", sp.exp(x))
>>> m.is_positive, release(m - sp.exp(x))
(True, 0)
>>> with sp.evaluate(False):
...     h = held(x - (x - 1))
>>> h, release(h - 1)
(x - (x - 1), 0)
"""
from __future__ import annotations

import sympy as sp
from sympy.core.symbol import Str

__all__ = ["Defined", "defined", "held", "release"]

_FACTS = ("real", "extended_real", "positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero",
          "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive",
          "extended_nonzero", "integer", "rational", "finite", "infinite", "complex", "even", "odd")


class Defined(sp.Expr):
    """A quantity in the paper's notation (``name``, a LaTeX string) standing for ``definition``.

    Its free symbols and assumptions are those of the definition; substitution acts on the
    definition; :meth:`doit`, numeric evaluation and :func:`release` replace it by the definition.
    Two nodes are the same only when both the notation and the definition are."""

    is_commutative = True

    def __new__(cls, name, definition):
        name = name if isinstance(name, Str) else Str(str(name))
        return sp.Expr.__new__(cls, name, sp.sympify(definition))

    @property
    def name(self) -> str:
        """The notation, as LaTeX."""
        return self.args[0].name

    @property
    def definition(self) -> sp.Expr:
        return self.args[1]

    @property
    def free_symbols(self):
        return self.definition.free_symbols

    def doit(self, **hints):
        return self.definition.doit(**hints) if hints.get("deep", True) else self.definition

    def _eval_evalf(self, prec):
        return release(self.definition)._eval_evalf(prec)

    for _name in _FACTS:   # the assumptions are the definition's (SymPy reads these when the class is made)
        locals()[f"_eval_is_{_name}"] = (lambda name: lambda self: getattr(self.definition, f"is_{name}"))(_name)
    del _name

    def _latex(self, printer):
        return self.name

    def _sympystr(self, printer):
        from .render import symbol_name
        return symbol_name(self.name)


def defined(name: str, definition) -> Defined:
    """The quantity ``name`` (the paper's notation, LaTeX) with its ``definition``."""
    return Defined(name, definition)


def held(expr) -> sp.Expr:
    """``expr`` kept as written: its operations are not carried out when the claim is built (SymPy's
    ``UnevaluatedExpr``); the engine releases it."""
    return sp.UnevaluatedExpr(sp.sympify(expr))


def release(expr):
    """``expr`` with every :class:`Defined` replaced by its definition, every :func:`held` form carried
    out (the tree rebuilt bottom-up with SymPy's evaluation on) and every printed derivative taken, so
    that the engine compares what the notation means."""
    expr = sp.sympify(expr)
    if expr.has(Defined, sp.UnevaluatedExpr):
        expr = _rebuild(expr)
    if expr.has(sp.Derivative):          # a printed derivative means its value: differentiation is exact
        expr = expr.replace(lambda e: isinstance(e, sp.Derivative), lambda e: e.doit())
    return expr


def _rebuild(e, inside: bool = False):
    """Rebuild with evaluation: every node under a held form (``inside``), elsewhere only the nodes
    on the way to a notation."""
    if isinstance(e, Defined):
        return _rebuild(e.definition, True)
    if isinstance(e, sp.UnevaluatedExpr):
        return _rebuild(e.args[0], True)
    if not e.args or not (inside or e.has(Defined, sp.UnevaluatedExpr)):
        return e
    return e.func(*(_rebuild(a, inside) for a in e.args))
