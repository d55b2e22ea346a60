"""Hypothesis strategies shared by the Woof!! tests: random decks, deals and evidence that is
mostly truthful about a hidden deal (with occasional lies, so contradictions occur too)."""

from __future__ import annotations

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
)
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.rules.woof.round import Table

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
