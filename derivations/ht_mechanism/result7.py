"""Result 7 and its proof: the class-wise terms c and d, the printed reductions and signs.

Source: ``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``; "The Horvitz-Thompson estimate as a privacy mechanism"),
Section 2.2.2, Result 7 and its proof.  The text is OCR-damaged; every repair is a registered
reading (``derivations.readings()``), reported apart from the errata.

Setting.  x and x' differ only at unit i, with x_i > x'_i; t(x, s) = sum_{j in s} x_j/p_j is the
Horvitz-Thompson estimate and t_{-i}(x, s) the same sum without unit i, so that for a sample s
containing i, t(x, s) = t_{-i}(x, s) + u and t(x', s) = t_{-i}(x, s) + u' with u = x_i/p_i,
u' = x'_i/p_i.  Laplace noise of scale b gives, up to the factor 1/(2b),
f_x(z) = sum_s p(s) exp(-|z - t(x, s)|/b).

The orientation is the one the OCR prints (reading ``htm.r7.reading.orientation``):

    a(x, x', s, s') = exp((t(x, s) - |z - t(x', s')|)/b),

and the "-" classes lie right of z, the "+" classes left of z, as u^- and u^+ of Result 6
(u^- multiplies e^{z/b} and collects the atoms right of z):

    S^-_{-i}: i not in s, z <= t(x, s)            S^+_{-i}: i not in s, t(x, s) < z
    S^-_i   : i in s, z <= t(x', s)               (both atoms right of z)
    S^0_i   : i in s, t(x', s) < z <= t(x, s)     (the atom of x right of z, that of x' left)
    S^+_i   : i in s, t(x, s) < z                 (both atoms left of z)

With c(x, x', s, s') = a(x, x', s, s') - a(x', x, s, s') and d = c(x, x', s, s') + c(x, x', s', s),
the display before "o.s.s.a." is R(zbar) - R(z), R = f_x/f_x', zbar right of every atom
(reading ``htm.r7.reading.difference_not_derivative``): its sign is that of
sum_{s, s'} p(s) p(s') c(x, x', s, s'), exactly (claim ``htm.r7.same_sign_as_sum_c``).  The proof
then reduces c or d class pair by class pair.  Verified here:

* each of the fifteen printed reductions, as an exact identity on its class pair (every one holds,
  some after a registered repair of the OCR: e^z for e^{z/b}, a lost prime, a lost factor 2);
* each printed sign on its class pair.  All hold, except that of S^-_{-i} x S^0_i, where the
  justification "the arguments passed to the sh functions are positive" needs t(x, s) <= t(x, s'),
  which the class pair alone does not give; Result 7's hypothesis, read for every z, gives it
  (reading ``htm.r7.reading.hypothesis``, finding ``htm.r7.finding.case8_uses_hypothesis``);
* Result 7 itself, for the densities conditional on i in S (where the hypothesis holds vacuously):
  the supremum e^{|x_i - x'_i|/(p_i b)} of the ratio is attained exactly from max_{s ni i} t(x, s)
  on (x_i > x'_i), and up to min_{s ni i} t(x, s) (x_i < x'_i).  The printed maximiser
  max t_{-i}(x, s) omits x_i/p_i (and is a max where a min is needed in the second statement):
  refuted on the design p({1}) = p({1, 2}) = 1/2, where every sample contains unit 1 and the
  hypothesis holds under any reading (errata ``htm.r7.result7_larger`` and ``htm.r7.result7_smaller``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..engine.core import (Claim, Enumeration, Source, erratum, finding, reading,
                           register)
from ..engine.notation import defined, release
from ..engine.render import unicode as display
from ..engine.proofs import (Parametrization, term_symbol, conclude, conclude_cases, conclude_evaluation,
                             conclude_termwise)
from .designs import RATIO_BASES as BASES, RATIO_DESIGNS as DESIGNS, ExactRatio, cmp_ratio, ht, inclusion

DOC = "000_3f4b38deb4c4e7bd.txt"
RESULT7 = Source(DOC, "Section 2.2.2, Result 7")
PROOF7 = Source(DOC, "Section 2.2.2, proof of Result 7")

# -- symbols ---------------------------------------------------------------------------------
z = sp.Symbol("z", real=True)
b = sp.Symbol("b", positive=True)
p_i = sp.Symbol("p_i", positive=True)
x_i = sp.Symbol("x_i", real=True)
xp_i = sp.Symbol("x'_i", real=True)
U, UP = x_i / p_i, xp_i / p_i                 # u = x_i/p_i, u' = x'_i/p_i
DELTA = (x_i - xp_i) / p_i                    # u - u' > 0
E, SH, CH = sp.exp, sp.sinh, sp.cosh


# -- the five classes --------------------------------------------------------------------------
@dataclass(frozen=True)
class SampleClass:
    """A class of samples at the point z: whether it contains i, and on which side of z
    (``L``: atom < z, ``R``: atom >= z) the atoms of x and of x' lie."""

    key: str
    text: str
    contains_i: bool
    side_x: str
    side_xp: str


MINUS_OUT = SampleClass("minus_out", "S^-_{-i}", False, "R", "R")
PLUS_OUT = SampleClass("plus_out", "S^+_{-i}", False, "L", "L")
MINUS_IN = SampleClass("minus_in", "S^-_i", True, "R", "R")
ZERO_IN = SampleClass("zero_in", "S^0_i", True, "R", "L")
PLUS_IN = SampleClass("plus_in", "S^+_i", True, "L", "L")
CLASSES = (MINUS_OUT, PLUS_OUT, MINUS_IN, ZERO_IN, PLUS_IN)   # the paper's order


class Sample:
    """One sample s (or s') of a class, with the symbol the paper uses for it: t(x, s) (= t(x', s))
    for a sample without i, t_{-i}(x, s) for a sample with i."""

    def __init__(self, cls: SampleClass, name: str):
        self.cls = cls
        self.name = name
        self.symbol = sp.Symbol(f"t_{{-i}}(x, {name})" if cls.contains_i else f"t(x, {name})", real=True)

    def __repr__(self) -> str:
        return f"Sample({self.cls.key}, {self.name})"


def t_atom(s: Sample, version: str = "x") -> sp.Expr:
    """The Horvitz-Thompson atom t(x, s) (version "x") or t(x', s) (version "x'") in the sample's symbol:
    t(x, s) = t(x', s) without i, t_{-i}(x, s) + x_i/p_i (resp. x'_i/p_i) with i.  Used in the class
    conditions, which the engine reads without unfolding notation."""
    if not s.cls.contains_i:
        return s.symbol
    return s.symbol + (U if version == "x" else UP)


def t_hat(s: Sample, version: str = "x") -> sp.Expr:
    """t(x, s) or t(x', s) as the paper writes it: the symbol t(x, s) for a sample without i, otherwise a
    notation node standing for :func:`t_atom`.  SymPy does not look inside the node, so c and d keep the
    printed form (t(x, s) - t(x', s) does not cancel when the claim is built); the engine unfolds it."""
    if version == "x" and not s.cls.contains_i:
        return s.symbol
    return defined(f"t({version}, {s.name})", t_atom(s, version))


def a(s: Sample, s2: Sample, first: str = "x") -> sp.Expr:
    """a(x, x', s, s') = exp((t(x, s) - |z - t(x', s')|)/b) (first="x"), or a(x', x, s, s')."""
    other = "x'" if first == "x" else "x"
    return E((t_hat(s, first) - sp.Abs(z - t_hat(s2, other))) / b)


