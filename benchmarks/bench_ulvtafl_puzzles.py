"""Benchmark of the Ulvtafl puzzles: a pack of 10 puzzles a grade (40) generated on one core,
and the independent check of every committed puzzle.

Run: python benchmarks/bench_ulvtafl_puzzles.py [--count N] [--seed S] [--skip-generate]

Targets: the 40 puzzles in under 2 minutes on one core; each check under 1 s. Both wall and
CPU time (this process's) are printed: on a shared machine the wall time grows with other
load and the CPU time hardly does, so the load average is printed before and after. The
check rows also time the compiled retrograde analysis on the same positions (the generator's
method) to show what the pure-Python second method costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from fleece.solver.puzzles.ulvtafl import UlvGrade, check, generate, parse_puzzle
from fleece.solver.puzzles.ulvtafl.generate import solve_table

PACK = Path(__file__).resolve().parent.parent / "puzzles" / "ulvtafl"


def load() -> str:
    """The load averages, as `uptime` prints them."""
    a, b, c = os.getloadavg()
    return f"load average {a:.2f}, {b:.2f}, {c:.2f} ({os.cpu_count()} CPUs)"


def generate_rows(count: int, seed: int) -> None:
    """One row a grade: puzzles, attempts, wall and CPU seconds; then the total."""
    print("| grade | puzzles | attempts | wall s | CPU s |\n|---|---|---|---|---|")
    wall = cpu = 0.0
    for grade in UlvGrade:
        tries = [0]

        def seen(_found: int, tried: int, box: list[int] = tries) -> None:
            box[0] = tried

        w, c = time.perf_counter(), time.process_time()
        found = generate(grade, count, seed, progress=seen)
        w, c = time.perf_counter() - w, time.process_time() - c
        wall, cpu = wall + w, cpu + c
        print(f"| {grade.label} | {len(found)} | {tries[0]} | {w:.1f} | {c:.1f} |")
    print(f"| all | {count * len(UlvGrade)} | | {wall:.1f} | {cpu:.1f} |")
    verdict = "met" if cpu < 120 else "MISSED"
    print(f"\ntarget: {count * len(UlvGrade)} puzzles under 120 s on one core: {verdict} "
          f"(CPU {cpu:.1f} s, wall {wall:.1f} s)\n")


def check_rows() -> None:
    """The check of every committed puzzle: median and largest wall and CPU time, and the
    compiled retrograde analysis of the same positions for comparison."""
    files = sorted(PACK.glob("*/[0-9][0-9][0-9].txt"))
    walls, cpus, compiled, sizes = [], [], [], []
    solve_table(parse_puzzle(files[0].read_text()).state())  # load the compiled kernels
    for f in files:
        p = parse_puzzle(f.read_text(), str(f))
        w, c = time.perf_counter(), time.process_time()
        v = check(p)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        if not v.sound:
            raise SystemExit(f"{f}: not sound: {v.reason}")
        sizes.append(v.positions)
        t = time.perf_counter()
        solve_table(p.state())
        compiled.append(time.perf_counter() - t)
    print("| figure | median | largest |\n|---|---|---|")
    print(f"| check wall s | {statistics.median(walls):.3f} | {max(walls):.3f} |")
    print(f"| check CPU s | {statistics.median(cpus):.3f} | {max(cpus):.3f} |")
    print(f"| positions solved by the check (mirror pairs once) | "
          f"{statistics.median(sizes):,.0f} | {max(sizes):,} |")
    print(f"| compiled retrograde of the same position, wall s | "
          f"{statistics.median(compiled):.4f} | {max(compiled):.4f} |")
    verdict = "met" if max(cpus) < 1.0 else "MISSED"
    print(f"\ntarget: each of the {len(files)} checks under 1 s: {verdict} (largest CPU "
          f"{max(cpus):.2f} s, wall {max(walls):.2f} s)")


def main(argv: list[str]) -> int:
    """Parse the options and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles a grade")
    parser.add_argument("--seed", type=int, default=1, help="generation seed")
    parser.add_argument("--skip-generate", action="store_true", help="only the checks")
    args = parser.parse_args(argv)
    print(f"# bench_ulvtafl_puzzles: Python {sys.version.split()[0]}; before: {load()}\n")
    if not args.skip_generate:
        generate_rows(args.count, args.seed)
    check_rows()
    print(f"\nafter: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
