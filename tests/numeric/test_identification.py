"""Identification risk of sample uniques (``numeric.identification``).

References, never the code under test: mpmath at 50 digits on the closed forms, with lam and pi
taken exactly as the floats passed in; the series E(1/F | f = 1) = sum_m e^{-mu} mu^m / (m! (m + 1))
(the Poisson law of F - f given f = 1) summed in mpmath; the model itself summed over F in mpmath
(P(F, f = 1) = e^{-lam} lam^F / F! * F pi (1 - pi)^{F - 1}); a seeded Monte Carlo of the model; and
limits worked by hand.
"""
from __future__ import annotations

import doctest

import mpmath
import numpy as np
import pytest

import numeric.identification
from numeric import expected_inverse_frequency, prob_population_unique
from numeric._common import ParameterError

mp = mpmath.mp
TINY = 2.2250738585072014e-308  # smallest normal double
MUS = np.logspace(-12, 4, 97)
PIS = [1e-9, 1e-3, 0.2, 1 / 3, 0.5, 0.7, 0.999, 1 - 2.0**-40]
#: relative error bound (about 9 ulp at 1; the measured maxima are printed by -s)
RTOL = 2e-15


def _grid():
    """(lam, pi) pairs as floats, lam = mu/(1 - pi) rounded: the reference uses these floats exactly."""
    lam = np.array([m / (1 - p) for p in PIS for m in MUS])
    pi = np.array([p for p in PIS for _ in MUS])
    return lam, pi


def _reference(lam, pi):
    with mp.workdps(50):
        mu = mpmath.mpf(float(lam)) * (1 - mpmath.mpf(float(pi)))
        return mpmath.exp(-mu), (-mpmath.expm1(-mu) / mu if mu else mpmath.mpf(1))


def _rel(got, ref):
    return float(abs((mpmath.mpf(float(got)) - ref) / ref))


def test_against_mpmath_on_a_log_grid_of_mu():
    lam, pi = _grid()
    P, E = prob_population_unique(lam, pi), expected_inverse_frequency(lam, pi)
    worst_p = worst_e = 0.0
    for k in range(lam.size):
        rp, re = _reference(lam[k], pi[k])
        worst_e = max(worst_e, _rel(E[k], re))
        if rp > TINY:                                 # normal range: full relative accuracy
            worst_p = max(worst_p, _rel(P[k], rp))
        else:                                         # subnormal or 0: the absolute accuracy of that range
            assert abs(mpmath.mpf(float(P[k])) - rp) <= 5e-324, (lam[k], pi[k])
    print(f"max relative error vs mpmath: P {worst_p:.3g}, E {worst_e:.3g}")
    assert worst_p <= RTOL and worst_e <= RTOL, (worst_p, worst_e)


def test_exact_mu_where_exp_amplifies_its_error():
    """Reference: mpmath.  At mu ~ 700 an error of one ulp in mu costs ~700 ulp in e^{-mu}: here the
    rounded product lam (1 - pi) is off by enough to cost 5e-14 relative (checked), the function keeps
    a few ulp."""
    lam, pi = 999.0, 0.29
    rp, _ = _reference(lam, pi)
    assert _rel(np.exp(-(lam * (1 - pi))), rp) > 1e-14           # the naive evaluation
    assert _rel(prob_population_unique(lam, pi), rp) <= RTOL


def _series_e(mu):
    """sum_{m>=0} e^{-mu} mu^m / (m! (1 + m)) in mpmath (all terms positive: no cancellation)."""
    with mp.workdps(50):
        mu = mpmath.mpf(mu)
        term, total, m = mpmath.exp(-mu), mpmath.mpf(0), 0
        while True:
            total += term / (m + 1)
            if m > mu and term / (m + 1) < total * mpmath.mpf(10) ** -40:
                return total
            m += 1
            term *= mu / m


@pytest.mark.parametrize("mu", [0.0, 1e-12, 1e-6, 0.01, 0.5, 1.0, 2.4, 10.0, 100.0, 1000.0, 1e4])
def test_expected_inverse_frequency_against_the_series(mu):
    """Reference: the series of E(1/(1 + G)), G = F - f ~ Poisson(mu) given f = 1 (pi = 1/2, mu exact)."""
    lam = 2 * mu                                       # 1 - 1/2 and lam/2 exact: mu is exactly mu
    got = expected_inverse_frequency(lam, 0.5)
    assert _rel(got, _series_e(mu)) <= RTOL


@pytest.mark.parametrize("lam,pi", [(3.0, 0.2), (0.4, 0.05), (20.0, 0.9), (50.0, 0.01)])
def test_against_the_model_summed_over_F(lam, pi):
    """Reference: Bayes in the model, P(F = k | f = 1) proportional to e^{-lam} lam^k / k! k pi (1 - pi)^{k-1},
    summed in mpmath (independent of the thinning argument behind the closed forms)."""
    with mp.workdps(50):
        L, p = mpmath.mpf(lam), mpmath.mpf(pi)
        w = [L**k / mpmath.factorial(k) * k * p * (1 - p) ** (k - 1) for k in range(1, 600)]
        total = mpmath.fsum(w)
        ref_p, ref_e = w[0] / total, mpmath.fsum(wk / (k + 1) for k, wk in enumerate(w)) / total
    assert _rel(prob_population_unique(lam, pi), ref_p) <= RTOL
    assert _rel(expected_inverse_frequency(lam, pi), ref_e) <= RTOL


