"""Orchestration of Mutton's verification: runs the sections with a progress bar and builds
the report. `quick` runs a representative subset sized for CI and the test suite.

The variant under test (`VerifyConfig.rules`) decides which rules gaps gate: its own M10 gap
search, its shotgun stall when it has the shotgun, and its no-end gap (section `gaps` and its
termination check); the gap tables of other boards are information (section `gap-table`).
Every Z3 query runs under `Budget(timeout_ms)`, retried once with a larger timeout; an
unknown after that is an UNKNOWN check, which fails the run."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.registry import entry
from fleece.verify.budget import DEFAULT_TIMEOUT_MS, Budget
from fleece.verify.mutton.ids import GAPS
from fleece.verify.report import Report
from fleece.verify.result import PROVED, REFUTED, UNKNOWN, CheckResult

if TYPE_CHECKING:
    from fleece.verify.mutton.invariants import KeyOutcome, StepKey

GAME = "mutton"
SECTIONS: tuple[tuple[str, str], ...] = (
    ("invariants", "Step invariants (Z3, inductive)"),
    ("gaps", "Rules gaps of the variant under test (gate)"),
    ("gap-table", "Gap tables of other boards (information)"),
    ("claims", "Rulebook claims C1-C4"),
    ("termination", "Termination bound (M24)"),
    ("crosscheck", "Python model vs Z3 encoding"),
)
ALL_SECTIONS = frozenset(key for key, _ in SECTIONS)

__all__ = ["GAPS", "SECTIONS", "VerifyConfig", "run_verification"]


@dataclass(frozen=True)
class VerifyConfig:
    """What to verify: the rules, quick or full, and the Python model class under test."""

    rules: MuttonOptions = field(default_factory=MuttonOptions)
    quick: bool = False
    workers: int = 2
    model: type[GameState] = GameState
    sections: frozenset[str] = ALL_SECTIONS
    positions: int | None = None
    seed: int = 1
    timeout_ms: int = DEFAULT_TIMEOUT_MS


NOTES = [
    "Invariant proofs are inductive: any state satisfying every invariant, any legal move, "
    "and the successor satisfies the obligation (Z3 unsat of the negation).",
    "Animals are interchangeable in the Z3 encoding, so the animal moved against is animal 0 and "
    "per-animal / per-pair obligations are checked for representatives (0, 1) and pairs "
    "(0,1), (1,2); counters move by per-animal deltas, so counting invariants reduce to one "
    "identity per animal.",
    "The Wolf's pass guard ('no legal kill') is relaxed to 'Wolf to move' in proofs: an "
    "over-approximation, so proofs stay sound; the cross-check tests the exact guard.",
    "Each option combination's moves read only a few option bits; the 32 combinations of a "
    "size share 13 distinct move relations, each proved once.",
    "M10 gaps use an occupancy model (living, corpse or empty per cell) whose occupied cells "
    "never exceed the animals, by the one-per-cell and conservation invariants; gaps are "
    "sought at round one, where any placement is reachable, and replayed in Python.",
    "A rules gap of the variant under test (an M10 kill with unplaceable runners, the "
    "shotgun stall, a game that need not end) fails the run unless accepted with "
    "`--accept GAP-ID`; the gap tables of other boards are information and never gate.",
    "Every Z3 query has a timeout and one retry with four times that timeout; an answer "
    "still unknown makes the check UNKNOWN, which fails the run (never read as proved).",
    "Each check's expectation is fixed from docs/rules.md (column 'expected (from)'), never from "
    "its outcome.",
]


def _variant(rules: MuttonOptions) -> object:
    from fleece.verify.mutton.crosscheck import variant_of

    return variant_of(rules)


def rules_of(v: object, base: MuttonOptions) -> MuttonOptions:
    """A Python rule set for a Z3-model variant."""
    from fleece.verify.mutton.encoding import Variant

    assert isinstance(v, Variant)
    return MuttonOptions(size=v.size, num_sheep=v.num_sheep, num_wolves=v.num_wolves,
                         remove=v.remove, weapon=Weapon.SHOTGUN if v.shotgun else Weapon.RIFLE,
                         escape=v.escape, berserk=v.berserk, reveal=v.reveal,
                         quick_play=base.quick_play)


def _rank_status(keys: list[StepKey], proofs: dict[StepKey, KeyOutcome]) -> str:
    """PROVED when every move relation's obligations are proved, REFUTED when one has a
    counterexample, else UNKNOWN (undecided or not run)."""
    outs = [proofs.get(k) for k in keys]
    statuses = {o.status() if o is not None else UNKNOWN for o in outs}
    if REFUTED in statuses:
        return REFUTED
    return UNKNOWN if UNKNOWN in statuses else PROVED


def run_verification(cfg: VerifyConfig, progress: bool = False,
                     tests_dir: Path | None = None) -> Report:
    """Run the configured sections and return the report (no files written)."""
    import z3
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from fleece.verify import trace
    from fleece.verify.mutton import claims, crosscheck, gaps, invariants, termination
    from fleece.verify.mutton.encoding import Variant

    unknown_sections = cfg.sections - ALL_SECTIONS
    if unknown_sections:
        raise ValueError(f"unknown sections: {', '.join(sorted(unknown_sections))}")
    t_start = time.perf_counter()
    budget = Budget(cfg.timeout_ms)
    base = _variant(cfg.rules)
    assert isinstance(base, Variant)
    results: list[CheckResult] = []
    secs = cfg.sections

    sizes = [base.size, 2] if cfg.quick else list(range(2, 9))
    sizes = sorted(set(sizes))
    inv_variants = [v for s in sizes for v in invariants.option_combinations(
        invariants.sized(base, s))]
    term_variants = [v for v in invariants.option_combinations(base)
                     if not cfg.quick or v.reveal]
    if cfg.quick:
        term_variants = [v for v in term_variants if v.remove + v.shotgun + v.escape
                         + (not v.berserk) <= 1]
    if base in term_variants:
        term_variants.remove(base)
    term_variants.insert(0, base)  # the variant under test is always checked, and first
    key_set: set[invariants.StepKey] = set()
    if "invariants" in secs:
        key_set |= {k for v in inv_variants for k in invariants.step_keys(v)}
    if "termination" in secs:
        key_set |= {k for v in term_variants for k in invariants.step_keys(v)}
    keys = sorted(key_set)
    positions = cfg.positions or (10 if cfg.quick else 50)
    cross_rules = list(crosscheck.DEFAULT_VARIANTS[:3] if cfg.quick
                       else crosscheck.DEFAULT_VARIANTS)
    if cfg.rules not in cross_rules:
        cross_rules.insert(0, cfg.rules)
    gap_sizes = sorted({2, 3, base.size}) if cfg.quick else list(range(2, 9))
    stall_sizes = [2] if cfg.quick else [2, 3, 4]

    total = len(keys) + (2 if "gaps" in secs else 0) \
        + (len(gap_sizes) + 2 if "gap-table" in secs else 0) \
        + (3 if "claims" in secs else 0) \
        + (len(term_variants) if "termination" in secs else 0) \
        + (positions * len(cross_rules) if "crosscheck" in secs else 0)
    with Progress(TextColumn("[bold]{task.description:<34}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  disable=not progress, transient=True) as bar:
        task = bar.add_task("verify", total=max(total, 1))

        def step(desc: str) -> Callable[..., None]:
            def advance(*_: object) -> None:
                bar.update(task, advance=1, description=desc)
            return advance

        proofs = {}
        if keys:
            bar.update(task, description="invariants (Z3)")
            proofs = invariants.prove_all(keys, cfg.workers, step("invariants (Z3)"), budget)
        if "invariants" in secs:
            results += invariants.results_for(inv_variants, proofs)
        if "gaps" in secs:
            bar.update(task, description="rules gaps of the variant")
            results.append(gaps.variant_m10(cfg.rules, budget, cfg.model))
            step("rules gaps of the variant")()
            if cfg.rules.shotgun:
                results.append(gaps.variant_stall(cfg.rules, budget, cfg.model))
            step("rules gaps of the variant")()
        if "gap-table" in secs:
            bar.update(task, description="gap tables (information)")
            for s in gap_sizes:
                results += gaps.gap_table([s], 26, base.num_wolves, quick=cfg.quick,
                                          budget=budget)
                step("gap tables (information)")()
            if base.num_sheep != 26 or base.size != 4:
                results.append(gaps.default_free(budget=budget))
            step("gap tables (information)")()
            for s in stall_sizes:
                sv = invariants.sized(base, s)
                results.append(gaps.stall_table(s, sv.num_sheep, sv.num_wolves, budget))
            step("gap tables (information)")()
        if "claims" in secs:
            bar.update(task, description="claims C1-C4")
            results += claims.c1_sparse(budget=budget)
            step("claims C1-C4")()
            results += claims.c2_c3(base if base.berserk_allowed else replace(
                base, berserk=True, shotgun=False), budget)
            step("claims C1-C4")()
            results += claims.c4(budget=budget)
            step("claims C1-C4")()
        if "termination" in secs:
            for v in term_variants:
                ks = invariants.step_keys(v)
                rank = _rank_status(ks, proofs)
                detail = {PROVED: f"{len(ks)} move relations proved",
                          REFUTED: "some rank lemma has a counterexample",
                          UNKNOWN: "some rank lemma is undecided"}[rank]
                results.append(termination.termination(
                    rules_of(v, cfg.rules), rank, detail, model=cfg.model,
                    under_test=v == base))
                step("termination (M24)")()
        if "crosscheck" in secs:
            results += crosscheck.crosscheck(cross_rules, positions, cfg.seed, cfg.model,
                                             step("cross-check Python vs Z3"), budget)
    # dedupe: identical check ids keep the first
    seen: set[str] = set()
    unique = []
    for r in results:
        if r.ident not in seen:
            seen.add(r.ident)
            unique.append(r)
    meta: dict[str, object] = {
        "options": cfg.rules.to_options(), "mode": "quick" if cfg.quick else "full",
        "model": f"{cfg.model.__module__}.{cfg.model.__qualname__}", "z3": z3.get_version_string(),
        "sizes": sizes, "sections": sorted(secs), "timeout_ms": list(budget.timeouts),
        "notes": NOTES,
    }
    rows = trace.trace_table(unique, GAME, tests_dir) if secs == ALL_SECTIONS else []
    game = entry(GAME)
    return Report(meta, unique, rows, time.perf_counter() - t_start, game=GAME,
                  title=game.title, sections=SECTIONS, rules_section=game.section)
