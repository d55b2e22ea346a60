"""Orchestration of Ulvtafl's verification: runs the sections with a progress bar and builds
the shared report. `quick` checks fewer random positions (CI and the test suite)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from fleece.rules.registry import entry
from fleece.rules.ulvtafl.game import Rules
from fleece.verify.budget import DEFAULT_TIMEOUT_MS, Budget
from fleece.verify.report import Report
from fleece.verify.result import CheckResult
from fleece.verify.ulvtafl.ids import GAPS
from fleece.verify.ulvtafl.under_test import PythonModel

GAME = "ulvtafl"
SECTIONS: tuple[tuple[str, str], ...] = (
    ("geometry", "Board geometry (U1, U2, U8)"),
    ("invariants", "Step invariants (Z3, inductive)"),
    ("ends", "End checks in U10's order"),
    ("gaps", "Rules gaps (U7)"),
    ("claims", "The seed's paddock claim (U5)"),
    ("crosscheck", "Python model vs Z3 encoding"),
)
ALL_SECTIONS = frozenset(key for key, _ in SECTIONS)

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run_verification"]

NOTES = [
    "The Z3 encoding (verify/ulvtafl/encoding.py) is written from docs/rules.md section 3 alone: "
    "it builds the board from U8's coordinates with its own point order and is compared with the "
    "reference model by point name.",
    "Step invariants are inductive over one step or one jump of a capture chain (a chain is "
    "a sequence of jumps by one wolf): any position satisfying the invariant, any such move, "
    "and the successor satisfies it (Z3 unsat of the negation).",
    "U10's order is checked where it matters: Z3 finds positions where two end checks hold "
    "at once, and both models must give the earlier check's result there.",
    "Without U7 play can repeat forever (a Z3 witness from the 20-sheep start, replayed in "
    "the reference model): the rules gap ULV-NO-END, which U7's repetition draw settles. It "
    "gates only a variant without the repetition rule (then accept it with --accept).",
    "Every Z3 query has a timeout and one retry with four times as much; an answer still "
    "unknown makes the check UNKNOWN, which fails the run (never read as proved).",
    "Each check's expectation comes from docs/rules.md (column 'expected (from)'), never from its "
    "outcome.",
]


@dataclass(frozen=True)
class VerifyConfig:
    """What to verify: the movement rules (and U7 on or off), quick or full, the Python
    model under test, the sections, the cross-check's sample and the solver budget."""

    rules: Rules = field(default_factory=Rules)
    quick: bool = False
    model: PythonModel = field(default_factory=PythonModel)
    sections: frozenset[str] = ALL_SECTIONS
    samples: int | None = None
    seed: int = 1
    timeout_ms: int = DEFAULT_TIMEOUT_MS


def run_verification(cfg: VerifyConfig, progress: bool = False,
                     tests_dir: Path | None = None) -> Report:
    """Run the configured sections and return the report (no files written)."""
    import z3
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from fleece.verify import trace
    from fleece.verify.ulvtafl import checks

    unknown_sections = cfg.sections - ALL_SECTIONS
    if unknown_sections:
        raise ValueError(f"unknown sections: {', '.join(sorted(unknown_sections))}")
    t_start = time.perf_counter()
    budget = Budget(cfg.timeout_ms)
    samples = cfg.samples if cfg.samples is not None else (12 if cfg.quick else 120)
    secs = cfg.sections
    results: list[CheckResult] = []
    total = len(secs) + (samples + len(checks.FIXED) if "crosscheck" in secs else 0)
    with Progress(TextColumn("[bold]{task.description:<28}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  disable=not progress, transient=True) as bar:
        task = bar.add_task("verify", total=total)

        def advance() -> None:
            bar.update(task, advance=1)

        if "geometry" in secs:
            bar.update(task, description="geometry")
            results += checks.geometry(budget, cfg.rules)
            advance()
        if "invariants" in secs:
            bar.update(task, description="step invariants (Z3)")
            results += checks.invariants(budget, cfg.rules)
            advance()
        if "ends" in secs:
            bar.update(task, description="end checks (U10)")
            results += checks.end_order(budget, cfg.rules, cfg.model)
            advance()
        if "gaps" in secs:
            bar.update(task, description="rules gaps (U7)")
            results += checks.gaps(budget, cfg.rules)
            advance()
        if "claims" in secs:
            bar.update(task, description="paddock claim")
            results += checks.paddock_claim(budget, cfg.rules, cfg.model)
            advance()
        if "crosscheck" in secs:
            bar.update(task, description="Python vs Z3")
            results += checks.setups(cfg.rules)
            results += checks.crosscheck(budget, cfg.rules, cfg.model, samples, cfg.seed,
                                         advance)
            advance()
    meta: dict[str, object] = {
        "options": " ".join(cfg.rules.tokens()) or "default rules (U7 repetition draw on)",
        "mode": "quick" if cfg.quick else "full", "model": cfg.model.name,
        "z3": z3.get_version_string(), "sections": sorted(secs),
        "samples": samples, "timeout_ms": list(budget.timeouts), "notes": NOTES,
    }
    rows = trace.trace_table(results, GAME, tests_dir) if secs == ALL_SECTIONS else []
    game = entry(GAME)
    return Report(meta, results, rows, time.perf_counter() - t_start, game=GAME,
                  title=game.title, sections=SECTIONS, rules_section=game.section)
