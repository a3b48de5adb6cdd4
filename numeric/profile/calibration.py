"""Noise calibration: the smallest noise scale for a target (eps, delta), the epsilon of a scale, and the
generic scale of amplification by subsampling.

:func:`calibrate_scale` brackets the smallest scale whose certified delta meets the target
(delta(eps) is non-increasing in the scale, ``profile.scale_monotone``) and returns a :class:`Scale` for
the one-unit reductions (stratified and Poisson designs, values in an interval); the rows of those
reductions are calibrated together (``calibrate_rows``), from the closed form of their worst pair
(``closed_scale``).  :func:`epsilon_for_delta` inverts the profile in epsilon, and
:func:`amplified_laplace_scale` gives the generic route.

Source: ``ht-mechanism`` (000), Abstract (which noise scale for a given (eps, delta)), Section 1.4.
"""
from __future__ import annotations

import math

import numpy as np

from .._common import ParameterError, provenance, require, tolerance
from .common import _CLAIMS, _check, _delta_target, _epsilons, _scale, _survey
from .designs import SRS, Bernoulli, ExplicitDesign, Poisson, Stratified
from .domains import BinaryDomain
from .search import _family, _parts, _sensitivity, _solve, _survey_solve
from .search import binary as _bin

#: two bounds agreeing to this relative precision are reported as exact (to that precision)
AGREE = 1e-6


@provenance("htm.strat.translation", "htm.bounded.sensitivity", "htm.bounded.binary_pair", "htm.srs.amplification")
class Scale(float):
    """A calibrated noise scale: the float is the upper value (it meets the target); ``lower`` is a
    scale below which a population of the domain breaks the target (``nan`` when none was computed),
    ``exact`` says the two agree to 1e-6 relative, ``stratum`` the stratum (or unit) that sets it,
    and ``note`` how it was obtained.

    Source: ht-mechanism (000), Abstract (which scale reaches a given (eps, delta)); claims
    htm.strat.translation, htm.bounded.sensitivity, htm.bounded.binary_pair."""

    def __new__(cls, value, lower=math.nan, exact=True, stratum=None, note=""):
        obj = float.__new__(cls, value)
        obj.lower, obj.exact, obj.stratum, obj.note = float(lower), bool(exact), stratum, note
        return obj

    @property
    def upper(self) -> float:
        return float(self)

    def __reduce__(self):
        return (Scale, (float(self), self.lower, self.exact, self.stratum, self.note))


def _pure_scale(design, domain, eps: float) -> float:
    """The smallest scale (a double, to a few ulps) from which Laplace noise makes delta(eps) = 0
    exactly: the amplified scale of ``profile.amplification.generic_scale`` for SRS and Bernoulli on
    binary data, Delta/eps otherwise (the Laplace mechanism with the largest shift of an atom: pure,
    but without the gain of the sampling, so not always the smallest pure scale); ``inf`` at eps = 0."""
    from fractions import Fraction

    if eps <= 0:
        return math.inf
    if isinstance(domain, BinaryDomain) and not isinstance(design, ExplicitDesign):
        return _bin.pure_scale(_family(design), eps)
    delta = _sensitivity(design, domain)
    b = float(delta / Fraction(eps))
    while Fraction(eps) * Fraction(b) < delta:
        b = float(np.nextafter(b, math.inf))
    return b


def _smallest(f, lo: float, hi: float, rtol: float, log: bool) -> float:
    """For non-increasing f with f(lo) > 0 >= f(hi): a point v with f(v) <= 0 checked, and the sign
    change within a relative distance rtol below it (``brentq``, in log space if ``log``).  The ends
    are evaluated at lo and hi themselves (exp(ln hi) may differ from hi by an ulp, which matters
    where f jumps at hi: the start of the pure region), and the point returned is the one checked."""
    from scipy.optimize import brentq

    a, c = (math.log(lo), math.log(hi)) if log else (lo, hi)

    def point(u):
        return hi if u >= c else lo if u <= a else (math.exp(u) if log else u)

    def g(u):
        return f(point(u))

    tol = rtol if log else rtol * max(abs(hi), 1e-300)
    r = brentq(g, a, c, xtol=tol / 4, rtol=4 * np.finfo(float).eps)
    v = min(r + tol / 2, c)
    while g(v) > 0:                       # brentq's point may sit just below the sign change
        v = min(v + tol / 2, c)
    return point(v)


_B_MAX = 1e300       # the largest noise scale tried: delta there is the rounding bound of the computation


