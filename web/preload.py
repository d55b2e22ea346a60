"""Imported once by the worker pool's fork server (web.pool): the job functions and every
library they call, with the Ulvtafl kernels compiled by one tiny solve and one Mutton and one
Woof!! solve of the bundled examples run (they fill the caches those solvers keep), so that
each worker forked from the server starts warm instead of spending a second or more on
imports, JIT loading and first-call caches in the middle of someone's request."""

from __future__ import annotations

import contextlib
import gc
import importlib
from importlib import resources

# Every module a job may need (a test runs every kind of job under an audit hook and fails
# on any file a worker opens, a late import included).
PRELOADED = (
    "fleece.api.cards", "fleece.api.mutton", "fleece.api.ulvtafl", "fleece.api.woof",
    "fleece.solver.ulvtafl.policy", "fleece.solver.deadline",
    "fleece.rules.mutton.options", "fleece.rules.ulvtafl.diagram",
    "fleece.rules.ulvtafl.record", "fleece.rules.ulvtafl.summary", "fleece.rules.woof.evidence",
    "fleece.solver.cards.concentration", "fleece.solver.cards.war",
    "fleece.solver.cards.war_mc", "fleece.solver.mutton", "fleece.solver.mutton.analysis",
    "fleece.solver.puzzles.mutton.check", "fleece.solver.puzzles.mutton.formats",
    "fleece.solver.mutton.csp", "fleece.solver.mutton.smt", "fleece.solver.woof",
    "fleece.solver.woof.fast", "fleece.solver.woof.csp", "fleece.solver.woof.smt",
    "fleece.solver.puzzles.woof.check", "fleece.solver.puzzles.woof.formats",
    "fleece.solver.puzzles.ulvtafl", "fleece.solver.puzzles.ulvtafl.play",
    "fleece.solver.puzzles.ulvtafl.check", "fleece.rules.mutton.picture",
    "fleece.web.jobs", "fleece.web.jobs.mutton", "fleece.web.jobs.woof",
    "fleece.web.jobs.ulvtafl", "fleece.web.jobs.cards", "fleece.web.jobs.mutton_play",
    "fleece.solver.mutton.bots.play", "fleece.solver.mutton.bots.registry",
    "fleece.rules.mutton.record", "constraint", "z3",
)
for _name in PRELOADED:
    importlib.import_module(_name)

# 9 sheep about to fill the paddock against one wolf (a sheep win; a small reachable set),
# and a trapped wolf (examples/ulvtafl/trapped.txt's neighbour: the sheep win in 2 plies).
ENDGAME_9 = "SSS/SS./..SSS../...S.../W....../.../... w"
TRAPPED = "WSS/.SS/..S.S../..S..../SS...../.../... w"


def warm_up() -> None:
    """Run each compiled kernel once (numba loads or compiles it on the first call), and the
    page jobs of Mutton and Woof!! once on the bundled examples, and an Ulvtafl puzzle's hint."""
    from fleece.api import mutton, ulvtafl, woof
    from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state
    from fleece.rules.ulvtafl.notation import parse_position
    from fleece.solver.ulvtafl import perft_counts, solve
    from fleece.solver.ulvtafl.search import retro_solve
    from fleece.solver.ulvtafl.solve import _from_table, bare
    from fleece.web.jobs import mutton as mutton_jobs
    from fleece.web.jobs import woof as woof_jobs

    state = initial_state(UlvtaflOptions(setup=20))
    with contextlib.suppress(Exception):  # a failed warm-up only costs time later
        perft_counts(state, 2)
        solve(state, max_nodes=1)
        solve(state.play(next(iter(state.legal_moves()))), timeout=0.3, retro_limit=1000)
    # Two small positions whose solves reach the remaining kernels: the proof searches'
    # disproof checks and proof sizes, and the retrograde method with its table look-ups
    # (without these, a worker's first solve reads them from numba's cache on disk).
    with contextlib.suppress(Exception):
        for text in (ENDGAME_9, TRAPPED):
            position = parse_position(text)
            solve(position, timeout=1.0, retro_limit=0)
            table = retro_solve(bare(position), 100_000)
            if table is not None:
                _from_table(table, bare(position), text, 0.0, 0)
    with contextlib.suppress(Exception):
        from fleece.solver.cards.concentration import warm_up as warm_concentration

        warm_concentration()
    examples = resources.files("fleece").joinpath("examples")
    with contextlib.suppress(Exception):
        chart = examples.joinpath("mutton", "helppage.txt").read_text(encoding="utf-8")
        mutton_jobs.solve(mutton.SolveRequest(chart=chart))
    with contextlib.suppress(Exception):
        evidence = examples.joinpath("woof", "rulebook5.txt").read_text(encoding="utf-8")
        woof_jobs.solve(woof.SolveRequest(evidence=evidence))
    with contextlib.suppress(Exception):  # a puzzle's table: the play kernels compiled
        puzzle = resources.files("fleece").joinpath("puzzles", "ulvtafl", "easy", "003.txt")
        ulvtafl.puzzle_hint(ulvtafl.PuzzlePlayRequest(puzzle=puzzle.read_text("utf-8")))


warm_up()
# Everything loaded so far lives as long as the process: the cyclic collector of each forked
# worker need not walk it (a worker starts in tens of milliseconds instead of hundreds, and
# its collections stay short, touching no shared pages).
gc.freeze()
