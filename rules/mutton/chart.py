"""The Farmer's tracking chart (M25-M27): derive it from a game, render it in pbmserv columns,
and read it back from pasted text.

pbmserv prints the chart as a `Sheep   :` row of animal letters (`x` a dead sheep, `w` a dead
wolf, `x` any dead animal without the reveal option) and one `Round  N:` row per kill with `+`
under each runner and, under the victim, the mark the top row gives it: `x`, or `w` for a wolf
eaten by a wolf (M25). Columns are fixed: the mark for the i-th animal stands 2+2i characters
right of the row's colon. fleece adds `e` for an escaped wolf (M12), which the server's text
does not show.

The reader takes whole pastes: an optional board diagram and score line, then the chart. Web
pages turn spaces into non-breaking ones; tabs expand to 8 columns; blank lines and trailing
spaces are ignored. Only `\n` and `\r\n` end a line (rules.text.split_lines). Anything else
that does not fit is a ParseError naming line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from fleece.rules.errors import ParseError
from fleece.rules.mutton.diagram import (
    BoardPicture,
    is_board_row,
    is_label_line,
    normalize_spaces,
    parse_board,
    parse_score,
    render_board,
    render_score,
)
from fleece.rules.mutton.geometry import Cell
from fleece.rules.text import split_lines, whole_number

if TYPE_CHECKING:  # the game model loads only when a chart is derived from a game
    from fleece.rules.mutton.game import GameState

#: The animals' letters in order: rules.mutton.options.ALPHABET, written out here so that
#: reading a chart does not load the rule-set module.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Status(Enum):
    """An animal's status as the Farmer knows it."""

    ALIVE = "alive"
    DEAD_SHEEP = "dead sheep"
    DEAD_WOLF = "dead wolf"
    DEAD = "dead"  # identity not revealed (no_reveal)
    ESCAPED = "escaped wolf"

    @property
    def dead(self) -> bool:
        """True for any dead animal."""
        return self in (Status.DEAD_SHEEP, Status.DEAD_WOLF, Status.DEAD)

    @property
    def on_board(self) -> bool:
        """True while the animal still stands on the board."""
        return self is Status.ALIVE


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One kill: the round it happened in, the victim, and every animal that ran."""

    round: int
    victim: str
    runners: frozenset[str]

    def __str__(self) -> str:
        return f"({self.victim}: {' '.join(sorted(self.runners))})"


@dataclass(frozen=True)
class Chart:
    """The Farmer's knowledge: each animal's status and one row per kill (M25)."""

    animals: str
    status: tuple[Status, ...]
    rows: tuple[ChartRow, ...]
    reveal: bool = True
    board: BoardPicture | None = field(default=None, compare=False)
    score: int | None = field(default=None, compare=False)
    to_beat: int | None = field(default=None, compare=False)

    def status_of(self, letter: str) -> Status:
        """The status of one animal."""
        return self.status[self.animals.index(letter)]

    def letters_with(self, *statuses: Status) -> list[str]:
        """Animals whose status is one of `statuses`, in chart order."""
        return [a for a, s in zip(self.animals, self.status, strict=True) if s in statuses]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description (used by `fleece mutton chart --json`)."""
        out: dict[str, Any] = {
            "animals": self.animals,
            "reveal": self.reveal,
            "status": {a: s.value for a, s in zip(self.animals, self.status, strict=True)},
            "rows": [
                {"round": r.round, "victim": r.victim, "runners": sorted(r.runners)}
                for r in self.rows
            ],
        }
        if self.score is not None:
            out["score"] = self.score
            out["to_beat"] = self.to_beat
        if self.board is not None:
            out["board"] = {
                "size": self.board.size,
                "animals": {a: c.name for a, c in sorted(self.board.animals.items())},
                "corpses": sorted(c.name for c in self.board.corpses),
            }
        return out


# ---- derive from a game ----------------------------------------------------------------------

