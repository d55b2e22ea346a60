"""Random legal rounds and games, for property tests and examples.

The policy is deliberately plain (random legal actions, random suspicions): the point is to
exercise every rule, not to play well. Rules gaps met on the way are recorded, not hidden: a round
where too few seats may still suspect early for W7 to end it is stopped after `max_turns` turns
(an assumption of the simulator, recorded in `Round.gaps`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from fleece.rules.woof.cards import DEFAULT_RULES, Card, RuleSet
from fleece.rules.woof.round import Round, Table, deal, deal_questions, default_deck
from fleece.rules.woof.scoring import Game, RoundScore


@dataclass(frozen=True)
class RoundRecord:
    """A finished simulated round: the round (deal, events, tokens) and its score."""

    round: Round
    score: RoundScore


def _random_picks(rnd: Round, seat: int, rng: random.Random) -> list[int]:
    others = [0, *(s for s in rnd.table.seat_numbers if s != seat)]
    return [rng.choice(others) for _ in rnd.rules.targets(rnd.character(seat))]


def simulate_round(
    table: Table,
    rng: random.Random,
    *,
    deck: Sequence[Card] | None = None,
    barred: frozenset[int] = frozenset(),
    start: int | None = None,
    rules: RuleSet = DEFAULT_RULES,
    max_turns: int = 40,
    p_early: float = 0.25,
    p_ask: float = 0.35,
    p_abstain: float = 0.3,
) -> RoundRecord:
    """Play one round with random legal actions and random final suspicions; score it."""
    hands = deal(deck if deck is not None else default_deck(table), table, rng)
    first = start if start is not None else rng.choice(table.acting)
    rnd = Round(table, hands, first, barred, rules, questions=deal_questions(table, rng))
    turns = 0
    while not rnd.over:
        if turns >= max_turns:
            rnd.stop(f"stopped after {max_turns} turns: W7 had not ended the round")
            break
        seat = rnd.current
        if rnd.can_suspect_early(seat) and rng.random() < p_early:
            rnd.suspect_early(seat, _random_picks(rnd, seat, rng))
        elif rnd.questions.get(seat) and rng.random() < p_ask:
            target = rng.choice([s for s in table.acting if s != seat])
            rnd.ask(seat, target, rng.choice(rnd.questions[seat]))
        else:
            target = rng.choice([s for s in table.seat_numbers if s != seat])
            rnd.look(seat, target, rng.randrange(2))
        turns += 1
    early = rnd.early
    final: dict[int, Sequence[int] | None] = {}
    for seat in table.acting:
        if seat not in early:
            final[seat] = None if rng.random() < p_abstain else _random_picks(rnd, seat, rng)
    return RoundRecord(rnd, rnd.finish(final))


def simulate_game(
    table: Table, rng: random.Random, *, deck: Sequence[Card] | None = None,
    rules: RuleSet = DEFAULT_RULES,
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
