"""Concentration (K4) with perfect memory, solved exactly for any deck of even kinds.

A position is, for every kind still on the table, (r cards left, s of them known) with
0 <= s <= r: a known card is remembered where it lies and stays face down until taken (K4).
Kinds with equal (r, s) are interchangeable whatever their starting count, so a position is a
multiset of (r, s); its text is `r/s` per kind, e.g. `4/2,2/0*3`.

The choices of a turn (K4: two distinct face-down cards, the second chosen after seeing the
first; taking a known pair is a choice, never forced):
- take a known pair (two known cards of a kind): one turn, a pair;
- flip a card never seen first: it is of a kind with u = r - s unseen cards with probability
  u/U (U = cards never seen); then flip (a) a known card of its kind (a pair), (b) another card
  never seen, or (c) a known card of another kind (nothing matched, nothing more learnt);
- flip a known card first, then a card never seen (a pair when it is of the same kind);
- flip two known cards of different kinds (a wasted turn in solitaire; the pass of two
  players).
With four or more cards of a kind a known card is a partner for every later card of its kind,
so keeping known cards on the table, or flipping a card never seen before taking a known pair,
can be better than the natural rule (`NATURAL_RULE`).

Solitaire (Velleman & Warrington on any deck): the least expected number of turns to clear
the table. Two players (Zwick & Paterson's objective on any deck): the mover's expected pairs
minus the opponent's from here on, both maximising it; a match keeps the turn, and when both
pass for ever the game stalls and the pairs taken so far stand (the stalemate is worth 0 from
there). The values are exact Fractions from one compiled pass over every position of the deck
(conc_kernel: positions numbered so that successors come first, values as U! * value in
integer limbs); McCord's deck has 16,753,158 positions.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from fleece.rules.cards.deck import Deck, concentration_deck, escape
from fleece.rules.errors import BudgetExceeded, ParseError, RulesError
from fleece.solver.cards import conc_kernel as ck

Kind = tuple[int, int]  # (cards left, known)
Position = tuple[Kind, ...]  # kinds with cards left, sorted from the largest (r, s)
Progress = Callable[[int], None]

DEFAULT_MAX_STATES = 20_000_000  # McCord's deck has 16,753,158 positions
DEFAULT_MAX_MEMORY = 2 * 1024**3  # bytes for the value and policy tables
CHUNK_SECONDS = 0.25  # compiled work between two deadline checks and progress reports
MAX_RUNS = 28  # distinct (r, s) kinds a position may have (2 bits each in a 64-bit word)
MAX_EXCEPTIONS = 20  # departures from the natural rule listed in a result

NATURAL_RULE = ("Take any known pair (one turn). Otherwise flip a card never seen; if a card "
                "of its kind is known, flip that one and take the pair; if not, flip another "
                "card never seen.")

MATCH, UNSEEN, KNOWN = 0, 1, 2
SECOND_NAMES = {MATCH: "partner", UNSEEN: "unseen", KNOWN: "known-other"}
TOP_NEW, TOP_PASS, TOP_PAIR = 0, 1, 2


# ---- positions ---------------------------------------------------------------------------


def canonical(kinds: Sequence[Kind]) -> Position:
    """A position from per-kind (r, s) in any order (kinds with nothing left dropped); a
    RulesError when a kind is impossible (r odd or negative, s outside 0..r)."""
    out = []
    for r, s in kinds:
        if r < 0 or r % 2 or not 0 <= s <= r:
            raise RulesError(f"a kind has an even number of cards left and 0..that many known, "
                             f"not {r}/{s}")
        if r:
            out.append((r, s))
    return tuple(sorted(out, reverse=True))


def position_text(pos: Position) -> str:
    """`4/2,2/0*3`: each kind's cards left / known, repeated kinds with `*count`."""
    parts = []
    i = 0
    while i < len(pos):
        j = i
        while j < len(pos) and pos[j] == pos[i]:
            j += 1
        r, s = pos[i]
        parts.append(f"{r}/{s}" + (f"*{j - i}" if j - i > 1 else ""))
        i = j
    return ",".join(parts) or "empty"


_KIND = re.compile(r"(\d{1,4})/(\d{1,4})(?:\*(\d{1,4}))?\Z")


def parse_position(text: str) -> Position:
    """Read `position_text`: comma-separated `r/s` (cards left / known), `*n` for n such
    kinds; ParseError with the column of a bad entry."""
    if len(text) > 2000:
        raise ParseError("position text too long (at most 2000 characters)")
    kinds: list[Kind] = []
    col = 1
    for part in text.split(","):
        m = _KIND.match(part.strip())
        if not m:
            raise ParseError(f"expected r/s (cards left/known, e.g. 4/2 or 2/0*3), not "
                             f"{escape(part.strip())}", column=col)
        r, s, times = int(m[1]), int(m[2]), int(m[3] or 1)
        if r % 2 or not 0 <= s <= r or not r or not 1 <= times <= 520:
            raise ParseError(f"{escape(part.strip())}: cards left must be even and at least "
                             "2, known 0..cards left, repeats 1..520", column=col)
        kinds += [(r, s)] * times
        col += len(part) + 1
    if sum(r for r, _ in kinds) > 520:
        raise ParseError("a position holds at most 520 cards")
    return canonical(kinds)


