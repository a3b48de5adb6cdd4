"""Independent checks of Result 10 (000_3f4b38deb4c4e7bd.txt, Section 2.4) and of the labels of its claims.

Reference: brute force over every sample of random small designs (2 to 5 units, random rational sample
probabilities, some samples of probability 0), in exact Fractions: the conditional law of S given i in S (or
i not in S) is p(s)/P(A) on the samples of A, and the conditional mean and variance of the Horvitz-Thompson
estimate t(x, s) = sum_{j in s} x_j/p_j are computed from it by definition.  The claims' two sides are then
evaluated exactly on the same design (SymPy sums over 1..M expanded for the concrete M, every inclusion
probability substituted), so both the left side (the moment expanded by linearity) and the printed closed
form are tested.  No tolerance: every comparison is exact.
"""
from __future__ import annotations

import itertools
import random
import zlib
from fractions import Fraction

import pytest
import sympy as sp

import derivations
from derivations.engine.core import Claim, verify_inline
from derivations.engine.notation import release
from derivations.ht_mechanism import conditional as C


# -- the reference: random designs and brute-force conditional moments ---------------------------------------
def random_design(rng: random.Random, N: int) -> dict[frozenset, Fraction]:
    """A design on units 0..N-1: random weights on a random set of samples, every unit with p_j > 0."""
    subsets = [frozenset(s) for r in range(N + 1) for s in itertools.combinations(range(N), r)]
    while True:
        w = {s: Fraction(rng.randint(1, 9)) for s in subsets if rng.random() < 0.6}
        if w and all(any(u in s for s in w) for u in range(N)):
            total = sum(w.values())
            return {s: v / total for s, v in w.items()}


def inclusion(design, units) -> Fraction:
    return sum((pr for s, pr in design.items() if set(units) <= s), Fraction(0))


def brute_moments(design, x, i, inside: bool) -> tuple[Fraction, Fraction]:
    """E and Var of t(x, S) given i in S (inside) or i not in S, every sample enumerated."""
    N = len(x)
    p = [inclusion(design, (u,)) for u in range(N)]
    group = {s: pr for s, pr in design.items() if (i in s) == inside}
    mass = sum(group.values())
    t = {s: sum((Fraction(x[u]) / p[u] for u in s), Fraction(0)) for s in group}
    mean = sum(pr * t[s] for s, pr in group.items()) / mass
    var = sum(pr * (t[s] - mean) ** 2 for s, pr in group.items()) / mass
    return mean, var


def _q(v: Fraction) -> sp.Rational:
    return sp.Rational(v.numerator, v.denominator)


def evaluate(expr, design, x, i):
    """The claim's expression on this design: units other than i numbered 1..M in increasing order."""
    N = len(x)
    others = [u for u in range(N) if u != i]
    M = len(others)
    e = expr.subs(C.M, M).doit()
    values = {C.x_i: x[i], C.p_i: _q(inclusion(design, (i,)))}
    for a, ua in enumerate(others, start=1):
        values[C.x[a]] = x[ua]
        values[C.p[a]] = _q(inclusion(design, (ua,)))
        values[C.p_with_i[a]] = _q(inclusion(design, (i, ua)))
        for b, ub in enumerate(others, start=1):
            values[C.p[a, b]] = _q(inclusion(design, (ua, ub)))
            values[C.p_with_i[a, b]] = _q(inclusion(design, (i, ua, ub)))
    return e.xreplace(values)


