"""Running verifications: worker processes, budgets of CPU time, and what a budget's end means.

Claims are verified in forked worker processes (one per job, each verifying one claim after another);
before each claim the kernel's limit on the worker's CPU time (``RLIMIT_CPU``) is set to what it has used
plus the claim's budget times the *budget scale*.  The limit counts the CPU time of that process only, so
a verdict does not depend on what else the machine runs: on a loaded machine a verification takes longer
by the clock but ends the same way.  A worker that uses up its budget is
stopped by the kernel (``SIGXCPU``) and the claim is reported undecided (``ERROR``) with the message
:data:`BUDGET_HINT`; such a verdict is marked (:attr:`Check.budget_exhausted`) and never stored as
final, so the next run tries it again.

The budget scale is 1 by default; ``dpderive verify --budget-scale S`` or the environment variable
:data:`SCALE_VARIABLE` multiplies every budget (a slow machine may need 2 or 3).
"""
from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import time
from typing import Callable, Iterable

from .core import _CLAIMS, Check, Claim, Verdict, verify_inline

__all__ = ["verify_many", "budget_scale", "SCALE_VARIABLE", "BUDGET_HINT"]

SCALE_VARIABLE = "DPDERIVE_BUDGET_SCALE"
BUDGET_HINT = ("ran out of its CPU-time budget; this verdict is not stored: run `dpderive verify --only {id}` "
               "(verify always verifies afresh) with a larger `--budget-scale` (or ${var}) on a slow machine")
#: A worker is stopped by the clock only after this many seconds per second of budget: a verification
#: never waits, so this only guards against a process that hangs without using the CPU.
_WALL_GUARD = 60.0


def budget_scale(scale: float | None = None) -> float:
    """``scale`` if given, else ``$DPDERIVE_BUDGET_SCALE``, else 1 (``ValueError`` unless positive and finite)."""
    if scale is None:
        text = os.environ.get(SCALE_VARIABLE, "").strip()
        if not text:
            return 1.0
        try:
            scale = float(text)
        except ValueError:
            raise ValueError(f"{SCALE_VARIABLE} must be a positive number, got {text!r}") from None
    if not (scale > 0 and scale < float("inf")):
        raise ValueError(f"the budget scale must be positive and finite, got {scale!r}")
    return float(scale)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by the process ``pid`` (Linux /proc), 0 if unknown."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _worker(conn) -> None:
    """A worker process: verifies the claims it is sent, one at a time, until it is sent ``None``.

    Before each claim the kernel's soft limit of CPU time is set to the CPU time used so far plus the
    claim's budget, so each claim gets exactly its budget whatever ran before it in this process (the hard
    limit is left as it is: an unprivileged process could not raise it again).  SymPy's caches and the
    engine's carry over from claim to claim, which is what makes a worker per job cheaper than a process
    per claim; they hold only values computed from their arguments, so a verdict does not depend on which
    claims ran before it."""
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    while True:
        job = conn.recv()
        if job is None:
            break
        claim_id, seconds = job
        limit = int(_cpu_used() + max(seconds, 1.0) + 0.999)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))   # SIGXCPU at the soft limit
        conn.send(verify_inline(_CLAIMS[claim_id]))
    conn.close()


def _undecided(c: Claim, seconds: float, detail: str, exhausted: bool = False) -> Verdict:
    method = c.methods()[0] if c.methods() else "symbolic"
    return Verdict(c.id, c.expected, [Check(method, False, seconds, detail, error=True, budget_exhausted=exhausted)])


class _Worker:
    """One worker process and the claim it is verifying (``None`` when idle)."""

    def __init__(self, ctx):
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.claim: Claim | None = None
        self.start = 0.0
        self.budget = 0.0
        self.cpu_at_start = 0.0

    def give(self, c: Claim, budget: float) -> None:
        self.claim, self.start, self.budget = c, time.monotonic(), budget
        self.cpu_at_start = _cpu_seconds(self.process.pid)
        self.conn.send((c.id, budget))

    def stop(self) -> None:
        """Kill the process (a hang, or the end of the run)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def verify_many(claims: Iterable[Claim], jobs: int = 1, progress: Callable[[Verdict], None] | None = None,
                scale: float | None = None) -> list[Verdict]:
    """Verify claims in forked worker processes, at most ``jobs`` at a time, each claim within its budget of
    CPU time (``claim.budget`` seconds times :func:`budget_scale`).  A worker verifies one claim after
    another (a worker stopped by its budget is replaced).  Results come back in the order of ``claims``;
    ``progress(verdict)`` is called as each one ends."""
    claims = list(claims)
    factor = budget_scale(scale)
    ctx = multiprocessing.get_context("fork")
    results: dict[str, Verdict] = {}
    pending = list(claims)
    workers: list[_Worker] = []
    try:
        while pending or any(w.claim is not None for w in workers):
            for w in workers:
                if w.claim is None and pending:
                    c = pending.pop(0)
                    w.give(c, c.budget * factor)
            while pending and len(workers) < max(1, jobs):
                w = _Worker(ctx)
                workers.append(w)
                c = pending.pop(0)
                w.give(c, c.budget * factor)
            for w in list(workers):
                if w.claim is None:
                    continue
                c, v = w.claim, None
                if w.conn.poll(0.02):
                    try:
                        v = w.conn.recv()
                    except EOFError:
                        w.process.join()
                        v = _ended(c, w.process, w.budget)
                elif not w.process.is_alive():
                    w.process.join()
                    v = _ended(c, w.process, w.budget)
                elif time.monotonic() - w.start > _WALL_GUARD * w.budget + 60:
                    used = _cpu_seconds(w.process.pid) - w.cpu_at_start
                    v = _undecided(c, used, f"stopped: it used {used:.1f} s of CPU in "
                                            f"{_WALL_GUARD * w.budget + 60:.0f} s (a hang, not a slow computation)")
                    w.stop()
                if v is None:
                    continue
                w.claim = None
                if not w.process.is_alive() or w.process.exitcode is not None:
                    w.stop()
                    workers.remove(w)
                results[c.id] = v
                if progress:
                    progress(v)
    finally:
        for w in workers:
            if w.process.is_alive() and w.claim is None:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
                w.process.join(5)
            w.stop()
    return [results[c.id] for c in claims]


def _ended(c: Claim, p, budget: float) -> Verdict:
    """The verdict of a worker that ended without sending one."""
    if p.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return _undecided(c, budget, f"stopped after its budget of {budget:g} s of CPU: "
                          + BUDGET_HINT.format(id=c.id, var=SCALE_VARIABLE), exhausted=True)
    return _undecided(c, 0.0, f"worker exited with code {p.exitcode}")
