"""Fail-safe numerics: every public function either names the parameter it refuses or returns a
result without NaN, equal to the exact value where one is known.

Two parts.  (1) The reproducers of earlier failures, one test each, every reference worked
independently of the code under test (a limit or closed form by hand, exact fractions, or mpmath
at 50-60 digits; each test says which).  (2) The property test over the table of input classes in
``_input_classes.py``: NaN, +-inf, values outside the domain and on its boundary, wrong types,
mismatched shapes and sizes that would need more than a few GiB, in every parameter of every
function, one at a time exhaustively and two at a time (with random floats) under hypothesis.

Numpy ``RuntimeWarning``s are turned into errors inside the calls: an overflow or an invalid
operation that a function does not handle on purpose counts as an unnamed error.  The address
space of the process is capped a few GiB above its size while the table runs, so an attempt to
allocate a huge array fails as a ``MemoryError`` (a test failure) instead of swapping.
"""
from __future__ import annotations

import ast
import dataclasses
import math
import re
import time
import tracemalloc
import warnings
from fractions import Fraction
from math import comb
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric import (census_rse, density_ratio, density_ratio_derivative, disclosure_risk, ht_atoms,
                     laplace_mechanism_delta, laplace_mgf, laplace_pdf, log_laplace_mean, log_laplace_variance,
                     max_disclosure_risk, mixture_density, pufferfish_scale, simulate_disclosure_risk, simulate_rse,
                     srs_binary_delta0, srs_binary_epsilon0, srs_binary_log_pmf)
from numeric._common import ParameterError

from _input_classes import CASES, COVERED, Clash, Combo, Known

#: Public names that take no input of the user's (the result type of worst_pair).
RESULTS = {"WorstPair"}
NUMERIC = Path(__file__).resolve().parents[2] / "numeric"


# == the two admissible outcomes ===========================================================================
def _mentions(message: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message) is not None


def _assert_no_nan(out, where):
    if hasattr(out, "select_dtypes"):             # a table (pandas DataFrame): every numeric column
        out = out.select_dtypes("number").to_numpy(dtype=float)
    if dataclasses.is_dataclass(out):             # a design, a domain, a WorstPair: every numeric field
        out = tuple(v for v in (getattr(out, f.name) for f in dataclasses.fields(out))
                    if isinstance(v, (int, float, tuple)))
    if isinstance(out, tuple):
        for part in out:
            _assert_no_nan(part, where)
        return
    arr = np.asarray(out, dtype=float)
    assert not np.isnan(arr).any(), f"{where}: silent NaN in {out!r}"


def check_call(case, changes: dict, expected=None, clash: bool = False):
    """Call ``case.fn`` with the baseline updated by ``changes`` and assert one of the two outcomes.

    An error must be a ValueError/TypeError; a ParameterError's message starts with its ``param``,
    which is one of the changed parameters (any parameter of the call for a ``clash``, whose message
    must then name a changed one); another ValueError/TypeError must name a changed parameter.
    Otherwise the result has no NaN and equals ``expected`` when given (relative 1e-11; infinities
    and zeros exactly).  Returns "error" or "value"."""
    kwargs = {**case.base, **changes}
    where = f"{case.name}({', '.join(f'{k}={v!r:.60}' for k, v in changes.items())})"
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            out = case.fn(**kwargs)
        except ParameterError as e:
            msg = str(e)
            assert msg.startswith(e.param), f"{where}: message does not start with {e.param!r}: {msg}"
            if clash:
                assert e.param in kwargs or e.param in changes, f"{where}: names {e.param!r}, not a parameter"
                assert any(_mentions(msg, p) for p in changes), f"{where}: {msg!r} names no changed parameter"
            else:
                assert e.param in changes, f"{where}: names {e.param!r}, not the changed {sorted(changes)}: {msg}"
            return "error"
        except (ValueError, TypeError) as e:
            assert any(_mentions(str(e), p) for p in changes), \
                f"{where}: {type(e).__name__} names no changed parameter: {e}"
            return "error"
    _assert_no_nan(out, where)
    if expected is not None:
        got = out[0] if isinstance(out, tuple) else getattr(out, "delta", out)
        np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(expected, dtype=float),
                                   rtol=1e-11, atol=0, err_msg=where)
    return "value"


