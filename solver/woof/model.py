"""What every Woof!! engine shares: the compiled evidence, the evidence semantics, the result.

The evidence model (RULES.md section 2): deals are uniform over physical deals (identical
pictures are still distinct cards); a `look` weighs a deal by the fraction of the target's two
cards whose announcement from that viewer (W4) matches; a `saw` by the fraction of the target's
cards equal to the card seen (and, with an announcement, the viewer's character must produce
it); `hand` and `ask` hold exactly. Engines differ only in how they sum over deals; they all
return a `Posterior`: the exact distribution of the vector of seat characters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial, prod

from fleece.rules.errors import FleeceError
from fleece.rules.woof.cards import (
    CHARACTERS,
    Card,
    Character,
    Hand,
    announcement,
    character_of,
    make_hand,
)
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.solver.core import minimal_core


class ContradictionError(FleeceError):
    """The evidence is impossible under the model (a result, not bad input)."""


@dataclass(frozen=True)
class HandType:
    """A possible hand as card kinds: indices into `CompiledEvidence.kinds` (i <= j)."""

    index: int
    kinds: tuple[int, int]
    hand: Hand
    character: Character

    @property
    def pair(self) -> bool:
        """Two identical cards (counts once as a multiset, weight 1/2! in deal counting)."""
        return self.kinds[0] == self.kinds[1]


@dataclass(frozen=True)
class CompiledEvidence:
    """Evidence compiled for the engines: seats, distinct card kinds and their copies."""

    evidence: Evidence
    seats: tuple[int, ...]
    kinds: tuple[Card, ...]
    counts: tuple[int, ...]
    hand_types: tuple[HandType, ...]

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The evidence lines (hand, look, saw, ask)."""
        return self.evidence.facts

    @property
    def leftover(self) -> int:
        """Cards of the deck that are not dealt."""
        return sum(self.counts) - 2 * len(self.seats)


def compile_evidence(evidence: Evidence) -> CompiledEvidence:
    """Distinct card kinds of the deck and every hand type the deck allows."""
    counts = Counter(evidence.deck)
    kinds = tuple(sorted(counts, key=Card.sort_key))
    types: list[HandType] = []
    for i, a in enumerate(kinds):
        for j in range(i, len(kinds)):
            if i == j and counts[a] < 2:
                continue
            hand = make_hand(a, kinds[j])
            types.append(HandType(len(types), (i, j), hand, character_of(hand)))
    return CompiledEvidence(evidence, tuple(evidence.table.seat_numbers), kinds,
                   tuple(counts[k] for k in kinds), tuple(types))


# ---- semantics of one fact -------------------------------------------------------------------


def look_weight(viewer: Character, hand: Hand, fact: LookFact) -> int:
    """How many of the target's 2 cards give the announcement (likelihood = this / 2)."""
    return sum(1 for card in hand if announcement(card, viewer) == fact.announced)


def saw_weight(hand: Hand, fact: SawFact) -> int:
    """How many of the target's 2 cards are the card seen (likelihood = this / 2)."""
    return sum(1 for card in hand if card == fact.card)


def saw_viewer_ok(viewer: Character, fact: SawFact) -> bool:
    """With an announcement given, the viewer's character must produce it from the card."""
    return not fact.announced_given or announcement(fact.card, viewer) == fact.announced


def ask_ok(hand: Hand, fact: AskFact) -> bool:
    """The answer is the truthful one (W5)."""
    return fact.question.answer(hand) == fact.answer


def hand_ok(hand: Hand, fact: HandFact) -> bool:
    """The seat holds exactly the stated cards."""
    return hand == fact.cards


def likelihood(facts: Iterable[Fact], hands: Mapping[int, Hand]) -> Fraction:
    """The evidence likelihood of one full assignment of hands to seats."""
    result = Fraction(1)
    for f in facts:
        if isinstance(f, HandFact):
            ok = hand_ok(hands[f.seat], f)
        elif isinstance(f, AskFact):
            ok = ask_ok(hands[f.target], f)
        elif isinstance(f, LookFact):
            result *= Fraction(look_weight(character_of(hands[f.viewer]), hands[f.target], f), 2)
            ok = True
        else:
            result *= Fraction(saw_weight(hands[f.target], f), 2)
            ok = saw_viewer_ok(character_of(hands[f.viewer]), f)
        if not ok or not result:
            return Fraction(0)
    return result


