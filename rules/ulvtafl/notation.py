"""Ulvtafl text (U8): move notation and position strings, each the exact inverse of its
printer.

A move is `d3-d4` (a step) or `d5xd3xf3` (a capture, every landing point). A position is the
board from rank 7 down to rank 1 (`/` between ranks, `S`, `W` or `.` for each existing point
from file a to g), a space and the side to move (`w` or `s`). Non-default rule options follow
as words (`orthogonal`, `wolf-diagonal-captures-only`, `sheep-orthogonal`,
`no-repetition-draw`), and when reversible moves led to the position since the last
irreversible one (U7 counts repetitions among them), `|` and those moves follow.
"""

from __future__ import annotations

import re

from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.ulvtafl.game import (
    SHEEP,
    WOLVES,
    Move,
    Rules,
    UlvState,
    position_key,
    rules_from_words,
)
from fleece.rules.ulvtafl.geometry import BY_NAME, INDEX, NAMES, NUM_POINTS

MAX_TEXT = 10_000  # characters of a position or move text
_MOVE = re.compile(r"[a-g][1-7](?:-[a-g][1-7]|(?:x[a-g][1-7])+)")
SIDE_LETTERS = {"w": WOLVES, "s": SHEEP}


def shown(text: str, limit: int = 40) -> str:
    """Text quoted for an error message: control characters escaped, length capped."""
    cut = text[:limit]
    return repr(cut) + ("..." if len(text) > limit else "")


def parse_move(text: str) -> Move:
    """Read `d3-d4` or `d5xd3xf3` (ParseError with the column of the first bad character)."""
    t = text.strip()
    if len(t) > 200:
        raise ParseError(f"move text too long ({len(t)} characters)")
    if not _MOVE.fullmatch(t):
        col = _first_bad_column(t)
        raise ParseError(f"{shown(t)} is not a move (a step is written d3-d4, a capture "
                         "d5xd3 or d5xd3xf3)", column=col)
    names = re.split(r"[-x]", t)
    for i, name in enumerate(names):
        if name not in BY_NAME:
            col = 1 + sum(len(n) + 1 for n in names[:i])
            raise ParseError(f"{name} is not a point of the board (U8: file c-e or rank 3-5)",
                             column=col)
    return Move(tuple(BY_NAME[n] for n in names), capture="x" in t)


def _first_bad_column(t: str) -> int:
    for n in range(len(t), 0, -1):
        if _MOVE.fullmatch(t[:n]) or re.fullmatch(r"[a-g]([1-7]([-x]([a-g]([1-7]"
                                                   r"(x([a-g]([1-7])?)?)*)?)?)?)?", t[:n]):
            return n + 1
    return 1


def board_text(sheep: int, wolves: int) -> str:
    """The board part of a position string (U8)."""
    rows = []
    for r in range(7, 0, -1):
        row = ""
        for f in range(7):
            p = INDEX.get((f, r))
            if p is None:
                continue
            row += "S" if sheep >> p & 1 else "W" if wolves >> p & 1 else "."
        rows.append(row)
    return "/".join(rows)


def position_text(state: UlvState) -> str:
    """The position string of a state (U8), with rule words and reversible history."""
    parts = [board_text(state.sheep, state.wolves), "ws"[state.to_move], *state.rules.tokens()]
    keys = [*state.history, state.key]
    if len(keys) > 1:
        parts.append("|")
        parts += [_step_between(keys[i], keys[i + 1]) for i in range(len(keys) - 1)]
    return " ".join(parts)


def _unpack(key: int) -> tuple[int, int, int]:
    full = (1 << NUM_POINTS) - 1
    return key & full, key >> NUM_POINTS & full, key >> (2 * NUM_POINTS)


def _step_between(k1: int, k2: int) -> str:
    s1, w1, side = _unpack(k1)
    s2, w2, _ = _unpack(k2)
    old, new = (w1, w2) if side == WOLVES else (s1, s2)
    a, b = (old & ~new).bit_length() - 1, (new & ~old).bit_length() - 1
    return f"{NAMES[a]}-{NAMES[b]}"


