"""How the solver answers a move in play: the move that keeps the proved value, or a simple
heuristic one when the value is unknown within the time given."""

from __future__ import annotations

from fleece.rules.ulvtafl.game import (
    WOLVES,
    Move,
    UlvState,
    threatened,
    wolf_captures,
    wolf_steps,
)
from fleece.rules.ulvtafl.geometry import rank_of
from fleece.rules.ulvtafl.notation import parse_move


def reply_move(state: UlvState, best_move: str | None) -> Move:
    """`best_move` (a solve's move text) when the solver found one; otherwise a heuristic
    move. The wolves capture the most (the longest chain); without a capture they step
    where they threaten the most captures, then where they can move the most. The sheep
    keep to safe moves (after which no wolf can capture), the plan that wins the two-wolf
    game, and among them advance the rearmost sheep that can move forward the most; they
    give up a sheep only when every move does. `state` must not be over."""
    if best_move is not None:
        return parse_move(best_move)
    moves = list(state.legal_moves())
    if state.to_move == WOLVES:
        return max(moves, key=lambda m: (len(m.path), _wolf_prospects(state.play(m))))
    return max(moves, key=lambda m: (_safe(state.play(m)),
                                     rank_of(m.end) - rank_of(m.start), -rank_of(m.start)))


def _safe(after: UlvState) -> bool:
    """After a sheep move: the game is over or no wolf can capture."""
    return after.is_terminal() or not threatened(after.rules, after.sheep, after.wolves)


def _wolf_prospects(after: UlvState) -> tuple[int, int]:
    """After a wolf move: the captures the wolves would have if they moved again (threats
    the sheep must answer), and their steps (room, the opposite of being shut in)."""
    rules, sheep, wolves = after.rules, after.sheep, after.wolves
    return (sum(1 for _ in wolf_captures(rules, sheep, wolves)),
            sum(1 for _ in wolf_steps(rules, sheep, wolves)))
