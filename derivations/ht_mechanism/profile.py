"""The privacy profile delta(eps) of the Horvitz-Thompson mechanism: the facts its exact evaluation uses.

Source: ``000_3f4b38deb4c4e7bd.txt`` ("The Horvitz-Thompson estimate as a privacy mechanism"):
Section 1.4 (delta as an integral of a positive part), Section 2.2 (the mixture density and the
split of the delta integral), Section 2.3 (Results 8-9, simple random sampling on binary data) and
the Abstract (the question of the noise scale).  The definitions and Results are proved in
:mod:`derivations.ht_mechanism` and :mod:`derivations.ht_mechanism_srs`; this module proves what
an exact evaluation of the whole profile eps -> delta(eps) needs besides them.

Setting.  t(x, S) has atoms a_1 < ... < a_K (merged over x and x') with probabilities p_k, p'_k;
with a kernel K (Laplace: e^{-|u|/b}/(2b); Gaussian: phi(u/sigma)/sigma),

    delta(eps, x, x') = int (f_x - e^eps f_x')_+ dz,   D(z) := f_x - e^eps f_x' = sum_k w_k K(z - a_k),
    w_k = p_k - e^eps p'_k.

Laplace noise.  Between consecutive atoms 2b D(a_j + u) = R_j e^{u/b} + L_j e^{-u/b}, with L_j and R_j
given by one forward and one backward recursion, so the profile is a sum over the K - 1 intervals
of closed forms (a perfect square when the sign changes) plus two tails: O(K) per eps.
Gaussian noise.  sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} D(z) is an exponential sum with increasing
exponents a_k/sigma^2, so by Laguerre's rule D changes sign at most as often as (w_k) does; with one
change the loss event is a half-line and delta is sum_k w_k Phi((r - a_k)/sigma) at the root r.
Binary data (SRS and Bernoulli sampling).  f_t - f_{t+1} = q (h_t(y) - h_t(y - 1)), which gives
delta_0 (b = 0) in closed form and the bound delta_b <= delta_0 <= e^eps q h_t(k*) for every scale b;
for n <= t <= N - n - 1 the eps from which delta vanishes is explicit.
The noise scale.  delta(eps) is non-increasing in b (Laplace and Gaussian), and the generic
subsampling route gives the scale b = Delta / ln(1 + (e^eps - 1)/q).

Methods.  Identities are proved symbolically on generic configurations (symbolic atom positions
with positive gaps, symbolic signed weights); statements about the hypergeometric and binomial laws
are proved symbolically on the support and checked by exhaustive exact enumeration with Fractions.
Cited deductions (the data-processing inequality, Laguerre's rule, uniqueness of characteristic
functions) are stated as such in the proof steps.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, register, zero
from ..engine.formulas import formula
from .results import RATIOS
from .srs import hyper

DOC = "000_3f4b38deb4c4e7bd.txt"
S14 = Source(DOC, "Section 1.4, delta(eps, x, x') = int (f_x - e^eps f_x')_+ (Gaussian noise in place of Laplace)")
S22_MID = Source(DOC, "Section 2.2, the middle integral of delta (between consecutive atoms)")
S22_TAIL = Source(DOC, "Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), the two tail terms")
S23 = Source(DOC, "Section 2.3, Result 8 and its proof (SRS, binary data)")
S23_BERN = Source(DOC, "Section 2.3, Result 8 and its proof (binary data; Bernoulli sampling in place of SRS)")
S23_R89 = Source(DOC, "Section 2.3, Results 8-9 (delta_{Z_0}(eps) and eps_{Z_0}(0), binary data)")
ABSTRACT = Source(DOC, "Abstract (the question of the noise scale)")



def _fail(count, why, **where) -> Enumeration:
    return Enumeration(False, count, why, {k: str(v) for k, v in where.items()})


def _C(a: int, k: int) -> int:
    """C(a, k), 0 outside 0 <= k <= a (math.comb raises on negative arguments)."""
    return comb(a, k) if 0 <= k <= a else 0


# ================================================================================================
# Laplace noise: D on one interval between consecutive atoms, the recursions, the closed forms
# ================================================================================================
z = sp.Symbol("z", real=True)
b = sp.Symbol("b", positive=True)
eps = sp.Symbol("epsilon", nonnegative=True)
a1 = sp.Symbol("a_1", real=True)
H = sp.symbols("h_1:4", positive=True)                   # gaps a_{k+1} - a_k
W = sp.symbols("w_1:5", real=True)                       # signed weights w_k = p_k - e^eps p'_k
u = sp.Symbol("u", real=True)
theta = sp.Symbol("theta", positive=True)                # u = h theta/(1 + theta) covers 0 < u < h
v = sp.Symbol("v", nonnegative=True)                     # distance beyond the first / last atom
K4 = 4
ATOMS = [a1, a1 + H[0], a1 + H[0] + H[1], a1 + H[0] + H[1] + H[2]]


def two_b_D(zz):
    """2b D(z) = sum_k w_k e^{-|z - a_k|/b} (Laplace kernel, four atoms)."""
    return sum(W[k] * sp.exp(-sp.Abs(zz - ATOMS[k]) / b) for k in range(K4))


def _two_b_D_resolved(zz):
    """The same with every |z - a_k| resolved by SymPy's sign assumptions (cancel makes the sign visible)."""
    return sum(W[k] * sp.exp(-sp.Abs(sp.cancel(zz - ATOMS[k])) / b) for k in range(K4))


def L_(j: int):
    """L_j = sum_{k <= j} w_k e^{-(a_j - a_k)/b} (1-based j)."""
    return sum(W[k] * sp.exp(-(ATOMS[j - 1] - ATOMS[k]) / b) for k in range(j))


def R_(j: int):
    """R_j = sum_{k > j} w_k e^{-(a_k - a_j)/b} (1-based j; R_K = 0); R_0 := R_1 + w_1."""
    if j == 0:
        return R_(1) + W[0]
    return sum((W[k] * sp.exp(-(ATOMS[k] - ATOMS[j - 1]) / b) for k in range(j, K4)), sp.Integer(0))


def _interior_signs(j: int):
    """sign(a_j + u - a_k) for every k and every 0 < u < h_j, decided by SymPy at u = h_j theta/(1 + theta)."""
    signs = []
    for k in range(K4):
        d = sp.cancel(ATOMS[j - 1] + H[j - 1] * theta / (1 + theta) - ATOMS[k])
        signs.append(1 if d.is_positive else -1 if d.is_negative else None)
    return signs


