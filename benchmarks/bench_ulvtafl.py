"""Benchmark of the Ulvtafl solver and the report on the start positions and the U6 variants.

One command regenerates reports/ulvtafl-start.md and .json (the command line that ran is
written into the report):

    python benchmarks/bench_ulvtafl.py --report reports/ulvtafl-start \\
        [--runs 3] [--memory 4G] [--setups 13,15,17] [--seconds 600] \\
        [--twenty-seconds 600 --twenty-checkpoint DIR [--resume]] \\
        [--variants] [--variant-nodes 20000000] [--variant-memory 512M] [--skip-speed]

A movement-limit variant one search leaves unknown can then be grown as a proof tree
(solver/ulvtafl/tree.py), and the report updated in place; the report names that command too,
and the certificates go to files beside it:

    python benchmarks/bench_ulvtafl.py --report reports/ulvtafl-start --settle-variants 3000 \\
        [--tree-memory 8G] [--tree-workers 2] [--tree-folder DIR]

With --tree-folder each variant's tree is saved in a folder of its own there and resumed
from it on the next run; the report's figures are then the tree's totals over its runs.

The 20-sheep search alone can be run again (or its checkpoint resumed) and put in the report
in place of the old one; its section names that command and date:

    python benchmarks/bench_ulvtafl.py --report reports/ulvtafl-start --update-twenty \
        --twenty-seconds 5200 [--twenty-memory 12G] [--twenty-checkpoint DIR [--resume]]

Speed (medians of --runs interleaved runs, with the new engine's ratio to the first engine,
legacy.py, in the same run; the load average is printed): perft(7) from the 20-sheep start
under U10's ends alone and ending lines at a repetition (U7); retrograde analysis; proof
search nodes per second on the 13-sheep start; the split search's total work rate with one
and two workers. Start positions: the 13-, 15- and 17-sheep proofs with their certificates
(re-checked by the reference model), and the 20-sheep search (resumed from a checkpoint
when given: its figures add up over the runs of one checkpoint folder, which the report
names DIR and whose totals and last run it states). Variants: the 13/15/17 starts with
U6's movement limits, and with the wolf on every other empty point.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import (
    SHEEP,
    WOLVES,
    Rules,
    UlvState,
    UlvtaflOptions,
    initial_state,
)
from fleece.rules.ulvtafl.geometry import NAMES, SETUP_SHEEP
from fleece.rules.ulvtafl.notation import parse_position, position_text
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl import perft
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    check_certificate,
    longest_line,
    write_certificate,
)
from fleece.solver.ulvtafl.legacy import LegacyProofSearch
from fleece.solver.ulvtafl.parallel import prove_split
from fleece.solver.ulvtafl.prover import Prover, evenly
from fleece.solver.ulvtafl.search import retro_solve

RETRO_POSITION = ".S./.SS/.S.SSSW/.S..SS./......./.../... s"  # sheep win in 37 plies
SPEED_NODES = 2_000_000
REPLACE_NODES = 60_000_000  # the budget of each replacement rule's 17-sheep search
SIDE = ("wolves", "sheep")


def public_command(command: str) -> str:
    """The command as a reader can run it from a checkout: the 20-sheep checkpoint folder
    and the variants' tree folder, paths on the machine that ran it, are shown as the
    placeholder DIR."""
    words = shlex.split(command)
    for i, word in enumerate(words):
        if word in ("--twenty-checkpoint", "--tree-folder") and i + 1 < len(words):
            words[i + 1] = "DIR"
        elif word.startswith(("--twenty-checkpoint=", "--tree-folder=")):
            words[i] = word.split("=")[0] + "=DIR"
    return " ".join(shlex.quote(w) for w in words)


def resumed_runs(row: dict[str, Any]) -> str | None:
    """A line saying that a resumed search's figures add up over its runs (the trace holds
    one entry per run, at its end): the totals and what the last run added."""
    trace = row.get("trace") or []
    if len(trace) < 2:
        return None
    last, before = trace[-1], trace[-2]
    return (f"- the figures accumulate over {len(trace)} runs of one checkpoint "
            f"(`--twenty-checkpoint DIR --resume`, DIR a folder of your choice; the first "
            f"run without `--resume`): {last['nodes']:,} nodes and {last['seconds']:,.1f} s "
            f"of search in all, of which this command's run added "
            f"{last['nodes'] - before['nodes']:,} nodes in "
            f"{last['seconds'] - before['seconds']:,.1f} s (the table's nodes/s: this "
            f"run's nodes over its wall time, checkpoint writes included)")


def load() -> float:
    """The one-minute load average (other work on the machine)."""
    return os.getloadavg()[0]


def interleaved(fns: dict[str, Any], runs: int) -> dict[str, float]:
    """Median seconds (process CPU time) of each function over `runs` interleaved rounds,
    after one warm-up round."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def speed(runs: int) -> dict[str, Any]:
    """Speed figures, each with the first engine's in the same run where there is one."""
    start20 = initial_state(UlvtaflOptions(setup=20))
    norep = UlvState.create(Rules(repetition_draw=False), start20.sheep, start20.wolves,
                            start20.to_move)
    out: dict[str, Any] = {"load_before": round(load(), 2)}
    t = interleaved({"u10": lambda: perft(norep, 7), "u7": lambda: perft(start20, 7)}, runs)
    out["perft7_u10"] = perft(norep, 7)
    out["perft7_u7"] = perft(start20, 7)
    out["perft7_seconds"] = t["u10"]
    endgame = parse_position(RETRO_POSITION)
    table = retro_solve(endgame, 4_000_000)
    assert table is not None and table.value(endgame) == ("sheep", 37)
    t = interleaved({"retro": lambda: retro_solve(endgame, 4_000_000)}, runs)
    out["retro_positions"] = table.size
    out["retro_positions_per_second"] = table.size / t["retro"]
    start13 = initial_state(UlvtaflOptions(setup=13))
    for bits in (16, 22):
        t = interleaved({
            "new": lambda b=bits: Prover(start13, SHEEP, table_bits=b).run(nodes=SPEED_NODES),
            "old": lambda b=bits: LegacyProofSearch(start13, SHEEP, b).run(SPEED_NODES)},
            runs)
        out[f"pns_new_{bits}"] = SPEED_NODES / t["new"]
        out[f"pns_old_{bits}"] = SPEED_NODES / t["old"]
    # what reading proofs back from the proof store saves where the table is too small
    for read, name in ((True, "read"), (False, "unread")):
        p = Prover(start13, SHEEP, table_bits=18, read_store=read)
        p.run(nodes=400_000_000)
        out[f"store_{name}_nodes"] = p.nodes
        out[f"store_{name}_outcome"] = p.outcome()
    # replacement by subtree size against keeping settled entries first, on a full table
    start17 = initial_state(UlvtaflOptions(setup=17))
    for first, name in ((False, "size"), (True, "settled")):
        p = Prover(start17, SHEEP, table_bits=14, settled_first=first)
        p.run(nodes=REPLACE_NODES)
        out[f"replace_{name}_nodes"] = p.nodes
        out[f"replace_{name}_outcome"] = p.outcome()
    workers = {}
    for n in (1, 2):
        r = prove_split(start20, SHEEP, workers=n, seconds=40, memory="1G",
                        chunk=1_000_000)
        workers[n] = r.nodes_per_second
    out["split_rate_1"] = workers[1]
    out["split_rate_2"] = workers[2]
    out["load_after"] = round(load(), 2)
    return out


