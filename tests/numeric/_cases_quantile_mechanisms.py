"""Input-class cases for numeric.quantile_mechanisms (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one).  Data [1, 2, 3], q = 1/2: the
quantile is x_(2) = 2 and len = 1, 0, 1 on the grid [1, 2, 3]; with eps = 2 ln 2 the weights are
2^-len."""
from __future__ import annotations

import math

import numpy as np

import numeric as nm
from _input_classes import Case, Clash, Combo, Known, huge

E2 = 2 * math.log(2.0)        # weights 2^-len
E4 = 4 * math.log(2.0)        # exponential mechanism: weights 2^(2u), u = -|#{x < t} - q n|
INF = math.inf
_ISENS = dict(data=[1.0, 2.0, 3.0], grid=[1.0, 2.0, 3.0], epsilon=E2, rho=0, q=0.5)
_ISENS_KINDS = dict(data="real", grid="real", epsilon="real", rho="real", q="real", universe="real")

CASES = [
    Case(nm.inverse_sensitivity_pmf, _ISENS, dict(_ISENS_KINDS, log="bool"),
         special=dict(
             data=[[], [[1.0, 2.0]], huge(),
                   Known([2.0, 2.0, 2.0], [1 / 6, 2 / 3, 1 / 6], "len = 2, 0, 2: weights 1/4, 1, 1/4"),
                   Known([1e308, -1e308, 0.0], [1 / 3] * 3, "quantile 0: len = 1 at 1, 2 and 3")],
             grid=[[], [3.0, 2.0, 1.0], [1.0, 1.0, 2.0], [[1.0, 2.0, 3.0]], huge(),
                   Known([2.0], [1.0], "one point"),
                   Known([0.0, 2.0, 7.0], [1 / 6, 2 / 3, 1 / 6], "len(0) = 2 - #{x <= 0} = 2, "
                                                                  "len(7) = #{x < 7} - 1 = 2")],
             epsilon=[0.0, -1.0, Known(1e300, [0.0, 1.0, 0.0], "eps -> inf: the point mass on len = 0"),
                      Known(5e-324, [1 / 3] * 3, "eps -> 0: uniform"), [E2, E2]],
             rho=[-1.0, [0.0, 1.0], Known(INF, [1 / 3] * 3, "rho = inf: len^rho = min len = 0 everywhere"),
                  Known(1.0, [1 / 3] * 3, "the quantile 2 is within 1 of every grid point"),
                  Known(0.5, [0.25, 0.5, 0.25], "no other grid point within 1/2: len^rho = len")],
             q=[-0.1, 1.5, Known(1.0, [1 / 7, 2 / 7, 4 / 7], "the maximum 3: len = 2, 1, 0"),
                Known(0.0, [4 / 7, 2 / 7, 1 / 7], "r = max(1, 0) = 1, the minimum 1: len = 0, 1, 2"),
                Known(0.34, [0.25, 0.5, 0.25], "r = ceil(1.02) = 2: the median"),
                Known(0.9, [1 / 7, 2 / 7, 4 / 7], "r = ceil(2.7) = 3, the maximum")],
             universe=[Clash([1.0, 2.0]), [[1.0, 2.0, 3.0]], huge(),
                       Known([1.0, 2.0, 3.0], [0.25, 0.5, 0.25], "every grid point is a value of the universe"),
                       Known([7.0, 3.0, 2.0, 1.0], [0.25, 0.5, 0.25], "order and extra values do not matter")],
             log=[Known(True, [math.log(0.25), math.log(0.5), math.log(0.25)], "logs")]),
         combos=[Combo(dict(universe=[1.0, 2.0, 3.0], grid=[1.0, 1.5, 2.0, 3.0]), [0.25, 0.0, 0.5, 0.25],
                       "1.5 is no value of the universe: len = inf, probability 0"),
                 Combo(dict(universe=[1.0, 2.0, 3.0], grid=[1.0, 1.5, 2.0, 3.0], rho=0.5),
                       [1 / 6, 1 / 3, 1 / 3, 1 / 6], "len^rho = 1, 0, 0, 1: len(1.5) = inf, but 2 is "
                                                     "within 1/2 of it"),
                 Combo(dict(universe=[1.0, 2.0, 3.0], grid=[1.5, 2.5])),
                 Combo(dict(data=np.arange(10.0), grid=np.arange(10.0), q=0.9),
                       [2.0**-(8 - k) if k <= 8 else 0.5 for k in range(10)] / np.sum(
                           [2.0**-(8 - k) if k <= 8 else 0.5 for k in range(10)]),
                       "q = 0.9, n = 10: r = 9 (x_(9) = 8), len = 8 - t below it and 1 at 9")]),
    Case(nm.inverse_sensitivity_loss, dict(_ISENS, neighbour=[1.0, 2.0, 2.0]), dict(_ISENS_KINDS, neighbour="real"),
         special=dict(
             data=[[], huge(), Clash([1.0, 2.0])],
             neighbour=[[], huge(), Clash([1.0, 2.0]), [[1.0, 2.0, 2.0]],
                        Known([2.0, 2.0, 5.0], math.log(1.75), "P' = (1/7, 4/7, 2/7): ln(7/4) at t = 1")],
             grid=[[], [3.0, 2.0, 1.0], huge()],
             epsilon=[0.0, -1.0, Known(1e300, 5e299, "ln P = (-5e299, 0, -5e299), ln P' = (-5e299, 0, -1e300): "
                                                     "the normalisers round to 1")],
             rho=[-1.0, [0.0, 1.0]],
             q=[-0.1, 1.5],
             universe=[Clash([1.0, 2.0]), Known([1.0, 2.0, 3.0], math.log(1.75), "every grid point reachable")])),
    Case(nm.exponential_quantile_pmf, dict(data=[1.0, 2.0, 3.0], grid=[1.0, 2.0, 3.0], epsilon=E4, q=0.5),
         dict(data="real", grid="real", epsilon="real", q="real", log="bool"),
         special=dict(
             data=[[], [[1.0, 2.0]], huge(),
                   Known([5.0, 5.0, 5.0], [1 / 3] * 3, "#{x < t} = 0 everywhere: u = -1.5")],
             grid=[[], [2.0, 1.0], huge(), Known([0.5, 10.0], [0.5, 0.5], "#{x < t} = 0 and 3: u = -1.5 both")],
             epsilon=[0.0, -1.0, Known(1e300, [0.0, 0.5, 0.5], "eps -> inf: uniform on the best utility")],
             q=[-0.1, 1.5, Known(0.0, [16 / 21, 4 / 21, 1 / 21], "u = 0, -1, -2: weights 1, 1/4, 1/16"),
                Known(1.0, [1 / 21, 4 / 21, 16 / 21], "u = -3, -2, -1")],
             log=[Known(True, [math.log(1 / 9), math.log(4 / 9), math.log(4 / 9)], "logs")])),
    Case(nm.joint_exp_quantiles, dict(x=[0.1, 0.4, 0.45, 0.8], qs=[0.25, 0.5, 0.75], epsilon=2.0, a=0.0, b=1.0,
                                      rng=1),
         dict(x="real", qs="real", epsilon="real", a="real", b="real", rng="rng", size="count"),
         special=dict(
             x=[[], [[0.1, 0.4]], huge(), [1e308, -1e308], [5.0, 5.0, 5.0]],
             qs=[[], [0.0], [1.0], [0.5, 0.5], [0.7, 0.3], [[0.5]], huge()],
             epsilon=[0.0, -1.0, 1e300, 5e-324],
             a=[Clash(1.0), Clash(2.0), -1e308, Clash(-INF)],
             b=[Clash(0.0), Clash(-1.0), 1e308, 1e-300],
             size=[0, 10**15, 3])),
    Case(nm.unbounded_quantile, dict(x=[0.1, 0.5, 0.9], q=0.5, epsilon=1.0, rng=1),
         dict(x="real", q="real", epsilon="real", rng="rng", beta="real", lower="real", size="count"),
         special=dict(
             x=[[], [[0.1]], huge(), [1e300], [-5.0, -6.0]],
             q=[-0.1, 1.5, 0.0, 1.0],
             epsilon=[0.0, -1.0, 1e300, 1e-300],
             beta=[1.0, 0.5, 1.0 + 1e-17, 1.0 + 1e-15, 1e300],
             lower=[1e308, -1e308, 0.9],
             size=[0, 10**15, 4])),
    Case(nm.unbounded_quantile_pmf, dict(x=[0.0, 0.0, 5.0], q=0.5, epsilon=1.0, beta=2.0, num_queries=3),
         dict(x="real", q="real", epsilon="real", beta="real", lower="real", num_queries="count"),
         special=dict(
             x=[[], [[0.0]], huge(), [1e300]],
             q=[-0.1, 1.5],
             epsilon=[0.0, -1.0, 1e300],
             beta=[1.0, 0.5, 1.0 + 1e-17],
             lower=[-1e308, 1e308],
             num_queries=[2**40, Known(0, [1.0], "K = 0: the last entry is P(A >= 0) = 1")]),
         combos=[Combo(dict(num_queries=None, x=[5.0], q=0.0, epsilon=1.0, beta=2.0), None),
                 Combo(dict(epsilon=1e-300, x=[1e300], num_queries=None))]),
]