def deal_count(problem: CompiledEvidence, hands: Mapping[int, Hand]) -> int:
    """Number of physical deals (distinct cards, unordered within a seat) giving `hands`."""
    used: Counter[Card] = Counter()
    denominator = 1
    for hand in hands.values():
        used.update(hand)
        if hand[0] == hand[1]:
            denominator *= 2
    total = 1
    for kind, n in zip(problem.kinds, problem.counts, strict=True):
        r = n - used[kind]
        if r < 0:
            return 0
        total *= factorial(n) // factorial(r)
    return total // denominator


def total_deals(problem: CompiledEvidence) -> int:
    """Number of physical deals of the deck to the seats (leftover cards unordered)."""
    d, n = sum(problem.counts), len(problem.seats)
    denominator: int = 2**n * factorial(d - 2 * n)
    return factorial(d) // denominator


# ---- the common result -----------------------------------------------------------------------

CharVector = tuple[Character, ...]


@dataclass(frozen=True)
class Posterior:
    """Exact distribution of the seats' characters given the evidence.

    `vectors`: character vector (seat order) -> probability, only positive entries, sums to 1.
    `evidence_probability`: the probability of the evidence under the model (0 = contradiction).
    """

    seats: tuple[int, ...]
    vectors: Mapping[CharVector, Fraction]
    evidence_probability: Fraction

    @staticmethod
    def from_weights(seats: Sequence[int], weights: Mapping[CharVector, int | Fraction],
                     evidence_probability: Fraction) -> Posterior:
        """Normalise positive weights into a posterior."""
        total = sum(weights.values(), Fraction(0))
        if not total:
            return Posterior(tuple(seats), {}, Fraction(0))
        return Posterior(tuple(seats),
                         {v: Fraction(w) / total for v, w in weights.items() if w},
                         evidence_probability)

    @property
    def consistent(self) -> bool:
        """False when the evidence is impossible."""
        return bool(self.vectors)

    def marginals(self) -> dict[int, dict[Character, Fraction]]:
        """Every seat's probability of each character."""
        out = {s: dict.fromkeys(CHARACTERS, Fraction(0)) for s in self.seats}
        for vec, p in self.vectors.items():
            for s, c in zip(self.seats, vec, strict=True):
                out[s][c] += p
        return out

    def probability(self, event: Mapping[int, Character | None]) -> Fraction:
        """P(every listed seat has the given character); None as a key's value is not used."""
        idx = {s: i for i, s in enumerate(self.seats)}
        return sum((p for vec, p in self.vectors.items()
                    if all(vec[idx[s]] is c for s, c in event.items())), Fraction(0))

    def wolf_sets(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """Distribution of the exact set of Wolf seats, most likely first."""
        dist: dict[tuple[int, ...], Fraction] = {}
        for vec, p in self.vectors.items():
            key = tuple(s for s, c in zip(self.seats, vec, strict=True) if c is Character.WOLF)
            dist[key] = dist.get(key, Fraction(0)) + p
        return sorted(dist.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))

    def certain(self) -> dict[int, Character]:
        """Seats whose character is the same in every possible deal."""
        out: dict[int, Character] = {}
        for s, dist in self.marginals().items():
            sure = [c for c, p in dist.items() if p == 1]
            if sure:
                out[s] = sure[0]
        return out


def posterior_from_assignments(problem: CompiledEvidence, assignments: Iterable[Mapping[int, Hand]]
                               ) -> Posterior:
    """Weigh enumerated hand assignments (the csp and smt engines' models) by their physical-deal
    count and evidence likelihood, and sum them into the exact posterior."""
    weights: dict[CharVector, Fraction] = {}
    for hands in assignments:
        w = deal_count(problem, hands) * likelihood(problem.facts, hands)
        if w:
            vec = tuple(character_of(hands[s]) for s in problem.seats)
            weights[vec] = weights.get(vec, Fraction(0)) + w
    total = sum(weights.values(), Fraction(0))
    return Posterior.from_weights(problem.seats, weights, total / total_deals(problem))


def deck_factor(problem: CompiledEvidence) -> int:
    """prod n_k! over card kinds (used to turn scaled weights into deal counts)."""
    return prod(factorial(n) for n in problem.counts)


def deletion_core(evidence: Evidence, consistent: Callable[[Evidence], bool]) -> list[Fact]:
    """A minimal set of contradicting evidence lines (solver.core.minimal_core: removing any
    one of them makes the rest consistent); earlier lines are dropped first when there is a
    choice."""
    return minimal_core(list(evidence.facts), lambda fs: consistent(evidence.with_facts(fs)))
