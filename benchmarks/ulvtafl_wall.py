"""The wall of the horizon game: every wolf reply at one of its wolf-to-move plies, each
searched for a sheep win (focused, `steps` profile) with the proofs already found beside the
report as seeds; once every reply is proved, one certificate of the position before the
wolves' move and of the sheep-to-move position before that (the game's sheep move), each
re-checked whole by the reference rules.

    python benchmarks/ulvtafl_wall.py --report reports/ulvtafl-ply32 --seconds 3600

The game is that of reports/ulvtafl-horizon.json; ply 32 is where its sweep stopped. Each
proved reply's certificate is written beside the report as PATH-MOVE.cert.json.gz. A run
keeps what an earlier one found: a reply whose certificate is already there is re-checked
(seeding re-checks it whole) and keeps its row; the others are searched, cheapest guess
first, two at a time, each seeded with every certificate there at its start. A search that
proves a reply without a certificate, or runs out of budget, leaves its row open.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from fractions import Fraction
from pathlib import Path
from typing import Any

from fleece.commands.base import terminate_as_interrupt
from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import SHEEP, UlvState
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    bare,
    check_certificate,
    read_certificates,
    settle,
    write_certificate,
)
from fleece.solver.ulvtafl.prover import DEFAULT_EPSILON, Prover

FOCUS = 2
PROFILE = "steps"
STEP = 20_000_000  # nodes a step of Prover.run (part of the search: the report's ran so)


def cert_path(base: Path, name: str) -> Path:
    """Where the certificate of a reply (its move, dash left out) or of a ply is kept."""
    return base.parent / f"{base.name}-{name.replace('-', '')}.cert.json.gz"


def search(state: UlvState, seeds: list[Path], nodes: int | None, seconds: float | None,
           memory: str, stop: threading.Event, epsilon: float = DEFAULT_EPSILON,
           name: str = "") -> tuple[dict[str, Any], dict[str, str] | None]:
    """One focused sheep-win search of a reply's position, seeded: its row and, when
    proved, its re-checked strategy. A progress line on standard error each minute."""
    prover = Prover(state, SHEEP, memory=memory, safe_only=True, focus=FOCUS,
                    profile=PROFILE, epsilon=epsilon)
    # each file re-checked once in the run however many searches it seeds
    seeded = prover.seed_files([str(p) for p in seeds])

    def show(info: dict[str, Any]) -> None:
        print(f"{name}: {info['nodes']:,} nodes, root pn {info['proof_number']} dn "
              f"{info['disproof_number']}, table {100 * info['table_fill']:.0f}% full, "
              f"{info['seconds']:,.0f} s", file=sys.stderr, flush=True)

    # a stop (Ctrl-C in the main thread) ends it within a step
    outcome = prover.run(nodes, seconds, progress=show, report_every=60, step=STEP,
                         stop=stop)
    strategy = prover.certificate() if outcome == "proved" else None
    row: dict[str, Any] = {"nodes": prover.nodes,
                           "seconds": round(prover.seconds, 1),
                           "seeds": [p.name for p in seeds], "seeded": seeded,
                           "epsilon": epsilon}
    row["outcome"], size = settle(outcome, bare(state), "sheep", strategy)
    if size is not None:
        row["proof_size"] = size
    else:  # where the search stands
        row["proof_number"], row["disproof_number"] = (int(x) for x in prover.root_numbers())
    return row, strategy if size is not None else None


def compose(root: UlvState, certs: list[Certificate], extra: dict[str, str]) -> dict[str, str]:
    """One sheep strategy from several (the first's move where they differ) and `extra`."""
    strategy = dict(extra)
    for cert in certs:
        for key, move in cert.strategy.items():
            strategy.setdefault(key, move)
    return strategy


def render(data: dict[str, Any]) -> str:
    """The report's markdown, from its JSON alone."""
    out = [f"# The wall at ply {data['ply']} of the horizon game", "",
           f"Command: `{data['command']}`", "",
           f"The position before the wolves' move: `{data['position']}` (ply {data['ply']} of "
           "the game of reports/ulvtafl-horizon.md). After each wolf reply, a search for a "
           f"sheep win with the sheep on safe moves within {FOCUS} king steps of a wolf "
           f"(`--safe-only --focus {FOCUS} --profile {PROFILE}`), seeded with the "
           "certificates already found (`--seed`); a reply counts as proved only with its "
           "certificate, re-checked by the reference rules and kept beside this report. "
           "Seconds count the search after its seeding (each seed file's proof is "
           "re-checked first, about 3 minutes for a million positions); \"earlier search\": "
           "the certificate was beside the report before the run, which re-checked it.", "",
           "| wolf reply | position | outcome | nodes | seconds | epsilon | seeds | proof size |",
           "|---|---|---|---|---|---|---|---|"]
    for r in data["replies"]:
        nodes = (f"{r['nodes']:,}" if "nodes" in r
                 else "earlier search" if r["outcome"] == "proved" else "")
        secs = f"{r['seconds']:,.0f}" if "seconds" in r else ""
        # rows searched before the option was recorded ran with the default
        eps = str(Fraction(r.get("epsilon", DEFAULT_EPSILON)).limit_denominator(64)) \
            if "nodes" in r else ""
        seeds = ", ".join(r.get("seeds", [])) or "none"
        size = f"{r['proof_size']:,}" if "proof_size" in r else ""
        outcome = "not searched by this report" if r["outcome"] == "waiting" else r["outcome"]
        if "proof_number" in r:
            outcome += f" (root pn {r['proof_number']}, dn {r['disproof_number']})"
        out.append(f"| {r['move']} | `{r['position']}` | {outcome} | {nodes} | {secs} | {eps} "
                   f"| {seeds if 'nodes' in r else ''} | {size} |")
    out.append("")
    proved = sum(r["outcome"] == "proved" for r in data["replies"])
    out.append(f"{proved} of {len(data['replies'])} replies proved.")
    for c in data.get("composed", []):
        out += ["", f"**Ply {c['ply']} proved**: `{c['position']}`, the sheep win. Certificate "
                f"`{c['certificate']}`: the sheep's move in {c['moves']:,} positions, "
                f"re-checked whole ({c['proof_size']:,} positions walked)."]
    return "\n".join(out) + "\n"


def main() -> None:
    """Parse the options, search the open replies two at a time, compose, write."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--horizon", default="reports/ulvtafl-horizon.json",
                    help="the horizon report whose game the wall is in")
    ap.add_argument("--ply", type=int, default=32, help="a wolf-to-move ply of the game")
    ap.add_argument("--nodes", type=int, help="budget a reply's search in nodes")
    ap.add_argument("--seconds", type=float, help="budget a reply's search in seconds")
    ap.add_argument("--memory", default="8G", help="memory of each search")
    ap.add_argument("--workers", type=int, default=2, help="searches at a time")
    ap.add_argument("--epsilon", type=float, default=DEFAULT_EPSILON,
                    help="df-pn's 1+epsilon (Prover)")
    ap.add_argument("--replies", help="search only these replies (comma-separated moves); "
                                      "the others keep their rows")
    ap.add_argument("--report", required=True, help="write PATH.json and PATH.md")
    ap.add_argument("--render", action="store_true", help="only write PATH.md from PATH.json")
    args = ap.parse_args()
    base = Path(args.report)
    if args.render and not base.with_suffix(".json").exists():
        ap.error(f"{base.with_suffix('.json')}: no report to render")
    if args.render:
        saved = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        atomic_write(base.with_suffix(".md"), render(saved), overwrite=True)
        return
    game = json.loads(Path(args.horizon).read_text(encoding="utf-8"))["game"]
    if not 0 < args.ply < len(game) or parse_position(game[args.ply]["position"]).to_move \
            == SHEEP:
        ap.error(f"ply {args.ply} is not a wolf-to-move position of the game after its "
                 "first move")
    state = bare(parse_position(game[args.ply]["position"]))
    old = {}
    if base.with_suffix(".json").exists():
        old = {r["move"]: r for r in
               json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))["replies"]}
    replies: list[dict[str, Any]] = []
    for move in state.legal_moves():
        after = bare(state.play(move))
        kept = old.get(move.text(), {})
        row = {"outcome": "waiting", **kept, "move": move.text(),
               "position": position_text(after)}
        if cert_path(base, move.text()).exists():
            row["outcome"] = "proved"
            row.setdefault("proof_size", check_certificate(
                after, "sheep", read_certificates(cert_path(base, move.text()))[0].strategy))
        replies.append(row)
    command = "python " + shlex.join(["benchmarks/ulvtafl_wall.py", *sys.argv[1:]])
    data: dict[str, Any] = {"command": command, "ply": args.ply,
                            "position": position_text(state), "replies": replies}

    def write() -> None:
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), render(data), overwrite=True)

    chosen = [m for m in (args.replies or "").split(",") if m]
    unknown = set(chosen) - {r["move"] for r in replies}
    if unknown:
        ap.error(f"not a wolf move at ply {args.ply}: {', '.join(sorted(unknown))}")
    todo = sorted((r for r in replies if r["outcome"] != "proved"
                   and (not chosen or r["move"] in chosen)),
                  key=lambda r: r.get("nodes", 0))  # the least tried first
    stop = threading.Event()
    running: dict[Future[tuple[dict[str, Any], dict[str, str] | None]], dict[str, Any]] = {}
    with ThreadPoolExecutor(args.workers) as pool:
        try:
            while todo or running:
                while todo and len(running) < args.workers:
                    r = todo.pop(0)
                    seeds = [cert_path(base, x["move"]) for x in replies
                             if cert_path(base, x["move"]).exists()]
                    print(f"{r['move']}: searching, {len(seeds)} seeds", file=sys.stderr,
                          flush=True)
                    running[pool.submit(search, parse_position(r["position"]), seeds,
                                        args.nodes, args.seconds, args.memory, stop,
                                        args.epsilon, r["move"])] = r
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for f in done:
                    r = running.pop(f)
                    row, strategy = f.result()
                    r.update(row)
                    if strategy is not None:
                        write_certificate(cert_path(base, r["move"]),
                                          Certificate(parse_position(r["position"]),
                                                      "sheep", strategy), overwrite=True)
                    print(f"{r['move']}: {r['outcome']} after {r['nodes']:,} nodes",
                          file=sys.stderr, flush=True)
                    write()
        except KeyboardInterrupt:
            stop.set()
            for f in list(running):
                row, _ = f.result()
                running.pop(f).update(row)
            write()
            raise
    if all(r["outcome"] == "proved" for r in replies):
        certs = [read_certificates(cert_path(base, r["move"]))[0] for r in replies]
        composed = []
        before = bare(parse_position(game[args.ply - 1]["position"]))
        move = game[args.ply - 1]["move"]
        for ply, root, extra in ((args.ply, state, {}),
                                 (args.ply - 1, before, {position_text(before): move})):
            if ply == args.ply - 1 and (before.to_move != SHEEP or
                                        bare(before.play(parse_move(move))).key != state.key):
                break
            strategy = compose(root, certs, extra)
            size = check_certificate(root, "sheep", strategy)
            path = cert_path(base, f"ply{ply}")
            write_certificate(path, Certificate(root, "sheep", strategy), overwrite=True)
            composed.append({"ply": ply, "position": position_text(root),
                             "certificate": path.name, "moves": len(strategy),
                             "proof_size": size})
        data["composed"] = composed
    write()
    print(f"report: {base.with_suffix('.md')} (+ .json)")


if __name__ == "__main__":
    with terminate_as_interrupt():
        main()
