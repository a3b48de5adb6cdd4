"""Sampling and privacy, Shlomo and Skinner Section 3 (``numeric.sampling``).

References, never the code under test (each test names its own):

* exact enumeration with ``fractions.Fraction``: every simple random sample of a small population
  (``itertools.combinations``), every subset with its Bernoulli weight p^|s| (1 - p)^(N - |s|),
  every population of a few units with independent keys;
* mpmath at 50-60 digits of the defining formulas (log-gamma at large N, the Poisson model summed
  over F, the threshold's logarithm);
* seeded Monte Carlo within 5 standard errors of an exact value;
* a direct re-implementation of the simulation (np.unique per sample) on the same random stream.
"""
from __future__ import annotations

import doctest
import itertools
import math
import time
from collections import Counter
from fractions import Fraction
from math import comb

import mpmath
import numpy as np
import pytest

import numeric.sampling
from numeric import (chaudhuri_mishra_threshold, count_pmf_bernoulli, count_pmf_srs, expected_unique_proportion,
                     simulate_sample_uniques)
from numeric._common import ParameterError

mp = mpmath.mp
#: small populations given by the cell of each unit (k = 3 or 4 cells, some empty)
POPULATIONS = [(0, 0, 1, 2, 2, 2), (0, 1, 1, 1, 3, 3, 3), (2, 2, 2, 2, 0), (0, 1, 2), (1, 1, 1, 1, 1, 1, 0, 2)]


def _counts_of(units, k):
    c = Counter(units)
    return tuple(c.get(j, 0) for j in range(k))


def _box(F):
    return itertools.product(*(range(Fj + 1) for Fj in F))


