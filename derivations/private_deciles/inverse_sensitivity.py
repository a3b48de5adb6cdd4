"""Section 3: the inverse-sensitivity mechanism (Asi and Duchi 2020), its smooth version and
Théorème 3.1.0.1 (eps-DP), and the sample-monotone functions of Definition 3.2.0.1.

Source: ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``; Canesse, 2022), Section 3.

For a quantile on a finite grid the length len(x, t) (Definition 3.1.0.1) is checked by brute force
over every database of a small universe: the number of entries to change so that the quantile
becomes t.  The privacy proof needs |len^rho(x, t) - len^rho(x', t)| <= 1 for neighbours; with it,
the density ratio is at most e^{eps/2} in the numerator and e^{eps/2} in the normaliser.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Source, all_of, cite, claim, finding, reading
from ..engine.proofs import Parametrization, conclude, exhaust
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
_SIZES = (1, 2, 3)


def _neighbour_points(rho):
    for size in _SIZES:
        for x in itertools.product(_UNIVERSE, repeat=size):
            for pos in range(size):
                for v in _UNIVERSE:
                    xp = x[:pos] + (v,) + x[pos + 1:]
                    for t in _UNIVERSE:
                        yield {Lx: _smooth_length(x, t, rho), Lxp: _smooth_length(xp, t, rho)}


def _lipschitz_points():
    seen = set()
    for rho in (0, 1):
        for pt in _neighbour_points(rho):
            key = (pt[Lx], pt[Lxp])
            if key not in seen:
                seen.add(key)
                yield pt


claim(id="pd.isens.length",
      limitation=("len^rho(x, t) is a minimum over every database reachable by rho changes of entries, which the "
                  "engine cannot represent for databases of symbolic size, so it is computed by brute force on the "
                  "grid {0, 1, 2, 3} with up to 3 entries."),
      title="Définitions 3.1.0.1 and 3.1.0.3, the median on the grid {0, 1, 2, 3}: (len^rho(x, t) - len^rho(x', t))^2 "
            "<= 1 for neighbours x, x' of 1 to 3 entries, rho in {0, 1}",
      source=S_DEF, kind="inequality", lhs=(Lx - Lxp)**2, rhs=1, relation="<=",
      enumeration=lambda c: exhaust(c, _lipschitz_points(),
                                    scope="every database of 1 to 3 entries in {0, 1, 2, 3}, every neighbour (one entry "
                                          "replaced), every t in {0, 1, 2, 3}, rho in {0, 1}: lengths by brute force "
                                          "over all databases"),
      note="Squared to state |L - L'| <= 1 without an absolute value: the fact the proof of Théorème 3.1.0.1 uses, here "
           "checked by brute force on the small universe of the label only. The median is X_(ceil(n/2)). In general the "
           "triangle inequality of the Hamming distance gives it: a database at distance len(x', t) from x' with "
           "quantile t is at distance at most len(x', t) + 1 from x.")

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


def _monotone_points():
    for size in _SIZES:
        for x in itertools.product(_UNIVERSE, repeat=size):
            f = _quantile(x)
            for s_, t_ in itertools.product(_UNIVERSE, repeat=2):
                if f <= s_ <= t_ or t_ <= s_ <= f:
                    yield {Lx: _length(x, s_), Lxp: _length(x, t_)}


claim(id="pd.isens.sample_monotone",
      limitation=("len_f(x, s) is a minimum over every database whose median is s, which the engine cannot represent "
                  "for databases of symbolic size, so it is computed by brute force on the grid {0, 1, 2, 3} with up "
                  "to 3 entries."),
      title="Définition 3.2.0.1, the median on the grid {0, 1, 2, 3}: len_f(x, s) <= len_f(x, t) when f(x) <= s <= t or "
            "t <= s <= f(x), x of 1 to 3 entries",
      source=S_MONO, kind="inequality", lhs=Lx, rhs=Lxp, relation="<=",
      enumeration=lambda c: exhaust(c, _monotone_points(),
                                    scope="every database of 1 to 3 entries in {0, 1, 2, 3} and every s, t in "
                                          "{0, 1, 2, 3}: lengths by brute force"),
      note="That is, the median is sample-monotone on this small universe (checked there only). "
           "Asi and Duchi (2020) state the definition for the analysis of the mechanism's near-optimality; the "
           "report stops after the definition (Section 3.2 has no result).")

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
