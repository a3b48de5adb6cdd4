"""The Laplace distribution and its moment generating function (Lemma 1).

Source: ``abs-pufferfish`` (``004_005a37d6f70bd1b7.txt``), Appendix A.1, Lemma 1 and its proof.

For X ~ Laplace(mu, b), b > 0, the density is f(x) = exp(-|x - mu|/b) / (2 b).
Every expectation E[g(X)] is written as the paper's proof does, split at mu into
a left tail (where |x - mu| = mu - x) and a right tail (where |x - mu| = x - mu):
:func:`expectation` in the variable x itself (the proof's second line), and
:func:`expectation_centred` in tau = x - mu (the same two integrals after the
substitution x = mu + tau), the form in which the claims of Lemma 1 are stated.

Lemma 1 states E[e^{aX}] = e^{a mu} / (1 - a^2 b^2) for |ab| < 1 (proved here),
that E[e^{aX}] is -e^{-mu/b}/4 for ab = -1 and e^{mu/b}/4 for ab = 1 (both
wrong: the integral diverges; errata), and that it is infinite for |ab| > 1
(proved).  The third line of the proof prints the right tail over (-h, mu); it
is read over (mu, h), as the next line evaluates it (a reading, not an erratum).
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, claim, erratum, register, zero
from ..engine.formulas import formula
from ..engine.notation import defined
from ..engine.proofs import Parametrization, conclude, conclude_evaluation

DOC = "004_005a37d6f70bd1b7.txt"
LEMMA1 = Source(DOC, "Appendix A.1, Lemma 1")
LEMMA1_PROOF = Source(DOC, "Appendix A.1, proof of Lemma 1")

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
s = sp.Symbol("s", nonnegative=True)
r = sp.Symbol("r", nonnegative=True)
tau = sp.Symbol("tau", real=True)   # x - mu, the centred variable of integration
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", positive=True)
mu = sp.Symbol("mu", real=True)
u = sp.Symbol("u", positive=True)   # a + 1/b > 0 when |ab| < 1 (decay rate of the left tail)
v = sp.Symbol("v", positive=True)   # 1/b - a > 0 when |ab| < 1 (decay rate of the right tail)
w = sp.Symbol("w", positive=True)   # excess beyond the boundary |ab| = 1


# -- the distribution --------------------------------------------------------------------
def pdf(z=x, b=b, mu=mu):
    """Laplace(mu, b) density exp(-|z - mu|/b) / (2 b)."""
    return sp.exp(-sp.Abs(z - mu) / b) / (2 * b)


def left_density(z=x, b=b, mu=mu):
    """The density on z <= mu, where |z - mu| = mu - z."""
    return sp.exp((z - mu) / b) / (2 * b)


def right_density(z=x, b=b, mu=mu):
    """The density on z >= mu, where |z - mu| = z - mu."""
    return sp.exp(-(z - mu) / b) / (2 * b)


def cdf(z=x, b=b, mu=mu):
    """Laplace(mu, b) distribution function, piecewise at mu."""
    return sp.Piecewise((sp.exp((z - mu) / b) / 2, z < mu), (1 - sp.exp(-(z - mu) / b) / 2, True))


def expectation(g, b=b, mu=mu):
    """E[g(X)] for X ~ Laplace(mu, b) as the sum of the two tail integrals in x (unevaluated)."""
    return (sp.Integral(g * left_density(x, b, mu), (x, -sp.oo, mu))
            + sp.Integral(g * right_density(x, b, mu), (x, mu, sp.oo)))


def expectation_centred(g, b=b, mu=mu):
    """E[g(X)] for X ~ Laplace(mu, b) as the two tail integrals in tau = x - mu (unevaluated):
    int_{-oo}^0 g(mu + tau) e^{tau/b}/(2b) dtau + int_0^oo g(mu + tau) e^{-tau/b}/(2b) dtau."""
    g_tau = sp.sympify(g).subs(x, mu + tau)
    return (sp.Integral(g_tau * sp.exp(tau / b) / (2 * b), (tau, -sp.oo, 0))
            + sp.Integral(g_tau * sp.exp(-tau / b) / (2 * b), (tau, 0, sp.oo)))


def mgf_integral(a=a, b=b, mu=mu):
    """E[e^{aX}] from the definition: the two tails of e^{a x} f(x), centred at mu."""
    return expectation_centred(sp.exp(a * x), b, mu)


def mgf(a=a, b=b, mu=mu, name=r"\mathbb{E}[e^{aX}]"):
    """E[e^{aX}] in the paper's notation, standing for its definition :func:`mgf_integral` (the engine
    unfolds it before any check); ``name`` is the notation shown (LaTeX)."""
    return defined(name, mgf_integral(a, b, mu))


def mgf_printed_case1(a=a, b=b, mu=mu):
    """Lemma 1, case 1 as printed: e^{a mu} / (1 - a^2 b^2)."""
    return sp.exp(a * mu) / (1 - a**2 * b**2)


def mgf_stable(a=a, b=b, mu=mu):
    """The same value with the denominator factored, (1 - ab)(1 + ab): no cancellation near |ab| = 1."""
    return sp.exp(a * mu) / ((1 - a * b) * (1 + a * b))


# -- the density and its two branches -------------------------------------------------------
def _density_branches() -> Proof:
    """The density equals its left branch at mu - r and its right branch at mu + r (r >= 0)."""
    return all_of(zero(pdf(mu - r) - left_density(mu - r), "f(mu - r) = e^{-r/b}/(2b), the left branch (r >= 0)"),
                  zero(pdf(mu + r) - right_density(mu + r), "f(mu + r) = e^{-r/b}/(2b), the right branch (r >= 0)"))


def _prove_normalised() -> Proof:
    """Side computation: each tail of the density has mass 1/2."""
    left = sp.integrate(left_density(), (x, -sp.oo, mu))
    right = sp.integrate(right_density(), (x, mu, sp.oo))
    return all_of(zero(left - sp.Rational(1, 2), "left tail mass is 1/2"),
                  zero(right - sp.Rational(1, 2), "right tail mass is 1/2"))


def _proof_normalised(c: Claim) -> Proof:
    return all_of(_density_branches(), _prove_normalised(), conclude(c))


claim(id="laplace.pdf_normalised", title="The Laplace density integrates to one",
      source=Source(DOC, "Appendix A.1, Lemma 1 (density used in the proof)"), kind="identity",
      lhs=sp.Integral(pdf(), (x, -sp.oo, sp.oo)), rhs=1, proof=_proof_normalised,
      note="E[e^{0 X}] = 1: the case a = 0 of Lemma 1, and the noise factor of an unperturbed unit.")


def _prove_cdf_left() -> Proof:
    """Side computation (also used by the Pufferfish module): the left branch integrated up to mu - s."""
    value = sp.integrate(left_density(t), (t, -sp.oo, mu - s))
    return zero(value - cdf(mu - s).args[0][0], "integral of the left density up to mu - s")


def _prove_cdf_right() -> Proof:
    """Side computation (also used by the Pufferfish module): left mass 1/2, then the right branch."""
    value = sp.integrate(left_density(t), (t, -sp.oo, mu)) + sp.integrate(right_density(t), (t, mu, mu + s))
    return zero(value - (1 - sp.exp(-s / b) / 2), "left mass plus the right density from mu to mu + s")


def _proof_cdf_left(c: Claim) -> Proof:
    return all_of(_density_branches(), _prove_cdf_left(),
                  conclude(c, param=Parametrization({x: mu - s}, {s: mu - x})))


def _proof_cdf_right(c: Claim) -> Proof:
    # the statement's integrals are elementary for every x; evaluate them and compare
    return all_of(_density_branches(), _prove_cdf_right(), conclude_evaluation(c))


claim(id="laplace.cdf_left",
      title="Laplace cdf for x <= mu: the left branch e^{(t - mu)/b}/(2b) integrated over (-oo, x) is "
            "e^{(x - mu)/b}/2",
      source=Source(DOC, "Appendix B.1 (Laplace cdf used in Proposition 1)"), kind="identity",
      lhs=sp.Integral(left_density(t), (t, -sp.oo, x)), rhs=sp.exp((x - mu) / b) / 2,
      conditions=(sp.Le(x, mu),), proof=_proof_cdf_left,
      note="On t <= x <= mu the density is its left branch (checked in the proof), so the left-hand side "
           "is F(x) = P(X <= x).")
claim(id="laplace.cdf_right",
      title="Laplace cdf for x >= mu: left branch over (-oo, mu) plus right branch e^{-(t - mu)/b}/(2b) over (mu, x) "
            "is 1 - e^{-(x - mu)/b}/2",
      source=Source(DOC, "Appendix B.1 (Laplace cdf used in Proposition 1)"), kind="identity",
      lhs=sp.Integral(left_density(t), (t, -sp.oo, mu)) + sp.Integral(right_density(t), (t, mu, x)),
      rhs=1 - sp.exp(-(x - mu) / b) / 2, conditions=(sp.Ge(x, mu),), proof=_proof_cdf_right,
      note="On each piece the density is the branch integrated (checked in the proof), so the left-hand "
           "side is F(x) = P(X <= x) for x >= mu.")


# -- Lemma 1 -------------------------------------------------------------------------------
# |ab| < 1  <=>  u = a + 1/b > 0 and v = 1/b - a > 0  <=>  a = (u - v)/2, b = 2/(u + v)
LEMMA1_CASE1 = Parametrization({a: (u - v) / 2, b: 2 / (u + v)}, {u: a + 1 / b, v: 1 / b - a})


def _proof_mgf(c: Claim) -> Proof:
    left = sp.exp(a * (mu + tau)) * sp.exp(tau / b) / (2 * b)
    right = sp.exp(a * (mu + tau)) * sp.exp(-tau / b) / (2 * b)
    return all_of(
        zero(sp.powsimp(left - sp.exp(a * mu) * sp.exp((a + 1 / b) * tau) / (2 * b)),
             "left-tail integrand is e^{a mu} e^{(a + 1/b) tau}/(2b): it decays as tau -> -oo iff a + 1/b > 0"),
        zero(sp.powsimp(right - sp.exp(a * mu) * sp.exp(-(1 / b - a) * tau) / (2 * b)),
             "right-tail integrand is e^{a mu} e^{-(1/b - a) tau}/(2b): it decays as tau -> oo iff 1/b - a > 0"),
        conclude(c, param=LEMMA1_CASE1))


MGF = claim(
    id="laplace.mgf", title="Lemma 1, case 1: E[e^{aX}] = e^{a mu}/(1 - a^2 b^2) for |ab| < 1",
    source=LEMMA1, kind="identity", lhs=mgf(), rhs=mgf_printed_case1(),
    conditions=(sp.Gt(a * b, -1), sp.Lt(a * b, 1)), proof=_proof_mgf, numeric_points=6,
    domain={a: (-3, 3), b: (sp.Rational(1, 20), 3), mu: (-2, 2)},
    note="The condition |ab| < 1 is written -1 < ab < 1; the left-hand side is the definition of "
         "E[e^{aX}] split at mu, in tau = x - mu.")

claim(id="laplace.mgf_stable_form",
      title="Lemma 1, case 1 with the denominator factored: e^{a mu}/(1 - a^2 b^2) = e^{a mu}/((1 - ab)(1 + ab))",
      source=LEMMA1, kind="identity", lhs=mgf_printed_case1(), rhs=mgf_stable(),
      conditions=(sp.Gt(a * b, -1), sp.Lt(a * b, 1)),
      note="Case 1 is |ab| < 1, written -1 < ab < 1 (at ab = +-1 both sides divide by 0). The numeric layer "
           "evaluates the factored form, exact near |ab| = 1.")


def _divergent(id, title, a_value, name, conditions, source=LEMMA1):
    """E[e^{aX}] at a = ``a_value`` (shown as ``name``) is infinite."""
    return Claim(id=id, title=title, source=source, kind="divergence",
                 lhs=mgf(a_value, name=name), conditions=conditions,
                 note="The left side is E[e^{aX}] at the stated a: the two tails of e^{ax} times the Laplace(mu, b) "
                      "density, centred at mu as in laplace.mgf, evaluated exactly (one tail integrand does not decay).")


# the printed boundary cases (2) and (3), refuted at a = -+1, b = 1, mu = 0, and their corrections
erratum(
    "laplace.mgf_ab_minus_one",
    printed=Claim(id="laplace.mgf_ab_minus_one.printed",
                  title="Lemma 1, case 2 as printed: E[e^{aX}] = -e^{-mu/b}/4 when ab = -1",
                  source=LEMMA1, kind="identity", lhs=mgf(), rhs=-sp.exp(-mu / b) / 4,
                  conditions=(sp.Eq(a * b, -1),), counterexample={a: -1, b: 1, mu: 0}),
    corrected=_divergent("laplace.mgf_ab_minus_one",
                         "Lemma 1, case 2, corrected: E[e^{aX}] = +oo when ab = -1 (a = -1/b)",
                         -1 / b, r"\mathbb{E}[e^{-X/b}]", ()),
    printed_text=("Lemma 1. If X ~ Laplace(mu, b), where b > 0, then E(e^{aX}) (moment generating function) has the "
                  "following forms: [...] Case 2: If ab = -1, then E(e^{aX}) = -(1/4) e^{-mu/b}"),
    corrected_text="Case 2: If ab = -1, then E(e^{aX}) is not finite: E(e^{aX}) = +oo, for every b > 0 and mu.",
    explanation=("For ab = -1 the left-tail integrand e^{a x} e^{(x - mu)/b}/(2b) is the constant "
                 "e^{-mu/b}/(2b), whose integral over (-oo, mu) is infinite, for every b > 0 and mu. "
                 "The printed value is also negative, impossible for the mean of a positive variable; "
                 "it comes from keeping the finite right-tail term and dropping the divergent one. The "
                 "proof prints the same value, so this is not a transcription slip."))

erratum(
    "laplace.mgf_ab_plus_one",
    printed=Claim(id="laplace.mgf_ab_plus_one.printed",
                  title="Lemma 1, case 3 as printed: E[e^{aX}] = e^{mu/b}/4 when ab = 1",
                  source=LEMMA1, kind="identity", lhs=mgf(), rhs=sp.exp(mu / b) / 4,
                  conditions=(sp.Eq(a * b, 1),), counterexample={a: 1, b: 1, mu: 0}),
    corrected=_divergent("laplace.mgf_ab_plus_one",
                         "Lemma 1, case 3, corrected: E[e^{aX}] = +oo when ab = 1 (a = 1/b)",
                         1 / b, r"\mathbb{E}[e^{X/b}]", ()),
    printed_text=("Lemma 1. If X ~ Laplace(mu, b), where b > 0, then E(e^{aX}) (moment generating function) has the "
                  "following forms: [...] Case 3: If ab = 1, then E(e^{aX}) = (1/4) e^{mu/b}"),
    corrected_text="Case 3: If ab = 1, then E(e^{aX}) is not finite: E(e^{aX}) = +oo, for every b > 0 and mu.",
    explanation=("For ab = 1 the right-tail integrand is the constant e^{mu/b}/(2b), whose "
                 "integral over (mu, oo) is infinite for every b > 0 and mu: E[e^{aX}] = +oo, not "
                 "e^{mu/b}/4. The proof prints the same value, so this is not a transcription slip."))

# case 4, with a = +-(1 + w)/b and w > 0
register(_divergent("laplace.mgf_ab_above_one", "Lemma 1, case 4: E[e^{aX}] is infinite for ab > 1",
                    (1 + w) / b, r"\mathbb{E}[e^{(1+w)X/b}]", (sp.Gt(w, 0),)))
register(_divergent("laplace.mgf_ab_below_minus_one", "Lemma 1, case 4: E[e^{aX}] is infinite for ab < -1",
                    -(1 + w) / b, r"\mathbb{E}[e^{-(1+w)X/b}]", (sp.Gt(w, 0),)))


# -- the third line of the proof -------------------------------------------------------------
def proof_line3(right_limits=(mu, sp.oo)):
    """Third line of the proof: e^{-+mu/b}/(2b) pulled out of each tail.  ``right_limits`` are the
    limits of the right tail ((mu, oo) as read; the source prints (-oo, mu))."""
    return (sp.exp(-mu / b) / (2 * b) * sp.Integral(sp.exp(x * (a * b + 1) / b), (x, -sp.oo, mu))
            + sp.exp(mu / b) / (2 * b) * sp.Integral(sp.exp(x * (a * b - 1) / b), (x, *right_limits)))


def mgf_in_x():
    """E[e^{aX}] in the paper's notation, standing for the proof's second line: the two tails in x."""
    return defined(r"\mathbb{E}[e^{aX}]", expectation(sp.exp(a * x)))


RIGHT_TAIL_LIMITS = Claim(id="laplace.mgf_proof_right_tail_limits",
      title="Proof of Lemma 1, line 3 read: E[e^{aX}] = e^{-mu/b}/(2b) int_{-oo}^mu e^{x(ab+1)/b} dx + "
            "e^{mu/b}/(2b) int_mu^oo e^{x(ab-1)/b} dx",
      source=LEMMA1_PROOF, kind="identity", lhs=mgf_in_x(), rhs=proof_line3(),
      proof=lambda c: all_of(
          zero(sp.powsimp(sp.expand(sp.exp(a * x) * right_density()
                                    - sp.exp(mu / b) / (2 * b) * sp.exp(x * (a * b - 1) / b))),
               "right-tail integrands agree"),
          zero(sp.powsimp(sp.expand(sp.exp(a * x) * left_density()
                                    - sp.exp(-mu / b) / (2 * b) * sp.exp(x * (a * b + 1) / b))),
               "left-tail integrands agree"),
          conclude(c)),
      note="E[e^{aX}] stands for the proof's second line, the density split at mu, in x. For every real a, as an "
           "identity of (possibly infinite) integrals of the same integrands.")
erratum(
    "laplace.mgf_proof_right_tail_limits",
    printed=Claim(id="laplace.mgf_proof_right_tail_limits.printed",
                  title="Proof of Lemma 1, line 3 as printed: E[e^{aX}] = e^{-mu/b}/(2b) int_{-oo}^mu e^{x(ab+1)/b} dx "
                        "+ e^{mu/b}/(2b) int_{-oo}^mu e^{x(ab-1)/b} dx, |ab| < 1",
                  source=LEMMA1_PROOF, kind="identity", lhs=mgf_in_x(),
                  rhs=proof_line3(right_limits=(-sp.oo, mu)), conditions=(sp.Lt(-1, a * b), sp.Lt(a * b, 1)),
                  counterexample={a: sp.Integer(0), b: sp.Integer(1), mu: sp.Integer(0)},
                  illustration={a: sp.Rational(1, 2), b: sp.Integer(1), mu: sp.Integer(1)},
                  note="Printed: (1/(2b)) e^{mu/b} lim_h int_{-h}^{mu} e^{x(ab-1)/b} dx as the second term. At a = 0, "
                       "b = 1, mu = 0 the left side is E[1] = 1 and the printed term is infinite; at a = 1/2, b = 1, "
                       "mu = 1 the left side is E[e^{X/2}] = 4 e^{1/2}/3 = 2.198 and the printed right side is infinite "
                       "(its second integral, of e^{-x/2} over (-oo, 1), diverges)."),
    corrected=RIGHT_TAIL_LIMITS,
    printed_text=("Proof [of Lemma 1]: E(e^{aX}) = (1/(2b)) int_{-oo}^{oo} e^{ax} e^{-|x-mu|/b} dx = [...] "
                  "= (1/(2b)) e^{-mu/b} lim_{h->oo} int_{-h}^{mu} e^{x(ab+1)/b} dx "
                  "+ (1/(2b)) e^{mu/b} lim_{h->oo} int_{-h}^{mu} e^{x(ab-1)/b} dx"),
    corrected_text=("E(e^{aX}) = (1/(2b)) e^{-mu/b} lim_{h->oo} int_{-h}^{mu} e^{x(ab+1)/b} dx "
                    "+ (1/(2b)) e^{mu/b} lim_{h->oo} int_{mu}^{h} e^{x(ab-1)/b} dx, for every real a (both sides "
                    "possibly infinite)."),
    explanation="A slip in an intermediate line of the proof (typo level): the right tail of E[e^{aX}] is the "
                "integral over (mu, oo), and the next line evaluates it as the bracket [e^{x(ab-1)/b}]_mu^h, so no "
                "later step and not the lemma is affected; the printed limits repeat those of the first term. "
                "Taken literally the line is false: at a = 0, b = 1, mu = 0 the printed term is infinite while "
                "the right tail has mass 1/2.")


# -- formulas for the numeric layer ----------------------------------------------------------
formula("laplace_pdf", sp.exp(-sp.Abs(x - mu) / b) / (2 * b), (x, b, mu), claims=("laplace.pdf_normalised",),
        source=LEMMA1, doc="Laplace(mu, b) density exp(-|x - mu|/b)/(2b).")
formula("laplace_cdf", cdf(), (x, b, mu), claims=("laplace.cdf_left", "laplace.cdf_right"),
        source=Source(DOC, "Appendix B.1"), doc="Laplace(mu, b) distribution function.")
formula("laplace_mgf_finite", mgf_stable(), (a, b, mu), claims=("laplace.mgf", "laplace.mgf_stable_form"),
        source=LEMMA1, doc="E[e^{aX}] = e^{a mu}/((1 - ab)(1 + ab)), valid for |ab| < 1.")