def test_docstring_examples():
    """Reference: the values worked by hand in the docstrings' comments."""
    result = doctest.testmod(numeric.sampling, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# == equation (2)(i): simple random sampling ==================================================================
@pytest.mark.parametrize("units", POPULATIONS)
def test_srs_pmf_against_every_sample(units):
    """Reference: exact enumeration, every SRS of every size n (itertools.combinations), the law of f
    as exact fractions; every f of the box {0 <= f_j <= F_j} is compared (the ones never drawn must
    have probability 0 for their n; f_j > F_j as a negative control)."""
    k = 4
    N = len(units)
    F = _counts_of(units, k)
    for n in range(N + 1):
        law = Counter(_counts_of([units[i] for i in s], k) for s in itertools.combinations(range(N), n))
        total = comb(N, n)
        fs = [f for f in _box(F) if sum(f) == n]
        got = count_pmf_srs(np.array(fs), np.array(F))
        want = np.array([float(Fraction(law.get(f, 0), total)) for f in fs])
        np.testing.assert_allclose(got, want, rtol=2e-15, atol=0)
    over = list(F)
    over[0] += 1
    assert count_pmf_srs(over, F) == 0.0 and count_pmf_srs(over, F, log=True) == -np.inf


@pytest.mark.parametrize("F", [(2, 1, 3), (5, 0, 4, 7), (30, 12, 1), (0, 0)])
def test_srs_pmf_sums_to_one_for_each_n(F):
    """Reference: Vandermonde's identity sum_{sum f = n} prod C(F_j, f_j) = C(N, n), so the law sums to 1
    over {0 <= f_j <= F_j, sum f_j = n} for each n, hence to N + 1 over the whole box (n is read from
    f).  The printed expression with n held fixed, summed over the whole box, gives 2^N / C(N, n)
    (exact fractions; for F = (2, 1, 3), n = 2: 64/15): the constraint sum f = n is needed."""
    fs = np.array(list(_box(F)))
    p = count_pmf_srs(fs, np.array(F))
    n = fs.sum(axis=1)
    N = sum(F)
    for m in range(N + 1):
        assert math.fsum(p[n == m]) == pytest.approx(1.0, rel=1e-13)
    assert math.fsum(p) == pytest.approx(N + 1, rel=1e-13)
    if F == (2, 1, 3):
        box = sum(Fraction(math.prod(comb(a, b) for a, b in zip(F, f)), comb(N, 2)) for f in _box(F))
        assert box == Fraction(64, 15) == Fraction(2**N, comb(N, 2))


def test_srs_pmf_broadcasts_over_leading_axes():
    """Reference: the scalar calls one table at a time (the documented broadcasting), and a scalar F
    meaning every cell has that count: C(3,1) C(3,0) C(3,2) / C(9,3) = 9/84 (exact)."""
    f = np.array([[[1, 0, 2], [0, 0, 0]], [[2, 1, 3], [3, 0, 0]]])
    F = np.array([[2, 1, 3], [4, 4, 4]])
    got = count_pmf_srs(f, F)
    assert got.shape == (2, 2)
    for i, j in itertools.product(range(2), range(2)):
        assert got[i, j] == count_pmf_srs(f[i, j], F[j])
    assert float(count_pmf_srs([1, 0, 2], 3)) == pytest.approx(9 / 84, rel=1e-14)
    assert np.shape(count_pmf_srs([1, 0, 2], [2, 1, 3])) == ()


def _mp_log_srs(f, F):
    lg = lambda a: mpmath.loggamma(a + 1)
    n, N = sum(f), sum(F)
    return (sum(lg(Fj) - lg(fj) - lg(Fj - fj) for Fj, fj in zip(F, f)) - (lg(N) - lg(n) - lg(N - n)))


def _large_tables():
    """f over a grid from the mode out to 30 standard deviations in the first two cells (k = 3)."""
    F = (300_000, 500_000, 200_000)
    N = sum(F)
    for n in (10, 10_000, 500_000):
        for d0, d1 in itertools.product((-30, -5, 0, 3, 20), (-10, 0, 7, 30)):
            mode = [Fj * n / N for Fj in F]
            sd = [max(1.0, math.sqrt(m * (1 - Fj / N) * (1 - n / N))) for m, Fj in zip(mode, F)]
            f0, f1 = round(mode[0] + d0 * sd[0]), round(mode[1] + d1 * sd[1])
            f = (f0, f1, n - f0 - f1)
            if min(f) >= 0:
                yield f, F


def test_srs_pmf_large_population_against_mpmath(capsys):
    """Reference: mpmath log-gamma at 60 digits (N = 10^6, k = 3).  The error of the log probability
    is the relative error of the probability: at most 2e-15 (1 + |ln Pr|), and below 2e-14 relative
    where ln Pr > -50.  Negative control: the log-gamma difference in double precision misses
    the latter bound (its error grows with N)."""
    from scipy.special import gammaln

    worst = worst_near = worst_gammaln = 0.0
    with mp.workdps(60):
        for f, F in _large_tables():
            ref = _mp_log_srs(f, F)
            got = float(count_pmf_srs(f, F, log=True))
            err = float(abs(got - ref))
            assert err <= 2e-15 * (1 + abs(float(ref))), (f, err)
            worst = max(worst, err / (1 + abs(float(ref))))
            if ref > -50:
                worst_near = max(worst_near, err)
                n, N = sum(f), sum(F)
                g = (sum(gammaln(a + 1) - gammaln(b + 1) - gammaln(a - b + 1) for a, b in zip(F, f))
                     - (gammaln(N + 1) - gammaln(n + 1) - gammaln(N - n + 1)))
                worst_gammaln = max(worst_gammaln, float(abs(g - ref)))
    assert worst_near < 2e-14 < worst_gammaln
    with capsys.disabled():
        print(f"\nSRS pmf, N = 10^6: max |err ln Pr|/(1 + |ln Pr|) = {worst:.2e}; max rel. err of Pr where "
              f"ln Pr > -50: {worst_near:.2e} (log-gamma: {worst_gammaln:.2e})")


def test_pmf_memory_guard_covers_the_peak():
    """Reference: the memory reserved per cell (``_TEMPS`` float arrays of the broadcast shape, plus the
    fixed temporaries of one block of the general case, under 16 MiB) against the peak traced
    allocation of both pmfs on 256 tables of 4096 cells (every cell in the general case); and a
    broadcast shape beyond the limit refused naming the largest input before any allocation.
    Negative control: below the limit the call returns."""
    import tracemalloc

    rng = np.random.default_rng(3)
    F = rng.integers(1, 40, (256, 4096))
    f = np.minimum(rng.binomial(F, 0.3), F - 1)
    for call in (lambda: count_pmf_srs(f, F), lambda: count_pmf_bernoulli(f, F, 0.3)):
        tracemalloc.start()
        try:
            call()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < numeric.sampling._TEMPS * 8 * f.size + (16 << 20)
    big = np.broadcast_to(np.ones(1), (2**15, 2**15))
    with pytest.raises(ParameterError) as err:
        count_pmf_srs(big, [1.0])
    assert err.value.param == "f"
    assert count_pmf_srs(big[:2, :3], [1.0, 1.0, 1.0]).shape == (2,)


# == equation (2)(ii): Bernoulli sampling ======================================================================
@pytest.mark.parametrize("units", POPULATIONS)
@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(0.3), Fraction(0.9)])
def test_bernoulli_pmf_against_every_subset(units, p):
    """Reference: exact enumeration over every subset s of the population with weight
    p^|s| (1 - p)^(N - |s|) in exact fractions (p exactly the float passed in)."""
    k = 4
    N = len(units)
    F = _counts_of(units, k)
    law: dict = {}
    for r in range(N + 1):
        for s in itertools.combinations(range(N), r):
            f = _counts_of([units[i] for i in s], k)
            law[f] = law.get(f, 0) + p**r * (1 - p) ** (N - r)
    fs = list(_box(F))
    got = count_pmf_bernoulli(np.array(fs), np.array(F), float(p))
    want = np.array([float(law.get(f, 0)) for f in fs])
    np.testing.assert_allclose(got, want, rtol=4e-15, atol=0)
    assert math.fsum(got) == pytest.approx(1.0, rel=1e-14)