def _unwrap(value):
    """(value, expected, clash) of a table entry."""
    if isinstance(value, Known):
        return value.value, value.expected, False
    if isinstance(value, Clash):
        return value.value, None, True
    return value, None, False


@pytest.fixture(scope="module")
def capped_memory():
    """Cap the address space at its current size + 6 GiB while the table runs (restored after)."""
    try:
        import resource
    except ImportError:                                       # pragma: no cover - not POSIX
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        size = next(int(line.split()[1]) * 1024 for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmSize:"))
    except (OSError, StopIteration):                          # pragma: no cover - no procfs
        yield
        return
    cap = size + (6 << 30)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# == 1. the table covers every public function of these modules ===============================================
def test_table_covers_every_public_function():
    """Reference: numeric.__all__ (every public function and class taking user input)."""
    import numeric

    assert set(numeric.__all__) - RESULTS <= COVERED, sorted(set(numeric.__all__) - RESULTS - COVERED)
    for case in CASES:
        assert set(case.kinds) >= set(case.base), case.name


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_baseline_is_valid(case):
    """Reference: the documented domains (the baseline lies inside them): a value without NaN."""
    assert check_call(case, {}) == "value"


# == 2. every bad value of every parameter, one at a time ======================================================
@pytest.mark.parametrize("case,param", [(c, p) for c in CASES for p in c.kinds], ids=lambda v: getattr(v, "name", v))
def test_each_bad_value_names_its_parameter_or_is_exact(case, param, capped_memory):
    """Reference: the two admissible outcomes (module docstring); Known values are worked by hand
    (their reason is in the table)."""
    failures = []
    for entry in case.pool(param):
        value, expected, clash = _unwrap(entry)
        try:
            check_call(case, {param: value}, expected, clash)
        except AssertionError as e:
            failures.append(str(e).splitlines()[0][:300])
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("case,combo", [(c, k) for c in CASES for k in c.combos],
                         ids=lambda v: getattr(v, "name", None) or ",".join(getattr(v, "changes", {})))
def test_combined_changes(case, combo: Combo, capped_memory):
    """Reference: the exact values of the table's combinations (reasons in the table)."""
    check_call(case, combo.changes, combo.expected)


# == 3. the property test: two parameters at a time, random floats included ====================================
@st.composite
def corrupted_calls(draw):
    case = draw(st.sampled_from(CASES))
    params = sorted(case.kinds)
    chosen = draw(st.lists(st.sampled_from(params), min_size=1, max_size=min(2, len(params)), unique=True))
    changes = {}
    for p in chosen:
        pool = st.sampled_from(case.pool(p))
        if case.kinds[p] in ("real", "integer"):
            pool = st.one_of(pool, st.floats(allow_nan=True, allow_infinity=True),
                             st.integers(-2**70, 2**70))
        changes[p] = _unwrap(draw(pool))[0]
    return case, changes


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=corrupted_calls())
def test_property_named_error_or_value_without_nan(capped_memory, call):
    """Reference: the two admissible outcomes.  A random value may break a relation with a parameter
    left at its baseline (N = 1 below n = 2), and two changed parameters may clash with each other:
    the error may then name the other parameter, but its message must name a changed one."""
    case, changes = call
    check_call(case, changes, None, clash=True)


# == 4. the reproducers =======================================================================================
def test_mixture_density_at_infinity_is_zero():
    """Reference: every kernel e^{-|z - t|/b} -> 0 as z -> +-inf (by hand): f = 0 and log f = -inf.
    A far finite z keeps its value: mpmath at 50 digits of the defining sum."""
    args = ([0.0, 3.0], [0.4, 0.6], 0.6)
    assert mixture_density(np.inf, *args) == 0.0 and mixture_density(-np.inf, *args) == 0.0
    assert mixture_density(np.inf, *args, log=True) == -np.inf
    assert mixture_density(-np.inf, *args, log=True) == -np.inf
    with mpmath.workdps(50):
        z = mpmath.mpf(400)
        ref = sum(mpmath.mpf(p) * mpmath.exp(-abs(z - t) / mpmath.mpf(0.6)) for t, p in zip([0, 3], [0.4, 0.6]))
        ref = mpmath.log(ref / (2 * mpmath.mpf(0.6)))
    assert float(mixture_density(400.0, *args, log=True)) == pytest.approx(float(ref), rel=1e-14)


