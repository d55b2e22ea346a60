"""The committed 20-sheep horizon report (benchmarks/ulvtafl_horizon.py): its markdown is its
JSON rendered by the benchmark's own renderer, its game is legal move by move under the
reference rules, and every proof it reports comes with a certificate the reference rules
re-check to the stated size."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("mode", ["safe-only", "unrestricted"])
def test_every_reported_proof_has_a_certificate_that_checks(mode: str) -> None:
    """Each proved row's certificate is a sheep strategy the reference rules accept, of the
    stated size; the sweep stops at its first position not proved."""
    data = _data()
    positions = {row["ply"]: row["position"] for row in data["game"]}
    rows = data["horizon"][mode]
    assert rows and all(r["outcome"] == "proved" for r in rows[:-1])
    for row in rows:
        state = parse_position(positions[row["ply"]])
        assert state.to_move == SHEEP
        if row["outcome"] != "proved":
            assert "certificate" not in row and row["nodes"] >= data["nodes"]
            continue
        assert check_certificate(state, "sheep", row["certificate"]) == row["proof_size"]


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
    where = kept["certificate"]
    assert where is not None
    state = parse_position(positions[kept["earliest"]])
    if isinstance(where, str):
        from fleece.solver.ulvtafl.certificate import read_certificates, sample_check

        [cert] = read_certificates(REPORT.parent / where)
        assert cert.winner == "sheep" and cert.root.key == state.key
        assert len(cert.strategy) == kept["certificate_positions"]
        assert sample_check(cert.root, "sheep", cert.strategy, 200) > 0
    else:
        assert len(where) == kept["certificate_positions"]
        assert check_certificate(state, "sheep", where) > 0
