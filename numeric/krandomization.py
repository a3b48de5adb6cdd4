"""K-randomization of bit vectors (``003_6dfa2dbc38b4b249.txt``, Zhilyaev and Zeber, "K-Randomization",
2016, Sections 2-3).

Each bit of a record is reported as is with probability p = 1 - q and flipped with the lie probability
q.  For one bit per record (L = 1) the number of reported ones when m of the n records are 1 is
A_n(m) ~ Bin(m, p) + Bin(n - m, q) (Section 3.1).

The law of A_n(m) is computed by :func:`_count_window` from a three-term recurrence in s with
positive terms only (see its docstring), which keeps a relative accuracy at every point of the
window, however far in the tail, for n up to 10^9.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .sampling import _log_binom

__all__: list[str] = []

_LN2 = math.log(2.0)
_U = 2.0**-53
_DIRECT_CELLS = 1 << 21       # terms of the conditional sums evaluated at once by the direct method
_DIRECT_SMALL = 1 << 17       # windows whose conditional sums have fewer terms are computed by them alone


# == the law of Bin(k, p) + Bin(N - k, q) on a window =========================================================
def _parts(q: float):
    """(q, p_hi, p_lo) with p_hi + p_lo = 1 - q exactly (Fast2Sum)."""
    p = 1.0 - q
    return q, p, (1.0 - p) - q


def _log_b1(j, k, q):
    """ln P[Bin(k, 1 - q) = j] (= ln P[Bin(k, q) = k - j]) for integer-valued float arrays 0 <= j <= k."""
    _, p, plo = _parts(q)
    return _log_binom(k - j, float(k), q, p, plo)


def _log_b2(i, n, q):
    """ln P[Bin(n, q) = i] for integer-valued float arrays 0 <= i <= n."""
    _, p, plo = _parts(q)
    return _log_binom(i, float(n), q, p, plo)


def _cgf(theta: float, N: int, k: int, q: float):
    """K(theta) = ln E e^{theta A} and K'(theta) for A ~ Bin(k, p) + Bin(N - k, q)."""
    p = 1.0 - q
    em1 = math.expm1(theta)
    if theta > 0:        # written in e^{-theta} so that nothing overflows
        e = math.exp(-theta)
        k1 = k * (theta + math.log1p(q * math.expm1(-theta))) if k else 0.0
        k2 = (N - k) * (theta + math.log1p(p * math.expm1(-theta))) if N - k else 0.0
        d1 = k * p / (p + q * e)
        d2 = (N - k) * q / (q + p * e)
    else:
        k1 = k * math.log1p(p * em1) if k else 0.0
        k2 = (N - k) * math.log1p(q * em1) if N - k else 0.0
        e = math.exp(theta)
        d1 = k * p * e / (q + p * e)
        d2 = (N - k) * q * e / (p + q * e)
    return k1 + k2, d1 + d2


def _edge(N: int, k: int, q: float, level: float, up: bool) -> int:
    """An integer t beyond which (above if ``up``, else below) every point has
    P[A = t] <= P[A >= t] <= exp(-I(t)) <= exp(-level) (Chernoff; I the rate function, increasing away
    from the mean), clipped to [0, N]."""
    p = 1.0 - q
    if up:
        full = -(k * math.log(p) + (N - k) * math.log(q))       # -ln P[A = N] = I(N)
    else:
        full = -(k * math.log(q) + (N - k) * math.log(p))       # -ln P[A = 0] = I(0)
    if full <= level:
        return N if up else 0
    sign = 1.0 if up else -1.0
    lo_t, hi_t = 0.0, 1.0
    while True:          # bracket: the rate I(theta) = theta K'(theta) - K(theta) at theta = sign * hi_t
        K, dK = _cgf(sign * hi_t, N, k, q)
        if sign * hi_t * dK - K >= level or hi_t > 1e4:
            break
        lo_t, hi_t = hi_t, 2.0 * hi_t
    for _ in range(200):
        mid = 0.5 * (lo_t + hi_t)
        if mid in (lo_t, hi_t):
            break
        K, dK = _cgf(sign * mid, N, k, q)
        if sign * mid * dK - K >= level:
            hi_t = mid
        else:
            lo_t = mid
    _, t = _cgf(sign * hi_t, N, k, q)
    # t has the rate >= level up to rounding; one more point of margin on the safe side
    return min(N, math.ceil(t) + 1) if up else max(0, math.floor(t) - 1)


