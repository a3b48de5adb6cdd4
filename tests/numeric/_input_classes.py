"""Input classes for the fail-safe property tests of the numeric layer (``test_robustness.py``).

One :class:`Case` per public function: a valid baseline call, the kind of every parameter (which
selects the generic bad values of that kind: NaN, +-inf, strings, None, complex, booleans where
numbers are expected, ragged lists...) and, per parameter, further values outside the domain, on
its boundary, mismatched in shape with the baseline, or too large to allocate (read-only
``np.broadcast_to`` views: 16 GiB as float64, costing nothing until a function copies them).

A value may be wrapped:

* :class:`Known` carries the exact result the call must return (with the reason, which is never
  the code under test: a limit worked by hand, a closed form, exact fractions);
* :class:`Clash` marks a value that conflicts with another parameter of the baseline (a length
  that differs from a companion array): the error may then name either parameter, as long as its
  message names the changed one;
* :class:`Combo` changes several parameters at once (a large N *and* a large M_t).

Every call must end in one of two ways: a ``ValueError``/``TypeError`` naming the parameter (for
``ParameterError``, ``.param`` is that parameter), or a result without NaN that equals the
:class:`Known` value where one is given.  To cover a new function, add a :class:`Case` to
``CASES``; the tests pick it up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np

import numeric as nm

INF, NAN = math.inf, math.nan
HUGE = 2**31  # elements: 16 GiB as float64


def huge(*shape, value=1.0):
    """A read-only view of ``shape`` (default (2^31,)) filled with ``value``: no memory of its own."""
    return np.broadcast_to(np.asarray(value), shape or (HUGE,))


@dataclass(frozen=True)
class Known:
    """A value with the exact result the call must return, and where that result comes from."""
    value: Any
    expected: Any
    why: str


@dataclass(frozen=True)
class Clash:
    """A value whose shape or length conflicts with another (baseline) parameter."""
    value: Any


@dataclass(frozen=True)
class Combo:
    """Several parameters changed together, with an optional exact result."""
    changes: dict
    expected: Any = None
    why: str = ""


class _Opaque:
    """An object numpy can only store as dtype=object."""

    def __repr__(self):
        return "<opaque>"


#: Generic bad values by kind of parameter.
GENERIC = {
    "real": [NAN, INF, -INF, "1.0", None, 1 + 2j, True, np.array([True, False]), [1.0, [2.0]], _Opaque(),
             np.array(["a"]), np.float64(NAN), [1.0, None]],
    "integer": [NAN, INF, -INF, "3", None, 1 + 2j, True, np.bool_(False), 2.5, [1, [2]], _Opaque(), -1],
    "bool": ["False", "no", "True", 1, 0, 0.0, None, NAN, [True], np.array([True])],
    "count": [2.5, True, -1, "3", None, NAN, INF, 1e3, 1 + 0j, np.int64(-5), [3]],
    "index": [2.5, True, -1, "1", None, NAN, 10**6, np.int64(-2), [1]],
    "rng": [-1, "seed", 1.5, None, True, np.int64(-3), [1, 2], NAN],
    "design": [None, "srs", 6, (6, 2), _Opaque(), nm.BinaryDomain(6)],
    "domain": [None, "binary", 6, [0.0, 1.0], _Opaque(), nm.SRS(6, 2)],
    "noise": ["Laplace", "normal", "", None, 1, ["laplace"]],
    "tolerance": [0.0, -1e-9, NAN, INF, 1.0, "1e-9", None, True, [1e-9], 1e-300],
    "samples": [None, 3, "ab", [(0, 1.5)], [(0, 0)], [(0, -1)], [(0, 10**6)], [(0, True)], [(0, "1")], [0, 1],
                [(0, 1), None], huge(HUGE, 2, value=0)],
}


@dataclass(repr=False)
class Case:
    """A public function, a valid baseline call, the kind of each parameter and its special values."""
    fn: Callable
    base: dict
    kinds: dict
    special: dict = field(default_factory=dict)
    combos: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.fn.__name__

    def __repr__(self) -> str:
        return f"Case({self.name})"

    def pool(self, param: str) -> list:
        """Every bad value of ``param``: the generic ones of its kind, then its special ones."""
        return list(GENERIC[self.kinds[param]]) + list(self.special.get(param, []))


# -- reference values worked independently of the code under test ------------------------------------------
def _census_factor_var(b: Fraction) -> float:
    """Var(c e^X) = b^2 (2 + b^2)/((1 - 2b)(1 + 2b)) of A.3, in exact fractions (b rational)."""
    return float(b * b * (2 + b * b) / ((1 - 2 * b) * (1 + 2 * b)))


# Result 6: right of every atom the ratio is sum p e^{t/b} / sum p e^{t'/b}, left of every atom the same
# with -t; atoms [0, 3] and [0.5, 2], p = (0.4, 0.6), b = 1 (closed forms, evaluated in math).
RATIO_RIGHT = (0.4 + 0.6 * math.exp(3.0)) / (0.4 * math.exp(0.5) + 0.6 * math.exp(2.0))
RATIO_LEFT = (0.4 + 0.6 * math.exp(-3.0)) / (0.4 * math.exp(-0.5) + 0.6 * math.exp(-2.0))

_SRS_PIJ = np.full((3, 3), 1 / 3)
np.fill_diagonal(_SRS_PIJ, 2 / 3)
_ZEROS3 = np.zeros((3, 3))

CASES = [
    Case(nm.laplace_pdf, dict(x=[-1.0, 0.0, 2.0], b=1.5, mu=0.0),
         dict(x="real", b="real", mu="real"),
         special=dict(
             x=[Known(INF, 0.0, "e^{-inf} = 0"), Known(-INF, 0.0, "e^{-inf} = 0"), huge(), Clash([0.0, 1.0])],
             b=[0.0, -1.0, INF, 5e-324, Clash([1.0, 2.0]), huge()],
             mu=[Known(INF, [0.0] * 3, "limit mu -> inf at finite x"), Known(-INF, [0.0] * 3, "limit mu -> -inf"),
                 Clash([0.0, 1.0]), huge(), 1e308])),
    Case(nm.laplace_cdf, dict(x=[-1.0, 0.0, 2.0], b=1.5, mu=0.0),
         dict(x="real", b="real", mu="real"),
         special=dict(
             x=[Known(INF, 1.0, "F(+inf) = 1"), Known(-INF, 0.0, "F(-inf) = 0"), huge(), Clash([0.0, 1.0])],
             b=[0.0, -1.0, INF, 5e-324, Clash([1.0, 2.0])],
             mu=[Known(INF, [0.0] * 3, "F(x) -> 0 as mu -> inf"), Known(-INF, [1.0] * 3, "F(x) -> 1 as mu -> -inf"),
                 Clash([0.0, 1.0]), huge()])),
    Case(nm.laplace_mgf, dict(a=[-1.0, 0.0, 1.0], b=0.5, mu=0.0),
         dict(a="real", b="real", mu="real"),
         special=dict(
             a=[Known(INF, INF, "|ab| >= 1: the integral diverges"), Known(-INF, INF, "|ab| >= 1"),
                Known(0.0, 1.0, "E[e^{0 X}] = 1"), Known(2.0, INF, "|ab| = 1: diverges (erratum)"), huge(),
                Clash([0.0, 1.0])],
             b=[0.0, -1.0, INF, Known(5e-324, [1.0, 1.0, 1.0], "1/((1 - ab)(1 + ab)) = 1 to double precision"),
                Clash([1.0, 2.0])],
             mu=[Known(INF, [0.0, 1.0, INF], "e^{a mu}: 0, 1 (a = 0), inf"),
                 Known(-INF, [INF, 1.0, 0.0], "e^{a mu}: inf, 1 (a = 0), 0"), Clash([0.0, 1.0]), huge()])),
    Case(nm.log_laplace_mean, dict(b=[0.25, 0.5, 0.75], mu=0.0),
         dict(b="real", mu="real"),
         special=dict(
             b=[Known(INF, INF, "b >= 1: E[e^X] infinite"), Known(1.0, INF, "b = 1: E[e^X] infinite"), 0.0, -1.0,
                5e-324, Clash([0.1, 0.2]), huge()],
             mu=[Known(INF, [INF] * 3, "e^mu -> inf"), Known(-INF, [0.0] * 3, "e^mu -> 0"), Clash([0.0, 1.0]),
                 Known(1e4, [INF] * 3, "e^{1e4} beyond the float range")])),
    Case(nm.log_laplace_variance, dict(b=[0.1, 0.25, 0.4], mu=0.0),
         dict(b="real", mu="real"),
         special=dict(
             b=[Known(0.5, INF, "b = 1/2: second moment infinite"), Known(INF, INF, "b >= 1/2"), 0.0, -1.0,
                Known(5e-324, 0.0, "2 b^2 underflows"), Clash([0.1, 0.2]), huge()],
             mu=[Known(INF, [INF] * 3, "e^{2 mu} -> inf"), Known(-INF, [0.0] * 3, "e^{2 mu} -> 0"), Clash([0.0, 1.0])]),
         combos=[Combo(dict(b=1e-200, mu=400.0), math.exp(800 - 400 * math.log(10) + math.log(2)),
                       "2 b^2 e^{2 mu} = 2 e^{800 - 400 ln 10} (leading term; the rest is 1 + O(b^2))")]),
    Case(nm.bias_correction, dict(b=[0.1, 0.5, 0.9], mu=0.0),
         dict(b="real", mu="real"),
         special=dict(
             b=[1.0, 0.0, -1.0, INF, Clash([0.1, 0.2]), huge()],
             mu=[Known(INF, [0.0] * 3, "(1 - b^2) e^{-mu} -> 0"), Known(-INF, [INF] * 3, "(1 - b^2) e^{-mu} -> inf"),
                 Clash([0.0, 1.0])])),
    Case(nm.laplace_mechanism_delta, dict(epsilon=[0.0, 0.5, 1.0], sensitivity=2.0, b=1.0),
         dict(epsilon="real", sensitivity="real", b="real"),
         special=dict(
             epsilon=[Known(INF, 0.0, "delta(inf) = 0 at finite sensitivity"), -1e-300, huge(), Clash([0.0, 1.0])],
             sensitivity=[Known(INF, [1.0] * 3, "1 - e^{-inf} = 1 at finite epsilon"),
                          Known(0.0, [0.0] * 3, "max(0, 1 - e^{eps/2}) = 0"), -1.0, Clash([1.0, 2.0])],
             b=[INF, 0.0, Known(5e-324, [1.0] * 3, "Delta/b = inf: delta = 1"), Clash([1.0, 2.0])]),
         combos=[Combo(dict(epsilon=INF, sensitivity=1e300, b=1e-300), 0.0, "delta(inf) = 0 at finite sensitivity"),
                 Combo(dict(epsilon=INF, sensitivity=INF))]),
    Case(nm.mixture_density, dict(z=[-1.0, 1.0, 4.0], atoms=[0.0, 3.0], probabilities=[0.4, 0.6], b=0.6),
         dict(z="real", atoms="real", probabilities="real", b="real", log="bool"),
         special=dict(
             z=[Known(INF, 0.0, "every kernel e^{-|z - t|/b} is 0 at z = +-inf"), Known(-INF, 0.0, "idem"), huge()],
             atoms=[[], [[0.0, 3.0]], [0.0, 1e308], Clash([0.0]), huge()],
             probabilities=[[0.5, 0.6], [-0.1, 1.1], Clash([1.0]), huge()],
             b=[0.0, -1.0, INF, 5e-324, [0.6, 0.6]],
             log=[True])),
    Case(nm.density_ratio, dict(z=[-1.0, 1.0, 4.0], atoms_x=[0.0, 3.0], atoms_x_prime=[0.5, 2.0],
                                probabilities=[0.4, 0.6], b=1.0),
         dict(z="real", atoms_x="real", atoms_x_prime="real", probabilities="real", b="real", log="bool"),
         special=dict(
             z=[Known(INF, RATIO_RIGHT, "Result 6 right tail constant"), Known(-INF, RATIO_LEFT, "left tail constant"),
                Known(1e17, RATIO_RIGHT, "right of every atom: the tail constant"),
                Known(-1e17, RATIO_LEFT, "left of every atom"), huge()],
             atoms_x=[[], [INF, 0.0], [0.0, 1e308], Clash([0.0]), huge()],
             atoms_x_prime=[[0.0, NAN], Clash([0.0, 1.0, 2.0]), huge()],
             probabilities=[[0.5, 0.6], [1.0, 0.0], Clash([1.0]), huge()],
             b=[0.0, INF, 5e-324, 1e300],
             log=[True])),
    Case(nm.density_ratio_derivative, dict(z=[-1.0, 1.0, 4.0], atoms_x=[0.0, 3.0], atoms_x_prime=[0.5, 2.0],
                                           probabilities=[0.4, 0.6], b=1.0),
         dict(z="real", atoms_x="real", atoms_x_prime="real", probabilities="real", b="real"),
         special=dict(
             z=[Known(INF, 0.0, "the ratio is constant beyond the atoms (Result 6)"), Known(-INF, 0.0, "idem"),
                Known(1e17, 0.0, "idem"), Known(-1e17, 0.0, "idem"), huge()],
             atoms_x=[[], [INF, 0.0], Clash([0.0]), huge()],
             atoms_x_prime=[[0.0, -INF], Clash([0.0, 1.0, 2.0])],
             probabilities=[[0.5, 0.6], Clash([1.0])],
             b=[0.0, INF, 5e-324, 1e300])),
    Case(nm.ht_atoms, dict(samples=[(0, 1), (0, 2), (1, 2)], probabilities=[1 / 3] * 3, x=[1.0, 2.0, 4.0]),
         dict(samples="samples", probabilities="real", x="real"),
         special=dict(
             samples=[[(0, 1), (0, 2), (1, 1.5)], [(0, 1), (0, 2), (2, 2)], [(0, 1), (0, 2), (1, 5)]],
             probabilities=[[0.5, 0.5, 0.5], [1.0, 0.0, 0.0], Clash([0.5, 0.5]), huge()],
             x=[Known([1e308, -1e308, 1e308], [0.0, INF, 0.0], "x_j/p_j = +-1.5e308: sums 0, 3e308 (> max), 0"),
                Clash([1.0]), Clash([1.0, 2.0]), [[1.0, 2.0, 4.0]], huge()])),
    Case(nm.ht_variance, dict(y=[1.0, 2.0, 3.0], pi=[2 / 3] * 3, pi_ij=_SRS_PIJ, perturbed=[False, True, True],
                              b=0.1, mu=0.0, bias_corrected=True),
         dict(y="real", pi="real", pi_ij="real", perturbed="real", b="real", mu="real", bias_corrected="bool"),
         special=dict(
             y=[Clash([1.0, 2.0]), huge(), [1e308, -1e308, 1e308], [5e-324, 0.0, 0.0]],
             pi=[[0.0] * 3, [1.5] * 3, Clash([2 / 3] * 2), Clash([0.5] * 3)],
             pi_ij=[huge(2**20, 2**20, value=0.5), Clash(np.eye(2)), Clash(np.full((3, 3), 0.9))],
             perturbed=[Clash([True]), ["a", "b", "c"], [2, 0, 1]],
             b=[Known(0.5, INF, "b = 1/2 at a perturbed unit: Var(e^X) infinite (Corollary 3)"), 0.0, -1.0,
                Clash([0.1, 0.2])],
             mu=[1e300, -1e300, Clash([0.0, 0.0])],
             bias_corrected=[False]),
         combos=[Combo(dict(pi=[1e-300] * 3, pi_ij=np.diag([1e-300] * 3), perturbed=[False] * 3), 14e300 - 36.0,
                       "sum y^2/pi - (sum y)^2 (pi_ij = 0 off the diagonal)"),
                 Combo(dict(pi=[5e-324] * 3, pi_ij=np.diag([5e-324] * 3), perturbed=[False] * 3), INF,
                       "sum y^2/pi beyond the float range"),
                 Combo(dict(bias_corrected=False, mu=[800.0, 800.0, 800.0]), INF, "e^{2 mu} beyond the float range"),
                 Combo(dict(bias_corrected=False, mu=[-800.0] * 3, pi=[1.0] * 3, pi_ij=np.ones((3, 3)),
                            perturbed=[True] * 3), None)]),
    Case(nm.census_rse, dict(y=[3.0, 1.0], perturbed=[False, True], b=0.1),
         dict(y="real", perturbed="real", b="real"),
         special=dict(
             y=[[1.0, -1.0], Clash([1.0]), [[3.0, 1.0]], huge(),
                Known([1e308, 1e308], math.sqrt(_census_factor_var(Fraction(1, 10))) / 2,
                      "scale-invariant: y = (1, 1) gives sqrt(Var)/2")],
             perturbed=[Clash([True]), ["a", "b"], [2, 1], huge()],
             b=[Known(0.5, INF, "b = 1/2: infinite variance"), Known(INF, INF, "b >= 1/2"), 0.0, -1.0,
                Clash([0.1, 0.1, 0.1]), huge()]),
         combos=[Combo(dict(y=[1.0, 1e16, -1e16], perturbed=[True, False, False]),
                       math.sqrt(_census_factor_var(Fraction(1, 10))), "exact total 1, only unit 0 perturbed")]),
    Case(nm.simulate_rse, dict(y=[3.0, 1.0], perturbed=[False, True], b=0.1, reps=200, rng=1),
         dict(y="real", perturbed="real", b="real", reps="count", rng="rng", return_se="bool"),
         special=dict(
             y=[[1.0, -1.0], Clash([1.0]), huge(), [1e308, 1e308]],
             perturbed=[Clash([True]), ["a", "b"]],
             b=[0.0, 1.0, 1.5, INF, Clash([0.1, 0.1, 0.1])],
             reps=[1, 0],
             return_se=[True])),
    Case(nm.disclosure_risk, dict(R=[0.0, 0.3, 1.2], p=0.15, q=0.15, epsilon=1.3),
         dict(R="real", p="real", q="real", epsilon="real", tight="bool"),
         special=dict(
             R=[Known(INF, 0.0, "R >= 1 + p: f = 0"), Known(-INF, 0.0, "both limits of X at +inf"),
                Known(1.15, 0.0, "R = 1 + p: f = 0"), huge()],
             p=[0.0, 1.0, [0.1, 0.2], 5e-324],
             q=[0.0, 1.0, [0.1, 0.2]],
             epsilon=[0.0, 1e-3, 0.6, [1.0, 2.0]],
             tight=[True])),
    Case(nm.max_disclosure_risk, dict(p=0.15, q=0.15, epsilon=1.3),
         dict(p="real", q="real", epsilon="real", tight="bool"),
         special=dict(p=[0.0, 1.0, 1e-300, 5e-324, 1 - 1e-16, [0.1, 0.2]], q=[0.0, 1.0, 1e-300, huge()],
                      epsilon=[0.0, 1e-3, 1e300, 5e-324], tight=[True])),
    Case(nm.pufferfish_scale, dict(epsilon=[1.3, 2.0], q=0.15),
         dict(epsilon="real", q="real", tight="bool"),
         special=dict(epsilon=[0.0, -1.0, Known(5e-324, INF, "-4 ln(0.85)/5e-324 beyond the float range"),
                               huge(), Clash([1.0, 2.0, 3.0])],
                      q=[0.0, 1.0, 1e-300, 1 - 1e-16, Clash([0.1, 0.2, 0.3])], tight=[True])),
    Case(nm.pufferfish_epsilon, dict(b=[0.5, 1.0], q=0.15),
         dict(b="real", q="real"),
         special=dict(b=[0.0, -1.0, Known(5e-324, INF, "2 ln(1.15/0.85)/5e-324 beyond the float range"), huge(),
                         Clash([1.0, 2.0, 3.0])],
                      q=[0.0, 1.0, 1e-300, Clash([0.1, 0.2, 0.3])])),
    Case(nm.simulate_disclosure_risk, dict(y=[10.0, 6.0, 1.0], j=1, k=0, p=0.15, q=0.1, epsilon=1.5, reps=200, rng=7),
         dict(y="real", j="index", k="index", p="real", q="real", epsilon="real", reps="count", rng="rng",
              tight="bool"),
         special=dict(y=[[10.0, 0.0, 1.0], [10.0], Clash([10.0, 6.0]), huge(), [1e308] * 3, [5e-324] * 3,
                         [-1e308, 1e308, 1e308]],
                      j=[Clash(0), 3], k=[Clash(1), 3], reps=[0], p=[0.0, 1.0], epsilon=[1e-3], tight=[True])),
    Case(nm.srs_binary_log_pmf, dict(y=[0, 1, 2], t=2, N=4, n=2),
         dict(y="real", t="integer", N="integer", n="integer"),
         special=dict(y=[Known(1e300, -INF, "outside the support"), Known(-1e300, -INF, "outside the support"),
                         2.5, huge(), Clash([0, 1])],
                      t=[5, -1, Clash([1, 2]), huge()],
                      N=[0, 2**31, 1.5, [4, 5]],
                      n=[0, 5, 1.5, [1, 2]])),
    Case(nm.srs_binary_pmf_ratio, dict(y=[0, 1, 2], t=2, N=6, n=2),
         dict(y="integer", t="integer", N="integer", n="integer"),
         special=dict(y=[3, 2.5, huge(), Clash([0, 1])], t=[6, -1, Clash([1, 2]), huge()],
                      N=[Clash(1), 2**31, [6, 7]], n=[0, Clash(7), [1, 2]])),
    Case(nm.srs_binary_epsilon0, dict(N=[10, 20], n=2, m_t=3, M_t=7),
         dict(N="integer", n="integer", m_t="integer", M_t="integer"),
         special=dict(N=[0, 2**31, huge(), Clash([10, 20, 30])],
                      n=[0, Clash(11), Clash([1, 2, 3])],
                      m_t=[Known(0, [INF, INF], "m_t < n: the supports differ (Result 9)"), -1, Clash(7),
                           Clash([3, 4, 5])],
                      M_t=[Clash(3), Clash(21), Clash([7, 8, 9])])),
    Case(nm.srs_binary_delta0, dict(epsilon=[0.0, 0.5], N=20, n=4, m_t=2, M_t=15),
         dict(epsilon="real", N="integer", n="integer", m_t="integer", M_t="integer"),
         special=dict(epsilon=[-1.0, huge(), INF],
                      N=[0, Clash(14), 2**31, [20, 21], huge()],
                      n=[0, Clash(21), Known(20, [1.0, 1.0], "census: f_t and f_t' are point masses, TV = 1")],
                      m_t=[-1, Clash(15), Known(0, [0.2, 0.2], "m_t = 0: delta = n/N (coupling bound, attained)")],
                      M_t=[Clash(2), Clash(21), Known(20, [0.2, 0.2], "M_t = N: delta = n/N")]),
         combos=[Combo(dict(N=10**9, M_t=10**9), [4e-9, 4e-9], "M_t = N: delta = n/N"),
                 Combo(dict(N=10**9, n=1, m_t=0, M_t=10**9), [1e-9, 1e-9], "m_t = 0: delta = n/N"),
                 Combo(dict(N=10**9, n=10, m_t=10, M_t=10**9 - 10)),
                 Combo(dict(N=2**31 - 1, n=2**30, m_t=2**30 - 1, M_t=2**30 + 1))]),
    Case(nm.delta_bruteforce, dict(samples=[(0, 1), (1, 2)], probabilities=[0.5, 0.5], x=[1, 2, 3],
                                   x_prime=[1, 2, 4], epsilon=0.5, b=1.0),
         dict(samples="samples", probabilities="real", x="real", x_prime="real", epsilon="real", b="real"),
         special=dict(samples=[[(0, 1), (1, 1.5)], [(0, 1), (2, 2)]],
                      probabilities=[[0.5, 0.6], [1.5, -0.5], Clash([1.0]), huge()],
                      x=[Clash([1, 2]), [[1, 2, 3]], huge(), [1e308, -1e308, 1e308]],
                      x_prime=[Clash([1, 2]), huge()],
                      epsilon=[-1e-9, 1e300],
                      b=[0.0, 1e-300, 1e300, [1.0, 2.0]])),
]

# -- the privacy profile (numeric.profile) --------------------------------------------------------------------
# Census (n = N, pi = 1): the release is t(x) + Laplace(b) with sensitivity Delta = 1, so
# delta(eps) = max(0, 1 - e^{(eps - 1/b)/2}) (the Laplace mechanism; Abstract of 000, worked by hand),
# and the smallest b with delta(eps) <= d is 1/(eps - 2 ln(1 - d)).
_SRS, _DOM = nm.SRS(6, 2), nm.BinaryDomain(6)
_CENSUS = dict(design=nm.SRS(4, 4), domain=nm.BinaryDomain(4))
_PROFILE = dict(design="design", domain="domain", b="real", noise="noise")
_DESIGN_CLASH = [Clash(nm.SRS(5, 2)), Clash(nm.Bernoulli(7, 0.3))]
_DOMAIN_CLASH = [Clash(nm.BinaryDomain(5))]
# eps >= Delta/b with Delta = 1/pi = 3: a pure eps-DP Laplace mechanism on every sample, delta = 0
_PURE = "eps >= Delta/b (Delta = N/n = 3): pure Laplace mechanism, delta = 0"

CASES += [
    Case(nm.SRS, dict(N=6, n=2), dict(N="integer", n="integer"),
         special=dict(N=[0, 2**70, Clash(1), [6, 7], huge()], n=[0, Clash(7), [1, 2], huge()])),
    Case(nm.Bernoulli, dict(N=6, p=0.3), dict(N="integer", p="real"),
         special=dict(N=[0, 2**70, [6, 7]], p=[0.0, 1.0, -0.1, 5e-324, [0.1, 0.2], huge()])),
    Case(nm.BinaryDomain, dict(N=6, m_t=1, M_t=5), dict(N="integer", m_t="integer", M_t="integer"),
         special=dict(N=[0, 2**70, Clash(4), [6, 7]], m_t=[Clash(6), 7, [0, 1]], M_t=[Clash(0), 7, [5, 6]])),
    Case(nm.FiniteDomain, dict(values=[0.0, 0.5, 1.0]), dict(values="real"),
         special=dict(values=[[1.0], [1.0, 1.0], [], [[0.0, 1.0]], [0.0, INF], huge()])),
    Case(nm.ExplicitDesign, dict(samples=[(0, 1), (1, 2)], probabilities=[0.5, 0.5], N=3),
         dict(samples="samples", probabilities="real", N="integer"),
         special=dict(samples=[Clash([(0, 1)]), [(0,), (1,)]],
                      probabilities=[[0.5, 0.6], [1.5, -0.5], [1.0, 0.0], Clash([1.0]), huge()],
                      N=[0, 65, Clash(2), Clash(4)])),
    Case(nm.privacy_profile, dict(design=_SRS, domain=_DOM, b=1.0, epsilons=[0.0, 0.5, 1.0]),
         dict(_PROFILE, epsilons="real", prune="bool", progress="bool"),
         special=dict(design=_DESIGN_CLASH, domain=_DOMAIN_CLASH,
                      b=[0.0, -1.0, INF, 1e300, 5e-324],
                      epsilons=[-1e-300, Known(1e300, 0.0, _PURE), Known(3.0, 0.0, _PURE), huge()],
                      prune=[False])),
    Case(nm.worst_pair, dict(design=_SRS, domain=_DOM, b=1.0, epsilon=0.5),
         dict(_PROFILE, epsilon="real"),
         special=dict(design=_DESIGN_CLASH, domain=_DOMAIN_CLASH, b=[0.0, -1.0, INF],
                      epsilon=[-1e-300, [0.5, 1.0], Known(1e300, 0.0, _PURE)])),
    Case(nm.calibrate_scale, dict(design=_SRS, domain=_DOM, epsilon=0.5, delta=1e-3),
         dict(_PROFILE, epsilon="real", delta="real", rtol="tolerance"),
         special=dict(design=_DESIGN_CLASH, domain=_DOMAIN_CLASH, epsilon=[-1.0, [0.5, 1.0]],
                      delta=[0.0, 1.0, 1e-300, -0.5, [1e-3, 1e-2]]),
         combos=[Combo(dict(_CENSUS, epsilon=0.5, delta=0.1, rtol=1e-13), 1 / (0.5 - 2 * math.log(0.9)),
                       "census: b = Delta/(eps - 2 ln(1 - delta)), Delta = 1")]),
    Case(nm.epsilon_for_delta, dict(design=_SRS, domain=_DOM, b=1.0, delta=1e-3),
         dict(_PROFILE, delta="real", rtol="tolerance"),
         special=dict(design=_DESIGN_CLASH, domain=_DOMAIN_CLASH, b=[0.0, -1.0, INF],
                      delta=[0.0, 1.0, -0.5, [1e-3, 1e-2]]),
         combos=[Combo(dict(_CENSUS, b=1.0, delta=0.2, rtol=1e-13), 1 + 2 * math.log(0.8),
                       "census: eps = Delta/b + 2 ln(1 - delta), Delta = 1")]),
    Case(nm.amplified_laplace_scale, dict(design=_SRS, domain=_DOM, epsilon=1.0),
         dict(design="design", domain="domain", epsilon="real"),
         special=dict(design=_DESIGN_CLASH + [nm.ExplicitDesign([(0, 1), (2, 3), (4, 5)], [1 / 3] * 3)],
                      domain=_DOMAIN_CLASH + [nm.FiniteDomain([0.0, 1.0])],
                      epsilon=[Known(0.0, INF, "ln(1 + 0/q) = 0: no finite scale gives eps = 0"), -1.0,
                               Known(1e3, 3 / (1e3 + math.log(3)),
                                     "ln(1 + (e^eps - 1)/q) = eps + ln 3 to double precision (q = 1/3)")])),
]

# -- identification risk of sample uniques (numeric.identification): mu = lam (1 - pi), limits by hand ----------
_CENSUS_PI = "pi = 1 (census): mu = 0, F = f = 1"
CASES += [
    Case(nm.prob_population_unique, dict(lam=[0.0, 0.5, 3.0], pi=0.5), dict(lam="real", pi="real"),
         special=dict(
             lam=[Known(INF, 0.0, "e^{-inf} = 0"), Known(0.0, 1.0, "mu = 0: e^0 = 1"), -1.0, -5e-324,
                  Known(1e300, 0.0, "e^{-5e299} underflows to 0"), huge()],
             pi=[0.0, -0.5, 1.5, Known(1.0, [1.0] * 3, _CENSUS_PI), Clash([0.5, 0.5]), huge(),
                 Known(5e-324, [1.0, math.exp(-0.5), math.exp(-3.0)], "1 - pi = 1 in floating point")]),
         combos=[Combo(dict(lam=INF, pi=1.0), 1.0, _CENSUS_PI + " for every lam (the limit at fixed pi)")]),
    Case(nm.expected_inverse_frequency, dict(lam=[0.0, 0.5, 3.0], pi=0.5), dict(lam="real", pi="real"),
         special=dict(
             lam=[Known(INF, 0.0, "(1 - e^{-mu})/mu -> 0"), Known(0.0, 1.0, "mu = 0: the limit 1"), -1.0, -5e-324,
                  Known(1e300, 2e-300, "e^{-mu} = 0: E = 1/mu, mu = 5e299"),
                  Known(2e-300, 1.0, "E = 1 - mu/2 + ... = 1 to double precision"), huge()],
             pi=[0.0, -0.5, 1.5, Known(1.0, [1.0] * 3, _CENSUS_PI), Clash([0.5, 0.5]), huge(),
                 Known(5e-324, [1.0, -math.expm1(-0.5) / 0.5, -math.expm1(-3.0) / 3.0],
                       "1 - pi = 1 in floating point: (1 - e^{-lam})/lam")]),
         combos=[Combo(dict(lam=INF, pi=1.0), 1.0, _CENSUS_PI + " for every lam (the limit at fixed pi)")]),
]

from _cases_loglinear import CASES as _LOGLINEAR  # noqa: E402
from _cases_misclassification import CASES as _MISCLASSIFICATION  # noqa: E402
from _cases_sampling import CASES as _SAMPLING  # noqa: E402
from _cases_krandomization import CASES as _KRANDOMIZATION  # noqa: E402
from _cases_shuffle_rr import CASES as _SHUFFLE_RR  # noqa: E402
from _cases_quantile_mechanisms import CASES as _QUANTILE_MECHANISMS  # noqa: E402
from _cases_private_deciles import CASES as _PRIVATE_DECILES  # noqa: E402
from _cases_above_threshold import CASES as _ABOVE_THRESHOLD  # noqa: E402
from _cases_tables import CASES as _TABLES  # noqa: E402

CASES += (_LOGLINEAR + _MISCLASSIFICATION + _SAMPLING + _KRANDOMIZATION + _SHUFFLE_RR + _QUANTILE_MECHANISMS
          + _PRIVATE_DECILES + _ABOVE_THRESHOLD + _TABLES)

#: Every public function these cases cover (the test checks the list against ``numeric.__all__``).
COVERED = {case.name for case in CASES}
