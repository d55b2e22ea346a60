"""Orchestration of Mutton's verification: runs the sections with a progress bar and builds
the report. `quick` runs a representative subset sized for CI and the test suite."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.options import RuleSet, Weapon
from fleece.rules.registry import entry
from fleece.verify.report import Report
from fleece.verify.result import CheckResult

GAME = "mutton"
SECTIONS: tuple[tuple[str, str], ...] = (
    ("invariants", "Step invariants (Z3, inductive)"),
    ("gaps", "Rule gaps (M10) and the shotgun stall"),
    ("claims", "Rulebook claims C1-C4"),
    ("termination", "Termination bound (M24)"),
    ("crosscheck", "Python model vs Z3 model"),
)
ALL_SECTIONS = frozenset(key for key, _ in SECTIONS)


@dataclass(frozen=True)
class VerifyConfig:
    """What to verify: the rules, quick or full, and the Python model class under test."""

    rules: RuleSet = field(default_factory=RuleSet)
    quick: bool = False
    workers: int = 2
    model: type[GameState] = GameState
    sections: frozenset[str] = ALL_SECTIONS
    positions: int | None = None
    seed: int = 1


NOTES = [
    "Invariant proofs are inductive: any state satisfying every invariant, any legal move, "
    "and the successor satisfies the obligation (Z3 unsat of the negation).",
    "Animals are interchangeable in the Z3 model, so the animal moved against is animal 0 and "
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
]


def _variant(rules: RuleSet) -> object:
    from fleece.verify.mutton.crosscheck import variant_of

    return variant_of(rules)


def rules_of(v: object, base: RuleSet) -> RuleSet:
    """A Python rule set for a Z3-model variant."""
    from fleece.verify.mutton.z3model import Variant

    assert isinstance(v, Variant)
    return RuleSet(size=v.size, num_sheep=v.num_sheep, num_wolves=v.num_wolves, remove=v.remove,
                   weapon=Weapon.SHOTGUN if v.shotgun else Weapon.RIFLE, escape=v.escape,
                   berserk=v.berserk, reveal=v.reveal, quick_play=base.quick_play)


def run_verification(cfg: VerifyConfig, progress: bool = False,
                     tests_dir: Path | None = None) -> Report:
    """Run the configured sections and return the report (no files written)."""
    import z3
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from fleece.verify import trace
    from fleece.verify.mutton import claims, crosscheck, gaps, invariants, termination
    from fleece.verify.mutton.z3model import Variant

    t_start = time.perf_counter()
    base = _variant(cfg.rules)
    assert isinstance(base, Variant)
    results: list[CheckResult] = []
    secs = cfg.sections

    sizes = [base.size, 2] if cfg.quick else list(range(2, 9))
    sizes = sorted(set(sizes))
    inv_variants = [v for s in sizes for v in invariants.option_combinations(
        invariants.sized(base, s))]
    keys = sorted({k for v in inv_variants for k in invariants.step_keys(v)}) \
        if ("invariants" in secs or "termination" in secs) else []
    positions = cfg.positions or (10 if cfg.quick else 50)
    cross_rules = list(crosscheck.DEFAULT_VARIANTS[:3] if cfg.quick
                       else crosscheck.DEFAULT_VARIANTS)
    if cfg.rules not in cross_rules:
        cross_rules.insert(0, cfg.rules)
    term_variants = [v for v in invariants.option_combinations(base)
                     if not cfg.quick or v.reveal]
    if cfg.quick:
        term_variants = [v for v in term_variants if v.remove + v.shotgun + v.escape
                         + (not v.berserk) <= 1]

    total = (len(keys) if "invariants" in secs or "termination" in secs else 0) \
        + (len(sizes) + 2 if "gaps" in secs else 0) + (3 if "claims" in secs else 0) \
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
            proofs = invariants.prove_all(keys, cfg.workers, step("invariants (Z3)"))
        if "invariants" in secs:
            results += invariants.results_for(inv_variants, proofs)
        if "gaps" in secs:
            bar.update(task, description="rule gaps (M10)")
            gap_sizes = sorted({2, 3, base.size}) if cfg.quick else list(range(2, 9))
            for s in gap_sizes:
                results += gaps.gap_table([s], 26, base.num_wolves, quick=cfg.quick)
                step("rule gaps (M10)")()
            results.append(gaps.default_free(base.size, base.num_sheep, base.num_wolves))
            if base.num_sheep != 26 or base.size != 4:
                results.append(gaps.default_free())
            step("rule gaps (M10)")()
            for s in ([2, 3, 4] if not cfg.quick else [2]):
                sv = invariants.sized(base, s)
                results.append(gaps.shotgun_stall(s, sv.num_sheep, sv.num_wolves))
            if base.size <= 5:
                results.append(gaps.shotgun_stall(base.size, base.num_sheep, base.num_wolves))
            step("rule gaps (M10)")()
        if "claims" in secs:
            bar.update(task, description="claims C1-C4")
            results += claims.c1_sparse()
            step("claims C1-C4")()
            results += claims.c2_c3(base if base.berserk_allowed else replace(
                base, berserk=True, shotgun=False))
            step("claims C1-C4")()
            results += claims.c4()
            step("claims C1-C4")()
        if "termination" in secs:
            for v in term_variants:
                ks = invariants.step_keys(v)
                ok = all(k in proofs and proofs[k].proved for k in ks)
                results.append(termination.termination(
                    rules_of(v, cfg.rules), ok, f"{len(ks)} move relations proved" if ok
                    else "some rank lemma not proved", model=cfg.model))
                step("termination (M24)")()
        if "crosscheck" in secs:
            results += crosscheck.crosscheck(cross_rules, positions, cfg.seed, cfg.model,
                                             step("cross-check Python vs Z3"))
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
        "sizes": sizes, "sections": sorted(secs), "notes": NOTES,
    }
    rows = trace.trace_table(unique, GAME, tests_dir) if secs == ALL_SECTIONS else []
    game = entry(GAME)
    return Report(meta, unique, rows, time.perf_counter() - t_start, game=GAME,
                  title=game.title, sections=SECTIONS, rules_section=game.section)

