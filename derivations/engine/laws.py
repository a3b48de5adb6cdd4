"""A conclusion from cited laws: notations replaced by the formulas of cited results, then the relation checked.

:func:`~derivations.engine.proofs.conclude_instance` proves a claim whose left side is one notation (a
probability, a law) and whose right side is the formula of a cited result.  Some statements hold several such
notations, or one whose cited formula holds another notation in turn (the probability of an event bounded below
by the probability of one of its outcomes, which is a product law), or hold them inside a sum over a symbolic
number of terms.  :func:`conclude_laws` proves such a claim:

* each :class:`Law` names a notation of the claim (a symbol standing for a probability, a maximum, ...), a
  registered citation with a formal statement (:func:`~derivations.engine.proofs.cited_form`) and a mapping
  of the form's template symbols to expressions of the claim.  The engine checks, as ``conclude_instance``
  does, that the form's left side is mapped to the notation, that every template symbol is mapped, that each
  mapped value meets the assumptions of its template symbol (signs from the claim's conditions), and that
  each condition of the form, mapped, follows from the claim's conditions.  A template *indexed* quantity
  (the k-th term of a sum over a symbolic number of terms) may be mapped to an indexed quantity of the claim
  whose assumptions include the template's, or to a function of the index (``sp.Lambda``) whose values meet
  them by their own assumptions;
* each notation is then replaced by its cited formula, in the order given (a later law may replace a notation
  that an earlier formula brought in).  A cited identity replaces the notation anywhere; a cited lower bound
  (``>=``) or upper bound (``<=``) only where lhs - rhs is linear in the notation with a coefficient of the
  sign that makes the replacement safe for the stated relation (a lower bound where the coefficient is
  positive and lhs - rhs must be positive or nonnegative), so that the replaced difference having the stated
  sign implies it for the original one;
* the replaced lhs - rhs must then vanish (an identity) or have the stated sign (an inequality), optionally
  under a checked :class:`~derivations.engine.proofs.Parametrization`, after finite sums with a symbolic number
  of terms are evaluated (a sum of sums exchanged first, so that the inner sum is over the outer index of
  the printed one) and each piecewise result read under the claim's conditions: a piece whose every
  condition follows from the claim's conditions is taken, one with a condition whose negation follows is
  dropped; an undecided piece decides nothing.  An identity in integer symbols that the conditions (with the
  relations of the laws marked ``as_condition``) bound to a few values is also decided case by case, exactly.

The conclusion is stamped with the claim's digest, so that changing the statement changes the verdict.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import sympy as sp

from .core import RELATIONS, Proof, _shown, cite, is_zero, linear_sums, mechanical
from .notation import release
from .proofs import (_NEED, _NOT_COVERED, CITED_FORMS, Parametrization, _conclusion, _implied, _inverse_admissible,
                     _normal, _param_covers, has_sign)
from .render import math as _m

_SIGN_FLAGS = ("positive", "nonnegative", "negative", "nonpositive", "real", "integer")


@dataclass(frozen=True)
class Law:
    """The notation ``notation`` of a claim is the left side of the cited result ``key`` under ``mapping``
    (template symbol, or template indexed base, -> expression, indexed base or ``sp.Lambda`` of the claim).
    With ``as_condition`` the cited relation, notation <relation> formula, is not substituted but holds as a
    further condition of the final check (a fact about the notation, such as a bound on a quantile)."""

    notation: sp.Basic
    key: str
    mapping: Mapping = field(default_factory=dict)
    as_condition: bool = False     # the cited relation is added to the conditions of the final check instead


def _template_atoms(expr: sp.Expr) -> set:
    """The template symbols and indexed bases of a form's expression (bound indices left out)."""
    expr = sp.sympify(expr)
    out = set()
    for ix in expr.atoms(sp.Indexed):
        out.add(ix.base)
    bound = set()
    for s in expr.atoms(sp.Sum, sp.Product):
        bound |= {lim[0] for lim in s.limits}
    labels = {b.label for b in out}
    for sym in expr.free_symbols:
        if isinstance(sym, sp.Symbol) and sym not in bound and sym not in labels:
            out.add(sym)
    return out