TAIL = dict(atoms_x=[0.0, 3.0], atoms_x_prime=[0.5, 2.0], probabilities=[0.4, 0.6], b=1.0)


def _mp_tails():
    """Result 6's tail constants by their closed forms, mpmath at 50 digits:
    right sum p e^{t/b} / sum p e^{t'/b}, left the same with -t."""
    with mpmath.workdps(50):
        p = [mpmath.mpf(0.4), mpmath.mpf(0.6)]
        right = (p[0] + p[1] * mpmath.e**3) / (p[0] * mpmath.exp(mpmath.mpf(0.5)) + p[1] * mpmath.e**2)
        left = (p[0] + p[1] * mpmath.e**-3) / (p[0] * mpmath.exp(-mpmath.mpf(0.5)) + p[1] * mpmath.e**-2)
        return float(right), float(left)


def test_density_ratio_at_infinity_is_the_tail_constant():
    """Reference: Result 6 (000, Section 2.2.2), the ratio is constant right (left) of every atom;
    its value there by the closed form, mpmath 50 digits (2.4448...; 1.3275...)."""
    right, left = _mp_tails()
    assert float(density_ratio(np.inf, **TAIL)) == pytest.approx(right, rel=1e-14)
    assert float(density_ratio(-np.inf, **TAIL)) == pytest.approx(left, rel=1e-14)
    assert float(density_ratio(np.inf, **TAIL, log=True)) == pytest.approx(math.log(right), rel=1e-14)
    assert density_ratio_derivative(np.inf, **TAIL) == 0.0
    assert density_ratio_derivative(-np.inf, **TAIL) == 0.0


def test_density_ratio_far_right_keeps_the_tail_constant():
    """Reference: as above; z = 1e17 returned 1.0 (every distance rounded to 1e17), the exact
    value is the right tail constant 2.4448..."""
    right, left = _mp_tails()
    assert float(density_ratio(1e17, **TAIL)) == pytest.approx(right, rel=1e-14)
    assert float(density_ratio(-1e17, **TAIL)) == pytest.approx(left, rel=1e-14)
    got = density_ratio(np.array([3.0, 3.5, 1e3, 1e17, 1e300]), **TAIL)
    np.testing.assert_allclose(got, right, rtol=1e-14)


def test_density_ratio_derivative_beyond_the_atoms_is_zero():
    """Reference: the ratio e^{2/b} is constant right of both atoms 2 and 0 (Result 6), so its derivative
    is 0; at b = 1e-3 the ratio overflows and R * slope was inf * 0 = NaN."""
    assert density_ratio_derivative(5.0, [2.0], [0.0], [1.0], 1e-3) == 0.0
    assert density_ratio_derivative(-5.0, [2.0], [0.0], [1.0], 1e-3) == 0.0
    assert density_ratio_derivative(np.array([-np.inf, 1e300, np.inf]), [2.0], [0.0], [1.0], 1e-3).tolist() == [0, 0, 0]


def _mp_ratio(z, t, tp, p, b):
    f = lambda ts: sum(mpmath.mpf(pk) * mpmath.exp(-abs(z - mpmath.mpf(tk)) / b) for tk, pk in zip(ts, p))
    return f(t) / f(tp)


@pytest.mark.parametrize("z", [1.0, 0.5, 20.0, 39.0, 42.0])
def test_density_ratio_derivative_keeps_its_sign_between_far_atoms(z):
    """Reference: mpmath.diff at 60 digits of the defining ratio of sums.  Between the atoms 0 and 40
    (x) and -30 and 80 (x'), at z = 1 both log-slopes are within e^{-38} of -1/b, so their
    difference (the former slope form) cancelled to 0 where the derivative is +6.7e-4."""
    t, tp, p, b = [0.0, 40.0], [-30.0, 80.0], [0.5, 0.5], 1.0
    with mpmath.workdps(60):
        ref = mpmath.diff(lambda zz: _mp_ratio(zz, t, tp, p, mpmath.mpf(b)), mpmath.mpf(z))
    got = float(density_ratio_derivative(z, t, tp, p, b))
    assert got == pytest.approx(float(ref), rel=1e-12)
    assert math.copysign(1, got) == math.copysign(1, float(ref))


