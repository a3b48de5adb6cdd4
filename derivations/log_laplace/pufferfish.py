"""Pufferfish privacy of log-Laplace multiplicative perturbation, and p%-rule disclosure risk.

Source: ``004_005a37d6f70bd1b7.txt`` ("Confidentiality in ABS business data using Pufferfish
differential privacy"), Section 3 (Definition 3.1.4, Lemma 3.2.1, Theorem 3.2.2 and its
proof), Appendix B (Proposition 1, Corollary B.1.2 with equation b.1.3, Theorem B.2 and its
Remark) and Appendix C (proof of Lemma 3.2.1).

Section 3.  The mechanism publishes M(t) = c e^X t, X ~ Laplace(0, b), b = -(4/eps) ln(1 - q),
c = 1 - b^2.  The secrets are q% intervals; a discriminative pair is I1 = [(1-q)y, (1+q)y) and
the adjacent I2 = [(1+q)y, (1+q)^2 y/(1-q)) for y > 0 (reflected for y < 0).  Proved here:

* Lemma 3.2.1 (three inequalities, each difference factored with a sign read off);
* the chain of the proof of Theorem 3.2.2 in log space: the interval containments from the
  Lemma, the exponents e^{-eps/4} (3.2.4) and e^{3 eps/4} (3.2.5), their ratio e^eps, and the
  reflection argument for y < 0 (the triangle-inequality steps are cited deductions);
* beyond the document: the tight Pufferfish epsilon at scale b is (2/b) ln((1+q)/(1-q)), a
  supremum approached but not attained; hence the tight scale for a target eps is
  b* = (2/eps) ln((1+q)/(1-q)), and b*/b_printed lies in (1/2, 1) (the printed scale is valid
  but conservative), with limits 1 (q -> 0) and 1/2 (q -> 1).

Appendix B (mu = 0).  The disclosure risk f(R) = P(1 - p - R < c e^X < 1 + p - R) is the
Laplace mass between ln((1-p-R)/c) (or -oo) and ln((1+p-R)/c) (or -oo).  Proved here: each of
the six pieces of equation b.1.3 is that integral on its range (for every b > 0, c > 0); the
six ranges cover the real line and agree where they overlap, f is continuous (exact
enumeration over every order type of the breakpoints, and symbolic junction identities);
f increases on piece 1, is unimodal on piece 2 and decreases afterwards (0 < b < 1), so the
supremum of Theorem B.2 is attained at the unique zero R* of a strictly decreasing function
g on piece 2 and is computable by bracketing: the Remark's "read it off a graph" is not
needed.

Errata: the upper limit of the proof of Proposition 1, Case 2 (ln((1+p)y_j - R) for
ln(1+p-R)); Corollary B.1.2, Case 2.1 (its formula and its condition belong to the other
sign of ln((1+p-R)/c)); the middle line of Case 2.1 (division by c dropped); and the
description of c = 1 - b^2 as the bias correction 1/E(e^X) for every eps > 0 in Theorem
3.2.2 (true only for b < 1).
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, erratum, is_zero, register, zero
from ..engine.formulas import formula
from .laplace import _prove_cdf_left, _prove_cdf_right, cdf, expectation, left_density, pdf, right_density

DOC = "004_005a37d6f70bd1b7.txt"
DEF314 = Source(DOC, "Section 3.1, Definition 3.1.4 and (3.1.1)-(3.1.3)")
LEMMA = Source(DOC, "Section 3.2, Lemma 3.2.1; proof in Appendix C")
THM = Source(DOC, "Section 3.2, Theorem 3.2.2 and its proof")
PROP1 = Source(DOC, "Appendix B.1, Proposition 1 and its proof")
COR = Source(DOC, "Appendix B.1.2, Corollary (mu = 0), equation b.1.3")
THMB2 = Source(DOC, "Appendix B.2, Theorem (upper bound for the disclosure risk) and its Remark")

# -- symbols ----------------------------------------------------------------------------------
x = sp.Symbol("x", real=True)
q = sp.Symbol("q", positive=True)
s = sp.Symbol("s", positive=True)            # q = s/(1 + s): q in (0, 1) <-> s in (0, oo)
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
w = sp.Symbol("w", positive=True)            # b = 1/(1 + w) parametrises 0 < b < 1
A, B = sp.symbols("A B", positive=True)      # A = (1+p-R)/c, B = (1-p-R)/c where positive
al, be, ga, de = sp.symbols("alpha beta gamma delta", positive=True)
al0, be0 = sp.symbols("alpha_0 beta_0", nonnegative=True)
R_star = sp.Symbol("R^*", real=True)

Q_S = {q: s / (1 + s)}
B_IN_W = {b: 1 / (1 + w)}
L = sp.log(1 / (1 - q))                      # ln(1/(1-q)), the paper's half-width in log space
B_PRINTED = -4 / eps * sp.log(1 - q)         # Theorem 3.2.2
LOG_RATIO = sp.log((1 + q) / (1 - q))
EPS_TIGHT = 2 / b * LOG_RATIO
B_TIGHT = 2 / eps * LOG_RATIO
RATIO_TIGHT_PRINTED = LOG_RATIO / (2 * L)    # b*/b_printed = eps*(b_printed)/eps


# -- exact helpers ----------------------------------------------------------------------------
def _factor_logs(e):
    """Every log(arg) -> log(factor(arg)), then split products of positive factors."""
    e = sp.sympify(e).replace(sp.log, lambda a: sp.log(sp.factor(sp.together(a))))
    return sp.expand_log(e, force=False)


def in_s(e):
    """The expression with q = s/(1+s) (s > 0), logs of products split."""
    return _factor_logs(sp.sympify(e).subs(Q_S))


def zero_exp(e, what: str) -> Proof:
    """zero() after writing every power as exp(k log base) and splitting the logs."""
    return zero(sp.expand(_factor_logs(sp.sympify(e).rewrite(sp.exp))), what)


def sign_step(e, sense: str, what: str, transform=lambda t: t) -> Proof:
    """The sign of e decided by SymPy's assumptions after ``transform`` and factoring."""
    f = sp.factor(sp.together(transform(e)))
    test = {">": f.is_positive, ">=": f.is_nonnegative, "<": f.is_negative, "<=": f.is_nonpositive}[sense]
    ok = bool(test)
    return Proof(ok, (f"{what} {sense} 0: written {f}, {'decided by the positivity assumptions' if ok else 'NOT decided'}",))


def log_sign(e, sense: str, what: str, transform=in_s) -> Proof:
    """Sign of a combination of logs: combine into k log(arg) (checked exactly), then compare arg with 1
    by writing arg = 1 + t or 1/(1 + t) with t > 0 decided by the assumptions."""
    f = transform(e)
    comb = sp.logcombine(f, force=True)
    same = zero(f - comb, f"{what}: recombined as {comb}")
    k, lg = comb.as_coeff_Mul()
    if comb == 0:
        val = 0
    elif not isinstance(lg, sp.log):
        return all_of(same, Proof(False, (f"{what}: not a single logarithm ({comb})",)))
    else:
        arg = sp.factor(lg.args[0])
        up, down = sp.factor(arg - 1), sp.factor(1 / arg - 1)
        val = 1 if up.is_positive else (-1 if down.is_positive else None)
        if val is None:
            return all_of(same, Proof(False, (f"{what}: sign of log({arg}) not decided",)))
        val *= sp.sign(k)
    ok = {">": val > 0, ">=": val >= 0, "<": val < 0, "<=": val <= 0, "==": val == 0}[sense]
    why = ("the combination vanishes identically" if val == 0 else
           f"the argument of the logarithm is {'1 + t' if val > 0 else '1/(1 + t)'} with t > 0 decided by the assumptions")
    return all_of(same, Proof(bool(ok), (f"{what} {sense} 0: {why}",)))


def cited(text: str) -> Proof:
    return Proof(True, ("cited deduction: " + text,))


def _decided(e):
    """An expression in the parameters, logs factored and split, as a factored fraction (for sign decisions)."""
    return sp.factor(sp.together(sp.expand(_factor_logs(e))))


def _rel(r, sub):
    """The relational r after the substitution, written (lhs - rhs) op 0 and factored: True/False when decided."""
    return sp.Rel(_decided(r.lhs.subs(sub) - r.rhs.subs(sub)), 0, r.rel_op)


def _resolve(e):
    """A Piecewise whose conditions are decided after factoring (else returned as it is)."""
    if not isinstance(e, sp.Piecewise):
        return e
    args = []
    for val, cnd in e.args:
        if isinstance(cnd, sp.core.relational.Relational):
            cnd = sp.Rel(_decided(cnd.lhs - cnd.rhs), 0, cnd.rel_op)
        args.append((val, cnd))
    return sp.Piecewise(*args)


# ==============================================================================================
# Lemma 3.2.1 (Appendix C)
# ==============================================================================================
def _prove_lemma(lhs, rhs, gap, chain) -> Proof:
    return all_of(
        sign_step(1 - q, ">", "1 - q (q = s/(1+s))", in_s),
        zero(rhs - lhs - gap, f"rhs - lhs = {gap}"),
        sign_step(gap, ">=", "the gap", in_s),
        *chain())


