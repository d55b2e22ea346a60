"""Woof!! deduction solver: exact posteriors over deals from an evidence file.

Public API: `solve(evidence, engine="fast") -> Posterior` (the exact distribution of the seats'
characters) and `analyse(evidence, engine="fast") -> WoofAnalysis` (the posterior with the
contradicting lines, certain facts and a suggestion; `to_json()` is what `fleece woof solve
--json` prints). Engines: `fast` (exact dynamic programming over hand types), `csp`
(python-constraint enumeration, an independent check), `smt` (z3: certain facts and minimal
unsat cores).

Imports: fleece.rules and fleece.solver.
"""

from __future__ import annotations

from fleece.solver.woof.analysis import ENGINES, Suggestion, WoofAnalysis, analyse, solve
from fleece.solver.woof.shared import Posterior

__all__ = ["ENGINES", "Posterior", "Suggestion", "WoofAnalysis", "analyse", "solve"]
