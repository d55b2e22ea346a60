"""K1-K2: Wolf!, a War game for two, as a game of the shared protocol (rules.protocol).

War has no decisions: every move is chance's. The first move is the deal (K2: each distinct
arrangement of the deck equally likely; A takes the first ceil(n/2) cards, top card first, B
the rest). Each later move is one battle. With a fixed return order (`winner-first`,
`loser-first`) a battle has one outcome; with `random` its outcomes are the distinct orders in
which the winner puts the battle's cards under its pile, all equally likely.

A battle (K2): both turn their top card; on equal ranks each adds one face-down and one face-up
card and the new face-up cards are compared, again on equality. Run-out rule `lose` (K2's
option, the default): a player who cannot add both cards loses, both unable is a draw.
Run-out rule `last-card` (an assumption for the option's other setting): a player with one
card left turns it face up; with none, its last face-up card stands; both out of cards with
equal face-up cards is a draw. A player with no card at the start of a battle has lost.

Ending a cycling game (K2): with a fixed order the state keeps every pile pair seen at the
start of a battle; when the pair after a battle was seen before, the game is over with the
outcome `cycle` (it would repeat for ever). `battle_limit` (optional) ends a game after that
many battles with the outcome `limit` (needed with `random`, where a repeated pair is no
cycle). Returns: +1/-1 to the winner/loser, 0 each for a draw, a cycle or the limit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from fleece.rules.cards.deck import (
    WOLF_DECK,
    Deck,
    arrangements,
    escape,
    is_arrangement,
    multinomial,
    pairs,
    parse_deck,
    war_deck,
)
from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.protocol import CHANCE, TERMINAL
from fleece.rules.text import split_lines, whole_number

MAX_RECORD_CHARS = 4_000_000


class Order(Enum):
    """K2: how the winner of a battle puts the battle's cards under its pile."""

    WINNER_FIRST = "winner-first"
    LOSER_FIRST = "loser-first"
    RANDOM = "random"

    @classmethod
    def parse(cls, text: str) -> Order:
        """`winner-first`, `loser-first` or `random`."""
        for o in cls:
            if o.value == text.strip().lower():
                return o
        raise ParseError(f"unknown return order {escape(text)} (winner-first, loser-first, "
                         "random)")


class Runout(Enum):
    """K2: what happens to a player who cannot finish a war."""

    LOSE = "lose"
    LAST_CARD = "last-card"

    @classmethod
    def parse(cls, text: str) -> Runout:
        """`lose` or `last-card`."""
        for r in cls:
            if r.value == text.strip().lower():
                return r
        raise ParseError(f"unknown run-out rule {escape(text)} (lose, last-card)")


class Outcome(Enum):
    """How a game of War ended."""

    A = "A"
    B = "B"
    DRAW = "draw"
    CYCLE = "cycle"
    LIMIT = "limit"


@dataclass(frozen=True)
class WarOptions:
    """K2's options: the deck, the return order, the run-out rule; and an optional limit."""

    deck: Deck = WOLF_DECK
    order: Order = Order.WINNER_FIRST
    runout: Runout = Runout.LOSE
    battle_limit: int | None = None

    def __post_init__(self) -> None:
        war_deck(self.deck)
        if self.battle_limit is not None and not 1 <= self.battle_limit <= 10**9:
            raise RulesError("the battle limit must be 1..1000000000")

    def text(self) -> str:
        """The options line of a position."""
        limit = "none" if self.battle_limit is None else str(self.battle_limit)
        return (f"war deck={self.deck.spec()} order={self.order.value} "
                f"runout={self.runout.value} limit={limit}")


Pile = tuple[int, ...]


@dataclass(frozen=True)
class BattleResult:
    """One battle's result: the winner (0 = A, 1 = B, None = draw by run-out), the cards each
    played in order (face-up first, then face-down, face-up, ...), and whether the game ended
    inside the battle (a run-out)."""

    winner: int | None
    played: tuple[Pile, Pile]
    runout: bool


def battle(a: Pile, b: Pile, runout: Runout = Runout.LOSE) -> BattleResult:
    """K2: resolve the battle at the top of piles `a` and `b` (both non-empty)."""
    ia, ib = 1, 1  # cards played so far by each
    up_a, up_b = a[0], b[0]
    while up_a == up_b:
        if runout is Runout.LOSE:
            can_a, can_b = len(a) - ia >= 2, len(b) - ib >= 2
            if not (can_a and can_b):
                winner = None if not (can_a or can_b) else (0 if can_a else 1)
                return BattleResult(winner, (a[:ia], b[:ib]), True)
            ia += 2
            ib += 2
        else:
            left_a, left_b = len(a) - ia, len(b) - ib
            if left_a == 0 and left_b == 0:
                return BattleResult(None, (a[:ia], b[:ib]), True)
            ia += min(2, left_a)
            ib += min(2, left_b)
        up_a, up_b = a[ia - 1], b[ib - 1]
    return BattleResult(0 if up_a > up_b else 1, (a[:ia], b[:ib]), False)


