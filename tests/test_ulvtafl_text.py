"""Ulvtafl text formats (U8): position strings, move text and records round-trip exactly;
bad input is refused in one located line; the diagram and the SVG show the board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import ParseError
from fleece.rules.ulvtafl.diagram import diagram, svg
from fleece.rules.ulvtafl.game import Rules, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.rules.ulvtafl.protocol import ULVTAFL
from fleece.rules.ulvtafl.record import format_record, parse_record, replay

START20 = "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"


def test_u8_start_position_text_is_the_published_one() -> None:
    assert position_text(initial_state(UlvtaflOptions())) == START20
    assert parse_position(START20) == initial_state(UlvtaflOptions())
    assert position_text(initial_state(UlvtaflOptions(setup=13))) == \
        ".W./.../......./......./SSSSSSS/SSS/SSS w"
    assert position_text(initial_state(UlvtaflOptions(setup=17))) == \
        ".W./.../......./SS...SS/SSSSSSS/SSS/SSS w"


def _random_game(seed: int) -> tuple[UlvtaflOptions, list[object], object]:
    rng = random.Random(seed)
    options = ULVTAFL.random_options(rng)
    state = ULVTAFL.new_initial_state(options)
    moves = []
    for _ in range(rng.randint(0, 80)):
        if state.is_terminal():
            break
        m = ULVTAFL.random_move(state, rng)
        moves.append(m)
        state = state.play(m)
    return options, moves, state


@given(seed=st.integers(0, 10**9))
def test_u8_positions_and_moves_round_trip(seed: int) -> None:
    """position text (with rule words and the U7 history after '|') and move text are
    exact inverses of their parsers."""
    _, moves, state = _random_game(seed)
    text = position_text(state)  # type: ignore[arg-type]
    assert parse_position(text) == state
    assert position_text(parse_position(text)) == text
    for m in moves:
        assert parse_move(m.text()) == m  # type: ignore[attr-defined]


@given(seed=st.integers(0, 10**9))
def test_u8_records_round_trip_and_replay(seed: int) -> None:
    options, moves, state = _random_game(seed)
    text = format_record(options, moves)  # type: ignore[arg-type]
    record = parse_record(text)
    assert record.text() == text
    assert replay(record)[-1] == state


def test_record_from_a_position_and_comments() -> None:
    text = ("# a comment line\n\nposition=" + START20 + "  # trailing comment\n"
            "c7-c6\n  d4-d5   # indented, with a comment\n")
    record = parse_record(text)
    states = replay(record)
    assert len(states) == 3 and states[-1].to_move == 0


@pytest.mark.parametrize(("text", "line", "column", "what"), [
    ("setup=20\nc7-c6\nd4-d5\nc6-c7\nd5-d4\n", 5, 1, "sheep may not move backward (U3)"),
    ("setup=20\nc7-c6\n  d4-d9\n", 3, 7, "not a move"),
    ("setup=20\nc7-c6\n  a1-a2\n", 3, 3, "a1 is not a point"),
    ("setup=21\n", 1, 7, "expected 13, 15, 17 or 20"),
    ("setup=13 flying\n", 1, 1, "unknown rule option"),
    ("setup=20\nc7-c6 d4-d5\n", 2, 1, "one move per line"),
    ("# nothing\n", 1, None, "empty record"),
    ("position=W.W/... w\n", 1, 10, "7 ranks"),
])
def test_record_errors_name_line_and_column(text: str, line: int, column: int | None,
                                            what: str) -> None:
    with pytest.raises(ParseError) as err:
        replay(parse_record(text))
    assert err.value.line == line and err.value.column == column
    assert what in err.value.message


@pytest.mark.parametrize(("text", "what"), [
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS x", "expected w or s"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SS w", "rank 1 has 3 points"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSQ w", "expected S, W or ."),
    (".../.../......./SSSSSSS/SSSSSSS/SSS/SSS w", "0 wolves"),
    ("W.W/W../......./SSSSSSS/SSSSSSS/SSS/SSS w", "3 wolves"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w diagonal", "unknown rule option"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w |", "must be followed"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w | d4-d5", "cannot have led"),
    ("", "a position is the board"),
    ("x" * 20_000, "too long"),
    ("\x00\x1b[31m w", "7 ranks"),
    ("W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS \x1b[31m", "'\\x1b[31m'"),
])
def test_bad_positions_are_refused_in_one_line(text: str, what: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_position(text)
    message = str(err.value)
    assert what in message and "\n" not in message and len(message) < 300
    assert "\x1b" not in message and "\x00" not in message


@pytest.mark.parametrize("text", ["d3", "d3-", "d3-d4-d5", "d5xd3-d1", "D3-D4", "h1-h2",
                                  "d3--d4", "", "x" * 500, "d3 d4", "d3-d4\n"])
def test_bad_move_text_is_refused(text: str) -> None:
    if text == "d3-d4\n":  # surrounding white space is allowed
        assert parse_move(text).text() == "d3-d4"
        return
    with pytest.raises(ParseError):
        parse_move(text)


def test_history_text_reads_back_the_positions_it_passed() -> None:
    """U7: the moves after '|' rebuild the history, so a repetition is still seen."""
    s = parse_position("..W/.../......./......./..S..SS/SSS/SSS w")
    for t in ("e7-e6", "c3-b3", "e6-e7"):
        s = s.play(parse_move(t))
    text = position_text(s)
    assert text.endswith("| e7-e6 c3-b3 e6-e7")
    again = parse_position(text)
    assert again == s and again.play(parse_move("b3-c3")).result == "draw"


def test_diagram_shows_lines_pieces_paddock_and_who_moves() -> None:
    lines = diagram(initial_state(UlvtaflOptions())).splitlines()
    assert lines[0] == "7          W---o---W"
    assert lines[1] == "           | \\ | / |"
    assert lines[12] == "1          S---S---S"
    assert lines[13].split() == list("abcdefg")
    assert lines[-1] == "wolves to move"
    ortho = diagram(initial_state(UlvtaflOptions(rules=Rules(orthogonal=True))))
    assert "\\" not in ortho and "/" not in ortho.split("\n\n")[0]


def test_svg_has_points_lines_paddock_pieces_and_arrow() -> None:
    state = initial_state(UlvtaflOptions())
    picture = svg(state, parse_move("c7-c6"))
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert picture.count("<title>sheep</title>") == 20
    assert picture.count("<title>wolf</title>") == 2
    assert picture.count('<circle') == 33
    assert "paddock" in picture and "<polyline" in picture
    assert picture.count("<line ") == 52 + 20  # orthogonal and diagonal segments
    assert "<polyline" not in svg(state)
