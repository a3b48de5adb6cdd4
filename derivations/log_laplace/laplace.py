"""The Laplace distribution and its moment generating function (Lemma 1).

Source: ``004_005a37d6f70bd1b7.txt``, Appendix A.1, Lemma 1 and its proof.

For X ~ Laplace(mu, b), b > 0, the density is f(x) = exp(-|x - mu|/b) / (2 b).
Every expectation E[g(X)] is written as the paper's proof does, split at mu into
a left tail (where |x - mu| = mu - x) and a right tail (where |x - mu| = x - mu).

Lemma 1 states E[e^{aX}] = e^{a mu} / (1 - a^2 b^2) for |ab| < 1 (proved here),
that E[e^{aX}] is -e^{-mu/b}/4 for ab = -1 and e^{mu/b}/4 for ab = 1 (both
wrong: the integral diverges; errata), and that it is infinite for |ab| > 1
(proved).
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, claim, erratum, register, zero
from ..engine.formulas import formula

DOC = "004_005a37d6f70bd1b7.txt"
LEMMA1 = Source(DOC, "Appendix A.1, Lemma 1")
LEMMA1_PROOF = Source(DOC, "Appendix A.1, proof of Lemma 1")

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
s = sp.Symbol("s", nonnegative=True)
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", positive=True)
mu = sp.Symbol("mu", real=True)
u = sp.Symbol("u", positive=True)   # a + 1/b > 0 when |ab| < 1
v = sp.Symbol("v", positive=True)   # 1/b - a > 0 when |ab| < 1
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
    """E[g(X)] for X ~ Laplace(mu, b) as the sum of the two tail integrals (unevaluated)."""
    return (sp.Integral(g * left_density(x, b, mu), (x, -sp.oo, mu))
            + sp.Integral(g * right_density(x, b, mu), (x, mu, sp.oo)))


def mgf_printed_case1(a=a, b=b, mu=mu):
    """Lemma 1, case 1 as printed: e^{a mu} / (1 - a^2 b^2)."""
    return sp.exp(a * mu) / (1 - a**2 * b**2)


def mgf_stable(a=a, b=b, mu=mu):
    """The same value with the denominator factored, (1 - ab)(1 + ab): no cancellation near |ab| = 1."""
    return sp.exp(a * mu) / ((1 - a * b) * (1 + a * b))


# -- the density and distribution function ------------------------------------------------
def _prove_normalised() -> Proof:
    left = sp.integrate(left_density(), (x, -sp.oo, mu))
    right = sp.integrate(right_density(), (x, mu, sp.oo))
    return all_of(zero(left - sp.Rational(1, 2), "left tail mass is 1/2"),
                  zero(right - sp.Rational(1, 2), "right tail mass is 1/2"))


claim(id="laplace.pdf_normalised", title="The Laplace density integrates to one",
      source=Source(DOC, "Appendix A.1, Lemma 1 (density used in the proof)"), kind="identity",
      lhs=sp.Integral(pdf(), (x, -sp.oo, sp.oo)), rhs=1, proof=_prove_normalised)


def _prove_cdf_left() -> Proof:
    # z = mu - s with s >= 0: the whole range of integration lies left of mu.
    value = sp.integrate(left_density(t), (t, -sp.oo, mu - s))
    return zero(value - cdf(mu - s).args[0][0], "integral of the left density up to mu - s")


def _prove_cdf_right() -> Proof:
    # z = mu + s with s >= 0: the left half has mass 1/2, then the right density from mu to mu + s.
    value = sp.integrate(left_density(t), (t, -sp.oo, mu)) + sp.integrate(right_density(t), (t, mu, mu + s))
    return zero(value - (1 - sp.exp(-s / b) / 2), "left mass plus the right density from mu to mu + s")


claim(id="laplace.cdf_left", title="Laplace distribution function left of the location",
      source=Source(DOC, "Appendix B.1 (Laplace cdf used in Proposition 1)"), kind="identity",
      lhs=sp.Integral(pdf(t), (t, -sp.oo, x)), rhs=sp.exp((x - mu) / b) / 2,
      conditions=(sp.Le(x, mu),), proof=_prove_cdf_left)
claim(id="laplace.cdf_right", title="Laplace distribution function right of the location",
      source=Source(DOC, "Appendix B.1 (Laplace cdf used in Proposition 1)"), kind="identity",
      lhs=sp.Integral(pdf(t), (t, -sp.oo, x)), rhs=1 - sp.exp(-(x - mu) / b) / 2,
      conditions=(sp.Ge(x, mu),), proof=_prove_cdf_right)


# -- Lemma 1 -------------------------------------------------------------------------------
def _prove_mgf() -> Proof:
    # With u = a + 1/b > 0 and v = 1/b - a > 0 (equivalent to |ab| < 1), the tails are
    # e^{-mu/b}/(2b) * int_{-oo}^{mu} e^{u x} dx and e^{mu/b}/(2b) * int_{mu}^{oo} e^{-v x} dx.
    left = sp.exp(-mu / b) / (2 * b) * sp.integrate(sp.exp(u * x), (x, -sp.oo, mu))
    right = sp.exp(mu / b) / (2 * b) * sp.integrate(sp.exp(-v * x), (x, mu, sp.oo))
    left_direct = sp.exp(a * x) * left_density()
    right_direct = sp.exp(a * x) * right_density()
    return all_of(
        zero(sp.powsimp(left_direct - sp.exp(-mu / b) / (2 * b) * sp.exp(u * x)).subs(u, a + 1 / b),
             "left integrand is e^{-mu/b} e^{(a+1/b)x}/(2b)"),
        zero(sp.powsimp(right_direct - sp.exp(mu / b) / (2 * b) * sp.exp(-v * x)).subs(v, 1 / b - a),
             "right integrand is e^{mu/b} e^{-(1/b-a)x}/(2b)"),
        zero((left + right).subs({u: a + 1 / b, v: 1 / b - a}) - mgf_printed_case1(),
             "sum of the convergent tails equals e^{a mu}/(1 - a^2 b^2)"),
    )


MGF = claim(
    id="laplace.mgf", title="Lemma 1, case 1: moment generating function for |ab| < 1",
    source=LEMMA1, kind="identity", lhs=expectation(sp.exp(a * x)), rhs=mgf_printed_case1(),
    conditions=(sp.Lt(sp.Abs(a * b), 1),), proof=_prove_mgf, numeric_points=6,
    domain={a: (-3, 3), b: (sp.Rational(1, 20), 3), mu: (-2, 2)})

claim(id="laplace.mgf_stable_form", title="Factored denominator of the moment generating function",
      source=LEMMA1, kind="identity", lhs=mgf_printed_case1(), rhs=mgf_stable(),
      note="The numeric layer evaluates the factored form, exact near |ab| = 1.")


def _divergent(id, title, a_value, conditions, source=LEMMA1):
    return Claim(id=id, title=title, source=source, kind="divergence",
                 lhs=expectation(sp.exp(a_value * x)), conditions=conditions)


# the printed boundary cases (2) and (3), refuted at b = 1, mu = 0, and their corrections
erratum(
    "laplace.mgf_ab_minus_one",
    printed=Claim(id="laplace.mgf_ab_minus_one.printed",
                  title="Lemma 1, case 2 as printed: E[e^{aX}] = -e^{-mu/b}/4 when ab = -1",
                  source=LEMMA1, kind="identity", lhs=expectation(sp.exp(-x / b)),
                  rhs=-sp.exp(-mu / b) / 4, counterexample={b: 1, mu: 0}),
    corrected=_divergent("laplace.mgf_ab_minus_one", "E[e^{aX}] is infinite when ab = -1",
                         -1 / b, ()),
    explanation=("For ab = -1 the left-tail integrand e^{ax} e^{(x-mu)/b}/(2b) is the constant "
                 "e^{-mu/b}/(2b), whose integral over (-oo, mu) is infinite. The printed value is "
                 "also negative, impossible for the mean of a positive variable; it comes from "
                 "keeping the finite right-tail term and dropping the divergent one."))

erratum(
    "laplace.mgf_ab_plus_one",
    printed=Claim(id="laplace.mgf_ab_plus_one.printed",
                  title="Lemma 1, case 3 as printed: E[e^{aX}] = e^{mu/b}/4 when ab = 1",
                  source=LEMMA1, kind="identity", lhs=expectation(sp.exp(x / b)),
                  rhs=sp.exp(mu / b) / 4, counterexample={b: 1, mu: 0}),
    corrected=_divergent("laplace.mgf_ab_plus_one", "E[e^{aX}] is infinite when ab = 1",
                         1 / b, ()),
    explanation=("For ab = 1 the right-tail integrand is the constant e^{mu/b}/(2b), whose "
                 "integral over (mu, oo) is infinite: E[e^{aX}] = +oo, not e^{mu/b}/4."))

# case 4, with a = +-(1 + w)/b and w > 0
register(_divergent("laplace.mgf_ab_above_one", "Lemma 1, case 4: E[e^{aX}] is infinite for ab > 1",
                    (1 + w) / b, (sp.Gt(w, 0),)))
register(_divergent("laplace.mgf_ab_below_minus_one", "Lemma 1, case 4: E[e^{aX}] is infinite for ab < -1",
                    -(1 + w) / b, (sp.Gt(w, 0),)))

# A step of the proof integrates the right tail over (-h, mu) instead of (mu, h).
h = sp.Symbol("h", positive=True)
erratum(
    "laplace.mgf_proof_right_tail_limits",
    printed=Claim(
        id="laplace.mgf_proof_right_tail_limits.printed",
        title="Proof of Lemma 1, third line: the right tail written over (-h, mu)",
        source=LEMMA1_PROOF, kind="identity",
        lhs=sp.Integral(sp.exp(a * x) * right_density(), (x, mu, sp.oo)),
        rhs=sp.exp(mu / b) / (2 * b) * sp.Integral(sp.exp(x * (a * b - 1) / b), (x, -sp.oo, mu)),
        counterexample={a: 0, b: 1, mu: 0}),
    corrected=Claim(
        id="laplace.mgf_proof_right_tail_limits",
        title="Proof of Lemma 1: the right tail is an integral over (mu, oo)",
        source=LEMMA1_PROOF, kind="identity",
        lhs=sp.Integral(sp.exp(a * x) * right_density(), (x, mu, sp.oo)),
        rhs=sp.exp(mu / b) / (2 * b) * sp.Integral(sp.exp(x * (a * b - 1) / b), (x, mu, sp.oo)),
        proof=lambda: zero(sp.powsimp(sp.expand(sp.exp(a * x) * right_density()
                                                - sp.exp(mu / b) / (2 * b) * sp.exp(x * (a * b - 1) / b))),
                           "integrands agree on (mu, oo)")),
    explanation=("The right-tail integral of the third line runs over (-h, mu); it must run over "
                 "(mu, h), as the next line's bracket [ . ]_mu^h does. At a = 0, b = 1, mu = 0 the "
                 "printed integral is infinite while the tail has mass 1/2."))


# -- formulas for the numeric layer ----------------------------------------------------------
formula("laplace_pdf", sp.exp(-sp.Abs(x - mu) / b) / (2 * b), (x, b, mu), claims=("laplace.pdf_normalised",),
        source=LEMMA1, doc="Laplace(mu, b) density exp(-|x - mu|/b)/(2b).")
formula("laplace_cdf", cdf(), (x, b, mu), claims=("laplace.cdf_left", "laplace.cdf_right"),
        source=Source(DOC, "Appendix B.1"), doc="Laplace(mu, b) distribution function.")
formula("laplace_mgf_finite", mgf_stable(), (a, b, mu), claims=("laplace.mgf", "laplace.mgf_stable_form"),
        source=LEMMA1, doc="E[e^{aX}] = e^{a mu}/((1 - ab)(1 + ab)), valid for |ab| < 1.")
