"""Input-class cases for numeric.private_deciles (merged into _input_classes.CASES).

Exact values are worked by hand or in exact fractions here (the reason is given with each one)."""
from __future__ import annotations

import math
from fractions import Fraction

import numeric as nm
from _input_classes import INF, Case, Clash, Combo, Known, huge


def _cdf(k, n, p):
    """P(Bin(n, p) <= k) in fractions."""
    return sum((math.comb(n, j) * p**j * (1 - p)**(n - j) for j in range(0, min(k, n) + 1)), Fraction(0))


# n = 10, i = 5: S_1 = P(Bin(10, 1/2 + g/2) <= 5), S_2 = P(Bin(10, 1/2 + g/2) <= 5) (1 - (1/2 - g/2))
_S_HALF = _cdf(5, 10, Fraction(1, 2))                                  # 638/1024
_S_G = _cdf(5, 10, Fraction(1, 2) + Fraction(1, 40))                   # gamma = 0.05
_ETA_PRINTED = [float(2 - _S_HALF + _S_HALF), float(2 - _S_G + _S_G)]  # 2 - S_1 + S_2, S_1 = S_2 here
_ETA_PROOF = [float(2 - 2 * _S_HALF), float(2 - 2 * _S_G)]
_ETA_INTENDED = [float(2 * _S_HALF), float(2 * _S_G)]
# the bound at beta = 0: alpha = inf, mu = 2, so 1 - 0 - eta - 2; gamma = 0.05
_BOUND_BETA0 = float(-1 - (2 - _S_G + _S_G))
# no noise, data 0.1, 0.5, 0.9, grid 0.25, 0.5, 0.75, 1: counts 1, 1, 2, 3 against T_d = 0.3 d
_NOISELESS = [0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 1.0, 1.0, 1.0]
_WHY_NOISELESS = "no noise: the first grid point with more than 0.3 d of the values 0.1, 0.5, 0.9 below it"

