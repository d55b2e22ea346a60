"""Inductive proofs of the Mutton step invariants with the Z3 encoding (M1-M20, M24 rank).

For a board size and animal count, each proof obligation is: any state satisfying all the
invariants, any legal move of one kind, and the successor satisfies the obligation. A move
kind's formula depends only on a few option bits (corpses removed, shotgun for shots), so the
32 option combinations of a size share 13 distinct move relations; each is proved once and
the combination is proved when every move kind it allows is.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from fleece.verify.budget import Budget
from fleece.verify.mutton.encoding import KIND_NAMES, Variant
from fleece.verify.result import PROVED, REFUTED, UNKNOWN, CheckResult

OBLIGATIONS = ("one-per-cell", "conservation", "runners", "score", "hidden-wolves", "rank")
CLAUSES = {"one-per-cell": ("M1", "M3", "M8", "M9"), "conservation": ("M4", "M6", "M19"),
           "runners": ("M9", "M10", "M17"), "score": ("M12", "M15", "M20"),
           "hidden-wolves": ("M11", "M12", "M19"), "rank": ("M14", "M24")}
KILL, ESCAPE, WOLF_PASS, FARMER_PASS, SHOOT, BERSERK = range(6)


@dataclass(frozen=True, order=True)
class StepKey:
    """A distinct move relation: board, animals, move kind and the option bits it reads."""

    size: int
    sheep: int
    wolves: int
    kind: int
    corpses_removed: bool
    shotgun: bool

    def variant(self) -> Variant:
        """A variant whose move of this kind has exactly this relation."""
        return Variant(self.size, self.sheep, self.wolves, remove=self.corpses_removed,
                       shotgun=self.shotgun, escape=True, berserk=True)

    def label(self) -> str:
        """`kill/size=4/corpses-stay`."""
        corpses = "corpses-removed" if self.corpses_removed else "corpses-stay"
        gun = "/shotgun" if self.shotgun else ""
        return f"size={self.size}/{KIND_NAMES[self.kind]}/{corpses}{gun}"


def option_combinations(base: Variant) -> list[Variant]:
    """All 32 combinations of remove, shotgun, escape, berserk, reveal for the base's size."""
    out = []
    for rem, gun, esc, ber, rev in itertools.product((False, True), repeat=5):
        out.append(replace(base, remove=rem, shotgun=gun, escape=esc, berserk=ber, reveal=rev))
    return out


def step_keys(v: Variant) -> list[StepKey]:
    """The move relations a variant allows."""
    kinds = [KILL, WOLF_PASS, FARMER_PASS, SHOOT]
    if v.escape:
        kinds.append(ESCAPE)
    if v.berserk_allowed:
        kinds.append(BERSERK)
    return sorted(StepKey(v.size, v.num_sheep, v.num_wolves, k, v.corpses_removed,
                          v.shotgun and k == SHOOT) for k in kinds)