def farmer_chart(state: GameState) -> Chart:
    """The chart the Farmer keeps of a game (M25): statuses as the Farmer knows them under the
    reveal option (identities of the dead are public with `reveal`, or once the game is over)."""
    from fleece.rules.mutton.game import Fate

    known = state.rules.reveal or state.over
    status: list[Status] = []
    for a, f in zip(state.letters, state.fates, strict=True):
        if f is Fate.ALIVE:
            status.append(Status.ALIVE)
        elif f is Fate.ESCAPED:
            status.append(Status.ESCAPED)
        elif not known:
            status.append(Status.DEAD)
        else:
            status.append(Status.DEAD_WOLF if a in state.wolves else Status.DEAD_SHEEP)
    rows = tuple(ChartRow(k.round, k.victim, k.runners) for k in state.kills)
    pic = BoardPicture(state.rules.size, state.animal_cells(), state.corpses)
    return Chart(state.letters, tuple(status), rows, reveal=state.rules.reveal, board=pic,
                 score=state.score)


# ---- render ----------------------------------------------------------------------------------

_MARK = {
    Status.DEAD_SHEEP: "x",
    Status.DEAD_WOLF: "w",
    Status.DEAD: "x",
    Status.ESCAPED: "e",
}


def render_chart(chart: Chart) -> str:
    """The chart in pbmserv columns (`Sheep   :` / `Round  N:`), no trailing spaces; under a
    victim its top-row mark (`x`, or `w` for a wolf eaten by a wolf, M25)."""
    top = [a if s is Status.ALIVE else _MARK[s] for a, s in
           zip(chart.animals, chart.status, strict=True)]
    lines = ["Sheep   : " + " ".join(top)]
    for row in chart.rows:
        cells = []
        for a, s in zip(chart.animals, chart.status, strict=True):
            victim = "w" if s is Status.DEAD_WOLF else "x"
            cells.append(victim if a == row.victim else "+" if a in row.runners else " ")
        lines.append(f"Round{row.round:>3}: " + " ".join(cells).rstrip())
    return "\n".join(lines)


def render_paste(chart: Chart) -> str:
    """Board (when known), score line (when known) and chart, as a pbmserv page shows them."""
    parts = []
    if chart.board is not None:
        parts.append(render_board(chart.board.size, chart.board.animals, chart.board.corpses))
        parts.append("")
    if chart.score is not None:
        parts.append(render_score(chart.score, chart.to_beat))
    parts.append(render_chart(chart))
    return "\n".join(parts) + "\n"


# ---- parse -----------------------------------------------------------------------------------

# Lines are normalised first (normalize_spaces), so the space is the only blank character.
_SHEEP_RE = re.compile(r"^ *(sheep|animals?) *:", re.IGNORECASE | re.ASCII)
_ROUND_RE = re.compile(r"^ *(round|r) *([0-9]+) *:", re.IGNORECASE | re.ASCII)
_MARKS_RE = re.compile(r"[^ ]+")
MAX_ROUND = 99  # every round kills an animal or ends in a shot (M24): 26 animals, 26 rounds


