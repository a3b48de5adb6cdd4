"""The claims ``puff.*`` (004_005a37d6f70bd1b7.txt, Sections 3 and 4.4, Appendices B and C): their labels,
a negative control for each label, independent references for the Section 4.4 claims and the errata's
counterexamples.

Labels.  Every claim of the module is verified (in worker processes with the CLI's time budgets) and must get
its label (marked slow, as are the re-verified mutations: the default run verifies and controls each claim once).  Negative controls: the mutated statement of every claim with a proof routine (rhs -> 2 rhs + 1 for an
identity or limit, the reversed relation for an inequality or sign claim) is not proved; the finite claims
(PROVED (exhaustive)) and the finite-scope check fail with the reversed relation; the ARGUED claim fails with the
reversed relation (its spot check evaluates the stated relation); a printed statement whose counterexample is
moved outside its conditions is an ERROR, not REFUTED, and a corrected statement given the printed counterexample
is not refuted.

References (none uses the module's proof routines, enumerations or formulas for the value it checks):

* the disclosure risk P(1-p-R < c e^X < 1+p-R) by ``mpmath.quad`` of the Laplace(0, b) density over
  (ln((1-p-R)/c), ln((1+p-R)/c)) split at 0, at 30 digits; the claims' own SymPy expressions are evaluated at the
  same points with mpmath;
* Section 4.4: the 81 risks of the grid of Figures 4.4.1/4.4.2 by quadrature; standard errors from
  gamma(1-gamma)/M; a seeded NumPy simulation of algorithm 4.3.2 (Monte Carlo, 5-standard-error bands);
* the tight epsilon: log density ratios of point masses and of random discrete priors computed directly;
* the errata: quadrature (risk), partial integrals (divergence of E(e^X)), exact rationals.

Tolerances: relative 1e-20 for quadrature at 30 digits against closed forms; 1e-25 for closed forms evaluated
both ways; Monte Carlo within 5 standard errors.
"""
from __future__ import annotations

import dataclasses
import math
import random

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

import derivations
from derivations.engine.core import verify_inline
from derivations.log_laplace import pufferfish as P

EXPECTED = {
    "puff.lemma321.first": "PROVED",
    "puff.lemma321.second": "PROVED",
    "puff.lemma321.third": "PROVED",
    "puff.thm322.interval_containment": "PROVED",
    "puff.thm322.lower_exponent": "PROVED",
    "puff.thm322.upper_exponent": "PROVED",
    "puff.thm322.ratio": "PROVED (with citations)",
    "puff.thm322.reflection": "PROVED (with citations)",
    "puff.tight.kernel_bound": "PROVED (with citations)",
    "puff.tight.kernel_bound_reverse": "PROVED (with citations)",
    "puff.tight.epsilon_limit": "PROVED",
    "puff.tight.epsilon": "PROVED (with citations)",
    "puff.tight.scale": "PROVED",
    "puff.tight.vs_printed": "PROVED",
    "puff.tight.vs_printed_below_one": "PROVED",
    "puff.tight.vs_printed_above_half": "PROVED",
    "puff.tight.vs_printed_q0": "PROVED",
    "puff.tight.vs_printed_q1": "PROVED",
    "puff.thm322.bias_correction.printed": "REFUTED",
    "puff.thm322.bias_correction": "PROVED",
    "puff.b1.exp_cdf_upper": "PROVED (with citations)",
    "puff.b1.exp_cdf_lower": "PROVED (with citations)",
    "puff.b1.exp_cdf_zero": "PROVED (with citations)",
    **{f"puff.b13.piece{k}": "PROVED (with citations)" for k in range(1, 7)},
    "puff.b13.continuity": "PROVED",
    "puff.b13.cases_partition": "PROVED",
    "puff.b13.piece1_increasing": "PROVED",
    "puff.b13.piece2_sign": "PROVED (with citations)",
    "puff.b13.g_decreasing": "PROVED",
    "puff.b13.piece3_decreasing": "PROVED",
    "puff.b13.piece4_decreasing": "PROVED",
    "puff.b13.piece5_decreasing": "PROVED",
    "puff.b13.monotonicity": "PROVED (with citations)",
    "puff.b2.g_left_positive": "PROVED",
    "puff.b2.g_right_negative": "PROVED",
    "puff.b2.g_right_limit": "PROVED",
    "puff.b2.sup": "ARGUED",
    "puff.prop1.case2_upper_limit.printed": "REFUTED",
    "puff.prop1.case2": "PROVED (with citations)",
    "puff.cor_b12.case21_middle_line": "PROVED",
    "puff.s44.scale_in_epsilon": "PROVED",
    "puff.s44.scale_in_q": "PROVED",
    "puff.s44.risk_increasing_in_b_piece5": "PROVED",
    "puff.s44.risk_grid_epsilon": "PROVED (exhaustive)",
    "puff.s44.risk_grid_q": "PROVED (exhaustive)",
    "puff.s44.risk_grid_epsilon_reversed": "PROVED (exhaustive)",
    "puff.s44.mc_variance_bound": "PROVED (with citations)",
    "puff.s44.mc_epsilon_steps_unresolved": "PROVED (exhaustive)",
}
FINITE = ["puff.s44.risk_grid_epsilon", "puff.s44.risk_grid_q", "puff.s44.risk_grid_epsilon_reversed",
          "puff.s44.mc_epsilon_steps_unresolved"]
