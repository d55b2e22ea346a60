"""Generating Woof!! puzzles: a simulated round seen by one seat gives an evidence file; a
question with a unique answer is picked, and evidence lines are removed while the answer stays
and the rule-limited solver still finishes at the grade asked (solver.puzzles.core.minimise)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from fleece.rules.errors import FleeceError
from fleece.rules.woof.evidence import Evidence, Fact, evidence_from_round, format_evidence
from fleece.rules.woof.round import Table
from fleece.rules.woof.simulate import simulate_round
from fleece.solver.puzzles.core import Grade, minimise
from fleece.solver.puzzles.pool import collect
from fleece.solver.puzzles.woof.answer import (
    WOLVES,
    answer,
    answer_from,
    possible,
    redundant_facts,
)
from fleece.solver.puzzles.woof.human import human_solve


@dataclass(frozen=True)
class WoofPuzzle:
    """A finished Woof puzzle: evidence, question, answer, grade, id."""

    evidence: Evidence
    question: int
    answer: str
    grade: Grade
    ident: str = ""


def attempt(grade: Grade, seed: str) -> WoofPuzzle | None:
    """One attempt from a seeded random round: a minimal puzzle of exactly `grade`, or None."""
    rng = random.Random(seed)
    players = rng.randint(4, 8)
    rnd = simulate_round(Table(players), rng).round
    me = rng.choice(rnd.table.acting)
    ev = evidence_from_round(rnd, me=me)
    poss = possible(ev)
    qs = [WOLVES] if answer_from(poss, WOLVES) else []
    qs += [s for s, cs in poss.items() if len(cs) == 1 and s != me]
    if not qs:
        return None
    q = rng.choice(qs)
    ans = answer_from(poss, q)
    assert ans is not None
    order = list(range(len(ev.facts)))
    rng.shuffle(order)

    def remove(facts: list[Fact], fact: Fact) -> list[Fact]:
        return [f for f in facts if f is not fact]

    def accept(facts: list[Fact]) -> bool:
        tev = ev.with_facts(facts)
        return answer(tev, q) == ans and human_solve(tev, q, grade).solved

    facts = minimise(list(ev.facts), [ev.facts[i] for i in order], remove, accept)
    small = ev.with_facts(facts)
    if len(facts) < 2 or human_solve(small, q).grade is not grade or redundant_facts(small, q):
        return None
    return WoofPuzzle(small, q, ans, grade)


def generate(count: int, grade: Grade, seed: int,
             progress: Callable[[int, int], None] | None = None,
             max_attempts: int | None = None, workers: int = 1) -> list[WoofPuzzle]:
    """`count` distinct Woof puzzles of `grade`. Attempt i uses seed `"{seed}:{i}"` and results
    are taken in attempt order, so the output does not depend on `workers` (processes, see
    `solver.puzzles.pool`). `progress(found, attempts)` is called after each attempt."""
    limit = max_attempts if max_attempts is not None else max(2000, 400 * count)
    jobs = ((grade, f"{seed}:{i}") for i in range(limit))
    found, _ = collect(
        _attempt_job, jobs, count, workers=workers, progress=progress,
        key=lambda p: format_evidence(p.evidence) + str(p.question),
        named=lambda p, n: replace(p, ident=f"woof-{grade.label}-{n:03d}"))
    if len(found) < count:
        raise FleeceError(f"only {len(found)} {grade.label} Woof puzzles found in {limit} "
                          "attempts")
    return found


def _attempt_job(job: tuple[Grade, str]) -> WoofPuzzle | None:
    """`attempt` on one picklable job, for the process pool."""
    return attempt(*job)
