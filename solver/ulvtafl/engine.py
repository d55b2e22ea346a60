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
from fleece.solver.ulvtafl.kernels import njit, njit_bare, njit_inline

WOLVES, SHEEP = 0, 1
ONGOING, WOLVES_WON, SHEEP_WON, REPEATED = 0, 1, 2, 3
INF = 1 << 40  # proof and disproof numbers saturate here
MAXD = 1500  # deepest path a search follows
NO_DEP = MAXD + 1  # "this disproof depends on no position of the path"
HASH_CLASSES = 4096  # path positions are counted per (hash & 4095): a quick repetition test
STACK = 1 << 17  # children buffered along a search path
WORK_BITS = 40
WORK_MASK = (1 << WORK_BITS) - 1
FP_SHIFT = WORK_BITS  # a repetition-dependent disproof keeps a 22-bit fingerprint here
FP_MASK = (1 << 22) - 1
BUCKET = 2  # table entries probed per key (one bucket: one 64-byte cache line)
ENGINE_VERSION = 2  # bumped whenever the table's meaning changes (checkpoints name it)
ORD_BITS = 40  # a proof-store entry: the ordinal in the low bits, the height above
ORD_MASK = (1 << ORD_BITS) - 1
# Replacement by subtree size: a settled entry (a proof or a disproof) is worth keeping over
# an open one of the same work (it is final, and a disproof's closure check needs it), but
# not over a far larger open subtree: a bonus without limit fills a full table with settled
# leaves and evicts the open path again and again (the 17-sheep start on a 2**13 table
# stays open after 300M nodes that way; with these weights it is proved in 7.4M).
SETTLED_TIMES, SETTLED_PLUS = 4, 64


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


@intrinsic
def _prefetch_row(typingctx: Any, arr: Any, row: Any) -> Any:
    """Ask the processor to fetch row `row` of a 2-D array into the cache (a hint: no
    fault, no wait)."""
    sig = types.void(arr, row)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        import llvmlite
        from llvmlite import ir
        from llvmlite.binding import llvm_version_info
        from numba.core import cgutils

        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        shape = cgutils.unpack_tuple(builder, ary.shape)  # type: ignore[no-untyped-call]
        strides = cgutils.unpack_tuple(builder, ary.strides)  # type: ignore[no-untyped-call]
        ptr = cgutils.get_item_pointer2(  # type: ignore[no-untyped-call]
            context, builder, data=ary.data, shape=shape, strides=strides,
            layout=aryty.layout, inds=[args[1], zero], wraparound=False, boundscheck=False)
        i32 = ir.IntType(32)
        if llvm_version_info >= (16,) or getattr(llvmlite, "opaque_pointers_enabled", False):
            name = "llvm.prefetch.p0"  # opaque pointers: one pointer type
        else:  # typed pointers (LLVM 14 and 15): the intrinsic takes an i8*
            ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
            name = "llvm.prefetch.p0i8"
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, fnty, name)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read, high locality, data
        return context.get_dummy_value()

    return sig, codegen


popcount = cast(Callable[[int], int], _popcount)
lowbit = cast(Callable[[int], int], _lowbit)
prefetch_row = cast(Callable[[Any, int], None], _prefetch_row)


@njit_inline
def shift(x: int, d: int) -> int:
    """A mask moved d grid bits (up the board for d > 0)."""
    return x << d if d > 0 else x >> -d


# ---- move generation, ends, hashing --------------------------------------------------------


@njit_inline
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


@njit_inline
def status(g: Any, s: int, w: int, side: int) -> int:
    """U10's end checks in order: fewer than 9 sheep, a full paddock, no legal move."""
    if popcount(s) < 9:
        return WOLVES_WON
    if (s | w) & PAD == PAD:
        return SHEEP_WON
    if not has_move(g, s, w, side):
        return SHEEP_WON if side == WOLVES else WOLVES_WON
    return ONGOING


@njit_inline
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


@njit_inline
def canon(h: int, m: int) -> int:
    """The table key of a position: the smaller of its hash and its mirror's, never 0."""
    k = h if h < m else m
    return k | 1




