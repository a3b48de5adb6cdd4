"""Suprema over the points of a range: the engine's conclusions for a maximum over a symbolic range.

A privacy figure of a design is a supremum: delta_{Z,X}(eps) is the supremum of delta(eps, x, x') over the
neighbouring pairs of the domain, eps_{Z,X}(0) the logarithm of the supremum of the likelihood ratios (ht-mechanism,
Section 1.4).  When the laws depend on the pair only through a few integers (the totals t(x), t(x') under simple
random sampling of binary data), the supremum is over the integer points of a range given by linear conditions on
symbols (N, n, m_t, M_t).  :class:`Supremum` writes such a quantity: the union of *families*, each a member
expression, its variables and the conditions of its range; it prints as ``sup{member : conditions}``.

Two conclusions decide a claim about one, a third splits an integral over the line:

* :func:`conclude_supremum` -- ``sup = R`` (or, for members ln g, ``sup = ln R`` or ``+oo``): every member is
  at most R on its range (for a maximum R = max(a_1, ..., a_k), at most one of the a_i), and every a_i is the
  value of a member at a point of its range (a *witness*), so the supremum is R and it is attained; or some
  member is +oo at a point of its range (a quotient whose denominator is 0 there and whose numerator is
  positive: a likelihood ratio f_x(y)/f_x'(y) with f_x'(y) = 0 < f_x(y)).
* :func:`conclude_same_values` -- ``sup_A = sup_B``: every member of A at a point of its range is a member of
  B at a point of B's range (the point given by a map), and conversely, so the two sets of values, and hence
  their suprema, are equal.
* :func:`conclude_line_split` -- an integral over the whole line equals a sum of terms: it is split at ordered
  breakpoints (additivity of the integral, cited), on an outer piece a subexpression of the integrand is replaced
  by a simpler one shown equal there term by term (a finite sum over a symbolic number of samples), and the
  pieces so replaced are integrated in cases on the signs of given real quantities.

Ranges are covered by :class:`~derivations.engine.proofs.Parametrization` (checked to cover the claim's
conditions and the family's range, the variables' assumptions included); a condition of the claim of the form
min(a, b) >= c, min(a, b) < c, max(a, b) <= c or max(a, b) > c is first rewritten exactly into its conjunction
or into cases (one per argument), each case covered separately.  Binomial coefficients in a member are rewritten
through the Gamma function (``gammasimp``), an identity, before signs are read.
"""
from __future__ import annotations

import itertools
from typing import Iterable, Mapping, Sequence

import sympy as sp

from .core import Claim, Proof, is_zero, mechanical
from .notation import release
from .proofs import Parametrization, _conclusion, _normal, _symbols, has_sign
from .render import math as _m

__all__ = ["Supremum", "Family", "conclude_supremum", "conclude_same_values", "condition_cases",
           "conclude_line_split"]


class Family(sp.Tuple):
    """One family of a :class:`Supremum`: ``(member, variables, conditions)``."""

    def __new__(cls, member, variables: Sequence[sp.Symbol], conditions: Iterable = ()):
        return sp.Tuple.__new__(cls, sp.sympify(member), sp.Tuple(*variables),
                                sp.Tuple(*(sp.sympify(c) for c in conditions)))

    @property
    def member(self) -> sp.Expr:
        return self.args[0]

    @property
    def variables(self) -> tuple:
        return tuple(self.args[1].args)

    @property
    def conditions(self) -> tuple:
        return tuple(self.args[2].args)

    def at(self, point: Mapping) -> tuple[sp.Expr, tuple]:
        """The member and the range conditions at ``point`` (a value for every variable)."""
        sub = {v: sp.sympify(point[v]) for v in self.variables}
        return self.member.xreplace(sub), tuple(sp.sympify(c).xreplace(sub) for c in self.conditions)


