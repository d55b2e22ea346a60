"""Woof!!'s rules verification (docs/rules.md section 2, W1-W11): a Z3 encoding written from
docs/rules.md, proofs of W1-W11 with the rulebook's example (both readings of its Wolf token), the
round and game ends, the token supply as a matching problem, the rules gaps WOOF-NO-END and
WOOF-W11-NO-TOKEN with witnesses the Python model replays (gating the run unless accepted), and a
cross-check of the Python model against the Z3 encoding on random rounds and games.

    pkg = importlib.import_module("fleece.verify.woof")
    rep = pkg.run(pkg.VerifyConfig(quick=True)).with_accepted(["WOOF-NO-END"])

Imports: fleece.rules and fleece.verify, and fleece.solver.woof.supply: the token check
decides evidence files' matchings with the solver's code.
"""

from __future__ import annotations

from fleece.verify.woof.config import SECTIONS, VerifyConfig
from fleece.verify.woof.ids import GAPS
from fleece.verify.woof.runner import run

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run"]
