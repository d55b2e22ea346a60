"""Woof!! rules model: catalogue facts, W1-W11, the rulebook's worked example (golden), and
Hypothesis properties of simulated rounds and games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    EXPERT_CARDS,
    PRESET_DECKS,
    QUESTION_DECK,
    Card,
    Character,
    QuestionCard,
    RuleSet,
    announcement,
    character_of,
    make_hand,
    parse_card,
)
from fleece.rules.woof.round import EarlyEvent, Round, Table
from fleece.rules.woof.scoring import Game, RoundScore, Suspicion, score_round, suspicion_correct
from fleece.rules.woof.simulate import simulate_game, simulate_round
from fleece.rules.woof.tokens import QUESTION_MARK_TOKENS, TokenSupply, can_show

S, D, H, P, W = (Character.SHEEP, Character.DOG, Character.HUNTER, Character.SHEPHERD,
                 Character.WOLF)


def c(name: str) -> Card:
    return parse_card(name)


def hand(a: str, b: str) -> tuple[Card, Card]:
    return make_hand(c(a), c(b))


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
    assert RuleSet(H).targets(D) == (W, H)


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


# ---- W3, W6, W7, W11 -------------------------------------------------------------------------


def test_w3_table_and_dummy() -> None:
    assert Table(4).seats == 5 and Table(4).dummy == 5 and Table(4).acting == (1, 2, 3, 4)
    assert Table(5).dummy is None and Table(8).seats == 8
    assert [Table(n).early_limit for n in range(4, 9)] == [2, 2, 3, 3, 3]
    for n in (3, 9):
        with pytest.raises(RulesError):
            Table(n)


def _five_seat_round(start: int = 1) -> Round:
    hands = {1: hand("wolf", "sheep"), 2: hand("shepherd?", "hunter"),
             3: hand("hunter", "sheep"), 4: hand("sheep", "sheep"),
             5: hand("hunter?", "sheep")}
    return Round(Table(5), hands, start,
                 questions={s: [QuestionCard.Q1, QuestionCard.Q2] for s in range(1, 6)})


def test_round_legality() -> None:
    rnd = _five_seat_round()
    with pytest.raises(IllegalMoveError):
        rnd.suspect_early(1, [4])  # not on the first turn (W6)
    with pytest.raises(IllegalMoveError):
        rnd.look(2, 1, 0)  # not seat 2's turn
    with pytest.raises(IllegalMoveError):
        rnd.look(1, 1, 0)  # own cards
    with pytest.raises(IllegalMoveError):
        rnd.ask(1, 2, QuestionCard.Q5)  # not held
    assert rnd.events == [] and rnd.current == 1  # refusals leave the state unchanged
    dummy = Round(Table(4), {s: hand("sheep", "sheep") for s in range(1, 6)}, 4,
                  questions={s: [QuestionCard.Q1] for s in range(1, 5)})
    with pytest.raises(IllegalMoveError):
        dummy.ask(4, 5, QuestionCard.Q1)  # the dummy is never asked (W3)
    dummy.look(4, 5, 1)  # ... but can be looked at
    assert dummy.current == 1  # and never takes a turn


def test_w7_round_ends_after_two_early_suspicions_with_five_players() -> None:
    rnd = _five_seat_round()
    for seat, target in ((1, 4), (2, 5), (3, 2), (4, 3), (5, 1)):
        rnd.look(seat, target, 0)
    rnd.suspect_early(1, [4])
    assert not rnd.over
    rnd.suspect_early(2, [1, 3])
    assert rnd.over
    with pytest.raises(IllegalMoveError):
        rnd.look(3, 1, 0)


def test_w11_token_matching() -> None:
    assert can_show([W, W, W]) and not can_show([W, W, W, W])
    assert can_show([W, H, S, D, D, S]) and not can_show([W] * 3 + [H] * 3 + [S])
    supply = TokenSupply()
    for _ in range(3):
        supply.place(1, W)
    assert not supply.can_place(1, W) and supply.can_place(1, S)
    with pytest.raises(IllegalMoveError):
        supply.place(1, W)
    for _ in range(QUESTION_MARK_TOKENS):
        supply.place(2, None)
    assert not supply.can_place(3, None) and supply.within_supply()


def test_w11_gap_a_shepherd_runs_out_of_wolf_tokens() -> None:
    hands = {1: hand("shepherd?", "sheep"), 2: hand("sheep", "sheep"),
             3: hand("sheep", "sheep"), 4: hand("sheep", "sheep"), 5: hand("sheep", "sheep")}
    rnd = Round(Table(5), hands, 1)
    for _ in range(4):
        for seat in range(1, 6):
            rnd.look(seat, 2 if seat != 2 else 3, 0)
    placed = [e.token_placed for e in rnd.events if e.viewer == 1]  # type: ignore[union-attr]
    assert placed == [True, True, True, False]
    assert rnd.gaps and rnd.tokens.within_supply()


# ---- golden test: the rulebook's worked example (W8, W9) ------------------------------------


def test_golden_rulebook_example() -> None:
    """Eva (1) Wolf, Thomas (2) Shepherd, Paul (3) Hunter, Jason (4) Sheep, Kenny (5) Hunter.

    Played through the round model: the opening turns as in the example, later Thomas also lays
    a Wolf token at Jason (the result paragraph relies on it), Eva and Thomas suspect early,
    Paul and Jason suspect finally, Kenny abstains. The result paragraph does not say what Jason
    named; here he names nobody as Dog and Kenny as Hunter (right: 1 point).
    """
    hands = {1: hand("wolf", "sheep"), 2: hand("shepherd?", "hunter"),
             3: hand("hunter", "sheep"), 4: hand("sheep", "sheep"),
             5: hand("hunter", "sheep")}
    rnd = Round(Table(5), hands, 1,
                questions={s: [QuestionCard.Q1, QuestionCard.Q3] for s in hands})
    assert rnd.look(1, 4, 0).announced is S  # Eva: "Jason is a Sheep"
    assert rnd.look(2, 5, 0).announced is W  # Thomas, the Shepherd: "Kenny is a Wolf"
    assert rnd.look(3, 2, 1).announced is None  # Paul at Thomas (index 1: hands are sorted)
    assert rnd.ask(4, 3, QuestionCard.Q1).answer is True  # Jason asks Paul
    rnd.look(5, 1, 1)
    rnd.look(1, 3, 1)
    assert rnd.look(2, 4, 0).announced is W  # Thomas lays a Wolf token at Jason
    rnd.look(3, 4, 0)
    rnd.look(4, 5, 0)
    rnd.look(5, 2, 1)
    rnd.suspect_early(1, [4])  # Eva: Sheep -> Jason
    rnd.suspect_early(2, [1, 3])  # Thomas: Wolf -> Eva, Sheep -> Paul
    assert rnd.over
    score = rnd.finish({3: [4, 0], 4: [0, 5], 5: None})
    assert score.points == {1: 2, 2: 1, 3: 0, 4: 1, 5: 0}
    assert score.errors == {1: 0, 2: 1, 3: 1, 4: 0, 5: 0}
    assert score.bonus == {1: 0, 2: 1, 3: 0, 4: 0, 5: 0}
    assert score.barred_next_round == frozenset({2})
    assert rnd.shepherd_wolf_tokens()[2] == frozenset({4, 5})
    assert rnd.next_start == 3  # left of Thomas, the last early suspicion


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
    assert all(len(v) <= 6 for v in rnd.tokens.shown.values())
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
