"""Misclassification (PRAM) and privacy (``numeric.misclassification``; Shlomo and Skinner,
002_89b9dd341c0215c2.txt, Sections 2.3 and 4).

References, never the code under test:

* exact enumeration with ``fractions.Fraction`` of all k~^n labelled releases x~ of the records
  (equations (3)-(4)), aggregated into the law of the released table f~; with Bernoulli sampling,
  of all (k~ + 1)^N per-unit outcomes (not sampled, or sampled and released as j~);
* the a-matrix sum (with and without the multinomial factors) over integer matrices;
* brute-force supports of every neighbour f2 (from the enumeration) for the bad outcomes, and
  brute-force existence of an a-matrix for the supply-demand (Gale, 1957) condition;
* mpmath at 50 digits for logarithms and the profile at e^eps, bisection in mpmath for its inverse;
* closed forms worked by hand (recoding, the near-identity matrix, P^2 for uniform v).
"""
from __future__ import annotations

import doctest
import itertools
import math
from fractions import Fraction as Fr

import mpmath
import numpy as np
import pytest

import numeric.misclassification as mc
from derivations.shlomo_skinner.misclassification import compositions
from numeric import invariant_pram_matrix, misclassification_epsilon, pram_certificate, released_count_pmf
from numeric._common import ParameterError

mp = mpmath.mp


# == independent references ====================================================================================
def records(f):
    """A database with counts f (category j repeated f_j times)."""
    return tuple(j for j, c in enumerate(f) for _ in range(c))


def table_law(x, M):
    """Pr(f~ | x) by enumerating every labelled release (equation (4)), exact."""
    kt = len(M)
    law = {}
    for xt in itertools.product(range(kt), repeat=len(x)):
        p = Fr(1)
        for r, j in zip(xt, x):
            p *= M[r][j]
        if p:
            ft = tuple(sum(1 for r in xt if r == t) for t in range(kt))
            law[ft] = law.get(ft, 0) + p
    return law


def sampled_table_law(x, M, p):
    """Pr(f~ | x) when each unit is first kept with probability p, then released by M (enumerated)."""
    kt = len(M)
    law = {}
    for y in itertools.product(range(-1, kt), repeat=len(x)):    # -1: not sampled
        q = Fr(1)
        for r, j in zip(y, x):
            q *= (1 - p) if r < 0 else p * M[r][j]
        if q:
            ft = tuple(sum(1 for r in y if r == t) for t in range(kt))
            law[ft] = law.get(ft, 0) + q
    return law


def neighbours(f):
    k = len(f)
    for a in range(k):
        if f[a]:
            for b in range(k):
                if b != a:
                    g = list(f)
                    g[a] -= 1
                    g[b] += 1
                    yield tuple(g)


def a_matrix_sum(ft, f, M, multinomial=True):
    """sum over nonnegative integer a (rows f~, columns f) of [prod_j f_j!/prod a!] prod M^a."""
    kt, k = len(M), len(M[0])
    total = Fr(0)
    columns = [list(compositions(f[j], kt)) for j in range(k)]
    for cols in itertools.product(*columns):
        if any(sum(c[t] for c in cols) != ft[t] for t in range(kt)):
            continue
        term = Fr(1)
        for j, c in enumerate(cols):
            if multinomial:
                term *= Fr(math.factorial(f[j]), math.prod(math.factorial(v) for v in c))
            for t in range(kt):
                term *= M[t][j] ** c[t]
        total += term
    return total


def record_hockey(M, c):
    """max_{j1 != j2} sum_t max(0, M[t, j1] - c M[t, j2]) (exact for rational c; c = None: the floor)."""
    kt, k = len(M), len(M[0])
    best = Fr(0)
    for j1 in range(k):
        for j2 in range(k):
            if j1 != j2:
                if c is None:
                    s = sum((M[t][j1] for t in range(kt) if M[t][j2] == 0), Fr(0))
                else:
                    s = sum((max(Fr(0), M[t][j1] - c * M[t][j2]) for t in range(kt)), Fr(0))
                best = max(best, s)
    return best


def pairs_of_tables(laws, fs):
    for f1 in fs:
        for f2 in neighbours(f1):
            yield laws[f1], laws[f2]


def table_hockey(laws, fs, c):
    """sup over neighbouring f1, f2 of sum_f~ max(0, P1 - c P2); c = None: P1(f~ : P2(f~) = 0)."""
    best = Fr(0)
    for P1, P2 in pairs_of_tables(laws, fs):
        if c is None:
            s = sum((p for ft, p in P1.items() if ft not in P2), Fr(0))
        else:
            s = sum((max(Fr(0), p - c * P2.get(ft, 0)) for ft, p in P1.items()), Fr(0))
        best = max(best, s)
    return best


def table_max_ratio(laws, fs):
    """max over neighbours and outcomes of P1/P2 (inf if P1 > 0 = P2; 0/0 ignored)."""
    best = Fr(1)
    for P1, P2 in pairs_of_tables(laws, fs):
        for ft, p in P1.items():
            if ft not in P2:
                return math.inf
            best = max(best, p / P2[ft])
    return best


def record_max_ratio(M):
    best = Fr(1)
    for row in M:
        if any(row):
            if not all(row):
                return math.inf
            best = max(best, max(row) / min(row))
    return best


def random_matrix(rng, kt, k, zeros=0.35, denominators=(2, 3, 4, 5, 7)):
    """A random column-stochastic Fraction matrix with a random zero pattern (every column has a
    positive entry; some rows may be all zero)."""
    cols = []
    for _ in range(k):
        while True:
            mask = rng.random(kt) >= zeros
            if mask.any():
                break
        w = [Fr(int(rng.integers(1, 6)), int(rng.choice(denominators))) if mask[t] else Fr(0) for t in range(kt)]
        s = sum(w)
        cols.append([v / s for v in w])
    return [[cols[j][t] for j in range(k)] for t in range(kt)]