def _indexed_admissible(base: sp.IndexedBase, target, conditions) -> str | None:
    """Why the indexed template ``base`` may not be mapped to ``target``, or None."""
    probe = sp.Dummy("k", integer=True)
    wanted = [a for a in _SIGN_FLAGS if getattr(base[probe], f"is_{a}") is True]
    if isinstance(target, sp.IndexedBase):
        value = target[probe]
    elif isinstance(target, sp.Lambda) and len(target.variables) == 1:
        value = target(probe)
    else:
        return f"the indexed template {base} is mapped to {target}, neither an indexed quantity nor a function of the index"
    cases = value.rewrite(sp.Piecewise) if value.has(sp.KroneckerDelta) else value   # an indicator, by its cases
    for a in wanted:
        if getattr(value, f"is_{a}") is not True and getattr(cases, f"is_{a}") is not True \
                and not (a in ("nonnegative", "positive") and _implied(value, a, conditions)):
            return f"no assumption shows that the terms {_m(value)} of {base} are {a}"
    return None


def _symbol_admissible(tmpl: sp.Symbol, value: sp.Expr, conditions) -> str | None:
    """Why ``value`` may fail an assumption of the template symbol ``tmpl`` under the conditions, or None: as
    :func:`~derivations.engine.proofs._inverse_admissible`, a sign also shown from the conditions by the
    engine's sign reading (:func:`~derivations.engine.core._shown`: structure, and a Farkas certificate over
    the linear conditions, so that 1 - q > 0 follows from q < 1/2)."""
    why = _inverse_admissible(tmpl, value, conditions)
    if why is None:
        return None
    rest = {name: v for name, v in tmpl.assumptions0.items() if v and name in _SIGN_FLAGS[:4]}
    if not rest or "denominator" in why:
        return why
    for name in rest:
        flip = {"nonpositive": ("nonnegative", -1), "negative": ("positive", -1)}.get(name, (name, 1))
        if not _shown(flip[1] * value, flip[0], tuple(conditions)):
            return why
    others = [name for name, v in tmpl.assumptions0.items() if v and name not in rest and name in _SIGN_FLAGS]
    bare = sp.Dummy("t", **{name: True for name in others})
    return _inverse_admissible(bare, value, conditions)


def _replace_indexed(expr: sp.Expr, base: sp.IndexedBase, target) -> sp.Expr:
    if isinstance(target, sp.IndexedBase):
        return expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == base, lambda e: target[e.indices])
    return expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == base, lambda e: target(*e.indices))


def _decided(cond, conditions) -> bool | None:
    """True (False) when the condition (a relational, or a conjunction of them) follows (its negation
    follows) from the conditions and the symbols' assumptions; None when undecided."""
    cond = sp.sympify(cond)
    if cond in (sp.true, sp.false):
        return bool(cond)
    if isinstance(cond, sp.And):
        parts = [_decided(a, conditions) for a in cond.args]
        if all(p is True for p in parts):
            return True
        return False if any(p is False for p in parts) else None
    norm = _normal(cond)
    if norm is None:
        return None
    g, need = norm
    if _implied(g, need, conditions):
        return True
    if _implied(-g, "nonnegative" if need == "positive" else "positive", conditions):
        return False
    return None


def _read_pieces(expr: sp.Expr, conditions) -> sp.Expr | None:
    """Each piecewise expression replaced by the piece the conditions select, or None if one is undecided."""
    undecided = []

    def pick(pw):
        for piece, cond in pw.args:
            got = _decided(cond, conditions)
            if got is True:
                return piece
            if got is None:
                undecided.append(cond)
                return pw
        undecided.append(pw)
        return pw

    out = expr.replace(lambda e: isinstance(e, sp.Piecewise), pick)
    return None if undecided else out


def _exchanged(expr: sp.Expr) -> sp.Expr:
    """Every sum sum_{d=lo}^{hi} c(d) sum_{r=a}^{b} g(r, d) (also written as one sum over two indices), with a, b
    free of d and lo, hi free of r, written sum_{r=a}^{b} sum_{d=lo}^{hi} c(d) g(r, d): finite sums may be
    exchanged (both are the same finite linear combination of the values of c g)."""
    def swap(e):
        if isinstance(e, sp.Sum) and len(e.limits) == 2 and all(len(lim) == 3 for lim in e.limits):
            (r, a, b), (d, lo, hi) = e.limits          # sum_d sum_r: the inner limits written first
            if d not in (a.free_symbols | b.free_symbols) and r not in (lo.free_symbols | hi.free_symbols):
                return sp.Sum(e.function, (d, lo, hi), (r, a, b))
            return e
        if not (isinstance(e, sp.Sum) and len(e.limits) == 1 and len(e.limits[0]) == 3):
            return e
        (d, lo, hi), = e.limits
        inner = [f for f in sp.Mul.make_args(e.function) if isinstance(f, sp.Sum)]
        if len(inner) != 1 or len(inner[0].limits) != 1 or len(inner[0].limits[0]) != 3:
            return e
        (r, a, b), = inner[0].limits
        if d in (a.free_symbols | b.free_symbols) or r in (lo.free_symbols | hi.free_symbols) or r == d:
            return e
        rest = sp.Mul(*(f for f in sp.Mul.make_args(e.function) if f is not inner[0]))
        if r in rest.free_symbols:
            return e
        return sp.Sum(sp.Sum(rest * inner[0].function, (d, lo, hi)), (r, a, b))
    return expr.replace(lambda e: isinstance(e, sp.Sum), swap)


