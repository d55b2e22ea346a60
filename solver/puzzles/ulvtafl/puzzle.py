"""An Ulvtafl puzzle as a value: a position, the claim "the side to move wins in N plies"
and its solution, with the grade and the marks the puzzle file carries."""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.ulvtafl.game import SIDE_NAMES, UlvState
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.puzzles.ulvtafl.grading import UlvGrade


@dataclass(frozen=True)
class UlvPuzzle:
    """"`side` to move and win in `plies` plies" from `position` (U8 text without history).

    `solution` is a main line of `plies` moves (U8 notation): the winner's fastest win and
    the loser's longest resistance. `unique_line` marks a puzzle whose winner has exactly
    one winning move at each of its turns of the solution; `grade` comes from the grade
    table (`grading`); `origin` tells where the position comes from (free text)."""

    position: str
    plies: int
    solution: tuple[str, ...]
    grade: UlvGrade | None = None
    unique_line: bool | None = None
    origin: str = ""
    ident: str = ""

    def state(self) -> UlvState:
        """The position as a state (ParseError if the text is not a position)."""
        return parse_position(self.position)

    @property
    def side(self) -> str:
        """The side to move, which the claim says wins: "wolves" or "sheep"."""
        return SIDE_NAMES[self.state().to_move]

    def claim(self) -> str:
        """The claim in words: `sheep to move and win in 7 plies`."""
        unit = "ply" if self.plies == 1 else "plies"
        return f"{self.side} to move and win in {self.plies} {unit}"
