"""Private deciles by the histogram method (``private-deciles`` (001), Canesse, "Rapport de stage", ENS Lyon
2022, Sections 2.2.1, 2.2.3, 2.2.4 and Appendix A): the method as intended, the exact law of its estimates
for uniform and standard normal data, the exact probabilities the report's lemmas bound, and the report's
printed bounds.

The method (Section 2.2.1, read as intended; :func:`histogram_deciles` lists how the printed lines differ):
the grid g_j = a + j (b - a)/steps, j = 1..steps, the counting queries f_j(x) = #{x_l < g_j} (sensitivity
1, increasing in j), and for each decile d = 1..9 one call of AboveThreshold (Section 2.1; Dwork and Roth,
"The Algorithmic Foundations of Differential Privacy", 2014, p. 57) at eps/9 with threshold T_d = d n/10:
noisy threshold t = T_d + Lap(2/(eps/9)) = T_d + Lap(18/eps), query noise Lap(36/eps), output k = the 0-based
index of the first query with f_k + nu_k > t (-1 if none).  The estimate is g_{k+1}, and b for -1.

The exact law (:func:`decile_accuracy`).  Given the counts c_j = f_j(X),

    P(A = k | c) = int l(t - T_d) prod_{j<k} F(t - c_j) (1 - F(t - c_k)) dt          (``pd.at.output_law``)

(l the density of Lap(18/eps), F the distribution function of Lap(36/eps)).  For X_1..X_n iid with
distribution function G the counts form a Markov chain, c_1 ~ Bin(n, G(g_1)) and
c_{j+1} - c_j ~ Bin(n - c_j, (G(g_{j+1}) - G(g_j))/(1 - G(g_j))).  Taking the expectation inside the integral,
for every t of a quadrature rule the forward recursion

    a_1(c) = P(c_1 = c),  P(A = j | t) = sum_c a_j(c) (1 - F(t - c)),
    a_{j+1}(c') = sum_c a_j(c) F(t - c) P(c_{j+1} = c' | c_j = c),  P(A = -1 | t) = sum_c a_K(c) F(t - c)

gives the law of A given the noisy threshold, and the rule integrates it against l(t - T_d) for the nine
deciles at once (the recursion does not depend on T_d).  The docstring of :func:`decile_accuracy` states the
truncations and their error bound.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ._common import (ParameterError, as_float, as_rng, broadcast_shape, count, fail, memory, memory_for,
                      provenance, require, scalar, scalar_out)
from .sampling import _log_binom

__all__ = ["histogram_deciles", "decile_accuracy", "empirical_decile_prob", "interval_counts_prob",
           "printed_uniform_eta", "printed_uniform_mu", "printed_uniform_bound",
           "printed_normal_eta", "printed_normal_mu", "printed_normal_bound"]

_DISTRIBUTIONS = ("uniform", "normal")
_READINGS = ("printed", "proof", "intended")
_MAX_STEPS = 10**4            # grid points of the exact law
_MAX_N = 10**5                # data set size of the exact law
_MAX_N_FORMULA = 2**50        # the binomial sums of the printed bounds (counts carried as floats)
_MAX_N_COUNTS = 10**9         # interval_counts_prob sums over a window of N_1

# -- truncations of the exact law (each bounded in decile_accuracy's docstring) ---------------------------
_TAU = 1e-15                  # mass left out of each side of a count window, and of each transition band
_R = 16.0                     # the threshold density is used on |x - x_d| <= 16 (x in units of 36/eps): e^-32 out
_TAU_START = 1e-14            # a node's recursion starts once the earlier factors may differ from 1 by this much
_TAU_DROP = 1e-15             # a node is dropped when its survival mass falls below this
_BLOCK = 256                  # source states per matrix product of the banded transition
# -- the quadrature rule in x = (t - origin) eps/36 (nodes per panel, panel widths) --------------------------
_D_NEAR = 1.0                 # the zone around each threshold x_d where panels are narrowest
_H_NEAR, _H_FAR = 0.125, 0.5  # panel widths near x_d and far from it
_KAPPA_CELLS = 0.02           # from this kappa = eps/36 on, every integer near x_d is a panel end
_CELL_NODES = 6000            # every integer is a panel end when there are at most a quarter this many
_HEAVY = 0.05                 # integers carrying this much count mass are always panel ends
_WORK = 4e11                  # refused above this estimated work (tens of seconds)


# == validation ===========================================================================================

def _decile_args(n, i, gamma, arrays, lemma=None):
    """(n, i, gamma) checked: n >= 1, i in 1..9, gamma >= 0 (in [0, 0.1] for the uniform ``lemma``), with room for
    ``arrays`` arrays of gamma's shape."""
    n = count("n", n, 1, _MAX_N_FORMULA)
    i = count("i", i, 1, 9)
    memory_for(arrays, gamma=gamma)
    gam = as_float("gamma", gamma)
    if lemma is None:
        require(gam >= 0, "gamma", ">= 0")
    else:
        require((gam >= 0) & (gam <= 0.1), "gamma", f"in [0, 0.1] ({lemma})")
    return n, i, gam

def _distribution(value) -> str:
    if not isinstance(value, str) or value not in _DISTRIBUTIONS:
        fail("distribution", "'uniform' (on [0, 1]) or 'normal' (N(0, 1))",
             repr(value) if len(repr(value)) < 60 else type(value).__name__)
    return value


def _reading(value) -> str:
    if not isinstance(value, str) or value not in _READINGS:
        fail("reading", "'printed', 'proof' or 'intended'", repr(value)[:60])
    return value


def _arrays(cells, **named):
    """The named real inputs as float arrays: each refused alone first when it is too large (naming it), then
    its type and NaN checked (naming it), then their broadcast shape (naming the first that clashes), with
    room for ``cells`` arrays of that shape.  Returns (shape, arrays in the order given)."""
    for k, v in named.items():
        memory_for(cells, **{k: v})
    arrays = [as_float(k, v) for k, v in named.items()]
    return memory_for(cells, **named), arrays


def _epsilon(value) -> float:
    return scalar("epsilon", value, 0.0, math.inf, lo_open=True, finite=False)


def _decimal(v: float) -> Fraction:
    """The shortest decimal that rounds to ``v`` (0.1 is read as 1/10)."""
    return Fraction(repr(float(v)))


def _decile(distribution: str, i) -> np.ndarray:
    """The population deciles d_i: i/10 (uniform on [0, 1]), sqrt(2) erfinv(0.2 i - 1) = Phi^{-1}(i/10) (normal)."""
    i = np.asarray(i, dtype=float)
    if distribution == "uniform":
        return i / 10.0
    from scipy.special import ndtri

    return ndtri(i / 10.0)


def _cdf(distribution: str, x):
    """(G(x), 1 - G(x)), each to full relative accuracy (uniform on [0, 1] clipped; normal by ndtr)."""
    x = np.asarray(x, dtype=float)
    if distribution == "uniform":
        return np.clip(x, 0.0, 1.0), np.clip(1.0 - x, 0.0, 1.0)
    from scipy.special import ndtr

    return ndtr(x), ndtr(-x)


