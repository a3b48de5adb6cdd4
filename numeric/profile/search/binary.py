"""The supremum of delta over neighbouring binary populations, for simple random and Bernoulli sampling.

On binary data the Horvitz-Thompson estimate is h y, y the number of ones in the sample and h the
atom spacing (N/n for SRS(N, n), 1/p for Bernoulli(p)); the law of y depends on x only through the
total t, so the neighbouring pairs are the ordered pairs of totals (t, t+1) ("up") and (t+1, t)
("down") in [m_t, M_t].

Each pair's delta is computed exactly (:mod:`numeric.profile.kernels`) on a window of y holding every atom of
probability above e^{-80} (checked: the log pmf at each window edge inside the support is below
-80, and the pmf is log-concave, so what is left out is below 1e-34).  Pairs are visited in
decreasing order of an upper bound and the search stops when the bound falls below the best delta
found (claims ``profile.delta0_bound``, ``profile.srs.zero_region``):

    up:    delta_b <= delta_0 <= e^eps q h_t(k*),   k* = max{y : f_t(y) >= e^eps f_{t+1}(y)}
    down:  delta_b <= delta_0 <= q h_t(j),          j = min{y : f_{t+1}(y) >= e^eps f_t(y)} - 1

with q the inclusion probability and h_t the law of the ones among the other sampled units
(Hyp(N-1, t, n-1) for SRS, Bin(t, p) for Bernoulli).  The bound is evaluated at k* - 1, k*, k* + 1
(the largest), so a rounding of the threshold cannot make it too small.
"""
from __future__ import annotations

import heapq
import math
from abc import ABC, abstractmethod
from fractions import Fraction

import numpy as np

from ..kernels import (LD, U_D, U_LD, _mechanism_delta, gaussian_delta_one_change, laplace_delta_uniform,
                      perturbation_bound, round_up)

_EDGE = -80.0          # log pmf allowed at a window edge that is not a support end
_FLOOR = -200.0        # cells whose log pmf is below the row's top minus 200 are dropped (mass < W e^-200)
_CELLS = 1 << 20       # window cells per evaluated block (bounded memory: ~100 MiB of long doubles)
_LEAF = 64             # blocks of at most this many totals are evaluated exactly
_SPLIT = 8             # a block whose bound exceeds the best delta is split in this many parts
_C_CAP = 700.0         # the double e^eps of the pruning bounds is capped at e^700 (a smaller c only loosens them)
_EPS_CAP = 1000.0      # e^eps is capped at e^1000 (> any ratio of the kept probabilities): delta only grows


class BinaryFamily(ABC):
    """Common interface of the two equal-probability designs on binary data."""

    spacing: float     # distance between consecutive atoms of the HT estimate
    q: float           # inclusion probability
    q_exact: Fraction  # the same, exact (n/N, or the double p)

    @abstractmethod
    def key(self) -> tuple:
        """Identifies the design (cache key of the pruning bounds)."""

    @abstractmethod
    def support(self, t):
        """(lo, hi): the support of f_t."""

    @abstractmethod
    def sd(self, t):
        """Standard deviation of f_t (sets the window width)."""

    @abstractmethod
    def mode(self, t):
        """A mode of f_t (the window is centred there)."""

    @abstractmethod
    def log_step(self, y, t):
        """ln f_t(y + 1) - ln f_t(y) (finite inside the support)."""

    @abstractmethod
    def log_h(self, y, t):
        """ln h_t(y), -inf outside its support (gammaln: used only for the pruning bound)."""

    @abstractmethod
    def thresholds(self, t, c):
        """(y_c, y_d): f_t(y) >= c f_{t+1}(y) iff y <= y_c; f_{t+1}(y) >= c f_t(y) iff y >= y_d."""

    def zero(self, t, eps):
        """Pairs whose b = 0 privacy loss never exceeds eps (delta = 0 at every scale)."""
        return np.zeros(np.shape(t), dtype=bool)

    # -- log pmf rows on a window ------------------------------------------------------------------
    def log_pmf_rows(self, t: np.ndarray, y0: np.ndarray, W: int) -> np.ndarray:
        """ln f_t(y0 + j), j = 0..W-1, for each row (long double): cumulative sums of the exact log
        ratios ln f_t(y+1)/f_t(y), normalised to total mass 1 over the window (which holds all but
        < e^-80); cells more than 200 below the row's top are set to -inf (dropped)."""
        lo, hi = self.support(t)
        y = y0[:, None] + np.arange(W)
        inside = (y >= lo[:, None]) & (y <= hi[:, None])
        with np.errstate(divide="ignore", invalid="ignore"):
            raw = self.log_step(y[:, :-1].astype(LD), t[:, None].astype(LD))
        step = np.where(inside[:, :-1] & inside[:, 1:], raw, LD(0))
        cum = np.concatenate([np.zeros((len(t), 1), dtype=LD), np.cumsum(step, axis=1)], axis=1)
        cum = np.where(inside, cum, LD(-np.inf))
        top = cum.max(axis=1, keepdims=True)
        cum = np.where(cum - top < _FLOOR, LD(-np.inf), cum)
        return cum - top - np.log(np.sum(np.exp(cum - top), axis=1, keepdims=True))


