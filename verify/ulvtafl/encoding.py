"""A Z3 encoding of Ulvtafl written from docs/rules.md section 3 alone (it imports nothing from
fleece.rules.ulvtafl): the board from U1/U8's coordinates, the paddock of U2/U8, the moves of
U3/U4/U6/U10 as relations over Boolean occupancy vectors, and U10's ordered end checks.

Points are numbered here file by file (a3, a4, a5, b3, ...), a different order from the
reference model's, and compared with it by name only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

FILES = "abcdefg"
WOLVES, SHEEP = 0, 1
MIN_SHEEP = 9  # U5


def on_board(f: int, r: int) -> bool:
    """U8: files c-e (2-4) or ranks 3-5 exist (file a=0, rank 1..7)."""
    return 0 <= f <= 6 and 1 <= r <= 7 and (2 <= f <= 4 or 3 <= r <= 5)


@dataclass(frozen=True)
class ModelRules:
    """The movement options of U1/U6 (the repetition rule U7 is about whole games)."""

    orthogonal: bool = False
    wolf_diagonal_captures_only: bool = False
    sheep_orthogonal: bool = False


@dataclass(frozen=True)
class Board:
    """The cross as docs/rules.md describes it, for one set of movement options."""

    rules: ModelRules

    @cached_property
    def points(self) -> tuple[tuple[int, int], ...]:
        """(file, rank) of every point, file by file."""
        return tuple((f, r) for f in range(7) for r in range(1, 8) if on_board(f, r))

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Point names (U8)."""
        return tuple(f"{FILES[f]}{r}" for f, r in self.points)

    @cached_property
    def index(self) -> dict[tuple[int, int], int]:
        """Point number of a coordinate."""
        return {c: i for i, c in enumerate(self.points)}

    def diagonal_point(self, i: int) -> bool:
        """U8: diagonal lines run through the points whose file index plus rank is odd."""
        f, r = self.points[i]
        return (f + r) % 2 == 1

    def line(self, i: int, j: int) -> bool:
        """U1/U8: i and j are joined by a line of the board (diagonals per the options)."""
        (f1, r1), (f2, r2) = self.points[i], self.points[j]
        df, dr = abs(f1 - f2), abs(r1 - r2)
        if (df, dr) in ((1, 0), (0, 1)):
            return True
        return (df, dr) == (1, 1) and not self.rules.orthogonal and self.diagonal_point(i) \
            and self.diagonal_point(j)

    @cached_property
    def sheep_steps(self) -> tuple[tuple[int, int], ...]:
        """U3/U10/U6: (from, to) along a line to the same rank or the next rank up."""
        out = []
        for i, (f1, r1) in enumerate(self.points):
            for j, (f2, r2) in enumerate(self.points):
                if self.line(i, j) and r2 in (r1, r1 + 1):
                    if f1 != f2 and r1 != r2 and self.rules.sheep_orthogonal:
                        continue
                    out.append((i, j))
        return tuple(out)

    @cached_property
    def wolf_steps(self) -> tuple[tuple[int, int], ...]:
        """U3/U6: (from, to) along any line (diagonals only when the options allow)."""
        out = []
        for i, (f1, r1) in enumerate(self.points):
            for j, (f2, r2) in enumerate(self.points):
                if self.line(i, j):
                    if f1 != f2 and r1 != r2 and self.rules.wolf_diagonal_captures_only:
                        continue
                    out.append((i, j))
        return tuple(out)

    @cached_property
    def jumps(self) -> tuple[tuple[int, int, int], ...]:
        """U4: (from, over, to) straight along a line, two segments long."""
        out = []
        for i, (f, r) in enumerate(self.points):
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    if not (df or dr):
                        continue
                    b, c = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
                    if b in self.index and c in self.index:
                        j, k = self.index[b], self.index[c]
                        if self.line(i, j) and self.line(j, k):
                            out.append((i, j, k))
        return tuple(out)

    @cached_property
    def paddock(self) -> tuple[int, ...]:
        """U2/U8: c5-e5, c6-e6, c7-e7."""
        return tuple(i for i, (f, r) in enumerate(self.points) if 2 <= f <= 4 and r >= 5)

    def rank(self, i: int) -> int:
        """The rank of a point."""
        return self.points[i][1]


