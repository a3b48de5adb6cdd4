"""Variance of the Horvitz-Thompson total under log-Laplace multiplicative perturbation.

Source: ``abs-pufferfish`` (``004_005a37d6f70bd1b7.txt``), Appendix A (Proposition 2, Corollary 3,
Proposition 4, Corollary 5, A.3) and the analytic RSE of Section 4.3.

The estimator is  Yhat = sum_{i in U} delta_i w_i pi_i^{-1} e^{a_i X_i} y_i  with
sample indicators delta_i, independent X_i ~ Laplace(mu_i, b_i) independent of the
sample, perturbation indicators a_i in {0, 1} and weights w_i (1, or the bias
correction of Proposition 4).

The derivation is encoded in the paper's order:

* the design and noise moments (steps (1) and (2) of the proof of Proposition 2):
  E[delta_i Z_i], E[delta_i^2 Z_i^2] and E[delta_i delta_j Z_i Z_j] computed for
  every design (a distribution p_1, ..., p_K on K samples, K symbolic) by
  conditioning on the sample, with the noise moments written as their defining
  Laplace integrals;
* the printed shortcut a_i^2 = a_i (exact on {0, 1}), which turns Lemma 1's
  e^{k a mu}/(1 - k^2 a^2 b^2) into the printed e^{k a mu}/(1 - k^2 a b^2);
* the coefficients of y_i^2 and y_i y_j, and the variance itself for every
  population size N (symbolic sums over units and over ordered pairs i != j);
* Corollary 5, A.3 (for every N), Proposition 4 and the analytic RSE.
"""
from __future__ import annotations

import sympy as sp

from ..engine.core import Claim, Proof, Source, all_of, claim, finding, is_zero, mechanical, zero
from ..engine.formulas import formula
from ..engine.notation import defined
from ..engine.proofs import Parametrization, conclude, conclude_evaluation, exhaust
from .laplace import LEMMA1_CASE1, expectation, mgf, mgf_integral, mgf_printed_case1
from . import laplace as _lemma1

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


# -- the printed formulas --------------------------------------------------------------------
def moment(k, a, b, mu):
    """E[e^{k a X}] for X ~ Laplace(mu, b): Lemma 1 with a -> k a (finite when |k a b| < 1)."""
    return mgf_printed_case1(k * a, b, mu)


def mean_printed(a, b, mu):
    """E[e^{aX}] as the proof of Proposition 2 prints it after a^2 = a: e^{a mu} / (1 - a b^2)."""
    return sp.exp(a * mu) / (1 - a * b**2)


def second_moment_printed(a, b, mu):
    """E[e^{2aX}] as the proof of Proposition 2 prints it after a^2 = a: e^{2 a mu} / (1 - 4 a b^2)."""
    return sp.exp(2 * a * mu) / (1 - 4 * a * b**2)


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


def census_term(a, b):
    """A.3, the term of one unit (without y^2): (1 - a b^2)^{2a} [1/(1 - 4 a b^2) - 1/(1 - a b^2)^2]."""
    return (1 - a * b**2) ** (2 * a) * (1 / (1 - 4 * a * b**2) - 1 / (1 - a * b**2) ** 2)


def relative_variance(b):
    """Var(w e^X) for the bias-corrected factor, in the form free of cancellation:
    b^2 (2 + b^2) / ((1 - 2b)(1 + 2b))."""
    return b**2 * (2 + b**2) / ((1 - 2 * b) * (1 + 2 * b))


def log_laplace_variance_stable(b, mu):
    """Var(e^X) = e^{2 mu} b^2 (2 + b^2) / ((1 - 2b)(1 + 2b)(1 - b)^2 (1 + b)^2)."""
    return sp.exp(2 * mu) * relative_variance(b) / ((1 - b) ** 2 * (1 + b) ** 2)


class Population:
    """Symbols of a population of size n: y_i, pi_i, pi_ij, b_i, mu_i.

    Used for an independent check on small populations: Yhat and Yhat^2 expanded as polynomials
    in the indicators delta_i and the noise factors Z_i, expectations taken monomial by monomial
    (delta_i^2 = delta_i; Lemma 1's moments with a_i^2, not the printed shortcut)."""

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


# -- a_i^2 = a_i ---------------------------------------------------------------------------
claim(id="ht.indicator_square",
      title="The printed shortcut a_i^2 = a_i holds for a perturbation indicator a_i in {0, 1}",
      source=PROP2, kind="identity", lhs=a**2, rhs=a, conditions=(sp.Contains(a, sp.FiniteSet(0, 1)),),
      finite=True, enumeration=lambda c: exhaust(c, [{a: 0}, {a: 1}]),
      note="The proof of Proposition 2 writes 1 - 4 a_i^2 b_i^2 = 1 - 4 a_i b_i^2 and "
           "1 - a_i^2 b_i^2 = 1 - a_i b_i^2; every printed formula of Appendix A relies on it.")


