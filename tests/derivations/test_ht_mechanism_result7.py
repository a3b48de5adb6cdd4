"""Independent checks of the proof of Result 7 and of Result 7 itself
(000_3f4b38deb4c4e7bd.txt, Section 2.2.2), as encoded in ``derivations/ht_mechanism/result7.py``.

The reference values of this file never use the module's symbolic forms (its a, c, d, its class
conditions or its parametrizations).  They are computed from the definitions of the brief:

* t(x, s) = sum_{j in s} x_j/p_j; for a sample containing i, t(x, s) = t_{-i}(x, s) + x_i/p_i and
  t(x', s) = t_{-i}(x, s) + x'_i/p_i; x and x' differ only at unit i;
* a(x, x', s, s') = exp((t(x, s) - |z - t(x', s')|)/b), c(x, x', s, s') = a(x, x', s, s') - a(x', x, s, s'),
  d = c(x, x', s, s') + c(x, x', s', s), evaluated in mpmath at 40 digits, the absolute values
  computed numerically;
* the class of a sample at z, decided by comparing its atoms t(x, s), t(x', s) (exact fractions) with z:
  S^-_{-i}: i not in s, z <= t(x, s); S^+_{-i}: i not in s, t(x, s) < z; S^-_i: z <= t(x', s);
  S^0_i: t(x', s) < z <= t(x, s); S^+_i: t(x, s) < z;
* random points of each class pair by seeded rejection sampling with that classifier (values are
  rationals with small power-of-two denominators; about one sample in ten is snapped onto a class
  boundary, so the closed ends of the classes are exercised);
* the densities f_x(z) = sum_s p(s) exp(-|z - t(x, s)|/b)/(2b) summed by brute force over every sample
  of small random designs, in mpmath at 40 digits.

The module's claims are only *evaluated* (their lhs / rhs at our points) and *verified*
(``derivations.verify``); the comparisons below say which reference and tolerance they use.
"""
from __future__ import annotations

import dataclasses
import functools
import random
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.engine.notation import release
from derivations.ht_mechanism import result7 as H

DPS = 40
REL_VALUE = mp.mpf(10) ** -25       # value agreement, relative to the size of the terms
REL_SIGN = mp.mpf(10) ** -30        # sign margin, relative to the size of the terms
REL_EQ = mp.mpf(10) ** -30          # "equal" for the ratio of Result 7

# the paper's order of the classes ("S^-_{-i} < S^+_{-i} < S^-_i < S^0_i < S^+_i") and of the
# fifteen cases of the proof: the five diagonal pairs, then the pairs A < B
CLASS_ORDER = ["minus_out", "plus_out", "minus_in", "zero_in", "plus_in"]
PAPER_PAIRS = [
    ("minus_out", "minus_out"), ("plus_out", "plus_out"), ("minus_in", "minus_in"), ("zero_in", "zero_in"),
    ("plus_in", "plus_in"), ("minus_out", "plus_out"), ("minus_out", "minus_in"), ("minus_out", "zero_in"),
    ("minus_out", "plus_in"), ("plus_out", "minus_in"), ("plus_out", "zero_in"), ("plus_out", "plus_in"),
    ("minus_in", "zero_in"), ("minus_in", "plus_in"), ("zero_in", "plus_in"),
]
CONTAINS_I = {"minus_out": False, "plus_out": False, "minus_in": True, "zero_in": True, "plus_in": True}
POINTS_PER_PAIR = 120


@pytest.fixture(autouse=True)
def forty_digits():
    """Every test works at 40 digits; the global precision is restored afterwards."""
    with mp.workdps(DPS):
        yield


@functools.lru_cache(maxsize=None)
def verdict(claim_id: str):
    """derivations.verify(claim_id), once per session."""
    return derivations.verify(claim_id)


@functools.lru_cache(maxsize=None)
def proof_verdict(claim_id: str):
    """The verdict of the claim's proof routine alone (enumeration removed): used for the two claims that
    also carry an exact enumeration of several seconds, so the file stays within its time budget."""
    c = derivations.get(claim_id)
    if c.enumeration is None:
        return verdict(claim_id)
    return verify_inline(dataclasses.replace(c, enumeration=None))


def mpf(q) -> mp.mpf:
    q = Fraction(q)
    return mp.mpf(q.numerator) / q.denominator


