"""The Horvitz-Thompson estimate as a privacy mechanism: definitions, the delta integral, Results 1-6.

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``; "The Horvitz-Thompson estimate as a privacy mechanism"),
Sections 1.2-1.4 and 2.1-2.2.2.  Result 7 is in :mod:`.result7`, Results 8-9 in :mod:`.srs`,
Result 10 in :mod:`.conditional`.

Setting (Sections 1.2-1.4).  Each unit value lies in X_1, a closed bounded set with minimum m_1 and
maximum M_1; the domain is X = {x in X_1^N : t(x) in [m_t, M_t]}, t(x) = sum_j x_j.  A design p on
U = {1..N}; p_i = P(i in S); the survey data obs_x(s) = (s, (x_j)_{j in s}); the Horvitz-Thompson
estimate t(x, s) = sum_{j in s} x_j/p_j; Z_b = t(X, S) + b W with W standard Laplace.  Given X = x,

    f_x(z) = sum_s p(s) (2b)^{-1} exp(-|z - t(x, s)|/b)            (b > 0, a density)
    f_x(z) = sum_{s: t(x,s) = z} p(s)                               (b = 0, a pmf)

and delta(eps, x, x') = int (f_x - e^eps f_x')_+ ; x and x' are neighbours (they differ at one unit
i), and delta_{Z,X}(eps) is the supremum over the neighbouring pairs of X.

Methods.  A statement is proved on its own expressions: identities and kernel inequalities of the
delta integral for any design (the positive part at one point, one interval between atoms), and
statements about designs on a generic design of 3 units (8 sample probabilities and the unit values
all symbolic; the laws are computed from the definitions of obs and of the estimate).  Exact
enumerations over the small designs of :data:`DESIGNS` corroborate them and say so in their scope.
The printed Results 2 (both parts), 3, 5 and the derivative in the proof of Result 6 are refuted by
exact counterexamples inside their printed conditions; see the errata below.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import lcm

import sympy as sp

from ..engine.core import (Claim, Enumeration, Proof, Source, all_of, cite,
                           erratum, finding, mechanical, reading, register, zero)
from ..engine.formulas import formula
from ..engine.notation import defined
from ..engine.proofs import Parametrization, conclude, conclude_evaluation, conclude_split, has_sign
from .designs import ExactRatio, cmp_ratio, ht, inclusion, poisson, srs, take_all_plus_srs

DOC = "000_3f4b38deb4c4e7bd.txt"


def _src(where: str) -> Source:
    return Source(DOC, where)


# -- designs and exact laws for the enumerations ----------------------------------------------------
def census(N: int) -> list[tuple[Fraction, frozenset]]:
    return [(Fraction(1), frozenset(range(N)))]


def unequal() -> list[tuple[Fraction, frozenset]]:
    """Five samples of size 2 from 4 units, unequal probabilities (p = 0.45, 0.5, 0.35, 0.7)."""
    probs = (Fraction(1, 5), Fraction(1, 10), Fraction(3, 10), Fraction(1, 4), Fraction(3, 20))
    samples = ((0, 1), (0, 2), (1, 3), (2, 3), (0, 3))
    return [(p, frozenset(s)) for p, s in zip(probs, samples)]


DESIGNS = (
    ("SRS N=4 n=2", srs(4, 2), (-1, 0, 1, 2)),
    ("SRS N=5 n=3", srs(5, 3), (0, 1, 3)),
    ("unequal 5 samples of 2 from 4", unequal(), (-1, 0, 1, 2)),
    ("Poisson p=(1/2,1/3,3/4)", poisson((Fraction(1, 2), Fraction(1, 3), Fraction(3, 4))), (-2, -1, 0, 1, 2)),
    ("take-all unit + unequal 1-of-3", take_all_plus_srs(), (-1, 0, 1, 2)),
    ("census N=3", census(3), (-1, 0, 2)),
)
DESIGN_NAMES = ", ".join(d[0] for d in DESIGNS)
SCOPE_DESIGNS = "the six small designs (SRS 2-of-4 and 3-of-5, unequal, Poisson, take-all, census), value grids"
RATIOS = (Fraction(1), Fraction(3, 2), Fraction(4))     # rational values of e^eps


_LAWS: dict = {}
_PI: dict = {}


def _cached(cache: dict, design, key, compute):
    """Memoise per design object: the entry keeps the design alive, so its id cannot be reused."""
    entry = cache.get((id(design), key))
    if entry is None or entry[0] is not design:
        entry = (design, compute())
        cache[(id(design), key)] = entry
    return entry[1]


def _inclusion(design) -> dict[int, Fraction]:
    return _cached(_PI, design, None, lambda: inclusion(design))


def pmf(design, x) -> dict[Fraction, Fraction]:
    """The law of t(x, S): atom -> probability, exact (cached: the enumerations revisit each x)."""
    def law():
        pi = _inclusion(design)
        f: dict[Fraction, Fraction] = {}
        for p, s in design:
            if p > 0:
                a = ht(x, s, pi)
                f[a] = f.get(a, Fraction(0)) + p
        return f
    return _cached(_LAWS, design, tuple(x), law)


_ATOMS: dict = {}


def _sample_atoms(design, x) -> tuple:
    """t(x, s) for every sample s of the design, in the design's order (cached)."""
    return _cached(_ATOMS, design, tuple(x), lambda: tuple(ht(x, s, _inclusion(design)) for _, s in design))