# -- steps (1) and (2) of the proof of Proposition 2: design and noise moments ----------------------
# A design is a distribution p_1, ..., p_K on K samples (K symbolic); delta_i[k] is the value of the
# inclusion indicator of unit i on sample k, and pi_i = sum_k p_k delta_i[k], pi_ij = sum_k p_k
# delta_i[k] delta_j[k] are the inclusion probabilities (their definition).  Conditioning on the
# sample, the noise (independent of the sample) keeps its Laplace law, so each expectation is the
# sum over samples of p_k times the indicators times the defining Laplace integral of the noise.
K = sp.Symbol("K", integer=True, positive=True)
K_1 = sp.Symbol("K_1", integer=True, positive=True)
k = sp.Symbol("k", integer=True, positive=True)
p_s = sp.IndexedBase("p", nonnegative=True)
delta_i = sp.IndexedBase(r"\delta_i")
delta_j = sp.IndexedBase(r"\delta_j")
a_r = _lemma1.a                                      # Lemma 1's real a
ai_r, aj_r = sp.symbols("a_i a_j", real=True)
bi, bj = sp.symbols("b_i b_j", positive=True)
mui, muj = sp.symbols("mu_i mu_j", real=True)
xi, xj = sp.symbols("x_i x_j", real=True)
ti, tj = sp.symbols("tau_i tau_j", real=True)
ui, vi, uj, vj = sp.symbols("u_i v_i u_j v_j", positive=True)


def _expect_unit(g, var, b, mu, tau):
    """E over X ~ Laplace(mu, b) of g (a function of ``var``): its two tails in tau = var - mu."""
    g_tau = sp.sympify(g).subs(var, mu + tau)
    return (sp.Integral(g_tau * sp.exp(tau / b) / (2 * b), (tau, -sp.oo, 0))
            + sp.Integral(g_tau * sp.exp(-tau / b) / (2 * b), (tau, 0, sp.oo)))


_SECOND_MGF = mgf(2 * a_r, name=r"\mathbb{E}[e^{2aX}]")     # E[e^{2aX}]: its two Laplace tails


def _sample_sum(summand, lo=1, hi=K):
    return sp.Sum(summand, (k, lo, hi))


claim(id="ht.inclusion_moment",
      title="Proof of Proposition 2, step (2): sum_k p_k delta_i[k] E[e^{aX}] = pi_i e^{a mu}/(1 - a^2 b^2), "
            "pi_i = sum_k p_k delta_i[k], |ab| < 1",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (2)"), kind="identity",
      lhs=_sample_sum(p_s[k] * delta_i[k] * mgf(a_r)),
      rhs=_sample_sum(p_s[k] * delta_i[k]) * mgf_printed_case1(a_r),
      conditions=(sp.Gt(a_r * b, -1), sp.Lt(a_r * b, 1)),
      proof=lambda c: conclude(c, param=LEMMA1_CASE1),
      note="Left: the expectation over the sample (p_k, k = 1..K) of delta_i times the conditional "
           "expectation of e^{aX_i} (noise independent of the sample), E[e^{aX}] standing for its two Laplace "
           "tails; it is E[delta_i e^{a X_i}] for every design on K samples. Right: pi_i = sum_k p_k delta_i[k] "
           "times Lemma 1. Holds for every real a with |ab| < 1, in particular a = a_i in {0, 1}.")

claim(id="ht.inclusion_second_moment",
      title="Proof of Proposition 2, step (1), i = j: sum_k p_k delta_i[k]^2 E[e^{2aX}] = "
            "pi_i e^{2a mu}/(1 - 4a^2 b^2), delta_i[k] in {0, 1}, |2ab| < 1",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (1) case 1"), kind="identity",
      lhs=(_sample_sum(p_s[k] * sp.Integer(1) ** 2 * _SECOND_MGF, 1, K_1)
           + _sample_sum(p_s[k] * sp.Integer(0) ** 2 * _SECOND_MGF, K_1 + 1, K)),
      rhs=(_sample_sum(p_s[k] * sp.Integer(1), 1, K_1) + _sample_sum(p_s[k] * sp.Integer(0), K_1 + 1, K))
      * mgf_printed_case1(2 * a_r),
      conditions=(sp.Gt(2 * a_r * b, -1), sp.Lt(2 * a_r * b, 1), sp.Le(K_1, K)),
      proof=lambda c: conclude(c, param=Parametrization(
          {a_r: (_lemma1.u - _lemma1.v) / 4, b: 2 / (_lemma1.u + _lemma1.v)},
          {_lemma1.u: 2 * a_r + 1 / b, _lemma1.v: 1 / b - 2 * a_r})),
      note="The samples are listed so that those containing unit i come first (k <= K_1): there "
           "delta_i = 1, elsewhere 0, so delta_i^2 = delta_i is evaluated sample by sample; "
           "pi_i = sum_{k <= K_1} p_k. E[e^{2aX}] stands for the two Laplace tails of e^{2ax}. The left side is "
           "E[delta_i^2 e^{2a X_i}] for every design (noise independent of the sample).")


