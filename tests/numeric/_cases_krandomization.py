"""Input-class cases for numeric.krandomization (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one)."""
from __future__ import annotations

import math

import numeric as nm
from _input_classes import INF, NAN, Case, Clash, Known, huge

CASES = [
    Case(nm.rr_pmf, dict(x=[1, 0, 1], y=[1, 1, 1], q=0.25), dict(x="real", y="real", q="real", log="bool"),
         special=dict(
             x=[Known([1, 1, 1], 0.75**3, "no flip: p^3"), Known([0, 0, 0], 0.25**3, "three flips: q^3"),
                Known([[1, 0, 1], [1, 1, 1]], [0.75**2 * 0.25, 0.75**3], "two records"),
                [2, 0, 1], [0.5, 0, 1], Clash([1, 0]), huge(3)],
             y=[Known([0, 1, 0], 0.25**3, "the opposite vector: q^3"), [1, 1, INF], Clash([1, 1])],
             q=[0.0, 0.5, -0.1, NAN, [0.2, 0.3], Known(0.1, 0.9**2 * 0.1, "p^2 q")],
             log=[Known(True, math.log(0.75**2 * 0.25), "ln of p^2 q"), "yes"])),
    Case(nm.count_pmf, dict(n=2, m=1, q=0.25), dict(n="count", m="count", q="real", s="real", log="bool"),
         special=dict(
             n=[0, Known(1, [0.25, 0.75], "n = m = 1: Ber(p) reported, P[0] = q, P[1] = p"), 2.0, 10**12],
             m=[3, -1, Known(0, [0.5625, 0.375, 0.0625], "Bin(2, q): p^2, 2pq, q^2"),
                Known(2, [0.0625, 0.375, 0.5625], "Bin(2, p): q^2, 2pq, p^2")],
             q=[0.0, 0.5, 0.7, NAN, [0.2, 0.3]],
             s=[Known([0, 1, 2], [0.1875, 0.625, 0.1875], "(q + pz)(p + qz): qp, p^2 + q^2, pq"),
                Known(3, 0.0, "off the support"), Known(-1, 0.0, "off the support"), [0.5], huge()],
             log=[Known(True, [math.log(0.1875), math.log(0.625), math.log(0.1875)], "ln of the law"), "no"])),
    Case(nm.privacy_ratio, dict(s=0, m=0, n=3, q=0.2), dict(s="real", m="real", n="count", q="real", log="bool"),
         special=dict(
             s=[Known(3, 0.25, "s = n: q/p (kr.agg.loss_range_lower attained)"), 4, -1, 1.5,
                Known([0, 3], [4.0, 0.25], "both ends: p/q and q/p"), huge()],
             m=[Known(2, 4.0, "s = 0: p/q for every m (kr.agg.pure_epsilon)"), 3, -1, 0.5, Clash([0, 1])],
             n=[0, Known(1, 4.0, "one record: P[R(0) = 0]/P[R(1) = 0] = p/q"), 2.5],
             q=[0.0, 0.5, NAN, Known(0.25, 3.0, "p/q = 3")],
             log=[Known(True, math.log(4.0), "ln(p/q)"), 1])),
    Case(nm.count_quantile, dict(n=10, m=5, q=0.25, alpha=0.5),
         dict(n="count", m="count", q="real", alpha="real"),
         special=dict(
             alpha=[Known(1.0, 10, "alpha = 1: the top of the support, n"), 0.0, -0.5, 1.5, NAN,
                    Known([0.5, 1.0], [5, 10], "median 5 of the symmetric law (m = n/2), and n"), huge()],
             n=[0, 2.0],
             m=[11, -1],
             q=[0.0, 0.5, NAN])),
]