def test_bernoulli_degenerate_probabilities():
    """Reference: by hand, p = 0 gives f = 0 and p = 1 gives f = F with probability 1, every other
    table 0 (exactly, no 0 log 0 NaN); the logs 0 and -inf.  Negative control: 0 < p < 1 spreads the
    law (both tables positive)."""
    F = np.array([2, 0, 3])
    zero, full, other = [0, 0, 0], [2, 0, 3], [1, 0, 3]
    assert count_pmf_bernoulli(zero, F, 0.0) == 1.0 and count_pmf_bernoulli(full, F, 0.0) == 0.0
    assert count_pmf_bernoulli(full, F, 1.0) == 1.0 and count_pmf_bernoulli(zero, F, 1.0) == 0.0
    assert count_pmf_bernoulli(other, F, 0.0) == 0.0 and count_pmf_bernoulli(other, F, 1.0) == 0.0
    assert count_pmf_bernoulli(zero, F, 0.0, log=True) == 0.0
    assert count_pmf_bernoulli(other, F, 1.0, log=True) == -np.inf
    assert count_pmf_bernoulli(zero, [0, 0, 0], 0.5) == 1.0
    mid = count_pmf_bernoulli([zero, full, other], F, 0.5)
    np.testing.assert_allclose(mid, [2.0**-5, 2.0**-5, 2 * 2.0**-5], rtol=1e-15)


def test_bernoulli_p_broadcasts_over_tables():
    """Reference: one call per p (the documented broadcasting of p with the leading axes) and the
    closed form C(2,1) C(3,2) p^3 (1 - p)^2 in exact fractions."""
    p = np.array([0.1, 0.5, 0.75])
    got = count_pmf_bernoulli([1, 2], [2, 3], p)
    for i, pi in enumerate(p):
        q = Fraction(float(pi))
        assert got[i] == pytest.approx(float(6 * q**3 * (1 - q) ** 2), rel=1e-14)
        assert got[i] == count_pmf_bernoulli([1, 2], [2, 3], pi)
    assert count_pmf_bernoulli([[1, 2], [0, 0]], [2, 3], p[:, None]).shape == (3, 2)


def test_bernoulli_pmf_large_population_against_mpmath():
    """Reference: mpmath at 60 digits of prod C(F_j, f_j) p^f_j (1 - p)^(F_j - f_j) (log-gamma), p the
    float passed in, N = 10^6, k = 3, f from the mode to 30 sd: error of ln Pr within
    2e-15 (1 + |ln Pr|)."""
    F = (300_000, 500_000, 200_000)
    worst = 0.0
    with mp.workdps(60):
        for p in (0.005, 0.01, 0.3, 0.77):
            P = mpmath.mpf(p)
            for d in itertools.product((-30, 0, 20), (-10, 0, 30), (-8, 9)):
                f = [round(Fj * p + dd * math.sqrt(Fj * p * (1 - p))) for Fj, dd in zip(F, d)]
                if min(f) < 0:
                    continue
                ref = sum(mpmath.loggamma(a + 1) - mpmath.loggamma(b + 1) - mpmath.loggamma(a - b + 1)
                          + b * mpmath.log(P) + (a - b) * mpmath.log(1 - P) for a, b in zip(F, f))
                err = float(abs(float(count_pmf_bernoulli(f, F, p, log=True)) - ref))
                worst = max(worst, err / (1 + abs(float(ref))))
    assert worst < 2e-15


@pytest.mark.parametrize("call,param", [
    (lambda: count_pmf_srs([1, -1], [2, 2]), "f"),
    (lambda: count_pmf_srs([1, 0.5], [2, 2]), "f"),
    (lambda: count_pmf_srs([1, 1], [2, 2.5]), "F"),
    (lambda: count_pmf_srs(1, 2), "f"),
    (lambda: count_pmf_srs([], []), "f"),
    (lambda: count_pmf_srs([1, 1], [2, 2, 2]), "F"),
    (lambda: count_pmf_srs([1, 1], [2.0**53, 1]), "F"),
    (lambda: count_pmf_srs([1, 1], [2, 2], log="yes"), "log"),
    (lambda: count_pmf_bernoulli([1, 1], [2, 2], 1.5), "p"),
    (lambda: count_pmf_bernoulli([[1, 1]] * 3, [2, 2], [0.1, 0.2]), "p"),
    (lambda: count_pmf_bernoulli([1, 1], [2, np.inf], 0.5), "F"),
])
def test_pmf_errors_name_the_parameter(call, param):
    """Reference: the documented domains (counts are nonnegative integers with totals <= 2^53, k >= 1,
    p in [0, 1] broadcasting with the leading axes).  Negative control: a valid call returns."""
    with pytest.raises(ParameterError) as err:
        call()
    assert err.value.param == param and str(err.value).startswith(param)
    assert count_pmf_srs([1, 1], [2, 2]) > 0