def _joint_noise_integral():
    """E[e^{a_i X_i} e^{a_j X_j}] for independent X_i, X_j: the integral against the product density."""
    inner = _expect_unit(sp.exp(ai_r * xi) * sp.exp(aj_r * xj), xj, bj, muj, tj)
    return _expect_unit(inner, xi, bi, mui, ti)


claim(id="ht.joint_inclusion_moment",
      title="Proof of Prop. 2, step (1), i != j: sum_k p_k delta_i[k] delta_j[k] E[e^{a_i X_i} e^{a_j X_j}] = "
            "pi_ij m_i m_j, m = e^{a mu}/(1 - a^2 b^2), |ab| < 1",
      source=Source(DOC, "Appendix A.1, proof of Proposition 2, step (1) case 2"), kind="identity",
      lhs=_sample_sum(p_s[k] * delta_i[k] * delta_j[k]
                      * defined(r"\mathbb{E}[e^{a_i X_i} e^{a_j X_j}]", _joint_noise_integral())),
      rhs=(_sample_sum(p_s[k] * delta_i[k] * delta_j[k]) * mgf_printed_case1(ai_r, bi, mui)
           * mgf_printed_case1(aj_r, bj, muj)),
      conditions=(sp.Gt(ai_r * bi, -1), sp.Lt(ai_r * bi, 1), sp.Gt(aj_r * bj, -1), sp.Lt(aj_r * bj, 1)),
      proof=lambda c: conclude(c, param=Parametrization(
          {ai_r: (ui - vi) / 2, bi: 2 / (ui + vi), aj_r: (uj - vj) / 2, bj: 2 / (uj + vj)},
          {ui: ai_r + 1 / bi, vi: 1 / bi - ai_r, uj: aj_r + 1 / bj, vj: 1 / bj - aj_r})),
      note="Left: the expectation over the sample of delta_i delta_j times E[e^{a_i X_i} e^{a_j X_j}], which "
           "stands for the double Laplace integral against the product density (independent noises, independent "
           "of the sample); it is E[delta_i delta_j e^{a_i X_i} e^{a_j X_j}] for every design on K samples. Right: "
           "pi_ij = sum_k p_k delta_i[k] delta_j[k] times the two Lemma 1 means.", budget=120)


# -- the coefficients of Proposition 2 ---------------------------------------------------------
def _shortcut_steps(a, b, mu) -> Proof:
    """Lemma 1's moments with a^2 replaced by a (ht.indicator_square) are the printed forms."""
    return all_of(zero(moment(1, a, b, mu).xreplace({a**2: a}) - mean_printed(a, b, mu),
                       "e^{a mu}/(1 - a^2 b^2) with a^2 = a is the printed e^{a mu}/(1 - a b^2)"),
                  zero(moment(2, a, b, mu).xreplace({a**2: a}) - second_moment_printed(a, b, mu),
                       "e^{2a mu}/(1 - 4 a^2 b^2) with a^2 = a is the printed e^{2a mu}/(1 - 4 a b^2)"))


claim(id="ht.prop2_diagonal",
      title="Proposition 2, y_i^2 term: (pi M - (pi m)^2)/pi^2 is the printed coefficient, m = e^{a mu}/(1 - ab^2), "
            "M = e^{2a mu}/(1 - 4ab^2), a in {0, 1}, 2ab < 1",
      source=PROP2, kind="identity",
      lhs=(pi_ * second_moment_printed(a, b, mu) - (pi_ * mean_printed(a, b, mu)) ** 2) / pi_**2,
      rhs=diagonal_printed(a, b, mu, pi_),
      conditions=(sp.Contains(a, sp.FiniteSet(0, 1)), sp.Lt(2 * a * b, 1)),
      proof=lambda c: all_of(_shortcut_steps(a, b, mu), conclude(c)),
      note="The left side is pi_i^{-2} (E[delta_i^2 Z_i^2] - E[delta_i Z_i]^2), Z_i = e^{a_i X_i}: "
           "E[delta_i^2 Z_i^2] = pi_i E[Z_i^2] and E[delta_i Z_i] = pi_i E[Z_i] (ht.inclusion_second_moment, "
           "ht.inclusion_moment), the moments in the printed form (ht.indicator_square). The algebra holds "
           "for every a.")

