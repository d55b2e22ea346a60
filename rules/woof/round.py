"""Table, deal and the flow of one round: look, ask, suspect early, round end (W1, W3-W7, W11).

`Round` is a small state machine. It checks every action against the rules (typed
IllegalMoveError, state unchanged on refusal), keeps the public record (announcements, answers,
who suspected early) next to the private truth (which card was seen), and hands the end of the
round to `rules.woof.scoring`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    QUESTION_DECK,
    Appearance,
    Card,
    Character,
    Hand,
    QuestionCard,
    RuleSet,
    announcement,
    character_of,
    make_hand,
)
from fleece.rules.woof.scoring import RoundScore, Suspicion, score_round
from fleece.rules.woof.tokens import TokenSupply

MIN_PLAYERS, MAX_PLAYERS = 4, 8


@dataclass(frozen=True)
class Table:
    """Seats of a game: players 1..n; with 4 players a dummy fifth seat (W3)."""

    players: int

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"Woof!! is for 4 to 8 players, not {self.players}")

    @property
    def seats(self) -> int:
        """Number of seats holding cards: the players, plus the dummy with 4 players."""
        return self.players + (1 if self.players == 4 else 0)

    @property
    def dummy(self) -> int | None:
        """The dummy seat's number (5 with 4 players), else None."""
        return 5 if self.players == 4 else None

    @property
    def seat_numbers(self) -> range:
        """All seat numbers, 1-based, the dummy included."""
        return range(1, self.seats + 1)

    @property
    def acting(self) -> tuple[int, ...]:
        """Seats that take turns, ask and answer questions (everyone but the dummy)."""
        return tuple(s for s in self.seat_numbers if s != self.dummy)

    @property
    def early_limit(self) -> int:
        """W7: early suspicions that end the round: 2 with 4-5 players, 3 with 6-8."""
        return 2 if self.players <= 5 else 3


def deal(deck: Sequence[Card], table: Table, rng: random.Random) -> dict[int, Hand]:
    """Shuffle and give every seat two cards (W1, W3). Cards left over are out of play."""
    if len(deck) < 2 * table.seats:
        raise RulesError(f"{table.seats} seats need {2 * table.seats} cards, the deck has "
                         f"{len(deck)}")
    cards = list(deck)
    rng.shuffle(cards)
    return {s: make_hand(cards[2 * i], cards[2 * i + 1])
            for i, s in enumerate(table.seat_numbers)}


@dataclass(frozen=True)
class LookEvent:
    """A look (W4): public part viewer/target/announced, private part the card seen."""

    viewer: int
    target: int
    card: Card
    announced: Appearance
    token_placed: bool


@dataclass(frozen=True)
class AskEvent:
    """A question card played (W5) and its truthful answer."""

    asker: int
    target: int
    question: QuestionCard
    answer: bool


@dataclass(frozen=True)
class EarlyEvent:
    """An early suspicion (W6); the picks stay hidden until the round ends."""

    seat: int
    suspicion: Suspicion


Event = LookEvent | AskEvent | EarlyEvent


