"""Two conclusions for statements that the other conclusions leave open: integrals of exponentials with
pieces, and differences of finite sums that hold a sum of nonnegative terms.

* :func:`case_integrals` (inside a case of :func:`~derivations.engine.proofs.conclude_split`) and
  :func:`conclude_integrals` -- every integral of ``lhs - rhs`` whose integrand is built from exponentials of
  linear functions of its variable, with pieces (``Piecewise`` conditions and absolute values, each linear in
  the variable), is evaluated in closed form.  Its range is cut at the zeros of those linear functions, which
  must be shown ordered under the case's parametrization; on each open piece every condition and every sign
  of an absolute value is decided, the integrand is written as a sum of terms K e^{a v + b}, and each term is
  integrated by its antiderivative K e^{a v + b}/a (K v e^b when a = 0), checked by differentiation; an
  infinite end needs a < 0.  The integral is the sum over the pieces (additivity of the integral over
  intervals; the cut points have measure zero).  Then ``lhs - rhs`` must have the stated sign, or vanish.
  A piece whose width is c s for one nonnegative symbol s (c > 0) is decided for s > 0, and its value is
  checked to vanish at s = 0, where the piece is empty.
* :func:`conclude_sums_nonnegative` -- ``lhs - rhs`` holds finite sums (of any depth) whose terms are shown
  nonnegative over their ranges (each range nonempty or empty, never reversed, in Karr's convention); each is
  replaced by a nonnegative symbol w_k, the identity ``lhs - rhs = certificate`` (in the w_k) is proved by
  :func:`~derivations.engine.sums.conclude_sums` on that side statement, and the certificate must have the
  stated sign.
"""
from __future__ import annotations

import sympy as sp

from .core import Claim, Proof, _minted, _shown, is_zero, mechanical
from .notation import release
from .proofs import (_NEED, Case, Parametrization, _atom_value, _conclusion, _factor_abs, _param_covers, _quick_sign,
                     has_sign)
from .render import math as _m
from .sums import conclude_sums, sign_under

__all__ = ["case_integrals", "conclude_integrals", "conclude_sums_nonnegative"]


class _Refused(Exception):
    """A piece or an integral that is not decided: the reason is the message."""


def _sign(expr: sp.Expr, *needs: str) -> str | None:
    """The first of ``needs`` that ``expr`` is shown to have: the cheap forms for every one first, then
    :func:`~derivations.engine.proofs.has_sign`; None when none is shown."""
    for need in needs:
        if _quick_sign(expr, need):
            return need
    for need in needs:
        if has_sign(expr, need):
            return need
    return None


def _linear_root(expr: sp.Expr, v: sp.Symbol) -> sp.Expr | None:
    """The zero of ``expr`` as a function of ``v`` when it is linear in v with a coefficient free of v, None when
    it does not depend on v; refused otherwise."""
    expr = sp.expand(expr)
    if v not in expr.free_symbols:
        return None
    if not expr.is_polynomial(v) or sp.degree(expr, v) != 1:
        raise _Refused(f"{_m(expr)} is not linear in {_m(v)}")
    c1, c0 = expr.coeff(v, 1), expr.coeff(v, 0)
    if _sign(c1, "positive", "negative") is None:
        raise _Refused(f"the slope {_m(c1)} of {_m(expr)} is not shown nonzero")
    return sp.cancel(-c0 / c1)


def _breaks(f: sp.Expr, v: sp.Symbol) -> list[sp.Expr]:
    """The zeros in ``v`` of the linear functions the pieces of ``f`` depend on."""
    out = []
    for atom in f.atoms(sp.core.relational.Relational):
        root = _linear_root(atom.lhs - atom.rhs, v)
        if root is not None:
            out.append(root)
    for ab in f.atoms(sp.Abs):
        root = _linear_root(ab.args[0], v)
        if root is not None:
            out.append(root)
    return out


