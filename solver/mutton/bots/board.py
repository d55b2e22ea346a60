"""Public positions for the robots: who stands where, the corpses, and the kills that are
possible for some wolf set (M8-M10), from the board geometry alone.

The rules model (rules.mutton.game) answers the same questions for a whole game state; this
module answers them without loading it (the chart advice of `fleece mutton solve` must start
fast) and with bit masks over cells, because the robots' searches ask them thousands of times.
The tests check every answer against the rules model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING

from fleece.rules.mutton.geometry import Cell, board

if TYPE_CHECKING:
    from fleece.rules.mutton.diagram import BoardPicture

NOWHERE = -1  # the cell of an animal that is not on the board (dead or escaped)


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board size: its cells in reading order and each cell's neighbours as a bit mask."""

    size: int
    cells: tuple[Cell, ...]
    neighbours: tuple[int, ...]

    @property
    def all(self) -> int:
        """The mask of every cell."""
        return (1 << len(self.cells)) - 1


@cache
def geometry(size: int) -> Geometry:
    """The geometry of a board size (rules.mutton.geometry), as cell masks."""
    b = board(size)
    nbrs = tuple(sum(1 << b.index[n] for n in b.neighbours(c)) for c in b.cells)
    return Geometry(size, b.cells, nbrs)


@dataclass(frozen=True)
class KillOption:
    """A kill that some wolf set could make: the victim, its living neighbours (who must run,
    and among whom the killer is), and the free cells they may run to (M9)."""

    victim: int
    runners: tuple[int, ...]
    free: int  # cell mask

    @property
    def free_cells(self) -> tuple[int, ...]:
        """The free cells, as cell indices in reading order."""
        out = []
        m = self.free
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return tuple(out)


@dataclass(frozen=True)
class Position:
    """Where every animal stands (`cells[a]`, NOWHERE when it is off the board), the corpse
    cells, and whether corpses are removed at the end of each move (M16, M17)."""

    size: int
    cells: tuple[int, ...]
    corpses: int = 0
    remove: bool = False

    @classmethod
    def from_picture(cls, picture: BoardPicture, animals: str, remove: bool = False
                     ) -> Position:
        """The position a pasted board diagram shows."""
        geo = board(picture.size)
        cells = tuple(geo.index[picture.animals[a]] if a in picture.animals else NOWHERE
                      for a in animals)
        corpses = sum(1 << geo.index[c] for c in picture.corpses)
        return cls(picture.size, cells, corpses, remove)

    @property
    def geometry(self) -> Geometry:
        """The board's geometry."""
        return geometry(self.size)

    @property
    def living(self) -> tuple[int, ...]:
        """The animals on the board."""
        return tuple(a for a, c in enumerate(self.cells) if c != NOWHERE)

    @property
    def occupied(self) -> int:
        """The mask of occupied cells."""
        out = 0
        for c in self.cells:
            if c != NOWHERE:
                out |= 1 << c
        return out

    def occupants(self, cells: int) -> tuple[int, ...]:
        """The animals standing on the cells of a mask, in animal order."""
        return tuple(a for a, c in enumerate(self.cells) if c != NOWHERE and cells >> c & 1)

    @cached_property
    def threats(self) -> tuple[int, ...]:
        """Each animal's number of living neighbours (0 off the board)."""
        return tuple(len(self.neighbours(a)) if c != NOWHERE else 0
                     for a, c in enumerate(self.cells))

    def neighbours(self, animal: int) -> tuple[int, ...]:
        """The living neighbours of a living animal."""
        return self.occupants(self.geometry.neighbours[self.cells[animal]])

    def free_around(self, animal: int) -> int:
        """The cells a runner from `animal`'s cell may take (M9): not that cell, not next to
        it, no corpse, no animal other than the runners (who all stand next to it)."""
        geo = self.geometry
        c = self.cells[animal]
        return geo.all & ~(1 << c) & ~geo.neighbours[c] & ~self.corpses & ~self.occupied

    def option(self, victim: int) -> KillOption:
        """The runners and free cells of a kill (or shotgun blast) of `victim`."""
        return KillOption(victim, self.neighbours(victim), self.free_around(victim))

    def kill_options(self) -> list[KillOption]:
        """Every kill that is legal for some wolf set: a living victim with a living
        neighbour (the possible killers) whose runners can all be placed (M8-M10)."""
        out = []
        for v in self.living:
            opt = self.option(v)
            if opt.runners and len(opt.runners) <= opt.free.bit_count():
                out.append(opt)
        return out

    def isolated(self) -> tuple[int, ...]:
        """Living animals with no living neighbour (the ones that could escape, M12)."""
        return tuple(a for a in self.living if not self.neighbours(a))

    def after_death(self, animal: int, runs: tuple[tuple[int, int], ...] = (),
                    corpse: bool = True) -> Position:
        """The position after `animal` dies on its cell (a corpse unless corpses are removed
        or `corpse` is false) and each (runner, cell) pair of `runs` has moved."""
        cells = list(self.cells)
        corpses = self.corpses
        if corpse and not self.remove:
            corpses |= 1 << cells[animal]
        cells[animal] = NOWHERE
        for a, c in runs:
            cells[a] = c
        return replace(self, cells=tuple(cells), corpses=corpses)

    def without(self, animals: tuple[int, ...], corpse: bool = True) -> Position:
        """The position after these animals leave the board (shot in a volley, escaped)."""
        cells = list(self.cells)
        corpses = self.corpses
        for a in animals:
            if corpse and not self.remove:
                corpses |= 1 << cells[a]
            cells[a] = NOWHERE
        return replace(self, cells=tuple(cells), corpses=corpses)