def as_float(M):
    return np.array([[float(v) for v in row] for row in M])


def of_floats(M):
    """The exact values of the float entries that the float-mode calls receive."""
    return [[Fr(float(v)) for v in row] for row in M]


def mp_log(q):
    with mp.workdps(50):
        return mpmath.log(mpmath.mpf(q.numerator) / q.denominator)


def check_upper(got, ref, rel=1e-13, abs_=1e-15):
    """got is a safe upper bound of ref (a Fraction, an mpf or inf), and close to it."""
    if ref == math.inf:
        assert got == math.inf
        return
    with mp.workdps(50):
        r = mpmath.mpf(ref.numerator) / ref.denominator if isinstance(ref, Fr) else mpmath.mpf(ref)
        assert mpmath.mpf(float(got)) >= r, (got, ref)
        assert mpmath.mpf(float(got)) - r <= rel * abs(r) + abs_, (got, ref)


# == Section 4 example matrices =================================================================================
THIRD = Fr(1, 3)
M_DOC = [[THIRD, THIRD, Fr(0)], [THIRD, THIRD, Fr(0)], [THIRD, THIRD, Fr(1)]]   # item 39's counterexample


def recoding(k, a):
    """Section 4: M[j1, j2] = 1 if j2 in 1..a and j1 = 1, or j2 in a+1..k and j1 = j2 - a + 1 (1-based)."""
    M = [[Fr(0)] * k for _ in range(k)]
    for j2 in range(1, k + 1):
        j1 = 1 if j2 <= a else j2 - a + 1
        M[j1 - 1][j2 - 1] = Fr(1)
    return M


# == 1. the pure epsilon =========================================================================================
def test_epsilon_is_the_table_epsilon_for_every_n():
    """Reference: the exact max ratio of Pr(f~ | f1)/Pr(f~ | f2) over neighbours and outcomes by
    enumeration (n = 1, 2, 3), equal to the per-record max over rows of max/min (Fractions); the
    function is a safe upper bound of its logarithm (mpmath)."""
    rng = np.random.default_rng(20120401)
    mats = [random_matrix(rng, kt, k, zeros=z) for kt, k in [(2, 2), (3, 2), (2, 3), (3, 3)]
            for z in (0.0, 0.0, 0.3, 0.5)]
    mats += [[[Fr(1), Fr(1)], [Fr(0), Fr(0)]], [[Fr(1), Fr(1), Fr(0)], [Fr(0), Fr(0), Fr(1)], [Fr(0)] * 3]]
    finite = infinite = 0
    for M in mats:
        k = len(M[0])
        ref = record_max_ratio(M)
        for n in (1, 2, 3):
            fs = list(compositions(n, k))
            laws = {f: table_law(records(f), M) for f in fs}
            assert table_max_ratio(laws, fs) == ref, (M, n)
        got = misclassification_epsilon(as_float(M))
        if ref == math.inf:
            infinite += 1
            assert got == math.inf
        else:
            finite += 1
            check_upper(got, mp_log(ref))
    assert finite >= 6 and infinite >= 3


def test_all_zero_row_is_ignored_against_the_literal_iff():
    """Reference: enumeration.  M = [[1, 1], [0, 0]] (everything released as category 1) has a zero
    entry, yet every outcome has ratio 1: 0-DP, against the document's 'finite epsilon iff all
    elements of M are positive'.  Negative control: M = [[1, 1/2], [0, 1/2]] is not eps-DP."""
    M = [[Fr(1), Fr(1)], [Fr(0), Fr(0)]]
    for n in (1, 2, 3):
        fs = list(compositions(n, 2))
        assert table_max_ratio({f: table_law(records(f), M) for f in fs}, fs) == 1
    assert misclassification_epsilon([[1.0, 1.0], [0.0, 0.0]]) == 0.0
    M2 = [[Fr(1), Fr(1, 2)], [Fr(0), Fr(1, 2)]]
    fs = list(compositions(2, 2))
    assert table_max_ratio({f: table_law(records(f), M2) for f in fs}, fs) == math.inf
    assert misclassification_epsilon(as_float(M2)) == math.inf


def test_epsilon_rounding_is_safe_near_one_and_at_overflow():
    """Reference: mpmath ln(max/min) of the float entries themselves.  Ratios within ulps of 1 (where a
    plain log(max) - log(min) may round below the exact value), and a ratio 0.5/1e-310 beyond the float
    range (the logarithms are subtracted)."""
    for d in (2.0**-52, 3 * 2.0**-52, 1e-9, 0.1):
        M = np.array([[0.5 + d, 0.5], [0.5 - d, 0.5]])
        with mp.workdps(60):
            ref = max(mpmath.log(mpmath.mpf(0.5 + d) / mpmath.mpf(0.5)),
                      mpmath.log(mpmath.mpf(0.5) / mpmath.mpf(0.5 - d)))
        got = misclassification_epsilon(M)
        assert mpmath.mpf(float(got)) >= ref and float(got) - float(ref) <= 1e-15 + 1e-13 * float(ref)
    M = np.array([[0.5, 1e-310], [0.5, 1.0 - 1e-310]])
    with mp.workdps(60):
        ref = mpmath.log(mpmath.mpf(0.5) / mpmath.mpf(1e-310))
    got = misclassification_epsilon(M)
    assert mpmath.mpf(float(got)) >= ref and float(got) == pytest.approx(float(ref), rel=1e-14)


