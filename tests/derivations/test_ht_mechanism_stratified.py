"""The claims of ``derivations.ht_mechanism.stratified`` (000_3f4b38deb4c4e7bd.txt, Sections 1.4-2.3 applied to
stratified and Poisson designs, bounded values, tables and the accuracy of the release): labels, negative
controls, and each closed form or reduction against an independent computation.

References (none uses the module's proof routines; the designs are enumerated here):

* stratified, Poisson and table reductions: the law of the HT total by brute force over every sample of small
  designs (``itertools.combinations`` for SRS, every subset with its probability for Poisson sampling, products
  of the strata's designs), exact Fractions; delta without noise is sum_z (f(z) - e^eps g(z))_+ exactly, and
  with Laplace or Gaussian noise ``mpmath.quad`` of (f - e^eps g)_+ split at every atom and every sign change
  (found by scanning and bisection) at 30 digits;
* Poisson closed forms: the same quadrature of the one-unit mechanism (1 - pi) K(z) + pi K(z - y/pi);
* KOV: the hockey-stick divergence of the k-fold randomized-response pair summed over all 2^k outcomes, exact
  Fractions with e^{eps_0} = 2;
* variance: E Z^2 - (E Z)^2 of the mixture density by ``mpmath.quad``, against the design variance from the
  enumeration plus the noise variance.

Tolerances: exact equality for Fractions; relative 1e-20 for quadratures at 30 digits (1e-15 where a
supremum or a bound is compared, with the closed form's side named).
"""
from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

import derivations
from _labels import assert_label_and_mutations
from derivations.engine.core import verify_inline
from derivations.ht_mechanism import stratified as M

MPMATH_DPS = 30

EXPECTED = {
    "htm.strat.density_mixture": "PROVED",
    "htm.strat.mixture_bound": "PROVED (with citations)",
    "htm.strat.translation": "PROVED",
    "htm.poisson.one_unit_mixture": "PROVED",
    "htm.poisson.laplace_forward": "PROVED (with citations)",
    "htm.poisson.laplace_reverse": "PROVED (with citations)",
    "htm.poisson.gaussian_forward": "PROVED (with citations)",
    "htm.poisson.gaussian_reverse": "PROVED (with citations)",
    "htm.poisson.laplace_mlr": "PROVED",
    "htm.poisson.worst_pair_half_line": "PROVED (with citations)",
    "htm.poisson.reflection": "PROVED (with citations)",
    "htm.bounded.sensitivity": "PROVED (with citations)",
    "htm.bounded.binary_pair": "PROVED (with citations)",
    "htm.table.parallel": "PROVED (with citations)",
    "htm.table.basic_composition": "PROVED (with citations)",
    "htm.table.kov_composition": "PROVED (with citations)",
    "htm.accuracy.variance": "PROVED (with citations)",
    "htm.srs.amplification": "PROVED (with citations)",
}
PREFIXES = ("htm.strat.", "htm.poisson.", "htm.bounded.", "htm.table.", "htm.accuracy.", "htm.srs.")
GAMMAS = (Fraction(1), Fraction(3, 2), Fraction(4))      # e^eps, rational


# -- labels and negative controls -------------------------------------------------------------------------
def test_every_claim_of_the_module_is_listed():
    assert {c.id for c in derivations.claims() if c.id.startswith(PREFIXES)} == set(EXPECTED)


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_label_and_mutations(claim_id):
    """The claim gets its label; its mutated statements are not proved (the proof is tied to the statement)."""
    assert_label_and_mutations(claim_id, EXPECTED[claim_id])


def wrong(claim_id, **changes):
    return dataclasses.replace(derivations.get(claim_id), id=claim_id + ".wrong", **changes)


