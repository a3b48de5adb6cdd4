"""Log-Laplace Pufferfish scale and p%-rule disclosure risk (``numeric.pufferfish``) against
independent references.

Source: 004_005a37d6f70bd1b7.txt (Section 3.2 Theorem 3.2.2 and Lemma 3.2.1; Section 4.3 algorithm
4.3.2; Appendix B.1.2 equation b.1.3; Appendix B.2 Theorem and Figure B.2.1).

References (none reuses the code's tail arithmetic, its case selection or values copied from it):

* ``mp_quad_risk``: mpmath.quad (40 digits) of the Laplace density e^{-|x|/b}/(2b) over
  (ln((1-p-R)/c), ln((1+p-R)/c)) (lower limit -oo when 1-p-R <= 0), split at the kink 0.
* ``mp_piece_risk``: the six printed pieces of equation b.1.3, written out again in mpmath at 60 digits
  and selected by the printed conditions on R (the pieces are differences of tails; 60 digits leave
  at least 40 after any cancellation in the range tested).
* the sup (Theorem B.2): mpmath.findroot (40 digits) of the sign function g of f' on piece 2
  (derived below), and a dense grid of the function with a Lipschitz bound derived below.
* Monte Carlo (algorithm 4.3.2) against the mpmath risk within 5 binomial standard errors.
* the tight epsilon: a brute-force sup over point-mass (and random discrete) priors of the log
  ratio of Laplace densities (scipy.stats.laplace), on grids of the two adjacent q% intervals.

Derived bounds used below (b < 1, c = 1 - b^2, A = (1+p-R)/c, B = (1-p-R)/c):

* f'(R) = (1/(2bc)) [t1 - t2] on every piece, where t1, t2 are among A^{-1/b-1}, B^{1/b-1},
  B^{-1/b-1}, A^{1/b-1} taken on the side of 1 where each is <= 1 (piece 1: A, B >= 1; piece 2:
  A >= 1 > B; pieces 3, 5: A < 1; piece 4: A >= 1); so |f'| <= L := 1/(2bc) everywhere.
* on piece 2, f' = (1/(2bc)) [B^{1/b-1} - A^{-1/b-1}] has the sign of
  g(R) = (1/b - 1) ln B + (1/b + 1) ln A, strictly decreasing, g(1-p-c) > 0.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st
from scipy.stats import laplace as sp_laplace

from numeric import _generated as gen
from numeric import (disclosure_risk, max_disclosure_risk, pufferfish_epsilon, pufferfish_scale,
                     simulate_disclosure_risk)

mpf = mpmath.mpf
ULP1 = 2.0 ** -52


# -- mpmath references ----------------------------------------------------------------------------------
def mp_b(epsilon, q, tight):
    """Scale from the printed formulas (Theorem 3.2.2; tight: (2/eps) ln((1+q)/(1-q))), caller precision."""
    eps, q = mpf(epsilon), mpf(q)
    return 2 * mpmath.log((1 + q) / (1 - q)) / eps if tight else -4 * mpmath.log(1 - q) / eps


def mp_piece_risk(R, p, q, epsilon, tight=False, dps=60):
    """(piece number, value) of the printed equation b.1.3, first matching condition in print order."""
    with mpmath.workdps(dps):
        b = mp_b(epsilon, q, tight)
        R, p = mpf(R), mpf(p)
        c = 1 - b * b
        k = 1 / b
        A, B = (1 + p - R) / c, (1 - p - R) / c
        if R <= 1 - p - c:
            out = 1, (B ** -k - A ** -k) / 2
        elif 1 - p - c < R <= min(1 - p, 1 + p - c):
            out = 2, 1 - (A ** -k + B ** k) / 2
        elif 1 + p - c < R < 1 - p:
            out = 3, (A ** k - B ** k) / 2
        elif 1 - p <= R <= 1 + p - c:
            out = 4, 1 - A ** -k / 2
        elif max(1 + p - c, 1 - p) <= R < 1 + p:
            out = 5, A ** k / 2
        else:
            out = 6, mpf(0)
        return out[0], +out[1]


def mp_quad_risk(R, p, q, epsilon, tight=False, dps=40):
    """mpmath.quad of the Laplace density over (u, v) in the variable s = x/b (density e^{-|s|}/2).

    mp.quad aims at an absolute error of the working epsilon, so the integrand is scaled by e^{m}, m the
    smallest |s| on the interval (the peak).  An infinite end is cut 75 units past the other end or 0
    (neglected mass e^{-75} relative, < 3e-33); a far end more than 75 units past the peak is cut the
    same way; breakpoints at 0 (kink) and at 1, 3, 7, 15, 31, 63 units from the ends keep every
    subinterval's variation moderate."""
    with mpmath.workdps(dps):
        b = mp_b(epsilon, q, tight)
        R, p = mpf(R), mpf(p)
        c = 1 - b * b
        lo, hi = 1 - p - R, 1 + p - R
        if hi <= 0:
            return mpf(0)
        sh = mpmath.log(hi / c) / b
        sl = mpmath.log(lo / c) / b if lo > 0 else min(sh, 0) - 75
        if sl >= 0:
            sh = min(sh, sl + 75)
        pts = {sl, sh}
        if sl < 0 < sh:
            pts.add(mpf(0))
        for a in list(pts):
            for d in (1, 3, 7, 15, 31, 63):
                for x in (a - d, a + d):
                    if sl < x < sh:
                        pts.add(x)
        pts = sorted(pts)
        m = mpf(0) if sl < 0 < sh else min(abs(x) for x in pts)
        return mpmath.exp(-m) * mpmath.quad(lambda s: mpmath.exp(m - abs(s)) / 2, pts)


