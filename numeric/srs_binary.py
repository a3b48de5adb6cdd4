"""Simple random sampling without replacement of binary data, no noise (b = 0).

A sample of n units is drawn without replacement among N; the data are x in {0, 1}^N with total
t = sum(x), and the Horvitz-Thompson estimate is Z_0 = (N/n) y, y the number of ones in the sample.
Given t, y is hypergeometric:

    f_t(y) = C(t, y) C(N - t, n - y) / C(N, n),   max(0, n + t - N) <= y <= min(n, t).

The log pmf is evaluated with Loader's saddle-point method (as R's ``dbinom_raw``/``dhyper``): a
difference of ``gammaln`` values loses about ulp(ln N!) ~ 1e-8 of relative accuracy at N = 1e7.

Source: ``ht-mechanism`` (000), Section 2.3 (Results 8 and 9).
"""
from __future__ import annotations

import math

import numpy as np

from ._common import _shape_of, as_float, fail, memory, memory_for, provenance, require, scalar_out

_N_MAX = 2**31 - 1  # every integer product below (at most 2 N^2) is exact in int64
_BLOCK = 1 << 16  # grid cells per block in srs_binary_delta0 (cache-sized, bounded memory)
_PAIRS = 1 << 20  # (total, epsilon) pairs per call of _pair_deltas (bounded memory)
_LD_TEMPS = 24  # 16-byte long double arrays of the broadcast shape alive at once in the log pmf
#: Work allowed to srs_binary_delta0, in grid cells (a searched total costs about 100 cells of
#: overhead plus its n + 1 cells; about 4e7 cells a second): about 5 minutes on one core.  Beyond
#: it the call is refused, naming M_t (too many totals) or n (too wide a grid per total).
_WORK_MAX = 12e9

# Loader's method runs in numpy's long double (64-bit significand on x86-64, 113 bits on most
# other Linux platforms) and rounds once to a double at the end, so the log pmf is within about
# half an ulp of ln f.  Where long double is plain double, the error is a few ulps of ln f.
_LD = np.longdouble
_LN_2PI = _LD("1.837877066409345483560659472811235")
# stirlerr(k) = ln k! - (k + 1/2) ln k + k - ln sqrt(2 pi), k = 1..15 (index 0 unused), from
# mpmath.loggamma(k + 1) - (k + 1/2) log(k) + k - log(sqrt(2 pi)) at 40 digits.
_STIRLERR = np.array([_LD(v) for v in (
    "0", "0.08106146679532725821967026", "0.04134069595540929409382208",
    "0.02767792568499833914878929", "0.02079067210376509311152277", "0.01664469118982119216319487",
    "0.01387612882307074799874573", "0.01189670994589177009505572", "0.01041126526197209649747857",
    "0.009255462182712732917728637", "0.008330563433362871256469319",
    "0.007573675487951840794972024", "0.006942840107209529865664153",
    "0.006408994188004207068439631", "0.005951370112758847735624416",
    "0.00555473355196280137103869")])
# Stirling series stirlerr(k) ~ sum_j B_2j / (2j (2j - 1) k^(2j - 1)): 1/12, -1/360, 1/1260,
# -1/1680, 1/1188, -691/360360, 1/156, -3617/122400 (signs applied in _stirlerr).
_SERIES = [_LD(1) / 12, _LD(1) / 360, _LD(1) / 1260, _LD(1) / 1680, _LD(1) / 1188,
           _LD(691) / 360360, _LD(1) / 156, _LD(3617) / 122400]
_SERIES_V = 0.5  # bd0 by the atanh series for |v| <= 1/2, i.e. x / M in [1/3, 3]