class SRSFamily(BinaryFamily):
    def __init__(self, N: int, n: int):
        self.N, self.n = N, n
        self.spacing, self.q = N / n, n / N
        self.q_exact = Fraction(n, N)

    def key(self):
        return ("srs", self.N, self.n)

    def support(self, t):
        return np.maximum(0, self.n + t - self.N), np.minimum(self.n, t)

    def sd(self, t):
        N, n = self.N, self.n
        pi = t / N
        return np.sqrt(n * pi * (1 - pi) * (N - n) / max(N - 1, 1))

    def mode(self, t):
        lo, hi = self.support(t)
        return np.clip((self.n + 1) * (t + 1) // (self.N + 2), lo, hi)

    def log_step(self, y, t):
        N, n = LD(self.N), LD(self.n)
        return np.log(((t - y) * (n - y)) / ((y + 1) * (N - t - n + y + 1)))

    def log_h(self, y, t):
        N, n = self.N, self.n
        ok = (y >= np.maximum(0, n + t - N)) & (y <= np.minimum(n - 1, t))
        yy, tt = np.where(ok, y, 0), np.where(ok, t, 0)
        val = (_log_comb(tt, yy) + _log_comb(N - 1 - tt, n - 1 - yy) - _log_comb(N - 1, n - 1))
        return np.where(ok, val, -np.inf)

    def thresholds(self, t, c):
        N, n = float(self.N), float(self.n)
        t = t.astype(float)
        if c <= 1e100:
            y_c = ((t + 1) * (N - t) - c * (t + 1) * (N - t - n)) / ((N - t) + c * (t + 1))
            y_d = (c * (t + 1) * (N - t) - (t + 1) * (N - t - n)) / ((t + 1) + c * (N - t))
        else:   # the same fractions divided by c: c (t + 1)(N - t) would overflow near c = e^700
            r = 1.0 / c
            y_c = ((t + 1) * (N - t) * r - (t + 1) * (N - t - n)) / ((N - t) * r + (t + 1))
            y_d = ((t + 1) * (N - t) - (t + 1) * (N - t - n) * r) / ((t + 1) * r + (N - t))
        return y_c, y_d

    def zero(self, t, eps):
        N, n = self.N, self.n
        inner = (t >= n) & (t <= N - n - 1)
        tt = np.where(inner, t, n).astype(float)
        with np.errstate(divide="ignore"):
            eps0 = np.maximum(np.log1p(n / np.maximum(N - tt - n, 1)), np.log1p(n / np.maximum(tt + 1 - n, 1)))
        return inner & (eps >= eps0)


class BernoulliFamily(BinaryFamily):
    def __init__(self, p: float):
        self.p = p
        self.spacing, self.q = 1.0 / p, p
        self.q_exact = Fraction(p)
        self._logit = math.log(p) - math.log1p(-p)

    def key(self):
        return ("bernoulli", self.p)

    def support(self, t):
        return np.zeros_like(t), t

    def sd(self, t):
        return np.sqrt(t * self.p * (1 - self.p))

    def mode(self, t):
        return np.minimum(np.floor((t + 1) * self.p).astype(np.int64), t)

    def log_step(self, y, t):
        return np.log((t - y) / (y + 1)) + LD(self._logit)

    def log_h(self, y, t):
        ok = (y >= 0) & (y <= t)
        yy = np.where(ok, y, 0)
        val = _log_comb(t, yy) + yy * math.log(self.p) + (t - yy) * math.log1p(-self.p)
        return np.where(ok, val, -np.inf)

    def thresholds(self, t, c):
        t = t.astype(float)
        return (t + 1) * (1 - c * (1 - self.p)), (t + 1) * (1 - (1 - self.p) / c)


def _log_comb(m, k):
    from scipy.special import gammaln

    m, k = np.asarray(m, dtype=float), np.asarray(k, dtype=float)
    return gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1)


