"""The log-linear model for the expected cell counts, and the global risk measures (Section 2.1).

Source: ``shlomo-skinner`` (``002_89b9dd341c0215c2.txt``), Section 2.1.  The sample counts f_j are independent
Poisson(mu_j) with mu_j = pi_j lambda_j.  The paper writes the model as log(mu_j) = z_j' beta, the
score equations as

    sum_j [f_j - pi_j exp(z_j' beta)] z_j = 0,

and the fitted values as mu_hat_j = exp(z_j' beta_hat), lambda_hat_j = mu_hat_j / pi_j.  The score
equations are those of log(lambda_j) = z_j' beta (log pi_j an offset), not of log(mu_j) = z_j' beta:
the printed displays do not fit together, and the erratum below says which way each can be made
consistent.  Each cell's contribution to the log-likelihood is f_j log(mu_j) - mu_j (+ a constant), so
each score equation is a sum over cells of one derivative, checked here cell by cell.

tau_1 and tau_2 sum the two Poisson-model risk measures (ss.p_population_unique,
ss.expected_inverse_frequency) over the sample uniques; the claims below check the sums term by term.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, claim, erratum
from ..engine.proofs import conclude, conclude_evaluation, conclude_termwise
from .identification import DOC, lam, m, pi, poisson_pmf, predictive_pmf

S21_MODEL = Source(DOC, "Section 2.1, the log-linear model and its score equations")
S21_TAU = Source(DOC, "Section 2.1, the global risk measures tau_1 and tau_2")

f = sp.Symbol("f_j", integer=True, nonnegative=True)      # the sample count of cell j
z = sp.Symbol("z_{jr}", real=True)                         # r-th component of the design vector of cell j
beta = sp.Symbol("beta_r", real=True)                      # the coefficient differentiated
rest = sp.Symbol("c_j", real=True)                         # the rest of z_j' beta (free of beta_r)
pij = sp.Symbol("pi_j", positive=True)                     # inclusion probability in cell j
eta = z * beta + rest                                      # z_j' beta


def _cell_score(mu):
    """d/d beta_r of cell j's Poisson log-likelihood term f_j log(mu_j) - mu_j, mu_j a function of beta."""
    return sp.Derivative(f * sp.log(mu) - mu, beta)


claim(id="ss.loglinear_score",
      title="One cell's score under log(lambda_j) = z_j' beta, mu_j = pi_j e^{z_j' beta}, 0 < pi_j <= 1: d/d "
            "beta_r [f_j log(mu_j) - mu_j] = [f_j - pi_j e^{z_j' beta}] z_jr",
      source=S21_MODEL, kind="identity", lhs=_cell_score(pij * sp.exp(eta)),
      rhs=(f - pij * sp.exp(eta)) * z, conditions=(sp.Le(pij, 1),), proof=conclude_evaluation,
      note="The printed score equation, term by term. Summing over cells gives sum_j [f_j - pi_j exp(z_j' beta)] "
           "z_j = 0, the equations as printed; the "
           "fitted values are then lambda_hat_j = exp(z_j' beta_hat) and mu_hat_j = pi_j lambda_hat_j.")