def parse_chart(text: str, *, reveal: bool = True, escaped: Iterable[str] = ()) -> Chart:
    """Read a pasted chart (optionally preceded by a board diagram and a score line).

    `reveal=False` reads `x` as "dead, identity unknown" (the server's no_reveal option).
    `escaped` names wolves known to have escaped (M12): the server's text may still print
    their letters in the Sheep row, but they are not on the board; such letters are read as
    escaped (letters shown dead keep their mark).
    """
    lines = split_lines(text)
    board_rows: list[tuple[int, str]] = []
    score: tuple[int, int | None] | None = None
    sheep: tuple[int, str] | None = None
    round_lines: list[tuple[int, str]] = []
    for no, raw in enumerate(lines, start=1):
        line = normalize_spaces(raw)
        if not line.strip(" "):
            continue
        if sheep is None:
            if is_label_line(line):
                continue
            if is_board_row(line):
                board_rows.append((no, line))
                continue
            sc = parse_score(line, no)
            if sc is not None:
                if score is not None:
                    raise ParseError("a second score line", line=no, column=1)
                score = sc
                continue
            if _SHEEP_RE.match(line):
                sheep = (no, line)
                continue
            col = len(line) - len(line.lstrip(" ")) + 1
            raise ParseError(
                "expected a board row, a 'Score:' line or the 'Sheep   :' row, found "
                f"'{line.strip(' ')[:30]}'", line=no, column=col)
        if _ROUND_RE.match(line):
            round_lines.append((no, line))
            continue
        col = len(line) - len(line.lstrip(" ")) + 1
        raise ParseError(f"expected a 'Round  N:' row, found '{line.strip(' ')[:30]}'",
                         line=no, column=col)
    if sheep is None:
        raise ParseError("no 'Sheep   :' row found: the chart starts with the row of animals",
                         line=len(lines) or None)
    animals, status, columns = _parse_sheep_row(*sheep, reveal=reveal)
    for a in sorted(set(escaped)):
        if a not in animals:
            raise ParseError(f"escaped animal {a!r} is not in the Sheep row "
                             f"({animals[0]}..{animals[-1]})", line=sheep[0])
        i = animals.index(a)
        if status[i] is Status.ALIVE:  # a dead mark is left for the caller to judge
            status[i] = Status.ESCAPED
    rows = _parse_rounds(round_lines, animals, status, columns)
    pic = parse_board(board_rows) if board_rows else None
    if pic is not None:
        _check_board(pic, animals, status, board_rows[0][0])
    return Chart(animals, tuple(status), tuple(rows), reveal=reveal, board=pic,
                 score=score[0] if score else None, to_beat=score[1] if score else None)


def _parse_sheep_row(no: int, line: str, *, reveal: bool
                     ) -> tuple[str, list[Status], list[int]]:
    colon = line.index(":")
    marks = [(m.start(), m.group(0)) for m in _MARKS_RE.finditer(line[colon + 1:])]
    n = len(marks)
    if n < 2 or n > 26:
        raise ParseError(f"the Sheep row lists {n} animals; Mutton has 2..26", line=no,
                         column=colon + 1)
    animals = ALPHABET[:n]
    status: list[Status] = []
    columns: list[int] = []
    for i, (off, tok) in enumerate(marks):
        col = colon + 1 + off
        expected = animals[i]
        if len(tok) != 1:
            raise ParseError(f"'{tok[:20]}' is not one mark: the Sheep row has one character per "
                             "animal, separated by spaces", line=no, column=col + 1)
        if tok == expected:
            status.append(Status.ALIVE)
        elif tok == "x":
            status.append(Status.DEAD_SHEEP if reveal else Status.DEAD)
        elif tok == "w":
            if not reveal:
                raise ParseError(f"'w' (dead wolf) under {expected}, but identities are "
                                 "not revealed (no_reveal)", line=no, column=col + 1)
            status.append(Status.DEAD_WOLF)
        elif tok == "e":
            status.append(Status.ESCAPED)
        elif tok.isalpha() and tok.isupper():
            raise ParseError(f"expected {expected} (or x, w, e) in column {i + 1} of the Sheep "
                             f"row, found {tok}", line=no, column=col + 1)
        else:
            raise ParseError(f"unknown mark '{tok}' under {expected} (letters, x, w or e)",
                             line=no, column=col + 1)
        columns.append(col - colon)
    return animals, status, columns