def _log_h_slack(N: int) -> float:
    """Bound on the rounding error of a ``_log_comb`` difference: 3 gammaln values of size at most
    ln N! <= N ln N + 1, each within 16 ulps."""
    return 1e-9 + 48 * U_D * (N * math.log(N + 1) + 1)


# -- certified pruning bounds -----------------------------------------------------------------------
def _kstar(fam: "SRSFamily", t: np.ndarray, c: float) -> np.ndarray:
    """floor(y_c(t)): largest y with f_t(y) >= c f_{t+1}(y) (up to the rounding of y_c, covered by
    the +-1 of the bounds)."""
    y_c, _ = fam.thresholds(np.asarray(t, dtype=np.int64), c)
    return np.clip(np.nan_to_num(np.floor(y_c), nan=0.0, posinf=1e18, neginf=-1e18), -2, np.asarray(t) + 2
                   ).astype(np.int64)


def pair_log_bounds(fam: "SRSFamily", t: np.ndarray, eps: float) -> np.ndarray:
    """ln of an upper bound of delta_b(eps) of each up pair (t, t+1), every b >= 0 (``-inf`` in the
    zero region): ln(e^eps q max_{d in -1, 0, 1} h_t(k* + d)) (claim ``profile.delta0_bound``)."""
    t = np.asarray(t, dtype=np.int64)
    c = math.exp(min(eps, _C_CAP))
    k = _kstar(fam, t, c)
    if eps > _C_CAP:        # the threshold of the capped c is higher: use the maximum of h_t below it
        k = np.minimum(k, _mode_h(fam, t))
    logh = np.maximum.reduce([fam.log_h(k + d, t) for d in (-1, 0, 1)])
    out = np.minimum(eps + math.log(fam.q) + 1e-12 + logh + _log_h_slack(fam.N), 0.0)
    return np.where(fam.zero(t, eps), -np.inf, out)


def block_log_bound(fam: "SRSFamily", t1: int, t2: int, eps: float) -> float:
    """ln of an upper bound of delta_b(eps) over the up pairs (t, t+1), t1 <= t <= t2, every b >= 0.

    For each t the bound is e^eps q h_t(k), k <= k*(t) + 1 (``pair_log_bounds``), h_t the law of
    Hyp(N - 1, t, n - 1).  Over the block:

    * k*(t) + 1 <= K2 = max(k*(t1), k*(t2)) + 1, since y_c(t) is quasi-convex in t (the sign of its
      derivative is that of (d u + M)^2 - c M (M - n), u = t + 1, M = N + 1, d = c - 1, which
      increases with u: the maximum over an interval is at an end);
    * for k <= K2 <= min(n - 1, t1), h_t(k) = h_{t1}(k) prod_{s=t1}^{t-1} r(s, k) with
      r(s, k) = h_{s+1}(k)/h_s(k) = (s+1)/(s+1-k) * (N-1-s-(n-1)+k)/(N-1-s), decreasing in s and
      increasing in k, so h_t(k) <= max_{k <= K2} h_{t1}(k) * max(1, r(t1, K2))^(t2 - t1), and the
      maximum of the unimodal h_{t1} below K2 is at min(K2, mode);
    * h_t(k) <= M(t) = max_y h_t(y), and M(t) <= M(t1) (N - t1)/(N - t) (t the number of draws of
      Hyp(N - 1, n - 1, t), the same law: one more draw gives P(Y' = y) = P(Y = y)(1 - beta(y)) +
      P(Y = y - 1) beta(y - 1), beta(y) = (n - 1 - y)/(N - 1 - t), whose coefficients sum to
      1 + 1/(N - 1 - t)); likewise M(t) <= M(t2) (t2 + 1)/(t + 1) from M(t) = M(N - 1 - t);
    * the block is in the zero region when both ends are (each of the two ln-ratios of
      ``SRSFamily.zero`` is monotone in t).
    """
    if t1 == t2:
        return float(pair_log_bounds(fam, np.array([t1]), eps)[0])
    ends = np.array([t1, t2], dtype=np.int64)
    if fam.zero(ends, eps).all():
        return -np.inf
    c = math.exp(min(eps, _C_CAP))        # a smaller c only raises K2: still an upper bound
    K2 = int(_kstar(fam, ends, c).max()) + 1
    N1 = fam.N - 1
    top = eps + math.log(fam.q) + 1e-12    # q = n/N is a rounded double
    slack = _log_h_slack(fam.N)
    log_m = _log_max_h(fam, ends)
    envelope = top + slack + min(log_m[0] + math.log((N1 - t1 + 1) / (N1 - t2 + 1)) if t2 <= N1 else np.inf,
                                 log_m[1] + math.log((t2 + 1) / (t1 + 1)))
    return min(envelope, _tail_bound(fam, t1, t2, K2, top, slack), 0.0)


