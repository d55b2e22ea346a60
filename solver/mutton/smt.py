"""The smt engine: the same question as a z3 model.

One Boolean per animal (true = wolf). Each fact becomes one formula guarded by its own
indicator literal, so a check under assumptions can switch facts on and off:

- counting: enumerate models, adding a blocking clause after each (every variable is fixed in a
  model, so each clause removes exactly one wolf set);
- certain facts: "C is a wolf in every consistent set" is proved by the unsatisfiability of the
  facts plus "C is not a wolf" (and "cleared" by that of "C is a wolf");
- an inconsistent chart: z3's unsat core over the indicator literals, shrunk by deletion until
  every remaining fact is needed, then reported as chart facts in words.

`z3` is imported here only, when the engine is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.mutton.problem import Fact, Kind, Problem
from solver.mutton.solution import Solution, minimal_core


class Model:
    """A z3 solver holding every fact behind an indicator literal."""

    def __init__(self, animals: str, facts: Sequence[Fact]) -> None:
        import z3

        self.z3 = z3
        self.animals = animals
        self.facts = list(facts)
        self.var = {a: z3.Bool(a) for a in animals}
        self.solver = z3.Solver()
        self.guards = [z3.Bool(f"fact_{i}") for i in range(len(self.facts))]
        for g, f in zip(self.guards, self.facts, strict=True):
            self.solver.add(z3.Implies(g, self.formula(f)))

    def formula(self, f: Fact) -> Any:
        """The z3 formula of one fact."""
        z3 = self.z3
        bs = [self.var[a] for a in sorted(f.animals)]
        if f.kind is Kind.WOLF:
            return bs[0]
        if f.kind is Kind.SHEEP:
            return z3.Not(bs[0])
        if f.kind is Kind.AT_LEAST_ONE:
            return z3.Or(*bs) if bs else z3.BoolVal(False)
        if f.kind is Kind.COUNT:
            if not bs:
                return z3.BoolVal(f.lo <= 0 <= f.hi)
            parts = []
            if f.lo > 0:
                parts.append(z3.AtLeast(*bs, f.lo))
            if f.hi < len(bs):
                parts.append(z3.AtMost(*bs, f.hi))
            return z3.And(*parts) if parts else z3.BoolVal(True)
        assert f.words is not None
        options = [z3.And(*[self.var[a] if a in w else z3.Not(self.var[a])
                            for a in self.animals]) for w in f.words]
        return z3.Or(*options) if options else z3.BoolVal(False)

    def check(self, guards: list[Any], *extra: Any) -> bool:
        """True when the guarded facts (and `extra` literals) are satisfiable."""
        return bool(self.solver.check(*guards, *extra) == self.z3.sat)

    def core(self) -> tuple[Fact, ...]:
        """A minimal set of facts that contradict each other."""
        if self.check(self.guards):
            return ()
        raw = self.solver.unsat_core()
        index = {str(g): i for i, g in enumerate(self.guards)}
        start = [self.facts[index[str(lit)]] for lit in raw if str(lit) in index]
        pos = {id(f): i for i, f in enumerate(self.facts)}

        def consistent(fs: list[Fact]) -> bool:
            return self.check([self.guards[pos[id(f)]] for f in fs])

        return minimal_core(self.facts, consistent, start=start)

    def prove(self, letter: str, wolf: bool) -> bool:
        """True when z3 proves that every consistent set has (wolf=True) or lacks the animal."""
        lit = self.z3.Not(self.var[letter]) if wolf else self.var[letter]
        return not self.check(self.guards, lit)

    def enumerate(self) -> list[frozenset[str]]:
        """Every consistent wolf set, by blocking-clause enumeration."""
        z3 = self.z3
        out = []
        s = self.solver
        s.push()
        try:
            for g in self.guards:
                s.add(g)
            while s.check() == z3.sat:
                m = s.model()
                wolves = frozenset(a for a, v in self.var.items()
                                   if z3.is_true(m.eval(v, model_completion=True)))
                out.append(wolves)
                s.add(z3.Or(*[z3.Not(v) if a in wolves else v for a, v in self.var.items()]))
        finally:
            s.pop()
        return out


def solve_smt(problem: Problem) -> Solution:
    """Count by enumeration, prove each certain fact by unsat, or find the unsat core."""
    animals = problem.animals
    model = Model(animals, problem.facts)
    if not model.check(model.guards):
        return Solution(problem, "smt", 0, dict.fromkeys(animals, 0), model.core(),
                        proved=frozenset())
    sets = model.enumerate()
    wolf_counts = dict.fromkeys(animals, 0)
    for w in sets:
        for a in w:
            wolf_counts[a] += 1
    count = len(sets)
    proved = set()
    for a in animals:
        if wolf_counts[a] == count:
            if not model.prove(a, True):
                raise AssertionError(f"z3 could not prove that {a} is a wolf")
            proved.add(a)
        elif wolf_counts[a] == 0:
            if not model.prove(a, False):
                raise AssertionError(f"z3 could not prove that {a} is cleared")
            proved.add(a)
    return Solution(problem, "smt", count, wolf_counts, proved=frozenset(proved))
