"""Mixture densities, ratios and derivatives of the HT mechanism against independent references.

References: mpmath at 50 digits summing the kernels directly (no log-sum-exp), mpmath numerical
differentiation of that ratio, exact enumeration of the HT atoms with Fractions, the generated
(proved) interval formulas with u^-, u^+ computed from the atoms, and scipy quadrature for the
normalisation.
"""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.integrate import quad

from numeric import _generated as gen
from numeric import (density_ratio, density_ratio_derivative, ht_atoms, laplace_mechanism_delta,
                     mixture_density)

SRS42 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
UNEQUAL = ([(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)], [F(1, 5), F(1, 10), F(3, 10), F(1, 4), F(3, 20)])


def exact_atoms(samples, probs, x):
    """t(x, s) with Fractions, inclusion probabilities summed over the design."""
    pi = {j: sum((p for s, p in zip(samples, probs) if j in s), F(0)) for j in range(len(x))}
    return [sum((F(x[j]) / pi[j] for j in s), F(0)) for s in samples]


def _mp(q):
    q = F(q)
    return mpmath.mpf(q.numerator) / q.denominator


def mp_density(z, atoms, probs, b):
    """At the caller's mpmath precision (no workdps here: mpmath.diff raises the precision itself)."""
    return sum(_mp(p) * mpmath.exp(-abs(mpmath.mpf(z) - _mp(a)) / b)
               for a, p in zip(atoms, probs)) / (2 * mpmath.mpf(b))


def mp_ratio(z, ax, axp, probs, b):
    return mp_density(z, ax, probs, b) / mp_density(z, axp, probs, b)


CASES = [
    (SRS42, [F(1, 6)] * 6, (1, 0, 2, -1), (3, 0, 2, -1)),
    (SRS42, [F(1, 6)] * 6, (0.5, 1.25, 0, 2), (0.5, -1, 0, 2)),
    (UNEQUAL[0], UNEQUAL[1], (1, 2, 0, -1), (1, 2, 3, -1)),
]


@pytest.mark.parametrize("samples,probs,x,xp", CASES)
def test_atoms_match_exact_enumeration(samples, probs, x, xp):
    atoms, p = ht_atoms(samples, [float(q) for q in probs], x)
    np.testing.assert_allclose(atoms, [float(a) for a in exact_atoms(samples, probs, x)], rtol=1e-14)
    np.testing.assert_allclose(p, [float(q) for q in probs])


@pytest.mark.parametrize("samples,probs,x,xp", CASES)
@pytest.mark.parametrize("b", [0.1, 1.0, 7.0])
def test_density_ratio_and_derivative_against_mpmath(samples, probs, x, xp, b):
    ax, axp = exact_atoms(samples, probs, x), exact_atoms(samples, probs, xp)
    pf = [float(q) for q in probs]
    lo, hi = float(min(ax + axp)) - 3, float(max(ax + axp)) + 3
    zs = np.linspace(lo, hi, 41) + 1e-3           # off the atoms (the ratio has kinks there)
    fx = mixture_density(zs, [float(a) for a in ax], pf, b)
    ratio = density_ratio(zs, [float(a) for a in ax], [float(a) for a in axp], pf, b)
    deriv = density_ratio_derivative(zs, [float(a) for a in ax], [float(a) for a in axp], pf, b)
    for k, zz in enumerate(zs):
        with mpmath.workdps(50):
            ref_f = mp_density(zz, ax, probs, b)
            ref_r = mp_ratio(zz, ax, axp, probs, b)
            ref_d = mpmath.diff(lambda u: mp_ratio(u, ax, axp, probs, b), mpmath.mpf(zz))
        assert fx[k] == pytest.approx(float(ref_f), rel=1e-12)
        assert ratio[k] == pytest.approx(float(ref_r), rel=1e-12)
        assert deriv[k] == pytest.approx(float(ref_d), rel=1e-9, abs=1e-12 * float(abs(ref_r)) / b)


def _interval_coefficients(z, atoms, probs, b):
    """u^- (atoms right of z) and u^+ (atoms left of z), exactly as in the claim htm.ratio.interval_form."""
    right = sum(p * np.exp(-a / b) for a, p in zip(atoms, probs) if a > z)
    left = sum(p * np.exp(a / b) for a, p in zip(atoms, probs) if a <= z)
    return right, left


