"""Sections 1-2 of K-randomization (003): Proposition 1.1, bit and bit-vector randomization, (2.1).

Labels are read from the session's verdicts; the changed statement (rhs -> 2 rhs + 1, or the relation
reversed) of each enumerated claim must not hold (_labels.py).  References independent of the
claims and of their enumerations: laws written here from the definitions of Section 2 with
fractions.Fraction (the bit flipped with probability q; randomized response as a mixture; the
aggregated counts as a convolution of the records' categorical laws), and exhaustive checks of
Proposition 1.1 over every event of small random pmfs."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import pytest

from _labels import assert_label, changed_verdict

PROVED = ["kr.prop_1_1_if", "kr.prop_1_1_zero_case", "kr.prop_1_1_only_if", "kr.bit_pmf", "kr.bit_pmf_distance",
          "kr.truth_likelier", "kr.rr_equivalence", "kr.bit_half", "kr.bit_half_only", "kr.vector_pmf",
          "kr.vector_pmf_max", "kr.vector_pmf_min", "kr.query_pmf_product", "kr.query_term_positive"]
EXHAUSTIVE = ["kr.bit_representation", "kr.hamming_bit"]
# proved for every n and L (once checked on nL <= 4 only): (2.1) from cited laws, the support's sum mechanically
GENERAL = {"kr.query_pmf": "PROVED (with citations)", "kr.support": "PROVED"}
Q_GRID = [Fraction(1, 3), Fraction(1, 5), Fraction(2, 5), Fraction(49, 100)]


@pytest.mark.parametrize("cid", PROVED)
def test_proved(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED")


@pytest.mark.parametrize("cid", EXHAUSTIVE)
def test_exhaustive_and_a_changed_statement_is_not(cid, all_verdicts):
    assert_label(all_verdicts, cid, "PROVED (exhaustive)")
    v = changed_verdict(cid)
    assert not v.proved and not v.ok


@pytest.mark.parametrize("cid", sorted(GENERAL))
def test_proved_in_general_and_a_changed_statement_is_not(cid, all_verdicts):
    assert_label(all_verdicts, cid, GENERAL[cid])
    v = changed_verdict(cid)
    assert not v.proved and not v.ok


def test_readings_of_sections_1_and_2():
    from derivations.engine.core import all_readings
    found = {r.id for r in all_readings()}
    assert {"kr.reading.lemma_5_1", "kr.reading.phi_last_index"} <= found


# -- Proposition 1.1: every event of small pmfs ---------------------------------------------------------------
def _random_pmf(rng, size):
    w = [Fraction(rng.randint(0, 6)) for _ in range(size)]
    w[rng.randrange(size)] += 1
    tot = sum(w)
    return [x / tot for x in w]


def _events(size):
    return itertools.chain.from_iterable(itertools.combinations(range(size), r) for r in range(size + 1))


@pytest.mark.parametrize("seed", range(20))
def test_proposition_1_1_both_ways_on_every_event(seed):
    # reference: the bound exp(eps) replaced by a rational c >= 1 (the statement is about c = e^eps)
    rng = random.Random(seed)
    size = rng.randint(2, 5)
    P, Q = _random_pmf(rng, size), _random_pmf(rng, size)
    c = max((p / q for p, q in zip(P, Q) if q), default=Fraction(1))
    pmf_form = all(p <= c * q for p, q in zip(P, Q))
    event_form = all(sum(P[k] for k in S) <= c * sum(Q[k] for k in S) for S in _events(size))
    assert pmf_form == event_form
    # negative control: a bound just below the largest ratio fails at the singleton that attains it
    if pmf_form and any(q for q in Q) and c > 0:
        smaller = c * Fraction(99, 100)
        assert not all(sum(P[k] for k in S) <= smaller * sum(Q[k] for k in S) for S in _events(size))


# -- Section 2.1: bits and bit vectors ------------------------------------------------------------------------
def _flip_law(bit, lie):
    """The definition: b with probability 1 - q, 1 - b with probability q."""
    return {bit: 1 - lie, 1 - bit: lie}


@pytest.mark.parametrize("lie", Q_GRID)
def test_bit_law_from_the_definition(lie):
    for bit, y in itertools.product((0, 1), repeat=2):
        dist = abs(bit - y)
        assert _flip_law(bit, lie)[y] == (1 - lie) ** (1 - dist) * lie ** dist


@pytest.mark.parametrize("f", [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)])
def test_randomized_response_is_bit_randomization_with_q_half_f(f):
    for bit, y in itertools.product((0, 1), repeat=2):
        rr = (1 - f) * (1 if y == bit else 0) + f * Fraction(1, 2)       # truth, or a fair coin
        assert rr == _flip_law(bit, f / 2)[y]
    # negative control: q = f is not the same law
    assert (1 - f) + f / 2 != _flip_law(1, f)[1]


def test_half_makes_the_input_irrelevant_and_nothing_else_does():
    assert _flip_law(0, Fraction(1, 2)) == _flip_law(1, Fraction(1, 2))
    assert all(_flip_law(0, lie) != _flip_law(1, lie) for lie in Q_GRID)


def _vector_law(x, lie):
    """{y: P[R(x) = y]} as a product of independent bit laws."""
    out = {}
    for y in itertools.product((0, 1), repeat=len(x)):
        pr = Fraction(1)
        for bit, yb in zip(x, y):
            pr *= _flip_law(bit, lie)[yb]
        out[y] = pr
    return out


@pytest.mark.parametrize("L", [1, 2, 3, 4])
@pytest.mark.parametrize("lie", Q_GRID)
def test_vector_law_depends_on_the_hamming_distance_only_and_is_extreme_at_0_and_L(L, lie):
    for x in itertools.product((0, 1), repeat=L):
        law = _vector_law(x, lie)
        assert sum(law.values()) == 1
        for y, pr in law.items():
            dist = sum(abs(u - v) for u, v in zip(x, y))
            assert pr == (1 - lie) ** (L - dist) * lie ** dist
        assert max(law, key=law.get) == x                                    # delta = 0
        assert min(law, key=law.get) == tuple(1 - u for u in x)              # the opposite, delta = L
    # negative control: at q = 1/2 every outcome is equally likely, so no unique maximum
    flat = _vector_law((1,) * L, Fraction(1, 2))
    assert len(set(flat.values())) == 1


# -- Section 2.2: (2.1) and the support, by convolution ------------------------------------------------------
def _alphabet(L):
    return list(itertools.product((1, 0), repeat=L))      # d_1 = (1, ..., 1), d_{2^L} = (0, ..., 0)


def _counts_law_by_convolution(x, L, lie):
    """Law of A(x) = sum_i e_{R(x_i)}: the records' categorical laws convolved one record at a time."""
    alphabet = _alphabet(L)
    law = {tuple([0] * len(alphabet)): Fraction(1)}
    for rec in x:
        rec_law = _vector_law(rec, lie)
        nxt = {}
        for s, pr in law.items():
            for j, d in enumerate(alphabet):
                t = list(s)
                t[j] += 1
                nxt[tuple(t)] = nxt.get(tuple(t), 0) + pr * rec_law[d]
        law = nxt
    return law


