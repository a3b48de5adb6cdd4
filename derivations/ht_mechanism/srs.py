"""Simple random sampling on binary data: Results 8 and 9 of the HT-mechanism paper.

Source: ``000_3f4b38deb4c4e7bd.txt``, Section 2.3 ("Cas particulier: données binaires et sondage
aléatoire simple"), Results 8 and 9 and their proofs.

Setting.  SRS of n among N, x in {0,1}^N with total t(x) in [m_t, M_t]; the HT estimate is
(N/n) y with y the number of ones in the sample, so (b = 0)

    f_t(y) = C(t, y) C(N - t, n - y) / C(N, n),   y in [max(0, n + t - N), min(n, t)],

a hypergeometric law that depends on x only through t.  Result 8: delta_{Z_0}(eps) is the
maximum over neighbouring totals (|t - t'| = 1, both in [m_t, M_t]) of sum_y (f_t - e^eps f_t')_+.
Result 9: eps_{Z_0}(0) = +oo iff min(m_t, N - M_t) < n, else
ln max{(N - M_t + 1)/(N - M_t + 1 - n), (m_t + 1)/(m_t + 1 - n)}.

The support condition in the proof of Result 8 is printed with max where min is needed
(erratum).  Everything is checked against brute force over every sample and every pair of
neighbouring binary vectors for small N, exactly.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, erratum, register, zero
from ..engine.formulas import formula

DOC = "000_3f4b38deb4c4e7bd.txt"
R8 = Source(DOC, "Section 2.3, Result 8 and its proof")
R9 = Source(DOC, "Section 2.3, Result 9")

N, n, t, y = sp.symbols("N n t y", integer=True, nonnegative=True)
m_t, M_t = sp.symbols("m_t M_t", integer=True, nonnegative=True)
eps = sp.Symbol("epsilon", nonnegative=True)

SMALL = [(NN, nn) for NN in range(2, 8) for nn in range(1, NN)]


def hyper(NN: int, nn: int, tt: int, yy: int) -> Fraction:
    """f_t(y), exact (math.comb is 0 outside the support)."""
    if yy < 0 or yy > nn or tt < 0:
        return Fraction(0)
    return Fraction(comb(tt, yy) * comb(NN - tt, nn - yy), comb(NN, nn))


def brute_law(NN: int, nn: int, x) -> dict[int, Fraction]:
    """Law of the number of ones in the sample, every sample enumerated."""
    samples = list(itertools.combinations(range(NN), nn))
    law: dict[int, Fraction] = {}
    for s in samples:
        k = sum(x[j] for j in s)
        law[k] = law.get(k, Fraction(0)) + Fraction(1, len(samples))
    return law


def _binary_pairs(NN: int, lo: int, hi: int):
    """Every ordered neighbouring pair of binary vectors with totals in [lo, hi]."""
    for x in itertools.product((0, 1), repeat=NN):
        if lo <= sum(x) <= hi:
            for i in range(NN):
                xp = x[:i] + (1 - x[i],) + x[i + 1:]
                if lo <= sum(xp) <= hi:
                    yield x, xp


def _fail(count, why, **where) -> Enumeration:
    return Enumeration(False, count, why, {k: str(v) for k, v in where.items()})


# -- the density --------------------------------------------------------------------------------------
def _density_enum() -> Enumeration:
    count = 0
    for NN, nn in SMALL:
        for x in itertools.product((0, 1), repeat=NN):
            count += 1
            law = brute_law(NN, nn, x)
            tt = sum(x)
            if any(law.get(k, 0) != hyper(NN, nn, tt, k) for k in range(nn + 1)):
                return _fail(count, "the sample law is not hypergeometric", N=NN, n=nn, x=x)
    return Enumeration(True, count, "every x in {0,1}^N and every sample, 2 <= N <= 7, 1 <= n < N")


F_T = sp.binomial(t, y) * sp.binomial(N - t, n - y) / sp.binomial(N, n)
register(Claim(
    id="htm.r8.density", title="Result 8: f_{Z_0|X=x}(N y/n) = C(t,y) C(N-t,n-y)/C(N,n), t = t(x)",
    source=R8, kind="identity", lhs=sp.Symbol(r"P\big(\textstyle\sum_{i\in S} x_i = y\big)"), rhs=F_T,
    enumeration=_density_enum,
    note="Depends on x only through t(x); support y in [max(0, n + t - N), min(n, t)]."))

# -- the pmf ratio and its monotonicity --------------------------------------------------------------
RATIO = (t + 1 - y) * (N - t) / ((t + 1) * (N - t - n + y))
_ratio_def = F_T / F_T.subs(t, t + 1)
register(Claim(
    id="htm.r8.pmf_ratio",
    title="Proof of Result 8: f_t(y)/f_{t+1}(y) = (t + 1 - y)(N - t)/((t + 1)(N - t - n + y)) on the common support",
    source=R8, kind="identity", lhs=_ratio_def, rhs=RATIO,
    proof=lambda: zero(sp.combsimp(_ratio_def) - RATIO, "combsimp of the ratio of binomials"),
    note="The source prints this fraction; its left side is OCR-damaged and is read as f_t/f_{t+1}, the reading "
         "under which the printed fraction is correct (its inverse is f_{t+1}/f_t)."))
def _ratio_point(rng):
    NN = rng.randint(20, 10**6)
    nn = rng.randint(1, NN // 3)
    tt = rng.randint(nn, NN - nn - 1)        # common support: every y in [0, n]
    return rng.randint(0, nn), tt, NN, nn


def _eps_point(rng):
    NN = rng.randint(20, 10**6)
    nn = rng.randint(1, NN // 4)
    return NN, nn, rng.randint(nn, NN // 2), rng.randint(NN // 2 + 1, NN - nn)


formula("srs_binary_pmf_ratio", RATIO, (y, t, N, n), ("htm.r8.pmf_ratio",), R8,
        "f_t(y)/f_{t+1}(y) for simple random sampling on binary data (hypergeometric laws).", sample=_ratio_point)

_yr = sp.Symbol("y", positive=True)      # a real y inside the common support: t + 1 - y > 0, N - t - n + y > 0
_a, _c = sp.symbols("a c", positive=True)  # a = t + 1 - y, c = N - t - n + y
_dlog = sp.diff(sp.log(RATIO), y)
register(Claim(
    id="htm.r8.ratio_decreasing",
    title="f_t(y)/f_{t+1}(y) is decreasing in y: d/dy ln ratio = -1/(t+1-y) - 1/(N-t-n+y) < 0",
    source=R8, kind="sign", lhs=_dlog, relation="<",
    conditions=(sp.Gt(t + 1 - y, 0), sp.Gt(N - t - n + y, 0)),
    proof=lambda: (lambda e: all_of(zero(sp.together(_dlog - e.subs({_a: t + 1 - y, _c: N - t - n + y})),
                                         "d/dy ln ratio = -1/a - 1/c"),
                                    Proof(bool(e.is_negative), ("a, c > 0 on the common support, so the sum is < 0",))))(
        -1 / _a - 1 / _c),
    note="So max_y f_t/f_{t+1} is at the smallest common y and max_y f_{t+1}/f_t at the largest."))

# -- the support condition (printed with max) ---------------------------------------------------------
_lo = lambda tt: sp.Max(0, n + tt - N)  # noqa: E731
_hi = lambda tt: sp.Min(n, tt)          # noqa: E731
SAME_SUPPORT = sp.Piecewise((1, sp.And(sp.Eq(_lo(t), _lo(t + 1)), sp.Eq(_hi(t), _hi(t + 1)))), (0, True))


def _support_enum() -> Enumeration:
    count = 0
    for NN in range(2, 16):
        for nn in range(1, NN):
            for tt in range(0, NN):
                count += 1
                same = ({k for k in range(nn + 1) if hyper(NN, nn, tt, k)}
                        == {k for k in range(nn + 1) if hyper(NN, nn, tt + 1, k)})
                if same != (min(tt, NN - 1 - tt) >= nn):
                    return _fail(count, "support equality does not match min(t, N-1-t) >= n", N=NN, n=nn, t=tt)
    return Enumeration(True, count, "supports of the exact laws, 2 <= N <= 15, 1 <= n < N, 0 <= t < N")


SUPPORT = Claim(
    id="htm.r8.support_condition",
    title="Proof of Result 8 (corrected): supp f_t = supp f_{t+1} iff min(t, N - 1 - t) >= n",
    source=R8, kind="identity", lhs=SAME_SUPPORT,
    rhs=sp.Piecewise((1, sp.Ge(sp.Min(t, N - 1 - t), n)), (0, True)), enumeration=_support_enum,
    note="lhs is 1 when [max(0, n+t-N), min(n, t)] = [max(0, n+t+1-N), min(n, t+1)]: the upper ends agree iff "
         "t >= n, the lower ends iff N - 1 - t >= n; both are needed.")
erratum("htm.r8.support_condition",
        printed=Claim(id="htm.r8.support_condition.printed",
                      title="Proof of Result 8 as printed: supp f_t = supp f_{t+1} iff max(N - 1 - t, t) >= n",
                      source=R8, kind="identity", lhs=SAME_SUPPORT,
                      rhs=sp.Piecewise((1, sp.Ge(sp.Max(N - 1 - t, t), n)), (0, True)),
                      counterexample={N: sp.Integer(5), n: sp.Integer(2), t: sp.Integer(0)}),
        corrected=SUPPORT,
        explanation="The two ends of the support must both agree, which needs t >= n and N - 1 - t >= n, i.e. the "
                    "minimum. With N = 5, n = 2, t = 0: max(4, 0) = 4 >= 2, yet supp f_0 = {0} and "
                    "supp f_1 = {0, 1} (the sample can contain the single one). Result 9's condition min(m_t, "
                    "N - M_t) < n is the corrected one.")


# -- Result 8: delta_{Z_0}(eps) -----------------------------------------------------------------------
def delta0_by_totals(NN: int, nn: int, lo: int, hi: int, c: Fraction) -> Fraction:
    """Result 8's formula: max over neighbouring totals of sum_y (f_t - c f_t')_+ ."""
    best = Fraction(0)
    for tt in range(lo, hi + 1):
        for tp in (tt - 1, tt + 1):
            if lo <= tp <= hi:
                s = sum((max(hyper(NN, nn, tt, k) - c * hyper(NN, nn, tp, k), Fraction(0)) for k in range(nn + 1)),
                        Fraction(0))
                best = max(best, s)
    return best


def _delta_enum() -> Enumeration:
    count = 0
    for NN, nn in SMALL[:15]:                     # N <= 6
        for lo in range(0, NN):
            for hi in range(lo + 1, NN + 1):
                for c in (Fraction(1), Fraction(3, 2)):
                    count += 1
                    brute = Fraction(0)
                    for x, xp in _binary_pairs(NN, lo, hi):
                        f, g = brute_law(NN, nn, x), brute_law(NN, nn, xp)
                        brute = max(brute, sum((max(f[k] - c * g.get(k, 0), Fraction(0)) for k in f), Fraction(0)))
                    if brute != delta0_by_totals(NN, nn, lo, hi, c):
                        return _fail(count, "Result 8 differs from the brute force", N=NN, n=nn, m_t=lo, M_t=hi, c=c)
    return Enumeration(True, count, "every neighbouring pair of binary vectors and every sample, 2 <= N <= 6, "
                                    "0 <= m_t < M_t <= N, e^eps in {1, 3/2}")


register(Claim(
    id="htm.r8.delta0",
    title="Result 8: delta_{Z_0,X}(eps) = max_{|t-t'|=1, t,t' in [m_t,M_t]} sum_y (C(t,y)C(N-t,n-y) - e^eps "
          "C(t',y)C(N-t',n-y))_+ / C(N,n)",
    source=R8, kind="identity", lhs=sp.Symbol(r"\delta_{Z_0,X}(\varepsilon)"),
    rhs=sp.Symbol(r"\max_{(t,t')}\sum_y \big(f_t(y) - e^{\varepsilon} f_{t'}(y)\big)_+"),
    enumeration=_delta_enum))


# -- Result 9 -----------------------------------------------------------------------------------------
EXP_EPS0 = sp.Max((N - M_t + 1) / (N - M_t + 1 - n), (m_t + 1) / (m_t + 1 - n))


def _eps_enum() -> Enumeration:
    count = infinite = 0
    for NN in range(2, 15):
        for nn in range(1, NN):
            for lo in range(0, NN):
                for hi in range(lo + 1, NN + 1):
                    count += 1
                    worst: Fraction | None = Fraction(1)
                    for tt in range(lo, hi):          # the pairs (t, t+1) and (t+1, t): laws depend on t only
                        f, g = ({k: v for k in range(nn + 1) if (v := hyper(NN, nn, u, k))} for u in (tt, tt + 1))
                        if set(f) != set(g):
                            worst = None
                            break
                        worst = max(worst, max(f[k] / g[k] for k in f), max(g[k] / f[k] for k in f))
                    claimed_inf = min(lo, NN - hi) < nn
                    if claimed_inf != (worst is None):
                        return _fail(count, "the infinity condition is wrong", N=NN, n=nn, m_t=lo, M_t=hi)
                    if worst is None:
                        infinite += 1
                    elif worst != max(Fraction(NN - hi + 1, NN - hi + 1 - nn), Fraction(lo + 1, lo + 1 - nn)):
                        return _fail(count, f"exp(eps(0)) is {worst}", N=NN, n=nn, m_t=lo, M_t=hi)
    return Enumeration(True, count, f"exact laws, 2 <= N <= 14, 1 <= n < N, 0 <= m_t < M_t <= N ({infinite} infinite); "
                                    "exp(eps) compared exactly (max ratio over all neighbouring totals)")


_tr = sp.Symbol("t", positive=True)
_nr = sp.Symbol("n", positive=True)
_Nr = sp.Symbol("N", positive=True)


def _prove_r9() -> Proof:
    up_ = (_Nr - _tr) / (_Nr - _tr - _nr)            # f_t/f_{t+1} at y = 0 (max), increasing in t
    down = (_tr + 1) / (_tr + 1 - _nr)               # f_{t+1}/f_t at y = n (max), decreasing in t
    s1 = zero(RATIO.subs({y: 0, t: _tr, N: _Nr, n: _nr}) - up_, "max_y f_t/f_{t+1} = ratio at y = 0 = (N-t)/(N-t-n)")
    s2 = zero(1 / RATIO.subs({y: _nr, t: _tr, N: _Nr, n: _nr}) - down, "max_y f_{t+1}/f_t = 1/ratio at y = n = "
                                                                      "(t+1)/(t+1-n)")
    g = sp.Symbol("g", positive=True)                # g = N - t - n > 0, h = t + 1 - n > 0
    h = sp.Symbol("h", positive=True)
    d1 = sp.factor(sp.diff(up_, _tr).subs(_Nr, g + _tr + _nr))
    d2 = sp.factor(sp.diff(down, _tr).subs(_tr, h + _nr - 1))
    s3 = Proof(bool(d1.is_positive) and bool(d2.is_negative),
               (f"d/dt (N-t)/(N-t-n) = {d1} > 0 and d/dt (t+1)/(t+1-n) = {d2} < 0, so the maxima over "
                "t in [m_t, M_t - 1] are at t = M_t - 1 and t = m_t",))
    return all_of(s1, s2, s3, Proof(True, ("with finite supports equal for every t in [m_t, M_t-1] iff "
                                           "min(m_t, N - M_t) >= n (htm.r8.support_condition), and the ratio "
                                           "monotone in y (htm.r8.ratio_decreasing)",)))


register(Claim(
    id="htm.r9.epsilon0",
    title="Result 9: eps_{Z_0}(0) = +oo if min(m_t, N - M_t) < n, else ln max{(N-M_t+1)/(N-M_t+1-n), "
          "(m_t+1)/(m_t+1-n)}",
    source=R9, kind="identity", lhs=sp.Symbol(r"\varepsilon_{Z_0,X}(0)"), rhs=sp.log(EXP_EPS0),
    conditions=(sp.Ge(sp.Min(m_t, N - M_t), n),), proof=_prove_r9, enumeration=_eps_enum,
    note="The OCR of the finite case is damaged; this is the reconstruction its proof supports, confirmed by "
         "exhaustive enumeration including the infinite case."))
formula("srs_binary_epsilon0_finite", sp.log(EXP_EPS0), (N, n, m_t, M_t), ("htm.r9.epsilon0",), R9,
        "eps_{Z_0}(0) of SRS on binary data when min(m_t, N - M_t) >= n (else +oo).", sample=_eps_point)