@pytest.mark.parametrize("samples,probs,x,xp", CASES[:1] + CASES[2:])
def test_derivative_matches_generated_interval_formula(samples, probs, x, xp):
    """The stable evaluation agrees with the proved interval form 2(u^- u'^+ - u^+ u'^-)/(b D^2)."""
    b = 2.0
    ax = [float(a) for a in exact_atoms(samples, probs, x)]
    axp = [float(a) for a in exact_atoms(samples, probs, xp)]
    pf = [float(q) for q in probs]
    atoms = sorted(set(ax + axp))
    for lo, hi in zip(atoms, atoms[1:]):
        zz = (lo + hi) / 2
        um, up = _interval_coefficients(zz, ax, pf, b)
        vm, vp = _interval_coefficients(zz, axp, pf, b)
        assert density_ratio(zz, ax, axp, pf, b) == pytest.approx(gen.mixture_ratio_interval(zz, um, up, vm, vp, b),
                                                                    rel=1e-12)
        assert density_ratio_derivative(zz, ax, axp, pf, b) == pytest.approx(
            gen.mixture_ratio_interval_derivative(zz, um, up, vm, vp, b), rel=1e-10, abs=1e-14)


def test_density_integrates_to_one():
    atoms, p = ht_atoms(UNEQUAL[0], [float(q) for q in UNEQUAL[1]], [1.0, -2.0, 0.5, 3.0])
    edges = [-np.inf, *sorted(set(atoms.tolist())), np.inf]     # smooth between the kinks at the atoms
    total = sum(quad(lambda u: float(mixture_density(u, atoms, p, 0.7)), lo, hi, limit=200, epsabs=1e-14)[0]
                for lo, hi in zip(edges, edges[1:]))
    assert total == pytest.approx(1.0, rel=1e-10)


def test_ratio_constant_on_tails_and_max_on_atoms():
    """Result 6 numerically: flat tails; the maximum over a fine grid is attained at an atom."""
    ax = [float(a) for a in exact_atoms(SRS42, [F(1, 6)] * 6, (1, 0, 2, -1))]
    axp = [float(a) for a in exact_atoms(SRS42, [F(1, 6)] * 6, (3, 0, 2, -1))]
    p = [1 / 6] * 6
    left = density_ratio(np.array([-50.0, -20.0, min(ax + axp)]), ax, axp, p, 1.0)
    right = density_ratio(np.array([max(ax + axp), 20.0, 50.0]), ax, axp, p, 1.0)
    np.testing.assert_allclose(left, left[0], rtol=1e-12)
    np.testing.assert_allclose(right, right[0], rtol=1e-12)
    grid = np.linspace(-10, 20, 30001)
    at_atoms = density_ratio(np.array(sorted(set(ax + axp))), ax, axp, p, 1.0).max()
    assert density_ratio(grid, ax, axp, p, 1.0).max() <= at_atoms * (1 + 1e-12)


def test_far_atoms_small_scale_stay_finite():
    """Atoms 1e6 apart at b = 1e-2: densities underflow, the log forms and the ratio do not."""
    ax, axp, p = [1e6, 2e6], [1e6, 2e6 - 1.0], [0.5, 0.5]
    z = np.array([1.5e6, 2e6 + 10])
    logf = mixture_density(z, ax, p, 1e-2, log=True)
    with mpmath.workdps(60):
        ref = [mpmath.log(sum(mpmath.mpf(0.5) * mpmath.exp(-abs(mpmath.mpf(zz) - a) / mpmath.mpf(1e-2))
                              for a in ax) / mpmath.mpf("0.02")) for zz in z]
    np.testing.assert_allclose(logf, [float(r) for r in ref], rtol=1e-13)
    r = density_ratio(z, ax, axp, p, 1e-2, log=True)
    with mpmath.workdps(60):
        ref_r = [mpmath.log(sum(mpmath.exp(-abs(mpmath.mpf(zz) - a) / mpmath.mpf(1e-2)) for a in ax)
                            / sum(mpmath.exp(-abs(mpmath.mpf(zz) - a) / mpmath.mpf(1e-2)) for a in axp)) for zz in z]
    np.testing.assert_allclose(r, [float(v) for v in ref_r], rtol=1e-12)
    assert r[1] == pytest.approx(100.0, rel=1e-12)      # right of every atom: (t - t')/b = 1/0.01


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 5), st.floats(0, 10), st.floats(0.05, 10))
def test_laplace_mechanism_delta_matches_generated_and_integral(eps, sens, b):
    got = laplace_mechanism_delta(eps, sens, b)
    assert got == pytest.approx(gen.laplace_mechanism_delta(eps, sens, b), rel=1e-9, abs=1e-15)
    assert 0.0 <= got <= 1.0


