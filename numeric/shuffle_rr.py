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
it returns is exact (up to the rounding below) and certified.  Intervals of at least 16 records use the
tighter fair-coin bound (the decomposition is ``kr.agg.fair_coin``, proved; the bound follows from it by joint
convexity and data processing of the hockey-stick divergence, argued in that claim's note and checked against
exact laws in the tests): each of the k2 - k1 records in between reports a fair
coin with probability 2q whatever its bit, so their count is J + Bin(M, 1/2) with M ~ Bin(k2 - k1, 2q)
the same for every k; keeping m0 fair coins in place of the removed records, with m0 chosen by
Bernstein's inequality so that P(M < m0) <= 1e-6 delta, bounds every k of the interval by the epsilon
of that population at delta (1 - 1.01e-6).  It keeps a share 1/(2p) of the removed records' variance,
so the bound exceeds the values inside by about (1 - 1/(2p)) w/(2n) instead of w/(2n).

*One evaluation, whatever n* (``numeric._saddle``).  For epsilon, every law of variance 400 or more is evaluated
without a window: b and G = P(B >= t) at a few points t, from the closed-form characteristic function of B
(a sum of Bernoulli groups) tilted to the saddle point of t and inverted by a trapezoid sum of a few dozen
terms, with bounds on the aliased and truncated terms (Bernstein's inequality; |phi| <= exp(-2 V w^2/pi^2))
and on the rounding.  The threshold form is then taken at the maximiser, located by Dinkelbach's iteration
and certified by the log-concavity of b (:func:`_eps_laws`): about 20 microseconds a law when many are
evaluated together, so the search splits its 32 best intervals at once and evaluates their halves in one
call.  The relative errors are about 1e-10, so brackets are about 1e-9 relative wide (the window's 2 eta
absolute on eps was 1e-5 relative at n = 10^6).  The profile (delta given eps) takes the threshold form at
the crossing of c(eps) in the same way (:func:`_delta_laws`; no iteration: eps is given).  Smaller laws and
any law whose certificate does not close use the window below.

*Rounding.*  Every returned epsilon or delta is an upper bound of the exact one: the pmf of B_k is
known on a window whose outside mass is bounded (Bernstein's inequality), the window's tail sums are
taken as lower bounds of G and the outside mass is added where it can raise the value, and the
relative error of the computed pmf (``_ETA``, see below) is added on the side that raises the value
before rounding up by ``np.nextafter``.  The excess over the exact value is at most about
1e-8 relative plus the outside mass (at most delta e^-30 in ``aggregated_epsilon``, e^-100 in
``aggregated_profile``).  The window is computed here (``_own_window``: components in Loader's form,
a direct or exponentially tilted FFT convolution), checked in the tests against the recurrence of
``numeric.krandomization._count_window`` and against mpmath.

The pure epsilon ln(p/q) enters through the two floats around its exact value (decided in mpmath), and
p - e^eps q through eps - ln(p/q) with expm1: as q -> 1/2, where ln(p/q) -> 0, the logarithm of the
rounded ratio p/q would be off by 1e-16 absolute, i.e. by a relative 1e-10 at q = 1/2 - 1e-7 (and, below
it, a delta of 1e-18 was once reported as 0).  Per k, the threshold form is bounded above and below at
every threshold of the window; no location of the maximiser is relied on.

*Stopping early.*  The search may stop at a relative width ``rtol`` of its certified bracket (it then starts
from about 2 (1 - 1/(2p))/rtol equal intervals, and its windows leave out at most delta e^-12) or at a budget
of CPU time (process time; 20 s by default for :func:`aggregated_epsilon` and :func:`aggregated_profile`):
the value returned is then the upper end of the bracket (certified, never below the exact value), and
:func:`aggregated_epsilon` says so in the attributes of its :class:`AggregatedEpsilon` (a float carrying
``lower``, ``upper``, ``worst_k``, ``evaluations``, ``complete``).  n is at most 10^10 (one evaluation at
10^10 handles a window of about 10^6 points).

*Pure epsilon* (``kr.agg.pure_epsilon``): delta = 0 for eps >= L ln(p/q) and epsilon(0) = L ln(p/q)
for every n.

*L >= 2*: exact by enumeration for small n (the differing pair fixed to 0...0 and a vector of weight
h by the bit-flip and coordinate-permutation symmetries, the other n - 1 records ranging over every
multiset), otherwise the numerical bound of Feldman, McMillan and Talwar ("Hiding among the clones",
FOCS 2021, arXiv 2012.12803) for an L ln(p/q)-LDP randomizer, an upper bound by their theorem.
"""
from __future__ import annotations

import functools
import heapq
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from ._common import as_float, count, fail, memory_for, provenance, require, scalar, scalar_out

__all__ = ["aggregated_profile", "aggregated_epsilon", "aggregated_search", "fmt_clone_bound"]

_MAX_N = 10**10                # records: one evaluation at 10^10 is a window of ~10^6 points (about 1 s of CPU)
_CPU_BUDGET = 20.0             # default CPU seconds of aggregated_epsilon and aggregated_profile
_ETA = 1e-8                    # bound on the relative error of the window pmf used for the safe side
_U = 2.0**-52
_L_PROFILE = 100.0             # the window of aggregated_profile leaves out at most e^-100
_L_MARGIN = 30.0               # ... of aggregated_epsilon at most delta e^-30
_L_MARGIN_RTOL = 12.0          # ... and with rtol >= 1e-6 at most delta e^-12
_FLOOR = 2.0 * math.exp(-_L_PROFILE)   # profile values below it are reported as it (7.4e-44)
_DIRECT = 4_000_000            # direct (relative-accurate) convolution below this many products
_ENUM_WORK = 20_000_000        # L >= 2: cells x (distributions built) for the exact enumeration
_CLAIMS = ("kr.agg.threshold_form", "kr.agg.remove_records", "kr.agg.fair_coin", "kr.agg.symmetry",
           "kr.agg.loss_monotone", "kr.agg.pure_epsilon")


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


def _binom_window(m: int, q: float, ones: bool, log_tail: float, log: bool = False):
    """(start, pmf / e^shift, shift) of Bin(m, p) (``ones``) or Bin(m, q) on [mean - a, mean + a] (a by
    Bernstein).  One anchor at the mode in Loader's saddle-point form (p = 1 - q carried exactly as
    p_hi + p_lo), the rest by cumulative sums of the log ratios
    ln P(j+1)/P(j) = ln((m - j)/(j + 1)) + ln(r/(1 - r)): absolute error in the log at most about
    (size) u (1 + max |ln P - ln P(mode)|), below 1e-10 for the windows used here.  With ``log`` the
    window holds ln(pmf) - shift instead."""
    if m == 0:
        return 0, (np.zeros(1) if log else np.ones(1)), 0.0
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
    return lo, (lp if log else np.exp(lp)), anchor


def _own_window(N: int, k: int, q: float, log_tail: float, coins: int = 0):
    """(start, logpmf, log_outside, eta) for B = Bin(k, p) + Bin(N - k, q) (+ Bin(coins, 1/2)): ln P(B = s)
    for s = start.. on [floor(EB) - 3, EB + a], ln of a bound on the mass left out plus the deficit of the
    window's values (each component is cut where its tails hold at most e^-log_tail / 8), and a bound
    eta on the relative error of the window's probabilities.

    The same law as numeric.krandomization._count_window (whose recurrence is the reference in the
    tests), computed faster for the many evaluations of the search: a direct convolution of the
    components (positive terms, no cancellation) when it is small, else an FFT with exponential
    tilting.  Only the part right of the mode is needed (see the module docstring): B is a sum of
    independent Bernoulli variables (fair coins included), whose mode is within 1 of its mean.
    ``coins`` fair coins are the part of removed records kept by the fair-coin bound
    (``kr.agg.fair_coin``)."""
    p = 1.0 - q
    mu = k * p + (N - k) * q + 0.5 * coins
    var = N * p * q + 0.25 * coins
    top = N + coins
    hi = min(top, math.ceil(mu + _reach(var, log_tail)))
    lo = max(0, math.floor(mu) - 3)
    lt = log_tail + math.log(8.0)
    comps = [_binom_window(k, q, True, lt, log=True), _binom_window(N - k, q, False, lt, log=True)]
    if coins:
        comps.append(_binom_window(coins, 0.5, False, lt, log=True))
    outside = math.exp(-log_tail) * (1.0 if hi < top else 0.5) + 2 * len(comps) * math.exp(-lt)
    # relative error of a component: the anchor (~1e-14) and the cumulative log ratios
    comp = 1e-14 + 4 * _U * max(c[1].size for c in comps) * (1.0 + lt)
    sizes = sorted(c[1].size for c in comps)
    if (len(comps) == 2 and (sizes[0] * sizes[1] <= _DIRECT or sizes[0] <= 64)) or \
            (len(comps) == 3 and sizes[0] * sizes[1] + (sizes[0] + sizes[1]) * sizes[2] <= _DIRECT):
        comps.sort(key=lambda c: c[1].size)
        start, conv, eta = comps[0][0], np.exp(comps[0][1]), comp
        for cs, la, _ in comps[1:]:        # positive terms: relative error <= (terms) u per product
            eta = eta + comp + (min(conv.size, la.size) + 4) * _U
            conv = np.convolve(conv, np.exp(la))
            start += cs
    else:
        conv = _tilted_convolve([c[1] for c in comps], sum(c[0] for c in comps), lo, hi, mu, var)
        start = lo
        eta = _ETA
    shift = sum(c[2] for c in comps)
    a, b = max(lo, start), min(hi, start + conv.size - 1)
    with np.errstate(divide="ignore"):
        lp = np.log(conv[a - start:b - start + 1]) + shift
    if a > lo:                                      # the components' windows start right of lo
        lp = np.concatenate([np.full(a - lo, -np.inf), lp])
    if b < hi:
        lp = np.concatenate([lp, np.full(hi - b, -np.inf)])
    if top == 0:
        outside, eta = 0.0, 0.0
    return lo, lp, (math.log(outside) if outside > 0 else -math.inf), eta


def _fft_size(size):
    """The smallest of 2^m and 3 2^(m-1) at least ``size``: a few prepared sizes, so that the FFT plans
    (cached by scipy.fft for recent sizes; planning a new size costs far more than the transform) are
    reused across the evaluations of a search."""
    m = max(1, (size - 1).bit_length())
    return 3 << (m - 2) if m >= 2 and 3 << (m - 2) >= size else 1 << m


_BLOCK_SD = 10.0               # width of a block of _tilted_convolve in standard deviations of B


def _tilted_convolve(las, start, lo, hi, mu, var):
    """The convolution of the positive arrays exp(``las``) (index 0 of the result is ``start``; mean about
    ``mu``, variance ``var``: the tilts are centred from them) on [lo, hi], by FFT
    with exponential tilting: for a tilt theta the FFT's absolute error is ~u max(tilted values), so
    [lo, hi] is cut into equal blocks of at most _BLOCK_SD standard deviations, each taken from a tilt
    centred on it (relative error ~u log2(size) e^{(5 sd)^2 / (2 sd^2)} ~ 1e-10 there for a normal
    shape; measured against the recurrence of numeric.krandomization and against mpmath: below 1e-9,
    tests).  One real FFT of a prepared size (:func:`_fft_size`) per component and block; the
    search window of aggregated_epsilon (about 9.4 sd) is one block."""
    from scipy import fft as sfft

    sd = math.sqrt(max(var, 1.0))
    out = np.zeros(hi - lo + 1)
    js = [np.arange(a.size, dtype=float) for a in las]
    size = sum(a.size for a in las) - len(las) + 1
    nfft = _fft_size(size)
    blocks = max(1, math.ceil((hi - lo + 1) / max(_BLOCK_SD * sd, 16.0)))
    width = (hi - lo + 1) / blocks
    for b in range(blocks):
        s0 = lo + math.floor(b * width)
        s1 = min(hi, lo + math.floor((b + 1) * width) - 1) if b < blocks - 1 else hi
        c = 0.5 * (s0 + s1)
        theta = (c - mu) / max(var, 1.0)
        spec, mx = None, 0.0
        for j, la in zip(js, las):
            t = la + theta * j
            m = t.max()
            f = sfft.rfft(np.exp(t - m), nfft)
            spec = f if spec is None else spec * f
            mx += m
        conv = sfft.irfft(spec, nfft)
        i0, i1 = max(s0 - start, 0), min(s1 - start, size - 1)
        if i1 < i0:
            continue
        idx = np.arange(i0, i1 + 1, dtype=float)
        with np.errstate(over="ignore", under="ignore"):
            out[i0 + start - lo:i1 + start - lo + 1] = (np.maximum(conv[i0:i1 + 1], 0.0)
                                                         * np.exp(mx - theta * idx))
    return out


def _window(N: int, k: int, q: float, log_tail: float, coins: int = 0):
    return _own_window(N, k, q, log_tail, coins)


# == one k: the threshold form =================================================================================
class _Tails:
    """ln b(s) and ln G_w(s) (the window's own tail sums, a lower bound of G) on the window."""

    def __init__(self, N, k, q, log_tail, coins=0):
        self.start, lp, self.log_out, eta = _window(N, k, q, log_tail, coins)
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
    """Upper bounds of H_eps(U || V) for one k at every eps of a 1-d array (0 <= eps < ln(p/q), finite)."""
    return _delta_k_bracket(tails, p, q, eps)[0]


def _delta_k_bracket(tails: _Tails, p: float, q: float, eps: np.ndarray):
    """(upper, lower) bounds of H_eps(U || V) = max_t D(t), D(t) = alpha b(t-1) - beta G(t),
    alpha = p - e^eps q, beta = e^eps - 1, for one k at every eps of a 1-d array (0 <= eps < ln(p/q),
    finite).  D is bounded above and below at every t of the window (the maximiser, the first t with
    b(t-1)/b(t) >= (e^eps p - q)/(p - e^eps q), lies in it or past it, where D(t) <= alpha (the mass left
    out)); no location of the maximiser is relied on.  Logarithms throughout: e^eps may overflow when q is
    tiny."""
    lp, lg, eta, out = tails.lp, tails.lg, tails.eta, tails.out
    p_lo = (1.0 - p) - q                                       # p = 1 - q exactly as p + p_lo
    W = lp.size
    lb = lp[:, None]                                           # b(t - 1), t = start + 1 .. start + W
    lgt = np.append(lg[1:], -np.inf)[:, None]                  # G_w(t), 0 past the window
    with np.errstate(divide="ignore", under="ignore", over="ignore"):
        g_up = np.log(np.exp(lgt) + out)                       # G(t) <= G_w(t) + the mass left out
    upper = np.zeros(eps.size)
    lower = np.zeros(eps.size)
    step = max(1, 2_000_000 // max(W, 1))
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        # alpha = p - e^eps q = -p expm1(eps - ln(p/q)) cancels as eps -> ln(p/q): written from the
        # difference x = eps - ln(p/q), bounded by the floats around ln(p/q), on the raising side for la_up
        # and on the lowering side for la_lo
        _, c_lo, c_hi = _ln_odds(q)                            # the floats around the exact ln(p/q)
        pp = p + p_lo
        for j in range(0, eps.size, step):
            e = eps[j:j + step]
            x_lo, x_hi = e - c_hi, e - c_lo                    # the exact difference lies between, up to
            x_lo = x_lo - 2 * _U * np.abs(x_lo)                # the rounding of the subtractions
            x_hi = x_hi + 2 * _U * np.abs(x_hi)
            la_up = np.where(x_lo < 0, np.log(-pp * np.expm1(x_lo) * (1 + 4 * _U)), -np.inf)  # >= ln alpha
            la_lo = np.where(x_hi < 0, np.log(-pp * np.expm1(x_hi) * (1 - 4 * _U)), -np.inf)  # <= ln alpha
            lbeta = np.where(e > 0, e + np.log(-np.expm1(-e)), -np.inf)   # ln(e^eps - 1), within 2 ulp
            d_up = np.exp(la_up + lb) * (1 + eta) - np.exp(lbeta + lgt) * (1 - eta)
            d_lo = np.exp(la_lo + lb) * (1 - eta) - np.exp(lbeta + g_up) * (1 + eta)
            up = np.max(d_up, axis=0, initial=0.0)
            # the window's values may fall short of b by the cut of the components (within out), and past
            # the window D(t) <= alpha b(t - 1) <= alpha out: one term covers both
            up = up + np.exp(la_up) * out
            upper[j:j + step] = np.where(up > 0, up * (1 + 8 * _U), 0.0)
            lower[j:j + step] = np.maximum(np.max(d_lo, axis=0, initial=0.0) * (1 - 8 * _U), 0.0)
    return np.minimum(np.nextafter(upper, np.inf), 1.0), lower


def _eps_k(tails: _Tails, p: float, q: float, delta: float) -> float:
    """Upper bound of eps_k(delta) = max(0, ln max_t (U(>= t) - delta)/V(>= t)) for one k."""
    return _eps_k_bracket(tails, p, q, delta)[0]


def _eps_k_bracket(tails: _Tails, p: float, q: float, delta: float):
    """(upper, lower) bounds of eps_k(delta) for one k: the window's tail sums G_w bound G from below and
    G_w + (the mass left out) from above, each probability within a relative eta."""
    lg, eta, out = tails.lg, tails.eta, tails.out
    G = np.exp(lg)                                   # G_w(start + i), i = 0..W-1; G_w(start + W) = 0
    G = np.append(G, 0.0)
    g0, g1 = G[:-1], G[1:]                           # G(t - 1), G(t) for t = start + 1 .. start + W
    u_mid = p * g0 + q * g1
    v_mid = q * g0 + p * g1
    u_up = u_mid * (1 + eta) + out
    v_lo = v_mid * (1 - eta)
    u_lo = u_mid * (1 - eta)
    v_up = v_mid * (1 + eta) + out
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):     # an overflow is +inf: an upper value
        ratio = np.where(v_lo > 0, (u_up - delta) / v_lo, np.where(u_up > delta, np.inf, 0.0))
        ratio_lo = np.where(v_up > 0, (u_lo - delta) / v_up, 0.0)
    m = float(np.max(ratio))
    m_lo = float(np.max(ratio_lo))
    lower = max(0.0, math.log(m_lo) * (1 - 4 * _U) - 4 * _U) if m_lo > 1.0 else 0.0
    if m <= 1.0:
        return 0.0, 0.0
    # m is at most 2 roundings below the exact ratio bound, ln m one more: 4 ulp absolute cover them where
    # ln m is small (q -> 1/2), the relative term where it is large
    return float(np.nextafter(math.log(m) * (1 + 4 * _U) + 4 * _U, math.inf)), min(lower, math.log(m))


# == one k, many at once: the threshold form at the located maximiser ==========================================
_FLIP = np.array([True, False, False])  # the kernel's groups: a - Bin(a, q) = Bin(a, p), Bin(b, q), Bin(m, 1/2)
_SADDLE_MIN_VAR = 400.0        # the Fourier kernel (numeric._saddle) for laws of at least this variance
_CHECK_CROSSING = True         # the certificate's check that the exact crossing lies among the points (a test
                               # turns it off to show that the values are then understated)
_SADDLE_ETA_MAX = 1e-6         # ... whose probabilities it bounds within this relative error (else the window)


def _gauss_start(delta, gap, sd):
    """x >= 0 with 2 a (phi(x) - x Phi(-x)) = delta, a = gap / (2 sd): where the optimal threshold of a normal
    pair N(0, sd^2) + {p, q} lies, in standard deviations right of the midpoint (a starting point only)."""
    from scipy.special import erfcx

    y = np.log(delta * sd / gap)
    lo, hi = np.zeros_like(y), np.full_like(y, 40.0)
    for _ in range(40):
        x = 0.5 * (lo + hi)
        g = -0.5 * x * x - 0.5 * math.log(2 * math.pi) + np.log(np.maximum(
            1.0 - x * math.sqrt(math.pi / 2) * erfcx(x / math.sqrt(2)), 1e-300))
        lo, hi = np.where(g > y, x, lo), np.where(g > y, hi, x)
    return lo


def _ln_c_bounds(eps, p, q):
    """Bounds of ln c(eps), c = (e^eps p - q)/(p - e^eps q) (0 <= eps < ln(p/q)): the ratio b(t-1)/b(t) at
    which the maximiser of the threshold form lies (``kr.agg.threshold_form``).  NaN where eps >= ln(p/q)."""
    _, c_lo, c_hi = _ln_odds(q)
    p_lo = (1.0 - p) - q
    pp = p + p_lo
    with np.errstate(invalid="ignore", divide="ignore"):
        A = (1.0 - 2.0 * q) + pp * np.expm1(eps)    # e^eps p - q, no cancellation (1 - 2q exact for q >= 1/4,
        #                                             where p - q of the rounded p is not)
        x_lo, x_hi = eps - c_hi, eps - c_lo          # eps - ln(p/q) < 0, bracketed
        x_lo = x_lo - 2 * _U * np.abs(x_lo)
        x_hi = x_hi + 2 * _U * np.abs(x_hi)
        d_max = -pp * np.expm1(x_lo)                 # p - e^eps q at its largest and smallest
        d_min = -pp * np.expm1(x_hi)
        lo = np.log(A) - np.log(d_max) - 16 * _U * (1 + np.abs(np.log(A)) + np.abs(np.log(d_max)))
        hi = np.log(A) - np.log(d_min) + 16 * _U * (1 + np.abs(np.log(A)) + np.abs(np.log(d_min)))
    bad = ~(x_hi < 0) | ~(d_min > 0)
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def _eps_laws(counts, q, delta, log_tail, hint=None):
    """(upper, lower) bounds of the epsilon at delta of (B + Ber(p), B + Ber(q)) for each law
    B = Bin(a, p) + Bin(b, q) + Bin(m, 1/2), counts rows (a, b, m), delta one per law.

    Laws of variance at least _SADDLE_MIN_VAR: the threshold form at the located maximiser.  By
    ``kr.agg.threshold_form`` (b log-concave, ``kr.agg.loss_monotone``) H_eps = max_t D(t) is attained at the
    first t with rho(t) = b(t-1)/b(t) >= c(eps), and eps_k(delta) = max_t ln R(t),
    R(t) = (U(>= t) - delta)/V(>= t) = (G(t) + p b(t-1) - delta)/(G(t) + q b(t-1)).  Dinkelbach's iteration
    (eps from R at a point, the next point where rho = c(eps), about the saddle point of ln c(eps)) finds the
    maximiser; the bound is then certified on a few consecutive points t_1 < ... < t_C: with
    eps_up = ln max_t R_up(t), rho(t_1) < c(eps_up) and rho(t_C) >= c(eps_up) (checked on bounds of rho
    and of c) place the exact first crossing t* in (t_1, t_C], where R(t*) <= e^eps_up, so
    H_{eps_up} = U(>= t*) - e^eps_up V(>= t*) <= delta and eps_k <= eps_up.  ln R_lo at any point is a lower
    bound.  b and G come from numeric._saddle with their relative error bounds (R - 1 is formed as
    ((p - q) b(t-1) - delta)/(G(t) + q b(t-1)), so those bounds enter eps nearly relative to eps itself).

    Other laws, and any whose certificate does not close, take the window (:class:`_Tails`).  ``hint``: an
    epsilon near those sought (the search's best so far), where the iteration starts."""
    from . import _saddle

    counts = np.asarray(counts, dtype=float)
    delta = np.broadcast_to(np.asarray(delta, dtype=float), (counts.shape[0],)).copy()
    L = counts.shape[0]
    p = 1.0 - q
    r = np.array([q, q, 0.5])                            # Bin(a, p) as a - Bin(a, q): every probability exact
    upper = np.full(L, np.nan)
    lower = np.full(L, np.nan)
    var = counts @ (r * (1.0 - r))
    sd = np.sqrt(var)
    gap = 1.0 - 2.0 * q                                  # p - q (exact for q >= 1/4)
    eps_odds = _ln_odds(q)[1]
    live = np.flatnonzero(var >= _SADDLE_MIN_VAR)
    with np.errstate(all="ignore"):                 # every invalid value is caught by the checks
        if live.size:
            c, d, s = counts[live], delta[live], sd[live]
            th_min = 1.5 / s
            # the start: the normal pair's threshold; one spectrum serves the Dinkelbach steps (eps from R at a
            # point, the next point where rho = c(eps), about the saddle point of ln c(eps)) while they stay near it
            if hint is not None and 0.0 < hint < eps_odds:   # an epsilon near those sought: start at its crossing
                lc0 = math.log((gap + p * math.expm1(hint)) / (-p * math.expm1(hint - _ln_odds(q)[0])))
                theta = np.maximum(np.full(live.size, lc0 if math.isfinite(lc0) else 0.0), th_min)
                steps = 2
            else:
                theta = np.maximum(_gauss_start(d, gap, s) / s, th_min)
                steps = 3
            spec = _saddle.Spectrum(c, r, theta, s + 16.0, _FLIP)
            t = np.round(_saddle.mean_tilt(c, r, theta, _FLIP) + 0.5)
            for _ in range(steps):
                f = spec.at(t - 1.0, 2)
                b1, G = np.exp(f["lb"][:, 0]), np.exp(f["lG"][:, 1])
                R = (G + p * b1 - d) / (G + q * b1)
                eps = np.log(np.clip(R, 1.0, None))
                lc = np.log((gap + p * np.expm1(eps)) / (-p * np.expm1(eps - _ln_odds(q)[0])))
                lc = np.where(np.isfinite(lc), lc, 0.0)
                t = np.round(_saddle.mean_tilt(c, r, np.maximum(lc, 0.0), _FLIP) + 0.5)
            theta = np.maximum(lc, th_min)
            far = np.abs(t - spec.mean) > s + 8.0
            if np.any(far):
                spec = _saddle.Spectrum(c, r, np.where(far, theta, spec.theta), s + 16.0, _FLIP)
            up = np.full(live.size, np.nan)
            lo = np.full(live.size, np.nan)
            todo = np.arange(live.size)
            half = 2
            for _ in range(3):                               # certify; shift the points where they miss
                if not todo.size:
                    break
                di, ti, thi = d[todo], t[todo], spec.theta[todo]
                # the points t_1 .. t_C = t - half .. t + half, and b from t_1 - 1
                x0, C = ti - half - 1.0, 2 * half + 2
                f = _saddle.at_points(c[todo], r, thi, x0, C, flip=_FLIP) if todo.size < live.size else spec.at(x0, C)
                lb, eb, lbt, ebt = f["lb"], f["eb"], f["lbt"], f["ebt"]
                lG, eG = f["lG"][:, 1:], f["eG"][:, 1:]
                b1, eb1 = np.exp(lb[:, :-1]), eb[:, :-1]     # b(t - 1) at each point
                G = np.exp(lG)
                pb_up, pb_lo = gap * b1 * (1 + eb1) * (1 + 2 * _U), gap * b1 * (1 - eb1) * (1 - 2 * _U)
                num_up = pb_up - di[:, None] + 4 * _U * (pb_up + di[:, None])
                num_lo = pb_lo - di[:, None] - 4 * _U * (pb_lo + di[:, None])
                den_lo = (G * (1 - eG) + q * b1 * (1 - eb1)) * (1 - 4 * _U)
                den_up = (G * (1 + eG) + q * b1 * (1 + eb1)) * (1 + 4 * _U)
                x_up = np.where(num_up >= 0, num_up / den_lo, num_up / den_up)
                x_lo = np.where(num_lo >= 0, num_lo / den_up, num_lo / den_lo)
                x_up = x_up + 4 * _U * np.abs(x_up)
                x_lo = x_lo - 4 * _U * np.abs(x_lo)
                e_up = np.where(x_up > 0, np.log1p(x_up) * (1 + 4 * _U), 0.0)
                e_lo = np.where(x_lo > 0, np.log1p(x_lo) * (1 - 4 * _U), 0.0)
                eu = np.max(e_up, axis=1)
                el = np.max(e_lo, axis=1)
                # rho(t) = e^theta b_theta(t-1)/b_theta(t), bounded
                lr = thi[:, None] + lbt[:, :-1] - lbt[:, 1:]
                er = 1.1 * (ebt[:, :-1] + ebt[:, 1:]) + 8 * _U * (1 + np.abs(lr))
                lr_up, lr_lo = lr + er, lr - er
                lc_lo, lc_hi = _ln_c_bounds(eu, p, q)
                ok_left = lr_up[:, 0] < lc_lo
                ok_right = lr_lo[:, -1] >= lc_hi
                sound = np.all(np.isfinite(eb) & (eb < _SADDLE_ETA_MAX), axis=1) & \
                    np.all(np.isfinite(eG) & (eG < _SADDLE_ETA_MAX), axis=1) & (eu < eps_odds) & \
                    np.all(lb < 0.5, axis=1) & np.all((lG < 0.5) & (den_lo > 0), axis=1) & np.isfinite(el)
                done = ((ok_left & ok_right) | (not _CHECK_CROSSING)) & sound
                up[todo[done]] = eu[done]
                lo[todo[done]] = np.minimum(el[done], eu[done])
                # where the crossing lies outside the points: move them by the slope of ln rho (about 1/V)
                miss = ~done & sound & np.isfinite(lc_lo)
                fix = todo[miss]
                if fix.size:
                    lc_mid = 0.5 * (lc_lo[miss] + lc_hi[miss])
                    centre = lr[miss, half]
                    vt = _saddle.tilted(c[fix], r, thi[miss], _FLIP)[3]
                    t[fix] = ti[miss] + np.round((lc_mid - centre) * vt)
                todo = fix
                half = 4 * half
            ok = np.isfinite(up)
            upper[live[ok]] = np.where(up[ok] > 0, np.nextafter(up[ok] + 4 * _U, np.inf), 0.0)
            lower[live[ok]] = lo[ok]
    p_ = 1.0 - q
    for i in np.flatnonzero(~np.isfinite(upper)):       # the window: small laws and uncertified ones
        a, b, m = (int(v) for v in counts[i])
        upper[i], lower[i] = _eps_k_bracket(_Tails(a + b, a, q, log_tail, coins=m), p_, q, float(delta[i]))
    return upper, lower


def _delta_laws(counts, q, eps):
    """(upper, lower) bounds of H_eps(B + Ber(p) || B + Ber(q)), shape (laws, eps), for each law
    B = Bin(a, p) + Bin(b, q) (rows (a, b, 0)) at every eps of a 1-d array (0 <= eps < ln(p/q)).

    Laws of variance at least _SADDLE_MIN_VAR: the threshold form (``kr.agg.threshold_form``)
    H_eps = max_t D(t), D(t) = alpha b(t-1) - beta G(t), alpha = p - e^eps q, beta = e^eps - 1, is attained
    at the first t with rho(t) = b(t-1)/b(t) >= c(eps) (b log-concave); the points t_1 < ... < t_C about
    the saddle point of ln c(eps) hold it when rho(t_1) < c(eps) <= rho(t_C) (checked on bounds of rho and
    c), and then H_eps is at most the largest upper bound of D over them (b and G from numeric._saddle with
    their error bounds).  Values below about 1e-300 may come out as 0 (exp underflows): the caller floors
    every value at _FLOOR.  Others take the window (None in the returned mask)."""
    from . import _saddle

    counts = np.asarray(counts, dtype=float)
    eps = np.asarray(eps, dtype=float)
    L, m = counts.shape[0], eps.size
    p = 1.0 - q
    r = np.array([q, q, 0.5])                            # Bin(a, p) as a - Bin(a, q) (see _eps_laws)
    upper = np.full((L, m), np.nan)
    lower = np.full((L, m), np.nan)
    var = counts @ (r * (1.0 - r))
    live = np.flatnonzero(var >= _SADDLE_MIN_VAR)
    with np.errstate(all="ignore"):                 # every invalid value is caught by the checks
        if live.size and m:
            c = np.repeat(counts[live], m, axis=0)                  # one row per (law, eps)
            e = np.tile(eps, live.size)
            s = np.sqrt(np.repeat(var[live], m))
            lc_lo, lc_hi = _ln_c_bounds(e, p, q)
            lc = np.where(np.isfinite(lc_lo), 0.5 * (lc_lo + lc_hi), 0.0)
            theta = np.maximum(lc, 1.5 / s)
            t = np.round(_saddle.mean_tilt(c, r, np.maximum(lc, 0.0), _FLIP) + 0.5)
            _, c_lo, c_hi = _ln_odds(q)
            pp = p + ((1.0 - p) - q)
            x_lo, x_hi = e - c_hi, e - c_lo
            x_lo, x_hi = x_lo - 2 * _U * np.abs(x_lo), x_hi + 2 * _U * np.abs(x_hi)
            a_up = -pp * np.expm1(x_lo) * (1 + 4 * _U)               # alpha = p - e^eps q, bracketed
            a_lo = -pp * np.expm1(x_hi) * (1 - 4 * _U)
            b_up, b_lo = np.expm1(e) * (1 + 2 * _U), np.expm1(e) * (1 - 2 * _U)    # beta = e^eps - 1
            up = np.full(c.shape[0], np.nan)
            lo = np.full(c.shape[0], np.nan)
            todo = np.arange(c.shape[0])
            half = 2
            spec = None
            for _ in range(3):
                if not todo.size:
                    break
                x0, C = t[todo] - half - 1.0, 2 * half + 2
                if spec is None:
                    spec = _saddle.Spectrum(c, r, theta, s + 16.0, _FLIP)
                    f = spec.at(x0, C)
                else:
                    f = _saddle.at_points(c[todo], r, theta[todo], x0, C, flip=_FLIP)
                b1, eb1 = np.exp(f["lb"][:, :-1]), f["eb"][:, :-1]
                G, eG = np.exp(f["lG"][:, 1:]), f["eG"][:, 1:]
                au, al = a_up[todo][:, None], a_lo[todo][:, None]
                bu, bl = b_up[todo][:, None], b_lo[todo][:, None]
                pos_u, neg_u = au * b1 * (1 + eb1), bl * G * (1 - eG)
                pos_l, neg_l = al * b1 * (1 - eb1), bu * G * (1 + eG)
                d_up = pos_u - neg_u + 4 * _U * (pos_u + neg_u)
                d_lo = pos_l - neg_l - 4 * _U * (pos_l + neg_l)
                lr = theta[todo][:, None] + f["lbt"][:, :-1] - f["lbt"][:, 1:]
                er = 1.1 * (f["ebt"][:, :-1] + f["ebt"][:, 1:]) + 8 * _U * (1 + np.abs(lr))
                ok = (lr[:, 0] + er[:, 0] < lc_lo[todo]) & (lr[:, -1] - er[:, -1] >= lc_hi[todo])
                sound = np.all(np.isfinite(eb1) & (eb1 < _SADDLE_ETA_MAX) & np.isfinite(eG)
                               & (eG < _SADDLE_ETA_MAX) & (f["lb"][:, :-1] < 0.5) & (f["lG"][:, 1:] < 0.5),
                               axis=1) & np.isfinite(lc_lo[todo])
                done = ((ok | (not _CHECK_CROSSING)) & sound)
                up[todo[done]] = np.max(np.maximum(d_up[done], 0.0), axis=1)
                lo[todo[done]] = np.max(np.maximum(d_lo[done], 0.0), axis=1)
                miss = ~done & sound
                fix = todo[miss]
                if fix.size:                                  # move the points by the slope of ln rho (about 1/V)
                    vt = _saddle.tilted(c[fix], r, theta[fix], _FLIP)[3]
                    t[fix] = t[fix] + np.round((0.5 * (lc_lo[fix] + lc_hi[fix]) - lr[miss, half]) * vt)
                todo = fix
                half = 4 * half
            up = np.where(up > 0, np.nextafter(up * (1 + 8 * _U), np.inf), up)
            upper[live] = np.minimum(up, 1.0).reshape(live.size, m)
            lower[live] = lo.reshape(live.size, m)
    return upper, lower


# == over k: branch and bound with the remove-records bound ====================================================
class _Search:
    """Branch and bound over k in [0, N]; ``value(N', k)`` returns upper bounds (a float or a 1-d array), or
    a pair (upper, lower) whose lower ends bound the same exact values from below."""

    def __init__(self, N, value, interval=None, prefetch=None, batch=1):
        self.N = N
        self._value = value
        self._interval = interval
        self._prefetch = prefetch        # prefetch(search, intervals): evaluates the bounds of many at once
        self.batch = batch
        self.cache = {}
        self.lows = {}
        self.evaluations = 0
        self.complete = True
        self.top_lower, self.top_lower_k = -math.inf, None   # (one value) the largest lower end at a point

    def value(self, Np, k):
        key = (Np, k)
        if key not in self.cache:
            self.store(key, self._value(Np, k))
        return self.cache[key]

    def store(self, key, v):
        """Keep an evaluation: v the upper bounds, or a pair (upper, lower)."""
        if isinstance(v, tuple):
            v, lo = v
            self.lows[key] = np.atleast_1d(np.asarray(lo, dtype=float))
        self.cache[key] = np.atleast_1d(np.asarray(v, dtype=float))
        self.evaluations += 1
        if len(key) == 2 and key[0] == self.N and self.cache[key].size == 1:
            lo = float(self.lows.get(key, self.cache[key])[0])
            if lo > self.top_lower:
                self.top_lower, self.top_lower_k = lo, key[1]

    def lower(self, k):
        """The lower end at the exact point k (the upper end itself where no lower end was given)."""
        key = (self.N, int(k))
        return self.lows.get(key, self.cache[key])

    def bound(self, k1, k2):
        """Upper bound over k in [k1, k2]: the population without the k2 - k1 records in between
        (``kr.agg.remove_records``), or ``interval(k1, k2)`` where it is given and returns a bound (the
        fair-coin bound, ``kr.agg.fair_coin``; None where it would not be the smaller)."""
        if self._interval is not None and k2 > k1:
            key = ("fair", k1, k2)
            if key not in self.cache:
                v = self._interval(k1, k2)
                if v is not None:
                    self.cache[key] = np.atleast_1d(np.asarray(v, dtype=float))
                    self.evaluations += 1
                else:
                    self.cache[key] = None
            if self.cache[key] is not None:
                return self.cache[key]
        return self.value(self.N - (k2 - k1), k1)

    def run(self, max_evaluations=None, rtol=None, cpu_budget=None, pieces=1):
        """(best, worst k, upper).  Best first: the interval with the largest bound is split in two;
        a half is dropped once its bound is at most the best exact value found (both ends of [0, N]
        first, then every single k reached, whose bound is its exact value).  The search may stop early:
        after ``max_evaluations`` evaluations, after ``cpu_budget`` seconds of CPU (process time), or
        (one value only) once the bracket [lower end at the best k, upper] has a relative width at most
        ``rtol``; ``upper`` is then the largest of best and the bounds of the intervals left, a certified
        upper bracket, and ``complete`` is False.  (Evaluating a point of every half as well finds the
        same maximum with about twice the evaluations.)"""
        t0 = time.process_time()
        N = self.N
        if self._prefetch is not None:
            self._prefetch(self, [(N, N), (0, 0)])
        best = np.maximum(self.value(N, N), self.value(N, 0))
        best_k = np.where(self.value(N, N) >= self.value(N, 0), N, 0)
        scalar_value = best.size == 1

        def key(ub):
            return -float(ub[0]) if scalar_value else -float(np.max(ub - best))

        # the start: [0, N] whole, or cut into ``pieces`` equal intervals (fewer evaluations when the bound of
        # an interval must in any case be that narrow: the intervals between are never evaluated)
        pieces = max(1, min(int(pieces), (N + 1) // 2))
        cuts = [round(i * (N + 1) / pieces) for i in range(pieces + 1)]
        heap = []
        if self._prefetch is not None and pieces > 1 and (max_evaluations is None or max_evaluations > pieces):
            self._prefetch(self, [(a, b - 1) for a, b in zip(cuts[:-1], cuts[1:])])
        for a, b in zip(cuts[:-1], cuts[1:]):
            if pieces > 1 and ((max_evaluations is not None and self.evaluations >= max_evaluations)
                               or (cpu_budget is not None and time.process_time() - t0 >= cpu_budget)):
                b = N + 1                             # out of budget: the rest as one interval
            ub = self.bound(a, b - 1)
            if a == b - 1:
                better = ub > best
                best = np.where(better, ub, best)
                best_k = np.where(better, a, best_k)
            else:
                heap.append((key(ub), a, b - 1))
            if b == N + 1:
                break
        heapq.heapify(heap)
        while heap:
            stop = ((max_evaluations is not None and self.evaluations >= max_evaluations)
                    or (cpu_budget is not None and time.process_time() - t0 >= cpu_budget))
            if not stop and rtol is not None and scalar_value:
                top = max(float(best[0]), -heap[0][0])
                stop = top - max(float(self.lower(best_k[0])[0]), self.top_lower) <= rtol * top
            if stop:
                upper = best
                for _, k1, k2 in heap:
                    upper = np.maximum(upper, self.bound(k1, k2))
                self.complete = not bool(np.any(upper > best))
                return best, best_k, upper
            # the interval with the largest bound, or (with a prefetch) the ``batch`` largest, whose halves are
            # then evaluated together
            items = [heapq.heappop(heap)]
            batch = self.batch if max_evaluations is None else \
                max(1, min(self.batch, (max_evaluations - self.evaluations) // 2))
            while self._prefetch is not None and heap and len(items) < batch:
                items.append(heapq.heappop(heap))
            items = [(k1, k2) for _, k1, k2 in items if not np.all(self.bound(k1, k2) <= best)]
            halves = [((k1, (k1 + k2) // 2), ((k1 + k2) // 2 + 1, k2)) for k1, k2 in items]
            if self._prefetch is not None and halves:
                self._prefetch(self, [h for pair in halves for h in pair])
            for pair in halves:
                for a, b in pair:
                    ub = self.bound(a, b)
                    if a == b:                            # nothing removed: the exact value at k = a
                        better = ub > best
                        best = np.where(better, ub, best)
                        best_k = np.where(better, a, best_k)
                    elif np.any(ub > best):
                        heapq.heappush(heap, (key(ub), a, b))
        return best, best_k, best


def _ln_odds(q):
    """(c, lower, upper): ln(p/q), p = 1 - q, in double precision and the two floats around its exact value
    (the largest float below it and the smallest above it: ln(p/q) is never a float for 0 < q < 1/2).  For
    q >= 1/4, 1 - 2q is exact (Sterbenz) and c = log1p((1 - 2q)/q) keeps its relative accuracy as q -> 1/2
    (where ln(p/q) -> 0 and ln of the rounded p/q loses it); below, ln(1 - q) and -ln q have one sign, so c
    is within 1.5 ulp.  The bounds are decided in mpmath at 40 digits (q is exactly its rational value)."""
    if q >= 0.25:
        c = math.log1p((1.0 - 2.0 * q) / q)
    else:
        c = math.log1p(-q) - math.log(q)
    return (c,) + _ln_odds_bounds(q)


@functools.lru_cache(maxsize=256)
def _ln_odds_bounds(q):
    import mpmath

    with mpmath.workdps(40):
        qm = mpmath.mpf(q)                       # exact: a double has 53 bits
        exact = mpmath.log1p(-qm) - mpmath.log(qm) if q < 0.25 else mpmath.log1p((1 - 2 * qm) / qm)
        c = float(exact)
        lo = c if mpmath.mpf(c) < exact else float(np.nextafter(c, -math.inf))
        hi = c if mpmath.mpf(c) > exact else float(np.nextafter(c, math.inf))
    return lo, hi


def _points(n, q):
    """(p, an upper bound of ln(p/q)): every use of the pure epsilon (the returned value, the point
    from which delta = 0, the cap of the search) takes the bound on the safe side."""
    return 1.0 - q, _ln_odds(q)[2]


_FAIR_RHO = 1e-6               # the fair-coin bound spends this fraction of delta on P(M < m0)
_FAIR_MIN_W = 16               # ... and is used for intervals of at least this many records
_START_FACTOR = 2.0            # with rtol the search starts from intervals of about this many times
_MAX_PIECES = 2048             # rtol N / (1 - 1/(2p)) records, at most this many
_BATCH = 32                    # intervals split together, their halves evaluated in one call


def _fair_coins(w, q, log_tau):
    """m0 with P(M < m0) <= e^-log_tau for M ~ Bin(w, 2q), the fair coins among w records
    (``kr.agg.fair_coin``): Bernstein's inequality for w - M, P(EM - M >= a) <= e^-log_tau with
    a = _reach(w 2q (1 - 2q), log_tau), and m0 = floor(EM - a) <= EM - a, so M < m0 implies
    EM - M > a.  EM = 2qw is taken a relative 1e-12 low against its rounding."""
    r = 2.0 * q
    a = _reach(w * r * (1.0 - r), log_tau)
    return max(0, math.floor(w * r * (1.0 - 1e-12) - a))


def _fair_law(N, k1, k2, q, delta):
    """(row, delta'): the law (k1, N - k2, m0) and the delta at which its epsilon bounds eps_k(delta) for every
    k in [k1, k2] (the fair-coin bound, :func:`_fair_bound`); None where m0 = 0."""
    m0 = _fair_coins(k2 - k1, q, -(math.log(delta) + math.log(_FAIR_RHO)))
    if m0 <= 0:
        return None
    return (k1, N - k2, m0), delta * (1.0 - 1.01 * _FAIR_RHO)


def _fair_bound(N, k1, k2, q, delta, log_tail):
    """An upper bound of eps_k(delta) for every k in [k1, k2] (the fair-coin bound, ``kr.agg.fair_coin``):
    H_eps(U_k || V_k) <= H_eps(U'' || V'') + P(M < m0), M ~ Bin(k2 - k1, 2q) the fair coins among the records
    between k1 and k2, U'' and V'' the laws of B'' + Ber(p) and B'' + Ber(q),
    B'' = Bin(k1, p) + Bin(N - k2, q) + Bin(m0, 1/2); so eps_k(delta) is at most the epsilon of (U'', V'') at
    delta - tau, tau = _FAIR_RHO delta >= P(M < m0) (Bernstein, :func:`_fair_coins`; delta is lowered by
    1.01 tau to cover the rounding of the product).  None where m0 = 0 (the bound of ``kr.agg.remove_records``
    is then the smaller)."""
    law = _fair_law(N, k1, k2, q, delta)
    if law is None:
        return None
    (a, b, m0), d = law
    return _eps_k_bracket(_Tails(a + b, a, q, log_tail, coins=m0), 1.0 - q, q, d)[0]


def _eps_search(n, q, delta, max_evaluations=None, rtol=None, cpu_budget=None):
    p, eps0 = _points(n, q)
    # a bracket of relative width rtol >= 1e-6 needs no window leaving out as little as delta e^-30: e^-12 (the
    # mass left out is added on the safe side either way; it moves eps by about e^-12 / (2 ln(1/delta)))
    margin = _L_MARGIN_RTOL if rtol is not None and rtol >= 1e-6 else _L_MARGIN
    lt = min(745.0, -math.log(delta) + margin)
    N = n - 1

    hint = [None]

    def laws(rows, deltas):
        up, lo = _eps_laws(np.array(rows, dtype=float), q, np.array(deltas), lt, hint[0])
        hint[0] = float(np.max(up))
        return up, lo

    def value(Np, k):
        up, lo = laws([(k, Np - k, 0)], [delta])
        return float(up[0]), float(lo[0])

    def interval(k1, k2):
        law = _fair_law(N, k1, k2, q, delta) if k2 - k1 >= _FAIR_MIN_W else None
        return None if law is None else float(laws([law[0]], [law[1]])[0][0])

    def prefetch(search, intervals):
        """The bounds of many intervals (points included) in one call of _eps_laws: a point k is the law
        (k, N - k, 0), an interval the fair-coin law or the law without the records in between."""
        todo = {}
        for a, b in intervals:
            if a < b and b - a >= _FAIR_MIN_W and ("fair", a, b) not in search.cache:
                law = _fair_law(N, a, b, q, delta)
                if law is not None:
                    todo[("fair", a, b)] = law
                    continue
                search.cache[("fair", a, b)] = None
            elif a < b and search.cache.get(("fair", a, b)) is not None:
                continue
            key = (N - (b - a), a)
            if key not in search.cache:
                todo[key] = ((a, N - b, 0), delta)
        if todo:
            up, lo = laws([v[0] for v in todo.values()], [v[1] for v in todo.values()])
            for key, u, lw in zip(todo, up, lo):
                if key[0] == "fair":
                    search.cache[key] = np.atleast_1d(u)
                    search.evaluations += 1
                else:
                    search.store(key, (u, lw))

    s = _Search(N, value, interval, prefetch, _BATCH)
    pieces = 1
    if rtol is not None:
        # the fair-coin bound of w records exceeds the values inside by about (1 - 1/(2p)) w / (2N) relative (the
        # share of their variance it drops): start from intervals about as narrow as the bracket needs
        w0 = _START_FACTOR * rtol * N / (1.0 - 0.5 / p)
        pieces = min(_MAX_PIECES, max(1, math.ceil(N / max(w0, 1.0))))
    best, best_k, upper = s.run(max_evaluations=max_evaluations, rtol=rtol, cpu_budget=cpu_budget, pieces=pieces)
    cap = eps0                                   # already an upper bound of ln(p/q)
    s.upper = min(float(upper[0]), cap)
    # the exact maximum is at least the lower end at every k evaluated (the largest may be at another k than
    # the largest upper end: the two differ by the rounding bounds, which depend on k)
    s.best_lower = min(max(float(s.lower(best_k[0])[0]), s.top_lower), cap)
    return min(float(best[0]), cap), int(best_k[0]), s


def _delta_search(n, q, eps, max_evaluations=None, rtol=None, cpu_budget=None):
    p, eps0 = _points(n, q)
    live = eps < eps0
    N = n - 1

    def values(rows):
        """(upper, lower) of shape (len(rows), eps.size): the kernel where it certifies, else the window; a
        floor common to every k (>= the window's outside-mass term) lets the search prune there."""
        out = np.zeros((len(rows), eps.size))
        low = np.zeros((len(rows), eps.size))
        if live.any():
            up, lo = _delta_laws(np.array(rows, dtype=float), q, eps[live])
            for i in np.flatnonzero(~np.all(np.isfinite(up), axis=1)):
                a, b, _ = rows[i]
                up[i], lo[i] = _delta_k_bracket(_Tails(a + b, a, q, _L_PROFILE), p, q, eps[live])
            out[:, live], low[:, live] = np.maximum(up, _FLOOR), lo
        return out, low

    def value(Np, k):
        up, lo = values([(k, Np - k, 0)])
        return up[0], lo[0]

    def prefetch(search, intervals):
        """The bounds of many intervals (points included) in one call: the law without the records between."""
        keys = {(N - (b - a), a): (a, N - b, 0) for a, b in intervals if (N - (b - a), a) not in search.cache}
        if keys:
            up, lo = values(list(keys.values()))
            for key, u, lw in zip(keys, up, lo):
                search.store(key, (u, lw))

    s = _Search(N, value, None, prefetch, _BATCH)
    best, best_k, upper = s.run(max_evaluations=max_evaluations, rtol=rtol, cpu_budget=cpu_budget)
    s.upper = np.minimum(upper, 1.0)
    s.best_lower = np.array([s.lower(k)[i] for i, k in enumerate(np.atleast_1d(best_k))])
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
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):     # an overflow is +inf: an upper value
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


def _budget(cpu_budget):
    if cpu_budget is None:
        return None
    return scalar("cpu_budget", cpu_budget, 0.0, math.inf, lo_open=True)


def _rtol(rtol):
    if rtol is None:
        return None
    return scalar("rtol", rtol, 0.0, 1.0, lo_open=True)


# == public functions ===========================================================================================
@provenance(*_CLAIMS)
def aggregated_profile(n, q, epsilons, L=1, *, cpu_budget=_CPU_BUDGET):
    r"""The exact privacy profile delta(eps) of the aggregated randomized response: the largest
    hockey-stick divergence H_eps = sum_s max(0, P(s) - e^eps P'(s)) between the laws of the released
    counts of two collections of n records that differ in one record.

    Source: k-randomization (003), Section 3 (display (3.1) and the open largest ratio) and
    Section 3.1 (L = 1: A_n(m) ~ Bin(m, p) + Bin(n - m, q)); the method is described in the module
    docstring (threshold form per k, branch and bound over k with the remove-records bound).

    Parameters: ``n`` records, an integer in [1, 10^10], ``q`` in (0, 1/2) the lie probability,
    ``epsilons`` a real >= 0 or an array of them (``inf`` allowed: delta = 0), ``L >= 1`` bits per record,
    ``cpu_budget`` seconds of CPU (process time, default 20) for the branch and bound (L = 1): a search
    not finished within it returns the certified upper ends of its brackets instead of the maxima
    (still never below the exact values; :func:`aggregated_search` reports the bracket).

    Returns delta for every epsilon, shape of ``epsilons`` (a NumPy scalar for a scalar).  Rounded on
    the safe side: never below the exact value, above it by at most ~1e-8 relative plus e^-100
    absolute (for eps < L ln(p/q), values under 2 e^-100 = 7.4e-44 are reported as 7.4e-44) plus
    ~1e-15 eps absolute from the rounding of p - e^eps q, which cancels as eps approaches L ln(p/q).
    Cost: one branch and bound for the whole vector (an interval is dropped when its bound is below
    the best value at every eps); one eps at n = 10^6 takes about 0.1 s of CPU, at 10^8 about 3 s (the
    Fourier kernel, as for :func:`aggregated_epsilon`); n = 10^4 with 21 eps from 0 to 0.9 ln(p/q) about
    6 s (values far in the tail, near 1e-38, are sensitive to every k, so the search nears a full scan).
    delta = 0 exactly for eps >= L ln(p/q) (``kr.agg.pure_epsilon``), decided against the exact ln(p/q)
    (the floats around it are found in mpmath), so that no eps below it is given delta = 0.

    L >= 2: exact by enumeration while (n + 1)^(2^L) C(n - 1 + 2^L, 2^L) 2^L <= 2e7 (n <= 9 for L = 2,
    n <= 2 for L = 3);
    above that ``ValueError`` naming ``n`` (no profile bound is offered: use
    :func:`aggregated_epsilon`, which falls back to :func:`fmt_clone_bound`).

    >>> round(float(aggregated_profile(1, 0.25, 0.0)), 12)   # one record: p - q (rounded up)
    0.5
    """
    n, L = _nL(n, L)
    q = _q(q)
    budget = _budget(cpu_budget)
    memory_for(4, epsilons=epsilons)
    eps = as_float("epsilons", epsilons)
    require(eps >= 0, "epsilons", ">= 0 (inf allowed)")
    shape = eps.shape
    flat = eps.ravel()
    p, eps0 = _points(n, q)
    out = np.zeros(flat.size)
    live = np.isfinite(flat) & (flat < (eps0 if L == 1 else np.nextafter(L * eps0, math.inf)))
    if live.any():
        e = flat[live]
        if L == 1:
            _, _, s = _delta_search(n, q, e, cpu_budget=budget)
            best = s.upper
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


class AggregatedEpsilon(float):
    """The epsilon returned by :func:`aggregated_epsilon`: a float (the certified upper end, the value to
    use), with what it is as attributes:

    ``lower``, ``upper``: a certified bracket of the exact epsilon (``upper`` is the float itself);
    ``worst_k``: the dataset of the largest certified value found (the maximiser, up to the rounding), as
    the number of ones among the other n - 1 records (L = 1; None where every dataset attains it or no
    search was made); ``lower`` is the largest lower end over the datasets evaluated;
    ``evaluations``: per-k evaluations of the search; ``complete``: True when the search ran to the end
    (the value is then the exact maximum, rounded up), False when it stopped at ``rtol`` or at the CPU
    budget; ``method``: "search", "pure" (delta = 0), "enumeration" (L >= 2, small n) or "clone bound"
    (L >= 2, the Feldman-McMillan-Talwar upper bound: ``lower`` is 0 there, nothing smaller is certified);
    ``cpu_seconds``: the process time taken."""

    def __new__(cls, upper, lower, worst_k=None, evaluations=0, complete=True, method="search",
                cpu_seconds=0.0):
        self = super().__new__(cls, upper)
        self.upper = float(upper)
        self.lower = float(lower)
        self.worst_k = worst_k
        self.evaluations = int(evaluations)
        self.complete = bool(complete)
        self.method = method
        self.cpu_seconds = float(cpu_seconds)
        return self

    def __reduce__(self):
        return (AggregatedEpsilon, (self.upper, self.lower, self.worst_k, self.evaluations, self.complete,
                                    self.method, self.cpu_seconds))

    def describe(self) -> str:
        """One line: the bracket, the worst dataset, the evaluations and whether the search completed."""
        state = "complete" if self.complete else "stopped early"
        k = "" if self.worst_k is None else f", worst k = {self.worst_k}"
        return (f"eps in [{self.lower!r}, {self.upper!r}] ({self.method}, {state}{k}, "
                f"{self.evaluations} evaluations, {self.cpu_seconds:.3g} s CPU)")


@provenance(*_CLAIMS)
def aggregated_epsilon(n, q, delta, L=1, *, rtol=None, cpu_budget=_CPU_BUDGET):
    r"""The smallest epsilon for which the aggregated randomized response of n records is
    (epsilon, delta)-differentially private: max over neighbouring collections of
    max(0, ln max_S (P(S) - delta)/P'(S)).

    Source: k-randomization (003), Sections 3 and 3.1 (see the module docstring for the method).

    Parameters: ``n`` an integer in [1, 10^10], ``q`` in (0, 1/2), ``delta`` in [0, 1] (a real scalar),
    ``L >= 1``.  ``rtol`` in (0, 1) (L = 1): stop the search once the certified bracket has a relative
    width (upper - lower)/upper at most rtol and return its upper end; without it the search runs to the
    end (the exact maximum).  ``cpu_budget`` seconds of CPU (process time, default 20): a search not
    finished within it stops and returns the upper end of its certified bracket.

    Returns an :class:`AggregatedEpsilon`: a float, the certified upper end (never below the exact
    epsilon), whose attributes say what it is (``lower``, ``upper``, ``worst_k``, ``evaluations``,
    ``complete``, ``method``).

    Edges: ``delta = 0`` gives the pure epsilon L ln(p/q) rounded up (``kr.agg.pure_epsilon``; never inf:
    every count has positive probability); ``delta >= 1`` gives 0.  Rounded up: never below the exact
    value.  With the Fourier kernel (laws of variance >= 400, see the module docstring) above it by about
    the relative error bounds of b and G times eps, about 1e-9 relative (the tests: brackets narrower than
    1e-7 relative containing exact values); with the window (smaller laws) by at most 2 eta + e^(eps - 30)
    absolute (eta <= 1e-8 + (window size) 2^-52 the relative error of the window's probabilities,
    e^-30 delta the mass it leaves out).  CPU time at delta = 1e-6 (benchmarks/bench_shuffle_rr.py):
    0.04-0.3 s for the complete search at n = 10^6, 0.4-7 s at 10^8; with ``rtol=1e-3`` about 0.01-0.02 s
    at n = 10^6 .. 10^8.

    L >= 2: exact by enumeration below the limit of :func:`aggregated_profile`; above it the
    Feldman-McMillan-Talwar numerical bound for an L ln(p/q)-LDP randomizer (:func:`fmt_clone_bound`,
    an upper bound by their Theorem 3.2, not the exact value).

    >>> e = aggregated_epsilon(1, 0.25, 0.0)                 # ln(p/q) = ln 3
    >>> round(float(e), 12), e.method
    (1.098612288668, 'pure')
    """
    n, L = _nL(n, L)
    q = _q(q)
    d = scalar("delta", delta, 0.0, 1.0)
    tol = _rtol(rtol)
    budget = _budget(cpu_budget)
    t0 = time.process_time()
    p, eps0 = _points(n, q)
    if d == 0.0:
        lo = _ln_odds(q)[1]
        return AggregatedEpsilon(float(np.nextafter(L * eps0, math.inf)) if L > 1 else eps0,
                                 float(np.nextafter(L * lo, -math.inf)), method="pure")
    if d >= 1.0:
        return AggregatedEpsilon(0.0, 0.0, method="pure")
    if L == 1:
        value, k, s = _eps_search(n, q, d, rtol=tol, cpu_budget=budget)
        return AggregatedEpsilon(s.upper, s.best_lower, k, s.evaluations, s.complete, "search",
                                 time.process_time() - t0)
    if _enum_work(n, L) <= _ENUM_WORK:
        e = max((_pair_eps(P, Q, d) for P, Q in _enum_pairs(n, q, L)), default=0.0)
        up = float(np.nextafter(e * (1 + 2**-40), math.inf)) if e > 0 else 0.0
        return AggregatedEpsilon(up, e * (1 - 2**-40), method="enumeration",
                                 cpu_seconds=time.process_time() - t0)
    if n > _FMT_MAX_N:
        fail("n", f"at most {_FMT_MAX_N} for L >= 2 above the enumeration limit (the limit of "
                  f"fmt_clone_bound, the bound used there)", n)
    return AggregatedEpsilon(fmt_clone_bound(n, L * eps0, d), 0.0, method="clone bound",
                             cpu_seconds=time.process_time() - t0)


@dataclass(frozen=True)
class AggregatedSearch:
    """The result of :func:`aggregated_search` (L = 1)."""
    n: int
    q: float
    kind: str              # "epsilon" (given delta) or "delta" (given epsilon)
    worst_k: int           # ones among the other n - 1 records at the best point found (the lower end)
    value: float           # the certified (safe-side) value at worst_k
    lower: float           # a certified lower bracket (the exact value at worst_k, or (epsilon) at another k
                           # evaluated where it is larger, bounded from below)
    upper: float           # the certified upper bracket (= value when complete)
    evaluations: int       # per-k evaluations (point values and interval bounds)
    seconds: float         # CPU seconds (process time)
    complete: bool = True  # False: stopped by max_evaluations, rtol or cpu_budget; the exact maximum
                           # lies in [lower, upper]


@provenance(*_CLAIMS)
def aggregated_search(n, q, *, epsilon=None, delta=None, max_evaluations=None, rtol=None,
                      cpu_budget=None):
    r"""The branch and bound of :func:`aggregated_epsilon` (given ``delta`` in (0, 1)) or of
    :func:`aggregated_profile` (given one ``epsilon`` >= 0) for L = 1, with its worst k, bracket,
    number of per-k evaluations and CPU time (an :class:`AggregatedSearch`).

    Cost: the remove-records bound of an interval of w records exceeds the values inside by about
    w/(2N) relative, the fair-coin bound (intervals of 16 records or more, the epsilon search) by about
    (1 - 1/(2p)) w/(2N), while the values of neighbouring k differ by O(N^-1.5) relative near the
    maximum, so a complete search evaluates a few hundred k at n = 10^3 to 10^4-10^5 at n = 10^8 (about
    N^0.6; against n for the full scan), and a search to rtol about 2 (1 - 1/(2p))/rtol (220-480 at
    rtol = 1e-3, n = 10^6 .. 10^8; benchmarks/bench_shuffle_rr.py).  For epsilon, an evaluation of a law of
    variance 400 or more costs about 0.02-0.03 ms (the Fourier kernel, 32 intervals split together), so the
    complete search takes 0.04-0.3 s of CPU at n = 10^6 and 0.4-7 s at 10^8 (delta = 1e-6).

    Source: k-randomization (003), Section 3.1; the remove-records bound ``kr.agg.remove_records`` and the
    fair-coin bound ``kr.agg.fair_coin``.
    The bracket [lower, upper] contains the exact maximum: ``upper`` is the safe-side value (or the
    largest bound left), ``lower`` the exact value at ``worst_k`` bounded from below (the window's
    probabilities taken at their lower ends; for epsilon, the largest such lower end over the k
    evaluated, which may lie at another k: the rounding bounds depend on k).  The search stops early,
    with ``complete`` False, after about ``max_evaluations`` (an integer >= 1) per-k evaluations, after
    ``cpu_budget`` seconds of CPU (default: none), or once (upper - lower)/upper <= ``rtol``: ``value``
    is then the best point found, ``upper`` the largest remaining interval bound (still certified), so
    that large n get a bracket in bounded time.

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
    tol = _rtol(rtol)
    budget = _budget(cpu_budget)
    t0 = time.process_time()
    p, eps0 = _points(n, q)
    if delta is not None:
        value, k, s = _eps_search(n, q, d, max_evaluations, tol, budget)
        lower, upper = s.best_lower, s.upper
        kind = "epsilon"
    else:
        if e >= eps0:
            return AggregatedSearch(n, q, "delta", n - 1, 0.0, 0.0, 0.0, 0, time.process_time() - t0)
        best, bk, s = _delta_search(n, q, np.array([e]), max_evaluations, tol, budget)
        value, k = float(best[0]), int(bk[0])
        lower = float(s.best_lower[0])
        upper = float(s.upper[0])
        kind = "delta"
    return AggregatedSearch(n, q, kind, k, value, lower, upper, s.evaluations, time.process_time() - t0,
                            s.complete)


# == the Feldman-McMillan-Talwar numerical bound ================================================================
def _fmt_setup(n, eps0):
    """(cs, w, out): the window of C ~ Bin(n - 1, e^-eps0) (mass outside at most 2 e^-60 = out) and its pmf."""
    from scipy import stats

    m = n - 1
    pc = math.exp(-eps0)
    if m == 0 or pc == 0.0:
        return np.array([0]), np.array([1.0]), 0.0
    ar = _reach(m * pc * (1 - pc), 60.0)
    lo, hi = max(0, math.floor(m * pc - ar)), min(m, math.ceil(m * pc + ar))
    cs = np.arange(lo, hi + 1)
    return cs, stats.binom.pmf(cs, m, pc), 2 * math.exp(-60.0)


def _fmt_delta(n, eps0, eps, setup=None):
    """delta of Feldman, McMillan and Talwar's numerical bound at one eps, summed exactly over
    C ~ Bin(n - 1, e^-eps0) on a window (plus the omitted tail mass of C: an upper bound)."""
    from scipy import special

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
    cs, w, out = setup if setup is not None else _fmt_setup(n, eps0)
    x = np.ceil(beta * (cs + 1)) - 1                # largest integer x < beta (c + 1)
    F = np.where(x >= 0, special.bdtr(np.maximum(x, 0), cs, 0.5), 0.0)       # P(A <= x)
    F1 = np.where(x >= 1, special.bdtr(np.maximum(x - 1, 0), cs, 0.5), 0.0)  # P(A <= x - 1)
    # P(<= x) - e^eps Q(<= x) given C = c, with P(<= x) = a F + b F1 and Q(<= x) = b F + a F1
    h = np.maximum(F * c_lead - F1 * c_lag, 0.0)
    return float(np.sum(w * h)) * (1 + 1e-13 + 4 * (cs.size + 10) * _U) + out


_FMT_MAX_N = 10**8  # records of fmt_clone_bound (its cost grows like sqrt(n))
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
    added), each term a binomial cdf; eps by a bracketing root search to 1e-12 relative, returned at the
    upper end,
    accepting an eps only when delta(eps) (1 + 2e-11) <= delta, so that the float error of the sum (about
    4e-12 relative, measured against a 40-digit evaluation) cannot make the returned eps too small.

    Note: the values quoted for this bound at delta = 1e-6 (0.0550 for n = 10^4, eps0 = 1; 0.0452 for
    10^5, 2; 0.0501 for 10^6, 4) are 0.5-4 % above the exact evaluation here (0.0530, 0.04503,
    0.04931), which an independent double sum over c and x confirms (tests): they are consistent with
    the authors' stepped implementation, which returns an upper bound of this quantity.

    Parameters: ``n`` an integer in [1, 10^8] (the sum runs over about 20 standard deviations of C, each
    term a binomial cdf of C/2 trials: about 7 s of CPU at 10^8 and eps0 = 0.5, 60 s at 10^9; above 10^8
    ``ValueError`` naming ``n``), ``eps0 >= 0`` finite, ``delta`` in [0, 1].  delta = 0 gives eps0,
    delta >= 1 gives 0, eps0 = 0 gives 0; eps0 > 700 gives eps0 (the bound of post-processing, which
    exceeds the clone bound by O(delta) there: the clones have probability e^-eps0 < 1e-304).

    >>> round(fmt_clone_bound(10**4, 1.0, 1e-6), 4)   # 0.0550 is quoted: see the note above
    0.053
    """
    n = count("n", n, 1, _FMT_MAX_N)
    e0 = scalar("eps0", eps0, 0.0, math.inf)
    d = scalar("delta", delta, 0.0, 1.0)
    if e0 == 0.0 or d >= 1.0:
        return 0.0
    if d == 0.0 or e0 > 700.0:
        return e0        # above 700 the clones have probability < 1e-304: the bound is eps0 - O(delta)
    setup = _fmt_setup(n, e0)

    def g(e):        # ln of the float delta with its margin (it may be low by ~1e-12 relative), minus ln delta
        v = _fmt_delta(n, e0, e, setup) * (1.0 + _FMT_SLACK)
        return math.log(v) - math.log(d) if v > 0 else -math.inf

    g_lo = g(0.0)
    if g_lo <= 0:
        return 0.0
    # the smallest eps with g <= 0 (g decreases), bracketed by lo (g > 0) and hi (g <= 0) and found to a
    # relative 1e-12 by regula falsi with the Illinois modification, a bisection step whenever the bracket
    # did not halve in three steps (about 12 evaluations of delta instead of the 52 of bisection)
    lo, hi, g_hi = 0.0, e0, -math.inf
    floor = math.log(2.5 * setup[2] * (1 + _FMT_SLACK) + 1e-300) - math.log(d)   # g where delta is the cut mass
    widths = [hi - lo] * 3
    side = 0
    for _ in range(400):                     # (the bracket shrinks geometrically: far fewer steps)
        if not hi - lo > 1e-12 * hi:
            break
        if g_hi <= floor:                    # delta at hi is no more than the cut: step down geometrically
            mid = hi / 8 if lo < hi / 64 else math.sqrt(lo) * math.sqrt(hi)
        elif hi - lo > 0.5 * widths[-3]:
            mid = 0.5 * (lo + hi)
        else:
            mid = lo + (hi - lo) * g_lo / (g_lo - g_hi)
            mid = min(max(mid, lo + 1e-3 * (hi - lo)), hi - 1e-3 * (hi - lo))
        if not lo < mid < hi:
            mid = lo + 0.5 * (hi - lo)
            if not lo < mid < hi:
                break
        gm = g(mid)
        if gm <= 0:
            hi, g_hi = mid, gm
            if side == 1:
                g_lo *= 0.5
            side = 1
        else:
            lo, g_lo = mid, gm
            if side == -1 and not math.isinf(g_hi):
                g_hi *= 0.5
            side = -1
        widths.append(hi - lo)
    return float(np.nextafter(hi, math.inf))
