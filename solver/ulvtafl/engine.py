"""The fast Ulvtafl proof engine: bitboards on a 7x7 grid, incremental Zobrist hashing with
a left-right mirror twin, and df-pn (Nagai's depth-first proof-number search) with
Pawlewicz and Lew's 1+epsilon thresholds, heuristic initial numbers, a bucketed
transposition table replaced by subtree size, and repetition-dependent disproofs kept
path-dependent (the graph-history interaction problem, U7).

Boards: the 33 points sit on a 7x7 grid, bit (rank - 1) * 7 + file (a=0); a move in one
direction is one shift of a whole mask (step targets of every sheep at once), masked by
the points a line leaves in that direction. Hash: Zobrist keys of each piece on each point
and of the side to move, updated by XOR per move; the mirror hash uses the keys of the
mirrored points, so a position and its mirror image share min(hash, mirror hash) in the
table. Everything here mirrors rules.ulvtafl.game; the tests compare them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba.core import types
from numba.extending import intrinsic

from fleece.rules.ulvtafl.game import Rules
from fleece.rules.ulvtafl.geometry import COORDS, NUM_POINTS, PADDOCK, is_diagonal_point
from fleece.solver.ulvtafl.kernels import njit

WOLVES, SHEEP = 0, 1
ONGOING, WOLVES_WON, SHEEP_WON, REPEATED = 0, 1, 2, 3
INF = 1 << 40  # proof and disproof numbers saturate here
MAXD = 1500  # deepest path a search follows
NO_DEP = MAXD + 1  # "this disproof depends on no position of the path"
PCOUNT = MAXD + 2  # pf[PCOUNT + (hash & 4095)]: path positions per hash class
PATH_SIZE = PCOUNT + 4096
STACK = 1 << 17  # children buffered along a search path
WORK_BITS = 40
WORK_MASK = (1 << WORK_BITS) - 1
FP_SHIFT = WORK_BITS  # a repetition-dependent disproof keeps a 22-bit fingerprint here
FP_MASK = (1 << 22) - 1
BUCKET = 2  # table entries probed per key (one bucket: one 64-byte cache line)
ENGINE_VERSION = 1  # bumped whenever the table's meaning changes (checkpoints name it)


# ---- the grid ------------------------------------------------------------------------------


def grid_bit(file: int, rank: int) -> int:
    """The grid bit of a point (file a=0, rank 1..7)."""
    return (rank - 1) * 7 + file


P2G = np.array([grid_bit(f, r) for f, r in COORDS], dtype=np.int64)
G2P = np.full(49, -1, dtype=np.int64)
G2P[P2G] = np.arange(NUM_POINTS)
VALID = int(sum(1 << int(g) for g in P2G))
MIRROR = np.arange(49, dtype=np.int64)
for _f, _r in COORDS:
    MIRROR[grid_bit(_f, _r)] = grid_bit(6 - _f, _r)
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
SHIFTS = np.array([dx + 7 * dy for dx, dy in DIRS], dtype=np.int64)
_EXISTS = {(f, r) for f, r in COORDS}
_DIAG = {COORDS[p] for p in range(NUM_POINTS) if is_diagonal_point(p)}


def _remap(bits: int, table: Any) -> int:
    """A mask with each set bit i moved to bit table[i]."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << int(table[low.bit_length() - 1])
        bits ^= low
    return out


def to_grid(points_mask: int) -> int:
    """A point mask (bit i = point i) as a grid mask."""
    return _remap(points_mask, P2G)


def from_grid(grid_mask: int) -> int:
    """A grid mask as a point mask."""
    return _remap(grid_mask, G2P)


PAD = to_grid(PADDOCK)
RANK1 = to_grid(sum(1 << p for p in range(NUM_POINTS) if COORDS[p][1] == 1))


def _line_from(f: int, r: int, dx: int, dy: int) -> bool:
    """True when a line leaves (f, r) in direction (dx, dy) to an existing point."""
    if (f + dx, r + dy) not in _EXISTS:
        return False
    return dx == 0 or dy == 0 or (f, r) in _DIAG


