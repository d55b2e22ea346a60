"""The grade of an Ulvtafl puzzle, from data: how deep the win is, how many tempting moves
fail, and whether the solution needs a quiet move or a sacrifice.

One table scores a puzzle (`POINTS`) and one maps the score to a grade (`BANDS`):

| what the solution asks of the solver | points |
|---|---|
| each move of the solver's after the first | 1 |
| each plausible first move that does not win (at most 3) | 1 |
| a quiet key move (the greedy player would not look at it) | 2 |
| a sacrifice: a sheep move of the solution lets a wolf capture | 2 |

| points | grade |
|---|---|
| 0-2 | easy |
| 3-5 | medium |
| 6-8 | hard |
| 9 or more | expert |

Plausible, quiet and sacrifice are defined in `plausible`. Ulvtafl has four grades where the
deduction puzzles of Mutton and Woof!! have three, so it has its own scale (`UlvGrade`) on
the shared base (`solver.puzzles.core.Scale`, which `Grade` is built on too): its first three
grades carry the same names and numbers as `Grade`, and `Grade` is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.solver.puzzles.core import Scale


class UlvGrade(Scale):
    """Difficulty of an Ulvtafl puzzle: the band its points fall in (see the module)."""

    EASY = 1
    MEDIUM = 2
    HARD = 3
    EXPERT = 4


DECOYS_COUNTED = 3
QUIET_POINTS = 2
SACRIFICE_POINTS = 2
BANDS = ((UlvGrade.EXPERT, 9), (UlvGrade.HARD, 6), (UlvGrade.MEDIUM, 3), (UlvGrade.EASY, 0))


@dataclass(frozen=True)
class Features:
    """What a puzzle's grade is computed from.

    `plies`: the exact distance to the win; `decoys`: the plausible first moves that do not
    win; `quiet`: the key move is quiet; `sacrifice`: a sheep move of the solution gives a
    sheep; `unique_line`: every move of the solver's in the solution is its only winning
    move there."""

    plies: int
    legal: int
    decoys: tuple[str, ...]
    quiet: bool
    sacrifice: bool
    unique_line: bool

    @property
    def solver_moves(self) -> int:
        """The moves the side to move makes in the solution."""
        return (self.plies + 1) // 2

    @property
    def points(self) -> int:
        """The score of the grade table."""
        return (self.solver_moves - 1 + min(len(self.decoys), DECOYS_COUNTED)
                + QUIET_POINTS * self.quiet + SACRIFICE_POINTS * self.sacrifice)

    @property
    def grade(self) -> UlvGrade:
        """The grade the points fall in."""
        return next(g for g, least in BANDS if self.points >= least)

    def explain(self) -> str:
        """Where the points come from, in words."""
        more = self.solver_moves - 1
        parts = [f"{more} more move{'' if more == 1 else 's'} to find"]
        decoys = min(len(self.decoys), DECOYS_COUNTED)
        if decoys:
            parts.append(f"{decoys} tempting move{'' if decoys == 1 else 's'} that "
                         f"fail{'s' if decoys == 1 else ''}")
        if self.quiet:
            parts.append(f"a quiet key move (+{QUIET_POINTS})")
        if self.sacrifice:
            parts.append(f"a sacrifice (+{SACRIFICE_POINTS})")
        return ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict, with the points and the grade."""
        return {"plies": self.plies, "solver_moves": self.solver_moves, "legal": self.legal,
                "decoys": list(self.decoys), "quiet": self.quiet,
                "sacrifice": self.sacrifice, "unique_line": self.unique_line,
                "points": self.points, "grade": self.grade.label}