WITH_PROOF = [cid for cid in EXPECTED if cid not in FINITE and not cid.endswith(".printed")]
REL_QUAD = mp.mpf(10) ** -20
REL = mp.mpf(10) ** -25


@pytest.fixture(autouse=True)
def _precision():
    with mp.workdps(30):
        yield


@pytest.fixture(scope="module")
def verdicts():
    claims = [derivations.get(cid) for cid in EXPECTED]
    return {v.claim_id: v for v in derivations.verify_many(claims, jobs=1)}


# -- labels and negative controls ----------------------------------------------------------------------
def test_every_claim_of_the_module_is_listed():
    assert {c.id for c in derivations.claims() if c.id.startswith("puff.")} == set(EXPECTED)


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_label(cid, verdicts):
    v = verdicts[cid]
    assert v.label.startswith(EXPECTED[cid]), f"{cid}: {v.label}: " + "; ".join(c.detail for c in v.checks)


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
@pytest.mark.parametrize("cid", sorted(WITH_PROOF))
def test_mutated_statement_is_not_proved(cid):
    """Negative control of PROVED, PROVED (with citations) and ARGUED: the changed statement fails."""
    c = derivations.get(cid)
    assert not verify_inline(c.mutated()).proved
    if c.relation != "==":
        v = verify_inline(c.mutated("relation"))
        assert not v.holds, v.label          # not even ARGUED: the proof is tied to the statement


@pytest.mark.parametrize("cid", FINITE)
def test_finite_claims_fail_with_the_reversed_relation(cid):
    """Negative control of PROVED (exhaustive) and CHECKED (finite scope): the cases evaluate the stated relation."""
    v = verify_inline(derivations.get(cid).mutated("relation"))
    assert not v.holds and v.label == "FAILED", v.label


def test_exhaustive_needs_the_claims_own_finite_quantifier():
    """The same enumeration on a copy not marked finite is no proof (and needs a scope)."""
    c = dataclasses.replace(derivations.get("puff.s44.risk_grid_epsilon_reversed"), id="t.copy", finite=False)
    assert not verify_inline(c).proved


# slow: re-verifies claims that the default run verifies once (tests/derivations/test_claims.py) and controls (test_negative_controls.py)
@pytest.mark.slow
def test_argued_claim_rests_on_an_argument_and_says_so(verdicts):
    v = verdicts["puff.b2.sup"]
    kinds = [st["kind"] for st in v.checks[0].steps]
    assert "argument" in kinds and kinds[-1] != "conclusion"