erratum(
    "ss.loglinear_score_model",
    printed=Claim(id="ss.loglinear_score_model.printed",
                  title="Section 2.1 as printed, one cell: under log(mu_j) = z_j' beta, d/d beta_r [f_j log(mu_j) "
                        "- mu_j] = [f_j - pi_j e^{z_j' beta}] z_jr",
                  source=S21_MODEL, kind="identity", lhs=_cell_score(sp.exp(eta)),
                  rhs=(f - pij * sp.exp(eta)) * z, conditions=(sp.Le(pij, 1),),
                  counterexample={f: 1, z: 1, beta: 0, rest: 0, pij: sp.Rational(1, 2)}),
    corrected=Claim(id="ss.loglinear_score_mu",
                    title="One cell's score under log(mu_j) = z_j' beta: d/d beta_r [f_j log(mu_j) - mu_j] = [f_j "
                          "- e^{z_j' beta}] z_jr",
                    source=S21_MODEL, kind="identity", lhs=_cell_score(sp.exp(eta)),
                    rhs=(f - sp.exp(eta)) * z, proof=conclude_evaluation,
                    note="Summed over the cells (the log-likelihood is a sum of the cells' terms) this gives the "
                         "score equations sum_j [f_j - exp(z_j' beta)] z_j = 0 of the model as printed."),
    explanation="The three displays of the paragraph do not fit together. With the model as printed, "
                "log(mu_j) = z_j' beta, the log-likelihood sum_j [f_j z_j' beta - exp(z_j' beta)] has the score "
                "sum_j [f_j - exp(z_j' beta)] z_j; the printed equations carry an extra pi_j. At f_j = 1, z_j = 1, "
                "beta = 0 and pi_j = 1/2 one cell's derivative is 0, the printed term 1/2. The printed equations "
                "are the score of log(lambda_j) = z_j' beta with offset log(pi_j) (ss.loglinear_score), the model "
                "of Skinner and Shlomo (2008); with them the fitted values are lambda_hat_j = exp(z_j' beta_hat) "
                "and mu_hat_j = pi_j lambda_hat_j, whereas the printed mu_hat_j = exp(z_j' beta_hat) and "
                "lambda_hat_j = mu_hat_j / pi_j, combined with the printed equations, overstate every lambda_hat_j "
                "by the factor 1/pi_j (and so understate tau_1 and tau_2). Either correction makes the paragraph "
                "consistent: drop pi_j from the score equations (this claim), or read the model as log(lambda_j) = "
                "z_j' beta. A typographical slip (the pi_j is legible in the extracted text, so it is not a "
                "conversion artefact); the risk measures the paper goes on to use are unaffected once one "
                "consistent pair is taken.",
    printed_text="A log-linear model for the mu_j is expressed as: log(mu_j) = z_j' beta, where z_j is a design vector "
                 "which denotes the main effects and interactions of the model for the key variables. The maximum "
                 "likelihood estimator (MLE) beta-hat may be obtained by solving the score equations: "
                 "sum_j [f_j - pi_j exp(z_j' beta)] z_j = 0.",
    corrected_text="A log-linear model for the mu_j is expressed as: log(mu_j) = z_j' beta, where z_j is a design "
                   "vector [...]. The maximum likelihood estimator (MLE) beta-hat may be obtained by solving the score "
                   "equations: sum_j [f_j - exp(z_j' beta)] z_j = 0, the term of cell j being "
                   "d/d beta_r [f_j log(mu_j) - mu_j] = [f_j - exp(z_j' beta)] z_jr.")

# -- tau_1 and tau_2: sums over cells of the per-cell risk measures ----------------------------------------
_j, _k = sp.symbols("j k", integer=True, positive=True)
_f, _lam, _pi = sp.IndexedBase("f"), sp.IndexedBase("lambda", positive=True), sp.IndexedBase("pi", positive=True)
_UNIQUE = sp.KroneckerDelta(_f[_j], 1)                    # I(f_j = 1)


def _in_cell(expr):
    """A per-cell expression of the Poisson model (identification.py) for cell j."""
    return expr.xreplace({lam: _lam[_j], pi: _pi[_j]})


def _tau_proof(c: Claim) -> Proof:
    # one cell's term: the predictive series summed exactly (identification.py), times I(f_j = 1)
    return conclude_termwise(c, conclude)


_P_UNIQUE = sp.Sum(sp.KroneckerDelta(m, 0) * predictive_pmf(), (m, 0, sp.oo))   # P(F_j = 1 | f_j = 1)
_MU_J = _lam[_j] * (1 - _pi[_j])

claim(id="ss.tau1",
      title="tau_1 = sum_{j=1}^{k} I(f_j = 1) P(F_j = 1 | f_j = 1), the predictive series summed, = sum_{j=1}^{k} "
            "I(f_j = 1) exp(-lambda_j (1 - pi_j))",
      source=S21_TAU, kind="identity",
      lhs=sp.Sum(_UNIQUE * _in_cell(_P_UNIQUE), (_j, 1, _k)),
      rhs=sp.Sum(_UNIQUE * sp.exp(-_MU_J), (_j, 1, _k)), proof=_tau_proof,
      note="Proved for a symbolic number k of cells, term by term. The expected number of sample uniques that are "
           "population uniques, given the sample counts, under "
           "the Poisson model; plugged in at lambda_hat_j (ss.loglinear_score) it is the estimator tau_1 hat.")

_mu = sp.IndexedBase("mu", positive=True)                 # mu_j = lambda_j (1 - pi_j) > 0 (pi_j < 1)

claim(id="ss.tau2",
      title="tau_2 = sum_{j=1}^{k} I(f_j = 1) E(1/F_j | f_j = 1), the predictive series summed, = sum_{j=1}^{k} "
            "I(f_j = 1) [1 - exp(-mu_j)]/mu_j, mu_j = lambda_j (1 - pi_j) > 0",
      source=S21_TAU, kind="identity",
      lhs=sp.Sum(_UNIQUE * sp.Sum(poisson_pmf(m, _mu[_j]) / (1 + m), (m, 0, sp.oo)), (_j, 1, _k)),
      rhs=sp.Sum(_UNIQUE * (1 - sp.exp(-_mu[_j])) / _mu[_j], (_j, 1, _k)), proof=_tau_proof,
      note="The expected number of correct matches among the sample uniques; the sign of the exponent is the "
           "reading ss.reading.inverse_frequency_sign.")