def geometry(rules: Rules, sheep_forward_only: bool = False) -> Any:
    """The direction table of a rule set, int64 (5, 8): row 0 the shift of each direction,
    row 1 the sheep that may step that way, row 2 the wolves that may step that way, row 3
    the points a capture may leave that way (over the next point onto the one beyond), row
    4 1 for a forward sheep direction (an irreversible move)."""
    g = np.zeros((5, 8), dtype=np.int64)
    for i, (dx, dy) in enumerate(DIRS):
        diagonal = dx != 0 and dy != 0
        g[0, i] = dx + 7 * dy
        g[4, i] = 1 if dy > 0 else 0
        sheep_ok = dy > 0 or (dy == 0 and not sheep_forward_only)
        if diagonal and (rules.orthogonal or rules.sheep_orthogonal):
            sheep_ok = False
        wolf_ok = not (diagonal and (rules.orthogonal or rules.wolf_diagonal_captures_only))
        jump_ok = not (diagonal and rules.orthogonal)
        for f, r in COORDS:
            bit = 1 << grid_bit(f, r)
            if not _line_from(f, r, dx, dy):
                continue
            if sheep_ok:
                g[1, i] |= bit
            if wolf_ok:
                g[2, i] |= bit
            if jump_ok and _line_from(f + dx, r + dy, dx, dy):
                g[3, i] |= bit
    return g


def zobrist(seed: int = 20_240_611) -> Any:
    """Zobrist keys, int64 (5, 49): row 0 a sheep on each point, row 1 a wolf, rows 2-3 the
    same keys at the mirrored points (the mirror hash), row 4 [0] the sheep to move."""
    rng = np.random.default_rng(seed)
    z = np.zeros((5, 49), dtype=np.int64)
    z[0] = rng.integers(1, 1 << 62, 49, dtype=np.int64)
    z[1] = rng.integers(1, 1 << 62, 49, dtype=np.int64)
    z[2] = z[0][MIRROR]
    z[3] = z[1][MIRROR]
    z[4, 0] = int(rng.integers(1, 1 << 62, dtype=np.int64))
    return z


Z = zobrist()


# ---- bit operations ------------------------------------------------------------------------


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of an int64 (one machine instruction)."""
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _lowbit(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of a non-zero int64 (one machine instruction)."""
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        from llvmlite import ir

        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


popcount = cast(Callable[[int], int], _popcount)
lowbit = cast(Callable[[int], int], _lowbit)


@njit
def shift(x: int, d: int) -> int:
    """A mask moved d grid bits (up the board for d > 0)."""
    return x << d if d > 0 else x >> -d


# ---- move generation, ends, hashing --------------------------------------------------------


@njit
def has_move(g: Any, s: int, w: int, side: int) -> bool:
    """True when the side to move has a legal move (a step or a first jump)."""
    empty = VALID & ~(s | w)
    if side == SHEEP:
        for i in range(8):  # noqa: SIM110 (compiled: no generator expressions)
            if shift(s & g[1, i], g[0, i]) & empty:
                return True
        return False
    for i in range(8):
        d = g[0, i]
        if shift(w & g[2, i], d) & empty:
            return True
        if shift(shift(w & g[3, i], d) & s, d) & empty:
            return True
    return False


@njit
def status(g: Any, s: int, w: int, side: int) -> int:
    """U10's end checks in order: fewer than 9 sheep, a full paddock, no legal move."""
    if popcount(s) < 9:
        return WOLVES_WON
    if (s | w) & PAD == PAD:
        return SHEEP_WON
    if not has_move(g, s, w, side):
        return SHEEP_WON if side == WOLVES else WOLVES_WON
    return ONGOING


@njit
def hash_of(z: Any, s: int, w: int, side: int) -> Any:
    """(hash, mirror hash) of a board from scratch."""
    h = 0
    m = 0
    x = s
    while x:
        b = lowbit(x)
        x &= x - 1
        h ^= z[0, b]
        m ^= z[2, b]
    x = w
    while x:
        b = lowbit(x)
        x &= x - 1
        h ^= z[1, b]
        m ^= z[3, b]
    if side == SHEEP:
        h ^= z[4, 0]
        m ^= z[4, 0]
    return h, m


@njit
def canon(h: int, m: int) -> int:
    """The table key of a position: the smaller of its hash and its mirror's, never 0."""
    k = h if h < m else m
    return k | 1