@pytest.mark.parametrize("eid", ["puff.thm322.bias_correction", "puff.prop1.case2_upper_limit"])
def test_refutation_needs_a_counterexample_inside_the_printed_conditions(eid):
    """Negative control of REFUTED: a point outside the printed conditions is an ERROR; the corrected statement
    (where it covers the point) is not refuted by it."""
    e = next(er for er in derivations.errata() if er.id == eid)
    printed = e.printed
    outside = dict(printed.counterexample)
    if eid == "puff.thm322.bias_correction":
        outside[P.q] = sp.Rational(3, 2)                      # q < 1 violated
    else:
        outside[P.R] = 2                                      # R < 1 + p (Case 2) / R <= 1 + p - c violated
    moved = dataclasses.replace(printed, id="t.moved", counterexample=outside)
    assert verify_inline(moved).label == "ERROR"
    if eid != "puff.thm322.bias_correction":                  # the corrected claims share the printed symbols
        point = {k: v for k, v in printed.counterexample.items() if k in e.corrected.lhs.free_symbols
                 | e.corrected.rhs.free_symbols}
        probe = dataclasses.replace(e.corrected, id="t.probe", counterexample=point, expected=False, proof=None)
        assert verify_inline(probe).label == "NOT REFUTED"


def test_removed_erratum_is_a_finding():
    """Corollary B.1.2, Case 2.1: under its own final range the printed result is true, so it is no erratum."""
    assert "puff.cor_b12.case21_formula" not in {e.id for e in derivations.errata()}
    assert "puff.cor_b12.case2_subcases" in {f.id for f in derivations.findings()}


# -- independent reference: the risk by quadrature ------------------------------------------------------
def laplace_density(t, b):
    return mp.exp(-abs(t) / b) / (2 * b)


def risk_quad(R, p, b, c, mu=0):
    """P(1-p-R < c e^X < 1+p-R), X ~ Laplace(mu, b), by quadrature split at mu."""
    R, p, b, c, mu = (mp.mpf(v) for v in (R, p, b, c, mu))
    if 1 + p - R <= 0:
        return mp.mpf(0)
    hi = mp.log((1 + p - R) / c) - mu
    lo = mp.log((1 - p - R) / c) - mu if 1 - p - R > 0 else -mp.inf
    pts = [lo, hi] if (lo >= 0 or hi <= 0) else [lo, 0, hi]
    return mp.quad(lambda t: laplace_density(t, b), pts)


def evaluate(expr, values):
    """A SymPy expression of the module evaluated with mpmath at the given values."""
    syms = sorted(expr.free_symbols, key=str)
    f = sp.lambdify(syms, expr, modules="mpmath")
    return f(*(_mp(values[s]) for s in syms))


def _mp(value):
    if isinstance(value, mp.mpf):
        return value
    r = sp.Rational(value)
    return mp.mpf(r.p) / r.q


def _range_point(k, rng):
    """A random (p, c, b, R) inside the range of piece k (c = 1 - b^2 or free c < 1)."""
    while True:
        pv = sp.Rational(rng.randint(1, 95), 100)
        bv = sp.Rational(rng.randint(5, 95), 100)
        cv = 1 - bv**2 if rng.random() < 0.5 else sp.Rational(rng.randint(5, 99), 100)
        Rv = sp.Rational(rng.randint(-300, 300), 100)
        pt = {P.p: pv, P.c: cv, P.b: bv, P.R: Rv}
        if all(bool(cond.subs(pt)) for cond in P.ELEMENTARY[k]):
            return pt


@pytest.mark.parametrize("k", range(1, 7))
def test_piece_formula_and_risk_against_quadrature(k):
    """Each formula of b.1.3 and the module's risk f = H(A) - H(B) agree with the quadrature of the density."""
    rng = random.Random(4004 + k)
    for _ in range(6):
        pt = _range_point(k, rng)
        ref = risk_quad(pt[P.R], pt[P.p], pt[P.b], pt[P.c])
        for expr in (derivations.get(f"puff.b13.piece{k}").rhs, P.RISK):
            got = evaluate(expr, pt) if expr.free_symbols else mp.mpf(0)
            assert abs(got - ref) <= REL_QUAD * max(1, abs(ref)), (k, pt, got, ref)


