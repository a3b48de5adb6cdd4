"""Result 10: the Horvitz-Thompson estimate conditional on the selection of one unit.

Source: ``000_3f4b38deb4c4e7bd.txt``, Section 2.4, Result 10 and its proof.

For a unit i with p_i not in {0, 1}, with I_j = 1{j in S},

    p_{j|i} = p_ij/p_i,            p_{j|-i} = (p_j - p_ij)/(1 - p_i),
    p_{jl|i} = p_ijl/p_i,          p_{jl|-i} = (p_jl - p_ijl)/(1 - p_i),
    t_{-i|i}(x) = sum_{j != i} x_j p_{j|i}/p_j,   t_{-i|-i}(x) = sum_{j != i} x_j p_{j|-i}/p_j,
    s2_{-i|i}(x) = sum_{j,l != i} x_j x_l/(p_j p_l) (p_{jl|i} - p_{j|i} p_{l|i})   (likewise |-i),

    E[t(X,S) | i in S, X = x]  = t_{-i|i}(x) + x_i/p_i,   Var[t(X,S) | i in S, X = x]  = s2_{-i|i}(x),
    E[t(X,S) | i not in S, X = x] = t_{-i|-i}(x),        Var[t(X,S) | i not in S, X = x] = s2_{-i|-i}(x),

with p_{jj|i} = p_{j|i} (p_ijj = p_ij).  Proved symbolically for every design on three and four
units (all 2^N sample probabilities free symbols, p(empty set) fixed by normalisation), and checked
exactly on designs with unequal inclusion probabilities.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, register, zero
from .results import DESIGNS, unequal
from .designs import inclusion

R10 = Source("000_3f4b38deb4c4e7bd.txt", "Section 2.4, Result 10 and its proof")


def generic_design(N: int):
    """All 2^N samples of {0..N-1} with symbolic probabilities; p(empty) = 1 - the others."""
    samples = [frozenset(s) for r in range(N + 1) for s in itertools.combinations(range(N), r)]
    syms = {s: sp.Symbol("p_{" + "".join(str(j + 1) for j in sorted(s)) + "}", positive=True) for s in samples if s}
    probs = dict(syms)
    probs[frozenset()] = 1 - sum(syms.values())
    return samples, probs


def joint(probs, units) -> sp.Expr:
    """P(every unit of ``units`` is in S)."""
    return sum((p for s, p in probs.items() if set(units) <= s), sp.Integer(0))


def conditional_forms(probs, x, i: int, N: int):
    """Result 10's four closed forms, from the design's inclusion probabilities."""
    p = [joint(probs, (j,)) for j in range(N)]
    others = [j for j in range(N) if j != i]

    def pj_in(j):
        return joint(probs, (i, j)) / p[i]

    def pj_out(j):
        return (p[j] - joint(probs, (i, j))) / (1 - p[i])

    def pjl_in(j, l):
        return joint(probs, {i, j, l}) / p[i]

    def pjl_out(j, l):
        return (joint(probs, {j, l}) - joint(probs, {i, j, l})) / (1 - p[i])

    mean_in = sum(x[j] * pj_in(j) / p[j] for j in others) + x[i] / p[i]
    mean_out = sum(x[j] * pj_out(j) / p[j] for j in others)
    var_in = sum(x[j] * x[l] / (p[j] * p[l]) * (pjl_in(j, l) - pj_in(j) * pj_in(l)) for j in others for l in others)
    var_out = sum(x[j] * x[l] / (p[j] * p[l]) * (pjl_out(j, l) - pj_out(j) * pj_out(l))
                  for j in others for l in others)
    return mean_in, var_in, mean_out, var_out


def conditional_moments(samples, probs, x, i: int, N: int):
    """E and Var of t(x, S) given i in S and given i not in S, from the definition."""
    p = [joint(probs, (j,)) for j in range(N)]
    out = []
    for inside in (True, False):
        group = [s for s in samples if (i in s) == inside]
        mass = sum(probs[s] for s in group)
        t = {s: sum((x[j] / p[j] for j in s), sp.Integer(0)) for s in group}
        mean = sum(probs[s] * t[s] for s in group) / mass
        out += [mean, sum(probs[s] * (t[s] - mean) ** 2 for s in group) / mass]
    return out[0], out[1], out[2], out[3]


WHAT = ("E[t | i in S]", "Var[t | i in S]", "E[t | i not in S]", "Var[t | i not in S]")


def _prove_mean(k: int) -> Proof:
    steps = []
    for N in (3, 4):
        samples, probs = generic_design(N)
        x = sp.symbols(f"x_1:{N + 1}", real=True)
        lhs = conditional_moments(samples, probs, x, 0, N)[k]
        rhs = conditional_forms(probs, x, 0, N)[k]
        ok = sp.cancel(sp.together(lhs - rhs)) == 0
        steps.append(Proof(ok, (f"{WHAT[k]}, every design on {N} units (2^{N} - 1 free sample probabilities; "
                                f"unit 1, the others by relabelling): {'equal' if ok else 'not shown equal'}",)))
    return all_of(*steps)


def _prove_variance(k: int) -> Proof:
    """Var = sum over samples of the conditional mass times (t - mean)^2, a quadratic form in x.

    Step 1: for every sample s of the group, t(x, s) - mean = sum_{j != i} (x_j/p_j)(1{j in s} - A_j) with
    A_j = p_{j|i} (resp. p_{j|-i}) and the mean in closed form (proved equal to the definition by the mean
    claims): the x_i/p_i term is common to the group (or absent).  Step 2: the
    coefficient of x_j x_l/(p_j p_l) is then sum_s w(s)(1_j - A_j)(1_l - A_l) = p_{jl|.} - A_j A_l, a
    polynomial identity after clearing the group mass.
    """
    inside = k == 1
    steps = []
    for N in (3, 4):
        samples, probs = generic_design(N)
        x = sp.symbols(f"x_1:{N + 1}", real=True)
        i, others = 0, range(1, N)
        p = [joint(probs, (j,)) for j in range(N)]
        group = [s for s in samples if (i in s) == inside]
        mass = p[i] if inside else 1 - p[i]
        A = {j: (joint(probs, (i, j)) if inside else p[j] - joint(probs, (i, j))) / mass for j in others}
        mean = conditional_forms(probs, x, i, N)[0 if inside else 2]      # = the definition (mean claims)
        ok1 = all(sp.expand(sum((x[j] / p[j] for j in s), sp.Integer(0)) - mean
                            - sum(x[j] / p[j] * ((1 if j in s else 0) - A[j]) for j in others)) == 0
                  for s in group)
        ok2 = True
        for j in others:
            for l in others:
                pjl = (joint(probs, {i, j, l}) if inside else joint(probs, {j, l}) - joint(probs, {i, j, l})) / mass
                lhs = sum(probs[s] / mass * ((1 if j in s else 0) - A[j]) * ((1 if l in s else 0) - A[l])
                          for s in group)
                ok2 = ok2 and sp.cancel(sp.together(lhs - (pjl - A[j] * A[l]))) == 0
        steps.append(Proof(ok1 and ok2, (f"{WHAT[k]}, every design on {N} units, unit 1: centring "
                                         f"{'holds' if ok1 else 'fails'}, coefficients of x_j x_l "
                                         f"{'equal' if ok2 else 'differ'}",)))
    return all_of(*steps)


def _prove(k: int) -> Proof:
    return _prove_mean(k) if k in (0, 2) else _prove_variance(k)


def _designs():
    yield "unequal 5 samples of 2 from 4", unequal(), (-1, 0, 2)
    for name, design, grid in DESIGNS:
        if not name.startswith("census"):
            yield name, design, grid[:3]


def _enum(k: int) -> Enumeration:
    count = 0
    for name, design, grid in _designs():
        pi = inclusion(design)
        N = len(pi)
        probs = {s: sp.Rational(p.numerator, p.denominator) for p, s in design}
        samples = list(probs)
        for i in range(N):
            if pi[i] in (0, 1):
                continue
            for x in itertools.product(grid, repeat=N):
                count += 1
                xs = [sp.Integer(v) for v in x]
                lhs = conditional_moments(samples, probs, xs, i, N)[k]
                rhs = conditional_forms(probs, xs, i, N)[k]
                if lhs != rhs:
                    return Enumeration(False, count, f"{WHAT[k]}: {lhs} != {rhs}",
                                       {"design": name, "x": str(x), "i": str(i)})
    return Enumeration(True, count, "exact rationals over every sample; designs with unequal inclusion "
                                    "probabilities (unequal 5-of-2, Poisson, take-all unit) and SRS")


_syms = [sp.Symbol(s) for s in (r"E[\hat t|i\in S]", r"\mathrm{Var}[\hat t|i\in S]",
                                r"E[\hat t|i\notin S]", r"\mathrm{Var}[\hat t|i\notin S]")]
x_i, p_i = sp.Symbol("x_i", real=True), sp.Symbol("p_i", positive=True)
_rhs = [sp.Symbol(r"t_{-i|i}(x)") + x_i / p_i, sp.Symbol(r"\sigma^2_{-i|i}(x)"),
        sp.Symbol(r"t_{-i|-i}(x)"), sp.Symbol(r"\sigma^2_{-i|-i}(x)")]
_ids = ("mean_in", "var_in", "mean_out", "var_out")
_notes = ("The proof's remark 'car p_ii = 1' is read as p_{i|i} = 1 (p_ii = p_i).",
          "The OCR of the statement shows '= 0'; the proof's last line gives sigma^2_{-i|i}(x), verified here. The "
          "sum runs over j, l != i including j = l, with p_{jj|i} = p_{j|i}.",
          "",
          "Same reading as for i in S; Cov[I_j, I_l | I_i = 0] = p_{jl|-i} - p_{j|-i} p_{l|-i}.")
for _k in range(4):
    register(Claim(
        id=f"htm.r10.{_ids[_k]}", title=f"Result 10: {WHAT[_k]} in closed form", source=R10, kind="identity",
        lhs=_syms[_k], rhs=_rhs[_k], proof=(lambda k=_k: _prove(k)), enumeration=(lambda k=_k: _enum(k)),
        note=_notes[_k], budget=120.0))


def _prove_free_of_xi() -> Proof:
    samples, probs = generic_design(4)
    x = sp.symbols("x_1:5", real=True)
    forms = conditional_forms(probs, x, 0, 4)
    parts = (forms[0] - x[0] / joint(probs, (0,)), forms[1], forms[2], forms[3])
    return all_of(*(zero(sp.diff(e, x[0]), f"d/dx_i of {name}") for e, name in
                    zip(parts, ("t_{-i|i}", "sigma^2_{-i|i}", "t_{-i|-i}", "sigma^2_{-i|-i}"))))


register(Claim(
    id="htm.r10.free_of_x_i",
    title="Result 10's remark: t_{-i|i}, t_{-i|-i}, sigma^2_{-i|i}, sigma^2_{-i|-i} do not depend on x_i",
    source=R10, kind="identity", lhs=sp.Derivative(sp.Symbol(r"t_{-i|i}(x)"), x_i), rhs=0,
    proof=_prove_free_of_xi, note="Every design on 4 units, unit 1; the other three quantities likewise."))
