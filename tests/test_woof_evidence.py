"""Woof!! evidence files: parsing, errors naming line and column, writer round trip, warnings,
and the `fleece woof solve` command end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.woof_strategies import evidence_about
from hypothesis import given

from fleece.rules.errors import ParseError
from fleece.rules.woof.cards import BASIC_CARDS, PRESET_DECKS, Character, QuestionCard, parse_card
from fleece.rules.woof.evidence import (
    AskFact,
    Evidence,
    LookFact,
    SawFact,
    format_evidence,
    load_evidence,
    parse_evidence,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "woof"

ISSUE_EXAMPLE = """\
seats 5                     # players, 4..8; with 4 a dummy seat 5 is added
deck sheep sheep sheep dog hunter hunter hunter? shepherd? wolf wolf   # or: deck basic
me 4                        # whose point of view (optional)
hand 4 sheep sheep          # a seat's two cards, when known
look 1 4 sheep              # seat 1 looked at a card of seat 4 and announced sheep
look 3 2 ?                  # ... announced "don't know"
saw 4 5 dog?                # seat 4 looked at seat 5 and saw exactly this card
ask 4 3 q1 yes              # seat 4 asked seat 3 question q1; the answer was yes
"""


def test_issue_example_parses() -> None:
    ev = parse_evidence(ISSUE_EXAMPLE)
    assert ev.players == 5 and ev.table.seats == 5 and ev.me == 4 and len(ev.deck) == 10
    assert ev.facts[1] == LookFact(1, 4, Character.SHEEP)
    assert ev.facts[1].line == 5
    assert ev.facts[2] == LookFact(3, 2, None)
    assert ev.facts[3] == SawFact(4, 5, parse_card("dog?"))
    assert ev.facts[4] == AskFact(4, 3, QuestionCard.Q1, True)
    assert parse_evidence(format_evidence(ev)) == ev


def test_decks() -> None:
    assert parse_evidence("seats 8").deck == BASIC_CARDS
    ev = parse_evidence("seats 4\ndeck preset")
    assert ev.table.dummy == 5 and ev.deck == PRESET_DECKS[5] and ev.notes  # labelled
    ev = parse_evidence("seats 8\ndeck basic expert")
    assert len(ev.deck) == 20 and any("not dealt" in n for n in ev.notes)
    assert len(parse_evidence("seats 5\ndeck sheep*4 hunter*3 wolf*3").deck) == 10


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("seats 9", 1, 7, "4 to 8 players"),
    ("seats five", 1, 7, "must be a whole number"),
    ("seats 8\nseats 8", 2, 1, "second `seats`"),
    ("seats 8\nlook 1 2", 2, 9, "expected `look"),
    ("seats 8\nlook 1 2 goat", 2, 10, "unknown announcement"),
    ("seats 8\nlook 1 1 wolf", 2, 8, "own cards"),
    ("seats 8\nlook 9 1 wolf", 2, 6, "does not exist"),
    ("seats 8\nhand 1 sheep goat", 2, 14, "unknown card"),
    ("seats 8\nhand 1 sheep@goat wolf", 2, 8, "unknown appearance"),
    ("seats 8\nask 1 2 q6 yes", 2, 9, "unknown question"),
    ("seats 8\nask 1 2 q1 maybe", 2, 12, "yes or no"),
    ("seats 4\ndeck preset\nask 1 5 q1 yes", 3, 7, "dummy seat"),
    ("seats 4\ndeck preset\nlook 5 1 wolf", 3, 6, "dummy seat"),
    ("seats 4\ndeck preset\nme 5", 3, 4, "dummy seat"),
    ("seats 8\nwhat 1 2", 2, 1, "unknown keyword"),
    ("seats 6\ndeck sheep*3", 2, 6, "the deck has 3 cards"),
    ("seats 8\ndeck sheep*x", 2, 6, "copy count"),
])
def test_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_evidence(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert words in err.value.message


def test_missing_lines() -> None:
    with pytest.raises(ParseError, match="missing `seats"):
        parse_evidence("# nothing\n")
    with pytest.raises(ParseError, match="deck for 6 seats is not known"):
        parse_evidence("seats 6\n")
    with pytest.raises(ParseError, match=r"^game\.txt, line 1"):
        load_evidence("seats 2", "game.txt")


def test_warnings_expose_token_gaps() -> None:
    ev = parse_evidence("seats 8\n" + "look 1 2 wolf\n" * 4 + "ask 3 4 q5 no\n" * 3)
    warnings = " ".join(ev.warnings())
    assert "W11" in warnings and "holds 2 question cards" in warnings
    assert "only 2 such cards" in warnings


@given(evidence_about(min_players=4, max_players=8, extra=2, max_facts=12))
def test_writer_round_trip(case: tuple[Evidence, object]) -> None:
    ev, _ = case
    text = format_evidence(ev)
    again = parse_evidence(text)
    assert again == ev
    assert format_evidence(again) == text


# ---- the command -------------------------------------------------------------------------


def fleece(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fleece", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_solve_examples_json() -> None:
    """`woof solve --json` prints the library's analysis exactly; on the two small examples the
    characters' probabilities and the evidence probability equal a brute-force enumeration of
    every deal (tests/helpers/woof_oracle.py); every seat's probabilities sum to 1."""
    from helpers.woof_oracle import brute_force

    from fleece.solver.woof.analysis import analyse

    for name in ("basic8.txt", "dummy4.txt", "expert6.txt", "rulebook5.txt"):
        out = fleece("woof", "solve", str(EXAMPLES / name), "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        ev = load_evidence((EXAMPLES / name).read_text(encoding="utf-8"), name)
        assert data == json.loads(json.dumps(analyse(ev).to_json())), name
        if name in ("dummy4.txt", "rulebook5.txt"):
            post = brute_force(ev)
            exact = {str(s): {c.value: float(p) for c, p in m.items() if p}
                     for s, m in post.marginals().items()}
            assert data["characters"].keys() == exact.keys()
            for s, chars in exact.items():
                assert data["characters"][s].keys() == chars.keys(), (name, s)
                for c, p in chars.items():
                    assert data["characters"][s][c] == pytest.approx(p, rel=1e-12), (name, s, c)
            assert data["evidence_probability"] == pytest.approx(
                float(post.evidence_probability), rel=1e-12)
        for chars in data["characters"].values():
            assert sum(chars.values()) == pytest.approx(1.0, abs=1e-9)
    out = fleece("woof", "solve", "-", "--engine", "smt", "--me", "2",
                 stdin=(EXAMPLES / "dummy4.txt").read_text())
    assert out.returncode == 0 and "Suggestion for seat 2 (wolf): sheep -> seat 5" in out.stdout


def test_cli_contradiction_exits_1() -> None:
    out = fleece("woof", "solve", str(EXAMPLES / "contradiction.txt"))
    assert out.returncode == 1
    assert "line 7: seat 2 looked at seat 4 and announced wolf" in out.stdout
    assert "line 10" not in out.stdout


@pytest.mark.parametrize("args", [
    ["woof", "solve", "missing-file.txt"],
    ["woof", "solve", "-", "--engine", "quantum"],
    ["woof", "solve", "-", "--me", "7"],
    ["woof", "solve", "-", "--dog-target", "cat"],
])
def test_cli_bad_input_one_line_exit_2(args: list[str]) -> None:
    out = fleece(*args, stdin="seats 5\ndeck preset\nlook 1 2 ?\n")
    assert out.returncode == 2
    assert out.stderr.startswith("fleece: error: ") and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_cli_parse_error_names_the_line() -> None:
    out = fleece("woof", "solve", "-", stdin="seats 5\ndeck preset\nask 1 2 q9 yes\n")
    assert out.returncode == 2
    assert out.stderr.strip() == ("fleece: error: <stdin>, line 3, column 9: unknown question "
                                  "'q9' (q1..q5)")