def describe(pos: Position) -> str:
    """A position in words: `2 kinds with 4 left (2 known), 1 with 2 left (none known)`."""
    parts = []
    for text in position_text(pos).split(","):
        if text == "empty":
            return "empty"
        rs, _, times = text.partition("*")
        r, s = rs.split("/")
        known = "none known" if s == "0" else ("all known" if s == r else f"{s} known")
        n = int(times or 1)
        parts.append(f"{n} kind{'s' if n > 1 else ''} with {r} left ({known})")
    return ", ".join(parts)


def unseen(pos: Position) -> int:
    """Cards never seen."""
    return sum(r - s for r, s in pos)


def runs(pos: Position) -> list[Kind]:
    """The distinct kinds of a position in the compiled pass's order (cards left from the
    most, then known from the fewest): the order of a policy word's runs."""
    return sorted(set(pos), key=lambda k: (-k[0], k[1]))


def _swap(pos: Position, old: Kind, new: Kind, old2: Kind | None = None,
          new2: Kind | None = None) -> Position:
    """pos with one kind `old` changed to `new` (and `old2` to `new2`)."""
    out = list(pos)
    out.remove(old)
    out.append(new)
    if old2 is not None and new2 is not None:
        out.remove(old2)
        out.append(new2)
    return tuple(sorted((k for k in out if k[0]), reverse=True))


# ---- the position space ------------------------------------------------------------------


class Space:
    """Every position reachable from a deck, numbered for the compiled pass: codes for (r, s),
    the bound on each kind's code, the ranking table."""

    def __init__(self, counts: Sequence[int]) -> None:
        import numpy as np

        self.counts = tuple(sorted(counts, reverse=True))
        self.kinds = len(self.counts)
        maxr = self.counts[0]
        self.code_rs: list[Kind] = [(0, 0)]
        for r in range(2, maxr + 1, 2):
            self.code_rs += [(r, s) for s in range(r, -1, -1)]
        self.code = {rs: i for i, rs in enumerate(self.code_rs)}
        nc = len(self.code_rs)

        def table(fn: Callable[[int, int], Kind | None]) -> Any:
            out = np.full(nc, -1, np.int64)
            for i, (r, s) in enumerate(self.code_rs):
                if r:
                    new = fn(r, s)
                    if new is not None:
                        out[i] = self.code[new]
            return out

        self.code_s = np.array([s for _, s in self.code_rs], np.int64)
        self.code_u = np.array([r - s for r, s in self.code_rs], np.int64)
        self.inc = table(lambda r, s: (r, s + 1) if s < r else None)
        self.nn = table(lambda r, s: ((r - 2, s) if r > 2 else (0, 0)) if r - s >= 2 else None)
        self.nk = table(lambda r, s: ((r - 2, s - 1) if r > 2 else (0, 0))
                        if s >= 1 and r - s >= 1 else None)
        self.kk = table(lambda r, s: ((r - 2, s - 2) if r > 2 else (0, 0)) if s >= 2 else None)
        self.bound = np.array([self.code[(c, 0)] for c in self.counts], np.int64)
        self.size = self._count()

    def _suffixes(self) -> Iterator[tuple[int, Any]]:
        """(k, T[k]) for k = kinds-1 .. 0, in floats (a deck far too large overflows to inf
        instead of building huge integers); ends with the total in `self._total`."""
        import numpy as np

        suffix = np.ones(len(self.code_rs), np.float64)  # N_{k+1}(v): suffixes after k
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(self.kinds - 1, -1, -1):
                run = np.cumsum(suffix)
                yield k, np.concatenate(([0.0], run[:-1]))  # sum_{y<x} N_{k+1}(y)
                run[self.bound[k] + 1:] = run[self.bound[k]]
                suffix = run
        self._total = float(suffix[self.bound[0]])

    def _count(self) -> int:
        """The number of positions (exact below 2**53; 2**62 stands for more)."""
        for _ in self._suffixes():
            pass
        return int(min(self._total, 2.0**62))

    @cached_property
    def tt(self) -> Any:
        """T[k, x]: the positions whose code sequence is below a sequence with x at k and
        the same codes before k (rank(a) = sum_k T[k, a[k]]); only for decks whose count is
        exact in floats."""
        import numpy as np

        assert self.size < 2**53
        out = np.zeros((self.kinds, len(self.code_rs)), np.int64)
        for k, row in self._suffixes():
            out[k] = np.minimum(row, 2.0**62).astype(np.int64)
        return out

    def sequence(self, pos: Position) -> Any:
        """The non-increasing code sequence of a position (checked against the deck)."""
        import numpy as np

        codes = sorted((self.code.get(k, -1) for k in pos), reverse=True)
        if len(codes) > self.kinds or -1 in codes or any(
                c > b for c, b in zip(codes, self.bound, strict=False)):
            raise RulesError(f"position {position_text(pos)} does not arise from a deck of "
                             f"{'/'.join(map(str, self.counts))} cards per kind")
        return np.array(codes + [0] * (self.kinds - len(codes)), np.int64)

    def rank(self, pos: Position) -> int:
        """A position's number."""
        seq = self.sequence(pos)
        return int(sum(int(self.tt[k, c]) for k, c in enumerate(seq)))

    def position(self, rank: int) -> Position:
        """The position with this number."""
        out: list[Kind] = []
        prev = len(self.code_rs) - 1
        rest = rank
        for k in range(self.kinds):
            cap = min(prev, int(self.bound[k]))
            row = self.tt[k]
            x = 0
            while x < cap and int(row[x + 1]) <= rest:
                x += 1
            rest -= int(row[x])
            prev = x
            if x:
                out.append(self.code_rs[x])
        return tuple(out)


