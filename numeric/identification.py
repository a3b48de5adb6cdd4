"""Identification risk of sample uniques under the Poisson model (``shlomo-skinner`` (002),
Shlomo and Skinner, Section 2.1).

Model: the population count of a key cell is F ~ Poisson(lam) and units are sampled independently
with inclusion probability pi (Bernoulli/Poisson sampling), so that the sample count is
f ~ Poisson(lam pi) and, given f, F - f ~ Poisson(mu) with mu = lam (1 - pi).  For a sample unique
(f = 1): P(F = 1 | f = 1) = exp(-mu) and E(1/F | f = 1) = (1 - exp(-mu)) / mu.

Edges, for both functions: ``lam >= 0`` (``lam = +inf`` gives the limit, 0); ``pi`` in (0, 1]
(``pi = 0``, no sampling, makes f = 1 impossible and is refused naming ``pi``; ``pi = 1`` is a
census: F = f = 1, both quantities are 1 for every lam, ``lam = +inf`` included, the limit along
lam at fixed pi = 1); NaN refused naming its parameter.  Inputs broadcast together (a shape clash
names the parameter) and results larger than the memory limit of :mod:`numeric._common` are
refused before anything is allocated.

Accuracy: mu = lam (1 - pi) is carried as an unevaluated sum hi + lo that is exact up to a
relative 2^-100 or so (1 - pi by Fast2Sum, lam (1 - pi) by Dekker's product), so both results keep
full relative accuracy (a few ulp) even where exp(-mu) amplifies an error in mu by mu (up to 745);
E uses ``expm1`` (no cancellation as mu -> 0, where E = 1 - mu/2 + ...) and is 1 exactly at mu = 0.
A result in the subnormal range (exp(-mu) for mu > 708) has the absolute accuracy of that range.
"""
from __future__ import annotations

import numpy as np

from ._common import as_float, memory_for, provenance, require, scalar_out

_TEMPS = 12  # float arrays of the broadcast shape alive at once (inputs, split parts, output)
_SPLIT = 134217729.0  # 2^27 + 1 (Veltkamp)
_SPLIT_MAX = 2.0 ** 900  # below this, lam * _SPLIT cannot overflow


def _split(a):
    big = _SPLIT * a
    hi = big - (big - a)
    return hi, a - hi


def _mu(lam, pi):
    """Validated inputs and mu = lam (1 - pi) as (hi, lo), broadcast; hi + lo exact to ~2^-100 relative
    (lo = 0 where lam > 2^900 or infinite: there exp(-mu) = 0 and E = 1/mu needs mu to an ulp only)."""
    memory_for(_TEMPS, lam=lam, pi=pi)
    lam = as_float("lam", lam)
    require(lam >= 0, "lam", ">= 0 (the expected population count of the cell; +inf allowed)")
    pi = as_float("pi", pi)
    require((pi > 0) & (pi <= 1), "pi", "in (0, 1] (the inclusion probability; pi = 0 makes f = 1 impossible)")
    lam, pi = np.broadcast_arrays(lam, pi)
    s = 1.0 - pi                        # exact for pi >= 1/2 (Sterbenz)
    t = (1.0 - s) - pi                  # Fast2Sum: 1 - pi = s + t exactly (|1| >= |pi|)
    lam = np.where(s == 0, 0.0, lam)    # pi = 1: mu = 0 whatever lam is (no inf * 0)
    hi = lam * s
    lc = np.where(lam <= _SPLIT_MAX, lam, 0.0)
    (ah, al), (bh, bl) = _split(lc), _split(s)
    p = lc * s
    lo = (((ah * bh - p) + ah * bl) + al * bh) + al * bl + lc * t   # Dekker: lc s = p + error exactly
    return hi, lo


@provenance("ss.p_population_unique")
def prob_population_unique(lam, pi):
    r"""Probability that a sample unique is a population unique,
    :math:`P(F = 1 \mid f = 1) = e^{-\lambda (1 - \pi)}`.

    Source: shlomo-skinner (002), Section 2.1 (F ~ Poisson(lam), sampling with inclusion
    probability pi, so F - f | f ~ Poisson(lam (1 - pi))).

    Parameters: ``lam >= 0`` the expected population count of the cell (``inf`` gives 0, the
    limit); ``pi`` in (0, 1] the inclusion probability (``pi = 1``: census, 1).  Broadcast together;
    a NumPy scalar for scalar input.

    >>> float(prob_population_unique(2.0, 0.5))  # e^{-1}
    0.36787944117144...
    >>> float(prob_population_unique(float("inf"), 0.5)), float(prob_population_unique(float("inf"), 1.0))
    (0.0, 1.0)
    """
    hi, lo = _mu(lam, pi)
    with np.errstate(under="ignore", over="ignore"):
        p0 = np.exp(-hi)
        return scalar_out(p0 - p0 * lo)   # e^{-(hi + lo)} = e^{-hi} (1 - lo), |lo| <= 2^-52 hi


@provenance("ss.expected_inverse_frequency")
def expected_inverse_frequency(lam, pi):
    r"""Expected inverse population frequency of a sample unique,
    :math:`E(1/F \mid f = 1) = (1 - e^{-\mu}) / \mu` with :math:`\mu = \lambda (1 - \pi)`, and 1 at
    :math:`\mu = 0` (the limit; pi = 1 is a census, F = f = 1).

    Source: shlomo-skinner (002), Section 2.1.  The extracted text of the source prints
    exp(lam (1 - pi)) without the minus sign; it is read as exp(-lam (1 - pi)) (reading
    ``ss.reading.inverse_frequency_sign``): as printed the value would be negative.

    Parameters: ``lam >= 0`` (``inf`` gives 0, the limit), ``pi`` in (0, 1]; broadcast together; a
    NumPy scalar for scalar input.  Evaluated as -expm1(-mu)/mu: full relative accuracy for tiny mu
    (E = 1 - mu/2 + ...) and large mu (E = 1/mu).

    >>> float(expected_inverse_frequency(2.0, 0.5))  # 1 - e^{-1}
    0.63212055882855...
    >>> float(expected_inverse_frequency(0.0, 0.3)), float(expected_inverse_frequency(float("inf"), 0.3))
    (1.0, 0.0)
    """
    hi, lo = _mu(lam, pi)
    with np.errstate(under="ignore", over="ignore", invalid="ignore", divide="ignore"):
        pos = hi > 0
        h = np.where(pos, hi, 1.0)
        e0 = -np.expm1(-h) / h
        # first-order correction for lo: dE/dmu = (e^{-mu} - E) / mu (lo = 0 where hi is infinite)
        e = e0 + np.where(pos & (lo != 0), lo * ((np.exp(-h) - e0) / h), 0.0)
        return scalar_out(np.where(pos, e, 1.0))
