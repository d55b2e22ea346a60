"""Time budgets for the solvers: `--timeout SECONDS` for every engine of every game.

`time_limit(seconds, hint)` is used around a whole solve. Inside it:

- engines that run their own loops (the csp and smt engines) read the current deadline with
  `current()` and stop cleanly: `Deadline.check()` between steps, and z3 checks bounded by
  `Deadline.z3_ms()` (a z3 `unknown` after the deadline is a stop, never an answer);
- every other engine (the fast engines) is stopped by a process-level guard: a SIGALRM timer
  whose handler raises `Stopped` in the main thread, so no engine needs a hook of its own.

`Stopped` is a FleeceError that the command line prints as one line `fleece: stopped: ...`
with exit status 1: the search gave no answer, which is neither a result nor bad input.
"""

from __future__ import annotations

import contextvars
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

from fleece.rules.errors import FleeceError, Stopped

__all__ = ["Deadline", "Stopped", "current", "in_thread", "time_limit", "z3_check"]

Z3_NO_TIMEOUT = 2**32 - 1  # z3's default `timeout`: no limit


class Deadline:
    """A point in time after which a search stops (`seconds` None: never)."""

    def __init__(self, seconds: float | None, hint: str = "") -> None:
        self.seconds = seconds
        self.hint = hint
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (0 when past), or None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    @property
    def expired(self) -> bool:
        """True once the time is up."""
        left = self.remaining()
        return left is not None and left <= 0

    def message(self) -> str:
        """What a user reads when the time is up."""
        text = f"no answer within {self.seconds:g} s"
        return f"{text}; {self.hint}" if self.hint else text

    def check(self) -> None:
        """Raise Stopped when the time is up."""
        if self.expired:
            raise Stopped(self.message(), limit=self.seconds)

    def z3_ms(self) -> int:
        """The z3 `timeout` parameter for the next check: the milliseconds left (at least 1),
        or z3's own "no limit" (2**32 - 1) without a deadline."""
        left = self.remaining()
        return Z3_NO_TIMEOUT if left is None else max(1, min(Z3_NO_TIMEOUT, int(left * 1000)))


NO_DEADLINE = Deadline(None)
_current: contextvars.ContextVar[Deadline] = contextvars.ContextVar("deadline",
                                                                   default=NO_DEADLINE)


def current() -> Deadline:
    """The deadline of the solve in progress (NO_DEADLINE outside `time_limit`)."""
    return _current.get()


@contextmanager
def time_limit(seconds: float | None, hint: str = "") -> Iterator[Deadline]:
    """Run the body under a deadline of `seconds` (None: no limit). Engines that check
    `current()` stop cleanly; any other Python code is stopped by SIGALRM when this runs in
    the main thread of a Unix process (else the cooperative checks alone apply)."""
    deadline = Deadline(seconds, hint)
    token = _current.set(deadline)
    guard = (seconds is not None and hasattr(signal, "setitimer")
             and threading.current_thread() is threading.main_thread())
    old_handler = None
    if guard:
        def on_alarm(signum: int, frame: FrameType | None) -> None:
            raise Stopped(deadline.message(), limit=seconds)

        old_handler = signal.signal(signal.SIGALRM, on_alarm)
        # a little later than the cooperative checks, which stop more cleanly
        assert seconds is not None
        signal.setitimer(signal.ITIMER_REAL, seconds + 0.25)
    try:
        yield deadline
    finally:
        if guard:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        _current.reset(token)


def z3_check(z3: Any, solver: Any, *assumptions: Any) -> bool:
    """`solver.check(...) == sat`, bounded by the current deadline: a z3 `unknown` is never
    read as unsat; it raises Stopped after the deadline (or FleeceError with z3's reason)."""
    deadline = current()
    deadline.check()
    solver.set("timeout", deadline.z3_ms())
    result = solver.check(*assumptions)
    if result == z3.unknown:
        if deadline.seconds is not None:  # z3's timeout is the deadline's
            raise Stopped(deadline.message(), limit=deadline.seconds)
        raise FleeceError(f"z3 could not decide: {solver.reason_unknown()}")
    return bool(result == z3.sat)


R = TypeVar("R")


def in_thread(func: Callable[[], R], seconds: float | None, hint: str = "") -> R:
    """`func()` under a time limit for compiled code that releases the GIL (numba `nogil`
    kernels, which no signal interrupts): it runs in a daemon thread and Stopped is raised
    when it has not finished after `seconds` (the thread is left to the process's exit)."""
    if seconds is None:
        return func()
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:  # handed to the caller's thread below
            box["error"] = exc

    worker = threading.Thread(target=target, name="fleece-deadline", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise Stopped(Deadline(seconds, hint).message(), limit=seconds)
    if "error" in box:
        raise box["error"]
    value: R = box["value"]
    return value