def _excess(design, domain, b: float, eps: float, noise: str, target: float) -> float:
    """(upper value of delta_b(eps)) - target; pairs whose bound is below target/2 are not evaluated,
    so the sign is exact, and the value too wherever delta > target/2."""
    return _solve(design, domain, b, eps, noise, floor=target / 2).delta - target


@provenance(*_CLAIMS, "profile.scale_monotone")
def epsilon_for_delta(design, domain, b, delta, noise="laplace", rtol=1e-9) -> float:
    """The smallest eps >= 0 with delta(eps) <= delta at scale b (delta(eps) is non-increasing),
    never below it.

    Returned as the upper end of a bracket of relative width ``rtol``, at which the upper value of
    delta (see :func:`privacy_profile`) is checked to be <= ``delta``: the exact delta there is at
    most ``delta``.  The bracket's far end is Delta/b for Laplace noise on binary data (the
    Laplace mechanism with the Horvitz-Thompson sensitivity Delta = 1/pi: delta = 0 from there on),
    otherwise found by doubling up to eps = 1000; a ``delta`` that is not reached there raises a
    ``ValueError`` naming ``delta``.

    Source: ht-mechanism (000), Section 1.4 (DP(eps, delta) of the mechanism).

    >>> e = epsilon_for_delta(SRS(4, 4), BinaryDomain(4), 1.0, 0.2)  # census: 1 - 2 ln(1 - 0.2)... inverted
    >>> abs(e - (1 + 2 * math.log(0.8))) < 1e-8
    True
    """
    _check(design, domain, noise)
    b = _scale("b", b)
    target = _delta_target(delta)
    rtol = tolerance("rtol", rtol)

    def g(e):
        if _survey(design, domain):
            return _survey_solve(design, domain, b, e, noise).delta - target
        return _excess(design, domain, b, e, noise, target)

    if g(0.0) <= 0:
        return 0.0
    binary = isinstance(domain, BinaryDomain) and isinstance(design, (SRS, Bernoulli))
    hi = _family(design).spacing / b if binary and noise == "laplace" else 1.0
    while g(hi) > 0:
        require(hi < 1000.0, "delta", f"reachable: the certified delta stays above {target!r} up to eps = 1000")
        hi = min(2 * hi, 1000.0)
    return _smallest(g, 0.0, hi, rtol, log=False)


@provenance(*_CLAIMS, "profile.scale_monotone", "htm.strat.translation", "htm.poisson.one_unit_mixture",
            "htm.bounded.binary_pair", "htm.srs.amplification")
