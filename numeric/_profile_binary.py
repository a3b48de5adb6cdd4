"""The supremum of delta over neighbouring binary populations, for simple random and Bernoulli sampling.

On binary data the Horvitz-Thompson estimate is h y, y the number of ones in the sample and h the
atom spacing (N/n for SRS(N, n), 1/p for Bernoulli(p)); the law of y depends on x only through the
total t, so the neighbouring pairs are the ordered pairs of totals (t, t+1) ("up") and (t+1, t)
("down") in [m_t, M_t].

Each pair's delta is computed exactly (``_profile_kernels``) on a window of y holding every atom of
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

import math
from abc import ABC, abstractmethod

import numpy as np
from scipy.special import gammaln

from ._profile_kernels import gaussian_delta_one_change, laplace_delta_uniform

_EDGE = -80.0          # log pmf allowed at a window edge that is not a support end
_BOUND_SLACK = 1e-6    # relative slack on the gammaln-based pruning bound (its error is ~1e-9)
_CELLS = 1 << 22       # window cells per evaluated block (bounded memory)


class BinaryFamily(ABC):
    """Common interface of the two equal-probability designs on binary data."""

    spacing: float     # distance between consecutive atoms of the HT estimate
    q: float           # inclusion probability

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
        """ln f_t(y0 + j), j = 0..W-1, for each row: cumulative sums of the exact log ratios
        ln f_t(y+1)/f_t(y), normalised to total mass 1 over the window (which holds all but < e^-80)."""
        lo, hi = self.support(t)
        y = y0[:, None] + np.arange(W)
        inside = (y >= lo[:, None]) & (y <= hi[:, None])
        with np.errstate(divide="ignore", invalid="ignore"):
            raw = self.log_step(y[:, :-1], t[:, None])
        step = np.where(inside[:, :-1] & inside[:, 1:], raw, 0.0)
        cum = np.concatenate([np.zeros((len(t), 1)), np.cumsum(step, axis=1)], axis=1)
        cum = np.where(inside, cum, -np.inf)
        top = cum.max(axis=1, keepdims=True)
        return cum - top - np.log(np.sum(np.exp(cum - top), axis=1, keepdims=True))


class SRSFamily(BinaryFamily):
    def __init__(self, N: int, n: int):
        self.N, self.n = N, n
        self.spacing, self.q = N / n, n / N

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
        N, n = float(self.N), float(self.n)
        return np.log(((t - y) * (n - y)) / ((y + 1.0) * (N - t - n + y + 1.0)))

    def log_h(self, y, t):
        N, n = self.N, self.n
        ok = (y >= np.maximum(0, n + t - N)) & (y <= np.minimum(n - 1, t))
        yy, tt = np.where(ok, y, 0), np.where(ok, t, 0)
        val = (_log_comb(tt, yy) + _log_comb(N - 1 - tt, n - 1 - yy) - _log_comb(N - 1, n - 1))
        return np.where(ok, val, -np.inf)

    def thresholds(self, t, c):
        N, n = float(self.N), float(self.n)
        t = t.astype(float)
        y_c = ((t + 1) * (N - t) - c * (t + 1) * (N - t - n)) / ((N - t) + c * (t + 1))
        y_d = (c * (t + 1) * (N - t) - (t + 1) * (N - t - n)) / ((t + 1) + c * (N - t))
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
        return np.log((t - y) / (y + 1.0)) + self._logit

    def log_h(self, y, t):
        ok = (y >= 0) & (y <= t)
        yy = np.where(ok, y, 0)
        val = _log_comb(t, yy) + yy * math.log(self.p) + (t - yy) * math.log1p(-self.p)
        return np.where(ok, val, -np.inf)

    def thresholds(self, t, c):
        t = t.astype(float)
        return (t + 1) * (1 - c * (1 - self.p)), (t + 1) * (1 - (1 - self.p) / c)


def _log_comb(m, k):
    m, k = np.asarray(m, dtype=float), np.asarray(k, dtype=float)
    return gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1)


# -- bounds and exact deltas ------------------------------------------------------------------------
def upper_bounds(fam: BinaryFamily, t: np.ndarray, up: np.ndarray, eps: float) -> np.ndarray:
    """An upper bound of delta_b(eps) for each pair (t, up) at every b >= 0 (0 in the zero region)."""
    c = math.exp(eps)
    bound = np.zeros(len(t))
    live = np.flatnonzero(~fam.zero(t, eps))
    t, up = t[live], up[live]
    y_c, y_d = fam.thresholds(t, c)
    k = np.where(up, np.floor(y_c), np.ceil(y_d) - 1)
    k = np.clip(np.nan_to_num(k, nan=0.0, posinf=1e18, neginf=-1e18), -2, t + 2).astype(np.int64)
    logh = np.maximum.reduce([fam.log_h(k + d, t) for d in (-1, 0, 1)])
    bound[live] = fam.q * np.exp(logh + _BOUND_SLACK) * np.where(up, c, 1.0)
    return bound


def _window(fam: BinaryFamily, t: np.ndarray, widen: float):
    """Start of each row's window and the common width (covers f_t and f_{t+1})."""
    lo, _ = fam.support(t)
    _, hi = fam.support(t + 1)
    m = fam.mode(t)
    half = np.ceil(widen * fam.sd(t + 1)).astype(np.int64) + 40
    y0 = np.maximum(lo, m - half)
    y1 = np.minimum(hi, m + 1 + half)
    return y0, int((y1 - y0).max()) + 1