def _direct(s, N: int, k: int, q: float) -> np.ndarray:
    """ln P[A = s] for an integer array s (any values; -inf outside [0, N]) by the conditional sum
    sum_j P[Bin(k, p) = j] P[Bin(N - k, q) = s - j], each term in log space (Loader's form) and summed
    by log-sum-exp over the terms within e^-60 of the largest (the terms are log-concave in j, so the
    rest is below e^-60 times a geometric series; the sum is extended until its edge terms are that
    small)."""
    s = np.asarray(s, dtype=np.int64)
    out = np.full(s.shape, -np.inf)
    ok = (s >= 0) & (s <= N)
    sv = s[ok].astype(float)
    if sv.size == 0:
        return out
    p = 1.0 - q
    M = N - k
    jlo = np.maximum(0.0, sv - M)
    jhi = np.minimum(float(k), sv)
    # mode of the summand: root of rho (k - j)(s - j) = (j + 1)(M - s + j + 1), rho = (p/q)^2
    rho = (p / q) ** 2
    a = rho - 1.0
    b = rho * (k + sv) + (M - sv + 2.0)
    c = rho * k * sv - (M - sv + 1.0)
    disc = np.sqrt(np.maximum(b * b - 4.0 * a * c, 0.0))
    jm = np.where(a > 0, 2.0 * c / np.where(b + disc > 0, b + disc, 1.0), c / np.where(b > 0, b, 1.0))
    jm = np.clip(np.round(jm), jlo, jhi)
    var = 1.0 / (1.0 / (jm + 1.0) + 1.0 / (k - jm + 1.0) + 1.0 / (sv - jm + 1.0) + 1.0 / (M - sv + jm + 1.0))
    width = int(min(np.max(jhi - jlo), math.ceil(14.0 * math.sqrt(float(np.max(var)))) + 32))
    while True:
        d = np.arange(-width, width + 1, dtype=float)
        res = np.empty(sv.size)
        edge_ok = True
        rows = max(1, _DIRECT_CELLS // d.size)
        for r0 in range(0, sv.size, rows):
            sl = slice(r0, r0 + rows)
            j = jm[sl, None] + d[None, :]
            inside = (j >= jlo[sl, None]) & (j <= jhi[sl, None])
            jj = np.where(inside, j, jlo[sl, None])
            terms = _log_b1(jj, k, q) + _log_b2(sv[sl, None] - jj, M, q)
            terms = np.where(inside, terms, -np.inf)
            top = np.max(terms, axis=1)
            # the edge terms of each row must be negligible unless the edge is the end of the support
            left = np.where(jm[sl] - width > jlo[sl], terms[:, 0], -np.inf)
            right = np.where(jm[sl] + width < jhi[sl], terms[:, -1], -np.inf)
            if np.any(np.maximum(left, right) > top - 60.0):
                edge_ok = False
                break
            res[sl] = top + np.log(np.sum(np.exp(terms - top[:, None]), axis=1))
        if edge_ok:
            break
        width *= 2
    out[ok] = res
    return out


def _positive_recurrence(b: np.ndarray, c: np.ndarray, ly1: float, ly2: float) -> np.ndarray:
    """ln y_i for y_i = b_i y_{i-1} + c_i y_{i-2} (i = 0..K-1), b_i >= 0, c_i > 0, given ln y_{-1} and
    ln y_{-2}.  Only products and sums of nonnegative numbers: each y_i has the relative error of the
    starting values plus at most about 6 K units of roundoff (no cancellation anywhere).

    Vectorised in blocks: the transfer matrix of each block (a product of nonnegative 2 x 2 matrices)
    is formed for all blocks at once, the block starting states follow by a short loop over blocks,
    and the values inside all blocks are formed at once.  Every rescaling is by a power of two (exact),
    with the exponents carried as integers."""
    K = b.size
    if K == 0:
        return np.empty(0)
    top = max(ly1, ly2)
    y1, y2 = math.exp(ly1 - top), math.exp(ly2 - top)
    nb = max(1, int(math.sqrt(K / 4.0)))
    bl = -(-K // nb)
    pad = nb * bl - K
    B = np.concatenate([b, np.ones(pad)]).reshape(nb, bl)     # padding: y_i = y_{i-1}, dropped at the end
    C = np.concatenate([c, np.zeros(pad)]).reshape(nb, bl)
    # phase 1: block transfer matrices T (state (y_{i-1}, y_{i-2}) -> state after the block)
    t11, t12 = np.ones(nb), np.zeros(nb)
    t21, t22 = np.zeros(nb), np.ones(nb)
    texp = np.zeros(nb, dtype=np.int64)
    for j in range(bl):
        bj, cj = B[:, j], C[:, j]
        n1 = bj * t11 + cj * t21
        n2 = bj * t12 + cj * t22
        t21, t22 = t11, t12
        _, e = np.frexp(n1 + n2)
        t11, t12 = np.ldexp(n1, -e), np.ldexp(n2, -e)
        t21, t22 = np.ldexp(t21, -e), np.ldexp(t22, -e)
        texp += e
    # phase 2: the state at the start of each block (normalised; exponent carried exactly)
    s1, s2 = np.empty(nb), np.empty(nb)
    sexp = np.empty(nb, dtype=np.int64)
    e_run = 0
    T = (t11.tolist(), t12.tolist(), t21.tolist(), t22.tolist(), texp.tolist())
    for i in range(nb):
        s1[i], s2[i], sexp[i] = y1, y2, e_run
        a1 = T[0][i] * y1 + T[1][i] * y2
        a2 = T[2][i] * y1 + T[3][i] * y2
        m, e = math.frexp(max(a1, a2))
        y1, y2 = math.ldexp(a1, -e), math.ldexp(a2, -e)
        e_run += e + T[4][i]
    # phase 3: the values inside every block
    out = np.empty((nb, bl))
    oexp = np.empty((nb, bl), dtype=np.int64)
    v1, v2, ve = s1, s2, sexp.copy()
    for j in range(bl):
        y = B[:, j] * v1 + C[:, j] * v2
        _, e = np.frexp(y)
        v2, v1 = np.ldexp(v1, -e), np.ldexp(y, -e)
        ve += e
        out[:, j] = v1
        oexp[:, j] = ve
    with np.errstate(divide="ignore"):
        res = np.log(out) + oexp * _LN2 + top
    return res.reshape(-1)[:K]


def _count_window(N, k, q, log_floor=-800.0):
    """The law of A = Bin(k, 1 - q) + Bin(N - k, q) (independent) on a window of its support.

    Source: 003_6dfa2dbc38b4b249.txt, Section 3.1 (A_n(m) with n = N, m = k).

    Returns ``(start, logpmf, log_outside)``: ``logpmf[i]`` = ln P[A = start + i] for the window
    start..start + len(logpmf) - 1, which holds every point with ln P[A = s] > log_floor (points with
    a smaller value may be included too); ``log_outside`` is a certified upper bound on
    ln P[A outside the window] (-inf when the window is the whole support 0..N).  N = 0 gives the point
    mass at 0.  Domain: integers 0 <= k <= N, 0 < q <= 1/2 (q = 1/2: A ~ Bin(N, 1/2) whatever k is).

    Window: by the Chernoff bound P[A = t] <= P[A >= t] <= exp(-I(t)) (I the rate function of A), every
    t beyond the point where I = -log_floor + 1 is below the floor; the window ends one point past it.

    Method.  The generating function G(z) = (q + p z)^k (p + q z)^(N-k) satisfies
    (q + p z)(p + q z) G' = [k p^2 + (N - k) q^2 + N p q z] G, that is, for a_s = P[A = s],

        p q (s + 1) a_{s+1} = C_s a_s + p q (N - s + 1) a_{s-1},   C_s = (p^2 + q^2)(s_c - s),

    with s_c = (k p^2 + (N - k) q^2)/(p^2 + q^2).  For s <= s_c every term is nonnegative going up
    (a_{s+1} from a_s, a_{s-1}); for s >= s_c every term is nonnegative going down (a_{s-1} from a_s,
    a_{s+1}).  So the window is filled upward from its lower end to s_c and downward from its upper end
    to s_c, with no subtraction anywhere: the relative error of each value is that of the two starting
    values plus at most about 6 K roundoffs (K the number of steps), whatever the magnitude of the
    values (a sum of positive terms cannot cancel).  The coefficients come from exact rational
    arithmetic on q (p = 1 - q exactly, s_c - round(s_c) exactly rounded), so no coefficient carries
    more than one rounding.  (Positivity is also why this direction is the stable one: the pmf is the
    dominant solution of the recurrence on each side of s_c.)  The four starting values at the window
    ends are conditional sums sum_j P[Bin(k, p) = j] P[Bin(N - k, q) = s - j] of terms in Loader's
    saddle-point form (relative error about 1e-13 at N = 10^9 in the far tail).  Small windows are
    computed by the conditional sums alone; k = 0, k = N and q = 1/2 are single binomial laws.

    Accuracy achieved (tests against mpmath at 50 digits): relative error of each returned probability
    below 1e-10 for N <= 10^9 at every point of the window (worst case bound: 1e-13 + 6 K 2^-53, which is
    below 1e-10 for windows of up to 1.5e5 points; observed errors are a few 1e-12 at most).

    ``log_outside``: the laws are log-concave (sums of independent Bernoulli variables), so beyond the
    upper end hi the ratio a_{t+1}/a_t is at most r = a_{hi+1}/a_hi < 1 and the mass above hi is at
    most a_{hi+1}/(1 - r); likewise below the lower end.  Each tail is also at most exp(-I) from the
    Chernoff bound; the smaller of the two is taken, enlarged by a relative 1e-6 to cover the rounding
    of the computed values.
    """
    N, k, q, log_floor = int(N), int(k), float(q), float(log_floor)
    if N < 0 or not 0 <= k <= N:
        raise ValueError("_count_window needs integers 0 <= k <= N")
    if not 0.0 < q <= 0.5:
        raise ValueError("_count_window needs 0 < q <= 1/2")
    if N == 0:
        return 0, np.zeros(1), -math.inf
    if q == 0.5:                                   # Bin(k, 1/2) + Bin(N - k, 1/2) = Bin(N, 1/2)
        k = 0
    level = max(1.0, -log_floor + 1.0)
    lo = _edge(N, k, q, level, up=False)
    hi = _edge(N, k, q, level, up=True)
    size = hi - lo + 1
    if k == 0 or k == N:
        s = np.arange(lo - 1, hi + 2, dtype=float)
        inside = (s >= 0) & (s <= N)
        ss = np.where(inside, s, 0.0)
        vals = _log_b1(ss, N, q) if k == N else _log_b2(ss, N, q)
        vals = np.where(inside, vals, -np.inf)
        below, win, above = vals[0], vals[1:-1], vals[-1]
        a_lo, a_hi = vals[1], vals[-2]
    else:
        M = N - k
        cond_width = 14.0 * math.sqrt(min(k, M) * q * (1.0 - q) + 1.0) + 32.0
        if size * cond_width <= _DIRECT_SMALL:
            vals = _direct(np.arange(lo - 1, hi + 2), N, k, q)
            below, win, above = vals[0], vals[1:-1], vals[-1]
            a_lo, a_hi = vals[1], vals[-2]
        else:
            below, a_lo, a_hi, above = _direct(np.array([lo - 1, lo, hi, hi + 1]), N, k, q)
            win = _recurrence_fill(N, k, q, lo, hi, below, a_lo, a_hi, above)
    log_out = _outside(N, k, q, lo, hi, below, a_lo, a_hi, above, level)
    return lo, win, log_out


def _recurrence_fill(N, k, q, lo, hi, below, a_lo, a_hi, above):
    """ln a_s for s = lo..hi from the recurrence of :func:`_count_window`, given ln a at lo - 1, lo, hi, hi + 1."""
    Q = Fraction(q)
    P = 1 - Q
    Bq = P * P + Q * Q
    sc = (k * P * P + (N - k) * Q * Q) / Bq
    s0 = min(max(round(sc), lo), hi)
    d = float(sc - s0)                             # s_c - s0, rounded once
    R = float(Bq / (P * Q))                        # (p^2 + q^2)/(p q), rounded once
    out = np.empty(hi - lo + 1)
    # upward: a_{s+1} from a_s, a_{s-1} for s = lo..s_max (C_s >= 0)
    s_max = min(hi - 1, math.floor(sc))
    if s_max >= lo:
        s = np.arange(lo, s_max + 1, dtype=float)
        t = s - s0
        bu = R * (d - t) / (s + 1.0)
        cu = (N - s + 1.0) / (s + 1.0)
        up = _positive_recurrence(bu, cu, a_lo, below)
        out[1:s_max - lo + 2] = up
    # downward: a_{s-1} from a_s, a_{s+1} for s = hi..s_min (C_s <= 0)
    s_min = max(lo + 1, math.ceil(sc))
    if s_min <= hi:
        s = np.arange(hi, s_min - 1, -1, dtype=float)
        t = s - s0
        bd = R * (t - d) / (N - s + 1.0)
        cd = (s + 1.0) / (N - s + 1.0)
        down = _positive_recurrence(bd, cd, a_hi, above)
        out[s_min - 1 - lo:hi - lo][::-1] = down   # a_{hi-1}, ..., a_{s_min-1}
    out[0], out[-1] = a_lo, a_hi
    return out


def _outside(N, k, q, lo, hi, below, a_lo, a_hi, above, level):
    """Certified ln P[A < lo or A > hi] (see :func:`_count_window`)."""
    tails = []
    for end, nxt, edge_in in ((lo, below, a_lo), (hi, above, a_hi)):
        if nxt == -math.inf:                   # the window reaches the end of the support
            continue
        r = math.exp(nxt - edge_in)            # < 1: the window end lies beyond the mode
        geo = nxt - math.log1p(-r) if r < 1.0 else math.inf
        tails.append(min(geo, -level) + 1e-6)
    if not tails:
        return -math.inf
    return float(np.logaddexp.reduce(tails)) if len(tails) > 1 else tails[0]
