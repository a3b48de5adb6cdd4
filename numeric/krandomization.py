"""K-randomization of bit vectors (``k-randomization`` (003), Zhilyaev and Zeber, "K-Randomization",
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

from ._common import ParameterError, as_float, boolean, count, fail, memory, memory_for, provenance, require, scalar, scalar_out
from .sampling import _log_binom

__all__ = ["rr_pmf", "count_pmf", "privacy_ratio", "count_quantile"]

_MAX_N = 10**12               # records: the window (or the conditional sum at a point) has O(sqrt(n)) terms,
                              # about 3 s of CPU at 10^12 (30 s projected at 10^14)

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

    def log_mix(w, wbar, x):     # ln(wbar + w e^x) for x <= 0, w + wbar = 1
        m = math.expm1(x)
        if w * m > -0.5:
            return math.log1p(w * m)
        a, b = math.log(wbar), math.log(w) + x
        return max(a, b) + math.log1p(math.exp(-abs(a - b)))
    if theta > 0:                # written in e^{-theta} so that nothing overflows
        e = math.exp(-theta)
        k1 = k * (theta + log_mix(q, p, -theta)) if k else 0.0
        k2 = (N - k) * (theta + log_mix(p, q, -theta)) if N - k else 0.0
        d1 = k * p / (p + q * e)
        d2 = (N - k) * q / (q + p * e)
    else:
        k1 = k * log_mix(p, q, theta) if k else 0.0
        k2 = (N - k) * log_mix(q, p, theta) if N - k else 0.0
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


def _direct(s, N: int, k: int, q: float, with_previous: bool = False):
    """ln P[A = s] for an integer array s (-inf outside [0, N]) by the conditional sum
    sum_j t_j, t_j = P[Bin(k, p) = j] P[Bin(N - k, q) = s - j].  The largest term is computed in Loader's
    saddle-point form (:func:`numeric.sampling._log_binom`), the others from it by products of the exact
    term ratio t_{j+1}/t_j = rho (k - j)(s - j) / ((j + 1)(N - k - s + j + 1)), rho = (p/q)^2 (a positive
    rational function: relative error about 5 d roundoffs at d steps from the largest term; in log space
    when rho is beyond the float range).  The terms are log-concave in j; the sum runs over the terms
    within e^-45 of the largest, extended until the terms at its ends are that small, so the rest is below
    e^-60 times a geometric series.  With ``with_previous``, ln P[A = s - 1] from the same terms too
    (t_j P[Bin(N - k, q) = s - 1 - j] / P[Bin(N - k, q) = s - j] = t_j (s - j) / (N - k - s + j + 1) (p/q)),
    returned as a second array."""
    s = np.asarray(s, dtype=np.int64)
    out = np.full(s.shape, -np.inf)
    prev = np.full(s.shape, -np.inf)
    ok = (s >= 0) & (s <= N)
    sv = s[ok].astype(float)
    if sv.size == 0:
        return (out, prev) if with_previous else out
    p = 1.0 - q
    M = N - k
    jlo = np.maximum(0.0, sv - M)
    jhi = np.minimum(float(k), sv)
    lrho = 2.0 * (math.log1p(-q) - math.log(q))
    # mode of the summand: root of rho (k - j)(s - j) = (j + 1)(M - s + j + 1)
    rho = math.exp(min(lrho, 700.0))
    a = rho - 1.0
    b = rho * (k + sv) + (M - sv + 2.0)
    c = rho * k * sv - (M - sv + 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        disc = np.sqrt(np.maximum(b * b - 4.0 * a * c, 0.0))
        jm = np.where(a > 0, 2.0 * c / np.where(b + disc > 0, b + disc, 1.0), c / np.where(b > 0, b, 1.0))
    jm = np.where(np.isfinite(jm), jm, jhi)
    jm = np.clip(np.round(jm), jlo, jhi)
    # the largest term: walk to it (the rounded root is within a step or two of it)
    for _ in range(4):
        with np.errstate(divide="ignore", invalid="ignore"):
            up = (jm < jhi) & (lrho + np.log((k - jm) * (sv - jm)) > np.log((jm + 1.0) * (M - sv + jm + 1.0)))
            down = (jm > jlo) & (lrho + np.log((k - jm + 1.0) * (sv - jm + 1.0)) < np.log(jm * (M - sv + jm)))
        jm = jm + up - down
    t0 = _log_b1(jm, k, q) + _log_b2(sv - jm, M, q)
    var = 1.0 / (1.0 / (jm + 1.0) + 1.0 / (k - jm + 1.0) + 1.0 / (sv - jm + 1.0) + 1.0 / (M - sv + jm + 1.0))
    width = max(1, int(min(np.max(jhi - jlo), math.ceil(9.5 * math.sqrt(float(np.max(var)))) + 16)))
    linear = lrho < 600.0
    lpq = math.log1p(-q) - math.log(q)
    while True:
        d = np.arange(1, width + 1, dtype=float)
        res = np.empty(sv.size)
        res_prev = np.empty(sv.size)
        edge_ok = True
        rows = max(1, _DIRECT_CELLS // (2 * d.size + 1))
        for r0 in range(0, sv.size, rows):
            sl = slice(r0, r0 + rows)
            j0, s_, lo_, hi_ = jm[sl, None], sv[sl, None], jlo[sl, None], jhi[sl, None]
            ju = j0 + d                 # terms above the largest: t_{j+1} = t_j r_j, r_j at j = ju - 1
            jd = j0 - d                 # below: t_{j-1} = t_j / r_{j-1}, r_{j-1} at j = jd
            okd = jd >= lo_
            oku = ju <= hi_
            with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
                if linear:
                    ru = rho * ((k - ju + 1.0) * (s_ - ju + 1.0)) / (ju * (M - s_ + ju))
                    rd = (jd + 1.0) * (M - s_ + jd + 1.0) / (rho * ((k - jd) * (s_ - jd)))
                    tu = np.log(np.cumprod(np.where(oku, ru, 0.0), axis=1))
                    td = np.log(np.cumprod(np.where(okd, rd, 0.0), axis=1))
                else:
                    lu = lrho + np.log((k - ju + 1.0) * (s_ - ju + 1.0)) - np.log(ju * (M - s_ + ju))
                    ld = np.log((jd + 1.0) * (M - s_ + jd + 1.0)) - lrho - np.log((k - jd) * (s_ - jd))
                    tu = np.cumsum(np.where(oku, lu, -np.inf), axis=1)
                    td = np.cumsum(np.where(okd, ld, -np.inf), axis=1)
            # the end terms must be negligible unless they lie past the end of the support
            more_u = ju[:, -1:] < hi_                # terms beyond the last one taken
            more_d = jd[:, -1:] > lo_
            if np.any(np.maximum(np.where(more_u[:, 0], tu[:, -1], -np.inf),
                                 np.where(more_d[:, 0], td[:, -1], -np.inf)) > -45.0):
                edge_ok = False
                if width < np.max(jhi - jlo):
                    break
            with np.errstate(under="ignore"):
                eu, ed = np.exp(tu), np.exp(td)
                res[sl] = t0[sl] + np.log1p(np.sum(eu, axis=1) + np.sum(ed, axis=1))
                if with_previous:
                    # t_j (s - j) / (M - s + j + 1) (p/q): the terms of P[A = s - 1]
                    def w(j):
                        return np.where((j >= lo_) & (j <= hi_) & (j < s_) & (M - s_ + j + 1.0 > 0),
                                        (s_ - j) / np.maximum(M - s_ + j + 1.0, 1.0), 0.0)
                    w0 = w(j0)[:, 0]
                    tot = w0 + np.sum(eu * w(ju), axis=1) + np.sum(ed * w(jd), axis=1)
                    with np.errstate(divide="ignore"):
                        res_prev[sl] = t0[sl] + lpq + np.log(tot)
        if edge_ok or width >= np.max(jhi - jlo):    # (terms are never all taken short of the support)
            break
        width = int(min(2 * width, np.max(jhi - jlo)))
    out[ok] = res
    if not with_previous:
        return out
    prev[ok] = res_prev
    return out, prev


def _pair(s: int, N: int, k: int, q: float):
    """(ln P[A = s - 1], ln P[A = s]) by :func:`_direct`, for any integer s."""
    if 1 <= s <= N and s <= N - k:       # every term of P[A = s - 1] is a term of P[A = s] times a ratio
        a, b = _direct(np.array([s]), N, k, q, with_previous=True)
        return float(b[0]), float(a[0])
    a = _direct(np.array([s - 1, s]), N, k, q)
    return float(a[0]), float(a[1])


def _positive_recurrence(coef, K: int, ly1: float, ly2: float) -> np.ndarray:
    """ln y_i for y_i = b_i y_{i-1} + c_i y_{i-2} (i = 0..K-1), b_i >= 0, c_i > 0, given ln y_{-1} and
    ln y_{-2}; ``coef(i)`` returns (b_i, c_i) for a float array of integers i (any shape; fresh arrays),
    each monotone in i.  Only products and
    sums of nonnegative numbers: each y_i has the relative error of the starting values plus a few
    roundoffs per step (no cancellation anywhere).

    Vectorised in blocks of ``bl`` steps: the first rows (P_j, Q_j) of the transfer matrices of the first
    j steps of every block (products of nonnegative 2 x 2 matrices) are formed for all blocks at once,
    the starting state (u, v) of each block follows by a short loop over blocks, and then
    y = P_j u + Q_j v everywhere at once.  Every rescaling is by a power of two (exact), the exponents
    carried as integers; rescaling every ``every`` steps keeps the entries within the float range, since
    one step multiplies the largest entry by at most max(b + c, 1) and the sum of the first row is
    divided by at most 1/min(c, 1) over two steps."""
    if K == 0:
        return np.empty(0)
    top = max(ly1, ly2)
    y1, y2 = math.exp(ly1 - top), math.exp(ly2 - top)
    nb = max(1, min(K, int(4.0 * math.sqrt(K))))
    bl = -(-K // nb)
    nb = -(-K // bl)
    # b and c are monotone in i (rational functions of s with one sign of derivative): extremes at the ends
    b_end, c_end = coef(np.array([0.0, K - 1.0]))
    grow = max(1.0, float(np.max(b_end + c_end)))
    shrink = min(1.0, float(np.min(c_end)))
    if not (math.isfinite(grow) and shrink > 0.0):
        raise FloatingPointError("recurrence coefficients outside the float range")
    every = max(1, int(400.0 / max(math.log2(grow), -math.log2(shrink), 1.0)))
    # phase 1: P_j, Q_j (first row of the transfer matrix of the first j + 1 steps of every block) and
    # the second row, all blocks at once; step i is at [i % bl, i // bl]; the last block is padded with
    # steps y_i = y_{i-1}, dropped at the end
    starts = float(bl) * np.arange(nb, dtype=float)
    last = K - bl * (nb - 1)
    P = np.empty((bl, nb))
    Q = np.empty((bl, nb))
    E = np.empty((bl, nb))
    t11, t12 = np.ones(nb), np.zeros(nb)
    t21, t22 = np.zeros(nb), np.ones(nb)
    texp = np.zeros(nb)
    for j in range(bl):
        bj, cj = coef(starts + j)
        if j >= last:
            bj[-1], cj[-1] = 1.0, 0.0
        t11, t12, t21, t22 = bj * t11 + cj * t21, bj * t12 + cj * t22, t11, t12
        if (j + 1) % every == 0 or j == bl - 1:
            _, e = np.frexp(np.maximum(np.maximum(t11, t12), np.maximum(t21, t22)))
            t11, t12, t21, t22 = (np.ldexp(v, -e) for v in (t11, t12, t21, t22))
            texp = texp + e
        P[j], Q[j], E[j] = t11, t12, texp
    # phase 2: the state at the start of each block (normalised; exponent carried exactly)
    u, v = np.empty(nb), np.empty(nb)
    uexp = np.empty(nb)
    e_run = 0
    frexp, ldexp = math.frexp, math.ldexp
    for i, (a11, a12, a21, a22, ae) in enumerate(zip(t11.tolist(), t12.tolist(), t21.tolist(), t22.tolist(),
                                                      texp.astype(np.int64).tolist())):
        u[i], v[i], uexp[i] = y1, y2, e_run
        a1 = a11 * y1 + a12 * y2
        a2 = a21 * y1 + a22 * y2
        e = frexp(max(a1, a2))[1]
        y1, y2 = ldexp(a1, -e), ldexp(a2, -e)
        e_run += e + ae
    # phase 3: every value at once (in place: large temporaries are slow to allocate)
    np.multiply(P, u, out=P)
    np.multiply(Q, v, out=Q)
    np.add(P, Q, out=P)
    with np.errstate(divide="ignore"):
        np.log(P, out=P)
    E += uexp                          # integers below 2^53: exact
    E *= _LN2
    E += top
    P += E
    res = P
    return res.T.reshape(-1)[:K]


def _count_window(N, k, q, log_floor=-800.0):
    """The law of A = Bin(k, 1 - q) + Bin(N - k, q) (independent) on a window of its support.

    Source: k-randomization (003), Section 3.1 (A_n(m) with n = N, m = k).

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

    The relative error of the starting values includes the resolution of their logarithms as floats,
    |ln P| 2^-52 (2e-13 at ln P = -800, but 1e-10 at ln P = -5e5): with a very low ``log_floor`` the whole
    window carries it.  Accuracy achieved (tests against mpmath at 50 digits): relative error of each
    returned probability below 1e-10 for N <= 10^9 at every point of the window, log_floor = -800 (observed: 1e-14 to 1e-12
    for windows up to 4e5 points, up to 7e-11 for windows of 1e6 points (N = 10^9, q = 0.2, k = 3); the
    error grows with the number K of recurrence steps, bound 1e-13 + 6 K 2^-53).

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
    if True:                                       # one method for every k (k = 0, k = N included)
        M = N - k
        cond_width = 14.0 * math.sqrt(min(k, M) * q * (1.0 - q) + 1.0) + 32.0
        if size * cond_width <= _DIRECT_SMALL:
            vals = _direct(np.arange(lo - 1, hi + 2), N, k, q)
            below, win, above = vals[0], vals[1:-1], vals[-1]
            a_lo, a_hi = vals[1], vals[-2]
        else:
            below, a_lo = _pair(lo, N, k, q)
            a_hi, above = _pair(hi + 1, N, k, q)
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
    Rx = Bq / (P * Q)                              # (p^2 + q^2)/(p q) as R + R_lo (the same rounding at every
    R = float(Rx)                                  # step would add up over the K steps: K 2^-53 coherently)
    R_lo = float(Rx - Fraction(R))
    out = np.empty(hi - lo + 1)
    # upward: a_{s+1} from a_s, a_{s-1} for s = lo..s_max (C_s >= 0)
    s_max = min(hi - 1, math.floor(sc))
    if s_max >= lo:
        def coef_up(i):
            s = i + lo
            den = s + 1.0
            c = np.subtract(N + 1.0, s)
            c /= den
            s -= s0                     # exact (integers)
            s -= d                      # one rounding
            s /= den
            s *= -1.0
            return s * R + s * R_lo, c
        out[1:s_max - lo + 2] = _positive_recurrence(coef_up, s_max - lo + 1, a_lo, below)
    # downward: a_{s-1} from a_s, a_{s+1} for s = hi..s_min (C_s <= 0)
    s_min = max(lo + 1, math.ceil(sc))
    if s_min <= hi:
        def coef_down(i):
            s = hi - i
            den = np.subtract(N + 1.0, s)
            c = s + 1.0
            c /= den
            s -= s0
            s -= d
            s /= den
            return s * R + s * R_lo, c
        down = _positive_recurrence(coef_down, hi - s_min + 1, a_hi, above)
        out[s_min - 1 - lo:hi - lo] = down[::-1]   # a_{s_min-1}, ..., a_{hi-1}
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


