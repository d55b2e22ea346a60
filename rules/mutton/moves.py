"""Mutton moves as small immutable values, and their pbmserv notation (M28).

Notation (one move per token, no spaces):

| move                          | text                    |
|-------------------------------|-------------------------|
| placement                     | `sparse`, `random`, `random=7`, `mirror`, `f3,b2,a3,...` |
| the Wolf's secret choice      | `wolves=HIDE`           |
| kill with runners             | `K:L-a2,E-f4`           |
| escape (Wolf) / shot (Farmer) | `G`                     |
| shotgun shot with runners     | `G:L-a2,E-f4`           |
| berserk volley                | `G,A,X`                 |
| pass (either side)            | `pass`                  |

`parse_move(format_move(m)) == m` for every move. A single letter is an escape when the Wolf
is to move and a shot when the Farmer is: the text is the same, so the parser takes the side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from fleece.rules.errors import ParseError
from fleece.rules.mutton.geometry import Board, Cell
from fleece.rules.text import quote, whole_number


class Side(Enum):
    """Who makes a move."""

    FARMER = "Farmer"
    WOLF = "Wolf"


@dataclass(frozen=True, slots=True)
class Run:
    """One runner's destination: animal letter and the cell it runs to."""

    animal: str
    to: Cell


@dataclass(frozen=True, slots=True)
class PlaceSparse:
    """The Farmer uses the rulebook's sparse layout (M5)."""


@dataclass(frozen=True, slots=True)
class PlaceRandom:
    """The Farmer places the animals at random; `seed` makes the layout reproducible."""

    seed: int | None = None


@dataclass(frozen=True, slots=True)
class PlaceMirror:
    """The Farmer reuses the first game's layout in the second game of a match (M5)."""


@dataclass(frozen=True, slots=True)
class PlaceCells:
    """The Farmer places the animals A, B, ... on these cells, in order (M5, M28)."""

    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class ChooseWolves:
    """The Wolf's secret choice of wolves (M6), as a sorted string of letters."""

    letters: str


@dataclass(frozen=True, slots=True)
class Kill:
    """The Wolf eats `victim`; every neighbour runs to the given cells (M8-M9)."""

    victim: str
    runs: tuple[Run, ...]


@dataclass(frozen=True, slots=True)
class Escape:
    """An isolated hidden wolf leaves the board for 3 points (M12)."""

    animal: str


@dataclass(frozen=True, slots=True)
class WolfPass:
    """The Wolf passes: allowed only when no legal kill exists (M11)."""


@dataclass(frozen=True, slots=True)
class Shoot:
    """The Farmer shoots one animal; with the shotgun its neighbours run (M13, M17)."""

    target: str
    runs: tuple[Run, ...] = ()


@dataclass(frozen=True, slots=True)
class Berserk:
    """The Farmer shoots two or more animals at once; the game ends (M13, M15)."""

    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FarmerPass:
    """The Farmer does nothing: not allowed right after a Wolf pass (M13-M14)."""


Placement = PlaceSparse | PlaceRandom | PlaceMirror | PlaceCells
WolfMove = Kill | Escape | WolfPass
FarmerMove = Shoot | Berserk | FarmerPass
Move = Placement | ChooseWolves | WolfMove | FarmerMove

_LETTER_RE = re.compile(r"[A-Z]")  # always used with fullmatch
_RUN_RE = re.compile(r"([A-Z])-([a-o][0-9]{1,2})")
MAX_SEED_DIGITS = 18


def format_runs(runs: tuple[Run, ...]) -> str:
    """`L-a2,E-f4`."""
    return ",".join(f"{r.animal}-{r.to.name}" for r in runs)


def format_move(move: Move) -> str:
    """The pbmserv text of a move (see the module table)."""
    match move:
        case PlaceSparse():
            return "sparse"
        case PlaceRandom(seed=None):
            return "random"
        case PlaceRandom(seed=seed):
            return f"random={seed}"
        case PlaceMirror():
            return "mirror"
        case PlaceCells(cells=cells):
            return ",".join(c.name for c in cells)
        case ChooseWolves(letters=letters):
            return f"wolves={letters}"
        case Kill(victim=victim, runs=runs):
            return f"{victim}:{format_runs(runs)}"
        case Escape(animal=animal):
            return animal
        case Shoot(target=target, runs=()):
            return target
        case Shoot(target=target, runs=runs):
            return f"{target}:{format_runs(runs)}"
        case Berserk(targets=targets):
            return ",".join(targets)
        case WolfPass() | FarmerPass():
            return "pass"
    raise TypeError(f"not a Mutton move: {move!r}")  # pragma: no cover


