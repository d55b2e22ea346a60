"""The first Ulvtafl proof engine, kept as a yardstick: the benchmark measures the new
engine (engine.py) against it in the same run, and a test checks that both settle the same
positions the same way. df-pn over the point-indexed boards of kernels.py with sum proof
numbers, (1, 1) initial numbers and a linear-probing table; not used by the solver."""

from __future__ import annotations

from typing import Any

import numpy as np

from fleece.rules.ulvtafl.game import SHEEP, UlvState
from fleece.solver.ulvtafl import kernels as k
from fleece.solver.ulvtafl.kernels import (
    CAP,
    INF,
    MAXD,
    ONGOING,
    REPEATED,
    SHEEP_WON,
    WOLVES,
    WOLVES_WON,
    find_or_add,
    gen,
    hslot,
    key_sheep,
    key_side,
    key_wolves,
    make_key,
    njit,
    status,
)
from fleece.solver.ulvtafl.search import key_of, tables

# ---- df-pn (the first engine) ---------------------------------------------------------


@njit
def tt_find(tk: Any, key: int) -> int:
    """The slot holding `key` in the proof table, or -1 (8 slots probed)."""
    mask = tk.shape[0] - 1
    i = hslot(key, mask)
    for _ in range(8):
        if tk[i] == key:
            return i
        if tk[i] == -1:
            return -1
        i = (i + 1) & mask
    return -1


@njit
def tt_store(tk: Any, tphi: Any, tdelta: Any, twork: Any, key: int, phi: int, delta: int,
             work: int) -> None:
    """Store a node's numbers; when its 8 slots are full, replace the one with least work
    (never a settled entry while an unsettled one is there)."""
    mask = tk.shape[0] - 1
    i = hslot(key, mask)
    victim = -1
    vscore = 1 << 62
    for _ in range(8):
        k = tk[i]
        if k == key or k == -1:
            victim = i
            break
        score = twork[i]
        if tphi[i] == 0 or tdelta[i] == 0:
            score += 1 << 50
        if score < vscore:
            vscore = score
            victim = i
        i = (i + 1) & mask
    if tk[victim] == key:
        twork[victim] += work
    else:
        twork[victim] = work
    tk[victim] = key
    tphi[victim] = phi
    tdelta[victim] = delta


@njit
def child_numbers(st: int, child_side: int, attacker: int) -> Any:
    """(phi, delta) of a finished child from its mover's view, in a search for an attacker
    win: phi 0 means the child's mover has what it wants, delta 0 that it cannot."""
    awin = (st == WOLVES_WON and attacker == WOLVES) or (st == SHEEP_WON and attacker == SHEEP)
    mover_is_attacker = child_side == attacker
    if awin == mover_is_attacker:
        return 0, INF
    return INF, 0


