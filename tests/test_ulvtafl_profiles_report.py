"""The committed profiles report (benchmarks/ulvtafl_profiles.py) and the certificate of the
wolves' reply d6-e7 at the horizon game's ply 32: the markdown is the JSON rendered by the
benchmark's own renderer, every row's position is the one it names (the horizon game's
position, or that position after the named wolf move, by the reference rules), and the
certificate is a sheep win of that position on sampled lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.benchmarks import load_benchmark, report_data

from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.certificate import bare, read_certificates, sample_check

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "ulvtafl-profiles"
D6E7 = ROOT / "reports" / "ulvtafl-ply32-d6e7.cert.json.gz"


def _data() -> dict[str, Any]:
    return report_data(REPORT)


def _game() -> dict[int, str]:
    horizon = report_data(ROOT / "reports" / "ulvtafl-horizon")
    return {r["ply"]: r["position"] for r in horizon["game"]}


def test_the_profiles_markdown_is_its_json_rendered() -> None:
    text = load_benchmark("ulvtafl_profiles").render(_data())
    assert REPORT.with_suffix(".md").read_text(encoding="utf-8") == text


def test_every_row_searched_the_position_it_names() -> None:
    game = _game()
    for row in _data()["rows"]:
        case = row["case"]
        if case.startswith("horizon ply "):
            want = bare(parse_position(game[int(case.split()[-1])]))
        elif case.startswith("ply "):
            ply, move = case.removeprefix("ply ").split(", wolves ")
            before = bare(parse_position(game[int(ply)]))
            want = before.play(parse_move(move))
        else:
            want = initial_state(UlvtaflOptions(setup=int(case.split("-")[0])))
        assert row["position"] == position_text(bare(want)), case
        for result in row["results"].values():
            assert (result["outcome"] == "proved") == ("proof_size" in result)


def test_the_d6_e7_certificate_wins_for_the_sheep_on_sampled_lines() -> None:
    """The full check (fleece ulvtafl certificate check) takes minutes; 300 random wolf
    lines against the strategy must each end in a sheep win without a repetition."""
    (cert,) = read_certificates(D6E7)
    game = _game()
    before = bare(parse_position(game[32]))
    after = before.play(parse_move("d6-e7"))
    assert cert.winner == "sheep"
    assert position_text(bare(cert.root)) == position_text(bare(after))
    assert len(cert.strategy) == 740_209
    assert sample_check(cert.root, "sheep", cert.strategy, 300) > 0
