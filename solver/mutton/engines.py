"""The engine dispatch of the Mutton solver: one `solve(problem, engine)` over the fast, csp
and smt engines, the count alone, and the consistent sets themselves."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

from fleece.rules.errors import FleeceError
from fleece.solver.mutton.facts import Fact
from fleece.solver.mutton.fast import count_facts, is_consistent, iter_sets
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution, minimal_core

ENGINES = ("fast", "csp", "smt")
MODEL_LIMIT = 200_000  # most consistent sets the Wolf-model posterior enumerates
LIST_LIMIT = 200_000  # most consistent sets the csp and smt engines are asked to list



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
        counts = count_facts(animals, facts, track=problem.alive())
        core: tuple[Fact, ...] = ()
        if counts.count == 0:
            core = minimal_core(facts, lambda fs: is_consistent(animals, fs))
        sol = Solution(problem, "fast", counts.count, counts.wolf_counts, core,
                       living_wolves=counts.tracked)
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