def prove_setup(setup: int, memory: str, seconds: float, cert_dir: Path) -> dict[str, Any]:
    """The sheep's proof from a start position, its certificate re-checked by the
    reference model, and the wolves' longest resistance against it."""
    state = initial_state(UlvtaflOptions(setup=setup))
    prover = Prover(state, SHEEP, memory=memory)
    t0 = time.perf_counter()
    outcome = prover.run(seconds=seconds)
    spent = time.perf_counter() - t0
    row: dict[str, Any] = {"setup": setup, "position": position_text(state),
                           "search": prover.summary(), "seconds": round(spent, 1),
                           "nodes": prover.nodes,
                           "nodes_per_second": round(prover.nodes / max(spent, 1e-9))}
    if outcome != "proved":
        row.update(value="unknown", certificate=None, proof_size=None)
        return row
    cert = prover.certificate()
    assert cert is not None
    size = check_certificate(state, "sheep", cert)
    plies, line = longest_line(state, "sheep", cert)
    row.update(value="sheep", certificate=cert, proof_size=size,
               strategy_positions=len(cert), plies_within=plies, longest_line=list(line))
    del cert_dir
    return row


def frontier(prover: Prover) -> dict[str, Any]:
    """How far an open search got: the root's moves with their numbers as the table holds
    them (None: not in the table), and the most proving line: from the root, the child the
    search would expand next (the attacker's least proof number, the defender's least
    disproof number), among the children the table holds, up to a settled position or one
    whose children the table does not hold. The table holds only positions the search
    reached, so on a safe-only search the line never shows a sheep move that lets a wolf
    capture; a move outside a focused search's set can still show where the search reached
    its position by another order of moves."""
    state = prover.state
    kids = []
    for m in state.legal_moves():
        c = state.play(m)
        got = prover.numbers(c)
        kids.append({"move": m.text(),
                     "proof_number": None if got is None else _num(got[0]),
                     "disproof_number": None if got is None else _num(got[1]),
                     "work": prover.work(c.sheep, c.wolves, c.to_move)})
    line: list[str] = []
    seen = {state.key}
    while len(line) < 60 and not state.is_terminal():
        here = prover.numbers(state)
        if here is None or 0 in here:
            break
        best = None
        for m in state.legal_moves():
            c = UlvState.create(state.rules, *_after(state, m), 1 - state.to_move)
            got = prover.numbers(c) if c.key not in seen else None
            if got is None:
                continue
            score = got[0] if state.to_move == prover.attacker else got[1]
            if best is None or score < best[0]:
                best = (score, m, c)
        if best is None:
            break
        line.append(best[1].text())
        seen.add(best[2].key)
        state = best[2]
    return {"root_moves": kids, "most_proving_line": line,
            "table_entries": int(prover.tt.shape[0]), "table_fill": round(prover.fill, 4),
            "proofs_stored": int(prover.ctr[7]), "store_room": int(prover.ps.shape[0])}


