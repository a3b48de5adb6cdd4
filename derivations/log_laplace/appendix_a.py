"""Variance of the Horvitz-Thompson total under log-Laplace multiplicative perturbation.

Source: ``004_005a37d6f70bd1b7.txt``, Appendix A (Proposition 2, Corollary 3,
Proposition 4, Corollary 5, A.3) and the analytic RSE of Section 4.3.

The estimator is  Yhat = sum_{i in U} delta_i w_i pi_i^{-1} e^{a_i X_i} y_i  with
sample indicators delta_i (E[delta_i] = pi_i, E[delta_i delta_j] = pi_ij),
independent X_i ~ Laplace(mu_i, b_i) independent of the sample, perturbation
indicators a_i in {0, 1} and weights w_i (1, or the bias correction of
Proposition 4).  The printed formulas replace a_i^2 by a_i (writing 1 - a_i b_i^2
for 1 - a_i^2 b_i^2); every claim that relies on it is checked over both values
of each a_i, and the shortcut itself is a claim.

The first-principles derivation expands Yhat and Yhat^2 as polynomials in the
delta_i and Z_i = e^{a_i X_i}, and takes expectations monomial by monomial:
the delta part gives pi_i or pi_ij, the Z part factorises by independence and
each factor is Lemma 1 (``laplace.mgf``) with a = k a_i.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..engine.core import Claim, Enumeration, Proof, Source, all_of, claim, erratum, is_zero, register, zero
from ..engine.formulas import formula
from .laplace import expectation, mgf_printed_case1

DOC = "004_005a37d6f70bd1b7.txt"
PROP2 = Source(DOC, "Appendix A.1, Proposition 2")
COR3 = Source(DOC, "Appendix A.1, Corollary 3")
PROP4 = Source(DOC, "Appendix A.2, Proposition 4")
COR5 = Source(DOC, "Appendix A.2, Corollary 5")
A3 = Source(DOC, "Appendix A.3")
RSE = Source(DOC, "Section 4.3, analytic RSE and algorithm 4.3.1")

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
b = sp.Symbol("b", positive=True)
mu = sp.Symbol("mu", real=True)
a = sp.Symbol("a", integer=True, nonnegative=True)
pi_ = sp.Symbol("pi", positive=True)
w_ = sp.Symbol("w", positive=True)
m, M2 = sp.symbols("m M_2", positive=True)  # abstract first and second moments of the noise factor

N_SMALL = 3  # population size of the fully expanded first-principles derivation


# -- the printed formulas --------------------------------------------------------------------
def moment(k, a, b, mu):
    """E[e^{k a X}] for X ~ Laplace(mu, b): Lemma 1 with a -> k a (finite when |k a b| < 1)."""
    return mgf_printed_case1(k * a, b, mu)


def weight_printed(a, b, mu):
    """Proposition 4: w = ((1 - a b^2) / e^{a mu})^a."""
    return ((1 - a * b**2) / sp.exp(a * mu)) ** a


def diagonal_printed(a, b, mu, pi):
    """Proposition 2, coefficient of y_i^2: e^{2 a mu} [1/(pi (1 - 4 a b^2)) - 1/(1 - a b^2)^2]."""
    return sp.exp(2 * a * mu) * (1 / (pi * (1 - 4 * a * b**2)) - 1 / (1 - a * b**2) ** 2)


def offdiagonal_printed(ai, bi, mui, aj, bj, muj, pi_i, pi_j, pi_ij):
    """Proposition 2, coefficient of y_i y_j (i != j)."""
    return (sp.exp(ai * mui + aj * muj) / ((1 - ai * bi**2) * (1 - aj * bj**2))
            * (pi_ij / (pi_i * pi_j) - 1))


def relative_variance(b):
    """Var(w e^X) for the bias-corrected factor, in the form free of cancellation:
    b^2 (2 + b^2) / ((1 - 2b)(1 + 2b))."""
    return b**2 * (2 + b**2) / ((1 - 2 * b) * (1 + 2 * b))


def log_laplace_variance_stable(b, mu):
    """Var(e^X) = e^{2 mu} b^2 (2 + b^2) / ((1 - 2b)(1 + 2b)(1 - b)^2 (1 + b)^2)."""
    return sp.exp(2 * mu) * relative_variance(b) / ((1 - b) ** 2 * (1 + b) ** 2)


class Population:
    """Symbols of a population of size n: y_i, pi_i, pi_ij, b_i, mu_i."""

    def __init__(self, n: int):
        idx = range(1, n + 1)
        self.n = n
        self.y = sp.symbols(f"y_1:{n + 1}", real=True)
        self.pi = sp.symbols(f"pi_1:{n + 1}", positive=True)
        self.b = sp.symbols(f"b_1:{n + 1}", positive=True)
        self.mu = sp.symbols(f"mu_1:{n + 1}", real=True)
        self.delta = sp.symbols(f"delta_1:{n + 1}")
        self.z = sp.symbols(f"Z_1:{n + 1}")
        self._pij = {(i, j): sp.Symbol(f"pi_{i}{j}", positive=True) for i in idx for j in idx if i < j}

    def pi_pair(self, i: int, j: int):
        """pi_ij for 0-based i, j (pi_ii = pi_i)."""
        if i == j:
            return self.pi[i]
        i, j = sorted((i, j))
        return self._pij[(i + 1, j + 1)]

    def estimator(self, weights):
        return sum(self.delta[i] * weights[i] * self.z[i] * self.y[i] / self.pi[i] for i in range(self.n))

    def expect(self, poly_expr, pattern):
        """E[.] of a polynomial in delta_i, Z_i: inclusion probabilities times Lemma 1 moments."""
        gens = self.delta + self.z
        poly = sp.Poly(sp.expand(poly_expr), *gens)
        total = sp.S.Zero
        for powers, coeff in poly.terms():
            dpow, zpow = powers[: self.n], powers[self.n:]
            included = [i for i in range(self.n) if dpow[i] > 0]
            if len(included) > 2:
                raise ValueError("third-order inclusion probabilities are not needed here")
            p_incl = (sp.S.One if not included else
                      self.pi_pair(included[0], included[-1]))
            z_moment = sp.Mul(*[moment(k, pattern[i], self.b[i], self.mu[i])
                                for i, k in enumerate(zpow) if k])
            total += coeff * p_incl * z_moment
        return total

    def variance_first_principles(self, pattern, weights):
        yhat = self.estimator(weights)
        return self.expect(yhat**2, pattern) - self.expect(yhat, pattern) ** 2

    def variance_printed(self, pattern, weights):
        """Proposition 2 (weights 1) or Corollary 5 (printed weights) summed over U."""
        n = range(self.n)
        wy = [weights[i] * self.y[i] for i in n]
        diag = sum(wy[i] ** 2 * diagonal_printed(pattern[i], self.b[i], self.mu[i], self.pi[i]) for i in n)
        off = sum(wy[i] * wy[j] * offdiagonal_printed(pattern[i], self.b[i], self.mu[i], pattern[j],
                                                      self.b[j], self.mu[j], self.pi[i], self.pi[j],
                                                      self.pi_pair(i, j))
                  for i in n for j in n if i != j)
        return diag + off

    def printed_weights(self, pattern):
        return [weight_printed(pattern[i], self.b[i], self.mu[i]) for i in range(self.n)]


def _over_patterns(n: int, check) -> Enumeration:
    """Run ``check(pattern)`` (a symbolic zero test) for every a in {0,1}^n."""
    cases = 0
    for pattern in itertools.product((0, 1), repeat=n):
        cases += 1
        if not check(pattern):
            return Enumeration(False, cases, "symbolic identity fails",
                               {f"a_{i + 1}": str(v) for i, v in enumerate(pattern)})
    return Enumeration(True, cases, f"every a in {{0,1}}^{n}, each case proved symbolically")


# -- a_i^2 = a_i ---------------------------------------------------------------------------
claim(id="ht.indicator_square", title="The printed shortcut a_i^2 = a_i for a perturbation indicator",
      source=PROP2, kind="identity", lhs=(1 - 4 * a**2 * b**2) * (1 - a**2 * b**2),
      rhs=(1 - 4 * a * b**2) * (1 - a * b**2), conditions=(sp.Contains(a, sp.FiniteSet(0, 1)),),
      enumeration=lambda: _over_patterns(1, lambda p: is_zero(
          ((1 - 4 * a**2 * b**2) * (1 - a**2 * b**2) - (1 - 4 * a * b**2) * (1 - a * b**2)).subs(a, p[0]))),
      note="Holds only for a in {0, 1}; every printed formula of Appendix A relies on it.")

# -- first-principles steps -------------------------------------------------------------------
pi_i, pi_j, pi_ij = sp.symbols("pi_i pi_j pi_ij", positive=True)
m_i, m_j = sp.symbols("m_i m_j", positive=True)
joint = {(1, 1): pi_ij, (1, 0): pi_i - pi_ij, (0, 1): pi_j - pi_ij, (0, 0): 1 - pi_i - pi_j + pi_ij}
claim(id="ht.joint_inclusion_moment",
      title="E[delta_i delta_j Z_i Z_j] = pi_ij E[Z_i] E[Z_j] (conditioning on the sample)",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (1) case 2"), kind="identity",
      lhs=sum(p * di * dj * m_i * m_j for (di, dj), p in joint.items()), rhs=pi_ij * m_i * m_j,
      note="Sum over the joint distribution of (delta_i, delta_j); the noise is independent of the sample.")
claim(id="ht.inclusion_moment", title="E[delta_i Z_i] = pi_i E[Z_i] (conditioning on delta_i)",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (2)"), kind="identity",
      lhs=(1 - pi_) * 0 * m + pi_ * 1 * m, rhs=pi_ * m)
claim(id="ht.inclusion_second_moment", title="E[delta_i^2 Z_i^2] = pi_i E[Z_i^2] (conditioning on delta_i)",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (1) case 1"), kind="identity",
      lhs=(1 - pi_) * 0**2 * M2 + pi_ * 1**2 * M2, rhs=pi_ * M2)


def _diag_check(pattern):
    ai = pattern[0]
    fp = (pi_ * moment(2, ai, b, mu) - (pi_ * moment(1, ai, b, mu)) ** 2) / pi_**2
    return is_zero(fp - diagonal_printed(ai, b, mu, pi_))


bi, bj = sp.symbols("b_i b_j", positive=True)
mui, muj = sp.symbols("mu_i mu_j", real=True)


def _offdiag_check(pattern):
    ai, aj = pattern
    mi, mj = moment(1, ai, bi, mui), moment(1, aj, bj, muj)
    fp = (pi_ij * mi * mj - pi_i * mi * pi_j * mj) / (pi_i * pi_j)
    return is_zero(fp - offdiagonal_printed(ai, bi, mui, aj, bj, muj, pi_i, pi_j, pi_ij))


claim(id="ht.prop2_diagonal", title="Proposition 2: coefficient of y_i^2 from first principles",
      source=PROP2, kind="identity",
      lhs=(pi_ * moment(2, a, b, mu) - (pi_ * moment(1, a, b, mu)) ** 2) / pi_**2,
      rhs=diagonal_printed(a, b, mu, pi_),
      conditions=(sp.Contains(a, sp.FiniteSet(0, 1)), sp.Lt(2 * a * b, 1)),
      enumeration=lambda: _over_patterns(1, _diag_check))
claim(id="ht.prop2_offdiagonal", title="Proposition 2: coefficient of y_i y_j (i != j) from first principles",
      source=PROP2, kind="identity",
      lhs=sp.Symbol("C_ij"), rhs=offdiagonal_printed(sp.Symbol("a_i", integer=True), bi, mui,
                                                    sp.Symbol("a_j", integer=True), bj, muj,
                                                    pi_i, pi_j, pi_ij),
      enumeration=lambda: _over_patterns(2, _offdiag_check),
      note="C_ij = pi_i^{-1} pi_j^{-1} (E[delta_i delta_j Z_i Z_j] - E[delta_i Z_i] E[delta_j Z_j]). "
           "Var(Yhat) = sum_ij y_i y_j C_ij by bilinearity, so the two coefficient identities prove "
           "Proposition 2 for every population size.")

POP = Population(N_SMALL)


def _prop2_full(pattern):
    ones = [1] * POP.n
    return is_zero(POP.variance_first_principles(pattern, ones) - POP.variance_printed(pattern, ones))


def _cor5_full(pattern):
    wts = POP.printed_weights(pattern)
    return is_zero(POP.variance_first_principles(pattern, wts) - POP.variance_printed(pattern, wts))


A_SYMS = sp.symbols(f"a_1:{N_SMALL + 1}", integer=True)
claim(id="ht.prop2_first_principles",
      title=f"Proposition 2 derived from E[Yhat^2] - E[Yhat]^2, fully expanded for N = {N_SMALL}",
      source=PROP2, kind="identity", lhs=sp.Symbol(r"\operatorname{Var}(\hat Y_\pi)"),
      rhs=POP.variance_printed(A_SYMS, [1] * N_SMALL),
      enumeration=lambda: _over_patterns(N_SMALL, _prop2_full), budget=120)
claim(id="ht.cor5_first_principles",
      title=f"Corollary 5 derived from first principles with the bias-correction weights, N = {N_SMALL}",
      source=COR5, kind="identity", lhs=sp.Symbol(r"\operatorname{Var}(\hat Y_\pi)"),
      rhs=POP.variance_printed(A_SYMS, POP.printed_weights(A_SYMS)),
      enumeration=lambda: _over_patterns(N_SMALL, _cor5_full), budget=120)


# -- the form used by the numeric layer ---------------------------------------------------------
def _prove_decomposition() -> Proof:
    # general noise moments m_i = E[Z_i], M_i = E[Z_i^2]: per-coefficient identities
    diag = (pi_ * M2 - (pi_ * m) ** 2) / pi_**2
    off = (pi_ij * m_i * m_j - pi_i * m_i * pi_j * m_j) / (pi_i * pi_j)
    return all_of(zero(diag - (m**2 * (pi_ / pi_**2 - 1) + (M2 - m**2) / pi_), "coefficient of y_i^2"),
                  zero(off - m_i * m_j * (pi_ij / (pi_i * pi_j) - 1), "coefficient of y_i y_j"))


claim(id="ht.variance_decomposition",
      title="Var(Yhat) = design variance of the HT total of y_i E[Z_i] + sum_i y_i^2 Var(Z_i)/pi_i",
      source=PROP2, kind="identity", lhs=sp.Symbol(r"\operatorname{Var}(\hat Y_\pi)"),
      rhs=sp.Symbol(r"\sum_{i,j} y_i y_j m_i m_j (\pi_{ij}/(\pi_i\pi_j) - 1) + \sum_i y_i^2 (M_i - m_i^2)/\pi_i"),
      proof=_prove_decomposition,
      note="With pi_ii = pi_i. Valid for any independent noise factor with finite second moment; the "
           "numeric layer evaluates this form (one quadratic form and one sum).")

claim(id="log_laplace.variance_stable", title="Var(e^X) without cancellation near b = 0 and b = 1/2",
      source=Source(DOC, "Appendix A.1, Lemma 1 with a = 1 and a = 2"), kind="identity",
      lhs=moment(2, 1, b, mu) - moment(1, 1, b, mu) ** 2, rhs=log_laplace_variance_stable(b, mu),
      conditions=(sp.Lt(b, sp.Rational(1, 2)),), numeric_points=8,
      domain={b: (sp.Rational(1, 10**6), sp.Rational(499999, 10**6)), mu: (-5, 5)})
claim(id="ht.corrected_factor_variance", title="Var(c e^X) of the bias-corrected factor",
      source=A3, kind="identity",
      lhs=weight_printed(1, b, mu) ** 2 * (moment(2, 1, b, mu) - moment(1, 1, b, mu) ** 2),
      rhs=relative_variance(b), conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      note="Free of mu: the correction divides out the location.")

# -- Corollary 3: infinite variance ------------------------------------------------------------
y_nz = sp.Symbol("y", positive=True)
claim(id="ht.second_moment_infinite_at_half",
      title="E[(y e^X)^2] is infinite at b = 1/2 (the case Proposition 2 leaves undiscussed)",
      source=PROP2, kind="divergence",
      lhs=expectation((y_nz * sp.exp(x)) ** 2, b=sp.Rational(1, 2)),
      note="y > 0 stands for y != 0 (y enters squared).")
erratum(
    "ht.corollary3_zero_value",
    printed=Claim(id="ht.corollary3.printed",
                  title="Corollary 3 as printed: a perturbed unit with b > 1/2 makes Var(Yhat) infinite",
                  source=COR3, kind="identity",
                  lhs=(expectation((y * sp.exp(x)) ** 2) - expectation(y * sp.exp(x)) ** 2),
                  rhs=sp.oo, conditions=(sp.Gt(b, sp.Rational(1, 2)),),
                  counterexample={y: 0, b: sp.Rational(3, 4), mu: 0}),
    corrected=Claim(id="ht.corollary3",
                    title="Corollary 3 corrected: E[(y e^X)^2] is infinite for y != 0 and b > 1/2",
                    source=COR3, kind="divergence",
                    lhs=expectation((y_nz * sp.exp(x)) ** 2, b=(1 + w_) / 2),
                    conditions=(sp.Gt(w_, 0),),
                    note="With b = (1 + w)/2, w > 0; y > 0 stands for y != 0 (y enters squared). "
                         "Together with ht.second_moment_infinite_at_half: Var(Yhat) is infinite "
                         "exactly when some perturbed unit with pi_i > 0 and y_i != 0 has b_i >= 1/2."),
    explanation=("The variance is infinite only if the perturbed unit's value is non-zero: at y = 0 "
                 "the unit contributes nothing, whatever b. The boundary b = 1/2, which the paper "
                 "declines to discuss, also gives an infinite variance."))

# -- Proposition 4: bias correction -----------------------------------------------------------
claim(id="ht.prop4_unbiased", title="Proposition 4: the weight w_i makes each term unbiased",
      source=PROP4, kind="identity",
      lhs=weight_printed(a, b, mu) * pi_ * moment(1, a, b, mu) / pi_, rhs=1,
      conditions=(sp.Contains(a, sp.FiniteSet(0, 1)), sp.Lt(b, 1)),
      enumeration=lambda: _over_patterns(1, lambda p: is_zero(
          weight_printed(p[0], b, mu) * moment(1, p[0], b, mu) - 1)))


def _unique(p):
    sol = sp.solve(sp.Eq(w_ * pi_ * moment(1, p[0], b, mu) / pi_, 1), w_)
    return len(sol) == 1 and is_zero(sol[0] - weight_printed(p[0], b, mu))


claim(id="ht.prop4_unique", title="Proposition 4: the unbiasing weight is unique",
      source=PROP4, kind="identity", lhs=sp.Symbol("w_i"), rhs=weight_printed(a, b, mu),
      conditions=(sp.Contains(a, sp.FiniteSet(0, 1)), sp.Lt(b, 1)),
      enumeration=lambda: _over_patterns(1, _unique),
      note="w_i pi_i^{-1} E[delta_i e^{a_i X_i}] = 1 has the single solution w_i (solved by SymPy).")


# -- A.3 and Section 4.3 ----------------------------------------------------------------------
def _census_printed(pattern):
    """A.3 as printed, N = 3: sum_i (1 - a b^2)^{2a} y^2 [1/(1 - 4 a b^2) - 1/(1 - a b^2)^2]."""
    return sum((1 - ai * bb**2) ** (2 * ai) * yy**2 * (1 / (1 - 4 * ai * bb**2) - 1 / (1 - ai * bb**2) ** 2)
               for ai, bb, yy in zip(pattern, POP.b, POP.y))


def _census_subs(pattern):
    subs = {s: 0 for s in POP.mu}
    subs.update({s: 1 for s in POP.pi})
    subs.update({s: 1 for s in POP._pij.values()})
    cor5 = POP.variance_printed(pattern, POP.printed_weights(pattern)).subs(subs)
    return is_zero(cor5 - _census_printed(pattern))


claim(id="ht.census_variance", title="A.3: Corollary 5 with mu_i = 0, pi_i = pi_ij = 1 (census)",
      source=A3, kind="identity", lhs=sp.Symbol(r"\operatorname{Var}(\hat Y)"), rhs=_census_printed(A_SYMS),
      enumeration=lambda: _over_patterns(N_SMALL, _census_subs))
claim(id="ht.census_variance_stable", title="A.3 per-unit term in the cancellation-free form",
      source=A3, kind="identity",
      lhs=(1 - a * b**2) ** (2 * a) * (1 / (1 - 4 * a * b**2) - 1 / (1 - a * b**2) ** 2),
      rhs=a * relative_variance(b), conditions=(sp.Contains(a, sp.FiniteSet(0, 1)),),
      enumeration=lambda: _over_patterns(1, lambda p: is_zero(
          ((1 - a * b**2) ** (2 * a) * (1 / (1 - 4 * a * b**2) - 1 / (1 - a * b**2) ** 2)
           - a * relative_variance(b)).subs(a, p[0]))))


def _prove_rse() -> Proof:
    # b = 1/(2(1 + w)) covers 0 < b < 1/2; integrate the squared error directly (mu = 0).
    bw = 1 / (2 * (1 + w_))
    c = 1 - bw**2
    mse = expectation(sp.expand((c * sp.exp(x) * y - y) ** 2), b=bw, mu=0).doit()
    return zero(mse - y**2 * relative_variance(bw), "E[(c e^X y - y)^2] integrated directly, b = 1/(2(1+w))")


claim(id="ht.rse_first_principles",
      title="Algorithm 4.3.1: mean squared error of one perturbed value equals the analytic variance",
      source=RSE, kind="identity",
      lhs=expectation((((1 - b**2) * sp.exp(x) - 1) * y) ** 2, mu=0), rhs=y**2 * relative_variance(b),
      conditions=(sp.Lt(b, sp.Rational(1, 2)),), proof=_prove_rse, numeric_points=4,
      domain={b: (sp.Rational(1, 100), sp.Rational(49, 100)), y: (-10, 10)}, budget=180,
      note="The corrected estimator is unbiased (Proposition 4), so RMSE/Y of algorithm 4.3.1 "
           "estimates sqrt(Var)/Y, the analytic RSE.")

# -- formulas for the numeric layer -------------------------------------------------------------
formula("log_laplace_mean_finite", mgf_printed_case1(1, b, mu).subs(1 - b**2, (1 - b) * (1 + b)),
        (b, mu), claims=("laplace.mgf", "laplace.mgf_stable_form"), source=Source(DOC, "Appendix A.1, Lemma 1"),
        doc="E[e^X] = e^mu / ((1 - b)(1 + b)), valid for b < 1.")
formula("log_laplace_variance_finite", log_laplace_variance_stable(b, mu), (b, mu),
        claims=("log_laplace.variance_stable",), source=Source(DOC, "Appendix A.1, Lemma 1"),
        doc="Var(e^X), valid for b < 1/2.")
formula("bias_correction_finite", (1 - b) * (1 + b) * sp.exp(-mu), (b, mu),
        claims=("ht.prop4_unbiased", "ht.prop4_unique"), source=PROP4,
        doc="w = (1 - b^2) e^{-mu} = 1/E[e^X], valid for b < 1.")
formula("corrected_factor_variance", relative_variance(b), (b,),
        claims=("ht.corrected_factor_variance", "ht.census_variance_stable"), source=A3,
        doc="Var(w e^X) of the bias-corrected factor, valid for b < 1/2.")


# -- behaviour in b (Section 4.4 reads RSE as increasing in b) ------------------------------------
def _positive_on_half_interval(expr, what) -> Proof:
    """expr > 0 for 0 < b < 1/2: substitute b = 1/(2(1 + w)), w > 0, factor, and read the sign."""
    sub = sp.factor(sp.together(expr.subs(b, 1 / (2 * (1 + w_)))))
    ok = bool(sub.is_positive)
    return Proof(ok, (f"{what}: with b = 1/(2(1+w)) it factors as {sub}, "
                      f"{'positive' if ok else 'sign not shown'} for w > 0",))


claim(id="ht.corrected_factor_variance_positive", title="Var(c e^X) > 0 for 0 < b < 1/2",
      source=A3, kind="sign", lhs=relative_variance(b), relation=">",
      conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      proof=lambda: _positive_on_half_interval(relative_variance(b), "Var(c e^X)"))
claim(id="ht.rse_increasing_in_b", title="The analytic RSE increases with b on (0, 1/2)",
      source=Source(DOC, "Section 4.4 (a higher b means a higher RSE)"), kind="sign",
      lhs=sp.Derivative(relative_variance(b), b), relation=">", conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      proof=lambda: _positive_on_half_interval(sp.diff(relative_variance(b), b), "d/db Var(c e^X)"),
      numeric_points=10, domain={b: (sp.Rational(1, 1000), sp.Rational(499, 1000))},
      note="The RSE is sqrt(sum y_h^2 Var(c e^X))/|Y|, increasing in each b_h because Var(c e^X) is.")
claim(id="log_laplace.variance_small_b", title="Var(e^X) ~ 2 e^{2 mu} b^2 as b -> 0 (RSE ~ sqrt(2) b |y|/|Y|)",
      source=Source(DOC, "Appendix A.1, Lemma 1 with a = 1 and a = 2"), kind="limit",
      lhs=sp.Limit(log_laplace_variance_stable(b, mu) / b**2, b, 0, "+"), rhs=2 * sp.exp(2 * mu))