class Supremum(sp.Expr):
    """sup over the union of the families: the supremum of each member over the points of its range (the
    variables take every value their assumptions allow that meets the range's conditions).  A member that is a
    quotient with denominator 0 and a positive numerator at a point is +oo there (the convention of likelihood
    ratios).  The variables are bound: they are not free symbols of the node.  It is read as one quantity by
    the walkers of the engine (an atom), and decided by :func:`conclude_supremum` and
    :func:`conclude_same_values`, which read each member over its own range."""

    is_Atom = True          # its members are read over their ranges, by the conclusions of this module only
    is_commutative = True

    def __new__(cls, *families: Family):
        if not families or not all(isinstance(f, Family) for f in families):
            raise ValueError("a Supremum is made of one or more Family")
        return sp.Expr.__new__(cls, *families)

    @property
    def families(self) -> tuple[Family, ...]:
        return tuple(self.args)

    @property
    def free_symbols(self):
        out = set()
        for f in self.families:
            inner = set(f.member.free_symbols)
            for c in f.conditions:
                inner |= c.free_symbols
            out |= inner - set(f.variables)
        return out

    def _eval_subs(self, old, new):
        if not any(old in f.variables for f in self.families):
            return None
        return self      # a bound variable is not substituted

    def _latex(self, printer, exp=None):
        parts = [r"\sup\left\{" + printer._print(f.member) + r" : " + r",\ ".join(
            printer._print(c) for c in f.conditions) + r"\right\}" for f in self.families]
        tex = parts[0] if len(parts) == 1 else r"\max\left(" + ", ".join(parts) + r"\right)"
        return tex if exp is None else r"\left(" + tex + r"\right)^{" + exp + "}"

    def _papers_unicode(self, printer):
        parts = ["sup{" + printer._print(f.member) + " : " + ", ".join(printer._print(c) for c in f.conditions) + "}"
                 for f in self.families]
        return parts[0] if len(parts) == 1 else "max(" + ", ".join(parts) + ")"

    def _sympystr(self, printer):
        return self._papers_unicode(printer)


# -- conditions with min and max, rewritten exactly ---------------------------------------------------------------
def _as_min_max(cond):
    """``(kind, args, c, rel)`` for a relational ``Min(args) rel c`` or ``Max(args) rel c`` (either side), rel one
    of '>=', '>', '<=', '<' read with Min/Max on the left; else None."""
    if not isinstance(cond, sp.core.relational.Relational) or isinstance(cond, (sp.Eq, sp.Ne)):
        return None
    flip = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}
    lhs, rhs, rel = cond.lhs, cond.rhs, cond.rel_op
    if isinstance(rhs, (sp.Min, sp.Max)) and not isinstance(lhs, (sp.Min, sp.Max)):
        lhs, rhs, rel = rhs, lhs, flip[rel]
    if not isinstance(lhs, (sp.Min, sp.Max)) or rhs.has(sp.Min, sp.Max):
        return None
    return ("min" if isinstance(lhs, sp.Min) else "max"), lhs.args, rhs, rel


_REL = {">=": sp.Ge, ">": sp.Gt, "<=": sp.Le, "<": sp.Lt}


def condition_cases(conditions: Iterable) -> list[tuple] | None:
    """The conditions as a list of cases, each a tuple of relationals without min or max, whose disjunction is
    equivalent to the conjunction of the conditions: min(a, b) >= c is a >= c and b >= c, min(a, b) < c is the
    cases a < c, b < c (max likewise, the other way round).  None when a min or max appears otherwise."""
    cases: list[tuple] = [()]
    for cnd in (sp.sympify(c) for c in conditions):
        if not cnd.has(sp.Min, sp.Max):
            cases = [case + (cnd,) for case in cases]
            continue
        form = _as_min_max(cnd)
        if form is None:
            return None
        kind, args, c, rel = form
        each = [_REL[rel](a, c) for a in args]
        conjunction = (kind == "min") == (rel in (">=", ">"))
        if conjunction:
            cases = [case + tuple(each) for case in cases]
        else:
            cases = [case + (e,) for case in cases for e in each]
    return cases


