"""Independent checks of the class-wise terms in the proof of Result 7, and of Result 7
(000_3f4b38deb4c4e7bd.txt, Section 2.2.2).

None of the references below uses the module's reduced (sh/ch) forms or its resolution of the
absolute values by class:

* the paper's a, c, d (a(x,x',s,s') = exp((t(x,s) + |z - t(x',s')|)/b), the form its case
  computations use) evaluated in mpmath at 40 digits, absolute values computed numerically;
* the derivative of the Laplace kernel exp(-|z - t|/b) by mpmath's numerical differentiation
  (``mpmath.diff``) away from the kinks;
* f_x/f_x' summed by brute force over every sample of small designs and differentiated
  numerically;
* class membership decided by comparing the atoms with z directly.

Tolerances: values at 40 digits are compared with a relative tolerance of 1e-25 (mpmath.diff
loses a few digits); signs are asserted with a margin of 1e-30 relative to the size of the terms.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

import derivations
from derivations.ht_mechanism import result7 as H

REL = mp.mpf(10) ** -25
ORDER = [c.key for c in H.CLASSES]


@pytest.fixture(autouse=True)
def forty_digits():
    """Every test of this file works at 40 digits; the global precision is restored afterwards."""
    with mp.workdps(40):
        yield


# -- independent definitions --------------------------------------------------------------------
def classify(ax, axp, zz, contains_i):
    """The class of a sample at zz, from its atoms (x_i > x'_i, so axp < ax for samples with i)."""
    if not contains_i:
        return "minus_out" if ax <= zz else "plus_out"
    if ax <= zz:
        return "minus_in"
    return "zero_in" if axp <= zz else "plus_in"


def kernel(zz, t, bb):
    return mp.exp(-abs(zz - t) / bb)


def a_def(tx_s, txp_s2, zz, bb):
    """a(x, x', s, s') = exp((t(x,s) + |z - t(x',s')|)/b) with the absolute value computed."""
    return mp.exp((tx_s + abs(zz - txp_s2)) / bb)


def c_def(s, s2, zz, bb):
    """c(x, x', s, s'); a sample is the pair (t(x, s), t(x', s))."""
    return a_def(s[0], s2[1], zz, bb) - a_def(s[1], s2[0], zz, bb)


def d_def(s, s2, zz, bb):
    return c_def(s, s2, zz, bb) + c_def(s2, s, zz, bb)


def n_def(s, s2, zz, bb):
    """k'(z, t(x,s)) k(z, t(x',s')) - k(z, t(x,s)) k'(z, t(x',s')), derivatives numerical."""
    dk = lambda t: mp.diff(lambda u: kernel(u, t, bb), zz)  # noqa: E731
    return dk(s[0]) * kernel(zz, s2[1], bb) - kernel(zz, s[0], bb) * dk(s2[1])


def rational(rng, lo, hi, den=997):
    return Fraction(rng.randint(int(lo * den), int(hi * den)), den)


def mpf(q: Fraction):
    return mp.mpf(q.numerator) / q.denominator


def random_pair_point(rng, c1, c2):
    """Rejection sampling of a point where sample s is in class c1 and s' in c2 (strictly: z is no atom)."""
    for _ in range(100_000):
        bb, p = rational(rng, 0.3, 3), rational(rng, 0.1, 1)
        xpi = rational(rng, -2, 2)
        xi = xpi + rational(rng, 0.05, 3)
        zz = rational(rng, -3, 3)
        vals = [rational(rng, -7, 7), rational(rng, -7, 7)]
        samples = []
        for cls, v in zip((c1, c2), vals):
            inside = cls in ("minus_in", "zero_in", "plus_in")
            ax, axp = (v + xi / p, v + xpi / p) if inside else (v, v)
            samples.append((ax, axp, inside))
        if any(zz in (ax, axp) for ax, axp, _ in samples):
            continue
        if [classify(ax, axp, zz, ins) for ax, axp, ins in samples] == [c1, c2]:
            return dict(b=bb, p=p, xi=xi, xpi=xpi, z=zz, vals=vals, samples=samples)
    raise AssertionError(f"no point found for {c1} x {c2}")


def evaluate(expr, pt, s, s2):
    """A SymPy expression of the module at the point, in mpmath (symbols matched by name)."""
    names = {"z": pt["z"], "b": pt["b"], "p_i": pt["p"], "x_i": pt["xi"], "x'_i": pt["xpi"],
             str(s.symbol): pt["vals"][0], str(s2.symbol): pt["vals"][1]}
    expr = sp.sympify(expr)
    syms = sorted(expr.free_symbols, key=str)
    f = sp.lambdify(syms, expr, "mpmath")
    return f(*[mpf(names[str(v)]) for v in syms])


def holds(value, relation, scale):
    tol = scale * mp.mpf(10) ** -30
    return {">=": value >= -tol, ">": value > tol, "<=": value <= tol, "<": value < -tol,
            "==": abs(value) <= tol}[relation]


# -- the table of class pairs -----------------------------------------------------------------------
def test_every_class_pair_is_encoded_once_in_the_papers_order():
    """Reference: the 15 unordered pairs A <= B of the order S^-_{-i} < S^+_{-i} < S^-_i < S^0_i < S^+_i."""
    pairs = [row["pair"] for row in H.PAIR_TABLE]
    expected = [(a, b) for k, a in enumerate(ORDER) for b in ORDER[k:]]
    assert sorted(pairs, key=lambda p: (ORDER.index(p[0]), ORDER.index(p[1]))) == expected
    assert len(pairs) == 15 and set(H.DERIVATIVE_FORMS) == set(expected)


@pytest.mark.parametrize("row", H.PAIR_TABLE, ids=lambda r: f"{r['pair'][0]}_x_{r['pair'][1]}")
def test_signs_and_reductions_from_the_definition(row):
    """Reference: c and d evaluated from the definition of a at random points of the two classes
    (40 digits); the sign claims' relations and the reductions' right-hand sides must agree."""
    rng = random.Random(10 * ORDER.index(row["pair"][0]) + ORDER.index(row["pair"][1]))
    s, s2 = row["samples"]
    pid = f"htm.r7.{s.cls.key}_x_{s2.cls.key}"
    objects = {"c": lambda A, B, zz, bb: c_def(A, B, zz, bb),
               "c_reversed": lambda A, B, zz, bb: c_def(B, A, zz, bb),
               "d": d_def}
    for _ in range(20):
        pt = random_pair_point(rng, *row["pair"])
        zz, bb = mpf(pt["z"]), mpf(pt["b"])
        A, B = [(mpf(ax), mpf(axp)) for ax, axp, _ in pt["samples"]]
        scale = sum(abs(a_def(P[0], Q[1], zz, bb)) + abs(a_def(P[1], Q[0], zz, bb))
                    for P, Q in ((A, B), (B, A)))
        for name in row["objects"]:
            value = objects[name](A, B, zz, bb)
            claimed = evaluate(derivations.get(f"{pid}.{name}_reduction").rhs, pt, s, s2)
            assert abs(value - claimed) <= REL * scale, (name, pt)
        for name, relation, _printed in row["signs"]:
            assert derivations.get(f"{pid}.{name}_sign").relation == relation
            assert holds(objects[name](A, B, zz, bb), relation, scale), (name, pt)
        # the true contribution to the derivative's numerator, by numerical differentiation
        closed, relation = H.DERIVATIVE_FORMS[row["pair"]]
        value = n_def(A, B, zz, bb) + n_def(B, A, zz, bb)
        kscale = sum(kernel(zz, P[0], bb) * kernel(zz, Q[1], bb) for P, Q in ((A, B), (B, A))) / bb
        assert abs(value - evaluate(closed, pt, s, s2)) <= REL * kscale, pt
        assert holds(value, relation, kscale), pt


def test_printed_reductions_differ_from_the_definition_at_random_points():
    """Reference: the definition of c/d; each refuted printed reduction is wrong at most points of
    its classes, not only at the recorded counterexample."""
    rng = random.Random(7)
    refuted = [e for e in derivations.errata() if e.id.startswith("htm.r7.") and e.id.endswith("_reduction")]
    assert len(refuted) == 5
    for e in refuted:
        row = next(r for r in H.PAIR_TABLE if e.id.startswith(f"htm.r7.{r['pair'][0]}_x_{r['pair'][1]}."))
        s, s2 = row["samples"]
        wrong = 0
        for _ in range(10):
            pt = random_pair_point(rng, *row["pair"])
            zz, bb = mpf(pt["z"]), mpf(pt["b"])
            A, B = [(mpf(ax), mpf(axp)) for ax, axp, _ in pt["samples"]]
            value = c_def(A, B, zz, bb) if ".c_" in e.id else d_def(A, B, zz, bb)
            wrong += abs(value - evaluate(e.printed.rhs, pt, s, s2)) > REL * (abs(value) + 1)
        assert wrong >= 8, e.id


# -- the errata's counterexamples ---------------------------------------------------------------------
R7_ERRATA = [e for e in derivations.errata() if e.id.startswith("htm.r7.")]


@pytest.mark.parametrize("e", R7_ERRATA, ids=lambda e: e.id)
def test_counterexamples_are_genuine_at_50_digits(e):
    """Reference: both sides evaluated numerically at 50 digits (the engine's exact refutation of an
    identity only shows that the difference was not simplified to 0; here it is visibly non-zero)."""
    c = e.printed
    lhs = sp.N(c.lhs.subs(c.counterexample).doit(), 50)
    rhs = sp.N(c.rhs.subs(c.counterexample).doit(), 50)
    assert lhs.is_number and rhs.is_number
    if c.relation == "==":
        assert abs(lhs - rhs) > sp.Float("1e-6", 50) * max(1, abs(lhs)), (lhs, rhs)
    else:
        assert not bool(derivations.core.RELATIONS[c.relation](lhs, rhs)), (lhs, rhs)
    for cond in c.conditions:
        assert bool(cond.subs(c.counterexample)), cond


def test_errata_inventory():
    """The errata this module must report (see the module docstring)."""
    ids = {e.id for e in R7_ERRATA}
    assert ids == {
        "htm.r7.zero_in_x_zero_in.c_reduction", "htm.r7.minus_out_x_zero_in.d_reduction",
        "htm.r7.plus_out_x_zero_in.d_reduction", "htm.r7.minus_in_x_zero_in.d_reduction",
        "htm.r7.zero_in_x_plus_in.d_reduction", "htm.r7.minus_out_x_zero_in.sh_argument",
        "htm.r7.minus_out_x_plus_in.d_sign", "htm.r7.plus_out_x_minus_in.derivative_sign",
        "htm.r7.minus_in_x_plus_in.derivative_sign", "htm.r7.ratio_derivative_numerator",
        "htm.r7.result7_larger", "htm.r7.result7_smaller", "htm.r7.result7_unconditional"}


# -- designs, by brute force ---------------------------------------------------------------------------
def srs(N, n):
    combos = list(itertools.combinations(range(N), n))
    return [(Fraction(1, len(combos)), frozenset(c)) for c in combos]


def poisson(pis):
    out = []
    for mask in itertools.product((0, 1), repeat=len(pis)):
        pr = Fraction(1)
        for m, q in zip(mask, pis):
            pr *= q if m else 1 - q
        out.append((pr, frozenset(j for j, m in enumerate(mask) if m)))
    return out


DESIGNS = {"srs42": srs(4, 2), "srs52": srs(5, 2),
           "poisson": poisson((Fraction(1, 2), Fraction(1, 3), Fraction(3, 4))),
           "unequal": [(Fraction(1, 2), frozenset({0, 1})), (Fraction(1, 3), frozenset({0, 2})),
                       (Fraction(1, 6), frozenset({1, 2, 3}))]}


def incl(design):
    units = sorted(set().union(*(s for _, s in design)))
    return {j: sum((p for p, s in design if j in s), Fraction(0)) for j in units}


def atoms(design, x):
    pi = incl(design)
    return [sum((mp.mpf(x[j]) / mpf(pi[j]) for j in s), mp.mpf(0)) for _, s in design]


def ratio(zz, design, ax, axp, bb, keep=None):
    keep = keep or [True] * len(design)
    num = sum(mpf(p) * kernel(zz, t, bb) for (p, _), t, k in zip(design, ax, keep) if k)
    den = sum(mpf(p) * kernel(zz, t, bb) for (p, _), t, k in zip(design, axp, keep) if k)
    return num / den


def random_case(rng, design):
    N = len(incl(design))
    x = [mp.mpf(rng.randint(-300, 300)) / 100 for _ in range(N)]
    i = rng.randrange(N)
    xp = list(x)
    xp[i] = x[i] - mp.mpf(rng.randint(5, 300)) / 100
    return x, xp, i, mp.mpf(rng.randint(30, 300)) / 100


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_derivative_sign_is_the_sum_of_the_class_contributions(name):
    """Reference: f_x/f_x' summed over every sample and differentiated numerically (mpmath.diff); its
    numerator must equal, in value and sign, the sum over sample pairs of the closed-form class-pair
    contributions. The paper's sum of p(s)p(s')c must disagree in sign somewhere (negative control)."""
    design = DESIGNS[name]
    rng = random.Random(11)
    disagreements = 0
    for _ in range(12):
        x, xp, i, bb = random_case(rng, design)
        ax, axp = atoms(design, x), atoms(design, xp)
        pi = incl(design)
        for _ in range(4):
            zz = mp.mpf(rng.randint(-900, 900)) / 97
            if any(abs(zz - t) < mp.mpf(10) ** -6 for t in ax + axp):
                continue
            fxp = sum(mpf(p) * kernel(zz, t, bb) for (p, _), t in zip(design, axp))
            numeric = mp.diff(lambda u: ratio(u, design, ax, axp, bb), zz) * fxp**2
            cls = [classify(ax[k], axp[k], zz, i in s) for k, (_, s) in enumerate(design)]
            total = mp.mpf(0)
            for k, l in itertools.combinations_with_replacement(range(len(design)), 2):
                if ORDER.index(cls[k]) > ORDER.index(cls[l]):
                    k, l = l, k
                closed, _ = H.DERIVATIVE_FORMS[(cls[k], cls[l])]
                s_ = H.Sample(H.CLASSES[ORDER.index(cls[k])], "s")
                s2_ = H.Sample(H.CLASSES[ORDER.index(cls[l])], "s'")
                val = lambda kk: ax[kk] - (mp.mpf(x[i]) / mpf(pi[i]) if i in design[kk][1] else 0)  # noqa: E731
                pt = {"z": zz, "b": bb, "p": pi[i], "xi": x[i], "xpi": xp[i], "vals": [val(k), val(l)]}
                contribution = evaluate_mp(closed, pt, s_, s2_)
                weight = mpf(design[k][0]) * mpf(design[l][0])
                total += weight * contribution / (2 if k == l else 1)
            assert abs(numeric - total) <= REL * (abs(numeric) + fxp**2 / bb), (name, zz)
            assert mp.sign(numeric) == mp.sign(total) or abs(numeric) < mp.mpf(10) ** -30
            paper = sum(mpf(p) * mpf(q) * c_def((ax[k], axp[k]), (ax[l], axp[l]), zz, bb)
                        for k, (p, _) in enumerate(design) for l, (q, _) in enumerate(design))
            disagreements += mp.sign(paper) != mp.sign(numeric)
    assert disagreements > 0


_COMPILED: dict = {}


def evaluate_mp(expr, pt, s, s2):
    """Like ``evaluate`` but with mpmath values already; the lambdified expression is cached."""
    names = {"z": pt["z"], "b": pt["b"], "p_i": mpf(pt["p"]), "x_i": pt["xi"], "x'_i": pt["xpi"],
             str(s.symbol): pt["vals"][0], str(s2.symbol): pt["vals"][1]}
    key = (sp.srepr(expr), str(s.symbol), str(s2.symbol))
    if key not in _COMPILED:
        e = sp.sympify(expr)
        syms = sorted(e.free_symbols, key=str)
        _COMPILED[key] = ([str(v) for v in syms], sp.lambdify(syms, e, "mpmath"))
    names_order, f = _COMPILED[key]
    return f(*[names[v] for v in names_order])


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_result7_conditional_argmax_by_brute_force(name):
    """Reference: the conditional ratio (samples containing i) at every atom and just left of the
    corrected maximiser, in mpmath with real-valued data and b not of the form 1/(M ln r)."""
    design = DESIGNS[name]
    rng = random.Random(3)
    pi = incl(design)
    for _ in range(25):
        x, xp, i, bb = random_case(rng, design)
        if rng.random() < 0.5:                       # the second statement: x_i < x'_i
            x, xp = xp, x
        keep = [i in s for _, s in design]
        ax, axp = atoms(design, x), atoms(design, xp)
        sup = mp.exp(abs(x[i] - xp[i]) / mpf(pi[i]) / bb)
        axi = [t for t, k in zip(ax, keep) if k]
        zstar = max(axi) if x[i] > xp[i] else min(axi)
        values = [ratio(t, design, ax, axp, bb, keep) for t in ax + axp]
        assert max(values) <= sup * (1 + REL)
        assert abs(ratio(zstar, design, ax, axp, bb, keep) - sup) <= REL * sup
        step = mp.mpf(10) ** -3 * (1 if x[i] > xp[i] else -1)
        assert ratio(zstar - step, design, ax, axp, bb, keep) < sup * (1 - mp.mpf(10) ** -8)
        tmi = max(t - mp.mpf(x[i]) / mpf(pi[i]) for t in axi)       # the printed point
        printed_is_max = abs(ratio(tmi, design, ax, axp, bb, keep) - sup) <= REL * sup
        assert printed_is_max == ((tmi >= zstar) if x[i] > xp[i] else (tmi <= zstar))


def test_printed_result7_counterexample_by_brute_force():
    """Reference: mpmath on SRS N = 4, n = 2, x = (1, 0, 0, 0), x'_1 = 0, b = 1: the printed point
    z = max t_{-1}(x, s) = 0 gives e^{-2}, the supremum e^{2} is reached only from z = 2 = max t(x, s)."""
    design = DESIGNS["srs42"]
    keep = [0 in s for _, s in design]
    ax, axp = atoms(design, [1, 0, 0, 0]), atoms(design, [0, 0, 0, 0])
    assert mp.almosteq(ratio(mp.mpf(0), design, ax, axp, 1, keep), mp.exp(-2), REL)
    assert mp.almosteq(ratio(mp.mpf(2), design, ax, axp, 1, keep), mp.exp(2), REL)
    assert ratio(mp.mpf(1.999), design, ax, axp, 1, keep) < mp.exp(2)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_unconditional_maximum_lies_in_the_window(name):
    """Reference: the full ratio f_x/f_x' at every atom (mpmath, real data): its maximum is attained at
    an atom between min t(x',s) and max t(x,s) over the samples containing i."""
    design = DESIGNS[name]
    rng = random.Random(5)
    for _ in range(25):
        x, xp, i, bb = random_case(rng, design)
        ax, axp = atoms(design, x), atoms(design, xp)
        lo = min(t for t, (_, s) in zip(axp, design) if i in s)
        hi = max(t for t, (_, s) in zip(ax, design) if i in s)
        allv = [ratio(t, design, ax, axp, bb) for t in ax + axp]
        inside = [ratio(t, design, ax, axp, bb) for t in ax + axp if lo <= t <= hi]
        assert max(allv) <= max(inside) * (1 + REL)


def test_unconditional_reading_counterexample_by_brute_force():
    """Reference: mpmath, SRS N = 4, n = 2, x = (0, 2, 0, 3), x'_1 = -1, b = 1: the hypothesis
    max_{s ni 1} t(x', s) <= min_{s not ni 1} t(x, s) holds (4 <= 4), yet z = 0 beats z = 6."""
    design = DESIGNS["srs42"]
    x, xp = [0, 2, 0, 3], [-1, 2, 0, 3]
    ax, axp = atoms(design, x), atoms(design, xp)
    with_1 = max(t for t, (_, s) in zip(axp, design) if 0 in s)
    assert with_1 <= min(t for t, (_, s) in zip(ax, design) if 0 not in s)
    assert ratio(mp.mpf(0), design, ax, axp, 1) > ratio(mp.mpf(6), design, ax, axp, 1) + 1


def test_exact_ratio_matches_mpmath():
    """Reference: the exact rational values used by the exhaustive claims equal the mpmath values at
    b = 1/(M ln r)."""
    rng = random.Random(9)
    for name, design, grid in H.DESIGNS:
        for _ in range(5):
            units = sorted(H.inclusion(design))
            x = [rng.choice(grid) for _ in units]
            i = rng.choice(units)
            xp = list(x)
            xp[i] = rng.choice([v for v in grid if v != x[i]])
            for r in H.BASES:
                R = H.ExactRatio(design, x, xp, r)
                bb = 1 / (R.M * mp.log(mpf(r)))
                ax, axp = atoms(design, x), atoms(design, xp)
                keep = [p > 0 for p, _ in design]
                for t in R.atoms():
                    num, den = R.value(t)
                    assert mp.almosteq(mp.mpf(num) / den, ratio(mpf(t), design, ax, axp, bb, keep), REL)
