"""Finite sums with symbolic limits, and signs under linear conditions.

:func:`conclude_sums` proves an identity or inequality between finite sums whose limits are symbols
(binomial distribution functions B(c; n, p) with c = i n/10, say), which SymPy does not simplify.  It
uses the calculus of indefinite sums: every ``Sum(f, (j, a, b))`` is ``G_f(b + 1) - G_f(a)`` for an
indefinite sum G_f of f (G_f(j + 1) - G_f(j) = f(j)).  In Karr's convention, which is SymPy's, this holds
for all integers a, b, empty and reversed ranges included, so sums over adjacent ranges merge and a sum
one term longer than another differs from it by that term, without cases.

:func:`sign_under` decides the sign of an expression from its symbols' assumptions and the claim's
conditions: a product or power factor by factor, a linear expression by an exact Farkas certificate (a
nonnegative combination of the linear conditions, found by SymPy's exact simplex and checked by
expansion).
"""
from __future__ import annotations

from typing import Iterable, Mapping

import sympy as sp

from .notation import release
from .render import math as _m

from .core import Claim, Proof, all_of, cite, citation, is_zero, mechanical
from .proofs import _NEED, _conclusion, _implied, _normal

_J, _G = sp.Symbol("j", integer=True), sp.Function("G")   # in the texts of steps

citation("karr_indefinite_sum", "Indefinite sums (Karr's convention)",
         "For G with G(j + 1) - G(j) = f(j) for every integer j, sum_{j=a}^{b} f(j) = G(b + 1) - G(a) for all "
         "integers a, b, where a sum with b < a - 1 is minus the sum from b + 1 to a - 1 (and is empty for b = a - 1); "
         "in particular sum_{j=a}^{b} f(j) = sum_{j=N-b}^{N-a} f(N - j).",
         "M. Karr, Summation in finite terms, J. ACM 28 (1981) 305-350, Sec. 3; SymPy's Sum follows this convention.")
citation("binomial_theorem", "Binomial theorem",
         "(x + y)^N = sum_{j=0}^{N} C(N, j) x^j y^(N - j) for every integer N >= 0.",
         "R. L. Graham, D. E. Knuth, O. Patashnik, Concrete Mathematics, 2nd ed. (1994), eq. (5.12).")
citation("binomial_symmetry", "Symmetry of binomial coefficients",
         "C(N, j) = C(N, N - j) for every integer N >= 0 and every integer j (both are 0 outside 0..N).",
         "R. L. Graham, D. E. Knuth, O. Patashnik, Concrete Mathematics, 2nd ed. (1994), eq. (5.4).")

_MAX_SHIFT = 64         # G(a + k) is tied to G(a) by at most this many terms


def _reflected(s: sp.Sum, big_n: sp.Expr) -> sp.Sum:
    """sum_{j=a}^{b} f(j) = sum_{j=N-b}^{N-a} f(N - j), with C(N, N - j) written C(N, j)."""
    (j, a, b), = s.limits
    f = s.function.xreplace({j: big_n - j})
    f = f.replace(lambda e: isinstance(e, sp.binomial) and is_zero(e.args[0] - big_n)
                  and is_zero(e.args[1] - (big_n - j)), lambda e: sp.binomial(big_n, j))
    return sp.Sum(f, (j, big_n - b, big_n - a))


