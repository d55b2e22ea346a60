"""Starting layouts (M5): sparse, seeded random, explicit cell list; mirror is resolved by the
match, which knows the first game's layout."""

from __future__ import annotations

import random

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.geometry import Board, Cell, board

# The rulebook's recommended layout (size 4, 26 animals), A..Z in order (docs/rules.md M5).
SPARSE_CELLS = (
    "a1", "a2", "a3", "a4", "b1", "b3", "b5", "c1", "c2", "c5", "c6", "d1", "d3",
    "d5", "d7", "e2", "e3", "e6", "e7", "f3", "f5", "f7", "g4", "g5", "g6", "g7",
)


def sparse_layout(size: int, num_animals: int) -> tuple[Cell, ...]:
    """The sparse layout; it is defined only for the default board and 26 animals."""
    if size != 4 or num_animals != len(SPARSE_CELLS):
        raise IllegalMoveError(
            f"the sparse layout is defined for size 4 with 26 animals, not size {size} "
            f"with {num_animals}"
        )
    b = board(4)
    return tuple(b.cell(name) for name in SPARSE_CELLS)


def random_layout(size: int, num_animals: int, seed: int | None) -> tuple[Cell, ...]:
    """A uniformly random placement, reproducible from `seed` (None means seed 0)."""
    b = board(size)
    rng = random.Random(0 if seed is None else seed)
    return tuple(rng.sample(b.cells, num_animals))


def check_cells(b: Board, cells: tuple[Cell, ...], num_animals: int) -> None:
    """An explicit layout names one distinct board cell per animal."""
    if len(cells) != num_animals:
        raise IllegalMoveError(f"the layout lists {len(cells)} cells for {num_animals} animals")
    seen: set[Cell] = set()
    for c in cells:
        if c not in b:
            raise IllegalMoveError(f"cell {c.name} is not on a size-{b.size} board")
        if c in seen:
            raise IllegalMoveError(f"cell {c.name} is used twice in the layout")
        seen.add(c)