def c(s: Sample, s2: Sample) -> sp.Expr:
    """c(x, x', s, s') = a(x, x', s, s') - a(x', x, s, s')."""
    return a(s, s2, "x") - a(s, s2, "x'")


def d(s: Sample, s2: Sample) -> sp.Expr:
    """d(x, x', s, s') = c(x, x', s, s') + c(x, x', s', s)."""
    return c(s, s2) + c(s2, s)


# -- class conditions and their parametrization ---------------------------------------------------
def class_conditions(s: Sample) -> tuple:
    """The class membership of s at z as SymPy relationals (the OCR's boundary conventions)."""
    tx, txp = t_atom(s, "x"), t_atom(s, "x'")
    if s.cls is MINUS_OUT:
        return (sp.Le(z, tx),)
    if s.cls is PLUS_OUT:
        return (sp.Lt(tx, z),)
    if s.cls is MINUS_IN:
        return (sp.Le(z, txp),)
    if s.cls is ZERO_IN:
        return (sp.Lt(txp, z), sp.Le(z, tx))
    return (sp.Lt(tx, z),)


def pair_conditions(s: Sample, s2: Sample) -> tuple:
    return (sp.Lt(xp_i, x_i),) + class_conditions(s) + class_conditions(s2)


def class_parametrization(samples) -> Parametrization:
    """New variables that cover the class conditions: for a sample left of z, atom = z - (positive);
    right of z, atom = z + (non-negative); the first S^0_i sample fixes u - u' = g + k (g > 0,
    k >= 0); a second S^0_i sample sits at z - (u - u')/(1 + r) (its x' atom) with r >= 0."""
    fwd, inv = {}, {}
    zeros = [s for s in samples if s.cls is ZERO_IN]
    if not any(s.cls.contains_i for s in samples):
        gap = None      # the statement does not involve x_i
    elif zeros:
        s0 = zeros[0]
        g = sp.Symbol(f"g_{{{s0.name}}}", positive=True)
        k = sp.Symbol(f"k_{{{s0.name}}}", nonnegative=True)
        fwd[x_i] = xp_i + p_i * (g + k)
        fwd[s0.symbol] = z - UP - g
        inv[g], inv[k] = z - s0.symbol - UP, s0.symbol + U - z
        gap = g + k
    else:
        dd = sp.Symbol("D", positive=True)
        fwd[x_i], inv[dd] = xp_i + p_i * dd, DELTA
        gap = dd
    u_new = UP + gap if gap is not None else None
    for s in samples:
        if zeros and s is zeros[0]:
            continue
        n, sym = s.name, s.symbol
        if s.cls is MINUS_OUT:
            v = sp.Symbol(f"v_{{{n}}}", nonnegative=True)
            fwd[sym], inv[v] = z + v, sym - z
        elif s.cls is PLUS_OUT:
            w = sp.Symbol(f"w_{{{n}}}", positive=True)
            fwd[sym], inv[w] = z - w, z - sym
        elif s.cls is MINUS_IN:
            v = sp.Symbol(f"v_{{{n}}}", nonnegative=True)
            fwd[sym], inv[v] = z - UP + v, sym + UP - z
        elif s.cls is PLUS_IN:
            w = sp.Symbol(f"w_{{{n}}}", positive=True)
            fwd[sym], inv[w] = z - u_new - w, z - sym - U
        else:   # a second S^0_i sample
            r = sp.Symbol(f"r_{{{n}}}", nonnegative=True)
            fwd[sym], inv[r] = z - UP - gap / (1 + r), (sym + U - z) / (z - sym - UP)
    return Parametrization(fwd, inv)


def _on_classes(claim: Claim, samples, certificate=None):
    return conclude(claim, param=class_parametrization(samples), certificate=certificate)


def _loc(s: Sample, s2: Sample) -> Source:
    return Source(DOC, f"Section 2.2.2, proof of Result 7, case s in {s.cls.text}, s' in {s2.cls.text}")


def _pid(s: Sample, s2: Sample) -> str:
    return f"htm.r7.{s.cls.key}_x_{s2.cls.key}"


def _pair(cls1: SampleClass, cls2: SampleClass) -> tuple[Sample, Sample]:
    return Sample(cls1, "s"), Sample(cls2, "s'")


# ==============================================================================================
# Readings of the damaged text
# ==============================================================================================
R_ORIENTATION = reading(
    "htm.r7.reading.orientation", PROOF7,
    printed="a(x,x',s,s') = e^{(t(x,s) - |z - t(x',s')|)/b}; class labels 'St', 'ST', 'S7' (garbled); the "
            "conditions on z of S^-_{-i} and S^+_{-i} are lost; S^+_i: t_{-i}(x,s) < z - x_i/p_i, S^0_i: "
            "z - x_i/p_i <= t_{-i}(x,s) < z - x'_i/p_i, S^-_i: z - x'_i/p_i <= t_{-i}(x,s)",
    reading="a as printed (minus sign); the '-' classes lie right of z and the '+' classes left of z, for the "
            "samples with and without i alike (S^-_{-i}: z <= t(x,s); S^+_{-i}: t(x,s) < z)",
    why="It is the convention of u^- and u^+ in the proof of Result 6 (u^- multiplies e^{z/b}, so it collects the "
        "atoms right of z). Under it all 14 legible first-line expansions of the fifteen cases are what the "
        "definition gives, term by term; S^0_i is fixed by its own inequalities (x' atom left of z, x atom right).",
    alternatives="a with +|z - t| and the '-' classes left of z matches 9 of the 14 expansions (it fails on the "
                 "five cases with an S^0_i sample); every other combination matches at most 6.")
R_DIFFERENCE = reading(
    "htm.r7.reading.difference_not_derivative", PROOF7,
    printed="f_{Z|X=x}/f_{Z|X=x'} (&J) - f_{Z|X=x}/f_{Z|X=x'} (z) = [sum p(s) e^{-z/b} e^{t(x,s)/b}] / [sum p(s) "
            "e^{-z/b} e^{t(x',s)/b}] - [sum p(s) e^{-|z - t(x,s)|/b}] / [...]  o.s.s.a. sum_{A,B} sum p(s)p(s') c",
    reading="R(zbar) - R(z), R = f_x/f_x', zbar a point at or right of every atom (the largest atom), where "
            "R(zbar) = sum p e^{t(x,s)/b} / sum p e^{t(x',s)/b}; 'o.s.s.a.' = 'of the same sign as'",
    why="The first fraction is the ratio of the kernels e^{-(z - t)/b} of atoms left of z, i.e. the ratio right "
        "of every atom. With the printed a, sum p p' c = R(zbar) - R(z) times a positive factor exactly "
        "(claim htm.r7.same_sign_as_sum_c), and the conclusion sought (a maximum at the largest atom) follows "
        "from R(zbar) >= R(z).",
    alternatives="A derivative d/dz of the ratio: it would produce sign-weighted products of kernels, never "
                 "e^{t(x,s)/b}, and the step would then be false; nothing in the glyphs shows a d/dz.",
    claims=("htm.r7.same_sign_as_sum_c",))
R_EZ = reading(
    "htm.r7.reading.e_z", PROOF7, printed="e^z (cases S^-_i x S^-_i and S^-_{-i} x S^0_i)", reading="e^{z/b}",
    why="Every exponent of the proof is divided by b; e^{z/b} is what the printed expansions give.",
    claims=("htm.r7.minus_in_x_minus_in.d_reduction", "htm.r7.minus_out_x_zero_in.d_reduction"))
