"""Log-linear risk model of sample uniques (``shlomo-skinner`` (002), Shlomo and Skinner,
Section 2.1, after Skinner and Shlomo, 2008, JASA 103).

The sample count of key cell j is f_j ~ Poisson(mu_j), independently over the k cells, with
mu_j = pi_j lam_j (pi_j the known inclusion probability, lam_j the expected population count), and
the model is log lam_j = z_j' beta.  The maximum likelihood estimate solves the score equations
printed in the source,

    sum_j [f_j - pi_j exp(z_j' beta)] z_j = 0,

the score of a Poisson regression with log link and offset log pi_j.  Fitted values:
lam_hat_j = exp(z_j' beta_hat) and mu_hat_j = pi_j lam_hat_j.  They are plugged into
P(F_j = 1 | f_j = 1) = exp(-lam_j (1 - pi_j)) and E(1/F_j | f_j = 1) = (1 - exp(-mu))/mu with
mu = lam_j (1 - pi_j) (:mod:`numeric.identification`) to estimate

    tau_1 = sum_j I(f_j = 1) P(F_j = 1 | f_j = 1)   (sample uniques that are population uniques),
    tau_2 = sum_j I(f_j = 1) E(1/F_j | f_j = 1)     (correct matches among the sample uniques).

The source also writes the model as log(mu_j) = z_j' beta with fitted values mu_hat_j =
exp(z_j' beta_hat) and lam_hat_j = mu_hat_j / pi_j.  That parametrisation does not agree with its
own score equations (at their root, exp(z_j' beta_hat) estimates lam_j, not mu_j: read as mu_hat it
is too large by the factor 1/pi_j).  This module follows the score equations.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._common import (ParameterError, _shape_of, as_float, count, fail, memory, memory_for, provenance, require,
                      tolerance)
from .identification import expected_inverse_frequency, prob_population_unique

__all__ = ["fit_loglinear", "tau1", "tau2"]

_EPS = np.finfo(float).eps
_MAX_COUNT = 2.0 ** 53        # counts are exact integers in a double up to here
_LP_BOUND = 1e6               # |a| bound of the recession-direction LP
_SINGULAR = 1024 * np.finfo(float).eps   # eigenvalue (of the unit-diagonal information) taken as 0


@dataclass(frozen=True, eq=False)
class LoglinearFit:
    """The maximum likelihood fit of the model log lam_j = z_j' beta, f_j ~ Poisson(pi_j lam_j).

    Arrays are read-only.  ``lam`` (k,) = exp(z_j' beta_hat), the fitted expected population counts;
    ``mu`` (k,) = pi_j lam_j, the fitted expected sample counts; ``coef`` (p,) = beta_hat; ``cov``
    (p, p) = (Z' W Z)^{-1} with W = diag(mu), the inverse Fisher information; ``se`` (p,) its
    diagonal's square roots; ``deviance`` = 2 sum_j [f_j log(f_j/mu_j) - (f_j - mu_j)] (0 log 0 = 0);
    ``iterations`` = Newton steps taken; ``converged`` = whether the score criterion was met;
    ``counts`` (k,) and ``pi`` (k,) = the data, as used by :func:`tau1` and :func:`tau2`.
    """
    lam: np.ndarray
    mu: np.ndarray
    coef: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    deviance: float
    iterations: int
    converged: bool
    counts: np.ndarray
    pi: np.ndarray

    @property
    def df_resid(self) -> int:
        """Residual degrees of freedom k - p."""
        return int(self.counts.size - self.coef.size)


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def _as_counts(name: str, value) -> np.ndarray:
    """Nonnegative integers <= 2^53 (exact in a double) as a float array; ParameterError otherwise."""
    raw = value if isinstance(value, np.ndarray) else None
    if raw is not None and raw.dtype.kind in "iu" and raw.size and raw.max() > _MAX_COUNT:
        fail(name, "nonnegative integers <= 2^53 (cell counts)", f"a count of {raw.max()}")
    arr = as_float(name, value)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(arr) & (arr >= 0) & (arr <= _MAX_COUNT) & (arr == np.floor(arr))
    require(ok, name, "nonnegative integers <= 2^53 (cell counts)")
    return arr


def _pi(value, k: int) -> np.ndarray:
    shape = _shape_of(value)
    if shape not in ((), (k,)):
        fail("pi", f"a scalar or an array of length k = {k} (inclusion probabilities)", f"shape {shape}")
    pi = as_float("pi", value)
    require((pi > 0) & (pi <= 1), "pi", "in (0, 1] (the inclusion probability of each cell)")
    return np.broadcast_to(pi, (k,)).astype(float)


def _boundary_cells(Xs: np.ndarray, f: np.ndarray, smax: float) -> np.ndarray:
    """Cells whose fitted value the likelihood drives to 0 (empty when the MLE exists).

    Xs is the design with columns scaled to max |z| = 1 (largest singular value ``smax``).  The MLE
    fails to exist exactly when there is a direction d with v = Xs d != 0, v_j = 0 wherever f_j > 0
    and v_j <= 0 wherever f_j = 0 (a direction of recession: the log-likelihood does not decrease
    along it; Haberman, 1974, The Analysis of Frequency Data, Chapter 2; Geyer, 2009, Electron. J.
    Statist. 3).  If the positive cells' rows have full column rank, d = 0 is the only candidate and
    the MLE exists (no further work).  Otherwise d = N a, N an orthonormal basis of the null space of
    those rows, and the linear programme max sum_j s_j subject to s_j <= -(Xs_0 N a)_j,
    0 <= s_j <= 1, |a_i| <= 1e6 has s_j = 1 exactly on the union of the supports of all such
    directions (the cone is closed under sums and scaling): the cells whose fitted values are 0 in the
    extended MLE (Fienberg and Rinaldo, 2012, Ann. Statist. 40).  Entries of Xs_0 N below about 1e-6
    (where rounding, about 1e-15, is still far below the threshold s_j > 1/2) count as 0."""
    pos = f > 0
    k, p = Xs.shape
    if pos.all():
        return np.zeros(0, dtype=np.intp)
    m = int(pos.sum())
    if m:
        Rp = np.linalg.qr(Xs[pos], mode="r")
        Rp = np.vstack([Rp, np.zeros((p - Rp.shape[0], p))]) if Rp.shape[0] < p else Rp
        _, s, vt = np.linalg.svd(Rp)
        rank = int(np.sum(s > max(m, p) * _EPS * smax))
        null = vt[rank:].T
    else:
        null = np.eye(p)
    r = null.shape[1]
    if r == 0:                                   # the positive cells pin beta down: the MLE exists
        return np.zeros(0, dtype=np.intp)
    from scipy import sparse
    from scipy.optimize import linprog

    zero = np.flatnonzero(~pos)
    A = Xs[zero] @ null
    # cells with the same row (to 1e-12 of the largest entry) get the same s: one LP row each
    grid = 1e-12 * max(float(np.abs(A).max()), np.finfo(float).tiny)
    A, inverse = np.unique(np.round(A / grid) * grid, axis=0, return_inverse=True)
    k0 = A.shape[0]
    res = linprog(np.concatenate([np.zeros(r), -np.ones(k0)]),
                  A_ub=sparse.hstack([sparse.csr_matrix(A), sparse.identity(k0, format="csr")], format="csr"),
                  b_ub=np.zeros(k0), bounds=[(-_LP_BOUND, _LP_BOUND)] * r + [(0.0, 1.0)] * k0, method="highs")
    if res.status != 0:                          # pragma: no cover - the zero vector is always feasible
        raise RuntimeError(f"the existence check of the MLE failed: {res.message}")
    return zero[(res.x[r:] > 0.5)[inverse.ravel()]]


# Products with the (p, k) transposed design, by einsum's own loops rather than threaded BLAS: a
# little slower on an idle machine (about 10 ms for Z'WZ at k = 65,536, p = 17), but single-threaded,
# hence predictable when the cores are shared (threaded BLAS calls were seen to take 100x longer).
def _xtv(Xt: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Z' v."""
    return np.einsum("ik,k->i", Xt, v)


def _xb(Xt: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Z b."""
    return np.einsum("ik,i->k", Xt, b)


def _xtwx(Xt: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Z' diag(w) Z."""
    return np.einsum("ik,jk->ij", Xt * w, Xt)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.einsum("k,k->", a, b))


_EXP_MAX = 709.0              # exp stays finite (and sums of a few of them) below this


def _line_search(f: np.ndarray, eta: np.ndarray, mu: np.ndarray, v: np.ndarray) -> float | None:
    """A step length t along the Newton direction (eta -> eta + t v) for the concave
    phi(t) = sum_j [f_j (eta_j + t v_j) - e^{eta_j + t v_j}].

    t = 1 when |phi'(1)| <= phi'(0)/10 and phi(1) >= phi(0) up to rounding (always so near the
    solution: Newton's quadratic convergence is kept).  Otherwise the maximiser of phi: bracketed by
    factors of 4 (up from t = 1 while phi' > 0, down while phi' <= 0), then located by regula falsi
    (Illinois) to 0.1 % and returned from its increasing side (so phi(t) > phi(0)).  This takes the
    long step where full Newton steps only lower log mu by about 1 (fitted values far too large) and
    the short one where a step overshoots.  A trial point where some e^{eta_j + t v_j} would overflow
    counts as beyond the maximum.  None when phi'(0) <= 0 (no ascent left at the rounding level)."""
    fv = _dot(f, v)
    d0 = fv - _dot(mu, v)
    if not d0 > 0:
        return None

    def dphi(t):
        e = eta + t * v
        if not e.max() <= _EXP_MAX:
            return -math.inf
        return fv - _dot(np.exp(e), v)

    d1 = dphi(1.0)
    if abs(d1) <= 0.1 * d0:
        tv = v                                  # phi(1) - phi(0) = f.v - sum mu (e^v - 1), without cancellation
        em = np.where(tv < 700.0, np.expm1(np.minimum(tv, 700.0)) * mu, np.exp(eta + tv) - mu)
        if fv - float(em.sum()) >= -16 * _EPS * (abs(fv) + float(np.abs(em).sum())):
            return 1.0
    if d1 > 0:                                  # bracket: phi'(lo) > 0 >= phi'(hi), hi = 4 lo
        lo, dlo = 1.0, d1
        while True:
            hi = 4.0 * lo
            if hi > 1e300:
                return lo
            dhi = dphi(hi)
            if not dhi > 0:
                break
            lo, dlo = hi, dhi
    else:
        hi, dhi = 1.0, d1
        while True:
            lo = hi / 4.0
            if lo < 1e-300:
                return None
            dlo = dphi(lo)
            if dlo > 0:
                break
            hi, dhi = lo, dlo
    side = 0
    for _ in range(100):
        if hi - lo <= 1e-3 * hi:
            break
        t = (lo * dhi - hi * dlo) / (dhi - dlo) if math.isfinite(dhi) else 0.5 * (lo + hi)
        if not lo < t < hi:
            t = 0.5 * (lo + hi)
        d = dphi(t)
        if d > 0:
            lo, dlo = t, d
            if side > 0:
                dhi /= 2
            side = 1
        elif d <= 0:
            hi, dhi = t, d
            if side < 0:
                dlo /= 2
            side = -1
        else:                                    # NaN (an overflowing sum): treat as beyond the maximum
            hi, dhi, side = t, -math.inf, -1
    return lo


def _deviance(f: np.ndarray, eta: np.ndarray, mu: np.ndarray) -> float:
    """2 sum [f log(f/mu) - (f - mu)], 0 log 0 = 0: per cell f (e^d - 1 - d) with d = log(mu/f) = eta - log f
    (no cancellation: a series for |d| < 0.01), and mu where f = 0."""
    pos = f > 0
    fp = f[pos]
    d = eta[pos] - np.log(fp)
    small = np.abs(d) < 0.01
    with np.errstate(over="ignore"):
        h = np.expm1(d) - d
    ds = d[small]
    series = np.zeros_like(ds)
    term = ds * ds / 2
    for n in range(3, 11):                       # sum_{n>=2} d^n/n!, to 1e-22 relative at |d| < 0.01
        series += term
        term = term * ds / n
    h[small] = series
    with np.errstate(over="ignore"):
        return float(2.0 * (fp @ h + mu[~pos].sum()))


def _eigen(H: np.ndarray):
    """Eigen-decomposition of the symmetrically equilibrated H = D Hs D (unit diagonal):
    (eigenvalues, eigenvectors, D's diagonal, which eigenvalues are 0 to working precision)."""
    d = np.sqrt(np.diag(H))
    d = np.where(d > 0, d, 1.0)
    w, U = np.linalg.eigh(H / d[:, None] / d[None, :])
    lost = w <= _SINGULAR * max(float(w[-1]), np.finfo(float).tiny)
    return w, U, d, lost


def _solve_spd(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The Newton step H^{-1} g for the Fisher information H, with its eigenvalues that are 0 to
    working precision (a fitted value negligible next to others, e.g. 1e-150 next to 8) raised to the
    threshold: along such a direction the step is then a long gradient step, whose length the line
    search sets, instead of rounding noise that would stall the iteration short of the root."""
    w, U, d, lost = _eigen(H)
    w = np.where(lost, _SINGULAR * max(float(w[-1]), np.finfo(float).tiny), w)
    return (U @ ((U.T @ (g / d)) / w)) / d


def _inverse_spd(H: np.ndarray) -> np.ndarray:
    """H^{-1}, symmetric.  Rows and columns of parameters with a non-negligible component (squared
    weight > 1e-8) along a direction where H is singular to working precision are +inf: their
    variance, finite in exact arithmetic, is beyond what double precision resolves."""
    w, U, d, lost = _eigen(H)
    keep = ~lost
    inv = (U[:, keep] / w[keep]) @ U[:, keep].T
    inv = (inv + inv.T) / 2 / d[:, None] / d[None, :]
    if lost.any():
        bad = (U[:, lost] ** 2).sum(axis=1) > 1e-8
        inv[bad, :] = np.inf
        inv[:, bad] = np.inf
    return inv


@provenance("ss.loglinear_score")
def fit_loglinear(counts, design_matrix, pi, *, tol=1e-10, max_iter=100) -> LoglinearFit:
    r"""Maximum likelihood fit of the log-linear model of Shlomo and Skinner, Section 2.1: sample
    counts f_j ~ Poisson(pi_j lam_j), independent, with log lam_j = z_j' beta.

    Solves the score equations :math:`\sum_j [f_j - \pi_j e^{z_j'\beta}] z_j = 0` by Newton's method
    (Fisher scoring, which is Newton's method for this canonical link), and returns a
    :class:`LoglinearFit` with lam_hat_j = exp(z_j' beta_hat), mu_hat_j = pi_j lam_hat_j,
    beta_hat, its standard errors from the inverse Fisher information (Z' W Z)^{-1}, W = diag(mu_hat),
    and the deviance 2 sum_j [f_j log(f_j/mu_hat_j) - (f_j - mu_hat_j)] (0 log 0 = 0).

    Source: shlomo-skinner (002), Section 2.1 (the model of Skinner and Shlomo, 2008, JASA 103).
    The source writes "log(mu_j) = z_j' beta" and "mu_hat_j = exp(z_j' beta_hat), lam_hat_j =
    mu_hat_j / pi_j", which contradicts its own score equations (these have the offset log pi_j, so
    exp(z_j' beta_hat) is lam_hat_j); this function follows the score equations.

    Parameters: ``counts`` (k,) nonnegative integers (<= 2^53); ``design_matrix`` (k, p) finite reals
    of full column rank p <= k (``ParameterError`` naming design_matrix otherwise, e.g. a repeated or
    all-zero column); ``pi`` a scalar or (k,) in (0, 1]; ``tol`` the relative score tolerance in
    [1e-14, 0.1]; ``max_iter`` an integer >= 1.

    Algorithm: the columns are scaled to max ``|z|`` = 1 (a badly scaled design costs nothing in
    accuracy).  Newton's method starts from the least-squares fit of log((f_j + 1/2)/pi_j) (or from
    beta = 0 if that start overflows).  Each step is solved with the equilibrated Fisher information
    (an eigenvalue that is 0 to working precision, from fitted values negligible next to others, is
    raised to a threshold, so that the step along it is a gradient step instead of rounding noise),
    and its length comes from a line search on the concave log-likelihood: t = 1 when it meets the
    curvature condition (always near the root: quadratic convergence is kept), else the maximiser
    along the step (long steps where the fitted values are far too large, short ones after an
    overshoot).  A trial point where exp would overflow counts as beyond the maximum.  The score is
    evaluated with the design itself, not an orthonormalised copy (whose rounding moved the root by
    1e-11 relative on the 2^16-cell example).  Cost: the R factor of one QR (rank check, start) and,
    per iteration, Z' W Z, O(k p^2) (the k x k matrices of a textbook IRLS are never formed), by
    einsum's single-threaded loops: about 0.1-0.2 s for k = 65,536, p = 17.

    Convergence: when every score component ``|sum_j z_ij (f_j - mu_j)|`` <= tol *
    sum_j ``|z_ij|`` (f_j + mu_j) (the score vanishes relative to the size of the terms it sums), after
    which one more Newton step is taken, so the fitted values are accurate to about the rounding of
    the score, not just to ``tol``.  When ``max_iter`` is reached first (or no ascent is left at the
    rounding level before the criterion is met), the fit is returned with ``converged = False``, and
    :func:`tau1`, :func:`tau2` refuse it.

    Existence: the MLE exists unless some cells with zero count can be driven to fitted value 0
    without changing the fit elsewhere, e.g. all cells of a key level that has no sample unit in a
    main-effects model (a margin the model fits is 0).  This is checked before fitting (exactly when
    the positive cells' rows leave beta underdetermined, by a linear programme, see
    ``_boundary_cells``); then a ``ParameterError`` naming counts lists these cells (attribute
    ``cells``) instead of returning a fit that has drifted towards the boundary.

    Accuracy: the fitted values solve the score equations to the tolerance above; lam_hat and
    mu_hat are evaluated from the linear predictor by one exp each (lam_hat = inf only if it is beyond
    the float range).  The deviance is summed without cancellation (per cell f (e^d - 1 - d) with
    d = log(mu/f)).

    >>> import numpy as np
    >>> f = np.array([10, 20, 30, 40])                         # a 2 x 2 table, row-major
    >>> Z = np.array([[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]])   # intercept, row, column
    >>> fit = fit_loglinear(f, Z, 0.5)
    >>> np.round(fit.mu, 10)     # row total x column total / n: 30*40/100, 30*60/100, 70*40/100, 70*60/100
    array([12., 18., 28., 42.])
    >>> np.round(fit.lam, 10)    # mu / pi
    array([24., 36., 56., 84.])
    """
    cshape = _shape_of(counts)
    if len(cshape) != 1 or cshape[0] < 1:
        fail("counts", "a 1-d array of k >= 1 cell counts", f"shape {cshape}")
    k = cshape[0]
    memory("counts", k * 24.0, what="the fit")
    f = _as_counts("counts", counts)      # before k is compared with the design: junk counts are named as such
    xshape = _shape_of(design_matrix)
    if len(xshape) != 2 or xshape[0] != k or xshape[1] < 1:
        fail("design_matrix", f"a 2-d array of shape (k, p), k = len(counts) = {k}, p >= 1", f"shape {xshape}")
    p = xshape[1]
    if p > k:
        fail("design_matrix", f"of full column rank, which needs p <= k (got p = {p} columns, k = {k} cells)")
    memory("design_matrix", k * p * 5.0, what="the fit")
    X = as_float("design_matrix", design_matrix, finite=True)
    pi = _pi(pi, k)
    tol = tolerance("tol", tol, lo=1e-14, hi=0.1)
    max_iter = count("max_iter", max_iter, 1)

    scale = np.max(np.abs(X), axis=0)
    if np.any(scale == 0):
        fail("design_matrix", "of full column rank p (no all-zero column)",
             f"zero columns {np.flatnonzero(scale == 0).tolist()}")
    Xs = X / scale
    R = np.linalg.qr(Xs, mode="r")
    sv = np.linalg.svd(R, compute_uv=False)
    rank = int(np.sum(sv > sv[0] * max(k, p) * _EPS))
    if rank < p:
        fail("design_matrix", f"of full column rank p = {p} (a column is a combination of others)",
             f"numerical rank {rank}")

    bad = _boundary_cells(Xs, f, float(sv[0]))
    if bad.size:
        shown = bad[:20].tolist()
        err = ParameterError(
            "counts",
            f"counts must give the model a maximum likelihood estimate: it does not exist, since {bad.size} "
            f"cell(s) with zero count can be fitted 0 without changing the fit elsewhere (a margin or "
            f"combination of cells the model fits has total 0); cells {shown}{' ...' if bad.size > 20 else ''}. "
            f"Drop these cells together with the design columns that then vanish, or merge categories")
        err.cells = bad
        raise err

    logpi = np.log(pi)
    Xt = np.ascontiguousarray(Xs.T)              # (p, k): the loop's products below run on its rows
    absXt = np.abs(Xt)

    with np.errstate(over="ignore", invalid="ignore"):   # an overflowing trial point is rejected, never used
        y = np.log(f + 0.5) - logpi              # least squares (semi-normal equations R'R b = Xs'y)
        beta = np.linalg.solve(R, np.linalg.solve(R.T, _xtv(Xt, y)))
        eta = _xb(Xt, beta) + logpi
        if not eta.max() <= _EXP_MAX:
            beta = np.zeros(p)
            eta = logpi.copy()
        mu = np.exp(eta)

        converged = polish = False
        iterations = 0
        while True:
            resid = f - mu
            g = _xtv(Xt, resid)
            met = bool(np.all(np.abs(g) <= tol * _xtv(absXt, f + mu)))
            if (met and polish) or iterations >= max_iter:
                converged = met
                break
            polish = met                             # one more step once the criterion is met
            step = _solve_spd(_xtwx(Xt, mu), g)
            t = _line_search(f, eta, mu, _xb(Xt, step))
            if t is None:                            # no ascent left at the rounding level
                converged = met
                break
            beta = beta + t * step
            eta = _xb(Xt, beta) + logpi
            mu = np.exp(eta)
            iterations += 1

        lam = np.exp(_xb(Xt, beta))              # inf only beyond the float range
        coef = beta / scale
    cov_s = _inverse_spd(_xtwx(Xt, mu))
    with np.errstate(over="ignore"):
        cov = cov_s / scale[:, None] / scale[None, :]
        se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return LoglinearFit(lam=_frozen(lam), mu=_frozen(mu), coef=_frozen(coef), se=_frozen(se), cov=_frozen(cov),
                        deviance=_deviance(f, eta, mu), iterations=iterations, converged=converged,
                        counts=_frozen(f), pi=_frozen(pi))


def _sum_over_uniques(measure, fit, counts, lam, pi) -> float:
    """sum over the sample uniques of measure(lam_j, pi_j); 0.0 when there is none."""
    lam, pi = _tau_terms(fit, counts, lam, pi)
    return float(np.sum(measure(lam, pi))) if lam.size else 0.0


def _tau_terms(fit, counts, lam, pi):
    """(lam, pi) of the sample uniques, from a converged fit or from explicit counts, lam, pi."""
    if fit is not None:
        if counts is not None or lam is not None or pi is not None:
            given = [n for n, v in (("counts", counts), ("lam", lam), ("pi", pi)) if v is not None]
            fail("fit", f"given alone: counts, lam and pi are then those of the fit (also got {', '.join(given)})")
        if not isinstance(fit, LoglinearFit):
            fail("fit", "a LoglinearFit (the result of fit_loglinear)", type(fit).__name__)
        if not fit.converged:
            fail("fit", "a converged fit (fit.converged is False: raise max_iter or tol of fit_loglinear)")
        one = fit.counts == 1
        return fit.lam[one], fit.pi[one]
    if counts is None and lam is None and pi is None:
        fail("fit", "a LoglinearFit, or counts, lam and pi must be given as keywords")
    for name, v in (("counts", counts), ("lam", lam), ("pi", pi)):
        if v is None:
            fail(name, "given with the others (counts, lam and pi), when no fit is")
    memory("counts", math.prod(_shape_of(counts)) * 2.0)
    c = _as_counts("counts", counts)      # before the shapes are compared: junk counts are named as such
    memory_for(5, counts=counts, lam=lam, pi=pi)
    lam = as_float("lam", lam)
    require(lam >= 0, "lam", ">= 0 (the expected population counts; +inf allowed)")
    pi = as_float("pi", pi)
    require((pi > 0) & (pi <= 1), "pi", "in (0, 1] (the inclusion probabilities)")
    c, lam, pi = np.broadcast_arrays(c, lam, pi)
    one = c == 1
    return lam[one], pi[one]


@provenance("ss.tau1", "ss.p_population_unique")
def tau1(fit=None, *, counts=None, lam=None, pi=None) -> float:
    r"""Expected number of sample uniques that are population uniques,
    :math:`\hat\tau_1 = \sum_j I(f_j = 1) \hat P(F_j = 1 \mid f_j = 1)` with
    :math:`P(F_j = 1 \mid f_j = 1) = e^{-\lambda_j (1 - \pi_j)}` evaluated at lam_hat.

    Source: shlomo-skinner (002), Section 2.1 (Skinner and Shlomo, 2008).

    Call either ``tau1(fit)`` with a converged :class:`LoglinearFit` of :func:`fit_loglinear` (its
    counts, lam_hat and pi are used), or ``tau1(counts=f, lam=lam, pi=pi)`` with explicit arrays
    that broadcast together (counts nonnegative integers, lam >= 0 with +inf allowed, pi in (0, 1]);
    mixing the two, or a fit with ``converged = False``, is refused naming ``fit``.  Cells with
    f_j != 1 do not contribute (their lam may be anything valid).  Returns a float; 0.0 when there is
    no sample unique.

    Accuracy: each term to a few ulp (see :mod:`numeric.identification`), the sum of nonnegative
    terms to a relative k * 2^-53 at worst.

    >>> tau1(counts=[1, 1, 2, 0], lam=[0.0, 2.0, 5.0, 1.0], pi=0.5)   # e^0 + e^{-1}
    1.3678794411714...
    """
    return _sum_over_uniques(prob_population_unique, fit, counts, lam, pi)


@provenance("ss.tau2", "ss.expected_inverse_frequency")
def tau2(fit=None, *, counts=None, lam=None, pi=None) -> float:
    r"""Expected number of correct matches among the sample uniques,
    :math:`\hat\tau_2 = \sum_j I(f_j = 1) \hat E(1/F_j \mid f_j = 1)` with
    :math:`E(1/F_j \mid f_j = 1) = (1 - e^{-\mu_j})/\mu_j`, :math:`\mu_j = \lambda_j (1 - \pi_j)`
    (1 at mu_j = 0), evaluated at lam_hat.

    Source: shlomo-skinner (002), Section 2.1 (Skinner and Shlomo, 2008); the source prints
    exp(+lam (1 - pi)), read with the minus sign (see :func:`numeric.expected_inverse_frequency`).

    Called, validated and accurate as :func:`tau1`: ``tau2(fit)`` or ``tau2(counts=f, lam=lam, pi=pi)``.

    >>> tau2(counts=[1, 1, 2, 0], lam=[0.0, 2.0, 5.0, 1.0], pi=0.5)   # 1 + (1 - e^{-1})
    1.6321205588285...
    """
    return _sum_over_uniques(expected_inverse_frequency, fit, counts, lam, pi)


