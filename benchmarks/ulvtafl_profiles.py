"""What the proof search's initial numbers (solver/ulvtafl/prover.py PROFILES) cost in
nodes: each profile on the horizon game's sheep-to-move positions (the game of
reports/ulvtafl-horizon.json), with the sheep focused (radius 2) and with the sheep on
safe moves alone, on the positions after each wolf reply at the game's ply 32 (focused:
the wall the horizon report found), and on the one-wolf starts (unrestricted), with the
ratio of "mobility"'s nodes to "steps"'s. Node counts do not depend on the machine (one run each);
two searches run at a time.

    python benchmarks/ulvtafl_profiles.py --report reports/ulvtafl-profiles

Every proof's certificate is re-checked by the reference rules before its row says
"proved".
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import SHEEP, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_position, position_text
from fleece.solver.ulvtafl.certificate import bare, settle
from fleece.solver.ulvtafl.prover import PROFILES, Prover

SEARCHES = {"focused": (True, 2), "safe-only": (True, 0), "unrestricted": (False, 0)}


def search(state: UlvState, kind: str, profile: str, nodes: int, memory: str) -> dict[str, Any]:
    """One sheep-win search: outcome (a proof only with a re-checked certificate), nodes."""
    safe, focus = SEARCHES[kind]
    prover = Prover(state, SHEEP, memory=memory, profile=profile, safe_only=safe, focus=focus)
    t0 = time.perf_counter()
    outcome = prover.run(nodes=nodes)
    row: dict[str, Any] = {"outcome": outcome, "nodes": prover.nodes,
                           "seconds": round(time.perf_counter() - t0, 1)}
    cert = prover.certificate() if outcome == "proved" else None
    row["outcome"], size = settle(outcome, bare(state), "sheep", cert)
    if size is not None:
        row["proof_size"] = size
    return row


def cases(game: list[dict[str, Any]], plies: list[int], setups: list[int],
          kinds: list[str], replies: list[int]) -> list[tuple[dict[str, Any], str]]:
    """The positions to search, each with its budget's name ("nodes", "reply_nodes",
    "start_nodes"): the game's plies (each search kind in `kinds`), the positions after
    each wolf move at the game's wolf-to-move plies `replies` (focused), and the one-wolf
    starts (unrestricted)."""
    by_ply = {r["ply"]: bare(parse_position(r["position"])) for r in game}
    out = []
    for ply in plies:
        if ply not in by_ply or by_ply[ply].to_move != SHEEP:
            raise SystemExit(f"ply {ply} is not a sheep-to-move position of the game")
        text = position_text(by_ply[ply])
        out += [({"case": f"horizon ply {ply}", "position": text, "search": k}, "nodes")
                for k in kinds]
    for ply in replies:
        if ply not in by_ply or by_ply[ply].to_move == SHEEP:
            raise SystemExit(f"ply {ply} is not a wolf-to-move position of the game")
        for move in by_ply[ply].legal_moves():
            out.append(({"case": f"ply {ply}, wolves {move.text()}",
                         "position": position_text(bare(by_ply[ply].play(move))),
                         "search": "focused"}, "reply_nodes"))
    for n in setups:
        start = initial_state(UlvtaflOptions(setup=n))
        out.append(({"case": f"{n}-sheep start", "position": position_text(start),
                     "search": "unrestricted"}, "start_nodes"))
    return out


def cell(row: dict[str, Any]) -> str:
    """A result as the table shows it."""
    if row["outcome"] == "proved":
        return f"{row['nodes']:,}"
    if row["outcome"] in ("max-nodes", "open"):
        return f"open after {row['nodes']:,}"
    return f"{row['outcome']} after {row['nodes']:,}"


def ratio(res: dict[str, dict[str, Any]]) -> str:
    """mobility's nodes over steps' nodes; a bound when only one of them proved."""
    if "mobility" not in res or "steps" not in res:
        return "-"
    mob, steps = res["mobility"], res["steps"]
    value = f"{mob['nodes'] / steps['nodes']:.2f}"
    proved = (mob["outcome"] == "proved", steps["outcome"] == "proved")
    return {(True, True): value, (False, True): "> " + value,
            (True, False): "< " + value}.get(proved, "-")


def render(data: dict[str, Any]) -> str:
    """The Markdown report from the JSON."""
    profiles = data["profiles"]
    lines = ["# Initial proof numbers: nodes to the sheep's proof by profile", "",
             f"Command: `{data['command']}`", "",
             f"Run {data['started']}, {data['seconds']:,} s. Each search looks at most "
             f"{data['nodes']:,} nodes (after a wolf reply {data['reply_nodes']:,}, the "
             f"one-wolf starts {data['start_nodes']:,}) on a "
             f"table from {data['memory']} of memory; a figure is the nodes to a proof whose "
             "certificate the reference rules re-checked. Profiles (prover.PROFILES): "
             "mobility (1 to prove, the mover's moves to disprove), paddock (also the "
             "empty paddock points, the sheep lost and a capture threat), steps (also the "
             "sheep steps that would fill the empty paddock points, and a heavier weight on "
             "the points already filled). Searches: focused (safe moves, the sheep within "
             "2 king steps of a wolf but for a few tempo moves), safe-only (the sheep make "
             "only moves after which no wolf can capture), unrestricted.", "",
             "| position | search | " + " | ".join(profiles) + " | mobility / steps |",
             "|---|---|" + "---|" * (len(profiles) + 1)]
    for r in data["rows"]:
        res = r["results"]
        lines.append(f"| {r['case']} | {r['search']} | "
                     + " | ".join(cell(res[p]) for p in profiles) + f" | {ratio(res)} |")
    seen: set[str] = set()
    named = []
    for r in data["rows"]:
        if r["case"] not in seen:
            seen.add(r["case"])
            named.append(f"{r['case']} `{r['position']}`")
    lines += ["", "Positions (U8): " + "; ".join(named) + ".", ""]
    return "\n".join(lines)


def main() -> None:
    """Parse the options, run the searches two at a time, write the report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--horizon", default="reports/ulvtafl-horizon.json",
                    help="the horizon report whose game the positions come from")
    ap.add_argument("--plies", default="39,37,35,33", help="the game's sheep-to-move plies")
    ap.add_argument("--searches", default="focused,safe-only",
                    help="search kinds on the game's positions")
    ap.add_argument("--replies", default="32",
                    help="wolf-to-move plies of the game whose every reply is searched")
    ap.add_argument("--reply-nodes", type=int, default=100_000_000,
                    help="budget a search of a position after a wolf reply (--replies)")
    ap.add_argument("--setups", default="13,15,17", help="one-wolf starts (unrestricted)")
    ap.add_argument("--profiles", default=",".join(PROFILES))
    ap.add_argument("--nodes", type=int, default=200_000_000, help="budget a search")
    ap.add_argument("--start-nodes", type=int, default=100_000_000,
                    help="budget a search of a one-wolf start")
    ap.add_argument("--memory", default="4G", help="memory of each search")
    ap.add_argument("--workers", type=int, default=2, help="searches at a time")
    ap.add_argument("--report", help="write PATH.json and PATH.md (replacing them)")
    ap.add_argument("--render", action="store_true", help="only write PATH.md from PATH.json")
    args = ap.parse_args()
    if args.render:
        if not args.report:
            ap.error("--render needs --report PATH")
        data = json.loads(Path(args.report + ".json").read_text())
        atomic_write(Path(args.report + ".md"), render(data), overwrite=True)
        return
    profiles = [p for p in args.profiles.split(",") if p]
    for p in profiles:
        if p not in PROFILES:
            ap.error(f"'{p}' is not a profile ({', '.join(PROFILES)})")
    kinds = [k for k in args.searches.split(",") if k]
    for k in kinds:
        if k not in SEARCHES:
            ap.error(f"'{k}' is not a search ({', '.join(SEARCHES)})")
    game = json.loads(Path(args.horizon).read_text())["game"]
    plies = [int(x) for x in args.plies.split(",") if x]
    setups = [int(x) for x in args.setups.split(",") if x]
    replies = [int(x) for x in args.replies.split(",") if x]
    todo = cases(game, plies, setups, kinds, replies)
    rows = [r for r, _ in todo]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.perf_counter()
    jobs = [(r, p, int(getattr(args, budget))) for r, budget in todo for p in profiles]

    def one(job: tuple[dict[str, Any], str, int]) -> dict[str, Any]:
        r, p, budget = job
        return search(parse_position(r["position"]), r["search"], p, budget, args.memory)

    with ThreadPoolExecutor(args.workers) as pool:
        for (r, p, _), res in zip(jobs, pool.map(one, jobs), strict=True):
            r.setdefault("results", {})[p] = res
            print(f"{r['case']}, {r['search']}, {p}: {cell(res)} ({res['seconds']} s)",
                  file=sys.stderr, flush=True)
    data = {"command": "python " + shlex.join(["benchmarks/ulvtafl_profiles.py", *sys.argv[1:]]),
            "started": started, "seconds": round(time.perf_counter() - t0),
            "nodes": args.nodes, "reply_nodes": args.reply_nodes,
            "start_nodes": args.start_nodes, "memory": args.memory,
            "profiles": profiles, "rows": rows}
    text = render(data)
    if args.report:
        atomic_write(Path(args.report + ".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(Path(args.report + ".md"), text, overwrite=True)
    else:
        print(text)


if __name__ == "__main__":
    main()
