"""Input-class cases for numeric.sampling (merged into _input_classes.CASES).

Exact values are worked by hand or in exact fractions (the reason is given with each one)."""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numeric as nm
from _input_classes import INF, Case, Clash, Combo, Known, huge

# f = (1, 0, 2) from F = (2, 1, 3): C(2,1) C(1,0) C(3,2) = 6 tables out of C(6,3) = 20 samples
_SRS_BIG = float(Fraction(comb(2**51, 1) * 1 * comb(3, 2), comb(2**51 + 4, 3)))
# k = 2, eps = delta = 1/3: (2/eps) ln(2k/delta) = 6 ln 12; k = 2^16: 6 ln(393216) = 77.29...
_T = [6 * math.log(12), 6 * math.log(6 * 2**16)]

CASES = [
    Case(nm.count_pmf_srs, dict(f=[1, 0, 2], F=[2, 1, 3]),
         dict(f="count", F="count", log="bool"),
         special=dict(
             f=[Known([2, 1, 3], 1.0, "f = F: the census, C(N, N) = 1"),
                Known([3, 0, 0], 0.0, "f_1 = 3 > F_1 = 2: impossible"),
                Known([0, 0, 0], 1.0, "n = 0: the empty sample, probability 1"),
                Known([1.0, 0.0, 2.0], 0.3, "integer-valued floats: 6/20"),
                Known([[1, 0, 2], [0, 1, 0]], [0.3, 1 / 6], "two tables: 6/20 and C(1,1)/C(6,1)"),
                [1.5, 0, 2], 2**60, huge(2**28, 3), Clash([1, 0]), Clash([[1, 0, 2, 0]])],
             F=[Known([1, 0, 2], 1.0, "f = F"), Known([0, 0, 0], 0.0, "f_j > F_j = 0"),
                Known([2**51, 1, 3], _SRS_BIG, "C(2^51, 1) C(3, 2) / C(2^51 + 4, 3), exact fractions"),
                2**52, [2, 1, 3.5], huge(2**28, 3), Clash([2, 1]), Clash([[2, 1, 3, 4]])],
             log=[True]),
         combos=[Combo(dict(f=[0, 0], F=[0, 0]), 1.0, "empty population, empty sample"),
                 Combo(dict(f=1, F=5), 1.0, "one cell: f = n, C(5, 1)/C(5, 1)"),
                 Combo(dict(f=3, F=2)), Combo(dict(f=2**53, F=2**53)),
                 Combo(dict(f=[], F=[]))]),
    Case(nm.count_pmf_bernoulli, dict(f=[1, 0, 2], F=[2, 1, 3], p=0.5),
         dict(f="count", F="count", p="real", log="bool"),
         special=dict(
             f=[Known([0, 0, 0], 0.5**6, "(1 - p)^6"), Known([3, 0, 0], 0.0, "f_1 > F_1"),
                Known([2, 1, 3], 0.5**6, "p^6"), 2.5, huge(2**28, 3), Clash([1, 0])],
             F=[Known([1, 0, 2], 0.5**3, "f = F: p^3"), Known(0, 0.0, "f_j > F_j = 0"), huge(2**28, 3), Clash([2, 1])],
             p=[Known(0.0, 0.0, "p = 0: only f = 0 is possible"), Known(1.0, 0.0, "p = 1: only f = F"),
                Known(5e-324, 0.0, "6 p^3 (1 - p)^3 underflows"),
                Known([0.5, 0.25], [6 / 64, 6 * 0.25**3 * 0.75**3], "one p per table: 6 p^3 (1 - p)^3"),
                Known([[0.5], [0.25]], [[6 / 64], [6 * 0.25**3 * 0.75**3]], "an array of tables"),
                -0.1, 1.5, huge()],
             log=[True]),
         combos=[Combo(dict(p=1.0, f=[2, 1, 3]), 1.0, "p = 1: f = F with probability 1"),
                 Combo(dict(p=0.0, f=[0, 0, 0]), 1.0, "p = 0: f = 0 with probability 1"),
                 Combo(dict(p=0.0, f=[0, 0, 0], log=True), 0.0, "ln 1")]),
    Case(nm.chaudhuri_mishra_threshold, dict(k=[2, 2**16], epsilon=1 / 3, delta=1 / 3),
         dict(k="integer", epsilon="real", delta="real"),
         special=dict(
             k=[0, 1.5, Known(1, 6 * math.log(6), "(2/eps) ln(2/delta) = 6 ln 6"),
                Known(1e300, 6 * (math.log(6) + 300 * math.log(10)), "6 ln(6e300): 2k overflows, the log does not"),
                huge(2**30, 2), Clash([1, 2, 3])],
             epsilon=[0.0, -1.0, Known(INF, [0.0, 0.0], "2/inf = 0"),
                      Known(5e-324, INF, "2/eps beyond the float range"), Known(2.0, [math.log(12), _T[1] / 6],
                                                                                  "ln(2k/delta)"),
                      Clash([1.0, 2.0, 3.0]), huge()],
             delta=[0.0, 1.0, -0.1, 1.5, Known(1e-300, [6 * (math.log(4) + 300 * math.log(10)),
                                                        6 * (math.log(2**17) + 300 * math.log(10))],
                                                "6 ln(2k 10^300)"),
                    Clash([0.1, 0.2, 0.3]), huge()]),
         combos=[Combo(dict(k=2**16, epsilon=1 / 3, delta=1 / 3), _T[1], "the paper's 77.3: 6 ln(393216)")]),
    Case(nm.expected_unique_proportion, dict(N=[4, 10], n=2, n_keys=1, p_key=0.5, population_counts=None),
         dict(N="integer", n="integer", n_keys="count", p_key="real", model="noise", m="count",
              population_counts="count"),
         special=dict(
             N=[0, Clash(1), 2.5, 2**60, huge(2**30, 2), Clash([4, 10, 12]),
                Known(2, 1.0, "n = N: every sample unique is a population unique")],
             n=[0, Clash(11), 1.5, Known([4, 10], 1.0, "n = N"), Clash([2, 2, 2]), huge(),
                Known(1, [0.125, 2.0**-9], "two cells of 1/2: 2^(n - N)")],
             n_keys=[0, 2**40, Known(3, [(7 / 8)**2, (7 / 8)**8], "eight cells of 1/8: (7/8)^(N - n)")],
             p_key=[0.0, 1.0, -0.1, 1.5, Clash([0.1, 0.2, 0.3]), huge(),
                    Known(5e-324, [0.5, 0.5], "cells 1 - p and p: (p (1-p)^(N-1) + (1-p) p^(N-1)) / (2 p (1-p)) "
                                              "= 1/2 to double precision")],
             model=[Clash("conditional"),
                    Known("poisson", [math.exp(-1.0), math.exp(-4.0)], "Poisson: e^{-(N - n)/2}")],
             m=[0, 3, Known(2, [0.25, 2.0**-8], "m = 2: (1/2)^(N-2) / (1/2)^(n-2)")],
             population_counts=[[1, 1, 2, 0], Clash([1, 1])]),
         combos=[Combo(dict(model="conditional", population_counts=[1, 1, 2, 0], N=4, n=2), 0.6,
                       "2 C(3,1)/C(4,2) over (3 + 3 + 2 C(2,1) + 0)/C(4,2) = 6/10"),
                 Combo(dict(model="conditional", population_counts=[2, 2], N=4, n=2), 0.0, "no population unique"),
                 Combo(dict(model="conditional", population_counts=[[1, 3], [0, 0]], N=4, n=[2, 3]), [0.5, 1.0],
                       "F = (1, 3, 0, 0): n = 2: (3/6) / (3/6 + C(3,1) C(1,1)/C(4,2)); n = 3: (3/4) / (3/4 + 0)"),
                 Combo(dict(model="conditional", population_counts=[4], N=4, n=2)),
                 Combo(dict(model="conditional", population_counts=[1, 1], N=4, n=2)),
                 Combo(dict(model="conditional", population_counts=huge(), N=4, n=2)),
                 Combo(dict(model="poisson", m=2), [math.exp(-1.0), math.exp(-4.0)], "e^{-(N - n)/2}")]),
    Case(nm.simulate_sample_uniques, dict(N=60, n=10, n_keys=3, p_key=0.3, reps=20, rng=1),
         dict(N="count", n="count", n_keys="count", p_key="real", reps="count", rng="rng", progress="bool"),
         special=dict(N=[0, Clash(5), 2**40], n=[0, Clash(61), 60, 1], n_keys=[0, 63, 62],
                      p_key=[-0.1, 1.5, 0.0, 1.0, 5e-324, [0.3, 0.3]], reps=[1, 0, 2**50], progress=[True])),
]
