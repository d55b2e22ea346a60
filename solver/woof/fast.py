"""The fast exact engine: dynamic programming over seats with physical-deal multiplicities.

Why it is exact and fast: a deal's weight factorises over seats once the deck is tracked. The
number of physical deals giving a hand-type assignment is prod_k n_k! / (prod_{s,k} c_sk! *
prod_k r_k!), so each seat contributes 1/prod_k c_sk! and the undealt rest 1/prod_k r_k!. Looks
couple a target with its viewer only through "is the viewer the Shepherd?" (W4), so the engine
enumerates which look-making viewers are Shepherds (at most as many as there are Shepherd
cards) and, for each choice, every fact becomes a factor of one seat. The state of the DP is the
multiset of cards still in the deck plus the characters given so far; all weights are integers
(likelihoods are halves, scaled by 2), and the result is an exact `Posterior`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from math import factorial, prod

from fleece.rules.woof.cards import CHARACTERS, Character
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.solver.woof.model import (
    CompiledEvidence,
    Posterior,
    ask_ok,
    compile_evidence,
    deck_factor,
    deletion_core,
    hand_ok,
    look_weight,
    saw_viewer_ok,
    saw_weight,
)

_CHAR_INDEX = {c: i for i, c in enumerate(CHARACTERS)}
_NOT_SHEPHERD = Character.SHEEP  # any non-Shepherd viewer announces the same (W4)

SeatTable = list[tuple[int, int, Character]]  # (hand type index, integer weight, character)


def _base_tables(problem: CompiledEvidence) -> dict[int, SeatTable]:
    """Per-seat weights of every hand type from the facts that do not depend on a viewer."""
    tables: dict[int, SeatTable] = {}
    for seat in problem.seats:
        rows: SeatTable = []
        for ht in problem.hand_types:
            w = 1 if ht.pair else 2
            for f in problem.facts:
                if isinstance(f, HandFact) and f.seat == seat:
                    w *= hand_ok(ht.hand, f)
                elif isinstance(f, AskFact) and f.target == seat:
                    w *= ask_ok(ht.hand, f)
                elif isinstance(f, SawFact):
                    if f.target == seat:
                        w *= saw_weight(ht.hand, f)
                    if f.viewer == seat:
                        w *= saw_viewer_ok(ht.character, f)
                elif isinstance(f, LookFact) and f.target == seat and f.announced is None:
                    w *= look_weight(_NOT_SHEPHERD, ht.hand, f)
                if not w:
                    break
            if w:
                rows.append((ht.index, w, ht.character))
        tables[seat] = rows
    return tables


def _flag_choices(problem: CompiledEvidence, base: dict[int, SeatTable]
                  ) -> Iterator[frozenset[int]]:
    """Every set of look-making viewers that could be the Shepherds together."""
    viewers = sorted({f.viewer for f in problem.facts
                      if isinstance(f, LookFact) and f.announced is not None})
    maybe = [v for v in viewers if any(c is Character.SHEPHERD for _, _, c in base[v])]
    limit = sum(n for k, n in zip(problem.kinds, problem.counts, strict=True)
                if k.picture is Character.SHEPHERD)
    for size in range(min(limit, len(maybe)) + 1):
        for chosen in combinations(maybe, size):
            yield frozenset(chosen)


def _tables_for(problem: CompiledEvidence, base: dict[int, SeatTable], shepherds: frozenset[int]
                ) -> dict[int, SeatTable]:
    looks = [f for f in problem.facts if isinstance(f, LookFact) and f.announced is not None]
    flagged = {f.viewer for f in looks}
    hands = problem.hand_types
    out: dict[int, SeatTable] = {}
    for seat, rows in base.items():
        mine = [f for f in looks if f.target == seat]
        new: SeatTable = []
        for h, w, ch in rows:
            if seat in flagged and (ch is Character.SHEPHERD) != (seat in shepherds):
                continue
            for f in mine:
                viewer = Character.SHEPHERD if f.viewer in shepherds else _NOT_SHEPHERD
                w *= look_weight(viewer, hands[h].hand, f)
                if not w:
                    break
            if w:
                new.append((h, w, ch))
        out[seat] = new
    return out


class _Deck:
    """Mixed-radix codes for "cards left in the deck", with cached successor lists."""

    def __init__(self, problem: CompiledEvidence) -> None:
        self.counts = problem.counts
        self.mult: list[int] = []
        m = 1
        for n in self.counts:
            self.mult.append(m)
            m *= n + 1
        self.size = m
        self.full = sum(n * k for n, k in zip(self.counts, self.mult, strict=True))
        self.delta = []
        self.need = []
        for ht in problem.hand_types:
            i, j = ht.kinds
            self.delta.append(self.mult[i] + self.mult[j])
            self.need.append((i, j))
        self._avail: dict[int, dict[int, int]] = {}
        self.leftover_total = sum(self.counts) - 2 * len(problem.seats)

    def digits(self, code: int) -> list[int]:
        """Cards left per kind."""
        return [(code // m) % (n + 1) for m, n in zip(self.mult, self.counts, strict=True)]

    def avail(self, code: int) -> dict[int, int]:
        """Hand type -> code after dealing it, for hand types the remaining deck allows."""
        got = self._avail.get(code)
        if got is None:
            d = self.digits(code)
            got = {}
            for h, (i, j) in enumerate(self.need):
                if (d[i] >= 2) if i == j else (d[i] >= 1 and d[j] >= 1):
                    got[h] = code - self.delta[h]
            self._avail[code] = got
        return got

    def leftover_factor(self, code: int) -> int:
        """R!/prod r_k!: the ways the undealt cards can be the undealt ones (scaled)."""
        return factorial(self.leftover_total) // prod(factorial(r) for r in self.digits(code))


def _run(problem: CompiledEvidence, tables: dict[int, SeatTable], deck: _Deck, vectors: bool
         ) -> dict[int, int]:
    """One DP pass; returns character-vector code -> scaled weight (code 0 when not tracked)."""
    seats = problem.seats
    order = sorted(seats, key=lambda s: len(tables[s]))
    pos = {s: i for i, s in enumerate(seats)}
    big = 5 ** len(seats) if vectors else 1
    states: dict[int, int] = {deck.full * big: 1}
    for seat in order:
        rows = tables[seat]
        if not rows:
            return {}
        place = 5 ** pos[seat]
        entries = [(h, w, _CHAR_INDEX[ch] * place if vectors else 0) for h, w, ch in rows]
        new: defaultdict[int, int] = defaultdict(int)
        for key, weight in states.items():
            code, vec = divmod(key, big)
            av = deck.avail(code)
            for h, w, chc in entries:
                nxt = av.get(h)
                if nxt is not None:
                    new[nxt * big + vec + chc] += weight * w
        states = new
        if not states:
            return {}
    out: defaultdict[int, int] = defaultdict(int)
    for key, weight in states.items():
        code, vec = divmod(key, big)
        out[vec] += weight * (deck.leftover_factor(code) if deck.leftover_total else 1)
    return out


def _scale(problem: CompiledEvidence) -> Fraction:
    """Factor turning a scaled DP total into the probability of the evidence."""
    looks = sum(1 for f in problem.facts if isinstance(f, LookFact | SawFact))
    return Fraction(deck_factor(problem), 2**looks * factorial(sum(problem.counts)))


def _weights(problem: CompiledEvidence, vectors: bool) -> dict[int, int]:
    base = _base_tables(problem)
    deck = _Deck(problem)
    total: defaultdict[int, int] = defaultdict(int)
    for shepherds in _flag_choices(problem, base):
        for vec, w in _run(problem, _tables_for(problem, base, shepherds), deck,
                           vectors).items():
            total[vec] += w
    return {v: w for v, w in total.items() if w}


def _decode(code: int, n: int) -> tuple[Character, ...]:
    out = []
    for _ in range(n):
        code, r = divmod(code, 5)
        out.append(CHARACTERS[r])
    return tuple(out)


def solve(evidence: Evidence) -> Posterior:
    """Exact posterior of the seat characters given the evidence."""
    problem = compile_evidence(evidence)
    weights = _weights(problem, vectors=True)
    n = len(problem.seats)
    z = sum(weights.values())
    return Posterior.from_weights(
        problem.seats, {_decode(v, n): w for v, w in weights.items()}, z * _scale(problem)
    )


def consistent(evidence: Evidence) -> bool:
    """Whether some deal has positive weight (cheaper: no character vectors)."""
    return bool(_weights(compile_evidence(evidence), vectors=False))


def evidence_probability(evidence: Evidence) -> Fraction:
    """The probability of the evidence under the model (cheap: no character vectors)."""
    problem = compile_evidence(evidence)
    return sum(_weights(problem, vectors=False).values()) * _scale(problem)


def minimal_core(evidence: Evidence) -> list[Fact]:
    """A minimal set of contradicting facts (every proper subset is consistent)."""
    return deletion_core(evidence, consistent)
