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
  only for a claim whose statement ranges over that set, ``finite=True``).

Each returns a :class:`~derivations.engine.core.Proof` whose last step is a ``conclusion`` stamped
with the digest of the statement it checked, so that a routine that ignores the claim it is given
(and checks a side computation instead) cannot produce a PROVED verdict for a changed statement.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

import sympy as sp

from .core import (RELATIONS, Claim, Enumeration, Proof, Step, _evaluate_at, _outside, is_zero,
                   mechanical)

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
    claim's own symbols).  ``given`` are equalities of the claim's conditions used as substitutions.
    """

    forward: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)
    inverse: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)

    def check(self, conditions: Iterable) -> Proof:
        conditions = [sp.sympify(c) for c in conditions]
        for old, expr in self.forward.items():
            back = sp.sympify(expr).subs(self.inverse, simultaneous=True)
            if not is_zero(back - old):
                return mechanical(False, f"forward(inverse) is not the identity on {old}: {back}")
        new_symbols = set().union(*(sp.sympify(e).free_symbols for e in self.forward.values())) - set(self.forward)
        new_symbols = {n for n in new_symbols if n in self.inverse}
        for n in sorted(new_symbols, key=str):
            need = ("positive" if n.is_positive else "nonnegative" if n.is_nonnegative else
                    "negative" if n.is_negative else "nonpositive" if n.is_nonpositive else None)
            if need is None:
                continue
            if not _implied(sp.sympify(self.inverse[n]), need, conditions):
                return mechanical(False, f"no stated condition implies that {n} = {self.inverse[n]} is {need}")
        missing = sorted(str(n) for n in set().union(*(sp.sympify(e).free_symbols for e in self.forward.values()))
                         if n not in self.inverse and n not in self.forward and _constrained(n))
        if missing:
            return mechanical(False, f"no inverse given for the constrained symbols {', '.join(missing)}")
        return mechanical(True, "the parametrization covers the conditions: forward(inverse) = identity, "
                                "each new symbol's sign follows from a stated condition")

    def apply(self, expr: sp.Expr) -> sp.Expr:
        return sp.sympify(expr).subs(self.forward, simultaneous=True)


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


def _implied(expr: sp.Expr, need: str, conditions) -> bool:
    """``expr`` has the sign ``need`` under one of ``conditions`` or by its symbols' assumptions."""
    if need in ("negative", "nonpositive"):
        expr, need = -expr, "positive" if need == "negative" else "nonnegative"
    if getattr(expr, f"is_{need}") is True:
        return True
    for cond in conditions:
        norm = _normal(cond)
        if norm is None:
            continue
        g, has = norm
        if need == "positive" and has != "positive":
            continue
        ratio = sp.cancel(expr / g) if g != 0 else None
        if ratio is not None and ratio.is_positive is True:   # expr = ratio * g with ratio > 0
            return True
    return False


def has_sign(expr: sp.Expr, need: str) -> bool:
    """Decide ``expr`` (zero | nonnegative | positive | nonpositive | negative) from the
    assumptions of its symbols, after equivalence-preserving rewrites."""
    if need == "zero":
        return is_zero(expr)
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
             extra_conditions: Iterable = ()) -> Proof:
    """Check the claim's own relation.

    ``lhs - rhs`` is formed from the claim; under ``param`` (checked against the claim's conditions
    and ``extra_conditions``, which must themselves be implied by the caller's case split) it must
    vanish (identity) or have the sign the relation states (inequality, sign).  A ``certificate``
    (an expression in the claim's symbols) is first proved equal to ``lhs - rhs`` and its sign is
    then read from the assumptions."""
    steps = Proof()
    conditions = tuple(claim.conditions) + tuple(extra_conditions)
    expr = claim.lhs - claim.rhs
    if claim.kind in ("limit", "divergence"):
        return conclude_evaluation(claim)
    need = _NEED[claim.relation]
    if param is not None:
        chk = param.check(conditions)
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
        return steps + _conclusion(claim, ok, f"lhs - rhs = {certificate}, which is {need}"
                                   + ("" if ok else " -- not shown"))
    ok = has_sign(expr, need)
    what = "lhs - rhs is identically 0" if need == "zero" else f"lhs - rhs is {need}"
    return steps + _conclusion(claim, ok, what + ("" if ok else " -- not shown")
                               + (" under the parametrization" if param is not None else ""))