def test_proofs_need_the_stated_conditions():
    """Without the conditions its proof uses, a claim is not proved (they are checked, not assumed)."""
    assert not verify_inline(wrong("htm.strat.mixture_bound",
                                   conditions=derivations.get("htm.strat.mixture_bound").conditions[:2])).proved
    half_line = derivations.get("htm.poisson.worst_pair_half_line")
    assert not verify_inline(wrong("htm.poisson.worst_pair_half_line", conditions=half_line.conditions[:2])).proved
    assert not verify_inline(wrong("htm.poisson.laplace_mlr", conditions=())).proved
    assert not verify_inline(wrong("htm.poisson.reflection",
                                   conditions=derivations.get("htm.poisson.reflection").conditions[:2])).proved
    assert not verify_inline(wrong("htm.bounded.sensitivity",
                                   conditions=derivations.get("htm.bounded.sensitivity").conditions[:3])).proved


def test_plausible_slips_are_not_proved():
    """A bound without delta_h; the Laplace closed forms with e^{-Delta/b} for e^{-Delta/(2b)}; the sensitivity
    without the factor N/n; the KOV exponent k - 2i - l for k - 2i + l; the Laplace noise variance b^2."""
    c = derivations.get("htm.strat.mixture_bound")
    assert not verify_inline(wrong("htm.strat.mixture_bound", rhs=c.rhs - M.delta_h)).proved
    bad = M.pi_ - sp.sqrt(M.pi_ * M._c) * sp.exp(-M.Delta / M.b)
    assert not verify_inline(wrong("htm.poisson.laplace_forward", rhs=bad)).proved
    bad = M._cr - sp.sqrt(sp.exp(M.eps) * M.pi_ * M._cr) * sp.exp(-M.Delta / M.b)
    assert not verify_inline(wrong("htm.poisson.laplace_reverse", rhs=bad)).proved
    assert not verify_inline(wrong("htm.bounded.sensitivity", rhs=M.hi - M.lo)).proved
    k, i, l_, e0 = M._kk, M._ii, M._ll, M.e0
    bad = sp.Sum(sp.binomial(k, l_) * (sp.exp((k - l_) * e0) - sp.exp((k - 2 * i - l_) * e0)),
                 (l_, 0, i - 1)) / (1 + sp.exp(e0))**k
    assert not verify_inline(wrong("htm.table.kov_composition", rhs=bad)).proved
    assert not verify_inline(wrong("htm.accuracy.variance", rhs=M.V_d + M.b**2)).proved


def test_amplification_slips_are_not_proved():
    """The cited amplification by sampling without replacement: delta_M not scaled by n/N, scaled by N/n, or the
    relation reversed, is not an instance of the cited form; nor is the claim without its condition n <= N."""
    c = derivations.get("htm.srs.amplification")
    assert verify_inline(c).proved                                           # control: the stated claim is
    assert not verify_inline(wrong("htm.srs.amplification", rhs=M._DELTA_M(M.eps))).proved
    assert not verify_inline(wrong("htm.srs.amplification", rhs=M.N_a / M.n_a * M._DELTA_M(M.eps))).proved
    assert not verify_inline(wrong("htm.srs.amplification", relation=">=")).proved
    assert not verify_inline(wrong("htm.srs.amplification", conditions=())).proved


# -- exact laws of small designs (independent enumeration) ------------------------------------------------
def srs_design(units, n):
    samples = list(itertools.combinations(units, n))
    return [(Fraction(1, len(samples)), frozenset(s)) for s in samples]


def poisson_design(pis: dict):
    units = sorted(pis)
    out = []
    for mask in itertools.product((0, 1), repeat=len(units)):
        p = Fraction(1)
        for u, m in zip(units, mask):
            p *= pis[u] if m else 1 - pis[u]
        out.append((p, frozenset(u for u, m in zip(units, mask) if m)))
    return out


def product(*designs):
    """Independent designs in disjoint strata: p(s_1 u s_2 ...) = prod p_h(s_h)."""
    out = []
    for combo in itertools.product(*designs):
        p = Fraction(1)
        s = frozenset()
        for ph, sh in combo:
            p *= ph
            s |= sh
        out.append((p, s))
    return out


def inclusion(design):
    units = set().union(*(s for _, s in design))
    return {j: sum((p for p, s in design if j in s), Fraction(0)) for j in units}