a_i_, a_j_ = sp.symbols("a_i a_j", integer=True, nonnegative=True)
pi_i, pi_j, pi_ij = sp.symbols("pi_i pi_j pi_ij", positive=True)
m_i, m_j = sp.symbols("m_i m_j", positive=True)
claim(id="ht.prop2_offdiagonal",
      title="Proposition 2, y_i y_j term (i != j): (pi_ij m_i m_j - pi_i m_i pi_j m_j)/(pi_i pi_j) is the printed "
            "coefficient, m = e^{a mu}/(1 - ab^2), a in {0, 1}, 2ab < 1",
      source=PROP2, kind="identity",
      lhs=(pi_ij * mean_printed(a_i_, bi, mui) * mean_printed(a_j_, bj, muj)
           - pi_i * mean_printed(a_i_, bi, mui) * pi_j * mean_printed(a_j_, bj, muj)) / (pi_i * pi_j),
      rhs=offdiagonal_printed(a_i_, bi, mui, a_j_, bj, muj, pi_i, pi_j, pi_ij),
      conditions=(sp.Contains(a_i_, sp.FiniteSet(0, 1)), sp.Contains(a_j_, sp.FiniteSet(0, 1)),
                  sp.Lt(2 * a_i_ * bi, 1), sp.Lt(2 * a_j_ * bj, 1)),
      proof=lambda c: all_of(_shortcut_steps(a_i_, bi, mui), _shortcut_steps(a_j_, bj, muj), conclude(c)),
      note="The left side is pi_i^{-1} pi_j^{-1} (E[delta_i delta_j Z_i Z_j] - E[delta_i Z_i] E[delta_j Z_j]), "
           "Z_i = e^{a_i X_i}: E[delta_i delta_j Z_i Z_j] = pi_ij E[Z_i] E[Z_j] (ht.joint_inclusion_moment), the means in the "
           "printed form (ht.indicator_square).")


# -- the variance for every population size N ----------------------------------------------------
N = sp.Symbol("N", integer=True, positive=True)
i, j = sp.symbols("i j", integer=True, positive=True)
Y = sp.IndexedBase("y", real=True)
A = sp.IndexedBase("a", integer=True, nonnegative=True)
B = sp.IndexedBase("b", positive=True)
MU = sp.IndexedBase("mu", real=True)
PI = sp.IndexedBase("pi", positive=True)        # PI[i] = pi_i, PI[i, j] = pi_ij
MEAN = sp.IndexedBase("m", positive=True)       # generic E[Z_i]
SECOND = sp.IndexedBase("M", positive=True)     # generic E[Z_i^2]


def over_units(f):
    """sum_{i in U} f(i)."""
    return sp.Sum(f(i), (i, 1, N))


def over_pairs(f):
    """sum_{i, j in U, i != j} f(i, j), written as sum_i (sum_{j < i} + sum_{j > i})."""
    return sp.Sum(sp.Sum(f(i, j), (j, 1, i - 1)) + sp.Sum(f(i, j), (j, i + 1, N)), (i, 1, N))


def expanded_variance(c, m1, m2):
    """E[Yhat^2] - E[Yhat]^2 for Yhat = sum_i c_i delta_i Z_i, expanded over ordered pairs (i, j) as the
    proof's third line does, the pair j = i taken apart, with the moments of steps (1) and (2):
    E[delta_i delta_j Z_i Z_j] = pi_ij m_i m_j (j != i), E[delta_i^2 Z_i^2] = pi_i M_i, E[delta_i Z_i] = pi_i m_i."""
    def cross(i, j):
        return c(i) * c(j) * (PI[i, j] * m1(i) * m1(j) - PI[i] * m1(i) * PI[j] * m1(j))

    def same(i):
        return c(i) ** 2 * (PI[i] * m2(i) - (PI[i] * m1(i)) ** 2)
    return sp.Sum(sp.Sum(cross(i, j), (j, 1, i - 1)) + same(i) + sp.Sum(cross(i, j), (j, i + 1, N)), (i, 1, N))


def _unit_mean(i):
    return mean_printed(A[i], B[i], MU[i])


def _unit_second(i):
    return second_moment_printed(A[i], B[i], MU[i])


def _unit_weight(i):
    return weight_printed(A[i], B[i], MU[i])


