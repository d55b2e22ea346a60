"""How far before a won end the proof search sees the sheep's win in the 20-sheep game: a
plausible game from the start, then the proof horizon along it.

One command regenerates reports/ulvtafl-horizon.md and .json (the command is written in):

    python benchmarks/ulvtafl_horizon.py --report reports/ulvtafl-horizon \\
        [--move-nodes 3000000] [--move-memory 48M] [--nodes 200000000] [--memory 200M] \\
        [--kept-nodes 600000000] [--kept-memory 4G]

(the committed report: --kept-memory 8G --kept-nodes 400000000; the command is written in)

The game: at each turn a search of --move-nodes nodes from the position rates the moves.
The sheep play the move the safe-only search (the sheep only make moves after which no wolf
can capture) finds most proving, the wolves the move the unrestricted search finds hardest
for the sheep (largest proof number); no move returns to a position of the game. Every
search is deterministic, so the game is the same on every machine. The horizon: from the
game's end backwards, each position with the sheep to move is searched for a sheep win,
once with the safe-only search and once unrestricted, --nodes nodes each, until each search
fails to prove one; then the safe-only sweep again with one search that keeps its table
from position to position (Prover.retarget). A proof is reported only with its certificate
(the sheep's move in every position of the proof, kept in the JSON or a file beside it),
which the reference rules re-check here and in tests/test_ulvtafl_horizon_report.py. The
game itself proves nothing about the start: the wolves' moves are a search's choice, not
every defence.

A third column, "focused", sweeps with the safe-only search whose sheep are also kept
within --focus king steps of a wolf but for a few tempo moves (Prover focus; 0 leaves the
column out). --focused-only adds that column alone to PATH.json (with its own --memory; its
command is written in):

    python benchmarks/ulvtafl_horizon.py --report reports/ulvtafl-horizon --focused-only \
        --focus 2 --memory 6G

With --tree-seconds S, a last stage walks back from the end as the kept sweep does, with
one safe-front proof tree (solver/ulvtafl/tree.py) retargeted from position to position,
S seconds each, passing a wolf position it does not prove (the sheep may win the position
before it another way), until a sheep position is not proved: does the tree move the
horizon beyond the sweep's? Its leaves are searched focused first (--focus). --tree-only
runs that stage alone on the game and sweep of PATH.json (its own command is written in);
--tree-resume goes on with the tree saved in --tree-folder, from its root's ply:

    python benchmarks/ulvtafl_horizon.py --report reports/ulvtafl-horizon --tree-only \\
        --tree-seconds 1200 [--tree-total 6000] [--tree-memory 8G] [--tree-workers 2] \\
        [--tree-folder DIR]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fleece.commands.base import terminate_as_interrupt
from fleece.rules.io import atomic_write
from fleece.rules.ulvtafl.game import SHEEP, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_position, position_text
from fleece.solver.ulvtafl.budget import resolve
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    bare,
    check_certificate,
    sample_check,
    settle,
    write_certificate,
)
from fleece.solver.ulvtafl.prover import DEFAULT_PROFILE, PROFILES, Prover, table_bits_for
from fleece.solver.ulvtafl.tree import INF, ProofTree

MODES = ("safe-only", "unrestricted")
FOCUSED = "focused"  # the safe-only search with the sheep focused near the wolves (--focus)
PAIRED = "safe-only, focused's table"  # safe-only on the focused column's table: the gain


def move_score(judge: Prover, child: UlvState, sheep_move: bool) -> int:
    """Lower is better for the mover. The sheep: the child's proof number for the sheep.
    The wolves: the largest proof number, then the smallest disproof number (in millions,
    at most 1,000): -1000 pn + min(dn, 10**9) // 10**6. A child the search did not reach
    counts 2**45 for both numbers. `judge` is a search for a sheep win."""
    pn, dn = judge.numbers(child) or (1 << 45, 1 << 45)
    if sheep_move:
        return pn
    return -pn * 1000 + min(dn, 10**9) // 10**6


def play_game(move_nodes: int, bits: int, plies: int = 200) -> list[dict[str, Any]]:
    """The game described above, one row a ply: position, move, sheep left."""
    state = initial_state(UlvtaflOptions(setup=20))
    seen: set[Any] = set()
    game: list[dict[str, Any]] = []
    for ply in range(plies):
        if state.is_terminal():
            break
        judge = Prover(state, SHEEP, table_bits=bits)
        judge.run(nodes=move_nodes)
        if state.to_move == SHEEP:
            safe = Prover(state, SHEEP, table_bits=bits, safe_only=True)
            if safe.run(nodes=move_nodes) != "failed":
                judge = safe
        best: tuple[int, Any, UlvState] | None = None
        for move in state.legal_moves():
            child = state.play(move)
            if child.key in seen:
                continue
            if child.is_terminal():  # a win for the mover first, a loss last
                mover = "sheep" if state.to_move == SHEEP else "wolves"
                score = -(1 << 62) if child.result == mover else 1 << 62
            else:
                score = move_score(judge, child, state.to_move == SHEEP)
            if best is None or score < best[0]:
                best = (score, move, child)
        if best is None:
            break
        game.append({"ply": ply, "position": position_text(state), "move": best[1].text(),
                     "sheep": bin(state.sheep).count("1")})
        seen.add(state.key)
        state = best[2]
    game.append({"ply": len(game), "position": position_text(state), "move": None,
                 "sheep": bin(state.sheep).count("1"),
                 "result": state.result if state.is_terminal() else None})
    return game


def horizon(game: list[dict[str, Any]], mode: str, nodes: int, bits: int, focus: int = 0,
            base: Path | None = None, profile: str = DEFAULT_PROFILE) -> list[dict[str, Any]]:
    """From the game's end backwards, the sheep-to-move positions searched for a sheep win
    until one is not proved within `nodes`; each proof with its re-checked certificate
    (in the row, or beside the report as PATH-MODE-plyN.cert.json.gz when it holds more
    than 5,000 positions). Mode "focused" is the safe-only search with the sheep kept
    within `focus` king steps of a wolf but for a few tempo moves (Prover focus);
    `profile` names the searches' initial proof numbers (Prover profile)."""
    rows = []
    for row in reversed(game):
        state = parse_position(row["position"])
        if state.is_terminal() or state.to_move != SHEEP:
            continue
        prover = Prover(state, SHEEP, table_bits=bits, safe_only=mode != "unrestricted",
                        focus=focus if mode == FOCUSED else 0, profile=profile)
        t0 = time.perf_counter()
        outcome = prover.run(nodes=nodes)
        out: dict[str, Any] = {"ply": row["ply"], "outcome": outcome, "nodes": prover.nodes,
                               "seconds": round(time.perf_counter() - t0, 1)}
        cert = prover.certificate() if outcome == "proved" else None
        out["outcome"], size = settle(outcome, state, "sheep", cert)
        if cert is not None and size is not None:
            out["proof_size"] = size
            stem = "safe-only-paired" if mode == PAIRED else mode
            out["certificate"] = _kept(state, cert, base, f"{stem}-ply{row['ply']}")
        rows.append(out)
        print(f"{mode} ply {row['ply']}: {outcome} {prover.nodes:,} nodes", flush=True)
        if cert is None:
            break
    return rows


