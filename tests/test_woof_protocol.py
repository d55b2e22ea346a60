"""Woof!! as a protocol game: move and round notation (exact inverses, located parse errors),
a seat's observation (its evidence file), options and the length bound. Expected texts are
written out by hand from the rulebook round of tests/test_woof_rules.py."""

from __future__ import annotations

import pytest
from helpers.woof_strategies import golden_round, look

from fleece.rules.errors import ParseError, RulesError
from fleece.rules.woof.cards import CardRules, Character, QuestionCard, make_hand, parse_card
from fleece.rules.woof.moves import (
    Ask,
    CardPick,
    Deal,
    FinalSuspicion,
    Look,
    SuspectEarly,
    WoofMove,
)
from fleece.rules.woof.notation import parse_move
from fleece.rules.woof.protocol import WOOF
from fleece.rules.woof.round import WoofOptions, WoofRound

Q1, Q2, Q3, Q4 = QuestionCard.Q1, QuestionCard.Q2, QuestionCard.Q3, QuestionCard.Q4

GOLDEN_DEAL = ("deal 1:sheep,wolf:q1,q3 2:hunter,shepherd?:q1,q3 3:sheep,hunter:q1,q3 "
               "4:sheep,sheep:q1,q2 5:sheep,hunter:q2,q4")
GOLDEN_POSITION = f"""\
players 5
deck sheep*5 hunter*3 shepherd? wolf
start 1
{GOLDEN_DEAL}
look 1 4
card 0
look 2 5
card 0
look 3 2
card 1
ask 4 3 q1
look 5 1
card 1
look 1 3
card 1
look 2 4
card 0
look 3 4
card 0
look 4 5
card 0
look 5 2
card 1
early 1 4
early 2 1 3
final 3 4 0
final 4 0 5
abstain 5
"""


def test_move_notation_is_readable_and_parses_back() -> None:
    c = parse_card
    deal = Deal((make_hand(c("wolf"), c("sheep")), make_hand(c("dog?"), c("sheep@dog")),
                 (c("sheep"), c("sheep")), (c("hunter"), c("sheep")),
                 (c("shepherd?"), c("sheep"))),
                ((Q3, Q1), (Q2, Q2), (Q4, Q1), (Q1, Q2)))
    cases: dict[str, WoofMove] = {
        "deal 1:sheep,wolf:q1,q3 2:sheep@dog,dog?:q2,q2 3:sheep,sheep:q1,q4 "
        "4:sheep,hunter:q1,q2 5:sheep,shepherd?": deal,
        "look 1 4": Look(1, 4),
        "card 0": CardPick(0),
        "ask 1 4 q1": Ask(1, 4, Q1),
        "early 1 4": SuspectEarly(1, (4,)),
        "early 2 1 0": SuspectEarly(2, (1, 0)),
        "final 3 4 0": FinalSuspicion(3, (4, 0)),
        "abstain 5": FinalSuspicion(5, None),
    }
    state = WOOF.new_initial_state()
    for text, move in cases.items():
        assert WOOF.move_text(state, move) == text
        assert WOOF.parse_move(state, text) == move
    assert parse_move("  LOOK 1 4   # comment") == Look(1, 4)
    assert parse_move("deal 1:wolf,sheep:q3,q1 2:sheep,sheep:q2,q2") == Deal(
        ((c("sheep"), c("wolf")), (c("sheep"), c("sheep"))), ((Q1, Q3), (Q2, Q2)))