def _mass(distribution: str, lo, hi):
    """P(lo <= X <= hi) for lo <= hi, without cancellation in either tail."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, dtype=float), np.asarray(hi, dtype=float))
    if distribution == "uniform":
        return np.maximum(np.clip(hi, 0.0, 1.0) - np.clip(lo, 0.0, 1.0), 0.0)
    from scipy.special import ndtr

    right = lo >= 0
    with np.errstate(invalid="ignore"):
        out = np.where(right, ndtr(-lo) - ndtr(-hi), ndtr(hi) - ndtr(lo))
    return np.maximum(out, 0.0)


# == HistogramMethod ======================================================================================
def _grid(a: float, b: float, steps: int) -> np.ndarray:
    """g_j = a + j (b - a)/steps, j = 1..steps, evaluated as a (steps - j)/steps + b j/steps (no overflow of
    b - a; g_steps = b exactly; for a = 0, b = 1 the float nearest j/steps), made nondecreasing."""
    j = np.arange(1, steps + 1, dtype=float)
    g = a * ((steps - j) / steps) + b * (j / steps)
    return np.maximum.accumulate(g)


@provenance("pd.hm.composition", "pd.at.output_law")
def histogram_deciles(x, epsilon, steps, a, b, rng=None):
    """The nine deciles of the data ``x`` by the histogram method, as intended (Section 2.2.1).

    ``private-deciles`` (001), Section 2.2.1 (HistogramMethod), with AboveThreshold of Section 2.1 (Dwork and
    Roth 2014, p. 57).  The method: grid g_j = a + j (b - a)/steps (j = 1..steps); queries f_j(x) =
    #{x_l < g_j}; for d = 1..9, T_d = d n/10 and k_d = AboveThreshold((f_1..f_steps), T_d, eps/9), i.e. the
    0-based index of the first query with f_j + Lap(36/eps) > T_d + Lap(18/eps) (fresh noise for every call);
    the estimate is g_{k_d + 1}, the first grid point whose noisy count exceeds the noisy threshold, and b when
    k_d = -1.  HistogramMethod is eps-DP by composition of the nine eps/9-DP calls (Theorem 2.2.1.1,
    ``pd.hm.composition``).

    How the printed pseudo-code differs, line by line, and what is done here:

    * line 3 ``epsilon /= 9``: kept (each call at eps/9);
    * ``queries`` is never emptied, so the d-th call would receive d * steps queries (the grid d times over,
      scanned again with fresh noise when nothing fired, and an index k >= steps would map beyond b): each
      call here gets the steps queries once, as the text below the code describes ("l'indice de la première
      valeur à dépasser ce décile");
    * T is assigned twice (lines 6 and 11) to the same d n/10: one assignment;
    * the grid point of query i is printed i (b - a)/steps, without the offset a (right only for a = 0):
      here a + i (b - a)/steps, so that the queries cut [a, b] into ``steps`` equal cells (Figure 1);
    * the result is printed AboveThreshold(...) * (b - a)/steps: with the 0-based index k this is
      g_k - a, one cell below the point whose count fired and without a; here g_{k+1} (the text: "l'indice de
      la première valeur à dépasser"), so that with no noise the estimate is the smallest grid point with more
      than T_d values below it;
    * output -1 (no query fired; the printed map would give -(b - a)/steps): b.  Without noise -1 means
      #{x_l < b} <= T_d, so the decile is at least b, the stated upper bound of the data and the last grid
      point: b is the estimate that keeps every output in the grid.

    Parameters: ``x`` the data, a 1-d array of n >= 1 values, or an array of shape (..., n) holding one data
    set per row (each row gets its own noise); values outside [a, b] are allowed (they count in f_j as any
    other), +-inf too.  ``epsilon`` in (0, inf] (inf: no noise, T_d compared with the exact counts).
    ``steps`` >= 1, a < b finite, ``rng`` a numpy Generator or a seed (default: a fresh unseeded one).

    Returns the nine estimates, shape (..., 9).

    >>> import numpy as np
    >>> x = np.arange(100) / 100 + 0.005           # 0.005, 0.015, ..., 0.995
    >>> histogram_deciles(x, np.inf, 10, 0.0, 1.0).tolist()     # no noise: first g_j with > 10 d values below it
    [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    """
    eps = _epsilon(epsilon)
    K = count("steps", steps, 1, _MAX_STEPS)
    shape = broadcast_shape(x=x)
    if len(shape) == 0:
        fail("x", "an array of data values (1-d, or one data set per row of the last axis)", "a scalar")
    rows = math.prod(shape[:-1])
    memory("x", 3.0 * math.prod(shape) + 10.0 * rows * (K + 1), what="the counts")
    x = as_float("x", x)
    n = x.shape[-1]
    require(n >= 1, "x", "non-empty (at least one data value per data set)")
    a = scalar("a", a)
    b = scalar("b", b)
    if not b > a:
        fail("b", "greater than a", f"a = {a!r}, b = {b!r}")
    gen = np.random.default_rng() if rng is None else as_rng(rng)
    g = _grid(a, b, K)
    xs = x.reshape(rows, n)
    # f_j = #{x_l < g_j}: each value falls after the grid points <= it
    idx = np.searchsorted(g, xs, side="right")                       # #{j : g_j <= x_l}, 0..K
    flat = (np.arange(rows)[:, None] * (K + 1) + idx).ravel()
    del idx
    f = np.cumsum(np.bincount(flat, minlength=rows * (K + 1)).reshape(rows, K + 1), axis=1)[:, :K]
    del flat
    T = np.arange(1, 10) * (n / 10.0)                               # T_d = d n/10
    out = np.empty((rows, 9))
    chunk = max(1, (1 << 22) // (9 * K))                             # noise draws per block of rows
    for r0 in range(0, rows, chunk):
        fr = f[r0:r0 + chunk].astype(float)
        m = fr.shape[0]
        if math.isinf(eps):
            above = fr[:, None, :] > T[None, :, None]
        else:
            # f_j + Lap(36/eps) > T_d + Lap(18/eps), in units of 36/eps: (f_j - T_d) eps/36 + V > U/2
            # (V, U standard Laplace draws; no overflow of the scales for any eps > 0)
            u = gen.laplace(0.0, 0.5, size=(m, 9))
            v = gen.laplace(0.0, 1.0, size=(m, 9, K))
            with np.errstate(over="ignore"):
                z = (fr[:, None, :] - T[None, :, None]) * (eps / 36.0)
            above = z + v > u[:, :, None]
        fired = above.any(axis=2)
        k = np.argmax(above, axis=2)                                 # first query above (0-based)
        out[r0:r0 + m] = np.where(fired, g[k], b)
    return out.reshape(x.shape[:-1] + (9,))


# == the exact law of the nine estimates ===================================================================
def _transition_probabilities(distribution, g):
    """p_j = (G(g_{j+1}) - G(g_j))/(1 - G(g_j)), j = 1..K-1: the law of c_{j+1} - c_j given c_j is
    Bin(n - c_j, p_j) (0 when 1 - G(g_j) = 0)."""
    G, S = _cdf(distribution, g)
    dG = _mass(distribution, g[:-1], g[1:])
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(S[:-1] > 0, dG / np.where(S[:-1] > 0, S[:-1], 1.0), 0.0)
    return G, np.clip(p, 0.0, 1.0)


def _windows(n, G):
    """Count windows [lo_j, hi_j] and the exact mass of Bin(n, G_j) outside each."""
    from scipy.stats import binom

    lo = np.where(G <= 0, 0, np.where(G >= 1, n, binom.ppf(_TAU, n, G) - 1))
    hi = np.where(G <= 0, 0, np.where(G >= 1, n, binom.isf(_TAU, n, G) + 1))
    lo = np.clip(np.nan_to_num(lo), 0, n).astype(np.int64)
    hi = np.clip(np.nan_to_num(hi, nan=n), 0, n).astype(np.int64)
    out = binom.cdf(lo - 1, n, G) + binom.sf(hi, n, G)
    return lo, hi, np.nan_to_num(out)


def _binom_pmf(k, N, p):
    """P(Bin(N, p) = k) for integer arrays (0 outside 0..N), to full relative accuracy (Loader's form)."""
    k = np.asarray(k, dtype=float)
    N = np.broadcast_to(np.asarray(N, dtype=float), k.shape)
    ok = (k >= 0) & (k <= N)
    out = np.zeros(k.shape)
    if ok.any():
        q = 1.0 - p
        qlo = (1.0 - q) - p
        out[ok] = np.exp(_log_binom(k[ok], N[ok], p, q, qlo))
    return out


def _band_pmf(N, p, m0, m1, anchor, mode):
    """P(Bin(N_s, p) = m), rows m = m0..m1, one column per N_s (0 < p < 1), from the values ``anchor`` at the
    ``mode`` of each column (within m0..m1) by the term ratio (N - m)/(m + 1) * p/(1 - p) multiplied
    outwards: every factor moves away from the mode, so the products only decrease (relative error about
    2 roundoffs per step from the mode)."""
    m = np.arange(m0, m1 + 1, dtype=float)[:, None]
    N = np.asarray(N, dtype=float)[None, :]
    R = np.maximum(N - m, 0.0) / (m + 1.0) * (p / (1.0 - p))          # P(m + 1)/P(m)
    i = m - mode[None, :]
    up = np.ones_like(R)
    up[1:] = np.where(i[1:] > 0, R[:-1], 1.0)
    with np.errstate(divide="ignore"):
        dn = np.where(i < 0, 1.0 / np.where(i < 0, R, 1.0), 1.0)
    with np.errstate(under="ignore"):
        return np.cumprod(up, axis=0) * np.cumprod(dn[::-1], axis=0)[::-1] * anchor[None, :]


def _transition_blocks(n, lo0, hi0, lo1, hi1, p):
    """The banded transition from the window [lo0, hi0] of c_j to [lo1, hi1] of c_{j+1}, as dense blocks
    (r0, r1, s0, s1, P), P[r - r0, s - s0] = P(c_{j+1} = lo1 + r | c_j = lo0 + s), _BLOCK sources each.
    The increments of a block run over the union of the central ranges of its sources (from the _TAU and
    1 - _TAU quantiles of Bin(n - c, p): each source leaves out at most 2 _TAU of its mass)."""
    from scipy.stats import binom

    starts = np.arange(lo0, hi0 + 1, _BLOCK)
    ends = np.minimum(starts + _BLOCK - 1, hi0)
    c_all = np.arange(lo0, hi0 + 1)
    blocks = []
    if p <= 0.0 or p >= 1.0:                     # c_{j+1} = c_j, or = n
        for c0, c1 in zip(starts.tolist(), ends.tolist()):
            c = np.arange(c0, c1 + 1)
            target = c if p <= 0.0 else np.full(c.size, n)
            ok = (target >= lo1) & (target <= hi1)
            if not ok.any():
                continue
            R0, R1 = int(target[ok].min()), int(target[ok].max())
            P = np.zeros((R1 - R0 + 1, c.size))
            P[target[ok] - R0, (c - c0)[ok]] = 1.0
            blocks.append((R0 - lo1, R1 - lo1 + 1, c0 - lo0, c1 - lo0 + 1, P))
        return blocks
    with np.errstate(invalid="ignore"):
        a = binom.ppf(_TAU, n - ends, p)
        z = binom.isf(_TAU, n - starts, p)
    mlo = np.maximum(np.nan_to_num(a, nan=0.0) - 1, 0).astype(np.int64)
    mhi = np.minimum(np.nan_to_num(z, nan=0.0) + 1, n - starts).astype(np.int64)
    N_all = (n - c_all).astype(float)
    q = 1.0 - p
    mode_all = np.minimum(np.floor((N_all + 1.0) * p), N_all)
    anchor_all = np.exp(_log_binom(mode_all, N_all, p, q, (1.0 - q) - p))
    for c0, c1, m0, m1 in zip(starts.tolist(), ends.tolist(), mlo.tolist(), mhi.tolist()):
        r0, r1 = max(lo1, c0 + m0), min(hi1, c1 + m1)
        if r0 > r1:
            continue
        sl = slice(c0 - lo0, c1 - lo0 + 1)
        mode = np.clip(mode_all[sl], m0, m1)
        anchor = np.where(mode == mode_all[sl], anchor_all[sl], 0.0)   # (the mode is always in range)
        band = _band_pmf(N_all[sl], p, m0, m1, anchor, mode)          # rows: increments m0..m1
        # place increment m of source c at row c + m - r0
        c = c_all[sl]
        P = np.zeros((r1 - r0 + 1, c.size))
        rows = c[None, :] + np.arange(m0, m1 + 1)[:, None] - r0
        ok = (rows >= 0) & (rows <= r1 - r0)
        P[rows[ok], np.broadcast_to(np.arange(c.size)[None, :], rows.shape)[ok]] = band[ok]
        blocks.append((r0 - lo1, r1 - lo1 + 1, c0 - lo0, c1 - lo0 + 1, P))
    return blocks


@lru_cache(maxsize=None)
def _gauss(m):
    x, w = np.polynomial.legendre.leggauss(m)
    return (x + 1.0) / 2.0, w / 2.0


def _kink_mass(n, lo, hi, G):
    """K_m = sum_j P(c_j = m), m = 0..n: the weight of the kinks of the integrand at t = m."""
    Km = np.zeros(n + 1)
    for j in range(G.size):
        c = np.arange(lo[j], hi[j] + 1)
        Km[c] += _binom_pmf(c, n, float(G[j]))
    return Km


_ORDERS = ((0.05, 4), (0.15, 5), (0.3, 6))


def _integers_within(Tg, kappa, n):
    """(m0, m1): the integers of [0, n] within _R/kappa of the thresholds Tg (m0 > m1: none)."""
    with np.errstate(over="ignore"):
        lo, hi = Tg[0] - _R / kappa, Tg[-1] + _R / kappa
    return int(max(0.0, math.ceil(lo))) if lo > 0 else 0, int(min(float(n), math.floor(hi))) if hi < n else n


def _order(h, kinky):
    """Gauss-Legendre nodes per panel: by width for kink-free panels (_ORDERS), 8 otherwise."""
    m = np.full(h.shape, 8)
    for width, mm in reversed(_ORDERS):
        m = np.where(~kinky & (h <= width), mm, m)
    return m


def _nodes(n, kappa, T, Km):
    """Quadrature nodes in x = kappa (t - origin): (x, origin, weight), sorted by t.

    The threshold of decile d is used on |x - x_d| <= _R, x_d = kappa (T_d - origin).  The nine deciles share
    the origin n/2 when their ranges overlap, else each has its own (T_d), so that x stays small.  The
    integrand is smooth (analytic) between its kinks: x_d (the threshold density) and the integers t = m
    of [0, n] (each F(t - c) is C^1 there, its second derivative jumps by 1 in x-units; the integrand's
    jump is at most twice the count mass K_m = sum_j P(c_j = m) at m).  Panel ends: the range ends, every
    x_d, and integers of [0, n]: all of them within _D_NEAR of an x_d when kappa >= _KAPPA_CELLS (there
    every panel is kink-free), elsewhere every q-th one with q kappa <= h(x) = min(_H_FAR, _H_NEAR
    e^{(2/3)(dist(x) - _D_NEAR)}) (the threshold density falls like e^{-2 dist}, a kink inside a panel of
    width h errs like h^3: the allowed width grows as the weight falls), plus every integer with K_m >=
    _HEAVY; every integer when the ranges hold at most _CELL_NODES/4 of them.  Panels wider than h(x) are
    cut.  Gauss-Legendre (_ORDERS): 4, 5 or 6 nodes on kink-free panels of width <= 0.05, 0.15, 0.3
    (scales), 8 otherwise."""
    T = np.sort(T)
    if T.size == 1 or kappa * np.min(np.diff(T)) <= 2.0 * _R:
        groups = [(0.5 * (T[0] + T[-1]), T)]
    else:
        groups = [(float(Td), T[d:d + 1]) for d, Td in enumerate(T)]
    ranges = [_integers_within(Tg, kappa, n) for _, Tg in groups]
    inside = sum(max(0, m1 - m0 + 1) for m0, m1 in ranges)
    everywhere = 4 * inside <= _CELL_NODES             # few integers: every one is a panel end
    cells = kappa >= _KAPPA_CELLS
    Xs, Os, Ws = [], [], []
    for (o, Tg), (m0, m1) in zip(groups, ranges):
        xd = kappa * (Tg - o)
        x0, x1 = xd[0] - _R, xd[-1] + _R

        def width(x):
            dist = np.min(np.abs(np.asarray(x)[..., None] - xd), axis=-1)
            return np.minimum(_H_FAR, _H_NEAR * np.exp((2.0 / 3.0) * np.maximum(dist - _D_NEAR, 0.0)))

        pts = [np.array([x0, x1]), xd]
        if m0 <= m1:
            ints = np.arange(m0, m1 + 1)
            y = kappa * (ints - o)
            with np.errstate(over="ignore"):
                q = np.clip(np.floor(width(y) / kappa), 1, n + 1).astype(np.int64)
            keep = (ints % q == 0) | (Km[m0:m1 + 1] >= _HEAVY)
            keep[[0, -1]] = True
            if everywhere:
                keep[:] = True
            elif cells:
                keep |= np.min(np.abs(y[:, None] - xd[None, :]), axis=1) <= _D_NEAR
            pts.append(y[keep])
        br = np.unique(np.clip(np.concatenate(pts), x0, x1))
        lo, hi = br[:-1], br[1:]
        parts = np.maximum(1, np.ceil((hi - lo) / width(0.5 * (lo + hi)) - 1e-9)).astype(np.int64)
        idx = np.repeat(np.arange(lo.size), parts)
        k = np.arange(idx.size) - np.repeat(np.cumsum(parts) - parts, parts)
        h = (hi - lo)[idx] / parts[idx]
        a = lo[idx] + k * h
        # an integer t strictly inside the panel (a kink), in t-units with a margin for rounding
        with np.errstate(over="ignore"):
            ta, tb = o + a / kappa, o + (a + h) / kappa
        first = np.maximum(np.floor(ta + 1e-7) + 1, 0)
        last = np.minimum(np.ceil(tb - 1e-7) - 1, n)
        kinky = first <= last
        m = _order(h, kinky)
        for mm in np.unique(m):
            sel = m == mm
            u, w = _gauss(int(mm))
            Xs.append((a[sel, None] + h[sel, None] * u[None, :]).ravel())
            Ws.append((h[sel, None] * w[None, :]).ravel())
            Os.append(np.full(Xs[-1].size, o))
    X, O, W = np.concatenate(Xs), np.concatenate(Os), np.concatenate(Ws)
    order = np.lexsort((X, O))
    return X[order], O[order], W[order]


def _laplace_weights(x, y):
    """F(x_col - y_row) of the unit Laplace law for sorted node values x and state values y, from products of
    exponentials (e^{y - x} = e^y e^{-x}; y is clipped to within 40 of the x range, which changes no factor by
    more than e^-40/2)."""
    mid = 0.5 * (x[0] + x[-1])
    xs = x - mid
    ys = np.clip(y - mid, xs[0] - 40.0, xs[-1] + 40.0)
    E1 = np.exp(ys)[:, None] * np.exp(-xs)[None, :]                 # e^{-(x - y)}
    E2 = np.exp(-ys)[:, None] * np.exp(xs)[None, :]                 # e^{x - y}
    F = np.minimum(E1, E2)
    F *= 0.5                                                         # e^{-|x - y|}/2 = F for x <= y
    np.subtract(1.0, F, out=F, where=E1 < 1.0)                       # 1 - e^{-(x - y)}/2 for x > y
    return F


def _recursion(K, lo, hi, init, transition, weights, start, to_out, ncol):
    """The forward recursion of the module docstring for ``ncol`` columns (quadrature nodes, or thresholds).

    ``init(j)`` is the law of c_j on its window [lo_j, hi_j] (for columns entering at step j),
    ``transition(j)`` the blocks of c_j -> c_{j+1} (:func:`_transition_blocks`), ``weights(j, c, a, b)``
    F(t - c) for the states c of window j and the columns a..b-1, ``start(j, first)`` the end of the range of
    columns (from ``first`` on, in order) that must be in the recursion at step j (a later column takes
    prod_{l<j} F = 1 until it starts), ``to_out(a, b)`` the matrix that turns the columns' P(A = k | column)
    into the laws sought (one row each: quadrature weights times threshold densities).  Returns
    (law (rows, K + 1): P(A = k), k = 0..K-1, and P(A = -1) last; the number of transitions made)."""
    law = np.zeros((to_out(0, 0).shape[0], K + 1))
    act_lo = act_hi = 0
    alpha = np.zeros((hi[0] - lo[0] + 1, 0))
    moves = 0
    for j in range(K):
        c = np.arange(lo[j], hi[j] + 1)
        new_hi = start(j, act_hi)
        if new_hi > act_hi:
            alpha = np.concatenate([alpha, np.repeat(init(j)[:, None], new_hi - act_hi, axis=1)], axis=1)
            act_hi = new_hi
        if act_hi == act_lo:
            alpha = np.zeros((hi[min(j + 1, K - 1)] - lo[min(j + 1, K - 1)] + 1, 0))
            continue
        beta = weights(j, c, act_lo, act_hi)
        beta *= alpha
        sb = beta.sum(axis=0)
        M = to_out(act_lo, act_hi)
        law[:, j] += M @ np.maximum(alpha.sum(axis=0) - sb, 0.0)
        if j + 1 == K:
            law[:, K] += M @ sb
            break
        drop = int(np.argmax(sb >= _TAU_DROP)) if (sb >= _TAU_DROP).any() else sb.size
        beta = beta[:, drop:]
        act_lo += drop
        nxt = np.zeros((hi[j + 1] - lo[j + 1] + 1, beta.shape[1]))
        if beta.shape[1]:
            for r0, r1, s0, s1, P in transition(j):
                nxt[r0:r1] += P @ beta[s0:s1]
            moves += 1
        alpha = nxt
    if act_hi < ncol:                      # never started: every factor is 1 up to _TAU_START, A = -1
        law[:, K] += to_out(act_hi, ncol).sum(axis=1)
    return law, moves


def _noisy_law(n, K, lo, hi, init, transition, T, kappa, Km):
    """P(A_T = k) for every threshold T (rows) of AboveThreshold on the chain (lo, hi, init, transition):
    queries with Lap(1/kappa) noise, threshold with Lap(1/(2 kappa)) noise (the printed ratio 2/eps :
    4/eps), integrated over the noisy threshold by the rule of :func:`_nodes`."""
    X, O, W = _nodes(n, kappa, T, Km)
    _check_work(n, K, lo, hi, kappa, X, O)
    with np.errstate(over="ignore"):
        xd = kappa * (T[:, None] - O[None, :])
    DW = np.exp(-2.0 * np.abs(X[None, :] - xd)) * W[None, :]       # threshold density (integral 1) x weight
    cuts = np.flatnonzero(np.diff(O)) + 1                           # columns of one origin are contiguous
    bounds = np.concatenate(([0], cuts, [X.size]))

    def weights(j, c, a_, b_):
        parts = []
        for g0, g1 in zip(bounds[:-1], bounds[1:]):
            u0, u1 = max(a_, g0), min(b_, g1)
            if u0 < u1:
                parts.append(_laplace_weights(X[u0:u1], kappa * (c - O[u0])))
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)

    cum = np.zeros(X.size)
    hi_f = hi.astype(float)

    def start(j, first):
        # 1 - F(t - hi_j) bounds 1 - F(t - c_j) for c_j in the window (the rest is in the window tails)
        z = X[first:] - kappa * (hi_f[j] - O[first:])
        e = 0.5 * np.exp(-np.abs(z))
        cum[first:] += np.where(z > 0, e, 1.0 - e)
        over = np.flatnonzero(cum[first:] > _TAU_START)
        return first + (int(over[-1]) + 1 if over.size else 0)

    return _recursion(K, lo, hi, init, transition, weights, start, lambda a_, b_: DW[:, a_:b_], X.size)


@lru_cache(maxsize=64)
def _law(n, K, eps, distribution, a, b):
    """(law, bound): law[d - 1, k] = P(A_d = g_{k+1}) for k = 0..K-1 and law[d - 1, K] = P(A_d = -1), whose
    estimate is b; bound = the bound on the truncation error of every probability (quadrature excluded)."""
    with _one_blas_thread():
        return _law_unlimited(n, K, eps, distribution, a, b)


def _one_blas_thread():
    """One BLAS thread for the many small products of the recursion (much faster when the cores are shared;
    threadpoolctl is optional)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:                                              # pragma: no cover
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")


def _law_unlimited(n, K, eps, distribution, a, b):
    g = _grid(a, b, K)
    G, p = _transition_probabilities(distribution, g)
    lo, hi, tails = _windows(n, G)
    T = np.arange(1, 10) * (n / 10.0)

    def init(j):
        return _binom_pmf(np.arange(lo[j], hi[j] + 1), n, float(G[j]))

    def transition(j):
        return _transition_blocks(n, lo[j], hi[j], lo[j + 1], hi[j + 1], p[j])

    if math.isinf(eps):                     # no noise: A_d = the first k with c_k > T_d
        eye = np.eye(9)
        law, moves = _recursion(K, lo, hi, init, transition,
                                lambda j, c, a_, b_: (c[:, None] <= T[None, a_:b_]).astype(float),
                                lambda j, first: 9, lambda a_, b_: eye[:, a_:b_], 9)
        return law, float(np.sum(tails)) + 2.0 * _TAU * moves
    kappa = max(eps / 36.0, 5e-324)         # 1/(scale of the query noise); below 2e-322 the counts no longer matter
    law, moves = _noisy_law(n, K, lo, hi, init, transition, T, kappa, _kink_mass(n, lo, hi, G))
    bound = float(np.sum(tails)) + 2.0 * _TAU * moves + _TAU_START + _TAU_DROP + math.exp(-2.0 * _R)
    return law, bound


def _at_law(counts, thresholds, epsilon):
    """P(A = k), k = 0..K-1, and P(A = -1) (last) of AboveThreshold at ``epsilon`` (threshold noise Lap(2/eps),
    query noise Lap(4/eps)) on fixed integer query values ``counts``
    (>= 0) at each threshold (rows), by the quadrature and recursion of the exact law (a chain with one state
    per step).  For tests against :func:`numeric.above_threshold.above_threshold_pmf`."""
    c = np.asarray(counts, dtype=np.int64)
    T = np.atleast_1d(np.asarray(thresholds, dtype=float))
    n = int(c.max())
    Km = np.bincount(c, minlength=n + 1).astype(float)
    one = [(0, 1, 0, 1, np.ones((1, 1)))]
    with _one_blas_thread():
        law, _ = _noisy_law(n, c.size, c, c, lambda j: np.ones(1), lambda j: one, T, epsilon / 4.0, Km)
    return law


def _check_work(n, K, lo, hi, kappa, X, O):
    """Refuse (naming n) a computation whose estimated multiply-adds exceed _WORK: at step j the columns
    between the first still alive (t >= lo_j - 35/kappa) and the last started (t <= hi_j + 32/kappa)."""
    with np.errstate(over="ignore", invalid="ignore"):
        t = np.sort(O + X / kappa)
        lo_t = np.searchsorted(t, lo[:-1] - 35.0 / kappa)
        hi_t = np.searchsorted(t, hi[:-1] + 32.0 / kappa, side="right")
    w = (hi - lo + 1).astype(float)
    band = np.minimum(w[1:], _BLOCK + 2.0 * (8.0 * np.sqrt(np.maximum(w[1:], 1.0)) + 10.0))
    work = float(np.sum(w[:-1] * (band + 10.0) * (hi_t - lo_t)))
    if work > _WORK:
        raise ParameterError("n", f"n is too large for the exact law with steps = {K} and epsilon = {36 * kappa:g}: "
                                  f"about {work:.2g} operations (the limit is {_WORK:.0e})")


def _membership(distribution, i, gamma, a, b, K):
    """(J_lo, J_hi) per gamma: the grid points g_J (J = 1..K) with |g_J - d_i| <= gamma are J_lo..J_hi.
    Uniform: exact rational arithmetic on the decimal readings of a, b, gamma (d_i = i/10); normal: the float
    grid of histogram_deciles against d_i = Phi^{-1}(i/10)."""
    gam = np.asarray(gamma, dtype=float)
    Jlo = np.empty(gam.shape, dtype=np.int64)
    Jhi = np.empty(gam.shape, dtype=np.int64)
    if distribution == "uniform":
        A, B, D = _decimal(a), _decimal(b), Fraction(i, 10)
        step = (B - A) / K
        for idx, gv in np.ndenumerate(gam):
            if math.isinf(gv):
                Jlo[idx], Jhi[idx] = 1, K
                continue
            G = _decimal(gv)
            lo = math.ceil((D - G - A) / step)
            hi = math.floor((D + G - A) / step)
            Jlo[idx], Jhi[idx] = min(max(lo, 1), K + 1), max(min(hi, K), 0)
    else:
        g = _grid(a, b, K)
        d = float(_decile(distribution, i))
        with np.errstate(invalid="ignore"):
            Jlo[...] = np.searchsorted(g, d - gam, side="left") + 1
            Jhi[...] = np.searchsorted(g, d + gam, side="right")
    return Jlo, Jhi


@provenance("pd.at.output_law", "pd.hm.composition", "pd.unif.theorem", "pd.normal.theorem")
def decile_accuracy(n, i, gamma, epsilon, steps, distribution, a=None, b=None):
    """Exact P(A_i in [d_i - gamma, d_i + gamma]): the accuracy of the histogram method's i-th decile.

    ``private-deciles`` (001), Sections 2.2.3 (Théorème 2.2.3.1) and 2.2.4 (Théorème 2.2.4.1), the
    probability those theorems bound from below: X_1..X_n iid uniform on [0, 1] (d_i = 0.1 i) or N(0, 1)
    (d_i = sqrt(2) erfinv(0.2 i - 1)), A_i the i-th estimate of :func:`histogram_deciles` (grid of ``steps``
    points on [a, b], AboveThreshold at eps/9).  Defaults: [a, b] = [0, 1] (uniform) and [-4, 4] (normal:
    P(``|X|`` > 4) = 6.3e-5; the values outside still count in every f_j, and the grid spacing 8/steps is the
    price of a wider range).

    Method (module docstring): the counts c_j = #{X < g_j} are a Markov chain in j with binomial increments;
    with the expectation over the data inside the t-integral of the output law (``pd.at.output_law``), the
    forward recursion over the counts runs once for every node t of a quadrature rule and serves the nine
    deciles (their thresholds only weight the nodes).  A_i = g_{k+1} when AboveThreshold returns k, b when it
    returns -1; the closed interval [d_i - gamma, d_i + gamma] is tested exactly on the uniform grid (a, b,
    gamma read as the decimals they print as: gamma = 0.1 is 1/10) and in floating point for the normal
    (d_i irrational).

    Error.  Truncations, each bounded (together below 1e-12 for steps <= 200, 5e-11 for steps = 10^4):
    count states outside the central window of Bin(n, G(g_j)) (at most 1e-15 per side and step; the exact
    binomial tails are summed), transition increments outside the central range of each source (2e-15 per
    step) - the paths that leave either count at most with that mass, every factor being in [0, 1]; each
    node's recursion starts once the earlier factors F(t - c_l) may differ from 1 by 1e-14 (bounded with
    the window tops) and stops once its survival mass is below 1e-15; the threshold density is cut at 16
    query-noise scales (e^-32 = 1.3e-14).  Quadrature in t (Gauss-Legendre between the kinks of the
    integrand, T_d and the integers t, where F(t - c) is C^1 with a jump of its second derivative): when at
    most 1500 integers lie within reach of the thresholds, every integer is a panel end, every panel is
    analytic, and a 10-node rule on pieces of 0.05 scales agrees to 1e-15 (n <= 1000, steps <= 300,
    eps = 0.1..60, both distributions); beyond, panels away from the thresholds take several integers (the
    kink error there is weighted by the threshold density), measured below 3e-10 against the all-integer
    rule (n = 400..1500, eps = 0.1..3).  Against exact enumeration of the data with closed-form integrals at
    30 digits (n <= 3): below 1e-12.  eps = inf is the noiseless comparison c_j > T_d (strict); it differs
    from the limit eps -> inf when a count can equal T_d (the limit then breaks the tie with probability 1/2).

    Cost (measured on two shared cores, steps = 200, the nine deciles): n = 10^4 takes 1.5-3 s at eps = 10 and
    3.5-6.5 s at eps = 0.1 or 1; n = 1000 takes 1-2.5 s.  The law of the nine deciles is computed once per
    (n, steps, epsilon, distribution, a, b) and cached: further i and gamma cost nothing.  n is limited to 10^5 and the
    estimated work to 4e11 operations (ParameterError naming n beyond).

    Parameters: n in 1..10^5, i in 1..9, gamma >= 0 (array allowed; inf: the whole line), epsilon in
    (0, inf] (inf: no noise), steps in 1..10^4, distribution 'uniform' or 'normal', a < b finite.

    >>> round(float(decile_accuracy(1, 5, 0.25, np.inf, 2, "uniform")), 12)   # A_5 = 0.5 iff X < 0.5
    0.5
    """
    n = count("n", n, 1, _MAX_N)
    i = count("i", i, 1, 9)
    dist = _distribution(distribution)
    memory_for(4, gamma=gamma)
    gam = as_float("gamma", gamma)
    require(gam >= 0, "gamma", ">= 0")
    eps = _epsilon(epsilon)
    K = count("steps", steps, 1, _MAX_STEPS)
    a_given, b_given = a is not None, b is not None
    a = scalar("a", a) if a_given else (0.0 if dist == "uniform" else -4.0)
    b = scalar("b", b) if b_given else (1.0 if dist == "uniform" else 4.0)
    if not b > a:
        fail("b" if b_given else "a", "such that a < b" + ("" if b_given else f" (b = {b:g} by default)"),
             f"a = {a!r}, b = {b!r}")
    law, _ = _law(n, K, eps, dist, a, b)
    row = law[i - 1]
    cum = np.concatenate(([0.0], np.cumsum(row[:K])))
    Jlo, Jhi = _membership(dist, i, gam, a, b, K)
    with np.errstate(invalid="ignore"):
        P = np.where(Jhi >= Jlo, cum[np.clip(Jhi, 0, K)] - cum[np.clip(Jlo - 1, 0, K)], 0.0)
    P = P + np.where((Jlo <= K) & (Jhi >= K), row[K], 0.0)          # -1 -> b = g_K
    return scalar_out(np.clip(P, 0.0, 1.0))


# == the exact probabilities the lemmas bound ==============================================================
def _binom_cdf(k, n, p):
    """P(Bin(n, p) <= k) for real k (floor taken; k < 0: 0)."""
    from scipy.stats import binom

    k = np.floor(np.asarray(k, dtype=float))
    with np.errstate(invalid="ignore"):
        out = binom.cdf(np.clip(np.nan_to_num(k, posinf=n, neginf=-1.0), -1.0, n), n, p)
    return np.where(k < 0, 0.0, np.where(k >= n, 1.0, out))


@provenance("pd.unif.empirical_decile", "pd.normal.empirical_decile")
def empirical_decile_prob(n, i, gamma, distribution):
    """Exact P(d_i^emp in [d_i - gamma/2, d_i + gamma/2]), d_i^emp = X_(r), r = ceil(i n/10).

    ``private-deciles`` (001), Lemma 2.2.3.1 (uniform on [0, 1], d_i = i/10) and Lemma 2.2.4.2 / Appendix
    A.1 (N(0, 1), d_i = Phi^{-1}(i/10)), the probability the lemmas bound.  The report does not define the
    empirical decile; its proof counts 'in/10 values below', so d_i^emp is the r-th order statistic with
    r = ceil(i n/10) (= i n/10 when 10 divides i n).  With p = G(x), P(X_(r) <= x) = P(Bin(n, p) >= r) =
    I_p(r, n - r + 1) (regularized incomplete beta), so

        P = I_{G(u)}(r, n - r + 1) - I_{G(l)}(r, n - r + 1),   l, u = d_i -+ gamma/2

    evaluated in whichever of three equal forms does not cancel (the two tails, or 1 minus both outer
    masses).

    How the printed eta compares (:func:`printed_uniform_eta`, reading 'intended', eta = S_1 + S_2):
    S_2 = P(Bin(n, 1 - l) <= floor((10 - i) n/10)) = P(X_(r) <= l) exactly, and S_1 = P(Bin(n, u) <=
    floor(i n/10)) is P(X_(r) > u) when 10 does not divide i n and P(X_(r) > u) + P(Bin(n, u) = r) when it
    does: then 1 - S_1 - S_2 equals this probability (the two bad events are disjoint) or falls short by
    that one term.

    gamma >= 0 (array allowed), n >= 1, i in 1..9.

    >>> round(float(empirical_decile_prob(1, 5, 0.2, "uniform")), 12)    # one value, in [0.4, 0.6]
    0.2
    """
    n, i, gam = _decile_args(n, i, gamma, 8)
    dist = _distribution(distribution)
    from scipy.special import betainc, betaincc

    r = -(-i * n // 10)
    d = _decile(dist, i)
    with np.errstate(invalid="ignore"):
        Gl, Sl = _cdf(dist, d - gam / 2.0)
        Gu, Su = _cdf(dist, d + gam / 2.0)
    lo_in, hi_in = betainc(r, n - r + 1, Gl), betainc(r, n - r + 1, Gu)      # P(X_(r) <= l), <= u
    lo_out, hi_out = betaincc(r, n - r + 1, Gl), betaincc(r, n - r + 1, Gu)  # P(X_(r) > l), > u
    P = np.where(hi_in <= 0.5, hi_in - lo_in, np.where(lo_out <= 0.5, lo_out - hi_out, 1.0 - lo_in - hi_out))
    return scalar_out(np.clip(P, 0.0, 1.0))


def _side_masses(distribution, i, gam):
    """(p_1, p_2) = P(X in [d - gamma, d - gamma/2]), P(X in [d + gamma/2, d + gamma])."""
    d = _decile(distribution, i)
    with np.errstate(invalid="ignore"):
        return (_mass(distribution, d - gam, d - gam / 2.0), _mass(distribution, d + gam / 2.0, d + gam))


@provenance("pd.unif.interval_counts", "pd.normal.interval_counts")
def interval_counts_prob(n, i, gamma, alpha, distribution):
    """Exact P(N_1 >= alpha and N_2 >= alpha), N_1, N_2 the numbers of the n values in [d_i - gamma,
    d_i - gamma/2] and [d_i + gamma/2, d_i + gamma].

    ``private-deciles`` (001), Lemma 2.2.3.2 (uniform on [0, 1]) and Lemma 2.2.4.3 / Appendix A.2
    (N(0, 1)): the probability those lemmas bound from below by 1 - mu (union bound).  The two intervals are
    disjoint for gamma > 0, so (N_1, N_2, rest) is multinomial(n; p_1, p_2, 1 - p_1 - p_2) and

        P = sum_{k >= a} P(N_1 = k) P(Bin(n - k, p_2/(1 - p_1)) >= a),   a = max(0, ceil(alpha)),

    summed exactly over the central range of N_1 (the terms left out weigh below 1e-17).  'At least alpha
    values' with alpha real means at least ceil(alpha); alpha <= 0 gives 1.  gamma = 0: the intervals are
    points (probability 0 each).

    n in 1..10^9, i in 1..9, gamma >= 0 and alpha real (arrays broadcast).

    >>> float(interval_counts_prob(2, 5, 0.2, 1, "uniform"))    # 2 p1 p2, p1 = p2 = 0.1
    0.02
    """
    n = count("n", n, 1, _MAX_N_COUNTS)
    i = count("i", i, 1, 9)
    shape, (gam, alp) = _arrays(8, gamma=gamma, alpha=alpha)
    require(gam >= 0, "gamma", ">= 0")
    dist = _distribution(distribution)
    gam, alp = np.broadcast_arrays(gam, alp)
    out = np.empty(shape)
    done = {}                                   # (gamma, ceil(alpha)) -> probability
    for idx in np.ndindex(shape):
        gv, av = float(gam[idx]), float(alp[idx])
        m = 0 if av <= 0 else (n + 1 if av > n else math.ceil(av))
        if (gv, m) not in done:
            done[gv, m] = _both_at_least(n, m, *(float(v) for v in _side_masses(dist, i, gv)))
        out[idx] = done[gv, m]
    return scalar_out(np.clip(out, 0.0, 1.0))


def _both_at_least(n, m, p1, p2):
    """P(N_1 >= m and N_2 >= m), (N_1, N_2, rest) ~ multinomial(n; p1, p2, 1 - p1 - p2)."""
    from scipy.stats import binom

    if m == 0:
        return 1.0
    if m > n or p1 <= 0.0 or p2 <= 0.0:
        return 0.0
    k_lo = max(m, int(binom.ppf(1e-18, n, p1)) - 1)
    k_hi = min(n, int(binom.isf(1e-18, n, p1)) + 1)
    if k_lo > k_hi:
        return 0.0
    k = np.arange(k_lo, k_hi + 1, dtype=float)
    rest = 1.0 - p1
    q2 = min(1.0, p2 / rest) if rest > 0 else 1.0
    with np.errstate(invalid="ignore"):
        tail = binom.sf(m - 1, n - k, q2)
    return float(np.sum(_binom_pmf(k, float(n), p1) * np.nan_to_num(tail)))


# == the printed bounds =====================================================================================
def _eta_sums(n, i, p_hi, p_lo):
    """S_1 = sum_{k <= i n/10} C(n,k) p_hi^k (1 - p_hi)^{n-k}, S_2 = sum_{k <= (10-i) n/10} C(n,k) (1 - p_lo)^k
    p_lo^{n-k} (upper limits floor(i n/10), floor((10 - i) n/10))."""
    return _binom_cdf((i * n) // 10, n, p_hi), _binom_cdf(((10 - i) * n) // 10, n, 1.0 - p_lo)


def _eta(S1, S2, reading):
    if reading == "printed":
        return 2.0 - S1 + S2
    if reading == "proof":
        return 2.0 - S1 - S2
    return S1 + S2


def _fill(fn, **parts):
    """Fill the shared paragraphs ({name}) of a docstring."""
    for k, v in parts.items():
        fn.__doc__ = fn.__doc__.replace("{" + k + "}", v)
    return fn


_ETA_DOC = """
    Readings (``reading``): 'printed' = the display as printed, eta = 2 - S_1 + S_2; 'proof' = what the last
    line of the proof derives (P >= S_1 + S_2 - 1), eta = 2 - S_1 - S_2; 'intended' = the union bound over
    the bad events 'd_i > u' and 'd_i < l', eta = S_1 + S_2.  The proof's events A ('at least in/10 values
    below u') and B ('at least (10 - i) n/10 values above l') are the good events, not the bad ones: 1 - P(A or
    B) is not the probability of the lemma, and S_1, S_2 are (up to one term) the probabilities of the bad
    events, so only 'intended' gives a valid lemma; 'printed' gives 1 - eta = S_1 - S_2 - 1 <= 0 (valid and
    empty) and 'proof' gives S_1 + S_2 - 1, which is above the probability for small n (n = 10, i = 5,
    gamma = 0.01: 0.2214 against 0.0246).  Sum limits i n/10, (10 - i) n/10 not integers: read as their floors
    (k <= the limit)."""


@provenance("pd.unif.empirical_decile")
def printed_uniform_eta(n, i, gamma, reading="printed"):
    """eta of Lemma 2.2.3.1 (uniform on [0, 1]): P(d_i in [0.1 i - gamma/2, 0.1 i + gamma/2]) >= 1 - eta.

    ``private-deciles`` (001), Section 2.2.3, Lemma 2.2.3.1 and Théorème 2.2.3.1::

        eta = 2 - sum_{k=0}^{in/10} C(n,k) (0.1i + gamma/2)^k (1 - 0.1i - gamma/2)^{n-k}
                + sum_{k=0}^{(10-i)n/10} C(n,k) (1 - 0.1i + gamma/2)^k (0.1i - gamma/2)^{n-k}
            = 2 - S_1 + S_2.
    {readings}

    The sums are binomial distribution functions (scipy's, through the regularized incomplete beta).
    n >= 1, i in 1..9, gamma in [0, 0.1] (the lemma's range; array allowed).

    >>> float(printed_uniform_eta(10, 5, 0.0, reading="intended"))    # 2 P(Bin(10, 1/2) <= 5) = 2 * 638/1024
    1.24609375
    """
    n, i, gam = _decile_args(n, i, gamma, 6, lemma="Lemma 2.2.3.1")
    reading = _reading(reading)
    S1, S2 = _eta_sums(n, i, i / 10.0 + gam / 2.0, i / 10.0 - gam / 2.0)
    return scalar_out(_eta(S1, S2, reading))



_fill(printed_uniform_eta, readings=_ETA_DOC)


@provenance("pd.unif.interval_counts")
def printed_uniform_mu(n, gamma, alpha):
    """mu of Lemma 2.2.3.2 (uniform on [0, 1]): both side intervals of length gamma/2 hold at least alpha
    values with probability at least 1 - mu,

        mu = 2 sum_{k=0}^{alpha} C(n,k) (gamma/2)^k (1 - gamma/2)^{n-k} = 2 P(Bin(n, gamma/2) <= alpha).

    ``private-deciles`` (001), Section 2.2.3, Lemma 2.2.3.2 and Théorème 2.2.3.1.  alpha real (the theorem's
    alpha = 8 (log k + log(2/beta))/eps is not an integer): the sum runs over k <= floor(alpha), i.e. the
    printed upper limit is read as 'k <= alpha' (alpha < 0: empty sum, 0; alpha = inf: mu = 2).  This is at
    least the union bound 2 P(N < ceil(alpha)) the proof needs (floor(alpha) >= ceil(alpha) - 1).

    n >= 1, gamma in [0, 0.1], alpha real (arrays broadcast).

    >>> float(printed_uniform_mu(2, 0.1, 0))          # 2 (1 - 0.05)^2
    1.805
    """
    n = count("n", n, 1, _MAX_N_FORMULA)
    _, (gam, alp) = _arrays(6, gamma=gamma, alpha=alpha)
    require((gam >= 0) & (gam <= 0.1), "gamma", "in [0, 0.1] (Lemma 2.2.3.2)")
    return scalar_out(2.0 * _binom_cdf(alp, n, gam / 2.0))


def _alpha(epsilon, steps, beta):
    """alpha = 8 (log k + log(2/beta))/eps, k = steps (natural logarithms; beta = 0: inf, also when eps = inf)."""
    beta = np.asarray(beta, dtype=float)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        alpha = 8.0 * (math.log(steps) + math.log(2.0) - np.log(beta)) / epsilon
    return np.where(beta == 0, np.inf, alpha)                   # beta = 0: inf, also at eps = inf


_BOUND_DOC = """
    alpha = 8 (log k + log(2/beta))/eps as printed: natural logarithms, k = the number of queries = steps (the
    theorem calls HistogramMethod(X, epsilon, k, a, b); in Lemma 2.2.1.1 k is the output of AboveThreshold,
    which would make alpha random), and eps the epsilon of HistogramMethod although each AboveThreshold call
    runs at eps/9 (pass epsilon/9 to get the alpha of the calls).  The theorem ignores the grid: A_i is a grid
    point, and the event 'fewer than alpha values separate d_i and A_i' that the proof takes from Lemma 2.2.1.1
    does not follow from it when a grid cell holds more than alpha values."""


@provenance("pd.unif.theorem", "pd.hm.accuracy_lemma", "pd.unif.empirical_decile", "pd.unif.interval_counts")
def printed_uniform_bound(n, i, gamma, epsilon, steps, beta, reading="printed"):
    """The lower bound 1 - beta - eta - mu of Théorème 2.2.3.1 on P(A_i in [0.1 i - gamma, 0.1 i + gamma]).

    ``private-deciles`` (001), Section 2.2.3, Théorème 2.2.3.1 (uniform data on [0, 1]); eta from
    :func:`printed_uniform_eta` (with ``reading``), mu = :func:`printed_uniform_mu` at alpha.
    {alpha}

    n >= 1, i in 1..9, gamma in [0, 0.1], epsilon in (0, inf] (inf: alpha = 0), steps >= 1, beta in [0, 1]
    (arrays broadcast).  Compare with :func:`decile_accuracy`.

    >>> float(printed_uniform_bound(10, 5, 0.01, 1.0, 10, 0.1)) < 0    # the printed sign: never positive
    True
    """
    n = count("n", n, 1, _MAX_N_FORMULA)
    i = count("i", i, 1, 9)
    _, (gam, eps, bet) = _arrays(10, gamma=gamma, epsilon=epsilon, beta=beta)
    require((gam >= 0) & (gam <= 0.1), "gamma", "in [0, 0.1] (Théorème 2.2.3.1)")
    require(eps > 0, "epsilon", "> 0")
    K = count("steps", steps, 1, _MAX_N_FORMULA)
    require((bet >= 0) & (bet <= 1), "beta", "in [0, 1]")
    reading = _reading(reading)
    S1, S2 = _eta_sums(n, i, i / 10.0 + gam / 2.0, i / 10.0 - gam / 2.0)
    mu = 2.0 * _binom_cdf(_alpha(eps, K, bet), n, gam / 2.0)
    return scalar_out(1.0 - bet - _eta(S1, S2, reading) - mu)


def _normal_eta_sums(n, i, gam, reading):
    if reading == "intended":
        d = _decile("normal", i)
        with np.errstate(invalid="ignore"):
            Gu, _ = _cdf("normal", d + gam / 2.0)
            Gl, Sl = _cdf("normal", d - gam / 2.0)
        return _binom_cdf((i * n) // 10, n, Gu), _binom_cdf(((10 - i) * n) // 10, n, Sl)
    p = np.broadcast_to(i / 10.0, gam.shape)        # int_{-oo}^{d_i} e^{-t^2/2} dt / sqrt(2 pi) = i/10
    return _binom_cdf((i * n) // 10, n, p), _binom_cdf(((10 - i) * n) // 10, n, 1.0 - p)



_fill(printed_uniform_bound, alpha=_BOUND_DOC)


@provenance("pd.normal.empirical_decile", "pd.normal.deciles")
def printed_normal_eta(n, i, gamma, reading="printed"):
    """eta of Lemma 2.2.4.2 (N(0, 1)): P(d_i in [d_i^l - gamma/2, d_i^l + gamma/2]) >= 1 - eta.

    ``private-deciles`` (001), Section 2.2.4, Lemma 2.2.4.2 (and Appendix A.1, Théorème 2.2.4.1):

        eta = 2 - (2 pi)^{-n/2} sum_{k=0}^{in/10} C(n,k) (int_{-oo}^{d} e^{-t^2/2} dt)^k (int_{d}^{oo} ...)^{n-k}
                + (2 pi)^{-n/2} sum_{k=0}^{(10-i)n/10} C(n,k) (int_{d}^{oo} ...)^k (int_{-oo}^{d} ...)^{n-k},

    d = d_i^l = sqrt(2) erfinv(0.2 i - 1).  (2 pi)^{-n/2} splits into one 1/sqrt(2 pi) per factor, so the
    integrals are Phi(d) = i/10 and 1 - Phi(d): S_1 = P(Bin(n, i/10) <= in/10), S_2 = P(Bin(n, 1 - i/10) <=
    (10 - i) n/10).  As printed (in the lemma, its proof and the theorem alike) the limits are d itself:
    gamma does not appear, unlike the uniform lemma (0.1 i +- gamma/2).  Readings 'printed' and 'proof' keep
    the printed limits; 'intended' also restores the uniform lemma's limits d + gamma/2 (in S_1) and
    d - gamma/2 (in S_2), without which no eta can bound a probability that tends to 0 with gamma.{readings}

    The lemma's range gamma in [0, d_i^l] is empty for i <= 5 (d_i^l <= 0): gamma >= 0 is accepted.
    n >= 1, i in 1..9 (array gamma allowed).

    >>> float(printed_normal_eta(10, 5, 0.3, reading="proof"))     # 2 - 2 * 638/1024, gamma plays no part
    0.75390625
    """
    n, i, gam = _decile_args(n, i, gamma, 6)
    reading = _reading(reading)
    S1, S2 = _normal_eta_sums(n, i, gam, reading)
    return scalar_out(_eta(S1, S2, reading))



_fill(printed_normal_eta, readings=_ETA_DOC)


@provenance("pd.normal.interval_counts", "pd.normal.deciles")
def printed_normal_mu(n, i, gamma, alpha):
    """mu of Lemma 2.2.4.3 (N(0, 1)) with the limits of its proof (Appendix A.2):

        mu = sum_{k=0}^{alpha} C(n,k) p_1^k (1 - p_1)^{n-k} + sum_{k=0}^{alpha} C(n,k) p_2^k (1 - p_2)^{n-k},
        p_1 = int_{d - gamma}^{d - gamma/2} phi,  p_2 = int_{d + gamma/2}^{d + gamma} phi   (d = d_i^l).

    ``private-deciles`` (001), Section 2.2.4, Lemma 2.2.4.3 and Théorème 2.2.4.1, Appendix A.2.  The
    statements print garbled limits (int_{d - gamma/2}^{d - gamma/2} in the first power, int_{d + gamma/2}^{
    d + gamma/2} in both factors of the second sum: empty integrals, which would make mu = (1 - p_1)^n + 1);
    the proof in Appendix A.2 writes int_{d - gamma}^{d - gamma/2} and int_{d + gamma/2}^{d + gamma}
    throughout, the intervals of the lemma: those are taken.  alpha real: k <= floor(alpha) (as in
    :func:`printed_uniform_mu`).

    n >= 1, i in 1..9, gamma >= 0, alpha real (arrays broadcast).

    >>> float(printed_normal_mu(1, 5, 0.0, 0))         # empty intervals: 1 + 1
    2.0
    """
    n = count("n", n, 1, _MAX_N_FORMULA)
    i = count("i", i, 1, 9)
    _, (gam, alp) = _arrays(8, gamma=gamma, alpha=alpha)
    require(gam >= 0, "gamma", ">= 0")
    gam, alp = np.broadcast_arrays(gam, alp)
    p1, p2 = _side_masses("normal", i, gam)
    return scalar_out(_binom_cdf(alp, n, p1) + _binom_cdf(alp, n, p2))


@provenance("pd.normal.theorem", "pd.hm.accuracy_lemma", "pd.normal.empirical_decile", "pd.normal.interval_counts")
def printed_normal_bound(n, i, gamma, epsilon, steps, beta, reading="printed"):
    """The lower bound 1 - beta - eta - mu of Théorème 2.2.4.1 on P(A_i in [d_i^l - gamma, d_i^l + gamma]).

    ``private-deciles`` (001), Section 2.2.4, Théorème 2.2.4.1 and Appendix A.3 (N(0, 1) data); eta from
    :func:`printed_normal_eta` (with ``reading``), mu from :func:`printed_normal_mu` (limits of Appendix A.2).
    {alpha}

    n >= 1, i in 1..9, gamma >= 0, epsilon in (0, inf], steps >= 1, beta in [0, 1] (arrays broadcast).
    Compare with :func:`decile_accuracy` (distribution 'normal').

    >>> float(printed_normal_bound(10, 5, 0.1, 1.0, 10, 0.1)) < 0
    True
    """
    n = count("n", n, 1, _MAX_N_FORMULA)
    i = count("i", i, 1, 9)
    shape, (gam, eps, bet) = _arrays(10, gamma=gamma, epsilon=epsilon, beta=beta)
    require(gam >= 0, "gamma", ">= 0")
    require(eps > 0, "epsilon", "> 0")
    K = count("steps", steps, 1, _MAX_N_FORMULA)
    require((bet >= 0) & (bet <= 1), "beta", "in [0, 1]")
    reading = _reading(reading)
    gam, eps, bet = np.broadcast_arrays(gam, eps, bet)
    S1, S2 = _normal_eta_sums(n, i, gam, reading)
    alp = _alpha(eps, K, bet)
    p1, p2 = _side_masses("normal", i, gam)
    mu = _binom_cdf(alp, n, p1) + _binom_cdf(alp, n, p2)
    return scalar_out(np.reshape(1.0 - bet - _eta(S1, S2, reading) - mu, shape))


_fill(printed_normal_bound, alpha=_BOUND_DOC)
