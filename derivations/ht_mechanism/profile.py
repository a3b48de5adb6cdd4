"""The privacy profile delta(eps) of the Horvitz-Thompson mechanism: the facts its exact evaluation uses.

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``; "The Horvitz-Thompson estimate as a privacy mechanism"):
Section 1.4 (delta as an integral of a positive part), Section 2.2 (the mixture density and the
split of the delta integral), Section 2.3 (Results 8-9, simple random sampling on binary data) and
the Abstract (the question of the noise scale).  The definitions and Results are proved in
:mod:`derivations.ht_mechanism.results` and :mod:`derivations.ht_mechanism.srs`; this module proves
what an exact evaluation of the whole profile eps -> delta(eps) needs besides them.

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

Methods.  Every proof ends in the engine's check of the claim's own statement.  Identities are
proved symbolically on generic configurations (symbolic atom positions with positive gaps, symbolic
signed weights), the conditions of a claim entering through a checked parametrization.  Identities
between binomial pmfs are proved for all integer arguments from Pascal's rule and the absorption
identity, themselves checked by SymPy on a split of the integers into cases that covers them; they
are also checked by exact enumeration with Fractions on small designs.  Standard results that a
step uses (the data-processing inequality, the event form of the hockey-stick divergence,
Laguerre's rule of signs, uniqueness of characteristic functions, the monotone likelihood ratio
region, amplification by subsampling) are cited as such.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import sympy as sp

from ..engine.core import (Claim, Enumeration, Proof, Source, all_of, cite, is_zero, mechanical,
                           register, zero)
from ..engine.formulas import formula
from ..engine.proofs import Parametrization, conclude, conclude_evaluation, covers, has_sign
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

def _fail(count, why, scope, **where) -> Enumeration:
    return Enumeration(False, count, why, {k: str(v) for k, v in where.items()}, scope=scope)


def _C(a: int, k: int) -> int:
    """C(a, k), 0 outside 0 <= k <= a (math.comb raises on negative arguments)."""
    return comb(a, k) if 0 <= k <= a else 0


def _resolved(expr) -> bool:
    """True when no absolute value is left in ``expr`` (SymPy decided every sign)."""
    return not any(isinstance(e, sp.Abs) for e in sp.preorder_traversal(expr))


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


def _every_interval() -> Proof:
    """2b D(a_j + u) = R_j e^{u/b} + L_j e^{-u/b} on every interval of the 4-atom configuration, and the recursions."""
    steps = []
    for j in range(1, K4):
        gap = H[j - 1]
        signs = _interior_signs(j)
        decided = None not in signs
        steps.append(mechanical(decided, f"interval [a_{j}, a_{j + 1}]: the signs of z - a_k for 0 < u < h_{j} "
                                         f"are {signs} (decided at u = h_{j} theta/(1+theta), theta > 0)"))
        if not decided:
            return all_of(*steps)
        inside = sum(W[k] * sp.exp(-signs[k] * (ATOMS[j - 1] + u - ATOMS[k]) / b) for k in range(K4))
        steps.append(zero(inside - (R_(j) * sp.exp(u / b) + L_(j) * sp.exp(-u / b)),
                          f"interval [a_{j}, a_{j + 1}], 0 < u < h_{j}: 2b D(a_{j} + u) = R_{j} e^(u/b) + L_{j} e^(-u/b)"))
        for where, uu in (("u = 0", sp.Integer(0)), ("u = h_j", gap)):
            lhs = _two_b_D_resolved(ATOMS[j - 1] + uu)
            steps.append(mechanical(_resolved(lhs), f"interval {j}, {where}: every |z - a_k| resolved"))
            steps.append(zero(lhs - (R_(j) * sp.exp(uu / b) + L_(j) * sp.exp(-uu / b)),
                              f"interval [a_{j}, a_{j + 1}], {where}: 2b D(a_{j} + u) = R_{j} e^(u/b) + L_{j} e^(-u/b)"))
    for j in range(1, K4):
        steps.append(zero(L_(j + 1) - (sp.exp(-H[j - 1] / b) * L_(j) + W[j]),
                          f"L_{j + 1} = e^(-h_{j}/b) L_{j} + w_{j + 1}"))
        steps.append(zero(R_(j) - sp.exp(-H[j - 1] / b) * (R_(j + 1) + W[j]),
                          f"R_{j} = e^(-h_{j}/b) (R_{j + 1} + w_{j + 1})"))
    steps.append(zero(L_(1) - W[0], "L_1 = w_1"))
    steps.append(zero(R_(K4), "R_K = 0"))
    return all_of(*steps)


U_IN = sp.Symbol("u_0", nonnegative=True)      # u itself, u >= 0
G_IN = sp.Symbol("g", nonnegative=True)        # h_2 - u >= 0


def prove_endpoint_form(claim: Claim) -> Proof:
    """Side facts on every interval, then the stated interval [a_2, a_3] with u = u_0, h_2 = u_0 + g (u_0, g >= 0):
    the ordering decides every |z - a_k| and the difference vanishes."""
    param = Parametrization(forward={u: U_IN, H[1]: U_IN + G_IN}, inverse={U_IN: u, G_IN: H[1] - u})
    resolved = _resolved(param.apply(claim.lhs))
    return all_of(_every_interval(),
                  mechanical(resolved, "with u = u_0 >= 0 and h_2 = u_0 + g, g >= 0, every |a_2 + u - a_k| is resolved"),
                  conclude(claim, param=param))


register(Claim(
    id="profile.laplace.endpoint_form",
    title="Laplace, 4 atoms, a_2 <= z = a_2 + u <= a_3: 2b D(z) = R_2 e^{u/b} + L_2 e^{-u/b}, L_2 = sum_{k<=2} w_k "
          "e^{-(a_2-a_k)/b}, R_2 = sum_{k>2} w_k e^{-(a_k-a_2)/b}",
    source=S22_MID, kind="identity",
    lhs=two_b_D(ATOMS[1] + u), rhs=R_(2) * sp.exp(u / b) + L_(2) * sp.exp(-u / b),
    conditions=(sp.Ge(u, 0), sp.Le(u, H[1])), proof=prove_endpoint_form,
    note="The numeric layer evaluates D on each interval [a_j, a_{j+1}] from two numbers, L_j (forward recursion "
         "from L_1 = w_1) and R_j (backward recursion from R_K = 0), both sums of non-positive powers of e^{1/b} "
         "times the weights, so no exponential overflows. Proved on every interval of a generic 4-atom "
         "configuration (the interior of each interval and both end points, and the recursions, as mechanical "
         "steps); the statement checked by the conclusion is the interval [a_2, a_3]. R_0 := R_1 + w_1 = "
         "sum_k w_k e^{-(a_k - a_1)/b} is the left-tail coefficient (profile.laplace.tails)."))

# -- the three closed forms on one interval of length h ------------------------------------------------
alpha, gamma = sp.symbols("alpha gamma", positive=True)
h = sp.Symbol("h", positive=True)
A_, B_ = sp.symbols("A B", real=True)
U0 = b / 2 * sp.log(gamma**2 / alpha**2)                 # root of A e^{u/b} + B e^{-u/b} when A B < 0
_r = sp.Symbol("r", positive=True)                       # distance from the root


def _integrand(A, B):
    return (A * sp.exp(u / b) + B * sp.exp(-u / b)) / (2 * b)


def _sign_steps(A, B, direction: str) -> Proof:
    """A e^{u/b} + B e^{-u/b} = +-2 alpha gamma sh((u - u0)/b); its sign at u = u0 +- r, r > 0, decided by SymPy."""
    sgn = 1 if direction == "increasing" else -1
    form = sgn * 2 * alpha * gamma * sp.sinh((u - U0) / b)
    s = zero(sp.powsimp(sp.expand((A * sp.exp(u / b) + B * sp.exp(-u / b) - form).rewrite(sp.exp))),
             f"A e^(u/b) + B e^(-u/b) = {'' if sgn == 1 else '-'}2 alpha gamma sh((u - u0)/b)")
    after, before = form.subs(u, U0 + _r), form.subs(u, U0 - _r)
    ok = bool(after.is_positive if sgn == 1 else after.is_negative) and bool(
        before.is_negative if sgn == 1 else before.is_positive)
    where = "(u0, oo)" if sgn == 1 else "(-oo, u0)"
    return all_of(s, mechanical(ok, f"at u = u0 + r and u = u0 - r (r > 0) the integrand is {after} and {before}: "
                                    f"it is > 0 exactly on {where}"))


_INC = _integrand(alpha**2, -gamma**2)
_INC_RHS = (sp.sqrt(alpha**2 * sp.exp(h / b)) - sp.sqrt(gamma**2 * sp.exp(-h / b)))**2 / 2


def prove_interval_increasing(claim: Claim) -> Proof:
    return all_of(_sign_steps(alpha**2, -gamma**2, "increasing"), conclude_evaluation(claim))


register(Claim(
    id="profile.laplace.interval_increasing",
    title="alpha, gamma > 0, u0 = (b/2) ln(gamma^2/alpha^2) in [0, h]: int_{u0}^{h} (alpha^2 e^{u/b} - gamma^2 e^{-u/b})/(2b) "
          "du = (alpha e^{h/(2b)} - gamma e^{-h/(2b)})^2/2",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_INC, (u, U0, h)), rhs=_INC_RHS, conditions=(sp.Ge(U0, 0), sp.Le(U0, h)),
    proof=prove_interval_increasing,
    note="A e^{u/b} + B e^{-u/b} with A = alpha^2 > 0 > B = -gamma^2, u0 = (b/2) ln(-B/A) its root; the right side is "
         "(1/2)(sqrt(A e^{h/b}) - sqrt(-B e^{-h/b}))^2, and the integrand is > 0 exactly for u > u0 (a mechanical step of "
         "the proof). With A = R_j, B = L_j (profile.laplace.endpoint_form) this is int_{a_j}^{a_{j+1}} D_+ when D changes sign "
         "from - to + inside the interval (the sign of the integrand is a mechanical step of the proof; the integral "
         "is evaluated exactly). The numeric layer uses the perfect square: a difference of two positive numbers "
         "squared, with no cancellation between large terms."))

_DEC = _integrand(-alpha**2, gamma**2)
_DEC_RHS = (sp.sqrt(gamma**2) - sp.sqrt(alpha**2))**2 / 2


def prove_interval_decreasing(claim: Claim) -> Proof:
    return all_of(_sign_steps(-alpha**2, gamma**2, "decreasing"), conclude_evaluation(claim))


register(Claim(
    id="profile.laplace.interval_decreasing",
    title="alpha, gamma > 0, u0 = (b/2) ln(gamma^2/alpha^2) in [0, h]: int_0^{u0} (gamma^2 e^{-u/b} - alpha^2 e^{u/b})/(2b) "
          "du = (gamma - alpha)^2/2",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_DEC, (u, 0, U0)), rhs=_DEC_RHS, conditions=(sp.Ge(U0, 0), sp.Le(U0, h)),
    proof=prove_interval_decreasing,
    note="A e^{u/b} + B e^{-u/b} with A = -alpha^2 < 0 < B = gamma^2, u0 = (b/2) ln(-B/A) its root; the right side is "
         "(1/2)(sqrt(B) - sqrt(-A))^2, and the integrand is > 0 exactly for u < u0 (a mechanical step of the proof). "
         "The mirrored case: D changes sign from + to - inside [a_j, a_{j+1}]; the numeric layer computes the "
         "interval's contribution as a perfect square of sqrt(L_j) - sqrt(-R_j)."))

_NOROOT = _integrand(A_, B_)
_NOROOT_RHS = (A_ * sp.exp(h / b) - A_) / 2 + (B_ - B_ * sp.exp(-h / b)) / 2
register(Claim(
    id="profile.laplace.interval_no_root",
    title="int_0^h (A e^{u/b} + B e^{-u/b})/(2b) du = (1/2)(A e^{h/b} - A) + (1/2)(B - B e^{-h/b}), A, B real",
    source=S22_MID, kind="identity",
    lhs=sp.Integral(_NOROOT, (u, 0, h)), rhs=_NOROOT_RHS, proof=conclude_evaluation,
    note="Used on an interval where D does not change sign (no root of A e^{u/b} + B e^{-u/b} in (0, h)): the "
         "contribution is this integral if D >= 0 there and 0 otherwise."))


# -- the two tails ------------------------------------------------------------------------------------
_Rsym, _Lsym = sp.Symbol("R_0", real=True), sp.Symbol("L_K", real=True)
_LEFT = sp.exp((z - a1) / b)
_RIGHT = sp.exp(-(z - ATOMS[-1]) / b)


def _tail_form(side: str) -> Proof:
    """Beyond the extreme atom (distance v >= 0) 2b D(z) is one exponential; its positive part factors."""
    if side == "left":
        zz, const, e_z, label = ATOMS[0] - v, R_(0), _LEFT, "R_0 e^((z - a_1)/b)"
    else:
        zz, const, e_z, label = ATOMS[-1] + v, L_(K4), _RIGHT, "L_K e^(-(z - a_K)/b)"
    lhs = _two_b_D_resolved(zz)
    steps = [mechanical(_resolved(lhs), f"{side} of every atom (z at distance v >= 0): every |z - a_k| resolved"),
             zero(lhs - const * e_z.subs(z, zz), f"{side} of every atom: 2b D(z) = {label}")]
    c_pos, c_neg = sp.Symbol("c", nonnegative=True), sp.Symbol("c", nonpositive=True)
    factored = (is_zero(sp.Max(c_pos * e_z, 0) - sp.Max(c_pos, 0) * e_z)
                and is_zero(sp.Max(c_neg * e_z, 0) - sp.Max(c_neg, 0) * e_z))
    steps.append(mechanical(factored, f"(c e)_+ = max(c, 0) e for the positive exponential e and c >= 0, c <= 0: "
                                      f"({label})_+ = max(coefficient, 0) x the exponential"))
    return all_of(*steps)


def prove_tails(claim: Claim) -> Proof:
    return all_of(_tail_form("left"), _tail_form("right"), conclude_evaluation(claim))


register(Claim(
    id="profile.laplace.tails",
    title="Laplace tails: max(R_0,0) int_{-oo}^{a_1} e^{(z-a_1)/b}/(2b) dz + max(L_K,0) int_{a_K}^{oo} e^{-(z-a_K)/b}/(2b) "
          "dz = (max(R_0,0) + max(L_K,0))/2",
    source=S22_TAIL, kind="identity",
    lhs=sp.Max(_Rsym, 0) * sp.Integral(_LEFT / (2 * b), (z, -sp.oo, a1))
    + sp.Max(_Lsym, 0) * sp.Integral(_RIGHT / (2 * b), (z, ATOMS[-1], sp.oo)),
    rhs=sp.Max(_Rsym, 0) / 2 + sp.Max(_Lsym, 0) / 2, proof=prove_tails,
    note="R_0 = sum_k w_k e^{-(a_k - a_1)/b}, L_K = sum_k w_k e^{-(a_K - a_k)/b}. "
         "Generic 4-atom configuration. Left of the first atom D(z) = R_0 e^{(z - a_1)/b}/(2b), right of the last "
         "L_K e^{-(z - a_K)/b}/(2b) (mechanical steps), so D_+ is max(R_0, 0) (max(L_K, 0)) times the exponential; "
         "the statement checked is the integral of that product over each tail. The numeric layer adds these two "
         "terms to the interval contributions. This is htm.delta.left_tail / right_tail with the coefficients "
         "normalised at the extreme atoms, so that they stay bounded (|R_0|, |L_K| <= sum_k |w_k|)."))

# ================================================================================================
# Gaussian noise
# ================================================================================================
sigma = sp.Symbol("sigma", positive=True)
KG = sp.Symbol("K", integer=True, positive=True)          # any number of atoms
kk = sp.Symbol("k", integer=True, positive=True)
GA = sp.IndexedBase("a", real=True)                      # a_k, the atoms
GW = sp.IndexedBase("w", real=True)                      # w_k, the signed weights


def phi(x):
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def Phi(x):
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def gauss_D(zz):
    """D(z) = sum_{k=1}^{K} w_k phi((z - a_k)/sigma)/sigma, K atoms."""
    return sp.Sum(GW[kk] * phi((zz - GA[kk]) / sigma) / sigma, (kk, 1, KG))


_EXPSUM = sp.Sum(GW[kk] * sp.exp(-GA[kk]**2 / (2 * sigma**2)) * sp.exp(GA[kk] * z / sigma**2), (kk, 1, KG))
register(Claim(
    id="profile.gaussian.exponential_sum",
    title="Gaussian kernel, any K atoms: sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} D(z) = sum_{k=1}^{K} w_k e^{-a_k^2/(2 sigma^2)} "
          "e^{a_k z/sigma^2}",
    source=S14, kind="identity",
    lhs=sigma * sp.sqrt(2 * sp.pi) * sp.exp(z**2 / (2 * sigma**2)) * gauss_D(z), rhs=_EXPSUM,
    proof=conclude,
    note="D(z) = sum_{k=1}^{K} w_k phi((z - a_k)/sigma)/sigma = f_x(z) - e^eps f_x'(z), phi the standard normal density. "
         "K symbolic atoms a_k and weights w_k (sums with a symbolic number of terms); the squares in the exponents "
         "expand. The factor sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} is positive, so D has the sign of an exponential "
         "sum with coefficients c_k = w_k e^{-a_k^2/(2 sigma^2)} (the signs of w_k) and exponents lambda_k = "
         "a_k/sigma^2, increasing with the atoms. The numeric layer counts the sign changes of (w_k) on the sorted "
         "atoms (profile.gaussian.rolle_step) to know how many roots of D to look for."))

LAM = sp.symbols("lambda_1:5", real=True)
CC = sp.symbols("c_1:5", real=True)


def prove_rolle(claim: Claim) -> Proof:
    mu = sp.Symbol("mu", real=True)          # the step of the induction: any mu between two exponents
    g_mu = sp.exp(-mu * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(CC, LAM))
    steps = [zero(sp.diff(g_mu, z) - sum(ck * (lk - mu) * sp.exp((lk - mu) * z) for ck, lk in zip(CC, LAM)),
                  "for any real mu: d/dz [e^(-mu z) sum_k c_k e^(lambda_k z)] = "
                  "sum_k c_k (lambda_k - mu) e^((lambda_k - mu) z)")]
    # one sign change in (c_k): c_1..c_m >= 0 >= c_{m+1}..c_4; then e^{-lambda_m z} sum is non-increasing
    lam0 = sp.Symbol("lambda", real=True)
    gaps = sp.symbols("g_1:4", positive=True)
    lams = [lam0, lam0 + gaps[0], lam0 + gaps[0] + gaps[1], lam0 + gaps[0] + gaps[1] + gaps[2]]
    for m in range(1, 4):
        cs = [sp.Symbol(f"c_{k + 1}", nonnegative=True) if k < m else sp.Symbol(f"c_{k + 1}", nonpositive=True)
              for k in range(4)]
        gm = sp.exp(-lams[m - 1] * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(cs, lams))
        d = sp.expand(sp.diff(gm, z))
        steps.append(mechanical(d.is_nonpositive is True,
                                f"signs (+..+ -..-) with the change after c_{m}: d/dz [e^(-lambda_{m} z) sum_k c_k "
                                f"e^(lambda_k z)] is a sum of terms c_k (lambda_k - lambda_{m}) e^(...) each <= 0: the "
                                "function is non-increasing (signs - .. - + .. +: apply this to -D)"))
    steps.append(cite("rolle_theorem", "between two zeros of e^(-mu z) f(z) lies a zero of its derivative, the "
                                       "exponential sum with coefficients c_k (lambda_k - mu)"))
    steps.append(cite("laguerre_rule_of_signs", "the induction on the number of sign changes of (c_k) that this step "
                                                "carries: sum_k c_k e^(lambda_k z), lambda increasing, has at most as "
                                                "many real zeros as (c_k) has sign changes"))
    return all_of(*steps, conclude_evaluation(claim))


register(Claim(
    id="profile.gaussian.rolle_step",
    title="Rolle step of Laguerre's rule of signs: d/dz [e^{-lambda_1 z} sum_{k=1}^{4} c_k e^{lambda_k z}] = "
          "sum_{k=2}^{4} c_k (lambda_k - lambda_1) e^{(lambda_k - lambda_1) z}",
    source=S14, kind="identity",
    lhs=sp.Derivative(sp.exp(-LAM[0] * z) * sum(ck * sp.exp(lk * z) for ck, lk in zip(CC, LAM)), z),
    rhs=sum(CC[k] * (LAM[k] - LAM[0]) * sp.exp((LAM[k] - LAM[0]) * z) for k in range(1, 4)),
    proof=prove_rolle,
    note="Laguerre's rule (cited; the generalisation of Descartes' rule of signs to exponential sums): for "
         "lambda_1 < ... < lambda_K the number of real zeros (with multiplicity) of f(z) = sum_k c_k e^{lambda_k z} is "
         "at most the number V of sign changes of (c_1, ..., c_K) (zeros ignored). Its proof is an induction on V: "
         "for V = 0 all terms have one sign and f has no zero. Otherwise pick mu strictly between the exponents of "
         "the first sign change; e^{-mu z} f has the zeros of f, and by this Rolle step (proved for any real mu; the "
         "displayed case mu = lambda_1) its derivative is the exponential sum with coefficients c_k (lambda_k - mu), "
         "with one sign change fewer; by Rolle's theorem f has at most one zero more than the derivative. With one "
         "sign change the proof also shows mechanically (the three sign steps) that e^{-lambda_m z} f is monotone, so "
         "with the extreme coefficients non-zero D (whose exponential sum has c_k of the sign of w_k, "
         "profile.gaussian.exponential_sum) has exactly one sign change: the privacy-loss event {D > 0} is a "
         "half-line, (-oo, r) when the w_k go from + to - along the sorted atoms, and the numeric layer finds r by "
         "bracketing (profile.gaussian.half_line)."))

r_, l_ = sp.symbols("r l", real=True)
a_, w_ = sp.symbols("a w", real=True)
_HALF = sp.Sum(GW[kk] * Phi((r_ - GA[kk]) / sigma), (kk, 1, KG))
_SEG = sp.Integral(w_ * phi((z - a_) / sigma) / sigma, (z, l_, r_))
_SEG_RHS = w_ * (Phi((r_ - a_) / sigma) - Phi((l_ - a_) / sigma))


def prove_half_line(claim: Claim) -> Proof:
    return all_of(zero(_SEG.doit() - _SEG_RHS, "int_l^r w phi((z - a)/sigma)/sigma dz, direct integration"),
                  conclude_evaluation(claim))


register(Claim(
    id="profile.gaussian.half_line",
    title="Gaussian kernel, any K atoms, Phi(x) = (1 + erf(x/sqrt 2))/2: d/dr sum_{k=1}^{K} w_k Phi((r - a_k)/sigma) "
          "= D(r)",
    source=S14, kind="identity",
    lhs=sp.Derivative(_HALF, r_), rhs=gauss_D(r_), proof=prove_half_line,
    note="D(r) = sum_{k=1}^{K} w_k phi((r - a_k)/sigma)/sigma, K symbolic. P(Z <= r | x) - e^eps P(Z <= r | x') = "
         "sum_k w_k Phi((r - a_k)/sigma) is the delta of the half-line event (-oo, r]; it is stationary exactly "
         "where D(r) = 0, and with one sign change of D (profile.gaussian.rolle_step) its maximum over r, at the "
         "root, is delta(eps, x, x') (htm.delta.event_form). On a general event (a union of intervals between the "
         "roots of D) the numeric layer sums int_l^r w phi((z-a)/sigma)/sigma dz = w(Phi((r-a)/sigma) - "
         "Phi((l-a)/sigma)) (a mechanical step of the proof) over the intervals."))

# ================================================================================================
# Binary data: SRS and Bernoulli sampling
# ================================================================================================
N, n, t, y = sp.symbols("N n t y", integer=True, nonnegative=True)
p = sp.Symbol("p", positive=True)


def f_srs(tt, yy):
    return sp.binomial(tt, yy) * sp.binomial(N - tt, n - yy) / sp.binomial(N, n)


def h_srs(yy):
    return sp.binomial(t, yy) * sp.binomial(N - 1 - t, n - 1 - yy) / sp.binomial(N - 1, n - 1)


def bin_sym(tt, yy):
    return sp.binomial(tt, yy) * p**yy * (1 - p)**(tt - yy)


def hyper_h(NN: int, nn: int, tt: int, yy: int) -> Fraction:
    """h_t(y) = C(t,y) C(N-1-t, n-1-y)/C(N-1, n-1): the ones among the other n - 1 sampled units of N - 1."""
    return hyper(NN - 1, nn - 1, tt, yy)


def binom_pmf(tt: int, pp: Fraction, yy: int) -> Fraction:
    return _C(tt, yy) * pp**yy * (1 - pp)**(tt - yy) if 0 <= yy <= tt else Fraction(0)


def _cdf(pmf, k: int) -> Fraction:
    return sum((pmf(yy) for yy in range(0, k + 1)), Fraction(0))


# -- the binomial identities used, checked on a split of the integers ----------------------------------
_I, _J = sp.symbols("i j", integer=True, nonnegative=True)


def pascal_rule() -> Proof:
    """C(a, k) = C(a-1, k) + C(a-1, k-1) for every integer a >= 1 and every integer k.

    The cases k <= -1, k = 0, 1 <= k <= a - 1, k = a, k >= a + 1 cover the integers; each is written with
    non-negative integers i, j and decided by SymPy (its evaluation of C at the edges, and the gamma form
    inside, where every argument is a non-negative integer and the top is at least the bottom)."""
    def gap(a, k):
        return sp.binomial(a, k) - sp.binomial(a - 1, k) - sp.binomial(a - 1, k - 1)

    cases = (("k <= -1", 1 + _J, -1 - _I), ("k = 0", 1 + _J, sp.S.Zero), ("1 <= k <= a - 1", 2 + _I + _J, 1 + _I),
             ("k = a", 1 + _J, 1 + _J), ("k >= a + 1", 1 + _J, 2 + _J + _I))
    return all_of(*(zero(gap(a, k), f"Pascal's rule C(a,k) = C(a-1,k) + C(a-1,k-1), case {name} (a = {a}, k = {k}, "
                                    "i, j >= 0 integers)") for name, a, k in cases))


def absorption_rule() -> Proof:
    """C(M - 1, m - 1) = (m/M) C(M, m) for integers 1 <= m <= M (written m = 1 + i, M = m + j)."""
    m, M = 1 + _I, 1 + _I + _J
    return zero(sp.binomial(M - 1, m - 1) - m / M * sp.binomial(M, m),
                "absorption C(M-1, m-1) = (m/M) C(M, m) for 1 <= m <= M (m = 1 + i, M = m + j, i, j >= 0 integers)")


def _stated(claim: Claim, cond) -> bool:
    """``cond`` (g >= 0 or g > 0 as a relational) is one of the claim's conditions up to rearrangement."""
    def side(c):
        c = sp.sympify(c)
        if isinstance(c, (sp.Ge, sp.Gt)):
            return c.lhs - c.rhs
        if isinstance(c, (sp.Le, sp.Lt)):
            return c.rhs - c.lhs
        return None
    want = side(cond)
    return any(side(c) is not None and is_zero(side(c) - want) for c in claim.conditions)


