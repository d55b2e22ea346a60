"""A whole answer about one Mutton problem as a value: the exact solution, the advice and the
reasons, with the JSON form `fleece mutton solve --json` prints (and the web API returns).

`analyse(problem, engine)` is what a program calls to get everything the command shows;
`solve` (solver.mutton) gives the counts alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fleece.rules.mutton.chart import Status
from fleece.solver.mutton.advice import Advice, advise
from fleece.solver.mutton.engines import solve
from fleece.solver.mutton.explain import Reason, reasons
from fleece.solver.mutton.facts import eaten_in
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution

MAX_FRACTION_DIGITS = 12  # longer fractions are shown as floats only


# ---- plain helpers -----------------------------------------------------------------------------


def fraction_text(p: Fraction) -> str:
    """`57/73`, `0`, `1`; empty when the fraction is too long to read."""
    if p.denominator == 1:
        return str(p.numerator)
    s = f"{p.numerator}/{p.denominator}"
    return s if len(s) <= MAX_FRACTION_DIGITS else ""


def status_text(problem: Problem, letter: str) -> str:
    """Short status for the table: `alive`, `sheep, shot`, `wolf, eaten r3`, `dead?, shot`
    (identity not revealed), `escaped wolf`."""
    st = problem.status(letter)
    eaten = eaten_in(problem.chart)
    how = f"eaten r{eaten[letter]}" if letter in eaten else "shot"
    if st is Status.ALIVE:
        return "alive"
    if st is Status.ESCAPED:
        return "escaped wolf"
    if st is Status.DEAD:
        return f"dead?, {how}"
    return f"{'sheep' if st is Status.DEAD_SHEEP else 'wolf'}, {how}"


def rounds_run(problem: Problem) -> dict[str, list[int]]:
    """Letter -> rounds in which it ran."""
    out: dict[str, list[int]] = {a: [] for a in problem.animals}
    for row in problem.chart.rows:
        for a in row.runners:
            out[a].append(row.round)
    return out


def _prob_float(p: Fraction) -> float:
    return round(float(p), 6)




@dataclass(frozen=True)
class Analysis:
    """The solution of a problem with its advice (None when inconsistent) and the reasons for
    every certain fact."""

    problem: Problem
    solution: Solution
    advice: Advice | None
    reasons: tuple[Reason, ...]

    @property
    def consistent(self) -> bool:
        """True when at least one wolf set fits the chart."""
        return self.solution.consistent

    def to_json(self) -> dict[str, Any]:
        """The `--json` object (see to_json)."""
        return to_json(self.problem, self.solution, self.advice, list(self.reasons))


def analyse(problem: Problem, engine: str = "fast", *, depth: int = 1) -> Analysis:
    """Solve with one engine and add the advice (the Farmer robot's decision searched `depth`
    Farmer moves deep, solver.mutton.advice) and the reasons."""
    solution = solve(problem, engine)
    adv = advise(problem, solution, depth=depth) if solution.consistent else None
    return Analysis(problem, solution, adv, tuple(reasons(problem, solution)))


# ---- JSON --------------------------------------------------------------------------------------


def to_json(problem: Problem, solution: Solution, advice: Advice | None,
            why: list[Reason]) -> dict[str, Any]:
    """The `--json` object (keys documented in README: count, probabilities, certain_wolves,
    cleared, berserk_set, engine, and more)."""
    out: dict[str, Any] = {
        "engine": solution.engine,
        "consistent": solution.consistent,
        "count": solution.count,
        "num_wolves": problem.num_wolves,
        "reveal": problem.reveal,
        "source": problem.source,
        "probabilities": {},
        "fractions": {},
        "wolf_counts": solution.wolf_counts if solution.consistent else {},
        "certain_wolves": list(solution.certain_wolves),
        "cleared": list(solution.cleared),
        "possible_wolves": list(solution.possible_wolves),
        "berserk_set": list(solution.berserk_set),
        "facts": [{"key": f.key, "clause": f.clause, "text": f.text} for f in problem.facts],
        "notes": list(problem.notes),
    }
    if solution.consistent:
        probs = solution.probabilities()
        out["probabilities"] = {a: _prob_float(p) for a, p in probs.items()}
        out["fractions"] = {a: f"{p.numerator}/{p.denominator}" for a, p in probs.items()}
        out["reasons"] = {r.letter: {"wolf": r.wolf, "rule": r.rule, "text": r.text}
                          for r in why}
    else:
        out["core"] = [{"key": f.key, "clause": f.clause, "text": f.text}
                       for f in solution.core]
    if solution.proved is not None:
        out["proved"] = sorted(solution.proved)
    if advice is not None and advice.best_shot is not None:
        out["advice"] = {
            "best_shot": advice.best_shot,
            "best_probability": _prob_float(advice.best_probability),
            "tied": list(advice.tied),
            "tie_rule": advice.tie_rule,
            "berserk_set": list(advice.berserk_set),
            "sheep_cost_expected": _prob_float(advice.sheep_cost_expected),
            "sheep_cost_worst": advice.sheep_cost_worst,
            "living_wolves": list(advice.living_wolves),
            "decision": None if advice.decision is None else advice.decision.to_json(),
        }
        if advice.skipped is not None:
            out["advice"]["decision_skipped"] = advice.skipped
    m = solution.model
    if m is not None:
        model: dict[str, Any] = {"available": m.available, "sets": m.sets}
        if m.skipped:
            model["skipped"] = m.skipped
        elif m.available:
            model["probabilities"] = {a: _prob_float(m.probability(a))
                                      for a in problem.animals}
            model["likelihood"] = str(m.total)
        else:
            model["skipped"] = "the record is impossible under the Wolf model"
        out["model"] = model
    return out