def count_positions(deck: Deck) -> int:
    """How many positions the exact solution of a deck visits (every (r, s) multiset it can
    reach): a deck's cost before solving it."""
    return Space(_counts(deck)).size


def _counts(deck: Deck) -> tuple[int, ...]:
    if not deck.kinds or deck.size == 0:
        raise RulesError("Concentration needs at least one kind of card")
    concentration_deck(deck)
    return tuple(k.count for k in deck.kinds)


# ---- solving -----------------------------------------------------------------------------


def _limbs(cards: int) -> Any:
    """For U = 0..cards: the 32-bit limbs that hold, signed, U! times a bound on every value
    and partial sum of a position with U cards never seen (turns <= U + pairs left <= 1.5 *
    cards; a pair difference <= cards / 2)."""
    import numpy as np

    bound = 3 * cards // 2 + 4
    return np.array([((math.factorial(u) * bound).bit_length() + 2 + 31) // 32
                     for u in range(cards + 1)], np.int64)


def _fact_limbs(n: int, nl: int) -> Any:
    import numpy as np

    out = np.zeros((n + 1, nl), np.int64)
    f = 1
    for u in range(n + 1):
        f = f * u if u else 1
        x = f
        for j in range(nl):
            out[u, j] = x & 0xFFFFFFFF
            x >>= 32
        assert x == 0
    return out


@dataclass
class Table:
    """A solved deck: every position's exact value (U! * value in limbs) and the optimal (or
    natural-rule) choice, with the positions where the natural rule is not optimal."""

    space: Space
    duel: bool
    natural: bool
    vals: Any
    policy: Any
    slots: int
    departures: int
    seconds: float

    def raw(self, rank: int) -> int:
        """U! * value of position `rank` as an integer."""
        row = [int(x) for x in self.vals[rank]]
        v = sum(x << (32 * j) for j, x in enumerate(row))
        if row[-1] >= 1 << 31:
            v -= 1 << (32 * len(row))
        return v

    def value(self, pos: Position | None = None) -> Fraction:
        """The exact value of a position (the deal when None): expected turns (solitaire) or
        the mover's expected pairs minus the opponent's (two players)."""
        p = self.start if pos is None else pos
        return Fraction(self.raw(self.space.rank(p)), math.factorial(unseen(p)))

    @property
    def start(self) -> Position:
        """The deal."""
        return canonical([(c, 0) for c in self.space.counts])

    def choice_word(self, pos: Position) -> int:
        """The stored policy word of a position."""
        return int(self.policy[self.space.rank(pos)])

    def top(self, pos: Position) -> tuple[int, int]:
        """(TOP_NEW | TOP_PASS | TOP_PAIR, run) of the stored choice."""
        word = self.choice_word(pos)
        top = (word >> (2 * self.slots)) & 63
        return (top, -1) if top < TOP_PAIR else (TOP_PAIR, top - TOP_PAIR)

    def second(self, pos: Position, run: int) -> int:
        """The stored second-card choice after a first card of run `run` (runs: the distinct
        kinds of the position from the largest)."""
        return (self.choice_word(pos) >> (2 * run)) & 3

    def natural_optimal(self, pos: Position) -> bool:
        """Whether the natural rule's choice is optimal in this position."""
        return bool((self.choice_word(pos) >> (2 * self.slots + 6)) & 1)


