"""The pbmserv board diagram and score line: render and parse (M2, M27).

The diagram draws row letters on the left (`a-`), cells two columns apart with each row
shifted half a cell, and on the upper right the "/" diagonal numbers. Cells show an animal
letter, `.` for empty or `*` for a corpse. `render_board` reproduces the help page's layout
column for column; `parse_board` reads it back from a paste (non-breaking spaces included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fleece.rules.errors import ParseError
from fleece.rules.mutton.geometry import ROW_LETTERS, Board, Cell, board, diagonal_range
from fleece.rules.text import is_ascii_digits, whole_number

NBSP_CHARS = "\u00a0\u2007\u202f"
_SPACE_TABLE = {ord(c): " " for c in NBSP_CHARS}


def normalize_spaces(line: str) -> str:
    """Turn non-breaking spaces into plain ones and expand tabs (to 8), keeping columns."""
    return line.translate(_SPACE_TABLE).expandtabs(8).rstrip("\r\n")


@dataclass(frozen=True)
class BoardPicture:
    """What a board diagram shows: its size, the animal on each cell, the corpse cells."""

    size: int
    animals: dict[str, Cell]
    corpses: frozenset[Cell]

    def __hash__(self) -> int:
        return hash((self.size, tuple(sorted(self.animals.items())), self.corpses))


def _x(size: int, row: int, diag: int) -> int:
    """Column of a cell's character; the widest row's label sits at column 4 as on pbmserv."""
    return size + 7 - row + 2 * (diag - 1)


def render_board(size: int, animals: dict[str, Cell], corpses: frozenset[Cell] = frozenset()
                 ) -> str:
    """The pbmserv diagram of a position (no trailing spaces)."""
    b = board(size)
    at = {c: a for a, c in animals.items()}
    rows = b.rows
    top = 3  # lines above row a: labels and slashes of the upper diagonals
    grid: list[list[str]] = [[] for _ in range(top + rows)]

    def put(line: int, col: int, text: str) -> None:
        row = grid[line]
        if len(row) < col + len(text):
            row.extend(" " * (col + len(text) - len(row)))
        for k, ch in enumerate(text):
            row[col + k] = ch

    for r in range(rows):
        line = top + r
        first = diagonal_range(size, r)[0]
        put(line, _x(size, r, first) - 4, f"{ROW_LETTERS[r]}-")
        for d in diagonal_range(size, r):
            c = Cell(r, d)
            put(line, _x(size, r, d), at.get(c, "*" if c in corpses else "."))
    for d in range(1, 2 * size):
        r_top = max(0, d - size)
        line = top + r_top
        x = _x(size, r_top, d)
        put(line - 2, x + 2, "/")
        put(line - 3, x + 3, str(d))
    return "\n".join("".join(row).rstrip() for row in grid)


def render_score(score: int, to_beat: int | None = None) -> str:
    """`Score: 5 (10 to beat).` or `Score: 5.`"""
    return f"Score: {score} ({to_beat} to beat)." if to_beat is not None else f"Score: {score}."


# Lines are normalised first (non-breaking spaces become spaces, tabs are expanded), so the
# only blank character left is the space: any other one is an error where it stands.
_ROW_RE = re.compile(r"^ *([a-o])- ")
_SCORE_RE = re.compile(r"^ *Score: *([0-9]+) *(?:\( *([0-9]+) +to +beat *\))? *\.? *$",
                       re.IGNORECASE | re.ASCII)
MAX_SCORE = 99  # 26 animals: at most 25 dead sheep plus 3 per escaped wolf


def is_board_row(line: str) -> bool:
    """True for a diagram row such as `   d-  L . M . N . O`."""
    return bool(_ROW_RE.match(normalize_spaces(line)))


def is_label_line(line: str) -> bool:
    """True for the diagonal-number lines above the diagram (`1 2 3 4`, `/ / / / 5`)."""
    tokens = [tok for tok in normalize_spaces(line).split(" ") if tok]
    return bool(tokens) and all(tok == "/" or is_ascii_digits(tok) for tok in tokens)


def parse_score(line: str, lineno: int | None = None) -> tuple[int, int | None] | None:
    """(score, to beat) from `Score: 5 (10 to beat).`; None when the line is not a score line;
    ParseError when it starts like one but is malformed."""
    text = normalize_spaces(line)
    if not text.lstrip(" ").lower().startswith("score"):
        return None
    m = _SCORE_RE.match(text)
    if not m:
        raise ParseError("malformed score line (expected 'Score: N (M to beat).')",
                         line=lineno, column=1)
    score = whole_number(m.group(1), "the score", hi=MAX_SCORE, line=lineno,
                         column=m.start(1) + 1)
    if m.group(2) is None:
        return score, None
    return score, whole_number(m.group(2), "the score to beat", hi=MAX_SCORE, line=lineno,
                               column=m.start(2) + 1)


def parse_board(lines: list[tuple[int, str]]) -> BoardPicture:
    """Parse diagram rows given as (line number, text); the row count fixes the size."""
    n_rows = len(lines)
    if n_rows % 2 == 0 or not 3 <= n_rows <= 15:
        first = lines[0][0] if lines else None
        raise ParseError(f"a board diagram has an odd number of rows (3..15), got {n_rows}",
                         line=first)
    size = (n_rows + 1) // 2
    b: Board = board(size)
    animals: dict[str, Cell] = {}
    corpses: set[Cell] = set()
    for r, (lineno, raw) in enumerate(lines):
        text = normalize_spaces(raw)
        m = _ROW_RE.match(text)
        assert m is not None
        if m.group(1) != ROW_LETTERS[r]:
            raise ParseError(f"expected board row '{ROW_LETTERS[r]}', found '{m.group(1)}'",
                             line=lineno, column=m.start(1) + 1)
        tokens = [(mm.start() + 1, mm.group(0)) for mm in re.finditer(r"[^ ]+", text[m.end():])]
        cells: list[tuple[int, str]] = []
        for col, tok in tokens:
            if tok == "/":
                break
            cells.append((col + m.end(), tok))
        want = list(b.row_cells(r))
        if len(cells) != len(want):
            raise ParseError(
                f"board row {ROW_LETTERS[r]} has {len(cells)} cells, a size-{size} board has "
                f"{len(want)} in that row", line=lineno, column=m.start(1) + 1)
        for (col, tok), cell in zip(cells, want, strict=True):
            if tok == ".":
                continue
            if tok == "*":
                corpses.add(cell)
            elif len(tok) == 1 and "A" <= tok <= "Z":
                if tok in animals:
                    raise ParseError(f"animal {tok} stands twice on the board", line=lineno,
                                     column=col)
                animals[tok] = cell
            else:
                raise ParseError(f"'{tok}' is not a cell mark (a letter, '.' or '*')",
                                 line=lineno, column=col)
    return BoardPicture(size, animals, frozenset(corpses))