def _prove_endpoint_form() -> Proof:
    steps = []
    for j in range(1, K4):
        gap = H[j - 1]
        signs = _interior_signs(j)
        if None in signs:
            return Proof(False, (f"interval {j}: the sign of some z - a_k was not decided",))
        inside = sum(W[k] * sp.exp(-signs[k] * (ATOMS[j - 1] + u - ATOMS[k]) / b) for k in range(K4))
        steps.append(zero(inside - (R_(j) * sp.exp(u / b) + L_(j) * sp.exp(-u / b)),
                          f"interval [a_{j}, a_{j + 1}], 0 < u < h_{j}: signs of z - a_k {signs} (decided at "
                          f"u = h_{j} theta/(1+theta), theta > 0), 2b D(a_{j} + u) = R_{j} e^(u/b) + L_{j} e^(-u/b)"))
        for where, uu in (("u = 0", sp.Integer(0)), ("u = h_j", gap)):
            lhs = _two_b_D_resolved(ATOMS[j - 1] + uu)
            if any(isinstance(e, sp.Abs) for e in sp.preorder_traversal(lhs)):
                return Proof(False, (f"interval {j}, {where}: an absolute value did not resolve",))
            steps.append(zero(lhs - (R_(j) * sp.exp(uu / b) + L_(j) * sp.exp(-uu / b)),
                              f"interval [a_{j}, a_{j + 1}], {where}: 2b D(a_{j} + u) = R_{j} e^(u/b) + L_{j} e^(-u/b)"))
    for j in range(1, K4):
        steps.append(zero(L_(j + 1) - (sp.exp(-H[j - 1] / b) * L_(j) + W[j]),
                          f"L_{j + 1} = e^(-h_{j}/b) L_{j} + w_{j + 1}"))
        steps.append(zero(R_(j) - sp.exp(-H[j - 1] / b) * (R_(j + 1) + W[j]),
                          f"R_{j} = e^(-h_{j}/b) (R_{j + 1} + w_{j + 1})"))
    steps.append(zero(L_(1) - W[0], "L_1 = w_1"))
    steps.append(zero(R_(K4), "R_K = 0"))
    ok = all(p.ok for p in steps)
    return Proof(ok, (f"{len(steps)} exact steps on 4 atoms a_1 < a_2 < a_3 < a_4 (symbolic a_1, gaps h_1, h_2, h_3 > 0, "
                      "real weights w_1..w_4); every interval between consecutive atoms, interior and both end points; "
                      "|z - a_k| resolved by the ordering", *(s for p in steps if not p.ok for s in p.steps)))


register(Claim(
    id="profile.laplace.endpoint_form",
    title="Laplace, a_2 <= z = a_2 + u <= a_3: 2b D(z) = R e^{u/b} + L e^{-u/b}, L = sum_{k<=2} w_k e^{-(a_2-a_k)/b}, "
          "R = sum_{k>2} w_k e^{-(a_k-a_2)/b}; L_{j+1} = e^{-h_j/b} L_j + w_{j+1}, R_j = e^{-h_j/b}(R_{j+1} + w_{j+1})",
    source=S22_MID, kind="identity",
    lhs=two_b_D(ATOMS[1] + u), rhs=R_(2) * sp.exp(u / b) + L_(2) * sp.exp(-u / b),
    conditions=(sp.Ge(u, 0), sp.Le(u, H[1])), proof=_prove_endpoint_form,
    note="The numeric layer evaluates D on each interval [a_j, a_{j+1}] from two numbers, L_j (forward recursion "
         "from L_1 = w_1) and R_j (backward recursion from R_K = 0), both sums of non-positive powers of e^{1/b} "
         "times the weights, so no exponential overflows. Proved on every interval of a generic 4-atom "
         "configuration (the statement for the interval [a_2, a_3] is displayed). R_0 := R_1 + w_1 = "
         "sum_k w_k e^{-(a_k - a_1)/b} is the left-tail coefficient (profile.laplace.tails)."))

# -- the three closed forms on one interval of length h ------------------------------------------------
alpha, gamma = sp.symbols("alpha gamma", positive=True)
h = sp.Symbol("h", positive=True)
A_, B_ = sp.symbols("A B", real=True)
U0 = b / 2 * sp.log(gamma**2 / alpha**2)                 # root of A e^{u/b} + B e^{-u/b} when A B < 0


def _integrand(A, B):
    return (A * sp.exp(u / b) + B * sp.exp(-u / b)) / (2 * b)


def _sign_step(A, B, direction: str) -> Proof:
    """A e^{u/b} + B e^{-u/b} = +-2 alpha gamma sh((u - u0)/b): the sign is that of +-(u - u0)."""
    sgn = 1 if direction == "increasing" else -1
    s = zero(sp.powsimp(sp.expand((A * sp.exp(u / b) + B * sp.exp(-u / b)
                                   - sgn * 2 * alpha * gamma * sp.sinh((u - U0) / b)).rewrite(sp.exp))),
             f"A e^(u/b) + B e^(-u/b) = {'' if sgn == 1 else '-'}2 alpha gamma sh((u - u0)/b)")
    where = "(u0, h]" if sgn == 1 else "[0, u0)"
    return all_of(s, Proof(True, (f"sh is odd and increasing (cited), so the integrand is > 0 exactly on {where} "
                                  "and the integral below is int_0^h of its positive part",)))


_INC = _integrand(alpha**2, -gamma**2)
_INC_RHS = (sp.sqrt(alpha**2 * sp.exp(h / b)) - sp.sqrt(gamma**2 * sp.exp(-h / b)))**2 / 2
register(Claim(
    id="profile.laplace.interval_increasing",
    title="A = alpha^2 > 0 > B = -gamma^2, u0 = (b/2) ln(-B/A) in [0, h]: int_{u0}^{h} (A e^{u/b} + B e^{-u/b})/(2b) du "
          "= (1/2)(sqrt(A e^{h/b}) - sqrt(-B e^{-h/b}))^2",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_INC, (u, U0, h)), rhs=_INC_RHS, conditions=(sp.Ge(U0, 0), sp.Le(U0, h)),
    proof=lambda: all_of(_sign_step(alpha**2, -gamma**2, "increasing"),
                         zero(sp.integrate(_INC, (u, U0, h)) - _INC_RHS, "direct integration from u0 to h")),
    note="With A = R_j, B = L_j (profile.laplace.endpoint_form) this is int_{a_j}^{a_{j+1}} D_+ when D changes sign "
         "from - to + inside the interval. The numeric layer uses the perfect square: a difference of two "
         "positive numbers squared, with no cancellation between large terms."))

_DEC = _integrand(-alpha**2, gamma**2)
_DEC_RHS = (sp.sqrt(gamma**2) - sp.sqrt(alpha**2))**2 / 2
register(Claim(
    id="profile.laplace.interval_decreasing",
    title="A = -alpha^2 < 0 < B = gamma^2, u0 = (b/2) ln(-B/A) in [0, h]: int_0^{u0} (A e^{u/b} + B e^{-u/b})/(2b) du "
          "= (1/2)(sqrt(B) - sqrt(-A))^2",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_DEC, (u, 0, U0)), rhs=_DEC_RHS, conditions=(sp.Ge(U0, 0), sp.Le(U0, h)),
    proof=lambda: all_of(_sign_step(-alpha**2, gamma**2, "decreasing"),
                         zero(sp.integrate(_DEC, (u, 0, U0)) - _DEC_RHS, "direct integration from 0 to u0")),
    note="The mirrored case: D changes sign from + to - inside [a_j, a_{j+1}]; the numeric layer computes the "
         "interval's contribution as a perfect square of sqrt(L_j) - sqrt(-R_j)."))