# == public functions ==========================================================================================
_Q_DOMAIN = "in (0, 1/2] (the lie probability; q = 1/2 reports a fair coin)"


def _lie(q) -> float:
    return scalar("q", q, 0.0, 0.5, lo_open=True)


def _integers(name: str, value) -> np.ndarray:
    arr = as_float(name, value, finite=True)
    require(arr == np.round(arr), name, "integer-valued")
    return arr


def _log_law(n: int, m: int, q: float, s: np.ndarray) -> np.ndarray:
    """ln P[A_n(m) = s] for an integer-valued float array s (-inf outside 0..n)."""
    out = np.full(s.shape, -np.inf)
    ok = (s >= 0) & (s <= n)
    if not ok.any():
        return out
    sv = s[ok]
    if sv.size <= 8:
        out[ok] = _direct(sv.astype(np.int64), n, m, q)
        return out
    start, lp, _ = _count_window(n, m, q)
    pos = sv - start
    inside = (pos >= 0) & (pos < lp.size)
    vals = np.empty(sv.size)
    vals[inside] = lp[pos[inside].astype(np.intp)]
    if (~inside).any():                      # beyond e^-800: the conditional sums themselves
        vals[~inside] = _direct(sv[~inside].astype(np.int64), n, m, q)
    out[ok] = vals
    return out


