"""Game record files: an options line, then one pbmserv move per line (M28).

```
# comments start with '#', anywhere on a line
-size=4 -num_sheep=26 -num_wolves=4 -reveal     # pbmserv challenge options
sparse                                          # the Farmer's placement
wolves=CFLW                                     # the Wolf's secret choice
H:F-a3,J-g5,V-f6                                # round 1, Wolf
D                                               # round 1, Farmer shoots D
game 2                                          # optional: second game of a match
mirror
...
```
`parse_record` checks only syntax; `replay` plays the moves and stops at the first illegal
one with its line number and the reason. `format_record` writes a record that parses back to
the same moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fleece.rules.errors import IllegalMoveError, ParseError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.match import Match
from fleece.rules.mutton.moves import Move, Side, format_move, parse_move
from fleece.rules.mutton.options import MuttonOptions, parse_options
from fleece.rules.text import quote, split_lines

_GAME_RE = re.compile(r"game +([12])", re.IGNORECASE | re.ASCII)  # used with fullmatch
_PREFIX_RE = re.compile(r"^(mutton +)?(challenge +)?", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class RecordLine:
    """One move of a record with the line and column it came from."""

    line: int
    column: int
    text: str


@dataclass(frozen=True)
class Record:
    """A parsed record: the rules and the move lines of each game (one or two)."""

    rules: MuttonOptions
    games: tuple[tuple[RecordLine, ...], ...]


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0].rstrip(" ")


def parse_record(text: str, *, dictionary: frozenset[frozenset[str]] | None = None) -> Record:
    """Split a record into its options line and the move lines of each game (syntax only).
    Only `\n` and `\r\n` end a line; spaces, tabs and non-breaking spaces separate words;
    any other character belongs to a word (and is refused by the word's parser)."""
    rules: MuttonOptions | None = None
    games: list[list[RecordLine]] = [[]]
    for no, raw in enumerate(split_lines(text), start=1):
        body = _strip_comment(raw.replace("\u00a0", " ").replace("\t", " "))
        if not body.strip(" "):
            continue
        col = len(body) - len(body.lstrip(" ")) + 1
        stripped = body.strip(" ")
        if rules is None:
            prefix = _PREFIX_RE.match(stripped)
            cut = prefix.end() if prefix else 0
            opts = stripped[cut:]
            if opts and not opts.startswith("-") and "=" not in opts.split(" ")[0]:
                raise ParseError(
                    "a record starts with the options line (for example "
                    "'-size=4 -num_sheep=26 -num_wolves=4'), found "
                    f"{quote(stripped)}", line=no, column=col)
            try:
                rules = parse_options(opts, line=no, dictionary=dictionary)
            except ParseError as exc:
                column = None if exc.column is None else exc.column + col - 1 + cut
                raise ParseError(exc.message, line=no, column=column) from None
            continue
        m = _GAME_RE.fullmatch(stripped)
        if m:
            want = len(games) + (1 if games[-1] else 0)
            if int(m.group(1)) != want or (want == 1 and games[-1]):
                raise ParseError(f"{quote(stripped)} out of order: expected 'game {want}'",
                                 line=no, column=col)
            if games[-1]:
                games.append([])
            continue
        if " " in stripped:
            raise ParseError(f"one move per line: {quote(stripped)} has a space", line=no,
                             column=col + stripped.index(" "))
        games[-1].append(RecordLine(no, col, stripped))
    if rules is None:
        raise ParseError("empty record: expected an options line and moves", line=1)
    if len(games) == 2 and rules.quick_play is not None:
        raise ParseError("quick play has a single game, but the record has 'game 2'")
    return Record(rules, tuple(tuple(g) for g in games))


def _side(state: GameState) -> Side | None:
    if state.phase in (Phase.PLACE, Phase.CHOOSE):
        return None
    return state.to_move


def replay(record: Record) -> Match:
    """Play every move of a record; ParseError with the line and the reason at the first
    move that is malformed or illegal."""
    match = Match.new(record.rules)
    b = board(record.rules.size)
    for gi, lines in enumerate(record.games):
        if gi == 1:
            if not match.current.over:
                first = lines[0] if lines else None
                raise ParseError("'game 2' starts before game 1 is over",
                                 line=first.line - 1 if first else None)
            match = match.start_next_game()
        for rl in lines:
            state = match.current
            if state.over:
                raise ParseError(f"move '{rl.text}' after the end of the game", line=rl.line,
                                 column=rl.column)
            move = parse_move(rl.text, b, _side(state), line=rl.line, column=rl.column)
            try:
                match = match.play(move)
            except IllegalMoveError as exc:
                raise ParseError(f"illegal move '{rl.text}': {exc}", line=rl.line,
                                 column=rl.column) from None
    return match


def replay_text(text: str) -> Match:
    """Parse and replay a record in one step."""
    return replay(parse_record(text))


def format_record(rules: MuttonOptions, games: list[list[Move]] | tuple[tuple[Move, ...], ...]
                  ) -> str:
    """A record text that `parse_record` reads back to the same rules and moves."""
    out = [rules.to_options()]
    for gi, moves in enumerate(games):
        if gi > 0:
            out.append(f"game {gi + 1}")
        for m in moves:
            out.append(format_move(m))
    return "\n".join(out) + "\n"


def match_record(match: Match) -> str:
    """The record of a whole match (or single game) so far."""
    return format_record(match.rules, [list(g.history) for g in match.games])
