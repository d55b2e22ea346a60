"""The card games' analyses against independent methods and the published values:
War exact counts vs the rules model deal by deal, the Markov chain vs a dense solve of the
rules model's own chance probabilities, Monte Carlo vs exact; the herd simulation.
Concentration: tests/test_conc_exact.py."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from fleece.rules.cards.deck import arrangements, pairs, parse_deck
from fleece.rules.cards.war import Order, Outcome, Runout, WarOptions, WarState
from fleece.solver.cards import war_mc
from fleece.solver.cards.herd import simulate as herd_simulate
from fleece.solver.cards.war import analyse_fixed, analyse_random, play_fixed

# ---- War: exact -------------------------------------------------------------------------


def _rules_outcome(deck_spec: str, deal: tuple[int, ...], order: Order,
                   runout: Runout) -> tuple[Outcome, int]:
    state = WarState(WarOptions(parse_deck(deck_spec), order, runout))
    from fleece.rules.cards.war import Deal

    state = state.play(Deal(deal))
    while not state.is_terminal():
        state = state.play(next(state.legal_moves()))
    assert state.outcome is not None
    return state.outcome, state.battles


@pytest.mark.parametrize("spec", ["pairs:4", "1,2,3,4,5", "1*3,2*2,3"])
@pytest.mark.parametrize("order", [Order.WINNER_FIRST, Order.LOSER_FIRST])
@pytest.mark.parametrize("runout", list(Runout))
def test_k2_exact_counts_match_the_rules_model_deal_by_deal(spec: str, order: Order,
                                                            runout: Runout) -> None:
    """Every deal played by the protocol model (its own cycle rule) gives the same outcome
    counts, longest game and total battles as the memoised functional graph."""
    deck = parse_deck(spec)
    result = analyse_fixed(deck, order, runout)
    counts = {o: 0 for o in Outcome}
    longest, total = 0, 0
    for deal in arrangements(deck.counts):
        outcome, battles = _rules_outcome(spec, deal, order, runout)
        counts[outcome] += 1
        if outcome is not Outcome.CYCLE:
            longest, total = max(longest, battles), total + battles
    assert (result.a_wins, result.b_wins, result.draws, result.cycles) == (
        counts[Outcome.A], counts[Outcome.B], counts[Outcome.DRAW], counts[Outcome.CYCLE])
    assert result.deals == deck.arrangements()
    assert result.longest == longest and result.total_battles == total


def test_k2_cycles_exist_with_a_fixed_order_on_small_decks() -> None:
    """The literature's claim (Lakshtanov & Roshchina; Spivey): fixed orders can cycle. The
    tool finds cycling deals for pairs:4 (winner-first: 70 of 2520, all of period 8) and
    5 distinct ranks; every reported example really repeats in the rules model."""
    r = analyse_fixed(pairs(4), Order.WINNER_FIRST)
    assert r.cycles == 70 and r.periods == ((8, 70),)
    assert r.cycle_example is not None
    outcome, battles = _rules_outcome("pairs:4", r.cycle_example.deal, Order.WINNER_FIRST,
                                      Runout.LOSE)
    assert outcome is Outcome.CYCLE and battles == r.cycle_example.battles
    assert analyse_fixed(pairs(4), Order.LOSER_FIRST).cycles == 0
    five = analyse_fixed(parse_deck("1,2,3,4,5"), Order.WINNER_FIRST)
    assert (five.a_wins, five.b_wins, five.cycles) == (57, 33, 30)


def test_k2_pairs5_exact_golden() -> None:
    """The 10-card deck of the speed target (5 ranks x 2, 113400 deals): cross-checked above
    on smaller decks; its counts are symmetric between A and B (equal halves)."""
    r = analyse_fixed(pairs(5), Order.WINNER_FIRST)
    assert r.deals == 113400 and r.a_wins == r.b_wins == 55442
    assert (r.draws, r.cycles, r.longest) == (2516, 0, 91)


def _dense_chain(spec: str) -> tuple[Fraction, Fraction, Fraction]:
    """P(A), P(draw) and E[battles] from the rules model's chance probabilities, solved by
    dense Gauss-Jordan elimination (independent of the solver's sparse elimination)."""
    from fleece.rules.cards.war import Deal

    options = WarOptions(parse_deck(spec), Order.RANDOM)
    start = WarState(options)
    index: dict[object, int] = {}
    states: list[WarState] = []

    def key(s: WarState) -> object:
        return (s.piles, s.outcome)

    def add(s: WarState) -> int:
        k = key(s)
        if k not in index:
            index[k] = len(states)
            states.append(s)
        return index[k]

    deals = [start.play(Deal(d)) for d in arrangements(options.deck.counts)]
    for d in deals:
        add(d)
    i = 0
    while i < len(states):
        s = states[i]
        if not s.is_terminal():
            for m in s.legal_moves():
                add(s.play(m))
        i += 1
    n = len(states)
    rows = []
    for s in states:
        row = [Fraction(0)] * (n + 3)
        row[index[key(s)]] = Fraction(1)
        if s.is_terminal():
            row[n] = Fraction(s.outcome is Outcome.A)
            row[n + 1] = Fraction(s.outcome is Outcome.DRAW)
        else:
            for m in s.legal_moves():
                row[index[key(s.play(m))]] -= s.chance_probability(m)
            row[n + 2] = Fraction(1)
        rows.append(row)
    for c in range(n):
        p = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[p] = rows[p], rows[c]
        piv = rows[c][c]
        rows[c] = [x / piv for x in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    k = len(deals)
    ids = [index[key(d)] for d in deals]
    return (sum((rows[i][n] for i in ids), Fraction(0)) / k,
            sum((rows[i][n + 1] for i in ids), Fraction(0)) / k,
            sum((rows[i][n + 2] for i in ids), Fraction(0)) / k)


@pytest.mark.parametrize("spec", ["pairs:2", "1,2,3", "1*3,2*2"])
def test_k2_random_order_markov_chain_matches_a_dense_solve(spec: str) -> None:
    r = analyse_random(parse_deck(spec))
    p_a, p_draw, battles = _dense_chain(spec)
    assert (r.p_a, r.p_draw, r.expected_battles) == (p_a, p_draw, battles)
    assert r.p_end == 1 and r.never_ending_states == 0


def test_k2_random_order_pairs2_by_hand() -> None:
    """pairs:2 (1 1 2 2, six deals): 1 2 | 1 2 and 2 1 | 2 1 tie at once and neither can add
    two cards: a draw in one battle (1/3). From the other four the game is a short chain; the
    exact chain gives P(draw) 2/3 in all and 8/3 battles on average."""
    r = analyse_random(pairs(2))
    assert (r.p_a, r.p_b, r.p_draw, r.expected_battles) == (
        Fraction(1, 6), Fraction(1, 6), Fraction(2, 3), Fraction(8, 3))


# ---- War: Monte Carlo -------------------------------------------------------------------


@pytest.mark.parametrize("order", [Order.WINNER_FIRST, Order.LOSER_FIRST])
@pytest.mark.parametrize("runout", list(Runout))
def test_monte_carlo_engine_agrees_with_exact_play_on_every_deal(order: Order,
                                                                  runout: Runout) -> None:
    """The numpy engine fed every deal of small decks gives each deal's exact outcome,
    battle count (games that end) and cycle period."""
    for spec in ("pairs:4", "1,2,3,4,5,6"):
        deck = parse_deck(spec)
        deals = np.array(list(arrangements(deck.counts)), dtype=np.int16)
        sim = war_mc._Sim(deck, order, runout, len(deals), 1, 1000, 256)
        sim.saved = deals
        sim.run(None)
        for g, deal in enumerate(deals):
            outcome, battles, period = play_fixed(tuple(int(c) for c in deal), order, runout)
            assert sim.outcome[g] == outcome
            if outcome == 3:
                assert sim.period[g] == period
            else:
                assert sim.battles_of[g] == battles


def test_monte_carlo_is_seeded_and_brackets_the_exact_values() -> None:
    deck = pairs(4)
    a = war_mc.simulate(deck, Order.WINNER_FIRST, 4000, 5)
    b = war_mc.simulate(deck, Order.WINNER_FIRST, 4000, 5)
    assert a.to_json() == b.to_json()
    lo, hi = war_mc.Proportion(a.counts[3], a.games).interval()
    assert lo - 0.01 <= 70 / 2520 <= hi + 0.01
    r = war_mc.simulate(parse_deck("1*3,2*2"), Order.RANDOM, 4000, 3)
    exact = analyse_random(parse_deck("1*3,2*2"))
    lo, hi = r.battles.interval()
    assert lo - 0.05 <= float(exact.expected_battles or 0) <= hi + 0.05


def test_monte_carlo_cuts_games_at_the_limit() -> None:
    r = war_mc.simulate(parse_deck("wolf"), Order.RANDOM, 200, 1, limit=20)
    assert r.counts[4] > 150 and sum(r.counts) == 200


# ---- herd -------------------------------------------------------------------------------


def test_herd_simulation_is_seeded_and_counts_every_game() -> None:
    a = herd_simulate(2, 30, 4, "greedy")
    assert a.to_json() == herd_simulate(2, 30, 4, "greedy").to_json()
    assert sum(a.sole_wins) + a.shared + a.cut == 30
    r = herd_simulate(3, 30, 4, "random", deck=parse_deck("crook*2,sheep1*2"), turn_limit=40)
    assert r.cut + sum(r.sole_wins) + r.shared == 30