R_PRIMES = reading(
    "htm.r7.reading.lost_primes", PROOF7,
    printed="the exponential prefactors e^{(t_{-i}(x,s) + x_i/p_i)/b} (S^0_i x S^0_i, S^-_i x S^0_i), "
            "e^{(t_{-i}(x,s') + x_i/p_i)/b} (S^-_{-i} x S^0_i, S^0_i x S^+_i: there also s printed for s'), "
            "e^{t_{-i}(x,s)/b} (S^-_{-i} x S^+_i)",
    reading="x'_i/p_i for x_i/p_i in these prefactors, i.e. the atom t(x', .) of the S^0_i / S^+_i sample "
            "(and t_{-i}(x, s') where the sample containing i is s')",
    why="With the primes restored every printed reduction is an exact identity of its class pair; the lines "
        "just above them carry the primes (OCR 'aj'); primes are the glyphs the OCR loses most often (Result 7 "
        "itself reads 'x; > z' for x_i > x'_i).",
    alternatives="Read literally, these reductions are off by the positive factor e^{(x_i - x'_i)/(p_i b)} "
                 "(or have the wrong sample index); no printed sign depends on it.",
    claims=("htm.r7.zero_in_x_zero_in.c_reduction", "htm.r7.minus_out_x_zero_in.d_reduction",
            "htm.r7.minus_out_x_plus_in.d_reduction", "htm.r7.minus_in_x_zero_in.d_reduction",
            "htm.r7.zero_in_x_plus_in.d_reduction"))
R_TWO = reading(
    "htm.r7.reading.factor_two", _loc(Sample(MINUS_IN, "s"), Sample(ZERO_IN, "s'")),
    printed="d = e^{(t_{-i}(x,s)+x_i/p_i)/b} sh((t_{-i}(x,s') + x_i/p_i - z)/b) + sh((x_i - x'_i)/(p_i b)) "
            "e^{(t_{-i}(x,s')+z-t_{-i}(x,s))/b} > (0 lost)",
    reading="the factor 2 of both terms (e^v - e^{-v} = 2 sh v), as in every other case; relation >= 0",
    why="The expansion just above is exact and equals twice the printed line; every other case prints the 2.",
    alternatives="Read literally the line is d/2 (sign unaffected).",
    claims=("htm.r7.minus_in_x_zero_in.d_reduction",))
R_CASE9 = reading(
    "htm.r7.reading.case9_relation", _loc(Sample(MINUS_OUT, "s"), Sample(PLUS_IN, "s'")),
    printed="d = 2 e^{t_{-i}(x,s)/b} (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) sh((z - t(x,s))/b)  IN  (relation garbled)",
    reading="<= 0",
    why="The reduction is <= 0 on the class pair (sh of a non-positive argument), and this is the one pair that "
        "Result 7's hypothesis (S^-_{-i} or S^+_i empty) removes, which is why the author needs it.",
    alternatives="'>= 0' would be false: b = 1, z = 0, t(x,s) = 1, t_{-i}(x,s') = -3, x_i/p_i = 1, x'_i = 0 "
                 "gives d < 0.",
    claims=("htm.r7.minus_out_x_plus_in.d_sign",))
R_HYP = reading(
    "htm.r7.reading.hypothesis", RESULT7,
    printed="If S~, =0 or §}0 , and x; > z, then argmax (...)(z) = max{t_;(z,s) : s CU,p(s) >0,s > i}. "
            "IfS~, =0 or S0 , and = > x; then ... = max{f_i(x, s): ...}",
    reading="If S^-_{-i} = empty or S^+_i = empty (for every z), and x_i > x'_i, then argmax_z of "
            "f_{Z_b|X=x,S ni i}/f_{Z_b|X=x',S ni i} is max{t_{-i}(x,s) : p(s) > 0, s ni i}; the same with "
            "x'_i > x_i in the second statement",
    why="'}' renders S^+_i in the label of case S^-_{-i} x S^+_i; that hypothesis removes exactly the pair whose d "
        "is printed <= 0. The classes depend on z while the conclusion ranges over every z, so the hypothesis "
        "is read for every z: max_{s not ni i} t(x,s) <= min_{s ni i} t(x,s).",
    alternatives="'S^0_i = empty' for the second class (it would leave the pair printed <= 0); the hypothesis "
                 "read at a single z (then the case S^-_{-i} x S^0_i fails, see the finding "
                 "htm.r7.finding.case8_uses_hypothesis). For the conditional densities of the conclusion the "
                 "classes S^-_{-i}, S^+_{-i} are empty and every reading holds vacuously.",
    claims=("htm.r7.minus_out_x_zero_in.d_sign", "htm.r7.result7_larger.printed", "htm.r7.result7_smaller.printed"))


# ==============================================================================================
# The fifteen class pairs: printed reductions (as read) and printed signs
# ==============================================================================================
PAIR_TABLE: list[dict] = []   # one row per class pair, in the paper's order


# The relation each claim checks, in words (plain-text formulas): the printed reduction as read; "(as read)"
# where a registered reading of the OCR enters (readings htm.r7.reading.*).  Two long ones use t(x, s') for
# t_{-i}(x, s') + x_i/p_i and t(x', s) for t_{-i}(x, s) + x'_i/p_i (the same quantities).
_REDUCTION_TEXT = {
    ("minus_out", "minus_out", "c"): "c(x,x',s,s') = 0",
    ("plus_out", "plus_out", "c"): "c(x,x',s,s') = 0",
    ("minus_in", "minus_in", "c"): "c = e^{z/b} e^{(t_{-i}(x,s)-t_{-i}(x,s'))/b} (e^{(x_i-x'_i)/(p_i b)} - "
                                   "e^{-(x_i-x'_i)/(p_i b)})",
    ("minus_in", "minus_in", "d"): "d = 4 ch((t_{-i}(x,s)-t_{-i}(x,s'))/b) e^{z/b} sh((x_i-x'_i)/(p_i b)) (as read)",
    ("zero_in", "zero_in", "c"): "c = 2 e^{(t_{-i}(x,s)+x'_i/p_i)/b} sh((t_{-i}(x,s')+x_i/p_i-z)/b) (as read)",
    ("plus_in", "plus_in", "c"): "c = e^{(t(x,s)+t(x',s')-z)/b} - e^{(t(x',s)+t(x,s')-z)/b}",
    ("plus_in", "plus_in", "d"): "d = 0",
    ("minus_out", "plus_out", "c"): "c(x,x',s,s') = 0",
    ("minus_out", "plus_out", "d"): "d = 0",
    ("minus_out", "minus_in", "c"): "c(x,x',s,s') = (e^{-x'_i/(p_i b)} - e^{-x_i/(p_i b)}) e^{(t(x,s)+z-t_{-i}(x,s'))/b}",
    ("minus_out", "minus_in", "c_reversed"): "c(x,x',s',s) = (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) "
                                             "e^{(t_{-i}(x,s')+z-t(x,s))/b}",
    ("minus_out", "zero_in", "d"): "d = 2 e^{t(x',s')/b} sh((t(x,s)-z)/b) + 2 e^{z/b} sh((t(x,s')-t(x,s))/b) "
                                   "(as read)",
    ("minus_out", "plus_in", "d"): "d = 2 e^{t_{-i}(x,s')/b} (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) sh((z-t(x,s))/b) "
                                   "(as read)",
    ("plus_out", "minus_in", "d"): "d = (e^{-x'_i/(p_i b)} - e^{-x_i/(p_i b)}) e^{(t(x,s)+z-t_{-i}(x,s'))/b} + "
                                   "(e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) e^{(t_{-i}(x,s')-z+t(x,s))/b}",
    ("plus_out", "zero_in", "d"): "d = 2 e^{t(x,s)/b} sh((x_i/p_i+t_{-i}(x,s')-z)/b)",
    ("plus_out", "plus_in", "d"): "d = 0 (the printed value is illegible)",
    ("minus_in", "zero_in", "d"): "d = 2 e^{t(x',s)/b} sh((t(x,s')-z)/b) + 2 sh((x_i-x'_i)/(p_i b)) "
                                  "e^{(t_{-i}(x,s')+z-t_{-i}(x,s))/b} (as read)",
    ("minus_in", "plus_in", "d"): "d = 2 sh((x_i-x'_i)/(p_i b)) e^{(t_{-i}(x,s')+z-t_{-i}(x,s))/b}",
    ("zero_in", "plus_in", "d"): "d = 2 e^{(t_{-i}(x,s')+x'_i/p_i)/b} sh((t(x,s)-z)/b) (as read)",
}
_QUANTITY = {"c": "c(x,x',s,s')", "c_reversed": "c(x,x',s',s)", "d": "d(x,x',s,s')"}


