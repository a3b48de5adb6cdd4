"""Surveys as they are run: stratified and Poisson designs, bounded values, tables of cells, and accuracy.

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``; "The Horvitz-Thompson estimate as a privacy mechanism"):
the mechanism Z_b = t(X, S) + b W and delta(eps, x, x') = int (f_x - e^eps f_x')_+ of Section 1.4, the
mixture density of Section 2.2 and the binary SRS setting of Section 2.3, applied to the designs and releases
a statistical institute runs.  None of these results is in the paper: each says how it extends it, and the
standard results it rests on (post-processing, parallel and sequential composition, the optimal composition
theorem of Kairouz, Oh and Viswanath 2015) are cited as such.

Setting.  Neighbours x, x' differ at one unit i.  gamma = e^eps >= 1.  K is the noise density (Laplace of
scale b, or Gaussian of standard deviation sigma), S its survival function.

* Stratified designs: independent designs in the strata; the HT total is the sum of the strata's totals, so
  Z = Z_h + R with Z_h the noisy total of the stratum h of unit i and R the other strata's total, whose law
  does not depend on x_h (``htm.strat.density_mixture``).  Mixing over R cannot increase delta
  (``htm.strat.mixture_bound``); when R is a constant c, delta is unchanged (``htm.strat.translation``).
* Poisson sampling: the units are drawn independently, so the same argument with one unit in place of a stratum
  reduces delta to the one-unit mechanism y s_i/pi_i + noise (``htm.poisson.one_unit_mixture``), in closed
  form for the pairs (y, 0) and (0, y) (``htm.poisson.laplace_forward``, ``htm.poisson.laplace_reverse``,
  ``htm.poisson.gaussian_forward``, ``htm.poisson.gaussian_reverse``); for values in [a, b] the worst pair is the
  extreme pair in one of its orders (``htm.poisson.laplace_mlr``, ``htm.poisson.worst_pair_half_line``,
  ``htm.poisson.reflection``).
* Bounded values under SRS: the generic route gives an upper value (``htm.bounded.sensitivity``), the binary
  pair {a, b} a lower value (``htm.bounded.binary_pair``).
* Tables: parallel composition for cells that partition the population (``htm.table.parallel``), basic and
  optimal composition for a unit that moves between cells or margins that overlap
  (``htm.table.basic_composition``, ``htm.table.kov_composition``).
* Accuracy: the variance of the noisy total (``htm.accuracy.variance``).

Methods.  Identities between densities of generic small designs (symbolic design probabilities, values and an
undefined kernel K) are checked symbolically; statements about delta are reduced, step by step, to the
relation the claim states, the passage from densities to delta being the cited event form of the hockey-stick
divergence, the data-processing inequality or a composition theorem.  What is not proved is said in the
notes: that the extreme values are the worst case for bounded values under SRS (only bracketed).
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, cite, mechanical, register, zero
from ..engine.notation import defined, release
from ..engine.proofs import Case, Parametrization, conclude, conclude_cases, conclude_evaluation, conclude_shift, \
    conclude_split, covers, has_sign
from .profile import Phi

DOC = "000_3f4b38deb4c4e7bd.txt"
S14 = Source(DOC, "Section 1.4 (delta(eps, x, x') = int (f_x - e^eps f_x')_+) applied to a stratified design")
S22 = Source(DOC, "Section 2.2, the mixture density f_x(z) = sum_s p(s) K(z - t(x, s)), stratified design")
S22_POISSON = Source(DOC, "Section 2.2, the mixture density f_x(z) = sum_s p(s) K(z - t(x, s)), Poisson sampling")
S14_POISSON = Source(DOC, "Section 1.4, delta(eps, x, x') for Poisson sampling, one unit's contribution")
S23_BOUNDED = Source(DOC, "Section 2.3 (SRS) with values in [a, b] in place of binary data")
S14_TABLE = Source(DOC, "Section 1.4, delta of a release of several cells (a table)")
S22_ACCURACY = Source(DOC, "Section 2.2, Z_b = t(X, S) + b W: the variance of the released total")

z = sp.Symbol("z", real=True)
eps = sp.Symbol("epsilon", nonnegative=True)
b = sp.Symbol("b", positive=True)
K = sp.Function("K")


# ================================================================================================
# Stratified designs
# ================================================================================================
def _subsets(units):
    return [frozenset(c) for r in range(len(units) + 1) for c in itertools.combinations(units, r)]


def _design_symbols(prefix: str, units) -> dict:
    """A generic design on ``units``: one symbolic probability per sample (every subset)."""
    out = {}
    for s in _subsets(units):
        tag = "".join(str(u) for u in sorted(s)) or "0"
        out[s] = sp.Symbol(f"{prefix}_{{{tag}}}", positive=True)
    return out


_X = {j: sp.Symbol(f"x_{j}", real=True) for j in (1, 2, 3, 4)}
_P1 = _design_symbols("p", (1, 2))            # stratum 1 (the stratum h of the changed unit): units 1, 2
_P2 = _design_symbols("q", (3, 4))            # stratum 2 (the other strata): units 3, 4


def _inclusion(design: dict, j: int):
    return sum(p for s, p in design.items() if j in s)


def _stratum_total(design: dict, s) -> sp.Expr:
    """t_h(x, s) = sum_{j in s} x_j / pi_j with pi_j the inclusion probability of j in its stratum's design."""
    return sp.Add(*(_X[j] / _inclusion(design, j) for j in sorted(s)))


def stratum_density(w) -> sp.Expr:
    """f^h_{x_h}(w) = sum_{s_1} p(s_1) K(w - t_1(x, s_1)): the noisy total of stratum 1 alone."""
    return sp.Add(*(p * K(w - _stratum_total(_P1, s)) for s, p in _P1.items()))


def _strat_lhs() -> sp.Expr:
    """f_x(z) = sum over the stratified samples s = s_1 u s_2, p(s) = p(s_1) q(s_2), of p(s) K(z - t(x, s))."""
    return sp.Add(*(p * q * K(z - _stratum_total(_P1, s1) - _stratum_total(_P2, s2))
                    for s1, p in _P1.items() for s2, q in _P2.items()))


def _strat_rhs() -> sp.Expr:
    """sum_r P(R = r) f^h_{x_h}(z - r): R = t_2(x, S_2), the other stratum's total, with the law of S_2."""
    return sp.Add(*(q * defined(rf"f^{{h}}_{{x_h}}\left(z - t_{{2}}(x, \{{{','.join(map(str, sorted(s2)))}\}})\right)",
                                stratum_density(z - _stratum_total(_P2, s2)))
                    for s2, q in _P2.items()))


def _prove_density_mixture(claim: Claim) -> Proof:
    pi = {j: _inclusion(_P1 if j <= 2 else _P2, j) for j in _X}
    return all_of(
        zero(pi[1] - (_P1[frozenset({1})] + _P1[frozenset({1, 2})]),
             "pi_1 = p_{1} + p_{12}: unit 1's inclusion probability is a sum over stratum 1's samples only"),
        zero(pi[3] - (_P2[frozenset({3})] + _P2[frozenset({3, 4})]),
             "pi_3 = q_{3} + q_{34}: likewise for stratum 2, so t_2(x, s_2) does not involve x_1, x_2"),
        mechanical(all(not _stratum_total(_P2, s).has(_X[1], _X[2]) for s in _P2),
                   "R = t_2(x, S_2) is free of x_1 and x_2: its law is the same under x and a neighbour x' that "
                   "differs at a unit of stratum 1"),
        conclude(claim))


register(Claim(
    id="htm.strat.density_mixture",
    title="Stratified design, two strata of 2 units, any designs p, q: sum_{s_1, s_2} p(s_1) q(s_2) K(z - t(x, s_1 "
          "u s_2)) = sum_{s_2} q(s_2) f^h_{x_h}(z - t_2(x, s_2))",
    source=S22, kind="identity", lhs=_strat_lhs(), rhs=_strat_rhs(), proof=_prove_density_mixture,
    note="f^h_{x_h}(w) = sum_{s_1} p(s_1) K(w - t_1(x, s_1)) is the density of the noisy total Z_h = t_1(X, S_1) + "
         "b W of stratum 1 alone (K any noise density), t_h(x, s_h) = sum_{j in s_h} x_j/pi_j with pi_j the "
         "inclusion probability in the stratum's design. Generic designs: one symbolic probability per subset of "
         "each stratum (8 in all), four symbolic values, K undefined. With the samples drawn independently in the "
         "strata the design is p(s_1 u s_2) = p(s_1) q(s_2) and the HT total is t_1 + t_2, so the density of Z is "
         "the mixture over R = t_2(x, S_2) of f^h shifted by R; R is free of the values of stratum 1 (a "
         "mechanical step), so its law is the same under x and under a neighbour x' differing at a unit of "
         "stratum 1. The same holds with any number of strata (R the sum of the others' totals). This is the "
         "structure htm.strat.mixture_bound and htm.strat.translation use."))

# -- the mixture bound: post-processing by the other strata's independent total ----------------------
_NK = 3
_PK = sp.symbols("P_1:4", nonnegative=True)            # P_k = P(Z_h in A - r_k | x_h)
_QK = sp.symbols("Q_1:4", nonnegative=True)            # Q_k = P(Z_h in A - r_k | x'_h)
_OM = sp.symbols("omega_1:4", positive=True)           # unnormalised weights of the atoms r_k of R
delta_h = sp.Symbol("delta_h", nonnegative=True)
_RHO = [defined(rf"\rho_{{{k + 1}}}", _OM[k] / sum(_OM)) for k in range(_NK)]
_GK = sp.symbols("g_1:4", nonnegative=True)