_NOROOT = _integrand(A_, B_)
_NOROOT_RHS = (A_ * sp.exp(h / b) - A_) / 2 + (B_ - B_ * sp.exp(-h / b)) / 2
register(Claim(
    id="profile.laplace.interval_no_root",
    title="int_0^h (A e^{u/b} + B e^{-u/b})/(2b) du = (1/2)(A e^{h/b} - A) + (1/2)(B - B e^{-h/b}), A, B real",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_NOROOT, (u, 0, h)), rhs=_NOROOT_RHS,
    proof=lambda: zero(sp.integrate(_NOROOT, (u, 0, h)) - _NOROOT_RHS, "direct integration"),
    note="Used on an interval where D does not change sign (no root of A e^{u/b} + B e^{-u/b} in (0, h)): the "
         "contribution is this integral if D >= 0 there and 0 otherwise."))


# -- the two tails ------------------------------------------------------------------------------------
def _prove_tails() -> Proof:
    steps = []
    vpos, vneg = sp.Symbol("c", positive=True), sp.Symbol("c", nonpositive=True)
    for side in ("left", "right"):
        if side == "left":
            zz, const, e_z, lim = ATOMS[0] - v, R_(0), sp.exp((z - ATOMS[0]) / b), (z, -sp.oo, ATOMS[0])
            label = "R_0 e^((z - a_1)/b)"
        else:
            zz, const, e_z, lim = ATOMS[-1] + v, L_(K4), sp.exp(-(z - ATOMS[-1]) / b), (z, ATOMS[-1], sp.oo)
            label = "L_K e^(-(z - a_K)/b)"
        lhs = _two_b_D_resolved(zz)
        if any(isinstance(e, sp.Abs) for e in sp.preorder_traversal(lhs)):
            return Proof(False, (f"{side} tail: an absolute value did not resolve",))
        steps.append(zero(lhs - const * e_z.subs(z, zz), f"{side} of every atom (distance v >= 0): 2b D(z) = {label}"))
        steps.append(Proof(sp.Max(vpos * e_z, 0) - vpos * e_z == 0 and sp.Max(vneg * e_z, 0) == 0,
                           (f"({label})_+ = max(coefficient, 0) x the exponential (both signs of the coefficient)",)))
        steps.append(zero(sp.integrate(e_z, lim) / (2 * b) - sp.Rational(1, 2),
                          f"int over the {side} tail of the exponential/(2b) = 1/2"))
    return all_of(*steps)


_Rsym, _Lsym = sp.Symbol("R_0", real=True), sp.Symbol("L_K", real=True)
register(Claim(
    id="profile.laplace.tails",
    title="Laplace: int_{-oo}^{a_1} D_+ = (1/2) max(R_0, 0), R_0 = sum_k w_k e^{-(a_k-a_1)/b}; "
          "int_{a_K}^{oo} D_+ = (1/2) max(L_K, 0), L_K = sum_k w_k e^{-(a_K-a_k)/b}",
    source=S22_TAIL, kind="identity",
    lhs=sp.Integral(sp.Max(_Rsym * sp.exp((z - a1) / b), 0) / (2 * b), (z, -sp.oo, a1))
    + sp.Integral(sp.Max(_Lsym * sp.exp(-(z - ATOMS[-1]) / b), 0) / (2 * b), (z, ATOMS[-1], sp.oo)),
    rhs=sp.Max(_Rsym, 0) / 2 + sp.Max(_Lsym, 0) / 2, proof=_prove_tails,
    note="Generic 4-atom configuration. Left of the first atom D(z) = R_0 e^{(z - a_1)/b}/(2b), right of the last "
         "L_K e^{-(z - a_K)/b}/(2b); the numeric layer adds these two terms to the interval contributions. This is "
         "htm.delta.left_tail / right_tail with the coefficients normalised at the extreme atoms, so that they stay "
         "bounded (|R_0|, |L_K| <= sum_k |w_k|)."))

# ================================================================================================
# Gaussian noise
# ================================================================================================
sigma = sp.Symbol("sigma", positive=True)
GA = sp.symbols("a_1:4", real=True)
GW = sp.symbols("w_1:4", real=True)


def phi(x):
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def Phi(x):
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def gauss_D(zz):
    return sum(wk * phi((zz - ak) / sigma) / sigma for wk, ak in zip(GW, GA))


_EXPSUM = sum(wk * sp.exp(-ak**2 / (2 * sigma**2)) * sp.exp(ak * z / sigma**2) for wk, ak in zip(GW, GA))
register(Claim(
    id="profile.gaussian.exponential_sum",
    title="Gaussian kernel phi((z-a)/sigma)/sigma: sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} D(z) = "
          "sum_k w_k e^{-a_k^2/(2 sigma^2)} e^{a_k z/sigma^2}",
    source=S14, kind="identity",
    lhs=sigma * sp.sqrt(2 * sp.pi) * sp.exp(z**2 / (2 * sigma**2)) * gauss_D(z), rhs=_EXPSUM,
    proof=lambda: zero(sp.expand(sigma * sp.sqrt(2 * sp.pi) * sp.exp(z**2 / (2 * sigma**2)) * gauss_D(z) - _EXPSUM),
                       "expand the squares in the exponents (3 symbolic atoms and weights)"),
    note="The factor sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} is positive, so D has the sign of an exponential sum with "
         "coefficients c_k = w_k e^{-a_k^2/(2 sigma^2)} (the signs of w_k) and exponents lambda_k = a_k/sigma^2, "
         "increasing with the atoms. The numeric layer counts the sign changes of (w_k) on the sorted atoms "
         "(profile.gaussian.rolle_step) to know how many roots of D to look for."))

LAM = sp.symbols("lambda_1:5", real=True)
CC = sp.symbols("c_1:5", real=True)


def _prove_rolle() -> Proof:
    g = sp.exp(-LAM[0] * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(CC, LAM))
    rhs = sum(CC[k] * (LAM[k] - LAM[0]) * sp.exp((LAM[k] - LAM[0]) * z) for k in range(1, 4))
    steps = [zero(sp.diff(g, z) - rhs, "d/dz [e^(-lambda_1 z) sum_k c_k e^(lambda_k z)]")]
    mu = sp.Symbol("mu", real=True)          # the step of the induction: any mu between two exponents
    g_mu = sp.exp(-mu * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(CC, LAM))
    steps.append(zero(sp.diff(g_mu, z) - sum(ck * (lk - mu) * sp.exp((lk - mu) * z) for ck, lk in zip(CC, LAM)),
                      "for any real mu: d/dz [e^(-mu z) sum_k c_k e^(lambda_k z)] = "
                      "sum_k c_k (lambda_k - mu) e^((lambda_k - mu) z)"))
    # one sign change in (c_k): c_1..c_m >= 0 >= c_{m+1}..c_4; then e^{-lambda_m z} sum is non-increasing
    lam0 = sp.Symbol("lambda", real=True)
    gaps = sp.symbols("g_1:4", positive=True)
    lams = [lam0, lam0 + gaps[0], lam0 + gaps[0] + gaps[1], lam0 + gaps[0] + gaps[1] + gaps[2]]
    for m in range(1, 4):
        cs = [sp.Symbol(f"c_{k + 1}", nonnegative=True) if k < m else sp.Symbol(f"c_{k + 1}", nonpositive=True)
              for k in range(4)]
        gm = sp.exp(-lams[m - 1] * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(cs, lams))
        d = sp.expand(sp.diff(gm, z))
        steps.append(Proof(bool(d.is_nonpositive),
                           (f"signs (+..+ -..-) with the change after c_{m}: d/dz [e^(-lambda_{m} z) sum_k c_k e^(lambda_k z)] "
                            f"= sum of terms c_k (lambda_k - lambda_{m}) e^(...) each <= 0, so the function is "
                            f"non-increasing: {'shown' if d.is_nonpositive else 'NOT shown'} (signs - .. - + .. +: "
                            "apply this to -D)",)))
    steps.append(Proof(True, ("Laguerre's rule (cited; the generalisation of Descartes' rule of signs to exponential "
                              "sums, proved by induction on the number of sign changes with this Rolle step): the "
                              "number of real zeros of sum_k c_k e^(lambda_k z), lambda increasing, is at most the number "
                              "of sign changes of (c_k)",)))
    return all_of(*steps)


