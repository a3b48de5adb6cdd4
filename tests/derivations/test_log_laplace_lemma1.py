"""Lemma 1 of 004_005a37d6f70bd1b7.txt (Appendix A.1): the Laplace density, distribution function and
moment generating function, the errata of the boundary cases ab = +-1, and the reading of the third
line of the proof.

References, independent of the code under test: mpmath quadrature of the density written with |x - mu|
(50 digits, split at mu), truncated integrals that grow without bound, and the verdicts of deliberately
wrong statements (negative controls).  Tolerance: relative 1e-30 for the quadratures at 50 digits.
"""
from __future__ import annotations

import dataclasses

import mpmath
import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.log_laplace import laplace as L

PROVED = ["laplace.pdf_normalised", "laplace.cdf_left", "laplace.cdf_right", "laplace.mgf",
          "laplace.mgf_stable_form", "laplace.mgf_ab_minus_one", "laplace.mgf_ab_plus_one",
          "laplace.mgf_ab_above_one", "laplace.mgf_ab_below_minus_one", "laplace.mgf_proof_right_tail_limits"]


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", PROVED)
def test_lemma1_claims_are_proved_mechanically(claim_id):
    """PROVED, by typed steps only (no argument step), ending in a conclusion on the claim."""
    v = verify_inline(derivations.get(claim_id))
    assert v.label == "PROVED", [c.detail for c in v.checks]
    kinds = [st["kind"] for ch in v.checks if ch.method == "symbolic" for st in ch.steps]
    assert "argument" not in kinds and kinds[-1] == "conclusion"


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", PROVED)
def test_negative_control_a_wrong_right_hand_side_is_not_proved(claim_id):
    """Reference: the statement with rhs -> 2 rhs + 1, which is false."""
    assert not verify_inline(derivations.get(claim_id).mutated()).proved


# -- the statement against quadrature of the density with |x - mu| ------------------------------------
def _laplace_quad(g, b, mu):
    f = lambda z: g(z) * mpmath.exp(-abs(z - mu) / b) / (2 * b)     # noqa: E731
    return mpmath.quad(f, [-mpmath.inf, mu, mpmath.inf])


@pytest.mark.parametrize("a,b,mu", [("0.3", "2", "-1"), ("-1.9", "0.5", "0.25"), ("0.99", "1", "1.5"),
                                    ("-0.2", "4.9", "0")])
def test_mgf_against_mpmath_quadrature(a, b, mu):
    """Reference: mpmath.quad of e^{ax} e^{-|x - mu|/b}/(2b) at 50 digits, |ab| < 1."""
    with mpmath.workdps(50):
        a, b, mu = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(mu)
        assert abs(a * b) < 1
        want = _laplace_quad(lambda z: mpmath.exp(a * z), b, mu)
        got = mpmath.exp(a * mu) / (1 - a**2 * b**2)
        assert abs(got - want) < mpmath.mpf(10) ** -30 * abs(want)


@pytest.mark.parametrize("xv,b,mu", [("-3", "0.7", "-1"), ("-1", "0.7", "-1"), ("0.5", "2", "-1"), ("4", "0.3", "1")])
def test_cdf_against_mpmath_quadrature(xv, b, mu):
    """Reference: mpmath.quad of the density with |t - mu| from -oo to x (split at mu when x > mu)."""
    with mpmath.workdps(50):
        xv, b, mu = mpmath.mpf(xv), mpmath.mpf(b), mpmath.mpf(mu)
        f = lambda z: mpmath.exp(-abs(z - mu) / b) / (2 * b)       # noqa: E731
        want = mpmath.quad(f, [-mpmath.inf, min(xv, mu), xv] if xv > mu else [-mpmath.inf, xv])
        expr = L.cdf().subs({L.x: sp.Float(str(xv), 50), L.b: sp.Float(str(b), 50), L.mu: sp.Float(str(mu), 50)})
        assert abs(mpmath.mpf(sp.N(expr, 50)) - want) < mpmath.mpf(10) ** -30


