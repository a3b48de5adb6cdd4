"""Shared symbols and sources of ``k-randomization`` (``003_6dfa2dbc38b4b249.txt``;
Zhilyaev and Zeber, K-Randomization, 2016)."""
from __future__ import annotations

import sympy as sp

DOC = "003_6dfa2dbc38b4b249.txt"

q = sp.Symbol("q", positive=True)            # lie probability, 0 < q < 1/2 (Section 2.1)
p = sp.Symbol("p", positive=True)            # truth probability p = 1 - q
n = sp.Symbol("n", integer=True, positive=True)   # records in the collection
m = sp.Symbol("m", integer=True, nonnegative=True)  # records equal to 1 (L = 1, Section 3.1)
s = sp.Symbol("s", integer=True, nonnegative=True)  # reported count of 1s
L = sp.Symbol("L", integer=True, positive=True)     # bits per record