@pytest.mark.parametrize(("text", "column", "message"), [
    ("look 1 x", 8, "the target must be a number, got 'x'"),
    ("look 1", 7, "look: expected `look VIEWER TARGET`"),
    ("early 1 2 3 4", 13, "early: expected `early SEAT PICK...`"),
    ("ask 1 2 q9", 9, "unknown question 'q9' (q1..q5)"),
    ("peek 1 2", 1, "unknown move 'peek'"),
    ("deal 1:sheep,wolf:q1,q2 3:sheep,sheep:q1,q2", 25, "deal: seat 2 comes next, got '3'"),
    ("deal 1:sheep:q1,q2", 6, "deal: seat 1 gets two cards, got 'sheep'"),
    ("deal 1:sheep,goat", 6, "deal: unknown card 'goat'"),
    ("deal 1:sheep,wolf 2:sheep,wolf:q1,q2", 19, "only the last seat (the dummy) may lack"),
])
def test_move_parse_errors_name_the_column(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_move(text)
    assert err.value.column == column and message in err.value.message


def test_the_rulebook_round_as_position_text() -> None:
    rnd = golden_round()
    assert WOOF.position_text(rnd) == GOLDEN_POSITION
    assert WOOF.parse_position(GOLDEN_POSITION) == rnd
    commented = "# the rulebook's round\n\n" + GOLDEN_POSITION.replace(
        "look 1 4\n", "look 1 4   # Eva looks at Jason\n")
    assert WOOF.parse_position(commented) == rnd
    # every prefix of the moves is a position too
    lines = GOLDEN_POSITION.splitlines()
    part = WOOF.parse_position("\n".join(lines[:7]))
    assert part.pending == Look(2, 5) and part.is_chance_node()
    assert WOOF.position_text(part) == "\n".join(lines[:7]) + "\n"


def test_a_look_at_two_equal_cards_is_written_as_card_0() -> None:
    """Both picks of a pair show the same card, so the states are equal and so are texts."""
    rnd = WOOF.parse_position("\n".join(GOLDEN_POSITION.splitlines()[:4]))
    first, second = look(rnd, 1, 4, 0), look(rnd, 1, 4, 1)  # Jason holds two Sheep
    assert first == second and hash(first) == hash(second)
    assert WOOF.position_text(second).endswith("look 1 4\ncard 0\n")


def test_options_lines_round_trip() -> None:
    options = WoofOptions(4, (parse_card("sheep"),) * 9 + (parse_card("dog@wolf"),),
                          CardRules(Character.HUNTER), start=3, barred=frozenset({1, 4}),
                          turn_limit=12)
    text = WOOF.position_text(WOOF.new_initial_state(options))
    assert text == ("players 4\ndeck sheep*9 dog@wolf\nstart 3\nbarred 1 4\nturn-limit 12\n"
                    "dog-target hunter\n")
    assert WOOF.parse_position(text) == WOOF.new_initial_state(options)
    basic = WOOF.position_text(WOOF.new_initial_state())
    assert basic == "players 8\ndeck basic\nstart 1\n"


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("deck basic\n", 1, 1, "missing `players N` line"),
    ("players 5\nlook 1 2\n", 2, 1, "illegal move: the cards are not dealt yet"),
    (GOLDEN_POSITION.replace("look 3 4\n", "look 3 3\n"), 18, 1,
     "illegal move: seat 3 cannot look at seat 3 (W4)"),
    ("players 5\nstart 2\nlook 1 x\n", 3, 8, "the target must be a number, got 'x'"),
    ("players 5\n" + GOLDEN_DEAL + "\nstart 2\n", 3, 1, "the options come before the moves"),
    ("players 5\nplayers 6\n", 2, 1, "second `players` line (the first is line 1)"),
    ("players 5\n  barred 1 2 3\n", 1, 1, "at most 2 early suspicions"),
    ("players 9\n", 1, 1, "Woof!! is for 4 to 8 players, not 9"),
    ("players 5\ndeck sheep goat\n", 2, 12, "unknown card 'goat'"),
    ("players 5\nshuffle\n", 2, 1, "unknown keyword 'shuffle'"),
])
def test_position_parse_errors_name_line_and_column(text: str, line: int, column: int,
                                                    message: str) -> None:
    with pytest.raises(ParseError) as err:
        WOOF.parse_position(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert message in err.value.message


def test_observation_is_the_seats_evidence_file() -> None:
    rnd = golden_round()
    assert WOOF.observation(rnd, 3) == """\
seats 5
deck sheep*5 hunter*3 shepherd? wolf
me 4
hand 4 sheep sheep
look 1 4 sheep
look 2 5 wolf
look 3 2 ?
ask 4 3 q1 yes
look 5 1 wolf
look 1 3 hunter
look 2 4 wolf
look 3 4 sheep
saw 4 5 sheep sheep
look 5 2 ?
"""
    before = WOOF.new_initial_state(WoofOptions(5))
    assert WOOF.observation(before, 0) == (
        "seats 5\ndeck sheep*3 dog hunter*2 hunter? shepherd? wolf*2\nme 1\n")


def test_players_options_and_length_bound() -> None:
    assert WOOF.players(WoofOptions(4)) == ("seat 1", "seat 2", "seat 3", "seat 4")
    default = WOOF.default_options()
    assert default.players == 8 and len(default.deck) == 16 and default.turn_limit is None
    assert WOOF.length_bound(default) is None  # W7 alone does not end every round
    # the deal, 10 turns of at most a look and a card pick, 6 final suspicions
    assert WOOF.length_bound(WoofOptions(6, turn_limit=10)) == 1 + 20 + 6
    for bad in (dict(players=4, start=5), dict(players=6, barred=frozenset({1, 2, 3, 4})),
                dict(players=5, deck=(parse_card("sheep"),) * 9), dict(players=5, turn_limit=-1),
                dict(players=5, barred=frozenset({6}))):
        with pytest.raises(RulesError):
            WoofOptions(**bad)
    assert WoofRound.new(WoofOptions(5, start=3)).current == 3
