"""Independent references for the privacy of aggregated randomized response (document 003,
003_6dfa2dbc38b4b249.txt, Sections 2.2 and 3.1; Feldman, McMillan and Talwar, FOCS 2021, arXiv 2012.12803).

Written from the definitions only; nothing here imports or mirrors ``numeric``.

Setting (Section 2.2): n records, each an L-bit vector coded as an integer in [0, 2^L); every bit is flipped
independently with probability q (0 < q < 1/2), p = 1 - q; the release is the histogram of the n randomized
vectors (for L = 1 it is equivalent to the count of reported 1s). Neighbours differ in exactly one record.
The exact privacy profile is

    delta(eps) = max over ordered neighbouring pairs (x, x') of sum_s max(0, P[A(x') = s] - e^eps P[A(x) = s]),

and eps(delta) = inf{eps >= 0 : delta(eps) <= delta}. For one pair, P'(S) - e^eps P(S) <= delta for every
set S of outcomes iff eps >= ln((P'(S) - delta) / P(S)) for every S, so

    eps(delta) = max(0, max over pairs and sets S of ln((P'(S) - delta) / P(S)));

the maximising S can be taken among the upper level sets of P'/P (at the optimum e^eps, the level set
{P'/P >= e^eps} attains the hockey-stick maximum), which is what ``_pair_epsilon_ratio`` scans.

References:

1. ``brute_*``: exact enumeration with ``fractions.Fraction`` of every collection x in ({0,1}^L)^n, every
   neighbour x', and the law of A(x) from all 2^(nL) randomized collections (product of p's and q's).
2. ``mid_*`` (L = 1): the law of the count for every k (ones among the n - 1 other records) as exact integers,
   the generating polynomial (q + p z)^(k + 1) (p + q z)^(n - 1 - k) (differing record 1) and
   (q + p z)^k (p + q z)^(n - k) (differing record 0) expanded with Python integers (q = a/b scaled by b^n;
   the products by Kronecker substitution z = 2^W), then sum_s max(0, .) in mpmath at 50 digits, both
   directions, every k; no monotonicity or symmetry is assumed.
3. ``brute_pure_ratio``: max over neighbours and outcomes of P[A(x') = s] / P[A(x) = s], exactly.
4. ``fmt_*``: the numerical bound of Feldman, McMillan and Talwar (Theorem 3.2 of arXiv 2012.12803): for
   eps0-DP local randomizers, shuffling n reports is (eps, delta)-DP whenever the pair
       P = (A + D, C - A + 1 - D),   Q = (A + 1 - D, C - A + D),
       C ~ Bin(n - 1, e^-eps0),  A ~ Bin(C, 1/2),  D ~ Bern(e^eps0 / (e^eps0 + 1)),
   is (eps, delta)-indistinguishable. The second coordinate reveals C, so the hockey-stick divergence is
   sum_c P(C = c) H_c with H_c the divergence of X = A + D against X' = A + 1 - D given C = c; with
   b = Bin(c, 1/2), alpha = e^eps0/(e^eps0 + 1), P_c(x) = alpha b(x-1) + (1-alpha) b(x),
   Q_c(x) = (1-alpha) b(x-1) + alpha b(x), and b(x-1)/b(x) = x/(c+1-x) increasing, so P_c/Q_c increases in
   x and H_c = max_t [P_c(>= t) - e^eps Q_c(>= t)]. Since b is symmetric, P_c(x) = Q_c(c+1-x), so both
   directions are equal. The tails of Bin(c, 1/2) are exact integers (sums of binomial coefficients, walked
   in c), converted to mpmath at 40 digits.
"""
from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction as Fr

import mpmath

mp = mpmath.mp


# == 1. brute force ==========================================================================================
def _popcount(v: int) -> int:
    return bin(v).count("1")


@functools.lru_cache(maxsize=None)
def record_kernel(q: Fr, L: int) -> tuple:
    """K[x][y] = P[R(x) = y] = p^(L - d(x, y)) q^d(x, y) (Section 2.1), exact."""
    q = Fr(q)
    p = 1 - q
    V = 1 << L
    return tuple(tuple(p ** (L - _popcount(x ^ y)) * q ** _popcount(x ^ y) for y in range(V)) for x in range(V))


