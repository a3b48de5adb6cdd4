"""Speed and accuracy of the law of the randomized counts A_n(m) ~ Bin(m, p) + Bin(n - m, q)
(k-randomization (003), Section 3.1), measured against baselines in the same run:

1. ``numeric.count_pmf`` for the whole law at n = 10^6 against scipy (``binom.pmf`` of both parts on
   0..n and ``scipy.signal.fftconvolve``; ``np.convolve`` on the parts' windows above 1e-300), with the
   worst relative error of each against mpmath at 50 digits at points of the tail;
2. the window routine (every point above e^-800, certified outside mass) at n = 10^8 and 10^9, for
   q = 0.01 and 0.45 and several m, against the 20 ms / 100 ms targets.

Run:  python benchmarks/bench_krandomization.py [--quick]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from _timing import best_of
from numeric import count_pmf
from numeric.krandomization import _count_window

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "numeric"))


def main(quick: bool) -> None:
    import scipy.signal
    from scipy.stats import binom
    import mpmath as mp
    from test_krandomization import mp_log_pmf

    n, m, q = 10**6, 3 * 10**5, 0.2
    ours = best_of(lambda: count_pmf(n, m, q), 3)

    def scipy_fft():
        s = np.arange(n + 1)
        return scipy.signal.fftconvolve(binom.pmf(s[:m + 1], m, 1 - q), binom.pmf(s[:n - m + 1], n - m, q))

    def scipy_direct():               # the parts on their windows above 1e-300, exact (positive) convolution
        a, b = binom.pmf(np.arange(m + 1), m, 1 - q), binom.pmf(np.arange(n - m + 1), n - m, q)
        ia, ib = np.flatnonzero(a > 1e-300), np.flatnonzero(b > 1e-300)
        return ia[0] + ib[0], np.convolve(a[ia[0]:ia[-1] + 1], b[ib[0]:ib[-1] + 1])

    t_fft = best_of(scipy_fft, 3)
    t_dir = best_of(scipy_direct, 1)
    pmf, fft = count_pmf(n, m, q), scipy_fft()
    off, direct = scipy_direct()
    print(f"whole law, n = 10^6, m = 3e5, q = 0.2: count_pmf {ours * 1e3:.1f} ms; scipy fftconvolve "
          f"{t_fft * 1e3:.1f} ms ({t_fft / ours:.2f}x); scipy pmf + np.convolve {t_dir * 1e3:.0f} ms ({t_dir / ours:.1f}x)")
    mode = int(np.argmax(pmf))
    for s in (mode, mode + 3000, mode + 6000, mode + 9000):
        exact = float(mp.exp(mp_log_pmf(n, m, q, s)))
        d = direct[s - off] if 0 <= s - off < direct.size else 0.0
        print(f"  s = mode + {s - mode:5d}: P = {exact:.3e}; relative error count_pmf {abs(pmf[s] / exact - 1):.1e}, "
              f"fft {abs(fft[s] / exact - 1):.1e}, np.convolve {abs(d / exact - 1):.1e}")

    print("window (log_floor = -800), best of 3:")
    for N, target in ((10**8, 20.0), (10**9, 100.0)):
        for qq in (0.01, 0.45):
            for k in ((0, N // 10, N // 2) if quick else (0, N // 10, N // 2, 9 * N // 10, N)):
                t = best_of(lambda: _count_window(N, k, qq), 3) * 1e3
                start, lp, out = _count_window(N, k, qq)
                print(f"  N = {N:.0e}, k = {k:.1e}, q = {qq}: {t:6.1f} ms ({t / target:.2f} of the {target:.0f} ms "
                      f"target), {lp.size} points, ln outside <= {out:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    main(ap.parse_args().quick)