@provenance("kr.vector_pmf")
def rr_pmf(x, y, q, log=False):
    r"""Probability that bit-vector randomization reports ``y`` for the record ``x``:
    :math:`P[R(x) = y] = p^{L - \delta(x, y)} q^{\delta(x, y)}`, p = 1 - q, with :math:`\delta` the Hamming
    distance of the bit vectors.

    Source: k-randomization (003), Section 2.1 (each of the L bits is flipped independently with the
    lie probability q).

    Parameters: ``x``, ``y`` arrays of bits (0 or 1) whose last axis holds the L bits; they broadcast
    together (the last axes must agree).  ``q`` a scalar in (0, 1/2]: the paper takes 0 < q < 1/2; q = 1/2 is
    allowed (every report has probability 2^-L).  ``log``: return ln P.  A NumPy scalar for one pair.
    Accuracy: ln P = (L - d) log1p(-q) + d ln q, a few roundoffs.

    >>> float(rr_pmf([1, 0, 1], [1, 1, 1], 0.25))   # (3/4)^2 (1/4)
    0.140625
    """
    log = boolean("log", log)
    q = _lie(q)
    try:
        shape = memory_for(3, x=x, y=y)
    except ParameterError as clash:           # a value that is not an array of numbers is named first
        as_float("x", x)
        as_float("y", y)
        raise clash
    if len(shape) == 0:
        fail("x", "an array of bits whose last axis holds the L bits (not a scalar)")
    xa = as_float("x", x)
    require((xa == 0) | (xa == 1), "x", "made of bits (0 or 1)")
    ya = as_float("y", y)
    require((ya == 0) | (ya == 1), "y", "made of bits (0 or 1)")
    L = shape[-1]
    d = np.sum(np.broadcast_to(xa, shape) != np.broadcast_to(ya, shape), axis=-1)
    lp = (L - d) * math.log1p(-q) + d * math.log(q)
    return scalar_out(lp if log else np.exp(lp))