def _prefix(s: Sample, s2: Sample) -> str:
    return f"Proof of Result 7, x_i > x'_i, s in {s.cls.text}, s' in {s2.cls.text}: "


def _z_range(s: Sample, s2: Sample) -> str:
    """The class conditions of the pair in words, e.g. ``z <= t(x, s), t_{-i}(x, s') + x_i/p_i < z``: a sign
    holds on these points only."""
    ops = {"<=": "<=", "<": "<"}
    return ", ".join(f"{display(c.lhs)} {ops[c.rel_op]} {display(c.rhs)}"
                     for c in class_conditions(s) + class_conditions(s2))


def _register_pair(s, s2, reductions=(), signs=(), printed=""):
    """``reductions``: (name, lhs, printed rhs as read); ``signs``: (name, lhs, relation, certificate).
    Each is a claim on the class pair, proved through the class parametrization."""
    loc = _loc(s, s2)
    for name, lhs, rhs in reductions:
        register(Claim(
            id=f"{_pid(s, s2)}.{name}_reduction", source=loc, kind="identity", lhs=lhs, rhs=rhs,
            title=_prefix(s, s2) + _REDUCTION_TEXT[s.cls.key, s2.cls.key, name],
            conditions=pair_conditions(s, s2), proof=lambda cl, ss=(s, s2): _on_classes(cl, ss),
            note=f"d(x,x',s,s') = c(x,x',s,s') + c(x,x',s',s), c(x,x',s,s') = a(x,x',s,s') - a(x',x,s,s'), "
                 f"a(x,x',s,s') = exp((t(x,s) - |z - t(x',s')|)/b). As printed: {printed}"))
    for name, lhs, rel, cert in signs:
        read = " (relation read)" if (s.cls.key, s2.cls.key) == ("minus_out", "plus_in") else ", as printed"
        register(Claim(
            id=f"{_pid(s, s2)}.{name}_sign", source=loc, kind="sign", lhs=lhs, relation=rel,
            title=_prefix(s, s2) + f"{_QUANTITY[name]} {rel} 0 for {_z_range(s, s2)}{read}",
            conditions=pair_conditions(s, s2), proof=lambda cl, ss=(s, s2), ce=cert: _on_classes(cl, ss, ce),
            note=f"As printed: {printed}"))
    PAIR_TABLE.append(dict(pair=(s.cls.key, s2.cls.key), samples=(s, s2), printed=printed,
                           reductions=[r[0] for r in reductions], signs=[(g[0], g[2]) for g in signs]))


HALF = SH(DELTA / (2 * b))                  # sh((u - u')/(2b)) > 0
MEAN = (U + UP) / (2 * b)                   # e^{(u - u')...} differences factor through e^{(u+u')/(2b)}

# ---- 1. s, s' in S^-_{-i} ------------------------------------------------------------------------
s, s2 = _pair(MINUS_OUT, MINUS_OUT)
_register_pair(s, s2, [("c", c(s, s2), 0)], printed="c = e^{(t(x,s)+z-t(x',s'))/b} - e^{(t(x',s)+z-t(x,s'))/b} = 0")

# ---- 2. s, s' in S^+_{-i} ------------------------------------------------------------------------
s, s2 = _pair(PLUS_OUT, PLUS_OUT)
_register_pair(s, s2, [("c", c(s, s2), 0)], printed="c = 0")

# ---- 3. s, s' in S^-_i -----------------------------------------------------------------------------
s, s2 = _pair(MINUS_IN, MINUS_IN)
ts, ts2 = s.symbol, s2.symbol
_d3 = 4 * CH((ts - ts2) / b) * E(z / b) * SH(DELTA / b)
_register_pair(s, s2,
               [("c", c(s, s2), E(z / b) * (E(DELTA / b) * E((ts - ts2) / b) - E(-DELTA / b) * E((ts - ts2) / b))),
                ("d", d(s, s2), _d3)],
               [("d", d(s, s2), ">=", _d3)],
               printed="d = 4 ch((t_{-i}(x,s) - t_{-i}(x,s'))/b) e^z sh((x_i - x'_i)/(p_i b)) >= 0")

# ---- 4. s, s' in S^0_i -----------------------------------------------------------------------------
s, s2 = _pair(ZERO_IN, ZERO_IN)
ts, ts2 = s.symbol, s2.symbol
_c4 = 2 * E((ts + UP) / b) * SH((ts2 + U - z) / b)
_register_pair(s, s2, [("c", c(s, s2), _c4)], [("c", c(s, s2), ">=", _c4)],
               printed="c = 2 e^{(t_{-i}(x,s)+x_i/p_i)/b} sh((t_{-i}(x,s') + x_i/p_i - z)/b) >= 0")

# ---- 5. s, s' in S^+_i -----------------------------------------------------------------------------
s, s2 = _pair(PLUS_IN, PLUS_IN)
_register_pair(s, s2, [("c", c(s, s2), E((t_hat(s) + t_hat(s2, "x'") - z) / b) - E((t_hat(s, "x'") + t_hat(s2) - z) / b)),
                       ("d", d(s, s2), 0)],
               printed="c = e^{(t(x,s)+t(x',s')-z)/b} - e^{(t(x',s)+t(x,s')-z)/b}, d = 0")

# ---- 6. s in S^-_{-i}, s' in S^+_{-i} --------------------------------------------------------------
s, s2 = _pair(MINUS_OUT, PLUS_OUT)
_register_pair(s, s2, [("c", c(s, s2), 0), ("d", d(s, s2), 0)],
               printed="c(x,x',s,s') = 0, c(x,x',s',s) = e^{(t(x,s')+z-t(x',s))/b} - e^{(t(x',s')+z-t(x,s))/b}, d = 0")