def test_prop1_case2_with_location_against_quadrature():
    rng = random.Random(11)
    claim = derivations.get("puff.prop1.case2")
    for _ in range(6):
        pv = sp.Rational(rng.randint(5, 90), 100)
        Rv = 1 - pv + sp.Rational(rng.randint(0, 199), 100) * pv     # 1 - p <= R < 1 + p
        pt = {P.p: pv, P.R: Rv, P.b: sp.Rational(rng.randint(5, 95), 100), P.c: sp.Rational(rng.randint(5, 99), 100),
              P.mu: sp.Rational(rng.randint(-100, 100), 100)}
        ref = risk_quad(pt[P.R], pt[P.p], pt[P.b], pt[P.c], pt[P.mu])
        for expr in (claim.lhs, claim.rhs):
            assert abs(evaluate(expr, pt) - ref) <= REL_QUAD * max(1, ref)


# -- Section 4.4 -----------------------------------------------------------------------------------------
def eps_values():
    return [mp.mpf(n) / 10 for n in range(11, 20)]       # at the working precision


def q_values():
    return [mp.mpf(n) / 100 for n in range(6, 15)]


def risk_grid(R):
    """The 81 risks of the grid of Figures 4.4.1/4.4.2 (p = 0.15) by quadrature: rows eps, columns q."""
    out = []
    for e in eps_values():
        row = []
        for qq in q_values():
            b = -4 / e * mp.log(1 - qq)
            row.append(risk_quad(R, mp.mpf(3) / 20, b, 1 - b**2))
        out.append(row)
    return out


@pytest.fixture(scope="module")
def grid0():
    with mp.workdps(30):
        return risk_grid(0)


def test_grid_claims_against_quadrature(grid0):
    """Reference for puff.s44.risk_grid_epsilon / _q: every eps step raises, every q step lowers the risk (R = 0),
    and the module's b.1.3 evaluation agrees with quadrature on the grid."""
    for i in range(9):
        for j in range(9):
            if i < 8:
                assert grid0[i + 1][j] > grid0[i][j]
            if j < 8:
                assert grid0[i][j + 1] < grid0[i][j]
    for i, j in ((0, 0), (4, 4), (8, 8), (0, 8)):
        got = evaluate(P.risk_at(0, P.eps, P.q), {P.eps: sp.Rational(11 + i, 10), P.q: sp.Rational(6 + j, 100)})
        assert abs(got - grid0[i][j]) <= REL_QUAD


def test_reversal_at_R_one_fifth_against_quadrature():
    """Reference for puff.s44.risk_grid_epsilon_reversed: at R = 1/5, q = 0.06 the risk falls as eps rises."""
    col = []
    for e in eps_values():
        b = -4 / e * mp.log(1 - mp.mpf(6) / 100)
        col.append(risk_quad(mp.mpf(1) / 5, mp.mpf(3) / 20, b, 1 - b**2))
    assert all(col[i + 1] < col[i] for i in range(8))
    assert mp.nstr(col[0], 6) == "0.408617" and mp.nstr(col[-1], 6) == "0.363724"


def test_piece5_risk_increases_with_b_by_numerical_differentiation():
    """Reference for puff.s44.risk_increasing_in_b_piece5: d/db of the quadrature risk (c = 1 - b^2) is > 0."""
    for pv, bv, Rv in ((0.15, 0.3, 1.05), (0.5, 0.6, 1.2), (0.15, 0.8, 1.0)):
        pv, bv, Rv = mp.mpf(pv), mp.mpf(bv), mp.mpf(Rv)
        assert Rv >= max(pv + bv**2, 1 - pv) and Rv < 1 + pv
        d = mp.diff(lambda t: risk_quad(Rv, pv, t, 1 - t**2), bv)
        assert d > 0


