"""Side by side with Google's ``dp_accounting`` (privacy loss distributions), as ratios measured in the same run.

The release: the Horvitz-Thompson total of binary data under Bernoulli (Poisson) sampling with
inclusion probability p, plus Laplace(b) noise; neighbouring populations differ at one unit (0 <-> 1).
A unit whose value is 0 contributes nothing to the estimate, so a pair of totals (t, t + 1) is the
add/remove pair of a Poisson-subsampled Laplace mechanism with sensitivity 1/p (the HT weight),
scale b and sampling rate p, convolved with the law of the other t units' contribution; by data
processing the supremum is at t = 0:

    f = Laplace(0, b),   g = (1 - p) Laplace(0, b) + p Laplace(1/p, b),
    delta(eps) = max( int (f - e^eps g)_+ , int (g - e^eps f)_+ ),

the same for every N.  In dp_accounting this is

    pld = privacy_loss_distribution.from_laplace_mechanism(
              parameter=b, sensitivity=1/p, sampling_prob=p,
              value_discretization_interval=h, pessimistic_estimate=True)
    pld.get_delta_for_epsilon(eps)

which for sampling_prob < 1 builds the ADD pmf (mu_upper = f, mu_lower = g: the first integral)
and the REMOVE pmf (mu_upper = the mirror image of g, mu_lower = f: the second) and returns the
larger delta.  ``from_laplace_mechanism`` has no neighbouring-relation argument: add/remove is the
only relation it offers.

1. The equality: both orders of the pair by mpmath quad at 30 digits (split at the atoms and at the
   sign change), against ``privacy_profile(Bernoulli(N, p), BinaryDomain(N), b, eps)`` and against
   dp_accounting (the discretised PLD, and its analytic per-direction delta with no discretisation).
2. Accuracy against eps (independent of N): with connect-the-dots (the default), dp_accounting's
   delta is exact at eps on its grid (eps = 1.0 is on every decimal grid) and an upper bound in between.
3. Time and peak memory against N (ours: each run in a fresh process after a warm-up call on N = 10,
   stopped after LIMIT seconds; dp_accounting does not see N: its time, built from scratch each run,
   is measured once per p and repeated on every row).

Run:  python benchmarks/bench_peer_dp_accounting.py [--quick]      (needs the bench extra: pip install -e .[bench])
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import selectors
import statistics
import subprocess
import sys
import time
import tracemalloc
from importlib.metadata import version

import mpmath

EPS = 1.0
LIMIT = 20.0                    # seconds for one of our calls before the row is skipped
MEM_CAP = 6 * 2**30             # address-space cap of the child process (bytes)
NS = (10**4, 10**5, 10**6, 10**7, 10**9)
# (p, b) with delta(1.0) around 1e-5 (b just below the scale at which the mechanism is (1, 0)-DP)
CASES = ((0.01, 19.4), (0.1, 3.4475))
GRIDS = (1e-2, 1e-4)
EPS_SWEEP = (0.5 + 1 / 300, 0.9 + 1 / 300, 1 - 1 / 150, 1.0)


# -- the accuracy reference ----------------------------------------------------------------------------
def reference(p, b, eps, dps=30):
    """(int (f - e^eps g)_+, int (g - e^eps f)_+) by mpmath quad at ``dps`` digits.  f - e^eps g is
    a multiple of f on (-inf, 0] and on [1/p, inf) (constant sign there) and monotone in the
    ratio in between, so each integrand changes sign at most once, in [0, 1/p]."""
    with mpmath.workdps(dps):
        p_, b_, e_ = mpmath.mpf(p), mpmath.mpf(b), mpmath.exp(mpmath.mpf(eps))
        a = 1 / p_

        def lap(z, m):
            return mpmath.exp(-abs(z - m) / b_) / (2 * b_)

        def f(z):
            return lap(z, 0)

        def g(z):
            return (1 - p_) * lap(z, 0) + p_ * lap(z, a)

        out = []
        for u, v in ((f, g), (g, f)):
            def d(z, u=u, v=v):
                return u(z) - e_ * v(z)

            cuts = [mpmath.mpf(0)]
            if d(cuts[0]) * d(a) < 0:
                cuts.append(mpmath.findroot(d, (mpmath.mpf(0), a), solver="anderson"))
            cuts.append(a)
            pts = [-mpmath.inf] + cuts + [mpmath.inf]
            out.append(mpmath.fsum(mpmath.quad(lambda z, d=d: max(d(z), 0), [lo, hi])
                                   for lo, hi in zip(pts[:-1], pts[1:])))
        return float(out[0]), float(out[1])


# -- the peer ------------------------------------------------------------------------------------------
def peer_pld(p, b, h):
    from dp_accounting.pld import privacy_loss_distribution as pld
    return pld.from_laplace_mechanism(parameter=b, sensitivity=1 / p, sampling_prob=p,
                                      value_discretization_interval=h, pessimistic_estimate=True)


def peer_delta(p, b, h, eps):
    """Built from scratch, as a user would."""
    return float(peer_pld(p, b, h).get_delta_for_epsilon(eps))


def peer_analytic(p, b, eps):
    """dp_accounting's per-direction delta of the continuous mechanism (no discretisation)."""
    from dp_accounting.pld import privacy_loss_mechanism as plm
    return tuple(float(plm.LaplacePrivacyLoss(b, sensitivity=1 / p, sampling_prob=p, adjacency_type=a)
                       .get_delta_for_epsilon(eps))
                 for a in (plm.AdjacencyType.ADD, plm.AdjacencyType.REMOVE))


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- ours, one call per fresh process ------------------------------------------------------------------
def child(N, p, b, eps, mode):
    """Runs in the subprocess: warm-up on N = 10, prints 'ready', then one call on N, timed
    (``mode`` = 'time') or under tracemalloc ('mem'), and prints the result as JSON."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEM_CAP, MEM_CAP))
    from numeric import Bernoulli, BinaryDomain, privacy_profile
    privacy_profile(Bernoulli(10, p), BinaryDomain(10), b, eps)
    print("ready", flush=True)
    try:
        if mode == "mem":
            tracemalloc.start()
        t0 = time.perf_counter()
        d = float(privacy_profile(Bernoulli(N, p), BinaryDomain(N), b, eps))
        t = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1] if mode == "mem" else None
        print(json.dumps({"delta": d, "time": t, "peak": peak}), flush=True)
    except MemoryError:
        print(json.dumps({"error": f"memory > {MEM_CAP / 2**30:.0f} GB"}), flush=True)


def run_child(N, p, b, eps, mode, limit):
    """Our call on N in a fresh process; None if it ran for more than ``limit`` seconds (killed)."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", str(N), repr(p), repr(b),
                             repr(eps), mode], stdout=subprocess.PIPE)
    fd, buf, lines = proc.stdout.fileno(), b"", []
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    try:
        for need, wait in ((1, 120.0), (2, limit)):     # import and warm-up, then the call itself
            deadline = time.monotonic() + wait
            while len(lines) < need:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    return None if need == 2 else {"error": f"not started within {wait:g} s"}
                chunk = os.read(fd, 65536)
                if not chunk:
                    return {"error": f"exit status {proc.wait()}"}
                buf += chunk
                *done, buf = buf.split(b"\n")
                lines += done
        return json.loads(lines[1])
    finally:
        sel.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()