register(Claim(
    id="profile.gaussian.rolle_step",
    title="d/dz [e^{-lambda_1 z} sum_{k=1}^{4} c_k e^{lambda_k z}] = sum_{k=2}^{4} c_k (lambda_k - lambda_1) "
          "e^{(lambda_k - lambda_1) z}",
    source=S14, kind="identity",
    lhs=sp.Derivative(sp.exp(-LAM[0] * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(CC, LAM)), z),
    rhs=sum(CC[k] * (LAM[k] - LAM[0]) * sp.exp((LAM[k] - LAM[0]) * z) for k in range(1, 4)),
    proof=_prove_rolle,
    note="Laguerre's rule (the generalisation of Descartes' rule of signs to exponential sums): for lambda_1 < ... < "
         "lambda_K the number of real zeros (with multiplicity) of f(z) = sum_k c_k e^{lambda_k z} is at most the number "
         "V of sign changes of (c_1, ..., c_K) (zeros ignored). Induction on V: for V = 0 all terms have one sign and f "
         "has no zero. Otherwise pick mu strictly between the exponents of the first sign change (c_m, c_{m'} of "
         "opposite signs); e^{-mu z} f has the zeros of f, and by this Rolle step (proved for any real mu; the displayed "
         "case mu = lambda_1) its derivative is the exponential sum with coefficients c_k (lambda_k - mu), whose signs "
         "are flipped for k <= m and kept for k >= m': the first change disappears, the others stay, V - 1 changes. By "
         "Rolle, f has at most one zero more than the derivative, so at most V. With one sign change the proof also "
         "shows directly (the three sign steps) that "
         "e^{-lambda_m z} sum is monotone, so with the extreme coefficients non-zero D (whose exponential sum has "
         "c_k of the sign of w_k, profile.gaussian.exponential_sum) has exactly one sign change: the privacy-loss "
         "event {D > 0} is a half-line, (-oo, r) when the w_k go from + to - along the sorted atoms, and the numeric "
         "layer finds r by bracketing (profile.gaussian.half_line)."))

r_, l_ = sp.symbols("r l", real=True)
a_, w_ = sp.symbols("a w", real=True)
_HALF = sum(wk * Phi((r_ - ak) / sigma) for wk, ak in zip(GW, GA))
_SEG = sp.Integral(w_ * phi((z - a_) / sigma) / sigma, (z, l_, r_))
_SEG_RHS = w_ * (Phi((r_ - a_) / sigma) - Phi((l_ - a_) / sigma))
register(Claim(
    id="profile.gaussian.half_line",
    title="Phi(x) = (1 + erf(x/sqrt 2))/2: d/dr sum_k w_k Phi((r - a_k)/sigma) = D(r); "
          "int_l^r w phi((z-a)/sigma)/sigma dz = w(Phi((r-a)/sigma) - Phi((l-a)/sigma))",
    source=S14, kind="identity",
    lhs=sp.Derivative(_HALF, r_), rhs=gauss_D(r_),
    proof=lambda: all_of(zero(sp.diff(_HALF, r_) - gauss_D(r_), "d/dr sum_k w_k Phi((r - a_k)/sigma) - D(r) (3 atoms)"),
                         zero(_SEG.doit() - _SEG_RHS, "int_l^r w phi((z - a)/sigma)/sigma dz, direct integration")),
    note="P(Z <= r | x) - e^eps P(Z <= r | x') = sum_k w_k Phi((r - a_k)/sigma) is the delta of the half-line event "
         "(-oo, r]; it is stationary exactly where D(r) = 0, and with one sign change of D (profile.gaussian.rolle_step) "
         "its maximum over r, at the root, is delta(eps, x, x') (htm.delta.event_form). On a general event (a union of "
         "intervals between the roots of D) the numeric layer sums the second identity over the intervals."))

# ================================================================================================
# Binary data: SRS and Bernoulli sampling
# ================================================================================================
N, n, t, y = sp.symbols("N n t y", integer=True, nonnegative=True)
p = sp.Symbol("p", positive=True)


def f_srs(tt, yy):
    return sp.binomial(tt, yy) * sp.binomial(N - tt, n - yy) / sp.binomial(N, n)


def h_srs(yy):
    return sp.binomial(t, yy) * sp.binomial(N - 1 - t, n - 1 - yy) / sp.binomial(N - 1, n - 1)


def hyper_h(NN: int, nn: int, tt: int, yy: int) -> Fraction:
    """h_t(y) = C(t,y) C(N-1-t, n-1-y)/C(N-1, n-1): the ones among the other n - 1 sampled units of N - 1."""
    return hyper(NN - 1, nn - 1, tt, yy)


def binom_pmf(tt: int, pp: Fraction, yy: int) -> Fraction:
    return _C(tt, yy) * pp**yy * (1 - pp)**(tt - yy) if 0 <= yy <= tt else Fraction(0)


def _cdf(pmf, k: int) -> Fraction:
    return sum((pmf(yy) for yy in range(0, k + 1)), Fraction(0))


_COUPLING_SRS = Proof(True, ("coupling (deduction): x has x_i = 0 and t ones among the others, x' = x with x_i = 1; "
                             "given i not in S the laws of the sampled ones agree, given i in S (probability n/N) they "
                             "are h_t(y) and h_t(y - 1); so f_t(y) - f_{t+1}(y) = (n/N)(h_t(y) - h_t(y - 1)) for every y "
                             "(including the ends of the supports), and summing over y <= k telescopes",))


def _prove_srs_difference() -> Proof:
    r1 = sp.combsimp(f_srs(t + 1, y) / f_srs(t, y))
    r2 = sp.combsimp(h_srs(y) / f_srs(t, y))
    r3 = sp.combsimp(h_srs(y - 1) / f_srs(t, y))
    s = zero(1 - r1 - n / N * (r2 - r3),
             f"divided by f_t(y) (inside the support): f_(t+1)/f_t = {r1}, h_t(y)/f_t = {r2}, h_t(y-1)/f_t = {r3} "
             "(combsimp); 1 - f_(t+1)/f_t - (n/N)(h_t(y) - h_t(y-1))/f_t")
    return all_of(s, _COUPLING_SRS)