@njit
def gen(g: Any, z: Any, s: int, w: int, side: int, h: int, m: int, top: int, cs: Any,
        cw: Any, ch: Any, cm: Any, cirr: Any, scr: Any) -> int:
    """Write every legal move's board into the buffers from `top` on (sheep, wolves, hash,
    mirror hash, irreversible flag); capture chains that end on the same board are one
    child. The number written, or -1 when the buffers are full."""
    n = 0
    cap = cs.shape[0] - top
    zs = z[4, 0]
    if side == SHEEP:
        empty = VALID & ~(s | w)
        for i in range(8):
            d = g[0, i]
            tg = shift(s & g[1, i], d) & empty
            fwd = g[4, i]
            while tg:
                to = lowbit(tg)
                tg &= tg - 1
                fr = to - d
                if n >= cap:
                    return -1
                j = top + n
                cs[j] = s ^ (1 << fr) ^ (1 << to)
                cw[j] = w
                ch[j] = h ^ z[0, fr] ^ z[0, to] ^ zs
                cm[j] = m ^ z[2, fr] ^ z[2, to] ^ zs
                cirr[j] = fwd
                n += 1
        return n
    at = scr[0]
    ss = scr[1]
    kk = scr[2]
    ext = scr[3]
    x = w
    while x:
        wb = lowbit(x)
        x &= x - 1
        others = w ^ (1 << wb)
        d = 0
        at[0] = wb
        ss[0] = s
        kk[0] = 0
        ext[0] = 0
        while d >= 0:
            a = at[d]
            k = kk[d]
            if k < 8:
                kk[d] = k + 1
                if (g[3, k] >> a) & 1:
                    sh = g[0, k]
                    o = a + sh
                    to = o + sh
                    if (ss[d] >> o) & 1 and ((ss[d] | others) >> to) & 1 == 0:
                        ext[d] = 1
                        d += 1
                        at[d] = to
                        ss[d] = ss[d - 1] & ~(1 << o)
                        kk[d] = 0
                        ext[d] = 0
            else:
                if ext[d] == 0 and d > 0:
                    nw = others | (1 << at[d])
                    dup = False
                    for j in range(top, top + n):
                        if cs[j] == ss[d] and cw[j] == nw:
                            dup = True
                            break
                    if not dup:
                        if n >= cap:
                            return -1
                        j = top + n
                        gone = s ^ ss[d]
                        hh = h ^ z[1, wb] ^ z[1, at[d]] ^ zs
                        mm = m ^ z[3, wb] ^ z[3, at[d]] ^ zs
                        while gone:
                            b = lowbit(gone)
                            gone &= gone - 1
                            hh ^= z[0, b]
                            mm ^= z[2, b]
                        cs[j] = ss[d]
                        cw[j] = nw
                        ch[j] = hh
                        cm[j] = mm
                        cirr[j] = 1
                        n += 1
                d -= 1
    if n > 0:
        return n
    empty = VALID & ~(s | w)
    x = w
    while x:
        wb = lowbit(x)
        x &= x - 1
        for i in range(8):
            if (g[2, i] >> wb) & 1 == 0:
                continue
            to = wb + g[0, i]
            if (empty >> to) & 1 == 0:
                continue
            if n >= cap:
                return -1
            j = top + n
            cs[j] = s
            cw[j] = w ^ (1 << wb) ^ (1 << to)
            ch[j] = h ^ z[1, wb] ^ z[1, to] ^ zs
            cm[j] = m ^ z[3, wb] ^ z[3, to] ^ zs
            cirr[j] = 0
            n += 1
    return n


@njit
def mobility(g: Any, s: int, w: int, side: int) -> int:
    """About how many moves the side to move has (steps counted exactly; a wolf that must
    capture counts each first jump)."""
    empty = VALID & ~(s | w)
    n = 0
    if side == SHEEP:
        for i in range(8):
            n += popcount(shift(s & g[1, i], g[0, i]) & empty)
        return n
    for i in range(8):
        d = g[0, i]
        n += popcount(shift(shift(w & g[3, i], d) & s, d) & empty)
    if n > 0:
        return n
    for i in range(8):
        n += popcount(shift(w & g[2, i], g[0, i]) & empty)
    return n


@njit
def can_capture(g: Any, s: int, w: int) -> bool:
    """True when a wolf could jump a sheep now."""
    empty = VALID & ~(s | w)
    for i in range(8):
        d = g[0, i]
        if shift(shift(w & g[3, i], d) & s, d) & empty:
            return True
    return False


