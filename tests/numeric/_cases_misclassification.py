"""Input-class cases for numeric.misclassification (merged into _input_classes.CASES).

Exact values are worked by hand: an all-zero row is ignored (epsilon 0), a row mixing a zero and a
positive entry gives epsilon inf; released_count_pmf is 0 off the support (a total other than n, a
count in a row of zeros); for uniform v the invariant PRAM matrix is P^2 (diagonal theta^2 +
(1 - theta)^2/2, off-diagonal theta (1 - theta) + (1 - theta)^2/4 for k = 3)."""
import numpy as np

import numeric as nm
from _input_classes import Case, Clash, Known, INF, NAN, huge

_P = np.array([[0.8, 0.2], [0.2, 0.8]])
_THIRD = 1 / 3
_M3 = np.array([[_THIRD, _THIRD, 0.0], [_THIRD, _THIRD, 0.0], [_THIRD, _THIRD, 1.0]])
_M3_ZERO_ROW = np.array([[0.5, 0.0, 0.0], [0.5, 1.0, 1.0], [0.0, 0.0, 0.0]])


def _p2(t):
    return [[t * t + (1 - t) ** 2 / 2 if i == j else t * (1 - t) + (1 - t) ** 2 / 4 for j in range(3)]
            for i in range(3)]


CASES = [
    Case(nm.misclassification_epsilon, dict(M=_P), dict(M="real"),
         special=dict(M=[Known([[1.0, 1.0], [0.0, 0.0]], 0.0, "an all-zero row (never released) is ignored"),
                         Known(np.eye(2), INF, "each row mixes 1 and 0"),
                         Known([[0.5, 0.5], [0.5, 0.5]], 0.0, "equal columns: every ratio is 1"),
                         Known(np.stack([_P, np.eye(2)]), [np.log(4.0), INF], "stack: ln(0.8/0.2), inf"),
                         [[0.5, 0.5], [0.6, 0.5]], [[-0.1, 0.0], [1.1, 1.0]], [[1.0, INF], [0.0, 0.0]],
                         [[]], [1.0, 0.0], huge(2**16, 2**15), [[2.0]], [[1.0, 1.0], [NAN, 0.0]]])),
    Case(nm.released_count_pmf, dict(f_tilde=[1, 1, 0], f=[0, 2, 0], M=_M3),
         dict(f_tilde="real", f="real", M="real"),
         special=dict(
             f_tilde=[Known([2, 2, 0], 0.0, "total 4 differs from n = 2"),
                      Known([[1, 1, 0], [0, 0, 2]], [2 / 9, 1 / 9], "2 (1/3)^2 and (1/3)^2"),
                      [-1, 3, 0], [1.5, 0.5, 0.0], [1e300, 0, 0], Clash([1, 1]), Clash([[1, 1]]), huge()],
             f=[[1e6, 1e6, 0], [2.5, 0, 0], [-1, 3, 0], Clash([2, 0]), huge(), [[0, 2, 0]]],
             M=[[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]], Clash(np.eye(2)),
                Known(_M3_ZERO_ROW, 0.0, "category 1 always goes to row 1: f~ = (0, 2, 0) surely"),
                huge(2**16, 2**15), -_M3])),
    Case(nm.pram_certificate, dict(M=_M3, n=2, sampling_prob=0.5, f=[0, 2, 0]),
         dict(M="real", n="count", sampling_prob="real", f="real"),
         special=dict(M=[np.eye(3), _M3_ZERO_ROW, Clash(np.eye(2)), huge(2**16, 2**15), [[0.5, 0.5, 0.5]],
                         np.full((3, 3), _THIRD)],
                      n=[0, Clash(3), Clash(10**18)],
                      sampling_prob=[1.5, -0.1, 0.0, 1.0, [0.5], 5e-324],
                      f=[Clash([1, 1]), [0, 0, 0], [0.5, 1.5, 0], [1e300, 0, 0], Clash([1000, 0, 0]), huge(),
                         Clash([1, 1, 0, 0])])),
    Case(nm.invariant_pram_matrix, dict(retention=[0.5, 0.9], v=[0.2, 0.3, 0.5]),
         dict(retention="real", v="real"),
         special=dict(retention=[-0.1, 1.5, Known(1.0, np.eye(3), "theta = 1: P = I, Q = I, M = I"), huge(),
                                 0.0],
                      v=[[1.0], [0.0, 0.0, 0.0], [-0.1, 0.5, 0.6], [[0.2, 0.8]], huge(),
                         Known([1, 1, 1], [_p2(0.5), _p2(0.9)], "uniform v: M = P^2 (by hand)"),
                         [0.0, 0.5, 0.5]])),
]
