"""Horvitz-Thompson totals with log-Laplace multiplicative perturbation.

Source: ``004_005a37d6f70bd1b7.txt``, Appendix A (Proposition 2, Corollaries 3 and 5,
Proposition 4, A.3) and Section 4.3 (analytic RSE, algorithm 4.3.1).
"""
from __future__ import annotations

import numpy as np

from . import _generated as gen
from ._common import as_float, as_rng, count, per_unit, provenance, require

_CHUNK = 1 << 16  # replicates per block in simulate_rse (bounded memory for any reps)


def _noise_factors(y, perturbed, b, mu, bias_corrected):
    """Per-unit mean factor e_i = w_i E[Z_i] and variance factor r_i = w_i^2 Var(Z_i).

    Returns ``None`` when the variance is infinite: a perturbed unit with y_i != 0 and
    b_i >= 1/2 (Corollary 3 as corrected; b_i = 1/2 included).
    """
    n = y.shape[0]
    perturbed = np.asarray(perturbed)
    require(perturbed.shape == (n,), "perturbed", f"a boolean mask of length {n}")
    require(np.isin(perturbed, (0, 1)), "perturbed", "a boolean mask (True for perturbed units)")
    perturbed = perturbed.astype(bool)
    b = per_unit("b", b, n)
    mu = per_unit("mu", mu, n)
    require(b[perturbed] > 0, "b", "> 0 at every perturbed unit")
    if np.any(perturbed & (y != 0) & (b >= 0.5)):
        return None
    active = perturbed & (y != 0)
    bs = np.where(active, b, 0.25)  # placeholder where the unit is not perturbed or contributes 0
    if bias_corrected:
        mean = np.ones(n)
        var = np.where(active, gen.corrected_factor_variance(bs), 0.0)
    else:
        with np.errstate(over="ignore"):
            mean = np.where(active, gen.log_laplace_mean_finite(bs, mu), 1.0)
            var = np.where(active, gen.log_laplace_variance_finite(bs, mu), 0.0)
    return mean, var


@provenance("ht.prop2_offdiagonal", "ht.prop2_diagonal", "ht.prop2_first_principles",
            "ht.cor5_first_principles", "ht.variance_decomposition", "ht.corollary3",
            "ht.second_moment_infinite_at_half", "ht.corrected_factor_variance")
def ht_variance(y, pi, pi_ij, perturbed, b, mu=0.0, bias_corrected=True):
    r"""Exact variance of the perturbed Horvitz-Thompson total over the design and the noise.

    The estimator is :math:`\hat Y_\pi = \sum_{i\in s} w_i \pi_i^{-1} e^{a_i X_i} y_i` with
    X_i ~ Laplace(mu_i, b_i) independent of each other and of the sample, a_i = 1 for the
    ``perturbed`` units, and w_i the bias correction of Proposition 4 (``bias_corrected``)
    or 1.  Proposition 2 / Corollary 5, evaluated in the proved equivalent form

    .. math:: \operatorname{Var}(\hat Y_\pi) = \sum_{i,j} u_i u_j
              \Big(\frac{\pi_{ij}}{\pi_i\pi_j} - 1\Big) + \sum_i \frac{y_i^2 r_i}{\pi_i},
              \qquad u_i = y_i w_i E[e^{a_iX_i}],\ r_i = w_i^2 \operatorname{Var}(e^{a_iX_i}),

    with :math:`\pi_{ii} = \pi_i` (claim ``ht.variance_decomposition``).

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.1 Proposition 2, A.2 Corollary 5.

    Parameters
    ----------
    y : (N,) values.  pi : (N,) first-order inclusion probabilities in (0, 1].
    pi_ij : (N, N) symmetric joint inclusion probabilities in [0, 1], diagonal equal to ``pi``,
        ``pi_ij <= min(pi_i, pi_j)``.
    perturbed : (N,) boolean mask.  b : scale, scalar or (N,), > 0 at perturbed units.
    mu : location, scalar or (N,).  bias_corrected : apply w_i of Proposition 4.

    Returns ``inf`` when a perturbed unit with y_i != 0 has b_i >= 1/2 (the second moment of
    e^{X_i} diverges; Corollary 3 as corrected, b_i = 1/2 included).

    >>> import numpy as np
    >>> pi = np.full(3, 2/3); pij = np.full((3, 3), 1/3); np.fill_diagonal(pij, 2/3)  # SRSWOR 2 of 3
    >>> round(float(ht_variance([1., 2., 3.], pi, pij, [False, False, False], 0.1)), 12)  # N^2 (1 - f) S^2 / n
    1.5
    """
    y = as_float("y", y)
    require(y.ndim == 1, "y", "a one-dimensional array of unit values")
    require(np.isfinite(y), "y", "finite")
    n = y.shape[0]
    pi = as_float("pi", pi)
    require(pi.shape == (n,), "pi", f"an array of length {n} (the length of y)")
    require((pi > 0) & (pi <= 1), "pi", "in (0, 1]")
    pij = as_float("pi_ij", pi_ij)
    require(pij.shape == (n, n), "pi_ij", f"an {n} x {n} matrix")
    require((pij >= 0) & (pij <= 1), "pi_ij", "in [0, 1]")
    require(np.allclose(pij, pij.T, rtol=1e-12, atol=1e-15), "pi_ij", "symmetric")
    require(np.allclose(np.diag(pij), pi, rtol=1e-12, atol=1e-15), "pi_ij", "equal to pi on its diagonal")
    require(pij <= np.minimum.outer(pi, pi) * (1 + 1e-12), "pi_ij", "<= min(pi_i, pi_j)")
    factors = _noise_factors(y, perturbed, b, mu, bias_corrected)
    if factors is None:
        return np.inf
    mean, var = factors
    scale = np.max(np.abs(y)) if n else 0.0
    if scale == 0:
        return 0.0
    ys = y / scale  # the variance is computed for y / scale and multiplied by scale^2 once
    u = ys * mean
    delta = pij / np.outer(pi, pi) - 1.0
    np.fill_diagonal(delta, 1.0 / pi - 1.0)
    with np.errstate(over="ignore"):
        total = u @ delta @ u + np.sum(ys**2 * var / pi)
        return float(max(total, 0.0) * scale**2)