def scratch() -> Any:
    """Scratch space of `gen` (the capture-chain stack)."""
    return np.zeros((4, 48), dtype=np.int64)


# ---- perft (a check of the generator against the reference model) ---------------------------


@njit
def perft_rec(g: Any, z: Any, s: int, w: int, side: int, h: int, m: int, depth: int,
              top: int, cs: Any, cw: Any, ch: Any, cm: Any, ci: Any, scr: Any) -> int:
    """Move sequences of length `depth` (U10's ends only; -1 on overflow). Capture chains
    ending on the same board count once per distinct landing path in the rules; this
    generator merges them, so the rules' perft is compared on positions without such
    twins (see the tests)."""
    n = gen(g, z, s, w, side, h, m, top, cs, cw, ch, cm, ci, scr)
    if n < 0:
        return -1
    if depth == 1:
        return n
    total = 0
    for i in range(top, top + n):
        if status(g, cs[i], cw[i], 1 - side) != ONGOING:
            continue
        sub = perft_rec(g, z, cs[i], cw[i], 1 - side, ch[i], cm[i], depth - 1, top + n, cs,
                        cw, ch, cm, ci, scr)
        if sub < 0:
            return -1
        total += sub
    return total


# ---- the transposition table ---------------------------------------------------------------


@njit
def tt_probe(tt: Any, key: int) -> int:
    """The slot of `key` in its bucket, or -1."""
    b = (key >> 1) & (tt.shape[0] - 1) & ~(BUCKET - 1)
    for i in range(b, b + BUCKET):
        if tt[i, 0] == key:
            return i
    return -1


@njit
def tt_store(tt: Any, key: int, phi: int, delta: int, work: int, fp: int, fill: Any) -> int:
    """Store a node's numbers, its work and (for a repetition-dependent disproof) the
    fingerprint of the repeated position; in a full bucket the entry with least work goes
    (a proved or disproved entry counts 2**30 more). Returns the slot."""
    b = (key >> 1) & (tt.shape[0] - 1) & ~(BUCKET - 1)
    victim = -1
    vscore = 1 << 62
    for i in range(b, b + BUCKET):
        k = tt[i, 0]
        if k == key:
            victim = i
            break
        if k == 0:
            if victim < 0 or tt[victim, 0] != 0:
                victim = i
                vscore = -1
            continue
        score = tt[i, 3] & WORK_MASK
        if tt[i, 1] == 0 or tt[i, 2] == 0:
            score += 1 << 30
        if score < vscore:
            vscore = score
            victim = i
    old = tt[victim, 0]
    if old == key:
        work += tt[victim, 3] & WORK_MASK
    elif old == 0:
        fill[0] += 1
    if work > WORK_MASK:
        work = WORK_MASK
    tt[victim, 0] = key
    tt[victim, 1] = phi
    tt[victim, 2] = delta
    tt[victim, 3] = work | (fp << FP_SHIFT)
    return victim


@njit
def fingerprint(h: int) -> int:
    """A 22-bit non-zero fingerprint of a path position's hash."""
    f = (h >> 17) & FP_MASK
    return f if f != 0 else 1


# ---- the proof store ------------------------------------------------------------------------
# Every position the search proves an attacker win is recorded here once, with the number of
# proofs before it (its ordinal), and never replaced. When a position is first proved, each
# child its proof needs is proved already, so it has a smaller ordinal: following children
# of smaller ordinals reads a proof tree back with no cycle and no repair, however often the
# main table replaced entries since.


@njit
def store_add(ps: Any, key: int, ordinal: int) -> bool:
    """Record a proved position's first ordinal; False when it was there (or no room)."""
    mask = ps.shape[0] - 1
    i = (key >> 5) & mask
    for _ in range(64):
        k = ps[i, 0]
        if k == key:
            return False
        if k == 0:
            ps[i, 0] = key
            ps[i, 1] = ordinal
            return True
        i = (i + 1) & mask
    return False


@njit
def store_ordinal(ps: Any, key: int) -> int:
    """The ordinal of a proved position, or -1."""
    mask = ps.shape[0] - 1
    i = (key >> 5) & mask
    for _ in range(64):
        k = ps[i, 0]
        if k == key:
            return int(ps[i, 1])
        if k == 0:
            return -1
        i = (i + 1) & mask
    return -1