_LEMMA = (
    ("first", 1 + q, 1 / (1 - q), q**2 / (1 - q),
     lambda: (zero((1 + q) * (1 - q) - (1 - q**2), "paper's chain: -q^2 <= 0, 1 - q^2 = (1+q)(1-q) <= 1"),
              cited("dividing (1+q)(1-q) <= 1 by 1 - q > 0 gives 1 + q <= 1/(1-q)"))),
    ("second", 1 / (1 - q), (1 + q) ** 2 / (1 - q), q * (q + 2) / (1 - q),
     lambda: (zero(q**2 + 2 * q + 1 - (q + 1) ** 2, "paper's chain: 0 <= q^2 + 2q, q^2 + 2q + 1 = (q+1)^2 >= 1"),
              cited("dividing 1 <= (1+q)^2 by 1 - q > 0"))),
    ("third", (1 + q) ** 2 / (1 - q), 1 / (1 - q) ** 3, q**2 * (2 - q**2) / (1 - q) ** 3,
     lambda: (zero(q**4 - 2 * q**2 + 1 - (1 + q) ** 2 * (1 - q) ** 2,
                   "paper's chain: q^2 (q^2 - 2) <= 0, q^4 - 2q^2 + 1 = (1+q)^2 (1-q)^2 <= 1"),
              cited("dividing (1+q)^2 (1-q)^2 <= 1 by (1-q)^3 > 0"))),
)
for _name, _l, _r, _gap, _chain in _LEMMA:
    register(Claim(
        id=f"puff.lemma321.{_name}", title=f"Lemma 3.2.1, {_name} inequality: {_l} <= {_r} for q in (0, 1)",
        source=LEMMA, kind="inequality", lhs=_l, rhs=_r, relation="<=", conditions=(sp.Lt(q, 1),),
        proof=(lambda l=_l, r=_r, g=_gap, ch=_chain: _prove_lemma(l, r, g, ch)),
        note="q = s/(1+s) maps s in (0, oo) onto q in (0, 1); the gap is then a ratio of positive "
             "polynomials in s. The inequality is strict for q in (0, 1)."))


# ==============================================================================================
# Theorem 3.2.2: the chain of the proof (in log space, relative to ln y)
# ==============================================================================================
# I1 = [ln(1-q), ln(1+q)), I2 = [ln(1+q), ln((1+q)^2/(1-q))) after subtracting ln y.
_CONTAIN = (
    (-L - sp.log(1 - q), "==", "inf I1 - (ln y - L)  [inf I1 = ln y - L exactly]"),
    (sp.log(1 + q) - L, "<", "sup I1 - (ln y + L)  [Lemma 3.2.1, first]"),
    (-L - sp.log(1 + q), "<", "(ln y - L) - inf I2"),
    (sp.log((1 + q) ** 2 / (1 - q)) - 3 * L, "<", "sup I2 - (ln y + 3L)  [Lemma 3.2.1, third]"),
)


def _prove_containment() -> Proof:
    return all_of(*(log_sign(e, sense, what) for e, sense, what in _CONTAIN),
                  cited("a half-open interval [u, u') lies in [l, l'] when l <= u and u' <= l'"))


register(Claim(
    id="puff.thm322.interval_containment",
    title="Proof of Theorem 3.2.2: I1 in [ln y - L, ln y + L] and I2 in [ln y - L, ln y + 3L], L = ln(1/(1-q))",
    source=THM, kind="sign",
    lhs=sp.Max(*(e for e, _, _ in _CONTAIN)), rhs=0, relation="<=", conditions=(sp.Lt(q, 1),),
    proof=_prove_containment,
    note="In log space relative to ln y: I1 = [ln(1-q), ln(1+q)), I2 = [ln(1+q), ln((1+q)^2/(1-q))). "
         "The statement is that the largest endpoint excess is <= 0. Hence |ln y - ln t| <= L on I1 and "
         "<= 3L on I2, the two facts the proof uses."))


def _prove_exponent(lhs, rhs) -> Proof:
    return zero(in_s(lhs - rhs), "with q = s/(1+s) (1 - q = 1/(1+s), L = ln(1+s)) the difference")


register(Claim(
    id="puff.thm322.lower_exponent",
    title="(3.2.4): exp(-L/b) = exp(eps ln(1/(1-q))/(4 ln(1-q))) = e^{-eps/4} at b = -(4/eps) ln(1-q)",
    source=THM, kind="identity", lhs=sp.exp(-L / B_PRINTED), rhs=sp.exp(-eps / 4), conditions=(sp.Lt(q, 1),),
    proof=lambda: _prove_exponent(sp.exp(-L / B_PRINTED), sp.exp(-eps / 4))))
register(Claim(
    id="puff.thm322.upper_exponent",
    title="(3.2.5): exp(3L/b) = exp(-3 eps ln(1/(1-q))/(4 ln(1-q))) = e^{3 eps/4} at b = -(4/eps) ln(1-q)",
    source=THM, kind="identity", lhs=sp.exp(3 * L / B_PRINTED), rhs=sp.exp(3 * eps / 4), conditions=(sp.Lt(q, 1),),
    proof=lambda: _prove_exponent(sp.exp(3 * L / B_PRINTED), sp.exp(3 * eps / 4))))

# the two printed right-hand sides (the common Laplace factor kept as printed)
_DIST = sp.Abs(sp.log(omega / c) - sp.log(y))
_KERNEL_EXP = eps * _DIST / (4 * sp.log(1 - q))
_RHS_324 = -eps / (8 * sp.log(1 - q)) * sp.exp(_KERNEL_EXP + eps * L / (4 * sp.log(1 - q)))
_RHS_325 = -eps / (8 * sp.log(1 - q)) * sp.exp(_KERNEL_EXP - 3 * eps * L / (4 * sp.log(1 - q)))


def _prove_ratio() -> Proof:
    k = 1 / (2 * B_PRINTED) * sp.exp(-_DIST / B_PRINTED)     # Laplace density at ln(omega/c) - ln y
    return all_of(
        cited("the density of ln M(t) = ln c + ln t + X given ln t = u is k(ln omega - ln c - u), "
              "k(v) = e^{-|v|/b}/(2b) (c > 0); the density given a secret is its mixture over the conditional "
              "law of ln t (convolution), and the Jacobian 1/omega of omega -> ln omega is common to both secrets"),
        cited("|a + d| <= |a| + |d| (triangle inequality) with a = ln(omega/c) - ln y, d = ln y - ln t, "
              "and |d| <= L on I1 (puff.thm322.interval_containment): k(a + d) >= k(a) e^{-L/b}"),
        zero(in_s(_RHS_324 - k * sp.exp(-L / B_PRINTED)), "(3.2.4) is k(a) e^{-L/b} at the printed b"),
        cited("|a + d| >= |a| - |d| (reverse triangle inequality) and |d| <= 3L on I2: k(a + d) <= k(a) e^{3L/b}"),
        zero(in_s(_RHS_325 - k * sp.exp(3 * L / B_PRINTED)), "(3.2.5) is k(a) e^{3L/b} at the printed b"),
        cited("the conditional law of ln t integrates to 1, so P(omega | I1) >= (3.2.4) and P(omega | I2) <= (3.2.5)"),
        zero(in_s(sp.powsimp(_RHS_325 / _RHS_324) - sp.exp(eps)), "(3.2.5)/(3.2.4) = e^eps"),
        zero(in_s(sp.exp(L / B_PRINTED) / sp.exp(-3 * L / B_PRINTED) - sp.exp(eps)),
             "the reverse direction (upper e^{L/b} on I1, lower e^{-3L/b} on I2): e^{4L/b} = e^eps"),
        cited("P(omega | I2) <= (3.2.5) = e^eps (3.2.4) <= e^eps P(omega | I1), and symmetrically: (3.1.5)-(3.1.6)"))


register(Claim(
    id="puff.thm322.ratio",
    title="Theorem 3.2.2: RHS(3.2.5)/RHS(3.2.4) = e^eps, so the mechanism is eps-Pufferfish for q% intervals",
    source=THM, kind="identity", lhs=_RHS_325 / _RHS_324, rhs=sp.exp(eps), conditions=(sp.Lt(q, 1),),
    proof=_prove_ratio,
    note="The two printed bounds at b = -(4/eps) ln(1-q) share the factor k(ln(omega/c) - ln y); their "
         "ratio is e^{3eps/4}/e^{-eps/4}. The triangle-inequality steps and the mixture (convolution) step "
         "are cited deductions; the algebra is exact. The proof needs c > 0 (it takes ln c), i.e. b < 1: "
         "see the erratum puff.thm322.bias_correction. The proof writes the mixture as an integral over dt "
         "of f(ln t | ...); read as the conditional density of t it integrates to 1 as claimed (read as the "
         "density of ln t, the measure would have to be dt/t). Definition 3.1.4 compares P(M = omega | ...), "
         "zero for a continuous output; the paper's own remark reads it for sets W (equivalently densities), "
         "which is how it is checked here."))

