"""Hexagonal board geometry with pbmserv cell names (docs/rules.md M1-M3).

A board of `size` n has 2n-1 rows `a`, `b`, ... from top to bottom. Within a row a cell is
named by the "/" diagonal it lies on: row r (0-based) holds diagonals 1..n+r when r < n and
r-n+2..2n-1 otherwise. Cells are small immutable values; a `Board` precomputes names,
neighbour sets and indices so that move generation is cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from fleece.rules.errors import ParseError, RulesError

MIN_SIZE = 2
MAX_SIZE = 8
ROW_LETTERS = "abcdefghijklmno"

_CELL_RE = re.compile(r"^([a-o])([1-9][0-9]?)$")


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """One cell: 0-based row and 1-based diagonal, exactly as pbmserv names it (`c5`)."""

    row: int
    diag: int

    @property
    def name(self) -> str:
        """pbmserv name such as `a1` or `g7`."""
        return f"{ROW_LETTERS[self.row]}{self.diag}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Cell({self.name})"


def diagonal_range(size: int, row: int) -> range:
    """The diagonals present in `row` of a board of `size` (M2)."""
    if row < size:
        return range(1, size + row + 1)
    return range(row - size + 2, 2 * size)


class Board:
    """The geometry of one board size: cells in reading order, names, neighbours (M1-M3)."""

    def __init__(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise RulesError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.size = size
        self.rows = 2 * size - 1
        cells = [Cell(r, d) for r in range(self.rows) for d in diagonal_range(size, r)]
        self.cells: tuple[Cell, ...] = tuple(cells)
        self.index: dict[Cell, int] = {c: i for i, c in enumerate(cells)}
        self._by_name: dict[str, Cell] = {c.name: c for c in cells}
        nbrs: dict[Cell, frozenset[Cell]] = {}
        for c in cells:
            r, d = c.row, c.diag
            around = [(r, d - 1), (r, d + 1), (r - 1, d - 1), (r - 1, d),
                      (r + 1, d), (r + 1, d + 1)]
            nbrs[c] = frozenset(
                Cell(rr, dd) for rr, dd in around if self.contains_coords(rr, dd)
            )
        self._neighbours = nbrs

    def __repr__(self) -> str:
        return f"Board(size={self.size})"

    def __len__(self) -> int:
        return len(self.cells)

    def contains_coords(self, row: int, diag: int) -> bool:
        """True when (row, diag) is a cell of this board."""
        return 0 <= row < self.rows and diag in diagonal_range(self.size, row)

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, Cell) and self.contains_coords(cell.row, cell.diag)

    def neighbours(self, cell: Cell) -> frozenset[Cell]:
        """The up-to-six cells adjacent to `cell` (M3)."""
        return self._neighbours[cell]

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """True when `a` and `b` share an edge."""
        return b in self._neighbours[a]

    def cell(self, name: str) -> Cell:
        """Parse a pbmserv cell name (`d4`); ParseError when it is not on this board."""
        text = name.strip().lower()
        found = self._by_name.get(text)
        if found is None:
            if _CELL_RE.match(text):
                raise ParseError(f"cell '{name}' is not on a size-{self.size} board")
            raise ParseError(f"'{name}' is not a cell name (expected a row letter and a number)")
        return found

    def row_cells(self, row: int) -> tuple[Cell, ...]:
        """The cells of one row, left to right."""
        return tuple(Cell(row, d) for d in diagonal_range(self.size, row))


@cache
def board(size: int) -> Board:
    """The shared `Board` of a size (boards are immutable, so one per size suffices)."""
    return Board(size)
