"""AboveThreshold (``private-deciles`` (001), Canesse, "Rapport de stage", ENS Lyon 2022, Section 2.1;
Dwork and Roth, "The Algorithmic Foundations of Differential Privacy", 2014, p. 57): its exact output law,
its exact privacy loss between two query vectors, and a search for the worst pair of neighbours.

The mechanism as printed: noisyThreshold = T + Lap(2/eps); for each query in order, nu = Lap(4/eps), and the
first query with value + nu > noisyThreshold is returned (its 0-based index); -1 when none fires.  With t the
noisy threshold, F the cdf of the query noise Lap(b) (b = 4/eps) and l_2 the density of Lap(2/eps),

    P(A = k)  = int l_2(t - T) prod_{i<k} F(t - y_i) (1 - F(t - y_k)) dt,
    P(A = -1) = int l_2(t - T) prod_{i<K} F(t - y_i) dt

(the output law of the proof of Theorem 2.1.0.1, ``pd.at.output_law``).  The integrand is log-concave in t
(every factor is), piecewise exponential with kinks at T and at the y_i.  How it is integrated, and the bound
on the error, are in the docstring of :func:`above_threshold_pmf`.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ._common import (ParameterError, _shape_of, as_float, as_rng, boolean, count, fail, memory, provenance, require, scalar,
                      scalar_out)

__all__ = ["above_threshold", "above_threshold_pmf", "above_threshold_privacy_loss", "above_threshold_worst_case"]

_LN2 = math.log(2.0)
_R2 = 1.0 - 2.0 ** -0.5           # 1 - 1/sqrt(2): |1 - x| >= _R2 when |x| <= 1/sqrt(2)
_LAMBDA = 40.0                    # left truncation: the integrand is below e^-40 of its maximum left of L
_QUAD_TOL = 1e-14                 # bound on the relative quadrature error of each probability
_SERIES_TOL = 1e-17               # bound on the truncated tail of the series in ln G, absolute
_TAIL_X = 0.02                    # the Jacobi tail starts where sum_i x_i <= 0.02
_FAR = 50.0                       # kinks more than 50 b below L are left out of the series (e^-50 each)
_N_GL = 8                         # Gauss-Legendre nodes per sub-interval
_N_JAC = 10                       # Gauss-Jacobi nodes of the right tail
_MIN_ROWS, _MAX_ROWS = 16, 256    # outputs per chunk (one left end L each)
_BATCH_ROWS = 160                 # outputs evaluated in one call (short chunks joined, long ones split)
_REFERENCE = False                # True: the earlier, slower evaluation (one call per chunk), kept to test against


# == quadrature rules ====================================================================================
@lru_cache(maxsize=None)
def _gauss_legendre(n: int):
    x, w = np.polynomial.legendre.leggauss(n)
    return (x + 1.0) / 2.0, w / 2.0                 # on [0, 1]


@lru_cache(maxsize=None)
def _gauss_jacobi(n: int, beta: float):
    """Nodes u in (0, 1) and weights of int_0^1 u^beta g(u) du (beta > -1)."""
    from scipy.special import roots_jacobi

    x, w = roots_jacobi(n, 0.0, beta)
    return (x + 1.0) / 2.0, w * 2.0 ** (-beta - 1.0)


# == segmented scans over ragged rows =====================================================================
def _segmented_scan(decay, add, start):
    """X_j = X_{j-1} * decay_j + add_j along the flat array, restarting (X_{j-1} = 0) where ``start`` is True.
    ``decay`` and ``add`` are (n,) or (n, M) nonnegative arrays; Hillis-Steele doubling, log2(longest row)
    steps, sums and products of nonnegative numbers only (no cancellation)."""
    X = np.array(add, dtype=float, copy=True)
    D = np.array(decay, dtype=float, copy=True)
    if X.ndim == 2:
        D[start, :] = 0.0
    else:
        D[start] = 0.0
    n = X.shape[0]
    s = 1
    with np.errstate(under="ignore"):
        while s < n:
            if not D[s:].any():
                break
            Xs = X[:-s] * D[s:]
            X[s:] += Xs
            D[s:] = D[s:] * D[:-s]
            s *= 2
    return X


# == the law =================================================================================================
def _deterministic_law(y, T):
    """No noise at all (eps = inf): A is the first k with y_k > T, or -1."""
    out = np.zeros(y.size + 1)
    above = np.flatnonzero(y > T)
    out[above[0] if above.size else -1] = 1.0
    return out


def _exact_threshold_log_law(y, T, b):
    """Threshold without noise, queries with Lap(b): ln P(A = k) = sum_{i<k} ln F(T - y_i) + ln S(T - y_k)."""
    x = T - y                                              # F(x) = P(nu <= x)
    with np.errstate(divide="ignore"):
        lF = np.where(x < 0, x / b - _LN2, np.log1p(-0.5 * np.exp(-np.abs(x) / b)))
        lS = np.where(x >= 0, -x / b - _LN2, np.log1p(-0.5 * np.exp(-np.abs(x) / b)))
    cum = np.concatenate(([0.0], np.cumsum(lF)))
    return np.concatenate((cum[:-1] + lS, cum[-1:]))


def _left_end(old_v, old_c, Ap, A2, b):
    """L such that the integrand of every output k >= k0 is below e^-_LAMBDA of its maximum left of L, from the
    earlier values y_0..y_{k0-1} alone (sorted unique ``old_v`` with multiplicities ``old_c``): -inf when they do
    not give one.

    Reason.  At the maximum t* of the (log-concave) integrand, at most A' = 1 + b/b_T earlier values lie at or
    above t* (each adds 1/b to the slope of ln G, while w and S take at most 1/b_T + 1/b off it), so t* >= a,
    the A''-th largest earlier value (A'' = ceil(A' + 1)), and left of a the slope is at least
    (N(s) - A')/b >= 1/b, N(s) the number of earlier values above s.  Hence ln f(t*) - ln f(t) >=
    D(t) = int_t^a (N(s) - A')/b ds, and L solves D(L) = _LAMBDA; below L the integrand decays at least like
    e^{-(L - t)/b}, so the mass left of L is at most e^-_LAMBDA b f(t*) <= e^-_LAMBDA (1 + b/b_T) P(A = k)
    (P(A = k) >= f(t*) b b_T/(b + b_T): the slope is never below -(1/b_T + 1/b))."""
    if old_c.sum() < A2:
        return -math.inf
    top = min(old_v.size, 4096)
    while True:
        vd = old_v[::-1][:top]
        N = np.cumsum(old_c[::-1][:top])
        ra = int(np.searchsorted(N, A2))               # first r with N_r >= A''
        if ra < vd.size - 1:
            rates = (N[ra:-1] - Ap) / b
            D = np.cumsum(rates * (vd[ra:-1] - vd[ra + 1:]))
            j = int(np.searchsorted(D, _LAMBDA))
            if j < D.size:
                before = D[j - 1] if j > 0 else 0.0
                return float(vd[ra + j] - (_LAMBDA - before) / rates[j])
        if top == old_v.size:
            return -math.inf
        top = min(old_v.size, 4 * top)


def _series_sums(v, c, L, b, M):
    """Q_m = sum c_i e^{-m (L - v_i)/b}, m = 1..M, over values v_i <= L within _FAR b of L (the rest adds at most
    (their count) e^{-_FAR} to Q_1)."""
    Q = np.zeros(M)
    if v.size:
        keep = v >= L - _FAR * b
        e = np.exp(-(L - v[keep]) / b)
        w = c[keep].astype(float)
        for m in range(M):
            w = w * e
            Q[m] = w.sum()
    return Q


_MAX_SPAN = 1e12                  # |y_i - T|, in noise scales
_MAX_RATIO = 500.0                # query scale / threshold scale: the Gauss-Jacobi weight 2^(-b/b_T) of the
                                  # tail stays a normal float (beyond about 1000 it underflowed and a loss came out 0)


def _check_span(name, y, T, bT, b):
    """The exact law needs every |y_i - T| within _MAX_SPAN noise scales: the quadrature's rounding margin is
    about 4e-15 |ln f|, and |ln f| grows like |y_i - T| / b, so beyond that the planner can no longer certify
    a piece (it splits without end).  The error names ``name`` when the values themselves are spread that far,
    else the threshold."""
    if not y.size or b == 0.0 or bT == 0.0:
        return
    limit = _MAX_SPAN * min(b, bT)
    if float(np.max(y) - np.min(y)) > limit:
        fail(name, f"spread over at most {_MAX_SPAN:g} noise scales (min(2/epsilon, query scale) = {min(b, bT):g}) "
             "for the exact law", f"a spread of {float(np.max(y) - np.min(y)):g}")
    if float(np.max(np.abs(y - T))) > limit:
        fail("threshold", f"within {_MAX_SPAN:g} noise scales (min(2/epsilon, query scale) = {min(b, bT):g}) of "
             f"the {name} for the exact law", f"{T:g}, {float(np.max(np.abs(y - T))):g} from them")


def _log_law(y, T, bT, b):
    """ln P(A = k) for k = 0..K-1 and ln P(A = -1) (last), threshold noise Lap(bT), query noise Lap(b)."""
    K = y.size
    if K == 0:                        # no query: the output is -1
        return np.zeros(1)
    if b == 0.0:                      # eps = inf and no query_scale: no noise at all
        with np.errstate(divide="ignore"):
            return np.log(_deterministic_law(y, T))
    if bT == 0.0:
        return _exact_threshold_log_law(y, T, b)
    if b > _MAX_RATIO * bT:
        fail("query_scale", f"at most {_MAX_RATIO:g} times the threshold scale 2/epsilon for the exact law", b)
    # the law depends on (y - T)/b_T and b/b_T only: in those units the quadrature's scales are of order 1
    # (with eps near 1e154 the scales were 1e-154 and the planner asked for gigabytes)
    y, T, b, bT = (y - T) / bT, 0.0, b / bT, 1.0
    Ap = 1.0 + b / bT
    A2 = math.ceil(Ap + 1.0)
    M = 64 + int(math.ceil(math.log2(K + 2)))
    out = np.empty(K + 1)
    old_v = np.empty(0)
    old_c = np.empty(0, dtype=np.int64)
    frac_up = 1.0                     # share of the last chunk's values above L
    k0 = 0
    pending = []
    shared, n_shared = [], 0          # chunks for _shared_log_law
    use_shared = _SHARED and not _REFERENCE
    LT = _threshold_left_end(bT, b) if use_shared else -math.inf
    while k0 <= K:
        L = max(_left_end(old_v, old_c, Ap, A2, b), LT)
        cut = int(np.searchsorted(old_v, L, side="right")) if L > -math.inf else 0
        n_exp = old_v.size - cut
        # rows per chunk: the later rows of a chunk carry its earlier values above L as explicit kinks
        rows = int(min(_MAX_ROWS, max(_MIN_ROWS, (n_exp + 16) / max(frac_up, 1.0 / 16.0))))
        k1 = min(K + 1, k0 + rows)
        Q = _series_sums(old_v[:cut], old_c[:cut], L, b, M) if L > -math.inf else np.zeros(M)
        if _REFERENCE:
            out[k0:k1] = _chunk_log_law(y, T, bT, b, k0, k1, L, Q, old_v[cut:], old_c[cut:], M)
        elif use_shared and L > -math.inf and np.count_nonzero(y[k0:min(k1, K)] > L) <= _KINK_SHARE * (k1 - k0):
            # one tree for the outputs of several chunks (most outputs of this one share their integrand's shape)
            shared.append((k0, k1, L, Q, old_v[cut:].copy(), old_c[cut:].copy()))
            n_shared += k1 - k0
            if n_shared >= _SHARED_BATCH:
                _shared_log_law(y, T, bT, b, M, shared, out)
                shared, n_shared = [], 0
        else:
            # chunks are independent given their L, Q and explicit kinks: their outputs go through
            # _rows_log_law in groups of about _BATCH_ROWS (the fixed cost of each step is shared; the series
            # truncations M and Ms are chosen over each group, so their tail bounds hold for every output in it)
            if pending and (pending[0][2][5] > -math.inf) != (L > -math.inf):
                _flush_chunks(pending, out)
            pending.append((k0, k1, _chunk_rows(y, T, bT, b, k0, k1, L, Q, old_v[cut:], old_c[cut:], M)))
            if sum(a[3] for _, _, a in pending) >= _BATCH_ROWS:
                _flush_chunks(pending, out)
        new = y[k0:min(k1, K)]
        if new.size:
            frac_up = float(np.mean(new > L))
            nv, nc = np.unique(new, return_counts=True)
            at = np.searchsorted(old_v, nv)
            dup = (at < old_v.size) & (old_v[np.minimum(at, old_v.size - 1)] == nv) if old_v.size else np.zeros(nv.size, bool)
            np.add.at(old_c, at[dup], nc[dup])
            old_v = np.insert(old_v, at[~dup], nv[~dup])
            old_c = np.insert(old_c, at[~dup], nc[~dup])
        k0 = k1
    _flush_chunks(pending, out)
    if shared:
        _shared_log_law(y, T, bT, b, M, shared, out)
    return out


def _flush_chunks(pending, out):
    """ln P of the chunks in ``pending`` (k0, k1, arguments of _rows_log_law) in one call; empties it."""
    if not pending:
        return
    offs = np.cumsum([0] + [a[3] for _, _, a in pending])
    row = np.concatenate([a[0] + o for (_, _, a), o in zip(pending, offs)])
    val = np.concatenate([a[1] for _, _, a in pending])
    cnt = np.concatenate([a[2] for _, _, a in pending])
    Qrow = np.concatenate([a[4] for _, _, a in pending])
    withS_r = np.concatenate([a[6] for _, _, a in pending])
    yk_r = np.concatenate([a[7] for _, _, a in pending])
    a0 = pending[0][2]
    R = int(offs[-1])
    res = np.empty(R)
    # groups of at most _BATCH_ROWS rows (larger work arrays leave the cache and cost more per row)
    ng = -(-R // _BATCH_ROWS)
    cuts = [R * i // ng for i in range(ng + 1)]
    for r0, r1 in zip(cuts[:-1], cuts[1:]):
        sel = (row >= r0) & (row < r1) if ng > 1 else slice(None)
        res[r0:r1] = _rows_log_law(row[sel] - r0, val[sel], cnt[sel], r1 - r0, Qrow[r0:r1], a0[5], withS_r[r0:r1],
                                   yk_r[r0:r1], *a0[8:])
    for (k0, k1, _), o in zip(pending, offs):
        out[k0:k1] = res[o:o + (k1 - k0)]
    pending.clear()




_RHO = np.geomspace(1.3, 2000.0, 20)           # Bernstein-ellipse parameters tried by the quadrature bound
_NS = (2, 3, 4, 6, 8, 12, 16, 20)                       # Gauss-Legendre orders tried, the smallest sufficient one is used


class _Pieces:
    """Finite pieces [p, p + h] of the integrand of one chunk of outputs, with what ln f needs on them:
    ln f(p + s) = -ln(2 b_T) - (wd + (h - s if left_of_T else s))/b_T          (threshold density)
                  - (U + n_a (h - s))/b - n_a ln 2                              (earlier values above the piece)
                  + c ln(1 - z) - sum_m B_m z^m/m,  z = e^{-s/b}/2              (earlier values at and below p)
                  + [-(sd + s)/b - ln 2 | ln(1 - e^{-(sd + h - s)/b}/2) | 0]    (S: y_k below, above, or k = K)."""

    def __init__(self, bT, b, Ms, **a):
        self.bT, self.b, self.Ms = bT, b, Ms
        self.__dict__.update(a)

    def ell(self, g, s, r, deriv=False, series=None):
        """ln f (or its derivative in s) on pieces g at the points s from the left end and r = h - s from the
        right end (each given to the accuracy of its own size: near either end the offset from that end is
        exact enough whatever the size of h); ``series``: the value of the series term (-sum_m B_m z^m/m, or
        its derivative sum_m B_m z^m/b) when already known."""
        bT, b = self.bT, self.b
        hms = np.maximum(r, 0.0)
        z = 0.5 * np.exp(-s / b)
        left_T, na, c, side, sd = self.left_T[g], self.na[g], self.c[g], self.side[g], self.sd[g]
        Bc = self.B
        if series is None:
            acc = np.zeros(np.shape(s))
            if deriv:
                for m in range(self.Ms, 0, -1):
                    acc = acc * z + Bc[g, m - 1]
                series = acc * z / b
            else:
                for m in range(self.Ms, 0, -1):
                    acc = acc * z + Bc[g, m - 1] / m
                series = -acc * z
        if deriv:
            xk = 0.5 * np.exp(-(np.where(side == 2, sd, 0.0) + hms) / b)
            out = np.where(left_T, 1.0 / bT, -1.0 / bT) + na / b + c * (z / b) / (1.0 - z) + series
            return out + np.where(side == 1, -1.0 / b, np.where(side == 2, -(xk / b) / (1.0 - xk), 0.0))
        out = -math.log(2.0 * bT) - (self.wd[g] + np.where(left_T, hms, s)) / bT
        out = out - (self.U[g] + na * hms) / b - na * _LN2
        out = out + np.where(c > 0, c * np.log1p(-z), 0.0) + series
        with np.errstate(divide="ignore"):
            lS = np.where(side == 1, -(np.where(side == 1, sd, 0.0) + s) / b - _LN2,
                          np.where(side == 2, np.log1p(-0.5 * np.exp(-(np.where(side == 2, sd, 0.0) + hms) / b)),
                                   0.0))
        return out + lS


def _ell2(P, g, s, r):
    """(ln f, d ln f/ds) on pieces g at the points (s, r) (see _Pieces.ell)."""
    b = P.b
    z = 0.5 * np.exp(-s / b)
    acc = np.zeros(np.shape(s))
    accd = np.zeros(np.shape(s))
    if _REFERENCE:
        Bc = P.B
        for m in range(P.Ms, 0, -1):
            Bm = Bc[g, m - 1]
            acc = acc * z + Bm / m
            accd = accd * z + Bm
    else:                                           # the same numbers, the coefficients gathered once
        Bg = P.B[g, :P.Ms]
        for m in range(P.Ms, 0, -1):                # in place: acc = acc z + B_m/m, accd = accd z + B_m
            Bm = Bg[..., m - 1]
            acc *= z
            acc += Bm / m
            accd *= z
            accd += Bm
    return P.ell(g, s, r, series=-acc * z), P.ell(g, s, r, deriv=True, series=accd * z / b)


def _tangent_max(l0, a0, l1, a1, h, s0, s1):
    """Upper bound of a concave function on [s0, s1] from its values l0, l1 and slopes a0, a1 at 0 and h:
    the smaller of the two tangent lines, maximised."""
    def env(s):
        return np.minimum(l0 + a0 * s, l1 + a1 * (s - h))
    out = np.maximum(env(s0), env(s1))
    with np.errstate(divide="ignore", invalid="ignore"):
        sx = (l1 - l0 - a1 * h) / (a0 - a1)
    inside = (a0 > a1) & (sx > s0) & (sx < s1)
    return np.where(inside, np.maximum(out, env(np.where(inside, sx, s0))), out)


def _envelope_max(l0, a0, x0, l1, a1, x1, A, B):
    """max over [A, B] of min(l0 + a0 (s - x0), l1 + a1 (s - x1)): an upper bound of a concave function with
    these values and slopes at x0 and x1 (its tangent lines), plus a margin for the rounding of the lines
    (1e-15 of the magnitudes of their terms; a tangent evaluated far from its point may cancel)."""
    def env(s):
        return np.minimum(l0 + a0 * (s - x0), l1 + a1 * (s - x1))
    out = np.maximum(env(A), env(B))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sx = (l1 - l0 + a0 * x0 - a1 * x1) / (a0 - a1)
        inside = (a0 > a1) & (sx > A) & (sx < B)
        out = np.where(inside, np.maximum(out, env(np.where(inside, sx, A))), out)
        span = np.maximum(np.abs(B - x0), np.abs(A - x0)) + np.maximum(np.abs(B - x1), np.abs(A - x1))
        return out + 1e-15 * (np.abs(l0) + np.abs(l1) + (np.abs(a0) + np.abs(a1)) * span)


def _envelope_max_overhang(l0, a0, l1, a1, h, ov):
    """``_envelope_max(l0, a0, 0, l1, a1, h, -ov, h + ov)`` for tangents at 0 and h (one row each) and several
    overhangs ``ov`` (columns): the same numbers, what does not depend on the overhang computed once per row."""
    l0, a0, l1, a1, h = l0[:, None], a0[:, None], l1[:, None], a1[:, None], h[:, None]
    A, B = -ov, h + ov

    def env(s):                                    # s - 0.0 is s exactly
        return np.minimum(l0 + a0 * s, l1 + a1 * (s - h))
    out = np.maximum(env(A), env(B))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sx = (l1 - l0 + a0 * 0.0 - a1 * h) / (a0 - a1)
        inside = (a0 > a1) & (sx > A) & (sx < B)
        out = np.where(inside, np.maximum(out, env(sx)), out)
        # span = max(|B|, |A|) + max(|B - h|, |A - h|) = B + B exactly: B = fl(h + ov) >= ov, fl(B - h) <= B,
        # |A - h| = fl(ov + h) = B (h > 0, ov > 0)
        span = 2.0 * B
        return out + 1e-15 * (np.abs(l0) + np.abs(l1) + (np.abs(a0) + np.abs(a1)) * span)


_LR = np.log(_RHO * _RHO - 1.0) - math.log(32.0 / 15.0)   # ln((rho^2 - 1) 15/32) of the quadrature bound
_C_OV = 0.5 * (0.5 * (_RHO + 1.0 / _RHO) - 1.0)             # overhang of the ellipse beyond each end, per unit length
_C_BETA = 0.5 * (0.5 * (_RHO - 1.0 / _RHO))                 # its semi-minor axis, per unit length


def _graded_split(h, dL, dR, s0, s1, r0, r1):
    """Where to split the sub-intervals [s0, s1] of pieces of length h (offsets s from the left end, r = h - s
    from the right end): the midpoint in phi(s) = ln((s + dL)/(r + dR)), which grades the splits towards both
    ends (dL, dR: the distances of the nearest singular factors beyond them).  Returns (sm, rm, split): the point
    from each end (each keeps its relative accuracy, sigma(+-v) are computed without cancellation) and whether
    it lies strictly inside (in the nearer end's offset; False at the float resolution)."""
    v = 0.5 * (np.log((s0 + dL) / (r1 + dR)) + np.log((s1 + dL) / (r0 + dR)))
    H = h + dR + dL
    e = np.exp(-np.abs(v))
    sig_p = np.where(v >= 0, 1.0 / (1.0 + e), e / (1.0 + e))          # 1/(1 + e^-v)
    sig_m = np.where(v >= 0, e / (1.0 + e), 1.0 / (1.0 + e))          # 1/(1 + e^v)
    sm = np.clip(sig_p * H - dL, 0.0, h)
    rm = np.clip(sig_m * H - dR, 0.0, h)
    split = np.where(rm < sm, (rm > r0) & (rm < r1), (sm > s0) & (sm < s1))
    return sm, rm, split


def _ellipse_terms(hs, s0, r0, X0, left, dS, b):
    """The parts of the quadrature bound (see ``_plan``) that depend on the sub-interval [s0, s0 + hs] of a piece
    and not on the values of f, for every Bernstein parameter in _RHO (columns): the overhang ov of the ellipse,
    and 0.5 beta^2 kappa - ln((rho^2 - 1) 15/32), inf where the bound on |f| in the ellipse does not apply
    (a factor 1 - x e^{...} with x >= 0.95 there).  ``X0``: sum of the x_i of the factors 1 - x_i e^{-s/b} at the
    piece's left end; ``left``: whether one of them may have x = 1/2 there (a value at the left end);
    ``dS``: distance from the piece's right end to the value y_k of an S factor above it (inf: none)."""
    ov = hs[:, None] * _C_OV
    beta = hs[:, None] * _C_BETA
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        eL = np.exp((ov - s0[:, None]) / b)
        xm = np.where(left[:, None], 0.5 * eL, 0.0)
        XL = X0[:, None] * eL
        fin = np.isfinite(dS)
        xR = np.where(fin[:, None], 0.5 * np.exp((ov - (np.where(fin, dS, 0.0) + r0)[:, None]) / b), 0.0)
        kap = XL / (b * b * (1.0 - xm) ** 2) + xR / (b * b * (1.0 - xR) ** 2)
        curv = 0.5 * beta * beta * kap - _LR
    return ov, np.where((xm < 0.95) & (xR < 0.95), curv, np.inf)


def _plan(P, l0, a0, l1, a1, allow, lo_row):
    """Gauss-Legendre sub-intervals and orders for the pieces of ``P``, such that the errors of the pieces of
    one output add up to at most _QUAD_TOL times a lower bound of its probability.  ``allow`` (per piece):
    ln(_QUAD_TOL) - ln(number of pieces of the output); ``lo_row``: ln of the lower bound (raised as values
    of f are computed).  Returns (piece, s0, s1, n) per sub-interval.

    The bound (Trefethen, "Approximation Theory and Approximation Practice", SIAM 2013, Thm 19.3; SIAM Review
    50, 2008, Thm 4.5): if f is analytic in the Bernstein ellipse E_rho of [s0, s1] with |f| <= M_rho there,
    the n-point Gauss-Legendre rule errs by at most (64/15) (h_s/2) M_rho rho^{-2(n-1)}/(rho^2 - 1).  On a piece f is entire (products of exponentials
    and of factors 1 - x e^{-s/b}, x <= 1/2 at s = 0, and the S factor 1 - x e^{s/b}).  Write X for the sum
    of the x e^{-s/b} and x_max for the largest; while x_max < 1, |1 - x e^{-(s + i eta)/b}|
    <= (1 - x e^{-s/b}) e^{x e^{-s/b} (eta/b)^2/(2 (1 - x e^{-s/b})^2)}, so |f(s + i eta)| <= f(s) e^{eta^2
    kappa/2} with kappa = X/(b^2 (1 - x_max)^2) (+ the same for the S factor), X and x_max taken at the
    ellipse's left end s0 - ov (ov: its overhang, beta: its semi-minor axis).  ln f is concave there, so f
    on [s0 - ov, s1 + ov] is at most its tangent lines at s0 and s1 (exact values and slopes,
    ``_envelope_max``): M_rho <= e^{F_ext + beta^2 kappa/2}.  A sub-interval is accepted with the smallest
    order n whose bound (minimised over rho) is at most e^{allow + lo} h_s/h; it is left out when its
    integral (at most h_s e^{F}, F the envelope's maximum on it) is at most a tenth of that; otherwise it is
    split in two (graded towards the singular ends) and the midpoint evaluated."""
    b = P.b
    h = P.h
    has_left = P.cB > 0
    has_right = P.side == 2
    d0 = 0.5 * b * _LN2
    dL = np.where(has_left, d0, b)                     # the splits are graded towards both ends
    dR = np.where(has_right, d0 + np.where(has_right, P.sd, 0.0), b)
    lrho = np.log(_RHO)
    nsv = np.array(_NS, dtype=float)
    pen = (2.0 * (nsv - 1.0))[:, None] * lrho[None, :]           # pen[n, rho] = 2 (n - 1) ln rho

    # sub-intervals [s0, s1] of their pieces, also as r1 = h - s0 >= r0 = h - s1 (offsets from the right end)
    pid = np.arange(h.size)
    s0, s1 = np.zeros(h.size), h.copy()
    r0, r1 = np.zeros(h.size), h.copy()
    depth = np.zeros(h.size)
    L0, A0, L1, A1 = l0, a0, l1, a1
    outs = []
    ltol = math.log(_QUAD_TOL)

    def take(m, *xs):
        return tuple(x[m] for x in xs)
    for _ in range(200):
        if pid.size == 0:
            break
        hs = np.where(s1 <= r0, s1 - s0, r1 - r0)          # from the nearer end
        live = hs > 0                                       # (a split below the float resolution is empty)
        if not live.all():
            pid, s0, s1, r0, r1, hs, depth, L0, A0, L1, A1 = take(live, pid, s0, s1, r0, r1, hs, depth, L0, A0, L1,
                                                                  A1)
        # the budget of a sub-interval: _QUAD_TOL times a lower bound of its integral (ln f lies above its
        # chord) plus 2^-depth/2 of its piece's share (these shares add up to at most half the piece's share
        # over the leaves of the splitting tree: Kraft's inequality)
        lhs = np.log(hs)
        dl = np.abs(L1 - L0)
        with np.errstate(divide="ignore", invalid="ignore"):
            chord = np.maximum(L0, L1) + np.where(dl > 1e-9, np.log(-np.expm1(-dl) / dl), -0.5 * dl)
        budget = np.logaddexp(ltol + lhs + chord, allow[pid] + lo_row[P.row[pid]] - (depth + 1.0) * _LN2)
        zero = np.zeros(hs.size)
        F = _envelope_max(L0, A0, zero, L1, A1, hs, zero, hs)
        keep = F + lhs > budget                             # else its whole integral fits in the budget
        pid, s0, s1, r0, r1, hs, lhs, depth, budget, L0, A0, L1, A1 = take(
            keep, pid, s0, s1, r0, r1, hs, lhs, depth, budget, L0, A0, L1, A1)
        ov, curv = _ellipse_terms(hs, s0, r0, 0.5 * P.cB[pid], has_left[pid],
                                  np.where(has_right[pid], P.sd[pid], np.inf), b)
        with np.errstate(over="ignore", invalid="ignore"):
            if _REFERENCE:
                Fx = _envelope_max(L0[:, None], A0[:, None], 0.0, L1[:, None], A1[:, None], hs[:, None], -ov,
                                   hs[:, None] + ov)
            else:
                Fx = _envelope_max_overhang(L0, A0, L1, A1, hs, ov)
            base = Fx + curv
        if _REFERENCE:
            best = np.min(base[:, :, None] - 2.0 * (nsv[None, None, :] - 1.0) * lrho[None, :, None], axis=1)
            okn = best + lhs[:, None] <= budget[:, None]   # error <= (32/15) h_s M rho^{-2(n-1)}/(rho^2 - 1)
            good = okn.any(axis=1)
            nsel = nsv[np.argmax(okn, axis=1)].astype(np.int64)
        else:
            # the same test, one order at a time: first the largest order, then the others only where it
            # passes, by bisection (the bound decreases as n grows: pen[n] increases with n for every rho, and
            # rounding is monotone, so the orders that pass are those from the smallest passing one up)
            good = np.min(base - pen[-1], axis=1) + lhs <= budget
            nsel = np.full(good.size, int(nsv[0]), dtype=np.int64)
            gi = np.flatnonzero(good)
            if gi.size:                             # the smallest passing order, by bisection
                bg, lg, ug = base[gi], lhs[gi], budget[gi]
                lo, hi = np.zeros(gi.size, dtype=np.int64), np.full(gi.size, nsv.size - 1)
                while True:
                    act = np.flatnonzero(lo < hi)
                    if not act.size:
                        break
                    mid = (lo[act] + hi[act]) // 2
                    okj = np.min(bg[act] - pen[mid], axis=1) + lg[act] <= ug[act]
                    hi[act[okj]] = mid[okj]
                    lo[act[~okj]] = mid[~okj] + 1
                nsel[gi] = nsv[hi].astype(np.int64)
        sm, rm, split = _graded_split(h[pid], dL[pid], dR[pid], s0, s1, r0, r1)
        # a sub-interval at the float resolution cannot be split: the largest order is used there
        stuck = ~good & (~split | (depth >= 150))
        nsel[stuck] = _NS[-1]
        good |= stuck
        outs.append((pid[good], s0[good], r0[good], hs[good], nsel[good]))
        bad = ~good
        pid, s0, s1, r0, r1, depth, L0, A0, L1, A1, sm, rm = take(bad, pid, s0, s1, r0, r1, depth, L0, A0, L1, A1,
                                                                  sm, rm)
        if pid.size == 0:
            break
        memory("values", 64.0 * pid.size, what="the quadrature's sub-intervals")
        Lm, Am = _ell2(P, pid, sm, rm)
        np.maximum.at(lo_row, P.row[pid], Lm + math.log(b * P.bT / (b + P.bT)))
        pid = np.concatenate((pid, pid))
        depth = np.concatenate((depth, depth)) + 1.0
        s0, s1 = np.concatenate((s0, sm)), np.concatenate((sm, s1))
        r0, r1 = np.concatenate((rm, r0)), np.concatenate((r1, rm))
        L0, A0, L1, A1 = (np.concatenate(x) for x in ((L0, Lm), (A0, Am), (Lm, L1), (Am, A1)))
    if pid.size:
        raise FloatingPointError("the quadrature bound could not be met")     # pragma: no cover
    if not outs:
        e = np.empty(0)
        return e.astype(np.int64), e, e, e, e.astype(np.int64)
    return tuple(np.concatenate(x) for x in zip(*outs))


def _chunk_log_law(y, T, bT, b, k0, k1, L, Q, E_v, E_c, M):
    """ln P(A = k) for k0 <= k < k1 (k = K is the output -1).  Every earlier value above L is an explicit kink;
    those at or below L enter through their power sums Q (referenced at L); T and y_k are kinks too."""
    return _rows_log_law(*_chunk_rows(y, T, bT, b, k0, k1, L, Q, E_v, E_c, M))


def _chunk_rows(y, T, bT, b, k0, k1, L, Q, E_v, E_c, M):
    """The arguments of _rows_log_law for the outputs k0 <= k < k1 (see _chunk_log_law)."""
    K = y.size
    R = k1 - k0
    finite_L = L > -math.inf
    ar = np.arange(R)
    zero = np.zeros(R, dtype=np.int64)
    rows, vals, cnts = [ar], [np.full(R, L if finite_L else -np.inf)], [zero]
    if E_v.size:
        rows.append(np.repeat(ar, E_v.size))
        vals.append(np.tile(E_v, R))
        cnts.append(np.tile(E_c, R))
    ri, ji = np.tril_indices(R, -1)
    yi = y[k0 + ji]
    up = yi > L
    rows.append(ri[up])
    vals.append(yi[up])
    cnts.append(np.ones(int(up.sum()), dtype=np.int64))
    Qrow = np.repeat(Q[None, :], R, axis=0)
    if finite_L:
        jj = ar[k0 + ar < K]
        yv = y[k0 + jj]
        low = yv <= L
        if low.any():
            contrib = np.zeros((R, M))
            e = np.exp(-(L - yv[low]) / b)
            with np.errstate(under="ignore"):
                contrib[jj[low]] = np.cumprod(np.repeat(e[:, None], M, axis=1), axis=1)
            Qrow[1:] += np.cumsum(contrib, axis=0)[:-1]
    if T > L:
        rows.append(ar)
        vals.append(np.full(R, T))
        cnts.append(zero)
    ks = k0 + ar
    withS_r = ks < K
    yk_r = np.zeros(R)
    yk_r[withS_r] = y[ks[withS_r]]
    sel = withS_r & (yk_r > L)
    rows.append(ar[sel])
    vals.append(yk_r[sel])
    cnts.append(zero[sel])
    return (np.concatenate(rows), np.concatenate(vals), np.concatenate(cnts), R, Qrow, L, withS_r, yk_r, T, bT, b,
            M)


def _rows_log_law(row, val, cnt, R, Qrow, L, withS_r, yk_r, T, bT, b, M):
    """ln P for R outputs ("rows"), each given by its points (``row``, ``val``, ``cnt``: the earlier values
    above L with their multiplicities, T and y_k with multiplicity 0, and one marker at L, or at -inf when
    there is no truncation), the power sums ``Qrow`` of the earlier values at or below L, whether the row has
    an S factor (``withS_r``, False for the output -1) and y_k (``yk_r``)."""
    finite_L = L > -math.inf
    order = np.lexsort((val, row))
    row, val, cnt = row[order], val[order], cnt[order]
    first = np.ones(row.size, dtype=bool)
    first[1:] = (row[1:] != row[:-1]) | (val[1:] != val[:-1])
    idx = np.flatnonzero(first)
    row, val, cnt = row[idx], val[idx], np.add.reduceat(cnt, idx)
    lens = np.bincount(row, minlength=R)
    rstart = np.concatenate(([0], np.cumsum(lens)[:-1]))
    pos = np.arange(row.size) - rstart[row]
    W = int(lens.max())
    V = np.repeat(val[rstart + lens - 1][:, None], W, axis=1)
    V[row, pos] = val
    C2 = np.zeros((R, W), dtype=np.int64)
    C2[row, pos] = cnt
    # power sums of the earlier values below each left end: B[:, j] = (B[:, j-1] + C2[:, j-1]) e^{-m gap/b}
    # how many power sums are needed: B_m <= B_16 for m >= 16, and the series' tail after Ms terms is at most
    # B_{Ms+1} 2^-Ms/(Ms+1) (z <= 1/2); B_16 from a one-column scan
    if W > 1 and M > 16:
        with np.errstate(under="ignore", invalid="ignore", over="ignore"):
            e16 = np.nan_to_num(np.exp(-16.0 * (V[:, 1:] - V[:, :-1]) / b), nan=0.0)
        b16 = Qrow[:, 15].copy() if finite_L else np.zeros(R)
        top16 = b16.max()
        for j in range(1, W):
            b16 = (b16 + C2[:, j - 1]) * e16[:, j - 1]
            top16 = max(top16, float(b16.max()))
        mm = np.arange(16, M)
        fit = top16 * 2.0 ** (-mm) / (mm + 1.0) <= _SERIES_TOL
        M = int(mm[np.argmax(fit)]) + 1 if fit.any() else M
        Qrow = Qrow[:, :M]
    Bt = np.empty((W, R, M))                          # Bt[j, r] = B of row r at its j-th left end
    Bt[0] = Qrow if finite_L else 0.0
    if W > 1:
        with np.errstate(under="ignore", invalid="ignore", over="ignore"):
            e1 = np.nan_to_num(np.exp(-(V[:, 1:] - V[:, :-1]) / b), nan=0.0).T
            if _REFERENCE:
                PW = np.cumprod(np.repeat(e1[:, :, None], M, axis=2), axis=2)
            else:
                PW = np.cumprod(np.broadcast_to(e1[:, :, None], e1.shape + (M,)), axis=2)
            C2t = C2.T[:, :, None]
            for j in range(1, W):
                np.add(Bt[j - 1], C2t[j - 1], out=Bt[j])
                Bt[j] *= PW[j - 1]
    # the earlier values above each piece: n_a = sum_{q > j} c_q, U = sum_{q > j} c_q (V_q - V_{j+1})
    n_a = np.cumsum(C2[:, ::-1], axis=1)[:, ::-1] - C2
    gapn = np.zeros((R, W))
    gapn[:, 1:-1] = V[:, 2:] - V[:, 1:-1]
    if finite_L and W > 1:
        gapn[:, 0] = V[:, 1] - V[:, 0]
    tm = n_a * gapn
    U = np.zeros((R, W))
    if W > 1:
        U[:, :-1] = np.cumsum(tm[:, ::-1], axis=1)[:, ::-1][:, 1:]
    pr, p = row, val
    islast = pos == lens[pr] - 1
    pn = np.where(islast, np.inf, V[pr, np.minimum(pos + 1, W - 1)])
    cp = C2[pr, pos].astype(float)
    Bp = Bt[pos, pr]
    nap = n_a[pr, pos].astype(float)
    Up = U[pr, pos]
    withS = withS_r[pr]
    ykp = yk_r[pr]
    terms_row, terms_val = [], []
    # -- left tail (-inf, P_1] in closed form (L = -inf)
    inner = np.ones(p.size, dtype=bool)
    if not finite_L:
        lt = pos == 0
        inner = ~lt
        P1 = pn[lt]
        lam = 1.0 / bT + nap[lt] / b
        lpre = -math.log(2 * bT) - (T - P1) / bT - Up[lt] / b - nap[lt] * _LN2
        c = np.where(withS[lt], 0.5 * np.exp(-np.where(withS[lt], ykp[lt] - P1, 0.0) / b), 0.0)
        I = np.where(withS[lt], (lam * (1 - c) + 1.0 / b) / (lam * (lam + 1.0 / b)), 1.0 / lam)
        terms_row.append(pr[lt])
        terms_val.append(lpre + np.log(I))
    # the number of series terms: sum_{m > Ms} B_m z^m/m <= B_{Ms+1} 2^-Ms/(Ms+1) <= _SERIES_TOL (z <= 1/2)
    if inner.all() and not _REFERENCE:
        Bmax = Bp.max(axis=0)
    else:
        Bmax = Bp[inner].max(axis=0) if inner.any() else np.zeros(M)
    mm = np.arange(M)
    okm = Bmax * 2.0 ** (-mm) / (mm + 1.0) <= _SERIES_TOL
    Ms = int(np.argmax(okm)) if okm.any() else M
    # -- right tails: a finite part [p, p + D] and Gauss-Jacobi on [p + D, inf) where sum_i x_i <= _TAIL_X
    cB_all = cp + Bp[:, 0]
    rt = inner & islast
    D = np.where(rt, np.maximum(0.0, b * np.log(np.maximum(0.5 * cB_all, 1e-300) / _TAIL_X)), 0.0)
    tidx = np.flatnonzero(rt)
    tail_row, tail_val = [], []
    if tidx.size:
        Dt = D[tidx]
        lwz = -math.log(2 * bT) - ((p[tidx] - T) + Dt) / bT
        wS = withS[tidx]
        lSz = np.where(wS, -((p[tidx] - np.where(wS, ykp[tidx], 0.0)) + Dt) / b - _LN2, 0.0)
        Mt = min(M, 16)
        with np.errstate(under="ignore"):
            Bz = (Bp[tidx, :Mt] + cp[tidx, None]) * np.exp(-np.outer(Dt, np.arange(1, Mt + 1)) / b)
        for withs, beta in ((True, b / bT), (False, b / bT - 1.0)):
            st = wS == withs
            if not st.any():
                continue
            u, wu = _gauss_jacobi(_N_JAC, float(beta))
            zz = 0.5 * u[None, :]
            acc = np.zeros((int(st.sum()), u.size))
            for m in range(Mt, 0, -1):
                acc = acc * zz + Bz[st, m - 1][:, None] / m
            lI = np.log(np.sum(wu[None, :] * np.exp(-acc * zz), axis=1))
            tail_row.append(pr[tidx[st]])
            tail_val.append(math.log(b) + lwz[st] + lSz[st] + lI)
        terms_row += tail_row
        terms_val += tail_val
    # -- finite pieces and the finite parts of the right tails
    fidx = np.flatnonzero(inner & (~islast | (D > 0)))
    if fidx.size:
        h = np.where(islast, D, pn - p)[fidx]
        left_T = (T >= pn)[fidx]
        wd = np.where(left_T, T - pn[fidx], p[fidx] - T)
        lastf = islast[fidx]
        side = np.where(~withS[fidx], 0, np.where(ykp[fidx] <= p[fidx], 1, 2))
        sd = np.where(side == 1, p[fidx] - ykp[fidx], np.where(side == 2, ykp[fidx] - pn[fidx], 0.0))
        P = _Pieces(bT, b, Ms, h=h, left_T=left_T, wd=wd, na=np.where(lastf, 0.0, nap[fidx]),
                    U=np.where(lastf, 0.0, Up[fidx]), c=cp[fidx], B=Bp[fidx] if _REFERENCE else Bp[fidx, :Ms],
                    side=side, sd=sd, cB=cB_all[fidx], row=pr[fidx])
        g = np.arange(fidx.size)
        # ln f and its slope at the left ends (z = 1/2: the series is one matrix-vector product), and at the
        # right ends from the next piece of the same row (f is continuous; its slope too, except at T where
        # ln w drops by 2/b_T); the right ends of the tails' finite parts directly
        mv = np.arange(1, Ms + 1, dtype=float)
        half = 0.5 ** mv
        Bf = Bp[fidx, :Ms] if _REFERENCE else P.B          # (only the first Ms power sums are used)
        l0 = P.ell(g, np.zeros(g.size), h, series=-(Bf @ (half / mv)))
        a0 = P.ell(g, np.zeros(g.size), h, deriv=True, series=(Bf @ half) / b)
        nxt = np.minimum(g + 1, g.size - 1)
        cont = ~lastf & (np.append(P.row[1:], -1) == P.row) & (np.append(p[fidx][1:], np.nan) == pn[fidx])
        l1 = np.where(cont, l0[nxt], 0.0)
        a1 = np.where(cont, a0[nxt] + np.where(pn[fidx] == T, 2.0 / bT, 0.0), 0.0)
        if (~cont).any():
            gi = g[~cont]
            l1[~cont] = P.ell(gi, h[gi], np.zeros(gi.size))
            a1[~cont] = P.ell(gi, h[gi], np.zeros(gi.size), deriv=True)
        # a lower bound of P(A = k): f(t0) b b_T/(b + b_T) for any t0 (the slope of ln f is >= -(1/b_T + 1/b))
        lo_row = np.full(R, -np.inf)
        np.maximum.at(lo_row, P.row, np.maximum(l0, l1))
        lo_row += math.log(b * bT / (b + bT))
        for tr_, tv_ in zip(terms_row, terms_val):
            np.maximum.at(lo_row, tr_, tv_)
        npieces = np.bincount(P.row, minlength=R)
        allow = (math.log(_QUAD_TOL) - np.log(np.maximum(npieces, 1)))[P.row]
        sp, s0, r0, hsub, ns = _plan(P, l0, a0, l1, a1, allow, lo_row)
        for n in np.unique(ns):
            sel_n = ns == n
            xg, wg = _gauss_legendre(int(n))
            hs = hsub[sel_n]
            s = s0[sel_n][:, None] + hs[:, None] * xg[None, :]
            r = r0[sel_n][:, None] + hs[:, None] * (1.0 - xg)[None, :]
            gg = sp[sel_n]
            if _REFERENCE:
                v = P.ell(gg[:, None], s, r) + np.log(wg)[None, :]
            else:                                       # the same series, its coefficients gathered once
                coef = P.B[gg, :Ms] / mv[None, :]
                zq = 0.5 * np.exp(-s / b)
                acc = np.zeros(s.shape)
                for m in range(Ms, 0, -1):              # acc = acc z + B_m/m, in place
                    acc *= zq
                    acc += coef[:, m - 1:m]
                v = P.ell(gg[:, None], s, r, series=-acc * zq) + np.log(wg)[None, :]
            vm = v.max(axis=1)
            terms_row.append(P.row[gg])
            terms_val.append(vm + np.log(np.sum(np.exp(v - vm[:, None]), axis=1)) + np.log(hs))
    tr = np.concatenate(terms_row)
    tv = np.concatenate(terms_val)
    mx = np.full(R, -np.inf)
    np.maximum.at(mx, tr, tv)
    tot = np.bincount(tr, weights=np.exp(tv - mx[tr]), minlength=R)
    return mx + np.log(tot)


# == one certified tree shared by the outputs of several chunks ===============================================
_NEAR = 25.0                      # values within 25 b below a piece: explicit factors; farther: first order
_SHARED = True                    # False: every chunk through the per-output planner (_rows_log_law), to test against
_SHARED_BATCH = 512               # integrands planned together (several chunks)
_KINK_SHARE = 0.8                 # a chunk goes to the per-output planner when more than this share of its
                                  # outputs have their own value above L (sorted values beyond the threshold)


def _threshold_left_end(bT, b):
    """A left end valid for every output when b >= 2 b_T (normalised: T = 0): left of T the slope of ln f is at
    least 1/b_T - 1/b >= 1/b (w rises at 1/b_T, every F factor rises, the S factor falls at most at 1/b), so the
    maximum lies at or right of T and f(T - d) <= f(t*) e^{-(1/b_T - 1/b) d}: left of L = -_LAMBDA/(1/b_T - 1/b)
    the integrand is below e^-_LAMBDA of its maximum and decays at least like e^{-(L - t)/b}, the conditions of
    ``_left_end``.  -inf when b < 2 b_T."""
    return -_LAMBDA / (1.0 / bT - 1.0 / b) if b >= 2.0 * bT else -math.inf


class _Shared:
    """The integrands of the outputs of several chunks, in normalised units, for one shared planner.

    Chunk (k0, k1, L, Q, E): the outputs k0 <= k < k1, the left end L, the power sums Q at L of the earlier values
    at or below L, and the earlier values E above L (with multiplicities).  Its pieces are cut at L, T (if above),
    E and the chunk's own values above L; the last finite piece ends at Z, where the x_i of every value sum to at
    most _TAIL_X, and [Z, inf) is the Gauss-Jacobi tail.  On a piece [G, H] and a point t = G + s = H - r
    (u = e^{-s/b}; s and r each exact enough near its own end), ln f of an integrand is

        -ln(2 b_T) - |t - T|/b_T                                    the threshold density
        - sum_m Q_m e^{-m (G - L)/b} (u/2)^m / m                    values at or below L (series)
        + sum_{E near} c ln(1 - x u) - u sum_{E far} c x            E at most 25 b below G; farther, first order
        - sum_{E above} c ((v - H + r)/b + ln 2)                    E at or above the right end
        + ln prod_{own near} (1 - x u) - u sum_{own far} x          the chunk's values earlier than the output
        - sum_{own above} ((y - H + r)/b + ln 2)
        + ln S                                                      the output's own factor

    with x = e^{-(G - y)/b}/2.  First order drops ln(1 - x u) + x u, between -x^2 and 0, x <= e^-25/2: below
    5e-23 per value.  The chunk's own values enter through tables over (piece, number of earlier values): how
    many lie above (and their offsets), the position among the near ones, the first-order sum of the far ones.

    Integrands ("q"): an output whose value is above L (S = 1 - F(t - y_k), kind 1); the output -1 (no S,
    kind 0); and the classes: consecutive outputs r..e-1 whose values are at or below L and whose earlier values
    among them lie more than 25 b below L.  On [L, inf) their S factors are e^{-(t - y_k)/b}/2 exactly, and the
    values between them add -d_k u_L (u_L = e^{-(t - L)/b} <= 1, d_k their first-order sum, at most
    256 e^-25/2), so P(A = k) = e^{(y_k - L)/b}/2 (J0 - d_k J1) up to a factor within d_k^2/2 of 1, with
    J_mu = int phi(t) e^{-mu (t - L)/b} dt (kind 2, mu = 1, 2) the integrals of the class's first output."""

    def __init__(self, y, T, bT, b, M, chunks):
        self.T, self.bT, self.b = T, bT, b
        K = y.size
        cols = {k: [] for k in ("G", "H", "h", "TG", "BQ", "naE", "UE", "EF", "Enx", "Enc", "Encount", "X", "dS",
                                "tab", "na", "Ua", "pos", "FP", "near")}
        q_pr, q_kind, q_yS, q_mu, q_out, q_chunk = [], [], [], [], [], []
        self.classes = []
        po, to = [], 0
        npcs = []
        mv = np.arange(1, M + 1)
        for ci, (k0, k1, L, Q, E_v, E_c) in enumerate(chunks):
            Yv = y[k0:min(k1, K)]
            n = Yv.size
            kn = [np.array([L]), E_v, Yv[Yv > L]]
            if T > L:
                kn.append(np.array([T]))
            P = np.unique(np.concatenate(kn))
            Ec = E_c.astype(float)
            with np.errstate(under="ignore"):
                X = 0.5 * (Q[0] * math.exp(-(P[-1] - L) / b) + Ec @ np.exp(-(P[-1] - E_v) / b)
                           + np.exp(-(P[-1] - Yv) / b).sum())
            D = max(0.0, b * math.log(max(X, 1e-300) / _TAIL_X))
            G = np.append(P, P[-1] + D) if D > 0 else P            # left ends; the last one starts the tail
            H = np.append(G[1:], np.inf)
            po.append(sum(npcs) + len(npcs))
            npcs.append(G.size - 1)
            cols["G"].append(G)
            cols["H"].append(H)
            cols["h"].append(H - G)
            cols["TG"].append(T - G)
            with np.errstate(under="ignore", over="ignore"):
                cols["BQ"].append(Q[None, :] * np.exp(-np.outer(G - L, mv) / b))
            d = G[:, None] - E_v[None, :]
            belowE = d >= 0
            nearE = belowE & (d <= _NEAR * b)
            with np.errstate(under="ignore"):
                eE = np.exp(-np.maximum(d, 0.0) / b) * belowE
            cols["naE"].append(np.where(belowE, 0.0, Ec).sum(axis=1))
            with np.errstate(invalid="ignore"):                      # (the tail's right end is inf)
                cols["UE"].append(np.where(belowE, 0.0, (E_v[None, :] - H[:, None]) * Ec).sum(axis=1))
            cols["EF"].append((0.5 * eE * Ec * (belowE & ~nearE)).sum(axis=1))
            jj, vv = np.nonzero(nearE)
            cols["Encount"].append(np.bincount(jj, minlength=G.size))
            cols["Enx"].append(0.5 * eE[jj, vv])
            cols["Enc"].append(Ec[vv])
            # the chunk's own values against its pieces, by the number of earlier ones (columns 0..n)
            GY = G[:, None] - Yv[None, :]
            above = Yv[None, :] >= H[:, None]
            below = GY >= 0
            near = below & (GY <= _NEAR * b)
            n1 = n + 1
            with np.errstate(invalid="ignore"):
                above_off = np.where(above, Yv[None, :] - H[:, None], 0.0)     # from the right end
            for key, val in (("na", above.astype(np.int64)), ("Ua", above_off), ("pos", near.astype(np.int64))):
                t = np.zeros((G.size, n1), dtype=val.dtype)
                np.cumsum(val, axis=1, out=t[:, 1:])
                cols[key].append(t.ravel())
            with np.errstate(under="ignore"):
                eb = np.exp(-np.maximum(GY, 0.0) / b) * below
            t = np.zeros((G.size, n1))
            np.cumsum(0.5 * eb * (below & ~near), axis=1, out=t[:, 1:])
            cols["FP"].append(t.ravel())
            cols["tab"].append(to + np.arange(G.size) * n1)
            to += G.size * n1
            ii = np.nonzero(near)
            cols["near"].append((ii[0] + po[-1], GY[ii], near.sum(axis=1)))
            cols["X"].append(0.5 * (cols["BQ"][-1][:, 0] + eE @ Ec + eb.sum(axis=1)))
            ys = np.sort(Yv[Yv > L])                             # the S values above L
            nxt = np.full(G.size - 1, np.inf)
            if ys.size:
                at_ = np.searchsorted(ys, H[:-1])
                nxt = np.where(at_ < ys.size, ys[np.minimum(at_, ys.size - 1)], np.inf)
            cols["dS"].append(np.append(nxt - H[:-1], np.inf))
            # the integrands
            r, R = 0, k1 - k0
            while r < R:
                k = k0 + r
                if k == K or Yv[r] > L:
                    kind = 0 if k == K else 1
                    q_pr.append(n if k == K else r); q_kind.append(kind); q_yS.append(0.0 if k == K else Yv[r])
                    q_mu.append(float(kind)); q_out.append(k); q_chunk.append(ci)
                    r += 1
                    continue
                e = r + 1
                while e < n and Yv[e] <= L and Yv[e - 1] <= L - _NEAR * b:
                    e += 1
                qa = len(q_pr)
                for mu in ((1.0, 2.0) if e - r > 1 else (1.0,)):
                    q_pr.append(r); q_kind.append(2); q_yS.append(L); q_mu.append(mu); q_out.append(-1)
                    q_chunk.append(ci)
                yc = Yv[r:e]
                with np.errstate(under="ignore"):
                    dk = np.concatenate(([0.0], np.cumsum(0.5 * np.exp(-(L - yc[:-1]) / b))))
                self.classes.append((qa, e - r > 1, np.arange(k0 + r, k0 + e), dk, (yc - L) / b))
                r = e
        cat = {k: (np.concatenate(v) if k != "near" else v) for k, v in cols.items() if k != "BQ"}
        self.G, self.H, self.h, self.TG = cat["G"], cat["H"], cat["h"], cat["TG"]
        BQ = np.concatenate(cols["BQ"], axis=0)
        mm = np.arange(M)
        ok = BQ.max(axis=0) * 2.0 ** (-mm) / (mm + 1.0) <= _SERIES_TOL
        Ms = int(np.argmax(ok)) if ok.any() else M
        self.Ms = Ms
        self.BQt = np.ascontiguousarray(BQ[:, :Ms].T)                 # (m, piece)
        self.BQmt = np.ascontiguousarray((BQ[:, :Ms] / mv[:Ms]).T)
        with np.errstate(divide="ignore"):
            self.lB1 = np.log(BQ[:, 0])
        self.naE, self.UE, self.EF, self.X, self.dS = cat["naE"], cat["UE"], cat["EF"], cat["X"], cat["dS"]
        self.tab, self.na, self.Ua, self.pos, self.FP = cat["tab"], cat["na"], cat["Ua"], cat["pos"], cat["FP"]
        npieces = self.G.size
        # E near below each piece, padded with x = 0 (factor 1)
        cnt = cat["Encount"]
        self.We = int(cnt.max()) if cnt.size else 0
        self.Enx = np.zeros((npieces, max(self.We, 1)))
        self.Enc = np.ones((npieces, max(self.We, 1)))
        if self.We:
            rj = np.repeat(np.arange(npieces), cnt)
            cj = np.arange(rj.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            self.Enx[rj, cj] = cat["Enx"]
            self.Enc[rj, cj] = cat["Enc"]
        # the chunk's own near values below each piece, in the order of the outputs, padded with x = 0
        counts = np.concatenate([c[2] for c in cat["near"]])
        self.W = int(counts.max()) if counts.size else 0
        self.xN = np.zeros((npieces, max(self.W, 1)))
        if self.W:
            rj = np.concatenate([c[0] for c in cat["near"]])
            gy = np.concatenate([c[1] for c in cat["near"]])
            cj = np.arange(rj.size) - np.repeat(np.cumsum(counts) - counts, counts)
            with np.errstate(under="ignore"):
                self.xN[rj, cj] = 0.5 * np.exp(-gy / b)
        self.po = np.array(po, dtype=np.int64)
        self.npc = np.array(npcs, dtype=np.int64)
        self.q_pr = np.array(q_pr, dtype=np.int64)
        self.q_kind = np.array(q_kind, dtype=np.int64)
        self.q_yS = np.array(q_yS)
        self.q_mu = np.array(q_mu)
        self.q_out = np.array(q_out, dtype=np.int64)
        self.q_chunk = np.array(q_chunk, dtype=np.int64)

    def points(self, pj, s, r, deriv):
        """What the integrands share at the points t = G[pj] + s = H[pj] - r (s from the piece's left end, r from
        its right end, each exact enough near its own end; r = 0 in the tail): the terms of ln f that do not
        depend on the integrand (and their slopes), and the running products over the chunk's own near values.
        Terms of values below the piece use s, of T and values above it r."""
        b, bT = self.b, self.bT
        TG = self.TG[pj]
        Tleft = TG <= 0
        u = np.exp(-s / b)
        with np.errstate(invalid="ignore"):
            wd = np.where(Tleft, s - TG, (self.T - self.H[pj]) + r)        # |t - T|: (G - T) + s or (T - H) + r
        base = (-math.log(2.0 * bT) - wd / bT
                - (self.UE[pj] + self.naE[pj] * r) / b - self.naE[pj] * _LN2 - self.EF[pj] * u)
        dbase = (np.where(Tleft, -1.0 / bT, 1.0 / bT) + (self.naE[pj] + self.EF[pj] * u) / b) if deriv else None
        z = 0.5 * u
        Ms = self.Ms
        if Ms:
            # terms per point: the tail after n terms is at most B_1 z^(n+1)/(1 - z) <= _SERIES_TOL (B_m <= B_1)
            with np.errstate(divide="ignore", invalid="ignore"):
                nz = np.ceil((math.log(_SERIES_TOL) + np.log1p(-z) - self.lB1[pj]) / np.log(z)) - 1.0
            nz = np.clip(np.nan_to_num(nz, nan=0.0, posinf=Ms, neginf=0.0), 0, Ms).astype(np.int64)
            if nz.any():
                order = np.argsort(-nz, kind="stable")
                zs = z[order]
                cnt = np.searchsorted(-nz[order], -np.arange(Ms + 1), side="right")      # points with nz >= m
                gj = pj[order[:cnt[1]]]
                top = int(nz.max())
                for coef, d in ((self.BQmt, False), (self.BQt, True)):
                    if d and not deriv:
                        continue
                    Bs = coef[:top, gj]
                    acc = np.zeros(cnt[1])
                    for m in range(top, 0, -1):
                        k = cnt[m]
                        acc[:k] *= zs[:k]
                        acc[:k] += Bs[m - 1, :k]
                    ser = np.zeros(s.size)
                    ser[order[:cnt[1]]] = acc * zs[:cnt[1]]
                    if d:
                        dbase += ser / b
                    else:
                        base -= ser
        if self.We:
            xu = self.Enx[pj] * u[:, None]
            base += np.sum(self.Enc[pj] * np.log1p(-xu), axis=1)        # (a product of c-th powers underflows)
            if deriv:
                dbase += np.sum(self.Enc[pj] * (xu / b) / (1.0 - xu), axis=1)
        W = self.W                                 # at most 256 (a chunk's outputs): the products stay above 2^-256
        Pn = np.ones((s.size, W + 1))
        dPn = np.zeros((s.size, W + 1)) if deriv else None
        if W:
            xu = self.xN[pj] * u[:, None]
            np.cumprod(1.0 - xu, axis=1, out=Pn[:, 1:])
            if deriv:
                np.cumsum((xu / b) / (1.0 - xu), axis=1, out=dPn[:, 1:])
        return base, Pn, dbase, dPn, u

    def pairs(self, pt, pj, s, r, q, pts, deriv):
        """ln f of the integrands q at the points pt (and the slopes when ``deriv``)."""
        base, Pn, dbase, dPn, u = pts
        b = self.b
        j = pj[pt]
        sp, rp = s[pt], r[pt]
        fi = self.tab[j] + self.q_pr[q]
        na = self.na[fi]
        cfi = pt * (self.W + 1) + self.pos[fi]
        far = self.FP[fi] * u[pt]
        lf = base[pt] + np.log(Pn.ravel()[cfi]) - (self.Ua[fi] + na * rp) / b - na * _LN2 - far
        kind = self.q_kind[q]
        yS = self.q_yS[q]
        G = self.G[j]
        with np.errstate(invalid="ignore"):                               # t - y_k, from the nearer kink
            x = np.where(yS <= G, (G - yS) + sp, -((yS - self.H[j]) + rp))
        a = np.exp(np.maximum(np.abs(x) * (-1.0 / b), -60.0))
        lS = np.minimum(np.log1p(-0.5 * a), -x / b - _LN2)               # ln(1 - F(x)), either side
        lf += np.where(kind == 1, lS, np.where(kind == 2, -self.q_mu[q] * x / b, 0.0))
        if not deriv:
            return lf
        qd = (0.5 * a / b) / (1.0 - 0.5 * a)
        dS = np.where(kind == 1, np.where(x >= 0, -1.0 / b, -qd), np.where(kind == 2, -self.q_mu[q] / b, 0.0))
        return lf, dbase[pt] + dPn.ravel()[cfi] + (na + far) / b + dS


def _shared_log_law(y, T, bT, b, M, chunks, out):
    """ln P(A = k) of the outputs of ``chunks`` into ``out``, through one tree of sub-intervals shared by their
    integrands (see _Shared).

    Every integrand starts on one range: the finite pieces of its chunk.  A range of several pieces is split at
    its middle kink; a piece at its graded midpoint (_graded_split).  A (sub-interval, integrand) pair is left
    out when the integral over it is at most its budget: by concavity of ln f, at most h e^F, F the maximum of
    the tangent lines at its ends; the budget is the larger of _QUAD_TOL/2 times a lower bound of its own
    integral (h times the smaller end value) and _QUAD_TOL lo 2^-(depth + 2), lo a lower bound of the whole
    integral (f(t0)/lam, lam = 1/b_T + mu/b bounds minus the slope of ln f); the 2^-depth add up to at most 1 over
    the leaves of a binary tree (Kraft), so the errors of the finite part add up to at most 3/4 _QUAD_TOL P.
    On a single piece each remaining pair gets the smallest Gauss-Legendre order in _NS whose bound (Trefethen,
    ATAP, Thm 19.3; f at most e^{F + A ov} in the ellipse's real extent, A the larger outward slope at its ends,
    times e^{beta^2 kappa/2}, see _plan) is within its budget; a sub-interval where some pair needs more is split
    for all.  The tail beyond Z is left out when f(Z)/|slope| <= _QUAD_TOL lo/4, else Gauss-Jacobi."""
    g = _Shared(y, T, bT, b, M, chunks)
    nq = g.q_pr.size
    ltol = math.log(_QUAD_TOL)
    l2rho = 2.0 * np.log(_RHO)
    nsv = np.array(_NS)
    h = g.h
    d0 = 0.5 * b * _LN2
    dL = np.full(h.size, d0)
    dR = np.where(np.isfinite(g.dS), d0 + np.where(np.isfinite(g.dS), g.dS, 0.0), b)
    qs = np.arange(nq)
    cq = g.q_chunk

    def ev(pj, s, r, pt, q):
        return g.pairs(pt, pj, s, r, q, g.points(pj, s, r, True), True)
    C = g.po.size
    last = g.po + g.npc - 1
    ends = (np.concatenate((g.po, last)), np.concatenate((np.zeros(C), h[last])),
            np.concatenate((h[g.po], np.zeros(C))))
    l0, a0 = ev(*ends, cq, qs)
    l1, a1 = ev(*ends, cq + C, qs)
    lam = -np.log(1.0 / bT + np.where(g.q_kind == 0, 0.0, g.q_mu) / b)
    lo = np.maximum(l0, l1) + lam
    jA, jB = g.po.copy(), last.copy()                        # sub-intervals: piece range jA..jB
    s0, s1, r0, r1 = np.zeros(C), h[g.po].copy(), np.zeros(C), h[g.po].copy()   # offsets when one piece
    depth = np.zeros(C)
    p_sub, p_q = cq.copy(), qs.copy()
    acc = []                                  # accepted: (piece, s0, r0, h) per sub; their pairs with orders
    nacc = 0
    for _ in range(400):
        if not p_sub.size:
            break
        multi = jB > jA
        hs = np.where(multi, g.G[jB] + h[jB] - g.G[jA], np.where(s1 <= r0, s1 - s0, r1 - r0))
        lhs = np.log(hs)
        hp = hs[p_sub]
        F = _envelope_max(l0, a0, 0.0, l1, a1, hp, 0.0, hp)
        budget = np.maximum(ltol - _LN2 + lhs[p_sub] + np.minimum(l0, l1), ltol + lo[p_q] - (depth[p_sub] + 2.0) * _LN2)
        keep = F + lhs[p_sub] > budget
        p_sub, p_q, l0, a0, l1, a1, F, budget = (v[keep] for v in (p_sub, p_q, l0, a0, l1, a1, F, budget))
        nsub = jA.size
        has = np.zeros(nsub, dtype=bool)
        has[p_sub] = True
        need = np.zeros(nsub)
        nk = np.full(p_sub.size, np.inf)
        sg = np.flatnonzero(~multi & has)
        if sg.size:
            j = jA[sg]
            ov, curv = _ellipse_terms(hs[sg], s0[sg], r0[sg], g.X[j], np.ones(sg.size, dtype=bool), g.dS[j], b)
            gpos = np.full(nsub, -1)
            gpos[sg] = np.arange(sg.size)
            pk = np.flatnonzero(~multi[p_sub])
            gi = gpos[p_sub[pk]]
            a0k, a1k = a0[pk], a1[pk]
            # f <= e^{F + A ov} on the ellipse's real extent (tangents at the ends), plus a rounding margin
            Ak = np.maximum(np.maximum(0.0, -a0k), a1k) + 2e-15 * (np.abs(a0k) + np.abs(a1k))
            with np.errstate(invalid="ignore"):
                v = (F[pk] - budget[pk] + lhs[p_sub[pk]])[:, None] + Ak[:, None] * ov[gi] + curv[gi]
                nk[pk] = 1.0 + np.min(v / l2rho[None, :], axis=1)        # error <= budget once 2 (n-1) ln rho >= v
            np.maximum.at(need, p_sub[pk], nk[pk])
        good = has & ~multi & (need <= nsv[-1])
        sm, rm, inside = _graded_split(h[jA], dL[jA], dR[jA], s0, s1, r0, r1)
        stuck = has & ~multi & ~good & (~inside | (depth >= 150))       # at the float resolution: the top order
        good |= stuck
        pg = good[p_sub]
        if pg.any():
            ids = np.cumsum(good) - 1 + nacc
            gs = np.flatnonzero(good)
            n = nsv[np.minimum(np.searchsorted(nsv, np.where(np.isfinite(nk[pg]), nk[pg], nsv[-1])), nsv.size - 1)]
            acc.append((jA[gs], s0[gs], r0[gs], hs[gs], ids[p_sub[pg]], p_q[pg],
                        np.where(stuck[p_sub[pg]], nsv[-1], n)))
            nacc += gs.size
        split = has & ~good
        if not split.any():
            break
        si = np.flatnonzero(split)
        newid = np.full(nsub, -1)
        newid[si] = np.arange(si.size)
        pm = split[p_sub]
        p_sub, p_q, l0, a0, l1, a1 = (v[pm] for v in (p_sub, p_q, l0, a0, l1, a1))
        mj = multi[si]
        jm = (jA[si] + jB[si] + 1) // 2
        spj = np.where(mj, jm, jA[si])
        pt = newid[p_sub]
        lm, am = ev(spj, np.where(mj, 0.0, sm[si]), np.where(mj, h[spj], rm[si]), pt, p_q)
        np.maximum.at(lo, p_q, lm + lam[p_q])
        # the left child's right end: at the kink T the slope from the left is larger by 2/b_T
        aml = np.where(mj[pt] & (g.G[spj[pt]] == g.T), am + 2.0 / bT, am)
        jAs, jBs = jA[si], jB[si]
        RjA = np.where(mj, jm, jAs)
        hL, hR = h[jAs], h[RjA]
        jA = np.concatenate((jAs, RjA))
        jB = np.concatenate((np.where(mj, jm - 1, jAs), jBs))
        s0, s1, r0, r1 = (np.concatenate((np.where(mj, 0.0, s0[si]), np.where(mj, 0.0, sm[si]))),
                          np.concatenate((np.where(mj, hL, sm[si]), np.where(mj, hR, s1[si]))),
                          np.concatenate((np.where(mj, 0.0, rm[si]), np.where(mj, 0.0, r0[si]))),
                          np.concatenate((np.where(mj, hL, r1[si]), np.where(mj, hR, rm[si]))))
        depth = np.concatenate((depth[si], depth[si])) + 1.0
        p_sub = np.concatenate((pt, pt + si.size))
        p_q = np.concatenate((p_q, p_q))
        l0, a0, l1, a1 = (np.concatenate(v) for v in ((l0, lm), (a0, am), (lm, l1), (aml, a1)))
    else:
        raise FloatingPointError("the quadrature bound could not be met")     # pragma: no cover
    terms_q, terms_v = [], []
    if acc:
        apj, as0, ar0, ahs, pid, pq, pn = (np.concatenate([a[i] for a in acc]) for i in range(7))
        for n in np.unique(pn):
            sel = pn == n
            xg, wg = _gauss_legendre(int(n))
            subs, inv = np.unique(pid[sel], return_inverse=True)
            pj = np.repeat(apj[subs], n)
            s = (as0[subs][:, None] + ahs[subs][:, None] * xg[None, :]).ravel()      # each from its own end
            r = (ar0[subs][:, None] + ahs[subs][:, None] * (1.0 - xg)[None, :]).ravel()
            pt = (inv[:, None] * n + np.arange(n)[None, :]).ravel()
            qq = np.repeat(pq[sel], n)
            terms_q.append(qq)
            terms_v.append(g.pairs(pt, pj, s, r, qq, g.points(pj, s, r, False), False)
                           + np.tile(np.log(wg), int(sel.sum())) + np.repeat(np.log(ahs[subs])[inv], n))
    # the tails beyond Z: f <= f(Z) e^{a (t - Z)} there (a < 0), else Gauss-Jacobi in u = e^{-(t - Z)/b} with the
    # weight u^beta of w S (beta = b/b_T - 1 + mu)
    lz, az = ev(last, h[last], np.zeros(last.size), cq, qs)
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.where(az < 0, lz - np.log(-az), np.inf) > ltol + lo - 2.0 * _LN2
    beta_q = b / bT - 1.0 + g.q_mu
    for beta in np.unique(beta_q[tail]):
        qsel = np.flatnonzero(tail & (beta_q == beta))
        u, wu = _gauss_jacobi(_N_JAC, float(beta))
        cs = np.unique(cq[qsel])
        pj = np.repeat(last[cs] + 1, u.size)
        s = np.tile(-b * np.log(u), cs.size)
        r = np.zeros(s.size)                                 # (no value and no T beyond Z)
        pt = (np.searchsorted(cs, cq[qsel])[:, None] * u.size + np.arange(u.size)[None, :]).ravel()
        qq = np.repeat(qsel, u.size)
        terms_q.append(qq)
        terms_v.append(g.pairs(pt, pj, s, r, qq, g.points(pj, s, r, False), False)
                       + np.tile(math.log(b) + np.log(wu) - (beta + 1.0) * np.log(u), qsel.size))
    tq, tv = np.concatenate(terms_q), np.concatenate(terms_v)
    mx = np.full(nq, -np.inf)
    np.maximum.at(mx, tq, tv)
    lI = mx + np.log(np.bincount(tq, weights=np.exp(tv - mx[tq]), minlength=nq))
    direct = g.q_out >= 0
    out[g.q_out[direct]] = lI[direct]
    for qa, two, ks, dk, yoff in g.classes:
        out[ks] = _class_log_p(lI[qa], lI[qa + 1] if two else -math.inf, dk, yoff)


def _class_log_p(lJ0, lJ1, dk, yoff):
    """ln P(A = k) of the outputs of a class (see _Shared): ln(e^{(y_k - L)/b}/2 (J0 - d_k J1)), from
    ln J0, ln J1 (-inf for a class of one output), the first-order sums d_k and (y_k - L)/b."""
    return yoff - _LN2 + lJ0 + np.log1p(-dk * math.exp(lJ1 - lJ0))


# == validation ===============================================================================================
_MAX_ABS = 2.0 ** 1000            # |values|, |threshold| at most this: every difference stays finite


def _values(name, values):
    if isinstance(values, np.ndarray) and values.ndim != 1:
        fail(name, "a 1-D array of query values", f"an array of shape {values.shape}")
    shape = _shape_of(values) if not isinstance(values, (str, bytes)) else ()
    if len(shape) == 1:
        memory(name, 16.0 * shape[0], what="the law and its work arrays")
    y = as_float(name, values, finite=True)
    if y.ndim != 1:
        fail(name, "a 1-D array of query values", f"an array of shape {y.shape}")
    require(np.abs(y) <= _MAX_ABS, name, "made of real numbers of magnitude at most 2^1000 (differences stay finite)")
    return np.ascontiguousarray(y, dtype=float)


def _threshold(threshold):
    return scalar("threshold", threshold, -_MAX_ABS, _MAX_ABS)


def _scales(epsilon, query_scale):
    """(b_T, b): the scales of the threshold noise (2/eps) and of the query noise (4/eps or query_scale)."""
    eps = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True, finite=False)
    bT = 2.0 / eps
    if not math.isfinite(4.0 / eps):
        fail("epsilon", "in (0, inf] with 4/epsilon finite", epsilon)
    if query_scale is None:
        b = 4.0 / eps
    else:
        b = scalar("query_scale", query_scale, 0.0, math.inf, lo_open=True)
        if not math.isfinite(1.0 / b):
            fail("query_scale", "a positive real with 1/query_scale finite", query_scale)
        if b < 1e-12 * bT:
            # the tail weight u^(b/b_T - 1) of the output -1 needs b/b_T representably above 0 (Gauss-Jacobi)
            fail("query_scale", "at least 1e-12 times the threshold scale 2/epsilon", query_scale)
    return bT, b


def _log_err(lp):
    """Bound on the error of a computed ln P (the docstring of above_threshold_pmf)."""
    return 1e-12 + 4e-15 * np.abs(lp)


# == public functions ========================================================================================
@provenance("pd.at.output_law")
def above_threshold(values, threshold, epsilon, rng=None, size=None, query_scale=None):
    r"""Run AboveThreshold on the query values ``values`` (``private-deciles`` (001), Section 2.1, the
    algorithm as printed; Dwork and Roth, "The Algorithmic Foundations of Differential Privacy", 2014, p. 57):
    noisy threshold :math:`\hat T = T + \mathrm{Lap}(2/\varepsilon)`, then for each query in order a fresh
    :math:`\nu_i \sim \mathrm{Lap}(4/\varepsilon)`; the output is the 0-based index of the first query with
    ``values[i] + nu_i > noisy threshold``, or -1 when none fires.

    Parameters: ``values`` a 1-D array of the K query values f_i(D) (finite reals, any order, ties allowed;
    K = 0 gives -1); ``threshold`` T a finite real; ``epsilon`` in (0, inf] (inf: no noise at all, the output
    is the first i with values[i] > T); ``rng`` a ``numpy.random.Generator`` or an integer seed (None: a fresh
    generator); ``size`` None for one run (a Python int) or an integer m >= 0 for an int64 array of m
    independent runs; ``query_scale`` (b > 0, at least 1e-12 times 2/eps) replaces the
    query-noise scale 4/eps (for the monotone-query
    variant of Lyu, Su and Li, PVLDB 2017, query_scale = 2/eps).

    Vectorised over runs: the noisy thresholds are drawn at once, and the queries are scanned in blocks of
    columns (at most 2^22 draws at a time) for the runs that have not stopped; a run's later queries are not
    drawn once it stops (the law is the same).  The exact law is :func:`above_threshold_pmf`.

    >>> above_threshold([0.0, 10.0, 20.0], 5.0, float("inf"))   # no noise: the first value above 5
    1
    >>> out = above_threshold([0.0, 10.0], 5.0, 1.0, rng=7, size=4)
    >>> out.shape, out.dtype
    ((4,), dtype('int64'))
    """
    y = _values("values", values)
    T = _threshold(threshold)
    bT, b = _scales(epsilon, query_scale)
    m = 1 if size is None else count("size", size, 0)
    memory("size", 2.0 * m)
    gen = np.random.default_rng() if rng is None else as_rng(rng)
    K = y.size
    out = np.full(m, -1, dtype=np.int64)
    if bT > 0:
        t = T + gen.laplace(0.0, bT, m)
    else:
        t = np.full(m, T)
    active = np.arange(m)
    c0 = 0
    while c0 < K and active.size:
        cols = int(max(1, min(K - c0, (1 << 22) // active.size)))
        c1 = c0 + cols
        if b > 0:
            fire = (y[c0:c1][None, :] + gen.laplace(0.0, b, (active.size, cols))) > t[active][:, None]
        else:
            fire = np.broadcast_to(y[c0:c1][None, :] > t[active][:, None], (active.size, cols))
        hit = fire.any(axis=1)
        out[active[hit]] = c0 + np.argmax(fire[hit], axis=1)
        active = active[~hit]
        c0 = c1
    return int(out[0]) if size is None else out


_MAX_K = 10**6                    # queries of the exact law


@provenance("pd.at.output_law")
def above_threshold_pmf(values, threshold, epsilon, query_scale=None):
    r"""The exact law of AboveThreshold's output: an array p of length K + 1 with p[k] = P(A = k) for
    k = 0..K-1 and p[K] = p[-1] = P(A = -1).

    Source: ``private-deciles`` (001), Section 2.1 (the algorithm as printed; the proof of Théorème 2.1.0.1
    writes P(A = k) = P(T^ in ]g_k, y_k + nu_k]), claim ``pd.at.output_law``).  With F the cdf of the query
    noise Lap(b) (b = 4/eps, or ``query_scale``) and l_2 the density of Lap(2/eps),

    .. math:: P(A = k) = \int l_2(t - T) \prod_{i<k} F(t - y_i)\,(1 - F(t - y_k))\,dt,\qquad
              P(A = -1) = \int l_2(t - T) \prod_{i<K} F(t - y_i)\,dt

    (query k does not fire when y_k + nu_k <= t).  ``epsilon = inf`` gives the deterministic law (no noise:
    A = the first k with y_k > T); with ``query_scale`` and eps = inf the threshold is exact and
    P(A = k) = prod_{i<k} F(T - y_i) (1 - F(T - y_k)).

    Method.  The integrand f is log-concave in t (every factor is) and piecewise analytic between its kinks
    T, y_0..y_k.  On a piece [p, p'] every factor is exactly e^{linear} or 1 - e^{-(t - y)/b}/2 (y <= p) or
    1 - e^{(t - y_k)/b}/2 (y_k >= p'); ln f is evaluated in log space as linear terms plus
    -sum_m B_m z^m/m, z = e^{-(t - p)/b}/2 <= 1/2, B_m the power sums of e^{-(p - y_i)/b} over the earlier
    values below p (one exact recursion from piece to piece; truncated when the tail is below 1e-17).

    * Left truncation.  From the earlier values: at the maximum t* at most 1 + b/b_T earlier values lie
      above t* (each adds 1/b to the slope of ln f, w and S take off at most 1/b_T + 1/b), which gives a point
      L with ln f(t*) - ln f(L) >= 40 and slope >= 1/b left of L.  From the threshold, when b >= 2 b_T (the
      default b = 4/eps): left of T the slope is at least 1/b_T - 1/b >= 1/b, so L >= T - 40/(1/b_T - 1/b)
      as well.  The mass left of L is below e^-40 (1 + b/b_T) P(A = k) (1.3e-17 relative at the default
      scales).  Earlier values below L enter only through their power sums.
    * Pieces: Gauss-Legendre on adaptively graded sub-intervals, the order and the sub-intervals chosen from
      the Bernstein-ellipse bound (Trefethen, ATAP, SIAM 2013, Thm 19.3; the bound on f in the ellipse from
      the concavity of ln f, its slope and its curvature, see ``_plan``), so that the quadrature errors of
      each output add up to at most 1e-14 times P(A = k) (the slope of ln f is never below -(1/b_T + 1/b), so
      P(A = k) >= f(t0) b b_T/(b + b_T) for every t0); sub-intervals whose integral is within that share are
      left out.
    * Shared sub-intervals (``_shared_log_law``).  The outputs of up to 512 consecutive queries are planned
      on one tree of sub-intervals: each starts on all the pieces of its chunk, the ranges are split at their
      middle kink and the pieces at graded midpoints for every output at once, and each output keeps only the
      sub-intervals that carry its mass, with its own order there.  What does not depend on the output
      (the threshold density, the power sums, the earlier values of the chunk's predecessors) is evaluated
      once per node.  Values more than 25 b below a piece enter to first order (an error below 5e-23 in ln f
      per value).  Outputs whose own value lies below L and whose earlier values among themselves lie 25 b
      further down form a class: on [L, inf) their integrands differ by e^{(y_k - L)/b} and a first-order
      factor, so two integrals serve the whole class (see ``_Shared``).  Chunks where most outputs have their
      own value above L (sorted values above the threshold) go through the per-output planner.
    * The right tail beyond the last kink: Gauss-Jacobi in u = e^{-(t - z)/b} (weight u^{b/b_T}, or
      u^{b/b_T - 1} for -1) from where sum_i e^{-(z - y_i)/b}/2 <= 0.02 (error below 1e-17, Bernstein bound
      with rho = 8); the left tail, when no truncation applies, in closed form.

    Accuracy: relative error of every entry below 1e-12 (bounded by 1.3e-14 from the quadrature and the
    truncations, at query scales up to the largest allowed, 500 b_T, plus the rounding of ln P, a few units of 2^-53 of the magnitudes ``|t - T|``/b_T, ``|t - y|``/b
    entering it); tested against mpmath at 30 digits, the entries summing to 1 within 1e-13.  Probabilities
    below the float range underflow to 0 (their logarithms are used by :func:`above_threshold_privacy_loss`).
    K up to 10^6.  Cost (time.process_time, one core, benchmarks/bench_above_threshold.py): random values,
    K = 10^4 in 0.25 s and 10^5 in 1.8 s (most outputs fall into classes); cumulative counts of a sorted
    sample with the threshold at half the sample, 10^4 in 0.6 s and 10^5 in 6 s.  There the half of the
    outputs beyond the threshold dominates: each has its own value above L, 20-30 pieces within reach of its
    mass and 150-400 nodes, and no two share an integrand; about 0.1 ms each.  When an absolute error of
    K e^-40 is enough, the fixed-rule law of ``numeric.quantile_mechanisms`` is faster.

    >>> p = above_threshold_pmf([0.0], 0.0, 1.0)      # K = 1, y_0 = T: P(A = 0) = 1/2 by symmetry
    >>> [round(float(v), 12) for v in p]
    [0.5, 0.5]
    """
    y = _values("values", values)
    if y.size > _MAX_K:
        fail("values", f"at most {_MAX_K} query values for the exact law", f"{y.size} values")
    T = _threshold(threshold)
    bT, b = _scales(epsilon, query_scale)
    _check_span("values", y, T, bT, b)
    with np.errstate(under="ignore"):
        return np.exp(_log_law(y, T, bT, b))


@provenance("pd.at.output_law", "pd.at.epsilon_dp")
def above_threshold_privacy_loss(values, neighbour, threshold, epsilon, query_scale=None):
    r"""The exact privacy loss of AboveThreshold between the query vectors ``values`` (on D) and ``neighbour``
    (on D'): :math:`\max_k |\ln P(A = k) - \ln P(A' = k)|` over the K + 1 outputs, rounded up.

    Source: ``private-deciles`` (001), Section 2.1, Théorème 2.1.0.1 (the mechanism is eps-DP: for
    sensitivity-1 queries, ``|values[i] - neighbour[i]|`` <= 1, this is at most eps; ``pd.at.epsilon_dp``), with
    the output law of :func:`above_threshold_pmf`.  Any two vectors of the same length are accepted.

    Returns a float: ``inf`` when an output is possible under one vector and impossible under the other
    (only without noise, eps = inf), 0 when both laws are the same.  Rounded on the safe side: the bound on
    the error of each ln P (1e-12 + 4e-15 ``|ln P|``, see :func:`above_threshold_pmf`) is added for both
    vectors, then the result is moved up by one ulp (``np.nextafter``); never understated.

    >>> loss = above_threshold_privacy_loss([0.0, 0.0], [1.0, -1.0], 0.0, 1.0)
    >>> 0 < loss <= 1.0
    True
    """
    y = _values("values", values)
    y2 = _values("neighbour", neighbour)
    if y2.size != y.size:
        fail("neighbour", f"of the same length as values ({y.size})", f"length {y2.size}")
    if y.size > _MAX_K:
        fail("values", f"at most {_MAX_K} query values for the exact law", f"{y.size} values")
    T = _threshold(threshold)
    bT, b = _scales(epsilon, query_scale)
    _check_span("values", y, T, bT, b)
    _check_span("neighbour", y2, T, bT, b)
    return _loss(_log_law(y, T, bT, b), _log_law(y2, T, bT, b))


def _loss(l1, l2):
    both = np.isfinite(l1) & np.isfinite(l2)
    if np.any(np.isfinite(l1) != np.isfinite(l2)):
        return math.inf
    if not both.any():
        return 0.0
    d = np.abs(l1[both] - l2[both]) + _log_err(l1[both]) + _log_err(l2[both])
    if np.all(l1 == l2):
        return 0.0
    return float(np.nextafter(np.max(d), np.inf))


def _batch_log_law(Y, T, bT, b):
    """ln P(A = k) for many query vectors at once (rows of Y, shape (N, K), K small), no truncation:
    returns (N, K + 1)."""
    N, K = Y.shape
    if b == 0.0 or bT == 0.0:
        return np.array([_log_law(y, T, bT, b) for y in Y]).reshape(N, K + 1)
    R = N * (K + 1)
    inst, k = np.divmod(np.arange(R), K + 1)
    M = 64 + int(math.ceil(math.log2(K + 2)))
    ii, jj = np.nonzero(np.arange(K)[None, :] < k[:, None])        # (row, earlier query)
    withS = k < K
    yk = np.where(withS, Y[inst, np.minimum(k, K - 1)], 0.0)
    rows = [np.arange(R), ii, np.arange(R), np.flatnonzero(withS)]
    vals = [np.full(R, -np.inf), Y[inst[ii], jj], np.full(R, T), yk[withS]]
    cnts = [np.zeros(R, dtype=np.int64), np.ones(ii.size, dtype=np.int64), np.zeros(R, dtype=np.int64),
            np.zeros(int(withS.sum()), dtype=np.int64)]
    out = _rows_log_law(np.concatenate(rows), np.concatenate(vals), np.concatenate(cnts), R, np.zeros((R, M)),
                        -math.inf, withS, yk, T, bT, b, M)
    return out.reshape(N, K + 1)


_MAX_SEARCH_K = 10


@provenance("pd.at.epsilon_dp", "pd.at.monotone_noise")
def above_threshold_worst_case(K, epsilon, monotone=False, query_scale=None, rng=None, box=None, population=256,
                               starts=8, iterations=60):
    r"""Search for the pair of neighbouring query vectors with the largest privacy loss of AboveThreshold:
    maximise :func:`above_threshold_privacy_loss` over y in the box [-box, box]^K and neighbours y' with
    ``|y_i - y'_i|`` <= 1 for every i (``monotone``: the differences y'_i - y_i all >= 0 or all <= 0, as when
    every query is a cumulative count), the threshold fixed at 0 (the law depends on y - T only).

    Source: ``private-deciles`` (001), Section 2.1, Théorème 2.1.0.1 (the loss is at most eps with query
    noise Lap(4/eps)); Lyu, Su and Li, "Understanding the Sparse Vector Technique for Differential Privacy",
    PVLDB 10(6):637-648, 2017, Algorithm 1 (threshold noise Lap(Delta/eps_1), query noise Lap(2 c Delta/eps_2);
    for monotone queries Lap(c Delta/eps_2) suffices), here c = 1, Delta = 1, eps_1 = eps_2 = eps/2: query
    noise Lap(2/eps) (``query_scale = 2/epsilon``) for monotone neighbours.

    Structure used.  For each output k, ln P(A = k) is a concave function of the query vector (the integrand
    is log-concave jointly in t and y, Prékopa's theorem), so for fixed y the one-sided loss
    ln P_y(k) - ln P_{y+d}(k) is convex in d and its maximum over the box of allowed d is at a vertex: d in
    {-1, 1}^K, or {0, 1}^K and {0, -1}^K when monotone (the other sign of the loss is the same search with the
    roles of y and y' exchanged).  For every vertex the search evaluates a population of y (the box's
    corners, centre and edge midpoints along the diagonals, and uniform draws; ``population`` in all) in one
    batch, then refines the ``starts`` best (vertex, y) pairs by a pattern search (steps along each
    coordinate, halved when no step improves; ``iterations`` rounds).  A search: the value returned is a
    lower bound of the supremum, which may be approached only as ``|y|`` grows (see the notes below).

    Parameters: ``K`` in 1..10 queries (the vertices grow as 2^K); ``epsilon`` in (0, inf); ``query_scale``
    as in :func:`above_threshold` (default 4/eps); ``rng`` a Generator or seed (None: seed 0, the search is
    reproducible); ``box`` > 0 (default 40 max(2/eps, query scale)); ``population`` >= 1, ``starts`` >= 1,
    ``iterations`` >= 0 integers.

    Returns ``(loss, values, neighbour, output)``: the privacy loss of the best pair found, rounded up as in
    :func:`above_threshold_privacy_loss` (its exact value lies within 2e-12 + 1e-14 ``|ln P|`` below), the two
    query vectors (threshold 0) and the output k where the largest log-ratio occurs (-1 for "none fired").

    What it finds (eps = 1, tests and the module's notes): with Lap(4/eps) the loss never exceeds eps; it
    tends to eps as the earlier queries go to +inf and the last one to -inf when K >= 4 (slowly at K = 4:
    0.977, 0.994, 0.997 at ``|y_i|`` = 40, 160, 320; within 1e-10 from 80 at K = 5) (e^eps is
    approached, not attained: the ratio of the integrands is below e^eps wherever the noisy threshold is
    below T or y_k), and stays below eps/4, eps/2, 3 eps/4 for K = 1, 2, 3.  With Lap(2/eps) and monotone
    neighbours the loss stays at most eps; without monotonicity it exceeds eps from K = 3 on (it tends to
    3 eps/2): e.g. T = 0, y = (0, 0, 0), y' = (1, 1, -1), eps = 1 gives ln P(A = 2) - ln P'(A = 2) = 1.153.

    >>> loss, y, y2, k = above_threshold_worst_case(1, 1.0, population=16, starts=2, iterations=10)
    >>> 0.2 < loss <= 0.25 + 1e-9          # K = 1: at most eps/4, approached as y -> -inf
    True
    """
    K = count("K", K, 1, _MAX_SEARCH_K)
    eps = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True)
    bT, b = _scales(eps, query_scale)
    if b > _MAX_RATIO * bT:
        fail("query_scale", f"at most {_MAX_RATIO:g} times the threshold scale 2/epsilon for the exact law", b)
    monotone = boolean("monotone", monotone)
    gen = np.random.default_rng(0) if rng is None else as_rng(rng)
    if 2.0 > _MAX_SPAN * min(bT, b):
        # a neighbour's shift of 1 is already more than _MAX_SPAN / 2 noise scales: no exact law there
        fail("epsilon" if query_scale is None else "query_scale",
             f"such that both noise scales are at least {2.0 / _MAX_SPAN:g} (the sensitivity 1 within "
             f"{_MAX_SPAN:g} / 2 noise scales)", epsilon if query_scale is None else query_scale)
    B = 40.0 * max(bT, b) if box is None else scalar("box", box, 0.0, _MAX_SPAN * min(bT, b) / 2 - 1.0,
                                                       lo_open=True)
    population = count("population", population, 1, 1 << 16)
    starts = count("starts", starts, 1, 1 << 10)
    iterations = count("iterations", iterations, 0, 10**4)
    if monotone:
        up = np.array(list(np.ndindex(*(2,) * K)), dtype=float)[1:]
        verts = np.concatenate((up, -up))
    else:
        verts = np.array(list(np.ndindex(*(2,) * K)), dtype=float) * 2.0 - 1.0
    # the population: structured points, then uniform draws
    lev = np.array([-1.0, -0.5, 0.0, 0.5, 1.0]) * B
    if 5 ** K <= population:
        base = np.array(list(np.ndindex(*(5,) * K)), dtype=float)
        pop = lev[base.astype(int)]
    else:
        corners = np.array(list(np.ndindex(*(2,) * K)), dtype=float) * 2.0 - 1.0
        pop = np.concatenate((np.zeros((1, K)), corners * B, corners * B / 2))[:population]
    extra = population - pop.shape[0]
    if extra > 0:
        pop = np.concatenate((pop, gen.uniform(-B, B, (extra, K))))

    def one_sided(Y, D):
        """max over outputs of ln P_Y - ln P_{Y+D} (rows)."""
        l1 = _batch_log_law(Y, 0.0, bT, b)
        l2 = _batch_log_law(Y + D, 0.0, bT, b)
        with np.errstate(invalid="ignore"):
            v = np.where(np.isfinite(l1) | np.isfinite(l2), l1 - l2, -np.inf)
        return np.nanmax(np.where(np.isnan(v), np.inf, v), axis=1)
    l1 = _batch_log_law(pop, 0.0, bT, b)
    cand = []                                        # (value, vertex index, point index)
    for j, d in enumerate(verts):
        l2 = _batch_log_law(pop + d, 0.0, bT, b)
        v = np.max(l1 - l2, axis=1)
        top = np.argsort(-v)[:starts]
        cand += [(float(v[i]), j, int(i)) for i in top]
    cand.sort(key=lambda c: -c[0])
    cand = cand[:starts]
    Yc = pop[[c[2] for c in cand]]
    Dc = verts[[c[1] for c in cand]]
    Vc = np.array([c[0] for c in cand])
    step = np.full(len(cand), B / 4)
    eye = np.eye(K)
    for _ in range(iterations):
        moves = np.concatenate((eye, -eye))                   # (2K, K)
        trial = np.clip(Yc[:, None, :] + step[:, None, None] * moves[None], -B, B).reshape(-1, K)
        tv = one_sided(trial, np.repeat(Dc, 2 * K, axis=0)).reshape(len(cand), 2 * K)
        jbest = np.argmax(tv, axis=1)
        gain = tv[np.arange(len(cand)), jbest] > Vc
        Yc[gain] = trial.reshape(len(cand), 2 * K, K)[gain, jbest[gain]]
        Vc[gain] = tv[gain, jbest[gain]]
        step[~gain] /= 2.0
    i = int(np.argmax(Vc))
    y, y2 = Yc[i].copy(), Yc[i] + Dc[i]
    la, lb = _log_law(y, 0.0, bT, b), _log_law(y2, 0.0, bT, b)
    with np.errstate(invalid="ignore"):
        k = int(np.nanargmax(np.abs(la - lb)))
    return _loss(la, lb), y, y2, (-1 if k == K else k)
