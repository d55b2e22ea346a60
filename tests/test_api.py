"""The library API (fleece.api): where it decides something itself - War's exact analysis or a
Monte Carlo estimate - against oracles; reports whose fields are their JSON keys; requests
whose fields are the command line's option names and the web's JSON fields; errors that carry
their field instead of a message to parse."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from math import factorial
from pathlib import Path
from typing import Any

import pytest

from fleece.api import cards, mutton, ulvtafl, woof
from fleece.rules.cards.deck import parse_deck
from fleece.rules.cards.war import Order, Runout, WarOptions, WarState
from fleece.rules.errors import BudgetExceeded, FleeceError, ParseError

ROOT = Path(__file__).resolve().parent.parent


def war_by_the_rules(spec: str) -> tuple[int, Counter[str]]:
    """Oracle: every distinct deal of `spec` played to its end by the rules model
    (fleece.rules.cards.war, winner-first, run-out `lose`), not by the solver's inlined
    battles; the number of deals and the outcomes."""
    options = WarOptions(parse_deck(spec), Order.WINNER_FIRST, Runout.LOSE, None)
    start = WarState(options)
    outcomes: Counter[str] = Counter()
    deals = 0
    for deal in start.legal_moves():
        deals += 1
        state = start.play(deal)
        while not state.is_terminal():
            state = state.play(next(iter(state.legal_moves())))
        assert state.outcome is not None
        outcomes[state.outcome.value] += 1
    return deals, outcomes


def test_war_is_exact_within_the_deal_budget_against_the_rules_model() -> None:
    """pairs:4 has 8!/2!^4 = 2520 deals: within the default budget the analysis is exact,
    says so and why, and its counts are the rules model's, deal by deal."""
    deals, outcomes = war_by_the_rules("pairs:4")
    assert deals == factorial(8) // 2**4 == 2520
    report = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:4"))
    assert isinstance(report, cards.WarExactReport) and report.method == "exact"
    assert report.reason == ("all 2520 deals are within max_deals 2000000: every one played")
    assert (report.deals, report.a_wins, report.b_wins, report.draws, report.cycles) == (
        deals, outcomes["A"], outcomes["B"], outcomes["draw"], outcomes["cycle"])
    assert report.cycles == 70  # README: 70 of the 2,520 deals cycle (1/36)


def test_war_budget_boundary_decides_exact_or_estimate() -> None:
    """One deal over max_deals and the analysis estimates instead, saying which budget it
    passed; exactly at it, it is exact. `samples` asks for the estimate outright."""
    at = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:3", max_deals=90))
    assert at.method == "exact" and at.deals == factorial(6) // 2**3 == 90
    over = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:3", max_deals=89))
    assert isinstance(over, cards.WarSampledReport) and over.method == "monte-carlo"
    assert over.games == cards.DEFAULT_SAMPLES
    assert over.reason == over.note == (
        "90 deals exceed the exact budget of 89: estimated from 20000 seeded games instead")
    asked = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:3", samples=500, seed=4))
    assert asked.method == "monte-carlo" and asked.games == 500
    assert asked.reason == "samples 500: a Monte Carlo estimate was asked for"
    assert "note" not in asked.to_json()


def test_war_random_order_is_a_markov_chain_until_its_state_budget() -> None:
    exact = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:2", order="random"))
    assert isinstance(exact, cards.WarMarkovReport) and exact.p_end == "1"
    assert exact.expected_battles == "8/3"
    assert exact.reason.startswith(f"the random-order chain of {exact.states} states")
    over = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:3", order="random",
                                                     max_states=2, samples=None, seed=1))
    assert over.method == "monte-carlo" and "more than 2 states" in over.reason


