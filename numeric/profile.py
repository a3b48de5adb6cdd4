r"""Exact privacy profile and noise calibration of a sampled Horvitz-Thompson total.

The release is Z = t(x, S) + noise, with t(x, S) = sum_{i in S} x_i / pi_i the Horvitz-Thompson
estimate of the total under a sampling design and Laplace(b) or Gaussian(sigma) noise.  Its
privacy profile is

.. math:: \delta(\varepsilon) = \sup_{x \sim x'} \int (f_x - e^{\varepsilon} f_{x'})_+ ,

the supremum over ordered pairs of populations of the domain that differ at one unit.  It is
computed exactly (no discretisation, no sampling): per pair, in closed form between consecutive
atoms (Laplace) or with the one zero of a monotone exponential sum (Gaussian), and over pairs with
a certified pruning bound (see :mod:`numeric._profile_binary`).

Source: ``ht-mechanism`` (000), Abstract (the question: which noise scale for a given
(eps, delta)), Section 1.4 (definition of delta), Section 2.2 (the split of the integral at the
atoms), Section 2.3 (simple random sampling on binary data, Results 8-9).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from . import _profile_binary as _bin
from . import _profile_explicit as _exp
from ._common import (_shape_of, as_float, fail, memory, memory_for, provenance, require, samples_of, scalar,
                      tolerance)
from .srs_binary import _N_MAX, _design, _range, _scalar_integer

NOISES = ("laplace", "gaussian")
_MAX_VALUES = 1_000_000    # values of a FiniteDomain (its pairs are enumerated: far fewer are usable)
_MAX_SAMPLES = 20_000      # an SRS or Bernoulli design on a FiniteDomain is enumerated up to this
_CLAIMS = ("htm.delta.event_form", "profile.laplace.endpoint_form", "profile.laplace.interval_increasing",
           "profile.laplace.interval_decreasing", "profile.laplace.interval_no_root", "profile.laplace.tails",
           "profile.gaussian.exponential_sum", "profile.gaussian.rolle_step", "profile.gaussian.half_line",
           "profile.delta0_bound", "profile.srs.pmf_difference", "profile.bernoulli.pmf_difference",
           "profile.srs.zero_region", "htm.r8.pmf_ratio", "profile.bernoulli.pmf_ratio",
           "profile.amplification.generic_scale", "htm.census.delta")


# -- designs ----------------------------------------------------------------------------------------
@provenance("htm.r8.density", "htm.r8.pmf_ratio")
@dataclass(frozen=True, init=False)
class SRS:
    """Simple random sampling without replacement of n units among N (pi_i = n/N).

    Source: ht-mechanism (000), Section 2.3 (on binary data the estimate is (N/n) y, y
    hypergeometric: Result 8)."""

    N: int
    n: int

    def __init__(self, N, n):
        N, n = _design(N, n)
        object.__setattr__(self, "N", N)
        object.__setattr__(self, "n", n)

    def samples(self):
        count = math.comb(self.N, self.n)
        require(count <= _MAX_SAMPLES, "design", f"small enough to list its samples (C(N, n) = {count} > "
                f"{_MAX_SAMPLES}); on a FiniteDomain an SRS is enumerated sample by sample")
        s = list(itertools.combinations(range(self.N), self.n))
        return s, np.full(len(s), 1.0 / len(s))


@provenance("profile.bernoulli.pmf_ratio", "profile.bernoulli.pmf_difference")
@dataclass(frozen=True, init=False)
class Bernoulli:
    """Poisson sampling with equal inclusion probability p: each unit independently (pi_i = p).

    Source: ht-mechanism (000), Section 1.3 (a design p on U) and Section 2.3 with Bernoulli
    sampling in place of SRS: on binary data the estimate is y/p, y ~ Bin(t, p)."""

    N: int
    p: float

    def __init__(self, N, p):
        N = _scalar_integer("N", N, 1, _N_MAX, f"an integer in [1, {_N_MAX}]")
        pa = scalar("p", p)
        require(0 < pa < 1, "p", "a probability in (0, 1) (for p = 1 use SRS(N, N))")
        object.__setattr__(self, "N", N)
        object.__setattr__(self, "p", pa)

    def samples(self):
        require(2**self.N <= _MAX_SAMPLES, "design", f"small enough to list its samples (2^N > {_MAX_SAMPLES})")
        s = [tuple(i for i in range(self.N) if bits[i]) for bits in itertools.product((0, 1), repeat=self.N)]
        pr = np.array([self.p ** len(x) * (1 - self.p) ** (self.N - len(x)) for x in s])
        return s, pr


@provenance("htm.ht_unbiased", "htm.mixture_density")
@dataclass(frozen=True, init=False)
class ExplicitDesign:
    """A design given by its samples (sets of unit indices 0..N-1) and their probabilities.

    Source: ht-mechanism (000), Section 1.3 (the design p(s) and the Horvitz-Thompson estimate
    sum_{i in s} x_i / pi_i, which needs pi_i > 0 for every unit)."""

    samples: tuple
    probabilities: tuple
    N: int

    def __init__(self, samples, probabilities, N=None):
        N = None if N is None else _scalar_integer("N", N, 1, 64, "an integer in [1, 64]")
        s = [tuple(sorted(x)) for x in samples_of(samples, 64 if N is None else N,
                                                   n_is="the largest N (64)" if N is None else "= N")]
        require(_shape_of(probabilities) == (len(s),) and len(s) > 0, "probabilities",
                f"a one-dimensional array with one probability per sample ({len(s)} samples)")
        pr = as_float("probabilities", probabilities)
        require(np.all(np.isfinite(pr) & (pr >= 0)), "probabilities", "finite and >= 0")
        require(abs(pr.sum() - 1) <= 1e-12, "probabilities", f"summing to 1 (sum = {pr.sum()!r})")
        if N is None:
            N = max((j for x in s for j in x), default=-1) + 1
            require(N >= 1, "samples", "holding at least one unit")
        listed = np.zeros(N, dtype=bool)
        pi = np.zeros(N)
        for x, p in zip(s, pr):
            listed[list(x)] = True
            pi[list(x)] += p
        if not listed.all():
            fail("samples", f"covering every unit 0..N-1 (N = {N}): unit {np.argmin(listed)} is in no sample, "
                 "so its Horvitz-Thompson weight 1/pi_i is undefined")
        if not (pi > 0).all():
            fail("probabilities", f"giving every unit a positive inclusion probability (unit {np.argmin(pi > 0)} "
                 "is only in samples of probability 0: 1/pi_i is undefined)")
        object.__setattr__(self, "samples", tuple(s))
        object.__setattr__(self, "probabilities", tuple(float(p) for p in pr))
        object.__setattr__(self, "N", int(N))


@provenance("htm.strat.density_mixture", "htm.strat.mixture_bound", "htm.strat.translation")
@dataclass(frozen=True, init=False)
class Stratified:
    """Independent designs in the strata, one :class:`SRS` or :class:`Bernoulli` per stratum; the
    release is the sum of the strata's Horvitz-Thompson totals plus one noise.

    The units are numbered stratum by stratum (``N`` is the sum of the strata's N_h).  A pair of
    neighbouring populations differs in one stratum h; the other strata's estimate R is independent
    of it, so the density is a mixture over R of stratum h's density shifted (claim
    ``htm.strat.density_mixture``) and delta <= delta_h (post-processing, ``htm.strat.mixture_bound``),
    with equality when the other strata's estimates may be constant (``htm.strat.translation``: all
    values 0, all values equal under SRS, or a census stratum).

    Source: ht-mechanism (000), Section 1.3 (the design p(s)); claims htm.strat.*.

    >>> Stratified([SRS(100, 10), Bernoulli(50, 0.2)]).N
    150
    """

    strata: tuple
    N: int

    def __init__(self, strata):
        require(isinstance(strata, (list, tuple)) and len(strata) > 0, "strata", "a non-empty list of SRS or "
                "Bernoulli designs, one per stratum")
        for k, d in enumerate(strata):
            require(isinstance(d, (SRS, Bernoulli)), "strata", f"made of SRS or Bernoulli designs (stratum {k} "
                    f"is {type(d).__name__})")
        object.__setattr__(self, "strata", tuple(strata))
        object.__setattr__(self, "N", int(sum(d.N for d in strata)))


@provenance("htm.poisson.one_unit_mixture", "htm.poisson.laplace_forward", "htm.poisson.laplace_reverse")
@dataclass(frozen=True, init=False, eq=False)
class Poisson:
    """Poisson sampling with unequal inclusion probabilities pi_i in (0, 1]: each unit independently.

    The other units' contributions are independent of unit i's, so delta is at most that of the
    one-unit mechanism y_i s_i/pi_i + noise, with equality when the other units may be 0 (claim
    ``htm.poisson.one_unit_mixture``); the supremum is a maximum over the distinct pi_i.

    Source: ht-mechanism (000), Section 1.3 (a design p on U, pi_i > 0); claims htm.poisson.*.

    >>> Poisson([0.1, 0.5, 0.5]).N
    3
    """

    pi: np.ndarray
    N: int

    def __init__(self, pi):
        shape = _shape_of(pi)
        require(len(shape) == 1 and shape[0] > 0, "pi", "a one-dimensional array of inclusion probabilities, "
                "one per unit")
        require(shape[0] <= _N_MAX, "pi", f"at most {_N_MAX} inclusion probabilities")
        memory("pi", 4 * shape[0], what="its validation")
        arr = np.array(as_float("pi", pi), dtype=float)
        require((arr > 0) & (arr <= 1), "pi", "inclusion probabilities in (0, 1] (a unit of probability 0 has "
                "no Horvitz-Thompson weight 1/pi_i)")
        arr.setflags(write=False)
        object.__setattr__(self, "pi", arr)
        object.__setattr__(self, "N", int(arr.size))


# -- domains ----------------------------------------------------------------------------------------
@provenance("htm.delta.event_form", "htm.r8.density")
@dataclass(frozen=True, init=False)
class BinaryDomain:
    """x in {0, 1}^N with population total in [m_t, M_t] (default: every total).

    Source: ht-mechanism (000), Section 2.3 (binary data, total in [m_t, M_t])."""

    N: int
    m_t: int
    M_t: int
    kind = "binary"

    def __init__(self, N, m_t=0, M_t=None):
        N = _scalar_integer("N", N, 1, _N_MAX, f"an integer in [1, {_N_MAX}]")
        m_t, M_t = _range(N, m_t, N if M_t is None else M_t)
        object.__setattr__(self, "N", N)
        object.__setattr__(self, "m_t", m_t)
        object.__setattr__(self, "M_t", M_t)

    def neighbour_values(self, x, i):
        t = sum(x) - x[i] + (1 - x[i])
        return (1.0 - x[i],) if self.m_t <= t <= self.M_t else ()


@provenance("htm.delta.event_form")
@dataclass(frozen=True, init=False)
class FiniteDomain:
    """Each unit's value in a finite set (e.g. a grid on [m, M]); no constraint on the total.

    Source: ht-mechanism (000), Section 1.4 (neighbouring x, x' differ at one unit)."""

    values: tuple
    kind = "finite"

    def __init__(self, values):
        require(not isinstance(values, np.ndarray) or values.size <= _MAX_VALUES, "values",
                f"at most {_MAX_VALUES} numbers (a domain is enumerated pair by pair)")
        v = as_float("values", values)
        require(v.ndim == 1 and np.all(np.isfinite(v)), "values", "a one-dimensional sequence of finite numbers")
        v = np.unique(v)
        require(v.size >= 2, "values", "at least two distinct numbers (else no neighbouring populations)")
        object.__setattr__(self, "values", tuple(float(a) for a in v))

    def neighbour_values(self, x, i):
        return tuple(v for v in self.values if v != x[i])


@provenance("htm.bounded.sensitivity", "htm.bounded.binary_pair")
@dataclass(frozen=True, init=False)
class IntervalDomain:
    """Every unit's value in the interval [a, b] (a bounded continuous variable: turnover, income),
    no constraint on the total.

    Source: ht-mechanism (000), Section 1.4 (neighbouring x, x' differ at one unit); claims
    htm.bounded.sensitivity (the generic route: an upper value) and htm.bounded.binary_pair (the
    values {a, b}: a lower value).

    >>> IntervalDomain(0, 250.0).width
    250.0
    """

    a: float
    b: float
    kind = "interval"

    def __init__(self, a, b):
        a = scalar("a", a)
        b = scalar("b", b)
        require(a < b, "b", f"> a (an interval with two distinct ends; a = {a!r})")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def width(self) -> float:
        return self.b - self.a


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


@provenance("htm.strat.translation", "htm.bounded.sensitivity", "htm.bounded.binary_pair")
class Scale(float):
    """A calibrated noise scale: the float is the upper value (it meets the target); ``lower`` is a
    scale below which a population of the domain breaks the target (``nan`` when none was computed),
    ``exact`` says the two agree to 1e-6 relative, ``stratum`` the stratum (or unit) that sets it,
    and ``note`` how it was obtained.

    Source: ht-mechanism (000), Abstract (which scale reaches a given (eps, delta)); claims
    htm.strat.translation, htm.bounded.sensitivity, htm.bounded.binary_pair."""

    def __new__(cls, value, lower=math.nan, exact=True, stratum=None, note=""):
        obj = float.__new__(cls, value)
        obj.lower, obj.exact, obj.stratum, obj.note = float(lower), bool(exact), stratum, note
        return obj

    @property
    def upper(self) -> float:
        return float(self)

    def __reduce__(self):
        return (Scale, (float(self), self.lower, self.exact, self.stratum, self.note))


# -- validation -------------------------------------------------------------------------------------
def _survey(design, domain) -> bool:
    """True for the designs and domains of the one-unit reductions (:mod:`numeric._profile_survey`)."""
    return isinstance(design, (Stratified, Poisson)) or isinstance(domain, (IntervalDomain, list, tuple))


def _check(design, domain, noise):
    require(isinstance(design, (SRS, Bernoulli, ExplicitDesign, Stratified, Poisson)), "design",
            "an SRS, Bernoulli, Stratified, Poisson or ExplicitDesign")
    require(noise in NOISES, "noise", f"one of {NOISES} (got {noise!r})")
    if isinstance(domain, (list, tuple)):
        require(isinstance(design, Stratified), "domain", "a BinaryDomain, FiniteDomain or IntervalDomain (a list "
                "of per-stratum domains goes with a Stratified design)")
        require(len(domain) == len(design.strata), "domain", f"one domain per stratum ({len(design.strata)} "
                f"strata, {len(domain)} domains)")
        for h, (d, dom) in enumerate(zip(design.strata, domain)):
            require(isinstance(dom, (BinaryDomain, IntervalDomain)), "domain", f"made of BinaryDomain or "
                    f"IntervalDomain (stratum {h} has {type(dom).__name__})")
            if isinstance(dom, BinaryDomain):
                require(dom.N == d.N, "domain", f"on each stratum's population (stratum {h}: domain N = {dom.N}, "
                        f"design N = {d.N})")
        return
    require(isinstance(domain, (BinaryDomain, FiniteDomain, IntervalDomain)), "domain",
            "a BinaryDomain, FiniteDomain or IntervalDomain")
    if isinstance(domain, BinaryDomain):
        require(domain.N == design.N, "domain", f"on the design's population (domain N = {domain.N}, "
                f"design N = {design.N})")
    if isinstance(domain, IntervalDomain):
        require(not isinstance(design, ExplicitDesign), "domain", "a BinaryDomain or FiniteDomain for an "
                "ExplicitDesign (an interval is handled for SRS, Bernoulli, Stratified and Poisson designs)")
    if isinstance(domain, FiniteDomain):
        require(not isinstance(design, (Stratified, Poisson)), "domain", "a BinaryDomain or IntervalDomain for a "
                "Stratified or Poisson design")


def _scale(name: str, value, allow_zero=False) -> float:
    return scalar(name, value, 0.0, np.inf, lo_open=not allow_zero)


def _epsilons(value, name: str = "epsilon") -> np.ndarray:
    eps = as_float(name, value, finite=True)
    require(eps >= 0, name, "finite and >= 0")
    return eps


def _delta_target(value) -> float:
    return scalar("delta", value, 0.0, 1.0, lo_open=True, hi_open=True)


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


def _pure_scale(design, domain, eps: float) -> float:
    """The smallest scale (a double, to a few ulps) from which Laplace noise makes delta(eps) = 0
    exactly: the amplified scale of ``profile.amplification.generic_scale`` for SRS and Bernoulli on
    binary data, Delta/eps otherwise (the Laplace mechanism with the largest shift of an atom: pure,
    but without the gain of the sampling, so not always the smallest pure scale); ``inf`` at eps = 0."""
    from fractions import Fraction

    if eps <= 0:
        return math.inf
    if isinstance(domain, BinaryDomain) and not isinstance(design, ExplicitDesign):
        return _bin.pure_scale(_family(design), eps)
    delta = _sensitivity(design, domain)
    b = float(delta / Fraction(eps))
    while Fraction(eps) * Fraction(b) < delta:
        b = float(np.nextafter(b, math.inf))
    return b


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
    """A design and domain cut into the reductions of :mod:`numeric._profile_survey`: closed rows
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
    from ._profile_survey import Components

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
    from ._profile_survey import one_unit_delta

    lo, hi, pi = rows.lo[r], rows.hi[r], rows.pi[r]
    if rows.kind[r] == 0:
        W = hi - lo
        up = one_unit_delta(pi, W, 0.0, b, eps, noise)[()]
        down = one_unit_delta(pi, 0.0, W, b, eps, noise)[()]
        return (hi, lo) if up >= down else (lo, hi)
    cand = [(hi, lo), (lo, hi)]      # the extreme pair in one of its orders (htm.poisson.reflection)
    d = [float(one_unit_delta(pi, u, v, b, eps, noise)) for u, v in cand]
    return cand[int(np.argmax(d))]


def _survey_calibrate(design, domain, eps: float, delta: float, noise: str, rtol: float) -> "Scale":
    P = _parts(design, domain)
    ups, lows, who = [], [], []
    if len(P.rows):
        b_up, b_low, _ = P.rows.calibrate(eps, delta, noise, rtol)
        ups += list(b_up)
        lows += list(b_low)
        who += [(int(h), int(u)) for h, u in zip(P.row_stratum, P.row_unit)]
    for h, d, dom in P.searches:
        bh = calibrate_scale(d, dom, eps, delta, noise=noise, rtol=rtol)
        ups.append(float(bh))
        lows.append(float(bh) / (1 + rtol) if P.others_ok[h] else math.nan)
        who.append((h, -1))
    k = int(np.argmax(ups))
    b = float(ups[k])
    finite = [v for v in lows if not math.isnan(v)]
    lower = max(finite) if finite else math.nan
    exact = (not math.isnan(lower)) and lower >= b * (1 - 1e-6) - 1e-300
    h, u = who[k]
    label = h if isinstance(design, Stratified) else (u if isinstance(design, Poisson) else None)
    how = "exact: lower and upper values agree" if exact else "an upper value (the lower value is a scale below " \
        "which a population of the domain breaks the target)"
    return Scale(b, lower, exact, label, f"{P.note}; {how}")


# -- public functions -------------------------------------------------------------------------------
@provenance(*_CLAIMS, "htm.strat.mixture_bound", "htm.strat.translation", "htm.poisson.one_unit_mixture",
            "htm.poisson.worst_pair_half_line", "htm.poisson.reflection", "htm.bounded.binary_pair")
def privacy_profile(design, domain, b, epsilons, noise="laplace", prune=True, progress=False):
    r"""delta(eps) = sup over neighbouring x, x' of the domain of int (f_x - e^eps f_x')_+, exactly.

    .. math:: \delta(\varepsilon) = \sup_{x \sim x'} \int_{\mathbb R}
              \big(f_x(z) - e^{\varepsilon} f_{x'}(z)\big)_+ \, dz,
              \qquad f_x = \sum_s p(s)\, K_b\big(z - \hat t(x, s)\big)

    with K_b the Laplace(b) density (``noise="laplace"``) or the N(0, b^2) density
    (``noise="gaussian"``, b read as sigma).  ``x ~ x'`` ranges over ordered pairs of the domain at
    Hamming distance 1.

    Never below the exact value.  Each pair is computed in closed form (Laplace: between consecutive
    atoms, ``profile.laplace.*``; Gaussian: at the zero of a monotone exponential sum,
    ``profile.gaussian.*``) in long double, and an a priori bound of its rounding error is added
    before rounding up to a double (``_profile_binary.error_bound``: relative perturbations eta of
    the two mixtures change delta by at most 2 eta/(1 - eta), whatever e^eps; about 1e-17 W for a
    window of W atoms).  The supremum over pairs skips only pairs whose certified upper bound is at
    most the value returned; for SRS on binary data it is a branch and bound over blocks of totals,
    for Bernoulli sampling the pair at the smallest total (data processing), so the cost does not
    grow with N.  ``prune=False`` evaluates every pair.

    Exact zeros.  Where a claim proves delta(eps) = 0 the result is 0.0 exactly, not the rounding
    bound: with Laplace noise, for SRS and Bernoulli sampling on binary data when
    eps >= ln(1 + q(e^{h/b} - 1)) (q the sampling fraction n/N or p, h = 1/q the sensitivity of the
    Horvitz-Thompson total: the amplified epsilon of claim ``profile.amplification.generic_scale``;
    for Bernoulli sampling also directly from the coupling of ``profile.bernoulli.pmf_difference``),
    checked in exact rational and 128-bit interval arithmetic; for an explicit design when
    eps >= Delta/b (Delta = max_i (largest change of x_i)/pi_i, claim ``htm.census.delta``); and,
    for any noise, for SRS pairs whose noiseless loss is at most eps (``profile.srs.zero_region``).

    Source: ht-mechanism (000), Section 1.4 (delta) and Section 2.2 (the atoms and the split).

    Stratified and Poisson designs, bounded values.  For a :class:`Stratified` or :class:`Poisson`
    design, or an :class:`IntervalDomain`, the supremum is reduced to one stratum (claims
    ``htm.strat.mixture_bound``, ``htm.strat.translation``) and to the one-unit mechanism
    (``htm.poisson.one_unit_mixture``, ``htm.poisson.worst_pair_half_line``, ``htm.poisson.reflection``;
    under SRS the every-a / one-b pair, ``htm.bounded.binary_pair``, which attains the amplification
    bound of sampling without replacement): see :mod:`numeric._profile_survey`.  The value returned is
    the upper value; :func:`worst_pair` also gives the lower value (a pair of the domain) and says
    whether the two agree (``exact``).  A stratified domain is a :class:`BinaryDomain` of the whole
    population, an :class:`IntervalDomain` for every stratum, or a list of per-stratum domains.

    Parameters: ``design`` an :class:`SRS`, :class:`Bernoulli`, :class:`Stratified`, :class:`Poisson`
    or :class:`ExplicitDesign`; ``domain`` a :class:`BinaryDomain` (on the design's N),
    :class:`FiniteDomain` (SRS, Bernoulli, explicit), :class:`IntervalDomain` (not explicit) or a list
    of per-stratum domains; ``b`` > 0; ``epsilons`` finite and >= 0 (any shape); ``progress`` shows a
    progress bar over epsilons.

    >>> float(privacy_profile(SRS(4, 4), BinaryDomain(4), 1.0, 0.5))  # census: 1 - e^{(0.5 - 1)/2}
    0.22119921692859...
    """
    _check(design, domain, noise)
    b = _scale("b", b)
    memory_for(1, epsilons=epsilons)
    eps = _epsilons(epsilons, "epsilons")
    flat = eps.ravel()
    it = flat
    if progress:
        from tqdm.auto import tqdm
        it = tqdm(flat, desc="privacy profile", unit="eps")
    if _survey(design, domain):
        out = np.array([_survey_solve(design, domain, b, float(e), noise).delta for e in it])
    else:
        out = np.array([_solve(design, domain, b, float(e), noise, prune).delta for e in it])
    return out.reshape(eps.shape)[()] if eps.ndim == 0 else out.reshape(eps.shape)


@provenance(*_CLAIMS)
def worst_pair(design, domain, b, epsilon, noise="laplace") -> WorstPair:
    """The ordered neighbouring pair attaining delta(eps) (see :func:`privacy_profile`).

    Source: ht-mechanism (000), Section 1.4 (delta, a supremum over neighbouring pairs).

    >>> wp = worst_pair(SRS(1000, 50), BinaryDomain(1000), 20.0, 1.0)
    >>> (wp.total, wp.total_prime) in [(0.0, 1.0), (999.0, 1000.0)]  # tied by x -> 1 - x
    True
    """
    _check(design, domain, noise)
    e = _epsilons(epsilon)
    require(e.ndim == 0, "epsilon", "a scalar")
    if _survey(design, domain):
        return _survey_solve(design, domain, _scale("b", b), float(e), noise)
    return _solve(design, domain, _scale("b", b), float(e), noise)


def _smallest(f, lo: float, hi: float, rtol: float, log: bool) -> float:
    """For non-increasing f with f(lo) > 0 >= f(hi): a point v with f(v) <= 0 checked, and the sign
    change within a relative distance rtol below it (``brentq``, in log space if ``log``).  The ends
    are evaluated at lo and hi themselves (exp(ln hi) may differ from hi by an ulp, which matters
    where f jumps at hi: the start of the pure region), and the point returned is the one checked."""
    from scipy.optimize import brentq

    a, c = (math.log(lo), math.log(hi)) if log else (lo, hi)

    def point(u):
        return hi if u >= c else lo if u <= a else (math.exp(u) if log else u)

    def g(u):
        return f(point(u))

    tol = rtol if log else rtol * max(abs(hi), 1e-300)
    r = brentq(g, a, c, xtol=tol / 4, rtol=4 * np.finfo(float).eps)
    v = min(r + tol / 2, c)
    while g(v) > 0:                       # brentq's point may sit just below the sign change
        v = min(v + tol / 2, c)
    return point(v)


_B_MAX = 1e300       # the largest noise scale tried: delta there is the rounding bound of the computation


def _excess(design, domain, b: float, eps: float, noise: str, target: float) -> float:
    """(upper value of delta_b(eps)) - target; pairs whose bound is below target/2 are not evaluated,
    so the sign is exact, and the value too wherever delta > target/2."""
    return _solve(design, domain, b, eps, noise, floor=target / 2).delta - target


@provenance(*_CLAIMS, "profile.scale_monotone")
def epsilon_for_delta(design, domain, b, delta, noise="laplace", rtol=1e-9) -> float:
    """The smallest eps >= 0 with delta(eps) <= delta at scale b (delta(eps) is non-increasing),
    never below it.

    Returned as the upper end of a bracket of relative width ``rtol``, at which the upper value of
    delta (see :func:`privacy_profile`) is checked to be <= ``delta``: the exact delta there is at
    most ``delta``.  The bracket's far end is Delta/b for Laplace noise on binary data (the
    Laplace mechanism with the Horvitz-Thompson sensitivity Delta = 1/pi: delta = 0 from there on),
    otherwise found by doubling up to eps = 1000; a ``delta`` that is not reached there raises a
    ``ValueError`` naming ``delta``.

    Source: ht-mechanism (000), Section 1.4 (DP(eps, delta) of the mechanism).

    >>> e = epsilon_for_delta(SRS(4, 4), BinaryDomain(4), 1.0, 0.2)  # census: 1 - 2 ln(1 - 0.2)... inverted
    >>> abs(e - (1 + 2 * math.log(0.8))) < 1e-8
    True
    """
    _check(design, domain, noise)
    b = _scale("b", b)
    target = _delta_target(delta)
    rtol = tolerance("rtol", rtol)

    def g(e):
        if _survey(design, domain):
            return _survey_solve(design, domain, b, e, noise).delta - target
        return _excess(design, domain, b, e, noise, target)

    if g(0.0) <= 0:
        return 0.0
    binary = isinstance(domain, BinaryDomain) and isinstance(design, (SRS, Bernoulli))
    hi = _family(design).spacing / b if binary and noise == "laplace" else 1.0
    while g(hi) > 0:
        require(hi < 1000.0, "delta", f"reachable: the certified delta stays above {target!r} up to eps = 1000")
        hi = min(2 * hi, 1000.0)
    return _smallest(g, 0.0, hi, rtol, log=False)


@provenance(*_CLAIMS, "profile.scale_monotone", "htm.strat.translation", "htm.poisson.one_unit_mixture",
            "htm.bounded.binary_pair")
def calibrate_scale(design, domain, epsilon, delta, noise="laplace", rtol=1e-9) -> float:
    """The smallest noise scale b (sigma for Gaussian noise) with delta(eps) <= delta, never below it.

    delta(eps) is non-increasing in the scale (``profile.scale_monotone``: Laplace(b2) is
    Laplace(b1) plus independent noise when b1 <= b2).  Returns 0.0 when the estimate without noise
    already meets (eps, delta) -- a verdict that holds only while the sample itself stays secret,
    since the randomness of the sampling is then the only protection; otherwise the upper end of a
    bracket of relative width ``rtol`` at which the upper value of delta (see
    :func:`privacy_profile`) is checked to be <= ``delta``, so the returned scale meets the target
    exactly.

    Pure region (Laplace noise, eps > 0).  From the pure scale on -- the generic scale of
    :func:`amplified_laplace_scale` for SRS and Bernoulli sampling on binary data (claim
    ``profile.amplification.generic_scale``), Delta/eps for an explicit design or a finite domain
    (Delta = max_i (largest change of x_i)/pi_i: the Laplace mechanism, claim ``htm.census.delta``,
    which ignores what the sampling adds, so the pure region may start lower), each rounded up until
    certified -- delta(eps) is exactly 0: the mechanism is pure eps-DP there, and
    :func:`privacy_profile` and :func:`worst_pair` return 0.0.  The search never goes above it, so
    every target delta > 0 is met, at the latest by the pure scale itself (the answer for a target
    below the rounding bound of the computation, about 1e-16 to 1e-15, e.g. 1e-30: the smaller
    scales have certified upper values above the target).  Only without a pure region (Gaussian
    noise, or eps = 0) is a target below what the computation can certify (the upper value of delta
    at b = 1e300, where the exact delta is ~0, is the rounding bound) refused with a ``ValueError``
    naming ``delta``, before any search.

    Stratified and Poisson designs, bounded values: a :class:`Scale` (a float, the upper value, which
    meets the target) with ``.lower`` (a scale below which a population of the domain breaks the
    target; ``nan`` when none is computed), ``.exact`` (the two agree to 1e-6), ``.stratum`` (the
    stratum, or the Poisson unit, that sets it) and ``.note``.  The scale of a stratified design is
    the largest of its strata's: exact when every other stratum may be constant (claim
    ``htm.strat.translation``: binary data with every stratum total possible, values in an interval
    under SRS, or 0 among the values), an upper value otherwise.

    Source: ht-mechanism (000), Abstract (which Laplace scale reaches a given (eps, delta)).

    >>> st = calibrate_scale(Stratified([SRS(1000, 50), Bernoulli(300, 0.1)]), BinaryDomain(1300), 1.0, 1e-6)
    >>> round(float(st), 4), st.exact, st.stratum
    (5.6089, True, 0)
    >>> b = calibrate_scale(SRS(4, 4), BinaryDomain(4), 0.5, 0.1)  # census: Delta/(eps - 2 ln(1 - delta))
    >>> abs(b - 1 / (0.5 - 2 * math.log(0.9))) < 1e-8
    True
    """
    _check(design, domain, noise)
    eps = _epsilons(epsilon)
    require(eps.ndim == 0, "epsilon", "a scalar")
    eps = float(eps)
    target = _delta_target(delta)
    rtol = tolerance("rtol", rtol)
    if _survey(design, domain):
        return _survey_calibrate(design, domain, eps, target, noise, rtol)

    def f(b):
        return _excess(design, domain, b, eps, noise, target)

    if _solve(design, domain, 0.0, eps, "laplace", floor=target).delta <= target:     # b = 0: no noise
        return 0.0
    top = _pure_scale(design, domain, eps) if noise == "laplace" else math.inf
    if math.isinf(top):              # no pure region: the target must be certifiable below 1e300
        top = _B_MAX
        require(f(_B_MAX) <= 0, "delta", f"at least the rounding bound of the computation: even at scale "
                f"{_B_MAX:g} the certified delta is {f(_B_MAX) + target:.3g} > {target!r}"
                + (" (Gaussian noise has no pure region)" if noise == "gaussian" else
                   " (at eps = 0 no Laplace scale is pure)"))
    hi = min(1.0, top)
    while f(hi) > 0:                 # f(top) = -target: exactly 0 in the pure region
        hi = min(hi * 16, top)
    lo = hi
    while f(lo) <= 0:
        lo /= 16
        if lo < 1e-300:
            return lo * 16
    return _smallest(f, lo, min(hi, 16 * lo), rtol, log=True)


@provenance("profile.amplification.generic_scale")
def amplified_laplace_scale(design, domain, epsilon) -> float:
    r"""The Laplace scale of the generic route: the Laplace mechanism on the sample, made eps-DP by
    amplification by subsampling.

    .. math:: b = \Delta \big/ \ln\!\big(1 + (e^{\varepsilon} - 1)/q\big), \qquad
              \Delta = \max |x_i - x'_i| / \pi_i,

    q = n/N (SRS, Balle, Barthe & Gaboardi 2018, sampling without replacement and substitution) or
    p (Bernoulli on binary data: x_i = 0 adds nothing when unit i is sampled, so the amplification
    has the same form).  It gives delta = 0; the exact calibration uses the delta allowed.

    Source: ht-mechanism (000), Abstract (the question); the amplification theorem is external.

    >>> round(amplified_laplace_scale(SRS(100, 10), BinaryDomain(100), 1.0), 6)  # 10/ln(1 + 10(e - 1))
    3.447709
    """
    _check(design, domain, "laplace")
    require(isinstance(design, (SRS, Bernoulli)), "design", "an SRS or Bernoulli design (the generic bound is "
            "stated for them)")
    require(isinstance(domain, BinaryDomain), "domain", "a BinaryDomain (the generic bound is stated on binary data)")
    e = _scale("epsilon", epsilon, allow_zero=True)
    q = design.n / design.N if isinstance(design, SRS) else design.p
    if e == 0:
        return math.inf                   # ln(1 + 0) = 0: no finite scale gives eps = 0
    # ln(1 + (e^eps - 1)/q) = eps - ln q + ln(1 + (q - 1) e^{-eps}) for eps > 1 (no overflow of e^eps)
    log_term = math.log1p(math.expm1(e) / q) if e <= 1 else e - math.log(q) + math.log1p((q - 1) * math.exp(-e))
    return (1.0 / q) / log_term


__all__ = ["BinaryDomain", "Bernoulli", "ExplicitDesign", "FiniteDomain", "IntervalDomain", "Poisson", "SRS",
           "Scale", "Stratified", "WorstPair",
           "amplified_laplace_scale", "calibrate_scale", "epsilon_for_delta", "privacy_profile", "worst_pair"]

