"""The proof tree (solver/ulvtafl/tree.py) against one df-pn search, and its run on the
20-sheep start. One command regenerates reports/ulvtafl-tree.md and .json:

    python benchmarks/ulvtafl_tree.py --report reports/ulvtafl-tree \\
        --folder reports/ulvtafl-tree-search [--resume] [--seconds 3600] [--memory 18G] \\
        [--leaf-nodes 2000000] [--leaf-max 256000000] [--safe-front] [--compare-memory 2G] \\
        [--no-compare]

Comparison: the 13-, 15- and 17-sheep starts proved by one df-pn search (one thread) and by
the tree (two threads, leaves of 1M to 8M nodes), the same memory in all, each proof's
certificate re-checked by the reference rules. The 20-sheep start: the tree with safe leaves
grown from the saved tree in --folder (--resume) or afresh, saved there; its figures add up
over the runs of that folder, and each run's leaf sizes and front are listed. --safe-front
gives the sheep only safe moves in the tree itself where they have one, from this run on.
--no-compare keeps the comparison the report already holds (and says which run measured
it). --render rewrites the markdown from the JSON alone.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import SHEEP, UlvtaflOptions, initial_state
from fleece.solver.ulvtafl.certificate import check_certificate
from fleece.solver.ulvtafl.prover import Prover
from fleece.solver.ulvtafl.tree import INF, REPEAT, ROOT, ProofTree

SETUPS = (13, 15, 17)
COMPARE_LEAVES = (1_000_000, 8_000_000)


def _num(x: int) -> Any:
    return "inf" if x >= INF else x


def compare(memory: str, seconds: float) -> list[dict[str, Any]]:
    """Each one-wolf start proved by one df-pn search and by the tree (same memory)."""
    rows = []
    for setup in SETUPS:
        state = initial_state(UlvtaflOptions(setup=setup))
        t0 = time.perf_counter()
        prover = Prover(state, SHEEP, memory=memory)
        one = prover.run(seconds=seconds)
        one_s = time.perf_counter() - t0
        cert = prover.certificate()
        t0 = time.perf_counter()
        tree = ProofTree(state, SHEEP, workers=2, leaf_nodes=COMPARE_LEAVES[0],
                         leaf_max=COMPARE_LEAVES[1], memory=memory)
        two = tree.run(seconds=seconds)
        two_s = time.perf_counter() - t0
        tcert = tree.certificate(check=False)  # checked below, once
        info = tree.progress_info()
        row = {"setup": setup,
               "search": {"outcome": one, "nodes": prover.nodes, "seconds": round(one_s, 1),
                          "certificate": len(cert) if cert else None,
                          "checked": check_certificate(state, "sheep", cert) if cert else None},
               "tree": {"outcome": two, "nodes": tree.work, "seconds": round(two_s, 1),
                        "certificate": len(tcert) if tcert else None,
                        "checked": check_certificate(state, "sheep", tcert) if tcert else None,
                        "tree_nodes": info["tree_nodes"], "expanded": info["expanded"],
                        "leaf_searches": info["leaf_searches"],
                        "proved_leaves": info["proved_leaves"]}}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def twenty(folder: Path, resume: bool, seconds: float, memory: str, leaf_nodes: int,
           leaf_max: int, safe_front: bool = False) -> dict[str, Any]:
    """Grow the 20-sheep tree for `seconds` and describe where it stands."""
    state = initial_state(UlvtaflOptions(setup=20))
    if resume:
        tree = ProofTree.load(folder, workers=2, memory=memory, state=state,
                              leaf_nodes=leaf_nodes, leaf_max=leaf_max, safe_front=safe_front)
    else:
        tree = ProofTree(state, SHEEP, workers=2, leaf_nodes=leaf_nodes, leaf_max=leaf_max,
                         memory=memory, safe_leaves=True, safe_front=safe_front)
    before = (tree.work, tree.seconds)

    def show(info: dict[str, Any]) -> None:
        print(json.dumps(info), flush=True)

    outcome = tree.run(seconds=seconds, progress=show, folder=folder, every=300,
                       report_every=60)
    info = tree.progress_info()
    pn, dn = tree.root_numbers()
    cert = tree.certificate() if outcome == "proved" else None
    return {"outcome": outcome, "nodes": tree.work, "seconds": round(tree.seconds, 1),
            "run_nodes": tree.work - before[0],
            "run_seconds": round(tree.seconds - before[1], 1),
            "proof_number": _num(pn), "disproof_number": _num(dn),
            "leaf_nodes": tree.leaf_nodes, "leaf_max": tree.leaf_max,
            "safe_front": tree.safe_front, "tree_nodes": info["tree_nodes"],
            "expanded": info["expanded"],
            "leaf_searches": info["leaf_searches"], "proved_leaves": info["proved_leaves"],
            "runs": [{k: t.get(k) for k in ("nodes", "seconds", "proof_number",
                                            "disproof_number", "tree_nodes", "proved_leaves",
                                            "leaf_nodes", "leaf_max", "safe_front")}
                     for t in tree.trace],
            "root_moves": [{**m, "nodes": _work_below(tree, m["move"])}
                           for m in tree.root_moves()],
            "principal_line": tree.principal_line(),
            "open_leaves": tree.open_leaves(),
            "certificate": len(cert) if cert else None}


def _work_below(tree: ProofTree, move: str) -> int:
    """Leaf-search nodes spent in the graph below a root move (shared positions counted
    once under each move that reaches them)."""
    root = tree.nodes[ROOT]
    assert root.kids is not None and root.moves is not None
    start = root.kids[root.moves.index(move)]
    seen = {start}
    todo = [start]
    total = 0
    while todo:
        node = tree.nodes[todo.pop()]
        total += node.work
        for k in node.kids or ():
            if k not in seen and k != REPEAT:
                seen.add(k)
                todo.append(k)
    return total


def markdown(data: dict[str, Any]) -> str:
    """The report's markdown, from its JSON alone."""
    out = ["# The proof tree: one df-pn search split into a tree of bounded ones", "",
           f"Command: `{data['command']}`", "",
           f"Run {data['started']} on {data['cores']} cores. Nodes are df-pn nodes of the "
           "leaf searches (solver/ulvtafl/engine.py); every proof's certificate was "
           "re-checked by the reference rules.", ""]
    if data.get("compare"):
        leaf, top = data["compare_leaves"]
        kept = data.get("compare_from")
        out += ["## Against one search", ""]
        if kept:
            out += [f"Measured by the run of {kept['started']} (`{kept['command']}`); this "
                    "command kept it (--no-compare).", ""]
        out += [f"The one-wolf starts, {data['compare_memory']} of memory for each: one df-pn "
                f"search on one thread, and the tree on two threads (leaves searched for "
                f"{leaf:,} nodes, doubled up to {top:,}, then expanded).", "",
                "| sheep | one search: nodes | s | tree: nodes | s | tree positions "
                "(expanded) | leaf searches (proved) | certificate (positions walked) |",
                "|---|---|---|---|---|---|---|---|"]
        for r in data["compare"]:
            a, b = r["search"], r["tree"]
            cert = f"{b['certificate']:,} ({b['checked']:,})" if b["certificate"] else "-"
            out.append(f"| {r['setup']} | {_cell(a)} | {a['seconds']:,.1f} | {_cell(b)} | "
                       f"{b['seconds']:,.1f} | {b['tree_nodes']:,} ({b['expanded']:,}) | "
                       f"{b['leaf_searches']:,} ({b['proved_leaves']:,}) | {cert} |")
        out.append("")
    t = data.get("twenty")
    if t:
        out += ["## The 20-sheep start", "",
                "The tree with safe leaves (each leaf searched with the sheep on moves after "
                "which no wolf can capture, the unrestricted search where that fails), "
                + ("a safe front (where the sheep have such a move, the tree itself gives "
                   "them only such moves; positions expanded before it was on keep every "
                   "move)" if t.get("safe_front") else
                   "the front end letting the sheep play every move")
                + f", leaves of {t['leaf_nodes']:,} nodes doubled up to {t['leaf_max']:,} "
                "(the last run's; each run's are listed below).", "",
                f"- outcome: **{t['outcome']}**; root proof number {t['proof_number']}, "
                f"disproof number {t['disproof_number']}",
                f"- work: {t['nodes']:,} nodes in {t['seconds']:,.0f} s of search in all; "
                f"this command's run added {t['run_nodes']:,} nodes in "
                f"{t['run_seconds']:,.0f} s to the saved tree it grew, which held "
                f"{t['nodes'] - t['run_nodes']:,} nodes of earlier runs",
                f"- the tree: {t['tree_nodes']:,} positions, {t['expanded']:,} expanded, "
                f"{t['leaf_searches']:,} leaf searches, {t['proved_leaves']:,} leaves proved",
                "", "Each run's end (a run before the tree recorded its settings shows -):", "",
                "| run | leaves (nodes) | safe front | nodes | s | root pn | root dn | "
                "positions | proved leaves |", "|---|---|---|---|---|---|---|---|---|"]
        for i, r in enumerate(t["runs"], 1):
            leaves = (f"{r['leaf_nodes']:,}..{r['leaf_max']:,}" if r.get("leaf_max")
                      else "-")
            front = "-" if r.get("safe_front") is None else "yes" if r["safe_front"] else "no"
            proved = "-" if r.get("proved_leaves") is None else f"{r['proved_leaves']:,}"
            out.append(f"| {i} | {leaves} | {front} | {r['nodes']:,} | {r['seconds']:,.0f} | "
                       f"{r['proof_number']} | {r['disproof_number']} | {r['tree_nodes']:,} | "
                       f"{proved} |")
        out += ["", "The wolves' first moves (mirror images share one position):", "",
                "| move | outcome | pn | dn | nodes below |", "|---|---|---|---|---|"]
        for m in t["root_moves"]:
            out.append(f"| {m['move']} | {m['outcome']} | {_n(m['proof_number'])} | "
                       f"{_n(m['disproof_number'])} | {m['nodes']:,} |")
        line = " ".join(m["move"] for m in t["principal_line"])
        out += ["", f"Most-proving line: {line or '-'}", "",
                "Open leaves with the most work:", "",
                "| position | pn | dn | nodes |", "|---|---|---|---|"]
        for r in t["open_leaves"]:
            out.append(f"| `{r['position']}` | {_n(r['proof_number'])} | "
                       f"{_n(r['disproof_number'])} | {r['nodes']:,} |")
    return "\n".join(out)


