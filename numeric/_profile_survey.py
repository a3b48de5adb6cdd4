r"""The one-unit mechanism behind stratified, Poisson and bounded-value designs, and its calibration.

Reductions (claims of the ``ht-mechanism`` package; see :mod:`numeric.profile`):

* a stratified release is the sum of independent stratum estimates plus noise: a pair of
  neighbouring populations differs in one stratum h, and adding the other strata's estimates is
  post-processing, so delta <= delta_h (``htm.strat.mixture_bound``), with equality when the other
  estimates may be constant (``htm.strat.translation``);
* under Poisson sampling (Bernoulli sampling is Poisson sampling with pi_i = p) the other units'
  contributions are independent of unit i's, so delta is at most that of the *one-unit mechanism*

  .. math:: U = y_i s_i/\pi_i + \text{noise}, \qquad s_i \sim \text{Bernoulli}(\pi_i),

  with equality when the other units may be 0 (``htm.poisson.one_unit_mixture``); over values in
  [a, b] its supremum is at the extreme pair (b, a) or (a, b) (``htm.poisson.worst_pair_half_line``,
  ``htm.poisson.reflection``);
* under simple random sampling of n among N with every value in [a, b], the population with every
  value a against the one with a single b is, up to the constant N a, the one-unit mechanism with
  pi = q = n/N and shift (b - a) N/n, a pair of the domain: its delta is a lower value of the
  supremum (``htm.bounded.binary_pair`` for the values {a, b}).  Amplification by subsampling
  without replacement, stated for the privacy profile (Balle, Barthe & Gaboardi 2018, Table 1:
  an (eps0, delta0)-DP mechanism with respect to substitution becomes
  (ln(1 + q(e^{eps0} - 1)), q delta0)-DP; the package's claim ``htm.bounded.sensitivity`` uses its
  pure case), bounds every pair by q delta_K(eps0) with K the Laplace or Gaussian mechanism of
  sensitivity (b - a) N/n, and the pair attains it in the add direction:

  .. math:: \big((1-q)K + qK_h - e^{\varepsilon} K\big)_+ = q\,\big(K_h - e^{\varepsilon_0} K\big)_+,
            \qquad e^{\varepsilon_0} = 1 + (e^{\varepsilon} - 1)/q,

  so the lower and the upper value coincide: the pair is the worst one.  (The exact search of
  :mod:`numeric._profile_binary`, which shares no code with this module, agrees on binary data:
  tests/numeric/test_profile_survey.py and test_tables_cli.py.)

Every delta here is computed by the closed forms of :mod:`numeric._profile_kernels` on two or
three atoms, in long double, and rounded up with the a priori bound of its rounding error, so it
is never below the exact value of the pair (for a lower value of a supremum this overshoot is at
most that bound, about 1e-17).
"""
from __future__ import annotations

import math

import numpy as np

from ._common import ParameterError
from ._profile_kernels import (LD, U_D, U_LD, gaussian_delta_general, gaussian_delta_one_change,
                               laplace_delta_general, round_up)

_EPS_CAP = 1000.0     # e^eps is capped at e^1000 (delta only grows): as in _profile_binary
#: two bounds agreeing to this relative precision are reported as exact (to that precision)
AGREE = 1e-6


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