def _prove_mixture_bound(claim: Claim) -> Proof:
    on_events = Parametrization(forward={_PK[k]: sp.exp(eps) * _QK[k] + delta_h - _GK[k] for k in range(_NK)},
                                inverse={_GK[k]: sp.exp(eps) * _QK[k] + delta_h - _PK[k] for k in range(_NK)})
    return all_of(
        cite("density_of_independent_sum", "Z = Z_h + R with R (the other strata's total) independent of Z_h, so "
                                           "P(Z in A | x) = sum_k rho_k P(Z_h in A - r_k | x_h) when R takes the "
                                           "values r_k with probabilities rho_k (htm.strat.density_mixture), and "
                                           "the same rho_k under x' (R is free of stratum h's values)"),
        cite("hockey_stick_event_form", "delta_h(eps, x_h, x'_h) is the smallest delta with P(Z_h in B | x_h) <= "
                                        "e^eps P(Z_h in B | x'_h) + delta for every event B; B = A - r_k gives the "
                                        "conditions P_k <= e^eps Q_k + delta_h"),
        zero(sum(_RHO) - 1, "sum_k rho_k = 1: the rho_k are the probabilities of the atoms of R"),
        covers(on_events, claim),
        cite("data_processing_hockey_stick", "for a law of R with any number of atoms, or a density, the same bound "
                                             "holds: adding the independent R is a Markov kernel applied to Z_h, a "
                                             "post-processing, so delta(eps, x, x') <= delta_h(eps, x_h, x'_h)"),
        conclude(claim, param=on_events))


register(Claim(
    id="htm.strat.mixture_bound",
    title="Stratified design, other strata's total R with atoms r_1, r_2, r_3 of probabilities rho_k: if P_k <= "
          "e^eps Q_k + delta_h for each k, then sum_k rho_k P_k <= e^eps sum_k rho_k Q_k + delta_h",
    source=S14, kind="inequality",
    lhs=sum(r * p for r, p in zip(_RHO, _PK)), relation="<=",
    rhs=sp.exp(eps) * sum(r * q for r, q in zip(_RHO, _QK)) + delta_h,
    conditions=tuple(sp.Le(_PK[k], sp.exp(eps) * _QK[k] + delta_h) for k in range(_NK)),
    proof=_prove_mixture_bound,
    note="P_k = P(Z_h in A - r_k | x_h), Q_k = P(Z_h in A - r_k | x'_h) for an event A, Z_h the noisy total of "
         "stratum h (the stratum of the changed unit), rho_k = omega_k / sum_j omega_j. The left side is P(Z in A "
         "| x) and the sum on the right P(Z in A | x') (htm.strat.density_mixture), so Z satisfies DP(eps, delta_h) "
         "at (x, x') whenever Z_h does at (x_h, x'_h): delta(eps, x, x') <= delta_h(eps, x_h, x'_h). Taking the "
         "supremum over neighbours, sup delta_strat(eps) <= max_h sup delta_h(eps): the largest single-stratum "
         "supremum bounds the stratified design's. A law of R with more atoms, or with a density, is the cited "
         "data-processing inequality. Poisson sampling is the same with one unit in place of the stratum "
         "(htm.poisson.one_unit_mixture)."))


# -- equality when the other strata's estimate may be constant ------------------------------------------
D_h = sp.Function("D_h")
c_shift = sp.Symbol("c", real=True)
_N, _n = sp.symbols("N n", integer=True, positive=True)
_jj = sp.Symbol("j", integer=True, positive=True)


def _prove_translation(claim: Claim) -> Proof:
    pi = {j: _inclusion(_P2, j) for j in (3, 4)}
    zero_total = all(sp.sympify(_stratum_total(_P2, s)).subs({_X[3]: 0, _X[4]: 0}) == 0 for s in _P2)
    return all_of(
        mechanical(zero_total, "values 0 in the other stratum: t_2(x, s_2) = 0 for every sample s_2 of the generic "
                               f"design (inclusion probabilities {pi[3]}, {pi[4]}): R = 0, a constant"),
        zero(sp.Sum(1 / (_n / _N), (_jj, 1, _n)) - _N,
             "values 1 in an SRS stratum of n among N: t(x, s) = sum_{j in s} 1/(n/N) = N for every sample: R = N"),
        zero(release(_strat_rhs()).subs({_X[3]: 0, _X[4]: 0}) - sum(_P2.values()) * stratum_density(z),
             "values 0 in stratum 2: the mixture of htm.strat.density_mixture is (sum_{s_2} q(s_2)) f^h_{x_h}(z) = "
             "f^h_{x_h}(z); with R = c constant it is f^h_{x_h}(z - c), so D(z) = f_x(z) - e^eps f_x'(z) = D_h(z - c)"),
        conclude_shift(claim, (z, c_shift)))


register(Claim(
    id="htm.strat.translation",
    title="Stratified design, other strata's total a constant c: int_{-oo}^{oo} (D_h(z - c))_+ dz = "
          "int_{-oo}^{oo} (D_h(z))_+ dz",
    source=S14, kind="identity",
    lhs=sp.Integral(sp.Max(D_h(z - c_shift), 0), (z, -sp.oo, sp.oo)),
    rhs=sp.Integral(sp.Max(D_h(z), 0), (z, -sp.oo, sp.oo)), proof=_prove_translation,
    note="D_h = f^h_{x_h} - e^eps f^h_{x'_h}, the difference of the noisy stratum-h densities; the left side is "
         "delta(eps, x, x') of the stratified design when the other strata's total R is the constant c, the right "
         "side delta_h(eps, x_h, x'_h). R is constant when the other strata's values are all 0 (any design: R = 0), "
         "all 1 under SRS (R = sum_g N_g; the proof checks the SRS estimate of all ones is N for every sample), or "
         "the other strata are censuses. So when the domain allows these values in every other stratum (binary "
         "data without a constraint on the totals; values in [a, b] with 0 in [a, b]), the supremum over the "
         "stratified neighbours is attained by the single-stratum suprema: sup delta_strat(eps) = max_h sup "
         "delta_h(eps), with htm.strat.mixture_bound for the other direction. Since delta is non-increasing in the "
         "scale (profile.scale_monotone), the calibrated scale of the stratified design is then the largest of "
         "the strata's calibrated scales; when the domain constrains the totals (R cannot be made constant) the "
         "largest stratum scale is an upper value only."))


# ================================================================================================
# Poisson sampling
# ================================================================================================
_PI = sp.symbols("pi_1:4", positive=True)
_Y = sp.symbols("y_1:4", real=True)


def _poisson_p(s, units):
    return sp.Mul(*((_PI[j - 1] if j in s else 1 - _PI[j - 1]) for j in units))


def _poisson_total(s):
    return sp.Add(*(_Y[j - 1] / _PI[j - 1] for j in sorted(s)))


def one_unit_density(w, yy=_Y[0], pp=_PI[0]):
    """The one-unit mechanism y s/pi + noise: (1 - pi) K(w) + pi K(w - y/pi)."""
    return (1 - pp) * K(w) + pp * K(w - yy / pp)


def _poisson_lhs():
    return sp.Add(*(_poisson_p(s, (1, 2, 3)) * K(z - _poisson_total(s)) for s in _subsets((1, 2, 3))))


def _poisson_rhs():
    return sp.Add(*(_poisson_p(s, (2, 3)) * defined(rf"f^{{(1)}}_{{y_1}}\left(z - R_1(\{{{','.join(map(str, sorted(s)))}\}})\right)",
                                                    one_unit_density(z - _poisson_total(s)))
                    for s in _subsets((2, 3))))


def _prove_poisson_mixture(claim: Claim) -> Proof:
    marg = sum(_poisson_p(s, (1, 2, 3)) for s in _subsets((1, 2, 3)) if 1 in s)
    return all_of(
        zero(marg - _PI[0], "P(1 in S) = pi_1: the inclusion probability of the Poisson design is pi_1"),
        zero(_poisson_p(frozenset({1, 2}), (1, 2, 3)) - _PI[0] * _poisson_p(frozenset({2}), (2, 3)),
             "p(s) = pi_1 x P(S n {2, 3} = s_-1) for s containing 1: the draw of unit 1 is independent of the others"),
        mechanical(all(not _poisson_total(s).has(_Y[0]) for s in _subsets((2, 3))),
                   "R_1 = sum_{j != 1} y_j s_j/pi_j is free of y_1: its law is the same under neighbours differing "
                   "at unit 1"),
        conclude(claim))


