"""Brute-force reference for the delta of the Horvitz-Thompson mechanism on small explicit designs.

Every sample of the design is enumerated; the Horvitz-Thompson atoms are exact rationals and the
delta integral is evaluated in closed form, piece by piece, with mpmath at 50 digits.

Source: ``ht-mechanism`` (000), Section 1.4 (definition of delta) and Section 2.2 (density
of Z_b given X = x and the split of the delta integral at m_t and M_t).
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

from ._common import _shape_of, as_float, broadcast_shape, fail, memory, provenance, require, samples_of

#: Python memory per value of x, x' and per sample (a Fraction, its list slot, the atoms' dict entry).
_BYTES_PER_ITEM = 400

_DPS = 50  # decimal digits of the mpmath evaluation
_SUM_TOL = Fraction(1, 10**12)  # |sum(probabilities) - 1| allowed


def _exact(name: str, value) -> Fraction:
    """A finite real number as an exact Fraction (``Fraction(float)`` is the float's binary value)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        fail(name, "real numbers", repr(value)[:60])
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    value = float(value)
    require(math.isfinite(value), name, "finite")
    return Fraction(value)


def _scalar(name: str, value) -> Fraction:
    """A finite real scalar >= 0 as an exact Fraction."""
    require(_shape_of(value) == (), name, "a real scalar")
    require(as_float(name, value).ndim == 0, name, "a real scalar")
    q = _exact(name, value.item() if hasattr(value, "item") else value)
    require(q >= 0, name, "a finite real number >= 0")
    return q


def _vector(name: str, value, n: int | None = None) -> list[Fraction]:
    """A one-dimensional sequence of finite reals (of length ``n`` if given) as exact Fractions."""
    arr = as_float(name, value)
    require(arr.ndim == 1, name, "a one-dimensional sequence of real numbers")
    if n is not None:
        require(arr.shape[0] == n, name, f"of the length of x ({n})")
    require(all(math.isfinite(v) for v in arr), name, "finite")
    return [_exact(name, v) for v in value]


def _atoms(samples, probs, pi, x) -> dict[Fraction, Fraction]:
    """Law of the HT estimate t(x, S) = sum_{j in S} x_j / p_j as {atom: probability}, exact.

    Samples of probability zero are skipped, so every p_j used here is > 0.
    """
    law: dict[Fraction, Fraction] = {}
    for s, p in zip(samples, probs):
        if p == 0:
            continue
        t = sum((x[j] / pi[j] for j in s), Fraction(0))
        law[t] = law.get(t, Fraction(0)) + p
    return law


def _mp(q: Fraction):
    """An exact Fraction rounded once to the current mpmath precision (an ``mpmath.mpf``)."""
    import mpmath

    return mpmath.mpf(q.numerator) / q.denominator


def _interval_positive_part(u, v, alpha_v, beta_u, b):
    r"""Integral over [u, v] of the positive part of g(z) = alpha_v e^{(z-v)/b} + beta_u e^{-(z-u)/b}.

    alpha_v = alpha e^{v/b} and beta_u = beta e^{-u/b}: all exponents are <= 0 on [u, v].
    g is monotone when alpha_v beta_u < 0 and of one sign otherwise, so it changes sign at most
    once, at z0 = (u + v)/2 + (b/2) ln(-beta_u/alpha_v).
    """
    import mpmath

    lo, hi = u, v
    if alpha_v <= 0 and beta_u <= 0:
        return mpmath.mpf(0)  # g <= 0 on the whole interval
    if alpha_v > 0 and beta_u < 0:  # g increasing: positive to the right of z0
        lo = max(u, (u + v) / 2 + b / 2 * mpmath.log(-beta_u / alpha_v))
    elif alpha_v < 0 and beta_u > 0:  # g decreasing: positive to the left of z0
        hi = min(v, (u + v) / 2 + b / 2 * mpmath.log(-beta_u / alpha_v))
    if lo >= hi:
        return mpmath.mpf(0)
    # antiderivative: b alpha_v e^{(z-v)/b} - b beta_u e^{-(z-u)/b}
    value = (b * alpha_v * (mpmath.exp((hi - v) / b) - mpmath.exp((lo - v) / b))
             - b * beta_u * (mpmath.exp(-(hi - u) / b) - mpmath.exp(-(lo - u) / b)))
    return max(value, mpmath.mpf(0))


def _delta_laplace(fx, fy, e_eps, b):
    """delta for b > 0: closed-form integral of (f_x - e^eps f_x')_+ split at the sorted atoms."""
    import mpmath

    atoms = sorted(set(fx) | set(fy))
    z = [_mp(t) for t in atoms]
    # kernel weight of each atom in g = f_x - e^eps f_x' (the density of Laplace(t, b) is e^{-|z-t|/b}/(2b))
    c = [(_mp(fx.get(t, Fraction(0))) - e_eps * _mp(fy.get(t, Fraction(0)))) / (2 * b) for t in atoms]
    k = len(z)
    # right[i] = sum_{m >= i} c_m e^{(z_i - z_m)/b}: the alpha e^{z/b} part (atoms at or right of z_i) at z_i
    # left[i]  = sum_{m <= i} c_m e^{(z_m - z_i)/b}: the beta e^{-z/b} part (atoms at or left of z_i) at z_i
    right, left = [mpmath.mpf(0)] * k, [mpmath.mpf(0)] * k
    right[-1], left[0] = c[-1], c[0]
    for i in range(k - 2, -1, -1):
        right[i] = c[i] + right[i + 1] * mpmath.exp(-(z[i + 1] - z[i]) / b)
    for i in range(1, k):
        left[i] = c[i] + left[i - 1] * mpmath.exp(-(z[i] - z[i - 1]) / b)
    # tails: on (-inf, z_1] g = right[0] e^{(z - z_1)/b}; on [z_K, inf) g = left[K-1] e^{-(z - z_K)/b}
    total = b * max(right[0], 0) + b * max(left[-1], 0)
    # middle: on [z_i, z_{i+1}] the atoms right of the interval start at i+1, those left end at i
    for i in range(k - 1):
        total += _interval_positive_part(z[i], z[i + 1], right[i + 1], left[i], b)
    return total


@provenance("htm.delta.split", "htm.delta.interval_positive_part", "htm.r4.delta0_pair")
def delta_bruteforce(samples, probabilities, x, x_prime, epsilon, b):
    r"""Exact delta(eps, x, x') of Z_b = t(X, S) + b W for a small explicit design (every sample enumerated).

    With p_j = sum_{s ni j} p(s) and the Horvitz-Thompson estimate t(x, s) = sum_{j in s} x_j / p_j,

    .. math:: f_x(z) = \sum_s p(s) \frac{1}{2b} e^{-|z - t(x,s)|/b} \ (b > 0), \qquad
              f_x(z) = \sum_{s:\ t(x,s) = z} p(s) \ (b = 0),

    .. math:: \delta(\varepsilon, x, x') = \int_{\mathbb R} (f_x(z) - e^{\varepsilon} f_{x'}(z))_+ \,dz
              \quad (\text{a sum over the atoms when } b = 0).

    For b > 0 the integral is split at the sorted atoms z_1 < ... < z_K of both laws; on each piece
    g = f_x - e^eps f_x' = alpha e^{z/b} + beta e^{-z/b} changes sign at most once and its positive
    part is integrated in closed form (tails: b alpha_+ e^{z_1/b} and b beta_+ e^{-z_K/b}).  The atoms
    are exact Fractions (equal atoms are merged exactly); the rest is mpmath at 50 digits.

    Source: ht-mechanism (000), Section 1.4 and Section 2.2 (the split of the delta integral at m_t and M_t).

    Parameters
    ----------
    samples : sequence of samples, each an iterable of distinct unit indices in 0..N-1.
    probabilities : p(s) >= 0 for each sample, summing to 1 within 1e-12 (samples with p(s) = 0
        are ignored; a unit in no sample of positive probability never enters).
    x, x_prime : length-N finite values (ints, floats or Fractions, all taken exactly).
    epsilon : finite, >= 0.  b : finite noise scale, >= 0 (b = 0: no noise, f_x is a pmf).

    Edges: infinite epsilon or b, NaN, booleans, strings and complex numbers are refused naming the
    parameter; so are samples with a fractional or repeated unit index (never truncated).  The
    exact arithmetic keeps every value in Python objects: inputs whose fractions would exceed the
    memory limit (about 400 bytes per value) are refused before conversion.

    Any x, x' are accepted; the DP delta of the mechanism is the supremum over neighbours
    (x, x' differing at one unit).  Returns a float.

    >>> # census of 2 units, Delta = t(x) - t(x') = 1, b = 1: 1 - e^{-1/2} = 0.39346934028736657... (mpmath)
    >>> round(delta_bruteforce([(0, 1)], [1.0], [1.0, 0.0], [0.0, 0.0], epsilon=0.0, b=1.0), 12)
    0.393469340287
    >>> # one unit of two drawn with p = 1/2, b = 0: atoms {2: 1/2, 0: 1/2} vs {0: 1}; by hand 1/2
    >>> delta_bruteforce([(0,), (1,)], [0.5, 0.5], [1, 0], [0, 0], epsilon=0.0, b=0)
    0.5
    """
    import mpmath

    eps = _scalar("epsilon", epsilon)
    scale = _scalar("b", b)
    for name, value in (("x", x), ("x_prime", x_prime), ("probabilities", probabilities)):
        memory(name, math.prod(broadcast_shape(**{name: value})), _BYTES_PER_ITEM, "its exact fractions")
    xs = _vector("x", x)
    n = len(xs)
    ys = _vector("x_prime", x_prime, n)
    units = samples_of(samples, n)
    probs = _vector("probabilities", probabilities, len(units))
    require(all(p >= 0 for p in probs), "probabilities", ">= 0")
    require(abs(sum(probs, Fraction(0)) - 1) <= _SUM_TOL, "probabilities", "summing to 1 (within 1e-12)")

    pi = [Fraction(0)] * n  # inclusion probabilities from the design, exact
    for s, p in zip(units, probs):
        for j in s:
            pi[j] += p
    fx, fy = _atoms(units, probs, pi, xs), _atoms(units, probs, pi, ys)

    with mpmath.workdps(_DPS):
        e_eps = mpmath.exp(_mp(eps))
        if scale == 0:  # pmf: exact sum over the union of the atoms
            total = mpmath.mpf(0)
            for t in set(fx) | set(fy):
                d = _mp(fx.get(t, Fraction(0))) - e_eps * _mp(fy.get(t, Fraction(0)))
                total += max(d, 0)
        else:
            total = _delta_laplace(fx, fy, e_eps, _mp(scale))
        return float(total)