class State:
    """A symbolic position: a sheep and a wolf Boolean per point and the side to move."""

    def __init__(self, board: Board, tag: str) -> None:
        import z3

        n = len(board.points)
        self.board = board
        self.sheep = [z3.Bool(f"{tag}_s{i}") for i in range(n)]
        self.wolves = [z3.Bool(f"{tag}_w{i}") for i in range(n)]
        self.sheep_to_move = z3.Bool(f"{tag}_side")

    def count(self, which: list[Any]) -> Any:
        """The number of true Booleans."""
        import z3

        return z3.Sum([z3.If(b, 1, 0) for b in which])

    def empty(self, i: int) -> Any:
        """Point i holds no piece."""
        import z3

        return z3.And(z3.Not(self.sheep[i]), z3.Not(self.wolves[i]))

    def fix(self, sheep: set[int], wolves: set[int], side: int) -> Any:
        """Constraints pinning this state to a concrete position."""
        import z3

        cs = [self.sheep[i] == (i in sheep) for i in range(len(self.sheep))]
        cs += [self.wolves[i] == (i in wolves) for i in range(len(self.wolves))]
        cs.append(self.sheep_to_move == (side == SHEEP))
        return z3.And(cs)

    def value(self, model: Any) -> tuple[frozenset[int], frozenset[int], int]:
        """The concrete position of a Z3 encoding."""
        import z3

        def true(b: Any) -> bool:
            return bool(z3.is_true(model.eval(b, model_completion=True)))

        return (frozenset(i for i, b in enumerate(self.sheep) if true(b)),
                frozenset(i for i, b in enumerate(self.wolves) if true(b)),
                SHEEP if true(self.sheep_to_move) else WOLVES)


def _same_except(a: list[Any], b: list[Any], changes: dict[int, bool]) -> Any:
    import z3

    return z3.And([b[i] == changes[i] if i in changes else b[i] == a[i]
                   for i in range(len(a))])


def sheep_step(s: State, t: State, frm: int, to: int) -> Any:
    """U3: a sheep steps from `frm` to the empty point `to`; nothing else changes."""
    import z3

    return z3.And(s.sheep[frm], s.empty(to), _same_except(s.sheep, t.sheep, {frm: False,
                                                                             to: True}),
                  _same_except(s.wolves, t.wolves, {}))


def wolf_step(s: State, t: State, frm: int, to: int) -> Any:
    """U3: a wolf steps from `frm` to the empty point `to`."""
    import z3

    return z3.And(s.wolves[frm], s.empty(to), _same_except(s.wolves, t.wolves, {frm: False,
                                                                               to: True}),
                  _same_except(s.sheep, t.sheep, {}))


def jump(s: State, t: State, frm: int, over: int, to: int) -> Any:
    """U4: a wolf jumps from `frm` over the sheep on `over` onto the empty `to`, which
    removes that sheep."""
    import z3

    return z3.And(s.wolves[frm], s.sheep[over], s.empty(to),
                  _same_except(s.wolves, t.wolves, {frm: False, to: True}),
                  _same_except(s.sheep, t.sheep, {over: False}))


def can_capture(s: State) -> Any:
    """Some wolf has a jump (U4: then the wolves must capture)."""
    import z3

    return z3.Or([z3.And(s.wolves[a], s.sheep[b], s.empty(c)) for a, b, c in s.board.jumps]
                 or [z3.BoolVal(False)])


def has_move(s: State) -> Any:
    """The side to move has a legal move (U10)."""
    import z3

    b = s.board
    sheep_any = z3.Or([z3.And(s.sheep[i], s.empty(j)) for i, j in b.sheep_steps])
    wolf_any = z3.Or([z3.And(s.wolves[i], s.empty(j)) for i, j in b.wolf_steps]
                     + [can_capture(s)])
    return z3.If(s.sheep_to_move, sheep_any, wolf_any)


def micro_step(s: State, t: State) -> Any:
    """One step or one jump of a capture chain by the side to move (the relation the step
    invariants are proved over; a chain is a sequence of jumps by one wolf)."""
    import z3

    b = s.board
    sheep_moves = [sheep_step(s, t, i, j) for i, j in b.sheep_steps]
    wolf_moves = [wolf_step(s, t, i, j) for i, j in b.wolf_steps]
    wolf_moves += [jump(s, t, a, o, c) for a, o, c in b.jumps]
    return z3.If(s.sheep_to_move, z3.Or(sheep_moves), z3.Or(wolf_moves))


