"""Exact combinatorics of dealing two cards to each holder from a pile with identical copies.

Woof!! deals twice at the start of a round: two character cards to every seat (W1, W3; the
deck's other cards are out of play) and two question cards to every acting seat (W5; the rest
of the 16 are set aside). A deal outcome is what the table can tell apart: each holder's pair
of card *kinds*. Its probability counts physical deals, since identical pictures are still
distinct cards: `Pile.ways(pairs) / Pile.total(holders)`. `Pile.count` gives the number of
outcomes without listing them, `Pile.assignments` lists them lazily.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb, factorial, perm
from typing import Any, Generic, TypeVar

from fleece.rules.woof.cards import QUESTION_DECK, Card, Hand, QuestionCard, make_hand

K = TypeVar("K", bound=Hashable)

QuestionPair = tuple[QuestionCard, QuestionCard]
"""An acting seat's two question cards, sorted (order in a hand carries no meaning)."""


@dataclass(frozen=True)
class Pile(Generic[K]):
    """A multiset of cards to deal from: its distinct kinds (in a fixed order) and copies."""

    kinds: tuple[K, ...]
    counts: tuple[int, ...]

    @staticmethod
    def of(cards: Iterable[K], key: Callable[[K], Any]) -> Pile[K]:
        """The pile of these cards, kinds ordered by `key` (the order pairs are sorted in)."""
        counter = Counter(cards)
        kinds = tuple(sorted(counter, key=key))
        return Pile(kinds, tuple(counter[k] for k in kinds))

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return sum(self.counts)

    def total(self, holders: int) -> int:
        """Physical deals of two cards to each of `holders` (unordered within a holder, the
        rest set aside unordered): N! / (2^h (N-2h)!)."""
        n = self.size
        if 2 * holders > n:
            return 0
        return factorial(n) // ((1 << holders) * factorial(n - 2 * holders))

    def ways(self, pairs: Sequence[Sequence[K]]) -> int:
        """Physical deals giving holder i exactly the kinds `pairs[i]`; 0 when the pile lacks
        the cards. prod_k n_k!/(n_k-u_k)! ways to place the copies, halved per identical pair."""
        index = {kind: i for i, kind in enumerate(self.kinds)}
        used = [0] * len(self.kinds)
        halves = 0
        for a, b in pairs:
            i, j = index.get(a), index.get(b)
            if i is None or j is None:
                return 0
            used[i] += 1
            used[j] += 1
            halves += i == j
        total = 1
        for n, u in zip(self.counts, used, strict=True):
            if u > n:
                return 0
            total *= perm(n, u)
        return total >> halves

    def count(self, holders: int) -> int:
        """The number of distinct outcomes (each holder's pair of kinds), by dynamic
        programming over the kinds: state = holders still holding 0 and 1 cards."""
        counts = self.counts

        @cache
        def rest(k: int, zero: int, one: int) -> int:
            if k == len(counts):
                return 1 if zero == 0 and one == 0 else 0
            n = counts[k]
            total = 0
            for two in range(min(zero, n // 2) + 1):  # holders getting two copies of kind k
                for single in range(min(zero - two, n - 2 * two) + 1):  # 0 -> 1 card
                    for fill in range(min(one, n - 2 * two - single) + 1):  # 1 -> 2 cards
                        total += (comb(zero, two) * comb(zero - two, single) * comb(one, fill)
                                  * rest(k + 1, zero - two - single, one + single - fill))
            return total

        return rest(0, holders, 0)

    def assignments(self, holders: int) -> Iterator[tuple[tuple[K, K], ...]]:
        """Every outcome once, lazily, in a fixed order: holder 1's pair varies slowest."""
        left = list(self.counts)
        chosen: list[tuple[K, K]] = []

        def walk(h: int) -> Iterator[tuple[tuple[K, K], ...]]:
            if h == holders:
                yield tuple(chosen)
                return
            for i, a in enumerate(self.kinds):
                if not left[i]:
                    continue
                left[i] -= 1
                for j in range(i, len(self.kinds)):
                    if left[j]:
                        left[j] -= 1
                        chosen.append((a, self.kinds[j]))
                        yield from walk(h + 1)
                        chosen.pop()
                        left[j] += 1
                left[i] += 1

        return walk(0)


@lru_cache(maxsize=64)
def card_pile(deck: tuple[Card, ...]) -> Pile[Card]:
    """The character cards of a deck (kinds in Card.sort_key order, as hands are sorted)."""
    return Pile.of(deck, Card.sort_key)


#: The 16 question cards as a pile (kinds q1..q5).
QUESTION_PILE: Pile[QuestionCard] = Pile.of(QUESTION_DECK, lambda q: q.value)


def shuffle_hands(cards: Sequence[Card], seats: int, rng: random.Random) -> tuple[Hand, ...]:
    """Shuffle the cards (in the order given) and give seat i cards 2i and 2i+1, as sorted
    hands; the cards left over are out of play. Uniform over physical deals."""
    pile = list(cards)
    rng.shuffle(pile)
    return tuple(make_hand(pile[2 * i], pile[2 * i + 1]) for i in range(seats))


def shuffle_questions(holders: int, rng: random.Random) -> tuple[QuestionPair, ...]:
    """Shuffle the 16 question cards and give holder i cards 2i and 2i+1, in the order dealt
    (not sorted: a simulated player may pick by position); the rest are set aside."""
    pile = list(QUESTION_DECK)
    rng.shuffle(pile)
    return tuple((pile[2 * i], pile[2 * i + 1]) for i in range(holders))