def sized(base: Variant, size: int) -> Variant:
    """The base variant on another board: animals capped by the cells, wolves by half."""
    cells = 3 * size * (size - 1) + 1
    sheep = min(base.num_sheep, cells)
    return replace(base, size=size, num_sheep=sheep, num_wolves=max(1, min(base.num_wolves,
                                                                         sheep // 2)))


@dataclass(frozen=True)
class KeyOutcome:
    """The obligations of one move relation: name -> (z3 answer, seconds, counterexample)."""

    key: StepKey
    answers: tuple[tuple[str, str, float, str], ...]

    @property
    def proved(self) -> bool:
        """Every obligation came back unsat."""
        return all(a == "unsat" for _, a, _, _ in self.answers)

    def status(self, only: str | None = None) -> str:
        """PROVED (all unsat), REFUTED (some obligation has a counterexample) or UNKNOWN
        (none refuted, some undecided), over every obligation or just `only`."""
        got = {a for name, a, _, _ in self.answers if only is None or name == only}
        if "sat" in got:
            return REFUTED
        return PROVED if got <= {"unsat"} else UNKNOWN

    @property
    def seconds(self) -> float:
        """Total solver time."""
        return sum(t for _, _, t, _ in self.answers)


def prove_key(key: StepKey, budget: Budget | None = None) -> KeyOutcome:
    """Prove every obligation of one move relation (runs in a worker process); each answer
    is "unsat" (proved), "sat" (with a counterexample) or "unknown" (after the retry)."""
    import z3

    from fleece.verify.mutton.encoding import invariant, obligations, one_step, symbolic_state

    budget = budget or Budget()
    v = key.variant()
    s = symbolic_state(v.num_sheep, "s")
    step = one_step(v, s, key.kind, "m")
    solver = z3.Solver()
    solver.add(invariant(v, s), step.guard)
    answers = []
    for name, goal in obligations(v, s, step).items():
        solver.push()
        solver.add(z3.Not(goal))
        t0 = time.perf_counter()
        answer = budget.answer(solver)
        dt = time.perf_counter() - t0
        cex = _describe(solver.model(), v.num_sheep) if answer == "sat" else ""
        solver.pop()
        answers.append((name, answer, dt, cex))
    return KeyOutcome(key, tuple(answers))


def _describe(model: object, n: int) -> str:
    """A short text of a counterexample state (cells and statuses of the animals)."""
    import z3

    assert isinstance(model, z3.ModelRef)
    parts = []
    for a in range(n):
        def val(name: str) -> str:
            return str(model.eval(z3.Int(name) if name[2] != "o" else z3.Bool(name),
                                  model_completion=True))
        parts.append(f"{chr(65 + a)}:({val(f's_r{a}')},{val(f's_d{a}')}) "
                     f"st={val(f's_st{a}')} on={val(f's_on{a}')}")
    return "; ".join(parts)


def prove_all(keys: Iterable[StepKey], workers: int = 2,
              progress: Callable[[StepKey], None] | None = None,
              budget: Budget | None = None) -> dict[StepKey, KeyOutcome]:
    """Prove many move relations, in parallel processes when `workers` > 1."""
    todo = sorted(set(keys), key=lambda k: (-k.sheep, -k.size, k.kind))
    out: dict[StepKey, KeyOutcome] = {}
    prove = functools.partial(prove_key, budget=budget or Budget())
    if workers <= 1 or len(todo) <= 1:
        for k in todo:
            out[k] = prove(k)
            if progress:
                progress(k)
        return out
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for k, res in zip(todo, pool.map(prove, todo), strict=True):
            out[k] = res
            if progress:
                progress(k)
    return out


def results_for(variants: list[Variant], proofs: dict[StepKey, KeyOutcome]
                ) -> list[CheckResult]:
    """One check per (board size, obligation): proved when every move relation of every option
    combination of that size discharged it."""
    by_size: dict[int, list[Variant]] = {}
    for v in variants:
        by_size.setdefault(v.size, []).append(v)
    out = []
    for size, vs in sorted(by_size.items()):
        keys = sorted({k for v in vs for k in step_keys(v)})
        combos = len(vs)
        for ob in OBLIGATIONS:
            rows = []
            failed = []
            secs = 0.0
            for k in keys:
                for name, ans, dt, cex in proofs[k].answers:
                    if name != ob:
                        continue
                    secs += dt
                    rows.append(f"{k.label()}: {ans}")
                    if ans != "unsat":
                        failed.append(f"{k.label()}: {ans} {cex}".strip())
            if not rows:
                continue
            statuses = {proofs[k].status(ob) for k in keys}
            outcome = REFUTED if REFUTED in statuses else UNKNOWN if UNKNOWN in statuses \
                else PROVED
            v0 = vs[0]
            out.append(CheckResult(
                section="invariants", name=f"size{size}/{ob}",
                title=f"{ob}: holds after every move from any invariant state, size {size} "
                      f"({v0.num_sheep} animals, {v0.num_wolves} wolves), {combos} option "
                      "combinations",
                # Expected PROVED: the invariant restates the clauses it covers (docs/rules.md).
                outcome=outcome, expected=PROVED, clauses=CLAUSES[ob],
                basis=f"docs/rules.md {', '.join(CLAUSES[ob])}: holds after every legal move",
                detail=f"{len(rows)} move relations" + ("" if not failed else
                                                        "; not proved: " + "; ".join(failed[:3])),
                witness=failed[0] if failed else "", seconds=secs,
                data={"size": size, "sheep": v0.num_sheep, "wolves": v0.num_wolves,
                      "combinations": combos, "relations": rows}))
    return out
