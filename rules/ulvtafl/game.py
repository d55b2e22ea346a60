"""Ulvtafl positions, legal moves and move application (U3-U7, U10).

`UlvState` is an immutable value: the sheep and wolf point masks, the side to move, the
movement rules and (for U7's repetition rule) the positions met since the last irreversible
move. `state.play(move)` returns the next state or raises `UlvIllegalMove` saying why, with
the clause it breaks. The end checks run after every move in U10's order: fewer than 9
sheep, a full paddock, no legal move for the side to move, and last a repeated position.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.protocol import TERMINAL, ChanceFree
from fleece.rules.ulvtafl.geometry import (
    BY_NAME,
    DEFAULT_WOLVES,
    JUMPS,
    MIN_SHEEP,
    NAMES,
    NUM_POINTS,
    PADDOCK,
    SETUP_SHEEP,
    STEPS,
    rank_of,
)

WOLVES, SHEEP = 0, 1  # player indices of the game protocol; the wolves move first (U2)
SIDE_NAMES = ("wolves", "sheep")


@dataclass(frozen=True, slots=True)
class Rules:
    """The movement options of U1 and U6 and the repetition rule of U7.

    `orthogonal`: no diagonal lines at all (U1 option). `wolf_diagonal_captures_only`: a wolf
    uses a diagonal line only to capture (U6). `sheep_orthogonal`: sheep never move
    diagonally (U6). `repetition_draw`: a position met again with the same side to move ends
    the game as a draw (U7's default)."""

    orthogonal: bool = False
    wolf_diagonal_captures_only: bool = False
    sheep_orthogonal: bool = False
    repetition_draw: bool = True

    def tokens(self) -> list[str]:
        """The non-default options as words (for position text and record option lines)."""
        out = []
        if self.orthogonal:
            out.append("orthogonal")
        if self.wolf_diagonal_captures_only:
            out.append("wolf-diagonal-captures-only")
        if self.sheep_orthogonal:
            out.append("sheep-orthogonal")
        if not self.repetition_draw:
            out.append("no-repetition-draw")
        return out


RULE_WORDS = {
    "orthogonal": "orthogonal",
    "wolf-diagonal-captures-only": "wolf_diagonal_captures_only",
    "sheep-orthogonal": "sheep_orthogonal",
    "no-repetition-draw": "repetition_draw",
}


def rules_from_words(words: list[str]) -> Rules:
    """The rules named by option words (RulesError naming an unknown or repeated word)."""
    flags: dict[str, bool] = {}
    for w in words:
        attr = RULE_WORDS.get(w)
        if attr is None:
            raise RulesError(f"unknown rule option {w[:40]!r} "
                             f"(known: {', '.join(RULE_WORDS)})")
        if attr in flags:
            raise RulesError(f"rule option {w!r} given twice")
        flags[attr] = attr != "repetition_draw"
    return Rules(**flags)


@dataclass(frozen=True, slots=True)
class UlvtaflOptions:
    """A setup of U9 and the rules of play: the sheep count (13, 15, 17 or 20), the wolves'
    start points (None: the setup's default), and the movement rules."""

    setup: int = 20
    wolves: tuple[str, ...] | None = None
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if self.setup not in SETUP_SHEEP:
            raise RulesError(f"setup must be 13, 15, 17 or 20 sheep, not {self.setup}")
        if self.wolves is None:
            return
        for name in self.wolves:
            if name not in BY_NAME:
                raise RulesError(f"{name[:10]!r} is not a point of the board (U8)",
                                 field="wolf")
        need = 2 if self.setup == 20 else 1
        if len(self.wolves) != need:
            raise RulesError(f"the {self.setup}-sheep setup has {need} "
                             f"{'wolves' if need > 1 else 'wolf'}, {len(self.wolves)} start "
                             f"point{'s' if len(self.wolves) != 1 else ''} given", field="wolf")
        for name in self.wolves:
            if SETUP_SHEEP[self.setup] >> BY_NAME[name] & 1:
                raise RulesError(f"wolf start {name} is taken by a sheep (U9)", field="wolf")
        if len(set(self.wolves)) != len(self.wolves):
            raise RulesError("two wolves cannot start on the same point")
        if self.setup == 20 and not all(PADDOCK >> BY_NAME[n] & 1 for n in self.wolves):
            raise RulesError("the two wolves start on paddock points (U2)")

    def wolf_points(self) -> tuple[str, ...]:
        """The wolves' start points."""
        return self.wolves if self.wolves is not None else DEFAULT_WOLVES[self.setup]


@dataclass(frozen=True, slots=True)
class Move:
    """A move: the mover's start point and each point it lands on, in order.

    A step has one landing point; a capture (`capture` true) lists every landing point of
    its chain (U4, U8: `d5xd3xf3`)."""

    path: tuple[int, ...]
    capture: bool = False

    @property
    def start(self) -> int:
        """The point the piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The point the piece stops on."""
        return self.path[-1]

    def text(self) -> str:
        """U8 notation: `d3-d4`, `d5xd3xf3`."""
        return ("x" if self.capture else "-").join(NAMES[p] for p in self.path)


class UlvIllegalMove(IllegalMoveError):
    """A move the rules forbid here: the move's text, the reason and the clause broken."""

    def __init__(self, move: str, reason: str, clause: str) -> None:
        self.move = move
        self.reason = reason
        self.clause = clause
        super().__init__(f"{move}: {reason} ({clause})")


def position_key(sheep: int, wolves: int, to_move: int) -> int:
    """One int naming a board and the side to move (for repetition checks)."""
    return sheep | wolves << NUM_POINTS | to_move << (2 * NUM_POINTS)


def _bits(m: int) -> Iterator[int]:
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def wolf_steps(rules: Rules, sheep: int, wolves: int) -> Iterator[Move]:
    """Every wolf step to an empty adjacent point along a line (U3, U6 options)."""
    occupied = sheep | wolves
    diag_ok = not rules.orthogonal and not rules.wolf_diagonal_captures_only
    for w in _bits(wolves):
        for s in STEPS[w]:
            if s.diagonal and not diag_ok:
                continue
            if not occupied >> s.to & 1:
                yield Move((w, s.to))


def _chains(rules: Rules, at: int, sheep: int, blocked: int,
            path: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every maximal jump chain continuing from `at` (U4, U10); `blocked` holds the other
    wolves (the moving wolf's start point is empty once it left)."""
    extended = False
    for j in JUMPS[at]:
        if j.diagonal and rules.orthogonal:
            continue
        if sheep >> j.over & 1 and not (sheep | blocked) >> j.to & 1:
            extended = True
            yield from _chains(rules, j.to, sheep & ~(1 << j.over), blocked, (*path, j.to))
    if not extended and len(path) > 1:
        yield path


def wolf_captures(rules: Rules, sheep: int, wolves: int) -> Iterator[Move]:
    """Every maximal capture chain of every wolf (U4, U10)."""
    for w in _bits(wolves):
        for path in _chains(rules, w, sheep, wolves & ~(1 << w), (w,)):
            yield Move(path, capture=True)


def threatened(rules: Rules, sheep: int, wolves: int) -> bool:
    """True when a wolf could capture on this board if the wolves were to move (a sheep
    move is safe when it leaves no such threat)."""
    return next(wolf_captures(rules, sheep, wolves), None) is not None


def sheep_steps(rules: Rules, sheep: int, wolves: int) -> Iterator[Move]:
    """Every sheep step to an empty point on the same rank or the next rank up (U3, U10)."""
    occupied = sheep | wolves
    diag_ok = not rules.orthogonal and not rules.sheep_orthogonal
    for p in _bits(sheep):
        for s in STEPS[p]:
            if s.dy < 0 or (s.diagonal and not diag_ok):
                continue
            if not occupied >> s.to & 1:
                yield Move((p, s.to))


def generate(rules: Rules, sheep: int, wolves: int, to_move: int) -> Iterator[Move]:
    """The legal moves of the side to move on this board, before end checks (U10)."""
    if to_move == SHEEP:
        yield from sheep_steps(rules, sheep, wolves)
        return
    captured = False
    for m in wolf_captures(rules, sheep, wolves):
        captured = True
        yield m
    if not captured:
        yield from wolf_steps(rules, sheep, wolves)


def has_move(rules: Rules, sheep: int, wolves: int, to_move: int) -> bool:
    """True when the side to move has at least one legal move."""
    return next(generate(rules, sheep, wolves, to_move), None) is not None


def apply_move(sheep: int, wolves: int, move: Move) -> tuple[int, int]:
    """The board after a move known to be legal: the piece moves, jumped sheep go."""
    a, b = move.start, move.end
    if wolves >> a & 1:
        wolves = wolves & ~(1 << a) | 1 << b
        if move.capture:
            for x, y in zip(move.path, move.path[1:], strict=False):
                sheep &= ~(1 << jumped_point(x, y))
    else:
        sheep = sheep & ~(1 << a) | 1 << b
    return sheep, wolves


def jumped_point(frm: int, to: int) -> int:
    """The point a jump from `frm` to `to` passes over."""
    for j in JUMPS[frm]:
        if j.to == to:
            return j.over
    raise ValueError(f"{NAMES[frm]} to {NAMES[to]} is not a jump")


def end_of(rules: Rules, sheep: int, wolves: int, to_move: int) -> tuple[str, str] | None:
    """U10's end checks in their order, on a board with `to_move` to move: the winner
    ("wolves" or "sheep") and why, or None while the game goes on."""
    if sheep.bit_count() < MIN_SHEEP:
        return "wolves", "fewer than 9 sheep are left (U5)"
    if (sheep | wolves) & PADDOCK == PADDOCK:
        return "sheep", "all 9 paddock points are occupied (U5)"
    if not has_move(rules, sheep, wolves, to_move):
        loser = SIDE_NAMES[to_move]
        return SIDE_NAMES[1 - to_move], f"the {loser} have no legal move (U5)"
    return None


@dataclass(frozen=True, slots=True)
class UlvState(ChanceFree):
    """An Ulvtafl position: sheep and wolf masks, the side to move, the rules, the positions
    met since the last irreversible move (U7), and the result once the game is over
    ("wolves", "sheep" or "draw", with the reason)."""

    rules: Rules
    sheep: int
    wolves: int
    to_move: int
    history: tuple[int, ...] = ()
    result: str | None = None
    reason: str = ""

    @staticmethod
    def create(rules: Rules, sheep: int, wolves: int, to_move: int,
               history: tuple[int, ...] = ()) -> UlvState:
        """A position with its end checks done (U10; a repeat of `history` is a U7 draw)."""
        if sheep & wolves:
            raise RulesError("a point holds both a sheep and a wolf")
        if not 1 <= wolves.bit_count() <= 2:
            raise RulesError("Ulvtafl has one or two wolves (U2, U9)")
        if sheep >> NUM_POINTS or wolves >> NUM_POINTS:
            raise RulesError("a piece is off the board")
        end = end_of(rules, sheep, wolves, to_move)
        if end is None and rules.repetition_draw and \
                position_key(sheep, wolves, to_move) in history:
            end = ("draw", "the position is repeated with the same side to move (U7)")
        if end is None:
            return UlvState(rules, sheep, wolves, to_move, history)
        return UlvState(rules, sheep, wolves, to_move, history, end[0], end[1])

    @property
    def key(self) -> int:
        """The board and side to move as one int."""
        return position_key(self.sheep, self.wolves, self.to_move)

    def current_player(self) -> int:
        """WOLVES (0) or SHEEP (1), or TERMINAL once the game is over."""
        return TERMINAL if self.result is not None else self.to_move

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.result is not None

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move: captures only when one exists, each maximal chain once (U10)."""
        if self.result is not None:
            return iter(())
        return generate(self.rules, self.sheep, self.wolves, self.to_move)

    def count_legal_moves(self) -> int:
        """The number of legal moves."""
        return sum(1 for _ in self.legal_moves())

    def returns(self) -> tuple[Fraction, ...]:
        """+1 for the winner and -1 for the loser; 0 each for a draw or an unfinished game
        (player order: wolves, sheep)."""
        if self.result in SIDE_NAMES:
            win = SIDE_NAMES.index(self.result)
            return tuple(Fraction(1 if i == win else -1) for i in range(2))
        return (Fraction(0), Fraction(0))

    def play(self, move: Move) -> UlvState:
        """The state after `move`; UlvIllegalMove saying why when it is not legal here."""
        self.check(move)
        sheep, wolves = apply_move(self.sheep, self.wolves, move)
        irreversible = move.capture or (self.to_move == SHEEP and
                                        rank_of(move.end) > rank_of(move.start))
        history = () if irreversible or not self.rules.repetition_draw \
            else (*self.history, self.key)
        return UlvState.create(self.rules, sheep, wolves, 1 - self.to_move, history)

    def check(self, move: Move) -> None:
        """Raise UlvIllegalMove with the reason and the clause when `move` is not legal."""
        text = move.text() if len(move.path) >= 2 else repr(move.path)
        if self.result is not None:
            raise UlvIllegalMove(text, f"the game is over ({self.reason})", "U10")
        if len(move.path) < 2 or not all(0 <= p < NUM_POINTS for p in move.path):
            raise UlvIllegalMove(text, "a move names its start and landing points", "U8")
        a = move.start
        mover = SIDE_NAMES[self.to_move]
        own = self.wolves if self.to_move == WOLVES else self.sheep
        other = self.sheep if self.to_move == WOLVES else self.wolves
        if not own >> a & 1:
            what = "a wolf" if other >> a & 1 and self.to_move == SHEEP else \
                "a sheep" if other >> a & 1 else "empty"
            raise UlvIllegalMove(text, f"{NAMES[a]} is {what}, and the {mover} are to move "
                                 "(only one piece of the side to move moves, U3)", "U3")
        if move in set(self.legal_moves()):
            return
        raise UlvIllegalMove(text, *self._why(move))

    def _why(self, move: Move) -> tuple[str, str]:
        """The reason a move of one of the mover's own pieces is illegal."""
        r = self.rules
        a, b = move.start, move.end
        occupied = self.sheep | self.wolves
        if self.to_move == SHEEP:
            if move.capture:
                return "sheep cannot capture (U4)", "U4"
            step = next((s for s in STEPS[a] if s.to == b), None)
            if step is None:
                return f"{NAMES[a]} and {NAMES[b]} are not joined by a line", "U1"
            if step.dy < 0:
                return "sheep may not move backward", "U3"
            if step.diagonal and r.orthogonal:
                return "there are no diagonal lines in this variant", "U1"
            if step.diagonal and r.sheep_orthogonal:
                return "sheep never move diagonally in this variant", "U6"
            return f"{NAMES[b]} is occupied", "U3"
        captures = list(wolf_captures(r, self.sheep, self.wolves))
        if not move.capture:
            if captures:
                return (f"the wolves must capture ({captures[0].text()} is possible)", "U4")
            step = next((s for s in STEPS[a] if s.to == b), None)
            if step is None:
                return f"{NAMES[a]} and {NAMES[b]} are not joined by a line", "U1"
            if step.diagonal and r.orthogonal:
                return "there are no diagonal lines in this variant", "U1"
            if step.diagonal and r.wolf_diagonal_captures_only:
                return "a wolf moves diagonally only when capturing in this variant", "U6"
            return f"{NAMES[b]} is occupied", "U3"
        prefix = [c for c in captures if c.path[:len(move.path)] == move.path]
        if prefix:
            return (f"the chain must go on: the wolf can jump again from {NAMES[b]} "
                    f"({prefix[0].text()})", "U4")
        sheep, blocked = self.sheep, self.wolves & ~(1 << a)
        for x, y in zip(move.path, move.path[1:], strict=False):
            jump = next((j for j in JUMPS[x] if j.to == y), None)
            if jump is None or (jump.diagonal and r.orthogonal):
                return f"{NAMES[x]}x{NAMES[y]} is not a jump along a line", "U4"
            if not sheep >> jump.over & 1:
                return f"no sheep on {NAMES[jump.over]} to jump over", "U4"
            if (sheep | blocked) >> y & 1:
                return f"{NAMES[y]} is occupied", "U4"
            sheep &= ~(1 << jump.over)
        del occupied
        return "not a legal capture here", "U4"


def initial_state(options: UlvtaflOptions) -> UlvState:
    """The setup's start position, wolves to move (U2, U9)."""
    wolves = 0
    for name in options.wolf_points():
        wolves |= 1 << BY_NAME[name]
    return UlvState.create(options.rules, SETUP_SHEEP[options.setup], wolves, WOLVES)


def perft(state: UlvState, depth: int) -> int:
    """The number of move sequences of length `depth` (a finished game has none, U10)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return state.count_legal_moves()
    return sum(perft(state.play(m), depth - 1) for m in state.legal_moves())