def law(design, x):
    """atom -> probability of the HT total t(x, S) = sum_{j in S} x_j / pi_j."""
    pi = inclusion(design)
    f = {}
    for p, s in design:
        if p:
            a = sum((Fraction(x[j]) / pi[j] for j in s), Fraction(0))
            f[a] = f.get(a, Fraction(0)) + p
    return f


def delta0(f, g, gamma):
    return sum((max(f.get(a, 0) - gamma * g.get(a, 0), 0) for a in set(f) | set(g)), Fraction(0))


def neighbours(units, values):
    """Every (x, x', i) with x, x' in values^units differing at exactly unit i."""
    units = sorted(units)
    for xs in itertools.product(values, repeat=len(units)):
        x = dict(zip(units, xs))
        for i in units:
            for v in values:
                if v != x[i]:
                    yield x, {**x, i: v}, i


# -- noisy deltas by quadrature (independent of the module's closed forms) ------------------------------------
def laplace(z, scale):
    return mp.exp(-abs(z) / scale) / (2 * scale)


def gauss(z, scale):
    return mp.npdf(z, 0, scale)


def delta_noisy(f, g, gamma, kernel, scale):
    """int (sum_a f(a) K(z - a) - gamma sum_a g(a) K(z - a))_+ dz, split at every atom and sign change."""
    fa = [(mp.mpf(a.numerator) / a.denominator, mp.mpf(p.numerator) / p.denominator) for a, p in f.items()]
    ga = [(mp.mpf(a.numerator) / a.denominator, mp.mpf(p.numerator) / p.denominator) for a, p in g.items()]
    gam = mp.mpf(gamma.numerator) / gamma.denominator if isinstance(gamma, Fraction) else mp.mpf(gamma)

    def D(zz):
        return sum(p * kernel(zz - a, scale) for a, p in fa) - gam * sum(p * kernel(zz - a, scale) for a, p in ga)

    atoms = sorted({a for a, _ in fa} | {a for a, _ in ga})
    lo_, hi_ = atoms[0] - 40 * scale, atoms[-1] + 40 * scale
    grid = sorted(set(atoms) | {lo_ + (hi_ - lo_) * k / 600 for k in range(601)})
    cuts = list(atoms)
    values = [D(u) for u in grid]
    for (u, du), (v, dv) in zip(zip(grid, values), zip(grid[1:], values[1:])):
        if du == 0:
            cuts.append(u)
        elif du * dv < 0:
            cuts.append(mp.findroot(D, (u, v), solver="illinois"))
    cuts = sorted(set(cuts))
    pieces = [-mp.inf] + cuts + [mp.inf]
    total = mp.mpf(0)
    for u, v in zip(pieces, pieces[1:]):
        mid = (u + v) / 2 if mp.isfinite(u) and mp.isfinite(v) else (v - 1 if not mp.isfinite(u) else u + 1)
        if D(mid) > 0:
            total += mp.quad(D, [u, v])
    return total


def close(a, b, rel=mp.mpf(10) ** -20):
    a, b = mp.mpf(a), mp.mpf(b)
    return abs(a - b) <= rel * max(abs(a), abs(b), mp.mpf(1))


# -- stratified designs -----------------------------------------------------------------------------------------
STRATA = {"A": srs_design((0, 1, 2), 2), "B": srs_design((3, 4), 1)}
UNITS = {"A": (0, 1, 2), "B": (3, 4)}


def stratum_of(i):
    return next(h for h, us in UNITS.items() if i in us)


