"""Concentration (K4) with perfect memory, solved exactly.

Positions are described up to relabelling: every kind still on the table has r cards left
(even) of which s in {0, 1} are known (seen, remembered, face down); kinds with the same (r, s)
are interchangeable whatever their starting count, so a position is the number of kinds in
each class (r, s). Two known cards of one kind are a known pair: taking it costs one turn and
changes nothing else, so it is taken at once (for the solitaire count this is without loss;
in the two-player game the player to move takes it and moves on, as Zwick & Paterson assume).

A turn: flip a face-down card, then another chosen after seeing the first (K4). The choices:
- new first: flip a card never seen; it is of a kind with u unknown cards with probability
  u/U (U = unknown cards). Then: (a) match: flip its known partner (when one is known);
  (b) new second: flip another unseen card; (c) known second: flip a known card of another
  kind (Zwick & Paterson's "1-move" wastes the second flip this way; (b) is their "2-move");
- known first: flip a known card, then an unseen one (a match with probability of its kind);
- pass (two players only): flip two known, non-matching cards (Zwick & Paterson's 0-move).
Flipping two known non-matching cards in solitaire only wastes a turn, so it is not listed.

Solitaire (Velleman & Warrington): E(position) = 1 + min over choices of the expected E of
what follows. Every term's denominator divides U!, so F = U! * E is an integer: the solver works
in integers and divides once at the end (exact, and fast enough for McCord's 52 cards).

Two players (Zwick & Paterson): e(position) = the expected pairs of the player to move minus
the opponent's from here, maximised by the mover; a match keeps the turn (+1 + e), a miss
passes it (-e of the next position); a pass gives -e(same position), so e = max(best, 0) when
a pass is possible (both passing for ever is a stalemate worth 0 from then on). U! * e is an
integer too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from fleece.rules.cards.deck import Deck
from fleece.rules.errors import BudgetExceeded

State = tuple[int, ...]  # kinds per class; class index (r // 2 - 1) * 2 + s
Progress = Callable[[int], None]

NEW_MATCH, NEW_NEW, NEW_KNOWN = "match", "new", "known"
DEFAULT_MAX_STATES = 3_000_000


class TooLarge(BudgetExceeded):
    """The exact solution would exceed its state budget."""


def _cls(r: int, s: int) -> int:
    return (r // 2 - 1) * 2 + s


@dataclass(frozen=True)
class Child:
    """An outcome: its weight (number of cards giving it), the next position, the known pairs
    taken at once, and whether the turn's two cards matched."""

    weight: int
    state: State
    forced: int
    matched: bool