def pair_deltas(fam: BinaryFamily, t: np.ndarray, up: np.ndarray, eps: float, b: float, noise: str) -> np.ndarray:
    """Exact delta_b(eps) of each pair (t -> t+1 if up, t+1 -> t otherwise); b = 0 allowed (Laplace)."""
    out = np.empty(len(t))
    if len(t) == 0:
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
    ce = math.exp(eps)
    p0, p1 = np.exp(lp0), np.exp(lp1)
    w = np.where(up[:, None], p0 - ce * p1, p1 - ce * p0)
    if noise == "laplace":
        c = math.exp(-fam.spacing / b) if b > 0 else 0.0
        return laplace_delta_uniform(w, c)
    a = fam.spacing * np.arange(W, dtype=float)
    return gaussian_delta_one_change(a[None, :], w, b)


_RANKED: dict = {}


def _ranked(fam: BinaryFamily, m_t: int, M_t: int, eps: float):
    """Pruning bounds of every pair and their decreasing order (independent of the noise scale, so
    they are kept for the last few (design, domain, eps): a calibration reuses them at every scale)."""
    key = (fam.key(), m_t, M_t, eps)
    if key not in _RANKED:
        t = np.arange(m_t, M_t, dtype=np.int64)
        t = np.concatenate([t, t])
        up = np.repeat([True, False], M_t - m_t)
        bound = upper_bounds(fam, t, up, eps)
        if len(_RANKED) >= 4:
            _RANKED.pop(next(iter(_RANKED)))
        _RANKED[key] = (bound, np.argsort(-bound, kind="stable"))
    return _RANKED[key]


def search(fam: BinaryFamily, m_t: int, M_t: int, eps: float, b: float, noise: str, prune: bool = True):
    """(delta, t, up): the supremum over every ordered neighbouring pair of totals in [m_t, M_t]."""
    t = np.arange(m_t, M_t, dtype=np.int64)
    t = np.concatenate([t, t])
    up = np.repeat([True, False], M_t - m_t)
    if not prune:
        d = pair_deltas(fam, t, up, eps, b, noise)
        k = int(np.argmax(d))
        return float(d[k]), int(t[k]), bool(up[k])
    bound, order = _ranked(fam, m_t, M_t, eps)
    best, arg = -1.0, int(order[0])
    start, size = 0, 64
    while start < len(order):
        sel = order[start:start + size]
        sel = sel[bound[sel] > best]
        if sel.size == 0:
            break
        d = pair_deltas(fam, t[sel], up[sel], eps, b, noise)
        k = int(np.argmax(d))
        if d[k] > best:
            best, arg = float(d[k]), int(sel[k])
        start += size
        size = min(4 * size, 1 << 15)
    return max(best, 0.0), int(t[arg]), bool(up[arg])
