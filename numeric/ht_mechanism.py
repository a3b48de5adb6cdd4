"""The Horvitz-Thompson estimate plus Laplace noise as a privacy mechanism: densities and ratios.

Source: ``ht-mechanism`` (000), Sections 1.3 and 2.2 (the density of Z_b given X = x) and
2.2.2 (Results 5-6, the ratio and its derivative).

Given X = x, Z_b = t(x, S) + bW has the Laplace-mixture density

    f_x(z) = sum_s p(s) (2b)^{-1} exp(-|z - t(x, s)|/b),

one kernel per sample s with its atom t(x, s) = sum_{j in s} x_j/p_j.  Every function here works
on the atoms and their probabilities (``ht_atoms`` computes them from an explicit design) and
evaluates the mixture in log space, so densities far in the tails and ratios of densities whose
atoms are 10^6 apart at b = 10^-2 come out finite and accurate.
"""
from __future__ import annotations

import math

import numpy as np

from ._common import (_shape_of, two_product, as_float, boolean, broadcast_shape, fail, memory, provenance, require,
                      samples_of, scalar_out)

#: Atoms are at most this large in absolute value, so that every difference of two atoms (and of
#: a clipped z and an atom) is a finite float.
_ATOM_MAX = 2.0 ** 1022
_TEMPS = 8  # float arrays of shape z.shape + (K,) alive at once in the mixture evaluations


def _positive_b(b) -> np.ndarray:
    """b as a float array, > 0 everywhere (NaN, strings and booleans refused naming b)."""
    b = as_float("b", b)
    require(b > 0, "b", "> 0")
    return b


def _probabilities(probabilities, k: int, of: str) -> np.ndarray:
    """Sample probabilities p(s): ``k`` of them (one per entry of ``of``), >= 0, summing to 1."""
    memory("probabilities", math.prod(_shape_of(probabilities)) * 4)
    p = as_float("probabilities", probabilities, finite=True)
    require(p.shape == (k,), "probabilities", f"an array of the same length as {of} ({k})")
    require(p >= 0, "probabilities", ">= 0")
    require(abs(math.fsum(p.tolist()) - 1.0) <= 1e-12 * max(1, k), "probabilities", "summing to 1")
    return p


def _mixture(atoms, probabilities, name="atoms"):
    memory(name, math.prod(_shape_of(atoms)) * _TEMPS)
    t = as_float(name, atoms)
    require(t.ndim == 1 and t.size > 0, name, "a non-empty one-dimensional array")
    require(np.isfinite(t), name, "finite")
    require(np.abs(t) <= _ATOM_MAX, name, "at most 2^1022 in absolute value (differences of atoms must be finite)")
    return t, _probabilities(probabilities, t.size, name)


def _scale(b) -> float:
    b = _positive_b(b)
    require(b.ndim == 0, "b", "a real scalar")
    require(np.isfinite(b), "b", "finite and > 0")
    return float(b)


def _z(z, k: int) -> np.ndarray:
    """z as a float array (NaN refused, +-inf kept), refused before allocation when z.shape + (k,)
    arrays would exceed the memory limit."""
    memory("z", math.prod(broadcast_shape(z=z)) * max(k, 1) * _TEMPS)
    return as_float("z", z)


def _pair(z, atoms_x, atoms_x_prime, probabilities, b):
    """Validated inputs of the two-mixture functions: z, b, the atoms of x and x', p(s).

    When the three lengths disagree, the one that differs from the other two is named."""
    kx, kxp, kp = (math.prod(_shape_of(v)) for v in (atoms_x, atoms_x_prime, probabilities))
    if kx != kxp and kxp == kp:
        fail("atoms_x", f"an array of length {kp}, one atom per sample like atoms_x_prime and probabilities",
             f"length {kx}")
    if kxp != kx and kx == kp:
        fail("atoms_x_prime", f"an array of length {kp}, one atom per sample like atoms_x and probabilities",
             f"length {kxp}")
    t, p = _mixture(atoms_x, probabilities, "atoms_x")
    tp, _ = _mixture(atoms_x_prime, probabilities, "atoms_x_prime")
    require(tp.shape == t.shape, "atoms_x_prime", f"an array of length {t.size} (one atom per sample)")
    return _z(z, 2 * t.size), _scale(b), t, tp, p


