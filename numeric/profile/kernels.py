"""delta(eps, x, x') = int (f_x - e^eps f_x')_+ for one or many pairs of noisy atom mixtures.

Every function here takes the *signed weights* of the difference: on the sorted atoms a_k of the
two laws merged, w_k = P(t(x, S) = a_k) - e^eps P(t(x', S) = a_k), so that

    D(z) = f_x(z) - e^eps f_x'(z) = sum_k w_k K(z - a_k)

with K the Laplace(b) or the Gaussian(sigma) density.  Nothing is discretised.

Laplace (claims ``profile.laplace.*``).  With L_j = sum_{k<=j} w_k e^{-(a_j - a_k)/b} and
R_j = sum_{k>j} w_k e^{-(a_k - a_j)/b} (two first-order recursions, every exponent <= 0),
2b D(a_j + u) = R_j e^{u/b} + L_j e^{-u/b} on [a_j, a_{j+1}].  It changes sign at most once there,
and the integral of its positive part is one of three closed forms; when the sign changes it is
a perfect square, (sqrt(A) - sqrt(-B))^2 / 2, so nothing cancels.  The tails give R_0/2 and L_K/2.
The same code gives b = 0 (``c = 0``): sum_k (w_k)_+.

Gaussian (claims ``profile.gaussian.*``).  sigma sqrt(2 pi) e^{z^2/(2 sigma^2)} D(z) is the
exponential sum sum_k w_k e^{-a_k^2/(2 sigma^2)} e^{a_k z / sigma^2}; by Laguerre's rule it has at
most as many real zeros as (w_k) has sign changes.  One sign change (every monotone-likelihood-ratio
pair, e.g. simple random or Bernoulli sampling on binary data) means a half-line event
{D > 0}: its end is found by bisection and delta = sum_k w_k Phi((r - a_k)/sigma).  More sign
changes: the zeros are isolated by Rolle's theorem level by level (the derivative of
e^{-lambda_l z} g_l is the next exponential sum), each bracketed and solved by ``brentq``.
Everything is evaluated in log space, relative to the nearest atom, so nothing overflows.

Two pairs of few atoms are given whole: the one-unit mechanism (``one_unit_delta``: a unit sampled
with probability pi, its value y against y', the reductions of :mod:`numeric.profile.search.one_unit`)
and one kernel against itself shifted (``_mechanism_delta``: the Laplace or Gaussian mechanism).
"""
from __future__ import annotations

import math

import numpy as np

LD = np.longdouble
U_LD = float(np.finfo(LD).epsneg)   # unit roundoff of the working precision (2^-64 on x86-64 Linux)
U_D = 2.0**-53                      # unit roundoff of a double
_BISECT = 200  # bisection steps at most (each halves the bracket; stops at the float resolution)
TAIL = 40.0    # zeros of D are sought within TAIL sigma of the atoms (Phi(-40) < 1e-349 underflows to 0)


# -- rounding ---------------------------------------------------------------------------------------
def perturbation_bound(eta: float) -> float:
    """The change of delta = int (F - e^eps G)_+ when F and e^eps G are perturbed pointwise by
    relative errors of at most eta < 1/2: at most 2 eta/(1 - eta) int F, whatever e^eps (where the
    perturbed or the exact integrand is positive, e^eps G < F (1 + eta)/(1 - eta), so the change
    eta (F + e^eps G) is at most 2 eta F/(1 - eta)); 1 (the trivial bound) beyond."""
    return 2.01 * eta / (1 - eta) if eta < 0.5 else 1.0


def round_up(value, err) -> np.ndarray:
    """value + err (long double) as doubles rounded towards +inf, capped at 1 (delta <= 1)."""
    total = np.asarray(value, dtype=LD) + np.asarray(err, dtype=LD)
    d = total.astype(float)
    d = np.where(d.astype(LD) < total, np.nextafter(d, np.inf), d)
    return np.minimum(d, 1.0)


