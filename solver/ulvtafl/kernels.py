"""Compiled (numba) hot loops of the Ulvtafl solver: move generation on bit masks, end
checks, perft, the reachable-set enumeration and retrograde analysis, and df-pn.

A board is two int64 masks (sheep, wolves; bit i = point i of fleece.rules.ulvtafl.geometry)
and the side to move (0 wolves, 1 sheep). `key` packs a position into one int64: the sheep
mask (33 bits), the two wolf points (6 bits each, 63 for "no second wolf") and the side.
Status codes: 0 the game goes on, 1 the wolves have won, 2 the sheep have won, 3 a repeated
position (a draw, U7). Everything here mirrors rules.ulvtafl.game; the tests compare them.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import numba
import numpy as np

from fleece.rules.ulvtafl.geometry import COORDS, NUM_POINTS, PADDOCK

F = TypeVar("F")


def njit(func: F) -> F:
    """numba.njit with an on-disk cache, typed for mypy."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))


WOLVES, SHEEP = 0, 1
ONGOING, WOLVES_WON, SHEEP_WON, REPEATED = 0, 1, 2, 3
NP = NUM_POINTS
PAD = np.int64(PADDOCK)
WSTEP, SSTEP, JOVER, JTO = 0, NP, 2 * NP, 3 * NP
CAP = 1 << 16  # successors one position may have (capture chains can number thousands)
STACK = 1 << 19  # successors buffered along a search path
MAXD = 1200  # deepest path a search follows
INF = 1 << 40  # proof and disproof numbers saturate here
NO_WOLF = 63

_BIT37 = np.full(37, -1, dtype=np.int64)
for _k in range(36):
    _BIT37[(1 << _k) % 37] = _k
BIT37 = _BIT37
RANK = np.array([r for _, r in COORDS], dtype=np.int64)


@njit
def bit_index(low: int) -> int:
    """The index of a single set bit."""
    return int(BIT37[low % 37])


@njit
def popcount(x: int) -> int:
    """The number of set bits."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit
def make_key(s: int, w: int, side: int) -> int:
    """Pack a position into one int64."""
    low = w & -w
    lo = bit_index(low)
    rest = w ^ low
    hi = bit_index(rest) if rest else NO_WOLF
    return s | (lo << 33) | (hi << 39) | (side << 45)


@njit
def key_sheep(key: int) -> int:
    """The sheep mask of a key."""
    return key & ((1 << 33) - 1)


@njit
def key_wolves(key: int) -> int:
    """The wolf mask of a key."""
    lo = (key >> 33) & 63
    hi = (key >> 39) & 63
    w = 1 << lo
    if hi != NO_WOLF:
        w |= 1 << hi
    return w


@njit
def key_side(key: int) -> int:
    """The side to move of a key."""
    return (key >> 45) & 1


@njit
def gen(t: Any, s: int, w: int, side: int, out_s: Any, out_w: Any, out_irr: Any,
        scr: Any) -> int:
    """Write every legal move's resulting board into out_* (one entry per move: a capture
    chain with its own landing points is its own move, U10); out_irr marks irreversible
    moves (captures and forward sheep steps). The number of moves, or -1 on overflow."""
    n = 0
    cap = out_s.shape[0]
    occ = s | w
    if side == SHEEP:
        x = s
        while x:
            low = x & -x
            x ^= low
            p = bit_index(low)
            for k in range(8):
                q = t[SSTEP + p, k]
                if q < 0:
                    break
                if (occ >> q) & 1 == 0:
                    if n >= cap:
                        return -1
                    out_s[n] = s ^ low ^ (1 << q)
                    out_w[n] = w
                    out_irr[n] = 1 if RANK[q] > RANK[p] else 0
                    n += 1
        return n
    at = scr[0]
    ss = scr[1]
    kk = scr[2]
    ext = scr[3]
    x = w
    while x:
        low = x & -x
        x ^= low
        others = w ^ low
        d = 0
        at[0] = bit_index(low)
        ss[0] = s
        kk[0] = 0
        ext[0] = 0
        while d >= 0:
            a = at[d]
            k = kk[d]
            if k < 8 and t[JTO + a, k] >= 0:
                kk[d] = k + 1
                o = t[JOVER + a, k]
                to = t[JTO + a, k]
                if (ss[d] >> o) & 1 and ((ss[d] | others) >> to) & 1 == 0:
                    ext[d] = 1
                    d += 1
                    at[d] = to
                    ss[d] = ss[d - 1] & ~(1 << o)
                    kk[d] = 0
                    ext[d] = 0
            else:
                if ext[d] == 0 and d > 0:
                    if n >= cap:
                        return -1
                    out_s[n] = ss[d]
                    out_w[n] = others | (1 << at[d])
                    out_irr[n] = 1
                    n += 1
                d -= 1
    if n > 0:
        return n
    x = w
    while x:
        low = x & -x
        x ^= low
        p = bit_index(low)
        for k in range(8):
            q = t[WSTEP + p, k]
            if q < 0:
                break
            if (occ >> q) & 1 == 0:
                if n >= cap:
                    return -1
                out_s[n] = s
                out_w[n] = w ^ low ^ (1 << q)
                out_irr[n] = 0
                n += 1
    return n


@njit
def has_move(t: Any, s: int, w: int, side: int) -> bool:
    """True when the side to move has a legal move (a step or a first jump)."""
    occ = s | w
    if side == SHEEP:
        x = s
        while x:
            low = x & -x
            x ^= low
            p = bit_index(low)
            for k in range(8):
                q = t[SSTEP + p, k]
                if q < 0:
                    break
                if (occ >> q) & 1 == 0:
                    return True
        return False
    x = w
    while x:
        low = x & -x
        x ^= low
        p = bit_index(low)
        for k in range(8):
            q = t[WSTEP + p, k]
            if q < 0:
                break
            if (occ >> q) & 1 == 0:
                return True
        for k in range(8):
            q = t[JTO + p, k]
            if q < 0:
                break
            if (s >> t[JOVER + p, k]) & 1 and (occ >> q) & 1 == 0:
                return True
    return False


@njit
def status(t: Any, s: int, w: int, side: int) -> int:
    """U10's end checks in order: fewer than 9 sheep, a full paddock, no legal move."""
    if popcount(s) < 9:
        return WOLVES_WON
    if (s | w) & PAD == PAD:
        return SHEEP_WON
    if not has_move(t, s, w, side):
        return SHEEP_WON if side == WOLVES else WOLVES_WON
    return ONGOING


