"""Hostile input, one group per class: each parser refuses bad
input with a located ParseError (never ValueError, RecursionError or a silent wrong reading),
messages stay one short line, M25's `w` in Round rows, puzzle texts read by solve and chart,
time limits, and whole-or-nothing puzzle packs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from fleece.cli import MAX_MESSAGE, message_line
from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.mutton.chart import Status, chart_from_json, parse_chart, render_chart
from fleece.rules.mutton.diagram import is_label_line, parse_score
from fleece.rules.mutton.moves import parse_move
from fleece.rules.mutton.options import parse_options
from fleece.rules.mutton.record import parse_record
from fleece.rules.text import (
    decode_text,
    escape,
    json_bool,
    json_int,
    load_json,
    split_lines,
    whole_number,
)
from fleece.rules.woof.evidence import parse_evidence
from fleece.solver.deadline import Stopped, current, time_limit, z3_check
from fleece.solver.mutton import problem_from_text
from fleece.solver.mutton.inputs import chart_from_text, detect_input, problem_from_json
from fleece.solver.puzzles import pack

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HUGE = "9" * 5000
CHART = textwrap.dedent("""\
    Score: 5 (10 to beat).
    Sheep   : A B C x E F G x I x K L M N O P Q R x T U V x X Y Z
    Round  1:           +   x   +                       +
    Round  2:     + +           x                 +
    Round  3:       +   +           +   +                 x     +
    """)


def where(exc: pytest.ExceptionInfo[ParseError]) -> tuple[int | None, int | None]:
    """(line, column) of a ParseError."""
    return exc.value.line, exc.value.column


# ---- lines: only \n and \r\n -----------------------------------------------------------------


def test_split_lines_breaks_only_at_newline_and_crlf() -> None:
    assert split_lines("a\nb\r\nc") == ["a", "b", "c"]
    assert split_lines("a\n") == ["a"] and split_lines("") == []
    assert split_lines("a\u2028b\x0cc\rd\x85e\n") == ["a\u2028b\x0cc\rd\x85e"]
    assert split_lines("\n\n") == ["", ""]


def test_line_numbers_count_only_newlines_in_every_parser() -> None:
    """U+2028 and a form feed do not start a line: the error is on the line an editor shows,
    at the column of the odd character."""
    text = CHART.replace("\nRound  3", "\u2028Round  3")
    with pytest.raises(ParseError) as err:
        parse_chart(text)
    assert where(err) == (4, 48) and "\u2028" in err.value.message
    rec = "-size=4 -num_sheep=26 -num_wolves=4\x0c\nsparse\n"
    with pytest.raises(ParseError) as err:
        parse_record(rec)
    assert err.value.line == 1 and "must be a whole number" in err.value.message
    with pytest.raises(ParseError) as err:
        parse_evidence("seats 8\u2028me 1\nme 2\n")
    assert where(err) == (1, 8) and "U+2028" in err.value.message
    assert parse_chart(CHART.replace("\n", "\r\n")) == parse_chart(CHART)


# ---- whole numbers: ASCII digits, bounded ------------------------------------------------------


def test_whole_number_takes_ascii_digits_only() -> None:
    assert whole_number("007", "n") == 7
    for bad in ("\u0663", "\uff11", "\u00b2", "+8", "0_8", " 8", "8 ", "", "-1", "1e3"):
        with pytest.raises(ParseError, match="digits 0-9"):
            whole_number(bad, "n")
    with pytest.raises(ParseError, match="5000 digits: far too large"):
        whole_number(HUGE, "n")
    with pytest.raises(ParseError, match=r"must be 1\.\.8, got 9"):
        whole_number("9", "n", lo=1, hi=8)


@pytest.mark.parametrize("text, words, line, column", [
    (CHART.replace("Score: 5", "Score: " + HUGE), "the score has 5000 digits", 1, 8),
    (CHART.replace("Score: 5", "Score: \uff15"), "malformed score line", 1, 1),
    (CHART.replace("Score: 5", "Score: 100"), "the score must be at most 99", 1, 8),
    (CHART.replace("Round  2", "Round " + HUGE), "a round number has 5000 digits", 4, 7),
    (CHART.replace("Round  3", "Round \u0663"), "expected a 'Round  N:' row", 5, 1),
    (CHART.replace("Round  3", "Round 100"), "a round number must be 1..99", 5, 7),
    (CHART.replace("Round  1", "Round  0"), "a round number must be 1..99", 3, 8),
])
def test_chart_numbers(text: str, words: str, line: int, column: int) -> None:
    with pytest.raises(ParseError) as err:
        parse_chart(text)
    assert words in err.value.message and where(err) == (line, column)


def test_label_lines_take_ascii_digits_only() -> None:
    assert is_label_line("   1 2 3 4") and is_label_line("  / / / / 5")
    assert not is_label_line("   \u0661 \u0662") and not is_label_line("  \u00b2")
    assert parse_score("Score: 7 (12 to beat).") == (7, 12)


@pytest.mark.parametrize("options, words, column", [
    ("-size=" + HUGE, "option 'size' has 5000 digits", 7),
    ("-size=\u00b2", "option 'size' must be a whole number", 7),
    ("-num_sheep=\u0662\u0666", "option 'num_sheep' must be a whole number", 12),
    ("-size=4 -num_wolves=+3", "must be a whole number", 21),
    ("-quick=1000", "quick-play target must be in 1..99", None),
    ("-size=4 -size=5", "given twice", 9),
    ("-reveal -no_reveal", "given twice", 9),
    ("-no_ber\u212aerk", "unknown option", 1),
])
def test_options_line_numbers(options: str, words: str, column: int | None) -> None:
    with pytest.raises(ParseError) as err:
        parse_options(options, line=1)
    assert words in err.value.message and err.value.column == column


def test_random_seed_and_record_columns() -> None:
    from fleece.rules.mutton.geometry import board

    with pytest.raises(ParseError, match="the random seed has 5000 digits"):
        parse_move("random=" + HUGE, board(4), None)
    with pytest.raises(ParseError, match="the random seed must be a whole number"):
        parse_move("random=\u0667", board(4), None)
    # an options-line error in a record names the record's own column
    with pytest.raises(ParseError) as err:
        parse_record("mutton challenge -size=4 -bogus\nsparse\n")
    assert where(err) == (1, 26)
    from fleece.rules.mutton.record import replay

    with pytest.raises(ParseError) as err:
        replay(parse_record("-size=4\nsparse\nwolves=ABCD\n\u2028D\n"))
    assert where(err) == (4, 1) and "not an animal letter" in err.value.message


@pytest.mark.parametrize("text, words, line, column", [
    ("seats " + HUGE, "the number of players has 5000 digits", 1, 7),
    ("seats 0_8", "got '0_8'", 1, 7),
    ("seats +8", "got '+8'", 1, 7),
    ("seats \u0668", "must be a whole number", 1, 7),
    ("seats 8\nlook 1 " + HUGE + " wolf", "looked-at seat has 5000 digits", 2, 8),
    ("seats 8\nme \uff11", "me seat must be a whole number", 2, 4),
    ("seats 4\ndeck sheep*" + HUGE, "copy count", 2, 6),
    ("seats 4\ndeck sheep*", "copy count", 2, 6),
    ("seats 8\nlook 1 2\x1bwolf", "unexpected character U+001B", 2, 9),
])
def test_woof_numbers_and_characters(text: str, words: str, line: int, column: int) -> None:
    with pytest.raises(ParseError) as err:
        parse_evidence(text)
    assert words in err.value.message and where(err) == (line, column)


def test_option_values_take_ascii_digits_only_and_stay_bounded() -> None:
    """Command-line whole numbers and seconds (api.values, read through commands.base's
    Typer parsers): ASCII digits only, no sign or underscore, never Python's int-conversion
    limit."""
    import typer

    from fleece.commands.base import int_in, seconds_in, whole

    seconds = seconds_in()

    assert whole("0042", 1, 50) == 42
    for text, words in (("\u0663", "is not a whole number"), ("\uff11", "is not a whole number"),
                        ("+3", "is not a whole number"), ("1_0", "is not a whole number"),
                        (HUGE, "is far too large"), ("51", r"out of range \(1\.\.50\)")):
        with pytest.raises(ValueError, match=words):
            whole(text, 1, 50)
    with pytest.raises(typer.BadParameter, match="is not a whole number"):
        int_in(0, 9)("\u0663")
    assert seconds("0.5") == 0.5
    for text, words in (("\u0663", "is not a number of seconds"), ("1e3", "is not a number"),
                        (HUGE, "far too large"), ("0", "out of range")):
        with pytest.raises(typer.BadParameter, match=words):
            seconds(text)


@pytest.mark.parametrize("spec, words, column", [
    ("wolf*99999999999999999999", "entry 'wolf*99999999999999999999': count "
     "'99999999999999999999' is too large (at most 520)", 6),
    ("1*2, wolf*99999", "entry 'wolf*99999': count '99999' is too large (at most 520)", 11),
    ("1*2,2* 0", "entry '2* 0': count 0 of '2' is out of range (1..520)", 8),
    ("1*\u0662,2*2", "entry '1*\u0662': count '\u0662' is not a whole number (digits 0-9)", 3),
    ("pairs:" + HUGE[:40], "is too large (at most 260)", 7),
    (" pairs:x", "pairs:N needs a whole number N (digits 0-9), not 'x'", 8),
])
def test_k2_deck_spec_counts_name_the_entry_and_the_column_of_the_count(
        spec: str, words: str, column: int) -> None:
    """A deck spec's count that is too large is named with its entry and located at the
    count (it used to read "not a whole number, column 1")."""
    from fleece.rules.cards.deck import parse_deck

    with pytest.raises(ParseError) as exc:
        parse_deck(spec)
    assert words in exc.value.message and exc.value.column == column


def test_k2_deck_spec_limits_are_exact() -> None:
    """The deck reader's documented limits, at the limit and one past it: a spec of 2000
    characters, 520 cards (pairs:260, or two entries of 260), 520 copies of a kind."""
    from fleece.rules.cards.deck import parse_deck

    padded = "a*2," + "0" * (2000 - len("a*2,b*") - 1) + "2"
    assert len("a*2,b*" + padded[4:]) == 2000 and parse_deck("a*2,b*" + padded[4:]).size == 4
    with pytest.raises(ParseError, match="2000"):
        parse_deck("a*2,b*0" + padded[4:])
    assert parse_deck("pairs:260").size == 520
    assert parse_deck("a*260,b*260").size == 520 and parse_deck("a*520").size == 520
    with pytest.raises(ParseError, match=r"521 cards \(at most 520\)"):
        parse_deck("a*260,b*261")
    with pytest.raises(ParseError, match=r"1\.\.520"):
        parse_deck("a*521")
    with pytest.raises(FleeceError, match=r"1\.\.260"):
        parse_deck("pairs:261")


def test_ulvtafl_and_card_numbers_are_ascii_and_bounded() -> None:
    """U9 setup= and the card games' limit= and players= take ASCII digits, bounded."""
    from fleece.rules.cards.concentration import parse_options as conc_options
    from fleece.rules.cards.war import parse_options as war_options
    from fleece.rules.ulvtafl.record import parse_record

    with pytest.raises(ParseError) as exc:
        parse_record("setup=" + HUGE + "\nc3-c4\n")
    assert where(exc) == (1, 7) and "expected 13, 15, 17 or 20 (U9)" in exc.value.message
    with pytest.raises(ParseError) as exc:
        parse_record("setup=\u0662\u0660\n")
    assert where(exc) == (1, 7)
    from fleece.rules.ulvtafl.notation import parse_position

    start = "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS"
    with pytest.raises(ParseError, match="side to move '\u0663': expected w or s") as exc:
        parse_position(start + " \u0663")
    assert exc.value.column == 41
    with pytest.raises(ParseError, match="unknown rule option '9999"):
        parse_position(start + " w " + HUGE)
    with pytest.raises(ParseError, match="limit has 5000 digits: far too large"):
        war_options("war deck=pairs:2 limit=" + HUGE)
    with pytest.raises(ParseError, match=r"players must be a whole number \(digits 0-9\)"):
        conc_options("concentration players=\u0661")


