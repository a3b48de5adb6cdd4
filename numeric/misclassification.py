"""Misclassification (PRAM) and differential privacy (``shlomo-skinner`` (002), Shlomo and
Skinner, Sections 2.3 and 4).

Model (Section 4, equations (3) and (4)): each of n records with true category x_i in 1..k is
released as x~_i in 1..k~ independently, with ``M[j~, j] = Pr(x~_i = j~ | x_i = j)``: the COLUMNS
of M sum to 1 (k~ may differ from k; a row of zeros is a category that is never released).  The
released table is f~ (the counts of released categories); two databases are neighbours when they
differ in one record's category (N fixed: the population database of Section 2.3), so their
count vectors f differ by moving one record between two categories.

* :func:`misclassification_epsilon`: the exact pure epsilon, max over released categories of
  ln max_j M[j~, j] - ln min_j M[j~, j] (infinite when a released row mixes a zero and a positive
  entry; all-zero rows ignored).  It is also the exact epsilon of the table f~ for every n >= 1.
* :func:`released_count_pmf`: Pr(f~ | f), the convolution over true categories j of
  Multinomial(f_j, M[:, j]).
* :func:`pram_certificate`: epsilon, the record-level hockey-stick profile delta(eps) and its
  inverse, the structural-zero floor, the effect of Bernoulli sampling before misclassification,
  and the probability of a "bad" outcome (one with a zero-probability neighbour) for a given f.
* :func:`invariant_pram_matrix`: the invariant PRAM matrix of Gouweleeuw et al. (1998) in the
  column convention of (3) (M v = v).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ._common import (_shape_of, _short, two_product, as_float, count, fail, memory, provenance, require, scalar,
                      scalar_out)

__all__ = ["misclassification_epsilon", "released_count_pmf", "pram_certificate", "invariant_pram_matrix"]

#: Columns of M must sum to 1 within this absolute tolerance.
COLUMN_TOL = 1e-9
#: released_count_pmf: largest number of outcomes C(n + k~ - 1, k~ - 1) (k~ = rows of M in use).
MAX_OUTCOMES = 10**8
#: released_count_pmf: largest box of partial counts (cells; 8 bytes each).
MAX_CELLS = 10**7
#: released_count_pmf: largest work n * k~ * (cells of the box); 1e8 takes about 0.1-0.2 s.
MAX_WORK = 4 * 10**8
#: pram_certificate: largest number of occupied categories for the bad-outcome events (2^k sets).
MAX_OCCUPIED = 16
#: pram_certificate: the exact bad-outcome enumeration is abandoned (union bound instead) beyond
#: this many distinct atoms per category or this many (state, value) pairs per step.
MAX_ATOMS = 12
MAX_STATES = 1 << 18
#: pram_certificate: the document's own criterion is evaluated for up to this many rows.
MAX_DOC_ROWS = 16
_U = 2.0 ** -53           # unit roundoff
_TEMPS = 8                # float arrays of M's size alive at once


# == validation =================================================================================================
def _matrix(M, stack: bool = False):
    """(float array, exact object array or None) for a misclassification matrix (..., k~, k).

    The exact array is returned when every entry is an int or a Fraction and one at least is a
    Fraction (then Fraction arithmetic is used where offered)."""
    shape = _shape_of(M)
    if len(shape) < 2 or (not stack and len(shape) != 2):
        want = "an array (..., k~, k)" if stack else "a 2-D array (k~ released x k true categories)"
        fail("M", f"{want} with M[j~, j] = Pr(released j~ | true j)", f"shape {shape}")
    if shape[-1] < 1 or shape[-2] < 1:
        fail("M", "non-empty (at least one released and one true category)", f"shape {shape}")
    memory("M", math.prod(shape) * _TEMPS)
    exact = None
    if not isinstance(M, np.ndarray) or M.dtype == object:
        try:
            obj = np.asarray(M, dtype=object)
        except (TypeError, ValueError):
            obj = None
        if obj is not None and obj.shape == tuple(shape):
            flat = obj.ravel().tolist()
            if (any(isinstance(v, Fraction) for v in flat)
                    and all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in flat)):
                exact = np.vectorize(Fraction, otypes=[object])(obj) if obj.size else obj
    A = as_float("M", M, finite=True)
    require(A >= 0, "M", "nonnegative (probabilities)")
    if exact is not None:
        require(np.vectorize(lambda v: v >= 0, otypes=[bool])(exact), "M", "nonnegative (probabilities)")
    sums = A.sum(axis=-2)
    if not np.all(np.abs(sums - 1.0) <= COLUMN_TOL):
        worst = float(np.max(np.abs(sums - 1.0)))
        fail("M", f"column-stochastic: M[j~, j] = Pr(released j~ | true j), every column summing to 1 "
                  f"within {COLUMN_TOL:g} (equation (3))", f"a column sum off by {worst:.3g}")
    return A, exact


def _counts(name: str, value, shape_last: int | None = None, what: str = "") -> np.ndarray:
    """Nonnegative integer counts as an int64 array (floats allowed when integral; < 2^53)."""
    if isinstance(value, (bool, np.bool_)):
        fail(name, "an array of nonnegative integer counts", _short(value))
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu":
        arr = value
        if arr.dtype.kind == "i":
            require(arr >= 0, name, "made of nonnegative integer counts")
        require(arr < 2 ** 53, name, "made of counts below 2^53")
    else:
        a = as_float(name, value, finite=True)
        require(a >= 0, name, "made of nonnegative integer counts")
        require(a == np.floor(a), name, "made of integer counts")
        require(a < 2.0 ** 53, name, "made of counts below 2^53")
        arr = a
    if arr.ndim < 1 or (shape_last is not None and arr.shape[-1] != shape_last):
        fail(name, f"an array of counts whose last axis has length {shape_last}{what}", f"shape {arr.shape}")
    return np.asarray(arr, dtype=np.int64)


def _f_vector(f, k: int) -> np.ndarray:
    shape = _shape_of(f)
    if shape != (k,):
        fail("f", f"a 1-D array of k = {k} counts (one per true category, a column of M)", f"shape {shape}")
    return _counts("f", f, k)


# == safe rounding ==============================================================================================
def _up(x, times: int = 4):
    """x moved ``times`` ulps toward +inf where x > 0 (0 and inf unchanged)."""
    x = np.asarray(x, dtype=float)
    for _ in range(times):
        x = np.where((x > 0) & np.isfinite(x), np.nextafter(x, np.inf), x)
    return x


def _log_up(c):
    """An upper bound on ln c for c >= 1 given as an upper bound itself: ln 1 = 0 exactly, otherwise
    log1p(c - 1) (c - 1 exact below 2) or log(c), moved up 4 ulps (the logarithm's error)."""
    c = np.asarray(c, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        small = c < 2.0
        val = np.where(small, np.log1p(np.where(small, c - 1.0, 0.0)), np.log(np.where(small, 2.0, c)))
    return _up(np.where(c <= 1.0, 0.0, val))


def _log_ratio_up(hi, lo):
    """An upper bound on ln(hi/lo) for float arrays hi >= lo > 0: 0 where hi == lo; the rounded ratio is
    moved up one ulp (then it bounds the exact ratio), ln of it moved up 4 ulps; where the ratio
    overflows, ln hi - ln lo moved up 4 ulps (both logarithms are within 1 ulp of results of at most
    745 in magnitude, and the difference exceeds 709)."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        r = hi / lo
        big = ~np.isfinite(r)
        ratio = _log_up(np.where(big, 1.0, np.nextafter(r, np.inf)))
        direct = _up(np.log(np.where(big, hi, 1.0)) - np.log(np.where(big, lo, 1.0)))
    return np.where(hi == lo, 0.0, np.where(big, direct, ratio))


def _frac_up(q: Fraction) -> float:
    """The smallest float >= q (q >= 0)."""
    v = float(q)
    return float(np.nextafter(v, np.inf)) if Fraction(v) < q else v


def _frac_down(q: Fraction) -> float:
    v = float(q)
    return float(np.nextafter(v, -np.inf)) if Fraction(v) > q and v > 0 else v


# == 1. pure epsilon ===========================================================================================
@provenance("ss.misclassification_epsilon")
def misclassification_epsilon(M):
    r"""The exact pure epsilon of independent misclassification with matrix M:

    .. math:: \varepsilon(M) = \max_{\tilde j} \Big[\ln \max_j M_{\tilde j j} - \ln \min_j M_{\tilde j j}\Big]

    over the released categories j~ whose row has a positive entry; ``inf`` if such a row also has a
    zero (a record of that category can never be released as j~, one of another can).  Rows of
    zeros (categories never released) are ignored: ``M = [[1, 1], [0, 0]]`` is 0-DP.

    Source: shlomo-skinner (002), Section 4 (equations (3)-(4) and the display after them; the
    bound printed there with "<=" is attained).  The document's "a finite epsilon exists iff all
    elements of M are positive" fails for an all-zero row; this function implements the corrected
    statement (finite iff no row mixes a zero and a positive entry).

    The same value is the exact epsilon of the released table f~ for every number of records
    n >= 1 (f~ is a function of the records, so it is no larger; with f = (n - 1) e_c + e_j1 and
    (n - 1) e_c + e_j2, M[j~, c] > 0, the outcome f~ = n e_j~ has the ratio M[j~, j1]/M[j~, j2]).

    Parameters: ``M`` of shape (k~, k), or a stack (..., k~, k) evaluated matrix by matrix;
    M[j~, j] = Pr(released j~ | true j): nonnegative, finite, every column summing to 1 within
    ``COLUMN_TOL`` = 1e-9 (otherwise ``ValueError`` naming M).  Returns a NumPy scalar (or an
    array of the stack's shape).

    Accuracy: never below the exact value for the given float entries: the ratio max/min is moved
    up one ulp and its logarithm four (so the result may exceed the exact value by a few ulps,
    or by about 1e-16 absolute when the ratio is close to 1); equal extremes give exactly 0.

    >>> float(misclassification_epsilon([[0.8, 0.2], [0.2, 0.8]]))   # ln 4
    1.386294361119891...
    >>> float(misclassification_epsilon([[1.0, 1.0], [0.0, 0.0]])), float(misclassification_epsilon(np.eye(2)))
    (0.0, inf)
    """
    A, _ = _matrix(M, stack=True)
    hi = A.max(axis=-1)                       # over true categories j: per released row j~
    lo = A.min(axis=-1)
    used = hi > 0
    mixed = used & (lo == 0)
    safe_lo = np.where(lo > 0, lo, 1.0)
    per_row = np.where(used & ~mixed, _log_ratio_up(np.where(used, hi, 1.0), safe_lo), 0.0)
    per_row = np.where(mixed, np.inf, per_row)
    return scalar_out(per_row.max(axis=-1))


# == 2. the law of the released table ============================================================================
def _gf_box(M, f, top, last):
    """Truncated generating function prod_j (sum_t M[t, j] z_t)^{f_j} on the box of exponents
    a_t <= top[t] for the released categories t != last (the last exponent is implicit: n minus
    the others).  Entry [a] is Pr(f~_t = a_t for t != last).  M is a float or object array."""
    kt = M.shape[0]
    expl = [t for t in range(kt) if t != last]
    shape = tuple(int(top[t]) + 1 for t in expl)
    exact = M.dtype == object
    G = np.zeros(shape, dtype=object if exact else float)
    G[(0,) * len(shape)] = 1
    with np.errstate(under="ignore"):
        for j in np.flatnonzero(f):
            col = M[:, j]
            for _ in range(int(f[j])):
                H = np.asarray(G * col[last], dtype=G.dtype)     # stays an array when 0-d
                for axis, t in enumerate(expl):
                    if shape[axis] > 1 and col[t] != 0:
                        dst = [slice(None)] * len(shape)
                        src = [slice(None)] * len(shape)
                        dst[axis], src[axis] = slice(1, None), slice(None, -1)
                        H[tuple(dst)] += G[tuple(src)] * col[t]
                G = H
    return G


def _outcomes(n: int, k: int) -> int:
    return math.comb(n + k - 1, k - 1) if k >= 1 else 1


@provenance("ss.released_count_pmf")
def released_count_pmf(f_tilde, f, M):
    r"""Pr(f~ | f): the probability that the released table is ``f_tilde`` when the true table is
    ``f``, under independent misclassification with matrix M (columns summing to 1).

    The law of f~ is the convolution over true categories j of Multinomial(f_j, M[:, j]):

    .. math:: \Pr(\tilde f \mid f) = \sum_{a} \prod_j \frac{f_j!}{\prod_{\tilde j} a_{\tilde j j}!}
              \prod_{\tilde j} M_{\tilde j j}^{a_{\tilde j j}},

    the sum over nonnegative integer matrices a with column sums f and row sums f~.  Source:
    shlomo-skinner (002), Section 4 (the display after "Let a be the k x k matrix").  The
    document prints the sum WITHOUT the multinomial factors f_j!/prod a!, which is not a
    probability: k = 2, n = 2, f = (2, 0), M[:, 0] = (1/2, 1/2) gives Pr(f~ = (1, 1)) = 1/2, the
    printed sum 1/4 (and its total over f~ is 3/4).  The document also says the row and column
    totals of a are f and f~; with a[j~, j] they are f~ (rows) and f (columns).

    Computed as the coefficient of z^f~ in prod_j (sum_j~ M[j~, j] z_j~)^{f_j}, one record at a time
    on the box of partial counts below the requested f~ (a dynamic programme over partial
    convolutions; one released coordinate is implicit).  Only nonnegative terms are added.

    Parameters: ``f_tilde`` counts with last axis k~ (the rows of M), a batch (..., k~) allowed;
    ``f`` the k true counts (n = sum f); ``M`` (k~, k).  Counts are nonnegative integers (integral
    floats accepted).  An f~ whose total is not n, or with a count in a row of zeros, has
    probability 0.  Refused (``ValueError`` naming ``f``) when the number of outcomes
    C(n + k~ - 1, k~ - 1) (k~ counting the rows of M in use) exceeds ``MAX_OUTCOMES`` = 1e8 or the
    work n * k~ * (cells of the box) exceeds ``MAX_WORK`` = 4e8 (1e8 takes about 0.1-0.2 s);
    naming ``f_tilde`` when a batch spans a box of more than ``MAX_CELLS`` = 1e7 cells.  (For one
    f~ the box has at most prod_j~ (f~_j~ + 1) cells over all but its largest count.)

    Returns floats (relative error below about 2 n k~ 2^-53; results below 1e-300 or so carry
    the absolute accuracy of the subnormal range); exact ``Fraction`` values when M is given with
    Fraction entries (ints and Fractions only).

    >>> float(released_count_pmf([1, 1], [2, 0], [[0.5, 0.0], [0.5, 1.0]]))   # 2 * 1/2 * 1/2
    0.5
    >>> from fractions import Fraction as F
    >>> released_count_pmf([1, 1], [1, 1], [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]])  # (3/4)^2 + (1/4)^2
    Fraction(5, 8)
    """
    A, exact = _matrix(M)
    kt, k = A.shape
    fa = _f_vector(f, k)
    ft_shape = _shape_of(f_tilde)
    if len(ft_shape) >= 1:
        memory("f_tilde", math.prod(ft_shape) * 4)
    ft = _counts("f_tilde", f_tilde, kt, " (one count per released category, a row of M)")
    n = int(sum(int(v) for v in fa))
    used = A.max(axis=1) > 0 if exact is None else np.array([any(v != 0 for v in row) for row in exact])
    k_used = int(used.sum())
    if _outcomes(n, k_used) > MAX_OUTCOMES:
        fail("f", f"small enough for at most {MAX_OUTCOMES:.3g} outcomes C(n + k~ - 1, k~ - 1); n = sum(f) = {n} "
                  f"records in k~ = {k_used} released categories give {_outcomes(n, k_used):.3g}")
    valid = (ft.sum(axis=-1) == n) & np.all((ft == 0) | used, axis=-1)
    out = (np.full(ft.shape[:-1], Fraction(0), dtype=object) if exact is not None
           else np.zeros(ft.shape[:-1]))
    if valid.any():
        rows = ft[valid]
        top = rows.max(axis=0)
        last = int(np.argmax(top))
        cells = math.prod(int(top[t]) + 1 for t in range(kt) if t != last)
        if cells > MAX_CELLS:
            fail("f_tilde", f"a batch within a box of at most {MAX_CELLS:.3g} cells of partial counts "
                            f"(got {cells:.3g}); pass fewer outcomes at a time")
        if n * kt * cells > MAX_WORK:
            fail("f", f"small enough for the exact convolution: n * k~ * cells = {n} * {kt} * {cells} exceeds "
                      f"{MAX_WORK:.3g}")
        G = _gf_box(exact if exact is not None else A, fa, top, last)
        idx = tuple(rows[:, t] for t in range(kt) if t != last)
        out[valid] = G[idx] if idx else G[()]
    if exact is None:
        return scalar_out(out)
    return out[()] if out.ndim == 0 else out


# == 3. the certificate ==========================================================================================
def _pairs(A):
    """Columns (a, b) = (M[:, j1], M[:, j2]) for every ordered pair j1 != j2, as (P, k~) arrays."""
    k = A.shape[1]
    j1, j2 = np.nonzero(~np.eye(k, dtype=bool))
    return A[:, j1].T.copy(), A[:, j2].T.copy()


def _floor_up(a, b):
    """Per pair: sum of a over rows where b == 0, rounded up (exact with at most one term), at most 1
    (a part of a column of a stochastic matrix)."""
    terms = np.where(b == 0, a, 0.0)
    s = terms.sum(axis=-1)
    nnz = np.count_nonzero(terms, axis=-1)
    return np.minimum(np.where(nnz > 1, _up(s * (1.0 + (nnz + 1) * 2 * _U), 1), s), 1.0)


def _mul_up(x, p: float):
    """x * p rounded up (x, p in [0, 1]): the rounded product, moved up one ulp unless Dekker's exact
    residual shows it is exact or above (below 2^-900 always moved)."""
    x = np.asarray(x, dtype=float)
    with np.errstate(under="ignore"):
        prod, resid = two_product(x, p)                    # x p = prod + resid exactly
    move = (resid > 0) | ((prod < 2.0 ** -900) & (x > 0) & (p > 0))
    return np.where(move, np.nextafter(prod, np.inf), prod)


def _profile(a, b, floor_pairs, epsilon, eps):
    """Record-level delta_M at each eps (>= 0, a float array), rounded up: see PramCertificate.delta."""
    kt = a.shape[1] if a.size else 1
    flat = eps.ravel()
    out = np.zeros(flat.shape)
    if a.shape[0] == 0:
        return out.reshape(eps.shape)
    dfloor = float(floor_pairs.max())
    chunk = max(1, (1 << 22) // max(1, a.size))
    with np.errstate(over="ignore", under="ignore"):
        for s in range(0, flat.size, chunk):
            e = flat[s:s + chunk]
            c = np.exp(np.where(np.isfinite(e), e, 0.0))
            c = np.nextafter(np.nextafter(np.minimum(c, np.finfo(float).max), 0.0), 0.0)   # <= e^eps
            cb = c[:, None, None] * b[None]
            terms = a[None] - cb
            sure = (b[None] == 0) | (a[None] <= cb * (1.0 - 4 * _U))     # b = 0: exact; else certainly <= 0
            positive_b = np.where(sure, 0.0, np.maximum(terms, 0.0))
            uncertain = (~sure).any(axis=-1)
            val = np.where(uncertain, positive_b.sum(axis=-1) + floor_pairs[None] + (kt + 4) * 2 * _U,
                           floor_pairs[None])
            out[s:s + chunk] = np.minimum(val.max(axis=-1), 1.0)
    out = np.where(flat >= epsilon, 0.0, out)
    out = np.where(np.isinf(flat), dfloor, out)
    return out.reshape(eps.shape)


def _inverse_profile(a, b, floor_pairs, delta):
    """Smallest eps >= 0 with delta_M(eps) <= delta (an upper bound): see epsilon_for_delta."""
    flat = delta.ravel()
    P, kt = a.shape
    if P == 0:
        return np.zeros(delta.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(b > 0, a / np.where(b > 0, b, 1.0), -np.inf)
    order = np.argsort(-ratio, axis=1, kind="stable")
    aa = np.take_along_axis(np.where(b > 0, a, 0.0), order, axis=1)
    bb = np.take_along_axis(b, order, axis=1)
    Am, Bm = np.cumsum(aa, axis=1), np.cumsum(bb, axis=1)      # prefix sums in decreasing ratio
    ok = Bm > 0
    out = np.zeros(flat.shape)
    chunk = max(1, (1 << 22) // max(1, Am.size))
    slack = 1.0 + (8 * kt + 16) * _U
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for s in range(0, flat.size, chunk):
            d = flat[s:s + chunk][:, None, None]
            num = floor_pairs[None, :, None] + Am[None] - d
            err = (kt + 3) * _U * (floor_pairs[None, :, None] + Am[None] + d)
            cm = np.where(ok[None], (num + err) / np.where(ok, Bm, 1.0)[None], -np.inf) * slack
            c = np.maximum(cm.max(axis=2), 1.0)                      # per pair (chunk, P)
            c = np.where(floor_pairs[None] > flat[s:s + chunk][:, None], np.inf, c)
            cmax = c.max(axis=1)
            out[s:s + chunk] = np.where(np.isinf(cmax), np.inf, _log_up(np.where(np.isinf(cmax), 1.0, cmax)))
    return out.reshape(delta.shape)


def _state_sum(inv, w, m):
    if w.dtype == object:
        out = np.full(m, Fraction(0), dtype=object)
        np.add.at(out, inv, w)
        return out
    return np.bincount(inv, weights=w, minlength=m)


def _pack(B):
    """Boolean rows (R, F) as little-endian bit rows of uint64 words (R, W); padding bits are 0."""
    R, F = B.shape
    W = max(1, -(-F // 64))
    by = np.packbits(B, axis=1, bitorder="little")
    by = np.pad(by, ((0, 0), (0, W * 8 - by.shape[1])))
    return np.ascontiguousarray(by).view(np.uint64).reshape(R, W)


def _unique_rows(X):
    """Distinct rows of a uint64 array (R, W) and the index of each row among them."""
    if X.shape[1] == 1:
        u, inv = np.unique(X[:, 0], return_inverse=True)
        return u[:, None], inv.ravel()
    order = np.lexsort(X.T[::-1])
    Xs = X[order]
    first = np.ones(X.shape[0], dtype=bool)
    first[1:] = np.any(Xs[1:] != Xs[:-1], axis=1)
    inv = np.empty(X.shape[0], dtype=np.int64)
    inv[order] = np.cumsum(first) - 1
    return Xs[first], inv


def _bad_events(S, f):
    """The events E_T of pram_certificate as constraints: ``cons[T, i, t]`` is True when every record
    of the i-th occupied category must avoid the released category t (t in N(T) and reachable from
    it; nothing for categories in T).  T runs over the nonempty T with f(complement) >= 1 (proper
    subsets of the occupied categories and singletons of unoccupied ones: any other T gives a
    sub-event); impossible events are dropped, and so is every event contained in another one
    (E_T within E_T' iff each constraint of T' is within the same constraint of T), so the union
    is unchanged.  Returns (cons (F, ko, k~) bool, occupied indices); None if too large."""
    k = f.size
    kt = S.shape[0]
    occ = np.flatnonzero(f > 0)
    unocc = np.flatnonzero(f == 0)
    ko = occ.size
    F0 = (1 << ko) - 2 + unocc.size
    if F0 * (ko * kt + k + kt) > 1 << 27:
        return None
    codes = np.arange(1, (1 << ko) - 1, dtype=np.int64)
    T1 = np.zeros((codes.size, k), dtype=bool)
    T1[:, occ] = ((codes[:, None] >> np.arange(ko)) & 1).astype(bool)
    T2 = np.zeros((unocc.size, k), dtype=bool)
    T2[np.arange(unocc.size), unocc] = True
    T = np.vstack([T1, T2])
    N = (T.astype(np.int64) @ S.T.astype(np.int64)) > 0                   # (F0, k~)
    Socc = S[:, occ].T                                                    # (ko, k~)
    free = T[:, occ]                                                      # no constraint on these
    cons = N[:, None, :] & Socc[None, :, :] & ~free[:, :, None]
    blocked = np.all(cons == Socc[None], axis=2) & ~free                  # j cannot avoid N(T)
    cons = cons[~blocked.any(axis=1)]
    if cons.shape[0] == 0:
        return cons, occ
    flat = _pack(cons.reshape(cons.shape[0], -1))
    flat, inv = _unique_rows(flat)
    keep_first = np.zeros(flat.shape[0], dtype=np.int64)
    keep_first[inv[::-1]] = np.arange(inv.size)[::-1]                     # a representative of each
    cons = cons[keep_first]
    F, W = flat.shape
    if F <= 8192:
        dominated = np.zeros(F, dtype=bool)
        step = max(1, (1 << 24) // (F * W))
        for s in range(0, F, step):
            blk = flat[s:s + step]
            sub = np.all((flat[None, :, :] & ~blk[:, None, :]) == 0, axis=2)   # cons_T' within cons_T
            sub[np.arange(blk.shape[0]), np.arange(s, s + blk.shape[0])] = False
            dominated[s:s + step] = sub.any(axis=1)
        cons = cons[~dominated]
    return cons, occ


def _event_probs(A, exact, f, cons, occ):
    """P(E_T) = prod over occupied j of (mass of column j outside its constraint)^{f_j}: floats
    (value, upper, lower) or exact Fractions."""
    if exact is not None:
        vals = []
        for row in cons:
            p = Fraction(1)
            for i, j in enumerate(occ):
                if row[i].any():
                    p *= sum((exact[t, j] for t in np.flatnonzero(~row[i])), Fraction(0)) ** int(f[j])
            vals.append(p)
        return vals
    Ao = A[:, occ]                                                        # (k~, ko)
    out = np.einsum("Fit,ti->Fi", (~cons).astype(float), Ao)
    out = np.where(cons.any(axis=2), out, 1.0)
    with np.errstate(divide="ignore", under="ignore"):
        logs = f[occ][None] * np.log(np.where(out > 0, out, 1.0))
        p = np.where(np.any(out <= 0, axis=1), 0.0, np.exp(logs.sum(axis=1)))
    kt, k = A.shape
    rel = (int(f.sum()) * (kt + 2) + k + 8) * 2 * _U
    up = p * (1 + rel)
    up = np.where((up == 0) & np.all(out > 0, axis=1), 5e-324, up)     # a possible event that underflows
    return p, up, np.maximum(p * (1 - rel), 0.0)


def _moebius(G):
    """In place: subset sums -> Moebius inversion over the bits of the index (length 2^A)."""
    size = G.shape[-1]
    bit = 1
    while bit < size:
        view = G.reshape(-1, size // (2 * bit), 2, bit)
        view[:, :, 1, :] -= view[:, :, 0, :]
        bit *= 2
    return G


def _bad_exact(A, exact, f, cons, occ):
    """P(union of E_T) from the joint law of the sets of released categories reached by the occupied
    categories (Moebius inversion of P(set within U) = M[U, j]^{f_j}, per category), tracking which
    events are still possible (bit rows).  Returns (p, error bound) (0 for Fractions), or None when
    too large."""
    kt, k = A.shape
    F = cons.shape[0]
    use_exact = exact is not None
    states = _pack(np.ones((1, F), dtype=bool))
    W = states.shape[1]
    probs = np.array([Fraction(1)] if use_exact else [1.0], dtype=object if use_exact else float)
    err = 0.0
    for i, j in enumerate(occ):
        col_float = A[:, j]
        supp = (np.flatnonzero([v != 0 for v in exact[:, j]]) if use_exact else np.flatnonzero(col_float > 0))
        kill = cons[:, i, supp].T                                         # (|supp|, F): t kills these
        uniq, inv = np.unique(_pack(kill), axis=0, return_inverse=True)
        inv = inv.ravel()
        col = exact[supp, j] if use_exact else col_float[supp]
        mass = _state_sum(inv, col, uniq.shape[0])
        neutral = ~uniq.any(axis=1)
        atoms = uniq[~neutral]                                            # packed kill sets
        x = mass[~neutral]
        na = atoms.shape[0]
        if na == 0:
            continue
        if na > MAX_ATOMS or (1 << na) * W > 1 << 24:
            return None
        subsets = ((np.arange(1 << na)[:, None] >> np.arange(na)) & 1).astype(bool)   # (2^A, A)
        if use_exact:
            x0 = sum(mass[neutral].tolist(), Fraction(0))
            G = np.array([(x0 + sum((x[a] for a in np.flatnonzero(s)), Fraction(0))) ** int(f[j])
                          for s in subsets], dtype=object)
        else:
            outside = (~subsets).astype(float) @ x                          # mass of atoms not in U
            with np.errstate(divide="ignore", under="ignore"):
                G = np.exp(f[j] * np.log1p(-np.minimum(outside, 1.0)))
            # |error of G| <= (na + k~ + 3) u (the mass outside has relative error (na + k~) u and
            # f y (1 - y)^(f - 1) <= 1); the Moebius sums amplify it by at most 3^na in L1, and their
            # own roundings add at most 2 * 4^na u (partial inversions are probabilities)
            err += (3.0 ** na * (na + kt + 3) + 2 * 4.0 ** na) * _U
        law = _moebius(G)
        if not use_exact:
            law = np.maximum(law, 0.0)
        killed = np.zeros((1 << na, W), dtype=np.uint64)                  # OR of the atoms in each set
        for a in range(na):
            killed[subsets[:, a]] |= atoms[a]
        nz = np.flatnonzero(law != 0)
        kv, kinv = _unique_rows(killed[nz])
        lv = _state_sum(kinv, law[nz], kv.shape[0])
        if states.shape[0] * kv.shape[0] > MAX_STATES or states.shape[0] * kv.shape[0] * W > 1 << 24:
            return None
        new = (states[:, None, :] & ~kv[None, :, :]).reshape(-1, W)
        w = (probs[:, None] * lv[None, :]).ravel()
        err += (new.shape[0] + 2) * _U                       # products and the sums of at most that many
        alive = np.any(new != 0, axis=1)
        new, w = new[alive], w[alive]
        if new.shape[0] == 0:
            return (Fraction(0) if use_exact else 0.0), err
        states, sinv = _unique_rows(new)
        probs = _state_sum(sinv, w, states.shape[0])
    total = sum(probs.tolist(), Fraction(0)) if use_exact else float(probs.sum())
    if not use_exact:
        err += (states.shape[0] + 2) * _U
    return total, err


def _document_bad(A, f):
    """P(some j~ with A_j~ = {j : M[j~, j] = 0} nonempty has f~_j~ = n - f(A_j~)) (the document's
    criterion; all-zero rows left out), by inclusion-exclusion over the eligible rows.  None when there
    are more than MAX_DOC_ROWS of them."""
    pos = A > 0
    rows = np.flatnonzero(pos.any(axis=1) & ~pos.all(axis=1))
    if rows.size == 0:
        return 0.0
    if rows.size > MAX_DOC_ROWS:
        return None
    occ = f > 0
    P = pos[rows][:, occ].astype(np.int64)                              # (E, ko)
    with np.errstate(divide="ignore"):
        W = np.where(pos[rows][:, occ], f[occ][None] * np.log(np.where(A[rows][:, occ] > 0, A[rows][:, occ], 1.0)),
                     0.0).sum(axis=1)
    E = rows.size
    memb = ((np.arange(1, 1 << E)[:, None] >> np.arange(E)) & 1)
    hits = memb @ P
    ok = np.all(hits <= 1, axis=1)
    with np.errstate(under="ignore"):
        inter = np.where(ok, np.exp(memb @ W), 0.0)
    sign = np.where(memb.sum(axis=1) % 2 == 1, 1.0, -1.0)
    return float(min(max(math.fsum((sign * inter).tolist()), 0.0), 1.0))


def _bad_outcome(A, exact, f):
    """(p_bad, exact flag, lower bound) for the true counts f (see pram_certificate)."""
    S = A > 0 if exact is None else np.vectorize(lambda v: v != 0, otypes=[bool])(exact)
    ev = _bad_events(S, f) if int((f > 0).sum()) <= MAX_OCCUPIED else None
    if ev is None:
        return 1.0, False, 0.0
    cons, occ = ev
    if cons.shape[0] == 0:
        return 0.0, True, 0.0
    if exact is not None and (int(f.sum()) > 2000 or cons.shape[0] > 4096):
        exact = None                                                      # Fractions too long: floats
    if exact is not None:
        probs = _event_probs(A, exact, f, cons, occ)
        union, lower = min(_frac_up(sum(probs, Fraction(0))), 1.0), _frac_down(max(probs))
    else:
        _, up, low = _event_probs(A, None, f, cons, occ)
        union = min(float(_up(math.fsum(up.tolist()) * (1 + cons.shape[0] * 2 * _U), 1)), 1.0)
        lower = float(low.max())
    res = _bad_exact(A, exact, f, cons, occ)
    if res is None:
        return union, False, lower
    p, err = res
    if exact is not None:
        return min(_frac_up(p), 1.0), True, max(lower, _frac_down(p))
    val = float(_up(p + err, 1)) if err > 0 else p
    return min(val, union, 1.0), True, max(lower, min(max(p - err, 0.0), 1.0))


@dataclass(frozen=True, eq=False)
class PramCertificate:
    """The privacy of independent misclassification with a matrix M (see :func:`pram_certificate`).

    Fields: ``epsilon`` (pure, per record and for the released table), ``delta_floor`` (the
    structural-zero floor of delta), the shape ``k_released`` x ``k_true``, and when given ``n``,
    ``sampling_prob`` (with ``epsilon_sampled``, ``delta_floor_sampled``) and ``f`` (with
    ``p_bad``, ``p_bad_exact``, ``p_bad_lower``, ``p_bad_document`` and under sampling
    ``p_bad_sampled``, ``p_bad_sampled_exact``, ``p_bad_sampled_lower``).  Methods ``delta(eps)``,
    ``epsilon_for_delta(delta)``, ``delta_sampled(eps)``, ``epsilon_for_delta_sampled(delta)``.
    """

    epsilon: float
    delta_floor: float
    k_released: int
    k_true: int
    n: int | None = None
    sampling_prob: float | None = None
    epsilon_sampled: float | None = None
    delta_floor_sampled: float | None = None
    f: tuple | None = None
    p_bad: float | None = None
    p_bad_exact: bool | None = None
    p_bad_lower: float | None = None
    p_bad_document: float | None = None
    p_bad_sampled: float | None = None
    p_bad_sampled_exact: bool | None = None
    p_bad_sampled_lower: float | None = None
    matrix: np.ndarray = field(default=None, repr=False)
    _a: np.ndarray = field(default=None, repr=False)
    _b: np.ndarray = field(default=None, repr=False)
    _floors: np.ndarray = field(default=None, repr=False)

    def delta(self, eps):
        r"""The record-level hockey-stick profile

        .. math:: \delta_M(\varepsilon) = \max_{j_1 \ne j_2} \sum_{\tilde j}
                  \max\big(0, M_{\tilde j j_1} - e^{\varepsilon} M_{\tilde j j_2}\big),

        the exact (eps, delta)-DP of the released records x~ (the other records' factors are the
        same under both neighbours, so the product's divergence is one record's) and an upper
        bound for the released table f~ (post-processing).  ``eps`` >= 0, any shape, ``inf``
        allowed (gives ``delta_floor``).  0 for eps >= ``epsilon``.  Rounded up: e^eps is taken
        2 ulps low and (k~ + 4) 2^-52 is added where a term is not certainly 0; clipped at 1.
        Source: shlomo-skinner (002), Section 4 (the ratio M[x~_i, x_i]/M[x~_i, x'_i])."""
        e = as_float("eps", eps)
        require(e >= 0, "eps", ">= 0")
        return scalar_out(_profile(self._a, self._b, self._floors, self.epsilon, e))

    def epsilon_for_delta(self, delta):
        """The smallest eps >= 0 with delta_M(eps) <= delta; ``inf`` when delta < ``delta_floor``.

        delta_M is convex and decreasing in c = e^eps, piecewise linear: per pair (j1, j2) the
        smallest c is max over prefixes S of the rows ordered by decreasing M[., j1]/M[., j2] of
        (floor + sum_S M[., j1] - delta) / sum_S M[., j2] (every S gives a lower bound, the best prefix
        the exact value), and eps = ln of the largest c over pairs.  Rounded up (the numerator by its
        error bound, c by a relative (8 k~ + 16) 2^-53, the logarithm by 4 ulps).  ``delta`` in [0, 1],
        any shape.  Source: shlomo-skinner (002), Section 4."""
        d = as_float("delta", delta)
        require((d >= 0) & (d <= 1), "delta", "in [0, 1]")
        return scalar_out(_inverse_profile(self._a, self._b, self._floors, d))

    def _need_sampling(self, what):
        if self.sampling_prob is None:
            raise ValueError(f"sampling_prob must be given to pram_certificate for {what}")

    def delta_sampled(self, eps):
        """p * delta_M(eps): the record-level profile when each unit is first sampled with probability
        p (Bernoulli, no response knowledge) - the 'not sampled' outcome has the same probability 1 - p
        under both neighbours and contributes max(0, (1 - p)(1 - e^eps)) = 0 - and an upper bound for
        the released table.  Rounded up.  Source: shlomo-skinner (002), Sections 2.3 and 4."""
        self._need_sampling("delta_sampled")
        d = np.asarray(self.delta(eps), dtype=float)
        with np.errstate(under="ignore"):
            return scalar_out(np.minimum(_mul_up(d, self.sampling_prob), 1.0))

    def epsilon_for_delta_sampled(self, delta):
        """The smallest eps with p * delta_M(eps) <= delta (eps for delta/p, delta/p rounded down)."""
        self._need_sampling("epsilon_for_delta_sampled")
        d = as_float("delta", delta)
        require((d >= 0) & (d <= 1), "delta", "in [0, 1]")
        p = self.sampling_prob
        if p == 0:
            return scalar_out(np.zeros(d.shape))
        q = np.nextafter(np.minimum(d / p, 1.0), 0.0)
        return scalar_out(_inverse_profile(self._a, self._b, self._floors, np.where(d / p >= 1, 1.0, q)))

    def __str__(self) -> str:
        def num(v):
            return "inf" if v == math.inf else f"{v:.6g}"

        lines = [f"PRAM certificate: {self.k_released} x {self.k_true} misclassification matrix "
                 f"(Shlomo and Skinner, Section 4)",
                 f"  pure epsilon (per record; also the released table, any n >= 1): {num(self.epsilon)}",
                 f"  delta floor (smallest delta at a finite epsilon, record and table): {num(self.delta_floor)}"]
        if self.epsilon < math.inf:
            lines.append("  epsilon-DP holds with delta = 0")
        elif self.delta_floor < 1:
            lines.append(f"  no finite epsilon; (eps, delta)-DP for delta >= {num(self.delta_floor)} "
                         f"(e.g. eps = {num(float(self.epsilon_for_delta(self.delta_floor)))})")
        else:
            lines.append("  no finite epsilon, and delta = 1 at every epsilon: no (eps, delta < 1)-DP")
        if self.n is not None:
            lines.append(f"  records n = {self.n}")
        if self.sampling_prob is not None:
            lines.append(f"  Bernoulli sampling p = {self.sampling_prob:g}: epsilon {num(self.epsilon_sampled)}, "
                         f"delta floor <= {num(self.delta_floor_sampled)}")
        if self.f is not None:
            how = "exact" if self.p_bad_exact else "union bound"
            lines.append(f"  f = {self.f}: P(bad outcome) = {num(self.p_bad)} ({how}; >= {num(self.p_bad_lower)})")
            if self.p_bad_document is not None:
                lines.append(f"  document's 'bad' criterion: probability {num(self.p_bad_document)}")
            if self.p_bad_sampled is not None:
                how = "exact" if self.p_bad_sampled_exact else "union bound"
                lines.append(f"  with sampling: P(bad outcome) = {num(self.p_bad_sampled)} ({how})")
        return "\n".join(lines)


def _sampled_matrix(A, p):
    """The per-unit release law under Bernoulli(p) sampling: row 0 = 'not released' (1 - p)."""
    return np.vstack([np.full((1, A.shape[1]), 1.0 - p), p * A])


@provenance("ss.misclassification_epsilon", "ss.record_profile", "ss.structural_floor", "ss.sampled_pram",
            "ss.sampled_pram_epsilon", "ss.not_bad_feasible_hall")
def pram_certificate(M, n=None, sampling_prob=None, f=None):
    r"""The privacy guarantees of independent misclassification (PRAM) with matrix M, as a frozen
    :class:`PramCertificate` whose ``str`` is a short report.

    Source: shlomo-skinner (002), Section 4 (equations (3)-(4), the a-matrix law of f~, the
    "bad outcome" argument) with the privacy definitions of Section 2.3 (population database,
    neighbours differ in one record, no response knowledge).

    * ``epsilon``: the pure epsilon, :func:`misclassification_epsilon`; exact for the released
      records and for the released table f~ for every n >= 1.
    * ``delta(eps)``: the record-level profile max_{j1 != j2} sum_j~ max(0, M[j~, j1] - e^eps M[j~, j2]),
      exact for the records and an upper bound for the table; ``epsilon_for_delta(delta)`` its
      inverse.
    * ``delta_floor`` = delta_M(inf) = max_{j1 != j2} sum_{j~ : M[j~, j2] = 0} M[j~, j1]: the smallest
      delta any finite epsilon reaches, the same for the table for every n >= 1 (f1 = (n - 1) e_j2 +
      e_j1 against f2 = n e_j2).
    * ``sampling_prob`` = p: each unit is first kept with probability p (Bernoulli sampling, the
      released table does not say who was sampled).  Each unit then releases nothing (1 - p) or j~
      (p M[j~, j]): ``epsilon_sampled`` = ``epsilon`` for p > 0 (the 'nothing' row has ratio 1; the
      table attains the ratio when every unit is sampled) and 0 for p = 0; ``delta_sampled(eps)``
      = p delta_M(eps) (record level, a bound for the table); ``delta_floor_sampled`` = p
      ``delta_floor``, an upper bound for the table's floor (attained by the same f1, f2; the tests
      check equality by enumeration for N <= 3, the registry states the bound, ss.sampled_pram).
    * ``f`` (true counts, n = sum f >= 1): ``p_bad`` = Pr(f~ has a neighbour f2 of f with
      Pr(f~ | f2) = 0).  By the supply-demand theorem (Gale, 1957) f~ is possible under f2 iff
      f2(T) <= f~(N(T)) for every set T of true categories, N(T) = {j~ : M[j~, j] > 0 for some j in T};
      so f~ is bad iff for some nonempty T with f(complement of T) >= 1 every record whose category
      is outside T is released outside N(T) (event E_T, probability prod_{j not in T}
      (1 - M[N(T), j])^{f_j}).  ``p_bad`` = P(union of E_T) computed exactly (``p_bad_exact`` =
      True) by the joint law of the sets of released categories each occupied category reaches
      (Moebius inversion of P(set within U) = M[U, j]^{f_j}; independent of n), or when that is too
      large (``MAX_ATOMS``, ``MAX_STATES``) the union bound min(1, sum_T P(E_T)) over the maximal
      events (``p_bad_exact`` = False); ``p_bad_lower`` = max_T P(E_T).  With more than
      ``MAX_OCCUPIED`` = 16 occupied categories the events are not listed: ``p_bad`` = 1 (trivial),
      flag False, lower bound 0.  ``p_bad_document``: the probability of the document's criterion (some j~ with
      A_j~ = {j : M[j~, j] = 0} nonempty and f~_j~ = n - f(A_j~); rows of zeros left out) for
      comparison - it misses bad outcomes (k = 3, n = 2, M = [[1/3, 1/3, 0], [1/3, 1/3, 0],
      [1/3, 1/3, 1]], f = (0, 2, 0): p_bad = 4/9, the criterion 2/9) and flags harmless ones.  With
      ``sampling_prob`` also: ``p_bad_sampled`` (and its flag and lower bound), the same for the
      per-unit law with the 'nothing' outcome.  The document's claim that a not-bad outcome has
      Pr(f~ | f2) != 0 at every neighbour is false (the example above, f~ = (1, 1, 0), f2 = (0, 1, 1)).

    Parameters: ``M`` (k~, k) column-stochastic (see :func:`misclassification_epsilon`); ``n``
    (optional integer >= 1) the number of records, checked against ``sum(f)``; ``sampling_prob``
    (optional, in [0, 1]); ``f`` (optional) k nonnegative integer counts with sum >= 1.
    ``ValueError`` naming the parameter otherwise.

    Accuracy: epsilon, delta, delta_floor, p_bad are never understated (rounded up, see the
    methods; p_bad by the error bound of its float Moebius sums, (3^A (A + k~ + 3) + 2 4^A) 2^-53 per
    occupied category with A <= ``MAX_ATOMS`` atoms, below 4e-9, then capped by the union bound);
    Fraction entries in M give p_bad from exact fractions (for n <= 2000).  ``p_bad_lower`` is not
    overstated.  The bad-outcome figures use M with each column divided by its sum (a change
    within ``COLUMN_TOL``), so that 'mass outside a set' and '1 - mass inside' agree.
    ``p_bad_document`` is informational (inclusion-exclusion in floats, up to ``MAX_DOC_ROWS`` rows).

    >>> c = pram_certificate([[0.5, 0.0], [0.5, 1.0]], f=[1, 1])
    >>> float(c.epsilon), c.delta_floor, c.p_bad_exact   # bad iff the record of category 0 goes to row 0
    (inf, 0.5, True)
    >>> 0.5 <= c.p_bad < 0.5 + 1e-14                     # 1/2, rounded up by its error bound
    True
    """
    A, exact = _matrix(M)
    kt, k = A.shape
    memory("M", float(k) * k * kt * 4)
    nn = None if n is None else count("n", n, 1)
    p = None if sampling_prob is None else scalar("sampling_prob", sampling_prob, 0.0, 1.0)
    fa = None
    if f is not None:
        fa = _f_vector(f, k)
        total = int(sum(int(v) for v in fa))
        require(total >= 1, "f", "counts with at least one record (sum(f) >= 1)")
        if nn is None:
            nn = total
        elif total != nn:
            fail("f", f"counts summing to n = {nn}", f"sum(f) = {total}")
    eps = float(misclassification_epsilon(A))
    a, b = _pairs(A)
    floors = _floor_up(a, b)
    dfloor = float(min(floors.max(), 1.0)) if floors.size else 0.0
    fields = dict(epsilon=eps, delta_floor=dfloor, k_released=kt, k_true=k, n=nn, matrix=_readonly(A),
                  _a=a, _b=b, _floors=floors)
    if p is not None:
        fields.update(sampling_prob=p, epsilon_sampled=eps if p > 0 else 0.0,
                      delta_floor_sampled=float(min(_mul_up(dfloor, p), 1.0)))
    if fa is not None:
        An = A / A.sum(axis=0)                  # columns summing to 1 (a change below COLUMN_TOL)
        En = None if exact is None else exact / exact.sum(axis=0)
        pb, flag, low = _bad_outcome(An, En, fa)
        fields.update(f=tuple(int(v) for v in fa), p_bad=pb, p_bad_exact=flag, p_bad_lower=low,
                      p_bad_document=_document_bad(An, fa))
        if p is not None:
            Sp = _sampled_matrix(An, p)
            pb, flag, low = _bad_outcome(Sp / Sp.sum(axis=0), None, fa)
            fields.update(p_bad_sampled=pb, p_bad_sampled_exact=flag, p_bad_sampled_lower=low)
    return PramCertificate(**fields)


def _readonly(A):
    A = np.array(A, dtype=float)
    A.setflags(write=False)
    return A


# == 4. invariant PRAM ==========================================================================================
@provenance("ss.pram_invariance_columns")
def invariant_pram_matrix(retention, v):
    r"""The invariant PRAM matrix of Gouweleeuw, Kooiman, Willenborg and de Wolf (1998), in the column
    convention of equation (3) of shlomo-skinner (002) (Section 4): ``M[j~, j] = Pr(released j~ |
    true j)``, with M v = v, so that E[f~] = f when v = f/n.

    Construction: P (row-stochastic, P[k, l] = Pr(l | k)) keeps a category with probability
    ``retention`` = theta and moves it to each of the other k - 1 with (1 - theta)/(k - 1); with
    lambda = v P, Q[k, l] = P[l, k] v_l / lambda_k (the law of the original given the perturbed
    value; the identity row where lambda_k = 0), R = P Q satisfies v R = v, and M = R^T.  (The
    document writes the invariance as "vM = v", the row convention of the PRAM literature; with
    (3)'s columns it reads M v = v.)  For uniform v, M = P^2.

    Parameters: ``retention`` in [0, 1] (a scalar or an array: the result is then a stack
    (..., k, k), ready for :func:`misclassification_epsilon`); ``v`` the k >= 2 category
    proportions (nonnegative, finite, positive sum; counts are normalised, after division by
    their largest entry, so any finite scale gives the same matrix: [1e308, 1e308] is uniform and
    gives P^2).  A category with v_j = 0 is never released (a row of zeros), which
    :func:`misclassification_epsilon` ignores.

    >>> M = invariant_pram_matrix(0.8, [0.5, 0.5])     # P = [[.8, .2], [.2, .8]], M = P^2
    >>> np.round(M, 12).tolist()
    [[0.68, 0.32], [0.32, 0.68]]
    """
    vshape, tshape = _shape_of(v), _shape_of(retention)
    if len(vshape) != 1 or vshape[0] < 2:
        fail("v", "a 1-D array of at least 2 category proportions", f"shape {vshape}")
    k = vshape[0]
    memory("v", float(k) * k * 6)
    memory("retention", float(math.prod(tshape)) * k * k * 6)
    th = as_float("retention", retention)
    require((th >= 0) & (th <= 1), "retention", "a probability in [0, 1]")
    vv = as_float("v", v, finite=True)
    require(vv >= 0, "v", "nonnegative proportions")
    top = float(vv.max())
    require(top > 0, "v", "proportions with a positive sum")
    vv = vv / top                      # in [0, 1] first: the sum of 1e308 + 1e308 would overflow,
    vv = vv / float(vv.sum())          # and 1e-320 / 2e-320 would lose digits (subnormals)
    t = th[..., None, None]
    eye = np.eye(k)
    P = t * eye + (1.0 - t) / (k - 1) * (1.0 - eye)                      # (..., k, k)
    lam = np.einsum("k,...kl->...l", vv, P)                             # v P
    with np.errstate(divide="ignore", invalid="ignore"):
        Q = np.swapaxes(P, -1, -2) * vv[None, :] / lam[..., :, None]   # Q[k, l] = P[l, k] v_l / lam_k
    Q = np.where(lam[..., :, None] > 0, Q, eye)
    R = P @ Q
    return np.swapaxes(R, -1, -2)
