"""Exact Ulvtafl values under U7's reading: who can force a won end, with a move that keeps
the value, by retrograde analysis when the reachable set fits the budget and by two
proof-number searches (one per side) otherwise. "unknown" only when the budget ran out."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from fleece.rules.ulvtafl.game import SHEEP, SIDE_NAMES, WOLVES, Move, UlvState
from fleece.rules.ulvtafl.notation import position_text
from fleece.solver.ulvtafl.budget import check_positive, require, resolve
from fleece.solver.ulvtafl.certificate import CertificateError, check_certificate
from fleece.solver.ulvtafl.prover import (
    BUFFER_BYTES,
    DEFAULT_PROFILE,
    ENTRY_BYTES,
    MIN_TABLE_BITS,
    table_bits_for,
)
from fleece.solver.ulvtafl.search import (
    ProofSearch,
    RetroTable,
    RetroTimeout,
    key_of,
    retro_solve,
    successors,
)

RETRO_LIMIT = 2_000_000  # positions the retrograde method may enumerate by default
PROBE_NODES = 60_000  # a short proof search first settles easy positions at once
PROBE_BITS = 18
CHUNK_MAX = 400_000  # nodes per turn of a search (about a second): progress and timeouts
CERT_LIMIT = 200_000  # positions of a certificate solve() extracts and re-checks
TABLE_BITS = 22  # each proof search's table (4M entries, 128 MiB) unless memory is short
SAFE_FOCUS = 2  # the safe search's radius: sheep moves near a wolf, a few tempo moves away
SEARCHES = ("forward", "safe", "mover", "other")
Progress = Callable[[dict[str, object]], None]


@dataclass(frozen=True)
class SolveResult:
    """The value of a position for optimal play and what supports it.

    `value` is "sheep", "wolves" (that side can force a won end), "draw" (neither can), or
    "unknown" (the budget ran out first). `distance` is the number of plies to the end with
    optimal play, known from the retrograde method only. `searches` tells, per side, whether
    its win was proved, disproved or left open; `frontier` gives each proof search's nodes
    and the root's proof and disproof numbers (how far it got). A proved value of a proof
    search comes with `certificate` (the winner's move in each of its positions of the
    proof; search.check_certificate verifies it with the reference model), not in JSON."""

    value: str
    best_move: str | None
    nodes: int
    seconds: float
    method: str
    position: str
    distance: int | None = None
    positions: int | None = None
    proof_size: int | None = None
    principal_line: tuple[str, ...] = ()
    searches: dict[str, str] = field(default_factory=dict)
    stopped: str | None = None
    frontier: dict[str, dict[str, object]] = field(default_factory=dict)
    certificate: dict[str, str] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"value": self.value, "best_move": self.best_move, "nodes": self.nodes,
                "distance": self.distance, "method": self.method, "position": self.position,
                "seconds": round(self.seconds, 3), "positions": self.positions,
                "proof_size": self.proof_size, "principal_line": list(self.principal_line),
                "searches": dict(self.searches), "stopped": self.stopped,
                "frontier": {k: dict(v) for k, v in self.frontier.items()}}

    @property
    def nodes_per_second(self) -> float:
        """Search speed (nodes expanded, or positions enumerated, per second)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def bare(state: UlvState) -> UlvState:
    """The position without its repetition history (U7's values depend on the board and
    the side to move only)."""
    if not state.history:
        return state
    return UlvState.create(state.rules, state.sheep, state.wolves, state.to_move)


