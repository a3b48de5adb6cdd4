"""Sampling designs of the privacy profile: who is sampled, with which probabilities.

:class:`SRS` (simple random sampling without replacement), :class:`Bernoulli` (equal-probability
Poisson sampling), :class:`Poisson` (unequal inclusion probabilities), :class:`Stratified`
(independent designs in the strata) and :class:`ExplicitDesign` (every sample listed with its
probability).  Each validates its parameters when it is made.

Source: ``ht-mechanism`` (000), Section 1.3 (a design p on U and the Horvitz-Thompson estimate).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from .._common import _shape_of, as_float, fail, memory, provenance, require, samples_of, scalar
from ..srs_binary import _N_MAX, _design, _scalar_integer

_MAX_SAMPLES = 20_000      # an SRS or Bernoulli design on a FiniteDomain is enumerated up to this


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


__all__ = ["Bernoulli", "ExplicitDesign", "Poisson", "SRS", "Stratified"]
