"""benchmarks/ulvtafl_wall.py: every wolf reply at a ply of the horizon game searched with
the proofs found so far as seeds, a certificate per proved reply, and once all are proved
a certificate of the ply and of the sheep's move before it, each one the reference rules
accept; a second run keeps what the first found."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers.benchmarks import BENCHMARKS, load_benchmark

from fleece.rules.ulvtafl.notation import parse_position, position_text
from fleece.solver.ulvtafl.certificate import bare, check_certificate, read_certificates

HORIZON = BENCHMARKS.parent / "reports" / "ulvtafl-horizon.json"


def _run(base: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / "ulvtafl_wall.py"), "--ply", "38",
                           "--horizon", str(HORIZON), "--memory", "256M", "--report",
                           str(base), *extra], capture_output=True, text=True, timeout=600,
                          check=False)


def test_the_wall_proves_each_reply_and_composes_the_ply_before(tmp_path: Path) -> None:
    base = tmp_path / "ply38"
    first = _run(base, "--nodes", "3000000")
    assert first.returncode == 0, first.stderr
    data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    game = json.loads(HORIZON.read_text(encoding="utf-8"))["game"]
    state = bare(parse_position(game[38]["position"]))
    assert [r["move"] for r in data["replies"]] == [m.text() for m in state.legal_moves()]
    for r in data["replies"]:
        after = bare(state.play(next(m for m in state.legal_moves() if m.text() == r["move"])))
        assert r["position"] == position_text(after) and r["outcome"] == "proved"
        cert = read_certificates(tmp_path / f"ply38-{r['move'].replace('-', '')}.cert.json.gz")
        assert check_certificate(after, "sheep", cert[0].strategy) == r["proof_size"]
    seeded = [r for r in data["replies"] if r["seeds"]]
    assert seeded and all(r["seeded"] > 0 for r in seeded)  # later searches start seeded
    plies = {c["ply"]: c for c in data["composed"]}
    assert set(plies) == {37, 38}
    for ply, c in plies.items():
        cert = read_certificates(tmp_path / c["certificate"])[0]
        root = bare(parse_position(game[ply]["position"]))
        assert position_text(cert.root) == position_text(root) == c["position"]
        assert check_certificate(root, "sheep", cert.strategy) == c["proof_size"]
    md = base.with_suffix(".md").read_text(encoding="utf-8")
    assert md == load_benchmark("ulvtafl_wall").render(data)
    again = _run(base, "--nodes", "1")  # nothing left to search: the rows stay as found
    assert again.returncode == 0, again.stderr
    kept = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    assert kept["replies"] == data["replies"] and "searching" not in again.stderr


def test_a_reply_left_open_is_not_claimed_and_nothing_is_composed(tmp_path: Path) -> None:
    base = tmp_path / "ply38"
    run = _run(base, "--nodes", "1000", "--epsilon", "0.125")
    assert run.returncode == 0, run.stderr
    data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    assert {r["outcome"] for r in data["replies"]} == {"max-nodes"}
    assert {r["epsilon"] for r in data["replies"]} == {0.125}
    assert "| 1/8 |" in base.with_suffix(".md").read_text(encoding="utf-8")
    assert all(r["proof_number"] > 0 and r["disproof_number"] > 0 for r in data["replies"])
    assert "max-nodes (root pn " in base.with_suffix(".md").read_text(encoding="utf-8")
    assert "composed" not in data and not list(tmp_path.glob("*.cert.json.gz"))
    bad = _run(base, "--ply", "37")
    assert bad.returncode == 2 and "not a wolf-to-move position" in bad.stderr


def test_replies_limits_the_searches_to_the_moves_named(tmp_path: Path) -> None:
    base = tmp_path / "ply38"
    run = _run(base, "--nodes", "3000000", "--replies", "c7-c6")
    assert run.returncode == 0, run.stderr
    rows = {r["move"]: r for r in
            json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))["replies"]}
    assert rows["c7-c6"]["outcome"] == "proved"
    assert {rows[m]["outcome"] for m in rows if m != "c7-c6"} == {"waiting"}
    bad = _run(base, "--replies", "a1-a2")
    assert bad.returncode == 2 and "not a wolf move at ply 38: a1-a2" in bad.stderr
