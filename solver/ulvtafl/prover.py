"""A df-pn proof search on the fast engine (engine.py), as a library object: budgets of
nodes, seconds and memory, a progress callback, a clean stop on Ctrl-C, checkpoints that
resume, and the proof as a certificate (the attacker's move in every position of it).

    prover = Prover(initial_state(UlvtaflOptions(setup=20)), SHEEP, memory="4G")
    prover.run(seconds=3600, progress=print, checkpoint="runs/20", every=600)
    if prover.outcome() == "proved":
        cert = prover.certificate()      # position text -> move text
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import SHEEP, Move, Rules, UlvState, apply_move
from fleece.rules.ulvtafl.geometry import KING_DIAMETER
from fleece.rules.ulvtafl.notation import board_text, parse_position, position_text
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl.budget import BudgetError, check_positive, require, resolve
from fleece.solver.ulvtafl.certificate import Certificate, proof_order, read_seeds

SIDE = ("wolves", "sheep")
TABLE_ENTRY_BYTES = 32  # a table entry: key, phi, delta, work and fingerprint
STORE_ENTRY_BYTES = 16  # a proof-store entry: key, ordinal and height
STORE_SHARE = 4  # the store has at least a quarter as many entries as the table
ENTRY_BYTES = TABLE_ENTRY_BYTES + STORE_ENTRY_BYTES // STORE_SHARE  # with its store share
STORE_MIN = 1 << 10  # the smallest proof store, in entries
BUFFER_BYTES = 8 * e.KID_COLS * e.STACK  # the per-search child buffer
MIN_TABLE_BITS = 10
PROFILES: dict[str, tuple[int, ...]] = {
    # engine.initial's profile and evaluate's weights: (on, empty paddock points, sheep
    # lost, capture threat, paddock points filled, sheep steps to fill the paddock).
    # "steps" is for sheep searches on safe moves (safe-only, focus): focused, it proves
    # the horizon game's plies 35 and 33 in 16x and 27x fewer nodes than "mobility";
    # where the sheep give up pieces (the one-wolf starts, unrestricted) "mobility" is
    # far better (reports/ulvtafl-profiles.md, benchmarks/ulvtafl_profiles.py).
    "mobility": (0, 0, 0, 0, 0, 0),
    "paddock": (1, 8, 4, 4, 2, 0),
    "steps": (1, 8, 4, 4, 16, 24),
}
DEFAULT_PROFILE = "mobility"
MAX_FOCUS = KING_DIAMETER  # a focus radius this large reaches every point: no restriction
DEFAULT_EPSILON = 0.25  # the 1+epsilon trick's epsilon (engine.P_EPS holds it in 64ths)
MAX_EPSILON = 4.0
FOCUS_FAR = 3  # the forward moves away from the wolves a focused search keeps
CHUNK = 100_000  # nodes between two looks at the clock (well under 0.5 s)
HISTORY_EVERY = 60.0  # seconds between two points of a search's root numbers over time
HISTORY_POINTS = 5000  # the points a checkpoint keeps (the latest; 83 hours a minute apart)
HISTORY_KEYS = ("nodes", "seconds", "proof_number", "disproof_number", "table_fill",
                "tree_nodes", "proved_leaves")
Progress = Callable[[dict[str, Any]], None]


class CheckpointError(FleeceError, ValueError):
    """A checkpoint that cannot be read, or belongs to another search."""


def check_options(attacker: int, profile: str, safe_only: bool, forward_only: bool,
                  focus: int = 0, epsilon: float = DEFAULT_EPSILON) -> None:
    """Refuse, in one line naming the option, a profile that does not exist, a focus radius
    or epsilon out of range, or a restriction of the sheep's moves in a search that is not
    for a sheep win."""
    epsilon_64ths(epsilon)
    if profile not in PROFILES:
        raise FleeceError(f"'{profile}' is not a profile ({', '.join(PROFILES)})",
                          field="profile")
    if not 0 <= focus <= MAX_FOCUS:
        raise FleeceError(f"the focus radius must be 0 (off) to {MAX_FOCUS}, not {focus}",
                          field="focus")
    if (safe_only or forward_only or focus) and attacker != SHEEP:
        field = "safe_only" if safe_only else "forward_only" if forward_only else "focus"
        raise FleeceError("only the sheep's moves can be restricted (safe_only, "
                          "forward_only, focus)", field=field)


def epsilon_64ths(epsilon: float) -> int:
    """The 1+epsilon trick's epsilon as the engine holds it (64ths); FleeceError in one line
    for an epsilon outside 0..4 or not a multiple of 1/64."""
    sixty_fourths = round(epsilon * 64) if 0 <= epsilon <= MAX_EPSILON else -1
    if sixty_fourths < 0 or abs(epsilon * 64 - sixty_fourths) > 1e-9:
        raise FleeceError(f"epsilon must be a multiple of 1/64 from 0 to {MAX_EPSILON:g}, "
                          f"not {epsilon:g}", field="epsilon")
    return sixty_fourths


def refuse_seed(cert: Certificate, attacker: int, rules: Rules) -> None:
    """Refuse, in one line, a seed certificate of the other side's win or of other rules
    than the search's: its proofs would not be proofs of this search."""
    if cert.winner != SIDE[attacker]:
        whose = {"sheep": "sheep's", "wolves": "wolves'"}
        raise FleeceError(f"a certificate of the {whose.get(cert.winner, cert.winner)} win "
                          f"cannot seed a search for the {whose[SIDE[attacker]]} win",
                          field="seeds")
    if cert.root.rules != rules:
        raise FleeceError("the certificate is of other rules than the search",
                          field="seeds")