class Model:
    """The class model of a deck: positions, unknown counts and every choice's outcomes."""

    def __init__(self, deck: Deck) -> None:
        counts = deck.counts
        if any(c % 2 for c in counts):
            raise ValueError("every kind needs an even count")
        self.deck = deck
        self.maxr = max(counts) if counts else 2
        self.classes = [(r, s) for r in range(2, self.maxr + 1, 2) for s in (0, 1)]
        start = [0] * len(self.classes)
        for c in counts:
            start[_cls(c, 0)] += 1
        self.start: State = tuple(start)

    def unknown(self, state: State) -> int:
        """Cards never seen."""
        return sum(m * (r - s) for m, (r, s) in zip(state, self.classes, strict=True))

    def known_kinds(self, state: State) -> int:
        """Kinds with one known card."""
        return sum(state[i] for i, (_, s) in enumerate(self.classes) if s == 1)

    def _move(self, state: list[int], frm: int, r: int, s: int) -> int:
        """Move one kind from class `frm` to (r, s), taking a known pair at once; returns the
        pairs taken."""
        state[frm] -= 1
        forced = 0
        if s == 2:
            r, s, forced = r - 2, 0, 1
        if r > 0:
            state[_cls(r, s)] += 1
        return forced

    def new_first(self, state: State, c: int) -> dict[str, list[Child]]:
        """The outcomes of each second-card choice after a new first card of class c."""
        r, s = self.classes[c]
        out: dict[str, list[Child]] = {}
        if s == 1:  # (a) match the known partner
            st = list(state)
            self._move(st, c, r - 2, 0)
            out[NEW_MATCH] = [Child(1, tuple(st), 0, True)]
        u_left = self.unknown(state) - 1
        if u_left > 0:  # (b) another unseen card
            kids: list[Child] = []
            if r - s - 1 > 0:  # the same kind: the two new cards match
                st = list(state)
                self._move(st, c, r - 2, s)
                kids.append(Child(r - s - 1, tuple(st), 0, True))
            for c2, (r2, s2) in enumerate(self.classes):
                m = state[c2] - (c2 == c)
                if m <= 0 or r2 - s2 <= 0:
                    continue
                st = list(state)
                forced = self._move(st, c, r, s + 1)
                forced += self._move(st, c2, r2, s2 + 1)
                kids.append(Child(m * (r2 - s2), tuple(st), forced, False))
            out[NEW_NEW] = kids
        if s == 0 and self.known_kinds(state) > 0:  # (c) a known card of another kind
            st = list(state)
            self._move(st, c, r, 1)
            out[NEW_KNOWN] = [Child(1, tuple(st), 0, False)]
        return out

    def known_first(self, state: State, c: int) -> list[Child]:
        """Flip the known card of a class-c kind, then an unseen card."""
        r, _ = self.classes[c]
        kids = []
        if r - 1 > 0:
            st = list(state)
            self._move(st, c, r - 2, 0)
            kids.append(Child(r - 1, tuple(st), 0, True))
        for c2, (r2, s2) in enumerate(self.classes):
            m = state[c2] - (c2 == c)
            if m <= 0 or r2 - s2 <= 0:
                continue
            st = list(state)
            forced = self._move(st, c2, r2, s2 + 1)
            kids.append(Child(m * (r2 - s2), tuple(st), forced, False))
        return kids

    def describe(self, state: State) -> str:
        """A position in words: kinds per (cards left, known)."""
        parts = []
        for m, (r, s) in zip(state, self.classes, strict=True):
            if m:
                parts.append(f"{m}x({r} left, {'1 known' if s else 'none known'})")
        return ", ".join(parts) or "empty"


# ---- solitaire -------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """The optimal choice at a position: `new` (flip an unseen card first; `branch[c]` says
    what to flip second after a first card of class c) or `known:c` (flip the known card of a
    class-c kind first)."""

    first: str
    branch: tuple[tuple[int, str], ...] = ()


class Solitaire:
    """V&W's solitaire game on a deck: F(position) = U! * E(position), memoised."""

    def __init__(self, deck: Deck, max_states: int = DEFAULT_MAX_STATES,
                 progress: Progress | None = None) -> None:
        self.model = Model(deck)
        self.fact = [factorial(i) for i in range(deck.size + 2)]
        self.memo: dict[State, int] = {}
        self.policy: dict[State, Choice] = {}
        self.max_states = max_states
        self.progress = progress

    def value(self, state: State) -> int:
        """F(state) = U! * (optimal expected turns from `state`)."""
        known = self.memo.get(state)
        if known is not None:
            return known
        m = self.model
        u = m.unknown(state)
        if u == 0:
            self.memo[state] = 0
            return 0
        if len(self.memo) >= self.max_states:
            raise TooLarge("positions", self.max_states, field="max_states")
        f1, f2 = self.fact[u - 1], self.fact[max(u - 2, 0)]
        total = 0
        branch: list[tuple[int, str]] = []
        for c, (r, s) in enumerate(m.classes):
            if not state[c] or r - s <= 0:
                continue
            best: int | None = None
            best_name = ""
            for name, kids in m.new_first(state, c).items():
                if name == NEW_NEW:
                    v = sum(k.weight * (self.value(k.state) + k.forced * f2) for k in kids)
                else:
                    k = kids[0]
                    v = self.value(k.state) + k.forced * f1
                if best is None or v < best:
                    best, best_name = v, name
            assert best is not None
            total += state[c] * (r - s) * best
            branch.append((c, best_name))
        choice = Choice("new", tuple(branch))
        for c, (_, s) in enumerate(m.classes):
            if s == 1 and state[c]:
                v = sum(k.weight * (self.value(k.state) + k.forced * f1)
                        for k in m.known_first(state, c))
                if v < total:
                    total, choice = v, Choice(f"known:{c}")
        result = self.fact[u] + total
        self.memo[state] = result
        self.policy[state] = choice
        if self.progress is not None and not len(self.memo) & 8191:
            self.progress(len(self.memo))
        return result

    def expected(self, state: State | None = None) -> Fraction:
        """The exact optimal expected number of turns."""
        st = self.model.start if state is None else state
        return Fraction(self.value(st), self.fact[self.model.unknown(st)])

    def reachable(self) -> list[State]:
        """Positions reached with positive probability under the optimal policy."""
        m = self.model
        seen = {m.start}
        stack = [m.start]
        while stack:
            st = stack.pop()
            if m.unknown(st) == 0:
                continue
            choice = self.policy[st]
            kids: list[Child] = []
            if choice.first == "new":
                for c, name in choice.branch:
                    kids += m.new_first(st, c)[name]
            else:
                kids = m.known_first(st, int(choice.first.split(":")[1]))
            for k in kids:
                if k.state not in seen:
                    seen.add(k.state)
                    stack.append(k.state)
        return sorted(seen)