@pytest.mark.parametrize("gamma", GAMMAS)
def test_stratified_sup_is_max_of_strata_sups(gamma):
    """Binary data, SRS 2-of-3 and SRS 1-of-2 strata, no noise: for every neighbouring pair delta_strat <=
    delta_h of the changed stratum (htm.strat.mixture_bound), and the supremum over the stratified design's
    neighbours equals the largest single-stratum supremum (htm.strat.translation: the other stratum may be all 0)."""
    design = product(STRATA["A"], STRATA["B"])
    sup_h = {h: max(delta0(law(STRATA[h], x), law(STRATA[h], xp), gamma)
                    for x, xp, _ in neighbours(UNITS[h], (0, 1))) for h in STRATA}
    sup_strat = Fraction(0)
    for x, xp, i in neighbours(range(5), (0, 1)):
        h = stratum_of(i)
        d = delta0(law(design, x), law(design, xp), gamma)
        dh = delta0(law(STRATA[h], {j: x[j] for j in UNITS[h]}), law(STRATA[h], {j: xp[j] for j in UNITS[h]}), gamma)
        assert d <= dh, (x, xp, d, dh)
        if all(x[j] == 0 for j in range(5) if stratum_of(j) != h):
            assert d == dh, (x, xp)
        sup_strat = max(sup_strat, d)
    assert sup_strat == max(sup_h.values())
    assert sup_strat > 0


def test_stratified_with_a_poisson_stratum_and_three_values():
    """The reduction does not depend on the designs: a Poisson stratum and an SRS stratum, values {0, 1, 3}."""
    A = poisson_design({0: Fraction(1, 2), 1: Fraction(1, 3)})
    B = srs_design((2, 3), 1)
    design = product(A, B)
    units = {0: A, 1: A, 2: B, 3: B}
    gamma = Fraction(3, 2)
    for x, xp, i in neighbours(range(4), (0, 1, 3)):
        stratum = units[i]
        own = [j for j in range(4) if units[j] is stratum]
        d = delta0(law(design, x), law(design, xp), gamma)
        dh = delta0(law(stratum, {j: x[j] for j in own}), law(stratum, {j: xp[j] for j in own}), gamma)
        assert d <= dh
        if all(x[j] == 0 for j in range(4) if j not in own):
            assert d == dh


def test_stratified_laplace_noise():
    """Laplace noise (scale 1/2), SRS strata: delta_strat <= delta_h on sample pairs, equality when the other
    stratum is all 0 and also when it is all 1 (SRS: its estimate is the constant N_g), by quadrature."""
    design = product(STRATA["A"], STRATA["B"])
    gamma, scale = mp.mpf(1.5), mp.mpf(1) / 2
    xA, xpA = {0: 1, 1: 0, 2: 0}, {0: 0, 1: 0, 2: 0}
    dh = delta_noisy(law(STRATA["A"], xA), law(STRATA["A"], xpA), gamma, laplace, scale)
    assert dh > mp.mpf(10) ** -3
    for other in ({3: 0, 4: 0}, {3: 1, 4: 1}, {3: 1, 4: 0}):
        d = delta_noisy(law(design, {**xA, **other}), law(design, {**xpA, **other}), gamma, laplace, scale)
        if len(set(other.values())) == 1:
            assert close(d, dh), (other, d, dh)
        else:
            assert d <= dh * (1 + mp.mpf(10) ** -20) and d < dh, (other, d, dh)


# -- Poisson sampling -----------------------------------------------------------------------------------------------
PIS = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(3, 4)}


def one_unit_law(pi, y):
    return {Fraction(0): 1 - pi, Fraction(y) / pi: pi} if y != 0 else {Fraction(0): Fraction(1)}


@pytest.mark.parametrize("gamma", GAMMAS)
def test_poisson_reduces_to_one_unit(gamma):
    """Poisson pi = (1/2, 1/3, 3/4), values {0, 1, 2}, no noise: delta <= delta_i of the one-unit mechanism
    y s_i/pi_i, with equality when the other units are 0 (htm.poisson.one_unit_mixture with the stratified claims)."""
    design = poisson_design(PIS)
    for x, xp, i in neighbours(range(3), (0, 1, 2)):
        d = delta0(law(design, x), law(design, xp), gamma)
        di = delta0(one_unit_law(PIS[i], x[i]), one_unit_law(PIS[i], xp[i]), gamma)
        assert d <= di
        if all(x[j] == 0 for j in range(3) if j != i):
            assert d == di


