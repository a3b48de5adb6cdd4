"""Statements as printed: no claim is X = X as built, the papers' notation unfolds only in the engine,
titles say no more than the statement, errata carry the paper's sentences, counterexamples their decimals.

References: the decimals are recomputed here with mpmath at 40 digits from the exact values; the folded
statements are found with SymPy's automatic evaluation alone (what the registry refuses)."""
from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import derivations
from derivations.engine.core import Claim, Source, decimal_of, verify_inline
from derivations.engine.notation import Defined, defined, held, release

SRC = Source("test", "statements")
x = sp.Symbol("x", positive=True)
T = sp.Symbol("T", real=True)
z = sp.Symbol("z", real=True)
MPMATH_DPS = 40


# -- no statement is X = X as built ---------------------------------------------------------------------
def test_no_registered_claim_is_folded_unless_labelled_by_construction(all_verdicts):
    for c in derivations.claims():
        if c.by_construction:
            assert all_verdicts[c.id].label == "BY CONSTRUCTION" and not all_verdicts[c.id].proved, c.id
            assert "construction" in c.title.lower() or "definition" in c.title.lower(), c.id
        else:
            assert not c.folded(), f"{c.id}: lhs - rhs is 0 as built ({c.lhs} = {c.rhs})"


def test_the_registry_refuses_a_folded_statement():
    with pytest.raises(ValueError, match="X = X"):
        Claim(id="t.folded", title="", source=SRC, kind="identity", lhs=x - (x - 1), rhs=1)
    with pytest.raises(ValueError, match="X = X"):
        Claim(id="t.folded2", title="", source=SRC, kind="inequality", lhs=2 * x, rhs=x + x, relation="<=")


def test_by_construction_is_labelled_for_what_it_is_and_only_for_a_folded_identity():
    c = Claim(id="t.def", title="definition", source=SRC, kind="identity", lhs=x, rhs=x, by_construction=True)
    v = verify_inline(c)
    assert v.label == "BY CONSTRUCTION" and not v.proved and v.holds
    with pytest.raises(ValueError, match="by_construction"):     # negative controls
        Claim(id="t.def2", title="", source=SRC, kind="identity", lhs=x, rhs=x + 1, by_construction=True)
    with pytest.raises(ValueError, match="nothing to verify"):
        Claim(id="t.def3", title="", source=SRC, kind="identity", lhs=x, rhs=x, by_construction=True,
              proof=lambda c: None)
    m = c.mutated()
    assert not m.by_construction and not verify_inline(m).holds


def test_the_printed_form_kept_by_held_is_cancelled_by_the_engine():
    with sp.evaluate(False):
        lhs = held(sp.Abs(x - (x - 1)) + sp.Abs(x - (x + 1)))
    c = Claim(id="t.held", title="", source=SRC, kind="identity", lhs=lhs, rhs=2)
    assert not c.folded() and "x - (x - 1)" in str(c.lhs)
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).holds                   # 2 -> 5: refused by the engine's check


def test_two_notations_for_one_definition_do_not_cancel_until_the_engine_unfolds_them():
    t_x, t_xp = defined("t(x, s)", T), defined("t(x', s)", T)
    lhs = sp.exp((t_x - sp.Abs(z - t_xp))) - sp.exp((t_xp - sp.Abs(z - t_x)))
    c = Claim(id="t.defined", title="", source=SRC, kind="identity", lhs=lhs, rhs=0)
    assert not c.folded() and c.symbols() == {T, z}
    assert release(lhs) == 0
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).holds
    other = Claim(id="t.defined2", title="", source=SRC, kind="identity",      # different definitions
                  lhs=sp.exp(t_x) - sp.exp(defined("t(x', s)", T + 1)), rhs=0)
    assert verify_inline(other).label == "FAILED"


def test_a_defined_quantity_has_the_assumptions_and_values_of_its_definition():
    m = Defined(r"\mathbb{E}[e^{X}]", sp.exp(x))
    assert m.is_positive and m.free_symbols == {x}
    assert sp.N(m.subs(x, 1), 30) == sp.N(sp.E, 30)
    assert m.subs(x, 2).doit() == sp.exp(2)


# -- the decimals of exact values -------------------------------------------------------------------------
@pytest.mark.parametrize("value, text", [
    (sp.Rational(1, 100), "= 0.01"), (sp.Rational(1, 3), "≈ 0.3333"), (1 - 16 * sp.log(2) ** 2, "≈ -6.687"),
    (sp.E, "≈ 2.718"), (sp.Integer(7), ""), (sp.oo, ""), (sp.Symbol("y"), ""), (sp.Rational(-5, 4), "= -1.25")])
def test_decimal_of(value, text):
    assert decimal_of(value) == text


def _decimal_matches(exact: str, shown: str) -> bool:
    """``shown`` (``= d`` or ``≈ d``) agrees with the exact value to its 4 significant digits (mpmath)."""
    value = mpmath.mpf(sp.N(sp.sympify(exact), 40))
    d = mpmath.mpf(shown[2:])
    return abs(value - d) <= abs(value) * mpmath.mpf("6e-4") and (shown[0] == "≈" or value == d)


def test_every_erratum_counterexample_carries_its_decimals(all_verdicts):
    for e in derivations.errata():
        records = [r for chk in all_verdicts[e.printed.id].checks for r in chk.evaluations]
        assert records and records[0]["role"] == "counterexample", e.id
        for rec in records:
            assert not rec["holds"], e.id
            values = [(v, d) for _, v, d in rec["point"]] + [(rec["lhs"], rec["lhs_decimal"]),
                                                              (rec["rhs"], rec["rhs_decimal"])]
            for exact, shown in values:
                val = sp.sympify(exact)
                needs = val.is_number and val.is_real and not val.is_Integer and not val.is_infinite
                assert bool(shown) == bool(needs), (e.id, exact, shown)
                if shown:
                    assert _decimal_matches(exact, shown), (e.id, exact, shown)


# -- errata a referee can check by eye -----------------------------------------------------------------------
def test_every_erratum_carries_the_papers_sentence_and_its_correction():
    for e in derivations.errata():
        assert len(e.printed_text) > 20 and len(e.corrected_text) > 20, e.id
        assert e.printed_text != e.corrected_text, e.id


def test_an_illustration_is_checked_like_the_counterexample():
    base = dict(title="", source=SRC, kind="inequality", lhs=x ** 2, rhs=x, relation="<=",
                conditions=(sp.Gt(x, sp.Rational(1, 2)),), expected=False, counterexample={x: 2})
    v = verify_inline(Claim(id="t.ill", illustration={x: 3}, **base))
    assert v.label == "REFUTED" and [r["role"] for r in v.checks[0].evaluations] == ["counterexample", "illustration"]
    v = verify_inline(Claim(id="t.ill2", illustration={x: sp.Rational(3, 4)}, **base))    # x^2 <= x there
    assert v.label == "NOT REFUTED"
    v = verify_inline(Claim(id="t.ill3", illustration={x: sp.Rational(1, 4)}, **base))    # outside x > 1/2
    assert v.label == "ERROR" and "illustration lies outside" in v.checks[0].detail
    with pytest.raises(ValueError, match="illustration"):
        Claim(id="t.ill4", title="", source=SRC, kind="identity", lhs=x, rhs=2 * x, illustration={x: 1})
