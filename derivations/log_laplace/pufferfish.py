"""Pufferfish privacy of log-Laplace multiplicative perturbation, and p%-rule disclosure risk.

Source: ``abs-pufferfish`` (``004_005a37d6f70bd1b7.txt``; "Confidentiality in ABS business data using Pufferfish
differential privacy"): Section 3 (Definition 3.1.4, Lemma 3.2.1, Theorem 3.2.2 and its proof),
Section 4.3-4.4 (algorithms 4.3.1 / 4.3.2, the case study and Figures 4.4.1 / 4.4.2), Appendix B
(Proposition 1, Corollary B.1.2 with equation b.1.3, Theorem B.2 and its Remark) and Appendix C
(proof of Lemma 3.2.1).

Section 3.  The mechanism publishes M(t) = c e^X t, X ~ Laplace(0, b), b = -(4/eps) ln(1 - q),
c = 1 - b^2.  The secrets are q% intervals; a discriminative pair is I1 = [(1-q)y, (1+q)y) and the
adjacent I2 = [(1+q)y, (1+q)^2 y/(1-q)) for y > 0 (reflected for y < 0).  Proved here: Lemma 3.2.1;
the containments and the exponents (3.2.4), (3.2.5) of the proof of Theorem 3.2.2, whose ratio is
e^eps (the convolution and triangle-inequality steps are cited standard results); the reflection
for y < 0.  Beyond the document: the privacy loss of two point-mass priors in I1 and I2 is at most
(sup I2 - inf I1)/b (kernel bound, both directions) and tends to it (limit), so the tight epsilon
at scale b is (2/b) ln((1+q)/(1-q)); the tight scale for a target eps is (2/eps) ln((1+q)/(1-q)),
between 1/2 and 1 times the printed one.

Appendix B (mu = 0).  The disclosure risk is f(R) = P(1 - p - R < c e^X < 1 + p - R)
= H((1+p-R)/c) - H((1-p-R)/c), with H the distribution function of e^X, written without branches:
H(u) = 1/2 max(u,0)^{1/b} max(u,1)^{-1/b} + 1/2 - 1/2 max(u,1)^{-1/b}, max(u, a) = (u + a + |u - a|)/2
(equal to the paper's F_X(ln u) for u > 0 and to 0 for u <= 0: claims puff.b1.exp_cdf_*).  Proved
here: each of the six pieces of equation b.1.3 on its printed range (any b > 0, c > 0); the
formulas of adjacent pieces agree at the breakpoints; f increases on piece 1, is unimodal on piece
2 and decreases afterwards (0 < b < 1); g (whose sign is that of df/dR on piece 2) is positive at the
left end of piece 2 and negative (or -> -oo) at its right end.  Theorem B.2's supremum f(R*) at the
unique zero R* of g is ARGUED from these proved facts (intermediate value theorem, monotonicity).

Section 4.4.  The scale b decreases with eps and increases with q (proved).  How the risk moves
with b depends on R = (sum of the other contributions)/y_j, which the case study does not report:
on the grid of Figures 4.4.1 / 4.4.2 with R = 0 the risk increases with eps and decreases with q at
every step (exhaustive), at R = 1/5 it decreases with eps along the whole q = 0.06 panel
(exhaustive), and on piece 5 it increases with b for every b (proved).  The Monte Carlo proportion
of algorithm 4.3.2 has standard error at most 1/(2 sqrt(M)); at M = 1,000 and R = 0 no adjacent eps
step of the grid exceeds two standard errors of the difference of two independent estimates
(exhaustive).

Errata: the bias correction c = 1 - b^2 = 1/E(e^X) of Theorem 3.2.2 for every eps > 0 (true only for
b < 1); the upper limit ln((1+p)y_j - R) - ln c in the proof of Proposition 1, Case 2.  The middle
line of Corollary B.1.2, Case 2.1 (division by c dropped) is a reading, and the sub-cases of its
Case 2 a finding.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import sympy as sp

from ..engine.core import (RELATIONS, Claim, Enumeration, Proof, Source, all_of, argue, cite,
                           erratum, finding, is_zero, mechanical, reading, register, zero)
from ..engine.formulas import formula
from ..engine.notation import defined
from ..engine.proofs import (Parametrization, case_pieces, conclude, conclude_cases, conclude_evaluation, conclude_split,
                             exhaust, has_sign)
from .laplace import cdf, expectation

DOC = "004_005a37d6f70bd1b7.txt"
DEF314 = Source(DOC, "Section 3.1, Definition 3.1.4 and (3.1.1)-(3.1.3)")
LEMMA = Source(DOC, "Section 3.2, Lemma 3.2.1; proof in Appendix C")
THM = Source(DOC, "Section 3.2, Theorem 3.2.2 and its proof")
PROP1 = Source(DOC, "Appendix B.1, Proposition 1 and its proof")
COR = Source(DOC, "Appendix B.1.2, Corollary (mu = 0), equation b.1.3")
THMB2 = Source(DOC, "Appendix B.2, Theorem (upper bound for the disclosure risk) and its Remark")
S44 = Source(DOC, "Section 4.4, case study results (Figures 4.4.1 and 4.4.2)")
ALG432 = Source(DOC, "Section 4.3, algorithm 4.3.2, and Section 4.4 (m = 1000 replicates)")


# -- named standard results cited below (registered in derivations/engine/citations.py) ----------
CONVOLUTION = "density_of_independent_sum"
INTEGRAL_MONOTONE = "integral_monotonicity"
INTERVAL_PROBABILITY = "distribution_function_intervals"
BERNOULLI_MEAN = "bernoulli_proportion_variance"

# -- symbols ----------------------------------------------------------------------------------
x = sp.Symbol("x", real=True)
q = sp.Symbol("q", positive=True)
s = sp.Symbol("s", positive=True)            # q = 1/(1 + s): q in (0, 1) <-> s in (0, oo)
eps = sp.Symbol("epsilon", positive=True)
b = sp.Symbol("b", positive=True)
c = sp.Symbol("c", positive=True)
p = sp.Symbol("p", positive=True)
R = sp.Symbol("R", real=True)
mu = sp.Symbol("mu", real=True)
y = sp.Symbol("y", positive=True)
v = sp.Symbol("v", positive=True)            # v = -y > 0 for the reflected case y < 0
omega = sp.Symbol("omega", positive=True)
y_j = sp.Symbol("y_j", positive=True)
u = sp.Symbol("u", positive=True)            # the argument of the distribution function of e^X
u_real = sp.Symbol("t", real=True)
w = sp.Symbol("w", positive=True)            # b = 1/(1 + w) parametrises 0 < b < 1
z, u1, u2, lo = sp.symbols("z u_1 u_2 ell", real=True)
D = sp.Symbol("D", positive=True)            # the span sup I2 - inf I1 (log space)
delta = sp.Symbol("delta", positive=True)
gamma = sp.Symbol("gamma", real=True)
M_rep = sp.Symbol("M", positive=True)
lam = sp.Symbol("lambda")                    # generating variable: a list of identities as one polynomial identity
R_star = sp.Symbol("R^*", real=True)
t_new = sp.Symbol("tau", nonnegative=True)
a0, b0 = sp.symbols("alpha_0 beta_0", nonnegative=True)
al, be, ga = sp.symbols("alpha beta gamma_0", positive=True)
g1, g2, g3 = sp.symbols("g_1 g_2 g_3", positive=True)
r1, r2 = sp.symbols("r_1 r_2", nonnegative=True)
r3 = sp.Symbol("r_3", positive=True)

Q_IN_S = Parametrization({q: 1 / (1 + s)}, {s: (1 - q) / q})      # q in (0, 1) <-> s > 0
B_IN_W = Parametrization({b: 1 / (1 + w)}, {w: 1 / b - 1})        # b in (0, 1) <-> w > 0
L = sp.log(1 / (1 - q))                      # ln(1/(1-q)), the paper's half-width in log space
B_PRINTED = -4 / eps * sp.log(1 - q)         # Theorem 3.2.2
LOG_RATIO = sp.log((1 + q) / (1 - q))
EPS_TIGHT = 2 / b * LOG_RATIO
B_TIGHT = 2 / eps * LOG_RATIO
RATIO_TIGHT_PRINTED = LOG_RATIO / (2 * L)    # b*/b_printed = eps*(b_printed)/eps
INF_I1 = sp.log(1 - q)                       # the secrets in log space, relative to ln y
SUP_I1 = sp.log(1 + q)
SUP_I2 = sp.log((1 + q) ** 2 / (1 - q))


def params(*ps: Parametrization) -> Parametrization:
    """Several parametrizations of disjoint sets of symbols, applied together."""
    fwd, inv = {}, {}
    for pr in ps:
        fwd.update(pr.forward)
        inv.update(pr.inverse)
    return Parametrization(fwd, inv)


def in_s(e):
    """The expression with q = 1/(1+s) (s > 0), every logarithm of a factored argument split."""
    e = sp.sympify(e).subs(q, 1 / (1 + s))
    e = e.replace(sp.log, lambda a: sp.log(sp.factor(sp.together(a))))
    return sp.expand_log(e, force=False)


def sign_holds(e, need: str, what: str) -> Proof:
    """A mechanical step: the sign of ``e`` read from the assumptions of its symbols."""
    ok = has_sign(e, need)
    return mechanical(ok, f"{what} is {need}" + ("" if ok else " -- not shown"))


def closes(claim: Claim, proof_of) -> Proof:
    """The proof of another registered claim, re-run as a step of this one."""
    return proof_of(claim)


def sinh_form(lower, ratio_minus_one, k):
    """x^k - y^k for x = y (1 + t), y > 0, t > 0, k > 0, written with a manifest sign:
    y^k ((1 + t)^k - 1) = 2 y^k e^{v/2} sinh(v/2), v = k ln(1 + t)."""
    vv = k * sp.log(1 + ratio_minus_one)
    return 2 * lower**k * sp.exp(vv / 2) * sp.sinh(vv / 2)


# ==============================================================================================
# Lemma 3.2.1 (Appendix C)
# ==============================================================================================
def _prove_lemma_first(claim):
    return all_of(
        sign_holds(-q**2, "nonpositive", "paper's chain, first line: -q^2"),
        zero((1 + q) * (1 - q) - (1 - q**2), "paper's chain: 1 - q^2 = (1+q)(1-q)"),
        conclude(claim, param=Q_IN_S))


def _prove_lemma_second(claim):
    return all_of(
        sign_holds(q**2 + 2 * q, "nonnegative", "paper's chain, first line: q^2 + 2q"),
        zero(q**2 + 2 * q + 1 - (q + 1) ** 2, "paper's chain: q^2 + 2q + 1 = (q+1)^2"),
        conclude(claim, param=Q_IN_S))


def _prove_lemma_third(claim):
    return all_of(
        sign_holds(Q_IN_S.apply(q**2 * (q**2 - 2)), "nonpositive",
                   "paper's chain, first line: q^2 (q^2 - 2) at q = 1/(1+s)"),
        zero(q**4 - 2 * q**2 + 1 - (1 + q) ** 2 * (1 - q) ** 2, "paper's chain: q^4 - 2q^2 + 1 = (1+q)^2 (1-q)^2"),
        conclude(claim, param=Q_IN_S))


for _name, _l, _r, _text, _prove in (
        ("first", 1 + q, 1 / (1 - q), "1 + q <= 1/(1 - q)", _prove_lemma_first),
        ("second", 1 / (1 - q), (1 + q) ** 2 / (1 - q), "1/(1 - q) <= (1 + q)^2/(1 - q)", _prove_lemma_second),
        ("third", (1 + q) ** 2 / (1 - q), 1 / (1 - q) ** 3, "(1 + q)^2/(1 - q) <= 1/(1 - q)^3", _prove_lemma_third)):
    register(Claim(
        id=f"puff.lemma321.{_name}", title=f"Lemma 3.2.1, {_name} inequality: {_text} for q in (0, 1)",
        source=LEMMA, kind="inequality", lhs=_l, rhs=_r, relation="<=", conditions=(sp.Lt(q, 1),), proof=_prove,
        note="Proved through q = 1/(1+s), s > 0 (equivalent to 0 < q < 1): rhs - lhs is then a ratio of polynomials "
             "in s with positive coefficients. The steps of the paper's chain (Appendix C) are checked as "
             "identities; the inequality is strict for q in (0, 1)."))


# ==============================================================================================
# Theorem 3.2.2: the chain of the proof
# ==============================================================================================
def _prove_containment(claim):
    return all_of(
        zero(INF_I1 - sp.log(1 - q), "inf I1 = ln y + ln(1-q) = ln y - L exactly (relative to ln y)"),
        mechanical(has_sign(sp.diff(sp.log(x), x).subs(x, y), "positive"),
                   "ln is increasing (d ln x/dx = 1/x > 0), so the containments carry over to log space"),
        conclude(claim, param=Q_IN_S))


register(Claim(
    id="puff.thm322.interval_containment",
    title="Proof of Theorem 3.2.2 (remarks), in units of y > 0: sup I1 = 1+q <= 1/(1-q), "
          "sup I2 = (1+q)^2/(1-q) <= 1/(1-q)^3, inf I2 = 1+q >= 1-q",
    source=THM, kind="sign",
    lhs=sp.Max((1 + q) - 1 / (1 - q), (1 + q) ** 2 / (1 - q) - 1 / (1 - q) ** 3, (1 - q) - (1 + q)),
    relation="<=", conditions=(sp.Lt(q, 1),), proof=_prove_containment,
    note="In units of y > 0: I1 = [1-q, 1+q), I2 = [1+q, (1+q)^2/(1-q)). The statement is that the largest endpoint "
         "excess over the intervals [1-q, 1/(1-q)] and [1-q, 1/(1-q)^3] is <= 0 (Lemma 3.2.1, first and third); "
         "inf I1 = 1-q exactly. Taking logarithms (increasing) gives the two facts the proof uses: |ln t - ln y| <= L "
         "on I1 and <= 3L on I2, L = ln(1/(1-q)) (not a separate check)."))


def _prove_exponent(claim):
    return conclude(claim, param=Q_IN_S)


register(Claim(
    id="puff.thm322.lower_exponent",
    title="(3.2.4): exp(-L/b) = exp(eps ln(1/(1-q))/(4 ln(1-q))) = e^{-eps/4} at b = -(4/eps) ln(1-q)",
    source=THM, kind="identity", lhs=sp.exp(-L / B_PRINTED), rhs=sp.exp(-eps / 4), conditions=(sp.Lt(q, 1),),
    proof=_prove_exponent))
register(Claim(
    id="puff.thm322.upper_exponent",
    title="(3.2.5): exp(3L/b) = exp(-3 eps ln(1/(1-q))/(4 ln(1-q))) = e^{3 eps/4} at b = -(4/eps) ln(1-q)",
    source=THM, kind="identity", lhs=sp.exp(3 * L / B_PRINTED), rhs=sp.exp(3 * eps / 4), conditions=(sp.Lt(q, 1),),
    proof=_prove_exponent))

# the two printed right-hand sides (the common Laplace factor kept as printed)
_DIST = sp.Abs(sp.log(omega / c) - sp.log(y))
_KERNEL_EXP = eps * _DIST / (4 * sp.log(1 - q))
_RHS_324 = -eps / (8 * sp.log(1 - q)) * sp.exp(_KERNEL_EXP + eps * L / (4 * sp.log(1 - q)))
_RHS_325 = -eps / (8 * sp.log(1 - q)) * sp.exp(_KERNEL_EXP - 3 * eps * L / (4 * sp.log(1 - q)))


def _prove_ratio(claim):
    k = 1 / (2 * B_PRINTED) * sp.exp(-_DIST / B_PRINTED)     # Laplace density at ln(omega/c) - ln y
    return all_of(
        cite(CONVOLUTION, "ln M(t) = ln c + ln t + X with X independent of t: given the secret, the density of "
                          "ln M(t) at ln omega is the mixture over the conditional law of ln t of k(ln omega - ln c - "
                          "ln t), k(v) = e^{-|v|/b}/(2b) (c > 0); the Jacobian 1/omega is common to both secrets"),
        cite("triangle_inequality", "|a + d| <= |a| + |d| with a = ln(omega/c) - ln y, d = ln y - ln t, and |d| <= L "
                                    "on I1 (puff.thm322.interval_containment): k(a + d) >= k(a) e^{-L/b}"),
        zero(in_s(_RHS_324 - k * sp.exp(-L / B_PRINTED)), "(3.2.4) is k(a) e^{-L/b} at the printed b"),
        cite("triangle_inequality", "|a + d| >= |a| - |d| and |d| <= 3L on I2: k(a + d) <= k(a) e^{3L/b}"),
        zero(in_s(_RHS_325 - k * sp.exp(3 * L / B_PRINTED)), "(3.2.5) is k(a) e^{3L/b} at the printed b"),
        cite(INTEGRAL_MONOTONE, "integrating the pointwise bounds against the conditional law of ln t (total mass 1): "
                                "P(omega | I1) >= (3.2.4) and P(omega | I2) <= (3.2.5)"),
        zero(in_s(sp.exp(L / B_PRINTED) / sp.exp(-3 * L / B_PRINTED) - sp.exp(eps)),
             "the reverse direction (upper e^{L/b} on I1, lower e^{-3L/b} on I2): e^{4L/b} = e^eps"),
        conclude(claim, param=Q_IN_S))


register(Claim(
    id="puff.thm322.ratio",
    title="Theorem 3.2.2: at b = -(4/eps) ln(1-q) the printed bounds satisfy RHS(3.2.5)/RHS(3.2.4) = e^eps (y > 0)",
    source=THM, kind="identity", lhs=_RHS_325 / _RHS_324, rhs=sp.exp(eps), conditions=(sp.Lt(q, 1),),
    proof=_prove_ratio,
    note="The two printed bounds at b = -(4/eps) ln(1-q) share the factor k(ln(omega/c) - ln y); their ratio is "
         "e^{3eps/4}/e^{-eps/4}. That these bounds give (3.1.5)-(3.1.6) for q% intervals rests on the convolution, "
         "triangle-inequality and integration steps, cited standard results in the proof; the algebra is exact. The proof needs c > 0 (it takes ln c), i.e. b < 1: see the erratum "
         "puff.thm322.bias_correction. Definition 3.1.4 compares P(M = omega | ...), zero for a continuous output; "
         "the paper's own remark reads it for sets W (equivalently densities), which is how it is checked here "
         "(finding puff.thm322.mixture_measure)."))

# -- y < 0: reflection ------------------------------------------------------------------------
_y_neg = defined("y", -v)                    # the paper's y < 0, standing for -v (SymPy does not fold -(-v))
# each secret as (left end, right end, left open?, right open?)
_J1 = ((1 + q) ** 2 / (1 - q) * _y_neg, (1 + q) * _y_neg, True, False)      # ((1+q)^2 y/(1-q), (1+q) y]
_J2 = ((1 + q) * _y_neg, (1 - q) * _y_neg, True, False)                     # ((1+q) y, (1-q) y]
_I1V = ((1 - q) * v, (1 + q) * v, False, True)                              # [(1-q)v, (1+q)v)
_I2V = ((1 + q) * v, (1 + q) ** 2 / (1 - q) * v, False, True)               # [(1+q)v, (1+q)^2 v/(1-q))


def _reflect(iv):
    """(a, b] reflects to [-b, -a)."""
    return (-iv[1], -iv[0], iv[3], iv[2])


def _endpoints(*ivs):
    return sum((iv[0] * lam ** (2 * k) + iv[1] * lam ** (2 * k + 1) for k, iv in enumerate(ivs)), sp.S.Zero)


def _prove_reflection(claim):
    X, t = sp.symbols("X t", real=True)
    th_pos, th_neg = sp.symbols("theta_+ theta_-", nonnegative=True)
    openness = all(_reflect(src)[2:] == dst[2:] for src, dst in ((_J1, _I2V), (_J2, _I1V)))
    return all_of(
        mechanical(openness, "(a, b] reflects to [-b, -a): the reflected secrets are closed on the left and open on "
                             "the right, as the positive pair"),
        zero(c * sp.exp(X) * (-t) + c * sp.exp(X) * t, "M(-t) = -M(t) pathwise (the same X)"),
        zero((th_neg + th_pos) - (th_pos + th_neg), "a prior theta with P(y > 0) + P(y < 0) = 1 reflects to one with "
                                                   "the same property: D of (3.1.3) is closed under t -> -t"),
        cite("data_processing_hockey_stick", "omega -> -omega is a deterministic invertible post-processing, so "
                                             "(3.1.5)-(3.1.6) for the pair (I2(-y), I1(-y)) at -W give them for the "
                                             "y < 0 pair at W, with the same eps (both directions)"),
        conclude(claim))


register(Claim(
    id="puff.thm322.reflection",
    title="Theorem 3.2.2, y = -v < 0: the pair of (3.1.2) reflected about 0 has the endpoints of the pair (I2, I1) "
          "for v > 0",
    source=THM, kind="identity", lhs=_endpoints(_reflect(_J1), _reflect(_J2)), rhs=_endpoints(_I2V, _I1V),
    conditions=(sp.Lt(q, 1),), proof=_prove_reflection,
    note="y = -v < 0 (v > 0). The pair ((1+q)^2 y/(1-q), (1+q)y], ((1+q)y, (1-q)y] reflects to [(1+q)v, (1+q)^2 v/(1-q)), "
         "[(1-q)v, (1+q)v): the positive pair for v in the other order (the definition is symmetric in the pair). "
         "The four endpoint identities are stated as one identity of polynomials in lambda. The proof also checks "
         "that the reflected ends are closed/open as in the positive pair and that M(-t) = -M(t), and cites the "
         "data-processing inequality for the reflection omega -> -omega of the output."))


# -- beyond the document: the tight epsilon ------------------------------------------------------
# log space: I1 and I2 relative to ln y are [ln(1-q), ln(1+q)) and [ln(1+q), ln((1+q)^2/(1-q))); a point-mass
# prior at u in I1 (u1) or I2 (u2) gives the output density k(z - u), k(v) = e^{-|v|/b}/(2b), z = ln(omega/c) - ln y.
# The privacy loss is the log density ratio (|z - u2| - |z - u1|)/b (one direction) or its negative.
_KERNEL_CONDITIONS = (sp.Le(lo, u1), sp.Le(u1, u2), sp.Lt(u2, lo + D))
_SPAN = Parametrization(
    {u1: lo + D * r1 / (r1 + r2 + r3), u2: lo + D * (r1 + r2) / (r1 + r2 + r3)},
    {r1: u1 - lo, r2: u2 - u1, r3: lo + D - u2})


def _prove_kernel(claim):
    return all_of(cite("triangle_inequality", "||z - u1| - |z - u2|| <= |u2 - u1| <= D; checked piece by piece below"),
                  conclude_cases(claim, z, [u1, u2], param=_SPAN))


_KERNEL_NOTE = ("The left side is the privacy loss ln k(z - u1) - ln k(z - u2) of point-mass priors at u1 and u2 "
                "(or its negative), k(v) = e^{-|v|/b}/(2b); D = sup I2 - inf I1. ell = inf I1 = ln(1-q) and ell + D = sup I2 = ln((1+q)^2/(1-q)) relative to ln y; u1 in I1 and u2 in I2 "
                "satisfy ell <= u1 <= u2 < ell + D (I1 lies left of I2, I2 is open at the right). The bound holds for "
                "every output z; the pieces z <= u1, u1 <= z <= u2, z >= u2 are checked, the points parametrised by the "
                "gaps r1 = u1 - ell, r2 = u2 - u1, r3 = ell + D - u2 (> 0).")
KERNEL = register(Claim(
    id="puff.tight.kernel_bound",
    title="Kernel bound: (|z - u2| - |z - u1|)/b <= D/b for every real z when ell <= u1 <= u2 < ell + D",
    source=DEF314, kind="inequality", lhs=(sp.Abs(z - u2) - sp.Abs(z - u1)) / b, rhs=D / b, relation="<=",
    conditions=_KERNEL_CONDITIONS, proof=_prove_kernel, note=_KERNEL_NOTE))
KERNEL_REVERSE = register(Claim(
    id="puff.tight.kernel_bound_reverse",
    title="Kernel bound, other direction: (|z - u1| - |z - u2|)/b <= D/b for every real z when "
          "ell <= u1 <= u2 < ell + D",
    source=DEF314, kind="inequality", lhs=(sp.Abs(z - u1) - sp.Abs(z - u2)) / b, rhs=D / b, relation="<=",
    conditions=_KERNEL_CONDITIONS, proof=_prove_kernel, note=_KERNEL_NOTE))
_LOSS_AT_ENDS = (sp.Abs(z - u2) - sp.Abs(z - u1)) / b
ATTAINED = register(Claim(
    id="puff.tight.epsilon_limit",
    title="The kernel bound is approached: at z = u1 = ell, u2 = ell + D - delta the loss |D - delta|/b -> D/b "
          "as delta -> 0+",
    source=DEF314, kind="limit",
    lhs=sp.Limit(_LOSS_AT_ENDS.subs({z: lo, u1: lo, u2: lo + D - delta}), delta, 0, "+"), rhs=D / b,
    note="Point masses at u1 = ell = inf I1 and u2 = ell + D - delta, output z = u1. u1 = inf I1 belongs to I1 (closed on the left); u2 = sup I2 - delta belongs to I2 for small delta > 0; the "
         "output z = u1 lies left of both. The loss D/b itself is not attained (I2 is open at the right)."))


def _prove_tight_epsilon(claim):
    return all_of(
        closes(KERNEL, _prove_kernel), closes(KERNEL_REVERSE, _prove_kernel), conclude_evaluation(ATTAINED),
        cite(INTEGRAL_MONOTONE, "for any priors theta in D the output densities given the two secrets are mixtures "
                                "int k(z - u1) theta_1(du1) and int k(z - u2) theta_2(du2); bounding k(z - u1) <= "
                                "e^{D/b} k(z - u2) pointwise for all u1, u2 and integrating twice bounds their ratio by "
                                "e^{D/b}, both directions (the factor c and the Jacobian cancel as in Theorem 3.2.2)"),
        cite(CONVOLUTION, "the prior with one atom in each secret, (delta_{y e^{u1}} + delta_{y e^{u2}})/2, is in D and "
                          "gives both secrets positive probability; given each secret the output density is the single "
                          "shifted kernel k(z - u_k), so the limit above shows that no eps < D/b satisfies (3.1.5)-(3.1.6) "
                          "for every prior: the least eps is D/b; for y < 0 the same by puff.thm322.reflection"),
        conclude(claim, param=Q_IN_S))


register(Claim(
    id="puff.tight.epsilon",
    title="Span of I1 and I2 in log space over b: (sup I2 - inf I1)/b = (2/b) ln((1+q)/(1-q)) for q in (0, 1)",
    source=DEF314, kind="identity", lhs=(SUP_I2 - INF_I1) / b, rhs=EPS_TIGHT, conditions=(sp.Lt(q, 1),),
    proof=_prove_tight_epsilon,
    note="Beyond the document: this is the tight Pufferfish epsilon at scale b, the least eps. The statement checked "
         "last is the span: sup I2 - inf I1 = ln((1+q)^2/(1-q)) - ln(1-q) = 2 ln((1+q)/(1-q)); that D/b is the least "
         "eps rests on the kernel bounds (both directions) and the limit, re-checked in the proof, and on the cited "
         "integration over priors. The supremum is approached but not attained, yet no smaller eps works."))


def _prove_tight_scale(claim):
    t = sp.Symbol("tau_1", positive=True)
    below = Claim(id=claim.id + "[converse]", title="eps*(b) > eps for b < b*", source=claim.source,
                  kind="inequality", lhs=EPS_TIGHT, rhs=eps, relation=">",
                  conditions=(sp.Lt(q, 1), sp.Lt(b, B_TIGHT)))
    converse = conclude(below, param=params(Q_IN_S, Parametrization({b: B_TIGHT.subs(q, 1 / (1 + s)) / (1 + t)},
                                                                    {t: B_TIGHT / b - 1})))
    return all_of(
        zero(EPS_TIGHT.subs(b, B_TIGHT) - eps, "eps*(b*(eps)) = eps"),
        converse,
        conclude(claim, param=params(Q_IN_S, Parametrization({b: B_TIGHT.subs(q, 1 / (1 + s)) + t_new},
                                                             {t_new: b - B_TIGHT}))))


register(Claim(
    id="puff.tight.scale",
    title="Tight scale: eps*(b) = (2/b) ln((1+q)/(1-q)) <= eps for every b >= b*(eps) = (2/eps) ln((1+q)/(1-q))",
    source=DEF314, kind="inequality", lhs=EPS_TIGHT, rhs=eps, relation="<=",
    conditions=(sp.Lt(q, 1), sp.Ge(b, B_TIGHT)), proof=_prove_tight_scale,
    note="Beyond the document; from puff.tight.epsilon. The converse (b < b* gives eps*(b) > eps) is concluded in "
         "the proof on the same statement with the relation reversed, so b* is the least scale with eps*(b) <= eps."))

_VS_RHS = sp.Rational(1, 2) + sp.log(1 + q) / (2 * L)
register(Claim(
    id="puff.tight.vs_printed",
    title="b*/b_printed = ln((1+q)/(1-q)) / (2 ln(1/(1-q))) = 1/2 + ln(1+q)/(2 ln(1/(1-q)))",
    source=THM, kind="identity", lhs=B_TIGHT / B_PRINTED, rhs=_VS_RHS, conditions=(sp.Lt(q, 1),),
    proof=lambda claim: all_of(zero(in_s(B_TIGHT / B_PRINTED - RATIO_TIGHT_PRINTED), "b*/b_printed = ln((1+q)/(1-q))/(2L)"),
                               conclude(claim, param=Q_IN_S)),
    note="The same number is eps*(b_printed)/eps: the tight epsilon of the printed mechanism is this fraction "
         "of the nominal eps. It lies in (1/2, 1) (puff.tight.vs_printed_above_half, "
         "puff.tight.vs_printed_below_one), so the printed scale is valid but conservative; at q = 0.15 it is "
         "0.929986656960696423529528346764 (the exact expression evaluated with mpmath, 30 digits), i.e. the "
         "printed b = -(4/eps) ln 0.85 is about 7.5% larger than needed (eps = 1.3: b = 0.500058, b* = 0.465047; "
         "the printed mechanism is 1.208983-Pufferfish)."))
register(Claim(
    id="puff.tight.vs_printed_below_one",
    title="(1-q)^{-2} > (1+q)/(1-q) for q in (0, 1), i.e. e^{eps b_printed/2} > e^{eps b*/2}: b*/b_printed < 1",
    source=LEMMA, kind="inequality", lhs=sp.exp(eps * B_PRINTED / 2), rhs=sp.exp(eps * B_TIGHT / 2), relation=">",
    conditions=(sp.Lt(q, 1),),
    proof=lambda claim: all_of(
        mechanical(has_sign(sp.diff(sp.exp(x), x), "positive"), "exp is increasing: the statement is b_printed > b*, "
                                                                "i.e. b*/b_printed < 1 (both scales positive)"),
        conclude(claim, param=Q_IN_S)),
    note="Equivalent to (1+q)(1-q) < 1, Lemma 3.2.1 first, strict. b*/b_printed < 1: the printed scale is "
         "conservative."))
register(Claim(
    id="puff.tight.vs_printed_above_half",
    title="b*/b_printed = ln((1+q)/(1-q))/(2 ln(1/(1-q))) > 1/2 for q in (0, 1)",
    source=LEMMA, kind="inequality", lhs=RATIO_TIGHT_PRINTED, rhs=sp.Rational(1, 2), relation=">",
    conditions=(sp.Lt(q, 1),),
    proof=lambda claim: all_of(zero(in_s(RATIO_TIGHT_PRINTED - sp.Rational(1, 2) - sp.log(1 + q) / (2 * L)),
                                    "ratio - 1/2 = ln(1+q)/(2L)"),
                               conclude(claim, param=Q_IN_S))))
register(Claim(
    id="puff.tight.vs_printed_q0", title="b*/b_printed -> 1 as q -> 0+", source=THM, kind="limit",
    lhs=sp.Limit(RATIO_TIGHT_PRINTED, q, 0, "+"), rhs=1,
    note="Small q: ln((1+q)/(1-q)) ~ 2q and ln(1/(1-q)) ~ q, so the printed scale is nearly tight."))
register(Claim(
    id="puff.tight.vs_printed_q1", title="b*/b_printed -> 1/2 as q -> 1-", source=THM, kind="limit",
    lhs=sp.Limit(RATIO_TIGHT_PRINTED, q, 1, "-"), rhs=sp.Rational(1, 2),
    note="ln(1+q) stays bounded while ln(1/(1-q)) -> oo: the printed scale is twice the tight one."))


def _eps_q_point(rng):
    return rng.uniform(0.05, 5.0), rng.uniform(0.02, 0.98)


formula("pufferfish_scale_printed", B_PRINTED, (eps, q), ("puff.thm322.ratio",), THM,
        "Laplace scale of Theorem 3.2.2: b = -(4/eps) ln(1 - q) (eps > 0, q in (0, 1)).", sample=_eps_q_point)
formula("pufferfish_scale_tight", B_TIGHT, (eps, q), ("puff.tight.scale",), DEF314,
        "Tight Laplace scale for eps-Pufferfish q% intervals: b* = (2/eps) ln((1+q)/(1-q)).", sample=_eps_q_point)
formula("pufferfish_epsilon_tight", EPS_TIGHT, (b, q), ("puff.tight.epsilon",), DEF314,
        "Tight Pufferfish epsilon of the log-Laplace mechanism at scale b: (2/b) ln((1+q)/(1-q)).",
        sample=_eps_q_point)


# -- Theorem 3.2.2's bias correction is 1/E(e^X) only for b < 1 ----------------------------------
def _prove_bias_correction(claim):
    return all_of(
        zero(B_PRINTED.subs(eps, -4 * sp.log(1 - q) * (1 + w)) - 1 / (1 + w),
             "eps = -4 ln(1-q)(1+w), w > 0 (i.e. eps > -4 ln(1-q)) gives b = 1/(1+w) < 1, and every b in (0, 1) is so"),
        conclude_evaluation(claim))


_E_EX = r"\mathbb{E}[e^X]"                  # X ~ Laplace(0, b): the two tails of e^x times the density
_BIAS_LHS = 1 / defined(_E_EX, expectation(sp.exp(x), b=B_PRINTED, mu=0))
_B_W = 1 / (1 + w)
erratum(
    "puff.thm322.bias_correction",
    printed=Claim(
        id="puff.thm322.bias_correction.printed",
        title="Theorem 3.2.2 as printed: 1/E(e^X) = c = 1 - b^2 at b = -(4/eps) ln(1-q) for every eps > 0, q in (0, 1)",
        source=THM, kind="identity", lhs=_BIAS_LHS, rhs=1 - B_PRINTED**2, conditions=(sp.Lt(q, 1),),
        counterexample={eps: 1, q: sp.Rational(1, 2)},
        note="E(e^X) stands for its two tails, X ~ Laplace(0, b) at b = -(4/eps) ln(1-q)."),
    corrected=Claim(
        id="puff.thm322.bias_correction",
        title="Theorem 3.2.2, corrected: 1/E(e^X) = 1 - b^2 = c for every 0 < b < 1, i.e. eps > -4 ln(1 - q)",
        source=THM, kind="identity", lhs=1 / defined(_E_EX, expectation(sp.exp(x), b=_B_W, mu=0)), rhs=1 - _B_W**2,
        proof=_prove_bias_correction,
        note="b = 1/(1+w), w > 0, covers 0 < b < 1; E(e^X) stands for its two Laplace(0, b) tails, evaluated exactly. For eps <= -4 ln(1-q) (b >= 1) E(e^X) is infinite "
             "(laplace.mgf_ab_plus_one and laplace.mgf_ab_above_one) and c = 1 - b^2 <= 0. The privacy conclusion "
             "survives (for c < 0 the proof works with ln|c|; c = 0 publishes 0), but the printed proof takes ln c, "
             "and the mechanism is no longer unbiased: e.g. q = 0.15 needs eps > 0.650 for b < 1."),
    printed_text=("Theorem 3.2.2: Given [...] privacy parameter eps > 0, the log-Laplace multiplicative perturbation "
                  "mechanism M(Data = y) = c e^X y satisfies [...]-Pufferfish, where X is distributed as Laplace(0, b) "
                  "with b = -(4/eps) ln(1 - q) and c = 1 - b^2 (bias correction factor, equal to 1/E(e^X), which can be "
                  "obtained from Appendix A.2 Proposition 4)."),
    corrected_text=("[...] where X is distributed as Laplace(0, b) with b = -(4/eps) ln(1 - q) and c = 1 - b^2 (bias "
                    "correction factor, equal to 1/E(e^X) when 0 < b < 1, i.e. when eps > -4 ln(1 - q))."),
    explanation=("Theorem 3.2.2 allows every eps > 0 and calls c = 1 - b^2 the bias correction 1/E(e^X) "
                 "(Proposition 4). With b = -(4/eps) ln(1-q) this requires b < 1, i.e. eps > -4 ln(1-q). At eps = 1, "
                 "q = 1/2, b = 4 ln 2 > 1: E(e^X) = oo, so 1/E(e^X) = 0, while 1 - b^2 = 1 - 16 ln^2 2 < 0. (The "
                 "case study's eps in [1.1, 1.9], q in [0.06, 0.14] all have b < 0.55.)"))


# ==============================================================================================
# Appendix B: disclosure risk, mu = 0
# ==============================================================================================
def max0(e):
    """max(e, 0) = (e + |e|)/2."""
    return (e + sp.Abs(e)) / 2


def max1(e):
    """max(e, 1) = (e + 1 + |e - 1|)/2."""
    return (e + 1 + sp.Abs(e - 1)) / 2


def exp_cdf(t, k=b):
    """H(t) = P(e^X <= t), X ~ Laplace(0, k): 0 for t <= 0, t^{1/k}/2 on (0, 1], 1 - t^{-1/k}/2 for t >= 1,
    written without branches."""
    return (max0(t) ** (1 / k) * max1(t) ** (-1 / k) + 1 - max1(t) ** (-1 / k)) / 2


def laplace_cdf(t, k=b, m=0):
    """F_X(t) = H(e^{t - m}), the Laplace(m, k) distribution function (the paper's piecewise F_X)."""
    return exp_cdf(sp.exp(t - m), k)


A_R = (1 + p - R) / c
B_R = (1 - p - R) / c
RISK = exp_cdf(A_R) - exp_cdf(B_R)     # f(R) = P(1 - p - R < c e^X < 1 + p - R)
G = (1 / b - 1) * sp.log(B_R) + (1 / b + 1) * sp.log(A_R)
_RISK_NOTE = ("The left side is f(R) = P(1-p-R < c e^X < 1+p-R) = H((1+p-R)/c) - H((1-p-R)/c), H the distribution "
              "function of e^X (puff.b1.exp_cdf_*: H(u) = F_X(ln u) for u > 0, 0 for u <= 0; "
              "distribution_function_intervals). Proved for every b > 0 and c > 0 (the paper's c = 1 - b^2 with "
              "0 < b < 1 is a special case) by writing A = (1+p-R)/c and B = (1-p-R)/c over the piece's range. The "
              "paper's rearrangement divides by y_j, tacitly y_j > 0 (for y_j < 0 the printed event (1-p)y_j < ... < "
              "(1+p)y_j is empty; the p% interval is then ((1+p)y_j, (1-p)y_j) and the same f(R) results).")


# -- H is the paper's F_X(ln u) ---------------------------------------------------------------------
def _cdf_link(param):
    return lambda claim: all_of(
        cite(INTERVAL_PROBABILITY, "P(e^X <= u) = P(X <= ln u) = F_X(ln u) for u > 0 (exp increasing), and 0 for u <= 0"),
        conclude(claim, param=param))


for _id, _title, _left, _right, _cond, _param in (
        ("puff.b1.exp_cdf_upper", "H(u) = F_X(ln u) = 1 - u^{-1/b}/2 for u >= 1", exp_cdf(u), cdf(sp.log(u), b, 0),
         (sp.Ge(u, 1),), Parametrization({u: 1 + a0}, {a0: u - 1})),
        ("puff.b1.exp_cdf_lower", "H(u) = F_X(ln u) = u^{1/b}/2 for 0 < u < 1", exp_cdf(u), cdf(sp.log(u), b, 0),
         (sp.Lt(u, 1),), Parametrization({u: 1 / (1 + al)}, {al: 1 / u - 1})),
        ("puff.b1.exp_cdf_zero", "H(t) = P(e^X <= t) = 0 for t <= 0", exp_cdf(u_real), sp.S.Zero, (sp.Le(u_real, 0),),
         Parametrization({u_real: -a0}, {a0: -u_real}))):
    register(Claim(
        id=_id, title=f"Distribution function of e^X, X ~ Laplace(0, b): {_title}", source=PROP1, kind="identity",
        lhs=_left, rhs=_right, conditions=_cond, proof=_cdf_link(_param),
        note="H(u) = 1/2 max(u,0)^{1/b} max(u,1)^{-1/b} + 1/2 - 1/2 max(u,1)^{-1/b} is the branch-free form used for "
             "the risk; F_X is the piecewise Laplace distribution function of the proof of Proposition 1 "
             "(laplace.cdf_left, laplace.cdf_right: the integral of the density)."))


def P1(a, bb, k=b):
    return sp.Rational(1, 2) * (bb ** (-1 / k) - a ** (-1 / k))


def P2(a, bb, k=b):
    return 1 - sp.Rational(1, 2) * (a ** (-1 / k) + bb ** (1 / k))


def P3(a, bb, k=b):
    return sp.Rational(1, 2) * (a ** (1 / k) - bb ** (1 / k))


def P4(a, bb, k=b):
    return 1 - sp.Rational(1, 2) * a ** (-1 / k)


def P5(a, bb, k=b):
    return sp.Rational(1, 2) * a ** (1 / k)


def P6(a, bb, k=b):
    return sp.S.Zero


PIECES = {1: P1, 2: P2, 3: P3, 4: P4, 5: P5, 6: P6}
# each range as (lower bound, lower strict?, upper bound, upper strict?); None: unbounded
RANGES = {
    1: (None, None, 1 - p - c, False),
    2: (1 - p - c, True, sp.Min(1 - p, 1 + p - c), False),
    3: (1 + p - c, True, 1 - p, True),
    4: (1 - p, False, 1 + p - c, False),
    5: (sp.Max(1 + p - c, 1 - p), False, 1 + p, True),
    6: (1 + p, False, None, None),
}
# the same ranges with min/max split (equivalent conjunctions): the claims' conditions
ELEMENTARY = {
    1: (sp.Le(R, 1 - p - c),),
    2: (sp.Gt(R, 1 - p - c), sp.Le(R, 1 - p), sp.Le(R, 1 + p - c)),
    3: (sp.Gt(R, 1 + p - c), sp.Lt(R, 1 - p)),
    4: (sp.Ge(R, 1 - p), sp.Le(R, 1 + p - c)),
    5: (sp.Ge(R, 1 + p - c), sp.Ge(R, 1 - p), sp.Lt(R, 1 + p)),
    6: (sp.Ge(R, 1 + p),),
}
GLOBAL = (sp.Lt(p, 1),)


def ab_param(a_e, b_e, inverse) -> Parametrization:
    """(p, R) from A = (1+p-R)/c and B = (1-p-R)/c written in new symbols: p = c(A - B)/2, R = 1 - c(A + B)/2,
    as sums of the terms c A/2 and c B/2, so that 1 + p - R and 1 - p - R collapse to c A and c B on substitution."""
    half_a, half_b = c * a_e / 2, c * b_e / 2
    return Parametrization({p: half_a - half_b, R: 1 - half_a - half_b}, inverse)


_S3 = g1 + g2 + g3
PIECE_PARAMS = {   # each covers the piece's range: A, B in new symbols whose signs follow from the conditions
    1: ab_param(1 + b0 + al, 1 + b0, {b0: (1 - p - R) / c - 1, al: 2 * p / c}),
    2: ab_param(1 + a0, b0 / (1 + b0), {a0: (1 + p - R) / c - 1, b0: (1 - p - R) / (c - 1 + p + R)}),
    3: ab_param((g1 + g2) / _S3, g1 / _S3, {g1: (1 - p - R) / c, g2: 2 * p / c, g3: (c - 1 - p + R) / c}),
    4: ab_param(1 + a0, -b0, {a0: (1 + p - R) / c - 1, b0: -(1 - p - R) / c}),
    5: ab_param(1 / (1 + a0), -b0, {a0: c / (1 + p - R) - 1, b0: -(1 - p - R) / c}),
    6: ab_param(-a0, -a0 - be, {a0: -(1 + p - R) / c, be: 2 * p / c}),
}
PIECE_PARAM_TEXT = {
    1: "B = 1 + beta_0 >= 1, A = B + alpha (alpha = 2p/c)",
    2: "A = 1 + alpha_0 >= 1 > B = beta_0/(1 + beta_0) >= 0",
    3: "0 < B = g_1/S < A = (g_1 + g_2)/S < 1, S = g_1 + g_2 + g_3 (the three gaps B, A - B, 1 - A)",
    4: "A = 1 + alpha_0 >= 1, B = -beta_0 <= 0",
    5: "0 < A = 1/(1 + alpha_0) <= 1, B = -beta_0 <= 0",
    6: "A = -alpha_0 <= 0, B = A - beta",
}


def _rhs(k):
    return PIECES[k](A_R, B_R)


def _prove_piece(claim, k):
    return all_of(
        cite(INTERVAL_PROBABILITY, "the risk P(B < e^X < A) is H(A) - H(B), H the (continuous) distribution function "
                                   "of e^X"),
        conclude(claim, param=PIECE_PARAMS[k]))


_PIECE_TITLES = {
    1: "f(R) = 1/2 [((1-p-R)/c)^{-1/b} - ((1+p-R)/c)^{-1/b}] for R <= 1-p-c",
    2: "f(R) = 1 - 1/2 [((1+p-R)/c)^{-1/b} + ((1-p-R)/c)^{1/b}] for 1-p-c < R <= min(1-p, 1+p-c)",
    3: "f(R) = 1/2 [((1+p-R)/c)^{1/b} - ((1-p-R)/c)^{1/b}] for 1+p-c < R < 1-p",
    4: "f(R) = 1 - 1/2 ((1+p-R)/c)^{-1/b} for 1-p <= R <= 1+p-c",
    5: "f(R) = 1/2 ((1+p-R)/c)^{1/b} for max(1+p-c, 1-p) <= R < 1+p",
    6: "f(R) = 0 for R >= 1+p",
}
PIECE_CLAIMS = {}
for _k in range(1, 7):
    PIECE_CLAIMS[_k] = register(Claim(
        id=f"puff.b13.piece{_k}", title=f"Equation b.1.3, piece {_k}: {_PIECE_TITLES[_k]}",
        source=COR, kind="identity", lhs=RISK, rhs=_rhs(_k), conditions=GLOBAL + ELEMENTARY[_k],
        proof=(lambda claim, k=_k: _prove_piece(claim, k)),
        note=_RISK_NOTE + f" Parametrization of the range: {PIECE_PARAM_TEXT[_k]}."))


# -- the formulas of adjacent pieces agree at the breakpoints ---------------------------------------
def piece_at(k, point, shown):
    """The formula of piece k of b.1.3 at R = ``point``, in the notation f_k(``shown``): SymPy does not look
    inside, so the two sides of a junction do not cancel before the engine's check."""
    return defined(f"f_{k}({shown})", _rhs(k).subs(R, point))


_JUNCTIONS = (   # (left piece, right piece, breakpoint, as shown, when the two pieces meet there)
    (1, 2, 1 - p - c, "1-p-c", "always"),
    (2, 3, 1 + p - c, "1+p-c", "c > 2p"),
    (3, 5, 1 - p, "1-p", "c > 2p"),
    (2, 4, 1 - p, "1-p", "c <= 2p"),
    (4, 5, 1 + p - c, "1+p-c", "c <= 2p"),
    (5, 6, 1 + p, "1+p", "always"),
)
register(Claim(
    id="puff.b13.continuity",
    title="Equation b.1.3: at each of its 6 junctions R0 the formulas of the two pieces meeting there agree, "
          "f_k(R0) = f_l(R0)",
    source=COR, kind="identity",
    lhs=sum((piece_at(j[0], j[2], j[3]) * lam**n for n, j in enumerate(_JUNCTIONS)), sp.S.Zero),
    rhs=sum((piece_at(j[1], j[2], j[3]) * lam**n for n, j in enumerate(_JUNCTIONS)), sp.S.Zero),
    proof=lambda claim: conclude(claim),
    note="f_k(R) is the formula of piece k of b.1.3 (puff.b13.piece1-6), A = (1+p-R)/c, B = (1-p-R)/c. Junctions: "
         "R = 1-p-c (pieces 1|2, B = 1), R = 1+p-c (2|3, A = 1, when c > 2p), R = 1-p (3|5, B = 0, c > 2p), R = 1-p "
         "(2|4, c <= 2p), R = 1+p-c (4|5, c <= 2p), R = 1+p (5|6, A = 0). Each identity is checked for every p and "
         "c > 0, b > 0, whether or not the two pieces meet there; which pieces meet at which breakpoint for each "
         "order type: puff.b13.cases_partition. The six identities are stated as one identity of polynomials in "
         "lambda. (The risk f itself is continuous: H is.)"))

_GRID = tuple(Fraction(n, d) for n, d in ((1, 20), (1, 10), (3, 20), (1, 5), (3, 10), (1, 2), (3, 4), (9, 10), (19, 20)))
_B_GRID = (Fraction(1, 3), Fraction(1, 2), Fraction(2, 3))


def _bounds(k):
    lo_, lo_strict, hi_, hi_strict = RANGES[k]
    mm = [{"Min": min, "Max": max}]
    flo = sp.lambdify((p, c), lo_, modules=mm) if lo_ is not None else None
    fhi = sp.lambdify((p, c), hi_, modules=mm) if hi_ is not None else None
    return flo, lo_strict, fhi, hi_strict


def _holds(bounds, Rv, pv, cv) -> bool:
    flo, lo_strict, fhi, hi_strict = bounds
    if flo is not None:
        lo_ = flo(pv, cv)
        if (Rv <= lo_) if lo_strict else (Rv < lo_):
            return False
    if fhi is not None:
        hi_ = fhi(pv, cv)
        if (Rv >= hi_) if hi_strict else (Rv > hi_):
            return False
    return True


def _value(k, Rv, pv, cv, bv):
    Q = sp.Rational
    return PIECES[k](Q(1 + pv - Rv) / Q(cv), Q(1 - pv - Rv) / Q(cv), Q(bv))


_PARTITION_SCOPE = ("108 pairs (p, c) on a grid (p, c in {1/20, ..., 19/20} and c = 1 - b^2), covering the three "
                    "order types of the breakpoints; every breakpoint and gap of each")


def _enumerate_partition(claim) -> Enumeration:
    bounds = {k: _bounds(k) for k in PIECES}
    cases, kinds = 0, set()
    combos = [(pv, cv) for pv in _GRID for cv in _GRID] + [(pv, 1 - bv * bv) for pv in _GRID for bv in _B_GRID]
    for pv, cv in combos:
        kinds.add((cv > 2 * pv) - (cv < 2 * pv))
        bps = sorted({1 - pv - cv, 1 + pv - cv, 1 - pv, 1 + pv})
        gaps = [bps[0] - 1] + [(a + t) / 2 for a, t in zip(bps, bps[1:])] + [bps[-1] + 1]
        holds_at = {Rv: [k for k in PIECES if _holds(bounds[k], Rv, pv, cv)] for Rv in bps + gaps}
        cex = {"p": str(pv), "c": str(cv)}
        for Rv in gaps:
            cases += 1
            if len(holds_at[Rv]) != 1:
                return Enumeration(False, cases, f"open gap point satisfies pieces {holds_at[Rv]}", {**cex, "R": str(Rv)},
                                   scope=_PARTITION_SCOPE)
        has3 = any(3 in ks for ks in holds_at.values())
        has4 = any(4 in ks for ks in holds_at.values())
        if has3 != (cv > 2 * pv) or has4 != (cv <= 2 * pv):
            return Enumeration(False, cases, "piece 3 / piece 4 existence is not c > 2p / c <= 2p", cex,
                               scope=_PARTITION_SCOPE)
        for bv in _B_GRID:
            for i, Rv in enumerate(bps):
                cases += 1
                left_k, right_k = holds_at[gaps[i]][0], holds_at[gaps[i + 1]][0]
                if not holds_at[Rv]:
                    return Enumeration(False, cases, "breakpoint satisfies no piece", {**cex, "R": str(Rv)},
                                       scope=_PARTITION_SCOPE)
                vals = [_value(k, Rv, pv, cv, bv) for k in holds_at[Rv]]
                vals += [_value(left_k, Rv, pv, cv, bv), _value(right_k, Rv, pv, cv, bv)]
                if any(not is_zero(val - vals[0]) for val in vals[1:]):
                    return Enumeration(False, cases, f"pieces {holds_at[Rv]} (neighbours {left_k}, {right_k}) disagree",
                                       {**cex, "R": str(Rv), "b": str(bv)}, scope=_PARTITION_SCOPE)
    if kinds != {-1, 0, 1}:
        return Enumeration(False, cases, f"order types covered: {kinds}", scope=_PARTITION_SCOPE)
    points = []
    for pv, cv in combos:
        bps = sorted({1 - pv - cv, 1 + pv - cv, 1 - pv, 1 + pv})
        gaps = [bps[0] - 1] + [(a + t) / 2 for a, t in zip(bps, bps[1:])] + [bps[-1] + 1]
        points += [{p: sp.Rational(pv), c: sp.Rational(cv), R: sp.Rational(Rv)} for Rv in bps + gaps]
    counted = exhaust(claim, points, scope=_PARTITION_SCOPE)
    return dataclasses.replace(counted, cases=cases + counted.cases, detail=(
        "the count of ranges containing R, evaluated at every breakpoint and gap point, is >= 1; every open gap "
        "satisfies exactly one range; at every breakpoint, for b in {1/3, 1/2, 2/3}, every range holding there and "
        "both neighbouring formulas give the same exact value; piece 3 occurs iff c > 2p, piece 4 iff c <= 2p. Which "
        "ranges hold at R depends only on the order type and the position of R among the breakpoints; the grid covers "
        "the three order types"))


_COUNT = sum(sp.Piecewise((1, sp.And(*ELEMENTARY[k])), (0, True)) for k in PIECES)
_D_GAP = sp.Symbol("d", positive=True)          # c = 2p + d when c > 2p
_E_GAP = sp.Symbol("e", nonnegative=True)       # p = (c + e)/2 when c <= 2p


def _prove_partition(claim: Claim) -> Proof:
    """Split on the sign of 2p - c (the order of the breakpoints 1 - p and 1 + p - c); in each case the
    breakpoints 1 - c - p < ... < 1 + p are ordered under a parametrization of the case, and the count of ranges
    is evaluated on every open piece and at every breakpoint of the line of R."""
    return conclude_split(
        claim, 2 * p - c,
        lambda case: case_pieces(case, R, [1 - c - p, 1 - p, 1 + p - c, 1 + p],
                                 Parametrization({p: (c + _E_GAP) / 2}, {_E_GAP: 2 * p - c})),
        lambda case: case_pieces(case, R, [1 - c - p, 1 + p - c, 1 - p, 1 + p],
                                 Parametrization({c: 2 * p + _D_GAP}, {_D_GAP: c - 2 * p})))


register(Claim(
    id="puff.b13.cases_partition",
    title="Equation b.1.3: the ranges of the five pieces cover every real R (the count of ranges containing R is "
          ">= 1), 0 < p < 1, 0 < c < 1",
    source=COR, kind="inequality", lhs=_COUNT, rhs=1, relation=">=", conditions=GLOBAL + (sp.Lt(c, 1),),
    proof=_prove_partition, enumeration=_enumerate_partition,
    note="Proved for every (p, c) by the split c <= 2p / c > 2p and, in each case, the pieces of the line of R. "
         "The enumeration on 108 grid pairs checks more than the stated relation: that the ranges overlap only "
         "where their formulas agree, and that piece 3 occurs iff c > 2p and piece 4 iff c <= 2p. "
         "lhs counts the ranges containing R. Overlaps: R = 1-p (pieces 2 and 4) and R = 1+p-c (4 and 5) when "
         "c < 2p, R = 1-p (2, 4, 5) when c = 2p; none when c > 2p. The paper's remark 'the third and fourth case "
         "cannot occur at the same time' is confirmed: piece 3's range (1+p-c, 1-p) is non-empty iff c > 2p, "
         "piece 4's [1-p, 1+p-c] iff c <= 2p."))


# -- monotonicity in R --------------------------------------------------------------------------------
_K = 1 / (2 * b * c)
_DERIV = {
    1: _K * (B_R ** (-1 / b - 1) - A_R ** (-1 / b - 1)),
    2: _K * (B_R ** (1 / b - 1) - A_R ** (-1 / b - 1)),
    3: _K * (B_R ** (1 / b - 1) - A_R ** (1 / b - 1)),
    4: -_K * A_R ** (-1 / b - 1),
    5: -_K * A_R ** (1 / b - 1),
}
_INTERIOR2 = (sp.Gt(R, 1 - p - c), sp.Lt(R, 1 - p), sp.Lt(R, 1 + p - c))
_B_LT_1 = (sp.Lt(b, 1),)
_INTERIOR2_PARAM = ab_param(1 + al, be / (1 + be), {al: (1 + p - R) / c - 1, be: (1 - p - R) / (c - 1 + p + R)})


def _derivative_step(k, param) -> Proof:
    return zero(param.apply(sp.diff(_rhs(k), R) - _DERIV[k]),
                f"d/dR of piece {k} is (1/(2bc)) x (powers of A, B) (chain rule, dA/dR = dB/dR = -1/c), on the range")


def _prove_piece1_increasing(claim):
    kk = 1 / b + 1                                    # B^{-k} - A^{-k} = B^{-k} (1 - (1 + t)^{-k}), t = alpha/B
    cert = _K * (1 + b0) ** (-kk) * sinh_form(1, al / (1 + b0), -kk) * -1
    return all_of(_derivative_step(1, PIECE_PARAMS[1]), conclude(claim, param=PIECE_PARAMS[1], certificate=cert))


_STATIONARY = B_R ** (1 / b - 1) * A_R ** (1 / b + 1)      # e^g: df/dR = 0 on piece 2 exactly where this is 1


def _prove_piece2_sign(claim):
    return all_of(
        _derivative_step(2, _INTERIOR2_PARAM),
        zero(sp.expand_log(sp.log(_INTERIOR2_PARAM.apply(_STATIONARY)), force=False) - _INTERIOR2_PARAM.apply(G),
             "ln(B^{1/b-1} A^{1/b+1}) = g on piece 2 (A, B > 0)"),
        cite("monotone_limits", "ln is increasing with ln 1 = 0, so B^{1/b-1} A^{1/b+1} - 1 has the sign of g; the "
                                "factor A^{-1/b-1}/(2bc) is positive"),
        conclude(claim, param=_INTERIOR2_PARAM))


def _prove_g_decreasing(claim):
    return conclude(claim, param=params(_INTERIOR2_PARAM, B_IN_W))


def _prove_piece3_decreasing(claim):
    mm = 1 / b - 1                                    # = w at b = 1/(1+w)
    cert = -_K * (g1 / _S3) ** w * 2 * sp.exp(w * sp.log(1 + g2 / g1) / 2) * sp.sinh(w * sp.log(1 + g2 / g1) / 2)
    return all_of(_derivative_step(3, PIECE_PARAMS[3]),
                  zero(mm.subs(b, 1 / (1 + w)) - w, "1/b - 1 = w at b = 1/(1+w)"),
                  conclude(claim, param=params(PIECE_PARAMS[3], B_IN_W), certificate=cert))


def _prove_simple_decreasing(claim, k):
    return all_of(_derivative_step(k, PIECE_PARAMS[k]), conclude(claim, param=PIECE_PARAMS[k]))


_MONO = {}
_MONO[1] = register(Claim(
    id="puff.b13.piece1_increasing", title="f is increasing on piece 1: df/dR > 0 for R < 1-p-c", source=THMB2,
    kind="sign", lhs=sp.diff(_rhs(1), R), relation=">", conditions=GLOBAL + (sp.Lt(R, 1 - p - c),),
    proof=_prove_piece1_increasing,
    note="df/dR = (1/(2bc)) [B^{-1/b-1} - A^{-1/b-1}] with A > B > 1; written B^{-k} (1 - (A/B)^{-k}) = "
         "2 B^{-k} e^{-v/2} sinh(v/2), v = k ln(A/B) > 0, k = 1/b + 1 (the certificate)."))
_MONO[2] = register(Claim(
    id="puff.b13.piece2_sign",
    title="Inside piece 2, df/dR = A^{-1/b-1}/(2bc) (B^{1/b-1} A^{1/b+1} - 1), A = (1+p-R)/c, B = (1-p-R)/c",
    source=THMB2, kind="identity", lhs=sp.diff(_rhs(2), R), rhs=_K * A_R ** (-1 / b - 1) * (_STATIONARY - 1),
    conditions=GLOBAL + _INTERIOR2, proof=_prove_piece2_sign,
    note="g(R) = (1/b - 1) ln((1-p-R)/c) + (1/b + 1) ln((1+p-R)/c) = ln(B^{1/b-1} A^{1/b+1}) (checked in the proof), "
         "so df/dR = A^{-1/b-1}/(2bc) (e^{g(R)} - 1); with A^{-1/b-1}/(2bc) > 0 it has the sign of g (ln increasing, "
         "a cited step)."))
_MONO["g"] = register(Claim(
    id="puff.b13.g_decreasing", title="g is strictly decreasing on piece 2 (0 < b < 1): dg/dR < 0", source=THMB2,
    kind="sign", lhs=sp.diff(G, R), relation="<", conditions=GLOBAL + _INTERIOR2 + _B_LT_1, proof=_prove_g_decreasing,
    note="dg/dR = -(1/b - 1)/(cB) - (1/b + 1)/(cA) with A, B > 0."))
_MONO[3] = register(Claim(
    id="puff.b13.piece3_decreasing", title="f is decreasing on piece 3 (0 < b < 1): df/dR < 0", source=THMB2,
    kind="sign", lhs=sp.diff(_rhs(3), R), relation="<", conditions=GLOBAL + ELEMENTARY[3] + _B_LT_1,
    proof=_prove_piece3_decreasing,
    note="df/dR = (1/(2bc)) [B^{1/b-1} - A^{1/b-1}] with 0 < B < A < 1; for b > 1 it would be positive; b < 1 is the "
         "paper's setting (c = 1 - b^2 > 0)."))
for _k, _where in ((4, (sp.Gt(R, 1 - p), sp.Lt(R, 1 + p - c))),
                   (5, (sp.Gt(R, 1 + p - c), sp.Gt(R, 1 - p), sp.Lt(R, 1 + p)))):
    _MONO[_k] = register(Claim(
        id=f"puff.b13.piece{_k}_decreasing", title=f"f is decreasing on piece {_k}: df/dR < 0", source=THMB2,
        kind="sign", lhs=sp.diff(_rhs(_k), R), relation="<", conditions=GLOBAL + _where,
        proof=(lambda claim, k=_k: _prove_simple_decreasing(claim, k))))

_MONO_PROOFS = {1: _prove_piece1_increasing, 2: _prove_piece2_sign, "g": _prove_g_decreasing,
                3: _prove_piece3_decreasing, 4: lambda cl: _prove_simple_decreasing(cl, 4),
                5: lambda cl: _prove_simple_decreasing(cl, 5)}


def _prove_monotonicity(claim):
    return all_of(
        *(closes(_MONO[k], _MONO_PROOFS[k]) for k in (1, 2, "g", 3, 4, 5)),
        cite("monotone_limits", "g continuous and strictly decreasing on piece 2, and df/dR of the sign of g there, so "
                                "df/dR changes sign at most once, from + to -: f is unimodal on piece 2; increasing on "
                                "piece 1, decreasing on pieces 3, 4, 5"),
        conclude(claim, param=_INTERIOR2_PARAM))


register(Claim(
    id="puff.b13.monotonicity",
    title="Inside piece 2 (0 < b < 1), df/dR = (1/(2bc)) [B^{1/b-1} - A^{-1/b-1}], A = (1+p-R)/c, B = (1-p-R)/c",
    source=THMB2, kind="identity", lhs=sp.diff(_rhs(2), R), rhs=_DERIV[2],
    conditions=GLOBAL + _INTERIOR2 + _B_LT_1, proof=_prove_monotonicity,
    note="A = (1+p-R)/c > 1 and B = (1-p-R)/c in (0, 1) inside piece 2. The statement concluded last is the piece-2 "
         "derivative; the proof first re-runs puff.b13.piece1_increasing, puff.b13.piece2_sign, puff.b13.g_decreasing "
         "and puff.b13.piece{3,4,5}_decreasing (each ends in a check of its own statement), and cites that a "
         "derivative of the sign of a strictly decreasing g changes sign at most once: f increases on piece 1, is "
         "unimodal on piece 2 and decreases on pieces 3-5 (not the statement checked here)."))


# -- Theorem B.2: the supremum ------------------------------------------------------------------------
def _prove_g_left(claim):
    return conclude(claim, certificate=(1 / b + 1) * sp.log(1 + 2 * p / c))


def _prove_g_right(claim):
    par = params(Parametrization({c: 2 * p + ga}, {ga: c - 2 * p}), B_IN_W)
    return conclude(claim, param=par, certificate=-w * sp.log(1 + 2 * p / ga))


G_LEFT = register(Claim(
    id="puff.b2.g_left_positive", title="g > 0 at the left end R = 1-p-c of piece 2 (B = 1, A = 1 + 2p/c)",
    source=THMB2, kind="sign", lhs=G.subs(R, 1 - p - c), relation=">", conditions=GLOBAL, proof=_prove_g_left,
    note="g(1-p-c) = (1/b + 1) ln(1 + 2p/c) for every b > 0."))
G_RIGHT = register(Claim(
    id="puff.b2.g_right_negative",
    title="g < 0 at the right end R = 1+p-c of piece 2 when c > 2p (A = 1, 0 < B < 1), 0 < b < 1",
    source=THMB2, kind="sign", lhs=G.subs(R, 1 + p - c), relation="<", conditions=GLOBAL + _B_LT_1 + (sp.Gt(c, 2 * p),),
    proof=_prove_g_right, note="g(1+p-c) = (1/b - 1) ln(1 - 2p/c) < 0."))
G_LIMIT = register(Claim(
    id="puff.b2.g_right_limit",
    title="g -> -oo as R -> 1-p from below (B -> 0+), 0 < b < 1 written b = 1/(1+w): the right end of piece 2 when "
          "c <= 2p",
    source=THMB2, kind="limit", lhs=sp.Limit(G.subs(b, _B_W), R, 1 - p, "-"), rhs=-sp.oo,
    note="(1/b - 1) ln B -> -oo with 1/b - 1 = w > 0, while (1/b + 1) ln A -> (1/b + 1) ln(2p/c) is finite."))


def _prove_sup(claim):
    return all_of(
        closes(G_LEFT, _prove_g_left), closes(G_RIGHT, _prove_g_right), conclude_evaluation(G_LIMIT),
        closes(_MONO["g"], _prove_g_decreasing), closes(_MONO[2], _prove_piece2_sign),
        cite("intermediate_value_theorem", "g is continuous and strictly decreasing on piece 2, positive at its left end "
                                           "and negative at (or tending to -oo at) its right end: it has exactly one "
                                           "zero R* inside piece 2, and df/dR > 0 before it, < 0 after it"),
        cite("monotone_limits", "f increases on piece 1 (puff.b13.piece1_increasing) and on piece 2 up to R*, decreases "
                                "from R* through pieces 2-5 (puff.b13.piece3_decreasing, puff.b13.piece4_decreasing, "
                                "puff.b13.piece5_decreasing), is 0 on piece 6, and is continuous (H is)"),
        _sup_spot_check(claim),
        argue("hence f(R) <= f(R*) for every real R, with equality at R*: the pieces are assembled by the argument "
              "above, not by a mechanical check of the stated inequality (which is only evaluated at the points of "
              "the spot check)"))


_SPOT_B, _SPOT_PS = sp.Rational(1, 2), (sp.Rational(3, 20), sp.Rational(1, 2))


def _sup_spot_check(claim) -> Proof:
    """The stated relation evaluated exactly at b = 1/2 (c = 3/4), where the stationarity equation
    (1-p-R)(1+p-R)^3 = c^4 is a polynomial and R* an exact root, at R on both sides of R* and in every piece."""
    cv = 1 - _SPOT_B**2
    ok, n = True, 0
    for pv in _SPOT_PS:
        poly = sp.Poly(sp.expand((1 - pv - R) * (1 + pv - R) ** 3 - cv**4), R)
        lo_, hi_ = 1 - pv - cv, min(1 - pv, 1 + pv - cv)
        roots = [r for r in poly.real_roots() if lo_ < r < hi_]
        if len(roots) != 1:
            return mechanical(False, f"spot check: {len(roots)} roots of the stationarity equation in piece 2 at p = {pv}")
        rs = roots[0]
        for Rv in (lo_ - 1, lo_, (lo_ + rs) / 2, rs - sp.Rational(1, 1000), rs + sp.Rational(1, 1000),
                   (rs + hi_) / 2, 1 - pv, 1 + pv - cv, 1 + pv, 3):
            point = {b: _SPOT_B, c: cv, p: pv, R: Rv, R_star: rs}     # exact numbers put in at once (no bound symbols)
            ok &= bool(RELATIONS[claim.relation](claim.lhs.xreplace(point), claim.rhs.xreplace(point)))
            n += 1
    return mechanical(ok, f"spot check: the stated relation holds exactly at {n} points (b = 1/2, c = 3/4, p in "
                          "{3/20, 1/2}, R* the exact root of (1-p-R)(1+p-R)^3 = c^4 in piece 2, R on both sides of R* "
                          "and in every piece)" + ("" if ok else " -- fails"))


FIG_B21 = ("Figure B.2.1 (p = q = 0.15, eps = 1.3; b = -(4/1.3) ln 0.85 = 0.500058244608538194417504486983, "
           "c = 1 - b^2 = 0.749941751999027381814985472690, c > 2p so piece 3 exists and piece 2 is "
           "(0.100058248000972618185014527310, 0.400058248000972618185014527310]): mpmath findroot on g at 50 digits "
           "gives R* = 0.312180597742683452936895189571 and sup f = f(R*) = 0.342206681122650943085171277311 "
           "(30 digits).")
register(Claim(
    id="puff.b2.sup",
    limitation=("R* is the zero of g in piece 2, which has no closed form, and f is piecewise in R with absolute "
                "values, so the engine's conclusion from a point and a derivative sign does not apply; the assembly "
                "of the proved monotonicity of each piece into a supremum over every R is argued."),
    title="Theorem B.2: f(R) <= f(R*) for every R, where g(R*) = 0 inside piece 2, 0 < b < 1 (argued from proved "
          "sign and monotonicity claims)",
    source=THMB2, kind="inequality", lhs=RISK, rhs=_rhs(2).subs(R, R_star), relation="<=",
    conditions=GLOBAL + _B_LT_1 + (sp.Eq(G.subs(R, R_star), 0), sp.Gt(R_star, 1 - p - c),
                                   sp.Lt(R_star, 1 - p), sp.Lt(R_star, 1 + p - c)),
    proof=_prove_sup,
    note="So sup_R f = f(R*), R* being the unique zero of g in piece 2. Every ingredient is proved (puff.b2.g_left_positive, puff.b2.g_right_negative, puff.b2.g_right_limit, "
         "puff.b13.g_decreasing, puff.b13.piece2_sign and the monotonicity of the other pieces); the assembly (one "
         "zero of g, f rises to it and falls after) is an argument. " + FIG_B21))


# ==============================================================================================
# Errata in Appendix B
# ==============================================================================================
# (i) Proposition 1, proof of Case 2: the upper limit in y_j-units
RISK_MU = exp_cdf(A_R * sp.exp(-mu)) - exp_cdf(B_R * sp.exp(-mu))   # X ~ Laplace(mu, b): e^X = e^mu e^{X_0}
_CASE2 = (sp.Le(1 - p, R), sp.Lt(R, 1 + p))
# Appendix B's setting: b in (0, 1/2) and the bias correction c = (1 - b^2)/e^mu
_APPENDIX_B_SETTING = (sp.Lt(b, sp.Rational(1, 2)), sp.Eq(c, (1 - b**2) * sp.exp(-mu)))
_CASE2_PARAM = ab_param(al, -b0, {al: (1 + p - R) / c, b0: (R - 1 + p) / c})


def _prove_prop1_case2(claim):
    return all_of(
        cite(INTERVAL_PROBABILITY, "the risk P(B < e^X < A) is H_mu(A) - H_mu(B), H_mu(t) = H(t e^{-mu}) the "
                                   "distribution function of e^X, and F_X(t) = H_mu(e^t) (puff.b1.exp_cdf_*)"),
        conclude(claim, param=_CASE2_PARAM))


erratum(
    "puff.prop1.case2_upper_limit",
    printed=Claim(
        id="puff.prop1.case2_upper_limit.printed",
        title="Proof of Proposition 1, Case 2 as printed: the risk is F_X(ln((1+p)y_j - R) - ln c) for 1-p <= R < 1+p",
        source=PROP1, kind="identity", lhs=RISK_MU,
        rhs=laplace_cdf(sp.log((1 + p) * y_j - R) - sp.log(c), b, mu),
        conditions=GLOBAL + _CASE2 + _APPENDIX_B_SETTING,
        counterexample={R: 1, p: sp.Rational(1, 2), b: sp.Rational(1, 4), c: sp.Rational(15, 16), mu: 0,
                        y_j: sp.Rational(7, 6)}),
    corrected=Claim(
        id="puff.prop1.case2",
        title="Proposition 1, Case 2 (1-p <= R < 1+p): the risk is F_X(ln(1+p-R) - ln c), X ~ Laplace(mu, b)",
        source=PROP1, kind="identity", lhs=RISK_MU, rhs=laplace_cdf(sp.log(1 + p - R) - sp.log(c), b, mu),
        conditions=GLOBAL + _CASE2, proof=_prove_prop1_case2,
        note="Any b > 0, c > 0, mu real. F_X(t) = H(e^{t - mu}) is the Laplace(mu, b) distribution function "
             "(puff.b1.exp_cdf_*). Case 1 (R < 1-p: F_X(upper) - F_X(lower)) and Case 3 (0) are the mu = 0 pieces of "
             "b.1.3 shifted; they are checked here for mu = 0 only."),
    printed_text=("Case 2: 1-p <= R and 1+p > R [...] P((1-p) y_j < c e^{X_j} y_j + sum_{i=1, i != j,k}^{n} y_i < "
                  "(1+p) y_j | p, b, mu, y_1, ..., y_n) = P(-oo < X_j < ln((1+p) y_j - R) - ln(c) | p, b, mu, y_1, ..., "
                  "y_n)"),
    corrected_text=("Case 2: 1-p <= R and 1+p > R [...] P((1-p) y_j < c e^{X_j} y_j + sum_{i=1, i != j,k}^{n} y_i < "
                    "(1+p) y_j | p, b, mu, y_1, ..., y_n) = P(-oo < X_j < ln(1+p-R) - ln(c) | p, b, mu, y_1, ..., y_n) "
                    "= F_X(ln(1+p-R) - ln(c)), X_j ~ Laplace(mu, b), for every b > 0, c > 0 and mu."),
    explanation=("The Case 2 statement and the next line of its proof use the upper limit ln(1+p-R) - ln(c); the "
                 "first line of the proof writes ln((1+p)y_j - R) - ln(c), mixing the value y_j with the ratio R "
                 "(R = sum y_i / y_j is unit-free). In Appendix B's setting (b in (0, 1/2), c = (1 - b^2)/e^mu), at "
                 "R = 1, p = 1/2, b = 1/4, c = 15/16, mu = 0, y_j = 7/6 the true risk is F_X(ln(8/15)) = (8/15)^4/2 "
                 "= 0.0405, the printed line F_X(ln(7/4 - 1) - ln(15/16)) = F_X(ln(4/5)) = (4/5)^4/2 = 0.2048 (the "
                 "printed limit depends on y_j, the risk does not). A slip in an intermediate line: the statement of Case 2 "
                 "and the following lines are right."))

# (ii) Corollary B.1.2, Case 2.1: heading and result belong to different sub-cases (a finding, not an erratum)
finding(
    "puff.cor_b12.case2_subcases",
    COR,
    "Corollary B.1.2, Case 2 announces two sub-cases ('depending on if the upper bound is positive or negative') but "
    "prints one, Case 2.1. Its heading (ln(1+p-R) - ln c < 0) and its range discussion (max(1+p-c, 1-p) <= R < 1+p) "
    "are those of piece 5 of b.1.3, while its derivation and result (1 - 1/2 ((1+p-R)/c)^{-1/b} 'if 1-p <= R <= "
    "1+p-c') are those of piece 4 (upper bound >= 0). Read with its own final range the printed result is true "
    "(puff.b13.piece4); read under its heading it is false (at R = 1, p = 1/2, b = 1/4, c = 15/16 the risk is "
    "(8/15)^4/2 = 0.0405 and the formula gives 1 - (15/8)^4/2 = -5.18). Piece 5, 1/2 ((1+p-R)/c)^{1/b}, is derived nowhere in the text and appears only in "
    "equation b.1.3, which lists both pieces correctly (puff.b13.piece4, puff.b13.piece5). An earlier review "
    "registered this as an erratum; since a reading under which the printed result holds exists (its own range), "
    "it is recorded as a missing sub-case instead.",
    claims=("puff.b13.piece4", "puff.b13.piece5"))

# (iii) the middle line of Case 2.1 drops the division by c (a reading: its neighbours carry it)
_MID_CONDS = GLOBAL + ELEMENTARY[4]


def _prove_middle_line(claim):
    return conclude(claim, param=PIECE_PARAMS[4])


register(Claim(
    id="puff.cor_b12.case21_middle_line",
    title="Corollary B.1.2, Case 2.1, middle line as read: F_X(ln((1+p-R)/c)) = 1 - 1/2 exp(-(1/b)(ln(1+p-R) - ln c)) "
          "for 1-p <= R <= 1+p-c",
    source=COR, kind="identity", lhs=cdf(sp.log(A_R), b, 0),
    rhs=1 - sp.exp(-(sp.log(1 + p - R) - sp.log(c)) / b) / 2,
    conditions=_MID_CONDS, proof=_prove_middle_line,
    note="F_X is the paper's piecewise Laplace(0, b) distribution function (laplace.cdf). On this range both equal "
         "1 - 1/2 ((1+p-R)/c)^{-1/b}, the line after (puff.b13.piece4); reading: puff.reading.cor_b12_middle_line."))
reading("puff.reading.cor_b12_middle_line", COR,
        printed="=1 - 1/2 exp(-(1/b) ln(1+p-R)) (Case 2.1, middle line)",
        reading="=1 - 1/2 exp(-(1/b)(ln(1+p-R) - ln(c))): the division by c kept",
        why="The line before is F_X(ln((1+p-R)/c)) and the line after 1 - 1/2 ((1+p-R)/c)^{-1/b}; equation b.1.3 "
            "and every other display of the Corollary carry the fraction (1+p-R)/c, so the middle line lost its "
            "denominator (in the text conversion or in the copy: the text does not tell). The reading makes the "
            "three lines consistent and is proved (puff.cor_b12.case21_middle_line).",
        alternatives="Read literally the line is false: in Appendix B's setting (b in (0, 1/2), c = 1 - b^2 at "
                     "mu = 0), at R = 1/2, p = 1/2, b = 1/4, c = 15/16 the first line is F_X(ln(16/15)) = "
                     "1 - (15/16)^4/2 = 0.6138 and the middle line 1/2 (tests/derivations/"
                     "test_log_laplace_pufferfish.py). The result of Case 2.1 is unaffected either way.",
        claims=("puff.cor_b12.case21_middle_line",))


# ==============================================================================================
# Section 4.4: how the risk moves with b, eps and q; the 1,000 replicates of algorithm 4.3.2
# ==============================================================================================
P_CASE = sp.Rational(3, 20)                            # p = 0.15, the p% rule of the case study
EPS_GRID = tuple(sp.Rational(n, 10) for n in range(11, 20))      # Figure 4.4.1 panels: 1.1, ..., 1.9
Q_GRID = tuple(sp.Rational(n, 100) for n in range(6, 15))        # Figure 4.4.2 panels: 0.06, ..., 0.14
M_CASE = 1000


def b13(Rv, pv, cc, bb):
    """Equation b.1.3 as printed: the six formulas on their ranges (equal to the risk f by puff.b13.piece1-6)."""
    aa, bq = (1 + pv - Rv) / cc, (1 - pv - Rv) / cc
    ranges = [sp.And(*(cond.subs({R: Rv, p: pv, c: cc}) for cond in ELEMENTARY[k])) for k in range(1, 7)]
    return sp.Piecewise(*((PIECES[k](aa, bq, bb), ranges[k - 1]) for k in range(1, 7)), (sp.nan, True))


def risk_at(Rv, e, qq, pv=P_CASE):
    """The analytical disclosure risk of Section 4.3 (b.1.3) at b = -(4/eps) ln(1-q), c = 1 - b^2 (Theorem
    3.2.2), p% rule p."""
    bb = -4 / e * sp.log(1 - qq)
    return b13(Rv, pv, 1 - bb**2, bb)


register(Claim(
    id="puff.s44.scale_in_epsilon",
    title="Section 4.4, 'with q fixed, a higher eps results in a lower b': db/deps < 0 at b = -(4/eps) ln(1-q)",
    source=S44, kind="sign", lhs=sp.diff(B_PRINTED, eps), relation="<", conditions=(sp.Lt(q, 1),),
    proof=lambda claim: conclude(claim, param=Q_IN_S)))
register(Claim(
    id="puff.s44.scale_in_q",
    title="Section 4.4, 'with a fixed eps, a higher q leads to a higher b': db/dq > 0 at b = -(4/eps) ln(1-q)",
    source=S44, kind="sign", lhs=sp.diff(B_PRINTED, q), relation=">", conditions=(sp.Lt(q, 1),),
    proof=lambda claim: conclude(claim, param=Q_IN_S)))

_RISK5_B = sp.Rational(1, 2) * ((1 + p - R) / (1 - b**2)) ** (1 / b)     # piece 5 at c = 1 - b^2


def _prove_piece5_in_b(claim):
    par = params(B_IN_W, Parametrization({R: 1 + p - (1 - _B_W**2) / (1 + a0)},
                                         {a0: (1 - b**2) / (1 + p - R) - 1}))
    aa = 1 / (1 + a0)
    cert = sp.Rational(1, 2) * aa ** (1 + w) * ((1 + w) ** 2 * sp.log(1 + a0) + 2 * (1 + w) ** 2 / (w * (w + 2)))
    return conclude(claim, param=par, certificate=cert)


register(Claim(
    id="puff.s44.risk_increasing_in_b_piece5",
    title="Piece 5 of b.1.3 at c = 1 - b^2: d/db [1/2 ((1+p-R)/(1-b^2))^{1/b}] > 0 for 0 < b < 1, "
          "max(b^2 + p, 1-p) <= R < 1+p",
    source=S44, kind="sign", lhs=sp.diff(_RISK5_B, b), relation=">",
    conditions=GLOBAL + _B_LT_1 + (sp.Ge(R, 1 + p - (1 - b**2)), sp.Ge(R, 1 - p), sp.Lt(R, 1 + p)),
    proof=_prove_piece5_in_b,
    note="Section 4.4's 'a higher b means ... a lower disclosure risk' fails here (b^2 + p = 1+p-c). "
         "d/db = f [ln(1/A)/b^2 + 2/(1 - b^2)] with A = (1+p-R)/c <= 1: both terms are >= 0 and the second > 0. "
         "Piece 5 is the region where the other contributions nearly exhaust the upper end of the p% interval "
         "(R close to 1 + p)."))


def _grid(eps_values, q_values):
    """The claim's own finite quantifier: eps and q range over the given grid values."""
    return (sp.Contains(eps, sp.FiniteSet(*eps_values)), sp.Contains(q, sp.FiniteSet(*q_values)))


def _grid_enumeration(eps_values, q_values):
    return lambda claim: exhaust(claim, [{eps: e, q: qq} for e in eps_values for qq in q_values])


_STEP_EPS, _STEP_Q = sp.Rational(1, 10), sp.Rational(1, 100)
_GRID_NOTE = (" The risk is the analytical one of Section 4.3, equation b.1.3 (equal to f by puff.b13.piece1-6), at "
              "b = -(4/eps) ln(1-q), c = 1 - b^2; each sign decided exactly.")
for _id, _title, _eps_values, _q_values, _difference, _rel, _note in (
        ("puff.s44.risk_grid_epsilon",
         "At R = 0, p = 0.15: f(eps + 0.1) - f(eps) > 0 for eps in {1.1, ..., 1.8}, q in {0.06, ..., 0.14} (the grid of "
         "Figures 4.4.1/4.4.2)",
         EPS_GRID[:-1], Q_GRID, risk_at(0, eps + _STEP_EPS, q) - risk_at(0, eps, q), ">",
         "Section 4.4: 'with q fixed, a higher eps results in ... a higher disclosure risk'. R = 0: the third contributor negligible against the passive claimant, the limit of the case study's scenario "
         "(its R is not reported)."),
        ("puff.s44.risk_grid_q",
         "At R = 0, p = 0.15: f(q + 0.01) - f(q) < 0 for eps in {1.1, ..., 1.9}, q in {0.06, ..., 0.13} (the grid of "
         "Figures 4.4.1/4.4.2)",
         EPS_GRID, Q_GRID[:-1], risk_at(0, eps, q + _STEP_Q) - risk_at(0, eps, q), "<",
         "Section 4.4: 'with a fixed eps, a higher q leads to ... a lower disclosure risk'. R = 0 as in puff.s44.risk_grid_epsilon."),
        ("puff.s44.risk_grid_epsilon_reversed",
         "At R = 1/5, p = 0.15, q = 0.06: f(eps + 0.1) - f(eps) < 0 for eps in {1.1, ..., 1.8} (Section 4.4's "
         "direction reversed)",
         EPS_GRID[:-1], (Q_GRID[0],), risk_at(sp.Rational(1, 5), eps + _STEP_EPS, q)
         - risk_at(sp.Rational(1, 5), eps, q), "<",
         "R = 1/5: the third contributor a fifth of the passive claimant. There b ranges over [0.130, 0.165], and for "
         "R > p the value c e^X ~ 1 at small b lies outside the interval (1-p-R, 1+p-R), so more noise raises the "
         "risk.")):
    register(Claim(
        id=_id, title=_title, source=S44, kind="sign", lhs=_difference, relation=_rel,
        conditions=_grid(_eps_values, _q_values), finite=True, budget=120.0,
        enumeration=_grid_enumeration(_eps_values, _q_values), note=_note + _GRID_NOTE))


def _prove_mc_variance(claim):
    bound = 1 / (2 * sp.sqrt(M_CASE))
    return all_of(
        cite(BERNOULLI_MEAN, "gamma-hat = (1/M) sum_m P_m with P_m independent Bernoulli(gamma), gamma the risk: "
                             "Var(gamma-hat) = gamma(1 - gamma)/M"),
        mechanical(bool(sp.Lt(bound, sp.Rational(159, 10000))),
                   f"at M = {M_CASE}: standard error at most 1/(2 sqrt(1000)) = {sp.N(bound, 6)} < 0.0159"),
        conclude(claim, certificate=-(gamma - sp.Rational(1, 2)) ** 2 / M_rep))


register(Claim(
    id="puff.s44.mc_variance_bound",
    title="Algorithm 4.3.2: gamma(1 - gamma)/M <= 1/(4M) for every real gamma and M > 0 (Var(gamma-hat), a cited "
          "formula)",
    source=ALG432, kind="inequality", lhs=gamma * (1 - gamma) / M_rep, rhs=1 / (4 * M_rep), relation="<=",
    proof=_prove_mc_variance,
    note="Var(gamma-hat) = gamma(1 - gamma)/M is the cited variance of a proportion of M independent Bernoulli trials; "
         "gamma(1 - gamma) <= 1/4 for every real gamma: 1/4 - gamma(1 - gamma) = (gamma - 1/2)^2. At M = 1000 the "
         "standard error is at most 1/(2 sqrt(1000)) < 0.0159 (a side step of the proof)."))

_F_NEXT, _F_HERE = risk_at(0, eps + _STEP_EPS, q), risk_at(0, eps, q)
_VAR_DIFF = (_F_NEXT * (1 - _F_NEXT) + _F_HERE * (1 - _F_HERE)) / M_CASE
register(Claim(
    id="puff.s44.mc_epsilon_steps_unresolved",
    title="At R = 0, p = 0.15 on the grid of Figures 4.4.1/4.4.2: (f2 - f1)^2 < 4 (f1(1-f1) + f2(1-f2))/1000, "
          "f1 = f(eps), f2 = f(eps + 0.1)",
    source=ALG432, kind="inequality", lhs=(_F_NEXT - _F_HERE) ** 2, rhs=4 * _VAR_DIFF, relation="<",
    conditions=_grid(EPS_GRID[:-1], Q_GRID), finite=True, budget=120.0,
    enumeration=_grid_enumeration(EPS_GRID[:-1], Q_GRID),
    note="Section 4.4: '1000 replicates were sufficient'. No adjacent eps step exceeds two standard errors of the "
         "difference of two independent 1,000-replicate estimates. For each (eps, q) with eps <= 1.8: |f(eps + 0.1) - f(eps)| < 2 sqrt(Var), Var = (g1(1-g1) + g2(1-g2))/1000, "
         "g1, g2 the exact risks of b.1.3 (puff.s44.mc_variance_bound, independent runs). 1,000 replicates estimate "
         "each risk to within about +-0.03 (two standard errors) but do not resolve the eps steps the figures are "
         "read for (finding puff.s44.replicates)." + _GRID_NOTE))


# ==============================================================================================
# Findings of the review
# ==============================================================================================
finding(
    "puff.thm322.mixture_measure", THM,
    "The proof of Theorem 3.2.2 writes the output density given a secret as int_0^oo k(...) f(ln t | ln t in I, theta) "
    "dt and says the integral of f is 1 'since f is a density'. With f the conditional density of ln t the measure "
    "must be d(ln t) = dt/t (or f read as the conditional density of t); the bound is unaffected, since only "
    "integration of a pointwise bound against a probability measure is used (integral_monotonicity). Definition 3.1.4 "
    "compares point probabilities P(M = omega | ...), zero for a continuous output; the paper's Remark reads it for "
    "sets W, equivalently densities, which is the reading encoded.",
    claims=("puff.thm322.ratio",))
finding(
    "puff.tight.not_in_source", DEF314,
    "Theorem 3.2.2 proves eps-Pufferfish privacy at b = -(4/eps) ln(1-q) using the containing intervals of Lemma 3.2.1 "
    "(half-widths L and 3L); the least eps at scale b is (2/b) ln((1+q)/(1-q)), i.e. the printed scale is larger than "
    "needed by a factor between 1 and 2 (about 1.075 at q = 0.15). The source does not state a tight value.",
    claims=("puff.tight.epsilon", "puff.tight.scale", "puff.tight.vs_printed"))
finding(
    "puff.b2.remark_graph", THMB2,
    "The Remark after Theorem B.2 counts '5 cases' (the six pieces of b.1.3 less the zero piece) and says that "
    "'some equations involving derivatives of f seem unsolvable analytically', so that the upper bound is to be read "
    "off a graph. No graph is needed: on piece 2 df/dR has the sign of g, g is strictly decreasing, positive at the "
    "left end and negative (or -> -oo) at the right end (proved), so R* is found by any bracketing root finder, and "
    "for 1/b an integer the stationarity equation is a polynomial. The probability proof says the independence of X "
    "and R 'is not important'; it is used: the inner integral equals f(R) only when the law of X given R is "
    "Laplace(0, b). Appendix B.1 assumes b in (0, 1/2), yet Figure B.2.1 has b = 0.500058 > 1/2 (the risk formula "
    "needs only b < 1; the perturbed value then has infinite variance, ht.corollary3).",
    claims=("puff.b2.sup",))
finding(
    "puff.s44.risk_direction", S44,
    "Section 4.4 states that with q fixed a higher eps (lower b) gives a higher disclosure risk, and with eps fixed "
    "a higher q (higher b) a lower one. The direction depends on R = (sum of the other contributions)/y_j, which the "
    "case study does not report ('the third contributor is small relative to the size of the first and second'). "
    "It holds on the whole grid of Figures 4.4.1/4.4.2 at R = 0 (puff.s44.risk_grid_epsilon, puff.s44.risk_grid_q); "
    "it fails at R = 1/5, where on the q = 0.06 panel the risk falls as eps rises (puff.s44.risk_grid_epsilon_reversed), "
    "and on piece 5 of b.1.3 the risk rises with b for every b (puff.s44.risk_increasing_in_b_piece5). A double-"
    "precision scan (p = 0.15) finds f decreasing in b on all of (0, 1) for 0 <= R <= 0.1475 and monotone on the "
    "grid in the stated direction for 0 <= R <= 0.16; for R > p, c e^X ~ 1 at small b lies outside (1-p-R, 1+p-R), "
    "so the risk first rises with b. The statement is thus a property of the case study's data, not of the "
    "mechanism. The first half of each sentence (b decreases with eps, increases with q) holds in general "
    "(puff.s44.scale_in_epsilon, puff.s44.scale_in_q); RSE increasing in b: ht.rse_increasing_in_b.",
    claims=("puff.s44.risk_grid_epsilon", "puff.s44.risk_grid_q", "puff.s44.risk_grid_epsilon_reversed",
            "puff.s44.risk_increasing_in_b_piece5"))
finding(
    "puff.s44.replicates", ALG432,
    "Section 4.4 says '1000 replicates were sufficient to derive an adequate empirical estimate' (m = 1000 there is "
    "the number M of runs of algorithms 4.3.1/4.3.2) without saying "
    "what was tested. Read as accuracy of one estimate: the Monte Carlo risk is a proportion with standard error at "
    "most 1/(2 sqrt(1000)) < 0.0159 (puff.s44.mc_variance_bound), about +-0.03 at two standard errors. Read as "
    "enough to see the trends the figures are read for: at R = 0 the adjacent eps steps of the grid (risk "
    "differences 0.020 to 0.036) are all below two standard errors of the difference of two independent estimates "
    "(puff.s44.mc_epsilon_steps_unresolved; the smallest, eps 1.8 -> 1.9 at q = 0.06, is below one), while 31 of "
    "the 72 q steps (differences 0.024 to 0.060) exceed two. Resolving the smallest eps step at two standard errors needs "
    "about 4,400 replicates per point. Whether common random numbers were used across (eps, q), which would make "
    "the differences far more precise, is not stated. The 'discrepancy between empirical and analytical results' "
    "for small eps and large q is explained in the text by the infinite variance of e^X for b > 1/2; that concerns "
    "the RSE (b > 1/2 at eps = 1.1, q in {0.13, 0.14} and eps = 1.2, q = 0.14), not the risk, whose estimate is a "
    "bounded proportion and whose formula b.1.3 holds for every b < 1.",
    claims=("puff.s44.mc_variance_bound", "puff.s44.mc_epsilon_steps_unresolved"))


# ==============================================================================================
# Readings of damaged text
# ==============================================================================================
reading(
    "puff.reading.dp_definition_rhs", Source(DOC, "Section 2.1, Definition (epsilon-differential privacy), (2.1.1)"),
    printed="P(M(D) in W) <= e^epsilon P(D' in W)   [\\mathcal{D'} on the right]",
    reading="P(M(D) in W) <= e^epsilon P(M(D') in W)",
    why="W is a set of outputs (W subset of Range(M)) and D' a fixed database, so P(D' in W) would be 0 or 1 and "
        "the definition would not involve M on the right. The left side is P(M(D) in W); the definition is "
        "attributed to Dwork and Roth (2014), who compare Pr[M(x) in S] and Pr[M(y) in S] for neighbours; the "
        "Pufferfish conditions (3.1.5)-(3.1.6) put P(M(Data) = omega | ...) on both sides. The calligraphic D' (the "
        "text's font for M) suggests the M( before D' was lost in the conversion or in typing.",
    alternatives="Literal: P(D' in W), a probability of a fixed database lying in a set of outputs, 0 or 1: not a "
                 "definition of privacy. No claim of the paper rests on the display.",
    claims=())
reading(
    "puff.def314.factor_interval", Source(DOC, "Section 3.1, before Definition 3.1.4"),
    printed="intervals of the form [alpha y, y/a) where y > 0 and alpha in (0, 1)",
    reading="[alpha y, y/alpha)",
    why="The text calls it the 'interval around y formed by factor alpha', Section 3.2 uses alpha = 1 - q with the "
        "intervals [(1-q)y, y/(1-q)) and [y/(1-q), y/(1-q)^3) (the diagrams before Lemma 3.2.1), and no 'a' is "
        "defined: 'a' is the glyph alpha.",
    claims=("puff.thm322.interval_containment",))
reading(
    "puff.b2.duplicated_symbol", THMB2,
    printed="It merely changes Rj R_j to a random R_j' in R",
    reading="It merely changes R_j to a random R_j' in R",
    why="'Rj' is the plain-text copy of the symbol R_j that follows it (a duplicated token of the text conversion).",
    claims=("puff.b2.sup",))