def solve(deck: Deck | Sequence[int], *, players: int = 1, natural: bool = False,
          max_states: int = DEFAULT_MAX_STATES, max_memory: int = DEFAULT_MAX_MEMORY,
          progress: Progress | None = None, timeout: float | None = None) -> Table:
    """Solve every position of a deck (kind counts): solitaire (`players` 1) or two players
    (2); with `natural`, the value of the natural rule instead of the optimum. BudgetExceeded
    beyond `max_states` positions or `max_memory` bytes (checked before any work); Stopped
    after `timeout` seconds or the current deadline (checked between compiled chunks)."""
    import numpy as np

    from fleece.solver.deadline import Deadline, Stopped, current

    counts = _counts(deck) if isinstance(deck, Deck) else tuple(deck)
    if not counts or any(c <= 0 or c % 2 for c in counts):
        raise RulesError("every kind needs an even, positive count")
    if players not in (1, 2):
        raise RulesError("Concentration is solved for 1 or 2 players")
    space = Space(counts)
    n = space.size
    if n > max_states:
        raise BudgetExceeded("positions", max_states, field="max_states",
                       detail=f"{n:,} positions, more than the exact solver's budget of "
                              f"{max_states:,}")
    cards = sum(counts)
    limbs = _limbs(cards)
    nl = int(limbs[-1])
    runs = min(space.kinds, len(space.code_rs) - 1)
    if runs > MAX_RUNS:
        raise BudgetExceeded("different (r, s) kinds in a position", MAX_RUNS,
                       detail=f"positions with up to {runs} different (r, s) kinds: more "
                              f"than the solver's {MAX_RUNS}")
    slots = MAX_RUNS
    need = n * (4 * nl + 8)
    if need > max_memory:
        raise BudgetExceeded("bytes of tables", max_memory, field="max_memory",
                       detail=f"{n:,} positions need {need / 2**20:,.0f} MiB, more than the "
                              f"memory budget of {max_memory / 2**20:,.0f} MiB")
    deadline = current()
    own = Deadline(timeout, "a smaller deck, or a larger time budget") if timeout else None
    vals = np.zeros((n, nl), np.uint32)
    policy = np.zeros(n, np.uint64)
    fact = _fact_limbs(cards, nl)
    seq = np.zeros(space.kinds, np.int64)
    t0 = time.perf_counter()
    done, chunk, departures = 0, 2048, 0
    while done < n:
        hi = min(n, done + chunk)
        c0 = time.perf_counter()
        departures += ck.solve_range(done, hi, seq, space.kinds, space.bound, space.tt,
                                     space.code_s, space.code_u, space.inc, space.nn,
                                     space.nk, space.kk, fact, vals, limbs, policy,
                                     slots, players == 2, natural)
        spent = time.perf_counter() - c0
        done = hi
        chunk = max(256, min(1 << 22, int(chunk * CHUNK_SECONDS / max(spent, 1e-4))))
        if progress is not None:
            progress(done)
        if own is not None and own.expired and done < n:
            raise Stopped(own.message())
        if done < n:
            deadline.check()
    return Table(space, players == 2, natural, vals, policy, slots, departures,
                 time.perf_counter() - t0)


@dataclass(frozen=True)
class Reach:
    """Optimal play from the deal: positions reached, those where the natural rule is not
    optimal, the chance of meeting one, of a stalemate, the most likely departures."""

    positions: int
    departures: int
    p_departure: float
    p_stalemate: float
    likely: tuple[tuple[Position, float], ...]


def reach(table: Table, limit: int = MAX_EXCEPTIONS) -> Reach:
    """The forward pass under the table's policy (ties to the natural rule): which positions
    are reached from the deal, and how often the natural rule's choice is not optimal on the
    way (float probabilities: a summary, not an exact value)."""
    import numpy as np

    from fleece.solver.deadline import current

    sp = table.space
    n = sp.size
    p_all = np.zeros(n, np.float64)
    p_clean = np.zeros(n, np.float32)  # a summary: float32 is precise enough
    p_all[n - 1] = p_clean[n - 1] = 1.0
    seq = sp.sequence(table.start)
    out = np.zeros(4, np.float64)
    hi = n
    chunk = 1 << 18
    deadline = current()
    while hi > 0:
        lo = max(0, hi - chunk)
        ck.propagate_range(hi, lo, seq, sp.kinds, sp.bound, sp.tt, sp.code_u, sp.inc, sp.nn,
                           sp.nk, sp.kk, table.policy, table.slots, p_all, p_clean, out)
        hi = lo
        if hi:
            deadline.check()
    flag = 1 << (2 * table.slots + 6)
    bad = np.nonzero((p_all > 0) & ((table.policy & flag) == 0))[0]
    order = bad[np.argsort(-p_all[bad], kind="stable")][:limit]
    likely = tuple((sp.position(int(r)), float(p_all[r])) for r in order)
    return Reach(int(out[0]), int(out[1]), float(out[2]), float(out[3]), likely)


# ---- one position: every choice's value ----------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One outcome of a turn: its probability, the next position, whether the turn matched."""

    probability: Fraction
    position: Position
    matched: bool


def second_outcomes(pos: Position, first: Kind, second: str) -> list[Outcome] | None:
    """After a first card never seen of a kind `first`: the outcomes of the second card
    (`partner`, `unseen`, `known-other`), None when that second card does not exist."""
    r, s = first
    u_all = unseen(pos)
    if second == "partner":
        if s < 1:
            return None
        return [Outcome(Fraction(1), _swap(pos, first, (r - 2, s - 1)), True)]
    if second == "known-other":
        others = sum(1 for k in pos if k[1] >= 1) - (1 if s >= 1 else 0)
        if others < 1:
            return None
        return [Outcome(Fraction(1), _swap(pos, first, (r, s + 1)), False)]
    if u_all < 2:
        return None
    out = []
    if r - s >= 2:
        out.append(Outcome(Fraction(r - s - 1, u_all - 1), _swap(pos, first, (r - 2, s)),
                           True))
    return out + _other_kinds(pos, first, (r, s + 1), u_all - 1)


def known_first_outcomes(pos: Position, kind: Kind) -> list[Outcome]:
    """A known card of `kind` first, then a card never seen."""
    r, s = kind
    u_all = unseen(pos)
    out = []
    if r - s:
        out.append(Outcome(Fraction(r - s, u_all), _swap(pos, kind, (r - 2, s - 1)), True))
    return out + _other_kinds(pos, kind, kind, u_all)