def collection_law(x: tuple, q: Fr, L: int) -> dict:
    """Law of A(x) = Phi(R(x)): every randomized collection y (2^(nL) of them) with its probability, counted
    into the histogram over the 2^L vectors (equation (2.1)). Exact."""
    K = record_kernel(Fr(q), L)
    V = 1 << L
    law: dict = {}
    for y in itertools.product(range(V), repeat=len(x)):
        pr = Fr(1)
        for xi, yi in zip(x, y):
            pr *= K[xi][yi]
        s = [0] * V
        for yi in y:
            s[yi] += 1
        s = tuple(s)
        law[s] = law.get(s, 0) + pr
    return law


@functools.lru_cache(maxsize=None)
def brute_laws(n: int, q: Fr, L: int = 1) -> dict:
    """{x: law of A(x)} for every collection x in ({0,1}^L)^n."""
    V = 1 << L
    return {x: collection_law(x, q, L) for x in itertools.product(range(V), repeat=n)}


def neighbour_pairs(n: int, L: int = 1):
    """Every ordered pair (x, x') of collections differing in exactly one record."""
    V = 1 << L
    for x in itertools.product(range(V), repeat=n):
        for i in range(n):
            for v in range(V):
                if v != x[i]:
                    yield x, x[:i] + (v,) + x[i + 1:]


@functools.lru_cache(maxsize=None)
def _brute_pair_laws(n: int, q: Fr, L: int) -> tuple:
    """(P, P') as aligned tuples over the common support, for every ordered neighbouring pair; pairs whose
    two laws coincide exactly with an earlier pair's are listed once (they give the same divergences)."""
    laws = brute_laws(n, Fr(q), L)
    support = sorted(next(iter(laws.values())).keys())
    out = {}
    for x, xp in neighbour_pairs(n, L):
        P, Pp = laws[x], laws[xp]
        assert set(P) == set(Pp) == set(support)    # full support (Section 3: pi is well defined)
        out[(tuple(P[s] for s in support), tuple(Pp[s] for s in support))] = None
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _brute_pair_laws_mpf(n: int, q: Fr, L: int, dps: int) -> tuple:
    with mpmath.workdps(dps):
        return tuple((tuple(mpmath.mpf(a.numerator) / a.denominator for a in P),
                      tuple(mpmath.mpf(b.numerator) / b.denominator for b in Pp))
                     for P, Pp in _brute_pair_laws(n, Fr(q), L))


def brute_profile(n: int, q, r, L: int = 1):
    """delta at e^eps = r: max over ordered neighbours of sum_s max(0, P'(s) - r P(s)).
    Exact Fraction when r is a Fraction (eps = ln r)."""
    best = 0
    for P, Pp in _brute_pair_laws(n, Fr(q), L):
        h = sum((b - r * a for a, b in zip(P, Pp) if b - r * a > 0), 0)
        if h > best:
            best = h
    return best


def brute_profile_at(n: int, q, eps, L: int = 1, dps: int = 50):
    """delta(eps) for a real eps (e.g. a float returned by the code under test), mpmath at ``dps`` digits."""
    with mpmath.workdps(dps):
        r = mpmath.exp(mpmath.mpf(eps))
        zero = mpmath.mpf(0)
        best = zero
        for P, Pp in _brute_pair_laws_mpf(n, Fr(q), L, dps):
            h = mpmath.fsum(d for d in (b - r * a for a, b in zip(P, Pp)) if d > zero)
            if h > best:
                best = h
        return best


def _pair_epsilon_ratio(P, Pp, delta: Fr) -> Fr:
    """max over upper level sets S of P'/P of (P'(S) - delta) / P(S), exact (>= 1 means eps = ln of it)."""
    order = sorted(range(len(P)), key=lambda i: Pp[i] / P[i], reverse=True)
    best = Fr(0)
    a = b = Fr(0)
    for j, i in enumerate(order):
        a += P[i]
        b += Pp[i]
        # only cut between distinct ratios (ties belong to the same level set)
        if j + 1 < len(order) and Pp[order[j + 1]] * P[i] == Pp[i] * P[order[j + 1]]:
            continue
        v = (b - delta) / a
        if v > best:
            best = v
    return best


