"""The speed targets, measured in one run: CLI start-up, the Mutton fast engine on the
hard synthetic charts, and Woof!! on heavy evidence.

    python benchmarks/bench_speed.py            # full: medians of 9 runs
    python benchmarks/bench_speed.py --quick    # 3 runs, no plain-Python brute force over
                                                # more than 10^6 sets (smoke test)
    python benchmarks/bench_speed.py --only startup --only woof

1. Start-up: wall time and the child's CPU time (os.wait4) of `fleece --help` and `fleece
   mutton solve examples/mutton/helppage.txt` against a minimal one-command Typer app
   (benchmarks/minimal_typer.py: its --help, and one call reading the same file), medians
   of interleaved runs (a load change hits every command alike); `python -c pass` for
   scale. Targets: --help within 1.3x of the minimal app's --help, the help page's solve
   within 1.6x of its call. Byte code is compiled first (python -m compileall; the
   __pycache__ folders are git-ignored), as an installed package has it.
2. Mutton: the help page and hard synthetic charts (26 animals, 12-20 overlapping no-reveal
   rounds of 6 runners, 4 to 13 wolves): the fast engine's `solve` (count and every animal's
   count) against a numpy bit-mask brute force and a plain-Python brute force over
   itertools.combinations (same numbers, asserted), and `analyse` (what the CLI prints) for
   the 30 ms target; the csp and smt engines on the help page. Targets: `analyse` under
   30 ms on every chart; `solve` ahead of both brute forces on every chart, by >= 10x where
   C(n, k) > 10^6.
3. Woof!!: `solve` (with marginals and wolf sets) and `analyse(...).to_json()` (adds the
   contradiction core or the suggestion, as the CLI) on 8 seats: no evidence, undealt cards
   (`deck basic*2`, `deck basic expert`) with and without lines, looks by every seat with no
   hand known, and 1,000 and 10,000 look lines (the fuzz run's heavy class), then `fleece
   woof solve` of the slowest file through the CLI. Targets: solve under 0.5 s; a
   contradiction in ~1,000 lines under 2 s, in 10,000 under 20 s; the CLI under 1 s.

In-process figures are CPU time (time.process_time, medians): the machine is shared (2 cores,
other engineers' test runs), and waiting for a core is not the code's cost; start-up ratios
are given both as wall and CPU time. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from timing import median_time

from fleece.rules.mutton.chart import Chart, ChartRow, Status
from fleece.rules.mutton.options import ALPHABET

ROOT = Path(__file__).resolve().parent.parent

CHECKS: list[tuple[str, bool]] = []


def median_cpu(fn: Any, runs: int, *, warmup: bool = False) -> float:
    """Median CPU time of this process (time.process_time) over `runs` calls of `fn`: on a
    shared machine it leaves out the time spent waiting for a core."""
    return median_time(fn, runs, warmup=warmup, clock=time.process_time)


def check(what: str, ok: bool) -> None:
    """Record a target and whether it holds."""
    CHECKS.append((what, ok))


def load() -> str:
    """The load averages, as `uptime` prints them."""
    a, b, c = os.getloadavg()
    return f"load average {a:.2f}, {b:.2f}, {c:.2f} ({os.cpu_count()} CPUs)"


# ---- 1. start-up ---------------------------------------------------------------------------------


def fleece_script() -> str:
    """The installed `fleece` console script next to this Python."""
    script = Path(sys.executable).with_name("fleece")
    return str(script) if script.exists() else "fleece"


def run_child(cmd: Sequence[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of `cmd`."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime


def interleaved(cmds: dict[str, list[str]], runs: int
                ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU times of `runs` rounds, each running every command once in turn, so a
    change of the machine's load falls on all of them alike."""
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    cpus: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            w, c = run_child(cmd)
            walls[name].append(w)
            cpus[name].append(c)
    return walls, cpus


