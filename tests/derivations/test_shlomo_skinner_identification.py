"""Section 2.1 of the Shlomo-Skinner paper (identification risk under the Poisson model).

References, independent of the claims' proofs: the model's joint law summed term by term in mpmath at
50 digits (a truncated series, the tail bounded), and the printed values of the reading's 'why'."""
from __future__ import annotations

import mpmath as mp
import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.shlomo_skinner import identification as ident

IDS = ["ss.sample_count_marginal", "ss.predictive_law", "ss.p_population_unique", "ss.expected_inverse_frequency"]


def _conditional_moments(lam, pi, terms=400):
    """P(F = 1 | f = 1) and E(1/F | f = 1) from the joint law P(F = k) C(k, 1) pi (1 - pi)^{k-1} over
    k = 1..terms, normalised by its own sum (the model itself, not the predictive law); call it
    inside ``mp.workdps(50)``, with ``lam``, ``pi`` as strings (exact decimals)."""
    lam, pi = mp.mpf(lam), mp.mpf(pi)
    w = [mp.exp(-lam) * lam**k / mp.factorial(k) * k * pi * (1 - pi)**(k - 1) for k in range(1, terms + 1)]
    total = mp.fsum(w)
    return w[0] / total, mp.fsum(wk / k for k, wk in enumerate(w, start=1)) / total


@pytest.mark.parametrize("cid", IDS)
def test_claims_are_proved_and_a_changed_statement_is_not(cid):
    c = derivations.get(cid)
    assert verify_inline(c).label == "PROVED"
    assert not verify_inline(c.mutated()).proved


@pytest.mark.parametrize("lam, pi", [("0.5", "0.01"), ("3", "0.2"), ("15.26", "0.005"), ("40", "0.9")])
def test_risk_measures_against_the_joint_law(lam, pi):
    subs = {ident.lam: sp.Rational(lam), ident.pi: sp.Rational(pi)}
    rhs_p = derivations.get("ss.p_population_unique").rhs.subs(subs)
    rhs_e = derivations.get("ss.expected_inverse_frequency").rhs.subs(subs)
    with mp.workdps(50):
        p_unique, e_inverse = _conditional_moments(lam, pi)
        assert abs(p_unique - mp.mpf(str(sp.N(rhs_p, 50)))) <= mp.mpf(10) ** -30
        assert abs(e_inverse - mp.mpf(str(sp.N(rhs_e, 50)))) <= mp.mpf(10) ** -30


def test_the_literal_printed_form_is_negative_and_the_reading_is_not():
    """The reading's numbers: at lambda = 1, pi = 1/2, the literal [1 - e^{mu}]/mu = -1.30 while the
    expectation of 1/F (joint law) is 0.787 = [1 - e^{-mu}]/mu, mu = 1/2."""
    with mp.workdps(50):
        _, e_inverse = _conditional_moments("1", "0.5")
        literal = (1 - mp.e ** mp.mpf("0.5")) / mp.mpf("0.5")
        assert literal < 0 and abs(literal - (-1.2974425414)) < 1e-9
        assert abs(e_inverse - (1 - mp.e ** mp.mpf("-0.5")) / mp.mpf("0.5")) < mp.mpf(10) ** -30
        assert abs(e_inverse - 0.7869386806) < 1e-9
    r = next(r for r in derivations.readings() if r.id == "ss.reading.inverse_frequency_sign")
    assert r.claims == ("ss.expected_inverse_frequency",)


def test_marginal_of_the_sample_count_against_the_joint_law():
    """f ~ Poisson(lambda pi): the joint law summed over the unsampled count, at f = 0..4."""
    with mp.workdps(50):
        lam, pi = mp.mpf(7), mp.mpf("0.3")
        for f in range(5):
            s = mp.fsum(mp.exp(-lam) * lam**(f + m) / mp.factorial(f + m) * mp.binomial(f + m, f)
                        * pi**f * (1 - pi)**m for m in range(300))
            assert abs(s - mp.exp(-lam * pi) * (lam * pi)**f / mp.factorial(f)) < mp.mpf(10) ** -40