def forward_closed(pi, Dl, scale, gamma):
    c = gamma - 1 + pi
    return max(mp.mpf(0), pi - mp.sqrt(pi * c) * mp.exp(-Dl / (2 * scale)))


def reverse_closed(pi, Dl, scale, gamma):
    c = 1 - gamma * (1 - pi)
    return mp.mpf(0) if c <= 0 else max(mp.mpf(0), c - mp.sqrt(gamma * pi * c) * mp.exp(-Dl / (2 * scale)))


def gaussian_forward_closed(pi, Dl, s, gamma):
    c = gamma - 1 + pi
    L = mp.log(c / pi)
    return pi * mp.ncdf(Dl / (2 * s) - s * L / Dl) - c * mp.ncdf(-Dl / (2 * s) - s * L / Dl)


def gaussian_reverse_closed(pi, Dl, s, gamma):
    c = 1 - gamma * (1 - pi)
    if c <= 0:
        return mp.mpf(0)
    L = mp.log(gamma * pi / c)
    return c * mp.ncdf(Dl / (2 * s) - s * L / Dl) - gamma * pi * mp.ncdf(-Dl / (2 * s) - s * L / Dl)


def one_unit_mp(pi, y):
    return {Fraction(0): 1 - pi, y / pi: pi}


def test_poisson_closed_forms_against_quadrature():
    """htm.poisson.laplace_forward / laplace_reverse / gaussian_forward / gaussian_reverse against quad of the
    one-unit mechanism,
    random rational pi, y, scale, eps (including points where the closed form's max(0, .) is active)."""
    rng = random.Random(20261129)
    seen_zero = seen_pos = 0
    for _ in range(12):
        pi = Fraction(rng.randint(1, 19), 20)
        y = Fraction(rng.randint(1, 12), 4)
        scale = Fraction(rng.randint(1, 16), 8)
        gamma = mp.exp(mp.mpf(rng.randint(0, 30)) / 10)
        f, g = one_unit_mp(pi, y), {Fraction(0): Fraction(1)}
        pim, Dl, sc = mp.mpf(pi.numerator) / pi.denominator, mp.mpf(y.numerator) / y.denominator / (
            mp.mpf(pi.numerator) / pi.denominator), mp.mpf(scale.numerator) / scale.denominator
        fwd = delta_noisy(f, g, gamma, laplace, sc)
        assert close(fwd, forward_closed(pim, Dl, sc, gamma), mp.mpf(10) ** -18), (pi, y, scale, gamma)
        rev = delta_noisy(g, f, gamma, laplace, sc)
        assert close(rev, reverse_closed(pim, Dl, sc, gamma), mp.mpf(10) ** -18), (pi, y, scale, gamma)
        gfwd = delta_noisy(f, g, gamma, gauss, sc)
        assert close(gfwd, gaussian_forward_closed(pim, Dl, sc, gamma), mp.mpf(10) ** -18)
        grev = delta_noisy(g, f, gamma, gauss, sc)
        assert close(grev, gaussian_reverse_closed(pim, Dl, sc, gamma), mp.mpf(10) ** -18)
        seen_zero += rev == 0 or fwd == 0
        seen_pos += fwd > 0
    assert seen_pos >= 6