# ---- 7. s in S^-_{-i}, s' in S^-_i -----------------------------------------------------------------
s, s2 = _pair(MINUS_OUT, MINUS_IN)
Ts, ts2 = s.symbol, s2.symbol
_c7 = (E(-UP / b) - E(-U / b)) * E((Ts + z - ts2) / b)
_c7r = (E(U / b) - E(UP / b)) * E((ts2 + z - Ts) / b)
_register_pair(s, s2, [("c", c(s, s2), _c7), ("c_reversed", c(s2, s), _c7r)],
               [("c", c(s, s2), ">=", 2 * E(-MEAN) * HALF * E((Ts + z - ts2) / b)),
                ("c_reversed", c(s2, s), ">=", 2 * E(MEAN) * HALF * E((ts2 + z - Ts) / b))],
               printed="c(x,x',s,s') = (e^{-x'_i/(p_i b)} - e^{-x_i/(p_i b)}) e^{(t(x,s)+z-t_{-i}(x,s'))/b} >= 0, "
                       "c(x,x',s',s) = (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) e^{(t_{-i}(x,s')+z-t(x,s))/b} >= 0")

# ---- 8. s in S^-_{-i}, s' in S^0_i -----------------------------------------------------------------
s8, s8b = _pair(MINUS_OUT, ZERO_IN)
Ts, ts2 = s8.symbol, s8b.symbol
_d8 = 2 * E((ts2 + UP) / b) * SH((Ts - z) / b) + 2 * E(z / b) * SH((U + ts2 - Ts) / b)
_register_pair(s8, s8b, [("d", d(s8, s8b), _d8)],
               printed="d = e^{(t_{-i}(x,s')+x_i/p_i)/b} (2 sh((t(x,s) - z)/b)) + 2 e^z sh((x_i/p_i + t_{-i}(x,s') "
                       "- t(x,s))/b) >= 0 'because the arguments passed to the sh functions are positive'")

# ---- 9. s in S^-_{-i}, s' in S^+_i -----------------------------------------------------------------
s, s2 = _pair(MINUS_OUT, PLUS_IN)
Ts, ts2 = s.symbol, s2.symbol
_register_pair(s, s2, [("d", d(s, s2), 2 * E(ts2 / b) * (E(U / b) - E(UP / b)) * SH((z - Ts) / b))],
               [("d", d(s, s2), "<=", -4 * E(ts2 / b) * E(MEAN) * HALF * SH((Ts - z) / b))],
               printed="d = 2 e^{t_{-i}(x,s)/b} (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) sh((z - t(x,s))/b) IN 0")

# ---- 10. s in S^+_{-i}, s' in S^-_i ----------------------------------------------------------------
s, s2 = _pair(PLUS_OUT, MINUS_IN)
Ts, ts2 = s.symbol, s2.symbol
_register_pair(s, s2,
               [("d", d(s, s2), (E(-UP / b) - E(-U / b)) * E((Ts + z - ts2) / b) + (E(U / b) - E(UP / b)) * E((ts2 - z + Ts) / b))],
               [("d", d(s, s2), ">=", 2 * HALF * (E(-MEAN) * E((Ts + z - ts2) / b) + E(MEAN) * E((ts2 - z + Ts) / b)))],
               printed="d = (e^{-x'_i/(p_i b)} - e^{-x_i/(p_i b)}) e^{(t(x,s)+z-t_{-i}(x,s'))/b} "
                       "+ (e^{x_i/(p_i b)} - e^{x'_i/(p_i b)}) e^{(t_{-i}(x,s')-z+t(x,s))/b} >= 0")

# ---- 11. s in S^+_{-i}, s' in S^0_i ----------------------------------------------------------------
s, s2 = _pair(PLUS_OUT, ZERO_IN)
Ts, ts2 = s.symbol, s2.symbol
_d11 = 2 * E(Ts / b) * SH((U + ts2 - z) / b)
_register_pair(s, s2, [("d", d(s, s2), _d11)], [("d", d(s, s2), ">=", _d11)],
               printed="d = 2 e^{t(x,s)/b} sh((x_i/p_i + t_{-i}(x,s') - z)/b) >= 0")

# ---- 12. s in S^+_{-i}, s' in S^+_i ----------------------------------------------------------------
s, s2 = _pair(PLUS_OUT, PLUS_IN)
_register_pair(s, s2, [("d", d(s, s2), 0)],
               printed="d = e^{(t(x,s)-z+t(x',s'))/b} - e^{(t(x',s)-z+t(x,s'))/b} + e^{(t(x,s')-z+t(x',s))/b} "
                       "- e^{(t(x',s')-z+t(x,s))/b} (the value after the expansion is not legible; it cancels to 0)")

# ---- 13. s in S^-_i, s' in S^0_i -------------------------------------------------------------------
s, s2 = _pair(MINUS_IN, ZERO_IN)
ts, ts2 = s.symbol, s2.symbol
_d13 = 2 * E((ts + UP) / b) * SH((ts2 + U - z) / b) + 2 * SH(DELTA / b) * E((ts2 + z - ts) / b)
_register_pair(s, s2, [("d", d(s, s2), _d13)], [("d", d(s, s2), ">=", _d13)],
               printed="d = e^{(t_{-i}(x,s)+x_i/p_i)/b} sh((t_{-i}(x,s') + x_i/p_i - z)/b) "
                       "+ sh((x_i - x'_i)/(p_i b)) e^{(t_{-i}(x,s')+z-t_{-i}(x,s))/b} >")

# ---- 14. s in S^-_i, s' in S^+_i -------------------------------------------------------------------
s, s2 = _pair(MINUS_IN, PLUS_IN)
ts, ts2 = s.symbol, s2.symbol
_d14 = 2 * SH(DELTA / b) * E((ts2 + z - ts) / b)
_register_pair(s, s2, [("d", d(s, s2), _d14)], [("d", d(s, s2), ">=", _d14)],
               printed="d = 2 sh((x_i - x'_i)/(p_i b)) e^{(t_{-i}(x,s')+z-t_{-i}(x,s))/b} >=")

# ---- 15. s in S^0_i, s' in S^+_i -------------------------------------------------------------------
s, s2 = _pair(ZERO_IN, PLUS_IN)
ts, ts2 = s.symbol, s2.symbol
_d15 = 2 * E((ts2 + UP) / b) * SH((ts + U - z) / b)
_register_pair(s, s2, [("d", d(s, s2), _d15)], [("d", d(s, s2), ">=", _d15)],
               printed="d = 2 e^{(t_{-i}(x,s)+x_i/p_i)/b} sh((t(x,s) - z)/b) >= 0")


# -- the sign of case 8: what the class pair gives, and what the hypothesis adds ---------------------
def _prove_case8_sign(claim: Claim):
    """On S^-_{-i} x S^0_i with t(x,s) <= t(x,s'): t(x,s) = z + w, t(x',s') = z - g, t(x,s') = z + w + m."""
    g = sp.Symbol("g", positive=True)
    w, m = sp.Symbol("w", nonnegative=True), sp.Symbol("m", nonnegative=True)
    fwd = {x_i: xp_i + p_i * (g + w + m), s8b.symbol: z - UP - g, s8.symbol: z + w}
    inv = {g: z - s8b.symbol - UP, w: s8.symbol - z, m: s8b.symbol + U - s8.symbol}
    return conclude(claim, param=Parametrization(fwd, inv), certificate=_d8)


CASE8_SIGN = register(Claim(
    id="htm.r7.minus_out_x_zero_in.d_sign", source=_loc(s8, s8b), kind="sign", lhs=d(s8, s8b), relation=">=",
    title="Proof of Result 7, x_i > x'_i, s in S^-_{-i}, s' in S^0_i, t(x,s) <= t(x,s'): d(x,x',s,s') >= 0",
    conditions=pair_conditions(s8, s8b) + (sp.Le(t_atom(s8), t_atom(s8b)),), proof=_prove_case8_sign,
    note="d = 2 e^{t(x',s')/b} sh((t(x,s) - z)/b) + 2 e^{z/b} sh((t(x,s') - t(x,s))/b): the first sh argument is "
         ">= 0 on the class pair, the second exactly when t(x,s) <= t(x,s'). Result 7's hypothesis, read for every z "
         "(reading htm.r7.reading.hypothesis), gives t(x,s) <= t(x,s')."))
