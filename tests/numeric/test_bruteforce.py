"""delta_bruteforce against independent references.

References (none uses the closed-form split of the code under test):
* b > 0: mpmath.quad (30 digits) of max(f_x - e^eps f_x', 0), the densities summed directly over
  the samples; breakpoints at the atoms and at the sign changes (found by mpmath bisection).
* b = 0: exact rational counts (total variation distance, the mass p_i of the unit that differs,
  the definition summed with its own grouping of the atoms).
* census design: the Laplace-mechanism closed form delta = max(0, 1 - e^{(eps - Delta/b)/2}).
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from numeric.bruteforce import delta_bruteforce


# -- designs (samples, probabilities) ---------------------------------------------------------------
def srs(n_pop, n):
    samples = list(itertools.combinations(range(n_pop), n))
    return samples, [F(1, len(samples))] * len(samples)


def poisson(pis):
    """Every subset, p(s) = prod_{j in s} pi_j prod_{j not in s} (1 - pi_j) (the empty sample included)."""
    samples, probs = [], []
    for mask in itertools.product([0, 1], repeat=len(pis)):
        samples.append(tuple(j for j, m in enumerate(mask) if m))
        p = F(1)
        for pi, m in zip(pis, mask):
            p *= pi if m else 1 - pi
        probs.append(p)
    return samples, probs


SRS42 = srs(4, 2)  # 6 samples, p = 1/6, HT weights 2
UNEQUAL = ([(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)], [F(1, 5), F(1, 10), F(3, 10), F(1, 4), F(3, 20)])
CENSUS3 = ([(0, 1, 2)], [F(1)])
POISSON3 = poisson([F(1, 2), F(1, 3), F(3, 4)])
DESIGNS = {"srs42": SRS42, "unequal": UNEQUAL, "census3": CENSUS3, "poisson3": POISSON3}


def inclusion(samples, probs, n_pop):
    return [sum((F(p) for s, p in zip(samples, probs) if j in s), F(0)) for j in range(n_pop)]


def sample_atoms(samples, probs, x):
    """[(t(x, s), p(s))] for every sample of positive probability, exact, not grouped."""
    pi = inclusion(samples, probs, len(x))
    return [(sum((F(x[j]) / pi[j] for j in s), F(0)), F(p)) for s, p in zip(samples, probs) if p > 0]


def pmf(samples, probs, x):
    law = Counter()
    for t, p in sample_atoms(samples, probs, x):
        law[t] += p
    return law


def mpq(q):
    return mpmath.mpf(q.numerator) / q.denominator


# -- 1. b > 0 against numerical integration -----------------------------------------------------------
def delta_quad(samples, probs, x, y, eps, b):
    """Direct mpmath.quad of (f_x - e^eps f_x')_+ at 30 digits, the densities summed over the samples."""
    with mpmath.workdps(30):
        e_eps, inv_b = mpmath.exp(mpmath.mpf(eps)), 1 / mpmath.mpf(b)
        # signed kernel weights of f_x - e^eps f_x' at each atom: p(s)/(2b) for x, -e^eps p(s)/(2b) for x'
        weight = Counter()
        for t, p in sample_atoms(samples, probs, x):
            weight[t] += mpq(p) * inv_b / 2
        for t, p in sample_atoms(samples, probs, y):
            weight[t] -= e_eps * mpq(p) * inv_b / 2
        kernels = [(mpq(t), w) for t, w in weight.items()]

        def g(z):
            return mpmath.fsum(w * mpmath.exp(-abs(z - t) * inv_b) for t, w in kernels)

        def g_plus(z):
            return max(g(z), 0)

        atoms = sorted(t for t, _ in kernels)
        points = [atoms[0]]
        for u, v in zip(atoms, atoms[1:]):
            if g(u) * g(v) < 0:  # a sign change inside: make the root a breakpoint for quad
                points.append(mpmath.findroot(g, (u, v), solver="ridder"))
            points.append(v)
        total = mpmath.quad(g_plus, [-mpmath.inf, atoms[0]]) + mpmath.quad(g_plus, [atoms[-1], mpmath.inf])
        for u, v in zip(points, points[1:]):
            total += mpmath.quad(g_plus, [u, v])
        return float(total)


PAIRS = {
    "srs42": [([1, 2, 3, 4], [1, 2, 3, -6]),  # integers, differ at unit 3
              ([0.5, -1.25, 2.0, 3.3], [0.5, -1.25, 4.7, 3.3]),  # non-integers, unit 2
              ([1, 1, 1, 1], [1, 1, 1, 6])],  # coinciding atoms (t = 4 in both laws)
    "unequal": [([1, 0, 2, 1], [1, 0, 2, 9]),
                ([0.3, -0.7, 1.1, 2.5], [4.9, -0.7, 1.1, 2.5]),
                ([2, 2, 2, 2], [2, -3, 2, 2])],
}


EPS, SCALES = (0.0, 0.3, 1.5), (0.2, 1.0, 5.0)
# Latin square: each pair meets every eps and every b, and each design meets all 9 (eps, b) combinations
LAPLACE_CASES = [(d, k, EPS[m], SCALES[(m + k) % 3]) for d in PAIRS for k in range(3) for m in range(3)]


@pytest.mark.parametrize("design, pair, eps, b", LAPLACE_CASES)
def test_laplace_against_quadrature(design, pair, eps, b):
    """b > 0 against delta_quad (mpmath.quad at 30 digits); the exact zeros (eps above the largest
    log-ratio of the densities) are zeros of the quadrature too."""
    samples, probs = DESIGNS[design]
    x, y = PAIRS[design][pair]
    want = delta_quad(samples, probs, x, y, eps, b)
    got = delta_bruteforce(samples, probs, x, y, eps, b)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_laplace_float_probabilities_against_quadrature():
    """Float probabilities (taken exactly, summing to 1 within 1e-12) against the same quadrature."""
    samples = UNEQUAL[0]
    probs = [0.2, 0.1, 0.3, 0.25, 0.15]
    x, y = [0.3, -0.7, 1.1, 2.5], [0.3, -0.7, 1.1, -1.0]
    want = delta_quad(samples, probs, x, y, 0.7, 0.5)
    assert delta_bruteforce(samples, probs, x, y, 0.7, 0.5) == pytest.approx(want, rel=1e-9, abs=1e-12)


# -- 2. b = 0 against exact counts ---------------------------------------------------------------------
def neighbours(n_pop, values):
    """Every pair (x, x') on the value grid differing at exactly one unit, with that unit."""
    for x in itertools.product(values, repeat=n_pop):
        for i in range(n_pop):
            for v in values:
                if v != x[i]:
                    yield list(x), [*x[:i], v, *x[i + 1:]], i


@pytest.mark.parametrize("design", ["srs42", "unequal", "poisson3"])
def test_pmf_eps0_is_total_variation_and_at_most_p_i(design):
    """eps = 0: delta = TV = (1/2) sum_z |f_x - f_x'| (exact Fractions), and TV <= p_i (Result 1)."""
    samples, probs = DESIGNS[design]
    n_pop = max(max(s) for s in samples if s) + 1
    pi = inclusion(samples, probs, n_pop)
    for x, y, i in itertools.islice(neighbours(n_pop, (-1, 0, 1, 2)), 0, None, 17):
        fx, fy = pmf(samples, probs, x), pmf(samples, probs, y)
        tv = sum(abs(fx[z] - fy[z]) for z in set(fx) | set(fy)) / 2
        got = delta_bruteforce(samples, probs, x, y, 0, 0)
        assert got == pytest.approx(float(tv), rel=1e-15, abs=1e-15)
        assert tv <= pi[i]


@pytest.mark.parametrize("design", ["srs42", "unequal", "poisson3"])
@pytest.mark.parametrize("eps", [0.0, 0.4, 3.0])
def test_pmf_equals_p_i_when_atoms_avoid_support(design, eps):
    """If every atom t(x, s), s containing i, lies outside supp f_x', then delta(eps) = p_i for all eps."""
    samples, probs = DESIGNS[design]
    n_pop = max(max(s) for s in samples if s) + 1
    pi = inclusion(samples, probs, n_pop)
    y = [F(1), F(-2), F(3, 7), F(5)][:n_pop]
    for i in range(n_pop):
        x = list(y)
        x[i] = F(1000) + F(1, 3)
        support = set(pmf(samples, probs, y))
        i_atoms = {sum((x[j] / pi[j] for j in s), F(0)) for s, p in zip(samples, probs) if p > 0 and i in s}
        assert not i_atoms & support  # the premise holds
        assert delta_bruteforce(samples, probs, x, y, eps, 0) == pytest.approx(float(pi[i]), rel=1e-15)


@pytest.mark.parametrize("design", ["srs42", "unequal"])
def test_pmf_definition_and_small_b_limit(design):
    """b = 0 against the definition with its own grouping of atoms (mpmath e^eps); and b = 1e-3 gives the
    same value when the atoms are >= 1/2 apart (the Laplace kernels are then e^{-250}-separated)."""
    samples, probs = DESIGNS[design]
    x, y = [0, 1, 3, 7], [0, 1, 3, 12]
    for eps in (0.0, 0.2, 1.0):
        fx, fy = pmf(samples, probs, x), pmf(samples, probs, y)
        with mpmath.workdps(30):
            e = mpmath.exp(eps)
            want = float(sum(max(mpq(fx[z]) - e * mpq(fy[z]), 0) for z in set(fx) | set(fy)))
        atoms = sorted(set(fx) | set(fy))
        assert min(v - u for u, v in zip(atoms, atoms[1:])) >= F(1, 2)
        assert delta_bruteforce(samples, probs, x, y, eps, 0) == pytest.approx(want, rel=1e-14)
        assert delta_bruteforce(samples, probs, x, y, eps, 1e-3) == pytest.approx(want, rel=1e-12)


def test_pmf_hand_count():
    """SRS 2 of 4, x = (1,0,0,0), x' = 0: atoms 2 (p = 1/2) and 0 (p = 1/2) vs 0 (p = 1); by hand
    delta(eps) = 1/2 for every eps (the atom 2 is outside supp f_x'), and in reverse
    delta(eps, x', x) = (1 - e^eps / 2)_+ ."""
    samples, probs = SRS42
    x, y = [1, 0, 0, 0], [0, 0, 0, 0]
    for eps in (0.0, 0.5, 2.0):
        assert delta_bruteforce(samples, probs, x, y, eps, 0) == 0.5
    assert delta_bruteforce(samples, probs, y, x, 0.0, 0) == 0.5
    assert delta_bruteforce(samples, probs, y, x, 0.5, 0) == pytest.approx(1 - mpmath.exp(0.5) / 2, rel=1e-15)
    assert delta_bruteforce(samples, probs, y, x, 0.7, 0) == 0.0


# -- 3. census closed form ----------------------------------------------------------------------------
def census_delta(delta_t, b, eps):
    """Laplace mechanism, sensitivity Delta > 0: max(0, 1 - e^{(eps - Delta/b)/2}), mpmath 30 digits."""
    with mpmath.workdps(30):
        return float(max(0, 1 - mpmath.exp((mpmath.mpf(eps) - mpq(F(delta_t)) / mpmath.mpf(b)) / 2)))


@pytest.mark.parametrize("delta_t, b, eps", [(1, 1, 0), (1, 1, 0.5), (1, 1, 1), (1, 1, 2), (3, 0.5, 2.5),
                                             (0.25, 2, 0), (10, 0.1, 50), (10, 0.1, 99.9), (2, 4, 0.1)])
def test_census_closed_form(delta_t, b, eps):
    samples, probs = CENSUS3
    y = [F(1, 3), -2, 0.75]
    x = [y[0], y[1] + F(delta_t), y[2]]  # t(x) - t(x') = Delta exactly
    want = census_delta(delta_t, b, eps)
    assert delta_bruteforce(samples, probs, x, y, eps, b) == pytest.approx(want, rel=1e-12, abs=1e-15)
    # reversed pair: same value by the symmetry of the Laplace density
    assert delta_bruteforce(samples, probs, y, x, eps, b) == pytest.approx(want, rel=1e-12, abs=1e-15)


# -- 4. properties ------------------------------------------------------------------------------------
values = st.one_of(st.integers(-3, 3), st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 2)))