def calibrate_scale(design, domain, epsilon, delta, noise="laplace", rtol=1e-9) -> float:
    """The smallest noise scale b (sigma for Gaussian noise) with delta(eps) <= delta, never below it.

    delta(eps) is non-increasing in the scale (``profile.scale_monotone``: Laplace(b2) is
    Laplace(b1) plus independent noise when b1 <= b2).  Returns 0.0 when the estimate without noise
    already meets (eps, delta) -- a verdict that holds only while the sample itself stays secret,
    since the randomness of the sampling is then the only protection; otherwise the upper end of a
    bracket of relative width ``rtol`` at which the upper value of delta (see
    :func:`privacy_profile`) is checked to be <= ``delta``, so the returned scale meets the target
    exactly.

    Pure region (Laplace noise, eps > 0).  From the pure scale on -- the generic scale of
    :func:`amplified_laplace_scale` for SRS and Bernoulli sampling on binary data (claim
    ``profile.amplification.generic_scale``), Delta/eps for an explicit design or a finite domain
    (Delta = max_i (largest change of x_i)/pi_i: the Laplace mechanism, claim ``htm.census.delta``,
    which ignores what the sampling adds, so the pure region may start lower), each rounded up until
    certified -- delta(eps) is exactly 0: the mechanism is pure eps-DP there, and
    :func:`privacy_profile` and :func:`worst_pair` return 0.0.  The search never goes above it, so
    every target delta > 0 is met, at the latest by the pure scale itself (the answer for a target
    below the rounding bound of the computation, about 1e-16 to 1e-15, e.g. 1e-30: the smaller
    scales have certified upper values above the target).  Only without a pure region (Gaussian
    noise, or eps = 0) is a target below what the computation can certify (the upper value of delta
    at b = 1e300, where the exact delta is ~0, is the rounding bound) refused with a ``ValueError``
    naming ``delta``, before any search.

    Stratified and Poisson designs, bounded values: a :class:`Scale` (a float, the upper value, which
    meets the target) with ``.lower`` (a scale below which a population of the domain breaks the
    target; ``nan`` when none is computed), ``.exact`` (the two agree to 1e-6), ``.stratum`` (the
    stratum, or the Poisson unit, that sets it) and ``.note``.  The scale of a stratified design is
    the largest of its strata's: exact when every other stratum may be constant (claim
    ``htm.strat.translation``: binary data with every stratum total possible, values in an interval
    under SRS, or 0 among the values), an upper value otherwise.

    Source: ht-mechanism (000), Abstract (which Laplace scale reaches a given (eps, delta)).

    >>> st = calibrate_scale(Stratified([SRS(1000, 50), Bernoulli(300, 0.1)]), BinaryDomain(1300), 1.0, 1e-6)
    >>> round(float(st), 4), st.exact, st.stratum
    (5.6089, True, 0)
    >>> b = calibrate_scale(SRS(4, 4), BinaryDomain(4), 0.5, 0.1)  # census: Delta/(eps - 2 ln(1 - delta))
    >>> abs(b - 1 / (0.5 - 2 * math.log(0.9))) < 1e-8
    True
    """
    _check(design, domain, noise)
    eps = _epsilons(epsilon)
    require(eps.ndim == 0, "epsilon", "a scalar")
    eps = float(eps)
    target = _delta_target(delta)
    rtol = tolerance("rtol", rtol)
    if _survey(design, domain):
        return _survey_calibrate(design, domain, eps, target, noise, rtol)

    def f(b):
        return _excess(design, domain, b, eps, noise, target)

    if _solve(design, domain, 0.0, eps, "laplace", floor=target).delta <= target:     # b = 0: no noise
        return 0.0
    top = _pure_scale(design, domain, eps) if noise == "laplace" else math.inf
    if math.isinf(top):              # no pure region: the target must be certifiable below 1e300
        top = _B_MAX
        require(f(_B_MAX) <= 0, "delta", f"at least the rounding bound of the computation: even at scale "
                f"{_B_MAX:g} the certified delta is {f(_B_MAX) + target:.3g} > {target!r}"
                + (" (Gaussian noise has no pure region)" if noise == "gaussian" else
                   " (at eps = 0 no Laplace scale is pure)"))
    hi = min(1.0, top)
    while f(hi) > 0:                 # f(top) = -target: exactly 0 in the pure region
        hi = min(hi * 16, top)
    lo = hi
    while f(lo) <= 0:
        lo /= 16
        if lo < 1e-300:
            return lo * 16
    return _smallest(f, lo, min(hi, 16 * lo), rtol, log=True)


@provenance("profile.amplification.generic_scale", "htm.srs.amplification")
def amplified_laplace_scale(design, domain, epsilon) -> float:
    r"""The Laplace scale of the generic route: the Laplace mechanism on the sample, made eps-DP by
    amplification by subsampling.

    .. math:: b = \Delta \big/ \ln\!\big(1 + (e^{\varepsilon} - 1)/q\big), \qquad
              \Delta = \max |x_i - x'_i| / \pi_i,

    q = n/N (SRS: Balle, Barthe & Gaboardi 2018, Thm 9, sampling without replacement and substitution,
    claim ``htm.srs.amplification``) or
    p (Bernoulli on binary data: x_i = 0 adds nothing when unit i is sampled, so the amplification
    has the same form).  It gives delta = 0; the exact calibration uses the delta allowed.

    Source: ht-mechanism (000), Abstract (the question); the amplification theorem is external.

    >>> round(amplified_laplace_scale(SRS(100, 10), BinaryDomain(100), 1.0), 6)  # 10/ln(1 + 10(e - 1))
    3.447709
    """
    _check(design, domain, "laplace")
    require(isinstance(design, (SRS, Bernoulli)), "design", "an SRS or Bernoulli design (the generic bound is "
            "stated for them)")
    require(isinstance(domain, BinaryDomain), "domain", "a BinaryDomain (the generic bound is stated on binary data)")
    e = _scale("epsilon", epsilon, allow_zero=True)
    q = design.n / design.N if isinstance(design, SRS) else design.p
    if e == 0:
        return math.inf                   # ln(1 + 0) = 0: no finite scale gives eps = 0
    # ln(1 + (e^eps - 1)/q) = eps - ln q + ln(1 + (q - 1) e^{-eps}) for eps > 1 (no overflow of e^eps)
    log_term = math.log1p(math.expm1(e) / q) if e <= 1 else e - math.log(q) + math.log1p((q - 1) * math.exp(-e))
    return (1.0 / q) / log_term