register(Claim(
    id="htm.poisson.one_unit_mixture",
    title="Poisson sampling on 3 units: sum_s p(s) K(z - t(y, s)) = sum_{s subset {2,3}} P(s) [(1 - pi_1) K(z - "
          "R_1(s)) + pi_1 K(z - R_1(s) - y_1/pi_1)], R_1(s) = sum_{j in s} y_j/pi_j",
    source=S22_POISSON, kind="identity", lhs=_poisson_lhs(), rhs=_poisson_rhs(), proof=_prove_poisson_mixture,
    note="p(s) = prod_{j in s} pi_j prod_{j not in s} (1 - pi_j), K any noise density, symbolic pi_j and values. "
         "The density of the noisy HT total is the mixture, over the total R_1 of the other units (independent "
         "of unit 1's draw and free of y_1), of the one-unit mechanism y_1 s_1/pi_1 + noise shifted by R_1. With "
         "htm.strat.mixture_bound (one unit in place of a stratum): delta(eps, y, y') <= delta_1(eps, y_1, y'_1), "
         "the profile of the one-unit mechanism; with htm.strat.translation: equality when the other units may "
         "all be 0 (R_1 = 0), as for binary data or values in [a, b] with 0 in [a, b]. So sup delta(eps) = max_i "
         "sup_{y_i, y'_i} delta_i(eps, y_i, y'_i) for such domains, an upper value otherwise."))

# -- closed forms of the one-unit mechanism for a pair (y, 0) -------------------------------------------
pi_ = sp.Symbol("pi", positive=True)
Delta = sp.Symbol("Delta", positive=True)
_c = sp.exp(eps) - 1 + pi_                                   # total weight against the value 0
_z0 = (Delta + b * sp.log(_c / pi_)) / 2
_FWD_LHS = pi_ * (1 - sp.exp((_z0 - Delta) / b) / 2) - _c * sp.exp(-_z0 / b) / 2
_FWD_RHS = pi_ - sp.sqrt(pi_ * _c) * sp.exp(-Delta / (2 * b))


def _prove_forward(claim: Claim) -> Proof:
    h = sp.Symbol("h", nonnegative=True)
    th = sp.Symbol("theta", nonnegative=True)
    dd = sp.Symbol("d", nonnegative=True)                    # e^eps = 1 + d
    log_ratio = sp.log(pi_ / _c) + (sp.Abs(z) - sp.Abs(z - Delta)) / b
    inside = Delta * th / (1 + th)
    return all_of(
        zero((1 - pi_) * K(z) + pi_ * K(z - Delta) - sp.exp(eps) * K(z) - (pi_ * K(z - Delta) - _c * K(z)),
             "f_y - e^eps f_0 = (1 - pi) K(z) + pi K(z - Delta) - e^eps K(z) = pi K(z - Delta) - c K(z), "
             "c = e^eps - 1 + pi (the value 0 gives f_0 = K whether the unit is drawn or not)"),
        zero(log_ratio.subs(z, -h) - (sp.log(pi_ / _c) - Delta / b),
             "z <= 0: ln(pi K_b(z - Delta)/(c K_b(z))) = ln(pi/c) - Delta/b: constant"),
        zero(log_ratio.subs(z, inside) - (sp.log(pi_ / _c) + (2 * inside - Delta) / b),
             "0 <= z < Delta: ln(pi K_b(z - Delta)/(c K_b(z))) = ln(pi/c) + (2z - Delta)/b, increasing; it is > 0 "
             "exactly for z > z_0 = (Delta + b ln(c/pi))/2"),
        zero(log_ratio.subs(z, Delta + h) - (sp.log(pi_ / _c) + Delta / b),
             "z >= Delta: ln(pi K_b(z - Delta)/(c K_b(z))) = ln(pi/c) + Delta/b: constant"),
        mechanical(has_sign(sp.log(1 + dd / pi_), "nonnegative"),
                   "c/pi = (d + pi)/pi >= 1 with e^eps = 1 + d, d >= 0: z_0 >= Delta/2 > 0; z_0 <= Delta is the "
                   "condition ln(c/pi) <= Delta/b; so the loss event is A = (z_0, oo)"),
        zero(sp.integrate(sp.exp((z - Delta) / b) / (2 * b), (z, _z0, Delta))
             + sp.integrate(sp.exp(-(z - Delta) / b) / (2 * b), (z, Delta, sp.oo))
             - (1 - sp.exp((_z0 - Delta) / b) / 2), "P(Z > z_0 | y) unit drawn: 1 - e^{(z_0 - Delta)/b}/2 (z_0 <= Delta)"),
        zero(sp.integrate(sp.exp(-z / b) / (2 * b), (z, _z0, sp.oo)) - sp.exp(-_z0 / b) / 2,
             "P(b W > z_0) = e^{-z_0/b}/2 (z_0 >= 0)"),
        cite("hockey_stick_event_form", "delta(eps, y, 0) = int (pi K(z - Delta) - c K(z))_+ dz = pi P(bW > z_0 - "
                                        "Delta) - c P(bW > z_0) with A = (z_0, oo)"),
        conclude(claim))


register(Claim(
    id="htm.poisson.laplace_forward",
    title="Poisson, one unit, Laplace(b), pair (y, 0), Delta = y/pi, c = e^eps - 1 + pi, z_0 = (Delta + b ln(c/pi))/2: "
          "pi (1 - e^{(z_0 - Delta)/b}/2) - c e^{-z_0/b}/2 = pi - sqrt(pi c) e^{-Delta/(2b)}",
    source=S14_POISSON, kind="identity", lhs=_FWD_LHS, rhs=_FWD_RHS,
    conditions=(sp.Le(pi_, 1), sp.Gt(_c, 0), sp.Le(sp.log(_c / pi_), Delta / b)), proof=_prove_forward,
    note="The one-unit mechanism y s/pi + bW (htm.poisson.one_unit_mixture) for neighbouring values y > 0 and 0: "
         "f_y - e^eps f_0 = pi K(z - Delta) - c K(z). The left side is P(Z in A | y) - e^eps P(Z in A | 0) on the "
         "loss event A = (z_0, oo), located in the proof on the three pieces of the line, so it is delta(eps, y, 0) "
         "(cited event form). For ln(c/pi) > Delta/b the likelihood ratio never exceeds 1 and delta = 0; the "
         "profile is max(0, pi - sqrt(pi c) e^{-Delta/(2b)}). With pi = 1 this is the Laplace mechanism "
         "(htm.census.delta). Binary data: Delta = 1/pi_i, and delta(eps) = max_i max(forward_i, reverse_i) "
         "(htm.poisson.laplace_reverse) when the other units may be 0. The profile is not monotone in pi_i: a "
         "unit with a small inclusion probability carries the large weight 1/pi_i (eps = 1, b = 2, y = 1: about "
         "0.0650 at pi = 0.1 and 0 at pi = 1), so the maximum runs over every distinct pi_i."))

_cr = 1 - sp.exp(eps) * (1 - pi_)                            # weight of K(z) in f_0 - e^eps f_y
_z1 = (Delta - b * sp.log(sp.exp(eps) * pi_ / _cr)) / 2
_REV_LHS = _cr * (1 - sp.exp(-_z1 / b) / 2) - sp.exp(eps) * pi_ * sp.exp((_z1 - Delta) / b) / 2
_REV_RHS = _cr - sp.sqrt(sp.exp(eps) * pi_ * _cr) * sp.exp(-Delta / (2 * b))


def _prove_reverse(claim: Claim) -> Proof:
    h = sp.Symbol("h", nonnegative=True)
    th = sp.Symbol("theta", nonnegative=True)
    cr = sp.Symbol("c'", positive=True)
    dd, kap = sp.Symbol("d", nonnegative=True), sp.Symbol("kappa", positive=True)   # e^eps = 1 + d, c' = kappa
    log_ratio = sp.log(cr / (sp.exp(eps) * pi_)) + (sp.Abs(z - Delta) - sp.Abs(z)) / b
    inside = Delta * th / (1 + th)
    z1 = (Delta - b * sp.log(sp.exp(eps) * pi_ / cr)) / 2
    return all_of(
        zero(K(z) - sp.exp(eps) * ((1 - pi_) * K(z) + pi_ * K(z - Delta)) - (_cr * K(z) - sp.exp(eps) * pi_ * K(z - Delta)),
             "f_0 - e^eps f_y = c' K(z) - e^eps pi K(z - Delta), c' = 1 - e^eps (1 - pi)"),
        zero(log_ratio.subs(z, -h) - (sp.log(cr / (sp.exp(eps) * pi_)) + Delta / b),
             "z <= 0: ln(c' K_b(z)/(e^eps pi K_b(z - Delta))) = ln(c'/(e^eps pi)) + Delta/b: constant"),
        zero(log_ratio.subs(z, inside) - 2 * (z1 - inside) / b,
             "0 <= z < Delta: the log ratio is 2(z_1 - z)/b, decreasing, > 0 exactly for z < z_1"),
        zero(log_ratio.subs(z, Delta + h) - (sp.log(cr / (sp.exp(eps) * pi_)) - Delta / b),
             "z >= Delta: the log ratio is ln(c'/(e^eps pi)) - Delta/b: constant"),
        zero(sp.exp(eps) * pi_ - _cr - (sp.exp(eps) - 1),
             "e^eps pi - c' = e^eps - 1 >= 0: z_1 <= Delta/2 < Delta; z_1 >= 0 is the condition "
             "ln(e^eps pi/c') <= Delta/b; so the loss event is A = (-oo, z_1)"),
        zero(sp.integrate(sp.exp(z / b) / (2 * b), (z, -sp.oo, 0)) + sp.integrate(sp.exp(-z / b) / (2 * b), (z, 0, z1))
             - (1 - sp.exp(-z1 / b) / 2), "P(bW < z_1) = 1 - e^{-z_1/b}/2 (z_1 >= 0)"),
        zero(sp.integrate(sp.exp((z - Delta) / b) / (2 * b), (z, -sp.oo, z1)) - sp.exp((z1 - Delta) / b) / 2,
             "P(Delta + bW < z_1) = e^{(z_1 - Delta)/b}/2 (z_1 <= Delta)"),
        cite("hockey_stick_event_form", "delta(eps, 0, y) = c' P(bW < z_1) - e^eps pi P(Delta + bW < z_1), "
                                        "A = (-oo, z_1)"),
        conclude(claim, param=Parametrization(forward={eps: sp.log(1 + dd), pi_: 1 - (1 - kap) / (1 + dd)},
                                              inverse={dd: sp.exp(eps) - 1, kap: _cr})))