def proposition2_printed(y=lambda i: Y[i], pi1=lambda i: PI[i], pi2=lambda i, j: PI[i, j], mu=lambda i: MU[i]):
    """Proposition 2, Case 1, as printed, for N units (``y`` may carry the weights of Corollary 5)."""
    return (over_units(lambda i: y(i) ** 2 * diagonal_printed(A[i], B[i], mu(i), pi1(i)))
            + over_pairs(lambda i, j: y(i) * y(j) * offdiagonal_printed(A[i], B[i], mu(i), A[j], B[j], mu(j),
                                                                        pi1(i), pi1(j), pi2(i, j))))


def corollary5_printed(pi1=lambda i: PI[i], pi2=lambda i, j: PI[i, j], mu=lambda i: MU[i]):
    """Corollary 5, Case 1, as printed: Proposition 2 with y_i -> w_i y_i, w_i = ((1 - a b^2)/e^{a mu})^a."""
    wt = lambda i: weight_printed(A[i], B[i], mu(i))                      # noqa: E731
    return (over_units(lambda i: wt(i) ** 2 * Y[i] ** 2 * diagonal_printed(A[i], B[i], mu(i), pi1(i)))
            + over_pairs(lambda i, j: wt(i) * wt(j) * Y[i] * Y[j]
                         * offdiagonal_printed(A[i], B[i], mu(i), A[j], B[j], mu(j), pi1(i), pi1(j), pi2(i, j))))


def _unroll(e):
    """Write out every sum with numeric limits as its terms (innermost limits may depend on outer indices)."""
    if isinstance(e, sp.Sum):
        f, (var, lo, hi) = e.function, e.limits[0]
        return sp.Add(*[_unroll(f.subs(var, val)) for val in range(int(lo), int(hi) + 1)])
    if e.args and not isinstance(e, sp.Indexed):
        return e.func(*[_unroll(arg) for arg in e.args])
    return e


def _at_small_population(c: Claim, n: int = 2) -> Proof:
    """A necessary condition, exact and quick: lhs - rhs vanishes for N = n at one rational point
    (a_i = 1 for even i, 0 for odd i; e^{mu_i} rational).  A false statement fails here at once, before the
    symbolic conclusion, which alone proves the statement for every N."""
    expr = _unroll((c.lhs - c.rhs).subs(N, n))
    point = {}
    for atom in expr.atoms(sp.Indexed):
        idx = [int(t) for t in atom.indices]
        seed = sum((q + 1) * (7 + 3 * q) for q in idx)
        base = atom.base
        point[atom] = (sp.Integer(1 - idx[0] % 2) if base == A
                       else sp.log(sp.Rational(seed % 5 + 2, 3)) if base == MU
                       else sp.Rational(1, 5 + seed % 4) if base == B
                       else sp.Rational(seed % 3 + 1, 4) if base == PI and len(idx) == 1
                       else sp.Rational(1, 8 + seed % 3) if base == PI
                       else sp.Rational(seed % 7 + 1, 3))
    value = sp.cancel(sp.expand(expr.xreplace(point)))
    return mechanical(value == 0, f"N = {n} at a rational point: lhs - rhs = {value}")


def _proof_every_n(c: Claim) -> Proof:
    quick = _at_small_population(c)
    return quick if not quick.ok else all_of(quick, conclude(c))


claim(id="ht.variance_decomposition",
      title="For every N: the proof's expansion of Var(Yhat) with noise moments m_i, M_i equals the HT design "
            "variance of y_i m_i plus sum_i y_i^2 (M_i - m_i^2)/pi_i",
      source=PROP2, kind="identity", proof=_proof_every_n,
      lhs=expanded_variance(lambda i: Y[i] / PI[i], lambda i: MEAN[i], lambda i: SECOND[i]),
      rhs=(over_units(lambda i: Y[i] ** 2 * MEAN[i] ** 2 * (1 / PI[i] - 1))
           + over_pairs(lambda i, j: Y[i] * Y[j] * MEAN[i] * MEAN[j] * (PI[i, j] / (PI[i] * PI[j]) - 1))
           + over_units(lambda i: Y[i] ** 2 * (SECOND[i] - MEAN[i] ** 2) / PI[i])),
      note="Valid for any noise factor Z_i independent across units and of the sample, with finite second "
           "moment; the numeric layer evaluates this form (one quadratic form and one sum), pi_ii = pi_i.")

_CASE1 = (sp.Contains(A[i], sp.FiniteSet(0, 1)), sp.Lt(2 * A[i] * B[i], 1),
          sp.Contains(A[j], sp.FiniteSet(0, 1)), sp.Lt(2 * A[j] * B[j], 1))   # Case 1, for every unit i (and j)

