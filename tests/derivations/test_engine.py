"""The verifiers themselves: each method must be able to fail, time out and report honestly."""
from __future__ import annotations

import sympy as sp

import derivations
from derivations.engine.core import Claim, Enumeration, Source, verify_inline

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
    c = Claim(id="t.enum", title="", source=SRC, kind="identity", lhs=x, rhs=x + 1,
              enumeration=lambda: Enumeration(False, 3, "case 3 fails", {"k": "3"}))
    v = verify_inline(c)
    assert v.method == "enumeration" and not v.holds and v.counterexample == {"k": "3"}


def test_printed_claim_not_refuted_is_unexpected():
    c = Claim(id="t.printed", title="", source=SRC, kind="identity", lhs=(x + 1) ** 2, rhs=x ** 2 + 2 * x + 1,
              counterexample={x: 3}, expected=False)
    v = verify_inline(c)
    assert v.holds and not v.ok and v.label == "NOT REFUTED"


def test_crash_is_an_error_not_a_pass():
    def boom():
        raise RuntimeError("boom")

    c = Claim(id="t.crash", title="", source=SRC, kind="sign", lhs=x, relation=">", proof=boom)
    v = verify_inline(c)
    assert not v.decided and not v.ok and v.label == "ERROR" and "boom" in v.checks[0].detail


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


# ----------------------------------------------------------------------------------------------
# Labels are earned on the stated claim; each label has a negative control
# ----------------------------------------------------------------------------------------------
import pytest  # noqa: E402

from derivations.engine.core import (Step, Proof, all_of, argue, cite, mechanical, zero)  # noqa: E402
from derivations.engine.proofs import (Parametrization, conclude, conclude_cases, conclude_termwise,  # noqa: E402
                                       exhaust)

z_ = sp.Symbol("z", real=True)
t_ = sp.Symbol("t", real=True)
u_ = sp.Symbol("u", nonnegative=True)


def _abs_claim(**kw):
    """|z - t| = z - t under t <= z, proved through the parametrization t = z - u, u >= 0."""
    base = dict(id="t.abs", title="", source=SRC, kind="identity", lhs=sp.Abs(z_ - t_), rhs=z_ - t_,
                conditions=(sp.Le(t_, z_),),
                proof=lambda c: conclude(c, param=Parametrization({t_: z_ - u_}, {u_: z_ - t_})))
    base.update(kw)
    return Claim(**base)


def test_a_tied_mechanical_proof_is_proved_and_its_mutation_is_not():
    c = _abs_claim()
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).proved           # rhs -> 2 rhs + 1


def test_a_proof_that_checks_a_side_computation_is_not_proved():
    """The old failure: a routine that proves something true but not the stated claim."""
    side = lambda c: zero((x + 1) ** 2 - x**2 - 2 * x - 1, "a true side identity")  # noqa: E731
    c = Claim(id="t.side", title="", source=SRC, kind="identity", lhs=x, rhs=x + 1, proof=side)
    v = verify_inline(c)
    assert v.label == "ARGUED" and not v.proved and "does not end in a check of the stated claim" in v.checks[0].detail


def test_a_conclusion_on_another_claim_does_not_count():
    other = Claim(id="t.other", title="", source=SRC, kind="identity", lhs=(x + 1) ** 2, rhs=x ** 2 + 2 * x + 1)
    c = Claim(id="t.borrow", title="", source=SRC, kind="identity", lhs=x, rhs=x + 1,
              proof=lambda cl: conclude(other))
    assert not verify_inline(c).proved


def test_a_prose_step_makes_the_verdict_argued():
    c = _abs_claim(proof=lambda cl: argue("it is clear") + conclude(
        cl, param=Parametrization({t_: z_ - u_}, {u_: z_ - t_})))
    assert verify_inline(c).label == "ARGUED"


def test_a_citation_makes_the_verdict_proved_with_citations_and_is_listed():
    c = _abs_claim(proof=lambda cl: cite("triangle_inequality", "not needed, for the test") + conclude(
        cl, param=Parametrization({t_: z_ - u_}, {u_: z_ - t_})))
    v = verify_inline(c)
    assert v.label == "PROVED (with citations)" and v.citations == ["triangle_inequality"]
    with pytest.raises(ValueError):
        cite("no_such_theorem", "x")


def test_a_failed_mechanical_step_fails_the_proof():
    c = _abs_claim(proof=lambda cl: mechanical(1 == 2, "a false side fact") + conclude(
        cl, param=Parametrization({t_: z_ - u_}, {u_: z_ - t_})))
    assert verify_inline(c).label == "FAILED"