def test_laplace_pdf_infinite_x_and_mu():
    """Reference: |x - mu| is undefined for x = mu = inf: refused naming mu (an infinite location is no
    Laplace law); the limits by hand: e^{-inf} = 0 wherever |x - mu| = inf."""
    with pytest.raises(ParameterError) as err:
        laplace_pdf(np.inf, 1.5, np.inf)
    assert err.value.param == "mu" and str(err.value).startswith("mu ")
    with pytest.raises(ParameterError, match="^mu "):
        laplace_pdf(-np.inf, 1.5, -np.inf)
    assert laplace_pdf(np.inf, 1.5, -np.inf) == 0.0 and laplace_pdf(np.inf, 1.5) == 0.0
    assert laplace_pdf(0.0, 1.5, np.inf) == 0.0


def test_laplace_mechanism_delta_infinite_epsilon_and_sensitivity():
    """Reference: delta = max(0, 1 - e^{(eps - Delta/b)/2}) (000, Section 1.4) by hand: eps = inf gives
    0 for every finite Delta (also when Delta/b overflows); Delta = inf gives 1 for every finite eps;
    both together disagree (0 vs 1) and are refused naming sensitivity."""
    with pytest.raises(ParameterError) as err:
        laplace_mechanism_delta(np.inf, np.inf, 1.0)
    assert err.value.param == "sensitivity"
    assert laplace_mechanism_delta(np.inf, 2.0, 1.0) == 0.0
    assert laplace_mechanism_delta(np.inf, 1e300, 1e-300) == 0.0
    assert laplace_mechanism_delta(1.0, np.inf, 1.0) == 1.0
    with pytest.raises(ParameterError, match="^b "):
        laplace_mechanism_delta(1.0, 2.0, np.inf)


def test_laplace_mgf_at_zero_is_one_for_infinite_mu():
    """Reference: e^{0 X} = 1 pointwise, so E[e^{0 X}] = 1 (by hand) for every mu, infinite included."""
    assert laplace_mgf(0.0, 0.5, np.inf) == 1.0
    assert laplace_mgf(0.0, 0.5, -np.inf) == 1.0
    assert laplace_mgf([-1.0, 0.0, 1.0], 0.5, np.inf).tolist() == [0.0, 1.0, np.inf]


def test_log_laplace_moments_at_minus_infinite_mu():
    """Reference: by hand from Lemma 1 (004, A.1): E[e^X] = e^mu/((1 - b)(1 + b)) for b < 1 and inf for
    b >= 1 at every finite mu; Var(e^X) likewise with b < 1/2.  At mu = -inf and a divergent moment the
    value is e^mu times inf, 0 * inf: the limit of the moment (inf) and the moment of the limit law
    (e^X = 0 almost surely: 0) disagree, so the call is refused naming mu, as laplace_mgf with
    a mu = -inf and |ab| >= 1.  Where the moment exists both agree on 0; mu = +inf gives inf (inf * inf)."""
    for call in (lambda: log_laplace_mean(2.0, -np.inf), lambda: log_laplace_mean(1.0, -np.inf),
                 lambda: log_laplace_mean(np.inf, -np.inf), lambda: log_laplace_variance(0.5, -np.inf),
                 lambda: log_laplace_variance([0.1, 0.7], -np.inf), lambda: laplace_mgf(1.0, 2.0, -np.inf),
                 lambda: laplace_mgf(-1.0, 2.0, np.inf), lambda: laplace_mgf(np.inf, 0.5, -np.inf)):
        with pytest.raises(ParameterError) as err:
            call()
        assert err.value.param == "mu" and str(err.value).startswith("mu ") and "0 * inf" in str(err.value)
    assert log_laplace_mean(0.5, -np.inf) == 0.0 and log_laplace_variance(0.4, -np.inf) == 0.0
    assert log_laplace_mean(2.0, np.inf) == np.inf and log_laplace_variance(0.5, np.inf) == np.inf
    assert log_laplace_mean(2.0, -1e300) == np.inf and log_laplace_variance(0.5, -1e300) == np.inf
    assert laplace_mgf(1.0, 2.0, np.inf) == np.inf and laplace_mgf(-1.0, 2.0, -np.inf) == np.inf
    assert laplace_mgf(-np.inf, 0.5, 1.0) == np.inf      # |ab| = inf at finite mu: infinite for all large |a|