def rounding_tolerance(R, p, q, epsilon, tight=False):
    """Error any float evaluation must be allowed: f's change under relative perturbations of a few
    units in the last place of its inputs R and p (the constants 1 are exact; perturbing R by
    4 u max(|R|, 1 + p) also covers the rounding of 1 + p).  With f = F(v) - F(u), u = ln(lo/c),
    v = ln(hi/c), lo = 1-p-R, hi = 1+p-R and phi the Laplace density: df/dR = phi(u)/lo - phi(v)/hi,
    df/dp = phi(u)/lo + phi(v)/hi (the lo terms absent when lo <= 0)."""
    with mpmath.workdps(30):
        b = mp_b(epsilon, q, tight)
        R, p = mpf(R), mpf(p)
        c = 1 - b * b
        lo, hi = 1 - p - R, 1 + p - R
        if hi <= 0:
            return 0.0
        phi = lambda x: mpmath.exp(-abs(x) / b) / (2 * b)  # noqa: E731
        d_hi = phi(mpmath.log(hi / c)) / hi
        d_lo = phi(mpmath.log(lo / c)) / lo if lo > 0 else 0
        u4 = 4 * mpf(2) ** -53
        return float(u4 * (abs(d_lo - d_hi) * max(abs(R), 1 + p) + (d_lo + d_hi) * p))


def assert_risk_close(got, R, p, q, eps, tight, ref, rel=1e-12):
    tol = rel * abs(float(ref)) + rounding_tolerance(R, p, q, eps, tight) + 1e-300
    assert abs(float(got) - float(ref)) <= tol, (R, p, q, eps, tight, float(got), float(ref), tol)


def boundaries(p, c):
    """The printed piece limits of b.1.3 in R."""
    return [1 - p - c, min(1 - p, 1 + p - c), 1 + p - c, 1 - p, max(1 + p - c, 1 - p), 1 + p]


# -- random points --------------------------------------------------------------------------------------
def _params(rng, b=None, p=None):
    """(p, q, epsilon, tight) with the (float) scale b in [0.02, 0.95] (c >= 0.0975: the rounding of b
    then moves c by < 3e-15 relative)."""
    q = rng.uniform(0.01, 0.99)
    b = rng.uniform(0.02, 0.95) if b is None else b
    tight = bool(rng.integers(2))
    eps = 2 * math.log((1 + q) / (1 - q)) / b if tight else -4 * math.log(1 - q) / b
    p = rng.uniform(0.01, 0.99) if p is None else p
    return p, q, eps, tight


def _region_point(rng, region):
    """A point strictly inside region `region` (1..6) of b.1.3 (fractions in [0.001, 0.999])."""
    t = rng.uniform(0.001, 0.999)
    b = rng.uniform(0.02, 0.95)
    c = 1 - b * b
    if region == 3:                     # needs c > 2p
        p = rng.uniform(0.01, 0.99) * (c / 2 - 0.005) + 0.001
    elif region == 4:                   # needs c <= 2p
        p = rng.uniform(c / 2 + 0.001, 0.99)
    else:
        p = rng.uniform(0.01, 0.99)
    p, q, eps, tight = _params(rng, b=b, p=p)
    if region == 1:
        R = 1 - p - c - 6 * t
    elif region == 2:
        lo_, hi_ = 1 - p - c, min(1 - p, 1 + p - c)
        R = lo_ + t * (hi_ - lo_)
    elif region == 3:
        lo_, hi_ = 1 + p - c, 1 - p
        R = lo_ + t * (hi_ - lo_)
    elif region == 4:
        lo_, hi_ = 1 - p, 1 + p - c
        R = lo_ + t * (hi_ - lo_)
    elif region == 5:
        lo_, hi_ = max(1 + p - c, 1 - p), 1 + p
        R = lo_ + t * (hi_ - lo_)
    else:
        R = 1 + p + 3 * t
    return R, p, q, eps, tight


def _points():
    rng = np.random.default_rng(20240611)
    pts = []
    for _ in range(240):
        p, q, eps, tight = _params(rng)
        b = 2 * math.log((1 + q) / (1 - q)) / eps if tight else -4 * math.log(1 - q) / eps
        R = rng.uniform(1 - p - (1 - b * b) - 4, 1 + p + 0.3)
        pts.append((R, p, q, eps, tight, None))
    for region in range(1, 7):
        for _ in range(40):
            pts.append((*_region_point(rng, region), region))
    return pts


POINTS = _points()


# -- 1. every piece against mpmath ----------------------------------------------------------------------
def test_pieces_against_mpmath_quad_and_printed_formula():
    """Reference: mpmath.quad of the Laplace density (40 digits) and the printed b.1.3 pieces (60 digits),
    at 480 points (240 random, 40 forced strictly inside each of the six regions); relative 1e-12
    plus the unavoidable rounding of 1 -+ p - R (``rounding_tolerance``), absolute floor 1e-300."""
    seen = {k: 0 for k in range(1, 7)}
    for R, p, q, eps, tight, region in POINTS:
        piece, ref = mp_piece_risk(R, p, q, eps, tight)
        if region is not None:
            assert piece == region, (R, p, q, eps, tight, piece, region)
        seen[piece] += 1
        quad = mp_quad_risk(R, p, q, eps, tight)
        with mpmath.workdps(60):       # the two references agree far beyond the test tolerance
            assert abs(quad - ref) <= mpf("1e-25") * abs(ref) + mpf("1e-320"), (R, p, q, eps, tight)
        got = disclosure_risk(R, p, q, eps, tight)
        assert_risk_close(got, R, p, q, eps, tight, ref)
        if piece == 6:
            assert got == 0.0
    assert min(seen.values()) >= 40, seen


