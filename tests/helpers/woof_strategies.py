"""Shared by the Woof!! tests: Hypothesis strategies (random decks, deals and evidence that is
mostly truthful about a hidden deal, with occasional lies so contradictions occur too) and
rounds played move by move, the rulebook's worked example among them."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from fleece.rules.woof.cards import (
    BASIC_CARDS,
    CHARACTERS,
    EXPERT_CARDS,
    Card,
    Hand,
    QuestionCard,
    announcement,
    character_of,
    make_hand,
    parse_card,
)
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.rules.woof.moves import Ask, CardPick, Deal, FinalSuspicion, Look, SuspectEarly
from fleece.rules.woof.round import Table, WoofOptions, WoofRound

POOL = (*BASIC_CARDS, *EXPERT_CARDS)


@st.composite
def deals(draw: st.DrawFn, min_players: int = 4, max_players: int = 5, extra: int = 0
          ) -> tuple[Table, tuple[Card, ...], dict[int, Hand]]:
    """A table, a deck drawn from the 20 cards (maybe `extra` undealt cards) and a deal."""
    table = Table(draw(st.integers(min_players, max_players)))
    size = 2 * table.seats + draw(st.integers(0, extra))
    deck = draw(st.permutations(POOL))[:size]
    order = draw(st.permutations(deck))
    hands = {s: make_hand(order[2 * i], order[2 * i + 1])
             for i, s in enumerate(table.seat_numbers)}
    return table, tuple(sorted(deck, key=Card.sort_key)), hands


@st.composite
def evidence_about(draw: st.DrawFn, min_players: int = 4, max_players: int = 5,
                   extra: int = 0, min_facts: int = 0, max_facts: int = 10,
                   lie_rate: int = 8, with_me: bool | None = None
                   ) -> tuple[Evidence, dict[int, Hand]]:
    """Evidence about a hidden deal; each fact is a lie with probability ~1/lie_rate (0: never).
    Returns the evidence and the true deal."""
    table, deck, hands = draw(deals(min_players, max_players, extra))
    acting = list(table.acting)
    seats = list(table.seat_numbers)
    facts: list[Fact] = []
    me = None
    if with_me or (with_me is None and draw(st.booleans())):
        me = draw(st.sampled_from(acting))
        facts.append(HandFact(me, hands[me]))
    for _ in range(draw(st.integers(min_facts, max_facts))):
        lie = lie_rate > 0 and draw(st.integers(0, lie_rate - 1)) == 0
        kind = draw(st.sampled_from(["look", "look", "look", "saw", "ask", "ask", "hand"]))
        if kind == "hand":
            seat = draw(st.sampled_from(seats))
            cards = hands[seat]
            if lie:
                cards = make_hand(draw(st.sampled_from(deck)), draw(st.sampled_from(deck)))
            facts.append(HandFact(seat, cards))
            continue
        if kind == "ask":
            asker = draw(st.sampled_from(acting))
            target = draw(st.sampled_from([s for s in acting if s != asker]))
            q = draw(st.sampled_from(list(QuestionCard)))
            facts.append(AskFact(asker, target, q, q.answer(hands[target]) != lie))
            continue
        viewer = draw(st.sampled_from(acting))
        target = draw(st.sampled_from([s for s in seats if s != viewer]))
        card = hands[target][draw(st.integers(0, 1))]
        said = announcement(card, character_of(hands[viewer]))
        if lie:
            said = draw(st.sampled_from([None, *CHARACTERS]))
        if kind == "look":
            facts.append(LookFact(viewer, target, said))
        else:
            given = draw(st.booleans())
            facts.append(SawFact(viewer, target, card, said if given else None, given))
    ev = Evidence(table.players, deck, tuple(facts), me)
    return ev, hands


# ---- rounds played move by move --------------------------------------------------------------


def hand(a: str, b: str) -> Hand:
    """The sorted hand of two card names."""
    return make_hand(parse_card(a), parse_card(b))


def dealt(players: int, hands: dict[int, Hand],
          questions: dict[int, tuple[QuestionCard, QuestionCard]], start: int = 1,
          **options: Any) -> WoofRound:
    """A round dealt exactly these hands (the deck = their cards) and question cards."""
    deck = tuple(card for s in sorted(hands) for card in hands[s])
    state = WoofRound.new(WoofOptions(players, deck, start=start, **options))
    return state.play(Deal(tuple(hands[s] for s in sorted(hands)),
                           tuple(questions[s] for s in sorted(questions))))


def look(state: WoofRound, viewer: int, target: int, index: int) -> WoofRound:
    """A look and chance's pick of the card seen."""
    return state.play(Look(viewer, target)).play(CardPick(index))


def last(state: WoofRound) -> Any:
    """The latest event of a round."""
    return state.events[-1]


#: The rulebook's example: Eva (1) Wolf, Thomas (2) Shepherd, Paul (3) Hunter, Jason (4) Sheep,
#: Kenny (5) Hunter.
RULEBOOK_HANDS = {1: hand("wolf", "sheep"), 2: hand("shepherd?", "hunter"),
                  3: hand("hunter", "sheep"), 4: hand("sheep", "sheep"),
                  5: hand("hunter", "sheep")}


def golden_round() -> WoofRound:
    """The rulebook's example played to the end (test_woof_rules.test_golden_rulebook_example
    says what happens)."""
    q1, q2, q3, q4 = (QuestionCard.Q1, QuestionCard.Q2, QuestionCard.Q3, QuestionCard.Q4)
    rnd = dealt(5, RULEBOOK_HANDS,
                {1: (q1, q3), 2: (q1, q3), 3: (q1, q3), 4: (q1, q2), 5: (q2, q4)})
    rnd = look(rnd, 1, 4, 0)
    rnd = look(rnd, 2, 5, 0)
    rnd = look(rnd, 3, 2, 1)
    rnd = rnd.play(Ask(4, 3, q1))
    for viewer, target, index in ((5, 1, 1), (1, 3, 1), (2, 4, 0), (3, 4, 0), (4, 5, 0),
                                  (5, 2, 1)):
        rnd = look(rnd, viewer, target, index)
    rnd = rnd.play(SuspectEarly(1, (4,)))  # Eva: Sheep -> Jason
    rnd = rnd.play(SuspectEarly(2, (1, 3)))  # Thomas: Wolf -> Eva, Sheep -> Paul
    rnd = rnd.play(FinalSuspicion(3, (4, 0)))  # Paul: Wolf -> Jason, Dog -> nobody
    rnd = rnd.play(FinalSuspicion(4, (0, 5)))  # Jason: Dog -> nobody, Hunter -> Kenny
    return rnd.play(FinalSuspicion(5, None))  # Kenny abstains
