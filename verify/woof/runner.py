"""Orchestration of Woof!!'s verification: runs the sections with a progress bar and builds the
report. `quick` runs a representative subset sized for CI and the test suite."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from fleece.rules.registry import entry
from fleece.verify.budget import Budget
from fleece.verify.report import Report
from fleece.verify.result import CheckResult
from fleece.verify.woof.config import ALL_SECTIONS, SECTIONS, VerifyConfig

GAME = "woof"
__all__ = ["SECTIONS", "VerifyConfig", "run"]

NOTES = [
    "The Z3 encoding (fleece.verify.woof.encoding) is written from docs/rules.md section 2 alone; "
    "the Python model under test (fleece.rules.woof) is compared with it on every card, pair of "
    "cards, viewer and question, on the rulebook's example and on random rounds.",
    "Round invariants are inductive: from the deal, any state satisfying them and any legal "
    "turn give a successor satisfying them (Z3 unsat of the negation), at 4-8 players (4 and "
    "8 in quick mode).",
    "The rulebook's example contradicts itself on the Shepherd's Wolf token (laid at Kenny in "
    "the narrative, at Jason in the result): reading A (tokens at Kenny and Jason) gives the "
    "rulebook's result, reading B (Kenny only) does not; the model implements docs/rules.md W9 "
    "(the token must lie on the seat wrongly named as Wolf), so both readings score as W9 says.",
    "The Dog's second target is docs/rules.md's labelled assumption (default Shepherd, "
    "`--dog-target`); the 4-7 player decks of the cross-check are the model's labelled preset.",
    "A rules gap (a round that need not end, a seat that must announce with no token left) "
    "fails the run unless accepted with `--accept GAP-ID`; its witness is a concrete play the "
    "Python model under test replays, and its record is that play as round text "
    "(fleece.rules.woof.protocol.WOOF.parse_position replays it).",
    "Every Z3 query has a timeout and one retry with four times that timeout; an answer still "
    "unknown makes the check UNKNOWN, which fails the run (never read as proved).",
    "Each check's expectation is fixed from docs/rules.md (column 'expected (from)'), never from "
    "its outcome.",
]


def run(cfg: VerifyConfig, progress: bool = False, tests_dir: Path | None = None) -> Report:
    """Run the configured sections and return the report (no files written)."""
    import z3
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from fleece.verify import trace
    from fleece.verify.woof import characters, crosscheck, ends, scoring, tokens

    unknown_sections = cfg.sections - ALL_SECTIONS
    if unknown_sections:
        raise ValueError(f"unknown sections: {', '.join(sorted(unknown_sections))}")
    t0 = time.perf_counter()
    budget = Budget(cfg.timeout_ms)
    results: list[CheckResult] = []
    parts: list[tuple[str, str, Callable[[], list[CheckResult]]]] = [
        ("cards", "characters, looks, answers (W1-W5)",
         lambda: characters.cards_section(cfg, budget)),
        ("scoring", "scoring (W8, W9)", lambda: scoring.scoring_section(cfg, budget)),
        ("example", "the rulebook's example", lambda: scoring.example_section(cfg, budget)),
        ("ends", "round and game ends", lambda: ends.ends_section(cfg, budget)),
        ("tokens", "token supply (W11)", lambda: tokens.tokens_section(cfg, budget)),
    ]
    todo = [p for p in parts if p[0] in cfg.sections]
    cross = "crosscheck" in cfg.sections
    total = len(todo) + (cfg.round_count + 1 if cross else 0)
    with Progress(TextColumn("[bold]{task.description:<34}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  disable=not progress, transient=True) as bar:
        task = bar.add_task("verify", total=max(total, 1))
        for _, desc, fn in todo:
            bar.update(task, description=desc)
            results += fn()
            bar.update(task, advance=1)
        if cross:
            bar.update(task, description="cross-check Python vs Z3")
            results.append(crosscheck.rounds(cfg, lambda: bar.update(task, advance=1)))
            results.append(crosscheck.games(cfg))
            bar.update(task, advance=1)
    meta: dict[str, object] = {
        "options": f"players 4-8, Dog's second target {cfg.dog_target.value} (assumption)",
        "mode": "quick" if cfg.quick else "full",
        "model": f"{cfg.model.__module__}.{cfg.model.__qualname__}",
        "game_model": f"{cfg.game_model.__module__}.{cfg.game_model.__qualname__}",
        "z3": z3.get_version_string(), "sections": sorted(cfg.sections), "seed": cfg.seed,
        "rounds": cfg.round_count, "timeout_ms": list(budget.timeouts), "notes": NOTES,
    }
    rows = trace.trace_table(results, GAME, tests_dir) if cfg.sections == ALL_SECTIONS else []
    game = entry(GAME)
    return Report(meta, results, rows, time.perf_counter() - t0, game=GAME, title=game.title,
                  sections=SECTIONS, rules_section=game.section)
