"""Tiny hand-built Mutton positions on the size-3 board, for the play-rule and cross-check
tests: a cell by name and a game right after the placement and the Wolf's choice."""

from __future__ import annotations

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.geometry import Cell, board
from fleece.rules.mutton.moves import ChooseWolves, PlaceCells
from fleece.rules.mutton.options import MuttonOptions

B3 = board(3)


def c(name: str) -> Cell:
    """A cell of the size-3 board."""
    return B3.cell(name)


def start(cells: str, wolves: str, model: type[GameState] = GameState,
          **options: object) -> GameState:
    """A size-3 game (of `model`, a GameState or a subclass) after the placement `cells`
    (space-separated, animals A, B, ... in order) and the Wolf's choice `wolves`: the Wolf's
    first move is next."""
    names = cells.split()
    rules = MuttonOptions(size=3, num_sheep=len(names), num_wolves=len(wolves), **options)  # type: ignore[arg-type]
    s = model.new(rules).play(PlaceCells(tuple(c(n) for n in names)))
    return s.play(ChooseWolves(wolves))
