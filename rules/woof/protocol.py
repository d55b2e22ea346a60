"""Woof!! as a game of the shared protocol (rules.protocol): one round, its options and texts.

The state is `WoofRound` (rules.woof.round), the moves are rules.woof.moves, the texts are
rules.woof.notation (a move per line after an options header), and a seat's observation is its
evidence file (rules.woof.evidence): its own hand, the public looks and answers, and the cards
it saw itself. The players are the acting seats; a dummy seat (W3) holds cards but never moves.
"""

from __future__ import annotations

import random

from fleece.rules.protocol import uniform_legal_move
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    EXPERT_CARDS,
    CardRules,
    Character,
    parse_card,
)
from fleece.rules.woof.evidence import evidence_from_round, format_evidence
from fleece.rules.woof.moves import WoofMove
from fleece.rules.woof.notation import format_move, format_position, parse_move, parse_position
from fleece.rules.woof.round import Table, WoofOptions, WoofRound, default_deck


class WoofGame:
    """The `Game` object of Woof!! (docs/rules.md section 2): one round, deal to final
    suspicions."""

    name = "woof"

    def players(self, options: WoofOptions) -> tuple[str, ...]:
        """The acting seats, `seat 1` ... (player i is seat `options.table.acting[i]`)."""
        return tuple(f"seat {s}" for s in options.table.acting)

    def default_options(self) -> WoofOptions:
        """8 players with the 16 basic cards (the one deck known from the sources), start
        seat 1, nobody barred, no turn limit."""
        return WoofOptions()

    def random_options(self, rng: random.Random) -> WoofOptions:
        """Any player count; the default deck, sometimes with expert cards swapped in for
        Sheep or extra cards out of play; sometimes another Dog target, bans from a previous
        round (at most W7's early-suspicion count, so W7 can still end the round) or a turn
        limit."""
        table = Table(rng.randint(4, 8))
        deck = list(default_deck(table))
        roll = rng.random()
        sheep = parse_card("sheep")
        if roll < 0.25:
            for card in rng.sample(EXPERT_CARDS, rng.randint(1, 4)):
                if deck.count(sheep) > 1:
                    deck.remove(sheep)
                deck.append(card)
        elif roll < 0.4:
            deck += rng.sample([*BASIC_CARDS, *EXPERT_CARDS], rng.randint(1, 4))
        rules = DEFAULT_RULES
        if rng.random() < 0.2:
            rules = CardRules(rng.choice([Character.HUNTER, Character.SHEEP, Character.WOLF]))
        barred: frozenset[int] = frozenset()
        if rng.random() < 0.3:
            barred = frozenset(rng.sample(table.acting, rng.randint(1, table.early_limit)))
        turn_limit = rng.randint(0, 30) if rng.random() < 0.3 else None
        return WoofOptions(table.players, tuple(deck), rules, rng.choice(table.acting), barred,
                           turn_limit)

    def new_initial_state(self, options: WoofOptions | None = None) -> WoofRound:
        """The round before the deal."""
        return WoofRound.new(options if options is not None else self.default_options())

    def move_text(self, state: WoofRound, move: WoofMove) -> str:
        """`deal ...`, `look 1 4`, `card 0`, `ask 1 4 q1`, `early 1 4 0`, `final 3 4 0`,
        `abstain 5` (rules.woof.notation)."""
        return format_move(move)

    def parse_move(self, state: WoofRound, text: str) -> WoofMove:
        """The exact inverse of `move_text` (the notation does not depend on the state)."""
        return parse_move(text)

    def position_text(self, state: WoofRound) -> str:
        """The options header and every move so far, one per line (hidden cards included)."""
        return format_position(state)

    def parse_position(self, text: str) -> WoofRound:
        """Replay `position_text`; ParseError with the line and column of a bad line."""
        return parse_position(text)

    def observation(self, state: WoofRound, player: int) -> str:
        """Seat `table.acting[player]`'s evidence file: the deck in play, its own hand (after
        the deal), every public look and answer, and its own looks with the card seen."""
        me = state.table.acting[player]
        return format_evidence(evidence_from_round(state, me=me, deck=state.deck))

    def random_move(self, state: WoofRound, rng: random.Random) -> WoofMove:
        """A uniformly random legal move of the seat to move (a chance outcome drawn with its
        probability at a chance node)."""
        if state.is_chance_node():
            return state.sample_chance(rng)
        return uniform_legal_move(state, rng)

    def length_bound(self, options: WoofOptions) -> int | None:
        """None without a turn limit: W7 ends a round only after enough early suspicions, and
        no rule makes a seat suspect, so looks (W11 tokens run out but looks go on as
        recorded gaps) can continue for ever. With a turn limit T the round ends after T turns
        as if W7 had ended it (the simulator's assumption, recorded as a gap): the deal, at
        most T turns of at most two moves (a look and its card pick) and one final suspicion
        per player bound it by 1 + 2T + players."""
        if options.turn_limit is None:
            return None
        return 1 + 2 * options.turn_limit + options.players


WOOF = WoofGame()