def test_direction_depends_on_R_as_the_finding_states():
    """Finding puff.s44.risk_direction: with p = 0.15, f decreases in b on a fine b-grid for R = 0.1 and 0.14,
    and increases somewhere for R = 0.15 and R = 0.2 (small b)."""
    p = mp.mpf(3) / 20
    bs = [mp.mpf(k) / 100 for k in range(1, 100)]

    def increments(R):
        vals = [risk_quad(R, p, t, 1 - t**2) for t in bs]
        return [v2 - v1 for v1, v2 in zip(vals, vals[1:])]

    with mp.workdps(20):
        assert all(d < 0 for d in increments(mp.mpf("0.1")))
        assert all(d < 0 for d in increments(mp.mpf("0.14")))
        assert any(d > 0 for d in increments(mp.mpf("0.15")))
        assert any(d > 0 for d in increments(mp.mpf("0.2")))


def test_replicates_claims_against_quadrature(grid0):
    """Reference for puff.s44.mc_epsilon_steps_unresolved and the numbers of finding puff.s44.replicates."""
    M = 1000
    se = [[None] * 9 for _ in range(9)]
    z_eps, z_q = [], []
    for i in range(9):
        for j in range(9):
            g = grid0[i][j]
            se[i][j] = g * (1 - g)
    for i in range(8):
        for j in range(9):
            z_eps.append((grid0[i + 1][j] - grid0[i][j]) / mp.sqrt((se[i + 1][j] + se[i][j]) / M))
    for i in range(9):
        for j in range(8):
            z_q.append((grid0[i][j] - grid0[i][j + 1]) / mp.sqrt((se[i][j + 1] + se[i][j]) / M))
    assert max(z_eps) < 2 and min(z_eps) < 1                   # no eps step resolved; the smallest below one SE
    assert 25 <= sum(z > 2 for z in z_q) <= 40                   # "about half" of the 72 q steps exceed two
    g1, g2 = grid0[8][0], grid0[7][0]                           # eps 1.8 -> 1.9 at q = 0.06: the smallest step
    need = 4 * (g1 * (1 - g1) + g2 * (1 - g2)) / (g1 - g2) ** 2
    assert 4300 < need < 4500
    assert 1 / (2 * mp.sqrt(M)) < mp.mpf("0.0159")


def test_monte_carlo_of_algorithm_4_3_2_has_the_stated_standard_error(grid0):
    """Seeded simulation of algorithm 4.3.2 (R = 0: the remainder is c e^X y_j) at eps = 1.8 and 1.9, q = 0.06:
    the spread of 400 independent 1,000-replicate estimates matches sqrt(gamma(1-gamma)/1000), and the adjacent
    step is reversed about as often as the normal approximation says (each within 5 standard errors)."""
    rng = np.random.default_rng(20261124)
    reps, M = 400, 1000
    est = {}
    for i, e in ((7, 1.8), (8, 1.9)):
        b = -4 / e * math.log(1 - 0.06)
        c = 1 - b * b
        x = rng.laplace(0.0, b, size=(reps, M))
        hit = (c * np.exp(x) > 0.85) & (c * np.exp(x) < 1.15)
        est[i] = hit.mean(axis=1)
        gamma = float(grid0[i][0])
        sd = math.sqrt(gamma * (1 - gamma) / M)
        assert abs(est[i].mean() - gamma) < 5 * sd / math.sqrt(reps)
        assert abs(est[i].std(ddof=1) / sd - 1) < 5 / math.sqrt(2 * (reps - 1))
    g1, g2 = float(grid0[8][0]), float(grid0[7][0])
    z = (g1 - g2) / math.sqrt((g1 * (1 - g1) + g2 * (1 - g2)) / M)
    p_reversed = 0.5 * math.erfc(z / math.sqrt(2))
    freq = float(np.mean(est[8] < est[7]))
    assert 0.1 < p_reversed < 0.25
    assert abs(freq - p_reversed) < 5 * math.sqrt(p_reversed * (1 - p_reversed) / reps)


