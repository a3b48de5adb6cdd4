"""The Horvitz-Thompson estimate plus Laplace noise as a privacy mechanism: densities and ratios.

Source: ``000_3f4b38deb4c4e7bd.txt``, Sections 1.3 and 2.2 (the density of Z_b given X = x) and
2.2.2 (Results 5-6, the ratio and its derivative).

Given X = x, Z_b = t(x, S) + bW has the Laplace-mixture density

    f_x(z) = sum_s p(s) (2b)^{-1} exp(-|z - t(x, s)|/b),

one kernel per sample s with its atom t(x, s) = sum_{j in s} x_j/p_j.  Every function here works
on the atoms and their probabilities (``ht_atoms`` computes them from an explicit design) and
evaluates the mixture in log space, so densities far in the tails and ratios of densities whose
atoms are 10^6 apart at b = 10^-2 come out finite and accurate.
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from ._common import as_float, positive, provenance, require, scalar_out


def _probabilities(probabilities, k: int, of: str) -> np.ndarray:
    """Sample probabilities p(s): ``k`` of them (one per entry of ``of``), >= 0, summing to 1."""
    p = as_float("probabilities", probabilities)
    require(p.shape == (k,), "probabilities", f"an array of the same length as {of} ({k})")
    require(p >= 0, "probabilities", ">= 0")
    require(abs(p.sum() - 1.0) <= 1e-12 * max(1, k), "probabilities", "summing to 1")
    return p


def _mixture(atoms, probabilities, name="atoms"):
    t = as_float(name, atoms)
    require(t.ndim == 1 and t.size > 0, name, "a non-empty one-dimensional array")
    require(np.isfinite(t), name, "finite")
    return t, _probabilities(probabilities, t.size, name)


def _pair(z, atoms_x, atoms_x_prime, probabilities, b):
    """Validated inputs of the two-mixture functions: z, b, the atoms of x and x', p(s)."""
    t, p = _mixture(atoms_x, probabilities, "atoms_x")
    tp, _ = _mixture(atoms_x_prime, probabilities, "atoms_x_prime")
    require(tp.shape == t.shape, "atoms_x_prime", f"an array of length {t.size} (one atom per sample)")
    return as_float("z", z), float(positive("b", b)), t, tp, p


def _log_kernels(z, t, p, b, shift=None):
    """log(p_k) - (|z - t_k| - shift)/b, shape z.shape + (K,).

    Distances are shifted by ``shift`` (per z) *before* the division by b: |z - t_k| is exact for
    nearby floats and the shifted distances are small, so log-sum-exps of far atoms at small b keep
    their absolute accuracy (dividing 5e5 by 0.01 first would cost ~1e-8).
    """
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    dist = np.abs(z[..., None] - t)
    if shift is not None:
        dist = dist - shift[..., None]
    return logp - dist / b


def _nearest(z, *atom_sets):
    """Distance from each z to the nearest atom of any of the sets (the common shift)."""
    return np.min([np.min(np.abs(z[..., None] - t), axis=-1) for t in atom_sets], axis=0)


@provenance("htm.ht_unbiased", "htm.mixture_density")
def ht_atoms(samples, probabilities, x):
    r"""Atoms t(x, s) = sum_{j in s} x_j/p_j of the Horvitz-Thompson estimate, one per sample.

    ``samples``: sequence of iterables of unit indices 0..N-1; ``probabilities``: p(s), summing to 1.
    The inclusion probabilities p_j = sum_{s ni j} p(s) come from the design.  Returns
    ``(atoms, probabilities)`` as float arrays, the input of the other functions of this module.

    Source: 000_3f4b38deb4c4e7bd.txt, Section 1.3 (the Horvitz-Thompson estimator).

    >>> atoms, p = ht_atoms([(0, 1), (0, 2), (1, 2)], [1/3, 1/3, 1/3], [1.0, 2.0, 4.0])
    >>> atoms.tolist()   # p_j = 2/3: 1.5 (1 + 2), 1.5 (1 + 4), 1.5 (2 + 4)
    [4.5, 7.5, 9.0]
    """
    x = as_float("x", x)
    require(x.ndim == 1 and np.isfinite(x).all(), "x", "a finite one-dimensional array")
    p = _probabilities(probabilities, len(samples), "samples")
    member = np.zeros((len(samples), x.size))
    for k, s in enumerate(samples):
        idx = np.asarray(list(s), dtype=int)
        require((idx >= 0) & (idx < x.size), "samples", f"made of unit indices in [0, {x.size})")
        member[k, idx] = 1.0
    pi = p @ member
    used = member.any(axis=0)
    require(pi[used] > 0, "probabilities", "giving every sampled unit a positive inclusion probability")
    weights = np.divide(x, pi, out=np.zeros_like(x), where=pi > 0)
    return member @ weights, p