@njit
def proved_children(g: Any, z: Any, ps: Any, s: int, w: int, side: int, attacker: int,
                    bound: int, out: Any, scr: Any) -> int:
    """The children of a position (rows sheep, wolves, ordinal of `out`) that are attacker
    wins: finished (ordinal 0) or recorded in the store with an ordinal below `bound`.
    At a defender node, -1 when some child is neither (the store cannot show the proof)."""
    cs = np.zeros(1 << 14, dtype=np.int64)
    cw = np.zeros(1 << 14, dtype=np.int64)
    ch = np.zeros(1 << 14, dtype=np.int64)
    cm = np.zeros(1 << 14, dtype=np.int64)
    ci = np.zeros(1 << 14, dtype=np.int64)
    h, m = hash_of(z, s, w, side)
    n = gen(g, z, s, w, side, h, m, 0, cs, cw, ch, cm, ci, scr)
    k = 0
    for i in range(max(n, 0)):
        st = status(g, cs[i], cw[i], 1 - side)
        o = -1
        if st != ONGOING:
            awin = (st == WOLVES_WON and attacker == WOLVES) or \
                (st == SHEEP_WON and attacker == SHEEP)
            o = 0 if awin else -1
        else:
            o = store_ordinal(ps, canon(ch[i], cm[i]))
            if o >= bound:
                o = -1
        if o < 0:
            if side != attacker:
                return -1
            continue
        out[k, 0] = cs[i]
        out[k, 1] = cw[i]
        out[k, 2] = o
        k += 1
    return k


# ---- df-pn ---------------------------------------------------------------------------------


@njit
def child_terminal(st: int, child_side: int, attacker: int) -> Any:
    """(phi, delta) of a finished or repeated child from its mover's view, in a search for an
    attacker win: phi 0 means the child's mover has what it wants, delta 0 that it cannot.
    A repetition is never an attacker win (U7)."""
    if st == REPEATED:
        return (np.int64(INF), np.int64(0)) if child_side == attacker \
            else (np.int64(0), np.int64(INF))
    awin = (st == WOLVES_WON and attacker == WOLVES) or (st == SHEEP_WON and attacker == SHEEP)
    if awin == (child_side == attacker):
        return np.int64(0), np.int64(INF)
    return np.int64(INF), np.int64(0)


@njit
def initial(g: Any, s: int, w: int, side: int, attacker: int, hw: Any) -> Any:
    """Heuristic (phi, delta) of an unexpanded position from its mover's view: phi about 1
    (one good move may do), delta the mover's mobility (every move must fail), both scaled
    by the attacker's distance to its goal: the sheep's empty paddock points and a wolf
    capture in the air (hw: weights, see PROFILES)."""
    k = mobility(g, s, w, side)
    if k < 1:
        k = 1
    if hw[0] == 0:
        return np.int64(1), np.int64(k)
    # the attacker's cost to prove (pn) and the defender's cost to refute (dn)
    empty_pad = popcount(PAD & ~(s | w))
    threat = 1 if side == WOLVES and can_capture(g, s, w) else 0
    lead = popcount(s) - 9  # sheep the wolves may still take
    if attacker == SHEEP:
        pn = 1 + (hw[1] * empty_pad) // 8 + hw[2] * threat
        dn = 1 + (hw[3] * lead) // 8 + (hw[4] * (9 - empty_pad)) // 8
    else:
        pn = 1 + (hw[3] * lead) // 8 + (hw[4] * (9 - empty_pad)) // 8
        dn = 1 + (hw[1] * empty_pad) // 8 + hw[2] * threat
    if side == attacker:
        return np.int64(pn), np.int64(dn * k)
    return np.int64(dn), np.int64(pn * k)