def test_poisson_closed_forms_are_the_claims_expressions():
    """The claims' own right sides, evaluated exactly by SymPy at points inside their conditions, against the
    quadrature."""
    pi, y, eps = Fraction(2, 5), Fraction(1), sp.Rational(1, 2)
    at = {M.pi_: sp.Rational(2, 5), M.Delta: sp.Rational(5, 2), M.b: sp.Rational(3, 2), M.eps: eps}
    gamma = mp.exp(mp.mpf(1) / 2)
    fwd = delta_noisy(one_unit_mp(pi, y), {Fraction(0): Fraction(1)}, gamma, laplace, mp.mpf(1.5))
    assert close(fwd, sp.N(derivations.get("htm.poisson.laplace_forward").rhs.subs(at), 40))
    rev_at = {M.pi_: sp.Rational(3, 5), M.Delta: sp.Rational(5, 3), M.b: sp.Rational(3, 2), M.eps: sp.Rational(3, 10)}
    c = derivations.get("htm.poisson.laplace_reverse")
    assert all(bool(cond.subs(rev_at)) for cond in c.conditions)
    rev = delta_noisy({Fraction(0): Fraction(1)}, one_unit_mp(Fraction(3, 5), y), mp.exp(mp.mpf(3) / 10), laplace,
                      mp.mpf(1.5))
    assert rev > mp.mpf(10) ** -3
    assert close(rev, sp.N(c.rhs.subs(rev_at), 40))
    at_g = {M.pi_: sp.Rational(2, 5), M.Delta: sp.Rational(5, 2), M.sigma: sp.Rational(3, 2), M.eps: eps}
    g = delta_noisy(one_unit_mp(pi, y), {Fraction(0): Fraction(1)}, gamma, gauss, mp.mpf(1.5))
    assert close(g, sp.N(derivations.get("htm.poisson.gaussian_forward").rhs.subs(at_g), 40))


def test_one_unit_profile_is_not_monotone_in_pi():
    """The figures of htm.poisson.laplace_forward's note, by quadrature: eps = 1, b = 2, y = 1 gives about 0.0650
    at pi = 0.1 and 0 at pi = 1, so the maximum over units must visit every distinct pi_i."""
    gamma, scale = mp.e, mp.mpf(2)
    small = delta_noisy(one_unit_mp(Fraction(1, 10), Fraction(1)), {Fraction(0): Fraction(1)}, gamma, laplace, scale)
    full = delta_noisy(one_unit_mp(Fraction(1), Fraction(1)), {Fraction(0): Fraction(1)}, gamma, laplace, scale)
    assert abs(small - mp.mpf("0.0650")) < mp.mpf("0.00005")
    assert full == 0


def test_poisson_full_design_equals_one_unit_closed_form():
    """Poisson on 3 units, Laplace noise, unit 1 of value 1 against 0, the others 0: delta of the whole design
    (quadrature of the 8-sample mixture) equals the forward closed form with Delta = 1/pi_1."""
    design = poisson_design(PIS)
    gamma, scale = mp.mpf(1.2), mp.mpf(3)
    x, xp = {0: 0, 1: 1, 2: 0}, {0: 0, 1: 0, 2: 0}
    d = delta_noisy(law(design, x), law(design, xp), gamma, laplace, scale)
    pi = mp.mpf(1) / 3
    assert close(d, forward_closed(pi, 1 / pi, scale, gamma), mp.mpf(10) ** -18)
    x2 = {0: 1, 1: 1, 2: 0}                 # another unit not 0: no more than the one-unit value
    d2 = delta_noisy(law(design, x2), law(design, {**x2, 1: 0}), gamma, laplace, scale)
    assert d2 <= d * (1 + mp.mpf(10) ** -20)


def test_laplace_mlr_identity_at_exact_points():
    """|z - u| - |z - c| = max(c - u, min(u - c, c + u - 2z)) at random rational points with c <= u."""
    rng = random.Random(7)
    for _ in range(300):
        c = Fraction(rng.randint(-40, 40), rng.randint(1, 7))
        u = c + Fraction(rng.randint(0, 40), rng.randint(1, 7))
        zz = Fraction(rng.randint(-80, 80), rng.randint(1, 7))
        assert abs(zz - u) - abs(zz - c) == max(c - u, min(u - c, c + u - 2 * zz))


