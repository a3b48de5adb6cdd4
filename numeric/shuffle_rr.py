"""The exact privacy profile of aggregated randomized response (``k-randomization`` (003),
Zhilyaev and Zeber, "K-Randomization", 2016: Section 3, display (3.1) and the question it leaves open,
the largest value of the privacy ratio, in (epsilon, delta) form).

n records of L bits each; every bit is flipped independently with the lie probability q
(0 < q < 1/2, p = 1 - q) and only the counts of the 2^L bit vectors are released.  For L = 1 the
release is the count of reported 1s.  Neighbouring collections differ in one record; with k of the
other N = n - 1 records equal to 1 the two laws are U_k = B_k + Ber(p) (the differing record is 1)
and V_k = B_k + Ber(q) (it is 0), B_k = Bin(k, p) + Bin(N - k, q), and

    delta(eps) = max_k H_eps(U_k || V_k),     H_eps(P || Q) = sum_s max(0, P(s) - e^eps Q(s)).

One direction suffices (``kr.agg.symmetry``: flipping every bit maps (U_k, V_k) to
(n - V_{N-k}, n - U_{N-k})).

*One k* (``kr.agg.loss_monotone``, ``kr.agg.threshold_form``).  U_k(s)/V_k(s) is nondecreasing in s,
so with G(t) = P(B_k >= t) and b = the pmf of B_k,

    H_eps(U_k || V_k) = max_t [U(>= t) - e^eps V(>= t)] = max_t [(p - e^eps q) b(t-1) - (e^eps - 1) G(t)],

maximised at the first t where b(t-1)/b(t) >= (e^eps p - q)/(p - e^eps q) (a binary search over the
log-concave pmf), and eps_k(delta) = max(0, ln max_t (U(>= t) - delta)/V(>= t)) in closed form.
Only t at or right of the mode of B_k matter (left of it U(s) <= V(s), so neither maximum moves),
which halves the window.

*Over k* (``kr.agg.remove_records``).  For every k in [k1, k2], H_eps(U_k || V_k) is at most the same
quantity for the population without the k2 - k1 records in between (k1 ones, N - k2 zeros): adding
the count of those records is one Markov kernel applied to both laws.  A branch and bound over
intervals of k prunes an interval once that bound is at most the best value found, so the maximum
it returns is exact (up to the rounding below) and certified.

*Rounding.*  Every returned epsilon or delta is an upper bound of the exact one: the pmf of B_k is
known on a window whose outside mass is bounded (Bernstein's inequality), the window's tail sums are
taken as lower bounds of G and the outside mass is added where it can raise the value, and the
relative error of the computed pmf (``_ETA``, see below) is added on the side that raises the value
before rounding up by ``np.nextafter``.  The excess over the exact value is at most about
1e-8 relative plus the outside mass (at most delta e^-30 in ``aggregated_epsilon``, e^-100 in
``aggregated_profile``).  The window is computed here (``_own_window``: components in Loader's form,
a direct or exponentially tilted FFT convolution), checked in the tests against the recurrence of
``numeric.krandomization._count_window`` and against mpmath.

*Pure epsilon* (``kr.agg.pure_epsilon``): delta = 0 for eps >= L ln(p/q) and epsilon(0) = L ln(p/q)
for every n.

*L >= 2*: exact by enumeration for small n (the differing pair fixed to 0...0 and a vector of weight
h by the bit-flip and coordinate-permutation symmetries, the other n - 1 records ranging over every
multiset), otherwise the numerical bound of Feldman, McMillan and Talwar ("Hiding among the clones",
FOCS 2021, arXiv 2012.12803) for an L ln(p/q)-LDP randomizer, an upper bound by their theorem.
"""
from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from ._common import as_float, count, fail, memory_for, provenance, require, scalar, scalar_out

__all__ = ["aggregated_profile", "aggregated_epsilon", "aggregated_search", "fmt_clone_bound"]

_MAX_N = 10**12                # records (counts stay exact in double precision, windows stay small)
_ETA = 1e-8                    # bound on the relative error of the window pmf used for the safe side
_U = 2.0**-52
_L_PROFILE = 100.0             # the window of aggregated_profile leaves out at most e^-100
_L_MARGIN = 30.0               # ... of aggregated_epsilon at most delta e^-30
_FLOOR = 2.0 * math.exp(-_L_PROFILE)   # profile values below it are reported as it (7.4e-44)
_DIRECT = 4_000_000            # direct (relative-accurate) convolution below this many products
_ENUM_WORK = 20_000_000        # L >= 2: cells x (distributions built) for the exact enumeration
_CLAIMS = ("kr.agg.threshold_form", "kr.agg.remove_records", "kr.agg.symmetry", "kr.agg.loss_monotone",
           "kr.agg.pure_epsilon")