def _logsumexp(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """ln sum exp(a) along ``axis``: the largest term factored out; -inf when every term is -inf."""
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(a - m), axis=axis)) + np.squeeze(m, axis=axis)


def _log_kernels(z, t, p, b, shift=None):
    """log(p_k) - (|z - t_k| - shift)/b, shape z.shape + (K,), for finite z.

    Distances are shifted by ``shift`` (per z) *before* the division by b: |z - t_k| is exact for
    nearby floats and the shifted distances are small, so log-sum-exps of far atoms at small b keep
    their absolute accuracy (dividing 5e5 by 0.01 first would cost ~1e-8).
    """
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    dist = np.abs(z[..., None] - t)
    if shift is not None:
        dist = dist - shift[..., None]
    with np.errstate(over="ignore"):        # a tiny b: dist/b = inf, the kernel's true log -inf
        return logp - dist / b


def _nearest(z, t, p):
    """Distance from each z to the nearest atom of positive probability (the shift of one mixture)."""
    return np.min(np.abs(z[..., None] - t[p > 0]), axis=-1)


def _clip(z, *atom_sets):
    """(zc, excess, lo, hi): z clipped to [lo, hi] = [lowest atom, highest atom] of the sets, and
    |z - zc| (inf at z = +-inf).

    Left of every atom each kernel is e^{-(t_k - z)/b} = e^{-(t_k - lo)/b} e^{-(lo - z)/b}, right of
    every atom likewise: a mixture there is its value at the end atom times e^{-|z - zc|/b}, and a
    ratio of two mixtures is its value at the end atom (Result 6: constant in the tails).  So z is
    never used beyond the atoms, where z - t_k would round (z = 1e17) or be inf - inf (z = inf).
    """
    lo = min(float(np.min(t)) for t in atom_sets)
    hi = max(float(np.max(t)) for t in atom_sets)
    zc = np.clip(z, lo, hi)
    with np.errstate(over="ignore"):
        excess = np.abs(z - zc)  # overflow (z = 1.7e308, lo = -1e308) is a true distance > 1.8e308
    return zc, excess, lo, hi