def _formula_2_1(x, s, L, lie):
    """The right side of (2.1): the sum over y with Phi(y) = s of p^{nL - delta(x, y)} q^{delta(x, y)}."""
    alphabet, n = _alphabet(L), len(x)
    total = Fraction(0)
    for ys in itertools.product(alphabet, repeat=n):
        if tuple(sum(1 for yy in ys if yy == d) for d in alphabet) == s:
            dist = sum(abs(u - v) for xr, yr in zip(x, ys) for u, v in zip(xr, yr))
            total += (1 - lie) ** (n * L - dist) * lie ** dist
    return total


@pytest.mark.parametrize("n, L", [(1, 2), (2, 2), (3, 1), (5, 1), (2, 3)])
def test_equation_2_1_against_the_convolution_and_the_support(n, L):
    lie = Fraction(2, 7)
    for x in itertools.product(_alphabet(L), repeat=n):
        law = _counts_law_by_convolution(x, L, lie)
        assert all(sum(s) == n for s in law)
        assert len([s for s, pr in law.items() if pr > 0]) == comb(n + 2**L - 1, n)   # |S_n|, all positive
        for s, pr in law.items():
            assert _formula_2_1(x, s, L, lie) == pr
    # negative control: dropping the factor p^{nL - delta} (only q^delta) does not reproduce the law
    x = tuple(_alphabet(L)[:1]) * n
    s = next(iter(_counts_law_by_convolution(x, L, lie)))
    alphabet = _alphabet(L)
    wrong = sum(lie ** sum(abs(u - v) for xr, yr in zip(x, ys) for u, v in zip(xr, yr))
                for ys in itertools.product(alphabet, repeat=n)
                if tuple(sum(1 for yy in ys if yy == d) for d in alphabet) == s)
    assert wrong != _counts_law_by_convolution(x, L, lie)[s]


