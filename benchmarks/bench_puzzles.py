"""Benchmark of the puzzle generators (issue 6): minimal graded puzzles per second on one core.

Run: python benchmarks/bench_puzzles.py [--count N] [--seed S]. Prints one table row per game,
grade and question: puzzles found, games simulated, wall time, puzzles per second, and the time
of the independent z3 check per puzzle.
"""

from __future__ import annotations

import argparse
import time

from solver.puzzles.check import z3_verify
from solver.puzzles.mutton import Grade, Question, generate


def main() -> None:
    """Generate puzzles per grade on one core and print the rates."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    print(f"{'game':7} {'grade':7} {'question':8} {'puzzles':>7} {'games':>6} {'seconds':>8} "
          f"{'per s':>7} {'z3 check':>9}")
    for grade in Grade:
        for question in (Question.ALL, Question.CERTAIN, None):
            if grade is Grade.HARD and question is Question.ALL:
                continue  # too rare in random games: see README
            tries = 0

            def seen(_n: int, t: int) -> None:
                nonlocal tries
                tries = t

            t0 = time.perf_counter()
            found = generate(args.count, grade, question, args.seed, progress=seen)
            dt = time.perf_counter() - t0
            t1 = time.perf_counter()
            for p in found:
                v = z3_verify(p.chart, p.wolves, p.question)
                assert v.minimal and v.answer == p.answer
            ck = (time.perf_counter() - t1) / len(found)
            qname = question.value if question else "any"
            print(f"{'mutton':7} {grade.label:7} {qname:8} {len(found):>7} {tries:>6} "
                  f"{dt:>8.2f} {len(found) / dt:>7.1f} {ck * 1000:>7.0f}ms")


if __name__ == "__main__":
    main()