# -- independent definitions ------------------------------------------------------------------------
class Point:
    """One point of a class pair: z, b, p_i, x_i, x'_i and the position of each of the two samples
    (t(x, s) = t(x', s) for a sample without i, t_{-i}(x, s) for a sample with i), as fractions."""

    def __init__(self, z, b, p, x, xp, samples):
        self.z, self.b, self.p, self.x, self.xp = z, b, p, x, xp
        self.u, self.up = x / p, xp / p
        self.samples = samples      # [(contains_i, position)] for s, s'

    def atom(self, k: int, version: str) -> Fraction:
        inside, pos = self.samples[k]
        if not inside:
            return pos
        return pos + (self.u if version == "x" else self.up)

    def cls(self, k: int) -> str:
        inside = self.samples[k][0]
        ax, axp, zz = self.atom(k, "x"), self.atom(k, "x'"), self.z
        if not inside:
            return "minus_out" if zz <= ax else "plus_out"
        if zz <= axp:
            return "minus_in"
        if axp < zz <= ax:
            return "zero_in"
        assert ax < zz
        return "plus_in"

    # a, c, d from the definition, in mpmath, the absolute values numerically
    def a(self, k: int, l: int, first: str) -> mp.mpf:
        other = "x'" if first == "x" else "x"
        return mp.exp((mpf(self.atom(k, first)) - abs(mpf(self.z) - mpf(self.atom(l, other)))) / mpf(self.b))

    def c(self, k: int, l: int) -> tuple[mp.mpf, mp.mpf]:
        """(c(x, x', s_k, s_l), |a| + |a'|: the size of its terms)."""
        a1, a2 = self.a(k, l, "x"), self.a(k, l, "x'")
        return a1 - a2, abs(a1) + abs(a2)

    def quantity(self, name: str) -> tuple[mp.mpf, mp.mpf]:
        if name == "c":
            return self.c(0, 1)
        if name == "c_reversed":
            return self.c(1, 0)
        if name == "d":
            (c1, m1), (c2, m2) = self.c(0, 1), self.c(1, 0)
            return c1 + c2, m1 + m2
        raise AssertionError(f"unknown quantity {name!r}")

    def by_name(self) -> dict[str, Fraction]:
        """Values for the claim symbols, keyed by the symbol names of the brief."""
        vals = {"z": self.z, "b": self.b, "p_i": self.p, "x_i": self.x, "x'_i": self.xp}
        for (inside, pos), nm in zip(self.samples, ("s", "s'")):
            vals[f"t_{{-i}}(x, {nm})" if inside else f"t(x, {nm})"] = pos
        return vals


def _draw_point(rng: random.Random, pair) -> Point:
    z = Fraction(rng.randint(-24, 24), 8)
    b = Fraction(rng.randint(2, 24), 8)
    p = Fraction(rng.randint(1, 16), 16)
    up = Fraction(rng.randint(-24, 24), 8)
    du = Fraction(rng.randint(1, 48), 8)                     # x_i/p_i - x'_i/p_i > 0
    xp, x = up * p, (up + du) * p
    samples = []
    for key in pair:
        inside = CONTAINS_I[key]
        if rng.random() < 0.1:                               # an atom exactly at z
            if not inside:
                pos = z
            else:
                pos = z - (up if rng.random() < 0.5 else up + du)
        else:
            pos = z + Fraction(rng.randint(-64, 64), 8)
        samples.append((inside, pos))
    return Point(z, b, p, x, xp, samples)


@functools.lru_cache(maxsize=None)
def points_of(pair, n=POINTS_PER_PAIR, seed=0):
    """n random points of the class pair (rejection sampling with our own classifier, seeded)."""
    rng = random.Random(f"{pair}-{seed}")
    out = []
    tries = 0
    while len(out) < n:
        tries += 1
        assert tries < 200_000, f"rejection sampling of {pair} does not converge"
        pt = _draw_point(rng, pair)
        if (pt.cls(0), pt.cls(1)) == tuple(pair):
            out.append(pt)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def conditions_of(claim_id: str):
    """The claim's conditions as one Python predicate of a dict {symbol name: Fraction}.  The conditions contain
    symbols only (no numeric constant, checked), so the lambdified comparisons are exact on fractions."""
    conds = [sp.sympify(cond) for cond in derivations.get(claim_id).conditions]
    for cond in conds:
        assert cond.is_Relational and not cond.atoms(sp.Number) - {sp.Integer(-1)}, cond
    fs = []
    for cond in conds:
        syms = sorted(cond.free_symbols, key=str)
        fs.append(([str(x) for x in syms], sp.lambdify(syms, cond, modules=[{}])))

    def holds(values: dict) -> bool:
        return all(bool(f(*[values[nm] for nm in names])) for names, f in fs)
    return holds


@functools.lru_cache(maxsize=None)
def evaluator(claim_id: str, side: str):
    """The claim's lhs or rhs as an mpmath function of a dict {symbol name: value}."""
    expr = release(getattr(derivations.get(claim_id), side))      # the notation t(x, s), t(x', s) unfolded
    syms = sorted(expr.free_symbols, key=str)
    f = sp.lambdify(syms, expr, modules="mpmath")
    names = [str(s) for s in syms]

    def ev(values: dict):
        return mp.mpf(f(*[mpf(values[nm]) for nm in names]))
    return ev


