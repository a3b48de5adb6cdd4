"""The Horvitz-Thompson estimate as a privacy mechanism: definitions, the delta integral, Results 1-6.

Source: ``000_3f4b38deb4c4e7bd.txt`` ("The Horvitz-Thompson estimate as a privacy mechanism"),
Sections 1.3-1.4 and 2.1-2.2.2.  Result 7 is in :mod:`derivations.ht_mechanism_signs`, Results
8-9 in :mod:`derivations.ht_mechanism_srs`, Result 10 in :mod:`derivations.ht_mechanism_conditional`.

Setting.  A design p on U = {1..N}; p_i = P(i in S); the Horvitz-Thompson estimate
t(x, s) = sum_{j in s} x_j/p_j; Z_b = t(X, S) + b W with W standard Laplace.  Given X = x,

    f_x(z) = sum_s p(s) (2b)^{-1} exp(-|z - t(x, s)|/b)            (b > 0, a density)
    f_x(z) = sum_{s: t(x,s) = z} p(s)                               (b = 0, a pmf)

and delta(eps, x, x') = int (f_x - e^eps f_x')_+ .  x and x' are neighbours (they differ at
one unit i).

Methods.  Statements about a generic design are proved symbolically on a generic configuration
(symbolic sample weights and atom positions relative to z).  Statements about all designs with
b = 0 (Results 1-5) are checked by exact enumeration with rational arithmetic over every sample
of the designs in :data:`DESIGNS` and every neighbouring pair of a value grid; the verdict
``PROVED (exhaustive)`` means exactly that, no more.  For b > 0 and exhaustive checks, b is
taken as 1/(M ln r) with r rational, so that every kernel value is rational (see
:class:`~derivations.ht_mechanism_signs.ExactRatio`).
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, erratum, register, zero
from ..engine.formulas import formula
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


def delta0(f: dict, g: dict, c: Fraction) -> Fraction:
    """sum_z (f(z) - c g(z))_+ for two pmfs (b = 0)."""
    return sum((max(f[a] - c * g.get(a, 0), Fraction(0)) for a in f), Fraction(0))


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


# ================================================================================================
# 1.3  The Horvitz-Thompson estimator is unbiased (the reason it is the mechanism's centre)
# ================================================================================================
_N3 = [frozenset(s) for r in range(4) for s in itertools.combinations(range(3), r)]
_ps = {s: sp.Symbol("p_{" + ("".join(str(j + 1) for j in sorted(s)) or r"\emptyset") + "}", positive=True)
       for s in _N3}
_xs3 = sp.symbols("x_1:4", real=True)
_incl = [sum(_ps[s] for s in _N3 if j in s) for j in range(3)]
_ht_mean = sum(_ps[s] * sum(_xs3[j] / _incl[j] for j in s) for s in _N3)


def _ht_unbiased_enum() -> Enumeration:
    n = 0
    for name, design, grid in DESIGNS:
        pi = _inclusion(design)
        for x in itertools.product(grid, repeat=len(pi)):
            n += 1
            if sum((p * ht(x, s, pi) for p, s in design), Fraction(0)) != sum(x):
                return _fail(n, "E t(x, S) != t(x)", name, x, "-")
    return Enumeration(True, n, f"designs: {DESIGN_NAMES}; every x of each grid")


register(Claim(
    id="htm.ht_unbiased", title="The Horvitz-Thompson estimator is unbiased: E[t(x, S)] = t(x)",
    source=_src("Section 1.3"), kind="identity", lhs=_ht_mean, rhs=sum(_xs3),
    proof=lambda: zero(_ht_mean - sum(_xs3), "generic design on 3 units (8 symbolic sample probabilities, "
                                            "p_j their sums over samples containing j)"),
    enumeration=_ht_unbiased_enum,
    note="Symbolic for every design on 3 units (all 8 samples with free probabilities); exact on the "
         "enumeration designs."))

# ================================================================================================
# 2.2  The mixture density
# ================================================================================================
_t = sp.Symbol("t", real=True)
_laplace_cdf = sp.Piecewise((sp.exp((z - _t) / b) / 2, z < _t), (1 - sp.exp(-(z - _t) / b) / 2, True))


def _prove_mixture() -> Proof:
    left, right = sp.Symbol("u", negative=True), sp.Symbol("u", positive=True)
    dens = sp.exp(-sp.Abs(z - _t) / b) / (2 * b)
    steps = []
    for u, branch in ((left, sp.exp((z - _t) / b) / 2), (right, 1 - sp.exp(-(z - _t) / b) / 2)):
        diff = (sp.diff(branch, z) - dens).subs(z, _t + u)
        steps.append(zero(diff, f"d/dz of the Laplace cdf minus the kernel, z - t(x,s) {'<' if u.is_negative else '>'} 0"))
    total = sp.integrate(sp.exp((z - _t) / b), (z, -sp.oo, _t)) + sp.integrate(sp.exp(-(z - _t) / b), (z, _t, sp.oo))
    steps.append(zero(total / (2 * b) - 1, "each kernel integrates to 1, so f_x integrates to sum_s p(s) = 1"))
    return all_of(*steps)


register(Claim(
    id="htm.mixture_density",
    title="f_{Z_b|X=x}(z) = sum_s p(s) (2b)^{-1} e^{-|z - t(x,s)|/b}: the derivative of the mixture cdf, a density",
    source=_src("Section 2.2, the density of Z_b given X = x"), kind="identity",
    lhs=sp.Derivative(_laplace_cdf, z), rhs=sp.exp(-sp.Abs(z - _t) / b) / (2 * b),
    proof=_prove_mixture,
    note="P(Z_b <= z | X = x) = sum_s p(s) F((z - t(x,s))/b) by total probability over the independent S and W; "
         "the claim differentiates each term (both sides of the atom t = t(x,s)) and checks normalisation."))

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
        for c in RATIOS[:2]:
            n += 1
            integral = delta0(f, g, c)
            a_set = [a for a in atoms if f.get(a, 0) - c * g.get(a, 0) > 0]
            event = sum((f.get(a, 0) for a in a_set), Fraction(0)) - c * sum((g.get(a, 0) for a in a_set), Fraction(0))
            sums = [Fraction(0)]            # P(B) - c P'(B) for every subset B of the atoms
            for a in atoms:
                h = f.get(a, 0) - c * g.get(a, 0)
                sums += [v + h for v in sums]
            best = max(sums)
            if not integral == event == best:
                return _fail(n, "integral, event form and supremum over events differ", name, x, xp, i, c=c)
    return Enumeration(True, n, "b = 0: every event B of the atoms (all 2^K subsets), e^eps in {1, 3/2}; "
                                f"designs: {', '.join(d[0] for d in _EVENT_DESIGNS)} (pairs with at most 8 atoms)")


def _prove_event_form() -> Proof:
    pos, neg = sp.Symbol("v", positive=True), sp.Symbol("v", nonpositive=True)
    ok = (sp.Max(pos, 0) - pos == 0) and (sp.Max(neg, 0) == 0)
    return Proof(ok, ("(u)_+ = u on {u > 0} and 0 elsewhere (checked on both signs of u), so "
                      "int (f - e^eps f')_+ = int_A (f - e^eps f') = P(A) - e^eps P'(A) with A = {f - e^eps f' > 0}; "
                      "for any event B, int_B (f - e^eps f') <= int (f - e^eps f')_+, so this delta is the least "
                      "delta with P(B) <= e^eps P'(B) + delta for every B",))


register(Claim(
    id="htm.delta.event_form",
    title="delta(eps,x,x') = int (f_x - e^eps f_x')_+ = P(Z in A) - e^eps P'(Z in A) = sup_B [P(B) - e^eps P'(B)]",
    source=_src("Section 1.4"), kind="identity",
    lhs=sp.Symbol(r"\int (f_x - e^{\varepsilon} f_{x'})_+"),
    rhs=sp.Symbol(r"\sup_B [P(Z\in B|x) - e^{\varepsilon} P(Z\in B|x')]"),
    proof=_prove_event_form, enumeration=_event_form_enum,
    note="The supremum is attained at A = {f_x - e^eps f_x' > 0}; so the integral is the smallest delta for "
         "which DP(eps, delta) holds on the pair."))

# -- the split at m_t and M_t ---------------------------------------------------------------------
U_left, V_right = sp.Symbol("U", real=True), sp.Symbol("V", real=True)
_c = sp.exp(eps)


def _tail_proof(side: str) -> Proof:
    """Kernel sum on a tail = constant x e^{+-z/b}; positive part and integral of the tail."""
    sgn = 1 if side == "left" else -1
    edge = m_t if side == "left" else M_t
    at = [edge + sgn * dk for dk in d]                  # atoms of x beyond the edge, on the inner side
    atp = [edge + sgn * dk for dk in dp]
    zz = edge - sgn * w
    g = sum(qk * (kernel(zz, a) - _c * kernel(zz, ap)) for qk, a, ap in zip(q, at, atp)) / (2 * b)
    const = sum(qk * (sp.exp(-sgn * a / b) - _c * sp.exp(-sgn * ap / b)) for qk, a, ap in zip(q, at, atp))
    s1 = zero(g - const * sp.exp(sgn * zz / b) / (2 * b),
              f"{side} tail: 2b (f_x - e^eps f_x')(z) = {'U e^{z/b}' if sgn == 1 else 'V e^{-z/b}'} beyond every atom")
    vpos, vneg = sp.Symbol("v", positive=True), sp.Symbol("v", nonpositive=True)
    e = sp.exp(sgn * z / b)
    s2 = Proof(sp.Max(vpos * e, 0) - vpos * e == 0 and sp.Max(vneg * e, 0) == 0,
               ("(K e^{+-z/b})_+ = K_+ e^{+-z/b} (both signs of K)",))
    lim = (z, -sp.oo, edge) if sgn == 1 else (z, edge, sp.oo)
    integral = sp.integrate(e, lim) / (2 * b)
    s3 = zero(integral - sp.exp(sgn * edge / b) / 2, f"int over the {side} tail of e^{{+-z/b}}/(2b)")
    return all_of(s1, s2, s3)


register(Claim(
    id="htm.delta.left_tail",
    title="Left of m_t: int_{-oo}^{m_t} (f_x - e^eps f_x')_+ dz = (1/2) U_+ e^{m_t/b}, "
          "U = sum_s p(s)(e^{-t(x,s)/b} - e^eps e^{-t(x',s)/b})",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), first term"), kind="identity",
    lhs=sp.Integral(sp.Max(U_left * sp.exp(z / b), 0) / (2 * b), (z, -sp.oo, m_t)),
    rhs=sp.Max(U_left, 0) * sp.exp(m_t / b) / 2, proof=lambda: _tail_proof("left"),
    note="Generic design with three samples; every atom of x and x' is >= m_t. The first displayed lines of "
         "the source show neither the factor (2b)^{-1} nor e^eps in this term; the following lines (with the "
         "factor 1/2) confirm the reading verified here, so this is taken as OCR damage."))
register(Claim(
    id="htm.delta.right_tail",
    title="Right of M_t: int_{M_t}^{oo} (f_x - e^eps f_x')_+ dz = (1/2) V_+ e^{-M_t/b}, "
          "V = sum_s p(s)(e^{t(x,s)/b} - e^eps e^{t(x',s)/b})",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), second term"), kind="identity",
    lhs=sp.Integral(sp.Max(V_right * sp.exp(-z / b), 0) / (2 * b), (z, M_t, sp.oo)),
    rhs=sp.Max(V_right, 0) * sp.exp(-M_t / b) / 2, proof=lambda: _tail_proof("right"),
    note="Generic design with three samples; every atom of x and x' is <= M_t."))

_MIDDLE = sp.Symbol(r"\frac{1}{2b}\int_{m_t}^{M_t}\Big(\sum_s p(s)(e^{-|z-\hat t(x,s)|/b}"
                    r" - e^{\varepsilon} e^{-|z-\hat t(x',s)|/b})\Big)_+ dz")
register(Claim(
    id="htm.delta.split",
    title="delta(eps,x,x') = (1/2) U_+ e^{m_t/b} + (1/2) V_+ e^{-M_t/b} + (2b)^{-1} int_{m_t}^{M_t} (...)_+ dz",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x')"), kind="identity",
    lhs=sp.Symbol(r"\delta_{Z_b,X}(\varepsilon,x,x')"),
    rhs=sp.Max(U_left, 0) * sp.exp(m_t / b) / 2 + sp.Max(V_right, 0) * sp.exp(-M_t / b) / 2 + _MIDDLE,
    proof=lambda: all_of(_tail_proof("left"), _tail_proof("right"), Proof(True, (
        "additivity of the integral over (-oo, m_t], [m_t, M_t], [M_t, oo); m_t and M_t bound every atom of "
        "every x in the domain, so the tail claims apply",))),
    note="m_t = min and M_t = max of the union of the supports of f_{Z_0|X=x} over the domain."))


def _tail_by_atoms_enum() -> Enumeration:
    """sum_s p(s) r^{-t(x,s)} = sum_y r^{-y} f_{Z_0|X=x}(y), exact with integer atoms and r = 2 (b = 1/ln 2)."""
    n = 0
    r = Fraction(2)
    for name, design, grid in DESIGNS[:1] + DESIGNS[5:]:
        pi = _inclusion(design)
        for x in itertools.product(grid, repeat=len(pi)):
            f = pmf(design, x)
            for sign in (1, -1):
                n += 1
                lhs = sum((p * r ** (-sign * ht(x, s, pi)) for p, s in design), Fraction(0))
                rhs = sum((f[a] * r ** (-sign * a) for a in f), Fraction(0))
                if lhs != rhs:
                    return _fail(n, "grouping by atoms changed the sum", name, x, "-")
    return Enumeration(True, n, "integer atoms (SRS N=4 n=2 and census N=3, integer grids), b = 1/ln 2 so that "
                                "e^{-+y/b} = 2^{-+y} is rational; both tails")


register(Claim(
    id="htm.delta.tail_by_atoms",
    title="sum_s p(s) e^{-+t(x,s)/b} = sum_{y in supp f_{Z_0|X=x}} e^{-+y/b} f_{Z_0|X=x}(y) (the source's third form)",
    source=_src("Section 2.2, formula for delta_{Z_b,X}(eps, x, x'), last form"), kind="identity",
    lhs=sp.Symbol(r"\sum_s p(s) e^{\mp \hat t(x,s)/b}"),
    rhs=sp.Symbol(r"\sum_{y} e^{\mp y/b} f_{Z_0|X=x}(y)"), enumeration=_tail_by_atoms_enum))

# -- the positive part of alpha e^{z/b} + beta e^{-z/b} between two atoms (closed form) --------------
a_, c_ = sp.symbols("alpha gamma", positive=True)   # alpha > 0 and beta = -gamma < 0
u_, v_ = sp.symbols("u v", real=True)
z0 = b / 2 * sp.log(c_ / a_)
register(Claim(
    id="htm.delta.interval_sinh_form",
    title="alpha e^{z/b} - gamma e^{-z/b} = 2 sqrt(alpha gamma) sh((z - z_0)/b), z_0 = (b/2) ln(gamma/alpha): "
          "one sign change, at z_0",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=a_ * sp.exp(z / b) - c_ * sp.exp(-z / b), rhs=2 * sp.sqrt(a_ * c_) * sp.sinh((z - z0) / b),
    proof=lambda: zero(sp.powsimp(sp.expand((a_ * sp.exp(z / b) - c_ * sp.exp(-z / b)
                                             - 2 * sp.sqrt(a_ * c_) * sp.sinh((z - z0) / b)).rewrite(sp.exp))),
                       "rewrite sh as exponentials"),
    note="Between consecutive atoms f_x - e^eps f_x' = alpha e^{z/b} + beta e^{-z/b}. If alpha and beta have "
         "the same sign the positive part is the function or 0; otherwise (alpha > 0 > beta = -gamma) it is "
         "positive exactly for z > z_0, and for alpha < 0 < beta exactly for z < z_0 (apply this to -f)."))
_anti = b * a_ * sp.exp(z / b) + b * c_ * sp.exp(-z / b)
register(Claim(
    id="htm.delta.interval_positive_part",
    title="int_{z_0}^{v} (alpha e^{z/b} - gamma e^{-z/b}) dz = b alpha e^{v/b} + b gamma e^{-v/b} - 2 b sqrt(alpha gamma)",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=sp.Integral(a_ * sp.exp(z / b) - c_ * sp.exp(-z / b), (z, z0, v_)),
    rhs=_anti.subs(z, v_) - 2 * b * sp.sqrt(a_ * c_), conditions=(sp.Ge(v_, z0),),
    proof=lambda: zero(sp.integrate(a_ * sp.exp(z / b) - c_ * sp.exp(-z / b), (z, z0, v_))
                       - (_anti.subs(z, v_) - 2 * b * sp.sqrt(a_ * c_)), "direct integration"),
    note="With the sh form, this is the integral of the positive part over [u, v] when u <= z_0 <= v and "
         "alpha > 0 > beta; for z_0 <= u the integral runs from u (antiderivative b alpha e^{z/b} - b beta "
         "e^{-z/b}). The mirrored case int_u^{z_0} (gamma e^{-z/b} - alpha e^{z/b}) dz has the same form at u."))
register(Claim(
    id="htm.delta.interval_positive_part_decreasing",
    title="int_{u}^{z_0} (gamma e^{-z/b} - alpha e^{z/b}) dz = b gamma e^{-u/b} + b alpha e^{u/b} - 2 b sqrt(alpha gamma)",
    source=_src("Section 2.2, the middle integral of delta (between consecutive atoms)"), kind="identity",
    lhs=sp.Integral(c_ * sp.exp(-z / b) - a_ * sp.exp(z / b), (z, u_, z0)),
    rhs=_anti.subs(z, u_) - 2 * b * sp.sqrt(a_ * c_), conditions=(sp.Le(u_, z0),),
    proof=lambda: zero(sp.integrate(c_ * sp.exp(-z / b) - a_ * sp.exp(z / b), (z, u_, z0))
                       - (_anti.subs(z, u_) - 2 * b * sp.sqrt(a_ * c_)), "direct integration")))

# -- the census (no sampling) limit: the plain Laplace mechanism -------------------------------------
Delta = sp.Symbol("Delta", positive=True)
_zc = (Delta + b * eps) / 2
_census_lhs = (1 - sp.exp((_zc - Delta) / b) / 2) - sp.exp(eps) * sp.exp(-_zc / b) / 2
_census_rhs = 1 - sp.exp((eps - Delta / b) / 2)


def _prove_census() -> Proof:
    zz = sp.Symbol("z", positive=True)
    ratio = sp.exp((sp.Abs(zz) - sp.Abs(zz - Delta)) / b)          # f_Delta / f_0 on (0, oo)
    inside = sp.exp((2 * zz - Delta) / b)                            # its value on (0, Delta)
    zin = Delta * sp.Symbol("theta", positive=True) / (1 + sp.Symbol("theta", positive=True))
    s1 = zero(ratio.subs(zz, zin) - inside.subs(zz, zin), "on (0, Delta) the ratio is e^{(2z - Delta)/b} (increasing)")
    s2 = zero(inside.subs(zz, _zc) - sp.exp(eps), "it equals e^eps at z_0 = (Delta + b eps)/2, in [0, Delta] "
                                                  "when eps <= Delta/b; so A = (z_0, oo)")
    s3 = zero((1 - sp.exp((_zc - Delta) / b) / 2) - (1 - sp.exp(-(Delta - _zc) / b) / 2),
              "P(Z > z_0 | t) = 1 - e^{(z_0 - Delta)/b}/2 for z_0 <= Delta; P(Z > z_0 | t') = e^{-z_0/b}/2")
    s4 = zero(sp.powsimp(sp.expand(_census_lhs - _census_rhs)), "P(A) - e^eps P'(A) = 1 - e^{(eps - Delta/b)/2}")
    return all_of(s1, s2, s3, s4)


CENSUS = register(Claim(
    id="htm.census.delta",
    title="Census (p(U) = 1), |t(x) - t(x')| = Delta: delta(eps) = 1 - e^{(eps - Delta/b)/2} for eps <= Delta/b, "
          "0 beyond",
    source=_src("Section 1.4 applied to the census design (Z_b = t(x) + bW)"), kind="identity",
    lhs=_census_lhs, rhs=_census_rhs, conditions=(sp.Le(eps, Delta / b),), proof=_prove_census,
    note="lhs = P(Z in A | x) - e^eps P(Z in A | x') with A = (z_0, oo), t(x') = 0, t(x) = Delta; for "
         "eps >= Delta/b the ratio never exceeds e^{Delta/b} <= e^eps, so delta = 0. This is the no-sampling "
         "limit of the mechanism, the plain Laplace mechanism with sensitivity Delta."))
formula("laplace_mechanism_delta", sp.Max(0, _census_rhs), (eps, Delta, b), ("htm.census.delta",),
        _src("Section 1.4, census design"),
        "delta(eps) of the Laplace mechanism with sensitivity Delta and scale b: max(0, 1 - e^{(eps - Delta/b)/2}).")

# ================================================================================================
# 2.1  b = 0: Results 1-4
# ================================================================================================


def _tv(f: dict, g: dict) -> Fraction:
    return delta0(f, g, Fraction(1))


def _release_laws(design, x):
    """Laws of three releases: (S, x_S) labelled, the multiset of x_S, and the HT estimate."""
    laws = ({}, {}, pmf(design, x))
    for p, s in design:
        if p > 0:
            for law, k in zip(laws, (tuple((j, x[j]) for j in sorted(s)), tuple(sorted(x[j] for j in s)))):
                law[k] = law.get(k, Fraction(0)) + p
    return laws


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
    return Enumeration(True, n, f"designs: {DESIGN_NAMES}; three releases (labelled data (S, x_S), unlabelled "
                                "values, HT estimate); delta(0) of the labelled data equals p_i exactly")


register(Claim(
    id="htm.r1.delta0_bound",
    title="Result 1: delta_{obs_X(S),X}(0) <= max_i p_i (and so for every statistic of the survey data)",
    source=_src("Section 2.1, Result 1"), kind="inequality",
    lhs=sp.Symbol(r"\delta_{\mathrm{obs}_X(S),X}(0)"), relation="<=", rhs=sp.Symbol(r"\max_{i\in U} p_i"),
    enumeration=_result1_enum,
    note="delta(0, x, x') is the total-variation distance of the two laws. For the labelled data it is exactly "
         "p_i (the data differ iff i in S); unlabelled values and the HT estimate are functions of them, so "
         "their distance is at most p_i."))


def _avoiding_value(design, x, i):
    """A value v for unit i such that every atom t(x', s), s containing i, avoids supp f_x."""
    pi = _inclusion(design)
    supp = set(pmf(design, x))
    bad = {pi[i] * (a - ht(x, s - {i}, pi)) for a in supp for p, s in design if p > 0 and i in s}
    v = Fraction(x[i]) + 1
    while v in bad:
        v += Fraction(1, 7)
    return v


def _result2_enum() -> Enumeration:
    n = 0
    for name, design, grid in DESIGNS:
        pi = _inclusion(design)
        j = max(pi, key=lambda k: pi[k])
        for x in itertools.product(grid, repeat=len(pi)):
            n += 1
            xp = x[:j] + (_avoiding_value(design, x, j),) + x[j + 1:]
            if _tv(pmf(design, xp), pmf(design, x)) != pi[j]:
                return _fail(n, "the constructed pair does not attain max p_j", name, xp, x, j)
    return Enumeration(True, n, f"designs: {DESIGN_NAMES}; for every x of the grid, x'_j chosen off the finite "
                                "set of values that put an atom of x' on supp f_x gives delta(0, x', x) = max p_j")


register(Claim(
    id="htm.r2.tight",
    title="Result 2: if X_1 is infinite, delta_{Z_0,X}(0) = max_j p_j (Result 1 is attained)",
    source=_src("Section 2.1, Result 2"), kind="identity",
    lhs=sp.Symbol(r"\delta_{Z_0,X}(0)"), rhs=sp.Symbol(r"\max_{j\in U} p_j"), enumeration=_result2_enum,
    note="Construction: only finitely many values of x'_j put an atom t(x', s) (s containing j) on the finite "
         "support of f_x; any other value gives delta(0, x', x) = p_j (Result 4 below). The enumeration runs the "
         "construction for every x of each grid and checks the value exactly; the total constraint [m_t, M_t] "
         "must leave infinitely many values to x_j."))


# -- Results 2 (second part) and 3: when is eps(0) infinite? ----------------------------------------
def _small_designs():
    """Every non-empty family of subsets of {0, 1} (N = 2) and of {0} (N = 1), equal and unequal weights,
    keeping the designs in which every unit can be sampled."""
    for N in (1, 2):
        subsets = [frozenset(c) for r in range(N + 1) for c in itertools.combinations(range(N), r)]
        for k in range(1, len(subsets) + 1):
            for fam in itertools.combinations(subsets, k):
                for w in ([1] * k, list(range(1, k + 1))):
                    design = [(Fraction(a, sum(w)), s) for a, s in zip(w, fam)]
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
        if any(len(sec) > 1 + without_i[(i, x)] or len(sec) > len(supp[x]) for i, x, sec in secs):
            applies += 1
            if not infinite:
                return Enumeration(False, n, "corrected condition holds but eps(0) is finite",
                                   {"design": str(design), "V": str(V), "totals": f"[{lo}, {hi}]"})
        if any(len(sec) > with_i[i] for i, x, sec in secs) and not infinite:
            printed_fails += 1
    return Enumeration(True, n, f"every design on N <= 2 units (all families of samples, two weightings), value "
                                f"sets of {{-1, 0, 1, 2}}, all intervals of totals; the condition holds in {applies} "
                                f"domains, always with eps(0) = oo; the printed condition holds with a finite eps(0) "
                                f"in {printed_fails} domains")


def _result2b_enum() -> Enumeration:
    n = 0
    for N, design, V, lo, hi, binding, X, supp in _domains():
        p_empty = sum((p for p, s in design if not s), Fraction(0))
        if binding and p_empty < 1 and len(V) >= 2 ** N:
            n += 1
            if not _eps0_infinite(X, N, supp):
                return Enumeration(False, n, "eps(0) finite", {"design": str(design), "V": str(V)})
    return Enumeration(True, n, "X = V^N (no binding total), every design on N <= 2 units with p(empty) < 1, "
                                "every V of {-1, 0, 1, 2} with card(V) >= 2^N")


RESULT3 = Claim(
    id="htm.r3.corrected",
    title="Result 3 (corrected): if, for some i and x, card{x' in X: x'_{-i} = x_{-i}} > 1 + card{t(x,s): s not ni i, "
          "p(s) > 0}, then eps_{Z_0,X}(0) = +oo",
    source=_src("Section 2.1, Result 3"), kind="identity", lhs=sp.Symbol(r"\varepsilon_{Z_0,X}(0)"), rhs=sp.oo,
    enumeration=_result3_enum,
    note="Argument: let c_1 < ... < c_k be the values x'_i/p_i over the section, B the atoms of the samples "
         "without i (the same for every x' of the section) and A the atoms t_{-i}(x, s), s containing i, so "
         "supp f_x' = B u (A + c). If all k supports were equal to S = B u (A + c_1), the k - 1 points max A + c_j, "
         "j >= 2, exceed max(A + c_1) and so lie in B: k - 1 <= card B. Hence k > 1 + card B forces two "
         "neighbours with different supports, i.e. eps(0, x', x'') = oo (Result 5). The weaker condition "
         "k > card supp f_x (pigeonhole on one sample containing i) is checked too; the printed condition "
         "counts only the samples containing i.")
_EX = [(Fraction(1, 3), frozenset()), (Fraction(1, 3), frozenset({0})), (Fraction(1, 3), frozenset({1}))]


def _example_eps0(values) -> sp.Expr:
    """ln max ratio over the neighbouring pairs of X = {x in values^2: 1 <= t(x) <= 2} (supports all {0, 3})."""
    X = [x for x in itertools.product(values, repeat=2) if 1 <= sum(x) <= 2]
    best = Fraction(1)
    for x in X:
        for y in X:
            if sum(a != c for a, c in zip(x, y)) == 1:
                f, g = pmf(_EX, x), pmf(_EX, y)
                assert set(f) == set(g)
                best = max(best, max(f[a] / g[a] for a in f))
    return sp.log(sp.Rational(best.numerator, best.denominator))


_EX_NOTE = ("Design: p(empty) = p({1}) = p({2}) = 1/3 on N = 2 units (p_1 = p_2 = 1/3); X = {x in {0,1}^2: "
            "1 <= t(x) <= 2} = {(0,1), (1,0), (1,1)}. Every f_{Z_0|X=x} has support {0, 3}: (0,1) and (1,0) put mass "
            "2/3 on 0, (1,1) puts 2/3 on 3, so eps_{Z_0,X}(0) = ln 2 (lhs, computed from the laws).")
erratum("htm.r3.corrected",
        printed=Claim(id="htm.r3.printed",
                      title="Result 3 as printed: card{x' in X: x'_{-i} = x_{-i}} > card{s: p(s) > 0, i in s} "
                            "=> eps_{Z_0,X}(0) = +oo",
                      source=_src("Section 2.1, Result 3"), kind="identity", lhs=_example_eps0((0, 1)), rhs=sp.oo,
                      counterexample={},
                      note=_EX_NOTE + " Unit 1, x = (1, 1): two candidates (0, 1), (1, 1) > one sample containing "
                                      "unit 1, so the printed condition holds."),
        corrected=RESULT3,
        explanation="Counting only the samples that contain i is not enough: the samples without i also place "
                    "atoms, and the candidates' atoms can land on them. In the example the changed atom moves "
                    "between 0 (the empty sample's atom) and 3 (the other unit's atom), so every neighbouring pair "
                    "has the same support and eps(0) = ln 2. The pigeonhole argument needs more candidates than atoms "
                    "of f_x (at most the number of samples of positive probability); with that condition the "
                    "conclusion is checked on every domain of the enumeration.")
R2B = Claim(
    id="htm.r2.not_pure_unconstrained",
    title="Result 2, second part, for X = X_1^N (no binding total): p(empty) < 1 and card X_1 >= 2^N => "
          "eps_{Z_0,X}(0) = +oo",
    source=_src("Section 2.1, Result 2 (second statement)"), kind="identity",
    lhs=sp.Symbol(r"\varepsilon_{Z_0,X}(0)"), rhs=sp.oo, enumeration=_result2b_enum,
    note="Follows from htm.r3.corrected: without a binding total, a section has card X_1 >= 2^N candidates and "
         "at most 2^{N-1} samples avoid unit i, so for N >= 2, 2^N > 1 + 2^{N-1} >= 1 + card B; for N = 1, "
         "supp f_x = {0, x/p} (or {x/p}) differs for any two values. Checked exhaustively on designs with N <= 2. "
         "With a binding total constraint the statement fails (erratum htm.r2.not_pure).")
erratum("htm.r2.not_pure",
        printed=Claim(id="htm.r2.not_pure.printed",
                      title="Result 2, second part, as printed (X with a total constraint): p(empty) < 1 and "
                            "card X_1 >= 2^N => eps_{Z_0,X}(0) = +oo",
                      source=_src("Section 2.1, Result 2 (second statement)"), kind="identity",
                      lhs=_example_eps0((-2, -1, 0, 1)), rhs=sp.oo, counterexample={},
                      note=_EX_NOTE.replace("{0,1}^2", "X_1^2").replace("X_1^2", "X_1^2, X_1 = {-2, -1, 0, 1}", 1)
                      .replace("{(0,1), (1,0), (1,1)}", "{(0,1), (1,0), (1,1)} (the other values give totals "
                               "outside [1, 2])")),
        corrected=R2B,
        explanation="The domain X of Section 1.2 restricts the population total to [m_t, M_t]; then card X_1 >= 2^N "
                    "does not give many candidates for one unit given the others. With X_1 = {-2, -1, 0, 1} "
                    "(4 = 2^2 values), p(empty) = 1/3 and totals in [1, 2], X is {(0,1), (1,0), (1,1)} and "
                    "eps(0) = ln 2 is finite. Without a binding total constraint the statement holds on every "
                    "small design enumerated.")


def _result4_enum() -> Enumeration:
    n = avoid = 0
    for name, design, x, xp, i, f, g in pair_laws():
        pi = _inclusion(design)
        n += 1
        with_i = {}
        for p, s in design:
            if p > 0 and i in s:
                for a, sign in ((ht(x, s, pi), 1), (ht(xp, s, pi), -1)):
                    with_i[a] = with_i.get(a, Fraction(0)) + sign * p
        printed = sum((max(v, Fraction(0)) for v in with_i.values()), Fraction(0))
        dlt = _tv(f, g)
        if dlt != printed or dlt > pi[i]:
            return _fail(n, f"delta(0) = {dlt}, printed sum = {printed}, p_i = {pi[i]}", name, x, xp, i)
        i_atoms = {ht(x, s, pi) for p, s in design if p > 0 and i in s}
        if not i_atoms & set(g):
            avoid += 1
            if dlt != pi[i]:
                return _fail(n, "i-atoms of x avoid supp f_x' but delta(0) != p_i", name, x, xp, i)
    return Enumeration(True, n, f"designs: {DESIGN_NAMES}; in {avoid} pairs the atoms t(x,s), s containing i, "
                                "avoid supp f_x', and there delta(0, x, x') = p_i")


register(Claim(
    id="htm.r4.delta0_pair",
    title="Result 4: delta(0,x,x') = sum_z (sum_{s ni i} p(s)(1{t(x,s)=z} - 1{t(x',s)=z}))_+ <= p_i; "
          "= p_i when the atoms t(x,s), s ni i, avoid supp f_{x'}",
    source=_src("Section 2.2.1, Result 4 and its corollary"), kind="identity",
    lhs=sp.Symbol(r"\delta_{Z_0,X}(0,x,x')"),
    rhs=sp.Symbol(r"\sum_z\Big(\sum_{s\ni i} p(s)(1_{\{z\}}(\hat t(x,s)) - 1_{\{z\}}(\hat t(x',s)))\Big)_+"),
    enumeration=_result4_enum,
    note="Samples without i give the same atom under x and x' and cancel; bounding the positive part by the "
         "positive terms gives p_i."))


def _corollary_printed_enum() -> Enumeration:
    n = disjoint = 0
    for name, design, x, xp, i, f, g in pair_laws():
        n += 1
        if not set(f) & set(g):
            disjoint += 1
            if _tv(f, g) != _inclusion(design)[i] or _inclusion(design)[i] != 1:
                return _fail(n, "disjoint supports but delta(0) != p_i = 1", name, x, xp, i)
    return Enumeration(True, n, f"{disjoint} pairs with disjoint supports, all in designs where p_i = 1 "
                                "(census N=3, take-all unit)")


register(Claim(
    id="htm.r4.corollary_as_printed",
    title="Result 4's corollary as printed: supp f_{x'} and supp f_x disjoint => delta(0,x,x') = p_i "
          "(true, but only when p_i = 1)",
    source=_src("Section 2.2.1, after Result 4"), kind="identity",
    lhs=sp.Symbol(r"\delta_{Z_0,X}(0,x,x')"), rhs=sp.Symbol("p_i"), conditions=(
        sp.Symbol(r"\mathrm{supp} f_{Z_0|X=x} \cap \mathrm{supp} f_{Z_0|X=x'} = \emptyset"),),
    enumeration=_corollary_printed_enum,
    note="A sample without i gives a common atom, so disjoint supports force p_i = 1 and then delta(0) = 1 = p_i. "
         "The useful statement (avoiding atoms of the samples containing i) is htm.r4.delta0_pair. The printed "
         "conclusion writes delta_{Z,X}(0) for delta_{Z,X}(0, x, x')."))

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
    return Enumeration(True, n, f"b = 0, designs: {DESIGN_NAMES}; {inf_cases} pairs with supp f_x not in "
                                "supp f_x' (eps = oo), the others: delta(ln c*) = 0 < delta(ln c* - 1e-6), "
                                "c* = max ratio, exactly")


RESULT5 = register(Claim(
    id="htm.r5.epsilon0",
    title="Result 5 (corrected): eps(0,x,x') = +oo if b = 0 and supp f_x is not in supp f_x'; "
          "otherwise ln sup_z f_x(z)/f_x'(z)",
    source=_src("Section 2.2.2, Result 5"), kind="identity",
    lhs=sp.Symbol(r"\varepsilon_{Z_b,X}(0,x,x')"),
    rhs=sp.log(sp.Symbol(r"\sup_z f_{Z_b|X=x}(z)/f_{Z_b|X=x'}(z)")), enumeration=_result5_enum,
    note="delta(eps) = 0 iff f_x <= e^eps f_x' (everywhere for b > 0, the densities being continuous), i.e. "
         "iff e^eps >= sup ratio."))
_ratio_census = sp.exp(Delta / b)      # sup of f_x/f_x' for the census design (htm.census.delta)
erratum("htm.r5.epsilon0",
        printed=Claim(id="htm.r5.epsilon0.printed",
                      title="Result 5 as printed: eps(0,x,x') = sup_z f_x(z)/f_x'(z) (census design, "
                            "t(x) - t(x') = Delta)",
                      source=_src("Section 2.2.2, Result 5"), kind="identity",
                      lhs=Delta / b, rhs=_ratio_census,
                      counterexample={Delta: sp.Integer(1), b: sp.Integer(1)},
                      note="lhs: eps(0,x,x') from the definition, the least eps with delta(eps) = 0, which is "
                           "Delta/b by htm.census.delta; rhs: the printed value, sup ratio = e^{Delta/b}."),
        corrected=RESULT5,
        explanation="The printed Result 5 gives the supremum of the density ratio itself; the definition "
                    "eps = inf{eps: delta(eps) <= 0} gives its logarithm. For the census design with Delta = b = 1 "
                    "the printed value is e = 2.718..., the true one 1 (delta(eps) = 1 - e^{(eps - 1)/2} "
                    "vanishes exactly from eps = 1).")

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
    title="Between consecutive atoms: 2b f_x(z) = e^{z/b} u^- + e^{-z/b} u^+, u^- = sum_{t(x,s) right} p(s) e^{-t/b}, "
          "u^+ = sum_{t(x,s) left} p(s) e^{t/b}",
    source=_src("Section 2.2.2, proof of Result 6 (u^-_{x,b}(j), u^+_{x,b}(j))"), kind="identity",
    lhs=_mix, rhs=sp.exp(z / b) * _u_minus + sp.exp(-z / b) * _u_plus,
    note="Generic configuration: two atoms right of z (at z + e_k) and two left (at z - w_k) with weights p(s); "
         "u^- and u^+ are constant on the interval because no atom crosses z there."))