def _nmq(n, m, q):
    n = count("n", n, 0, _MAX_N)
    m = count("m", m, 0)
    if m > n:
        fail("m", f"an integer in [0, n] = [0, {n}]", m)
    return n, m, _lie(q)


@provenance("kr.count_law")
def count_pmf(n, m, q, s=None, log=False):
    r"""Law of the number of reported ones :math:`A_n(m) \sim \mathrm{Bin}(m, p) + \mathrm{Bin}(n - m, q)` when m
    of the n one-bit records are 1 (p = 1 - q).

    Source: k-randomization (003), Section 3.1.

    Parameters: integers 0 <= m <= n (n up to 10^12: the cost grows like sqrt(n), about 3 s of CPU there;
    above it ``ValueError`` naming ``n``), scalars; ``q`` in (0, 1/2] (the paper takes
    0 < q < 1/2; at q = 1/2, A_n(m) ~ Bin(n, 1/2) for every m).  ``s``: an array of integer counts, the
    points at which the pmf is wanted (0 outside 0..n); ``s=None`` returns the whole pmf on 0..n, refused
    (naming ``n``, pass ``s``) when that array would exceed the memory limit.  ``log``: return ln P
    (-inf where P = 0).

    Method and accuracy: the window of :func:`_count_window` (a positive three-term recurrence in s),
    the conditional sum sum_j P[Bin(m, p) = j] P[Bin(n - m, q) = s - j] at points beyond e^-800 and when
    at most 8 points are asked for.  Relative error of each probability below 1e-10 (n <= 10^9), also
    in the far tails, plus the resolution of ln P as a float (``|ln P|`` 2^-52, which exceeds 1e-10 only
    below P = e^-450000; use ``log=True`` there, the probabilities themselves underflow to 0 below
    about 1e-308).

    >>> [round(float(v), 12) for v in count_pmf(2, 1, 0.25)]   # (q p, p^2 + q^2, p q)
    [0.1875, 0.625, 0.1875]
    """
    log = boolean("log", log)
    n, m, q = _nmq(n, m, q)
    if s is None:
        memory("n", 3 * (n + 1), what="the whole pmf on 0..n (pass s, the points wanted)")
        # the whole support from its ends, then the points above e^-800 again from the window's ends: the
        # recurrence carries the relative error of its starting values, |ln P| 2^-52 at the ends of the support
        _, lp, _ = _count_window(n, m, q, log_floor=-math.inf)
        start, mid, _ = _count_window(n, m, q)
        lp[start:start + mid.size] = mid
    else:
        memory_for(3, s=s)
        sa = _integers("s", s)
        lp = _log_law(n, m, q, sa.reshape(-1)).reshape(sa.shape)
    with np.errstate(under="ignore"):
        return scalar_out(lp if log else np.exp(lp))


