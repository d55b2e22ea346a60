"""Fortress search: a strategy with which one side never loses, so that the other side
cannot force a won end (U7) and the value is that side's win or a draw.

The positions reachable from the root are explored with the other side playing every
legal move and the side itself restricted (for the sheep: `safe_only`, only moves after
which no wolf can capture, and `forward_steps`, at most that many forward steps in all
above the root's ranks). On that finite graph the side never loses from the greatest set
of positions that it can keep the game in: a safety game, solved backwards from the other
side's won ends and from the side's positions with no move left in the graph. A fortress
found is a strategy of the game (only the side was restricted), written as a "no-loss"
certificate and re-checked by the reference rules (certificate.check_no_loss) before it is
reported. Where the search found none, the restricted side may still hold on with moves
it was not given; only the unrestricted search (safe_only False, forward_steps None)
decides exactly that the other side can force a win.

    result = find_fortress(initial_state(UlvtaflOptions(setup=20)), "sheep")
    result.outcome                      # "found": the wolves cannot win the 20-sheep start
    result.certificate.strategy         # position text -> the sheep's move
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import SIDE_NAMES, UlvState
from fleece.rules.ulvtafl.geometry import COORDS
from fleece.rules.ulvtafl.notation import position_text
from fleece.solver.ulvtafl import kernels as k
from fleece.solver.ulvtafl.budget import require, resolve
from fleece.solver.ulvtafl.certificate import NO_LOSS, Certificate, bare, check_no_loss
from fleece.solver.ulvtafl.prover import move_to
from fleece.solver.ulvtafl.search import tables

BYTES_PER_POSITION = 400  # what one explored position takes here, with its moves, at most
DEFAULT_POSITIONS = 1_000_000
CLOCK_STEP = 1 << 14  # positions between looks at the clock
RANK_MASKS = tuple(sum(1 << i for i, (_, r) in enumerate(COORDS) if r == rank)
                   for rank in range(1, 8))


@dataclass(frozen=True)
class FortressResult:
    """What a fortress search found: `outcome` "found" (with a checked certificate), "none"
    (the explored graph holds no fortress), "too-large" (more than max_positions) or
    "stopped" (the deadline passed); `explored` positions, `holding` those of them from
    which the side never loses, `checked` the positions check_no_loss walked."""

    outcome: str
    side: str
    explored: int
    holding: int
    certificate: Certificate | None
    checked: int | None
    seconds: float
    safe_only: bool
    forward_steps: int | None


def fortress_bytes(max_positions: int) -> int:
    """The memory a fortress search of up to `max_positions` positions may take."""
    return BYTES_PER_POSITION * max(1024, max_positions)


def rank_sum(sheep: int) -> int:
    """The sheep's ranks added up: one more for every forward step, less for a capture."""
    return sum(rank * (sheep & m).bit_count() for rank, m in enumerate(RANK_MASKS, 1))


def find_fortress(state: UlvState, side: str = "sheep", *, safe_only: bool = True,
                  forward_steps: int | None = 1, max_positions: int = DEFAULT_POSITIONS,
                  deadline: float | None = None, memory: int | str | None = None,
                  progress: Callable[[int], None] | None = None) -> FortressResult:
    """Search the positions reachable from `state` for a strategy with which `side` never
    loses (see the module's text); `safe_only` and `forward_steps` restrict the sheep when
    they are `side` (the wolves are never restricted). Stops at `deadline` (a
    time.perf_counter() value); refuses in one line (BudgetError) when `max_positions`
    cannot fit the `memory` budget (default: budget.default_memory())."""
    if side not in SIDE_NAMES:
        raise FleeceError(f"side must be 'sheep' or 'wolves', not {side!r}", field="side")
    if max_positions < 1:
        raise FleeceError("at least one position", field="max_positions", limit=1)
    if forward_steps is not None and forward_steps < 0:
        raise FleeceError("forward steps must be 0 or more", field="forward_steps", limit=0)
    require(fortress_bytes(max_positions), resolve(memory),
            f"a fortress search of up to {max_positions:,} positions")
    t0 = time.perf_counter()
    me = SIDE_NAMES.index(side)
    restricted = me == k.SHEEP
    root = bare(state)
    graph = _explore(root, me, safe_only and restricted,
                     forward_steps if restricted else None, max_positions, deadline, progress)

    def result(outcome: str, holding: int = 0, cert: Certificate | None = None,
               checked: int | None = None) -> FortressResult:
        return FortressResult(outcome, side, graph.size(), holding, cert, checked,
                              time.perf_counter() - t0, safe_only and restricted,
                              forward_steps if restricted else None)

    if graph.stopped:
        return result(graph.stopped)
    bad = graph.solve(me, deadline)
    if bad is None:
        return result("stopped")
    holding = graph.size() - sum(bad)
    if bad[0]:
        return result("none", holding)
    cert = Certificate(root, side, graph.strategy(root, me, bad), NO_LOSS)
    return result("found", holding, cert, check_no_loss(cert.root, side, cert.strategy))