def brute_epsilon_ratio(n: int, q, delta, L: int = 1) -> Fr:
    """exp(eps(delta)) exactly (a Fraction >= 1) for a rational delta (a float is read exactly)."""
    delta = Fr(delta)
    best = Fr(1)
    for P, Pp in _brute_pair_laws(n, Fr(q), L):
        v = _pair_epsilon_ratio(P, Pp, delta)
        if v > best:
            best = v
    return best


def brute_epsilon(n: int, q, delta, L: int = 1, dps: int = 50):
    """eps(delta) = ln of ``brute_epsilon_ratio`` in mpmath."""
    R = brute_epsilon_ratio(n, q, delta, L)
    with mpmath.workdps(dps):
        return mpmath.log(mpmath.mpf(R.numerator)) - mpmath.log(mpmath.mpf(R.denominator))


def brute_pure_ratio(n: int, q, L: int = 1) -> Fr:
    """max over ordered neighbours and outcomes s of P[A(x') = s] / P[A(x) = s], exact (reference 3)."""
    return max(b / a for P, Pp in _brute_pair_laws(n, Fr(q), L) for a, b in zip(P, Pp))


def brute_count_pmf(n: int, m: int, q) -> list:
    """P[A_n(m) = s], s = 0..n, for L = 1 from the enumeration of the collection (1,)*m + (0,)*(n-m)."""
    law = brute_laws(n, Fr(q), 1)[(1,) * m + (0,) * (n - m)]
    # the histogram is (#0s, #1s) since vector 0 is index 0 and vector 1 is index 1
    return [law[(n - s, s)] for s in range(n + 1)]


# == 2. mid-size, L = 1 ======================================================================================
def _poly_pow_product(c0: int, c1: int, e1: int, d0: int, d1: int, e2: int) -> list:
    """Integer coefficients of (c0 + c1 z)^e1 (d0 + d1 z)^e2 by Kronecker substitution (z = 2^W)."""
    deg = e1 + e2
    bound = (c0 + c1) ** e1 * (d0 + d1) ** e2      # every coefficient is at most the value at z = 1
    W = bound.bit_length() + 1
    Z = 1 << W
    v = (c0 + c1 * Z) ** e1 * (d0 + d1 * Z) ** e2
    mask = Z - 1
    out = []
    for _ in range(deg + 1):
        out.append(v & mask)
        v >>= W
    assert v == 0
    return out


@functools.lru_cache(maxsize=None)
def count_law_int(n: int, m: int, q: Fr) -> tuple:
    """b^n P[A_n(m) = s], s = 0..n, as exact integers (q = a/b): coefficients of
    (a + (b - a) z)^m ((b - a) + a z)^(n - m), i.e. Bin(m, p) + Bin(n - m, q) (Section 3.1)."""
    q = Fr(q)
    a, b = q.numerator, q.denominator
    return tuple(_poly_pow_product(a, b - a, m, b - a, a, n - m))


def mid_count_pmf(n: int, m: int, q) -> list:
    """P[A_n(m) = s] as Fractions (from ``count_law_int``)."""
    q = Fr(q)
    den = q.denominator ** n
    return [Fr(v, den) for v in count_law_int(n, m, q)]


@functools.lru_cache(maxsize=None)
def _count_law_mpf(n: int, m: int, q: Fr, dps: int) -> tuple:
    with mpmath.workdps(dps):
        return tuple(mpmath.mpf(v) for v in count_law_int(n, m, q))


