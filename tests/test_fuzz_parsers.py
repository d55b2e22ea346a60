"""Hypothesis fuzzing of every text parser: a valid input (bundled examples, puzzles, records,
positions, deck specs) under random edits, or random text from the format's own alphabet plus
hostile characters, must either parse or raise one of the project's typed errors
(FleeceError: ParseError, RulesError, IllegalMoveError) - never ValueError, KeyError,
IndexError, RecursionError or the int-conversion limit - and a ParseError's line lies inside
the text (lines counted at `\\n` only).

The Ulvtafl and card-game parsers number lines the same way (a lone CR or U+2028 stays
inside its line). The default profile tries a modest number of inputs per parser; the `ci`
profile more."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.text import split_lines

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
PZ = ROOT / "puzzles"

HOSTILE = ["\u00a0", "\t", "\r", "\x0c", "\x0b", "\u2028", "\u2029", "\x85", "\x00", "\x1b",
           "\u200b", "\ufeff", "\u202e", "\u0663", "\uff11", "\u00b2", "\u212a", "\u0130",
           "9" * 30, "9" * 5000, "[" * 40, "-", "=", ":", ",", "*", "#", "?", "@", "/", "\n",
           "\r\n", " "]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _seeds(*paths: Path) -> list[str]:
    return [_read(p) for p in paths]


@st.composite
def edited(draw: st.DrawFn, seeds: list[str], alphabet: str) -> str:
    """A seed text with a few random edits: insert, delete, replace or duplicate."""
    text = draw(st.sampled_from(seeds))
    pieces = st.one_of(st.sampled_from(HOSTILE), st.text(alphabet, min_size=1, max_size=4))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.integers(0, 3))
        if op == 0:
            text = text[:at] + draw(pieces) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif op == 2:
            text = text[:at] + draw(pieces) + text[at + 1:]
        else:
            end = min(len(text), at + draw(st.integers(1, 40)))
            text = text[:at] + text[at:end] * 2 + text[end:]
    return text


def inputs(seeds: list[str], alphabet: str) -> st.SearchStrategy[str]:
    """Edited seeds, and random text over the format's alphabet and hostile characters."""
    raw = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(alphabet, max_size=6)),
                   max_size=30).map("".join)
    return st.one_of(edited(seeds, alphabet), raw)


def only_typed_errors(parse: Callable[[str], Any], text: str, *, lines: bool = True) -> None:
    """Run `parse(text)`: it returns, or raises a FleeceError; with `lines`, a ParseError's
    line lies inside the text as rules.text.split_lines counts lines."""
    try:
        parse(text)
    except ParseError as exc:
        if exc.line is not None and lines:
            assert 1 <= exc.line <= max(1, len(split_lines(text)) + 1), (exc, text[:200])
        assert exc.column is None or exc.column >= 1
    except FleeceError:
        pass


FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

CHART_SEEDS = _seeds(EX / "mutton" / "helppage.txt", EX / "mutton" / "typo.txt",
                     EX / "mutton" / "wolf-ate-wolf.txt", PZ / "mutton" / "hard" / "001.txt")
CHART_ABC = "ABCDEFGHIJKLMNOPQRSTUVWXYZxwe+. */-0123456789SheepRoundScore:()tobea"
RECORD_SEEDS = _seeds(*sorted((EX / "mutton").glob("*.rec")))
RECORD_ABC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg0123456789:-,=# sparserandommirrorwolvespassgame"
WOOF_SEEDS = _seeds(*sorted((EX / "woof").glob("*.txt")), PZ / "woof" / "hard" / "002.txt")
WOOF_ABC = "seatsdeckmehandlooksawaskdogtargetsheepwolfhunter?@*q12345678yesnobasicexpert #"
JSON_SEEDS = _seeds(EX / "mutton" / "passed.json", EX / "mutton" / "no-reveal.json",
                    PZ / "mutton" / "easy" / "001.json", PZ / "woof" / "easy" / "001.json")
JSON_ABC = '{}[]":,0123456789.-etruefalsnl\\ABCDxw+ anim'


@FUZZ
@given(inputs(CHART_SEEDS, CHART_ABC))
def test_fuzz_chart_reader(text: str) -> None:
    from fleece.rules.mutton.chart import parse_chart

    only_typed_errors(parse_chart, text)
    only_typed_errors(lambda t: parse_chart(t, reveal=False, escaped="AB"), text)


@FUZZ
@given(inputs(CHART_SEEDS + RECORD_SEEDS + JSON_SEEDS, CHART_ABC + RECORD_ABC))
def test_fuzz_mutton_inputs_any_kind(text: str) -> None:
    """What `mutton solve` and `mutton chart` read: paste, puzzle text, record or JSON."""
    from fleece.solver.mutton.inputs import chart_from_text, problem_from_text

    only_typed_errors(problem_from_text, text)
    only_typed_errors(chart_from_text, text)


@FUZZ
@given(inputs(RECORD_SEEDS, RECORD_ABC))
def test_fuzz_record_reader_and_replay(text: str) -> None:
    from fleece.rules.mutton.record import parse_record, replay

    only_typed_errors(lambda t: replay(parse_record(t)), text)