# == the pmf of B = Bin(k, p) + Bin(N - k, q) on a window ======================================================
def _reach(var: float, log_tail: float) -> float:
    """a with P(X - EX >= a) <= e^-log_tail for a sum X of independent [0, 1] variables of variance var
    (Bernstein: P(X - EX >= a) <= exp(-a^2 / (2 (var + a/3))))."""
    lt = log_tail
    return lt / 3.0 + math.sqrt(lt * lt / 9.0 + 2.0 * lt * var)


def _stirlerr(n: float) -> float:
    """ln n! - (n + 1/2) ln n + n - ln sqrt(2 pi) (Loader 2000): the table of numeric.sampling below 16,
    the Stirling series above (next term < 2e-18)."""
    from .sampling import _SFERR

    if n <= 15:
        return float(_SFERR[int(n)])
    n2 = n * n
    return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / (1188 * n2)) / n2) / n2) / n2) / n


def _bd0(x: float, M: float) -> float:
    """x ln(x/M) + M - x without cancellation (Loader's series near x = M)."""
    if abs(x - M) < 0.1 * (x + M):
        v = (x - M) / (x + M)
        s = (x - M) * v
        ej = 2.0 * x * v
        v2 = v * v
        j = 1
        while True:
            ej *= v2
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s, j = s1, j + 1
    return x * math.log(x / M) + M - x


def _log_binom_at(x: int, m: int, q: float, p_hi: float, p_lo: float) -> float:
    """ln P(Bin(m, q) = x) in Loader's saddle-point form, p = 1 - q = p_hi + p_lo exactly."""
    if x == 0:
        return m * (math.log(p_hi) + p_lo / p_hi)
    if x == m:
        return m * math.log(q)
    y = m - x
    return (_stirlerr(m) - _stirlerr(x) - _stirlerr(y) - _bd0(float(x), m * q)
            - _bd0(float(y), m * p_hi + m * p_lo) + 0.5 * math.log(m / (2.0 * math.pi * x * y)))


def _binom_window(m: int, q: float, ones: bool, log_tail: float):
    """(start, pmf / e^shift, shift) of Bin(m, p) (``ones``) or Bin(m, q) on [mean - a, mean + a] (a by
    Bernstein).  One anchor at the mode in Loader's saddle-point form (p = 1 - q carried exactly as
    p_hi + p_lo), the rest by cumulative sums of the log ratios
    ln P(j+1)/P(j) = ln((m - j)/(j + 1)) + ln(r/(1 - r)): absolute error in the log at most about
    (size) u (1 + max |ln P - ln P(mode)|), below 1e-10 for the windows used here."""
    if m == 0:
        return 0, np.ones(1), 0.0
    p_hi = 1.0 - q
    p_lo = (1.0 - p_hi) - q
    mu, var = m * (p_hi if ones else q), m * p_hi * q
    a = _reach(var, log_tail)
    lo, hi = max(0, math.floor(mu - a)), min(m, math.ceil(mu + a))
    mode = min(max(int(math.floor(mu)), lo), hi)
    x0 = m - mode if ones else mode                           # Bin(m, p) at j is Bin(m, q) at m - j
    anchor = _log_binom_at(x0, m, q, p_hi, p_lo)
    lodds = math.log(p_hi) + p_lo / p_hi - math.log(q)      # ln(p/q)
    if not ones:
        lodds = -lodds
    j = np.arange(lo, hi, dtype=float)                       # steps j -> j + 1
    steps = np.log((m - j) / (j + 1.0)) + lodds
    up = np.cumsum(steps[mode - lo:])
    down = np.cumsum(-steps[:mode - lo][::-1])[::-1]
    lp = np.concatenate([down, [0.0], up])                    # ln P(j) - ln P(mode)
    return lo, np.exp(lp), anchor


