"""Horvitz-Thompson totals with log-Laplace multiplicative perturbation.

Source: ``abs-pufferfish`` (004), Appendix A (Proposition 2, Corollaries 3 and 5,
Proposition 4, A.3) and Section 4.3 (analytic RSE, algorithm 4.3.1).
"""
from __future__ import annotations

import math

import numpy as np

from . import _generated as gen
from ._common import (_shape_of, as_float, as_rng, boolean, broadcast_shape, count, exact_sum, memory,
                      provenance, require)

#: Random numbers drawn per block in simulate_rse: memory is bounded by a few arrays of this many
#: floats (32 MiB each) whatever the number of replicates and of perturbed units.
_CELLS = 1 << 22


def _per_unit(name: str, value, n: int) -> np.ndarray:
    """A scalar or a length-``n`` array, returned as a length-``n`` float array (the shape is checked
    before anything is converted)."""
    shape = _shape_of(value)
    require(shape in ((), (n,)), name, f"a scalar or an array of the length of y ({n}; got shape {shape})")
    arr = as_float(name, value)
    if arr.ndim == 0:
        return np.full(n, float(arr))
    require(arr.shape == (n,), name, f"a scalar or an array of the length of y ({n}; got shape {arr.shape})")
    return arr

def _values(y, arrays: int) -> np.ndarray:
    """y as a finite one-dimensional float array, refused before allocation when ``arrays`` float
    arrays of its length would exceed the memory limit."""
    memory("y", math.prod(broadcast_shape(y=y)) * arrays)
    y = as_float("y", y)
    require(y.ndim == 1, "y", "a one-dimensional array of unit values")
    require(np.isfinite(y), "y", "finite")
    return y


def _mask(perturbed, n: int) -> np.ndarray:
    require(_shape_of(perturbed) == (n,), "perturbed", f"a boolean mask of the length of y ({n})")
    perturbed = np.asarray(perturbed)
    require(perturbed.dtype.kind in "biuf", "perturbed", "a boolean mask (True for perturbed units)")
    require(np.isin(perturbed, (0, 1)), "perturbed", "a boolean mask (True for perturbed units)")
    return perturbed.astype(bool)