# -- y < 0: reflection ------------------------------------------------------------------------
_y_neg = -v
_J1 = sp.Interval.Lopen((1 + q) ** 2 / (1 - q) * _y_neg, (1 + q) * _y_neg)
_J2 = sp.Interval.Lopen((1 + q) * _y_neg, (1 - q) * _y_neg)
_I1 = lambda yy: sp.Interval.Ropen((1 - q) * yy, (1 + q) * yy)                     # noqa: E731
_I2 = lambda yy: sp.Interval.Ropen((1 + q) * yy, (1 + q) ** 2 / (1 - q) * yy)       # noqa: E731
_NEG = sp.Lambda(x, -x)


def _reflect(iv: sp.Interval) -> sp.Interval:
    return sp.Interval(-iv.end, -iv.start, iv.right_open, iv.left_open)


def _prove_reflection() -> Proof:
    steps = []
    for src, dst, name in ((_J1, _I2(v), "first secret of the y<0 pair -> I2(-y)"),
                           (_J2, _I1(v), "second secret of the y<0 pair -> I1(-y)")):
        img = _reflect(src)
        steps.append(zero(img.start - dst.start, f"{name}: left endpoint"))
        steps.append(zero(img.end - dst.end, f"{name}: right endpoint"))
        steps.append(Proof(img.left_open == dst.left_open and img.right_open == dst.right_open,
                           (f"{name}: (a, b] reflects to [-b, -a): closed left, open right as in the positive pair",)))
    X = sp.Symbol("X", real=True)
    t = sp.Symbol("t", real=True)
    steps.append(zero(c * sp.exp(X) * (-t) + c * sp.exp(X) * t, "M(-t) = -M(t) pathwise (the same X)"))
    steps.append(cited("D (3.1.3) is closed under t -> -t, and P(M(t) in W | t in J, theta) = P(M(t') in -W | t' in -J, "
                       "theta') for t' = -t with law theta'; so (3.1.5)-(3.1.6) for the y < 0 pair at W are those of "
                       "the positive pair (I2(-y), I1(-y)) at -W, which hold with the same eps (both directions)"))
    return all_of(*steps)


register(Claim(
    id="puff.thm322.reflection",
    title="Theorem 3.2.2, y < 0: the secrets of (3.1.2) reflect onto the positive pair for -y, and M(-t) = -M(t)",
    source=THM, kind="identity",
    lhs=sp.Tuple(sp.ImageSet(_NEG, _J1), sp.ImageSet(_NEG, _J2)), rhs=sp.Tuple(_I2(v), _I1(v)),
    conditions=(sp.Lt(q, 1),),
    proof=_prove_reflection,
    note="y = -v < 0 (v > 0). The pair ((1+q)^2 y/(1-q), (1+q)y], ((1+q)y, (1-q)y] reflects to [(1+q)v, (1+q)^2 v/(1-q)), "
         "[(1-q)v, (1+q)v): the positive pair for v in the other order (the definition is symmetric in the pair)."))


# -- beyond the document: the tight epsilon ------------------------------------------------------
def _prove_tight_epsilon() -> Proof:
    u1 = sp.Symbol("u_1", real=True)
    d, d1, d2 = sp.symbols("d d_1 d_2", nonnegative=True)
    dd = sp.Symbol("d", positive=True)
    wz = sp.Symbol("w", nonnegative=True)
    k = lambda zz, uu: pdf(zz, b, uu)                                                  # noqa: E731
    D = sp.log((1 + q) ** 2 / (1 - q)) - sp.log(1 - q)                                # sup I2 - inf I1
    steps = [
        zero(in_s(D - LOG_RATIO * 2), "sup I2 - inf I1 = ln((1+q)^2/(1-q)) - ln(1-q) = 2 ln((1+q)/(1-q))"),
        log_sign(LOG_RATIO, ">", "ln((1+q)/(1-q))"),
        zero(k(u1 - wz, u1) / k(u1 - wz, u1 + dd) - sp.exp(dd / b),
             "z = u1 - w <= u1 < u2 = u1 + d: k(z - u1)/k(z - u2) = e^{(|z-u2| - |z-u1|)/b} = e^{d/b}"),
    ]
    # |z - u2| - |z - u1| and its negative are <= |u2 - u1| = d for every z (u1 < u2): three positions of z
    cases = (("z = u1 - w <= u1", u1 - wz, u1 + d), ("u1 <= z = u1 + d1 <= u2 = z + d2", u1 + d1, u1 + d1 + d2),
             ("z = u2 + w >= u2", u1 + d + wz, u1 + d))
    for name, zz, u2 in cases:
        gap = sp.expand(u2 - u1)
        for sgn in (1, -1):
            diff = sgn * (sp.Abs(zz - u2) - sp.Abs(zz - u1))
            steps.append(sign_step(gap - diff, ">=", f"{name}: |u2 - u1| - ({'+' if sgn > 0 else '-'})(|z-u2| - |z-u1|)"))
    de_ = sp.Symbol("delta", positive=True)
    steps += [
        cited("u1 in cl I1 and u2 in cl I2 both lie in [inf I1, sup I2], so |u1 - u2| <= D = sup I2 - inf I1, with "
              "equality only for u1 = inf I1, u2 = sup I2, which is not in I2 (open end)"),
        cited("so k(z - u1) <= e^{D/b} k(z - u2) and k(z - u2) <= e^{D/b} k(z - u1) for all u1 in I1, u2 in I2, z; "
              "integrating against the conditional laws theta_1(du1) theta_2(du2) bounds both density ratios by "
              "e^{D/b} for every prior theta and output (the factor c and the Jacobian cancel as in Theorem 3.2.2)"),
        zero(in_s(sp.log(sp.limit(sp.exp((D - de_) / b), de_, 0, "+"))) - in_s(D / b),
             "point masses at u1 = inf I1, u2 = sup I2 - delta and an output z <= u1 give the ratio e^{(D-delta)/b} "
             "(identity above with d = D - delta), which tends to e^{D/b} as delta -> 0+ (compared as logarithms)"),
        cited("so the least eps for which (3.1.5)-(3.1.6) hold is D/b: a supremum, approached but not attained "
              "(for every prior the ratio is < e^{D/b}); for y < 0 the same by puff.thm322.reflection"),
        zero(in_s(D / b - EPS_TIGHT), "D/b = (2/b) ln((1+q)/(1-q))"),
    ]
    return all_of(*steps)


EPS_STAR = sp.Symbol(r"\varepsilon^{*}(b)", positive=True)
register(Claim(
    id="puff.tight.epsilon",
    title="Tight Pufferfish epsilon of the log-Laplace mechanism at scale b: (2/b) ln((1+q)/(1-q))",
    source=DEF314, kind="identity", lhs=EPS_STAR, rhs=EPS_TIGHT, conditions=(sp.Lt(q, 1),),
    proof=_prove_tight_epsilon,
    note="Beyond the document. eps*(b) is the least eps such that the mechanism c e^X t, X ~ Laplace(0, b), "
         "satisfies Definition 3.1.4 for q% intervals (c > 0). The ratio of output densities given the two "
         "secrets is a ratio of mixtures of Laplace(b) densities centred in I1 and I2; it is bounded by "
         "e^{|u1-u2|/b} <= e^{(sup I2 - inf I1)/b} = ((1+q)/(1-q))^{2/b}, and point-mass priors at the far ends "
         "with an output below both approach the bound. The upper end of I2 is open, so the supremum is not "
         "attained, but no smaller eps works."))


def _prove_tight_scale() -> Proof:
    return all_of(
        log_sign(LOG_RATIO, ">", "K = ln((1+q)/(1-q))"),
        sign_step(sp.diff(EPS_TIGHT, b), "<", "d eps*(b)/db = -2K/b^2", lambda e: in_s(e)),
        zero(EPS_TIGHT.subs(b, B_TIGHT) - eps, "eps*(b*(eps)) = eps"),
        cited("eps*(b) = 2K/b is continuous and strictly decreasing in b, so eps*(b) <= eps exactly for "
              "b >= b*(eps): b* is the least scale with tight epsilon <= eps"))


B_STAR = sp.Symbol(r"b^{*}(\varepsilon)", positive=True)
register(Claim(
    id="puff.tight.scale",
    title="Tight scale for a target eps: b*(eps) = (2/eps) ln((1+q)/(1-q)), the least b with eps*(b) <= eps",
    source=DEF314, kind="identity", lhs=B_STAR, rhs=B_TIGHT, conditions=(sp.Lt(q, 1),),
    proof=_prove_tight_scale, note="Beyond the document; from puff.tight.epsilon."))

