"""The 33-point cross of Ulvtafl (U1, U8): point names, lines, the paddock and the setups.

Points are numbered 0..32 rank by rank from the sheep's home edge (rank 1) up to the far edge
of the paddock arm (rank 7), files a..g left to right within a rank. A set of points is an
int bit mask (bit i = point i), which keeps positions small, hashable and fast to compare.
"""

from __future__ import annotations

from dataclasses import dataclass

FILES = "abcdefg"
RANKS = 7
ORTHOGONAL_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL_DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def exists(file: int, rank: int) -> bool:
    """U8: a point exists when its file is c-e or its rank is 3-5 (file a=0, rank 1-based)."""
    return 0 <= file < 7 and 1 <= rank <= 7 and (2 <= file <= 4 or 3 <= rank <= 5)


COORDS: tuple[tuple[int, int], ...] = tuple(
    (f, r) for r in range(1, RANKS + 1) for f in range(7) if exists(f, r))
NUM_POINTS = len(COORDS)
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
NAMES: tuple[str, ...] = tuple(f"{FILES[f]}{r}" for f, r in COORDS)
BY_NAME: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
ALL = (1 << NUM_POINTS) - 1


def rank_of(point: int) -> int:
    """The rank (1..7) of a point."""
    return COORDS[point][1]


def is_diagonal_point(point: int) -> bool:
    """U8: diagonal lines pass through the points whose file index plus rank is odd."""
    f, r = COORDS[point]
    return (f + r) % 2 == 1


DIAGONAL_POINTS = tuple(p for p in range(NUM_POINTS) if is_diagonal_point(p))


def mask(points: object) -> int:
    """The bit mask of an iterable of point indices."""
    m = 0
    for p in points:  # type: ignore[attr-defined]
        m |= 1 << p
    return m


def points_of(m: int) -> list[int]:
    """The point indices of a bit mask, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def names_of(m: int) -> list[str]:
    """The point names of a bit mask."""
    return [NAMES[p] for p in points_of(m)]


# the most king steps between two points (a4 to g4): a focus radius this large covers all
KING_DIAMETER = max(max(abs(f - g), abs(r - q)) for f, r in COORDS for g, q in COORDS)
PADDOCK_NAMES = ("c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7")
PADDOCK = mask(BY_NAME[n] for n in PADDOCK_NAMES)  # U2, U8: the 9-point paddock


def neighbour(point: int, d: tuple[int, int]) -> int | None:
    """The point one step from `point` in direction `d` along a line of the full board
    (diagonal lines only through diagonal points), or None."""
    f, r = COORDS[point]
    target = (f + d[0], r + d[1])
    if target not in INDEX:
        return None
    if d[0] != 0 and d[1] != 0 and not is_diagonal_point(point):
        return None
    return INDEX[target]


@dataclass(frozen=True)
class Step:
    """A line segment leaving a point: where it goes and whether it is diagonal."""

    to: int
    dx: int
    dy: int

    @property
    def diagonal(self) -> bool:
        """True for a diagonal segment."""
        return self.dx != 0 and self.dy != 0


def _steps(point: int) -> tuple[Step, ...]:
    out = []
    for d in ORTHOGONAL_DIRS + DIAGONAL_DIRS:
        q = neighbour(point, d)
        if q is not None:
            out.append(Step(q, d[0], d[1]))
    return tuple(out)


STEPS: tuple[tuple[Step, ...], ...] = tuple(_steps(p) for p in range(NUM_POINTS))


@dataclass(frozen=True)
class Jump:
    """A capture line: from a point over `over` onto `to`, straight along one line."""

    over: int
    to: int
    diagonal: bool


def _jumps(point: int) -> tuple[Jump, ...]:
    out = []
    for s in STEPS[point]:
        beyond = neighbour(s.to, (s.dx, s.dy))
        if beyond is not None:
            out.append(Jump(s.to, beyond, s.diagonal))
    return tuple(out)


JUMPS: tuple[tuple[Jump, ...], ...] = tuple(_jumps(p) for p in range(NUM_POINTS))


def segments(diagonals: bool = True) -> list[tuple[int, int]]:
    """Every line segment (p < q) of the board; diagonal ones only when `diagonals`."""
    out = []
    for p in range(NUM_POINTS):
        for s in STEPS[p]:
            if p < s.to and (diagonals or not s.diagonal):
                out.append((p, s.to))
    return out


def ranks_mask(*ranks: int) -> int:
    """Every point on the given ranks."""
    return mask(p for p in range(NUM_POINTS) if rank_of(p) in ranks)


def named(*names: str) -> int:
    """The mask of named points."""
    return mask(BY_NAME[n] for n in names)


# U9: the setups (sheep masks) and the default wolf points.
SETUP_SHEEP: dict[int, int] = {
    20: ranks_mask(1, 2, 3, 4),
    13: ranks_mask(1, 2, 3),
    15: ranks_mask(1, 2, 3) | named("a4", "g4"),
    17: ranks_mask(1, 2, 3) | named("a4", "b4", "f4", "g4"),
}
DEFAULT_WOLVES: dict[int, tuple[str, ...]] = {
    20: ("c7", "e7"), 13: ("d7",), 15: ("d7",), 17: ("d7",)}
MIN_SHEEP = 9  # U5, U9: fewer than 9 sheep left is a wolf win in every setup
