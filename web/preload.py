"""Imported once by the worker pool's fork server (web.pool): the job functions and every
library they call, with the Ulvtafl kernels compiled by one tiny solve and one Mutton and one
Woof!! solve of the bundled examples run (they fill the caches those solvers keep), so that
each worker forked from the server starts warm instead of spending a second or more on
imports, JIT loading and first-call caches in the middle of someone's request."""

from __future__ import annotations

import contextlib
import gc
from importlib import resources

import fleece.commands.cards
import fleece.commands.mutton
import fleece.commands.ulvtafl
import fleece.rules.mutton.options
import fleece.rules.ulvtafl.summary
import fleece.rules.woof.evidence
import fleece.solver.cards.concentration
import fleece.solver.cards.war
import fleece.solver.cards.war_mc
import fleece.solver.mutton
import fleece.solver.mutton.analysis
import fleece.solver.mutton.puzzle.check
import fleece.solver.mutton.puzzle.formats
import fleece.solver.woof
import fleece.solver.woof.fast
import fleece.solver.woof.puzzle.check
import fleece.solver.woof.puzzle.formats
import fleece.web.jobs  # noqa: F401  (the imports are the point)


def warm_up() -> None:
    """Run each compiled kernel once (numba loads or compiles it on the first call), and the
    page jobs of Mutton and Woof!! once on the bundled examples."""
    from fleece.rules.ulvtafl.game import Options, initial_state
    from fleece.solver.ulvtafl import perft_counts, solve
    from fleece.web import jobs

    state = initial_state(Options(setup=20))
    with contextlib.suppress(Exception):  # a failed warm-up only costs time later
        perft_counts(state, 2)
        solve(state, max_nodes=1)
        solve(state.play(next(iter(state.legal_moves()))), timeout=0.3, retro_limit=1000)
    examples = resources.files("fleece").joinpath("examples")
    with contextlib.suppress(Exception):
        chart = examples.joinpath("mutton", "helppage.txt").read_text(encoding="utf-8")
        jobs.mutton_solve({"chart": chart, "wolves": None, "no_reveal": False, "escaped": "",
                           "dictionary": None, "passed": False, "engine": "fast"})
    with contextlib.suppress(Exception):
        evidence = examples.joinpath("woof", "rulebook5.txt").read_text(encoding="utf-8")
        jobs.woof_solve({"evidence": evidence, "engine": "fast", "me": None,
                         "dog_target": None})


warm_up()
# Everything loaded so far lives as long as the process: the cyclic collector of each forked
# worker need not walk it (a worker starts in tens of milliseconds instead of hundreds, and
# its collections stay short, touching no shared pages).
gc.freeze()