_VS_RHS = sp.Rational(1, 2) + sp.log(1 + q) / (2 * L)
register(Claim(
    id="puff.tight.vs_printed",
    title="b*/b_printed = ln((1+q)/(1-q)) / (2 ln(1/(1-q))) = 1/2 + ln(1+q)/(2 ln(1/(1-q)))",
    source=THM, kind="identity", lhs=B_TIGHT / B_PRINTED, rhs=_VS_RHS, conditions=(sp.Lt(q, 1),),
    proof=lambda: all_of(
        zero(in_s(B_TIGHT / B_PRINTED - RATIO_TIGHT_PRINTED), "b*/b_printed = ln((1+q)/(1-q))/(2L)"),
        zero(in_s(RATIO_TIGHT_PRINTED - _VS_RHS), "ln((1+q)/(1-q)) = ln(1+q) + L")),
    note="The same number is eps*(b_printed)/eps: the tight epsilon of the printed mechanism is this fraction "
         "of the nominal eps. It lies in (1/2, 1) (puff.tight.vs_printed_above_half, "
         "puff.tight.vs_printed_below_one), so the printed scale is valid but conservative; at q = 0.15 it is "
         "0.929986656960696423529528346764 (the exact expression evaluated with mpmath, 30 digits), i.e. the "
         "printed b = -(4/eps) ln 0.85 is about 7.5% larger than needed (eps = 1.3: b = 0.500058, b* = 0.465047; "
         "the printed mechanism is 1.208983-Pufferfish)."))
register(Claim(
    id="puff.tight.vs_printed_below_one",
    title="b*/b_printed < 1: the printed scale is conservative (printed eps > tight eps is Lemma 3.2.1, first, strict)",
    source=LEMMA, kind="inequality", lhs=RATIO_TIGHT_PRINTED, rhs=1, relation="<", conditions=(sp.Lt(q, 1),),
    proof=lambda: all_of(
        zero(in_s(1 - RATIO_TIGHT_PRINTED - (L - sp.log(1 + q)) / (2 * L)), "1 - ratio = (L - ln(1+q))/(2L)"),
        log_sign(L - sp.log(1 + q), ">", "L - ln(1+q) = -ln((1+q)(1-q)) (1 + q < 1/(1-q), Lemma 3.2.1)"),
        log_sign(L, ">", "L = ln(1/(1-q))"))))
register(Claim(
    id="puff.tight.vs_printed_above_half",
    title="b*/b_printed > 1/2",
    source=LEMMA, kind="inequality", lhs=RATIO_TIGHT_PRINTED, rhs=sp.Rational(1, 2), relation=">",
    conditions=(sp.Lt(q, 1),),
    proof=lambda: all_of(
        zero(in_s(RATIO_TIGHT_PRINTED - sp.Rational(1, 2) - sp.log(1 + q) / (2 * L)), "ratio - 1/2 = ln(1+q)/(2L)"),
        log_sign(sp.log(1 + q), ">", "ln(1+q)"), log_sign(L, ">", "L = ln(1/(1-q))"))))
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
def _prove_bias_correction() -> Proof:
    # eps > 4L  <=>  b = 4L/eps = 1/(1 + w) with w > 0
    sub = {eps: -4 * sp.log(1 - q) * (1 + w)}
    bw = sp.simplify(B_PRINTED.subs(sub))
    mean = expectation(sp.exp(x), b=bw, mu=0).doit()
    return all_of(zero(bw - 1 / (1 + w), "eps = -4 ln(1-q)(1+w), w > 0 (i.e. eps > -4 ln(1-q)) gives b = 1/(1+w) < 1"),
                  zero(1 / mean - (1 - bw**2), "1/E[e^X] integrated directly at b = 1/(1+w) equals 1 - b^2"))


_BIAS_LHS = 1 / expectation(sp.exp(x), b=B_PRINTED, mu=0)
erratum(
    "puff.thm322.bias_correction",
    printed=Claim(
        id="puff.thm322.bias_correction.printed",
        title="Theorem 3.2.2 as printed: c = 1 - b^2 is the bias correction 1/E(e^X) for every eps > 0",
        source=THM, kind="identity", lhs=_BIAS_LHS, rhs=1 - B_PRINTED**2, conditions=(sp.Lt(q, 1),),
        counterexample={eps: 1, q: sp.Rational(1, 2)}),
    corrected=Claim(
        id="puff.thm322.bias_correction",
        title="c = 1 - b^2 = 1/E(e^X) exactly when eps > -4 ln(1 - q), i.e. b < 1",
        source=THM, kind="identity", lhs=_BIAS_LHS, rhs=1 - B_PRINTED**2,
        conditions=(sp.Lt(q, 1), sp.Gt(eps, -4 * sp.log(1 - q))), proof=_prove_bias_correction,
        note="For eps <= -4 ln(1-q) (b >= 1) E(e^X) is infinite (laplace.mgf_ab_plus_one and "
             "laplace.mgf_ab_above_one) and c = 1 - b^2 <= 0. The privacy conclusion survives (for c < 0 the "
             "proof works with ln|c|; c = 0 publishes 0), but the printed proof takes ln c, and the mechanism "
             "is no longer unbiased: e.g. q = 0.15 needs eps > 0.650 for b < 1."),
    explanation=("Theorem 3.2.2 allows every eps > 0 and calls c = 1 - b^2 the bias correction 1/E(e^X) "
                 "(Proposition 4). With b = -(4/eps) ln(1-q) this requires b < 1, i.e. eps > -4 ln(1-q). At eps = 1, "
                 "q = 1/2, b = 4 ln 2 > 1: E(e^X) = oo, so 1/E(e^X) = 0, while 1 - b^2 = 1 - 16 ln^2 2 < 0."))


# ==============================================================================================
# Appendix B: disclosure risk, mu = 0
# ==============================================================================================
A_R = (1 + p - R) / c
B_R = (1 - p - R) / c
LO = sp.Piecewise((sp.log((1 - p - R) / c), 1 - p - R > 0), (-sp.oo, True))
HI = sp.Piecewise((sp.log((1 + p - R) / c), 1 + p - R > 0), (-sp.oo, True))
RISK = sp.Integral(pdf(x, b, 0), (x, LO, HI))          # f(R) = P(1 - p - R < c e^X < 1 + p - R)
G = (1 / b - 1) * sp.log(B_R) + (1 / b + 1) * sp.log(A_R)


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
# the same ranges with min/max split (equivalent conjunctions), used to check parametrisations
ELEMENTARY = {
    1: (sp.Le(R, 1 - p - c),),
    2: (sp.Gt(R, 1 - p - c), sp.Le(R, 1 - p), sp.Le(R, 1 + p - c)),
    3: (sp.Gt(R, 1 + p - c), sp.Lt(R, 1 - p)),
    4: (sp.Ge(R, 1 - p), sp.Le(R, 1 + p - c)),
    5: (sp.Ge(R, 1 + p - c), sp.Ge(R, 1 - p), sp.Lt(R, 1 + p)),
    6: (sp.Ge(R, 1 + p),),
}
# (A, B) parametrisations covering each range (B = 0 separately where the range contains R = 1 - p)
PARAMS = {
    1: ((A, B, "B = 1 + beta_0 >= 1, A = B + alpha", {A: 1 + be0 + al, B: 1 + be0}),),
    2: ((A, B, "0 < B = 1/(1+beta) < 1 <= A = 1 + alpha_0", {A: 1 + al0, B: 1 / (1 + be)}),
        (A, B, "B = 0 (R = 1 - p), A = 1 + alpha_0 >= 1", {A: 1 + al0, B: 0})),
    3: ((A, B, "0 < B = A/(1+beta) < A = 1/(1+alpha) < 1", {A: 1 / (1 + al), B: 1 / ((1 + al) * (1 + be))}),),
    4: ((A, B, "B = -beta_0 <= 0, A = 1 + alpha_0 >= 1", {A: 1 + al0, B: -be0}),),
    5: ((A, B, "B = -beta_0 <= 0 < A = 1/(1+alpha_0) <= 1", {A: 1 / (1 + al0), B: -be0}),),
    6: ((A, B, "A = -alpha_0 <= 0, B = A - delta", {A: -al0, B: -al0 - de}),),
}
GLOBAL = (sp.Lt(p, 1),)


def _range_conditions(k):
    lo, lo_strict, hi, hi_strict = RANGES[k]
    out = []
    if lo is not None:
        out.append(sp.Lt(lo, R) if lo_strict else sp.Le(lo, R))
    if hi is not None:
        out.append(sp.Lt(R, hi) if hi_strict else sp.Le(R, hi))
    return tuple(out)


def _rhs(k):
    return PIECES[k](A_R, B_R)


def _to_AB(a_e, b_e):
    """(p, R) in terms of (A, B): p = c (A - B)/2, R = 1 - c (A + B)/2."""
    return {p: c * (a_e - b_e) / 2, R: 1 - c * (a_e + b_e) / 2}


