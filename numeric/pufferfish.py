r"""Log-Laplace multiplicative perturbation: the Pufferfish guarantee and p%-rule disclosure risk.

The mechanism publishes c e^X y, X ~ Laplace(0, b), c = 1 - b^2 (bias correction, b < 1).  It is
epsilon-Pufferfish for q% intervals (Theorem 3.2.2) at the printed scale b = -(4/eps) ln(1 - q);
its tight epsilon at scale b is (2/b) ln((1+q)/(1-q)) (claim ``puff.tight.epsilon``), so the
tight scale for a target eps is (2/eps) ln((1+q)/(1-q)), between 1/2 and 1 times the printed one.

Disclosure risk (Appendix B, equation b.1.3): an intruder k subtracts y_k from the published total
and asks whether the remainder falls within p% of the passive claimant's y_j; with
R = sum_{i != j, k} y_i / y_j,

.. math:: f_{p,q,\varepsilon}(R) = P\big(1 - p - R < c e^X < 1 + p - R\big).

Source: ``abs-pufferfish`` (004), Section 3.2 (Lemma 3.2.1, Theorem 3.2.2), Section 4.3
(algorithm 4.3.2) and Appendix B (Proposition 1, Corollary B.1.2, Theorem B.2).
"""
from __future__ import annotations

import math

import numpy as np

from ._common import (_shape_of, as_float, as_rng, boolean, broadcast_shape, count, exact_sum, memory, memory_for,
                      provenance, require, scalar_out)

_TEMPS = 16  # float arrays of the shape of R alive at once in disclosure_risk

_CHUNK = 1 << 16   # replicates per block in simulate_disclosure_risk


def _eps_q(epsilon, q):
    memory_for(4, epsilon=epsilon, q=q)
    eps = as_float("epsilon", epsilon)
    q = as_float("q", q)
    require(np.isfinite(eps) & (eps > 0), "epsilon", "finite and > 0")
    require((q > 0) & (q < 1), "q", "in (0, 1)")
    return eps, q


def _log_ratio(q):
    """ln((1 + q)/(1 - q)), without cancellation for small q."""
    return np.log1p(q) - np.log1p(-q)


@provenance("puff.thm322.ratio", "puff.tight.scale", "puff.tight.vs_printed", "puff.lemma321.first")
def pufferfish_scale(epsilon, q, tight=False):
    r"""Laplace scale b of the log-Laplace mechanism for eps-Pufferfish privacy of q% intervals.

    Printed (Theorem 3.2.2): :math:`b = -\frac{4}{\varepsilon}\ln(1-q)`.  Tight (``tight=True``):
    :math:`b^* = \frac{2}{\varepsilon}\ln\frac{1+q}{1-q}`, the smallest scale whose tight epsilon
    is at most eps (claims ``puff.tight.*``); b*/b lies in (1/2, 1), about 0.93 at q = 0.15.

    Source: abs-pufferfish (004), Section 3.2, Theorem 3.2.2.

    Parameters: ``epsilon`` > 0 finite and ``q`` in (0, 1), broadcast together (a shape clash
    names them); ``tight`` a boolean.  A scale beyond the float range (a subnormal epsilon) is ``inf``.

    >>> float(pufferfish_scale(1.3, 0.15))            # -(4/1.3) ln 0.85
    0.50005824460853...
    >>> float(pufferfish_scale(1.3, 0.15, tight=True))  # (2/1.3) ln(1.15/0.85)
    0.46504749518912...
    """
    tight = boolean("tight", tight)
    eps, q = _eps_q(epsilon, q)
    with np.errstate(over="ignore"):
        b = 2 * _log_ratio(q) / eps if tight else -4 * np.log1p(-q) / eps
    return scalar_out(b)


@provenance("puff.tight.epsilon")
def pufferfish_epsilon(b, q):
    r"""Tight Pufferfish epsilon of the log-Laplace mechanism with scale b for q% intervals:
    :math:`\varepsilon^*(b) = \frac{2}{b}\ln\frac{1+q}{1-q}` (the supremum over priors, approached
    by point masses at the far ends of two adjacent intervals).

    Source: abs-pufferfish (004), Section 3.1 (Definition 3.1.4) and Section 3.2.

    Parameters: ``b`` > 0 finite and ``q`` in (0, 1), broadcast together (a shape clash names
    them).  An epsilon beyond the float range (a subnormal b) is ``inf``.

    >>> float(pufferfish_epsilon(pufferfish_scale(1.3, 0.15), 0.15))  # < 1.3: the printed b is conservative
    1.20898265404890...
    """
    memory("b", math.prod(broadcast_shape(b=b, q=q)) * 4)
    b = as_float("b", b)
    q = as_float("q", q)
    require(np.isfinite(b) & (b > 0), "b", "finite and > 0")
    require((q > 0) & (q < 1), "q", "in (0, 1)")
    with np.errstate(over="ignore"):
        return scalar_out(2 * _log_ratio(q) / b)