def _other_kinds(pos: Position, held: Kind, held_after: Kind, cards: int) -> list[Outcome]:
    """The second card, never seen, of another kind than the first card's (`held`, which
    becomes `held_after`): one outcome per kind, out of `cards` cards it may be."""
    rest = list(pos)
    rest.remove(held)
    out = []
    for k2 in sorted(set(rest), reverse=True):
        r2, s2 = k2
        w = rest.count(k2) * (r2 - s2)
        if w:
            out.append(Outcome(Fraction(w, cards),
                               _swap(pos, held, held_after, k2, (r2, s2 + 1)), False))
    return out


@dataclass(frozen=True)
class SecondChoice:
    """After a first card of a kind: one second card and the value it leads to."""

    second: str
    value: Fraction
    best: bool


@dataclass(frozen=True)
class FirstCard:
    """A first card never seen of a kind: its probability and the second cards' values."""

    kind: Kind
    probability: Fraction
    seconds: tuple[SecondChoice, ...]
    best: str
    natural: str


@dataclass(frozen=True)
class TurnChoice:
    """A choice at the start of a turn: `take-pair` (of `kind`), `unseen-first` (with the
    best second card per first card), `known-first` (of `kind`) or `pass`; its value, whether
    it is optimal, whether it is the natural rule's."""

    choice: str
    kind: Kind | None
    value: Fraction
    optimal: bool
    natural: bool
    after: tuple[FirstCard, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The choice with fraction strings."""
        out: dict[str, object] = {"choice": self.choice, "value": str(self.value),
                                  "value_float": round(float(self.value), 9),
                                  "optimal": self.optimal, "natural": self.natural}
        if self.kind is not None:
            out["kind"] = f"{self.kind[0]}/{self.kind[1]}"
        if self.after:
            out["after"] = [{"first_kind": f"{f.kind[0]}/{f.kind[1]}",
                             "probability": str(f.probability), "best": f.best,
                             "natural": f.natural,
                             "seconds": [{"second": c.second, "value": str(c.value),
                                          "value_float": round(float(c.value), 9),
                                          "best": c.best} for c in f.seconds]}
                            for f in self.after]
        return out


@dataclass(frozen=True)
class PolicyResult:
    """Every choice at a position with its exact value, the best one and the natural rule's
    (solitaire: expected turns to clear the table, lower is better; two players: the
    mover's expected pairs minus the opponent's, higher is better). `natural_value`: the
    natural rule's choice here (its second cards too), optimal play afterwards."""

    position: Position
    players: int
    value: Fraction
    choices: tuple[TurnChoice, ...]
    best: str
    natural: str
    natural_optimal: bool
    natural_value: Fraction

    def to_json(self) -> dict[str, object]:
        """`{"position": "4/2,2/0", "value": "7/2", "best": "unseen-first", ...}`."""
        return {
            "position": position_text(self.position), "players": self.players,
            "unseen": unseen(self.position),
            "objective": ("expected turns to clear the table (lower is better)"
                          if self.players == 1 else "the mover's expected pairs minus the "
                          "opponent's (higher is better)"),
            "value": str(self.value), "value_float": round(float(self.value), 9),
            "best": self.best, "natural": self.natural,
            "natural_optimal": self.natural_optimal,
            "natural_value": str(self.natural_value),
            "choices": [c.to_json() for c in self.choices],
        }


def _label(c: TurnChoice) -> str:
    return c.choice + (f" {c.kind[0]}/{c.kind[1]}" if c.kind is not None else "")


def choices(table: Table, pos: Position) -> PolicyResult:
    """Every choice K4 allows at a position of the table's deck, valued exactly from the
    table (a turn's outcomes enumerated here in Python, independently of the compiled
    pass, whose stored value must equal the best choice's)."""
    if not pos:
        raise RulesError("the table is empty: no choice to make")
    duel = table.duel
    u_all = unseen(pos)

    def after(outs: list[Outcome]) -> Fraction:
        """Value of a turn's outcomes for the mover (including this turn)."""
        v = Fraction(0)
        for o in outs:
            nxt = table.value(o.position)
            if duel:
                v += o.probability * ((1 + nxt) if o.matched else -nxt)
            else:
                v += o.probability * (1 + nxt)
        return v

    def better(a: Fraction, b: Fraction) -> bool:
        return a > b if duel else a < b

    found: list[TurnChoice] = []
    natural_total = Fraction(0)
    kinds = sorted(set(pos), reverse=True)
    has_pair = any(s >= 2 for _, s in kinds)
    for k in kinds:
        if k[1] >= 2:
            nxt = table.value(_swap(pos, k, (k[0] - 2, k[1] - 2)))
            found.append(TurnChoice("take-pair", k, 1 + nxt, False, True))
    if u_all:
        firsts = []
        total = Fraction(0)
        for k in kinds:
            r, s = k
            if r == s:
                continue
            p = Fraction(pos.count(k) * (r - s), u_all)
            options = []
            for name in ("partner", "unseen", "known-other"):
                outs = second_outcomes(pos, k, name)
                if outs is not None:
                    options.append((name, after(outs)))
            best_v = options[0][1]
            for _, v in options:
                if better(v, best_v):
                    best_v = v
            best_name = next(name for name, v in options if v == best_v)
            natural = "partner" if s >= 1 else ("unseen" if u_all >= 2 else "known-other")
            total += p * best_v
            natural_total += p * dict(options)[natural]
            firsts.append(FirstCard(k, p, tuple(SecondChoice(name, v, v == best_v)
                                                for name, v in options), best_name, natural))
        found.append(TurnChoice("unseen-first", None, total, False, not has_pair,
                                tuple(firsts)))
        for k in kinds:
            if k[1] >= 1:
                found.append(TurnChoice("known-first", k, after(known_first_outcomes(pos, k)),
                                        False, False))
    known_kinds = sum(1 for k in pos if k[1] >= 1)
    if known_kinds >= 2:
        here = table.value(pos)
        found.append(TurnChoice("pass", None, -here if duel else 1 + here, False, False))
    best_v = found[0].value
    for c in found:
        if better(c.value, best_v):
            best_v = c.value
    if duel and known_kinds >= 2 and best_v < 0:
        best_v = Fraction(0)
    marked = tuple(TurnChoice(c.choice, c.kind, c.value, c.value == best_v, c.natural,
                              c.after) for c in found)
    if has_pair:  # the natural rule takes a known pair (any: each is the rule's choice)
        natural_choice = next((c for c in marked if c.natural and c.optimal),
                              next(c for c in marked if c.natural))
        natural_value = natural_choice.value
    else:  # a card never seen, then its partner if known, else another card never seen
        natural_choice = next(c for c in marked if c.natural)
        natural_value = natural_total
    natural_ok = natural_value == best_v
    best = natural_choice if natural_ok else next(c for c in marked if c.optimal)
    return PolicyResult(pos, 2 if duel else 1, best_v, marked, _label(best),
                        _label(natural_choice), natural_ok, natural_value)


def policy(position: Position | str, *, players: int = 1,
           max_states: int = DEFAULT_MAX_STATES, progress: Progress | None = None,
           timeout: float | None = None) -> PolicyResult:
    """The optimal choice at a position (per-kind (r, s), or its text `4/2,2/0`) and every
    choice's exact value: solves the positions that can follow it."""
    pos = parse_position(position) if isinstance(position, str) else canonical(position)
    if not pos:
        raise RulesError("the table is empty: no choice to make")
    table = solve([r for r, _ in pos], players=players, max_states=max_states,
                  progress=progress, timeout=timeout)
    return choices(table, pos)


def _rule_words(table: Table, pos: Position) -> str:
    """The optimal choice at a position in words."""
    res = choices(table, pos)
    best = next(c for c in res.choices if _label(c) == res.best)
    if best.choice == "take-pair":
        assert best.kind is not None
        return f"take the known pair of a kind with {best.kind[0]} left"
    if best.choice == "pass":
        return "pass (flip two known cards of different kinds)"
    if best.choice == "known-first":
        assert best.kind is not None
        return (f"flip a known card of a kind with {best.kind[0]} left, then a card never "
                "seen")
    words = []
    for f in best.after:
        if f.best != f.natural:
            what = {"partner": "its known partner", "unseen": "another card never seen",
                    "known-other": "a known card of another kind (no risk, no match)"}[f.best]
            words.append(f"after a new card of a kind with {f.kind[0]} left and {f.kind[1]} "
                         f"known, flip {what}")
    lead = "flip a card never seen first" + (" (not a known pair)" if any(
        c.choice == "take-pair" for c in res.choices) else "")
    return lead + ("; " + "; ".join(words) if words else "")


# ---- solitaire ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SolitaireResult:
    """The exact solitaire value of a deck, the natural rule's, and where optimal play
    departs from the natural rule."""

    deck: Deck
    expected_turns: Fraction
    positions: int
    reachable: int
    rule: str
    exceptions: tuple[str, ...]
    exception_count: int
    natural_turns: Fraction | None = None
    p_departure: float = 0.0
    departures_anywhere: int = 0
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, object]:
        """`{"expected_turns": "13/3", ...}`."""
        pairs = self.deck.size // 2
        out: dict[str, object] = {
            "deck": self.deck.spec(), "cards": self.deck.size, "pairs": pairs,
            "expected_turns": str(self.expected_turns),
            "expected_turns_float": round(float(self.expected_turns), 9),
            "per_pair": round(float(self.expected_turns) / pairs, 9) if pairs else 0.0,
            "positions": self.positions, "reachable_positions": self.reachable,
            "rule": self.rule, "exceptions": list(self.exceptions),
            "exception_count": self.exception_count,
            "p_meet_exception": round(self.p_departure, 9),
            "departures_anywhere": self.departures_anywhere,
        }
        if self.natural_turns is not None:
            out["natural_rule_turns"] = str(self.natural_turns)
            out["natural_rule_turns_float"] = round(float(self.natural_turns), 9)
            out["natural_rule_excess"] = str(self.natural_turns - self.expected_turns)
        return out