def _rse_one_unit(b: Fraction) -> float:
    """sqrt(Var(c e^X)) = sqrt(b^2 (2 + b^2)/((1 - 2b)(1 + 2b))) (004, A.3), the fraction exact."""
    return math.sqrt(float(b * b * (2 + b * b) / ((1 - 2 * b) * (1 + 2 * b))))


def test_census_rse_total_overflows():
    """Reference: the RSE is scale-invariant; for y = (1, 1, 0) with unit 0 perturbed at b = 0.28 it is
    sqrt(Var)/2 = 0.24361... (closed form A.3, exact fractions; the issue's 0.245 is a rounding).
    The float total 1e308 + 1e308 overflowed and the result was 0."""
    want = _rse_one_unit(Fraction(28, 100)) / 2
    assert want == pytest.approx(0.2436149661828, rel=1e-12)
    assert census_rse([1e308, 1e308, 0.0], [True, False, False], 0.28) == pytest.approx(want, rel=1e-14)
    assert census_rse([1.0, 1.0, 0.0], [True, False, False], 0.28) == pytest.approx(want, rel=1e-14)
    assert census_rse([5e-324, 5e-324], [True, False], 0.28) == pytest.approx(want, rel=1e-14)


def test_census_rse_total_cancels_in_floating_point():
    """Reference: the exact total of (1, 1e16, -1e16) is 1 (float sum 0: the input was refused); the RSE
    is sqrt(Var)/1 with only unit 0 perturbed (closed form, exact fractions).  A total that is
    exactly 0 is still refused naming y."""
    want = _rse_one_unit(Fraction(28, 100))
    assert census_rse([1.0, 1e16, -1e16], [True, False, False], 0.28) == pytest.approx(want, rel=1e-14)
    with pytest.raises(ParameterError, match="^y "):
        census_rse([1e16, 1.0, -1e16, -1.0], [True, False, False, False], 0.28)


def test_simulate_disclosure_risk_huge_values():
    """Reference: for y = (v, v, v), j = 1, k = 0, R = 1 and a violation is c e^X < p, probability
    F(ln(p/c)) = (p/c)^{1/b}/2 (Laplace cdf by hand; b = -(4/eps) ln(1 - q)) = 7.84e-4.  The sum
    3e308 overflowed and the estimate was 0.  The estimate is the same for v = 1e308 and v = 1
    (the same draws, scale-invariant), and within 5 standard errors of the exact value."""
    p, q, eps, reps = 0.15, 0.1, 1.5, 20000
    b = -4 * math.log1p(-q) / eps
    c = 1 - b * b
    exact = 0.5 * (p / c) ** (1 / b)
    assert exact == pytest.approx(7.84e-4, rel=2e-3)
    big = simulate_disclosure_risk([1e308] * 3, 1, 0, p, q, eps, reps, 7)
    assert big == simulate_disclosure_risk([1.0] * 3, 1, 0, p, q, eps, reps, 7)
    assert big == simulate_disclosure_risk([-3e-310] * 3, 1, 0, p, q, eps, reps, 7)
    assert abs(big[0] - exact) <= 5 * math.sqrt(exact * (1 - exact) / reps)


