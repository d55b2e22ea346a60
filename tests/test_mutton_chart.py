"""The chart reader (M25-M27): real pastes are accepted whatever their spacing; every kind of
malformed chart is rejected with the line and column of the fault; render and parse invert."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import ParseError
from fleece.rules.mutton.chart import Status, farmer_chart, parse_chart, render_chart, render_paste
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.mutton.simulate import random_move

EXAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "mutton" /
           "helppage.txt").read_text(encoding="utf-8")
CHART_ONLY = "\n".join(ln for ln in EXAMPLE.splitlines() if ln.startswith(("Sheep", "Round")))
REFERENCE = parse_chart(EXAMPLE)


def test_plain_spaces_blank_lines_tabs_and_trailing_spaces() -> None:
    plain = EXAMPLE.replace("\u00a0", " ")
    assert parse_chart(plain) == REFERENCE
    spaced = "\n\n" + plain.replace("\n", "   \n\n") + "\n\n"
    assert parse_chart(spaced) == REFERENCE
    tabbed = plain.replace("Sheep   :", "Sheep\t:").replace("Round  ", "Round\t")
    assert parse_chart(tabbed) == REFERENCE
    crlf = plain.replace("\n", "\r\n")
    assert parse_chart(crlf) == REFERENCE


def test_chart_without_board_or_score() -> None:
    chart = parse_chart(CHART_ONLY)
    assert chart == REFERENCE
    assert chart.board is None and chart.score is None


def test_normalized_output_reparses_identically() -> None:
    again = parse_chart(render_paste(REFERENCE))
    assert again == REFERENCE and again.board == REFERENCE.board
    assert (again.score, again.to_beat) == (5, 10)


SHEEP = "Sheep   : A B C x E F G x I x K L M N O P Q R x T U V x X Y Z"


def _bad(rows: list[str], sheep: str = SHEEP) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_chart("\n".join([sheep, *rows]))
    return info.value


@pytest.mark.parametrize(
    ("sheep", "rows", "line", "column", "fragment"),
    [
        (SHEEP.replace(" C ", " c "), [], 1, 15, "unknown mark 'c'"),
        (SHEEP.replace(" C ", " Q "), [], 1, 15, "expected C"),
        (SHEEP, ["Round  1:       x   +                                             +"],
         2, 67, "wider than the Sheep row"),
        (SHEEP, ["Round  1:       x x"], 2, 19, "two victims"),
        (SHEEP, ["Round  1:       x   +", "Round  2:       x     +"], 3, 17, "already eaten"),
        (SHEEP, ["Round  1:       x   +", "Round  2:       + x"], 3, 17, "runner D was"),
        # "Round  1:" is 9 characters, then 8 spaces: the x is in column 18, between animals
        (SHEEP, ["Round  1:        x  +"], 2, 18, "not under an animal"),
        (SHEEP, ["Round  1:   x"], 2, 13, "shown alive"),
        (SHEEP, ["Round  1:       x   ?"], 2, 21, "unknown mark '?'"),
        (SHEEP, ["Round  1:     +"], 2, 9, "no victim"),
        (SHEEP, ["Round  1:       x"], 2, 9, "no runner"),
        (SHEEP, ["Round  2:       x   +", "Round  1:               x +"], 3, 8, "must increase"),
        (SHEEP, ["Bogus"], 2, 1, "expected a 'Round  N:' row"),
        (SHEEP.replace("x T", "w T"), [], None, None, None),
    ],
)
def test_malformed_charts_name_line_and_column(
    sheep: str, rows: list[str], line: int | None, column: int | None, fragment: str | None
) -> None:
    if fragment is None:  # control: the same chart with a dead wolf is fine
        assert parse_chart("\n".join([sheep, *rows])).status_of("S") is Status.DEAD_WOLF
        return
    err = _bad(rows, sheep)
    assert fragment in err.message
    assert (err.line, err.column) == (line, column)


def test_no_sheep_row_and_board_mismatch() -> None:
    with pytest.raises(ParseError, match="no 'Sheep   :' row"):
        parse_chart("\n\n")
    broken = EXAMPLE.replace("U C Q R", "U C Q D")
    with pytest.raises(ParseError, match="board shows D"):
        parse_chart(broken)
    with pytest.raises(ParseError, match="has 3 cells"):
        parse_chart(EXAMPLE.replace("U C Q R", "U C Q"))
    with pytest.raises(ParseError, match="malformed score"):
        parse_chart(EXAMPLE.replace("Score: 5 (10 to beat).", "Score: five"))


def test_no_reveal_reads_x_as_unknown() -> None:
    chart = parse_chart(CHART_ONLY, reveal=False)
    assert chart.letters_with(Status.DEAD) == ["D", "H", "J", "S", "W"]
    with pytest.raises(ParseError, match="not revealed"):
        parse_chart(SHEEP.replace("x T", "w T"), reveal=False)


option_sets = st.builds(
    MuttonOptions,
    size=st.just(4), num_sheep=st.integers(8, 26), num_wolves=st.integers(1, 4),
    reveal=st.booleans(), remove=st.booleans(), escape=st.booleans(),
    weapon=st.sampled_from(Weapon),
)


@given(option_sets, st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_derived_charts_round_trip(rules: MuttonOptions, seed: int, stop: int) -> None:
    from fleece.rules.mutton.game import GameState

    rng = random.Random(seed)
    state = GameState.new(rules)
    for _ in range(stop + 2):
        if state.over:
            break
        state = state.play(random_move(state, rng))
    chart = farmer_chart(state)
    again = parse_chart(render_paste(chart), reveal=rules.reveal or state.over)
    assert again.rows == chart.rows and again.status == chart.status
    assert again.board == chart.board
    assert render_chart(again) == render_chart(chart)


def test_escaped_wolf_printed_as_its_letter_but_off_the_board() -> None:
    paste = EXAMPLE.replace("U C Q R", "U C Q .")  # R escaped: no longer on the board
    with pytest.raises(ParseError, match="R alive in the Sheep row but missing"):
        parse_chart(paste)
    chart = parse_chart(paste, escaped="R")
    assert chart.status_of("R") is Status.ESCAPED
    assert chart.rows == REFERENCE.rows
    with pytest.raises(ParseError, match="not in the Sheep row"):
        parse_chart(paste, escaped="R?")