def _after(state: UlvState, m: Any) -> tuple[int, int]:
    from fleece.rules.ulvtafl.game import apply_move

    return apply_move(state.sheep, state.wolves, m)


def _root_move(k: dict[str, Any]) -> str:
    """A root move with its numbers and work, or 'not in the table'."""
    if k["proof_number"] is None:
        return f"{k['move']} not in the table"
    return f"{k['move']} {k['proof_number']}/{k['disproof_number']} ({k['work']:,})"


def _num(x: Any) -> Any:
    return "inf" if int(x) >= int(e.INF) else int(x)


def twenty(seconds: float, memory: str, checkpoint: str | None, resume: bool
           ) -> dict[str, Any]:
    """The 20-sheep search: resumed from the checkpoint when asked, `seconds` more."""
    state = initial_state(UlvtaflOptions(setup=20))
    if resume and checkpoint:
        prover = Prover.load(checkpoint, state=state, attacker=SHEEP)
    else:
        prover = Prover(state, SHEEP, memory=memory)
    before = prover.nodes
    t0 = time.perf_counter()
    seen: list[dict[str, Any]] = []

    def progress(info: dict[str, Any]) -> None:
        print(json.dumps(info), file=sys.stderr, flush=True)
        seen.append({k: info[k] for k in ("nodes", "seconds", "proof_number",
                                          "disproof_number", "table_fill")})

    outcome = prover.run(seconds=seconds, checkpoint=checkpoint,
                         every=max(300.0, seconds / 4), report_every=60.0, progress=progress)
    spent = time.perf_counter() - t0
    row: dict[str, Any] = {"setup": 20, "position": position_text(state),
                           "search": prover.summary(), "nodes": prover.nodes,
                           "seconds": round(prover.seconds, 1),
                           "nodes_per_second": round((prover.nodes - before) / max(spent, 1e-9)),
                           "trace": prover.trace, "history": prover.history,
                           "table_entries": prover.tt.shape[0], "progress": seen}
    if outcome == "proved":
        cert = prover.certificate()
        assert cert is not None
        size = check_certificate(state, "sheep", cert)
        plies, line = longest_line(state, "sheep", cert)
        row.update(value="sheep", certificate=cert, proof_size=size, plies_within=plies,
                   longest_line=list(line), strategy_positions=len(cert))
    else:
        row.update(value="unknown", certificate=None, proof_size=None,
                   frontier=frontier(prover))
    return row


def value_of(state: UlvState, nodes: int, memory: str) -> dict[str, Any]:
    """The value of a start (each side's search in turn, `nodes` each at most): 'sheep' or
    'wolves' with a checked certificate, 'draw' when both wins are disproved (closure
    checked), or 'unknown'."""
    searches = {side: Prover(state, side, memory=memory) for side in (SHEEP, WOLVES)}
    spent = {SHEEP: 0, WOLVES: 0}
    step = 500_000
    while True:
        for side, p in searches.items():
            if p.outcome() == "proved":
                cert = p.certificate()
                assert cert is not None
                size = check_certificate(state, SIDE[side], cert)
                return {"value": SIDE[side], "proof_size": size,
                        "nodes": sum(q.nodes for q in searches.values())}
        if all(p.outcome() == "disproved" for p in searches.values()):
            return {"value": "draw", "nodes": sum(q.nodes for q in searches.values())}
        open_ = [s for s, p in searches.items() if p.outcome() == "open" and spent[s] < nodes]
        if not open_:
            return {"value": "unknown", "nodes": sum(q.nodes for q in searches.values()),
                    "sheep": searches[SHEEP].summary(), "wolves": searches[WOLVES].summary()}
        for side in open_:
            searches[side].step(step)
            spent[side] += step


LIMITS = {
    "wolf diagonal only capturing": Rules(wolf_diagonal_captures_only=True),
    "sheep never diagonal": Rules(sheep_orthogonal=True),
    "both limits": Rules(wolf_diagonal_captures_only=True, sheep_orthogonal=True),
}


def variants(nodes: int, memory: str) -> dict[str, Any]:
    """U6: the one-wolf starts with each movement limit, and with the wolf on every point
    not taken by a sheep (default rules)."""
    out: dict[str, Any] = {"limits": [], "wolf_anywhere": []}
    for setup in (13, 15, 17):
        for name, rules in LIMITS.items():
            state = initial_state(UlvtaflOptions(setup=setup, rules=rules))
            r = value_of(state, nodes, memory)
            out["limits"].append({"setup": setup, "limits": name, **r})
            print(f"variant {setup} {name}: {r['value']}", file=sys.stderr, flush=True)
        for p, name in enumerate(NAMES):
            if SETUP_SHEEP[setup] >> p & 1:
                continue
            state = initial_state(UlvtaflOptions(setup=setup, wolves=(name,)))
            if state.is_terminal():
                r = {"value": state.result, "nodes": 0, "note": state.reason}
            else:
                r = value_of(state, nodes, memory)
            out["wolf_anywhere"].append({"setup": setup, "wolf": name, **r})
            print(f"variant {setup} wolf {name}: {r['value']}", file=sys.stderr, flush=True)
    return out


