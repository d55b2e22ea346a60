"""The command line on Typer: results and exit statuses through Typer's CliRunner
(`catch_exceptions=False`, so a crash cannot pass for exit status 1), one-line errors through
`fleece.cli.main` (tests/clirun.py), a stopped search as a JSON object, shell completion of
game, engine and deck names, files written with the umask's mode and announced, and reports
that a pipe gets as plain text, never wrapped."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.clirun import invoke
from typer.testing import CliRunner

from fleece.cli import app

ROOT = Path(__file__).resolve().parent.parent
HELPPAGE = str(ROOT / "examples" / "mutton" / "helppage.txt")
TYPO = str(ROOT / "examples" / "mutton" / "typo.txt")
RUNNER = CliRunner()


def run(args: list[str]) -> tuple[int, str]:
    """`fleece ARGS` through Typer's CliRunner: the exit status and standard output."""
    r = RUNNER.invoke(app, args, catch_exceptions=False)
    return r.exit_code, r.stdout


def test_cli_runner_results_and_statuses() -> None:
    """A consistent chart exits 0 with the help page's 219 sets; an inconsistent one exits 1
    with `consistent` false in its JSON: a result, not an error."""
    code, out = run(["mutton", "solve", HELPPAGE, "--json"])
    assert code == 0 and json.loads(out)["count"] == 219
    code, out = run(["mutton", "solve", TYPO, "--json"])
    assert code == 1 and json.loads(out)["consistent"] is False
    code, out = run(["ulvtafl", "board", "--setup", "13", "--json"])
    assert code == 0 and len(json.loads(out)["sheep"]) == 13