def _sums_cancel(expr: sp.Expr) -> bool:
    """lhs - rhs is 0 with its finite sums in one normal form (linearity, one dummy index)."""
    if any(s.function.has(sp.Sum) for s in expr.atoms(sp.Sum)):
        return False          # nested sums: left to the evaluation
    try:
        return sp.cancel(sp.together(linear_sums(expr))) == 0
    except Exception:         # a normal form SymPy cannot build decides nothing
        return False


def _vanishes_or_signed(expr: sp.Expr, need: str, conditions) -> bool:
    """``expr`` vanishes (``need`` "zero") or has the sign ``need``: first with its sums in one normal form,
    then with finite sums exchanged and evaluated and pieces read under the conditions, then by the engine's
    general sign reading."""
    if need == "zero" and expr.has(sp.Sum) and _sums_cancel(expr):
        return True
    if expr.has(sp.Sum, sp.Product, sp.Piecewise):
        done = _exchanged(expr) if expr.has(sp.Sum) else expr
        done = done.doit() if done.has(sp.Sum, sp.Product) else done
        read = _read_pieces(done, conditions) if done.has(sp.Piecewise) else done
        if read is not None:
            read = read.doit() if read.has(sp.Sum) else read
            if need == "zero" and (_sums_cancel(read) if read.has(sp.Sum) else is_zero(read)):
                return True
            if need != "zero" and has_sign(read, need):
                return True
    try:
        return has_sign(expr, need)
    except RecursionError:     # a nest of sums SymPy cannot simplify decides nothing
        return False


def _integer_range(sym: sp.Symbol, conditions) -> tuple | None:
    """(lo, hi): numbers bounding the integer symbol ``sym`` by conditions of the form sym >= c, sym <= c (or
    sym > c, sym < c), with the symbol's own sign assumptions; None if it is not bounded on both sides."""
    lo = 0 if sym.is_nonnegative else (1 if sym.is_positive else None)
    hi = None
    for cnd in conditions:
        norm = _normal(cnd)
        if norm is None:
            continue
        g, strict = norm[0], norm[1] == "positive"
        coeff = sp.expand(g).coeff(sym)
        rest = sp.expand(g - coeff * sym)
        if coeff not in (1, -1) or rest.free_symbols:
            continue
        bound = -rest / coeff                       # coeff (sym - bound) > (>=) 0
        if coeff == 1:
            value = sp.floor(bound) + 1 if strict else sp.ceiling(bound)
            lo = value if lo is None else max(lo, value)
        else:
            value = sp.ceiling(bound) - 1 if strict else sp.floor(bound)
            hi = value if hi is None else min(hi, value)
    return None if lo is None or hi is None else (int(lo), int(hi))


def _integer_cases(expr: sp.Expr, need: str, conditions) -> bool:
    """Every integer symbol of ``expr`` is bounded by the conditions to a few values (at most 64 points in
    all), and ``expr`` has the sign ``need`` (vanishes) at each: an exact case check."""
    syms = sorted((x for x in expr.free_symbols if isinstance(x, sp.Symbol) and x.is_integer), key=str)
    ranges = [_integer_range(x, conditions) for x in syms]
    if not syms or any(r is None for r in ranges):
        return False
    sizes = [hi - lo + 1 for lo, hi in ranges]
    if any(n < 0 for n in sizes) or sp.prod(sizes) > 64:
        return False
    for point in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges)):
        value = expr.xreplace(dict(zip(syms, map(sp.Integer, point))))
        if not has_sign(value, need):
            return False
    return True


def evaluates_under(expr: sp.Expr, value: sp.Expr, conditions: Iterable = ()) -> bool:
    """``expr`` (finite sums with symbolic limits evaluated, pieces read under ``conditions``) equals
    ``value``: the evaluation used by :func:`conclude_laws`, for a side step of a proof (a count, an
    indicator)."""
    return _vanishes_or_signed(release(sp.sympify(expr) - sp.sympify(value)), "zero", tuple(conditions))