def _b_c(p, q, epsilon, tight):
    tight = boolean("tight", tight)
    for name, value in (("p", p), ("q", q), ("epsilon", epsilon)):
        require(_shape_of(value) == (), name, "a scalar")
    p = as_float("p", p)
    require(0 < p < 1, "p", "a number in (0, 1)")
    eps, q = _eps_q(epsilon, q)
    b = float(pufferfish_scale(eps, q, tight))
    require(b < 1, "epsilon", f"large enough that b < 1 (got b = {b:.6g} for epsilon = {float(eps):g}, "
            f"q = {float(q):g}): the bias correction c = 1 - b^2 must be positive")
    return float(p), b, 1.0 - b * b


def _risk(R, p, b, c):
    """P(ln((1-p-R)/c) < X < ln((1+p-R)/c)), X ~ Laplace(0, b), by the pieces of equation b.1.3.

    Each tail probability is e^{-|x|/b}/2 in log space.  Where both limits lie on one side of 0
    (pieces 1 and 3) the risk is the nearer tail times -expm1(-(v - u)/b), with the width
    v - u = log1p(2p/(1 - p - R)) taken from the exact width 2p: no difference of two near tails.
    Where they straddle 0 (piece 2) it is (-expm1(-v/b) - expm1(u/b))/2, a sum of two non-negative
    terms, with v = u + width where |u| <= 1 (tiny p: the width carries the digits).  R = -inf gives 0
    (piece 1, both limits +inf), R = +inf gives 0."""
    R = np.asarray(R, dtype=float)
    lo, hi = 1 - p - R, 1 + p - R
    pos = lo > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.where(pos, np.log(np.where(pos, lo, 1.0) / c), -np.inf)        # lower limit of X
        v = np.where(hi > 0, np.log(np.where(hi > 0, hi, 1.0) / c), -np.inf)  # upper limit of X
        width = np.where(pos, np.log1p(2 * p / np.where(pos, lo, 1.0)), np.inf)
        shrink = -np.expm1(-width / b)                       # 1 - e^{-(v-u)/b}
        right_u = 0.5 * np.exp(-np.maximum(u, 0) / b)        # 1 - F(u), u >= 0
        left_v = 0.5 * np.exp(np.minimum(v, 0) / b)          # F(v), v < 0
        # pieces 2 and 4 (u < 0 <= v): 1 - e^{-v/b}/2 - e^{u/b}/2 = (-expm1(-v/b) - expm1(u/b))/2, a sum of
        # two non-negative terms (1 - (1 - F(v)) - F(u) cancels to nothing when both limits are near 0);
        # where |u| <= 1, v = u + width (width exact from 2p), so a small v - u keeps its digits (the
        # error is eps (|u| + width) instead of eps of ln(hi/c)); farther out ln(hi/c) is the better one
        v2 = np.where(pos & (np.abs(u) <= 1), u + width, v)
        middle = -0.5 * (np.expm1(-np.maximum(v2, 0) / b) + np.where(pos, np.expm1(np.minimum(u, 0) / b), -1.0))
    out = np.select(
        [hi <= 0, u >= 0, (u < 0) & (v >= 0), v < 0],
        [0.0,
         right_u * shrink,                 # piece 1: both limits >= 0
         middle,                           # pieces 2 and 4
         left_v * shrink])                 # pieces 3 and 5 (shrink = 1 when the lower limit is -oo)
    return np.clip(out, 0.0, 1.0)


@provenance("puff.b13.piece1", "puff.b13.piece2", "puff.b13.piece3", "puff.b13.piece4", "puff.b13.piece5",
            "puff.b13.piece6", "puff.b13.cases_partition", "ht.prop4_unbiased")