def solve(state: UlvState, *, max_nodes: int | None = None, timeout: float | None = None,
          retro_limit: int = RETRO_LIMIT, table_bits: int | None = None,
          progress: Progress | None = None,
          searches: tuple[str, ...] = SEARCHES,
          memory: int | str | None = None) -> SolveResult:
    """Solve a position within a budget (nodes: positions enumerated plus nodes expanded;
    seconds). A short proof search settles easy positions first; then the retrograde method
    (value and distance) gets at most `retro_limit` positions (half of the node budget left when
    that is smaller); when the reachable set is larger, the proof searches get the rest.
    `retro_limit=0` goes straight to the proof searches; `searches` names the proof searches
    that share the budget ("forward", "safe", "mover", "other", or "sheep", "wolves"; see
    _proof_search). `memory` (bytes, text such as "4G", default a share of the free memory)
    bounds the retrograde tables and the proof tables (`table_bits` None: 2**TABLE_BITS entries
    each, or the largest the budget allows when that is less); what cannot fit is refused in one
    line (BudgetError), and every phase reads the clock. A proved value comes with a certificate
    that the reference model re-checked. Ctrl-C stops the search and returns what is known."""
    check_positive("the node budget", max_nodes)
    check_positive("the time budget", timeout)
    if retro_limit < 0:
        raise ValueError("retro_limit must not be negative")
    mem = resolve(memory)
    wanted = len(searches)
    if table_bits is None:
        require(wanted * (BUFFER_BYTES + (ENTRY_BYTES << MIN_TABLE_BITS)), mem,
                f"solving with {wanted} proof searches")
        table_bits = min(TABLE_BITS, table_bits_for(mem // max(1, wanted)))
    require(wanted * (BUFFER_BYTES + (ENTRY_BYTES << table_bits)), mem,
            f"solving with {wanted} proof searches on tables of 2**{table_bits} entries")
    t0 = time.perf_counter()
    text = position_text(state)
    if state.is_terminal():
        value = state.result or "draw"
        return SolveResult(value, None, 0, time.perf_counter() - t0, "rules", text,
                           distance=0 if value != "draw" else None)
    root = bare(state)
    if retro_limit > 0:
        probe = PROBE_NODES if max_nodes is None else min(PROBE_NODES, max_nodes // 4)
        quick = _proof_search(root, text, t0, 0, probe, timeout, PROBE_BITS, None)
        if quick.value != "unknown" or quick.stopped in ("timeout", "interrupted"):
            return quick
        used = quick.nodes
        budget = None if max_nodes is None else max_nodes - used
        limit = retro_limit if budget is None else min(retro_limit, budget // 2)
        if limit > 0:
            deadline = None if timeout is None else t0 + timeout
            try:
                table = retro_solve(root, limit, deadline=deadline, memory=mem)
            except RetroTimeout:
                return SolveResult("unknown", None, used, time.perf_counter() - t0,
                                   "retrograde", text, stopped="timeout")
            if table is not None:
                return _from_table(table, root, text, time.perf_counter() - t0, used)
            used += limit
        return _proof_search(root, text, t0, used, max_nodes, timeout, table_bits, progress,
                             searches)
    return _proof_search(root, text, t0, 0, max_nodes, timeout, table_bits, progress,
                         searches)


def _from_table(table: RetroTable, root: UlvState, text: str, seconds: float,
                used: int) -> SolveResult:
    value, dist = table.value(root)
    best = table.best_move(root)
    line: list[str] = []
    state = root
    while not state.is_terminal() and len(line) < 200:
        m = table.best_move(state)
        if m is None:
            break
        line.append(m.text())
        state = bare(state.play(m))
        if value == "draw" and len(line) >= 20:
            break
    return SolveResult(value, best.text() if best else None, used + table.size, seconds,
                       "retrograde", text, distance=dist if value != "draw" else None,
                       positions=table.size, principal_line=tuple(line),
                       searches={"sheep": "proved" if value == "sheep" else "disproved",
                                 "wolves": "proved" if value == "wolves" else "disproved"})


def _proof_search(root: UlvState, text: str, t0: float, used: int, max_nodes: int | None,
                  timeout: float | None, table_bits: int, progress: Progress | None,
                  searches: tuple[str, ...] = SEARCHES) -> SolveResult:
    """The chosen searches take turns on the budget (by default all four): two searches of
    a sheep win with fewer sheep moves, whose proofs hold in the real game and whose
    failures say nothing, and a win of each side in the real game. "forward": the sheep
    never step sideways (acyclic, small). "safe": the sheep only move where no wolf can
    capture, near the wolves but for a few tempo moves (Prover's safe_only and focus), the
    plan that wins the two-wolf middle game in far fewer nodes than the full search. A
    proof ends it; two real disproofs make a draw."""
    mover, other = root.to_move, 1 - root.to_move
    by_side = {"mover": SIDE_NAMES[mover], "other": SIDE_NAMES[other]}
    wanted = {by_side.get(n, n) for n in searches}
    made: dict[str, ProofSearch] = {}
    for name in ("forward", "safe", "sheep", "wolves"):
        if name in wanted:
            safe = name == "safe"
            made[name] = ProofSearch(root, WOLVES if name == "wolves" else SHEEP,
                                     table_bits, forward_only=name == "forward",
                                     safe_only=safe, focus=SAFE_FOCUS if safe else 0,
                                     profile="steps" if safe else DEFAULT_PROFILE)
    everyone = list(made.values())
    full = {SHEEP: made.get("sheep"), WOLVES: made.get("wolves")}
    stopped: str | None = None
    chunk = 20_000
    turn = 0

    def total() -> int:
        return used + sum(s.nodes for s in everyone)

    try:
        while True:
            if any(s.outcome() == "proved" for s in everyone):
                break
            if _drawn(full):
                break
            busy = [s for s in everyone if s.outcome() == "open"]
            if not busy:
                break
            if max_nodes is not None and total() >= max_nodes:
                stopped = "max-nodes"
                break
            if timeout is not None and time.perf_counter() - t0 >= timeout:
                stopped = "timeout"
                break
            search = busy[turn % len(busy)]
            turn += 1
            step = chunk if max_nodes is None else max(1, min(chunk, max_nodes - total()))
            search.step(step)
            chunk = min(chunk * 2, CHUNK_MAX)  # by nodes only: the same budget, the same run
            if progress is not None:
                progress({"nodes": total(), "seconds": time.perf_counter() - t0,
                          **_named(made)})
    except KeyboardInterrupt:
        stopped = "interrupted"
    seconds = time.perf_counter() - t0
    named = _named(made)
    frontier = {LABELS[name]: search.summary() for name, search in made.items()}
    proved = next((s for s in everyone if s.outcome() == "proved"), None)
    if proved is not None:
        winner = proved.attacker
        certificate = proved.certificate(limit=CERT_LIMIT)
        size = None
        if certificate is not None:
            try:  # the reference model re-checks the proof before the value is reported
                size = check_certificate(root, SIDE_NAMES[winner], certificate)
            except CertificateError:
                certificate = None
        if certificate is None:  # no checked certificate, no claimed value
            return SolveResult("unknown", None, total(), seconds, "proof-number", text,
                               searches=named, stopped="certificate", frontier=frontier)
        best = _proof_move(proved, root, winner)
        return SolveResult(SIDE_NAMES[winner], best.text() if best else None, total(),
                           seconds, "proof-number", text, proof_size=size,
                           principal_line=_proof_line(proved, root, winner),
                           searches=named, stopped=None, frontier=frontier,
                           certificate=certificate)
    keep = full[other]
    if _drawn(full) and keep is not None:
        best = next((m for m, s, w in successors(root)
                     if keep.settled(s, w, other, proof=False)), None)
        return SolveResult("draw", best.text() if best else None, total(), seconds,
                           "proof-number", text, searches=named, stopped=None,
                           frontier=frontier)
    return SolveResult("unknown", None, total(), seconds, "proof-number", text,
                       searches=named, stopped=stopped or "max-nodes", frontier=frontier)


LABELS = {"sheep": "sheep", "wolves": "wolves", "forward": "sheep_forward_only",
          "safe": "sheep_safe_only"}


def _named(made: dict[str, ProofSearch]) -> dict[str, str]:
    """The outcome of each search by name ("not run" for a search left out)."""
    return {LABELS[name]: made[name].outcome() if name in made else "not run"
            for name in ("sheep", "wolves", "forward", "safe")}


def _drawn(full: dict[int, ProofSearch | None]) -> bool:
    """Both real searches ran and neither side can force a win."""
    return all(s is not None and s.outcome() == "disproved" for s in full.values())


def _proof_move(search: ProofSearch, state: UlvState, winner: int,
                avoid: frozenset[int] = frozenset()) -> Move | None:
    """The winner's proved move with the least effort below it, or the loser's move whose
    proof took the most effort (the longest resistance found); moves into `avoid` (keys of
    positions already on a line) are skipped."""
    best: tuple[int, Move] | None = None
    side = 1 - state.to_move
    for m, s, w in successors(state):
        if key_of(s, w, side) in avoid:
            continue
        if state.to_move == winner and not search.settled(s, w, side, proof=True):
            continue
        work = search.work(s, w, side)
        score = work if state.to_move == winner else -work
        if best is None or score < best[0]:
            best = (score, m)
    return best[1] if best else None


def _proof_line(search: ProofSearch, root: UlvState, winner: int) -> tuple[str, ...]:
    """A line through the proof: the winner's cheapest proved move, the loser's most
    resisting move, never repeating a position, up to 120 plies."""
    line: list[str] = []
    state = root
    seen = {key_of(root.sheep, root.wolves, root.to_move)}
    while not state.is_terminal() and len(line) < 120:
        m = _proof_move(search, state, winner, frozenset(seen))
        if m is None:
            break
        line.append(m.text())
        state = bare(state.play(m))
        seen.add(key_of(state.sheep, state.wolves, state.to_move))
    return tuple(line)