def test_war_estimate_interval_covers_the_exact_fractions() -> None:
    """The sampled report's 95% intervals (seed fixed) contain the exact fractions of the
    rules model's count: the estimate estimates the same quantity."""
    deals, outcomes = war_by_the_rules("pairs:4")
    est = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:4", samples=4000, seed=7))
    assert isinstance(est, cards.WarSampledReport)
    for key, name in (("a_wins", "A"), ("b_wins", "B"), ("draws", "draw"),
                      ("cycles", "cycle")):
        lo, hi = getattr(est, key)["ci95"]
        exact = Fraction(outcomes[name], deals)
        assert lo <= exact <= hi, (key, lo, float(exact), hi)


def test_reports_are_their_json_keys() -> None:
    """A report's fields are the keys of its JSON object, in order; a key the solver adds
    that the report does not declare is refused, so the two cannot drift apart."""
    chart = (ROOT / "examples" / "mutton" / "helppage.txt").read_text()
    report = mutton.solve(mutton.SolveRequest(chart=chart))
    assert list(report.to_json()) == [k for k in mutton.SolveReport.json_keys()
                                      if k in report.to_json()]
    assert report.to_json() == report.analysis.to_json()
    with pytest.raises(TypeError, match="no field for the keys"):
        mutton.PackReport.from_json({"out": "x", "count": 1, "grade": "easy", "files": [],
                                     "extra": 1})
    stopped = dataclasses.fields(mutton.SolveReport)
    assert [f.name for f in stopped if not f.metadata.get("json", True)] == ["analysis"]


#: (command words, request class, request fields that are not options: the input text)
REQUESTS: list[tuple[list[str], type[Any], set[str]]] = [
    (["mutton", "solve"], mutton.SolveRequest, {"chart", "source"}),
    (["mutton", "chart"], mutton.ChartRequest, {"chart", "source"}),
    (["mutton", "board"], mutton.BoardRequest, set()),
    (["mutton", "puzzle", "generate"], mutton.PuzzleGenerateRequest, set()),
    (["woof", "solve"], woof.SolveRequest, {"evidence", "source"}),
    (["woof", "puzzle", "generate"], woof.PuzzleGenerateRequest, set()),
    (["ulvtafl", "board"], ulvtafl.PositionRequest, set()),
    (["ulvtafl", "perft"], ulvtafl.PerftRequest, {"depth"}),
    (["ulvtafl", "solve"], ulvtafl.SolveRequest, {"text", "source"}),
    (["cards", "deck"], cards.DeckRequest, set()),
    (["cards", "war", "play"], cards.WarPlayRequest, {"source"}),
    (["cards", "war", "analyse"], cards.WarAnalyseRequest, set()),
    (["cards", "herd", "simulate"], cards.HerdRequest, set()),
    (["cards", "concentration", "solve"], cards.ConcentrationRequest, set()),
    (["cards", "concentration", "pairs"], cards.PairsRequest, set()),
]


def _options(words: list[str]) -> set[str]:
    """The long option names of a command (its module loaded as the CLI loads it)."""
    from fleece.cli import FleeceGroup, command

    top = command()
    assert isinstance(top, FleeceGroup)
    from typer._click.core import Context

    cmd: Any = top.get_command(Context(top), words[0])
    for word in words[1:]:
        cmd = cmd.get_command(Context(cmd), word)
    return {o for p in cmd.params for o in p.opts if o.startswith("--")}


@pytest.mark.parametrize("words,request_class,text_fields", REQUESTS,
                         ids=[" ".join(r[0]) for r in REQUESTS])
def test_request_fields_are_the_command_line_options(words: list[str], request_class: Any,
                                                     text_fields: set[str]) -> None:
    """Every request field is the command's option of the same name (`max_states` is
    `--max-states`), but for the input text the command reads from a FILE argument."""
    options = _options(words)
    for f in dataclasses.fields(request_class):
        if f.name in text_fields:
            continue
        option = "--" + f.name.replace("_", "-")
        if f.name == "position" and words[:2] == ["cards", "war"]:
            continue  # `war play --position FILE`: the file's text
        assert option in options, (words, f.name, sorted(options))


