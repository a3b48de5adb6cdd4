"""Input-class cases for numeric.loglinear (merged into _input_classes.CASES).

Exact values worked by hand: the 2 x 2 table f = (1, 3, 2, 6) (row-major) is exactly independent
(row totals 4, 8, column totals 3, 9, n = 12: 4*3/12 = 1, 4*9/12 = 3, 8*3/12 = 2, 8*9/12 = 6), so
the main-effects fit reproduces it, mu_hat = f, and with pi = 1/2, lam_hat = 2 f.  Its only sample
unique is cell 0 with lam_hat = 2: tau_1 = e^{-2 (1 - 1/2)} = e^{-1}, tau_2 = (1 - e^{-1})/1.
"""
import math

import numpy as np

import numeric as nm
from numeric.loglinear import fit_loglinear

from _input_classes import INF, Case, Clash, Combo, Known, huge

_Z = [[1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]     # intercept, row, column
_F = [1, 3, 2, 6]
_FIT = fit_loglinear(_F, _Z, 0.5)
_UNCONVERGED = fit_loglinear([10, 20, 30, 41], _Z, 0.5, max_iter=1)     # one Newton step: not converged
_E1 = math.exp(-1.0)
_TAU_BASE = dict(counts=[1, 1, 2, 0], lam=[0.0, 2.0, 5.0, 1.0], pi=0.5)
# tau_1 of the base: e^0 + e^{-2/2} (cells 0 and 1 are the sample uniques); tau_2: 1 + (1 - e^{-1})
_NO_UNIQUE = "no cell has f = 1: an empty sum"
_CENSUS = "pi = 1 (census): F = f = 1, each sample unique contributes 1"


def _tau_cases(fn, all_ones, lam_zero, base_value, fit_value):
    return [
        Case(fn, _TAU_BASE, dict(counts="integer", lam="real", pi="real"),
             special=dict(
                 counts=[Known([0, 0, 2, 0], 0.0, _NO_UNIQUE), Known(0, 0.0, _NO_UNIQUE),
                         Known([1, 1, 1, 1], all_ones, "every cell a sample unique (lam = 0, 2, 5, 1, pi = 1/2)"),
                         [1, 1.5, 2, 0], [1, -1, 2, 0], [1, 1, 2, 2.0**60], Clash([1, 1]), [[1, 1, 2, 0]] * 2,
                         Clash(huge()), np.array([1, 1, 2, 2**62], dtype=np.int64)],
                 lam=[Known(INF, 0.0, "lam = inf: both terms are 0 (the limit)"),
                      Known(0.0, 2.0, "lam = 0: mu = 0, each sample unique contributes 1"),
                      Known([0.0, 2.0, INF, -0.0], base_value, "cells with f != 1 do not count"),
                      [0.0, -1.0, 5.0, 1.0], Clash([1.0, 2.0]), Clash(huge())],
                 pi=[Known(1.0, 2.0, _CENSUS), 0.0, -0.5, 1.5, Clash([0.5, 0.5]), Clash(huge()),
                     Known([0.5, 0.5, 1e-300, 5e-324], base_value, "cells with f != 1 do not count")]),
             combos=[Combo(dict(counts=1, lam=INF, pi=1.0), 1.0, _CENSUS + ", for every lam"),
                     Combo(dict(counts=huge(), lam=1.0)), Combo(dict(lam=huge(), counts=1)),
                     Combo(dict(pi=huge(), counts=1, lam=1.0)),
                     Combo(dict(counts=[1, 1], lam=[0.0, 0.0], pi=[0.25, 1.0]), 2.0, "mu = 0 in both cells"),
                     Combo(dict(lam=[0.0, 2.0, 5.0, 1.0], pi=[0.5, 0.5, 0.5, 0.5]), base_value, "the base")]),
        # the same function called with a fit: any other object is refused naming fit ("design" values:
        # None, strings, numbers, tuples, an opaque object, a domain)
        Case(fn, dict(fit=_FIT), dict(fit="design"),
             special=dict(fit=[_UNCONVERGED, Known(_FIT, fit_value, "module docstring: the exact 2 x 2 fit"),
                               [1, 1, 2, 0]])),
    ]


CASES = [
    Case(nm.fit_loglinear, dict(counts=_F, design_matrix=_Z, pi=0.5),
         dict(counts="integer", design_matrix="real", pi="real", tol="tolerance", max_iter="count"),
         special=dict(
             counts=[[1, 3, 2.5, 6], [1, -3, 2, 6], [0, 0, 2, 6],           # a zero row margin: no MLE
                     [0, 0, 0, 0], [0, 3, 0, 6],                           # all zero; a zero column margin
                     [1, 3, 2, 2.0**53 + 2], np.array([1, 3, 2, 2**62], dtype=np.int64), [1, 3, 2, INF],
                     Clash([1, 3, 2]), Clash([1, 3, 2, 6, 1]), [[1, 3, 2, 6]], [], huge(),
                     np.array([1, 3, 2, 6], dtype=np.uint8), [2.0**52, 1.0, 1.0, 3.0], [0, 3, 2, 6]],
             design_matrix=[[[1, 0, 0], [1, 0, 0], [1, 1, 1], [1, 1, 1]],     # column 2 = column 1
                            [[1, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 0]],     # a zero column
                            [[1, 0, 2], [1, 0, 2], [1, 1, 2], [1, 1, 2]],     # column 2 = 2 * intercept
                            np.array(_Z) * 1e300, np.array(_Z) * 5e-324 + np.eye(4, 3),
                            [[1e-300, 0, 0], [1, 1e-300, 1], [1, 1, 1e-300], [1, 1, 1]],
                            [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, INF]], [[1, 0, 0], [1, 0, 1]],
                            Clash(np.ones((5, 3))), [1.0, 2.0, 3.0, 4.0], np.ones((4, 5)), np.ones((4, 0)),
                            huge(2**31, 3), huge(4, 2**29), [[1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1e300]]],
             pi=[0.0, -0.5, 1.5, 1.0, 5e-324, 1e-300, [0.5, 0.5, 1e-300, 1.0], [0.5, 0.5, 0.0, 1.0],
                 Clash([0.5, 0.5]), huge(), [[0.5] * 4]],
             max_iter=[1, 2, 10**9]),
         combos=[Combo(dict(counts=[0, 0, 0, 0], design_matrix=[[1.0], [-1.0], [2.0], [-2.0]])),
                 Combo(dict(counts=[2**53, 2**53, 2**53, 2**53], pi=5e-324)),
                 Combo(dict(counts=[1, 0, 0, 0], design_matrix=np.eye(4), pi=1e-300))]),
]
CASES += _tau_cases(nm.tau1, 1.0 + _E1 + math.exp(-2.5) + math.exp(-0.5), 2.0, 1.0 + _E1, _E1)
CASES += _tau_cases(nm.tau2, 1.0 + (1 - _E1) + (1 - math.exp(-2.5)) / 2.5 + (1 - math.exp(-0.5)) / 0.5, 2.0,
                    1.0 + (1 - _E1), 1 - _E1)