def _rows():
    return [pytest.param(row, id="_x_".join(row["pair"])) for row in H.PAIR_TABLE]


def _pid(pair) -> str:
    return f"htm.r7.{pair[0]}_x_{pair[1]}"


# ==============================================================================================
# 1. the fifteen class pairs
# ==============================================================================================
def test_every_class_pair_appears_once_in_the_papers_order():
    """Reference: the order of the cases read from the proof (diagonal pairs, then A < B in the paper's
    order of the classes); exact comparison of keys."""
    pairs = [tuple(row["pair"]) for row in H.PAIR_TABLE]
    assert len(pairs) == 15
    assert pairs == PAPER_PAIRS
    assert len(set(pairs)) == 15
    constructed = [(k, k) for k in CLASS_ORDER] + [(CLASS_ORDER[i], CLASS_ORDER[j])
                                                    for i in range(5) for j in range(i + 1, 5)]
    assert pairs == constructed
    for row in H.PAIR_TABLE:
        s, s2 = row["samples"]
        assert (s.cls.key, s2.cls.key) == tuple(row["pair"])
        assert (s.cls.contains_i, s2.cls.contains_i) == tuple(CONTAINS_I[k] for k in row["pair"])
        assert row["reductions"], row["pair"]
        assert set(row["reductions"]) <= {"c", "c_reversed", "d"}
        for name, rel in row["signs"]:
            assert name in {"c", "c_reversed", "d"} and rel in {">=", "<="}


def test_claim_ids_of_the_pairs_are_exactly_the_table():
    """Reference: the table's names; every htm.r7.<pair>.* claim is a reduction or sign of the table, plus the
    two case-8 claims (d_sign with the hypothesis, d_negative_witness)."""
    expected = set()
    for row in H.PAIR_TABLE:
        for name in row["reductions"]:
            expected.add(f"{_pid(row['pair'])}.{name}_reduction")
        for name, rel in row["signs"]:
            expected.add(f"{_pid(row['pair'])}.{name}_sign")
            assert derivations.get(f"{_pid(row['pair'])}.{name}_sign").relation == rel
    expected |= {"htm.r7.minus_out_x_zero_in.d_sign", "htm.r7.minus_out_x_zero_in.d_negative_witness"}
    prefixes = tuple(_pid(p) + "." for p in PAPER_PAIRS)
    registered = {c.id for c in derivations.claims() if c.id.startswith(prefixes)}
    assert registered == expected


def test_readings_and_finding_are_registered():
    """Reference: the ids of the brief; every claim a reading or the finding cites is registered."""
    ids = {c.id for c in derivations.claims()}
    r7 = [r for r in derivations.readings() if r.id.startswith("htm.r7.reading.")]
    assert {"htm.r7.reading.orientation", "htm.r7.reading.hypothesis",
            "htm.r7.reading.difference_not_derivative"} <= {r.id for r in r7}
    for r in r7:
        assert set(r.claims) <= ids, r.id
    f = [f for f in derivations.findings() if f.id == "htm.r7.finding.case8_uses_hypothesis"]
    assert len(f) == 1
    assert {"htm.r7.minus_out_x_zero_in.d_sign", "htm.r7.minus_out_x_zero_in.d_negative_witness"} <= set(f[0].claims)
    assert set(f[0].claims) <= ids


# ==============================================================================================
# the class conditions of the claims select exactly our class pair
# ==============================================================================================
@pytest.mark.parametrize("row", _rows())
def test_claim_conditions_are_the_class_pair(row):
    """Reference: our classifier (exact fractions).  At the 120 points of the pair and at 300 points of other
    pairs, the claim's conditions (SymPy relationals, lambdified, evaluated exactly on fractions) hold iff our
    classifier gives the pair; every claim of the row has the same conditions."""
    pair = tuple(row["pair"])
    cid = f"{_pid(pair)}.{row['reductions'][0]}_reduction"
    holds = conditions_of(cid)
    rng = random.Random(f"cond-{pair}")
    pts = list(points_of(pair))
    others = 0
    while others < 300:         # points of other class pairs (same containment of i)
        pt = _draw_point(rng, pair)
        if (pt.cls(0), pt.cls(1)) != pair:
            pts.append(pt)
            others += 1
    for pt in pts:
        vals = pt.by_name()
        assert holds(vals) == ((pt.cls(0), pt.cls(1)) == pair), (cid, vals)
    # the same conditions also for every other reduction / sign claim of the row
    for name in row["reductions"][1:]:
        assert derivations.get(f"{_pid(pair)}.{name}_reduction").conditions == derivations.get(cid).conditions
    for name, _ in row["signs"]:
        assert derivations.get(f"{_pid(pair)}.{name}_sign").conditions == derivations.get(cid).conditions


