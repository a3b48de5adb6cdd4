"""Conclusions for statements about the law of a release that the engine cannot write down for a symbolic size.

Three conclusions, each ending in the engine's own check of the claim it is given:

* :func:`conclude_composed` -- the claim is a cited result (its formal statement, :func:`~derivations.engine.
  proofs.cited_form`) in which some of the quantities are themselves given by cited results: the multiplication
  rule P(A n B) = P(A) P(B | A) with P(A) a binomial probability and P(B | A) a hypergeometric one.  Each
  instance is checked as :func:`~derivations.engine.proofs.conclude_instance` checks one, and the claim's right
  side must equal the outer right side with the inner ones put in (an exact zero test).
* :func:`conclude_bounds` -- the claim's left side is a notation for a quantity defined by a supremum over
  every pair of neighbouring databases of any size (the epsilon or the delta of a released table); the proof's
  steps bound it above by an expression U (post-processing, cited) and below by an expression V (the value at
  one pair, computed), and the engine checks U and V against the claim's right side, each as a claim of its own
  ending in one of the engine's conclusions on it.
* :func:`conclude_extended_pieces` -- a statement whose sides take the values +oo and -oo on some pieces (the
  epsilon of (1) of a matrix with zeros): on every piece of the lines of its variables cut at constant
  breakpoints both sides are evaluated, two infinities are compared as extended reals (oo = oo, -oo < x < oo)
  and finite values by the sign of their difference.
"""
from __future__ import annotations

import itertools
from typing import Iterable, Mapping

import sympy as sp

from .core import RELATIONS, Claim, Proof, Step, _minted, argue, cite, mechanical
from .notation import release
from .proofs import (_NEED, CITED_FORMS, _atom_value, _conclusion, _implied, _normal, _sign_excluded,
                     has_sign, is_zero, mapped_values_admissible)
from .render import math as _m

__all__ = ["conclude_composed", "conclude_bounds", "conclude_extended_pieces"]


def _is_notation(x) -> bool:
    return isinstance(x, (sp.Symbol, sp.Indexed))


def _instance_checks(key: str, mapping: Mapping, notation, conditions: tuple, what: str) -> tuple[Proof, bool, sp.Expr]:
    """The checks of one instance of the cited form ``key`` whose left side is ``notation``: the form's left side is
    mapped to it, every template symbol is mapped (admissibly) and every cited condition follows from
    ``conditions``.  Returns (steps, ok, the mapped right side)."""
    from .core import CITATIONS
    form = CITED_FORMS.get(key)
    if form is None or key not in CITATIONS:
        return mechanical(False, f"{what}: no registered form of the citation {key!r}"), False, sp.S.Zero
    steps = cite(key, f"{what}: " + ", ".join(f"{_m(k)} = {_m(v)}" for k, v in mapping.items() if k != form.lhs))
    named = form.lhs in mapping and mapping[form.lhs] == notation and _is_notation(form.lhs) and _is_notation(notation)
    steps = steps + mechanical(named, f"{what}: {_m(notation)} is the quantity {_m(form.lhs)} of the cited result"
                               + ("" if named else " -- not shown"))
    missing = [s for s in (form.lhs.free_symbols | form.rhs.free_symbols) if s not in mapping]
    ok = named and not missing and form.relation == "=="
    if missing:
        steps = steps + mechanical(False, f"{what}: the template symbols {', '.join(map(str, missing))} are not mapped")
    admissible, refused = mapped_values_admissible(mapping, form, conditions, f"{what}: ")
    ok, steps = ok and admissible, steps + refused
    for cnd in form.conditions:
        mapped = cnd.xreplace(dict(mapping))
        norm = None if mapped in (sp.true, sp.false) else _normal(mapped)
        held = (mapped is sp.true or mapped in conditions
                or (norm is not None and _implied(norm[0], norm[1], conditions)))
        ok &= bool(held)
        steps = steps + mechanical(bool(held), f"{what}: the cited condition {_m(mapped)} holds under the claim's"
                                   + ("" if held else " -- not shown"))
    return steps, ok, form.rhs.xreplace(dict(mapping))