_WITNESS = {b: sp.Integer(1), z: sp.Integer(0), s8.symbol: sp.Integer(1), p_i: sp.Rational(1, 2), x_i: sp.Integer(5),
            xp_i: sp.Integer(0), s8b.symbol: sp.Rational(-99, 10)}
CASE8_WITNESS = register(Claim(
    id="htm.r7.minus_out_x_zero_in.d_negative_witness", source=_loc(s8, s8b), kind="inequality",
    lhs=release(d(s8, s8b)).subs(_WITNESS), rhs=0, relation="<",
    title="Proof of Result 7: d(x,x',s,s') < 0 at b = 1, z = 0, t(x,s) = 1 (s without i), p_i = 1/2, x_i = 5, "
          "x'_i = 0, t_{-i}(x,s') = -9.9",
    proof=conclude_evaluation,
    note="The point lies in the class pair s in S^-_{-i}, s' in S^0_i (S^-_{-i}: z = 0 <= t(x,s) = 1; S^0_i: "
         "t(x',s') = -9.9 < z <= t(x,s') = 0.1), so on that class pair alone d can be negative; the point "
         "does not satisfy Result 7's hypothesis read for every z (t(x,s) > t(x,s')). d = 2 e^{-9.9} sh 1 + 2 sh(-0.9) = -2.05."))
finding(
    "htm.r7.finding.case8_uses_hypothesis", _loc(s8, s8b),
    "In the case s in S^-_{-i}, s' in S^0_i the printed reduction is exact (after the readings e^z -> e^{z/b} and "
    "a lost prime), and d >= 0 is justified by 'the arguments passed to the sh functions are positive'. The first "
    "argument (t(x,s) - z)/b is positive on the class pair; the second, (t(x,s') - t(x,s))/b, only when "
    "t(x,s) <= t(x,s'), which the class pair alone does not give (claim htm.r7.minus_out_x_zero_in.d_negative_witness: "
    "d = -2.05 at a point of the class pair). Result 7's hypothesis 'S^-_{-i} or S^+_i is empty', read for every z, "
    "is max_{s not ni i} t(x,s) <= min_{s ni i} t(x,s) and gives it (claim htm.r7.minus_out_x_zero_in.d_sign). "
    "The text does not invoke the hypothesis at this step; read at a single z instead, the step fails.",
    claims=("htm.r7.minus_out_x_zero_in.d_sign", "htm.r7.minus_out_x_zero_in.d_negative_witness"))


# ==============================================================================================
# The display before "o.s.s.a.": R(zbar) - R(z) has the sign of sum p(s) p(s') c(x, x', s, s')
# ==============================================================================================
K = sp.Symbol("K", integer=True, positive=True)           # the number of samples of the design
j_, l_ = sp.symbols("j l", integer=True, positive=True)
q = sp.IndexedBase("q", positive=True)                    # p(s_k)
tx = sp.IndexedBase(r"\hat t", real=True)                 # t(x, s_k)
txp = sp.IndexedBase(r"\hat t'", real=True)               # t(x', s_k)


def _sum(f, k=j_):
    return sp.Sum(f, (k, 1, K))


F_X, F_XP = _sum(q[j_] * E(tx[j_] / b)), _sum(q[j_] * E(txp[j_] / b))               # b-scaled right-tail sums
G_X, G_XP = _sum(q[j_] * E(-sp.Abs(z - tx[j_]) / b)), _sum(q[j_] * E(-sp.Abs(z - txp[j_]) / b))  # 2b f_x, 2b f_x'
SUM_C = sp.Sum(q[j_] * q[l_] * (E((tx[j_] - sp.Abs(z - txp[l_])) / b) - E((txp[j_] - sp.Abs(z - tx[l_])) / b)),
               (l_, 1, K), (j_, 1, K))
register(Claim(
    id="htm.r7.same_sign_as_sum_c", source=PROOF7, kind="identity",
    title="Proof of Result 7, any design with K samples: R(zbar) - R(z) = sum_{s,s'} p(s)p(s') c(x,x',s,s') / "
          "(F_x' G_x'(z))",
    lhs=F_X / F_XP - G_X / G_XP, rhs=SUM_C / (F_XP * G_XP),
    note="Any design with K samples s_1..s_K of probabilities q_k > 0, atoms t(x, s_k) and t(x', s_k). "
         "R(zbar) = F_x/F_x' is the ratio right of every atom (F = sum_s p(s) e^{t(., s)/b}: the right tail of "
         "Result 6), R(z) = G_x(z)/G_x'(z) with G = 2b f. The identity is that of finite sums (linearity). With "
         "htm.r7.same_sign_denominator (the denominator is positive) the two sides have the same sign: the "
         "'o.s.s.a.' step of the proof."))
register(Claim(
    id="htm.r7.same_sign_denominator", source=PROOF7, kind="sign", lhs=F_XP * G_XP, relation=">",
    title="Proof of Result 7: the factor F_x' G_x'(z) relating R(zbar) - R(z) to sum p p' c is positive",
    proof=conclude,
    note="Sums of K >= 1 positive terms (q_k > 0, exponentials > 0)."))


# ==============================================================================================
# Result 7 for the densities conditional on i in S
# ==============================================================================================
tau = sp.IndexedBase(r"t_{-i}", real=True)                # t_{-i}(x, s_k), s_k the samples containing i


def _gap(direction: int) -> sp.Expr:
    """|x_i - x'_i|/p_i for x_i > x'_i (direction 1) or x_i < x'_i (direction -1)."""
    return direction * DELTA


def _term(k, direction: int) -> sp.Expr:
    """q_k (e^{|x_i - x'_i|/(p_i b)} k(z, t(x', s_k)) - k(z, t(x, s_k))), k(z, t) = exp(-|z - t|/b)."""
    return q[k] * (E(_gap(direction) / b) * E(-sp.Abs(z - tau[k] - UP) / b) - E(-sp.Abs(z - tau[k] - U) / b))


def _order(direction: int) -> tuple:
    return (sp.Lt(xp_i, x_i),) if direction > 0 else (sp.Lt(x_i, xp_i),)


def _gap_param(direction: int, extra_fwd=None, extra_inv=None) -> Parametrization:
    dd = sp.Symbol("D", positive=True)
    fwd = {x_i: xp_i + direction * p_i * dd, **(extra_fwd or {})}
    return Parametrization(fwd, {dd: _gap(direction), **(extra_inv or {})})


TAU_T, Q_T = term_symbol(tau[j_]), term_symbol(q[j_])   # one term's t_{-i}(x, s) and p(s), as conclude_termwise names them


def _prove_term_bound(term: Claim, direction: int):
    """One term is >= 0 on each piece of the line of z cut at its two atoms."""
    near, far = (TAU_T + UP, TAU_T + U) if direction > 0 else (TAU_T + U, TAU_T + UP)
    g = _gap(direction)
    # outside the atoms the term is 2 q e^{-(distance to the x' atom)/b} sh(gap/b) on the x' side and 0
    # on the x side; between them it is 2 q sh(distance to the x atom / b)
    certs = [2 * Q_T * E(-(near - z) / b) * SH(g / b), 2 * Q_T * SH((far - z) / b), 0] if direction > 0 else \
        [0, 2 * Q_T * SH((z - near) / b), 2 * Q_T * E(-(z - far) / b) * SH(g / b)]
    return conclude_cases(term, z, [near, far], param=_gap_param(direction), certificates=certs)