def test_vectorised_over_R_against_mpmath():
    """Reference: the printed pieces in mpmath; an array R (shape kept) spanning all six regions."""
    p, q, eps = 0.15, 0.1, 1.5                         # b = 0.281, c = 0.921 > 2p: pieces 1, 2, 3, 5, 6
    R = np.linspace(-3.0, 1.6, 138).reshape(3, 46)
    got = disclosure_risk(R, p, q, eps)
    assert got.shape == R.shape
    pieces = set()
    for idx in np.ndindex(R.shape):
        piece, ref = mp_piece_risk(R[idx], p, q, eps)
        pieces.add(piece)
        assert_risk_close(got[idx], R[idx], p, q, eps, False, ref)
    assert pieces == {1, 2, 3, 5, 6}
    p = 0.5                                            # c <= 2p: piece 4 instead of piece 3
    R = np.linspace(-3.0, 1.6, 139)
    got = disclosure_risk(R, p, q, eps)
    pieces = set()
    for r, g in zip(R, got):
        piece, ref = mp_piece_risk(r, p, q, eps)
        pieces.add(piece)
        assert_risk_close(g, r, p, q, eps, False, ref)
    assert pieces == {1, 2, 4, 5, 6}


@pytest.mark.parametrize("R,p,q,eps", [
    (-1e3, 0.15, 0.1, 1.5),     # piece 1, risk ~ 8e-15
    (-1e6, 0.15, 0.1, 1.5),     # piece 1, risk ~ 2e-28
    (-1e9, 0.15, 0.1, 1.5),     # piece 1, risk ~ 4e-42
    (-10.0, 1e-4, 0.1, 1.5),    # piece 1 with a narrow p% interval, risk ~ 5e-9
    (0.5, 1e-7, 0.1, 1.5),      # piece 3 with a narrow p% interval, risk ~ 1e-7
], ids=["R=-1e3", "R=-1e6", "R=-1e9", "p=1e-4", "piece3-p=1e-7"])
def test_tiny_risk_keeps_relative_accuracy(R, p, q, eps):
    """Reference: the printed pieces in mpmath at 60 digits (rel 1e-12 + rounding of the inputs).

    The docstring of ``disclosure_risk`` promises accuracy "to a few ulps where it is tiny".  In pieces 1
    and 3 the risk is a difference of two nearly equal tails when (v - u)/b = ln((1+p-R)/(1-p-R))/b is
    small (R -> -oo, or p small); the relative condition number of the risk in R, p is moderate there
    (``rounding_tolerance``), so only the evaluation can lose the digits."""
    piece, ref = mp_piece_risk(R, p, q, eps)
    assert piece in (1, 3)
    assert_risk_close(disclosure_risk(R, p, q, eps), R, p, q, eps, False, ref)


# -- 2. Monte Carlo (algorithm 4.3.2) -------------------------------------------------------------------
MC_CELLS = [
    # (y, j, k, p, q, eps, tight, piece of R)
    ((10.0, 6.0, 1.0), 1, 0, 0.15, 0.15, 1.3, False, 2),      # case study: intruder largest, claimant 2nd
    ((10.0, 6.0, 1.0), 1, 0, 0.15, 0.1, 1.5, True, 2),
    ((10.0, -6.0, 1.0), 1, 0, 0.15, 0.1, 1.5, False, 1),      # negative claimant: R = -1/6
    ((10.0, -6.0, 2.0, -3.0), 1, 0, 0.15, 0.1, 1.5, False, 2),  # negative claimant, R = (-1)/(-6)
    ((10.0, 6.0, -3.0), 1, 0, 0.15, 0.1, 1.5, False, 1),      # R = -1/2
    ((10.0, 6.0, 3.0), 1, 0, 0.15, 0.1, 1.5, False, 3),       # R = 1/2, c > 2p
    ((20.0, 10.0, 5.4), 1, 0, 0.5, 0.1, 1.5, False, 4),       # R = 0.54, c <= 2p
    ((3.0, 50.0, 20.0, 17.0, -1.0), 2, 1, 0.15, 0.1, 1.5, False, 5),  # j = 2, k = 1: R = 19/20
    ((10.0, 6.0, 9.0), 1, 0, 0.15, 0.1, 1.5, False, 6),       # R = 1.5 >= 1 + p: no violation possible
]


def _cell_R(y, j, k):
    yf = [Fraction(v) for v in y]
    return (sum(yf) - yf[j] - yf[k]) / yf[j]