# ==============================================================================================
# 2. the printed reductions
# ==============================================================================================
@pytest.mark.parametrize("row", _rows())
def test_reductions_agree_with_the_definition(row):
    """Reference: our c / d from the definition (mpmath, 40 digits) at 120 random points of the class pair
    drawn with our classifier.  Both the claim's lhs (the encoding of c / d) and its rhs (the printed
    reduction as read) must agree with it to 1e-25 relative to the size |a| + |a'| of the terms."""
    pair = tuple(row["pair"])
    for name in row["reductions"]:
        cid = f"{_pid(pair)}.{name}_reduction"
        lhs, rhs = evaluator(cid, "lhs"), evaluator(cid, "rhs")
        for pt in points_of(pair):
            ref, size = pt.quantity(name)
            vals = pt.by_name()
            for side, f in (("lhs", lhs), ("rhs", rhs)):
                v = f(vals)
                assert abs(v - ref) <= REL_VALUE * size, (cid, side, vals, mp.nstr(v, 15), mp.nstr(ref, 15))


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("row", _rows())
def test_reduction_and_sign_claims_are_proved(row):
    """Reference: the engine (derivations.verify); label exactly PROVED."""
    pair = tuple(row["pair"])
    ids = [f"{_pid(pair)}.{n}_reduction" for n in row["reductions"]]
    ids += [f"{_pid(pair)}.{n}_sign" for n, _ in row["signs"]]
    if pair == ("minus_out", "zero_in"):
        ids += ["htm.r7.minus_out_x_zero_in.d_sign", "htm.r7.minus_out_x_zero_in.d_negative_witness"]
    for cid in ids:
        v = verdict(cid)
        assert v.label == "PROVED", (cid, v.label, [ch.detail for ch in v.checks])


# ==============================================================================================
# 3. the printed signs
# ==============================================================================================
def _check_sign(value, size, rel) -> bool:
    if rel == ">=":
        return value >= -REL_SIGN * size
    if rel == "<=":
        return value <= REL_SIGN * size
    raise AssertionError(rel)


@pytest.mark.parametrize("row", [r for r in _rows() if r.values[0]["signs"]])
def test_signs_hold_at_random_points_of_the_class_pair(row):
    """Reference: our c / d from the definition (mpmath, 40 digits) at 120 random points of the class pair;
    the stated sign with a margin of 1e-30 relative to |a| + |a'|.  The sign is also attained strictly
    (|value| > 1e-20 size) at some point, so the check is not vacuous."""
    pair = tuple(row["pair"])
    for name, rel in row["signs"]:
        strict = 0
        for pt in points_of(pair):
            val, size = pt.quantity(name)
            assert _check_sign(val, size, rel), (pair, name, rel, pt.by_name(), mp.nstr(val, 15))
            strict += abs(val) > mp.mpf(10) ** -20 * size
        assert strict > 0, (pair, name)


def test_case8_sign_only_under_the_hypothesis():
    """Reference: our d from the definition at 600 random points of S^-_{-i} x S^0_i (40 digits, margin
    1e-30 relative to the terms).  Where t(x, s) <= t(x, s') d >= 0; without that condition the search finds
    points of the pair with d < 0 (clearly: d < -1e-10 size).  The claim's extra condition is exactly
    t(x, s) <= t(x, s') (lambdified, exact on fractions)."""
    pair = ("minus_out", "zero_in")
    c = derivations.get("htm.r7.minus_out_x_zero_in.d_sign")
    assert c.relation == ">="
    holds = conditions_of(c.id)
    under = negative = 0
    for pt in points_of(pair, n=600, seed=8):
        d, size = pt.quantity("d")
        hyp = pt.atom(0, "x") <= pt.atom(1, "x")
        if hyp:
            under += 1
            assert _check_sign(d, size, ">="), pt.by_name()
        elif d < -mp.mpf(10) ** -10 * size:
            negative += 1
            assert pt.atom(0, "x") > pt.atom(1, "x")
        assert holds(pt.by_name()) == hyp
    assert under >= 50 and negative >= 5, (under, negative)


def test_case8_witness_independently():
    """Reference: our d from the definition at the witness point (40 digits), and the closed form
    2 e^{-9.9} sh 1 + 2 sh(-0.9) ~ -2.0529 in mpmath; the claim's lhs evaluated exactly by SymPy agrees to
    1e-25 relative; the point lies in S^-_{-i} x S^0_i (our classifier) but outside t(x,s) <= t(x,s')."""
    pt = Point(Fraction(0), Fraction(1), Fraction(1, 2), Fraction(5), Fraction(0),
               [(False, Fraction(1)), (True, Fraction(-99, 10))])
    assert (pt.cls(0), pt.cls(1)) == ("minus_out", "zero_in")
    assert pt.atom(0, "x") > pt.atom(1, "x")
    d, size = pt.quantity("d")
    closed = 2 * mp.exp(mp.mpf("-9.9")) * mp.sinh(1) + 2 * mp.sinh(mp.mpf("-0.9"))
    assert abs(d - closed) <= REL_VALUE * abs(closed)
    assert d < 0 and abs(d - mp.mpf("-2.0529")) < mp.mpf("1e-4"), mp.nstr(d, 10)
    c = derivations.get("htm.r7.minus_out_x_zero_in.d_negative_witness")
    assert c.relation == "<" and c.rhs == 0
    assert not c.lhs.free_symbols
    lhs = mp.mpf(str(sp.N(c.lhs, DPS + 10)))
    assert abs(lhs - d) <= REL_VALUE * size
    assert verdict(c.id).label == "PROVED"


