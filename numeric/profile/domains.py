"""Domains of the privacy profile: the values a population may take.

:class:`BinaryDomain` (0/1 values, the population total in a range), :class:`FiniteDomain` (each
value in a finite set) and :class:`IntervalDomain` (each value in [a, b]).  Neighbouring populations
of a domain differ at one unit.

Source: ``ht-mechanism`` (000), Section 1.4 (neighbouring x, x' differ at one unit) and Section 2.3
(binary data, total in [m_t, M_t]).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._common import as_float, provenance, require, scalar
from ..srs_binary import _N_MAX, _range, _scalar_integer

_MAX_VALUES = 1_000_000    # values of a FiniteDomain (its pairs are enumerated: far fewer are usable)


@provenance("htm.delta.event_form", "htm.r8.density")
@dataclass(frozen=True, init=False)
class BinaryDomain:
    """x in {0, 1}^N with population total in [m_t, M_t] (default: every total).

    Source: ht-mechanism (000), Section 2.3 (binary data, total in [m_t, M_t])."""

    N: int
    m_t: int
    M_t: int
    kind = "binary"

    def __init__(self, N, m_t=0, M_t=None):
        N = _scalar_integer("N", N, 1, _N_MAX, f"an integer in [1, {_N_MAX}]")
        m_t, M_t = _range(N, m_t, N if M_t is None else M_t)
        object.__setattr__(self, "N", N)
        object.__setattr__(self, "m_t", m_t)
        object.__setattr__(self, "M_t", M_t)

    def neighbour_values(self, x, i):
        t = sum(x) - x[i] + (1 - x[i])
        return (1.0 - x[i],) if self.m_t <= t <= self.M_t else ()


@provenance("htm.delta.event_form")
@dataclass(frozen=True, init=False)
class FiniteDomain:
    """Each unit's value in a finite set (e.g. a grid on [m, M]); no constraint on the total.

    Source: ht-mechanism (000), Section 1.4 (neighbouring x, x' differ at one unit)."""

    values: tuple
    kind = "finite"

    def __init__(self, values):
        require(not isinstance(values, np.ndarray) or values.size <= _MAX_VALUES, "values",
                f"at most {_MAX_VALUES} numbers (a domain is enumerated pair by pair)")
        v = as_float("values", values)
        require(v.ndim == 1 and np.all(np.isfinite(v)), "values", "a one-dimensional sequence of finite numbers")
        v = np.unique(v)
        require(v.size >= 2, "values", "at least two distinct numbers (else no neighbouring populations)")
        object.__setattr__(self, "values", tuple(float(a) for a in v))

    def neighbour_values(self, x, i):
        return tuple(v for v in self.values if v != x[i])


@provenance("htm.bounded.sensitivity", "htm.bounded.binary_pair")
@dataclass(frozen=True, init=False)
class IntervalDomain:
    """Every unit's value in the interval [a, b] (a bounded continuous variable: turnover, income),
    no constraint on the total.

    Source: ht-mechanism (000), Section 1.4 (neighbouring x, x' differ at one unit); claims
    htm.bounded.sensitivity (the generic route: an upper value) and htm.bounded.binary_pair (the
    values {a, b}: a lower value).

    >>> IntervalDomain(0, 250.0).width
    250.0
    """

    a: float
    b: float
    kind = "interval"

    def __init__(self, a, b):
        a = scalar("a", a)
        b = scalar("b", b)
        require(a < b, "b", f"> a (an interval with two distinct ends; a = {a!r})")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def width(self) -> float:
        return self.b - self.a


__all__ = ["BinaryDomain", "FiniteDomain", "IntervalDomain"]
