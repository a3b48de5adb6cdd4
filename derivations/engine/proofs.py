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

from dataclasses import dataclass, field
from typing import Iterable, Mapping

import sympy as sp

from .notation import release
from .render import math as _m
from .core import (RELATIONS, Claim, Enumeration, Proof, Step, _decide, _evaluate_at, _outside, _values_at, all_of,
                   is_zero, mechanical)

# the sign that lhs - rhs must have for each relation
_NEED = {"==": "zero", ">=": "nonnegative", ">": "positive", "<=": "nonpositive", "<": "negative"}


def _conclusion(claim: Claim, ok: bool, text: str) -> Proof:
    return Proof(Step("conclusion", text, bool(ok), target=claim.digest()))


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
    if param is not None:
        chk = param.check(conditions, _symbols(claim, conditions))
        steps = steps + chk
        if not chk.ok:
            return steps + _conclusion(claim, False, "the parametrization was not shown to cover the conditions")
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
    if param is not None:
        chk = param.check(conditions, _symbols(claim, conditions))
        steps = steps + chk
        if not chk.ok:
            return steps + _conclusion(claim, False, "the parametrization was not shown to cover the conditions")
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
        if claim.kind in ("limit", "divergence") or claim.relation == "==":
            # integrated sides are sums of many fractions: their difference is compared over one denominator
            ok = lhs == rhs or (not (lhs.is_infinite or rhs.is_infinite)
                                and is_zero(sp.together(lhs - rhs) if k + 1 < len(forms) else lhs - rhs))
        else:
            ok = RELATIONS[claim.relation](lhs, rhs) is sp.true
        if ok:
            break
    return _conclusion(claim, ok, f"evaluates to {_m(RELATIONS[claim.relation](lhs, rhs, evaluate=False))}" + ("" if ok else " -- fails"))


class _Inside:
    """A quick sufficient test that a point lies inside a claim: the test of
    :func:`~derivations.engine.core._outside` with the claim's symbols, their assumptions and its conditions
    read once, and each condition evaluated with all the values put in at once (``xreplace``, the
    relational of two numbers decided exactly).  True only when every symbol of the claim is given a number
    meeting each assumption of its symbol and every condition evaluates to True; anything else is left to
    ``_outside``, which decides and says why."""

    def __init__(self, claim: Claim):
        from sympy.concrete.expr_with_limits import ExprWithLimits
        from .core import _ASSUMPTIONS
        self.conditions = [sp.sympify(cnd) for cnd in claim.conditions]
        self.free = set(claim.lhs.free_symbols) | set(claim.rhs.free_symbols)
        self.bound = set()
        for cnd in self.conditions:
            self.free |= cnd.free_symbols
            for node in sp.preorder_traversal(cnd):
                if isinstance(node, (ExprWithLimits, sp.Lambda, sp.Subs, sp.Derivative)):
                    self.bound.update(node.variables)
                elif isinstance(node, sp.Limit):
                    self.bound.add(node.args[1])
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
    for pt in points:
        why = None if inside(pt) else _outside(claim, pt)
        if why is not None:
            return Enumeration(False, n, f"a case lies outside the claim: {why}",
                               {str(k): str(v) for k, v in pt.items()}, scope=scope)
        lhs, rhs = _values_at(claim, pt)        # as _evaluate_at, the description written only when needed
        holds = _decide(claim, lhs, rhs)
        n += 1
        if not holds:
            return Enumeration(False, n, f"lhs = {lhs}, rhs = {rhs}", {str(k): str(v) for k, v in pt.items()},
                               scope=scope)
    return Enumeration(True, n, "the stated relation evaluated exactly at every case", scope=scope,
                       target=claim.digest())


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
    tied = last is not None and last.kind == "conclusion" and last.target == term.digest()
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