@provenance("htm.ht_unbiased", "htm.mixture_density")
def ht_atoms(samples, probabilities, x):
    r"""Atoms t(x, s) = sum_{j in s} x_j/p_j of the Horvitz-Thompson estimate, one per sample.

    ``samples``: sequence of iterables of distinct integer unit indices 0..N-1 (a non-integer index
    such as 1.5, or a unit repeated within a sample, is refused naming ``samples``, never truncated
    or counted twice); ``probabilities``: p(s), summing to 1.  The inclusion probabilities
    p_j = sum_{s ni j} p(s) come from the design (every unit of a sample must get p_j > 0).  Returns
    ``(atoms, probabilities)`` as float arrays, the input of the other functions of this module.
    ``x`` finite; an atom beyond the float range is +-inf (the sums are formed on x / 2^k when
    x_j/p_j would overflow, so that no inf - inf is left as NaN).

    Source: ht-mechanism (000), Section 1.3 (the Horvitz-Thompson estimator).

    >>> atoms, p = ht_atoms([(0, 1), (0, 2), (1, 2)], [1/3, 1/3, 1/3], [1.0, 2.0, 4.0])
    >>> atoms.tolist()   # p_j = 2/3: 1.5 (1 + 2), 1.5 (1 + 4), 1.5 (2 + 4)
    [4.5, 7.5, 9.0]
    """
    memory("x", math.prod(broadcast_shape(x=x)) * 4)
    x = as_float("x", x)
    require(x.ndim == 1 and np.isfinite(x).all(), "x", "a finite one-dimensional array")
    units = samples_of(samples, x.size)
    p = _probabilities(probabilities, len(units), "samples")
    lengths = np.array([len(s) for s in units], dtype=np.int64)
    flat = np.fromiter((j for s in units for j in s), dtype=np.int64, count=int(lengths.sum()))
    owner = np.repeat(np.arange(len(units)), lengths)
    pi = np.bincount(flat, weights=p[owner], minlength=x.size)
    used = np.bincount(flat, minlength=x.size) > 0
    require(pi[used] > 0, "probabilities", "giving every sampled unit a positive inclusion probability")
    with np.errstate(over="ignore"):
        weights = np.divide(x, pi, out=np.zeros_like(x), where=pi > 0)
    atoms = np.bincount(owner, weights=weights[flat], minlength=len(units))
    if not np.isfinite(atoms).all():                    # an overflow: sum the weights scaled by 2^-k
        k = math.frexp(float(np.max(np.abs(x))))[1]
        with np.errstate(over="ignore", invalid="ignore"):
            ws = np.divide(np.ldexp(x, -k), pi, out=np.zeros_like(x), where=pi > 0)
            atoms = np.ldexp(np.bincount(owner, weights=ws[flat], minlength=len(units)), k)
        if np.isnan(atoms).any():
            fail("probabilities", "large enough that x_j/p_j stays below the float range (a subnormal "
                 "inclusion probability makes an atom inf - inf)")
    return atoms, p


@provenance("htm.mixture_density")
def mixture_density(z, atoms, probabilities, b, log=False):
    r"""Density of Z_b = t(X, S) + bW given X = x, a Laplace mixture over the samples.

    .. math:: f_{Z_b|X=x}(z) = \sum_s p(s)\,(2b)^{-1} e^{-|z-\hat t(x,s)|/b}

    ``atoms``: t(x, s) per sample (see :func:`ht_atoms`), ``probabilities``: p(s).  Vectorised
    over ``z``; evaluated as a log-sum-exp, ``log=True`` returns log f (finite far in the tails,
    where f itself underflows to 0).  ``b > 0`` finite, a scalar; ``log`` a boolean.

    Edges: beyond the atoms f(z) = f(t_end) e^{-``|z - t_end|``/b} (the kernels all decay at rate 1/b
    there), evaluated in that form, so z = +-inf gives f = 0 (log f = -inf) and a huge finite z
    keeps its value; atoms at most 2^1022 in absolute value.

    Source: ht-mechanism (000), Section 2.2 (density of Z_b conditionally on X = x).

    >>> float(mixture_density(0.0, [0.0], [1.0], 1.0))   # Laplace(0, 1) at its centre: 1/2
    0.5
    >>> float(mixture_density(float("inf"), [0.0, 3.0], [0.4, 0.6], 0.6))
    0.0
    """
    log = boolean("log", log)
    t, p = _mixture(atoms, probabilities)
    z = _z(z, t.size)
    b = _scale(b)
    zc, excess, _, _ = _clip(z, t)
    d0 = _nearest(zc, t, p)
    with np.errstate(over="ignore"):
        out = _logsumexp(_log_kernels(zc, t, p, b, d0)) - (d0 + excess) / b - (math.log(2) + math.log(b))
    with np.errstate(under="ignore"):
        return scalar_out(out if log else np.exp(out))


def _side_logs(zc, t, p, b, d0):
    """ln A, ln B (shifted by d0/b): the kernel mass of the atoms right of z (A, t_k > z) and left of
    z (B, t_k < z), an atom at z counted half in each (the mean of the one-sided derivatives)."""
    lk = _log_kernels(zc, t, p, b, d0)
    side = t - zc[..., None]
    lk = np.where(side == 0, lk - math.log(2), lk)
    A = _logsumexp(np.where(side >= 0, lk, -np.inf))
    B = _logsumexp(np.where(side <= 0, lk, -np.inf))
    return A, B


