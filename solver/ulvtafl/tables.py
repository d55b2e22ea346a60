"""Move tables of the 33-point cross as numpy arrays, for the compiled kernels.

One int64 array of shape (4 * 33, 8) per rule set: rows 0-32 the wolf step targets, rows
33-65 the sheep step targets, rows 66-98 the points a capture jumps over, rows 99-131 where
it lands (-1 pads). Built from fleece.rules.ulvtafl.geometry, so the kernels and the
reference model share one board.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fleece.rules.ulvtafl.game import Rules
from fleece.rules.ulvtafl.geometry import JUMPS, NUM_POINTS, STEPS

WSTEP, SSTEP, JOVER, JTO = 0, NUM_POINTS, 2 * NUM_POINTS, 3 * NUM_POINTS
WIDTH = 8


def move_tables(rules: Rules, sheep_forward_only: bool = False) -> Any:
    """The step and jump tables of `rules` (U1, U3, U4, U6). `sheep_forward_only` drops
    the sideways sheep steps: a game in which the sheep have fewer moves, so a sheep win
    proved there is a sheep win of the real game (and a wolf win there proves nothing)."""
    t = np.full((4 * NUM_POINTS, WIDTH), -1, dtype=np.int64)
    wolf_diag = not rules.orthogonal and not rules.wolf_diagonal_captures_only
    sheep_diag = not rules.orthogonal and not rules.sheep_orthogonal
    for p in range(NUM_POINTS):
        w = [s.to for s in STEPS[p] if wolf_diag or not s.diagonal]
        sh = [s.to for s in STEPS[p] if s.dy >= (1 if sheep_forward_only else 0)
              and (sheep_diag or not s.diagonal)]
        jumps = [j for j in JUMPS[p] if not (j.diagonal and rules.orthogonal)]
        t[WSTEP + p, :len(w)] = w
        t[SSTEP + p, :len(sh)] = sh
        t[JOVER + p, :len(jumps)] = [j.over for j in jumps]
        t[JTO + p, :len(jumps)] = [j.to for j in jumps]
    return t


