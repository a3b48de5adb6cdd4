"""The supremum of delta over neighbouring populations, for one epsilon and one noise scale.

The dispatch (``_solve``) sends SRS and Bernoulli sampling on binary data to the certified branch and
bound of :mod:`numeric.profile.search.binary`, an explicit design or a finite domain to the enumeration
of every pair (:mod:`numeric.profile.search.explicit`), and stratified and Poisson designs and values in
an interval to the one-unit reductions (``_survey_solve``; the rows of
:mod:`numeric.profile.search.one_unit`, with the searches of the strata they leave).  The result is a
:class:`WorstPair`.

Source: ``ht-mechanism`` (000), Section 1.4 (delta, a supremum over neighbouring pairs) and Section 2.2
(the atoms and the split).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._common import provenance, require
from ..designs import SRS, ExplicitDesign, Poisson, Stratified
from ..domains import BinaryDomain, IntervalDomain
from ..kernels import one_unit_delta
from . import binary as _bin
from . import explicit as _exp
from .one_unit import Components

__all__ = ["WorstPair"]


# -- the result ---------------------------------------------------------------------------------------
@provenance("htm.delta.event_form")
@dataclass(frozen=True)
class WorstPair:
    """The ordered neighbouring pair (x, x') attaining the supremum of delta(eps) at scale b.

    ``total``/``total_prime`` are the population totals t(x), t(x'); for an explicit design ``x``,
    ``x_prime`` are the vectors and ``unit`` the unit where they differ (``None`` for SRS and
    Bernoulli on binary data, where the pair is determined by the totals).  For the reductions of
    stratified and Poisson designs and of bounded values, ``values`` holds the changed unit's values
    (y, y'), ``stratum`` (``unit`` for Poisson) where it is, ``delta`` the upper value and
    ``delta_lower`` the lower value (a pair of the domain; ``None`` when none is computed), ``exact``
    whether they agree to 1e-6; the totals are given for binary data only (``None`` otherwise).

    Source: ht-mechanism (000), Section 1.4 (delta as a supremum over neighbouring pairs)."""

    delta: float
    epsilon: float
    b: float
    noise: str
    total: float
    total_prime: float
    x: tuple | None = None
    x_prime: tuple | None = None
    unit: int | None = None
    delta_lower: float | None = None
    exact: bool = True
    stratum: int | None = None
    values: tuple | None = None
    note: str = ""

    def __str__(self) -> str:
        scale = "sigma" if self.noise == "gaussian" else "b"
        def num(v):
            return str(int(v)) if float(v).is_integer() else repr(float(v))

        if self.values is not None:       # stratified, Poisson or bounded values: the changed unit's values
            where = "" if self.stratum is None else f"stratum {self.stratum}, "
            who = "" if self.unit is None else f"unit {self.unit}, "
            bound = ("exact" if self.exact else "an upper value" + (
                f"; lower value {self.delta_lower:.6g}" if self.delta_lower is not None else ""))
            return (f"delta = {self.delta:.6g} ({bound}) at eps = {self.epsilon:g}, {scale} = {self.b:.6g} "
                    f"({self.noise}): {where}{who}value {num(self.values[0])} -> {num(self.values[1])}"
                    + (f", {self.note}" if self.note else ""))
        head = (f"delta = {self.delta:.6g} at eps = {self.epsilon:g}, {scale} = {self.b:.6g} ({self.noise}): "
                f"x with total {num(self.total)}, x' with total {num(self.total_prime)}")
        if self.unit is None:
            return head + " (one unit changed)"
        return head + f"; x = {self.x}, x' = {self.x_prime} (unit {self.unit})"


# -- the supremum for one epsilon -------------------------------------------------------------------
def _family(design):
    if isinstance(design, SRS):
        return _bin.SRSFamily(design.N, design.n)
    return _bin.BernoulliFamily(design.p)


def _explicit(design):
    """(samples, probabilities) of the design, listed (samples of probability 0 dropped)."""
    if isinstance(design, ExplicitDesign):
        return list(design.samples), np.array(design.probabilities)
    s, pr = design.samples()
    keep = pr > 0
    return [x for x, k in zip(s, keep) if k], pr[keep]


def _sensitivity(design, domain):
    """Delta = max_i (largest change of x_i)/pi_i, exact (a Fraction): the largest shift of an atom
    t(x, s) = sum_{i in s} x_i/pi_i between neighbours (pi_i summed exactly from the listed doubles)."""
    from fractions import Fraction

    samples, probs = _explicit(design)
    pi = [Fraction(0)] * design.N
    for x, p in zip(samples, probs.tolist()):
        for j in x:
            pi[j] += Fraction(p)
    spread = Fraction(1) if isinstance(domain, BinaryDomain) else Fraction(max(domain.values)) - Fraction(min(domain.values))
    return spread / min(pi)


def _explicit_pure(design, domain, eps: float, b: float, noise: str) -> bool:
    """delta_b(eps) = 0 exactly for every pair of an explicit design (or a finite domain): Laplace
    noise with eps >= Delta/b, Delta = ``_sensitivity`` (compared in exact rationals).  Each kernel
    moves by at most Delta between neighbours, so e^{-Delta/b} <= f_x/f_x' <= e^{Delta/b} pointwise:
    the Laplace mechanism with sensitivity Delta, whose delta is 0 from eps = Delta/b on
    (claim ``htm.census.delta``, applied sample by sample)."""
    from fractions import Fraction

    return noise == "laplace" and 0 < b < math.inf and Fraction(eps) * Fraction(b) >= _sensitivity(design, domain)



def _solve(design, domain, b: float, eps: float, noise: str, prune: bool = True, floor: float = 0.0) -> WorstPair:
    if isinstance(domain, BinaryDomain) and not isinstance(design, ExplicitDesign):
        d, t, tp = _bin.search(_family(design), domain.m_t, domain.M_t, eps, b, noise, prune, floor)
        return WorstPair(d, eps, b, noise, float(t), float(tp))
    samples, probs = _explicit(design)
    npairs = _exp.count_pairs(domain, design.N)
    require(npairs <= _exp.MAX_PAIRS, "domain", f"small enough to enumerate its neighbouring pairs "
            f"({npairs} > {_exp.MAX_PAIRS})")
    require(npairs > 0, "domain", "one with at least one neighbouring pair")
    if _explicit_pure(design, domain, eps, b, noise):
        x, xp, i = next(_exp.pairs(domain, design.N))    # every pair has delta = 0: report the first
        return WorstPair(0.0, eps, b, noise, float(sum(x)), float(sum(xp)), tuple(x), tuple(xp), i)
    d, found = _exp.deltas(samples, probs, domain, design.N, eps, b, noise)
    k = int(np.argmax(d))
    x, xp, i = found[k]
    return WorstPair(max(float(d[k]), 0.0), eps, b, noise, float(sum(x)), float(sum(xp)),
                     tuple(x), tuple(xp), i)


# -- stratified, Poisson and bounded values: the one-unit reductions ----------------------------------
@dataclass
class _Parts:
    """A design and domain cut into the reductions of :mod:`numeric.profile.search.one_unit`: closed rows
    (``rows``, with the stratum ``row_stratum`` and the unit ``row_unit`` of each) and strata left to the
    exact search of one design (``searches``: (stratum, design, domain)); ``constant[h]`` says stratum
    h's estimate may be constant (claim ``htm.strat.translation``), so that a pair found in another
    stratum is a pair of the whole population."""

    rows: object
    row_stratum: np.ndarray
    row_unit: np.ndarray
    searches: list
    constant: np.ndarray
    others_ok: np.ndarray        # per stratum: every other stratum may be constant
    note: str


def _stratum_part(d, dom):
    """(closed row or None, search or None, constant) of one SRS/Bernoulli stratum on its domain."""
    srs = isinstance(d, SRS)
    q = d.n / d.N if srs else d.p
    if isinstance(dom, IntervalDomain):
        row = (q, dom.a, dom.b, 0 if srs else 1, True)
        return row, None, srs or dom.a <= 0 <= dom.b
    full = dom.m_t == 0 and dom.M_t == d.N
    constant = dom.m_t == 0 or (srs and (dom.M_t == d.N or d.n == d.N))
    if full or (not srs and dom.m_t == 0):
        return (q, 0.0, 1.0, 0 if srs else 1, True), None, constant
    return None, (d, dom), constant


def _parts(design, domain) -> _Parts:
    if isinstance(design, Poisson):
        pi = np.asarray(design.pi)
        values, first = np.unique(pi, return_index=True)
        if isinstance(domain, IntervalDomain):
            lo, hi, genuine = domain.a, domain.b, domain.a <= 0 <= domain.b
            note = "Poisson sampling, values in an interval: one-unit mechanism, maximum over the distinct pi_i"
        else:
            lo, hi, genuine = 0.0, 1.0, domain.m_t == 0
            note = "Poisson sampling, binary data: one-unit mechanism, maximum over the distinct pi_i"
        k = values.size
        rows = Components(values, np.full(k, lo), np.full(k, hi), np.ones(k), np.full(k, genuine))
        return _Parts(rows, np.zeros(k, dtype=np.int64), first.astype(np.int64), [], np.array([genuine]),
                      np.array([True]), note)
    strata = design.strata if isinstance(design, Stratified) else (design,)
    if isinstance(domain, (list, tuple)):
        doms = list(domain)
        exact_domains = True
    elif isinstance(domain, IntervalDomain):
        doms = [domain] * len(strata)
        exact_domains = True
    elif len(strata) == 1:
        doms, exact_domains = [domain], True
    else:       # a BinaryDomain of the whole population: the strata's totals in [0, N_h] (an upper value
        # unless the other strata may be all 0, or all 1 under SRS)
        doms = [BinaryDomain(d.N) for d in strata]
        exact_domains = domain.m_t == 0 or (domain.M_t == domain.N and all(isinstance(d, SRS) for d in strata))
    rows, row_stratum, searches, constant = [], [], [], []
    for h, (d, dom) in enumerate(zip(strata, doms)):
        row, search, const = _stratum_part(d, dom)
        constant.append(const and exact_domains)
        if row is not None:
            rows.append(row)
            row_stratum.append(h)
        else:
            searches.append((h, *search))
    constant = np.array(constant)
    H = len(strata)
    others_ok = np.array([exact_domains and bool(np.all(np.delete(constant, h))) for h in range(H)])
    cols = list(zip(*rows)) if rows else [[], [], [], [], []]
    rs = np.asarray(row_stratum, dtype=np.int64)
    comp = Components(cols[0], cols[1], cols[2], cols[3], np.asarray(cols[4], dtype=bool) & others_ok[rs]
                      if rows else np.zeros(0, dtype=bool))
    note = ("stratified: the largest of the strata" if isinstance(design, Stratified) else "one design") + \
        (", values in an interval" if isinstance(domain, IntervalDomain) else "")
    return _Parts(comp, rs, np.full(rs.size, -1), searches, constant, others_ok, note)


def _survey_solve(design, domain, b: float, eps: float, noise: str) -> WorstPair:
    """The upper value of delta_b(eps) over every neighbouring pair (the largest over the rows and the
    searched strata), its lower value (the largest genuine pair), and the pair that sets it."""
    P = _parts(design, domain)
    cands = []        # (upper, lower, stratum, unit, kind, row)
    if len(P.rows):
        lo, up = P.rows.bounds(b, eps, noise)
        for r in range(len(P.rows)):
            cands.append((float(up[r]), float(lo[r]), int(P.row_stratum[r]), int(P.row_unit[r]), "row", r))
    for h, d, dom in P.searches:
        wp = _solve(d, dom, b, eps, noise)
        low = wp.delta if P.others_ok[h] else math.nan
        cands.append((wp.delta, low, h, -1, "search", wp))
    upper = max(c[0] for c in cands)
    lows = [c[1] for c in cands if not math.isnan(c[1])]
    lower = max(lows) if lows else None          # None: no pair of the domain computed
    best = max(cands, key=lambda c: c[0])
    exact = lower is not None and lower >= upper * (1 - 1e-6)
    stratum = best[2] if isinstance(design, Stratified) else None
    unit = best[3] if best[3] >= 0 else None
    if best[4] == "search":
        wp = best[5]
        values = (1.0, 0.0) if wp.total > wp.total_prime else (0.0, 1.0)
        return WorstPair(upper, eps, b, noise, wp.total, wp.total_prime, delta_lower=lower, exact=exact,
                         stratum=stratum, values=values)
    r = best[5]
    rows = P.rows
    y, yp = _worst_values(rows, r, b, eps, noise)
    binary = rows.lo[r] == 0 and rows.hi[r] == 1      # the others at 0: the totals are the unit's values
    if rows.kind[r] == 0:
        note = f"every other unit of the stratum at {rows.lo[r]:g}"
    elif rows.genuine[r] and rows.lo[r] <= 0 <= rows.hi[r]:
        note = "every other unit at 0"
    else:
        note = "the one-unit bound (the other units cannot all be 0)"
    if isinstance(design, Stratified) and rows.genuine[r]:
        note += ", the other strata constant"
    return WorstPair(upper, eps, b, noise, y if binary else None, yp if binary else None, delta_lower=lower,
                     exact=exact, stratum=stratum, unit=unit, values=(y, yp), note=note)


def _worst_values(rows, r: int, b: float, eps: float, noise: str):
    """The ordered pair of values (y, y') of the changed unit with the largest one-unit delta among the
    candidates of row r (for SRS the pair every-a / one-b, in the worse order)."""
    lo, hi, pi = rows.lo[r], rows.hi[r], rows.pi[r]
    if rows.kind[r] == 0:
        W = hi - lo
        up = one_unit_delta(pi, W, 0.0, b, eps, noise)[()]
        down = one_unit_delta(pi, 0.0, W, b, eps, noise)[()]
        return (hi, lo) if up >= down else (lo, hi)
    cand = [(hi, lo), (lo, hi)]      # the extreme pair in one of its orders (htm.poisson.reflection)
    d = [float(one_unit_delta(pi, u, v, b, eps, noise)) for u, v in cand]
    return cand[int(np.argmax(d))]