# == the threshold of Chaudhuri and Mishra (2006) ============================================================
def test_threshold_paper_example():
    """Reference: mpmath at 50 digits of (2/eps) ln(2k/delta), k = 2^16, eps = delta = 1/3, both with the
    float 1/3 and the exact 1/3: 77.2927..., printed 77.3; the smallest count kept is 78 ("suppressing
    cells with F_j < 78").  Negative controls: log10 and log2 (33.6 and 111.5) and (1/eps) ln(2k/delta)
    (38.6) do not give 77.3."""
    t = float(chaudhuri_mishra_threshold(2**16, 1 / 3, 1 / 3))
    with mp.workdps(50):
        exact = 6 * mpmath.log(6 * mpmath.mpf(2) ** 16)
        floats = 2 / mpmath.mpf(1 / 3) * mpmath.log(2 * mpmath.mpf(2) ** 16 / mpmath.mpf(1 / 3))
        assert float(exact) == pytest.approx(77.2927, abs=1e-4)
        assert t >= floats and t <= floats * (1 + 4e-15)
        assert float(6 * mpmath.log10(6 * 2**16)) == pytest.approx(33.57, abs=0.01)
        assert float(6 * mpmath.log(6 * 2**16, 2)) == pytest.approx(111.5, abs=0.05)
        assert float(3 * mpmath.log(6 * 2**16)) == pytest.approx(38.65, abs=0.01)
    assert round(t, 1) == 77.3 and math.ceil(t) == 78
    assert 77 < t < 78


def test_threshold_is_never_below_the_exact_value():
    """Reference: mpmath at 50 digits, with k, eps, delta exactly the floats passed in, on 3000 seeded
    random triples over wide ranges: exact <= result <= exact (1 + 4e-15) (the documented upward
    rounding).  Negative control: the plain float formula falls below the exact value somewhere."""
    rng = np.random.default_rng(11)
    k = np.floor(10 ** rng.uniform(0, 15, 3000))
    eps = 10 ** rng.uniform(-6, 3, 3000)
    delta = 10 ** rng.uniform(-300, -1e-9, 3000)
    got = chaudhuri_mishra_threshold(k, eps, delta)
    with np.errstate(over="ignore"):
        plain = 2 / eps * np.log(2 * k / delta)
    below = 0
    with mp.workdps(50):
        for i in range(k.size):
            exact = 2 / mpmath.mpf(eps[i]) * mpmath.log(2 * mpmath.mpf(k[i]) / mpmath.mpf(delta[i]))
            assert exact <= got[i] <= exact * (1 + 4e-15), i
            below += plain[i] < exact
    assert below > 0


def test_threshold_edges_and_errors():
    """Reference: by hand: eps = inf gives 0; 2/eps beyond the float range gives inf (safe side);
    the documented domains refused naming their parameter."""
    assert chaudhuri_mishra_threshold(10, np.inf, 0.1) == 0.0
    assert chaudhuri_mishra_threshold(10, 1e-320, 0.1) == np.inf
    assert chaudhuri_mishra_threshold([[1], [2]], [1.0, 2.0], 0.5).shape == (2, 2)
    for kw, param in [(dict(k=0), "k"), (dict(k=2.5), "k"), (dict(epsilon=0.0), "epsilon"),
                      (dict(delta=0.0), "delta"), (dict(delta=1.0), "delta"), (dict(k=np.inf), "k")]:
        args = dict(k=4, epsilon=1.0, delta=0.1) | kw
        with pytest.raises(ParameterError) as err:
            chaudhuri_mishra_threshold(**args)
        assert err.value.param == param


# == the numerical example: analytic proportion ===============================================================
def _enumerate_iid(N, n, n_keys, p, m=1):
    """Exact E[#(f_c = F_c = m)] / E[#(f_c = m)]: every assignment of N units to the 2^n_keys cells
    with its probability (independent Bernoulli(p) keys, exact fractions), every SRS of n."""
    cells = range(2**n_keys)
    q = [p ** bin(c).count("1") * (1 - p) ** (n_keys - bin(c).count("1")) for c in cells]
    num = den = Fraction(0)
    samples = list(itertools.combinations(range(N), n))
    for pop in itertools.product(cells, repeat=N):
        w = math.prod(q[c] for c in pop) / len(samples)
        F = Counter(pop)
        for s in samples:
            f = Counter(pop[i] for i in s)
            den += w * sum(1 for c in f if f[c] == m)
            num += w * sum(1 for c in f if f[c] == m and F[c] == m)
    return num / den


@pytest.mark.parametrize("N,n,n_keys,m", [(4, 2, 2, 1), (5, 3, 1, 1), (5, 3, 2, 2), (4, 1, 2, 1), (4, 4, 1, 1)])
def test_multinomial_against_enumeration(N, n, n_keys, m):
    """Reference: exact enumeration of every population of N iid units (p the float 0.3 exactly) and of
    every SRS from it (``_enumerate_iid``): this checks the derivation (an SRS of an iid population is
    an iid sample).  Negative control: the Poisson model differs at these small sizes."""
    p = 0.3
    want = _enumerate_iid(N, n, n_keys, Fraction(p), m)
    got = float(expected_unique_proportion(N, n, n_keys, p, m=m))
    assert got == pytest.approx(float(want), rel=1e-13)
    if n < N:
        assert float(expected_unique_proportion(N, n, n_keys, p, model="poisson", m=m)) != pytest.approx(got, rel=1e-3)