class _Indefinite:
    """The sums of an expression as values of indefinite sums, one function symbol G_k per summand
    (summands equal as functions of their index share one)."""

    def __init__(self):
        self.summands: list[sp.Lambda] = []
        self.names: list[sp.Function] = []

    def of(self, f: sp.Expr, j: sp.Symbol) -> sp.Function:
        lam = sp.Lambda(j, f)
        t = sp.Dummy("t", integer=True)
        for known, name in zip(self.summands, self.names):
            diff = known(t) - lam(t)
            if not _differs_somewhere(diff) and is_zero(diff):
                return name
        self.summands.append(lam)
        self.names.append(sp.Function(f"G_{len(self.names)}"))
        return self.names[-1]

    def replace(self, expr: sp.Expr) -> sp.Expr:
        def one(s: sp.Sum) -> sp.Expr:
            if len(s.limits) != 1 or len(s.limits[0]) != 3:
                raise ValueError(f"not a single finite sum: {s}")
            j, a, b = s.limits[0]
            g = self.of(s.function, j)
            return g(b + 1) - g(a)
        return expr.replace(lambda e: isinstance(e, sp.Sum), one)

    def tie(self, expr: sp.Expr) -> sp.Expr | None:
        """Write every G_k(a + s), s an integer, through G_k at the smallest such argument: G(a + s) = G(a) +
        f(a) + ... + f(a + s - 1).  None if two arguments are too far apart."""
        reps = {}
        for lam, g in zip(self.summands, self.names):
            args = [e.args[0] for e in expr.atoms(sp.core.function.AppliedUndef) if e.func == g]
            classes: list[list[sp.Expr]] = []
            for a in args:
                for cls in classes:
                    d = sp.simplify(a - cls[0])
                    if d.is_Integer:
                        cls.append(a)
                        break
                else:
                    classes.append([a])
            for cls in classes:
                base = min(cls, key=lambda a: sp.simplify(a - cls[0]))
                for a in cls:
                    s = int(sp.simplify(a - base))
                    if s > _MAX_SHIFT:
                        return None
                    reps[g(a)] = g(base) + sp.Add(*(lam(base + t) for t in range(s)))
        return expr.xreplace(reps)


# values for a symbol by its assumptions, one list per kind, tried in this order (distinct across symbols)
_SAMPLE_VALUES = (("integer", "positive", (3, 5, 7, 11, 13, 17, 19, 23)),
                  ("integer", "nonnegative", (2, 4, 6, 8, 10, 12, 14, 16)),
                  ("integer", None, (2, 3, 5, 7, 11, 13, 17, 19)),
                  ("positive", None, tuple(sp.Rational(k, 97) for k in (13, 29, 31, 37, 41, 43, 47, 53))),
                  ("nonnegative", None, tuple(sp.Rational(k, 89) for k in (11, 17, 19, 23, 29, 31, 37, 41))),
                  ("negative", None, tuple(sp.Rational(-k, 83) for k in (13, 29, 31, 37, 41, 43, 47, 53))),
                  ("nonpositive", None, tuple(sp.Rational(-k, 79) for k in (11, 17, 19, 23, 29, 31, 37, 41))),
                  ("real", None, tuple(sp.Rational(k, 101) for k in (7, 19, 23, 41, 59, 61, 67, 71))))


def _differs_somewhere(diff: sp.Expr) -> bool:
    """``diff`` is certainly not identically 0: at one point that meets every assumption of its symbols it
    evaluates to a nonzero rational, or to a real number whose evalf has a significant nonzero value.  False
    when that is not shown (the zero test then decides)."""
    if diff.has(sp.Sum, sp.Product, sp.Integral, sp.Limit, sp.Derivative, sp.Lambda, sp.Subs):
        return False      # bound symbols: not evaluated here
    point = {}
    for k, sym in enumerate(sorted(diff.free_symbols, key=str)):
        if not isinstance(sym, sp.Symbol):
            return False
        for first, second, values in _SAMPLE_VALUES:
            if getattr(sym, f"is_{first}") and (second is None or getattr(sym, f"is_{second}")):
                value = sp.sympify(values[k % len(values)])
                break
        else:
            return False
        if any(want and name != "commutative" and getattr(value, f"is_{name}", None) is not True
               for name, want in sym.assumptions0.items()):
            return False
        point[sym] = value
    try:
        value = sp.sympify(diff.xreplace(point)).doit()
        if value.is_Rational:
            return value != 0
        if not value.is_number:
            return False
        approx = value.evalf(20)
        return bool(approx.is_Float and approx._prec != 1 and approx != 0)
    except Exception:   # a value that does not evaluate shows nothing
        return False


def _binomial_parts(lam: sp.Lambda):
    """(N, x, y) when the summand is C(N, j) x^j y^(N - j), else None."""
    j = lam.variables[0]
    f = sp.powsimp(lam.expr)
    big_n, x, y = sp.Wild("N", exclude=[j]), sp.Wild("x", exclude=[j]), sp.Wild("y", exclude=[j])
    m = f.match(sp.binomial(big_n, j) * x**j * y**(big_n - j))
    if m is None:
        return None
    if is_zero(sp.binomial(m[big_n], j) * m[x]**j * m[y]**(m[big_n] - j) - lam.expr):
        return m[big_n], m[x], m[y]
    return None


