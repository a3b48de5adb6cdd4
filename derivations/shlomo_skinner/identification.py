"""Identification risk under the Poisson model (Section 2.1).

Source: ``shlomo-skinner`` (``002_89b9dd341c0215c2.txt``), Section 2.1.  The population count of a cell is
F ~ Poisson(lambda); each of its units is sampled independently with probability pi (Bernoulli or
Poisson sampling), so the sample count is f | F ~ Binomial(F, pi).  The paper states that
F | f ~ Poisson(lambda (1 - pi)) "provides a predictive distribution" (read: the unsampled count
F - f, given f, is Poisson(lambda (1 - pi)), independent of f), and from it

    P(F = 1 | f = 1) = exp(-lambda (1 - pi)),
    E(1/F | f = 1)   = [1 - exp(-lambda (1 - pi))] / [lambda (1 - pi)].

Each step is derived here from the joint law: the predictive pmf as a ratio of pmfs (an identity in
factorials), the marginal law of f as a series summed in closed form, and the two risk measures as
sums over the predictive law, each summed exactly.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, claim, finding, reading, zero
from ..engine.proofs import conclude_evaluation

DOC = "002_89b9dd341c0215c2.txt"
S21 = Source(DOC, "Section 2.1, the Poisson model and its predictive distribution")
S21_RISK = Source(DOC, "Section 2.1, P(F_j = 1 | f_j = 1) and E(1/F_j | f_j = 1) under the Poisson model")

lam = sp.Symbol("lambda", positive=True)          # expected population count of the cell
pi = sp.Symbol("pi", positive=True)               # inclusion probability in the cell, 0 < pi <= 1
f = sp.Symbol("f", integer=True, nonnegative=True)  # sample count
m = sp.Symbol("m", integer=True, nonnegative=True)  # unsampled count F - f
PI_RANGE = (sp.Le(pi, 1),)


def poisson_pmf(k, rate):
    """P(K = k) for K ~ Poisson(rate)."""
    return sp.exp(-rate) * rate**k / sp.factorial(k)


def joint_pmf(f=f, m=m):
    """P(F = f + m, sample count = f) = Poisson(lambda)(f + m) * Binomial(f + m, pi)(f)."""
    return poisson_pmf(f + m, lam) * sp.binomial(f + m, f) * pi**f * (1 - pi)**m


def predictive_pmf(m=m):
    """P(F - f = m | f) = Poisson(lambda (1 - pi))(m), whatever f."""
    return poisson_pmf(m, lam * (1 - pi))


def _proof_marginal(c: Claim) -> Proof:
    # the summand factors as Poisson(lambda pi)(f) * Poisson(lambda (1 - pi))(m): the series is the
    # exponential series of lambda (1 - pi), which the evaluation sums
    return all_of(zero(joint_pmf() - poisson_pmf(f, lam * pi) * predictive_pmf(),
                       "P(F = f + m, f) = Poisson(lambda pi)(f) Poisson(lambda (1 - pi))(m)"),
                  conclude_evaluation(c))


claim(id="ss.sample_count_marginal",
      title="f ~ Poisson(lambda pi) under F ~ Poisson(lambda) and Bernoulli(pi) sampling, 0 < pi <= 1: sum_{m>=0} "
            "P(F = f + m, f) = e^{-lambda pi} (lambda pi)^f / f!",
      source=S21, kind="identity", lhs=sp.Sum(joint_pmf(), (m, 0, sp.oo)), rhs=poisson_pmf(f, lam * pi),
      conditions=PI_RANGE, proof=_proof_marginal,
      note="The paper's 'f_j are independent Poisson distributed with mean mu_j = pi_j lambda_j' (Section 2.1).")

claim(id="ss.predictive_law",
      title="Predictive law, 0 < pi <= 1: P(F = f + m, f) / P(f) = e^{-lambda (1 - pi)} (lambda (1 - pi))^m / m! "
            "for every f, i.e. F - f | f ~ Poisson(lambda (1 - pi))",
      source=S21, kind="identity", lhs=joint_pmf() / poisson_pmf(f, lam * pi), rhs=predictive_pmf(),
      conditions=PI_RANGE,
      note="The paper writes F_j | f_j ~ Poisson(lambda_j (1 - pi_j)); what is Poisson is the unsampled count "
           "F_j - f_j, as the two risk measures below use it.")


def _risk_proof(c: Claim) -> Proof:
    # E[g(F) | f = 1] = sum_m g(1 + m) P(F - f = m | f = 1), the predictive law of ss.predictive_law at f = 1
    return all_of(zero(joint_pmf(1) / poisson_pmf(1, lam * pi) - predictive_pmf(),
                       "P(F = 1 + m | f = 1) is the Poisson(lambda (1 - pi)) pmf at m (ss.predictive_law, f = 1)"),
                  conclude_evaluation(c))


claim(id="ss.p_population_unique",
      title="P(F = 1 | f = 1) = sum over m >= 0 of [m = 0] P(F = 1 + m | f = 1) = exp(-lambda (1 - pi)), 0 < pi <="
            " 1",
      source=S21_RISK, kind="identity",
      lhs=sp.Sum(sp.KroneckerDelta(m, 0) * predictive_pmf(), (m, 0, sp.oo)), rhs=sp.exp(-lam * (1 - pi)),
      conditions=PI_RANGE, proof=_risk_proof,
      note="The probability that a sample unique is a population unique; tau_1 sums it over the sample uniques.")

claim(id="ss.expected_inverse_frequency",
      title="E(1/F | f = 1) = sum over m >= 0 of P(F = 1 + m | f = 1)/(1 + m) "
            "= [1 - exp(-lambda (1 - pi))]/[lambda (1 - pi)] for pi < 1",
      source=S21_RISK, kind="identity",
      lhs=sp.Sum(predictive_pmf() / (1 + m), (m, 0, sp.oo)),
      rhs=(1 - sp.exp(-lam * (1 - pi))) / (lam * (1 - pi)), conditions=(sp.Lt(pi, 1),), proof=_risk_proof,
      note="The expected number of correct matches from a sample unique; tau_2 sums it over the sample uniques. "
           "At pi = 1 (a census) F = f = 1 and the value is 1, the limit of the right-hand side.")

reading("ss.reading.inverse_frequency_sign", S21_RISK,
        printed="E(1/Fj |fj = 1) = [1 - exp(lambdaj (1 - pij ))]/[lambdaj (1 - pij )]",
        reading="[1 - exp(-lambda_j (1 - pi_j))]/[lambda_j (1 - pi_j)]",
        why="The extracted text has no minus sign after 'exp(', at a line break inside the formula. The line "
            "before prints P(F_j = 1 | f_j = 1) = exp(-lambda_j (1 - pi_j)) with its minus, and both come from the "
            "same predictive law, whose series gives the reading exactly (ss.expected_inverse_frequency). Read "
            "literally the expression is negative for every lambda_j (1 - pi_j) > 0 (at lambda = 1, pi = 1/2: "
            "2(1 - e^{1/2}) = -1.30 against 2(1 - e^{-1/2}) = 0.79), which no expectation of 1/F can be.",
        alternatives="A typographical error of the paper itself: the text cannot tell a sign lost in the "
                     "conversion from one missing in the original, and the minus of the neighbouring formula "
                     "survived the conversion. Either way the formula the paper uses is the reading.",
        claims=("ss.expected_inverse_frequency",))

finding("ss.finding.predictive_shorthand", S21,
        "'F_j | f_j ~ Poisson(lambda_j (1 - pi_j))' is shorthand: read literally it gives P(F_j = 0 | f_j = 1) = "
        "e^{-mu} > 0 although F_j >= f_j, and P(F_j = 1 | f_j = 1) = mu e^{-mu} instead of the e^{-mu} printed next. "
        "What is Poisson(lambda_j (1 - pi_j)) given f_j is the unsampled count F_j - f_j (ss.predictive_law), as in "
        "Skinner and Shlomo (2008), and the paper's risk measures follow from that.",
        claims=("ss.predictive_law",))
