"""Table, options and the immutable state of one Woof!! round (W1, W3-W9, W11).

`WoofRound` is a state of the shared game protocol (rules.protocol): chance deals the cards
(`Deal`), seats take turns looking (`Look`, then chance picks the card seen: `CardPick`), asking
(`Ask`) and suspecting early (`SuspectEarly`) until W7 ends the round, then every seat without
an early suspicion makes a `FinalSuspicion` or abstains. `play` returns a new state or raises
IllegalMoveError saying why; the old state never changes. The state keeps the public record
(announcements, answers, who suspected early) next to the private truth (hands, cards seen) and
scores the round with `rules.woof.scoring`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.protocol import CHANCE, TERMINAL
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    PRESET_DECKS,
    Appearance,
    Card,
    CardRules,
    Character,
    Hand,
    QuestionCard,
    announcement,
    character_of,
)
from fleece.rules.woof.deals import QUESTION_PILE, card_pile, shuffle_hands, shuffle_questions
from fleece.rules.woof.moves import (
    Ask,
    CardPick,
    Deal,
    FinalSuspicion,
    Look,
    SuspectEarly,
    WoofMove,
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
        """Seats that take turns, ask and answer questions (everyone but the dummy, which is
        the last seat): 1..players."""
        return tuple(range(1, self.players + 1))

    @property
    def early_limit(self) -> int:
        """W7: early suspicions that end the round: 2 with 4-5 players, 3 with 6-8."""
        return 2 if self.players <= 5 else 3


def default_deck(table: Table) -> tuple[Card, ...]:
    """The deck for a table: the 16 basic cards for 8 seats, else the labelled preset."""
    return PRESET_DECKS.get(table.seats, BASIC_CARDS)


# ---- options ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WoofOptions:
    """The rule options of one round.

    `players` 4-8; `deck` the character cards in play (empty = `default_deck`, stored sorted;
    cards beyond two per seat are out of play); `rules` the Dog's assumed second target (W2);
    `start` the seat that takes the first turn; `barred` the seats barred from early suspicion
    by a wrong one last round (W8: at most as many as W7 allows early suspicions);
    `turn_limit` None, or the number of turns after which the round ends even though W7 has
    not ended it (a simulator assumption, recorded as a rules gap when applied)."""

    players: int = 8
    deck: tuple[Card, ...] = ()
    rules: CardRules = DEFAULT_RULES
    start: int = 1
    barred: frozenset[int] = frozenset()
    turn_limit: int | None = None

    def __post_init__(self) -> None:
        table = Table(self.players)
        deck = tuple(sorted(self.deck or default_deck(table), key=Card.sort_key))
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "barred", frozenset(self.barred))
        if len(deck) < 2 * table.seats:
            raise RulesError(f"{table.seats} seats need {2 * table.seats} cards, the deck has "
                             f"{len(deck)}")
        if self.start not in table.acting:
            raise RulesError(f"seat {self.start} cannot start (not an acting seat)")
        if not self.barred <= set(table.acting):
            raise RulesError(f"barred seats {sorted(self.barred - set(table.acting))} are not "
                             "acting seats")
        if len(self.barred) > table.early_limit:
            raise RulesError(f"{len(self.barred)} seats barred, but at most {table.early_limit} "
                             "early suspicions of last round could be wrong (W7, W8)")
        if self.turn_limit is not None and self.turn_limit < 0:
            raise RulesError(f"turn limit {self.turn_limit}: must be 0 or more")

    @property
    def table(self) -> Table:
        """The seats of these options."""
        return Table(self.players)


# ---- events: the record of a round -----------------------------------------------------------


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


@dataclass(frozen=True)
class FinalEvent:
    """A final suspicion after the round (W7); `suspicion` None when the seat abstained."""

    seat: int
    suspicion: Suspicion | None


def stop_gap(turns: int) -> str:
    """The rules gap recorded when a turn limit, not W7, ends a round."""
    return f"stopped after {turns} turns: W7 had not ended the round"


# ---- the state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class WoofRound:
    """One round from the deal to the last final suspicion, as an immutable value.

    Options: `table`, `rules`, `deck` (sorted), `start`, `barred`, `turn_limit` (see
    WoofOptions). Play: `dealt` every seat's hand in seat order (empty before the deal; `hands`
    maps seat -> hand), `held` every acting seat's question cards still held (seat order),
    `events` the looks, asks and early suspicions, `current` the seat whose turn it is (or who
    makes the next final suspicion; 0 once the round is scored), `pending` a look waiting for
    chance to pick the card, `tokens` the clue tokens laid (W11), `turns` the turns taken per
    acting seat, `gaps` rules gaps met (a seat announcing with no token left, W11; a turn limit
    ending the round), `finals` the final suspicions made so far.

    `returns()` gives each acting seat (player i = seat `table.acting[i]`) the round's points
    once the round is over: 2 for a correct early suspicion, 1 for a correct final one, plus
    the Shepherd bonus (W8-W9); error tokens are not points and are in `score()`.
    """

    table: Table
    rules: CardRules
    deck: tuple[Card, ...]
    start: int
    barred: frozenset[int] = frozenset()
    turn_limit: int | None = None
    dealt: tuple[Hand, ...] = ()
    held: tuple[tuple[QuestionCard, ...], ...] = ()
    events: tuple[Event, ...] = ()
    current: int = 0
    pending: Look | None = None
    tokens: TokenSupply = field(default_factory=TokenSupply)
    turns: tuple[int, ...] = ()
    gaps: tuple[str, ...] = ()
    finals: tuple[FinalEvent, ...] = ()

    @staticmethod
    def new(options: WoofOptions | None = None) -> WoofRound:
        """The state before the deal."""
        o = options if options is not None else WoofOptions()
        table = o.table
        return WoofRound(table, o.rules, o.deck, o.start, o.barred, o.turn_limit,
                         current=o.start, turns=(0,) * len(table.acting))

    @property
    def options(self) -> WoofOptions:
        """The options this round was started with."""
        return WoofOptions(self.table.players, self.deck, self.rules, self.start, self.barred,
                           self.turn_limit)

    # -- views --------------------------------------------------------------------------------
    @property
    def hands(self) -> Mapping[int, Hand]:
        """Seat -> its hand (empty before the deal)."""
        return dict(zip(self.table.seat_numbers, self.dealt, strict=False))

    @property
    def questions(self) -> Mapping[int, tuple[QuestionCard, ...]]:
        """Acting seat -> the question cards it still holds (empty before the deal)."""
        return dict(zip(self.table.acting, self.held, strict=False))

    @property
    def turns_taken(self) -> Mapping[int, int]:
        """Acting seat -> turns it has taken."""
        return dict(zip(self.table.acting, self.turns, strict=True))

    def hand(self, seat: int) -> Hand:
        """A seat's two cards (after the deal)."""
        return self.dealt[seat - 1]

    def character(self, seat: int) -> Character:
        """A seat's character (W1)."""
        return character_of(self.hand(seat))

    @property
    def early(self) -> dict[int, Suspicion]:
        """Early suspicions made so far, by seat."""
        return {e.seat: e.suspicion for e in self.events if isinstance(e, EarlyEvent)}

    def _early_seats(self) -> set[int]:
        return {e.seat for e in self.events if isinstance(e, EarlyEvent)}

    def _still_playing(self) -> list[int]:
        early = self._early_seats()
        return [s for s in self.table.acting if s not in early]

    def _w7_over(self) -> bool:
        early = len(self._early_seats())
        return early >= self.table.early_limit or early >= self.table.players

    def _limit_reached(self) -> bool:
        return self.turn_limit is not None and sum(self.turns) >= self.turn_limit

    @property
    def over(self) -> bool:
        """The turns are over: W7 ended the round (2 early suspicions with 4-5 players, 3 with
        6-8), or the turn limit did (`stopped`). Final suspicions may still be due."""
        return bool(self.dealt) and self.pending is None and (
            self._w7_over() or self._limit_reached())

    @property
    def stopped(self) -> bool:
        """The turn limit, not W7, ended the round (a rules gap, recorded in `gaps`)."""
        return self.over and not self._w7_over()

    @property
    def final_seats(self) -> tuple[int, ...]:
        """W7: the acting seats without an early suspicion, in seat order."""
        return tuple(self._still_playing())

    def can_suspect_early(self, seat: int) -> bool:
        """W6/W8: not on the first turn, not barred after a wrong early suspicion."""
        return (seat in self.table.acting and self.turns[seat - 1] >= 1
                and seat not in self.barred and seat not in self._early_seats())

    def shepherd_wolf_tokens(self) -> dict[int, frozenset[int]]:
        """For each seat, the seats where it laid a Wolf clue token (for the W9 bonus)."""
        out: dict[int, set[int]] = {}
        for e in self.events:
            if isinstance(e, LookEvent) and e.token_placed and e.announced is Character.WOLF:
                out.setdefault(e.viewer, set()).add(e.target)
        return {k: frozenset(v) for k, v in out.items()}

    @property
    def next_start(self) -> int:
        """The seat left of (after) the last early suspicion starts the next round."""
        last = [e.seat for e in self.events if isinstance(e, EarlyEvent)]
        order = list(self.table.acting)
        if not last:
            return self.start
        return order[(order.index(last[-1]) + 1) % len(order)]

    def score(self) -> RoundScore:
        """W8-W9: points, error tokens, Shepherd bonus and next round's bans, once terminal."""
        if not self.is_terminal():
            raise IllegalMoveError("the round is not over yet (W7)")
        characters = {s: self.character(s) for s in self.table.seat_numbers}
        final = {f.seat: f.suspicion for f in self.finals}
        return score_round(characters, self.early, final, self.shepherd_wolf_tokens(),
                           dummy=self.table.dummy)

    # -- the protocol -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True after the last final suspicion (W7)."""
        return self.over and len(self.finals) == len(self.final_seats)

    def is_chance_node(self) -> bool:
        """Chance deals the cards, and picks the card seen after a look."""
        return not self.dealt or self.pending is not None

    def current_player(self) -> int:
        """Player index (acting seat `table.acting[i]`) to move, CHANCE or TERMINAL."""
        if self.is_chance_node():
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return self.table.acting.index(self.current)

    def _pick_choices(self, seat: int) -> tuple[list[int], int]:
        """The choices of each pick of `seat` (0 and every other seat) and the pick count."""
        return [0, *(s for s in self.table.seat_numbers if s != seat)], len(
            self.rules.targets(self.character(seat)))

    def _pick_vectors(self, seat: int) -> int:
        """How many pick vectors `seat` can name (one pick per target)."""
        choices, k = self._pick_choices(seat)
        count: int = len(choices) ** k
        return count

    def legal_moves(self) -> Iterator[WoofMove]:
        """Every legal move or chance outcome, lazily, in a fixed order: deals; card 0, 1;
        looks by target, asks by target and question, early suspicions; abstain, then final
        suspicions (pick vectors in lexicographic order of 0 and the other seats)."""
        if not self.dealt:
            yield from self._deals()
            return
        if self.pending is not None:
            yield CardPick(0)
            yield CardPick(1)
            return
        if self.is_terminal():
            return
        seat = self.current
        choices, k = self._pick_choices(seat)
        if self.over:
            yield FinalSuspicion(seat, None)
            for picks in product(choices, repeat=k):
                yield FinalSuspicion(seat, picks)
            return
        for target in self.table.seat_numbers:
            if target != seat:
                yield Look(seat, target)
        for target in self.table.acting:
            if target != seat:
                for q in sorted(set(self.questions[seat])):
                    yield Ask(seat, target, q)
        if self.can_suspect_early(seat):
            for picks in product(choices, repeat=k):
                yield SuspectEarly(seat, picks)

    def _deals(self) -> Iterator[Deal]:
        pile = card_pile(self.deck)
        for hands in pile.assignments(self.table.seats):
            for questions in QUESTION_PILE.assignments(len(self.table.acting)):
                yield Deal(hands, questions)

    def count_legal_moves(self) -> int:
        """How many moves `legal_moves` yields, computed without listing them (the deals by
        dynamic programming over card kinds)."""
        if not self.dealt:
            return (card_pile(self.deck).count(self.table.seats)
                    * QUESTION_PILE.count(len(self.table.acting)))
        if self.pending is not None:
            return 2
        if self.is_terminal():
            return 0
        seat = self.current
        if self.over:
            return 1 + self._pick_vectors(seat)
        n = self.table.seats - 1
        n += (len(self.table.acting) - 1) * len(set(self.questions[seat]))
        if self.can_suspect_early(seat):
            n += self._pick_vectors(seat)
        return n

    def chance_probability(self, move: WoofMove) -> Fraction:
        """A deal: physical deals (identical pictures still distinct cards) giving these hands
        and question cards, over all physical deals. A card pick: 1/2. Else 0."""
        if not self.dealt:
            if not isinstance(move, Deal) or self._deal_shape_problem(move) is not None:
                return Fraction(0)
            pile = card_pile(self.deck)
            acting = len(self.table.acting)
            return Fraction(pile.ways(move.hands) * QUESTION_PILE.ways(move.questions),
                            pile.total(self.table.seats) * QUESTION_PILE.total(acting))
        if self.pending is not None and isinstance(move, CardPick) and move.index in (0, 1):
            return Fraction(1, 2)
        return Fraction(0)

    def sample_chance(self, rng: random.Random) -> WoofMove:
        """Shuffle and deal (uniform over physical deals), or pick one of the two cards."""
        if not self.dealt:
            hands = shuffle_hands(self.deck, self.table.seats, rng)
            return Deal(hands, shuffle_questions(len(self.table.acting), rng))
        if self.pending is not None:
            return CardPick(rng.randrange(2))
        raise ValueError("not a chance node: a seat moves now")

    def returns(self) -> tuple[Fraction, ...]:
        """Each acting seat's points of this round (W8-W9) once terminal, else zeros."""
        if not self.is_terminal():
            return (Fraction(0),) * len(self.table.acting)
        points = self.score().points
        return tuple(Fraction(points[s]) for s in self.table.acting)

    # -- playing ------------------------------------------------------------------------------
    def play(self, move: WoofMove) -> WoofRound:
        """The state after `move`; IllegalMoveError saying why when it is not legal here."""
        if not self.dealt:
            if not isinstance(move, Deal):
                raise IllegalMoveError(f"the cards are not dealt yet: chance deals, not {move}")
            why = self._deal_problem(move)
            if why:
                raise IllegalMoveError(why)
            return self._after_deal(move)
        if isinstance(move, Deal):
            raise IllegalMoveError("the cards are already dealt")
        if self.pending is not None:
            if not isinstance(move, CardPick):
                raise IllegalMoveError(f"seat {self.pending.viewer} is looking at seat "
                                       f"{self.pending.target}: chance picks card 0 or 1 now")
            return self._card(move)
        if isinstance(move, CardPick):
            raise IllegalMoveError("no look is waiting for a card to be picked")
        if self.is_terminal():
            raise IllegalMoveError("the round is over: every final suspicion is made")
        if self.over:
            if not isinstance(move, FinalSuspicion):
                raise IllegalMoveError(f"the round is over (W7): seat {self.current} makes its "
                                       "final suspicion or abstains")
            return self._final(move)
        if isinstance(move, FinalSuspicion):
            raise IllegalMoveError("final suspicions come after the round ends (W7)")
        if not isinstance(move, Look | Ask | SuspectEarly):
            raise IllegalMoveError(f"not a move of Woof!!: {move!r}")
        seat = move.viewer if isinstance(move, Look) else (
            move.asker if isinstance(move, Ask) else move.seat)
        if seat != self.current:
            raise IllegalMoveError(f"it is seat {self.current}'s turn, not seat {seat}'s")
        if isinstance(move, Look):
            if move.target == seat or move.target not in self.table.seat_numbers:
                raise IllegalMoveError(f"seat {seat} cannot look at seat {move.target} (W4)")
            return replace(self, pending=move)
        if isinstance(move, Ask):
            return self._ask(move)
        return self._early(move)

    def _deal_shape_problem(self, deal: Deal) -> str | None:
        """Why `deal` does not give two cards to each seat and two question cards to each
        acting seat, or None."""
        seats, acting = self.table.seats, len(self.table.acting)
        if len(deal.hands) != seats or any(len(h) != 2 for h in deal.hands):
            return f"a deal gives two cards to each of the {seats} seats"
        if len(deal.questions) != acting or any(len(q) != 2 for q in deal.questions):
            return f"a deal gives two question cards to each of the {acting} acting seats"
        return None

    def _deal_problem(self, deal: Deal) -> str | None:
        """Why `deal` cannot come from this deck and the question cards, or None."""
        why = self._deal_shape_problem(deal)
        if why:
            return why
        have = Counter(self.deck)
        for card, n in Counter(c for h in deal.hands for c in h).items():
            if n > have[card]:
                return f"the deal uses {n} {card} cards, the deck has {have[card]}"
        supply = dict(zip(QUESTION_PILE.kinds, QUESTION_PILE.counts, strict=True))
        for q, n in Counter(q for pair in deal.questions for q in pair).items():
            if n > supply.get(q, 0):
                return f"the deal uses {n} {q} question cards, there are {supply.get(q, 0)}"
        return None

    def _after_deal(self, deal: Deal) -> WoofRound:
        state = replace(self, dealt=deal.hands, held=deal.questions)
        return state._after_turn() if state.over else state

    def _card(self, pick: CardPick) -> WoofRound:
        if pick.index not in (0, 1):
            raise IllegalMoveError("a seat holds two cards: card 0 or card 1")
        look = self.pending
        assert look is not None
        seat = look.viewer
        card = self.hand(look.target)[pick.index]
        said = announcement(card, self.character(seat))
        tokens, gaps = self.tokens, self.gaps
        placed = tokens.can_place(seat, said)
        if placed:
            tokens = tokens.place(seat, said)
        else:
            gaps = (*gaps, f"seat {seat} announced {said or '?'} with no token left (W11)")
        event = LookEvent(seat, look.target, card, said, placed)
        return replace(self, pending=None, tokens=tokens, gaps=gaps)._done(seat, event)

    def _ask(self, move: Ask) -> WoofRound:
        seat, target = move.asker, move.target
        if target == self.table.dummy:
            raise IllegalMoveError(f"seat {seat} cannot ask seat {target}: the dummy seat is "
                                   "never asked (W3)")
        if target == seat or target not in self.table.acting:
            raise IllegalMoveError(f"seat {seat} cannot ask seat {target} (W5)")
        i = self.table.acting.index(seat)
        held = list(self.held[i])
        if move.question not in held:
            raise IllegalMoveError(f"seat {seat} holds no {move.question} question card (W5)")
        held.remove(move.question)
        event = AskEvent(seat, target, move.question, move.question.answer(self.hand(target)))
        new_held = (*self.held[:i], tuple(held), *self.held[i + 1:])
        return replace(self, held=new_held)._done(seat, event)

    def _early(self, move: SuspectEarly) -> WoofRound:
        seat = move.seat
        if self.turns_taken[seat] < 1:
            raise IllegalMoveError(f"seat {seat} may not suspect early on its first turn (W6)")
        if seat in self.barred:
            raise IllegalMoveError(f"seat {seat} is barred from early suspicion this round "
                                   "after a wrong one last round (W8)")
        return self._done(seat, EarlyEvent(seat, self.make_suspicion(seat, move.picks)))

    def _final(self, move: FinalSuspicion) -> WoofRound:
        if move.seat != self.current:
            raise IllegalMoveError(f"seat {self.current} makes the next final suspicion, not "
                                   f"seat {move.seat} (W7: in seat order)")
        suspicion = None if move.picks is None else self.make_suspicion(move.seat, move.picks)
        finals = (*self.finals, FinalEvent(move.seat, suspicion))
        seats = self.final_seats
        nxt = seats[len(finals)] if len(finals) < len(seats) else 0
        return replace(self, finals=finals, current=nxt)

    def make_suspicion(self, seat: int, picks: Sequence[int]) -> Suspicion:
        """A checked suspicion for `seat`: one pick per target, each 0 or another seat."""
        targets = self.rules.targets(self.character(seat))
        if len(picks) != len(targets):
            names = ", ".join(t.value for t in targets)
            raise IllegalMoveError(f"seat {seat} ({self.character(seat).value}) names one seat "
                                   f"per target ({names}): {len(targets)}, not {len(picks)} (W6)")
        for p in picks:
            if not isinstance(p, int) or (p != 0 and (p == seat
                                                      or p not in self.table.seat_numbers)):
                raise IllegalMoveError(f"seat {seat} cannot name seat {p}")
        return Suspicion(targets, tuple(picks))

    def _done(self, seat: int, event: Event) -> WoofRound:
        i = self.table.acting.index(seat)
        turns = (*self.turns[:i], self.turns[i] + 1, *self.turns[i + 1:])
        state = replace(self, events=(*self.events, event), turns=turns)
        if state.over:
            return state._after_turn()
        return replace(state, current=state._next_seat(seat))

    def _after_turn(self) -> WoofRound:
        """The turns are over: record a turn-limit stop, hand over to the final suspicions."""
        gaps = self.gaps
        if not self._w7_over():
            gaps = (*gaps, stop_gap(sum(self.turns)))  # the turn limit: reached just now
        seats = self.final_seats
        return replace(self, gaps=gaps, current=seats[0] if seats else 0)

    def _next_seat(self, seat: int) -> int:
        order = list(self.table.acting)
        playing = set(self._still_playing())
        i = order.index(seat)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if candidate in playing:
                return candidate
        raise IllegalMoveError("no seat can take a turn")  # unreachable: `over` covers it