def test_ulvtafl_and_card_texts_count_lines_at_newlines_only() -> None:
    """A U+2028 or a lone CR stays inside its line in Ulvtafl records and the card games'
    position texts, as in every other parser (str.splitlines would start a line there)."""
    from fleece.rules.cards.war import parse_position as war_position
    from fleece.rules.ulvtafl.record import parse_record

    rec = (EXAMPLES / "ulvtafl" / "full-game.rec").read_text(encoding="utf-8")
    with pytest.raises(ParseError) as exc:
        parse_record(rec.replace("\nc7-d6\ne4-e5\n", "\nc7-d6\u2028e4-e5\n"))
    assert where(exc) == (5, 1) and exc.value.message == "one move per line"
    war = (EXAMPLES / "cards" / "war-cycle.txt").read_text(encoding="utf-8")
    with pytest.raises(ParseError) as exc:
        war_position(war.replace("limit=none\n", "limit=none\r"))
    assert exc.value.line == 4 and "unexpected 'deal'" in exc.value.message


def test_a_nul_in_an_argument_is_a_usage_error() -> None:
    """No file name holds a NUL (open() raises ValueError): the command line refuses it
    first, in one line."""
    from helpers.clirun import invoke

    r = invoke(["mutton", "chart", "a\0b"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == "fleece: error: argument 'a\\x00b' contains a NUL character\n"


# ---- JSON: limits and strict types -------------------------------------------------------------


def test_json_depth_size_and_number_limits() -> None:
    with pytest.raises(ParseError) as err:
        load_json("[" * 100_000 + "]" * 100_000)
    assert "nested deeper than 32" in err.value.message and where(err) == (1, 33)
    assert load_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 36}
    for text, words in [("[" + HUGE + "]", "5000 digits"), ("[NaN]", "NaN"),
                        ("[Infinity]", "Infinity"), ('{"a": 1, "a": 2}', "appears twice"),
                        ("[1e999999]", "too large for a number"),
                        ("[1e999999999999999999999999999999999999999999]", "far too long")]:
        with pytest.raises(ParseError, match=words):
            load_json(text)
    with pytest.raises(ParseError) as err:
        load_json('{\n  "a": tru\n}')
    assert err.value.line == 2


def test_json_field_readers_are_strict() -> None:
    data = {"n": True, "b": "false", "k": 3}
    with pytest.raises(ParseError, match="field 'n' must be a whole number, got true"):
        json_int(data, "n")
    with pytest.raises(ParseError, match=r"field 'x\.b' must be true or false, got a string"):
        json_bool(data, "b", "x")
    with pytest.raises(ParseError, match=r"field 'k' must be 1\.\.2, got 3"):
        json_int(data, "k", lo=1, hi=2)
    assert json_int(data, "missing", default=None) is None


@pytest.mark.parametrize("data, words", [
    ({"wolves": True, "paste": CHART}, "field 'wolves' must be a whole number, got true"),
    ({"reveal": "false", "paste": CHART}, "field 'reveal' must be true or false, got a string"),
    ({"passed": "no", "paste": CHART}, "field 'passed' must be true or false, got a string"),
    ({"escaped": 5, "paste": CHART}, "field 'escaped' must be a string of letters"),
    ({"animals": "ABCD", "rows": 5}, "field 'rows' must be a list, got a number"),
    ({"animals": "ABCD", "status": ["A"]}, "field 'status' must be an object, got a list"),
    ({"animals": "ABCD", "rows": [{"round": 1, "victim": "A", "runners": "B"}]},
     "field 'rows[0].runners' must be a list, got a string"),
    ({"animals": "ABCD", "rows": [{"round": "1", "victim": "A", "runners": ["B"]}]},
     "field 'rows[0].round' must be a whole number, got a string"),
    ({"chart": [], "wolves": 2}, "field 'chart' must be an object, got a list"),
    ({"chart": {"animals": "ABCD", "reveal": 1}}, "field 'chart.reveal' must be true or false"),
    ({"wolfs": 3, "paste": CHART}, "unknown field 'wolfs'"),
    ({"paste": CHART, "animals": "ABCD"}, "exactly one of"),
    ({"wolves": 3, "num_wolves": 4, "paste": CHART}, "disagree"),
    ({"animals": "ABCD", "board": {"size": 9}}, "field 'board.size' must be 2..8, got 9"),
    ({"format": "fleece-puzzle", "game": "mutton", "version": 2, "animals": "ABCD"},
     "field 'version' must be 1..1, got 2"),
    ({"format": "fleece-puzzle", "game": "woof", "animals": "ABCD"}, "not a Mutton input"),
    ({"id": 7, "animals": "ABCD"}, "field 'id' must be a string, got a number"),
])
def test_json_input_strict_types_name_the_field(data: object, words: str) -> None:
    with pytest.raises(ParseError) as err:
        problem_from_json(json.dumps(data))
    assert words in err.value.message


def test_json_top_level_must_be_an_object() -> None:
    with pytest.raises(ParseError, match="the JSON input must be an object, got a list"):
        problem_from_json("[1, 2]")


def test_an_error_inside_text_embedded_in_json_names_the_field_and_line() -> None:
    bad = CHART.replace("Round  2:", "Round  2: q")
    with pytest.raises(ParseError) as err:
        problem_from_json(json.dumps({"paste": bad}))
    assert str(err.value).startswith("field 'paste', line 4, column 11: unknown mark 'q'")
    rec = (EXAMPLES / "mutton" / "wolf-pass.rec").read_text()
    with pytest.raises(ParseError) as err:
        problem_from_json(json.dumps({"record": rec.replace("\npass\n", "\npas\n")}))
    assert str(err.value).startswith("field 'record', line 10, column 1:")


def test_chart_json_round_trips_strictly() -> None:
    chart = parse_chart(CHART)
    again = chart_from_json(json.loads(json.dumps(chart.to_json())))
    assert again == chart and again.score == 5
    with pytest.raises(ParseError, match=r"'rows\[0\]\.victim': 'a' is not an animal"):
        chart_from_json({"animals": "ABCD", "status": {"A": "dead sheep"},
                         "rows": [{"round": 1, "victim": "a", "runners": ["B"]}]})


# ---- puzzles: Woof!! questions about seats, Mutton puzzle texts ---------------------------------


def test_woof_puzzle_question_about_a_missing_seat_is_an_input_error() -> None:
    from fleece.solver.puzzles.woof.formats import parse_puzzle

    text = (ROOT / "puzzles" / "woof" / "easy" / "001.txt").read_text()
    assert parse_puzzle(text)[1] == 7
    for seat in ("99", "0", "8"):
        with pytest.raises(ParseError) as err:
            parse_puzzle(text.replace("seat 7?", f"seat {seat}?"), "p.txt")
        assert f"asks about seat {int(seat)}, but the table has seats 1..7" in str(err.value)
        assert err.value.line == 4
    with pytest.raises(ParseError, match="unknown question"):
        parse_puzzle(text.replace("What is seat 7?", "Which seat is the wolf?"))
    twin = json.loads((ROOT / "puzzles" / "woof" / "easy" / "001.json").read_text())
    twin["puzzle_text"] = twin["puzzle_text"].replace("What is seat 7?", "What is seat 99?")
    with pytest.raises(ParseError, match="field 'puzzle_text', line 4, column 1: the question"):
        parse_puzzle(json.dumps(twin), "p.json")


def test_mutton_puzzle_text_is_read_by_solve_and_chart() -> None:
    """Before, a bundled puzzle's .txt was refused at line 1 while its JSON twin was read."""
    for grade in ("easy", "medium", "hard"):
        text = (ROOT / "puzzles" / "mutton" / grade / "001.txt").read_text()
        twin = (ROOT / "puzzles" / "mutton" / grade / "001.json").read_text()
        assert detect_input(text) == "puzzle"
        p, q = problem_from_text(text), problem_from_text(twin)
        assert (p.chart, p.num_wolves) == (q.chart, q.num_wolves)
        assert chart_from_text(text) == chart_from_text(twin) == p.chart
    from fleece.solver.puzzles.mutton.formats import parse_puzzle

    text = (ROOT / "puzzles" / "mutton" / "easy" / "001.txt").read_text()
    with pytest.raises(ParseError) as err:
        parse_puzzle(text.replace("Wolves: 4", "Wolves: " + HUGE), "p.txt")
    assert str(err.value).startswith("p.txt, line 6, column 1: 'Wolves:' has 5000 digits")
    with pytest.raises(ParseError, match="unknown question"):
        parse_puzzle(text.replace("Name all 4 wolves.", "Name all the sheep."))


# ---- M25: the victim's mark in a Round row ----------------------------------------------------


def test_m25_a_wolf_eaten_by_a_wolf_is_marked_w_in_its_round_row() -> None:
    """The bundled example is a pbmserv page where O, a wolf, was eaten in round 12: `w` in
    the Sheep row and under O in the Round row. It reads, renders back identically, and its
    JSON says O is a dead wolf eaten in round 12."""
    text = (EXAMPLES / "mutton" / "wolf-ate-wolf.txt").read_text()
    chart = parse_chart(text)
    assert chart.status_of("O") is Status.DEAD_WOLF
    assert chart.rows[-1].victim == "O" and chart.rows[-1].round == 12
    assert render_chart(chart).splitlines()[-1] == "Round 12:             +           +   w"
    assert parse_chart(render_chart(chart)) == chart


def test_m25_x_under_a_dead_wolf_is_still_read() -> None:
    chart = parse_chart("Sheep   : A B C D w F G H\nRound  1:       + x +\n")
    assert chart.rows[0].victim == "E"


@pytest.mark.parametrize("sheep, row, reveal, words", [
    ("A B C D x F G H", "       + w +", True, "'w' under E, whose Sheep-row mark is 'x'"),
    ("A B C D w F G H", "   w   + x +", True, "'w' under B, whose Sheep-row mark is 'B'"),
    ("A B C D x F G H", "       + w +", False, "identities are not revealed (no_reveal)"),
])
def test_m25_w_must_agree_with_the_sheep_row(sheep: str, row: str, reveal: bool,
                                             words: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_chart(f"Sheep   : {sheep}\nRound  1:{row}\n", reveal=reveal)
    assert words in err.value.message and err.value.line == 2


# ---- reading: files and standard input alike ---------------------------------------------------


def test_decode_text_bom_invalid_utf8_and_size_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    assert decode_text(b"\xef\xbb\xbfSheep") == "Sheep"
    with pytest.raises(ParseError) as err:
        decode_text(b"ab\ncd\xffe", "f.txt")
    assert str(err.value) == "f.txt, line 2, column 3: not UTF-8 text (byte 0xff)"
    monkeypatch.setattr("fleece.rules.text.MAX_INPUT_BYTES", 10)
    with pytest.raises(ParseError, match="larger than"):
        decode_text(b"x" * 11)


def test_read_input_reads_stdin_and_files_the_same_way(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from fleece.commands.base import read_input

    for data in (b"\xef\xbb\xbfhello\r\n", b"plain\n"):
        path = tmp_path / "in.txt"
        path.write_bytes(data)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert read_input("-")[0] == read_input(str(path))[0]
    bad = b"ok\n\xc3("
    path.write_bytes(bad)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bad)))
    with pytest.raises(ParseError) as from_stdin:
        read_input("-")
    with pytest.raises(ParseError) as from_file:
        read_input(str(path))
    assert from_stdin.value.message == from_file.value.message
    assert where(from_stdin) == where(from_file) == (2, 1)
    monkeypatch.setattr("fleece.rules.text.MAX_INPUT_BYTES", 1000)
    with pytest.raises(ParseError, match="larger than"):
        read_input("/dev/zero")


