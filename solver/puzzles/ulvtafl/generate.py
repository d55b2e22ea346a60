"""Generating Ulvtafl puzzles: the exact solver plus a uniqueness check.

An attempt (a pure function of its seed) makes a source of positions: a game between two
seeded greedy players from a setup of U9 (`plausible.greedy_move`), or a composed position
(pieces placed at random near the paddock). The compiled retrograde analysis of
`fleece.solver.ulvtafl` solves every position reachable from the source's first position
that has at most `LIMIT` of them, and so every later position of the game and of short
greedy side lines off it. A position is a puzzle when its side to move wins in at least
`MIN_PLIES` plies with exactly one winning first move (out of `MIN_MOVES` or more); its
solution is the main line (`analysis.main_line`) and its grade comes from the grade table
(`grading`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from fleece.rules.errors import FleeceError, Stopped
from fleece.rules.ulvtafl.game import SIDE_NAMES, Rules, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.geometry import NUM_POINTS, mask, points_of, ranks_mask
from fleece.rules.ulvtafl.notation import position_text
from fleece.solver.puzzles.pool import run_attempts
from fleece.solver.puzzles.ulvtafl.analysis import (
    Values,
    bare,
    features,
    main_line,
    value,
    winning_moves,
)
from fleece.solver.puzzles.ulvtafl.grading import Features, UlvGrade
from fleece.solver.puzzles.ulvtafl.plausible import greedy_move
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle
from fleece.solver.puzzles.ulvtafl.reference import mirror

LIMIT = 40_000  # reachable positions of a puzzle: the pure-Python check solves them in ~1 s
MIN_PLIES = 3  # the solver makes at least two moves
MIN_MOVES = 3  # legal first moves of a puzzle: one wins, at least two others do not
MAX_GAME = 300  # plies of a greedy game
SIDE_LINES = 3  # greedy side lines tried off each position of a game
GAME_SHARE = 0.6  # attempts that play a game; the others compose a position
KINDS = (("sheep", 1), ("wolves", 2), ("wolves", 1), ("sheep", 2))  # (side to move, wolves)


def solve_table(state: UlvState, limit: int = LIMIT) -> Values | None:
    """The compiled retrograde table of the positions reachable from `state`, or None when
    there are more than `limit`."""
    from fleece.solver.ulvtafl.search import retro_solve

    return retro_solve(bare(state), limit)


@dataclass(frozen=True)
class Candidate:
    """A position that passed the uniqueness test, with its solution and features."""

    state: UlvState
    line: tuple[str, ...]
    features: Features
    origin: str


def as_puzzle(state: UlvState, values: Values, origin: str = "") -> Candidate | None:
    """The position as a puzzle when it is one (see the module), else None."""
    if state.is_terminal():
        return None
    winner, plies = value(values, state)
    if winner != SIDE_NAMES[state.to_move] or plies < MIN_PLIES:
        return None
    if state.count_legal_moves() < MIN_MOVES or len(winning_moves(values, state)) != 1:
        return None
    line = main_line(values, state)
    return Candidate(state, tuple(m.text() for m in line), features(values, state, line),
                     origin)


def _game(rng: random.Random) -> tuple[int, list[UlvState]]:
    """A game of the seeded greedy players from a setup of U9: (setup, positions)."""
    setup = rng.choice((13, 15, 17, 20))
    noise = rng.uniform(0.2, 1.0)
    state = initial_state(UlvtaflOptions(setup=setup))
    line = [state]
    while not state.is_terminal() and len(line) < MAX_GAME:
        state = bare(state.play(greedy_move(state, rng, noise)))
        line.append(state)
    return setup, line


def _first_small(line: list[UlvState], limit: int) -> tuple[int, Values] | None:
    """The earliest unfinished position of a game whose reachable set has at most `limit`
    positions, with its table (the sets shrink along a game: a binary search)."""
    live = [i for i, s in enumerate(line) if not s.is_terminal()]
    found: tuple[int, Values] | None = None
    lo, hi = 0, len(live) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        table = solve_table(line[live[mid]], limit)
        if table is None:
            lo = mid + 1
        else:
            found = (live[mid], table)
            hi = mid - 1
    return found


def _composed(rng: random.Random, limit: int) -> tuple[UlvState, Values] | None:
    """A composed position: 9 to 11 sheep, four to six of them on the paddock arm (ranks 6
    and 7) and the rest on ranks 4 and 5, one or two wolves on free points, either side to
    move; None when it is finished or its reachable set is too large."""
    arm = points_of(ranks_mask(6, 7))
    band = points_of(ranks_mask(4, 5))
    on_arm = rng.randint(4, 6)
    total = rng.randint(9, 11)
    sheep = mask(rng.sample(arm, on_arm)) | mask(rng.sample(band, total - on_arm))
    free = [p for p in range(NUM_POINTS) if not sheep >> p & 1]
    wolves = mask(rng.sample(free, rng.choice((1, 2))))
    state = UlvState.create(Rules(), sheep, wolves, rng.randrange(2))
    if state.is_terminal():
        return None
    table = solve_table(state, limit)
    return None if table is None else (state, table)


def _side_lines(state: UlvState, rng: random.Random, count: int) -> list[tuple[UlvState, int]]:
    """Positions a few greedy plies off `state` (with the plies taken)."""
    out = []
    for _ in range(count):
        s = state
        for k in range(1, rng.randint(1, 8) + 1):
            if s.is_terminal():
                break
            s = bare(s.play(greedy_move(s, rng, 1.0)))
            out.append((s, k))
    return out


def _then(plies: int) -> str:
    return f"then {plies} greedy pl{'y' if plies == 1 else 'ies'}"


def candidates(seed: str, limit: int = LIMIT) -> list[Candidate]:
    """Every puzzle one source gives (see the module): attempt `seed`."""
    rng = random.Random(seed)
    pool: list[tuple[UlvState, str]] = []
    if rng.random() < GAME_SHARE:
        setup, line = _game(rng)
        first = _first_small(line, limit)
        if first is None:
            return []
        start, table = first
        for i in range(start, len(line)):
            where = f"game from the {setup}-sheep setup, ply {i}"
            pool.append((line[i], where))
            pool += [(s, f"{where}, {_then(k)}") for s, k in
                     _side_lines(line[i], rng, SIDE_LINES)]
    else:
        made = _composed(rng, limit)
        if made is None:
            return []
        root, table = made
        pool.append((root, "composed"))
        pool += [(s, f"composed, {_then(k)}") for s, k in _side_lines(root, rng, 12)]
    out: list[Candidate] = []
    seen: set[tuple[int, int, int]] = set()
    for state, origin in pool:
        key = (state.sheep, state.wolves, state.to_move)
        if key in seen:
            continue
        seen.add(key)
        found = as_puzzle(state, table, origin)
        if found is not None:
            out.append(found)
    return out


def attempt(grade: UlvGrade, seed: str, number: int = 0,
            limit: int = LIMIT) -> UlvPuzzle | None:
    """The best puzzle of `grade` from one source, or None: the attempt's preferred kind
    first (side to move and number of wolves, `KINDS[number % 4]`, so that a pack mixes
    them), then a unique main line, then the deepest."""
    rng = random.Random(f"pick:{seed}")
    found = [c for c in candidates(seed, limit) if c.features.grade is grade]
    if not found:
        return None
    rng.shuffle(found)
    side, wolves = KINDS[number % len(KINDS)]

    def rank(c: Candidate) -> tuple[bool, bool, int]:
        kind = (SIDE_NAMES[c.state.to_move], c.state.wolves.bit_count())
        return kind != (side, wolves), not c.features.unique_line, -c.features.plies

    best = min(found, key=rank)
    return UlvPuzzle(position_text(best.state), best.features.plies, best.line, grade,
                     best.features.unique_line, best.origin)


def generate(grade: UlvGrade, count: int, seed: int, *,
             progress: Callable[[int, int], None] | None = None,
             budget: float | None = None, max_attempts: int | None = None,
             workers: int = 1, limit: int = LIMIT) -> list[UlvPuzzle]:
    """`count` distinct puzzles of `grade`. Attempt i uses seed `"{seed}:{i}"` and results
    are taken in attempt order, so the same seed gives the same puzzles whatever `workers`
    is (processes, see `solver.puzzles.pool`). `progress(found, attempts)` runs after each
    attempt; `budget` (seconds) and `max_attempts` bound the work: FleeceError saying how
    many were found when they run out first."""
    cap = max_attempts if max_attempts is not None else max(200, 100 * count)
    started = time.monotonic()
    found: list[UlvPuzzle] = []
    seen: set[tuple[int, int]] = set()
    tried = 0
    out_of_time = False

    def take(p: UlvPuzzle | None) -> bool:
        nonlocal tried, out_of_time
        tried += 1
        if p is not None and _shape(p) not in seen:
            seen.add(_shape(p))
            found.append(replace(p, ident=f"ulvtafl-{grade.label}-{len(found) + 1:03d}"))
        if progress is not None:
            progress(len(found), tried)
        if budget is not None and time.monotonic() - started > budget:
            out_of_time = len(found) < count
            return True
        return len(found) >= count

    jobs = ((grade, f"{seed}:{i}", i, limit) for i in range(cap))
    run_attempts(_attempt_job, jobs, take, workers)
    if len(found) < count:
        why = f"within {budget:g} s" if out_of_time and budget is not None else \
            f"in {tried} attempts"
        message = f"only {len(found)} {grade.label} Ulvtafl puzzles found {why}"
        if out_of_time:
            raise Stopped(message, field="budget", limit=budget)
        raise FleeceError(message, field="count", limit=cap)
    return found


def _shape(p: UlvPuzzle) -> tuple[int, int]:
    """What two puzzles must not share: the sheep (up to the mirror image) and the side
    to move; the same flock with the wolves elsewhere is nearly the same puzzle."""
    s = p.state()
    return min(s.sheep, mirror(s.sheep)), s.to_move


def _attempt_job(job: tuple[UlvGrade, str, int, int]) -> UlvPuzzle | None:
    """`attempt` on one picklable job, for the process pool."""
    return attempt(*job)