# -- sections ------------------------------------------------------------------------------------------
def equality():
    from numeric import Bernoulli, BinaryDomain, privacy_profile
    print(f"1. delta({EPS}) of the pair f = Lap(0, b), g = (1-p) Lap(0, b) + p Lap(1/p, b): both orders")
    print(f"{'p':>5} {'b':>7} {'mp (f,g)':>10} {'mp (g,f)':>22} {'dpa ADD':>10} {'dpa REMOVE':>22} "
          f"{'ours N=10^3':>22} {'|ours-mp|/mp':>13} {'dpa 1e-4':>22} {'|dpa-mp|/mp':>12}")
    refs = {}
    for p, b in CASES:
        fg, gf = reference(p, b, EPS)
        refs[(p, b)] = max(fg, gf)
        add, remove = peer_analytic(p, b, EPS)
        ours = float(privacy_profile(Bernoulli(1000, p), BinaryDomain(1000), b, EPS))
        theirs = peer_delta(p, b, 1e-4, EPS)
        r = refs[(p, b)]
        print(f"{p:>5g} {b:>7g} {fg:>10.3g} {gf:>22.17g} {add:>10.3g} {remove:>22.17g} {ours:>22.17g} "
              f"{abs(ours - r) / r:>13.1e} {theirs:>22.17g} {abs(theirs - r) / r:>12.1e}")
    print("   dpa ADD / REMOVE: dp_accounting's LaplacePrivacyLoss(b, 1/p, p, adjacency_type).get_delta_for_epsilon"
          " (continuous);\n   ADD is the order (f, g), REMOVE the order (g, f) mirrored; "
          "get_delta_for_epsilon of the PLD is the max of its two pmfs")
    return refs