def test_a_parametrization_must_be_implied_by_the_conditions():
    no_condition = _abs_claim(conditions=())
    assert not verify_inline(no_condition).holds
    wrong_inverse = _abs_claim(proof=lambda cl: conclude(cl, param=Parametrization({t_: z_ - u_}, {u_: t_ - z_})))
    assert not verify_inline(wrong_inverse).holds


def test_case_split_and_its_negative_control():
    y = sp.Symbol("y", real=True)
    c = Claim(id="t.cases", title="", source=SRC, kind="inequality", lhs=sp.Abs(y - 1) - sp.Abs(y), rhs=1,
              relation="<=", proof=lambda cl: conclude_cases(cl, y, [0, 1]))
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).proved                       # > 1: false
    tighter = Claim(id="t.cases2", title="", source=SRC, kind="inequality", lhs=sp.Abs(y - 1) - sp.Abs(y),
                    rhs=sp.Rational(1, 2), relation="<=", proof=lambda cl: conclude_cases(cl, y, [0, 1]))
    assert not verify_inline(tighter).holds                            # fails at y = 0


def test_termwise_sum():
    K = sp.Symbol("K", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    w = sp.IndexedBase("w", positive=True)
    c = Claim(id="t.sum", title="", source=SRC, kind="sign", lhs=sp.Sum(w[k] * sp.Abs(z_ - t_), (k, 1, K)),
              relation=">=", proof=lambda cl: conclude_termwise(cl, conclude))
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).proved


def test_exhaustive_only_for_a_finite_statement_and_a_scope_otherwise():
    n = sp.Symbol("n", integer=True, nonnegative=True)
    finite = Claim(id="t.fin", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                   conditions=(sp.Le(n, 2),), finite=True, enumeration=lambda c: exhaust(c, [{n: 0}, {n: 1}, {n: 2}]))
    assert verify_inline(finite).label == "PROVED (exhaustive)"
    untied = Claim(id="t.fin2", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                   conditions=(sp.Le(n, 2),), finite=True, enumeration=lambda: Enumeration(True, 3))
    assert verify_inline(untied).label == "ARGUED"
    general = Claim(id="t.gen", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                    enumeration=lambda c: exhaust(c, [{n: m} for m in (0, 1, 2, 4)], scope="n in {0, 1, 2, 4}"))
    assert verify_inline(general).label == "CHECKED (finite scope: n in {0, 1, 2, 4})"
    no_scope = Claim(id="t.gen2", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                     enumeration=lambda c: exhaust(c, [{n: 0}]))
    assert verify_inline(no_scope).label == "ERROR"
    false_general = Claim(id="t.gen3", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                          enumeration=lambda c: exhaust(c, [{n: 3}], scope="n = 3"))
    assert not verify_inline(false_general).holds                      # 9 > 8


def test_a_counterexample_must_lie_inside_the_printed_conditions_and_assumptions():
    n = sp.Symbol("n", integer=True, nonnegative=True)
    inside = Claim(id="t.cex1", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                   counterexample={n: 3}, expected=False)
    assert verify_inline(inside).label == "REFUTED"
    outside = Claim(id="t.cex2", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n, relation="<=",
                    conditions=(sp.Ge(n, 5),), counterexample={n: 3}, expected=False)
    v = verify_inline(outside)
    assert v.label == "ERROR" and "outside the stated claim" in v.checks[0].detail
    bad_assumption = Claim(id="t.cex3", title="", source=SRC, kind="inequality", lhs=n**2, rhs=2**n,
                           relation="<=", counterexample={n: sp.Rational(7, 2)}, expected=False)
    assert verify_inline(bad_assumption).label == "ERROR"             # n is an integer
    missing = Claim(id="t.cex4", title="", source=SRC, kind="inequality", lhs=n**2 + x, rhs=2**n,
                    relation="<=", counterexample={n: 3}, expected=False)
    assert verify_inline(missing).label == "ERROR"


def test_untyped_proof_steps_are_refused():
    with pytest.raises(TypeError):
        Proof(True, ("prose",))
    with pytest.raises(ValueError):
        Step("lemma", "x", True)