def non_capture_move(s: State, t: State) -> Any:
    """A whole move that is a step (U10: wolves step only when no capture exists); the
    side to move alternates."""
    import z3

    b = s.board
    sheep_moves = z3.Or([sheep_step(s, t, i, j) for i, j in b.sheep_steps])
    wolf_moves = z3.And(z3.Not(can_capture(s)),
                        z3.Or([wolf_step(s, t, i, j) for i, j in b.wolf_steps]))
    return z3.And(z3.If(s.sheep_to_move, sheep_moves, wolf_moves),
                  t.sheep_to_move == z3.Not(s.sheep_to_move))


# U10's end checks, in order: 0 the game goes on, 1 wolves won, 2 sheep won.
GOES_ON, WOLVES_WIN, SHEEP_WIN = 0, 1, 2


def outcome(s: State) -> Any:
    """U10: fewer than 9 sheep -> wolves; all 9 paddock points occupied (sheep or wolves,
    U5) -> sheep; the side to move has no legal move -> it loses; else the game goes on."""
    import z3

    full = z3.And([z3.Or(s.sheep[i], s.wolves[i]) for i in s.board.paddock])
    stuck_loser = z3.If(s.sheep_to_move, WOLVES_WIN, SHEEP_WIN)
    return z3.If(s.count(s.sheep) < MIN_SHEEP, WOLVES_WIN,
                 z3.If(full, SHEEP_WIN, z3.If(z3.Not(has_move(s)), stuck_loser, GOES_ON)))


def well_formed(s: State, wolves: tuple[int, ...] = (1, 2)) -> Any:
    """One piece per point, one or two wolves (U2, U9), at most 20 sheep."""
    import z3

    n = len(s.sheep)
    return z3.And([z3.Not(z3.And(s.sheep[i], s.wolves[i])) for i in range(n)]
                  + [z3.Or([s.count(s.wolves) == k for k in wolves]),
                     s.count(s.sheep) <= 20])


def legal_moves(board: Board, sheep: set[int], wolves: set[int], side: int,
                budget: Any) -> set[tuple[tuple[int, ...], bool]]:
    """Every legal move of a concrete position by Z3 encoding enumeration (U3, U4, U10): a
    move is its path of points and whether it captures. A capture chain is a sequence of
    jumps by one wolf, each over a sheep not yet jumped onto a point that is empty (no
    sheep left there, no other wolf; the wolf's own start is empty once left), maximal,
    and compulsory when any exists; two chains differ when their landing points differ."""
    import z3

    occupied = sheep | wolves
    if side == SHEEP:
        return {((i, j), False) for i, j in board.sheep_steps if i in sheep and
                j not in occupied}
    moves: set[tuple[tuple[int, ...], bool]] = set()
    limit = len(sheep)
    solver = z3.Solver()
    length = z3.Int("length")
    path = [z3.Int(f"p{k}") for k in range(limit + 1)]
    over = [z3.Int(f"o{k}") for k in range(limit)]
    solver.add(length >= 1, length <= limit)
    solver.add(z3.Or([path[0] == w for w in wolves]))

    triples = [(a, b, c) for a, b, c in board.jumps if b in sheep]

    def empty_at(k: int, c: int) -> Any:
        """Point c is free for the k-th landing."""
        if c in wolves:
            return path[0] == c
        if c in sheep:
            return z3.Or([over[j] == c for j in range(k)] or [z3.BoolVal(False)])
        return z3.BoolVal(True)

    for k in range(limit):
        fresh = [over[j] != over[k] for j in range(k)]
        step = [z3.And(path[k] == a, path[k + 1] == c, over[k] == b, empty_at(k, c))
                for a, b, c in triples]
        solver.add(z3.If(k < length, z3.And(z3.Or(step or [z3.BoolVal(False)]), *fresh),
                         z3.And(path[k + 1] == path[k], over[k] == -1)))
    end = path[limit]
    for a, b, c in triples:  # maximal: no jump left from where the chain stops
        alive = z3.And([over[j] != b for j in range(limit)])
        solver.add(z3.Not(z3.And(end == a, alive, empty_at(limit, c))))
    while budget.check(solver) == z3.sat:
        m = solver.model()
        k = m.eval(length).as_long()
        pts = tuple(m.eval(path[j]).as_long() for j in range(k + 1))
        moves.add((pts, True))
        solver.add(z3.Or(length != k, *[path[j] != pts[j] for j in range(k + 1)]))
    if moves:
        return moves
    return {((i, j), False) for i, j in board.wolf_steps if i in wolves and j not in occupied}
