"""The answer of an engine: exact counts, derived probabilities and certain facts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fleece.rules.mutton.chart import Status
from fleece.solver.core import minimal_core as find_core
from fleece.solver.mutton.facts import Fact, Kind
from fleece.solver.mutton.problem import Problem

if TYPE_CHECKING:
    from fleece.solver.mutton.posterior import ModelPosterior


def __getattr__(name: str) -> Any:
    """ModelPosterior under its old name here (solver.mutton.posterior, which a pasted
    chart's solve does not load)."""
    if name == "ModelPosterior":
        from fleece.solver.mutton.posterior import ModelPosterior

        return ModelPosterior
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Solution:
    """Exact answer for a problem: `count` consistent wolf sets (uniform prior), and per animal
    `wolf_counts[letter]` = number of consistent sets containing it. When `count` is 0 the
    chart is inconsistent and `core` lists a minimal set of facts that contradict each other.
    `proved` (smt engine) lists the animals whose certain status z3 proved by unsat.
    `living_wolves` is the (fewest, most) living wolves over the consistent sets when the
    engine found it on the way (the fast engine does; the advice computes it otherwise)."""

    problem: Problem = field(repr=False, compare=False)
    engine: str
    count: int
    wolf_counts: dict[str, int]
    core: tuple[Fact, ...] = ()
    proved: frozenset[str] | None = None
    model: ModelPosterior | None = None
    living_wolves: tuple[int, int] | None = field(default=None, compare=False)

    @property
    def animals(self) -> str:
        """All animal letters."""
        return self.problem.animals

    @property
    def consistent(self) -> bool:
        """True when at least one wolf set fits the facts."""
        return self.count > 0

    def probability(self, letter: str) -> Fraction:
        """P(letter is a wolf) under the uniform prior over consistent sets (exact)."""
        if self.count == 0:
            raise ValueError("the chart is inconsistent: no wolf set fits it")
        return Fraction(self.wolf_counts[letter], self.count)

    def probabilities(self) -> dict[str, Fraction]:
        """Every animal's exact probability of being a wolf."""
        return {a: self.probability(a) for a in self.animals}

    @property
    def certain_wolves(self) -> tuple[str, ...]:
        """Animals that are wolves in every consistent set (known ones included), sorted."""
        if not self.count:
            return ()
        return tuple(a for a in self.animals if self.wolf_counts[a] == self.count)

    @property
    def cleared(self) -> tuple[str, ...]:
        """Animals that are a wolf in no consistent set (known sheep included), sorted."""
        if not self.count:
            return ()
        return tuple(a for a in self.animals if self.wolf_counts[a] == 0)

    @property
    def possible_wolves(self) -> tuple[str, ...]:
        """The union of all consistent sets: the smallest set containing every one of them."""
        return tuple(a for a in self.animals if self.wolf_counts[a] > 0)

    @property
    def berserk_set(self) -> tuple[str, ...]:
        """The living animals of `possible_wolves`: shooting all of them at once kills every
        living wolf for sure (C3); dead and escaped wolves are already off the board."""
        return tuple(a for a in self.possible_wolves
                     if self.problem.status(a) is Status.ALIVE)

    @property
    def new_certain_wolves(self) -> tuple[str, ...]:
        """Certain wolves that the top row does not already show (not dead/escaped wolves)."""
        known = (Status.DEAD_WOLF, Status.ESCAPED)
        return tuple(a for a in self.certain_wolves if self.problem.status(a) not in known)

    @property
    def new_cleared(self) -> tuple[str, ...]:
        """Cleared animals that the top row does not already show as dead sheep."""
        return tuple(a for a in self.cleared if self.problem.status(a) is not Status.DEAD_SHEEP)


def minimal_core(facts: Sequence[Fact], is_consistent: Callable[[list[Fact]], bool],
                 start: Sequence[Fact] | None = None) -> tuple[Fact, ...]:
    """A minimal set of facts that contradict each other (every fact of the answer is needed;
    solver.core.minimal_core). `start` is an inconsistent subset to shrink (e.g. a solver's
    core). The facts a player finds least telling are dropped first when there is a choice."""
    core = list(start if start is not None else facts)
    order = {id(f): i for i, f in enumerate(facts)}
    # Try to drop the facts a player finds least telling first.
    priority = {Kind.WORDS: 0, Kind.COUNT: 2, Kind.SHEEP: 3, Kind.WOLF: 3, Kind.AT_LEAST_ONE: 4}

    def rank(f: Fact) -> tuple[int, int]:
        p = priority[f.kind]
        if f.key == "wolves":
            p = 5
        elif f.key.startswith("pass"):
            p = 1
        return (p, order.get(id(f), 0))

    found = find_core(sorted(core, key=rank), is_consistent)
    return tuple(sorted(found, key=lambda f: order.get(id(f), 0)))
