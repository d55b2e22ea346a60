"""Ulvtafl game records: an options line, then one move per line; `#` starts a comment.

The options line is either a setup (`setup=20`, `setup=13 wolves=d4`, plus rule words such as
`orthogonal`) or a start position (`position=W.W/.../... w`, plus rule words). Replaying
stops at the first illegal move with its line, column and reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.text import shifted, split_lines
from fleece.rules.ulvtafl.game import (
    Move,
    Rules,
    UlvState,
    UlvtaflOptions,
    initial_state,
    rules_from_words,
)
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text, shown

MAX_RECORD = 1_000_000  # characters
MAX_MOVES = 100_000


@dataclass(frozen=True)
class Record:
    """A parsed record: the options line as given (normalised), the start state, and each
    move with its line and column."""

    options_line: str
    start: UlvState
    moves: tuple[tuple[Move, int, int], ...]

    def text(self) -> str:
        """The record as text (options line, one move per line): `parse_record` reads it
        back to an equal record, line numbers aside."""
        return "\n".join([self.options_line, *(m.text() for m, _, _ in self.moves)]) + "\n"


def options_line(options: UlvtaflOptions) -> str:
    """The options line of a setup."""
    words = [f"setup={options.setup}"]
    if options.wolves is not None:
        words.append("wolves=" + ",".join(options.wolves))
    return " ".join(words + options.rules.tokens())


def start_line(state: UlvState) -> str:
    """The options line that starts a record from an arbitrary position."""
    return "position=" + position_text(state)


def parse_options_line(line: str) -> tuple[str, UlvState]:
    """The normalised options line and its start state (ParseError with the column)."""
    text = line.strip()
    if text.startswith("position="):
        offset = len(line) - len(line.lstrip()) + len("position=")
        try:
            state = parse_position(text[len("position="):])
        except ParseError as exc:
            raise shifted(exc, offset + 1) from None
        return "position=" + position_text(state), state
    setup, wolves = 20, None
    words = []
    col = 1
    for word in line.split():
        col = line.find(word, col - 1) + 1
        key, eq, value = word.partition("=")
        if eq and key == "setup":
            if value not in ("13", "15", "17", "20"):
                raise ParseError(f"setup={shown(value)}: expected 13, 15, 17 or 20 (U9)",
                                 column=col + len("setup="))
            setup = int(value)
        elif eq and key == "wolves":
            wolves = tuple(value.split(","))
        elif eq:
            raise ParseError(f"unknown option {shown(key)} (setup=, wolves=, position=)",
                             column=col)
        else:
            words.append(word)
        col += len(word)
    try:
        rules: Rules = rules_from_words(words)
        options = UlvtaflOptions(setup=setup, wolves=wolves, rules=rules)
    except RulesError as exc:
        raise ParseError(str(exc), column=1) from None
    return options_line(options), initial_state(options)


def parse_record(text: str) -> Record:
    """Read a record: options line and moves (ParseError with line and column). Moves are
    read, not yet played: `replay` checks them."""
    if len(text) > MAX_RECORD:
        raise ParseError(f"record too long ({len(text)} characters, at most {MAX_RECORD})")
    head: tuple[str, UlvState] | None = None
    moves: list[tuple[Move, int, int]] = []
    for number, raw in enumerate(split_lines(text), start=1):
        body = raw.split("#", 1)[0]
        if not body.strip():
            continue
        col = len(body) - len(body.lstrip()) + 1
        if head is None:
            try:
                head = parse_options_line(body)
            except ParseError as exc:
                raise shifted(exc, col, number) from None
            continue
        if len(body.split()) != 1:
            raise ParseError("one move per line", line=number, column=col)
        try:
            moves.append((parse_move(body), number, col))
        except ParseError as exc:
            raise shifted(exc, col, number) from None
        if len(moves) > MAX_MOVES:
            raise ParseError(f"more than {MAX_MOVES} moves", line=number)
    if head is None:
        raise ParseError("empty record: expected an options line such as 'setup=20'", line=1)
    return Record(head[0], head[1], tuple(moves))


def replay(record: Record) -> list[UlvState]:
    """Every state of the game, start first; ParseError at the first illegal move with its
    line, column and reason (for example `d4-d3: sheep may not move backward (U3)`)."""
    states = [record.start]
    for move, line, col in record.moves:
        try:
            states.append(states[-1].play(move))
        except IllegalMoveError as exc:
            raise ParseError(f"illegal move {exc}", line=line, column=col) from None
    return states


def format_record(start: UlvState | UlvtaflOptions, moves: list[Move]) -> str:
    """A record of `moves` from a setup or a start position."""
    head = options_line(start) if isinstance(start, UlvtaflOptions) else start_line(start)
    return "\n".join([head, *(m.text() for m in moves)]) + "\n"
