"""Woof!! rules model: catalogue facts, W1-W11 on the immutable round (refused moves leave it
unchanged), exact deal probabilities, the rulebook's worked example (golden), and Hypothesis
properties of simulated rounds and games."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import factorial
from typing import Any

import pytest
from helpers.woof_strategies import RULEBOOK_HANDS, dealt, golden_round, hand, last, look
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.protocol import CHANCE, TERMINAL
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    EXPERT_CARDS,
    PRESET_DECKS,
    QUESTION_DECK,
    Card,
    CardRules,
    Character,
    QuestionCard,
    announcement,
    character_of,
    parse_card,
)
from fleece.rules.woof.deals import QUESTION_PILE, card_pile
from fleece.rules.woof.evidence import evidence_from_round
from fleece.rules.woof.moves import Ask, CardPick, Deal, FinalSuspicion, Look, SuspectEarly
from fleece.rules.woof.protocol import WOOF
from fleece.rules.woof.round import (
    AskEvent,
    EarlyEvent,
    LookEvent,
    Table,
    WoofOptions,
    WoofRound,
    default_deck,
)
from fleece.rules.woof.scoring import Game, RoundScore, Suspicion, score_round, suspicion_correct
from fleece.rules.woof.simulate import simulate_game, simulate_round
from fleece.rules.woof.tokens import QUESTION_MARK_TOKENS, TokenSupply, can_show

S, D, H, P, W = (Character.SHEEP, Character.DOG, Character.HUNTER, Character.SHEPHERD,
                 Character.WOLF)


def c(name: str) -> Card:
    return parse_card(name)


# ---- catalogue (facts) -----------------------------------------------------------------------


def test_basic_and_expert_cards_match_the_facts() -> None:
    counts = Counter(card.name for card in BASIC_CARDS)
    assert counts == {"sheep": 7, "dog": 2, "dog?": 1, "hunter": 2, "hunter?": 1,
                      "shepherd?": 1, "wolf": 2}
    assert sorted(card.name for card in EXPERT_CARDS) == [
        "dog@wolf", "hunter@sheep", "sheep@dog", "shepherd@hunter"]
    assert [c(n).value for n in ("sheep", "dog", "hunter", "shepherd", "wolf")] == [1, 2, 3, 4, 5]
    assert Counter(QUESTION_DECK) == {QuestionCard.Q1: 4, QuestionCard.Q2: 4, QuestionCard.Q3: 3,
                                      QuestionCard.Q4: 3, QuestionCard.Q5: 2}
    for seats, deck in PRESET_DECKS.items():
        assert len(deck) == 2 * seats


def test_card_names_round_trip_and_reject_nonsense() -> None:
    for card in (*BASIC_CARDS, *EXPERT_CARDS):
        assert parse_card(card.name) == card
    assert c("sheep@sheep") == c("sheep")
    for bad in ("goat", "sheep@goat", "@dog", ""):
        with pytest.raises(ValueError):
            parse_card(bad)


# ---- W1, W2, W4, W5 --------------------------------------------------------------------------


def test_w1_character_is_shared_picture_or_higher_value() -> None:
    assert character_of(hand("sheep", "sheep")) is S
    assert character_of(hand("shepherd?", "hunter")) is P  # Thomas in the rulebook
    assert character_of(hand("wolf", "shepherd?")) is W
    assert character_of(hand("sheep@dog", "sheep")) is S  # appearance plays no part
    assert character_of(hand("dog@wolf", "sheep")) is D


def test_w2_targets_and_the_dog_assumption() -> None:
    assert DEFAULT_RULES.targets(S) == (D, H)
    assert DEFAULT_RULES.targets(P) == (W, S)
    assert DEFAULT_RULES.targets(W) == (S,)
    assert DEFAULT_RULES.targets(H) == (W, D)
    assert DEFAULT_RULES.targets(D) == (W, P)  # assumption: default Shepherd
    assert CardRules(H).targets(D) == (W, H)


def test_w4_announcements() -> None:
    assert announcement(c("sheep"), H) is S
    assert announcement(c("hunter?"), H) is None
    assert announcement(c("sheep"), P) is W  # the Shepherd says Wolf ...
    assert announcement(c("dog?"), P) is None  # ... except for "?"
    assert announcement(c("hunter@sheep"), D) is S


def test_w5_questions_are_about_character_or_pictures() -> None:
    thomas = hand("shepherd?", "hunter")
    assert QuestionCard.Q1.answer(thomas) and QuestionCard.Q2.answer(thomas)
    assert QuestionCard.Q4.answer(thomas)  # a Hunter picture, though Thomas is the Shepherd
    assert not QuestionCard.Q3.answer(thomas) and not QuestionCard.Q5.answer(thomas)
    eva = hand("wolf", "sheep")
    assert QuestionCard.Q1.answer(eva) and not QuestionCard.Q2.answer(eva)
    assert QuestionCard.Q5.answer(eva)
    assert not QuestionCard.Q3.answer(hand("sheep@dog", "sheep"))  # picture, not appearance


# ---- W3, W6, W7, W11 on the immutable round --------------------------------------------------

Q1, Q2, Q3, Q4, Q5 = (QuestionCard.Q1, QuestionCard.Q2, QuestionCard.Q3, QuestionCard.Q4,
                      QuestionCard.Q5)


FIVE_QUESTIONS = {1: (Q1, Q2), 2: (Q1, Q2), 3: (Q1, Q3), 4: (Q2, Q4), 5: (Q3, Q4)}


def _five_seat_round(start: int = 1, **options: Any) -> WoofRound:
    hands = {**RULEBOOK_HANDS, 5: hand("hunter?", "sheep")}
    return dealt(5, hands, FIVE_QUESTIONS, start, **options)


def test_w3_table_and_dummy() -> None:
    assert Table(4).seats == 5 and Table(4).dummy == 5 and Table(4).acting == (1, 2, 3, 4)
    assert Table(5).dummy is None and Table(8).seats == 8
    assert [Table(n).early_limit for n in range(4, 9)] == [2, 2, 3, 3, 3]
    for n in (3, 9):
        with pytest.raises(RulesError):
            Table(n)


def _refused(state: WoofRound, move: Any, reason: str) -> None:
    """`move` is refused with `reason` and the state is the same value as before."""
    before, text, key = pickle.dumps(state), repr(state), hash(state)
    with pytest.raises(IllegalMoveError, match=reason):
        state.play(move)
    assert pickle.dumps(state) == before and repr(state) == text and hash(state) == key


def test_round_legality() -> None:
    rnd = _five_seat_round()
    copy = pickle.loads(pickle.dumps(rnd))
    _refused(rnd, SuspectEarly(1, (4,)), r"^seat 1 may not suspect early on its first turn \(W6\)$")
    _refused(rnd, Look(2, 1), r"^it is seat 1's turn, not seat 2's$")
    _refused(rnd, Look(1, 1), r"^seat 1 cannot look at seat 1 \(W4\)$")
    _refused(rnd, Ask(1, 2, Q5), r"^seat 1 holds no q5 question card \(W5\)$")
    _refused(rnd, CardPick(0), "no look is waiting")
    _refused(rnd, FinalSuspicion(1, None), r"final suspicions come after the round ends \(W7\)")
    _refused(rnd, Deal(rnd.dealt, rnd.held), "already dealt")
    assert rnd == copy and rnd.events == () and rnd.current == 1  # refusals change nothing
    waiting = rnd.play(Look(1, 4))
    assert waiting.is_chance_node() and rnd.pending is None  # the old state has no look
    _refused(waiting, Look(1, 3), "chance picks card 0 or 1 now")
    _refused(waiting, CardPick(2), "card 0 or card 1")
    dummy = dealt(4, {s: hand("sheep", "sheep") for s in range(1, 6)},
                  {s: (Q1, Q2) for s in range(1, 5)}, start=4)
    _refused(dummy, Ask(4, 5, Q1), r"dummy seat is never asked \(W3\)")
    after = look(dummy, 4, 5, 1)  # ... but can be looked at
    assert after.current == 1 and dummy.current == 4  # and never takes a turn


def test_refused_moves_leave_later_states_unchanged() -> None:
    """Refusals after a few turns: a seat barred by last round's wrong early suspicion (W8),
    a suspicion with the wrong number of picks (W6), naming oneself, asking the same card
    twice (W5); each leaves the state equal to before."""
    rnd = _five_seat_round(barred=frozenset({2}))
    for seat, target in ((1, 4), (2, 5), (3, 2), (4, 3), (5, 1)):
        rnd = look(rnd, seat, target, 0)
    _refused(rnd, SuspectEarly(1, (4, 2)), r"seat 1 \(wolf\) names one seat per target "
             r"\(sheep\): 1, not 2 \(W6\)")
    _refused(rnd, SuspectEarly(1, (1,)), "seat 1 cannot name seat 1")
    _refused(rnd, SuspectEarly(1, (6,)), "seat 1 cannot name seat 6")
    rnd = rnd.play(Ask(1, 3, Q1))
    _refused(rnd, SuspectEarly(2, (1, 3)), r"^seat 2 is barred from early suspicion this "
             r"round after a wrong one last round \(W8\)$")
    rnd = rnd.play(Ask(2, 3, Q2))
    rnd = look(rnd, 3, 1, 0)
    rnd = look(rnd, 4, 1, 0)
    rnd = look(rnd, 5, 1, 0)
    _refused(rnd, Ask(1, 3, Q1), r"seat 1 holds no q1 question card \(W5\)")  # played above
    assert rnd.questions[1] == (Q2,) and rnd.turns_taken == {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}


def test_w7_round_ends_after_two_early_suspicions_with_five_players() -> None:
    rnd = _five_seat_round()
    for seat, target in ((1, 4), (2, 5), (3, 2), (4, 3), (5, 1)):
        rnd = look(rnd, seat, target, 0)
    rnd = rnd.play(SuspectEarly(1, (4,)))
    assert not rnd.over and rnd.current == 2
    rnd = rnd.play(SuspectEarly(2, (1, 3)))
    assert rnd.over and not rnd.stopped and not rnd.is_terminal()
    assert rnd.final_seats == (3, 4, 5) and rnd.current == 3
    _refused(rnd, Look(3, 1), r"the round is over \(W7\): seat 3 makes its final suspicion")
    _refused(rnd, FinalSuspicion(4, None), r"seat 3 makes the next final suspicion, not seat 4")
    # seat 3 is a Hunter (targets Wolf, Dog): 1 + 5 * 5 final moves (0 or another seat each)
    assert rnd.count_legal_moves() == 26 == len(list(rnd.legal_moves()))


def test_legal_moves_on_the_first_and_the_second_turn() -> None:
    rnd = _five_seat_round()
    # seat 1 on its first turn: 4 looks + 2 distinct questions x 4 acting targets, no early
    # suspicion (W6)
    assert rnd.count_legal_moves() == 12 == len(list(rnd.legal_moves()))
    for seat, target in ((1, 4), (2, 5), (3, 2), (4, 3), (5, 1)):
        rnd = look(rnd, seat, target, 0)
    # seat 1 (a Wolf: one target, the Sheep) may now suspect early: 0 or one of 4 other seats
    moves = list(rnd.legal_moves())
    assert rnd.count_legal_moves() == 12 + 5 == len(moves)
    assert [m for m in moves if isinstance(m, SuspectEarly)] == [
        SuspectEarly(1, (p,)) for p in (0, 2, 3, 4, 5)]


def test_a_turn_limit_ends_the_round_as_a_recorded_gap() -> None:
    rnd = dealt(4, {s: hand("sheep", "sheep") for s in range(1, 6)},
                {s: (Q1, Q2) for s in range(1, 5)}, turn_limit=3)
    for seat in (1, 2, 3):
        assert not rnd.over
        rnd = look(rnd, seat, seat + 1, 0)
    assert rnd.over and rnd.stopped and rnd.current == 1
    assert rnd.gaps == ("stopped after 3 turns: W7 had not ended the round",)
    assert rnd.count_legal_moves() == 1 + 5 * 5  # a Sheep names a Dog and a Hunter
    for seat in (1, 2, 3, 4):
        assert rnd.returns() == (Fraction(0),) * 4
        rnd = rnd.play(FinalSuspicion(seat, (0, 0) if seat != 4 else None))
    assert rnd.is_terminal() and rnd.current_player() == TERMINAL
    # nobody is a Dog or a Hunter: (0, 0) is right, 1 point each; seat 4 abstained
    assert rnd.returns() == tuple(map(Fraction, (1, 1, 1, 0)))
    _refused(rnd, FinalSuspicion(1, None), "every final suspicion is made")


def test_w11_token_matching() -> None:
    assert can_show([W, W, W]) and not can_show([W, W, W, W])
    assert can_show([W, H, S, D, D, S]) and not can_show([W] * 3 + [H] * 3 + [S])
    empty = TokenSupply()
    supply = empty
    for _ in range(3):
        supply = supply.place(1, W)
    assert empty == TokenSupply() and supply.sides(1) == (W, W, W)  # placing makes a new value
    assert not supply.can_place(1, W) and supply.can_place(1, S)
    with pytest.raises(IllegalMoveError):
        supply.place(1, W)
    for _ in range(QUESTION_MARK_TOKENS):
        supply = supply.place(2, None)
    assert not supply.can_place(3, None) and supply.within_supply()
    assert supply.by_seat() == {1: (W, W, W)} and supply.question_marks == QUESTION_MARK_TOKENS


def test_w11_gap_a_shepherd_runs_out_of_wolf_tokens() -> None:
    hands = {1: hand("shepherd?", "sheep"), 2: hand("sheep", "sheep"),
             3: hand("sheep", "sheep"), 4: hand("sheep", "sheep"), 5: hand("sheep", "sheep")}
    rnd = dealt(5, hands, FIVE_QUESTIONS)
    for _ in range(4):
        for seat in range(1, 6):
            rnd = look(rnd, seat, 2 if seat != 2 else 3, 0)
    placed = [e.token_placed for e in rnd.events if isinstance(e, LookEvent) and e.viewer == 1]
    assert placed == [True, True, True, False]
    # three tokens show Wolf, and three show Sheep: the fourth look of every seat is a gap
    assert rnd.gaps == ("seat 1 announced wolf with no token left (W11)",
                        *(f"seat {s} announced sheep with no token left (W11)"
                          for s in range(2, 6)))
    assert rnd.tokens.within_supply() and rnd.tokens.sides(1) == (W, W, W)


# ---- chance: the deal and the card seen ------------------------------------------------------


def _small(sheep: int, wolves: int) -> WoofRound:
    """4 players (5 seats) and a deck of Sheep and Wolves, before the deal."""
    return WoofRound.new(WoofOptions(4, (c("sheep"),) * sheep + (c("wolf"),) * wolves))


def _question_outcomes(holders: int) -> int:
    """Brute force: sequences of sorted question pairs the 16 cards allow."""
    supply = Counter(QUESTION_DECK)
    pairs = list(combinations_with_replacement(sorted(supply), 2))
    return sum(1 for seq in product(pairs, repeat=holders)
               if not Counter(q for pair in seq for q in pair) - supply)


def test_deal_probabilities_are_exact_and_sum_to_one_on_a_small_deck() -> None:
    """9 Sheep and a Wolf to 5 seats: the Wolf is at one of 5 seats; with the question cards
    every listed deal has its probability, they sum to exactly 1, and sampling gives listed
    deals."""
    rnd = _small(9, 1)
    assert rnd.is_chance_node() and rnd.current_player() == CHANCE
    deals = list(rnd.legal_moves())
    assert len(deals) == rnd.count_legal_moves() == 5 * _question_outcomes(4) == 5 * 30925
    assert len(set(deals)) == len(deals)
    assert sum((rnd.chance_probability(d) for d in deals), Fraction(0)) == 1
    rng = random.Random(7)
    for _ in range(20):
        sample = rnd.sample_chance(rng)
        assert isinstance(sample, Deal) and rnd.chance_probability(sample) > 0


def test_deal_probability_derived_by_hand() -> None:
    """8 Sheep and 2 Wolves to 5 seats (all dealt), question cards to 4 seats.

    Seat 1 gets both Wolves with probability C(2,2)/C(10,2) = 1/45; seats 1 and 2 one Wolf
    each with (2*8/45) * (1*7/28) = 4/45. The question cards q1 q1 / q1 q1 / q2 q2 / q2 q2 come
    with C(4,2)/C(16,2) * C(2,2)/C(14,2) * C(4,2)/C(12,2) * C(2,2)/C(10,2)
    = 6/120 * 1/91 * 6/66 * 1/45 = 1/900900."""
    rnd = _small(8, 2)
    sheep, wolves = hand("sheep", "sheep"), hand("wolf", "wolf")
    questions = ((Q1, Q1), (Q1, Q1), (Q2, Q2), (Q2, Q2))
    both = Deal((wolves, sheep, sheep, sheep, sheep), questions)
    assert rnd.chance_probability(both) == Fraction(1, 45) * Fraction(1, 900900)
    split = Deal((hand("wolf", "sheep"), hand("sheep", "wolf"), sheep, sheep, sheep), questions)
    assert rnd.chance_probability(split) == Fraction(4, 45) * Fraction(1, 900900)
    # 15 ways to place the Wolves: 5 seats with both, C(5,2) = 10 pairs of seats
    assert rnd.count_legal_moves() == 15 * 30925
    three = Deal((wolves, hand("wolf", "sheep"), sheep, sheep, sheep), questions)
    assert rnd.chance_probability(three) == 0
    _refused(rnd, three, "the deal uses 3 wolf cards, the deck has 2")
    greedy = Deal((wolves, sheep, sheep, sheep, sheep), ((Q5, Q5), (Q5, Q1), (Q1, Q1), (Q1, Q2)))
    assert rnd.chance_probability(greedy) == 0
    _refused(rnd, greedy, "the deal uses 3 q5 question cards, there are 2")
    _refused(rnd, Deal((wolves, sheep), questions), "two cards to each of the 5 seats")
    _refused(rnd, Look(1, 2), "the cards are not dealt yet")
    # an outcome of the wrong shape, or no deal at all, has probability 0 (never negative)
    assert rnd.chance_probability(Deal((wolves, sheep), questions)) == 0
    assert rnd.chance_probability(Deal((wolves,) * 5, questions[:3])) == 0
    assert rnd.chance_probability(Look(1, 2)) == 0
    after = rnd.play(both)
    assert after.hands[1] == wolves and after.questions == {1: (Q1, Q1), 2: (Q1, Q1),
                                                            3: (Q2, Q2), 4: (Q2, Q2)}


def test_the_card_seen_is_a_fair_pick() -> None:
    rnd = _five_seat_round().play(Look(1, 2))
    assert rnd.current_player() == CHANCE and list(rnd.legal_moves()) == [CardPick(0),
                                                                          CardPick(1)]
    assert rnd.chance_probability(CardPick(0)) == rnd.chance_probability(CardPick(1)) == \
        Fraction(1, 2)
    assert rnd.chance_probability(CardPick(2)) == 0
    assert rnd.chance_probability(Look(1, 3)) == 0
    # seat 2 holds a Hunter and the Shepherd "?": the Wolf at seat 1 announces what it sees
    assert last(rnd.play(CardPick(0))).announced is H
    assert last(rnd.play(CardPick(1))).announced is None


def test_pile_counts_agree_with_listing_and_physical_deals() -> None:
    """The dynamic-programming count equals the listing, and the physical deals of the listed
    outcomes add up to all physical deals (preset decks, the question cards)."""
    for seats in (5, 6):
        pile = card_pile(PRESET_DECKS[seats])
        outcomes = list(pile.assignments(seats))
        assert pile.count(seats) == len(outcomes) == len(set(outcomes))
        assert sum(pile.ways(o) for o in outcomes) == pile.total(seats)
    assert QUESTION_PILE.count(4) == _question_outcomes(4)
    assert QUESTION_PILE.total(4) == factorial(16) // (2**4 * factorial(8))
    # 16 question cards cannot go two each to 9 holders: no deal at all
    assert QUESTION_PILE.total(8) == factorial(16) // 2**8 and QUESTION_PILE.total(9) == 0


def test_evidence_of_a_round_lists_only_the_dealt_cards_as_its_deck() -> None:
    """A round dealt from a deck with cards out of play (the default 10 for 4 players plus
    two expert cards): the evidence of the round names the 10 dealt cards as its deck, not the
    12 of the box; before the deal, the round's deck."""
    table = Table(4)
    deck = (*default_deck(table), *EXPERT_CARDS[:2])
    rec = simulate_round(table, random.Random(3), deck=deck)
    ev = evidence_from_round(rec.round)
    dealt = sorted((c for h in rec.round.hands.values() for c in h), key=Card.sort_key)
    assert list(ev.deck) == dealt and len(ev.deck) == 10 < len(deck)
    fresh = WoofRound.new(WoofOptions(4, deck))
    assert sorted(evidence_from_round(fresh).deck, key=Card.sort_key) == sorted(
        deck, key=Card.sort_key)