def conclude_composed(claim: Claim, outer: tuple[str, Mapping],
                      inner: Mapping[sp.Symbol, tuple[str, Mapping]]) -> Proof:
    """The claim is the cited result ``outer = (key, mapping)`` in which each quantity ``s`` of ``inner`` (a
    notation, the image of one of the outer form's template symbols) is the cited result ``inner[s] = (key,
    mapping)``.

    The engine checks: the outer form's left side is mapped to the claim's left side and each inner form's left
    side to its notation ``s`` (notations, not formulas); every template symbol of every form is mapped, and each
    mapped value meets the symbol's assumptions under the claim's conditions (an outer symbol mapped to an inner
    notation gets that notation, whose assumptions are its own); every cited condition, mapped, follows from the
    claim's conditions; the relations are identities; and the claim's right side equals the outer right side with
    each inner notation replaced by its inner right side (an exact zero test)."""
    from .core import CITATIONS
    key, mapping = outer
    form = CITED_FORMS.get(key)
    conditions = tuple(sp.sympify(c) for c in claim.conditions)
    if form is None or key not in CITATIONS:
        return _conclusion(claim, False, f"no registered form of the citation {key!r}")
    if claim.relation != "==" or not _is_notation(claim.lhs):
        return _conclusion(claim, False, "a composed instance is an identity whose left side is a notation")
    steps, ok, values = Proof(), True, {}
    for s, (k_in, m_in) in inner.items():
        sub, good, rhs_in = _instance_checks(k_in, m_in, s, conditions, f"the quantity {_m(s)}")
        steps, ok, values[s] = steps + sub, ok and good and _is_notation(s), rhs_in
    used = set(mapping.values())
    unused = [s for s in inner if s not in used]
    if unused:
        ok = False
        steps = steps + mechanical(False, f"the inner quantities {', '.join(map(_m, unused))} are not used by the "
                                          "outer result")
    sub, good, rhs_out = _instance_checks(key, mapping, claim.lhs, conditions, "the stated quantity")
    steps, ok, rhs_out = steps + sub, ok and good, rhs_out.xreplace(values)
    same = ok and is_zero(release(claim.rhs - rhs_out))
    steps = steps + mechanical(same, "the right side is the cited one with the cited quantities put in"
                               + ("" if same else " -- not shown"))
    return steps + _conclusion(claim, ok and same, "the stated relation is an instance of the cited results composed"
                               if ok and same else "not shown to be an instance of the cited results composed")


def _embedded(sub_claim: Claim, proof: Proof, what: str) -> tuple[Proof, bool]:
    """The steps of ``proof`` of ``sub_claim``, its conclusion (which must be the engine's, on ``sub_claim``)
    turned into a mechanical step."""
    if not proof.steps:
        return mechanical(False, f"{what}: no proof"), False
    last = proof.steps[-1]
    tied = last.kind == "conclusion" and _minted(last) and last.target == sub_claim.digest()
    ok = tied and proof.ok
    text = f"{what}: {last.text}" + ("" if tied else " -- not the engine's conclusion on it")
    return Proof(*proof.steps[:-1], Step("mechanical", text, ok)), ok


_BOUND_OF = {"above": {"==": "<=", "<=": "<=", "<": "<"}, "below": {"==": ">=", ">=": ">=", ">": ">"}}


def conclude_bounds(claim: Claim, *, above: tuple | None = None, below: tuple | None = None) -> Proof:
    """The claim ``L <relation> rhs``, L a notation (a symbol) for a quantity the engine cannot write down, from
    bounds L <= U (``above``) and L >= V (``below``) that the preceding steps of the proof establish.

    Each bound is ``(expression, check)``: ``check`` is called with the claim ``U <= rhs`` (``V >= rhs``; strict
    when the claim is) under the claim's conditions and must return a proof ending in the engine's conclusion on
    it.  A bound that is the claim's right side is refused: it would check nothing.  A bound given as
    a string is an argument (the verdict is then ARGUED).  An identity needs both bounds, ``<=`` an upper and
    ``>=`` a lower one."""
    if not _is_notation(claim.lhs):
        return _conclusion(claim, False, "bounds are for a left side that is a notation, not a formula")
    need = {"==": ("above", "below"), "<=": ("above",), "<": ("above",), ">=": ("below",), ">": ("below",)}
    sides = {"above": above, "below": below}
    wanted = need.get(claim.relation, ())
    if not wanted or any(sides[w] is None for w in wanted):
        return _conclusion(claim, False, f"the relation {claim.relation} needs the bounds {', '.join(wanted)}")
    steps, ok = Proof(), True
    for w in wanted:
        if isinstance(sides[w], str):     # a bound given as an argument: the verdict is ARGUED
            steps = steps + argue(f"the {w} bound, argued: {sides[w]}")
            continue
        bound, check = sides[w]
        bound = sp.sympify(bound)
        rel = _BOUND_OF[w][claim.relation]
        sign = "<=" if w == "above" else ">="
        if bound == claim.rhs:
            # the statement's own right side as a bound would check nothing: a bound is built by the proof
            steps, ok = steps + mechanical(False, f"the {w} bound {_m(bound)} is the stated right side: a bound "
                                                  "must be built by the proof, not taken from the statement"), False
            continue
        try:
            sub_claim = Claim(id=f"{claim.id}.bound_{w}", title=f"the {w} bound of {claim.id} against its right side",
                              source=claim.source, kind="inequality", lhs=bound, rhs=claim.rhs, relation=rel,
                              conditions=claim.conditions)
        except ValueError as exc:       # e.g. folded by SymPy to X = X: not a bound checked here
            steps, ok = steps + mechanical(False, f"the {w} bound is not a statement to check: {exc}"), False
            continue
        if check is None:
            steps, ok = steps + mechanical(False, f"the {w} bound {_m(bound)} comes without a check"), False
            continue
        sub, good = _embedded(sub_claim, check(sub_claim),
                              f"{_m(claim.lhs)} {sign} {_m(bound)}, and {_m(bound)} {rel} the right side")
        steps, ok = steps + sub, ok and good
    return steps + _conclusion(claim, ok, "the stated relation follows from the bounds" if ok
                               else "not shown from the bounds")


