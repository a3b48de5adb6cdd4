"""Section 3: the inverse-sensitivity mechanism (Asi and Duchi 2020), its smooth version and
Théorème 3.1.0.1 (eps-DP), and the sample-monotone functions of Definition 3.2.0.1.

Source: ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``; Canesse, 2022), Section 3.

The length len(x, t) (Definition 3.1.0.1) is the least number of entries of x to change so that the
quantile becomes t.  For every f, |len^rho(x, t) - len^rho(x', t)| <= 1 for neighbours (the triangle
inequality of the distance); with it, the density ratio is at most e^{eps/2} in the numerator and e^{eps/2}
in the normaliser.  The brute-force lengths below (every database of a small universe) are the tests'
independent reference.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Source, all_of, argue, citation, cite, claim, finding, reading
from ..engine.proofs import Parametrization, conclude
from .common import DOC, eps

S_DEF = Source(DOC, "Section 3.1, Définitions 3.1.0.1-3.1.0.4")
S_THM = Source(DOC, "Section 3.1, Théorème 3.1.0.1 and its proof")
S_MONO = Source(DOC, "Section 3.2, Définition 3.2.0.1")

_UNIVERSE = (0, 1, 2, 3)          # the values an entry may take; the grid of outputs is the same set


def _quantile(x):
    """The median as the lower middle order statistic X_(ceil(n/2))."""
    s = sorted(x)
    return s[(len(s) + 1) // 2 - 1]


def _length(x, target, universe=_UNIVERSE):
    """len(x, t): the least Hamming distance from x to a database whose quantile is t (brute force)."""
    best = None
    for other in itertools.product(universe, repeat=len(x)):
        if _quantile(other) == target:
            dist = sum(a != b for a, b in zip(x, other))
            best = dist if best is None else min(best, dist)
    return best


def _smooth_length(x, target, rho):
    return min(_length(x, s) for s in _UNIVERSE if abs(s - target) <= rho)


Lx, Lxp = sp.Symbol("L", integer=True, nonnegative=True), sp.Symbol("L'", integer=True, nonnegative=True)
Dz = sp.Symbol("D", integer=True, nonnegative=True)           # d(x, z) for the z that attains len^rho(x', t)
Dn = sp.Symbol("delta", integer=True, nonnegative=True)       # d(x, x')
_s1, _s2, _s3 = (sp.Symbol(f"s_{k}", nonnegative=True) for k in (1, 2, 3))

citation("pd_length_definitions", "Length and smooth length (Définitions 3.1.0.1 and 3.1.0.3 of private-deciles)",
         "len_f(x, t) = inf {d(x, z) : f(z) = t}, the least number of entries of x to change so that f takes the value "
         "t; len_f^rho(x, t) = inf {len_f(x, s) : N(s, t) <= rho} = inf {d(x, z) : N(f(z), t) <= rho}.",
         "A. Canesse, Rapport de stage, ENS Lyon (2022), Définitions 3.1.0.1 and 3.1.0.3 (after Asi and Duchi, "
         "Near instance-optimality in differential privacy, 2020).")

claim(id="pd.isens.length",
      title="Définitions 3.1.0.1 and 3.1.0.3, for every f, rho, t and neighbours x, x': len^rho(x, t) <= "
            "len^rho(x', t) + 1, from L <= D = d(x, z) <= d(x, x') + L' and d(x, x') <= 1",
      source=S_DEF, kind="inequality", lhs=Lx, rhs=Lxp + 1, relation="<=",
      conditions=(sp.Le(Lx, Dz), sp.Le(Dz, Dn + Lxp), sp.Le(Dn, 1)),
      proof=lambda c: all_of(
          cite("least_natural_attained", "len^rho(x', t) = d(x', z) for a database z with N(f(z), t) <= rho "
                                         "(an infimum of natural numbers, attained)"),
          cite("pd_length_definitions", "z is admissible for x as well, so L = len^rho(x, t) <= d(x, z) = D"),
          cite("metric_triangle_inequality", "D = d(x, z) <= d(x, x') + d(x', z) = delta + L'"),
          conclude(c, Parametrization({Lx: 1 - _s3 + Lxp - _s2 - _s1, Dz: 1 - _s3 + Lxp - _s2, Dn: 1 - _s3},
                                      {_s1: Dz - Lx, _s2: Dn + Lxp - Dz, _s3: 1 - Dn}))),
      note="L = len^rho(x, t), L' = len^rho(x', t), d the number of entries in which two databases differ, delta = "
           "d(x, x') <= 1 for neighbours (Définition 1.2.0.1), D = d(x, z) for a database z of quantile within rho of t "
           "with d(x', z) = L'. Exchanging x and x' gives len^rho(x', t) <= len^rho(x, t) + 1, so "
           "|len^rho(x, t) - len^rho(x', t)| <= 1: the two bounds the proof of Théorème 3.1.0.1 uses "
           "(len^rho(x, t) >= len^rho(x', t) - 1 in the numerator, len^rho(x, s) <= len^rho(x', s) + 1 in the "
           "normaliser). Any f, any universe, any rho: nothing of the median is used. The lengths are finite when some "
           "database has its quantile within rho of t (otherwise both are +oo). Brute force over every database of 1 to "
           "3 entries in {0, 1, 2, 3} agrees (tests).")

_u, _v, _w = (sp.Symbol(s, nonnegative=True) for s in ("u", "v", "w"))
# ln Z(x), ln Z(x') real: the normalisers of Définition 3.1.0.4 are finite and positive, the hypothesis under which
# the density exists (Théorème 3.1.0.1 leaves it tacit)
lZ, lZp = sp.Symbol(r"\ln Z(x)", real=True), sp.Symbol(r"\ln Z(x')", real=True)
claim(id="pd.isens.epsilon_dp",
      title="Théorème 3.1.0.1, proof, density bound, t -> len^rho(x, t) and len^rho(x', t) mu-measurable, 0 < Z(x), "
            "Z(x') < oo (ln Z real): -L eps/2 - ln Z(x) <= eps - L' eps/2 - ln Z(x') if L >= L' - 1, ln Z(x) >= "
            "ln Z(x') - eps/2",
      source=S_THM, kind="inequality", lhs=-Lx * eps / 2 - lZ, rhs=eps - Lxp * eps / 2 - lZp, relation="<=",
      conditions=(sp.Ge(Lx, Lxp - 1), sp.Ge(lZ, lZp - eps / 2)),
      proof=lambda c: all_of(cite("integral_monotonicity", "Z(x) = int exp(-len^rho(x, s) eps/2) dmu(s) >= "
                                                           "e^{-eps/2} Z(x') pointwise in s"),
                             conclude(c, Parametrization({Lx: Lxp - 1 + _u, lZ: lZp - eps / 2 + _w},
                                                         {_u: Lx - Lxp + 1, _w: lZ - lZp + eps / 2}))),
      note="L = len^rho(x, t), L' = len^rho(x', t). Both sides are log-densities of the rho-smooth "
           "inverse-sensitivity mechanism, ln density_x(t) = "
           "-len^rho(x, t) eps/2 - ln Z(x) with the normaliser Z(x) = int exp(-len^rho(x, s) eps/2) dmu(s); "
           "ln Z(x) >= ln Z(x') - eps/2 follows from every len^rho(x, s) <= len^rho(x', s) + 1 by monotonicity of the "
           "integral (cited). The lengths are integers (len^rho takes values in N). The hypothesis 0 < Z < oo (ln Z(x), "
           "ln Z(x') real) is the condition for Définition 3.1.0.4 to define a density, which the theorem's 'pour tout "
           "rho, eps in R+' leaves tacit: it fails for eps = 0 with an infinite measure mu, and for the median on "
           "T = R with mu Lebesgue, where len(x, t) <= n for every t gives Z(x) >= e^{-n eps/2} mu(R) = oo; a finite "
           "mu (outputs in a bounded [a, b]) gives Z(x) <= mu(T) < oo, and Z(x) > 0 when len^rho(x, .) is finite on "
           "a set of positive measure. The integrals Z(x), Z(x') also need t -> len^rho_f(x, t) to be "
           "mu-measurable (a hypothesis in words, not a symbolic condition): for an arbitrary f on an uncountable "
           "universe it can fail, and the mechanism is then undefined too. Integrated over a set S "
           "(not checked here) the bound gives "
           "P(M(x) in S) <= e^eps P(M(x') in S). Reading pd.reading.isens_len (the printed 'ln' is len); the proof's "
           "third line has Z(x) where Z(x') is needed (pd.finding.isens_denominator).")


Ls, Lt = sp.Symbol("L_s", integer=True, nonnegative=True), sp.Symbol("L_t", integer=True, nonnegative=True)
Dc = sp.Symbol("D'", integer=True, nonnegative=True)          # d(x, z') for the clipped database z'
_c1, _c2 = sp.Symbol("c_1", nonnegative=True), sp.Symbol("c_2", nonnegative=True)

claim(id="pd.isens.sample_monotone",
      title="Définition 3.2.0.1 for f(x) = X_(m) (the median: m = ceil(n/2)), s a value entries may take: len_f(x, s) <= "
            "len_f(x, t) when f(x) <= s <= t or t <= s <= f(x), from L_s <= D' = d(x, z') <= d(x, z) = L_t",
      source=S_MONO, kind="inequality", lhs=Ls, rhs=Lt, relation="<=",
      conditions=(sp.Le(Ls, Dc), sp.Le(Dc, Lt)),
      limitation=("The construction of the clipped database z' (its m-th smallest value is s, and it differs from x "
                  "no more than z does) is an argument by counting; the engine checks only the chain L_s <= D' <= L_t."),
      proof=lambda c: all_of(
          cite("least_natural_attained", "len_f(x, t) = d(x, z) for a database z with z_(m) = t"),
          argue("z'_i = min(z_i, max(x_i, s)) (for t <= s <= f(x): max(z_i, min(x_i, s))) has z'_(m) = s: at least m "
                "of the max(x_i, s) are <= s since x_(m) <= s, and z'_i < s only where z_i < s, at most m - 1 entries "
                "since z_(m) = t >= s (counting order statistics: David and Nagaraja 2003, Sec. 2.1); the other case "
                "symmetrically"),
          cite("pd_length_definitions", "L_s = len_f(x, s) <= d(x, z') = D'; z'_i = x_i wherever z_i = x_i, so "
                                        "D' <= d(x, z) = L_t"),
          conclude(c, Parametrization({Ls: Lt - _c2 - _c1, Dc: Lt - _c2}, {_c1: Dc - Ls, _c2: Lt - Dc}))),
      note="L_s = len_f(x, s), L_t = len_f(x, t); z attains len_f(x, t), and z' clips it towards x at s, entry by entry: "
           "z' differs from x only where z does, and its m-th smallest value is s (counting, argued), so that the "
           "median, and every order statistic X_(m), is sample-monotone on every universe of values that contains s "
           "(a grid of outputs inside the universe of the data). Brute force over every database of 1 to 3 entries "
           "in {0, 1, 2, 3} agrees (tests). Asi and Duchi (2020) state the definition for the analysis of the "
           "mechanism's near-optimality; the report stops after the definition (Section 3.2 has no result).")

reading("pd.reading.isens_len", S_DEF,
        printed="exp(-ln_f^rho(x, t) eps/2) / int_T exp(-ln_f^rho(x, s) eps/2) dmu(s), 'ln' set as the logarithm "
                "operator (ln_f in Définition 3.1.0.2, ln_f^rho in 3.1.0.4 and every display of the proof of Théorème "
                "3.1.0.1)",
        reading="len_f^rho(x, t), the (smooth) length of Définitions 3.1.0.1 and 3.1.0.3",
        why="The sentence between the definitions names the same quantity 'len_f(x)' ('Il n'y a qu'en f(x) que "
            "len_f(x) est nulle'), Définitions 3.1.0.1 and 3.1.0.3 define len_f and len_f^rho, and no logarithm of a "
            "function f is defined; 'len' typeset as the logarithm operator loses its 'e'.",
        alternatives="The natural logarithm ln of f^rho(x, t): f^rho is not defined and ln of an output t in T has no "
                     "meaning, so the densities would not be defined.",
        claims=("pd.isens.epsilon_dp",))
finding("pd.finding.isens_denominator", S_THM,
        "A slip in the proof of Théorème 3.1.0.1: its third line, exp(eps/2)/exp(-eps/2) int_S exp(-len^rho_f(x', t) "
        "eps/2) / int_T exp(-len^rho_f(x, s) eps/2) dmu(s) dmu(t), has the normaliser of x in the denominator; it must "
        "be int_T exp(-len^rho_f(x', s) eps/2) dmu(s), that of x', since the line before bounds the denominator by "
        "the lengths of x' (Z(x) >= e^{-eps/2} Z(x')) and the next line is exp(eps) P(M_cont(x') in S). The prime is "
        "printed correctly elsewhere in the same display, so this is not damaged text. With x' the argument is "
        "correct (pd.isens.epsilon_dp).", claims=("pd.isens.epsilon_dp",))
finding("pd.finding.isens_attribution", S_DEF,
        "The smooth length (Définition 3.1.0.3) is attributed to [MT07] (McSherry and Talwar, the exponential "
        "mechanism); it is Asi and Duchi's (2020). Définition 3.1.0.3 writes N(s, t) <= rho for a norm N, a "
        "distance ||s - t|| <= rho. The mechanism is the exponential mechanism with utility -len, of sensitivity 1 "
        "(pd.isens.length), hence the factor eps/2.", claims=("pd.isens.length", "pd.isens.epsilon_dp"))
finding("pd.finding.quasi_optimality_missing", S_MONO,
        "Section 3.2 is titled 'Quasi-optimalité du mécanisme de sensibilité inverse' but states no result: it "
        "gives Définition 3.2.0.1 (sample-monotone functions) and the report passes to its appendix. The near-"
        "optimality the title announces (Asi and Duchi, 2020) is neither stated nor proved, so there is nothing to "
        "verify or refute; the definition is encoded (pd.isens.sample_monotone, the median on a small grid).",
        claims=("pd.isens.sample_monotone",))
