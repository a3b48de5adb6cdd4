"""Start-up time: ``import numeric`` against bare Python and ``import numpy``, as ratios measured in the same run.

1. Wall time of ``python -c <statement>`` in fresh processes (median; the statements interleaved in
   each round so that drift affects them alike, after one untimed round to warm the file cache).
2. The heaviest modules by cumulative import time, from ``python -X importtime -c "import numeric"``.

Target: ``import numeric`` < 0.3 s.

Run:  python benchmarks/bench_import.py [--quick]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

TARGET = 0.3
STATEMENTS = {
    "bare": "pass",
    "numpy": "import numpy",
    "numeric": "import numeric",
    "scipy.special": "import scipy.special",
}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wall(statement):
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, cwd=ROOT)
    return time.perf_counter() - t0


def startup(rounds):
    for s in STATEMENTS.values():           # warm the file cache
        wall(s)
    times = {k: [] for k in STATEMENTS}
    for _ in range(rounds):
        for k, s in STATEMENTS.items():
            times[k].append(wall(s))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"1. python -c <statement>, wall time over {rounds} fresh processes each ({sys.executable})")
    print(f"{'statement':>24} {'median [s]':>11} {'min [s]':>8} {'max [s]':>8} {'minus bare [s]':>15}")
    for k, s in STATEMENTS.items():
        print(f"{s:>24} {med[k]:>11.3f} {min(times[k]):>8.3f} {max(times[k]):>8.3f} "
              f"{med[k] - med['bare']:>15.3f}")
    n = med["numeric"]
    print(f"   import numeric / bare python = {n / med['bare']:.1f}, import numeric / import numpy = "
          f"{n / med['numpy']:.2f}, (numeric - bare) / (numpy - bare) = "
          f"{(n - med['bare']) / (med['numpy'] - med['bare']):.2f}")
    print(f"   target import numeric < {TARGET:g} s: {'met' if n < TARGET else 'NOT met'} ({n:.3f} s)")


def importtime(top):
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", "import numeric"], capture_output=True,
                       text=True, check=True, cwd=ROOT)
    rows = []
    for line in r.stderr.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        self_us, cum_us, name = line[len("import time:"):].split("|")
        rows.append((int(cum_us), int(self_us), name.rstrip()))
    rows.sort(reverse=True)
    print(f"\n2. python -X importtime -c 'import numeric': the {top} heaviest modules by cumulative time "
          f"(nested: a module's time includes its imports; {len(rows)} modules imported)")
    print(f"{'cumulative [ms]':>16} {'self [ms]':>10}  module (indent = nesting depth)")
    for cum, own, name in rows[:top]:
        depth = (len(name) - len(name.lstrip())) // 2
        print(f"{cum / 1e3:>16.1f} {own / 1e3:>10.1f}  {'  ' * depth}{name.strip()}")
    heavy = {}
    for cum, own, name in rows:                       # self time per top-level package
        pkg = name.strip().split(".")[0]
        heavy[pkg] = heavy.get(pkg, 0) + own
    print("   self time per top-level package [ms]: "
          + ", ".join(f"{k} {v / 1e3:.0f}" for k, v in sorted(heavy.items(), key=lambda kv: -kv[1])[:8]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5 rounds instead of 15")
    args = ap.parse_args()
    startup(5 if args.quick else 15)
    importtime(10)


if __name__ == "__main__":
    main()
