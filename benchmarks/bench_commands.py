"""CPU time of the main job and of the quick commands, as ratios to a baseline measured in the same run.

Each command runs in a fresh process; its CPU time is the user + system time of that process and of
every process it waited for (the verification workers), from ``resource.getrusage(RUSAGE_CHILDREN)``
around the run, so the figures do not depend on what else the machine runs.  The baseline is
``python -c "import sympy"`` (what any command pays first).  Targets (issue: the main job on a busy
laptop): ``dpderive verify`` at most 100 s of CPU; ``show ID`` of a stored verdict at most 1 s.

Run:  python benchmarks/bench_commands.py [--quick]   (--quick: without the full verify)
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DPDERIVE = [sys.executable, "-m", "numeric.cli"]


def cpu(args, env=None) -> float:
    """CPU seconds (user + system) of ``args`` and its children, in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="skip the full verify (minutes)")
    quick = ap.parse_args().quick
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DPDERIVE_CACHE=os.path.join(tmp, "results.json"))
        base = min(cpu([sys.executable, "-c", "import sympy"]) for _ in range(3))
        rows = [("python -c 'import sympy' (baseline)", base)]
        rows.append(("import derivations (no paper built)", cpu([sys.executable, "-c", "import derivations"])))
        rows.append(("every paper's claims built", cpu([sys.executable, "-c", "import derivations; derivations.claims()"])))
        if quick:    # one verdict stored (the store then also holds the registry's index)
            cpu(DPDERIVE + ["verify", "--only", "pd.hm.query_tail", "--quiet"], env)
        else:
            rows.append(("dpderive verify (every claim, 2 workers)", cpu(DPDERIVE + ["verify", "--quiet"], env)))
            rows.append(("dpderive summary (all stored)", cpu(DPDERIVE + ["summary", "--quiet"], env)))
        rows.append(("dpderive show ID (stored)", cpu(DPDERIVE + ["show", "pd.hm.query_tail"], env)))
        rows.append(("dpderive show nosuchid", cpu(DPDERIVE + ["show", "nosuch.claim"], env)))
        rows.append(("dpderive papers", cpu(DPDERIVE + ["papers"], env)))
        rows.append(("dpderive list", cpu(DPDERIVE + ["list"], env)))
    width = max(len(name) for name, _ in rows)
    print(f"{'command':<{width}}  {'CPU s':>8}  {'x baseline':>10}")
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:8.2f}  {seconds / base:10.1f}")


if __name__ == "__main__":
    main()