# ==============================================================================================
# 4. the 'o.s.s.a.' identity on random designs
# ==============================================================================================
def _random_design(rng: random.Random):
    K = rng.randint(1, 5)
    q = [Fraction(rng.randint(1, 9), 10) for _ in range(K)]
    tx = [Fraction(rng.randint(-40, 40), 8) for _ in range(K)]
    txp = [Fraction(rng.randint(-40, 40), 8) for _ in range(K)]
    b = Fraction(rng.randint(2, 20), 8)
    atoms = tx + txp
    z = rng.choice(atoms) if rng.random() < 0.3 else Fraction(rng.randint(-48, 48), 8)
    return K, q, tx, txp, b, z


def test_same_sign_as_sum_c_on_random_designs():
    """Reference: R = f_x/f_x' summed by brute force over the K samples of 40 random designs (mpmath, 40 digits);
    R(zbar) at zbar = max atom + 1 and + 7 (both right of every atom, equal to 1e-30); sum p p' c with our c;
    F_x' = sum p e^{t(x',s)/b}, G_x'(z) = sum p e^{-|z - t(x',s)|/b}.  R(zbar) - R(z) and
    sum p p' c / (F_x' G_x') agree to 1e-25 relative, and have the same sign.  On 8 of the designs the
    claim's lhs and rhs (K fixed, indexed values substituted exactly, SymPy N at 50 digits) agree with our
    R(zbar) - R(z) to 1e-25 relative."""
    rng = random.Random(7)
    claim = derivations.get("htm.r7.same_sign_as_sum_c")
    syms = {str(s): s for s in claim.lhs.free_symbols | claim.rhs.free_symbols}
    bases = {str(ib): ib for ib in claim.lhs.atoms(sp.IndexedBase) | claim.rhs.atoms(sp.IndexedBase)}
    assert set(bases) == {"q", r"\hat t", r"\hat t'"}
    signs = set()
    for trial in range(40):
        K, q, tx, txp, b, z = _random_design(rng)
        Q, TX, TXP, B, Z = ([mpf(v) for v in q], [mpf(v) for v in tx], [mpf(v) for v in txp], mpf(b), mpf(z))

        def ratio(zz):
            num = mp.fsum(Q[k] * mp.exp(-abs(zz - TX[k]) / B) for k in range(K))
            den = mp.fsum(Q[k] * mp.exp(-abs(zz - TXP[k]) / B) for k in range(K))
            return num / den

        top = max(TX + TXP)
        rbar, rbar2 = ratio(top + 1), ratio(top + 7)
        assert abs(rbar - rbar2) <= REL_EQ * rbar
        diff = rbar - ratio(Z)

        def cc(k, l):
            return (mp.exp((TX[k] - abs(Z - TXP[l])) / B) - mp.exp((TXP[k] - abs(Z - TX[l])) / B))
        sum_c = mp.fsum(Q[k] * Q[l] * cc(k, l) for k in range(K) for l in range(K))
        F = mp.fsum(Q[k] * mp.exp(TXP[k] / B) for k in range(K))
        G = mp.fsum(Q[k] * mp.exp(-abs(Z - TXP[k]) / B) for k in range(K))
        rhs = sum_c / (F * G)
        scale = rbar + ratio(Z)
        assert abs(diff - rhs) <= REL_VALUE * scale, (trial, mp.nstr(diff, 15), mp.nstr(rhs, 15))
        tol = REL_SIGN * scale
        sd = 0 if abs(diff) <= tol else (1 if diff > 0 else -1)
        sc = 0 if abs(sum_c) <= tol * F * G else (1 if sum_c > 0 else -1)
        assert sd == sc, trial
        signs.add(sd)
        if trial < 8:
            sub = {syms["b"]: sp.Rational(b.numerator, b.denominator),
                   syms["z"]: sp.Rational(z.numerator, z.denominator)}
            for k in range(K):
                for base, vals in (("q", q), (r"\hat t", tx), (r"\hat t'", txp)):
                    sub[bases[base][k + 1]] = sp.Rational(vals[k].numerator, vals[k].denominator)
            for side, ref in (("lhs", diff), ("rhs", rhs)):
                e = getattr(claim, side).subs(syms["K"], K).doit().xreplace(sub)
                assert not e.free_symbols, e.free_symbols
                v = mp.mpf(str(sp.N(e, DPS + 10)))
                assert abs(v - ref) <= REL_VALUE * scale, (trial, side)
    assert {1, -1} <= signs, signs          # both signs occur: the comparison is not one-sided
    assert verdict("htm.r7.same_sign_as_sum_c").label == "PROVED"


