"""The verifiers themselves: each method must be able to fail, time out and report honestly."""
from __future__ import annotations

import sympy as sp

from derivations.engine.core import Claim, Enumeration, Source, Verdict, verify_inline, verify_many, register

SRC = Source("test", "engine")
x = sp.Symbol("x", positive=True)


def test_symbolic_identity_passes_and_fails():
    good = Claim(id="t.good", title="", source=SRC, kind="identity", lhs=(x + 1) ** 2, rhs=x**2 + 2 * x + 1)
    bad = Claim(id="t.bad", title="", source=SRC, kind="identity", lhs=(x + 1) ** 2, rhs=x**2 + 1)
    assert verify_inline(good).label == "PROVED"
    v = verify_inline(bad)
    assert not v.holds and not v.ok and v.label == "FAILED"


def test_numeric_check_finds_counterexample_and_is_not_called_a_proof():
    bad = Claim(id="t.num", title="", source=SRC, kind="inequality", lhs=x**2, rhs=x, relation="<=",
                domain={x: (0, 2)}, numeric_points=30, proof=None)
    v = verify_inline(bad)
    assert [c.method for c in v.checks] == ["numeric"]
    assert not v.holds and v.counterexample is not None
    assert sp.Rational(v.counterexample["x"]) > 1  # x^2 <= x fails exactly for x > 1
    good = Claim(id="t.num2", title="", source=SRC, kind="inequality", lhs=x**2, rhs=x, relation="<=",
                 domain={x: (0, 1)}, numeric_points=30)
    v = verify_inline(good)
    assert v.holds and v.label == "CHECKED (numeric)"


def test_enumeration_reports_failing_case():
    c = Claim(id="t.enum", title="", source=SRC, kind="identity", lhs=x, rhs=x,
              enumeration=lambda: Enumeration(False, 3, "case 3 fails", {"k": "3"}))
    v = verify_inline(c)
    assert v.method == "enumeration" and not v.holds and v.counterexample == {"k": "3"}


def test_printed_claim_not_refuted_is_unexpected():
    c = Claim(id="t.printed", title="", source=SRC, kind="identity", lhs=x + x, rhs=2 * x,
              counterexample={x: 3}, expected=False)
    v = verify_inline(c)
    assert v.holds and not v.ok and v.label == "NOT REFUTED"


def test_crash_is_an_error_not_a_pass():
    def boom():
        raise RuntimeError("boom")

    c = Claim(id="t.crash", title="", source=SRC, kind="sign", lhs=x, relation=">", proof=boom)
    v = verify_inline(c)
    assert not v.decided and not v.ok and v.label == "ERROR" and "boom" in v.checks[0].detail


def test_time_budget_stops_a_slow_verification():
    import time

    def slow():
        time.sleep(30)

    c = register(Claim(id="t.slow_budget", title="", source=SRC, kind="sign", lhs=x, relation=">",
                       proof=slow, budget=0.5))
    try:
        t0 = time.perf_counter()
        (v,) = verify_many([c], jobs=1)
        assert time.perf_counter() - t0 < 10
        assert isinstance(v, Verdict) and v.label == "ERROR" and "budget" in v.checks[0].detail
    finally:
        from derivations.engine import core
        del core._CLAIMS[c.id]


def test_divergence_claims():
    t = sp.Symbol("t", real=True)
    c = Claim(id="t.div", title="", source=SRC, kind="divergence", lhs=sp.Integral(sp.exp(t), (t, 0, sp.oo)))
    assert verify_inline(c).label == "PROVED"
    c2 = Claim(id="t.div2", title="", source=SRC, kind="divergence", lhs=sp.Integral(sp.exp(-t), (t, 0, sp.oo)))
    assert not verify_inline(c2).holds


def test_first_principles_derivation_detects_a_wrong_printed_coefficient():
    """Negative control for the Proposition 2 machinery: a mis-printed 1 - 3ab^2 is caught."""
    from derivations.log_laplace import appendix_a as H

    pop = H.Population(2)
    pattern = (1, 1)
    ones = [1, 1]
    good = pop.variance_first_principles(pattern, ones) - pop.variance_printed(pattern, ones)
    from derivations.engine.core import is_zero
    assert is_zero(good)
    wrong = pop.variance_printed(pattern, ones).subs(4 * pop.b[0] ** 2, 3 * pop.b[0] ** 2)
    assert not is_zero(pop.variance_first_principles(pattern, ones) - wrong)
