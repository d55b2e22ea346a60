"""War (K1-K2) solved exactly and by Monte Carlo, against tests/war_oracle.py: every deal of a
small deck played by a second, independent implementation of K2.

The exact analysis (solver/cards/war.py) memoises pile pairs and keeps a cycle's period and
the battles until a repeat in one packed integer per pile pair; the Monte Carlo engine
(solver/cards/war_mc.py) finds cycles with Brent's method over hashed piles. Both are
compared here number for number with the oracle: outcome counts, the longest game and a deal
that plays it, the total and mean length of the games that end, the histogram of cycle
periods, the example cycle (its deal really cycles, after the stated battles, with the stated
period), and the number of distinct pile pairs met.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from helpers import war_oracle

from fleece.rules.cards.deck import parse_deck
from fleece.rules.cards.war import Order, Runout
from fleece.solver.cards import war_mc
from fleece.solver.cards.war import analyse_fixed, play_fixed

DECKS = ["pairs:4", "1,2,3,4,5", "1*3,2*2,3", "1,2,3,4,5,6", "1*2,2*2,3*2", "1*4,2*2"]
CODE = {"A": 0, "B": 1, "draw": 2, "cycle": 3}


def oracle_games(spec: str, order: Order, runout: Runout) -> list[tuple[tuple[int, ...],
                                                                         war_oracle.Game]]:
    """Every deal of the deck with its game, played by the oracle."""
    deck = parse_deck(spec)
    return [(d, war_oracle.play(d, order.value, runout.value))
            for d in war_oracle.deals(list(deck.counts))]


@pytest.mark.parametrize("spec", DECKS)
@pytest.mark.parametrize("order", [Order.WINNER_FIRST, Order.LOSER_FIRST])
@pytest.mark.parametrize("runout", list(Runout))
def test_k2_exact_analysis_equals_the_oracle_on_every_deal(spec: str, order: Order,
                                                            runout: Runout) -> None:
    games = oracle_games(spec, order, runout)
    r = analyse_fixed(parse_deck(spec), order, runout)
    outcomes = Counter(g.outcome for _, g in games)
    ended = [(d, g) for d, g in games if g.outcome != "cycle"]
    assert r.deals == len(games)
    assert (r.a_wins, r.b_wins, r.draws, r.cycles) == (
        outcomes["A"], outcomes["B"], outcomes["draw"], outcomes["cycle"])
    assert r.total_battles == sum(g.battles for _, g in ended)
    assert r.mean_battles == (Fraction(r.total_battles, len(ended)) if ended else 0)
    assert r.longest == max((g.battles for _, g in ended), default=0)
    by_deal = dict(games)
    if r.longest_deal is not None:
        longest = by_deal[r.longest_deal]
        assert longest.outcome != "cycle" and longest.battles == r.longest
    assert r.periods == tuple(sorted(Counter(g.period for _, g in games
                                             if g.outcome == "cycle").items()))
    if r.cycles:
        assert r.cycle_example is not None
        example = by_deal[r.cycle_example.deal]
        assert example.outcome == "cycle"
        assert (example.battles, example.period) == (r.cycle_example.battles,
                                                     r.cycle_example.period)
    else:
        assert r.cycle_example is None
    starts = {s for _, g in games for s in g.starts}
    assert r.states == len(starts)


@pytest.mark.parametrize("spec", ["pairs:4", "1,2,3,4,5", "1*3,2*2,3"])
@pytest.mark.parametrize("order", [Order.WINNER_FIRST, Order.LOSER_FIRST])
def test_k2_one_deal_played_exactly_equals_the_oracle(spec: str, order: Order) -> None:
    for deal, game in oracle_games(spec, order, Runout.LOSE):
        assert play_fixed(deal, order) == (CODE[game.outcome], game.battles, game.period)


def test_k2_exact_json_reports_the_counts_and_the_cycles() -> None:
    """pairs:4 winner-first (the literature's claim that fixed orders cycle): the JSON has the
    oracle's counts, the cycle fraction as an exact fraction and the periods."""
    games = oracle_games("pairs:4", Order.WINNER_FIRST, Runout.LOSE)
    cycles = [g for _, g in games if g.outcome == "cycle"]
    d = analyse_fixed(parse_deck("pairs:4"), Order.WINNER_FIRST).to_json()
    assert d["deals"] == len(games) == 2520 and d["cycles"] == len(cycles) > 0
    assert d["cycle_fraction"] == str(Fraction(len(cycles), 2520))
    assert d["cycle_periods"] == {str(p): n for p, n in
                                  sorted(Counter(g.period for g in cycles).items())}
    example: Any = d["cycle_example"]
    deal = tuple(int(x) - 1 for x in example["deal"].split())
    game = war_oracle.play(deal, "winner-first")
    assert game.outcome == "cycle" and game.period == example["period"]
    assert game.battles == example["battles_until_repeat"]
    ended = [g.battles for _, g in games if g.outcome != "cycle"]
    assert d["mean_battles"] == str(Fraction(sum(ended), len(ended)))
    assert d["longest"] == max(ended)


def _all_deals_simulation(monkeypatch: pytest.MonkeyPatch, spec: str, order: Order,
                          runout: Runout, slots: int, limit: int = 500
                          ) -> tuple[war_mc.MonteCarloWar, list[Any]]:
    """`war_mc.simulate` fed every deal of the deck once, in order (instead of random deals),
    with the oracle's games; the battle limit, 500 unless given, is far above the longest of
    these games (so a missed cycle shows as a cut game, quickly)."""
    games = oracle_games(spec, order, runout)
    saved = np.array([d for d, _ in games], dtype=np.int16)
    init = war_mc._Sim.__init__

    def with_deals(self: war_mc._Sim, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.saved = saved

    monkeypatch.setattr(war_mc._Sim, "__init__", with_deals)
    r = war_mc.simulate(parse_deck(spec), order, len(games), 1, runout=runout, slots=slots,
                        limit=limit)
    assert max(g.battles for _, g in games) < 100
    return r, games


@pytest.mark.parametrize(("spec", "order", "runout"), [
    ("pairs:4", Order.WINNER_FIRST, Runout.LOSE),
    ("1,2,3,4,5", Order.WINNER_FIRST, Runout.LAST_CARD),
    ("1*3,2*2,3", Order.LOSER_FIRST, Runout.LOSE),
    ("1,2,3,4,5,6", Order.LOSER_FIRST, Runout.LAST_CARD),
])
def test_k2_monte_carlo_on_every_deal_equals_the_oracle(monkeypatch: pytest.MonkeyPatch,
                                                         spec: str, order: Order,
                                                         runout: Runout) -> None:
    """Counts, the mean and spread of the game lengths and of the cycle periods, the longest
    game and the example cycle, with few slots so that slots are refilled and compacted."""
    r, games = _all_deals_simulation(monkeypatch, spec, order, runout, slots=64)
    outcomes = Counter(g.outcome for _, g in games)
    assert r.counts == (outcomes["A"], outcomes["B"], outcomes["draw"], outcomes["cycle"], 0)
    ended = [g.battles for _, g in games if g.outcome != "cycle"]
    periods = [g.period for _, g in games if g.outcome == "cycle"]
    assert (r.battles.n, r.battles.total, r.battles.squares) == (
        len(ended), float(sum(ended)), float(sum(b * b for b in ended)))
    assert (r.periods.n, r.periods.total, r.periods.squares) == (
        len(periods), float(sum(periods)), float(sum(p * p for p in periods)))
    assert r.longest == max(ended)
    if periods:
        assert r.cycle_example is not None
        deal, period = r.cycle_example
        game = dict(games)[deal]
        assert game.outcome == "cycle" and game.period == period
    else:
        assert r.cycle_example is None
    d = r.to_json()
    assert d["cycles"]["count"] == len(periods) and d["games"] == len(games)  # type: ignore[index]


def test_k2_monte_carlo_cuts_at_the_limit_and_never_reads_a_cut_as_a_cycle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Battle limit 5 on pairs:4 winner-first: a game the oracle ends within 5 battles keeps
    its outcome and length; every other game is cut (the cycles of pairs:4 repeat only after 8
    battles), and a cut game counts neither as an ended game nor as a cycle."""
    r, games = _all_deals_simulation(monkeypatch, "pairs:4", Order.WINNER_FIRST, Runout.LOSE,
                                     slots=256, limit=5)
    want = Counter(g.outcome if g.battles <= 5 else "cut" for _, g in games)
    assert want["cycle"] == 0 < want["cut"]
    assert r.counts == (want["A"], want["B"], want["draw"], 0, want["cut"])
    ended = [g.battles for _, g in games if g.battles <= 5]
    assert (r.battles.n, r.battles.total) == (len(ended), float(sum(ended)))
    assert r.periods.n == 0 and r.cycle_example is None and r.longest == max(ended)