# ---- move generation -----------------------------------------------------------------------
# A child is one row of a 2-D int64 array (one 64-byte cache line): its boards, hashes, the
# numbers the search caches for it, and flags.
K_S, K_W, K_H, K_M, K_PHI, K_DELTA, K_DEP, K_IRR = range(8)
KID_COLS = 8


GRID = (1 << 49) - 1  # every cell of the 7x7 grid, points of the board or not
NOT_A = GRID & ~sum(1 << grid_bit(0, r) for r in range(1, 8))  # cells with a west neighbour
NOT_G = GRID & ~sum(1 << grid_bit(6, r) for r in range(1, 8))  # cells with an east one


@njit_inline
def near(w: int, radius: int) -> int:
    """The grid points within `radius` king steps of a wolf (the focus restriction's
    zone)."""
    x = w
    for _ in range(radius):
        x |= ((x & NOT_G) << 1) | ((x & NOT_A) >> 1)
        x |= ((x << 7) & GRID) | (x >> 7)
    return x


@njit_inline
def gen(g: Any, z: Any, s: int, w: int, side: int, h: int, m: int, top: int, kid: Any,
        scr: Any, safe_only: bool, radius: int = 0, far: int = 0) -> int:
    """Write every legal move's board into rows `top`.. of `kid` (sheep, wolves, hash,
    mirror hash, irreversible flag); capture chains that end on the same board are one
    child. `safe_only` keeps only the sheep moves after which no wolf can capture. With
    `radius` > 0 (focus) the sheep keep the moves that start or end within `radius` king
    steps of a wolf, and of the others only the first `far` forward moves (straight ahead
    before diagonal, rearmost first) and the first sideways one: far from the wolves one
    tempo move is much like another. The number written, or -1 when the buffer is full."""
    n = 0
    cap = kid.shape[0] - top
    zs = z[4, 0]
    if side == SHEEP:
        empty = VALID & ~(s | w)
        zone = near(w, radius) if radius > 0 else VALID
        far_side = 0
        far_fwd = 0
        for i in range(8):
            d = g[0, i]
            tg = shift(s & g[1, i], d) & empty
            fwd = g[4, i]
            while tg:
                to = lowbit(tg)
                tg &= tg - 1
                fr = to - d
                ns = s ^ (1 << fr) ^ (1 << to)
                if safe_only and can_capture(g, ns, w):
                    continue
                if ((1 << fr) | (1 << to)) & zone == 0:
                    if fwd:
                        if far_fwd >= far:
                            continue
                        far_fwd += 1
                    else:
                        if far_side:
                            continue
                        far_side = 1
                if n >= cap:
                    return -1
                j = top + n
                kid[j, K_S] = ns
                kid[j, K_W] = w
                kid[j, K_H] = h ^ z[0, fr] ^ z[0, to] ^ zs
                kid[j, K_M] = m ^ z[2, fr] ^ z[2, to] ^ zs
                kid[j, K_IRR] = fwd
                n += 1
        return n
    at = scr[0]
    ss = scr[1]
    kk = scr[2]
    ext = scr[3]
    if can_capture(g, s, w):
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
                            if kid[j, K_S] == ss[d] and kid[j, K_W] == nw:
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
                            kid[j, K_S] = ss[d]
                            kid[j, K_W] = nw
                            kid[j, K_H] = hh
                            kid[j, K_M] = mm
                            kid[j, K_IRR] = 1
                            n += 1
                    d -= 1
        return n
    empty = VALID & ~(s | w)
    for i in range(8):
        d = g[0, i]
        tg = shift(w & g[2, i], d) & empty
        while tg:
            to = lowbit(tg)
            tg &= tg - 1
            wb = to - d
            if n >= cap:
                return -1
            j = top + n
            kid[j, K_S] = s
            kid[j, K_W] = w ^ (1 << wb) ^ (1 << to)
            kid[j, K_H] = h ^ z[1, wb] ^ z[1, to] ^ zs
            kid[j, K_M] = m ^ z[3, wb] ^ z[3, to] ^ zs
            kid[j, K_IRR] = 0
            n += 1
    return n