def accuracy():
    from numeric import Bernoulli, BinaryDomain, privacy_profile
    print("\n2. relative error against mpmath (30 digits) as eps moves off dp_accounting's grid "
          "(signed: > 0 is an overestimate)")
    print(f"{'p':>5} {'b':>7} {'eps':>8} {'delta (mp)':>11} {'ours':>9} "
          + " ".join(f"{f'dpa {h:g}':>10}" for h in GRIDS))
    for p, b in CASES:
        for eps in EPS_SWEEP:
            r = max(reference(p, b, eps))
            ours = float(privacy_profile(Bernoulli(1000, p), BinaryDomain(1000), b, eps))
            errs = [(peer_delta(p, b, h, eps) - r) / r for h in GRIDS]
            print(f"{p:>5g} {b:>7g} {eps:>8.5f} {r:>11.4e} {(ours - r) / r:>9.1e} "
                  + " ".join(f"{e:>10.1e}" for e in errs))


def scaling(refs, quick):
    reps_ours, reps_peer = (1, 3) if quick else (3, 7)
    print(f"\n3. time against N, eps = {EPS}: ours median of up to {reps_ours} fresh processes "
          f"(a call > {LIMIT:g} s is stopped), peak = tracemalloc in one more;")
    print(f"   dp_accounting median of {reps_peer}, built from scratch each time (independent of N); "
          "ratio = ours / theirs")
    for p, b in CASES:
        r = refs[(p, b)]
        peer = {}
        for h in GRIDS:
            peer_delta(p, b, h, EPS)            # imports
            tracemalloc.start()
            d = peer_delta(p, b, h, EPS)
            mem = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            peer[h] = (median_time(lambda: peer_delta(p, b, h, EPS), reps_peer), (d - r) / r, mem)
        print(f"\n   p = {p:g}, b = {b:g}, delta (mp) = {r:.6e}; dp_accounting: "
              + ", ".join(f"h = {h:g}: {t:.4f} s, rel. err {e:.1e}, peak {m / 1e6:.1f} MB"
                          for h, (t, e, m) in peer.items()))
        print(f"{'N':>12} {'ours [s]':>10} {'peak [MB]':>10} {'rel. err':>9} "
              + " ".join(f"{f'dpa {h:g} [s]':>13} {'ratio':>9}" for h in GRIDS))
        stop = None
        for N in NS:
            if stop is None:
                times, delta = [], None
                for _ in range(reps_ours):
                    res = run_child(N, p, b, EPS, "time", LIMIT)
                    if res is None or "error" in res:
                        stop = f"skipped (> {LIMIT:g} s)" if res is None else f"skipped ({res['error']})"
                        break
                    times.append(res["time"])
                    delta = res["delta"]
                    if sum(times) > 2 * LIMIT:
                        break
            if stop is not None:
                print(f"{N:>12} {stop}")
                continue
            t = statistics.median(times)
            mem = run_child(N, p, b, EPS, "mem", max(LIMIT, 4 * max(times)))
            peak = f"{mem['peak'] / 1e6:>10.3f}" if mem and "peak" in mem else f"{'-':>10}"
            err = abs(delta - r) / r
            print(f"{N:>12} {t:>10.4f} {peak} {err:>9.1e} "
                  + " ".join(f"{peer[h][0]:>13.4f} {t / peer[h][0]:>9.3g}" for h in GRIDS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--child", nargs=5, metavar=("N", "P", "B", "EPS", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        N, p, b, eps, mode = args.child
        child(int(N), float(p), float(b), float(eps), mode)
        return
    print(f"dp-accounting {version('dp-accounting')}, numpy {version('numpy')}, mpmath {mpmath.__version__}, "
          f"Python {platform.python_version()}\n")
    refs = equality()
    accuracy()
    scaling(refs, args.quick)


if __name__ == "__main__":
    main()