# ==============================================================================================
# 5. Result 7 for the densities conditional on i in S, by brute force
# ==============================================================================================
def _random_conditional_case(rng: random.Random, larger: bool):
    """A random design on N units (random samples and probabilities), unit i in at least one sample; x, x'
    differing at i; b.  Returns the atoms (t(x,s), t(x',s)), weights of the samples containing i, the
    bound's exponent |x_i - x'_i|/p_i and b."""
    N = rng.randint(2, 5)
    while True:
        K = rng.randint(1, 6)
        samples = [frozenset(j for j in range(N) if rng.random() < 0.5) for _ in range(K)]
        i = rng.randrange(N)
        if any(i in s for s in samples):
            break
    w = [Fraction(rng.randint(1, 9)) for _ in samples]
    tot = sum(w)
    prob = [v / tot for v in w]
    pi = {j: sum((p for p, s in zip(prob, samples) if j in s), Fraction(0)) for j in range(N)}
    x = [Fraction(rng.randint(-6, 6), 2) for _ in range(N)]
    xp = list(x)
    delta = Fraction(rng.randint(1, 8), 2)
    xp[i] = x[i] - delta if larger else x[i] + delta

    def t(vals, s):
        return sum((vals[j] / pi[j] for j in s), Fraction(0))
    inside = [(p, s) for p, s in zip(prob, samples) if i in s]
    ax = [t(x, s) for _, s in inside]
    axp = [t(xp, s) for _, s in inside]
    b = Fraction(rng.randint(1, 16), 8)
    return [p for p, _ in inside], ax, axp, abs(x[i] - xp[i]) / pi[i], b


def _digits_needed(atoms, b, extra=0) -> int:
    """Working precision for the ratio on a design: 40 digits plus the decimal range of the kernels, so that a
    deviation from the supremum as small as e^{-span/b} is still resolved (it is, mathematically, > 0)."""
    span = max(atoms) - min(atoms) + extra
    return DPS + int(mp.ceil(mpf(span) / mpf(b) / mp.log(10)))


def _ratio(q, ax, axp, b, zz) -> mp.mpf:
    B = mpf(b)
    num = mp.fsum(mpf(p) * mp.exp(-abs(zz - mpf(t)) / B) for p, t in zip(q, ax))
    den = mp.fsum(mpf(p) * mp.exp(-abs(zz - mpf(t)) / B) for p, t in zip(q, axp))
    return num / den


@pytest.mark.parametrize("larger", [True, False], ids=["x_i>x'_i", "x_i<x'_i"])
def test_result7_conditional_by_brute_force(larger):
    """Reference: the conditional ratio f_{x|S ni i}/f_{x'|S ni i} summed over every sample containing i of 60
    random designs (mpmath at 40 digits plus the decimal range span/(b ln 10) of the kernels on the grid: far
    from the corrected point the deviation from the supremum is of order e^{-span/b}, below 1e-40 on some
    designs).  On a grid of every atom, the midpoints, points beyond the extremes and random points:
    ratio <= e^{|x_i - x'_i|/(p_i b)} (1 + 1e-30); equal to 1e-30 relative exactly on z >= max t(x,s)
    (x_i > x'_i) / z <= min t(x,s) (x_i < x'_i); strictly below elsewhere (by more than 10^{-(digits - 10)}
    relative), in particular 1e-6 inside the corrected point."""
    rng = random.Random(17 if larger else 71)
    for trial in range(60):
        q, ax, axp, gap, b = _random_conditional_case(rng, larger)
        zstar = max(ax) if larger else min(ax)
        atoms = sorted(set(ax) | set(axp))
        grid = set(atoms) | {(u + v) / 2 for u, v in zip(atoms, atoms[1:])}
        grid |= {atoms[0] - 1, atoms[0] - 5, atoms[-1] + 1, atoms[-1] + 5}
        grid |= {Fraction(rng.randint(-400, 400), 37) for _ in range(10)}
        dps = _digits_needed(list(grid), b)
        with mp.workdps(dps):
            strict_margin = mp.mpf(10) ** -(dps - 10)
            bound = mp.exp(mpf(gap) / mpf(b))
            for zz in sorted(grid):
                r = _ratio(q, ax, axp, b, mpf(zz))
                assert r <= bound * (1 + REL_EQ), (trial, zz)
                attained = zz >= zstar if larger else zz <= zstar
                if attained:
                    assert abs(r - bound) <= REL_EQ * bound, (trial, zz, mp.nstr(r, 20), mp.nstr(bound, 20))
                else:
                    assert r < bound * (1 - strict_margin), (trial, zz, dps)
            eps = mp.mpf(10) ** -6
            inner = mpf(zstar) - eps if larger else mpf(zstar) + eps
            assert _ratio(q, ax, axp, b, inner) < bound * (1 - strict_margin)
    # the module's corrected statements are proved (bound, strict, attained)
    key = "larger" if larger else "smaller"
    for cid in (f"htm.r7.result7_{key}_bound", f"htm.r7.result7_{key}_strict"):
        assert verdict(cid).label == "PROVED", cid
    assert proof_verdict(f"htm.r7.result7_{key}").label == "PROVED"