claim(id="ht.prop2_first_principles",
      title="Proposition 2, Case 1, every N: the proof's expansion of E[Yhat^2] - E[Yhat]^2 with the printed "
            "moments of steps (1), (2) is the printed variance (Case 1: a_i in {0, 1}, 2 a_i b_i < 1 for every unit)",
      source=PROP2, kind="identity", proof=_proof_every_n, conditions=_CASE1,
      lhs=expanded_variance(lambda i: Y[i] / PI[i], _unit_mean, _unit_second),
      rhs=proposition2_printed(),
      note="The moments are Lemma 1's with a_i^2 = a_i (ht.inclusion_moment, ht.inclusion_second_moment, "
           "ht.joint_inclusion_moment, ht.indicator_square); the sum over i != j is written as "
           "sum_i (sum_{j<i} + sum_{j>i}). Case 1's hypothesis a_i b_i < 1/2 is what makes the moments finite.")

claim(id="ht.cor5_first_principles",
      title="Corollary 5, Case 1, every N: the expansion of E[Yhat^2] - E[Yhat]^2 with the weights w_i of "
            "Proposition 4 is the printed variance (Case 1: a_i in {0, 1}, 2 a_i b_i < 1 for every unit)",
      source=COR5, kind="identity", proof=_proof_every_n, conditions=_CASE1,
      lhs=expanded_variance(lambda i: _unit_weight(i) * Y[i] / PI[i], _unit_mean, _unit_second),
      rhs=corollary5_printed(),
      note="The weights are deterministic, so they enter as y_i -> w_i y_i (the corollary's proof).")

claim(id="ht.census_variance",
      title="A.3, every N: Corollary 5 at mu_i = 0, pi_i = pi_ij = 1 is the printed "
            "sum_i (1 - a_i b_i^2)^{2a_i} y_i^2 [1/(1 - 4a_i b_i^2) - 1/(1 - a_i b_i^2)^2] (Case 1: a_i in {0, 1}, "
            "2 a_i b_i < 1 for every unit)",
      source=A3, kind="identity", proof=_proof_every_n, conditions=_CASE1[:2],
      lhs=corollary5_printed(pi1=lambda i: 1, pi2=lambda i, j: 1, mu=lambda i: 0),
      rhs=over_units(lambda i: census_term(A[i], B[i]) * Y[i] ** 2))


# -- the form used by the numeric layer ---------------------------------------------------------
claim(id="log_laplace.variance_stable",
      title="Lemma 1's e^{2mu}/(1 - 4b^2) - e^{2mu}/(1 - b^2)^2 = e^{2mu} b^2 (2 + b^2)/((1 - 2b)(1 + 2b)(1 - b)^2 "
            "(1 + b)^2) for b < 1/2",
      source=Source(DOC, "Appendix A.1, Lemma 1 with a = 1 and a = 2"), kind="identity",
      lhs=moment(2, 1, b, mu) - moment(1, 1, b, mu) ** 2, rhs=log_laplace_variance_stable(b, mu),
      conditions=(sp.Lt(b, sp.Rational(1, 2)),), numeric_points=8,
      domain={b: (sp.Rational(1, 10**6), sp.Rational(499999, 10**6)), mu: (-5, 5)},
      note="The left side is Var(e^X) = E[e^{2X}] - E[e^X]^2 by Lemma 1 (a = 2 and a = 1); the right side is free of "
           "cancellation near b = 0 and b = 1/2 (the form the numeric layer evaluates).")
claim(id="ht.corrected_factor_variance",
      title="Var(c e^X), c = (1 - b^2)/e^mu: c^2 [e^{2mu}/(1 - 4b^2) - e^{2mu}/(1 - b^2)^2] = "
            "b^2 (2 + b^2)/((1 - 2b)(1 + 2b)) for b < 1/2",
      source=A3, kind="identity",
      lhs=weight_printed(1, b, mu) ** 2 * (moment(2, 1, b, mu) - moment(1, 1, b, mu) ** 2),
      rhs=relative_variance(b), conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      note="The bracket is Var(e^X) by Lemma 1 and c the bias correction of Proposition 4 (a = 1). Free of mu: "
           "the correction divides out the location.")

# -- Corollary 3: infinite variance ------------------------------------------------------------
y_nz = sp.Symbol("y", real=True, nonzero=True)
claim(id="ht.second_moment_infinite_at_half",
      title="E[(y e^X)^2] = +oo for X ~ Laplace(mu, 1/2) and y != 0",
      source=PROP2, kind="divergence",
      lhs=expectation((y_nz * sp.exp(x)) ** 2, b=sp.Rational(1, 2)),
      note="b = 1/2 is the case Proposition 2 (Case 3) declines to discuss. The left side is the two tails of "
           "(y e^x)^2 times the Laplace(mu, 1/2) density, split at mu.")