def _parse_rounds(round_lines: list[tuple[int, str]], animals: str, status: list[Status],
                  columns: list[int]) -> list[ChartRow]:
    by_offset = {off: i for i, off in enumerate(columns)}
    died_in: dict[str, int] = {}
    rows: list[ChartRow] = []
    last_round = 0
    for no, line in round_lines:
        m = _ROUND_RE.match(line)
        assert m is not None
        rnd = whole_number(m.group(2), "a round number", lo=1, hi=MAX_ROUND, line=no,
                           column=m.start(2) + 1)
        if rnd <= last_round:
            raise ParseError(f"round {rnd} follows round {last_round}: rounds must increase",
                             line=no, column=m.start(2) + 1)
        last_round = rnd
        colon = m.end() - 1
        victim: str | None = None
        runners: set[str] = set()
        for mm in re.finditer(r"[^ ]", line[colon + 1:]):
            off = mm.start() + 1
            ch = mm.group(0)
            col = colon + 1 + mm.start() + 1
            if ch not in "xw+":
                raise ParseError(f"unknown mark '{ch}' in a Round row (only x, w and +)",
                                 line=no, column=col)
            if off > columns[-1]:
                raise ParseError(
                    f"mark '{ch}' lies right of the last animal ({animals[-1]}): the row is "
                    "wider than the Sheep row", line=no, column=col)
            i = by_offset.get(off)
            if i is None:
                raise ParseError(
                    f"mark '{ch}' is not under an animal of the Sheep row (between "
                    f"{_between(off, columns, animals)})", line=no, column=col)
            a = animals[i]
            if ch in "xw":
                if ch == "w" and status[i] is Status.DEAD:
                    raise ParseError(f"'w' under {a}: identities are not revealed "
                                     "(no_reveal), so every victim is marked x (M25)",
                                     line=no, column=col)
                if ch == "w" and status[i] is not Status.DEAD_WOLF:
                    shown = "x" if status[i].dead else "e" if status[i] is Status.ESCAPED \
                        else a
                    raise ParseError(f"'w' under {a}, whose Sheep-row mark is '{shown}': "
                                     "a Round row marks a victim as the Sheep row does "
                                     "(w only for a dead wolf, M25)", line=no, column=col)
                if victim is not None:
                    raise ParseError(f"two victims in round {rnd}: {victim} and {a}",
                                     line=no, column=col)
                if a in died_in:
                    raise ParseError(f"victim {a} was already eaten in round {died_in[a]}",
                                     line=no, column=col)
                if status[i] is Status.ESCAPED:
                    raise ParseError(f"victim {a} is marked escaped (e) in the Sheep row",
                                     line=no, column=col)
                if not status[i].dead:
                    raise ParseError(f"victim {a} is shown alive in the Sheep row",
                                     line=no, column=col)
                victim = a
            else:
                if a in died_in:
                    raise ParseError(f"runner {a} was already eaten in round {died_in[a]}",
                                     line=no, column=col)
                runners.add(a)
        if victim is None:
            raise ParseError(f"round {rnd} has no victim (x or w)", line=no,
                             column=colon + 1)
        if not runners:
            raise ParseError(f"round {rnd} has no runner (+): the killer always runs",
                             line=no, column=colon + 1)
        died_in[victim] = rnd
        rows.append(ChartRow(rnd, victim, frozenset(runners)))
    return rows


def _between(off: int, columns: list[int], animals: str) -> str:
    left = max((i for i, c in enumerate(columns) if c < off), default=None)
    right = min((i for i, c in enumerate(columns) if c > off), default=None)
    if left is None:
        return f"the colon and {animals[0]}"
    if right is None:
        return f"{animals[left]} and the end"
    return f"{animals[left]} and {animals[right]}"


def _check_board(pic: BoardPicture, animals: str, status: list[Status], first_line: int) -> None:
    """The animals drawn on the board are exactly the living animals of the chart."""
    alive = {a for a, s in zip(animals, status, strict=True) if s is Status.ALIVE}
    drawn = set(pic.animals)
    if drawn - alive:
        extra = ", ".join(sorted(drawn - alive))
        raise ParseError(f"the board shows {extra}, which the Sheep row does not list as alive",
                         line=first_line)
    if alive - drawn:
        missing = ", ".join(sorted(alive - drawn))
        raise ParseError(f"{missing} alive in the Sheep row but missing from the board",
                         line=first_line)


# ---- JSON ------------------------------------------------------------------------------------

_STATUS_BY_VALUE = {s.value: s for s in Status}