def test_query_enumeration_of_the_module_agrees_with_the_convolution():
    # the module's law_by_randomization (enumerating xi) against the convolution written here
    from derivations.k_randomization.definitions import law_by_randomization
    lie = Fraction(1, 4)
    for n, L in [(2, 2), (3, 1), (1, 3)]:
        for x in itertools.product(_alphabet(L), repeat=n):
            got = {s: pr for s, pr in law_by_randomization(x, L, lie).items() if pr}
            assert got == _counts_law_by_convolution(x, L, lie)


def _distance_profile(x, s, L):
    """N_d = #{y in D^n : Phi(y) = s, delta(x, y) = d}, d = 0..nL, counted here over D^n."""
    alphabet, n = _alphabet(L), len(x)
    prof = [0] * (n * L + 1)
    for ys in itertools.product(alphabet, repeat=n):
        if tuple(sum(1 for yy in ys if yy == d) for d in alphabet) == s:
            prof[sum(abs(u - v) for xr, yr in zip(x, ys) for u, v in zip(xr, yr))] += 1
    return prof


@pytest.mark.parametrize("n, L", [(1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (2, 2), (1, 3), (1, 4)])
def test_query_pmf_grouped_by_distance_against_the_randomization(n, L):
    """kr.query_pmf, every (n, L) with nL <= 4 (the scope of the former enumeration): P[A(x) = s] summed over all
    2^{nL} randomization outcomes xi (the module's law_by_randomization) equals sum_d N_d p^{nL-d} q^d with N_d
    counted here, at every x in D^n, every s in S_n and five values of q (the sides are polynomials in q of degree
    <= nL, so nL + 1 values fix them); outcomes off S_n never occur (kr.support); a profile shifted by one
    distance does not reproduce the law."""
    from derivations.k_randomization.definitions import law_by_randomization
    alphabet = _alphabet(L)
    support = [s for s in itertools.product(range(n + 1), repeat=len(alphabet)) if sum(s) == n]
    for lie in (Fraction(1, 3), Fraction(1, 4), Fraction(1, 5), Fraction(1, 7), Fraction(2, 5)):
        for x in itertools.product(alphabet, repeat=n):
            law = law_by_randomization(x, L, lie)
            assert {s for s, pr in law.items() if pr} <= set(support)
            for s in support:
                prof = _distance_profile(x, s, L)
                grouped = sum(N * (1 - lie) ** (n * L - d) * lie ** d for d, N in enumerate(prof))
                assert law.get(s, 0) == grouped > 0
                shifted = sum(N * (1 - lie) ** (n * L - d - 1) * lie ** (d + 1) for d, N in enumerate(prof))
                assert shifted != grouped


def test_support_counts_sum_to_n_for_every_collection():
    """kr.support: the claim's own left side, sum_k Phi_k(y) with y_i = d_{r_i}, evaluated at every y in D^n
    (n <= 3, L <= 2) by putting in the indices r_i (exact), is n; a list with an index off D (r_i = 2^L + 1)
    is outside the claim's condition and its counts do not sum to n."""
    import sympy as sp
    from derivations.engine.notation import release
    from derivations.k_randomization import definitions as kd
    c = __import__("derivations").get("kr.support")
    for n in (1, 2, 3):
        for L in (1, 2):
            K = 2 ** L
            for rs in itertools.product(range(1, K + 1), repeat=n):
                expr = release(c.lhs).subs({kd.n: n, kd.L: L}).doit()
                expr = expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == kd.R_IDX,
                                    lambda e: sp.Integer(rs[int(e.indices[0]) - 1]))
                assert sp.simplify(expr.doit()) == n
    expr = release(c.lhs).subs({kd.n: 2, kd.L: 1}).doit()
    expr = expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == kd.R_IDX, lambda e: sp.Integer(3))
    assert sp.simplify(expr.doit()) != 2
