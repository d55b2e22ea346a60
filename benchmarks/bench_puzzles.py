"""Benchmark of the puzzle generators: minimal graded puzzles per second.

Run: python benchmarks/bench_puzzles.py [--count N] [--woof-count N] [--seed S] [--game G].
Prints one table row per game, grade and question: puzzles found, games (Mutton) or rounds
(Woof!!) simulated, wall time, puzzles per second, and the time of the independent z3 check per
puzzle. Rows are on one core, except a game written `woof x2`: the same Woof!! run with
`workers=2` processes, which must give the very same puzzles as its one-core row.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.mutton.answer import MuttonQuestion as Question
from fleece.solver.puzzles.mutton.check import z3_verify
from fleece.solver.puzzles.mutton.generate import generate

PARALLEL_GRADE = Grade.MEDIUM  # the Woof!! grade also timed with two worker processes


def _row(game: str, grade: Grade, qname: str, found: int, tries: int, dt: float,
         ck: float) -> None:
    print(f"{game:7} {grade.label:7} {qname:8} {found:>7} {tries:>6} "
          f"{dt:>8.2f} {found / dt:>7.1f} {ck * 1000:>7.0f}ms")


def _counter() -> tuple[list[int], Callable[[int, int], None]]:
    tries = [0]

    def seen(_n: int, t: int) -> None:
        tries[0] = t

    return tries, seen


def mutton_rows(count: int, seed: int) -> None:
    """Mutton rows: every grade and question, one core."""
    for grade in Grade:
        for question in (Question.ALL, Question.CERTAIN, None):
            if grade is Grade.HARD and question is Question.ALL:
                continue  # too rare in random games: see README
            tries, seen = _counter()
            t0 = time.perf_counter()
            found = generate(count, grade, question, seed, progress=seen)
            dt = time.perf_counter() - t0
            t1 = time.perf_counter()
            for p in found:
                v = z3_verify(p.chart, p.wolves, p.question)
                assert v.minimal and v.answer == p.answer
            ck = (time.perf_counter() - t1) / len(found)
            qname = question.value if question else "any"
            _row("mutton", grade, qname, len(found), tries[0], dt, ck)


def woof_rows(count: int, seed: int) -> None:
    """Woof!! rows: every grade on one core (questions mixed), and one grade with 2 workers."""
    from fleece.solver.puzzles.woof.check import z3_answer
    from fleece.solver.puzzles.woof.formats import render_puzzle
    from fleece.solver.puzzles.woof.generate import generate

    def run(grade: Grade, workers: int) -> list[str]:
        tries, seen = _counter()
        t0 = time.perf_counter()
        found = generate(count, grade, seed, progress=seen, workers=workers)
        dt = time.perf_counter() - t0
        t1 = time.perf_counter()
        for p in found:
            ans, redundant = z3_answer(p.evidence, p.question)
            assert ans == p.answer and not redundant
        ck = (time.perf_counter() - t1) / len(found)
        _row("woof" if workers == 1 else f"woof x{workers}", grade, "any", len(found),
             tries[0], dt, ck)
        return [render_puzzle(p) for p in found]

    one_core: dict[Grade, list[str]] = {}
    for grade in Grade:
        one_core[grade] = run(grade, 1)
    assert run(PARALLEL_GRADE, 2) == one_core[PARALLEL_GRADE]  # same seed, same puzzles


def main() -> None:
    """Generate puzzles per game and grade and print the rates."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=30, help="Mutton puzzles per row")
    ap.add_argument("--woof-count", type=int, default=10, help="Woof!! puzzles per row")
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--game", choices=("all", "mutton", "woof"), default="all")
    args = ap.parse_args()
    print(f"{'game':7} {'grade':7} {'question':8} {'puzzles':>7} {'games':>6} {'seconds':>8} "
          f"{'per s':>7} {'z3 check':>9}")
    if args.game in ("all", "mutton"):
        mutton_rows(args.count, args.seed)
    if args.game in ("all", "woof"):
        woof_rows(args.woof_count, args.seed)


if __name__ == "__main__":
    main()