@pytest.mark.parametrize("cell", MC_CELLS, ids=lambda c: f"y={c[0]}-j{c[1]}k{c[2]}-piece{c[7]}")
def test_simulation_against_mpmath_risk(cell):
    """Reference: the mpmath risk (printed pieces, cross-checked by quad in test 1) at the exact
    R = sum_{i != j,k} y_i / y_j; the Monte Carlo mean must lie within 5 binomial standard errors
    sqrt(f(1-f)/reps) of it (seeded; the standard error is that of the true f, so f = 0 needs 0 hits)."""
    y, j, k, p, q, eps, tight, piece_expected = cell
    R = _cell_R(y, j, k)
    piece, ref = mp_piece_risk(mpf(R.numerator) / R.denominator, p, q, eps, tight)
    assert piece == piece_expected
    f = float(ref)
    reps = 200_000
    est, se = simulate_disclosure_risk(np.array(y), j, k, p, q, eps, reps, np.random.default_rng(1234 + j), tight)
    assert abs(est - f) <= 5 * math.sqrt(f * (1 - f) / reps) + 1e-12, (est, f)
    assert se == pytest.approx(math.sqrt(est * (1 - est) / reps), rel=1e-12, abs=0)
    if piece == 6:
        assert est == 0.0 and se == 0.0


def test_simulation_seed_reproducible_and_not_global():
    """Reference: the definition of a seeded simulation (same integer seed, same estimate; the global
    NumPy state is not consumed)."""
    np.random.seed(5)
    before = np.random.random()
    np.random.seed(5)
    a = simulate_disclosure_risk([10.0, 6.0, 1.0], 1, 0, 0.15, 0.15, 1.3, 5000, 99)
    b = simulate_disclosure_risk([10.0, 6.0, 1.0], 1, 0, 0.15, 0.15, 1.3, 5000, np.random.default_rng(99))
    assert a == b
    assert np.random.random() == before


@pytest.mark.slow
@pytest.mark.parametrize("cell", MC_CELLS, ids=lambda c: f"y={c[0]}-j{c[1]}k{c[2]}-piece{c[7]}")
def test_simulation_against_mpmath_risk_large(cell):
    """Reference: as above with 4e6 replicates (standard errors ~2.5e-4) and 4 standard errors."""
    y, j, k, p, q, eps, tight, _ = cell
    R = _cell_R(y, j, k)
    f = float(mp_piece_risk(mpf(R.numerator) / R.denominator, p, q, eps, tight)[1])
    reps = 4_000_000
    est, _ = simulate_disclosure_risk(np.array(y), j, k, p, q, eps, reps, 777, tight)
    assert abs(est - f) <= 4 * math.sqrt(f * (1 - f) / reps) + 1e-12, (est, f)


# -- 3. the supremum (Theorem B.2) ----------------------------------------------------------------------
def mp_argmax(p, q, epsilon, tight=False, dps=40):
    """(sup, argmax, left, right) by mpmath.findroot of g on piece 2 (left = 1-p-c, right = min(1-p, 1+p-c)),
    g(R) = (1/b - 1) ln B + (1/b + 1) ln A, written in s = ln(1-p-R) (so that a zero within 1e-30 of
    1 - p is still resolved): h(s) = (1/b - 1)(s - ln c) + (1/b + 1) ln((2p + e^s)/c), increasing in s,
    h(ln c) = (1/b + 1) ln(1 + 2p/c) > 0 (R = left); the bracket's other end is s = ln(c - 2p) (R = 1+p-c,
    h < 0) when c > 2p, else found by stepping s down (h -> -oo as s -> -oo, i.e. R -> 1-p)."""
    with mpmath.workdps(dps):
        b = mp_b(epsilon, q, tight)
        p = mpf(p)
        c = 1 - b * b
        k_lo, k_hi = 1 / b - 1, 1 / b + 1

        def h(s):
            return k_lo * (s - mpmath.log(c)) + k_hi * mpmath.log((2 * p + mpmath.exp(s)) / c)

        s_hi = mpmath.log(c)
        assert h(s_hi) > 0
        if c > 2 * p:
            s_lo = mpmath.log(c - 2 * p)
        else:
            s_lo = s_hi - 1
            while h(s_lo) >= 0:
                s_lo = 2 * s_lo - s_hi
        assert h(s_lo) < 0
        s_star = mpmath.findroot(h, (s_lo, s_hi), solver="anderson")
        B, A = mpmath.exp(s_star) / c, (2 * p + mpmath.exp(s_star)) / c
        r = 1 - p - mpmath.exp(s_star)
        left, right = 1 - p - c, min(1 - p, 1 + p - c)
        assert left < r < right
        sup = 1 - (A ** (-1 / b) + B ** (1 / b)) / 2
        return sup, r, left, right


def _sup_cases():
    rng = np.random.default_rng(7)
    cases = [(0.15, 0.15, 1.3, False), (0.15, 0.15, 1.3, True), (0.15, 0.1, 1.5, False)]
    for i in range(24):
        b = rng.uniform(0.02, 0.95)
        c = 1 - b * b
        # alternate: c > 2p (piece 2 ends at 1+p-c) and c <= 2p (piece 2 ends at 1-p)
        p = rng.uniform(0.005, c / 2 - 0.001) if i % 2 else rng.uniform(c / 2 + 0.001, 0.99)
        cases.append(_params(rng, b=b, p=p))
    return cases


SUP_CASES = _sup_cases()


@pytest.mark.parametrize("p,q,eps,tight", SUP_CASES)
def test_sup_against_mpmath_findroot(p, q, eps, tight):
    """Reference: mpmath.findroot (40 digits) of the sign function g of f' on piece 2 (derived in the
    module docstring) and the printed piece 2 at the root; sup and argmax agree to 1e-12, and the argmax
    lies inside piece 2's range (1-p-c, min(1-p, 1+p-c)) (Figure B.2.1: risk rises near R = 0)."""
    sup, arg = max_disclosure_risk(p, q, eps, tight)
    ref_sup, ref_arg, left, right = mp_argmax(p, q, eps, tight)
    assert abs(sup - float(ref_sup)) <= 1e-12
    assert abs(arg - float(ref_arg)) <= 1e-12 * max(1.0, abs(float(ref_arg)))
    assert float(left) < arg < float(right)
    assert mp_piece_risk(arg, p, q, eps, tight)[0] == 2
    if (p, q, eps) == (0.15, 0.15, 1.3):
        assert arg > 0                                   # "The risk increases in the neighbourhood of 0"