def test_example_values_against_mpmath():
    """Reference: mpmath at 50 digits of the defining sums over the 17 weight classes (N = 10^6,
    16 keys, p = 0.2): multinomial sum C(16,w) q^m (1-q)^(N-m) / sum C(16,w) q^m (1-q)^(n-m), Poisson
    sum C(16,w) q^m e^{-Nq} / sum C(16,w) q^m e^{-nq}.  The values 0.02606 (n = 5000) and 0.03574
    (n = 10000) are those of the inventory's script (item 22)."""
    with mp.workdps(50):
        P = mpmath.mpf(0.2)
        q = [P**w * (1 - P) ** (16 - w) for w in range(17)]
        for n in (5000, 10000):
            for m in (1, 2, 3):
                mult = (sum(comb(16, w) * q[w] ** m * (1 - q[w]) ** (10**6 - m) for w in range(17))
                        / sum(comb(16, w) * q[w] ** m * (1 - q[w]) ** (n - m) for w in range(17)))
                pois = (sum(comb(16, w) * q[w] ** m * mpmath.exp(-(10**6) * q[w]) for w in range(17))
                        / sum(comb(16, w) * q[w] ** m * mpmath.exp(-n * q[w]) for w in range(17)))
                got_mult = float(expected_unique_proportion(10**6, n, 16, 0.2, m=m))
                got_pois = float(expected_unique_proportion(10**6, n, 16, 0.2, "poisson", m=m))
                assert got_mult == pytest.approx(float(mult), rel=1e-13)
                assert got_pois == pytest.approx(float(pois), rel=1e-13)
    assert float(expected_unique_proportion(10**6, 5000, 16, 0.2)) == pytest.approx(0.02606, abs=1e-5)
    assert float(expected_unique_proportion(10**6, 10000, 16, 0.2)) == pytest.approx(0.03574, abs=1e-5)
    np.testing.assert_allclose(expected_unique_proportion(10**6, [5000, 10000], 16, 0.2),
                               [expected_unique_proportion(10**6, n, 16, 0.2) for n in (5000, 10000)], rtol=1e-15)


def test_poisson_model_against_the_model_summed_over_F():
    """Reference: the Section 2.1 model summed directly in mpmath (50 digits): per cell
    E[#(f = F = 1)] = P(F = 1) pi and E[#(f = 1)] = sum_F Pois(F; lam) F pi (1 - pi)^(F - 1), lam = N q_c,
    pi = n/N, weighted by the C(n_keys, w) cells of each weight (N = 300, n = 30, 4 keys, p = 0.3)."""
    N, n, K, p = 300, 30, 4, 0.3
    with mp.workdps(50):
        pi = mpmath.mpf(n) / N
        num = den = mpmath.mpf(0)
        for w in range(K + 1):
            lam = N * mpmath.mpf(p) ** w * (1 - mpmath.mpf(p)) ** (K - w)
            num += comb(K, w) * lam * mpmath.exp(-lam) * pi
            den += comb(K, w) * mpmath.nsum(lambda F: mpmath.exp(-lam) * lam**F / mpmath.factorial(F)
                                            * F * pi * (1 - pi) ** (F - 1), [1, mpmath.inf])
        want = float(num / den)
    assert float(expected_unique_proportion(N, n, K, p, model="poisson")) == pytest.approx(want, rel=1e-13)


def _enumerate_conditional(F, n, m):
    """Exact E[#(f = F = m)] / E[#(f = m)] over every SRS of n from the population with counts F."""
    units = [c for c, Fc in enumerate(F) for _ in range(Fc)]
    num = den = 0
    for s in itertools.combinations(range(len(units)), n):
        f = Counter(units[i] for i in s)
        den += sum(1 for c in f if f[c] == m)
        num += sum(1 for c in f if f[c] == m and F[c] == m)
    return Fraction(num, den) if den else None


@pytest.mark.parametrize("F", [(1, 1, 2, 3, 0, 1), (1, 4, 2, 2), (3, 3, 1), (2, 2, 2, 1, 1)])
def test_conditional_against_every_sample(F):
    """Reference: exact enumeration of every SRS of the given population (``_enumerate_conditional``),
    for every n and m = 1, 2, 3; where no cell can give f = m the ratio is undefined and refused
    naming population_counts.  Negative control: the wrong population (counts permuted into a
    different multiset) gives a different value somewhere."""
    N = sum(F)
    for n in range(1, N + 1):
        for m in (1, 2, 3):
            if m > n:
                continue
            want = _enumerate_conditional(F, n, m)
            if want is None:
                with pytest.raises(ParameterError) as err:
                    expected_unique_proportion(N, n, 1, 0.5, "conditional", m=m, population_counts=F)
                assert err.value.param == "population_counts"
                continue
            got = float(expected_unique_proportion(N, n, 1, 0.5, "conditional", m=m, population_counts=F))
            assert got == pytest.approx(float(want), rel=1e-14, abs=1e-300)
    other = list(F)
    other[0] += 1
    other[-1] -= 1 if other[-1] else 0
    if sum(other) == N and sorted(other) != sorted(F):
        assert any(float(expected_unique_proportion(N, n, 1, 0.5, "conditional", population_counts=other))
                   != pytest.approx(float(_enumerate_conditional(F, n, 1)), rel=1e-9) for n in range(1, N))


