"""Checking an Ulvtafl puzzle with a second, independent method.

The generator's values come from the compiled retrograde analysis of `fleece.solver.ulvtafl`;
the check solves the puzzle again in pure Python over the reference model
(`reference.reference_values`: its own enumeration and retrograde analysis, the moves and
end checks of `fleece.rules.ulvtafl.game`) and tests every claim of the puzzle against
those exact values:

- the side to move wins (U7's reading: it can force a won end);
- it wins in exactly the claimed number of plies (the least the winner can force);
- exactly one first move wins: every other first move leads to a draw or a loss;
- the solution is legal, the winner's moves win fastest, the loser's moves resist longest,
  and the game ends with the winner's win after the claimed number of plies;
- the labels agree with the data: the grade (from the grade table) and the unique-line mark.

A puzzle is sound when all of these hold; otherwise the verdict gives each reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fleece.rules.errors import IllegalMoveError, ParseError
from fleece.rules.ulvtafl.game import SIDE_NAMES, UlvState
from fleece.rules.ulvtafl.notation import parse_move
from fleece.solver.puzzles.ulvtafl.analysis import bare, features, main_line
from fleece.solver.puzzles.ulvtafl.grading import Features
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle
from fleece.solver.puzzles.ulvtafl.reference import ReferenceValues, reference_values

CHECK_LIMIT = 400_000  # positions the pure-Python method solves at most (about 10 s)


@dataclass(frozen=True)
class UlvVerdict:
    """The outcome of a check: what the independent method found and whether the puzzle's
    claims hold (`sound`), with every reason when they do not.

    `winner` and `plies` are the position's exact value ("draw" with plies None when
    neither side can force a win); `solution` is the puzzle's line when it is right,
    otherwise a right one (empty when the side to move does not win); `grade` and
    `unique_line` are computed from the data; `features` is what the grade comes from."""

    ident: str
    position: str
    claim: str
    winner: str | None
    plies: int | None
    solution: tuple[str, ...]
    grade: str | None
    unique_line: bool | None
    sound: bool
    reasons: tuple[str, ...]
    winning_first_moves: tuple[str, ...] = ()
    features: Features | None = None
    positions: int = 0
    seconds: float = 0.0
    method: str = "pure-Python retrograde analysis over the reference model"
    claimed: dict[str, object] = field(default_factory=dict)

    @property
    def reason(self) -> str | None:
        """Every reason in one sentence; None for a sound puzzle."""
        return "; ".join(self.reasons) if self.reasons else None

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: position, winner, plies, solution, grade, sound, reason, and
        the details."""
        return {"id": self.ident, "position": self.position, "winner": self.winner,
                "plies": self.plies, "solution": list(self.solution), "grade": self.grade,
                "sound": self.sound, "reason": self.reason, "reasons": list(self.reasons),
                "claim": self.claim, "claimed": dict(self.claimed),
                "unique_line": self.unique_line,
                "winning_first_moves": list(self.winning_first_moves),
                "features": self.features.to_json() if self.features else None,
                "positions": self.positions, "seconds": round(self.seconds, 3),
                "method": self.method}

    def lines(self) -> list[str]:
        """The verdict as printable lines."""
        out = [f"{self.ident or 'puzzle'}: {self.position}", f"claim: {self.claim}"]
        if self.winner is None:
            out.append("value: not computed")
        elif self.winner == "draw":
            out.append("value: draw (neither side can force a win)")
        else:
            out.append(f"value: the {self.winner} win in {self.plies} plies "
                       f"({self.positions:,} positions, {self.method})")
        if self.winning_first_moves:
            out.append("winning first moves: " + " ".join(self.winning_first_moves))
        if self.solution:
            out.append("solution: " + " ".join(self.solution))
        if self.features is not None:
            f = self.features
            points = f"{f.points} point{'' if f.points == 1 else 's'}"
            out.append(f"grade: {self.grade} ({points}: {f.explain()})")
            out.append("unique line: " + ("yes" if self.unique_line else "no"))
        out += [f"FAILED: {r}" for r in self.reasons]
        out.append("result: " + ("sound" if self.sound else "NOT SOUND"))
        return out


