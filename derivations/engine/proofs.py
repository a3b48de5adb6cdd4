"""Conclusions: the engine's own check of a claim's stated relation, the last step of every proof.

A proof routine ``proof(claim)`` may compute whatever side facts it needs, but it is PROVED only if
it ends with one of these functions applied to the claim it was given:

* :func:`conclude` -- ``lhs - rhs`` (identity) or ``lhs - rhs`` with the stated sign (inequality,
  sign claim) is decided exactly, optionally after a checked :class:`Parametrization` of the claim's
  conditions and through a certificate that is first proved equal to ``lhs - rhs``;
* :func:`conclude_cases` -- the same on each piece of a split of the real line of one variable at
  ordered breakpoints (the pieces cover the line by construction);
* :func:`conclude_evaluation` -- a closed statement, a limit or a divergence, evaluated exactly;
* :func:`exhaust` -- the stated relation evaluated exactly at every point of a finite set (a proof
  only for a claim whose statement ranges over that set, ``finite=True``);
* :func:`conclude_split`, :func:`conclude_termwise`, :func:`conclude_shift` -- a split on the sign of an
  expression, a sum term by term, integrals related by translations;
* :func:`derivations.engine.sums.conclude_sums` -- finite sums with symbolic limits, by indefinite sums.

Each returns a :class:`~derivations.engine.core.Proof` whose last step is a ``conclusion`` stamped
with the digest of the statement it checked, so that a routine that ignores the claim it is given
(and checks a side computation instead) cannot produce a PROVED verdict for a changed statement.
"""
from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import sympy as sp

from .notation import release
from .render import math as _m
from .core import (RELATIONS, Claim, Enumeration, Proof, Step, _decide, _mint_conclusion, _minted, _outside,
                   _values_at, all_of, bound_variables, is_zero, linear_sums, mechanical, undefined_value)

# the sign that lhs - rhs must have for each relation
_NEED = {"==": "zero", ">=": "nonnegative", ">": "positive", "<=": "nonpositive", "<": "negative"}


def _conclusion(claim: Claim, ok: bool, text: str) -> Proof:
    """The conclusion step on ``claim``, stamped with its digest: made only here, for the conclusions of
    the engine (this module and :mod:`derivations.engine.sums`).  Asked for from anywhere else (a proof
    routine that would write its own verdict), it fails."""
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if not caller.startswith(__name__.rpartition(".")[0] + "."):
        ok, text = False, f"a conclusion asked for outside the engine ({caller}) checks nothing: {text}"
    return Proof(_mint_conclusion(text, bool(ok), claim.digest()))


@dataclass
class Parametrization:
    """A change of variables that covers a claim's conditions.

    ``forward`` maps claim symbols to expressions in new symbols (whose SymPy assumptions,
    positive or nonnegative, encode the conditions); ``inverse`` maps each new symbol back to an
    expression in the claim's symbols.  :meth:`check` proves mechanically that every point
    satisfying the conditions is the image of admissible new values: forward(inverse(P)) = P, and
    each new symbol's assumption is implied by one stated condition (or by the assumptions of the
    claim's own symbols).  Use :func:`covers` to check one against a claim.
    """

    forward: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)
    inverse: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)

    def check(self, conditions: Iterable, claim_symbols: Iterable = ()) -> Proof:
        """Mechanical proof that the parametrization covers ``conditions``; ``claim_symbols`` are the
        symbols of the statement (every other symbol of the forward expressions is new)."""
        conditions = [sp.sympify(c) for c in conditions]
        for old, expr in self.forward.items():
            back = sp.sympify(expr).subs(self.inverse, simultaneous=True)
            if not is_zero(back - old):
                return mechanical(False, f"forward(inverse) is not the identity on {old}: {back}")
        claim_symbols = set(claim_symbols)
        strangers = sorted(str(k) for k in self.forward if k not in claim_symbols)
        if strangers:
            return mechanical(False, f"the forward map changes symbols that are not the claim's: {', '.join(strangers)}")
        used = set().union(*(sp.sympify(e).free_symbols for e in self.forward.values()))
        new_symbols = used - claim_symbols
        missing = sorted(str(n) for n in new_symbols if n not in self.inverse)
        if missing:
            return mechanical(False, f"no inverse given for the new symbols {', '.join(missing)}")
        for n in sorted(new_symbols, key=str):
            why = _inverse_admissible(n, sp.sympify(self.inverse[n]), conditions)
            if why:
                return mechanical(False, why)
        return mechanical(True, "the parametrization covers the conditions: forward(inverse) = identity, "
                                "each new symbol's sign follows from a stated condition")

    def apply(self, expr: sp.Expr) -> sp.Expr:
        """Substitute, then put the arguments of absolute values in factored form so that their sign
        can be read from the new symbols' assumptions."""
        out = sp.sympify(expr).subs(self.forward, simultaneous=True)
        return _factor_abs(out)


def _factor_abs(expr: sp.Expr) -> sp.Expr:
    return expr.replace(lambda e: isinstance(e, sp.Abs), lambda e: sp.Abs(sp.factor(sp.cancel(e.args[0]))))


_SIGNS = ("positive", "nonnegative", "negative", "nonpositive")


def _nonzero_under(expr: sp.Expr, conditions) -> bool:
    return bool(expr.is_nonzero or _implied(expr, "positive", conditions) or _implied(expr, "negative", conditions))


def _real_under(expr: sp.Expr, conditions) -> bool:
    """``expr`` is real (and defined) at every point of the conditions: sums, products, integer powers of
    nonzero bases, powers and logarithms of positive arguments, exponentials and hyperbolic functions of
    real arguments."""
    expr = sp.sympify(expr)
    if expr.is_Atom or expr.is_real is True and not expr.has(sp.Pow, sp.log):
        return expr.is_real is True
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_real_under(a, conditions) for a in expr.args)
    if isinstance(expr, sp.Pow):
        base, ex = expr.args
        if not (_real_under(base, conditions) and _real_under(ex, conditions)):
            return False
        if ex.is_integer:
            return ex.is_nonnegative is True or _nonzero_under(base, conditions)
        return _implied(base, "positive", conditions)
    if isinstance(expr, sp.log):
        return _real_under(expr.args[0], conditions) and _implied(expr.args[0], "positive", conditions)
    if isinstance(expr, (sp.exp, sp.sinh, sp.cosh, sp.tanh, sp.Abs)):
        return _real_under(expr.args[0], conditions)
    return expr.is_real is True


def _inverse_admissible(n: sp.Symbol, inv: sp.Expr, conditions) -> str | None:
    """Why the value ``inv`` (an expression of the claim's symbols) may fail an assumption of the new symbol
    ``n`` on the points of the conditions, or None: every assumption of ``n`` must hold, signs by a stated
    condition or by the claim's assumptions, the others (integer, real, ...) by the claim's assumptions, and
    every denominator of ``inv`` must be nonzero there."""
    den = sp.fraction(sp.cancel(sp.together(inv)))[1]
    if den != 1 and not _nonzero_under(den, conditions):
        return f"the inverse {inv} of {n} is not shown to be defined (its denominator {den} may vanish)"
    for name, value in n.assumptions0.items():
        if not value or name in ("commutative", "hermitian", "complex", "finite", "infinite") or name.startswith("extended_"):
            continue
        if name in _SIGNS:
            ok = _implied(inv, name, conditions)
        elif name == "nonzero":
            ok = _nonzero_under(inv, conditions)
        elif name == "real":
            ok = _real_under(inv, conditions)
        elif name in ("zero", "imaginary"):
            ok = False
        else:
            ok = getattr(inv, f"is_{name}") is True
        if not ok:
            return f"no stated condition or assumption shows that {n} = {inv} is {name}"
    return None