def slug(text: str) -> str:
    """A file-name word for a variant's name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def settle_variants(base: Path, seconds: float, memory: str, workers: int,
                    command: str, folder: str | None = None) -> dict[str, Any]:
    """Grow a proof tree (the sheep attacking, `seconds` each) for every movement-limit
    variant of the report PATH.json that one search left unknown. A proof's certificate is
    re-checked by the reference model and written beside the report; an open tree leaves
    the row unknown with the tree's work added. With `folder` each tree is saved in
    folder/<setup>-<limits> and resumed from there. The updated report."""
    from fleece.solver.ulvtafl.tree import ProofTree

    data: dict[str, Any] = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    var = data["variants"]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for row in var["limits"]:
        if row["value"] != "unknown":
            continue
        state = initial_state(UlvtaflOptions(setup=row["setup"], rules=LIMITS[row["limits"]]))
        key = f"{row['setup']}-{slug(row['limits'])}"
        saved = Path(folder, key) if folder else None
        if saved is not None and (saved / "tree.json.gz").is_file():
            tree = ProofTree.load(saved, workers=workers, memory=memory, state=state)
        else:
            tree = ProofTree(state, SHEEP, workers=workers, memory=memory)
        runs = len(tree.trace) + 1
        outcome = tree.run(seconds=seconds, folder=saved)
        info = tree.progress_info()
        row["tree"] = {"outcome": outcome, "nodes": tree.work,
                       "seconds": round(tree.seconds, 1), "workers": workers, "runs": runs,
                       "memory": memory, "tree_nodes": info["tree_nodes"],
                       "leaf_searches": info["leaf_searches"],
                       "proof_number": info["proof_number"],
                       "disproof_number": info["disproof_number"],
                       "root_moves": tree.root_moves(),
                       "line": [m["move"] for m in tree.principal_line()],
                       "command": command, "started": started}
        print(f"variant {row['setup']} {row['limits']}: tree {outcome} "
              f"{tree.work:,} nodes", file=sys.stderr, flush=True)
        if outcome != "proved":
            continue
        cert = tree.certificate(check=False)
        assert cert is not None
        size = check_certificate(state, "sheep", cert)
        name = f"{base.name}-{key}.cert.json.gz"
        write_certificate(base.parent / name, Certificate(state, "sheep", cert),
                          overwrite=True)
        row.update(value="sheep", proof_size=size, position=position_text(state),
                   certificate=name, strategy_positions=len(cert))
    return data


def certificate_beside(base: Path, row: dict[str, Any]) -> None:
    """A start's certificate of more than 5,000 positions goes to a gzip file beside the
    report PATH (PATH-<setup>.cert.json.gz), which the row then names."""
    cert = row.get("certificate")
    if cert and len(cert) > 5000:
        name = f"{base.name}-{row['setup']}.cert.json.gz"
        write_certificate(base.parent / name, Certificate(
            parse_position(row["position"]), row["value"], cert), overwrite=True)
        row["certificate"] = name


NO_LOSS_STEPS = 2  # forward steps the sheep's fortress in the 20-sheep start takes


def no_loss(base: Path, row: dict[str, Any], command: str) -> None:
    """For a start the report leaves unknown: the fortress search's bound (a strategy with
    which the sheep never lose, so the wolves cannot force a win), its no-loss certificate
    written beside the report PATH (PATH-<setup>-no-loss.cert.json.gz) and named in the
    row's `no_loss`, with what the reference rules walked checking it."""
    from fleece.solver.ulvtafl.fortress import find_fortress

    state = parse_position(row["position"])
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    found = find_fortress(state, "sheep", forward_steps=NO_LOSS_STEPS)
    if found.certificate is None:
        row["no_loss"] = {"side": "sheep", "outcome": found.outcome,
                          "explored": found.explored, "forward_steps": NO_LOSS_STEPS}
        return
    name = f"{base.name}-{row['setup']}-no-loss.cert.json.gz"
    write_certificate(base.parent / name, found.certificate, overwrite=True)
    row["no_loss"] = {"side": "sheep", "outcome": found.outcome, "certificate": name,
                      "strategy_positions": len(found.certificate.strategy),
                      "checked_positions": found.checked, "explored": found.explored,
                      "holding": found.holding, "forward_steps": NO_LOSS_STEPS,
                      "safe_only": True, "seconds": round(found.seconds, 1),
                      "command": command, "started": started}


def update_no_loss(base: Path, command: str) -> dict[str, Any]:
    """Add the fortress search's bound to every start of the report PATH.json that is
    unknown (see no_loss); the updated report."""
    data: dict[str, Any] = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    for row in data["setups"]:
        if row["value"] == "unknown":
            no_loss(base, row, command)
    return data