@pytest.mark.parametrize("a,b,pi,scale,gamma", [(0, 2, 0.3, 1.0, 1.5), (-1, 2, 0.5, 2.0, 1.3), (-2, 1, 0.2, 1.5, 2.0)])
def test_worst_pair_half_line_bound(a, b, pi, scale, gamma):
    """On a grid of [a, b], by quadrature of the one-unit mechanism: pairs with y > max(0, y') are no worse than
    (b, a) and pairs with y < min(0, y') no worse than (a, b) (htm.poisson.worst_pair_half_line); pairs with the
    true value between 0 and the neighbour's are no worse than the reversed pair (htm.poisson.reflection); so no
    pair is worse than the extreme pair in one of its orders."""
    pi_f = Fraction(pi).limit_denominator(100)
    grid = [Fraction(a) + Fraction(b - a) * k / 4 for k in range(5)]
    gam, sc = mp.mpf(gamma), mp.mpf(scale)

    def d(y, yp):
        return delta_noisy(law_one(y), law_one(yp), gam, laplace, sc)

    def law_one(y):
        return {Fraction(0): Fraction(1)} if y == 0 else {Fraction(0): 1 - pi_f, y / pi_f: pi_f}

    top, bottom = d(Fraction(b), Fraction(a)), d(Fraction(a), Fraction(b))
    tol = 1 + mp.mpf(10) ** -15
    for y, yp in itertools.permutations(grid, 2):
        dy = d(y, yp)
        if y > max(0, yp):
            assert dy <= top * tol, (y, yp)
        elif y < min(0, yp):
            assert dy <= bottom * tol, (y, yp)
        elif 0 <= y < yp or yp < y <= 0:       # htm.poisson.reflection: no worse than the reversed pair
            assert dy <= d(yp, y) * tol, (y, yp)
        assert dy <= max(top, bottom) * tol    # the extreme pair, in one of its orders, is the worst


# -- bounded values under SRS -----------------------------------------------------------------------------------------
def test_binary_pair_is_an_affine_image():
    """SRS 2-of-4, values {a, b} = {-1, 3}: t(y, s) = a N + (b - a) t(x, s) for every sample and x, and delta_0 of
    every neighbouring pair on {a, b}^N equals delta_0 of the binary pair (no noise: the map is a bijection)."""
    design = srs_design(range(4), 2)
    pi = inclusion(design)
    a, b = Fraction(-1), Fraction(3)
    for xs in itertools.product((0, 1), repeat=4):
        y = {j: a + (b - a) * xs[j] for j in range(4)}
        for _, s in design:
            ty = sum(y[j] / pi[j] for j in s)
            tx = sum(Fraction(xs[j]) / pi[j] for j in s)
            assert ty == a * 4 + (b - a) * tx
    for x, xp, _ in neighbours(range(4), (0, 1)):
        y = {j: a + (b - a) * x[j] for j in x}
        yp = {j: a + (b - a) * xp[j] for j in xp}
        for gamma in GAMMAS:
            assert delta0(law(design, y), law(design, yp), gamma) == delta0(law(design, x), law(design, xp), gamma)


def test_sensitivity_is_attained_and_never_exceeded():
    """SRS 2-of-4, values on a grid of [a, b]: max over neighbouring pairs and samples of |t(y, s) - t(y', s)| is
    (b - a) N/n exactly."""
    design = srs_design(range(4), 2)
    pi = inclusion(design)
    a, b = Fraction(-1, 2), Fraction(2)
    grid = (a, Fraction(0), Fraction(1), b)
    worst = Fraction(0)
    for x, xp, _ in neighbours(range(4), grid):
        for _, s in design:
            worst = max(worst, abs(sum(Fraction(x[j]) / pi[j] for j in s) - sum(Fraction(xp[j]) / pi[j] for j in s)))
    assert worst == (b - a) * 4 / 2


def test_generic_scale_gives_delta_zero_and_binary_pair_is_below():
    """SRS 2-of-3 on values {0, 1/2, 1}: at the generic scale (sensitivity (b - a)N/n, amplified) delta(eps) is 0
    for every neighbouring pair (the upper value is safe), while delta at a smaller scale is positive for the
    pair {a, b} (the lower value)."""
    design = srs_design(range(3), 2)
    eps = mp.mpf(1)
    N, n, span = 3, 2, 1
    q = mp.mpf(n) / N
    b_gen = span * mp.mpf(N) / n / mp.log(1 + (mp.exp(eps) - 1) / q)
    vals = (Fraction(0), Fraction(1, 2), Fraction(1))
    for x, xp, i in neighbours(range(3), vals):
        if i != 0:                # SRS is exchangeable: the pairs changing unit 0 are all pairs up to relabelling
            continue
        d = delta_noisy(law(design, x), law(design, xp), mp.exp(eps), laplace, b_gen)
        assert d <= mp.mpf(10) ** -25, (x, xp, d)
    x, xp = {0: 1, 1: 0, 2: 0}, {0: 0, 1: 0, 2: 0}
    assert delta_noisy(law(design, x), law(design, xp), mp.exp(eps), laplace, b_gen / 2) > mp.mpf(10) ** -3