@st.composite
def cases(draw):
    samples, probs = DESIGNS[draw(st.sampled_from(sorted(DESIGNS)))]
    n_pop = max(max(s) for s in samples if s) + 1
    x = draw(st.lists(values, min_size=n_pop, max_size=n_pop))
    i = draw(st.integers(0, n_pop - 1))
    y = [*x[:i], draw(values), *x[i + 1:]]
    b = draw(st.one_of(st.just(0), st.floats(0.01, 5)))
    e1, e2 = sorted(draw(st.lists(st.floats(0, 3), min_size=2, max_size=2)))
    return samples, probs, x, y, b, e1, e2


@settings(max_examples=60, deadline=None)
@given(cases())
def test_properties(case):
    """delta in [0, 1]; nonincreasing in eps; symmetric at eps = 0 (total variation); delta(x, x) = 0."""
    samples, probs, x, y, b, e1, e2 = case
    d1 = delta_bruteforce(samples, probs, x, y, e1, b)
    d2 = delta_bruteforce(samples, probs, x, y, e2, b)
    assert 0 <= d2 <= 1 and 0 <= d1 <= 1
    assert d2 <= d1 + 1e-15  # equal up to rounding of the last float digit at most
    assert delta_bruteforce(samples, probs, x, y, 0, b) == pytest.approx(
        delta_bruteforce(samples, probs, y, x, 0, b), rel=1e-12, abs=1e-15)
    assert delta_bruteforce(samples, probs, x, x, e1, b) == 0.0