@provenance("ht.census_variance", "ht.census_variance_stable", "ht.rse_first_principles", "ht.corollary3")
def census_rse(y, perturbed, b):
    r"""Analytic relative standard error of a census total with bias-corrected perturbation.

    .. math:: \mathrm{RSE} = \frac{1}{|Y|}\Big(\sum_h (1-a_hb_h^2)^{2a_h} y_h^2
              \Big[\frac{1}{1-4a_hb_h^2} - \frac{1}{(1-a_hb_h^2)^2}\Big]\Big)^{1/2}
              = \frac{1}{|Y|}\Big(\sum_{h\ \mathrm{perturbed}} y_h^2 \frac{b_h^2(2+b_h^2)}{(1-2b_h)(1+2b_h)}\Big)^{1/2}

    with Y = sum(y), mu = 0, pi = 1 (A.3 and Section 4.3).

    Source: 004_005a37d6f70bd1b7.txt, Appendix A.3 and Section 4.3.

    Parameters: ``y`` (N,) values with non-zero total; ``perturbed`` (N,) boolean mask;
    ``b`` scalar or (N,), > 0 at perturbed units.  Returns ``inf`` when a perturbed unit with
    y_h != 0 has b_h >= 1/2.

    >>> float(census_rse([3.0, 1.0], [False, True], 0.1))  # sqrt(0.0201/0.96)/4
    0.0361...
    """
    y = as_float("y", y)
    require(y.ndim == 1, "y", "a one-dimensional array of unit values")
    require(np.isfinite(y), "y", "finite")
    total = np.sum(y)
    require(total != 0, "y", "values with a non-zero total (the RSE divides by it)")
    factors = _noise_factors(y, perturbed, b, 0.0, True)
    if factors is None:
        return np.inf
    _, var = factors
    scale = np.max(np.abs(y))
    return float(np.sqrt(np.sum((y / scale) ** 2 * var)) * (scale / abs(total)))


@provenance("ht.rse_first_principles", "ht.prop4_unbiased")
def simulate_rse(y, perturbed, b, reps, rng, return_se=False):
    r"""Monte Carlo RSE of a census total by algorithm 4.3.1.

    Each replicate multiplies every perturbed value by :math:`c\,e^{X}`, X ~ Laplace(0, b),
    c = 1 - b^2, and forms the total; RMSE over the replicates divided by |Y|:

    .. math:: \widehat{\mathrm{RSE}} = \frac{1}{|Y|}\Big(\frac{1}{M}\sum_{m=1}^M (\hat Y_m - Y)^2\Big)^{1/2}.

    Source: 004_005a37d6f70bd1b7.txt, Section 4.3, algorithm 4.3.1.

    Parameters: ``y`` (N,) values with non-zero total; ``perturbed`` (N,) mask; ``b`` in (0, 1),
    scalar or (N,); ``reps`` >= 2 replicates; ``rng`` a ``numpy.random.Generator`` or an integer
    seed.  With ``return_se=True`` returns ``(rse, se)``, se the delta-method standard error
    :math:`\mathrm{sd}((\hat Y_m - Y)^2) / (2\sqrt{M \cdot \mathrm{MSE}}\,|Y|)` (meaningful only
    when the fourth moment exists, b < 1/4).  The estimate does not converge for b >= 1/2
    (infinite variance).  Memory is bounded: replicates are drawn in blocks.

    >>> round(simulate_rse([3.0, 1.0], [False, True], 0.1, 200_000, 1), 3)
    0.036
    """
    y = as_float("y", y)
    require(y.ndim == 1, "y", "a one-dimensional array of unit values")
    require(np.isfinite(y), "y", "finite")
    n = y.shape[0]
    mask = np.asarray(perturbed)
    require(mask.shape == (n,), "perturbed", f"a boolean mask of length {n}")
    require(np.isin(mask, (0, 1)), "perturbed", "a boolean mask (True for perturbed units)")
    mask = mask.astype(bool)
    b = per_unit("b", b, n)[mask]
    require((b > 0) & (b < 1), "b", "in (0, 1) at every perturbed unit (c = 1 - b^2 must be positive)")
    reps = count("reps", reps, 2)
    rng = as_rng(rng)
    total = np.sum(y)
    require(total != 0, "y", "values with a non-zero total (the RSE divides by it)")
    scale = np.max(np.abs(y))  # errors are accumulated for y / scale: no under- or overflow
    yp, c = y[mask] / scale, 1.0 - b**2
    s2 = s4 = 0.0
    done = 0
    while done < reps:
        k = min(_CHUNK, reps - done)
        err = (c * np.exp(rng.laplace(0.0, 1.0, size=(k, yp.size)) * b) - 1.0) @ yp
        e2 = err**2
        s2 += e2.sum()
        s4 += (e2**2).sum()
        done += k
    mse = s2 / reps
    total = total / scale
    rse = np.sqrt(mse) / abs(total)
    if not return_se:
        return float(rse)
    var_e2 = max(s4 / reps - mse**2, 0.0) * reps / (reps - 1)
    se = np.sqrt(var_e2 / reps) / (2 * np.sqrt(mse) * abs(total)) if mse > 0 else 0.0
    return float(rse), float(se)
