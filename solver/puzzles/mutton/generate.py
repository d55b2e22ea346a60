"""Generating Mutton puzzles: simulated games give charts with a unique answer; clues are
removed while the answer stays unique and the rule-limited solver still finishes at the grade
asked (solver.puzzles.core.minimise); a puzzle is kept when it is minimal and graded as asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import Chart, farmer_chart, render_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.simulate import random_move
from fleece.solver.puzzles.core import Grade, minimise
from fleece.solver.puzzles.mutton.answer import (
    Clue,
    MuttonQuestion,
    _answer_is,
    answer,
    clues,
    redundant_clues,
    renumbered,
    without,
)
from fleece.solver.puzzles.mutton.human import HumanSolution, human_solve
from fleece.solver.puzzles.pool import collect

MIN_ROUNDS = 2  # a puzzle about a chart should need at least two of its rounds


@dataclass(frozen=True)
class MuttonPuzzle:
    """A finished puzzle: clue chart, wolf count, question, answer, grade and provenance."""

    chart: Chart
    wolves: int
    question: MuttonQuestion
    answer: frozenset[str]
    grade: Grade
    ident: str = ""
    source: str = ""

    def solution(self) -> HumanSolution:
        """The graded step-by-step solution."""
        return human_solve(self.chart, self.wolves, self.question, target=self.answer)


def game_moments(rules: MuttonOptions, rng: random.Random) -> list[Chart]:
    """The Farmer's chart at the start of every round of one random game, and at its end."""
    state = GameState.new(rules)
    out: list[Chart] = []
    while not state.over:
        state = state.play(random_move(state, rng))
        if (state.phase is Phase.WOLF and state.kills) or state.over:
            out.append(farmer_chart(state))
    return out


def minimize(chart: Chart, k: int, question: MuttonQuestion, ans: frozenset[str], grade: Grade,
             rng: random.Random) -> Chart:
    """Remove clues in random order (status marks first, so that rounds carry the deduction)
    while the answer stays `ans` and the rule-limited solver up to `grade` still finishes (one
    pass; the caller checks strict minimality)."""
    marks = [c for c in clues(chart) if isinstance(c, str)]
    rows = [c for c in clues(chart) if not isinstance(c, str)]
    rng.shuffle(marks)
    rng.shuffle(rows)

    def remove(current: Chart, clue: Clue) -> Chart | None:
        if isinstance(clue, str) and any(r.victim == clue for r in current.rows):
            return None  # its round is still there
        return without(current, clue)

    def accept(trial: Chart) -> bool:
        return _answer_is(trial, k, question, ans) and human_solve(
            trial, k, question, target=ans, max_grade=grade).solved

    order: list[Clue] = [*marks, *rows]
    chart = minimise(chart, order, remove, accept)
    # victims freed by a later round removal get a second chance
    later: list[Clue] = [c for c in clues(chart) if isinstance(c, str)]
    return minimise(chart, later, remove, accept)


def attempt(rules: MuttonOptions, grade: Grade, question: MuttonQuestion, seed: str
            ) -> MuttonPuzzle | None:
    """One generation attempt from a seeded random game: a minimal puzzle of exactly `grade`,
    or None. Deterministic in `seed`."""
    rng = random.Random(seed)
    k = rules.num_wolves
    moments = game_moments(rules, rng)
    usable = []
    for ch in moments:
        ans = answer(ch, k, question)
        if ans is not None:
            usable.append((ch, ans))
    if not usable:
        return None
    chart, ans = rng.choice(usable)
    chart = Chart(chart.animals, chart.status, chart.rows, reveal=True)
    for _ in range(3):
        small = renumbered(minimize(chart, k, question, ans, grade, rng))
        if len(small.rows) < MIN_ROUNDS:
            continue
        sol = human_solve(small, k, question, target=ans, max_grade=grade)
        if sol.grade is not grade:
            continue
        if redundant_clues(small, k, question):
            continue
        return MuttonPuzzle(small, k, question, ans, grade, source=seed)
    return None


def generate(count: int, grade: Grade, question: MuttonQuestion | None, seed: int,
             rules: MuttonOptions | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             max_attempts: int | None = None) -> list[MuttonPuzzle]:
    """`count` distinct puzzles of `grade`; `question` None mixes both questions. Attempt i uses
    seed `"{seed}:{i}"`, and results are taken in attempt order, so the output does not depend
    on `workers`. `progress(found, attempts)` is called after each attempt."""
    rules = rules or MuttonOptions()
    limit = max_attempts if max_attempts is not None else max(2000, 400 * count)
    jobs = ((rules, grade, question, f"{seed}:{i}") for i in range(limit))
    found, tried = collect(
        _attempt_job, jobs, count, workers=workers, progress=progress,
        key=lambda p: render_chart(p.chart) + p.question.value,
        named=lambda p, n: replace(p, ident=f"mutton-{grade.label}-{n:03d}"))
    if len(found) < count:
        raise FleeceError(f"only {len(found)} {grade.label} puzzles found in {tried} attempts")
    return found


def _attempt_job(job: tuple[MuttonOptions, Grade, MuttonQuestion | None, str]
                 ) -> MuttonPuzzle | None:
    rules, grade, question, seed = job
    q = question if question is not None else random.Random(seed + "q").choice(list(MuttonQuestion))
    return attempt(rules, grade, q, seed)