def _designs(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        N = rng.randint(2, 5)
        design = random_design(rng, N)
        x = [rng.randint(-3, 3) for _ in range(N)]
        for i in range(N):
            if 0 < inclusion(design, (i,)) < 1:
                yield design, x, i


MOMENTS = {"htm.r10.mean_in": (True, 0), "htm.r10.var_in": (True, 1),
           "htm.r10.mean_out": (False, 0), "htm.r10.var_out": (False, 1)}


@pytest.mark.parametrize("claim_id", sorted(MOMENTS))
def test_moments_against_brute_force_on_random_designs(claim_id):
    """Both sides of each moment claim equal the brute-force conditional moment, exactly."""
    c = derivations.get(claim_id)
    inside, k = MOMENTS[claim_id]
    checked = 0
    for design, x, i in _designs(seed=2024 + k + 2 * inside, count=25):
        want = _q(brute_moments(design, x, i, inside)[k])
        assert evaluate(c.lhs, design, x, i) == want, (design, x, i)
        assert evaluate(c.rhs, design, x, i) == want, (design, x, i)
        checked += 1
    assert checked >= 20


def test_printed_zero_variance_is_false():
    """Reading htm.r10.statement: SRS of 2 among 4, x = (1, 0, 1, 0), i = unit 1: the variance given i in S is not 0."""
    design = {frozenset(s): Fraction(1, 6) for s in itertools.combinations(range(4), 2)}
    mean, var = brute_moments(design, (1, 0, 1, 0), 0, True)
    assert var > 0 and mean == Fraction(8, 3)


# -- the printed conditional probabilities and covariances ----------------------------------------------------
LAW_CLAIMS = {
    "htm.r10.pj_given_in": lambda o, g: o[1] if g else None,
    "htm.r10.pj_given_out": lambda o, g: o[1] if not g else None,
    "htm.r10.pjl_given_in": lambda o, g: o[1] * o[2] if g else None,
    "htm.r10.pjl_given_out": lambda o, g: o[1] * o[2] if not g else None,
}


def _law_of_three(design, i, j, l):
    """q_{abc} = P(I_i = a, I_j = b, I_l = c) under the design."""
    law = {o: Fraction(0) for o in itertools.product((0, 1), repeat=3)}
    for s, pr in design.items():
        law[(int(i in s), int(j in s), int(l in s))] += pr
    return law


def _brute_conditional(law, f, given):
    mass = sum(pr for o, pr in law.items() if o[0] == given)
    return sum(pr * f(o) for o, pr in law.items() if o[0] == given) / mass


def _triples(seed):
    rng = random.Random(seed)
    for _ in range(30):
        N = rng.randint(2, 5)
        design = random_design(rng, N)
        i = rng.randrange(N)
        if not 0 < inclusion(design, (i,)) < 1:
            continue
        others = [u for u in range(N) if u != i]
        j, l = rng.choice(others), rng.choice(others)          # j = l allowed
        yield design, i, j, l


@pytest.mark.parametrize("claim_id", sorted(LAW_CLAIMS) + ["htm.r10.cov_given_in", "htm.r10.cov_given_out"])
def test_conditional_probabilities_against_brute_force(claim_id):
    """The printed right side, with the q's of the design's law of (I_i, I_j, I_l) substituted, equals the
    brute-force conditional expectation (or covariance) over the samples; j = l included."""
    c = derivations.get(claim_id)
    for design, i, j, l in _triples(seed=zlib.crc32(claim_id.encode())):
        law = _law_of_three(design, i, j, l)
        subs = {C.LAW[o]: _q(v) for o, v in law.items() if o != (0, 0, 0)}
        given = 1 if claim_id.endswith("_in") else 0
        if claim_id.startswith("htm.r10.cov"):
            mj = _brute_conditional(law, lambda o: o[1], given)
            ml = _brute_conditional(law, lambda o: o[2], given)
            want = _brute_conditional(law, lambda o: (o[1] - mj) * (o[2] - ml), given)
        else:
            f = LAW_CLAIMS[claim_id]
            want = _brute_conditional(law, lambda o: f(o, given), given)
        lhs, rhs = release(c.lhs), release(c.rhs)      # the paper's notation (p_{j|i}, E[.|.]) unfolded
        assert rhs.xreplace(subs) == _q(want) == lhs.xreplace(subs), (claim_id, design, i, j, l)


# -- the remark: free of x_i ------------------------------------------------------------------------------------
def _minus_i_quantities(design, x, i):
    """t_{-i|i}, t_{-i|-i}, sigma2_{-i|i}, sigma2_{-i|-i} from their definitions, Fractions."""
    N = len(x)
    p = [inclusion(design, (u,)) for u in range(N)]
    pi = p[i]
    others = [u for u in range(N) if u != i]
    g_in = {u: inclusion(design, (i, u)) / pi for u in others}
    g_out = {u: (p[u] - inclusion(design, (i, u))) / (1 - pi) for u in others}
    gg_in = {(a, b): inclusion(design, (i, a, b)) / pi for a in others for b in others}
    gg_out = {(a, b): (inclusion(design, (a, b)) - inclusion(design, (i, a, b))) / (1 - pi)
              for a in others for b in others}
    t_in = sum(x[u] * g_in[u] / p[u] for u in others)
    t_out = sum(x[u] * g_out[u] / p[u] for u in others)
    s_in = sum(x[a] * x[b] / (p[a] * p[b]) * (gg_in[a, b] - g_in[a] * g_in[b]) for a in others for b in others)
    s_out = sum(x[a] * x[b] / (p[a] * p[b]) * (gg_out[a, b] - g_out[a] * g_out[b]) for a in others for b in others)
    return t_in, t_out, s_in, s_out


def test_minus_i_quantities_do_not_depend_on_x_i():
    for design, x, i in _designs(seed=77, count=15):
        changed = list(x)
        changed[i] += 5
        assert _minus_i_quantities(design, x, i) == _minus_i_quantities(design, changed, i)


def _expand_sums(expr):
    """Every Sum over a concrete range written out term by term (SymPy's doit recurses on KroneckerDelta)."""
    def write_out(sm):
        terms = [sm.function]
        for var, lo, hi in reversed(sm.limits):
            terms = [t.subs(var, k) for t in terms for k in range(int(lo), int(hi) + 1)]
        return sp.Add(*terms)
    return expr.replace(lambda a: isinstance(a, sp.Sum), write_out)


def test_free_of_x_i_claim_at_concrete_sizes():
    """The claim's left side, with N and i concrete, expands to 0; without the exclusion 1{j != i} it would not."""
    c = derivations.get("htm.r10.free_of_x_i")
    for NN, ii in ((3, 1), (4, 2)):
        assert sp.expand(_expand_sums(release(c.lhs).subs({C.N: NN, C.i: ii}))) == 0
    with_i = sp.diff(sp.Sum(C.x[C.j] * C._p2[C.i, C.j] / (C._p2[C.i] * C._p2[C.j]), (C.j, 1, C.N)), C.x[C.i])
    wrong = Claim(id="htm.r10.free_of_x_i.control", title="control", source=c.source, kind="identity",
                  lhs=with_i, rhs=0)
    assert not verify_inline(wrong).proved


# -- labels and negative controls -------------------------------------------------------------------------------
LABELS = {cid: "PROVED" for cid in list(LAW_CLAIMS) + ["htm.r10.cov_given_in", "htm.r10.cov_given_out",
                                                       "htm.r10.free_of_x_i"]}
LABELS.update({cid: "PROVED (with citations)" for cid in MOMENTS})


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(LABELS))
def test_label_and_negative_control(claim_id):
    c = derivations.get(claim_id)
    v = verify_inline(c)
    assert v.label == LABELS[claim_id], v.label
    wrong = verify_inline(c.mutated())
    assert not wrong.proved and wrong.label == "FAILED", wrong.label


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
def test_wrong_closed_forms_are_not_proved():
    """The variance given i in S with the probabilities given i not in S, and the mean without x_i/p_i."""
    var_in = derivations.get("htm.r10.var_in")
    mean_in = derivations.get("htm.r10.mean_in")
    for base, rhs in ((var_in, C.sigma2_minus_i(False)), (mean_in, C.t_minus_i(True))):
        wrong = Claim(id=base.id + ".control", title="control", source=base.source, kind="identity", lhs=base.lhs,
                      rhs=rhs, conditions=base.conditions, proof=base.proof)
        assert not verify_inline(wrong).proved


def test_moment_claims_cite_linearity_only():
    for cid in MOMENTS:
        v = verify_inline(derivations.get(cid))
        assert v.citations == [C.LINEARITY]
