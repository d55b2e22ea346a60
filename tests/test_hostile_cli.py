"""Hostile input on the command line: every case of the committed corpus (tests/hostile/
cases.txt, files written by tests/hostile/make_corpus.py) exits with status 2 and prints
exactly one line `fleece: error: ...` of at most 300 printable characters naming what is
wrong - never a traceback, "internal error", a hang or a usage box (Typer's or Click's).

The cases run in this process (tests/helpers/clirun.py's way, with standard input given as bytes so
that files and `-` are read alike); a few run through the real `fleece` entry point."""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from fleece.cli import MAX_MESSAGE, main

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"


@dataclass(frozen=True)
class Case:
    """One line of cases.txt."""

    name: str
    args: tuple[str, ...]
    phrase: str


def load_cases() -> list[Case]:
    """Every case of tests/hostile/cases.txt."""
    cases = []
    for raw in (HOSTILE / "cases.txt").read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        name, args, phrase = (part.strip() for part in raw.split(" | ", 2))
        cases.append(Case(name, tuple(shlex.split(args)), phrase))
    return cases


CASES = load_cases()


def run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """`fleece ARGS` in this process with `stdin` as a byte stream; (status, out, err)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(args)
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def expand(case: Case, tmp: Path) -> tuple[list[str], bytes | None]:
    """The case's arguments with placeholders filled, and its standard input."""
    words = [w.replace("{H}", str(HOSTILE / "files")).replace("{EX}", str(ROOT / "examples"))
             .replace("{tmp}", str(tmp)).replace("{NL}", "\n").replace("{NUL}", "\0")
             for w in case.args]
    stdin = None
    if "<" in words:
        k = words.index("<")
        with open(words[k + 1], "rb") as handle:
            stdin = handle.read(11 * 1024 * 1024)
        words = words[:k] + words[k + 2:]
    return words, stdin


def assert_one_error_line(err: str, phrase: str) -> None:
    """Exactly one printable line `fleece: error: ...`, short, containing `phrase`."""
    lines = err.split("\n")
    assert len(lines) == 2 and lines[1] == "", err
    line = lines[0]
    assert line.startswith("fleece: error: "), line
    assert len(line) <= MAX_MESSAGE and line.isprintable(), line
    assert phrase in line, line


