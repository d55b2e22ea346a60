"""The card games' verification run: configuration, sections, report."""

from __future__ import annotations

import time
from pathlib import Path

from fleece.rules.registry import entry
from fleece.verify.cards.config import ALL_SECTIONS, SECTIONS, VerifyConfig
from fleece.verify.report import Report
from fleece.verify.result import CheckResult

GAME = "cards"
__all__ = ["SECTIONS", "VerifyConfig", "run"]

NOTES = [
    "Small situations are enumerated exhaustively (every pile pair up to a size, every hand "
    "and herd of a small table); the full 52-card deck is exercised by seeded random play.",
    "Every figure is computed here, from the rules models and the verifier's own means "
    "(whole games played by the model and by the clauses read afresh, exhaustive search "
    "over layouts, the published recurrences); nothing here calls the solvers it checks.",
    "Expectations come from docs/rules.md (the clause named in each row), never from outcomes.",
    "A rules gap of the variant under test (a game that need not end) fails the run unless "
    "accepted with --accept GAP-ID; its witness is a concrete deal or play.",
]


def run(cfg: VerifyConfig, progress: bool = False, tests_dir: Path | None = None) -> Report:
    """Run the configured sections and return the report (no files written)."""
    from fleece.verify import trace
    from fleece.verify.cards import checks

    unknown_sections = cfg.sections - ALL_SECTIONS
    if unknown_sections:
        raise ValueError(f"unknown sections: {', '.join(sorted(unknown_sections))}")
    t0 = time.perf_counter()
    results: list[CheckResult] = []
    if "rules" in cfg.sections:
        results += checks.rules_section(cfg)
    if "conservation" in cfg.sections:
        results += checks.conservation_section(cfg)
    if "termination" in cfg.sections:
        results += checks.termination_section(cfg)
    if "literature" in cfg.sections:
        results += checks.literature_section(cfg)
    meta: dict[str, object] = {
        "options": f"War order={cfg.order.value} runout={cfg.runout.value}; herd 2 players; "
                   "McCord's deck",
        "mode": "quick" if cfg.quick else "full", "order": cfg.order.value,
        "runout": cfg.runout.value,
        "model": f"{cfg.war_battle.__module__}.{cfg.war_battle.__qualname__}, "
                 f"{cfg.herd_model.__module__}.{cfg.herd_model.__qualname__}, "
                 f"{cfg.conc_model.__module__}.{cfg.conc_model.__qualname__}",
        "z3": "not used (exhaustive enumeration and exact arithmetic)",
        "sections": sorted(cfg.sections), "seed": cfg.seed, "notes": NOTES,
    }
    rows = trace.trace_table(results, GAME, tests_dir) if cfg.sections == ALL_SECTIONS else []
    game = entry(GAME)
    return Report(meta, results, rows, time.perf_counter() - t0, game=GAME, title=game.title,
                  sections=SECTIONS, rules_section=game.section)
