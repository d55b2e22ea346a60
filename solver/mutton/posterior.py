"""The posterior of a game record under the declared Wolf model (solver.mutton.wolf_prior), as a
value of a `Solution`.

It lives apart from solver.mutton.solution so that solving a pasted chart (which has no Wolf
model) does not pay for creating its class at start-up; solution.py and the package still
offer it under its old names."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class ModelPosterior:
    """The posterior under the declared Wolf model (solver.mutton.wolf_prior), beside the uniform
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