def test_scale_monotone_in_eps_and_q_numerically():
    for e, qq in ((1.1, 0.06), (1.5, 0.1), (1.9, 0.14)):
        b = lambda ee, qv: -4 / ee * mp.log(1 - qv)                          # noqa: E731
        assert mp.diff(lambda ee: b(ee, mp.mpf(qq)), mp.mpf(e)) < 0
        assert mp.diff(lambda qv: b(mp.mpf(e), qv), mp.mpf(qq)) > 0


# -- the tight epsilon -----------------------------------------------------------------------------------
def test_tight_epsilon_bounds_point_mass_and_mixture_priors_and_is_approached():
    """Log density ratios of the output given the two secrets (log space, relative to ln y) never exceed
    (2/b) ln((1+q)/(1-q)) and come within 1e-6 of it for point masses at the far ends."""
    rng = random.Random(7)
    for qv, bv in ((0.15, 0.5), (0.05, 0.2), (0.6, 1.3)):
        qv, bv = mp.mpf(qv), mp.mpf(bv)
        tight = 2 / bv * mp.log((1 + qv) / (1 - qv))
        lo1, hi1, hi2 = mp.log(1 - qv), mp.log(1 + qv), mp.log((1 + qv) ** 2 / (1 - qv))
        k = lambda zz, u: mp.exp(-abs(zz - u) / bv) / (2 * bv)       # noqa: E731
        worst = mp.mpf(0)
        for _ in range(200):
            a1 = [lo1 + (hi1 - lo1) * mp.mpf(rng.random()) for _ in range(3)]
            a2 = [hi1 + (hi2 - hi1) * mp.mpf(rng.random()) for _ in range(3)]
            w1 = [mp.mpf(rng.random()) for _ in a1]
            w2 = [mp.mpf(rng.random()) for _ in a2]
            zz = lo1 - 1 + (hi2 - lo1 + 2) * mp.mpf(rng.random())
            d1 = sum(wi * k(zz, ai) for wi, ai in zip(w1, a1)) / sum(w1)
            d2 = sum(wi * k(zz, ai) for wi, ai in zip(w2, a2)) / sum(w2)
            worst = max(worst, abs(mp.log(d1 / d2)))
        assert worst <= tight
        ends = mp.log(k(lo1, lo1) / k(lo1, hi2 - mp.mpf(10) ** -7))
        assert tight - mp.mpf(10) ** -6 < ends < tight
        claim_value = evaluate(P.EPS_TIGHT, {P.b: bv, P.q: qv})
        assert abs(claim_value - tight) <= REL * tight


def test_printed_scale_is_conservative_at_the_case_study_values():
    """b = -(4/1.3) ln 0.85 gives the tight epsilon 1.208983 < 1.3 (note of puff.tight.vs_printed)."""
    b = -4 / mp.mpf("1.3") * mp.log(mp.mpf("0.85"))
    tight = 2 / b * mp.log(mp.mpf("1.15") / mp.mpf("0.85"))
    assert mp.nstr(tight, 7) == "1.208983"
    assert mp.nstr(tight / mp.mpf("1.3"), 30) == "0.929986656960696423529528346764"


# -- Theorem B.2 and Figure B.2.1 -------------------------------------------------------------------------
def test_figure_b21_supremum_by_root_finding_and_a_grid():
    p = q = mp.mpf("0.15")
    b = -4 / mp.mpf("1.3") * mp.log(1 - q)
    c = 1 - b**2
    g = lambda R: (1 / b - 1) * mp.log((1 - p - R) / c) + (1 / b + 1) * mp.log((1 + p - R) / c)    # noqa: E731
    Rs = mp.findroot(g, (1 - p - c + mp.mpf(10) ** -9, 1 + p - c), solver="bisect")
    assert mp.nstr(Rs, 25) == mp.nstr(mp.mpf("0.312180597742683452936895189571"), 25)
    top = risk_quad(Rs, p, b, c)
    assert mp.nstr(top, 25) == mp.nstr(mp.mpf("0.342206681122650943085171277311"), 25)
    with mp.workdps(15):
        for k in range(-40, 80):
            assert risk_quad(mp.mpf(k) / 40, p, b, c) <= top + mp.mpf(10) ** -12


