"""Ulvtafl's rules verification (docs/rules.md section 3): a Z3 encoding written from docs/rules.md
alone, geometry facts, inductive step invariants, U10's end order, the rules gap U7 settles, the
seed's paddock claim and a Python-vs-Z3 cross-check, behind the API every game's package shares.

    pkg = importlib.import_module("fleece.verify.ulvtafl")
    rep = pkg.run(pkg.VerifyConfig(quick=True), progress=False)
    rep = rep.with_accepted(["ULV-NO-END"])    # what --accept does

`GAPS` lists the rules-gap IDs this package can report (fleece.verify.result.RulesGap).

Imports: fleece.rules and fleece.verify.
"""

from __future__ import annotations

from fleece.verify.ulvtafl.runner import GAPS, SECTIONS, VerifyConfig
from fleece.verify.ulvtafl.runner import run_verification as run

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run"]
