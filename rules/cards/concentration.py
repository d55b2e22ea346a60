"""K4: the Concentration variant as a game of the shared protocol.

The deal is one chance move: an arrangement of the deck laid face down in rows of 13 (4 x 13
for 52 cards), positions named by row letter and column (`A1` ... `D13`). A turn is two moves:
the player flips one face-down card, sees it, then flips another. Same kind (K4: any two cards
of a kind match): both are removed, the player scores a pair and moves again; else they are
turned back and the next player moves (solitaire: the same player). Every flip is public and
remembered (perfect memory), so every player observes the same board: removed, never seen, or
the kind seen there.

Returns: solitaire, minus the number of turns at the end (K4's aim: fewest turns); with 2+
players, 1/w to each of the w players with the most pairs. K4 does not make every game end (a
player may flip two known, non-matching cards for ever: Zwick & Paterson's pass); the option
`turn_limit` cuts a game after that many turns (outcome `cut`, returns all 0); None, the
default, plays the rules as written (verify: CARDS-CONC-ENDLESS).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from fleece.rules.cards.deck import (
    WOLF_DECK,
    Deck,
    arrangements,
    concentration_deck,
    escape,
    is_arrangement,
    pairs,
    parse_deck,
)
from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.protocol import CHANCE, TERMINAL
from fleece.rules.text import split_lines, whole_number

COLUMNS = 13
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Outcome(Enum):
    """How a game of Concentration ended."""

    CLEARED = "cleared"
    CUT = "cut"


@dataclass(frozen=True)
class ConcentrationOptions:
    """The deck (every kind an even count), the number of players (1 = solitaire) and an
    optional turn limit."""

    deck: Deck = WOLF_DECK
    players: int = 1
    turn_limit: int | None = None

    def __post_init__(self) -> None:
        concentration_deck(self.deck)
        if self.deck.size > COLUMNS * len(ROWS):
            raise RulesError(f"at most {COLUMNS * len(ROWS)} cards fit the layout")
        if not 1 <= self.players <= 8:
            raise RulesError("Concentration takes 1-8 players")
        if self.turn_limit is not None and not 1 <= self.turn_limit <= 10**7:
            raise RulesError("the turn limit must be 1..10000000")

    def text(self) -> str:
        """The options line of a position."""
        limit = "none" if self.turn_limit is None else str(self.turn_limit)
        return (f"concentration deck={self.deck.spec()} players={self.players} "
                f"limit={limit}")


def position_name(i: int) -> str:
    """`A1` for position 0, `A13` for 12, `B1` for 13 ..."""
    return f"{ROWS[i // COLUMNS]}{i % COLUMNS + 1}"


def parse_position_name(text: str, size: int) -> int:
    """The inverse of `position_name`, checked against the layout size."""
    t = text.strip().upper()
    if len(t) < 2 or len(t) > 3 or t[0] not in ROWS or not t[1:].isascii() \
            or not t[1:].isdigit():
        raise ParseError(f"bad position {escape(text)} (row letter and column, e.g. B7)")
    col = int(t[1:])
    i = ROWS.index(t[0]) * COLUMNS + col - 1
    if not 1 <= col <= COLUMNS or i >= size:
        raise ParseError(f"no position {escape(text)} in a layout of {size} cards")
    return i


@dataclass(frozen=True)
class Deal:
    """Chance: the kind at each position (kind indices)."""

    layout: tuple[int, ...]


@dataclass(frozen=True)
class Flip:
    """Turn a face-down card at a position."""

    position: int


ConcMove = Deal | Flip


@dataclass(frozen=True)
class ConcState:
    """A game: the layout (None before the deal), removed and ever-seen positions, the first
    card flipped this turn, the player to move, pairs per player, turns and outcome (a
    snapshot: the position text writes exactly these)."""

    options: ConcentrationOptions
    layout: tuple[int, ...] | None = None
    removed: frozenset[int] = frozenset()
    seen: frozenset[int] = frozenset()
    first: int | None = None
    to_move: int = 0
    pairs: tuple[int, ...] = ()
    turns: int = 0
    outcome: Outcome | None = None

    def current_player(self) -> int:
        """CHANCE before the deal, TERMINAL at the end, else the player to move."""
        if self.outcome is not None:
            return TERMINAL
        return CHANCE if self.layout is None else self.to_move

    def is_terminal(self) -> bool:
        """True when every card is removed (or the turn limit cut the game)."""
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        """Only the deal is chance's."""
        return self.outcome is None and self.layout is None

    def face_down(self) -> list[int]:
        """Positions still on the table and not flipped this turn."""
        assert self.layout is not None
        return [i for i in range(len(self.layout)) if i not in self.removed and i != self.first]

    def legal_moves(self) -> Iterator[ConcMove]:
        """Every deal, or a flip of any face-down card."""
        if self.outcome is not None:
            return
        if self.layout is None:
            yield from (Deal(a) for a in arrangements(self.options.deck.counts))
            return
        yield from (Flip(i) for i in self.face_down())

    def count_legal_moves(self) -> int:
        """The exact number of deals or flips."""
        if self.outcome is not None:
            return 0
        if self.layout is None:
            return self.options.deck.arrangements()
        return len(self.layout) - len(self.removed) - (self.first is not None)

    def chance_probability(self, move: ConcMove) -> Fraction:
        """Each distinct layout is equally likely."""
        if (self.outcome is None and self.layout is None and isinstance(move, Deal)
                and is_arrangement(move.layout, self.options.deck.counts)):
            return Fraction(1, self.options.deck.arrangements())
        return Fraction(0)

    def sample_chance(self, rng: random.Random) -> ConcMove:
        """A shuffled layout."""
        if self.layout is not None or self.outcome is not None:
            raise ValueError("not a chance node")
        cards = list(self.options.deck.cards())
        rng.shuffle(cards)
        return Deal(tuple(cards))

    def play(self, move: ConcMove) -> ConcState:
        """The state after the deal or a flip; IllegalMoveError saying why otherwise."""
        if self.outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.layout is None:
            if not isinstance(move, Deal) or self.chance_probability(move) == 0:
                raise IllegalMoveError("the first move is the deal: every card of the deck once")
            return replace(self, layout=move.layout, pairs=(0,) * self.options.players)
        if not isinstance(move, Flip):
            raise IllegalMoveError("the cards are already dealt")
        i = move.position
        if not (isinstance(i, int) and 0 <= i < len(self.layout)):
            raise IllegalMoveError("no such position")
        if i in self.removed:
            raise IllegalMoveError(f"{position_name(i)} was already taken")
        if i == self.first:
            raise IllegalMoveError(f"{position_name(i)} is already face up this turn")
        seen = self.seen | {i}
        if self.first is None:
            return replace(self, seen=seen, first=i)
        turns = self.turns + 1
        if self.layout[i] == self.layout[self.first]:
            removed = self.removed | {i, self.first}
            pairs = list(self.pairs)
            pairs[self.to_move] += 1
            state = replace(self, removed=removed, seen=seen, first=None, pairs=tuple(pairs),
                            turns=turns)
            if len(removed) == len(self.layout):
                return replace(state, outcome=Outcome.CLEARED)
        else:
            state = replace(self, seen=seen, first=None, turns=turns,
                            to_move=(self.to_move + 1) % self.options.players)
        if self.options.turn_limit is not None and turns >= self.options.turn_limit:
            return replace(state, outcome=Outcome.CUT)
        return state

    def returns(self) -> tuple[Fraction, ...]:
        """Solitaire: -turns once cleared; else 1/w to each player with the most pairs."""
        n = self.options.players
        if self.outcome is not Outcome.CLEARED:
            return (Fraction(0),) * n
        if n == 1:
            return (Fraction(-self.turns),)
        best = max(self.pairs)
        w = [p for p in range(n) if self.pairs[p] == best]
        return tuple(Fraction(1, len(w)) if p in w else Fraction(0) for p in range(n))

    def known_partner(self, i: int) -> int | None:
        """A seen, face-down position other than `i` with the same kind as `i` (perfect
        memory), if any."""
        assert self.layout is not None
        for j in sorted(self.seen):
            if j != i and j not in self.removed and self.layout[j] == self.layout[i]:
                return j
        return None