@njit
def numbers(tt: Any, i: int, cst: Any, ckey: Any, cslot: Any, ci0: Any, cd0: Any,
            cside: int, attacker: int, pf: Any, pbase: int, ply: int) -> Any:
    """(phi, delta, dep) of child i: dep is the shallowest path ply its disproof depends on
    (NO_DEP when none). A repetition-dependent disproof in the table counts only when the
    repeated position is on this path too; otherwise the child is as if unexpanded."""
    st = cst[i]
    if st == REPEATED:
        phi, delta = child_terminal(st, cside, attacker)
        return phi, delta, cslot[i]  # the ply of the repeated position
    if st != ONGOING:
        phi, delta = child_terminal(st, cside, attacker)
        return phi, delta, NO_DEP
    j = cslot[i]
    if j == -2:  # not in the table at the last look (only the expanded child can change)
        return ci0[i], cd0[i], NO_DEP
    key = ckey[i]
    if j < 0 or tt[j, 0] != key:
        j = tt_probe(tt, key)
        cslot[i] = j if j >= 0 else -2
    if j < 0:
        return ci0[i], cd0[i], NO_DEP
    phi = tt[j, 1]
    delta = tt[j, 2]
    fp = (tt[j, 3] >> FP_SHIFT) & FP_MASK
    if fp == 0:
        return phi, delta, NO_DEP
    for q in range(ply, pbase - 1, -1):
        if pf[q] == fp:
            return phi, delta, q
    return ci0[i], cd0[i], NO_DEP


