"""Mutton's rules verification (docs/rules.md section 1): Z3 proofs, rule gaps, claims C1-C4,
termination and a cross-check of the Python model, behind the API every game's package shares.

    pkg = importlib.import_module("fleece.verify.mutton")
    rep = pkg.run(pkg.VerifyConfig(rules=..., quick=True), progress=False)
    rep = rep.with_accepted(["MUTTON-M10-UNPLACEABLE"])    # what --accept does
    # then fleece.verify.report: write_reports(rep, ...), summary_table(rep)

`GAPS` lists the rules-gap IDs this package can report (fleece.verify.result.RulesGap).

Imports: fleece.rules and fleece.verify.
"""

from __future__ import annotations

from fleece.verify.mutton.runner import GAPS, SECTIONS, VerifyConfig
from fleece.verify.mutton.runner import run_verification as run

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run"]