def _symbols(claim: Claim, conditions) -> set:
    out = set(claim.lhs.free_symbols) | set(claim.rhs.free_symbols)
    for cnd in conditions:
        out |= sp.sympify(cnd).free_symbols
    return out


def covers(param: Parametrization, claim: Claim) -> Proof:
    """Mechanical proof that ``param`` covers the claim's conditions."""
    conditions = tuple(claim.conditions)
    return param.check(conditions, _symbols(claim, conditions))


_NOT_COVERED = "the parametrization was not shown to cover the conditions"


def _param_covers(steps: Proof, claim: Claim, conditions, param: Parametrization | None) -> tuple[Proof, bool]:
    """``steps`` with the proof that ``param`` covers ``conditions``, and whether it does (no parametrization:
    nothing to show)."""
    if param is None:
        return steps, True
    chk = param.check(conditions, _symbols(claim, conditions))
    return steps + chk, chk.ok


def _constrained(sym: sp.Symbol) -> bool:
    return any(getattr(sym, f"is_{a}") for a in ("positive", "nonnegative", "negative", "nonpositive"))


def _normal(cond) -> tuple[sp.Expr, str] | None:
    """A relational as (g, sign) meaning g > 0 / g >= 0."""
    if isinstance(cond, (sp.Gt, sp.StrictGreaterThan)):
        return cond.lhs - cond.rhs, "positive"
    if isinstance(cond, (sp.Ge, sp.GreaterThan)):
        return cond.lhs - cond.rhs, "nonnegative"
    if isinstance(cond, (sp.Lt, sp.StrictLessThan)):
        return cond.rhs - cond.lhs, "positive"
    if isinstance(cond, (sp.Le, sp.LessThan)):
        return cond.rhs - cond.lhs, "nonnegative"
    return None


_IMPLIED: dict = {}      # (expr, need, conditions, depth) -> the decision of _implied, computed once
_CANCELLED: dict = {}    # expr -> sp.cancel(expr), computed once


def _cancelled(expr: sp.Expr) -> sp.Expr:
    if expr not in _CANCELLED:
        _CANCELLED[expr] = sp.cancel(expr)
    return _CANCELLED[expr]


def _implied(expr: sp.Expr, need: str, conditions, depth: int = 2) -> bool:
    """``expr`` has the sign ``need`` (positive | nonnegative | negative | nonpositive) by its symbols'
    assumptions, or as a positive multiple of one stated condition's side, or as a quotient of two
    such expressions (each decided the same way, to a small depth).  A decision depends on nothing but
    the arguments, so each is made once (:data:`_IMPLIED`)."""
    expr = sp.sympify(expr)
    key = (expr, need, tuple(sp.sympify(cnd) for cnd in conditions), depth)
    if key not in _IMPLIED:
        _IMPLIED[key] = _implied_once(expr, need, key[2], depth)
    return _IMPLIED[key]


def _implied_once(expr: sp.Expr, need: str, conditions, depth: int) -> bool:
    if need in ("negative", "nonpositive"):
        expr, need = -expr, "positive" if need == "negative" else "nonnegative"
    if getattr(expr, f"is_{need}") is True:
        return True
    if depth <= 0:
        return False
    for cond in conditions:
        norm = _normal(cond)
        if norm is None:
            continue
        g, has = norm
        if need == "positive" and has != "positive":
            continue
        ratio = _cancelled(expr / g) if g != 0 else None
        if ratio is not None and (ratio.is_positive is True or _implied(ratio, "positive", conditions, depth - 1)):
            return True   # expr = ratio * g with ratio > 0
    num, den = sp.fraction(_cancelled(expr))
    if den != 1:
        opposite = "negative" if need == "positive" else "nonpositive"
        return ((_implied(num, need, conditions, depth - 1) and _implied(den, "positive", conditions, depth - 1))
                or (_implied(num, opposite, conditions, depth - 1)
                    and _implied(den, "negative", conditions, depth - 1)))
    return False


def has_sign(expr: sp.Expr, need: str) -> bool:
    """Decide ``expr`` (zero | nonnegative | positive | nonpositive | negative) from the
    assumptions of its symbols, after equivalence-preserving rewrites."""
    if need == "zero":
        return is_zero(expr)
    expr = release(expr)
    forms = (lambda e: e, sp.expand, sp.factor, lambda e: sp.factor(sp.powsimp(sp.expand(e.rewrite(sp.exp)))),
             sp.simplify)
    e = sp.sympify(expr)
    for form in forms:
        try:
            cur = form(e)
        except Exception:  # a rewrite that does not apply is no decision
            continue
        if getattr(cur, f"is_{need}") is True:
            return True
    return False


def conclude(claim: Claim, param: Parametrization | None = None, certificate: sp.Expr | None = None,
             *, _case: tuple = ()) -> Proof:
    """Check the claim's own relation.

    ``lhs - rhs`` is formed from the claim; under ``param`` (checked against the claim's conditions,
    and, inside :func:`conclude_split`, the conditions of the case) it must
    vanish (identity) or have the sign the relation states (inequality, sign).  A ``certificate``
    (an expression in the claim's symbols) is first proved equal to ``lhs - rhs`` and its sign is
    then read from the assumptions."""
    steps = Proof()
    conditions = tuple(claim.conditions) + tuple(_case)
    expr = release(claim.lhs - claim.rhs)
    if claim.kind in ("limit", "divergence"):
        return conclude_evaluation(claim)
    need = _NEED[claim.relation]
    steps, covered = _param_covers(steps, claim, conditions, param)
    if not covered:
        return steps + _conclusion(claim, False, _NOT_COVERED)
    if param is not None:
        expr = param.apply(expr)
    if certificate is not None:
        cert = param.apply(certificate) if param is not None else sp.sympify(certificate)
        same = is_zero(expr - cert)
        if not same:
            return steps + _conclusion(claim, False, f"lhs - rhs was not shown equal to the certificate {certificate}")
        ok = has_sign(cert, need)
        return steps + _conclusion(claim, ok, f"lhs - rhs = {_m(certificate)}, which is {need}"
                                   + ("" if ok else " -- not shown"))
    ok = has_sign(expr, need)
    what = "lhs - rhs is identically 0" if need == "zero" else f"lhs - rhs is {need}"
    return steps + _conclusion(claim, ok, what + ("" if ok else " -- not shown")
                               + (" under the parametrization" if param is not None else ""))