def startup(runs: int) -> None:
    """Medians of interleaved runs of the interpreter alone, a minimal Typer app, --help and
    the help page's solve; each fleece command against the minimal app's counterpart."""
    env_flag = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-x",
                    r"(^|/)(\.|build|dist|web/static)", str(ROOT)],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if env_flag is not None:
        os.environ["PYTHONDONTWRITEBYTECODE"] = env_flag
    fleece = fleece_script()
    minimal = [sys.executable, str(ROOT / "benchmarks" / "minimal_typer.py")]
    chart = "examples/mutton/helppage.txt"
    cmds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "minimal Typer app --help": [*minimal, "--help"],
        "minimal Typer app FILE": [*minimal, chart],
        "fleece --help": [fleece, "--help"],
        f"fleece mutton solve {chart}": [fleece, "mutton", "solve", chart],
    }
    for cmd in cmds.values():  # warm the file cache
        run_child(cmd)
    walls, cpus = interleaved(cmds, runs)
    floor = statistics.median(walls["python -c pass"])
    print(f"\n## Start-up (median of {runs} interleaved runs)\n")
    print("| command | wall | CPU | against | wall ratio | CPU ratio | target |")
    print("|---|---|---|---|---|---|---|")
    against = {"fleece --help": ("minimal Typer app --help", 1.3),
               f"fleece mutton solve {chart}": ("minimal Typer app FILE", 1.6)}
    for name in cmds:
        w = statistics.median(walls[name])
        c = statistics.median(cpus[name])
        if name not in against:
            print(f"| `{name}` | {w * 1000:.0f} ms | {c * 1000:.0f} ms | `python -c pass` | "
                  f"{w / floor:.2f}x | | |")
            continue
        base, target = against[name]
        bw, bc = statistics.median(walls[base]), statistics.median(cpus[base])
        print(f"| `{name}` | {w * 1000:.0f} ms | {c * 1000:.0f} ms | {base} | {w / bw:.2f}x | "
              f"{c / bc:.2f}x | <= {target}x |")
        check(f"`{name}` within {target}x of the {base} (wall)", w / bw <= target)
        check(f"`{name}` within {target}x of the {base} (CPU)", c / bc <= target)


# ---- 2. Mutton -----------------------------------------------------------------------------------


def hard_chart(wolves: int, rounds: int, seed: int, animals: int = 26) -> Chart:
    """A no-reveal chart played forward from a hidden set of `wolves` wolves: each round a
    living killer wolf eats another living animal (a sheep, or a wolf while two are left, M25)
    with six living runners (fewer at the end), the killer among them; every death
    unrevealed."""
    rng = random.Random(seed)
    names = ALPHABET[:animals]
    truth = set(rng.sample(names, wolves))
    alive = list(names)
    rows = []
    for rnd in range(1, rounds + 1):
        living_wolves = [a for a in alive if a in truth]
        victims = [a for a in alive if not (a in truth and len(living_wolves) < 3)]
        if len(alive) < 4 or not victims:
            break
        victim = rng.choice(victims)
        killer = rng.choice([a for a in living_wolves if a != victim])
        others = [a for a in alive if a not in (victim, killer)]
        runners = [killer, *rng.sample(others, min(5, len(others)))]
        rows.append(ChartRow(rnd, victim, frozenset(runners)))
        alive.remove(victim)
    status = tuple(Status.ALIVE if a in alive else Status.DEAD for a in names)
    return Chart(names, status, tuple(rows), reveal=False)


#: (wolves, rounds, seed) of the hard synthetic charts: 26 animals, no reveal.
HARD = [(4, 20, 1), (6, 18, 2), (8, 16, 3), (10, 18, 4), (12, 20, 5), (13, 14, 6),
        (13, 18, 7), (13, 23, 8)]


def _masks(animals: str, facts: Sequence[Any]) -> list[tuple[str, int, int, int, Any]]:
    """Each fact as (kind, bit mask, lo, hi, words as masks)."""
    from fleece.solver.mutton import Kind

    bit = {a: 1 << i for i, a in enumerate(animals)}
    out = []
    for f in facts:
        m = sum(bit[a] for a in f.animals)
        words = None
        if f.kind is Kind.WORDS:
            words = {sum(bit[a] for a in w) for w in f.words}
        out.append((f.kind.name, m, f.lo, f.hi, words))
    return out