# ---- messages -----------------------------------------------------------------------------------


def test_messages_escape_invisible_characters_and_stay_short() -> None:
    assert escape("a\nb\tc\x1b\u2028\u200b\ufeff\u00a0\u0301\U000e0041d") == \
        "a\\nb\\tc\\x1b\\u2028\\u200b\\ufeff\\xa0\\u0301\\U000e0041d"
    assert escape("é Ü ок 狼") == "é Ü ок 狼"
    line = message_line("error", "x" * 5000)
    assert len(line) == MAX_MESSAGE and line.endswith("...")
    assert message_line("error", "f\nname: bad").count("\n") == 0


# ---- time limits --------------------------------------------------------------------------------


def test_listing_engines_near_their_cap_stop_at_once_with_a_hint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """26 animals, one dead sheep, 6 wolves: C(25, 6) = 177,100 sets, far past what the csp
    and smt engines list in minutes: both refuse naming the fast engine, at once, that is
    before they list a single set (their listing functions are replaced by ones that fail)."""
    from fleece.solver.mutton import csp, smt, solve

    problem = problem_from_text("Sheep   : x " + " ".join("BCDEFGHIJKLMNOPQRSTUVWXYZ"), 6)
    assert solve(problem).count == 177_100

    def listed(*_: object) -> None:
        raise AssertionError("the engine started listing sets")

    monkeypatch.setattr(csp, "solve_csp", listed)
    monkeypatch.setattr(smt, "solve_smt", listed)
    for engine, lister in (("csp", "(python-constraint)"), ("smt", "(z3)")):
        with pytest.raises(Stopped, match="use --engine fast") as err:
            solve(problem, engine)
        assert "177100" in str(err.value) and lister in str(err.value)