def kept_sweep(game: list[dict[str, Any]], nodes: int, bits: int, base: Path | None
               ) -> dict[str, Any]:
    """The safe-only sweep with its proofs kept: one search retargeted at each position of
    the game from the end backwards (both sides to move), so an earlier root finds the
    later positions proved, until one is not proved within `nodes`. The earliest proof's
    certificate is re-checked by the reference rules (whole, or 2,000 random lines when it
    holds more than 200,000 positions) and written beside the report when large."""
    prover: Prover | None = None
    rows: list[dict[str, Any]] = []
    first: tuple[int, UlvState] | None = None
    for row in reversed(game):
        state = parse_position(row["position"])
        if state.is_terminal():
            continue
        if prover is None:
            prover = Prover(state, SHEEP, table_bits=bits, safe_only=True)
        else:
            prover.retarget(state)
        before = prover.nodes
        t0 = time.perf_counter()
        outcome = prover.run(nodes=nodes)
        rows.append({"ply": row["ply"], "outcome": outcome, "nodes": prover.nodes - before,
                     "seconds": round(time.perf_counter() - t0, 1),
                     "table_fill": round(prover.fill, 4),
                     "proofs_stored": int(prover.ctr[7])})
        print(f"kept ply {row['ply']}: {outcome} {prover.nodes - before:,} nodes", flush=True)
        if outcome != "proved":
            break
        first = (row["ply"], state)
    out: dict[str, Any] = {"rows": rows, "table_entries": 1 << bits}
    if prover is None or first is None:
        return out
    prover.retarget(first[1])
    cert = prover.certificate()
    out["earliest"] = first[0]
    if cert is None:
        out["certificate"] = None  # the proof store could not hold the whole proof
        return out
    out.update(_checked(first, cert, base, "ply"))
    return out