NATURAL_EXACT_MAX = 2_000_000  # positions up to which solve_solitaire also values the rule


def solve_solitaire(deck: Deck, *, max_states: int = DEFAULT_MAX_STATES,
                    progress: Progress | None = None, timeout: float | None = None,
                    natural: bool | None = None) -> SolitaireResult:
    """K4 solitaire with perfect memory: the exact optimal expected number of turns; the
    natural rule (`NATURAL_RULE`) and the positions reached under optimal play where it is
    not optimal (ties resolved towards the natural rule); the natural rule's own exact value
    (a second pass: by default for decks up to NATURAL_EXACT_MAX positions)."""
    table = solve(deck, max_states=max_states, progress=progress, timeout=timeout)
    value = table.value()
    seen = reach(table)
    exceptions = tuple(f"at [{describe(p)}] (reached with probability {prob:.3g}): "
                       f"{_rule_words(table, p)}" for p, prob in seen.likely)
    with_natural = table.space.size <= NATURAL_EXACT_MAX if natural is None else natural
    nat_value = None
    if with_natural:
        nat_value = value if not table.departures else solve(
            deck, natural=True, max_states=max_states, timeout=timeout).value()
    if not seen.departures:
        rule = NATURAL_RULE + " This is optimal in every position reached."
    else:
        rule = (NATURAL_RULE + f" Optimal play departs from it in {seen.departures:,} "
                f"reachable position{'s' if seen.departures > 1 else ''} (met with "
                f"probability {seen.p_departure:.4g})"
                + (f"; the natural rule takes {float(nat_value - value):.6g} more turns on "
                   "average" if nat_value is not None else "") + ". The most likely:")
    return SolitaireResult(deck, value, table.space.size, seen.positions, rule, exceptions,
                           seen.departures, nat_value, seen.p_departure, table.departures,
                           table.seconds)


