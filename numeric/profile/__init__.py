r"""Exact privacy profile and noise calibration of a sampled Horvitz-Thompson total.

The release is Z = t(x, S) + noise, with t(x, S) = sum_{i in S} x_i / pi_i the Horvitz-Thompson
estimate of the total under a sampling design and Laplace(b) or Gaussian(sigma) noise.  Its
privacy profile is

.. math:: \delta(\varepsilon) = \sup_{x \sim x'} \int (f_x - e^{\varepsilon} f_{x'})_+ ,

the supremum over ordered pairs of populations of the domain that differ at one unit.  It is
computed exactly (no discretisation, no sampling): per pair, in closed form between consecutive
atoms (Laplace) or with the one zero of a monotone exponential sum (Gaussian), and over pairs with
a certified pruning bound (see :mod:`numeric.profile.search.binary`).

One module for each part:

* :mod:`numeric.profile.designs`: the sampling designs (:class:`SRS`, :class:`Bernoulli`,
  :class:`Poisson`, :class:`Stratified`, :class:`ExplicitDesign`);
* :mod:`numeric.profile.domains`: the values a population may take (:class:`BinaryDomain`,
  :class:`FiniteDomain`, :class:`IntervalDomain`);
* :mod:`numeric.profile.kernels`: delta of one pair of noisy atom mixtures, in closed form;
* :mod:`numeric.profile.search`: the supremum over neighbouring pairs (:class:`WorstPair`), with
  ``search.binary`` (SRS and Bernoulli sampling on binary data), ``search.explicit`` (every pair of an
  explicit design) and ``search.one_unit`` (the one-unit reductions of stratified and Poisson designs
  and bounded values);
* :mod:`numeric.profile.calibration`: :func:`calibrate_scale`, :func:`epsilon_for_delta`,
  :class:`Scale` and :func:`amplified_laplace_scale`;
* this package: the entry points :func:`privacy_profile` and :func:`worst_pair`, and every public
  name above.

Source: ``ht-mechanism`` (000), Abstract (the question: which noise scale for a given
(eps, delta)), Section 1.4 (definition of delta), Section 2.2 (the split of the integral at the
atoms), Section 2.3 (simple random sampling on binary data, Results 8-9).
"""
from __future__ import annotations

import numpy as np

from .._common import memory_for, provenance, require
from .calibration import Scale, amplified_laplace_scale, calibrate_scale, epsilon_for_delta
from .common import _CLAIMS, _check, _epsilons, _scale, _survey
from .designs import SRS, Bernoulli, ExplicitDesign, Poisson, Stratified
from .domains import BinaryDomain, FiniteDomain, IntervalDomain
from .search import WorstPair, _solve, _survey_solve


# -- public functions -------------------------------------------------------------------------------
@provenance(*_CLAIMS, "htm.strat.mixture_bound", "htm.strat.translation", "htm.poisson.one_unit_mixture",
            "htm.poisson.worst_pair_half_line", "htm.poisson.reflection", "htm.bounded.binary_pair",
            "htm.srs.amplification")
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
    before rounding up to a double (``search.binary.error_bound``: relative perturbations eta of
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
    bound of sampling without replacement, ``htm.srs.amplification``): see
    :mod:`numeric.profile.search.one_unit`.  The value returned is the upper value; :func:`worst_pair`
    also gives the lower value (a pair of the domain) and says whether the two agree (``exact``).  A
    stratified domain is a :class:`BinaryDomain` of the whole population, an :class:`IntervalDomain` for
    every stratum, or a list of per-stratum domains.

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


__all__ = ["BinaryDomain", "Bernoulli", "ExplicitDesign", "FiniteDomain", "IntervalDomain", "Poisson", "SRS",
           "Scale", "Stratified", "WorstPair",
           "amplified_laplace_scale", "calibrate_scale", "epsilon_for_delta", "privacy_profile", "worst_pair"]