def test_epsilon_stack_and_validation():
    """Reference: the matrix-by-matrix values (a stack is evaluated per matrix); the documented domain."""
    mats = [np.array([[0.8, 0.2], [0.2, 0.8]]), np.eye(2), np.array([[1.0, 1.0], [0.0, 0.0]])]
    stack = np.stack([np.stack(mats), np.stack(mats[::-1])])
    got = misclassification_epsilon(stack)
    assert got.shape == (2, 3)
    want = [float(misclassification_epsilon(m)) for m in mats]
    assert got[0].tolist() == want and got[1].tolist() == want[::-1]
    for bad in ([[0.5, 0.5], [0.6, 0.5]], [[-0.1, 0.0], [1.1, 1.0]], [[np.nan, 0.0], [1.0, 1.0]],
                [[np.inf, 0.0], [1.0, 1.0]], [1.0, 0.0], [[]], "M"):
        with pytest.raises(ParameterError) as err:
            misclassification_epsilon(bad)
        assert err.value.param == "M"
    # within the stated tolerance 1e-9 the column sums are accepted; beyond, refused
    misclassification_epsilon([[0.5 + 5e-10, 0.5], [0.5, 0.5]])
    with pytest.raises(ValueError, match="^M "):
        misclassification_epsilon([[0.5 + 5e-9, 0.5], [0.5, 0.5]])


# == 2. the law of the released table ==========================================================================
def test_released_count_pmf_matches_enumeration_exactly():
    """Reference: enumeration of all labelled releases (Fractions), and the a-matrix sum WITH the
    multinomial factors; the function in Fraction mode must agree exactly, in float mode to 1e-14, and
    sum to 1 over the outcomes."""
    rng = np.random.default_rng(7)
    for kt, k, n in [(2, 2, 3), (3, 2, 3), (2, 3, 4), (3, 3, 3), (1, 2, 2), (4, 3, 2)]:
        M = random_matrix(rng, kt, k, zeros=0.3)
        Mf = as_float(M)
        for f in compositions(n, k):
            law = table_law(records(f), M)
            outs = list(compositions(n, kt))
            got = released_count_pmf(np.array(outs), f, M)
            assert [got[i] for i in range(len(outs))] == [law.get(ft, 0) for ft in outs]
            assert sum(got) == 1
            gotf = released_count_pmf(np.array(outs), f, Mf)
            np.testing.assert_allclose(gotf, [float(law.get(ft, 0)) for ft in outs], rtol=1e-14, atol=1e-300)
            for ft in outs[:4]:
                assert a_matrix_sum(ft, f, M) == law.get(ft, 0)


def test_printed_a_matrix_formula_lacks_the_multinomial_factors():
    """Reference: enumeration.  k = 2, n = 2, f = (2, 0), M[:, 0] = (1/2, 1/2): Pr(f~ = (1, 1)) = 1/2 (two
    labelled releases), the document's sum without f_j!/prod a! gives 1/4 and totals 3/4."""
    M = [[Fr(1, 2), Fr(0)], [Fr(1, 2), Fr(1)]]
    law = table_law(records((2, 0)), M)
    assert law[(1, 1)] == Fr(1, 2)
    assert released_count_pmf([1, 1], [2, 0], M) == Fr(1, 2)
    assert a_matrix_sum((1, 1), (2, 0), M, multinomial=False) == Fr(1, 4)
    assert sum(a_matrix_sum(ft, (2, 0), M, multinomial=False) for ft in compositions(2, 2)) == Fr(3, 4)


def test_released_count_pmf_depends_on_the_records_only_through_f():
    """Reference: enumeration over several orderings of the same records (the law of f~ is invariant
    under permuting them), equal to released_count_pmf at f."""
    rng = np.random.default_rng(3)
    M = random_matrix(rng, 3, 3, zeros=0.2)
    x = (0, 0, 1, 2)
    f = (2, 1, 1)
    outs = list(compositions(4, 3))
    want = released_count_pmf(np.array(outs), f, M)
    for perm in set(itertools.permutations(x)):
        law = table_law(perm, M)
        assert [law.get(ft, 0) for ft in outs] == list(want)


