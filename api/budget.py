"""Time budgets of the API's searches: one place decides how long a solve may run and what a
user reads when it stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

LISTING_BUDGET = 15.0  # seconds: the csp and smt engines list every answer; fast has no limit


def solve_budget(engine: str, timeout: float | None) -> tuple[float | None, str]:
    """The time limit of a solve (`timeout`, else LISTING_BUDGET for the listing engines,
    else none) and the hint a user reads when it runs out."""
    other = "" if engine == "fast" else "; --engine fast is exact at any size"
    if timeout is not None:
        return timeout, f"try a larger --timeout{other}"
    if engine == "fast":
        return None, ""
    return LISTING_BUDGET, (f"the {engine} engine stops after {LISTING_BUDGET:g} s unless "
                            f"--timeout says otherwise{other}")


def within(seconds: float | None, hint: str, run: Callable[[], T]) -> T:
    """`run()` under a time limit (solver.deadline.time_limit; Stopped when it runs out);
    without a limit the timers are not even loaded."""
    if seconds is None:
        return run()
    from fleece.solver.deadline import time_limit

    with time_limit(seconds, hint):
        return run()