def _srs4(x, xp, only_with_1=True):
    """SRS N = 4, n = 2 (p_j = 1/2, equal sample probabilities): the samples containing unit 1 (index 0)."""
    pairs = [(j, l) for j in range(4) for l in range(j + 1, 4) if (0 in (j, l) or not only_with_1)]
    q = [Fraction(1, len(pairs))] * len(pairs)
    ax = [2 * Fraction(x[j]) + 2 * Fraction(x[l]) for j, l in pairs]
    axp = [2 * Fraction(xp[j]) + 2 * Fraction(xp[l]) for j, l in pairs]
    return q, ax, axp


@pytest.mark.parametrize("larger", [True, False], ids=["x_i>x'_i", "x_i<x'_i"])
def test_printed_maximiser_is_not_a_maximiser(larger):
    """Reference: the conditional ratio on SRS N = 4, n = 2 summed by hand over the three samples containing unit
    1 (mpmath, 40 digits, b = 1 and b = 3/5).  The printed point max_{s ni 1} t_{-1}(x, s) gives a ratio below
    e^{|x_1 - x'_1|/(p_1 b)} by far (more than 1e-3 relative), which the ratio attains at the corrected point."""
    x, xp = ((1, 0, 0, 0), (0, 0, 0, 0)) if larger else ((0, 1, 0, 0), (1, 1, 0, 0))
    q, ax, axp = _srs4(x, xp)
    printed = max(2 * Fraction(x[j]) for j in (1, 2, 3))          # t_{-1}(x, {1, j}) = 2 x_j
    assert printed == (0 if larger else 2)
    for b in (Fraction(1), Fraction(3, 5)):
        bound = mp.exp(abs(mpf(x[0] - xp[0])) / (mp.mpf(1) / 2) / mpf(b))
        corrected = max(ax) if larger else min(ax)
        r_printed = _ratio(q, ax, axp, b, mpf(printed))
        r_corr = _ratio(q, ax, axp, b, mpf(corrected))
        assert abs(r_corr - bound) <= REL_EQ * bound
        assert r_printed < bound * (1 - mp.mpf(10) ** -3)
        if b == 1:
            expected = mp.exp(-2) if larger else (1 + 2 * mp.exp(-2)) / (2 + mp.exp(-2))
            assert abs(r_printed - expected) <= REL_VALUE * expected


# ==============================================================================================
# 6. negative controls
# ==============================================================================================
R7_PROOF_CLAIMS = [c.id for c in derivations.claims()
                   if c.id.startswith("htm.r7.") and c.proof is not None and c.expected]


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", R7_PROOF_CLAIMS)
def test_mutated_claims_are_not_proved(claim_id):
    """Reference: the engine.  Each htm.r7 claim with a proof routine is PROVED (for result7_larger / _smaller by
    the proof alone, their enumeration being removed to keep the file fast); its mutated copy (default
    mutation, proof routine kept, enumeration removed) is not proved, and the refusal is a decided FAILED check,
    not a crash of the proof routine."""
    assert proof_verdict(claim_id).label == "PROVED", claim_id
    m = derivations.get(claim_id).mutated()
    m.enumeration = None
    v = verify_inline(m)
    assert not v.proved, (claim_id, v.label)
    assert v.decided, (claim_id, [ch.detail for ch in v.checks])     # refused by the proof, not a crash


def test_result7_at_the_printed_point_is_not_proved():
    """Reference: the engine.  A stronger control than the default mutation for the corrected Result 7 (whose
    mutated rhs 2*0+1 is rejected for its form alone): the same claim with the printed condition
    z >= t_{-i}(x, s) in place of z >= t(x, s) (x_i > x'_i), or z <= t_{-i}(x, s) (x_i < x'_i), is not proved."""
    for key in ("larger", "smaller"):
        c = derivations.get(f"htm.r7.result7_{key}")
        syms = {str(s): s for s in c.lhs.free_symbols}
        order, where = c.conditions
        shifted = where.func(where.lhs, where.rhs - syms["x_i"] / syms["p_i"])
        m = dataclasses.replace(c, id=c.id + ".printed_point", conditions=(order, shifted), enumeration=None)
        v = verify_inline(m)
        assert not v.proved, (key, v.label)
        assert v.decided, (key, [ch.detail for ch in v.checks])