@pytest.mark.parametrize("kk", [2, 3, 4])
def test_stationarity_equation_has_one_root_in_piece_2(kk):
    """For b = 1/k (c = 1 - b^2) the stationarity equation (1-p-R)^{k-1} (1+p-R)^{k+1} = c^{2k} has exactly one root in
    the open piece 2 (exact Sturm count), as the proved sign facts imply."""
    R = sp.Symbol("R", real=True)
    cv = 1 - sp.Rational(1, kk * kk)
    for pv in (sp.Rational(1, 20), sp.Rational(3, 20), sp.Rational(1, 2), sp.Rational(9, 10)):
        poly = sp.Poly(sp.expand((1 - pv - R) ** (kk - 1) * (1 + pv - R) ** (kk + 1) - cv ** (2 * kk)), R)
        lo, hi = 1 - pv - cv, min(1 - pv, 1 + pv - cv)
        assert poly.eval(lo) != 0 and poly.eval(hi) != 0
        assert poly.count_roots(lo, hi) == 1


# -- the errata's counterexamples (and the finding's) -------------------------------------------------------
def test_bias_correction_counterexample_expectation_diverges():
    """eps = 1, q = 1/2: b = 4 ln 2 > 1, E(e^X) = oo (partial integrals of the right tail grow without bound),
    so 1/E(e^X) = 0, while 1 - b^2 < 0."""
    b = 4 * mp.log(2)
    assert b > 1 and 1 - b**2 < 0
    tail = lambda T: mp.quad(lambda x: mp.exp(x) * mp.exp(-x / b) / (2 * b), [0, T])   # noqa: E731
    assert tail(100) > 10**20 and tail(200) > tail(100) * 10**20


def test_bias_correction_holds_below_one():
    for bv in ("0.1", "0.5", "0.9"):
        bv = mp.mpf(bv)
        mean = mp.quad(lambda x: mp.exp(x) * laplace_density(x, bv), [-mp.inf, 0, mp.inf])
        assert abs(1 / mean - (1 - bv**2)) <= REL_QUAD


def test_prop1_case2_counterexample():
    risk = risk_quad(1, mp.mpf(1) / 2, mp.mpf(1) / 2, mp.mpf(3) / 4)
    assert abs(risk - mp.mpf(2) / 9) <= REL_QUAD
    printed_upper = mp.log((1 + mp.mpf(1) / 2) * mp.mpf(7) / 6 - 1) - mp.log(mp.mpf(3) / 4)
    assert abs(printed_upper) <= REL                                         # F_X(0) = 1/2
    assert abs(mp.quad(lambda t: laplace_density(t, mp.mpf(1) / 2), [-mp.inf, 0]) - mp.mpf(1) / 2) <= REL_QUAD


def test_middle_line_counterexample():
    """R = 1/2, p = 1/2, b = 1/2, c = 3/4: F_X(ln(4/3)) = 23/32, the printed middle line 1/2."""
    F = mp.quad(lambda t: laplace_density(t, mp.mpf(1) / 2), [-mp.inf, 0, mp.log(mp.mpf(4) / 3)])
    assert abs(F - mp.mpf(23) / 32) <= REL_QUAD
    assert 1 - mp.exp(-mp.log(1 + mp.mpf(1) / 2 - mp.mpf(1) / 2) / (mp.mpf(1) / 2)) / 2 == mp.mpf(1) / 2