def fixed_return(result: BattleResult, order: Order) -> Pile:
    """K2: the cards the winner puts under its pile under a fixed order."""
    assert result.winner is not None and order is not Order.RANDOM
    own, other = result.played[result.winner], result.played[1 - result.winner]
    return own + other if order is Order.WINNER_FIRST else other + own


def after(a: Pile, b: Pile, result: BattleResult, returned: Pile) -> tuple[Pile, Pile]:
    """The piles after a battle that has a winner, who puts `returned` under its pile."""
    na, nb = a[len(result.played[0]):], b[len(result.played[1]):]
    if result.winner == 0:
        return na + returned, nb
    return na, nb + returned


def deal_piles(cards: Pile) -> tuple[Pile, Pile]:
    """K2: A takes the first ceil(n/2) cards (top first), B the rest."""
    half = (len(cards) + 1) // 2
    return cards[:half], cards[half:]


@dataclass(frozen=True)
class Deal:
    """Chance: the shuffled deck, top card first (kind indices)."""

    cards: Pile


@dataclass(frozen=True)
class Battle:
    """Chance: one battle; `returned` is the order of the cards put under the winner's pile
    (empty when the battle ended the game by a run-out)."""

    returned: Pile


WarMove = Deal | Battle


@dataclass(frozen=True)
class WarState:
    """A game of War: options, the piles (None before the deal), the battles played, the
    outcome once over, the pile pairs seen (fixed orders), and every move so far."""

    options: WarOptions
    piles: tuple[Pile, Pile] | None = None
    battles: int = 0
    outcome: Outcome | None = None
    seen: frozenset[tuple[Pile, Pile]] = frozenset()
    record: tuple[WarMove, ...] = field(default=(), repr=False)

    # ---- protocol --------------------------------------------------------------------

    def current_player(self) -> int:
        """CHANCE until the game is over (War has no decisions)."""
        return TERMINAL if self.outcome is not None else CHANCE

    def is_terminal(self) -> bool:
        """True once a player won, or the game was drawn, cycled or cut."""
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        """Every move of War is chance's."""
        return self.outcome is None

    def _battle(self) -> BattleResult:
        assert self.piles is not None
        return battle(self.piles[0], self.piles[1], self.options.runout)

    def legal_moves(self) -> Iterator[WarMove]:
        """The deals (every distinct arrangement), or the battle's outcomes."""
        if self.outcome is not None:
            return
        if self.piles is None:
            for cards in arrangements(self.options.deck.counts):
                yield Deal(cards)
            return
        result = self._battle()
        if result.winner is None or result.runout:
            yield Battle(())
        elif self.options.order is Order.RANDOM:
            pot = result.played[0] + result.played[1]
            for order in arrangements(_counts(pot, len(self.options.deck.kinds))):
                yield Battle(order)
        else:
            yield Battle(fixed_return(result, self.options.order))

    def count_legal_moves(self) -> int:
        """The exact number of outcomes (a multinomial for a deal or a random return)."""
        if self.outcome is not None:
            return 0
        if self.piles is None:
            return self.options.deck.arrangements()
        result = self._battle()
        if result.winner is None or result.runout or self.options.order is not Order.RANDOM:
            return 1
        pot = result.played[0] + result.played[1]
        return multinomial(_counts(pot, len(self.options.deck.kinds)))

    def _is_legal(self, move: object) -> bool:
        if self.outcome is not None:
            return False
        if self.piles is None:
            return isinstance(move, Deal) and is_arrangement(move.cards,
                                                             self.options.deck.counts)
        if not isinstance(move, Battle):
            return False
        result = self._battle()
        if result.winner is None or result.runout:
            return move.returned == ()
        if self.options.order is Order.RANDOM:
            pot = result.played[0] + result.played[1]
            return is_arrangement(move.returned, _counts(pot, len(self.options.deck.kinds)))
        return move.returned == fixed_return(result, self.options.order)

    def chance_probability(self, move: WarMove) -> Fraction:
        """1 / the number of outcomes for a legal outcome (all equally likely), else 0."""
        if not self._is_legal(move):
            return Fraction(0)
        return Fraction(1, self.count_legal_moves())

    def sample_chance(self, rng: random.Random) -> WarMove:
        """A uniformly random deal (a shuffle) or return order."""
        if self.piles is None:
            cards = list(self.options.deck.cards())
            rng.shuffle(cards)
            return Deal(tuple(cards))
        result = self._battle()
        if result.winner is None or result.runout:
            return Battle(())
        if self.options.order is Order.RANDOM:
            pot = list(result.played[0] + result.played[1])
            rng.shuffle(pot)
            return Battle(tuple(pot))
        return Battle(fixed_return(result, self.options.order))

    def play(self, move: WarMove) -> WarState:
        """The state after the deal or a battle; IllegalMoveError saying why otherwise."""
        if self.outcome is not None:
            raise IllegalMoveError("the game is over")
        if not self._is_legal(move):
            if self.piles is None:
                raise IllegalMoveError("the first move is the deal: every card of the deck "
                                       "once")
            if isinstance(move, Deal):
                raise IllegalMoveError("the cards are already dealt")
            raise IllegalMoveError("that is not how this battle's cards go back (K2)")
        record = (*self.record, move)
        if isinstance(move, Deal):
            piles = deal_piles(move.cards)
            seen = frozenset({piles}) if self.options.order is not Order.RANDOM else frozenset()
            return WarState(self.options, piles, 0, None, seen, record)
        assert self.piles is not None
        result = self._battle()
        battles = self.battles + 1
        if result.runout:
            ended = Outcome.DRAW if result.winner is None else (Outcome.A, Outcome.B)[
                result.winner]
            return WarState(self.options, self.piles, battles, ended, self.seen, record)
        a, b = after(self.piles[0], self.piles[1], result, move.returned)
        outcome: Outcome | None = None
        if not b:
            outcome = Outcome.A
        elif not a:
            outcome = Outcome.B
        elif (a, b) in self.seen:
            outcome = Outcome.CYCLE
        elif self.options.battle_limit is not None and battles >= self.options.battle_limit:
            outcome = Outcome.LIMIT
        seen = self.seen
        if self.options.order is not Order.RANDOM and outcome is None:
            seen = seen | {(a, b)}
        return WarState(self.options, (a, b), battles, outcome, seen, record)

    def returns(self) -> tuple[Fraction, ...]:
        """+1/-1 for the winner/loser; 0 each otherwise (and before the end)."""
        if self.outcome is Outcome.A:
            return (Fraction(1), Fraction(-1))
        if self.outcome is Outcome.B:
            return (Fraction(-1), Fraction(1))
        return (Fraction(0), Fraction(0))


