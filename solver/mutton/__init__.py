"""Mutton deduction solver: exact, explained deductions from the Farmer's chart (M25-M26).

Public API (stable; the puzzle generator and the web app build on it):

- `Problem`: what the Farmer knows (frozen dataclass), built by
  `problem_from_chart(chart, wolves=4, escaped=..., dictionary=..., passed=...)`,
  `problem_from_record(text)`, `problem_from_json(text)` or `problem_from_text(text, ...)`
  (auto-detects a pbmserv paste, a game record or JSON). `problem.facts` lists the facts
  (`Fact`, with the D-clauses of `solver.mutton.problem`) that define a consistent wolf set.
- `solve(problem, engine="fast") -> Solution`: `count` (exact int), `wolf_counts`
  (letter -> number of consistent sets containing it), `probability(letter) -> Fraction`,
  `certain_wolves`, `cleared`, `possible_wolves`, `berserk_set`, `core` (when inconsistent),
  `model` (Wolf-model posterior, records only).
- `analyse(problem, engine="fast") -> Analysis`: the solution plus the advice and the reasons,
  with `to_json()` (what `fleece mutton solve --json` prints).
- `count_sets(problem) -> int`: the count alone, cheap (fast engine, no marginals).
- `enumerate_sets(problem, limit=None)`: the consistent sets themselves, for small cases.
- `explain(problem, solution)` and `advise(problem, solution)`: reasons for the certain facts
  and the Farmer's advice (best single shot, berserk set and its cost).

Engines: `fast` (default; counting by groups and components, exact), `csp`
(python-constraint, enumerates) and `smt` (z3: enumerates with blocking clauses, proves the
certain facts, finds the unsat core). The csp and smt modules import their libraries only when
asked for.

Imports: fleece.rules and fleece.solver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fleece.solver.mutton.advice import Advice, advise
from fleece.solver.mutton.analysis import Analysis, analyse
from fleece.solver.mutton.engines import ENGINES, count_sets, enumerate_sets, solve
from fleece.solver.mutton.explain import explain
from fleece.solver.mutton.facts import Fact, Kind
from fleece.solver.mutton.inputs import problem_from_json, problem_from_record, problem_from_text
from fleece.solver.mutton.problem import Problem, WolfTurn, problem_from_chart
from fleece.solver.mutton.solution import Solution

if TYPE_CHECKING:
    from fleece.solver.mutton.posterior import ModelPosterior


def __getattr__(name: str) -> Any:
    """ModelPosterior, loaded on first use (solver.mutton.posterior): solving a pasted chart
    does not need it."""
    if name == "ModelPosterior":
        from fleece.solver.mutton.posterior import ModelPosterior

        return ModelPosterior
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENGINES",
    "Advice",
    "Analysis",
    "Fact",
    "Kind",
    "ModelPosterior",
    "Problem",
    "Solution",
    "WolfTurn",
    "advise",
    "analyse",
    "count_sets",
    "enumerate_sets",
    "explain",
    "problem_from_chart",
    "problem_from_json",
    "problem_from_record",
    "problem_from_text",
    "solve",
]