def scratch() -> Any:
    """Scratch space of `gen` (the capture-chain stack)."""
    return np.zeros((4, 40), dtype=np.int64)


def buffers(size: int = STACK) -> tuple[Any, Any, Any]:
    """A stack of successor buffers (sheep, wolves, irreversible flag): each ply of a
    search writes its moves above those of the plies before it."""
    return (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int64))


# ---- perft -----------------------------------------------------------------------------


@njit
def perft_rec(t: Any, s: int, w: int, side: int, depth: int, ply: int, top: int, bs: Any,
              bw: Any, bi: Any, scr: Any, pk: Any, pbase: int, rep: bool) -> int:
    """Move sequences of length `depth` from an unfinished position (U10); with `rep`, a
    position repeated since the last irreversible move ends the game (U7)."""
    n = gen(t, s, w, side, bs[top:], bw[top:], bi[top:], scr)
    if n < 0:
        return -1
    if depth == 1:
        return n
    total = 0
    for i in range(top, top + n):
        cs = bs[i]
        cw = bw[i]
        cside = 1 - side
        if status(t, cs, cw, cside) != ONGOING:
            continue
        key = make_key(cs, cw, cside)
        irr = bi[i]
        if rep and irr == 0:
            seen = False
            for j in range(pbase, ply + 1):
                if pk[j] == key:
                    seen = True
                    break
            if seen:
                continue
        pk[ply + 1] = key
        sub = perft_rec(t, cs, cw, cside, depth - 1, ply + 1, top + n, bs, bw, bi, scr, pk,
                        ply + 1 if irr else pbase, rep)
        if sub < 0:
            return -1
        total += sub
    return total


# ---- hashing ---------------------------------------------------------------------------


@njit
def hslot(key: int, mask: int) -> int:
    """A hash of a key, reduced to a table slot."""
    h = np.uint64(key) * np.uint64(11400714819323198485)
    return int(np.int64(h >> np.uint64(21)) & mask)