DERIV = register(Claim(
    id="htm.ratio.derivative",
    title="d/dz (u^- e^{z/b} + u^+ e^{-z/b})/(u'^- e^{z/b} + u'^+ e^{-z/b}) = 2(u^- u'^+ - u^+ u'^-)/(b D^2)",
    source=_src("Section 2.2.2, proof of Result 6 (derivative of the ratio)"), kind="identity",
    lhs=sp.diff(RATIO, z), rhs=DERIVATIVE,
    note="D = u'^- e^{z/b} + u'^+ e^{-z/b} > 0."))
erratum("htm.ratio.derivative",
        printed=Claim(id="htm.ratio.derivative.printed",
                      title="The derivative of the ratio as printed: 2 (u^- u'^+ - u^+ u'^-) / D^2 (no 1/b)",
                      source=_src("Section 2.2.2, proof of Result 6 (derivative of the ratio)"), kind="identity",
                      lhs=sp.diff(RATIO, z), rhs=2 * _K / _den**2,
                      counterexample={um: sp.Integer(2), up_: sp.Integer(1), ump: sp.Integer(1), upp: sp.Integer(1),
                                      z: sp.Integer(0), b: sp.Integer(2)}),
        corrected=DERIV,
        explanation="The chain rule gives a factor 1/b (d/dz e^{+-z/b} = +-e^{+-z/b}/b) that the printed derivative "
                    "drops: with u^- = 2, u^+ = u'^- = u'^+ = 1, b = 2 at z = 0 the derivative is 1/4, the printed "
                    "expression 1/2. The sign conclusion is unaffected (b > 0).")