register(Claim(
    id="htm.poisson.laplace_reverse",
    title="Poisson, one unit, Laplace(b), pair (0, y), Delta = y/pi, c' = 1 - e^eps (1 - pi) > 0, z_1 = (Delta - b "
          "ln(e^eps pi/c'))/2: c'(1 - e^{-z_1/b}/2) - e^eps pi e^{(z_1 - Delta)/b}/2 = c' - sqrt(e^eps pi c') "
          "e^{-Delta/(2b)}",
    source=S14_POISSON, kind="identity", lhs=_REV_LHS, rhs=_REV_RHS,
    conditions=(sp.Le(pi_, 1), sp.Ge(sp.exp(eps), 1), sp.Gt(_cr, 0), sp.Le(sp.log(sp.exp(eps) * pi_ / _cr), Delta / b)),
    proof=_prove_reverse,
    note="The reverse direction of htm.poisson.laplace_forward: the true value is 0, the neighbour's y > 0. "
         "f_0 - e^eps f_y = c' K(z) - e^eps pi K(z - Delta); the loss event is A = (-oo, z_1) (located in the proof). "
         "For c' <= 0 (e^eps (1 - pi) >= 1) the difference is <= 0 everywhere and delta = 0; for ln(e^eps pi/c') > "
         "Delta/b also delta = 0. The profile is max(0, c' - sqrt(e^eps pi c') e^{-Delta/(2b)}) for c' > 0."))

sigma = sp.Symbol("sigma", positive=True)
_zg = Delta / 2 + sigma**2 * sp.log(_c / pi_) / Delta
_G_LHS = pi_ * (1 - Phi((_zg - Delta) / sigma)) - _c * (1 - Phi(_zg / sigma))
_G_RHS = (pi_ * Phi(Delta / (2 * sigma) - sigma * sp.log(_c / pi_) / Delta)
          - _c * Phi(-Delta / (2 * sigma) - sigma * sp.log(_c / pi_) / Delta))


def _prove_gaussian_forward(claim: Claim) -> Proof:
    dd = sp.Symbol("d", nonnegative=True)                         # e^eps = 1 + d
    return all_of(
        zero(-((z - Delta) / sigma)**2 / 2 + (z / sigma)**2 / 2 - (2 * z * Delta - Delta**2) / (2 * sigma**2),
             "ln phi((z - Delta)/sigma) - ln phi(z/sigma) = (2 z Delta - Delta^2)/(2 sigma^2), so ln(pi phi((z - "
             "Delta)/sigma)/(c phi(z/sigma))) = ln(pi/c) + (2 z Delta - Delta^2)/(2 sigma^2)"),
        mechanical(has_sign(sp.diff((2 * z * Delta - Delta**2) / (2 * sigma**2), z), "positive"),
                   "its derivative in z is Delta/sigma^2 > 0: the log ratio increases, it is > 0 exactly for "
                   "z > z_0 = Delta/2 + sigma^2 ln(c/pi)/Delta, and A = (z_0, oo)"),
        zero(((2 * z * Delta - Delta**2) / (2 * sigma**2) + sp.log(pi_ / _c)).subs(z, _zg).subs(eps, sp.log(1 + dd)),
             "the log ratio vanishes at z_0 (e^eps = 1 + d, d >= 0)"),
        cite("hockey_stick_event_form", "delta(eps, y, 0) = pi P(Delta + sigma G > z_0) - c P(sigma G > z_0) = "
                                        "pi (1 - Phi((z_0 - Delta)/sigma)) - c (1 - Phi(z_0/sigma))"),
        conclude(claim))


register(Claim(
    id="htm.poisson.gaussian_forward",
    title="Poisson, one unit, Gaussian(sigma), pair (y, 0), Delta = y/pi, c = e^eps - 1 + pi, z_0 = Delta/2 + "
          "sigma^2 ln(c/pi)/Delta: pi (1 - Phi((z_0 - Delta)/sigma)) - c (1 - Phi(z_0/sigma)) = pi Phi(Delta/(2 "
          "sigma) - sigma ln(c/pi)/Delta) - c Phi(-Delta/(2 sigma) - sigma ln(c/pi)/Delta)",
    source=S14_POISSON, kind="identity", lhs=_G_LHS, rhs=_G_RHS, conditions=(sp.Le(pi_, 1), sp.Gt(_c, 0)),
    proof=_prove_gaussian_forward,
    note="Gaussian noise in place of the Laplace noise of the paper: f_y - e^eps f_0 = pi phi_sigma(z - Delta) - "
         "c phi_sigma(z); the log likelihood ratio is linear increasing, the loss event A = (z_0, oo), and the "
         "left side is delta(eps, y, 0) by the cited event form. The reverse pair (0, y) is the same formula "
         "with (pi, c) replaced by (c', e^eps pi), c' = 1 - e^eps(1 - pi) > 0 (mirror z -> Delta - z), and 0 for "
         "c' <= 0. With pi = 1 this is the analytic Gaussian mechanism of Balle and Wang (2018)."))
_zg1 = Delta / 2 - sigma**2 * sp.log(sp.exp(eps) * pi_ / _cr) / Delta
_GR_LHS = _cr * Phi(_zg1 / sigma) - sp.exp(eps) * pi_ * Phi((_zg1 - Delta) / sigma)
_GR_RHS = (_cr * Phi(Delta / (2 * sigma) - sigma * sp.log(sp.exp(eps) * pi_ / _cr) / Delta)
           - sp.exp(eps) * pi_ * Phi(-Delta / (2 * sigma) - sigma * sp.log(sp.exp(eps) * pi_ / _cr) / Delta))


def _prove_gaussian_reverse(claim: Claim) -> Proof:
    dd, kap = sp.Symbol("d", nonnegative=True), sp.Symbol("kappa", positive=True)   # e^eps = 1 + d, c' = kappa
    on = {eps: sp.log(1 + dd), pi_: 1 - (1 - kap) / (1 + dd)}
    log_ratio = (z - Delta)**2 / (2 * sigma**2) - z**2 / (2 * sigma**2) + sp.log(_cr / (sp.exp(eps) * pi_))
    return all_of(
        zero(K(z) - sp.exp(eps) * ((1 - pi_) * K(z) + pi_ * K(z - Delta)) - (_cr * K(z) - sp.exp(eps) * pi_ * K(z - Delta)),
             "f_0 - e^eps f_y = c' K(z) - e^eps pi K(z - Delta), c' = 1 - e^eps (1 - pi)"),
        zero(log_ratio - ((Delta**2 - 2 * z * Delta) / (2 * sigma**2) + sp.log(_cr / (sp.exp(eps) * pi_))),
             "ln(c' phi_sigma(z)/(e^eps pi phi_sigma(z - Delta))) = (Delta^2 - 2 z Delta)/(2 sigma^2) + ln(c'/(e^eps pi))"),
        mechanical(has_sign(-sp.diff(log_ratio, z), "positive"),
                   "its derivative in z is -Delta/sigma^2 < 0: the log ratio decreases, and the loss event is "
                   "A = (-oo, z_1)"),
        zero(log_ratio.subs(z, _zg1).subs(on), "the log ratio vanishes at z_1 = Delta/2 - sigma^2 ln(e^eps pi/c')/Delta "
                                              "(e^eps = 1 + d, c' = kappa > 0)"),
        cite("hockey_stick_event_form", "delta(eps, 0, y) = c' P(sigma G < z_1) - e^eps pi P(Delta + sigma G < z_1) = "
                                        "c' Phi(z_1/sigma) - e^eps pi Phi((z_1 - Delta)/sigma)"),
        conclude(claim))


register(Claim(
    id="htm.poisson.gaussian_reverse",
    title="Poisson, one unit, Gaussian(sigma), pair (0, y), Delta = y/pi, c' = 1 - e^eps (1 - pi) > 0, z_1 = Delta/2 - "
          "sigma^2 ln(e^eps pi/c')/Delta: c' Phi(z_1/sigma) - e^eps pi Phi((z_1 - Delta)/sigma) = c' Phi(Delta/(2 "
          "sigma) - sigma ln(e^eps pi/c')/Delta) - e^eps pi Phi(-Delta/(2 sigma) - sigma ln(e^eps pi/c')/Delta)",
    source=S14_POISSON, kind="identity", lhs=_GR_LHS, rhs=_GR_RHS,
    conditions=(sp.Le(pi_, 1), sp.Ge(sp.exp(eps), 1), sp.Gt(_cr, 0)), proof=_prove_gaussian_reverse,
    note="The reverse direction of htm.poisson.gaussian_forward: true value 0, the neighbour's y > 0. The log "
         "likelihood ratio of c' phi_sigma(z) against e^eps pi phi_sigma(z - Delta) is linear decreasing, the loss "
         "event is A = (-oo, z_1) and the left side is delta(eps, 0, y) (cited event form). For c' <= 0 the "
         "difference f_0 - e^eps f_y is <= 0 everywhere and delta = 0."))

