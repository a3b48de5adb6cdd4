"""Private quantiles beyond the histogram method: the inverse-sensitivity mechanism of Section 3 of
``private-deciles`` (001) (Canesse, 2022; Asi and Duchi, "Near instance-optimality in differential
privacy", 2020), the exponential mechanism for one quantile (Smith, STOC 2011; as in diffprivlib and
OpenDP), JointExp (Gillenwater, Joseph and Kulesza, "Differentially private quantiles", ICML 2021) and the
unbounded AboveThreshold estimator (Durfee, "Unbounded differentially private quantile and maximum
estimation", NeurIPS 2023).

Neighbouring databases are those of the report's Definition 1.2.0.1: same size, one entry replaced.

Quantile convention (used by the inverse-sensitivity functions and for "the sample quantile"): the
q-quantile of n values is the r-th order statistic x_(r), r = max(1, ceil(q n)), with q n evaluated
exactly for q read as the shortest decimal that rounds to it (q = 0.9, n = 10 gives r = 9; the binary
value of 0.9 is slightly above 9/10 and would give 10).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._common import _shape_of, as_float, boolean, count, fail, memory, provenance, require, scalar

__all__ = ["inverse_sensitivity_pmf", "inverse_sensitivity_loss", "exponential_quantile_pmf",
           "joint_exp_quantiles", "unbounded_quantile", "unbounded_quantile_pmf"]

_U = 2.0**-53                 # unit roundoff
_LN2 = math.log(2.0)
_CELLS = 1 << 21              # numbers allocated at once by the blocked loops


# == validation ===============================================================================================
def _vector(name: str, value, copies: float = 4.0, min_len: int = 1, domain: str = "a 1-D array of finite "
            "real numbers") -> np.ndarray:
    """A finite 1-D float array of at least ``min_len`` entries; refused (naming ``name``) before any copy if
    ``copies`` arrays of its size would exceed the memory limit."""
    shape = _shape_of(value)
    if isinstance(value, (str, bytes)) or len(shape) != 1:
        fail(name, domain, f"shape {shape}" if shape else repr(value)[:60])
    memory(name, shape[0] * copies)
    arr = as_float(name, value, finite=True)
    if arr.ndim != 1:
        fail(name, domain, f"shape {arr.shape}")
    if arr.size < min_len:
        fail(name, f"{domain} with at least {min_len} entr{'y' if min_len == 1 else 'ies'}")
    return arr


def _grid(value) -> np.ndarray:
    grid = _vector("grid", value)
    require(np.diff(grid) > 0, "grid", "strictly increasing")
    return grid


def _rng(rng) -> np.random.Generator:
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)) and rng >= 0:
        return np.random.default_rng(int(rng))
    fail("rng", "None, a numpy.random.Generator or an integer seed >= 0", repr(rng)[:60])


def _size(size):
    return None if size is None else count("size", size, 1)


def order_index(q: float, n: int) -> int:
    """r = max(1, ceil(q n)) with q read as its shortest decimal (module docstring)."""
    return max(1, math.ceil(Fraction(repr(float(q))) * n))


def _log_normalise(w: np.ndarray):
    """(ln of w normalised: (w - max) - ln sum exp(w - max), written so that a huge common offset cancels
    exactly; None if every w is -inf)."""
    m = float(np.max(w))
    if m == -math.inf:
        return None
    d = w - m
    return d - math.log(float(np.sum(np.exp(d))))


# == inverse sensitivity (Section 3.1) ========================================================================
def _lengths(sorted_x: np.ndarray, grid: np.ndarray, r: int) -> np.ndarray:
    """len(x, t) = max(0, #{x < t} - r + 1, r - #{x <= t}) (Definition 3.1.0.1 for the r-th order statistic,
    when every value t may be given to a changed entry)."""
    below = np.searchsorted(sorted_x, grid, side="left")       # #{x < t}
    upto = np.searchsorted(sorted_x, grid, side="right")       # #{x <= t}
    return np.maximum(0, np.maximum(below - (r - 1), r - upto)).astype(float)


def _window_bounds(s: np.ndarray, t: np.ndarray, rho: float):
    """For each t, the index range [lo, hi) of the sorted array s with |s - t| <= rho, the comparison made in
    floating point (fl(s - t) is monotone in s, so the range is contiguous; the search is corrected until
    every end agrees with the comparison)."""
    n = s.size
    # |s - t| beyond the float range (inf) is above every rho: the overflow is meant
    with np.errstate(over="ignore", invalid="ignore"):
        lo = np.searchsorted(s, t - rho, side="left")
        hi = np.searchsorted(s, t + rho, side="right")
        for _ in range(64):
            dec = (lo > 0) & (np.abs(s[np.maximum(lo - 1, 0)] - t) <= rho)
            inc = (lo < n) & ~dec & (np.abs(s[np.minimum(lo, n - 1)] - t) > rho)
            lo = lo - dec + inc
            up = (hi < n) & (np.abs(s[np.minimum(hi, n - 1)] - t) <= rho)
            down = (hi > 0) & ~up & (np.abs(s[np.maximum(hi - 1, 0)] - t) > rho)
            hi = hi + up - down
            if not (dec.any() or inc.any() or up.any() or down.any()):
                break
    return lo, np.maximum(hi, lo)


def _smooth_lengths(data, grid, rho, q, universe):
    """(len^rho(x, t) for t in grid, with inf where no value of the universe lies within rho)."""
    x = np.sort(data)
    r = order_index(q, x.size)
    length = _lengths(x, grid, r)
    if universe is None:
        reach = np.ones(grid.size, dtype=bool)
    else:
        reach = np.isin(grid, universe)
    if rho == 0:
        return np.where(reach, length, np.inf)
    s, f = grid[reach], length[reach]
    if s.size == 0:
        return np.full(grid.size, np.inf)
    # f is quasi-convex along s (max of a nondecreasing and a nonincreasing sequence): its minimum over an
    # index range is at the point of the range nearest to any global minimiser
    star = int(np.argmin(f))
    if rho == math.inf:
        return np.full(grid.size, f[star])
    lo, hi = _window_bounds(s, grid, rho)
    empty = hi <= lo
    at = np.clip(star, lo, np.maximum(hi - 1, lo))
    return np.where(empty, np.inf, f[np.minimum(at, s.size - 1)])


def _isens_args(data, grid, epsilon, rho, q, universe, name="data"):
    data = _vector(name, data)
    grid = _grid(grid)
    epsilon = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True)
    rho = scalar("rho", rho, 0.0, math.inf, finite=False)
    q = scalar("q", q, 0.0, 1.0)
    if universe is not None:
        universe = np.unique(_vector("universe", universe))
        require(np.isin(data, universe), name, "values of universe")
    memory("grid", grid.size * 8.0)
    return data, grid, epsilon, rho, q, universe


def _isens_logpmf(data, grid, epsilon, rho, q, universe):
    """(ln P on the grid, max |w - max w| over the finite log-weights)."""
    lens = _smooth_lengths(data, grid, rho, q, universe)
    inf = np.isinf(lens)
    w = np.where(inf, -np.inf, -0.5 * epsilon * np.where(inf, 0.0, lens))
    lp = _log_normalise(w)
    if lp is None:
        fail("grid", "a grid with a point within rho of a value of universe (every point has len = inf)")
    fin = ~inf
    return lp, float(np.max(w[fin]) - np.min(w[fin]))


@provenance("pd.isens.length", "pd.isens.epsilon_dp")
def inverse_sensitivity_pmf(data, grid, epsilon, rho=0, q=0.5, universe=None, log=False):
    r"""Law of the rho-smooth inverse-sensitivity mechanism for the q-quantile on a finite grid.

    .. math:: P(t) = \frac{\exp(-\mathrm{len}^\rho(x, t)\,\varepsilon/2)}
                          {\sum_{s \in \text{grid}} \exp(-\mathrm{len}^\rho(x, s)\,\varepsilon/2)},\qquad
              \mathrm{len}^\rho(x, t) = \min_{s \in \text{grid},\ |s - t| \le \rho} \mathrm{len}(x, s)

    with the counting measure on the grid (Definitions 3.1.0.1-3.1.0.4 of ``private-deciles`` (001),
    Section 3.1; Asi and Duchi 2020).  The quantile is the order statistic x_(r), r = max(1, ceil(q n))
    (module docstring), and its length has the closed form

    .. math:: \mathrm{len}(x, t) = \max\big(0,\ \#\{x < t\} - r + 1,\ r - \#\{x \le t\}\big):

    the number of order statistics between t and x_(r) counted on the side of t.  Proof: x'_(r) = t exactly
    when #{x' < t} <= r - 1 and #{x' <= t} >= r; one replaced entry moves each count by at most 1, so at
    least that many entries must change, and replacing that many entries (the nearest ones on the far side)
    by t itself reaches t.  (Checked against every replaced dataset for n <= 4 in the tests.)

    ``universe`` (None: every real number) is the set of values an entry may take; a data value must be one
    of them.  A grid point outside it is the order statistic of no dataset: len = inf and probability 0 (and
    len^rho = inf when no point of the universe on the grid lies within rho).  Theorem 3.1.0.1: eps-DP,
    since len^rho moves by at most 1 between neighbours and so does every term of the normaliser.

    Parameters: ``data`` (n,) finite values; ``grid`` (K,) strictly increasing finite candidates;
    ``epsilon`` > 0 finite; ``rho`` >= 0 (inf: the uniform law on the grid points with a finite len);
    ``q`` in [0, 1]; ``universe`` None or a finite array; ``log`` True for ln P.  Computed in log space
    (relative accuracy ~1e-15 for n up to 10^6 and more: no term under- or overflows before the
    normalisation); returns an array of length K summing to 1.

    >>> import math
    >>> p = inverse_sensitivity_pmf([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 2 * math.log(2))
    >>> [round(float(v), 12) for v in p]        # len = 1, 0, 1: weights 1/2, 1, 1/2
    [0.25, 0.5, 0.25]
    """
    log = boolean("log", log)
    data, grid, epsilon, rho, q, universe = _isens_args(data, grid, epsilon, rho, q, universe)
    lp, _ = _isens_logpmf(data, grid, epsilon, rho, q, universe)
    return lp if log else np.exp(lp)


@provenance("pd.isens.epsilon_dp")
def inverse_sensitivity_loss(data, neighbour, grid, epsilon, rho=0, q=0.5, universe=None):
    r"""Privacy loss max_t ``|ln P(t) - ln P'(t)|`` of :func:`inverse_sensitivity_pmf` between two datasets of the
    same size (points where both probabilities are 0 are left out; inf if only one of them is 0).

    Theorem 3.1.0.1 of ``private-deciles`` (001) (Section 3.1; Asi and Duchi 2020) bounds it by epsilon
    for neighbours (one entry replaced).  For datasets differing in more entries the value is still the
    loss between them.  The floating-point value is rounded up: a bound on its roundoff
    (16 u (S + S' + 2 ln K + 2) + 4 K u with u = 2^-53, S and S' the spreads max w - min w of the finite
    log-weights w = -len^rho eps/2, K the grid size) is added and the sum moved to the next float above, so
    the result is never below the exact loss of the mechanism for the given floats.

    >>> import math
    >>> loss = inverse_sensitivity_loss([1.0, 2.0, 3.0], [1.0, 2.0, 2.0], [1.0, 2.0, 3.0], 2 * math.log(2))
    >>> round(loss, 12)         # P = (1/4, 1/2, 1/4), P' = (2/7, 4/7, 1/7): ln(7/4) at t = 3
    0.559615787935
    """
    data, grid, epsilon, rho, q, universe = _isens_args(data, grid, epsilon, rho, q, universe)
    neighbour = _vector("neighbour", neighbour)
    if neighbour.size != data.size:
        fail("neighbour", f"a dataset of the same size as data ({data.size})", f"{neighbour.size} entries")
    if universe is not None:
        require(np.isin(neighbour, universe), "neighbour", "values of universe")
    lp, span = _isens_logpmf(data, grid, epsilon, rho, q, universe)
    lp2, span2 = _isens_logpmf(neighbour, grid, epsilon, rho, q, universe)
    fin, fin2 = np.isfinite(lp), np.isfinite(lp2)
    if np.any(fin != fin2):
        return math.inf
    d = np.abs(lp[fin] - lp2[fin])
    bound = 16 * _U * (span + span2 + 2 * math.log(grid.size) + 2.0) + 4 * grid.size * _U
    return float(np.nextafter(float(np.max(d)) + bound, math.inf))


# == the exponential mechanism (Smith 2011) ===================================================================
@provenance("pd.def.count_sensitivity", "pd.isens.epsilon_dp")
def exponential_quantile_pmf(data, grid, epsilon, q=0.5, log=False):
    r"""Law of the exponential mechanism for the q-quantile on a finite grid (counting measure):

    .. math:: P(t) \propto \exp\big(\varepsilon\, u(t)/2\big),\qquad u(t) = -\big|\#\{x < t\} - q n\big|.

    u has sensitivity 1 between neighbours (one count moves by at most 1, Definition 1.2.0.1 and
    Section 2.2.1 of ``private-deciles`` (001)), so the mechanism is eps-DP (McSherry and Talwar 2007;
    the argument of Theorem 3.1.0.1, Section 3.1, with the utility -``|#{x < t} - q n|`` in place of -len).

    Relation to the libraries (their source read for this): diffprivlib's ``quantile`` (0.6) draws an
    interval between consecutive sorted values (bounds appended) with weight length * exp(eps u/2),
    u = -``|i - q n|`` for the interval above i values, then a uniform point in it: this function is the
    same utility with the counting measure on a grid instead of the length, and approaches that law as the
    grid becomes a fine uniform lattice.  OpenDP's ``make_private_quantile`` (0.16) scores candidates by
    ``|(1 - q) #{x < c} - q #{x > c}|``, which is ``|#{x < c} - q n|`` unless data equal c, and selects with
    report-noisy-max under its own noise (exponential noise for pure DP: permute-and-flip, not this law).

    Parameters: ``data`` (n,) finite; ``grid`` (K,) strictly increasing finite; ``epsilon`` > 0 finite;
    ``q`` in [0, 1]; ``log`` True for ln P.  Log space throughout; returns an array of length K.

    >>> import math
    >>> p = exponential_quantile_pmf([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 4 * math.log(2))
    >>> [round(float(v), 12) for v in p]        # u = -1.5, -0.5, -0.5: weights 1/8, 1/2, 1/2
    [0.111111111111, 0.444444444444, 0.444444444444]
    """
    log = boolean("log", log)
    data = _vector("data", data)
    grid = _grid(grid)
    epsilon = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True)
    q = scalar("q", q, 0.0, 1.0)
    x = np.sort(data)
    below = np.searchsorted(x, grid, side="left").astype(float)
    lp = _log_normalise(-0.5 * epsilon * np.abs(below - q * x.size))
    return lp if log else np.exp(lp)


# == JointExp (Gillenwater, Joseph and Kulesza 2021) ==========================================================
def _log_prefix(v: np.ndarray) -> np.ndarray:
    """log of the running sums of exp(v) (positive terms only: no cancellation)."""
    return np.logaddexp.accumulate(v) if v.size else v


def _block_sums(v: np.ndarray, w: int):
    """Running log-sums of exp(v) inside consecutive blocks of w entries: (from the block's start to i,
    from i to the block's end)."""
    n = v.size
    nb = -(-n // w)
    pad = np.full(nb * w, -np.inf)
    pad[:n] = v
    blocks = pad.reshape(nb, w)
    pre = np.logaddexp.accumulate(blocks, axis=1).ravel()[:n]
    suf = np.logaddexp.accumulate(blocks[:, ::-1], axis=1)[:, ::-1].ravel()[:n]
    return pre, suf


class _Kernel:
    """Sums S(i) = sum_{i' < i} exp(-c |i - i' - tau|) exp(v(i')) for i = 0..N-1, and sampling i' given i,
    from positive partial sums only.  With w = floor(tau) the terms with d = i - i' <= w weigh
    exp(-c (tau - i)) exp(v(i') - c i') (a window of w terms: block sums, van Herk / Gil-Werman style) and
    those with d > w weigh exp(c (tau - i)) exp(v(i') + c i') (a prefix)."""

    def __init__(self, v: np.ndarray, c: float, tau: float):
        self.v, self.c, self.tau = v, c, tau
        n = v.size
        idx = np.arange(n, dtype=float)
        self.w = w = int(min(math.floor(tau), n))
        self.right = _log_prefix(v + c * idx)            # sum_{i' <= j} exp(v + c i')
        lt = v - c * idx
        self.left_prefix = _log_prefix(lt)               # windows that start at 0
        self.pre, self.suf = _block_sums(lt, w) if w >= 1 else (None, None)

    def parts(self, i: np.ndarray):
        """(log of the window part, log of the prefix part) of S at the integer array i (0 <= i <= N)."""
        c, tau, w = self.c, self.tau, self.w
        fi = i.astype(float)
        left = np.full(i.shape, -np.inf)
        if w >= 1:
            e = i - 1                                    # window [max(0, i - w), i - 1]
            s = i - w
            ok = e >= 0
            small = ok & (s <= 0)
            left = np.where(small, self.left_prefix[np.clip(e, 0, None)], left)
            big = ok & (s > 0)
            sc, ec = np.clip(s, 0, self.v.size - 1), np.clip(e, 0, self.v.size - 1)
            same = (sc // w) == (ec // w)
            two = np.logaddexp(self.suf[sc], self.pre[ec])
            left = np.where(big, np.where(same, self.suf[sc], two), left)
            left = left - c * (tau - fi)
        j = i - (w + 1)                                  # prefix [0, i - w - 1]
        right = np.where(j >= 0, self.right[np.clip(j, 0, None)], -np.inf) - c * (fi - tau)
        return left, right

    def total(self, i: np.ndarray) -> np.ndarray:
        left, right = self.parts(i)
        return np.logaddexp(left, right)


def _search_up(arr: np.ndarray, lo: np.ndarray, hi: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Smallest index in [lo, hi] with arr >= target (arr nondecreasing there; hi if none)."""
    lo, hi = lo.copy(), hi.copy()
    while np.any(lo < hi):
        mid = (lo + hi) // 2
        go = (lo < hi) & (arr[mid] < target)
        lo = np.where(go, mid + 1, lo)
        hi = np.where((lo < hi) & ~go, mid, hi)
    return lo


def _search_down(arr: np.ndarray, lo: np.ndarray, hi: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Largest index in [lo, hi] with arr >= target (arr nonincreasing there; lo if none)."""
    lo, hi = lo.copy(), hi.copy()
    while np.any(lo < hi):
        mid = (lo + hi + 1) // 2
        go = (lo < hi) & (arr[mid] >= target)
        lo = np.where(go, mid, lo)
        hi = np.where((lo < hi) & ~go, mid - 1, hi)
    return lo


def _sample_before(kern: _Kernel, i_next: np.ndarray, rng) -> np.ndarray:
    """i' < i_next drawn with weight exp(-c |i_next - i' - tau|) exp(v(i')) (inverse CDF on positive partial
    sums)."""
    left, right = kern.parts(i_next)
    tot = np.logaddexp(left, right)
    u = np.log(rng.random(i_next.size)) + tot
    take_right = u < right                       # P(right) = e^{right - tot}
    out = np.empty(i_next.size, dtype=np.int64)
    # the prefix part: [0, i_next - w - 1], running sums kern.right
    r = take_right
    if r.any():
        hi = i_next[r] - kern.w - 1
        target = np.log(rng.random(hi.size)) + kern.right[hi]
        out[r] = _search_up(kern.right, np.zeros_like(hi), hi, target)
    lft = ~take_right
    if lft.any():
        e = i_next[lft] - 1
        s = i_next[lft] - kern.w
        res = np.empty(e.size, dtype=np.int64)
        small = s <= 0
        if small.any():
            ee = e[small]
            target = np.log(rng.random(ee.size)) + kern.left_prefix[ee]
            res[small] = _search_up(kern.left_prefix, np.zeros_like(ee), ee, target)
        big = ~small
        if big.any():
            sb, eb, w = s[big], e[big], kern.w
            same = (sb // w) == (eb // w)
            a = kern.suf[sb]                               # [sb, end of its block]
            bpart = np.where(same, -np.inf, kern.pre[eb])  # [start of eb's block, eb]
            tot2 = np.logaddexp(a, bpart)
            first = np.log(rng.random(sb.size)) + tot2 < a
            rb = np.empty(sb.size, dtype=np.int64)
            if first.any():
                lo_ = sb[first]
                hi_ = np.where(same[first], eb[first], (lo_ // w + 1) * w - 1)
                target = np.log(rng.random(lo_.size)) + kern.suf[lo_]
                rb[first] = _search_down(kern.suf, lo_, hi_, target)
            sec = ~first
            if sec.any():
                hi_ = eb[sec]
                lo_ = (hi_ // w) * w
                target = np.log(rng.random(hi_.size)) + kern.pre[hi_]
                rb[sec] = _search_up(kern.pre, lo_, hi_, target)
            res[big] = rb
        out[lft] = res
    return out


def _jointexp_tables(xs, qs, epsilon, a, b):
    """Forward tables of JointExp in log space: A0[j, i] (quantile j alone so far in interval i), At[j, i]
    (all run lengths), the kernels, log-lengths and the constants."""
    n = xs.size
    m = qs.size
    edges = np.concatenate(([a], xs, [b]))
    with np.errstate(over="ignore"):
        lengths = np.diff(edges)                     # inf where b - a exceeds the float range
    with np.errstate(divide="ignore"):
        loglen = np.log(lengths)
    wide = np.isinf(lengths)
    if wide.any():                                   # ends of size > 1e291 there: halving them is exact
        loglen[wide] = np.log(0.5 * edges[1:][wide] - 0.5 * edges[:-1][wide]) + _LN2
    c = epsilon / 4.0                                # eps / (2 Delta), Delta = 2 under replacement
    tau = np.diff(np.concatenate(([0.0], qs, [1.0]))) * n
    idx = np.arange(n + 1, dtype=float)
    lfact = np.array([math.lgamma(k + 2) for k in range(m)])      # ln (k + 1)!
    A0 = np.empty((m, n + 1))
    At = np.empty((m, n + 1))
    kernels = []
    A0[0] = loglen - c * np.abs(idx - tau[0])
    At[0] = A0[0]
    for j in range(1, m):
        kern = _Kernel(At[j - 1], c, tau[j])
        kernels.append(kern)
        A0[j] = loglen + kern.total(np.arange(n + 1))
        terms = [A0[j]]
        for k in range(1, j + 1):
            terms.append(_run_weight(A0, loglen, tau, c, lfact, j, k))
        At[j] = np.logaddexp.reduce(np.vstack(terms), axis=0) if len(terms) > 1 else terms[0]
    return edges, lengths, loglen, c, tau, lfact, A0, At, kernels


def _run_weight(A0, loglen, tau, c, lfact, j, k, i=None):
    """ln A_j(i, k): quantiles j - k..j all in interval i (A0[j - k] times phi_l(0) = e^{-c tau_l} for the k
    later ones, L_i^k and the volume 1/(k + 1)! of the ordered run)."""
    base = A0[j - k] if i is None else A0[j - k, i]
    ll = loglen if i is None else loglen[i]
    with np.errstate(invalid="ignore"):
        return base - c * float(np.sum(tau[j - k + 1:j + 1])) + np.where(np.isfinite(ll), k * ll, -np.inf) - lfact[k]


@provenance("pd.def.count_sensitivity", "pd.isens.epsilon_dp")
def joint_exp_quantiles(x, qs, epsilon, a, b, rng=None, size=None):
    r"""JointExp: all quantiles q_1 < ... < q_m at once, eps-DP (Gillenwater, Joseph and Kulesza,
    "Differentially private quantiles", ICML 2021, Algorithm 1; reference code ``dp_multiq/joint_exp.py``
    of google-research).

    The outputs a <= o_1 <= ... <= o_m <= b have the density (Lebesgue measure on the ordered outputs)

    .. math:: f(o) \propto \exp\Big(-\frac{\varepsilon}{2\Delta}\sum_{j=1}^{m+1}
              \big|\#\{x \in [o_{j-1}, o_j)\} - (q_j - q_{j-1})\,n\big|\Big),

    o_0 = a, o_{m+1} = b (the last interval closed), q_0 = 0, q_{m+1} = 1, Delta = 2: replacing one entry
    (Definition 1.2.0.1 of ``private-deciles`` (001), Section 1.2) moves two of the counts by 1 each
    (each count has sensitivity 1, Section 2.2.1), the exponential mechanism (the argument of
    Theorem 3.1.0.1, Section 3.1).  The data are clipped to [a, b] as in the reference code.  The density
    is constant on products of the n + 1 intervals between consecutive sorted values; the sampler draws the
    interval of every output from the exact weights (a run of k outputs in one interval of length L has
    volume L^k / k!), then uniform points in them, sorted.

    Implementation (own, same law as the reference code): a forward pass over the quantiles in log space
    whose convolutions with exp(-c ``|d - tau|``) are split at d = floor(tau) into a windowed and a prefix part,
    each a running sum of positive terms (no FFT, no cancellation: every table entry keeps its relative
    accuracy, ~1e-13 at n = 10^5, instead of the reference's absolute FFT accuracy), then a backward pass
    drawing each interval by inverse CDF on the same partial sums (binary search).  Cost O(m^2 n) for the
    tables, O(m log n) per draw.

    Parameters: ``x`` (n,) finite (n >= 1); ``qs`` (m,) strictly increasing in (0, 1); ``epsilon`` > 0
    finite (the budget of all m quantiles together); ``a`` < ``b`` finite bounds (any finite pair: b - a
    and the lengths of the intervals may exceed the float range, as for a = -1e308, b = 1e308; their
    logarithms are then taken from the halved ends and the points drawn as (1 - u) lo + u hi, so
    nothing overflows); ``rng`` a Generator, an integer seed or None (fresh entropy); ``size`` None for
    one draw (an (m,) array) or the number of independent draws (a (size, m) array).

    >>> o = joint_exp_quantiles([0.1, 0.4, 0.45, 0.8], [0.25, 0.5, 0.75], 50.0, 0.0, 1.0, rng=3)
    >>> o.shape, bool(np.all(np.diff(o) >= 0)), bool(0.0 <= o[0] and o[-1] <= 1.0)
    ((3,), True, True)
    """
    x = _vector("x", x, copies=8.0)
    qs = _vector("qs", qs, copies=1.0)
    require((qs > 0) & (qs < 1), "qs", "in (0, 1)")
    require(np.diff(qs) > 0, "qs", "strictly increasing")
    epsilon = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True)
    a = scalar("a", a)
    b = scalar("b", b)
    if not a < b:
        fail("b", f"above a = {a!r}", repr(b))
    rng = _rng(rng)
    size = _size(size)
    m = qs.size
    memory("x", float(x.size + 2) * (7 * m + 8))      # the tables and the kernels' partial sums
    draws = 1 if size is None else size
    memory("size", float(draws) * (4 * m + 8))
    xs = np.sort(np.clip(x, a, b))
    n = xs.size
    edges, lengths, loglen, c, tau, lfact, A0, At, kernels = _jointexp_tables(xs, qs, epsilon, a, b)
    idx = np.arange(n + 1, dtype=float)
    interval = np.empty((draws, m), dtype=np.int64)
    cur = np.full(draws, m - 1)                     # the quantile whose interval is drawn next
    nxt = np.full(draws, n)                         # interval of the quantile after it
    # the last quantile: weight At[m-1, i] phi_{m+1}(n - i), i <= n (d = 0 allowed)
    last = At[m - 1] - c * np.abs(n - idx - tau[m])
    cum = _log_prefix(last)
    target = np.log(rng.random(draws)) + cum[-1]
    first_i = np.minimum(np.searchsorted(cum, target, side="left"), n)
    for j in range(m - 1, -1, -1):
        act = np.flatnonzero(cur == j)
        if act.size == 0:
            continue
        if j == m - 1:
            i = first_i[act]
        else:              # the step from j to j + 1: kernels[j], built from At[j] with tau[j + 1]
            i = _sample_before(kernels[j], nxt[act], rng)
        # run length: quantiles j - k..j in interval i, weight A_j(i, k)
        ks = np.arange(j + 1)
        wk = np.stack([_run_weight(A0, loglen, tau, c, lfact, j, k, i) for k in ks], axis=1)
        wk = wk - np.max(wk, axis=1, keepdims=True)
        pk = np.cumsum(np.exp(wk), axis=1)
        u = rng.random(act.size) * pk[:, -1]
        k = np.minimum(np.sum(pk < u[:, None], axis=1), j)
        for kk in range(j + 1):
            sel = k >= kk
            interval[act[sel], j - kk] = i[sel]
        cur[act] = j - k - 1
        nxt[act] = i
    u = rng.random((draws, m))
    width = lengths[interval]
    wide = np.isinf(width)                          # an interval longer than the float range
    with np.errstate(over="ignore", invalid="ignore"):
        out = edges[interval] + u * width
    if wide.any():                                  # (1 - u) lo + u hi: no overflow, inside [lo, hi]
        lo, hi = edges[interval[wide]], edges[interval[wide] + 1]
        out[wide] = np.clip((1.0 - u[wide]) * lo + u[wide] * hi, lo, hi)
    out = np.minimum(out, b)
    out.sort(axis=1)
    return out[0] if size is None else out


# == AboveThreshold laws and the unbounded estimator (Durfee 2023) ============================================
#: Gauss-Legendre orders by piece width (in units of the smaller noise scale): (order, widest piece)
_GL_ORDERS = ((4, 1 / 16), (6, 1 / 4), (12, math.inf))


def _above_threshold_law(y: np.ndarray, threshold: float, b_t: float, b_q: float) -> np.ndarray:
    """P(A = k), k = 0..K-1, and P(A = -1) (last) for AboveThreshold on query values y with threshold noise
    Lap(b_t) and query noise Lap(b_q) ("query + noise > noisy threshold" stops):

        P(A = k) = int l(t - T) prod_{i<k} F(t - y_i) (1 - F(t - y_k)) dt,

    F the Laplace(b_q) CDF (Section 2.1 of private-deciles (001), the first display of the proof of
    Theorem 2.1.0.1 with the earlier noises integrated out).  Integrated in u = (t - T)/b_t (so that a noise
    scale below the resolution of T is no trouble): Gauss-Legendre on the pieces between the kinks (u = 0 and
    every (y_i - T)/b_t) inside |u| <= 40 (the mass outside is below e^-40), pieces cut to width b/2 in t
    (b = min(b_t, b_q)), 4 nodes on pieces narrower than b/16, 6 up to b/4 and 12 above (3 nodes on the
    narrow pieces left errors of 1e-14 where kinks are dense; 4 give 3e-16 against mpmath).

    Queries far from a block of nodes are cut: those with y_i < t - 40 b_q (factor F within e^-40 of 1,
    their 1 - F below e^-40), those after the first y_i > t + 45 b_q and those after the 64th query with
    y_i >= t (the running product is then below e^-45, or 2^-64): absolute error below K e^-40 on every
    entry (sorted y; for unsorted y no column is cut)."""
    y = np.asarray(y, dtype=float)
    K = y.size
    R = 40.0
    with np.errstate(over="ignore"):
        d = (y - threshold) / b_t                    # the kinks in u (beyond the float range: far outside)
    pts = np.unique(np.concatenate(([-R, 0.0, R], d[(d > -R) & (d < R)])))
    b = min(b_t, b_q) / b_t                          # the scales in u
    h = 0.5 * b
    width = np.diff(pts)
    nsub = np.maximum(1, np.ceil(width / h)).astype(np.int64)
    sw = np.repeat(width / nsub, nsub)
    starts = np.repeat(pts[:-1], nsub) + (np.arange(nsub.sum()) - np.repeat(np.cumsum(nsub) - nsub, nsub)) * sw
    nodes, weights = [], []
    lo_w = 0.0
    for order, up in _GL_ORDERS:
        sel = (sw > lo_w * b) & (sw <= up * b)
        lo_w = up
        if not sel.any():
            continue
        g, gw = np.polynomial.legendre.leggauss(order)
        s0, ww = starts[sel], sw[sel]
        nodes.append((s0[:, None] + 0.5 * ww[:, None] * (g + 1.0)).ravel())
        weights.append((0.5 * ww[:, None] * gw).ravel())
    u = np.concatenate(nodes)
    wt = np.concatenate(weights)
    order_u = np.argsort(u, kind="stable")
    u, wt = u[order_u], wt[order_u]
    logw = np.log(wt) - _LN2 - np.abs(u)             # the threshold density in u: e^{-|u|}/2
    out = np.zeros(K + 1)
    if K == 0:
        out[0] = np.exp(logw).sum()
        return out
    # runs of equal consecutive values share their factors: F and 1 - F are evaluated once per run
    first = np.concatenate(([True], y[1:] != y[:-1]))
    starts = np.flatnonzero(first)                   # query index of each run's first query
    mult = np.diff(np.append(starts, K))             # its length
    vals = y[starts]
    dv = d[starts]
    J = vals.size
    sorted_y = bool(np.all(np.diff(vals) > 0))
    rows = max(1, min(256, _CELLS // J))
    rq = b_q / b_t
    for r0 in range(0, u.size, rows):
        uu, lw = u[r0:r0 + rows], logw[r0:r0 + rows]
        if sorted_y:
            j0 = int(np.searchsorted(dv, uu[0] - 40.0 * rq, side="left"))
            c1 = min(K, int(np.searchsorted(d, uu[-1] + 45.0 * rq, side="right")) + 1,
                     int(np.searchsorted(d, uu[-1], side="left")) + 65)
            j1 = int(np.searchsorted(starts, c1, side="left"))      # the runs that start before c1
        else:
            j0, j1 = 0, J
        if j1 <= j0:               # (only j0 = J) every query far below the nodes: none passes, A = -1
            out[K] += np.exp(lw).sum()
            continue
        z = uu[:, None] * b_t - (vals[j0:j1] - threshold)[None, :]      # t - y
        neg = z < 0
        a = np.abs(z)
        with np.errstate(over="ignore"):
            a *= -1.0 / b_q                              # -|z| / b_q (-inf: F = 0 or 1 exactly)
        l1 = np.log1p(-0.5 * np.exp(a))
        a -= _LN2                                        # ln(e^{-|z|/b} / 2)
        logF = np.where(neg, a, l1)
        logS = np.where(neg, l1, a)
        m = mult[j0:j1]
        cum = np.cumsum(logF * m, axis=1)                # the run j contributes m_j ln F
        logS[:, 1:] += cum[:, :-1]
        logS += lw[:, None]
        st = starts[j0:j1]
        out[st] += np.exp(logS).sum(axis=0)               # the first query of every run
        long = np.flatnonzero(m > 1)
        if long.size:                                    # the later queries of the longer runs: r ln F more
            reps = m[long] - 1
            col = np.repeat(long, reps)
            r = (np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps) + 1).astype(float)
            vals_r = np.exp(logS[:, col] + r[None, :] * logF[:, col]).sum(axis=0)
            np.add.at(out, st[col] + r.astype(np.int64), vals_r)
        if j1 == J:
            out[K] += np.exp(lw + cum[:, -1]).sum()
    return out


def _cutoffs(lower: float, beta: float, k: np.ndarray) -> np.ndarray:
    """lower + beta^k - 1 (expm1 of k ln beta; inf beyond the float range)."""
    with np.errstate(over="ignore"):
        return lower + np.expm1(np.asarray(k, dtype=float) * math.log(beta))


def _uq_args(x, q, epsilon, beta, lower):
    x = _vector("x", x)
    q = scalar("q", q, 0.0, 1.0)
    epsilon = scalar("epsilon", epsilon, 0.0, math.inf, lo_open=True)
    beta = scalar("beta", beta, 1.0, math.inf, lo_open=True)
    lower = scalar("lower", lower)
    if not math.isfinite(2.0 / epsilon):
        fail("epsilon", "at least 2/1.8e308 (the noise scale 2/epsilon must be finite)", repr(epsilon))
    if not math.log(beta) > 0:
        fail("beta", "> 1 with ln(beta) > 0 in floating point", repr(beta))
    xs = np.sort(x)
    top = float(xs[-1])
    # K0: the first index whose cutoff lies above every value (from there on every query equals n)
    if top < lower:
        k0 = 0
    else:
        span = top - lower
        if not math.isfinite(span):
            fail("lower", "such that max(x) - lower is finite", repr(lower))
        guess = math.log1p(span) / math.log(beta)
        if not guess < 2**40:
            fail("beta", "large enough for the cutoffs lower + beta^k - 1 to pass max(x) in fewer than 2^40 "
                 "steps", repr(beta))
        k0 = max(0, int(guess) - 2)
        while _cutoffs(lower, beta, np.array([k0]))[0] <= top:
            k0 += 1
    return xs, q, epsilon, beta, lower, k0


@provenance("pd.at.output_law", "pd.at.monotone_noise")
def unbounded_quantile(x, q, epsilon, rng=None, beta=1.001, lower=0.0, size=None):
    r"""Durfee's unbounded quantile estimator ("Unbounded differentially private quantile and maximum
    estimation", NeurIPS 2023; arXiv 2305.01177): AboveThreshold on the cumulative counts

    .. math:: f_k(x) = \#\{x_i < \ell + \beta^k - 1\},\qquad k = 0, 1, 2, \dots

    with threshold q n; the output is :math:`\ell + \beta^k - 1` for the first k with
    f_k(x) + nu_k > q n + tau.  Only a lower bound ell (``lower``) is needed: the queries go on until one
    passes, which happens with probability 1.  Noise: threshold tau ~ Lap(2/eps), queries nu_k ~ Lap(2/eps),
    i.e. eps_1 = eps_2 = eps/2 in AboveThreshold with Lap(1/eps_1), Lap(1/eps_2): the counts are monotone
    (one replaced entry moves all of them the same way), for which eps_1 + eps_2 suffices (Lyu, Su and Li,
    PVLDB 2017; Durfee 2023 for this estimator) instead of Lap(4/eps) on the queries as in Section 2.1 of
    ``private-deciles`` (001) (claim pd.at.monotone_noise).  The query form ell + beta^k - 1, the
    threshold q n and the equal split follow the paper's description and the public implementations read
    for this (YancyLan/DP_Gini ``core.py``, eps1 = eps2; google-research ``dp_clip_lib.py`` for the zCDP
    variant of the paper's Appendix C); the full text of the paper was not available here.

    Simulation: the threshold and the query noises of the queries below max(x) are drawn in blocks; past
    the last value every query equals n and the number of further failures given the threshold is geometric
    with success probability P(n + nu > threshold), drawn directly.  An output beyond the float range is
    returned as inf.

    Parameters: ``x`` (n,) finite; ``q`` in [0, 1]; ``epsilon`` > 0 finite; ``rng`` Generator, seed or None;
    ``beta`` > 1 (default 1.001, the paper's); ``lower`` finite (values below it count in every query);
    ``size`` None (a scalar) or the number of draws.

    >>> est = unbounded_quantile(np.linspace(0.0, 1.0, 1001), 0.5, 50.0, rng=1, size=2000)
    >>> bool(abs(float(np.median(est)) - 0.5) < 0.01)
    True
    """
    xs, q, epsilon, beta, lower, k0 = _uq_args(x, q, epsilon, beta, lower)
    rng = _rng(rng)
    size = _size(size)
    draws = 1 if size is None else size
    memory("x", float(k0) * 2 + 16)
    memory("size", float(draws) * 6)
    n = xs.size
    counts = np.searchsorted(xs, _cutoffs(lower, beta, np.arange(k0)), side="left").astype(float)
    scale = 2.0 / epsilon
    thr = q * n + rng.laplace(0.0, scale, draws)
    k = np.full(draws, -1, dtype=np.int64)
    active = np.arange(draws)
    block = 256
    for s0 in range(0, k0, block):
        if active.size == 0:
            break
        cb = counts[s0:s0 + block]
        rows = max(1, _CELLS // cb.size)
        for r0 in range(0, active.size, rows):
            a = active[r0:r0 + rows]
            passed = cb[None, :] + rng.laplace(0.0, scale, (a.size, cb.size)) > thr[a, None]
            hit = passed.any(axis=1)
            k[a[hit]] = s0 + np.argmax(passed[hit], axis=1)
        active = active[k[active] < 0]
    if active.size:
        # every query from k0 on equals n: failures before the first pass are geometric
        z = thr[active] - n
        e = np.exp(-np.abs(z) / scale)
        # P(a query fails) = P(n + nu <= threshold) = F(z)
        log_fail = np.where(z < 0, -_LN2 - np.abs(z) / scale, np.log1p(-0.5 * e))
        u = rng.random(active.size)
        neg = log_fail < 0
        extra = np.full(active.size, np.inf)            # failure probability 1 in floating point
        extra[neg] = np.floor(np.log1p(-u[neg]) / log_fail[neg])
        k_extra = np.where(extra < 2.0**62, extra, 2.0**62)
        k[active] = k0 + k_extra.astype(np.int64)
    out = _cutoffs(lower, beta, k)
    return out[0] if size is None else out


@provenance("pd.at.output_law", "pd.at.monotone_noise")
def unbounded_quantile_pmf(x, q, epsilon, beta=1.001, lower=0.0, num_queries=None):
    r"""Exact law of :func:`unbounded_quantile` given the data: P(output = ell + beta^k - 1) for
    k = 0..K-1, and P(output >= ell + beta^K - 1) as the last entry (length K + 1).

    It is the law of AboveThreshold on the cumulative counts f_k(x) = #{x_i < ell + beta^k - 1} with
    threshold q n and Laplace(2/eps) noise on the threshold and on every query (Durfee, NeurIPS 2023; the
    output law of Section 2.1 of ``private-deciles`` (001), first display of the proof of
    Theorem 2.1.0.1, claim pd.at.output_law):

    .. math:: P(A = k) = \int l(t - qn) \prod_{i<k} F(t - f_i)\,(1 - F(t - f_k))\,dt

    (l the Laplace(2/eps) density, F its CDF); the last entry is the same integral of the product over
    i < K.  The law of the first K outputs does not depend on the later queries, so the truncation is
    exact.  The integral is computed by Gauss-Legendre on the pieces between its kinks (absolute accuracy
    ~1e-14 on every entry; the tails beyond 40 noise scales, below e^-40, are left out).

    ``num_queries`` K (default: the first K whose cutoff lies above max(x), so that every later query
    equals n).  Other parameters as in :func:`unbounded_quantile`.

    >>> p = unbounded_quantile_pmf([0.0, 0.0, 5.0], 0.5, 1.0, beta=2.0, num_queries=3)
    >>> [round(float(v), 6) for v in p]     # cutoffs 0, 1, 3, counts 0, 2, 2; mpmath.quad of the integrals
    [0.324752, 0.309964, 0.120839, 0.244445]
    """
    xs, q, epsilon, beta, lower, k0 = _uq_args(x, q, epsilon, beta, lower)
    K = k0 + 1 if num_queries is None else count("num_queries", num_queries, 0)
    memory("num_queries", float(K) * 64)
    counts = np.searchsorted(xs, _cutoffs(lower, beta, np.arange(K)), side="left").astype(float)
    return _above_threshold_law(counts, q * xs.size, 2.0 / epsilon, 2.0 / epsilon)