def tree_walk(game: list[dict[str, Any]], start: int, seconds: float,
              tree_for: Callable[[UlvState], ProofTree], base: Path | None,
              folder: Path | None = None, total: float | None = None,
              earlier: list[dict[str, Any]] | None = None, resumed_at: int | None = None,
              on_row: Callable[[list[dict[str, Any]]], None] | None = None
              ) -> dict[str, Any]:
    """The proof tree along the game: from ply `start` (the game's last position before
    its end, or where a resumed tree stopped) backwards, one proof tree (`tree_for` makes
    it at the first position: new, or loaded from its folder) retargeted at each position,
    both sides to move, `seconds` a position, until a position with the sheep to move is
    not proved or `total` seconds are spent (a wolf position not proved is passed: the
    sheep may win the position before it with another move). The tree keeps its graph and
    proofs from root to root. `earlier`: the rows of the run resumed (those after `start`
    are kept; the resumed position's figures add up both runs'), `resumed_at`: the ply its
    tree was saved at, which gets the work the tree holds beyond those rows (a run stopped
    before its row was written). `on_row` gets the rows after each one. The earliest proof's
    certificate is re-checked by the reference rules (whole, or 2,000 random lines when it
    holds more than 200,000 positions) and written beside the report when large."""
    earlier = earlier or []
    rows = [r for r in earlier if r["ply"] > start]
    before_start = {r["ply"]: r for r in earlier if r["ply"] == start}
    positions = {r["ply"]: r["position"] for r in game}
    proved = [r["ply"] for r in rows if r["outcome"] == "proved"]
    first = (min(proved), parse_position(positions[min(proved)])) if proved else None
    tree: ProofTree | None = None
    began = 0.0
    for row in reversed(game):
        if row["ply"] > start:
            continue
        state = parse_position(row["position"])
        if tree is None:
            tree = tree_for(state)
            began = tree.seconds
            if resumed_at is not None:
                _unreported(tree, earlier, resumed_at, before_start)
        else:
            tree.retarget(state)
        before, spent, searches = tree.work, tree.seconds, tree.leaves
        left = seconds if total is None else min(seconds, total - (tree.seconds - began))
        if left <= 0:
            break
        outcome = tree.run(seconds=left, folder=folder, progress=_tree_line)
        info = tree.progress_info()
        prior = before_start.pop(row["ply"], {})
        rows.append({"ply": row["ply"], "outcome": outcome,
                     "nodes": tree.work - before + prior.get("nodes", 0),
                     "seconds": tree.seconds - spent + prior.get("seconds", 0),
                     "leaf_searches": tree.leaves - searches + prior.get("leaf_searches", 0),
                     "tree_positions": info["tree_nodes"], "expanded": info["expanded"],
                     "proof_number": info["proof_number"],
                     "disproof_number": info["disproof_number"]})
        print(f"tree ply {row['ply']}: {outcome} {tree.work - before:,} nodes", flush=True)
        if on_row is not None:
            on_row(rows)
        if outcome == "proved":
            first = (row["ply"], state)
        elif state.to_move == SHEEP or outcome == "interrupted":
            break  # the wolf position before holds this one: it cannot be proved either
    out: dict[str, Any] = {"rows": rows, "seconds_a_position": seconds,
                           "seconds_in_all": total}
    if tree is None or first is None:
        return out
    tree.retarget(first[1])  # the earliest proved root (the last one tried was not proved)
    cert = tree.certificate(check=False)
    if cert is None:
        raise SystemExit(f"the tree holds no proof of ply {first[0]}, which its rows claim")
    out["earliest"] = first[0]
    out.update(_checked(first, cert, base, "tree-ply"))
    return out