def _counts(cards: Pile, kinds: int) -> tuple[int, ...]:
    counts = [0] * kinds
    for c in cards:
        counts[c] += 1
    return tuple(counts)


def configurations(deck: Deck) -> int:
    """The number of pile pairs (A, B) with both piles non-empty: (n - 1) splits of each
    arrangement."""
    return (deck.size - 1) * deck.arrangements()


# ---- text ------------------------------------------------------------------------------


def parse_options(line: str) -> WarOptions:
    """Read the options line `war deck=SPEC order=O runout=R limit=N|none`."""
    words = line.split()
    if not words or words[0] != "war":
        raise ParseError("a War position starts with `war deck=... order=... runout=...`",
                         line=1, column=1)
    values: dict[str, str] = {}
    for w in words[1:]:
        key, eq, value = w.partition("=")
        if not eq or key not in ("deck", "order", "runout", "limit") or key in values:
            raise ParseError(f"unexpected {escape(w)} in the options line", line=1)
        values[key] = value
    try:
        deck = parse_deck(values.get("deck", "wolf"))
        order = Order.parse(values.get("order", "winner-first"))
        runout = Runout.parse(values.get("runout", "lose"))
        limit_text = values.get("limit", "none")
        limit = None
        if limit_text != "none":
            limit = whole_number(limit_text, "limit", max_digits=10)
        return WarOptions(deck, order, runout, limit)
    except (ParseError, RulesError) as exc:
        raise ParseError(str(exc), line=1) from None


def format_move(deck: Deck, move: WarMove) -> str:
    """`deal C C ...` (top card first) or `battle [C C ...]` (the cards returned, for the
    random order)."""
    if isinstance(move, Deal):
        return "deal " + deck.text(move.cards)
    return "battle" + ("" if not move.returned else " " + deck.text(move.returned))


def parse_move(state: WarState, text: str) -> WarMove:
    """The inverse of `format_move` in the context of `state`: a bare `battle` is the one
    outcome of a battle under a fixed order (or a run-out)."""
    if len(text) > 20_000:
        raise ParseError("move text too long")
    words = text.split()
    if not words or words[0] not in ("deal", "battle"):
        raise ParseError(f"expected `deal ...` or `battle`, not {escape(text)}")
    deck = state.options.deck
    cards = tuple(deck.index(w) for w in words[1:])
    if words[0] == "deal":
        return Deal(cards)
    if cards or state.piles is None or state.outcome is not None:
        return Battle(cards)
    moves = list(state.legal_moves()) if state.count_legal_moves() == 1 else []
    if len(moves) == 1:
        assert isinstance(moves[0], Battle)
        return moves[0]
    raise ParseError("with the random order a battle names the cards in the order returned")