def test_time_limit_stops_a_listing_engine_cleanly() -> None:
    """In 0.5 s the smt engine (its size limit lifted) cannot list 14,950 sets (4 wolves among
    26): it stops with Stopped, and the deadline is gone afterwards."""
    from fleece.solver.mutton import solve

    problem = problem_from_text("Sheep   : " + " ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 4)
    start = time.monotonic()
    with pytest.raises(Stopped, match=r"no answer within 0\.5 s; hint"), time_limit(0.5, "hint"):
        solve(problem, "smt", list_limit=None)
    assert time.monotonic() - start >= 0.5  # the limit, not something else, stopped it
    assert current().seconds is None


@pytest.mark.parametrize("limit", [0.2, 0.5])
def test_the_alarm_stops_any_python_code(limit: float) -> None:
    """The process-level guard stops code that never checks the deadline (the fast engines):
    a loop that does not check it is stopped, whatever the limit (0.5 s is a multiple of the
    guard's 0.25 s margin). The loop gives up by itself after 15 s, so a broken guard fails
    this test instead of hanging it."""
    start = time.monotonic()
    with pytest.raises(Stopped), time_limit(limit):
        while time.monotonic() - start < 15:
            pass
    assert limit <= time.monotonic() - start < 15


def test_z3_unknown_is_never_read_as_unsat() -> None:
    """A z3 check cut short by the deadline raises Stopped; it does not answer False."""
    import z3

    solver = z3.Solver()
    x, y, zz = z3.Ints("x y z")
    solver.add(x > 1, y > 1, zz > 1, x * x * x + y * y * y == zz * zz * zz)  # hard (FLT)
    with pytest.raises(Stopped), time_limit(0.3):
        z3_check(z3, solver)


def test_cli_timeout_option(tmp_path: Path) -> None:
    from helpers.clirun import invoke

    path = tmp_path / "m.txt"
    path.write_text("Sheep   : " + " ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "\n")
    # 14,950 sets take the csp engine about 2.4 s on the 2-core machine: a budget 48 times
    # smaller stops it on any machine (3 wolves, 2,600 sets, once finished inside 0.3 s).
    r = invoke(["mutton", "solve", str(path), "--wolves", "4", "--engine", "csp",
                "--timeout", "0.05"])
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("fleece: stopped: no answer within 0.05 s; try a larger "
                               "--timeout; --engine fast is exact at any size")
    r = invoke(["mutton", "solve", str(path), "--wolves", "3", "--timeout", "30", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["count"] == 2600


def test_woof_listing_engines_stop_past_their_limit() -> None:
    from fleece.solver.woof import csp, smt

    evidence = parse_evidence("seats 5\ndeck basic\n")
    with pytest.raises(Stopped, match=r"more than 10 possible deals.*--engine fast"):
        csp.solve(evidence, limit=10)
    with pytest.raises(Stopped, match=r"more than 10 possible deals.*--engine fast"):
        smt.assignments(evidence, limit=10)


def test_in_thread_stops_compiled_code_that_no_signal_interrupts() -> None:
    """in_thread: the answer, the error, or Stopped after the limit (numba kernels such as
    Ulvtafl's perft release the GIL and ignore SIGALRM, so they run in a daemon thread)."""
    from fleece.solver.deadline import in_thread

    assert in_thread(lambda: 6 * 7, 5) == 42
    assert in_thread(lambda: 6 * 7, None) == 42

    def bad() -> int:
        raise ParseError("bad input")

    with pytest.raises(ParseError, match="bad input"):
        in_thread(bad, 5)
    never = threading.Event()  # set only after the call: the work cannot end by itself
    start = time.monotonic()
    try:
        with pytest.raises(Stopped, match=r"no answer within 0\.2 s; a hint"):
            in_thread(lambda: never.wait(60), 0.2, "a hint")
        assert not never.is_set() and time.monotonic() - start >= 0.2
    finally:
        never.set()


def test_u10_perft_and_solve_have_a_default_budget() -> None:
    """`ulvtafl perft 9` (about a minute from the start) stops at its budget with exit
    status 1, and `ulvtafl solve` of a start position gets a default time limit."""
    proc = subprocess.run(["fleece", "ulvtafl", "perft", "9", "--timeout", "0.5"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == ("fleece: stopped: no answer within 0.5 s; try a larger --timeout "
                           "or a smaller depth\n")
    import inspect

    from fleece.api.ulvtafl import SEARCH_BUDGET
    from fleece.commands import ulvtafl

    assert SEARCH_BUDGET == 15.0
    for command in (ulvtafl.solve, ulvtafl.perft):
        assert inspect.signature(command).parameters["timeout"].default == SEARCH_BUDGET


# ---- writes: one file, --svg and whole packs -----------------------------------------------------


def test_atomic_write_never_clobbers_and_creates_folders_only_when_asked(
        tmp_path: Path) -> None:
    """rules.io.atomic_write: a new file in a new folder (folders made by default); an
    existing file is kept unless `overwrite`; with `make_parents` false a missing folder is an
    error; a folder is never a file name; no temporary file is left behind."""
    from fleece.rules.io import atomic_write

    deep = tmp_path / "new" / "deeper" / "out.txt"
    atomic_write(deep, "one\n")
    assert deep.read_text() == "one\n"
    with pytest.raises(FleeceError, match="already exists"):
        atomic_write(deep, "two\n")
    assert deep.read_text() == "one\n"
    atomic_write(deep, "two\n", overwrite=True)
    assert deep.read_text() == "two\n"
    with pytest.raises(FleeceError, match="does not exist"):
        atomic_write(tmp_path / "missing" / "x.txt", "x", make_parents=False)
    assert not (tmp_path / "missing").exists()
    with pytest.raises(FleeceError, match="is a folder"):
        atomic_write(tmp_path / "new", "x", overwrite=True)
    assert sorted(p.name for p in deep.parent.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError])
def test_atomic_write_interrupted_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]) -> None:
    """An interrupt (or a full disk) at the rename: the old text stays, the hidden temporary
    file is removed, and the interrupt goes on up."""
    from fleece.rules import io

    path = tmp_path / "out.txt"
    path.write_text("old\n")

    def fail(*_: object) -> None:
        raise stop()

    monkeypatch.setattr(io.os, "replace", fail)
    with pytest.raises(stop):
        io.atomic_write(path, "new\n", overwrite=True)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]




def test_svg_into_a_missing_folder_is_an_error(tmp_path: Path) -> None:
    from fleece.commands.base import write_output

    with pytest.raises(FleeceError, match="does not exist"):
        write_output(str(tmp_path / "no" / "b.svg"), "<svg/>", force=False)
    assert list(tmp_path.iterdir()) == []


def _pack(n: int, tag: str) -> list[dict[str, str]]:
    return [{".txt": f"{tag} {i}\n", ".json": "{}\n", ".solution.txt": "Answer:\n"}
            for i in range(1, n + 1)]


def test_pack_is_written_whole_and_replaced_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    paths = pack.write_files(_pack(2, "old"), str(out), force=False)
    assert paths == [str(out / "001.txt"), str(out / "002.txt")]
    assert sorted(p.name for p in out.iterdir()) == [
        "001.json", "001.solution.txt", "001.txt", "002.json", "002.solution.txt", "002.txt"]
    with pytest.raises(FleeceError, match="already exists"):
        pack.write_files(_pack(1, "new"), str(out), force=False)
    pack.write_files(_pack(1, "new"), str(out), force=True)
    assert sorted(p.name for p in out.iterdir()) == ["001.json", "001.solution.txt",
                                                     "001.txt"]
    assert (out / "001.txt").read_text() == "new 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack"]  # nothing hidden left
    (out / "notes.md").write_text("mine")
    with pytest.raises(FleeceError, match="not part of a puzzle pack"):
        pack.write_files(_pack(1, "x"), str(out), force=True)
    with pytest.raises(FleeceError, match="does not exist"):
        pack.write_files(_pack(1, "x"), str(tmp_path / "a" / "b"), force=False)


def test_an_interrupt_while_writing_leaves_the_old_pack_or_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the middle of writing: no partial pack, no hidden folder, an old pack back."""
    import builtins

    real_open = builtins.open
    calls = {"n": 0}

    def flaky_open(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_open(*args, **kwargs)  # type: ignore[call-overload]

    out = tmp_path / "pack"
    monkeypatch.setattr(builtins, "open", flaky_open)
    with pytest.raises(KeyboardInterrupt):
        pack.write_files(_pack(2, "new"), str(out), force=False)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(builtins, "open", real_open)
    pack.write_files(_pack(2, "old"), str(out), force=False)
    calls["n"] = 0
    monkeypatch.setattr(builtins, "open", flaky_open)
    with pytest.raises(KeyboardInterrupt):
        pack.write_files(_pack(2, "new"), str(out), force=True)
    monkeypatch.setattr(builtins, "open", real_open)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack"]
    assert (out / "002.txt").read_text() == "old 2\n"


SLOW_WRITER = """
import sys, time, builtins
from fleece.solver.puzzles import pack
real_open = builtins.open
def slow_open(*a, **k):
    if str(a[0]).endswith("002.json"):
        print("writing", flush=True)
        time.sleep(60)
    return real_open(*a, **k)
builtins.open = slow_open
pack.write_files([{".txt": "new", ".json": "{}"}] * 3, sys.argv[1], force=True)
"""


def test_a_sigkill_leaves_only_hidden_folders_that_the_next_write_removes(
        tmp_path: Path) -> None:
    """SIGKILL cannot run cleanup: the killed write leaves the old pack in place plus a hidden
    temporary folder; the next pack write beside it removes that folder."""
    out = tmp_path / "pack"
    pack.write_files(_pack(2, "old"), str(out), force=False)
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(out)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    hidden = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    assert len(hidden) == 1 and hidden[0].startswith(".pack.fleece-tmp-")
    assert (out / "002.txt").read_text() == "old 2\n"  # the old pack is whole
    pack.write_files(_pack(1, "next"), str(out), force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack"]


def test_an_old_pack_renamed_aside_by_a_killed_write_is_put_back(tmp_path: Path) -> None:
    """Killed between its two renames, a write leaves the old pack under a hidden name and no
    target: the next write (or check) puts it back before deciding anything."""
    out = tmp_path / "pack"
    aside = tmp_path / ".pack.fleece-old-999999999-abcd"
    aside.mkdir()
    (aside / "001.txt").write_text("old 1\n")
    with pytest.raises(FleeceError, match="already exists"):
        pack.check_target(str(out), force=False)
    assert (out / "001.txt").read_text() == "old 1\n" and not aside.exists()