def _monotone_between_atoms() -> Proof:
    return zero(sp.diff(RATIO, z) * b * _den**2 / 2 - _K, "R' b D^2 / 2 = u^- u'^+ - u^+ u'^-")


register(Claim(
    id="htm.ratio.derivative_sign",
    title="Sign of the derivative of the ratio = sign of u^- u'^+ - u^+ u'^-, constant between atoms",
    source=_src("Section 2.2.2, proof of Result 6 (sign of the derivative)"), kind="sign",
    lhs=sp.diff(RATIO, z) * _K, relation=">=",
    proof=lambda: all_of(_monotone_between_atoms(), Proof(bool((b * _den**2).is_positive), (
        "b D^2 > 0, so R' (u^- u'^+ - u^+ u'^-) = 2 (u^- u'^+ - u^+ u'^-)^2/(b D^2) >= 0, "
        "and R' = 0 only where u^- u'^+ = u^+ u'^-",))),
    note="So on each interval between consecutive atoms the ratio is monotone and its maximum over the closed "
         "interval is at an end point."))
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


for _side, _where, _form in (("left", "(-oo, min T_{x,x'}]", "sum_s p(s) e^{-t(x,s)/b} / sum_s p(s) e^{-t(x',s)/b}"),
                             ("right", "[max T_{x,x'}, oo)", "sum_s p(s) e^{t(x,s)/b} / sum_s p(s) e^{t(x',s)/b}")):
    _r, _k = _tail_ratio(_side)
    register(Claim(
        id=f"htm.r6.{_side}_constant", title=f"Result 6: on {_where} the ratio f_x/f_x' is constant, = {_form}",
        source=_src("Section 2.2.2, Result 6 and its proof"), kind="identity", lhs=_r, rhs=_k,
        proof=(lambda r=_r, k=_k: zero(sp.powsimp(sp.expand(sp.cancel(r - k))), "ratio minus constant")),
        note="Generic design with three samples, z at distance w beyond every atom of x and x'."))


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
                                f"over the atoms; designs: {', '.join(d[0] for d in _EVENT_DESIGNS[:2])}, "
                                "values in {-1, 0, 1}")


register(Claim(
    id="htm.r6.sup_on_atoms",
    title="Result 6: if b > 0, sup_z f_x(z)/f_x'(z) = max over the atoms T_{x,x'} of the ratio",
    source=_src("Section 2.2.2, Result 6"), kind="identity",
    lhs=sp.Symbol(r"\sup_{z\in\mathbb{R}} f_x(z)/f_{x'}(z)"),
    rhs=sp.Symbol(r"\max_{z\in T_{x,x'}} f_x(z)/f_{x'}(z)"),
    proof=lambda: all_of(*(zero(sp.powsimp(sp.expand(sp.cancel(r - k))), f"{s} tail constant")
                           for s in ("left", "right") for r, k in [_tail_ratio(s)]),
                         _monotone_between_atoms(),
                         Proof(True, ("the ratio is continuous, constant on both tails and monotone on every interval "
                                      "between consecutive atoms, so its supremum is a maximum over the atoms",))),
    enumeration=_result6_enum,
    note="For b = 0 under supp f_x in supp f_x' the statement is the definition (the ratio is only defined on the "
         "atoms)."))