# -- signs and values of members --------------------------------------------------------------------------------
def _gamma_form(expr: sp.Expr) -> sp.Expr:
    """``expr`` with binomial coefficients through the Gamma function and simplified (an identity)."""
    expr = sp.sympify(expr)
    if expr.has(sp.binomial, sp.factorial, sp.gamma):
        expr = sp.gammasimp(expr)
    return sp.cancel(sp.together(expr))


def _shifted(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every positive integer symbol p written 1 + p_0 (p_0 a nonnegative integer): the same values,
    in a form whose signs SymPy reads term by term."""
    expr = sp.sympify(expr)
    rep = {p: 1 + sp.Dummy(f"{p.name}_0", integer=True, nonnegative=True)
           for p in expr.free_symbols if p.is_integer and p.is_positive}
    return expr.xreplace(rep) if rep else expr


def _quick_sign(expr: sp.Expr, need: str) -> bool:
    """``expr`` has the sign ``need`` by its symbols' assumptions, as it stands, expanded or factored."""
    for form in (lambda e: e, sp.expand, sp.factor):
        try:
            if getattr(form(expr), f"is_{need}") is True:
                return True
        except Exception:   # a rewrite that does not apply decides nothing
            continue
    return False


def _sign(expr: sp.Expr, need: str) -> bool:
    """``expr`` has the sign ``need``, as it stands or with its positive integers shifted (:func:`_shifted`): the
    cheap forms first, then :func:`has_sign`."""
    expr = sp.sympify(expr)
    shifted = _shifted(expr)
    return (_quick_sign(expr, need) or _quick_sign(shifted, need) or has_sign(expr, need)
            or has_sign(shifted, need))


def _holds(cond, param: Parametrization) -> bool:
    """The relational ``cond`` holds at every point of the parametrization (its difference has the sign)."""
    cond = sp.sympify(cond)
    if cond is sp.true:
        return True
    if isinstance(cond, sp.Eq):
        return is_zero(param.apply(cond.lhs - cond.rhs))
    norm = _normal(cond)
    if norm is None:
        return False
    g, need = norm
    return _sign(sp.factor(sp.cancel(param.apply(g))), need)


def _admissible(var: sp.Symbol, value: sp.Expr, param: Parametrization) -> bool:
    """``value`` (under the parametrization) meets the assumptions declared on the variable ``var``."""
    v = param.apply(value)
    for name in ("integer", "nonnegative", "positive", "real"):
        if getattr(var, f"is_{name}") is True:
            ok = (getattr(v, f"is_{name}") is True) if name in ("integer", "real") else _sign(v, name)
            if not ok:
                return False
    return True


def _positive_value(expr: sp.Expr) -> bool:
    """``expr`` (binomials allowed) is shown positive: as it stands, with binomials as factorials, or in Gamma
    form."""
    expr = _shifted(expr)
    if _quick_sign(expr, "positive"):
        return True
    if expr.has(sp.binomial) and sp.expand(expr.rewrite(sp.factorial)).is_positive is True:
        return True
    return has_sign(expr, "positive") or has_sign(_gamma_form(expr), "positive")


def _family_range(claim: Claim, case: tuple, fam: Family, param: Parametrization, where: str) -> Proof:
    """The parametrization covers the case of the claim's conditions and the family's range (the variables'
    assumptions included)."""
    conds = tuple(case) + fam.conditions
    symbols = _symbols(claim, conds) | set(fam.variables)
    chk = param.check(conds, symbols)
    return mechanical(chk.ok, f"{where}: the parametrization covers the range"
                      + ("" if chk.ok else f" -- not shown ({chk.steps[-1].text})"))


def _witness(fam: Family, point: Mapping, param: Parametrization, where: str) -> tuple[Proof, sp.Expr | None]:
    """The point lies in the family's range at every point of the case (``param``): each variable's assumptions
    and each range condition.  Returns the step and the member at the point (None if not shown)."""
    missing = [v for v in fam.variables if v not in point]
    if missing:
        return mechanical(False, f"{where}: the witness gives no value to {', '.join(map(str, missing))}"), None
    member, conds = fam.at(point)
    ok = all(_admissible(v, point[v], param) for v in fam.variables) and all(_holds(c, param) for c in conds)
    text = ", ".join(f"{_m(v)} = {_m(point[v])}" for v in fam.variables)
    return mechanical(ok, f"{where}: the point {text} lies in the range" + ("" if ok else " -- not shown")), \
        (member if ok else None)


def _infinite_at(fam: Family, point: Mapping, param: Parametrization) -> bool:
    """The member, a quotient as built, has denominator 0 and a positive numerator at the point under ``param``
    (numerator and denominator are evaluated apart, so that nothing is divided by 0)."""
    num, den = sp.fraction(fam.member)
    sub = {v: sp.sympify(point[v]) for v in fam.variables}
    num, den = (param.apply(e.xreplace(sub)) for e in (num, den))
    return den != 1 and is_zero(den) and _positive_value(num)


def _strip_log(claim: Claim) -> tuple[Supremum, sp.Expr, bool] | None:
    """(sup, R, logged): the claim as sup = R; or, when every member is a logarithm ln g and the right side is
    ln R or +oo, as sup g = R (ln is increasing, ln(+oo) = +oo), the members' logarithms dropped; None
    otherwise."""
    lhs, rhs = release(claim.lhs), release(claim.rhs)
    if not isinstance(lhs, Supremum):
        return None
    if all(isinstance(f.member, sp.log) for f in lhs.families) and (isinstance(rhs, sp.log) or rhs is sp.oo):
        inner = Supremum(*(Family(f.member.args[0], f.variables, f.conditions) for f in lhs.families))
        return inner, (rhs if rhs is sp.oo else rhs.args[0]), True
    return lhs, rhs, False


def conclude_supremum(claim: Claim, cases: Sequence[Mapping]) -> Proof:
    """The claim ``sup = R`` for a :class:`Supremum` on the left; when every member is a logarithm ln g and the
    right side is ln R or +oo, the claim ``sup g = R`` (ln is increasing; each g is shown positive or +oo).

    ``cases``: one entry per case of the claim's conditions (:func:`condition_cases`, in its order), a mapping
    with ``"param"`` (a :class:`Parametrization` of the case, the claim's symbols only), and

    * for a finite R = max(a_1, ..., a_k) (or R = a_1): ``"bounds"``, one ``(parametrization, a_i)`` per
      family (the parametrization alone when R has one argument), covering the case and the family's range,
      under which the member is finite (its denominator shown positive) and at most a_i; and ``"witnesses"``,
      ``(family index, point)`` pairs, each point in the family's range at every point of the case, such that
      every a_i is the member at one of them;
    * for R = +oo: ``"witnesses"``, one ``(family index, point)`` where the member is +oo (denominator 0,
      numerator positive).

    Then every value is at most R and R is a value (or +oo is one): the supremum is R."""
    form = _strip_log(claim)
    if claim.relation != "==" or form is None:
        return _conclusion(claim, False, "the claim is not sup = R, ln sup = ln R or ln sup = +oo")
    sup, R, logged = form
    splits = condition_cases(claim.conditions)
    if splits is None or len(splits) != len(cases):
        return _conclusion(claim, False, f"the claim's conditions give {0 if splits is None else len(splits)} "
                                         f"case(s), {len(cases)} were given")
    fams = sup.families
    infinite = R is sp.oo
    if not infinite and R.is_infinite:
        return _conclusion(claim, False, "the right side is infinite but not +oo")
    targets = [] if infinite else (list(R.args) if isinstance(R, sp.Max) else [R])
    steps = Proof()
    if len(splits) > 1:
        common = set.intersection(*(set(case) for case in splits))
        steps = steps + mechanical(True, "the conditions hold exactly in the cases " + "; ".join(
            ", ".join(_m(c) for c in case if c not in common) for case in splits)
            + " (a minimum is below c iff one of its arguments is; a maximum above c likewise)")
    ok = True
    for k, (case, given) in enumerate(zip(splits, cases)):
        where = f"case {k + 1} of {len(splits)}" if len(splits) > 1 else "the range of the claim"
        param = given.get("param")
        if param is None:
            return steps + _conclusion(claim, False, f"{where}: no parametrization of the case")
        chk = param.check(case, _symbols(claim, case))
        steps = steps + mechanical(chk.ok, f"{where}: the parametrization covers the claim's conditions"
                                   + ("" if chk.ok else " -- not shown"))
        ok &= chk.ok
        witnesses = list(given.get("witnesses", ()))
        if infinite:
            if len(witnesses) != 1:
                return steps + _conclusion(claim, False, f"{where}: one witness of an infinite member is needed")
            j, point = witnesses[0]
            st, member = _witness(fams[j], point, param, f"{where}, family {j + 1}")
            inf = member is not None and _infinite_at(fams[j], point, param)
            steps = steps + st + mechanical(inf, f"{where}: there the member is a quotient with denominator 0 and a "
                                                 "positive numerator: +oo" + ("" if inf else " -- not shown"))
            ok &= st.ok and inf
            continue
        bounds = list(given.get("bounds", ()))
        if len(bounds) != len(fams) or not witnesses:
            return steps + _conclusion(claim, False, f"{where}: one bound per family and witnesses of the right "
                                                     "side's arguments are needed")
        for j, (fam, bp) in enumerate(zip(fams, bounds)):
            label = f"{where}, family {j + 1}"
            if isinstance(bp, tuple):        # (parametrization, the argument of the right side that bounds)
                bp, a = bp
            else:
                a = targets[0] if len(targets) == 1 else None
            if a is None or not any(is_zero(a - b) for b in targets):
                return steps + _conclusion(claim, False, f"{label}: the bound is not an argument of the right side")
            st = _family_range(claim, case, fam, bp, label)
            # the member as built: its denominator positive on the range (and, with binomials, its numerator too, so
            # that every binomial is in the range where the Gamma form below is an identity)
            num0, den0 = (bp.apply(e) for e in sp.fraction(fam.member))
            regular = (den0 == 1 or _positive_value(den0)) and (
                not fam.member.has(sp.binomial, sp.factorial, sp.gamma) or _positive_value(num0))
            value = _gamma_form(bp.apply(fam.member))
            den = sp.fraction(value)[1]
            finite = st.ok and regular and (den == 1 or has_sign(sp.factor(den), "positive"))
            finite = finite and (not logged or has_sign(value, "positive"))
            below = finite and has_sign(sp.together(bp.apply(a) - value), "nonnegative")
            steps = steps + st + mechanical(below, f"{label}: the member is finite"
                                            + (" and positive (inside its logarithm)" if logged else "")
                                            + f" and at most {_m(a)} on the range" + ("" if below else " -- not shown"))
            ok &= below
        placed = []
        for j, point in witnesses:
            st, member = _witness(fams[j], point, param, f"{where}, family {j + 1}")
            steps = steps + st
            ok &= st.ok
            placed.append((j, None if member is None else _gamma_form(param.apply(member))))
        for a in targets:       # each argument of the right side is the value at one of the witnesses
            value = _gamma_form(param.apply(a))
            j = next((j for j, v in placed if v is not None and is_zero(v - value)), None)
            pos = not logged or has_sign(value, "positive")
            hit = j is not None and pos
            steps = steps + mechanical(hit, f"{where}: {_m(a)} is the member of family "
                                       + (f"{j + 1}" if j is not None else "?") + " at its witness"
                                       + (", and it is positive" if logged else "")
                                       + ("" if hit else " -- not shown"))
            ok &= hit
    what = ("some member is +oo at a point of its range: the supremum is +oo" if infinite else
            "every member is at most the right side on its range and each of its arguments is attained: the "
            "supremum is the right side")
    if logged:
        what += " (ln is increasing)"
    return steps + _conclusion(claim, ok, what if ok else "not shown")


def conclude_same_values(claim: Claim, maps: Sequence[Mapping]) -> Proof:
    """The claim ``sup_A = sup_B`` for two :class:`Supremum` sides: the two sets of values are equal.

    ``maps``: one entry per family of A, then one per family of B, a mapping with ``"to"`` (the index of a
    family of the other side), ``"point"`` (its variables as expressions of this family's variables and the
    claim's symbols) and ``"param"`` (a parametrization covering the claim's conditions and this family's
    range; with cases from min or max, a list of them, one per case).  Under it the image point must lie in the
    other family's range and the two members must be equal."""
    if claim.relation != "==":
        return _conclusion(claim, False, "the claim is not an identity")
    A, B = release(claim.lhs), release(claim.rhs)
    if not (isinstance(A, Supremum) and isinstance(B, Supremum)):
        return _conclusion(claim, False, "both sides must be suprema")
    sources = [("left", j, f, B) for j, f in enumerate(A.families)] + \
              [("right", j, f, A) for j, f in enumerate(B.families)]
    if len(maps) != len(sources):
        return _conclusion(claim, False, f"{len(sources)} maps are needed, one per family")
    splits = condition_cases(claim.conditions)
    if splits is None:
        return _conclusion(claim, False, "the claim's conditions hold a min or max that is not rewritten")
    steps = Proof()
    ok = True
    for (side, j, fam, other), given in zip(sources, maps):
        params = given.get("param")
        params = list(params) if isinstance(params, (list, tuple)) else [params]
        k = given.get("to")
        if len(params) != len(splits) or k is None or not 0 <= k < len(other.families):
            return steps + _conclusion(claim, False, f"{side} family {j + 1}: a target and one parametrization "
                                                     "per case are needed")
        target = other.families[k]
        point = {v: sp.sympify(e) for v, e in dict(given.get("point", {})).items()}
        for c, (case, param) in enumerate(zip(splits, params)):
            label = f"{side} family {j + 1}" + (f", case {c + 1}" if len(splits) > 1 else "")
            st = _family_range(claim, case, fam, param, label)
            wst, member = _witness(target, point, param, f"{label} into family {k + 1} of the other side")
            same = member is not None and is_zero(param.apply(fam.member - member))
            steps = steps + st + wst + mechanical(same, f"{label}: its member equals the other side's member there"
                                                  + ("" if same else " -- not shown"))
            ok &= st.ok and wst.ok and same
    return steps + _conclusion(claim, ok, "every value of each side is a value of the other: the suprema are equal"
                               if ok else "not shown")


# -- an integral over the line, split at breakpoints ----------------------------------------------------------------
def _as_one_sum(expr: sp.Expr) -> sp.Expr:
    """``expr``, a signed combination of finite sums over the same limits each times a factor free of the index, as
    one sum (linearity of finite sums); anything else unchanged."""
    terms = sp.Add.make_args(sp.expand(expr, deep=False))
    parts = []
    for term in terms:
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Sum)]
        if len(sums) != 1 or len(sums[0].limits) != 1:
            return expr
        rest = sp.Mul(*(f for f in sp.Mul.make_args(term) if f is not sums[0]))
        if sums[0].limits[0][0] in rest.free_symbols:
            return expr
        parts.append((rest, sums[0]))
    limits = parts[0][1].limits
    if any(s.limits != limits for _, s in parts):
        return expr
    return sp.Sum(sp.Add(*(c * s.function for c, s in parts)), *limits)


