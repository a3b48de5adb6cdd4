"""Timing helper shared by the benchmark scripts (run as ``python benchmarks/bench_*.py``)."""
from __future__ import annotations

import time


def best_of(fn, repeat=5):
    """The shortest of ``repeat`` wall-clock timings of ``fn()``, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)
