"""The Farmer's belief about the wolves: every wolf set the rules allow, held as bit columns,
and a weight on each set that the public facts have not ruled out.

A `Universe` lists the allowed sets once (every choice of K of the animals, or the words of a
dictionary, M6/M23) and stores them column-wise: bit j of `cols[i]` is set when set j contains
animal i. A set of sets is then one Python integer (a mask over j), and the questions the
robots ask become a few integer operations on masks of a few thousand bits:

- the sets meeting a chart row (M26): the OR of the row's columns;
- the sets containing animal a: `cols[a]`; not containing it: the complement;
- how many sets contain each animal: one `int.bit_count` per animal;
- "between lo and hi wolves among these animals" (D4, D6, D7): a bit-sliced adder of the
  columns (one binary digit per mask), compared with lo..hi.

A `Belief` is a list of weight classes `(weight, mask)` with disjoint masks: uniform over the
consistent sets at the start of a decision (the solver's prior), reweighted by a Wolf model's
likelihood inside the lookahead. `Belief.from_facts` applies the solver's facts
(solver.mutton.facts) by this bit arithmetic, independently of the fast engine's counting,
which is what the tests compare it with.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from fleece.rules.errors import FleeceError
from fleece.solver.mutton.facts import Fact, Kind

#: Most wolf sets a robot tracks (every one of them, like the V2 robot): 26 animals with up to
#: 6 wolves (230,230 sets); 7 wolves (657,800) would make each turn's arithmetic slow.
MAX_SETS = 250_000


@dataclass(frozen=True, eq=False)
class Universe:
    """Every wolf set the rules allow (K of the animals, or a dictionary's words), column-wise.
    `sets[j]` is set j as a bit mask over the animals (bit i = animal i)."""

    animals: str
    num_wolves: int
    sets: tuple[int, ...]
    cols: tuple[int, ...]

    @classmethod
    def of_sets(cls, animals: str, num_wolves: int, sets: Sequence[int]) -> Universe:
        """A universe of the given sets (bit masks over the animals)."""
        return cls(animals, num_wolves, tuple(sets), _columns(len(animals), sets))

    @property
    def size(self) -> int:
        """The number of sets."""
        return len(self.sets)

    @property
    def full(self) -> int:
        """The mask of every set."""
        return (1 << len(self.sets)) - 1

    def index(self, letter: str) -> int:
        """Animal index of a letter."""
        return self.animals.index(letter)

    def any_of(self, animals: Iterable[int]) -> int:
        """The sets containing at least one of these animals (a chart row, M26)."""
        out = 0
        for a in animals:
            out |= self.cols[a]
        return out

    def count_between(self, animals: Sequence[int], lo: int, hi: int) -> int:
        """The sets holding between lo and hi of these animals."""
        out = 0
        for n, m in count_classes([self.cols[a] for a in animals], self.full):
            if lo <= n <= hi:
                out |= m
        return out

    def letters_of(self, j: int) -> str:
        """Set j as letters."""
        s = self.sets[j]
        return "".join(a for i, a in enumerate(self.animals) if s >> i & 1)


def count_classes(masks: Sequence[int], within: int) -> list[tuple[int, int]]:
    """(n, the sets of `within` lying in exactly n of `masks`) for every n that occurs: a
    bit-sliced adder, one binary digit of the count per mask over the sets."""
    digits: list[int] = []
    for h in masks:
        carry = h & within
        for i, digit in enumerate(digits):
            digits[i], carry = digit ^ carry, digit & carry
            if not carry:
                break
        if carry:
            digits.append(carry)
    out = []
    for n in range(len(masks) + 1):
        if n >> len(digits):
            break
        m = within
        for i, digit in enumerate(digits):
            m &= digit if n >> i & 1 else ~digit
        if m:
            out.append((n, m))
    return out


def _columns(n: int, sets: Sequence[int]) -> tuple[int, ...]:
    rows = [bytearray((len(sets) + 7) // 8) for _ in range(n)]
    for j, s in enumerate(sets):
        byte, bit = j >> 3, 1 << (j & 7)
        while s:
            low = s & -s
            rows[low.bit_length() - 1][byte] |= bit
            s ^= low
    return tuple(int.from_bytes(r, "little") for r in rows)


def set_count(num_animals: int, num_wolves: int,
              words: frozenset[frozenset[str]] | None = None) -> int:
    """How many wolf sets the rules allow: C(n, K), or the usable words of a dictionary."""
    if words is not None:
        return len(words)
    from math import comb

    return comb(num_animals, num_wolves)


@lru_cache(maxsize=8)
def universe(animals: str, num_wolves: int,
             words: frozenset[frozenset[str]] | None = None) -> Universe:
    """The allowed sets of a game (cached: a match builds it once). `words` restricts them to
    a dictionary (M23); only words of K letters among the animals count."""
    n = len(animals)
    if words is not None:
        usable = sorted("".join(sorted(w)) for w in words
                        if len(w) == num_wolves and w <= frozenset(animals))
        sets = tuple(sum(1 << animals.index(a) for a in w) for w in usable)
    else:
        total = set_count(n, num_wolves)
        if total > MAX_SETS:
            raise FleeceError(f"num_wolves: the robots track every wolf set, and {num_wolves} "
                              f"wolves among {n} animals make {total}; at most {MAX_SETS}")
        sets = tuple(sum(1 << i for i in combo)
                     for combo in itertools.combinations(range(n), num_wolves))
    return Universe(animals, num_wolves, sets, _columns(n, sets))


def fact_mask(uni: Universe, fact: Fact) -> int:
    """The sets of the universe that satisfy one solver fact (solver.mutton.facts)."""
    idx = [uni.index(a) for a in sorted(fact.animals)]
    if fact.kind is Kind.WOLF:
        return uni.cols[idx[0]]
    if fact.kind is Kind.SHEEP:
        return uni.full & ~uni.cols[idx[0]]
    if fact.kind is Kind.AT_LEAST_ONE:
        return uni.any_of(idx)
    if fact.kind is Kind.COUNT:
        return uni.count_between(idx, fact.lo, fact.hi)
    assert fact.words is not None
    allowed = {sum(1 << uni.index(a) for a in w) for w in fact.words}
    return sum(1 << j for j, s in enumerate(uni.sets) if s in allowed)


@dataclass(frozen=True, eq=False)
class Belief:
    """A weighted collection of wolf sets: `classes` are (weight of each set, mask) pairs with
    disjoint, non-empty masks. Probabilities are weights over the total."""

    universe: Universe
    classes: tuple[tuple[float, int], ...]

    @classmethod
    def uniform(cls, uni: Universe, mask: int) -> Belief:
        """Every set of `mask` with weight 1 (the solver's uniform prior)."""
        return cls(uni, ((1.0, mask),) if mask else ())

    @classmethod
    def from_facts(cls, animals: str, num_wolves: int, facts: Iterable[Fact],
                   words: frozenset[frozenset[str]] | None = None) -> Belief:
        """The sets satisfying every fact, uniformly weighted."""
        uni = universe(animals, num_wolves, words)
        mask = uni.full
        for f in facts:
            mask &= fact_mask(uni, f)
            if not mask:
                break
        return cls.uniform(uni, mask)

    @property
    def mask(self) -> int:
        """Every set with a positive weight."""
        out = 0
        for _, m in self.classes:
            out |= m
        return out

    @property
    def count(self) -> int:
        """The number of sets with a positive weight."""
        return sum(m.bit_count() for _, m in self.classes)

    @property
    def total(self) -> float:
        """The summed weight."""
        return sum(w * m.bit_count() for w, m in self.classes)

    def weight(self, mask: int) -> float:
        """The summed weight of the sets in `mask`."""
        acc = 0.0
        for w, m in self.classes:
            acc += w * (m & mask).bit_count()
        return acc

    def weights(self, masks: Sequence[int]) -> list[float]:
        """The summed weight of the sets in each mask."""
        out = [0.0] * len(masks)
        for w, m in self.classes:
            for i, x in enumerate(masks):
                out[i] += w * (m & x).bit_count()
        return out

    def probability(self, mask: int) -> float:
        """The probability of the sets in `mask`."""
        total = self.total
        return self.weight(mask) / total if total else 0.0

    def marginals(self, animals: Iterable[int]) -> dict[int, float]:
        """P(animal is a wolf) for each animal index."""
        total = self.total
        cols = self.universe.cols
        which = list(animals)
        if not total:
            return dict.fromkeys(which, 0.0)
        got = self.weights([cols[a] for a in which])
        return {a: x / total for a, x in zip(which, got, strict=True)}

    def counts(self, animals: Iterable[int]) -> dict[int, int]:
        """The number of sets (ignoring weights) containing each animal."""
        m = self.mask
        cols = self.universe.cols
        return {a: (m & cols[a]).bit_count() for a in animals}

    def entropy(self) -> float:
        """The entropy of the distribution over sets, in bits (log2 of the count when
        uniform)."""
        total = self.total
        if total <= 0:
            return 0.0
        h = math.log2(total)
        for w, m in self.classes:
            h -= m.bit_count() * w * math.log2(w) / total
        return max(h, 0.0)

    def restrict(self, mask: int) -> Belief:
        """The sets of this belief that lie in `mask`, weights kept."""
        return Belief(self.universe, tuple((w, m & mask) for w, m in self.classes if m & mask))

    def reweigh(self, parts: Iterable[tuple[float, int]]) -> Belief:
        """Multiply the weight of the sets in each (factor, mask) part by the factor (parts
        are disjoint; sets in no part are dropped). Classes of equal weight are merged."""
        merged: dict[float, int] = {}
        for f, pm in parts:
            if f <= 0 or not pm:
                continue
            for w, m in self.classes:
                both = m & pm
                if both:
                    key = w * f
                    merged[key] = merged.get(key, 0) | both
        return Belief(self.universe, tuple(sorted(merged.items(), reverse=True)))

    def compact(self, support: int | None = None) -> tuple[Belief, Callable[[int], int]]:
        """The same belief over a universe of the sets of `support` only (default: its own
        sets), and the map of old masks to new ones: the bit masks shrink to the number of
        sets kept, which makes every later operation cheaper."""
        uni = self.universe
        keep = self.mask if support is None else support | self.mask
        if keep == uni.full:
            return self, lambda m: m
        index: dict[int, int] = {}
        sets: list[int] = []
        m = keep
        while m:
            low = m & -m
            j = low.bit_length() - 1
            index[j] = len(sets)
            sets.append(uni.sets[j])
            m ^= low
        small = Universe(uni.animals, uni.num_wolves, tuple(sets),
                         _columns(len(uni.animals), sets))
        size = len(sets)

        def remap(cm: int) -> int:
            out = bytearray((size + 7) // 8)
            cm &= keep
            while cm:
                low = cm & -cm
                i = index[low.bit_length() - 1]
                out[i >> 3] |= 1 << (i & 7)
                cm ^= low
            return int.from_bytes(out, "little")

        return Belief(small, tuple((w, remap(cm)) for w, cm in self.classes)), remap

    def sets(self) -> list[tuple[str, float]]:
        """Every set with its weight, as letters (for small beliefs: tests, explanations)."""
        out = []
        for w, m in self.classes:
            while m:
                low = m & -m
                out.append((self.universe.letters_of(low.bit_length() - 1), w))
                m ^= low
        return sorted(out)