def test_a_deck_too_small_for_the_table_is_refused_with_the_numbers() -> None:
    """4 players and the dummy seat need 10 cards."""
    table = Table(4)
    with pytest.raises(RulesError, match="5 seats need 10 cards, the deck has 9"):
        simulate_round(table, random.Random(1), deck=default_deck(table)[:9])


# ---- golden test: the rulebook's worked example (W8, W9) ------------------------------------


def test_golden_rulebook_example() -> None:
    """Eva (1) Wolf, Thomas (2) Shepherd, Paul (3) Hunter, Jason (4) Sheep, Kenny (5) Hunter.

    Played through the round model: the opening turns as in the example, later Thomas also lays
    a Wolf token at Jason (the result paragraph relies on it), Eva and Thomas suspect early,
    Paul and Jason suspect finally, Kenny abstains. The result paragraph does not say what Jason
    named; here he names nobody as Dog and Kenny as Hunter (right: 1 point).
    """
    rnd = golden_round()
    looks = [e for e in rnd.events if isinstance(e, LookEvent)]
    assert looks[0].announced is S  # Eva: "Jason is a Sheep"
    assert looks[1].announced is W  # Thomas, the Shepherd: "Kenny is a Wolf"
    assert looks[2].announced is None  # Paul at Thomas (card 1: Thomas' Shepherd "?")
    assert rnd.events[3] == AskEvent(4, 3, Q1, True)  # Jason asks Paul
    assert looks[5].announced is W and looks[5].target == 4  # Thomas' Wolf token at Jason
    assert rnd.early == {1: Suspicion((S,), (4,)), 2: Suspicion((W, S), (1, 3))}
    assert rnd.is_terminal() and rnd.current_player() == TERMINAL
    score = rnd.score()
    assert score.points == {1: 2, 2: 1, 3: 0, 4: 1, 5: 0}
    assert score.errors == {1: 0, 2: 1, 3: 1, 4: 0, 5: 0}
    assert score.bonus == {1: 0, 2: 1, 3: 0, 4: 0, 5: 0}
    assert score.barred_next_round == frozenset({2})
    assert rnd.returns() == tuple(map(Fraction, (2, 1, 0, 1, 0)))
    assert rnd.shepherd_wolf_tokens()[2] == frozenset({4, 5})
    assert rnd.next_start == 3  # left of Thomas, the last early suspicion
    assert rnd.questions[4] == (Q2,) and rnd.gaps == ()