@dataclass(frozen=True)
class SolitaireResult:
    """The exact solitaire value of a deck and the optimal strategy in words."""

    deck: Deck
    expected_turns: Fraction
    positions: int
    reachable: int
    rule: str
    exceptions: tuple[str, ...]
    exception_count: int

    def to_json(self) -> dict[str, object]:
        """`{"expected_turns": "13/3", ...}`."""
        pairs = self.deck.size // 2
        return {
            "deck": self.deck.spec(), "cards": self.deck.size, "pairs": pairs,
            "expected_turns": str(self.expected_turns),
            "expected_turns_float": round(float(self.expected_turns), 9),
            "per_pair": round(float(self.expected_turns) / pairs, 9) if pairs else 0.0,
            "positions": self.positions, "reachable_positions": self.reachable,
            "rule": self.rule, "exceptions": list(self.exceptions),
            "exception_count": self.exception_count,
        }


BASE_RULE = ("Take any known pair (one turn). Otherwise flip a card never seen; if a card of "
             "its kind is known, flip that one and take the pair; if not, flip another card "
             "never seen.")


def solve_solitaire(deck: Deck, *, max_states: int = DEFAULT_MAX_STATES,
                    progress: Progress | None = None) -> SolitaireResult:
    """K4 solitaire with perfect memory: the exact optimal expected number of turns, and the
    optimal rule: the base rule and the reachable positions where optimal play departs from
    it (strictly better, ties resolved towards the base rule)."""
    if deck.size == 0:
        raise ValueError("empty deck")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20 * deck.size + 1000))
    try:
        solver = Solitaire(deck, max_states, progress)
        value = solver.expected()
        reach = solver.reachable()
    finally:
        sys.setrecursionlimit(old)
    m = solver.model
    exceptions = []
    for st in reach:
        if m.unknown(st) == 0:
            continue
        ch = solver.policy[st]
        if ch.first != "new":
            c = int(ch.first.split(":")[1])
            r, _ = m.classes[c]
            exceptions.append(f"at [{m.describe(st)}]: flip the known card of a kind with "
                              f"{r} left first, then a card never seen")
            continue
        for c, name in ch.branch:
            r, s = m.classes[c]
            natural = NEW_MATCH if s == 1 else NEW_NEW
            if name != natural:
                what = {NEW_NEW: "another card never seen", NEW_KNOWN: "a known card (no "
                        "risk, no match)", NEW_MATCH: "its known partner"}[name]
                exceptions.append(f"at [{m.describe(st)}], after a new card of a kind with "
                                  f"{r} left and {'one' if s else 'none'} known: flip {what}")
    rule = BASE_RULE + (" This is optimal in every position reached." if not exceptions else
                        f" Exceptions ({len(exceptions)} reachable positions):")
    return SolitaireResult(deck, value, len(solver.memo), len(reach), rule,
                           tuple(exceptions[:20]), len(exceptions))


