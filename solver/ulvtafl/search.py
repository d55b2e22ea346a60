"""Python side of the compiled Ulvtafl kernels: perft, the retrograde table of a position's
reachable set, and the proof-number search with its table, budget and soundness checks."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from fleece.rules.ulvtafl.game import SHEEP, WOLVES, Move, Rules, UlvState, apply_move
from fleece.solver.ulvtafl import kernels as k
from fleece.solver.ulvtafl.certificate import check_certificate
from fleece.solver.ulvtafl.certificate import longest_line as certificate_line
from fleece.solver.ulvtafl.prover import CHUNK, DEFAULT_PROFILE, Prover
from fleece.solver.ulvtafl.tables import move_tables

SIDE = ("wolves", "sheep")
_TABLES: dict[tuple[Rules, bool], Any] = {}


def tables(rules: Rules, sheep_forward_only: bool = False) -> Any:
    """The (cached) move tables of a rule set (see tables.move_tables)."""
    if (rules, sheep_forward_only) not in _TABLES:
        _TABLES[rules, sheep_forward_only] = move_tables(rules, sheep_forward_only)
    return _TABLES[rules, sheep_forward_only]


def key_of(sheep: int, wolves: int, side: int) -> int:
    """The kernels' int64 key of a position."""
    return int(k.make_key(sheep, wolves, side))


def successors(state: UlvState) -> list[tuple[Move, int, int]]:
    """Each legal move with the board it leads to (sheep, wolves)."""
    return [(m, *apply_move(state.sheep, state.wolves, m)) for m in state.legal_moves()]


# ---- perft -----------------------------------------------------------------------------


def perft(state: UlvState, depth: int) -> int:
    """perft(depth) by the compiled generator (U10; U7's repetition ends a game when the
    rules say so, counting from the state's own history)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    t = tables(state.rules)
    pk = np.zeros(depth + 2 + len(state.history), dtype=np.int64)
    hist = [key_of(*_unkey(h)) for h in state.history]
    pk[:len(hist)] = hist
    ply = len(hist)
    pk[ply] = key_of(state.sheep, state.wolves, state.to_move)
    bs, bw, bi = k.buffers()
    n = k.perft_rec(t, state.sheep, state.wolves, state.to_move, depth, ply, 0, bs, bw, bi,
                    k.scratch(), pk, 0, state.rules.repetition_draw)
    if n < 0:
        raise RuntimeError("move buffer overflow")
    return int(n)


@dataclass(frozen=True)
class PerftResult:
    """perft(1..depth) of a position (U10) and the time the counting took."""

    position: str
    counts: tuple[int, ...]
    seconds: float

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: {"counts": [...], ...}."""
        return {"position": self.position, "counts": list(self.counts),
                "seconds": round(self.seconds, 3)}


def perft_counts(state: UlvState, depth: int) -> PerftResult:
    """perft(1), ..., perft(depth) of a state."""
    import time

    from fleece.rules.ulvtafl.notation import position_text

    t0 = time.perf_counter()
    counts = tuple(perft(state, d) for d in range(1, depth + 1))
    return PerftResult(position_text(state), counts, time.perf_counter() - t0)


def _unkey(history_key: int) -> tuple[int, int, int]:
    full = (1 << 33) - 1
    return history_key & full, history_key >> 33 & full, history_key >> 66


# ---- retrograde --------------------------------------------------------------------------


@dataclass
class RetroTable:
    """Values and distances of every position reachable from a root (U7's reading)."""

    rules: Rules
    size: int
    edges: int
    keys: Any
    val: Any
    dist: Any
    tkeys: Any
    tids: Any

    def lookup(self, sheep: int, wolves: int, side: int) -> tuple[str, int] | None:
        """(winner or "draw", plies to the end) of a reachable position, or None."""
        i = int(k.find(self.tkeys, self.tids, key_of(sheep, wolves, side)))
        if i < 0:
            return None
        v = int(self.val[i])
        d = int(self.dist[i])
        if v == 0:
            return "draw", -1
        winner = side if v == 1 else 1 - side
        return SIDE[winner], d

    def value(self, state: UlvState) -> tuple[str, int]:
        """The value of a reachable state."""
        found = self.lookup(state.sheep, state.wolves, state.to_move)
        if found is None:
            raise KeyError("position not in the table")
        return found

    def best_move(self, state: UlvState) -> Move | None:
        """A move that keeps the value: fastest win, slowest loss, a drawn successor."""
        value, dist = self.value(state)
        best: tuple[int, Move] | None = None
        mover = SIDE[state.to_move]
        for m, s, w in successors(state):
            v, d = self.lookup(s, w, 1 - state.to_move) or ("?", 0)
            if value == "draw":
                if v == "draw":
                    return m
                continue
            if v != value:
                continue
            score = d if value == mover else -d
            if d == dist - 1 and (best is None or score < best[0]):
                best = (score, m)
        return best[1] if best else None


RETRO_STEP = 200_000  # positions or edges per compiled call between looks at the clock
RETRO_BYTES = 232  # bytes per position at the start (16 edge slots each; the table grows)