def test_expected_unique_proportion_limits_and_errors():
    """Reference: by hand: n = N gives 1 in both finite-population models; two cells of 1/2 give
    2^(n - N) (multinomial) and e^{-(N - n)/2} (Poisson); the documented domains are refused naming
    their parameter."""
    assert float(expected_unique_proportion(50, 50, 3, 0.3)) == 1.0
    assert float(expected_unique_proportion(8, 8, 1, 0.5, "conditional", population_counts=[3, 1, 4])) == 1.0
    assert float(expected_unique_proportion(10, 3, 1, 0.5)) == pytest.approx(2.0**-7, rel=1e-14)
    assert float(expected_unique_proportion(10, 3, 1, 0.5, "poisson")) == pytest.approx(math.exp(-3.5), rel=1e-14)
    for kw, param in [(dict(n=11), "n"), (dict(N=0), "N"), (dict(p_key=0.0), "p_key"), (dict(p_key=1.0), "p_key"),
                      (dict(model="Poisson"), "model"), (dict(m=4), "m"), (dict(population_counts=[5, 5]),
                                                                          "population_counts"),
                      (dict(model="conditional"), "population_counts"),
                      (dict(model="conditional", population_counts=[5, 4]), "population_counts"),
                      (dict(n_keys=0), "n_keys")]:
        args = dict(N=10, n=3, n_keys=2, p_key=0.2) | kw
        with pytest.raises(ParameterError) as err:
            expected_unique_proportion(**args)
        assert err.value.param == param


# == the numerical example: simulation =========================================================================
def _naive(N, n, n_keys, p_key, reps, seed):
    """The documented method written directly: population key by key (bit j = rng.random(N) < p_key),
    then per sample rng.choice(N, n, replace=False, shuffle=False) and np.unique with counts."""
    rng = np.random.default_rng(seed)
    cell = np.zeros(N, dtype=np.int64)
    for j in range(n_keys):
        cell |= (rng.random(N) < p_key).astype(np.int64) << j
    F = Counter(cell.tolist())
    out = np.zeros((reps, 3, 2), dtype=np.int64)
    for r in range(reps):
        vals, cnt = np.unique(cell[rng.choice(N, n, replace=False, shuffle=False)], return_counts=True)
        for k, m in enumerate((1, 2, 3)):
            out[r, k] = [(cnt == m).sum(), sum(1 for v, c in zip(vals, cnt) if c == m and F[int(v)] == m)]
    return out


@pytest.mark.parametrize("N,n,n_keys,p_key,chunk", [(500, 40, 4, 0.3, 1 << 21), (500, 40, 4, 0.3, 100),
                                                     (300, 300, 3, 0.5, 700), (200, 1, 2, 0.2, 5),
                                                     (400, 60, 1, 5e-324, 130), (200, 30, 12, 0.5, 100)])
def test_simulation_counts_match_a_direct_implementation(N, n, n_keys, p_key, chunk, monkeypatch):
    """Reference: ``_naive`` on the same seed (np.unique per sample), with the chunk of replicates set
    so that one chunk, several chunks and one replicate per chunk are all used: the per-sample
    numbers of cells with f = m and with f = F = m must agree exactly, m = 1, 2, 3.  With 2^12 cells
    for 200 units the population is relabelled by sorting instead of counting by cell."""
    monkeypatch.setattr(numeric.sampling, "_CHUNK", chunk)
    reps = 25
    r = simulate_sample_uniques(N, n, n_keys, p_key, reps, 17)
    ref = _naive(N, n, n_keys, p_key, reps, 17)
    np.testing.assert_array_equal(r.sample_uniques, ref[:, 0, 0])
    for k, arr in enumerate((r.proportions, r.doubles, r.triples)):
        den, num = ref[:, k, 0], ref[:, k, 1]
        want = np.where(den > 0, num / np.maximum(den, 1), np.nan)
        np.testing.assert_array_equal(arr, want)


