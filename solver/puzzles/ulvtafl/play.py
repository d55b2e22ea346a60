"""Playing a puzzle: the defence's best reply, a hint that shows the threat, and one step
of a puzzle played on a board (what a web page or a terminal game needs).

The user plays the side to move of the puzzle; after each of the user's moves the other side
answers with its best defence (the longest resistance, as in the solution). A move that
throws the win away is answered too, and the step says so; the user can then take it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fleece.rules.errors import FleeceError, IllegalMoveError, ParseError
from fleece.rules.ulvtafl.game import SHEEP, SIDE_NAMES, WOLVES, Move, UlvState, threatened
from fleece.rules.ulvtafl.geometry import NAMES
from fleece.rules.ulvtafl.notation import parse_move, position_text
from fleece.solver.puzzles.ulvtafl.analysis import Values, bare, children, value, winning_moves
from fleece.solver.puzzles.ulvtafl.plausible import read_moves
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle

PLAY_LIMIT = 2_000_000  # positions the compiled table may take for a played position


def values_for(state: UlvState, limit: int = PLAY_LIMIT) -> Values:
    """The compiled retrograde table of the positions reachable from `state` (FleeceError
    when there are more than `limit`)."""
    from fleece.solver.puzzles.ulvtafl.generate import solve_table

    table = solve_table(state, limit)
    if table is None:
        raise FleeceError(f"more than {limit:,} positions are reachable: too large to play "
                          "with exact answers")
    return table


def best_move(values: Values, state: UlvState) -> Move | None:
    """The move that keeps the mover's value best: the fastest win; in a lost position the
    longest resistance (ties: the reply that leaves the winner the fewest winning moves,
    then notation order); in a drawn position a move to a draw. None when the game is over."""
    if state.is_terminal():
        return None
    s = bare(state)
    winner, plies = value(values, s)
    options = children(values, s)
    me = SIDE_NAMES[s.to_move]
    if winner == "draw":
        keep = [m for m, v, _ in options if v == "draw"]
        return min(keep, key=lambda m: m.text())
    best = [m for m, v, d in options if v == winner and d == plies - 1]
    if winner == me:
        return min(best, key=lambda m: m.text())

    def left_to_winner(m: Move) -> int:
        after = bare(s.play(m))
        return 0 if after.is_terminal() else len(winning_moves(values, after))

    return min(best, key=lambda m: (left_to_winner(m), m.text()))


@dataclass(frozen=True)
class Hint:
    """Help for the side to move of a won position, from the least to the most telling:
    `threat` (what the winning move threatens, in words, and the moves that would carry
    the threat out if the mover could move again), `piece` (the point the winning piece
    stands on) and `move` (the fastest winning move). `plies`: to the win."""

    move: str
    piece: str
    threat: str
    threat_moves: tuple[str, ...]
    plies: int

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"move": self.move, "piece": self.piece, "threat": self.threat,
                "threat_moves": list(self.threat_moves), "plies": self.plies}


def hint(values: Values, state: UlvState) -> Hint | None:
    """The hint for the side to move (None when it does not win)."""
    s = bare(state)
    if s.is_terminal():
        return None
    winner, plies = value(values, s)
    me = s.to_move
    if winner != SIDE_NAMES[me]:
        return None
    move = best_move(values, s)
    assert move is not None
    piece = NAMES[move.start]
    after = s.play(move)
    if after.is_terminal():
        return Hint(move.text(), piece, "a move that wins at once", (), plies)
    other = SIDE_NAMES[1 - me]
    if me == SHEEP and threatened(s.rules, after.sheep, after.wolves):
        words = (f"a sacrifice: it lets a wolf capture, and still every move of the "
                 f"{other} loses within {plies - 1} plies")
        return Hint(move.text(), piece, words, (), plies)
    again = UlvState.create(s.rules, after.sheep, after.wolves, me)
    kinds = [] if again.is_terminal() else read_moves(again)
    wins = tuple(k.move.text() for k in kinds if k.wins)
    if wins:
        words = f"it threatens to win at once with {', '.join(wins)}"
        return Hint(move.text(), piece, words, wins, plies)
    if me == WOLVES:
        takes = tuple(k.move.text() for k in kinds if k.captures)
        if takes:
            return Hint(move.text(), piece, f"it threatens to capture: {', '.join(takes)}",
                        takes, plies)
    words = (f"no direct threat: a quiet move; the {other} must move, and every move of "
             f"theirs loses within {plies - 1} plies")
    return Hint(move.text(), piece, words, (), plies)


@dataclass(frozen=True)
class Step:
    """One turn of a puzzle played on a board: the user's move and the defence's reply.

    `ok` false means the move was not played (`error` says why: not a move, or illegal);
    `still_wins` whether the user's side still wins after the move, `fastest` whether it
    kept the shortest win; `reply` the defence's answer (None when the game ended);
    `position` the position now; `result` the winner once the game is over."""

    ok: bool
    position: str
    error: str | None = None
    move: str | None = None
    still_wins: bool | None = None
    fastest: bool | None = None
    reply: str | None = None
    plies_left: int | None = None
    result: str | None = None
    message: str = ""
    moves: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"ok": self.ok, "position": self.position, "error": self.error,
                "move": self.move, "still_wins": self.still_wins, "fastest": self.fastest,
                "reply": self.reply, "plies_left": self.plies_left, "result": self.result,
                "message": self.message, "moves": list(self.moves)}


def replay(puzzle: UlvPuzzle, moves: list[str]) -> UlvState:
    """The position after `moves` from the puzzle's position (FleeceError naming the first
    move that is not legal)."""
    state = puzzle.state()
    for i, text in enumerate(moves, start=1):
        try:
            state = state.play(parse_move(text))
        except (ParseError, IllegalMoveError) as exc:
            raise FleeceError(f"move {i} ({text[:20]!r}): {exc}") from None
    return state


def step(puzzle: UlvPuzzle, moves: list[str], move: str,
         values: Values | None = None) -> Step:
    """Play the user's `move` after the moves played so far (`moves`, both sides'), then the
    defence's best reply. `values`: the table of the puzzle's position (made when None)."""
    state = replay(puzzle, moves)
    me = SIDE_NAMES[puzzle.state().to_move]
    if state.is_terminal():
        return Step(False, position_text(state), "the game is over", result=state.result,
                    moves=tuple(moves))
    if SIDE_NAMES[state.to_move] != me:
        return Step(False, position_text(state), f"it is the {SIDE_NAMES[state.to_move]}'s "
                    "turn, not yours", moves=tuple(moves))
    try:
        mine = parse_move(move)
        after = state.play(mine)
    except (ParseError, IllegalMoveError) as exc:
        return Step(False, position_text(state), str(exc), moves=tuple(moves))
    values = values or values_for(puzzle.state())
    before = value(values, bare(state))
    played = (*moves, mine.text())
    if after.is_terminal():
        won = after.result == me
        return Step(True, position_text(after), None, mine.text(), won, won, None, 0,
                    after.result, f"the {after.result} win: {after.reason}", played)
    now = value(values, bare(after))
    still = now[0] == me
    fastest = still and before[0] == me and now[1] == before[1] - 1
    reply = best_move(values, after)
    assert reply is not None
    final = after.play(reply)
    played = (*played, reply.text())
    left = 0 if final.is_terminal() else value(values, bare(final))[1]
    if final.is_terminal():
        message = f"the {final.result} win: {final.reason}"
    elif still:
        message = f"good: the {me} still win, {left} plies to go" + \
            ("" if fastest else " (not the fastest way)")
    else:
        message = ("that throws the win away: " +
                   ("a draw now" if now[0] == "draw" else f"the {now[0]} win now") +
                   "; take the move back and try again")
    return Step(True, position_text(final), None, mine.text(), still, fastest,
                reply.text(), None if now[0] == "draw" else left, final.result, message,
                played)