def test_shepherd_bonus_needs_the_shepherds_wolf_token_and_a_wrong_wolf_pick() -> None:
    chars = {1: W, 2: P, 3: H, 4: S, 5: D}
    final = {3: Suspicion((W, D), (4, 5)), 5: Suspicion((W, P), (4, 2))}
    assert score_round(chars, {}, final, {2: frozenset({4})}).bonus[2] == 2
    assert score_round(chars, {}, final, {2: frozenset({5})}).bonus[2] == 0
    assert score_round(chars, {}, final, {1: frozenset({4})}).bonus[2] == 0  # not the Shepherd
    right = {3: Suspicion((W, D), (1, 5))}
    assert score_round(chars, {}, right, {2: frozenset({1})}).bonus[2] == 0
    sheep_wrong = {4: Suspicion((D, H), (1, 3))}  # only Hunters and Dogs count
    assert score_round(chars, {}, sheep_wrong, {2: frozenset({1})}).bonus[2] == 0


def test_w8_zero_means_nobody_else_has_it() -> None:
    chars = {1: W, 2: S, 3: S, 4: S, 5: S}
    assert suspicion_correct(Suspicion((D, H), (0, 0)), 2, chars)
    assert not suspicion_correct(Suspicion((S,), (0,)), 1, chars)
    assert suspicion_correct(Suspicion((S,), (5,)), 1, chars)