@njit_inline
def mobility(g: Any, s: int, w: int, side: int) -> int:
    """About how many moves the side to move has (steps counted exactly; a wolf that must
    capture counts each first jump); 0 exactly when it has no legal move."""
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


@njit_inline
def can_capture(g: Any, s: int, w: int) -> bool:
    """True when a wolf could jump a sheep now."""
    empty = VALID & ~(s | w)
    for i in range(8):
        d = g[0, i]
        if shift(shift(w & g[3, i], d) & s, d) & empty:
            return True
    return False


@njit_inline
def end_and_mobility(g: Any, s: int, w: int, side: int) -> Any:
    """(U10's end status, the mover's mobility) in one pass: status() without a second
    look at the moves."""
    if popcount(s) < 9:
        return WOLVES_WON, 0
    if (s | w) & PAD == PAD:
        return SHEEP_WON, 0
    k = mobility(g, s, w, side)
    if k == 0:
        return (SHEEP_WON if side == WOLVES else WOLVES_WON), 0
    return ONGOING, k


def table(rows: int, cols: int = 4) -> Any:
    """A zeroed int64 array (rows, cols) whose rows start on 64-byte cache lines (a bucket
    of the table is one line, not two)."""
    raw = np.zeros(rows * cols + 8, dtype=np.int64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + rows * cols].reshape(rows, cols)


def scratch() -> Any:
    """Scratch space of `gen` (the capture-chain stack)."""
    return np.zeros((4, 48), dtype=np.int64)


def kids(rows: int = 1 << 12) -> Any:
    """A child buffer for `gen`."""
    return np.zeros((rows, KID_COLS), dtype=np.int64)


# ---- the transposition table ---------------------------------------------------------------


@njit_inline
def tt_probe(tt: Any, key: int) -> int:
    """The slot of `key` in its bucket, or -1."""
    b = (key >> 1) & (tt.shape[0] - 1) & ~(BUCKET - 1)
    for i in range(b, b + BUCKET):
        if tt[i, 0] == key:
            return i
    return -1


@njit_inline
def tt_store(tt: Any, key: int, phi: int, delta: int, work: int, fp: int, ctr: Any,
             settled_first: int) -> int:
    """Store a node's numbers, its work and (for a repetition-dependent disproof) the
    fingerprint of the repeated position; in a full bucket the entry with the smallest
    subtree goes, a settled entry's work counting 4 times plus 64 (see SETTLED_*). With
    `settled_first` 1 a settled entry counts 2**30 more instead (the rule before, kept to
    measure). ctr[4] counts the entries in use. Returns the slot."""
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
            if settled_first:
                score += 1 << 30
            else:
                score = SETTLED_TIMES * score + SETTLED_PLUS
        if score < vscore:
            vscore = score
            victim = i
    old = tt[victim, 0]
    if old == key:
        work += tt[victim, 3] & WORK_MASK
    elif old == 0:
        ctr[4] += 1
    if work > WORK_MASK:
        work = WORK_MASK
    tt[victim, 0] = key
    tt[victim, 1] = phi
    tt[victim, 2] = delta
    tt[victim, 3] = work | (fp << FP_SHIFT)
    return victim


@njit_inline
def fingerprint(h: int) -> int:
    """A 22-bit non-zero fingerprint of a path position's hash."""
    f = (h >> 17) & FP_MASK
    return f if f != 0 else 1


# ---- the proof store ------------------------------------------------------------------------
# Every position the search proves an attacker win is recorded here once, with the number of
# proofs before it (its ordinal), and never replaced. When a position is first proved, each
# child its proof needs is proved already, so it has a smaller ordinal: following children
# of smaller ordinals reads a proof tree back with no cycle and no repair, however often the
# main table replaced entries since. The search reads it too, where the table has lost a
# position: a proof holds on every path (no repetition proves anything), so a proved
# position is never searched twice (benchmarks/bench_ulvtafl.py measures the nodes saved).
# Open addressing with linear probing: at a fill of two thirds, runs of a few hundred taken
# slots occur in a store of tens of millions, so a key may sit that far from its home slot;
# a proof that could not be recorded leaves its certificate incomplete.
STORE_PROBES = 1024


