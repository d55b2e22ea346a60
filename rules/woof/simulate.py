"""Random legal rounds and games, for property tests, examples and puzzle generation.

The policy is deliberately plain (random legal actions, random suspicions): the point is to
exercise every rule, not to play well. A round is played move by move on the immutable
`WoofRound`. Rules gaps met on the way are recorded, not hidden: a round where too few seats
suspect early for W7 to end it is stopped after `max_turns` turns (the round's turn limit, an
assumption of the simulator, recorded in `WoofRound.gaps`).

The random draws are part of the output (puzzle packs are regenerated from seeds), so their
order is fixed: shuffle the deck, pick the start seat, shuffle the question cards, then per
turn the draws of `simulate_round`'s policy, then the final suspicions in seat order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from fleece.rules.errors import RulesError
from fleece.rules.woof.cards import DEFAULT_RULES, Card, CardRules
from fleece.rules.woof.deals import shuffle_hands, shuffle_questions
from fleece.rules.woof.moves import Ask, CardPick, Deal, FinalSuspicion, Look, SuspectEarly
from fleece.rules.woof.round import Table, WoofOptions, WoofRound, default_deck
from fleece.rules.woof.scoring import Game, RoundScore


@dataclass(frozen=True)
class RoundRecord:
    """A finished simulated round: the terminal state (deal, events, tokens, final
    suspicions) and its score."""

    round: WoofRound
    score: RoundScore


def _random_picks(rnd: WoofRound, seat: int, rng: random.Random) -> tuple[int, ...]:
    others = [0, *(s for s in rnd.table.seat_numbers if s != seat)]
    return tuple(rng.choice(others) for _ in rnd.rules.targets(rnd.character(seat)))


def simulate_round(
    table: Table,
    rng: random.Random,
    *,
    deck: Sequence[Card] | None = None,
    barred: frozenset[int] = frozenset(),
    start: int | None = None,
    rules: CardRules = DEFAULT_RULES,
    max_turns: int = 40,
    p_early: float = 0.25,
    p_ask: float = 0.35,
    p_abstain: float = 0.3,
) -> RoundRecord:
    """Play one round with random legal actions and random final suspicions; score it.

    Each turn: suspect early with probability `p_early` when allowed, else ask with `p_ask`
    when holding a question card, else look; finally each seat abstains with `p_abstain`."""
    cards = list(deck) if deck is not None else list(default_deck(table))
    if len(cards) < 2 * table.seats:  # checked before any random draw
        raise RulesError(f"{table.seats} seats need {2 * table.seats} cards, the deck has "
                         f"{len(cards)}")
    hands = shuffle_hands(cards, table.seats, rng)
    first = start if start is not None else rng.choice(table.acting)
    dealt = shuffle_questions(len(table.acting), rng)
    options = WoofOptions(table.players, tuple(cards), rules, first, barred, max_turns)
    state = WoofRound.new(options).play(Deal(hands, dealt))
    # The policy holds its question cards in the order dealt and picks one by position.
    held = {s: list(pair) for s, pair in zip(table.acting, dealt, strict=True)}
    while not state.over:
        seat = state.current
        if state.can_suspect_early(seat) and rng.random() < p_early:
            state = state.play(SuspectEarly(seat, _random_picks(state, seat, rng)))
        elif held[seat] and rng.random() < p_ask:
            target = rng.choice([s for s in table.acting if s != seat])
            question = rng.choice(held[seat])
            held[seat].remove(question)
            state = state.play(Ask(seat, target, question))
        else:
            target = rng.choice([s for s in table.seat_numbers if s != seat])
            state = state.play(Look(seat, target)).play(CardPick(rng.randrange(2)))
    while not state.is_terminal():
        seat = state.current
        picks = None if rng.random() < p_abstain else _random_picks(state, seat, rng)
        state = state.play(FinalSuspicion(seat, picks))
    return RoundRecord(state, state.score())


def simulate_game(
    table: Table, rng: random.Random, *, deck: Sequence[Card] | None = None,
    rules: CardRules = DEFAULT_RULES,
) -> tuple[Game, list[RoundRecord]]:
    """Play rounds until the game ends (W10); the next round starts left of the last early
    suspicion and honours the bans of wrong early suspicions."""
    game = Game(list(table.acting))
    records: list[RoundRecord] = []
    start: int | None = None
    while not game.over:
        rec = simulate_round(table, rng, deck=deck, barred=game.barred, start=start, rules=rules)
        game.record(rec.score)
        records.append(rec)
        start = rec.round.next_start
    return game, records