def conclude_cases(claim: Claim, var: sp.Symbol, breakpoints: Iterable[sp.Expr],
                   param: Parametrization | None = None, certificates: Iterable | None = None) -> Proof:
    """Check the claim's relation on each piece of the real line of ``var`` cut at ``breakpoints``.

    The breakpoints must be shown ordered (b_1 <= b_2 <= ...) under ``param``; the pieces are
    var = b_1 - h, var = b_j + g_j r/(1 + r) on [b_j, b_{j+1}) with g_j = b_{j+1} - b_j, and
    var = b_k + h, for new h, r >= 0, so they cover the line.  ``certificates``: optional, one per
    piece (None where not needed)."""
    bps = [sp.sympify(b) for b in breakpoints]
    steps = Proof()
    conditions = tuple(claim.conditions)
    if param is not None:
        chk = param.check(conditions)
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
    pieces += [apply(bps[j]) + gaps[j] * r / (1 + r) for j in range(len(gaps))]
    pieces += [apply(bps[-1]) + h]
    certs = list(certificates) if certificates is not None else [None] * len(pieces)
    need = _NEED[claim.relation]
    expr = apply(claim.lhs - claim.rhs)
    all_ok = True
    for k, (value, cert) in enumerate(zip(pieces, certs)):
        e = expr.subs(var, value)
        if cert is not None:
            c = apply(cert).subs(var, value)
            ok = is_zero(e - c) and has_sign(c, need)
        else:
            ok = has_sign(e, need)
        all_ok &= ok
        steps = steps + mechanical(ok, f"piece {k + 1} of {len(pieces)} ({var} = {value}): lhs - rhs is {need}"
                                   + ("" if ok else " -- not shown"))
    return steps + _conclusion(claim, all_ok, f"the stated relation holds on every piece of the line of {var}"
                               if all_ok else "not shown on every piece")


def conclude_evaluation(claim: Claim) -> Proof:
    """A closed statement, a limit or a divergence: both sides evaluated exactly."""
    lhs = claim.lhs.doit()
    rhs = claim.rhs.doit()
    if claim.kind in ("limit", "divergence") or claim.relation == "==":
        ok = lhs == rhs or (not (lhs.is_infinite or rhs.is_infinite) and is_zero(lhs - rhs))
    else:
        ok = RELATIONS[claim.relation](lhs, rhs) is sp.true
    return _conclusion(claim, ok, f"evaluates to {lhs} {claim.relation} {rhs}" + ("" if ok else " -- fails"))


def exhaust(claim: Claim, points: Iterable[Mapping[sp.Symbol, sp.Expr]], scope: str = "") -> Enumeration:
    """Evaluate the claim's own relation exactly at every point (each checked to satisfy the claim's
    conditions and assumptions).  For a claim with ``finite=True`` whose statement ranges over
    exactly these points this is a proof; otherwise ``scope`` says what was covered."""
    n = 0
    for pt in points:
        why = _outside(claim, pt)
        if why is not None:
            return Enumeration(False, n, f"a case lies outside the claim: {why}",
                               {str(k): str(v) for k, v in pt.items()}, scope=scope)
        holds, detail = _evaluate_at(claim, pt)
        n += 1
        if not holds:
            return Enumeration(False, n, detail, {str(k): str(v) for k, v in pt.items()}, scope=scope)
    return Enumeration(True, n, "the stated relation evaluated exactly at every case", scope=scope,
                       target=claim.digest())