def delta0(f: dict, g: dict, c: Fraction) -> Fraction:
    """sum_z (f(z) - c g(z))_+ for two pmfs (b = 0), exactly: with D the common denominator of the
    probabilities and c = c_n/c_d, each D c_d (f(z) - c g(z)) = c_d D f(z) - c_n D g(z) is an integer."""
    c = Fraction(c)
    fv = [Fraction(f[a]) for a in f]
    gv = [Fraction(g.get(a, 0)) for a in f]
    den = lcm(*(v.denominator for v in fv + gv)) if fv else 1
    total = sum(max(c.denominator * (u.numerator * (den // u.denominator))
                    - c.numerator * (v.numerator * (den // v.denominator)), 0) for u, v in zip(fv, gv))
    return Fraction(total, den * c.denominator)


def neighbour_pairs(designs=DESIGNS):
    """Every (design, x, x', i) with x on the design's grid and x' = x changed at unit i."""
    for name, design, grid in designs:
        units = sorted(_inclusion(design))
        for x in itertools.product(grid, repeat=len(units)):
            for i in units:
                for v in grid:
                    if v != x[i]:
                        yield name, design, x, x[:i] + (v,) + x[i + 1:], i


def pair_laws(designs=DESIGNS):
    """(name, design, x, x', i, f_x, f_x') for every neighbouring pair of :func:`neighbour_pairs`."""
    for name, design, x, xp, i in neighbour_pairs(designs):
        yield name, design, x, xp, i, pmf(design, x), pmf(design, xp)


def _fail(n: int, why: str, name, x, xp, i=None, **extra) -> Enumeration:
    cex = {"design": name, "x": str(x), "x'": str(xp)}
    if i is not None:
        cex["i"] = str(i)
    cex.update({k: str(v) for k, v in extra.items()})
    return Enumeration(False, n, why, cex)


# -- symbols --------------------------------------------------------------------------------------
z = sp.Symbol("z", real=True)
b = sp.Symbol("b", positive=True)
eps = sp.Symbol("epsilon", nonnegative=True)
m_t, M_t = sp.symbols("m_t M_t", real=True)
w = sp.Symbol("w", nonnegative=True)                        # distance of z beyond the last atom
q = sp.symbols("q_1:4", positive=True)                      # sample probabilities p(s) of a generic design
d = sp.symbols("d_1:4", nonnegative=True)                   # atom offsets of x
dp = sp.symbols("d'_1:4", nonnegative=True)                 # atom offsets of x'


def kernel(zz, t):
    return sp.exp(-sp.Abs(zz - t) / b)


# -- proof helpers: a split of one variable at a point, each side concluded on the claim ------------
def _param(forward: dict, inverse: dict, claim: Claim) -> Parametrization:
    """A parametrization; claim symbols that appear in the new expressions unchanged map to themselves."""
    used = set().union(*(sp.sympify(e).free_symbols for e in forward.values()))
    own = set(claim.lhs.free_symbols) | set(claim.rhs.free_symbols)
    fw = dict(forward)
    fw.update({s: s for s in used & own if s not in fw})
    return Parametrization(fw, inverse)


def _split(claim: Claim, var: sp.Symbol, at, lower: tuple = ({}, {}), upper: tuple = ({}, {})) -> Proof:
    """Conclude ``claim`` on var <= at (var = at - k, k >= 0) and on var > at (var = at + k, k > 0);
    ``lower``/``upper`` add (forward, inverse) maps of other symbols on each side."""
    k0 = sp.Symbol("k", nonnegative=True)
    k1 = sp.Symbol("k", positive=True)
    low = _param({var: at - k0, **lower[0]}, {k0: at - var, **lower[1]}, claim)
    high = _param({var: at + k1, **upper[0]}, {k1: var - at, **upper[1]}, claim)
    return conclude_split(claim, at - var, lambda case: case.conclude(param=low),
                          lambda case: case.conclude(param=high))


# ================================================================================================
# A generic design on 3 units: every sample probability and every unit value symbolic
# ================================================================================================
_SAMPLES3 = [frozenset(s) for r in range(4) for s in itertools.combinations(range(3), r)]
_p3 = {s: sp.Symbol("p_{" + ("".join(str(j + 1) for j in sorted(s)) or r"\emptyset") + "}", nonnegative=True)
       for s in _SAMPLES3}
_x3 = sp.symbols("x_1:4", real=True)
_pi3 = [sum(_p3[s] for s in _SAMPLES3 if j in s) for j in range(3)]    # p_j = P(j in S)
_PI3_POSITIVE = tuple(sp.Gt(p, 0) for p in _pi3)                      # the HT estimate is defined


def _neighbour3(i: int) -> tuple:
    """x' = x changed at unit i (a new symbol x'_i)."""
    return _x3[:i] + (sp.Symbol(f"x'_{i + 1}", real=True),) + _x3[i + 1:]


def _obs3(x, s):
    """obs_x(s) = (s, (x_j)_{j in s}), the survey data."""
    return tuple(sorted(s)), tuple(x[j] for j in sorted(s))


def _ht3(x, s):
    """t(x, s) = sum_{j in s} x_j / p_j."""
    return sum((x[j] / _pi3[j] for j in sorted(s)), sp.S.Zero)


def _law3(x, release, samples=_SAMPLES3) -> dict:
    """Law of release(x, S): outcome -> probability (outcomes as computed expressions)."""
    law: dict = {}
    for s in samples:
        key = release(x, s)
        law[key] = law.get(key, sp.S.Zero) + _p3[s]
    return law


def _tv3(f: dict, g: dict, evaluate: bool = True) -> sp.Expr:
    """delta(0) = sum over outcomes of (f - g)_+ (total variation); unevaluated, the sum shows every term."""
    keys = sorted(set(f) | set(g), key=str)
    if evaluate:
        return sum((sp.Max(f.get(k, 0) - g.get(k, 0), 0) for k in keys), sp.S.Zero)
    return sp.Add(*(sp.Max(sp.Add(f.get(k, sp.S.Zero), -g.get(k, sp.S.Zero), evaluate=False), 0, evaluate=False)
                    for k in keys), evaluate=False)


def _obs_delta0(i: int, evaluate: bool = True) -> sp.Expr:
    """delta(0, x, x') of the survey data for neighbours differing at unit i, from the laws."""
    return _tv3(_law3(_x3, _obs3), _law3(_neighbour3(i), _obs3), evaluate)


# ================================================================================================
# 1.3  The Horvitz-Thompson estimator is unbiased (the reason it is the mechanism's centre)
# ================================================================================================
_ht_mean = sum(_p3[s] * _ht3(_x3, s) for s in _SAMPLES3)


def _ht_unbiased_enum() -> Enumeration:
    n = 0
    for name, design, grid in DESIGNS:
        pi = _inclusion(design)
        for x in itertools.product(grid, repeat=len(pi)):
            n += 1
            if sum((p * ht(x, s, pi) for p, s in design), Fraction(0)) != sum(x):
                return _fail(n, "E t(x, S) != t(x)", name, x, "-")
    return Enumeration(True, n, f"designs: {DESIGN_NAMES}; every x of each grid", scope=SCOPE_DESIGNS)


def _prove_ht_unbiased(claim: Claim) -> Proof:
    coeffs = [sp.cancel(sp.expand(claim.lhs).coeff(xj)) for xj in _x3]
    return all_of(mechanical(all(c == 1 for c in coeffs),
                             "the coefficient of each x_j is sum_{s ni j} p(s) / p_j = 1"),
                  conclude(claim))


register(Claim(
    id="htm.ht_unbiased",
    title="Horvitz-Thompson estimator unbiased on every design on 3 units (p_j > 0): E[t(x, S)] = sum_s "
          "p(s) t(x, s) = x_1 + x_2 + x_3",
    source=_src("Section 1.3"), kind="identity", lhs=_ht_mean, rhs=sum(_x3), conditions=_PI3_POSITIVE,
    proof=_prove_ht_unbiased, enumeration=_ht_unbiased_enum,
    note="All 8 samples of 3 units with free probabilities p(s) >= 0 (p_j > 0 so that the estimate is defined). "
         "The computation is unit by unit: the coefficient of x_j is sum_{s ni j} p(s)/p_j = 1 for any N."))

# ================================================================================================
# 2.2  The mixture density
# ================================================================================================
_t = sp.Symbol("t", real=True)
_laplace_cdf = sp.Piecewise((sp.exp((z - _t) / b) / 2, z <= _t), (1 - sp.exp(-(z - _t) / b) / 2, True))


def _prove_mixture(claim: Claim) -> Proof:
    total = (sp.integrate(sp.exp((z - _t) / b), (z, -sp.oo, _t))
             + sp.integrate(sp.exp(-(z - _t) / b), (z, _t, sp.oo))) / (2 * b)
    return all_of(zero(total - 1, "each kernel (2b)^{-1} e^{-|z - t|/b} integrates to 1, so f_x integrates to "
                                  "sum_s p(s) = 1"),
                  _split(claim, z, _t))


register(Claim(
    id="htm.mixture_density",
    title="Laplace kernel of Section 2.2: d/dz P(t + bW <= z) = (2b)^{-1} e^{-|z - t|/b} for every real z (b > 0), the "
          "cdf written by branches",
    source=_src("Section 2.2, the density of Z_b given X = x"), kind="identity",
    lhs=sp.Derivative(_laplace_cdf, z), rhs=sp.exp(-sp.Abs(z - _t) / b) / (2 * b),
    proof=_prove_mixture,
    note="lhs: the derivative of the Laplace cdf of one sample's term, computed branch by branch (the branch "
         "z <= t holds at z = t, where both one-sided derivatives are 1/(2b)). The mixture cdf is the p(s)-weighted "
         "sum of these terms by total probability over the independent S and W, so each term has this derivative and "
         "f_x = sum_s p(s) (2b)^{-1} e^{-|z - t(x,s)|/b} (not a separate check). The proof also checks that the "
         "kernel integrates to 1."))

# ================================================================================================
# 1.4  delta as an integral and as an event probability
# ================================================================================================
_EVENT_DESIGNS = (DESIGNS[0], DESIGNS[2], DESIGNS[4])


def _event_form_enum() -> Enumeration:
    n = 0
    for name, design, x, xp, i, f, g in pair_laws(_EVENT_DESIGNS):
        atoms = sorted(set(f) | set(g))
        if len(atoms) > 8:
            continue
        # f and g on the atoms, exactly, as integers: times the common denominator D of their values
        fa, ga = [Fraction(f.get(a, 0)) for a in atoms], [Fraction(g.get(a, 0)) for a in atoms]
        den = lcm(*(v.denominator for v in fa + ga))
        fi, gi = [(v * den).numerator for v in fa], [(v * den).numerator for v in ga]
        for c in RATIOS[:2]:
            n += 1
            integral = delta0(f, g, c)
            # below, every quantity times D c_d (c = c_n/c_d) is an integer: h(a) = f(a) - c g(a) is hs[k]/(D c_d)
            scale = den * c.denominator
            hs = [u * c.denominator - c.numerator * v for u, v in zip(fi, gi)]
            a_set = [k for k, h in enumerate(hs) if h > 0]                     # A = {f - c g > 0}
            event = Fraction(sum(fi[k] for k in a_set) * c.denominator - c.numerator * sum(gi[k] for k in a_set),
                             scale)                                            # P(A) - c P'(A)
            sums = [0]                      # P(B) - c P'(B) for every subset B of the atoms
            for h in hs:
                sums += [v + h for v in sums]
            best = Fraction(max(sums), scale)
            if not integral == event == best:
                return _fail(n, "integral, event form and supremum over events differ", name, x, xp, i, c=c)
    return Enumeration(True, n, "b = 0: every event B of the atoms (all 2^K subsets), e^eps in {1, 3/2}",
                       scope="b = 0, pairs with at most 8 atoms of SRS 2-of-4, unequal 2-of-4, take-all designs")


_h = sp.Symbol("h", real=True)                  # f_x(z) - e^eps f_x'(z) at one point z
_phi = sp.Symbol("phi", nonnegative=True)       # 1_B(z), or any test function with values in [0, 1]


def _prove_event_form(claim: Claim) -> Proof:
    k = sp.Symbol("k", positive=True)
    r = sp.Symbol("r", nonnegative=True)
    at_a = all_of(zero(sp.Max(k, 0) - 1 * k, "on A = {h > 0}, 1_A h = h_+"),
                  zero(sp.Max(-k, 0) - 0 * (-k), "off A, 1_A h = 0 = h_+"))
    return all_of(at_a,
                  cite("hockey_stick_event_form", "integrating 1_B h <= h_+ over z gives P(B|x) - e^eps P(B|x') <= "
                       "int (f_x - e^eps f_x')_+ for every event B, with equality at A = {f_x > e^eps f_x'}"),
                  _split(claim, _h, 0, upper=({_phi: 1 - r}, {r: 1 - _phi})))


register(Claim(
    id="htm.delta.event_form",
    title="Pointwise lemma behind the event form of delta (Section 1.4): phi h <= h_+ for every real h and "
          "0 <= phi <= 1",
    source=_src("Section 1.4"), kind="inequality",
    lhs=sp.Max(_h, 0), relation=">=", rhs=_phi * _h, conditions=(sp.Le(_phi, 1),),
    proof=_prove_event_form, enumeration=_event_form_enum,
    note="The statement checked is the pointwise kernel: for every value h of f_x(z) - e^eps f_x'(z) and every "
         "0 <= phi <= 1 (phi = 1_B(z) for an event B), phi h <= h_+, with equality for phi = 1_{h > 0}. Integrating "
         "gives the three printed forms of Section 1.4, delta(eps, x, x') = int (f_x - e^eps f_x')_+ = "
         "P(A|x) - e^eps P(A|x') = sup_B [P(B|x) - e^eps P(B|x')], A = {f_x > e^eps f_x'}: that step is the cited "
         "hockey-stick event form, not a check; the enumeration corroborates the three forms exactly for b = 0 on "
         "small designs. So delta(eps, x, x') is the least delta with DP(eps, delta, x, x')."))

# -- the split at m_t and M_t ---------------------------------------------------------------------
U_left, V_right = sp.Symbol("U", real=True), sp.Symbol("V", real=True)
_c = sp.exp(eps)


def _tail_form(side: str) -> Proof:
    """Beyond every atom, 2b (f_x - e^eps f_x')(z) = U e^{z/b} (left) or V e^{-z/b} (right): three samples."""
    sgn = 1 if side == "left" else -1
    edge = m_t if side == "left" else M_t
    at = [edge + sgn * dk for dk in d]                  # atoms of x beyond the edge, on the inner side
    atp = [edge + sgn * dk for dk in dp]
    zz = edge - sgn * w
    g = sum(qk * (kernel(zz, a) - _c * kernel(zz, ap)) for qk, a, ap in zip(q, at, atp)) / (2 * b)
    const = sum(qk * (sp.exp(-sgn * a / b) - _c * sp.exp(-sgn * ap / b)) for qk, a, ap in zip(q, at, atp))
    return zero(g - const * sp.exp(sgn * zz / b) / (2 * b),
                f"{side} tail, three samples: 2b (f_x - e^eps f_x')(z) = "
                f"{'U e^{z/b}' if sgn == 1 else 'V e^{-z/b}'} beyond every atom")


def _prove_tail(side: str):
    var = U_left if side == "left" else V_right

    def proof(claim: Claim) -> Proof:
        return all_of(_tail_form(side), _split(claim, var, 0))
    return proof


register(Claim(
    id="htm.delta.left_tail",
    title="Left tail of delta: int_{-oo}^{m_t} (U e^{z/b})_+ / (2b) dz = (1/2) U_+ e^{m_t/b} for every real "
          "U (b > 0)",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), first term"), kind="identity",
    lhs=sp.Integral(sp.Max(U_left * sp.exp(z / b), 0) / (2 * b), (z, -sp.oo, m_t)),
    rhs=sp.Max(U_left, 0) * sp.exp(m_t / b) / 2, proof=_prove_tail("left"),
    note="Left of every atom (z <= m_t), 2b (f_x - e^eps f_x')(z) = U e^{z/b} with U = sum_s p(s)(e^{-t(x,s)/b} - "
         "e^eps e^{-t(x',s)/b}); that tail form is a step of the proof, checked on a generic design with three "
         "samples whose atoms are all >= m_t. The integral is checked for U <= 0 and U > 0. The first displayed "
         "lines of the source show "
         "neither the factor (2b)^{-1} nor e^eps in this term (reading htm.delta.reading.tail_factors)."))
register(Claim(
    id="htm.delta.right_tail",
    title="Right tail of delta: int_{M_t}^{oo} (V e^{-z/b})_+ / (2b) dz = (1/2) V_+ e^{-M_t/b} for every "
          "real V (b > 0)",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), second term"), kind="identity",
    lhs=sp.Integral(sp.Max(V_right * sp.exp(-z / b), 0) / (2 * b), (z, M_t, sp.oo)),
    rhs=sp.Max(V_right, 0) * sp.exp(-M_t / b) / 2, proof=_prove_tail("right"),
    note="Right of every atom (z >= M_t), 2b (f_x - e^eps f_x')(z) = V e^{-z/b} with V = sum_s p(s)(e^{t(x,s)/b} - "
         "e^eps e^{t(x',s)/b}); that tail form is a step of the proof, checked on a generic design with three "
         "samples whose atoms are all <= M_t. The integral is checked for V <= 0 and V > 0."))

reading("htm.delta.reading.tail_factors", _src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), first lines"),
        printed="= / (ZP (exp(-[z - #(w, )| /b) - exp(e )eXp(-lz-f(w'b)l/b)))) dz ... "
                "pls ( -i(zs)/b _ -f(r',S)b')) / ' exp(z/b) dz",
        reading="(2b)^{-1} int (sum_s p(s)(e^{-|z - t(x,s)|/b} - e^eps e^{-|z - t(x',s)|/b}))_+ dz, and on the left "
                "tail (2b)^{-1} (sum_s p(s)(e^{-t(x,s)/b} - e^eps e^{-t(x',s)/b}))_+ int_{-oo}^{m_t} e^{z/b} dz",
        why="The following lines of the same display, (1/2)(sum_s p(s)(e^{-t(x,s)/b} - e^eps e^{-t(x',s)/b}))_+ e^{m_t/b} "
            "and (2b)^{-1} int_{m_t}^{M_t} (...)_+ dz, and the density of Section 2.2, have the factor (2b)^{-1} of the "
            "Laplace kernel and the factor e^eps; int_{-oo}^{m_t} e^{z/b} dz = b e^{m_t/b} turns (2b)^{-1} into 1/2.",
        alternatives="An omission in the first lines themselves (they would then be 2b delta); no later line or "
                     "result depends on it.",
        claims=("htm.delta.left_tail", "htm.delta.right_tail", "htm.delta.split"))
# a design with samples s_1, ..., s_K: p_k = p(s_k), t_k = t(x, s_k), t'_k = t(x', s_k), every estimate in [m_t, M_t]
k_s = sp.Symbol("k", integer=True, positive=True)
K_s = sp.Symbol("K", integer=True, positive=True)
p_s = sp.IndexedBase("p", nonnegative=True)
t_x = sp.IndexedBase(r"\hat t", real=True)
t_xp = sp.IndexedBase(r"\hat t'", real=True)
_H = sp.Sum(p_s[k_s] * (kernel(z, t_x[k_s]) - _c * kernel(z, t_xp[k_s])), (k_s, 1, K_s))     # 2b (f_x - e^eps f_x')(z)
_U = sp.Sum(p_s[k_s] * (sp.exp(-t_x[k_s] / b) - _c * sp.exp(-t_xp[k_s] / b)), (k_s, 1, K_s))
_V = sp.Sum(p_s[k_s] * (sp.exp(t_x[k_s] / b) - _c * sp.exp(t_xp[k_s] / b)), (k_s, 1, K_s))
_DELTA_B = defined(r"\delta_{Z_b,X}(\varepsilon,x,x')", sp.Integral(sp.Max(_H, 0) / (2 * b), (z, -sp.oo, sp.oo)))
_MIDDLE = defined(r"\frac{1}{2b}\int_{m_t}^{M_t}\Big(\sum_s p(s)(e^{-|z-\hat t(x,s)|/b}"
                  r" - e^{\varepsilon} e^{-|z-\hat t(x',s)|/b})\Big)_+ dz",
                  sp.Integral(sp.Max(_H, 0) / (2 * b), (z, m_t, M_t)))
_U_SUM = defined(r"\sum_s p(s)(e^{-\hat t(x,s)/b} - e^{\varepsilon} e^{-\hat t(x',s)/b})", _U)
_V_SUM = defined(r"\sum_s p(s)(e^{\hat t(x,s)/b} - e^{\varepsilon} e^{\hat t(x',s)/b})", _V)
_ESTIMATES = (sp.Le(m_t, t_x[k_s]), sp.Le(t_x[k_s], M_t), sp.Le(m_t, t_xp[k_s]), sp.Le(t_xp[k_s], M_t))


def _prove_split(claim: Claim) -> Proof:
    """Left of m_t, every |z - t_k| is t_k - z, so the sum is e^{z/b} U; right of M_t it is e^{-z/b} V (each checked
    on one term of the sum); the three integrals add up to the integral over the line (cited), and the tails are
    integrated for U, V of either sign."""
    from ..engine.suprema import conclude_line_split
    from ..engine.proofs import term_symbol
    one, one_p = term_symbol(t_x[k_s]), term_symbol(t_xp[k_s])
    left = Parametrization(forward={z: m_t - w1, one: m_t + d[0], one_p: m_t + dp[0]},
                           inverse={w1: m_t - z, d[0]: one - m_t, dp[0]: one_p - m_t})
    right = Parametrization(forward={z: M_t + w1, one: M_t - d[0], one_p: M_t - dp[0]},
                            inverse={w1: z - M_t, d[0]: M_t - one, dp[0]: M_t - one_p})
    return conclude_line_split(claim, z, [m_t, M_t],
                               {0: (_H, sp.exp(z / b) * _U, left), 2: (_H, sp.exp(-z / b) * _V, right)},
                               signs=[_U, _V])


w1 = sp.Symbol("w", positive=True)

register(Claim(
    id="htm.delta.split",
    title="delta(eps,x,x') = (1/2) U_+ e^{m_t/b} + (1/2) V_+ e^{-M_t/b} + (2b)^{-1} int_{m_t}^{M_t} (...)_+ dz, for a "
          "design with samples s_1..s_K whose estimates t(x,s_k), t(x',s_k) lie in [m_t, M_t], b > 0",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x')"), kind="identity",
    lhs=_DELTA_B,
    rhs=sp.Max(_U_SUM, 0) * sp.exp(m_t / b) / 2 + sp.Max(_V_SUM, 0) * sp.exp(-M_t / b) / 2 + _MIDDLE,
    conditions=(sp.Le(m_t, M_t),) + _ESTIMATES, proof=_prove_split,
    note="U = sum_s p(s)(e^{-t(x,s)/b} - e^eps e^{-t(x',s)/b}) and V = sum_s p(s)(e^{t(x,s)/b} - e^eps e^{t(x',s)/b}) "
         "over the samples s_1, ..., s_K of any design (p_k = p(s_k), t_k = t(x, s_k), t'_k = t(x', s_k)); delta(eps, x, "
         "x') = (2b)^{-1} int (sum_s p(s)(e^{-|z - t(x,s)|/b} - e^eps e^{-|z - t(x',s)|/b}))_+ dz over the line. m_t = "
         "min and M_t = max of the union of the supports of f_{Z_0|X=x} over the domain, so every estimate lies in "
         "[m_t, M_t] (the conditions, for every k). The integral over the line is split at m_t and M_t (additivity, "
         "cited); left of m_t the integrand is (U e^{z/b})_+/(2b), right of M_t it is (V e^{-z/b})_+/(2b), each "
         "checked term by term for any K, and the two tails are integrated for U and V of either sign "
         "(htm.delta.left_tail, htm.delta.right_tail)."))


def _tail_by_atoms_enum() -> Enumeration:
    return tail_by_atoms_check()


def tail_by_atoms_check(rhs_sign: int = 1) -> Enumeration:
    """sum_s p(s) r^{-t(x,s)} = sum_y r^{-y} f_{Z_0|X=x}(y), exact with integer atoms and r = 2 (b = 1/ln 2).
    ``rhs_sign = -1`` puts the wrong sign in the exponent of the right-hand side (a negative control)."""
    n = 0
    r = Fraction(2)
    for name, design, grid in DESIGNS[:1] + DESIGNS[5:]:
        pi = _inclusion(design)
        for x in itertools.product(grid, repeat=len(pi)):
            f = pmf(design, x)
            for sign in (1, -1):
                n += 1
                lhs = sum((p * r ** (-sign * ht(x, s, pi)) for p, s in design), Fraction(0))
                rhs = sum((f[a] * r ** (-rhs_sign * sign * a) for a in f), Fraction(0))
                if lhs != rhs:
                    return _fail(n, "grouping by atoms changed the sum", name, x, "-")
    return Enumeration(True, n, "b = 1/ln 2 so that e^{-+y/b} = 2^{-+y} is rational; both tails",
                       scope="SRS 2-of-4 and census N=3 with integer values, b = 1/ln 2")


sigma = sp.Symbol("sigma", integer=True)                         # -1 for the left tail, +1 for the right
J_atoms = sp.Symbol("J", integer=True, positive=True)           # the number of atoms of f_{Z_0|X=x}
atom = sp.IndexedBase("y", real=True)                            # the atoms y_1 < ... < y_J
f_atom = sp.IndexedBase(r"f_{Z_0|X=x}", nonnegative=True)        # f_{Z_0|X=x}(y_j)
_jj = sp.Symbol("j", integer=True)
_TAIL_SUM = sp.Symbol(r"\sum_s p(s) e^{-\sigma \hat t(x,s)/b}")


register(Claim(
    id="htm.delta.tail_by_atoms",
    title="Section 2.2, last form of the tails: sum_s p(s) e^{-sigma t(x,s)/b} = sum_{j=1}^J e^{-sigma y_j/b} "
          "f_{Z_0|X=x}(y_j) over the atoms y_1..y_J of f_{Z_0|X=x}, sigma = +-1, b > 0",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), last form"), kind="identity",
    lhs=_TAIL_SUM, rhs=sp.Sum(sp.exp(-sigma * atom[_jj] / b) * f_atom[_jj], (_jj, 1, J_atoms)),
    conditions=(sp.Eq(sp.Abs(sigma), 1),), enumeration=_tail_by_atoms_enum,
    limitation=("Nothing in the statement ties the atoms y_j and their masses f_{Z_0|X=x}(y_j) to the design's "
                "samples (the engine cannot write down a general design's law for a symbolic number of samples), "
                "so the regrouping by atom values is checked exactly on two designs."),
    note="Printed with e^{-+ .../b} (sigma = -1: the left tail, sigma = 1: the right tail) and a sum over y. The left "
         "side sums over the samples s of the design; y_1, ..., y_J are the distinct values of t(x, s) (the atoms of "
         "f_{Z_0|X=x}, the law of Z_0 = t(x, S) given X = x) and f_{Z_0|X=x}(y_j) = sum of p(s) over the samples with "
         "t(x, s) = y_j. For every design it is the change of variables for the image measure (Billingsley 1995, Thm "
         "16.13) with g(y) = e^{-sigma y/b}; the regrouping is checked exactly on SRS 2-of-4 and the census N = 3 "
         "(b = 1/ln 2)."))

# -- the positive part of alpha e^{z/b} + beta e^{-z/b} between two atoms (closed form) --------------
a_, c_ = sp.symbols("alpha gamma", positive=True)   # alpha > 0 and beta = -gamma < 0
u_, v_ = sp.symbols("u v", real=True)
z0 = b / 2 * sp.log(c_ / a_)


def _prove_by_conclusion(claim: Claim) -> Proof:
    return conclude(claim)


def _prove_by_evaluation(claim: Claim) -> Proof:
    return conclude_evaluation(claim)


register(Claim(
    id="htm.delta.interval_sinh_form",
    title="alpha e^{z/b} - gamma e^{-z/b} = 2 sqrt(alpha gamma) sh((z - z_0)/b), z_0 = (b/2) "
          "ln(gamma/alpha), alpha, gamma > 0",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=a_ * sp.exp(z / b) - c_ * sp.exp(-z / b), rhs=2 * sp.sqrt(a_ * c_) * sp.sinh((z - z0) / b),
    note="Between consecutive atoms f_x - e^eps f_x' = alpha e^{z/b} + beta e^{-z/b}. If alpha and beta have "
         "the same sign the positive part is the function or 0; otherwise (alpha > 0 > beta = -gamma) it is "
         "positive exactly for z > z_0 (sh is increasing), and for alpha < 0 < beta exactly for z < z_0 (apply "
         "this to -f)."))
_anti = b * a_ * sp.exp(z / b) + b * c_ * sp.exp(-z / b)
register(Claim(
    id="htm.delta.interval_positive_part",
    title="int_{z_0}^{v} (alpha e^{z/b} - gamma e^{-z/b}) dz = b alpha e^{v/b} + b gamma e^{-v/b} - 2 b "
          "sqrt(alpha gamma) for v >= z_0",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=sp.Integral(a_ * sp.exp(z / b) - c_ * sp.exp(-z / b), (z, z0, v_)),
    rhs=_anti.subs(z, v_) - 2 * b * sp.sqrt(a_ * c_), conditions=(sp.Ge(v_, z0),),
    proof=_prove_by_evaluation,
    note="With the sh form, this is the integral of the positive part over [u, v] when u <= z_0 <= v and "
         "alpha > 0 > beta; for z_0 <= u the integral runs from u (antiderivative b alpha e^{z/b} - b beta "
         "e^{-z/b}). The mirrored case int_u^{z_0} (gamma e^{-z/b} - alpha e^{z/b}) dz has the same form at u."))
register(Claim(
    id="htm.delta.interval_positive_part_decreasing",
    title="int_{u}^{z_0} (gamma e^{-z/b} - alpha e^{z/b}) dz = b gamma e^{-u/b} + b alpha e^{u/b} - 2 b "
          "sqrt(alpha gamma) for u <= z_0",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=sp.Integral(c_ * sp.exp(-z / b) - a_ * sp.exp(z / b), (z, u_, z0)),
    rhs=_anti.subs(z, u_) - 2 * b * sp.sqrt(a_ * c_), conditions=(sp.Le(u_, z0),),
    proof=_prove_by_evaluation))

# -- the census (no sampling) limit: the plain Laplace mechanism -------------------------------------
Delta = sp.Symbol("Delta", positive=True)
_zc = (Delta + b * eps) / 2
_census_lhs = (1 - sp.exp((_zc - Delta) / b) / 2) - sp.exp(eps) * sp.exp(-_zc / b) / 2
_census_rhs = 1 - sp.exp((eps - Delta / b) / 2)


def _prove_census(claim: Claim) -> Proof:
    h = sp.Symbol("h", nonnegative=True)
    theta = sp.Symbol("theta", nonnegative=True)
    kk = sp.Symbol("k", nonnegative=True)
    log_ratio = (sp.Abs(z) - sp.Abs(z - Delta)) / b          # ln f_x/f_x', t(x') = 0, t(x) = Delta
    inside = Delta * theta / (1 + theta)                      # covers [0, Delta)
    eps_in = Delta / b - kk                                   # eps <= Delta/b
    steps = [
        zero(log_ratio.subs(z, -h) + Delta / b, "z <= 0: ln f_x/f_x' = -Delta/b < 0 <= eps, so z is not in A"),
        zero(log_ratio.subs(z, inside) - (2 * inside - Delta) / b,
             "0 <= z < Delta: ln f_x/f_x' = (2z - Delta)/b"),
        zero((2 * z - Delta) / b - eps - 2 * (z - _zc) / b,
             "there ln f_x/f_x' - eps = 2(z - z_0)/b: in A exactly for z > z_0 = (Delta + b eps)/2"),
        zero(log_ratio.subs(z, Delta + h) - Delta / b, "z >= Delta: ln f_x/f_x' = Delta/b >= eps, so z is in A"),
        mechanical(has_sign(_zc, "positive") and has_sign((Delta - _zc).subs(eps, eps_in), "nonnegative"),
                   "0 < z_0 <= Delta when eps <= Delta/b, so A = (z_0, oo)"),
        zero(sp.integrate(sp.exp((z - Delta) / b) / (2 * b), (z, _zc, Delta))
             + sp.integrate(sp.exp(-(z - Delta) / b) / (2 * b), (z, Delta, sp.oo))
             - (1 - sp.exp((_zc - Delta) / b) / 2), "P(Z > z_0 | x) = 1 - e^{(z_0 - Delta)/b}/2 (z_0 <= Delta)"),
        zero(sp.integrate(sp.exp(-z / b) / (2 * b), (z, _zc, sp.oo)) - sp.exp(-_zc / b) / 2,
             "P(Z > z_0 | x') = e^{-z_0/b}/2 (z_0 >= 0)"),
        mechanical(has_sign((Delta / b - eps).subs(eps, Delta / b + kk), "nonpositive"),
                   "beyond, eps >= Delta/b: ln f_x/f_x' <= Delta/b <= eps everywhere, A is empty and delta = 0"),
        cite("hockey_stick_event_form", "delta(eps, x, x') = P(Z in A | x) - e^eps P(Z in A | x') with "
                                        "A = {f_x > e^eps f_x'} = (z_0, oo)"),
    ]
    return all_of(*steps, conclude(claim))


CENSUS = register(Claim(
    id="htm.census.delta",
    title="Census (p(U) = 1), t(x) - t(x') = Delta > 0, eps <= Delta/b: P(Z_b > z_0|x) - e^eps P(Z_b > "
          "z_0|x') = 1 - e^{(eps - Delta/b)/2}",
    source=_src("Section 1.4 applied to the census design (Z_b = t(x) + bW)"), kind="identity",
    lhs=_census_lhs, rhs=_census_rhs, conditions=(sp.Le(eps, Delta / b),), proof=_prove_census,
    note="lhs = P(Z in A | x) - e^eps P(Z in A | x') with A = (z_0, oo), z_0 = (Delta + b eps)/2, t(x') = 0, "
         "t(x) = Delta; the proof locates A from ln f_x/f_x' on the three pieces of the line. For eps >= Delta/b "
         "the ratio never exceeds e^{Delta/b} <= e^eps, so delta = 0 (a step of the proof). This is the "
         "no-sampling limit of the mechanism, the plain Laplace mechanism with sensitivity Delta. That the lhs is "
         "delta(eps, x, x') rests on the hockey-stick event form (cited), delta = P(Z in A | x) - e^eps P(Z in A | x') "
         "with A = {f_x > e^eps f_x'}, and on the location of A, checked in the proof's steps."))
formula("laplace_mechanism_delta", sp.Max(0, _census_rhs), (eps, Delta, b), ("htm.census.delta",),
        _src("Section 1.4, census design"),
        "delta(eps) of the Laplace mechanism with sensitivity Delta and scale b: max(0, 1 - e^{(eps - Delta/b)/2}).")

# ================================================================================================
# 2.1  b = 0: Results 1-4
# ================================================================================================


def _tv(f: dict, g: dict) -> Fraction:
    return delta0(f, g, Fraction(1))


_RELEASE_LAWS: dict = {}


def _release_laws(design, x):
    """Laws of three releases: (S, x_S) labelled, the multiset of x_S, and the HT estimate (cached: the
    enumerations revisit each x)."""
    def compute():
        laws = ({}, {}, pmf(design, x))
        for p, s in design:
            if p > 0:
                for law, k in zip(laws, (tuple((j, x[j]) for j in sorted(s)), tuple(sorted(x[j] for j in s)))):
                    law[k] = law.get(k, Fraction(0)) + p
        return laws
    return _cached(_RELEASE_LAWS, design, tuple(x), compute)


def _result1_enum() -> Enumeration:
    n = 0
    for name, design, x, xp, i in neighbour_pairs():
        pi = _inclusion(design)
        pmax = max(pi.values())
        for what, f, g in zip(("labelled survey data", "unlabelled values", "HT estimate"),
                              _release_laws(design, x), _release_laws(design, xp)):
            n += 1
            tv = _tv(f, g)
            if tv > pmax or (what == "labelled survey data" and tv != pi[i]):
                return _fail(n, f"delta(0) of the {what} is {tv} (max p_j = {pmax}, p_i = {pi[i]})", name, x, xp, i)
    return Enumeration(True, n, "three releases (labelled data (S, x_S), unlabelled values, HT estimate); "
                                "delta(0) of the labelled data equals p_i exactly", scope=SCOPE_DESIGNS)


def _obs_pair_steps() -> Proof:
    return all_of(*(zero(_obs_delta0(i) - _pi3[i],
                         f"neighbours differing at unit {i + 1}: obs_x(s) = obs_x'(s) for s without the unit, "
                         f"obs_x(s) != obs_x'(s) otherwise (x'_{i + 1} != x_{i + 1}): delta_obs(0, x, x') = p_{i + 1}")
                    for i in range(3)))


def _prove_r1(claim: Claim) -> Proof:
    return all_of(_obs_pair_steps(), conclude(claim))


register(Claim(
    id="htm.r1.delta0_bound",
    title="Result 1, every design on 3 units: delta_obs(0, x, x') <= max_j p_j for neighbours x, x' "
          "differing at unit i = 1, 2 or 3",
    source=_src("Section 2.1, Result 1"), kind="inequality",
    lhs=sp.Max(*_pi3), relation=">=", rhs=sp.Max(*(_obs_delta0(i, evaluate=False) for i in range(3)), evaluate=False),
    proof=_prove_r1, enumeration=_result1_enum,
    note="rhs: the supremum of delta(0, x, x') over all neighbouring pairs of R^3, computed from the laws of "
         "obs_x(S) = (S, x_S) under a generic design on 3 units (8 sample probabilities, symbolic values); a domain "
         "X with a total constraint has fewer pairs, so a smaller or equal supremum. Only the samples containing the "
         "changed unit give different outcomes, the same for any N. Every statistic of the survey data is a function "
         "of obs (data processing), hence DP(0, max_i p_i) too. The proof's steps check delta_obs(0, x, x') = p_i "
         "for neighbours differing at unit i; with the statement this gives Result 1, delta_{obs_X(S),X}(0) <= "
         "max_i p_i."))


# -- Result 2, first part: when delta(0) = max_j p_j -----------------------------------------------
def _prove_r2_obs(claim: Claim) -> Proof:
    swaps = [(0, 1), (1, 2)]
    sym = all_of(*(zero(sum(_x3) - sum(_x3[:i] + (_x3[j],) + _x3[i + 1:j] + (_x3[i],) + _x3[j + 1:]),
                        f"t(x) is unchanged by exchanging units {i + 1} and {j + 1}: X = {{x in X_1^N : t(x) in "
                        "[m_t, M_t]}} is symmetric, so a neighbouring pair at one unit gives one at every unit")
                   for i, j in swaps))
    return all_of(sym, _obs_pair_steps(), conclude(claim))


R2_OBS = register(Claim(
    id="htm.r2.tight",
    title="Result 2, survey data, every design on 3 units: max over i of delta_obs(0, x, x') for neighbours "
          "differing at unit i = max_j p_j",
    source=_src("Section 2.1, Result 2"), kind="identity",
    lhs=sp.Max(*(_obs_delta0(i, evaluate=False) for i in range(3)), evaluate=False), rhs=sp.Max(*_pi3),
    proof=_prove_r2_obs,
    note="Result 2 for the survey data: if X contains two neighbours, delta_{obs(X,S),X}(0) = max_j p_j (Result 1 "
         "is attained). lhs: the supremum over neighbouring pairs when every unit has one, computed from the laws "
         "of obs; X is "
         "symmetric in the units, so one neighbouring pair gives one at every unit. X has two neighbours when it is "
         "infinite and m_t < M_t (X is compact: a limit point x* of X and a nearby x of X differ at some unit k "
         "whose change x_k - x*_k moves the total away from the end of [m_t, M_t] that t(x*) touches, if any; "
         "x* with x*_k replaced by x_k is then in X, a neighbour of x*), and when the total constraint does "
         "not bind and card X_1 >= 2; X_1 infinite is not enough (finding htm.r2.finding.no_neighbours). Without two neighbours the "
         "supremum is over identical pairs only, and delta_{obs(X,S),X}(0) = 0."))

_N, _n = sp.symbols("N n", integer=True, positive=True)
_m1, _M1 = sp.symbols("m_1 M_1", real=True)
_card_inf = sp.Symbol(r"\mathrm{card}\,\mathcal{X}_1")


def _frac(v) -> Fraction:
    v = sp.nsimplify(v)
    return Fraction(int(v.p), int(v.q))


def _neighbours(X):
    """Ordered pairs (x, x', i) of X differing exactly at unit i."""
    for x in X:
        for y in X:
            diff = [j for j in range(len(x)) if x[j] != y[j]]
            if len(diff) == 1:
                yield x, y, diff[0]


def _obs_law(design, x) -> dict:
    law: dict = {}
    for p, s in design:
        if p > 0:
            key = (tuple(sorted(s)), tuple(x[j] for j in sorted(s)))
            law[key] = law.get(key, Fraction(0)) + p
    return law


class DeltaObsInfiniteX1(sp.Function):
    """delta_{obs(X,S),X}(0) for SRS(N, n), X_1 = {0, 1, 10} u {10 + 1/k : k >= 1} (closed, bounded, infinite,
    m_1 = 0, M_1 = 11) and totals in [m_t, M_t] with M_t < 10, by exact enumeration of the neighbouring pairs
    (0 when there is none).  Arguments: (N, n, m_1, M_1, card X_1, m_t, M_t); the descriptors m_1, M_1 and
    card X_1 must be those of this X_1."""

    nargs = 7

    @classmethod
    def eval(cls, N, n, m1, M1, card, lo, hi):
        if not all(sp.sympify(a).is_number for a in (N, n, m1, M1, lo, hi)) or card != sp.oo:
            return None
        if (m1, M1) != (0, 11):
            raise ValueError("m_1, M_1 must be those of X_1 = {0, 1, 10} u {10 + 1/k}: 0 and 11")
        lo, hi = _frac(lo), _frac(hi)
        if hi >= 10:
            return None                       # the infinite part of X_1 would enter: not enumerated
        values = [v for v in (0, 1) if v <= hi]     # every value is >= 0, so each is <= M_t
        design = srs(int(N), int(n))
        X = [x for x in itertools.product(values, repeat=int(N)) if lo <= sum(x) <= hi]
        best = max((_tv(_obs_law(design, x), _obs_law(design, y)) for x, y, i in _neighbours(X)),
                   default=Fraction(0))
        return sp.Rational(best.numerator, best.denominator)

    def _latex(self, printer, exp=None):
        return r"\delta_{\mathrm{obs}(X,S),X}(0)"


R2_OBS_CEX = {_N: 5, _n: 2, _m1: 0, _M1: 11, _card_inf: sp.oo, m_t: sp.Rational(1, 2), M_t: sp.Rational(3, 2)}
reading("htm.r2.reading.infinite_set", _src("Section 2.1, Result 2"), printed="If X} is infinite",
        reading="If X_1 is infinite (the set of values of one unit)",
        why="The OCR renders the subscript 1 of the calligraphic X_1 as '}' (Section 1.2: 'a closed bounded set A}'); "
            "the interpretation after Result 1 speaks of a finite strict subset of X(1).",
        alternatives="'If X is infinite' (the domain): then, with m_t < M_t, X contains two neighbours and the "
                     "statement holds (htm.r2.tight).",
        claims=("htm.r2.tight_degenerate_instance", "htm.r2.tight"))
with sp.evaluate(False):     # kept unevaluated: the engine computes it (enumeration of the pairs) when it checks
    _DELTA_OBS_INSTANCE = DeltaObsInfiniteX1(*(R2_OBS_CEX[k] for k in (_N, _n, _m1, _M1, _card_inf, m_t, M_t)))
R2_DEGENERATE = register(Claim(
    id="htm.r2.tight_degenerate_instance",
    title="Result 2, a degenerate instance: X_1 = {0, 1, 10} u {10 + 1/k} (infinite), SRS(5, 2), totals in [1/2, 3/2]: "
          "delta_{obs(X,S),X}(0) = 0",
    source=_src("Section 2.1, Result 2 and Section 1.2 (X_1, [m_t, M_t])"), kind="identity",
    lhs=defined(r"\delta_{\mathrm{obs}(X,S),X}(0)", _DELTA_OBS_INSTANCE), rhs=0,
    proof=conclude_evaluation,
    note="lhs: delta_{obs(X,S),X}(0) for this instance, the supremum of delta_obs(0, x, x') over the neighbouring "
         "pairs of X (0 when there is none), computed by exact enumeration when the claim is checked. "
         "X_1 = {0, 1, 10} u {10 + 1/k : k >= 1} is closed (its only limit point 10 belongs to it), bounded and "
         "infinite, m_1 = 0, M_1 = 11; the printed strict inequalities N m_1 < m_t < M_t < N M_1 hold "
         "(0 < 1/2 < 3/2 < 55). Only 0 and 1 fit, X = {x in {0,1}^5 : t(x) = 1}, and two points of X differ at two "
         "units: X has no neighbouring pair (a pair differing at unit i would give delta_obs(0, x, x') = "
         "p_i = 2/5 > 0, htm.r1.delta0_bound). So the value 0 is below max_j p_j = 2/5, the value the printed "
         "Result 2 gives."))
finding(
    "htm.r2.finding.no_neighbours", _src("Section 2.1, Result 2"),
    "Result 2 ('If X_1 is infinite, then delta_{obs(X,S),X}(0) = max_j p_j') tacitly assumes that X contains two "
    "neighbours. For the survey data, delta_obs(0, x, x') = p_i for neighbours differing at unit i, and X is "
    "symmetric in the units, so delta_obs(0) = max_j p_j exactly when X has a neighbouring pair (claim "
    "htm.r2.tight), and 0 otherwise. X_1 infinite does not guarantee a pair under a total constraint: claim "
    "htm.r2.tight_degenerate_instance gives X_1 infinite, SRS(5, 2), totals in [1/2, 3/2] and no pair at all. In "
    "that degenerate case every mechanism is (0, 0)-DP on X and the question is vacuous, so this is a missing "
    "non-degeneracy hypothesis, not an error of the result. For the Horvitz-Thompson release the same X_1 gives "
    "delta_{Z_0,X}(0) = 1/5 < 2/5 with totals in [2, 3] (a non-degenerate failure of the re-targeted statement; see "
    "htm.r2.tight_ht for the hypothesis under which it holds).",
    claims=("htm.r2.tight", "htm.r2.tight_degenerate_instance", "htm.r2.tight_ht"))


# -- Result 2 for the HT estimate (the toolkit's statement) ------------------------------------------
_mu, _mu_p = sp.symbols(r"\mu \mu'", nonnegative=True)     # masses at one atom of the samples containing j


def _kd_difference(x, xp, samples):
    return sum((_p3[s] * (sp.KroneckerDelta(z, _ht3(x, s)) - sp.KroneckerDelta(z, _ht3(xp, s))) for s in samples),
               sp.S.Zero)


_F_DIFF = _kd_difference(_x3, _neighbour3(0), _SAMPLES3)                       # f_x(z) - f_x'(z)
_MU_DIFF = _kd_difference(_x3, _neighbour3(0), [s for s in _SAMPLES3 if 0 in s])


def _prove_r2_ht(claim: Claim) -> Proof:
    T, T2, xj, v = sp.symbols("T T' x_j v", real=True)
    pj = sp.Symbol("p_j", positive=True)
    bad = sp.solve(sp.Eq(T + xj / pj, T2 + v / pj), v)
    return all_of(
        zero(_F_DIFF - _MU_DIFF, "f_x - f_x' = mu_x - mu_x', the laws of the samples containing the changed unit "
                                 "(checked on every design on 3 units; for any N a sample without it gives the same "
                                 "atom under x and x', its terms x_k/p_k being unchanged)"),
        mechanical(len(bad) == 1, "t_{-j}(x,s) + x_j/p_j = t_{-j}(x,s') + v/p_j has exactly one solution v: each "
                                  "pair (s, s') of samples containing j excludes one value of x'_j, at most K^2 "
                                  "values in all, so an infinite section contains an x'_j for which mu_x and mu_x' "
                                  "have disjoint supports"),
        zero(sp.Min(_mu, 0), "on disjoint supports min(mu(z), mu'(z)) = 0 at every atom"),
        mechanical(has_sign(sp.Min(_mu, _mu_p), "nonnegative"),
                   "min(mu, mu') >= 0, so delta(0, x, x') = p_j - sum_z min(mu(z), mu'(z)) <= p_j <= max_k p_k"),
        _split(claim, _mu, _mu_p))


def _avoiding_value(design, x, i):
    """A value v for unit i such that every atom t(x', s), s containing i, avoids supp f_x."""
    pi = _inclusion(design)
    supp = set(pmf(design, x))
    bad = {pi[i] * (a - ht(x, s - {i}, pi)) for a in supp for p, s in design if p > 0 and i in s}
    v = Fraction(x[i]) + 1
    while v in bad:
        v += Fraction(1, 7)
    return v


def _result2_ht_enum() -> Enumeration:
    n = 0
    for name, design, grid in DESIGNS:
        pi = _inclusion(design)
        j = max(pi, key=lambda k: pi[k])
        for x in itertools.product(grid, repeat=len(pi)):
            n += 1
            xp = x[:j] + (_avoiding_value(design, x, j),) + x[j + 1:]
            if _tv(pmf(design, xp), pmf(design, x)) != pi[j]:
                return _fail(n, "the constructed pair does not attain max p_j", name, xp, x, j)
    return Enumeration(True, n, "for every x of the grid, x'_j chosen off the finite set of values that put an atom "
                                "of x' on supp f_x gives delta(0, x', x) = max p_j",
                       scope=SCOPE_DESIGNS + ", no total constraint")


register(Claim(
    id="htm.r2.tight_ht",
    title="Result 2 for the HT estimate, pointwise step: (mu - mu')_+ = mu - min(mu, mu') for masses mu, "
          "mu' >= 0 at one atom",
    source=_src("Section 2.1, Result 2 (applied to the Horvitz-Thompson estimate)"), kind="identity",
    lhs=sp.Max(_mu - _mu_p, 0), rhs=_mu - sp.Min(_mu, _mu_p),
    proof=_prove_r2_ht, enumeration=_result2_ht_enum,
    note="The statement checked is the pointwise identity (mu - mu')_+ = mu - min(mu, mu') at one atom; summed "
         "over the atoms (sum_z mu(z) = p_j) it gives delta(0, x, x') = p_j - sum_z min(mu_x(z), mu_x'(z)), mu the law "
         "of t(x, S) on the samples containing the changed unit j. Steps of the proof (not its conclusion) give the "
         "toolkit's Result 2 for the HT estimate: if the section {v in X_1 : (x_{-j}, v) in X} at a unit j with "
         "p_j = max_k p_k is infinite for some x in X, some x'_j makes the two masses disjoint and "
         "delta_{Z_0,X}(0) = max_k p_k; the enumeration corroborates it on small designs. The hypothesis is needed: "
         "the printed Result 2 concerns the survey data obs(X, S); for the HT estimate, X_1 infinite is not enough. "
         "With X_1 = {0, 1, 10} u {10 + 1/k}, SRS(5, 2) and totals in [2, 3], the sections lie in {0, 1}, every "
         "neighbouring pair has delta(0, x, x') = 1/5 and delta_{Z_0,X}(0) = 1/5 < 2/5 (while the survey data "
         "reach 2/5)."))


# -- Results 2 (second part) and 3: when is eps(0) infinite? ----------------------------------------
def _small_designs():
    """Every non-empty family of subsets of {0, 1} (N = 2) and of {0} (N = 1), equal and unequal weights,
    keeping the designs in which every unit can be sampled."""
    for N in (1, 2):
        subsets = [frozenset(c) for r in range(N + 1) for c in itertools.combinations(range(N), r)]
        for k in range(1, len(subsets) + 1):
            for fam in itertools.combinations(subsets, k):
                for wts in ([1] * k, list(range(1, k + 1))):
                    design = [(Fraction(a, sum(wts)), s) for a, s in zip(wts, fam)]
                    pi = {j: sum((p for p, s in design if j in s), Fraction(0)) for j in range(N)}
                    if all(pi[j] > 0 for j in range(N)):
                        yield N, design, pi


def _domains():
    """(N, design, V, m_t, M_t, binding, X, supports) for every small design, value set V of
    {-1, 0, 1, 2} with at least two values, and interval of attainable totals [m_t, M_t]."""
    values = (-1, 0, 1, 2)
    for N, design, pi in _small_designs():
        for r in range(2, len(values) + 1):
            for V in itertools.combinations(values, r):
                pts = list(itertools.product(V, repeat=N))
                supp = {x: frozenset(ht(x, s, pi) for p, s in design) for x in pts}
                totals = sorted({sum(x) for x in pts})
                for a, lo in enumerate(totals):
                    for hi in totals[a:]:
                        X = [x for x in pts if lo <= sum(x) <= hi]
                        yield N, design, V, lo, hi, (lo, hi) == (totals[0], totals[-1]), X, supp


def _sections(X, N):
    """For each (i, x): the x' of X equal to x except possibly at unit i (x included)."""
    inX = set(X)
    for x in X:
        for i in range(N):
            yield i, x, [x[:i] + (v,) + x[i + 1:] for v in {y[i] for y in X} if x[:i] + (v,) + x[i + 1:] in inX]


def _eps0_infinite(X, N, supp) -> bool:
    return any(supp[x] != supp[y] for i, x, sec in _sections(X, N) for y in sec)


def _result3_enum() -> Enumeration:
    n = applies = printed_fails = 0
    for N, design, V, lo, hi, binding, X, supp in _domains():
        n += 1
        with_i = {i: sum(1 for p, s in design if p > 0 and i in s) for i in range(N)}
        secs = list(_sections(X, N))
        infinite = _eps0_infinite(X, N, supp)
        without_i = {(i, x): len({ht(x, s, _inclusion(design)) for p, s in design if p > 0 and i not in s})
                     for i, x, sec in secs}
        if any(len(sec) >= 2 and len(sec) > without_i[(i, x)] for i, x, sec in secs):
            applies += 1
            if not infinite:
                return Enumeration(False, n, "corrected condition holds but eps(0) is finite",
                                   {"design": str(design), "V": str(V), "totals": f"[{lo}, {hi}]"})
        if any(len(sec) > with_i[i] for i, x, sec in secs) and not infinite:
            printed_fails += 1
    return Enumeration(True, n, f"the condition holds in {applies} domains, always with eps(0) = oo; the printed "
                                f"condition holds with a finite eps(0) in {printed_fails} domains",
                       scope="every design on N <= 2 units (all families of samples, two weightings), value sets "
                             "of {-1, 0, 1, 2}, all intervals of totals")


def _result2b_enum() -> Enumeration:
    n = 0
    for N, design, V, lo, hi, binding, X, supp in _domains():
        p_empty = sum((p for p, s in design if not s), Fraction(0))
        if binding and p_empty < 1 and len(V) >= 2 ** N:
            n += 1
            if not _eps0_infinite(X, N, supp):
                return Enumeration(False, n, "eps(0) finite", {"design": str(design), "V": str(V)})
    return Enumeration(True, n, "X = V^N, p(empty) < 1, card(V) >= 2^N: eps(0) = oo in every case",
                       scope="every design on N <= 2 units, every value set V of {-1, 0, 1, 2}, no total constraint")


# the separation argument: c_1 < ... < c_k the positions x'_i/p_i of the candidates of one section,
# A = {t_{-i}(x, s): s containing i} (min m_A, max M_A), B = the atoms of the samples without i.
_a_atom = sp.Symbol("a", real=True)                       # an element of A
_A_max, _A_min = sp.symbols("M_A m_A", real=True)
_c1, _cj = sp.symbols("c_1 c_j", real=True)


def _separation_steps(include_top: bool) -> Proof:
    al = sp.Symbol("alpha", nonnegative=True)
    ga = sp.Symbol("gamma", positive=True)
    f0, cc = sp.Symbol("f", positive=True), sp.Symbol("c", positive=True)
    P, Q = sp.symbols("P Q")
    steps = [
        mechanical(has_sign(((_a_atom + _cj) - (_A_min + _c1)).subs({_a_atom: _A_min + al, _cj: _c1 + ga}), "positive"),
                   "a + c_k > m_A + c_1 for every a >= m_A: the lowest atom m_A + c_1 of candidate 1 is below every "
                   "atom of candidate k from the samples containing i"),
        mechanical(has_sign(((_A_max + _c1 + ga) - (_A_min + _c1)).subs(_A_max, _A_min + al), "positive"),
                   "m_A + c_1 < M_A + c_2 < ... < M_A + c_k: k distinct points"),
        mechanical(sp.simplify_logic(sp.Implies((P | Q) & ~Q, P)) == sp.true,
                   "a point of supp = B u (A + c) that is not in A + c is in B: if all k supports were equal, the "
                   "k points would lie in B"),
        cite("pigeonhole_principle", "k distinct points in B need k <= card B; so k > card B (k >= 2) gives two "
                                     "candidates x', x'' (neighbours, differing at i) with supp f_x' != supp f_x''"),
        mechanical(sp.Max(f0 - cc * 0, 0) == f0 and f0.is_positive,
                   "at z_0 in supp f_x' \\ supp f_x'' (b = 0): (f_x'(z_0) - e^eps times 0)_+ = f_x'(z_0) > 0 for every eps, "
                   "so delta(eps, x', x'') > 0 for every eps and eps_{Z_0,X}(0) = +oo"),
    ]
    if include_top:
        steps.insert(1, mechanical(has_sign(((_A_max + _cj) - (_a_atom + _c1)).subs(
            {_A_max: _a_atom + al, _cj: _c1 + ga}), "positive"),
            "M_A + c_j > a + c_1 for every a <= M_A and j >= 2: the top atom of candidate j is above every atom of "
            "candidate 1 from the samples containing i"))
    return all_of(*steps)


def _prove_r3(claim: Claim) -> Proof:
    al = sp.Symbol("alpha", nonnegative=True)
    ga = sp.Symbol("gamma", positive=True)
    param = _param({_A_max: _a_atom + al, _cj: _c1 + ga}, {al: _A_max - _a_atom, ga: _cj - _c1}, claim)
    return all_of(_separation_steps(include_top=False), conclude(claim, param=param))


RESULT3 = Claim(
    id="htm.r3.corrected",
    title="Result 3, corrected, separation step: M_A + c_j > a + c_1 for a <= M_A, c_1 < c_j (A: the atoms "
          "t_{-i}(x,s), s ni i)",
    source=_src("Section 2.1, Result 3"), kind="inequality",
    lhs=_A_max + _cj, relation=">", rhs=_a_atom + _c1,
    conditions=(sp.Le(_a_atom, _A_max), sp.Lt(_c1, _cj)), proof=_prove_r3, enumeration=_result3_enum,
    note="Result 3, corrected: if, for some unit i (p_i > 0) and x in X, the section {x' in X: x'_{-i} = x_{-i}} "
         "has k >= 2 points and k > card{t(x,s): i not in s, p(s) > 0}, then eps_{Z_0,X}(0) = +oo. "
         "Let c_1 < ... < c_k be the values x'_i/p_i over the section, B the atoms of the samples without i (the "
         "same for every x' of the section) and A the atoms t_{-i}(x, s), s containing i (A is not empty: p_i > 0), "
         "so supp f_x' = B u (A + c). If all k supports were equal, m_A + c_1 (below every atom of A + c_k) and "
         "M_A + c_j, j >= 2 (above every atom of A + c_1) would be k distinct points of B. The statement checked is "
         "the separation inequality; the counting is the pigeonhole principle. In particular k > card{s: p(s) > 0, "
         "i not in s} with k >= 2 suffices. The enumeration corroborates the statement on small domains.")
register(RESULT3)

# the instance refuting the printed Results 2 (second part) and 3
_EX_DESIGN = [(Fraction(1, 3), frozenset()), (Fraction(1, 3), frozenset({0})), (Fraction(1, 3), frozenset({1}))]
_EX_X1 = (-4, -2, 0, 1, 3)
_card, _p_empty = sp.Symbol(r"\mathrm{card}\,\mathcal{X}_1", integer=True, positive=True), \
    sp.Symbol(r"p(\emptyset)", nonnegative=True)


def _example_domain(N, m1, M1, lo, hi):
    if (N, m1, M1) != (2, min(_EX_X1), max(_EX_X1)):
        raise ValueError(f"N, m_1, M_1 must describe the instance: 2, {min(_EX_X1)}, {max(_EX_X1)}")
    lo, hi = _frac(lo), _frac(hi)
    return [x for x in itertools.product(_EX_X1, repeat=2) if lo <= sum(x) <= hi]


def _example_eps0(X) -> sp.Expr:
    """eps_{Z_0,X}(0): +oo if some neighbouring pair has supp f_x not in supp f_x', else ln of the largest ratio."""
    best = None
    for x, y, i in _neighbours(X):
        f, g = pmf(_EX_DESIGN, x), pmf(_EX_DESIGN, y)
        if set(f) - set(g):
            return sp.oo
        r = max(f[a] / g[a] for a in f)
        best = r if best is None else max(best, r)
    return -sp.oo if best is None else sp.log(sp.Rational(best.numerator, best.denominator))


class EpsZeroExample(sp.Function):
    """eps_{Z_0,X}(0) of the HT estimate for p(empty) = p({1}) = p({2}) = 1/3 (N = 2), X_1 = {-4, -2, 0, 1, 3} and
    totals in [m_t, M_t], by exact enumeration.  Arguments (N, m_1, M_1, card X_1, p(empty), m_t, M_t); the
    descriptors must be those of the instance."""

    nargs = 7

    @classmethod
    def eval(cls, N, m1, M1, card, p0, lo, hi):
        if not all(sp.sympify(a).is_number for a in (N, m1, M1, card, p0, lo, hi)):
            return None
        if (card, p0) != (len(_EX_X1), sp.Rational(1, 3)):
            raise ValueError("card X_1 and p(empty) must describe the instance: 5 and 1/3")
        return _example_eps0(_example_domain(N, m1, M1, lo, hi))

    def _latex(self, printer, exp=None):
        return r"\varepsilon_{Z_0,X}(0)"


class SectionExcessExample(sp.Function):
    """max over (i, x in X) of card{x' in X: x'_{-i} = x_{-i}} - card{s: p(s) > 0, i in s} for the instance of
    :class:`EpsZeroExample`; Result 3's printed hypothesis is that this is > 0."""

    nargs = 5

    @classmethod
    def eval(cls, N, m1, M1, lo, hi):
        if not all(sp.sympify(a).is_number for a in (N, m1, M1, lo, hi)):
            return None
        X = _example_domain(N, m1, M1, lo, hi)
        with_i = {i: sum(1 for p, s in _EX_DESIGN if p > 0 and i in s) for i in range(2)}
        return max((len(sec) - with_i[i] for i, x, sec in _sections(X, 2)), default=-1)

    def _latex(self, printer, exp=None):
        return (r"\max_{i, x}\big(\mathrm{card}\{x' \in X: x'_{-i} = x_{-i}\} - "
                r"\mathrm{card}\{s: p(s) > 0, i \in s\}\big)")


_EX_ARGS = (_N, _m1, _M1, _card, _p_empty, m_t, M_t)
# the paper's notation for the two computed quantities of the instance (the engine unfolds them when it checks)
_EX_EPS0 = defined(r"\varepsilon_{Z_0,X}(0)", EpsZeroExample(*_EX_ARGS))
_EX_SECTION_EXCESS = defined(r"\max_{i,x}\big(\mathrm{card}\{x' \in X: x'_{-i} = x_{-i}\} - "
                             r"\mathrm{card}\{s: p(s) > 0, i \in s\}\big)",
                             SectionExcessExample(_N, _m1, _M1, m_t, M_t))
_EX_TOTALS = (sp.Lt(_N * _m1, m_t), sp.Lt(m_t, M_t), sp.Lt(M_t, _N * _M1))
_EX_CEX = {_N: 2, _m1: min(_EX_X1), _M1: max(_EX_X1), _card: len(_EX_X1),
           _p_empty: sp.nsimplify(sum(p for p, s in _EX_DESIGN if not s)), m_t: 1, M_t: 2}
_EX_NOTE = ("Design: p(empty) = p({1}) = p({2}) = 1/3 on N = 2 units (p_1 = p_2 = 1/3, atoms 0, 3 x_1, 3 x_2); "
            "X_1 = {-4, -2, 0, 1, 3} (closed, bounded, m_1 = -4, M_1 = 3, card 5 > 2^2); totals in [1, 2], so "
            "N m_1 = -8 < 1 < 2 < 6 = N M_1 (the printed strict inequalities, which imply the non-strict ones). "
            "X = {(-2, 3), (0, 1), (1, 0), (1, 1), (3, -2)} (card 5); its neighbouring pairs are (0,1)~(1,1) and "
            "(1,0)~(1,1), with supports {0, 3}: (0,1) and (1,0) put 2/3 on 0, (1,1) puts 2/3 on 3, so "
            "eps_{Z_0,X}(0) = ln 2 (lhs, computed from the laws).")
reading("htm.r3.reading.sample_count", _src("Section 2.1, Result 3"), printed="cardinal({s CU : p(s) > 0,1 € s})",
        reading="card{s subset of U : p(s) > 0, i in s}",
        why="The OCR prints the element sign as '€' throughout (Section 1.2 'i € U'), and '1' for i; the text after "
            "Result 3 speaks of the probability p_i that unit i is sampled.",
        alternatives="'i not in s' (a lost stroke): then the statement holds whenever the section has k >= 2 points "
                     "(htm.r3.corrected: k > card{s: i not in s} >= card B).",
        claims=("htm.r3.printed", "htm.r3.corrected"))
erratum("htm.r3.corrected",
        printed=Claim(id="htm.r3.printed",
                      title="Result 3 as printed, on the instance of the note: card{x' in X: x'_{-i} = x_{-i}} "
                            "> card{s: p(s) > 0, i in s} => eps_{Z_0,X}(0) = +oo",
                      source=_src("Section 2.1, Result 3 and Section 1.2 (X_1, [m_t, M_t])"), kind="identity",
                      lhs=_EX_EPS0, rhs=sp.oo,
                      conditions=_EX_TOTALS + (sp.Gt(_EX_SECTION_EXCESS, 0),),
                      counterexample=_EX_CEX,
                      note=_EX_NOTE + " Unit 1, x = (1, 1): two candidates (0, 1), (1, 1) > one sample containing "
                                      "unit 1, so the printed condition holds."),
        corrected=RESULT3,
        explanation="Counting only the samples that contain i is not enough: the samples without i also place "
                    "atoms, and the candidates' atoms can land on them. In the example the changed atom moves "
                    "between 0 (the empty sample's atom) and 3 (the other unit's atom), so every neighbouring pair "
                    "has the same support and eps(0) = ln 2. The count that works is that of the atoms of the samples "
                    "without i (k > card B, k >= 2); under the alternative reading 'i not in s' the printed statement "
                    "is this one for k >= 2 (reading htm.r3.reading.sample_count); the OCR renders 'not in' as a "
                    "different glyph elsewhere (Result 10: 'p_i ¢ {0,1}'), which supports 'in'. The paper contradicts "
                    "itself here: binary data under SRS(3, 1) with totals in [1, 2] meet the printed condition (two "
                    "candidates, one sample containing i), yet its Result 9 gives eps(0) = ln max{2/1, 2/1} = ln 2.",
        readings=("htm.r3.reading.sample_count",),
        printed_text="Result 3 ([eps_{Z_0,X}(0)] = +oo). If [exists i in U], [x in X], tel que "
                     "cardinal({[x' in X : x'_{-i} = x_{-i}]}) > cardinal({s [subset of] U : p(s) > 0, [i in] s}), "
                     "then [eps_{Z_0,X}(0)] = +oo.",
        corrected_text="Result 3, corrected: if for some i in U with p_i > 0 and some x in X the set "
                       "{x' in X : x'_{-i} = x_{-i}} has k >= 2 elements and k > cardinal({t(x,s) : s subset of U, "
                       "p(s) > 0, i not in s}), then eps_{Z_0,X}(0) = +oo. What is checked is its separation step: "
                       "M_A + c_j > a + c_1 for every atom a <= M_A of the samples containing i and every c_1 < c_j "
                       "(c = x'_i/p_i); the counting that concludes is the pigeonhole principle (cited).")


def _prove_r2b(claim: Claim) -> Proof:
    m, kk = sp.Symbol("m", integer=True, nonnegative=True), sp.Symbol("k", integer=True)
    subsets = sp.Sum(sp.binomial(m, kk), (kk, 0, m)).doit()
    return all_of(
        cite("fubini_tonelli", "sum_i p_i = sum_s p(s) card(s) >= sum_{s != empty} p(s) = 1 - p(empty) > 0, so some "
                               "unit i has p_i > 0"),
        mechanical(sp.simplify(subsets - 2**m) == 0, "the samples without i are subsets of the N - 1 other units: "
                                                     "sum_k C(N-1, k) = 2^{N-1} of them, so card B <= 2^{N-1}"),
        mechanical(has_sign(2**_N - 2, "nonnegative"), "k = card X_1 >= 2^N >= 2: the section of X = X_1^N at i is X_1"),
        _separation_steps(include_top=True),
        conclude(claim))


R2B = Claim(
    id="htm.r2.not_pure_unconstrained",
    title="Result 2, second part, for X = X_1^N, counting step: 2^N > 2^{N-1} for every integer N >= 1",
    source=_src("Section 2.1, Result 2 (second statement)"), kind="inequality",
    lhs=2**_N, relation=">", rhs=2**(_N - 1), proof=_prove_r2b, enumeration=_result2b_enum,
    note="The statement checked is the count 2^N > 2^{N-1}; with the separation argument of htm.r3.corrected (whose "
         "steps are repeated in the proof) it gives eps = +oo: the section of X_1^N at a unit i with p_i > 0 has "
         "card X_1 >= 2^N points, more than the at most 2^{N-1} atoms of the samples without i. card X_1 > 2^{N-1} "
         "would suffice. With a binding total constraint the statement fails (erratum htm.r2.not_pure).")
reading("htm.r2.reading.not_pure", _src("Section 2.1, Result 2 (second statement)"),
        printed="then the privacy mecanism associated with the scheme p and the Horvitz-Thompson estimator is not "
                "D.P. (¢, 0)",
        reading="is DP(eps, 0) for no eps, i.e. eps_{Z_0,X}(0) = +oo",
        why="'¢' is the OCR's epsilon in Section 1.4 ('DP_{Z,X}(¢, 9)' for DP(eps, delta)) and 0 is delta; with eps "
            "not quantified, the statement denies pure DP, as the heading of Result 3 (eps_{Z_0,X}(0) = +oo) does.",
        alternatives="For one given eps it would say eps_{Z_0,X}(0) > eps: the instance of the erratum (eps(0) = ln 2) "
                     "refutes it for every eps >= ln 2.",
        claims=("htm.r2.not_pure.printed",))
erratum("htm.r2.not_pure",
        printed=Claim(id="htm.r2.not_pure.printed",
                      title="Result 2, second part, as printed, on the instance of the note: p(empty) < 1 and "
                            "card X_1 > 2^N => eps_{Z_0,X}(0) = +oo",
                      source=_src("Section 2.1, Result 2 (second statement) and Section 1.2 (X_1, [m_t, M_t])"),
                      kind="identity", lhs=_EX_EPS0, rhs=sp.oo,
                      conditions=(sp.Lt(_p_empty, 1), sp.Gt(_card, 2**_N)) + _EX_TOTALS,
                      counterexample=_EX_CEX, note=_EX_NOTE),
        corrected=R2B,
        explanation="The domain X of Section 1.2 restricts the population total to [m_t, M_t]; then card X_1 >= 2^N "
                    "does not give many candidates for one unit given the others. With X_1 = {-4, -2, 0, 1, 3} "
                    "(card 5 > 2^2; card X = 5 too), p(empty) = 1/3 and totals in [1, 2], eps(0) = ln 2 is finite: "
                    "the mechanism is DP(ln 2, 0). 'Not D.P.(eps, 0)' is read as 'for no finite eps' "
                    "(eps_{Z_0,X}(0) = +oo, the heading of Result 3). Without a binding total constraint the "
                    "statement holds (htm.r2.not_pure_unconstrained).",
        readings=("htm.r2.reading.not_pure",),
        printed_text="If p([empty]) < 1, and if cardinal(X[_1]) > 2[^N], then the privacy mecanism associated with "
                     "the scheme p and the Horvitz-Thompson estimator is not D.P. ([eps], 0).",
        corrected_text="If X = X_1^N (no binding total constraint), p(empty) < 1 and cardinal(X_1) >= 2^N, then the "
                       "privacy mechanism associated with the scheme p and the Horvitz-Thompson estimator is not "
                       "D.P. (eps, 0) for any eps (eps_{Z_0,X}(0) = +oo). What is checked is its counting step "
                       "2^N > 2^{N-1} (at most 2^{N-1} samples avoid a unit i); the rest is the separation step of "
                       "Result 3, corrected, and the pigeonhole principle (cited).")


# -- Result 4 --------------------------------------------------------------------------------------
def _result4_enum() -> Enumeration:
    n = avoid = 0
    for name, design, x, xp, i, f, g in pair_laws():
        pi = _inclusion(design)
        n += 1
        with_i = {}
        ax, axp = _sample_atoms(design, x), _sample_atoms(design, xp)
        for (p, s), a_x, a_xp in zip(design, ax, axp):
            if p > 0 and i in s:
                for a, sign in ((a_x, 1), (a_xp, -1)):
                    with_i[a] = with_i.get(a, Fraction(0)) + sign * p
        printed = sum((max(v, Fraction(0)) for v in with_i.values()), Fraction(0))
        dlt = _tv(f, g)
        if dlt != printed or dlt > pi[i]:
            return _fail(n, f"delta(0) = {dlt}, printed sum = {printed}, p_i = {pi[i]}", name, x, xp, i)
        i_atoms = {a_x for (p, s), a_x in zip(design, ax) if p > 0 and i in s}
        if not i_atoms & set(g):
            avoid += 1
            if dlt != pi[i]:
                return _fail(n, "i-atoms of x avoid supp f_x' but delta(0) != p_i", name, x, xp, i)
    return Enumeration(True, n, f"delta(0) equals the printed sum and is <= p_i; in {avoid} pairs the atoms t(x,s), "
                                "s containing i, avoid supp f_x', and there delta(0, x, x') = p_i",
                       scope=SCOPE_DESIGNS)


def _sample_name(s) -> str:
    return r"\{" + ",".join(str(j + 1) for j in sorted(s)) + r"\}" if s else r"\emptyset"


def _indicator(x, s, which: str):
    """1_{z}(t(x, s)) in the paper's notation, meaning the Kronecker delta of z and the HT estimate."""
    return defined(r"1_{\{z\}}(\hat t(" + which + ", " + _sample_name(s) + "))", sp.KroneckerDelta(z, _ht3(x, s)))


def _pmf_at_z(x, which: str):
    """f_{Z_0|X=x}(z) = sum_s p(s) 1_{z}(t(x, s)) over every sample of the generic design on 3 units."""
    return defined(r"f_{Z_0|X=" + which + "}(z)",
                   sum((_p3[s] * sp.KroneckerDelta(z, _ht3(x, s)) for s in _SAMPLES3), sp.S.Zero))


register(Claim(
    id="htm.r4.delta0_pair",
    title="Result 4, every design on 3 units, x and x' differing at unit 1: f_x(z) - f_x'(z) = "
          "sum_{s ni 1} p(s) (1_{z}(t(x,s)) - 1_{z}(t(x',s))) for every z",
    source=_src("Section 2.2.1, Result 4"), kind="identity",
    lhs=_pmf_at_z(_x3, "x") - _pmf_at_z(_neighbour3(0), "x'"),
    rhs=sum((_p3[s] * (_indicator(_x3, s, "x") - _indicator(_neighbour3(0), s, "x'"))
             for s in _SAMPLES3 if 0 in s), sp.S.Zero),
    conditions=_PI3_POSITIVE, proof=_prove_by_conclusion, enumeration=_result4_enum,
    note="Generic design on 3 units (8 sample probabilities p(s), symbolic values), neighbours differing at unit 1 "
         "(the others by relabelling). lhs: the two laws of t(X, S) at z, sums over all 8 samples; rhs: the printed "
         "inner sum over the samples containing the changed unit. The check unfolds both: a sample without the "
         "changed unit gives the same atom under x and x' and its terms cancel, as for any N. Taking positive parts "
         "and summing over z gives the printed equality delta(0, x, x') = sum_z (sum_{s ni i} p(s)(1_{z}(t(x,s)) - "
         "1_{z}(t(x',s))))_+ (not a separate check). 1_{z}(t) is the Kronecker delta of z and t."))


def _prove_r4_bound(claim: Claim) -> Proof:
    k = sp.Symbol("k", nonnegative=True)
    k1 = sp.Symbol("k", positive=True)
    return conclude_split(claim, _mu_p - _mu,
                          lambda case: case.conclude(param=_param({_mu_p: _mu + k}, {k: _mu_p - _mu}, claim)),
                          lambda case: case.conclude(param=_param({_mu: _mu_p + k1}, {k1: _mu - _mu_p}, claim)))


register(Claim(
    id="htm.r4.bound",
    title="Result 4, the bound, pointwise: (mu - mu')_+ <= mu for masses mu, mu' >= 0 at one atom (samples "
          "containing i, under x and x')",
    source=_src("Section 2.2.1, Result 4"), kind="inequality",
    lhs=_mu, relation=">=", rhs=sp.Max(_mu - _mu_p, 0), proof=_prove_r4_bound,
    note="Summed over the atoms, the pointwise bound gives Result 4's bound delta(0, x, x') <= sum_z mu(z) = "
         "sum_{s ni i} p(s) = p_i (not a separate check), since with htm.r4.delta0_pair, delta(0, x, x') = "
         "sum_z (mu(z) - mu'(z))_+, for any design and any N. Equality "
         "holds at every atom iff min(mu(z), mu'(z)) = 0, i.e. iff the atoms of the samples containing i under x and "
         "under x' are disjoint (htm.r2.tight_ht)."))


def _prove_r4_corollary(claim: Claim) -> Proof:
    x, xp = _x3, _neighbour3(0)
    common = all_of(*(zero(_ht3(x, s) - _ht3(xp, s), f"sample {set(j + 1 for j in s) or '{}'} without unit 1: "
                                                     "t(x,s) = t(x',s), a common atom unless p(s) = 0")
                      for s in _SAMPLES3 if 0 not in s))
    return all_of(common, conclude(claim))


_WITH_1 = [s for s in _SAMPLES3 if 0 in s]
_ZERO_WITHOUT_1 = {_p3[s]: 0 for s in _SAMPLES3 if 0 not in s}


def _law_with_1(x) -> dict:
    """Law of t(x, S) when every sample of positive probability contains unit 1 (disjoint supports force it)."""
    return {_ht3(x, s).subs(_ZERO_WITHOUT_1): _p3[s] for s in _WITH_1}


def _corollary_printed_enum() -> Enumeration:
    n = disjoint = 0
    for name, design, x, xp, i, f, g in pair_laws():
        n += 1
        if not set(f) & set(g):
            disjoint += 1
            if _tv(f, g) != _inclusion(design)[i] or _inclusion(design)[i] != 1:
                return _fail(n, "disjoint supports but delta(0) != p_i = 1", name, x, xp, i)
    return Enumeration(True, n, f"{disjoint} pairs with disjoint supports, all in designs where p_i = 1 "
                                "(census N=3, take-all unit)", scope=SCOPE_DESIGNS)


register(Claim(
    id="htm.r4.corollary_as_printed",
    title="Result 4's corollary, designs on 3 units with p(s) = 0 for every s without unit 1, disjoint "
          "supports: delta(0, x, x') = p_1",
    source=_src("Section 2.2.1, after Result 4"), kind="identity",
    lhs=_tv3(_law_with_1(_x3), _law_with_1(_neighbour3(0)), evaluate=False), rhs=_pi3[0],
    proof=_prove_r4_corollary, enumeration=_corollary_printed_enum,
    note="The printed corollary: if supp f_x and supp f_x' are disjoint, delta_{Z,X}(0) = p_i. Disjoint supports "
         "force p(s) = 0 for every sample s without the changed unit (steps of the proof check t(x,s) = t(x',s) "
         "for those samples, a common atom otherwise), and then p_i = 1. "
         "lhs: delta(0, x, x') from the laws when only samples containing unit 1 have positive probability and the "
         "supports are disjoint (distinct atoms). The printed statement is true but only applies when p_i = 1; the "
         "useful condition (the atoms of the samples containing i disjoint under x and x') is in htm.r4.bound and "
         "htm.r2.tight_ht. The printed conclusion writes delta_{Z,X}(0) for delta_{Z,X}(0, x, x'); since then "
         "p_i = 1 = max_j p_j, both are 1."))

# ================================================================================================
# 2.2.2  Results 5 and 6, the ratio and its derivative
# ================================================================================================


def _result5_enum() -> Enumeration:
    n = inf_cases = 0
    for name, design, x, xp, i, f, g in pair_laws():
        n += 1
        outside = sum((f[a] for a in f if a not in g), Fraction(0))
        if outside:
            inf_cases += 1
            # no finite eps: delta(eps) >= the mass outside supp f_x' for every e^eps
            if any(delta0(f, g, c) < outside for c in (Fraction(1), Fraction(10**6))):
                return _fail(n, "delta below the mass outside the support", name, x, xp, i)
            continue
        cstar = max(f[a] / g[a] for a in f)
        if delta0(f, g, cstar) != 0 or delta0(f, g, cstar * Fraction(999999, 10**6)) <= 0:
            return _fail(n, "delta(eps) does not vanish exactly from eps = ln max ratio", name, x, xp, i)
    return Enumeration(True, n, f"b = 0; {inf_cases} pairs with supp f_x not in supp f_x' (eps = oo), the others: "
                                "delta(ln c*) = 0 < delta(ln c* - 1e-6), c* = max ratio, exactly",
                       scope="b = 0, " + SCOPE_DESIGNS)


_f5, _c5 = sp.Symbol("f", nonnegative=True), sp.Symbol("c", positive=True)     # f_x(z), e^eps
_g5 = sp.Symbol("g", positive=True)                                             # f_x'(z) > 0


def _prove_r5(claim: Claim) -> Proof:
    k0, k1 = sp.Symbol("k", nonnegative=True), sp.Symbol("k", positive=True)
    R, e = sp.Symbol("R", positive=True), sp.Symbol("e", real=True)
    f0 = sp.Symbol("f", positive=True)
    steps = all_of(
        zero(sp.Max(-k0, 0), "where f/f' = r <= e^eps: (r - e^eps)_+ = 0; so e^eps >= R = sup_z f/f' gives "
                             "delta(eps, x, x') = int f' (r - e^eps)_+ = 0"),
        mechanical(has_sign(sp.Max(k1, 0), "positive"),
                   "where r > e^eps: (r - e^eps)_+ > 0; if e^eps < R some z_0 has r(z_0) > e^eps"),
        cite("continuous_positive_integral", "b > 0: f_x' (r - e^eps)_+ is continuous and positive at z_0, so "
                                             "delta(eps) > 0 (b = 0: the atom z_0 itself has mass > 0)"),
        mechanical(sp.Max(f0 - _c5 * 0, 0) == f0 and f0.is_positive,
                   "b = 0 and z_0 in supp f_x \\ supp f_x': (f_x(z_0) - e^eps times 0)_+ = f_x(z_0) > 0 for every eps, so "
                   "no eps gives delta = 0 and eps(0, x, x') = inf of the empty set = +oo"),
        mechanical(sp.diff(sp.exp(e), e) == sp.exp(e) and sp.exp(e).is_positive, "d/d eps e^eps = e^eps > 0"),
        cite("monotone_limits", "e^eps is increasing, so {eps : e^eps >= R} = [ln R, oo)"),
        mechanical(sp.Interval(sp.log(R), sp.oo).inf == sp.log(R),
                   "eps(0, x, x') = inf{eps : delta(eps, x, x') <= 0} = inf [ln R, oo) = ln R"))
    return all_of(steps, _split(claim, _f5, _c5 * _g5))


RESULT5 = register(Claim(
    id="htm.r5.epsilon0",
    title="Result 5, corrected, pointwise step: (f - c g)_+ = g (f/g - c)_+ for f >= 0, g > 0, c > 0 (f = "
          "f_x(z), g = f_x'(z), c = e^eps)",
    source=_src("Section 2.2.2, Result 5"), kind="identity",
    lhs=sp.Max(_f5 - _c5 * _g5, 0), rhs=_g5 * sp.Max(_f5 / _g5 - _c5, 0), enumeration=_result5_enum, proof=_prove_r5,
    note="Result 5, corrected: eps_{Z_b,X}(0, x, x') = +oo if b = 0 and supp f_x is not in supp f_x'; otherwise "
         "ln sup_z f_x(z)/f_x'(z). The statement checked is the pointwise factorisation where f_x' > 0 (everywhere "
         "for b > 0); the rest is in the proof's steps (two of them citations). Then "
         "delta(eps, x, x') = int f_x' (f_x/f_x' - e^eps)_+ vanishes iff e^eps >= sup_z f_x/f_x' (for b > 0 the "
         "densities are continuous); where f_x' = 0 < f_x (b = 0) no eps helps. The definition eps := inf{eps : "
         "delta(eps) <= 0} then gives ln sup ratio. The enumeration corroborates the case b = 0 exactly."))
_ratio_census = sp.exp(Delta / b)      # sup of f_x/f_x' for the census design (htm.census.delta)
# the paper's notation for the two sides of the printed Result 5 on the census design (unfolded by the engine)
_eps0_census = defined(r"\varepsilon_{Z_b,X}(0,x,x')", Delta / b)
_sup_ratio_census = defined(r"\sup\{f_{Z_b|X=x}(z)/f_{Z_b|X=x'}(z) : z \in \mathbb{R}\}", _ratio_census)
erratum("htm.r5.epsilon0",
        printed=Claim(id="htm.r5.epsilon0.printed",
                      title="Result 5 as printed (b > 0, census design, t(x) - t(x') = Delta): "
                            "eps_{Z_b,X}(0,x,x') = sup{f_x(z)/f_x'(z) : z in R}",
                      source=_src("Section 2.2.2, Result 5"), kind="identity",
                      lhs=_eps0_census, rhs=_sup_ratio_census,
                      counterexample={Delta: sp.Integer(1), b: sp.Integer(1)},
                      note="Census design (p(U) = 1), t(x) - t(x') = Delta > 0, b > 0. lhs: eps_{Z_b,X}(0,x,x') "
                           "from the definition, the least eps with delta(eps) = 0, which is Delta/b by "
                           "htm.census.delta; rhs: the printed value, sup_z f_x(z)/f_x'(z) = e^{Delta/b} (the ratio "
                           "is e^{(|z| - |z - Delta|)/b}, at most e^{Delta/b}, attained for z >= Delta)."),
        corrected=RESULT5,
        explanation="The printed Result 5 gives the supremum of the density ratio itself; the definition "
                    "eps = inf{eps: delta(eps) <= 0}, with DP(eps, delta) written P(A|x) <= exp(eps) P(A|x') + delta "
                    "(Section 1.4), gives its logarithm. The logarithm is missing consistently (Result 5, and twice "
                    "in the proof of Result 6: eps = sup ratio = max ratio), while Result 9 prints 'In(max ...)', so "
                    "it is not an OCR loss. For the census design with Delta = b = 1 the printed value is "
                    "e = 2.718..., the true one 1 (delta(eps) = 1 - e^{(eps - 1)/2} vanishes exactly from eps = 1). "
                    "No later result uses the printed form (Result 9 takes the logarithm).",
        printed_text="Result 5. [eps_{Z_b,X}(0, x, x')] = +oo [if] b = 0 [et] supp(f_{Z_0|X=x}) \\ "
                     "supp(f_{Z_0|X=x'}) [!= empty]; sup{f_{Z_b|X=x}(z)/f_{Z_b|X=x'}(z) : z in R} otherwise.",
        corrected_text="Result 5, corrected: eps_{Z_b,X}(0, x, x') = +oo if b = 0 and supp(f_{Z_0|X=x}) \\ "
                       "supp(f_{Z_0|X=x'}) != empty; ln sup{f_{Z_b|X=x}(z)/f_{Z_b|X=x'}(z) : z in R} otherwise. "
                       "What is checked is its pointwise step (f_x(z) - e^eps f_x'(z))_+ = "
                       "f_x'(z) (f_x(z)/f_x'(z) - e^eps)_+ where f_x'(z) > 0; the rest is in the proof's steps, two "
                       "of them citations.")

# -- the ratio on one interval between consecutive atoms ---------------------------------------------
um, up_, ump, upp = sp.symbols("u^- u^+ u'^- u'^+", positive=True)
_num = um * sp.exp(z / b) + up_ * sp.exp(-z / b)
_den = ump * sp.exp(z / b) + upp * sp.exp(-z / b)
RATIO = _num / _den
_K = um * upp - up_ * ump
DERIVATIVE = 2 * _K / (b * _den**2)
_e_right = sp.symbols("e_1:3", nonnegative=True)           # atoms right of z: z + e_k
_w_left = sp.symbols("w_1:3", nonnegative=True)            # atoms left of z: z - w_k
_qr = sp.symbols("q^R_1:3", positive=True)
_ql = sp.symbols("q^L_1:3", positive=True)
_mix = (sum(qk * kernel(z, z + ek) for qk, ek in zip(_qr, _e_right))
        + sum(qk * kernel(z, z - wk) for qk, wk in zip(_ql, _w_left)))
_u_minus = sum(qk * sp.exp(-(z + ek) / b) for qk, ek in zip(_qr, _e_right))
_u_plus = sum(qk * sp.exp((z - wk) / b) for qk, wk in zip(_ql, _w_left))
register(Claim(
    id="htm.ratio.interval_form",
    title="Proof of Result 6, two atoms on each side of z: 2b f_x(z) = e^{z/b} u^- + e^{-z/b} u^+ (u^- from "
          "the atoms right of z, u^+ left)",
    source=_src("Section 2.2.2, proof of Result 6 (u^-_{x,b}(j), u^+_{x,b}(j))"), kind="identity",
    lhs=_mix, rhs=sp.exp(z / b) * _u_minus + sp.exp(-z / b) * _u_plus,
    note="u^- = sum_{t(x,s) > z} p(s) e^{-t(x,s)/b}, u^+ = sum_{t(x,s) < z} p(s) e^{t(x,s)/b}. Checked on a generic "
         "configuration: two atoms right of z (at z + e_k) and two left (at z - w_k) with weights p(s); the identity "
         "holds term by term, so for any number of atoms. u^- and u^+ are constant on the interval between "
         "consecutive atoms because no atom crosses z there."))
DERIV = register(Claim(
    id="htm.ratio.derivative",
    title="Proof of Result 6: d/dz (u^- e^{z/b} + u^+ e^{-z/b})/D = 2(u^- u'^+ - u^+ u'^-)/(b D^2), D = "
          "u'^- e^{z/b} + u'^+ e^{-z/b}",
    source=_src("Section 2.2.2, proof of Result 6 (derivative of the ratio)"), kind="identity",
    lhs=sp.diff(RATIO, z), rhs=DERIVATIVE,
    note="D = u'^- e^{z/b} + u'^+ e^{-z/b} > 0."))
erratum("htm.ratio.derivative",
        printed=Claim(id="htm.ratio.derivative.printed",
                      title="Proof of Result 6, the derivative as printed: d/dz (u^- e^{z/b} + u^+ e^{-z/b})/D = "
                            "2(u^- u'^+ - u^+ u'^-)/D^2 (no 1/b)",
                      source=_src("Section 2.2.2, proof of Result 6 (derivative of the ratio)"), kind="identity",
                      lhs=sp.diff(RATIO, z), rhs=2 * _K / _den**2,
                      counterexample={um: sp.Integer(2), up_: sp.Integer(1), ump: sp.Integer(1), upp: sp.Integer(1),
                                      z: sp.Integer(0), b: sp.Integer(2)}),
        corrected=DERIV,
        explanation="The chain rule gives a factor 1/b (d/dz e^{+-z/b} = +-e^{+-z/b}/b) that the printed derivative "
                    "drops, already in its middle line, where the derivative of the numerator is written "
                    "exp(z/b) u^- - exp(-z/b) u^+ (so not a single factor lost by the OCR); the display is a "
                    "derivative in z ('d(z)'), not in z/b. With u^- = 2, u^+ = u'^- = u'^+ = 1, b = 2 at z = 0 the "
                    "derivative is 1/4, the printed expression 1/2. A slip with no downstream effect: only the sign of "
                    "the derivative is used ('of the same sign as'), and b > 0 leaves it unchanged.",
        printed_text="Its derivative is (d(f_{Z_b|X=x}/f_{Z_b|X=x'})/d(z))(z) = (exp(z/b) u'^- + exp(-z/b) u'^+)"
                     "[^{-2}] x ((exp(z/b) u^- - exp(-z/b) u^+)(exp(z/b) u'^- + exp(-z/b) u'^+) - (exp(z/b) u^- + "
                     "exp(-z/b) u^+)(exp(z/b) u'^- - exp(-z/b) u'^+)) = 2 (exp(z/b) u'^- + exp(-z/b) u'^+)[^{-2}] x "
                     "[(u^- u'^+ - u^+ u'^-)]",
        corrected_text="Its derivative is (d(f_{Z_b|X=x}/f_{Z_b|X=x'})/d(z))(z) = (2/b) (exp(z/b) u'^- + "
                       "exp(-z/b) u'^+)^{-2} x (u^- u'^+ - u^+ u'^-).")


def _prove_derivative_sign(claim: Claim) -> Proof:
    return conclude(claim, certificate=2 * _K**2 / (b * _den**2))


register(Claim(
    id="htm.ratio.derivative_sign",
    title="Proof of Result 6: R'(z) (u^- u'^+ - u^+ u'^-) >= 0, R = (u^- e^{z/b} + u^+ e^{-z/b})/(u'^- "
          "e^{z/b} + u'^+ e^{-z/b}), u's > 0",
    source=_src("Section 2.2.2, proof of Result 6 (sign of the derivative)"), kind="sign",
    lhs=sp.diff(RATIO, z) * _K, relation=">=", proof=_prove_derivative_sign,
    note="R' K = 2 K^2/(b D^2) >= 0, and R' = 0 only where K = 0; so on each interval between consecutive atoms "
         "the ratio is monotone and its maximum over the closed interval is at an end point."))
# code generation needs identifiers: the same expressions with u^-, u^+, u'^-, u'^+ renamed
_ids = dict(zip((um, up_, ump, upp), sp.symbols("u_minus u_plus v_minus v_plus", positive=True)))
formula("mixture_ratio_interval", RATIO.subs(_ids), (z, *_ids.values(), b), ("htm.ratio.interval_form",),
        _src("Section 2.2.2, proof of Result 6"),
        "f_x/f_x' between consecutive atoms: (u^- e^{z/b} + u^+ e^{-z/b})/(v^- e^{z/b} + v^+ e^{-z/b}), "
        "v = u' the coefficients of x'.")
formula("mixture_ratio_interval_derivative", DERIVATIVE.subs(_ids), (z, *_ids.values(), b),
        ("htm.ratio.derivative",), _src("Section 2.2.2, proof of Result 6"),
        "d/dz of mixture_ratio_interval: 2 (u^- v^+ - u^+ v^-)/(b (v^- e^{z/b} + v^+ e^{-z/b})^2).")


# -- Result 6: constant tails, supremum on the atoms ------------------------------------------------
def _tail_ratio(side: str):
    sgn = 1 if side == "left" else -1
    edge = m_t if side == "left" else M_t
    at = [edge + sgn * dk for dk in d]
    atp = [edge + sgn * dk for dk in dp]
    zz = edge - sgn * w
    ratio = sum(qk * kernel(zz, a) for qk, a in zip(q, at)) / sum(qk * kernel(zz, a) for qk, a in zip(q, atp))
    const = (sum(qk * sp.exp(-sgn * a / b) for qk, a in zip(q, at))
             / sum(qk * sp.exp(-sgn * a / b) for qk, a in zip(q, atp)))
    return ratio, const


def _tail_constant_step(side: str) -> Proof:
    r, k = _tail_ratio(side)
    return zero(sp.powsimp(sp.expand(sp.cancel(r - k))), f"{side} tail: the ratio is the constant (three samples)")


for _side, _where, _form in (("left", "(-oo, min T_{x,x'}]", "sum_s p(s) e^{-t(x,s)/b} / sum_s p(s) e^{-t(x',s)/b}"),
                             ("right", "[max T_{x,x'}, oo)", "sum_s p(s) e^{t(x,s)/b} / sum_s p(s) e^{t(x',s)/b}")):
    _r, _k = _tail_ratio(_side)
    register(Claim(
        id=f"htm.r6.{_side}_constant",
        title=f"Result 6: on {_where} the ratio f_x/f_x' is constant, = {_form} (three samples)",
        source=_src("Section 2.2.2, Result 6 and its proof"), kind="identity", lhs=_r, rhs=_k,
        note="Generic design with three samples, z at distance w beyond every atom of x and x'; each sample's "
             "kernel is p(s) e^{+-(z - t(x,s))/b}, so the factor e^{+-z/b} cancels for any number of samples."))


def _result6_enum() -> Enumeration:
    n = 0
    for name, design, x, xp, i in neighbour_pairs([(nm, dz, grid[:3]) for nm, dz, grid in _EVENT_DESIGNS[:2]]):
        R = ExactRatio(design, x, xp, Fraction(2))
        atoms = R.atoms()
        grid = [atoms[0] - 1] + [a + (b2 - a) * Fraction(k, 3) for a, b2 in zip(atoms, atoms[1:]) for k in (1, 2)]
        grid.append(atoms[-1] + 1)
        R = ExactRatio(design, x, xp, Fraction(2), extra_points=grid)
        best = max((R.value(a) for a in atoms), key=lambda v: Fraction(*v))
        n += 1
        for g in grid:
            if cmp_ratio(R.value(g), best) > 0:
                return _fail(n, f"the ratio at z = {g} exceeds its maximum over the atoms", name, x, xp, i)
    return Enumeration(True, n, "b = 1/(M ln 2), exact rational values; the ratio at 2 interior points of every "
                                "interval between atoms and at one point of each tail never exceeds its maximum "
                                "over the atoms",
                       scope="SRS 2-of-4 and unequal 2-of-4 designs, values in {-1, 0, 1}, b = 1/(M ln 2)")


_y, _yj = sp.symbols("y y_j", positive=True)               # y = e^{z/b}; y_j = e^{z_j/b} at an atom z_j <= z


def _ratio_y(y):
    """The ratio between consecutive atoms as a function of y = e^{z/b}."""
    return (um * y + up_ / y) / (ump * y + upp / y)


def _prove_sup_on_atoms(claim: Claim) -> Proof:
    g = sp.Symbol("g", nonnegative=True)
    param = _param({_y: _yj + g}, {g: _y - _yj}, claim)
    return all_of(_tail_constant_step("left"), _tail_constant_step("right"),
                  zero(RATIO - _ratio_y(sp.exp(z / b)), "between consecutive atoms R(z) is the ratio at y = e^{z/b}, "
                                                         "an increasing change of variable"),
                  cite("monotone_limits", "f_x/f_x' is continuous, constant on (-oo, min T] and [max T, oo) and "
                                          "monotone between consecutive atoms (increasing where K > 0, decreasing "
                                          "where K < 0), so its supremum over R is its maximum over the atoms T_{x,x'}"),
                  conclude(claim, param=param))


register(Claim(
    id="htm.r6.sup_on_atoms",
    title="Result 6, between consecutive atoms: K (R(y) - R(y_j)) >= 0 for y >= y_j, R the ratio f_x/f_x' "
          "in y = e^{z/b}, K = u^- u'^+ - u^+ u'^-",
    source=_src("Section 2.2.2, Result 6"), kind="sign",
    lhs=_K * (_ratio_y(_y) - _ratio_y(_yj)), relation=">=",
    conditions=(sp.Le(_yj, _y),), proof=_prove_sup_on_atoms, enumeration=_result6_enum,
    note="Result 6: if b > 0, sup_z f_x(z)/f_x'(z) is the maximum of the ratio over the atoms T_{x,x'}; that "
         "conclusion rests on the cited monotonicity argument with the constant tails (steps of the proof), not on "
         "the statement checked. The statement checked is the kernel on one interval between consecutive atoms, "
         "where R = (u^- e^{z/b} + "
         "u^+ e^{-z/b})/(u'^- e^{z/b} + u'^+ e^{-z/b}) (htm.ratio.interval_form); in y = e^{z/b}, "
         "K (R(y) - R(y_j)) = K^2 (y^2 - y_j^2)/(y y_j D(y) D(y_j)) >= 0. So R lies between its values at the two "
         "end atoms; with the constant tails (htm.r6.left_constant, htm.r6.right_constant) the supremum is attained "
         "at an atom. For b = 0 under supp f_x in supp f_x' the statement is the definition (the ratio is only "
         "defined on the atoms)."))