claim(id="ht.corollary3",
      title="Corollary 3 (for a unit with y_i != 0): E[(y e^X)^2] is infinite for b > 1/2",
      source=COR3, kind="divergence",
      lhs=expectation((y_nz * sp.exp(x)) ** 2, b=(1 + w_) / 2),
      conditions=(sp.Gt(w_, 0),),
      note="With b = (1 + w)/2, w > 0. Conditioning on a sample s that contains the unit (probability "
           "pi_i > 0), the unit's term y_i e^{X_i}/pi_i is independent of the others' terms, so "
           "Var(Yhat) >= pi_i Var(y_i e^{X_i}/pi_i) = oo. With ht.second_moment_infinite_at_half: Var(Yhat) is "
           "infinite exactly when some perturbed unit with pi_i > 0 and y_i != 0 has b_i >= 1/2.")
finding("ht.corollary3_tacit_nonzero_value", COR3,
        text=("Corollary 3 says that a perturbed unit in the sample with b_i > 1/2 makes Var(Yhat) infinite. "
              "Read literally it fails for a unit whose value is y_i = 0: multiplicative perturbation leaves 0 "
              "unchanged and the unit contributes nothing, whatever b_i. This is a tacit hypothesis, not an "
              "error: the perturbed units are passive claimants with a business value to protect (the "
              "sugarcane production of Section 4), and the proof (a_i b_i > 1/2 makes the y_i^2 coefficient "
              "infinite) presumes y_i != 0. With y_i != 0 the statement is proved (ht.corollary3); the "
              "boundary b_i = 1/2, which the paper declines to discuss, also gives an infinite variance "
              "(ht.second_moment_infinite_at_half)."),
        claims=("ht.corollary3", "ht.second_moment_infinite_at_half"))

# -- Proposition 4: bias correction -----------------------------------------------------------
def weight_lemma1(a, b, mu):
    """1/E[e^{aX}] by Lemma 1: (1 - a^2 b^2)/e^{a mu}, the weight of the proof before a^2 = a."""
    return (1 - a**2 * b**2) / sp.exp(a * mu)


# E[delta e^{aX}] = pi E[e^{aX}] (ht.inclusion_moment), E[e^{aX}] the two Laplace tails
_INCLUDED_MEAN = defined(r"\mathbb{E}[\delta e^{aX}]", pi_ * mgf_integral(a_r))


def _printed_weight_steps() -> Proof:
    """The printed combined weight ((1 - a b^2)/e^{a mu})^a is (1 - a^2 b^2)/e^{a mu} at a = 0 and a = 1."""
    same = [is_zero(weight_printed(v, b, mu) - weight_lemma1(v, b, mu)) for v in (0, 1)]
    return mechanical(all(same), "((1 - a b^2)/e^{a mu})^a = (1 - a^2 b^2)/e^{a mu} at a = 0 (both 1) and "
                                 "at a = 1 (both (1 - b^2)/e^{mu})")


claim(id="ht.prop4_unbiased",
      title="Proposition 4: w pi^{-1} E[delta e^{aX}] = 1 for w = (1 - a^2 b^2)/e^{a mu}, |ab| < 1",
      source=PROP4, kind="identity",
      lhs=weight_lemma1(a_r, b, mu) / pi_ * _INCLUDED_MEAN, rhs=1,
      conditions=(sp.Gt(a_r * b, -1), sp.Lt(a_r * b, 1)),
      proof=lambda c: all_of(_printed_weight_steps(), conclude(c, param=LEMMA1_CASE1)),
      note="E[delta e^{aX}] stands for pi E[e^{aX}] (ht.inclusion_moment), E[e^{aX}] the two Laplace tails. The "
           "proof also checks that this w is the printed ((1 - a b^2)/e^{a mu})^a at a = 0 and a = 1. "
           "The paper's condition |a_i b_i| < 1 is b_i < 1 for a perturbed unit.")


def _proof_prop4_unique(c: Claim) -> Proof:
    wt, mean = sp.Symbol("w_i"), sp.Symbol("m", positive=True)
    sol = sp.solve(sp.Eq(wt * pi_**-1 * (pi_ * mean), 1), wt)
    ok = len(sol) == 1 and is_zero(sol[0] - 1 / mean)
    return all_of(mechanical(ok, f"w pi^-1 (pi m) = 1 has the single solution {sol} (m = E[e^X] > 0)"),
                  _printed_weight_steps(), conclude(c, param=LEMMA1_CASE1))