def _atomised(expr):
    """Every binomial coefficient of ``expr`` replaced by its own symbol: a polynomial identity in the
    atoms then holds whatever their values are."""
    atoms = sorted(expr.atoms(sp.binomial), key=sp.default_sort_key)
    return expr.xreplace({bc: sp.Symbol(f"C{k}") for k, bc in enumerate(atoms)})


def _telescoping(g, what: str) -> Proof:
    """sum_{y=0}^{k} (g(y) - g(y-1)) = g(k) - g(-1), by SymPy's summation (any function g)."""
    k = sp.Symbol("k", integer=True, nonnegative=True)
    gf = sp.Function("g")
    tele = is_zero(sp.summation(gf(y) - gf(y - 1), (y, 0, k)) - (gf(k) - gf(-1)))
    return all_of(mechanical(tele, "sum_{y=0}^{k} (g(y) - g(y-1)) = g(k) - g(-1) (SymPy summation, any g)"),
                  zero(g(-1), f"{what} at y = -1 is 0 (C(t, -1) = 0): F_t(k) - F_(t+1)(k) = q g(k)"))


_SRS_PASCAL = {sp.binomial(N - t, n - y): sp.binomial(N - t - 1, n - y) + sp.binomial(N - t - 1, n - y - 1),
               sp.binomial(t + 1, y): sp.binomial(t, y) + sp.binomial(t, y - 1)}