def _translation() -> Proof:
    sub = _to_AB(A, B)
    return all_of(
        zero(sp.expand(A_R.subs(sub)) - A, "A = (1+p-R)/c at p = c(A-B)/2, R = 1 - c(A+B)/2"),
        zero(sp.expand(B_R.subs(sub)) - B, "B = (1-p-R)/c likewise"),
        cited("(R, p) -> (A, B) is a bijection of R x (0, oo) onto {A > B} (c > 0); R <= 1-p-c <=> B >= 1, "
              "R <= 1-p <=> B >= 0, R <= 1+p-c <=> A >= 1, R < 1+p <=> A > 0, so every range of b.1.3 is a region "
              "in (A, B), covered by the parametrisations below (each checked to satisfy the range's conditions)"))


def _laplace_mass(lo, hi):
    """P(lo < X < hi), X ~ Laplace(0, b), from the branch densities; the signs of lo, hi must be decided."""
    if lo == hi:
        return sp.S.Zero, Proof(True, ("empty interval: mass 0",))

    ld, rd = left_density(x, b, 0), right_density(x, b, 0)
    if hi == -sp.oo or hi.is_nonpositive:
        return _definite(ld, lo, hi), Proof(True, (f"limits {lo} < {hi} <= 0: |x| = -x on the interval",))
    if lo.is_nonnegative:
        return _definite(rd, lo, hi), Proof(True, (f"0 <= {lo} < {hi}: |x| = x on the interval",))
    if (lo == -sp.oo or lo.is_nonpositive) and hi.is_nonnegative:
        return (_definite(ld, lo, 0) + _definite(rd, 0, hi), Proof(True, (f"{lo} <= 0 <= {hi}: split at 0",)))
    return None, Proof(False, (f"sign of the limits {lo}, {hi} not decided",))


def _antiderivative(dens):
    prim = sp.integrate(dens, x)
    if not is_zero(sp.diff(prim, x) - dens):
        raise ValueError(f"antiderivative of {dens} not verified")
    return prim


def _definite(dens, lo, hi):
    """int_lo^hi dens dx by the fundamental theorem of calculus (antiderivative checked by differentiation;
    an infinite limit by SymPy's limit of the antiderivative)."""
    prim = _antiderivative(dens)
    at = lambda t: sp.limit(prim, x, t) if t.is_infinite else prim.subs(x, t)       # noqa: E731
    return at(sp.sympify(hi)) - at(sp.sympify(lo))


def _limit_of(arg_R, sub):
    """ln(arg/c) if arg > 0 else -oo, with the sign of arg decided after the substitution."""
    arg = sp.factor(sp.expand(arg_R.subs(sub)))
    if arg.is_positive:
        return sp.expand_log(sp.log(sp.factor(arg / c)), force=False), f"{arg_R} = {arg} > 0"
    if arg.is_nonpositive:
        return -sp.oo, f"{arg_R} = {arg} <= 0: limit -oo"
    return None, f"sign of {arg_R} = {arg} not decided"


def _branches_ok() -> Proof:
    t = sp.Symbol("tau", nonnegative=True)
    return all_of(zero(pdf(-t, b, 0) - left_density(-t, b, 0), "pdf = left density on x = -tau <= 0"),
                  zero(pdf(t, b, 0) - right_density(t, b, 0), "pdf = right density on x = tau >= 0"))


def _prove_piece(k) -> Proof:
    steps = [_translation(), _branches_ok()]
    for _, _, name, par in PARAMS[k]:
        sub = _to_AB(par[A], par[B])
        checks = [_rel(r, sub) for r in ELEMENTARY[k]]
        ok_range = all(ch == sp.true for ch in checks) and bool(_decided(par[A] - par[B]).is_positive)
        steps.append(Proof(ok_range, (f"[{name}] satisfies the range of piece {k} and p > 0: "
                                      f"{'decided' if ok_range else 'NOT decided'}",)))
        lo, lo_txt = _limit_of(1 - p - R, sub)
        hi, hi_txt = _limit_of(1 + p - R, sub)
        if lo is None or hi is None:
            steps.append(Proof(False, (lo_txt, hi_txt)))
            continue
        lo_expected = LO.subs(sub)
        hi_expected = HI.subs(sub)
        steps.append(Proof(True, (f"[{name}] lower limit: {lo_txt}; upper limit: {hi_txt}",)))
        # the claim's own Piecewise limits agree with the decided ones
        for got, want, which in ((lo_expected, lo, "lower"), (hi_expected, hi, "upper")):
            got = _resolve(got)
            same = (got == want) if want == -sp.oo else is_zero(_factor_logs(got) - want)
            steps.append(Proof(bool(same), (f"[{name}] the claim's {which} limit evaluates to {want}",)))
        mass, mp_ = _laplace_mass(lo, hi)
        steps.append(mp_)
        if mass is None:
            continue
        steps.append(zero_exp(mass - _rhs(k).subs(sub), f"[{name}] the integral equals piece {k}"))
    return all_of(*steps)


_PIECE_TITLES = {
    1: "R <= 1-p-c: 1/2 [((1-p-R)/c)^{-1/b} - ((1+p-R)/c)^{-1/b}]",
    2: "1-p-c < R <= min(1-p, 1+p-c): 1 - 1/2 [((1+p-R)/c)^{-1/b} + ((1-p-R)/c)^{1/b}]",
    3: "1+p-c < R < 1-p: 1/2 [((1+p-R)/c)^{1/b} - ((1-p-R)/c)^{1/b}]",
    4: "1-p <= R <= 1+p-c: 1 - 1/2 ((1+p-R)/c)^{-1/b}",
    5: "max(1+p-c, 1-p) <= R < 1+p: 1/2 ((1+p-R)/c)^{1/b}",
    6: "R >= 1+p: 0",
}
PIECE_CLAIMS = {}
for _k in range(1, 7):
    PIECE_CLAIMS[_k] = register(Claim(
        id=f"puff.b13.piece{_k}", title=f"Equation b.1.3, piece {_k}: {_PIECE_TITLES[_k]}",
        source=COR, kind="identity", lhs=RISK, rhs=_rhs(_k), conditions=GLOBAL + _range_conditions(_k),
        proof=(lambda k=_k: _prove_piece(k)),
        note="The left side is the Laplace(0, b) mass between ln((1-p-R)/c) (-oo when 1-p-R <= 0) and "
             "ln((1+p-R)/c) (-oo when 1+p-R <= 0). Proved for every b > 0 and c > 0 (the paper's c = 1 - b^2 "
             "with 0 < b < 1 is a special case), by writing A = (1+p-R)/c and B = (1-p-R)/c with the signs of "
             "ln A and ln B fixed by the piece and integrating the branch densities. The paper's rearrangement "
             "divides by y_j, tacitly y_j > 0 (for y_j < 0 the printed event (1-p)y_j < ... < (1+p)y_j is empty; "
             "the p% interval is then ((1+p)y_j, (1-p)y_j) and the same f(R) results)."))


# -- the ranges cover R, agree on overlaps; f is continuous -----------------------------------------
_JUNCTIONS = (
    ("R = 1-p-c (B = 1)", P1(A, 1), P2(A, 1)),
    ("R = 1+p-c (A = 1), c > 2p", P2(1, B), P3(1, B)),
    ("R = 1-p (B = 0), c > 2p", P3(A, 0), P5(A, 0)),
    ("R = 1-p (B = 0), c <= 2p", P2(A, 0), P4(A, 0)),
    ("R = 1+p-c (A = 1), c <= 2p", P4(1, B), P5(1, B)),
    ("R = 1+p (A = 0)", P5(0, B), P6(0, B)),
)


def _prove_continuity() -> Proof:
    return all_of(
        *(zero_exp(left - right, f"{name}: left and right formulas agree") for name, left, right in _JUNCTIONS),
        cited("each formula is continuous on the closure of its range (t^{1/b} on [0, oo); t^{-1/b} only where "
              "t >= 1), so these identities at the breakpoints make f continuous on R (which pieces meet at "
              "which breakpoint, for each order type: puff.b13.cases_partition)"))


register(Claim(
    id="puff.b13.continuity",
    title="Equation b.1.3: the formulas of adjacent pieces agree at every breakpoint (f is continuous in R)",
    source=COR, kind="identity",
    lhs=sp.ImmutableMatrix([j[1] for j in _JUNCTIONS]), rhs=sp.ImmutableMatrix([j[2] for j in _JUNCTIONS]),
    proof=_prove_continuity,
    note="Rows: R = 1-p-c (pieces 1|2), R = 1+p-c (2|3, when c > 2p), R = 1-p (3|5, c > 2p), R = 1-p (2|4, "
         "c <= 2p), R = 1+p-c (4|5, c <= 2p), R = 1+p (5|6), in A = (1+p-R)/c, B = (1-p-R)/c."))

_GRID = tuple(Fraction(n, d) for n, d in ((1, 20), (1, 10), (3, 20), (1, 5), (3, 10), (1, 2), (3, 4), (9, 10), (19, 20)))
_B_GRID = (Fraction(1, 3), Fraction(1, 2), Fraction(2, 3))


def _bounds(k):
    lo, lo_strict, hi, hi_strict = RANGES[k]
    mm = [{"Min": min, "Max": max}]
    flo = sp.lambdify((p, c), lo, modules=mm) if lo is not None else None
    fhi = sp.lambdify((p, c), hi, modules=mm) if hi is not None else None
    return flo, lo_strict, fhi, hi_strict