@dataclass
class _Graph:
    """The explored positions (index 0 the root), their status and moves (CSR arrays)."""

    sheep: list[int]
    wolves: list[int]
    mover: bytearray
    status: bytearray
    start: array[int]
    succ: array[int]
    stopped: str = ""

    def size(self) -> int:
        """The number of positions explored."""
        return len(self.sheep)

    def solve(self, me: int, deadline: float | None = None) -> bytearray | None:
        """The safety game backwards: 1 for every position from which the other side can
        force the game to its won end or to one of `me`'s positions with no move left;
        None when `deadline` passed first (the clock is read every CLOCK_STEP steps)."""

        def late(step: int) -> bool:
            return step % CLOCK_STEP == 0 and deadline is not None and \
                time.perf_counter() >= deadline

        n = self.size()
        other_won = k.SHEEP_WON if me == k.WOLVES else k.WOLVES_WON
        count = array("q", bytes(8 * (n + 1)))
        for c in self.succ:
            count[c + 1] += 1
        pstart = array("q", [0]) * (n + 1)
        for i in range(n):
            pstart[i + 1] = pstart[i] + count[i + 1]
        fill = array("q", pstart[:n])
        pred = array("q", bytes(8 * len(self.succ)))
        for p in range(n):
            if late(p):
                return None
            for j in range(self.start[p], self.start[p + 1]):
                c = self.succ[j]
                pred[fill[c]] = p
                fill[c] += 1
        bad = bytearray(n)
        left = array("q", (self.start[i + 1] - self.start[i] for i in range(n)))
        queue = [i for i in range(n) if self.status[i] == other_won or (
            self.status[i] == k.ONGOING and self.mover[i] == me and left[i] == 0)]
        for i in queue:
            bad[i] = 1
        steps = 0
        while queue:
            steps += 1
            if late(steps):
                return None
            c = queue.pop()
            for j in range(pstart[c], pstart[c + 1]):
                p = pred[j]
                if bad[p]:
                    continue
                if self.mover[p] == me:
                    left[p] -= 1
                    if left[p] > 0:
                        continue
                bad[p] = 1
                queue.append(p)
        return bad

    def strategy(self, root: UlvState, me: int, bad: bytearray) -> dict[str, str]:
        """`me`'s move in every position of the fortress the root reaches: the first move
        into a position that is not bad (the explored order is breadth first, so the
        earliest found)."""
        rules = root.rules
        out: dict[str, str] = {}
        seen = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            if self.status[i] != k.ONGOING:
                continue
            kids = list(self.succ[self.start[i]:self.start[i + 1]])
            if self.mover[i] == me:
                c = next(c for c in kids if not bad[c])
                kids = [c]
                state = UlvState.create(rules, self.sheep[i], self.wolves[i], me)
                out[position_text(state)] = move_to(state, self.sheep[c],
                                                    self.wolves[c]).text()
            for c in kids:
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        return out


def _explore(root: UlvState, me: int, safe_only: bool, forward_steps: int | None,
             max_positions: int, deadline: float | None,
             progress: Callable[[int], None] | None) -> _Graph:
    """Breadth-first over the positions reachable with `me` restricted as asked (the
    compiled move generator of the kernels, not the rules model the check uses)."""
    t = tables(root.rules)
    out_s = np.zeros(k.CAP, dtype=np.int64)
    out_w = np.zeros(k.CAP, dtype=np.int64)
    out_irr = np.zeros(k.CAP, dtype=np.int64)
    th_s = np.zeros(k.CAP, dtype=np.int64)
    th_w = np.zeros(k.CAP, dtype=np.int64)
    th_irr = np.zeros(k.CAP, dtype=np.int64)
    scr = k.scratch()
    g = _Graph([root.sheep], [root.wolves], bytearray([root.to_move]), bytearray(),
               array("q", [0]), array("q"))
    index = {(root.sheep, root.wolves, root.to_move): 0}
    top = None if forward_steps is None else rank_sum(root.sheep) + forward_steps
    i = 0
    while i < len(g.sheep):
        if i % 1024 == 0:
            if deadline is not None and time.perf_counter() >= deadline:
                g.stopped = "stopped"
                return g
            if progress is not None:
                progress(len(g.sheep))
        s, w, side = g.sheep[i], g.wolves[i], g.mover[i]
        st = int(k.status(t, s, w, side))
        g.status.append(st)
        if st == k.ONGOING:
            n = int(k.gen(t, s, w, side, out_s, out_w, out_irr, scr))
            if n < 0:
                raise FleeceError(f"{position_text(UlvState.create(root.rules, s, w, side))}"
                                  ": more moves than the generator holds")
            for j in range(n):
                cs, cw = int(out_s[j]), int(out_w[j])
                if side == me == k.SHEEP:
                    if top is not None and out_irr[j] and rank_sum(cs) > top:
                        continue
                    if safe_only and _threat(t, cs, cw, th_s, th_w, th_irr, scr):
                        continue
                key = (cs, cw, 1 - side)
                c = index.get(key)
                if c is None:
                    if len(g.sheep) >= max_positions:
                        g.stopped = "too-large"
                        return g
                    c = index[key] = len(g.sheep)
                    g.sheep.append(cs)
                    g.wolves.append(cw)
                    g.mover.append(1 - side)
                g.succ.append(c)
        g.start.append(len(g.succ))
        i += 1
    return g


def _threat(t: Any, s: int, w: int, bs: Any, bw: Any, bi: Any, scr: Any) -> bool:
    """True when a wolf could capture on this board (the generator lists captures alone
    when there are any, each irreversible)."""
    n = int(k.gen(t, s, w, k.WOLVES, bs, bw, bi, scr))
    return n > 0 and bool(bi[0])