@FUZZ
@given(inputs(["-size=4 -num_sheep=26 -num_wolves=4 -berserk -reveal -no_remove -rifle",
               "-size=5 -num_sheep=16 -quick=11 -shotgun -words=ABCD,EFGH"],
              "-=_sizenumheepwolvsbrkrvalmoqucktgfdABCDEFGH,0123456789 "))
def test_fuzz_options_line(text: str) -> None:
    from fleece.rules.mutton.options import parse_options

    only_typed_errors(lambda t: parse_options(t, line=1), text)


@FUZZ
@given(inputs(JSON_SEEDS, JSON_ABC))
def test_fuzz_json_readers(text: str) -> None:
    from fleece.rules.text import load_json
    from fleece.solver.mutton.inputs import problem_from_json
    from fleece.solver.mutton.puzzle.formats import puzzle_from_json
    from fleece.solver.woof.puzzle.formats import parse_puzzle

    only_typed_errors(load_json, text)
    only_typed_errors(problem_from_json, text)
    only_typed_errors(puzzle_from_json, text)
    if text.lstrip().startswith("{"):
        only_typed_errors(parse_puzzle, text)


@FUZZ
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.sampled_from(
                        ["animals", "status", "rows", "round", "victim", "runners", "board",
                         "size", "corpses", "score", "to_beat", "wolves", "reveal", "passed",
                         "paste", "record", "chart", "escaped", "A", "B"]), kids, max_size=5),
                    max_leaves=20))
def test_fuzz_json_structures_of_every_type(data: object) -> None:
    """Any JSON value in any field: a typed error naming the field, or a chart."""
    from fleece.solver.mutton.inputs import problem_from_json

    only_typed_errors(problem_from_json, json.dumps(data))
    only_typed_errors(problem_from_json, json.dumps({"animals": "ABCD", "chart": data}))


@FUZZ
@given(inputs(WOOF_SEEDS, WOOF_ABC))
def test_fuzz_woof_evidence(text: str) -> None:
    from fleece.rules.woof.evidence import load_evidence

    only_typed_errors(lambda t: load_evidence(t).with_view(1, "sheep"), text)


@FUZZ
@given(inputs(_seeds(*sorted((PZ / "mutton" / "medium").glob("00[1-4].txt")),
                     *sorted((PZ / "woof" / "medium").glob("00[1-4].txt")),
                     *sorted((PZ / "mutton" / "medium").glob("00[1-2].solution.txt"))),
              CHART_ABC + WOOF_ABC + "PuzzleGradeWolvesQuestionWhatisWhoareAnswer"))
def test_fuzz_puzzle_files(text: str) -> None:
    from fleece.solver.mutton.puzzle.formats import parse_puzzle as mutton_puzzle
    from fleece.solver.mutton.puzzle.formats import parse_solution_answer
    from fleece.solver.woof.puzzle.formats import parse_puzzle as woof_puzzle
    from fleece.solver.woof.puzzle.formats import solution_answer

    only_typed_errors(mutton_puzzle, text)
    only_typed_errors(woof_puzzle, text)
    only_typed_errors(parse_solution_answer, text)
    only_typed_errors(solution_answer, text)


@FUZZ
@given(inputs(["wolf", "mccord", "pairs:13", "1*2,2*2,3*2,4*2", "fence*8,crook*2,wisc*4",
               "a*2,b*2"], "wolfmccordpairs:0123456789*,fencecrooksheepwisc-_ "))
def test_fuzz_card_deck_specs(text: str) -> None:
    from fleece.rules.cards.deck import parse_deck

    only_typed_errors(parse_deck, text)


def _card_positions() -> list[str]:
    """Position texts of the herd game and Concentration after a few seeded random moves."""
    import random

    from fleece.rules.cards.concentration import CONCENTRATION
    from fleece.rules.cards.concentration import format_position as conc_text
    from fleece.rules.cards.herd import HERD
    from fleece.rules.cards.herd import format_position as herd_text

    out = []
    for game, fmt in ((HERD, herd_text), (CONCENTRATION, conc_text)):
        rng = random.Random(7)
        state: Any = game.new_initial_state(game.default_options())
        for _ in range(12):
            if state.is_terminal():
                break
            state = state.play(game.random_move(state, rng))
        out.append(fmt(state))
    return out


@FUZZ
@given(inputs(_seeds(*sorted((EX / "ulvtafl").glob("*.txt")), *sorted((EX / "cards")
                     .glob("*.txt"))) + _card_positions(), "SW./ ws0123456789abcdefgx-=#"))
def test_fuzz_ulvtafl_positions_and_card_positions(text: str) -> None:
    from fleece.rules.cards.concentration import parse_position as conc_position
    from fleece.rules.cards.herd import parse_position as herd_position
    from fleece.rules.cards.war import parse_position as war_position
    from fleece.rules.ulvtafl.notation import parse_position

    body = "\n".join(line for line in split_lines(text) if not line.startswith("#"))
    only_typed_errors(parse_position, body)
    only_typed_errors(war_position, text)
    only_typed_errors(herd_position, text)
    only_typed_errors(conc_position, text)


@FUZZ
@given(inputs(_seeds(*sorted((EX / "ulvtafl").glob("*.rec"))),
              "abcdefg1234567-x=setup20 #\n"))
def test_fuzz_ulvtafl_records(text: str) -> None:
    from fleece.rules.ulvtafl.record import parse_record, replay

    only_typed_errors(lambda t: replay(parse_record(t)), text)
