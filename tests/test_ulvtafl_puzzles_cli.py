"""`fleece ulvtafl puzzle generate|check`: a fresh pack round-trips through the check, a false
claim is exit status 1 with its reason, a damaged file is one line with its line and column
(exit status 2), and --json is the list of verdicts."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.clirun import invoke

from fleece.solver.puzzles.ulvtafl import parse_puzzles

PACK = Path(__file__).resolve().parent.parent / "puzzles" / "ulvtafl"


def test_generate_then_check_round_trips(tmp_path: Path) -> None:
    made = invoke(["ulvtafl", "puzzle", "generate", "--grade", "easy", "--count", "2",
                   "--seed", "3"])
    assert made.exit_code == 0, made.stderr
    puzzles = parse_puzzles(made.stdout, "stdout")
    assert len(puzzles) == 2 and all(p.grade is not None and p.grade.label == "easy"
                                     for p in puzzles)
    path = tmp_path / "two.txt"
    path.write_text(made.stdout, encoding="utf-8")
    checked = invoke(["ulvtafl", "puzzle", "check", str(path), "--json"])
    assert checked.exit_code == 0, checked.stderr
    verdicts = json.loads(checked.stdout)
    assert [v["position"] for v in verdicts] == [p.position for p in puzzles]
    assert [(v["winner"], v["plies"], v["solution"], v["grade"], v["sound"]) for v in verdicts] \
        == [(p.side, p.plies, list(p.solution), "easy", True) for p in puzzles]


def test_generate_into_a_folder_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    first = invoke(["ulvtafl", "puzzle", "generate", "--count", "1", "--seed", "3",
                    "--out", str(out), "--json"])
    assert first.exit_code == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["count"] == 1 and report["files"] == [str(out / "001.txt")]
    assert (out / "001.json").is_file() and (out / "001.solution.txt").is_file()
    again = invoke(["ulvtafl", "puzzle", "generate", "--count", "1", "--seed", "3",
                    "--out", str(out)])
    assert again.exit_code == 2 and again.stderr.count("\n") == 1
    assert "--force" in again.stderr or "exists" in again.stderr


def test_a_false_claim_is_exit_1_with_the_reason(tmp_path: Path) -> None:
    text = (PACK / "medium" / "001.txt").read_text(encoding="utf-8")
    claim = next(line for line in text.splitlines() if line.startswith("Claim:"))
    plies = int(claim.split()[-2])
    wrong = text.replace(claim, claim.replace(f"in {plies} plies", f"in {plies + 2} plies"))
    path = tmp_path / "wrong.txt"
    path.write_text(wrong, encoding="utf-8")
    result = invoke(["ulvtafl", "puzzle", "check", str(path)])
    assert result.exit_code == 1
    assert "N is not exact: the sheep win in" in result.stdout
    assert "result: NOT SOUND" in result.stdout
    verdict = json.loads(invoke(["ulvtafl", "puzzle", "check", str(path), "--json"]).stdout)
    assert verdict[0]["sound"] is False and verdict[0]["plies"] == plies


def test_a_damaged_file_names_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("Position: SSS/SSS/S..S..S/..W..../....W../.../... s\n"
                    "Claim: sheep to move and win in seven plies\n", encoding="utf-8")
    result = invoke(["ulvtafl", "puzzle", "check", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"fleece: error: {path}, line 2, column ")


def test_bad_options_are_one_line() -> None:
    for args in (["--grade", "grandmaster"], ["--count", "0"], ["--grade", "all"]):
        result = invoke(["ulvtafl", "puzzle", "generate", *args])
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("fleece: error: ") and result.stderr.count("\n") == 1
