"""The supremum of delta over neighbouring populations for an explicit design (every sample listed).

For each population vector x of the domain the Horvitz-Thompson atoms t(x, s) = sum_{i in s}
x_i / pi_i are computed sample by sample; every ordered pair (x, x') differing at one unit is
evaluated exactly (:mod:`numeric.profile.kernels`): all Laplace pairs at once, padded to a common number of
atoms; Gaussian pairs one by one (Rolle isolation of the zeros).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ...ht_mechanism import ht_atoms
from ..kernels import (LD, U_D, U_LD, gaussian_delta_general, laplace_delta_general, perturbation_bound,
                       round_up)

MAX_PAIRS = 200_000


def population_vectors(domain, N: int):
    """Every x of the domain (binary with the total in range, or every vector of the value set)."""
    if domain.kind == "binary":
        for x in itertools.product((0.0, 1.0), repeat=N):
            if domain.m_t <= sum(x) <= domain.M_t:
                yield x
    else:
        yield from itertools.product(domain.values, repeat=N)


def count_pairs(domain, N: int) -> int:
    if domain.kind == "binary":
        return sum(math.comb(N, k) * ((N - k) * (k + 1 <= domain.M_t) + k * (k - 1 >= domain.m_t))
                   for k in range(domain.m_t, domain.M_t + 1))
    V = len(domain.values)
    return V**N * N * (V - 1)


def pairs(domain, N: int):
    """Every ordered neighbouring pair (x, x', i) of the domain."""
    for x in population_vectors(domain, N):
        for i in range(N):
            for v in domain.neighbour_values(x, i):
                yield x, x[:i] + (v,) + x[i + 1:], i


def deltas(samples, probs, domain, N, eps: float, b: float, noise: str):
    """(delta, x, x', i) for every ordered neighbouring pair of the domain."""
    found = list(pairs(domain, N))
    cache: dict = {}

    def atoms(x):
        if x not in cache:
            cache[x] = ht_atoms(samples, probs, x)[0]
        return cache[x]

    c = np.exp(LD(min(eps, 1000.0)))    # e^1000 exceeds every ratio of the listed probabilities: delta only grows
    A = np.array([np.concatenate([atoms(x), atoms(xp)]) for x, xp, _ in found])
    Wt = np.concatenate([np.asarray(probs, dtype=LD), -c * np.asarray(probs, dtype=LD)])
    order = np.argsort(A, axis=1, kind="stable")
    A = np.take_along_axis(A, order, axis=1)
    Wm = Wt[order]
    if noise == "laplace":
        d = laplace_delta_general(A, Wm, b)
    else:
        d = np.array([gaussian_delta_general(a, w, b) for a, w in zip(A, Wm)], dtype=LD)
    return round_up(d, error_bound(samples, probs, domain, N, b, noise, A.shape[1])), found


def error_bound(samples, probs, domain, N: int, b: float, noise: str, K: int) -> float:
    """Bound of the absolute error of a pair's delta (``perturbation_bound`` of eta).  Here eta collects the probabilities of the samples (their products in double:
    (N + 2) u), the kernels displaced by the rounding of the Horvitz-Thompson atoms (a sum of at most
    N terms x_i/pi_i: |error| <= (N + 2) u N max|x|/min pi; a Laplace kernel moved by e changes by a
    factor within e^{+-e/b}, a Gaussian one within 40 sigma by e^{+-41 e/sigma}) and the recursions
    ((4K + 32) u in long double)."""
    pi = np.zeros(N)
    for s, p in zip(samples, probs):
        pi[list(s)] += p
    vmax = 1.0 if domain.kind == "binary" else max(abs(v) for v in domain.values)
    shift = (N + 2) * U_D * N * vmax / pi.min()
    if b > 0:
        move = math.expm1(shift / b) if noise == "laplace" else math.expm1(41 * shift / b)
    else:
        move = 0.0
    return perturbation_bound((N + 2) * U_D + move + (4 * K + 32) * U_LD)
