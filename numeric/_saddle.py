"""The pmf and upper tail of a sum of independent Bernoulli groups at a few points, by Fourier inversion
at an exponential tilt, in a cost that does not grow with the number of records.

B = sum_g Bin(c_g, r_g) (a few groups; in the aggregated randomized response Bin(a, p), Bin(b, q) and
Bin(m, 1/2), the first given as a - Bin(a, q), a flipped group, so that every probability is exact).  For a tilt
theta the tilted law b_theta(s) = b(s) e^(theta s) / M(theta), M(theta) = E e^(theta B), is again such a
sum, of Bin(c_g, r_g(theta)) with r(theta) = r e^theta / (1 - r + r e^theta), and its characteristic
function is known in closed form:

    phi_theta(w) = prod_g (1 + r_g(theta) (e^(iw) - 1))^(c_g),
    |1 + r (e^(iw) - 1)|^2 = 1 - 4 r (1 - r) sin^2(w/2),   arg = atan2(r sin w, 1 - 2 r sin^2(w/2)).

The trapezoid rule with P nodes on [-pi, pi] is the aliased sum, exactly:

    (1/P) sum_{j=0}^{P-1} phi_theta(w_j) e^(-i w_j x) = sum_m b_theta(x + m P),        w_j = 2 pi j / P,
    (1/P) sum_j phi_theta(w_j) K(w_j) e^(-i w_j x) = sum_m h_theta(x + m P),       K(w) = 1/(1 - e^(-theta - iw)),

with h_theta(x) = sum_{j >= 0} e^(-theta j) b_theta(x + j) (theta > 0), so that

    b(x) = M(theta) e^(-theta x) b_theta(x),     G(x) = P(B >= x) = M(theta) e^(-theta x) h_theta(x).

With theta near the saddle point of x (the tilted mean at x), b_theta is a bump of standard deviation
sqrt(V_theta) around x, so a period P of a few tens of standard deviations makes the aliased terms
negligible (Bernstein's inequality for the tilted sum) and |phi_theta(w)| <= exp(-2 V_theta w^2 / pi^2)
(sin^2(w/2) >= (w/pi)^2 on [-pi, pi]) makes every frequency past the first few dozen negligible: the
sums have a few dozen terms whatever the number of records.  Each returned value carries a bound on its
relative error: the aliased and the truncated terms bounded as above (inequalities), plus an estimate of
the rounding (a few units in the last place per term, times the magnitudes of the logarithms and phases
summed; the tests measure the actual error against mpmath at 40 digits and find it far below).
"""
from __future__ import annotations

import math

import numpy as np

_U = 2.0**-52
_L_ALIAS = 36.0          # the aliased mass is below about e^-36 times the tilted bump's scale
_L_TRUNC = 36.0          # ... and so are the frequencies left out
_SAFETY = 16.0           # the rounding estimate is multiplied by this


def _bernstein_tail(a, var):
    """P(X - EX >= a) <= exp(-a^2 / (2 (var + a/3))) for a sum of independent [0, 1] variables, a >= 0."""
    a = np.maximum(a, 0.0)
    return np.exp(-a * a / (2.0 * (var + a / 3.0)))


def _signs(r, flip):
    """+1 for a group Bin(c, r), -1 for a flipped group c - Bin(c, r) (the law of Bin(c, 1 - r), given through
    r when 1 - r is not a float: Bin(c, p) as c - Bin(c, q) keeps p = 1 - q exact)."""
    return np.ones(len(r)) if flip is None else np.where(np.asarray(flip, dtype=bool), -1.0, 1.0)


def tilted(counts, r, theta, flip=None):
    """(r(theta) (L, G), ln M(theta) (L,), mean (L,), variance (L,)) of the tilted law at tilts theta (L,).
    A flipped group c - X is tilted through X at -theta: ln E e^(theta (c - X)) = theta c + ln E e^(-theta X)."""
    sg = _signs(r, flip)
    e = np.expm1(theta[:, None] * sg)
    rt = r * (1.0 + e) / (1.0 + r * e)
    lnM = np.sum(counts * (np.log1p(r * e) + np.where(sg < 0, theta[:, None], 0.0)), axis=1)
    mean = np.sum(counts * np.where(sg < 0, 1.0 - rt, rt), axis=1)
    var = np.sum(counts * rt * (1.0 - rt), axis=1)
    return rt, lnM, mean, var


def mean_tilt(counts, r, theta, flip=None):
    """The mean of the tilted law at tilts theta (L,)."""
    sg = _signs(r, flip)
    e = np.expm1(np.asarray(theta, dtype=float)[:, None] * sg)
    rt = r * (1.0 + e) / (1.0 + r * e)
    return np.sum(counts * np.where(sg < 0, 1.0 - rt, rt), axis=1)