def _extended_holds(lhs: sp.Expr, rhs: sp.Expr, relation: str) -> bool:
    """``lhs <relation> rhs`` for two values on the extended real line: infinities compared as such, finite
    values by the sign of their difference (:func:`~derivations.engine.proofs.has_sign`)."""
    if lhs.has(sp.Piecewise, sp.nan, sp.zoo) or rhs.has(sp.Piecewise, sp.nan, sp.zoo):
        return False
    inf_l, inf_r = lhs in (sp.oo, -sp.oo), rhs in (sp.oo, -sp.oo)
    if inf_l or inf_r:
        if (not inf_l and lhs.is_finite is not True) or (not inf_r and rhs.is_finite is not True):
            return False
        return RELATIONS[relation](lhs, rhs) is sp.true
    if lhs.has(sp.oo, -sp.oo) or rhs.has(sp.oo, -sp.oo):
        return False
    return has_sign(lhs - rhs, _NEED[relation])


def conclude_extended_pieces(claim: Claim, lines: Iterable[tuple[sp.Symbol, Iterable]]) -> Proof:
    """The claim's relation on every piece of the lines of its variables, each cut at constant breakpoints
    b_1 < ... < b_k (numbers, shown increasing): the open half-lines b_1 - h and b_k + h, the points b_j and the
    open intervals b_j + (b_{j+1} - b_j) r/(1 + r), for new h, r > 0, and their products over the variables.  On
    each piece every relational of the statement and of the conditions is decided from the new symbols'
    assumptions; a piece on which a condition or a variable's declared sign fails is empty; on the others both
    sides are evaluated and compared on the extended real line (oo = oo, -oo < x < oo for finite x, finite values
    by the sign of their difference).  A relational left undecided, or a side left with pieces, fails the piece."""
    lines = [(v, [sp.sympify(x) for x in bps]) for v, bps in lines]
    steps, ok = Proof(), True
    if not lines or len({v for v, _ in lines}) != len(lines) or any(v.is_real is not True for v, _ in lines):
        return _conclusion(claim, False, "the cut variables must be distinct real variables")
    axes = []
    for k, (v, bps) in enumerate(lines):
        if not bps or any(not b.is_number or not b.is_real for b in bps) or any(
                (bps[j + 1] - bps[j]).is_positive is not True for j in range(len(bps) - 1)):
            return _conclusion(claim, False, f"the breakpoints of {_m(v)} must be real numbers, increasing")
        h = sp.Symbol(f"h_piece{k + 1}", positive=True)
        r = sp.Symbol(f"r_piece{k + 1}", positive=True)
        pieces = [bps[0] - h]
        for j in range(len(bps) - 1):
            pieces += [bps[j], bps[j] + (bps[j + 1] - bps[j]) * r / (1 + r)]
        pieces += [bps[-1], bps[-1] + h]
        axes.append([(v, x) for x in pieces])
    lhs, rhs = release(claim.lhs), release(claim.rhs)
    conds = [sp.sympify(c) for c in claim.conditions]
    for combo in itertools.product(*axes):
        point = dict(combo)
        label = ", ".join(f"{_m(v)} = {_m(x)}" for v, x in combo)

        def decided(e, point=point):
            e = sp.sympify(e).xreplace(point)
            atoms = e.atoms(sp.core.relational.Relational)
            values = {a: _atom_value(a, lambda x: x) for a in atoms}
            if any(val is None for val in values.values()):
                return None
            return sp.sympify(e.xreplace(values))
        if any(decided(c) is sp.false for c in conds):
            steps = steps + mechanical(True, f"piece {label} is empty: a condition fails on all of it")
            continue
        if _sign_excluded(combo):
            steps = steps + mechanical(True, f"piece {label} is empty: a variable's declared sign fails on all of it")
            continue
        lv, rv = decided(lhs), decided(rhs)
        good = lv is not None and rv is not None and _extended_holds(lv, rv, claim.relation)
        ok &= good
        steps = steps + mechanical(good, f"piece {label}: {_m(lv) if lv is not None else 'undecided'} "
                                         f"{claim.relation} {_m(rv) if rv is not None else 'undecided'}"
                                   + ("" if good else " -- not shown"))
    return steps + _conclusion(claim, ok, "the stated relation holds on every piece, on the extended real line"
                               if ok else "not shown on every piece")