def _sorted_inside(roots, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The roots inside ]lo, hi[ (a root at or beyond an end is dropped), sorted; every comparison shown."""
    inside = []
    for r in roots:
        above = _sign(r - lo, "positive", "nonpositive", "nonnegative")
        below = "nonnegative" if hi.is_infinite else _sign(hi - r, "positive", "nonpositive", "nonnegative")
        if above == "nonpositive" or below == "nonpositive":
            continue
        if above is None or below is None:
            raise _Refused(f"the cut {_m(r)} is not placed relative to the range ]{_m(lo)}, {_m(hi)}[")
        if any(is_zero(r - x) for x in inside):
            continue
        inside.append(r)
    ordered: list[sp.Expr] = []
    for r in inside:            # insertion, each comparison decided
        for k, x in enumerate(ordered):
            side = _sign(x - r, "positive", "negative", "nonnegative", "nonpositive")
            if side in ("positive", "nonnegative"):
                ordered.insert(k, r)
                break
            if side is None:
                raise _Refused(f"the cuts {_m(r)} and {_m(x)} are not ordered")
        else:
            ordered.append(r)
    for a, b in zip(ordered, ordered[1:]):   # the order is total: each consecutive pair checked again
        if _sign(b - a, "nonnegative") is None:
            raise _Refused(f"the cuts {_m(a)} and {_m(b)} are not ordered")
    return ordered


def _exp_terms(f: sp.Expr, v: sp.Symbol):
    """``f`` as terms (K, a, b) meaning K e^{a v + b}, K, a, b free of v; refused if it is not of that form."""
    out = []
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(f)))):
        coeff, dep = term.as_independent(v, as_Add=False)
        expo = sp.Integer(0)
        for factor in sp.Mul.make_args(dep):
            if factor == 1:
                continue
            if not isinstance(factor, sp.exp):
                raise _Refused(f"the term {_m(term)} is not K e^(a {_m(v)} + b)")
            expo += factor.args[0]
        expo = sp.expand(expo)
        if not expo.is_polynomial(v) or sp.degree(expo, v) > 1:
            raise _Refused(f"the exponent {_m(expo)} is not linear in {_m(v)}")
        out.append((coeff, expo.coeff(v, 1), expo.coeff(v, 0), term))
    return out


def _piece_value(f: sp.Expr, v: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """int_lo^hi f dv for f a sum of K e^{a v + b}: antiderivatives checked by differentiation."""
    total = sp.Integer(0)
    for coeff, a, b, term in _exp_terms(f, v):
        if is_zero(a):
            if hi.is_infinite:
                raise _Refused(f"the term {_m(term)} does not decay at {_m(hi)}")
            prim = coeff * sp.exp(b) * v
        else:
            if hi.is_infinite and _sign(a, "negative") is None:
                raise _Refused(f"the term {_m(term)} is not shown to decay at {_m(hi)}")
            if _sign(a, "positive", "negative") is None:
                raise _Refused(f"the rate {_m(a)} is not shown nonzero")
            prim = coeff * sp.exp(a * v + b) / a
        if sp.expand(sp.powsimp(sp.expand(sp.diff(prim, v) - term))) != 0:
            raise _Refused(f"the antiderivative {_m(prim)} of {_m(term)} does not differentiate back")
        top = sp.Integer(0) if hi.is_infinite else prim.xreplace({v: hi})
        total += top - prim.xreplace({v: lo})
    return total


def _decided(f: sp.Expr, v: sp.Symbol, point: sp.Expr, twin: dict) -> sp.Expr:
    """``f`` with every condition of its pieces and every absolute value decided at ``point`` (a generic point
    of one open piece, in the new symbols; ``twin`` replaces a nonnegative symbol by a positive one for the
    decisions only)."""
    def sub(e):
        return sp.sympify(e).xreplace({v: point}).xreplace(twin)
    values = {}
    for atom in f.atoms(sp.core.relational.Relational):
        val = _atom_value(atom, sub)
        if val is None:
            raise _Refused(f"{_m(atom)} is not decided on the piece {_m(v)} = {_m(point)}")
        values[atom] = val
    f = f.xreplace(values)
    signs = {}
    for ab in f.atoms(sp.Abs):
        side = _sign(sub(ab.args[0]), "nonnegative", "nonpositive")
        if side == "nonnegative":
            signs[ab] = ab.args[0]
        elif side == "nonpositive":
            signs[ab] = -ab.args[0]
        else:
            raise _Refused(f"the sign of {_m(ab.args[0])} is not decided on the piece {_m(v)} = {_m(point)}")
    f = f.xreplace(signs)
    if f.has(sp.Piecewise, sp.Abs):
        raise _Refused(f"pieces remain in {_m(f)}")
    return f


def _integral_value(integral: sp.Integral) -> tuple[sp.Expr, str]:
    if len(integral.limits) != 1 or len(integral.limits[0]) != 3:
        raise _Refused(f"{_m(integral)} is not one integral with limits")
    v, lo, hi = integral.limits[0]
    f = integral.function
    if f.has(sp.Integral, sp.Sum) or v.is_real is not True:
        raise _Refused(f"{_m(integral)}: nested, or its variable is not real")
    if lo.is_infinite or hi is -sp.oo or (hi.is_finite and not has_sign(hi - lo, "nonnegative")):
        raise _Refused(f"the range of {_m(integral)} is not ]a, b[ with a finite, a <= b (or b = oo)")
    points = [lo] + _sorted_inside(_breaks(f, v), lo, hi) + [hi]
    h = sp.Symbol("h_cut", positive=True)
    r = sp.Symbol("r_cut", positive=True)
    total = sp.Integer(0)
    for a, b in zip(points, points[1:]):
        twin, empty_at = {}, None
        if b.is_infinite:
            point = a + h
        else:
            gap = sp.cancel(b - a)
            if _sign(gap, "positive") is None:
                weak = [s for s in gap.free_symbols if s.is_nonnegative and not s.is_positive]
                if len(weak) != 1 or _sign(sp.cancel(gap / weak[0]), "positive") is None:
                    raise _Refused(f"the piece ]{_m(a)}, {_m(b)}[ is neither shown nonempty nor of width c s")
                empty_at = weak[0]
                twin = {empty_at: sp.Symbol(f"{empty_at.name}_pos", positive=True)}
            point = a + gap * r / (1 + r)
        value = _piece_value(_decided(f, v, point, twin), v, a, b)
        if empty_at is not None and not is_zero(value.xreplace({empty_at: 0})):
            raise _Refused(f"the value on ]{_m(a)}, {_m(b)}[ does not vanish where the piece is empty")
        total += value
    return total, f"{_m(integral)}: {len(points) - 1} pieces, cut at " + (", ".join(_m(p) for p in points[1:-1]) or "no point")


def _evaluated(claim: Claim, conditions, param: Parametrization | None) -> tuple[Proof, sp.Expr | None]:
    steps, covered = _param_covers(Proof(), claim, conditions, param)
    if not covered:
        return steps, None
    # the substitution of Parametrization.apply, done by xreplace (the forward map sends symbols to expressions)
    expr = release(claim.lhs - claim.rhs)
    if param is not None:
        expr = _factor_abs(expr.xreplace(dict(param.forward)))
    texts = []
    try:
        for integral in sorted(expr.atoms(sp.Integral), key=sp.default_sort_key):
            value, text = _integral_value(integral)
            expr = expr.xreplace({integral: value})
            texts.append(text)
    except _Refused as why:
        return steps + mechanical(False, f"an integral is not evaluated: {why}"), None
    if not texts:
        return steps + mechanical(False, "the statement has no integral to evaluate"), None
    return steps + mechanical(True, "each integral is the sum of its values on the pieces of its range: "
                              + "; ".join(texts)), expr


def case_integrals(case: Case, param: Parametrization | None = None) -> Proof:
    """Inside one case of :func:`~derivations.engine.proofs.conclude_split`: every integral of the claim's
    ``lhs - rhs`` evaluated piece by piece under ``param`` (which must cover the claim's conditions and the
    case's), and the stated relation checked on the result.  The steps are mechanical; the conclusion is
    :func:`~derivations.engine.proofs.conclude_split`'s."""
    claim = case.claim
    conditions = tuple(sp.sympify(c) for c in claim.conditions) + tuple(case.conditions)
    where = ", ".join(map(_m, case.conditions)) or "every point"
    steps, expr = _evaluated(claim, conditions, param)
    if expr is None:
        return steps + mechanical(False, f"case {where}: not evaluated")
    need = _NEED[claim.relation]
    ok = has_sign(expr, need)
    return steps + mechanical(ok, f"case {where}: lhs - rhs = {_m(expr) if not ok else 'its evaluated form'} is {need}"
                              + ("" if ok else " -- not shown"))


def conclude_integrals(claim: Claim, param: Parametrization | None = None) -> Proof:
    """The claim's relation with every integral evaluated piece by piece (no split), as :func:`case_integrals`
    checks it."""
    sub = case_integrals(Case(claim), param)
    return sub + _conclusion(claim, sub.ok, "the stated relation holds with every integral evaluated"
                             if sub.ok else "not shown")


# -- differences of finite sums holding sums of nonnegative terms -------------------------------------------------


def _sum_nonnegative(s: sp.Expr, conditions: tuple) -> bool:
    """A finite sum (nested sums too) whose every term is shown nonnegative on its range, each range nonempty or
    empty (hi >= lo - 1: never a reversed range, which Karr's convention makes a negated sum)."""
    if not isinstance(s, sp.Sum):
        return _shown(s, "nonnegative", conditions)
    f, limits = s.function, s.limits
    inner = tuple(conditions)
    for k, lo, hi in limits:
        if not (k.is_integer and sign_under(hi - lo + 1, "nonnegative", inner)):
            return False
        inner = inner + (sp.Ge(k, lo, evaluate=False), sp.Le(k, hi, evaluate=False))
    return _sum_nonnegative(f, inner)


def conclude_sums_nonnegative(claim: Claim, blocks, certificate: sp.Expr) -> Proof:
    """``lhs - rhs`` with each sum of ``blocks`` (sums occurring in it, of nonnegative terms) replaced by a
    nonnegative symbol w_k equals ``certificate`` (written with the same w_k, in the order of ``blocks``): proved by
    :func:`~derivations.engine.sums.conclude_sums` on that identity; the certificate must then have the stated
    sign under the claim's conditions."""
    steps = Proof()
    conditions = tuple(sp.sympify(c) for c in claim.conditions)
    expr = release(claim.lhs - claim.rhs)
    ws = [sp.Symbol(f"w_{k + 1}", nonnegative=True) for k in range(len(blocks))]
    for w, block in zip(ws, blocks):
        if not any(node == block for node in sp.preorder_traversal(expr)):
            return steps + _conclusion(claim, False, f"the claim has no sum {_m(block)}")
        ok = _sum_nonnegative(block, conditions)
        steps = steps + mechanical(ok, f"{_m(w)} = {_m(block)} is a sum of nonnegative terms over a range that is "
                                       "nonempty or empty" + ("" if ok else " -- not shown"))
        if not ok:
            return steps + _conclusion(claim, False, "a sum was not shown nonnegative")
        expr = expr.xreplace({block: w})
    if any(node in blocks for node in sp.preorder_traversal(expr)):
        return steps + _conclusion(claim, False, "a sum is left after the replacement")
    side = Claim(id=claim.id + "[sums]", title="lhs - rhs with the nonnegative sums named", source=claim.source,
                 kind="identity", lhs=expr, rhs=certificate, conditions=conditions)
    sub = conclude_sums(side, sp.Integer(0))
    last = sub.steps[-1] if sub.steps else None
    tied = last is not None and last.kind == "conclusion" and last.target == side.digest() and _minted(last)
    steps = steps + Proof(*sub.steps[:-1]) + mechanical(sub.ok and tied, f"lhs - rhs = {_m(certificate)} "
                                                        + ("(by indefinite sums)" if sub.ok and tied else "-- not shown"))
    if not (sub.ok and tied):
        return steps + _conclusion(claim, False, "lhs - rhs was not shown equal to the certificate")
    need = _NEED[claim.relation]
    if need == "zero":
        ok = is_zero(certificate)
    elif need in ("nonnegative", "positive"):
        ok = _shown(certificate, need, conditions)
    else:
        ok = _shown(-certificate, "nonnegative" if need == "nonpositive" else "positive", conditions)
    return steps + _conclusion(claim, ok, f"lhs - rhs = {_m(certificate)}, which is {need}" + ("" if ok else " -- not shown"))