# -- Laplace ----------------------------------------------------------------------------------------
def _interval_parts(A_l, A_r, B_l, B_r, omc):
    """Integral of the positive part of (A e^{u/b} + B e^{-u/b})/(2b) over each interval [0, h].

    A_l, A_r are the e^{u/b} part at the two ends (A_r = A_l e^{h/b}), B_l, B_r the e^{-u/b} part
    (B_r = B_l e^{-h/b}); ``omc`` = 1 - e^{-h/b} (from ``expm1``: no cancellation when b >> h).
    The signs are read from A_r and B_l, which never underflow to zero when the part is not zero.
    """
    full = 0.5 * omc * (A_r + B_l)      # = (A_r - A_l)/2 + (B_l - B_r)/2 without the cancellation
    at0, ath = A_l + B_l, A_r + B_r
    out = np.zeros(np.broadcast(A_l, B_l).shape, dtype=np.result_type(A_l, B_l))
    both_pos = (A_r >= 0) & (B_l >= 0)
    out = np.where(both_pos, full, out)
    inc = (A_r > 0) & (B_l < 0)          # increasing: positive right of the root
    dec = (A_r < 0) & (B_l > 0)          # decreasing: positive left of the root
    with np.errstate(invalid="ignore"):
        sq_inc = 0.5 * (np.sqrt(np.maximum(A_r, 0)) - np.sqrt(np.maximum(-B_r, 0))) ** 2
        sq_dec = 0.5 * (np.sqrt(np.maximum(B_l, 0)) - np.sqrt(np.maximum(-A_l, 0))) ** 2
    out = np.where(inc & (ath > 0), np.where(at0 >= 0, full, sq_inc), out)
    out = np.where(dec & (at0 > 0), np.where(ath >= 0, full, sq_dec), out)
    return np.maximum(out, 0)


def laplace_delta_uniform(w: np.ndarray, h_over_b: float) -> np.ndarray:
    """delta for each row of ``w`` (shape (P, K)): atoms equally spaced by h; ``h_over_b`` = h/b
    (``inf`` for b = 0).  Long double throughout (``LD``).

    The recursions run vectorised over the rows: a loop over the atoms for a short window, and in C
    (``scipy.signal.lfilter``, the same operations in the same order) for a long one, so that a short
    window does not pay the import of ``scipy.signal`` (about 0.8 s of CPU).
    """
    w = np.atleast_2d(np.asarray(w, dtype=LD))
    x = LD(h_over_b)
    c, omc = np.exp(-x), -np.expm1(-x)
    L = _first_order(w, c)                                         # L_j = w_j + c L_{j-1}
    S = _first_order(w[:, ::-1], c)[:, ::-1]                       # S_j = w_j + c S_{j+1} = w_j + R_j
    return _laplace_sum(L[:, :-1], c * L[:, :-1], c * S[:, 1:], S[:, 1:], S[:, 0], L[:, -1], omc)


#: Windows up to this many atoms run the recursion as a loop over the atoms; longer ones in lfilter.
SHORT_WINDOW = 512


def _first_order(w: np.ndarray, c) -> np.ndarray:
    """y_j = w_j + c y_{j-1} along each row (y_0 = w_0): lfilter's direct form for b = [1], a = [1, -c]
    (one multiplication and one addition per step, in that order), computed the same way either side of
    :data:`SHORT_WINDOW`."""
    K = w.shape[1]
    if K > SHORT_WINDOW:
        from scipy.signal import lfilter
        return lfilter(np.array([1], dtype=w.dtype), np.array([1, -c], dtype=w.dtype), w, axis=1)
    y = np.empty_like(w)
    if K:
        y[:, 0] = w[:, 0]
    for j in range(1, K):
        y[:, j] = w[:, j] + c * y[:, j - 1]
    return y