def test_case_21_finding_numbers():
    """Under Case 2.1's heading (R > 1+p-c) at R = 1, p = 1/2, b = 1/2, c = 3/4 the risk is 2/9 while the
    printed formula 1 - 1/2 ((1+p-R)/c)^{-1/b} gives -1/8."""
    A = sp.Rational(1, 2) / sp.Rational(3, 4)
    assert 1 - sp.Rational(1, 2) * A ** (-2) == sp.Rational(-1, 8)
    assert abs(risk_quad(1, mp.mpf(1) / 2, mp.mpf(1) / 2, mp.mpf(3) / 4) - mp.mpf(2) / 9) <= REL_QUAD


def _laplace_cdf(t, b):
    """F_X(t), X ~ Laplace(0, b), in mpmath (independent of the SymPy encoding)."""
    t, b = mp.mpf(t), mp.mpf(b)
    return mp.exp(t / b) / 2 if t < 0 else 1 - mp.exp(-t / b) / 2


def test_prop1_counterexample_lies_in_appendix_b_setting():
    """Appendix B takes b in (0, 1/2) and c = (1 - b^2)/e^mu: the counterexample of the erratum does too, and
    refutes the printed line there (mpmath: the risk F_X(ln(1 + p - R) - ln c) = (8/15)^4/2 against the printed
    F_X(ln((1 + p) y_j - R) - ln c) = (4/5)^4/2 at R = 1, p = 1/2, b = 1/4, c = 15/16, y_j = 7/6)."""
    e = next(er for er in derivations.errata() if er.id == "puff.prop1.case2_upper_limit")
    cex = e.printed.counterexample
    bv, cv, muv = cex[P.b], cex[P.c], cex[P.mu]
    assert 0 < bv < sp.Rational(1, 2) and cv == (1 - bv**2) * sp.exp(-muv)
    with mp.workdps(30):
        true = _laplace_cdf(mp.log(mp.mpf(1) / 2) - mp.log(mp.mpf(15) / 16), mp.mpf(1) / 4)
        printed = _laplace_cdf(mp.log(mp.mpf(3) / 2 * mp.mpf(7) / 6 - 1) - mp.log(mp.mpf(15) / 16), mp.mpf(1) / 4)
        assert abs(true - (mp.mpf(8) / 15) ** 4 / 2) < 1e-25 and abs(printed - mp.mpf("0.2048")) < 1e-25


def test_corollary_middle_line_is_a_reading_not_an_erratum():
    """The middle line of Case 2.1 lost its '/c' while the lines around it carry it: repaired as a reading, the
    paper is not charged.  Read literally it fails in Appendix B's setting (mpmath): at R = 1/2, p = 1/2,
    b = 1/4, c = 15/16 the first line F_X(ln(16/15)) = 1 - (15/16)^4/2, the literal middle line 1/2."""
    assert not any(e.id.startswith("puff.cor_b12.case21_middle_line") for e in derivations.errata())
    r = next(r for r in derivations.readings() if r.id == "puff.reading.cor_b12_middle_line")
    assert r.claims == ("puff.cor_b12.case21_middle_line",)
    with mp.workdps(30):
        first = _laplace_cdf(mp.log(mp.mpf(16) / 15), mp.mpf(1) / 4)
        middle = 1 - mp.exp(-mp.log(1) / (mp.mpf(1) / 4)) / 2
        assert abs(first - (1 - (mp.mpf(15) / 16) ** 4 / 2)) < 1e-25 and middle == mp.mpf(1) / 2


def test_reading_of_the_dp_definition_against_the_source():
    """puff.reading.dp_definition_rhs: the source prints P(\\mathcal{D'} in W) on the right of (2.1.1) and
    P(\\mathcal{M}(D) in W) on the left (reference: the source text, where present)."""
    from _seeds import seed_text
    r = next(r for r in derivations.readings() if r.id == "puff.reading.dp_definition_rhs")
    assert "M(D') in W" in r.reading and "D' in W" in r.printed and r.claims == ()
    line = next(ln for ln in seed_text("004_005a37d6f70bd1b7.txt").splitlines() if "tag{2.1.1}" in ln)
    assert r"P(\mathcal{M}(D)\in W)" in line and r"P(\mathcal{D'}\in W)" in line