def chart_from_json(data: dict[str, Any], *, reveal: bool = True, path: str = "") -> Chart:
    """Rebuild a Chart from `Chart.to_json()` output (the object at field `path`), with strict
    types (each error names its field), then check it as the paste reader would."""
    from fleece.rules.mutton.geometry import board as board_of_size
    from fleece.rules.text import (
        json_dict,
        json_int,
        json_list,
        json_str,
        json_strings,
        json_type,
        quote,
    )

    def name(key: str) -> str:
        return f"{path}.{key}" if path else key

    animals = json_str(data, "animals", path)
    if not 2 <= len(animals) <= 26 or animals != ALPHABET[:len(animals)]:
        raise ParseError(f"field {quote(name('animals'))} must be the letters A, B, ... "
                         "(2..26 of them)")
    status_in = json_dict(data, "status", path, default={})
    for key in status_in:
        if key not in animals:
            raise ParseError(f"field {quote(name('status'))}: {quote(key)} is not an animal")
    status: list[Status] = []
    for a in animals:
        val = status_in.get(a, "alive")
        st = _STATUS_BY_VALUE.get(val) if isinstance(val, str) else None
        if st is None:
            raise ParseError(f"field {quote(name('status.' + a))} must be one of "
                             f"{', '.join(sorted(_STATUS_BY_VALUE))}, got "
                             f"{quote(val) if isinstance(val, str) else json_type(val)}")
        if not reveal and st in (Status.DEAD_SHEEP, Status.DEAD_WOLF):
            st = Status.DEAD
        status.append(st)
    rows: list[ChartRow] = []
    for i, r in enumerate(json_list(data, "rows", path, default=[])):
        where = f"{name('rows')}[{i}]"
        if not isinstance(r, dict):
            raise ParseError(f"field {quote(where)} must be an object, got {json_type(r)}")
        rnd = json_int(r, "round", where, lo=1, hi=MAX_ROUND)
        victim = json_str(r, "victim", where)
        runners = json_strings(json_list(r, "runners", where), f"{where}.runners")
        for who, letter in [("victim", victim), *(("runners", x) for x in runners)]:
            if letter not in animals:
                raise ParseError(f"field {quote(f'{where}.{who}')}: {quote(letter)} is not "
                                 "an animal")
        if len(set(runners)) != len(runners):
            raise ParseError(f"field {quote(f'{where}.runners')} names an animal twice")
        rows.append(ChartRow(rnd, victim, frozenset(runners)))
    pic = None
    board_in = json_dict(data, "board", path, default=None)
    if board_in is not None:
        where = name("board")
        size = json_int(board_in, "size", where, lo=2, hi=8)
        b = board_of_size(size)
        def cell(text: str, field: str) -> Cell:
            try:
                return b.cell(text)
            except ParseError as exc:
                raise ParseError(f"field {quote(field)}: {exc.message}") from None

        cells = json_dict(board_in, "animals", where, default={})
        pos: dict[str, Cell] = {}
        for a, c in cells.items():
            if a not in animals or not isinstance(c, str):
                raise ParseError(f"field {quote(where + '.animals')}: expected animal -> cell "
                                 f"name, got {quote(a)}")
            pos[a] = cell(c, f"{where}.animals.{a}")
        corpse_names = json_strings(json_list(board_in, "corpses", where, default=[]),
                                    where + ".corpses")
        corpses = [cell(c, f"{where}.corpses") for c in corpse_names]
        taken = list(pos.values()) + corpses
        if len(set(taken)) != len(taken):
            raise ParseError(f"field {quote(where)}: two things stand on one cell")
        pic = BoardPicture(size, pos, frozenset(corpses))
    score = json_int(data, "score", path, default=None, lo=0, hi=99)
    to_beat = json_int(data, "to_beat", path, default=None, lo=0, hi=99)
    if to_beat is not None and score is None:
        raise ParseError(f"field {quote(name('to_beat'))} without a score")
    chart = Chart(animals, tuple(status), tuple(rows), reveal=reveal, board=pic, score=score,
                  to_beat=to_beat)
    # Re-read through the pbmserv reader, which checks rows, victims, runners and the board.
    try:
        return parse_chart(render_paste(chart), reveal=reveal)
    except ParseError as exc:
        raise ParseError(f"the JSON chart{' ' + quote(path) if path else ''} is not valid: "
                         f"{exc.message}") from None