def _unreported(tree: ProofTree, earlier: list[dict[str, Any]], ply: int,
                before_start: dict[int, dict[str, Any]]) -> None:
    """Work a resumed tree holds beyond the rows of the run resumed (a run stopped between
    its last save and its row) goes to the row of the ply the tree was saved at: an
    earlier row of that ply, or the figures the resumed position starts from."""
    row = next((r for r in earlier if r["ply"] == ply), None)
    if row is None:
        row = before_start.setdefault(ply, {"nodes": 0, "seconds": 0.0, "leaf_searches": 0})
    for key, total in (("nodes", tree.work), ("seconds", tree.seconds),
                       ("leaf_searches", tree.leaves)):
        extra = total - sum(r[key] for r in earlier)
        if extra > 0:
            row[key] += extra


def _tree_line(info: dict[str, Any]) -> None:
    """A progress line of the tree stage."""
    print(f"  {info['nodes']:,} nodes, {info['nodes_per_second']:,}/s, pn "
          f"{info['proof_number']:,} dn {info['disproof_number']:,}, "
          f"{info['tree_nodes']:,} positions", flush=True)


def _checked(first: tuple[int, UlvState], cert: dict[str, str], base: Path | None,
             stem: str) -> dict[str, Any]:
    """A proof's certificate re-checked by the reference rules (whole, or 2,000 random
    lines when it holds more than 200,000 positions), kept in the JSON or, when large,
    written beside the report as PATH-`stem`N.cert.json.gz."""
    out: dict[str, Any] = {}
    if len(cert) > 200_000:
        out["checked"] = f"{sample_check(first[1], 'sheep', cert, 2000):,} plies of 2,000 " \
                         "random lines"
    else:
        out["checked"] = f"whole: {check_certificate(first[1], 'sheep', cert):,} positions"
    out["certificate_positions"] = len(cert)
    out["certificate"] = _kept(first[1], cert, base, f"{stem}{first[0]}")
    return out


def _kept(root: UlvState, cert: dict[str, str], base: Path | None,
          stem: str) -> dict[str, str] | str:
    """Where a report keeps a certificate: in its JSON, or, when it holds more than 5,000
    positions, in the file PATH-`stem`.cert.json.gz beside it (the file's name)."""
    if len(cert) <= 5000 or base is None:
        return cert
    name = f"{base.name}-{stem}.cert.json.gz"
    write_certificate(base.parent / name, Certificate(root, "sheep", cert), overwrite=True)
    return name