def test_w10_game_end_and_winners() -> None:
    game = Game([1, 2, 3])

    def rs(points: dict[int, int], errors: dict[int, int]) -> RoundScore:
        return RoundScore(points, errors, {}, {}, frozenset())

    game.record(rs({1: 2, 2: 2, 3: 0}, {1: 1, 2: 0, 3: 0}))
    assert not game.over
    game.record(rs({1: 0, 2: 0, 3: 1}, {1: 0, 2: 0, 3: 1}))
    assert not game.over and game.winners() == [2]  # tie on points, fewer errors wins
    game.record(rs({1: 0, 2: 0, 3: 1}, {1: 1, 2: 0, 3: 0}))
    assert game.over and game.rounds == 3
    with pytest.raises(RulesError):
        game.record(rs({}, {}))
    two = Game([1, 2])
    two.record(rs({1: 1, 2: 1}, {1: 2, 2: 0}))
    assert two.over  # two error tokens end the game at once
    shared = Game([1, 2])
    shared.record(rs({1: 1, 2: 1}, {1: 0, 2: 0}))
    assert shared.winners() == [1, 2]


# ---- Hypothesis properties of simulated rounds and games -------------------------------------

players = st.integers(min_value=4, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@given(players, seeds, st.booleans())
def test_simulated_round_invariants(n: int, seed: int, expert: bool) -> None:
    table = Table(n)
    deck = list(PRESET_DECKS[table.seats])
    if expert:  # add the expert cards, dropping plain Sheep while 2 remain (else extra cards)
        for card in EXPERT_CARDS:
            if deck.count(c("sheep")) > 2:
                deck.remove(c("sheep"))
            deck.append(card)
    rec = simulate_round(table, random.Random(seed), deck=deck)
    rnd = rec.round
    # every seat holds two cards, all from the deck
    assert sorted(rnd.hands) == list(table.seat_numbers)
    assert all(len(h) == 2 for h in rnd.hands.values())
    assert not Counter(c for h in rnd.hands.values() for c in h) - Counter(deck)
    # tokens never exceed the supply
    assert rnd.tokens.within_supply()
    assert all(len(v) <= 6 for v in rnd.tokens.by_seat().values())
    assert rnd.tokens.question_marks <= QUESTION_MARK_TOKENS
    # W6/W7: early suspicions never on a first turn; the round ends at the limit
    early = rnd.early
    for i, e in enumerate(rnd.events):
        if isinstance(e, EarlyEvent):
            assert any(getattr(x, "viewer", getattr(x, "asker", None)) == e.seat
                       for x in rnd.events[:i])
            assert e.seat not in rnd.barred
    assert len(early) <= table.early_limit
    assert rnd.stopped or len(early) == table.early_limit
    assert table.dummy not in early
    # W8/W9 recomputed independently of score_round
    chars = {s: rnd.character(s) for s in table.seat_numbers}
    for seat, sus in early.items():
        ok = all((p == 0 and all(chars[x] is not t for x in chars if x != seat))
                 or (p != 0 and chars[p] is t) for t, p in zip(sus.targets, sus.picks, strict=True))
        assert rec.score.errors[seat] == (0 if ok else 1)
        assert (seat in rec.score.barred_next_round) == (not ok)
    for seat in table.acting:
        base = rec.score.points[seat] - rec.score.bonus[seat]
        assert base in (0, 1, 2)
        assert rec.score.errors[seat] in (0, 1)
        if rec.score.bonus[seat]:
            assert chars[seat] is P
    if table.dummy:
        assert rec.score.points[table.dummy] == 0 and rec.score.errors[table.dummy] == 0
    # the terminal state: its returns are the points, and its text replays to an equal value
    assert rnd.is_terminal()
    assert rnd.returns() == tuple(Fraction(rec.score.points[s]) for s in table.acting)
    assert WOOF.parse_position(WOOF.position_text(rnd)) == rnd


@given(players, seeds)
def test_simulated_games_end_by_w10(n: int, seed: int) -> None:
    game, records = simulate_game(Table(n), random.Random(seed))
    assert game.over and 1 <= len(records) <= 3
    errors = Counter[int]()
    points = Counter[int]()
    for i, rec in enumerate(records):
        errors.update(rec.score.errors)
        points.update(rec.score.points)
        ended = i == 2 or any(errors[p] >= 2 for p in game.players)
        assert ended == (i == len(records) - 1)
        if i + 1 < len(records):  # a wrong early suspicion bars early suspicion next round
            assert records[i + 1].round.barred == rec.score.barred_next_round
            assert not set(records[i + 1].round.early) & rec.score.barred_next_round
    assert all(game.points[p] == points[p] for p in game.players)
    best = max((game.points[p], -game.errors[p]) for p in game.players)
    assert all((game.points[p], -game.errors[p]) == best for p in game.winners())