def test_web_fields_are_request_fields() -> None:
    """The web's JSON fields are the same names: each field of a web request model
    (fleece.web.routers) is a field of the API request it builds, and the card games' models
    have every field of theirs."""
    from fleece.web.routers import cards as web_cards
    from fleece.web.routers import mutton as web_mutton
    from fleece.web.routers import ulvtafl as web_ulvtafl
    from fleece.web.routers import woof as web_woof

    def names(request: Any) -> set[str]:
        return {f.name for f in dataclasses.fields(request)}

    assert set(web_mutton.SolveBody.model_fields) <= names(mutton.SolveRequest)
    assert set(web_woof.SolveBody.model_fields) <= names(woof.SolveRequest)
    assert set(web_cards.WarBody.model_fields) == names(cards.WarAnalyseRequest)
    # the web's time budget is the worker pool's per-request budget, not a request field
    assert set(web_cards.ConcentrationBody.model_fields) == \
        names(cards.ConcentrationRequest) - {"timeout"}
    # the web solves positions only, within the server's own memory budget
    assert set(web_ulvtafl.SolveBody.model_fields) == \
        names(ulvtafl.SolveRequest) - {"text", "source", "memory"}
    assert set(web_ulvtafl.MoveBody.model_fields) == names(ulvtafl.MoveRequest)


def test_errors_carry_their_field_line_and_limit() -> None:
    """No caller parses a message: the field, the location and the budget are values."""
    chart = (ROOT / "examples" / "mutton" / "helppage.txt").read_text()
    with pytest.raises(FleeceError) as err:
        mutton.solve(mutton.SolveRequest(chart=chart, escaped="G,7"))
    assert (err.value.field, err.value.message) == ("escaped", "'7' is not an animal letter")
    with pytest.raises(FleeceError) as err:
        mutton.solve(mutton.SolveRequest(chart=chart, engine="quantum"))
    assert (err.value.field, err.value.value) == ("engine", "quantum")
    with pytest.raises(ParseError) as perr:
        mutton.parse_chart(mutton.ChartRequest(chart="Sheep   : A B C D\nRound  1:   Q\n",
                                               source="paste"))
    assert (perr.value.source, perr.value.line) == ("paste", 2)
    assert perr.value.column is not None and str(perr.value).startswith("paste, line 2, ")
    with pytest.raises(BudgetExceeded) as budget:
        cards.solve_concentration(cards.ConcentrationRequest(deck="pairs:40", max_states=10))
    assert (budget.value.what, budget.value.limit, budget.value.field) == (
        "positions", 10, "max_states")
    assert budget.value.text(lambda f: "--" + f.replace("_", "-")) == (
        "12,341 positions, more than the exact solver's budget of 10 (raise --max-states)")
    with pytest.raises(FleeceError) as err:
        ulvtafl.board(ulvtafl.PositionRequest(wolf=("z9",)))
    assert err.value.field == "wolf" and "'z9' is not a point" in err.value.message


def test_ulvtafl_reply_keeps_the_proved_value() -> None:
    """The solver's reply in play (solver.ulvtafl.policy.reply_move via api.ulvtafl.play):
    examples/ulvtafl/trapped.txt is analysed by hand as a sheep win in 2 plies (the wolf's
    only move c7-c6, then a sheep move that leaves it none), so the solver's reply must end
    the game at once, won by the sheep."""
    text = (ROOT / "examples" / "ulvtafl" / "trapped.txt").read_text()
    trapped = next(ln for ln in text.splitlines() if ln and not ln.startswith("#"))
    board = ulvtafl.board(ulvtafl.PositionRequest(position=trapped))
    assert board.to_move == "wolves" and board.legal_moves
    after = ulvtafl.play(ulvtafl.MoveRequest(position=trapped, move=board.legal_moves[0],
                                             solver="sheep", think=600.0))
    assert board.legal_moves == ["c7-c6"]
    assert after.played[0] == "c7-c6" and len(after.played) == 2
    assert after.reply_note is not None
    assert "value sheep" in after.reply_note
    assert after.result == "sheep" and after.to_move is None  # the file's hand analysis
