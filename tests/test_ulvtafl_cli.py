"""`fleece ulvtafl ...` end to end (in-process): board, replay, perft, solve and play on the
bundled examples; bad input is one line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.clirun import invoke

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ulvtafl"
# Seconds a search may take here: these searches finish in well under a second on a quiet
# machine; the budget only bounds a run on a loaded one (the first call also compiles).
SLACK = "600"


def test_board_prints_the_diagram_and_json() -> None:
    r = invoke(["ulvtafl", "board"])
    assert r.exit_code == 0 and r.stdout.startswith("7          W---o---W")
    assert "position: W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w" in r.stdout
    data = json.loads(invoke(["ulvtafl", "board", "--setup", "13", "--json"]).stdout)
    assert data["position"] == ".W./.../......./......./SSSSSSS/SSS/SSS w"
    assert data["to_move"] == "wolves" and len(data["sheep"]) == 13
    assert sorted(data["legal_moves"]) == ["d7-c7", "d7-d6", "d7-e7"]  # d7: no diagonals


def test_board_svg_is_written_once(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert invoke(["ulvtafl", "board", "--svg", str(out)]).exit_code == 0
    assert out.read_text().startswith("<svg")
    again = invoke(["ulvtafl", "board", "--svg", str(out)])
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert invoke(["ulvtafl", "board", "--svg", str(out), "--force"]).exit_code == 0


def test_replay_a_whole_game_and_stop_at_an_illegal_move() -> None:
    r = invoke(["ulvtafl", "replay", str(EXAMPLES / "full-game.rec")])
    assert r.exit_code == 0 and "134 moves replayed" in r.stdout
    assert "the sheep win - all 9 paddock points are occupied (U5)" in r.stdout
    bad = invoke(["ulvtafl", "replay", str(EXAMPLES / "illegal.rec")])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr == (f"fleece: error: {EXAMPLES / 'illegal.rec'}, line 7, column 1: "
                          "illegal move d5-d4: sheep may not move backward (U3)\n")
    data = json.loads(invoke(["ulvtafl", "replay", str(EXAMPLES / "full-game.rec"),
                              "--json"]).stdout)
    assert data["plies"] == 134 and data["final"]["result"] == "sheep"


def test_perft_counts() -> None:
    """U10: 6 and 78 from the 20-sheep start."""
    data = json.loads(invoke(["ulvtafl", "perft", "3", "--json", "--timeout", SLACK]).stdout)
    assert data["counts"] == [6, 78, 424]
    r = invoke(["ulvtafl", "perft", "2", "--setup", "13", "--timeout", SLACK])
    assert r.exit_code == 0 and "perft(2) = 39" in r.stdout


def test_solve_examples() -> None:
    data = json.loads(invoke(["ulvtafl", "solve", str(EXAMPLES / "trapped.txt"),
                              "--json", "--timeout", SLACK]).stdout)
    assert data["value"] == "sheep" and data["best_move"] == "c7-c6"
    r = invoke(["ulvtafl", "solve", str(EXAMPLES / "draw.txt"), "--timeout", SLACK])
    assert r.exit_code == 0 and "value: draw" in r.stdout
    rec = invoke(["ulvtafl", "solve", str(EXAMPLES / "full-game.rec"), "--json",
                  "--timeout", SLACK])
    assert json.loads(rec.stdout)["value"] == "sheep"


def test_solve_stops_at_the_budget_with_unknown() -> None:
    r = invoke(["ulvtafl", "solve", "--setup", "13", "--max-nodes", "20000", "--json"])
    data = json.loads(r.stdout)
    # a search stopped by its budget is a result without a value: exit status 1 (cli.py)
    assert r.exit_code == 1 and data["value"] == "unknown" and data["best_move"] is None
    assert data["stopped"] == "max-nodes" and data["nodes"] <= 20_100
    text = invoke(["ulvtafl", "solve", "--setup", "20", "--max-nodes", "20000"])
    assert text.exit_code == 1
    assert "value: unknown - the budget ran out (max-nodes)" in text.stdout


def test_play_reads_moves_from_stdin_until_quit_or_eof() -> None:
    r = invoke(["ulvtafl", "play", "--setup", "13", "--think", "0.2"],
               stdin="c3-c4\nnonsense\nd3-d2\nquit\n")
    assert r.exit_code == 0
    assert "solver plays" in r.stdout and "not played:" in r.stdout
    assert "sheep may not move backward (U3)" in r.stdout
    assert r.stdout.rstrip().endswith("game stopped")
    eof = invoke(["ulvtafl", "play", "--side", "wolves", "--setup", "13", "--think", "0.2"],
                 stdin="")
    assert eof.exit_code == 0 and "end of input" in eof.stdout


@pytest.mark.parametrize("args", [
    ["ulvtafl", "perft", "0"],
    ["ulvtafl", "perft", "99"],
    ["ulvtafl", "perft", "\uff13"],
    ["ulvtafl", "solve", "--max-nodes", "-5"],
    ["ulvtafl", "solve", "--timeout", "1e9"],
    ["ulvtafl", "solve", "--timeout", "nan"],
    ["ulvtafl", "board", "--setup", "14"],
    ["ulvtafl", "board", "--position", "W.W/\x1b[2J w"],
    ["ulvtafl", "board", "--setup", "13", "--wolf", "a3"],
    ["ulvtafl", "board", "--setup", "13", "--position", "x"],
    ["ulvtafl", "solve", "nonexistent-file.txt"],
    ["ulvtafl", "play", "--side", "goats"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    r = invoke(args)
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and r.stderr.count("\n") == 1 and r.stderr.startswith("fleece: error:")
    assert "\x1b" not in r.stderr and "Traceback" not in r.stderr


def test_a_bad_position_file_names_its_line_and_column(tmp_path: Path) -> None:
    """A position file may start with comments and blank lines and indent its position: the
    error points at the line the position is on and the column within that line."""
    path = tmp_path / "p.txt"
    path.write_text("# a comment\n\n   W.W/.../......./SSSSSSS/SSSSSSS/SSS/SXS w  # start\n",
                    encoding="utf-8")
    r = invoke(["ulvtafl", "solve", str(path)])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"fleece: error: {path}, line 3, column 41: 'X' at d1: expected S, W "
                        "or . (U8)\n")
