"""Speed of the Mutton deduction solver, against its speed targets, measured in one run.

    python benchmarks/bench_mutton_solver.py            # full: 7 runs of the fast cases
    python benchmarks/bench_mutton_solver.py --quick    # fewer runs, for a smoke test

Cases (every time is the median of several runs; the table gives the runs):

1. `fleece mutton solve examples/mutton/helppage.txt` through the CLI: wall time of the
   subprocess, beside `fleece --help` (the start-up floor of the command line); bench_speed.py
   gives the same as ratios to a bare `python -c pass`.
   Target: well under 0.5 s.
2. The heaviest chart the server's options allow: 26 animals, 13 wolves, no_reveal, 20+ kills
   (taken from simulated games, seeds 0-39: the chart with the most kills of each game, the one
   the fast engine takes longest on). Fast engine, exact count and every probability.
   Target: under 0.1 s.
3. A 6-wolf chart with about 50,000 consistent sets (a simulated game, seed 48, 7 moves):
   fast vs csp vs smt. Target: fast at least 100x faster than both.

The charts are regenerated from fixed seeds by the rules model's simulator, so every run
measures the same inputs; they are printed so they can be pasted into `fleece mutton solve`.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from timing import median_time

from fleece.rules.mutton.chart import Chart, farmer_chart, render_chart, render_paste
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.simulate import FarmerPolicy, random_move
from fleece.solver.mutton import Problem, problem_from_chart, solve

ROOT = Path(__file__).resolve().parent.parent


def fleece_command() -> list[str]:
    """The installed `fleece` script next to this Python (not a version-manager shim, whose
    own start-up is not fleece's), else `python -c` on the CLI module."""
    script = Path(sys.executable).with_name("fleece")
    if script.exists():
        return [str(script)]
    found = shutil.which("fleece")
    if found:
        return [found]
    code = "from fleece.cli import app; app()"
    return [sys.executable, "-c", code]


def heaviest_chart() -> tuple[Chart, int]:
    """The 13-wolf no_reveal chart (seeds 0-39) on which the fast engine is slowest."""
    best: tuple[float, Chart, int] | None = None
    policy = FarmerPolicy(p_pass=0.95, p_berserk=0)
    for seed in range(40):
        rng = random.Random(seed)
        state = GameState.new(MuttonOptions(num_wolves=13, reveal=False))
        top = None
        while not state.over:
            state = state.play(random_move(state, rng, policy))
            if not state.over and (top is None or len(state.kills) >= len(top.kills)):
                top = state
        if top is None or len(top.kills) < 20:
            continue
        chart = farmer_chart(top)
        problem = problem_from_chart(chart, 13)
        t = min(median_time(lambda p=problem: solve(p), 1, warmup=True) for _ in range(2))
        if best is None or t > best[0]:
            best = (t, chart, seed)
    assert best is not None, "no 13-wolf game reached 20 kills"
    return best[1], best[2]


def six_wolf_chart() -> Chart:
    """Seed 48, 7 moves of a 6-wolf game: about 50,000 consistent sets."""
    rng = random.Random(48)
    state = GameState.new(MuttonOptions(num_wolves=6))
    policy = FarmerPolicy(p_pass=0.8, p_berserk=0)
    for _ in range(7):
        state = state.play(random_move(state, rng, policy))
    return farmer_chart(state)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs (smoke test)")
    ap.add_argument("--runs", type=int, default=7, help="runs of the fast cases (median)")
    ap.add_argument("--slow-runs", type=int, default=3,
                    help="runs of the csp and smt engines on the 6-wolf chart (median)")
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    slow_runs = 1 if args.quick else args.slow_runs
    rows: list[tuple[str, str, float, int, str]] = []

    # 1. The help page through the CLI.
    cmd = fleece_command()
    helppage = str(ROOT / "examples" / "mutton" / "helppage.txt")

    def run_cli(*extra: str) -> None:
        subprocess.run([*cmd, *extra], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=ROOT)

    t_help = median_time(lambda: run_cli("mutton", "solve", helppage), runs, warmup=True)
    t_floor = median_time(lambda: run_cli("--help"), runs, warmup=True)
    rows.append(("help page, `fleece mutton solve` (wall, subprocess)", "fast", t_help, runs,
                 f"target < 0.5 s; `fleece --help` alone: {t_floor:.3f} s"))

    # 2. The heaviest chart.
    heavy, seed = heaviest_chart()
    hp: Problem = problem_from_chart(heavy, 13)
    sol = solve(hp)
    t_heavy = median_time(lambda: solve(hp), runs, warmup=True)
    rows.append((f"heaviest: 26 animals, 13 wolves, no_reveal, {len(heavy.rows)} kills "
                 f"(seed {seed})", "fast", t_heavy, runs,
                 f"{sol.count} sets, every probability; target < 0.1 s"))

    # 3. Six wolves, about 50,000 sets: fast vs csp vs smt.
    six = six_wolf_chart()
    sp = problem_from_chart(six, 6)
    counts = {}
    times = {}
    for engine, n in (("fast", runs), ("csp", slow_runs), ("smt", slow_runs)):
        s = solve(sp, engine)
        counts[engine] = (s.count, s.wolf_counts)
        times[engine] = median_time(lambda e=engine: solve(sp, e), n, warmup=True) if n > 1 else \
            _once(lambda e=engine: solve(sp, e))
        rows.append((f"6 wolves, {s.count} consistent sets", engine, times[engine], n,
                     "" if engine == "fast" else
                     f"{times[engine] / times['fast']:,.0f}x the fast engine"))
    agree = counts["fast"] == counts["csp"] == counts["smt"]

    print("| case | engine | median time | runs | notes |")
    print("|---|---|---|---|---|")
    for case, engine, t, n, note in rows:
        shown = f"{t * 1000:.2f} ms" if t < 1 else f"{t:.2f} s"
        print(f"| {case} | {engine} | {shown} | {n} | {note} |")
    ratio = min(times["csp"], times["smt"]) / times["fast"]
    checks = [
        ("help page through the CLI under 0.5 s", t_help < 0.5),
        ("heaviest chart under 0.1 s (fast)", t_heavy < 0.1),
        ("fast >= 100x csp and smt on the 6-wolf chart", ratio >= 100),
        ("the three engines agree on the 6-wolf chart", agree),
    ]
    print()
    for what, ok in checks:
        print(f"{'ok  ' if ok else 'MISS'} {what}")
    print(f"\nPython {sys.version.split()[0]}; heaviest chart:\n{render_chart(heavy)}\n")
    print(f"6-wolf chart:\n{render_paste(six)}")
    return 0 if all(ok for _, ok in checks) else 1


def _once(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    sys.exit(main())
