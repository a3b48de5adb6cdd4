"""The conclusion from a point and a derivative sign (:func:`derivations.engine.proofs.conclude_from_point`).

True: ln c <= c - 1 (tangent at 1), c^3 >= 3c - 2 for c > 0, x^2 + a^2 >= 2 a x.  Negative controls, each false or not
covered: the reversed relation (the slope has the wrong sign), a wrong value at the point, a point outside the
range, a range that is not an interval, a function that is not differentiable, a strict relation."""
from __future__ import annotations

import sympy as sp

from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.proofs import conclude_from_point

SRC = Source("test", "point")
c = sp.Symbol("c", positive=True)
x, a = sp.symbols("x a", real=True)


def _claim(lhs, rhs, relation, var, point, conditions=()):
    return Claim(id="t.point", title="", source=SRC, kind="inequality", lhs=lhs, rhs=rhs, relation=relation,
                 conditions=conditions, proof=lambda cl: conclude_from_point(cl, var, point))


def test_classical_inequalities_are_proved():
    for cl in (_claim(sp.log(c), c - 1, "<=", c, 1), _claim(c**3, 3 * c - 2, ">=", c, 1),
               _claim(x**2 + a**2, 2 * a * x, ">=", x, a)):
        assert verify_inline(cl).label == "PROVED (with citations)"


def test_false_or_uncovered_statements_are_not_proved():
    cases = [
        _claim(sp.log(c), c - 1, ">=", c, 1),                      # false: the slope has the wrong sign
        _claim(sp.log(c), c - 2, "<=", c, 1),                      # false: lhs - rhs = 1 at the point
        _claim(sp.log(c), c - 1, "<=", c, 1, (sp.Gt(c, 2),)),      # true, but 1 is outside the range c > 2
        _claim(x**2, 0, ">=", x, 0, (sp.Ge(x**2, 1),)),            # the range |x| >= 1 is not an interval
        _claim(sp.Abs(x), 0, ">=", x, 0),                          # not differentiable at 0
        _claim(sp.exp(x), 1 + x, ">", x, 0),                       # strict: false at x = 0
    ]
    for cl in cases:
        assert not verify_inline(cl).holds, cl.lhs