def python_brute(animals: str, facts: Sequence[Any], k: int) -> tuple[int, list[int]]:
    """Plain Python: every k-set of bit masks (itertools.combinations), each fact checked by
    mask and popcount; the count and every animal's count."""
    fm = _masks(animals, facts)
    rows = [m for kind, m, _, _, _ in fm if kind == "AT_LEAST_ONE"]
    need = sum(m for kind, m, _, _, _ in fm if kind == "WOLF")
    ban = sum(m for kind, m, _, _, _ in fm if kind == "SHEEP")
    counts = [(m, lo, hi) for kind, m, lo, hi, _ in fm if kind == "COUNT"]
    words = [w for kind, _, _, _, w in fm if kind == "WORDS"]
    per = [0] * len(animals)
    count = 0
    for combo in combinations([1 << i for i in range(len(animals))], k):
        m = sum(combo)
        if (m & need != need or m & ban or not all(m & r for r in rows)
                or not all(lo <= (m & c).bit_count() <= hi for c, lo, hi in counts)
                or not all(m in w for w in words)):
            continue
        count += 1
        for i in range(len(animals)):
            per[i] += m >> i & 1
    return count, per


def numpy_brute(animals: str, facts: Sequence[Any], k: int) -> tuple[int, list[int]]:
    """numpy bit masks: every k-set as one int64 (built by the Pascal recursion), each fact a
    vectorised popcount test; the count and every animal's count."""
    import numpy as np

    n = len(animals)
    # sets[j][i]: masks of the i-subsets of the first j animals
    prev = [np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * k
    for j in range(n):
        cur = [prev[0]]
        for i in range(1, k + 1):
            cur.append(np.concatenate([prev[i], prev[i - 1] | np.int64(1 << j)]))
        prev = cur
    sets = prev[k]
    ok = np.ones(len(sets), dtype=bool)
    for kind, m, lo, hi, words in _masks(animals, facts):
        x = sets & np.int64(m)
        if kind == "WOLF":
            ok &= x != 0
        elif kind == "SHEEP":
            ok &= x == 0
        elif kind == "AT_LEAST_ONE":
            ok &= x != 0
        elif kind == "COUNT":
            c = np.bitwise_count(x)
            ok &= (c >= lo) & (c <= hi)
        else:
            ok &= np.isin(sets, np.array(sorted(words), dtype=np.int64))
    good = sets[ok]
    per = [int(np.count_nonzero(good & np.int64(1 << i))) for i in range(n)]
    return len(good), per


def mutton(runs: int, quick: bool) -> None:
    """The fast engine against brute force on the help page and the hard charts."""
    from fleece.solver.mutton import analyse, problem_from_chart, problem_from_text, solve

    help_problem = problem_from_text((ROOT / "examples/mutton/helppage.txt").read_text(), 4)
    cases: list[tuple[str, Any]] = [("help page (4 wolves)", help_problem)]
    for wolves, rounds, seed in HARD:
        chart = hard_chart(wolves, rounds, seed)
        cases.append((f"26 animals, {wolves} wolves, {len(chart.rows)} rounds (seed {seed})",
                      problem_from_chart(chart, wolves)))
    print(f"\n## Mutton: CPU time, medians (fast: {runs} runs; brute forces: 1-3)\n")
    print("`solve` is the fast engine's count and every animal's count (what the brute forces "
          "compute); `analyse` adds the facts' reasons and the advice (what `fleece mutton "
          "solve` prints).\n")
    print("| chart (no reveal, 6 runners a round) | C(n,k) | sets | fast `solve` | fast "
          "`analyse` | numpy brute force | Python brute force | numpy / fast | "
          "Python / fast |")
    print("|---|---|---|---|---|---|---|---|---|")
    for title, problem in cases:
        result = analyse(problem, "fast")
        sol = result.solution
        animals, k, facts = problem.animals, problem.num_wolves, problem.facts
        space = comb(len(animals), k)
        t_fast = median_cpu(lambda p=problem: solve(p, "fast"), runs, warmup=True)
        t_all = median_cpu(lambda p=problem: analyse(p, "fast"), runs, warmup=True)
        brute_runs = 1 if space > 1e6 else 3
        got_np = numpy_brute(animals, facts, k)
        t_np = median_cpu(lambda a=animals, f=facts, n=k: numpy_brute(a, f, n), brute_runs)
        want = (sol.count, [sol.wolf_counts.get(a, 0) for a in animals])
        assert got_np == want, (title, got_np, want)
        if quick and space > 1e6:
            t_py = float("nan")
        else:
            t0 = time.process_time()
            got_py = python_brute(animals, facts, k)
            t_py = time.process_time() - t0
            assert got_py == want, (title, got_py, want)
        print(f"| {title} | {space:,} | {sol.count:,} | {t_fast * 1000:.2f} ms | "
              f"{t_all * 1000:.2f} ms | {t_np * 1000:.1f} ms | {t_py * 1000:,.0f} ms | "
              f"{t_np / t_fast:,.1f}x | {t_py / t_fast:,.0f}x |")
        check(f"Mutton fast `analyse` under 30 ms: {title}", t_all < 0.030)
        need = 10 if space > 1e6 else 1
        py_ok = t_py != t_py or t_py / t_fast >= need  # nan: not run (--quick)
        check(f"Mutton fast `solve` >= {need}x numpy and Python brute force: {title}",
              t_np / t_fast >= need and py_ok)
    t_fast = median_cpu(lambda: analyse(help_problem, "fast"), runs)
    for engine in ("csp", "smt"):
        analyse(help_problem, engine)
        t = median_cpu(lambda e=engine: analyse(help_problem, e), 3)
        print(f"\nhelp page, {engine} engine: {t * 1000:.1f} ms = {t / t_fast:,.0f}x the fast "
              f"engine ({t_fast * 1000:.2f} ms)")


# ---- 3. Woof!! -----------------------------------------------------------------------------------


def woof_cases() -> list[tuple[str, str]]:
    """Heavy valid 8-seat evidence files (fixed seeds)."""
    base = (ROOT / "examples/woof/basic8.txt").read_text().splitlines()
    lines = [ln for ln in base if ln and not ln.startswith("#")]
    facts = [ln for ln in lines if ln.split()[0] in ("hand", "look", "saw", "ask", "me")]
    cases = [
        ("no evidence, basic deck", "seats 8\n"),
        ("no evidence, deck basic*2 (16 undealt)", "seats 8\ndeck basic*2\n"),
        ("no evidence, deck basic expert (4 undealt)", "seats 8\ndeck basic expert\n"),
        ("basic8.txt's lines, deck basic*2", "seats 8\ndeck basic*2\n" + "\n".join(facts)),
        ("basic8.txt's lines, deck basic expert",
         "seats 8\ndeck basic expert\n" + "\n".join(facts)),
        ("basic8.txt as it is", "\n".join(lines)),
    ]
    rng = random.Random(1)
    for deck in ("basic*2", "basic expert"):
        cards = _deck_cards(deck)
        rng.shuffle(cards)
        hands = {s: (cards[2 * s - 2], cards[2 * s - 1]) for s in range(1, 9)}
        looks = []
        for v in [*range(1, 9)] * 2:
            t = rng.choice([s for s in range(1, 9) if s != v])
            looks.append(f"look {v} {t} {_seen(rng.choice(hands[t]), hands[v])}")
        cases.append((f"16 true looks, two by every seat, no hand known, deck {deck}",
                      f"seats 8\ndeck {deck}\n" + "\n".join(looks)))
    for n in (1000, 10000):
        many = []
        for _ in range(n):
            v, t = rng.sample(range(1, 9), 2)
            many.append(f"look {v} {t} {rng.choice(['wolf', 'sheep', 'dog', 'hunter', '?'])}")
        cases.append((f"{n:,} random look lines (a contradiction)", "\n".join(lines + many)))
    return [(title, text + "\n") for title, text in cases]


def _deck_cards(spec: str) -> list[Any]:
    """The cards of a `deck` line."""
    from fleece.rules.woof.evidence import parse_evidence

    return list(parse_evidence(f"seats 8\ndeck {spec}\n").deck)


def _seen(card: Any, viewer_hand: Any) -> str:
    """What a viewer with this hand announces on seeing `card` (W4), as a look line word."""
    from fleece.rules.woof.cards import announcement, character_of, make_hand

    said = announcement(card, character_of(make_hand(*viewer_hand)))
    return "?" if said is None else str(said.value)


def woof(runs: int) -> None:
    """`analyse` on the heavy cases, and the heaviest through the CLI."""
    from fleece.rules.woof.evidence import parse_evidence
    from fleece.solver.woof import analysis

    print(f"\n## Woof!! (CPU time, median of {runs} runs)\n")
    print("| evidence | lines | consistent | solve (fast.solve + marginals, wolf sets) | "
          "analyse + to_json (+ core or suggestion, as the CLI) |")
    print("|---|---|---|---|---|")
    slowest: tuple[float, str] = (0.0, "")
    for title, text in woof_cases():
        ev = parse_evidence(text)

        def solve_only(e: object = ev) -> None:
            post = analysis.solve(e)  # type: ignore[arg-type]
            if post.consistent:
                post.marginals()
                post.wolf_sets()

        t_solve = median_cpu(solve_only, runs, warmup=True)
        t_all = median_cpu(lambda e=ev: analysis.analyse(e).to_json(), runs)
        a = analysis.analyse(ev)
        print(f"| {title} | {len(ev.facts):,} | {a.consistent} | {t_solve * 1000:.0f} ms | "
              f"{t_all * 1000:.0f} ms |")
        limit = 0.5
        if not a.consistent:
            limit = 2.0 if len(ev.facts) < 2000 else 20.0
        check(f"Woof solve under 0.5 s: {title}", t_solve < 0.5)
        check(f"Woof analyse under {limit} s: {title}", t_all < limit)
        if t_all > slowest[0]:
            slowest = (t_all, text)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(slowest[1])
    try:
        cases = {"python -c pass": [sys.executable, "-c", "pass"],
                 "fleece woof solve (heaviest file)": [fleece_script(), "woof", "solve",
                                                       fh.name]}
        walls, cpus = interleaved(cases, runs)
        name = "fleece woof solve (heaviest file)"
        t_cli, c_cli = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"\n`fleece woof solve` on the slowest file: {t_cli * 1000:.0f} ms wall, "
              f"{c_cli * 1000:.0f} ms CPU (`python -c pass`: "
              f"{statistics.median(walls['python -c pass']) * 1000:.0f} ms wall, "
              f"{statistics.median(cpus['python -c pass']) * 1000:.0f} ms CPU)")
        check("`fleece woof solve` of the heaviest file under 1 s (wall)", t_cli < 1.0)
        check("`fleece woof solve` of the heaviest file under 1 s (CPU)", c_cli < 1.0)
    finally:
        os.unlink(fh.name)


def main() -> int:
    """Run every part and print the table of targets."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs (smoke test)")
    ap.add_argument("--runs", type=int, default=9, help="runs of each timed case")
    ap.add_argument("--only", choices=("startup", "mutton", "woof"), action="append",
                    help="run only these parts")
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    parts = args.only or ["startup", "mutton", "woof"]
    print(f"# bench_speed: Python {sys.version.split()[0]}; before: {load()}")
    started = time.perf_counter()
    if "startup" in parts:
        startup(runs)
    if "mutton" in parts:
        mutton(runs, args.quick)
    if "woof" in parts:
        woof(runs)
    print(f"\n## Targets ({time.perf_counter() - started:.0f} s; after: {load()})\n")
    for what, ok in CHECKS:
        print(f"{'ok  ' if ok else 'MISS'} {what}")
    return 0 if all(ok for _, ok in CHECKS) else 1


if __name__ == "__main__":
    sys.exit(main())