@njit
def find_or_add(tkeys: Any, tids: Any, key: int, new_id: int) -> int:
    """Look a key up in an open-addressing table; insert it with `new_id` when absent.
    Returns the id found, or -(new_id + 1) when it was inserted."""
    mask = tkeys.shape[0] - 1
    i = hslot(key, mask)
    while True:
        k = tkeys[i]
        if k == key:
            return int(tids[i])
        if k == -1:
            tkeys[i] = key
            tids[i] = new_id
            return -(new_id + 1)
        i = (i + 1) & mask


@njit
def find(tkeys: Any, tids: Any, key: int) -> int:
    """The id of a key, or -1."""
    mask = tkeys.shape[0] - 1
    i = hslot(key, mask)
    while True:
        k = tkeys[i]
        if k == key:
            return int(tids[i])
        if k == -1:
            return -1
        i = (i + 1) & mask


# ---- retrograde analysis ---------------------------------------------------------------


@njit
def enumerate_reachable(t: Any, root: int, max_nodes: int, tkeys: Any, tids: Any,
                        keys: Any, stat: Any, start: Any, succ: Any, scr: Any) -> Any:
    """Breadth-first enumeration of the positions reachable from `root` with their end
    status and successor lists (CSR: succ[start[i]:start[i+1]]). Returns (nodes, edges,
    why): why 0 complete, 1 max_nodes reached, 2 the edge space ran out, 3 a move list
    overflowed."""
    os_ = np.zeros(CAP, dtype=np.int64)
    ow = np.zeros(CAP, dtype=np.int64)
    oi = np.zeros(CAP, dtype=np.int64)
    find_or_add(tkeys, tids, root, 0)
    keys[0] = root
    n = 1
    m = 0
    i = 0
    max_edges = succ.shape[0]
    while i < n:
        key = keys[i]
        s = key_sheep(key)
        w = key_wolves(key)
        side = key_side(key)
        start[i] = m
        st = status(t, s, w, side)
        stat[i] = st
        if st == ONGOING:
            c = gen(t, s, w, side, os_, ow, oi, scr)
            if c < 0:
                return n, m, 3
            if m + c > max_edges:
                return n, m, 2
            for j in range(c):
                ck = make_key(os_[j], ow[j], 1 - side)
                r = find_or_add(tkeys, tids, ck, n)
                if r < 0:
                    if n >= max_nodes:
                        return n, m, 1
                    keys[n] = ck
                    n += 1
                    r = -r - 1
                succ[m] = r
                m += 1
        i += 1
    start[n] = m
    return n, m, 0


@njit
def retrograde(n: int, keys: Any, stat: Any, start: Any, succ: Any, val: Any,
               dist: Any) -> None:
    """Values and distances by retrograde analysis over the enumerated graph: val 1 the side
    to move wins, 2 it loses, 0 neither can force a won end (a draw under U7); dist the
    plies to the end with optimal play (the winner hurries, the loser delays)."""
    m = start[n]
    indeg = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        indeg[succ[e] + 1] += 1
    pstart = np.cumsum(indeg)
    fill = pstart[:n].copy()
    pred = np.empty(m, dtype=np.int32)
    for i in range(n):
        for e in range(start[i], start[i + 1]):
            j = succ[e]
            pred[fill[j]] = i
            fill[j] += 1
    left = np.empty(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for i in range(n):
        left[i] = start[i + 1] - start[i]
        val[i] = 0
        dist[i] = -1
        st = stat[i]
        if st in (WOLVES_WON, SHEEP_WON):
            side = key_side(keys[i])
            mover_won = (st == WOLVES_WON and side == WOLVES) or \
                (st == SHEEP_WON and side == SHEEP)
            val[i] = 1 if mover_won else 2
            dist[i] = 0
            queue[tail] = i
            tail += 1
    while head < tail:
        j = queue[head]
        head += 1
        for e in range(pstart[j], pstart[j + 1]):
            i = pred[e]
            if val[i] != 0:
                continue
            if val[j] == 2:
                val[i] = 1
                dist[i] = dist[j] + 1
                queue[tail] = i
                tail += 1
            else:
                left[i] -= 1
                if left[i] == 0:
                    val[i] = 2
                    dist[i] = dist[j] + 1
                    queue[tail] = i
                    tail += 1


# ---- df-pn -------------------------------------------------------------------------------


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