@njit_inline
def store_find(ps: Any, key: int) -> int:
    """The slot holding `key` in the store, else the empty slot where it would go, else -1
    (STORE_PROBES slots probed, all taken by other keys)."""
    mask = ps.shape[0] - 1
    i = (key >> 5) & mask
    for _ in range(min(STORE_PROBES, ps.shape[0])):
        k = ps[i, 0]
        if k == key or k == 0:
            return int(i)
        i = (i + 1) & mask
    return -1


@njit_inline
def store_add(ps: Any, key: int, ordinal: int, height: int) -> int:
    """Record a proved position's first ordinal and its height (plies to the win, as in
    the table's infinite number): 1 recorded, 0 when it was there, -1 when there was no
    room (the certificate will miss it)."""
    i = store_find(ps, key)
    if i < 0:
        return -1
    if ps[i, 0] == key:
        return 0
    ps[i, 0] = key
    ps[i, 1] = ordinal | (min(height, 1 << 20) << ORD_BITS)
    return 1


@njit_inline
def store_slot(ps: Any, key: int) -> int:
    """The slot of a proved position in the store, or -1."""
    i = store_find(ps, key)
    return i if i >= 0 and ps[i, 0] == key else -1


@njit
def refill_table(rows: Any, tt: Any, ctr: Any) -> None:
    """Put a checkpoint's table entries (`rows`, a slice of the old table) into a table at
    least as large; an old bucket's entries spread over the new buckets its key picks, so
    none is lost. ctr[4] counts the entries in use."""
    for i in range(rows.shape[0]):
        k = rows[i, 0]
        if k != 0:
            tt_store(tt, k, rows[i, 1], rows[i, 2], rows[i, 3] & WORK_MASK,
                     (rows[i, 3] >> FP_SHIFT) & FP_MASK, ctr, 0)


@njit
def refill_store(rows: Any, ps: Any) -> int:
    """Put a checkpoint's proof-store entries (`rows`) into a larger store, ordinals and
    heights unchanged; the number of entries placed (all, unless the store is too small)."""
    placed = 0
    for i in range(rows.shape[0]):
        k = rows[i, 0]
        if k != 0:
            j = store_find(ps, k)
            if j >= 0:
                if ps[j, 0] == 0:
                    placed += 1
                ps[j, 0] = k
                ps[j, 1] = rows[i, 1]
    return placed


@njit_inline
def store_ordinal(ps: Any, key: int) -> int:
    """The ordinal of a proved position, or -1."""
    i = store_slot(ps, key)
    return -1 if i < 0 else int(ps[i, 1] & ORD_MASK)


@njit
def proved_children(g: Any, z: Any, ps: Any, s: int, w: int, side: int, attacker: int,
                    bound: int, out: Any, scr: Any, kid: Any) -> int:
    """The children of a position (rows sheep, wolves, ordinal of `out`) that are attacker
    wins: finished (ordinal 0) or recorded in the store with an ordinal below `bound`.
    At a defender node, -1 when some child is neither (the store cannot show the proof).
    `kid`: a child buffer (see kids())."""
    h, m = hash_of(z, s, w, side)
    n = gen(g, z, s, w, side, h, m, 0, kid, scr, False)
    k = 0
    for i in range(max(n, 0)):
        cs = kid[i, K_S]
        cw = kid[i, K_W]
        st = status(g, cs, cw, 1 - side)
        o = -1
        if st != ONGOING:
            awin = (st == WOLVES_WON and attacker == WOLVES) or \
                (st == SHEEP_WON and attacker == SHEEP)
            o = 0 if awin else -1
        else:
            o = store_ordinal(ps, canon(kid[i, K_H], kid[i, K_M]))
            if o >= bound:
                o = -1
        if o < 0:
            if side != attacker:
                return -1
            continue
        out[k, 0] = cs
        out[k, 1] = cw
        out[k, 2] = o
        k += 1
    return k