def test_no_untyped_or_literal_proof_steps_in_the_encodings():
    """A PROVED verdict may not rest on a step whose success is written into the code."""
    import re
    from pathlib import Path

    root = Path(derivations.__file__).parent
    bad = []
    for path in root.rglob("*.py"):
        if path.parent.name == "engine":
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bProof\(\s*(ok\s*=\s*)?(True|False|bool|[a-z_]+\s*,\s*\()", line) or \
                    re.search(r"\bmechanical\(\s*True\b", line):
                bad.append(f"{path.relative_to(root)}:{k}: {line.strip()}")
    assert not bad, "\n".join(bad)


# ----------------------------------------------------------------------------------------------
# Soundness: each hole an adversarial review found is a test (a false statement must not be PROVED)
# ----------------------------------------------------------------------------------------------
def _claim(lhs, rhs=0, relation="==", conditions=(), proof=None, kind=None):
    kind = kind or ("identity" if relation == "==" else "inequality")
    return Claim(id="t.hole", title="", source=SRC, kind=kind, lhs=lhs, rhs=rhs, relation=relation,
                 conditions=conditions, proof=proof)


xr = sp.Symbol("xr", real=True)


def test_a_parametrization_must_meet_every_assumption_of_its_new_symbols():
    t_int = sp.Symbol("t_int", integer=True)
    c = _claim(sp.cos(sp.pi * xr) ** 2, 1, proof=lambda cl: conclude(cl, Parametrization({xr: t_int}, {t_int: xr})))
    assert not verify_inline(c).proved                                 # xr need not be an integer
    w = sp.Symbol("w", real=True)
    c = _claim(xr, 0, ">=", proof=lambda cl: conclude(cl, Parametrization({xr: w**2}, {w: sp.sqrt(xr)})))
    assert not verify_inline(c).proved                                 # sqrt(xr) is not real for xr < 0
    wn = sp.Symbol("wn", real=True, nonzero=True)
    c = _claim(xr**2, 0, ">", proof=lambda cl: conclude(cl, Parametrization({xr: 1 / wn}, {wn: 1 / xr})))
    assert not verify_inline(c).proved                                 # the image misses xr = 0
    y = sp.Symbol("y", positive=True)
    c = _claim(xr, 0, ">", proof=lambda cl: conclude(cl, Parametrization({xr: y, y: xr}, {y: xr, xr: y})))
    assert not verify_inline(c).proved                                 # a swap through a foreign symbol


def test_case_splits_cover_by_construction_and_pieces_are_all_checked():
    from derivations.engine.proofs import conclude_split
    k = sp.Symbol("k", nonnegative=True)
    k1 = sp.Symbol("k1", positive=True)
    good = _claim(sp.Abs(xr), 0, ">=", proof=lambda cl: conclude_split(
        cl, xr, lambda case: case.conclude(Parametrization({xr: k}, {k: xr})),
        lambda case: case.conclude(Parametrization({xr: -k1}, {k1: -xr}))))
    assert verify_inline(good).label == "PROVED"
    one_side = _claim(xr, 0, ">=", proof=lambda cl: conclude_split(
        cl, xr, lambda case: case.conclude(Parametrization({xr: k}, {k: xr})),
        lambda case: case.conclude(Parametrization({xr: k}, {k: xr}))))
    assert not verify_inline(one_side).proved                          # the negative side is not covered
    few = _claim(xr, 0, "<=", proof=lambda cl: conclude_cases(cl, xr, [0], certificates=[None]))
    assert not verify_inline(few).proved                               # one certificate for two pieces
    zc = sp.Symbol("zc")                                               # complex
    c = _claim(zc**2, 0, ">=", proof=lambda cl: conclude_cases(cl, zc, [0]))
    assert not verify_inline(c).proved


def test_a_sum_over_a_possibly_reversed_range_is_not_proved_termwise():
    n = sp.Symbol("n", integer=True)
    k = sp.Symbol("k", integer=True)
    c = _claim(sp.Sum(1, (k, 1, n)), 0, ">=", kind="sign", proof=lambda cl: conclude_termwise(cl, conclude))
    assert not verify_inline(c).proved                                 # n = -5 gives -5 (Karr convention)


def test_counterexamples_meet_every_assumption_including_indexed_ones():
    pr = sp.Symbol("pr", prime=True)
    c = Claim(id="t.cexp", title="", source=SRC, kind="inequality", lhs=pr - 2, rhs=0, relation=">=",
              counterexample={pr: 1}, expected=False)
    assert verify_inline(c).label == "ERROR"                           # 1 is not prime
    qb = sp.IndexedBase("qb", positive=True)
    c = Claim(id="t.cexq", title="", source=SRC, kind="inequality", lhs=qb[1], rhs=0, relation=">",
              counterexample={qb[1]: -1}, expected=False)
    assert verify_inline(c).label == "ERROR"
    c = Claim(id="t.cexs", title="", source=SRC, kind="inequality", lhs=xr, rhs=0, relation=">",
              counterexample={xr: sp.Symbol("other")}, expected=False)
    assert verify_inline(c).label == "ERROR"                           # values must be numbers


def test_no_conclusion_is_forged_outside_the_engine():
    import re
    from pathlib import Path

    root = Path(derivations.__file__).parent
    forged = [f"{p}:{k}" for p in root.rglob("*.py") if p.parent.name != "engine"
              for k, line in enumerate(p.read_text().splitlines(), 1)
              if re.search(r"Step\(\s*[\"']conclusion", line) or re.search(r"target\s*=", line)]
    assert not forged, forged


def test_numeric_integrals_by_compiled_quadrature_agree_with_closed_forms():
    """The numeric check's quadrature of one-variable integrals (mpmath.quad on the compiled integrand) gives
    the closed forms to 40 digits: int_0^1 e^{a t} dt = (e^a - 1)/a and int_{-oo}^0 e^{t/b}/(2b) dt = 1/2
    (references: the antiderivatives); a false statement about the first is refused by the numeric check."""
    import mpmath

    from derivations.engine.core import Claim, _numeric, _numeric_value

    a, b, t = sp.symbols("a b t", positive=True)
    with mpmath.workdps(55):
        got = _numeric_value(sp.Integral(sp.exp(a * t), (t, 0, 1)), {a: sp.Rational(3, 7)}, 55)
        want = (mpmath.exp(mpmath.mpf(3) / 7) - 1) / (mpmath.mpf(3) / 7)
        assert abs(got - want) < mpmath.mpf(10) ** -45
        half = _numeric_value(sp.Integral(sp.exp(t / b) / (2 * b), (t, -sp.oo, 0)), {b: sp.Rational(5, 4)}, 55)
        assert abs(half - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -45
    good = Claim(id="t.num.int", title="", source=SRC, kind="identity", lhs=sp.Integral(sp.exp(a * t), (t, 0, 1)),
                 rhs=(sp.exp(a) - 1) / a, domain={a: (sp.Rational(1, 10), 3)}, numeric_points=3)
    bad = Claim(id="t.num.int2", title="", source=SRC, kind="identity", lhs=sp.Integral(sp.exp(a * t), (t, 0, 1)),
                rhs=(sp.exp(a) - 1) / a + sp.Rational(1, 10**20), domain={a: (sp.Rational(1, 10), 3)},
                numeric_points=3)
    assert _numeric(good).passed and not _numeric(bad).passed and not _numeric(bad).error


def test_a_lemma_is_proved_again_and_carries_its_citations():
    """``lemma`` runs another registered claim's proof again: a proved lemma is a holding step and brings its
    citations; controls: a lemma whose proof is argued, one whose proof does not hold, and one whose routine
    changes its own statement are each a failing step."""
    from derivations.engine import core
    from derivations.engine.proofs import lemma

    def cited(c):
        return all_of(cite("data_processing_hockey_stick", "test"), conclude(c))

    def rewrites(c):
        c.rhs = c.lhs
        return conclude(c)

    square = ((xr + 1)**2, xr**2 + 2 * xr + 1)
    made = [_claim(*square, proof=cited), _claim(*square, proof=lambda c: all_of(argue("x"), conclude(c))),
            _claim(xr + 1, xr), _claim(xr * 2, xr, proof=rewrites)]
    for i, c in enumerate(made):
        c.id = f"t.lemma{i}"
        core.register(c)
    try:
        good = lemma("t.lemma0", "used")
        assert good.ok and [st.kind for st in good.steps] == ["mechanical", "citation"]
        for i in (1, 2, 3):
            assert not lemma(f"t.lemma{i}", "used").ok, i
    finally:
        for c in made:
            core._CLAIMS.pop(c.id, None)


def test_a_value_that_is_not_zero_ends_the_zero_test_early():
    """``_clearly_nonzero`` decides only from a value with significant bits at a point meeting every
    assumption: identities (a telescoping sum of indexed terms, sqrt(x^2) = x for x > 0, an undefined
    function at equal arguments, an expression undefined at some points) are never declared nonzero, and
    their changed forms are; the zero test still proves the identities it proved before (reference: the
    identities by hand)."""
    from derivations.engine.core import _clearly_nonzero, is_zero

    y = sp.IndexedBase("y", positive=True)
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    xp, r = sp.Symbol("xp", positive=True), sp.Symbol("r", real=True)
    K = sp.Function("K")
    identities = [sp.Sum(y[k], (k, 1, n)) - sp.Sum(y[k], (k, 1, n - 1)) - y[n],
                  sp.sqrt(xp**2) - xp,
                  K(r / 2 + r / 2) - K(r),
                  (r**2 - 1) / (r - 1) - (r + 1)]
    for e in identities:
        assert not _clearly_nonzero(e), e
    for e in identities[1:]:          # (the telescoping sum is beyond the zero test: conclude_induction's)
        assert is_zero(e), e
    changed = [identities[0] + y[n] / 7, sp.sqrt(r**2) - r, K(r / 2) - K(r), identities[3] + 1,
               sp.Sum(y[k]**2, (k, 1, n)) - sp.Sum(y[k], (k, 1, n))**2]
    for e in changed:
        assert _clearly_nonzero(e), e
        assert not is_zero(e), e
