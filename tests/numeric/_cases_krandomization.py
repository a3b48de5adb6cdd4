"""Input-class cases for numeric.krandomization (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one)."""
from __future__ import annotations

import math

import numeric as nm
from _input_classes import Case, Clash, Combo, Known, huge

CASES = [
    Case(nm.rr_pmf, dict(x=[1, 0, 1], y=[1, 1, 1], q=0.25),
         dict(x="real", y="real", q="real", log="bool"),
         special=dict(
             x=[Known([1, 1, 1], 27 / 64, "y = x: p^3"), Known([0, 0, 0], 1 / 64, "the opposite: q^3"),
                Known([[1, 0, 1], [0, 1, 0]], [9 / 64, 3 / 64], "two records: p^2 q and p q^2"),
                [2, 0, 1], [0.5, 0, 1], -1, 1, Clash([1, 0]), huge(2**29, 3)],
             y=[Known([1, 0, 1], 27 / 64, "y = x"), [1, 1, 3], Clash([1, 1, 1, 1]), huge(2**29, 3)],
             q=[0.0, -0.1, 0.6, 1.0, 5e-324, Known(0.5, 0.125, "fair coin: 2^-3"), [0.25, 0.25], huge()],
             log=[Known(True, math.log(9 / 64), "ln(p^2 q)")])),
    Case(nm.count_pmf, dict(n=2, m=1, q=0.25, s=[0, 1, 2]),
         dict(n="count", m="count", q="real", s="real", log="bool"),
         special=dict(
             n=[Known(1, [0.25, 0.75, 0.0], "m = 1 of one record: Bin(1, p) at 0, 1 (q, p) and s = 2 outside"),
                Clash(0), 2**51, 10**9],
             m=[Known(0, [9 / 16, 6 / 16, 1 / 16], "Bin(2, q)"), Known(2, [1 / 16, 6 / 16, 9 / 16], "Bin(2, p)"), 3],
             q=[0.0, -0.1, 0.6, 1.0, Known(0.5, [0.25, 0.5, 0.25], "fair coin: Bin(2, 1/2)"), [0.25], huge(),
                Known(5e-324, [5e-324, 1.0, 5e-324], "q p = 3.7e-324 rounds to the least subnormal; p^2 + q^2 to 1")],
             s=[Known(None, [0.1875, 0.625, 0.1875], "the whole law: q p, p^2 + q^2, p q"),
                Known(-1, 0.0, "outside the support"), Known(3, 0.0, "outside the support"),
                Known([[0], [2]], [[0.1875], [0.1875]], "shape kept"), 1.5, huge(2**29, 3)],
             log=[Known(True, [math.log(0.1875), math.log(0.625), math.log(0.1875)], "logs of the law")]),
         combos=[Combo(dict(n=0, m=0, s=None), [1.0], "no record: A = 0"),
                 Combo(dict(n=0, m=0, s=[0, 1]), [1.0, 0.0], "no record: A = 0"),
                 Combo(dict(n=10**9, m=10, s=None)), Combo(dict(n=10**9, m=5 * 10**8, s=[0])),
                 Combo(dict(s=[]), [], "no points")]),
    Case(nm.privacy_ratio, dict(s=[0, 1, 2], m=0, n=2, q=0.25),
         dict(s="real", m="count", n="count", q="real", log="bool"),
         special=dict(
             s=[Known(0, 3.0, "s = 0: p/q"), Known(2, 1 / 3, "s = n: q/p"),
                Known(1, (2 * 0.25 * 0.75) / (0.75**2 + 0.25**2), "2 q p / (p^2 + q^2)"),
                -1, 3, 1.5, huge(2**29, 3)],
             m=[Known(1, [3.0, 5 / 3, 1 / 3], "(p^2 + q^2) / (2 p q) = 5/3 at s = 1"), 2],
             n=[0, Clash(1), 2**51],
             q=[0.0, 0.6, Known(0.5, [1.0, 1.0, 1.0], "fair coin: ratio 1"), [0.25], huge()],
             log=[Known(True, [math.log(3.0), math.log(0.6), -math.log(3.0)], "logs")]),
         combos=[Combo(dict(n=1, m=0, s=[0, 1]), [3.0, 1 / 3], "one record: p/q and q/p")]),
    Case(nm.count_quantile, dict(n=2, m=1, q=0.25, alpha=[0.1, 0.5, 0.9]),
         dict(n="count", m="count", q="real", alpha="real"),
         special=dict(
             n=[Clash(0), 2**51, Known(1, [0, 1, 1], "Bin(1, p): F(0) = 1/4")],
             m=[3, Known(0, [0, 0, 1], "Bin(2, q): F(0) = 9/16, F(1) = 15/16")],
             q=[0.0, 0.6, [0.25], huge()],
             alpha=[0.0, -0.1, 1.5, Known(1.0, 2, "alpha = 1: n"), Known(0.2, 1, "F(0) = 3/16 < 0.2"),
                    Known(0.18, 0, "F(0) = 3/16 >= 0.18"), huge()]),
         combos=[Combo(dict(n=0, m=0, alpha=0.5), 0, "no record: A = 0")]),
]
