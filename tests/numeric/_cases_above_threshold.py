"""Input-class cases for numeric.above_threshold (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one)."""
from __future__ import annotations

import math

import numeric as nm
from _input_classes import Case, Clash, Combo, Known, huge

INF = math.inf

CASES = [
    Case(nm.above_threshold, dict(values=[0.0, 10.0], threshold=5.0, epsilon=1.0, rng=0, size=3),
         dict(values="real", threshold="real", epsilon="real", rng="rng", size="count", query_scale="real"),
         special=dict(
             values=[Known([], [-1, -1, -1], "no query: nothing fires"), [[0.0, 10.0]], 1.0, [0.0, 2.0**1001],
                     huge()],
             threshold=[2.0**1001],
             epsilon=[0.0, -1.0, 5e-324, Known(INF, [1, 1, 1], "no noise: the first value above 5 is 10")],
             size=[Known(0, [], "no run"), 2**62],
             query_scale=[0.0, -1.0, INF, 5e-324]),
         combos=[Combo(dict(epsilon=INF, size=None), 1, "no noise, one run: index 1"),
                 Combo(dict(values=[0.0, 1.0, 2.0], threshold=5.0, epsilon=INF), [-1, -1, -1], "no noise: none above 5")]),
    Case(nm.above_threshold_pmf, dict(values=[0.0, 1.0], threshold=0.0, epsilon=1.0),
         dict(values="real", threshold="real", epsilon="real", query_scale="real"),
         special=dict(
             values=[Known([], [1.0], "no query: P(A = -1) = 1"),
                     Known([0.0], [0.5, 0.5], "K = 1 at T: nu - tau is symmetric"), [[0.0, 1.0]], 2.0,
                     [0.0, 2.0**1001], huge()],
             threshold=[2.0**1001, 1e300,
                        Known(1e5, [0.0, 0.0, 1.0], "threshold 10^5 noise scales above both values: nothing fires "
                                                    "(P(A = k) < e^-40000 underflows)")],
             epsilon=[0.0, -1.0, 5e-324, Known(INF, [0.0, 1.0, 0.0], "no noise: the first value above 0 is 1")],
             query_scale=[0.0, -1.0, INF, 5e-324]),
         combos=[Combo(dict(values=[0.0, 0.0], epsilon=INF), [0.0, 0.0, 1.0], "no noise: 0 > 0 is false, -1")]),
    Case(nm.above_threshold_privacy_loss, dict(values=[0.0, 0.0], neighbour=[1.0, -1.0], threshold=0.0, epsilon=1.0),
         dict(values="real", neighbour="real", threshold="real", epsilon="real", query_scale="real"),
         special=dict(
             values=[Clash([0.0]), [[0.0, 0.0]], huge()],
             neighbour=[Known([0.0, 0.0], 0.0, "the same vectors: loss 0"), Clash([1.0, -1.0, 0.0]), huge()],
             threshold=[2.0**1001],
             epsilon=[0.0, -1.0, Known(INF, INF, "no noise: A = -1 against A' = 0")],
             query_scale=[0.0, -1.0, INF])),
    Case(nm.above_threshold_worst_case, dict(K=1, epsilon=1.0, population=4, starts=1, iterations=2),
         dict(K="count", epsilon="real", monotone="bool", query_scale="real", rng="rng", box="real",
              population="count", starts="count", iterations="count"),
         special=dict(
             K=[0, 11],
             epsilon=[0.0, -1.0],
             query_scale=[0.0, -1.0, INF],
             box=[0.0, -1.0, INF],
             population=[0, 2**20],
             starts=[0],
             iterations=[-1])),
]
