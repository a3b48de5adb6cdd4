"""Running verifications: worker processes, budgets of CPU time, and what a budget's end means.

Each claim is verified in a forked worker process whose CPU time is limited by the kernel
(``RLIMIT_CPU``) to the claim's budget times the *budget scale*.  The limit counts the CPU time of
that process only, so a verdict does not depend on what else the machine runs: on a loaded machine a
verification takes longer by the clock but ends the same way.  A worker that uses up its budget is
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


def _child(claim_id: str, seconds: float, conn) -> None:
    limit = max(1, int(seconds + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))   # SIGXCPU at the soft limit
    conn.send(verify_inline(_CLAIMS[claim_id]))
    conn.close()


def _undecided(c: Claim, seconds: float, detail: str, exhausted: bool = False) -> Verdict:
    method = c.methods()[0] if c.methods() else "symbolic"
    return Verdict(c.id, c.expected, [Check(method, False, seconds, detail, error=True, budget_exhausted=exhausted)])


def verify_many(claims: Iterable[Claim], jobs: int = 1, progress: Callable[[Verdict], None] | None = None,
                scale: float | None = None) -> list[Verdict]:
    """Verify claims in forked worker processes, at most ``jobs`` at a time, each within its budget of
    CPU time (``claim.budget`` seconds times :func:`budget_scale`).  Results come back in the order of
    ``claims``; ``progress(verdict)`` is called as each one ends."""
    claims = list(claims)
    factor = budget_scale(scale)
    ctx = multiprocessing.get_context("fork")
    results: dict[str, Verdict] = {}
    pending = list(claims)
    running: list[tuple[Claim, multiprocessing.Process, object, float, float]] = []
    while pending or running:
        while pending and len(running) < max(1, jobs):
            c = pending.pop(0)
            budget = c.budget * factor
            recv, send = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_child, args=(c.id, budget, send), daemon=True)
            p.start()
            send.close()
            running.append((c, p, recv, time.monotonic(), budget))
        still = []
        for c, p, recv, start, budget in running:
            if recv.poll(0.02):
                try:
                    v = recv.recv()
                except EOFError:
                    p.join()
                    v = _ended(c, p, budget)
                else:
                    p.join()
            elif not p.is_alive():
                p.join()
                v = _ended(c, p, budget)
            elif time.monotonic() - start > _WALL_GUARD * budget + 60:
                used = _cpu_seconds(p.pid)
                p.kill()
                p.join()
                v = _undecided(c, used, f"stopped: it used {used:.1f} s of CPU in {_WALL_GUARD * budget + 60:.0f} s "
                                        "(a hang, not a slow computation)")
            else:
                still.append((c, p, recv, start, budget))
                continue
            recv.close()
            results[c.id] = v
            if progress:
                progress(v)
        running = still
    return [results[c.id] for c in claims]


def _ended(c: Claim, p, budget: float) -> Verdict:
    """The verdict of a worker that ended without sending one."""
    if p.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return _undecided(c, budget, f"stopped after its budget of {budget:g} s of CPU: "
                          + BUDGET_HINT.format(id=c.id, var=SCALE_VARIABLE), exhausted=True)
    return _undecided(c, 0.0, f"worker exited with code {p.exitcode}")
