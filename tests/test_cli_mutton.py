"""The `fleece mutton` commands through the real entry point: output, JSON, exit statuses, and
one-line errors (never a traceback) on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples" / "mutton"


def fleece(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fleece", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fleece: error: "), proc.stderr
    return lines[0]


def test_board_default_is_the_sparse_layout() -> None:
    out = fleece("mutton", "board")
    assert out.returncode == 0
    assert "       a-  A B C D   / 7" in out.stdout and "       g-  W X Y Z" in out.stdout


def test_board_random_is_seeded() -> None:
    a = fleece("mutton", "board", "--layout", "random", "--seed", "3", "--size", "5")
    b = fleece("mutton", "board", "--layout", "random", "--seed", "3", "--size", "5")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert sum(ch.isupper() for ch in a.stdout) == 26


def test_chart_normalizes_the_help_page_paste() -> None:
    out = fleece("mutton", "chart", str(EX / "helppage.txt"))
    assert out.returncode == 0
    assert "\u00a0" not in out.stdout
    assert "Score: 5 (10 to beat)." in out.stdout
    assert "Sheep   : A B C x E F G x I x K L M N O P Q R x T U V x X Y Z" in out.stdout


def test_chart_json_from_stdin() -> None:
    text = (EX / "helppage.txt").read_text(encoding="utf-8")
    out = fleece("mutton", "chart", "-", "--json", stdin=text)
    data = json.loads(out.stdout)
    assert [(r["victim"], r["runners"]) for r in data["rows"]] == [
        ("H", ["F", "J", "V"]), ("J", ["C", "D", "S"]), ("W", ["D", "F", "L", "N", "Z"])]
    assert data["status"]["D"] == "dead sheep" and data["status"]["C"] == "alive"
    assert data["board"]["corpses"] == ["c3"]


def test_replay_match_record() -> None:
    out = fleece("mutton", "replay", str(EX / "match-sparse.rec"))
    assert out.returncode == 0, out.stderr
    assert "Game 1 (Wolf: Player 1)" in out.stdout and "Game 2 (Wolf: Player 2)" in out.stdout
    assert "Match over: Player 1 22, Player 2 20; Player 1 wins." in out.stdout
    data = json.loads(fleece("mutton", "replay", str(EX / "match-sparse.rec"),
                             "--json").stdout)
    assert data["totals"] == {"Player 1": 22, "Player 2": 20}
    assert data["games"][1]["score"] == 20


@pytest.mark.parametrize(
    ("name", "ending"),
    [
        ("quick-shotgun.rec", "Quick play: the Wolf (Player 1) scored 18, needing 11; "
                              "Player 1 wins."),
        ("no-reveal-escape.rec", "game in progress, round 5, Wolf to move."),
    ],
)
def test_replay_other_examples(name: str, ending: str) -> None:
    out = fleece("mutton", "replay", str(EX / name))
    assert out.returncode == 0, out.stderr
    assert "Sheep   :" in out.stdout
    assert out.stdout.strip().endswith(ending)


def test_replay_stops_at_the_illegal_move() -> None:
    line = one_line_error(fleece("mutton", "replay", str(EX / "illegal.rec")))
    assert "illegal.rec, line 12, column 1: illegal move 'B:J-d4,M-b1,Q-b2'" in line
    assert "J cannot run to d4: it is next to B (M9)" in line


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (["mutton", "chart", "missing.txt"], None, "No such file"),
        (["mutton", "chart", "-"], "Sheep   : A B\nRound  1:   x +\n",
         "line 2, column 13: victim B is shown alive"),
        (["mutton", "chart", "-"], "hello\n", "line 1, column 1"),
        (["mutton", "replay", "-"], "-size=4\nsparse\nwolves=ABCD\nZ:A-a1\n", "line 4"),
        (["mutton", "replay", "-"], "-size=12\n", "size must be in 2..8"),
        (["mutton", "replay", "-"], "sparse\n", "options line"),
        (["mutton", "board", "--size", "2"], None, "do not fit"),
        (["mutton", "board", "--layout", "zz"], None, "--layout"),
    ],
)
def test_bad_input_gives_one_line_and_status_2(args: list[str], stdin: str | None,
                                                fragment: str) -> None:
    assert fragment in one_line_error(fleece(*args, stdin=stdin))


def test_solve_with_an_escaped_wolf_off_the_board() -> None:
    paste = (EX / "helppage.txt").read_text(encoding="utf-8").replace("U C Q R", "U C Q .")
    # R escaped (3 points), so the paste's score line (5) would contradict it: drop it.
    paste = paste.replace("Score: 5 (10 to beat).", "")
    out = fleece("mutton", "solve", "-", "--escaped", "R", "--json", stdin=paste)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["certain_wolves"] == ["C", "R"]
    assert data["probabilities"]["R"] == 1.0