@njit
def mid(t: Any, s: int, w: int, side: int, thphi: int, thdelta: int, ply: int, top: int,
        attacker: int, tk: Any, tphi: Any, tdelta: Any, twork: Any, bs: Any, bw: Any,
        bi: Any, bst: Any, bkey: Any, pk: Any, pbase: int, scr: Any, ctr: Any,
        budget: int) -> None:
    """Nagai's df-pn multiple-iterative-deepening step with Pawlewicz's 1+epsilon trick,
    in phi/delta form: expand the most-proving child until the node's numbers reach the
    thresholds. A position repeated on the path counts as no attacker win (U7)."""
    ctr[0] += 1
    if ply > ctr[1]:
        ctr[1] = ply
    start_nodes = ctr[0]
    key = pk[ply]
    if ply >= MAXD - 2:
        ctr[2] += 1
        tt_store(tk, tphi, tdelta, twork, key, INF - 1, INF - 1, 1)
        return
    n = gen(t, s, w, side, bs[top:], bw[top:], bi[top:], scr)
    if n < 0:
        ctr[3] += 1
        tt_store(tk, tphi, tdelta, twork, key, INF - 1, INF - 1, 1)
        return
    cside = 1 - side
    for i in range(top, top + n):
        cs = bs[i]
        cw = bw[i]
        st = status(t, cs, cw, cside)
        ck = make_key(cs, cw, cside)
        if st == ONGOING and bi[i] == 0:
            for j in range(pbase, ply + 1):
                if pk[j] == ck:
                    st = REPEATED
                    break
        bst[i] = st
        bkey[i] = ck
    phi_n = INF
    delta_n = 0
    while True:
        phi_n = INF
        delta_n = 0
        best = -1
        best_phi = 0
        second = INF
        for i in range(top, top + n):
            st = bst[i]
            if st == ONGOING:
                j = tt_find(tk, bkey[i])
                if j >= 0:
                    cphi = tphi[j]
                    cdelta = tdelta[j]
                else:
                    cphi = 1
                    cdelta = 1
            else:
                cphi, cdelta = child_numbers(st, cside, attacker)
            delta_n = min(INF, delta_n + cphi)
            if cdelta < phi_n:
                second = phi_n
                phi_n = cdelta
                best = i
                best_phi = cphi
            elif cdelta < second:
                second = cdelta
        if phi_n >= thphi or delta_n >= thdelta or ctr[0] >= budget or best < 0:
            break
        cth_phi = thdelta - delta_n + best_phi
        cth_delta = min(thphi, second + second // 4 + 1)
        if cth_phi > INF:
            cth_phi = INF
        if cth_delta > INF:
            cth_delta = INF
        pk[ply + 1] = bkey[best]
        nb = ply + 1 if bi[best] else pbase
        mid(t, bs[best], bw[best], cside, cth_phi, cth_delta, ply + 1, top + n, attacker,
            tk, tphi, tdelta, twork, bs, bw, bi, bst, bkey, pk, nb, scr, ctr, budget)
    tt_store(tk, tphi, tdelta, twork, key, phi_n, delta_n, ctr[0] - start_nodes + 1)


@njit
def settled_child(t: Any, cs: int, cw: int, cside: int, attacker: int, tk: Any, tphi: Any,
                  tdelta: Any, want_proof: bool) -> bool:
    """True when a child is settled the wanted way in the table: proved an attacker win
    (`want_proof`) or disproved (no attacker win), a finished child by its result."""
    st = status(t, cs, cw, cside)
    if st != ONGOING:
        awin = (st == WOLVES_WON and attacker == WOLVES) or \
            (st == SHEEP_WON and attacker == SHEEP)
        return awin == want_proof
    j = tt_find(tk, make_key(cs, cw, cside))
    if j < 0:
        return False
    if want_proof:
        return bool(tphi[j] == 0) if cside == attacker else bool(tdelta[j] == 0)
    return bool(tphi[j] == INF) if cside == attacker else bool(tdelta[j] == INF)


@njit
def stamped_add(skeys: Any, sgen: Any, gen_no: int, key: int) -> bool:
    """Add a key to a set whose slots count only when stamped with `gen_no` (so the set is
    emptied by changing the stamp, not by clearing it); True when it was new."""
    mask = skeys.shape[0] - 1
    i = hslot(key, mask)
    while True:
        if sgen[i] != gen_no:
            sgen[i] = gen_no
            skeys[i] = key
            return True
        if skeys[i] == key:
            return False
        i = (i + 1) & mask


@njit
def check_disproof(t: Any, root: int, attacker: int, tk: Any, tphi: Any, tdelta: Any,
                   skeys: Any, sgen: Any, gen_no: int, parent: Any, nodes: Any, scr: Any,
                   work: Any) -> int:
    """Check that the table's disproof of `root` is closed: from every position of it, at
    an attacker node every move leads to a disproved position or a finished game the
    attacker has not won, and at a defender node some move does. Such a set is sound (the
    defender can stay in it forever or reach such an end), so a disproof that leaned on a
    repetition on one path (the GHI problem) or lost an entry of the table is caught. Every
    failing position and the path from the root to it are reset to unknown, so the search
    looks there again. Each position visited counts in work[0] (the search's node count).
    Returns 1 (closed), 0 (failed and reset) or -2 (larger than the buffers)."""
    os_ = np.zeros(CAP, dtype=np.int64)
    ow = np.zeros(CAP, dtype=np.int64)
    oi = np.zeros(CAP, dtype=np.int64)
    limit = nodes.shape[0]
    fails = np.empty(4096, dtype=np.int64)
    nfail = 0
    stamped_add(skeys, sgen, gen_no, root)
    nodes[0] = root
    parent[0] = -1
    count = 1
    head = 0
    while head < count and nfail < 4096:
        me = head
        key = nodes[me]
        head += 1
        work[0] += 1
        s = key_sheep(key)
        w = key_wolves(key)
        side = key_side(key)
        n = gen(t, s, w, side, os_, ow, oi, scr)
        ok = side == attacker and n > 0
        for i in range(max(n, 0)):
            cs = os_[i]
            cw = ow[i]
            cside = 1 - side
            safe = settled_child(t, cs, cw, cside, attacker, tk, tphi, tdelta, False)
            if side == attacker and not safe:
                ok = False
                break
            if safe and status(t, cs, cw, cside) == ONGOING:
                ck = make_key(cs, cw, cside)
                if stamped_add(skeys, sgen, gen_no, ck):
                    if count >= limit:
                        return -2
                    nodes[count] = ck
                    parent[count] = me
                    count += 1
            if side != attacker and safe:
                ok = True
                break
        if not ok:
            fails[nfail] = me
            nfail += 1
    for f in range(nfail):
        j = fails[f]
        while j >= 0:
            slot = tt_find(tk, nodes[j])
            if slot >= 0:
                tphi[slot] = 1
                tdelta[slot] = 1
            j = parent[j]
    return 0 if nfail > 0 else 1


@njit
def proof_size(t: Any, root: int, attacker: int, tk: Any, tphi: Any, tdelta: Any,
               seen_keys: Any, seen_ids: Any, scr: Any, limit: int) -> int:
    """The number of distinct unfinished positions of the proof DAG below a proved root
    (attacker nodes: the first proved move; defender nodes: every move), checking each step
    against the table; -1 when a needed entry is missing, -2 past `limit`."""
    os_ = np.zeros(CAP, dtype=np.int64)
    ow = np.zeros(CAP, dtype=np.int64)
    oi = np.zeros(CAP, dtype=np.int64)
    stack = np.empty(limit + 1, dtype=np.int64)
    top = 0
    stack[0] = root
    top = 1
    count = 0
    find_or_add(seen_keys, seen_ids, root, 0)
    while top > 0:
        top -= 1
        key = stack[top]
        count += 1
        if count > limit:
            return -2
        s = key_sheep(key)
        w = key_wolves(key)
        side = key_side(key)
        n = gen(t, s, w, side, os_, ow, oi, scr)
        if n <= 0:
            return -1
        found = False
        for i in range(n):
            cside = 1 - side
            ok = settled_child(t, os_[i], ow[i], cside, attacker, tk, tphi, tdelta, True)
            if side == attacker and not ok:
                continue
            if side != attacker and not ok:
                return -1
            found = True
            if status(t, os_[i], ow[i], cside) == ONGOING:
                ck = make_key(os_[i], ow[i], cside)
                if find_or_add(seen_keys, seen_ids, ck, count) < 0:
                    if top >= limit:
                        return -2
                    stack[top] = ck
                    top += 1
            if side == attacker:
                break
        if not found:
            return -1
    return count


class LegacyProofSearch:
    """The first engine's df-pn for "the attacker can force a won end", resumable in chunks.

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
        j = int(tt_find(self.tk, self.root))
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
            mid(self.t, s.sheep, s.wolves, s.to_move, k.INF, k.INF, 0, 0, self.attacker,
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
        return int(check_disproof(self.t, self.root, self.attacker, self.tk, self.tphi,
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

