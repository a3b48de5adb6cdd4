"""Input-class cases for numeric.shuffle_rr (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one): one record (n = 1) compares
Ber(p) with Ber(q) directly; the pure epsilon is ln(p/q) (kr.agg.pure_epsilon)."""
from __future__ import annotations

import math

import numeric as nm
from _input_classes import INF, Case, Clash, Combo, Known, huge

Q = 0.2                       # p = 0.8, p/q = 4
EPS0 = math.log(4.0)

CASES = [
    Case(nm.aggregated_profile, dict(n=12, q=Q, epsilons=[0.0, 0.5, 2.0]),
         dict(n="count", q="real", epsilons="real", L="count", cpu_budget="real"),
         special=dict(
             n=[0, 10**13,
                Known(1, [0.6, 0.8 - 0.2 * math.exp(0.5), 0.0], "one record: max(0, p - e^eps q)")],
             q=[0.0, 0.5, -0.1, 0.7, huge(), [0.2, 0.3]],
             epsilons=[Known(INF, 0.0, "delta(inf) = 0"),
                       Known(EPS0, 0.0, "eps = ln(p/q): pure, delta = 0 (kr.agg.pure_epsilon)"),
                       Known(5.0, 0.0, "eps > ln(p/q): delta = 0"), -1e-300, -1.0, huge()],
             L=[0, 61, Clash(2), Known(1, None, "the default")],
             cpu_budget=[0.0, -1.0, [1.0], Known(None, None, "no budget"), Known(1e300, None, "a huge budget")]),
         combos=[Combo(dict(n=1, epsilons=[0.0, 1.0], L=2), [0.64 - 0.04, 0.64 - 0.04 * math.e + 0.0 * 0],
                       "one record of two bits, x = 00 against x' = 11 (the worst pair at eps <= ln 4): "
                       "sum_s max(0, P - e^eps P') = (p^2 - e^eps q^2) + 2 max(0, pq - e^eps pq)")]),
    Case(nm.aggregated_epsilon, dict(n=12, q=Q, delta=1e-3),
         dict(n="count", q="real", delta="real", L="count", rtol="real", cpu_budget="real"),
         special=dict(
             n=[0, 10**13, Known(1, math.log((0.8 - 1e-3) / 0.2), "one record: ln((p - delta)/q)")],
             q=[0.0, 0.5, -0.1, 0.7, huge(), [0.2, 0.3]],
             delta=[Known(0.0, EPS0, "delta = 0: the pure epsilon ln(p/q) (kr.agg.pure_epsilon)"),
                    Known(1.0, 0.0, "delta = 1: epsilon 0"), -0.1, 1.5, [1e-3], huge()],
             L=[0, 61, 2, Known(1, None, "the default")],
             rtol=[0.0, -1e-3, 1.0, [1e-3], Known(None, None, "the complete search"), 0.5],
             cpu_budget=[0.0, -1.0, [1.0], Known(None, None, "no budget")]),
         combos=[Combo(dict(delta=0.0, L=3), 3 * EPS0, "delta = 0: L ln(p/q) (kr.agg.pure_epsilon)")]),
    Case(nm.aggregated_search, dict(n=12, q=Q, epsilon=0.5),
         dict(n="count", q="real", epsilon="real", delta="real", max_evaluations="count", rtol="real",
              cpu_budget="real"),
         special=dict(
             n=[0, 10**13],
             max_evaluations=[0, 1, 5],
             rtol=[0.0, -1.0, 2.0, [0.1], 0.1],
             cpu_budget=[0.0, -1.0, [1.0], 1.0],
             q=[0.0, 0.5, -0.1, 0.7, [0.2, 0.3]],
             epsilon=[-1.0, [0.5], 5.0],
             delta=[Clash(1e-3), Clash(0.0), Clash(1.0)]),
         combos=[Combo(dict(epsilon=None, delta=1e-3)), Combo(dict(epsilon=None, delta=0.0)),
                 Combo(dict(epsilon=None, delta=2.0))]),
    Case(nm.fmt_clone_bound, dict(n=1000, eps0=1.0, delta=1e-6),
         dict(n="count", eps0="real", delta="real"),
         special=dict(
             n=[0, 10**13],
             eps0=[Known(0.0, 0.0, "eps0 = 0: nothing to amplify"), -1.0, [1.0], 1e300, 800.0],
             delta=[Known(0.0, 1.0, "delta = 0: eps0"), Known(1.0, 0.0, "delta = 1: 0"), -0.1, 1.1, [1e-6]]),
         combos=[Combo(dict(n=1, delta=0.1), math.log((1 / (1 + math.exp(-1.0)) - 0.1) * (1 + math.exp(1.0))),
                       "n = 1, no clones: P = Bern(a), Q = Bern(1 - a), a = e/(1+e): ln((a - delta)/(1 - a))")]),
]
