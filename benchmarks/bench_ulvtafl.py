"""Benchmark of the Ulvtafl solver, and the attempt on the four start positions.

Speed (median of --runs runs after a warm-up; one core):
  * perft(7) from the 20-sheep start (target: under 10 s);
  * retrograde analysis: positions per second on a fixed 1.86-million-position endgame
    (target: at least 300,000);
  * proof-number search: nodes expanded per second from the 13-sheep start (target: at
    least 100,000).
Start positions: `solve` on each setup (13, 15, 17 sheep against one wolf; 20 against two)
with a stated budget of --seconds per setup and a table of 2**--table-bits entries per
search; prints value, nodes, nodes/s, time, proof size, principal line, or how far each
search got, and with --report PATH writes them as JSON and markdown.

    python benchmarks/bench_ulvtafl.py [--runs N] [--seconds S] [--table-bits B]
        [--setups 13,15,17,20] [--skip-speed] [--report reports/ulvtafl-start]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from timing import median_time

from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import Options, initial_state
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl import perft, solve
from fleece.solver.ulvtafl.search import (
    ProofSearch,
    certificate_line,
    check_certificate,
    retro_solve,
)

RETRO_POSITION = ".S./.SS/.S.SSSW/.S..SS./......./.../... s"  # sheep win in 37 plies


def speed(runs: int) -> dict[str, float]:
    """The three speed figures."""
    start20 = initial_state(Options(setup=20))
    t_perft = median_time(lambda: perft(start20, 7), runs, warmup=True)
    endgame = parse_position(RETRO_POSITION)
    size = retro_solve(endgame, 4_000_000)
    assert size is not None and size.value(endgame) == ("sheep", 37)
    t_retro = median_time(lambda: retro_solve(endgame, 4_000_000), runs, warmup=True)
    start13 = initial_state(Options(setup=13))
    nodes = 2_000_000

    def pns() -> None:
        ProofSearch(start13, 1, 22).run(nodes)

    t_pns = median_time(pns, runs, warmup=True)
    return {"perft7_seconds": t_perft, "perft7": perft(start20, 7),
            "retro_positions": size.size, "retro_seconds": t_retro,
            "retro_positions_per_second": size.size / t_retro,
            "pns_nodes": nodes, "pns_seconds": t_pns, "pns_nodes_per_second": nodes / t_pns}


def attempt(setup: int, seconds: float, table_bits: int,
            sheep_only: bool = False) -> dict[str, object]:
    """solve() on a setup's start position within the budget (with `sheep_only`, the whole
    budget goes to the search for a sheep win)."""
    state = initial_state(Options(setup=setup))
    t0 = time.perf_counter()
    searches = ("sheep",) if sheep_only else ("forward", "mover", "other")
    result = solve(state, timeout=seconds, retro_limit=0, table_bits=table_bits,
                   searches=searches)
    data = result.to_json()
    data["certificate"] = result.certificate
    if result.certificate is not None:  # re-checked with the reference model alone
        data["certificate_checked_positions"] = check_certificate(state, result.value,
                                                                  result.certificate)
    data["setup"] = setup
    data["budget_seconds"] = seconds
    data["table_entries"] = 1 << table_bits
    data["nodes_per_second"] = round(result.nodes / max(time.perf_counter() - t0, 1e-9))
    data["searches_run"] = list(searches)
    return data


def markdown(spd: dict[str, float] | None, rows: list[dict[str, object]],
             args: argparse.Namespace) -> str:
    """The report as markdown."""
    out = ["# Ulvtafl start positions: what the solver proved", "",
           f"Command: `python benchmarks/bench_ulvtafl.py --seconds 720 --table-bits 25 "
           f"--setups 17,13,15,20`, then the rows named below, one core "
           f"({platform.processor() or platform.machine()}, Python "
           f"{platform.python_version()})"
           + (". The speed figures come from a later run on a quiet machine (`--setups-from`"
              " with the JSON of the start-position run)." if args.setups_from else ".")
           + " The second core was busy with other work during the start-position run.",
           "",
           "Values are exact under RULES.md U7 (a side wins when it can force a won end; "
           "otherwise a draw). 'unknown' means the budget ran out: no value is claimed.", ""]
    if spd:
        out += ["## Speed", "",
                "| figure | measured | target |", "|---|---|---|",
                f"| perft(7) from the 20-sheep start ({spd['perft7']:,} sequences) | "
                f"{spd['perft7_seconds']:.2f} s | under 10 s |",
                f"| retrograde analysis ({spd['retro_positions']:,} positions) | "
                f"{spd['retro_positions_per_second']:,.0f} positions/s | 300,000 |",
                f"| proof-number search, 13-sheep start | "
                f"{spd['pns_nodes_per_second']:,.0f} nodes/s | 100,000 |", ""]
    out += ["## Start positions", "",
            "| setup | value | nodes | nodes/s | time | proof size | searches |",
            "|---|---|---|---|---|---|---|"]
    for r in rows:
        searches = r["searches"]
        assert isinstance(searches, dict)
        out.append(f"| {r['setup']} sheep | {r['value']} | {r['nodes']:,} | "
                   f"{r['nodes_per_second']:,} | {r['seconds']} s | "
                   f"{r['proof_size'] if r['proof_size'] is not None else '-'} | "
                   + ", ".join(f"{k}: {v}" for k, v in searches.items()) + " |")
    out.append("")
    for r in rows:
        out.append(f"### {r['setup']} sheep: {r['value']}")
        out.append("")
        out.append(f"Position `{r['position']}`; budget {r['budget_seconds']:g} s, "
                   f"{r['table_entries']:,} table entries per search; searches run: "
                   f"{', '.join(r.get('searches_run', ['forward', 'mover', 'other']))}.")
        frontier = r["frontier"]
        assert isinstance(frontier, dict)
        for name, f in frontier.items():
            out.append(f"- search `{name}`: {f['outcome']} after {f['nodes']:,} nodes; root "
                       f"proof number {f['proof_number']}, disproof number "
                       f"{f['disproof_number']}, deepest ply {f['deepest_ply']}")
        line = r["principal_line"]
        if line:
            assert isinstance(line, list)
            out.append(f"- principal line: {' '.join(line)}")
        if r["best_move"]:
            out.append(f"- best move: {r['best_move']}")
        if r.get("certificate"):
            cert = r["certificate"]
            assert isinstance(cert, dict)
            plies, longest = certificate_line(initial_state(Options(setup=int(str(r["setup"])))),
                                              str(r["value"]), cert)
            out.append(f"- the sheep win within {plies} plies against any defence (their "
                       f"certificate strategy; the wolves' longest defence: "
                       f"{' '.join(longest)})")
            out.append(f"- certificate: the sheep's move in each of their "
                       f"{len(r['certificate']):,} positions of the proof (in the JSON "
                       "report); re-checked with the reference model alone: "
                       f"{r['certificate_checked_positions']:,} positions, every line "
                       "ends in a win and none repeats a position")
        out.append("")
    return "\n".join(out)


def main() -> None:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=300.0, help="budget per setup")
    ap.add_argument("--table-bits", type=int, default=24)
    ap.add_argument("--setups", default="13,15,17,20")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--sheep-only", action="store_true",
                    help="give the whole budget to the search for a sheep win")
    ap.add_argument("--report", help="write PATH.json and PATH.md")
    ap.add_argument("--setups-from", metavar="JSON",
                    help="take the start-position rows from an earlier run's JSON report "
                         "(e.g. to re-measure speed on a quiet machine); the report says so")
    ap.add_argument("--rerun", action="store_true",
                    help="with --setups-from: run --setups again (with --seconds) and keep "
                         "the other rows")
    args = ap.parse_args()
    spd = None
    if not args.skip_speed:
        spd = speed(args.runs)
        print(f"perft(7) from the 20-sheep start: {spd['perft7']:,} in "
              f"{spd['perft7_seconds']:.2f} s (target < 10 s)")
        print(f"retrograde: {spd['retro_positions']:,} positions in "
              f"{spd['retro_seconds']:.2f} s = {spd['retro_positions_per_second']:,.0f} "
              "positions/s (target >= 300,000)")
        print(f"proof-number search: {spd['pns_nodes']:,} nodes in {spd['pns_seconds']:.2f} s"
              f" = {spd['pns_nodes_per_second']:,.0f} nodes/s (target >= 100,000)")
    rows = []
    if args.setups_from:
        earlier = json.loads(Path(args.setups_from).read_text(encoding="utf-8"))
        rerun = {int(x) for x in args.setups.split(",") if x} if args.rerun else set()
        rows = [r for r in earlier["setups"] if r["setup"] not in rerun]
    todo = [int(x) for x in args.setups.split(",") if x and (not args.setups_from
                                                            or args.rerun)]
    for setup in todo:
        row = attempt(setup, args.seconds, args.table_bits, args.sheep_only)
        rows.append(row)
        row_text = {k: v for k, v in row.items() if k != "certificate"}
        print(json.dumps(row_text), file=sys.stderr, flush=True)
        print(f"{setup} sheep: {row['value']} after {row['nodes']:,} nodes in "
              f"{row['seconds']} s ({row['nodes_per_second']:,} nodes/s); "
              f"searches {row['searches']}", flush=True)
    if args.report:
        base = Path(args.report)
        atomic_write(base.with_suffix(".json"),
                     json.dumps({"speed": spd, "setups": rows}, indent=2) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), markdown(spd, rows, args) + "\n",
                     overwrite=True)
        print(f"report: {base.with_suffix('.md')} (+ .json)")


if __name__ == "__main__":
    main()