# -- where the worst pair lies for values in [a, b] -------------------------------------------------------
cc, uu = sp.symbols("c u", real=True)
_gap = sp.Symbol("g", nonnegative=True)
_MLR_LHS = sp.Abs(z - uu) - sp.Abs(z - cc)
_MLR_RHS = sp.Max(cc - uu, sp.Min(uu - cc, cc + uu - 2 * z))


def _prove_mlr(claim: Claim) -> Proof:
    on_u = Parametrization(forward={uu: cc + _gap}, inverse={_gap: uu - cc})
    return conclude_cases(claim, z, [cc, uu], param=on_u)


register(Claim(
    id="htm.poisson.laplace_mlr",
    title="Laplace location family, c <= u: |z - u| - |z - c| = max(c - u, min(u - c, c + u - 2z)) for every real z",
    source=S14_POISSON, kind="identity", lhs=_MLR_LHS, rhs=_MLR_RHS, conditions=(sp.Le(cc, uu),), proof=_prove_mlr,
    note="b times the log likelihood ratio ln K_b(z - c) - ln K_b(z - u) of two Laplace(b) densities; the right "
         "side is a clamp of the decreasing c + u - 2z, so the ratio K_b(z - c)/K_b(z - u) is non-increasing in z "
         "for c <= u (monotone likelihood ratio; for the Gaussian the log ratio is linear, (c - u)(2z - c - u)/(2 "
         "sigma^2), also non-increasing). Used by htm.poisson.worst_pair_half_line: when the only positive weight of "
         "D = f_y - e^eps f_y' sits at the largest atom, {D > 0} is an upper half-line."))

_SB, _SY, _SA, _SYP, _S0 = sp.symbols("S_b S_y S_a S_y' S_0", nonnegative=True)
_hb, _ha = sp.symbols("h_b h_a", nonnegative=True)


def _F(S_val, S_valp):
    """f_y(A) - e^eps f_y'(A) on A = (r, oo): (1 - pi) S(r) + pi S(r - y/pi) - e^eps [(1 - pi) S(r) + pi S(r - y'/pi)]."""
    return ((1 - pi_) * _S0 + pi_ * S_val) - sp.exp(eps) * ((1 - pi_) * _S0 + pi_ * S_valp)


def _prove_worst_pair(claim: Claim) -> Proof:
    g1, g2 = sp.symbols("g_1 g_2", positive=True)
    ratio_steps = all_of(
        zero(((z - uu)**2 - (z - cc)**2) / 2 - ((cc - uu) * (2 * z - cc - uu) / 2),
             "Gaussian: sigma^2 [ln phi_sigma(z - c) - ln phi_sigma(z - u)] = (c - u)(2z - c - u)/2"),
        mechanical(has_sign(sp.diff((cc - uu) * (2 * z - cc - uu) / 2, z).subs(uu, cc + g1), "negative"),
                   "its derivative in z is c - u < 0 (u = c + g, g > 0): non-increasing"),
    )
    on = Parametrization(forward={_SB: _SY + _hb, _SA: _SYP - _ha}, inverse={_hb: _SB - _SY, _ha: _SYP - _SA})
    return all_of(
        ratio_steps,
        cite("log_concave_location_mlr",
             "for y > max(0, y') the atoms of D = f_y - e^eps f_y' are 0 (weight -(1 - pi)(e^eps - 1) <= 0), y'/pi "
             "(weight -e^eps pi) and y/pi (weight pi > 0), the largest; D > 0 iff pi > (1 - pi)(e^eps - 1) K(z)/K(z "
             "- y/pi) + e^eps pi K(z - y'/pi)/K(z - y/pi), whose right side is non-increasing in z "
             "(htm.poisson.laplace_mlr for Laplace, the step above for the Gaussian), so A = {D > 0} = (r, oo)"),
        cite("distribution_function_intervals", "P(y/pi + W > r) = S(r - y/pi) with S the survival function of the "
                                                "noise, non-increasing: y <= b gives S_b >= S_y, a <= y' gives "
                                                "S_a <= S_y'"),
        cite("hockey_stick_event_form", "delta(eps, y, y') = F(A; y, y') and delta(eps, b, a) >= F(A; b, a) for "
                                        "every event, A = (r, oo) included"),
        covers(on, claim),
        conclude(claim, param=on))


register(Claim(
    id="htm.poisson.worst_pair_half_line",
    title="Poisson, one unit, values in [a, b], y > max(0, y'), A = (r, oo): f_b(A) - e^eps f_a(A) >= f_y(A) - "
          "e^eps f_y'(A) given S_b >= S_y and S_a <= S_y'",
    source=S14_POISSON, kind="inequality", lhs=_F(_SB, _SA), relation=">=", rhs=_F(_SY, _SYP),
    conditions=(sp.Le(pi_, 1), sp.Ge(_SB, _SY), sp.Le(_SA, _SYP)), proof=_prove_worst_pair,
    note="f_v(A) = (1 - pi) S_0 + pi S_v is the probability of A = (r, oo) under the one-unit mechanism with value "
         "v (S_0 = S(r), S_v = S(r - v/pi), S the noise survival function; Laplace or Gaussian noise). For a pair "
         "with y > max(0, y') the loss event A of (y, y') is an upper half-line (monotone likelihood ratio, cited "
         "with htm.poisson.laplace_mlr), so delta(eps, y, y') = f_y(A) - e^eps f_y'(A) <= f_b(A) - e^eps f_a(A) <= "
         "delta(eps, b, a). By the mirror z -> -z, pairs with y < min(0, y') give delta(eps, y, y') <= delta(eps, "
         "a, b). The remaining pairs, with the true value between 0 and the neighbour's (0 <= y < y' or y' < y <= 0), "
         "are no worse than the reversed pair (htm.poisson.reflection), which is in the first case: so the worst "
         "pair over [a, b] is (b, a) or (a, b). Binary data {0, 1}: both orders in closed form "
         "(htm.poisson.laplace_forward, htm.poisson.laplace_reverse)."))


# -- the pairs whose true value lies between 0 and the neighbour's: reflection -------------------------------
_KA, _KAr, _RHOu, _RHOu2 = sp.symbols("kappa kappa' rho rho'", nonnegative=True)


def _F_reflect(kap):
    """(1 - pi)(1 - e^eps) kap + pi rho - e^eps pi rho': f_y(B) - e^eps f_y'(B) with K(B) = kap, K_u(B) = rho,
    K_u'(B) = rho'."""
    return (1 - pi_) * (1 - sp.exp(eps)) * kap + pi_ * _RHOu - sp.exp(eps) * pi_ * _RHOu2


def _abs_resolved_nonneg(expr) -> bool:
    """``expr`` >= 0 once the arguments of its absolute values are put in factored form (signs from assumptions)."""
    e = sp.sympify(expr).replace(lambda x: isinstance(x, sp.Abs), lambda x: sp.Abs(sp.factor(sp.cancel(x.args[0]))))
    return has_sign(e, "nonnegative")