def _survey_calibrate(design, domain, eps: float, delta: float, noise: str, rtol: float) -> "Scale":
    P = _parts(design, domain)
    ups, lows, who = [], [], []
    if len(P.rows):
        b_up, b_low, _ = P.rows.calibrate(eps, delta, noise, rtol)
        ups += list(b_up)
        lows += list(b_low)
        who += [(int(h), int(u)) for h, u in zip(P.row_stratum, P.row_unit)]
    for h, d, dom in P.searches:
        bh = calibrate_scale(d, dom, eps, delta, noise=noise, rtol=rtol)
        ups.append(float(bh))
        lows.append(float(bh) / (1 + rtol) if P.others_ok[h] else math.nan)
        who.append((h, -1))
    k = int(np.argmax(ups))
    b = float(ups[k])
    finite = [v for v in lows if not math.isnan(v)]
    lower = max(finite) if finite else math.nan
    exact = (not math.isnan(lower)) and lower >= b * (1 - 1e-6) - 1e-300
    h, u = who[k]
    label = h if isinstance(design, Stratified) else (u if isinstance(design, Poisson) else None)
    how = "exact: lower and upper values agree" if exact else "an upper value (the lower value is a scale below " \
        "which a population of the domain breaks the target)"
    return Scale(b, lower, exact, label, f"{P.note}; {how}")


# -- the rows of the one-unit reductions (numeric.profile.search.one_unit), calibrated together ------
def closed_scale(rows, eps: float, delta: float) -> np.ndarray:
    """The root of q delta_Lap(eps0; shift/b) = delta, the Laplace scale where the worst pair is
    0 <-> shift (exact rows): shift/(eps0 - 2 ln(1 - delta/q)); 0 where delta >= q; NaN elsewhere.
    e^{eps0} = 1 + (e^eps - 1)/q inverts the amplified epsilon of claim ``htm.srs.amplification``
    (the algebra is checked there)."""
    q = rows.pi
    e0 = np.log1p(np.expm1(min(eps, 700.0)) / q)
    W = rows.hi - rows.lo
    M = np.maximum(np.abs(rows.lo), np.abs(rows.hi))
    closed = (rows.kind == 0) | (rows.lo == 0) | (rows.hi == 0)
    shift = np.where(rows.kind == 0, W, M) / q
    with np.errstate(divide="ignore", invalid="ignore"):
        b = shift / (e0 - 2 * np.log1p(-np.minimum(delta / q, 1.0)))
    b = np.where(delta >= q, 0.0, b)
    return np.where(closed, b, np.nan)


def calibrate_rows(rows, eps: float, delta: float, noise: str, rtol: float = 1e-9):
    """Per row: (b_up, b_low, exact) with b_up the smallest scale (to rtol) whose *upper* value of
    delta is <= delta, checked at the value returned (so the exact delta there meets the target),
    and b_low a scale below which the row's *lower* value exceeds delta (NaN where the row has no
    genuine pair): the exact smallest scale lies in [b_low, b_up]."""
    P = len(rows)
    b_up = _smallest_rows(rows, lambda bb, sel: rows.take(sel).bounds(bb, eps, noise)[1], eps, delta, noise, rtol)
    has = rows.genuine & ((rows.kind == 0) | ((rows.lo <= 0) & (rows.hi >= 0)))
    b_low = np.full(P, np.nan)
    if has.any():
        sub = rows.take(has)
        b_low[has] = _smallest_rows(sub, lambda bb, sel: np.nan_to_num(sub.take(sel).bounds(bb, eps, noise)[0],
                                                                       nan=0.0),
                                    eps, delta, noise, rtol, lower_end=True)
    exact = (~np.isnan(b_low)) & (b_low >= b_up * (1 - AGREE))
    return b_up, b_low, exact


def _smallest_rows(rows, f, eps, delta, noise, rtol, lower_end=False):
    """Vectorised bracketing in log b of the smallest b with f(b) <= delta, f non-increasing in b.
    Returns the upper end of each final bracket (f checked <= delta there), or the lower end (f
    checked > delta there) with ``lower_end``."""
    P = len(rows)
    idx = np.arange(P)
    out = np.zeros(P)
    at0 = f(np.zeros(P), idx) <= delta
    todo = np.flatnonzero(~at0)
    if todo.size == 0:
        return out
    pure = rows.pure_scale(eps)[todo] if noise == "laplace" else np.full(todo.size, np.inf)
    guess = closed_scale(rows, eps, delta)[todo] if noise == "laplace" else np.full(todo.size, np.nan)
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


__all__ = ["Scale", "amplified_laplace_scale", "calibrate_scale", "epsilon_for_delta"]
