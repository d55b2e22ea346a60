"""Jobs for the worker-pool tests (tests/test_web_pool.py) that wait for an event instead of
for a length of time, so the tests count events, not seconds: the pool's workers import this
module by name (the test process's sys.path reaches them through the fork server)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def wait_for(gate: str, cap: float = 60.0) -> int:
    """Wait until the file `gate` exists (at most `cap` seconds); the worker's process id."""
    stop = time.monotonic() + cap
    while not Path(gate).exists() and time.monotonic() < stop:
        time.sleep(0.01)
    return os.getpid()


def until_demoted(cap: float = 60.0) -> int:
    """Wait until this thread's priority has been lowered (at most `cap` seconds); the nice
    value it ends with."""
    start = os.getpriority(os.PRIO_PROCESS, 0)
    stop = time.monotonic() + cap
    while os.getpriority(os.PRIO_PROCESS, 0) == start and time.monotonic() < stop:
        time.sleep(0.01)
    return os.getpriority(os.PRIO_PROCESS, 0)


def pid() -> int:
    """The worker's process id."""
    return os.getpid()