# -- tables --------------------------------------------------------------
@pytest.mark.parametrize("gamma", GAMMAS)
def test_parallel_composition_of_independent_cells(gamma):
    """Two cells drawn independently (SRS 1-of-2 each), released jointly: delta of the joint law of the two cells'
    totals equals delta of the changed cell, for every neighbouring pair (htm.table.parallel)."""
    A, B = srs_design((0, 1), 1), srs_design((2, 3), 1)

    def joint(x):
        fa, fb = law(A, {j: x[j] for j in (0, 1)}), law(B, {j: x[j] for j in (2, 3)})
        return {(u, v): p * q for u, p in fa.items() for v, q in fb.items()}

    for x, xp, i in neighbours(range(4), (0, 1, 2)):
        cell, own = (A, (0, 1)) if i in (0, 1) else (B, (2, 3))
        assert delta0(joint(x), joint(xp), gamma) == delta0(law(cell, {j: x[j] for j in own}),
                                                            law(cell, {j: xp[j] for j in own}), gamma)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_kov_delta_i_is_the_randomized_response_hockey_stick(k):
    """E_{2^{k-2i}}(P^k || Q^k) summed over all 2^k outcomes (e^{eps_0} = 2, exact) equals the claim's right side."""
    g0 = Fraction(2)
    rhs = derivations.get("htm.table.kov_composition").rhs
    for i in range(0, k // 2 + 1):
        total = Fraction(0)
        for out in itertools.product((0, 1), repeat=k):
            p = q = Fraction(1)
            for o in out:                   # o = 1: the answer is flipped
                p *= (1 if o else g0) / (1 + g0)
                q *= (g0 if o else 1) / (1 + g0)
            total += max(p - g0 ** (k - 2 * i) * q, 0)
        val = sp.nsimplify(sp.simplify(rhs.subs({M._kk: k, M._ii: i, M.e0: sp.log(2)}).doit()))
        assert sp.Rational(total.numerator, total.denominator) == val, (k, i, total, val)


# -- accuracy --------------------------------------------------------------
@pytest.mark.parametrize("kernel,noise_var", [("laplace", lambda s: 2 * s**2), ("gauss", lambda s: s**2)])
def test_variance_of_the_noisy_total(kernel, noise_var):
    """SRS 2-of-4 with values (1, 3, 0, 5): Var Z by quadrature of the mixture density = design variance (exact
    enumeration) + 2 b^2 (Laplace) or sigma^2 (Gaussian)."""
    design = srs_design(range(4), 2)
    x = {0: 1, 1: 3, 2: 0, 3: 5}
    f = law(design, x)
    mean = sum(a * p for a, p in f.items())
    assert mean == 9
    var_d = sum((a - mean) ** 2 * p for a, p in f.items())
    scale = mp.mpf(3) / 4
    K = laplace if kernel == "laplace" else gauss
    atoms = [(mp.mpf(a.numerator) / a.denominator, mp.mpf(p.numerator) / p.denominator) for a, p in f.items()]

    def dens(zz):
        return sum(p * K(zz - a, scale) for a, p in atoms)

    pts = [-mp.inf] + sorted(a for a, _ in atoms) + [mp.inf]
    m1 = mp.quad(lambda zz: zz * dens(zz), pts)
    m2 = mp.quad(lambda zz: zz**2 * dens(zz), pts)
    assert close(m1, 9)
    assert close(m2 - m1**2, mp.mpf(var_d.numerator) / var_d.denominator + noise_var(scale))