def test_released_count_pmf_support_edges_and_guards():
    """Reference: by hand (a total other than n and a count in a row of zeros have probability 0; n = 0
    gives the empty table surely); the documented size limits name their parameter."""
    M = [[0.5, 0.0], [0.5, 1.0], [0.0, 0.0]]
    assert released_count_pmf([1, 1, 1], [1, 1], M) == 0.0
    assert released_count_pmf([1, 0, 1], [1, 1], M) == 0.0
    assert released_count_pmf([0, 0, 0], [0, 0], M) == 1.0
    assert released_count_pmf([1.0, 1.0, 0.0], [1.0, 1.0], M) == 0.5
    # binomial check for a large n: Pr(f~ = (j, n - j)) = C(n, j) 0.3^j 0.7^(n-j) (f = (n, 0))
    n = 300
    got = released_count_pmf(np.array([[j, n - j] for j in (0, 90, 300)]), [n, 0], [[0.3, 0.0], [0.7, 1.0]])
    with mp.workdps(40):
        want = [float(mpmath.binomial(n, j) * mpmath.mpf(0.3)**j * mpmath.mpf(0.7)**(n - j)) for j in (0, 90, 300)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    with pytest.raises(ParameterError) as err:                     # C(10^4 + 4, 4) = 4e14 outcomes
        released_count_pmf([10**4, 0, 0, 0, 0], [10**4, 0], np.full((5, 2), 0.2))
    assert err.value.param == "f"
    with pytest.raises(ParameterError) as err:                     # work 2e4 * 2 * (1e4 + 1) = 4e8 + ...
        released_count_pmf([10**4, 10**4], [2 * 10**4, 0], np.full((2, 2), 0.5))
    assert err.value.param == "f"
    with pytest.raises(ParameterError) as err:
        released_count_pmf([[2, 0, 0], [0, 2, 0]], [2, 0], [[-0.5, 0.0], [1.5, 1.0], [0.0, 0.0]])
    assert err.value.param == "M"
    for ft in ([-1, 2, 0], [0.5, 1.5, 0.0], [1, 1]):
        with pytest.raises(ParameterError) as err:
            released_count_pmf(ft, [1, 1], M)
        assert err.value.param == "f_tilde"


def test_released_count_pmf_batch_box_guard(monkeypatch):
    """Reference: the documented cap on the box spanned by a batch, its cells counted by hand: one outcome
    (10, 0, 0) spans 1 cell (the largest count is implicit), the batch (10, 0, 0), (0, 10, 0), (0, 0, 10)
    spans 11 x 11 = 121 cells; with the cap at 100 the batch is refused naming f_tilde, its outcomes one
    at a time are not (negative control), and agree with the binomial-free value (1/3)^10."""
    monkeypatch.setattr(mc, "MAX_CELLS", 100)
    M = np.full((3, 1), 1 / 3)
    batch = [[10, 0, 0], [0, 10, 0], [0, 0, 10]]
    with pytest.raises(ParameterError) as err:
        released_count_pmf(batch, [10], M)
    assert err.value.param == "f_tilde"
    for ft in batch:
        assert released_count_pmf(ft, [10], M) == pytest.approx(3.0**-10, rel=1e-14)
    monkeypatch.setattr(mc, "MAX_CELLS", 121)
    np.testing.assert_allclose(released_count_pmf(batch, [10], M), 3.0**-10, rtol=1e-14)


# == 3. the certificate: profile, floor, inverse ================================================================
def _mp_profile(M, eps):
    """max_{j1 != j2} sum_t max(0, a_t - e^eps b_t) at 50 digits with the float entries exactly."""
    A = as_float(M)
    k = A.shape[1]
    with mp.workdps(50):
        c = mpmath.exp(mpmath.mpf(eps)) if eps != math.inf else None
        best = mpmath.mpf(0)
        for j1 in range(k):
            for j2 in range(k):
                if j1 != j2:
                    if c is None:
                        s = mpmath.fsum(mpmath.mpf(A[t, j1]) for t in range(A.shape[0]) if A[t, j2] == 0)
                    else:
                        s = mpmath.fsum(max(mpmath.mpf(0), mpmath.mpf(A[t, j1]) - c * mpmath.mpf(A[t, j2]))
                                        for t in range(A.shape[0]))
                    best = max(best, s)
        return best


def test_record_profile_against_mpmath_and_the_table():
    """Reference: (i) the record profile at 50 digits (e^eps of the float eps, the float entries): the
    method is an upper bound within 1e-13; (ii) the table's hockey-stick divergence by enumeration
    (Fractions, rational c) is at most the record profile at c, with equality at n = 1; (iii) the
    table's floor (P1 of the outcomes impossible under P2) equals the record floor for n = 1, 2, 3."""
    rng = np.random.default_rng(11)
    mats = [random_matrix(rng, kt, k, zeros=z) for kt, k in [(2, 2), (3, 3), (3, 2), (2, 3)] for z in (0.0, 0.4)]
    mats += [M_DOC, recoding(3, 2)]
    cs = [Fr(1), Fr(3, 2), Fr(4), Fr(50)]
    for M in mats:
        cert = pram_certificate(as_float(M))
        k = len(M[0])
        epss = [0.0, 0.1, math.log(1.5), 1.0, math.log(4.0), 3.0, 40.0, math.inf]
        got = cert.delta(np.array(epss))
        for e, g in zip(epss, got):
            check_upper(g, _mp_profile(M, e), rel=1e-13, abs_=2e-15)
        floor = record_hockey(M, None)
        check_upper(cert.delta_floor, record_hockey(of_floats(M), None), abs_=1e-15)
        for n in (1, 2, 3):
            fs = list(compositions(n, k))
            laws = {f: table_law(records(f), M) for f in fs}
            assert table_hockey(laws, fs, None) == floor
            for c in cs:
                tab, rec = table_hockey(laws, fs, c), record_hockey(M, c)
                assert tab <= rec
                if n == 1:
                    assert tab == rec


def test_profile_edges():
    """Reference: by hand.  A positive M has delta = 0 for eps >= epsilon and floor 0; eps = inf gives
    the floor; negative eps is refused naming eps."""
    cert = pram_certificate([[0.8, 0.2], [0.2, 0.8]])
    assert cert.delta_floor == 0.0
    assert cert.delta([cert.epsilon, 10.0, math.inf]).tolist() == [0.0, 0.0, 0.0]
    assert cert.delta(0.0) == pytest.approx(0.6, rel=1e-14)           # TV: 0.8 - 0.2
    assert cert.delta(0.0) >= 0.6
    with pytest.raises(ParameterError) as err:
        cert.delta(-0.1)
    assert err.value.param == "eps"
    with pytest.raises(ParameterError) as err:
        cert.epsilon_for_delta(1.5)
    assert err.value.param == "delta"
    with pytest.raises(ValueError, match="sampling_prob"):
        cert.delta_sampled(1.0)


def _mp_inverse(M, d):
    """The smallest eps >= 0 with profile(eps) <= d, by bisection at 50 digits (inf if the floor > d)."""
    with mp.workdps(50):
        d = mpmath.mpf(d)
        if _mp_profile(M, math.inf) > d:
            return math.inf
        if _mp_profile(M, 0.0) <= d:
            return mpmath.mpf(0)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while _mp_profile_mp(M, hi) > d:
            hi *= 2
        for _ in range(120):
            mid = (lo + hi) / 2
            if _mp_profile_mp(M, mid) > d:
                lo = mid
            else:
                hi = mid
        return hi


def _mp_profile_mp(M, eps):
    A = as_float(M)
    k = A.shape[1]
    c = mpmath.exp(eps)
    return max(mpmath.fsum(max(mpmath.mpf(0), mpmath.mpf(A[t, j1]) - c * mpmath.mpf(A[t, j2]))
                           for t in range(A.shape[0]))
               for j1 in range(k) for j2 in range(k) if j1 != j2)


def test_epsilon_for_delta_against_bisection():
    """Reference: bisection of the profile at 50 digits.  The result is never below the exact inverse and
    within 1e-12 of it; delta = 0 gives epsilon (floor 0); delta below the floor gives inf, at the floor a
    finite value."""
    rng = np.random.default_rng(5)
    mats = [random_matrix(rng, kt, k, zeros=z) for kt, k in [(2, 2), (3, 3), (4, 3)] for z in (0.0, 0.4)]
    mats += [M_DOC, [[Fr(1, 2), Fr(0)], [Fr(1, 2), Fr(1)]]]
    for M in mats:
        cert = pram_certificate(as_float(M))
        ds = [0.0, 1e-6, 0.01, 0.1, 0.3, 0.6, 1.0]
        got = cert.epsilon_for_delta(np.array(ds))
        for d, g in zip(ds, got):
            ref = _mp_inverse(M, d)
            if ref == math.inf:
                assert g == math.inf, (M, d)
            else:
                assert mpmath.mpf(float(g)) >= ref and float(g) - float(ref) <= 1e-12 * (1 + float(ref)), (M, d, g, ref)
        if cert.delta_floor == 0:
            assert float(cert.epsilon_for_delta(0.0)) == pytest.approx(float(cert.epsilon), rel=1e-13, abs=1e-13)
            assert cert.epsilon_for_delta(0.0) >= float(_mp_inverse(M, 0.0))
        else:
            assert cert.epsilon_for_delta(np.nextafter(cert.delta_floor, 0) * (1 - 1e-12)) == math.inf
            assert cert.epsilon_for_delta(cert.delta_floor) < math.inf


# == 3d. sampling before misclassification ======================================================================
@pytest.mark.parametrize("k,kt", [(2, 2), (3, 3), (2, 3)])
def test_sampling_keeps_epsilon_and_scales_the_profile(k, kt):
    """Reference: enumeration of the table's law under Bernoulli(p) sampling then misclassification
    (N = 1..4, p = 1/3 and 2/3, Fractions).  (i) the table's max ratio equals the per-record max ratio
    (unchanged by sampling); (ii) the table's hockey-stick divergence at rational c is at most
    p * record profile, with equality at N = 1, and its floor is exactly p * the record floor."""
    rng = np.random.default_rng(100 + 10 * k + kt)
    for trial in range(3):
        M = random_matrix(rng, kt, k, zeros=0.0 if trial == 0 else 0.35)
        for p in (Fr(1, 3), Fr(2, 3)):
            cert = pram_certificate(as_float(M), sampling_prob=float(p))
            ref_ratio = record_max_ratio(M)
            assert cert.epsilon_sampled == cert.epsilon
            for N in range(1, 5 if k == 2 else 4):
                fs = list(compositions(N, k))
                laws = {f: sampled_table_law(records(f), M, p) for f in fs}
                assert table_max_ratio(laws, fs) == ref_ratio
                assert table_hockey(laws, fs, None) == p * record_hockey(M, None)
                for c in (Fr(1), Fr(2), Fr(9)):
                    tab, rec = table_hockey(laws, fs, c), p * record_hockey(M, c)
                    assert tab <= rec
                    if N == 1:
                        assert tab == rec
            pf = Fr(float(p))
            check_upper(cert.delta_floor_sampled, pf * record_hockey(of_floats(M), None), abs_=1e-15)
            for e in (0.0, math.log(2.0), 2.0):
                with mp.workdps(50):
                    ref = mpmath.mpf(float(p)) * _mp_profile(M, e)
                check_upper(cert.delta_sampled(e), ref, rel=1e-13, abs_=2e-15)
            eps_s = cert.epsilon_for_delta_sampled(0.05)
            assert cert.delta_sampled(eps_s) <= 0.05 + 1e-14 or eps_s == math.inf


def test_sampling_edges():
    """Reference: by hand.  p = 0 releases nothing (epsilon 0, delta 0); p = 1 is no sampling."""
    M = [[0.5, 0.0], [0.5, 1.0]]
    c0 = pram_certificate(M, sampling_prob=0.0)
    assert c0.epsilon_sampled == 0.0 and c0.delta_floor_sampled == 0.0 and c0.delta_sampled(0.0) == 0.0
    c1 = pram_certificate(M, sampling_prob=1.0)
    assert c1.epsilon_sampled == math.inf and c1.delta_floor_sampled == c1.delta_floor == 0.5
    with pytest.raises(ParameterError) as err:
        pram_certificate(M, sampling_prob=1.5)
    assert err.value.param == "sampling_prob"


# == 3e. bad outcomes ===========================================================================================
def hall_feasible(ft, f2, S):
    """Supply-demand condition (Gale 1957): totals equal and f2(T) <= f~(N(T)) for every set T."""
    k, kt = len(f2), len(ft)
    if sum(ft) != sum(f2):
        return False
    for r in range(1, k + 1):
        for T in itertools.combinations(range(k), r):
            NT = {t for t in range(kt) for j in T if S[t][j]}
            if sum(f2[j] for j in T) > sum(ft[t] for t in NT):
                return False
    return True


def brute_feasible(ft, f2, S):
    """Existence of a nonnegative integer a with column sums f2, row sums f~ and support within S."""
    kt, k = len(ft), len(f2)
    cols = [[c for c in compositions(f2[j], kt) if all(S[t][j] or c[t] == 0 for t in range(kt))] for j in range(k)]
    return any(all(sum(c[t] for c in combo) == ft[t] for t in range(kt)) for combo in itertools.product(*cols))


def test_gale_condition_matches_brute_force_feasibility():
    """Reference: brute-force existence of an a-matrix, on random sparse 3 x 3 supports, every pair of
    tables with n <= 3 (the characterisation p_bad rests on).  Both outcomes occur (negative control)."""
    rng = np.random.default_rng(1957)
    seen = {True: 0, False: 0}
    for _ in range(25):
        S = [[bool(v) for v in row] for row in (rng.random((3, 3)) > 0.5)]
        for j in range(3):
            if not any(S[t][j] for t in range(3)):
                S[int(rng.integers(3))][j] = True
        for n in (1, 2, 3):
            for f2 in compositions(n, 3):
                for ft in compositions(n, 3):
                    a, b = hall_feasible(ft, f2, S), brute_feasible(ft, f2, S)
                    assert a == b, (S, f2, ft)
                    seen[a] += 1
    assert seen[True] > 100 and seen[False] > 100


def brute_p_bad(M, f, p=None):
    """P(f~ has a neighbour f2 with Pr(f~ | f2) = 0) by enumeration (with sampling if p is given)."""
    law = (lambda g: table_law(records(g), M)) if p is None else (lambda g: sampled_table_law(records(g), M, p))
    P1 = law(f)
    supports = [set(law(g)) for g in neighbours(f)]
    return sum((q for ft, q in P1.items() if any(ft not in s for s in supports)), Fr(0))


def brute_document_bad(M, f):
    """P(some row j~ (not all zero) with A = {j : M[j~, j] = 0} nonempty has f~_j~ = n - f(A))."""
    n = sum(f)
    P1 = table_law(records(f), M)
    rows = [t for t in range(len(M)) if any(M[t]) and not all(M[t])]
    bad = lambda ft: any(ft[t] == n - sum(f[j] for j in range(len(f)) if M[t][j] == 0) for t in rows)
    return sum((q for ft, q in P1.items() if bad(ft)), Fr(0))


def _cases_for_p_bad():
    rng = np.random.default_rng(2012)
    out = [(M_DOC, (0, 2, 0)), (M_DOC, (1, 1, 0)), (M_DOC, (0, 1, 2)), (recoding(3, 2), (1, 1, 1)),
           ([[Fr(1), Fr(1, 2)], [Fr(0), Fr(1, 2)]], (2, 0)), ([[Fr(1, 2), Fr(0)], [Fr(1, 2), Fr(1)]], (1, 1))]
    for kt, k, n in [(3, 3, 2), (3, 3, 3), (2, 3, 3), (3, 2, 4), (4, 3, 2), (3, 4, 3)]:
        for _ in range(3):
            M = random_matrix(rng, kt, k, zeros=0.45)
            f = tuple(int(v) for v in rng.multinomial(n, [1 / k] * k))
            out.append((M, f))
    return out


def test_p_bad_against_enumeration():
    """Reference: enumeration of the outcomes and of every neighbour's support (Fractions).  Fraction
    entries give the exact value (rounded up to a float); float entries an upper bound within 1e-12;
    the lower bound and the union bound bracket it; the document's criterion by enumeration too."""
    nonzero = zero = 0
    for M, f in _cases_for_p_bad():
        ref = brute_p_bad(M, f)
        nonzero += ref > 0
        zero += ref == 0
        exact = pram_certificate(M, f=f)
        assert exact.p_bad_exact is True
        assert exact.p_bad == mc._frac_up(ref), (M, f)
        cert = pram_certificate(as_float(M), f=f)
        assert cert.p_bad_exact is True
        check_upper(cert.p_bad, ref, rel=1e-12, abs_=1e-13)
        # the float entries are roundings of the fractions: the lower bound may move by ~1e-16 relative
        assert cert.p_bad_lower <= float(ref) * (1 + 1e-12)
        assert cert.p_bad_document == pytest.approx(float(brute_document_bad(M, f)), abs=1e-13)
    assert nonzero >= 8 and zero >= 3


def test_p_bad_documents_counterexample():
    """Reference: enumeration.  k = 3, n = 2, M = [[1/3, 1/3, 0], [1/3, 1/3, 0], [1/3, 1/3, 1]], f = (0, 2, 0):
    f~ = (1, 1, 0) is not bad by the document's criterion, yet f2 = (0, 1, 1) gives it probability 0;
    p_bad = 4/9 against the criterion's 2/9."""
    law2 = table_law(records((0, 1, 1)), M_DOC)
    assert (1, 1, 0) not in law2 and released_count_pmf([1, 1, 0], [0, 1, 1], M_DOC) == 0
    assert released_count_pmf([1, 1, 0], [0, 2, 0], M_DOC) == Fr(2, 9)
    assert brute_p_bad(M_DOC, (0, 2, 0)) == Fr(4, 9) and brute_document_bad(M_DOC, (0, 2, 0)) == Fr(2, 9)
    cert = pram_certificate(M_DOC, f=[0, 2, 0])
    assert cert.p_bad == mc._frac_up(Fr(4, 9)) and cert.p_bad_document == pytest.approx(2 / 9, rel=1e-14)


def test_document_criterion_flags_a_harmless_outcome():
    """Reference: enumeration.  M = [[1, 1/2], [0, 1/2]], f = (2, 0): f~ = (2, 0) is 'bad' by the document's
    criterion (row 2: f~_2 = 0 = n - f_1) with probability 1, but its only neighbour (1, 1) gives it 1/2:
    no outcome is bad."""
    M = [[Fr(1), Fr(1, 2)], [Fr(0), Fr(1, 2)]]
    assert brute_p_bad(M, (2, 0)) == 0 and brute_document_bad(M, (2, 0)) == 1
    cert = pram_certificate(as_float(M), f=[2, 0])
    assert cert.p_bad == 0.0 and cert.p_bad_exact and cert.p_bad_document == 1.0


def test_p_bad_union_bound_flag(monkeypatch):
    """Reference: enumeration (the exact value).  With the exact enumeration disabled (no atom allowed) the
    flag is False and the union bound is returned, at least the exact value; negative control: True with the
    default limits."""
    M, f = M_DOC, (0, 1, 2)
    ref = brute_p_bad(M, f)
    assert ref > 0
    assert pram_certificate(as_float(M), f=f).p_bad_exact is True
    monkeypatch.setattr(mc, "MAX_ATOMS", 0)
    cert = pram_certificate(as_float(M), f=f)
    assert cert.p_bad_exact is False
    assert cert.p_bad >= ref and cert.p_bad_lower <= ref


def test_p_bad_is_independent_of_n_in_cost_and_shrinks():
    """Reference: the closed form for M_DOC with f = (0, n, 0): the only event is 'every record of category 2
    avoids row 3', probability (2/3)^n (enumeration agrees for n = 2); n = 10^6 stays fast and finite."""
    assert brute_p_bad(M_DOC, (0, 2, 0)) == Fr(2, 3) ** 2
    for n in (2, 10, 200, 10**6):
        cert = pram_certificate(as_float(M_DOC), f=[0, n, 0])
        with mp.workdps(30):
            ref = (mpmath.mpf(2) / 3) ** n
        assert cert.p_bad_exact and float(cert.p_bad) >= float(ref) * (1 - 1e-15)
        assert float(cert.p_bad) == pytest.approx(float(ref), rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("p", [Fr(1, 2), Fr(1, 3)])
def test_p_bad_with_sampling_against_enumeration(p):
    """Reference: enumeration of the sampled table's law and of every neighbour's support."""
    for M, f in _cases_for_p_bad()[:10]:
        if sum(f) > 3:
            continue
        ref = brute_p_bad(M, f, p)
        cert = pram_certificate(as_float(M), f=f, sampling_prob=float(p))
        assert cert.p_bad_sampled_exact is True
        check_upper(cert.p_bad_sampled, ref, rel=1e-12, abs_=1e-13)
        assert cert.p_bad_sampled_lower <= cert.p_bad_sampled


def test_recoding_matrix():
    """Reference: by hand and enumeration.  Recoding (categories 1..a merged, Section 4) has a row mixing 1
    and 0 (epsilon inf) and the floor 1 (j1 = 1, j2 = a + 1: row 1 has M[1, 1] = 1 and M[1, a + 1] = 0);
    every outcome is bad (p_bad = 1 by enumeration), and the document's criterion also gives 1."""
    for k, a in [(3, 2), (4, 2), (5, 3), (3, 1)]:
        M = recoding(k, a)
        assert all(sum(M[t][j] for t in range(k)) == 1 for j in range(k))
        cert = pram_certificate(as_float(M))
        assert cert.epsilon == math.inf and cert.delta_floor == 1.0
        assert cert.delta(5.0) == 1.0 and cert.epsilon_for_delta(0.99) == math.inf
        if k <= 4:
            f = tuple([1] * k)
            assert brute_p_bad(M, f) == 1 == brute_document_bad(M, f)
            c = pram_certificate(M, f=f)
            assert c.p_bad == 1.0 and c.p_bad_document == 1.0
    # a = k merges everything: one released category, 0-DP (the all-zero rows are ignored)
    assert misclassification_epsilon(as_float(recoding(3, 3))) == 0.0


@pytest.mark.parametrize("k", [2, 3, 5])
def test_near_identity_matrix(k):
    """Reference: closed form by hand, M = (1 - theta) I + theta/k: epsilon = ln((1 - theta + theta/k) /
    (theta/k)) (mpmath), the float entries rounding it by ~1e-16."""
    for theta in (0.05, 0.3, 0.9):
        M = (1 - theta) * np.eye(k) + theta / k
        with mp.workdps(50):
            th = mpmath.mpf(theta)
            ref = mpmath.log((1 - th + th / k) / (th / k))
        assert float(misclassification_epsilon(M)) == pytest.approx(float(ref), rel=1e-13)
        assert pram_certificate(M).delta_floor == 0.0


def test_invariant_pram_matrix():
    """Reference: the Gouweleeuw et al. (1998) construction worked in Fractions in its own row convention
    (P[k, l] = Pr(l | k), Q[k, l] = P[l, k] v_l / sum_j P[j, k] v_j, R = P Q, v R = v), transposed for (3);
    M v = v and stochastic columns; for uniform v, M = P^2 and epsilon = ln(diag/off) by hand."""
    def gouweleeuw(theta, v):
        k = len(v)
        P = [[theta if a == b else (1 - theta) / (k - 1) for b in range(k)] for a in range(k)]
        lam = [sum(P[j][a] * v[j] for j in range(k)) for a in range(k)]
        Q = [[P[l][a] * v[l] / lam[a] for l in range(k)] for a in range(k)]
        R = [[sum(P[a][m] * Q[m][b] for m in range(k)) for b in range(k)] for a in range(k)]
        return R

    for theta, v in [(Fr(7, 10), [Fr(1, 5), Fr(3, 10), Fr(1, 2)]), (Fr(1, 2), [Fr(1, 10), Fr(9, 10)]),
                     (Fr(9, 10), [Fr(1, 4)] * 4), (Fr(0), [Fr(1, 3), Fr(2, 3)])]:
        R = gouweleeuw(theta, v)
        k = len(v)
        assert [sum(v[a] * R[a][b] for a in range(k)) for b in range(k)] == v           # v R = v
        M = invariant_pram_matrix(float(theta), [float(x) for x in v])
        np.testing.assert_allclose(M, [[float(R[b][a]) for b in range(k)] for a in range(k)], rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(M @ np.array([float(x) for x in v]), [float(x) for x in v], rtol=1e-13)
        np.testing.assert_allclose(M.sum(axis=0), 1.0, rtol=1e-14)
    # uniform v: M = P^2, diag t^2 + (1 - t)^2/(k - 1), off 2 t (1 - t)/(k - 1) + (1 - t)^2 (k - 2)/(k - 1)^2
    k = 4
    thetas = np.array([0.3, 0.6, 0.95])
    M = invariant_pram_matrix(thetas, np.ones(k))
    assert M.shape == (3, k, k)
    diag = thetas**2 + (1 - thetas) ** 2 / (k - 1)
    off = 2 * thetas * (1 - thetas) / (k - 1) + (1 - thetas) ** 2 * (k - 2) / (k - 1) ** 2
    np.testing.assert_allclose(np.diagonal(M, axis1=1, axis2=2), diag[:, None] * np.ones(k), rtol=1e-13)
    np.testing.assert_allclose(misclassification_epsilon(M), np.abs(np.log(diag / off)), rtol=1e-12)
    # a category absent from v is never released: a row of zeros, ignored by epsilon
    M0 = invariant_pram_matrix(0.8, [0.0, 0.5, 0.5])
    assert np.all(M0[0] == 0) and np.isfinite(misclassification_epsilon(M0))
    for bad, param in [(dict(retention=1.2, v=[0.5, 0.5]), "retention"), (dict(retention=0.5, v=[1.0]), "v"),
                       (dict(retention=0.5, v=[0.0, 0.0]), "v")]:
        with pytest.raises(ParameterError) as err:
            invariant_pram_matrix(**bad)
        assert err.value.param == param


def test_invariant_pram_matrix_extreme_scales():
    """Reference: exact rationals.  The construction depends on v only through v/sum(v), so the
    doubles given are converted exactly (Fraction), normalised exactly and run through the
    Gouweleeuw et al. construction in Fractions; for uniform v it is P^2 = [[17/25, 8/25], [8/25,
    17/25]] at theta = 4/5.  Inputs whose float sum overflows (1e308 + 1e308) or whose scale is
    subnormal.  Tolerance policy: 1e-13 relative, 1e-15 absolute (as test_invariant_pram_matrix)."""
    def construction(theta, v):
        k = len(v)
        v = [x / sum(v) for x in v]
        P = [[theta if a == b else (1 - theta) / (k - 1) for b in range(k)] for a in range(k)]
        lam = [sum(P[j][a] * v[j] for j in range(k)) for a in range(k)]
        Q = [[P[l][a] * v[l] / lam[a] for l in range(k)] for a in range(k)]
        return [[float(sum(P[b][m] * Q[m][a] for m in range(k))) for b in range(k)] for a in range(k)]  # M = R^T

    np.testing.assert_allclose(invariant_pram_matrix(0.8, [1e308, 1e308]), [[0.68, 0.32], [0.32, 0.68]],
                               rtol=1e-13, atol=1e-15)
    for theta, v in [(0.8, [1e308, 1e308]), (0.7, [5e307, 1.5e308]), (0.6, [1e308, 1.7e308, 3e307]),
                     (0.8, [1e-320, 3e-320]), (0.9, [5e-324, 5e-324, 1e-323])]:
        ref = construction(Fr(theta), [Fr(x) for x in v])
        np.testing.assert_allclose(invariant_pram_matrix(theta, v), ref, rtol=1e-13, atol=1e-15)


def test_paper_invariance_convention():
    """Reference: by hand.  The document's 'vM = v' is the row convention: with (3)'s columns,
    M = [[1, 1/2], [0, 1/2]], v = (1/2, 1/2) has vM = v but E[f~/n] = M v = (3/4, 1/4) != v; the
    invariant matrix satisfies M v = v instead."""
    M = np.array([[1.0, 0.5], [0.0, 0.5]])
    v = np.array([0.5, 0.5])
    assert np.allclose(v @ M, v) and not np.allclose(M @ v, v)
    Mi = invariant_pram_matrix(0.7, [0.25, 0.75])
    assert np.allclose(Mi @ [0.25, 0.75], [0.25, 0.75]) and not np.allclose([0.25, 0.75] @ Mi, [0.25, 0.75])


def test_certificate_validation_and_report():
    """Reference: the documented domains; the report names the figures (negative control: a positive M
    reports epsilon-DP, a recoding matrix reports no (eps, delta < 1)-DP)."""
    for kw, param in [(dict(n=0), "n"), (dict(n=3, f=[1, 1]), "f"), (dict(f=[1, 1, 1]), "f"),
                      (dict(f=[0, 0]), "f"), (dict(f=[0.5, 0.5]), "f"), (dict(sampling_prob=[0.5]), "sampling_prob")]:
        with pytest.raises(ParameterError) as err:
            pram_certificate([[0.5, 0.0], [0.5, 1.0]], **kw)
        assert err.value.param == param
    good = str(pram_certificate([[0.8, 0.2], [0.2, 0.8]], n=10))
    assert "epsilon-DP holds" in good and "1.38629" in good and "n = 10" in good
    bad = str(pram_certificate(as_float(recoding(3, 2)), f=[1, 1, 1], sampling_prob=0.5))
    assert "no (eps, delta < 1)-DP" in bad and "epsilon-DP holds" not in bad and "P(bad outcome) = 1" in bad
    c = pram_certificate([[0.5, 0.0], [0.5, 1.0]], f=[1, 1])
    assert c.n == 2 and c.f == (1, 1)
    with pytest.raises(Exception):
        c.epsilon = 0.0                                  # frozen


def test_docstring_examples():
    """Reference: the values in the docstrings, worked by hand in their comments."""
    result = doctest.testmod(mc, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