@pytest.mark.parametrize("eps,sens,b", [(0.0, 1.0, 1.0), (0.5, 2.0, 0.7), (1.0, 0.5, 0.3)])
def test_laplace_mechanism_delta_against_quadrature(eps, sens, b):
    """delta = int (f_Delta - e^eps f_0)_+ by mpmath quadrature with the kink points as breakpoints."""
    with mpmath.workdps(30):
        f = lambda u, c: mpmath.exp(-abs(u - c) / b) / (2 * b)  # noqa: E731
        g = lambda u: max(f(u, sens) - mpmath.e**eps * f(u, 0), 0)  # noqa: E731
        z0 = (sens + b * eps) / 2
        ref = mpmath.quad(g, [-mpmath.inf, 0, min(z0, sens), sens, mpmath.inf])
    assert laplace_mechanism_delta(eps, sens, b) == pytest.approx(float(ref), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("call,param", [
    (lambda: mixture_density(0.0, [0.0], [1.0], 0.0), "b"),
    (lambda: mixture_density(0.0, [0.0, 1.0], [0.5], 1.0), "probabilities"),
    (lambda: mixture_density(0.0, [0.0, 1.0], [0.5, 0.6], 1.0), "probabilities"),
    (lambda: mixture_density(0.0, [], [], 1.0), "atoms"),
    (lambda: density_ratio(0.0, [0.0, 1.0], [0.0], [0.5, 0.5], 1.0), "atoms_x_prime"),
    (lambda: ht_atoms([(0, 5)], [1.0], [1.0, 2.0]), "samples"),
    (lambda: ht_atoms([(0,)], [0.5], [1.0]), "probabilities"),
    (lambda: laplace_mechanism_delta(-1.0, 1.0, 1.0), "epsilon"),
    (lambda: laplace_mechanism_delta(1.0, 1.0, -1.0), "b"),
])
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_ht_atoms_unbiased_exhaustive():
    """E t(x, S) = t(x) over every x of a grid, SRS 2 of 4 and the unequal design."""
    for samples, probs in ((SRS42, [1 / 6] * 6), (UNEQUAL[0], [float(q) for q in UNEQUAL[1]])):
        for x in itertools.product((-1.0, 0.0, 2.5), repeat=4):
            atoms, p = ht_atoms(samples, probs, x)
            assert atoms @ p == pytest.approx(sum(x), abs=1e-12)


def _mp_census_delta(eps, sens, b):
    """max(0, 1 - e^{(eps - Delta/b)/2}) of the double inputs, exactly converted, in mpmath at 50 digits."""
    with mpmath.workdps(50):
        return max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(eps) - mpmath.mpf(sens) / mpmath.mpf(b)) / 2))


def test_laplace_mechanism_delta_never_below_exact():
    """Rounded up: never below delta of the double inputs computed in mpmath at 50 digits (the
    closed form of htm.census.delta, inputs converted exactly).  300 seeded uniform cases and 300
    within 1e-15..1e-1 (relative) below the kink eps = Delta/b, where one rounding of Delta/b moves
    delta by whole percents.  Tolerance policy: >= the reference always; within 1e-12 relative of
    it where |eps - Delta/b| > 1e-3 Delta/b (a few ulps of slack from the directed rounding)."""
    rng = np.random.default_rng(20240601)
    b = rng.uniform(0.1, 5, 600)
    sens = rng.uniform(0, 10, 600)
    eps = np.concatenate([rng.uniform(0, 5, 300),
                          sens[300:] / b[300:] * (1 - 10 ** rng.uniform(-15, -1, 300))])
    got = laplace_mechanism_delta(eps, sens, b)
    for e, s, bb, g in zip(eps.tolist(), sens.tolist(), b.tolist(), got.tolist()):
        ref = _mp_census_delta(e, s, bb)
        assert g >= ref, (e, s, bb, g, float(ref))
        if abs(e - s / bb) > 1e-3 * s / bb:
            assert g <= ref * (1 + 1e-12), (e, s, bb, g, float(ref))


@pytest.mark.parametrize("eps,sens,b", [(1.0, 2.0, 2.0), (2.0, 1.0, 0.5), (4.0, 1.0, 0.25), (3.0, 0.0, 1.0),
                                        (0.0, 0.0, 1.0)])
def test_laplace_mechanism_delta_exact_zero_at_pure_scale(eps, sens, b):
    """eps = Delta/b exactly (b = Delta/eps with an exact quotient), or Delta = 0: the exact delta is
    1 - e^0 = 0 (exact rationals), and the directed rounding must not turn it into an ulp."""
    assert laplace_mechanism_delta(eps, sens, b) == 0.0
