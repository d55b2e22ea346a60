"""Concentration (K4) by brute force over explicit layouts, for the tests: no kinds-and-counts
model, nothing from fleece.solver.

The deck is a tuple of cards (kind numbers); the layouts are every distinct arrangement,
equally likely. What a player knows is an observation per position: never seen, seen (and
still face down) as kind k, or taken as kind k. The layouts consistent with the observations
are the player's belief (a bit set over the layouts), and every probability of a flip is a
count of layouts in it. A turn picks a face-down position, sees its card, then picks another
face-down position; the same kind takes both off the table. Solitaire minimises the
expected number of turns. Two players: the mover maximises its expected pairs minus the
opponent's; a match keeps the turn; a turn that can teach nothing and match nothing (both
cards known, different kinds) hands the same position over: the pass, and when both would
rather pass the game stalls with the pairs taken so far (worth 0 from there: value = max(best
other choice, 0)). In solitaire that turn is simply wasted and never chosen.

Positions are interchangeable under the uniform deal (any permutation of the places maps
layouts to layouts), so a memo key is the sorted observation tuple; everything else works
on places and layouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations

UNSEEN = -1


class Brute:
    """Optimal values of a deck's information states by exhaustive search over layouts."""

    def __init__(self, cards: Sequence[int], players: int = 1) -> None:
        self.cards = tuple(cards)
        self.n = len(self.cards)
        self.duel = players == 2
        self.kinds = sorted(set(self.cards))
        self.nk = len(self.kinds)
        self.layouts = sorted(set(permutations(self.cards)))
        self.mask = [{k: sum(1 << i for i, lay in enumerate(self.layouts) if lay[p] == k)
                      for k in self.kinds} for p in range(self.n)]
        self.everything = (1 << len(self.layouts)) - 1
        self.memo: dict[tuple[int, ...], Fraction] = {}

    def belief(self, obs: Sequence[int]) -> int:
        """The layouts consistent with the observations (taken cards were seen too)."""
        b = self.everything
        for p, o in enumerate(obs):
            if o != UNSEEN:
                b &= self.mask[p][o % self.nk]
        return b

    def start(self) -> tuple[int, ...]:
        """Nothing seen."""
        return (UNSEEN,) * self.n

    def value(self, obs: Sequence[int]) -> Fraction:
        """The optimal value of an information state (obs[p]: UNSEEN, k seen, nk + k taken)."""
        key = tuple(sorted(obs))
        got = self.memo.get(key)
        if got is not None:
            return got
        if all(o >= self.nk for o in key):
            self.memo[key] = Fraction(0)
            return Fraction(0)
        best: Fraction | None = None
        can_pass = False
        for _, turn, passes in self.turns(key):
            can_pass = can_pass or passes
            if turn is not None and (best is None or self.better(turn, best)):
                best = turn
        if self.duel and can_pass:
            best = max(best, Fraction(0)) if best is not None else Fraction(0)
        assert best is not None
        self.memo[key] = best
        return best

    def better(self, a: Fraction, b: Fraction) -> bool:
        """a is better for the mover than b."""
        return a > b if self.duel else a < b

    def turns(self, obs: tuple[int, ...]) -> list[tuple[int, Fraction | None, bool]]:
        """For every first place: the value of the best turn starting there (None if every
        second card would be a pass), and whether some second card is a pass."""
        belief = self.belief(obs)
        total = belief.bit_count()
        down = [p for p in range(self.n) if obs[p] < self.nk]
        out: list[tuple[int, Fraction | None, bool]] = []
        for p in down:
            value: Fraction | None = Fraction(0)
            passes = False
            for k1 in self.kinds:
                b1 = belief & self.mask[p][k1]
                if not b1:
                    continue
                inner: Fraction | None = None
                for q in down:
                    if q == p:
                        continue
                    v = self.second(obs, belief, b1, p, k1, q)
                    if v is None:
                        passes = True
                        continue
                    if inner is None or self.better(v, inner):
                        inner = v
                if inner is None or value is None:
                    value = None
                    continue
                value += Fraction(b1.bit_count(), total) * inner
            out.append((p, value, passes))
        return out

    def second(self, obs: tuple[int, ...], belief: int, b1: int, p: int, k1: int,
               q: int) -> Fraction | None:
        """The value of flipping q after p showed k1 (None: a pass, nothing changes)."""
        n1 = b1.bit_count()
        v = Fraction(0)
        for k2 in self.kinds:
            b2 = b1 & self.mask[q][k2]
            if not b2:
                continue
            nxt = list(obs)
            w = Fraction(b2.bit_count(), n1)
            if k1 == k2:
                nxt[p] = nxt[q] = self.nk + k1
                v += w * (1 + self.value(nxt))
            else:
                if b2 == belief:
                    return None
                nxt[p], nxt[q] = k1, k2
                v += w * (-self.value(nxt) if self.duel else 1 + self.value(nxt))
        return v

    def place_value(self, obs: tuple[int, ...], p: int, q: int) -> Fraction:
        """The value of one explicit turn: flip p, then q whatever p shows."""
        belief = self.belief(obs)
        total = belief.bit_count()
        v = Fraction(0)
        for k1 in self.kinds:
            b1 = belief & self.mask[p][k1]
            if b1:
                got = self.second(obs, belief, b1, p, k1, q)
                assert got is not None
                v += Fraction(b1.bit_count(), total) * got
        return v


def deck_cards(counts: Sequence[int]) -> tuple[int, ...]:
    """Cards of a deck with these kind counts (kind i repeated counts[i] times)."""
    return tuple(i for i, c in enumerate(counts) for _ in range(c))
