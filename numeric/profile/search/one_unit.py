r"""The one-unit mechanism behind stratified, Poisson and bounded-value designs: the rows of the reductions
and their bounds of delta (their calibration is in :mod:`numeric.profile.calibration`).

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
  without replacement, stated for the privacy profile (claim ``htm.srs.amplification``, citing Balle,
  Barthe & Gaboardi 2018, Thm 9: with respect to substitution, delta_{M o S}(ln(1 + q(e^{eps0} - 1)))
  <= q delta_M(eps0), so an (eps0, delta0)-DP mechanism on the sample gives an
  (ln(1 + q(e^{eps0} - 1)), q delta0)-DP release; ``htm.bounded.sensitivity`` uses its pure case),
  bounds every pair by q delta_K(eps0) with K the Laplace or Gaussian mechanism of
  sensitivity (b - a) N/n, and the pair attains it in the add direction:

  .. math:: \big((1-q)K + qK_h - e^{\varepsilon} K\big)_+ = q\,\big(K_h - e^{\varepsilon_0} K\big)_+,
            \qquad e^{\varepsilon_0} = 1 + (e^{\varepsilon} - 1)/q,

  so the lower and the upper value coincide: the pair is the worst one.  (The exact search of
  :mod:`numeric.profile.search.binary`, which shares no code with this module, agrees on binary data:
  tests/numeric/test_profile_survey.py and test_tables_cli.py.)

Every delta here is computed by the closed forms of :mod:`numeric.profile.kernels` on two or
three atoms, in long double, and rounded up with the a priori bound of its rounding error, so it
is never below the exact value of the pair (for a lower value of a supremum this overshoot is at
most that bound, about 1e-17).
"""
from __future__ import annotations

import numpy as np

from ..kernels import one_unit_delta


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

    # -- the pure region --------------------------------------------------------------------------------
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

    # -- calibration (numeric.profile.calibration) ------------------------------------------------------
    def closed_scale(self, eps: float, delta: float) -> np.ndarray:
        """:func:`numeric.profile.calibration.closed_scale` of these rows."""
        from ..calibration import closed_scale
        return closed_scale(self, eps, delta)

    def calibrate(self, eps: float, delta: float, noise: str, rtol: float = 1e-9):
        """:func:`numeric.profile.calibration.calibrate_rows` of these rows: (b_up, b_low, exact) per row."""
        from ..calibration import calibrate_rows
        return calibrate_rows(self, eps, delta, noise, rtol)