@provenance("htm.mixture_density", "htm.r6.left_constant", "htm.r6.right_constant", "htm.r6.sup_on_atoms")
def density_ratio(z, atoms_x, atoms_x_prime, probabilities, b, log=False):
    r"""The likelihood ratio f_x(z)/f_{x'}(z) of two Laplace mixtures over the same samples.

    .. math:: \frac{f_x(z)}{f_{x'}(z)} = \frac{\sum_s p(s) e^{-|z-\hat t(x,s)|/b}}
              {\sum_s p(s) e^{-|z-\hat t(x',s)|/b}}

    Constant left of every atom and right of every atom, monotone between consecutive atoms
    (Result 6), so its supremum, exp(eps(0, x, x')) by Result 5, is its maximum over the atoms.
    Computed as a difference of log-sum-exps (``log=True`` returns the log ratio).

    Edges: z beyond every atom of both laws (z = +-inf included) is evaluated at the end atom, the
    tail constant of Result 6: sum_s p(s) e^{t(x,s)/b} / sum_s p(s) e^{t(x',s)/b} on the right,
    the same with -t on the left; a huge z (1e17 next to atoms 0..3) therefore keeps the exact tail
    value instead of rounding every distance to z.  ``b > 0`` finite; a ratio beyond the float range
    is ``inf`` (or 0).

    Source: ht-mechanism (000), Section 2.2.2, Results 5 and 6.

    >>> float(density_ratio(5.0, [2.0], [0.0], [1.0], 1.0))   # census: e^{Delta/b} right of both atoms
    7.38905609893065
    """
    log = boolean("log", log)
    z, b, t, tp, p = _pair(z, atoms_x, atoms_x_prime, probabilities, b)
    zc, _, _, _ = _clip(z, t, tp)
    d, dp = _nearest(zc, t, p), _nearest(zc, tp, p)
    with np.errstate(over="ignore"):
        # each log-sum-exp with its own shift (finite: its nearest kernel has exponent ln p), then
        # the shifts' difference (dp - d)/b, +-inf where b is so small that it overflows
        out = (_logsumexp(_log_kernels(zc, t, p, b, d)) - _logsumexp(_log_kernels(zc, tp, p, b, dp))
               + (dp - d) / b)
        return scalar_out(out if log else np.exp(out))


