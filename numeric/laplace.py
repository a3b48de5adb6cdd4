"""Laplace and log-Laplace quantities (``abs-pufferfish`` (004), Appendix A.1, Lemma 1).

Edges, for every function here: the scale ``b`` of a Laplace law is finite and > 0 (``b = inf``
is refused where the law itself is evaluated: ``laplace_pdf``, ``laplace_cdf``, ``laplace_mgf``);
an infinite ``x`` or ``mu`` gives the limit of the formula (0 or 1 for the density and distribution
function, ``inf`` or 0 for the moments), and where that limit does not exist (``x`` and ``mu``
infinite with the same sign: |x - mu| is undefined) or disagrees with the moment of the limit law
(``mu = -inf`` where the moment diverges: 0 * inf, the moment infinite for every finite mu but
e^X -> 0) the call raises ``ParameterError`` naming ``mu``.  Inputs broadcast together (a shape clash names the parameters) and results larger than
the memory limit of :mod:`numeric._common` are refused before anything is allocated.
"""
from __future__ import annotations

import numpy as np

from . import _generated as gen
from ._common import as_float, memory_for, provenance, require, scalar_out

_TEMPS = 6  # float arrays of the broadcast shape alive at once (inputs, kernel temporaries, output)


def _positive_b(b) -> np.ndarray:
    """b as a float array, > 0 everywhere (NaN, strings and booleans refused naming b)."""
    b = as_float("b", b)
    require(b > 0, "b", "> 0")
    return b


def _finite_scale(b) -> np.ndarray:
    b = _positive_b(b)
    require(np.isfinite(b), "b", "finite and > 0 (the scale of a Laplace law)")
    return b


def _location(x, mu):
    """x and mu as float arrays; refuse (naming mu) where both are infinite with the same sign."""
    x, mu = as_float("x", x), as_float("mu", mu)
    with np.errstate(invalid="ignore"):
        require(~np.isnan(x - mu), "mu", "finite where x is infinite with the same sign (|x - mu| is undefined)")
    return x, mu


@provenance("laplace.pdf_normalised")
def laplace_pdf(x, b, mu=0.0):
    r"""Density of Laplace(mu, b): :math:`f(x) = e^{-|x-\mu|/b} / (2b)`.

    Source: abs-pufferfish (004), Appendix A.1 (density of Lemma 1).

    Parameters: ``x`` real; ``b > 0`` finite, the scale; ``mu`` real the location.  Broadcast
    together.  Infinite ``x`` or ``mu`` gives 0 (the limit); ``x`` and ``mu`` infinite with the
    same sign is refused (naming ``mu``).  A subnormal ``b`` gives ``inf`` at x = mu (1/(2b)
    overflows) and 0 elsewhere.

    >>> float(laplace_pdf(0.0, 1.0))
    0.5
    >>> float(laplace_pdf(float("inf"), 1.0))
    0.0
    """
    memory_for(_TEMPS, x=x, b=b, mu=mu)
    b = _finite_scale(b)
    x, mu = _location(x, mu)
    with np.errstate(over="ignore"):
        return scalar_out(gen.laplace_pdf(x, b, mu))


@provenance("laplace.cdf_left", "laplace.cdf_right")
def laplace_cdf(x, b, mu=0.0):
    r"""Distribution function of Laplace(mu, b):
    :math:`F(x) = \tfrac12 e^{(x-\mu)/b}` for :math:`x < \mu`, :math:`1 - \tfrac12 e^{-(x-\mu)/b}` otherwise.

    Source: abs-pufferfish (004), Appendix B.1.  ``b > 0`` finite; broadcast together.
    Returns 0 at ``x = -inf`` and 1 at ``x = +inf``; ``mu = +inf`` (``-inf``) gives the limit 0 (1)
    at finite x; ``x`` and ``mu`` infinite with the same sign is refused (naming ``mu``).

    >>> float(laplace_cdf(0.0, 2.0))
    0.5
    """
    shape = memory_for(_TEMPS, x=x, b=b, mu=mu)
    b = _finite_scale(b)
    x, mu = _location(x, mu)
    x, mu, b = (np.broadcast_to(v, shape) for v in (x, mu, b))
    with np.errstate(over="ignore"):
        return scalar_out(gen.laplace_cdf(x, b, mu))


@provenance("laplace.mgf", "laplace.mgf_stable_form", "laplace.mgf_ab_plus_one",
            "laplace.mgf_ab_minus_one", "laplace.mgf_ab_above_one", "laplace.mgf_ab_below_minus_one")