def _own_window(N: int, k: int, q: float, log_tail: float):
    """(start, logpmf, log_outside, eta) for B = Bin(k, p) + Bin(N - k, q): ln P(B = s) for
    s = start.. on [floor(EB) - 3, EB + a], ln of a bound on the mass left out plus the deficit of the
    window's values (each component is cut where its tails hold at most e^-log_tail / 8), and a bound
    eta on the relative error of the window's probabilities.

    The same law as numeric.krandomization._count_window (whose recurrence is the reference in the
    tests), computed faster for the many evaluations of the search: a direct convolution of the
    components (positive terms, no cancellation) when it is small, else an FFT with exponential
    tilting.  Only the part right of the mode is needed (see the module docstring)."""
    p = 1.0 - q
    mu = k * p + (N - k) * q
    var = N * p * q
    hi = min(N, math.ceil(mu + _reach(var, log_tail)))
    lo = max(0, math.floor(mu) - 3)
    lt = log_tail + math.log(8.0)
    xs, xa, xsh = _binom_window(k, q, True, lt)
    ys, ya, ysh = _binom_window(N - k, q, False, lt)
    outside = math.exp(-log_tail) * (1.0 if hi < N else 0.5) + 4 * math.exp(-lt)
    # relative error of a component: the anchor (~1e-14) and the cumulative log ratios
    comp = 1e-14 + 4 * _U * max(xa.size, ya.size) * (1.0 + lt)
    if xa.size * ya.size <= _DIRECT or min(xa.size, ya.size) <= 64:
        conv = np.convolve(xa, ya)                 # positive terms: relative error <= (terms) u
        start = xs + ys
        eta = 2 * comp + (min(xa.size, ya.size) + 4) * _U
    else:
        conv = _tilted_convolve(xa, ya, xs + ys, lo, hi, var)
        start = lo
        eta = _ETA
    a, b = max(lo, start), min(hi, start + conv.size - 1)
    with np.errstate(divide="ignore"):
        lp = np.log(conv[a - start:b - start + 1]) + (xsh + ysh)
    if a > lo:                                      # the components' windows start right of lo
        lp = np.concatenate([np.full(a - lo, -np.inf), lp])
    if b < hi:
        lp = np.concatenate([lp, np.full(hi - b, -np.inf)])
    if N == 0:
        outside, eta = 0.0, 0.0
    return lo, lp, (math.log(outside) if outside > 0 else -math.inf), eta


def _tilted_convolve(xa, ya, start, lo, hi, var):
    """The convolution of xa and ya (index 0 of the result is ``start``) on [lo, hi], by FFT
    with exponential tilting: for a tilt theta the FFT's absolute error is ~u max(tilted values), so
    each block of 6 standard deviations is taken from a tilt centred on it (relative error
    ~u log2(size) e^{(3 sd)^2 / (2 sd^2)} ~ 1e-13 there; measured against the recurrence of
    numeric.krandomization: below 1e-10)."""
    from scipy.signal import fftconvolve

    sd = math.sqrt(max(var, 1.0))
    out = np.zeros(hi - lo + 1)
    jx, jy = np.arange(xa.size), np.arange(ya.size)
    lxa, lya = np.log(xa), np.log(ya)
    mu_x = float(np.sum(jx * xa) / np.sum(xa))
    mu_y = float(np.sum(jy * ya) / np.sum(ya))
    mu = start + mu_x + mu_y
    width = max(6.0 * sd, 16.0)
    c = lo + width / 2
    while c - width / 2 <= hi:
        theta = (c - mu) / max(var, 1.0)
        tx = lxa + theta * jx
        ty = lya + theta * jy
        mx, my = tx.max(), ty.max()
        conv = fftconvolve(np.exp(tx - mx), np.exp(ty - my))
        s0, s1 = max(lo, math.floor(c - width / 2)), min(hi, math.ceil(c + width / 2))
        idx = np.arange(s0, s1 + 1) - start
        ok = (idx >= 0) & (idx < conv.size)
        vals = np.zeros(idx.size)
        with np.errstate(over="ignore", under="ignore"):
            vals[ok] = np.maximum(conv[idx[ok]], 0.0) * np.exp(mx + my - theta * idx[ok])
        out[s0 - lo:s1 - lo + 1] = vals
        c += width
    return out


def _window(N: int, k: int, q: float, log_tail: float):
    return _own_window(N, k, q, log_tail)


# == one k: the threshold form =================================================================================
class _Tails:
    """ln b(s) and ln G_w(s) (the window's own tail sums, a lower bound of G) on the window."""

    def __init__(self, N, k, q, log_tail):
        self.start, lp, self.log_out, eta = _window(N, k, q, log_tail)
        self.lp = lp
        top = float(np.max(lp))
        # G_w(t) = sum_{s >= t in window} b(s), in scaled linear space (the largest term is near 1)
        sc = np.exp(lp - top)
        g = np.cumsum(sc[::-1])[::-1]
        with np.errstate(divide="ignore"):
            self.lg = np.log(g) + top
        self.eta = eta + (lp.size + 8) * _U
        self.out = math.exp(self.log_out)