_SRS_ABSORB = {sp.binomial(N - 1, n - 1): n / N * sp.binomial(N, n)}


def srs_difference_steps(claim: Claim) -> Proof:
    """The pmf difference for all integers N, n, t, y with 1 <= n <= N, t <= N - 1, and its cdf form, from the
    rules :func:`pascal_rule` and :func:`absorption_rule` (which the caller proves alongside)."""
    hyps = mechanical(all(_stated(claim, c) for c in (sp.Ge(N - t - 1, 0), sp.Ge(n, 1), sp.Ge(N - n, 0))),
                      "the conditions give the hypotheses of the rules used: top N - t >= 1 (t <= N - 1), t + 1 >= 1, "
                      "1 <= n <= N")
    rewritten = (claim.lhs - claim.rhs).xreplace(_SRS_PASCAL).xreplace(_SRS_ABSORB)
    algebra = zero(_atomised(rewritten),
                   "Pascal's rule on C(N-t, n-y) (top N - t >= 1) and on C(t+1, y) (top t + 1 >= 1), absorption "
                   "C(N-1, n-1) = (n/N) C(N, n): lhs - rhs is then a polynomial in the binomial coefficients, "
                   "each replaced by its own symbol, and vanishes identically")
    return all_of(hyps, algebra, _telescoping(h_srs, "h_t"))