def laplace_delta_general(a: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    """delta for each row of sorted atoms ``a`` and weights ``w`` (shape (P, K), rows may be padded
    at the end with zero weights at the last atom); long double."""
    a = np.atleast_2d(np.asarray(a, dtype=float))
    w = np.atleast_2d(np.asarray(w, dtype=LD))
    gap = np.diff(a, axis=1).astype(LD)
    if b > 0:
        c, omc = np.exp(-gap / LD(b)), -np.expm1(-gap / LD(b))
    else:
        c = (gap == 0).astype(LD)
        omc = 1 - c
    K = w.shape[1]
    L, S = np.empty_like(w), np.empty_like(w)
    L[:, 0], S[:, -1] = w[:, 0], w[:, -1]
    for j in range(1, K):
        L[:, j] = w[:, j] + c[:, j - 1] * L[:, j - 1]
        S[:, K - 1 - j] = w[:, K - 1 - j] + c[:, K - 1 - j] * S[:, K - j]
    return _laplace_sum(L[:, :-1], c * L[:, :-1], c * S[:, 1:], S[:, 1:], S[:, 0], L[:, -1], omc)


def _laplace_sum(B_l, B_r, A_l, A_r, left_tail, right_tail, omc):
    inner = _interval_parts(A_l, A_r, B_l, B_r, omc).sum(axis=1) if B_l.shape[1] else 0
    return 0.5 * np.maximum(left_tail, 0) + 0.5 * np.maximum(right_tail, 0) + inner


# -- Gaussian ---------------------------------------------------------------------------------------
def _log_abs(w):
    with np.errstate(divide="ignore"):
        return np.log(np.abs(w))


def _sign_at(z, a, lw_pos, lw_neg, sigma):
    """ln(sum_{w>0} w_k phi_k(z)) - ln(sum_{w<0} |w_k| phi_k(z)) for each row; z has shape (P,)."""
    q = -0.5 * ((z[:, None] - a) / sigma) ** 2
    return np.logaddexp.reduce(lw_pos + q, axis=1) - np.logaddexp.reduce(lw_neg + q, axis=1)


def _phi_error(w, x):
    """Bound on the rounding error of sum_k w_k Phi(x_k) in double: ``ndtr`` within 64 ulps
    (relative) and the error of its argument, u(|x| + 1) absolute, amplified by
    |d ln Phi/dx| <= |x| + 1 (Mills' ratio)."""
    from scipy.special import ndtr

    return np.sum(np.abs(w) * ndtr(x) * (64 + 2 * (np.abs(x) + 1) ** 2), axis=1) * U_D


def _phi_sum(r, a, w, sigma, below: bool):
    """(value, error bound) of sum_k w_k Phi((r - a_k)/sigma) (below) or sum_k w_k Phi((a_k - r)/sigma)
    (above), in the form whose terms are smaller (the other form is sum w minus it)."""
    from scipy.special import ndtr

    x = (r[:, None] - a) / sigma
    if not below:
        x = -x
    direct = np.sum(w * ndtr(x), axis=1)
    comp = np.sum(w, axis=1) - np.sum(w * ndtr(-x), axis=1)
    small = np.sum(np.abs(w) * ndtr(x), axis=1) <= np.sum(np.abs(w) * ndtr(-x), axis=1)
    err = np.where(small, _phi_error(w, x), _phi_error(w, -x))
    return np.where(small, direct, comp), err


def gaussian_delta_one_change(a: np.ndarray, w: np.ndarray, sigma: float) -> np.ndarray:
    """An upper value of delta for rows whose weights change sign at most once along the sorted atoms
    (shape (P, K)): the computed delta plus the bound of the rounding of the Phi terms
    (``_phi_error``) and of the end r of the half-line (the bracket of width |hi - lo| around the
    zero holds at most (hi - lo) * 2 max(f_x) <= (hi - lo) * 2 / (sigma sqrt(2 pi)) of the integral)."""
    w = np.atleast_2d(np.asarray(w, dtype=LD))
    a = np.atleast_2d(np.asarray(a, dtype=float)) * np.ones(w.shape)
    P = w.shape[0]
    out = np.zeros(P, dtype=LD)
    pos, neg = w > 0, w < 0
    has_pos, has_neg = pos.any(axis=1), neg.any(axis=1)
    only_pos = has_pos & ~has_neg
    out[only_pos] = w[only_pos].sum(axis=1)
    rows = np.flatnonzero(has_pos & has_neg)
    if rows.size == 0:
        return out
    a, w = a[rows], w[rows]
    first_pos = np.argmax(w > 0, axis=1)
    first_neg = np.argmax(w < 0, axis=1)
    below = first_pos < first_neg                # + then -: the event is (-oo, r)
    lw = _log_abs(w)
    lw_pos = np.where(w > 0, lw, -np.inf)
    lw_neg = np.where(w < 0, lw, -np.inf)
    # search window: beyond TAIL sigma of every atom D is below Phi(-TAIL) ~ 1e-350 (zero in double
    # precision), so a zero of D outside it changes delta by nothing representable: clamp it to the edge
    lo = a.min(axis=1) - TAIL * sigma
    hi = a.max(axis=1) + TAIL * sigma
    s_lo = np.where(below, 1.0, -1.0)            # sign of the log ratio left of the zero
    left_of_window = np.sign(_sign_at(lo, a, lw_pos, lw_neg, sigma)) != s_lo
    right_of_window = np.sign(_sign_at(hi, a, lw_pos, lw_neg, sigma)) == s_lo
    hi = np.where(left_of_window, lo, hi)
    lo = np.where(right_of_window, hi, lo)
    for _ in range(_BISECT):
        mid = 0.5 * (lo + hi)
        active = (mid > lo) & (mid < hi)
        if not active.any():
            break
        s = np.sign(_sign_at(mid, a, lw_pos, lw_neg, sigma))
        go_right = (s == s_lo) & active
        go_left = (s != s_lo) & active
        lo = np.where(go_right, mid, lo)
        hi = np.where(go_left, mid, hi)
    r = 0.5 * (lo + hi)
    d_below, e_below = _phi_sum(r, a, w, sigma, below=True)
    d_above, e_above = _phi_sum(r, a, w, sigma, below=False)
    err = np.where(below, e_below, e_above) + (hi - lo) * 2 / (sigma * np.sqrt(2 * np.pi))
    out[rows] = np.maximum(np.where(below, d_below, d_above), 0) + err
    return out


def _merge(a, w):
    """Sorted distinct atoms with summed weights, zero weights dropped."""
    order = np.argsort(a, kind="stable")
    a, w = a[order], w[order]
    keep = np.r_[True, np.diff(a) != 0]
    ws = np.add.reduceat(w, np.flatnonzero(keep)) if w.size else w
    au = a[keep]
    nz = ws != 0
    return au[nz], ws[nz]


def _sign_changes(w) -> int:
    s = np.sign(w[w != 0])
    return int(np.count_nonzero(s[1:] != s[:-1]))


class _ExpSum:
    """g_l(z) = sum_{k>=l} w_k prod_{j<l} (a_k - a_j) phi((z - a_k)/sigma), up to a positive factor.

    Its sign is that of the l-th Rolle derivative of the exponential sum of ``profile.gaussian.
    exponential_sum`` (the factors (a_k - a_j)/sigma^2 > 0 are kept in log space)."""

    def __init__(self, a, w, sigma):
        self.a, self.sigma = a, sigma
        self.s = np.sign(w)
        self.logc = [_log_abs(w)]
        for l in range(1, len(a)):
            prev = self.logc[-1]
            self.logc.append(np.r_[np.full(l, -np.inf), prev[l:] + np.log((a[l:] - a[l - 1]) / sigma**2)])

    def log_ratio(self, l, z):
        q = self.logc[l][l:] - 0.5 * ((z - self.a[l:]) / self.sigma) ** 2
        s = self.s[l:]
        return np.logaddexp.reduce(np.where(s > 0, q, -np.inf)) - np.logaddexp.reduce(np.where(s < 0, q, -np.inf))

    def sign(self, l, z) -> float:
        return float(np.sign(self.log_ratio(l, z)))

    def roots(self, l, lo: float, hi: float) -> list[float]:
        """Sign changes of g_l in [lo, hi], in increasing order.

        e^{-lambda_l z} g_l is monotone between consecutive zeros of g_{l+1} (its derivative, up to a
        positive factor: ``profile.gaussian.rolle_step``), so each such piece holds at most one sign
        change, found by ``brentq`` when the ends differ in sign."""
        changes = _sign_changes(self.s[l:])
        if changes == 0:
            return []
        crit = self.roots(l + 1, lo, hi) if changes > 1 else []
        edges = [lo] + crit + [hi]
        out = []
        for x0, x1 in zip(edges[:-1], edges[1:]):
            f0, f1 = self.log_ratio(l, x0), self.log_ratio(l, x1)
            if np.sign(f0) * np.sign(f1) < 0:
                from scipy.optimize import brentq

                out.append(brentq(lambda z: self.log_ratio(l, z), x0, x1, xtol=1e-14 * max(1.0, abs(x0), abs(x1)),
                                  rtol=4 * np.finfo(float).eps, maxiter=500))
        return out


def gaussian_delta_general(a: np.ndarray, w: np.ndarray, sigma: float):
    """An upper value of delta for one pair with any number of sign changes of the weights (Rolle
    isolation): the computed delta plus the rounding bound of its Phi terms and of each zero (found
    to within ``xtol`` by ``brentq``, so each end moves the integral by at most
    2 xtol * 2 / (sigma sqrt(2 pi)))."""
    a, w = _merge(np.asarray(a, dtype=float), np.asarray(w, dtype=LD))
    if a.size == 0:
        return LD(0)
    if _sign_changes(w) <= 1:
        return gaussian_delta_one_change(a[None, :], w[None, :], sigma)[0]
    e = _ExpSum(a, w, sigma)
    lo, hi = a[0] - TAIL * sigma, a[-1] + TAIL * sigma
    roots = e.roots(0, lo, hi)
    edges = np.r_[-np.inf, roots, np.inf]
    first_sign = e.sign(0, lo)                    # sign of D left of the first zero in the window
    total, err = LD(0), 0.0
    for k, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
        if first_sign * (-1) ** k > 0:
            x1, x2 = (lo - a) / sigma, (hi - a) / sigma
            total += np.sum(w * _normal_interval(x1, x2))
            for x in (x1, x2):
                finite = np.isfinite(x)
                err += float(_phi_error(w[None, finite], np.minimum(x, -x)[None, finite])[0]) * 2
    xtol = 1e-14 * max(1.0, abs(a[0] - TAIL * sigma), abs(a[-1] + TAIL * sigma))
    err += len(roots) * 2 * xtol * 2 / (sigma * np.sqrt(2 * np.pi))
    return np.maximum(total, 0) + LD(err)


def _normal_interval(x1, x2):
    """Phi(x2) - Phi(x1) for x1 <= x2, from the tail where both are small."""
    from scipy.special import ndtr

    upper = x1 > 0
    direct = ndtr(x2) - ndtr(x1)
    mirrored = ndtr(-x1) - ndtr(-x2)
    return np.where(upper, mirrored, direct)


# -- the one-unit mechanism and the mechanism of one shift -------------------------------------------
_EPS_CAP = 1000.0     # e^eps is capped at e^1000 (delta only grows): as in the binary search


def _pair_rows(atoms_x, p_x, atoms_xp, p_xp, c):
    """Rows of sorted atoms and signed weights P_x - c P_x' (atoms of both laws listed, coincident
    atoms kept apart: the closed forms add them)."""
    a = np.concatenate([atoms_x, atoms_xp], axis=1)
    w = np.concatenate([p_x, -c * p_xp], axis=1)
    order = np.argsort(a, axis=1, kind="stable")
    return np.take_along_axis(a, order, axis=1), np.take_along_axis(w, order, axis=1)


def _error(shift_max: np.ndarray, b: np.ndarray, noise: str, K: int) -> np.ndarray:
    """A priori bound of the rounding error of a pair's delta (``perturbation_bound`` of eta): the
    weights (two doubles and a product in long double), the atoms y/pi (relative error 2u: a kernel
    moved by e changes by a factor within e^{+-e/b} for Laplace, e^{+-41 e/sigma} within 40 sigma for
    Gaussian noise) and the recursions ((4K + 32) u in long double)."""
    move_abs = 6 * U_D * shift_max      # y/pi, and the division of the atoms by b
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = np.where(b > 0, move_abs / np.where(b > 0, b, 1.0), 0.0)
        move = np.expm1(r if noise == "laplace" else 41 * r)
    eta = np.asarray(16 * U_D + move + (4 * K + 32) * U_LD, dtype=float)
    # perturbation_bound, vectorised: 2.01 eta/(1 - eta) below 1/2, the trivial bound 1 beyond
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(eta < 0.5, 2.01 * eta / (1 - np.minimum(eta, 0.5)), 1.0)


def _scaled_laplace(A, W, b) -> np.ndarray:
    """Laplace delta of each row at its own scale b (an array): delta(a, w, b) = delta(a/b, w, 1), so
    every row with b > 0 runs in one call on the atoms divided by its b; rows with b = 0 (no noise)
    in another."""
    out = np.zeros(len(b), dtype=LD)
    pos = b > 0
    if pos.any():
        out[pos] = laplace_delta_general(A[pos] / b[pos, None], W[pos], 1.0)
    if (~pos).any():
        out[~pos] = laplace_delta_general(A[~pos], W[~pos], 0.0)
    return out


def _scaled_gaussian(A, W, b) -> np.ndarray:
    """Gaussian delta of each row at its own sigma: rows whose weights change sign at most once in one
    vectorised call (atoms divided by sigma, sigma = 1), the others one by one (Rolle isolation)."""
    out = np.zeros(len(b), dtype=LD)
    s = np.sign(W)
    nz = s != 0
    changes = np.array([int(np.count_nonzero(np.diff(r[m]) != 0)) for r, m in zip(s, nz)])
    zero = b == 0
    if zero.any():
        out[zero] = laplace_delta_general(A[zero], W[zero], 0.0)
    one = (changes <= 1) & ~zero
    if one.any():
        out[one] = gaussian_delta_one_change(A[one] / b[one, None], W[one], 1.0)
    for k in np.flatnonzero((changes > 1) & ~zero):
        out[k] = gaussian_delta_general(A[k] / b[k], W[k], 1.0)
    return out


def one_unit_delta(pi, y, yp, b, eps: float, noise: str) -> np.ndarray:
    r"""delta(eps) of the one-unit mechanism from value y to value y' (ordered), rounded up:

    .. math:: \int \big((1-\pi)K + \pi K_{y/\pi} - e^{\varepsilon}((1-\pi)K + \pi K_{y'/\pi})\big)_+

    (K the Laplace(b) or N(0, b^2) density; K_s shifted by s).  Arrays broadcast; b = 0 allowed
    (the noiseless mechanism).  A pair with one value 0 has two atoms (0 and the other value / pi)."""
    pi, y, yp, b = (np.asarray(v, dtype=float) for v in np.broadcast_arrays(pi, y, yp, b))
    shape = pi.shape
    pi, y, yp, b = pi.ravel(), y.ravel(), yp.ravel(), b.ravel()
    P = pi.size
    if P == 0:
        return np.zeros(shape)
    c = np.exp(LD(min(eps, _EPS_CAP)))
    pl = pi.astype(LD)
    two = (y == 0) | (yp == 0)
    # two atoms: 0 and s = (the value that is not 0)/pi, weights P_x - c P_x'
    s = np.where(yp == 0, y, yp) / pi
    w0 = np.where(yp == 0, (1 - pl) - c, 1 - c * (1 - pl))
    ws = np.where(yp == 0, pl, -c * pl)
    A2 = np.stack([np.minimum(s, 0.0), np.maximum(s, 0.0)], axis=1)
    W2 = np.where((s < 0)[:, None], np.stack([ws, w0], axis=1), np.stack([w0, ws], axis=1))
    zero = np.zeros(P)
    A3, W3 = _pair_rows(np.stack([zero, y / pi], axis=1), np.stack([1 - pl, pl], axis=1),
                        np.stack([zero, yp / pi], axis=1), np.stack([1 - pl, pl], axis=1), c)
    shift = np.maximum(np.abs(y), np.abs(yp)) / pi
    err = _error(shift, b, noise, 4)
    run = _scaled_laplace if noise == "laplace" else _scaled_gaussian
    out = np.zeros(P, dtype=LD)
    if two.any():
        out[two] = run(A2[two], W2[two], b[two])
    if (~two).any():
        out[~two] = run(A3[~two], W3[~two], b[~two])
    return round_up(out, err).reshape(shape)


def _mechanism_delta(x: float, h: float, b: float, noise: str) -> float:
    """delta at ratio e^x of the pair (K(. - h), K) of one kernel shifted by h (either order): the
    Laplace mechanism max(0, 1 - e^{(x - h/b)/2}) (claim ``htm.census.delta``), the Gaussian one
    Phi(h/(2s) - x s/h) - e^x Phi(-h/(2s) - x s/h) (Balle & Wang 2018, Theorem 8), 1 at b = 0."""
    if b == 0:
        return 1.0
    if noise == "laplace":
        return max(0.0, -math.expm1((x - h / b) / 2))
    from scipy.special import ndtr

    r, s = h / b, x * b / h
    return max(0.0, float(ndtr(r / 2 - s) - math.exp(min(x, 700.0)) * ndtr(-r / 2 - s)))


__all__ = ["gaussian_delta_general", "gaussian_delta_one_change", "laplace_delta_general",
           "laplace_delta_uniform", "one_unit_delta", "perturbation_bound", "round_up"]
