"""The conclusion that a claim is an instance of a cited result (:func:`conclude_instance`), on the registered
form of the hypergeometric law.  Negative controls: a changed right side, a mapping that breaks a symbol's
assumption, a claim without the cited conditions, an unregistered citation, a left side that is a formula."""
from __future__ import annotations

import sympy as sp

import derivations
from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.proofs import CITED_FORMS, conclude_instance

SRC = Source("test", "instance")
N, n, t, y = sp.symbols("N n t y", integer=True, nonnegative=True)
P = sp.Symbol("P(draws = y)")


def _claim(rhs, conditions=(sp.Le(n, N), sp.Le(t, N)), mapping=None, key="hypergeometric_law", lhs=P):
    derivations.get("htm.r8.density")                     # the package that registers the form
    form = CITED_FORMS[key] if key in CITED_FORMS else None
    if mapping is None and form is not None:
        template = sorted(form.rhs.free_symbols, key=str)  # N_{pop}, n_{s}, t_{pop}, y_{s}
        mapping = {form.lhs: lhs, **dict(zip(template, (N, n, t, y)))}
    return Claim(id="t.instance", title="", source=SRC, kind="identity", lhs=lhs, rhs=rhs, conditions=conditions,
                 proof=lambda c: conclude_instance(c, key, mapping or {}))


HYPER = sp.binomial(t, y) * sp.binomial(N - t, n - y) / sp.binomial(N, n)


def test_an_instance_is_proved_with_the_citation():
    v = verify_inline(_claim(HYPER))
    assert v.label == "PROVED (with citations)" and v.citations == ["hypergeometric_law"]


def test_controls_are_not_proved():
    half = sp.Rational(1, 2)
    derivations.get("htm.r8.density")
    form = CITED_FORMS["hypergeometric_law"]
    template = sorted(form.rhs.free_symbols, key=str)
    bad_map = {form.lhs: P, **dict(zip(template, (N, n, t, half)))}          # y -> 1/2 is not an integer
    cases = [_claim(2 * HYPER),                                              # a changed right side
             _claim(HYPER, conditions=()),                                   # n <= N, t <= N not stated
             _claim(HYPER.subs(y, half), mapping=bad_map),                    # an assumption of y broken
             _claim(HYPER, key="no_such_result"),                            # nothing registered
             _claim(HYPER, lhs=sp.binomial(t, y))]                           # a formula on the left
    for c in cases:
        assert not verify_inline(c).proved, c.rhs
