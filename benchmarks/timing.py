"""Timing helper shared by the benchmark scripts: the median of several wall-clock runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], runs: int, *, warmup: bool = False) -> float:
    """Median wall time of `runs` calls of `fn`, after one untimed call when `warmup` is set
    (so import and cache costs stay out of the figure)."""
    if warmup:
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)