def _prove_term_attained(term: Claim, direction: int):
    """At or beyond the atom of x (right of it for x_i > x'_i, left for x_i < x'_i) the term is 0."""
    h = sp.Symbol("h", nonnegative=True)
    dd = sp.Symbol("D", positive=True)
    fwd = {z: TAU_T + (xp_i + direction * p_i * dd) / p_i + direction * h}
    return conclude(term, param=_gap_param(direction, fwd, {h: direction * (z - TAU_T - U)}))


def _prove_term_strict(claim: Claim, direction: int):
    near, far = (TAU_T + UP, TAU_T + U) if direction > 0 else (TAU_T + U, TAU_T + UP)
    g = _gap(direction)
    certs = [2 * Q_T * E(-(near - z) / b) * SH(g / b), 2 * Q_T * SH((far - z) / b), None] if direction > 0 else \
        [None, 2 * Q_T * SH((z - near) / b), 2 * Q_T * E(-(z - far) / b) * SH(g / b)]
    return conclude_cases(claim, z, [near, far], param=_gap_param(direction), certificates=certs,
                          closed="left" if direction > 0 else "right")


_R7_NOTE = ("Densities conditional on i in S: f_{Z|X=x,S ni i}(z) = sum_k q_k k(z, t(x, s_k)) / (2b), the sum over the "
            "K samples s_k containing i, q_k = p(s_k)/p_i; t(x, s_k) = t_{-i}(x, s_k) + x_i/p_i. The statement is "
            "e^{|x_i-x'_i|/(p_i b)} f_{x'} - f_x <= / = / > 0, i.e. R_i = f_x/f_x' against its supremum.")
RESULT7_LARGER_BOUND = register(Claim(
    id="htm.r7.result7_larger_bound", source=RESULT7, kind="sign", lhs=_sum(_term(j_, 1)), relation=">=",
    title="Result 7 corrected, x_i > x'_i: given i in S, f_x(z) <= e^{(x_i-x'_i)/(p_i b)} f_x'(z) for every z",
    conditions=_order(1), proof=lambda cl: conclude_termwise(cl, lambda t: _prove_term_bound(t, 1)), note=_R7_NOTE))
RESULT7_SMALLER_BOUND = register(Claim(
    id="htm.r7.result7_smaller_bound", source=RESULT7, kind="sign", lhs=_sum(_term(j_, -1)), relation=">=",
    title="Result 7 corrected, x_i < x'_i: given i in S, f_x(z) <= e^{(x'_i-x_i)/(p_i b)} f_x'(z) for every z",
    conditions=_order(-1), proof=lambda cl: conclude_termwise(cl, lambda t: _prove_term_bound(t, -1)), note=_R7_NOTE))
register(Claim(
    id="htm.r7.result7_larger_strict", source=RESULT7, kind="sign", lhs=_term(j_, 1).xreplace(
        {tau[j_]: TAU_T, q[j_]: Q_T}), relation=">",
    title="Result 7 corrected, x_i > x'_i, one sample s ni i, z < t(x,s): q_s (e^{(x_i-x'_i)/(p_i b)} "
          "e^{-|z-t(x',s)|/b} - e^{-|z-t(x,s)|/b}) > 0",
    conditions=_order(1) + (sp.Lt(z, TAU_T + U),), proof=lambda cl: _prove_term_strict(cl, 1),
    note=_R7_NOTE + " One term of the sum of htm.r7.result7_larger_bound: as every term is >= 0, the bound is strict "
                    "for z < max_{s ni i} t(x, s)."))
register(Claim(
    id="htm.r7.result7_smaller_strict", source=RESULT7, kind="sign", lhs=_term(j_, -1).xreplace(
        {tau[j_]: TAU_T, q[j_]: Q_T}), relation=">",
    title="Result 7 corrected, x_i < x'_i, one sample s ni i, z > t(x,s): q_s (e^{(x'_i-x_i)/(p_i b)} "
          "e^{-|z-t(x',s)|/b} - e^{-|z-t(x,s)|/b}) > 0",
    conditions=_order(-1) + (sp.Gt(z, TAU_T + U),), proof=lambda cl: _prove_term_strict(cl, -1),
    note=_R7_NOTE + " One term of the sum of htm.r7.result7_smaller_bound: as every term is >= 0, the bound is "
                    "strict for z > min_{s ni i} t(x, s)."))


def _attained(direction: int) -> Claim:
    side = "z >= t(x, s) for every s ni i (z >= max_{s ni i} t(x, s))" if direction > 0 else \
        "z <= t(x, s) for every s ni i (z <= min_{s ni i} t(x, s))"
    rel = sp.Ge(z, tau[j_] + U) if direction > 0 else sp.Le(z, tau[j_] + U)
    key = "larger" if direction > 0 else "smaller"
    return Claim(
        id=f"htm.r7.result7_{key}", source=RESULT7, kind="identity", lhs=_sum(_term(j_, direction)), rhs=0,
        title=f"Result 7 corrected, x_i {'>' if direction > 0 else '<'} x'_i: given i in S, f_x(z) = "
              f"e^{{|x_i-x'_i|/(p_i b)}} f_x'(z) when {side}",
        conditions=_order(direction) + (rel,),
        proof=lambda cl: conclude_termwise(cl, lambda t: _prove_term_attained(t, direction)),
        enumeration=lambda: _result7_conditional(direction > 0),
        note=_R7_NOTE + " With htm.r7.result7_%s_bound, e^{|x_i-x'_i|/(p_i b)} is the supremum of the ratio, and "
                        "with htm.r7.result7_%s_strict it is attained exactly there (the argmax of Result 7). The "
                        "enumeration checks that argmax on small designs with exact rational values." % (key, key))


def _cases(designs=DESIGNS, bases=BASES):
    for name, design, grid in designs:
        units = sorted(inclusion(design))
        for r in (bases if name.startswith("SRS N=4") else bases[:1]):
            for x in itertools.product(grid, repeat=len(units)):
                for i in units:
                    for v in grid:
                        if v != x[i]:
                            xp = list(x)
                            xp[i] = v
                            yield name, design, x, tuple(xp), i, r


def _result7_conditional(larger: bool) -> Enumeration:
    """The argmax of the conditional ratio, exactly, on every design, unit and pair of values of the grids."""
    n = printed_ok = 0
    for name, design, x, xp, i, r in _cases():
        if (x[i] > xp[i]) != larger:
            continue
        pi = inclusion(design)
        printed = max(ht(x, s - {i}, pi) for p, s in design if p > 0 and i in s)
        R = ExactRatio(design, x, xp, r, only_with=i, extra_points=[printed])
        sup = R.power(abs(Fraction(x[i] - xp[i]) / pi[i]))
        zstar = max(R.ax) if larger else min(R.ax)
        vals = {a: R.value(a) for a in R.atoms()}
        n += 1
        bad = None
        if cmp_ratio(R.value(zstar), sup) != 0:
            bad = "the ratio at the corrected point is not e^{|x_i - x'_i|/(p_i b)}"
        elif any(cmp_ratio(v, sup) > 0 for v in vals.values()):
            bad = "the ratio exceeds e^{|x_i - x'_i|/(p_i b)} at an atom"
        elif any(cmp_ratio(v, sup) == 0 for a, v in vals.items() if (a < zstar if larger else a > zstar)):
            bad = "an atom beyond the corrected point attains the supremum"
        if bad:
            return Enumeration(False, n, bad, {"design": name, "x": str(x), "x'": str(xp), "i": str(i), "r": str(r)},
                               scope=_SCOPE)
        printed_ok += cmp_ratio(R.value(Fraction(printed)), sup) == 0
    return Enumeration(True, n, f"the printed point max t_{{-i}}(x,s) is a maximiser in {printed_ok} of {n} cases",
                       scope=_SCOPE)


