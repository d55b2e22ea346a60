"""A puzzle's facts from exact values: who wins and in how many plies, which first moves
win, the main line (the winner hurries, the loser delays) and the grading features.

Values come from any table with `lookup(sheep, wolves, side) -> (winner or "draw", plies)`:
the compiled retrograde of `fleece.solver.ulvtafl` when generating, the pure-Python
`reference` solver when checking.
"""

from __future__ import annotations

from typing import Protocol

from fleece.rules.ulvtafl.game import SIDE_NAMES, Move, UlvState, apply_move
from fleece.solver.puzzles.ulvtafl.grading import Features
from fleece.solver.puzzles.ulvtafl.plausible import read_moves


class Values(Protocol):
    """Exact values of the positions reachable from a puzzle."""

    def lookup(self, sheep: int, wolves: int, side: int) -> tuple[str, int] | None:
        """(winner or "draw", plies to the end; -1 for a draw), None when unknown."""


def bare(state: UlvState) -> UlvState:
    """The position without its repetition history (values depend on board and side)."""
    if not state.history:
        return state
    return UlvState.create(state.rules, state.sheep, state.wolves, state.to_move)


def value(values: Values, state: UlvState) -> tuple[str, int]:
    """The value of a reachable position; KeyError when the table does not have it."""
    got = values.lookup(state.sheep, state.wolves, state.to_move)
    if got is None:
        raise KeyError("the position is not in the table")
    return got


def children(values: Values, state: UlvState) -> list[tuple[Move, str, int]]:
    """Each legal move with the value of the position it leads to."""
    out = []
    for m in state.legal_moves():
        sheep, wolves = apply_move(state.sheep, state.wolves, m)
        got = values.lookup(sheep, wolves, 1 - state.to_move)
        if got is None:
            raise KeyError("a successor is not in the table")
        out.append((m, *got))
    return out


def winning_moves(values: Values, state: UlvState) -> list[tuple[Move, int]]:
    """The mover's moves that keep a forced win, with the plies left after each."""
    me = SIDE_NAMES[state.to_move]
    return [(m, d) for m, v, d in children(values, state) if v == me]


def main_line(values: Values, state: UlvState) -> list[Move]:
    """The solution from a won position: the winner's fastest win at each turn and the
    loser's longest resistance; ties go to the reply that leaves the winner the fewest
    winning moves, then to the first move in notation order. Empty when the mover does
    not win."""
    winner, plies = value(values, state)
    if winner != SIDE_NAMES[state.to_move]:
        return []
    line: list[Move] = []
    s = bare(state)
    left = plies
    while left > 0:
        options = [(m, d) for m, v, d in children(values, s)
                   if v == winner and d == left - 1]
        if SIDE_NAMES[s.to_move] == winner:
            move = min(options, key=lambda o: o[0].text())[0]
        else:
            move = min(options, key=lambda o: (_wins_after(values, s, o[0]), o[0].text()))[0]
        line.append(move)
        s = bare(s.play(move))
        left -= 1
    return line


def _wins_after(values: Values, state: UlvState, move: Move) -> int:
    after = bare(state.play(move))
    return 0 if after.is_terminal() else len(winning_moves(values, after))


def features(values: Values, state: UlvState, line: list[Move]) -> Features:
    """The grading features of a won position and its solution line."""
    me = state.to_move
    wins = {m for m, _ in winning_moves(values, state)}
    kinds = read_moves(state)
    key = next(k for k in kinds if k.move == line[0])
    decoys = tuple(k.move.text() for k in kinds if k.plausible and k.move not in wins)
    sacrifice = False
    unique = True
    s = bare(state)
    for i, move in enumerate(line):
        if s.to_move == me:
            unique = unique and len(winning_moves(values, s)) == 1
            kind = key if i == 0 else next(k for k in read_moves(s) if k.move == move)
            sacrifice = sacrifice or kind.gives
        s = bare(s.play(move))
    quiet = not key.plausible and not key.gives
    return Features(len(line), len(kinds), decoys, quiet, sacrifice, unique)