def conclude_sums(claim: Claim, certificate: sp.Expr, reflect: Mapping[sp.Sum, sp.Expr] | None = None,
                  conditions: Iterable = ()) -> Proof:
    """A claim between finite sums with symbolic limits, by indefinite sums.

    ``reflect`` maps sums of the claim to the N of the reindexing j -> N - j applied to them first (Karr's
    convention; C(N, N - j) is then written C(N, j), binomial symmetry, N a nonnegative integer).  Each
    sum becomes G(b + 1) - G(a) for an indefinite sum G of its summand; values of one G at arguments that
    differ by an integer are tied by the difference equation; a binomial summand C(N, j) x^j y^(N - j) with
    G(N + 1) - G(0) left over gives (x + y)^N (binomial theorem).  Then lhs - rhs must equal the
    ``certificate`` exactly, and the certificate must have the sign the relation states, by
    :func:`sign_under` with the claim's conditions."""
    steps = Proof()
    expr = release(claim.lhs - claim.rhs)
    for s, big_n in (reflect or {}).items():
        if s not in expr.atoms(sp.Sum):
            return _conclusion(claim, False, f"the claim has no sum {s} to reindex")
        ok = bool(big_n.is_integer) and sign_under(big_n, "nonnegative", claim.conditions)
        steps = all_of(steps, cite("karr_indefinite_sum", f"j → {_m(big_n - _J)} in {_m(s)}"),
                       cite("binomial_symmetry", _m(sp.Eq(sp.binomial(big_n, big_n - _J), sp.binomial(big_n, _J), evaluate=False))),
                       mechanical(ok, f"{_m(big_n)} is a nonnegative integer"))
        if not ok:
            return steps + _conclusion(claim, False, f"{big_n} was not shown a nonnegative integer")
        expr = expr.xreplace({s: _reflected(s, big_n)})
    ind = _Indefinite()
    try:
        expr = ind.replace(expr)
    except ValueError as exc:
        return steps + _conclusion(claim, False, str(exc))
    steps = steps + cite("karr_indefinite_sum", "every sum written G(b + 1) - G(a)")
    tied = ind.tie(sp.expand(expr))
    if tied is None:
        return steps + _conclusion(claim, False, f"two limits differ by more than {_MAX_SHIFT}")
    expr = sp.expand(tied)
    for lam, g in zip(ind.summands, ind.names):
        parts = _binomial_parts(lam)
        if parts is None:
            continue
        big_n, x, y = parts
        top, bottom = expr.coeff(g(big_n + 1)), expr.coeff(g(0))
        if top == 0 or not is_zero(top + bottom):
            continue
        ok = bool(big_n.is_integer) and sign_under(big_n, "nonnegative", claim.conditions)
        if not ok:
            continue
        steps = all_of(steps, cite("binomial_theorem", _m(sp.Eq(_G(big_n + 1) - _G(0), sp.Pow(x + y, big_n, evaluate=False), evaluate=False))))
        expr = sp.expand(expr - top * (g(big_n + 1) - g(0)) + top * (x + y)**big_n)
    left = [e for e in expr.atoms(sp.core.function.AppliedUndef) if e.func in ind.names]
    if left:
        return steps + _conclusion(claim, False, f"indefinite sums remain: {left}")
    if not is_zero(expr - certificate):
        return steps + _conclusion(claim, False, f"lhs - rhs was not shown equal to the certificate {certificate}")
    need = _NEED[claim.relation]
    ok = sign_under(certificate, need, tuple(claim.conditions) + tuple(conditions))
    return steps + _conclusion(claim, ok, f"lhs - rhs = {_m(certificate)}, which is {need}" + ("" if ok else " -- not shown"))


# -- signs under conditions ------------------------------------------------------------------------------------