def _prove_reflection(claim: Claim) -> Proof:
    u1, g, h, t, s_, m = sp.symbols("u g h t s m", nonnegative=True)
    gp = sp.Symbol("g", positive=True)
    kL = lambda x: sp.exp(-sp.Abs(x) / b) / (2 * b)                       # noqa: E731
    kG = lambda x: sp.exp(-x**2 / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))  # noqa: E731
    k0, k1, k2 = sp.symbols("k_0 k_u k_u'", positive=True)               # k(z), k(z - u), k(z - u') at one z
    u2 = u1 + gp                                                          # u < u'
    mid = (u1 + u2) / 2
    lap_far = sp.Abs(z - u1) - sp.Abs(z - u2)                            # >= 0 for z >= m: k(z - u) <= k(z - u')
    lap_ref = sp.Abs(2 * m - z) - sp.Abs(z)                              # >= 0 for z <= m, m >= 0: k(z) >= k(2m - z)
    # the four cases cover every pair y != y': one representative point per realisable sign pattern of
    # (y, y', y - y') with y != y' -- 10 patterns: 8 sign pairs ((0, 0) is excluded), two orders when both have the
    # same nonzero sign
    grid = [(yy, yq) for yy in range(-2, 3) for yq in range(-2, 3) if yy != yq]
    sgn = lambda v: (v > 0) - (v < 0)                                     # noqa: E731
    patterns = {(sgn(yy), sgn(yq), sgn(yy - yq)) for yy, yq in grid}
    covered = all(yy > max(0, yq) or yy < min(0, yq) or 0 <= yy < yq or yq < yy <= 0 for yy, yq in grid)
    param = Parametrization(forward={_KA: _KAr + h, eps: sp.log(1 + t), pi_: 1 - s_},
                            inverse={h: _KA - _KAr, t: sp.exp(eps) - 1, s_: 1 - pi_})
    return all_of(
        zero(kL(u1 + u2 - z - u2) - kL(z - u1), "Laplace: k(u + u' - z - u') = k(z - u): the reflection z -> u + u' - z "
                                                 "about m = (u + u')/2 exchanges K_u and K_u'"),
        zero(kG(u1 + u2 - z - u2) - kG(z - u1), "Gaussian: the same"),
        cite("substitution_rule", "with B' = u + u' - B: K_u'(B') = K_u(B) = rho, K_u(B') = K_u'(B) = rho', and "
                                  "K(B') = int_B k(u + u' - z) dz = kappa'"),
        mechanical(_abs_resolved_nonneg(lap_far.subs(z, mid + gp / 2 + t))
                   and _abs_resolved_nonneg(lap_far.subs(z, mid + gp * s_ / (2 * (1 + s_)))),
                   "Laplace, u' = u + g (g > 0): |z - u| - |z - u'| >= 0 for z >= m (z = m + g/2 + t and z = m + g "
                   "s/(2(1 + s)), t, s >= 0, cover [m, oo)): k(z - u) <= k(z - u') there"),
        zero(((z - u1)**2 - (z - u2)**2) - gp * (2 * z - 2 * mid), "Gaussian: (z - u)^2 - (z - u')^2 = g (2z - 2m) >= "
                                                                   "0 for z >= m"),
        mechanical(has_sign(sp.expand((1 - pi_) * k0 + pi_ * k1 - sp.exp(eps) * ((1 - pi_) * k0 + pi_ * k2)).coeff(k0)
                            - (1 - pi_) * (1 - sp.exp(eps)), "zero")
                   and has_sign(((1 - pi_) * (1 - sp.exp(eps))).subs({eps: sp.log(1 + t), pi_: 1 - s_}), "nonpositive"),
                   "the weight of K in D = f_y - e^eps f_y' is (1 - pi)(1 - e^eps) <= 0, so D(z) > 0 implies pi k(z - u) "
                   "> e^eps pi k(z - u') >= pi k(z - u'): the loss event A of (y, y') lies in (-oo, m)"),
        mechanical(_abs_resolved_nonneg(lap_ref.subs({z: m - h}).subs(m, h + t))
                   and _abs_resolved_nonneg(lap_ref.subs({z: m - h}).subs(h, m + t)),
                   "Laplace, m >= 0: |2m - z| - |z| >= 0 for z = m - h <= m (cases h <= m and h >= m): k(z) >= "
                   "k(2m - z) on (-oo, m]"),
        zero((2 * m - z)**2 - z**2 - 4 * m * (m - z), "Gaussian: (2m - z)^2 - z^2 = 4m(m - z) >= 0 for z <= m, m >= 0"),
        cite("integral_monotonicity", "A in (-oo, m] and k(z) >= k(2m - z) there give kappa = K(A) >= int_A k(2m - z) "
                                      "dz = K(A') = kappa' (m = (y + y')/(2 pi) >= 0 when y + y' >= 0)"),
        cite("hockey_stick_event_form", "delta(eps, y, y') = f_y(A) - e^eps f_y'(A) (the right side, with kappa = "
                                        "K(A)) and delta(eps, y', y) >= f_y'(A') - e^eps f_y(A') (the left side)"),
        mechanical(covered and len(patterns) == 10,
                   f"every pair y != y' is in one of the cases y > max(0, y'), y < min(0, y'), 0 <= y < y', y' < y <= 0: "
                   f"each case is decided by the signs of y, y', y - y', and the {len(patterns)} realisable sign "
                   "patterns of y != y' (8 sign pairs, (0, 0) excluded; two orders for the two same-sign pairs) all occur on the "
                   "grid {-2, ..., 2}^2 and are covered"),
        covers(param, claim),
        conclude(claim, param=param))


register(Claim(
    id="htm.poisson.reflection",
    title="Poisson, one unit, 0 <= y < y' (u = y/pi < u' = y'/pi), A the loss event of (y, y'), A' = u + u' - A: "
          "f_y'(A') - e^eps f_y(A') >= f_y(A) - e^eps f_y'(A) given K(A') <= K(A)",
    source=S14_POISSON, kind="inequality", lhs=_F_reflect(_KAr), relation=">=", rhs=_F_reflect(_KA),
    conditions=(sp.Le(pi_, 1), sp.Ge(sp.exp(eps), 1), sp.Le(_KAr, _KA)), proof=_prove_reflection,
    note="kappa = K(A), kappa' = K(A') (K the noise law at 0), rho = K_u(A) = K_u'(A'), rho' = K_u'(A) = K_u(A'); "
         "f_v = (1 - pi) K + pi K_{v/pi} is the one-unit mechanism. The reflection about m = (u + u')/2 exchanges the "
         "two shifted kernels; the loss event A of (y, y') lies left of m (for z >= m, k(z - u) <= k(z - u') and the "
         "weight of K is <= 0), where k(z) >= k(2m - z) when m >= 0, so K(A') <= K(A) (the proof's steps, Laplace and "
         "Gaussian). Hence delta(eps, y, y') <= delta(eps, y', y) for 0 <= y < y' (more generally y < y', y + y' >= "
         "0), and by the mirror z -> -z for y' < y <= 0. With htm.poisson.worst_pair_half_line (pairs y > max(0, y') "
         "and the mirror) and the cover of all pairs by the four cases (a step of the proof): for Laplace or "
         "Gaussian noise and values in [a, b], sup_{y, y'} delta_i(eps, y, y') = max(delta_i(eps, b, a), "
         "delta_i(eps, a, b)) -- the worst pair is the extreme pair, in one of its two orders. With 0 in [a, b] "
         "this is the exact one-unit supremum, and sup delta(eps) = max_i of it (htm.poisson.one_unit_mixture)."))

# ================================================================================================
# Amplification by simple random sampling (the (eps, delta) theorem the SRS reductions rest on)
# ================================================================================================
S23_AMPLIFICATION = Source(DOC, "Section 2.3 (simple random sampling of n among N); not in the paper: the external "
                                "theorem (Balle, Barthe & Gaboardi 2018, Thm 9) that the toolkit's SRS calibration uses")
N_a, n_a = sp.symbols("N n", integer=True, positive=True)      # population and sample sizes (integers here)
q_a = n_a / N_a
_DELTA_M = sp.Function(r"\delta_{M}", nonnegative=True)        # the privacy profile of the mechanism on the sample
_AMPL_PROFILE = sp.Symbol(r"\delta_{M \circ S}\left(\ln\left(1 + \frac{n}{N}\left(e^{\varepsilon} - 1\right)"
                          r"\right)\right)")
_E0 = sp.Symbol("epsilon_0", nonnegative=True)                 # eps of the mechanism on the sample
_SHIFT = sp.Symbol("Delta", positive=True)                     # the sensitivity of the HT total on the sample
_DELTA_T = sp.Symbol("delta", positive=True)                   # a target delta (< n/N)


def _amplified(e):
    """eps' = ln(1 + (n/N)(e^e - 1)), the amplified epsilon of the cited result."""
    return sp.log(1 + q_a * (sp.exp(e) - 1))


def _unamplified(e):
    """ln(1 + (e^e - 1) N/n): the epsilon on the sample the numeric layer computes for a target e."""
    return sp.log(1 + (sp.exp(e) - 1) / q_a)


def _prove_srs_amplification(claim: Claim) -> Proof:
    from ..engine.citations import WOR_DELTA_M, WOR_M, WOR_N, WOR_PROFILE
    from ..engine.proofs import conclude_instance

    b_closed = _SHIFT / (_E0 - 2 * sp.log(1 - _DELTA_T / q_a))
    b_generic = _SHIFT / _unamplified(eps)
    return all_of(
        zero(_unamplified(_amplified(_E0)) - _E0,
             "the map the numeric layer uses, eps -> ln(1 + (e^eps - 1) N/n), undoes eps0 -> eps' = ln(1 + (n/N)"
             "(e^{eps0} - 1)): the eps0 on the sample whose amplified eps' is a target eps"),
        zero(_amplified(_unamplified(eps)) - eps, "and eps' at that eps0 is the target eps: the two maps are inverse"),
        zero(_unamplified(eps) - (eps - sp.log(q_a) + sp.log(1 + (q_a - 1) * sp.exp(-eps))),
             "ln(1 + (e^eps - 1) N/n) = eps - ln(n/N) + ln(1 + (n/N - 1) e^{-eps}), the form computed for eps > 1 "
             "(no overflow of e^eps)"),
        zero(_amplified(_SHIFT / b_generic) - eps,
             "the Laplace mechanism of sensitivity Delta on the sample has delta_M(Delta/b) = 0 (htm.census.delta): "
             "at the generic scale b = Delta / ln(1 + (e^eps - 1) N/n) its amplified eps' is eps, so the release "
             "has delta = 0 at eps (amplified_laplace_scale, the pure scales of the search)"),
        zero(q_a * (1 - sp.exp((_E0 - _SHIFT / b_closed) / 2)) - _DELTA_T,
             "with delta_M(eps0) = 1 - e^{(eps0 - Delta/b)/2} (the Laplace mechanism, htm.census.delta, eps0 <= "
             "Delta/b), (n/N) delta_M(eps0) = delta at b = Delta / (eps0 - 2 ln(1 - delta N/n)) for delta < n/N: the "
             "closed scale of the SRS reduction (numeric.profile.calibration.closed_scale)"),
        conclude_instance(claim, "amplification_subsampling_wor_profile",
                          {WOR_PROFILE: _AMPL_PROFILE, WOR_M: n_a, WOR_N: N_a, WOR_DELTA_M: _DELTA_M(eps)}))