def pairs_values(n: int) -> list[Fraction]:
    """E(1), ..., E(n) for decks of 1..n pairs (one pass: the deck of n pairs contains every
    position of j pairs none known)."""
    if not 1 <= n <= 200:
        raise RulesError("pairs_values takes 1..200 pairs")
    table = solve([2] * n)
    return [table.value(((2, 0),) * j) for j in range(1, n + 1)]


def natural_departure(max_cards: int = 12) -> tuple[Deck, SolitaireResult] | None:
    """The smallest deck (fewest cards, then fewest kinds) on which the natural rule is not
    optimal at some position reached under optimal play, searching every deck of even kinds
    up to `max_cards` cards; None if there is none."""
    from fleece.rules.cards.deck import parse_deck

    for cards in range(2, max_cards + 1, 2):
        for parts in sorted(_even_partitions(cards), key=lambda p: (len(p), p)):
            spec = ",".join(f"{chr(97 + i)}*{c}" for i, c in enumerate(parts))
            deck = parse_deck(spec)
            res = solve_solitaire(deck, natural=True)
            if res.exception_count:
                return deck, res
    return None


def _even_partitions(total: int, largest: int | None = None) -> Iterator[tuple[int, ...]]:
    """Partitions of `total` into even parts, largest first."""
    if total == 0:
        yield ()
        return
    top = total if largest is None else min(largest, total)
    for part in range(top - top % 2, 1, -2):
        for rest in _even_partitions(total - part, part):
            yield (part, *rest)


# ---- two players -------------------------------------------------------------------------

PASS, ONE_NEW, TWO_NEW, KNOWN_FIRST = "pass", "one-new", "two-new", "known-first"
MOVE_DIGIT = {PASS: "0", ONE_NEW: "1", TWO_NEW: "2", KNOWN_FIRST: "K"}


class Duel:
    """Two-player Concentration (Zwick & Paterson's game on any deck), solved exactly."""

    def __init__(self, deck: Deck, max_states: int = DEFAULT_MAX_STATES,
                 progress: Progress | None = None, timeout: float | None = None) -> None:
        self.deck = deck
        self.table = solve(deck, players=2, max_states=max_states, progress=progress,
                           timeout=timeout)

    def gain(self, position: Position | None = None) -> Fraction:
        """e: the mover's expected pairs minus the opponent's, both playing optimally."""
        return self.table.value(position)

    def move_class(self, position: Position) -> str:
        """Zwick & Paterson's move class of the optimal choice: pass, one-new (a new card,
        then a known one unless it matched), two-new, a known pair (take-pair), or mixed; a
        position where every new card has a known partner counts as one-new."""
        top, _ = self.table.top(position)
        if top == TOP_PASS:
            return PASS
        if top == TOP_PAIR:
            return "take-pair"
        names = {self.table.second(position, i) for i, (r, s) in enumerate(runs(position))
                 if s == 0 and r > s}
        if not names or names == {KNOWN}:
            return ONE_NEW
        if names == {UNSEEN}:
            return TWO_NEW
        return "mixed"

    def outcomes(self, max_entries: int = 2_000_000) -> dict[str, Fraction]:
        """Under the optimal policy, the exact probabilities that the first player ends with
        more pairs, fewer, as many, or that the game stalls (both pass), by a forward pass
        over (position, who moves, pair difference); BudgetExceeded beyond `max_entries`."""
        return _duel_outcomes(self.table, max_entries)