_SCOPE = ("designs " + "; ".join(d[0] for d in DESIGNS) + "; every unit and pair of grid values; "
          "b = 1/(M ln r), r in {2, 3/2}, exact rationals")
RESULT7_LARGER, RESULT7_SMALLER = _attained(1), _attained(-1)


# -- the printed statements, evaluated on the design p({1}) = p({1, 2}) = 1/2 (N = 2, unit i = 1): every
# sample contains unit 1 (p_1 = 1, p_2 = 1/2), so every class of samples without i is empty and the
# hypothesis of Result 7 holds under any reading of it; t(x, {1}) = x_1, t(x, {1, 2}) = x_1 + 2 x_2,
# t_{-1}(x, {1}) = 0 and t_{-1}(x, {1, 2}) = 2 x_2.
_x1, _x2 = sp.symbols("x_1 x_2", real=True)
_xp1 = sp.Symbol("x'_1", real=True)


def _two_unit_ratio(zz, v1, v1_prime, v2):
    """f_x(zz)/f_x'(zz) for p({1}) = p({1, 2}) = 1/2 (the equal probabilities and 1/(2b) cancel)."""
    def f(v):
        return sp.exp(-sp.Abs(zz - v) / b) + sp.exp(-sp.Abs(zz - v - 2 * v2) / b)
    return f(v1) / f(v1_prime)


_Rc = _two_unit_ratio(z, _x1, _xp1, _x2)
_printed_point = sp.Max(0, 2 * _x2, evaluate=False)                     # max_{s ni 1} t_{-1}(x, s)
_CONSEQUENCE = ("The printed statement says that max t_{-i}(x,s) is a maximiser, so the ratio there is at least "
                "its value at any atom; lhs: the ratio at the printed point, rhs: at the atom %s. On this design "
                "every sample contains unit 1, so the hypothesis of Result 7 (classes of samples without i empty) "
                "holds under any reading.")
_WHY_R7 = ("For the densities conditional on i in S, each sample's kernel satisfies k(z,t(x,s)) <= "
           "e^{(x_i-x'_i)/(p_i b)} k(z,t(x',s)) with equality iff z >= t(x,s) (htm.r7.result7_larger_bound, "
           "htm.r7.result7_larger_strict), so the ratio's maximum "
           "e^{(x_i-x'_i)/(p_i b)} is attained exactly for z >= max_s t(x,s) = max_s t_{-i}(x,s) + x_i/p_i. The "
           "printed max t_{-i}(x,s) omits x_i/p_i; it is a maximiser only when x_i <= 0. Counterexample, on a "
           "design where every sample contains unit 1 (p({1}) = p({1, 2}) = 1/2, so the hypothesis holds under "
           "any reading): x = (1, 1), x'_1 = 0, b = 1; at the printed point z = 2 the ratio is "
           "2e^{-1}/(1 + e^{-2}) = 0.648, while it equals e from z = 3 on.")
erratum("htm.r7.result7_larger",
        printed=Claim(id="htm.r7.result7_larger.printed",
                      title="Result 7 as printed, x_i > x'_i, p({1}) = p({1,2}) = 1/2, i = 1: R(max_{s ni 1} "
                            "t_{-1}(x,s)) >= R(t(x,{1,2})), R = f_x/f_x'",
                      source=RESULT7, kind="inequality", lhs=_Rc.subs(z, _printed_point), relation=">=",
                      rhs=_Rc.subs(z, _x1 + 2 * _x2), conditions=(sp.Lt(_xp1, _x1),),
                      counterexample={_x1: sp.Integer(1), _x2: sp.Integer(1), _xp1: sp.Integer(0), b: sp.Integer(1)},
                      note=_CONSEQUENCE % "t(x, {1, 2}) = x_1 + 2 x_2"),
        corrected=RESULT7_LARGER, explanation=_WHY_R7,
        printed_text="Result 7. If S^-_{-i} = [empty] or S^+_i = [empty], and x_i > [x'_i], then "
                     "argmax_{z in R} [(f_{Z_b|X=x, S ni i}/f_{Z_b|X=x', S ni i})](z) = "
                     "max{[t_{-i}(x, s)] : s subset of U, p(s) > 0, s [ni] i}.",
        corrected_text="If x_i > x'_i, then f_{Z_b|X=x, S ni i}(z) = e^{(x_i - x'_i)/(p_i b)} f_{Z_b|X=x', S ni i}(z) "
                       "for every z >= max{t(x, s) : s subset of U, p(s) > 0, s ni i} = "
                       "max{t_{-i}(x, s) : s subset of U, p(s) > 0, s ni i} + x_i/p_i.")
erratum("htm.r7.result7_smaller",
        printed=Claim(id="htm.r7.result7_smaller.printed",
                      title="Result 7 as printed, x'_i > x_i, p({1}) = p({1,2}) = 1/2, i = 1: R(max_{s ni 1} "
                            "t_{-1}(x,s)) >= R(t(x,{1})), R = f_x/f_x'",
                      source=RESULT7, kind="inequality", lhs=_Rc.subs(z, _printed_point), relation=">=",
                      rhs=_Rc.subs(z, _x1), conditions=(sp.Lt(_x1, _xp1),),
                      counterexample={_x1: sp.Integer(-1), _x2: sp.Integer(1), _xp1: sp.Integer(0), b: sp.Integer(1)},
                      note=_CONSEQUENCE % "t(x, {1}) = x_1"),
        corrected=RESULT7_SMALLER,
        printed_text="If S^-_{-i} = [empty] or S^+_i = [empty], and [x'_i] > x_i then "
                     "argmax_{z in R} [(f_{Z_b|X=x, S ni i}/f_{Z_b|X=x', S ni i})](z) = "
                     "max{[t_{-i}](x, s) : s subset of U, p(s) > 0, s [ni] i}.",
        corrected_text="If x'_i > x_i, then f_{Z_b|X=x, S ni i}(z) = e^{(x'_i - x_i)/(p_i b)} f_{Z_b|X=x', S ni i}(z) "
                       "for every z <= min{t(x, s) : s subset of U, p(s) > 0, s ni i} = "
                       "min{t_{-i}(x, s) : s subset of U, p(s) > 0, s ni i} + x_i/p_i.",
        explanation="For x'_i > x_i the bound runs the other way: the maximum e^{(x'_i-x_i)/(p_i b)} is attained "
                    "exactly for z <= min_s t(x,s) = min_s t_{-i}(x,s) + x_i/p_i, a minimum, not the printed "
                    "maximum of t_{-i}(x,s). Counterexample on the same design (p({1}) = p({1, 2}) = 1/2): "
                    "x = (-1, 1), x'_1 = 0, b = 1; at the printed point z = max(0, 2) = 2 the ratio is e^{-1}, "
                    "while it equals e for z <= -1. The point is no maximiser under the reading 'min' either: "
                    "at min t_{-i}(x,s) = 0 the ratio is 2e^{-1}/(1 + e^{-2}) = 0.648.")