# ---- df-pn ---------------------------------------------------------------------------------
# The search path is an explicit stack, one row of `fr` per ply (no recursion): the board,
# hashes, thresholds, where its children sit in `kid`, the first ply a repetition may reach
# back to (pbase: the ply after the last irreversible move), and the child being searched.
# Each child's numbers are cached in its row: read from the table once when its parent is
# expanded, written back when its own search returns.
(F_S, F_W, F_SIDE, F_H, F_M, F_THP, F_THD, F_TOP, F_N, F_PBASE, F_START, F_BEST, F_FP,
 F_KEY) = range(14)
FRAME_COLS = 16
# prm: the search's parameters (int64): [0] 1 = the attacking sheep play only safe moves
# (no wolf can capture after them: proofs hold, disproofs mean nothing), [1] the initial
# numbers' profile (0 mobility, 1 evaluation), [2:7] the evaluation's weights, [7] 1 = never
# read the proof store (to measure what reading it saves), [8] the focus radius (0: off)
# [9] the far forward moves it keeps (see gen), [10] the 1+epsilon trick's epsilon in 64ths,
# [11] 1 = the table keeps settled entries before any open one (to measure; see tt_store).
P_SAFE, P_EVAL, P_NO_STORE, P_RADIUS, P_FAR, P_EPS, P_SETTLED_FIRST = 0, 1, 7, 8, 9, 10, 11
PRM_SIZE = 12


@njit_inline
def initial(g: Any, s: int, w: int, side: int, attacker: int, k: int, prm: Any) -> Any:
    """Heuristic (phi, delta) of an unexpanded position from its mover's view: phi 1 (one
    good move may do), delta the mover's mobility k (every move must fail); with the
    evaluation profile both are scaled by how far the attacker is from its goal (see
    evaluate)."""
    if prm[P_EVAL] == 0:
        return np.int64(1), np.int64(k)
    pn, dn = evaluate(g, s, w, side, attacker, prm)
    if side == attacker:
        return np.int64(pn), np.int64(dn * k)
    return np.int64(dn), np.int64(pn * k)


@njit_inline
def pad_steps(g: Any, s: int, w: int) -> int:
    """The sheep steps that would fill the empty paddock points, each counted from its
    nearest sheep as if the board were empty (9 for a point no sheep reaches): about how
    far the sheep's main goal is, in moves."""
    todo = PAD & ~(s | w)
    reach = s
    total = 0
    steps = 0
    while todo and steps < 8:
        steps += 1
        grown = reach
        for i in range(8):
            grown |= shift(reach & g[1, i], g[0, i])
        got = grown & todo
        total += steps * popcount(got)
        todo &= ~got
        reach = grown
    return total + 9 * popcount(todo)


@njit_inline
def evaluate(g: Any, s: int, w: int, side: int, attacker: int, prm: Any) -> Any:
    """(cost to prove, cost to disprove) of the attacker's win, before mobility: the
    sheep's distance to a full paddock (points and steps), the sheep already lost and the
    capture the wolves threaten (weights prm[2:7])."""
    empty_pad = popcount(PAD & ~(s | w))
    lost = 20 - popcount(s)
    if lost < 0:
        lost = 0
    threat = 1 if can_capture(g, s, w) else 0
    far = 1 + (prm[2] * empty_pad) // 8 + (prm[3] * lost) // 8 + prm[4] * threat
    if prm[6] != 0:
        far += (prm[6] * pad_steps(g, s, w)) // 8
    near = 1 + (prm[5] * (9 - empty_pad)) // 8
    if attacker == SHEEP:
        return far, near
    return near, far


