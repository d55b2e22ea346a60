"""The Wolf! card games' reference models (docs/rules.md K1-K4): the deck spec, War's battles, the
herd game's card effects and scoring, Concentration's turns; conservation in random play."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.cards.concentration import (
    CONCENTRATION,
    ConcentrationOptions,
    ConcState,
    Deal,
    Flip,
)
from fleece.rules.cards.deck import (
    WOLF_DECK,
    arrangements,
    multinomial,
    pairs,
    parse_deck,
)
from fleece.rules.cards.herd import (
    CROOK,
    FENCE,
    HERD,
    SHEEP1,
    SHEEP2,
    SHEEP3,
    WISC,
    WOLF1,
    WOLF2,
    Attack,
    Crook,
    Discard,
    Disguise,
    Herd,
    HerdOptions,
    HerdState,
    PlayFence,
    PlaySheep,
)
from fleece.rules.cards.war import (
    WAR,
    Battle,
    Order,
    Outcome,
    Runout,
    WarOptions,
    WarState,
    battle,
    fixed_return,
)
from fleece.rules.errors import IllegalMoveError, ParseError, RulesError

# ---- the deck ---------------------------------------------------------------------------


def test_k3_mccord_deck_has_52_cards_in_the_stated_counts() -> None:
    """K3: 8 one-Sheep, 8 two-Sheep, 10 three-Sheep, 8 Fence, 8 one-Wolf, 4 two-Wolf, 4 Wolf in
    sheep's clothing, 2 Crook = 52."""
    got = {k.name: k.count for k in WOLF_DECK.kinds}
    assert got == {"sheep1": 8, "sheep2": 8, "sheep3": 10, "fence": 8, "wolf1": 8,
                   "wolf2": 4, "wisc": 4, "crook": 2}
    assert WOLF_DECK.size == 52 and parse_deck("mccord") == WOLF_DECK == parse_deck(" WOLF ")


def test_k1_k2_war_ranks_follow_k1_with_the_fence_lowest() -> None:
    """K1's order high to low, K2's labelled assumption: Fences below the Crook."""
    order = [k.name for k in sorted(WOLF_DECK.kinds, key=lambda k: -(k.rank or 0))]
    assert order == ["wisc", "wolf2", "wolf1", "sheep3", "sheep2", "sheep1", "crook", "fence"]


def test_k4_every_kind_of_the_mccord_deck_has_a_partner() -> None:
    """K4: every count is even, so every card has a partner."""
    assert all(k.count % 2 == 0 for k in WOLF_DECK.kinds)


def test_k2_distinct_deals_are_multiset_arrangements() -> None:
    """K2: each distinct arrangement is one deal; 10!/(2!^5) = 113400 for pairs:5; the lazy
    list has exactly that many distinct entries on a small deck (12 = 4!/(2!1!1!))."""
    assert pairs(5).arrangements() == 113400
    listed = list(arrangements([2, 1, 1]))
    assert len(listed) == len(set(listed)) == 12 == multinomial([2, 1, 1])
    assert listed == sorted(listed)


@pytest.mark.parametrize("spec", ["", "a*0", "a*x", "1*2,1*3", "a b", "1*2,wolf1", "pairs:0",
                                  "pairs:x", "a*99999", "x" * 3000, ",", "a*2,,b*2",
                                  "\x00*2", "1*600"])
