"""The engine dispatch of the Mutton solver: one `solve(problem, engine)` over the fast, csp
and smt engines, the count alone, and the consistent sets themselves."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

from fleece.solver.mutton.facts import Fact
from fleece.solver.mutton.fast import count_facts, is_consistent, iter_sets
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution, minimal_core

ENGINES = ("fast", "csp", "smt")
MODEL_LIMIT = 200_000  # most consistent sets the Wolf-model posterior enumerates
# Most consistent sets the listing engines are asked for: python-constraint lists about 2,000
# sets a second and z3 a few hundred (blocking clauses), so these keep either under about ten
# seconds on one core. The fast engine counts any chart exactly.
LIST_LIMITS = {"csp": 20_000, "smt": 2_000}
DEFAULT = "default"  # list_limit: each engine's own limit (LIST_LIMITS)


def solve(problem: Problem, engine: str = "fast", *, model: bool | None = None,
          model_limit: int = MODEL_LIMIT, list_limit: int | str | None = DEFAULT) -> Solution:
    """Count the consistent wolf sets and each animal's share with one engine.

    `model` asks for the Wolf-model posterior (default: for game records only); it enumerates
    the consistent sets and is skipped above `model_limit` of them. The csp and smt engines
    list every set: above `list_limit` sets (default: the engine's own LIST_LIMITS entry;
    counted first by the fast engine, and for csp without the dictionary, whose search walks
    every set the other facts allow) they refuse at once with a Stopped error saying so and
    naming the fast engine (None: no limit). Every engine stops at the deadline of
    `solver.deadline.time_limit` (Stopped).
    """
    if engine in ("csp", "smt") and list_limit is not None:
        limit = LIST_LIMITS[engine] if list_limit == DEFAULT else int(list_limit)
        facts = problem.facts
        if engine == "csp":
            facts = tuple(f for f in facts if f.words is None)
        n = count_facts(problem.animals, facts, marginals=False).count
        if n > limit:
            from fleece.solver.deadline import Stopped  # threading and signal: rarely needed

            rate = "python-constraint" if engine == "csp" else "z3"
            raise Stopped(f"the {engine} engine lists every consistent set ({rate}), and this "
                          f"chart has {n}: more than {limit} would take minutes; use --engine "
                          "fast (exact at any size)")
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
        from fleece.solver.mutton.wolf_prior import model_posterior

        sol = replace(sol, model=model_posterior(problem, sol.count, limit=model_limit))
    return sol


def count_sets(problem: Problem) -> int:
    """The number of consistent wolf sets (fast engine, no per-animal counts)."""
    return count_facts(problem.animals, problem.facts, marginals=False).count


def enumerate_sets(problem: Problem, limit: int | None = None) -> list[frozenset[str]]:
    """The consistent wolf sets (at most `limit` of them), in a fixed order."""
    return list(islice(iter_sets(problem.animals, problem.facts), limit))
