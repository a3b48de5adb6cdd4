"""The induction conclusion: an identity over every integer m >= m0 from a mechanical base and a mechanical step.

Each negative control is a statement the conclusion must not prove: a false base (the step alone holds),
a false step (the base alone holds), a range that reaches below the start, a condition that the step would
leave, an inequality.  The true identities are classical (Gauss's sum, the sum of odd numbers, a telescoping
sum, and a double sum rearranged into pairs, as in Lemma 4.2 of k-randomization)."""
from __future__ import annotations

import sympy as sp

from derivations.engine.core import Claim, Source, verify_inline
from derivations.engine.proofs import _peeled, conclude_induction

SRC = Source("test", "induction")
i, j = sp.symbols("i j", integer=True, positive=True)
m = sp.Symbol("m", integer=True, positive=True)
m0 = sp.Symbol("m", integer=True, nonnegative=True)
a = sp.IndexedBase("a", positive=True)


def _claim(lhs, rhs, var=m, start=1, conditions=(), relation="=="):
    return Claim(id="t.induction", title="", source=SRC, kind="identity" if relation == "==" else "inequality",
                 lhs=lhs, rhs=rhs, relation=relation, conditions=conditions,
                 proof=lambda c: conclude_induction(c, var, start))


def test_true_identities_are_proved_by_induction():
    gauss = _claim(sp.Sum(i, (i, 1, m)), m * (m + 1) / 2)
    odd = _claim(sp.Sum(2 * i - 1, (i, 1, m)), m**2)
    telescoping = _claim(sp.Sum(a[i + 1] - a[i], (i, 1, m)), a[m + 1] - a[1])
    assert [verify_inline(c).label for c in (gauss, odd, telescoping)] == ["PROVED"] * 3


def test_double_sum_over_pairs():
    """sum_{i,j <= m} a_i a_j (i - j)^2 = 2 sum_{i<j} a_i a_j (i - j)^2 (the diagonal vanishes)."""
    term = a[i] * a[j] * (i - j)**2
    c = _claim(sp.Sum(term, (j, 1, m), (i, 1, m)), 2 * sp.Sum(term, (j, i + 1, m), (i, 1, m)))
    assert verify_inline(c).label == "PROVED"
    false = _claim(sp.Sum(term, (j, 1, m), (i, 1, m)), sp.Sum(term, (j, i + 1, m), (i, 1, m)))
    assert not verify_inline(false).holds


def test_false_base_is_not_proved():
    """sum_{i<=m} i = m(m+1)/2 + 1: the step holds (both sides grow by m + 1), the base does not."""
    c = _claim(sp.Sum(i, (i, 1, m)), m * (m + 1) / 2 + 1)
    p = conclude_induction(c, m, 1)
    assert not p.ok and any("base" in st.text and "not shown" in st.text for st in p.steps)
    assert not verify_inline(c).holds


def test_false_step_is_not_proved():
    """sum_{i<=m} i = m^2: true at m = 1 (1 = 1), the step fails (m + 1 against 2m + 1)."""
    c = _claim(sp.Sum(i, (i, 1, m)), m**2)
    p = conclude_induction(c, m, 1)
    assert not p.ok and any("step" in st.text and "not shown" in st.text for st in p.steps)
    assert not verify_inline(c).holds


def test_range_below_the_start_is_refused():
    """m >= 0 declared, induction from 1: m = 0 is not covered.  With the condition m >= 1 it is."""
    c = _claim(sp.Sum(i, (i, 1, m0)), m0 * (m0 + 1) / 2, var=m0, start=1)
    assert not conclude_induction(c, m0, 1).ok
    stated = _claim(sp.Sum(i, (i, 1, m0)), m0 * (m0 + 1) / 2, var=m0, start=1, conditions=(sp.Ge(m0, 1),))
    assert verify_inline(stated).label == "PROVED"


def test_other_conditions_on_the_variable_are_refused():
    """A condition m <= 5 would be left by the step m -> m + 1."""
    c = _claim(sp.Sum(i, (i, 1, m)), m * (m + 1) / 2, conditions=(sp.Le(m, 5),))
    assert not conclude_induction(c, m, 1).ok


def test_inequalities_and_non_integer_variables_are_refused():
    c = _claim(sp.Sum(i, (i, 1, m)), m * (m + 1) / 2, relation="<=")
    assert not conclude_induction(c, m, 1).ok
    x = sp.Symbol("x", positive=True)
    c = _claim(x**2 + x, x * (x + 1), var=x)
    assert not conclude_induction(c, x, 1).ok


def test_peeling_is_karr_summation():
    """The peeled form at m + 1 equals the sums at m + 1, checked by writing both out for m = 0..5 (including
    the empty and reversed ranges of Karr's convention)."""
    f = a[i] * (j - i)
    expr = sp.Sum(sp.Sum(f, (j, i + 1, m)), (i, 1, m)) + sp.Sum(a[i], (i, m, 2 * m))
    peeled = _peeled(expr, m)
    for mm in range(0, 6):
        want = expr.subs(m, mm + 1).doit()
        got = peeled.subs(m, mm).doit()
        assert sp.expand(want - got) == 0, mm


# -- sums over pairs (conclude_pair_sum), whose identity is proved by induction ---------------------------------
def _pair_claim(relation, certificate):
    from derivations.engine.proofs import conclude, conclude_pair_sum

    lhs, rhs = sp.Sum(a[i], (i, 1, m))**2, sp.Sum(a[i]**2, (i, 1, m))
    return Claim(id="t.pairs", title="", source=SRC, kind="inequality", lhs=lhs, rhs=rhs, relation=relation,
                 proof=lambda c: conclude_pair_sum(c, 1, certificate, m, 1, conclude))


def test_square_of_a_sum_over_pairs():
    """(sum a_i)^2 - sum a_i^2 = sum_{i<j} 2 a_i a_j >= 0 for positive a_i, every m.  Controls: the reversed
    relation (each pair term would have to be <= 0), a certificate without the factor 2 (the step of the
    identity fails) and a certificate that includes the diagonal j = i are not proved."""
    pairs = sp.Sum(2 * a[i] * a[j], (j, i + 1, m), (i, 1, m))
    assert verify_inline(_pair_claim(">=", pairs)).label == "PROVED"
    assert not verify_inline(_pair_claim("<=", pairs)).holds
    half = sp.Sum(a[i] * a[j], (j, i + 1, m), (i, 1, m))
    assert not verify_inline(_pair_claim(">=", half)).holds
    not_pairs = sp.Sum(2 * a[i] * a[j], (j, i, m), (i, 1, m))          # j from i: the diagonal is included
    assert not verify_inline(_pair_claim(">=", not_pairs)).holds
