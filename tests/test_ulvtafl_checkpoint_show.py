"""`fleece ulvtafl checkpoint show`: a saved search or tree is read without resuming it, and
what it says is what the runs that saved it reported (work, root numbers, each run's end, the
tree's figures); the root numbers over time are kept with the search, a point a minute and
one at each run's end; a damaged or missing checkpoint is one line (exit status 2), and
showing writes nothing."""

from __future__ import annotations

import gzip
import itertools
import json
import os
from pathlib import Path

import numpy as np
import pytest
from helpers.clirun import invoke
from hypothesis import given
from hypothesis import strategies as st

from fleece.api import ulvtafl as api
from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl import prover as prover_module
from fleece.solver.ulvtafl.prover import Prover
from fleece.solver.ulvtafl.tree import ProofTree


def _prove(folder: Path, *extra: str) -> dict[str, object]:
    r = invoke(["ulvtafl", "prove", "--setup", "20", "--max-nodes", "20000", "--memory",
                "64M", "--safe-only", "--focus", "2", "--checkpoint", str(folder),
                *extra, "--json"])
    assert r.exit_code == 1, r.stderr
    report: dict[str, object] = json.loads(r.stdout)
    return report


def test_a_saved_search_shows_what_its_runs_reported(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    first = _prove(folder)
    second = _prove(folder, "--resume")
    listing = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    report = api.checkpoint_status(api.CheckpointRequest(folder=str(folder)))
    assert report.kind == "search" and report.side == "sheep" and report.resumable
    assert report.position == "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"
    assert report.options["safe_only"] is True and report.options["focus"] == 2
    assert report.options["profile"] == "mobility"
    assert report.nodes == second["nodes"] and report.nodes > int(str(first["nodes"]))
    assert (report.proof_number, report.disproof_number) == \
        (second["proof_number"], second["disproof_number"])
    assert [r["nodes"] for r in report.runs] == [first["nodes"], second["nodes"]]
    assert report.history[-1] == report.runs[-1]
    assert isinstance(report.counters, dict) and report.counters["proofs_without_room"] == 0
    loaded = Prover.load(str(folder))  # the counters are the resumed search's own
    c = report.counters
    assert c["deepest_ply"] == loaded.progress_info()["deepest_ply"] > 0
    assert c["table_entries_used"] == round(loaded.fill * loaded.tt.shape[0]) > 0
    assert c["store_entries_used"] == round(loaded.store_fill * loaded.ps.shape[0])
    # reading wrote nothing
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == listing


def test_the_root_numbers_over_time_are_saved_a_point_a_minute(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the minute shortened to nothing, every step of a run leaves a point; the saved
    history keeps the latest HISTORY_POINTS of them and its last point is the run's end."""
    monkeypatch.setattr(prover_module, "HISTORY_EVERY", 0.0)
    monkeypatch.setattr(prover_module, "HISTORY_POINTS", 5)
    p = Prover(parse_position("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"), 1,
               memory="64M")
    p.run(nodes=8 * 1000, step=1000, checkpoint=str(tmp_path / "s"))
    assert len(p.history) == 5
    nodes = [x["nodes"] for x in p.history]
    assert nodes == sorted(nodes) and nodes[-1] == p.nodes == 8000
    assert set(p.history[-1]) == {"nodes", "seconds", "proof_number", "disproof_number",
                                  "table_fill"}
    loaded = Prover.load(str(tmp_path / "s"))
    assert loaded.history == p.history
    shown = api.checkpoint_status(api.CheckpointRequest(folder=str(tmp_path / "s"),
                                                        points=3))
    assert [x["nodes"] for x in shown.history] == [nodes[0], nodes[2], nodes[4]]


def test_a_saved_tree_shows_the_figures_its_run_reported(tmp_path: Path) -> None:
    folder = tmp_path / "tree"
    # the 13-sheep start on tiny leaves: open after 40,000 nodes, with open leaves
    r = invoke(["ulvtafl", "prove", "--setup", "13", "--tree", "--safe-front", "--focus",
                "2", "--leaf-nodes", "1000", "--leaf-max", "2000", "--memory", "64M",
                "--max-nodes", "40000", "--checkpoint", str(folder), "--json"])
    assert r.exit_code == 1, r.stderr
    run = json.loads(r.stdout)
    shown = invoke(["ulvtafl", "checkpoint", "show", str(folder), "--json"])
    assert shown.exit_code == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["kind"] == "tree" and report["position"] == run["position"]
    assert report["nodes"] == run["nodes"]
    assert (report["proof_number"], report["disproof_number"]) == \
        (run["proof_number"], run["disproof_number"])
    t, saved = run["tree"], report["tree"]
    for key in ("tree_nodes", "expanded", "leaf_searches", "proved_leaves",
                "repetition_edges"):
        assert saved[key] == t[key], key
    assert saved["root_moves"] == t["root_moves"]
    assert saved["principal_line"] == [m["move"] for m in t["principal_line"]]
    assert report["options"]["safe_front"] is True and report["options"]["focus_leaves"] == 2
    assert len(report["runs"]) == 1 and report["history"][-1] == report["runs"][-1]
    assert report["history"][-1]["tree_nodes"] == t["tree_nodes"]
    assert report["history"][-1]["proved_leaves"] == t["proved_leaves"]
    saved_file = json.loads(gzip.decompress((folder / "tree.json.gz").read_bytes()))
    assert saved_file["history"][-1]["nodes"] == run["nodes"]  # the tree keeps its own
    work = [x["nodes"] for x in saved["open_leaves"]]
    assert work == sorted(work, reverse=True) and len(work) == 10 and work[-1] > 0
    text = invoke(["ulvtafl", "checkpoint", "show", str(folder), "--leaves", "2"])
    assert text.exit_code == 0, text.stderr
    assert f"tree: {t['tree_nodes']:,} positions, {t['expanded']:,} expanded" in text.stdout
    assert "root numbers over time" in text.stdout
    rows = text.stdout.split("open leaves with the most work\n", 1)[1].splitlines()
    assert len(rows) == 4  # header, rule, the two leaves asked for


def test_a_search_of_another_engine_version_is_shown_but_not_resumable(
        tmp_path: Path) -> None:
    folder = tmp_path / "old"
    _prove(folder)
    target = folder / "search.npz"
    with np.load(target) as data:
        arrays = {k: data[k] for k in data.files}
    info = json.loads(bytes(arrays["meta"]).decode())
    info["engine"] = -1
    arrays["meta"] = np.frombuffer(json.dumps(info).encode(), dtype=np.uint8)
    with open(target, "wb") as handle:
        np.savez(handle, **arrays)
    report = api.checkpoint_status(api.CheckpointRequest(folder=str(folder)))
    assert not report.resumable and report.engine == -1
    text = invoke(["ulvtafl", "checkpoint", "show", str(folder)])
    assert text.exit_code == 0 and "this version cannot resume it" in text.stdout


def test_a_missing_or_damaged_checkpoint_is_one_line(tmp_path: Path) -> None:
    empty = invoke(["ulvtafl", "checkpoint", "show", str(tmp_path)])
    assert empty.exit_code == 2 and empty.stderr.count("\n") == 1
    assert "no saved search there" in empty.stderr
    missing = invoke(["ulvtafl", "checkpoint", "show", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such folder" in missing.stderr
    (tmp_path / "search.npz").write_bytes(b"not a zip")
    broken = invoke(["ulvtafl", "checkpoint", "show", str(tmp_path)])
    assert broken.exit_code == 2 and "unreadable or corrupt checkpoint" in broken.stderr
    os.remove(tmp_path / "search.npz")
    (tmp_path / "tree.json.gz").write_bytes(b"garbage")
    tree = invoke(["ulvtafl", "checkpoint", "show", str(tmp_path)])
    assert tree.exit_code == 2 and "corrupt saved tree" in tree.stderr
    with pytest.raises(FleeceError):
        api.checkpoint_status(api.CheckpointRequest(folder=str(tmp_path), points=0))


def test_a_new_root_starts_its_numbers_over_time_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Walking back along a game (retarget) the points of the old root are not the new
    root's: the history starts again, for one search and for a tree."""
    monkeypatch.setattr(prover_module, "HISTORY_EVERY", 0.0)
    start = parse_position("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w")
    after = parse_position(".WW/.../......./SSSSSSS/SSSSSSS/SSS/SSS s")
    p = Prover(start, 1, memory="64M")
    p.run(nodes=3000, step=1000)
    assert len(p.history) >= 3
    p.retarget(after)
    assert p.history == []
    p.run(nodes=1000, step=1000)
    assert [x["nodes"] for x in p.history] == [p.nodes] * len(p.history)
    tree = ProofTree(start, 1, leaf_nodes=1000, leaf_max=2000, memory="64M")
    tree.run(nodes=4000)
    assert tree.history
    tree.retarget(after)
    assert tree.history == []


def test_a_checkpoint_saved_mid_run_shows_the_search_as_saved(tmp_path: Path) -> None:
    """A save between runs' ends (the periodic checkpoint of a long run) is shown with the
    nodes and root numbers it was saved with, not those of the last run's end."""
    p = Prover(parse_position("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"), 1,
               memory="64M")
    p.run(nodes=2000)
    p.step(3000)  # searched on, outside a run: the trace still ends at 2,000 nodes
    p.save(str(tmp_path / "s"))
    report = api.checkpoint_status(api.CheckpointRequest(folder=str(tmp_path / "s")))
    assert report.runs[-1]["nodes"] < report.nodes == p.nodes
    pn, dn = p.root_numbers()
    assert (report.proof_number, report.disproof_number) == (int(pn), int(dn))


@given(st.integers(0, 400), st.integers(1, 30))
def test_a_history_is_shown_by_evenly_spread_points(length: int, count: int) -> None:
    """`evenly`: as many points as asked (all when fewer), in order, none twice, the last
    always and the first whenever two or more are shown, gaps differing by one at most."""
    points = list(range(length))
    shown = prover_module.evenly(points, count)
    assert len(shown) == min(length, count)
    assert shown == sorted(set(shown))
    if length:
        assert shown[-1] == length - 1
    if length and count >= 2:
        assert shown[0] == 0
    if length > count >= 2:
        gaps = {b - a for a, b in itertools.pairwise(shown)}
        assert max(gaps) - min(gaps) <= 1