@provenance("htm.ratio.interval_form", "htm.ratio.derivative", "htm.ratio.derivative_sign")
def density_ratio_derivative(z, atoms_x, atoms_x_prime, probabilities, b):
    r"""d/dz of f_x(z)/f_{x'}(z).

    Between consecutive atoms the ratio is (u^- e^{z/b} + u^+ e^{-z/b})/(u'^- e^{z/b} + u'^+ e^{-z/b})
    and its derivative 2 (u^- u'^+ - u^+ u'^-)/(b D^2) (the corrected form: the source omits 1/b).
    With A = u^- e^{z/b} and B = u^+ e^{-z/b} the kernel masses of the atoms right and left of z
    (A', B' for x', D = A' + B'), the derivative is

    .. math:: \frac{2\,(A B' - B A')}{b\,(A' + B')^2},

    evaluated from the log-sum-exps of A, B, A', B' as a difference of two positive numbers,
    e^{ln A + ln B' - 2 ln D} - e^{ln B + ln A' - 2 ln D}: its relative accuracy is that of the
    true difference, where the slope form R (d log f_x - d log f_x') loses everything once both
    slopes are within 1e-16 of -1/b or +1/b (z between atoms far from the atoms of one side: the
    result was 0 where the value is positive).  At an atom, where the ratio has a kink, the mean
    of the two one-sided derivatives is returned (an atom at z counts half in A and half in B).

    Edges: beyond every atom of both laws (z = +-inf included) the ratio is constant (Result 6) and
    the derivative is 0 exactly; a derivative beyond the float range is +-inf.  ``b > 0`` finite.

    Source: ht-mechanism (000), Section 2.2.2, proof of Result 6 (corrected: erratum
    htm.ratio.derivative).

    >>> float(density_ratio_derivative(1.0, [2.0], [0.0], [1.0], 1.0))   # e^{(2z - 2)/b}: slope 2/b at z = 1
    2.0
    >>> float(density_ratio_derivative(5.0, [2.0], [0.0], [1.0], 1e-3))  # right of both atoms
    0.0
    """
    z, b, t, tp, p = _pair(z, atoms_x, atoms_x_prime, probabilities, b)
    zc, _, lo, hi = _clip(z, t, tp)
    d, dp = _nearest(zc, t, p), _nearest(zc, tp, p)
    A, B = _side_logs(zc, t, p, b, d)                 # each mixture with its own shift: ln D' finite
    Ap, Bp = _side_logs(zc, tp, p, b, dp)
    two_log_d = 2 * np.logaddexp(Ap, Bp)
    P, Q = A + Bp - two_log_d, B + Ap - two_log_d      # ln(A B'/D^2), ln(B A'/D^2) up to the shifts; -inf if empty
    with np.errstate(over="ignore", invalid="ignore"):
        offset = (dp - d) / b                          # the shifts: ln(true A B'/D^2) = P + offset
        big = np.maximum(P, Q)
        shrink = -np.expm1(np.minimum(P, Q) - big)     # |A B' - B A'| / max(A B', B A')
        magnitude = np.exp(big + offset) * shrink
        value = np.where(P > Q, 1.0, -1.0) * (2 / b) * magnitude
        degenerate = (P == Q) | (z < lo) | (z > hi) | np.isnan(value)   # NaN only from -inf + inf: both empty
    value = np.where(degenerate, 0.0, value)
    return scalar_out(value)


def _product_below(q, b, s):
    """Where q * b < s may hold (q = fl(s/b) below the exact quotient): the exact residual
    s - q b by Dekker's product (Veltkamp splitting) where q, b are in [2^-450, 2^450] (no
    intermediate overflows or underflows there), ``True`` (unknown) elsewhere."""
    lo, hi = 2.0 ** -450, 2.0 ** 450
    safe = (q >= lo) & (q <= hi) & (b >= lo) & (b <= hi)
    q, b = np.where(safe, q, 1.0), np.where(safe, b, 1.0)
    prod, resid = two_product(q, b)                   # q b = prod + resid exactly
    below = (prod < s) | ((prod == s) & (resid < 0))
    return ~safe | below


def _difference_above(x, y, d):
    """Where the rounded d = fl(x - y) exceeds the exact x - y (Knuth's TwoSum, exact for finite
    x, y below 2^1020); ``True`` (unknown) where an operand is not finite or that large."""
    big = 2.0 ** 1020
    safe = np.isfinite(d) & (np.abs(x) < big) & (np.abs(y) < big)
    x, y, d = (np.where(safe, v, 0.0) for v in (x, y, d))
    bv = d - x
    av = d - bv
    err = (x - av) + (-y - bv)                        # x - y = d + err exactly
    return ~safe | (err < 0)


