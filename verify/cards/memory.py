"""Concentration (K4) values by the verifier's own means, for the `literature` checks:

- `LayoutSearch`: optimal play by exhaustive search over explicit layouts, every turn played by
  the rules model under test (fleece.rules.cards.concentration): a player's knowledge is what
  each place showed; the layouts consistent with it (a bit set) give every probability; the
  model says whether the two flips matched, what left the table, who moves next. Solitaire
  minimises the expected number of turns; two players maximise the mover's expected pairs
  minus the opponent's, and a turn that changes nothing (two known cards of different kinds:
  the pass) makes the value max(other choices, 0), both passing for ever standing at 0.
- `vw_pairs`: Velleman & Warrington's recurrence for n pairs in solitaire (the strategy their
  analysis follows: a known pair at once, else a new card, its partner if known, else a second
  new card).
- `zp_moves`, `zp_value`: Zwick & Paterson's recurrence for two players on n pairs (moves 0:
  pass, 1: a new card then a known one, 2: two new cards): the move it picks for k known
  cards, and the first player's expected lead.

Places are interchangeable under a uniform deal, so a state's memo key is its sorted
knowledge; nothing here uses the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import permutations

from fleece.rules.cards.concentration import ConcentrationOptions, ConcState, Flip
from fleece.rules.cards.deck import Deck

UNSEEN = -1


class LayoutSearch:
    """Exact optimal values over every layout of a small deck, turns played by the model."""

    def __init__(self, deck: Deck, players: int = 1,
                 model: type[ConcState] = ConcState) -> None:
        self.deck = deck
        self.duel = players == 2
        self.options = ConcentrationOptions(deck, players)
        self.model = model
        self.cards = tuple(deck.cards())
        self.n = len(self.cards)
        self.kinds = sorted(set(self.cards))
        self.nk = len(deck.kinds)
        self.layouts = sorted(set(permutations(self.cards)))
        self.mask = [{k: sum(1 << i for i, lay in enumerate(self.layouts) if lay[p] == k)
                      for k in self.kinds} for p in range(self.n)]
        self.memo: dict[tuple[int, ...], Fraction] = {}

    def start(self) -> tuple[int, ...]:
        """Nothing seen: every place UNSEEN (else k seen, nk + k taken)."""
        return (UNSEEN,) * self.n

    def belief(self, known: Sequence[int]) -> int:
        """The layouts consistent with what the places showed."""
        b = (1 << len(self.layouts)) - 1
        for p, o in enumerate(known):
            if o != UNSEEN:
                b &= self.mask[p][o % self.nk]
        return b

    def value(self, known: Sequence[int] | None = None) -> Fraction:
        """The optimal value from a state of knowledge (the deal when None)."""
        key = tuple(sorted(self.start() if known is None else known))
        got = self.memo.get(key)
        if got is not None:
            return got
        if all(o >= self.nk for o in key):
            self.memo[key] = Fraction(0)
            return Fraction(0)
        down = [p for p in range(self.n) if key[p] < self.nk]
        best: Fraction | None = None
        can_pass = False
        for p in down:
            v, passes = self.first(key, p, down)
            can_pass = can_pass or passes
            if v is not None and (best is None or self._better(v, best)):
                best = v
        if self.duel and can_pass:
            best = Fraction(0) if best is None else max(best, Fraction(0))
        assert best is not None
        self.memo[key] = best
        return best

    def _better(self, a: Fraction, b: Fraction) -> bool:
        return a > b if self.duel else a < b

    def first(self, known: tuple[int, ...], p: int, down: list[int]
              ) -> tuple[Fraction | None, bool]:
        """The best turn flipping place p first (None if every second card is a pass), and
        whether some second card is a pass."""
        belief = self.belief(known)
        total = belief.bit_count()
        value = Fraction(0)
        passes = False
        for k1 in self.kinds:
            b1 = belief & self.mask[p][k1]
            if not b1:
                continue
            inner: Fraction | None = None
            for q in down:
                if q != p:
                    v = self.turn(known, b1, p, q)
                    if v is None:
                        passes = True
                    elif inner is None or self._better(v, inner):
                        inner = v
            if inner is None:
                return None, passes
            value += Fraction(b1.bit_count(), total) * inner
        return value, passes

    def turn(self, known: tuple[int, ...], b1: int, p: int, q: int) -> Fraction | None:
        """Among the layouts b1 (p's card fixed): the value of flipping q second, each outcome
        played by the model; None when the turn changes nothing (a pass)."""
        v = Fraction(0)
        n1 = b1.bit_count()
        for k2 in self.kinds:
            b2 = b1 & self.mask[q][k2]
            if not b2:
                continue
            layout = self.layouts[(b2 & -b2).bit_length() - 1]
            before = self.state(known, layout)
            after = before.play(Flip(p)).play(Flip(q))
            nxt = tuple(self.nk + layout[i] if i in after.removed else
                        (layout[i] if i in after.seen else UNSEEN) for i in range(self.n))
            gained = after.pairs[before.to_move] - before.pairs[before.to_move]
            again = after.to_move == before.to_move or after.is_terminal()
            if tuple(sorted(nxt)) == tuple(sorted(known)) and not gained:
                return None
            rest = self.value(nxt)
            if self.duel:
                w = gained + (rest if again else -rest)
            else:
                w = (after.turns - before.turns) + rest
            v += Fraction(b2.bit_count(), n1) * w
        return v

    def state(self, known: tuple[int, ...], layout: tuple[int, ...]) -> ConcState:
        """The model's state for a layout and a state of knowledge (pairs so far: 0)."""
        removed = frozenset(i for i, o in enumerate(known) if o >= self.nk)
        seen = frozenset(i for i, o in enumerate(known) if o != UNSEEN)
        players = 2 if self.duel else 1
        return self.model(self.options, layout, removed, seen, None, 0, (0,) * players, 0)

    def place_value(self, known: tuple[int, ...], p: int, q: int) -> Fraction:
        """The value of one explicit turn: flip p, then q whatever p shows."""
        belief = self.belief(known)
        v = Fraction(0)
        for k1 in self.kinds:
            b1 = belief & self.mask[p][k1]
            if b1:
                got = self.turn(tuple(known), b1, p, q)
                assert got is not None
                v += Fraction(b1.bit_count(), belief.bit_count()) * got
        return v


def vw_pairs(n: int) -> list[Fraction]:
    """Velleman & Warrington: E(1..n) for n pairs in solitaire, by the recurrence of their
    strategy. E(m, k): m pairs on the table, k of them with one card known, U = 2m - k cards
    never seen. A new card matches a known one (k/U): take it, 1 + E(m-1, k-1). Otherwise a
    second new card: the first's partner (1/(U-1)): 1 + E(m-1, k); a known card's partner
    (k/(U-1)): that pair next turn, 2 + E(m-1, k); a new kind: 1 + E(m, k+2)."""

    @cache
    def e(m: int, k: int) -> Fraction:
        if m == 0:
            return Fraction(0)
        u = 2 * m - k
        v = Fraction(k, u) * (1 + e(m - 1, k - 1)) if k else Fraction(0)
        if u > k:
            rest = Fraction(1, u - 1) * (1 + e(m - 1, k))
            rest += Fraction(k, u - 1) * (2 + e(m - 1, k))
            if u - 2 - k > 0:
                rest += Fraction(u - 2 - k, u - 1) * (1 + e(m, k + 2))
            v += Fraction(u - k, u) * rest
        return v

    out = []
    for m in range(1, n + 1):
        for j in range(m + 1):  # fill the table bottom-up (no deep recursion)
            for k in range(min(2 * j, j), -1, -1):
                e(j, k)
        out.append(e(m, 0))
    return out


@cache
def _zp(m: int, k: int) -> tuple[Fraction, Fraction | None, Fraction | None]:
    """Zwick & Paterson's e(m, k): (value, the 1-move's value, the 2-move's value) for m
    pairs of which k have one card known (U = 2m - k never seen, a known pair taken at
    once). A new card matches a known one (k/U): +1 and the move again. Otherwise the
    1-move flips a known card and hands over k + 1 known cards; the 2-move flips another new
    card: its partner (1/(U-1)) +1 and again, a known card's partner (k/(U-1)) hands the
    opponent a known pair (-(1 + e(m-1, k))), a new kind hands over k + 2 known. With two
    known cards the pass (flip both) is there: when every move loses, the value is 0."""
    if m == 0:
        return Fraction(0), None, None
    u = 2 * m - k
    hit = Fraction(k, u) * (1 + _zp(m - 1, k - 1)[0]) if k else Fraction(0)
    miss = Fraction(u - k, u)
    one = two = None
    if k and u > k:
        one = hit + miss * -_zp(m, k + 1)[0]
    if u > k:
        rest = Fraction(1, u - 1) * (1 + _zp(m - 1, k)[0])
        rest += Fraction(k, u - 1) * -(1 + _zp(m - 1, k)[0])
        if u - 2 - k > 0:
            rest += Fraction(u - 2 - k, u - 1) * -_zp(m, k + 2)[0]
        two = hit + miss * rest
    if u == k:
        one = hit
    best = max(v for v in (one, two) if v is not None)
    if k >= 2 and best < 0:
        best = Fraction(0)
    return best, one, two


def _zp_fill(n: int) -> None:
    """Fill _zp's table from small m up (keeps the recursion shallow)."""
    for m in range(1, n + 1):
        for k in range(m, -1, -1):
            _zp(m, k)


def zp_value(n: int) -> Fraction:
    """Zwick & Paterson's e(n, 0): the first player's expected pairs minus the second's."""
    _zp_fill(n)
    return _zp(n, 0)[0]


def zp_moves(n: int) -> list[str]:
    """For m = 1..n pairs, Zwick & Paterson's optimal move for k = 0..m known cards as digits
    (0 pass, 1 a new card then a known one, 2 two new cards; 2 on a tie with 1, the pass
    only when every move loses; a position where every new card has a known partner counts
    as 1)."""
    _zp_fill(n)
    rows = []
    for m in range(1, n + 1):
        digits = ""
        for k in range(m + 1):
            _, one, two = _zp(m, k)
            moves = [v for v in (one, two) if v is not None]
            if k >= 2 and max(moves) < 0:
                digits += "0"
            elif two is not None and (one is None or two >= one):
                digits += "2"
            else:
                digits += "1"
        rows.append(digits)
    return rows