def test_simulation_against_exact_enumeration_of_a_tiny_population():
    """Reference: every SRS of n = 3 from the population drawn (N = 10, 2 keys), exact fractions:
    E[proportion | some sample unique], E[#(f = F = m)] / E[#(f = m)].  The seeded mean within 5 SE
    of the former, the pooled ratio within 5 SE of the latter, the analytic field equal to it (m = 1,
    2).  Negative control: the multinomial (unconditional) value is a different number."""
    N, n = 10, 3
    r = simulate_sample_uniques(N, n, 2, 0.4, 6000, 2024)
    F = [0] * 4
    for c, Fc in zip(r.occupied_index, r.population_counts):
        F[int(c)] = int(Fc)
    assert sum(F) == N
    units = [c for c, Fc in enumerate(F) for _ in range(Fc)]
    props, dens, nums = [], Counter(), Counter()
    for s in itertools.combinations(range(N), n):
        f = Counter(units[i] for i in s)
        su = sum(1 for c in f if f[c] == 1)
        pu = sum(1 for c in f if f[c] == 1 and F[c] == 1)
        if su:
            props.append(Fraction(pu, su))
        for m in (1, 2):
            dens[m] += sum(1 for c in f if f[c] == m)
            nums[m] += sum(1 for c in f if f[c] == m and F[c] == m)
    e_prop = float(sum(props) / len(props))
    ratio = float(Fraction(nums[1], dens[1]))
    assert abs(r.mean - e_prop) < 5 * r.se
    assert abs(r.pooled - ratio) < 5 * r.pooled_se
    assert r.analytic == pytest.approx(ratio, rel=1e-14)
    assert r.analytic_doubles == pytest.approx(float(Fraction(nums[2], dens[2])), rel=1e-14)
    assert float(expected_unique_proportion(N, n, 2, 0.4)) != pytest.approx(ratio, rel=1e-6)


def test_simulation_small_population_within_5_se():
    """Reference: the exact conditional ratio of expectations given the population drawn
    (hypergeometric sums, ``expected_unique_proportion(model='conditional')``, itself checked above by
    enumeration): seeded mean and pooled ratio within 5 SE.  The population: each key's total over
    the N units is Binomial(N, p): within 5 sd (a check of the generator)."""
    N, n, K, p = 20_000, 1_000, 10, 0.2
    r = simulate_sample_uniques(N, n, K, p, 400, 5)
    assert abs(r.mean - r.analytic) < 5 * r.se
    assert abs(r.pooled - r.analytic) < 5 * r.pooled_se
    want = float(expected_unique_proportion(N, n, K, p, "conditional", population_counts=r.population_counts))
    assert r.analytic == want
    sd = math.sqrt(N * p * (1 - p))
    for j in range(K):
        ones = int(r.population_counts[((r.occupied_index >> j) & 1) == 1].sum())
        assert abs(ones - N * p) < 5 * sd, j
    assert r.cells == 2**K and r.population_uniques == int((r.population_counts == 1).sum())
    assert r.occupied_cells == r.population_counts.size and r.population_counts.sum() == N


def test_simulation_reproducible_and_seed_sensitive():
    """Reference: the documented reproducibility (same seed, same Generator state: identical results,
    with or without the progress bar); negative control: another seed gives other samples."""
    a = simulate_sample_uniques(2000, 100, 5, 0.3, 30, 9)
    b = simulate_sample_uniques(2000, 100, 5, 0.3, 30, np.random.default_rng(9))
    c = simulate_sample_uniques(2000, 100, 5, 0.3, 30, 9, progress=True)
    d = simulate_sample_uniques(2000, 100, 5, 0.3, 30, 10)
    for x in (b, c):
        np.testing.assert_array_equal(a.proportions, x.proportions)
        np.testing.assert_array_equal(a.doubles, x.doubles)
        assert a.mean == x.mean and a.analytic == x.analytic
    assert not np.array_equal(a.sample_uniques, d.sample_uniques)


def test_simulation_degenerate_cases():
    """Reference: by hand.  n = N: every sample is the population, every sample unique is a population
    unique (proportion 1, analytic 1).  p_key = 5e-324 (the smallest positive double: a key is 1 only
    where the generator returns exactly 0.0, so for these seeds every unit falls in cell 0, as it did
    at p_key = 0, which is now refused like in expected_unique_proportion): no sample unique when
    n >= 2 (all summaries None: undefined, not NaN), and with n = 1 the single unit is a sample
    unique and not a population unique (proportion 0).  Negative control: p_key = 0.5 has sample
    uniques."""
    r = simulate_sample_uniques(50, 50, 4, 0.5, 3, 1)
    assert r.mean == 1.0 and r.analytic == 1.0 and np.all(r.proportions == 1.0)
    z = simulate_sample_uniques(50, 5, 3, 5e-324, 4, 1)
    assert z.mean is None and z.se is None and z.pooled is None and z.analytic is None
    assert np.isnan(z.proportions).all() and z.occupied_cells == 1 and np.all(z.sample_uniques == 0)
    one = simulate_sample_uniques(50, 1, 3, 5e-324, 4, 1)
    assert one.mean == 0.0 and one.analytic == 0.0 and np.all(one.sample_uniques == 1)
    assert one.analytic_doubles is None and one.mean_doubles is None
    half = simulate_sample_uniques(50, 5, 3, 0.5, 4, 1)
    assert half.mean is not None and np.all(half.sample_uniques > 0)