# -- 5. bad input -------------------------------------------------------------------------------------
GOOD = dict(samples=[(0, 1), (1, 2)], probabilities=[0.5, 0.5], x=[1, 2, 3], x_prime=[1, 2, 4], epsilon=0.5, b=1.0)


@pytest.mark.parametrize("change, name", [
    (dict(b=-0.1), "b"), (dict(b=float("nan")), "b"), (dict(b=float("inf")), "b"), (dict(b=[1, 2]), "b"),
    (dict(epsilon=-1e-9), "epsilon"), (dict(epsilon=float("inf")), "epsilon"), (dict(epsilon="a"), "epsilon"),
    (dict(x_prime=[1, 2]), "x_prime"), (dict(x=[1, 2, float("inf")]), "x"), (dict(x=[[1, 2, 3]]), "x"),
    (dict(probabilities=[0.5, 0.5 + 1e-9]), "probabilities"), (dict(probabilities=[1.5, -0.5]), "probabilities"),
    (dict(probabilities=[1.0]), "probabilities"),
    (dict(samples=[(0, 1), (1, 3)]), "samples"), (dict(samples=[(0, 1), (-1, 2)]), "samples"),
    (dict(samples=[(0, 1), (1, 1)]), "samples"), (dict(samples=[(0, 1), (1.0, 2)]), "samples"),
    (dict(samples=[(0, 1), 2]), "samples"),
])
def test_bad_input(change, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        delta_bruteforce(**{**GOOD, **change})


def test_sum_tolerance_accepts_float_rounding():
    samples, _ = SRS42
    assert 0 <= delta_bruteforce(samples, [1 / 6] * 6, [1, 2, 3, 4], [1, 2, 3, 5], 0.1, 0) <= 1


# -- 6. large values ----------------------------------------------------------------------------------
@pytest.mark.parametrize("big, b, delta_t", [(1e5, 0.01, 0.04), (1e5, 0.01, 0.01), (1e6, 1e-3, 0.002)])
@pytest.mark.parametrize("eps", [0.0, 1.0, 3.9])
def test_large_atoms_census(big, b, delta_t, eps):
    """Atoms ~1e5-1e6 with b = 0.01-0.001 (exponents up to 1e9): finite, equal to the census closed form
    with the exact difference of the float atoms."""
    samples, probs = ([(0, 1)], [1])
    y = [big, 3.0]
    x = [big, 3.0 + delta_t]
    exact_delta = F(x[1]) - F(y[1])
    got = delta_bruteforce(samples, probs, x, y, eps, b)
    assert got == pytest.approx(census_delta(exact_delta, b, eps), rel=1e-12, abs=1e-15)


def test_large_atoms_srs_matches_pmf():
    """SRS 2 of 4 with atoms ~4e5 at b = 0.01: same as b = 0 (atoms >= 2 apart, kernels e^{-200}-separated)."""
    samples, probs = SRS42
    y = [1e5, 1e5 + 1, 1e5 + 3, 1e5 + 7]
    x = [1e5, 1e5 + 1, 1e5 + 3, 1e5 + 12.5]
    for eps in (0.0, 0.3):
        at0 = delta_bruteforce(samples, probs, x, y, eps, 0)
        assert 0 < at0 <= 0.5
        assert delta_bruteforce(samples, probs, x, y, eps, 0.01) == pytest.approx(at0, rel=1e-12)