# -- validation -------------------------------------------------------------------------------------
def _integer(name: str, value, lo, hi, domain: str) -> np.ndarray:
    """``value`` as an int64 array of integers in [lo, hi]; ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or getattr(value, "dtype", None) == bool:
        fail(name, domain, "a boolean")
    arr = as_float(name, value)
    require(np.isfinite(arr) & (arr == np.floor(arr)), name, domain)
    require((arr >= lo) & (arr <= hi), name, domain)
    return arr.astype(np.int64)


def _scalar_integer(name: str, value, lo, hi, domain: str) -> int:
    require(_shape_of(value) == (), name, f"a scalar ({domain})")
    arr = _integer(name, value, lo, hi, domain)
    require(arr.ndim == 0, name, f"a scalar ({domain})")
    return int(arr)


def _design(N, n) -> tuple[int, int]:
    N = _scalar_integer("N", N, 1, _N_MAX, f"an integer in [1, {_N_MAX}]")
    n = _scalar_integer("n", n, 1, N, f"an integer in [1, N] = [1, {N}]")
    return N, n


def _range(N, m_t, M_t) -> tuple[int, int]:
    m_t = _scalar_integer("m_t", m_t, 0, N - 1, f"an integer in [0, N - 1] = [0, {N - 1}]")
    M_t = _scalar_integer("M_t", M_t, m_t + 1, N, f"an integer in [m_t + 1, N] = [{m_t + 1}, {N}] "
                          "(m_t < M_t, so that neighbouring totals exist)")
    return m_t, M_t


# -- Loader's saddle-point pieces -------------------------------------------------------------------
def _stirlerr(k: np.ndarray) -> np.ndarray:
    """ln k! - ln(sqrt(2 pi k) (k/e)^k) for integers k >= 1 (long double): exact table to 15, then
    the Stirling series with 8 terms for k <= 35 (first omitted term < 1e-19 at k = 16), 5 terms
    for k <= 500 and 3 beyond (omitted terms < 1e-21)."""
    k = np.asarray(k, dtype=np.int64)
    out = np.empty(k.shape, dtype=_LD)
    small = k <= 15
    out[small] = _STIRLERR[k[small]]
    for lo, hi, terms in ((16, 35, 8), (36, 500, 5), (501, None, 3)):
        sel = (k >= lo) if hi is None else (k >= lo) & (k <= hi)
        x = k[sel].astype(_LD)
        z = 1 / (x * x)
        acc = np.zeros(x.shape, dtype=_LD)
        for j in reversed(range(terms)):  # Horner in 1/k^2 with alternating signs
            acc = _SERIES[j] - z * acc
        out[sel] = acc / x
    return out


def _bd0(x: np.ndarray, num: np.ndarray, den: int) -> np.ndarray:
    """Loader's deviance bd0(x, M) = x ln(x/M) + M - x >= 0 (long double) for integers x >= 1 and
    M = num/den > 0.

    x - M = (x den - num)/den comes from an exact integer, so no digits are lost to the rounding
    of M.  For v = (x - M)/(x + M) with |v| <= 1/2 (x/M in [1/3, 3]),
    bd0 = (x - M) v + 2x (v^3/3 + v^5/5 + ...) (ln(x/M) = 2 atanh v), a series whose terms have the
    sign of v and, after the first, at most 1/3 of its size (no cancellation); otherwise
    x ln(x/M) - (x - M), where the two terms differ by a factor >= 1.6.
    """
    xd = x * den
    diff = xd - num  # exact: x den, num <= N^2 and x den + num <= 2 N^2 < 2^63
    v = diff.astype(_LD) / (xd + num).astype(_LD)
    d = diff.astype(_LD) / den
    out = np.empty(v.shape, dtype=_LD)
    near = np.abs(v) <= _SERIES_V
    vn, xn = v[near], x[near].astype(_LD)
    v2 = vn * vn
    # tail = sum_{j>=1} v^(2j) / (2j + 1), summed from its smallest term (Horner in v^2);
    # v^2 <= 1/4, so 34 terms leave an error below 4^-34 / 69 < 2^-74 of the first.
    tail = np.zeros(vn.shape, dtype=_LD)
    for j in range(34, 0, -1):
        tail = (tail + _LD(1) / (2 * j + 1)) * v2
    out[near] = d[near] * vn + 2 * xn * vn * tail
    far = ~near
    out[far] = x[far].astype(_LD) * np.log(xd[far].astype(_LD) / num[far].astype(_LD)) - d[far]
    return out


def _log_p_q(N: int, n: int):
    """ln p and ln q (long double) for p = n/N, q = (N - n)/N (log1p of the smaller of p, q)."""
    p, q = _LD(n) / _LD(N), _LD(N - n) / _LD(N)
    lp = np.log1p(-q) if p > 0.5 else np.log(p)
    lq = np.log1p(-p) if q > 0.5 else np.log(q)
    return lp, lq


def _log_binom_raw(x: np.ndarray, m: np.ndarray, N: int, n: int) -> np.ndarray:
    """ln[C(m, x) p^x q^(m - x)] (long double), p = n/N, 0 < n < N, integers 0 <= x <= m
    (Loader's dbinom_raw):

    stirlerr(m) - stirlerr(x) - stirlerr(m - x) - bd0(x, m p) - bd0(m - x, m q) - ln(2 pi x (m - x)/m)/2,
    with m ln q at x = 0 and m ln p at x = m.
    """
    x, m = np.broadcast_arrays(np.asarray(x, dtype=np.int64), np.asarray(m, dtype=np.int64))
    lp, lq = _log_p_q(N, n)
    out = np.empty(x.shape, dtype=_LD)
    at0 = x == 0
    atm = (x == m) & ~at0
    mid = ~(at0 | atm)
    out[at0] = m[at0].astype(_LD) * lq
    out[atm] = m[atm].astype(_LD) * lp
    xm, mm = x[mid], m[mid]
    rest = mm - xm
    out[mid] = (_stirlerr(mm) - _stirlerr(xm) - _stirlerr(rest)
                - _bd0(xm, mm * n, N) - _bd0(rest, mm * (N - n), N)
                - (_LN_2PI + np.log((xm * rest).astype(_LD) / mm.astype(_LD))) / 2)
    return out


def _log_pmf(y: np.ndarray, t: np.ndarray, N: int, n: int) -> np.ndarray:
    """ln f_t(y) for validated int64 arrays y, t of one shape (no broadcasting, no checks)."""
    lo, hi = np.maximum(0, n + t - N), np.minimum(n, t)
    inside = (y >= lo) & (y <= hi)
    out = np.full(y.shape, -np.inf)
    if n == N:  # census: y = t surely
        out[inside] = 0.0
        return out
    yi, ti = y[inside], t[inside]
    log_total = _log_binom_raw(np.array(n), np.array(N), N, n)  # ln P(Bin(N, p) = n)
    out[inside] = (_log_binom_raw(yi, ti, N, n) + _log_binom_raw(n - yi, N - ti, N, n)
                   - log_total).astype(float)
    return out


# -- public functions -------------------------------------------------------------------------------
@provenance("htm.r8.density")
def srs_binary_log_pmf(y, t, N, n):
    r"""Log of the law of the number of ones y in a simple random sample, given the total t.

    .. math:: f_t(y) = \binom{t}{y}\binom{N-t}{n-y}\Big/\binom{N}{n}, \qquad
              \max(0, n+t-N) \le y \le \min(n, t),

    and ``-inf`` outside this support.  Evaluated as in R's ``dhyper``, by Loader's saddle-point
    method with p = n/N: :math:`f_t(y) = b(y; t, p)\, b(n-y; N-t, p) / b(n; N, p)`, each binomial
    probability :math:`b(x; m, p) = e^{\mathrm{stirlerr}(m) - \mathrm{stirlerr}(x) -
    \mathrm{stirlerr}(m-x) - \mathrm{bd0}(x, mp) - \mathrm{bd0}(m-x, mq)} \sqrt{m / (2\pi x(m-x))}`
    in log space, with x - mp = (xN - mn)/N from exact integers.  No difference of large ``gammaln``
    values (which loses ~1e-8 at N = 1e7): computed in long double and rounded once, ln f_t(y) is
    within about half an ulp, a relative error of the pmf below 1e-13 down to pmf ~ 1e-300 (a few
    ulps of ln f where numpy's long double is plain double).

    Source: ht-mechanism (000), Section 2.3, Result 8 (density of Z_0 given X = x).

    Parameters: ``y`` integers (any finite value, -inf outside the support; an infinite or
    fractional y is refused naming ``y``) and ``t`` integers in [0, N], broadcast together (a shape
    clash names them); ``N`` an integer in [1, 2^31 - 1]; ``n`` an integer in [1, N].  A broadcast
    shape beyond the memory limit is refused before anything is allocated.

    >>> float(srs_binary_log_pmf(1, 2, 4, 2))  # ln(C(2,1) C(2,1) / C(4,2)) = ln(4/6)
    -0.405465108108164...
    >>> float(srs_binary_log_pmf(3, 2, 4, 2))
    -inf
    """
    memory_for(_LD_TEMPS, 16, y=y, t=t)
    N, n = _design(N, n)
    y = as_float("y", y)
    require(np.isfinite(y) & (y == np.floor(y)), "y", "integer-valued")
    t = _integer("t", t, 0, N, f"an integer in [0, N] = [0, {N}]")
    y, t = np.broadcast_arrays(y, t)
    y_int = np.clip(y, -1, n + 1).astype(np.int64)  # values off [0, n] are outside the support anyway
    return scalar_out(_log_pmf(y_int, t.copy(), N, n))


@provenance("htm.r8.pmf_ratio")
def srs_binary_pmf_ratio(y, t, N, n):
    r"""Ratio of the laws of y for neighbouring totals t and t + 1:

    .. math:: \frac{f_t(y)}{f_{t+1}(y)} = \frac{(t+1-y)(N-t)}{(t+1)(N-t-n+y)}

    on the common support :math:`\max(0, n+t+1-N) \le y \le \min(n, t)`; the same formula gives
    ``inf`` at y = n + t - N >= 0 (only f_t > 0) and 0 at y = t + 1 <= n (only f_{t+1} > 0).
    The ratio decreases in y.

    Source: ht-mechanism (000), Section 2.3, Result 8 (proof).

    Parameters: ``t`` integers in [0, N - 1]; ``y`` integers in the support of f_t or of
    f_{t+1} (elsewhere the ratio is 0/0: ``ValueError``); broadcast together (a shape clash names
    them).  ``N`` an integer in
    [1, 2^31 - 1]; ``n`` an integer in [1, N].

    >>> float(srs_binary_pmf_ratio(0, 2, 6, 2))  # (C(2,0) C(4,2)) / (C(3,0) C(3,2)) = 6/3
    2.0
    """
    memory_for(8, y=y, t=t)
    N, n = _design(N, n)
    require(N >= 2, "N", ">= 2 (the ratio compares totals t and t + 1 in [0, N])")
    t = _integer("t", t, 0, N - 1, f"an integer in [0, N - 1] = [0, {N - 1}]")
    y = _integer("y", y, 0, n, f"an integer in [0, n] = [0, {n}]")
    y, t = np.broadcast_arrays(y, t)
    require((y >= np.maximum(0, n + t - N)) & (y <= np.minimum(n, t + 1)), "y",
            "in the support of f_t or of f_{t+1}: max(0, n + t - N) <= y <= min(n, t + 1)")
    with np.errstate(divide="ignore"):
        return scalar_out(((t + 1 - y) * (N - t)) / ((t + 1) * (N - t - n + y)))


def _one_minus_cw(em1, y, t, N: int, n: int):
    """1 - c w_t(y) in long double, c = e^eps, w_t(y) = f_{t+1}(y)/f_t(y) = (t+1)(N-t-n+y) / ((t+1-y)(N-t)),
    for int64 y <= min(n, t) and em1 = expm1(eps) (long double).

    Written -[(w - 1) + (c - 1) w] with w - 1 = (y(N+1) - n(t+1)) / ((t+1-y)(N-t)) from exact
    integers, the value keeps its digits where c w is close to 1 (there delta is most sensitive
    to it).  Where w = 0 (f_{t+1}(y) = 0) it is 1, also for eps = inf.
    """
    den = ((t + 1 - y) * (N - t)).astype(_LD)
    wm1 = (y * (N + 1) - n * (t + 1)).astype(_LD) / den
    w = ((t + 1) * (N - t - n + y)).astype(_LD) / den
    with np.errstate(invalid="ignore"):
        return np.where(w == 0, _LD(1), -(wm1 + em1 * w))


def _thresholds(c: np.ndarray, em1: np.ndarray, t: np.ndarray, N: int, n: int) -> np.ndarray:
    """Largest y in supp f_t with c f_{t+1}(y) < f_t(y), lo_t - 1 if none; shape (len(t), len(c)).

    c w(y) < 1 with w = f_{t+1}/f_t (increasing in y, 0 at y = n + t - N) is linear in y:
    y < tau = (t+1)[(N-t)/c - (N-t-n)] / [(t+1) + (N-t)/c].  The rounded tau can put the cut one
    step off (e.g. for huge c, where tau -> n + t - N but w(n + t - N) = 0), so the cut is then
    checked, and moved, with the sign of ``_one_minus_cw`` (the value used for the sum).
    """
    t2 = t[:, None]
    tf = t2.astype(float)
    lo, hi = np.maximum(0, n + t2 - N), np.minimum(n, t2)
    cc, em = c[None, :], em1[None, :]
    with np.errstate(divide="ignore"):
        r = (N - tf) / cc  # 0 for c = inf: tau = n + t - N, the only y with w = 0
    tau = (tf + 1) * (r - (N - tf - n)) / ((tf + 1) + r)
    k = np.clip(np.ceil(tau).astype(np.int64) - 1, lo - 1, hi)

    def positive(y):  # 1 - c w(y) > 0 and y in [lo, hi]
        return (y >= lo) & (y <= hi) & (_one_minus_cw(em, np.clip(y, lo, hi), t2, N, n) > 0)

    k = np.where(positive(k + 1), k + 1, k)
    return np.where((k >= lo) & ~positive(k), k - 1, k)


def _pair_deltas(eps: np.ndarray, t: np.ndarray, N: int, n: int) -> np.ndarray:
    r"""D_t(eps) = sum_y (f_t(y) - e^eps f_{t+1}(y))_+ for int64 totals t in [0, N - 1], eps >= 0 (1-d).

    Shape (len(t), len(eps)).  With c = e^eps and w(y) = f_{t+1}(y)/f_t(y) (increasing) the
    positive part is the lower set y <= k of supp f_t, and by Abel summation

        D_t = sum_{y<=k} f_t(y)(1 - c w(y)) = (1 - c w(k)) P(k) + c sum_{j<k} (w(j+1) - w(j)) P(j),

    P the distribution function of f_t: two sums of non-negative numbers (no cancellation), with
    w(j+1) - w(j) = (t+1)(N-n+1) / ((N-t)(t+1-j)(t-j)) and 1 - c w(k) (``_one_minus_cw``) in
    closed form, so every eps costs O(1) per t once P and the partial sums are built.  f_t is
    computed at the top y of the grid (the cut for the smallest eps, at or below the mean) by
    Loader's method and below it by the exact ratios f_t(y-1)/f_t(y) = y (N-t-n+y) / ((t-y+1)(n-y+1)).
    """
    with np.errstate(over="ignore"):
        c = np.exp(eps)
        em1 = np.expm1(eps.astype(_LD))
    k = _thresholds(c, em1, t, N, n)
    lo = np.maximum(0, n + t - N)
    top = k.max(axis=1)
    out = np.zeros(k.shape)
    rows = np.flatnonzero(top >= lo)  # rows with an empty positive part for every eps give 0
    if rows.size == 0:
        return out
    anchor = np.zeros(t.shape)
    anchor[rows] = np.exp(_log_pmf(top[rows], t[rows], N, n))
    block = max(1, _BLOCK // (n + 1))
    for start in range(0, rows.size, block):
        sel = rows[start:start + block]
        out[sel] = _pair_deltas_block(c, em1, t[sel], lo[sel], top[sel], k[sel], anchor[sel], N, n)
    return out


def _pair_deltas_block(c, em1, t, lo, top, k, anchor, N, n):
    """``_pair_deltas`` for rows with top >= lo (the grid y = lo .. top of each row)."""
    width = int((top - lo).max()) + 1
    memory("n", t.size * width * 10, what="the grid of the pmf (about n/2 numbers per total)")
    base = top - width + 1  # grid column a holds y = base + a (ascending; y < lo where f = 0)
    tf = t[:, None].astype(float)
    y = base[:, None] + np.arange(width, dtype=float)[None, :]
    # r[:, a] = f(y)/f(y + 1) = (y+1)(N-t-n+y+1) / ((t-y)(n-y)): 0 at y + 1 = lo (y + 1 = 0 or
    # N-t-n+y+1 = 0), so the products vanish below the support; t - y, n - y >= 1 for y < top.
    r = np.empty_like(y)
    r[:, -1] = anchor  # f(top)
    yl = y[:, :-1]
    t_minus_y = tf - yl
    np.divide((yl + 1) * ((N - n + 1) - tf + yl), t_minus_y * (n - yl), out=r[:, :-1])
    f = np.cumprod(r[:, ::-1], axis=1)[:, ::-1]  # f(y) = f(top) prod_{y <= j < top} f(j)/f(j+1)
    P = np.cumsum(f, axis=1)
    # w(y+1) - w(y) = (t+1)(N-n+1) / ((N-t)(t+1-y)(t-y)), finite for y < top <= t; below lo P = 0
    dw = ((tf + 1) * ((N - n + 1) / (N - tf))) / ((t_minus_y + 1) * t_minus_y)
    dw *= P[:, :-1]
    G = np.cumsum(dw, axis=1)  # G[:, a] = sum_{j <= base + a} (w(j+1) - w(j)) P(j), a <= width - 2
    valid = k >= lo[:, None]
    a = np.where(valid, k - base[:, None], 0)
    Pk = np.take_along_axis(P, a, axis=1)
    Gk = (np.where(valid & (a >= 1), np.take_along_axis(G, np.maximum(a - 1, 0), axis=1), 0.0)
          if width > 1 else np.zeros(k.shape))
    omc = _one_minus_cw(em1[None, :], np.where(valid, k, lo[:, None]), t[:, None], N, n)
    first = np.where(valid, omc.astype(float), 0.0) * Pk  # 1 - c w(k) > 0 by the choice of k
    with np.errstate(invalid="ignore", over="ignore"):
        second = np.where(Gk == 0, 0.0, c[None, :] * Gk)  # Gk > 0 only where c w(k) < 1: c finite
    return np.where(valid, first + second, 0.0)


@provenance("htm.r8.delta0", "htm.r4.delta0_pair")
def srs_binary_delta0(epsilon, N, n, m_t, M_t):
    r"""delta of the noiseless Horvitz-Thompson total (b = 0) under simple random sampling of
    binary data with totals in [m_t, M_t] (Result 8):

    .. math:: \delta_{Z_0}(\varepsilon) = \max_{(t, t'),\ |t - t'| = 1,\ t, t' \in [m_t, M_t]}
              \sum_{y} \big(f_t(y) - e^{\varepsilon} f_{t'}(y)\big)_+ .

    Both orders of each pair are searched; the pair (t + 1, t) equals the pair (N - 1 - t, N - t)
    by the symmetry f_t(y) = f_{N-t}(n - y), so D_t = sum_y (f_t - e^eps f_{t+1})_+ is computed for
    t in [m_t, M_t - 1] and in [N - M_t, N - 1 - m_t].  Each D_t is a sum of non-negative terms
    (Abel summation over the lower set where f_t > e^eps f_{t+1}; see ``_pair_deltas``), the
    factor 1 - e^eps f_{t+1}/f_t at the cut from exact integers and expm1(eps) in long double;
    f_t is anchored by Loader's method and extended by its exact one-step ratios.  Relative
    accuracy about 1e-13, also for tiny delta.  ``epsilon = inf`` gives the limit, the largest
    mass of f_t outside supp f_{t'}.

    Structure used before any search (both exact):

    * a range touching 0 or N (m_t = 0 or M_t = N) gives delta = n/N for every eps, ``inf``
      included: D_t(eps) <= TV(f_t, f_{t+1}) <= n/N (couple the two laws on the same sample: y
      differs only if the changed unit is drawn, probability n/N), and the pair (1, 0) attains it
      (f_0 is the point mass at 0, f_1(1) = n/N); likewise (N - 1, N);
    * eps > eps0 = ``srs_binary_epsilon0(N, n, m_t, M_t)`` (Result 9, with a relative margin of
      1e-12 for its rounding) gives delta = 0.

    Otherwise every pair is searched: O(T (n + 1) + T len(epsilon)) time, T <= 2 (M_t - m_t) the
    number of totals, which are generated block by block (never materialised: memory is bounded by
    the blocks, ~1e6 numbers, whatever N).  N = 1e5, n = 1e3, [m_t, M_t] = [1e3, 99e3] (1e8 grid
    cells) takes about 2 s on one core.  A search above 1.2e10 grid cells (about 5 minutes; a
    total counts n + 101 cells) is refused before it starts, naming ``M_t`` (too many totals) or
    ``n``; a pmf grid per total beyond the memory limit is refused naming ``n``.

    Source: ht-mechanism (000), Section 2.3, Result 8 (and Result 4 for one pair).

    Parameters: ``epsilon`` >= 0 (scalar or array; the result has its shape; ``inf`` allowed, NaN
    refused); ``N`` an integer in [1, 2^31 - 1]; ``n`` an integer in [1, N]; integers
    0 <= m_t < M_t <= N (booleans and non-integral floats refused).

    >>> float(srs_binary_delta0(0.0, 4, 2, 1, 3))  # TV(f_1, f_2) by hand: f_1 = (1/2, 1/2), f_2 = (1/6, 2/3, 1/6)
    0.333333333333333...
    >>> float(srs_binary_delta0(np.log(2.0), 4, 2, 1, 3))  # (1/2 - 2/6)_+ at y = 0, by hand
    0.166666666666666...
    """
    memory("epsilon", math.prod(_shape_of(epsilon)) * 16)
    eps = as_float("epsilon", epsilon)
    require(eps >= 0, "epsilon", ">= 0")
    N, n = _design(N, n)
    m_t, M_t = _range(N, m_t, M_t)
    if eps.size == 0:
        return np.zeros(eps.shape)
    if m_t == 0 or M_t == N:
        # D_t(eps) <= TV(f_t, f_{t+1}) <= P(the changed unit is sampled) = n/N (coupling: same sample,
        # y differs only if the unit is in it), and the pair (1, 0) attains it at every eps: f_0 is the
        # point mass at y = 0 and f_1(1) = n/N (the pair (N - 1, N) likewise at y = n - 1).
        return scalar_out(np.full(eps.shape, n / N))
    flat = eps.ravel()
    best = np.zeros(flat.shape)
    # Result 9: f_t <= e^eps f_t' on every neighbouring pair once eps >= eps0, so delta = 0 there (with
    # a margin of 1e-12 for the rounding of eps0, closer epsilons are computed)
    eps0 = float(srs_binary_epsilon0(N, n, m_t, M_t))
    todo = ~(flat > eps0 * (1 + 1e-12))
    if not todo.any():
        return scalar_out(best.reshape(eps.shape))
    sub = flat[todo]
    spans = _total_spans(N, m_t, M_t)
    totals = sum(hi - lo for lo, hi in spans)
    work = totals * (n + 101.0)
    if work > _WORK_MAX:
        name = "M_t" if totals * 101.0 > _WORK_MAX / 2 else "n"
        fail(name, f"such that the exact search stays within the work limit: {totals} totals in [m_t, M_t] (and their "
             f"mirror images) times n + 1 = {n + 1} grid cells is {work:.3g} cells (about "
             f"{work / 4e7 / 60:.0f} minutes), above {_WORK_MAX:.3g}; narrow [m_t, M_t] or use epsilon >= "
             f"srs_binary_epsilon0 = {eps0:.6g} (delta = 0) or a range touching 0 or N (delta = n/N)")
    rows = max(1, _PAIRS // sub.size)  # totals per call: the thresholds are totals x epsilon
    part = np.zeros(sub.shape)
    for lo, hi in spans:
        for start in range(lo, hi, rows):
            ts = np.arange(start, min(start + rows, hi), dtype=np.int64)
            part = np.maximum(part, _pair_deltas(sub, ts, N, n).max(axis=0))
    best[todo] = part
    return scalar_out(np.minimum(best, 1.0).reshape(eps.shape))


def _total_spans(N: int, m_t: int, M_t: int) -> list[tuple[int, int]]:
    """The totals t whose pair (t, t + 1) is searched, [m_t, M_t - 1] and its mirror
    [N - M_t, N - 1 - m_t], as half-open spans, merged when they meet (nothing is materialised)."""
    a, b = (m_t, M_t), (N - M_t, N - m_t)
    first, second = sorted((a, b))
    if second[0] <= first[1]:
        return [(first[0], max(first[1], second[1]))]
    return [first, second]


@provenance("htm.r9.epsilon0", "htm.r8.pmf_ratio")
def srs_binary_epsilon0(N, n, m_t, M_t):
    r"""epsilon of the noiseless Horvitz-Thompson total (b = 0, delta = 0) under simple random
    sampling of binary data with totals in [m_t, M_t] (Result 9):

    .. math:: \varepsilon_{Z_0}(0) = \begin{cases} +\infty & \min(m_t, N - M_t) < n, \\
              \ln\max\Big\{\dfrac{N - M_t + 1}{N - M_t + 1 - n}, \dfrac{m_t + 1}{m_t + 1 - n}\Big\}
              & \text{otherwise.} \end{cases}

    For t' = t + 1 the supports coincide iff min(t, N - 1 - t) >= n; f_t/f_{t+1} decreases in y
    from (N - t)/(N - t - n) at y = 0 to (t + 1 - n)/(t + 1) at y = n, and the maximum over
    t in [m_t, M_t - 1] of both log-ratios is at t = M_t - 1 and t = m_t.  Evaluated as
    -log1p(-n/a) = ln(a/(a - n)).

    Source: ht-mechanism (000), Section 2.3, Result 9.

    Parameters (broadcast together; a shape clash names them): ``N`` integers in [1, 2^31 - 1];
    ``n`` integers in [1, N]; integers 0 <= m_t < M_t <= N (booleans and fractions refused).

    >>> float(srs_binary_epsilon0(10, 2, 3, 7))  # ln max(4/2, 4/2) = ln 2
    0.693147180559945...
    >>> float(srs_binary_epsilon0(10, 2, 1, 7))  # m_t < n: supports differ
    inf
    """
    memory_for(10, N=N, n=n, m_t=m_t, M_t=M_t)
    N = _integer("N", N, 1, _N_MAX, f"an integer in [1, {_N_MAX}]")
    n = _integer("n", n, 1, N, "an integer in [1, N]")
    m_t = _integer("m_t", m_t, 0, N - 1, "an integer in [0, N - 1]")
    M_t = _integer("M_t", M_t, m_t + 1, N,
                   "an integer in [m_t + 1, N] (m_t < M_t, so that neighbouring totals exist)")
    N, n, m_t, M_t = np.broadcast_arrays(N, n, m_t, M_t)
    finite = np.minimum(m_t, N - M_t) >= n
    a_hi = np.where(finite, N - M_t + 1, 2 * n).astype(float)  # placeholders where infinite
    a_lo = np.where(finite, m_t + 1, 2 * n).astype(float)
    value = -np.log1p(-n / np.minimum(a_hi, a_lo))  # a / (a - n) decreases in a
    return scalar_out(np.where(finite, value, np.inf))