@pytest.mark.parametrize("kw,param", [(dict(n=0), "n"), (dict(n=61), "n"), (dict(N=0), "N"), (dict(N=60.0), "N"),
                                      (dict(n_keys=63), "n_keys"), (dict(p_key=1.5), "p_key"), (dict(reps=1), "reps"),
                                      (dict(rng=-1), "rng"), (dict(progress="no"), "progress"),
                                      (dict(N=2**40), "N")])
def test_simulation_errors_name_the_parameter(kw, param):
    """Reference: the documented domains.  Negative control: the baseline runs."""
    args = dict(N=60, n=10, n_keys=3, p_key=0.3, reps=5, rng=1) | kw
    with pytest.raises(ParameterError) as err:
        simulate_sample_uniques(**args)
    assert err.value.param == param
    assert simulate_sample_uniques(60, 10, 3, 0.3, 5, 1).reps == 5


# == the paper's example at full size (slow) ==================================================================
@pytest.mark.slow
@pytest.mark.parametrize("n,printed", [(5000, 0.024), (10000, 0.035)])
def test_paper_example_full_size(n, printed, capsys):
    """Reference: the exact conditional ratio of expectations given the population drawn (checked by
    enumeration above): N = 10^6, 16 keys, p = 0.2, 1000 samples; the mean within 5 SE of it, in
    under 60 s.  The printed figures are reported next to the simulated and analytic values (0.035
    agrees with 0.0357 to the printed digits, truncated; 0.024 is below the 0.026 of every
    population, see the spread test)."""
    t0 = time.process_time()
    r = simulate_sample_uniques(10**6, n, 16, 0.2, 1000, 2012)
    elapsed = time.process_time() - t0
    assert elapsed < 60
    assert abs(r.mean - r.analytic) < 5 * r.se
    assert abs(r.pooled - r.analytic) < 5 * r.pooled_se
    mult = float(expected_unique_proportion(10**6, n, 16, 0.2))
    pois = float(expected_unique_proportion(10**6, n, 16, 0.2, "poisson"))
    with capsys.disabled():
        print(f"\nn = {n}: simulated mean {r.mean:.5f} +- {r.se:.5f} (pooled {r.pooled:.5f} +- {r.pooled_se:.5f}), "
              f"conditional {r.analytic:.5f}, multinomial {mult:.5f}, Poisson {pois:.5f}, printed {printed}; "
              f"doubles {r.mean_doubles:.6f} (analytic {r.analytic_doubles:.6f}), triples {r.mean_triples:.2e} "
              f"(analytic {r.analytic_triples:.2e}); {elapsed:.2f} s")


@pytest.mark.slow
def test_paper_example_between_population_spread(capsys):
    """Reference: the multinomial ratio of expectations (checked by enumeration above), about which the
    exact conditional values of independent populations scatter: the mean of 12 seeded populations
    within 5 standard errors of it.  The printed 0.024 (n = 5000) lies more than 5 between-population
    sds below it (the printed 0.035, n = 10000, is reported in sds without a bound)."""
    vals = {5000: [], 10000: []}
    for seed in range(12):
        r_counts = simulate_sample_uniques(10**6, 5000, 16, 0.2, 2, 100 + seed).population_counts
        for n in vals:
            vals[n].append(float(expected_unique_proportion(10**6, n, 16, 0.2, "conditional",
                                                            population_counts=r_counts)))
    lines = []
    for n, printed in ((5000, 0.024), (10000, 0.035)):
        v = np.array(vals[n])
        mult = float(expected_unique_proportion(10**6, n, 16, 0.2))
        sd = v.std(ddof=1)
        assert abs(v.mean() - mult) < 5 * sd / math.sqrt(v.size)
        lines.append(f"n = {n}: conditional over 12 populations mean {v.mean():.5f}, sd {sd:.5f}, range "
                     f"[{v.min():.5f}, {v.max():.5f}]; multinomial {mult:.5f}; printed {printed}: "
                     f"{(printed - mult) / sd:+.1f} sd")
        if n == 5000:
            assert (mult - printed) > 5 * sd
    with capsys.disabled():
        print("\n" + "\n".join(lines))


@pytest.mark.parametrize("p_key", [0.0, 1.0])
def test_simulate_sample_uniques_refuses_p_key_like_the_analytic_ratio(p_key):
    """Reference: by hand.  At p_key = 0 or 1 every unit has the same key, so the population is one cell
    (F = N) and a sample of n >= 2 units is one cell with f = n: no sample unique, every proportion is
    0/0.  expected_unique_proportion refuses these p_key naming p_key; the simulation must do the same
    instead of returning NaN proportions (the same domain, (0, 1), in both)."""
    with pytest.raises(ParameterError) as analytic:
        expected_unique_proportion(60, 10, 3, p_key)
    with pytest.raises(ParameterError) as simulated:
        simulate_sample_uniques(60, 10, 3, p_key, 20, 1)
    assert analytic.value.param == simulated.value.param == "p_key"
    assert "(0, 1)" in str(analytic.value) and "(0, 1)" in str(simulated.value)