def format_position(state: WarState) -> str:
    """The options line then every move, one per line."""
    deck = state.options.deck
    return "\n".join([state.options.text(), *(format_move(deck, m) for m in state.record)]
                     ) + "\n"


def parse_position(text: str) -> WarState:
    """Replay a position text; ParseError naming the line of a bad or illegal move."""
    if len(text) > MAX_RECORD_CHARS:
        raise ParseError("position text too long")
    lines = [ln.split("#", 1)[0].strip() for ln in split_lines(text)]
    numbered = [(i + 1, ln) for i, ln in enumerate(lines) if ln]
    if not numbered:
        raise ParseError("empty War position")
    first_no, first = numbered[0]
    try:
        options = parse_options(first)
    except ParseError as exc:
        raise ParseError(exc.message, line=first_no) from None
    state = WarState(options)
    for no, line in numbered[1:]:
        try:
            state = state.play(parse_move(state, line))
        except (ParseError, IllegalMoveError) as exc:
            raise ParseError(getattr(exc, "message", str(exc)), line=no) from None
    return state


class WarGame:
    """The `Game` object of Wolf! (War, docs/rules.md K1-K2)."""

    name = "war"

    def players(self, options: WarOptions) -> tuple[str, ...]:
        """Player 0 is A (first half of the deal), player 1 is B."""
        return ("A", "B")

    def default_options(self) -> WarOptions:
        """K2's defaults: the Wolf! deck (Fences lowest), winner-first, run-out loses."""
        return WarOptions()

    def random_options(self, rng: random.Random) -> WarOptions:
        """A small ranked deck (2-10 cards: the full deck's games are long, and its
        tests are their own), any order and run-out rule; a battle limit with the random order
        (and sometimes otherwise)."""
        order = rng.choice(list(Order))
        runout = rng.choice(list(Runout))
        if rng.random() < 0.3:
            deck = pairs(rng.randint(1, 5))
        else:
            kinds = rng.randint(1, 5)
            counts = [rng.randint(1, 3) for _ in range(kinds)]
            while sum(counts) > 10:
                counts[rng.randrange(kinds)] = 1
            if sum(counts) < 2:
                counts[0] = 2
            deck = parse_deck(",".join(f"{i + 1}*{c}" for i, c in enumerate(counts)))
        limit = None
        if order is Order.RANDOM or rng.random() < 0.2:
            limit = rng.randint(1, 300)
        return WarOptions(deck, order, runout, limit)

    def new_initial_state(self, options: WarOptions | None = None) -> WarState:
        """The game before the deal."""
        return WarState(options if options is not None else WarOptions())

    def move_text(self, state: WarState, move: WarMove) -> str:
        """`deal ...` or `battle [...]` (see `format_move`)."""
        return format_move(state.options.deck, move)

    def parse_move(self, state: WarState, text: str) -> WarMove:
        """The exact inverse of `move_text`."""
        return parse_move(state, text)

    def position_text(self, state: WarState) -> str:
        """The options line and every move."""
        return format_position(state)

    def parse_position(self, text: str) -> WarState:
        """Replay `position_text`."""
        return parse_position(text)

    def observation(self, state: WarState, player: int) -> str:
        """War hides nothing that a player chooses by: pile sizes, battles played, the cards
        of the last battle and the outcome (the same for both players)."""
        lines = [f"battles {state.battles}"]
        if state.piles is not None:
            lines.append(f"cards A {len(state.piles[0])} B {len(state.piles[1])}")
        if state.record and isinstance(state.record[-1], Battle) and state.record[-1].returned:
            lines.append("last " + state.options.deck.text(state.record[-1].returned))
        if state.outcome is not None:
            lines.append(f"outcome {state.outcome.value}")
        return "\n".join(lines) + "\n"

    def random_move(self, state: WarState, rng: random.Random) -> WarMove:
        """Every move is chance's: an outcome drawn with its probability."""
        return state.sample_chance(rng)

    def length_bound(self, options: WarOptions) -> int | None:
        """Fixed order: the deal plus at most one battle per distinct pile pair (a repeated
        pair ends the game as a cycle, K2), so 1 + (n-1) * arrangements, or 1 + the battle
        limit if smaller. Random order: None unless a battle limit is set (a repeated pair is
        no cycle there; the limit ends such games), then 1 + the limit."""
        bounds = []
        if options.order is not Order.RANDOM:
            bounds.append(1 + configurations(options.deck))
        if options.battle_limit is not None:
            bounds.append(1 + options.battle_limit)
        return min(bounds) if bounds else None


WAR = WarGame()