@pytest.mark.parametrize("p,q,eps", [(0.5, 0.5, 3.0), (0.3, 0.5, 3.0), (0.9, 0.1, 0.45)])
def test_sup_when_the_argmax_is_within_an_ulp_of_1_minus_p(p, q, eps):
    """Reference: mpmath.findroot of g (40 digits) as above, and the limit of piece 2 at R -> 1-p,
    1 - (2p/c)^{-1/b}/2.  For b near 1 with c <= 2p the coefficient 1/b - 1 of ln B in g is small, so the
    zero of g lies closer to 1 - p than one float ulp ((0.5, 0.5, 3.0): b = 0.924, 1-p-R* ~ 1e-23) and g
    is positive at every float R < 1 - p.  The supremum is still well defined (Theorem B.2): sup and
    argmax must agree with the reference to 1e-12 (argmax = 1 - p in floats), not raise."""
    ref_sup, ref_arg, left, right = mp_argmax(p, q, eps)
    with mpmath.workdps(40):
        b = mp_b(eps, q, False)
        c = 1 - b * b
        assert right == 1 - mpf(p) and right - ref_arg < np.spacing(1 - p)
        assert abs(ref_sup - (1 - (2 * mpf(p) / c) ** (-1 / b) / 2)) < mpf("1e-15")
    sup, arg = max_disclosure_risk(p, q, eps)
    assert abs(sup - float(ref_sup)) <= 1e-12
    assert abs(arg - float(ref_arg)) <= 1e-12
    assert float(left) < arg <= float(right)


@pytest.mark.parametrize("p,q,eps,tight", SUP_CASES[:9])
def test_sup_against_dense_grid(p, q, eps, tight):
    """Reference: a grid of 400001 values of the function (validated in test 1) over [1-p-c-1, 1+p+0.1];
    sup >= grid max - 1e-15, and sup <= grid max + L h/2 + 1e-13 with the Lipschitz constant
    L = 1/(2bc) (module docstring; b from the printed formula) and h the grid spacing."""
    sup, _ = max_disclosure_risk(p, q, eps, tight)
    b = float(mp_b(eps, q, tight))
    c = 1 - b * b
    grid, h = np.linspace(1 - p - c - 1, 1 + p + 0.1, 400_001, retstep=True)
    gmax = float(np.max(disclosure_risk(grid, p, q, eps, tight)))
    assert sup >= gmax - 1e-15
    L = 1 / (2 * b * c)
    assert sup <= gmax + L * h / 2 + 1e-13


# -- 4. scales ------------------------------------------------------------------------------------------
QS = np.concatenate([np.geomspace(1e-12, 0.5, 25), np.linspace(0.5, 0.999, 20), [1 - 1e-9, 0.15, 0.1]])
EPSS = [1e-3, 0.1, 1.3, 7.0, 250.0]


def test_scales_against_mpmath():
    """Reference: -(4/eps) ln(1-q) (Theorem 3.2.2) and (2/eps) ln((1+q)/(1-q)) (tight) and
    (2/b) ln((1+q)/(1-q)) (tight epsilon) in mpmath at 40 digits; relative 1e-14; broadcasting."""
    E, Q = np.meshgrid(EPSS, QS)
    printed = pufferfish_scale(E, Q)
    tight = pufferfish_scale(E, Q, tight=True)
    assert printed.shape == tight.shape == E.shape
    with mpmath.workdps(40):
        for idx in np.ndindex(E.shape):
            e, q = E[idx], Q[idx]
            assert printed[idx] == pytest.approx(float(mp_b(e, q, False)), rel=1e-14)
            assert tight[idx] == pytest.approx(float(mp_b(e, q, True)), rel=1e-14)
            bb = 0.37 * e
            ref = 2 * mpmath.log((1 + mpf(q)) / (1 - mpf(q))) / mpf(bb)
            assert pufferfish_epsilon(bb, q) == pytest.approx(float(ref), rel=1e-14)
    assert isinstance(pufferfish_scale(1.3, 0.15), np.floating)


def test_tight_over_printed_ratio():
    """Reference: the ratio b*/b = (1/2)(1 + ln(1+q)/(-ln(1-q))) lies in (1/2, 1) since
    0 < ln(1+q) < -ln(1-q) ((1+q)(1-q) < 1, Lemma 3.2.1); -> 1 as q -> 0 (1 - ratio ~ q/2 <= q) and
    -> 1/2 as q -> 1 (ratio - 1/2 = ln(1+q)/(-2 ln(1-q)) <= ln 2/(-2 ln(1-q)))."""
    ratio = pufferfish_scale(1.0, QS, tight=True) / pufferfish_scale(1.0, QS)
    assert np.all((ratio > 0.5) & (ratio < 1))
    small = QS < 1e-3
    assert np.all(1 - ratio[small] <= QS[small] + 1e-15)
    big = QS > 0.9
    assert np.all(ratio[big] - 0.5 <= math.log(2) / (-2 * np.log1p(-QS[big])) * (1 + 1e-13))
    assert ratio[QS == 1e-12][0] == pytest.approx(1.0, abs=1e-11)
    assert pufferfish_scale(1.0, 1 - 1e-15, tight=True) / pufferfish_scale(1.0, 1 - 1e-15) < 0.511