@njit_bare
def dfpn(g: Any, z: Any, tt: Any, ps: Any, kid: Any, fr: Any, pcls: Any, scr: Any,
         ctr: Any, prm: Any, rs: int, rw: int, rside: int, attacker: int,
         budget: int) -> None:
    """df-pn from a root until it is settled or ctr[0] (nodes) reaches `budget`: Nagai's
    multiple iterative deepening in phi/delta form with weak proof numbers and the
    1+epsilon trick, as a loop over an explicit stack. A position repeated on the path is
    no attacker win (U7); a disproof that leans on such a repetition above a node is stored
    with the repeated position's fingerprint, so another path does not take it as final.
    Counters: ctr[0] nodes, [1] deepest ply, [2] depth cuts, [3] buffer overflows, [4]
    table entries in use, [5] proofs the store had no room for, [6] proofs, [7] proof-store
    entries."""
    safe = prm[P_SAFE] != 0 and attacker == SHEEP
    read_store = prm[P_NO_STORE] == 0
    settled_first = prm[P_SETTLED_FIRST]
    mask = (tt.shape[0] - 1) & ~(BUCKET - 1)
    rh, rm = hash_of(z, rs, rw, rside)
    fr[0, F_S] = rs
    fr[0, F_W] = rw
    fr[0, F_SIDE] = rside
    fr[0, F_H] = rh
    fr[0, F_M] = rm
    fr[0, F_THP] = INF
    fr[0, F_THD] = INF
    fr[0, F_TOP] = 0
    fr[0, F_PBASE] = 0
    fr[0, F_FP] = fingerprint(rh)
    for i in range(pcls.shape[0]):
        pcls[i] = 0
    pcls[rh & (HASH_CLASSES - 1)] = 1
    d = 0
    fresh = True
    rphi = np.int64(0)
    rdelta = np.int64(0)
    rdep = np.int64(NO_DEP)
    while True:
        s = fr[d, F_S]
        w = fr[d, F_W]
        side = fr[d, F_SIDE]
        top = fr[d, F_TOP]
        pbase = fr[d, F_PBASE]
        cside = 1 - side
        done = False
        if fresh:
            # ---- expand: generate the children, read each one's numbers once
            fresh = False
            ctr[0] += 1
            if d > ctr[1]:
                ctr[1] = d
            h = fr[d, F_H]
            m = fr[d, F_M]
            fr[d, F_KEY] = canon(h, m)
            fr[d, F_START] = ctr[0]
            n = -1
            if d >= MAXD - 2:
                ctr[2] += 1
            else:
                n = gen(g, z, s, w, side, h, m, top, kid, scr, safe and side == SHEEP,
                        prm[P_RADIUS] if side == attacker else 0, prm[P_FAR])
                if n < 0:
                    ctr[3] += 1
            if n < 0:  # too deep or too wide: unknown, with numbers too large to follow
                tt_store(tt, fr[d, F_KEY], INF - 1, INF - 1, 1, 0, ctr, settled_first)
                rphi = np.int64(INF - 1)
                rdelta = np.int64(INF - 1)
                rdep = np.int64(NO_DEP)
                done = True
            else:
                # fetch every child's bucket at once (the processor overlaps the
                # fetches while the loop below computes), then read them
                for i in range(top, top + n):
                    prefetch_row(tt, (canon(kid[i, K_H], kid[i, K_M]) >> 1) & mask)
                win = -1
                for i in range(top, top + n):
                    st, k = end_and_mobility(g, kid[i, K_S], kid[i, K_W], cside)
                    if st == ONGOING and kid[i, K_IRR] == 0:
                        ch = kid[i, K_H]
                        if pcls[ch & (HASH_CLASSES - 1)] > 0:
                            q = d - 1
                            while q >= pbase:
                                if fr[q, F_H] == ch:
                                    st = REPEATED
                                    kid[i, K_DEP] = q
                                    break
                                q -= 2
                    if st == ONGOING:
                        a, b = initial(g, kid[i, K_S], kid[i, K_W], cside, attacker, k, prm)
                        kid[i, K_PHI] = a
                        kid[i, K_DELTA] = b
                        kid[i, K_DEP] = -1  # to be read from the table
                    elif st == REPEATED:  # a draw: never an attacker win (U7)
                        if cside == attacker:
                            kid[i, K_PHI] = INF
                            kid[i, K_DELTA] = 0
                        else:
                            kid[i, K_PHI] = 0
                            kid[i, K_DELTA] = INF
                    else:
                        awin = (st == WOLVES_WON and attacker == WOLVES) or \
                            (st == SHEEP_WON and attacker == SHEEP)
                        kid[i, K_DEP] = NO_DEP
                        if awin == (cside == attacker):
                            kid[i, K_PHI] = 0
                            kid[i, K_DELTA] = INF
                        else:  # the mover wins at once: nothing else to look at
                            kid[i, K_PHI] = INF
                            kid[i, K_DELTA] = 0
                            win = i
                            break
                if win >= 0:
                    if win != top:
                        for c in range(KID_COLS):
                            kid[top, c] = kid[win, c]
                    n = 1
                else:
                    for i in range(top, top + n):
                        if kid[i, K_DEP] != -1:
                            continue
                        kid[i, K_DEP] = NO_DEP
                        ck = canon(kid[i, K_H], kid[i, K_M])
                        j = tt_probe(tt, ck)
                        if j < 0:
                            # the table lost it: a proof is never lost (the store keeps
                            # every proved position, and a proof holds on every path)
                            o = store_slot(ps, ck) if read_store else -1
                            if o >= 0:
                                hg = INF + (ps[o, 1] >> ORD_BITS)
                                if cside == attacker:
                                    kid[i, K_PHI] = 0
                                    kid[i, K_DELTA] = hg
                                else:
                                    kid[i, K_PHI] = hg
                                    kid[i, K_DELTA] = 0
                            continue
                        fp = (tt[j, 3] >> FP_SHIFT) & FP_MASK
                        if fp == 0:
                            kid[i, K_PHI] = tt[j, 1]
                            kid[i, K_DELTA] = tt[j, 2]
                            continue
                        # a disproof that leans on a repetition counts only when the
                        # repeated position is on this path too
                        for q in range(d, pbase - 1, -1):
                            if fr[q, F_FP] == fp:
                                kid[i, K_PHI] = tt[j, 1]
                                kid[i, K_DELTA] = tt[j, 2]
                                kid[i, K_DEP] = q
                                break
                fr[d, F_N] = n
        if not done:
            # ---- select the most-proving child, or finish
            n = fr[d, F_N]
            thphi = fr[d, F_THP]
            thdelta = fr[d, F_THD]
            phi_n = INF
            best = -1
            best_phi = 0
            second = INF
            top_phi = 0
            open_kids = 0
            lost = False
            for i in range(top, top + n):
                cphi = kid[i, K_PHI]
                cdelta = kid[i, K_DELTA]
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
            # weak proof numbers (Ueda et al.): the largest child plus one per other open
            # child, not the sum, which counts a transposed subtree once per path to it
            if lost:
                delta_n = INF
            elif open_kids == 0:
                delta_n = 0
            else:
                delta_n = min(top_phi + open_kids - 1, INF - 1)
            if phi_n < thphi and delta_n < thdelta and ctr[0] < budget and best >= 0:
                # ---- descend into the best child with Pawlewicz's 1+epsilon threshold
                cth_phi = thdelta - (open_kids - 1) if best_phi > 0 else thdelta - open_kids
                if cth_phi <= best_phi:
                    cth_phi = best_phi + 1
                cth_delta = min(thphi, second + (second * prm[P_EPS]) // 64 + 1)
                fr[d, F_BEST] = best
                nd = d + 1
                ch = kid[best, K_H]
                fr[nd, F_S] = kid[best, K_S]
                fr[nd, F_W] = kid[best, K_W]
                fr[nd, F_SIDE] = cside
                fr[nd, F_H] = ch
                fr[nd, F_M] = kid[best, K_M]
                fr[nd, F_THP] = min(cth_phi, INF)
                fr[nd, F_THD] = min(cth_delta, INF)
                fr[nd, F_TOP] = top + n
                fr[nd, F_PBASE] = nd if kid[best, K_IRR] else pbase
                fr[nd, F_FP] = fingerprint(ch)
                pcls[ch & (HASH_CLASSES - 1)] += 1
                d = nd
                fresh = True
                continue
            # ---- finish: the dependency of a disproof, heights, the table
            fp = 0
            dep = NO_DEP
            if (side == attacker and delta_n == 0) or (side != attacker and phi_n == 0):
                # the shallowest repeated position the disproof needs: every child's
                # (attacker to move) or the best refuting child's (defender to move)
                dep = NO_DEP if side == attacker else -1
                for i in range(top, top + n):
                    if side == attacker:
                        dep = min(dep, kid[i, K_DEP])
                    elif kid[i, K_DELTA] == 0:
                        dep = max(dep, kid[i, K_DEP])
                if dep < 0:
                    dep = NO_DEP
                if dep < d:
                    fp = fr[dep, F_FP]
                else:
                    dep = NO_DEP
            if phi_n == 0 or delta_n == 0:
                # a settled node keeps its height in the infinite number: plies to the end
                # when the winner hurries and the loser delays, as the table knows them; a
                # certificate walks down heights, so the strategy it reads has no cycle
                hgt = INF
                low = 0
                for i in range(top, top + n):
                    cphi = kid[i, K_PHI]
                    cdelta = kid[i, K_DELTA]
                    if phi_n == 0 and cdelta == 0 and cphi >= INF:
                        hgt = min(hgt, cphi - INF)
                    elif phi_n != 0 and cphi == 0 and cdelta >= INF:
                        low = max(low, cdelta - INF)
                if phi_n == 0:
                    delta_n = INF + 1 + (hgt if hgt < INF else 0)
                else:
                    phi_n = INF + 1 + low
            key = fr[d, F_KEY]
            if (side == attacker and phi_n == 0) or (side != attacker and delta_n == 0):
                ctr[6] += 1
                added = store_add(ps, key, ctr[6], max(phi_n, delta_n) - INF)
                if added > 0:
                    ctr[7] += 1
                elif added < 0:
                    ctr[5] += 1
            tt_store(tt, key, phi_n, delta_n, ctr[0] - fr[d, F_START] + 1, fp, ctr,
                     settled_first)
            rphi = np.int64(phi_n)
            rdelta = np.int64(delta_n)
            rdep = np.int64(dep)
        # ---- return to the parent with this node's numbers
        if d == 0:
            return
        pcls[fr[d, F_H] & (HASH_CLASSES - 1)] -= 1
        d -= 1
        b = fr[d, F_BEST]
        kid[b, K_PHI] = rphi
        kid[b, K_DELTA] = rdelta
        kid[b, K_DEP] = rdep


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
    kid = np.zeros((1 << 14, KID_COLS), dtype=np.int64)
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
        n = gen(g, z, s, w, side, h, m, 0, kid, scr, False)
        ok = side == attacker and n > 0
        for i in range(max(n, 0)):
            cs = kid[i, K_S]
            cw = kid[i, K_W]
            safe = settled(g, z, tt, cs, cw, 1 - side, attacker, False)
            if side == attacker and not safe:
                ok = False
                break
            if safe and status(g, cs, cw, 1 - side) == ONGOING and \
                    stamped_add(skeys, sgen, gen_no, canon(kid[i, K_H], kid[i, K_M])):
                if count >= limit:
                    return -2
                nodes[count, 0] = cs
                nodes[count, 1] = cw
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
    kid = np.zeros((out.shape[0], KID_COLS), dtype=np.int64)
    h, m = hash_of(z, s, w, side)
    n = gen(g, z, s, w, side, h, m, 0, kid, scr, False)
    for i in range(max(n, 0)):
        out[i, 0] = kid[i, K_S]
        out[i, 1] = kid[i, K_W]
    return n


@njit
def root_ordinal(z: Any, ps: Any, s: int, w: int, side: int) -> int:
    """The store ordinal of a position, or -1."""
    h, m = hash_of(z, s, w, side)
    return store_ordinal(ps, canon(h, m))