def format_move(deck: Deck, move: ConcMove) -> str:
    """`deal K K ...` (position order) or `flip B7`."""
    if isinstance(move, Deal):
        return "deal " + deck.text(move.layout)
    return f"flip {position_name(move.position)}"


def parse_move(deck: Deck, text: str) -> ConcMove:
    """The inverse of `format_move`."""
    if len(text) > 20_000:
        raise ParseError("move text too long")
    w = text.split()
    if not w or w[0] not in ("deal", "flip"):
        raise ParseError(f"expected `deal ...` or `flip POSITION`, not {escape(text)}")
    if w[0] == "deal":
        return Deal(tuple(deck.index(x) for x in w[1:]))
    if len(w) != 2:
        raise ParseError("`flip` takes one position")
    return Flip(parse_position_name(w[1], deck.size))


def parse_options(line: str) -> ConcentrationOptions:
    """Read `concentration deck=SPEC players=N limit=T|none`."""
    words = line.split()
    if not words or words[0] != "concentration":
        raise ParseError("a Concentration position starts with `concentration deck=...`")
    values: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in ("deck", "players", "limit") or key in values:
            raise ParseError(f"unexpected {escape(word)} in the options line")
        values[key] = value
    try:
        players_text = values.get("players", "1")
        players = whole_number(players_text, "players", max_digits=2)
        limit_text = values.get("limit", "none")
        limit = None
        if limit_text != "none":
            limit = whole_number(limit_text, "limit", max_digits=8)
        return ConcentrationOptions(parse_deck(values.get("deck", "wolf")), players, limit)
    except RulesError as exc:
        raise ParseError(str(exc)) from None


