"""Timing helper shared by the benchmark scripts: the median of several runs (wall or CPU)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], runs: int, *, warmup: bool = False,
                clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time of `runs` calls of `fn` by `clock` (wall time by default;
    time.process_time for this process's CPU time), after one untimed call when `warmup` is
    set (so import and cache costs stay out of the figure)."""
    if warmup:
        fn()
    times = []
    for _ in range(runs):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)
