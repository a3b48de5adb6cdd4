"""Sampling and privacy (``shlomo-skinner`` (002), Shlomo and Skinner, Section 3).

The released table is the vector f = (f_1, ..., f_k) of sample counts over the k cells of a key,
drawn from a population with cell counts F = (F_1, ..., F_k).  This module computes

* the law of f under simple random sampling and under Bernoulli sampling (equation (2)),
  :func:`count_pmf_srs` and :func:`count_pmf_bernoulli`;
* the rarity threshold (2/epsilon) ln(2k/delta) below which Chaudhuri and Mishra (2006) require
  a cell to be absent from a 'good' sample, :func:`chaudhuri_mishra_threshold`;
* the proportion of sample uniques that are population uniques in the paper's numerical example,
  analytically (:func:`expected_unique_proportion`) and by simulating the example
  (:func:`simulate_sample_uniques`).

Both probability functions are evaluated in log space by Loader's saddle-point form of the
binomial probability (C. Loader, "Fast and accurate computation of binomial probabilities", 2000):
log C(F, f) p^f q^(F-f) = stirlerr(F) - stirlerr(f) - stirlerr(F - f) - bd0(f, Fp) - bd0(F - f, Fq)
- log(2 pi f (F - f) / F) / 2, where stirlerr is the error of Stirling's formula and
bd0(x, M) = x log(x/M) + M - x is summed as a series near x = M.  No large logarithms cancel, so
the log probability keeps its relative accuracy at any size (the textbook difference of log-gamma
values loses about log10(N) digits).  The SRS law uses the identity, for any p in (0, 1),
prod_j C(F_j, f_j) / C(N, n) = prod_j b(f_j; F_j, p) / b(n; N, p) with b the binomial probability
(the powers of p and 1 - p cancel because sum f_j = n and sum F_j = N); p = n/N puts every factor
near its mode.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._common import (_shape_of, as_float, as_rng, boolean, count, fail, memory, memory_for,
                      provenance, require, scalar, scalar_out)

__all__ = ["count_pmf_srs", "count_pmf_bernoulli", "chaudhuri_mishra_threshold", "expected_unique_proportion",
           "simulate_sample_uniques"]

_MAX_COUNT = 2.0**53          # counts and their totals must be exact in double precision
_TEMPS = 12                   # float arrays of the broadcast shape alive at once in the pmf functions
                              # (measured: 61 bytes per cell, plus about 13 MiB for one block)
_SPLIT = 134217729.0          # 2^27 + 1 (Veltkamp)
_BLOCK = 1 << 16              # cells per block in the general case of the binomial probability
_LN_2PI = math.log(2.0 * math.pi)
_CHUNK = 1 << 21              # sampled units per chunk of replicates in simulate_sample_uniques (16 MiB)
_COUNTS = "nonnegative integers (integer-valued floats accepted) below 2^53"

# stirlerr(n) = ln n! - (n + 1/2) ln n + n - ln sqrt(2 pi) for n = 0..15 (0 at n = 0 by convention; never
# used there), mpmath at 40 digits; for n >= 16 the Stirling series below (next term < 2e-18).
_SFERR = np.array([0.0, 0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093,
                   0.016644691189821193, 0.013876128823070748, 0.01189670994589177, 0.010411265261972096,
                   0.009255462182712733, 0.00833056343336287, 0.007573675487951841, 0.00694284010720953,
                   0.006408994188004207, 0.0059513701127588475, 0.005554733551962801])
_S = (1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188, 691 / 360360)


# == the binomial probability in log space (Loader, 2000) =====================================================
def _stirlerr(n):
    small = n <= 15
    m = np.where(small, 16.0, n)
    nn = m * m
    big = (_S[0] - (_S[1] - (_S[2] - (_S[3] - (_S[4] - _S[5] / nn) / nn) / nn) / nn) / nn) / m
    return np.where(small, _SFERR[np.minimum(n, 15.0).astype(np.intp)], big)


def _split(a):
    big = _SPLIT * a
    hi = big - (big - a)
    return hi, a - hi


def _two_prod(a, b):
    """a b = p + e exactly (Dekker; a <= 2^53, b <= 1: no overflow in the split)."""
    p = a * b
    (ah, al), (bh, bl) = _split(a), _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _bd0(x, M, Mlo):
    """x ln(x/M) + M - x for x >= 0, M = M + Mlo > 0 (the deviance term of Loader, 2000): the series in
    v = (x - M)/(x + M) where |v| < 0.1 (11 terms: |v|^2 < 0.01), the direct form elsewhere."""
    d = (x - M) - Mlo                # x - M exact where the series is used (x/M in (9/11, 11/9): Sterbenz)
    s = (x + M) + Mlo
    near = np.abs(d) < 0.1 * s
    v = np.where(near, d / np.where(near, s, 1.0), 0.0)
    res, ej, v2 = d * v, 2.0 * x * v, v * v
    for j in range(1, 12):
        ej = ej * v2
        res = res + ej / (2 * j + 1)
    xs = np.where(near | (x <= 0), 1.0, x)
    Ms = np.where(near, 1.0, M)
    with np.errstate(over="ignore", under="ignore"):
        ratio = xs / Ms
        # ln(x/M) directly while x/M is a normal float, else ln x - ln M (M subnormal, p tiny)
        lr = np.where(np.isfinite(ratio) & (ratio >= 2.0**-1000), np.log(np.where(np.isfinite(ratio), ratio, 1.0)),
                      np.log(xs) - np.log(Ms))
        far = np.where(x > 0, x * lr, 0.0) + M - x + Mlo * (1.0 - np.where(np.isfinite(ratio), ratio, 0.0))
    return np.where(near, res, far)


def _log_binom(x, n, p, q, qlo):
    """ln[C(n, x) p^x (1 - p)^(n - x)] for integer-valued 0 <= x <= n <= 2^53, with 1 - p = q + qlo
    exactly (q, qlo from Fast2Sum; qlo = 0 when q is exact).  All inputs broadcast; p in [0, 1]."""
    x, n, p, q, qlo = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, n, p, q, qlo)))
    shape = x.shape
    if x.ndim == 0:                                # one index per axis below: at least one axis
        x, n, p, q, qlo = (v.reshape(1) for v in (x, n, p, q, qlo))
    out = np.zeros(x.shape)
    none = n == 0                                  # x = 0: probability 1
    p0 = ~none & (p == 0)                          # degenerate laws
    q0 = ~none & ~p0 & (q == 0)
    out[p0] = np.where(x[p0] == 0, 0.0, -np.inf)
    out[q0] = np.where(x[q0] == n[q0], 0.0, -np.inf)
    rest = ~(none | p0 | q0)
    lo = rest & (x == 0)                           # (1 - p)^n: log1p keeps 1 - p exact
    out[lo] = n[lo] * np.log1p(-p[lo])
    hi = rest & (x == n)
    out[hi] = n[hi] * np.log(p[hi])
    mid = np.flatnonzero(rest & (x > 0) & (x < n))
    flat = out.reshape(-1)                         # out is a fresh contiguous array: a view
    for lo_ in range(0, mid.size, _BLOCK):         # blocks bound the temporaries of the general case
        at = mid[lo_:lo_ + _BLOCK]
        where = np.unravel_index(at, out.shape)   # reads broadcast views without copying them
        xm, nm, pm, qm, qlm = (v[where] for v in (x, n, p, q, qlo))
        Mp, Mplo = _two_prod(nm, pm)
        Mq, e = _two_prod(nm, qm)
        Mqlo = e + nm * qlm
        lc = (_stirlerr(nm) - _stirlerr(xm) - _stirlerr(nm - xm)
              - _bd0(xm, Mp, Mplo) - _bd0(nm - xm, Mq, Mqlo))
        flat[at] = lc - 0.5 * np.log(2.0 * math.pi * xm * (nm - xm) / nm)
    return out.reshape(shape)


def _one_minus(p):
    """1 - p = q + qlo exactly (Fast2Sum, |1| >= |p|)."""
    q = 1.0 - p
    return q, (1.0 - q) - p


# == validation ===============================================================================================
def _counts(name: str, value) -> np.ndarray:
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.size and value.max() > 2**53:
        fail(name, _COUNTS)
    arr = as_float(name, value)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(arr) & (arr >= 0) & (arr == np.floor(arr)) & (arr < _MAX_COUNT)
    require(ok, name, _COUNTS)
    return arr


def _cells(f, F) -> tuple:
    """Broadcast shape of f and F (memory checked first), refusing a shape without a cell axis."""
    shape = memory_for(_TEMPS, f=f, F=F)
    if len(shape) == 0:
        fail("f", "an array whose last axis holds the k >= 1 cells (f and F are both scalars)")
    if shape[-1] == 0:
        fail("f", "an array with k >= 1 cells on its last axis (got 0 cells)")
    return shape


def _totals(f, F):
    # exact while below 2^53 (nonnegative integers: every partial sum is at most the total); a total
    # of 2^53 or more rounds to at least 2^53 (rounding is monotone), so the test is safe
    n, N = f.sum(axis=-1), F.sum(axis=-1)
    require(N < _MAX_COUNT, "F", "counts whose total N is below 2^53")
    require(n < _MAX_COUNT, "f", "counts whose total n is below 2^53")
    return n, N


def _finish(lp, log: bool):
    lp = np.minimum(lp, 0.0)          # a probability: rounding never lifts it above 1
    return scalar_out(lp if log else np.exp(lp))


# == equation (2) ===============================================================================================
@provenance("ss.srs_pmf")
def count_pmf_srs(f, F, log=False):
    r"""Probability of the sample counts f under simple random sampling, equation (2)(i):

    .. math:: \Pr(\mathbf f \mid \mathbf x_U) = \prod_{j=1}^k \binom{F_j}{f_j} \Big/ \binom{N}{n},
              \qquad N = \textstyle\sum_j F_j,\ n = \sum_j f_j,

    the multivariate hypergeometric law of the counts of an SRS of n units out of N.

    Source: shlomo-skinner (002), Section 3, equation (2)(i).  The paper states the support as
    0 <= f_j <= F_j; the law is over {f : 0 <= f_j <= F_j, sum f_j = n} (it sums to 1 there, not
    over the larger set), and n is read from f itself: every f with f_j <= F_j is a possible SRS
    outcome for its own n.

    Parameters: ``f`` and ``F`` counts (nonnegative integers, integer-valued floats accepted, each
    total below 2^53 so that it is exact), broadcast together by numpy's rules; the LAST axis of the
    broadcast shape holds the k >= 1 cells (so a scalar ``F`` gives every cell that population
    count), the leading axes are independent tables.  ``log=True`` returns the natural log (``-inf`` where the
    probability is 0, i.e. some f_j > F_j).  A NumPy scalar for a single table.

    Accuracy: each factor is a binomial probability at p = n/N by Loader's saddle-point form (module
    docstring), so the error of ln Pr (which is the relative error of Pr) is about
    1e-15 (1 + ``|ln Pr|``).  Measured against mpmath (log-gamma at 60 digits) for N = 10^6, k = 3, n from
    10 to 5 10^5 and f from the mode to 30 standard deviations out: at most 1.1e-15 (1 + ``|ln Pr|``), and
    a relative error of Pr of at most 3.3e-15 where ln Pr > -50 (the difference of log-gamma values
    in double precision: 2.2e-9 there).

    >>> round(float(count_pmf_srs([1, 0, 2], [2, 1, 3])), 14)  # C(2,1) C(1,0) C(3,2) / C(6,3) = 6/20
    0.3
    >>> float(count_pmf_srs([3, 0, 0], [2, 1, 3], log=True))
    -inf
    """
    _cells(f, F)
    f, F = _counts("f", f), _counts("F", F)
    log = boolean("log", log)
    f, F = np.broadcast_arrays(f, F)
    _totals(f, F)
    possible = np.all(f <= F, axis=-1)
    f = np.minimum(f, F)               # an impossible table is -inf whatever is computed for it
    n, N = f.sum(axis=-1), F.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(N > 0, n / np.where(N > 0, N, 1.0), 0.0)
    q = 1.0 - p
    p = 1.0 - q                        # p + q = 1 exactly (Sterbenz for either p <= 1/2 or q < 1/2)
    lp = _log_binom(f, F, p[..., None], q[..., None], 0.0).sum(axis=-1) - _log_binom(n, N, p, q, 0.0)
    return _finish(np.where(possible, lp, -np.inf), log)


@provenance("ss.bernoulli_pmf")
def count_pmf_bernoulli(f, F, p, log=False):
    r"""Probability of the sample counts f under Bernoulli sampling, equation (2)(ii):

    .. math:: \Pr(\mathbf f \mid \mathbf x_U) = \prod_{j=1}^k \binom{F_j}{f_j} p^{f_j} (1 - p)^{F_j - f_j},

    every population unit being selected independently with probability p (the design of Chaudhuri
    and Mishra, 2006).

    Source: shlomo-skinner (002), Section 3, equation (2)(ii); support 0 <= f_j <= F_j (the
    sample size is random).

    Parameters: ``f``, ``F`` counts as in :func:`count_pmf_srs` (cells on the last axis of their
    broadcast shape); ``p`` in [0, 1], a scalar or an array broadcasting with the LEADING axes (one
    selection probability per table: an array p of shape (m,) with a single table f of shape (k,)
    gives m probabilities).  p = 0 and p = 1 are the degenerate laws (f = 0, resp. f = F, with
    probability 1), exactly.  ``log=True`` returns the natural log (``-inf`` for probability 0).

    Accuracy: as :func:`count_pmf_srs` (1 - p is carried exactly as a double-double, so the result is
    that of the given float p).  Measured against mpmath (60 digits) for N = 10^6, k = 3,
    p in {0.005, 0.01, 0.3, 0.77}, f from the mode to 30 standard deviations: error of ln Pr at most
    1.8e-15 (1 + ``|ln Pr|``), relative error of Pr at most 1.4e-14 where ln Pr > -50.

    >>> round(float(count_pmf_bernoulli([1, 0, 2], [2, 1, 3], 0.5)), 14)  # 2 * 1 * 3 / 2^6
    0.09375
    >>> float(count_pmf_bernoulli([2, 1, 3], [2, 1, 3], 1.0)), float(count_pmf_bernoulli([0, 0, 0], [2, 1, 3], 0.0))
    (1.0, 1.0)
    """
    shape = _cells(f, F)
    lead = shape[:-1]
    try:
        full = np.broadcast_shapes(lead, _shape_of(p)) + shape[-1:]
    except ValueError:
        fail("p", f"a scalar or an array broadcasting with the leading axes {lead} of f and F "
                  f"(got shape {_shape_of(p)})")
    memory("p", math.prod(full) * _TEMPS)
    f, F = _counts("f", f), _counts("F", F)
    p = as_float("p", p)
    require((p >= 0) & (p <= 1), "p", "in [0, 1] (the selection probability)")
    log = boolean("log", log)
    f, F = np.broadcast_arrays(f, F)
    _totals(f, F)
    possible = np.all(f <= F, axis=-1)
    q, qlo = _one_minus(p)
    lp = _log_binom(np.minimum(f, F), F, p[..., None], q[..., None], qlo[..., None]).sum(axis=-1)
    return _finish(np.where(possible, lp, -np.inf), log)


# == the threshold of Chaudhuri and Mishra ====================================================================
@provenance("ss.cm_threshold")
def chaudhuri_mishra_threshold(k, epsilon, delta):
    r"""The rarity threshold :math:`(2/\varepsilon) \ln(2k/\delta)` of Chaudhuri and Mishra (2006).

    A 'good' sample (one on which epsilon-differential privacy holds) must have f_j = 0 for every
    cell whose population count F_j is below this threshold, so (epsilon, delta)-probabilistic
    differential privacy by Bernoulli sampling requires suppressing those cells.  Since counts are
    integers, the smallest count that is kept is ``ceil(threshold)``.

    Source: shlomo-skinner (002), Section 3 (printed "2ε−1 log(2k/δ)", the log being natural:
    with k = 2^16 and epsilon = delta = 1/3 it gives the paper's 77.3 and "suppressing cells with
    F_j < 78"), quoting Chaudhuri and Mishra (2006).

    Parameters: ``k`` the number of cells (integer-valued, >= 1), ``epsilon`` > 0 (``inf`` gives 0),
    ``delta`` in (0, 1); broadcast together.  A threshold beyond the float range is ``inf``.

    Rounding: a suppression threshold is on the safe side when it is not too small, so the result is
    never below the exact value: the float evaluation (three logarithms of positive terms, one
    division: relative error below 6 ulp) is multiplied by 1 + 2^-49 (16 ulp), an upward bias of at
    most 1.8e-15 relative.  (Where the exact threshold is within that distance below an integer,
    ``ceil`` of the result may exceed the exact smallest kept count by 1: the safe side.)

    >>> t = float(chaudhuri_mishra_threshold(2**16, 1/3, 1/3))
    >>> round(t, 4), math.ceil(t)
    (77.2927, 78)
    """
    memory_for(6, k=k, epsilon=epsilon, delta=delta)
    k = as_float("k", k)
    with np.errstate(invalid="ignore"):
        require(np.isfinite(k) & (k >= 1) & (k == np.floor(k)), "k", "an integer >= 1 (the number of cells)")
    epsilon = as_float("epsilon", epsilon)
    require(epsilon > 0, "epsilon", "> 0 (inf allowed: threshold 0)")
    delta = as_float("delta", delta)
    require((delta > 0) & (delta < 1), "delta", "in (0, 1)")
    with np.errstate(over="ignore"):
        t = 2.0 * ((math.log(2.0) + np.log(k)) - np.log(delta)) / epsilon
        return scalar_out(t * (1.0 + 2.0**-49))


# == the numerical example: sample uniques that are population uniques =====================================
_MODELS = ("multinomial", "poisson", "conditional")


def _lse(a, axis=-1):
    """log sum exp over ``axis``; -inf for an all -inf slice."""
    top = np.max(a, axis=axis, keepdims=True)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(a - safe), axis=axis)) + np.squeeze(safe, axis=axis)


def _log1mexp(a):
    """ln(1 - e^a) for a < 0 (Maechler's switch at -ln 2)."""
    with np.errstate(divide="ignore", invalid="ignore"):     # each branch is used only where it is exact
        return np.where(a > -math.log(2.0), np.log(-np.expm1(a)), np.log1p(-np.exp(a)))


def _conditional_log_ratio(values, counts, N: float, n, m: int):
    """Logs of the numerator and denominator of the hypergeometric ratio of expectations given the
    population, whose cell count ``values[i]`` occurs in ``counts[i]`` cells:
    sum_c [F_c = m] P(f_c = m | F_c = m) and sum_c P(f_c = m | F_c), over SRS of n (an array; the
    results have its shape).  P(f_c = m | F_c = v) = C(v, m) C(N - v, n - m)/C(N, n) is the SRS law of
    the two-cell table (m, n - m) from (v, N - v)."""
    n = np.asarray(n, dtype=float)
    nv = n[..., None]                                       # (..., V)
    ok = (values >= m) & (N - values >= nv - m)
    x = np.stack(np.broadcast_arrays(np.where(ok, float(m), 0.0), np.where(ok, nv - m, 0.0)), axis=-1)
    Fv = np.stack(np.broadcast_arrays(np.where(ok, values, 0.0), np.where(ok, N - values, 0.0)), axis=-1)
    p = n / N
    q = 1.0 - p
    p = 1.0 - q                                             # p + q = 1 exactly
    lp = (_log_binom(x, Fv, p[..., None, None], q[..., None, None], 0.0).sum(axis=-1)
          - _log_binom(n, N, p, q, 0.0)[..., None])
    with np.errstate(divide="ignore"):
        lw = np.log(counts)
        lp = np.where(ok, np.minimum(lp, 0.0), -np.inf) + lw
        return _lse(np.where(values == m, lp, -np.inf)), _lse(lp)


@provenance("ss.unique_proportion", "ss.p_population_unique")
def expected_unique_proportion(N, n, n_keys, p_key, model="multinomial", m=1, population_counts=None):
    r"""Expected proportion of sample uniques that are population uniques in the numerical example
    of Section 3, as a ratio of expectations E[#(f_c = F_c = 1)] / E[#(f_c = 1)].

    The key is made of ``n_keys`` independent 0-1 variables, each 1 with probability ``p_key``; a cell
    c with w ones has probability q_c = p_key^w (1 - p_key)^(n_keys - w), and C(n_keys, w) cells share it
    (the sums below run over the n_keys + 1 weight classes, not over the 2^n_keys cells).

    * ``model="multinomial"``: a population of N independent units, then an SRS of n.  Given the
      population the sample is an SRS; unconditionally the n sampled units are independent draws
      from q (their selection does not depend on their keys), so f_c ~ Bin(n, q_c), while
      P(F_c = 1, f_c = 1) = N q_c (1 - q_c)^(N-1) n/N:

      .. math:: \frac{\sum_c N q_c (1 - q_c)^{N-1}\, n/N}{\sum_c n q_c (1 - q_c)^{n-1}}.

    * ``model="poisson"``: the model of Section 2.1, F_c ~ Poisson(lambda_c), lambda_c = N q_c,
      Bernoulli sampling with pi = n/N (so f_c ~ Poisson(lambda_c pi)):
      sum_c lambda_c pi e^{-lambda_c} / sum_c lambda_c pi e^{-lambda_c pi}; per cell the ratio of the
      two terms is P(F_c = 1 | f_c = 1) = exp(-lambda_c (1 - pi)) (Section 2.1).
    * ``model="conditional"``: given the population counts ``population_counts`` (one entry per
      cell, any shape, total N), the exact ratio of expectations over SRS of n:
      sum_c [F_c = 1] (n/N) / sum_c F_c C(N - F_c, n - 1)/C(N, n).  ``n_keys`` and ``p_key`` are
      validated but not used.

    ``m`` > 1 gives the same for cells of sample count m ('doubles' m = 2, 'triples' m = 3):
    E[#(f_c = F_c = m)] / E[#(f_c = m)]; multinomial: sum_c q_c^m (1 - q_c)^(N-m) /
    sum_c q_c^m (1 - q_c)^(n-m) (since C(N, m) C(N-m, n-m)/C(N, n) = C(n, m)); Poisson:
    sum_c q_c^m e^{-N q_c} / sum_c q_c^m e^{-n q_c}; conditional: #(F_c = m) C(N-m, n-m)/C(N, n) /
    sum_c C(F_c, m) C(N - F_c, n - m)/C(N, n).

    Source: shlomo-skinner (002), Section 3 (numerical example: N = 10^6, 16 keys with
    P(1) = 0.2, n = 5000 and 10000; printed 0.024 and 0.035) and Section 2.1 (Poisson model).

    Parameters: ``N`` >= 1, ``n`` in [m, N] (integer-valued; broadcast together), ``n_keys`` an
    integer >= 1, ``p_key`` in (0, 1) (broadcasts with N and n; at 0 or 1 every unit falls in one
    cell and no sample unique exists: the ratio is undefined), ``model`` one of "multinomial",
    "poisson", "conditional", ``m`` an integer >= 1, ``population_counts`` counts (only with
    ``model="conditional"``; some cell must be able to give f_c = m, otherwise the ratio is 0/0).
    The ratio lies in [0, 1] (1 when n = N in the finite-population models).

    Accuracy: sums of logs (log-sum-exp over the weight classes); relative error about 1e-14 for
    the example's sizes (tests against mpmath at 50 digits of the defining sums).

    >>> round(float(expected_unique_proportion(10**6, 10_000, 16, 0.2)), 5)
    0.03574
    >>> round(float(expected_unique_proportion(4, 2, 1, 0.5)), 14)  # two cells of 1/2: 2^(n - N)
    0.25
    """
    if not isinstance(model, str) or model not in _MODELS:
        fail("model", f"one of {', '.join(map(repr, _MODELS))}", repr(model)[:60])
    m = count("m", m, 1)
    n_keys = count("n_keys", n_keys, 1)
    shape = memory_for(8, N=N, n=n, p_key=p_key)
    if model != "conditional":
        memory("n_keys", float(math.prod(shape)) * (n_keys + 1) * 12, 8, "the weight classes")
    N = as_float("N", N)
    with np.errstate(invalid="ignore"):
        require(np.isfinite(N) & (N >= 1) & (N == np.floor(N)) & (N < _MAX_COUNT), "N",
                "an integer in [1, 2^53) (the population size)")
        n_arr = as_float("n", n)
        require(np.isfinite(n_arr) & (n_arr >= 1) & (n_arr == np.floor(n_arr)), "n", "an integer >= 1")
    require(n_arr <= N, "n", "<= N (a sample of at most the whole population)")
    require(n_arr >= m, "m", "<= n (a sample of n units has no cell count above n)")
    p_key = as_float("p_key", p_key)
    require((p_key > 0) & (p_key < 1), "p_key", "in (0, 1) (at 0 or 1 all units share one cell)")
    if model != "conditional":
        if population_counts is not None:
            fail("population_counts", "None unless model='conditional'")
        N, n_arr, p_key = (np.broadcast_to(v, shape)[..., None] for v in (N, n_arr, p_key))
        from scipy.special import gammaln

        w = np.arange(n_keys + 1, dtype=float)
        log_mult = gammaln(n_keys + 1.0) - gammaln(w + 1.0) - gammaln(n_keys - w + 1.0)
        log_q = w * np.log(p_key) + (n_keys - w) * np.log1p(-p_key)     # < 0: p_key in (0, 1)
        base = log_mult + m * log_q
        if model == "multinomial":
            l1q = _log1mexp(log_q)
            a, b = base + (N - m) * l1q, base + (n_arr - m) * l1q
        else:
            q = np.exp(log_q)
            a, b = base - N * q, base - n_arr * q
        return scalar_out(np.minimum(np.exp(_lse(a) - _lse(b)), 1.0))
    if population_counts is None:
        fail("population_counts", "the population's cell counts when model='conditional'")
    if isinstance(population_counts, np.ndarray):
        memory("population_counts", population_counts.size, 48, "the sorted counts")
    else:
        memory("population_counts", math.prod(_shape_of(population_counts)), 48, "the sorted counts")
    F = _counts("population_counts", population_counts).ravel()
    require(F.size >= 1, "population_counts", "at least one cell")
    total = float(F.sum())
    require(total < _MAX_COUNT, "population_counts", "counts with a total below 2^53")
    require(N == total, "population_counts", f"counts whose total equals N (got total {total:g})")
    values, cnt = np.unique(F, return_counts=True)
    lnum, lden = _conditional_log_ratio(values, cnt.astype(float), total, np.broadcast_to(n_arr, shape), m)
    require(np.isfinite(lden), "population_counts",
            f"counts in which some cell can give a sample count m = {m} (the ratio is otherwise 0/0)")
    with np.errstate(under="ignore"):
        return scalar_out(np.minimum(np.exp(lnum - lden), 1.0))


@dataclass(frozen=True)
class SampleUniques:
    """Result of :func:`simulate_sample_uniques`.

    Per replicate (arrays of length ``reps``): ``proportions`` = #(f_c = 1 and F_c = 1) / #(f_c = 1),
    NaN for a sample without a sample unique; ``sample_uniques`` = #(f_c = 1); ``doubles`` and
    ``triples`` the same proportions for f_c = F_c = 2 and 3 (NaN where the sample has no cell with
    f_c = 2, resp. 3).

    Summaries over the samples where the proportion is defined (``None`` where it is undefined: no
    such sample, or fewer than 2 for a standard error): ``mean`` and ``se`` (sd / sqrt(number of
    samples)), the paper's "average proportion"; ``pooled`` = sum of the numerators / sum of the
    denominators over the replicates, an estimate of the ratio of expectations, with ``pooled_se``
    (ratio-estimator standard error); ``analytic`` the exact ratio of expectations given this
    population (:func:`expected_unique_proportion` with ``model="conditional"``); ``mean_doubles``,
    ``se_doubles``, ``analytic_doubles`` and the same for triples.

    The population: ``cells`` = 2^n_keys, ``occupied_cells``, ``population_uniques``,
    ``population_doubles``, ``population_triples`` (numbers of cells with F_c = 0 < F_c, 1, 2, 3),
    ``population_counts`` the F_c of the occupied cells in increasing order of the cell index
    (``occupied_index``).
    """
    N: int
    n: int
    n_keys: int
    p_key: float
    reps: int
    proportions: np.ndarray
    sample_uniques: np.ndarray
    mean: float | None
    se: float | None
    pooled: float | None
    pooled_se: float | None
    analytic: float | None
    doubles: np.ndarray
    mean_doubles: float | None
    se_doubles: float | None
    analytic_doubles: float | None
    triples: np.ndarray
    mean_triples: float | None
    se_triples: float | None
    analytic_triples: float | None
    cells: int
    occupied_cells: int
    population_uniques: int
    population_doubles: int
    population_triples: int
    population_counts: np.ndarray
    occupied_index: np.ndarray


def _population(N: int, n_keys: int, p_key: float, rng) -> np.ndarray:
    """Cell index of each of N units: key j (j = 0, ..., n_keys - 1) is bit j, drawn as
    ``rng.random(N) < p_key`` in the order j = 0, 1, ... (one array of N draws per key)."""
    cell = np.zeros(N, dtype=np.int64)
    for j in range(n_keys):
        cell |= (rng.random(N) < p_key).astype(np.int64) << j
    return cell


def _summary(hit, den):
    """Per-sample proportions (NaN where den = 0), mean and se over the defined ones, pooled ratio."""
    defined = den > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        prop = np.where(defined, hit / np.where(defined, den, 1), np.nan)
    d = int(defined.sum())
    vals = prop[defined]
    mean = float(vals.mean()) if d else None
    se = float(vals.std(ddof=1) / math.sqrt(d)) if d >= 2 else None
    tot = float(den.sum())
    pooled = float(hit.sum()) / tot if tot > 0 else None
    pooled_se = None
    if pooled is not None and hit.size >= 2:
        resid = hit - pooled * den
        pooled_se = float(math.sqrt(float((resid**2).sum()) / (hit.size * (hit.size - 1))) / den.mean())
    return prop, mean, se, pooled, pooled_se


@provenance("ss.unique_proportion")
def simulate_sample_uniques(N, n, n_keys, p_key, reps, rng, progress=False):
    r"""Simulate the numerical example of Section 3: the proportion of sample uniques (f_c = 1) that
    are population uniques (F_c = 1) over repeated simple random samples from one population.

    One population of ``N`` units is drawn with ``n_keys`` independent Bernoulli(``p_key``) keys (the
    cell index of a unit is the binary number whose bit j is key j); then ``reps`` simple random
    samples of size ``n`` without replacement are drawn from it, and for each the proportion of its
    sample uniques that are population uniques is recorded, and likewise for doubles
    (f_c = 2: F_c = 2) and triples.  See :class:`SampleUniques` for the fields; ``analytic`` is the
    exact ratio of expectations given the population drawn, to which ``pooled`` converges (and
    ``mean`` up to a bias of relative order 1/E[#(f_c = 1)]).

    Source: shlomo-skinner (002), Section 3 (N = 10^6, 16 keys with P(1) = 0.2, 1000 samples of
    n = 5000 and of n = 10000; printed averages 0.024 and 0.035).

    Parameters: ``N`` >= 1, ``n`` in [1, N], ``n_keys`` in [1, 62], ``reps`` >= 2 (integers);
    ``p_key`` in (0, 1), as in :func:`expected_unique_proportion` (at 0 or 1 every unit falls in
    one cell, no sample of n >= 2 has a sample unique and every proportion would be 0/0: refused,
    naming ``p_key``; for p_key in (0, 1) a sample without a sample unique still gives a NaN
    proportion, see :class:`SampleUniques`); ``rng`` a ``numpy.random.Generator`` or an integer seed >= 0 (the same seed
    gives the same result); ``progress`` a boolean (a tqdm bar over the replicates).

    Method: the population is relabelled to its occupied cells once; each sample is
    ``rng.choice(N, n, replace=False, shuffle=False)`` (Floyd's algorithm, O(n): at N = 10^6 about 5
    times faster per sample than a batched draw of a chunk of replicates with rejection of repeats,
    and 60 to 200 times faster than random keys with ``argpartition``, which is O(N) per sample); the
    counting is done for chunks of replicates at once (rows sorted, runs of equal cells measured, no
    loop over units).  The example (N = 10^6, n = 10^4, 1000 samples) takes 0.3 to 1 s on 2 cores,
    population included (``benchmarks/bench_sample_uniques.py``: 4 times faster than np.unique per
    sample).
    Memory (traced): 17 bytes per population unit when 2^n_keys <= N (cells counted directly), 73
    otherwise (relabelled by sorting); 80 bytes per unit are reserved against the memory limit of
    :mod:`numeric._common` (a larger population is refused naming N), plus about 15 MiB for a chunk
    of 2^21 sampled units.

    >>> r = simulate_sample_uniques(10_000, 500, 8, 0.3, 200, 1)
    >>> abs(r.pooled - r.analytic) < 5 * r.pooled_se
    True
    """
    N = count("N", N, 1)
    n = count("n", n, 1)
    if n > N:
        fail("n", f"an integer in [1, N] (N = {N}: a sample of at most the whole population)", n)
    n_keys = count("n_keys", n_keys, 1, 62)
    p_key = scalar("p_key", p_key, 0.0, 1.0)
    require(0.0 < p_key < 1.0, "p_key", "in (0, 1) (at 0 or 1 all units share one cell)")   # as expected_unique_proportion
    reps = count("reps", reps, 2)
    rng = as_rng(rng)
    progress = boolean("progress", progress)
    memory("N", N, 80, "the population")
    memory("reps", reps, 64, "the per-sample results")

    cell = _population(N, n_keys, p_key, rng)
    if 2**n_keys <= N + 1024:               # count by cell directly (O(N + 2^n_keys), no sort)
        full = np.bincount(cell, minlength=2**n_keys)
        index = np.flatnonzero(full)
        F = full[index]
        remap = np.zeros(2**n_keys, dtype=np.int32 if N < 2**31 else np.intp)
        remap[index] = np.arange(index.size)
        label = remap[cell]
        del full, remap
    else:                                   # the same relabelling by sorting
        index, label, F = np.unique(cell, return_inverse=True, return_counts=True)
        label = label.astype(np.int32 if N < 2**31 else np.intp, copy=False)
    del cell
    values, vcounts = np.unique(F, return_counts=True)

    hits = np.zeros((3, reps), dtype=np.int64)
    dens = np.zeros((3, reps), dtype=np.int64)
    rows = max(1, min(reps, _CHUNK // n))
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=reps, desc="samples", unit="sample")
    try:
        for start in range(0, reps, rows):
            r = min(rows, reps - start)
            c = np.empty((r, n), dtype=label.dtype)
            for i in range(r):            # one O(n) draw per replicate; everything else per chunk
                c[i] = label[rng.choice(N, n, replace=False, shuffle=False)]
            c.sort(axis=1)
            flat = c.ravel()
            new = np.empty(flat.size, dtype=bool)
            new[1:] = flat[1:] != flat[:-1]
            new.reshape(r, n)[:, 0] = True              # a run never crosses two samples
            starts = np.flatnonzero(new)
            length = np.diff(np.append(starts, flat.size))
            row = starts // n
            Fc = F[flat[starts]]
            for k, mm in enumerate((1, 2, 3)):
                is_m = length == mm
                dens[k, start:start + r] = np.bincount(row[is_m], minlength=r)
                hits[k, start:start + r] = np.bincount(row[is_m & (Fc == mm)], minlength=r)
            if bar is not None:
                bar.update(r)
    finally:
        if bar is not None:
            bar.close()

    out = [_summary(hits[k], dens[k]) for k in range(3)]
    analytic = []
    for mm in (1, 2, 3):
        if n < mm:
            analytic.append(None)
            continue
        lnum, lden = _conditional_log_ratio(values.astype(float), vcounts.astype(float), float(N), float(n), mm)
        analytic.append(float(min(math.exp(float(lnum - lden)), 1.0)) if np.isfinite(lden) else None)
    return SampleUniques(
        N=N, n=n, n_keys=n_keys, p_key=p_key, reps=reps,
        proportions=out[0][0], sample_uniques=dens[0].copy(), mean=out[0][1], se=out[0][2],
        pooled=out[0][3], pooled_se=out[0][4], analytic=analytic[0],
        doubles=out[1][0], mean_doubles=out[1][1], se_doubles=out[1][2], analytic_doubles=analytic[1],
        triples=out[2][0], mean_triples=out[2][1], se_triples=out[2][2], analytic_triples=analytic[2],
        cells=2**n_keys, occupied_cells=int(index.size), population_uniques=int((F == 1).sum()),
        population_doubles=int((F == 2).sum()), population_triples=int((F == 3).sum()),
        population_counts=F, occupied_index=index)