def disclosure_risk(R, p, q, epsilon, tight=False):
    r"""Probability of a p%-rule violation for one perturbed passive claimant (equation b.1.3).

    .. math:: f_{p,q,\varepsilon}(R) = P\big((1-p)\,y_j < c e^{X} y_j + R\,y_j < (1+p)\,y_j\big),
              \qquad X \sim \mathrm{Laplace}(0, b),\ c = 1 - b^2,

    with b = ``pufferfish_scale(epsilon, q, tight)`` and R = sum_{i != j,k} y_i / y_j.  Evaluated
    piece by piece (the six cases of b.1.3) from the Laplace tails, so it keeps its relative
    accuracy where it is tiny (within 1e-12 of mpmath at 60 digits in the tests; the condition
    number in R is about 1/b + 1).  0 <= f <= 1, f = 0 for R >= 1 + p, continuous in R.

    Source: abs-pufferfish (004), Appendix B.1, Proposition 1 and Corollary B.1.2 (b.1.3).

    Parameters: ``R`` real (any shape; +-inf give 0, the limits); ``p``, ``q`` in (0, 1) scalars;
    ``epsilon`` > 0 finite with b < 1; ``tight`` a boolean.

    >>> b = float(pufferfish_scale(1.5, 0.1)); c = 1 - b * b
    >>> float(disclosure_risk(0.0, 0.15, 0.1, 1.5))  # 1 - ((1.15/c)^(-1/b) + (0.85/c)^(1/b))/2
    0.39738457939247...
    """
    memory("R", math.prod(broadcast_shape(R=R)) * _TEMPS)
    p, b, c = _b_c(p, q, epsilon, tight)
    R = as_float("R", R)
    return scalar_out(_risk(R, p, b, c))


@provenance("puff.b13.monotonicity", "puff.b2.sup", "puff.b13.piece2")
def max_disclosure_risk(p, q, epsilon, tight=False):
    r"""sup_R f_{p,q,eps}(R) and its argmax (Theorem B.2), exactly.

    f increases on piece 1, is unimodal on piece 2 and decreases afterwards (claim
    ``puff.b13.monotonicity``); on piece 2 its derivative has the sign of the strictly decreasing

    .. math:: g(R) = (1/b - 1)\,u + (1/b + 1)\,v, \qquad u = \ln\frac{1-p-R}{c},\ v = \ln\frac{1+p-R}{c},

    positive at R = 1 - p - c and negative at the end of piece 2, so the supremum is attained at
    the unique zero R* of g.  With the width w = v - u = ln(1 + 2p/(1 - p - R)), g = 0 reads
    u = -(1 + b) w/2, v = (1 - b) w/2, and w is the unique root of

    .. math:: h(w) = w - \ln\big(1 + \tfrac{2p}{c}\, e^{(1+b) w/2}\big),

    increasing (h' in [(1-b)/2, 1]) and concave, with h(ln(1 + 2p/c)) <= 0: Newton's method from
    there climbs monotonically to the root (quadratic convergence, to the last bit of w).  The
    supremum is then the piece-2 risk 1 - e^{-v/b}/2 - e^{u/b}/2 written as the sum of two positive
    terms,

    .. math:: \sup_R f = -\tfrac12\big[\operatorname{expm1}(-(1-b)w/(2b)) + \operatorname{expm1}(-(1+b)w/(2b))\big],

    and R* = (1 - p - c) - c expm1(u): no difference of nearly equal numbers anywhere, so the
    relative accuracy holds for tiny p too (p = 1e-12: the risk ~1e-12 to the last digits, where
    1 - (e^{-v/b} + e^{u/b})/2 kept only 5).  The source says the supremum can only be read off a
    graph (Remark after Theorem B.2).

    Source: abs-pufferfish (004), Appendix B.2, Theorem B.2 and its Remark.

    Parameters: ``p``, ``q`` in (0, 1) scalars; ``epsilon`` > 0 finite with b < 1; ``tight`` a
    boolean.  Returns ``(sup, argmax)``.

    >>> s, r = max_disclosure_risk(0.15, 0.15, 1.3)   # Figure B.2.1 (a grid of 2e5 points: 0.3422066811 at 0.31218)
    >>> round(s, 9), round(r, 4)
    (0.342206681, 0.3122)
    """
    p, b, c = _b_c(p, q, epsilon, tight)
    alpha = (1.0 + b) / 2
    log_k = math.log(2 * p) - math.log(c)

    def h(w):   # h(w) and h'(w); ln(1 + K e^{alpha w}) as logaddexp (no overflow for c -> 0)
        a = log_k + alpha * w
        soft = float(np.logaddexp(0.0, a))
        return w - soft, 1.0 - alpha * math.exp(a - soft)   # h' = 1 - alpha K e^{aw} / (1 + K e^{aw})

    w = math.log1p(2 * p / c)           # h(w) <= 0 here: ln(1 + K e^{alpha w}) >= ln(1 + K)
    for _ in range(200):
        value, slope = h(w)
        step = -value / slope
        if not step > 0:                # at the root (or h(w) = 0 exactly): the climb has stopped
            break
        nxt = w + step
        if nxt <= w:
            break
        w = nxt
    u = -(1.0 + b) * w / 2
    sup = -0.5 * (math.expm1(-(1.0 - b) * w / (2 * b)) + math.expm1(-(1.0 + b) * w / (2 * b)))
    arg = (1.0 - p - c) - c * math.expm1(u)
    return float(sup), float(arg)