def laplace_mgf(a, b, mu=0.0):
    r"""Moment generating function :math:`E[e^{aX}]` of X ~ Laplace(mu, b).

    .. math:: E[e^{aX}] = \frac{e^{a\mu}}{(1-ab)(1+ab)} \quad (|ab| < 1), \qquad +\infty \quad (|ab| \ge 1).

    Source: abs-pufferfish (004), Appendix A.1, Lemma 1.  The printed finite values at
    ab = +-1 are errata (the integral diverges); this function returns ``inf`` there.

    Parameters: ``a`` real, ``b > 0`` finite, ``mu`` real; broadcast together.  Edges: a = 0 gives
    1 (e^{0 X} = 1) for every mu, infinite ``mu`` included; for a != 0 an infinite ``a`` or ``mu``
    gives the limit (``inf`` where ``|ab|`` >= 1 or a mu = +inf, 0 where a mu = -inf and ``|ab|`` < 1);
    e^{a mu} beyond the float range gives ``inf``.  An infinite ``mu`` with a mu = -inf and
    ``|ab|`` >= 1 has no value and is refused, naming ``mu``: e^{a mu} times the divergent integral is
    0 * inf (the MGF is infinite for every finite mu, but e^{aX} -> 0 almost surely, whose mean is
    0), as in :func:`log_laplace_mean`.

    >>> float(laplace_mgf(1.0, 0.5))  # 1 / (1 - 1/4)
    1.3333333333333333
    >>> float(laplace_mgf(2.0, 0.5))
    inf
    >>> float(laplace_mgf(0.0, 0.5, float("inf")))
    1.0
    """
    memory_for(_TEMPS, a=a, b=b, mu=mu)
    a, b, mu = np.broadcast_arrays(as_float("a", a), _finite_scale(b), as_float("mu", mu))
    finite = np.abs(a * b) < 1
    require(finite | ~np.isinf(mu) | (a == 0) | ((a > 0) == (mu > 0)), "mu",
            "finite where |ab| >= 1 and a mu = -inf (E[e^{aX}] is infinite for every finite mu, while "
            "e^{aX} -> 0 as a mu -> -inf: e^{a mu} times a divergent integral, 0 * inf, has no value)")
    with np.errstate(over="ignore"):
        # a = 0: E[e^{0 X}] = 1 whatever mu is (0 * inf would be NaN in e^{a mu})
        value = gen.laplace_mgf_finite(np.where(finite, a, 0.0), b, np.where(finite & (a != 0), mu, 0.0))
    return scalar_out(np.where(finite, value, np.inf))


def _finite_below(kernel, limit, b, mu, power, what):
    """``kernel(b, mu)`` where ``b < limit`` (the moment exists), ``inf`` elsewhere; ``mu = -inf``
    with ``b >= limit`` is refused naming ``mu`` (``what`` says which moment: e^{power mu} times an
    infinite moment, 0 * inf, has no value).

    ``kernel(b, mu) = e^{power mu} kernel(b, 0)``.  Where the direct value is not a positive finite
    number (e^{power mu} over- or underflows, or b^2 underflows against it: 0 * inf), it is
    evaluated as exp(power mu + ln kernel(b, 0)), with ln kernel(b, 0) for b below 1e-100 taken from
    b = 1e-100 by its leading power of b (kernel(b, 0)/b^(2 (power - 1)) is constant to double
    precision there).  Infinite mu gives the limit, inf or 0."""
    memory_for(_TEMPS, b=b, mu=mu)
    b, mu = np.broadcast_arrays(_positive_b(b), as_float("mu", mu))
    finite = b < limit
    require(finite | (mu > -np.inf), "mu",
            f"> -inf where b >= {limit:g} ({what} is infinite for every finite mu, while e^X -> 0 as "
            f"mu -> -inf: {'e^mu' if power == 1 else f'e^{{{power} mu}}'} times an infinite moment, 0 * inf, "
            f"has no value)")
    bs = np.where(finite, b, limit / 2)
    with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
        value = np.array(kernel(bs, mu), dtype=float, ndmin=1).reshape(b.shape)
        bad = finite & ~((value > 0) & np.isfinite(value))
        if bad.any():
            lead = 2 * (power - 1)                        # kernel(b, 0) ~ const * b^lead as b -> 0
            small = np.maximum(bs[bad], 1e-100)
            log0 = np.log(kernel(small, 0.0)) + lead * (np.log(bs[bad]) - np.log(small))
            value[bad] = np.exp(power * mu[bad] + log0)
    return scalar_out(np.where(finite, value, np.inf))


