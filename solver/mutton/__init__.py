"""Mutton deduction solver: exact, explained deductions from the Farmer's chart (M25-M26).

Public API (stable; the puzzle generator builds on it):

- `Problem`: what the Farmer knows (frozen dataclass), built by
  `problem_from_chart(chart, wolves=4, escaped=..., dictionary=..., passed=...)`,
  `problem_from_record(text)`, `problem_from_json(text)` or `problem_from_text(text, ...)`
  (auto-detects a pbmserv paste, a game record or JSON). `problem.facts` lists the facts
  (`Fact`, with the D-clauses of `solver.mutton.problem`) that define a consistent wolf set.
- `solve(problem, engine="fast") -> Solution`: `count` (exact int), `wolf_counts`
  (letter -> number of consistent sets containing it), `probability(letter) -> Fraction`,
  `certain_wolves`, `cleared`, `possible_wolves`, `berserk_set`, `core` (when inconsistent),
  `model` (Wolf-model posterior, records only).
- `count_sets(problem) -> int`: the count alone, cheap (fast engine, no marginals).
- `enumerate_sets(problem, limit=None)`: the consistent sets themselves, for small cases.
- `explain(problem, solution)` and `advise(problem, solution)`: reasons for the certain facts
  and the Farmer's advice (best single shot, berserk set and its cost).

Engines: `fast` (default; counting by groups and components, exact), `csp`
(python-constraint, enumerates) and `smt` (z3: enumerates with blocking clauses, proves the
certain facts, finds the unsat core). The csp and smt modules import their libraries only when
asked for.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

from fleece.rules.errors import FleeceError
from fleece.solver.mutton.advice import Advice
from fleece.solver.mutton.advice import advise as _advise
from fleece.solver.mutton.fast import count_facts, is_consistent, iter_sets
from fleece.solver.mutton.inputs import problem_from_json, problem_from_record, problem_from_text
from fleece.solver.mutton.problem import (
    Fact,
    Kind,
    Problem,
    WolfTurn,
    problem_from_chart,
)
from fleece.solver.mutton.solution import ModelPosterior, Solution, minimal_core

ENGINES = ("fast", "csp", "smt")
MODEL_LIMIT = 200_000  # most consistent sets the Wolf-model posterior enumerates
LIST_LIMIT = 200_000  # most consistent sets the csp and smt engines are asked to list

__all__ = [
    "ENGINES",
    "Advice",
    "Fact",
    "Kind",
    "ModelPosterior",
    "Problem",
    "Solution",
    "WolfTurn",
    "advise",
    "count_sets",
    "enumerate_sets",
    "explain",
    "problem_from_chart",
    "problem_from_json",
    "problem_from_record",
    "problem_from_text",
    "solve",
]


def solve(problem: Problem, engine: str = "fast", *, model: bool | None = None,
          model_limit: int = MODEL_LIMIT, list_limit: int | None = LIST_LIMIT) -> Solution:
    """Count the consistent wolf sets and each animal's share with one engine.

    `model` asks for the Wolf-model posterior (default: for game records only); it enumerates
    the consistent sets and is skipped above `model_limit` of them. The csp and smt engines
    list every set: above `list_limit` sets (counted first by the fast engine) they refuse
    with a FleeceError instead of running for minutes (None: no limit).
    """
    if engine in ("csp", "smt") and list_limit is not None:
        n = count_sets(problem)
        if n > list_limit:
            raise FleeceError(f"the {engine} engine lists every consistent set, and this chart "
                              f"has {n}: more than {list_limit}; use --engine fast")
    if engine == "fast":
        animals = problem.animals
        facts = problem.facts
        counts = count_facts(animals, facts)
        core: tuple[Fact, ...] = ()
        if counts.count == 0:
            core = minimal_core(facts, lambda fs: is_consistent(animals, fs))
        sol = Solution(problem, "fast", counts.count, counts.wolf_counts, core)
    elif engine == "csp":
        from fleece.solver.mutton.csp import solve_csp

        sol = solve_csp(problem)
    elif engine == "smt":
        from fleece.solver.mutton.smt import solve_smt

        sol = solve_smt(problem)
    else:
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    want_model = problem.is_record if model is None else model
    if want_model and sol.count and problem.turns is not None:
        from fleece.solver.mutton.model import model_posterior

        sol = replace(sol, model=model_posterior(problem, sol.count, limit=model_limit))
    return sol


def count_sets(problem: Problem) -> int:
    """The number of consistent wolf sets (fast engine, no per-animal counts)."""
    return count_facts(problem.animals, problem.facts, marginals=False).count


def enumerate_sets(problem: Problem, limit: int | None = None) -> list[frozenset[str]]:
    """The consistent wolf sets (at most `limit` of them), in a fixed order."""
    return list(islice(iter_sets(problem.animals, problem.facts), limit))


def explain(problem: Problem, solution: Solution) -> dict[str, str]:
    """A short reason for every certain wolf and cleared animal (letter -> sentence)."""
    from fleece.solver.mutton.explain import explain as _explain

    return _explain(problem, solution)


def advise(problem: Problem, solution: Solution) -> Advice:
    """The Farmer's advice: best single shot and berserk set (see solver.mutton.advice)."""
    return _advise(problem, solution)
