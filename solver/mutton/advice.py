"""The Farmer's advice: the best single shot and the berserk set with its cost (M13, M15, C3).

Best single shot: the living animal with the highest probability of being a wolf (uniform
prior over consistent sets). Tie rule: among equally likely animals, the one with the most
living neighbours on the board (when the board is known: if it is a wolf it threatens the most
animals, since it can eat any of them next turn, M8); then the first letter.

Berserk set: the living animals that are a wolf in at least one consistent set. Shooting all of
them at once kills every living wolf whatever the true set is, so it wins for sure (C3); its
cost is the number of sheep in it: |set| - (living wolves), exact in the worst case (fewest
living wolves any consistent set has) and in expectation (sum of the living animals'
probabilities is the expected number of living wolves).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fleece.solver.mutton.fast import count_facts
from fleece.solver.mutton.problem import Problem, living_neighbours
from fleece.solver.mutton.solution import Solution

TIE_RULE = ("highest probability; ties go to the animal with the most living neighbours on the "
            "board (when known), then to the first letter")


@dataclass(frozen=True)
class Advice:
    """What to shoot. `best_shot` is None when nothing is alive or the chart is inconsistent.
    `tied` lists the animals sharing the best probability; `berserk_set` the living possible
    wolves; `sheep_cost_expected` / `sheep_cost_worst` the sheep that volley would kill;
    `living_wolves` the (min, max) number of living wolves over the consistent sets."""

    best_shot: str | None
    best_probability: Fraction
    tied: tuple[str, ...]
    neighbours: dict[str, int]
    berserk_set: tuple[str, ...]
    sheep_cost_expected: Fraction
    sheep_cost_worst: int
    living_wolves: tuple[int, int]
    tie_rule: str = TIE_RULE

    @property
    def sure_kill(self) -> tuple[str, ...]:
        """Animals that are certainly living wolves: shooting them costs nothing."""
        return self.tied if self.best_probability == 1 else ()


def _living_wolf_range(problem: Problem, solution: Solution) -> tuple[int, int]:
    """(fewest, most) living wolves over the consistent sets: the fast engine's solution carries
    it (the same pass that counted the sets tracked the living animals); for the others one
    count without per-animal counts finds it."""
    if solution.living_wolves is not None:
        return solution.living_wolves
    counts = count_facts(problem.animals, problem.facts, marginals=False,
                         track=problem.alive())
    return counts.tracked if counts.tracked is not None else (0, 0)


def advise(problem: Problem, solution: Solution) -> Advice:
    """Best single shot and berserk set for a consistent solution."""
    alive = problem.alive()
    nbrs = {a: len(v) for a, v in living_neighbours(problem.chart).items()}
    if not solution.consistent or not alive:
        return Advice(None, Fraction(0), (), nbrs, (), Fraction(0), 0, (0, 0))
    probs = {a: solution.probability(a) for a in alive}
    top = max(probs.values())
    tied = sorted((a for a in alive if probs[a] == top), key=lambda a: (-nbrs.get(a, 0), a))
    berserk = solution.berserk_set
    expected_living = sum((probs[a] for a in alive), Fraction(0))
    lo, hi = _living_wolf_range(problem, solution)
    return Advice(
        best_shot=tied[0],
        best_probability=top,
        tied=tuple(tied),
        neighbours=nbrs,
        berserk_set=berserk,
        sheep_cost_expected=len(berserk) - expected_living,
        sheep_cost_worst=len(berserk) - lo,
        living_wolves=(lo, hi),
    )