def prove_srs_difference(claim: Claim) -> Proof:
    return all_of(pascal_rule(), absorption_rule(), srs_difference_steps(claim), conclude(claim))


SRS_SCOPE = "SRS on 2 <= N <= 10 units, every 1 <= n <= N and 0 <= t <= N - 1"


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
                        return _fail(count, "pmf difference", SRS_SCOPE, N=NN, n=nn, t=tt, y=yy)
                for k in range(0, nn + 1):
                    count += 1
                    F_t = _cdf(lambda yy: hyper(NN, nn, tt, yy), k)
                    F_t1 = _cdf(lambda yy: hyper(NN, nn, tt + 1, yy), k)
                    if F_t - F_t1 != q * hyper_h(NN, nn, tt, k):
                        return _fail(count, "cdf difference", SRS_SCOPE, N=NN, n=nn, t=tt, k=k)
    return Enumeration(True, count, "the pmf identity for -1 <= y <= n + 1 and F_t(k) - F_{t+1}(k) = (n/N) h_t(k) for "
                                    "0 <= k <= n, exact Fractions from math.comb", scope=SRS_SCOPE)


SRS_DIFFERENCE = register(Claim(
    id="profile.srs.pmf_difference",
    title="SRS, binary data, 1 <= n <= N, 0 <= t <= N-1, y >= 0: f_t(y) - f_{t+1}(y) = (n/N)(h_t(y) - h_t(y-1)), "
          "h_t(y) = C(t,y)C(N-1-t,n-1-y)/C(N-1,n-1)",
    source=S23, kind="identity",
    lhs=f_srs(t, y) - f_srs(t + 1, y), rhs=n / N * (h_srs(y) - h_srs(y - 1)),
    conditions=(sp.Ge(n, 1), sp.Le(n, N), sp.Le(t, N - 1)),
    proof=prove_srs_difference, enumeration=_srs_difference_enum,
    note="Proved for all integers from Pascal's rule and the absorption identity (each checked by SymPy on a split "
         "of the integers into cases), so also outside the supports, where both sides vanish; the cdf form "
         "F_t(k) - F_{t+1}(k) = (n/N) h_t(k) follows by telescoping (a mechanical step of the proof). Interpretation (a coupling): F_t(k) - F_{t+1}(k) = P(i in S, k ones among the other sampled "
         "units) when x and x' differ at unit i (0 in x, 1 in x'). The numeric layer gets F_{t+1} from F_t and h_t "
         "without a second hypergeometric cdf, and uses h_t for the closed form of delta_0 (profile.delta0_bound)."))