# -- the errata: ab = +-1 ------------------------------------------------------------------------
@pytest.mark.parametrize("erratum_id", ["laplace.mgf_ab_minus_one", "laplace.mgf_ab_plus_one"])
def test_boundary_errata_refuted_inside_the_printed_condition(erratum_id):
    e = next(e for e in derivations.errata() if e.id == erratum_id)
    v = verify_inline(e.printed)
    assert v.label == "REFUTED"
    assert "inside the conditions" in v.checks[0].detail
    assert verify_inline(e.corrected).label == "PROVED"
    # the printed statement keeps the paper's condition ab = -+1
    assert any(isinstance(c, sp.Eq) for c in e.printed.conditions)


def test_negative_control_a_counterexample_outside_the_printed_condition_is_an_error():
    """Reference: a = b = 1 violates ab = -1, so it cannot refute case 2; the engine says ERROR."""
    printed = derivations.get("laplace.mgf_ab_minus_one.printed")
    moved = dataclasses.replace(printed, counterexample={L.a: 1, L.b: 1, L.mu: 0})
    assert verify_inline(moved).label == "ERROR"


@pytest.mark.parametrize("sign", [-1, 1])
def test_boundary_mgf_grows_without_bound(sign):
    """Reference: at ab = -+1 the truncated integral of e^{ax} f(x) over (mu - H, mu + H) grows like
    H e^{-+mu/b}/(2b): it exceeds any finite value, and it is positive (the printed case 2 is negative)."""
    with mpmath.workdps(30):
        b, mu = mpmath.mpf("0.8"), mpmath.mpf("0.3")
        a = sign / b
        f = lambda z: mpmath.exp(a * z) * mpmath.exp(-abs(z - mu) / b) / (2 * b)     # noqa: E731
        vals = [mpmath.quad(f, [mu - H, mu, mu + H]) for H in (10, 100, 1000)]
        slope = mpmath.exp(sign * mu / b) / (2 * b)
        assert vals[0] > 0 and vals[0] < vals[1] < vals[2]
        assert abs((vals[2] - vals[1]) / 900 - slope) < mpmath.mpf(10) ** -20


# -- the third line of the proof: a typo-level erratum (the author's copy slip, not damaged text) ------------
def test_right_tail_limits_is_an_erratum_refuted_inside_its_conditions():
    e = next(e for e in derivations.errata() if e.id == "laplace.mgf_proof_right_tail_limits")
    assert verify_inline(e.printed).label == "REFUTED"
    assert verify_inline(e.corrected).label == "PROVED"


def test_right_tail_literal_and_read_limits():
    """Reference: mpmath at a = 0, b = 1, mu = 0.  The right tail of line 2 has mass 1/2; the read
    term e^{mu/b}/(2b) int_mu^oo e^{x(ab-1)/b} dx is 1/2; the literal term over (-H, mu) grows like e^H/2."""
    with mpmath.workdps(30):
        tail = mpmath.quad(lambda z: mpmath.exp(-z) / 2, [0, mpmath.inf])
        read = mpmath.quad(lambda z: mpmath.exp(-z), [0, mpmath.inf]) / 2
        literal = [mpmath.quad(lambda z: mpmath.exp(-z), [-H, 0]) / 2 for H in (5, 10, 20)]
        assert abs(tail - mpmath.mpf(1) / 2) < 1e-25 and abs(read - tail) < 1e-25
        assert literal[0] < literal[1] < literal[2] and literal[2] > 1e8
    # and the engine: the line with the literal limits is not proved
    c = derivations.get("laplace.mgf_proof_right_tail_limits")
    literal_claim = dataclasses.replace(c, id="t.literal", rhs=L.proof_line3(right_limits=(-sp.oo, L.mu)))
    assert not verify_inline(literal_claim).proved


def test_negative_control_mgf_outside_its_condition_is_not_proved():
    """The case-1 value claimed for |ab| <= 2 (beyond the region of convergence) is not proved."""
    c = derivations.get("laplace.mgf")
    wider = dataclasses.replace(c, id="t.wider", conditions=(sp.Gt(L.a * L.b, -2), sp.Lt(L.a * L.b, 2)),
                                numeric_points=0)
    assert not verify_inline(wider).proved
