"""How the solver answers a move in play: the move that keeps the proved value, or a simple
heuristic one when the value is unknown within the time given."""

from __future__ import annotations

from fleece.rules.ulvtafl.game import Move, UlvState
from fleece.rules.ulvtafl.geometry import rank_of
from fleece.rules.ulvtafl.notation import parse_move


def reply_move(state: UlvState, best_move: str | None) -> Move:
    """`best_move` (a solve's move text) when the solver found one; otherwise the wolves
    capture the most (the longest chain) and the sheep advance the rearmost sheep that can
    move forward the most. `state` must not be over."""
    if best_move is not None:
        return parse_move(best_move)
    moves = list(state.legal_moves())
    if state.to_move == 0:
        return max(moves, key=lambda m: len(m.path))
    return max(moves, key=lambda m: (rank_of(m.end) - rank_of(m.start), -rank_of(m.start)))
