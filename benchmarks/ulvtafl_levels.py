"""How large a restricted game is: the positions reachable from a sheep-to-move position
with the sheep on safe moves (no wolf can capture after them, so no capture ever happens),
optionally focused, counted level by level. A level is the number of forward sheep steps
played: sideways steps and wolf steps keep it, so each level is closed under them before
the next begins and only two levels are held at once. Retrograde analysis of the
restricted game would need every level; this measures whether that is within reach.

    python benchmarks/ulvtafl_levels.py --position 'W../..W/.SSSS.S/SSSSSS./.S.SSSS/S.S/.SS s'

Counts stop at the first level that does not fit the table (--bits: 2**bits slots a
level; 3.5 * 8 * 2**bits bytes a level, two levels held).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numba
import numpy as np

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import SHEEP
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl.prover import FOCUS_FAR, grid_state

SIDE_BIT = 62  # the side to move, stored above the wolves' grid mask
LOW = (1 << SIDE_BIT) - 1
GOLDEN = 11400714819323198485
MIX = 0x13C6EF372FE94F82


@numba.njit(cache=True)
def add(ks: Any, kw: Any, qs: Any, qw: Any, n: int, cs: int, cw: int) -> int:
    """Put a position in a level's set and queue; the new count (n when it was there), -1
    when the queue is full."""
    mask = ks.shape[0] - 1
    h = (np.uint64(cs) * np.uint64(GOLDEN)) ^ (np.uint64(cw) * np.uint64(MIX))
    slot = int(np.int64(h >> np.uint64(20)) & mask)
    while True:
        if ks[slot] == -1:
            if n >= qs.shape[0]:
                return -1
            ks[slot] = cs
            kw[slot] = cw
            qs[n] = cs
            qw[n] = cw
            return n + 1
        if ks[slot] == cs and kw[slot] == cw:
            return n
        slot = (slot + 1) & mask


@numba.njit(cache=True)
def close_level(g: Any, z: Any, cur: tuple[Any, Any, Any, Any], n: int,
                nxt: tuple[Any, Any, Any, Any], radius: int, far: int) -> Any:
    """Close a level (its positions queued in cur, n of them) under the moves that keep it;
    forward sheep steps go into the next level's set. (positions, next level's entries,
    finished positions); -1 for a set that overflowed."""
    ks, kw, qs, qw = cur
    nks, nkw, nqs, nqw = nxt
    kid = np.zeros((4096, e.KID_COLS), dtype=np.int64)
    scr = np.zeros((4, 48), dtype=np.int64)
    i = 0
    nn = 0
    ended = 0
    while i < n:
        s = qs[i]
        w = qw[i] & LOW
        side = qw[i] >> SIDE_BIT
        i += 1
        status, _ = e.end_and_mobility(g, s, w, side)
        if status != e.ONGOING:
            ended += 1
            continue
        sheep = side == e.SHEEP
        c = e.gen(g, z, s, w, side, 0, 0, 0, kid, scr, sheep, radius if sheep else 0, far)
        if c < 0:
            return -1, nn, ended
        for j in range(c):
            cs = kid[j, e.K_S]
            cw = kid[j, e.K_W] | ((1 - side) << SIDE_BIT)
            if sheep and kid[j, e.K_IRR] == 1:
                nn = add(nks, nkw, nqs, nqw, nn, cs, cw)
                if nn < 0:
                    return n, -1, ended
            else:
                n = add(ks, kw, qs, qw, n, cs, cw)
                if n < 0:
                    return -1, nn, ended
    return n, nn, ended


def level_set(bits: int) -> tuple[Any, Any, Any, Any]:
    """An empty level: its hash set (sheep, wolves and side) and its queue."""
    size = 1 << bits
    cap = size * 3 // 4
    return (np.full(size, -1, dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64))


def count_levels(position: str, focus: int, bits: int,
                 levels: int | None = None) -> dict[str, Any]:
    """The level sizes of the restricted game from `position` (sheep to move): a row per
    level, and whether the count is complete (no level left, none overflowed)."""
    state = parse_position(position)
    if state.to_move != SHEEP:
        raise FleeceError("the position must have the sheep to move", field="position")
    s, w, side = grid_state(state)
    g = e.geometry(state.rules)
    cur, nxt = level_set(bits), level_set(bits)
    n = add(*cur, 0, s, w | (side << SIDE_BIT))
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    why = "complete"
    while n > 0:
        if levels is not None and len(rows) >= levels:
            why = "level limit"
            break
        n, entries, ended = close_level(g, e.Z, cur, n, nxt, focus, FOCUS_FAR)
        if n < 0 or entries < 0:
            why = f"level {len(rows)} does not fit 2**{bits} slots"
            break
        rows.append({"level": len(rows), "positions": n, "finished": ended,
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(f"level {len(rows) - 1}: {n:,} positions ({ended:,} finished), "
              f"{entries:,} into the next", file=sys.stderr, flush=True)
        cur, nxt = nxt, cur
        nxt[0][:] = -1
        n = entries
    return {"position": position, "focus": focus, "bits": bits, "levels": rows,
            "positions": sum(r["positions"] for r in rows), "stopped": why}


def main() -> None:
    """Parse the options, count, print the JSON."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--position", required=True, help="a sheep-to-move position (U8)")
    ap.add_argument("--focus", type=int, default=2, help="focus radius (0: safe moves only)")
    ap.add_argument("--bits", type=int, default=24, help="2**bits slots a level")
    ap.add_argument("--levels", type=int, default=None, help="stop after this many levels")
    args = ap.parse_args()
    try:
        out = count_levels(args.position, args.focus, args.bits, args.levels)
    except FleeceError as err:
        sys.exit(f"ulvtafl_levels: {err.text()}")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