def conclude_laws(claim, laws: Iterable[Law], param: Parametrization | None = None) -> Proof:
    """The claim's relation, with each notation replaced by the formula of the cited result it is an instance
    of (module docstring).  Each law is checked as an instance; the replaced lhs - rhs must vanish or have the
    stated sign."""
    conditions = tuple(sp.sympify(c) for c in claim.conditions)
    need = _NEED[claim.relation]
    expr = release(claim.lhs - claim.rhs)
    steps = Proof()
    ok = True
    facts: list = []
    for law in laws:
        form = CITED_FORMS.get(law.key)
        if form is None:
            return steps + _conclusion(claim, False, f"no registered form of the citation {law.key!r}")
        mapping = dict(law.mapping)
        steps = steps + cite(law.key, f"{_m(law.notation)} is this result at " + ", ".join(
            f"{_m(k)} = {_m(v)}" for k, v in mapping.items() if k != form.lhs))
        named = mapping.get(form.lhs) == law.notation and isinstance(law.notation, (sp.Symbol, sp.Indexed)) \
            and isinstance(form.lhs, (sp.Symbol, sp.Indexed)) and expr.has(law.notation)
        steps = steps + mechanical(named, f"{_m(law.notation)} occurs in the statement and is the quantity "
                                          f"{_m(form.lhs)} of the cited result" + ("" if named else " -- not shown"))
        missing = [a for a in _template_atoms(form.rhs) | set().union(*(_template_atoms(c) for c in form.conditions))
                   if a not in mapping]
        if missing:
            steps = steps + mechanical(False, "template symbols left unmapped: " + ", ".join(map(str, missing)))
        admissible = not missing
        for tmpl, value in mapping.items():
            if tmpl == form.lhs:
                continue
            if isinstance(tmpl, sp.IndexedBase):
                why = _indexed_admissible(tmpl, value, conditions)
            elif isinstance(tmpl, sp.Symbol):
                why = _symbol_admissible(tmpl, sp.sympify(value), conditions)
            else:
                why = f"{tmpl} is not a template symbol"
            if why:
                admissible = False
                steps = steps + mechanical(False, why)
        for cnd in form.conditions:
            mapped = cnd.xreplace({k: v for k, v in mapping.items() if not isinstance(k, sp.IndexedBase)})
            norm = None if mapped in (sp.true, sp.false) else _normal(mapped)
            holds = mapped is sp.true or mapped in conditions or (norm is not None and _implied(norm[0], norm[1], conditions))
            admissible &= bool(holds)
            steps = steps + mechanical(bool(holds), f"the cited condition {_m(mapped)} holds under the claim's"
                                       + ("" if holds else " -- not shown"))
        formula = form.rhs.xreplace({k: v for k, v in mapping.items() if not isinstance(k, sp.IndexedBase)})
        for tmpl, value in mapping.items():
            if isinstance(tmpl, sp.IndexedBase):
                formula = _replace_indexed(formula, tmpl, value)
        if law.as_condition:
            ok &= bool(named and admissible)
            facts.append(RELATIONS[form.relation](law.notation, formula))
            steps = steps + mechanical(bool(named and admissible), f"so {_m(facts[-1])} holds")
            continue
        # where may the notation be replaced: anywhere for an identity; for a bound, only where lhs - rhs is
        # linear in it with a coefficient of the safe sign
        safe = True
        if form.relation != "==":
            x = sp.Dummy("x")
            e = expr.xreplace({law.notation: x})
            coeff = sp.diff(e, x)
            linear = x not in coeff.free_symbols
            up = need in ("positive", "nonnegative")
            down = need in ("negative", "nonpositive")
            # a lower bound X >= F may replace X where lhs - rhs increases with X and must be >= 0 (or > 0)
            wanted = ("positive" if (form.relation == ">=") == up else "negative") if (up or down) else None
            safe = linear and wanted is not None and has_sign(coeff, wanted)
            steps = steps + mechanical(safe, f"lhs - rhs is linear in {_m(law.notation)} with a {wanted} coefficient, "
                                             f"so the cited bound may replace it" + ("" if safe else " -- not shown"))
        ok &= bool(named and admissible and safe)
        expr = expr.xreplace({law.notation: formula})
    if not ok:
        return steps + _conclusion(claim, False, "not every notation was shown to be an instance of its cited result")
    conditions = conditions + tuple(facts)
    steps, covered = _param_covers(steps, claim, conditions, param)
    if not covered:
        return steps + _conclusion(claim, False, _NOT_COVERED)
    if param is not None:
        expr = param.apply(expr)
        conditions = tuple(param.apply(c) for c in conditions)
    done = _vanishes_or_signed(expr, need, conditions) or _integer_cases(expr, need, conditions)
    what = "is identically 0" if need == "zero" else f"is {need}"
    return steps + _conclusion(claim, done, f"with the cited formulas in place, lhs - rhs {what}"
                               + ("" if done else " -- not shown"))
