"""Speed of the exact misclassification numerics, as ratios against naive baselines measured in the
same run (Shlomo and Skinner, Section 4).

1. ``released_count_pmf`` (dynamic programme over partial convolutions) against the enumeration of
   all k~^n labelled releases (equation (4)) aggregated into the law of f~, for every outcome.
2. ``pram_certificate(...).p_bad`` (events E_T from the supply-demand condition, exact Moebius
   enumeration, independent of n) against the direct definition: every outcome f~ of f and every
   neighbour f2, with Pr(f~ | f2) from ``released_count_pmf`` (a bad outcome has a zero there).

Run:  python benchmarks/bench_misclassification.py [--quick]
"""
from __future__ import annotations

import itertools
import sys

import numpy as np

from _timing import best_of
from derivations.shlomo_skinner.misclassification import compositions
from numeric import pram_certificate, released_count_pmf

QUICK = "--quick" in sys.argv


def labelled_law(f, M):
    """Pr(f~ | f) for every f~ by enumerating the labelled releases, vectorised over them."""
    kt = M.shape[0]
    x = np.repeat(np.arange(len(f)), f)
    law = {}
    for xt in itertools.product(range(kt), repeat=len(x)):
        p = float(np.prod(M[list(xt), x]))
        if p:
            key = tuple(np.bincount(xt, minlength=kt))
            law[key] = law.get(key, 0.0) + p
    return law


def direct_p_bad(f, M):
    """P(bad) from the definition, with released_count_pmf for every outcome and neighbour."""
    kt, k = M.shape
    n = sum(f)
    outs = np.array(list(compositions(n, kt)))
    p1 = released_count_pmf(outs, f, M)
    bad = np.zeros(len(outs), dtype=bool)
    for a in range(k):
        if f[a]:
            for b in range(k):
                if b != a:
                    g = list(f)
                    g[a] -= 1
                    g[b] += 1
                    bad |= (released_count_pmf(outs, g, M) == 0) & (p1 > 0)
    return float(p1[bad].sum())


def main():
    rng = np.random.default_rng(0)
    M = rng.random((3, 3)) * (rng.random((3, 3)) > 0.3)
    M[[0, 1, 2], [0, 1, 2]] += 0.5
    M /= M.sum(axis=0)
    print("1. released_count_pmf (all outcomes) vs enumeration of labelled releases, 3 x 3 matrix")
    print(f"{'n':>4} {'enumeration [s]':>16} {'pmf [s]':>10} {'speed-up':>9} {'max rel. diff':>14}")
    for n in ((4, 6) if QUICK else (4, 6, 8, 9)):
        f = [n - 2 * (n // 3), n // 3, n // 3]
        outs = np.array(list(compositions(n, 3)))
        law = {}
        t_enum = best_of(lambda: law.update(labelled_law(f, M)), 1 if n >= 8 else 3)
        got = {}
        t_pmf = best_of(lambda: got.update(p=released_count_pmf(outs, f, M)))
        ref = np.array([law.get(tuple(o), 0.0) for o in outs])
        diff = np.max(np.abs(got["p"] - ref) / np.where(ref > 0, ref, 1.0))
        print(f"{n:>4} {t_enum:>16.4f} {t_pmf:>10.5f} {t_enum / t_pmf:>9.0f} {diff:>14.2e}")

    print("\n2. p_bad (exact, events E_T) vs the definition over all outcomes and neighbours")
    S = np.array([[1 / 3, 1 / 3, 0.0], [1 / 3, 1 / 3, 0.0], [1 / 3, 1 / 3, 1.0]])
    print(f"{'n':>6} {'definition [s]':>15} {'certificate [s]':>16} {'speed-up':>9} {'p_bad':>12} {'rel. diff':>10}")
    target = 0.05
    worst = 0.0
    for n in ((6, 20) if QUICK else (6, 20, 60, 150)):
        f = [n // 3, n - 2 * (n // 3), n // 3]
        box = {}
        t_def = best_of(lambda: box.update(ref=direct_p_bad(f, S)), 1)
        t_cert = best_of(lambda: box.update(got=pram_certificate(S, f=f).p_bad))
        worst = max(worst, t_cert)
        rel = abs(box["got"] - box["ref"]) / max(box["ref"], 1e-300)
        print(f"{n:>6} {t_def:>15.4f} {t_cert:>16.5f} {t_def / t_cert:>9.0f} {box['got']:>12.5g} {rel:>10.1e}")
    for n in (10**3, 10**6):
        f = [n // 3, n - 2 * (n // 3), n // 3]
        t_cert = best_of(lambda: pram_certificate(S, f=f))
        worst = max(worst, t_cert)
        print(f"{n:>6} {'(too large)':>15} {t_cert:>16.5f} {'':>9} {pram_certificate(S, f=f).p_bad:>12.5g}")
    print(f"\ncertificate with p_bad: worst {worst * 1e3:.1f} ms against a target of {target * 1e3:.0f} ms "
          f"({'met' if worst <= target else 'MISSED'})")


if __name__ == "__main__":
    main()