_BERN_PASCAL = {sp.binomial(t + 1, y): sp.binomial(t, y) + sp.binomial(t, y - 1)}


def bern_difference_steps(claim: Claim) -> Proof:
    """The Bernoulli pmf difference for all integers t, y >= 0 (p < 1), and its cdf form, from
    :func:`pascal_rule` (which the caller proves alongside)."""
    rewritten = (claim.lhs - claim.rhs).xreplace(_BERN_PASCAL)
    algebra = zero(_atomised(rewritten),
                   "Pascal's rule on C(t+1, y) (top t + 1 >= 1): lhs - rhs is then C(t,y) p^y (1-p)^(t-y) (1 - (1-p) - p) "
                   "+ C(t,y-1) p^y (1-p)^(t+1-y) (1 - 1), the binomial coefficients replaced by symbols")
    return all_of(algebra, _telescoping(lambda yy: bin_sym(t, yy), "Bin(t,p)"))


def prove_bern_difference(claim: Claim) -> Proof:
    return all_of(pascal_rule(), bern_difference_steps(claim), conclude(claim))


P_BERN = (Fraction(1, 3), Fraction(1, 2), Fraction(3, 4))
BERN_SCOPE = "Bernoulli sampling, 0 <= t <= 8, p in {1/3, 1/2, 3/4}"


def _bern_difference_enum() -> Enumeration:
    count = 0
    for pp in P_BERN:
        for tt in range(0, 9):
            for yy in range(-1, tt + 3):
                count += 1
                if binom_pmf(tt, pp, yy) - binom_pmf(tt + 1, pp, yy) != pp * (binom_pmf(tt, pp, yy)
                                                                              - binom_pmf(tt, pp, yy - 1)):
                    return _fail(count, "pmf difference", BERN_SCOPE, t=tt, p=pp, y=yy)
            for k in range(0, tt + 2):
                count += 1
                if (_cdf(lambda yy: binom_pmf(tt, pp, yy), k) - _cdf(lambda yy: binom_pmf(tt + 1, pp, yy), k)
                        != pp * binom_pmf(tt, pp, k)):
                    return _fail(count, "cdf difference", BERN_SCOPE, t=tt, p=pp, k=k)
    return Enumeration(True, count, "the pmf identity for -1 <= y <= t + 2 and F_t(k) - F_{t+1}(k) = p Bin(t,p)(k) "
                                    "for 0 <= k <= t + 1, exact Fractions", scope=BERN_SCOPE)


BERN_DIFFERENCE = register(Claim(
    id="profile.bernoulli.pmf_difference",
    title="Bernoulli sampling, binary data, 0 < p < 1, integers t, y >= 0: Bin(t,p)(y) - Bin(t+1,p)(y) = "
          "p(Bin(t,p)(y) - Bin(t,p)(y-1))",
    source=S23_BERN, kind="identity",
    lhs=bin_sym(t, y) - bin_sym(t + 1, y), rhs=p * (bin_sym(t, y) - bin_sym(t, y - 1)),
    conditions=(sp.Lt(p, 1),),
    proof=prove_bern_difference, enumeration=_bern_difference_enum,
    note="Bernoulli (Poisson, equal p) sampling of binary data: the number of sampled ones is Bin(t, p), t = t(x). "
         "The cdf form F_t(k) - F_{t+1}(k) = p Bin(t,p)(k) follows by telescoping (a mechanical step of the proof). "
         "Proved for all integers from Pascal's rule (checked by SymPy on a split of the integers); p < 1 keeps "
         "(1 - p)^(t - y) finite for y > t. Interpretation (a coupling): Bin(t + 1, p) is the law of Y + I with "
         "Y ~ Bin(t, p) and I ~ Bernoulli(p) independent. This is profile.srs.pmf_difference with q = p and "
         "h_t = Bin(t, p); the numeric layer uses it for the closed form of delta_0 (profile.delta0_bound)."))

_BRATIO = (t + 1 - y) / ((t + 1) * (1 - p))
_PBAR = sp.Symbol("pbar", positive=True)       # 1 - p > 0


def prove_bern_ratio(claim: Claim) -> Proof:
    """Cases y <= t (y = t - j; every gamma finite) and y = t + 1 (C(t, t+1) = 0), then the conclusion."""
    inside = (claim.lhs - claim.rhs).subs(t, y + _J)
    edge = (claim.lhs - claim.rhs).subs(y, t + 1)
    on_p = Parametrization(forward={p: 1 - _PBAR}, inverse={_PBAR: 1 - p})
    slope = on_p.apply(sp.diff(claim.rhs, y))
    return all_of(zero(inside, "case y <= t (t = y + j, j >= 0 integer): ratio of binomial pmfs"),
                  zero(edge, "case y = t + 1: C(t, t+1) = 0, both sides 0"),
                  covers(on_p, claim),
                  mechanical(has_sign(slope, "negative"), f"d/dy (t+1-y)/((t+1)(1-p)) = {slope} < 0 with "
                                                          "p = 1 - pbar, pbar > 0: decreasing in y"),
                  conclude(claim))


