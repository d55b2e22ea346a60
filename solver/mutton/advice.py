"""The Farmer's advice: what to do this turn - shoot (whom), wait, or go berserk (on whom) -
with the expected sheep lost of each, and the facts behind it (M13, M15, C3).

`Decision` is fleece's Farmer robot's decision (solver.mutton.bots.lookahead) on the chart:
every candidate move with its expected number of sheep lost from now to the end of the game,
best first, and the assumptions those numbers rest on (`assumptions`): the prior over the
consistent wolf sets, the Wolf model, how far the search looks, and what a chart cannot say
(whether berserk is still allowed; without a board, where the Wolf can kill next). Its `line`
is the advice a player reads: `shoot F now: expected sheep lost 3.2; waiting: 3.9; berserk on
{C, F, K}: 4.6`.

`Advice` also keeps the plain facts: the most likely wolf (ties to the animal with the most
living neighbours on the board, a wolf there could eat the most next turn, then the first
letter) and the berserk set that wins for certain (every living animal that is a wolf in some
consistent set; its cost in sheep, exact in the worst case and in expectation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fleece.solver.mutton.bots.belief import MAX_SETS, Belief, Universe, set_count
from fleece.solver.mutton.bots.board import Position
from fleece.solver.mutton.bots.lookahead import (
    WOLF_MODEL,
    Choice,
    Settings,
    Situation,
    bit_cost_for,
    decide,
)
from fleece.solver.mutton.fast import count_facts, iter_sets
from fleece.solver.mutton.problem import Problem, living_neighbours
from fleece.solver.mutton.solution import Solution

TIE_RULE = ("highest probability; ties go to the animal with the most living neighbours on the "
            "board (when known), then to the first letter")
LIST_BELOW = 5_000  # consistent sets listed one by one below this; the universe filtered above
MAX_DEPTH = 3  # the deepest search `advise` accepts (each level multiplies the work)


@dataclass(frozen=True)
class Option:
    """One candidate move: `move` is `shoot`, `wait` or `berserk`, `targets` the animals shot,
    `expected` the expected sheep lost from now to the end of the game, `p_hit` the chance
    that the shot hits a wolf (shoot) or that the volley gets every living wolf (berserk)."""

    move: str
    targets: tuple[str, ...]
    expected: float
    p_hit: float

    def text(self, first: bool = False) -> str:
        """`shoot F now: expected sheep lost 3.2` (first) or `waiting: 3.9` (the others)."""
        if self.move == "shoot":
            head = f"shoot {self.targets[0]} now"
        elif self.move == "berserk":
            head = f"berserk on {{{', '.join(self.targets)}}}"
        else:
            head = "wait" if first else "waiting"
        return f"{head}: {'expected sheep lost ' if first else ''}{self.expected:.1f}"

    def to_json(self) -> dict[str, Any]:
        """`{"move", "targets", "expected_sheep_lost", "p_hit"}`."""
        return {"move": self.move, "targets": list(self.targets),
                "expected_sheep_lost": round(self.expected, 4), "p_hit": round(self.p_hit, 6)}


@dataclass(frozen=True)
class Decision:
    """The Farmer robot's decision: every candidate move (`options`, best first), the sheep
    already lost (the score line, when the chart has one), the search depth and the
    assumptions of the numbers."""

    options: tuple[Option, ...]
    lost: int | None
    depth: int
    assumptions: tuple[str, ...]

    @property
    def best(self) -> Option:
        """The move with the least expected loss."""
        return self.options[0]

    @property
    def line(self) -> str:
        """The advice in one line: the best move, then the best of each other kind."""
        parts = [self.best.text(first=True)]
        seen = {self.best.move}
        for o in self.options[1:]:
            if o.move not in seen:
                seen.add(o.move)
                parts.append(o.text())
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """`{"line", "best", "options", "sheep_lost_so_far", "depth", "assumptions"}`."""
        return {"line": self.line, "best": self.best.to_json(),
                "options": [o.to_json() for o in self.options],
                "sheep_lost_so_far": self.lost, "depth": self.depth,
                "assumptions": list(self.assumptions)}


@dataclass(frozen=True)
class Advice:
    """What to do. `decision` is the robot's decision (None when it could not be computed, and
    `skipped` says why). The plain facts: `best_shot` (None when nothing is alive or the chart
    is inconsistent), `tied` the animals sharing the best probability, `berserk_set` the living
    possible wolves (a volley on them wins for certain), `sheep_cost_expected` /
    `sheep_cost_worst` the sheep that volley would kill, `living_wolves` the (min, max) number
    of living wolves over the consistent sets."""

    best_shot: str | None
    best_probability: Fraction
    tied: tuple[str, ...]
    neighbours: dict[str, int]
    berserk_set: tuple[str, ...]
    sheep_cost_expected: Fraction
    sheep_cost_worst: int
    living_wolves: tuple[int, int]
    tie_rule: str = TIE_RULE
    decision: Decision | None = None
    skipped: str | None = None

    @property
    def sure_kill(self) -> tuple[str, ...]:
        """Animals that are certainly living wolves: shooting them costs nothing."""
        return self.tied if self.best_probability == 1 else ()

    @property
    def free_volley(self) -> tuple[str, ...]:
        """The berserk set when a volley on it wins now and costs no sheep (and is more than a
        single shot), else nothing."""
        return self.berserk_set if self.sheep_cost_worst == 0 and len(self.berserk_set) > 1 \
            else ()


def _living_wolf_range(problem: Problem, solution: Solution) -> tuple[int, int]:
    """(fewest, most) living wolves over the consistent sets: the fast engine's solution carries
    it (the same pass that counted the sets tracked the living animals); for the others one
    count without per-animal counts finds it."""
    if solution.living_wolves is not None:
        return solution.living_wolves
    counts = count_facts(problem.animals, problem.facts, marginals=False,
                         track=problem.alive())
    return counts.tracked if counts.tracked is not None else (0, 0)


def chart_belief(problem: Problem, count: int) -> Belief | None:
    """The uniform belief over the consistent sets of a problem with `count` of them: listed
    by the fast engine when few, else the allowed sets filtered by the facts; None when there
    are too many for the robots (more than MAX_SETS allowed sets)."""
    animals, k = problem.animals, problem.num_wolves
    if count <= LIST_BELOW:
        index = {a: i for i, a in enumerate(animals)}
        sets = [sum(1 << index[a] for a in w) for w in iter_sets(animals, problem.facts)]
        small = Universe.of_sets(animals, k, sets)
        return Belief.uniform(small, small.full)
    words = problem.dictionary
    if set_count(len(animals), k, words) > MAX_SETS:
        return None
    return Belief.from_facts(animals, k, problem.facts, words)


def decision_for(problem: Problem, solution: Solution, *, berserk: bool = True, depth: int = 1,
                 must_shoot: bool | None = None, shotgun: bool = False, remove: bool = False
                 ) -> tuple[Decision | None, str | None]:
    """The Farmer robot's decision on a consistent problem, or None and the reason. A chart
    does not say the rules: by default berserk is allowed, the weapon is the rifle, corpses
    stay, and the Farmer must shoot only when the problem says the Wolf passed; a game
    (solver.mutton.bots.play) gives them all."""
    belief = chart_belief(problem, solution.count)
    if belief is None:
        return None, (f"the decision tracks every wolf set, and {problem.num_wolves} wolves "
                      f"among {len(problem.animals)} animals make more than {MAX_SETS}")
    animals = problem.animals
    alive = problem.alive()
    living = tuple(animals.index(a) for a in alive)
    pos = None if problem.board is None else Position.from_picture(problem.board, animals,
                                                                   remove or shotgun)
    must = problem.passed if must_shoot is None else must_shoot
    settings = Settings(depth=depth)
    prior = math.log2(max(set_count(len(animals), problem.num_wolves, problem.dictionary), 1))
    rounds = len(problem.chart.rows)
    settings = Settings(depth=depth, bit_cost=bit_cost_for(settings, prior, belief.entropy(),
                                                           rounds))
    volley = berserk and not shotgun and len(alive) >= 2
    sit = Situation(belief, living, pos, volley, must, shotgun)
    choices = decide(sit, settings)
    options = tuple(_option(c, animals) for c in choices)
    return Decision(options, problem.chart.score, depth,
                    _assumptions(problem, solution, volley, depth, must, shotgun)), None


def _option(c: Choice, animals: str) -> Option:
    move = "wait" if c.kind == "pass" else c.kind
    return Option(move, tuple(animals[a] for a in c.targets), c.expected, c.p_hit)


def _assumptions(problem: Problem, solution: Solution, berserk: bool, depth: int,
                 must_shoot: bool, shotgun: bool) -> tuple[str, ...]:
    """The assumptions of a decision's numbers, in words."""
    out = [f"the wolves are any of the {solution.count} consistent wolf sets, each as likely",
           f"the Wolf plays as {WOLF_MODEL}",
           f"the search looks {depth} Farmer move{'s' if depth != 1 else ''} ahead, with the "
           "Wolf's replies; the rest of the game is estimated (the cheaper of the best volley "
           "and a cost per wolf and per bit still unknown, at the pace this chart has taught)"]
    if berserk:
        out.append("berserk is allowed and not yet used (a chart does not say; pbmserv's "
                   "default)")
    else:
        out.append("berserk is not available")
    if problem.board is None:
        out.append("the paste has no board, so where the Wolf can kill next is unknown: the "
                   "next kill is taken to cost a sheep and to tell nothing")
    elif shotgun:
        out.append("the Farmer fires a shotgun: a shot's neighbours run where the Farmer "
                   "sends them (M17)")
    else:
        out.append("the Farmer fires a rifle (pbmserv's default: nobody runs from a shot)")
    if must_shoot:
        out.append("the Wolf just passed, so the Farmer must shoot (M14)")
    return tuple(out)


