"""Speed and accuracy of the Appendix A numerics, as ratios against baselines measured in the same run.

Speed: ``numeric.ht_variance`` against a direct double loop over the printed Proposition 2 /
Corollary 5 formula (the way it is copied by hand).  Accuracy: ``numeric.log_laplace_variance``
(the proved factored form) against the printed difference 1/(1-4b^2) - 1/(1-b^2)^2, both
measured against mpmath at 50 digits.

Run:  python benchmarks/bench_ht_variance.py
"""
from __future__ import annotations


import mpmath
import numpy as np

from _timing import best_of
from numeric import ht_variance, log_laplace_variance


def printed_prop2(y, pi, pij, a, b):
    """Corollary 5 (mu = 0) summed term by term, as printed."""
    n = len(y)
    w = (1 - a * b**2) ** a
    total = 0.0
    for i in range(n):
        total += w[i] ** 2 * y[i] ** 2 * (1 / (pi[i] * (1 - 4 * a[i] * b[i] ** 2)) - 1 / (1 - a[i] * b[i] ** 2) ** 2)
        for j in range(n):
            if i != j:
                total += (w[i] * w[j] * y[i] * y[j] / ((1 - a[i] * b[i] ** 2) * (1 - a[j] * b[j] ** 2))
                          * (pij[i, j] / (pi[i] * pi[j]) - 1))
    return total


def speed():
    rng = np.random.default_rng(0)
    print("speed: ht_variance vs the printed double sum (SRSWOR, 10% perturbed, b = 0.2)")
    print(f"{'N':>6} {'printed loop [s]':>17} {'ht_variance [s]':>16} {'speed-up':>9} {'rel. diff':>10}")
    for n_pop in (50, 200, 800):
        n = n_pop // 4
        y = rng.lognormal(3, 1, n_pop)
        pi = np.full(n_pop, n / n_pop)
        pij = np.full((n_pop, n_pop), n * (n - 1) / (n_pop * (n_pop - 1)))
        np.fill_diagonal(pij, pi)
        a = (rng.random(n_pop) < 0.1).astype(float)
        b = np.full(n_pop, 0.2)
        t_ref = best_of(lambda: printed_prop2(y, pi, pij, a, b), repeat=1 if n_pop > 200 else 3)
        t_new = best_of(lambda: ht_variance(y, pi, pij, a.astype(bool), b))
        ref, new = printed_prop2(y, pi, pij, a, b), ht_variance(y, pi, pij, a.astype(bool), b)
        print(f"{n_pop:>6} {t_ref:>17.4f} {t_new:>16.6f} {t_ref / t_new:>8.0f}x {abs(new - ref) / ref:>10.1e}")


def accuracy():
    print("\naccuracy of Var(e^X) against mpmath (50 digits): printed difference vs factored form")
    print(f"{'b':>10} {'printed rel. err':>17} {'factored rel. err':>18} {'ratio':>8}")
    for b in (1e-8, 1e-6, 1e-4, 1e-2, 0.25, 0.49, 0.4999999):
        with mpmath.workdps(50):
            B = mpmath.mpf(b)
            ref = 1 / (1 - 4 * B**2) - 1 / (1 - B**2) ** 2
        naive = 1 / (1 - 4 * b**2) - 1 / (1 - b**2) ** 2
        stable = float(log_laplace_variance(b))
        e_naive = float(abs((naive - ref) / ref))
        e_stable = float(abs((stable - ref) / ref))
        ratio = e_naive / e_stable if e_stable else float("inf")
        print(f"{b:>10.7g} {e_naive:>17.2e} {e_stable:>18.2e} {ratio:>8.2g}")


if __name__ == "__main__":
    speed()
    accuracy()