def _delta_k(tails: _Tails, p: float, q: float, eps: np.ndarray) -> np.ndarray:
    """Upper bounds of H_eps(U || V) for one k at every eps of a 1-d array (0 <= eps < ln(p/q), finite).
    Logarithms throughout: e^eps may overflow when q is tiny."""
    lp, lg, eta = tails.lp, tails.lg, tails.eta
    lq = math.log(q)
    p_lo = (1.0 - p) - q                                       # p = 1 - q exactly as p + p_lo
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        rq = np.exp(eps + lq)                                   # e^eps q to a few ulp
        alpha = (p - rq) + p_lo                                 # p - e^eps q: cancels as eps -> ln(p/q)
        la = np.log(alpha)
        la_up = np.log(alpha + 8 * _U * (p + rq))               # its rounding, on the raising side
        lbeta = np.where(eps > 0, eps + np.log(-np.expm1(-eps)), -np.inf)   # ln(e^eps - 1)
        lkappa = eps + np.log(p - q * np.exp(-eps)) - la      # ln((e^eps p - q)/(p - e^eps q))
        # first s (index i >= 1 of the window) with lp[i-1] - lp[i] >= ln kappa
        dl = lp[:-1] - lp[1:]
        dl = np.where(np.isnan(dl), np.inf, dl)      # -inf - -inf beyond the support: past the crossing
        dl = np.maximum.accumulate(dl) if dl.size else dl  # nondecreasing (log-concavity) after rounding
        i0 = np.searchsorted(dl, lkappa) + 1         # t = start + i0 is the maximiser
        W = lp.size
        best = np.zeros(eps.size)
        for off in range(-3, 4):
            i = np.clip(i0 + off, 1, W)              # t = start + i, b(t - 1) = lp[i - 1], G_w(t) = lg[i]
            lb = lp[i - 1]
            lgt = np.where(i < W, lg[np.minimum(i, W - 1)], -np.inf)
            d = np.exp(la_up + lb) * (1 + eta) - np.exp(lbeta + lgt) * (1 - eta)
            best = np.maximum(best, d)
        # the window's values may fall short of b by the cut of the components (within tails.out), and
        # past the window D(t) <= alpha b(t - 1) <= alpha tails.out: one term covers both
        best = best + np.exp(la_up) * tails.out
        best = np.where(best > 0, best * (1 + 8 * _U), 0.0)
        return np.minimum(np.nextafter(best, np.inf), 1.0)


def _eps_k(tails: _Tails, p: float, q: float, delta: float) -> float:
    """Upper bound of eps_k(delta) = max(0, ln max_t (U(>= t) - delta)/V(>= t)) for one k."""
    lg, eta, out = tails.lg, tails.eta, tails.out
    G = np.exp(lg)                                   # G_w(start + i), i = 0..W-1; G_w(start + W) = 0
    G = np.append(G, 0.0)
    g0, g1 = G[:-1], G[1:]                           # G(t - 1), G(t) for t = start + 1 .. start + W
    u_up = (p * g0 + q * g1) * (1 + eta) + out
    v_lo = (q * g0 + p * g1) * (1 - eta)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(v_lo > 0, (u_up - delta) / v_lo, np.where(u_up > delta, np.inf, 0.0))
    m = float(np.max(ratio))
    if m <= 1.0:
        return 0.0
    return float(np.nextafter(math.log(m) * (1 + 4 * _U), math.inf))


# == over k: branch and bound with the remove-records bound ====================================================
class _Search:
    """Branch and bound over k in [0, N]; ``value(N', k)`` returns a float or a 1-d array (upper bounds)."""

    def __init__(self, N, value):
        self.N = N
        self._value = value
        self.cache = {}
        self.evaluations = 0

    def value(self, Np, k):
        key = (Np, k)
        if key not in self.cache:
            self.cache[key] = np.atleast_1d(np.asarray(self._value(Np, k), dtype=float))
            self.evaluations += 1
        return self.cache[key]

    def bound(self, k1, k2):
        """Upper bound over k in [k1, k2]: the population without the k2 - k1 records in between."""
        return self.value(self.N - (k2 - k1), k1)

    def run(self, max_evaluations=None):
        """(best, worst k, upper).  Best first: the interval with the largest bound is split in two;
        a half is dropped once its bound is at most the best exact value found (both ends of [0, N]
        first, then every single k reached, whose bound is its exact value).  With a budget the search
        may stop early; ``upper`` is then the largest of best and the bounds of the intervals left, a
        certified upper bracket.  (Evaluating a point of every half as well finds the same maximum
        with about twice the evaluations.)"""
        N = self.N
        best = np.maximum(self.value(N, N), self.value(N, 0))
        best_k = np.where(self.value(N, N) >= self.value(N, 0), N, 0)
        heap = [(-float(np.max(self.bound(0, N))), 0, N)]
        while heap:
            if max_evaluations is not None and self.evaluations >= max_evaluations:
                upper = best
                for _, k1, k2 in heap:
                    upper = np.maximum(upper, self.bound(k1, k2))
                return best, best_k, upper
            _, k1, k2 = heapq.heappop(heap)
            if np.all(self.bound(k1, k2) <= best):
                continue
            m = (k1 + k2) // 2
            for a, b in ((k1, m), (m + 1, k2)):
                ub = self.bound(a, b)
                if a == b:                            # nothing removed: the exact value at k = a
                    better = ub > best
                    best = np.where(better, ub, best)
                    best_k = np.where(better, a, best_k)
                elif np.any(ub > best):
                    heapq.heappush(heap, (-float(np.max(ub - best)), a, b))
        return best, best_k, best


