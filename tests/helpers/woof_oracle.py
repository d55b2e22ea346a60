"""The Woof!! posterior by brute force: every physical deal enumerated and weighted by the
evidence's likelihood, an oracle for the solver tests that shares none of the engines' code."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from fleece.rules.woof.cards import Character, Hand, character_of, make_hand
from fleece.rules.woof.evidence import Evidence
from fleece.solver.woof.shared import Posterior, likelihood


def brute_force(ev: Evidence) -> Posterior:
    """Enumerate every physical deal (cards numbered, unordered within a seat)."""
    seats = list(ev.table.seat_numbers)
    cards = list(ev.deck)
    weights: dict[tuple[Character, ...], Fraction] = {}
    cache: dict[tuple[Hand, ...], Fraction] = {}
    deals = 0

    def rec(i: int, left: tuple[int, ...], chosen: list[Hand]) -> None:
        nonlocal deals
        if i == len(seats):
            deals += 1
            key = tuple(chosen)
            w = cache.get(key)
            if w is None:
                w = cache[key] = likelihood(ev.facts, dict(zip(seats, key, strict=True)))
            if w:
                vec = tuple(character_of(h) for h in key)
                weights[vec] = weights.get(vec, Fraction(0)) + w
            return
        for a, b in combinations(left, 2):
            rest = tuple(x for x in left if x not in (a, b))
            rec(i + 1, rest, [*chosen, make_hand(cards[a], cards[b])])

    rec(0, tuple(range(len(cards))), [])
    total = sum(weights.values(), Fraction(0))
    return Posterior.from_weights(seats, weights, total / deals)