def test_bad_deck_specs_are_one_line_parse_errors(spec: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_deck(spec)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_deck_spec_round_trips() -> None:
    for spec in ["wolf", "pairs:3", "3*2,1,2*4", "a*2,b*4", "sheep1*2,wolf2"]:
        deck = parse_deck(spec)
        assert parse_deck(deck.spec()) == deck
    assert parse_deck("3*2,1,2*4").names == ("1", "2", "3")  # sorted by rank


# ---- War ----------------------------------------------------------------------------------


def test_k1_higher_card_takes_both() -> None:
    """K1: 2 beats 1; the winner puts both cards under its pile."""
    r = battle((1, 0), (2,))
    assert r.winner == 1 and r.played == ((1,), (2,)) and not r.runout
    assert fixed_return(r, Order.WINNER_FIRST) == (2, 1)
    assert fixed_return(r, Order.LOSER_FIRST) == (1, 2)


def test_k2_war_adds_a_face_down_and_a_face_up_card() -> None:
    """K2: equal tops (2 = 2): each adds one face-down (1 and 1) and one face-up card (3 vs
    0); 3 wins all six, returned winner-first as A's three then B's three."""
    r = battle((2, 1, 3, 7), (2, 1, 0, 5))
    assert r.winner == 0 and r.played == ((2, 1, 3), (2, 1, 0))
    assert fixed_return(r, Order.WINNER_FIRST) == (2, 1, 3, 2, 1, 0)
    assert fixed_return(r, Order.LOSER_FIRST) == (2, 1, 0, 2, 1, 3)


def test_k2_repeated_war_on_equal_face_up_cards() -> None:
    """K2: the new face-up cards are equal again (3 = 3): another war; 5 beats 4."""
    r = battle((2, 0, 3, 0, 5), (2, 1, 3, 1, 4))
    assert r.winner == 0 and len(r.played[0]) == 5


def test_k2_a_player_who_cannot_finish_a_war_loses_or_draws() -> None:
    """K2 (run-out `lose`): A has one card after its face-up card: it loses; both short: a
    draw. Run-out `last-card`: A's last card is its face-up card (1 < 6), B wins the war."""
    assert battle((2, 1), (2, 5, 6)) == battle((2, 1), (2, 5, 6), Runout.LOSE)
    r = battle((2, 1), (2, 5, 6))
    assert r.runout and r.winner == 1
    r = battle((2, 1), (2, 5))
    assert r.runout and r.winner is None
    r = battle((2, 1), (2, 5, 6), Runout.LAST_CARD)
    assert not r.runout and r.winner == 1 and r.played == ((2, 1), (2, 5, 6))


def test_k2_deal_gives_a_the_first_half_and_b_the_rest() -> None:
    state = WarState(WarOptions(parse_deck("1,2,3,4,5"))).play(
        WAR.parse_move(WarState(WarOptions(parse_deck("1,2,3,4,5"))), "deal 5 4 3 2 1"))
    assert state.piles == ((4, 3, 2), (1, 0))


def test_k2_fixed_order_cycle_ends_the_protocol_game() -> None:
    """K2: the deal 1 1 4 2 3 4 3 2 of pairs:4 repeats a pile pair under winner-first (found by
    the exact analysis): the state's outcome is `cycle`, returns 0 each."""
    options = WarOptions(pairs(4), Order.WINNER_FIRST)
    state = WAR.parse_position(f"{options.text()}\ndeal 1 1 4 2 3 4 3 2\n")
    while not state.is_terminal():
        state = state.play(next(state.legal_moves()))
    assert state.outcome is Outcome.CYCLE and state.returns() == (0, 0)
    assert state.battles == 9


def test_k2_random_order_outcomes_are_the_distinct_orders() -> None:
    """K2 random: the pot 1, 2 goes back as (1,2) or (2,1), each 1/2; pots of a war have
    multinomially many orders."""
    state = WarState(WarOptions(parse_deck("1,2"), Order.RANDOM, battle_limit=10))
    state = state.play(WAR.parse_move(state, "deal 1 2"))
    moves = list(state.legal_moves())
    assert moves == [Battle((0, 1)), Battle((1, 0))]
    assert all(state.chance_probability(m) == Fraction(1, 2) for m in moves)
    with pytest.raises(ParseError):
        WAR.parse_move(state, "battle")
    with pytest.raises(IllegalMoveError):
        state.play(Battle((1, 1)))


def test_war_position_text_names_the_bad_line() -> None:
    with pytest.raises(ParseError) as info:
        WAR.parse_position("war deck=1,2 order=winner-first runout=lose limit=none\n"
                           "deal 1 1\n")
    assert info.value.line == 2


def test_war_options_refuse_unranked_decks() -> None:
    with pytest.raises(RulesError):
        WarOptions(parse_deck("a*2,b*2"))


# ---- the herd game --------------------------------------------------------------------


def _counts(**kinds: int) -> tuple[int, ...]:
    names = ("fence", "crook", "sheep1", "sheep2", "sheep3", "wolf1", "wolf2", "wisc")
    return tuple(kinds.get(n, 0) for n in names)


NO_HERD = Herd()
NO_CARDS = _counts()


def _position(hand0: tuple[int, ...], herd1: Herd, herd0: Herd = NO_HERD,
              discard: tuple[int, ...] = NO_CARDS, draw: tuple[int, ...] = NO_CARDS
              ) -> HerdState:
    """A two-player position built directly; the deck is whatever the cards add up to."""
    totals = [hand0[k] + discard[k] + draw[k] for k in range(8)]
    for h in (herd0, herd1):
        totals[FENCE] += sum(h.fenced)
        for v, kind in enumerate((SHEEP1, SHEEP2, SHEEP3)):
            totals[kind] += h.open[v] + h.fenced[v]
    names = ("fence", "crook", "sheep1", "sheep2", "sheep3", "wolf1", "wolf2", "wisc")
    spec = ",".join(f"{names[k]}*{c}" for k, c in enumerate(totals) if c)
    options = HerdOptions(2, parse_deck(spec), None)
    state = HerdState(options, draw, (hand0, _counts(sheep1=1)), (herd0, herd1), discard)
    return state


def test_k3_sheep_go_to_the_players_own_herd() -> None:
    s = _position(_counts(sheep3=1), Herd()).play(PlaySheep(3))
    assert s.herds[0] == Herd((0, 0, 1), (0, 0, 0)) and s.herds[0].size == 3


def test_k3_fence_covers_an_own_unfenced_sheep_only() -> None:
    """K3: a fence needs an own unfenced sheep card; it then counts as fenced."""
    s = _position(_counts(fence=1, sheep1=1), Herd((1, 0, 0), (0, 0, 0)))
    assert PlayFence(1) not in list(s.legal_moves())  # player 1 has no own sheep
    s = _position(_counts(fence=1), Herd(), Herd((0, 1, 0), (0, 0, 0)))
    s2 = s.play(PlayFence(2))
    assert s2.herds[0] == Herd((0, 0, 0), (0, 1, 0)) and s2.herds[0].fences == 1


@pytest.mark.parametrize("value,wolves,ok", [
    (1, (1,), True), (2, (2,), True), (2, (1, 1), True), (3, (2, 1), True),
    (3, (1, 1, 1), True), (1, (2,), False), (3, (1, 1), False), (3, (2,), False),
    (2, (1,), False)])
def test_k3_wolves_must_match_the_sheep_count_exactly(value: int, wolves: tuple[int, ...],
                                                       ok: bool) -> None:
    """K3: 1 = one-Wolf; 2 = two-Wolf or two one-Wolves; 3 = two-Wolf + one-Wolf or three
    one-Wolves; nothing else (a wolf pair does not eat a three-sheep card)."""
    hand = _counts(wolf1=3 if 1 in wolves else 0, wolf2=1 if 2 in wolves else 0)
    target = [0, 0, 0]
    target[value - 1] = 1
    s = _position(hand, Herd((target[0], target[1], target[2]), (0, 0, 0)))
    move = Attack(1, value, wolves)
    assert (move in list(s.legal_moves())) == ok
    if ok:
        after = s.play(move)
        assert after.herds[1].size == 0
        assert after.discard[SHEEP1 + value - 1] == 1
        assert after.discard[WOLF1] + 2 * after.discard[WOLF2] == value
    else:
        with pytest.raises(IllegalMoveError):
            s.play(move)


def test_k3_fenced_sheep_are_safe_from_wolves() -> None:
    s = _position(_counts(wolf1=1), Herd((0, 0, 0), (1, 0, 0)))
    assert not any(isinstance(m, Attack) for m in s.legal_moves())


def test_k3_wolf_in_sheeps_clothing_takes_any_open_sheep_or_a_fence() -> None:
    """K3: alone against an unfenced sheep card of any size, or a fence (the sheep under it
    stays, now open); both cards to the discard pile."""
    s = _position(_counts(wisc=1), Herd((0, 0, 1), (1, 0, 0)))
    moves = list(s.legal_moves())
    assert Disguise(1, 3, False) in moves and Disguise(1, 1, True) in moves
    a = s.play(Disguise(1, 1, True))
    assert a.herds[1] == Herd((1, 0, 1), (0, 0, 0)) and a.discard[FENCE] == 1
    b = s.play(Disguise(1, 3, False))
    assert b.herds[1] == Herd((0, 0, 0), (1, 0, 0)) and b.discard[SHEEP3] == 1


def test_k3_crook_takes_any_discard_including_itself() -> None:
    """K3: the crook goes to the discard pile and the player takes any card from it."""
    s = _position(_counts(crook=1), Herd(), discard=_counts(wolf2=1))
    moves = {m for m in s.legal_moves() if isinstance(m, Crook)}
    assert moves == {Crook(CROOK), Crook(WOLF2)}
    a = s.play(Crook(WOLF2))
    assert a.hands[0][WOLF2] == 1 and a.discard[CROOK] == 1 and a.discard[WOLF2] == 0


def test_k3_discard_only_when_nothing_is_playable() -> None:
    s = _position(_counts(fence=1, wolf2=1), Herd())  # no own sheep, no two-sheep target
    assert set(s.legal_moves()) == {Discard(FENCE), Discard(WOLF2)}
    s2 = _position(_counts(fence=1, sheep1=1), Herd())
    with pytest.raises(IllegalMoveError):
        s2.play(Discard(FENCE))


def test_k3_refill_to_three_from_the_draw_pile() -> None:
    s = _position(_counts(sheep1=3), Herd(), draw=_counts(wisc=2)).play(PlaySheep(1))
    assert s.is_chance_node() and s.owed == (0,)
    assert s.chance_probability(next(s.legal_moves())) == 1
    s = s.play(next(s.legal_moves()))
    assert sum(s.hands[0]) == 3 and s.hands[0][WISC] == 1 and s.current_player() == 1


def test_k3_scoring_largest_herd_then_fewer_fences_then_shared() -> None:
    """K3: 5 beats 4; at 5 each, 0 fences beat 1; equal herds and fences share (1/2 each)."""
    opts = HerdOptions(2, parse_deck("sheep2*4,sheep3*2,fence*2"), None)
    empty = _counts()

    def final(h0: Herd, h1: Herd) -> tuple[Fraction, ...]:
        from fleece.rules.cards.herd import Outcome as HerdOutcome

        return HerdState(opts, empty, (empty, empty), (h0, h1), empty,
                         outcome=HerdOutcome.OVER).returns()

    assert final(Herd((0, 1, 1), (0, 0, 0)), Herd((0, 2, 0), (0, 0, 0))) == (1, 0)
    assert final(Herd((0, 1, 1), (0, 0, 0)), Herd((0, 0, 1), (0, 1, 0))) == (1, 0)
    assert final(Herd((0, 1, 0), (0, 0, 1)), Herd((0, 0, 0), (0, 1, 1))) == (1, 0)
    assert final(Herd((0, 1, 1), (0, 0, 0)), Herd((0, 1, 1), (0, 0, 0))) == (
        Fraction(1, 2), Fraction(1, 2))


@given(seed=st.integers(0, 2**32 - 1))
def test_k3_conservation_every_card_in_exactly_one_place(seed: int) -> None:
    """Random herd games (McCord's deck): the kinds add up to the deck after every move."""
    rng = random.Random(seed)
    options = HerdOptions(rng.randint(2, 4), WOLF_DECK, 300)
    state = HERD.new_initial_state(options)
    while not state.is_terminal():
        state = state.play(HERD.random_move(state, rng))
        assert state.kind_totals() == options.counts()
    assert HERD.parse_position(HERD.position_text(state)) == state


def test_k3_hidden_hands_observations_show_only_the_own_hand() -> None:
    s = _position(_counts(wisc=1, sheep2=2), Herd())
    seen0, seen1 = HERD.observation(s, 0), HERD.observation(s, 1)
    assert "hand sheep2*2 wisc*1" in seen0 and "wisc" not in seen1


def test_herd_position_refuses_cards_that_do_not_add_up() -> None:
    text = HERD.position_text(HERD.new_initial_state())
    with pytest.raises(ParseError, match="add up"):
        HERD.parse_position(text.replace("sheep3*10", "sheep3*9"))


# ---- Concentration ----------------------------------------------------------------------


def _dealt(spec: str, layout: str, players: int = 1) -> ConcState:
    state = ConcState(ConcentrationOptions(parse_deck(spec), players))
    return state.play(CONCENTRATION.parse_move(state, "deal " + layout))


def test_k4_a_match_is_kept_and_the_player_goes_again() -> None:
    """K4: two cards of a kind are removed, the player scores and moves again; a miss passes
    the turn (two players)."""
    s = _dealt("a*2,b*2", "a b a b", players=2)
    s = s.play(Flip(0)).play(Flip(2))
    assert s.pairs == (1, 0) and s.to_move == 0 and s.removed == {0, 2} and s.turns == 1
    s = s.play(Flip(1)).play(Flip(3))
    assert s.is_terminal() and s.returns() == (1, 0)


def test_k4_any_two_cards_of_a_kind_match() -> None:
    s = _dealt("a*4", "a a a a").play(Flip(3)).play(Flip(0))
    assert s.removed == {0, 3} and s.pairs == (1,)


def test_k4_miss_turns_cards_back_and_passes_the_turn() -> None:
    s = _dealt("a*2,b*2", "a b a b", players=2).play(Flip(0)).play(Flip(1))
    assert s.to_move == 1 and s.seen == {0, 1} and not s.removed
    with pytest.raises(IllegalMoveError):
        s.play(Flip(1)).play(Flip(1))


def test_k4_layout_is_four_rows_of_thirteen() -> None:
    s = CONCENTRATION.new_initial_state()
    s = s.play(s.sample_chance(random.Random(1)))
    board = CONCENTRATION.observation(s, 0)
    rows = [ln for ln in board.splitlines() if ln[:2] in ("A:", "B:", "C:", "D:")]
    assert len(rows) == 4 and all(len(r.split()) == 14 for r in rows)
    assert CONCENTRATION.parse_move(s, "flip D13") == Flip(51)
    with pytest.raises(ParseError):
        CONCENTRATION.parse_move(s, "flip E1")


def test_k4_solitaire_returns_minus_the_turns() -> None:
    s = _dealt("a*2", "a a").play(Flip(1)).play(Flip(0))
    assert s.returns() == (-1,)


def test_k4_odd_counts_are_refused() -> None:
    with pytest.raises(RulesError):
        ConcentrationOptions(parse_deck("a*3"))


def test_concentration_position_refuses_unmatched_removals() -> None:
    s = _dealt("a*2,b*2", "a b a b").play(Flip(0)).play(Flip(2))
    text = CONCENTRATION.position_text(s)
    assert CONCENTRATION.parse_position(text) == s
    with pytest.raises(ParseError):
        CONCENTRATION.parse_position(text.replace("removed A1 A3", "removed A1 A2"))


def test_layouts_deal_every_card_once() -> None:
    s = ConcState(ConcentrationOptions(pairs(2)))
    with pytest.raises(IllegalMoveError):
        s.play(Deal((0, 0, 0, 1)))
