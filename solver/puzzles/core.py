"""What every puzzle generator shares: the grade scale and the clue-removal loop.

Following Simon Tatham's method, a generator is the game's solver limited to a difficulty
level plus a uniqueness check: start from a full set of clues, remove clues while the answer
stays unique and the rule-limited solver still finishes, and keep the result when it is
minimal and needs exactly the grade asked for. The grades are one table (`Grade`); each game
names its rules and the grade each one belongs to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import Self, TypeVar

from fleece.rules.errors import FleeceError

P = TypeVar("P")
C = TypeVar("C")


class Scale(IntEnum):
    """A difficulty scale: grades numbered from the easiest, each named by a word. `Grade`
    is the scale of the deduction puzzles; a game may define a longer one on this base
    (Ulvtafl's `UlvGrade` adds `expert`)."""

    @property
    def label(self) -> str:
        """Lower-case name used in files and on the command line."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read a grade's name in any letter case (FleeceError listing the names otherwise)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = [g.label for g in cls]
            listed = f"{', '.join(names[:-1])} or {names[-1]}"
            raise FleeceError(f"unknown grade {text!r} ({listed})") from None


class Grade(Scale):
    """Difficulty: the level of the hardest named rule a solution needs."""

    EASY = 1
    MEDIUM = 2
    HARD = 3


def minimise(puzzle: P, order: Iterable[C], remove: Callable[[P, C], P | None],
             accept: Callable[[P], bool]) -> P:
    """Try removing each clue of `order` in turn; keep a removal when `accept` says the
    smaller puzzle is still good (same unique answer, still solvable at the grade).
    `remove(puzzle, clue)` returns None when the clue cannot be removed (now)."""
    for clue in order:
        trial = remove(puzzle, clue)
        if trial is not None and accept(trial):
            puzzle = trial
    return puzzle