@provenance("htm.census.delta")
def laplace_mechanism_delta(epsilon, sensitivity, b):
    r"""delta(eps) of the plain Laplace mechanism t(x) + bW (the census design, no sampling).

    .. math:: \delta(\varepsilon) = \max\big(0,\ 1 - e^{(\varepsilon - \Delta/b)/2}\big)

    for two inputs whose totals differ by Delta = ``sensitivity``.  Vectorised (the three inputs
    broadcast together); evaluated as -expm1((eps - Delta/b)/2), which keeps its relative accuracy
    when delta is small (the generated ``_generated.laplace_mechanism_delta`` is the proved
    expression it is tested against).

    Rounding: the result is never below the exact delta of the double inputs.  Delta/b is moved
    up one ulp unless Dekker's exact product shows the rounded quotient is not below it, and
    eps - Delta/b down one ulp unless Knuth's TwoSum shows the rounded difference is not above it
    (one ulp covers the half-ulp error of a rounded operation; /2 is exact unless the result is
    subnormal, then it is moved down too).  So the argument is a lower bound of the exact one and
    -expm1 of it an upper bound of delta (delta decreases in the argument); it is then moved up
    4 ulps (``expm1`` is within 1 ulp) and capped at 1.  Where the lowered argument is still
    >= 0 (eps >= Delta/b exactly, e.g. the pure-DP scale b = Delta/eps when that quotient is
    exact), or Delta = 0, the exact delta is 0 and 0 is returned.  Near the kink eps = Delta/b the
    relative accuracy is about 2^-52 (Delta/b)/``|eps - Delta/b|`` (one rounding of Delta/b cannot be
    undone), elsewhere a few ulps.

    Edges: ``epsilon = inf`` gives 0 for every finite sensitivity (also when Delta/b overflows);
    ``sensitivity = inf`` gives 1 for every finite epsilon (no noise hides an unbounded change);
    both infinite together have no value (the two limits disagree) and are refused, naming
    ``sensitivity``.  ``b > 0`` must be finite (an infinite scale is not a Laplace law).

    Source: ht-mechanism (000), Section 1.4 applied to the census design (claim htm.census.delta).

    >>> d = float(laplace_mechanism_delta(0.0, 2.0, 1.0))   # 1 - e^{-1} = 0.63212055882855767..., rounded up
    >>> 0.6321205588285577 <= d < 0.6321205588285577 + 1e-15
    True
    >>> float(laplace_mechanism_delta(1.0, 2.0, 2.0))   # eps = Delta/b: exactly 0
    0.0
    >>> float(laplace_mechanism_delta(float("inf"), 2.0, 1.0))
    0.0
    """
    shape = broadcast_shape(epsilon=epsilon, sensitivity=sensitivity, b=b)
    memory("epsilon", math.prod(shape) * 16)     # inputs, Dekker/TwoSum temporaries, output
    eps = as_float("epsilon", epsilon)
    require(eps >= 0, "epsilon", ">= 0")
    delta = as_float("sensitivity", sensitivity)
    require(delta >= 0, "sensitivity", ">= 0")
    b = _positive_b(b)
    require(np.isfinite(b), "b", "finite and > 0")
    eps, delta, b = np.broadcast_arrays(eps, delta, b)
    require(~(np.isinf(eps) & np.isinf(delta)), "sensitivity",
            "finite when epsilon = inf (delta(inf) = 0 for every finite sensitivity, but "
            "delta(eps) = 1 for every finite eps when the sensitivity is infinite)")
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        ratio = delta / b
        ratio = np.where(_product_below(ratio, b, delta), np.nextafter(ratio, np.inf), ratio)   # >= Delta/b
        diff = eps - ratio
        diff = np.where(_difference_above(eps, ratio, diff), np.nextafter(diff, -np.inf), diff)  # <= eps - ratio
        arg = diff / 2
        arg = np.where(arg * 2 != diff, np.nextafter(arg, -np.inf), arg)   # subnormal: /2 rounded
        arg = np.where(np.isinf(eps) | (delta == 0), np.inf, arg)  # delta(eps) = 0 exactly; eps = inf: +inf (Delta/b may be inf only if Delta is finite and b tiny)
        value = -np.expm1(arg)
        value = np.where(value > 0, value, 0.0)    # max(0, .), without the -0.0 of -expm1(0)
        for _ in range(4):                          # expm1 within 1 ulp: 4 ulps up is safe
            value = np.where(value > 0, np.nextafter(value, np.inf), value)
        return scalar_out(np.minimum(value, 1.0))