def _holds(bounds, Rv, pv, cv) -> bool:
    flo, lo_strict, fhi, hi_strict = bounds
    if flo is not None:
        lo = flo(pv, cv)
        if (Rv <= lo) if lo_strict else (Rv < lo):
            return False
    if fhi is not None:
        hi = fhi(pv, cv)
        if (Rv >= hi) if hi_strict else (Rv > hi):
            return False
    return True


def _value(k, Rv, pv, cv, bv):
    Q = sp.Rational
    return PIECES[k](Q(1 + pv - Rv) / Q(cv), Q(1 - pv - Rv) / Q(cv), Q(bv))


def _enumerate_partition() -> Enumeration:
    bounds = {k: _bounds(k) for k in PIECES}
    cases, kinds = 0, set()
    combos = [(pv, cv) for pv in _GRID for cv in _GRID] + [(pv, 1 - bv * bv) for pv in _GRID for bv in _B_GRID]
    for pv, cv in combos:
        kinds.add((cv > 2 * pv) - (cv < 2 * pv))
        bps = sorted({1 - pv - cv, 1 + pv - cv, 1 - pv, 1 + pv})
        gaps = [bps[0] - 1] + [(u + t) / 2 for u, t in zip(bps, bps[1:])] + [bps[-1] + 1]
        holds_at = {Rv: [k for k in PIECES if _holds(bounds[k], Rv, pv, cv)] for Rv in bps + gaps}
        cex = {"p": str(pv), "c": str(cv)}
        for Rv in gaps:
            cases += 1
            if len(holds_at[Rv]) != 1:
                return Enumeration(False, cases, f"open gap point satisfies pieces {holds_at[Rv]}", {**cex, "R": str(Rv)})
        has3 = any(3 in ks for ks in holds_at.values())
        has4 = any(4 in ks for ks in holds_at.values())
        if has3 != (cv > 2 * pv) or has4 != (cv <= 2 * pv):
            return Enumeration(False, cases, "piece 3 / piece 4 existence is not c > 2p / c <= 2p", cex)
        for bv in _B_GRID:
            for i, Rv in enumerate(bps):
                cases += 1
                left_k, right_k = holds_at[gaps[i]][0], holds_at[gaps[i + 1]][0]
                if not holds_at[Rv]:
                    return Enumeration(False, cases, "breakpoint satisfies no piece", {**cex, "R": str(Rv)})
                vals = [_value(k, Rv, pv, cv, bv) for k in holds_at[Rv]]
                vals += [_value(left_k, Rv, pv, cv, bv), _value(right_k, Rv, pv, cv, bv)]
                if any(not is_zero(val - vals[0]) for val in vals[1:]):
                    return Enumeration(False, cases, f"pieces {holds_at[Rv]} (neighbours {left_k}, {right_k}) disagree",
                                       {**cex, "R": str(Rv), "b": str(bv)})
                if all(val.is_Rational for val in vals) and not 0 <= vals[0] <= 1:
                    return Enumeration(False, cases, "value outside [0, 1]", {**cex, "R": str(Rv), "b": str(bv)})
    if kinds != {-1, 0, 1}:
        return Enumeration(False, cases, f"order types covered: {kinds}")
    return Enumeration(True, cases, (
        f"{len(combos)} pairs (p, c) (p, c in {{1/20, ..., 19/20}} and c = 1 - b^2), covering the three order types "
        "of the breakpoints (c > 2p, c = 2p, c < 2p); every open gap (midpoints and beyond the ends) satisfies exactly "
        "one range; at every breakpoint, for b in {1/3, 1/2, 2/3}, every range holding there and both neighbouring "
        "formulas give the same exact value; piece 3 occurs iff c > 2p, piece 4 iff c <= 2p. Which ranges hold at R "
        "depends only on the order type and the position of R among the breakpoints, so this covers all (p, c)"))


_COUNT = sum(sp.Piecewise((1, sp.And(*_range_conditions(k))), (0, True)) for k in PIECES)
register(Claim(
    id="puff.b13.cases_partition",
    title="Equation b.1.3: the six ranges cover every real R, overlap only where the formulas agree; "
          "pieces 3 and 4 never coexist (3 iff c > 2p, 4 iff c <= 2p)",
    source=COR, kind="inequality", lhs=_COUNT, rhs=1, relation=">=", conditions=GLOBAL + (sp.Lt(c, 1),),
    enumeration=_enumerate_partition,
    note="lhs counts the ranges containing R. Overlaps: R = 1-p (pieces 2 and 4) and R = 1+p-c (4 and 5) when "
         "c < 2p, R = 1-p (2, 4, 5) when c = 2p; none when c > 2p. The paper's remark 'the third and fourth case "
         "cannot occur at the same time' is confirmed: piece 3's range (1+p-c, 1-p) is non-empty iff c > 2p, "
         "piece 4's [1-p, 1+p-c] iff c <= 2p."))


# -- monotonicity -------------------------------------------------------------------------------
_K = 1 / (2 * b * c)
_DERIV = {
    1: _K * (B_R ** (-1 / b - 1) - A_R ** (-1 / b - 1)),
    2: _K * (B_R ** (1 / b - 1) - A_R ** (-1 / b - 1)),
    3: _K * (B_R ** (1 / b - 1) - A_R ** (1 / b - 1)),
    4: -_K * A_R ** (-1 / b - 1),
    5: -_K * A_R ** (1 / b - 1),
}


def _derivative_identity(k) -> Proof:
    sub = _to_AB(A, B)
    return zero_exp(sp.expand(sp.diff(_rhs(k), R).subs(sub)) - _DERIV[k].subs(sub),
                    f"d/dR of piece {k} (chain rule, dA/dR = dB/dR = -1/c)")


def _exp_factorisation(X, Y, u, what) -> Proof:
    """X - Y = Y (e^u - 1) with Y > 0, so sign(X - Y) = sign(u)."""
    return all_of(zero_exp(X - Y - Y * (sp.exp(u) - 1), f"{what}: X - Y = Y (e^u - 1), u = ln X - ln Y"),
                  cited("Y > 0 and e^u - 1 has the sign of u (exp is increasing, e^0 = 1)"))


def _prove_piece1_increasing() -> Proof:
    par = {A: 1 + be0 + al, B: 1 + be0}
    u = (1 / b + 1) * sp.log(1 + al / (1 + be0))
    X, Y = B ** (-1 / b - 1), A ** (-1 / b - 1)
    return all_of(_derivative_identity(1), sign_step(_K, ">", "1/(2bc)"),
                  _exp_factorisation(X.subs(par), Y.subs(par), u, "piece 1 (B = 1 + beta_0, A = B + alpha)"),
                  sign_step(u, ">", "u = (1/b + 1) ln(A/B)"))


def _prove_piece3_decreasing() -> Proof:
    par = {A: 1 / (1 + al), B: 1 / ((1 + al) * (1 + be))}
    u = ((1 / b - 1) * sp.log(1 / (1 + be))).subs(B_IN_W)
    X, Y = (B ** (1 / b - 1)).subs(par).subs(B_IN_W), (A ** (1 / b - 1)).subs(par).subs(B_IN_W)
    return all_of(_derivative_identity(3), sign_step(_K, ">", "1/(2bc)"),
                  _exp_factorisation(X, Y, u, "piece 3 (A = 1/(1+alpha), B = A/(1+beta), b = 1/(1+w))"),
                  sign_step(sp.expand_log(u, force=False), "<", "u = (1/b - 1) ln(B/A), b = 1/(1+w)"))


def _prove_simple_decreasing(k) -> Proof:
    sub = _to_AB(A, B)
    return all_of(_derivative_identity(k), sign_step(sp.expand(_DERIV[k].subs(sub)), "<", f"d/dR piece {k} in (A, B)"))


def _prove_piece2_sign() -> Proof:
    sub = _to_AB(A, B)
    rhs = (_K * A_R ** (-1 / b - 1) * (sp.exp(G) - 1)).subs(sub)
    return all_of(_derivative_identity(2),
                  zero_exp(_DERIV[2].subs(sub) - rhs, "(1/(2bc))(B^{1/b-1} - A^{-1/b-1}) = A^{-1/b-1}/(2bc) (e^g - 1)"),
                  sign_step(_K * A ** (-1 / b - 1), ">", "A^{-1/b-1}/(2bc)"),
                  cited("so df/dR has the sign of e^g - 1, i.e. of g (exp increasing)"))


def _prove_g_decreasing() -> Proof:
    sub = _to_AB(A, B)
    dg = sp.expand(sp.diff(G, R).subs(sub))
    return all_of(zero(dg - (-(1 / b - 1) / (c * B) - (1 / b + 1) / (c * A)), "dg/dR = -(1/b-1)/(cB) - (1/b+1)/(cA)"),
                  sign_step(dg.subs(B_IN_W), "<", "dg/dR with b = 1/(1+w) (0 < b < 1), A, B > 0"))