@provenance("kr.ratio_reduction", "kr.recursion_zero", "kr.agg.pure_epsilon")
def privacy_ratio(s, m, n, q, log=False):
    r"""The privacy ratio :math:`\pi(s; m) = P[A_n(m) = s] / P[A_n(m + 1) = s]`, m = 0..n-1.

    Source: k-randomization (003), Section 3.1 (definition of pi(s; m)) and the recursion (3.3):
    conditioning on one original 0, A_n(m) = Ber(q) + B and A_n(m + 1) = Ber(p) + B with
    B = A_{n-1}(m), so with b_s = P[B = s]

        pi(s; m) = (q b_{s-1} + p b_s) / (p b_{s-1} + q b_s) = (q + p r) / (p + q r),   r = b_s / b_{s-1},

    a ratio of positive sums computed from ln r (no cancellation).  It lies in [q/p, p/q]: p/q at s = 0
    (b_{-1} = 0) and q/p at s = n (b_n = 0), the pure-epsilon bound of the aggregated counts
    (kr.agg.pure_epsilon); it decreases in s (b is log-concave).

    Parameters: ``s`` an array of integer counts in [0, n]; scalars n >= 1, 0 <= m <= n - 1, q in
    (0, 1/2] (q = 1/2: the ratio is 1).  ``log``: return ln pi.  Accuracy: relative 1e-10 or better
    (that of b, see :func:`count_pmf`).

    >>> float(privacy_ratio(0, 0, 3, 0.25)), float(privacy_ratio(3, 0, 3, 0.25))   # p/q and q/p
    (3.0, 0.3333333333333333)
    """
    log = boolean("log", log)
    n = count("n", n, 1, _MAX_N)
    m = count("m", m, 0)
    if m > n - 1:
        fail("m", f"an integer in [0, n - 1] = [0, {n - 1}]", m)
    q = _lie(q)
    memory_for(6, s=s)
    sa = _integers("s", s)
    require((sa >= 0) & (sa <= n), "s", f"a count in [0, n] = [0, {n}]")
    flat = sa.reshape(-1)
    lb = _log_law(n - 1, m, q, np.concatenate([flat, flat - 1.0]))
    t = lb[flat.size:] - lb[:flat.size]          # ln(b_{s-1} / b_s), in [-inf, inf]
    lq, lpp = math.log(q), math.log1p(-q)
    # ln[(q b_{s-1} + p b_s) / (p b_{s-1} + q b_s)] = logaddexp(lq + t, lp) - logaddexp(lp + t, lq)
    with np.errstate(invalid="ignore"):
        lr = np.logaddexp(lq + t, lpp) - np.logaddexp(lpp + t, lq)
    lr = np.where(t == np.inf, lq - lpp, np.where(t == -np.inf, lpp - lq, lr))
    lr = np.clip(lr, lq - lpp, lpp - lq).reshape(sa.shape)
    return scalar_out(lr if log else np.exp(lr))