def conclude_cases(claim: Claim, var: sp.Symbol, breakpoints: Iterable[sp.Expr],
                   param: Parametrization | None = None, certificates: Iterable | None = None,
                   closed: str = "left") -> Proof:
    """Check the claim's relation on each piece of the real line of ``var`` cut at ``breakpoints``.

    The breakpoints must be shown ordered (b_1 <= b_2 <= ...) under ``param``; the pieces are
    var = b_1 - h, var = b_j + g_j r/(1 + r) on [b_j, b_{j+1}) with g_j = b_{j+1} - b_j, and
    var = b_k + h, for new h, r >= 0, so they cover the line.  ``certificates``: optional, one per
    piece (None where not needed)."""
    bps = [sp.sympify(b) for b in breakpoints]
    certificates = None if certificates is None else list(certificates)
    if var.is_real is not True:
        return _conclusion(claim, False, f"{var} is not a real variable: a split of the real line does not cover it")
    if certificates is not None and len(list(certificates)) != len(bps) + 1:
        return _conclusion(claim, False, f"{len(bps) + 1} pieces need {len(bps) + 1} certificates (None where unused)")
    steps = Proof()
    conditions = tuple(claim.conditions)
    steps, covered = _param_covers(steps, claim, conditions, param)
    if not covered:
        return steps + _conclusion(claim, False, _NOT_COVERED)
    apply = param.apply if param is not None else sp.sympify
    gaps = [apply(bps[j + 1] - bps[j]) for j in range(len(bps) - 1)]
    ordered = all(has_sign(g, "nonnegative") for g in gaps)
    steps = steps + mechanical(ordered, "the breakpoints are ordered" if ordered else "breakpoints not shown ordered")
    if not ordered:
        return steps + _conclusion(claim, False, "the pieces were not shown to cover the line")
    h = sp.Symbol("h_piece", nonnegative=True)
    r = sp.Symbol("r_piece", nonnegative=True)
    pieces = [apply(bps[0]) - h]
    if closed == "left":
        pieces += [apply(bps[j]) + gaps[j] * r / (1 + r) for j in range(len(gaps))]
    else:
        pieces += [apply(bps[j + 1]) - gaps[j] * r / (1 + r) for j in range(len(gaps))]
    pieces += [apply(bps[-1]) + h]
    certs = list(certificates) if certificates is not None else [None] * len(pieces)
    need = _NEED[claim.relation]
    expr = apply(release(claim.lhs - claim.rhs))
    all_ok = True
    conds = [apply(cnd) for cnd in conditions]
    for k, (value, cert) in enumerate(zip(pieces, certs)):
        broken = next((cnd for cnd in conds if _false_on(cnd.subs(var, value))), None)
        if broken is not None:
            steps = steps + mechanical(True, f"piece {k + 1} of {len(pieces)} ({_m(sp.Eq(var, value, evaluate=False))}) is empty: "
                                             f"the condition {_m(broken)} fails on all of it")
            continue
        e = _factor_abs(expr.subs(var, value))
        if cert is not None:
            c = _factor_abs(apply(cert).subs(var, value))
            ok = is_zero(e - c) and has_sign(c, need)
        else:
            ok = has_sign(e, need)
        all_ok &= ok
        steps = steps + mechanical(ok, f"piece {k + 1} of {len(pieces)} ({_m(sp.Eq(var, value, evaluate=False))}): lhs - rhs is {need}"
                                   + ("" if ok else " -- not shown"))
    return steps + _conclusion(claim, all_ok, f"the stated relation holds on every piece of the line of {_m(var)}"
                               if all_ok else "not shown on every piece")


def _false_on(cond) -> bool:
    """The relational is false for every value of its symbols allowed by their assumptions."""
    cond = sp.sympify(cond)
    if cond is sp.false:
        return True
    norm = _normal(cond)
    if norm is None:
        return False
    g, has = norm   # cond says g > 0 (positive) or g >= 0 (nonnegative)
    return bool(has_sign(g, "nonpositive") if has == "positive" else has_sign(g, "negative"))


class Case:
    """One case of :func:`conclude_split`: the claim under its conditions plus the signs chosen so far."""

    def __init__(self, claim: Claim, conditions: tuple = ()):
        self.claim, self.conditions = claim, tuple(conditions)

    def conclude(self, param: Parametrization | None = None, certificate: sp.Expr | None = None) -> Proof:
        """The claim's relation in this case (its conclusion becomes a mechanical step of the split)."""
        p = conclude(self.claim, param, certificate, _case=self.conditions)
        last = p.steps[-1]
        where = ", ".join(map(_m, self.conditions)) or "every point"
        return Proof(*p.steps[:-1], Step("mechanical", f"case {where}: {last.text}", last.ok))

    def split(self, expr: sp.Expr, nonnegative, negative) -> Proof:
        """Cover this case by expr >= 0 and expr < 0 (expr <= -1 when expr is an integer); each branch is a
        callable taking the sub-case and returning its proof."""
        expr = sp.sympify(expr)
        below = sp.Le(expr, -1) if expr.is_integer else sp.Lt(expr, 0)
        return all_of(mechanical(True, f"the cases {_m(sp.Ge(expr, 0, evaluate=False))} and {_m(below)} cover "
                                       + ("the integers" if expr.is_integer else "the reals")),
                      nonnegative(Case(self.claim, self.conditions + (sp.Ge(expr, 0),))),
                      negative(Case(self.claim, self.conditions + (below,))))


def conclude_split(claim: Claim, expr: sp.Expr, nonnegative, negative) -> Proof:
    """The claim's relation on the two sides of the sign of ``expr`` (nested splits through
    :meth:`Case.split`); each leaf ends in :meth:`Case.conclude`.  The sides cover every point by
    construction, so the conditions a case adds need no separate argument."""
    sub = Case(claim).split(expr, nonnegative, negative)
    return sub + _conclusion(claim, sub.ok, "the stated relation holds in every case of the split"
                             if sub.ok else "not shown in every case")


def _integrands_combined(expr: sp.Expr) -> sp.Expr:
    """``expr`` with the integrand of every integral rewritten by ``powsimp``, ``expand``, ``powsimp`` (powers
    combined, products expanded, powers combined again): the same integrals, whose integrands SymPy's
    integrator then meets as sums of single exponentials and powers."""
    return expr.replace(lambda e: isinstance(e, sp.Integral),
                        lambda e: sp.Integral(sp.powsimp(sp.expand(sp.powsimp(e.function))), *e.limits))


def conclude_evaluation(claim: Claim) -> Proof:
    """A closed statement, a limit or a divergence: both sides evaluated exactly.

    Where a side holds integrals, they are evaluated first with their integrands expanded and their powers
    combined (equal integrands, so equal integrals); if the relation is not shown that way, both sides are
    evaluated again as they stand."""
    lhs0, rhs0 = release(claim.lhs), release(claim.rhs)
    forms = [(lhs0, rhs0)]
    if lhs0.has(sp.Integral) or rhs0.has(sp.Integral):
        forms.insert(0, (_integrands_combined(lhs0), _integrands_combined(rhs0)))
    for k, (lhs, rhs) in enumerate(forms):
        lhs, rhs = lhs.doit(), rhs.doit()
        if undefined_value(lhs) or undefined_value(rhs):   # nan, zoo: never equal, never compared
            ok = False
        elif claim.kind in ("limit", "divergence") or claim.relation == "==":
            # integrated sides are sums of many fractions: their difference is compared over one denominator
            ok = lhs == rhs or (not (lhs.is_infinite or rhs.is_infinite)
                                and is_zero(sp.together(lhs - rhs) if k + 1 < len(forms) else lhs - rhs))
        else:
            ok = RELATIONS[claim.relation](lhs, rhs) is sp.true
        if ok:
            break
    if undefined_value(lhs) or undefined_value(rhs):
        return _conclusion(claim, False, f"a side is undefined: lhs = {lhs}, rhs = {rhs} -- fails")
    return _conclusion(claim, ok, f"evaluates to {_m(RELATIONS[claim.relation](lhs, rhs, evaluate=False))}" + ("" if ok else " -- fails"))