CASES = [
    Case(nm.histogram_deciles, dict(x=[0.1, 0.5, 0.9], epsilon=1.0, steps=4, a=0.0, b=1.0, rng=1),
         dict(x="real", epsilon="real", steps="count", a="real", b="real", rng="rng"),
         special=dict(
             x=[[], 0.5, huge(), [[0.1, 0.5, 0.9]], [-INF, 0.5, INF], [[0.1, 0.5], [0.9]]],
             epsilon=[0.0, -1.0, Known(INF, _NOISELESS, _WHY_NOISELESS), 5e-324, 1e308, [1.0, 2.0]],
             steps=[0, 10**5, Known(1, [1.0] * 9, "one grid point, b: every output is b")],
             a=[Clash(1.0), Clash(2.0), -1e308],
             b=[Clash(0.0), Clash(-1.0), 1e308]),
         combos=[Combo(dict(epsilon=INF, x=[0.1, 0.5, 0.9]), _NOISELESS, _WHY_NOISELESS),
                 Combo(dict(epsilon=INF, x=[5.0, 6.0]), [1.0] * 9, "no count ever exceeds T_d > 0: output -1, b"),
                 Combo(dict(a=-1e308, b=1e308))]),
    Case(nm.decile_accuracy, dict(n=20, i=5, gamma=[0.05, 0.2], epsilon=1.0, steps=10, distribution="uniform"),
         dict(n="count", i="index", gamma="real", epsilon="real", steps="count", distribution="noise",
              a="real", b="real"),
         special=dict(
             n=[10**6],
             i=[0, 10],
             gamma=[-0.1, Known(INF, 1.0, "the whole line holds every estimate"), huge(), [[0.05], [0.2]]],
             epsilon=[0.0, -1.0, 5e-324, 1e308, INF, [1.0, 2.0]],
             steps=[0, 10**5],
             distribution=["Uniform", "cauchy"],
             a=[Clash(1.0), Clash(2.0), -1e308],
             b=[Clash(0.0), 1e308]),
         combos=[Combo(dict(n=1, steps=2, epsilon=INF, gamma=0.25), 0.5,
                       "no noise, one value X, grid 0.5, 1: A_5 = 0.5 iff X < 0.5"),
                 Combo(dict(n=1, steps=1, gamma=0.0, i=9, epsilon=2.0), 0.0,
                       "the only grid point is 1, not within 0 of 0.9"),
                 Combo(dict(b=0.5, gamma=0.1, i=9), 0.0, "every grid point is at most 0.5, the interval [0.8, 1]")]),
    Case(nm.empirical_decile_prob, dict(n=10, i=5, gamma=[0.0, 0.01, 0.1], distribution="uniform"),
         dict(n="count", i="index", gamma="real", distribution="noise"),
         special=dict(
             n=[Known(1, [0.0, 0.01, 0.1], "one uniform value in an interval of length gamma"), 2**60],
             i=[0, 10],
             gamma=[-0.5, Known(INF, 1.0, "the whole line"), Known(0.0, 0.0, "a point"), huge()],
             distribution=["Normal", "normal"])),
    Case(nm.interval_counts_prob, dict(n=10, i=5, gamma=0.1, alpha=[0.0, 1.0, 2.0], distribution="uniform"),
         dict(n="count", i="index", gamma="real", alpha="real", distribution="noise"),
         special=dict(
             n=[Known(1, [1.0, 0.0, 0.0], "one value cannot lie in both intervals"), 10**10],
             i=[0, 10],
             gamma=[-0.1, Known(0.0, [1.0, 0.0, 0.0], "the intervals are points"), INF, huge()],
             alpha=[Known(-5.0, 1.0, "at least -5 values: always"), Known(INF, 0.0, "infinitely many: never"),
                    Known(11.0, 0.0, "more than n values"), huge(), [[1.0]]])),
    Case(nm.printed_uniform_eta, dict(n=10, i=5, gamma=[0.0, 0.05]),
         dict(n="count", i="index", gamma="real", reading="noise"),
         special=dict(
             n=[Known(1, [2.0, 2.0], "S_1 = S_2 = P(Bin(1, .) <= 0): 2 - S_1 + S_2 = 2"), 2**60],
             i=[0, 10],
             gamma=[-0.01, 0.2, INF, huge()],
             reading=[Known("printed", _ETA_PRINTED, "2 - S_1 + S_2 (fractions)"),
                      Known("proof", _ETA_PROOF, "2 - S_1 - S_2 (fractions)"),
                      Known("intended", _ETA_INTENDED, "S_1 + S_2 (fractions)"), "as printed"])),
    Case(nm.printed_uniform_mu, dict(n=10, gamma=[0.0, 0.1], alpha=2.5),
         dict(n="count", gamma="real", alpha="real"),
         special=dict(
             n=[2**60],
             gamma=[-0.01, 0.2, huge(), Known(0.0, 2.0, "gamma = 0: 2 P(Bin(n, 0) <= alpha) = 2")],
             alpha=[Known(-1.0, [0.0, 0.0], "empty sum"), Known(INF, [2.0, 2.0], "the whole law, twice"),
                    Known(0.0, [2.0, 2 * 0.95**10], "the k = 0 term: 2 (1 - gamma/2)^n"), huge(),
                    Clash([1.0, 2.0, 3.0])])),
    Case(nm.printed_uniform_bound, dict(n=10, i=5, gamma=0.05, epsilon=1.0, steps=10, beta=[0.1, 0.5]),
         dict(n="count", i="index", gamma="real", epsilon="real", steps="count", beta="real", reading="noise"),
         special=dict(
             n=[2**60],
             i=[0, 10],
             gamma=[-0.01, 0.2, Clash(huge())],
             epsilon=[0.0, -1.0, Clash([1.0, 2.0, 3.0]), Clash(huge())],
             steps=[0, 2**60],
             beta=[-0.1, 1.5, Known(0.0, _BOUND_BETA0, "alpha = inf, mu = 2: -1 - eta"), huge()],
             reading=["as printed"])),
    Case(nm.printed_normal_eta, dict(n=10, i=5, gamma=[0.0, 0.3]),
         dict(n="count", i="index", gamma="real", reading="noise"),
         special=dict(
             n=[2**60],
             i=[0, 10],
             gamma=[-0.01, huge(), INF],
             reading=[Known("proof", [float(2 - 2 * _S_HALF)] * 2, "2 - 2 * 638/1024, gamma plays no part"),
                      Known("printed", [2.0, 2.0], "2 - S_1 + S_2 with S_1 = S_2"), "Printed"])),
    Case(nm.printed_normal_mu, dict(n=10, i=5, gamma=[0.0, 0.2], alpha=1.0),
         dict(n="count", i="index", gamma="real", alpha="real"),
         special=dict(
             n=[2**60],
             i=[0, 10],
             gamma=[-0.01, huge(), Known(0.0, 2.0, "empty intervals: 1 + 1")],
             alpha=[Known(-1.0, [0.0, 0.0], "empty sums"), Known(INF, [2.0, 2.0], "the whole laws"), huge(),
                    Clash([1.0, 2.0, 3.0])])),
    Case(nm.printed_normal_bound, dict(n=10, i=5, gamma=0.1, epsilon=1.0, steps=10, beta=[0.1, 0.5]),
         dict(n="count", i="index", gamma="real", epsilon="real", steps="count", beta="real", reading="noise"),
         special=dict(
             n=[2**60],
             i=[0, 10],
             gamma=[-0.01, Clash(huge())],
             epsilon=[0.0, -1.0, Clash([1.0, 2.0, 3.0])],
             steps=[0, 2**60],
             beta=[-0.1, 1.5, huge()],
             reading=["as printed"])),
]
