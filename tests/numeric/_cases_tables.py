"""Input-class cases for the stratified, Poisson and bounded-value designs of numeric.profile and for
numeric.tables (merged into _input_classes.CASES).

Exact values are worked by hand (the reason is given with each one)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

import numeric as nm
from _input_classes import INF, Case, Clash, Known, huge

# one census stratum (n = N): the Laplace mechanism with sensitivity 1, b = 1/(eps - 2 ln(1 - delta))
_CELLS = pd.DataFrame({"cell": ["A"], "stratum": [1], "N": [4], "n": [4]})
_CENSUS_B = "census: b = 1/(eps - 2 ln(1 - delta)) (the Laplace mechanism, sensitivity 1)"
_SCALES = pd.DataFrame({"cell": ["A"], "b": [0.0], "noise": ["laplace"]})

CASES = [
    Case(nm.Stratified, dict(strata=[nm.SRS(6, 2), nm.Bernoulli(4, 0.5)]), dict(strata="design"),
         special=dict(strata=[[], [nm.SRS(6, 2), nm.BinaryDomain(6)], (nm.SRS(6, 2), 3)])),
    Case(nm.Poisson, dict(pi=[0.2, 0.5, 1.0]), dict(pi="real"),
         special=dict(pi=[[0.0, 0.5], [0.5, 1.5], [-0.1], [], 0.5, [[0.5, 0.5]], huge(), huge(2**20)])),
    Case(nm.IntervalDomain, dict(a=0.0, b=10.0), dict(a="real", b="real"),
         special=dict(a=[Clash(10.0), Clash(11.0), huge()], b=[Clash(0.0), Clash(-1.0), huge()])),
    Case(nm.calibrate_table, dict(cells=_CELLS, epsilon=0.5, delta=0.1),
         dict(cells="design", epsilon="real", delta="real", noise="noise", split="count", rtol="tolerance"),
         special=dict(cells=[_CELLS.drop(columns="n"), _CELLS.assign(n=5), _CELLS.assign(N=INF),
                             _CELLS.assign(lower=1.0, upper=1.0), _CELLS.iloc[:0], _CELLS.assign(extra=1)],
                      epsilon=[-1.0, [0.5, 1.0]], delta=[0.0, 1.0, -0.5, [1e-3, 1e-2]], split=["none", 0])),
    Case(nm.release_table, dict(scales=_SCALES, estimates={"A": 5.0}, simulate=True, rng=np.random.default_rng(0)),
         dict(scales="design", estimates="real", simulate="bool", rng="rng"),
         special=dict(scales=[_SCALES.drop(columns="b")], estimates=[{"B": 1.0}, {"A": INF}, {"A": math.nan}],
                      simulate=[Known(True, None, "")])),
]