class _Inside:
    """A quick sufficient test that a point lies inside a claim: the test of
    :func:`~derivations.engine.core._outside` with the claim's symbols, their assumptions and its conditions
    read once, and each condition evaluated with all the values put in at once (``xreplace``, the
    relational of two numbers decided exactly).  True only when every symbol of the claim is given a number
    meeting each assumption of its symbol and every condition evaluates to True; anything else is left to
    ``_outside``, which decides and says why."""

    def __init__(self, claim: Claim):
        from .core import _ASSUMPTIONS
        self.conditions = [sp.sympify(cnd) for cnd in claim.conditions]
        self.free = set(claim.lhs.free_symbols) | set(claim.rhs.free_symbols)
        self.bound = set()
        for cnd in self.conditions:
            self.free |= cnd.free_symbols
            self.bound |= bound_variables(cnd)
        self._assumptions = _ASSUMPTIONS
        self._wanted: dict = {}
        self._admissible: dict = {}     # (symbol, value) -> the value is a number meeting the symbol's assumptions

    def wanted(self, sym) -> list:
        """The assumptions ``_outside`` requires of a value of ``sym``."""
        if sym not in self._wanted:
            if getattr(sym, "is_Symbol", False):
                flags = sym.assumptions0
            elif isinstance(sym, sp.Indexed):
                flags = {a: True for a in self._assumptions if getattr(sym, f"is_{a}") is True}
            else:
                flags = {}
            self._wanted[sym] = [name for name, want in flags.items() if want is True and name != "commutative"]
        return self._wanted[sym]

    def __call__(self, point: Mapping) -> bool:
        if any(sym not in point for sym in self.free):
            return False
        values = {}
        for sym, val in point.items():
            val = sp.sympify(val)
            if (sym, val) not in self._admissible:
                self._admissible[sym, val] = bool(
                    not val.free_symbols and val.is_number
                    and all(getattr(val, f"is_{name}", None) is True for name in self.wanted(sym)))
            if not self._admissible[sym, val]:
                return False
            values[sym] = val
        if set(values) & self.bound:
            return False
        return all(cnd.xreplace(values) is sp.true for cnd in self.conditions)


def exhaust(claim: Claim, points: Iterable[Mapping[sp.Symbol, sp.Expr]], scope: str = "") -> Enumeration:
    """Evaluate the claim's own relation exactly at every point (each checked to satisfy the claim's
    conditions and assumptions).  For a claim with ``finite=True`` whose statement ranges over
    exactly these points this is a proof; otherwise ``scope`` says what was covered."""
    n = 0
    inside = _Inside(claim)
    seen = []
    for pt in points:
        why = None if inside(pt) else _outside(claim, pt)
        if why is not None:
            return Enumeration(False, n, f"a case lies outside the claim: {why}",
                               {str(k): str(v) for k, v in pt.items()}, scope=scope)
        lhs, rhs = _values_at(claim, pt)        # as _evaluate_at, the description written only when needed
        holds = _decide(claim, lhs, rhs)
        n += 1
        seen.append(tuple(pt.items()))
        if not holds:
            return Enumeration(False, n, f"lhs = {lhs}, rhs = {rhs}", {str(k): str(v) for k, v in pt.items()},
                               scope=scope)
    return Enumeration(True, n, "the stated relation evaluated exactly at every case", scope=scope,
                       target=claim.digest(), points=tuple(seen))


def term_symbol(ix: sp.Indexed) -> sp.Symbol:
    """A symbol standing for one term's value of an indexed quantity, with the same sign assumptions."""
    flags = {a: True for a in ("positive", "nonnegative", "negative", "nonpositive", "real")
             if getattr(ix, f"is_{a}") is True}
    return sp.Symbol(f"{ix.base.label}^{{(k)}}", **flags)   # "the k-th term's value"


def _one_sum(expr: sp.Expr) -> sp.Expr:
    """``Sum(a, L) - Sum(b, L)`` (any signed combination of sums over the same limits L) as the one sum
    ``Sum(a - b, L)``, by linearity of finite sums; anything else unchanged."""
    terms = sp.Add.make_args(expr)
    parts = [t.as_coeff_Mul() for t in terms]
    if len(terms) < 2 or not all(isinstance(s, sp.Sum) for _, s in parts):
        return expr
    limits = parts[0][1].limits
    if any(s.limits != limits for _, s in parts):
        return expr
    return sp.Sum(sp.Add(*(c * s.function for c, s in parts)), *limits)


def conclude_termwise(claim: Claim, prove_term) -> Proof:
    """A claim ``Sum(f_k, (k, lo, hi)) <relation> 0`` (or a difference of sums over the same limits): the relation holds for the sum because it holds
    for every term.  The term is the claim with every quantity indexed by k replaced by a symbol
    with the same assumptions (and the conditions likewise, a condition on x_k holding for every
    k); ``prove_term(term_claim)`` must prove that term claim (its proof ends in a conclusion on
    it).  A strict relation needs at least one term (hi >= lo)."""
    expr = _one_sum(release(claim.lhs - claim.rhs))
    if not isinstance(expr, sp.Sum) or len(expr.limits) != 1:
        return _conclusion(claim, False, "lhs - rhs is not a single finite sum")
    f, (k, lo, hi) = expr.function, expr.limits[0]
    reps = {ix: term_symbol(ix) for ix in f.atoms(sp.Indexed) if ix.indices == (k,)}
    conds = tuple(sp.sympify(cnd).xreplace(reps) for cnd in claim.conditions)
    if any(k in cnd.free_symbols for cnd in conds) or k in f.xreplace(reps).free_symbols:
        return _conclusion(claim, False, "the index appears outside indexed quantities")
    term = Claim(id=claim.id + "[term]", title="one term", source=claim.source, kind=claim.kind,
                 lhs=f.xreplace(reps), rhs=0, relation=claim.relation, conditions=conds)
    sub = prove_term(term)
    last = sub.steps[-1] if sub.steps else None
    tied = last is not None and last.kind == "conclusion" and last.target == term.digest() and _minted(last)
    # a sum with hi < lo - 1 is minus a sum in SymPy's (Karr) convention: require a genuine range, and a
    # nonempty one for a strict relation
    nonempty = has_sign(hi - lo + 1, "nonnegative") and (claim.relation in ("==", ">=", "<=")
                                                        or has_sign(hi - lo, "nonnegative"))
    need = _NEED[claim.relation]
    ok = sub.ok and tied and nonempty
    return sub + _conclusion(claim, ok, f"every term of the sum is {need} (proved above), so is the sum"
                             if ok else "the terms were not shown to have the stated sign")


def conclude_shift(claim: Claim, *shifts: tuple[sp.Symbol, sp.Expr]) -> Proof:
    """An identity between integrals related by translations of their variables.

    For each (var, shift) in turn, every integral over ``var`` in the claim's right-hand side is
    rewritten by the change of variables var = u - shift (limits moved by ``shift``; infinite limits
    stay), the substitution rule for a translation: int_a^b f(v) dv = int_{a+c}^{b+c} f(u - c) du.
    The claim holds when the rewritten right-hand side and the left-hand side are then shown
    identical (integrands compared after expanding the arguments of undefined functions)."""
    moved = release(claim.rhs)
    for var, shift in shifts:
        shift = sp.sympify(shift)
        if var in shift.free_symbols:
            return _conclusion(claim, False, f"the shift {_m(shift)} of {_m(var)} contains the variable it shifts: "
                                             "not a translation")
        captured = [e for e in moved.atoms(sp.Integral) if len(e.limits) == 1 and e.limits[0][0] == var
                    and shift.free_symbols & bound_variables(e.function)]
        if captured:
            return _conclusion(claim, False, f"the shift {_m(shift)} of {_m(var)} contains a variable bound inside "
                                             "the integral it moves: not a translation")

        def move(e: sp.Integral, var=var, shift=shift) -> sp.Expr:
            if len(e.limits) != 1 or e.limits[0][0] != var or len(e.limits[0]) != 3:
                return e
            _, lo, hi = e.limits[0]
            lo2 = lo if lo.is_infinite else lo + shift
            hi2 = hi if hi.is_infinite else hi + shift
            return sp.Integral(e.function.xreplace({var: var - shift}), (var, lo2, hi2))

        before = moved
        moved = moved.replace(lambda e: isinstance(e, sp.Integral), move)
        if moved == before:
            return _conclusion(claim, False, f"the right-hand side has no integral over {var} to translate")
    lhs = release(claim.lhs)
    same = is_zero(sp.Add(lhs, -moved)) or _same_integrals(lhs, moved)
    what = "with " + ", ".join(f"{_m(v)} → {_m(v - c)}" for v, c in shifts) + " in the integrals of the right-hand side, "
    return _conclusion(claim, same, what + ("it is the left-hand side" if same else "it was not shown equal to the "
                                                                                    "left-hand side"))