@dataclass
class Round:
    """One round from the deal to the final suspicions.

    `barred` holds seats that may not suspect early this round (W8); `questions` each acting
    seat's question cards. When a seat must announce something it has no clue token for (a rules
    gap, W11) the announcement is still made, no token is laid, and the gap is recorded.
    """

    table: Table
    hands: Mapping[int, Hand]
    start: int
    barred: frozenset[int] = frozenset()
    rules: RuleSet = DEFAULT_RULES
    questions: dict[int, list[QuestionCard]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    tokens: TokenSupply = field(default_factory=TokenSupply)
    turns_taken: Counter[int] = field(default_factory=Counter)
    gaps: list[str] = field(default_factory=list)
    current: int = 0
    stopped: bool = False

    def __post_init__(self) -> None:
        if sorted(self.hands) != list(self.table.seat_numbers):
            raise RulesError("every seat must hold a hand")
        if self.start not in self.table.acting:
            raise RulesError(f"seat {self.start} cannot start (not an acting seat)")
        self.current = self.start

    # -- state --------------------------------------------------------------------------------
    def character(self, seat: int) -> Character:
        """A seat's character (W1)."""
        return character_of(self.hands[seat])

    @property
    def early(self) -> dict[int, Suspicion]:
        """Early suspicions made so far, by seat."""
        return {e.seat: e.suspicion for e in self.events if isinstance(e, EarlyEvent)}

    @property
    def over(self) -> bool:
        """W7: the round ends at once after 2 (4-5 players) or 3 (6-8) early suspicions."""
        return (self.stopped or len(self.early) >= self.table.early_limit
                or not self._still_playing())

    def stop(self, reason: str) -> None:
        """End the round outside the rules (a rules gap, e.g. too few seats may suspect early
        for W7 ever to end it); the reason is recorded in `gaps`."""
        self.stopped = True
        self.gaps.append(reason)

    def _still_playing(self) -> list[int]:
        early = self.early
        return [s for s in self.table.acting if s not in early]

    def can_suspect_early(self, seat: int) -> bool:
        """W6/W8: not on the first turn, not barred after a wrong early suspicion."""
        return self.turns_taken[seat] >= 1 and seat not in self.barred and seat not in self.early

    def shepherd_wolf_tokens(self) -> dict[int, frozenset[int]]:
        """For each seat, the seats where it laid a Wolf clue token (for the W9 bonus)."""
        out: dict[int, set[int]] = {}
        for e in self.events:
            if isinstance(e, LookEvent) and e.token_placed and e.announced is Character.WOLF:
                out.setdefault(e.viewer, set()).add(e.target)
        return {k: frozenset(v) for k, v in out.items()}

    # -- actions ------------------------------------------------------------------------------
    def _check_turn(self, seat: int) -> None:
        if self.over:
            raise IllegalMoveError("the round is over (W7)")
        if seat != self.current:
            raise IllegalMoveError(f"it is seat {self.current}'s turn, not seat {seat}'s")

    def look(self, seat: int, target: int, index: int) -> LookEvent:
        """W4: `seat` looks at card `index` (0/1) of another seat and announces its appearance."""
        self._check_turn(seat)
        if target == seat or target not in self.hands:
            raise IllegalMoveError(f"seat {seat} cannot look at seat {target}")
        if index not in (0, 1):
            raise IllegalMoveError("a seat holds two cards: index 0 or 1")
        card = self.hands[target][index]
        said = announcement(card, self.character(seat))
        placed = self.tokens.can_place(seat, said)
        if placed:
            self.tokens.place(seat, said)
        else:
            self.gaps.append(f"seat {seat} announced {said or '?'} with no token left (W11)")
        event = LookEvent(seat, target, card, said, placed)
        self._done(event)
        return event

    def ask(self, seat: int, target: int, question: QuestionCard) -> AskEvent:
        """W5: play one of the seat's question cards on another acting seat; truthful answer."""
        self._check_turn(seat)
        if target == seat or target not in self.table.acting:
            raise IllegalMoveError(f"seat {seat} cannot ask seat {target} (W3/W5)")
        held = self.questions.get(seat, [])
        if question not in held:
            raise IllegalMoveError(f"seat {seat} holds no {question.value} question card")
        held.remove(question)
        event = AskEvent(seat, target, question, question.answer(self.hands[target]))
        self._done(event)
        return event

    def suspect_early(self, seat: int, picks: Sequence[int]) -> EarlyEvent:
        """W6: name a seat (or 0) per target; the seat takes no further turns."""
        self._check_turn(seat)
        if not self.can_suspect_early(seat):
            raise IllegalMoveError(f"seat {seat} may not suspect early now (W6/W8)")
        event = EarlyEvent(seat, self.make_suspicion(seat, picks))
        self._done(event)
        return event

    def make_suspicion(self, seat: int, picks: Sequence[int]) -> Suspicion:
        """A checked suspicion for `seat`: one pick per target, each 0 or another seat."""
        for p in picks:
            if p != 0 and (p == seat or p not in self.hands):
                raise IllegalMoveError(f"seat {seat} cannot name seat {p}")
        return Suspicion(self.rules.targets(self.character(seat)), tuple(picks))

    def _done(self, event: Event) -> None:
        self.events.append(event)
        self.turns_taken[event.asker if isinstance(event, AskEvent)
                         else event.viewer if isinstance(event, LookEvent) else event.seat] += 1
        if not self.over:
            self.current = self._next_seat(self.current)

    def _next_seat(self, seat: int) -> int:
        order = list(self.table.acting)
        playing = set(self._still_playing())
        i = order.index(seat)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if candidate in playing:
                return candidate
        raise IllegalMoveError("no seat can take a turn")  # unreachable: over() covers it

    def finish(self, final: Mapping[int, Sequence[int] | None]) -> RoundScore:
        """Final suspicions of the seats without an early one (None = abstain), then W8-W9."""
        if not self.over:
            raise IllegalMoveError("the round is not over yet (W7)")
        early = self.early
        suspicions: dict[int, Suspicion | None] = {}
        for seat, picks in final.items():
            if seat in early or seat not in self.table.acting:
                raise IllegalMoveError(f"seat {seat} cannot make a final suspicion")
            suspicions[seat] = None if picks is None else self.make_suspicion(seat, picks)
        characters = {s: self.character(s) for s in self.table.seat_numbers}
        return score_round(characters, early, suspicions, self.shepherd_wolf_tokens(),
                           dummy=self.table.dummy)

    @property
    def next_start(self) -> int:
        """The seat left of (after) the last early suspicion starts the next round."""
        last = [e.seat for e in self.events if isinstance(e, EarlyEvent)]
        order = list(self.table.acting)
        if not last:
            return self.start
        return order[(order.index(last[-1]) + 1) % len(order)]


def deal_questions(table: Table, rng: random.Random) -> dict[int, list[QuestionCard]]:
    """Two question cards to each acting seat from the 16 (the rest are set aside)."""
    pile = list(QUESTION_DECK)
    rng.shuffle(pile)
    return {s: [pile[2 * i], pile[2 * i + 1]] for i, s in enumerate(table.acting)}


def default_deck(table: Table) -> tuple[Card, ...]:
    """The deck for a table: the 16 basic cards for 8 seats, else the labelled preset."""
    from fleece.rules.woof.cards import PRESET_DECKS

    return PRESET_DECKS.get(table.seats, BASIC_CARDS)
