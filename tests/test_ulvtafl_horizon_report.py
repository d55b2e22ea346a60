"""The committed 20-sheep horizon report (benchmarks/ulvtafl_horizon.py): its markdown is its
JSON rendered by the benchmark's own renderer, its game is legal move by move under the
reference rules, and every proof it reports comes with a certificate the reference rules
re-check to the stated size."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers.benchmarks import load_benchmark

from fleece.rules.ulvtafl.game import SHEEP, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import check_certificate

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "ulvtafl-horizon"


def _bench() -> ModuleType:
    return load_benchmark("ulvtafl_horizon")


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    return data


def test_the_horizon_markdown_is_its_json_rendered() -> None:
    text = _bench().markdown(_data())
    assert REPORT.with_suffix(".md").read_text(encoding="utf-8") == text + "\n"


def test_the_game_is_legal_and_each_row_is_its_position() -> None:
    """Replaying the moves from the 20-sheep start with the reference rules passes through
    every position the report lists and ends where it says."""
    game = _data()["game"]
    state = initial_state(UlvtaflOptions(setup=20))
    for ply, row in enumerate(game):
        assert row["ply"] == ply
        assert position_text(state) == row["position"]
        assert bin(state.sheep).count("1") == row["sheep"]
        if row["move"] is None:
            assert ply == len(game) - 1
            assert state.result == row["result"]
            break
        assert not state.is_terminal()
        state = state.play(parse_move(row["move"]))


@pytest.mark.parametrize("mode", ["safe-only", "unrestricted", "safe-only, focused's table",
                                  "focused"])
def test_every_reported_proof_has_a_certificate_that_checks(mode: str) -> None:
    """Each proved row's certificate (in the row, or a file beside the report) is a sheep
    strategy the reference rules accept, of the stated size; the sweep stops at its first
    position not proved: its budget spent, a proof too large for the proof store to give
    a certificate (so not claimed), or (a restricted search) no win with its moves."""
    from fleece.solver.ulvtafl.certificate import read_certificates

    data = _data()
    positions = {row["ply"]: row["position"] for row in data["game"]}
    rows = data["horizon"][mode]
    assert rows and all(r["outcome"] == "proved" for r in rows[:-1])
    for row in rows:
        state = parse_position(positions[row["ply"]])
        assert state.to_move == SHEEP
        if row["outcome"] != "proved":
            assert "certificate" not in row
            assert row["nodes"] >= data["nodes"] or \
                row["outcome"] == "proved-without-certificate" or \
                (mode != "unrestricted" and row["outcome"] == "failed")
            continue
        cert = row["certificate"]
        if isinstance(cert, str):
            [saved] = read_certificates(REPORT.parent / cert)
            assert saved.winner == "sheep" and saved.root.key == state.key
            cert = saved.strategy
        assert check_certificate(state, "sheep", cert) == row["proof_size"]


def test_the_sweep_with_proofs_kept_claims_only_a_checked_certificate() -> None:
    """The kept sweep walks back from the end and stops at its first failure; its earliest
    proof comes with a certificate (inline or a file beside the report) that the reference
    rules accept (a file is sampled: 200 random lines)."""
    data = _data()
    kept = data["kept"]
    assert kept, "the committed report is made with the sweep (--kept-nodes above 0)"
    positions = {row["ply"]: row["position"] for row in data["game"]}
    rows = kept["rows"]
    assert [r["ply"] for r in rows] == sorted((r["ply"] for r in rows), reverse=True)
    assert all(r["outcome"] == "proved" for r in rows[:-1])
    proved = [r["ply"] for r in rows if r["outcome"] == "proved"]
    assert kept["earliest"] == min(proved)
    _check_earliest(kept, positions)


def test_the_tree_walks_back_from_the_end_and_claims_only_checked_proofs() -> None:
    """The tree stage starts at the game's last position before its end and walks back one
    ply at a time (both sides to move), passing only wolf positions it did not prove; its
    earliest proof comes with a certificate the reference rules accept."""
    data = _data()
    tree = data.get("tree")
    assert tree, "the committed report is made with the tree stage (--tree-seconds)"
    positions = {row["ply"]: row["position"] for row in data["game"]}
    rows = tree["rows"]
    start = data["game"][-2]["ply"]  # the last row is the ended game
    assert [r["ply"] for r in rows] == list(range(start, start - len(rows), -1))
    _passes_only_wolf_positions(rows, positions)
    for r in rows:
        assert r["nodes"] >= 0 and r["tree_positions"] >= 1
        if r["outcome"] == "proved":
            assert r["proof_number"] == 0
        else:
            assert r["proof_number"] > 0 and r["disproof_number"] > 0
    proved = [r["ply"] for r in rows if r["outcome"] == "proved"]
    if not proved:
        assert "earliest" not in tree
        return
    assert tree["earliest"] == min(proved)
    _check_earliest(tree, positions)


def _passes_only_wolf_positions(rows: list[dict[str, Any]], positions: dict[int, str]) -> None:
    """A walk goes on past a position it did not prove only when the wolves move there."""
    for r in rows[:-1]:
        if r["outcome"] != "proved":
            assert parse_position(positions[r["ply"]]).to_move != SHEEP, r


def _check_earliest(part: dict[str, Any], positions: dict[int, str]) -> None:
    """The earliest proof of a sweep: its certificate (inline, checked whole, or a file
    beside the report, 200 random lines checked) is a sheep win from that position."""
    where = part["certificate"]
    assert where is not None
    state = parse_position(positions[part["earliest"]])
    if isinstance(where, str):
        from fleece.solver.ulvtafl.certificate import read_certificates, sample_check

        [cert] = read_certificates(REPORT.parent / where)
        assert cert.winner == "sheep" and cert.root.key == state.key
        assert len(cert.strategy) == part["certificate_positions"]
        assert sample_check(cert.root, "sheep", cert.strategy, 200) > 0
    else:
        assert len(where) == part["certificate_positions"]
        assert check_certificate(state, "sheep", where) > 0


def test_the_tree_stage_walks_back_and_a_resumed_walk_keeps_its_rows(tmp_path: Path) -> None:
    """The tree stage on the report's game near its end: walking back it proves ply after
    ply (its earliest proof's certificate checks, each row is handed on as it is made)
    until its time is spent. Then a run that stops before writing its row (the tree saved at
    the next ply, with work no row counts); resumed from that tree, the walk goes on there,
    keeping the rows before, and the rows count every node, second and leaf search the tree
    holds."""
    from fleece.solver.ulvtafl.tree import ProofTree

    bench = _bench()
    game = _data()["game"]
    positions = {row["ply"]: row["position"] for row in game}
    folder = tmp_path / "tree"

    def fresh(state: Any) -> ProofTree:
        return ProofTree(state, SHEEP, workers=2, leaf_nodes=20_000, leaf_max=80_000,
                         memory="128M", safe_leaves=True, safe_front=True)

    handed: list[int] = []
    first = bench.tree_walk(game, 64, 60, fresh, None, folder, total=4,
                            on_row=lambda rows: handed.append(len(rows)))
    rows = first["rows"]
    assert handed == list(range(1, len(rows) + 1))
    assert rows[0]["ply"] == 64 and len(rows) >= 2
    assert [r["ply"] for r in rows] == list(range(64, 64 - len(rows), -1))
    _passes_only_wolf_positions(rows, positions)
    assert first["earliest"] == min(r["ply"] for r in rows if r["outcome"] == "proved")
    _check_earliest(first, positions)
    # the run that stops before its row, at a wolf position well before the walk's last
    stopped = next(p for p in range(rows[-1]["ply"] - 10, 0, -1)
                   if parse_position(positions[p]).to_move != SHEEP)
    tree = ProofTree.load(folder, workers=2, memory="128M")
    tree.retarget(parse_position(positions[stopped]))
    tree.run(nodes=30_000, folder=folder)
    loaded = ProofTree.load(folder, workers=2, memory="128M")
    assert loaded.work > sum(r["nodes"] for r in rows)  # work no row counts

    def again(state: Any) -> ProofTree:
        assert position_text(state).split(" |")[0] == position_text(loaded.root_state)
        return loaded

    second = bench.tree_walk(game, stopped, 60, again, None, folder, total=4,
                             earlier=rows, resumed_at=stopped)
    assert second["rows"][:len(rows)] == rows
    assert second["rows"][len(rows)]["ply"] == stopped
    for key, total in (("nodes", loaded.work), ("leaf_searches", loaded.leaves)):
        assert sum(r[key] for r in second["rows"]) == total, key
    # the rows' seconds are the tree's own bookkeeping, added up (no clock read here)
    assert math.isclose(sum(r["seconds"] for r in second["rows"]), loaded.seconds,
                        abs_tol=1e-6)
    assert second["earliest"] <= first["earliest"]
    _check_earliest(second, positions)


def test_a_resumed_walk_passes_a_wolf_position_it_did_not_prove() -> None:
    """Resumed at a wolf position the walk ended on unproved, it goes on at the sheep
    position before; at a sheep position, an interrupted one or a new root, it goes on
    there."""
    bench = _bench()
    game = _data()["game"]
    wolf = next(r["ply"] for r in reversed(game[:-1])
                if parse_position(r["position"]).to_move != SHEEP)
    sheep = wolf - 1
    assert parse_position(game[sheep]["position"]).to_move == SHEEP

    def row(ply: int, outcome: str) -> dict[str, Any]:
        return {"ply": ply, "outcome": outcome}

    assert bench.resume_ply(game, wolf, [row(wolf + 1, "proved"), row(wolf, "timeout")]) \
        == sheep
    assert bench.resume_ply(game, wolf, [row(wolf, "interrupted")]) == wolf
    assert bench.resume_ply(game, wolf, [row(wolf + 1, "proved")]) == wolf
    assert bench.resume_ply(game, sheep, [row(sheep, "timeout")]) == sheep


def test_sigterm_stops_the_benchmark_as_ctrl_c_does() -> None:
    """A run in the background is stopped with kill: the benchmark runs main under
    terminate_as_interrupt, where SIGTERM raises KeyboardInterrupt, which the tree stage
    turns into a clean stop (its tree saved, its row written)."""
    import signal

    from fleece.commands.base import terminate_as_interrupt

    source = (ROOT / "benchmarks" / "ulvtafl_horizon.py").read_text(encoding="utf-8")
    assert "    with terminate_as_interrupt():\n        main()" in source
    old = signal.getsignal(signal.SIGTERM)
    with terminate_as_interrupt():
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        with pytest.raises(KeyboardInterrupt):
            handler(signal.SIGTERM, None)
    assert signal.getsignal(signal.SIGTERM) == old


def test_the_horizon_searches_use_the_profile_they_are_given() -> None:
    """horizon() hands its profile to each search: from ply 37 of the report's game, the
    focused search's nodes are those of a Prover with that profile, and the steps and
    mobility profiles search differently; the markdown names a profile other than the
    default in its columns."""
    from fleece.solver.ulvtafl.prover import Prover

    bench = _bench()
    game = _data()["game"][37:]
    state = parse_position(game[0]["position"])
    rows = {}
    for profile in ("mobility", "steps"):
        sweep = bench.horizon(game, bench.FOCUSED, 3_000_000, 20, 2, None, profile)
        rows[profile] = next(r for r in sweep if r["ply"] == 37)
        prover = Prover(state, SHEEP, table_bits=20, safe_only=True, focus=2,
                        profile=profile)
        assert prover.run(nodes=3_000_000) == rows[profile]["outcome"] == "proved"
        assert rows[profile]["nodes"] == prover.nodes
    assert rows["steps"]["nodes"] != rows["mobility"]["nodes"]
    text = bench.markdown({**_data(), "profile": "steps"})
    assert "| focused (radius 2), steps profile |" in text
    assert "| focused (radius 2) |" in bench.markdown(_data())