register(Claim(
    id="htm.srs.amplification",
    title="SRS of n among N, substitution neighbours, M any mechanism on the n sampled records: "
          "delta_{M o S}(ln(1 + (n/N)(e^eps - 1))) <= (n/N) delta_M(eps)",
    source=S23_AMPLIFICATION, kind="inequality", lhs=_AMPL_PROFILE, relation="<=", rhs=q_a * _DELTA_M(eps),
    conditions=(sp.Le(n_a, N_a),), proof=_prove_srs_amplification,
    note="delta_{M o S}(.) is the privacy profile of the release M(x_S), S a simple random sample of n of the N "
         "units, over neighbouring populations (one unit's value changed: the substitution relation); delta_M(.) is "
         "the profile of M over samples that differ in one record. The Horvitz-Thompson release t(x, S) + noise is of "
         "this form, M the noisy total (N/n) sum of the sampled values. An external result (Balle, Barthe & Gaboardi "
         "2018, Thm 9), cited with its formal statement: the claim is an instance of it (m = n, n = N). The further "
         "steps are not needed for the claim; they check the algebra the numeric layer uses: the target eps of the release is reached with "
         "e^{eps0} = 1 + (e^eps - 1) N/n on the sample (the inverse map, and its overflow-free form), the generic "
         "scale Delta / ln(1 + (e^eps - 1) N/n) (profile.amplification.generic_scale) is where the amplified "
         "Laplace mechanism is pure, and the closed scale Delta / (eps0 - 2 ln(1 - delta N/n)) is where (n/N) "
         "delta_M(eps0) = delta for the Laplace mechanism. With the pair every-a / one-b, which attains (n/N) "
         "delta_M(eps0) (numeric.profile.search.one_unit; measured, not proved here), the SRS reduction's scale "
         "agrees with the exact search (tests)."))


# ================================================================================================
# Bounded values under SRS
# ================================================================================================
lo, hi = sp.symbols("a b_max", real=True)          # the value range [a, b] (b_max: b is the noise scale)
yv, yw = sp.symbols("y y'", real=True)
NN, nn = sp.symbols("N n", positive=True)


def _prove_sensitivity(claim: Claim) -> Proof:
    g, h, k = sp.symbols("g h k", nonnegative=True)
    hp = sp.Symbol("h", positive=True)

    def up(case: Case) -> Proof:       # y >= y'
        on = Parametrization(forward={yw: lo + g, yv: lo + g + h, hi: lo + g + h + k},
                             inverse={g: yw - lo, h: yv - yw, k: hi - yv})
        return case.conclude(param=on)

    def down(case: Case) -> Proof:     # y < y'
        on = Parametrization(forward={yv: lo + g, yw: lo + g + hp, hi: lo + g + hp + k},
                             inverse={g: yv - lo, hp: yw - yv, k: hi - yw})
        return case.conclude(param=on)

    t_s = sp.Sum(sp.IndexedBase("x")[_jj] * NN / nn, (_jj, 1, nn - 1)) + yv * NN / nn
    t_sp = sp.Sum(sp.IndexedBase("x")[_jj] * NN / nn, (_jj, 1, nn - 1)) + yw * NN / nn
    return all_of(
        zero(t_s - t_sp - (yv - yw) * NN / nn,
             "SRS, unit i in s: t(x, s) - t(x', s) = (N/n)(y - y'), the other n - 1 sampled values unchanged"),
        cite("laplace_mechanism_pure_dp", "the Laplace mechanism on the sample with sensitivity (b - a) N/n is "
                                          "((b - a)N/(n b_noise))-DP"),
        cite("amplification_by_subsampling", "sampling n of N without replacement amplifies it to ln(1 + (n/N)(e^{(b "
                                             "- a)N/(n b_noise)} - 1)): the generic route "
                                             "(profile.amplification.generic_scale), an upper value of delta"),
        conclude_split(claim, yv - yw, up, down))


register(Claim(
    id="htm.bounded.sensitivity",
    title="SRS, values in [a, b]: (N/n)|y - y'| <= (b - a) N/n for a <= y, y' <= b",
    source=S23_BOUNDED, kind="inequality", lhs=NN / nn * sp.Abs(yv - yw), relation="<=", rhs=(hi - lo) * NN / nn,
    conditions=(sp.Ge(yv, lo), sp.Le(yv, hi), sp.Ge(yw, lo), sp.Le(yw, hi)), proof=_prove_sensitivity,
    note="b_max is the upper end b of the value range (b is the noise scale elsewhere). The change of the HT "
         "estimate t(x, s) = (N/n) sum_{j in s} y_j when one sampled value moves within [a, b] is at most "
         "Delta = (b - a) N/n; with the Laplace mechanism on the sample and amplification by subsampling (cited) "
         "the release is eps_g-DP with eps_g = ln(1 + (n/N)(e^{Delta/b_noise} - 1)), so the generic scale "
         "Delta / ln(1 + (e^eps - 1) N/n) (profile.amplification.generic_scale) is an UPPER value of the scale "
         "that (eps, delta) needs: the exact scale is never larger. The lower value is htm.bounded.binary_pair."))

_xb = sp.IndexedBase("x")                            # binary values on {0, 1}
_yb = lo + (hi - lo) * _xb[_jj]                      # the values on {a, b}


def _prove_binary_pair(claim: Claim) -> Proof:
    w_, t_, beta = sp.symbols("w t beta", real=True)
    bpos = sp.Symbol("beta", positive=True)
    gap = sp.Symbol("Delta_ab", positive=True)      # b - a > 0
    kern = lambda u, sc: sp.exp(-sp.Abs(u) / sc) / (2 * sc)                 # noqa: E731
    return all_of(
        zero(kern(gap * (w_ - t_), bpos) * gap - kern(w_ - t_, bpos / gap),
             "change of variables z = aN + (b - a) w: (b - a) K_beta((b - a)(w - t)) = K_{beta/(b-a)}(w - t) "
             "(Laplace); the Gaussian likewise with sigma/(b - a)"),
        cite("data_processing_hockey_stick", "z -> (z - aN)/(b - a) is a bijection, a post-processing in both "
                                             "directions: delta is unchanged, so on {a, b}^N the profile at noise "
                                             "scale beta is the binary SRS profile at scale beta/(b - a)"),
        conclude(claim))


register(Claim(
    id="htm.bounded.binary_pair",
    title="SRS of n among N, values y_j = a + (b - a) x_j with x_j in {0, 1}: sum_{j=1}^{n} (N/n) y_j = a N + (b - a) "
          "sum_{j=1}^{n} (N/n) x_j",
    source=S23_BOUNDED, kind="identity",
    lhs=sp.Sum(NN / nn * _yb, (_jj, 1, nn)), rhs=lo * NN + (hi - lo) * sp.Sum(NN / nn * _xb[_jj], (_jj, 1, nn)),
    proof=_prove_binary_pair,
    note="b_max is the upper end b of the value range. On the sub-domain {a, b}^N of [a, b]^N the HT estimate is "
         "an affine image of the binary one (the sum runs over the n sampled units, n a positive integer), so the "
         "noisy release at scale beta is an affine bijection of the binary release at scale beta/(b - a), with the "
         "same delta (cited). The supremum of delta over [a, b]^N is at least the supremum over {a, b}^N: the "
         "binary SRS profile (profile.*, htm.r8.*) at scale beta/(b - a) is a LOWER value, the generic route "
         "(htm.bounded.sensitivity) an upper value. Where the two agree the answer is known to that precision. "
         "That the extreme values are the worst case over [a, b]^N is NOT proved here."))


# ================================================================================================
# Tables of cells
# ================================================================================================
_d, _r = sp.symbols("d r", real=True)
_rn = sp.Symbol("r", nonnegative=True)
_P_cell, _Q_cell, _R_cell = sp.Function("p_c"), sp.Function("q_c"), sp.Function("r_c")
z1, z2 = sp.symbols("z_1 z_2", real=True)


def _prove_parallel(claim: Claim) -> Proof:
    u, v = sp.symbols("u v", nonnegative=True)
    vp = sp.Symbol("v", positive=True)

    def nonneg(case: Case) -> Proof:
        return case.conclude(param=Parametrization(forward={_d: u}, inverse={u: _d}))

    def neg(case: Case) -> Proof:
        return case.conclude(param=Parametrization(forward={_d: -vp}, inverse={vp: -_d}))

    return all_of(
        cite("density_of_independent_sum", "the cells' samples and noises are independent, so the release (Z_c, "
                                           "Z_rest) has density p_c(z_1) r(z_2) under x and q_c(z_1) r(z_2) under "
                                           "x': the other cells' law r is the same (the unit's value changes within "
                                           "cell c only)"),
        cite("fubini_tonelli", "int int (p_c(z_1) r(z_2) - e^eps q_c(z_1) r(z_2))_+ dz_1 dz_2 = int r(z_2) int "
                               "(p_c - e^eps q_c)_+ dz_1 dz_2 = delta_c(eps, x_c, x'_c), by the identity stated, "
                               "and int r = 1"),
        cite("integral_monotonicity", "int r(z_2) dz_2 = 1 for a probability density"),
        cite("parallel_composition", "so delta of the table at (x, x') is delta_c(eps, x_c, x'_c) of the changed "
                                     "cell, and the table is DP(eps, delta) when every cell is"),
        conclude_split(claim, _d, nonneg, neg))


