"""Board geometry (M1-M3): cell counts, pbmserv names, and neighbours checked against an
independent axial-coordinate model of the hexagon."""

from __future__ import annotations

import pytest

from fleece.rules.errors import ParseError, RulesError
from fleece.rules.mutton.geometry import Board, Cell, board


@pytest.mark.parametrize("size", range(2, 9))
def test_m1_cell_count(size: int) -> None:
    assert len(board(size)) == 3 * size * (size - 1) + 1


def test_m2_size4_names_exactly() -> None:
    names = [c.name for c in board(4).cells]
    expected = (
        [f"a{d}" for d in range(1, 5)] + [f"b{d}" for d in range(1, 6)]
        + [f"c{d}" for d in range(1, 7)] + [f"d{d}" for d in range(1, 8)]
        + [f"e{d}" for d in range(2, 8)] + [f"f{d}" for d in range(3, 8)]
        + [f"g{d}" for d in range(4, 8)]
    )
    assert names == expected


def _axial(size: int, c: Cell) -> tuple[int, int, int]:
    """Cube coordinates of a cell, derived separately from the module: the row is one axis and
    diag - row the other, both centred on the middle cell (row size-1, diagonal size)."""
    q = c.diag - c.row - 1
    r = c.row - (size - 1)
    return q, r, -q - r


@pytest.mark.parametrize("size", range(2, 9))
def test_m3_neighbours_are_cube_distance_one(size: int) -> None:
    b = board(size)
    for a in b.cells:
        qa = _axial(size, a)
        assert max(abs(x) for x in qa) <= size - 1, f"{a} lies outside the hexagon"
        for c in b.cells:
            qc = _axial(size, c)
            dist = max(abs(x - y) for x, y in zip(qa, qc, strict=True))
            assert b.adjacent(a, c) == (dist == 1), (a, c)


@pytest.mark.parametrize("size", range(2, 9))
def test_m3_edge_count_and_degrees(size: int) -> None:
    b = board(size)
    degrees = [len(b.neighbours(c)) for c in b.cells]
    assert sum(degrees) // 2 == 3 * (3 * size * size - 5 * size + 2)
    assert sorted(set(degrees)) == ([3, 6] if size == 2 else [3, 4, 6])
    assert degrees.count(3) == 6  # the six corners


def test_m3_named_neighbours_of_d4_and_corner() -> None:
    b = board(4)
    assert {c.name for c in b.neighbours(b.cell("d4"))} == {"c3", "c4", "d3", "d5", "e4", "e5"}
    assert {c.name for c in b.neighbours(b.cell("a1"))} == {"a2", "b1", "b2"}
    assert {c.name for c in b.neighbours(b.cell("g7"))} == {"g6", "f6", "f7"}


def test_cell_parsing_errors() -> None:
    b = board(4)
    assert b.cell(" D4 ") == Cell(3, 4)
    with pytest.raises(ParseError, match="not on a size-4 board"):
        b.cell("a5")
    with pytest.raises(ParseError, match="not a cell name"):
        b.cell("zz")
    with pytest.raises(RulesError):
        Board(9)