def _srs_difference_enum() -> Enumeration:
    count = 0
    for NN in range(2, 11):
        for nn in range(1, NN + 1):
            q = Fraction(nn, NN)
            for tt in range(0, NN):
                for yy in range(-1, nn + 2):
                    count += 1
                    if hyper(NN, nn, tt, yy) - hyper(NN, nn, tt + 1, yy) != q * (hyper_h(NN, nn, tt, yy)
                                                                                - hyper_h(NN, nn, tt, yy - 1)):
                        return _fail(count, "pmf difference", N=NN, n=nn, t=tt, y=yy)
                for k in range(0, nn + 1):
                    count += 1
                    F_t = _cdf(lambda yy: hyper(NN, nn, tt, yy), k)
                    F_t1 = _cdf(lambda yy: hyper(NN, nn, tt + 1, yy), k)
                    if F_t - F_t1 != q * hyper_h(NN, nn, tt, k):
                        return _fail(count, "cdf difference", N=NN, n=nn, t=tt, k=k)
    return Enumeration(True, count, "2 <= N <= 10, 1 <= n <= N, 0 <= t <= N - 1: the pmf identity for -1 <= y <= n + 1 "
                                    "and F_t(k) - F_{t+1}(k) = (n/N) h_t(k) for 0 <= k <= n, Fractions")


register(Claim(
    id="profile.srs.pmf_difference",
    title="SRS, binary data: f_t(y) - f_{t+1}(y) = (n/N)(h_t(y) - h_t(y-1)), h_t(y) = C(t,y)C(N-1-t,n-1-y)/C(N-1,n-1); "
          "F_t(k) - F_{t+1}(k) = (n/N) h_t(k)",
    source=S23, kind="identity",
    lhs=f_srs(t, y) - f_srs(t + 1, y), rhs=n / N * (h_srs(y) - h_srs(y - 1)),
    proof=_prove_srs_difference, enumeration=_srs_difference_enum,
    note="F_t(k) - F_{t+1}(k) = P(i in S, k ones among the other sampled units) when x and x' differ at unit i (0 in x, "
         "1 in x'). The numeric layer gets F_{t+1} from F_t and h_t without a second hypergeometric cdf, and uses "
         "h_t for the closed form of delta_0 (profile.delta0_bound)."))

def bin_sym(tt, yy):
    return sp.binomial(tt, yy) * p**yy * (1 - p)**(tt - yy)


_COUPLING_BERN = Proof(True, ("coupling (deduction): Bin(t + 1, p) is the law of Y + I with Y ~ Bin(t, p) and "
                              "I ~ Bernoulli(p) independent (the sampling indicator of the unit that differs), so "
                              "Bin(t+1,p)(y) = (1 - p) Bin(t,p)(y) + p Bin(t,p)(y - 1) for every y",))


def _prove_bern_difference() -> Proof:
    q1 = sp.powsimp(sp.combsimp(bin_sym(t + 1, y) / bin_sym(t, y)))
    q2 = sp.powsimp(sp.combsimp(bin_sym(t, y - 1) / bin_sym(t, y)))
    s = zero(1 - q1 - p * (1 - q2), f"divided by Bin(t,p)(y) (0 <= y <= t): Bin(t+1,p)(y)/Bin(t,p)(y) = {q1}, "
                                    f"Bin(t,p)(y-1)/Bin(t,p)(y) = {q2} (combsimp)")
    return all_of(s, _COUPLING_BERN)


P_BERN = (Fraction(1, 3), Fraction(1, 2), Fraction(3, 4))


def _bern_difference_enum() -> Enumeration:
    count = 0
    for pp in P_BERN:
        for tt in range(0, 9):
            for yy in range(-1, tt + 3):
                count += 1
                if binom_pmf(tt, pp, yy) - binom_pmf(tt + 1, pp, yy) != pp * (binom_pmf(tt, pp, yy)
                                                                              - binom_pmf(tt, pp, yy - 1)):
                    return _fail(count, "pmf difference", t=tt, p=pp, y=yy)
            for k in range(0, tt + 2):
                count += 1
                if (_cdf(lambda yy: binom_pmf(tt, pp, yy), k) - _cdf(lambda yy: binom_pmf(tt + 1, pp, yy), k)
                        != pp * binom_pmf(tt, pp, k)):
                    return _fail(count, "cdf difference", t=tt, p=pp, k=k)
    return Enumeration(True, count, "0 <= t <= 8, p in {1/3, 1/2, 3/4}: the pmf identity for -1 <= y <= t + 2 and "
                                    "F_t(k) - F_{t+1}(k) = p Bin(t,p)(k) for 0 <= k <= t + 1, Fractions")


register(Claim(
    id="profile.bernoulli.pmf_difference",
    title="Bernoulli sampling, binary data: Bin(t,p)(y) - Bin(t+1,p)(y) = p(Bin(t,p)(y) - Bin(t,p)(y-1)); "
          "F_t(k) - F_{t+1}(k) = p Bin(t,p)(k)",
    source=S23_BERN, kind="identity",
    lhs=bin_sym(t, y) - bin_sym(t + 1, y), rhs=p * (bin_sym(t, y) - bin_sym(t, y - 1)),
    proof=_prove_bern_difference, enumeration=_bern_difference_enum,
    note="Bernoulli (Poisson, equal p) sampling of binary data: the number of sampled ones is Bin(t, p), t = t(x). "
         "This is profile.srs.pmf_difference with q = p and h_t = Bin(t, p); the numeric layer uses it for the "
         "closed form of delta_0 (profile.delta0_bound)."))

_BRATIO = (t + 1 - y) / ((t + 1) * (1 - p))
_pbar = sp.Symbol("pbar", positive=True)       # 1 - p > 0


def _prove_bern_ratio() -> Proof:
    s1 = zero(sp.combsimp(bin_sym(t, y) / bin_sym(t + 1, y)) - _BRATIO, "combsimp of the ratio of binomial pmfs")
    d = sp.diff(_BRATIO.subs(p, 1 - _pbar), y)
    s2 = Proof(bool(d.is_negative), (f"d/dy of the ratio = {d} < 0 for p < 1 (pbar = 1 - p > 0): decreasing in y",))
    return all_of(s1, s2)


def _bern_ratio_enum() -> Enumeration:
    count = 0
    for pp in P_BERN:
        for tt in range(0, 9):
            for yy in range(0, tt + 2):
                count += 1
                if binom_pmf(tt, pp, yy) != Fraction(tt + 1 - yy, (tt + 1)) / (1 - pp) * binom_pmf(tt + 1, pp, yy):
                    return _fail(count, "ratio", t=tt, p=pp, y=yy)
    return Enumeration(True, count, "0 <= t <= 8, 0 <= y <= t + 1 (including y = t + 1, where the ratio is 0), "
                                    "p in {1/3, 1/2, 3/4}, Fractions")


