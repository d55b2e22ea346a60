"""Verification of the Wolf! card games (docs/rules.md section 4, K1-K4): card effects and battles
against docs/rules.md over every small situation, conservation (exhaustive on small decks, random
play on the full deck), termination with witnesses (the rules gaps CARDS-WAR-CYCLE,
CARDS-HERD-ENDLESS, CARDS-CONC-ENDLESS gate the run unless accepted), the published results,
and the traceability table.

    pkg = importlib.import_module("fleece.verify.cards")
    rep = pkg.run(pkg.VerifyConfig(quick=True)).with_accepted(["CARDS-WAR-CYCLE"])

Imports: fleece.rules and fleece.verify, and fleece.solver.cards: the War termination and
published-results checks call the solver's analyses.
"""

from __future__ import annotations

from fleece.verify.cards.ids import GAPS
from fleece.verify.cards.runner import SECTIONS, VerifyConfig, run

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run"]