def _points(n, q):
    p = 1.0 - q
    return p, math.log(p / q)


def _eps_search(n, q, delta, max_evaluations=None):
    p, eps0 = _points(n, q)
    lt = min(745.0, -math.log(delta) + _L_MARGIN)

    def value(Np, k):
        return _eps_k(_Tails(Np, k, q, lt), p, q, delta)

    s = _Search(n - 1, value)
    best, best_k, upper = s.run(max_evaluations=max_evaluations)
    cap = float(np.nextafter(eps0, math.inf))
    s.upper = min(float(upper[0]), cap)
    return min(float(best[0]), cap), int(best_k[0]), s


def _delta_search(n, q, eps, max_evaluations=None):
    p, eps0 = _points(n, q)
    live = eps < eps0

    def value(Np, k):
        out = np.zeros(eps.size)
        if live.any():   # a floor common to every k (>= the outside-mass term) lets the search prune there
            out[live] = np.maximum(_delta_k(_Tails(Np, k, q, _L_PROFILE), p, q, eps[live]), _FLOOR)
        return out

    s = _Search(n - 1, value)
    best, best_k, upper = s.run(max_evaluations=max_evaluations)
    s.upper = np.minimum(upper, 1.0)
    return best, best_k, s


# == L >= 2: exact enumeration =================================================================================
def _enum_work(n, L):
    T = 2**L
    cells = (n + 1) ** T
    builds = math.comb(n - 1 + T, T)
    return cells * builds * T


def _enum_pairs(n, q, L):
    """Every (P, Q): the laws of the histogram when record 1 is 0...0 (P) or has weight h (Q), h = 1..L,
    and the other n - 1 records form any multiset of bit vectors (dense arrays over (n+1)^(2^L))."""
    p = 1.0 - q
    T = 2**L
    ham = np.array([[bin(a ^ b).count("1") for b in range(T)] for a in range(T)])
    K = p ** (L - ham) * q ** ham                   # K[a, b] = P(R(a) = b)
    shape = (n + 1,) * T

    def add(dist, a):
        new = np.zeros(shape)
        for b in range(T):
            sl_src = [slice(None)] * T
            sl_dst = [slice(None)] * T
            sl_src[b] = slice(0, n)
            sl_dst[b] = slice(1, n + 1)
            new[tuple(sl_dst)] += K[a, b] * dist[tuple(sl_src)]
        return new

    base = np.zeros(shape)
    base[(0,) * T] = 1.0
    xs = [(1 << h) - 1 for h in range(1, L + 1)]   # weight-h vectors (bits permuted: no loss)
    for combo in itertools.combinations_with_replacement(range(T), n - 1):
        d = base
        for a in combo:
            d = add(d, a)
        P = add(d, 0).ravel()
        for x in xs:
            yield P, add(d, x).ravel()


def _pair_delta(P, Q, eps):
    return np.array([np.sum(np.maximum(P - math.exp(e) * Q, 0.0)) for e in eps])


def _pair_eps(P, Q, delta):
    keep = (P > 0) | (Q > 0)
    P, Q = P[keep], Q[keep]
    with np.errstate(divide="ignore"):
        order = np.argsort(-(np.log(P) - np.log(Q)))
    cp, cq = np.cumsum(P[order]), np.cumsum(Q[order])
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(cq > 0, (cp - delta) / cq, np.where(cp > delta, np.inf, 0.0))
    m = float(np.max(r))
    return 0.0 if m <= 1.0 else math.log(m)


# == validation =================================================================================================
def _q(q):
    return scalar("q", q, 0.0, 0.5, lo_open=True, hi_open=True)


def _nL(n, L):
    n = count("n", n, 1, _MAX_N)
    L = count("L", L, 1, 60)
    return n, L