claim(id="ht.prop4_unique",
      title="Proposition 4: pi/E[delta e^{aX}] = (1 - a^2 b^2)/e^{a mu} for |ab| < 1",
      source=PROP4, kind="identity",
      lhs=pi_ / _INCLUDED_MEAN, rhs=weight_lemma1(a_r, b, mu),
      conditions=(sp.Gt(a_r * b, -1), sp.Lt(a_r * b, 1)), proof=_proof_prop4_unique,
      note="E[delta e^{aX}] stands for pi E[e^{aX}] (ht.inclusion_moment). The unbiasedness equation "
           "w_i pi_i^{-1} E[delta_i e^{a_i X_i}] = 1 is linear in w_i with a positive coefficient; its single "
           "solution is pi_i / E[delta_i e^{a_i X_i}], the left-hand side (checked in the proof, as is the equality "
           "with the printed ((1 - a b^2)/e^{a mu})^a at a = 0 and a = 1).")


# -- A.3 and Section 4.3 ----------------------------------------------------------------------
claim(id="ht.census_variance_stable",
      title="A.3 term of a perturbed unit (a_h = 1): (1 - b^2)^2 [1/(1 - 4b^2) - 1/(1 - b^2)^2] = "
            "b^2 (2 + b^2)/((1 - 2b)(1 + 2b))",
      source=A3, kind="identity", lhs=census_term(1, b), rhs=relative_variance(b),
      conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      note="b < 1/2 is Case 1 at a_h = 1 (2 a_h b_h < 1; at b = 1/2 both sides divide by 0). For an unperturbed "
           "unit (a_h = 0) the term is 1 * (1 - 1) = 0.")

B_BELOW_HALF = 1 / (2 * (1 + w_))     # 0 < b < 1/2  <=>  b = 1/(2(1 + w)), w > 0
claim(id="ht.rse_first_principles",
      title="Algorithm 4.3.1: E[(c e^X y - y)^2] = y^2 b^2 (2 + b^2)/((1 - 2b)(1 + 2b)) for c = 1 - b^2, mu = 0, "
            "0 < b < 1/2",
      source=RSE, kind="identity",
      lhs=expectation((((1 - B_BELOW_HALF**2) * sp.exp(x) - 1) * y) ** 2, b=B_BELOW_HALF, mu=0),
      rhs=y**2 * relative_variance(B_BELOW_HALF), conditions=(sp.Gt(w_, 0),),
      proof=lambda c: conclude_evaluation(c), numeric_points=4,
      domain={w_: (sp.Rational(1, 50), 50), y: (-10, 10)}, budget=180,
      note="b = 1/(2(1 + w)), w > 0, covers 0 < b < 1/2; the left side is integrated directly against the "
           "Laplace(0, b) density. The corrected estimator is unbiased (Proposition 4), so RMSE/Y of algorithm "
           "4.3.1 estimates sqrt(Var)/Y, the analytic RSE.")

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
B_HALF = Parametrization({b: 1 / (2 * (1 + w_))}, {w_: 1 / (2 * b) - 1})   # 0 < b < 1/2

claim(id="ht.corrected_factor_variance_positive",
      title="b^2 (2 + b^2)/((1 - 2b)(1 + 2b)) > 0 for 0 < b < 1/2 (Var(c e^X), ht.corrected_factor_variance)",
      source=A3, kind="sign", lhs=relative_variance(b), relation=">",
      conditions=(sp.Lt(b, sp.Rational(1, 2)),), proof=lambda c: conclude(c, param=B_HALF))
claim(id="ht.rse_increasing_in_b",
      title="d/db [b^2 (2 + b^2)/((1 - 2b)(1 + 2b))] > 0 for 0 < b < 1/2",
      source=Source(DOC, "Section 4.4 (a higher b means a higher RSE)"), kind="sign",
      lhs=sp.Derivative(relative_variance(b), b), relation=">", conditions=(sp.Lt(b, sp.Rational(1, 2)),),
      proof=lambda c: conclude(c, param=B_HALF),
      numeric_points=10, domain={b: (sp.Rational(1, 1000), sp.Rational(499, 1000))},
      note="The left-hand side is d/db of b^2 (2 + b^2)/((1 - 2b)(1 + 2b)) = Var(c e^X) "
           "(ht.corrected_factor_variance), differentiated. Hence the analytic RSE, sqrt(sum y_h^2 Var(c e^X))/|Y|, "
           "increases in each b_h (not a separate check).")
claim(id="log_laplace.variance_small_b",
      title="Var(e^X)/b^2 -> 2 e^{2 mu} as b -> 0+ (Var(e^X) in the factored form of log_laplace.variance_stable)",
      source=Source(DOC, "Appendix A.1, Lemma 1 with a = 1 and a = 2"), kind="limit",
      lhs=sp.Limit(log_laplace_variance_stable(b, mu) / b**2, b, 0, "+"), rhs=2 * sp.exp(2 * mu),
      note="So Var(e^X) ~ 2 e^{2 mu} b^2 and the RSE of one perturbed unit ~ sqrt(2) b |y|/|Y| as b -> 0 "
           "(consequences, not separate checks).")
