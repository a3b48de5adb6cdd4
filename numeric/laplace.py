"""Laplace and log-Laplace quantities (``004_005a37d6f70bd1b7.txt``, Appendix A.1, Lemma 1)."""
from __future__ import annotations

import numpy as np

from . import _generated as gen
from ._common import as_float, positive, provenance, require, scalar_out


@provenance("laplace.pdf_normalised")
def laplace_pdf(x, b, mu=0.0):
    r"""Density of Laplace(mu, b): :math:`f(x) = e^{-|x-\mu|/b} / (2b)`.

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.1 (density of Lemma 1).

    Parameters: ``x`` real; ``b > 0`` the scale; ``mu`` real the location.  Broadcasts.

    >>> float(laplace_pdf(0.0, 1.0))
    0.5
    """
    b = positive("b", b)
    return scalar_out(gen.laplace_pdf(as_float("x", x), b, as_float("mu", mu)))


@provenance("laplace.cdf_left", "laplace.cdf_right")
def laplace_cdf(x, b, mu=0.0):
    r"""Distribution function of Laplace(mu, b):
    :math:`F(x) = \tfrac12 e^{(x-\mu)/b}` for :math:`x < \mu`, :math:`1 - \tfrac12 e^{-(x-\mu)/b}` otherwise.

    Source: 004_005a37d6f70bd1b7.txt, Appendix B.1.  ``b > 0``.  Returns 0 at ``-inf``, 1 at ``+inf``.

    >>> float(laplace_cdf(0.0, 2.0))
    0.5
    """
    b = positive("b", b)
    x, mu = np.broadcast_arrays(as_float("x", x), as_float("mu", mu))
    with np.errstate(over="ignore"):
        return scalar_out(gen.laplace_cdf(x, b, mu))


@provenance("laplace.mgf", "laplace.mgf_stable_form", "laplace.mgf_ab_plus_one",
            "laplace.mgf_ab_minus_one", "laplace.mgf_ab_above_one", "laplace.mgf_ab_below_minus_one")
def laplace_mgf(a, b, mu=0.0):
    r"""Moment generating function :math:`E[e^{aX}]` of X ~ Laplace(mu, b).

    .. math:: E[e^{aX}] = \frac{e^{a\mu}}{(1-ab)(1+ab)} \quad (|ab| < 1), \qquad +\infty \quad (|ab| \ge 1).

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.1, Lemma 1.  The printed finite values at
    ab = +-1 are errata (the integral diverges); this function returns ``inf`` there.

    Parameters: ``a`` real, ``b > 0``, ``mu`` real; broadcast together.

    >>> float(laplace_mgf(1.0, 0.5))  # 1 / (1 - 1/4)
    1.3333333333333333
    >>> float(laplace_mgf(2.0, 0.5))
    inf
    """
    a, b, mu = np.broadcast_arrays(as_float("a", a), positive("b", b), as_float("mu", mu))
    finite = np.abs(a * b) < 1
    with np.errstate(over="ignore"):
        value = gen.laplace_mgf_finite(np.where(finite, a, 0.0), b, mu)
    return scalar_out(np.where(finite, value, np.inf))


def _finite_below(kernel, limit, b, mu):
    """``kernel(b, mu)`` where ``b < limit`` (the moment exists), ``inf`` elsewhere."""
    b, mu = np.broadcast_arrays(positive("b", b), as_float("mu", mu))
    finite = b < limit
    with np.errstate(over="ignore"):
        value = kernel(np.where(finite, b, limit / 2), mu)
    return scalar_out(np.where(finite, value, np.inf))


@provenance("laplace.mgf", "laplace.mgf_ab_plus_one", "laplace.mgf_ab_above_one")
def log_laplace_mean(b, mu=0.0):
    r"""Mean of the log-Laplace factor :math:`e^X`, X ~ Laplace(mu, b):
    :math:`E[e^X] = e^{\mu} / ((1-b)(1+b))` for ``b < 1``, ``inf`` for ``b >= 1``.

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.1, Lemma 1 with a = 1.

    >>> float(log_laplace_mean(0.5))
    1.3333333333333333
    """
    return _finite_below(gen.log_laplace_mean_finite, 1.0, b, mu)


@provenance("log_laplace.variance_stable", "ht.second_moment_infinite_at_half", "ht.corollary3")
def log_laplace_variance(b, mu=0.0):
    r"""Variance of the log-Laplace factor :math:`e^X`, X ~ Laplace(mu, b).

    .. math:: \operatorname{Var}(e^X) = e^{2\mu}\Big[\frac{1}{1-4b^2} - \frac{1}{(1-b^2)^2}\Big]
              = \frac{e^{2\mu}\, b^2 (2 + b^2)}{(1-2b)(1+2b)(1-b)^2(1+b)^2}

    for ``b < 1/2`` (the second form, proved equal, keeps full relative accuracy as
    b -> 0 and b -> 1/2); ``inf`` for ``b >= 1/2``.

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.1, Lemma 1 (a = 1, 2) and Corollary 3.

    >>> float(log_laplace_variance(0.25))  # 1/(1 - 1/4) - 1/(1 - 1/16)^2
    0.195555555555555...
    """
    return _finite_below(gen.log_laplace_variance_finite, 0.5, b, mu)


@provenance("ht.prop4_unbiased", "ht.prop4_unique")
def bias_correction(b, mu=0.0):
    r"""Bias-correction factor :math:`w = 1/E[e^X] = (1-b^2)\,e^{-\mu}` of Proposition 4.

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.2, Proposition 4 (and c = 1 - b^2 of
    Theorem 3.2.2 for mu = 0).

    Parameters: ``0 < b < 1`` (for ``b >= 1`` the mean of e^X is infinite and no finite
    correction exists: ``ValueError``); ``mu`` real.

    >>> float(bias_correction(0.5))
    0.75
    """
    b, mu = np.broadcast_arrays(positive("b", b), as_float("mu", mu))
    require(b < 1, "b", "in (0, 1): for b >= 1, E[e^X] is infinite and no bias correction exists")
    with np.errstate(over="ignore"):
        return scalar_out(gen.bias_correction_finite(b, mu))