# == public functions ===========================================================================================
@provenance(*_CLAIMS)
def aggregated_profile(n, q, epsilons, L=1):
    r"""The exact privacy profile delta(eps) of the aggregated randomized response: the largest
    hockey-stick divergence H_eps = sum_s max(0, P(s) - e^eps P'(s)) between the laws of the released
    counts of two collections of n records that differ in one record.

    Source: k-randomization (003), Section 3 (display (3.1) and the open largest ratio) and
    Section 3.1 (L = 1: A_n(m) ~ Bin(m, p) + Bin(n - m, q)); the method is described in the module
    docstring (threshold form per k, branch and bound over k with the remove-records bound).

    Parameters: ``n >= 1`` records (an integer), ``q`` in (0, 1/2) the lie probability, ``epsilons``
    a real >= 0 or an array of them (``inf`` allowed: delta = 0), ``L >= 1`` bits per record.

    Returns delta for every epsilon, shape of ``epsilons`` (a NumPy scalar for a scalar).  Rounded on
    the safe side: never below the exact value, above it by at most ~1e-8 relative plus e^-100
    absolute (for eps < L ln(p/q), values under 2 e^-100 = 7.4e-44 are reported as 7.4e-44) plus
    ~1e-15 absolute from the rounding of p - e^eps q, which cancels as eps approaches L ln(p/q).
    Cost: one branch and bound for the whole vector (an interval is dropped when its bound is below
    the best value at every eps); n = 10^4 with 21 eps takes ~20 s.  delta = 0 exactly for
    eps >= L ln(p/q) (``kr.agg.pure_epsilon``).

    L >= 2: exact by enumeration while (n + 1)^(2^L) C(n - 1 + 2^L, 2^L) 2^L <= 2e7 (n <= 9 for L = 2,
    n <= 2 for L = 3);
    above that ``ValueError`` naming ``n`` (no profile bound is offered: use
    :func:`aggregated_epsilon`, which falls back to :func:`fmt_clone_bound`).

    >>> round(float(aggregated_profile(1, 0.25, 0.0)), 12)   # one record: p - q (rounded up)
    0.5
    """
    n, L = _nL(n, L)
    q = _q(q)
    memory_for(4, epsilons=epsilons)
    eps = as_float("epsilons", epsilons)
    require(eps >= 0, "epsilons", ">= 0 (inf allowed)")
    shape = eps.shape
    flat = eps.ravel()
    p, eps0 = _points(n, q)
    out = np.zeros(flat.size)
    live = np.isfinite(flat) & (flat < L * eps0)
    if live.any():
        e = flat[live]
        if L == 1:
            best, _, _ = _delta_search(n, q, e)
        else:
            if _enum_work(n, L) > _ENUM_WORK:
                fail("n", f"at most the enumeration limit for L = {L} (no certified profile above it; "
                          f"aggregated_epsilon uses the Feldman-McMillan-Talwar bound)", n)
            best = np.zeros(e.size)
            for P, Q in _enum_pairs(n, q, L):
                best = np.maximum(best, _pair_delta(P, Q, e))
            best = np.where(best > 0, np.nextafter(best * (1 + 2**-40), np.inf), 0.0)
        out[live] = np.minimum(best, 1.0)
    return scalar_out(out.reshape(shape))


@provenance(*_CLAIMS)
def aggregated_epsilon(n, q, delta, L=1):
    r"""The smallest epsilon for which the aggregated randomized response of n records is
    (epsilon, delta)-differentially private: max over neighbouring collections of
    max(0, ln max_S (P(S) - delta)/P'(S)).

    Source: k-randomization (003), Sections 3 and 3.1 (see the module docstring for the method).

    Parameters: ``n >= 1``, ``q`` in (0, 1/2), ``delta`` in [0, 1] (a real scalar), ``L >= 1``.

    Edges: ``delta = 0`` gives the pure epsilon L ln(p/q) exactly (``kr.agg.pure_epsilon``; never inf:
    every count has positive probability); ``delta >= 1`` gives 0.  Rounded up: never below the exact
    value, above it by at most 2 eta + e^(eps - 30) absolute (eta <= 1e-8 + (window size) 2^-52 the
    relative error of the window's probabilities, e^-30 delta the mass it leaves out); the tests find
    it within 1e-7 relative of exact values.

    L >= 2: exact by enumeration below the limit of :func:`aggregated_profile`; above it the
    Feldman-McMillan-Talwar numerical bound for an L ln(p/q)-LDP randomizer (:func:`fmt_clone_bound`,
    an upper bound by their Theorem 3.2, not the exact value).

    >>> round(float(aggregated_epsilon(1, 0.25, 0.0)), 12)  # ln(p/q) = ln 3
    1.098612288668
    """
    n, L = _nL(n, L)
    q = _q(q)
    d = scalar("delta", delta, 0.0, 1.0)
    p, eps0 = _points(n, q)
    if d == 0.0:
        return float(np.nextafter(L * eps0, math.inf))
    if d >= 1.0:
        return 0.0
    if L == 1:
        return _eps_search(n, q, d)[0]
    if _enum_work(n, L) <= _ENUM_WORK:
        e = max((_pair_eps(P, Q, d) for P, Q in _enum_pairs(n, q, L)), default=0.0)
        return float(np.nextafter(e * (1 + 2**-40), math.inf)) if e > 0 else 0.0
    return fmt_clone_bound(n, L * eps0, d)