def check(puzzle: UlvPuzzle, *, limit: int = CHECK_LIMIT) -> UlvVerdict:
    """Check every claim of `puzzle` with the pure-Python method (see the module)."""
    started = time.perf_counter()
    state = puzzle.state()
    claimed: dict[str, object] = {
        "winner": puzzle.side, "plies": puzzle.plies, "solution": list(puzzle.solution),
        "grade": puzzle.grade.label if puzzle.grade else None,
        "unique_line": puzzle.unique_line}
    base: dict[str, Any] = {"ident": puzzle.ident, "position": puzzle.position,
                            "claim": puzzle.claim(), "claimed": claimed}
    if state.is_terminal():
        return UlvVerdict(**base, winner=state.result, plies=0, solution=(), grade=None,
                          unique_line=None, sound=False,
                          reasons=(f"the game is already over ({state.reason})",),
                          seconds=time.perf_counter() - started)
    ref = reference_values(state, limit)
    if ref is None:
        return UlvVerdict(**base, winner=None, plies=None, solution=(), grade=None,
                          unique_line=None, sound=False,
                          reasons=(f"too large to check: more than {limit:,} positions are "
                                   "reachable",), seconds=time.perf_counter() - started)
    reasons: list[str] = []
    found = ref.lookup(state.sheep, state.wolves, state.to_move)
    assert found is not None
    winner, plies = found
    side = SIDE_NAMES[state.to_move]
    wins = _winning_first_moves(ref, state)
    if winner != side:
        reasons.append(f"not a win: {_value_words(winner, plies)} with best play")
    else:
        if plies != puzzle.plies:
            reasons.append(f"N is not exact: the {side} win in {plies} plies, not "
                           f"{puzzle.plies}")
        if len(wins) > 1:
            reasons.append(f"{len(wins)} first moves win: {' '.join(wins)}")
        if state.count_legal_moves() < 2:
            reasons.append("the side to move has only one legal move")
    solution = tuple(puzzle.solution)
    line_ok = False
    if winner == side:
        problem = _line_problem(ref, state, solution, plies)
        if problem is not None:
            reasons.append(f"solution line wrong: {problem}")
            solution = tuple(m.text() for m in main_line(ref, state))
        else:
            line_ok = True
    else:
        solution = ()
    feats = grade = unique = None
    if winner == side and (line_ok or solution):
        moves = [parse_move(t) for t in solution]
        feats = features(ref, state, moves)
        grade, unique = feats.grade.label, feats.unique_line
        if puzzle.grade is not None and puzzle.grade.label != grade:
            points = f"{feats.points} point{'' if feats.points == 1 else 's'}"
            reasons.append(f"grade: the puzzle says {puzzle.grade.label}, the grade table "
                           f"gives {grade} ({points})")
        if puzzle.unique_line is not None and puzzle.unique_line != unique:
            reasons.append("unique line: the puzzle says "
                           f"{'yes' if puzzle.unique_line else 'no'}, the solution has "
                           f"{'a unique' if unique else 'more than one'} winning move at "
                           f"{'every' if unique else 'some'} turn of the {side}")
    return UlvVerdict(**base, winner=winner, plies=None if winner == "draw" else plies,
                      solution=solution, grade=grade, unique_line=unique,
                      sound=not reasons, reasons=tuple(reasons),
                      winning_first_moves=tuple(wins), features=feats, positions=ref.size,
                      seconds=time.perf_counter() - started)


def _value_words(winner: str, plies: int) -> str:
    return "a draw" if winner == "draw" else f"the {winner} win in {plies} plies"


def _winning_first_moves(ref: ReferenceValues, state: UlvState) -> list[str]:
    """The first moves after which the side to move still wins (played with the reference
    model, valued by the independent table)."""
    side = SIDE_NAMES[state.to_move]
    out = []
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_terminal():
            if after.result == side:
                out.append(move.text())
            continue
        got = ref.lookup(after.sheep, after.wolves, after.to_move)
        if got is not None and got[0] == side:
            out.append(move.text())
    return out


def _line_problem(ref: ReferenceValues, state: UlvState, line: tuple[str, ...],
                  plies: int) -> str | None:
    """What is wrong with a solution line from a won position, or None: it must have
    `plies` legal moves, the winner's each winning fastest and the loser's each resisting
    longest, and end with the winner's win."""
    side = SIDE_NAMES[state.to_move]
    if not line:
        return "the puzzle gives no solution"
    s = bare(state)
    for i, text in enumerate(line, start=1):
        if s.is_terminal():
            return f"the game is over after move {i - 1}, yet the line goes on"
        got = ref.lookup(s.sheep, s.wolves, s.to_move)
        assert got is not None
        left = got[1]
        try:
            after = s.play(parse_move(text))
        except (ParseError, IllegalMoveError) as exc:
            return f"move {i} ({text}) is illegal: {exc}"
        nxt: tuple[str, int] = (after.result or "draw", 0) if after.is_terminal() else \
            ref.lookup(after.sheep, after.wolves, after.to_move) or ("draw", -1)
        mover = SIDE_NAMES[s.to_move]
        if mover == side and (nxt[0] != side or nxt[1] != left - 1):
            best = f"the fastest win takes {left} plies"
            return (f"move {i} ({text}) does not win fastest: after it, "
                    f"{_value_words(*nxt)} ({best})")
        if mover != side and nxt[1] != left - 1:
            return (f"move {i} ({text}) is not the longest defence: after it the {side} "
                    f"win in {nxt[1]} plies, but {left - 1} can be forced")
        s = bare(after)
    if not s.is_terminal():
        return f"the line stops after {len(line)} moves, before the game ends"
    if len(line) != plies:
        return f"the line has {len(line)} moves, the win takes {plies} plies"
    return None
