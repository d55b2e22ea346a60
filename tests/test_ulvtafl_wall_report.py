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


# the quiet plan against the hub wolf (docs/ulvtafl-20-sheep.md): after c7-d7 at ply 32
# the sheep fill a5, a3 and c3, break in with c5-c6 and, when the hub wolf steps into the
# hole, put a sheep on c7 for good; the wolf steps back and the sheep close c5 again
HUB_PLAN = ("c7-d7 a4-a5 d7-e7 b3-a3 e7-d7 c2-c3 d7-e7 d1-c1 e7-d7 "
            "c5-c6 d6-c5 c6-c7 c5-d6 c4-c5")


def test_the_hub_plan_certificate_is_of_the_position_the_plan_reaches_and_wins() -> None:
    data = report_data(REPORT)
    state = parse_position(data["position"])
    for move in HUB_PLAN.split():
        state = state.play(parse_move(move))
    after = bare(state)
    (cert,) = read_certificates(ROOT / "reports" / "ulvtafl-hub-c7.cert.json.gz")
    assert position_text(cert.root) == position_text(after) == \
        "SW./.W./SSSSS.S/.S.SSS./S.SSSSS/..S/S.S w"
    assert cert.winner == "sheep" and len(cert.strategy) == 230_125
    assert sample_check(after, "sheep", cert.strategy, 100) > 0