@provenance("laplace.mgf", "laplace.mgf_ab_plus_one", "laplace.mgf_ab_above_one")
def log_laplace_mean(b, mu=0.0):
    r"""Mean of the log-Laplace factor :math:`e^X`, X ~ Laplace(mu, b):
    :math:`E[e^X] = e^{\mu} / ((1-b)(1+b))` for ``b < 1``, ``inf`` for ``b >= 1``.

    Source: abs-pufferfish (004), Appendix A.1, Lemma 1 with a = 1.

    ``b > 0`` (``b = inf`` gives ``inf`` like every b >= 1); ``mu = +inf`` gives ``inf``, ``-inf``
    gives 0 for b < 1 (the limit, and the mean of the limit e^X = 0); beyond the float range
    ``inf``.  ``mu = -inf`` with ``b >= 1`` has no value and is refused, naming ``mu``: the mean
    e^mu E[e^{bW}] is 0 * inf there (it is infinite for every finite mu, so its limit is inf,
    but e^X -> 0 almost surely, whose mean is 0; the two disagree, and at b = 1 even the limit
    in (b, mu) does not exist: e^mu/(1 - b^2) takes every value > 0 near (1, -inf)).  Broadcast
    together.

    >>> float(log_laplace_mean(0.5))
    1.3333333333333333
    """
    return _finite_below(gen.log_laplace_mean_finite, 1.0, b, mu, 1, "E[e^X]")


@provenance("log_laplace.variance_stable", "ht.second_moment_infinite_at_half", "ht.corollary3")
def log_laplace_variance(b, mu=0.0):
    r"""Variance of the log-Laplace factor :math:`e^X`, X ~ Laplace(mu, b).

    .. math:: \operatorname{Var}(e^X) = e^{2\mu}\Big[\frac{1}{1-4b^2} - \frac{1}{(1-b^2)^2}\Big]
              = \frac{e^{2\mu}\, b^2 (2 + b^2)}{(1-2b)(1+2b)(1-b)^2(1+b)^2}

    for ``b < 1/2`` (the second form, proved equal, keeps full relative accuracy as
    b -> 0 and b -> 1/2); ``inf`` for ``b >= 1/2``.

    Source: abs-pufferfish (004), Appendix A.1, Lemma 1 (a = 1, 2) and Corollary 3.

    ``b > 0`` (``b = inf`` gives ``inf`` like every b >= 1/2); ``mu = +inf`` gives ``inf``,
    ``-inf`` gives 0 for b < 1/2 (the limit, and the variance of the limit e^X = 0); a subnormal
    b with a large mu keeps its value (b^2 e^{2 mu} is formed in log space where b^2 underflows).
    ``mu = -inf`` with ``b >= 1/2`` has no value and is refused, naming ``mu``: e^{2 mu} times an
    infinite second moment is 0 * inf (the variance is infinite for every finite mu, but e^X -> 0
    almost surely, whose variance is 0).  Broadcast together.

    >>> float(log_laplace_variance(0.25))  # 1/(1 - 1/4) - 1/(1 - 1/16)^2
    0.195555555555555...
    """
    return _finite_below(gen.log_laplace_variance_finite, 0.5, b, mu, 2, "Var(e^X)")


@provenance("ht.prop4_unbiased", "ht.prop4_unique")
def bias_correction(b, mu=0.0):
    r"""Bias-correction factor :math:`w = 1/E[e^X] = (1-b^2)\,e^{-\mu}` of Proposition 4.

    Source: abs-pufferfish (004), Appendix A.2, Proposition 4 (and c = 1 - b^2 of
    Theorem 3.2.2 for mu = 0).

    Parameters: ``0 < b < 1`` (for ``b >= 1`` the mean of e^X is infinite and no finite
    correction exists: ``ValueError``); ``mu`` real, broadcast with ``b``.  ``mu = +inf`` gives the
    limit 0, ``mu = -inf`` gives ``inf``.

    >>> float(bias_correction(0.5))
    0.75
    """
    memory_for(_TEMPS, b=b, mu=mu)
    b, mu = np.broadcast_arrays(_positive_b(b), as_float("mu", mu))
    require(b < 1, "b", "in (0, 1): for b >= 1, E[e^X] is infinite and no bias correction exists")
    with np.errstate(over="ignore"):
        return scalar_out(gen.bias_correction_finite(b, mu))