def pairs_values(n: int) -> list[Fraction]:
    """E(1), ..., E(n) for decks of 1..n pairs (one solver: pairs:n contains every smaller
    position (j, 0) for j <= n)."""
    from fleece.rules.cards.deck import pairs

    solver = Solitaire(pairs(n))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 40 * n + 1000))
    try:
        out = []
        for j in range(1, n + 1):
            st = (j, 0)
            out.append(Fraction(solver.value(st), solver.fact[2 * j]))
        return out
    finally:
        sys.setrecursionlimit(old)


# ---- two players -----------------------------------------------------------------------

PASS, ONE_NEW, TWO_NEW, KNOWN_FIRST = "pass", "one-new", "two-new", "known-first"
MOVE_DIGIT = {PASS: "0", ONE_NEW: "1", TWO_NEW: "2", KNOWN_FIRST: "K"}


@dataclass(frozen=True)
class DuelChoice:
    """The mover's optimal choice: `pass`, `known-first:c`, or a new first card with the
    second-card choice per class (`branch`)."""

    first: str
    branch: tuple[tuple[int, str], ...] = ()


class Duel:
    """Two-player Concentration (Zwick & Paterson's game on any deck): G = U! * e."""

    def __init__(self, deck: Deck, max_states: int = DEFAULT_MAX_STATES,
                 progress: Progress | None = None) -> None:
        self.model = Model(deck)
        self.fact = [factorial(i) for i in range(deck.size + 2)]
        self.memo: dict[State, int] = {}
        self.policy: dict[State, DuelChoice] = {}
        self.max_states = max_states
        self.progress = progress

    def _next(self, k: Child, scale: int) -> int:
        """The child's value (scaled) from the point of view of whoever moves next: the known
        pairs taken at once plus e."""
        return k.forced * scale + self.value(k.state)

    def _signed(self, k: Child, scale: int) -> int:
        """The mover's scaled gain from an outcome: +1 + next if the turn matched (the mover
        goes on), else -next (the opponent moves)."""
        v = self._next(k, scale)
        return scale + v if k.matched else -v

    def value(self, state: State) -> int:
        """G(state) = U! * e(state)."""
        known = self.memo.get(state)
        if known is not None:
            return known
        m = self.model
        u = m.unknown(state)
        if u == 0:
            self.memo[state] = 0
            return 0
        if len(self.memo) >= self.max_states:
            raise TooLarge("positions", self.max_states, field="max_states")
        f1, f2 = self.fact[u - 1], self.fact[max(u - 2, 0)]
        total = 0
        branch: list[tuple[int, str]] = []
        for c, (r, s) in enumerate(m.classes):
            if not state[c] or r - s <= 0:
                continue
            best: int | None = None
            best_name = ""
            for name, kids in m.new_first(state, c).items():
                scale = f2 if name == NEW_NEW else f1
                # (U-1)! scale: NEW_NEW's weights add up to U-1 over (U-2)!-scaled terms
                v = sum(k.weight * self._signed(k, scale) for k in kids)
                if best is None or v > best:
                    best, best_name = v, name
            assert best is not None
            total += state[c] * (r - s) * best
            branch.append((c, best_name))
        choice = DuelChoice("new", tuple(branch))
        for c, (_, s) in enumerate(m.classes):
            if s == 1 and state[c]:
                v = sum(k.weight * self._signed(k, f1) for k in m.known_first(state, c))
                if v > total:
                    total, choice = v, DuelChoice(f"known-first:{c}")
        if m.known_kinds(state) >= 2 and total < 0:
            total, choice = 0, DuelChoice(PASS)
        self.memo[state] = total
        self.policy[state] = choice
        if self.progress is not None and not len(self.memo) & 8191:
            self.progress(len(self.memo))
        return total

    def gain(self, state: State | None = None) -> Fraction:
        """e: the mover's expected pairs minus the opponent's, both playing optimally."""
        st = self.model.start if state is None else state
        return Fraction(self.value(st), self.fact[self.model.unknown(st)])

    def move_class(self, state: State) -> str:
        """Zwick & Paterson's move class of the optimal choice: pass, one-new (a new card,
        then a known one unless it matched), two-new, or known-first; a position where every
        new card matches a known one counts as one-new, as in their table."""
        self.value(state)
        ch = self.policy[state]
        if ch.first == PASS:
            return PASS
        if ch.first != "new":
            return KNOWN_FIRST
        m = self.model
        names = {name for c, name in ch.branch if m.classes[c][1] == 0}
        if not names or names == {NEW_KNOWN}:
            return ONE_NEW
        if names == {NEW_NEW}:
            return TWO_NEW
        return "mixed"

    def outcomes(self, max_entries: int = 2_000_000) -> dict[str, Fraction]:
        """Under the optimal policy (as chosen by `value`), the probabilities that the first
        player ends with more pairs, fewer, the same, or that the game stalls in mutual
        passing (a stalemate), by forward propagation over (position, mover, pair
        difference); positions only lose unknown cards, so they are processed by U."""
        m = self.model
        self.value(m.start)
        # dist[(state, first_to_move)][diff of first minus second] = probability
        layers: dict[int, dict[tuple[State, bool], dict[int, Fraction]]] = {}
        u0 = m.unknown(m.start)
        layers[u0] = {(m.start, True): {0: Fraction(1)}}
        result = {"first": Fraction(0), "second": Fraction(0), "tie": Fraction(0),
                  "stalemate": Fraction(0)}
        entries = 0
        for u in range(u0, -1, -1):
            layer = layers.pop(u, {})
            for (st, first_moves), dist in layer.items():
                entries += len(dist)
                if entries > max_entries:
                    raise TooLarge("(position, score) pairs for the outcome split", max_entries)
                if m.unknown(st) == 0:
                    for d, p in dist.items():
                        result["first" if d > 0 else "second" if d < 0 else "tie"] += p
                    continue
                ch = self.policy[st]
                if ch.first == PASS:
                    for p in dist.values():
                        result["stalemate"] += p
                    continue
                kids: list[tuple[Fraction, Child]] = []
                if ch.first == "new":
                    for c, name in ch.branch:
                        r, s = m.classes[c]
                        p1 = Fraction(st[c] * (r - s), u)
                        for k in m.new_first(st, c)[name]:
                            p2 = Fraction(k.weight, u - 1) if name == NEW_NEW else Fraction(1)
                            kids.append((p1 * p2, k))
                else:
                    for k in m.known_first(st, int(ch.first.split(":")[1])):
                        kids.append((Fraction(k.weight, u), k))
                for pk, k in kids:
                    nxt_first = first_moves if k.matched else not first_moves
                    sign_now = 1 if first_moves else -1
                    sign_next = 1 if nxt_first else -1
                    key = (k.state, nxt_first)
                    target = layers.setdefault(m.unknown(k.state), {}).setdefault(key, {})
                    for d, p in dist.items():
                        nd = d + (sign_now if k.matched else 0) + sign_next * k.forced
                        target[nd] = target.get(nd, Fraction(0)) + p * pk
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
    cards (pairs decks only)."""
    digits = []
    for k in range(n + 1):
        st = [0] * len(duel.model.classes)
        st[0], st[1] = n - k, k
        digits.append(MOVE_DIGIT.get(duel.move_class(tuple(st)), "?"))
    return "".join(digits)


def solve_duel(deck: Deck, *, max_states: int = DEFAULT_MAX_STATES, outcomes: bool = True,
               progress: Progress | None = None) -> DuelResult:
    """Two-player Concentration (K4) with perfect memory, optimal for expected pairs."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20 * deck.size + 1000))
    try:
        duel = Duel(deck, max_states, progress)
        gain = duel.gain()
        split = duel.outcomes() if outcomes else None
    finally:
        sys.setrecursionlimit(old)
    table: list[tuple[str, str]] = []
    if all(k.count == 2 for k in deck.kinds):
        n = len(deck.kinds)
        table = [(f"n={j}", zp_table(duel, j)) for j in range(1, n + 1)]
    return DuelResult(deck, gain, split, len(duel.memo), tuple(table))