def table_bits_for(memory: int) -> int:
    """The largest table (as a power of two) that fits the memory budget with the buffers."""
    room = memory - BUFFER_BYTES
    bits = MIN_TABLE_BITS
    while (ENTRY_BYTES << (bits + 1)) <= room and bits < 36:
        bits += 1
    require(BUFFER_BYTES + (ENTRY_BYTES << MIN_TABLE_BITS), memory, "a proof search")
    return bits


def store_entries(table_bits: int, memory: int | None = None) -> int:
    """The proof store's size: a quarter of the table's entries, or, within a memory budget,
    the largest power of two that the memory left beside the table holds (a long search
    records more proofs than it keeps table entries, and a full store loses proofs and
    slows every lookup)."""
    store = max(STORE_MIN, (1 << table_bits) // STORE_SHARE)
    if memory is not None:
        left = memory - BUFFER_BYTES - (TABLE_ENTRY_BYTES << table_bits)
        while STORE_ENTRY_BYTES * store * 2 <= left:
            store *= 2
    return store


def grid_state(state: UlvState) -> tuple[int, int, int]:
    """(sheep, wolves, side) of a state on the engine's grid."""
    return e.to_grid(state.sheep), e.to_grid(state.wolves), state.to_move


class Prover:
    """df-pn for "the attacker can force a won end" from a root (U7's reading).

    Proofs are sound by construction (a repetition never proves anything, so a proof is
    the same on every path); a disproof counts only once `engine.check_disproof` finds it
    closed. `forward_only` (a sheep attacker only) keeps the sheep from stepping sideways:
    an acyclic game whose sheep proofs are proofs of the real game and whose disproofs mean
    nothing ("failed"). `safe_only` (a sheep attacker only) lets the sheep play only moves
    after which no wolf can capture: again its proofs hold and its disproofs mean nothing.
    `focus` > 0 (a sheep attacker only) keeps the sheep's moves within `focus` king steps
    of a wolf and, away from them, only FOCUS_FAR forward moves and one sideways (tempo
    moves there are much alike): a far smaller search, whose proofs hold and whose
    disproofs mean nothing.
    `epsilon` is the 1+epsilon trick's: a child is searched until its number exceeds the
    second-best sibling's by that fraction (a multiple of 1/64; smaller switches sooner).
    `read_store=False` keeps the search from reading proofs back from the proof store
    (only to measure what reading it saves); `settled_first=True` makes a full table keep
    settled entries before open ones (only to measure replacement by subtree size). The
    table takes `table_bits` (2**bits entries of 32 bytes) or the largest size the
    `memory` budget allows."""

    def __init__(self, state: UlvState, attacker: int, *, table_bits: int | None = None,
                 memory: int | str | None = None, forward_only: bool = False,
                 profile: str = DEFAULT_PROFILE, safe_only: bool = False,
                 read_store: bool = True, focus: int = 0,
                 epsilon: float = DEFAULT_EPSILON, settled_first: bool = False) -> None:
        check_options(attacker, profile, safe_only, forward_only, focus, epsilon)
        budget = resolve(memory)
        # the store takes the memory the table leaves, unless the table's size was given
        store_budget = budget if memory is not None or table_bits is None else None
        if table_bits is None:
            table_bits = table_bits_for(budget)
        elif memory is not None:
            require(BUFFER_BYTES + (ENTRY_BYTES << table_bits), budget,
                    f"a table of 2**{table_bits} entries")
        self._aim(state)
        self.attacker = attacker
        self.forward_only = forward_only
        self.safe_only = safe_only
        self.focus = focus
        self.profile = profile
        self.epsilon = epsilon
        self.prm = np.zeros(e.PRM_SIZE, dtype=np.int64)
        self.prm[e.P_SAFE] = int(safe_only)
        self.prm[e.P_RADIUS] = focus
        self.prm[e.P_FAR] = FOCUS_FAR
        self.prm[e.P_EPS] = epsilon_64ths(epsilon)
        self.prm[e.P_NO_STORE] = int(not read_store)
        self.prm[e.P_SETTLED_FIRST] = int(settled_first)
        self.prm[e.P_EVAL:e.P_EVAL + len(PROFILES[profile])] = PROFILES[profile]
        self.g = e.geometry(state.rules, forward_only)
        self.tt = e.table(1 << table_bits)
        self.table_bits = table_bits
        self.kid = np.zeros((e.STACK, e.KID_COLS), dtype=np.int64)
        self.fr = np.zeros((e.MAXD + 2, e.FRAME_COLS), dtype=np.int64)
        self.pcls = np.zeros(e.HASH_CLASSES, dtype=np.int64)
        self.scr = e.scratch()
        # nodes, deepest ply, depth cuts, buffer overflows, table fill, proofs the store had
        # no room for, proofs, store fill
        self.ctr = np.zeros(8, dtype=np.int64)
        self.ps = np.zeros((store_entries(table_bits, store_budget), 2), dtype=np.int64)
        self.checks = 0
        self.seconds = 0.0
        self.trace: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []

    # ---- numbers --------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        """Nodes expanded so far (over every run and resumed checkpoint)."""
        return int(self.ctr[0])

    @property
    def fill(self) -> float:
        """The share of table entries in use."""
        return float(self.ctr[4]) / int(self.tt.shape[0])

    @property
    def store_fill(self) -> float:
        """The share of proof-store entries in use (near 1, proofs find no room)."""
        return float(self.ctr[7]) / int(self.ps.shape[0])

    def root_numbers(self) -> tuple[int, int]:
        """The root's (proof number, disproof number) for the attacker's win."""
        return self._numbers(*self.root) or (1, 1)

    def numbers(self, state: UlvState) -> tuple[int, int] | None:
        """A position's (proof number, disproof number) for the attacker's win as the table
        holds them; None when the table does not hold the position."""
        return self._numbers(*grid_state(state))

    def _numbers(self, s: int, w: int, side: int) -> tuple[int, int] | None:
        phi, delta, _, found = e.entry(self.g, e.Z, self.tt, s, w, side)
        if not found:
            return None
        return (int(phi), int(delta)) if side == self.attacker else (int(delta), int(phi))

    def outcome(self) -> str:
        """"proved" (the attacker wins), "disproved" (it cannot), "failed" (a forward-only
        search found no proof), "unverified" (a disproof too large to check), or "open"."""
        pn, dn = self.root_numbers()
        if pn == 0:
            return "proved"
        if dn == 0 and self.restricted:
            return "failed"
        if dn == 0:
            if self.too_large:
                return "unverified"
            return "disproved" if self.verified_disproof else "open"
        return "open"

    @property
    def restricted(self) -> bool:
        """True when the attacker's moves are restricted (its disproofs mean nothing)."""
        return self.forward_only or self.safe_only or self.focus > 0

    def summary(self) -> dict[str, object]:
        """Outcome, nodes, root proof and disproof numbers, deepest ply, table fill, and the
        proofs the proof store had no room for (a certificate needing one is incomplete)."""
        pn, dn = self.root_numbers()
        inf = int(e.INF)
        return {"outcome": self.outcome(), "nodes": self.nodes,
                "proof_number": "inf" if pn >= inf else pn,
                "disproof_number": "inf" if dn >= inf else dn,
                "deepest_ply": int(self.ctr[1]), "table_fill": round(self.fill, 4),
                "proofs_unrecorded": int(self.ctr[5])}

    def seed(self, cert: Certificate) -> int:
        """Record a certificate's proof in the proof store, so that the search takes each
        of its positions as proved wherever it meets them, and this search's certificate
        can run through them (the whole is re-checked from its root, as always). The
        certificate is verified first (CertificateError otherwise). Returns the positions
        added (a position already recorded, or one the store had no room for, is not)."""
        self.check_seed(cert)
        return self.record(proof_order(cert.root, cert.winner, cert.strategy))

    def seed_files(self, paths: tuple[str, ...] | list[str],
                   notify: Callable[[str, Certificate], None] | None = None) -> int:
        """Seed with every certificate of the files (certificate.read_seeds: each file
        re-checked once a process; `notify` hears of each before it is checked): the
        positions added."""
        added = 0
        for path in paths:
            def before(cert: Certificate, path: str = path) -> None:
                self.check_seed(cert)  # refused before the long check
                if notify is not None:
                    notify(path, cert)

            for cert, order in read_seeds(str(path), before):
                self.check_seed(cert)
                added += self.record(order)
        return added

    def check_seed(self, cert: Certificate) -> None:
        """Refuse (FleeceError) a seed certificate of the other side or of other rules."""
        refuse_seed(cert, self.attacker, self.state.rules)

    def record(self, order: list[tuple[int, int, int, int]]) -> int:
        """Record the positions of a verified proof (certificate.proof_order: children
        first) in the proof store as proved; the positions added."""
        base = int(self.ctr[6])  # ordinals: children below parents, below later proofs
        added = 0
        for i, (sheep, wolves, side, height) in enumerate(order, 1):
            h, m = e.hash_of(e.Z, e.to_grid(sheep), e.to_grid(wolves), side)
            done = int(e.store_add(self.ps, e.canon(h, m), base + i, height))
            added += done > 0
            self.ctr[5] += done < 0
        self.ctr[6] = base + len(order)
        self.ctr[7] += added
        return added

    # ---- searching ------------------------------------------------------------------------

    def retarget(self, state: UlvState) -> None:
        """Search from another root with the same table and stores: a proof holds for every
        root and every path, and a disproof that leans on a repetition counts only where
        that repetition is on the path, so what the table knows stays true (walking back
        along a game, each earlier root finds the later positions proved). The root must
        have the same rules."""
        if state.rules != self.state.rules:
            raise FleeceError("a search keeps its rule set; start a new one for other rules",
                              field="position")
        self._aim(state)

    def _aim(self, state: UlvState) -> None:
        """Make `state` (its board and side to move, no history) the root, with no verdict
        on a disproof of it yet, and no root numbers over time (they were another root's)."""
        self.state = UlvState.create(state.rules, state.sheep, state.wolves, state.to_move)
        self.root = grid_state(self.state)
        self.verified_disproof = False
        self.too_large = False
        self.history = []

    def step(self, nodes: int) -> str:
        """Search about `nodes` more nodes (one uninterrupted compiled call per root
        iteration); the outcome so far. A disproof of the root is accepted only when the
        closure check passes; otherwise the check resets the gap and the search goes on."""
        budget = self.nodes + max(1, nodes)
        s, w, side = self.root
        while self.outcome() == "open" and self.nodes < budget:
            e.dfpn(self.g, e.Z, self.tt, self.ps, self.kid, self.fr, self.pcls, self.scr,
                   self.ctr, self.prm, s, w, side, self.attacker, budget)
            dn = self.root_numbers()[1]
            if dn == 0 and self.restricted:
                break
            if dn == 0 and not self.verified_disproof:
                verdict = self._check_disproof()
                self.verified_disproof = verdict == 1
                self.too_large = verdict == -2
        return self.outcome()

    def run(self, nodes: int | None = None, seconds: float | None = None,
            progress: Progress | None = None, checkpoint: str | Path | None = None,
            every: float = 600.0, report_every: float = 10.0, step: int = CHUNK,
            stop: threading.Event | None = None) -> str:
        """Search within a budget of nodes and/or seconds (None: until settled), `step`
        nodes at a time: the clock and `stop` are read between steps (the default step is
        well under a second of work). `progress` gets a dict every `report_every` seconds
        (nodes, nodes/s, root pn/dn, table fill); with `checkpoint` the state is saved
        there every `every` seconds and at the end. Ctrl-C, or `stop` set by another
        thread, ends it cleanly (checkpoint written) with "interrupted". Each step starts
        again from the root with fresh thresholds, so the step is part of the search: the
        same nodes and step give the same search, another step another one."""
        check_positive("the step", step)
        clock = RunClock(self, self.nodes, nodes, seconds, progress, checkpoint, every,
                         report_every)
        why = "open"
        try:
            while self.outcome() == "open":
                why = clock.spent(self.nodes)
                if stop is not None and stop.is_set():
                    why = "interrupted"
                if why != "open":
                    break
                size = step
                if nodes is not None:
                    size = min(size, nodes - (self.nodes - clock.start))
                self.step(size)
                clock.tick()
        except KeyboardInterrupt:
            why = "interrupted"
        return clock.end(why)

    def progress_info(self, start: int = 0, spent: float = 0.0) -> dict[str, Any]:
        """The progress line's figures (`start`: the node count the rate is taken from)."""
        pn, dn = self.root_numbers()
        rate = (self.nodes - start) / spent if spent > 0 else 0.0
        return {"nodes": self.nodes, "seconds": round(self.seconds, 1),
                "nodes_per_second": round(rate), "proof_number": pn,
                "disproof_number": dn, "table_fill": round(self.fill, 4),
                "store_fill": round(self.store_fill, 4),
                "deepest_ply": int(self.ctr[1]), "outcome": self.outcome()}

    def _check_disproof(self) -> int:
        limit = max(1024, min(self.tt.shape[0], 1 << 23))
        cap = 1 << (2 * limit).bit_length()
        skeys = np.zeros(cap, dtype=np.int64)
        sgen = np.zeros(cap, dtype=np.int64)
        nodes = np.zeros((limit, 3), dtype=np.int64)
        parent = np.zeros(limit, dtype=np.int64)
        self.checks += 1
        s, w, side = self.root
        return int(e.check_disproof(self.g, e.Z, self.tt, s, w, side, self.attacker, skeys,
                                    sgen, self.checks, nodes, parent, self.scr, self.ctr))

    # ---- the table, in the rules' point masks ----------------------------------------------

    def settled(self, sheep: int, wolves: int, side: int, proof: bool) -> bool:
        """A position (rules' point masks) settled as proved (`proof`) or disproved."""
        return bool(e.settled(self.g, e.Z, self.tt, e.to_grid(sheep), e.to_grid(wolves),
                              side, self.attacker, proof))

    def work(self, sheep: int, wolves: int, side: int) -> int:
        """The search effort spent below a position (0 when not in the table)."""
        return int(e.entry(self.g, e.Z, self.tt, e.to_grid(sheep), e.to_grid(wolves),
                           side)[2])

    # ---- the proof as a certificate -------------------------------------------------------

    def certificate(self, limit: int = 20_000_000) -> dict[str, str] | None:
        """The proof as a strategy: for every attacker-to-move position of it (position
        text), the move to play; every defender reply leads to a finished attacker win or
        to a position of the strategy, and no line repeats a position (see
        certificate.check_certificate, which verifies it with the reference model alone).
        Read from the proof store (children of smaller ordinals, so no cycle). None when
        the root is not proved, the store was too full to keep the whole proof, or the
        proof has more than `limit` positions."""
        if self.outcome() != "proved":
            return None
        return self.store_certificate(limit)

    def store_certificate(self, limit: int = 20_000_000) -> dict[str, str] | None:
        """The certificate read from the proof store alone (None when it lacks a part)."""
        s, w, side = self.root
        top = int(e.root_ordinal(e.Z, self.ps, s, w, side))
        if top < 0:
            return None
        out = np.zeros((1 << 14, 3), dtype=np.int64)
        strategy: dict[tuple[int, int], tuple[int, int]] = {}
        done: set[tuple[int, int, int]] = set()
        todo = [(s, w, side, top)]
        while todo:
            s, w, side, bound = todo.pop()
            if (s, w, side) in done:
                continue
            done.add((s, w, side))
            if len(done) > limit:
                return None
            n = int(e.proved_children(self.g, e.Z, self.ps, s, w, side, self.attacker,
                                      bound, out, self.scr, self.kid))
            if n <= 0:
                return None
            rows = out[:n].copy()
            if side == self.attacker:
                best = int(np.argmin(rows[:, 2]))
                rows = rows[best:best + 1]
                strategy[(s, w)] = (int(rows[0, 0]), int(rows[0, 1]))
            for cs, cw, o in rows.tolist():
                if o > 0:
                    todo.append((cs, cw, 1 - side, o))
        rules = self.state.rules
        cert = {}
        for (s, w), (cs, cw) in strategy.items():
            state = UlvState.create(rules, e.from_grid(s), e.from_grid(w), self.attacker)
            move = move_to(state, e.from_grid(cs), e.from_grid(cw))
            cert[position_text(state)] = move.text()
        return cert

    def height(self, state: UlvState) -> int | None:
        """The plies to the attacker's win from a proved position, as the table says (None
        when it is not proved there)."""
        s, w, side = grid_state(state)
        phi, delta, _, hit = e.entry(self.g, e.Z, self.tt, s, w, side)
        proved = (phi == 0) if side == self.attacker else (delta == 0)
        if not hit or not proved:
            return None
        return max(int(phi), int(delta)) - int(e.INF)

    def proof_size(self, limit: int = 20_000_000) -> int | None:
        """Positions (unfinished, either side to move) of the certificate's proof tree."""
        cert = self.certificate(limit)
        if cert is None:
            return None
        from fleece.solver.ulvtafl.certificate import proof_positions

        return proof_positions(self.state, SIDE[self.attacker], cert)

    # ---- checkpoints ----------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """What identifies this search (a checkpoint must match it to resume)."""
        return {"format": "fleece-ulvtafl-dfpn", "engine": e.ENGINE_VERSION,
                "root": position_text(self.state), "attacker": SIDE[self.attacker],
                "forward_only": self.forward_only, "safe_only": self.safe_only,
                "focus": self.focus, "profile": self.profile, "epsilon": self.epsilon,
                "table_bits": self.table_bits}

    def save(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the search state to `path` (a folder; file `search.npz` in it) atomically:
        a temporary file renamed over the old one. Refuses to replace an existing
        checkpoint unless `overwrite`."""
        folder = Path(path)
        if folder.exists() and not folder.is_dir():
            raise CheckpointError(f"{folder}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / "search.npz"
        if target.exists() and not overwrite:
            raise CheckpointError(f"{target}: a checkpoint is already there (resume it, or "
                                  "allow overwriting)")
        pn, dn = self.root_numbers()  # where the search stands now (checkpoint show)
        info = {**self.meta(), "nodes": self.nodes, "seconds": self.seconds,
                "proof_number": int(pn), "disproof_number": int(dn), "checks": self.checks,
                "verified_disproof": self.verified_disproof,
                "too_large": self.too_large, "trace": self.trace[-2000:],
                "history": self.history[-HISTORY_POINTS:]}
        fd, tmp = tempfile.mkstemp(prefix=".search.", suffix=".npz", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, tt=self.tt, ps=self.ps, ctr=self.ctr,
                         meta=np.frombuffer(json.dumps(info).encode(), dtype=np.uint8))
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(cls, path: str | Path, state: UlvState | None = None,
             attacker: int | None = None, forward_only: bool | None = None,
             memory: int | str | None = None, safe_only: bool | None = None,
             profile: str | None = None, focus: int | None = None,
             epsilon: float | None = None) -> Prover:
        """A search resumed from a checkpoint folder. CheckpointError in one line when it is
        missing, corrupt, from another engine version, or (when given) for another root,
        attacker or rule set; BudgetError when its table exceeds `memory`. Given more
        `memory` than it was saved with, its table and proof store grow to the sizes a fresh
        search with that memory takes, every entry kept (streamed from the file)."""
        target = Path(path) / "search.npz"
        if not target.is_file():
            raise CheckpointError(f"{target}: no checkpoint there")
        with _reading(target), np.load(target, allow_pickle=False) as data:
            info = _meta(target, data)
            if info.get("engine") != e.ENGINE_VERSION:
                raise CheckpointError(f"{target}: written by engine version "
                                      f"{info.get('engine')}, this is version "
                                      f"{e.ENGINE_VERSION}")
            bits = int(info["table_bits"])
            if memory is not None:
                require(BUFFER_BYTES + (ENTRY_BYTES << bits), resolve(memory),
                        f"the checkpoint's table of 2**{bits} entries")
            ctr = data["ctr"]
            if ctr.shape != (8,):
                raise CheckpointError(f"{target}: corrupt checkpoint (counters)")
            grown = None if memory is None else _grown(target, bits, resolve(memory))
            if grown is None:
                tt = data["tt"]
                ps = data["ps"]
            else:
                tt, ps = grown
            if memory is not None:  # its store may have had memory beside the table
                require(BUFFER_BYTES + tt.nbytes + ps.nbytes, resolve(memory),
                        "the checkpoint's table and proof store")
        root = parse_position(info["root"])
        if state is not None and position_text(UlvState.create(
                state.rules, state.sheep, state.wolves, state.to_move)) != info["root"]:
            raise CheckpointError(f"{target}: a checkpoint of {info['root']!r}, not of this "
                                  "position or rule set")
        if attacker is not None and SIDE[attacker] != info["attacker"]:
            raise CheckpointError(f"{target}: a search for a {info['attacker']} win")
        if forward_only is not None and forward_only != info["forward_only"]:
            raise CheckpointError(f"{target}: forward-only is {info['forward_only']} there")
        if profile is not None and profile != info["profile"]:
            raise CheckpointError(f"{target}: a search with the {info['profile']} profile")
        if safe_only is not None and safe_only != bool(info.get("safe_only", False)):
            raise CheckpointError(f"{target}: safe-only is "
                                  f"{bool(info.get('safe_only', False))} there")
        if focus is not None and focus != int(info.get("focus", 0)):
            raise CheckpointError(f"{target}: a search with focus {int(info.get('focus', 0))}"
                                  " there")
        saved_epsilon = float(info.get("epsilon", DEFAULT_EPSILON))
        if epsilon is not None and epsilon != saved_epsilon:
            raise CheckpointError(f"{target}: a search with epsilon {saved_epsilon:g} there")
        if grown is not None:  # checked the rest first: growing reads the whole file
            with _reading(target):
                ctr[4], ctr[7] = _refill(target, tt, ps)
            bits = tt.shape[0].bit_length() - 1
        elif tt.shape != (1 << bits, 4) or ps.ndim != 2 or ps.shape[1] != 2:
            raise CheckpointError(f"{target}: corrupt checkpoint (table shape)")
        prover = cls(root, SIDE.index(info["attacker"]), table_bits=MIN_TABLE_BITS,
                     forward_only=info["forward_only"], profile=info["profile"],
                     safe_only=bool(info.get("safe_only", False)),
                     focus=int(info.get("focus", 0)), epsilon=saved_epsilon)
        if tt.ctypes.data % 64 == 0 and tt.flags.c_contiguous:
            prover.tt = tt  # already one bucket per cache line
        else:
            prover.tt = e.table(tt.shape[0])
            prover.tt[:] = tt
            del tt
        prover.ps = ps
        prover.table_bits = bits
        prover.ctr = ctr.copy()
        prover.seconds = float(info["seconds"])
        prover.checks = int(info["checks"])
        prover.verified_disproof = bool(info["verified_disproof"])
        prover.too_large = bool(info["too_large"])
        prover.trace = list(info.get("trace", []))
        prover.history = list(info.get("history", []))
        return prover


def saved_search(folder: str | Path) -> dict[str, Any]:
    """What a checkpoint folder's search is and how far it got, read without its table:
    its identity (root, attacker, options, engine version), nodes, seconds, the root's
    numbers when it was saved (not in checkpoints older than them), each run's
    end (`trace`), the root numbers over time (`history`) and its counters (`counters`:
    deepest ply, table entries in use, proofs, proofs without room, store entries).
    CheckpointError in one line when the folder has none or it is damaged."""
    target = Path(folder) / "search.npz"
    if not target.is_file():
        raise CheckpointError(f"{target}: no checkpoint there")
    with _reading(target), np.load(target, allow_pickle=False) as data:
        info = _meta(target, data)
        ctr = data["ctr"]
        if ctr.shape != (8,):
            raise CheckpointError(f"{target}: corrupt checkpoint (counters)")
    info["counters"] = {"deepest_ply": int(ctr[1]), "table_entries_used": int(ctr[4]),
                        "proofs": int(ctr[6]), "proofs_without_room": int(ctr[5]),
                        "store_entries_used": int(ctr[7])}
    return info


def _meta(target: Path, data: Any) -> dict[str, Any]:
    """A checkpoint file's meta record (inside `_reading`); refuses another kind of file."""
    info = json.loads(bytes(data["meta"]).decode())
    if not isinstance(info, dict) or info.get("format") != "fleece-ulvtafl-dfpn":
        raise CheckpointError(f"{target}: not an Ulvtafl proof-search checkpoint")
    return info


REFILL_ROWS = 1 << 22  # checkpoint rows read at a time while a table grows


@contextmanager
def _reading(target: Path) -> Iterator[None]:
    """Turn what a damaged checkpoint file raises while it is read into one line."""
    try:
        yield
    except (CheckpointError, BudgetError):
        raise
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError,
            UnicodeDecodeError) as exc:
        raise CheckpointError(f"{target}: unreadable or corrupt checkpoint "
                              f"({type(exc).__name__})") from None


def _member_rows(archive: zipfile.ZipFile, name: str) -> tuple[Any, int, int]:
    """An open array member of a checkpoint (table "tt" or store "ps"), positioned at its
    first row, with its rows and columns, checked to be int64 rows of the right width."""
    handle = archive.open(f"{name}.npy")
    version = np.lib.format.read_magic(handle)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
    cols = 4 if name == "tt" else 2
    if fortran or dtype != np.dtype(np.int64) or len(shape) != 2 or shape[1] != cols:
        handle.close()
        raise ValueError(f"{name}: not a table of int64 rows")
    return handle, int(shape[0]), cols


def _grown(target: Path, bits: int, memory: int) -> tuple[Any, Any] | None:
    """Empty table and store for a checkpoint resumed with more memory than it was saved
    with (the sizes a fresh search with that memory takes, never smaller than the saved
    ones), or None when neither would grow."""
    with zipfile.ZipFile(target) as archive:
        handle, old_store, _ = _member_rows(archive, "ps")
        handle.close()
    new_bits = max(bits, table_bits_for(memory))
    while new_bits > bits and BUFFER_BYTES + (TABLE_ENTRY_BYTES << new_bits) \
            + STORE_ENTRY_BYTES * old_store > memory:
        new_bits -= 1  # the saved proofs must keep their room beside the larger table
    store = max(old_store, store_entries(new_bits, memory))
    if new_bits == bits and store == old_store:
        return None
    return e.table(1 << new_bits), np.zeros((store, 2), dtype=np.int64)


def _refill(target: Path, tt: Any, ps: Any) -> tuple[int, int]:
    """Stream a checkpoint's table and store into larger ones, a slice at a time (the old
    table is never whole in memory beside the new one). Returns the entries in use of each;
    a store too small for every old proof is refused (its ordinals would be lost)."""
    ctr = np.zeros(8, dtype=np.int64)
    placed = 0
    old_proofs = 0
    with zipfile.ZipFile(target) as archive:
        for name in ("tt", "ps"):
            handle, rows, cols = _member_rows(archive, name)
            with handle:
                done = 0
                while done < rows:
                    take = min(REFILL_ROWS, rows - done)
                    raw = handle.read(take * cols * 8)
                    if len(raw) != take * cols * 8:
                        raise EOFError(f"{name}: truncated")
                    chunk = np.frombuffer(raw, dtype=np.int64).reshape(take, cols)
                    if name == "tt":
                        e.refill_table(chunk, tt, ctr)
                    else:
                        old_proofs += int(np.count_nonzero(chunk[:, 0]))
                        placed += e.refill_store(chunk, ps)
                    done += take
    if placed != old_proofs:
        raise CheckpointError(f"{target}: its proofs do not fit a store of {len(ps):,} "
                              "entries")
    return int(ctr[4]), placed


T = TypeVar("T")


def evenly(points: list[T], count: int) -> list[T]:
    """At most `count` of the points (a history's, to show), evenly spread, the first and
    the last kept."""
    if len(points) <= count:
        return list(points)
    if count == 1:
        return points[-1:]
    last = len(points) - 1
    return [points[round(i * last / (count - 1))] for i in range(count)]


class Run(Protocol):
    """What a budgeted search keeps of its runs (Prover, tree.ProofTree): its time, each
    run's last figures (`trace`) and its root numbers over time (`history`: a point a
    minute and one at each run's end)."""

    seconds: float
    trace: list[dict[str, Any]]
    history: list[dict[str, Any]]

    def progress_info(self, start: int = 0, spent: float = 0.0) -> dict[str, Any]: ...

    def save(self, path: str | Path, overwrite: bool = False) -> Path: ...

    def outcome(self) -> str: ...


@dataclass
class RunClock:
    """The clock of a budgeted run (Prover.run, tree.ProofTree.run): its node and time
    budgets, progress reports and saves at their intervals, and its end (time added up,
    last figures in the trace, saved, reported). Refuses a budget of zero in one line."""

    search: Run
    start: int  # the node count when the run began
    nodes: int | None
    seconds: float | None
    progress: Progress | None
    target: str | Path | None
    every: float
    report_every: float
    t0: float = field(init=False)
    base: float = field(init=False)  # the search's seconds before this run
    last_report: float = field(init=False)
    last_save: float = field(init=False)
    last_point: float = field(init=False)

    def __post_init__(self) -> None:
        check_positive("the node budget", self.nodes)
        check_positive("the time budget", self.seconds)
        self.t0 = self.last_report = self.last_save = self.last_point = time.perf_counter()
        self.base = self.search.seconds

    def spent(self, work: int) -> str:
        """"timeout" or "max-nodes" once a budget is spent (`work`: the node count now),
        else "open"."""
        if self.seconds is not None and time.perf_counter() - self.t0 >= self.seconds:
            return "timeout"
        if self.nodes is not None and work - self.start >= self.nodes:
            return "max-nodes"
        return "open"

    def tick(self) -> None:
        """Add up the time; report and save when their intervals have passed."""
        now = time.perf_counter()
        self.search.seconds = self.base + now - self.t0
        if self.progress is not None and now - self.last_report >= self.report_every:
            self.last_report = now
            self.progress(self.search.progress_info(self.start, now - self.t0))
        if now - self.last_point >= HISTORY_EVERY:
            self.last_point = now
            self._point(self.search.progress_info(self.start, now - self.t0))
        if self.target is not None and now - self.last_save >= self.every:
            self.last_save = now
            self.search.save(self.target, overwrite=True)

    def _point(self, info: dict[str, Any]) -> None:
        """One point of the root numbers over time into the search's history."""
        history = self.search.history
        history.append({k: info[k] for k in HISTORY_KEYS if k in info})
        del history[:-HISTORY_POINTS]

    def end(self, why: str) -> str:
        """The run's end; the outcome, or why an open search stopped."""
        search = self.search
        search.seconds = self.base + time.perf_counter() - self.t0
        last = search.progress_info(self.start, time.perf_counter() - self.t0)
        search.trace.append(last)
        self._point(last)
        if self.target is not None:
            search.save(self.target, overwrite=True)
        if self.progress is not None:
            self.progress(last)
        out = search.outcome()
        return why if out == "open" and why != "open" else out


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---- certificates from any oracle of proved moves ------------------------------------------

def move_to(state: UlvState, sheep: int, wolves: int) -> Move:
    """The legal move of `state` that leads to the board (sheep, wolves)."""
    for m in state.legal_moves():
        if apply_move(state.sheep, state.wolves, m) == (sheep, wolves):
            return m
    raise ValueError(f"no move of {position_text(state)} leads to "
                     f"{board_text(sheep, wolves)}")


def mirror_points(mask: int) -> int:
    """A point mask reflected left-right (files a <-> g)."""
    return e.from_grid(e._remap(e.to_grid(mask), e.MIRROR))
