"""The csp engine: the same question as a python-constraint model, answered by enumeration.

One 0/1 variable per animal (1 = wolf). WOLF/SHEEP facts fix a variable; a row is a
MinSumConstraint(1) over its runners; a counter is MinSum/MaxSum (ExactSum when lo = hi) over
its animals; the dictionary is a FunctionConstraint over every variable. Every solution is
listed, so the engine is exponential; it exists to cross-check the fast engine with an
independent library. `constraint` is imported here only, when the engine is asked for. The
listing stops at the deadline of `solver.deadline.time_limit` (a Stopped error).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fleece.solver.deadline import current
from fleece.solver.mutton.facts import Fact, Kind
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution, minimal_core


def build(animals: str, facts: Sequence[Fact]) -> Any:
    """The python-constraint Problem for the facts."""
    import constraint as cs

    prob = cs.Problem()
    prob.addVariables(list(animals), [0, 1])
    for f in facts:
        names = sorted(f.animals)
        if f.kind is Kind.WOLF:
            prob.addConstraint(cs.InSetConstraint([1]), names)
        elif f.kind is Kind.SHEEP:
            prob.addConstraint(cs.InSetConstraint([0]), names)
        elif f.kind is Kind.AT_LEAST_ONE:
            if not names:
                prob.addConstraint(cs.FunctionConstraint(_never), list(animals[:1]))
            else:
                prob.addConstraint(cs.MinSumConstraint(1), names)
        elif f.kind is Kind.COUNT:
            if f.lo > f.hi or f.hi < 0 or f.lo > len(names):
                prob.addConstraint(cs.FunctionConstraint(_never), list(animals[:1]))
                continue
            if not names:
                continue
            if f.lo == f.hi:
                prob.addConstraint(cs.ExactSumConstraint(f.lo), names)
            else:
                if f.lo > 0:
                    prob.addConstraint(cs.MinSumConstraint(f.lo), names)
                if f.hi < len(names):
                    prob.addConstraint(cs.MaxSumConstraint(f.hi), names)
        else:
            assert f.words is not None
            words = f.words
            letters = list(animals)

            def in_words(*values: int, _w: frozenset[frozenset[str]] = words,
                         _l: list[str] = letters) -> bool:
                return frozenset(a for a, v in zip(_l, values, strict=True) if v) in _w

            prob.addConstraint(cs.FunctionConstraint(in_words), letters)
    return prob


def _never(*_: int) -> bool:
    return False


def _consistent(animals: str, facts: list[Fact]) -> bool:
    return build(animals, facts).getSolution() is not None


def solve_csp(problem: Problem) -> Solution:
    """Count the consistent sets (and each animal's share) by listing every solution."""
    animals = problem.animals
    facts = problem.facts
    prob = build(animals, facts)
    count = 0
    wolf_counts = dict.fromkeys(animals, 0)
    deadline = current()
    for sol in prob.getSolutionIter():
        count += 1
        if not count % 256:
            deadline.check()
        for a, v in sol.items():
            if v:
                wolf_counts[a] += 1
    core: tuple[Fact, ...] = ()
    if count == 0:
        core = minimal_core(facts, lambda fs: _consistent(animals, fs))
    return Solution(problem, "csp", count, wolf_counts, core)
