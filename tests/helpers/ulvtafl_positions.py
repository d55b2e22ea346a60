"""Random Ulvtafl positions for the solver tests: boards under random movement rules, and
small positions whose reachable set retrograde analysis can enumerate."""

from __future__ import annotations

import random

from fleece.rules.ulvtafl.game import SHEEP, WOLVES, Rules, UlvState
from fleece.rules.ulvtafl.geometry import NUM_POINTS, mask, rank_of
from fleece.solver.ulvtafl.search import retro_solve


def random_board(rng: random.Random, lo: int = 9, hi: int = 20) -> tuple[Rules, int, int, int]:
    """(rules, sheep, wolves, side) with random movement options and 1-2 wolves."""
    rules = Rules(orthogonal=rng.random() < 0.2, wolf_diagonal_captures_only=rng.random() < 0.3,
                  sheep_orthogonal=rng.random() < 0.3)
    nw = rng.choice([1, 2])
    pts = rng.sample(range(NUM_POINTS), rng.randint(lo, hi) + nw)
    return rules, mask(pts[nw:]), mask(pts[:nw]), rng.choice([WOLVES, SHEEP])


def small_position(seed: int, limit: int) -> UlvState | None:
    """A random unfinished position whose reachable set has at most `limit` positions."""
    rng = random.Random(seed)
    for _ in range(40):
        pts = [p for p in range(NUM_POINTS) if rank_of(p) >= rng.choice([4, 5, 5])]
        n = rng.choice([9, 10])
        if len(pts) < n + 1:
            continue
        chosen = rng.sample(pts, n + 1)
        s = UlvState.create(Rules(), mask(chosen[1:]), mask(chosen[:1]), rng.choice([0, 1]))
        if not s.is_terminal() and retro_solve(s, limit) is not None:
            return s
    return None


def small_solved(seed: int, limit: int) -> tuple[UlvState, str] | None:
    """A small position (see small_position) and its value by retrograde analysis."""
    root = small_position(seed, limit)
    if root is None:
        return None
    table = retro_solve(root, limit)
    assert table is not None
    return root, table.value(root)[0]
