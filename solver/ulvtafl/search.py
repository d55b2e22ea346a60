"""Python side of the compiled Ulvtafl kernels: perft, the retrograde table of a position's
reachable set, and the proof-number search with its table, budget and soundness checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fleece.rules.ulvtafl.game import SHEEP, WOLVES, Move, Rules, UlvState, apply_move
from fleece.solver.ulvtafl import kernels as k
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


def retro_solve(state: UlvState, max_positions: int) -> RetroTable | None:
    """Enumerate the positions reachable from `state` and solve them backwards; None when
    there are more than `max_positions`."""
    t = tables(state.rules)
    cap = 1 << max(10, (2 * max_positions).bit_length())
    tkeys = np.full(cap, -1, dtype=np.int64)
    tids = np.zeros(cap, dtype=np.int32)
    keys = np.zeros(max_positions + 1, dtype=np.int64)
    stat = np.zeros(max_positions + 1, dtype=np.int8)
    start = np.zeros(max_positions + 2, dtype=np.int64)
    edge_cap = max(1024, 16 * max_positions)
    root = key_of(state.sheep, state.wolves, state.to_move)
    while True:
        succ = np.zeros(edge_cap, dtype=np.int32)
        n, m, why = k.enumerate_reachable(t, root, max_positions, tkeys, tids, keys,
                                          stat, start, succ, k.scratch())
        if why != 2 or edge_cap >= 64 * max_positions:
            break
        edge_cap *= 2  # the edges ran out first: retry with more room
        tkeys.fill(-1)
    if why == 3:
        raise RuntimeError("move buffer overflow")
    if why != 0:
        return None
    val = np.zeros(n, dtype=np.int8)
    dist = np.zeros(n, dtype=np.int32)
    k.retrograde(n, keys, stat, start, succ, val, dist)
    return RetroTable(state.rules, int(n), int(m), keys[:n], val, dist, tkeys, tids)


# ---- proof-number search -------------------------------------------------------------------


class ProofSearch:
    """df-pn for "the attacker can force a won end" from a root, resumable in chunks.

    Proofs are sound by construction (a repetition never proves anything); a disproof is
    accepted only after `check_disproof` has found it closed. With `forward_only`
    (sheep attacker only) the sheep never step sideways: the game is acyclic and much
    smaller, a proof there is a proof of the real game, and a disproof means nothing (the
    outcome then reads "failed")."""

    def __init__(self, state: UlvState, attacker: int, table_bits: int = 22,
                 forward_only: bool = False) -> None:
        if forward_only and attacker != SHEEP:
            raise ValueError("only the sheep's moves can be restricted in a sheep proof")
        self.state = state
        self.attacker = attacker
        self.forward_only = forward_only
        self.t = tables(state.rules, forward_only)
        size = 1 << table_bits
        self.tk = np.full(size, -1, dtype=np.int64)
        self.tphi = np.zeros(size, dtype=np.int64)
        self.tdelta = np.zeros(size, dtype=np.int64)
        self.twork = np.zeros(size, dtype=np.int64)
        self.bs, self.bw, self.bi = k.buffers()
        self.bst = np.zeros(k.STACK, dtype=np.int64)
        self.bkey = np.zeros(k.STACK, dtype=np.int64)
        self.pk = np.zeros(k.MAXD + 1, dtype=np.int64)
        self.scr = k.scratch()
        self.ctr = np.zeros(4, dtype=np.int64)
        self.root = key_of(state.sheep, state.wolves, state.to_move)
        self.verified_disproof = False
        self.checks = 0
        self._check: tuple[Any, Any, Any, Any] | None = None
        self.too_large = False

    @property
    def nodes(self) -> int:
        """Nodes expanded so far."""
        return int(self.ctr[0])

    def root_numbers(self) -> tuple[int, int]:
        """The root's (phi, delta) from its mover's view."""
        j = int(k.tt_find(self.tk, self.root))
        if j < 0:
            return 1, 1
        return int(self.tphi[j]), int(self.tdelta[j])

    def outcome(self) -> str:
        """"proved" (the attacker wins), "disproved" (it cannot), "failed" (a restricted
        search found no proof), "unverified" (a disproof too large to check), or "open"."""
        phi, delta = self.root_numbers()
        inf = int(k.INF)
        mover_attacks = self.state.to_move == self.attacker
        pn, dn = (phi, delta) if mover_attacks else (delta, phi)
        if pn == 0:
            return "proved"
        if dn == 0 and pn >= inf and self.forward_only:
            return "failed"
        if dn == 0 and pn >= inf:
            if self.too_large:
                return "unverified"
            return "disproved" if self.verified_disproof else "open"
        return "open"

    def run(self, nodes: int) -> str:
        """Search about `nodes` more nodes; the outcome so far. A disproof of the root
        counts only once `check_disproof` finds it closed; when the check fails, it resets
        the path to the gap and the search goes on within the same budget."""
        budget = int(self.ctr[0]) + nodes
        s = self.state
        mover_attacks = s.to_move == self.attacker
        while self.outcome() == "open" and int(self.ctr[0]) < budget:
            self.pk[0] = self.root
            k.mid(self.t, s.sheep, s.wolves, s.to_move, k.INF, k.INF, 0, 0, self.attacker,
                  self.tk, self.tphi, self.tdelta, self.twork, self.bs, self.bw, self.bi,
                  self.bst, self.bkey, self.pk, 0, self.scr, self.ctr, budget)
            phi, delta = self.root_numbers()
            pn = phi if mover_attacks else delta
            if pn >= int(k.INF) and self.forward_only:
                break
            if pn >= int(k.INF) and not self.verified_disproof:
                verdict = self._check_disproof()
                self.verified_disproof = verdict == 1
                self.too_large = verdict == -2
        return self.outcome()

    def _check_disproof(self) -> int:
        if self._check is None:
            limit = max(1024, min(len(self.tk), 1 << 24))
            cap = 1 << (2 * limit).bit_length()
            self._check = (np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int32),
                           np.zeros(limit, dtype=np.int64), np.zeros(limit, dtype=np.int64))
        skeys, sgen, parent, nodes = self._check
        self.checks += 1
        return int(k.check_disproof(self.t, self.root, self.attacker, self.tk, self.tphi,
                                    self.tdelta, skeys, sgen, self.checks, parent, nodes,
                                    self.scr, self.ctr))

    def summary(self) -> dict[str, object]:
        """Outcome, nodes, and the root's proof and disproof numbers (how far it got)."""
        phi, delta = self.root_numbers()
        pn, dn = (phi, delta) if self.state.to_move == self.attacker else (delta, phi)
        inf = int(k.INF)
        return {"outcome": self.outcome(), "nodes": self.nodes,
                "proof_number": "inf" if pn >= inf else pn,
                "disproof_number": "inf" if dn >= inf else dn,
                "deepest_ply": int(self.ctr[1])}

    def settled(self, sheep: int, wolves: int, side: int, proof: bool) -> bool:
        """A child position settled as proved (`proof`) or disproved in the table."""
        return bool(k.settled_child(self.t, sheep, wolves, side, self.attacker, self.tk,
                                    self.tphi, self.tdelta, proof))

    def work(self, sheep: int, wolves: int, side: int) -> int:
        """The search effort spent below a position (0 when not in the table)."""
        j = int(k.tt_find(self.tk, key_of(sheep, wolves, side)))
        return int(self.twork[j]) if j >= 0 else 0

    def certificate(self, limit: int = 1_000_000) -> dict[str, str] | None:
        """A proof as a strategy for the attacker: for every attacker-to-move position of
        the proof (position text), the move to play, chosen so that the strategy has no
        cycle. Every defender reply leads to a finished attacker win or to a position of
        the strategy, which `check_certificate` verifies with the reference model alone.
        None when the table no longer holds the whole proof."""
        if self.outcome() != "proved":
            return None
        from fleece.rules.ulvtafl.notation import position_text

        strategy: dict[int, Move] = {}
        done: set[int] = set()
        on_path: set[int] = set()

        def visit(state: UlvState) -> bool:
            key = state.key
            if state.is_terminal():
                return state.result == SIDE[self.attacker]
            if key in done:
                return True
            if key in on_path or len(done) > limit:
                return False
            on_path.add(key)
            ok = False
            if state.to_move == self.attacker:
                options = [(self.work(s, w, 1 - state.to_move), m) for m, s, w in
                           successors(state) if self.settled(s, w, 1 - state.to_move, True)]
                for _, m in sorted(options, key=lambda x: x[0]):
                    if visit(_bare(state.play(m))):
                        strategy[key] = m
                        ok = True
                        break
            else:
                ok = all(visit(_bare(state.play(m))) for m in state.legal_moves())
            on_path.discard(key)
            if ok:
                done.add(key)
            return ok

        import sys

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            if not visit(_bare(self.state)):
                return None
        finally:
            sys.setrecursionlimit(old)
        out = {}
        for key, move in strategy.items():
            sh, wo, side = _unkey(key)
            out[position_text(UlvState.create(self.state.rules, sh, wo, side))] = move.text()
        return out

    def proof_size(self, limit: int = 5_000_000) -> int | None:
        """The number of positions of the proof DAG, re-checked against the table; None
        when an entry was lost or the proof is larger than `limit`."""
        cap = 1 << max(10, (2 * limit).bit_length())
        seen_k = np.full(cap, -1, dtype=np.int64)
        seen_i = np.zeros(cap, dtype=np.int32)
        n = int(k.proof_size(self.t, self.root, self.attacker, self.tk, self.tphi,
                             self.tdelta, seen_k, seen_i, self.scr, limit))
        return n if n > 0 else None