def _termwise_zero(expr: sp.Expr, param: Parametrization, conditions: tuple) -> tuple[bool, str]:
    """``expr`` (one finite sum, or an expression without sums) is 0 at every point of ``param``: the summand
    vanishes, the quantities indexed by the sum's index read as one term's values (:func:`term_symbol`), the
    conditions on them holding for every index.  Returns (ok, why)."""
    from .proofs import term_symbol
    expr = _as_one_sum(expr)
    reps = {}
    if isinstance(expr, sp.Sum):
        (k, lo, hi), = expr.limits
        reps = {ix: term_symbol(ix) for ix in expr.function.atoms(sp.Indexed) if ix.indices == (k,)}
        expr = expr.function.xreplace(reps)
        if k in expr.free_symbols:
            return False, "the index appears outside indexed quantities"
    elif expr.has(sp.Sum):
        return False, "not one finite sum over a common range"
    conds = tuple(sp.sympify(c).xreplace(reps) for c in conditions)
    chk = param.check(conds, set().union(*(c.free_symbols for c in conds), expr.free_symbols))
    if not chk.ok:
        return False, chk.steps[-1].text
    return is_zero(param.apply(expr)), ""


def _bounded_in(expr: sp.Expr, var: sp.Symbol) -> bool:
    """``expr`` is built from finite constants (free of ``var``), sums, products, powers with nonnegative integer
    exponents, exponentials, absolute values, max and min, and finite sums of such terms: it is continuous in
    ``var``, so bounded on a closed finite interval and its integral there is a finite number."""
    expr = sp.sympify(expr)
    if var not in expr.free_symbols:
        return True
    if isinstance(expr, (sp.Add, sp.Mul, sp.exp, sp.Abs, sp.Max, sp.Min, sp.sinh, sp.cosh)):
        return all(_bounded_in(a, var) for a in expr.args)
    if isinstance(expr, sp.Pow):
        ex = expr.exp
        return var not in ex.free_symbols and ex.is_integer is True and ex.is_nonnegative is True \
            and _bounded_in(expr.base, var)
    if isinstance(expr, sp.Sum):
        return all(var not in sp.Tuple(*lim[1:]).free_symbols for lim in expr.limits) and _bounded_in(expr.function,
                                                                                                       var)
    return expr == var