@provenance("puff.b13.piece1", "ht.prop4_unbiased")
def simulate_disclosure_risk(y, j, k, p, q, epsilon, reps, rng, tight=False):
    r"""Monte Carlo probability of a p%-rule violation by algorithm 4.3.2: ``(estimate, stderr)``.

    Each replicate perturbs the passive claimant, :math:`\tilde y_j = c\,e^{X} y_j`, forms the total
    :math:`\hat Y = \sum_{h \ne j} y_h + \tilde y_j`, removes the intruder's own value and counts a
    violation when :math:`\hat Y - y_k` lies within p% of y_j (between y_j(1-p) and y_j(1+p)).
    The standard error is sqrt(gamma (1 - gamma)/reps).  Vectorised in blocks (bounded memory).

    The test is made after division by y_j, as 1 - p <= c e^{X} + R <= 1 + p with
    R = sum_{i != j,k} y_i / y_j formed from the exact sum of the other contributors: the estimate is
    scale-invariant (y and 1e300 y give the same draws and the same count), where the sum of the
    unscaled values overflows at 3 x 1e308.

    Source: abs-pufferfish (004), Section 4.3, algorithm 4.3.2.

    Parameters: ``y`` the contributors' true values (1-d); ``j`` the passive claimant and ``k`` the
    intruder (distinct indices); ``p``, ``q`` in (0, 1); ``epsilon`` > 0 with b < 1; ``reps`` an
    integer >= 1; ``rng`` a ``numpy.random.Generator`` or an integer seed >= 0; ``tight`` a boolean.

    >>> est, se = simulate_disclosure_risk([10.0, 6.0, 1.0], 1, 0, 0.15, 0.1, 1.5, 100_000, 7)
    >>> abs(est - float(disclosure_risk(1 / 6, 0.15, 0.1, 1.5))) < 5 * se
    True
    """
    memory("y", math.prod(broadcast_shape(y=y)) * 4)
    y = as_float("y", y)
    require(y.ndim == 1 and y.size >= 2 and np.all(np.isfinite(y)), "y",
            "a one-dimensional array of at least two finite values")
    n = y.size
    for name, idx in (("j", j), ("k", k)):
        require(isinstance(idx, (int, np.integer)) and not isinstance(idx, (bool, np.bool_)) and 0 <= idx < n,
                name, f"an index in 0..{n - 1}")
    require(j != k, "k", "a contributor other than the passive claimant j")
    require(y[j] != 0, "y", "non-zero at the passive claimant j (the p% interval is relative to y_j)")
    reps = count("reps", reps, 1)
    p, b, c = _b_c(p, q, epsilon, tight)
    rng = as_rng(rng)
    # Dividing by y_j: a violation is 1 - p <= c e^{bX} + R <= 1 + p with R = sum_{i != j,k} y_i / y_j
    # (the inequalities flip twice for y_j < 0).  R is formed from the exact sum of the others
    # (no overflow of 1e308 + 1e308, no cancellation) as m 2^k / y_j, inf beyond the float range.
    others = np.delete(y, [j, k])
    m, e = exact_sum(others)
    mj, ej = math.frexp(float(y[j]))
    with np.errstate(over="ignore"):
        R = float(np.ldexp(m / mj, e - ej)) if m != 0 else 0.0
    lo, hi = 1 - p, 1 + p
    hits, done = 0, 0
    while done < reps:
        size = min(_CHUNK, reps - done)
        remainder = c * np.exp(b * rng.laplace(0.0, 1.0, size)) + R
        hits += int(np.count_nonzero((remainder >= lo) & (remainder <= hi)))
        done += size
    gamma = hits / reps
    return gamma, math.sqrt(gamma * (1 - gamma) / reps)


__all__ = ["disclosure_risk", "max_disclosure_risk", "pufferfish_epsilon", "pufferfish_scale",
           "simulate_disclosure_risk"]