@dataclass(frozen=True)
class AggregatedSearch:
    """The result of :func:`aggregated_search` (L = 1)."""
    n: int
    q: float
    kind: str              # "epsilon" (given delta) or "delta" (given epsilon)
    worst_k: int           # ones among the other n - 1 records at the maximum
    value: float           # the certified (safe-side) maximum
    lower: float           # a certified lower bracket (the same point without the safe-side slack)
    upper: float           # the certified upper bracket (= value)
    evaluations: int       # per-k evaluations (point values and interval bounds)
    seconds: float
    complete: bool = True  # False: stopped by max_evaluations; value is the best point found, the
                           # exact maximum lies in [lower, upper]


@provenance(*_CLAIMS)
def aggregated_search(n, q, *, epsilon=None, delta=None, max_evaluations=None):
    r"""The branch and bound of :func:`aggregated_epsilon` (given ``delta`` in (0, 1)) or of
    :func:`aggregated_profile` (given one ``epsilon`` >= 0) for L = 1, with its worst k, bracket,
    number of per-k evaluations and time (an :class:`AggregatedSearch`).

    Cost: the remove-records bound of an interval of w records exceeds the values inside by about
    w/(2N) relative, while the values of neighbouring k differ by O(N^-1.5) relative near the
    maximum, so the search evaluates a few hundred to a few thousand k and the count grows like
    N^0.6 (measured: 688, 2948 evaluations at n = 10^4, 10^5 for eps0 = 0.5; 46, 219, 816, 3265 at
    10^4..10^7 for eps0 = 4; benchmarks/bench_shuffle_rr.py), against n for the full scan.

    Source: k-randomization (003), Section 3.1; the remove-records bound ``kr.agg.remove_records``.
    The bracket [lower, upper] contains the exact maximum: ``upper`` is the safe-side value, ``lower``
    the same point's value with the safe-side slack removed in the other direction.  With
    ``max_evaluations`` (an integer >= 1) the search stops after about that many per-k evaluations
    (``complete`` False if intervals were left): ``value`` is then the best point found, ``upper`` the
    largest remaining interval bound (still certified), so that large n get a bracket in bounded time.

    >>> r = aggregated_search(50, 1 / (1 + math.exp(4.0)), epsilon=0.4)
    >>> r.worst_k
    41
    """
    n = count("n", n, 1, _MAX_N)
    q = _q(q)
    if epsilon is not None:
        e = scalar("epsilon", epsilon, 0.0, math.inf)
    if delta is not None:
        d = scalar("delta", delta, 0.0, 1.0, hi_open=True, lo_open=True)
    if (epsilon is None) == (delta is None):
        fail("delta" if delta is not None else "epsilon",
             "given alone: exactly one of epsilon and delta (a real scalar)")
    if max_evaluations is not None:
        max_evaluations = count("max_evaluations", max_evaluations, 1)
    t0 = time.perf_counter()
    p, eps0 = _points(n, q)
    if delta is not None:
        value, k, s = _eps_search(n, q, d, max_evaluations)
        # eps = ln of a ratio known to a relative 2 eta (eta <= 1e-8 + W u), plus the outside mass
        lower = max(0.0, value - 1e-7 - 4.0 * math.exp(value - _L_MARGIN))
        upper = s.upper
        kind = "epsilon"
    else:
        if e >= eps0:
            return AggregatedSearch(n, q, "delta", n - 1, 0.0, 0.0, 0.0, 0, time.perf_counter() - t0)
        best, bk, s = _delta_search(n, q, np.array([e]), max_evaluations)
        value, k = float(best[0]), int(bk[0])
        lower = max(0.0, value * (1 - 4 * _ETA) - 2 * math.exp(-_L_PROFILE) - 1e-14)
        upper = float(s.upper[0])
        kind = "delta"
    return AggregatedSearch(n, q, kind, k, value, lower, upper, s.evaluations, time.perf_counter() - t0,
                            upper == value)