def test_tight_epsilon_round_trip_and_printed_is_conservative():
    """Reference: algebra. epsilon*(b*(eps)) = eps exactly in real arithmetic (rel 1e-14 here); at the
    printed scale epsilon* = eps * ratio <= eps (strictly when q is not negligible), Lemma 3.2.1."""
    for e in EPSS:
        for q in QS:
            assert pufferfish_epsilon(pufferfish_scale(e, q, tight=True), q) == pytest.approx(e, rel=1e-14)
            at_printed = pufferfish_epsilon(pufferfish_scale(e, q), q)
            assert at_printed <= e * (1 + 4e-16)
            if q >= 1e-6:
                assert at_printed < e
    assert pufferfish_epsilon(pufferfish_scale(1.3, 0.15), 0.15) < 1.3


@pytest.mark.parametrize("kernel,tight", [("pufferfish_scale_printed", False), ("pufferfish_scale_tight", True)])
def test_scales_against_generated_kernels(kernel, tight):
    """Reference: the generated kernels of ``numeric._generated`` (printed from the verified SymPy
    expressions of ``puff.thm322.ratio`` and ``puff.tight.scale``); both checked against mpmath as well
    (rel 1e-13 for q in [0.01, 0.99], where a naive log(1 - q) or log((1+q)/(1-q)) is accurate to ~1e-14)."""
    fn = getattr(gen, kernel)
    for e in EPSS:
        for q in np.linspace(0.01, 0.99, 17):
            k = float(fn(e, q))
            assert k == pytest.approx(float(mp_b(e, q, tight)), rel=1e-13)
            assert float(pufferfish_scale(e, q, tight=tight)) == pytest.approx(k, rel=1e-13)


def test_epsilon_against_generated_kernel():
    """Reference: ``numeric._generated.pufferfish_epsilon_tight`` (printed from ``puff.tight.epsilon``),
    and mpmath."""
    for bb in (0.05, 0.5, 0.99, 3.0):
        for q in np.linspace(0.01, 0.99, 17):
            k = float(gen.pufferfish_epsilon_tight(bb, q))
            with mpmath.workdps(40):
                ref = float(2 * mpmath.log((1 + mpf(q)) / (1 - mpf(q))) / mpf(bb))
            assert k == pytest.approx(ref, rel=1e-13)
            assert float(pufferfish_epsilon(bb, q)) == pytest.approx(k, rel=1e-13)


# -- 5. the tight epsilon by brute force over priors ----------------------------------------------------
def _brute_force_epsilon(b, q, n=121, nz=81):
    """max over grids u1 in [ln(1-q), ln(1+q)), u2 in [ln(1+q), ln((1+q)^2/(1-q))) (y = 1; ln t of
    point-mass priors on the two adjacent q% intervals) and z (ln of the output / c) of
    |ln lap(z; u2, b) - ln lap(z; u1, b)|, both directions of the ratio; also the grid steps."""
    a1, e1 = math.log1p(-q), math.log1p(q)
    e2 = 2 * math.log1p(q) - math.log1p(-q)
    u1, h1 = np.linspace(a1, e1, n, endpoint=False, retstep=True)
    u2, h2 = np.linspace(e1, e2, n, endpoint=False, retstep=True)
    z = np.linspace(a1 - 2, e2 + 2, nz)
    l1 = sp_laplace.logpdf(z[None, :], loc=u1[:, None], scale=b)     # (n, nz)
    l2 = sp_laplace.logpdf(z[None, :], loc=u2[:, None], scale=b)
    diff = l2[None, :, :] - l1[:, None, :]                               # (n1, n2, nz)
    return float(np.max(np.abs(diff))), h1, h2, (u1, u2, z, l1, l2)


@pytest.mark.parametrize("b,q", [(0.5, 0.15), (0.05, 0.3), (2.0, 0.01), (0.9, 0.9)])
def test_tight_epsilon_is_sup_over_point_mass_priors(b, q):
    """Reference: brute force (scipy Laplace log-densities on grids).  The grid sup never exceeds
    pufferfish_epsilon(b, q) and is within the grid resolution (h1 + h2)/b of it (the sup is approached
    by point masses at the far ends ln(1-q) and ln((1+q)^2/(1-q)), the latter excluded)."""
    bf, h1, h2, _ = _brute_force_epsilon(b, q)
    eps_star = float(pufferfish_epsilon(b, q))
    assert bf <= eps_star * (1 + 1e-12)
    assert bf >= eps_star - (h1 + h2) / b - 1e-12


@pytest.mark.parametrize("b,q", [(0.5, 0.15), (0.05, 0.3)])
def test_tight_epsilon_bounds_discrete_mixture_priors(b, q):
    """Reference: brute force.  Random discrete priors on each interval (mixtures of the point masses on
    the grid): the ratio of the output densities stays within e^{+-eps*} at every grid z."""
    _, _, _, (u1, u2, z, l1, l2) = _brute_force_epsilon(b, q)
    eps_star = float(pufferfish_epsilon(b, q))
    rng = np.random.default_rng(3)
    for _ in range(50):
        w1, w2 = rng.dirichlet(np.full(u1.size, 0.3)), rng.dirichlet(np.full(u2.size, 0.3))
        m1 = w1 @ np.exp(l1)
        m2 = w2 @ np.exp(l2)
        assert np.all(np.abs(np.log(m2) - np.log(m1)) <= eps_star * (1 + 1e-12))