class RetroTimeout(Exception):
    """The retrograde method ran past its deadline."""


def retro_bytes(max_positions: int) -> int:
    """The memory retro_solve takes for at most `max_positions` positions (16 moves each;
    more edges double the edge arrays)."""
    return RETRO_BYTES * max(1024, max_positions)


def retro_solve(state: UlvState, max_positions: int, *, deadline: float | None = None,
                memory: int | str | None = None) -> RetroTable | None:
    """Enumerate the positions reachable from `state` and solve them backwards; None when
    there are more than `max_positions`. Every phase reads the clock between compiled
    steps of RETRO_STEP and raises RetroTimeout past `deadline` (a time.perf_counter()
    value); the tables are sized first and refused in one line (BudgetError) when they
    exceed the `memory` budget (default: budget.default_memory())."""
    from fleece.solver.ulvtafl.budget import require, resolve

    require(retro_bytes(max_positions), resolve(memory),
            f"retrograde analysis of up to {max_positions:,} positions")

    def tick() -> None:
        if deadline is not None and time.perf_counter() >= deadline:
            raise RetroTimeout

    t = tables(state.rules)
    cap = 1 << max(10, (2 * max_positions).bit_length())
    tkeys = np.full(cap, -1, dtype=np.int64)
    tids = np.zeros(cap, dtype=np.int32)
    keys = np.zeros(max_positions + 1, dtype=np.int64)
    stat = np.zeros(max_positions + 1, dtype=np.int8)
    start = np.zeros(max_positions + 2, dtype=np.int64)
    edge_cap = max(1024, 16 * max_positions)
    root = key_of(state.sheep, state.wolves, state.to_move)
    scr = k.scratch()
    while True:
        succ = np.zeros(edge_cap, dtype=np.int32)
        st = np.zeros(3, dtype=np.int64)
        why = 4
        while why == 4:
            tick()
            why = int(k.enumerate_reachable(t, root, max_positions, tkeys, tids, keys,
                                            stat, start, succ, scr, st, RETRO_STEP))
        if why != 2 or edge_cap >= 64 * max_positions:
            break
        edge_cap *= 2  # the edges ran out first: retry with more room
        tkeys.fill(-1)
    if why == 3:
        raise RuntimeError("move buffer overflow")
    if why != 0:
        return None
    n, m = int(st[1]), int(st[2])
    indeg = np.zeros(n + 1, dtype=np.int64)
    for lo in range(0, m, RETRO_STEP * 8):
        tick()
        k.retro_indegrees(succ, lo, min(m, lo + RETRO_STEP * 8), indeg)
    pstart = np.cumsum(indeg)
    del indeg
    fill = pstart[:n].copy()
    pred = np.empty(m, dtype=np.int32)
    for lo in range(0, n, RETRO_STEP):
        tick()
        k.retro_predecessors(start, succ, lo, min(n, lo + RETRO_STEP), fill, pred)
    del fill
    val = np.zeros(n, dtype=np.int8)
    dist = np.zeros(n, dtype=np.int32)
    left = np.empty(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    qs = np.zeros(2, dtype=np.int64)
    for lo in range(0, n, RETRO_STEP):
        tick()
        k.retro_seed(lo, min(n, lo + RETRO_STEP), keys, stat, start, left, val, dist, queue,
                     qs)
    done = False
    while not done:
        tick()
        done = bool(k.retro_propagate(pstart, pred, val, dist, left, queue, qs, RETRO_STEP))
    return RetroTable(state.rules, n, m, keys[:n], val, dist, tkeys, tids)


# ---- proof-number search -------------------------------------------------------------------


class ProofSearch(Prover):
    """df-pn for "the attacker can force a won end" from a root, resumable in chunks (the
    engine of prover.Prover with a table of 2**table_bits entries)."""

    def __init__(self, state: UlvState, attacker: int, table_bits: int = 22,
                 forward_only: bool = False, safe_only: bool = False, focus: int = 0,
                 profile: str = DEFAULT_PROFILE) -> None:
        super().__init__(state, attacker, table_bits=table_bits, forward_only=forward_only,
                         safe_only=safe_only, focus=focus, profile=profile)

    def run(self, nodes: int | None = None, seconds: float | None = None,
            progress: Any = None, checkpoint: Any = None, every: float = 600.0,
            report_every: float = 10.0, step: int = CHUNK,
            stop: threading.Event | None = None) -> str:
        """Search about `nodes` more nodes (in one step when no other budget, report or
        stop is asked for); the outcome so far."""
        if (seconds is None and progress is None and checkpoint is None and stop is None
                and nodes is not None):
            return self.step(nodes)
        return super().run(nodes, seconds, progress, checkpoint, every, report_every, step,
                           stop)


def mover(state: UlvState) -> str:
    """The name of the side to move."""
    return SIDE[state.to_move]


__all__ = ["SHEEP", "WOLVES", "PerftResult", "ProofSearch", "RetroTable", "certificate_line",
           "check_certificate", "perft", "perft_counts", "retro_solve"]