# == the Feldman-McMillan-Talwar numerical bound ================================================================
def _fmt_delta(n, eps0, eps):
    """delta of Feldman, McMillan and Talwar's numerical bound at one eps, summed exactly over
    C ~ Bin(n - 1, e^-eps0) on a window (plus the omitted tail mass of C: an upper bound)."""
    from scipy import special, stats

    if eps >= eps0:
        return 0.0
    # Delta ~ Bern(a), a = e^eps0 / (e^eps0 + 1), b = 1 - a.  The two differences below are written with expm1
    # (eps < eps0 <= 700): a - e^eps b = e^eps (e^(eps0 - eps) - 1) / (1 + e^eps0) and e^eps a - b =
    # (e^(eps0 + eps) - 1) / (1 + e^eps0) stay accurate for eps0 down to the smallest floats, where a and b
    # both round to 1/2
    den = 1.0 + math.exp(eps0)
    c_lead = math.exp(eps) * math.expm1(eps0 - eps) / den
    c_lag = math.expm1(eps0 + eps) / den
    # given C = c, P = A + Delta and Q = A + 1 - Delta with A ~ Bin(c, 1/2): P(x)/Q(x) is nonincreasing
    # in x, and P(x) > e^eps Q(x) iff x < beta (c + 1), beta = rho / (1 + rho),
    # rho = (a - e^eps b) / (e^eps a - b)
    rho = c_lead / c_lag
    beta = rho / (1.0 + rho)
    m = n - 1
    pc = math.exp(-eps0)
    if m == 0 or pc == 0.0:
        cs, w, out = np.array([0]), np.array([1.0]), 0.0
    else:
        ar = _reach(m * pc * (1 - pc), 60.0)
        lo, hi = max(0, math.floor(m * pc - ar)), min(m, math.ceil(m * pc + ar))
        cs = np.arange(lo, hi + 1)
        w = stats.binom.pmf(cs, m, pc)
        out = 2 * math.exp(-60.0)
    x = np.ceil(beta * (cs + 1)) - 1                # largest integer x < beta (c + 1)
    F = np.where(x >= 0, special.bdtr(np.maximum(x, 0), cs, 0.5), 0.0)       # P(A <= x)
    F1 = np.where(x >= 1, special.bdtr(np.maximum(x - 1, 0), cs, 0.5), 0.0)  # P(A <= x - 1)
    # P(<= x) - e^eps Q(<= x) given C = c, with P(<= x) = a F + b F1 and Q(<= x) = b F + a F1
    h = np.maximum(F * c_lead - F1 * c_lag, 0.0)
    return float(np.sum(w * h)) * (1 + 1e-13 + 4 * (cs.size + 10) * _U) + out


_FMT_SLACK = 2e-11  # relative margin on the float delta of the clone pair (its error measured: 4e-12)


@provenance("kr.agg.pure_epsilon")
def fmt_clone_bound(n, eps0, delta):
    r"""The numerical "hiding among the clones" bound of Feldman, McMillan and Talwar (FOCS 2021,
    arXiv 2012.12803, Theorem 3.2 evaluated exactly): shuffling n reports of an eps0-LDP randomizer is
    (eps, delta)-DP for the returned eps, the smallest eps with
    D_{e^eps}(P || Q) <= delta, where C ~ Bin(n - 1, e^-eps0), A | C ~ Bin(C, 1/2),
    Delta ~ Bern(e^eps0 / (e^eps0 + 1)), P = (A + Delta, C - A + 1 - Delta) and
    Q = (A + 1 - Delta, C - A + Delta) (both directions are equal by the symmetry A -> C - A).

    Used here as the comparison bound for k-randomization (003) (randomized response is
    ln(p/q)-LDP, L bits L ln(p/q)).  The sum over C is exact on a window of C (the rest, < 2e-26, is
    added), each term a binomial cdf; eps by bisection to 4e-16 relative, returned at the upper end,
    accepting an eps only when delta(eps) (1 + 2e-11) <= delta, so that the float error of the sum (about
    4e-12 relative, measured against a 40-digit evaluation) cannot make the returned eps too small.

    Note: the values quoted for this bound at delta = 1e-6 (0.0550 for n = 10^4, eps0 = 1; 0.0452 for
    10^5, 2; 0.0501 for 10^6, 4) are 0.5-4 % above the exact evaluation here (0.0530, 0.04503,
    0.04931), which an independent double sum over c and x confirms (tests): they are consistent with
    the authors' stepped implementation, which returns an upper bound of this quantity.

    Parameters: ``n >= 1``, ``eps0 >= 0`` finite, ``delta`` in [0, 1].  delta = 0 gives eps0,
    delta >= 1 gives 0, eps0 = 0 gives 0; eps0 > 700 gives eps0 (the bound of post-processing, which
    exceeds the clone bound by O(delta) there: the clones have probability e^-eps0 < 1e-304).

    >>> round(fmt_clone_bound(10**4, 1.0, 1e-6), 4)   # 0.0550 is quoted: see the note above
    0.053
    """
    n = count("n", n, 1, _MAX_N)
    e0 = scalar("eps0", eps0, 0.0, math.inf)
    d = scalar("delta", delta, 0.0, 1.0)
    if e0 == 0.0 or d >= 1.0:
        return 0.0
    if d == 0.0 or e0 > 700.0:
        return e0        # above 700 the clones have probability < 1e-304: the bound is eps0 - O(delta)
    if _fmt_delta(n, e0, 0.0) <= d:
        return 0.0
    lo, hi = 0.0, e0
    while hi - lo > 4e-16 * hi:
        mid = 0.5 * (lo + hi)
        if _fmt_delta(n, e0, mid) * (1.0 + _FMT_SLACK) <= d:   # the float delta may be low by ~1e-12 relative
            hi = mid
        else:
            lo = mid
    return float(np.nextafter(hi, math.inf))