@pytest.mark.parametrize("eps,q", [(1.3, 0.15), (0.5, 0.4), (3.0, 0.05)])
def test_printed_scale_is_eps_pufferfish_by_brute_force(eps, q):
    """Reference: brute force (Theorem 3.2.2): at the printed scale every grid point-mass ratio is <= e^eps."""
    bf, *_ = _brute_force_epsilon(float(pufferfish_scale(eps, q)), q, n=61, nz=41)
    assert bf <= eps


# -- 6. properties (hypothesis) -------------------------------------------------------------------------
@st.composite
def risk_params(draw):
    p = draw(st.floats(0.001, 0.999))
    q = draw(st.floats(1e-3, 0.999))
    b = draw(st.floats(0.01, 0.99))
    tight = draw(st.booleans())
    eps = 2 * math.log((1 + q) / (1 - q)) / b if tight else -4 * math.log1p(-q) / b
    assume(float(pufferfish_scale(eps, q, tight)) < 1)
    return p, q, eps, tight


def _bc(q, eps, tight):
    b = float(mp_b(eps, q, tight))
    return b, 1 - b * b


@settings(max_examples=200, deadline=None, database=None)
@given(risk_params(), st.one_of(st.floats(-1e12, 1e12), st.floats(-3, 3)))
def test_risk_is_a_probability(params, R):
    """Reference: definition (a probability).  0 <= f <= 1, at any finite R."""
    p, q, eps, tight = params
    f = float(disclosure_risk(R, p, q, eps, tight))
    assert 0.0 <= f <= 1.0


@settings(max_examples=200, deadline=None, database=None)
@given(risk_params(), st.floats(0, 1e6), st.integers(0, 3))
def test_risk_zero_beyond_1_plus_p(params, t, ulps):
    """Reference: the p% interval of the remainder is empty of c e^X > 0 when 1 + p - R <= 0 (piece 6):
    f = 0 exactly for every float R >= 1 + p (compared exactly with Fractions)."""
    p, q, eps, tight = params
    R = float(Fraction(1) + Fraction(p)) + t
    for _ in range(ulps):
        R = np.nextafter(R, -np.inf)
    if Fraction(R) >= 1 + Fraction(p):
        assert disclosure_risk(R, p, q, eps, tight) == 0.0


@settings(max_examples=150, deadline=None, database=None)
@given(risk_params(), st.integers(1, 4))
def test_risk_continuous_across_piece_boundaries(params, k):
    """Reference: the bound |f(R+) - f(R-)| <= L (R+ - R- + 4 * 2^-52 (2 + |R|)) + 2^-48, with
    L = 1/(2bc) the Lipschitz constant (module docstring): the first term is the true change plus the
    rounding of 1 -+ p - R on both sides (|df/dlo|, |df/dhi| <= L as in the docstring), the last a few
    ulps of 1 for the tails (their exponent's rounding costs tail*|u|/b*2^-52 <= 2^-52/(2e))."""
    p, q, eps, tight = params
    b, c = _bc(q, eps, tight)
    L = 1 / (2 * b * c)
    for beta in boundaries(p, c):
        lo_, hi_ = beta, beta
        for _ in range(k):
            lo_, hi_ = np.nextafter(lo_, -np.inf), np.nextafter(hi_, np.inf)
        f_lo, f_hi = (float(v) for v in disclosure_risk(np.array([lo_, hi_]), p, q, eps, tight))
        bound = L * (hi_ - lo_ + 4 * ULP1 * (2 + abs(beta))) + 2.0 ** -48
        assert abs(f_hi - f_lo) <= bound, (beta, lo_, hi_, f_lo, f_hi, bound)


@settings(max_examples=150, deadline=None, database=None)
@given(risk_params(), st.lists(st.floats(-5, 3), min_size=1, max_size=20))
@example(params=(0.5, 0.5, 3.0, False), Rs=[0.0, 0.49])   # b = 0.924, c <= 2p: argmax within an ulp of 1-p
def test_sup_dominates_every_R(params, Rs):
    """Reference: definition of the supremum (Theorem B.2): f(R) <= sup for every R (1e-15 slack for
    the rounding of two evaluations of a probability near its maximum)."""
    p, q, eps, tight = params
    sup, arg = max_disclosure_risk(p, q, eps, tight)
    vals = disclosure_risk(np.array(Rs), p, q, eps, tight)
    assert np.all(vals <= sup + 1e-15)


# -- 7. invalid input -----------------------------------------------------------------------------------
GOOD = dict(p=0.15, q=0.15, epsilon=1.3)


@pytest.mark.parametrize("kw,name", [
    (dict(epsilon=0.0), "epsilon"), (dict(epsilon=-1.0), "epsilon"), (dict(epsilon=np.inf), "epsilon"),
    (dict(epsilon=np.nan), "epsilon"),
    (dict(q=0.0), "q"), (dict(q=1.0), "q"), (dict(q=-0.1), "q"), (dict(q=1.5), "q"),
    (dict(p=0.0), "p"), (dict(p=1.0), "p"), (dict(p=-0.2), "p"), (dict(p=2.0), "p"), (dict(p=[0.1, 0.2]), "p"),
    (dict(epsilon=1e-3), "epsilon"),                 # printed b = 650 >= 1: c = 1 - b^2 <= 0
    (dict(epsilon=0.6, q=0.15), "epsilon"),          # printed b = 1.0834 >= 1
])
def test_risk_and_sup_reject_invalid(kw, name):
    """Reference: the documented domains (p, q in (0, 1); epsilon > 0 with b < 1); the message starts with
    the parameter's name."""
    args = {**GOOD, **kw}
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        disclosure_risk(0.1, **args)
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        max_disclosure_risk(**args)
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        simulate_disclosure_risk([10.0, 6.0, 1.0], 1, 0, reps=10, rng=1, **args)


