"""The committed wall report (reports/ulvtafl-ply32): its markdown is its JSON rendered,
each row is the position after its wolf reply at the game's ply, and each reply it calls
proved has a certificate beside it that wins on sampled lines from that position (the
whole check is `fleece ulvtafl certificate check FILE`)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.benchmarks import load_benchmark, report_data

from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import bare, read_certificates, sample_check

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "ulvtafl-ply32"


def test_the_wall_markdown_is_its_json_rendered() -> None:
    text = load_benchmark("ulvtafl_wall").render(report_data(REPORT))
    assert REPORT.with_suffix(".md").read_text(encoding="utf-8") == text


def test_each_row_is_its_reply_and_each_proof_has_a_certificate_that_wins() -> None:
    data = report_data(REPORT)
    game = json.loads((ROOT / "reports" / "ulvtafl-horizon.json").read_text(
        encoding="utf-8"))["game"]
    state = bare(parse_position(game[data["ply"]]["position"]))
    assert data["position"] == position_text(state)
    assert sorted(r["move"] for r in data["replies"]) == \
        sorted(m.text() for m in state.legal_moves())
    proved = 0
    for r in data["replies"]:
        after = bare(state.play(parse_move(r["move"])))
        assert r["position"] == position_text(after)
        path = REPORT.parent / f"{REPORT.name}-{r['move'].replace('-', '')}.cert.json.gz"
        assert path.exists() == (r["outcome"] == "proved")
        if r["outcome"] == "proved":
            cert = read_certificates(path)[0]
            assert position_text(cert.root) == r["position"] and cert.winner == "sheep"
            assert sample_check(after, "sheep", cert.strategy, 100) > 0
            proved += 1
    assert proved >= 3  # d6-c6, d6-d7 and d6-e7 at least
    assert ("composed" in data) == (proved == len(data["replies"]))
