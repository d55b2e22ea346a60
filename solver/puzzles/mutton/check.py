"""Independent verification of a Mutton puzzle with z3: the answer is unique and every clue is
needed. It shares no counting code with the generator; z3 is imported only when called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fleece.rules.mutton.chart import Chart, ChartRow, Status
from fleece.solver.puzzles.mutton.answer import MuttonQuestion
from fleece.solver.puzzles.mutton.human import human_solve


@dataclass(frozen=True)
class Verdict:
    """What z3 established: the answer (None when there is none) and the clues that are not
    needed (empty for a minimal puzzle)."""

    answer: frozenset[str] | None
    redundant: tuple[str, ...]
    clues: int
    consistent: bool = True  # False: no wolf set fits the chart at all

    @property
    def unique(self) -> bool:
        """True when the question has exactly one answer."""
        return self.answer is not None

    @property
    def minimal(self) -> bool:
        """True when removing any clue changes the answer."""
        return self.unique and not self.redundant


def _describe(clue: ChartRow | str) -> str:
    if isinstance(clue, ChartRow):
        return f"round {clue.round}"
    return f"the mark of {clue}"


def z3_verify(chart: Chart, k: int, question: MuttonQuestion) -> Verdict:
    """Decide the puzzle's answer with z3 and test each clue's removal (guarded by an assumption
    literal per clue)."""
    import z3

    animals = chart.animals
    var = {a: z3.Bool(f"w_{a}") for a in animals}
    victims = {r.victim for r in chart.rows}
    solver = z3.Solver()
    solver.add(z3.PbEq([(var[a], 1) for a in animals], k))
    guards: list[tuple[Any, ChartRow | str]] = []

    def status_fact(a: str) -> Any:
        st = chart.status_of(a)
        return var[a] if st in (Status.DEAD_WOLF, Status.ESCAPED) else z3.Not(var[a])

    for a in animals:
        if chart.status_of(a) is Status.ALIVE:
            continue
        if a in victims:
            solver.add(status_fact(a))
        else:
            g = z3.Bool(f"g_mark_{a}")
            solver.add(z3.Implies(g, status_fact(a)))
            guards.append((g, a))
    for row in chart.rows:
        g = z3.Bool(f"g_round_{row.round}")
        solver.add(z3.Implies(g, z3.Or([var[a] for a in sorted(row.runners)])))
        guards.append((g, row))
    every = [g for g, _ in guards]

    def model_set(model: Any) -> frozenset[str]:
        return frozenset(a for a in animals if z3.is_true(model.eval(var[a],
                                                                     model_completion=True)))

    ans: frozenset[str] | None
    differs: Any
    if solver.check(*every) != z3.sat:
        return Verdict(None, (), len(guards), consistent=False)
    if question is MuttonQuestion.ALL:
        first = model_set(solver.model())
        differs = z3.Or([z3.Not(var[a]) if a in first else var[a] for a in animals])
        if solver.check(*every, differs) == z3.sat:
            return Verdict(None, (), len(guards))
        ans = first
    else:
        shown = {a for a in animals if chart.status_of(a) is not Status.ALIVE}
        certain = frozenset(a for a in animals if a not in shown
                            and solver.check(*every, z3.Not(var[a])) == z3.unsat)
        two = solver.check(*every, z3.Or([z3.Not(var[a]) if a in certain else var[a]
                                          for a in animals if a not in shown]))
        if not certain or two != z3.sat:
            return Verdict(None, (), len(guards))
        ans = certain
        differs = z3.Or([z3.Not(var[a]) for a in sorted(certain)])
    redundant = []
    for g, clue in guards:
        rest = [h for h in every if h is not g]
        if question is MuttonQuestion.ALL:
            if solver.check(*rest, differs) == z3.unsat:
                redundant.append(_describe(clue))
        else:
            # the answer is unchanged when every certain wolf stays certain and, for a freed
            # status mark, that animal does not become certain
            still = solver.check(*rest, differs) == z3.unsat
            if still and isinstance(clue, str) and chart.status_of(clue) in (
                    Status.DEAD_WOLF, Status.ESCAPED):
                still = solver.check(*rest, z3.Not(var[clue])) == z3.sat
            if still:
                redundant.append(_describe(clue))
    return Verdict(ans, tuple(redundant), len(guards))


@dataclass(frozen=True)
class Report:
    """The outcome of `fleece mutton puzzle check`: printable lines and whether all checks pass."""

    lines: tuple[str, ...]
    ok: bool
    data: dict[str, Any]


def check_puzzle(chart: Chart, k: int, question: MuttonQuestion, labelled: Any,
                 claimed: frozenset[str] | None, name: str) -> Report:
    """Verify uniqueness and minimality with z3, grade with the rule-limited solver, and compare
    with the labelled grade and the solution file's answer (when given)."""
    v = z3_verify(chart, k, question)
    lines = [f"{name}: {question.text(k)}"]
    ok = True
    data: dict[str, Any] = {"unique": v.unique, "minimal": v.minimal, "clues": v.clues}
    if not v.consistent:
        data["consistent"] = False
        lines.append("answer: NONE (no wolf set fits the chart, z3)")
        return Report(tuple(lines), False, data)
    if v.answer is None:
        lines.append("answer: NOT UNIQUE (z3 finds no single answer)")
        return Report(tuple(lines), False, data)
    data["answer"] = sorted(v.answer)
    lines.append(f"answer: {' '.join(sorted(v.answer))} (unique, z3)")
    if v.redundant:
        ok = False
        lines.append(f"minimal: NO, not needed: {', '.join(v.redundant)}")
    else:
        lines.append(f"minimal: yes (each of the {v.clues} clues is needed, z3)")
    sol = human_solve(chart, k, question, target=v.answer)
    grade = sol.grade
    data["grade"] = grade.label if grade else None
    if grade is None:
        ok = False
        lines.append("grade: NOT SOLVABLE by the named rules")
    else:
        hardest = max((s.rule for s in sol.steps), key=lambda r: r.grade, default=None)
        why = f", hardest rule: {hardest.label}" if hardest else ""
        lines.append(f"grade: {grade.label} ({len(sol.steps)} steps{why})")
        if labelled is not None and labelled != grade:
            ok = False
            lines.append(f"label: MISMATCH, the file says {labelled.label}")
    if claimed is not None:
        if claimed == v.answer:
            lines.append("solution file: answer matches")
        else:
            ok = False
            lines.append(f"solution file: MISMATCH, it says {' '.join(sorted(claimed))}")
    lines.append("result: " + ("ok" if ok else "FAILED"))
    data["ok"] = ok
    return Report(tuple(lines), ok, data)