def mid_profile(n: int, q, eps=None, r=None, dps: int = 50):
    """delta(eps) for L = 1: max over k = 0..n-1 and both directions of the hockey-stick divergence between
    A_n(k + 1) (differing record 1) and A_n(k) (differing record 0), every neighbouring pair being one of
    these (the count depends on the collection only through its number of ones). Give ``eps`` (real; mpmath
    at ``dps`` digits) or ``r`` = e^eps as a Fraction (exact integer arithmetic)."""
    q = Fr(q)
    den = q.denominator ** n
    if r is not None:
        r = Fr(r)
        best = Fr(0)
        for k in range(n):
            U, V = count_law_int(n, k + 1, q), count_law_int(n, k, q)
            for X, Y in ((U, V), (V, U)):
                h = sum(x * r.denominator - r.numerator * y for x, y in zip(X, Y)
                        if x * r.denominator - r.numerator * y > 0)
                best = max(best, Fr(h, r.denominator * den))
        return best
    with mpmath.workdps(dps):
        E = mpmath.exp(mpmath.mpf(eps))
        zero = mpmath.mpf(0)
        best = zero
        for k in range(n):
            U, V = _count_law_mpf(n, k + 1, q, dps), _count_law_mpf(n, k, q, dps)
            for X, Y in ((U, V), (V, U)):
                h = mpmath.fsum(d for d in (x - E * y for x, y in zip(X, Y)) if d > zero)
                if h > best:
                    best = h
        return best / den


def mid_epsilon(n: int, q, delta, dps: int = 50):
    """eps(delta) for L = 1: max over k, both directions and every prefix S of the exact ratio order of
    ln((X(S) - delta) / Y(S)) (prefixes contain every level set; any set gives a valid lower value), the
    numerators exact integers, the logarithm in mpmath at ``dps`` digits."""
    q = Fr(q)
    den = q.denominator ** n
    delta = Fr(delta)
    dn, dd = delta.numerator, delta.denominator
    with mpmath.workdps(dps):
        best = mpmath.mpf(1)
        for k in range(n):
            U, V = count_law_int(n, k + 1, q), count_law_int(n, k, q)
            for X, Y in ((U, V), (V, U)):
                order = sorted(range(n + 1), key=lambda i: Fr(X[i], Y[i]), reverse=True)
                xs = ys = 0
                for i in order:
                    xs += X[i]
                    ys += Y[i]
                    num = xs * dd - dn * den
                    if num > 0:
                        v = mpmath.mpf(num) / (mpmath.mpf(ys) * dd)
                        if v > best:
                            best = v
        return mpmath.log(best)


# == 4. Feldman-McMillan-Talwar numerical bound ==============================================================
def fmt_delta(n: int, eps0, eps, dps: int = 40, cut: float = 1e-45):
    """(lower, upper) bounds on the hockey-stick divergence of the FMT pair at e^eps (Theorem 3.2 of
    arXiv 2012.12803), mpmath at ``dps`` digits. Only the c with P(C = c) above ``cut`` (relative to the mode)
    are summed; the omitted mass is added to the upper bound (each H_c <= 1)."""
    with mpmath.workdps(dps):
        eps0 = mpmath.mpf(eps0)
        E = mpmath.exp(mpmath.mpf(eps))
        e0 = mpmath.exp(eps0)
        alpha = e0 / (e0 + 1)
        pi = mpmath.exp(-eps0)
        N = n - 1
        if E >= e0:                                   # P_c / Q_c <= e^eps0 everywhere
            return mpmath.mpf(0), mpmath.mpf(0)
        rstar = (E * alpha - (1 - alpha)) / (alpha - E * (1 - alpha))   # ratio >= E iff x/(c+1-x) >= rstar
        rho = rstar / (1 + rstar)                                        # iff x >= rho (c + 1)

        def logw(c):
            return (mpmath.loggamma(N + 1) - mpmath.loggamma(c + 1) - mpmath.loggamma(N - c + 1)
                    + c * mpmath.log(pi) + (N - c) * mpmath.log(1 - pi))

        mode = int(mpmath.floor((N + 1) * pi))
        lmode = logw(mode)
        lcut = lmode + mpmath.log(cut)
        lo = mode
        while lo > 0 and logw(lo - 1) > lcut:
            lo -= 1
        hi = mode
        while hi < N and logw(hi + 1) > lcut:
            hi += 1
        # exact walk over c in [lo, hi] of T(c, t) = sum_{k >= t} comb(c, k), t = t0(c) = x*(c) - 2
        def t0_of(c):
            return max(0, int(mpmath.ceil(rho * (c + 1))) - 2)

        c = lo
        t0 = t0_of(c)
        T = sum(math.comb(c, k) for k in range(t0, c + 1))
        G = math.comb(c, t0 - 1) if t0 >= 1 else 0      # comb(c, t0 - 1), updated by exact ratios
        w = mpmath.exp(logw(lo))
        total = mpmath.mpf(0)
        mass = mpmath.mpf(0)
        odds = pi / (1 - pi)
        while True:
            # tails S(t) = T(c, t) / 2^c for t = t0 - 1 .. t0 + 5
            tails = {t0 - 1: T + G}
            Tt, g = T, G                       # g = comb(c, t - 1)
            for t in range(t0, t0 + 6):
                tails[t] = Tt
                g = (g * (c - t + 1)) // t if t >= 1 and g else math.comb(c, t)   # comb(c, t)
                Tt -= g
            two = mpmath.mpf(2) ** c
            Hc = mpmath.mpf(0)
            for t in range(t0, t0 + 6):
                s1 = mpmath.mpf(tails[t - 1]) / two          # P(A >= t - 1)
                s0 = mpmath.mpf(tails[t]) / two              # P(A >= t)
                h = (alpha * s1 + (1 - alpha) * s0) - E * ((1 - alpha) * s1 + alpha * s0)
                if h > Hc:
                    Hc = h
            total += w * Hc
            mass += w
            if c == hi:
                break
            # advance c -> c + 1: T(c+1, t0) = 2 T(c, t0) + comb(c, t0 - 1)
            T = 2 * T + G
            G = (G * (c + 1)) // (c + 2 - t0) if t0 >= 1 else 0
            w = w * (N - c) / (c + 1) * odds
            c += 1
            t1 = t0_of(c)
            while t0 < t1:                    # T(c, t0 + 1) = T(c, t0) - comb(c, t0)
                G = (G * (c - t0 + 1)) // t0 if t0 >= 1 else 1
                T -= G
                t0 += 1
        return total, total + max(mpmath.mpf(0), 1 - mass)


