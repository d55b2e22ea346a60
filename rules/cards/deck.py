"""K2-K4: card decks as kinds with counts, and the deck spec text every `fleece cards` command
reads.

A spec is `wolf` (or `mccord`): McCord's 52-card deck of K3; `pairs:N`: N kinds of two cards
named 1..N; or comma-separated `NAME*COUNT` entries (`COUNT` defaults to 1). A NAME that is an
integer is a War rank (higher wins); the McCord kind names (`fence`, `crook`, `sheep1`,
`sheep2`, `sheep3`, `wolf1`, `wolf2`, `wisc`) carry their K1 ranks, with K2's labelled
assumption that Fences rank lowest; any other name is a plain kind (Concentration only).

A card is the index of its kind in `Deck.kinds`; kinds are kept in rank order where ranks
exist, so for War a higher index is a higher card.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import factorial

from fleece.rules.errors import ParseError, RulesError

MAX_SPEC_CHARS = 2000
MAX_CARDS = 520  # ten 52-card decks: far beyond anything the exact tools can take
MAX_COUNT = 520
MAX_KINDS = 260
MAX_RANK_DIGITS = 9

# McCord's kinds (K3) with their K1 War ranks; K2's assumption puts the Fence lowest.
MCCORD: tuple[tuple[str, int, int, str], ...] = (
    ("fence", 8, 0, "Fence"),
    ("crook", 2, 1, "Shepherd's Crook"),
    ("sheep1", 8, 2, "One Sheep"),
    ("sheep2", 8, 3, "Two Sheep"),
    ("sheep3", 10, 4, "Three Sheep"),
    ("wolf1", 8, 5, "One Wolf"),
    ("wolf2", 4, 6, "Two Wolves"),
    ("wisc", 4, 7, "Wolf in sheep's clothing"),
)
MCCORD_RANK = {name: rank for name, _, rank, _ in MCCORD}
MCCORD_LABEL = {name: label for name, _, _, label in MCCORD}
ALIASES = {"wolf": "wolf", "mccord": "wolf"}

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}\Z")


def escape(text: str, limit: int = 40) -> str:
    """A short, printable rendering of user text for one-line messages."""
    shown = text if len(text) <= limit else text[:limit] + "..."
    return repr(shown)


@dataclass(frozen=True)
class Kind:
    """One kind of card: its name, how many copies, and its War rank (None: no rank)."""

    name: str
    count: int
    rank: int | None

    @property
    def label(self) -> str:
        """A readable name (McCord's card names in words; others as written)."""
        return MCCORD_LABEL.get(self.name, self.name)


@dataclass(frozen=True)
class Deck:
    """A deck: its kinds in a fixed order (rank order when ranked)."""

    kinds: tuple[Kind, ...]

    @property
    def size(self) -> int:
        """The number of cards."""
        return sum(k.count for k in self.kinds)

    @property
    def counts(self) -> tuple[int, ...]:
        """Copies per kind, in kind order."""
        return tuple(k.count for k in self.kinds)

    @property
    def names(self) -> tuple[str, ...]:
        """Kind names, in kind order."""
        return tuple(k.name for k in self.kinds)

    def index(self, name: str) -> int:
        """The kind index of a name (case-insensitive); ParseError naming the kinds."""
        low = name.strip().lower()
        for i, k in enumerate(self.kinds):
            if k.name == low:
                return i
        raise ParseError(f"unknown card {escape(name)} (this deck has: "
                         f"{', '.join(self.names[:12])}{' ...' if len(self.kinds) > 12 else ''})")

    @property
    def ranked(self) -> bool:
        """True when every kind has a War rank."""
        return all(k.rank is not None for k in self.kinds)

    @property
    def is_mccord(self) -> bool:
        """True when every kind is one of McCord's (the herd game needs this)."""
        return all(k.name in MCCORD_RANK for k in self.kinds)

    def spec(self) -> str:
        """The canonical spec text (parses back to this deck)."""
        if self == WOLF_DECK:
            return "wolf"
        return ",".join(k.name if k.count == 1 else f"{k.name}*{k.count}" for k in self.kinds)

    def cards(self) -> tuple[int, ...]:
        """Every card in kind order (kind index repeated count times)."""
        return tuple(i for i, k in enumerate(self.kinds) for _ in range(k.count))

    def arrangements(self) -> int:
        """K2: the number of distinct arrangements of the deck (each is one deal)."""
        return multinomial(self.counts)

    def text(self, cards: Sequence[int]) -> str:
        """Cards as space-separated kind names."""
        return " ".join(self.kinds[c].name for c in cards)


def multinomial(counts: Sequence[int]) -> int:
    """(sum counts)! / prod(count!): distinct arrangements of a multiset."""
    total = factorial(sum(counts))
    for c in counts:
        total //= factorial(c)
    return total


def arrangements(counts: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every distinct arrangement of the multiset (kind i repeated counts[i] times), lazily,
    in lexicographic order (the next-permutation algorithm, which skips repeats by itself)."""
    a = [i for i, c in enumerate(counts) for _ in range(c)]
    n = len(a)
    while True:
        yield tuple(a)
        i = n - 2
        while i >= 0 and a[i] >= a[i + 1]:
            i -= 1
        if i < 0:
            return
        j = n - 1
        while a[j] <= a[i]:
            j -= 1
        a[i], a[j] = a[j], a[i]
        a[i + 1:] = a[:i:-1]


def is_arrangement(cards: Sequence[int], counts: Sequence[int]) -> bool:
    """True when `cards` uses kind i exactly counts[i] times."""
    seen = [0] * len(counts)
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < len(counts):
            return False
        seen[c] += 1
    return seen == list(counts)


def _mccord() -> Deck:
    return Deck(tuple(Kind(name, count, rank) for name, count, rank, _ in MCCORD))


WOLF_DECK = _mccord()


def pairs(n: int) -> Deck:
    """`pairs:N`: N kinds of two cards, named and ranked 1..N."""
    if not 1 <= n <= MAX_KINDS:
        raise RulesError(f"pairs:{n}: the number of kinds must be 1..{MAX_KINDS}")
    return Deck(tuple(Kind(str(i), 2, i) for i in range(1, n + 1)))


def parse_deck(text: str) -> Deck:
    """Read a deck spec (see the module docs); a ParseError with the column of the first
    fault."""
    if not isinstance(text, str):
        raise ParseError("a deck spec is text")
    if len(text) > MAX_SPEC_CHARS:
        raise ParseError(f"deck spec too long ({len(text)} characters, at most "
                         f"{MAX_SPEC_CHARS})")
    spec = text.strip().lower()
    if not spec:
        raise ParseError("empty deck spec (try wolf, pairs:5 or 1*2,2*2)")
    if spec in ALIASES:
        return WOLF_DECK
    if spec.startswith("pairs:"):
        digits = spec[6:]
        column = len(text) - len(text.lstrip()) + 7  # the column of N
        if not digits.isascii() or not digits.isdigit():
            raise ParseError(f"pairs:N needs a whole number N (digits 0-9), not "
                             f"{escape(text.strip()[6:])}", column=column)
        if len(digits.lstrip("0")) > len(str(MAX_KINDS)):
            raise ParseError(f"pairs:N: N {escape(digits)} is too large (at most {MAX_KINDS})",
                             column=column)
        try:
            return pairs(int(digits))
        except RulesError as exc:
            raise ParseError(str(exc), column=column) from None
    kinds: list[Kind] = []
    names: set[str] = set()
    column = 1
    ints = 0
    for raw in text.split(","):
        entry = raw.strip().lower()
        start = column  # the column of this entry's first character
        col = start + (len(raw) - len(raw.lstrip()))
        column += len(raw) + 1
        if not entry:
            raise ParseError("empty entry in the deck spec (NAME*COUNT, ...)", column=col)
        name, star, count_text = entry.partition("*")
        name, count_text = name.strip(), count_text.strip()
        count = 1
        if star:
            after = raw[raw.index("*") + 1:]
            count_col = start + raw.index("*") + 1 + (len(after) - len(after.lstrip()))
            if not count_text.isascii() or not count_text.isdigit():
                raise ParseError(f"entry {escape(entry)}: count {escape(count_text)} is not a "
                                 "whole number (digits 0-9)", column=count_col)
            if len(count_text.lstrip("0")) > len(str(MAX_COUNT)):
                raise ParseError(f"entry {escape(entry)}: count {escape(count_text)} is too "
                                 f"large (at most {MAX_COUNT})", column=count_col)
            count = int(count_text)
            if not 1 <= count <= MAX_COUNT:
                raise ParseError(f"entry {escape(entry)}: count {count} of {escape(name)} is "
                                 f"out of range (1..{MAX_COUNT})", column=count_col)
        rank: int | None
        if name.isascii() and name.isdigit():
            if len(name) > MAX_RANK_DIGITS:
                raise ParseError(f"rank {escape(name)} is too large", column=col)
            rank = int(name)
            name = str(rank)
            ints += 1
        elif _NAME.match(name):
            rank = MCCORD_RANK.get(name)
        else:
            raise ParseError(f"bad card name {escape(name)} (letters, digits, - and _; "
                             "or an integer rank)", column=col)
        if name in names:
            raise ParseError(f"card {escape(name)} is listed twice", column=col)
        names.add(name)
        kinds.append(Kind(name, count, rank))
        if len(kinds) > MAX_KINDS:
            raise ParseError(f"too many kinds (at most {MAX_KINDS})", column=col)
    total = sum(k.count for k in kinds)
    if total > MAX_CARDS:
        raise ParseError(f"the deck has {total} cards (at most {MAX_CARDS})")
    if 0 < ints < len(kinds) and all(k.rank is not None for k in kinds):
        raise ParseError("mix of integer ranks and McCord names: use one or the other")
    if all(k.rank is not None for k in kinds):
        kinds.sort(key=lambda k: k.rank if k.rank is not None else 0)
    deck = Deck(tuple(kinds))
    return WOLF_DECK if deck == WOLF_DECK else deck


def war_deck(deck: Deck) -> Deck:
    """K1/K2: check that a deck can play War (ranks for every kind, at least 2 cards)."""
    if not deck.ranked:
        bad = next(k.name for k in deck.kinds if k.rank is None)
        raise RulesError(f"War needs ranks: card {escape(bad)} has none (use integers or "
                         "McCord's names)")
    if deck.size < 2:
        raise RulesError("War needs at least 2 cards")
    if deck.size > 255:
        raise RulesError("War takes at most 255 cards")
    return deck


def herd_deck(deck: Deck) -> Deck:
    """K3: check that a deck can play the herd game (McCord's kinds only)."""
    if not deck.is_mccord:
        bad = next(k.name for k in deck.kinds if k.name not in MCCORD_RANK)
        raise RulesError(f"the herd game needs McCord's cards: {escape(bad)} is not one "
                         "(fence, crook, sheep1-3, wolf1, wolf2, wisc)")
    return deck


def concentration_deck(deck: Deck) -> Deck:
    """K4: check that every card has a partner (every kind an even count)."""
    odd = [k.name for k in deck.kinds if k.count % 2]
    if odd:
        raise RulesError(f"Concentration needs an even count of every kind: "
                         f"{escape(odd[0])} has {deck.kinds[deck.index(odd[0])].count}")
    return deck
