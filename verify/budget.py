"""Solver budgets for every game's verification: a Z3 query gets a timeout, an `unknown` is
retried once with a larger timeout, and a second `unknown` raises Undecided, which the check
turns into an UNKNOWN result (fleece.verify.result.undecided). Nothing reads an unknown as
sat or unsat.

    budget = Budget(timeout_ms=60_000)
    answer = budget.check(solver)          # z3.sat or z3.unsat, else Undecided
    budget.answer(solver)                  # "sat" / "unsat" / "unknown" (no exception)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEFAULT_TIMEOUT_MS = 60_000
RETRY_FACTOR = 4


class Undecided(Exception):
    """A solver query came back unknown twice (first timeout, then the larger retry)."""

    def __init__(self, reason: str, timeouts: tuple[int, ...]) -> None:
        self.reason = reason
        self.timeouts = timeouts
        spent = " then ".join(f"{t} ms" for t in timeouts)
        super().__init__(f"Z3 answered unknown ({reason}) with timeouts {spent}")


@dataclass(frozen=True)
class Budget:
    """Per-query solver budget: `timeout_ms` for the first try, `retry_factor` times that for
    the one retry after an unknown."""

    timeout_ms: int = DEFAULT_TIMEOUT_MS
    retry_factor: int = RETRY_FACTOR

    def __post_init__(self) -> None:
        if self.timeout_ms < 1 or self.retry_factor < 1:
            raise ValueError("a solver budget needs a timeout of at least 1 ms")

    @property
    def timeouts(self) -> tuple[int, int]:
        """The first and the retry timeout, in milliseconds."""
        return self.timeout_ms, self.timeout_ms * self.retry_factor

    def check(self, solver: Any, *assumptions: Any) -> Any:
        """`solver.check()` under the budget: z3.sat or z3.unsat; Undecided after two
        unknowns. The solver's timeout is left at the retry value."""
        import z3

        answer = None
        for t in self.timeouts:
            solver.set("timeout", t)
            answer = solver.check(*assumptions)
            if answer != z3.unknown:
                return answer
        raise Undecided(str(solver.reason_unknown()), self.timeouts)

    def answer(self, solver: Any, *assumptions: Any) -> str:
        """Like `check`, as the text "sat", "unsat" or "unknown" (for callers that record
        answers, such as proof workers)."""
        try:
            return str(self.check(solver, *assumptions))
        except Undecided:
            return "unknown"