@provenance("htm.mixture_density")
def mixture_density(z, atoms, probabilities, b, log=False):
    r"""Density of Z_b = t(X, S) + bW given X = x, a Laplace mixture over the samples.

    .. math:: f_{Z_b|X=x}(z) = \sum_s p(s)\,(2b)^{-1} e^{-|z-\hat t(x,s)|/b}

    ``atoms``: t(x, s) per sample (see :func:`ht_atoms`), ``probabilities``: p(s).  Vectorised
    over ``z``; evaluated as a log-sum-exp, ``log=True`` returns log f (finite far in the tails,
    where f itself underflows to 0).  b > 0.

    Source: 000_3f4b38deb4c4e7bd.txt, Section 2.2 (density of Z_b conditionally on X = x).

    >>> float(mixture_density(0.0, [0.0], [1.0], 1.0))   # Laplace(0, 1) at its centre: 1/2
    0.5
    """
    z = as_float("z", z)
    b = float(positive("b", b))
    t, p = _mixture(atoms, probabilities)
    d0 = _nearest(z, t)
    out = logsumexp(_log_kernels(z, t, p, b, d0), axis=-1) - d0 / b - np.log(2 * b)
    return scalar_out(out if log else np.exp(out))


def _log_weights(z, t, p, b):
    lk = _log_kernels(z, t, p, b, _nearest(z, t))
    return lk - logsumexp(lk, axis=-1, keepdims=True)


@provenance("htm.mixture_density", "htm.r6.left_constant", "htm.r6.right_constant", "htm.r6.sup_on_atoms")
def density_ratio(z, atoms_x, atoms_x_prime, probabilities, b, log=False):
    r"""The likelihood ratio f_x(z)/f_{x'}(z) of two Laplace mixtures over the same samples.

    .. math:: \frac{f_x(z)}{f_{x'}(z)} = \frac{\sum_s p(s) e^{-|z-\hat t(x,s)|/b}}
              {\sum_s p(s) e^{-|z-\hat t(x',s)|/b}}

    Constant left of every atom and right of every atom, monotone between consecutive atoms
    (Result 6), so its supremum, exp(eps(0, x, x')) by Result 5, is its maximum over the atoms.
    Computed as a difference of log-sum-exps (``log=True`` returns the log ratio).

    Source: 000_3f4b38deb4c4e7bd.txt, Section 2.2.2, Results 5 and 6.

    >>> float(density_ratio(5.0, [2.0], [0.0], [1.0], 1.0))   # census: e^{Delta/b} right of both atoms
    7.38905609893065
    """
    z, b, t, tp, p = _pair(z, atoms_x, atoms_x_prime, probabilities, b)
    d0 = _nearest(z, t, tp)
    out = logsumexp(_log_kernels(z, t, p, b, d0), axis=-1) - logsumexp(_log_kernels(z, tp, p, b, d0), axis=-1)
    return scalar_out(out if log else np.exp(out))


@provenance("htm.ratio.interval_form", "htm.ratio.derivative", "htm.ratio.derivative_sign")
def density_ratio_derivative(z, atoms_x, atoms_x_prime, probabilities, b):
    r"""d/dz of f_x(z)/f_{x'}(z).

    Between consecutive atoms the ratio is (u^- e^{z/b} + u^+ e^{-z/b})/(u'^- e^{z/b} + u'^+ e^{-z/b})
    and its derivative 2 (u^- u'^+ - u^+ u'^-)/(b D^2) (the corrected form: the source omits 1/b).
    Evaluated stably as R(z) (d/dz log f_x - d/dz log f_x'), with d/dz log f = (1/b) sum_s w_s
    sign(t_s - z) and w_s the normalised kernel weights.  At an atom, where the ratio has a kink,
    the mean of the two one-sided derivatives is returned.

    Source: 000_3f4b38deb4c4e7bd.txt, Section 2.2.2, proof of Result 6 (corrected: erratum
    htm.ratio.derivative).

    >>> float(density_ratio_derivative(1.0, [2.0], [0.0], [1.0], 1.0))   # e^{(2z - 2)/b}: slope 2/b at z = 1
    2.0
    """
    z, b, t, tp, p = _pair(z, atoms_x, atoms_x_prime, probabilities, b)
    slope = (np.sum(np.exp(_log_weights(z, t, p, b)) * np.sign(t - z[..., None]), axis=-1)
             - np.sum(np.exp(_log_weights(z, tp, p, b)) * np.sign(tp - z[..., None]), axis=-1)) / b
    return scalar_out(density_ratio(z, t, tp, p, b) * slope)


@provenance("htm.census.delta")
def laplace_mechanism_delta(epsilon, sensitivity, b):
    r"""delta(eps) of the plain Laplace mechanism t(x) + bW (the census design, no sampling).

    .. math:: \delta(\varepsilon) = \max\big(0,\ 1 - e^{(\varepsilon - \Delta/b)/2}\big)

    for two inputs whose totals differ by Delta = ``sensitivity``.  Vectorised; evaluated as
    -expm1((eps - Delta/b)/2), which keeps its relative accuracy when delta is small (the
    generated ``_generated.laplace_mechanism_delta`` is the proved expression it is tested against).

    Source: 000_3f4b38deb4c4e7bd.txt, Section 1.4 applied to the census design (claim htm.census.delta).

    >>> float(laplace_mechanism_delta(0.0, 2.0, 1.0))   # 1 - e^{-1}
    0.6321205588285577
    """
    eps = as_float("epsilon", epsilon)
    require(eps >= 0, "epsilon", ">= 0")
    delta = as_float("sensitivity", sensitivity)
    require(delta >= 0, "sensitivity", ">= 0")
    b = positive("b", b)
    return scalar_out(np.maximum(0.0, -np.expm1((eps - delta / b) / 2)))