def test_every_case_is_unique_and_its_file_exists() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 60
    for case in CASES:
        for word in case.args:
            if word.startswith("{H}/"):
                assert (HOSTILE / "files" / word[4:]).exists(), word


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_hostile_input_is_one_error_line(case: Case, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine\n", encoding="utf-8")
    args, stdin = expand(case, tmp_path)
    code, out, err = run(args, stdin)
    assert code == 2, (code, out, err)
    assert out == ""
    assert_one_error_line(err, case.phrase.replace("{tmp}", str(tmp_path)))
    # nothing was written where the pack would have gone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]


def test_the_real_entry_point_prints_one_line(tmp_path: Path) -> None:
    """Through the installed console script: a file name with a line break, /dev/zero on
    standard input, and usage errors stay one line each."""
    name = tmp_path / "a\nb\x1b.txt"
    cases = [
        (["fleece", "mutton", "solve", str(name)], None, "a\\nb\\x1b.txt: No such file"),
        (["fleece", "woof", "solve", "-"], "/dev/zero", "<stdin>: larger than 10 MB"),
        (["fleece", "mutton", "solve", "--wolves", "many", "x"], None, "'many' is not a whole"),
        (["fleece", "mutton", "board", "--size", "٥"], None, "is not a whole number"),
    ]
    for argv, stdin, phrase in cases:
        with open(stdin or "/dev/null", "rb") as handle:
            proc = subprocess.run(argv, stdin=handle, capture_output=True, text=True,
                                  timeout=60)
        assert proc.returncode == 2, proc
        assert proc.stdout == ""
        assert_one_error_line(proc.stderr, phrase)


def test_a_bom_and_crlf_are_read_the_same_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    """A UTF-8 BOM and CR LF line ends are accepted from `-` exactly as from a file."""
    text = (ROOT / "examples" / "mutton" / "typo.txt").read_text(encoding="utf-8")
    data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    path = tmp_path / "bom.txt"
    path.write_bytes(data)
    from_file = run(["mutton", "chart", str(path), "--json"])
    from_stdin = run(["mutton", "chart", "-", "--json"], data)
    plain = run(["mutton", "chart", str(ROOT / "examples" / "mutton" / "typo.txt"), "--json"])
    assert from_file[0] == from_stdin[0] == plain[0] == 0
    assert from_file[1] == from_stdin[1] == plain[1]


def test_help_inside_a_group_is_help_not_an_error() -> None:
    """`-h` anywhere in a group prints that command's help and exits 0, also where a help
    text holds a literal `%` ("95% intervals")."""
    for args in (["mutton", "puzzle", "-h"], ["mutton", "puzzle", "generate", "-h"],
                 ["woof", "solve", "-h", "x"], ["mutton", "solve", "-h"],
                 ["cards", "war", "-h"], ["cards", "herd", "simulate", "-h"],
                 ["cards", "war", "analyse", "--help"]):
        code, out, err = run(args)
        assert (code, err) == (0, ""), (args, err)
        assert out.startswith("Usage: fleece "), out
    code, out, _ = run(["cards", "war", "analyse", "--help"])
    assert "Monte Carlo estimate (--samples N) with 95% intervals" in " ".join(out.split())


def test_a_group_without_a_command_is_one_error_line() -> None:
    """`fleece mutton puzzle` names a group and no command: one line listing the commands,
    exit 2 (the top level alone prints its help)."""
    code, out, err = run(["cards", "war"])
    assert (code, out) == (2, "")
    assert_one_error_line(err, "fleece cards war: missing command (choose from play, analyse)")
    code, out, err = run([])
    assert (code, err) == (0, "") and out.startswith("Usage: fleece ")


@pytest.mark.parametrize("engine", ["fast", "csp", "smt"])
def test_an_inconsistent_position_is_a_result_not_an_input_error(engine: str,
                                                                 tmp_path: Path) -> None:
    """A well-formed chart or evidence that no hidden assignment fits is a result: exit
    status 1 with the explanation on standard output (text and --json), never exit 2, with
    every engine; so is a puzzle whose header admits no answer (Mutton's 'Wolves: 1' under a
    chart where a wolf ate a wolf)."""
    ex = ROOT / "examples"
    for args, words in (
            (["mutton", "solve", str(ex / "mutton" / "typo.txt")], "Inconsistent"),
            (["mutton", "solve", str(ex / "mutton" / "wolf-ate-wolf.txt"), "--wolves", "1"],
             "Inconsistent: no set of 1 wolves fits this chart"),
            (["woof", "solve", str(ex / "woof" / "contradiction.txt")],
             "The evidence is contradictory")):
        code, out, err = run([*args, "--engine", engine])
        assert (code, err) == (1, ""), (args, code, err)
        assert words in out
        code, out, err = run([*args, "--engine", engine, "--json"])
        assert (code, err) == (1, ""), (args, code, err)
        assert json.loads(out)["consistent"] is False
    text = (ROOT / "puzzles" / "mutton" / "hard" / "001.txt").read_text(encoding="utf-8")
    path = tmp_path / "one-wolf.txt"
    path.write_text(re.sub(r"(?m)^Wolves: *[0-9]+", "Wolves: 1", text), encoding="utf-8")
    code, out, err = run(["mutton", "solve", str(path), "--engine", engine])
    assert (code, err) == (1, "") and "Inconsistent: no set of 1 wolves" in out
    code, out, err = run(["mutton", "puzzle", "check", str(path)])
    assert (code, err) == (1, "") and "answer: NONE (no wolf set fits the chart, z3)" in out