def _cell(r: dict[str, Any]) -> str:
    return f"{r['nodes']:,}" + ("" if r["outcome"] == "proved" else f" ({r['outcome']})")


def _n(x: Any) -> str:
    return "inf" if x == "inf" or (isinstance(x, int) and x >= INF) else f"{x:,}"


def main() -> None:
    """Parse the options, run the comparison and the 20-sheep tree, write the report."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--report", help="write PATH.json and PATH.md (replacing them)")
    ap.add_argument("--render", action="store_true", help="only write PATH.md from PATH.json")
    ap.add_argument("--folder", help="the 20-sheep tree's folder (saved there)")
    ap.add_argument("--resume", action="store_true", help="grow the tree saved in --folder")
    ap.add_argument("--seconds", type=float, default=3600.0, help="the 20-sheep run")
    ap.add_argument("--memory", default="18G", help="the 20-sheep tree's tables")
    ap.add_argument("--leaf-nodes", type=int, default=2_000_000)
    ap.add_argument("--leaf-max", type=int, default=256_000_000)
    ap.add_argument("--safe-front", action="store_true",
                    help="the sheep play only safe moves in the tree where they have one")
    ap.add_argument("--compare-memory", default="2G")
    ap.add_argument("--compare-seconds", type=float, default=600.0)
    ap.add_argument("--no-compare", action="store_true")
    args = ap.parse_args()
    base = Path(args.report) if args.report else None
    if args.render and base is not None:
        saved = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        atomic_write(base.with_suffix(".md"), markdown(saved) + "\n", overwrite=True)
        return
    data: dict[str, Any] = {
        "command": "python " + " ".join(shlex.quote(a) for a in sys.argv),
        "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": os.cpu_count()}
    if not args.no_compare:
        data["compare_memory"] = args.compare_memory
        data["compare_leaves"] = list(COMPARE_LEAVES)
        data["compare"] = compare(args.compare_memory, args.compare_seconds)
    elif base is not None and base.with_suffix(".json").is_file():
        # keep the comparison the report holds, saying which run measured it
        old = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        if old.get("compare"):
            data["compare_from"] = old.get("compare_from") or {
                "command": old["command"], "started": old["started"]}
            for key in ("compare_memory", "compare_leaves", "compare"):
                data[key] = old[key]
    if args.folder:
        data["twenty"] = twenty(Path(args.folder), args.resume, args.seconds, args.memory,
                                args.leaf_nodes, args.leaf_max, args.safe_front)
    if base is not None:
        atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n",
                     overwrite=True)
        atomic_write(base.with_suffix(".md"), markdown(data) + "\n", overwrite=True)
    print(markdown(data))


if __name__ == "__main__":
    main()