def _parse_runs(text: str, board: Board, column: int, line: int | None) -> tuple[Run, ...]:
    runs: list[Run] = []
    offset = column
    for part in text.split(","):
        m = _RUN_RE.fullmatch(part)
        if not m:
            raise ParseError(
                f"{quote(part)} is not a runner move (expected LETTER-cell such as L-a2)",
                line=line, column=offset,
            )
        try:
            cell = board.cell(m.group(2))
        except ParseError as exc:
            raise ParseError(exc.message, line=line, column=offset + 2) from None
        runs.append(Run(m.group(1), cell))
        offset += len(part) + 1
    return tuple(runs)


def parse_move(
    text: str,
    board: Board,
    side: Side | None,
    *,
    line: int | None = None,
    column: int = 1,
) -> Move:
    """Parse one move token. `side` decides whether a lone letter is an escape (Wolf) or a
    shot (Farmer) and whether `pass` is the Wolf's or the Farmer's; None means the game is in
    its set-up and only placements or the wolf choice are expected."""
    token = text.strip(" ")
    low = token.lower()
    if not token:
        raise ParseError("empty move", line=line, column=column)
    if low == "sparse":
        return PlaceSparse()
    if low == "mirror":
        return PlaceMirror()
    if low == "random":
        return PlaceRandom()
    if low.startswith("random="):
        seed = token.split("=", 1)[1]
        return PlaceRandom(whole_number(seed, "the random seed", max_digits=MAX_SEED_DIGITS,
                                        line=line, column=column + 7))
    if low.startswith("wolves="):
        letters = token.split("=", 1)[1]
        if not letters.isalpha() or not letters.isupper() or not letters.isascii():
            raise ParseError(f"wolf letters must be capitals A-Z, got {quote(letters)}",
                             line=line, column=column + 7)
        if len(set(letters)) != len(letters):
            raise ParseError(f"a wolf is named twice in {quote(letters)}", line=line,
                             column=column + 7)
        return ChooseWolves("".join(sorted(letters)))
    if low == "pass":
        if side is None:
            raise ParseError("'pass' is not a set-up move", line=line, column=column)
        return WolfPass() if side is Side.WOLF else FarmerPass()
    if token[0].islower():
        cells: list[Cell] = []
        offset = column
        for part in token.split(","):
            try:
                cells.append(board.cell(part))
            except ParseError as exc:
                raise ParseError(exc.message, line=line, column=offset) from None
            offset += len(part) + 1
        return PlaceCells(tuple(cells))
    if ":" in token:
        head, _, tail = token.partition(":")
        if not _LETTER_RE.fullmatch(head):
            raise ParseError(f"{quote(head)} is not an animal letter", line=line,
                             column=column)
        runs = _parse_runs(tail, board, column + len(head) + 1, line) if tail else ()
        if side is Side.WOLF:
            if not runs:
                raise ParseError("a kill lists its runners (K:L-a2,...)", line=line,
                                 column=column)
            return Kill(head, runs)
        if side is Side.FARMER:
            return Shoot(head, runs)
        raise ParseError("a kill or shot before the game has started", line=line, column=column)
    parts = token.split(",")
    offset = column
    for part in parts:
        if not _LETTER_RE.fullmatch(part):
            raise ParseError(f"{quote(part)} is not an animal letter or a move", line=line,
                             column=offset)
        offset += len(part) + 1
    if side is None:
        raise ParseError(f"{quote(token)} is not a set-up move (placement or wolves=...)",
                         line=line, column=column)
    if len(parts) == 1:
        return Escape(token) if side is Side.WOLF else Shoot(token)
    if side is Side.WOLF:
        raise ParseError("the Wolf cannot make a berserk volley", line=line, column=column)
    if len(set(parts)) != len(parts):
        raise ParseError(f"an animal is shot twice in {quote(token)}", line=line,
                         column=column)
    return Berserk(tuple(parts))