@njit
def mid(g: Any, z: Any, s: int, w: int, side: int, h: int, m: int, thphi: int,
        thdelta: int, ply: int, top: int, attacker: int, tt: Any, ps: Any, cs: Any,
        cw: Any, ch: Any, cm: Any, cirr: Any, cst: Any, ckey: Any, cslot: Any, ci0: Any,
        cd0: Any, ph: Any, pf: Any, pbase: int, scr: Any, ctr: Any, budget: int,
        hw: Any) -> int:
    """One df-pn step (Nagai's multiple iterative deepening in phi/delta form, with the
    1+epsilon trick): expand the most-proving child until the node's numbers reach the
    thresholds or the node budget is spent. A position repeated on the path is no attacker
    win (U7); a disproof that leans on such a repetition above this node is stored with
    the repeated position's fingerprint, so another path does not take it as final.
    Returns the dependency ply of the node's disproof (NO_DEP when path-independent)."""
    ctr[0] += 1
    if ply > ctr[1]:
        ctr[1] = ply
    start_nodes = ctr[0]
    key = canon(h, m)
    if ply >= MAXD - 2:
        ctr[2] += 1
        tt_store(tt, key, INF - 1, INF - 1, 1, 0, ctr[4:5])
        return NO_DEP
    n = gen(g, z, s, w, side, h, m, top, cs, cw, ch, cm, cirr, scr)
    if n < 0:
        ctr[3] += 1
        tt_store(tt, key, INF - 1, INF - 1, 1, 0, ctr[4:5])
        return NO_DEP
    cside = 1 - side
    for i in range(top, top + n):
        st = status(g, cs[i], cw[i], cside)
        cslot[i] = -1
        if st == ONGOING and cirr[i] == 0 and pf[PCOUNT + (ch[i] & 4095)] > 0:
            q = ply - 1
            while q >= pbase:
                if ph[q] == ch[i]:
                    st = REPEATED
                    cslot[i] = q
                    break
                q -= 2
        cst[i] = st
        ckey[i] = canon(ch[i], cm[i])
        if st == ONGOING:
            a, b = initial(g, cs[i], cw[i], cside, attacker, hw)
            ci0[i] = a
            cd0[i] = b
    # touch every child's bucket in one pass of independent loads, so that the processor
    # fetches them from memory at once rather than one after another
    mask = (tt.shape[0] - 1) & ~(BUCKET - 1)
    acc = 0
    for i in range(top, top + n):
        acc ^= tt[(ckey[i] >> 1) & mask, 0]
    ctr[5] ^= acc & 1
    dep = NO_DEP
    phi_n = INF
    delta_n = 0
    while True:
        phi_n = INF
        best = -1
        best_phi = 0
        second = INF
        top_phi = 0
        open_kids = 0
        lost = False
        for i in range(top, top + n):
            cphi, cdelta, _ = numbers(tt, i, cst, ckey, cslot, ci0, cd0, cside, attacker,
                                      pf, pbase, ply)
            if cphi >= INF:
                lost = True
            elif cphi > 0:
                open_kids += 1
                if cphi > top_phi:
                    top_phi = cphi
            if cdelta < phi_n:
                second = phi_n
                phi_n = cdelta
                best = i
                best_phi = cphi
            elif cdelta < second:
                second = cdelta
        # weak proof numbers (Ueda et al.): the largest child plus one per other open child,
        # not the sum, which counts a transposed subtree once per path to it and blows up
        if lost:
            delta_n = INF
        elif open_kids == 0:
            delta_n = 0
        else:
            delta_n = min(top_phi + open_kids - 1, INF - 1)
        if phi_n >= thphi or delta_n >= thdelta or ctr[0] >= budget or best < 0:
            break
        cth_phi = thdelta - (open_kids - 1) if best_phi > 0 else thdelta - open_kids
        if cth_phi <= best_phi:
            cth_phi = best_phi + 1
        cth_delta = min(thphi, second + second // 4 + 1)
        if cth_phi > INF:
            cth_phi = INF
        if cth_delta > INF:
            cth_delta = INF
        ph[ply + 1] = ch[best]
        pf[ply + 1] = fingerprint(ch[best])
        nb = ply + 1 if cirr[best] else pbase
        cls = PCOUNT + (ch[best] & 4095)
        pf[cls] += 1
        mid(g, z, cs[best], cw[best], cside, ch[best], cm[best], cth_phi, cth_delta, ply + 1,
            top + n, attacker, tt, ps, cs, cw, ch, cm, cirr, cst, ckey, cslot, ci0, cd0, ph,
            pf, nb, scr, ctr, budget, hw)
        pf[cls] -= 1
        cslot[best] = -1
    fp = 0
    disproved = (side == attacker and delta_n == 0) or (side != attacker and phi_n == 0)
    if disproved:
        # the shallowest repeated position the disproof needs: every child's (attacker
        # to move) or the best refuting child's (defender to move)
        dep = NO_DEP if side == attacker else -1
        for i in range(top, top + n):
            cphi, cdelta, cdep = numbers(tt, i, cst, ckey, cslot, ci0, cd0, cside,
                                         attacker, pf, pbase, ply)
            if side == attacker:
                dep = min(dep, cdep)
            elif cdelta == 0:
                dep = max(dep, cdep)
        if dep < 0:
            dep = NO_DEP
        if dep < ply:
            fp = pf[dep]
        else:
            dep = NO_DEP
    if phi_n == 0 or delta_n == 0:
        # a settled node keeps its height in the infinite number: plies to the end when
        # the winner hurries and the loser delays, as the table knows them; a certificate
        # walks down heights, so the strategy it reads has no cycle
        hgt = INF
        low = 0
        for i in range(top, top + n):
            cphi, cdelta, _ = numbers(tt, i, cst, ckey, cslot, ci0, cd0, cside, attacker,
                                      pf, pbase, ply)
            if phi_n == 0 and cdelta == 0 and cphi >= INF:
                hgt = min(hgt, cphi - INF)
            elif phi_n != 0 and cphi == 0 and cdelta >= INF:
                low = max(low, cdelta - INF)
        if phi_n == 0:
            delta_n = INF + 1 + (hgt if hgt < INF else 0)
        else:
            phi_n = INF + 1 + low
    if (side == attacker and phi_n == 0) or (side != attacker and delta_n == 0):
        ctr[6] += 1
        if store_add(ps, key, ctr[6]):
            ctr[7] += 1
    tt_store(tt, key, phi_n, delta_n, ctr[0] - start_nodes + 1, fp, ctr[4:5])
    return dep


# ---- what the table proves ---------------------------------------------------------------


@njit
def settled(g: Any, z: Any, tt: Any, s: int, w: int, side: int, attacker: int,
            want_proof: bool) -> bool:
    """True when a position is settled the wanted way: proved an attacker win
    (`want_proof`) or disproved (path-independently), a finished game by its result."""
    st = status(g, s, w, side)
    if st != ONGOING:
        awin = (st == WOLVES_WON and attacker == WOLVES) or \
            (st == SHEEP_WON and attacker == SHEEP)
        return awin == want_proof
    h, m = hash_of(z, s, w, side)
    j = tt_probe(tt, canon(h, m))
    if j < 0:
        return False
    mover_attacks = side == attacker
    if want_proof:
        return bool(tt[j, 1] == 0) if mover_attacks else bool(tt[j, 2] == 0)
    return bool(tt[j, 2] == 0) if mover_attacks else bool(tt[j, 1] == 0)


@njit
def entry(g: Any, z: Any, tt: Any, s: int, w: int, side: int) -> Any:
    """(phi, delta, work, found) of a position's table entry (a settled entry keeps its
    height in the infinite number: INF + plies to the end)."""
    h, m = hash_of(z, s, w, side)
    j = tt_probe(tt, canon(h, m))
    if j < 0:
        return np.int64(1), np.int64(1), np.int64(0), False
    return tt[j, 1], tt[j, 2], tt[j, 3] & WORK_MASK, True


@njit
def stamped_add(skeys: Any, sgen: Any, gen_no: int, key: int) -> bool:
    """Add a key to a set whose slots count only when stamped with `gen_no`; True when new."""
    mask = skeys.shape[0] - 1
    i = (key >> 3) & mask
    while True:
        if sgen[i] != gen_no:
            sgen[i] = gen_no
            skeys[i] = key
            return True
        if skeys[i] == key:
            return False
        i = (i + 1) & mask


@njit
def check_disproof(g: Any, z: Any, tt: Any, rs: int, rw: int, rside: int, attacker: int,
                   skeys: Any, sgen: Any, gen_no: int, nodes: Any, parent: Any,
                   scr: Any, ctr: Any) -> int:
    """Check that the table's disproof of the root is closed: from every position of it, at
    an attacker node every move leads to a disproved position or a finished game the
    attacker has not won, and at a defender node some move does. Such a set is sound (the
    defender can stay in it forever or reach such an end), whatever repetitions the search
    leaned on. Failing positions and their paths from the root are reset to unknown.
    Returns 1 (closed), 0 (failed and reset) or -2 (larger than the buffers)."""
    cs = np.zeros(1 << 16, dtype=np.int64)
    cw = np.zeros(1 << 16, dtype=np.int64)
    ch = np.zeros(1 << 16, dtype=np.int64)
    cm = np.zeros(1 << 16, dtype=np.int64)
    ci = np.zeros(1 << 16, dtype=np.int64)
    limit = nodes.shape[0]
    fails = np.empty(4096, dtype=np.int64)
    nfail = 0
    rh, rm = hash_of(z, rs, rw, rside)
    stamped_add(skeys, sgen, gen_no, canon(rh, rm))
    nodes[0, 0] = rs
    nodes[0, 1] = rw
    nodes[0, 2] = rside
    parent[0] = -1
    count = 1
    head = 0
    while head < count and nfail < 4096:
        me = head
        s = nodes[me, 0]
        w = nodes[me, 1]
        side = nodes[me, 2]
        head += 1
        ctr[0] += 1
        h, m = hash_of(z, s, w, side)
        n = gen(g, z, s, w, side, h, m, 0, cs, cw, ch, cm, ci, scr)
        ok = side == attacker and n > 0
        for i in range(max(n, 0)):
            safe = settled(g, z, tt, cs[i], cw[i], 1 - side, attacker, False)
            if side == attacker and not safe:
                ok = False
                break
            if safe and status(g, cs[i], cw[i], 1 - side) == ONGOING and \
                    stamped_add(skeys, sgen, gen_no, canon(ch[i], cm[i])):
                if count >= limit:
                    return -2
                nodes[count, 0] = cs[i]
                nodes[count, 1] = cw[i]
                nodes[count, 2] = 1 - side
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
            h, m = hash_of(z, nodes[j, 0], nodes[j, 1], nodes[j, 2])
            slot = tt_probe(tt, canon(h, m))
            if slot >= 0:
                tt[slot, 1] = 1
                tt[slot, 2] = 1
                tt[slot, 3] &= WORK_MASK
            j = parent[j]
    return 0 if nfail > 0 else 1


@njit
def children(g: Any, z: Any, s: int, w: int, side: int, out: Any, scr: Any) -> int:
    """The children of a position as rows (sheep, wolves) of `out`; their number."""
    cs = np.zeros(1 << 14, dtype=np.int64)
    cw = np.zeros(1 << 14, dtype=np.int64)
    ch = np.zeros(1 << 14, dtype=np.int64)
    cm = np.zeros(1 << 14, dtype=np.int64)
    ci = np.zeros(1 << 14, dtype=np.int64)
    h, m = hash_of(z, s, w, side)
    n = gen(g, z, s, w, side, h, m, 0, cs, cw, ch, cm, ci, scr)
    for i in range(max(n, 0)):
        out[i, 0] = cs[i]
        out[i, 1] = cw[i]
    return n


@njit
def root_ordinal(z: Any, ps: Any, s: int, w: int, side: int) -> int:
    """The store ordinal of a position, or -1."""
    h, m = hash_of(z, s, w, side)
    return store_ordinal(ps, canon(h, m))