def _integrated(integral: sp.Integral) -> sp.Expr:
    """The integral evaluated: SymPy's heuristic methods first (quick for exponentials), all of them if those leave
    it unevaluated."""
    out = integral.doit(risch=False)
    return integral.doit() if out.has(sp.Integral) else out


def conclude_line_split(claim: Claim, var: sp.Symbol, breakpoints: Sequence, tails: Mapping,
                        signs: Sequence = ()) -> Proof:
    """An identity whose left side is an integral over the whole line, ``Integral(F, (var, -oo, oo))``.

    By additivity of the integral (cited) it is the sum of the integrals of F over the pieces cut at the
    ``breakpoints`` c_1 <= ... <= c_r (shown ordered under the claim's conditions).  ``tails`` maps the index of a
    piece (0 for (-oo, c_1), r for (c_r, oo), j for (c_j, c_{j+1})) to ``(H, G, param)``: on that piece the
    subexpression H of F equals G, which the engine checks on the open piece through ``param`` (a
    :class:`Parametrization` of ``var`` and of one term's indexed quantities covering the claim's conditions and the
    piece, ``var = c_1 - w`` or ``c_r + w`` with w > 0), H - G brought to one finite sum and its summand shown 0;
    H is then replaced by G in that piece's integrand.  Each expression of ``signs`` (a real quantity, such as a
    sum in G) is replaced by a new symbol of each sign in turn (its value >= 0, or < 0); in every case the
    integrals of the replaced pieces are evaluated and lhs - rhs, the other pieces kept as written, must
    vanish."""
    from .core import cite
    steps = Proof()
    lhs, rhs = release(claim.lhs), release(claim.rhs)
    if claim.relation != "==" or not (isinstance(lhs, sp.Integral) and lhs.limits == ((var, -sp.oo, sp.oo),)):
        return _conclusion(claim, False, "the left side is not an integral over the whole line of the variable")
    F = lhs.function
    cuts = [sp.sympify(c) for c in breakpoints]
    conditions = tuple(sp.sympify(c) for c in claim.conditions)
    from .proofs import _implied
    ordered = all(_implied(cuts[i + 1] - cuts[i], "nonnegative", conditions) or
                  has_sign(cuts[i + 1] - cuts[i], "nonnegative") for i in range(len(cuts) - 1))
    steps = steps + mechanical(ordered, "the breakpoints " + ", ".join(_m(c) for c in cuts) + " are ordered"
                               + ("" if ordered else " -- not shown"))
    ends = [-sp.oo] + cuts + [sp.oo]
    pieces = list(zip(ends[:-1], ends[1:]))
    steps = steps + cite("integral_additivity", "the integral over the line is the sum of the integrals over "
                         + ", ".join(f"({_m(a)}, {_m(c)})" for a, c in pieces))
    ok = ordered
    integrals, replaced = [], []
    for i, (a, c) in enumerate(pieces):
        G = F
        if i in tails:
            H, repl, param = tails[i]
            if not F.has(H):
                return steps + _conclusion(claim, False, f"piece {i + 1}: the integrand holds no {_m(H)}")
            inside = (sp.Gt(var, a) if a != -sp.oo else sp.true, sp.Lt(var, c) if c != sp.oo else sp.true)
            same, why = _termwise_zero(H - repl, param, conditions + tuple(x for x in inside if x is not sp.true))
            steps = steps + mechanical(same, f"on ({_m(a)}, {_m(c)}): {_m(H)} = {_m(repl)} (the summand of the "
                                       "difference vanishes on the piece)" + ("" if same else f" -- not shown {why}"))
            ok &= same
            G = F.xreplace({H: repl})
            replaced.append(i)
        integrals.append(sp.Integral(G, (var, a, c)))
    diff = sp.Add(*integrals) - rhs
    real = all(sp.sympify(s_expr).is_real is True for s_expr in signs)
    steps = steps + mechanical(real, "the quantities split by sign are real" + ("" if real else " -- not shown"))
    ok &= real
    symbols = [sp.Dummy(f"s{j}", real=True) for j in range(len(signs))]
    for choice in itertools.product((1, -1), repeat=len(signs)):
        sub = {}
        for s_expr, sym, sgn in zip(signs, symbols, choice):
            mag = sp.Dummy(sym.name, nonnegative=True) if sgn == 1 else sp.Dummy(sym.name, positive=True)
            sub[sp.sympify(s_expr)] = sgn * mag
        e = diff.xreplace(sub)
        e = e.replace(lambda x: isinstance(x, sp.Integral) and (x.limits[0][1] == -sp.oo or x.limits[0][2] == sp.oo)
                      and not x.function.has(sp.Sum), _integrated)
        # the pieces kept as written are compared as they stand: each integral left, over a finite interval of a
        # continuous integrand (a finite number), is one opaque value
        kept = {x: sp.Dummy("I", real=True) for x in e.atoms(sp.Integral)}
        finite = all(len(x.limits) == 1 and len(x.limits[0]) == 3 and all(v.is_finite is True for v in x.limits[0][1:])
                     and _bounded_in(x.function, x.limits[0][0]) for x in kept)
        zero_ = finite and is_zero(e.xreplace(kept))
        where = ", ".join(f"{_m(s)} {'>= 0' if g == 1 else '< 0'}" for s, g in zip(signs, choice)) or "every point"
        steps = steps + mechanical(zero_, f"case {where}: with the replaced pieces integrated, lhs - rhs is 0 (the "
                                          "integrals kept, of continuous integrands over finite intervals, as they "
                                          "stand)" + ("" if zero_ else " -- not shown"))
        ok &= zero_
    return steps + _conclusion(claim, ok, "the stated identity holds on every piece and in every case" if ok
                               else "not shown")
