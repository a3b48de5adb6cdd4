"""Speed and agreement of ``numeric.fit_loglinear`` on the numerical example of Shlomo and Skinner
(shlomo-skinner (002), Section 3): 16 binary keys, k = 2^16 = 65,536 cells, main-effects model
(p = 17), a sample of n = 10,000 with pi = 0.01 (counts multinomial with cell probabilities
prod 0.2^x 0.8^(1-x)).  Target: under 5 s on 2 cores.

Baselines measured in the same run, as ratios (baseline time / fit_loglinear time):
  * scipy.optimize.minimize (Newton-CG, analytic gradient and Hessian product) on the same Poisson
    log-likelihood with offset log pi;
  * statsmodels GLM (Poisson family, log link, offset log pi), if statsmodels is importable (it is
    not a dependency of the project; pip install statsmodels to include it).
Agreement: the largest coefficient difference, in units of fit_loglinear's standard errors, and the
relative difference of the fitted values (and of the standard errors, against statsmodels).

Run:  python benchmarks/bench_loglinear.py [--quick]     (--quick: 12 keys, 4,096 cells)
"""
from __future__ import annotations

import sys

import numpy as np

from _timing import best_of
from numeric import fit_loglinear, tau1, tau2

TARGET = 5.0


def problem(K: int, n: int = 10_000, pi: float = 0.01, seed: int = 2012):
    bits = ((np.arange(2**K)[:, None] >> np.arange(K)) & 1).astype(float)
    q = np.prod(np.where(bits == 1, 0.2, 0.8), axis=1)
    f = np.random.default_rng(seed).multinomial(n, q).astype(float)
    X = np.column_stack([np.ones(2**K), bits])
    return f, X, pi


def scipy_fit(f, X, pi):
    from scipy.optimize import minimize

    off = np.log(pi) * np.ones(len(f))
    S = f.sum()

    def nll(b):
        eta = X @ b + off
        return -(f @ eta - np.exp(eta).sum()) / S

    def grad(b):
        return -X.T @ (f - np.exp(X @ b + off)) / S

    def hessp(b, v):
        return X.T @ (np.exp(X @ b + off) * (X @ v)) / S

    start = np.zeros(X.shape[1])
    start[0] = np.log(f.mean() / pi)
    res = minimize(nll, start, jac=grad, hessp=hessp, method="Newton-CG", options=dict(xtol=1e-12, maxiter=500))
    return res.x


def statsmodels_fit(f, X, pi):
    import statsmodels.api as sm

    res = sm.GLM(f, X, family=sm.families.Poisson(), offset=np.full(len(f), np.log(pi))).fit(tol=1e-12)
    return res.params, res.bse


def main(quick: bool) -> None:
    K = 12 if quick else 16
    f, X, pi = problem(K)
    k, p = X.shape
    repeat = 3 if quick else 5
    print(f"main-effects log-linear model: k = {k:,} cells, p = {p} parameters, n = {int(f.sum()):,}, pi = {pi}")

    fit = fit_loglinear(f, X, pi)          # warm-up (imports)
    t_ours = best_of(lambda: fit_loglinear(f, X, pi), repeat=repeat)
    t_tau = best_of(lambda: (tau1(fit), tau2(fit)), repeat=repeat)
    print(f"fit_loglinear: {t_ours:.3f} s  ({fit.iterations} Newton steps, converged={fit.converged}); "
          f"target {TARGET:g} s: {'met' if t_ours < TARGET else 'MISSED'} ({TARGET / t_ours:.0f}x under)")
    print(f"tau1 + tau2 of the fit: {t_tau * 1e3:.2f} ms  (tau1 = {tau1(fit):.3f}, tau2 = {tau2(fit):.3f}, "
          f"{int(np.sum(f == 1))} sample uniques)")

    print(f"\n{'baseline':<34} {'time [s]':>9} {'ratio':>8} {'max |dbeta|/se':>15} {'max rel dmu':>12} "
          f"{'max rel dse':>12}")
    b = scipy_fit(f, X, pi)                # warm-up (imports)
    t_scipy = best_of(lambda: scipy_fit(f, X, pi), repeat=max(1, repeat - 2))
    dmu = np.max(np.abs(pi * np.exp(X @ b) / fit.mu - 1))
    print(f"{'scipy minimize (Newton-CG)':<34} {t_scipy:>9.3f} {t_scipy / t_ours:>7.1f}x "
          f"{np.max(np.abs(b - fit.coef) / fit.se):>15.2e} {dmu:>12.2e} {'-':>12}")
    try:
        import statsmodels  # noqa: F401
    except ImportError:
        print(f"{'statsmodels GLM Poisson':<34} not importable (pip install statsmodels to compare)")
    else:
        statsmodels_fit(f, X, pi)          # warm-up
        t_sm = best_of(lambda: statsmodels_fit(f, X, pi), repeat=max(1, repeat - 2))
        b, se = statsmodels_fit(f, X, pi)
        dmu = np.max(np.abs(pi * np.exp(X @ b) / fit.mu - 1))
        print(f"{'statsmodels GLM Poisson + offset':<34} {t_sm:>9.3f} {t_sm / t_ours:>7.1f}x "
              f"{np.max(np.abs(b - fit.coef) / fit.se):>15.2e} {dmu:>12.2e} {np.max(np.abs(se / fit.se - 1)):>12.2e}")
    # the closed form of this model (mu = n prod of the margins) as the arbiter
    p1 = X[:, 1:].T @ f / f.sum()
    mu_cf = np.exp(np.log(f.sum()) + np.where(X[:, 1:] == 1, np.log(p1), np.log1p(-p1)).sum(axis=1))
    print(f"\nfit_loglinear against the closed form mu = n prod(margins): max rel diff "
          f"{np.max(np.abs(fit.mu / mu_cf - 1)):.1e}")


if __name__ == "__main__":
    main("--quick" in sys.argv[1:])