def _support_h(fam: "SRSFamily", t):
    """(lo, hi): the support of h_t = Hyp(N - 1, t, n - 1)."""
    N1, n1 = fam.N - 1, fam.n - 1
    return np.maximum(0, n1 + t - N1), np.minimum(n1, t)


def _mode_h(fam: "SRSFamily", t):
    """A mode of h_t, within one of the exact mode (the +-1 of the callers covers it)."""
    lo, hi = _support_h(fam, t)
    return np.clip(fam.n * (t + 1) // (fam.N + 1), lo, hi)


def _log_max_h(fam: "SRSFamily", t: np.ndarray) -> np.ndarray:
    """ln max_y h_t(y) (up to the gammaln rounding): at the mode of h_t, +-1."""
    lo, hi = _support_h(fam, t)
    mode = _mode_h(fam, t)
    return np.maximum.reduce([fam.log_h(np.clip(mode + d, lo, hi), t) for d in (-1, 0, 1)])


def noise_bound(fam: "SRSFamily", t1: int, t2: int, eps: float, b: float, noise: str) -> float:
    """An upper bound of delta_b(eps) over the up pairs (t, t+1), t1 <= t <= t2, that uses the noise.

    With unit i the one that changes, f_t = (1 - q) G + q H and f_{t+1} = (1 - q) G + q H_h: G (H)
    the law of the estimate from the other units when i is not (is) sampled, H_h = H shifted by
    the spacing h.  The pmfs satisfy G >= kappa H, kappa = max(0, 1 - t/(N - n)) (their ratio
    increases in y and is (N - t - n)/(N - n) at y = 0), so, with c = e^eps >= 1,

        f_t - c f_{t+1} <= q (a H - c H_h),  a = 1 - (c - 1)(1 - q) kappa / q,

    and a H - c H_h is the pair (K, K(. - h)) at ratio c/a followed by the same independent
    addition, so by the data-processing inequality delta <= q a delta_K(ln(c/a)) (0 if a <= 0),
    increasing in a, hence in t.  The mirror image (the down pair at N - 1 - t, same delta) gives
    delta <= q delta_K(ln c'), c' = c + (c - 1)(1 - q) kappa'/q, kappa' = max(0, (t + 1 - n)/(N - n)),
    decreasing in t.  Each is taken at the worst end of the block."""
    N, n, q, h = fam.N, fam.n, fam.q, fam.spacing
    if n == N:
        return 1.0
    c = math.exp(min(eps, _C_CAP))
    k_up = max(0.0, 1 - t2 / (N - n))
    a = 1 - (c - 1) * (1 - q) * k_up / q
    up = 0.0 if a <= 0 else q * a * _mechanism_delta(math.log(c / a), h, b, noise)
    k_dn = max(0.0, (t1 + 1 - n) / (N - n))
    c_dn = c + (c - 1) * (1 - q) * k_dn / q
    down = q * _mechanism_delta(math.log(c_dn), h, b, noise)
    return min(up, down) * (1 + 64 * U_D)


def _tail_bound(fam, t1: int, t2: int, K2: int, top: float, slack: float) -> float:
    """The K2 part of ``block_log_bound``: ln of e^eps q max_{k <= K2} h_{t1}(k) max(1, r(t1, K2))^(t2 - t1)."""
    N1, n1 = fam.N - 1, fam.n - 1
    lo1, hi1 = _support_h(fam, t1)
    if K2 > hi1 or t1 >= N1:
        return min(top, 0.0)
    if K2 < lo1:
        return -np.inf
    ks = np.array([min(K2, int(_mode_h(fam, t1))) + d for d in (-1, 0, 1)], dtype=np.int64)
    ks = ks[ks <= K2]
    logmax = float(np.max(fam.log_h(ks, np.full(ks.shape, t1))))
    num = N1 - t1 - n1 + K2
    log_r = math.log((t1 + 1) / (t1 + 1 - K2)) + math.log(num / (N1 - t1)) if num > 0 else -np.inf
    growth = (t2 - t1) * max(0.0, log_r)
    return top + logmax + growth * (1 + 1e-12) + slack


# -- exact deltas of pairs, rounded up --------------------------------------------------------------
def _window(fam: BinaryFamily, t: np.ndarray, widen: float):
    """Start of each row's window and the common width (covers f_t and f_{t+1})."""
    lo, _ = fam.support(t)
    _, hi = fam.support(t + 1)
    m = fam.mode(t)
    half = np.ceil(widen * fam.sd(t + 1)).astype(np.int64) + 40
    y0 = np.maximum(lo, m - half)
    y1 = np.minimum(hi, m + 1 + half)
    return y0, int((y1 - y0).max()) + 1


def error_bound(W: int) -> float:
    """Bound of the absolute error of a pair's delta computed by ``_block`` on a window of W cells.

    By ``perturbation_bound``, relative errors eta of the two mixtures change delta by at most
    2 eta/(1 - eta), whatever e^eps.  Rounding in the working
    precision (unit roundoff u = ``U_LD``) perturbs each weight relatively, with a priori bounds in
    the manner of Higham (2002, Sections 3.1 and 4.2):

    * log pmf: a cumulative sum of at most W log-ratios over a range of at most R = 200 + ln W
      (cells lower are dropped), |error| <= W (2R + 8) u, plus the normalisation;
    * the two first-order recursions and the closed forms per interval: at most (4W + 16) u;
    * the mass outside the window (log-concave pmf below e^-80 at an open edge): <= 2 (W + 1) e^-80,
      and the dropped cells: <= 2 W e^-200.

    The result is rounded up to a double by ``round_up``.
    """
    R = 200.0 + math.log(W + 1)
    eta = (W * (2 * R + 8) + 4 * W + 32) * U_LD
    return perturbation_bound(eta) + 2 * (W + 1) * math.exp(-80) + 2 * W * math.exp(-200)


_IV = None   # an mpmath interval context of its own (the global mpmath.iv keeps its precision)


def _interval():
    global _IV
    if _IV is None:
        from mpmath.ctx_iv import MPIntervalContext

        _IV = MPIntervalContext()
        _IV.prec = 128
    return _IV


def _pure(fam: BinaryFamily, eps: float, b: float, noise: str) -> bool:
    """delta_b(eps) = 0 exactly for every pair, certified: Laplace noise with
    eps >= ln(1 + q (e^{h/b} - 1)), h = 1/q the spacing of the atoms (q exact: n/N or the double p).

    With unit i the one that changes, f_t = (1 - q) G + q H and f_{t+1} = (1 - q) G + q H_h (H_h:
    H shifted by h; for Bernoulli sampling the coupling of ``profile.bernoulli.pmf_difference``,
    Bin(t+1, p) = Bin(t, p) + Bernoulli(p)), and e^{-h/b} H <= H_h <= e^{h/b} H pointwise (the
    Laplace mechanism with the Horvitz-Thompson sensitivity h), so f_{t+1}/f_t lies in
    [1 - q (1 - e^{-h/b}), 1 + q (e^{h/b} - 1)] and f_t/f_{t+1} <= 1/(1 - q (1 - e^{-h/b}))
    <= 1 + q (e^{h/b} - 1): the release is ln(1 + q (e^{h/b} - 1))-DP, the amplified epsilon of
    claim ``profile.amplification.generic_scale`` (for SRS: amplification by sampling without
    replacement, claim ``htm.srs.amplification``).  The comparison is exact: h/b as a rational, the logarithm in
    128-bit interval arithmetic (mpmath.iv), True only if eps is >= the interval's upper end (a
    tie is left to the computation, which then returns its rounding bound)."""
    if noise != "laplace" or not 0 < b < math.inf:
        return False
    q = fam.q_exact
    x = 1 / (q * Fraction(b))                        # h/b, exact
    e = Fraction(eps)
    if e >= x:                                       # the Laplace mechanism itself: ln(...) <= h/b
        return True
    if q == 1 or x > e + 2 - Fraction(math.log(float(q))):   # ln(1 + q(e^x - 1)) >= x + ln q > eps
        return False
    iv = _interval()
    X = iv.mpf(x.numerator) / iv.mpf(x.denominator)
    Q = iv.mpf(q.numerator) / iv.mpf(q.denominator)
    loss = iv.log1p(Q * iv.expm1(X))                 # relative accuracy also for tiny h/b
    return bool((iv.mpf(eps) - loss).a >= 0)


def pure_scale(fam: BinaryFamily, eps: float) -> float:
    """The smallest double b (to a few ulps) at which ``_pure`` certifies delta_b(eps) = 0 with
    Laplace noise: h / ln(1 + (e^eps - 1)/q) (the inverse of the amplified epsilon, claim
    ``profile.amplification.generic_scale``), moved up until certified; ``inf`` for eps = 0 (no finite
    scale is pure there)."""
    if eps <= 0:
        return math.inf
    q = float(fam.q_exact)
    if eps <= 1:
        log_term = math.log1p(math.expm1(eps) / q)
    else:        # eps - ln q + ln(1 + (q - 1) e^{-eps}): no overflow of e^eps
        log_term = eps - math.log(q) + math.log1p((q - 1) * math.exp(-eps))
    b = fam.spacing / log_term * (1 - 2.0**-50)
    for k in range(200):
        if _pure(fam, eps, b, "laplace"):
            return b
        b = float(np.nextafter(b, math.inf)) if k < 16 else b * (1 + 2.0**-40)
    raise AssertionError(f"no certified pure scale near {b!r} at eps = {eps!r}")   # pragma: no cover


def pair_deltas(fam: BinaryFamily, t: np.ndarray, up: np.ndarray, eps: float, b: float, noise: str) -> np.ndarray:
    """delta_b(eps) of each pair (t -> t+1 if up, t+1 -> t otherwise), rounded up: never below the
    exact value (``error_bound``); b = 0 allowed (Laplace)."""
    out = np.empty(len(t))
    if len(t) == 0:
        return out
    if _pure(fam, eps, b, noise):
        out[:] = 0.0
        return out
    order = np.argsort(fam.sd(t), kind="stable")          # similar widths together
    _, W = _window(fam, t, 10.0)
    rows = max(1, _CELLS // W)
    for start in range(0, len(t), rows):
        sel = order[start:start + rows]
        out[sel] = _block(fam, t[sel], up[sel], eps, b, noise)
    return out


def _block(fam, t, up, eps, b, noise):
    widen = 10.0
    while True:
        y0, W = _window(fam, t, widen)
        lp0 = fam.log_pmf_rows(t, y0, W)
        lp1 = fam.log_pmf_rows(t + 1, y0, W)
        lo, _ = fam.support(t)
        _, hi = fam.support(t + 1)
        left_open = y0 > lo
        right_open = y0 + W - 1 < hi
        edge_l = np.maximum(lp0[:, 0], lp1[:, 0])
        edge_r = np.maximum(lp0[:, -1], lp1[:, -1])
        if not (np.any(left_open & (edge_l > _EDGE)) or np.any(right_open & (edge_r > _EDGE))):
            break
        widen *= 2
    ce = np.exp(LD(min(eps, _EPS_CAP)))
    p0, p1 = np.exp(lp0), np.exp(lp1)
    w = np.where(up[:, None], p0 - ce * p1, p1 - ce * p0)
    if noise == "laplace":
        d = laplace_delta_uniform(w, fam.spacing / b if b > 0 else np.inf)
    else:
        a = fam.spacing * np.arange(W, dtype=float)
        d = gaussian_delta_one_change(a[None, :], w, b)
    return round_up(d, error_bound(W))


# -- the supremum over pairs ------------------------------------------------------------------------
def _intervals(fam: BinaryFamily, m_t: int, M_t: int):
    """The up pairs (t, t+1) to search, as disjoint intervals [lo, hi] of t.

    SRS: the down pair (t+1 -> t) is the up pair (N-1-t -> N-t) seen through y -> n - y
    (f_t(y) = f_{N-t}(n - y)), so the up pairs over [m_t, M_t - 1] and [N - M_t, N - 1 - m_t]
    cover both orders.  Bernoulli: y_{t+1} = y_t + B with B ~ Bernoulli(p) independent of y_t
    (unit i is sampled independently of the others), so each pair at total t is the pair at m_t
    followed by the same independent addition: by the data-processing inequality (post-processing
    cannot increase the hockey-stick divergence) both orders are worst at t = m_t."""
    if isinstance(fam, BernoulliFamily):
        return [(m_t, m_t)]
    a, b = (m_t, M_t - 1), (fam.N - M_t, fam.N - 1 - m_t)
    lo, hi = sorted([a, b])
    return [(lo[0], max(lo[1], hi[1]))] if hi[0] <= lo[1] + 1 else [lo, hi]


def _as_pair(fam, m_t, M_t, t: int, up: bool):
    """(total, total') of the pair found at t (``up`` or not): an SRS up pair outside [m_t, M_t - 1]
    is the mirror image of the down pair (N - t, N - t - 1)."""
    if isinstance(fam, SRSFamily) and not (m_t <= t <= M_t - 1):
        return fam.N - t, fam.N - t - 1
    return (t, t + 1) if up else (t + 1, t)


def search(fam: BinaryFamily, m_t: int, M_t: int, eps: float, b: float, noise: str, prune: bool = True,
           floor: float = 0.0):
    """(delta, total, total'): the supremum of delta over every ordered neighbouring pair of totals in
    [m_t, M_t], never below the exact value.

    Branch and bound over blocks of totals (``block_log_bound``): the block with the largest bound
    is split, or evaluated exactly when it has at most ``_LEAF`` totals, until no bound exceeds the
    best delta found (or ``floor``: a caller that only asks whether delta <= floor passes it, and
    then a returned value <= floor means only that).  The cost depends on eps, b and the sampling
    fraction, not on N.  ``prune=False`` evaluates every pair."""
    if isinstance(fam, BernoulliFamily):
        d = pair_deltas(fam, np.array([m_t, m_t]), np.array([True, False]), eps, b, noise)
        k = int(np.argmax(d))
        return float(d[k]), *_as_pair(fam, m_t, M_t, m_t, k == 0)
    if _pure(fam, eps, b, noise):
        return 0.0, *_as_pair(fam, m_t, M_t, m_t, True)
    spans = _intervals(fam, m_t, M_t)
    if not prune:
        t = np.concatenate([np.arange(lo, hi + 1, dtype=np.int64) for lo, hi in spans])
        d = pair_deltas(fam, t, np.ones(t.size, dtype=bool), eps, b, noise)
        k = int(np.argmax(d))
        return float(d[k]), *_as_pair(fam, m_t, M_t, int(t[k]), True)
    best, arg = 0.0, spans[0][0]

    def bound(lo, hi):
        nb = noise_bound(fam, lo, hi, eps, b, noise)
        return min(block_log_bound(fam, lo, hi, eps), math.log(nb) if nb > 0 else -np.inf)

    heap = [(-bound(lo, hi), lo, hi) for lo, hi in spans]
    whole = math.exp(max(-neg for neg, _, _ in heap))     # a certified bound of the supremum itself
    heapq.heapify(heap)
    while heap:
        neg, lo, hi = heapq.heappop(heap)
        bar = max(best, floor)
        if -neg == -np.inf or (bar > 0 and -neg <= math.log(bar)):
            break
        if hi - lo + 1 <= _LEAF:
            t = np.arange(lo, hi + 1, dtype=np.int64)
            d = pair_deltas(fam, t, np.ones(t.size, dtype=bool), eps, b, noise)
            k = int(np.argmax(d))
            if d[k] > best:
                best, arg = float(d[k]), int(t[k])
            continue
        edges = np.unique(np.linspace(lo, hi + 1, _SPLIT + 1).astype(np.int64))
        for a, z in zip(edges[:-1], edges[1:]):
            heapq.heappush(heap, (-bound(int(a), int(z) - 1), int(a), int(z) - 1))
    return min(best, whole), *_as_pair(fam, m_t, M_t, arg, True)