register(Claim(
    id="profile.bernoulli.pmf_ratio",
    title="Bernoulli sampling, binary data: Bin(t,p)(y)/Bin(t+1,p)(y) = (t+1-y)/((t+1)(1-p)), decreasing in y",
    source=S23_BERN, kind="identity",
    lhs=bin_sym(t, y) / bin_sym(t + 1, y), rhs=_BRATIO, conditions=(sp.Lt(p, 1), sp.Le(y, t + 1)),
    proof=_prove_bern_ratio, enumeration=_bern_ratio_enum,
    note="The analogue of htm.r8.pmf_ratio: the likelihood ratio is monotone in y, which is what makes the positive "
         "set of f_t - e^eps f_{t+1} an initial segment {y <= k*} (profile.delta0_bound)."))


# -- delta_0 in closed form, and the bound for every noise scale ------------------------------------------
def _delta0_forward(f, g, c, ys) -> Fraction:
    return sum((max(f(yy) - c * g(yy), Fraction(0)) for yy in ys), Fraction(0))


def _check_closed_forms(f_t, f_t1, hh, q, c, ys, top):
    """Direct sums against the closed forms, both directions.  ys: union of the two supports (contiguous)."""
    union = [yy for yy in ys if f_t(yy) + f_t1(yy) > 0]
    F = lambda k: _cdf(f_t, k)                                     # noqa: E731
    hk = lambda k: hh(k) if k >= 0 else Fraction(0)                # noqa: E731
    kstar = max((yy for yy in union if f_t(yy) >= c * f_t1(yy)), default=-1)
    fwd = _delta0_forward(f_t, f_t1, c, union)
    fwd_closed = (1 - c) * (F(kstar) if kstar >= 0 else 0) + c * q * hk(kstar)
    if fwd != fwd_closed or fwd > c * q * hk(kstar):
        return f"t -> t+1: direct {fwd}, closed form {fwd_closed}, bound {c * q * hk(kstar)}, k* = {kstar}"
    j = min((yy for yy in union if f_t1(yy) >= c * f_t(yy)), default=top + 1) - 1
    rev = _delta0_forward(f_t1, f_t, c, union)
    Fj = F(j) if j >= 0 else Fraction(0)
    rev_closed = (1 - c) * (1 - Fj) + q * hk(j)
    if rev != rev_closed or rev > q * hk(j):
        return f"t+1 -> t: direct {rev}, closed form {rev_closed}, bound {q * hk(j)}, j = {j}"
    return None


def _delta0_enum() -> Enumeration:
    count = 0
    for NN in range(2, 10):
        for nn in range(1, NN + 1):
            for tt in range(0, NN):
                for c in RATIOS:
                    count += 1
                    why = _check_closed_forms(lambda yy: hyper(NN, nn, tt, yy), lambda yy: hyper(NN, nn, tt + 1, yy),
                                              lambda yy: hyper_h(NN, nn, tt, yy), Fraction(nn, NN), c,
                                              range(0, nn + 1), nn)
                    if why:
                        return _fail(count, why, design="SRS", N=NN, n=nn, t=tt, c=c)
    for pp in P_BERN[:2]:
        for tt in range(0, 9):
            for c in RATIOS:
                count += 1
                why = _check_closed_forms(lambda yy: binom_pmf(tt, pp, yy), lambda yy: binom_pmf(tt + 1, pp, yy),
                                          lambda yy: binom_pmf(tt, pp, yy), pp, c, range(0, tt + 2), tt + 1)
                if why:
                    return _fail(count, why, design="Bernoulli", p=pp, t=tt, c=c)
    return Enumeration(True, count, "both directions, e^eps in {1, 3/2, 4}: SRS 2 <= N <= 9, 1 <= n <= N, 0 <= t <= N-1; "
                                    "Bernoulli 0 <= t <= 8, p in {1/3, 1/2}; delta_0 by direct summation equals the "
                                    "closed form and is <= the bound, exactly (k* = -1 or j = top when the set is empty)")


def _prove_delta0() -> Proof:
    F, qh, Fj, qhj = sp.symbols("F qh F_j qh_j", nonnegative=True)
    c = sp.exp(eps)
    d = sp.Symbol("d", nonnegative=True)                         # e^eps = 1 + d >= 1
    s1 = Proof(True, ("r(y) = f_t(y)/f_{t+1}(y) non-increasing (htm.r8.ratio_decreasing, profile.bernoulli.pmf_ratio) "
                      "(deduction; r = +oo or 0 where only one pmf vanishes, at the ends of the union of the supports): "
                      "{y : f_t(y) > e^eps f_{t+1}(y)} is contained in {y <= k*} and f_t - e^eps f_{t+1} >= 0 "
                      "on {y <= k*}, so delta_0(eps; t -> t+1) = F_t(k*) - e^eps F_{t+1}(k*); likewise "
                      "delta_0(eps; t+1 -> t) = (1 - F_{t+1}(j)) - e^eps (1 - F_t(j))",))
    s2 = zero(F - c * (F - qh) - ((1 - c) * F + c * qh),
              "with F_{t+1}(k) = F_t(k) - q h(k) (profile.srs.pmf_difference, profile.bernoulli.pmf_difference): "
              "F - e^eps (F - q h) = (1 - e^eps) F + e^eps q h")
    s3 = zero((1 - (Fj - qhj)) - c * (1 - Fj) - ((1 - c) * (1 - Fj) + qhj),
              "reverse: (1 - F_j + q h_j) - e^eps (1 - F_j) = (1 - e^eps)(1 - F_j) + q h_j")
    g1 = sp.expand((c * qh - ((1 - c) * F + c * qh)).subs(c, 1 + d))
    g2 = sp.expand((qhj - ((1 - c) * (1 - Fj) + qhj)).subs({c: 1 + d, Fj: 1 - sp.Symbol("G", nonnegative=True)}))
    s4 = Proof(bool(g1.is_nonnegative) and bool(g2.is_nonnegative),
               (f"bounds: e^eps q h - closed form = {g1} >= 0 and q h_j - closed form = {g2} >= 0 (e^eps = 1 + d, "
                "d >= 0; F_t(k*) >= 0, 1 - F_t(j) = G >= 0)",))
    s5 = Proof(True, ("data-processing inequality for the hockey-stick divergence (cited): Z_b = Z_0 + b W with W "
                      "independent of (X, S) is a post-processing of Z_0, so delta_b(eps; t -> t') <= delta_0(eps; t -> t') "
                      "for every b >= 0 and every noise law",))
    return all_of(s1, s2, s3, s4, s5)