def sign_under(expr: sp.Expr, need: str, conditions: Iterable = ()) -> bool:
    """``expr`` is ``need`` (zero | positive | nonnegative | negative | nonpositive) under the symbols'
    assumptions and the ``conditions``: by assumptions; a product or power factor by factor; a linear
    expression by a Farkas certificate; else as :func:`~derivations.engine.proofs._implied` decides."""
    expr = sp.sympify(expr)
    conditions = tuple(conditions)
    if need == "zero":
        return is_zero(expr)
    if need in ("negative", "nonpositive"):
        return sign_under(-expr, "positive" if need == "negative" else "nonnegative", conditions)
    if getattr(expr, f"is_{need}") is True:
        return True
    if isinstance(expr, sp.Mul):
        return _product_sign(sp.Mul.make_args(expr), need, conditions)
    if isinstance(expr, sp.Pow):
        base, ex = expr.args
        if sign_under(base, "positive", conditions):
            return True
        return need == "nonnegative" and sign_under(base, "nonnegative", conditions) and \
            sign_under(ex, "nonnegative", conditions)
    if _linear_implied(expr, need, conditions) or _implied(expr, need, conditions):
        return True
    factored = sp.factor(expr)
    return isinstance(factored, sp.Mul) and _product_sign(sp.Mul.make_args(factored), need, conditions)


def _product_sign(factors, need: str, conditions) -> bool:
    """A product is positive (nonnegative) when each factor's sign is shown and an even number are negative."""
    def minus(f, need):           # -f of a non-sum is Mul(-1, f): its own assumptions only, no recursion
        if f.is_Add or f.is_Number:
            return sign_under(-f, need, conditions)
        return getattr(f, "is_negative" if need == "positive" else "is_nonpositive") is True

    negatives, strict = 0, True
    for f in factors:
        if sign_under(f, "positive", conditions):
            continue
        if minus(f, "positive"):
            negatives += 1
        elif sign_under(f, "nonnegative", conditions):
            strict = False
        elif minus(f, "nonnegative"):
            negatives, strict = negatives + 1, False
        else:
            return False
    return negatives % 2 == 0 and (strict or need == "nonnegative")


def _linear_implied(expr: sp.Expr, need: str, conditions) -> bool:
    """expr = c + sum_k lam_k g_k identically, with c >= 0 (> 0 for ``positive`` unless a strict g_k has
    lam_k > 0), lam_k >= 0, over the linear conditions g_k >= 0 (> 0) and the symbols' own signs."""
    syms = sorted(expr.free_symbols, key=str)
    if not syms or not _linear(expr, syms):
        return False
    sides: list[tuple[sp.Expr, bool]] = []
    for cond in conditions:
        norm = _normal(sp.sympify(cond))
        if norm is not None and norm[0].free_symbols <= set(syms) and norm[0].free_symbols \
                and _linear(norm[0], syms):
            sides.append((sp.expand(norm[0]), norm[1] == "positive"))
    for s in syms:
        if s.is_positive:
            sides.append((s, True))
        elif s.is_nonnegative:
            sides.append((s, False))
        elif s.is_negative:
            sides.append((-s, True))
        elif s.is_nonpositive:
            sides.append((-s, False))
    lam = sp.symbols(f"lam0:{len(sides) + 1}")          # no assumptions: the LP's bounds are stated below
    t = sp.Symbol("t")
    residual = sp.expand(expr - lam[0] - sum(l * g for l, (g, _) in zip(lam[1:], sides)))
    equal = [sp.Eq(residual.coeff(s), 0) for s in syms] + [sp.Eq(residual.subs({s: 0 for s in syms}), 0)]
    if any(e is sp.false for e in equal):
        return False
    equal = [e for e in equal if e is not sp.true]
    strict = lam[0] + sum((l for l, (_, st) in zip(lam[1:], sides) if st), sp.Integer(0))
    from sympy.solvers.simplex import InfeasibleLPError, lpmax
    try:             # bounded (t <= 1), so infeasible is the only way it has no optimum: no certificate
        _, point = lpmax(t, equal + [t <= strict, t <= 1] + [l >= 0 for l in lam])
    except InfeasibleLPError:
        return False
    # check the certificate exactly: the multipliers are nonnegative and reproduce expr
    mult = [point.get(l, sp.Integer(0)) for l in lam]
    if any(v < 0 for v in mult):
        return False
    if sp.expand(expr - mult[0] - sum(v * g for v, (g, _) in zip(mult[1:], sides))) != 0:
        return False
    strict_value = mult[0] + sum((v for v, (_, st) in zip(mult[1:], sides) if st), sp.Integer(0))
    return strict_value > 0 if need == "positive" else True


def _linear(expr: sp.Expr, syms) -> bool:
    """``expr`` is a polynomial of degree at most 1 in ``syms``."""
    return expr.is_polynomial(*syms) and sp.Poly(expr, *syms).total_degree() <= 1