def _count(n: int, noun: str) -> str:
    """`n` and the noun, plural unless n is 1."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _number(n: int) -> str:
    """A proof or disproof number; one that cannot be reached (the tree's INF) as ∞."""
    return "∞" if n >= INF else f"{n:,}"


def _ending(position: str) -> str:
    """How a game ended, in words, from its last position (the reference rules' reason)."""
    state = parse_position(position)
    if state.result is None:
        return "unfinished"
    who = {"sheep": "the sheep win", "wolves": "the wolves win"}.get(state.result, "a draw")
    return f"{who} ({state.reason})"


def _with(profile: str) -> str:
    """A column label's note of a profile other than the default."""
    return "" if profile == DEFAULT_PROFILE else f", {profile} profile"


def markdown(data: dict[str, Any]) -> str:
    """The report's markdown, from its JSON alone."""
    game = data["game"]
    end = game[-1]
    sweeps = data["horizon"]
    modes = [m for m in (*MODES, PAIRED, FOCUSED) if m in sweeps]
    # reports written before --profile ran every search with the mobility profile
    profile = data.get("profile", DEFAULT_PROFILE)
    focused_profile = data.get("focused_profile", profile)
    label = {**{m: m + _with(profile) for m in MODES}, PAIRED: PAIRED + _with(focused_profile),
             FOCUSED: f"focused (radius {data.get('focus')}){_with(focused_profile)}"}
    out = ["# How far ahead the proof search sees the sheep's win (20 sheep, two wolves)", "",
           f"Command: `{data['command']}`", "",
           f"Run {data['started']}, {data['seconds']:,.0f} s. Figures: nodes of the "
           "proof search (df-pn, solver/ulvtafl/engine.py); each proof's certificate was "
           "re-checked by the reference rules, and the JSON keeps it.", "",
           "## The game", "",
           "The sheep play the move the safe-only search (the sheep make only moves after "
           "which no wolf can capture) finds most proving, the wolves the move the "
           "unrestricted search finds hardest for the sheep; each search looks at "
           f"{data['move_nodes']:,} nodes from the position. The game proves nothing about "
           "the start: the wolves' moves are a search's choice, not every defence.", "",
           f"It ends after {end['ply']} plies, {_ending(end['position'])}, with "
           f"{end['sheep']} of 20 sheep left: `{end['position']}`.", "",
           "Moves: " + " ".join(f"{r['ply'] // 2 + 1}." * (r["ply"] % 2 == 0) + r["move"]
                                for r in game if r["move"]), "",
           "## The horizon", "",
           "From the end backwards, each position with the sheep to move, searched for a "
           f"sheep win within {data['nodes']:,} nodes, until the first one not proved"
           + (": safe-only (the sheep make only moves after which no wolf can capture), "
              "unrestricted, and focused (safe-only, and the sheep move within "
              f"{data.get('focus')} king steps of a wolf but for three forward moves and one "
              "sideways move elsewhere: far from the wolves one tempo move is much like "
              "another; the focused column was added by "
              f"`{data.get('focused_command', data['command'])}`"
              + (f", on a table of {data['focused_table']:,} entries, with the safe-only "
                 "search again on that table beside it" if data.get("focused_table") else "")
              + ")" if FOCUSED in sweeps
              else "") + ":", "",
           "| ply | position | " + " | ".join(label[m] for m in modes) + " |",
           "|---|---|" + "---|" * len(modes)]
    by_mode = {m: {r["ply"]: r for r in sweeps[m]} for m in modes}
    plies = sorted({p for m in modes for p in by_mode[m]}, reverse=True)
    text = {r["ply"]: r["position"] for r in game}
    for ply in plies:
        cells = []
        for m in modes:
            r = by_mode[m].get(ply)
            if r is None:
                cells.append("")
            elif r["outcome"] == "proved":
                cells.append(f"proved: {_count(r['nodes'], 'node')}, proof "
                             f"{_count(r['proof_size'], 'position')}")
            elif r["outcome"] == "proved-without-certificate":
                cells.append(f"no certificate after {r['nodes']:,} nodes (the proof store "
                             "could not hold the proof: not claimed)")
            elif r["outcome"] == "failed":
                cells.append(f"failed after {r['nodes']:,} nodes (no win with these moves)")
            else:
                cells.append(f"open after {r['nodes']:,} nodes")
        out.append(f"| {ply} | `{text[ply].split(' |')[0]}` | " + " | ".join(cells) + " |")
    out.append("")
    for m in modes:
        proved = [r for r in sweeps[m] if r["outcome"] == "proved"]
        first = min((r["ply"] for r in proved), default=None)
        if first is None:
            out.append(f"- {label[m]}: no position of the game proved.")
        else:
            out.append(f"- {label[m]}: the sheep's win proved from ply {first} on, "
                       f"{end['ply'] - first} plies before the end "
                       f"(at most {max(r['nodes'] for r in proved):,} nodes a position).")
    kept = data.get("kept")
    if kept:
        out += ["", "## The safe-only sweep with its proofs kept", "",
                "One search, retargeted at each position of the game from the end backwards "
                "(both sides to move), on one table of "
                f"{kept['table_entries']:,} entries: an earlier root finds the later "
                f"positions proved. Budget {data['kept_nodes']:,} nodes a position.", "",
                "| ply | to move | outcome | nodes | table fill | proofs stored |",
                "|---|---|---|---|---|---|"]
        for r in kept["rows"]:
            mover = "sheep" if parse_position(text[r["ply"]]).to_move == SHEEP else "wolves"
            if r["outcome"] == "proved" and r["nodes"] < 1000 and r is not kept["rows"][-1]:
                continue
            out.append(f"| {r['ply']} | {mover} | {r['outcome']} | {r['nodes']:,} | "
                       f"{100 * r['table_fill']:.1f}% | {r['proofs_stored']:,} |")
        out.append("")
        out.append("(Positions proved in under 1,000 nodes are left out of the table.)")
        if "earliest" in kept:
            out.append("")
            where = kept.get("certificate")
            if where is None:
                out.append(f"- The earliest position proved is ply {kept['earliest']}; the "
                           "proof store could not hold its whole proof, so no certificate "
                           "is claimed.")
            else:
                file = f" (`reports/{where}`)" if isinstance(where, str) else " (in the JSON)"
                out.append(f"- The earliest position proved is ply {kept['earliest']}: its "
                           f"certificate{file} gives the sheep's move in "
                           f"{kept['certificate_positions']:,} positions, re-checked by the "
                           f"reference rules ({kept['checked']}).")
    tree = data.get("tree")
    if tree:
        out += ["", "## The proof tree along the game", "",
                f"Command: `{tree['command']}`", "",
                *[f"Resumed with: `{c}`\n" for c in tree.get("resumed", [])],
                f"Run {tree['started']}"
                + (" (the settings of the first command; a resumed run's are in its "
                   "command)" * bool(tree.get("resumed")))
                + ". From the end backwards, as the sweep above, until a position with the "
                "sheep to move is not proved (a wolf position not proved is passed: the "
                "sheep may win the position before it another way): one "
                "proof tree (solver/ulvtafl/tree.py: a proof-number graph "
                "over df-pn leaf searches; the sheep kept to safe moves where they have one, "
                "the leaves searched "
                + (f"focused (radius {tree['focus']}), then safe-only where that fails"
                   if tree.get("focus") else "safe-only first")
                + ") retargeted at each position, keeping "
                f"its graph and proofs; {tree['seconds_a_position']:,.0f} s a position"
                + (f" ({tree['seconds_in_all']:,.0f} s in all)" if tree.get("seconds_in_all")
                   else "") + " on "
                f"{_count(tree['workers'], 'thread')}, leaf searches of "
                f"{tree['leaf_nodes']:,} to {tree['leaf_max']:,} nodes, {tree['memory']} "
                "of tables.", "",
                "| ply | to move | outcome | nodes | seconds | leaf searches | positions "
                "| root pn | root dn |", "|---|---|---|---|---|---|---|---|---|"]
        for r in tree["rows"]:
            mover = "sheep" if parse_position(text[r["ply"]]).to_move == SHEEP else "wolves"
            if r["outcome"] == "proved" and r["nodes"] < 1000 and r is not tree["rows"][-1]:
                continue
            out.append(f"| {r['ply']} | {mover} | {r['outcome']} | {r['nodes']:,} | "
                       f"{r['seconds']:,.0f} | {r['leaf_searches']:,} | "
                       f"{r['tree_positions']:,} | {_number(r['proof_number'])} | "
                       f"{_number(r['disproof_number'])} |")
        out += ["", "(Positions proved in under 1,000 nodes are left out of the table.)", ""]
        if tree.get("running"):
            out.append("- The walk was still running when this was written; the earliest "
                       "proof's certificate is checked at its end.")
        elif "earliest" in tree:
            where = tree["certificate"]
            file = f" (`reports/{where}`)" if isinstance(where, str) else " (in the JSON)"
            out.append(f"- The earliest position the tree proved is ply {tree['earliest']}: "
                       f"its certificate{file} gives the sheep's move in "
                       f"{tree['certificate_positions']:,} positions, re-checked by the "
                       f"reference rules ({tree['checked']}).")
        else:
            out.append("- The tree proved no position of the game.")
    return "\n".join(out)


def resume_ply(game: list[dict[str, Any]], root: int, rows: list[dict[str, Any]]) -> int:
    """Where a resumed walk goes on: at its tree's root (ply `root`), unless the walk had
    finished with that wolf position not proved, which it passes: then the ply before."""
    last = {r["ply"]: r for r in rows}.get(root)
    if last is not None and last["outcome"] not in ("proved", "interrupted") \
            and parse_position(game[root]["position"]).to_move != SHEEP:
        return root - 1
    return root


def tree_stage(data: dict[str, Any], args: argparse.Namespace, command: str,
               base: Path | None, folder: Path | None,
               write: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The proof tree stage on a report's game, from its last position before the end, or
    with --tree-resume from the position of the tree saved in --tree-folder, keeping the
    earlier rows. `write` gets the report after each position, the tree's rows so far in
    it."""
    old: dict[str, Any] = data.get("tree") or {}
    if args.tree_resume:
        assert folder is not None
        loaded = ProofTree.load(folder, workers=args.tree_workers, memory=args.tree_memory,
                                leaf_nodes=args.tree_leaf_nodes, leaf_max=args.tree_leaf_max,
                                focus_leaves=args.focus)
        root = position_text(loaded.root_state)  # a tree's root has no game history
        plies = [r["ply"] for r in data["game"]
                 if position_text(bare(parse_position(r["position"]))) == root]
        if not plies:
            raise SystemExit(f"{folder}: its tree's root is not a position of the game")
        resumed_at: int | None = plies[0]
        start = resume_ply(data["game"], plies[0], old.get("rows", []))
        head = {"command": old.get("command", command), "started": old.get("started"),
                "resumed": [*old.get("resumed", []), command]}

        def tree_for(state: UlvState) -> ProofTree:
            if position_text(bare(state)) != position_text(loaded.root_state):
                loaded.retarget(state)  # the walk passes the wolf position it stopped at
            return loaded
    else:
        start = max(r["ply"] for r in data["game"]
                    if not parse_position(r["position"]).is_terminal())
        resumed_at = None
        old = {}
        head = {"command": command,
                "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

        def tree_for(state: UlvState) -> ProofTree:
            return ProofTree(state, SHEEP, workers=args.tree_workers,
                             leaf_nodes=args.tree_leaf_nodes, leaf_max=args.tree_leaf_max,
                             memory=args.tree_memory, safe_leaves=True, safe_front=True,
                             focus_leaves=args.focus, profile=args.profile)
    settings = {"workers": args.tree_workers, "memory": args.tree_memory, "focus": args.focus,
                "profile": args.profile,
                "leaf_nodes": args.tree_leaf_nodes, "leaf_max": args.tree_leaf_max,
                "seconds_a_position": args.tree_seconds, "seconds_in_all": args.tree_total}
    # a resume's settings are in its command; a first run before --focus had none
    first_run = {k: old.get(k, 0 if k == "focus" and old else v) for k, v in settings.items()}

    def on_row(rows: list[dict[str, Any]]) -> None:
        if write is not None:  # the report so far: a run stopped later loses one row
            write({**data, "tree": {**head, "rows": rows, **first_run, "running": True}})

    out = tree_walk(data["game"], start, args.tree_seconds, tree_for, base, folder,
                    args.tree_total, old.get("rows"), resumed_at, on_row)
    return {**head, **out, **first_run}


def write_report(base: Path, data: dict[str, Any]) -> None:
    """PATH.json and PATH.md, each written atomically (replacing them)."""
    atomic_write(base.with_suffix(".json"), json.dumps(data, indent=1) + "\n", overwrite=True)
    atomic_write(base.with_suffix(".md"), markdown(data) + "\n", overwrite=True)


def main() -> None:
    """Parse the options, play the game, sweep the horizon, write the report. SIGTERM stops
    it as Ctrl-C does (the tree stage ends its position "interrupted", saves the tree and
    writes its row and the report), so a run in the background is stopped with `kill`."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--move-nodes", type=int, default=3_000_000)
    ap.add_argument("--move-memory", default="48M", help="memory of each move's search")
    ap.add_argument("--nodes", type=int, default=200_000_000, help="budget a position")
    ap.add_argument("--memory", default="200M", help="memory of each horizon search")
    ap.add_argument("--kept-nodes", type=int, default=600_000_000,
                    help="budget a position of the sweep with proofs kept (0: no sweep)")
    ap.add_argument("--kept-memory", default="4G", help="memory of that sweep's search")
    ap.add_argument("--focus", type=int, default=2,
                    help="radius of the focused horizon column and of the tree's first leaf "
                         "searches (0: neither)")
    ap.add_argument("--profile", choices=sorted(PROFILES), default=DEFAULT_PROFILE,
                    help="initial proof numbers of the horizon searches and the tree's "
                         "leaves (steps: for safe-only and focused searches)")
    ap.add_argument("--focused-only", action="store_true",
                    help="run only the focused horizon column (and safe-only on its table, "
                     "to compare) on the game of PATH.json")
    ap.add_argument("--tree-seconds", type=float, default=0.0,
                    help="seconds a position of the proof tree stage (0: no tree stage)")
    ap.add_argument("--tree-total", type=float, help="seconds of the whole tree stage")
    ap.add_argument("--tree-memory", default="8G", help="memory of the tree's leaf searches")
    ap.add_argument("--tree-workers", type=int, default=2, help="threads of the tree")
    ap.add_argument("--tree-leaf-nodes", type=int, default=2_000_000)
    ap.add_argument("--tree-leaf-max", type=int, default=16_000_000)
    ap.add_argument("--tree-folder", help="save the tree here as it grows (a new folder)")
    ap.add_argument("--tree-resume", action="store_true",
                    help="go on with the tree saved in --tree-folder (with --tree-only)")
    ap.add_argument("--tree-only", action="store_true",
                    help="run only the tree stage on the game and sweep of PATH.json")
    ap.add_argument("--report", help="write PATH.json and PATH.md (replacing them)")
    ap.add_argument("--render", action="store_true", help="only write PATH.md from PATH.json")
    args = ap.parse_args()
    command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
    base = Path(args.report) if args.report else None
    if (args.render or args.tree_only or args.focused_only) and base is None:
        ap.error("--render, --tree-only and --focused-only need --report PATH")
    if args.focused_only and args.focus <= 0:
        ap.error("--focused-only needs --focus above 0")
    if args.tree_only and args.tree_seconds <= 0:
        ap.error("--tree-only needs --tree-seconds above 0")
    folder = Path(args.tree_folder) if args.tree_folder else None
    if args.tree_resume and (folder is None or not args.tree_only):
        ap.error("--tree-resume needs --tree-only and --tree-folder")
    if folder is not None and (folder / "tree.json.gz").exists() and not args.tree_resume:
        ap.error(f"{folder}: a saved tree is already there (--tree-resume goes on with it)")
    if args.render and base is not None:
        data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        atomic_write(base.with_suffix(".md"), markdown(data) + "\n", overwrite=True)
        return
    if args.focused_only and base is not None:
        data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        bits = table_bits_for(resolve(args.memory))
        with ThreadPoolExecutor(max_workers=2) as pool:  # the searches release the GIL
            futures = {m: pool.submit(horizon, data["game"], m, data["nodes"], bits,
                                      args.focus, base, args.profile)
                       for m in (PAIRED, FOCUSED)}
            data["horizon"].update({m: f.result() for m, f in futures.items()})
        data["focus"] = args.focus
        data["focused_profile"] = args.profile
        data["focused_table"] = 1 << bits
        data["focused_command"] = command
        write_report(base, data)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
        return
    if args.tree_only and base is not None:
        data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        data["tree"] = tree_stage(data, args, command, base, folder,
                                  lambda d: write_report(base, d))
        write_report(base, data)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
        return
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    t0 = time.perf_counter()
    game = play_game(args.move_nodes, table_bits_for(resolve(args.move_memory)))
    print(f"game: {len(game) - 1} plies, {game[-1]['sheep']} sheep left", flush=True)
    bits = table_bits_for(resolve(args.memory))
    modes = [*MODES, FOCUSED] if args.focus > 0 else list(MODES)  # one table: no pairing
    with ThreadPoolExecutor(max_workers=4) as pool:  # the searches release the GIL
        futures = {m: pool.submit(horizon, game, m, args.nodes, bits, args.focus, base,
                                  args.profile)
                   for m in modes}
        kept = (pool.submit(kept_sweep, game, args.kept_nodes,
                            table_bits_for(resolve(args.kept_memory)), base)
                if args.kept_nodes > 0 else None)
        sweeps = {m: f.result() for m, f in futures.items()}
        kept_rows = kept.result() if kept is not None else None
    data = {"command": command, "started": started,
            "seconds": round(time.perf_counter() - t0, 1), "move_nodes": args.move_nodes,
            "nodes": args.nodes, "kept_nodes": args.kept_nodes, "game": game,
            "horizon": sweeps, "kept": kept_rows, "focus": args.focus,
            "profile": args.profile}
    if args.tree_seconds > 0:
        data["tree"] = tree_stage(data, args, command, base, folder,
                                  None if base is None else lambda d: write_report(base, d))
    if base is not None:
        write_report(base, data)
        print(f"report: {base.with_suffix('.md')} (+ .json)")
    else:
        print(markdown(data))


if __name__ == "__main__":
    with terminate_as_interrupt():
        main()