@provenance("kr.quantile_step")
def count_quantile(n, m, q, alpha):
    r"""The alpha-quantile of A_n(m): :math:`\tau_n(m) = \inf\{y : F_{n,m}(y) \ge \alpha\}`, an integer.

    Source: k-randomization (003), Section 3.1.3 (where tau_n(m) - tau_n(m - 1) is 0 or 1).

    Parameters: integers 0 <= m <= n (scalars), q in (0, 1/2], ``alpha`` an array in (0, 1].  The cdf is
    the running sum of the window of :func:`_count_window` (every point above e^-800; the mass below the
    window, at most e^-799, is left out), summed exactly in blocks; alpha = 1 gives n.  A value of alpha
    within a relative 1e-10 of a value of the cdf may fall on either side of it.  Returns int64 values
    (a NumPy scalar for scalar alpha).

    >>> int(count_quantile(2, 1, 0.25, 0.5)), int(count_quantile(2, 1, 0.25, 0.1875)), int(count_quantile(2, 1, 0.25, 0.19))
    (1, 0, 1)
    """
    n, m, q = _nmq(n, m, q)
    memory_for(4, alpha=alpha)
    a = as_float("alpha", alpha)
    require((a > 0) & (a <= 1), "alpha", "in (0, 1]")
    start, lp, _ = _count_window(n, m, q)
    top = float(np.max(lp))
    w = np.exp(lp - top)
    cdf = np.cumsum(w)
    # exact-ish normalisation: cdf / total, the window holds all but e^-799 of the mass
    total = math.fsum(w.tolist()) if w.size <= 1 << 20 else float(np.sum(w))
    cdf = cdf / total
    idx = np.searchsorted(cdf, a.reshape(-1) * (1.0 - 1e-15), side="left")
    idx = np.minimum(idx, lp.size - 1)
    res = (start + idx).astype(np.int64)
    res = np.where(a.reshape(-1) >= 1.0, n, res).reshape(a.shape)
    return scalar_out(res)