def _policy_outcomes(table: Table, pos: Position) -> list[Outcome]:
    """The outcomes of the stored choice at a position (empty for the pass)."""
    top, run = table.top(pos)
    if top == TOP_PASS:
        return []
    kinds = runs(pos)
    if top == TOP_PAIR:
        k = kinds[run]
        return [Outcome(Fraction(1), _swap(pos, k, (k[0] - 2, k[1] - 2)), True)]
    u_all = unseen(pos)
    out = []
    for i, k in enumerate(kinds):
        r, s = k
        if r == s:
            continue
        p = Fraction(pos.count(k) * (r - s), u_all)
        second = SECOND_NAMES[table.second(pos, i)]
        outs = second_outcomes(pos, k, second)
        assert outs is not None
        out += [Outcome(p * o.probability, o.position, o.matched) for o in outs]
    return out


def _duel_outcomes(table: Table, max_entries: int) -> dict[str, Fraction]:
    layers: dict[int, dict[tuple[Position, bool], dict[int, Fraction]]] = {}
    start = table.start
    layers[table.space.rank(start)] = {(start, True): {0: Fraction(1)}}
    result = {"first": Fraction(0), "second": Fraction(0), "tie": Fraction(0),
              "stalemate": Fraction(0)}
    entries = 0
    while layers:
        rank = max(layers)
        for (pos, first_moves), dist in layers.pop(rank).items():
            entries += len(dist)
            if entries > max_entries:
                raise BudgetExceeded("(position, score) pairs for the outcome split", max_entries)
            if not pos:
                for d, p in dist.items():
                    result["first" if d > 0 else "second" if d < 0 else "tie"] += p
                continue
            outs = _policy_outcomes(table, pos)
            if not outs:
                for p in dist.values():
                    result["stalemate"] += p
                continue
            sign = 1 if first_moves else -1
            for o in outs:
                nxt_first = first_moves if o.matched else not first_moves
                key = (o.position, nxt_first)
                target = layers.setdefault(table.space.rank(o.position), {}).setdefault(key,
                                                                                        {})
                for d, p in dist.items():
                    nd = d + (sign if o.matched else 0)
                    target[nd] = target.get(nd, Fraction(0)) + p * o.probability
    return result


@dataclass(frozen=True)
class DuelResult:
    """Two-player Concentration on a deck: the first player's expected gain, its chances, the
    optimal move classes by position."""

    deck: Deck
    gain: Fraction
    outcomes: dict[str, Fraction] | None
    positions: int
    table: tuple[tuple[str, str], ...]  # (position, move class) for pairs decks: (n,k) rows

    def to_json(self) -> dict[str, object]:
        """`first_player_gain`, `p_first_wins`, ... as fraction strings."""
        out: dict[str, object] = {
            "deck": self.deck.spec(), "players": 2,
            "first_player_gain": str(self.gain),
            "first_player_gain_float": round(float(self.gain), 9),
            "positions": self.positions,
        }
        if self.outcomes is not None:
            for key, name in (("first", "p_first_wins"), ("second", "p_second_wins"),
                              ("tie", "p_tie"), ("stalemate", "p_stalemate")):
                out[name] = str(self.outcomes[key])
                out[name + "_float"] = round(float(self.outcomes[key]), 9)
        out["move_table"] = {k: v for k, v in self.table}
        return out


def zp_table(duel: Duel, n: int) -> str:
    """Zwick & Paterson's row for n pairs: the optimal move class (0, 1, 2) for k = 0..n known
    cards (n unseen-or-half-known pairs; the deck must hold n pairs)."""
    digits = []
    for k in range(n + 1):
        pos = canonical([(2, 0)] * (n - k) + [(2, 1)] * k)
        digits.append(MOVE_DIGIT.get(duel.move_class(pos), "?"))
    return "".join(digits)


OUTCOME_MAX_STATES = 200_000  # positions up to which solve_duel splits wins, losses, ties


def solve_duel(deck: Deck, *, max_states: int = DEFAULT_MAX_STATES, outcomes: bool = True,
               progress: Progress | None = None, timeout: float | None = None) -> DuelResult:
    """Two-player Concentration (K4) with perfect memory, optimal for expected pairs; the
    win/loss/tie split for decks up to OUTCOME_MAX_STATES positions."""
    duel = Duel(deck, max_states, progress, timeout)
    gain = duel.gain()
    split = None
    if outcomes and duel.table.space.size <= OUTCOME_MAX_STATES:
        try:
            split = duel.outcomes()
        except BudgetExceeded:
            split = None
    table: list[tuple[str, str]] = []
    if all(k.count == 2 for k in deck.kinds):
        n = len(deck.kinds)
        table = [(f"n={j}", zp_table(duel, j)) for j in range(1, n + 1)]
    return DuelResult(deck, gain, split, duel.table.space.size, tuple(table))


def warm_up() -> None:
    """Run every compiled kernel once on a tiny deck: numba reads its on-disk cache (or
    compiles) on a kernel's first call, so after this a solve opens no file (what the web
    app's workers need: they are forked after their imports and must not touch the file
    system)."""
    reach(solve([4, 2]))
    solve([2, 2], players=2)