def fmt_epsilon(n: int, eps0, delta, tol: float = 1e-9, dps: int = 40):
    """(eps_lo, eps_hi): a bracket of the smallest eps with FMT-pair divergence <= delta, by bisection on
    the certified bounds of ``fmt_delta``: upper(eps_hi) <= delta and lower(eps_lo) > delta."""
    lo, hi = 0.0, float(eps0)
    if fmt_delta(n, eps0, 0.0, dps)[0] <= delta:
        return 0.0, 0.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        dlo, dhi = fmt_delta(n, eps0, mid, dps)
        if dhi <= delta:
            hi = mid
        elif dlo > delta:
            lo = mid
        else:                                # undecided within the certified gap: stop here
            break
    return lo, hi


def fmt_pair_brute_delta(n: int, eps0_ratio: Fr, r: Fr) -> Fr:
    """Self-check of the reduction in ``fmt_delta`` for tiny n with e^eps0 rational: the joint law of
    (A + D, C - A + 1 - D) against (A + 1 - D, C - A + D) enumerated over C, A, D, exact, the hockey-stick
    divergence summed over every outcome, the larger of the two directions."""
    e0 = Fr(eps0_ratio)
    alpha = e0 / (e0 + 1)
    pi = 1 / e0
    N = n - 1
    P: dict = {}
    Q: dict = {}
    for c in range(N + 1):
        wc = math.comb(N, c) * pi ** c * (1 - pi) ** (N - c)
        for a in range(c + 1):
            wa = wc * Fr(math.comb(c, a), 2 ** c)
            for d, wd in ((1, alpha), (0, 1 - alpha)):
                o1 = (a + d, c - a + 1 - d)
                o2 = (a + 1 - d, c - a + d)
                P[o1] = P.get(o1, 0) + wa * wd
                Q[o2] = Q.get(o2, 0) + wa * wd
    keys = set(P) | set(Q)
    h1 = sum((P.get(k, 0) - r * Q.get(k, 0) for k in keys if P.get(k, 0) - r * Q.get(k, 0) > 0), Fr(0))
    h2 = sum((Q.get(k, 0) - r * P.get(k, 0) for k in keys if Q.get(k, 0) - r * P.get(k, 0) > 0), Fr(0))
    return max(h1, h2)