def _mp_sup(p, q, eps):
    """sup_R f(R) at 60 digits: the zero of g(R) = (1/b - 1) ln((1-p-R)/c) + (1/b + 1) ln((1+p-R)/c) on
    piece 2 (Theorem B.2, 004 Appendix B.2) by mpmath.findroot, and f there by the printed piece 2,
    1 - ((1+p-R)/c)^{-1/b}/2 - ((1-p-R)/c)^{1/b}/2."""
    with mpmath.workdps(60):
        p, q, eps = mpmath.mpf(p), mpmath.mpf(q), mpmath.mpf(eps)
        b = -4 * mpmath.log(1 - q) / eps
        c = 1 - b * b
        g = lambda R: (1 / b - 1) * mpmath.log((1 - p - R) / c) + (1 / b + 1) * mpmath.log((1 + p - R) / c)
        lo, hi = 1 - p - c, min(1 + p - c, 1 - p)
        R = mpmath.findroot(g, (lo + (hi - lo) * mpmath.mpf(10)**-40, hi - (hi - lo) * mpmath.mpf(10)**-40),
                            solver="anderson")
        f = 1 - ((1 + p - R) / c) ** (-1 / b) / 2 - ((1 - p - R) / c) ** (1 / b) / 2
        return float(f), float(R)