def test_b_at_least_one_rejected_with_tight_scale_and_R_checked():
    """Reference: documented domains.  b >= 1 names epsilon for either scale; b* < b, so an epsilon
    with printed b = 1.05 >= 1 still has a tight b* = 0.98 < 1; a NaN R names R."""
    eps_tight_b12 = 2 * math.log(1.15 / 0.85) / 1.2         # tight b* = 1.2 (printed b ~ 1.29)
    with pytest.raises(ValueError, match=r"^epsilon\b"):
        disclosure_risk(0.1, 0.15, 0.15, eps_tight_b12, tight=True)
    with pytest.raises(ValueError, match=r"^epsilon\b"):
        max_disclosure_risk(0.15, 0.15, eps_tight_b12, tight=True)
    eps_printed_b105 = -4 * math.log(0.85) / 1.05           # printed b = 1.05, tight b* ~ 0.977
    with pytest.raises(ValueError, match=r"^epsilon\b"):
        disclosure_risk(0.1, 0.15, 0.15, eps_printed_b105)
    assert 0 < float(disclosure_risk(0.1, 0.15, 0.15, eps_printed_b105, tight=True)) < 1
    with pytest.raises(ValueError, match=r"^R\b"):
        disclosure_risk(np.nan, 0.15, 0.15, 1.3)


@pytest.mark.parametrize("args,name", [
    ((0.0, 0.1), "epsilon"), ((-2.0, 0.1), "epsilon"), ((1.0, 0.0), "q"), ((1.0, 1.0), "q"), ((1.0, 2.0), "q"),
])
def test_scale_rejects_invalid(args, name):
    """Reference: documented domains of pufferfish_scale (epsilon > 0, q in (0, 1))."""
    for tight in (False, True):
        with pytest.raises(ValueError, match=rf"^{name}\b"):
            pufferfish_scale(*args, tight=tight)


@pytest.mark.parametrize("args,name", [
    ((0.0, 0.1), "b"), ((-1.0, 0.1), "b"), ((np.inf, 0.1), "b"), ((np.nan, 0.1), "b"),
    ((1.0, 0.0), "q"), ((1.0, 1.0), "q"),
])
def test_epsilon_rejects_invalid(args, name):
    """Reference: documented domains of pufferfish_epsilon (b > 0 finite, q in (0, 1))."""
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        pufferfish_epsilon(*args)


@pytest.mark.parametrize("y,j,k,reps,rng,name", [
    ([10.0, 6.0, 1.0], 1, 1, 100, 1, "(j|k)"),        # intruder = claimant
    ([10.0, 6.0, 1.0], 3, 0, 100, 1, "j"),
    ([10.0, 6.0, 1.0], -1, 0, 100, 1, "j"),
    ([10.0, 6.0, 1.0], 1.0, 0, 100, 1, "j"),
    ([10.0, 6.0, 1.0], 1, 5, 100, 1, "k"),
    ([10.0, 0.0, 1.0], 1, 0, 100, 1, "y"),             # y_j = 0: no p% interval
    ([10.0, 6.0, 1.0], 1, 0, 0, 1, "reps"),
    ([10.0, 6.0, 1.0], 1, 0, -3, 1, "reps"),
    ([10.0, 6.0, 1.0], 1, 0, 2.5, 1, "reps"),
    ([10.0, 6.0, 1.0], 1, 0, 100.0, 1, "reps"),
    ([10.0, 6.0, 1.0], 1, 0, True, 1, "reps"),
    ([10.0, 6.0, 1.0], 1, 0, 100, "seed", "rng"),
    ([10.0, 6.0, 1.0], 1, 0, 100, 1.5, "rng"),
    ([10.0, 6.0, 1.0], 1, 0, 100, None, "rng"),
    ([10.0, np.nan, 1.0], 1, 0, 100, 1, "y"),
    ([[10.0, 6.0, 1.0]], 1, 0, 100, 1, "y"),
])
def test_simulation_rejects_invalid(y, j, k, reps, rng, name):
    """Reference: documented domains of simulate_disclosure_risk."""
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        simulate_disclosure_risk(y, j, k, 0.15, 0.15, 1.3, reps, rng)


# -- wider sweep (slow) ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_pieces_against_mpmath_wide_sweep():
    """Reference: the printed pieces (60 digits) and quad (40 digits) at 3000 further random points,
    forced into the six regions in turn."""
    rng = np.random.default_rng(99)
    t0 = time.process_time()
    for i in range(3000):
        R, p, q, eps, tight = _region_point(rng, 1 + i % 6)
        piece, ref = mp_piece_risk(R, p, q, eps, tight)
        with mpmath.workdps(60):
            assert abs(mp_quad_risk(R, p, q, eps, tight) - ref) <= mpf("1e-25") * abs(ref) + mpf("1e-320")
        assert_risk_close(disclosure_risk(R, p, q, eps, tight), R, p, q, eps, tight, ref)
    assert time.process_time() - t0 < 600
