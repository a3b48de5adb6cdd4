"""Section 3 of Zhilyaev and Zeber (003): the privacy ratio, (3.1), and the single-bit count A_n(m).

References, independent of the claims and their enumerations: the law of the count by brute force over
every report vector y in {0,1}^n (written here from the definition of R, exact fractions); a Bernoulli
dynamic programme (exact fractions) for larger n; scipy's binomial law (floats) for n = 40.  Each test says
which it uses.  Cdfs at real x are sums of pmf values over the integers s <= x (no floor)."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import derivations
from _labels import assert_label, changed_verdict

PROVED = {"kr.neighbour_counts": "PROVED (exhaustive)", "kr.ratio_reduction": "PROVED (exhaustive)"}
PROVED.update({cid: "PROVED (with citations)" for cid in (
    "kr.recursion_one", "kr.recursion_zero", "kr.pmf_zero_decreases", "kr.pmf_between_shift",
    "kr.pmf_between_neighbour", "kr.cdf_recursion_one", "kr.cdf_recursion_zero", "kr.mean", "kr.variance",
    "kr.cdf_difference", "kr.cdf_difference_shift", "kr.cdf_sandwich_lower", "kr.cdf_sandwich_upper",
    "kr.cdf_sandwich_left")})
# proved for every n and L from cited laws (derivations.engine.laws); once checked on a finite scope only
PROVED.update({cid: "PROVED (with citations)" for cid in (
    "kr.support_positive", "kr.record_count_law", "kr.quantile_step", "kr.epsilon_pointwise", "kr.conditioning",
    "kr.ratio_conditioning", "kr.ratio_conditioning_read", "kr.count_law_enumerated")})
SLOW_PROVED = {"kr.count_law": "PROVED (with citations)"}
FAST_CONTROLS = list(PROVED)   # a changed statement is refused at once
Q_VALUES = (Fraction(1, 5), Fraction(1, 3), Fraction(9, 20))


# -- independent references --------------------------------------------------------------------------------------
def brute_pmf(x, q):
    """P[A(x) = s], s = 0..n, for bits x: every report vector y, P[R(x_i) = y_i] = 1 - q if y_i = x_i else q."""
    n = len(x)
    out = [Fraction(0)] * (n + 1)
    for y in itertools.product((0, 1), repeat=n):
        pr = Fraction(1)
        for xi, yi in zip(x, y):
            pr *= (1 - q) if xi == yi else q
        out[sum(y)] += pr
    return out


def dp_pmf(n, m, q):
    """P[A_n(m) = s] by adding one Bernoulli report at a time (m with success 1 - q, n - m with success q)."""
    pmf = [Fraction(1)]
    for succ in [1 - q] * m + [q] * (n - m):
        nxt = [Fraction(0)] * (len(pmf) + 1)
        for s, v in enumerate(pmf):
            nxt[s] += v * (1 - succ)
            nxt[s + 1] += v * succ
        pmf = nxt
    return pmf


def pmf_at(pmf, s):
    return pmf[s] if 0 <= s < len(pmf) else Fraction(0)


def cdf_at(pmf, x):
    """P[A <= x] for real (Fraction) x, summing the pmf over integers s <= x."""
    return sum((v for s, v in enumerate(pmf) if s <= x), Fraction(0))


def quantile(pmf, alpha):
    """inf{y : P[A <= y] >= alpha}, scanning the integers."""
    return next(k for k in range(len(pmf)) if cdf_at(pmf, k) >= alpha)


# -- labels (from the session's verdicts) and negative controls of the enumerated claims -------------------------------
@pytest.mark.parametrize("cid", list(PROVED) + list(SLOW_PROVED))
def test_proved(cid, all_verdicts):
    assert_label(all_verdicts, cid, {**PROVED, **SLOW_PROVED}[cid])


@pytest.mark.parametrize("cid", FAST_CONTROLS)
def test_a_changed_statement_is_not_proved(cid):
    v = changed_verdict(cid)
    assert not v.proved and not v.holds


def test_the_readings_of_section_3():
    ids = {r.id for r in derivations.engine.core.all_readings()}
    assert {"kr.reading.ratio_denominator", "kr.reading.floor"} <= ids


# -- Section 3: (3.1) ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("q", Q_VALUES)
def test_first_expression_as_printed_is_one_but_pi_is_not(q):
    """Reference: brute force. n = 1, L = 1, x_1 = 0, x_1' = 1, s = (1, 0): pi = P[R(1) = 1]/P[R(0) = 1] = p/q,
    while the printed first expression (x_1' in numerator and denominator) is 1 for every s."""
    pi = brute_pmf((1,), q)[1] / brute_pmf((0,), q)[1]
    assert pi == (1 - q) / q != 1


@pytest.mark.parametrize("q", Q_VALUES)
def test_conditioning_identity_l1(q):
    """Reference: brute force over y. P[A(x) = s] = P[R(x_1) = 1] P[A(x~) = s-1] + P[R(x_1) = 0] P[A(x~) = s]."""
    for n in range(2, 6):
        for x in itertools.product((0, 1), repeat=n):
            full, rest = brute_pmf(x, q), brute_pmf(x[1:], q)
            r1 = brute_pmf(x[:1], q)
            for s in range(n + 1):
                assert full[s] == r1[1] * pmf_at(rest, s - 1) + r1[0] * pmf_at(rest, s)


@pytest.mark.parametrize("q", Q_VALUES)
def test_largest_ratio_is_p_over_q_for_one_bit(q):
    """Reference: brute force, L = 1. The largest pi over neighbours and s is p/q for every n (so the epsilon of
    kr.epsilon_pointwise is ln(p/q)), and a two-point event never exceeds it."""
    for n in range(1, 5):
        best = Fraction(0)
        for x in itertools.product((0, 1), repeat=n):
            for i in range(n):
                xp = x[:i] + (1 - x[i],) + x[i + 1:]
                law, law_p = brute_pmf(x, q), brute_pmf(xp, q)
                best = max(best, max(b / a for a, b in zip(law, law_p)))
                for s1, s2 in itertools.combinations(range(n + 1), 2):
                    assert (law_p[s1] + law_p[s2]) / (law[s1] + law[s2]) <= (1 - q) / q
        assert best == (1 - q) / q


# -- Section 3.1: the count ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("q", Q_VALUES)
def test_count_law_depends_on_m_only(q):
    """Reference: brute force over y against the Bernoulli dynamic programme (both exact)."""
    for n in range(1, 7):
        for x in itertools.product((0, 1), repeat=n):
            assert brute_pmf(x, q) == dp_pmf(n, sum(x), q)


def test_count_law_against_scipy():
    """Reference: scipy's binomial pmfs convolved (floats) against the exact programme, n = 40."""
    import numpy as np
    from scipy.stats import binom

    n, q = 40, Fraction(3, 10)
    for m in (0, 7, 25, 40):
        ref = np.convolve(binom.pmf(np.arange(m + 1), m, 0.7), binom.pmf(np.arange(n - m + 1), n - m, 0.3))
        exact = np.array([float(v) for v in dp_pmf(n, m, q)])
        assert np.allclose(ref, exact, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("q", Q_VALUES)
def test_ratio_reduction_on_every_neighbour(q):
    """Reference: brute force. pi((s, n-s); x, x') is pi(s; m-1) if x_1 = 1 and 1/pi(s; m) if x_1 = 0."""
    for n in range(1, 5):
        laws = {m: dp_pmf(n, m, q) for m in range(n + 1)}
        for x in itertools.product((0, 1), repeat=n):
            xp = (1 - x[0],) + x[1:]
            m = sum(x)
            assert sum(xp) in (m - 1, m + 1)
            for s in range(n + 1):
                pi = brute_pmf(xp, q)[s] / brute_pmf(x, q)[s]
                expected = laws[m - 1][s] / laws[m][s] if x[0] == 1 else 1 / (laws[m][s] / laws[m + 1][s])
                assert pi == expected


@pytest.mark.parametrize("q", Q_VALUES)
def test_recursions_with_boundary_conventions(q):
    """Reference: brute force over y. (3.2) and (3.3) at every s = 0..n, the out-of-range terms being 0."""
    p = 1 - q
    for n in range(1, 7):
        for m in range(n + 1):
            now = brute_pmf((1,) * m + (0,) * (n - m), q)
            for s in range(n + 1):
                if m >= 1:
                    prev = brute_pmf((1,) * (m - 1) + (0,) * (n - m), q)
                    assert now[s] == p * pmf_at(prev, s - 1) + q * pmf_at(prev, s)
                if m <= n - 1:
                    prev = brute_pmf((1,) * m + (0,) * (n - 1 - m), q)
                    assert now[s] == q * pmf_at(prev, s - 1) + p * pmf_at(prev, s)


@pytest.mark.parametrize("q", Q_VALUES)
def test_bullets(q):
    """Reference: exact programme. P[A_n(m)=0] <= P[A_{n-1}(m)=0]; P[A_n(m)=s] and P[A_n(m+1)=s] between
    P[A_{n-1}(m)=s-1] and P[A_{n-1}(m)=s]."""
    for n in range(2, 9):
        for m in range(n):
            prev, now, nxt = dp_pmf(n - 1, m, q), dp_pmf(n, m, q), dp_pmf(n, m + 1, q)
            assert now[0] <= prev[0]
            for s in range(1, n + 1):
                lo, hi = sorted((pmf_at(prev, s - 1), pmf_at(prev, s)))
                assert lo <= now[s] <= hi and lo <= nxt[s] <= hi


def test_bullet_needs_p_plus_q_one():
    """The betweenness claims use p = 1 - q: with p + q != 1 the combination q a + p b leaves [a, b]."""
    a, b, q, p = Fraction(1, 2), Fraction(1, 2), Fraction(1, 5), Fraction(9, 10)
    assert q * a + p * b > max(a, b)


@pytest.mark.parametrize("q", Q_VALUES)
def test_mean_and_variance(q):
    """Reference: exact programme; moments summed over the pmf."""
    p = 1 - q
    for n in range(1, 9):
        for m in range(n + 1):
            pmf = dp_pmf(n, m, q)
            mean = sum(s * v for s, v in enumerate(pmf))
            var = sum(s * s * v for s, v in enumerate(pmf)) - mean**2
            assert mean == n * q + m * (p - q) and var == n * p * q


REAL_X = [Fraction(k, 2) for k in range(-5, 20)] + [Fraction(7, 3), Fraction(-1, 7)]


@pytest.mark.parametrize("q", Q_VALUES)
def test_cdf_recursions_and_differences_at_real_x(q):
    """Reference: exact programme; cdfs at real x summed over integers s <= x. Floor by Fraction.__floor__."""
    p = 1 - q
    for n in range(1, 7):
        for m in range(1, n + 1):
            F_nm, F_nm1, Fp = dp_pmf(n, m, q), dp_pmf(n, m - 1, q), dp_pmf(n - 1, m - 1, q)
            for x in REAL_X:
                assert cdf_at(F_nm, x) == p * cdf_at(Fp, x - 1) + q * cdf_at(Fp, x)
                assert cdf_at(F_nm1, x) == q * cdf_at(Fp, x - 1) + p * cdf_at(Fp, x)
                fl = x.__floor__()
                assert cdf_at(F_nm, x) - cdf_at(F_nm1, x) == -(p - q) * pmf_at(Fp, fl)
                assert cdf_at(F_nm, x + 1) - cdf_at(F_nm1, x) == q * (pmf_at(Fp, fl) + pmf_at(Fp, (x + 1).__floor__()))
                assert cdf_at(F_nm, x) <= cdf_at(F_nm1, x) <= cdf_at(F_nm, x + 1)
                assert cdf_at(F_nm1, x - 1) <= cdf_at(F_nm, x) <= cdf_at(F_nm1, x)


def test_absolute_value_reading_fails():
    """The printed |x| read as the absolute value is wrong at x = 1/2 and x = -1 (reference: exact programme)."""
    q = Fraction(1, 4)
    p = 1 - q
    n, m = 4, 2
    F_nm, F_nm1, Fp = dp_pmf(n, m, q), dp_pmf(n, m - 1, q), dp_pmf(n - 1, m - 1, q)
    for x in (Fraction(1, 2), Fraction(-1)):
        diff = cdf_at(F_nm, x) - cdf_at(F_nm1, x)
        absolute = -(p - q) * (pmf_at(Fp, int(abs(x))) if abs(x).denominator == 1 else 0)
        assert diff != absolute


@pytest.mark.parametrize("q", (Fraction(1, 7), Fraction(3, 10), Fraction(12, 25)))
def test_quantile_step(q):
    """Reference: exact programme; tau by scanning the integers; alpha on a grid of 1/53 and every cdf value."""
    for n in range(1, 10):
        laws = [dp_pmf(n, m, q) for m in range(n + 1)]
        for m in range(1, n + 1):
            alphas = {Fraction(i, 53) for i in range(1, 54)}
            alphas |= {cdf_at(laws[m], k) for k in range(n + 1)} | {cdf_at(laws[m - 1], k) for k in range(n + 1)}
            for alpha in alphas:
                assert quantile(laws[m], alpha) - quantile(laws[m - 1], alpha) in (0, 1)


def test_support_positive():
    """Reference: brute force, L = 1: every count s = 0..n has positive probability from every x."""
    q = Fraction(1, 3)
    for n in range(1, 6):
        for x in itertools.product((0, 1), repeat=n):
            assert min(brute_pmf(x, q)) > 0


def _quantile_point(sb, tau_m, tau_m1, alpha, q):
    """A point of kr.quantile_step: the two quantiles, the level, q, and the two sandwich suprema at 0."""
    from derivations.k_randomization import common
    return {sb.TAU_M: tau_m, sb.TAU_M1: tau_m1, sb.SUP_LOWER: 0, sb.SUP_UPPER: 0, sb.ALPHA: alpha, common.q: q}


def test_quantile_claim_states_the_range_of_alpha():
    """kr.quantile_step carries 0 < alpha <= 1 as a condition: a case at alpha = 0 (where inf{y : F(y) >= 0} =
    -oo, F being 0 below the support) or at alpha = 5/4 (inf of the empty set, +oo) is refused as outside the
    claim, one at alpha = 1 is inside."""
    from derivations.engine.proofs import exhaust
    from derivations.k_randomization import single_bit as sb
    c = derivations.get("kr.quantile_step")
    law = dp_pmf(3, 1, Fraction(1, 4))
    assert cdf_at(law, -10**6) >= 0                       # every y qualifies at alpha = 0
    assert all(cdf_at(law, y) < Fraction(5, 4) for y in range(-2, 6))   # none at alpha = 5/4
    for alpha in (0, Fraction(5, 4)):
        e = exhaust(c, [_quantile_point(sb, 1, 1, alpha, Fraction(1, 4))], scope="alpha outside (0, 1]")
        assert not e.ok and "outside" in e.detail, alpha
    assert exhaust(c, [_quantile_point(sb, 2, 1, 1, Fraction(1, 4))], scope="alpha = 1").ok


def test_quantile_claim_states_the_range_of_q():
    """kr.quantile_step carries the paper's 0 < q < 1/2: at q = 3/4, n = 3, alpha = 1/2 the quantiles
    tau_3(0..3) are 2, 2, 1, 1 (reference: the Bernoulli programme, exact), a step of -1, and a point with
    q = 3/4 is refused as outside the claim; at q = 3/4 the sandwich F_{3,2} <= F_{3,1} fails, so the claim's
    condition sup_x [F_{n,m}(x) - F_{n,m-1}(x)] <= 0 fails there too."""
    from derivations.engine.proofs import exhaust
    from derivations.k_randomization import single_bit as sb
    q34 = Fraction(3, 4)
    laws = [dp_pmf(3, m, q34) for m in range(4)]
    taus = [quantile(law, Fraction(1, 2)) for law in laws]
    assert taus == [2, 2, 1, 1]
    assert max(cdf_at(laws[2], k) - cdf_at(laws[1], k) for k in range(4)) > 0
    c = derivations.get("kr.quantile_step")
    e = exhaust(c, [_quantile_point(sb, taus[2], taus[1], Fraction(1, 2), q34)], scope="q = 3/4")
    assert not e.ok and "outside" in e.detail
    assert exhaust(c, [_quantile_point(sb, 1, 1, Fraction(1, 2), Fraction(49, 100))], scope="q = 49/100").ok


@pytest.mark.parametrize("q", (Fraction(1, 10), Fraction(1, 4), Fraction(2, 5), Fraction(49, 100)))
def test_quantile_conditions_hold_and_the_step_is_zero_or_one(q):
    """Reference: the Bernoulli programme, exact. The conditions of kr.quantile_step exclude nothing for
    0 < q < 1/2: sup_x [F_{n,m}(x) - F_{n,m-1}(x)] <= 0 and sup_x [F_{n,m-1}(x) - F_{n,m}(x+1)] <= 0 (the cdfs
    are step functions on the integers, so the suprema are maxima over integers k = -1..n+1), and at every alpha
    at a value of either cdf the claim's own relation holds (exhaust, exact), for n <= 9."""
    from derivations.engine.proofs import exhaust
    from derivations.k_randomization import single_bit as sb
    c = derivations.get("kr.quantile_step")
    points = []
    for n in range(1, 10):
        laws = [dp_pmf(n, m, q) for m in range(n + 1)]
        for m in range(1, n + 1):
            sup_low = max(cdf_at(laws[m], k) - cdf_at(laws[m - 1], k) for k in range(-1, n + 2))
            sup_up = max(cdf_at(laws[m - 1], k) - cdf_at(laws[m], k + 1) for k in range(-1, n + 2))
            assert sup_low <= 0 and sup_up <= 0, (n, m)
            for alpha in {cdf_at(laws[m], k) for k in range(n + 1)} | {cdf_at(laws[m - 1], k) for k in range(n + 1)}:
                if alpha > 0:
                    points.append({**_quantile_point(sb, quantile(laws[m], alpha), quantile(laws[m - 1], alpha),
                                                     alpha, q), sb.SUP_LOWER: sup_low, sb.SUP_UPPER: sup_up})
    assert exhaust(c, points, scope="n <= 9").ok


# -- general L: (3.1), the record law, positivity, by brute force over every synthetic collection ------------------
def vectors(L):
    """D = (d_1, ..., d_{2^L}), d_1 = (1, ..., 1) first."""
    return sorted(itertools.product((0, 1), repeat=L), reverse=True)


def record_law(x1, q):
    """P[R(x_1) = y] for every y in {0,1}^L: each bit kept with probability 1 - q, flipped with q."""
    out = {}
    for y in itertools.product((0, 1), repeat=len(x1)):
        pr = Fraction(1)
        for b, c in zip(x1, y):
            pr *= (1 - q) if b == c else q
        out[y] = pr
    return out


def brute_counts(x, L, q):
    """P[A(x) = s]: every synthetic collection y in D^n, probability prod_i P[R(x_i) = y_i], counted by Phi."""
    D = vectors(L)
    law = {}
    for ys in itertools.product(D, repeat=len(x)):
        pr = Fraction(1)
        for xi, yi in zip(x, ys):
            pr *= record_law(xi, q)[yi]
        s = tuple(sum(1 for yy in ys if yy == d) for d in D)
        law[s] = law.get(s, Fraction(0)) + pr
    return law


def conditioned(weights, rest, s):
    """sum_j w_j P[A(x~) = s - i_j], the count vector s - i_j off the support having probability 0."""
    total = Fraction(0)
    for j, w in enumerate(weights):
        t = tuple(v - (k == j) for k, v in enumerate(s))
        total += w * rest.get(t, Fraction(0))
    return total


@pytest.mark.parametrize("n, L", [(2, 1), (3, 1), (4, 1), (2, 2), (3, 2)])
def test_conditioning_and_both_ratio_expressions(n, L):
    """Reference: brute force over every synthetic collection (exact). kr.conditioning, kr.ratio_conditioning and
    kr.ratio_conditioning_read (x_1 in the denominator) at every x in D^n, x_1' != x_1 and s in S_n; the first
    expression as printed (x_1' in both sums) is 1, which pi is not."""
    q = Fraction(1, 3)
    D = vectors(L)
    ones = [tuple(int(k == j) for k in range(len(D))) for j in range(len(D))]
    saw_pi_not_one = False
    for x in itertools.product(D, repeat=n):
        law, rest = brute_counts(x, L, q), brute_counts(x[1:], L, q)
        rho = [record_law(x[0], q)[d] for d in D]
        phi = [brute_counts(x[:1], L, q).get(e, Fraction(0)) for e in ones]
        assert phi == rho                                           # kr.record_count_law
        for s, pr in law.items():
            assert pr == conditioned(rho, rest, s)                  # kr.conditioning
        for x1p in D:
            if x1p == x[0]:
                continue
            law_p = brute_counts((x1p,) + x[1:], L, q)
            rho_p = [record_law(x1p, q)[d] for d in D]
            phi_p = [brute_counts((x1p,), L, q).get(e, Fraction(0)) for e in ones]
            for s in law:
                pi = law_p[s] / law[s]
                assert pi == conditioned(rho_p, rest, s) / conditioned(rho, rest, s)
                assert pi == conditioned(phi_p, rest, s) / conditioned(phi, rest, s)
                saw_pi_not_one |= pi != 1
    assert saw_pi_not_one


@pytest.mark.parametrize("L", [1, 2, 3])
def test_record_count_law(L):
    """Reference: brute force. P[A(x_1) = i_j] (the counts of one report) = P[R(x_1) = d_j] = p^{L - delta}
    q^delta, delta = delta(x_1, d_j), for every record x_1 and every j; a changed right side (p and q swapped)
    fails."""
    q = Fraction(1, 5)
    D = vectors(L)
    for x1 in D:
        law = brute_counts((x1,), L, q)
        for j, d in enumerate(D):
            dist = sum(a != b for a, b in zip(x1, d))
            unit = tuple(int(k == j) for k in range(len(D)))
            assert law[unit] == (1 - q) ** (L - dist) * q ** dist
            if 2 * dist != L:                  # p^a q^b = q^a p^b only when a = b
                assert law[unit] != q ** (L - dist) * (1 - q) ** dist


@pytest.mark.parametrize("n, L", [(1, 3), (2, 2), (3, 2), (4, 1)])
def test_support_positive_general_l(n, L):
    """Reference: brute force. Every s in S_n has P[A(x) = s] >= P[R(x) = y*] >= q^{nL} > 0 (the bound of
    kr.support_positive's proof), and nothing off S_n has mass."""
    q = Fraction(1, 3)
    K = 2 ** L
    support = [s for s in itertools.product(range(n + 1), repeat=K) if sum(s) == n]
    for x in itertools.product(vectors(L), repeat=n):
        law = brute_counts(x, L, q)
        assert set(law) <= set(support)
        assert all(law.get(s, 0) >= q ** (n * L) for s in support)