def _bern_ratio_enum() -> Enumeration:
    count = 0
    for pp in P_BERN:
        for tt in range(0, 9):
            for yy in range(0, tt + 2):
                count += 1
                if binom_pmf(tt, pp, yy) != Fraction(tt + 1 - yy, (tt + 1)) / (1 - pp) * binom_pmf(tt + 1, pp, yy):
                    return _fail(count, "ratio", BERN_SCOPE, t=tt, p=pp, y=yy)
    return Enumeration(True, count, "0 <= y <= t + 1 (including y = t + 1, where the ratio is 0), exact Fractions",
                       scope=BERN_SCOPE)


register(Claim(
    id="profile.bernoulli.pmf_ratio",
    title="Bernoulli sampling, binary data, 0 < p < 1, 0 <= y <= t+1: Bin(t,p)(y)/Bin(t+1,p)(y) = (t+1-y)/((t+1)(1-p))",
    source=S23_BERN, kind="identity",
    lhs=bin_sym(t, y) / bin_sym(t + 1, y), rhs=_BRATIO, conditions=(sp.Lt(p, 1), sp.Le(y, t + 1)),
    proof=prove_bern_ratio, enumeration=_bern_ratio_enum,
    note="The analogue of htm.r8.pmf_ratio; that the right side decreases in y is a mechanical step of the proof. "
         "The likelihood ratio is monotone in y, which is what makes the positive "
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


DELTA0_SCOPE = ("SRS 2 <= N <= 9, every n and 0 <= t <= N-1; Bernoulli 0 <= t <= 8, p in {1/3, 1/2}; "
                "e^eps in {1, 3/2, 4}")


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
                        return _fail(count, why, DELTA0_SCOPE, design="SRS", N=NN, n=nn, t=tt, c=c)
    for pp in P_BERN[:2]:
        for tt in range(0, 9):
            for c in RATIOS:
                count += 1
                why = _check_closed_forms(lambda yy: binom_pmf(tt, pp, yy), lambda yy: binom_pmf(tt + 1, pp, yy),
                                          lambda yy: binom_pmf(tt, pp, yy), pp, c, range(0, tt + 2), tt + 1)
                if why:
                    return _fail(count, why, DELTA0_SCOPE, design="Bernoulli", p=pp, t=tt, c=c)
    return Enumeration(True, count, "both directions: delta_0 by direct summation of the positive parts equals the "
                                    "closed form and is <= the bound, exactly (k* = -1 or j = top when the set is "
                                    "empty)", scope=DELTA0_SCOPE)


_F = sp.Symbol("F_{t}(k^{*})", nonnegative=True)             # F_t at k*, a probability
_hk = sp.Symbol("h_{t}(k^{*})", nonnegative=True)
_q = sp.Symbol("q", positive=True)
_D = sp.Symbol("d", nonnegative=True)                    # e^eps = 1 + d
_DELTA0 = _F - sp.exp(eps) * (_F - _q * _hk)             # F_t(k*) - e^eps F_{t+1}(k*), F_{t+1} = F_t - q h_t


def prove_delta0(claim: Claim) -> Proof:
    on_eps = Parametrization(forward={eps: sp.log(1 + _D)}, inverse={_D: sp.exp(eps) - 1})
    Fj, hj, G = sp.Symbol("F_{t}(j)"), sp.Symbol("h_{t}(j)", nonnegative=True), sp.Symbol("G", nonnegative=True)
    reverse = (1 - (Fj - _q * hj)) - sp.exp(eps) * (1 - Fj)
    reverse_closed = (1 - sp.exp(eps)) * (1 - Fj) + _q * hj
    gap_rev = on_eps.apply(_q * hj - reverse_closed).subs(Fj, 1 - G)     # 1 - F_t(j) = G >= 0
    return all_of(
        cite("hockey_stick_event_form", "with b = 0 (counting measure) delta_0(eps; t -> t+1) = sum_y (f_t(y) - "
                                        "e^eps f_{t+1}(y))_+, the sum over the loss event {f_t > e^eps f_{t+1}}"),
        cite("monotone_likelihood_ratio_region", "f_t/f_{t+1} is non-increasing (htm.r8.ratio_decreasing for SRS, "
                                                 "profile.bernoulli.pmf_ratio for Bernoulli sampling), so the terms are "
                                                 ">= 0 exactly on {y <= k*} and delta_0 = F_t(k*) - e^eps F_{t+1}(k*); "
                                                 "reverse direction: delta_0(eps; t+1 -> t) = (1 - F_{t+1}(j)) - "
                                                 "e^eps (1 - F_t(j))"),
        zero(claim.rhs - ((1 - sp.exp(eps)) * _F + sp.exp(eps) * _q * _hk),
             "F_t(k*) - e^eps (F_t(k*) - q h_t(k*)) = (1 - e^eps) F_t(k*) + e^eps q h_t(k*)"),
        pascal_rule(), absorption_rule(), srs_difference_steps(SRS_DIFFERENCE),
        bern_difference_steps(BERN_DIFFERENCE),
        zero(reverse - reverse_closed, "reverse closed form with F_{t+1}(j) = F_t(j) - q h_t(j): "
                                       "(1 - F_j + q h_j) - e^eps (1 - F_j) = (1 - e^eps)(1 - F_j) + q h_j"),
        covers(on_eps, claim),
        mechanical(has_sign(gap_rev, "nonnegative"), f"reverse bound: q h_t(j) - closed form = {sp.factor(gap_rev)} "
                                                     ">= 0 (e^eps = 1 + d, 1 - F_t(j) = G >= 0)"),
        cite("data_processing_hockey_stick", "Z_b = Z_0 + b W with W independent of (X, S) is a post-processing of "
                                             "Z_0, so delta_b(eps; t -> t') <= delta_0(eps; t -> t') for every b >= 0 "
                                             "and every noise law"),
        conclude(claim, param=on_eps))


register(Claim(
    id="profile.delta0_bound",
    title="Binary data, bound on delta_0: F_t(k*) - e^eps (F_t(k*) - q h_t(k*)) <= e^eps q h_t(k*) for e^eps >= 1, "
          "q > 0, F_t(k*), h_t(k*) >= 0",
    source=S23_R89, kind="inequality",
    lhs=sp.exp(eps) * _q * _hk, relation=">=", rhs=_DELTA0, conditions=(sp.Ge(sp.exp(eps), 1),),
    proof=prove_delta0, enumeration=_delta0_enum,
    note="The chain (SRS: q = n/N; Bernoulli: q = p; f_t/f_{t+1} non-increasing): delta_b(eps; t->t+1) <= delta_0 = "
         "F_t(k*) - e^eps F_{t+1}(k*) = (1-e^eps) F_t(k*) + e^eps q h_t(k*) <= e^eps q h_t(k*); delta_b(eps; t+1->t) "
         "<= (1-e^eps)(1-F_t(j)) + q h_t(j) <= q h_t(j). "
         "The statement checked by the conclusion is the last inequality of the forward chain, e^eps q h_t(k*) >= "
         "F_t(k*) - e^eps (F_t(k*) - q h_t(k*)), for every probability F_t(k*) and e^eps >= 1; the equalities before "
         "it rest on the cited event form of delta, the monotone likelihood ratio and the cdf difference "
         "F_{t+1} = F_t - q h_t (proved again here, profile.srs.pmf_difference, profile.bernoulli.pmf_difference); "
         "delta_b <= delta_0 is the cited data-processing inequality; the reverse chain is mechanical. q h_t is the "
         "law of the ones among the n - 1 other sampled units times n/N (SRS), or p Bin(t, p) (Bernoulli); k* = the "
         "largest y (in the union of the supports) with f_t(y) >= e^eps f_{t+1}(y), j = the smallest y with "
         "f_{t+1}(y) >= e^eps f_t(y), minus 1. The numeric layer uses the closed forms for b = 0 and the bounds as "
         "certified upper bounds of delta_b for every noise scale (and as a check of its integrals)."))

# -- the eps from which delta vanishes for every b (SRS, equal supports) -----------------------------------
_SRS_RATIO = (t + 1 - y) * (N - t) / ((t + 1) * (N - t - n + y))
_EPS0 = sp.Max(sp.log((N - t) / (N - t - n)), sp.log((t + 1) / (t + 1 - n)))
_A_T, _C_T = sp.symbols("a c", integer=True, nonnegative=True)   # t = n + a, N = t + n + 1 + c


def prove_zero_region(claim: Claim) -> Proof:
    inside = Parametrization(forward={t: n + _A_T, N: 2 * n + _A_T + 1 + _C_T},
                             inverse={_A_T: t - n, _C_T: N - t - n - 1})
    support = [inside.apply(e) for e in (sp.Max(0, n + t - N), sp.Min(n, t), sp.Max(0, n + t + 1 - N), sp.Min(n, t + 1))]
    s_supp = mechanical(support == [0, n, 0, n], f"supports: [max(0, n+t-N), min(n, t)] and [max(0, n+t+1-N), "
                                                 f"min(n, t+1)] are {support} = [0, n] twice (htm.r8.support_condition)")
    ratio = sp.combsimp(inside.apply(f_srs(t, y) / f_srs(t + 1, y) - _SRS_RATIO))
    s_ratio = zero(ratio, "f_t(y)/f_{t+1}(y) = (t+1-y)(N-t)/((t+1)(N-t-n+y)) on the support (t = n + a, "
                          "N = 2n + a + 1 + c; htm.r8.pmf_ratio)")
    yy = n * theta / (1 + theta)                                   # 0 < y < n
    slope = sp.factor(sp.together(inside.apply(sp.diff(sp.log(_SRS_RATIO), y)).subs(y, yy)))
    s_slope = mechanical(has_sign(slope, "negative"), f"d/dy ln[(t+1-y)(N-t)/((t+1)(N-t-n+y))] at y = n theta/(1+theta) "
                                                      f"(theta > 0: every 0 < y < n) is {slope} < 0: ln ratio "
                                                      "decreases on [0, n]")
    return all_of(s_supp, s_ratio, s_slope,
                  cite("monotone_limits", "ln f_t/f_{t+1} is decreasing on [0, n], so ln r(n) <= ln r(y) <= ln r(0) "
                                          "and max_y |ln r(y)| = max(ln r(0), -ln r(n)), attained at y = 0 or y = n"),
                  conclude(claim, param=inside))


def _zero_region_enum() -> Enumeration:
    scope = "SRS on 2 <= N <= 12 units, every n and n <= t <= N-n-1"
    count = 0
    for NN in range(2, 13):
        for nn in range(1, NN + 1):
            for tt in range(nn, NN - nn):
                count += 1
                f = [hyper(NN, nn, tt, yy) for yy in range(nn + 1)]
                g = [hyper(NN, nn, tt + 1, yy) for yy in range(nn + 1)]
                if not all(f) or not all(g):
                    return _fail(count, "supports are not [0, n]", scope, N=NN, n=nn, t=tt)
                worst = max(max(a / c, c / a) for a, c in zip(f, g))
                claim = max(Fraction(NN - tt, NN - tt - nn), Fraction(tt + 1, tt + 1 - nn))
                if worst != claim:
                    return _fail(count, f"max_y exp|ln ratio| = {worst}, formula {claim}", scope, N=NN, n=nn, t=tt)
                both = lambda c: max(sum(max(a - c * e, 0) for a, e in zip(f, g)),     # noqa: E731
                                     sum(max(e - c * a, 0) for a, e in zip(f, g)))
                if both(claim) != 0 or both(claim * Fraction(999, 1000)) <= 0:
                    return _fail(count, "delta_0 does not vanish exactly from eps_0(t)", scope, N=NN, n=nn, t=tt)
    return Enumeration(True, count, "max over y of max(ratio, 1/ratio) equals the formula exactly, and delta_0 (both "
                                    "directions) is 0 at e^eps = e^{eps_0(t)} and > 0 at 0.999 e^{eps_0(t)}",
                       scope=scope)


register(Claim(
    id="profile.srs.zero_region",
    title="SRS, binary data, n <= t <= N-n-1: max(ln f_t(0)/f_{t+1}(0), ln f_{t+1}(n)/f_t(n)) = max(ln((N-t)/(N-t-n)), "
          "ln((t+1)/(t+1-n)))",
    source=S23_R89, kind="identity",
    lhs=sp.Max(sp.log(f_srs(t, 0) / f_srs(t + 1, 0)), sp.log(f_srs(t + 1, n) / f_srs(t, n))), rhs=_EPS0,
    conditions=(sp.Le(n, t), sp.Le(t, N - n - 1)),
    proof=prove_zero_region, enumeration=_zero_region_enum,
    note="eps_0(t) = max_y |ln f_t(y)/f_{t+1}(y)| = max(ln f_t(0)/f_{t+1}(0), ln f_{t+1}(n)/f_t(n)). "
         "The statement checked by the conclusion is the last equality (the end-point ratios of the hypergeometric "
         "pmfs); the maximum over y is at an end point because the log ratio decreases (mechanical) on the common "
         "support (mechanical), a cited property of monotone functions. For eps >= eps_0(t) both directions have "
         "delta_0 = 0, hence delta_b(eps) = 0 for every b >= 0 (data-processing inequality: adding noise is "
         "post-processing). The numeric layer returns 0 there without integrating. Result 9 (htm.r9.epsilon0) is "
         "the maximum of eps_0(t) over t in [m_t, M_t - 1]."))

# ================================================================================================
# The noise scale
# ================================================================================================
s_ = sp.Symbol("s", real=True)
b1, b2, s1_, s2_ = sp.symbols("b_1 b_2 sigma_1 sigma_2", positive=True)
_LAP_CF = 1 / (1 + b**2 * s_**2)


def _laplace_cf() -> Proof:
    """int e^{isz} e^{-|z|/b}/(2b) dz = 1/(1 + b^2 s^2), by antiderivatives on the two half-lines."""
    kL, kR = sp.I * s_ + 1 / b, sp.I * s_ - 1 / b
    FL, FR = sp.exp(kL * z) / kL, sp.exp(kR * z) / kR
    mL, mR = sp.Abs(sp.exp(kL * z)), sp.Abs(sp.exp(kR * z))
    lims = (sp.limit(mL, z, -sp.oo), sp.limit(mR, z, sp.oo))
    return all_of(
        zero(sp.diff(FL, z) - sp.exp(sp.I * s_ * z) * sp.exp(z / b), "d/dz e^{(is+1/b)z}/(is+1/b) = e^{isz} e^{z/b}"),
        zero(sp.diff(FR, z) - sp.exp(sp.I * s_ * z) * sp.exp(-z / b), "d/dz e^{(is-1/b)z}/(is-1/b) = e^{isz} e^{-z/b}"),
        mechanical(is_zero(mL - sp.exp(z / b)) and is_zero(mR - sp.exp(-z / b)) and lims == (0, 0),
                   f"|e^(isz) e^(+-z/b)| = {mL}, {mR}, limits {lims} at -oo, +oo: the antiderivatives vanish there"),
        zero((FL.subs(z, 0) - FR.subs(z, 0)) / (2 * b) - _LAP_CF,
             "int e^{isz} e^{-|z|/b}/(2b) dz = (F_L(0) - F_R(0))/(2b) = 1/(1 + b^2 s^2)"))


def prove_scale_monotone(claim: Claim) -> Proof:
    gap = sp.Symbol("g", nonnegative=True)                          # b_2 = b_1 + g
    on_b = Parametrization(forward={b2: b1 + gap}, inverse={gap: b2 - b1})
    rho = (b1 / b2)**2
    weights = mechanical(has_sign(rho, "positive") and has_sign(on_b.apply(1 - rho), "nonnegative"),
                         f"rho = (b1/b2)^2 > 0 and 1 - rho = {sp.factor(on_b.apply(1 - rho))} >= 0 (b2 = b1 + g): "
                         "rho, 1 - rho are mixture weights")
    sg = sp.Symbol("sigma", positive=True)
    gcf = sp.integrate(sp.exp(sp.I * s_ * z) * sp.exp(-z**2 / (2 * sg**2)), (z, -sp.oo, sp.oo)) / (sg * sp.sqrt(2 * sp.pi))
    return all_of(
        _laplace_cf(), covers(on_b, claim), weights,
        zero(gcf - sp.exp(-sg**2 * s_**2 / 2), "Gaussian: int e^{isz} phi(z/sigma)/sigma dz = e^{-sigma^2 s^2/2}"),
        zero(sp.exp(-s2_**2 * s_**2 / 2) - sp.exp(-s1_**2 * s_**2 / 2) * sp.exp(-(s2_**2 - s1_**2) * s_**2 / 2),
             "e^{-sigma2^2 s^2/2} = e^{-sigma1^2 s^2/2} e^{-(sigma2^2 - sigma1^2) s^2/2}: for sigma1 <= sigma2, "
             "N(0, sigma2^2) = N(0, sigma1^2) + N(0, sigma2^2 - sigma1^2)"),
        cite("characteristic_function_sum_mixture", "rho + (1 - rho)/(1 + b2^2 s^2) is the characteristic function of "
                                                    "X = 0 w.p. rho and Laplace(b2) w.p. 1 - rho, and the product with "
                                                    "1/(1 + b1^2 s^2) that of Laplace(b1) + X, X independent"),
        cite("characteristic_function_uniqueness", "so Laplace(b2) = Laplace(b1) + X in law (the displayed identity), "
                                                   "and likewise for the Gaussian"),
        cite("data_processing_hockey_stick", "Z_{b2} is Z_{b1} plus independent noise, a post-processing, so "
                                             "delta_{b2}(eps) <= delta_{b1}(eps)"),
        conclude(claim))


register(Claim(
    id="profile.scale_monotone",
    title="Laplace characteristic functions, 0 < b1 <= b2, rho = (b1/b2)^2: 1/(1 + b2^2 s^2) = [rho + (1-rho)/(1 + "
          "b2^2 s^2)]/(1 + b1^2 s^2)",
    source=ABSTRACT, kind="identity",
    lhs=1 / (1 + b2**2 * s_**2),
    rhs=((b1 / b2)**2 + (1 - (b1 / b2)**2) / (1 + b2**2 * s_**2)) / (1 + b1**2 * s_**2),
    conditions=(sp.Le(b1, b2),), proof=prove_scale_monotone,
    note="The statement checked by the conclusion is the identity of characteristic functions; the Laplace and "
         "Gaussian characteristic functions and the mixture weights are mechanical steps, the passage to laws "
         "(product and mixture rules, uniqueness) and to delta (data-processing inequality) are cited. For "
         "0 < b1 <= b2, Laplace(b2) = Laplace(b1) + X with X independent (X = 0 with probability rho = (b1/b2)^2, "
         "Laplace(b2) otherwise); for the Gaussian the variances add. So a larger scale is a post-processing of a "
         "smaller one and delta(eps; b) is non-increasing in b. The numeric layer relies on this to find the smallest "
         "scale reaching a target (eps, delta) by bisection on b."))

Delta = sp.Symbol("Delta", positive=True)
eps_p = sp.Symbol("epsilon", positive=True)
q_ = sp.Symbol("q", positive=True)
B_SCALE = Delta / sp.log(1 + (sp.exp(eps_p) - 1) / q_)
_AMPL = sp.log(1 + q_ * (sp.exp(Delta / b) - 1))            # amplified eps of the Laplace(b) mechanism on the sample


def prove_generic_scale(claim: Claim) -> Proof:
    rr = sp.Symbol("r", nonnegative=True)                     # q = 1/(1 + r) covers 0 < q <= 1
    on_q = Parametrization(forward={q_: 1 / (1 + rr)}, inverse={rr: 1 / q_ - 1})
    slope = on_q.apply(sp.diff(_AMPL, b))
    return all_of(
        cite("laplace_mechanism_pure_dp", "the Laplace mechanism of scale b on the sample, sensitivity Delta, is "
                                          "eps'-DP with eps' = Delta/b"),
        cite("amplification_by_subsampling", "so the release from the population is ln(1 + q(e^{Delta/b} - 1))-DP, "
                                             "q the sampling fraction"),
        zero(B_SCALE.subs(eps_p, _AMPL) - b, "the scale formula at the amplified eps of scale b returns b: the two "
                                             "maps are inverse"),
        covers(on_q, claim),
        mechanical(has_sign(slope, "negative"), f"d/db ln(1 + q(e^(Delta/b) - 1)) = {sp.factor(slope)} < 0 "
                                                "(q = 1/(1 + r), r >= 0): the amplified eps decreases in b, so b is "
                                                "the only scale that reaches eps"),
        conclude_evaluation(claim))


register(Claim(
    id="profile.amplification.generic_scale",
    title="Generic scale, 0 < q <= 1, eps, Delta > 0: ln(1 + q(e^{Delta/b} - 1)) at b = Delta / ln(1 + (e^eps - 1)/q) "
          "equals eps",
    source=ABSTRACT, kind="identity",
    lhs=sp.Subs(_AMPL, b, B_SCALE), rhs=eps_p, conditions=(sp.Le(q_, 1),), proof=prove_generic_scale,
    note="The baseline the numeric layer compares the exact profile with: the Laplace mechanism on the sample with "
         "sensitivity Delta (pure eps' = Delta/b), then amplification by subsampling with fraction q (Balle, Barthe & "
         "Gaboardi 2018, sampling without replacement under substitution: an external result, cited, not derived from "
         "the source). The statement checked is the algebra of the scale: substituting b = Delta / ln(1 + (e^eps - "
         "1)/q) into the amplified epsilon gives eps; that the amplified epsilon decreases in b (so the scale is "
         "unique) is a mechanical step. q in (0, 1], eps > 0, Delta > 0."))


def _generic_point(rng):
    return rng.uniform(0.05, 3.0), rng.uniform(0.5, 200.0), rng.uniform(1e-3, 1.0)


formula("amplified_laplace_scale", B_SCALE, (eps_p, Delta, q_), ("profile.amplification.generic_scale",), ABSTRACT,
        "Laplace scale of the generic route (Laplace on the sample, sensitivity Delta, amplification by subsampling "
        "with fraction q): Delta / ln(1 + (e^eps - 1)/q).", sample=_generic_point)