_INTERIOR2 = (sp.Lt(1 - p - c, R), sp.Lt(R, sp.Min(1 - p, 1 + p - c)))
_B_LT_1 = (sp.Lt(b, 1),)
register(Claim(
    id="puff.b13.piece1_increasing", title="f is increasing on piece 1 (R < 1-p-c)", source=THMB2, kind="sign",
    lhs=sp.Derivative(_rhs(1), R), relation=">", conditions=GLOBAL + (sp.Lt(R, 1 - p - c),),
    proof=_prove_piece1_increasing))
register(Claim(
    id="puff.b13.piece2_sign",
    title="On piece 2, df/dR = A^{-1/b-1}/(2bc) (e^{g(R)} - 1): it has the sign of g",
    source=THMB2, kind="identity", lhs=sp.Derivative(_rhs(2), R), rhs=_K * A_R ** (-1 / b - 1) * (sp.exp(G) - 1),
    conditions=GLOBAL + _INTERIOR2, proof=_prove_piece2_sign,
    note="g(R) = (1/b - 1) ln((1-p-R)/c) + (1/b + 1) ln((1+p-R)/c)."))
register(Claim(
    id="puff.b13.g_decreasing", title="g is strictly decreasing on piece 2 (0 < b < 1)", source=THMB2, kind="sign",
    lhs=sp.Derivative(G, R), relation="<", conditions=GLOBAL + _INTERIOR2 + _B_LT_1, proof=_prove_g_decreasing))
register(Claim(
    id="puff.b13.piece3_decreasing", title="f is decreasing on piece 3 (0 < b < 1)", source=THMB2, kind="sign",
    lhs=sp.Derivative(_rhs(3), R), relation="<", conditions=GLOBAL + _range_conditions(3) + _B_LT_1,
    proof=_prove_piece3_decreasing,
    note="For b > 1 the derivative on piece 3 would be positive; b < 1 is the paper's setting (c = 1 - b^2 > 0)."))
for _k, _where in ((4, (sp.Lt(1 - p, R), sp.Lt(R, 1 + p - c))), (5, (sp.Lt(sp.Max(1 + p - c, 1 - p), R), sp.Lt(R, 1 + p)))):
    register(Claim(
        id=f"puff.b13.piece{_k}_decreasing", title=f"f is decreasing on piece {_k}", source=THMB2, kind="sign",
        lhs=sp.Derivative(_rhs(_k), R), relation="<", conditions=GLOBAL + _where,
        proof=(lambda k=_k: _prove_simple_decreasing(k))))


def _prove_monotonicity() -> Proof:
    return all_of(_derivative_identity(2), _prove_piece1_increasing(), _prove_piece2_sign(), _prove_g_decreasing(),
                  _prove_piece3_decreasing(), _prove_simple_decreasing(4), _prove_simple_decreasing(5),
                  cited("g continuous and strictly decreasing on piece 2, so df/dR changes sign at most once, from + "
                        "to -: f is unimodal on piece 2; increasing on piece 1, decreasing on pieces 3, 4, 5"))


register(Claim(
    id="puff.b13.monotonicity",
    title="f increases on piece 1, is unimodal on piece 2 with df/dR = (1/(2bc))[B^{1/b-1} - A^{-1/b-1}] of the sign "
          "of the decreasing g, and decreases on pieces 3-5 (0 < b < 1)",
    source=THMB2, kind="identity", lhs=sp.Derivative(_rhs(2), R), rhs=_DERIV[2],
    conditions=GLOBAL + _INTERIOR2 + _B_LT_1, proof=_prove_monotonicity,
    note="A = (1+p-R)/c >= 1 and B = (1-p-R)/c in (0, 1) on piece 2. The statement shown is the piece-2 derivative; "
         "the proof also runs puff.b13.piece1_increasing, puff.b13.piece2_sign, puff.b13.g_decreasing and "
         "puff.b13.piece{3,4,5}_decreasing."))


# -- Theorem B.2: the supremum --------------------------------------------------------------------
def _prove_sup() -> Proof:
    k = sp.Symbol("k", positive=True)                 # 2p/c
    g_ab = ((1 / b - 1) * sp.log(B) + (1 / b + 1) * sp.log(A)).subs(B_IN_W)
    left = g_ab.subs({B: 1, A: 1 + k})
    right_c_gt = g_ab.subs({A: 1, B: 1 / (1 + be)})
    lim = sp.limit(g_ab.subs(A, B + k), B, 0, "+")
    return all_of(
        zero(_factor_logs(G.subs(_to_AB(A, B))) - ((1 / b - 1) * sp.log(B) + (1 / b + 1) * sp.log(A)),
             "g in (A, B) coordinates"),
        sign_step(sp.expand_log(left, force=False), ">", "g at R = 1-p-c (B = 1, A = 1 + 2p/c)"),
        sign_step(sp.expand_log(right_c_gt, force=False), "<", "g at R = 1+p-c when c > 2p (A = 1, 0 < B < 1)"),
        Proof(lim == -sp.oo, (f"g as R -> 1-p- when c <= 2p (B -> 0+, A = B + 2p/c): limit {lim}",)),
        _prove_g_decreasing(), _prove_piece2_sign(), _prove_piece1_increasing(), _prove_piece3_decreasing(),
        _prove_simple_decreasing(4), _prove_simple_decreasing(5), _prove_continuity(),
        cited("g is continuous and strictly decreasing on piece 2, positive at its left end and negative at (or "
              "tending to -oo at) its right end, so it has exactly one zero R* inside piece 2 (the case 'g does "
              "not change sign' does not arise for 0 < b < 1, p > 0); f increases on piece 1 and on piece 2 up to "
              "R*, decreases from R* through pieces 2-5, is 0 on piece 6 and >= 0, and is continuous: "
              "f(R) <= f(R*) for every R, with equality at R*"))


def _enumerate_sup() -> Enumeration:
    cases = 0
    for kk in (2, 3, 4):                                            # b = 1/k
        cv = 1 - sp.Rational(1, kk * kk)
        for pv in (sp.Rational(1, 20), sp.Rational(3, 20), sp.Rational(3, 10), sp.Rational(1, 2),
                   sp.Rational(3, 4), sp.Rational(9, 10)):
            cases += 1
            poly = sp.Poly(sp.expand((1 - pv - R) ** (kk - 1) * (1 + pv - R) ** (kk + 1) - cv ** (2 * kk)), R)
            lo, hi = 1 - pv - cv, sp.Min(1 - pv, 1 + pv - cv)
            if poly.eval(lo) == 0 or poly.eval(hi) == 0:
                return Enumeration(False, cases, "root at an end of piece 2", {"b": f"1/{kk}", "p": str(pv)})
            n = poly.count_roots(lo, hi)
            if n != 1:
                return Enumeration(False, cases, f"{n} roots in piece 2", {"b": f"1/{kk}", "p": str(pv)})
    return Enumeration(True, cases, (
        "for b = 1/2, 1/3, 1/4 (c = 1 - b^2) and p in {1/20, 3/20, 3/10, 1/2, 3/4, 9/10} the stationarity equation "
        "B^{1/b-1} = A^{-1/b-1}, i.e. (1-p-R)^{1/b-1} (1+p-R)^{1/b+1} = c^{2/b}, has exactly one root in the open "
        "range of piece 2 (exact Sturm count, ends checked not to be roots)"))


FIG_B21 = ("Figure B.2.1 (p = q = 0.15, eps = 1.3; b = -(4/1.3) ln 0.85 = 0.500058244608538194417504486983, "
           "c = 1 - b^2 = 0.749941751999027381814985472690, c > 2p so piece 3 exists and piece 2 is "
           "(0.100058248000972618185014527310, 0.400058248000972618185014527310]): mpmath findroot on g at 50 digits "
           "gives R* = 0.312180597742683452936895189571 and sup f = f(R*) = 0.342206681122650943085171277311 "
           "(30 digits). Note b > 1/2 here although Appendix B.1 assumes b in (0, 1/2): the perturbed value then "
           "has infinite variance (ht.corollary3), while the risk formula itself only needs b < 1.")
register(Claim(
    id="puff.b2.sup",
    title="Theorem B.2: sup_R f(R) = f(R*), attained at the unique zero R* of g in piece 2 (0 < b < 1)",
    source=THMB2, kind="identity", lhs=sp.Symbol(r"\sup_{R} f_{p,q,\varepsilon}(R)"), rhs=_rhs(2).subs(R, R_star),
    conditions=GLOBAL + _B_LT_1 + (sp.Eq(G.subs(R, R_star), 0), sp.Lt(1 - p - c, R_star),
                                   sp.Lt(R_star, sp.Min(1 - p, 1 + p - c))),
    proof=_prove_sup, enumeration=_enumerate_sup,
    note="The Remark after Theorem B.2 says that 'some equations involving derivatives of f seem unsolvable "
         "analytically' and that the upper bound is to be approximated graphically from the highest point of the "
         "graph. No graph is needed: g is strictly monotone with a sign change on piece 2, so R* is found by any "
         "certified bracketing root finder (bisection keeps the bracket [1-p-c, end of piece 2]), and for 1/b an "
         "integer the stationarity equation is a polynomial. The Remark's '5 cases' are the 6 pieces of b.1.3 "
         "less the zero piece. The probability proof of Theorem B.2 remarks that the independence of X and R 'is "
         "not important'; it is used: the inner integral equals f(R) only when the law of X given R is "
         "Laplace(0, b) (it holds because the noises of different passive claimants are independent). "
         + FIG_B21))


