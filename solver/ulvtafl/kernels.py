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


def njit_bare(func: F) -> F:
    """njit for a hot loop that allocates nothing: no reference counting of the arrays it
    is given (numba's runtime left out), so an inlined helper costs no atomic updates."""
    return cast(F, cast(Any, numba.njit)(cache=True, nogil=True, _nrt=False)(func))


def njit_inline(func: F) -> F:
    """njit for a small hot helper: inlined into its compiled callers (no call, no
    reference counting of the arrays it is given)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(func))


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
                        keys: Any, stat: Any, start: Any, succ: Any, scr: Any, st: Any,
                        steps: int) -> int:
    """Breadth-first enumeration of the positions reachable from `root` with their end
    status and successor lists (CSR: succ[start[i]:start[i+1]]), resumable: st holds (next
    position, positions, edges) between calls, each call handles at most `steps`
    positions. Returns why it stopped: 0 complete, 1 max_nodes reached, 2 the edge space
    ran out, 3 a move list overflowed, 4 paused (call again)."""
    os_ = np.zeros(CAP, dtype=np.int64)
    ow = np.zeros(CAP, dtype=np.int64)
    oi = np.zeros(CAP, dtype=np.int64)
    if st[1] == 0:
        find_or_add(tkeys, tids, root, 0)
        keys[0] = root
        st[1] = 1
    i = st[0]
    n = st[1]
    m = st[2]
    max_edges = succ.shape[0]
    stop = i + steps
    while i < n:
        if i >= stop:
            st[0] = i
            st[1] = n
            st[2] = m
            return 4
        key = keys[i]
        s = key_sheep(key)
        w = key_wolves(key)
        side = key_side(key)
        start[i] = m
        code = status(t, s, w, side)
        stat[i] = code
        if code == ONGOING:
            c = gen(t, s, w, side, os_, ow, oi, scr)
            if c < 0:
                return 3
            if m + c > max_edges:
                return 2
            for j in range(c):
                ck = make_key(os_[j], ow[j], 1 - side)
                r = find_or_add(tkeys, tids, ck, n)
                if r < 0:
                    if n >= max_nodes:
                        return 1
                    keys[n] = ck
                    n += 1
                    r = -r - 1
                succ[m] = r
                m += 1
        i += 1
    start[n] = m
    st[0] = i
    st[1] = n
    st[2] = m
    return 0


@njit
def retro_indegrees(succ: Any, lo: int, hi: int, indeg: Any) -> None:
    """Count predecessors (indeg[j + 1] += 1 for each edge to j) over edges lo..hi-1."""
    for e in range(lo, hi):
        indeg[succ[e] + 1] += 1


@njit
def retro_predecessors(start: Any, succ: Any, lo: int, hi: int, fill: Any,
                       pred: Any) -> None:
    """Write the predecessor lists of positions lo..hi-1's edges."""
    for i in range(lo, hi):
        for e in range(start[i], start[i + 1]):
            j = succ[e]
            pred[fill[j]] = i
            fill[j] += 1


@njit
def retro_seed(lo: int, hi: int, keys: Any, stat: Any, start: Any, left: Any, val: Any,
               dist: Any, queue: Any, qs: Any) -> None:
    """Positions lo..hi-1: moves left to refute, and the finished ones queued with their
    value (val 1 the side to move wins, 2 it loses) at distance 0."""
    for i in range(lo, hi):
        left[i] = start[i + 1] - start[i]
        val[i] = 0
        dist[i] = -1
        code = stat[i]
        if code in (WOLVES_WON, SHEEP_WON):
            side = key_side(keys[i])
            mover_won = (code == WOLVES_WON and side == WOLVES) or \
                (code == SHEEP_WON and side == SHEEP)
            val[i] = 1 if mover_won else 2
            dist[i] = 0
            queue[qs[1]] = i
            qs[1] += 1


@njit
def retro_propagate(pstart: Any, pred: Any, val: Any, dist: Any, left: Any, queue: Any,
                    qs: Any, steps: int) -> bool:
    """Retrograde analysis from the queued positions (qs: head, tail), at most `steps`
    positions a call: a predecessor of a lost position is won, one whose every move was
    refuted is lost; distances count plies (the winner hurries, the loser delays). True
    when done; what is never reached is a draw (U7)."""
    head = qs[0]
    tail = qs[1]
    stop = head + steps
    while head < tail:
        if head >= stop:
            qs[0] = head
            qs[1] = tail
            return False
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
    qs[0] = head
    qs[1] = tail
    return True
