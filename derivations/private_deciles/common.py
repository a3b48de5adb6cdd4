"""Shared sources and symbols of ``private-deciles`` (``001_1dd3d7af6edcb71d.txt``;
Canesse, internship report, ENS Lyon, 2022): AboveThreshold, the histogram method for private deciles and the inverse-sensitivity mechanism."""
from __future__ import annotations

import sympy as sp

DOC = "001_1dd3d7af6edcb71d.txt"

eps = sp.Symbol("epsilon", positive=True)            # privacy parameter
n = sp.Symbol("n", integer=True, positive=True)        # records in the database


def laplace_density(x, scale):
    """The density of Lap(scale) at x: e^{-|x|/scale} / (2 scale)."""
    return sp.exp(-sp.Abs(x) / scale) / (2 * scale)