# ==============================================================================================
# Errata in Appendix B
# ==============================================================================================
# (i) Proposition 1, proof of Case 2: the upper limit in y_j-units
_RISK_MU = sp.Integral(pdf(x, b, mu), (x, LO, HI))
_CASE2 = (sp.Le(1 - p, R), sp.Lt(R, 1 + p))


def _prove_prop1_case2() -> Proof:
    a = sp.Symbol("a", positive=True)                 # a = 1 + p - R in (0, 2p]
    kap = sp.Symbol("kappa", nonnegative=True)
    sub = {p: a * (1 + kap) / 2, R: 1 + a * (1 + kap) / 2 - a}
    low = sp.factor(sp.expand((1 - p - R).subs(sub)))
    high = sp.factor(sp.expand((1 + p - R).subs(sub)))
    conds = [_rel(r, sub) for r in _CASE2]
    return all_of(
        Proof(all(ch == sp.true for ch in conds), ("a = 1+p-R in (0, 2p], p = a(1+kappa)/2 covers Case 2",)),
        Proof(bool(low.is_nonpositive), (f"1 - p - R = {low} <= 0: the lower limit is -oo",)),
        Proof(bool(high.is_positive), (f"1 + p - R = {high} > 0: the upper limit is ln((1+p-R)/c)",)),
        zero(sp.expand_log(sp.log(a / c)) - (sp.log(a) - sp.log(c)), "ln((1+p-R)/c) = ln(1+p-R) - ln c"),
        _prove_cdf_left(), _prove_cdf_right(),
        cited("so the risk is the Laplace(mu, b) mass below ln(1+p-R) - ln c, i.e. F_X at that point "
              "(laplace.cdf_left / laplace.cdf_right, re-run above)"))


erratum(
    "puff.prop1.case2_upper_limit",
    printed=Claim(
        id="puff.prop1.case2_upper_limit.printed",
        title="Proof of Proposition 1, Case 2 as printed: P(-oo < X < ln((1+p)y_j - R) - ln c)",
        source=PROP1, kind="identity", lhs=_RISK_MU,
        rhs=sp.Integral(pdf(x, b, mu), (x, -sp.oo, sp.log((1 + p) * y_j - R) - sp.log(c))),
        conditions=GLOBAL + _CASE2,
        counterexample={R: 1, p: sp.Rational(1, 2), b: sp.Rational(1, 2), c: sp.Rational(3, 4), mu: 0,
                        y_j: sp.Rational(7, 6)}),
    corrected=Claim(
        id="puff.prop1.case2",
        title="Proposition 1, Case 2 (1-p <= R < 1+p): the risk is F_X(ln(1+p-R) - ln c)",
        source=PROP1, kind="identity", lhs=_RISK_MU, rhs=cdf(sp.log(1 + p - R) - sp.log(c), b, mu),
        conditions=GLOBAL + _CASE2, proof=_prove_prop1_case2,
        note="X ~ Laplace(mu, b), any b > 0, c > 0. Case 1 (R < 1-p: F_X(upper) - F_X(lower)) and Case 3 (0) "
             "are the mu = 0 pieces of b.1.3 shifted; they are checked here for mu = 0 only."),
    explanation=("The Case 2 statement and the next line of its proof use the upper limit ln(1+p-R) - ln(c); the "
                 "first line of the proof writes ln((1+p)y_j - R) - ln(c), mixing the value y_j with the ratio R "
                 "(R = sum y_i / y_j is unit-free). At R = 1, p = 1/2, b = 1/2, c = 3/4, mu = 0, y_j = 7/6 the true "
                 "risk is F_X(ln(2/3)) = 2/9, the printed integral F_X(ln(7/4) - ln(3/4)) = F_X(0) = 1/2 (the printed "
                 "limit depends on y_j, the risk does not)."))

# (ii) Corollary B.1.2, Case 2.1: heading and formula belong to different signs of ln((1+p-R)/c)
erratum(
    "puff.cor_b12.case21_formula",
    printed=Claim(
        id="puff.cor_b12.case21_formula.printed",
        title="Corollary B.1.2, Case 2.1 as printed: under ln(1+p-R) - ln c < 0 (and 1-p <= R < 1+p) the risk is "
              "1 - 1/2 ((1+p-R)/c)^{-1/b}",
        source=COR, kind="identity", lhs=RISK, rhs=_rhs(4),
        conditions=GLOBAL + _CASE2 + (sp.Lt(sp.log(1 + p - R) - sp.log(c), 0),),
        counterexample={R: 1, p: sp.Rational(1, 2), b: sp.Rational(1, 2), c: sp.Rational(3, 4)}),
    corrected=PIECE_CLAIMS[5],
    explanation=("Case 2.1 is headed 'ln(1+p-R) - ln(c) < 0', i.e. R > 1+p-c: there the upper limit is negative and "
                 "the risk is F_X(ln A) = 1/2 A^{1/b}, A = (1+p-R)/c (piece 5 of b.1.3). The case concludes with "
                 "1 - 1/2 A^{-1/b} 'if 1-p <= R <= 1+p-c', the formula and range of the other sign (A >= 1, piece 4, "
                 "which the Corollary never derives as a separate case). At R = 1, p = 1/2, b = 1/2, c = 3/4 "
                 "(heading satisfied: 1+p-c = 3/4 < R) the risk is 2/9 and the printed formula gives -1/8. Equation "
                 "b.1.3 itself lists both pieces correctly."))

# (iii) the middle line of Case 2.1 drops the division by c
_MID_CONDS = GLOBAL + _range_conditions(4)


def _prove_middle_line() -> Proof:
    par = {A: 1 + al0, B: -be0}
    sub = _to_AB(par[A], par[B])
    point = sp.expand_log(sp.log(sp.factor(sp.expand(A_R.subs(sub)))), force=False)
    conds = [_rel(r, sub) for r in ELEMENTARY[4]]
    lhs = _resolve(cdf(sp.log(A_R), b, 0).subs(sub))
    rhs = (1 - sp.exp(-(sp.log(1 + p - R) - sp.log(c)) / b) / 2).subs(sub)
    return all_of(
        Proof(all(ch == sp.true for ch in conds), ("A = 1 + alpha_0, B = -beta_0 covers piece 4",)),
        Proof(bool(point.is_nonnegative), (f"ln((1+p-R)/c) = {point} >= 0: the right branch of F_X",)),
        zero_exp(lhs - rhs, "F_X(ln((1+p-R)/c)) = 1 - 1/2 exp(-(1/b)(ln(1+p-R) - ln c))"),
        zero_exp(rhs - _rhs(4).subs(sub), "= 1 - 1/2 ((1+p-R)/c)^{-1/b} (the last line)"))


erratum(
    "puff.cor_b12.case21_middle_line",
    printed=Claim(
        id="puff.cor_b12.case21_middle_line.printed",
        title="Corollary B.1.2, Case 2.1, middle line as printed: F_X(ln((1+p-R)/c)) = 1 - 1/2 exp(-(1/b) ln(1+p-R))",
        source=COR, kind="identity", lhs=cdf(sp.log(A_R), b, 0), rhs=1 - sp.exp(-sp.log(1 + p - R) / b) / 2,
        conditions=_MID_CONDS,
        counterexample={R: sp.Rational(1, 2), p: sp.Rational(1, 2), b: sp.Rational(1, 2), c: sp.Rational(3, 4)}),
    corrected=Claim(
        id="puff.cor_b12.case21_middle_line",
        title="Where F_X(ln((1+p-R)/c)) = 1 - 1/2 ((1+p-R)/c)^{-1/b} (1-p <= R <= 1+p-c), the middle step is "
              "1 - 1/2 exp(-(1/b)(ln(1+p-R) - ln c))",
        source=COR, kind="identity", lhs=cdf(sp.log(A_R), b, 0),
        rhs=1 - sp.exp(-(sp.log(1 + p - R) - sp.log(c)) / b) / 2,
        conditions=_MID_CONDS, proof=_prove_middle_line),
    explanation=("The middle line of Case 2.1 reads 1 - 1/2 exp(-(1/b) ln(1+p-R)): the '- ln(c)' of the line before "
                 "is dropped, while the last line has ((1+p-R)/c)^{-1/b} again. Checked on the range where the first "
                 "and last lines agree (1-p <= R <= 1+p-c): at R = 1/2, p = 1/2, b = 1/2, c = 3/4 the first line is "
                 "F_X(ln(4/3)) = 23/32 and the middle line 1/2. Only c = 1 (b = 0) would make it right."))