def update_twenty(base: Path, seconds: float, memory: str, checkpoint: str | None,
                  resume: bool, command: str) -> dict[str, Any]:
    """Run the 20-sheep search of the report PATH.json again (or resume its checkpoint) and
    put its row in place of the old one, with the command and the date of this run. The
    updated report."""
    data: dict[str, Any] = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.perf_counter()
    row = twenty(seconds, memory, checkpoint, resume)
    row.update(command=command, started=started, wall=round(time.perf_counter() - t0, 1))
    certificate_beside(base, row)
    if row["value"] == "unknown":
        no_loss(base, row, command)
    rows = [r for r in data["setups"] if r["setup"] != 20] + [row]
    data["setups"] = sorted(rows, key=lambda r: int(r["setup"]))
    return data


def render(data: dict[str, Any]) -> str:
    """The markdown of a report's JSON (the command as a reader can run it)."""
    return markdown(public_command(data["command"]), data["speed"], data["setups"],
                    data["variants"], data["started"], data["seconds"])


def markdown(command: str, spd: dict[str, Any] | None, rows: list[dict[str, Any]],
             var: dict[str, Any] | None, started: str, seconds: float) -> str:
    """The report as markdown."""
    out = ["# Ulvtafl start positions: what the solver proved", "",
           f"Command: `{command}`", "",
           f"Run {started}, {seconds / 60:.0f} min wall on "
           f"{platform.machine()} ({os.cpu_count()} cores, shared), Python "
           f"{platform.python_version()}. Values are exact under docs/rules.md U7 (a side wins "
           "when it can force a won end; otherwise a draw). A value is claimed only with a "
           "certificate (the winner's move in every position of its proof) that the "
           "reference model re-checked; 'unknown' means the budget ran out.", ""]
    if spd:
        out += ["## Speed", "",
                f"Load average {spd['load_before']} before, {spd['load_after']} after (other "
                "agents' work on the 2 cores): figures are CPU-time medians of interleaved "
                "runs, and ratios compare engines in the same run.", "",
                "| figure | measured |", "|---|---|",
                f"| perft(7) from the 20-sheep start, U10's ends alone | "
                f"{spd['perft7_u10']:,} sequences, {spd['perft7_seconds']:.2f} s |",
                f"| perft(7) ending lines at a repeated position (U7) | "
                f"{spd['perft7_u7']:,} sequences |",
                f"| retrograde analysis ({spd['retro_positions']:,} positions) | "
                f"{spd['retro_positions_per_second']:,.0f} positions/s |"]
        for bits in (16, 22):
            new, old = spd[f"pns_new_{bits}"], spd[f"pns_old_{bits}"]
            out.append(f"| proof search, 13-sheep start, table 2**{bits}: new engine / first "
                       f"engine | {new:,.0f} / {old:,.0f} nodes per CPU-second "
                       f"({new / old:.2f}x) |")
        if "store_read_nodes" in spd:
            out.append(
                f"| nodes to the 13-sheep proof on a 2**18 table: proof store read / not read "
                f"| {spd['store_read_nodes']:,} ({spd['store_read_outcome']}) / "
                f"{spd['store_unread_nodes']:,} ({spd['store_unread_outcome']}) |")
        if "replace_size_nodes" in spd:
            out.append(
                "| nodes to the 17-sheep proof on a 2**14 table: replaced by subtree size / "
                f"settled entries kept first | {spd['replace_size_nodes']:,} "
                f"({spd['replace_size_outcome']}) / {spd['replace_settled_nodes']:,} "
                f"({spd['replace_settled_outcome']}) |")
        out += [f"| split search, 20-sheep start, total rate: 1 worker / 2 workers | "
                f"{spd['split_rate_1']:,.0f} / {spd['split_rate_2']:,.0f} nodes/s "
                f"({spd['split_rate_2'] / spd['split_rate_1']:.2f}x) |", ""]
    out += ["## Start positions", "",
            "| setup | value | nodes | nodes/s | time | proof size | strategy positions | "
            "won within |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        value = r["value"]
        if r.get("no_loss", {}).get("outcome") == "found":
            value += ": the wolves cannot win"
        out.append(f"| {r['setup']} sheep | {value} | {r['nodes']:,} | "
                   f"{r['nodes_per_second']:,} | {r['seconds']} s | "
                   f"{_dash(r.get('proof_size'))} | {_dash(r.get('strategy_positions'))} | "
                   f"{_dash(r.get('plies_within'))} plies |")
    out += ["", "Proof size: the unfinished positions (either side to move) of the "
            "certificate's proof tree, as the reference model counts them while checking; "
            "strategy positions: the sheep-to-move positions the certificate maps to a move.",
            ""]
    for r in rows:
        out += [f"### {r['setup']} sheep: {r['value']}", "", f"Position `{r['position']}`."]
        if r.get("command"):  # a row run again on its own (--update-twenty)
            out.append(f"Run again on its own by `{public_command(r['command'])}`, "
                       f"{r['started']}, {r['wall'] / 60:.0f} min wall.")
        out.append(f"Search: {json.dumps(r['search'])}.")
        bound = r.get("no_loss")
        if bound and bound["outcome"] == "found":
            out.append(
                f"- what is proved: the sheep never lose, so the wolves cannot force a win "
                f"(U7) and the value is the sheep's win or a draw. The no-loss certificate "
                f"`reports/{bound['certificate']}` gives the sheep's move in "
                f"{bound['strategy_positions']:,} positions: safe moves only (no wolf can "
                f"ever capture) and at most {bound['forward_steps']} forward steps in all, "
                f"after which the sheep shuffle sideways behind a closed front. The "
                f"reference rules check it whole ({bound['checked_positions']:,} positions "
                f"walked, every wolf move followed, repetitions allowed). Found by "
                f"`fleece ulvtafl fortress --setup {r['setup']} --forward-steps "
                f"{bound['forward_steps']}` ({bound['explored']:,} positions explored, "
                f"{bound['seconds']} s; `{public_command(bound['command'])}` wrote it here, "
                f"{bound['started']}). A draw would need the wolves' own no-loss strategy "
                "as well; a sheep win, a win certificate.")
        elif bound:
            out.append(f"- the fortress search found no no-loss strategy for the sheep "
                       f"({bound['outcome']}, {bound['explored']:,} positions explored): "
                       "nothing is claimed")
        if r.get("longest_line"):
            out.append(f"- the wolves' longest defence against the sheep's certificate "
                       f"({r['plies_within']} plies): {' '.join(r['longest_line'])}")
            out.append(f"- {ending(r['position'], r['longest_line'])}")
        if r.get("frontier"):
            f = r["frontier"]
            out.append("- root moves (proof number / disproof number of a sheep win, work): "
                       + ", ".join(_root_move(k) for k in f["root_moves"]))
            out.append(f"- the most-proving line (where the search would look next): "
                       f"{' '.join(f['most_proving_line'])}")
            if "proofs_stored" in f:
                out.append(f"- memory: a table of {f['table_entries']:,} entries, "
                           f"{100 * f['table_fill']:.1f}% full; the proof store keeps "
                           f"{f['proofs_stored']:,} proved positions (room for "
                           f"{f['store_room']:,})")
        if resumed_runs(r):
            out.append(str(resumed_runs(r)))
        if r.get("history"):
            points = len(r["history"])
            out.append("- root numbers over time, a point a minute over all its runs (search "
                       "seconds, nodes: pn/dn, table fill), "
                       f"{min(12, points)} of {points:,} points: " + ", ".join(
                           f"{x['seconds']:,.0f} s, {x['nodes']:,}: {x['proof_number']}/"
                           f"{x['disproof_number']}, {100 * x['table_fill']:.0f}%"
                           for x in evenly(r["history"], 12)))
        elif r.get("progress"):
            step = max(1, len(r["progress"]) // 12)
            out.append("- root numbers during this run (search seconds, nodes: pn/dn, table "
                       "fill): " + ", ".join(
                           f"{x['seconds']:,.0f} s, {x['nodes']:,}: {x['proof_number']}/"
                           f"{x['disproof_number']}, {100 * x['table_fill']:.0f}%"
                           for x in r["progress"][step - 1::step]))
        elif r.get("trace"):
            out.append("- root numbers over time (nodes: pn/dn): " + ", ".join(
                f"{t['nodes']:,}: {t['proof_number']}/{t['disproof_number']}"
                for t in r["trace"][-12:]))
        out.append("")
    ends = [ending(r["position"], r["longest_line"]) for r in rows if r.get("longest_line")]
    if ends and all("wolves have no legal move" in x for x in ends):
        left = sorted({int(m) for x in ends for m in re.findall(r"with (\d+) sheep left", x)})
        spread = f"{left[0]}" if len(left) == 1 else f"{left[0]} to {left[-1]}"
        still = [r for r in rows if r["value"] == "unknown"]
        out += [PLAN.format(left=spread, open=(
            f" The {' and '.join(str(r['setup']) for r in still)}-sheep start is open: its "
            "frontier above gives the root moves' proof and disproof numbers and the line "
            "the search would look at next (the search's own choice, not a claim about best "
            "play)." + (" Below the start, docs/ulvtafl-20-sheep.md gives where its proof "
                        "stands: the positions proved and open, the plans found, and what "
                        "finishing would take." if any(r["setup"] == 20 for r in still)
                        else "") if still else ""))]  # its words hold for these endings
    if var:
        out += ["## U6 variants (one wolf)", "",
                "### Movement limits", "", "| setup | limits | value | proof size | nodes |",
                "|---|---|---|---|---|"]
        for v in var["limits"]:
            nodes = v["nodes"] + (v["tree"]["nodes"] if "tree" in v else 0)
            out.append(f"| {v['setup']} | {v['limits']} | {v['value']} | "
                       f"{_dash(v.get('proof_size'))} | {nodes:,} |")
        grown = [v for v in var["limits"] if "tree" in v]
        if grown:
            out += ["", "For the variants one search left unknown, a proof tree for the sheep "
                    "(solver/ulvtafl/tree.py) was then grown by the command each line names "
                    "(a tree resumed from its folder counts all its runs). The nodes column "
                    "adds both:", ""]
            for v in grown:
                t = v["tree"]
                head = (f"- {v['setup']} sheep, {v['limits']} (`{t['command']}`, run "
                        f"{t['started']}): one search {v['nodes']:,} "
                        f"nodes, then the tree {t['nodes']:,} nodes in {t['seconds']:,.0f} s "
                        f"on {t['workers']} threads over {t['runs']} run(s) "
                        f"({t['tree_nodes']:,} positions, "
                        f"{t['leaf_searches']:,} leaf searches): ")
                if v["value"] == "sheep":
                    out.append(head + f"proved; certificate `reports/{v['certificate']}`, "
                               f"{v['strategy_positions']:,} strategy positions, checked by "
                               "the reference model")
                else:
                    out.append(head + f"{t['outcome']}, root proof number "
                               f"{_dash(t['proof_number'])}, disproof number "
                               f"{_dash(t['disproof_number'])}" + _tree_frontier(t))
        out += ["", "### The wolf starting anywhere (default rules)", "",
                "| setup | sheep win | wolves win | draw | unknown |", "|---|---|---|---|---|"]
        for setup in (13, 15, 17):
            by: dict[str, list[str]] = {}
            for v in var["wolf_anywhere"]:
                if v["setup"] == setup:
                    by.setdefault(v["value"], []).append(v["wolf"])
            out.append(f"| {setup} | " + " | ".join(
                (f"{len(by.get(k, []))}: {' '.join(by.get(k, []))}" if by.get(k) else "0")
                for k in ("sheep", "wolves", "draw", "unknown")) + " |")
        out += ["", "### Balance", "", balance(var)]
        out.append("")
    return "\n".join(out)


def _tree_frontier(t: dict[str, Any]) -> str:
    """An open tree's first moves and most-proving line, as a clause of its variant line
    (nothing for a row written before the tree recorded them)."""
    if not t.get("root_moves"):
        return ""
    moves = ", ".join(
        f"{m['move']} {m['outcome']}" + ("" if m["outcome"] != "open" else
                                         f" ({_dash(m['proof_number'])}/"
                                         f"{_dash(m['disproof_number'])})")
        for m in t["root_moves"])
    text = f"; the wolf's first moves (open ones with their numbers): {moves}"
    if t.get("line"):
        text += f"; the most-proving line: {' '.join(t['line'])}"
    return text


def balance(var: dict[str, Any]) -> str:
    """U6 asks whether each variant is balanced: the verdict read from the variant rows
    (values under perfect play), with the rows still open named."""
    rows = [(f"{v['setup']} sheep, {v['limits']}", v["value"]) for v in var["limits"]]
    rows += [(f"{v['setup']} sheep, wolf on {v['wolf']}", v["value"])
             for v in var["wolf_anywhere"]]
    by: dict[str, list[str]] = {}
    for name, value in rows:
        by.setdefault(value, []).append(name)
    settled = len(rows) - len(by.get("unknown", []))
    wolf_points = [f"{v['wolf']} ({v['setup']} sheep)" for v in var["wolf_anywhere"]
                   if v["value"] == "wolves"]
    text = (f"Of the {len(rows)} one-wolf variants above ({len(var['limits'])} movement "
            f"limits, {len(var['wolf_anywhere'])} starting points), {settled} are settled: "
            f"the sheep win {len(by.get('sheep', []))}, the wolves "
            f"{len(by.get('wolves', []))}, and {len(by.get('draw', []))} are draws. ")
    text += ("No starting point wins for the wolf. " if not wolf_points else
             f"The wolf wins from {', '.join(wolf_points)}. ")
    if set(by) <= {"sheep", "unknown"}:
        text += "None is balanced: with perfect play the sheep win every settled one."
    else:
        text += "The settled variants do not all favour the sheep: see the tables above."
    if by.get("unknown"):
        text += f" Still open: {'; '.join(by['unknown'])}."
    return text


def ending(position: str, line: list[str]) -> str:
    """How a line ends, replayed with the reference model: captures on the way, the
    reason the game ends, and where the wolves stand."""
    from fleece.rules.ulvtafl.geometry import names_of
    from fleece.rules.ulvtafl.notation import parse_move

    state = parse_position(position)
    taken = 0
    for text in line:
        before = state.sheep.bit_count()
        state = state.play(parse_move(text))
        taken += before - state.sheep.bit_count()
    return (f"how it ends: {state.reason}; the wolves took {taken} sheep on the way and end "
            f"on {' '.join(names_of(state.wolves))}, with {state.sheep.bit_count()} sheep "
            "left")


PLAN = """## How the sheep win, and how the wolves resist

Read from the lines above (each replayed by the reference model; "how it ends" is computed,
not written by hand): in every proved setup the wolves' longest defence is to come out of
the paddock and take what they can, and they lose by being shut in deep in the sheep's half
(no legal move, U5) with {left} sheep left, not by a full paddock. The sheep's winning plan
is to let the wolves capture their way down into the home ranks and then close the last
points around them. These are the certificates' lines against the longest resistance; other
winning plans may exist.{open}
"""


def _dash(x: Any) -> str:
    return "-" if x is None else f"{x:,}" if isinstance(x, int) else str(x)


def main() -> None:
    """Run the benchmark and write the report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--memory", default="2G", help="memory budget per search")
    ap.add_argument("--setups", default="13,15,17")
    ap.add_argument("--seconds", type=float, default=600.0, help="budget per setup")
    ap.add_argument("--twenty-seconds", type=float, default=0.0,
                    help="seconds for the 20-sheep search (0: leave it out)")
    ap.add_argument("--twenty-memory", default="4G")
    ap.add_argument("--twenty-checkpoint", help="checkpoint folder of the 20-sheep search")
    ap.add_argument("--resume", action="store_true", help="resume the 20-sheep checkpoint")
    ap.add_argument("--variants", action="store_true")
    ap.add_argument("--variant-nodes", type=int, default=20_000_000)
    ap.add_argument("--variant-memory", default="512M",
                    help="memory budget per variant search (two at a time)")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--report", help="write PATH.json and PATH.md")
    ap.add_argument("--render", action="store_true",
                    help="only write PATH.md again from PATH.json (no search); the report "
                         "names both commands")
    ap.add_argument("--settle-variants", type=float, default=0.0, metavar="SECONDS",
                    help="with --report: grow a proof tree, this many seconds each, for the "
                         "movement-limit variants the report left unknown, and update it")
    ap.add_argument("--tree-memory", default="8G", help="memory of each proof tree")
    ap.add_argument("--tree-workers", type=int, default=2, help="threads of each proof tree")
    ap.add_argument("--tree-folder", help="save each variant's tree under this folder and "
                    "resume it from there")
    ap.add_argument("--no-loss", action="store_true",
                    help="with --report: add the fortress search's bound (the sheep never "
                         "lose, a no-loss certificate beside the report) to every start "
                         "PATH.json leaves unknown")
    ap.add_argument("--update-twenty", action="store_true",
                    help="with --report: run the 20-sheep search again (--twenty-seconds, "
                         "--twenty-memory, --twenty-checkpoint, --resume) and put it in "
                         "PATH.json in place of the old one")
    args = ap.parse_args()
    command = public_command("python " + " ".join(shlex.quote(a) for a in sys.argv))
    if args.update_twenty and args.report:
        if args.twenty_seconds <= 0:
            ap.error("--update-twenty needs --twenty-seconds above 0")
        base = Path(args.report)
        data = update_twenty(base, args.twenty_seconds, args.twenty_memory,
                             args.twenty_checkpoint, args.resume, command)
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), render(data) + "\n", overwrite=True)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
        return
    if args.no_loss and args.report:
        base = Path(args.report)
        data = update_no_loss(base, command)
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), render(data) + "\n", overwrite=True)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
        return
    if args.settle_variants and args.report:
        base = Path(args.report)
        data = settle_variants(base, args.settle_variants, args.tree_memory,
                               args.tree_workers, command, args.tree_folder)
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), render(data) + "\n", overwrite=True)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
        return
    if args.render and args.report:
        base = Path(args.report)
        data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        text = render(data).replace("\n\nRun ", "\n\nMarkdown written again from the JSON "
                                    f"by `{command}`.\n\nRun ", 1)
        atomic_write(base.with_suffix(".md"), text + "\n", overwrite=True)
        print(f"report: {base.with_suffix('.md')}")
        return
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.perf_counter()
    spd = None if args.skip_speed else speed(args.runs)
    if spd:
        print(json.dumps(spd), flush=True)
    # the variants run in a second thread (the compiled searches release the GIL, so the
    # two cores share the work) while this thread proves the start positions
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=1)
    pending = (pool.submit(variants, args.variant_nodes, args.variant_memory)
               if args.variants else None)
    rows = []
    for setup in [int(x) for x in args.setups.split(",") if x]:
        rows.append(prove_setup(setup, args.memory, args.seconds, Path(".")))
        print(f"{setup} sheep: {rows[-1]['value']} {rows[-1]['nodes']:,} nodes", flush=True)
    if args.twenty_seconds > 0:
        rows.append(twenty(args.twenty_seconds, args.twenty_memory, args.twenty_checkpoint,
                           args.resume))
        print(f"20 sheep: {rows[-1]['value']} {rows[-1]['search']}", flush=True)
    var = pending.result() if pending is not None else None
    pool.shutdown()
    seconds = time.perf_counter() - t0
    if args.report:
        base = Path(args.report)
        for r in rows:
            certificate_beside(base, r)
            if r["value"] == "unknown":
                no_loss(base, r, command)
        data = {"command": command, "started": started, "seconds": round(seconds, 1),
                "speed": spd, "setups": rows, "variants": var}
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"),
                     markdown(command, spd, rows, var, started, seconds) + "\n",
                     overwrite=True)
        print(f"report: {base.with_suffix('.md')} (+ .json)")


if __name__ == "__main__":
    main()