def _same_integrals(a: sp.Expr, b: sp.Expr) -> bool:
    """Two single integrals with the same limits whose integrands are shown identical (after
    expanding their arguments)."""
    a, b = sp.sympify(a), sp.sympify(b)
    if not (isinstance(a, sp.Integral) and isinstance(b, sp.Integral)):
        return False
    if len(a.limits) != 1 or len(b.limits) != 1 or a.limits[0][0] != b.limits[0][0]:
        return False
    if any(not is_zero(x - y) for x, y in zip(a.limits[0][1:], b.limits[0][1:])):
        return False

    def norm(f):
        f = f.replace(lambda e: isinstance(e, sp.core.function.AppliedUndef),
                      lambda e: e.func(*(sp.expand(x) for x in e.args)))
        return f.replace(lambda e: isinstance(e, sp.Integral),
                         lambda e: sp.Integral(e.function, *[(v, *(sp.expand(x) for x in lim))
                                                             for v, *lim in e.limits]))
    fa, fb = norm(a.function), norm(b.function)
    return fa == fb or is_zero(fa - fb)


# -- induction over an integer ------------------------------------------------------------------------


def _peeled(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """``expr`` at ``var + 1``, with every finite sum whose limits move by one written as the sum with the
    old limits plus (or minus) its end term: in Karr's convention, SymPy's, sum_{i=a}^{b+1} f =
    sum_{i=a}^{b} f + f(b + 1) and sum_{i=a+1}^{b} f = sum_{i=a}^{b} f - f(a) for all integers a, b, empty and
    reversed ranges included.  Each sum is peeled once (its moved limits are marked by a new symbol standing
    for ``var + 1``); a sum over several indices is first nested, one index at a time.  A sum left with a fixed
    number of terms (at most nine, an end term's inner sum from var + 2 to var + 1, say) is written out, in the
    same convention (a reversed range is minus the terms between its limits)."""
    nxt = sp.Dummy("next", integer=True)

    def peel(e):
        if isinstance(e, sp.Sum):
            inner = sp.Sum(e.function, *e.limits[:-1]) if len(e.limits) > 1 else e.function
            (k, lo, hi), body = e.limits[-1], peel(inner)
            extra = sp.S.Zero
            if nxt in hi.free_symbols and sp.expand(hi.xreplace({nxt: var + 1}) - hi.xreplace({nxt: var})) == 1:
                extra += body.xreplace({k: hi})
                hi = hi.xreplace({nxt: var})
            if nxt in lo.free_symbols and sp.expand(lo.xreplace({nxt: var + 1}) - lo.xreplace({nxt: var})) == 1:
                lo = lo.xreplace({nxt: var})
                extra -= body.xreplace({k: lo})
            return sp.Sum(body, (k, lo, hi)) + extra
        if e.args and isinstance(e, sp.Basic) and not e.is_Atom:
            return e.func(*(peel(x) for x in e.args))
        return e

    def written(e: sp.Sum) -> sp.Expr:     # a sum of a fixed number of terms, written out (Karr's convention)
        if len(e.limits) != 1:
            return e
        (k, lo, hi), = e.limits
        d = sp.expand(hi - lo)
        if not (d.is_Integer and abs(int(d)) <= 8):
            return e
        if d >= -1:
            return sp.Add(*(e.function.xreplace({k: lo + r}) for r in range(int(d) + 1)))
        return -sp.Add(*(e.function.xreplace({k: hi + 1 + r}) for r in range(-int(d) - 1)))

    out = peel(sp.sympify(expr).xreplace({var: nxt})).xreplace({nxt: var + 1})
    return out.replace(lambda e: isinstance(e, sp.Sum), written)


def _induction_zero(diff: sp.Expr, var: sp.Symbol, start, conditions) -> Proof:
    """Mechanical steps showing that ``diff`` vanishes at every integer var >= start of the conditions: the
    range, the base D(start) = 0 and the step D(var + 1) - D(var) = 0 (sums peeled, :func:`_peeled`)."""
    start = sp.sympify(start)
    if not (isinstance(var, sp.Symbol) and var.is_integer is True):
        return mechanical(False, f"{var} is not an integer symbol: no induction over it")
    if not (start.is_integer is True and not start.free_symbols):
        return mechanical(False, f"the start {start} is not a fixed integer")
    conditions = tuple(sp.sympify(cnd) for cnd in conditions)
    others = [cnd for cnd in conditions if var in cnd.free_symbols
              and not (_normal(cnd) is not None and sp.expand(_normal(cnd)[0] - (var - start)) == 0)]
    if others:
        return mechanical(False, f"a condition other than {var} >= {start} involves {var}: {_m(others[0])} (the "
                                 "step would not stay inside the claim)")
    ranged = bool(has_sign(var - start, "nonnegative") or _implied(var - start, "nonnegative", conditions))
    steps = mechanical(ranged, f"every {_m(var)} of the claim is an integer >= {start}" if ranged
                       else f"{_m(var)} >= {start} does not follow from the claim's assumptions and conditions")
    if not ranged:
        return steps
    diff = linear_sums(diff)              # sums in one normal form (one dummy index): equal sums are one symbol
    num, den = sp.fraction(sp.together(diff))
    if den != 1 and _nonzero_under(den, conditions):
        diff = sp.cancel(num / den)       # over one denominator that never vanishes: the same function
    elif var in den.free_symbols:
        return steps + mechanical(False, f"{_m(var)} occurs in a denominator that may vanish: {_m(den)}")
    at_start = diff.xreplace({var: start}).doit()
    base = is_zero(at_start)
    steps = steps + mechanical(base, f"base: at {_m(var)} = {start} it evaluates to 0"
                               + ("" if base else f" -- not shown ({_m(at_start)})"))
    moved = _peeled(diff, var) - diff
    # the rung of is_zero for finite sums first (sums in normal form, expanded, over one denominator)
    step = base and (sp.cancel(sp.together(sp.expand(linear_sums(moved)))) == 0 or is_zero(moved))
    return steps + mechanical(step, f"step: its value at {_m(var)} + 1 minus its value at {_m(var)} is identically 0 "
                                    "(sums peeled of their end terms)" + ("" if step else " -- not shown"))


def conclude_induction(claim: Claim, var: sp.Symbol, start) -> Proof:
    """An identity ``lhs(var) = rhs(var)`` for every integer ``var >= start``, by induction on ``var``.

    The engine forms D(var) = lhs - rhs from the claim itself and checks, each mechanically:

    * the claim's range of ``var`` lies in the induction's: ``var`` is an integer symbol and ``var >= start``
      follows from its assumptions or from a stated condition, and no other condition mentions ``var``;
    * base: D(start) evaluates to 0;
    * step: D(var + 1) - D(var) is identically 0, D(var + 1) formed by substitution, with each finite sum whose
      limits move by one peeled of its end term (:func:`_peeled`) so that the sums of D(var + 1) and D(var)
      meet over the same limits; ``var`` may not occur in a denominator that could vanish.

    Then D(var) = D(start) = 0 for every integer var >= start.  Only identities: an inequality does not pass
    from var to var + 1 by a difference."""
    if claim.relation != "==" or claim.kind in ("limit", "divergence"):
        return _conclusion(claim, False, "induction concludes identities only")
    steps = _induction_zero(release(claim.lhs - claim.rhs), var, start, claim.conditions)
    ok = steps.ok
    return steps + _conclusion(claim, ok, f"by induction on {_m(var)} from {start}: the stated identity holds for "
                               f"every integer {_m(var)} >= {start}" if ok else "the induction was not completed")


def conclude_pair_sum(claim: Claim, weight: sp.Expr, certificate: sp.Expr, var: sp.Symbol, start,
                      prove_term) -> Proof:
    """A non-strict inequality whose ``lhs - rhs``, times a positive ``weight``, is a sum over the pairs i < j,
    ``certificate`` = sum_{i=lo}^{var} sum_{j=i+1}^{var} T(i, j), each term of which has the stated sign.

    The engine checks: the weight is positive; (lhs - rhs) weight - certificate is identically 0, directly
    (``var`` None) or by induction on ``var`` from ``start`` (:func:`conclude_induction`'s base and step); the certificate has the
    pair form (inner index from the outer index + 1 to the same upper limit, so j > i in every term); and
    ``prove_term`` proves the term claim: T(i, j) with every quantity indexed by i or j replaced by a symbol
    with its assumptions, under the claim's conditions likewise replaced (a condition stated for the pairs
    i < j holds for every term).  Then (lhs - rhs) = certificate / weight has the sign of its terms."""
    need = _NEED.get(claim.relation)
    if need not in ("nonnegative", "nonpositive") or claim.kind not in ("inequality", "sign"):
        return _conclusion(claim, False, "a non-strict inequality is needed")
    weight, certificate = sp.sympify(weight), sp.sympify(certificate)
    positive = has_sign(release(weight), "positive")
    steps = mechanical(positive, f"the weight {_m(weight)} is positive" + ("" if positive else " -- not shown"))
    if not (isinstance(certificate, sp.Sum) and len(certificate.limits) == 2):
        return steps + _conclusion(claim, False, "the certificate is not a double sum")
    (j_, lo_j, hi_j), (i_, lo_i, hi_i) = certificate.limits
    # j runs from i + 1 to the outer upper limit (so j > i), and the outer range is genuine (hi >= lo - 1: in
    # Karr's convention a reversed range would be minus a sum)
    paired = (sp.expand(lo_j - i_ - 1) == 0 and sp.expand(hi_j - hi_i) == 0 and i_ != j_
              and bool(has_sign(hi_i - lo_i + 1, "nonnegative") or _implied(hi_i - lo_i + 1, "nonnegative",
                                                                             claim.conditions)))
    steps = steps + mechanical(paired, f"the certificate sums over the pairs {_m(i_)} < {_m(j_)} <= {_m(hi_i)}"
                               + ("" if paired else " -- it does not"))
    diff = release((claim.lhs - claim.rhs) * weight - certificate)
    if var is None:
        same = is_zero(diff)
        steps = steps + mechanical(same, "(lhs - rhs) times the weight minus the certificate is identically 0"
                                   + ("" if same else " -- not shown"))
    else:
        steps = steps + mechanical(True, "(lhs - rhs) times the weight minus the certificate, by induction:") \
            + _induction_zero(diff, var, start, claim.conditions)
    term_f = certificate.function

    def sym(ix):
        flags = {a: True for a in ("positive", "nonnegative", "negative", "nonpositive", "real")
                 if getattr(ix, f"is_{a}") is True}
        return sp.Symbol(f"{ix.base.label}_{{{ix.indices[0]}}}", **flags)

    reps = {ix: sym(ix) for e in (term_f, *claim.conditions) for ix in sp.sympify(e).atoms(sp.Indexed)
            if ix.indices in ((i_,), (j_,))}
    term_lhs = term_f.xreplace(reps)
    conds = tuple(sp.sympify(cnd).xreplace(reps) for cnd in claim.conditions)
    if term_lhs.atoms(sp.Indexed) or var in term_lhs.free_symbols:
        return steps + _conclusion(claim, False, "the term holds quantities other than those indexed by i and j")
    term = Claim(id=claim.id + "[pair]", title="one pair term", source=claim.source, kind="sign", lhs=term_lhs,
                 rhs=0, relation=claim.relation, conditions=conds)
    sub = prove_term(term)
    last = sub.steps[-1] if sub.steps else None
    tied = last is not None and last.kind == "conclusion" and last.target == term.digest() and _minted(last)
    ok = steps.ok and sub.ok and tied
    return steps + sub + _conclusion(claim, ok, f"lhs - rhs = (a sum of pair terms, each {need}) / (a positive "
                                                "weight): the stated relation holds" if ok else "not shown")


# -- an inequality from its value at a point and the sign of its derivative ------------------------------

from .core import CITATIONS as _CITATIONS, cite as _cite, citation as _citation   # noqa: E402

if "mean_value_theorem" not in _CITATIONS:
    _citation("mean_value_theorem", "Mean value theorem",
              "If D is continuous on [u, v] and differentiable on (u, v), then D(v) - D(u) = D'(xi)(v - u) for some "
              "xi in (u, v).",
              "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 5.10.")

_NOT_SMOOTH = (sp.Abs, sp.Piecewise, sp.Max, sp.Min, sp.floor, sp.ceiling, sp.sign, sp.Heaviside)


def conclude_from_point(claim: Claim, var: sp.Symbol, point) -> Proof:
    """A non-strict inequality ``lhs <= rhs`` (or ``>=``) in the real variable ``var``, from D = lhs - rhs at
    one point and the sign of its derivative on either side of it.

    The engine checks, from the claim itself: the range of ``var`` is an interval (its assumptions and the
    conditions that involve it are bounds linear in ``var``) containing ``point``; D is built from functions
    differentiable wherever they are defined (no absolute values, pieces, max, min, floor) and is real on the
    range; D(point) has the stated sign; and (var - point) D'(var) has the stated sign on the range (D falls,
    for <=, or rises, for >=, away from ``point``).  By the mean value theorem D(v) = D(point) + D'(xi)(v - point)
    with xi between ``point`` and v, and (v - point) D'(xi) has the sign of (xi - point) D'(xi): D(v) has the
    stated sign at every v of the range."""
    point = sp.sympify(point)
    need = _NEED.get(claim.relation)
    if claim.kind not in ("inequality", "sign") or need not in ("nonnegative", "nonpositive"):
        return _conclusion(claim, False, "a non-strict inequality is needed")
    if not (isinstance(var, sp.Symbol) and var.is_real is True and var.is_integer is not True):
        return _conclusion(claim, False, f"{var} is not a real variable")
    if var in point.free_symbols:
        return _conclusion(claim, False, "the point may not depend on the variable")
    conditions = tuple(sp.sympify(cnd) for cnd in claim.conditions)
    for cnd in conditions:
        if var not in cnd.free_symbols:
            continue
        norm = _normal(cnd)
        g = norm[0] if norm is not None else None
        if g is None or sp.degree(sp.expand(g), var) != 1 or var in sp.expand(g).coeff(var, 1).free_symbols:
            return _conclusion(claim, False, f"the condition {_m(cnd)} is not a bound linear in {_m(var)}: the range "
                                             "was not shown to be an interval")
    diff = release(claim.lhs - claim.rhs)
    if diff.has(*_NOT_SMOOTH):
        return _conclusion(claim, False, "lhs - rhs holds a function that is not differentiable everywhere")
    def holds_at_point(cnd) -> bool:
        cnd = cnd.xreplace({var: point})
        norm = None if cnd in (sp.true, sp.false) else _normal(cnd)
        return cnd is sp.true or (norm is not None and _implied(norm[0], norm[1], conditions))

    flags = [name for name in ("positive", "nonnegative", "negative", "nonpositive") if getattr(var, f"is_{name}")]
    in_range = (all(holds_at_point(cnd) for cnd in conditions if var in cnd.free_symbols)
                and all(getattr(point, f"is_{f}") is True or _implied(point, f, conditions) for f in flags))
    steps = mechanical(in_range, f"the range of {_m(var)} is an interval (linear bounds) containing {_m(var)} = "
                                 f"{_m(point)}" + ("" if in_range else " -- not shown"))
    real = _real_under(diff, conditions)
    steps = steps + mechanical(real, "lhs - rhs is defined and real on the range, made of differentiable functions"
                               + ("" if real else " -- not shown"))
    at = diff.xreplace({var: point})
    base = has_sign(at, need)
    steps = steps + mechanical(base, f"at {_m(var)} = {_m(point)}: lhs - rhs = {_m(sp.simplify(at))}, {need}"
                               + ("" if base else " -- not shown"))
    slope = sp.factor(sp.together(sp.diff(diff, var) * (var - point)))
    sloped = has_sign(slope, need)
    steps = steps + mechanical(sloped, f"({_m(var)} - {_m(point)}) d/d{_m(var)} (lhs - rhs) = {_m(slope)}, {need} on "
                                       "the range" + ("" if sloped else " -- not shown"))
    ok = in_range and real and base and sloped
    steps = steps + _cite("mean_value_theorem", f"between {_m(point)} and any {_m(var)} of the range, lhs - rhs moves "
                                                f"from its value at {_m(point)} by ({_m(var)} - {_m(point)}) D'(xi), "
                                                f"which is {need}")
    return steps + _conclusion(claim, ok, f"lhs - rhs is {need} at {_m(var)} = {_m(point)} and moves only that way "
                                          f"away from it: the stated relation holds on the range" if ok
                               else "not shown")


# -- statements with pieces, on the pieces of the line of one variable inside a case -------------------------


def _quick_sign(g: sp.Expr, need: str) -> bool:
    """``g`` has the sign ``need`` by the assumptions of its symbols, as it stands, expanded or factored (the
    cheap forms of :func:`has_sign`)."""
    for form in (lambda e: e, sp.expand, sp.factor):
        try:
            if getattr(form(g), f"is_{need}") is True:
                return True
        except Exception:   # a rewrite that does not apply is no decision
            continue
    return False


def _atom_value(atom, sub) -> sp.Basic | None:
    """sp.true / sp.false for the relational ``atom`` after the substitution ``sub`` (a callable), decided from
    the new symbols' assumptions (the sign of the difference of its sides: cheap forms first, then
    :func:`has_sign`), else None."""
    g = sp.cancel(sp.together(sub(atom.lhs - atom.rhs)))
    if isinstance(atom, (sp.Eq, sp.Ne)):
        if g == 0:
            return sp.true if isinstance(atom, sp.Eq) else sp.false
        if _quick_sign(g, "positive") or _quick_sign(g, "negative"):
            return sp.false if isinstance(atom, sp.Eq) else sp.true
        if has_sign(g, "zero"):
            return sp.true if isinstance(atom, sp.Eq) else sp.false
        if has_sign(g, "positive") or has_sign(g, "negative"):
            return sp.false if isinstance(atom, sp.Eq) else sp.true
        return None
    forms = {sp.StrictGreaterThan: (g, "positive"), sp.GreaterThan: (g, "nonnegative"),
             sp.StrictLessThan: (-g, "positive"), sp.LessThan: (-g, "nonnegative")}
    if type(atom) not in forms:
        return None
    g, kind = forms[type(atom)]
    against = "nonpositive" if kind == "positive" else "negative"
    if _quick_sign(g, kind):
        return sp.true
    if _quick_sign(g, against):
        return sp.false
    if has_sign(g, kind):
        return sp.true
    if has_sign(g, against):
        return sp.false
    return None


_AGAINST = {"positive": "nonpositive", "nonnegative": "negative", "negative": "nonnegative", "nonpositive": "positive"}


def _sign_excluded(combo) -> bool:
    """Whether some (variable, value) of a piece's corner ``combo`` gives a value of the sign the variable's
    declared assumption excludes (the piece is then empty)."""
    return any(getattr(v, f"is_{sign}") is True and has_sign(x, against)
               for v, x in combo for sign, against in _AGAINST.items())


def case_pieces(case: Case, var: sp.Symbol, breakpoints: Iterable[sp.Expr],
                param: Parametrization | None = None, more: Iterable = ()) -> Proof:
    """Inside one case of :func:`conclude_split`: the claim's relation on every piece of the line of ``var`` cut
    at ``breakpoints`` b_1 <= ... <= b_k: the open half-lines var = b_1 - h and b_k + h, the points b_j and the
    open intervals var = b_j + g_j r/(1 + r), g_j = b_{j+1} - b_j, for new h, r > 0, which cover the line once
    the breakpoints are shown ordered (an empty interval, g_j = 0, is mapped to the point b_j, checked twice).
    ``more``: further (variable, breakpoints) pairs, cut the same way; the pieces are then the products of the
    pieces of each line (breakpoints may not depend on the cut variables).  ``param`` must cover the claim's
    conditions and the case's.  On each piece every relational of ``lhs - rhs`` (the conditions of its pieces)
    and of the conditions is decided from the new symbols' assumptions where it can be: a piece on which a
    condition is false is empty; on the others lhs - rhs must have the stated sign for every choice of truth
    values of the relationals left undecided (at most four), so that it has it at every point of the piece.  The
    result is one mechanical step per piece (the conclusion is the engine's: :func:`conclude_split`,
    :func:`conclude_pieces`)."""
    claim = case.claim
    conditions = tuple(sp.sympify(cnd) for cnd in claim.conditions) + tuple(case.conditions)
    where = ", ".join(map(_m, case.conditions)) or "every point"
    steps = Proof()
    lines = [(var, list(breakpoints))] + [(v, list(bp)) for v, bp in more]
    cut = {v for v, _ in lines}
    if any(v.is_real is not True for v in cut) or len(cut) != len(lines):
        return mechanical(False, f"case {where}: the cut variables must be distinct real variables")
    steps, covered = _param_covers(steps, claim, conditions, param)
    if not covered:
        return steps + mechanical(False, f"case {where}: the parametrization was not shown to cover it")
    apply = param.apply if param is not None else sp.sympify
    axes = []
    for k, (v, breaks) in enumerate(lines):
        bps = [apply(sp.sympify(bp)) for bp in breaks]
        if any(bp.free_symbols & cut for bp in bps):
            return steps + mechanical(False, f"case {where}: a breakpoint depends on a cut variable")
        gaps = [sp.cancel(bps[j + 1] - bps[j]) for j in range(len(bps) - 1)]
        ordered = all(has_sign(g, "nonnegative") for g in gaps)
        steps = steps + mechanical(ordered, f"case {where}: the breakpoints of {_m(v)} are ordered"
                                   + ("" if ordered else " -- not shown"))
        if not ordered:
            return steps
        h = sp.Symbol("h_piece" + ("" if k == 0 else f"{k + 1}"), positive=True)
        r = sp.Symbol("r_piece" + ("" if k == 0 else f"{k + 1}"), positive=True)
        pieces = [bps[0] - h]
        for j in range(len(gaps)):
            pieces += [bps[j], bps[j] + gaps[j] * r / (1 + r)]
        pieces += [bps[-1], bps[-1] + h]
        axes.append([(v, x) for x in pieces])
    need = _NEED[claim.relation]
    expr = apply(release(claim.lhs - claim.rhs))
    conds = [apply(cnd) for cnd in conditions]
    atoms = list(expr.atoms(sp.core.relational.Relational))
    combos = list(itertools.product(*axes))
    for k, combo in enumerate(combos):
        point = dict(combo)

        def sub(e, point=point):
            return sp.sympify(e).xreplace(point)
        label = (f"case {where}, piece {k + 1} of {len(combos)} ("
                 + ", ".join(_m(sp.Eq(v, x, evaluate=False)) for v, x in combo) + ")")
        if any(_atom_value(cnd, sub) is sp.false for cnd in conds if isinstance(cnd, sp.core.relational.Relational)):
            steps = steps + mechanical(True, f"{label} is empty: a condition fails on all of it")
            continue
        if _sign_excluded(combo):
            steps = steps + mechanical(True, f"{label} is empty: a variable's declared sign fails on all of it")
            continue
        values = {a: _atom_value(a, sub) for a in atoms}
        open_ = [a for a, v in values.items() if v is None]
        if len(open_) > 4:
            steps = steps + mechanical(False, f"{label}: {_m(open_[0])} and {len(open_) - 1} more are not decided there")
            continue
        # an undecided relational may be true at some points of the piece and false at others: the sign must hold
        # under every choice of their truth values (the actual one at each point is among them)
        found = []
        for choice in itertools.product((sp.true, sp.false), repeat=len(open_)):
            e = sub(expr.xreplace({**values, **dict(zip(open_, choice))}))
            found.append(e if not e.has(sp.Piecewise) and has_sign(e, need) else None)
        ok = all(e is not None for e in found)
        shown = ", ".join(sorted({_m(e) for e in found if e is not None}))
        steps = steps + mechanical(ok, f"{label}: lhs - rhs = {shown}, {need}"
                                   + (f" (whether {', '.join(_m(a) for a in open_)} or not)" if open_ else "")
                                   + ("" if ok else " -- not shown"))
    return steps


def conclude_pieces(claim: Claim, var: sp.Symbol, breakpoints: Iterable[sp.Expr],
                    param: Parametrization | None = None, more: Iterable = ()) -> Proof:
    """The claim's relation on every piece of the lines of ``var`` (and of the variables of ``more``) cut at
    their breakpoints, as :func:`case_pieces` checks it for the whole claim (no split first)."""
    sub = case_pieces(Case(claim), var, breakpoints, param, more)
    return sub + _conclusion(claim, sub.ok, "the stated relation holds on every piece" if sub.ok
                             else "not shown on every piece")


# -- a claim that is an instance of a cited standard result ------------------------------------------------


@dataclass(frozen=True)
class CitedForm:
    """The formal statement of a registered citation: ``lhs <relation> rhs`` under ``conditions``, over
    template symbols whose assumptions are part of the statement.  ``lhs`` is the notation of the quantity
    the cited result is about (a probability, a law); it is matched by name, the rest exactly."""

    key: str
    lhs: sp.Expr
    rhs: sp.Expr
    relation: str = "=="
    conditions: tuple = ()


CITED_FORMS: dict[str, CitedForm] = {}


def cited_form(key: str, lhs, rhs, relation: str = "==", conditions: Iterable = ()) -> CitedForm:
    """Register the formal statement of the citation ``key`` (registered first, with its text and reference)."""
    from .core import CITATIONS
    if key not in CITATIONS:
        raise ValueError(f"no citation {key!r}: register it before its form")
    if key in CITED_FORMS:
        raise ValueError(f"duplicate form of citation {key!r}")
    CITED_FORMS[key] = CitedForm(key, sp.sympify(lhs), sp.sympify(rhs), relation,
                                 tuple(sp.sympify(c) for c in conditions))
    return CITED_FORMS[key]


def mapped_values_admissible(mapping: Mapping, form, conditions, what: str = "") -> tuple[bool, Proof]:
    """Whether every value the mapping gives a template symbol of a cited form (its left side apart) meets that
    symbol's assumptions on the points of the conditions; the failing ones as steps (``what`` prefixed)."""
    ok, steps = True, Proof()
    for sym, expr in mapping.items():
        if sym == form.lhs:
            continue
        why = _inverse_admissible(sym, sp.sympify(expr), conditions)
        if why:
            ok, steps = False, steps + mechanical(False, f"{what}{why}")
    return ok, steps


def conclude_instance(claim: Claim, key: str, mapping: Mapping[sp.Symbol, sp.Expr]) -> Proof:
    """The claim is the cited result ``key`` at ``mapping`` (template symbol -> expression of the claim).

    The engine checks: the claim's lhs is the notation the form's lhs stands for (the mapping sends the form's
    lhs to it, and both are notations, not formulas); the claim's rhs equals the form's rhs under the mapping
    (an exact zero test); the relations agree; every template symbol is mapped to an expression meeting its
    assumptions (by the claim's symbols or conditions); and every condition of the form, mapped, follows from
    the claim's assumptions and conditions.  The step that the notation means the cited quantity is the
    citation's."""
    from .core import CITATIONS, cite
    form = CITED_FORMS.get(key)
    if form is None or key not in CITATIONS:
        return _conclusion(claim, False, f"no registered form of the citation {key!r}")
    conditions = tuple(sp.sympify(c) for c in claim.conditions)
    steps = cite(key, "the stated identity is this result at " + ", ".join(
        f"{_m(k)} = {_m(v)}" for k, v in mapping.items() if k != form.lhs))
    notation = (form.lhs in mapping and mapping[form.lhs] == claim.lhs
                and all(isinstance(x, (sp.Symbol, sp.Indexed)) for x in (form.lhs, claim.lhs)))
    steps = steps + mechanical(notation, f"the left side {_m(claim.lhs)} is the quantity {_m(form.lhs)} of the cited "
                                         "result" + ("" if notation else " -- not shown"))
    same_rel = claim.relation == form.relation
    missing = [s for s in (form.lhs.free_symbols | form.rhs.free_symbols) if s not in mapping]
    rhs_ok = same_rel and not missing and is_zero(release(claim.rhs - form.rhs.xreplace(dict(mapping))))
    steps = steps + mechanical(rhs_ok, "the right side is the cited one under the mapping"
                               + ("" if rhs_ok else " -- not shown"))
    admissible, refused = mapped_values_admissible(mapping, form, conditions)
    steps = steps + refused
    implied = True
    for cnd in form.conditions:
        mapped = cnd.xreplace(dict(mapping))
        norm = None if mapped in (sp.true, sp.false) else _normal(mapped)
        ok = mapped is sp.true or mapped in conditions or (norm is not None and _implied(norm[0], norm[1], conditions))
        implied &= bool(ok)
        steps = steps + mechanical(bool(ok), f"the cited condition {_m(mapped)} holds under the claim's"
                                   + ("" if ok else " -- not shown"))
    ok = notation and rhs_ok and admissible and implied
    return steps + _conclusion(claim, ok, "the stated relation is an instance of the cited result" if ok
                               else "not shown to be an instance of the cited result")


def lemma(claim_id: str, how: str) -> Proof:
    """Another registered claim used as a step of a proof: its own proof routine is run again here, on a
    copy, and the step holds only when that proof holds and ends in the engine's conclusion on that claim's
    statement (a stored verdict is never trusted).  The lemma's citations are carried into the proof that
    uses it, so its label says what it rests on; a lemma whose proof is argued is no step."""
    from .core import _call, _private, _proof_strength, get_claim
    c = get_claim(claim_id)
    if c.proof is None and c.kind != "identity":
        return mechanical(False, f"{claim_id} (lemma): no proof routine to run")
    pr, changed = _private(c, lambda work: _call(work.proof, work) if work.proof is not None else conclude(work))
    strength, why = _proof_strength(pr.steps, c.digest()) if pr.ok else ("argued", "its proof does not hold")
    ok = changed is None and strength != "argued"
    step = mechanical(ok, f"{claim_id} (lemma, proved again here{'' if ok else ': ' + (changed or why)}): {how}")
    carried = [st for st in pr.steps if st.kind == "citation"] if ok else []
    return all_of(step, Proof(*carried))