def advise(problem: Problem, solution: Solution, *, berserk: bool = True, depth: int = 1
           ) -> Advice:
    """The advice for a consistent solution: the robot's decision (searched `depth` Farmer
    moves deep, 1..MAX_DEPTH; deeper costs much more time) and the plain facts."""
    if not 1 <= depth <= MAX_DEPTH:
        from fleece.rules.errors import FleeceError

        raise FleeceError(f"depth: must be in 1..{MAX_DEPTH}, got {depth}")
    alive = problem.alive()
    nbrs = {a: len(v) for a, v in living_neighbours(problem.chart).items()}
    if not solution.consistent or not alive:
        return Advice(None, Fraction(0), (), nbrs, (), Fraction(0), 0, (0, 0))
    probs = {a: solution.probability(a) for a in alive}
    top = max(probs.values())
    tied = sorted((a for a in alive if probs[a] == top), key=lambda a: (-nbrs.get(a, 0), a))
    berserk_set = solution.berserk_set
    expected_living = sum((probs[a] for a in alive), Fraction(0))
    lo, hi = _living_wolf_range(problem, solution)
    decision, skipped = decision_for(problem, solution, berserk=berserk, depth=depth)
    return Advice(
        best_shot=tied[0],
        best_probability=top,
        tied=tuple(tied),
        neighbours=nbrs,
        berserk_set=berserk_set,
        sheep_cost_expected=len(berserk_set) - expected_living,
        sheep_cost_worst=len(berserk_set) - lo,
        living_wolves=(lo, hi),
        decision=decision,
        skipped=skipped,
    )
