"""The Farmer's tracking chart (M25-M27): derive it from a game, render it in pbmserv columns,
and read it back from pasted text.

pbmserv prints the chart as a `Sheep   :` row of animal letters (`x` a dead sheep, `w` a dead
wolf, `x` any dead animal without the reveal option) and one `Round  N:` row per kill with `x`
under the victim and `+` under each runner. Columns are fixed: the mark for the i-th animal
stands 2+2i characters right of the row's colon. fleece adds `e` for an escaped wolf (M12),
which the server's text does not show.

The reader takes whole pastes: an optional board diagram and score line, then the chart. Web
pages turn spaces into non-breaking ones; tabs expand to 8 columns; blank lines and trailing
spaces are ignored. Anything else that does not fit is a ParseError naming line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

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
from fleece.rules.mutton.game import Fate, GameState
from fleece.rules.mutton.options import ALPHABET


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
    """The chart in pbmserv columns (`Sheep   :` / `Round  N:`), no trailing spaces."""
    top = [a if s is Status.ALIVE else _MARK[s] for a, s in
           zip(chart.animals, chart.status, strict=True)]
    lines = ["Sheep   : " + " ".join(top)]
    for row in chart.rows:
        cells = []
        for a in chart.animals:
            cells.append("x" if a == row.victim else "+" if a in row.runners else " ")
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

_SHEEP_RE = re.compile(r"^\s*(sheep|animals?)\s*:", re.IGNORECASE)
_ROUND_RE = re.compile(r"^\s*(round|r)\s*(\d+)\s*:", re.IGNORECASE)


def parse_chart(text: str, *, reveal: bool = True, escaped: Iterable[str] = ()) -> Chart:
    """Read a pasted chart (optionally preceded by a board diagram and a score line).

    `reveal=False` reads `x` as "dead, identity unknown" (the server's no_reveal option).
    `escaped` names wolves known to have escaped (M12): the server's text may still print
    their letters in the Sheep row, but they are not on the board; such letters are read as
    escaped (letters shown dead keep their mark).
    """
    lines = text.splitlines()
    board_rows: list[tuple[int, str]] = []
    score: tuple[int, int | None] | None = None
    sheep: tuple[int, str] | None = None
    round_lines: list[tuple[int, str]] = []
    for no, raw in enumerate(lines, start=1):
        line = normalize_spaces(raw)
        if not line.strip():
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
            col = len(line) - len(line.lstrip()) + 1
            raise ParseError(
                "expected a board row, a 'Score:' line or the 'Sheep   :' row, found "
                f"'{line.strip()[:30]}'", line=no, column=col)
        if _ROUND_RE.match(line):
            round_lines.append((no, line))
            continue
        col = len(line) - len(line.lstrip()) + 1
        raise ParseError(f"expected a 'Round  N:' row, found '{line.strip()[:30]}'",
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
    marks = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", line[colon + 1:])]
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
            raise ParseError(f"'{tok}' is not one mark: the Sheep row has one character per "
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
        rnd = int(m.group(2))
        if rnd <= last_round:
            raise ParseError(f"round {rnd} follows round {last_round}: rounds must increase",
                             line=no, column=m.start(2) + 1)
        last_round = rnd
        colon = m.end() - 1
        victim: str | None = None
        runners: set[str] = set()
        for mm in re.finditer(r"\S", line[colon + 1:]):
            off = mm.start() + 1
            ch = mm.group(0)
            col = colon + 1 + mm.start() + 1
            if ch not in "x+":
                raise ParseError(f"unknown mark '{ch}' in a Round row (only x and +)",
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
            if ch == "x":
                if victim is not None:
                    raise ParseError(f"two victims in round {rnd}: {victim} and {a}",
                                     line=no, column=col)
                if a in died_in:
                    raise ParseError(f"victim {a} was already eaten in round {died_in[a]}",
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
            raise ParseError(f"round {rnd} has no victim (x)", line=no, column=colon + 1)
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
