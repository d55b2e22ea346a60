"""What every Woof!! engine shares: the compiled evidence, the evidence semantics, the result.

The evidence model (docs/rules.md section 2): deals are uniform over physical deals (identical
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
from itertools import product
from math import factorial, lcm
from typing import Protocol

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

def compile_evidence(evidence: Evidence) -> CompiledEvidence:
    """Distinct card kinds of the deck and every hand type the deck allows."""
    counts = Counter(evidence.deck)
    kinds = tuple(sorted(counts, key=Card.sort_key))
    return CompiledEvidence(evidence, tuple(evidence.table.seat_numbers), kinds,
                            tuple(counts[k] for k in kinds),
                            hand_types(kinds, [counts[k] for k in kinds]))


def hand_types(kinds: Sequence[Card], counts: Sequence[int]) -> tuple[HandType, ...]:
    """Every hand of two cards of these kinds that the counts allow (a pair needs two)."""
    types: list[HandType] = []
    for i, a in enumerate(kinds):
        for j in range(i, len(kinds)):
            if i == j and counts[i] < 2:
                continue
            hand = make_hand(a, kinds[j])
            types.append(HandType(len(types), (i, j), hand, character_of(hand)))
    return tuple(types)


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


class JointSource(Protocol):
    """Where a posterior's numbers come from: integer weights of the character vectors (up to
    one common factor), summed as each question needs them. `total` is the sum of all
    weights (0: the evidence is impossible)."""

    total: int

    def marginal_weights(self) -> dict[int, dict[Character, int]]:
        """Seat -> character -> summed weight."""
        ...

    def class_weights(self, classes: Mapping[Character, int]) -> dict[tuple[int, ...], int]:
        """The weights summed by the vector of classes (`classes` maps each character to a
        small number; one entry per seat, in seat order)."""
        ...


class VectorWeights:
    """A JointSource from listed character vectors (the csp and smt engines, brute force)."""

    def __init__(self, seats: Sequence[int], weights: Mapping[CharVector, int | Fraction]
                 ) -> None:
        self.seats = tuple(seats)
        scale = 1
        for w in weights.values():
            if isinstance(w, Fraction):
                scale = lcm(scale, w.denominator)
        self.weights = {v: int(w * scale) for v, w in weights.items() if w}
        self.total = sum(self.weights.values())

    def marginal_weights(self) -> dict[int, dict[Character, int]]:
        """Seat -> character -> summed weight."""
        out = {s: dict.fromkeys(CHARACTERS, 0) for s in self.seats}
        for vec, w in self.weights.items():
            for s, c in zip(self.seats, vec, strict=True):
                out[s][c] += w
        return out

    def class_weights(self, classes: Mapping[Character, int]) -> dict[tuple[int, ...], int]:
        """The weights summed by class vector."""
        out: dict[tuple[int, ...], int] = {}
        for vec, w in self.weights.items():
            key = tuple(classes[c] for c in vec)
            out[key] = out.get(key, 0) + w
        return out


class Posterior:
    """Exact distribution of the seats' characters given the evidence.

    `vectors`: character vector (seat order) -> probability, only positive entries, sums to 1
    (built on first use: the fast engine answers the other questions without listing them).
    `evidence_probability`: the probability of the evidence under the model (0 = contradiction).
    Marginals, wolf sets and suspicion scores are summed in integers and divided once.
    """

    def __init__(self, seats: Sequence[int],
                 vectors: Mapping[CharVector, Fraction | int] | None = None,
                 evidence_probability: Fraction = Fraction(0), *,
                 source: JointSource | None = None) -> None:
        self.seats = tuple(seats)
        self.evidence_probability = evidence_probability
        self.source: JointSource = (source if source is not None
                                    else VectorWeights(self.seats, vectors or {}))
        self._vectors: dict[CharVector, Fraction] | None = None
        self._marginals: dict[int, dict[Character, Fraction]] | None = None
        self._wolf_sets: list[tuple[tuple[int, ...], Fraction]] | None = None

    @staticmethod
    def from_weights(seats: Sequence[int], weights: Mapping[CharVector, int | Fraction],
                     evidence_probability: Fraction) -> Posterior:
        """Normalise positive weights into a posterior."""
        source = VectorWeights(seats, weights)
        if not source.total:
            return Posterior(seats, {}, Fraction(0))
        return Posterior(seats, None, evidence_probability, source=source)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Posterior):
            return NotImplemented
        return (self.seats == other.seats
                and self.evidence_probability == other.evidence_probability
                and self.vectors == other.vectors)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Posterior(seats={self.seats}, evidence_probability="
                f"{self.evidence_probability}, total={self.source.total})")

    @property
    def consistent(self) -> bool:
        """False when the evidence is impossible."""
        return self.source.total > 0

    @property
    def vectors(self) -> Mapping[CharVector, Fraction]:
        """Character vector -> probability (positive entries only)."""
        if self._vectors is None:
            total = self.source.total
            index = {c: i for i, c in enumerate(CHARACTERS)}
            self._vectors = {} if not total else {
                tuple(CHARACTERS[i] for i in key): Fraction(w, total)
                for key, w in self.source.class_weights(index).items() if w}
        return self._vectors

    def marginals(self) -> dict[int, dict[Character, Fraction]]:
        """Every seat's probability of each character."""
        if self._marginals is None:
            total = self.source.total
            weights = self.source.marginal_weights() if total else {}
            self._marginals = {
                s: {c: Fraction(weights.get(s, {}).get(c, 0), total) if total else Fraction(0)
                    for c in CHARACTERS}
                for s in self.seats}
        return {s: dict(d) for s, d in self._marginals.items()}

    def probability(self, event: Mapping[int, Character | None]) -> Fraction:
        """P(every listed seat has the given character); None as a key's value is not used."""
        idx = {s: i for i, s in enumerate(self.seats)}
        return sum((p for vec, p in self.vectors.items()
                    if all(vec[idx[s]] is c for s, c in event.items())), Fraction(0))

    def wolf_sets(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """Distribution of the exact set of Wolf seats, most likely first."""
        if self._wolf_sets is None:
            total = self.source.total
            classes = {c: int(c is Character.WOLF) for c in CHARACTERS}
            dist = {tuple(s for s, x in zip(self.seats, key, strict=True) if x): Fraction(w, total)
                    for key, w in (self.source.class_weights(classes) if total else {}).items()
                    if w}
            self._wolf_sets = sorted(dist.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))
        return list(self._wolf_sets)

    def certain(self) -> dict[int, Character]:
        """Seats whose character is the same in every possible deal."""
        out: dict[int, Character] = {}
        for s, dist in self.marginals().items():
            sure = [c for c, p in dist.items() if p == 1]
            if sure:
                out[s] = sure[0]
        return out

    def suspicion_scores(self, seat: int, targets: Sequence[Character]
                         ) -> dict[tuple[int, ...], Fraction]:
        """For every suspicion of `seat` (one other seat, or 0 for "nobody has it", per target
        character), the probability that it is entirely right (W8): each named seat has its
        target and no seat other than `seat` has a target named 0."""
        total = self.source.total
        if not total:
            return {}
        classes = {c: targets.index(c) + 1 if c in targets else 0 for c in CHARACTERS}
        wanted = [classes[t] for t in targets]
        others = [i for i, s in enumerate(self.seats) if s != seat]
        scores: dict[tuple[int, ...], int] = {}
        for key, w in self.source.class_weights(classes).items():
            options: list[list[int]] = []
            for cls in wanted:
                having = [self.seats[i] for i in others if key[i] == cls]
                options.append(having or [0])
            for picks in product(*options):
                scores[picks] = scores.get(picks, 0) + w
        return {picks: Fraction(w, total) for picks, w in scores.items()}


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


def deletion_core(evidence: Evidence, consistent: Callable[[Evidence], bool]) -> list[Fact]:
    """A minimal set of contradicting evidence lines (solver.core.minimal_core: removing any
    one of them makes the rest consistent); earlier lines are dropped first when there is a
    choice."""
    return minimal_core(list(evidence.facts), lambda fs: consistent(evidence.with_facts(fs)))
