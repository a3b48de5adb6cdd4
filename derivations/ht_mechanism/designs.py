"""Finite sampling designs with exact (rational) probabilities, and exact evaluation of the ratio of
the two Laplace-mixture densities of the noisy Horvitz-Thompson estimate on them.

Used by the exhaustive checks of ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``; Results 1-7 and 10).  With
b = 1/(M ln r), r rational > 1 and M a common denominator of every atom and evaluation point,
each kernel value exp(-|z - t|/b) = r^{-M|z - t|} is rational, so every comparison is exact.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import lcm

def srs(N: int, n: int) -> list[tuple[Fraction, frozenset]]:
    samples = list(itertools.combinations(range(N), n))
    return [(Fraction(1, len(samples)), frozenset(s)) for s in samples]


def poisson(pi: tuple[Fraction, ...]) -> list[tuple[Fraction, frozenset]]:
    out = []
    for mask in itertools.product((0, 1), repeat=len(pi)):
        pr = Fraction(1)
        for m, p in zip(mask, pi):
            pr *= p if m else 1 - p
        out.append((pr, frozenset(j for j, m in enumerate(mask) if m)))
    return out


def take_all_plus_srs() -> list[tuple[Fraction, frozenset]]:
    """Unit 0 always sampled (p_0 = 1), plus one of units 1, 2, 3 with probability 1/2, 1/3, 1/6."""
    return [(Fraction(1, 2), frozenset({0, 1})), (Fraction(1, 3), frozenset({0, 2})),
            (Fraction(1, 6), frozenset({0, 3}))]


RATIO_DESIGNS = (
    ("SRS N=4 n=2", srs(4, 2), (-1, 0, 1, 2)),
    ("SRS N=5 n=2", srs(5, 2), (-1, 0, 2)),
    ("Poisson p=(1/2,1/3,3/4)", poisson((Fraction(1, 2), Fraction(1, 3), Fraction(3, 4))), (-2, -1, 0, 1, 2)),
    ("take-all unit + unequal 1-of-3", take_all_plus_srs(), (-1, 0, 1, 2)),
)
RATIO_BASES = (Fraction(2), Fraction(3, 2))   # r = e^{1/(M b)}: exact kernel values


_INCLUSION: dict = {}


def inclusion(design) -> dict[int, Fraction]:
    """p_j = P(j in S) for every unit of the design (computed once per design object and sample list; a copy
    is returned)."""
    key = id(design)
    entry = _INCLUSION.get(key)
    if entry is None or entry[0] is not design or entry[1] != tuple(design):
        units = set().union(*(s for _, s in design))
        entry = (design, tuple(design), {j: sum((p for p, s in design if j in s), Fraction(0)) for j in units})
        _INCLUSION[key] = entry
    return dict(entry[2])


def ht(x, s, pi) -> Fraction:
    return sum((Fraction(x[j]) / pi[j] for j in s), Fraction(0))


class ExactRatio:
    """f_x(z)/f_x'(z) on a finite design, exact: with b = 1/(M ln r), r rational > 1 and M a common
    denominator of all atoms and evaluation points, exp(-|z - t|/b) = r^{-M|z - t|} is rational."""

    def __init__(self, design, x, xp, r: Fraction, only_with: int | None = None, extra_points=()):
        pi = inclusion(design)
        self.design = [(p, s) for p, s in design if p > 0 and (only_with is None or only_with in s)]
        self.ax = [ht(x, s, pi) for _, s in self.design]
        self.axp = [ht(xp, s, pi) for _, s in self.design]
        pts = self.ax + self.axp + [Fraction(e) for e in extra_points]
        self.M = lcm(*[q.denominator for q in pts])
        span = max(pts) - min(pts)
        self.nmax = int(span * self.M)
        self.r = r
        den = lcm(*[p.denominator for p, _ in self.design])
        self.w = [int(p * den) for p, _ in self.design]
        a, c = r.numerator, r.denominator
        # kpow[n] = c^n a^(nmax - n), from the running powers of a and c (exact integers)
        apow, cpow = [1] * (self.nmax + 1), [1] * (self.nmax + 1)
        for k in range(1, self.nmax + 1):
            apow[k], cpow[k] = apow[k - 1] * a, cpow[k - 1] * c
        self.kpow = [cpow[n] * apow[self.nmax - n] for n in range(self.nmax + 1)]
        # the atoms times M: integers, M being a common denominator of them
        self.ax_m = [(t * self.M).numerator for t in self.ax]
        self.axp_m = [(t * self.M).numerator for t in self.axp]

    def value(self, zz: Fraction) -> tuple[int, int]:
        """(numerator, denominator) integers with ratio f_x(zz)/f_x'(zz)."""
        zm = Fraction(zz) * self.M
        if zm.denominator == 1:        # M|zz - t| = |M zz - M t|, a difference of integers
            zi, kpow = zm.numerator, self.kpow
            num = sum(w * kpow[abs(zi - t)] for w, t in zip(self.w, self.ax_m))
            den = sum(w * kpow[abs(zi - t)] for w, t in zip(self.w, self.axp_m))
            return num, den
        num = sum(w * self.kpow[int(abs(zz - t) * self.M)] for w, t in zip(self.w, self.ax))
        den = sum(w * self.kpow[int(abs(zz - t) * self.M)] for w, t in zip(self.w, self.axp))
        return num, den

    def atoms(self) -> list[Fraction]:
        return sorted(set(self.ax) | set(self.axp))

    def power(self, delta: Fraction) -> tuple[int, int]:
        """r^{M delta} = e^{delta/b} as (numerator, denominator)."""
        n = int(delta * self.M)
        a, c = self.r.numerator, self.r.denominator
        return (a**n, c**n) if n >= 0 else (c ** (-n), a ** (-n))


def cmp_ratio(u: tuple[int, int], v: tuple[int, int]) -> int:
    """Compare two positive fractions given as (numerator, denominator): -1, 0 or 1."""
    lhs, rhs = u[0] * v[1], v[0] * u[1]
    return (lhs > rhs) - (lhs < rhs)