def _parse_board(board: str) -> tuple[int, int]:
    rows = board.split("/")
    if len(rows) != 7:
        raise ParseError(f"a board has 7 ranks separated by '/', found {len(rows)} (U8)",
                         column=1)
    sheep = wolves = 0
    col = 1
    for i, row in enumerate(rows):
        rank = 7 - i
        points = [INDEX[(f, rank)] for f in range(7) if (f, rank) in INDEX]
        if len(row) != len(points):
            raise ParseError(f"rank {rank} has {len(points)} points, {shown(row)} gives "
                             f"{len(row)} (U8)", column=col)
        for j, (ch, p) in enumerate(zip(row, points, strict=True)):
            if ch == "S":
                sheep |= 1 << p
            elif ch == "W":
                wolves |= 1 << p
            elif ch != ".":
                raise ParseError(f"{shown(ch)} at {NAMES[p]}: expected S, W or . (U8)",
                                 column=col + j)
        col += len(row) + 1
    return sheep, wolves


def parse_position(text: str) -> UlvState:
    """Read a position string (the exact inverse of `position_text`); ParseError with the
    column of what is wrong."""
    if len(text) > MAX_TEXT:
        raise ParseError(f"position text too long ({len(text)} characters)")
    head, bar, tail = text.partition("|")
    words = head.split()
    if len(words) < 2:
        raise ParseError("a position is the board, a space and the side to move "
                         "(w or s), e.g. 'W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w' (U8)",
                         column=1)
    sheep, wolves = _parse_board(words[0])
    side_col = head.find(words[1], len(words[0])) + 1
    if words[1] not in SIDE_LETTERS:
        raise ParseError(f"side to move {shown(words[1])}: expected w or s (U8)",
                         column=side_col)
    to_move = SIDE_LETTERS[words[1]]
    try:
        rules = rules_from_words(words[2:])
    except RulesError as exc:
        raise ParseError(str(exc), column=side_col + 2) from None
    nw = wolves.bit_count()
    if not 1 <= nw <= 2:
        raise ParseError(f"the board has {nw} wolves; Ulvtafl has 1 or 2 (U9)", column=1)
    if sheep.bit_count() > 20:
        raise ParseError(f"the board has {sheep.bit_count()} sheep; at most 20 (U9)",
                         column=1)
    if not bar:
        return UlvState.create(rules, sheep, wolves, to_move)
    return _with_history(rules, sheep, wolves, to_move, tail, len(head) + 2)


def _with_history(rules: Rules, sheep: int, wolves: int, to_move: int, tail: str,
                  offset: int) -> UlvState:
    """Undo the reversible moves after `|` from the given board, then replay them so the
    state carries the positions they passed through (U7)."""
    if not rules.repetition_draw:
        raise ParseError("'|' history is kept only under the repetition rule (U7)",
                         column=offset - 1)
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\S+", tail)]
    if not tokens:
        raise ParseError("'|' must be followed by the moves that led here", column=offset)
    moves = []
    for tok, at in tokens:
        try:
            move = parse_move(tok)
        except ParseError as exc:
            raise ParseError(exc.message, column=offset + at) from None
        if move.capture:
            raise ParseError(f"{tok}: a capture is irreversible and cannot precede the "
                             "position in its history (U7)", column=offset + at)
        moves.append(move)
    s, w, side = sheep, wolves, to_move
    for move, (tok, at) in zip(reversed(moves), reversed(tokens), strict=True):
        side = 1 - side
        a, b = move.start, move.end
        own = w if side == WOLVES else s
        if not own >> b & 1 or (s | w) >> a & 1:
            raise ParseError(f"{tok} cannot have led to this position", column=offset + at)
        if side == WOLVES:
            w = w & ~(1 << b) | 1 << a
        else:
            s = s & ~(1 << b) | 1 << a
    state = UlvState.create(rules, s, w, side)
    for move, (_, at) in zip(moves, tokens, strict=True):
        try:
            state = state.play(move)
        except (RulesError, IllegalMoveError) as exc:  # the reason names the clause
            raise ParseError(str(exc), column=offset + at) from None
    if len(state.history) != len(moves) or state.key != position_key(sheep, wolves, to_move):
        raise ParseError("the moves after '|' must be reversible steps (sideways sheep "
                         "moves and wolf steps) since the last irreversible move (U7)",
                         column=offset)
    return state