def test_a_stopped_search_with_json_is_still_one_json_object(tmp_path: Path) -> None:
    """`mutton solve --engine csp --json --timeout 0.05` on a chart of 14,950 consistent
    sets (about 2.4 s of csp work) prints a JSON object saying it stopped, and its one line
    on standard error; exit status 1."""
    path = tmp_path / "m.txt"
    path.write_text("Sheep   : " + " ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "\n")
    r = invoke(["mutton", "solve", str(path), "--engine", "csp", "--json", "--timeout",
                "0.05"])
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["stopped"] is True and data["limit"] == 0.05
    assert data["reason"].startswith("no answer within 0.05 s")
    assert r.stderr == f"fleece: stopped: {data['reason']}\n"


def test_usage_errors_are_one_line_with_the_command_and_option() -> None:
    for args, line in (
            (["mutton", "solve", HELPPAGE, "--wolves", "x"],
             "fleece: error: fleece mutton solve: --wolves/-k: 'x' is not a whole number"),
            (["mutton", "solve"], "fleece: error: fleece mutton solve: missing argument 'file'."),
            (["cards", "war", "analyse", "--order", "up"],
             "fleece: error: fleece cards war analyse: --order: 'up' is not one of "
             "winner-first, loser-first, random"),
            (["mutton", "solve", HELPPAGE, "--engine", "magic"],
             "fleece: error: --engine magic: choose one of fast, csp, smt"),
            (["cards", "concentration", "solve", "--deck", "pairs:40", "--max-states", "9"],
             "fleece: error: 12,341 positions, more than the exact solver's budget of 9 (raise "
              "--max-states)"),
            (["nope"], "fleece: error: unknown command 'nope' (choose from mutton, woof, "
                       "ulvtafl, cards, verify, serve)")):
        r = invoke(args)
        assert (r.exit_code, r.stdout, r.stderr) == (2, "", line + "\n"), args


def test_ulvtafl_wolf_points_are_named_and_counted_in_words() -> None:
    """A bad point is named before the count is checked; the count says 'wolves'."""
    r = invoke(["ulvtafl", "board", "--wolf", "z9"])
    assert (r.exit_code, r.stderr) == (
        2, "fleece: error: --wolf: 'z9' is not a point of the board (U8)\n")
    r = invoke(["ulvtafl", "board", "--wolf", "d4"])
    assert r.stderr == ("fleece: error: --wolf: the 20-sheep setup has 2 wolves, 1 start "
                        "point given\n")
    r = invoke(["ulvtafl", "board", "--setup", "13", "--wolf", "d4", "--wolf", "d5"])
    assert r.stderr == ("fleece: error: --wolf: the 13-sheep setup has 1 wolf, 2 start "
                        "points given\n")


def test_svg_is_announced_and_written_with_the_umask(tmp_path: Path) -> None:
    """--svg says what it wrote (standard error; standard output stays the result) and the
    file gets the mode the umask gives a new file, as --junit and reports do."""
    old = os.umask(0o022)
    try:
        svg = tmp_path / "board.svg"
        r = invoke(["mutton", "solve", HELPPAGE, "--svg", str(svg), "--json"])
        assert r.exit_code == 0 and json.loads(r.stdout)["count"] == 219
        assert r.stderr == f"fleece: wrote {svg} (SVG picture of the board)\n"
        assert stat.S_IMODE(svg.stat().st_mode) == 0o644
        assert svg.read_text().startswith("<svg")
        r = invoke(["mutton", "solve", HELPPAGE, "--svg", str(svg)])
        assert r.exit_code == 2 and "already exists (use --force to overwrite)" in r.stderr
        os.umask(0o027)
        board = tmp_path / "ulv.svg"
        assert invoke(["ulvtafl", "board", "--svg", str(board)]).exit_code == 0
        assert stat.S_IMODE(board.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_a_piped_report_is_plain_text_never_wrapped() -> None:
    """Through a pipe (the real entry point, COLUMNS=40): no box-drawing characters, no
    escape codes, and the long advice line is not wrapped at 40 (or 80) columns."""
    env = {**os.environ, "COLUMNS": "40"}
    proc = subprocess.run([sys.executable, "-m", "fleece", "mutton", "solve", HELPPAGE],
                          capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert proc.returncode == 0
    assert "\x1b" not in proc.stdout and "\u2503" not in proc.stdout
    advice = next(ln for ln in proc.stdout.splitlines() if ln.startswith("  shoot C now:"))
    assert len(advice) > 80 and advice.endswith("V, Y, Z}: 14.0")
    assert "animal  status" in proc.stdout


@pytest.mark.parametrize("words,expected", [
    (["fleece", "mu"], ["mutton"]),
    (["fleece", "mutton", "solve", "x", "--engine", ""], ["fast", "csp", "smt"]),
    (["fleece", "woof", "solve", "x", "-e", "s"], ["smt"]),
    (["fleece", "verify", "--game", ""], ["mutton", "woof", "ulvtafl", "cards"]),
    (["fleece", "cards", "deck", "--deck", ""], ["wolf", "pairs:"]),
    (["fleece", "cards", "war", "analyse", "--order", "w"], ["winner-first"]),
    (["fleece", "mutton", "match", "--wolf", ""], ["fleece", "random", "v2"]),
    (["fleece", "mutton", "match", "--against", "f"], ["fleece"]),
])
def test_shell_completion_names_games_engines_and_decks(words: list[str],
                                                        expected: list[str]) -> None:
    """Bash completion through the real entry point (what `--install-completion` sets up)."""
    env = {**os.environ, "_FLEECE_COMPLETE": "complete_bash",
           "COMP_WORDS": " ".join(words), "COMP_CWORD": str(len(words) - 1)}
    proc = subprocess.run([sys.executable, "-m", "fleece"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=ROOT)
    assert proc.stdout.split() == expected, proc.stderr


def test_show_completion_prints_the_script() -> None:
    """`--show-completion bash` (Typer's detection of the parent shell switched off: under a
    test runner there is none to detect)."""
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    proc = subprocess.run([sys.executable, "-m", "fleece", "--show-completion", "bash"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert proc.returncode == 0
    assert "complete -o default -F _fleece_completion fleece" in proc.stdout


def test_verify_writes_nothing_unless_asked(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`fleece verify` without --report writes no file (it used to fill ./reports); with it,
    the two files, announced on standard error."""
    monkeypatch.chdir(tmp_path)
    args = ["verify", "--game", "cards", "--quick", "--section", "termination"]
    r = invoke(args)
    assert r.exit_code == 1 and "FAIL: 3 rules gap(s) not accepted" in r.stdout
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "out").mkdir()
    r = invoke([*args, "--report", "out"])
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "verification-cards.json", "verification-cards.md"]
    assert "fleece: wrote out/verification-cards.md\n" in r.stderr