class Spectrum:
    """The characteristic function of the tilted laws at their first J frequencies, for evaluation at
    any points within ``allow`` of each law's tilted mean (the period is chosen for that distance; a point
    farther out is still bounded, with the actual distance)."""

    def __init__(self, counts, r, theta, allow, flip=None):
        counts = np.asarray(counts, dtype=float)
        self.theta = theta = np.asarray(theta, dtype=float)
        self.total = counts.sum(axis=1)
        sg = _signs(r, flip)
        _, self.lnM, self.mean, self.var = rt_lnM_mean_var = tilted(counts, r, theta, flip)
        rt, var = rt_lnM_mean_var[0], self.var
        # the period: the tilted bump and (for G) the left tail e^(-theta j) of h both below about e^-_L_ALIAS
        self.reach = _L_ALIAS / 3.0 + np.sqrt((_L_ALIAS / 3.0) ** 2 + 2.0 * _L_ALIAS * var)
        self.P = P = np.ceil(np.maximum(2.0 * (self.reach + allow),
                                        self.reach + allow + _L_ALIAS / np.maximum(theta, 1e-300)) + 2.0)
        # frequencies j = 1..J: |phi(w_j)| <= exp(-a j^2), a = 8 V / P^2; the rest below e^-_L_TRUNC
        self.a = a = 8.0 * var / (P * P)
        J = int(np.max(np.ceil(np.sqrt(_L_TRUNC / np.maximum(a, 1e-300)))))
        self.J = J = max(1, min(J, 4096))
        self.bad = ~np.isfinite(theta) | (theta <= 0) | (var < 1.0) | (J > (P - 1.0) / 2.0)  # P - j pairs j
        j = np.arange(1, J + 1, dtype=float)
        self.w = w = 2.0 * math.pi * j[None, :] / P[:, None]     # (L, J)
        s2 = np.sin(0.5 * w) ** 2
        sw = np.sin(w)
        re = np.zeros_like(w)
        im = np.zeros_like(w)
        mag = np.zeros_like(w)
        for g in range(counts.shape[1]):
            c = counts[:, g][:, None]
            if not np.any(c):
                continue
            rg = rt[:, g][:, None]
            lr = 0.5 * np.log1p(-4.0 * rg * (1.0 - rg) * s2)
            ar = np.arctan2(rg * sw, 1.0 - 2.0 * rg * s2)
            re += c * lr
            if sg[g] < 0:                                       # phi of c - X: e^(iwc) times phi_X(-w)
                im += c * (w - ar)
                mag += c * (np.abs(lr) + np.abs(ar) + w)
            else:
                im += c * ar
                mag += c * (np.abs(lr) + np.abs(ar))
        self.amp = np.exp(re)                                    # |phi(w_j)|
        self.im, self.mag = im, mag
        # G: K(w) = 1/(1 - e^(-theta) e^(-iw)); 1 - e^(-theta) cos w = -expm1(-theta) + 2 e^(-theta) sin^2(w/2)
        et = np.exp(-theta)[:, None]
        dr = -np.expm1(-theta)[:, None] + 2.0 * et * s2
        di = et * sw
        den = dr * dr + di * di
        self.kr, self.ki = dr / den, -di / den
        self.kmag = np.sqrt(1.0 / den)                           # |K(w_j)| <= K0
        self.K0 = 1.0 / -np.expm1(-theta)
        # truncation: (2/P) sum_{j > J} exp(-a j^2) <= (2/P) e^(-a (J+1)^2) / (1 - e^(-2 a (J+1)))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            self.trunc = 2.0 / P * np.exp(-a * (J + 1) ** 2) / -np.expm1(-2.0 * a * (J + 1))

    def at(self, x0, C, tails=True):
        """ln b(x), its relative error bound, and (``tails``) ln G(x), its bound, at the C consecutive integer
        points x = x0 .. x0 + C - 1 of each law (x0 (L,)).  Returns a dict of arrays of shape (L, C): ``lb``,
        ``eb`` (ln b and the bound on the relative error of b), ``lbt``, ``ebt`` (the same for b_theta, whose
        ratios at neighbouring points give b(x - 1)/b(x) = e^theta b_theta(x - 1)/b_theta(x) without the large
        ln M - theta x) and ``lG``, ``eG``; an error bound is +inf where the method does not apply (the caller
        then uses another)."""
        x0 = np.asarray(x0, dtype=float)
        k = np.arange(C, dtype=float)
        xs = x0[:, None] + k[None, :]
        theta, P, var, amp, w = self.theta, self.P, self.var, self.amp, self.w
        dev = np.max(np.abs(xs - self.mean[:, None]), axis=1)
        # Re and Im of phi(w_j) e^(-i w_j x), x = x0 + k: the phase at x0 once, then cos(w k), sin(w k) by the
        # Chebyshev recurrence (it runs on the angle whose cosine is the rounded cos w, off by about u/w: the
        # phase drifts by k u/w, plus a rounding that grows like k^2 u)
        alpha = self.im - w * x0[:, None]
        ca, sa = amp * np.cos(alpha), amp * np.sin(alpha)
        cw, sw = np.cos(w), np.sin(w)
        cosk = np.empty((C,) + w.shape)
        sink = np.empty((C,) + w.shape)
        cosk[0], sink[0] = 1.0, 0.0
        if C > 1:
            cosk[1], sink[1] = cw, sw
        for i in range(2, C):
            cosk[i] = 2.0 * cw * cosk[i - 1] - cosk[i - 2]
            sink[i] = 2.0 * cw * sink[i - 1] - sink[i - 2]
        # cos(alpha - w k) = cos a cos wk + sin a sin wk, sin(alpha - w k) = sin a cos wk - cos a sin wk
        re_t = np.einsum("lj,clj->lc", ca, cosk) + np.einsum("lj,clj->lc", sa, sink)
        bsum = (1.0 + 2.0 * re_t) / P[:, None]
        # rounding: each term within u (16 + 4 (|ln phi| + w |x|) + 4 k^2 + k/w) of |phi|, times the safety factor
        xmax = np.max(np.abs(xs), axis=1)
        term = amp * (16.0 + 4.0 * (self.mag + w * xmax[:, None]) + 4.0 * C * C + C / w)
        round_b = _SAFETY * _U * (2.0 * np.sum(term, axis=1) + 4.0) / P
        # aliasing: sum_{m != 0} b_theta(x + mP) <= P(|B_theta - mean| >= P - dev), two sides
        al_b = 2.0 * _bernstein_tail(P - dev, var)
        with np.errstate(divide="ignore", invalid="ignore"):
            eb_theta = (round_b + self.trunc + al_b)[:, None] / bsum
            lbt = np.log(bsum)
        eb_theta = np.where(bsum > 0, eb_theta, np.inf)
        lnF = self.lnM[:, None] - theta[:, None] * xs            # ln M - theta x
        eF = _SAFETY * _U * (np.abs(self.lnM)[:, None] + np.abs(theta[:, None] * xs) + 1.0)
        bad = self.bad[:, None] | (eb_theta >= 0.5)
        ebt = np.where(bad, np.inf, eb_theta)
        eb = np.where(bad, np.inf, eb_theta * 1.5 + eF * 2.0)   # e^x - 1 <= 2x for the exponent part
        out = dict(lb=lbt + lnF, eb=eb, lbt=lbt, ebt=ebt)
        if not tails:
            return out
        # Re(K phi e^(-iwx)) = kr cos(alpha - wk) - ki sin(alpha - wk)
        kr, ki = self.kr, self.ki
        h_t = (np.einsum("lj,clj->lc", kr * ca - ki * sa, cosk)
               + np.einsum("lj,clj->lc", kr * sa + ki * ca, sink))
        K0 = self.K0
        hsum = (K0[:, None] + 2.0 * h_t) / P[:, None]
        round_h = _SAFETY * _U * (2.0 * np.sum(term * self.kmag * 2.0, axis=1) + 4.0 * K0) / P
        # aliasing of h: m >= 1: h(x + mP) <= P(B_theta >= x + mP), at most total/P + 1 such terms, each at most
        # the first; m <= -1: split at j = mP - reach, the terms past it sum to at most e^(-theta (mP - reach)), and
        # those before it, over every m together, to at most P(B_theta < x - reach) / (1 - e^(-theta P))
        nterm = self.total / P + 1.0
        al_h = nterm * _bernstein_tail(P - dev, var) \
            + (_bernstein_tail(self.reach - dev, var) + np.exp(-theta * (P - self.reach))) / -np.expm1(-theta * P)
        with np.errstate(divide="ignore", invalid="ignore"):
            eh_theta = (round_h + self.trunc * K0 + al_h)[:, None] / hsum
            out["lG"] = np.log(hsum) + lnF
        bad_h = self.bad[:, None] | ~(hsum > 0) | ~(eh_theta < 0.5)
        out["eG"] = np.where(bad_h, np.inf, eh_theta * 1.5 + eF * 2.0)
        return out


def at_points(counts, r, theta, x0, C, tails=True, flip=None):
    """:meth:`Spectrum.at` of the laws (counts (L, G) of groups with probabilities r (G,), ``flip`` as in
    :func:`tilted`) tilted by theta (L,) > 0 (near the saddle point of the points x0 .. x0 + C - 1)."""
    x0 = np.asarray(x0, dtype=float)
    mean = tilted(np.asarray(counts, dtype=float), r, np.asarray(theta, dtype=float), flip)[2]
    allow = np.maximum(np.abs(x0 - mean), np.abs(x0 + C - 1 - mean))
    return Spectrum(counts, r, theta, allow, flip).at(x0, C, tails)