def _bare(state: UlvState) -> UlvState:
    """A state without its repetition history."""
    if not state.history:
        return state
    return UlvState.create(state.rules, state.sheep, state.wolves, state.to_move)


def check_certificate(root: UlvState, winner: str, strategy: dict[str, str]) -> int:
    """Verify a proof certificate with the reference model only: from `root`, the winner
    plays the strategy's move in each of its positions, every reply of the other side is
    followed, every line ends in a win for `winner` and no line repeats a position (so the
    win is forced in a finite number of moves, U7). Returns the number of positions
    checked; ValueError saying what is wrong otherwise."""
    from fleece.rules.ulvtafl.notation import parse_move, position_text

    side = SIDE.index(winner)
    verified: set[int] = set()
    path: set[int] = set()
    stack: list[tuple[UlvState, list[UlvState] | None]] = [(_bare(root), None)]
    while stack:
        state, kids = stack[-1]
        if kids is None:
            if state.is_terminal():
                stack.pop()
                if state.result != winner:
                    raise ValueError(f"{position_text(state)}: ends {state.result}")
                continue
            if state.key in verified:
                stack.pop()
                continue
            if state.key in path:
                raise ValueError(f"{position_text(state)}: the strategy repeats a position")
            path.add(state.key)
            if state.to_move == side:
                text = strategy.get(position_text(state))
                if text is None:
                    raise ValueError(f"{position_text(state)}: no move in the strategy")
                kids = [_bare(state.play(parse_move(text)))]
            else:
                kids = [_bare(state.play(m)) for m in state.legal_moves()]
            stack[-1] = (state, kids)
        if kids:
            stack.append((kids.pop(), None))
        else:
            stack.pop()
            path.discard(state.key)
            verified.add(state.key)
    return len(verified)


