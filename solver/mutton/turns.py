"""What a full game record adds to a problem: the Wolf's turns with the kills that were legal
at each (D9) and the posterior under the declared Wolf model (solver.mutton.model).

These values live apart from solver.mutton.problem and solver.mutton.solution so that solving
a pasted chart does not pay for creating their classes at start-up; both modules (and the
package) still offer them under their old names."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class PossibleKill:
    """A kill that was legal for *some* wolf at a Wolf turn: its victim and its runners (the
    living neighbours, i.e. the possible killers), with the number of runner placements."""

    victim: str
    runners: frozenset[str]
    placements: int


@dataclass(frozen=True)
class WolfTurn:
    """A Wolf move of a record with the public position before it (for D9 and the Wolf model).

    `move` is `kill`, `escape` or `pass`; `animal` the victim or the escaped wolf;
    `options` every kill that was legal for some wolf set (runners placeable, M10);
    `alive` the living animals; `isolated` the living animals without a living neighbour
    (the ones that could escape, M12); `escape_allowed` the escape option.
    """

    round: int
    move: str
    animal: str | None
    options: tuple[PossibleKill, ...]
    alive: frozenset[str]
    isolated: frozenset[str]
    escape_allowed: bool


@dataclass(frozen=True)
class ModelPosterior:
    """The posterior under the declared Wolf model (solver.mutton.model), beside the uniform
    one. `weights` maps letter -> summed likelihood of the consistent sets containing it;
    `total` is the summed likelihood of all of them. `skipped` says why it was not computed."""

    total: Fraction = Fraction(0)
    weights: dict[str, Fraction] = field(default_factory=dict)
    sets: int = 0
    skipped: str | None = None

    def probability(self, letter: str) -> Fraction:
        """P(letter is a wolf | record, Wolf model)."""
        if self.skipped is not None or self.total == 0:
            raise ValueError(self.skipped or "the record is impossible under the Wolf model")
        return self.weights.get(letter, Fraction(0)) / self.total

    @property
    def available(self) -> bool:
        """True when the model posterior was computed and the record is possible under it."""
        return self.skipped is None and self.total > 0
