"""The smt engine: the same question as a z3 model.

One Boolean per animal (true = wolf); each fact is one formula (`formula`). For proofs and
cores every fact is guarded by its own indicator literal, so a check under assumptions can
switch facts on and off:

- counting: enumerate models, adding a blocking clause after each (every variable is fixed in a
  model, so each clause removes exactly one wolf set), in bounded solver scopes split on one
  animal at a time (see `enumerate_sets`);
- certain facts: "C is a wolf in every consistent set" is proved by the unsatisfiability of the
  facts plus "C is not a wolf" (and "cleared" by that of "C is a wolf");
- an inconsistent chart: z3's unsat core over the indicator literals, shrunk by deletion until
  every remaining fact is needed, then reported as chart facts in words.

Every z3 check is bounded by the deadline of `solver.deadline.time_limit`: an undecided check
is a Stopped error, never an answer. `z3` is imported here only, when the engine is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fleece.solver.deadline import z3_check
from fleece.solver.mutton.facts import Fact, Kind
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution, minimal_core


def formula(z3: Any, var: dict[str, Any], animals: str, f: Fact) -> Any:
    """The z3 formula of one fact over one Boolean per animal."""
    bs = [var[a] for a in sorted(f.animals)]
    if f.kind is Kind.WOLF:
        return bs[0]
    if f.kind is Kind.SHEEP:
        return z3.Not(bs[0])
    if f.kind is Kind.AT_LEAST_ONE:
        return z3.Or(*bs) if bs else z3.BoolVal(False)
    if f.kind is Kind.COUNT:
        if f.lo > f.hi or f.hi < 0 or f.lo > len(bs):
            return z3.BoolVal(False)
        if not bs:
            return z3.BoolVal(True)
        parts = []
        if f.lo > 0:
            parts.append(z3.AtLeast(*bs, f.lo))
        if f.hi < len(bs):
            parts.append(z3.AtMost(*bs, f.hi))
        return z3.And(*parts) if parts else z3.BoolVal(True)
    assert f.words is not None
    options = [z3.And(*[var[a] if a in w else z3.Not(var[a])
                        for a in animals]) for w in f.words]
    return z3.Or(*options) if options else z3.BoolVal(False)


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
        return formula(self.z3, self.var, self.animals, f)

    def check(self, guards: list[Any], *extra: Any) -> bool:
        """True when the guarded facts (and `extra` literals) are satisfiable; Stopped when
        z3 cannot decide before the deadline."""
        return z3_check(self.z3, self.solver, *guards, *extra)

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
        """Every consistent wolf set, by blocking-clause enumeration (see `enumerate_sets`)."""
        return enumerate_sets(self.animals, self.facts)


ENUM_LIMIT = 1000  # models enumerated in one solver scope before the scope is split


def enumerate_sets(animals: str, facts: Sequence[Fact]) -> list[frozenset[str]]:
    """Every wolf set satisfying the facts, by z3 blocking-clause enumeration.

    A finite-domain solver (QF_FD) holds the facts. Each model found is blocked by a clause
    (the disjunction of the negated assignment). To keep each check fast, a solver scope takes
    at most ENUM_LIMIT models; past that the scope is split on the next animal (wolf / not
    wolf) and each half is enumerated in its own scope, after re-blocking the models already
    found in that half. Models are read and clauses built through z3's C API, which is several
    times faster than the Python wrappers for this inner loop.
    """
    import z3

    solver = z3.SolverFor("QF_FD")
    var = [z3.Bool(a) for a in animals]
    by_letter = dict(zip(animals, var, strict=True))
    for f in facts:
        solver.add(formula(z3, by_letter, animals, f))
    neg = [z3.Not(v) for v in var]
    ctx = solver.ctx.ref()
    pos_ast = [v.as_ast() for v in var]
    neg_ast = [v.as_ast() for v in neg]
    n = len(animals)
    clause = z3.Ast * n
    out: list[tuple[bool, ...]] = []

    def block(bits: tuple[bool, ...]) -> None:
        lits = clause(*[neg_ast[i] if b else pos_ast[i] for i, b in enumerate(bits)])
        z3.Z3_solver_assert(ctx, solver.solver, z3.Z3_mk_or(ctx, n, lits))

    def read() -> tuple[bool, ...]:
        model = solver.model()
        bits = []
        for a in pos_ast:
            res = (z3.Ast * 1)()
            if not z3.Z3_model_eval(ctx, model.model, a, True, res):
                raise AssertionError("z3 could not evaluate a model")
            bits.append(z3.Z3_get_bool_value(ctx, res[0]) == 1)  # Z3_L_TRUE
        return tuple(bits)

    def scope(assumptions: list[Any], depth: int, known: list[tuple[bool, ...]]) -> None:
        solver.push()
        try:
            for bits in known:
                block(bits)
            found: list[tuple[bool, ...]] = []
            while len(found) < ENUM_LIMIT and z3_check(z3, solver, *assumptions):
                bits = read()
                out.append(bits)
                found.append(bits)
                block(bits)
        finally:
            solver.pop()
        if len(found) < ENUM_LIMIT or depth == n:
            return
        seen = known + found
        scope([*assumptions, var[depth]], depth + 1, [b for b in seen if b[depth]])
        scope([*assumptions, neg[depth]], depth + 1, [b for b in seen if not b[depth]])

    scope([], 0, [])
    return [frozenset(a for a, b in zip(animals, bits, strict=True) if b) for bits in out]


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