def certificate_line(root: UlvState, winner: str,
                     strategy: dict[str, str]) -> tuple[int, tuple[str, ...]]:
    """Against a checked certificate: the most plies the loser can delay the end while the
    winner follows the strategy (so the winner wins within that many plies from `root`),
    and a line where the loser delays that long."""
    from fleece.rules.ulvtafl.notation import parse_move, position_text

    side = SIDE.index(winner)
    memo: dict[int, tuple[int, str | None]] = {}
    order: list[UlvState] = [_bare(root)]
    stack = [_bare(root)]
    while stack:  # post-order over the strategy's (acyclic) positions
        state = stack[-1]
        if state.key in memo or state.is_terminal():
            stack.pop()
            if state.is_terminal():
                memo[state.key] = (0, None)
            continue
        if state.to_move == side:
            moves = [parse_move(strategy[position_text(state)])]
        else:
            moves = list(state.legal_moves())
        kids = [_bare(state.play(m)) for m in moves]
        todo = [c for c in kids if c.key not in memo and not c.is_terminal()]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        best = max(((memo[c.key][0] if c.key in memo else 0) + 1, m.text())
                   for c, m in zip(kids, moves, strict=True))
        memo[state.key] = (best[0], best[1])
        order.append(state)
    line: list[str] = []
    state = _bare(root)
    while not state.is_terminal():
        move = memo[state.key][1]
        assert move is not None
        line.append(move)
        state = _bare(state.play(parse_move(move)))
    return memo[_bare(root).key][0], tuple(line)


def mover(state: UlvState) -> str:
    """The name of the side to move."""
    return SIDE[state.to_move]


__all__ = ["SHEEP", "WOLVES", "PerftResult", "ProofSearch", "RetroTable", "check_certificate",
           "perft", "perft_counts", "retro_solve"]