_hk = sp.Symbol("h_t(k^*)", nonnegative=True)
_q = sp.Symbol("q", positive=True)
register(Claim(
    id="profile.delta0_bound",
    title="Binary data, ratio f_t/f_{t+1} non-increasing: delta_b(eps; t->t+1) <= delta_0 = (1-e^eps) F_t(k*) + "
          "e^eps q h(k*) <= e^eps q h(k*); delta_b(eps; t+1->t) <= (1-e^eps)(1-F_t(j)) + q h(j) <= q h(j)",
    source=S23_R89, kind="inequality",
    lhs=sp.Symbol(r"\delta_b(\varepsilon; t \to t+1)"), relation="<=", rhs=sp.exp(eps) * _q * _hk,
    proof=_prove_delta0, enumeration=_delta0_enum,
    note="q = n/N and h_t the law of the ones among the n - 1 other sampled units (SRS), or q = p and h_t = Bin(t, p) "
         "(Bernoulli); k* = the largest y (in the union of the supports) with f_t(y) >= e^eps f_{t+1}(y), j = the "
         "smallest y with f_{t+1}(y) >= e^eps f_t(y), minus 1. The numeric layer uses the closed forms for b = 0 and the "
         "bounds as certified upper bounds of delta_b for every noise scale (and as a check of its integrals)."))

# -- the eps from which delta vanishes for every b (SRS, equal supports) -----------------------------------
_SRS_RATIO = (t + 1 - y) * (N - t) / ((t + 1) * (N - t - n + y))
_EPS0 = sp.Max(sp.log((N - t) / (N - t - n)), sp.log((t + 1) / (t + 1 - n)))


def _prove_zero_region() -> Proof:
    tr, nr, Nr = sp.symbols("t n N", positive=True)
    sub = {t: tr, n: nr, N: Nr}
    s0 = zero(sp.combsimp(f_srs(t, y) / f_srs(t + 1, y)) - _SRS_RATIO, "f_t(y)/f_{t+1}(y) (combsimp, htm.r8.pmf_ratio)")
    s1 = zero(_SRS_RATIO.subs(y, 0).subs(sub) - (Nr - tr) / (Nr - tr - nr), "ratio at y = 0: (N-t)/(N-t-n)")
    s2 = zero(_SRS_RATIO.subs(y, n).subs(sub) - (tr + 1 - nr) / (tr + 1), "ratio at y = n: (t+1-n)/(t+1)")
    a_, c_ = sp.symbols("a c", positive=True)      # a = t + 1 - y > 0, c = N - t - n + y > 0 on [0, n]
    s3 = all_of(zero(sp.together(sp.diff(sp.log(_SRS_RATIO), y) - (-1 / a_ - 1 / c_).subs({a_: t + 1 - y, c_: N - t - n + y})),
                     "d/dy ln ratio = -1/(t+1-y) - 1/(N-t-n+y)"),
                Proof(bool((-1 / a_ - 1 / c_).is_negative),
                      ("both denominators > 0 for n <= t <= N-n-1 and 0 <= y <= n: the ratio decreases, so "
                       "max_y ln ratio is at y = 0 and max_y (-ln ratio) at y = n (deduction)",)))
    s4 = Proof(True, ("supports: [max(0, n+t-N), min(n, t)] = [0, n] = [max(0, n+t+1-N), min(n, t+1)] when "
                      "n <= t <= N-n-1 (htm.r8.support_condition)",))
    return all_of(s0, s1, s2, s3, s4)


def _zero_region_enum() -> Enumeration:
    count = 0
    for NN in range(2, 13):
        for nn in range(1, NN + 1):
            for tt in range(nn, NN - nn):
                count += 1
                f = [hyper(NN, nn, tt, yy) for yy in range(nn + 1)]
                g = [hyper(NN, nn, tt + 1, yy) for yy in range(nn + 1)]
                if not all(f) or not all(g):
                    return _fail(count, "supports are not [0, n]", N=NN, n=nn, t=tt)
                worst = max(max(a / c, c / a) for a, c in zip(f, g))
                claim = max(Fraction(NN - tt, NN - tt - nn), Fraction(tt + 1, tt + 1 - nn))
                if worst != claim:
                    return _fail(count, f"max_y exp|ln ratio| = {worst}, formula {claim}", N=NN, n=nn, t=tt)
                both = lambda c: max(sum(max(a - c * e, 0) for a, e in zip(f, g)),     # noqa: E731
                                     sum(max(e - c * a, 0) for a, e in zip(f, g)))
                if both(claim) != 0 or both(claim * Fraction(999, 1000)) <= 0:
                    return _fail(count, "delta_0 does not vanish exactly from eps_0(t)", N=NN, n=nn, t=tt)
    return Enumeration(True, count, "2 <= N <= 12, every n and n <= t <= N-n-1: max over y of max(ratio, 1/ratio) equals "
                                    "the formula exactly, and delta_0 (both directions) is 0 at e^eps = e^{eps_0(t)} and "
                                    "> 0 at 0.999 e^{eps_0(t)}")


register(Claim(
    id="profile.srs.zero_region",
    title="SRS, binary data, n <= t <= N-n-1: eps_0(t) = max_y |ln f_t(y)/f_{t+1}(y)| = max(ln((N-t)/(N-t-n)), "
          "ln((t+1)/(t+1-n)))",
    source=S23_R89, kind="identity",
    lhs=sp.Symbol(r"\max_y |\ln f_t(y)/f_{t+1}(y)|"), rhs=_EPS0, conditions=(sp.Le(n, t), sp.Le(t, N - n - 1)),
    proof=_prove_zero_region, enumeration=_zero_region_enum,
    note="For eps >= eps_0(t) both directions have delta_0 = 0, hence delta_b(eps) = 0 for every b >= 0 (data-processing "
         "inequality: adding noise is post-processing). The numeric layer returns 0 there without integrating. Result 9 "
         "(htm.r9.epsilon0) is the maximum of eps_0(t) over t in [m_t, M_t - 1]."))

# ================================================================================================
# The noise scale
# ================================================================================================
s_ = sp.Symbol("s", real=True)
b1, b2, s1_, s2_ = sp.symbols("b_1 b_2 sigma_1 sigma_2", positive=True)
_LAP_CF = 1 / (1 + b**2 * s_**2)