@pytest.mark.parametrize("p", [1e-12, 1e-8, 1e-4, 0.15, 0.6])
def test_max_disclosure_risk_against_mpmath(p):
    """Reference: mpmath at 60 digits (``_mp_sup``).  At p = 1e-12 the former 1 - (e^{-v/b} + e^{u/b})/2
    kept 5 digits (relative error 1.1e-5); the docstring promises 1e-12."""
    sup, arg = max_disclosure_risk(p, 0.15, 1.3)
    ref, ref_arg = _mp_sup(p, 0.15, 1.3)
    assert sup == pytest.approx(ref, rel=1e-12)
    assert arg == pytest.approx(ref_arg, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("p", [1e-12, 1e-9])
def test_disclosure_risk_piece2_tiny_p_against_mpmath(p):
    """Reference: piece 2 of b.1.3 at 60 digits at R = R* and nearby points inside piece 2 (of width 2p):
    the same cancellation as in the supremum (1 - two tails near 1/2 each)."""
    q, eps = 0.15, 1.3
    _, R_star = _mp_sup(p, q, eps)
    for R in (R_star, R_star - p / 4, R_star + p / 4):
        with mpmath.workdps(60):
            P, Q, E, Rm = (mpmath.mpf(v) for v in (p, q, eps, R))
            b = -4 * mpmath.log(1 - Q) / E
            c = 1 - b * b
            assert (1 - P - Rm) / c < 1 < (1 + P - Rm) / c            # piece 2
            ref = 1 - ((1 + P - Rm) / c) ** (-1 / b) / 2 - ((1 - P - Rm) / c) ** (1 / b) / 2
        assert float(disclosure_risk(R, p, q, eps)) == pytest.approx(float(ref), rel=1e-10)


def _algorithm_431(y, mask, b, draws):
    """Algorithm 4.3.1 (004, Section 4.3) from one (reps, units) array of draws: the RMSE of
    sum_i y_i (c e^{b X} - 1) over the replicates, divided by |Y|."""
    y = np.asarray(y, dtype=float)
    err = ((1 - b * b) * np.exp(draws * b) - 1.0) @ y[mask]
    return math.sqrt(np.mean(err**2)) / abs(math.fsum(y))


@pytest.mark.parametrize("units,reps,cells", [(3, 1_500_000, None), (25, 40, 100), (2500, 7, 1000)])
def test_simulate_rse_blocks_preserve_the_draws(units, reps, cells, monkeypatch):
    """Reference: algorithm 4.3.1 evaluated on one (reps, units) array drawn at once: the blocks (whole
    replicates, or one replicate in slices of units when it exceeds a block) take the same draws.
    With the real block of 2^22 draws (1.5e6 replicates of 3 units: two blocks), and with the block
    set to 100 and 1000 draws so that both paths run on small arrays (2500 units > 1000: slices)."""
    import numeric.ht

    if cells is not None:
        monkeypatch.setattr(numeric.ht, "_CELLS", cells)
    y = np.linspace(1.0, 2.0, units)
    mask = np.ones(units, dtype=bool)
    mask[0] = False
    ref = _algorithm_431(y, mask, 0.1, np.random.default_rng(5).laplace(0.0, 1.0, size=(reps, units - 1)))
    assert simulate_rse(y, mask, 0.1, reps, 5) == pytest.approx(ref, rel=1e-9)


def test_simulate_rse_memory_is_bounded():
    """Reference: the docstring's bound (blocks of at most 2^22 draws, 32 MiB per array).  20000 units and
    600 replicates took (600, 20000) arrays, 92 MiB each, at least two at once (9.8 GiB each at 70000
    replicates); the peak traced allocation must stay below 128 MiB."""
    y, mask = np.ones(20000), np.ones(20000, dtype=bool)
    tracemalloc.start()
    try:
        rse = simulate_rse(y, mask, 0.1, 600, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 128 << 20, peak
    # sqrt(N Var(c e^X)) / N (closed form A.3), within 10% after 600 replicates
    assert rse == pytest.approx(math.sqrt(20000 * 0.01 * 2.01 / 0.96) / 20000, rel=0.1)


def _hyper(N, n, t, y) -> Fraction:
    if y < 0 or y > n or y > t or n - y > N - t:
        return Fraction(0)
    return Fraction(comb(t, y) * comb(N - t, n - y), comb(N, n))


def _exact_delta0(N, n, m_t, M_t, c: Fraction) -> Fraction:
    """max over neighbouring totals in [m_t, M_t], both orders, of sum_y (f_t - c f_t')_+ (Result 8), exact."""
    best = Fraction(0)
    for t in range(m_t, M_t):
        for a, bb in ((t, t + 1), (t + 1, t)):
            best = max(best, sum((max(_hyper(N, n, a, y) - c * _hyper(N, n, bb, y), 0) for y in range(n + 1)),
                                 Fraction(0)))
    return best


@pytest.mark.parametrize("N,n,m_t,M_t", [(9, 4, 0, 5), (9, 4, 3, 9), (12, 1, 0, 12), (10, 10, 0, 3), (11, 5, 0, 1)])
def test_srs_binary_delta0_range_touching_an_end_is_n_over_N(N, n, m_t, M_t):
    """Reference: exact fractions over every neighbouring pair (Result 8) at eps = 0, ln 2 (c = 2) and
    ln 7: delta = n/N whenever the range touches 0 or N."""
    for c in (Fraction(1), Fraction(2), Fraction(7)):
        want = _exact_delta0(N, n, m_t, M_t, c)
        assert want == Fraction(n, N)
        assert float(srs_binary_delta0(math.log(c), N, n, m_t, M_t)) == pytest.approx(float(want), rel=1e-13)


def test_srs_binary_delta0_huge_population_touching_an_end():
    """Reference: n/N (the previous test's exact identity) for N = 10^9, n = 1 over [0, N]: the former
    code allocated 7.5 GiB of totals.  Bounded memory (below 200 MiB traced) and CPU time (< 2 s)."""
    tracemalloc.start()
    t0 = time.process_time()
    try:
        got = srs_binary_delta0(0.5, 10**9, 1, 0, 10**9)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == 1e-9
    assert peak < 200 << 20 and time.process_time() - t0 < 2.0


def test_srs_binary_delta0_beyond_epsilon0_is_zero_and_huge_interior_refused():
    """Reference: Result 9: delta = 0 for eps >= eps0 (000, Section 2.3); an interior range of 10^9
    totals would be a search of hours: refused naming M_t before anything is allocated."""
    eps0 = float(srs_binary_epsilon0(10**9, 10, 10, 10**9 - 10))
    assert srs_binary_delta0(eps0 * 1.01, 10**9, 10, 10, 10**9 - 10) == 0.0
    tracemalloc.start()
    try:
        with pytest.raises(ParameterError) as err:
            srs_binary_delta0(0.1, 10**9, 10, 10, 10**9 - 10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.value.param == "M_t" and peak < 50 << 20


@pytest.mark.parametrize("call,param", [
    (lambda: laplace_pdf([1.0, 2.0], 1.0, [1.0, 2.0, 3.0]), "mu"),
    (lambda: laplace_mgf([1.0, 2.0], [0.1, 0.2, 0.3]), "b"),
    (lambda: pufferfish_scale([1.0, 2.0], [0.1, 0.2, 0.3]), "q"),
    (lambda: laplace_mechanism_delta([0.0, 1.0], [1.0, 2.0, 3.0], 1.0), "sensitivity"),
    (lambda: srs_binary_log_pmf([0, 1], [1, 2, 3], 4, 2), "t"),
    (lambda: srs_binary_epsilon0([10, 20], [1, 2, 3], 3, 7), "n"),
    (lambda: density_ratio(0.0, [0.0], [0.0, 1.0], [0.5, 0.5], 1.0), "atoms_x"),
])
def test_broadcast_errors_name_the_parameter(call, param):
    """Reference: the documented broadcasting (numpy's own error named no parameter)."""
    with pytest.raises(ParameterError) as err:
        call()
    assert err.value.param == param and str(err.value).startswith(param)


@pytest.mark.parametrize("call,param", [
    (lambda: pufferfish_scale(1.3, 0.15, tight="False"), "tight"),
    (lambda: disclosure_risk(0.1, 0.15, 0.15, 1.3, tight="False"), "tight"),
    (lambda: census_rse([3.0, 1.0], ["no", "yes"], 0.1), "perturbed"),
    (lambda: simulate_rse([3.0, 1.0], [False, True], 0.1, 10, 1, return_se="no"), "return_se"),
    (lambda: mixture_density(0.0, [0.0], [1.0], 1.0, log="yes"), "log"),
    (lambda: density_ratio(0.0, [0.0], [1.0], [1.0], 1.0, log=1), "log"),
])
def test_truthy_strings_are_not_booleans(call, param):
    """Reference: documented parameter types (True or False)."""
    with pytest.raises(ParameterError) as err:
        call()
    assert err.value.param == param


def test_ht_variance_bias_corrected_must_be_boolean():
    """Reference: documented parameter type (bias_corrected='no' was truthy: the correction applied)."""
    pij = np.full((2, 2), 0.5)
    np.fill_diagonal(pij, 1.0)
    from numeric import ht_variance
    with pytest.raises(ParameterError) as err:
        ht_variance([1.0, 2.0], [1.0, 1.0], np.ones((2, 2)), [True, False], 0.1, bias_corrected="no")
    assert err.value.param == "bias_corrected"


@pytest.mark.parametrize("samples", [[(0, 1), (1.5, 2)], [(0, 1), (1, 1)], [(0, 1), (True, 2)], [(0, 1), "12"]])
def test_ht_atoms_refuses_fractional_and_repeated_units(samples):
    """Reference: a sample is a set of units (000, Section 1.3): 1.5 was truncated to 1, and a repeated
    unit counted twice."""
    with pytest.raises(ParameterError) as err:
        ht_atoms(samples, [0.5, 0.5], [1.0, 2.0, 3.0])
    assert err.value.param == "samples"


@pytest.mark.parametrize("kw,param", [
    (dict(reps=2.5), "reps"), (dict(reps=True), "reps"), (dict(reps=-1), "reps"), (dict(reps=1), "reps"),
    (dict(rng=-1), "rng"), (dict(rng=np.int64(-1)), "rng"), (dict(rng="1"), "rng"), (dict(rng=True), "rng"),
])
def test_counts_and_seeds(kw, param):
    """Reference: documented domains (reps an integer >= 2, rng a Generator or a seed >= 0)."""
    args = dict(y=[3.0, 1.0], perturbed=[False, True], b=0.1, reps=10, rng=1, **{})
    args.update(kw)
    with pytest.raises(ParameterError) as err:
        simulate_rse(**args)
    assert err.value.param == param


@pytest.mark.parametrize("module", sorted(p.stem for p in NUMERIC.glob("*.py")))
def test_no_scipy_or_mpmath_at_import(module):
    """Reference: the start-up requirement: scipy, mpmath and sympy are imported inside the functions
    that use them, never at the top level of a module of ``numeric`` (read from its source)."""
    tree = ast.parse((NUMERIC / f"{module}.py").read_text())
    for node in tree.body:
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        assert not any(n.split(".")[0] in ("scipy", "mpmath", "sympy") for n in names), (module, names)