def test_monte_carlo_of_the_model():
    """Reference: the model simulated (seed fixed): F ~ Poisson(3), f ~ Binomial(F, 0.2), kept where f = 1."""
    rng = np.random.default_rng(20240611)
    lam, pi, n = 3.0, 0.2, 200_000
    F = rng.poisson(lam, n)
    f = rng.binomial(F, pi)
    kept = F[f == 1]
    assert kept.size > 50_000
    for sample, value in (((kept == 1).astype(float), prob_population_unique(lam, pi)),
                          (1.0 / kept, expected_inverse_frequency(lam, pi))):
        se = sample.std(ddof=1) / np.sqrt(sample.size)
        assert abs(sample.mean() - value) <= 5 * se, (sample.mean(), value, se)


def test_limits():
    """By hand: mu = 0 (lam = 0 or pi = 1) gives 1; lam = inf gives 0 (pi < 1) and 1 at pi = 1 (census,
    mu = 0 for every lam); tiny mu gives E = 1 - mu/2; huge mu gives E = 1/mu and P = 0."""
    inf = np.inf
    for fn in (prob_population_unique, expected_inverse_frequency):
        assert fn(0.0, 0.3) == 1.0 and fn(5.0, 1.0) == 1.0 and fn(-0.0, 0.3) == 1.0
        assert fn(inf, 0.3) == 0.0 and fn(inf, 1e-300) == 0.0
        assert fn(inf, 1.0) == 1.0
    assert expected_inverse_frequency(2e-300, 0.5) == 1.0
    assert expected_inverse_frequency(2e-8, 0.5) == 1 - 0.5e-8          # 1 - mu/2 + mu^2/6: rounds to 1 - mu/2
    assert prob_population_unique(1e300, 0.5) == 0.0
    assert expected_inverse_frequency(1e300, 0.5) == 2e-300
    assert expected_inverse_frequency(1.0, 5e-324) == -np.expm1(-1.0)  # 1 - pi = 1 in floating point


def test_scalars_and_broadcasting():
    for fn in (prob_population_unique, expected_inverse_frequency):
        out = fn(2.0, 0.5)
        assert isinstance(out, np.float64) and np.ndim(out) == 0
        grid = fn(np.array([[0.0], [1.0], [4.0]]), [0.25, 0.5, 1.0, 0.75])
        assert grid.shape == (3, 4)
        for i, lam in enumerate([0.0, 1.0, 4.0]):
            for j, pi in enumerate([0.25, 0.5, 1.0, 0.75]):
                assert grid[i, j] == fn(lam, pi)
        assert fn([1.0, 2.0], 0.5).shape == (2,) and fn(1.0, [[0.5, 0.2]]).shape == (1, 2)


@pytest.mark.parametrize("fn", [prob_population_unique, expected_inverse_frequency])
@pytest.mark.parametrize("kw,param", [
    (dict(lam=np.nan, pi=0.5), "lam"), (dict(lam=-1.0, pi=0.5), "lam"), (dict(lam=-np.inf, pi=0.5), "lam"),
    (dict(lam="1", pi=0.5), "lam"), (dict(lam=True, pi=0.5), "lam"), (dict(lam=[1.0, np.nan], pi=0.5), "lam"),
    (dict(lam=1.0, pi=0.0), "pi"), (dict(lam=1.0, pi=-0.1), "pi"), (dict(lam=1.0, pi=1.5), "pi"),
    (dict(lam=1.0, pi=np.nan), "pi"), (dict(lam=1.0, pi=np.inf), "pi"), (dict(lam=1.0, pi=None), "pi"),
    (dict(lam=[1.0, 2.0], pi=[0.5, 0.5, 0.5]), "pi"), (dict(lam=[1.0, 2.0, 3.0], pi=[[0.5, 0.5]]), "pi"),
    (dict(lam=np.broadcast_to(1.0, (2**31,)), pi=0.5), "lam"),
])
def test_errors_name_the_parameter(fn, kw, param):
    with pytest.raises(ParameterError) as err:
        fn(**kw)
    assert err.value.param == param and str(err.value).startswith(param)


def test_provenance_and_docstring_examples():
    assert prob_population_unique.__claims__ == ("ss.p_population_unique",)
    assert expected_inverse_frequency.__claims__ == ("ss.expected_inverse_frequency",)
    for fn in (prob_population_unique, expected_inverse_frequency):
        assert "shlomo-skinner" in fn.__doc__
    assert "ss.reading.inverse_frequency_sign" in expected_inverse_frequency.__doc__
    result = doctest.testmod(numeric.identification, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