# ==============================================================================================
# 7. the errata of Result 7
# ==============================================================================================
def _two_unit(x1, x2, xp1):
    """The design p({1}) = p({1, 2}) = 1/2 (p_1 = 1, p_2 = 1/2): sample probabilities and the atoms of x, x'."""
    half = Fraction(1, 2)
    return [half, half], [x1, x1 + 2 * x2], [xp1, xp1 + 2 * x2]


def test_errata_of_result7():
    """Reference: the ratio on the design p({1}) = p({1, 2}) = 1/2 (mpmath, 40 digits) at the counterexamples.
    Exactly two errata for htm.r7; their printed claims are REFUTED; each counterexample satisfies the printed
    claim's condition (checked with fractions); every sample contains unit 1, so the hypothesis of Result 7
    (about the samples without i) holds under any reading; there our lhs (the ratio at
    max_{s ni 1} t_{-1}(x,s) = max(0, 2 x_2)) is below our rhs (the ratio at t(x, {1,2}) resp. t(x, {1})); the
    claim's sides evaluated exactly by SymPy agree with ours to 1e-25 relative."""
    errata = [e for e in derivations.errata() if e.id.startswith("htm.r7")]
    assert sorted(e.id for e in errata) == ["htm.r7.result7_larger", "htm.r7.result7_smaller"]
    for e in errata:
        larger = e.id.endswith("larger")
        assert e.corrected.id == e.id
        assert e.printed.id == e.id + ".printed"
        v = verdict(e.printed.id)
        assert v.label == "REFUTED", v.label
        cex = {str(k): Fraction(str(val)) for k, val in e.printed.counterexample.items()}
        assert set(cex) == {"x_1", "x_2", "x'_1", "b"}
        assert (cex["x'_1"] < cex["x_1"]) if larger else (cex["x_1"] < cex["x'_1"])   # the printed condition
        assert len(e.printed.conditions) == 1
        q, ax, axp = _two_unit(cex["x_1"], cex["x_2"], cex["x'_1"])
        lhs = _ratio(q, ax, axp, cex["b"], mpf(max(0, 2 * cex["x_2"])))
        rhs = _ratio(q, ax, axp, cex["b"], mpf(ax[1] if larger else ax[0]))
        assert lhs < rhs * (1 - mp.mpf(10) ** -3)
        if not larger:      # nor is the point a maximiser if the printed 'max' were read 'min'
            assert _ratio(q, ax, axp, cex["b"], mpf(min(0, 2 * cex["x_2"]))) < rhs * (1 - mp.mpf(10) ** -3)
        sub = {k: val for k, val in e.printed.counterexample.items()}
        for side, ref in (("lhs", lhs), ("rhs", rhs)):
            val = mp.mpf(str(sp.N(getattr(e.printed, side).subs(sub), DPS + 10)))
            assert abs(val - ref) <= REL_VALUE * ref, (e.id, side)


@pytest.mark.parametrize("larger", [True, False], ids=["x_i>x'_i", "x_i<x'_i"])
def test_printed_claim_encodes_the_printed_point(larger):
    """Reference: the ratio on the design p({1}) = p({1, 2}) = 1/2 (mpmath, 40 digits) at 25 random x, x'_1, b:
    the printed claim's lhs is the ratio at max(0, 2 x_2) and its rhs the ratio at x_1 + 2 x_2 (resp. x_1), to
    1e-25 relative."""
    c = derivations.get(f"htm.r7.result7_{'larger' if larger else 'smaller'}.printed")
    lhs, rhs = evaluator(c.id, "lhs"), evaluator(c.id, "rhs")
    rng = random.Random(3 if larger else 4)
    for _ in range(25):
        x1, x2 = Fraction(rng.randint(-8, 8), 4), Fraction(rng.randint(-8, 8), 4)
        xp1 = x1 - Fraction(rng.randint(1, 8), 4) if larger else x1 + Fraction(rng.randint(1, 8), 4)
        b = Fraction(rng.randint(1, 12), 4)
        q, ax, axp = _two_unit(x1, x2, xp1)
        vals = {"x_1": x1, "x_2": x2, "x'_1": xp1, "b": b}
        ref_l = _ratio(q, ax, axp, b, mpf(max(0, 2 * x2)))
        ref_r = _ratio(q, ax, axp, b, mpf(ax[1] if larger else ax[0]))
        assert abs(lhs(vals) - ref_l) <= REL_VALUE * ref_l
        assert abs(rhs(vals) - ref_r) <= REL_VALUE * ref_r