register(Claim(
    id="htm.table.parallel",
    title="Table of cells, cell c changed, density r >= 0 of the other cells: (r d)_+ = r (d)_+ for d = p_c(z_1) - "
          "e^eps q_c(z_1) real",
    source=S14_TABLE, kind="identity", lhs=sp.Max(_rn * _d, 0), rhs=_rn * sp.Max(_d, 0), proof=_prove_parallel,
    note="Parallel composition (McSherry 2009, Thm 4) for a table whose cells partition the population and are "
         "drawn independently (each cell a union of strata, each with its own noise): neighbours differ at one "
         "unit, whose value changes within its cell c, so the other cells' release has the same law under x and "
         "x'. The hockey-stick of the product laws factorises by the identity stated (r = r(z_2) >= 0, d = p_c(z_1) "
         "- e^eps q_c(z_1)) and Fubini (cited): delta_table(eps, x, x') = delta_c(eps, x_c, x'_c), and the table's "
         "profile is the largest of the cells' profiles. Each cell is calibrated at the full (eps, delta); the "
         "table's scale is each cell's own. If cells share a sample (domains of one stratum), their estimates are "
         "dependent and this does not apply."))

_kk = sp.Symbol("k", integer=True, positive=True)
_ll = sp.Symbol("l", integer=True, nonnegative=True)
eps_t, delta_t = sp.symbols("epsilon_T delta_T", positive=True)


def _prove_basic(claim: Claim) -> Proof:
    return all_of(
        cite("sequential_composition", "k releases that are (eps_j, delta_j)-DP with respect to the same neighbouring "
                                  "relation are jointly (sum_j eps_j, sum_j delta_j)-DP"),
        conclude(claim))


register(Claim(
    id="htm.table.basic_composition",
    title="Budget split over k releases: sum_{l=1}^{k} epsilon_T/k = epsilon_T",
    source=S14_TABLE, kind="identity", lhs=sp.Sum(eps_t / _kk, (_ll, 1, _kk)), rhs=eps_t, proof=_prove_basic,
    note="A unit that may move between two cells changes two cells' releases (k = 2); a margin overlapping the "
         "cells adds one release the unit enters (k = number of releases containing a unit, the largest over "
         "units). Each release calibrated at (epsilon_T/k, delta_T/k) composes to (epsilon_T, delta_T) by basic "
         "composition (cited; Dwork & Roth 2014, Thm 3.16); the identity stated is the epsilon part of the split, "
         "the delta part sum_{l=1}^{k} delta_T/k = delta_T is the same identity. htm.table.kov_composition gives "
         "the optimal composition for k homogeneous releases."))

e0 = sp.Symbol("epsilon_0", nonnegative=True)
_ii = sp.Symbol("i", integer=True, nonnegative=True)


def _rr(l_, sign):
    """P^k, Q^k of the k-fold randomized response, lumped by the number l of disagreeing coordinates."""
    return sp.binomial(_kk, l_) * sp.exp(((_kk - l_) if sign > 0 else l_) * e0) / (1 + sp.exp(e0))**_kk


_P_RR = defined(r"P^{\otimes k}(l)", _rr(_ll, 1))
_Q_RR = defined(r"Q^{\otimes k}(l)", _rr(_ll, -1))
_KOV_LHS = sp.Sum(_P_RR - sp.exp((_kk - 2 * _ii) * e0) * _Q_RR, (_ll, 0, _ii - 1))
_KOV_RHS = sp.Sum(sp.binomial(_kk, _ll) * (sp.exp((_kk - _ll) * e0) - sp.exp((_kk - 2 * _ii + _ll) * e0)),
                  (_ll, 0, _ii - 1)) / (1 + sp.exp(e0))**_kk


def _prove_kov(claim: Claim) -> Proof:
    m = sp.Symbol("m", integer=True, nonnegative=True)
    expo = lambda l_: ((_kk - l_) - (_kk - 2 * _ii + l_)) * e0        # noqa: E731
    return all_of(
        zero(expo(_ii + m) + 2 * m * e0, "l = i + m >= i: (k - l) eps_0 - (k - 2i + l) eps_0 = -2 m eps_0 <= 0, so "
                                         "P(l) - e^{(k-2i) eps_0} Q(l) <= 0 (exp increasing)"),
        zero(expo(_ii - 1 - m) - 2 * (m + 1) * e0, "l = i - 1 - m < i: the exponent difference is 2(m + 1) eps_0 "
                                                   ">= 0, so the term is >= 0"),
        cite("monotone_limits", "exp is increasing: the sign of e^{A} - e^{B} is the sign of A - B"),
        cite("hockey_stick_event_form", "the hockey-stick divergence E_{e^{(k-2i) eps_0}}(P^k || Q^k) of the k-fold "
                                        "randomized-response pair is the sum of the positive terms, those with l < "
                                        "i (the likelihood ratio depends on the outcome only through l)"),
        cite("optimal_composition_kov", "the k-fold composition of (eps_0, delta_0)-DP releases is ((k - 2i) eps_0, "
                                        "1 - (1 - delta_0)^k (1 - delta_i))-DP for 0 <= i <= k/2, delta_i the sum "
                                        "stated, and no better in general (the randomized-response pair is the "
                                        "worst case)"),
        conclude(claim))


register(Claim(
    id="htm.table.kov_composition",
    title="k-fold randomized response (eps_0), 0 <= i: sum_{l=0}^{i-1} [P^k(l) - e^{(k-2i) eps_0} Q^k(l)] = sum_{l=0}^{i-1} "
          "C(k, l)(e^{(k-l) eps_0} - e^{(k-2i+l) eps_0})/(1 + e^{eps_0})^k",
    source=S14_TABLE, kind="identity", lhs=_KOV_LHS, rhs=_KOV_RHS, proof=_prove_kov,
    note="P^k(l) = C(k, l) e^{(k-l) eps_0}/(1 + e^{eps_0})^k and Q^k(l) = C(k, l) e^{l eps_0}/(1 + e^{eps_0})^k are "
         "the laws of the number l of flipped answers under the two inputs of k independent randomized responses "
         "with parameter eps_0. The left side is their hockey-stick divergence at e^{(k - 2i) eps_0} (its positive "
         "terms are those with l < i: mechanical steps of the proof), the right side is delta_i of the optimal "
         "composition theorem (Kairouz, Oh and Viswanath 2015, Thm 3.3, cited): k homogeneous releases, each "
         "(eps_0, delta_0)-DP, are jointly ((k - 2i) eps_0, 1 - (1 - delta_0)^k (1 - delta_i))-DP for every "
         "0 <= i <= floor(k/2), and this region is the best possible. For a table where a unit enters k cells or "
         "margins, each calibrated alike, this gives a smaller total than basic composition "
         "(htm.table.basic_composition)."))


# ================================================================================================
# Accuracy of the release
# ================================================================================================
wv = sp.Symbol("w", real=True)
V_d = sp.Symbol("V_d", nonnegative=True)              # design variance Var_p(t(X, S))


def _prove_variance(claim: Claim) -> Proof:
    T, W, mu = sp.symbols("T W mu", real=True)
    ET2, EW2 = sp.symbols("E_T2 E_W2", real=True)
    second = sp.expand((T - mu + b * W)**2)
    return all_of(
        zero(second - ((T - mu)**2 + 2 * b * (T - mu) * W + b**2 * W**2),
             "(t - mu + b W)^2 = (t - mu)^2 + 2 b (t - mu) W + b^2 W^2"),
        cite("linearity_conditional_expectation", "E of the cross term is 2 b E[t - mu] E[W] = 0: W is independent "
                                                  "of (X, S) with E W = 0, and E[t(X, S)] = mu = t(x) (htm.ht_unbiased)"),
        zero(sp.integrate(wv * sp.exp(-sp.Abs(wv)) / 2, (wv, -sp.oo, sp.oo)), "E W = 0 for W standard Laplace"),
        zero(sp.integrate(wv**2 * sp.exp(-wv**2 / 2) / sp.sqrt(2 * sp.pi), (wv, -sp.oo, sp.oo)) - 1,
             "Gaussian: E G^2 = 1, so sigma G adds sigma^2"),
        conclude_evaluation(claim))


register(Claim(
    id="htm.accuracy.variance",
    title="Variance of the noisy HT total, Laplace(b) noise: V_d + b^2 int w^2 e^{-|w|}/2 dw = V_d + 2 b^2",
    source=S22_ACCURACY, kind="identity",
    lhs=V_d + b**2 * sp.Integral(wv**2 * sp.exp(-sp.Abs(wv)) / 2, (wv, -sp.oo, sp.oo)), rhs=V_d + 2 * b**2,
    proof=_prove_variance,
    note="V_d = Var_p(t(X, S)) is the design variance of the HT total; with W independent of (X, S), E W = 0, the "
         "variance of Z_b = t(X, S) + b W is V_d + b^2 E W^2 (the cross term vanishes: steps of the proof), and E W^2 "
         "= 2 for the standard Laplace law (the statement). Gaussian noise sigma G adds sigma^2 (a step). The "
         "relative standard error of the release is sqrt(V_d + 2 b^2)/t(x), and t_hat +- z_{1-alpha/2} sqrt(V_d + 2 "
         "b^2) is the usual normal-approximation confidence interval (with V_d estimated by the design's variance "
         "estimator; the noise part is known exactly). Under SRS V_d = N^2 (1 - n/N) S^2/n."))