# -- components: one row per stratum (SRS) or per distinct inclusion probability (Poisson) ------------
class Components:
    """Rows of one-unit mechanisms, each the reduction of one stratum or one class of units.

    ``kind`` 0: simple random sampling with pi = n/N on values in [lo, hi] (the pair every-a /
    one-b); 1: Poisson sampling (unit i sampled with probability pi) on values in [lo, hi] (the
    one-unit mechanism at its extreme pair (hi, lo) or (lo, hi): claims
    ``htm.poisson.worst_pair_half_line`` and ``htm.poisson.reflection``; a pair of the population
    when 0 is in [lo, hi], an upper value otherwise).  ``genuine``: the row's lower value is attained by a population of the domain
    (the other units may take the values the reduction needs)."""

    def __init__(self, pi, lo, hi, kind, genuine):
        self.pi, self.lo, self.hi = (np.asarray(v, dtype=float).ravel() for v in (pi, lo, hi))
        self.kind = np.asarray(kind, dtype=np.int64).ravel()
        self.genuine = np.asarray(genuine, dtype=bool).ravel()

    def __len__(self):
        return self.pi.size

    def take(self, sel):
        return Components(self.pi[sel], self.lo[sel], self.hi[sel], self.kind[sel], self.genuine[sel])

    def bounds(self, b, eps: float, noise: str):
        """(lower, upper) of each row's delta at scale b (array or scalar); lower is NaN where no
        genuine pair is computed."""
        P = len(self)
        b = np.broadcast_to(np.asarray(b, dtype=float), (P,))
        lower = np.full(P, np.nan)
        upper = np.zeros(P)
        W = self.hi - self.lo
        srs = self.kind == 0
        if srs.any():
            s = np.flatnonzero(srs)
            d = np.maximum(one_unit_delta(self.pi[s], W[s], 0.0, b[s], eps, noise),
                           one_unit_delta(self.pi[s], 0.0, W[s], b[s], eps, noise))
            lower[s], upper[s] = d, d
        poi = ~srs
        if poi.any():
            # the one-unit supremum over [lo, hi] is at the extreme pair in one of its two orders (claims
            # htm.poisson.worst_pair_half_line, htm.poisson.reflection); a pair of the population when the
            # other units may be 0 (htm.poisson.one_unit_mixture)
            s = np.flatnonzero(poi)
            lo, hi, pi, bb = self.lo[s], self.hi[s], self.pi[s], b[s]
            d = np.maximum(one_unit_delta(pi, hi, lo, bb, eps, noise), one_unit_delta(pi, lo, hi, bb, eps, noise))
            upper[s] = d
            lower[s] = np.where((lo <= 0) & (hi >= 0), d, np.nan)
        if noise == "laplace":       # the pure region: every Laplace mechanism inside has eps0 >= shift/b
            zero = b >= self.pure_scale(eps)
            lower, upper = np.where(zero, 0.0, lower), np.where(zero, 0.0, upper)
        lower = np.where(self.genuine, lower, np.nan)
        return lower, upper

    # -- calibration --------------------------------------------------------------------------------
    def pure_scale(self, eps: float) -> np.ndarray:
        """A Laplace scale from which every row's delta is 0 exactly, rounded up (1e-12 relative); inf
        at eps = 0 and for Poisson rows whose range holds 0 strictly inside.  Amplification by
        subsampling of the pure Laplace mechanism (eps0 >= shift/b, e^{eps0} = 1 + (e^eps - 1)/q):
        without replacement and substitution for SRS rows (shift (hi - lo)/q; claims
        ``profile.amplification.generic_scale``, ``htm.bounded.sensitivity``), Poisson sampling and
        add/remove for a Poisson row with one end 0 (the one-unit pair 0 <-> M, shift M/pi; Balle,
        Barthe & Gaboardi 2018, Table 1)."""
        if eps <= 0:
            return np.full(len(self), np.inf)
        q = self.pi
        e0 = np.where(eps <= 1, np.log1p(np.expm1(min(eps, 1.0)) / q),
                      eps - np.log(q) + np.log1p((q - 1) * np.exp(-min(eps, 700.0))))
        W = self.hi - self.lo
        M = np.maximum(np.abs(self.lo), np.abs(self.hi))
        edge = (self.lo == 0) | (self.hi == 0)
        shift = np.where(self.kind == 0, W, np.where(edge, M, np.inf)) / q
        return shift / e0 * (1 + 1e-12)

    def closed_scale(self, eps: float, delta: float) -> np.ndarray:
        """The root of q delta_Lap(eps0; shift/b) = delta, the Laplace scale where the worst pair is
        0 <-> shift (exact rows): shift/(eps0 - 2 ln(1 - delta/q)); 0 where delta >= q; NaN elsewhere."""
        q = self.pi
        e0 = np.log1p(np.expm1(min(eps, 700.0)) / q)
        W = self.hi - self.lo
        M = np.maximum(np.abs(self.lo), np.abs(self.hi))
        closed = (self.kind == 0) | (self.lo == 0) | (self.hi == 0)
        shift = np.where(self.kind == 0, W, M) / q
        with np.errstate(divide="ignore", invalid="ignore"):
            b = shift / (e0 - 2 * np.log1p(-np.minimum(delta / q, 1.0)))
        b = np.where(delta >= q, 0.0, b)
        return np.where(closed, b, np.nan)

    def calibrate(self, eps: float, delta: float, noise: str, rtol: float = 1e-9):
        """Per row: (b_up, b_low, exact) with b_up the smallest scale (to rtol) whose *upper* value of
        delta is <= delta, checked at the value returned (so the exact delta there meets the target),
        and b_low a scale below which the row's *lower* value exceeds delta (NaN where the row has no
        genuine pair): the exact smallest scale lies in [b_low, b_up]."""
        P = len(self)
        b_up = self._smallest(lambda bb, sel: self.take(sel).bounds(bb, eps, noise)[1], eps, delta, noise, rtol)
        has = self.genuine & ((self.kind == 0) | ((self.lo <= 0) & (self.hi >= 0)))
        b_low = np.full(P, np.nan)
        if has.any():
            sub = self.take(has)
            b_low[has] = sub._smallest(lambda bb, sel: np.nan_to_num(sub.take(sel).bounds(bb, eps, noise)[0], nan=0.0),
                                       eps, delta, noise, rtol, lower_end=True)
        exact = (~np.isnan(b_low)) & (b_low >= b_up * (1 - AGREE))
        return b_up, b_low, exact

    def _smallest(self, f, eps, delta, noise, rtol, lower_end=False):
        """Vectorised bracketing in log b of the smallest b with f(b) <= delta, f non-increasing in b.
        Returns the upper end of each final bracket (f checked <= delta there), or the lower end (f
        checked > delta there) with ``lower_end``."""
        P = len(self)
        idx = np.arange(P)
        out = np.zeros(P)
        at0 = f(np.zeros(P), idx) <= delta
        todo = np.flatnonzero(~at0)
        if todo.size == 0:
            return out
        pure = self.pure_scale(eps)[todo] if noise == "laplace" else np.full(todo.size, np.inf)
        guess = self.closed_scale(eps, delta)[todo] if noise == "laplace" else np.full(todo.size, np.nan)
        lo = np.where(np.isfinite(guess) & (guess > 0), guess * (1 - 1e-7), np.nan)
        hi = np.where(np.isfinite(guess) & (guess > 0), guess * (1 + 1e-7), np.nan)
        ok = ~np.isnan(lo)
        if ok.any():
            t = todo[ok]
            fine = (f(hi[ok], t) <= delta) & (f(lo[ok], t) > delta)
            bad = np.flatnonzero(ok)[~fine]
            lo[bad], hi[bad] = np.nan, np.nan
        wide = np.flatnonzero(np.isnan(lo))
        if wide.size:
            h = np.minimum(np.ones(wide.size), pure[wide])
            t = todo[wide]
            for _ in range(2100):
                v = f(h, t) > delta
                if not v.any():
                    break
                cap = v & (h >= pure[wide])
                if cap.any():         # the pure scale: delta = 0 exactly there (Laplace)
                    pass
                h = np.where(v & ~cap, np.minimum(h * 16, pure[wide]), h)
                if (v & ~cap).sum() == 0:
                    break
                if np.any(h > 1e300):
                    raise ParameterError("delta", f"delta must be at least the rounding bound of the computation "
                                         f"(no scale up to 1e300 has a certified delta <= {delta!r}; Gaussian noise "
                                         "has no pure region)")
            l = h.copy()
            for _ in range(2100):
                v = f(l, t) <= delta
                if not v.any():
                    break
                l = np.where(v, l / 16, l)
                if np.any(l < 1e-300):
                    l = np.where(l < 1e-300, 0.0, l)
                    break
            lo[wide], hi[wide] = l, h
        while True:
            act = np.flatnonzero((hi > lo * (1 + rtol)) & (lo > 0))
            if act.size == 0:
                break
            mid = np.sqrt(lo[act] * hi[act])
            v = f(mid, todo[act]) <= delta
            hi[act[v]] = mid[v]
            lo[act[~v]] = mid[~v]
        out[todo] = lo if lower_end else hi
        return out