def _noise_factors(y, perturbed, b, mu, bias_corrected):
    """Per-unit factors of the noise, split as mean factor e_i = m_i e^{g_i}, variance factor
    r_i = v_i e^{2 g_i} with g_i the exponent carried apart (so that e^{mu} cannot overflow):
    ``(m, v, g)``, with g = mu_i at active units of the uncorrected estimator and 0 elsewhere
    (w_i e^{X_i} has mean 1 and a variance free of mu_i).

    Returns ``None`` when the variance is infinite: a perturbed unit with y_i != 0 and
    b_i >= 1/2 (Corollary 3 as corrected; b_i = 1/2 included).
    """
    n = y.shape[0]
    perturbed = _mask(perturbed, n)
    bias_corrected = boolean("bias_corrected", bias_corrected)
    b = _per_unit("b", b, n)
    mu = _per_unit("mu", mu, n)
    require(np.isfinite(mu), "mu", "finite (the location of a Laplace law)")
    require(b[perturbed] > 0, "b", "> 0 at every perturbed unit")
    if np.any(perturbed & (y != 0) & (b >= 0.5)):
        return None
    active = perturbed & (y != 0)
    bs = np.where(active, b, 0.25)  # placeholder where the unit is not perturbed or contributes 0
    zero = np.zeros(n)
    if bias_corrected:
        mean = np.ones(n)
        var = np.where(active, gen.corrected_factor_variance(bs), 0.0)
        g = zero
    else:
        mean = np.where(active, gen.log_laplace_mean_finite(bs, zero), 1.0)
        var = np.where(active, gen.log_laplace_variance_finite(bs, zero), 0.0)
        g = np.where(active, mu, 0.0)
    return mean, var, g


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

    Source: abs-pufferfish (004), Appendix A.1 Proposition 2, A.2 Corollary 5.

    Parameters: ``y`` the (N,) values; ``pi`` the (N,) first-order inclusion probabilities in (0, 1];
    ``pi_ij`` the (N, N) symmetric joint inclusion probabilities in [0, 1], diagonal equal to ``pi``,
    ``pi_ij <= min(pi_i, pi_j)``; ``perturbed`` an (N,) boolean mask of the perturbed units; ``b`` the
    Laplace scale, a scalar or (N,), > 0 at perturbed units; ``mu`` the Laplace location, a scalar or
    (N,); ``bias_corrected`` whether to apply w_i of Proposition 4.

    Returns ``inf`` when a perturbed unit with y_i != 0 has b_i >= 1/2 (the second moment of
    e^{X_i} diverges; Corollary 3 as corrected, b_i = 1/2 included).

    Edges: ``y`` and ``mu`` must be finite, ``bias_corrected`` a boolean.  The sum is formed for
    y / max|y| with e^{mu_i} and the inclusion probabilities scaled apart, so huge or tiny y, large
    ``|mu|`` (uncorrected estimator) and tiny pi give the variance or ``inf`` beyond the float range,
    never NaN.  The n x n matrices are refused (naming ``pi_ij``) when they would exceed the memory
    limit.

    >>> import numpy as np
    >>> pi = np.full(3, 2/3); pij = np.full((3, 3), 1/3); np.fill_diagonal(pij, 2/3)  # SRSWOR 2 of 3
    >>> round(float(ht_variance([1., 2., 3.], pi, pij, [False, False, False], 0.1)), 12)  # N^2 (1 - f) S^2 / n
    1.5
    """
    memory("pi_ij", math.prod(broadcast_shape(pi_ij=pi_ij)) * 6, what="the n x n matrices of the variance")
    y = _values(y, 8)
    n = y.shape[0]
    pi = as_float("pi", pi)
    require(pi.shape == (n,), "pi", f"an array of the length of y ({n})")
    require((pi > 0) & (pi <= 1), "pi", "in (0, 1]")
    pij = as_float("pi_ij", pi_ij)
    require(pij.shape == (n, n), "pi_ij", f"an n x n matrix, n = {n} the length of y and pi")
    require((pij >= 0) & (pij <= 1), "pi_ij", "in [0, 1]")
    require(np.allclose(pij, pij.T, rtol=1e-12, atol=1e-15), "pi_ij", "symmetric")
    require(np.allclose(np.diag(pij), pi, rtol=1e-12, atol=1e-15), "pi_ij", "equal to pi on its diagonal")
    require(pij <= np.minimum.outer(pi, pi) * (1 + 1e-12), "pi_ij", "<= min(pi_i, pi_j)")
    factors = _noise_factors(y, perturbed, b, mu, bias_corrected)
    if factors is None:
        return np.inf
    mean, var, g = factors
    top = np.max(np.abs(y)) if n else 0.0
    if top == 0:
        return 0.0
    # The variance is computed for v = (y / scale) e^{g - G} (|v| <= 1), with the inclusion
    # probabilities scaled by their minimum pm (entries of pm Delta are <= 1), and multiplied back
    # by scale^2 e^{2G} / pm once: no e^{mu}, y^2 or 1/(pi_i pi_j) can over- or underflow inside.
    scale = float(top)
    ys = y / scale       # the same ys for y and c y: the variance is exactly quadratic in y
    with np.errstate(divide="ignore"):
        lg = np.where(ys != 0, np.log(np.abs(ys)) + g, -np.inf)
    G = float(np.max(lg))
    with np.errstate(over="ignore"):
        grow = np.exp(g - G)                      # 1 where g = G = 0: v = ys exactly
        v = np.where(np.isfinite(grow), ys * grow, np.sign(ys) * np.exp(lg - G))
    u = v * mean
    pm = float(np.min(pi))
    if pm >= 1e-150:                              # 1/(pi_i pi_j) <= 1e300: no scaling needed
        pm = 1.0
        delta = pij / np.outer(pi, pi) - 1.0
        np.fill_diagonal(delta, 1.0 / pi - 1.0)
    else:
        delta = (pij / pi[:, None]) * (pm / pi[None, :]) - pm
        np.fill_diagonal(delta, pm / pi - pm)
    inner = float(u @ delta @ u + np.sum(v**2 * var * (pm / pi)))
    if inner <= 0:
        return 0.0
    with np.errstate(over="ignore", under="ignore"):
        if G == 0 and pm >= 1e-290:
            return float(inner / pm * np.float64(scale) ** 2)
        return float(np.exp(math.log(inner) - math.log(pm) + 2 * G + 2 * math.log(scale)))


@provenance("ht.census_variance", "ht.census_variance_stable", "ht.rse_first_principles", "ht.corollary3")
def census_rse(y, perturbed, b):
    r"""Analytic relative standard error of a census total with bias-corrected perturbation.

    .. math:: \mathrm{RSE} = \frac{1}{|Y|}\Big(\sum_h (1-a_hb_h^2)^{2a_h} y_h^2
              \Big[\frac{1}{1-4a_hb_h^2} - \frac{1}{(1-a_hb_h^2)^2}\Big]\Big)^{1/2}
              = \frac{1}{|Y|}\Big(\sum_{h\ \mathrm{perturbed}} y_h^2 \frac{b_h^2(2+b_h^2)}{(1-2b_h)(1+2b_h)}\Big)^{1/2}

    with Y = sum(y), mu = 0, pi = 1 (A.3 and Section 4.3).

    Source: abs-pufferfish (004), Appendix A.3 and Section 4.3.

    Parameters: ``y`` (N,) finite values with non-zero total; ``perturbed`` (N,) boolean mask;
    ``b`` scalar or (N,), > 0 at perturbed units.  Returns ``inf`` when a perturbed unit with
    y_h != 0 has b_h >= 1/2.

    The RSE is scale-invariant and is computed for y / 2^k (k the exponent of max ``|y|``); the total
    is summed exactly (``math.fsum`` of the rescaled values, exact fractions if it nearly cancels),
    so a total that overflows (1e308 + 1e308) keeps its value and a total that cancels in floating
    point (1 + 1e16 - 1e16 = 1) is not mistaken for 0.  An RSE beyond the float range is ``inf``.

    >>> float(census_rse([3.0, 1.0], [False, True], 0.1))  # sqrt(0.0201/0.96)/4
    0.0361...
    """
    y = _values(y, 8)
    m, k = exact_sum(y)
    require(m != 0, "y", "values with a non-zero total (the RSE divides by it)")
    factors = _noise_factors(y, perturbed, b, 0.0, True)
    if factors is None:
        return np.inf
    _, var, _ = factors
    e = math.frexp(float(np.max(np.abs(y))))[1]
    s = math.sqrt(float(np.sum(np.ldexp(y, -e) ** 2 * var)))   # for y / 2^e: no over- or underflow
    with np.errstate(over="ignore"):
        return float(np.ldexp(s / abs(m), e - k))               # s 2^e / |m 2^k|


@provenance("ht.rse_first_principles", "ht.prop4_unbiased")
def simulate_rse(y, perturbed, b, reps, rng, return_se=False):
    r"""Monte Carlo RSE of a census total by algorithm 4.3.1.

    Each replicate multiplies every perturbed value by :math:`c\,e^{X}`, X ~ Laplace(0, b),
    c = 1 - b^2, and forms the total; RMSE over the replicates divided by ``|Y|``:

    .. math:: \widehat{\mathrm{RSE}} = \frac{1}{|Y|}\Big(\frac{1}{M}\sum_{m=1}^M (\hat Y_m - Y)^2\Big)^{1/2}.

    Source: abs-pufferfish (004), Section 4.3, algorithm 4.3.1.

    Parameters: ``y`` (N,) values with non-zero total; ``perturbed`` (N,) mask; ``b`` in (0, 1),
    scalar or (N,); ``reps`` >= 2 replicates; ``rng`` a ``numpy.random.Generator`` or an integer
    seed.  With ``return_se=True`` returns ``(rse, se)``, se the delta-method standard error
    :math:`\mathrm{sd}((\hat Y_m - Y)^2) / (2\sqrt{M \cdot \mathrm{MSE}}\,|Y|)` (meaningful only
    when the fourth moment exists, b < 1/4).  The estimate does not converge for b >= 1/2
    (infinite variance).  ``return_se`` a boolean.

    Memory is bounded by the block actually allocated: the Laplace draws are those of one
    (reps, units) array in row-major order, taken at most 2^22 numbers at a time (whole replicates
    when they fit, else one replicate in slices of units), whatever ``reps`` and the number of
    perturbed units.  Errors are accumulated for y / 2^k and the total summed exactly (as in
    :func:`census_rse`), so the estimate is scale-invariant down to the last bit.

    >>> round(simulate_rse([3.0, 1.0], [False, True], 0.1, 200_000, 1), 3)
    0.036
    """
    y = _values(y, 6)
    n = y.shape[0]
    mask = _mask(perturbed, n)
    b = _per_unit("b", b, n)[mask]
    require((b > 0) & (b < 1), "b", "in (0, 1) at every perturbed unit (c = 1 - b^2 must be positive)")
    reps = count("reps", reps, 2)
    rng = as_rng(rng)
    return_se = boolean("return_se", return_se)
    m, k = exact_sum(y)
    require(m != 0, "y", "values with a non-zero total (the RSE divides by it)")
    e = math.frexp(float(np.max(np.abs(y))))[1]
    yp, c = np.ldexp(y[mask], -e), 1.0 - b**2  # errors accumulated for y / 2^e: no under- or overflow
    s2 = s4 = 0.0
    units = yp.size
    if units:
        # the draws are those of one (reps, units) array in row-major order, taken in blocks of at
        # most _CELLS numbers: whole replicates when they fit, else one replicate in slices of units
        rows = max(1, _CELLS // units)
        done = 0
        while done < reps:
            r = min(rows, reps - done)
            if units <= _CELLS:
                err = (c * np.exp(rng.laplace(0.0, 1.0, size=(r, units)) * b) - 1.0) @ yp
            else:
                err = np.zeros(1)
                for lo in range(0, units, _CELLS):
                    sl = slice(lo, lo + _CELLS)
                    err += (c[sl] * np.exp(rng.laplace(0.0, 1.0, size=min(_CELLS, units - lo)) * b[sl]) - 1.0) @ yp[sl]
            e2 = err**2
            s2 += e2.sum()
            s4 += (e2**2).sum()
            done += r
    mse = s2 / reps
    with np.errstate(over="ignore"):
        rse = float(np.ldexp(math.sqrt(mse) / abs(m), e - k))   # sqrt(mse) 2^e / |Y|
        if not return_se:
            return rse
        var_e2 = max(s4 / reps - mse**2, 0.0) * reps / (reps - 1)
        se = float(np.ldexp(math.sqrt(var_e2 / reps) / (2 * math.sqrt(mse) * abs(m)), e - k)) if mse > 0 else 0.0
    return rse, se