def _prove_scale_monotone() -> Proof:
    # Laplace characteristic function, by antiderivatives on the two half-lines
    kL, kR = sp.I * s_ + 1 / b, sp.I * s_ - 1 / b
    FL, FR = sp.exp(kL * z) / kL, sp.exp(kR * z) / kR
    steps = [zero(sp.diff(FL, z) - sp.exp(sp.I * s_ * z) * sp.exp(z / b), "d/dz e^{(is+1/b)z}/(is+1/b) = e^{isz} e^{z/b}"),
             zero(sp.diff(FR, z) - sp.exp(sp.I * s_ * z) * sp.exp(-z / b), "d/dz e^{(is-1/b)z}/(is-1/b) = e^{isz} e^{-z/b}")]
    mL, mR = sp.Abs(sp.exp(kL * z)), sp.Abs(sp.exp(kR * z))
    lims = (sp.limit(mL, z, -sp.oo), sp.limit(mR, z, sp.oo))
    steps.append(Proof(mL == sp.exp(z / b) and mR == sp.exp(-z / b) and lims == (0, 0),
                       (f"|e^(isz) e^(+-z/b)| = {mL}, {mR}, limits {lims} at -oo, +oo: the antiderivatives vanish there",)))
    cf = (FL.subs(z, 0) - FR.subs(z, 0)) / (2 * b)
    steps.append(zero(cf - _LAP_CF, "int e^{isz} e^{-|z|/b}/(2b) dz = (F_L(0) - F_R(0))/(2b) = 1/(1 + b^2 s^2)"))
    rho = (b1 / b2)**2
    steps.append(zero(1 / (1 + b2**2 * s_**2) - (rho + (1 - rho) / (1 + b2**2 * s_**2)) / (1 + b1**2 * s_**2),
                      "1/(1 + b2^2 s^2) = [rho + (1 - rho)/(1 + b2^2 s^2)]/(1 + b1^2 s^2), rho = (b1/b2)^2"))
    g = sp.Symbol("g", nonnegative=True)
    one_minus = sp.expand(((b1 + g)**2 - b1**2))
    steps.append(Proof(bool(rho.is_positive) and bool(one_minus.is_nonnegative),
                       (f"rho > 0 and 1 - rho = ({one_minus})/b2^2 >= 0 with b2 = b1 + g, g >= 0",)))
    # Gaussian
    sg = sp.Symbol("sigma", positive=True)
    gcf = sp.integrate(sp.exp(sp.I * s_ * z) * sp.exp(-z**2 / (2 * sg**2)), (z, -sp.oo, sp.oo)) / (sg * sp.sqrt(2 * sp.pi))
    steps.append(zero(gcf - sp.exp(-sg**2 * s_**2 / 2), "Gaussian: int e^{isz} phi(z/sigma)/sigma dz = e^{-sigma^2 s^2/2}"))
    steps.append(zero(sp.exp(-s2_**2 * s_**2 / 2) - sp.exp(-s1_**2 * s_**2 / 2) * sp.exp(-(s2_**2 - s1_**2) * s_**2 / 2),
                      "e^{-sigma2^2 s^2/2} = e^{-sigma1^2 s^2/2} e^{-(sigma2^2 - sigma1^2) s^2/2}"))
    steps.append(Proof(True, (
        "deduction (cited: the characteristic function of an independent sum is the product, that of a mixture the "
        "mixture, and it determines the law): rho + (1 - rho)/(1 + b2^2 s^2) is the characteristic function of X = 0 "
        "w.p. rho and Laplace(b2) w.p. 1 - rho, so Laplace(b2) = Laplace(b1) + X in law with X independent; for "
        "sigma1 <= sigma2, N(0, sigma2^2) = N(0, sigma1^2) + N(0, sigma2^2 - sigma1^2). Hence Z_{b2} is Z_{b1} plus "
        "independent noise, a post-processing, and the data-processing inequality (cited) gives "
        "delta_{b2}(eps) <= delta_{b1}(eps)",)))
    return all_of(*steps)


register(Claim(
    id="profile.scale_monotone",
    title="Laplace cf 1/(1 + b^2 s^2); 1/(1 + b2^2 s^2) = [rho + (1-rho)/(1 + b2^2 s^2)]/(1 + b1^2 s^2), rho = (b1/b2)^2: "
          "delta(eps) is non-increasing in b (and in sigma)",
    source=ABSTRACT, kind="identity",
    lhs=1 / (1 + b2**2 * s_**2),
    rhs=((b1 / b2)**2 + (1 - (b1 / b2)**2) / (1 + b2**2 * s_**2)) / (1 + b1**2 * s_**2),
    conditions=(sp.Le(b1, b2),), proof=_prove_scale_monotone,
    note="For 0 < b1 <= b2, Laplace(b2) = Laplace(b1) + X with X independent (X = 0 with probability rho = (b1/b2)^2, "
         "Laplace(b2) otherwise); for the Gaussian the variances add. So a larger scale is a post-processing of a smaller "
         "one and delta(eps; b) is non-increasing in b. The numeric layer relies on this to find the smallest scale "
         "reaching a target (eps, delta) by bisection on b."))

Delta = sp.Symbol("Delta", positive=True)
eps_p = sp.Symbol("epsilon", positive=True)
q_ = sp.Symbol("q", positive=True)
B_SCALE = Delta / sp.log(1 + (sp.exp(eps_p) - 1) / q_)
_AMPL = sp.log(1 + q_ * (sp.exp(Delta / b) - 1))


def _prove_generic_scale() -> Proof:
    s1 = zero(_AMPL.subs(b, B_SCALE) - eps_p, "ln(1 + q(e^{Delta/b} - 1)) at b = Delta/ln(1 + (e^eps - 1)/q) is eps")
    epsb = _AMPL
    s2 = zero(B_SCALE.subs(eps_p, epsb) - b, "and b(eps(b)) = b: the two maps are inverse")
    x = sp.Symbol("x", positive=True)         # x = (e^eps - 1)/q > 0, and below x = e^(Delta/b) - 1 > 0
    s3 = Proof(bool(sp.log(1 + x).is_positive),
               ("ln(1 + x) > 0 with x = (e^eps - 1)/q > 0 (eps > 0, q > 0): the scale is positive and finite",))
    dep = sp.diff(_AMPL, b).subs(sp.exp(Delta / b), 1 + x)
    s4 = Proof(bool(dep.is_negative), (f"d/db ln(1 + q(e^(Delta/b) - 1)) = {dep} < 0 with e^(Delta/b) = 1 + x, x > 0 "
                                       "(Delta/b > 0): eps(b) is decreasing, so b is the unique scale with amplified "
                                       "eps equal to the target",))
    s5 = Proof(True, ("external result (cited, not proved here): Balle, Barthe & Gaboardi (2018), privacy amplification "
                      "by subsampling without replacement under the substitution relation: an eps'-DP mechanism on a "
                      "sample drawn with fraction q is ln(1 + q(e^{eps'} - 1))-DP on the population",))
    return all_of(s1, s2, s3, s4, s5)


register(Claim(
    id="profile.amplification.generic_scale",
    title="Generic route: eps' = Delta/b, eps = ln(1 + q(e^{eps'} - 1)) inverts to b = Delta / ln(1 + (e^eps - 1)/q)",
    source=ABSTRACT, kind="identity",
    lhs=b, rhs=B_SCALE, conditions=(sp.Eq(eps_p, _AMPL, evaluate=False), sp.Le(q_, 1)), proof=_prove_generic_scale,
    note="The baseline the numeric layer compares the exact profile with: the Laplace mechanism on the sample with "
         "sensitivity Delta (pure eps' = Delta/b), then amplification by subsampling with fraction q (Balle, Barthe & "
         "Gaboardi 2018, sampling without replacement under substitution: an external result, not derived from the "
         "source). Solving for b gives the scale of the generic route; q in (0, 1], eps > 0, Delta > 0."))


def _generic_point(rng):
    return rng.uniform(0.05, 3.0), rng.uniform(0.5, 200.0), rng.uniform(1e-3, 1.0)


formula("amplified_laplace_scale", B_SCALE, (eps_p, Delta, q_), ("profile.amplification.generic_scale",), ABSTRACT,
        "Laplace scale of the generic route (Laplace on the sample, sensitivity Delta, amplification by subsampling "
        "with fraction q): Delta / ln(1 + (e^eps - 1)/q).", sample=_generic_point)