def _names(positions: frozenset[int]) -> str:
    return " ".join(position_name(i) for i in sorted(positions)) or "-"


def format_position(state: ConcState) -> str:
    """The snapshot: options; the layout (kinds in position order); removed and seen
    positions; the card face up this turn; player to move, pairs, turns, outcome."""
    lines = [state.options.text()]
    if state.layout is not None:
        deck = state.options.deck
        lines += [f"layout {deck.text(state.layout)}", f"removed {_names(state.removed)}",
                  f"seen {_names(state.seen)}"]
        if state.first is not None:
            lines.append(f"first {position_name(state.first)}")
        lines += [f"to-move {state.to_move + 1}", "pairs " + " ".join(map(str, state.pairs)),
                  f"turns {state.turns}"]
    if state.outcome is not None:
        lines.append(f"outcome {state.outcome.value}")
    return "\n".join(lines) + "\n"


def _number(word: str, hi: int, what: str) -> int:
    if not word.isascii() or not word.isdigit() or len(word) > 9 or int(word) > hi:
        raise ParseError(f"{what} must be a whole number up to {hi}, not {escape(word)}")
    return int(word)


def parse_position(text: str) -> ConcState:
    """Read `format_position`; ParseError naming the line when malformed or inconsistent
    (removed cards must be matched pairs, pairs must count them, the outcome must fit)."""
    if len(text) > 100_000:
        raise ParseError("position text too long")
    numbered = [(i + 1, ln.split("#", 1)[0].strip()) for i, ln in enumerate(split_lines(text))]
    numbered = [(i, ln) for i, ln in numbered if ln]
    if not numbered:
        raise ParseError("empty Concentration position")
    no, first_line = numbered[0]
    try:
        options = parse_options(first_line)
    except ParseError as exc:
        raise ParseError(exc.message, line=no) from None
    deck, n = options.deck, options.deck.size
    got: dict[str, list[str]] = {}
    for no, line in numbered[1:]:
        w = line.split()
        if w[0] not in ("layout", "removed", "seen", "first", "to-move", "pairs", "turns",
                        "outcome") or w[0] in got:
            raise ParseError(f"unexpected line {escape(line)}", line=no)
        got[w[0]] = w[1:]
        got["@" + w[0]] = [str(no)]
    if "layout" not in got:
        if set(got) - {"outcome", "@outcome"}:
            raise ParseError("a position before the deal has only the options line")
        if "outcome" in got:
            raise ParseError("a game cannot be over before the deal")
        return ConcState(options)
    key = "layout"  # the line being read, named by every error below

    def line_of(name: str) -> int | None:
        return int(got["@" + name][0]) if "@" + name in got else None

    try:
        layout = tuple(deck.index(x) for x in got["layout"])
        if not is_arrangement(layout, deck.counts):
            raise ParseError("the layout must hold every card of the deck once")

        def positions(name: str) -> frozenset[int]:
            nonlocal key
            key = name
            words = got.get(name, ["-"])
            if words == ["-"]:
                return frozenset()
            found = [parse_position_name(x, n) for x in words]
            if len(set(found)) != len(found):
                raise ParseError(f"a position is listed twice in `{name}`")
            return frozenset(found)

        removed, seen = positions("removed"), positions("seen")
        first_pos = positions("first") if "first" in got else frozenset()
        if len(first_pos) > 1:
            raise ParseError("`first` names one position")
        first = next(iter(first_pos)) if first_pos else None
        key = "to-move"
        to_move = _number(" ".join(got.get("to-move", ["?"])), options.players, "to-move") - 1
        key = "pairs"
        pairs = tuple(_number(x, n // 2, "a pair count") for x in got.get("pairs", []))
        key = "turns"
        turns = _number(" ".join(got.get("turns", ["?"])), 10**8, "turns")
        key = "outcome"
        outcome_words = got.get("outcome")
        outcome = None
        if outcome_words is not None:
            outcome = {o.value: o for o in Outcome}.get(" ".join(outcome_words))
            if outcome is None:
                raise ParseError("unknown outcome (cleared, cut)")
    except ParseError as exc:
        if line_of(key) is None:
            raise ParseError(f"missing `{key}` line ({exc.message})") from None
        raise ParseError(exc.message, line=line_of(key)) from None
    if to_move < 0 or len(pairs) != options.players:
        raise ParseError(f"`pairs` needs one count per player ({options.players}) and "
                         "`to-move` a player", line=line_of("pairs") or line_of("to-move"))
    kinds = sorted(layout[i] for i in removed)
    if any(kinds[i] != kinds[i + 1] for i in range(0, len(kinds), 2)) or len(kinds) % 2 \
            or sum(pairs) * 2 != len(removed):
        raise ParseError("removed cards must be matched pairs, counted in `pairs`",
                         line=line_of("removed") or line_of("pairs"))
    if not removed <= seen or (first is not None and (first not in seen or first in removed)):
        raise ParseError("removed and face-up cards must have been seen",
                         line=line_of("seen") or line_of("removed"))
    cleared = len(removed) == n
    if cleared != (outcome is Outcome.CLEARED) or (
            outcome is Outcome.CUT and (options.turn_limit is None
                                        or turns != options.turn_limit)) or (
            outcome is None and options.turn_limit is not None and turns >= options.turn_limit):
        raise ParseError("the outcome does not fit the position",
                         line=line_of("outcome") or line_of("turns"))
    if outcome is not None and first is not None:
        raise ParseError("a finished game has no card face up", line=line_of("first"))
    return ConcState(options, layout, removed, seen, first, to_move, pairs, turns, outcome)


def board_text(state: ConcState) -> str:
    """The public board: `.` removed, `?` never seen, else the kind seen there; scores."""
    lines = [f"turns {state.turns}", "pairs " + " ".join(map(str, state.pairs))]
    if state.layout is not None:
        deck = state.options.deck
        cells = []
        for i, kind in enumerate(state.layout):
            if i in state.removed:
                cells.append(".")
            elif i in state.seen or i == state.first:
                cells.append(deck.kinds[kind].name + ("*" if i == state.first else ""))
            else:
                cells.append("?")
        for r in range(0, len(cells), COLUMNS):
            lines.append(f"{ROWS[r // COLUMNS]}: " + " ".join(cells[r:r + COLUMNS]))
    if state.outcome is not None:
        lines.append(f"outcome {state.outcome.value}")
    else:
        lines.append(f"to move {state.to_move + 1}")
    return "\n".join(lines) + "\n"


class ConcentrationGame:
    """The `Game` object of the Concentration variant (docs/rules.md K4)."""

    name = "concentration"

    def players(self, options: ConcentrationOptions) -> tuple[str, ...]:
        """`solo`, or `player 1` ... `player N`."""
        if options.players == 1:
            return ("solo",)
        return tuple(f"player {i + 1}" for i in range(options.players))

    def default_options(self) -> ConcentrationOptions:
        """Solitaire with McCord's 52 cards, no turn limit (K4 as written)."""
        return ConcentrationOptions()

    def random_options(self, rng: random.Random) -> ConcentrationOptions:
        """A small or the full deck, 1-4 players, always a turn limit (so tests end)."""
        if rng.random() < 0.1:
            deck = WOLF_DECK
        elif rng.random() < 0.5:
            deck = pairs(rng.randint(1, 8))
        else:
            kinds = rng.randint(1, 5)
            deck = parse_deck(",".join(f"k{i}*{2 * rng.randint(1, 3)}" for i in range(kinds)))
        return ConcentrationOptions(deck, rng.randint(1, 4), rng.randint(1, 300))

    def new_initial_state(self, options: ConcentrationOptions | None = None) -> ConcState:
        """The table before the deal."""
        return ConcState(options if options is not None else ConcentrationOptions())

    def move_text(self, state: ConcState, move: ConcMove) -> str:
        """See `format_move`."""
        return format_move(state.options.deck, move)

    def parse_move(self, state: ConcState, text: str) -> ConcMove:
        """The exact inverse of `move_text`."""
        return parse_move(state.options.deck, text)

    def position_text(self, state: ConcState) -> str:
        """The snapshot (see `format_position`)."""
        return format_position(state)

    def parse_position(self, text: str) -> ConcState:
        """Read `position_text` back."""
        return parse_position(text)

    def observation(self, state: ConcState, player: int) -> str:
        """Every flip is public: all players observe the same board (see `board_text`)."""
        return board_text(state)

    def random_move(self, state: ConcState, rng: random.Random) -> ConcMove:
        """Half the time a uniformly random flip; otherwise a perfect-memory player's flip
        (a known pair's partner, else a card never seen, else any)."""
        if state.is_chance_node():
            return state.sample_chance(rng)
        down = state.face_down()
        if rng.random() < 0.5:
            return Flip(down[rng.randrange(len(down))])
        if state.first is not None:
            j = state.known_partner(state.first)
            if j is not None:
                return Flip(j)
        elif state.layout is not None:
            for i in sorted(state.seen - state.removed):
                if state.known_partner(i) is not None:
                    return Flip(i)
        unseen = [i for i in down if i not in state.seen]
        pool = unseen or down
        return Flip(pool[rng.randrange(len(pool))])

    def length_bound(self, options: ConcentrationOptions) -> int | None:
        """None without a turn limit (a player may pass for ever, CARDS-CONC-ENDLESS); with a
        limit T: the deal and two flips per turn, 1 + 2T."""
        return None if options.turn_limit is None else 1 + 2 * options.turn_limit


CONCENTRATION = ConcentrationGame()
