"""Exact Ulvtafl values in pure Python over the reference model: the second method.

`reference_values(state, limit)` enumerates every position reachable from `state` with the
reference rules (`fleece.rules.ulvtafl.game`: its move generator, its move application and
its U10 end checks, nothing of the compiled solver) and solves them backwards. A position is a
win for a side when that side can force a won end (U7's reading; every other position is a
draw), and its distance is the number of plies to that end when the winner hurries and the
loser delays. The board is symmetric about the d file, and so are the rules, so a position
and its mirror image have one value: each pair is solved once. It is slow (some 50,000
positions a second) and meant for the small positions puzzles are made of; the compiled
retrograde of `fleece.solver.ulvtafl` is the first method.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from fleece.rules.ulvtafl.game import SIDE_NAMES, Rules, UlvState, apply_move, end_of, generate
from fleece.rules.ulvtafl.geometry import COORDS, INDEX, NUM_POINTS

Board = tuple[int, int, int]
"""A position as (sheep mask, wolf mask, side to move)."""

CHUNK = 11  # bits of a mask mirrored by one table lookup
MIRROR_POINT = tuple(INDEX[(6 - f, r)] for f, r in COORDS)  # a4 <-> g4, c1 <-> e1, ...


def _mirror_tables() -> tuple[tuple[int, ...], ...]:
    tables = []
    for shift in range(0, NUM_POINTS, CHUNK):
        row = []
        for v in range(1 << CHUNK):
            m = 0
            for b in range(CHUNK):
                if v >> b & 1 and shift + b < NUM_POINTS:
                    m |= 1 << MIRROR_POINT[shift + b]
            row.append(m)
        tables.append(tuple(row))
    return tuple(tables)


_LOW, _MID, _HIGH = _mirror_tables()
_CHUNK_MASK = (1 << CHUNK) - 1


def mirror(mask: int) -> int:
    """The point set reflected in the d file (files a <-> g, b <-> f, c <-> e)."""
    return (_LOW[mask & _CHUNK_MASK] | _MID[mask >> CHUNK & _CHUNK_MASK]
            | _HIGH[mask >> (2 * CHUNK)])


def canonical(sheep: int, wolves: int, side: int) -> Board:
    """One name for a position and its mirror image (the smaller of the two)."""
    ms, mw = mirror(sheep), mirror(wolves)
    return (ms, mw, side) if (ms, mw) < (sheep, wolves) else (sheep, wolves, side)


@dataclass(frozen=True)
class ReferenceValues:
    """The value and distance of every position reachable from a root (U7's reading)."""

    rules: Rules
    index: dict[Board, int]
    winner: list[int]  # per position: 0 wolves, 1 sheep, -1 nobody (a draw)
    dist: list[int]  # plies to the end with optimal play (-1 for a draw)

    @property
    def size(self) -> int:
        """The number of positions solved (a position and its mirror image count once)."""
        return len(self.winner)

    def lookup(self, sheep: int, wolves: int, side: int) -> tuple[str, int] | None:
        """("wolves", d), ("sheep", d) or ("draw", -1) for a reachable position, else None."""
        i = self.index.get(canonical(sheep, wolves, side))
        if i is None:
            return None
        w = self.winner[i]
        return ("draw", -1) if w < 0 else (SIDE_NAMES[w], self.dist[i])


def reference_values(state: UlvState, limit: int) -> ReferenceValues | None:
    """Solve every position reachable from `state` (its board and side to move; the history
    does not change a value); None when there are more than `limit` of them (a position
    and its mirror image count once)."""
    rules = state.rules
    root = canonical(state.sheep, state.wolves, state.to_move)
    index: dict[Board, int] = {root: 0}
    boards: list[Board] = [root]
    succ: list[list[int]] = []
    winner: list[int] = []
    i = 0
    while i < len(boards):
        sheep, wolves, side = boards[i]
        end = end_of(rules, sheep, wolves, side)
        kids: list[int] = []
        if end is None:
            winner.append(-2)  # not known yet
            for move in generate(rules, sheep, wolves, side):
                ns, nw = apply_move(sheep, wolves, move)
                key = canonical(ns, nw, 1 - side)
                j = index.get(key)
                if j is None:
                    if len(boards) >= limit:
                        return None
                    j = index[key] = len(boards)
                    boards.append(key)
                kids.append(j)
        else:
            winner.append(SIDE_NAMES.index(end[0]))
        succ.append(kids)
        i += 1
    return ReferenceValues(rules, index, *_backwards(boards, succ, winner))


def _backwards(boards: list[Board], succ: list[list[int]],
               winner: list[int]) -> tuple[list[int], list[int]]:
    """Retrograde analysis: from the finished positions, a position whose mover has a move
    to a position the mover wins is won one ply later (the first such move found is the
    fastest, by the breadth-first order); a position all of whose moves lead to positions
    the other side wins is lost when the last of them is settled (the slowest). What is
    never settled is a draw."""
    n = len(boards)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, kids in enumerate(succ):
        for j in kids:
            preds[j].append(i)
    left = [len(kids) for kids in succ]
    dist = [-1] * n
    queue: deque[int] = deque()
    for i in range(n):
        if winner[i] >= 0:
            dist[i] = 0
            queue.append(i)
    while queue:
        j = queue.popleft()
        for i in preds[j]:
            if winner[i] != -2:
                continue
            mover = boards[i][2]
            if winner[j] == mover:
                winner[i] = mover
                dist[i] = dist[j] + 1
                queue.append(i)
            else:
                left[i] -= 1
                if left[i] == 0:
                    winner[i] = 1 - mover
                    dist[i] = dist[j] + 1
                    queue.append(i)
    return [w if w >= 0 else -1 for w in winner], dist
