"""War (K1-K2) analysed exactly: every distinct deal under a fixed return order, or the Markov
chain of the random order.

Fixed order: a battle maps a pile pair to the next one, so the games of all deals are paths in
one functional graph. Each pile pair is resolved once (memoised): its outcome (A, B, draw or
cycle) and the number of battles until the game ends or a pile pair repeats. Counts are exact
integers over the deck's distinct arrangements (K2: each arrangement is one deal).

Random order: the pile pairs reachable from any deal form an absorbing Markov chain (each
distinct return order equally likely). The probability of each ending and of ending at all,
and the expected number of battles, are solved exactly in Fractions by sparse elimination
over the states that can reach an end (states that cannot reach one never end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from fleece.rules.cards.deck import Deck, arrangements
from fleece.rules.cards.war import Order, Runout, after, battle, deal_piles, fixed_return
from fleece.rules.errors import BudgetExceeded

A_WINS, B_WINS, DRAW, CYCLE = 0, 1, 2, 3
DEFAULT_MAX_DEALS = 2_000_000
DEFAULT_MAX_STATES = 6_000

Piles = tuple[tuple[int, ...], tuple[int, ...]]
Progress = Callable[[int], None]


def _step_lose_fixed(a: tuple[int, ...], b: tuple[int, ...], winner_first: bool
                     ) -> Piles | int:
    """One battle with run-out `lose` and a fixed order, inlined for speed: the next piles,
    or an outcome code when the game ends."""
    pos = 1
    la, lb = len(a), len(b)
    while a[pos - 1] == b[pos - 1]:
        if la < pos + 2 or lb < pos + 2:
            if la < pos + 2 and lb < pos + 2:
                return DRAW
            return B_WINS if la < pos + 2 else A_WINS
        pos += 2
    if a[pos - 1] > b[pos - 1]:
        nb = b[pos:]
        if not nb:
            return A_WINS
        return (a[pos:] + (a[:pos] + b[:pos] if winner_first else b[:pos] + a[:pos]), nb)
    na = a[pos:]
    if not na:
        return B_WINS
    return (na, b[pos:] + (b[:pos] + a[:pos] if winner_first else a[:pos] + b[:pos]))


def step_fixed(piles: Piles, order: Order, runout: Runout) -> Piles | int:
    """One battle under a fixed order: the next pile pair, or the outcome code."""
    if runout is Runout.LOSE:
        return _step_lose_fixed(piles[0], piles[1], order is Order.WINNER_FIRST)
    result = battle(piles[0], piles[1], runout)
    if result.runout:
        return DRAW if result.winner is None else result.winner
    a, b = after(piles[0], piles[1], result, fixed_return(result, order))
    if not b:
        return A_WINS
    if not a:
        return B_WINS
    return (a, b)


@dataclass(frozen=True)
class CycleExample:
    """A deal whose game cycles: the deal (kind indices, top first), the battles until a pile
    pair repeats, and the cycle's period."""

    deal: tuple[int, ...]
    battles: int
    period: int


@dataclass(frozen=True)
class ExactWar:
    """Every deal of a deck under a fixed order: outcome counts, the longest game that ends,
    the exact mean length of the games that end, cycle periods and an example cycle."""

    deck: Deck
    order: Order
    runout: Runout
    deals: int
    a_wins: int
    b_wins: int
    draws: int
    cycles: int
    longest: int
    longest_deal: tuple[int, ...] | None
    total_battles: int  # over the deals whose game ends
    periods: tuple[tuple[int, int], ...]  # (period, deals) sorted
    cycle_example: CycleExample | None
    states: int

    @property
    def mean_battles(self) -> Fraction:
        """The exact mean number of battles of the games that end."""
        ended = self.deals - self.cycles
        return Fraction(self.total_battles, ended) if ended else Fraction(0)

    def to_json(self) -> dict[str, object]:
        """The JSON result (`deals`, `a_wins`, `b_wins`, `draws`, `cycles`, `longest`, ...)."""
        d = self.deck
        return {
            "method": "exact", "deck": d.spec(), "order": self.order.value,
            "runout": self.runout.value, "deals": self.deals, "a_wins": self.a_wins,
            "b_wins": self.b_wins, "draws": self.draws, "cycles": self.cycles,
            "cycle_fraction": str(Fraction(self.cycles, self.deals)),
            "longest": self.longest,
            "longest_deal": d.text(self.longest_deal) if self.longest_deal else None,
            "mean_battles": str(self.mean_battles),
            "mean_battles_float": round(float(self.mean_battles), 6),
            "cycle_periods": {str(p): n for p, n in self.periods},
            "cycle_example": None if self.cycle_example is None else {
                "deal": d.text(self.cycle_example.deal),
                "battles_until_repeat": self.cycle_example.battles,
                "period": self.cycle_example.period},
            "states": self.states,
        }


def analyse_fixed(deck: Deck, order: Order, runout: Runout = Runout.LOSE, *,
                  max_deals: int = DEFAULT_MAX_DEALS,
                  progress: Progress | None = None) -> ExactWar:
    """K2 exactly: play every distinct deal under a fixed order (memoised over pile pairs).
    Each pile pair is stored with (outcome, battles until the end or the first repeat,
    period) where the period is 0 for games that end."""
    if order is Order.RANDOM:
        raise ValueError("use analyse_random for the random order")
    deals_total = deck.arrangements()
    if deals_total > max_deals:
        raise BudgetExceeded("deals", max_deals, field="max_deals",
                       detail=f"{deals_total} deals exceed the exact budget of {max_deals}")
    # memo value: (period << 40) | (battles << 2) | outcome, one int per pile pair
    memo: dict[Piles, int] = {}
    memo_get = memo.get
    counts = [0, 0, 0, 0]
    longest, longest_deal, total = 0, None, 0
    periods: dict[int, int] = {}
    example: CycleExample | None = None
    winner_first = order is Order.WINNER_FIRST
    fast = runout is Runout.LOSE
    done = 0
    half = (deck.size + 1) // 2
    step = _step_lose_fixed
    for deal in arrangements(deck.counts):
        start: Piles = (deal[:half], deal[half:])
        s: Piles = start
        path: list[Piles] = []
        while True:
            code = memo_get(s)
            if code is not None:
                break
            if s in path:  # a cycle through path[at:]
                at = path.index(s)
                period = len(path) - at
                code = (period << 40) | (period << 2) | CYCLE
                for st in path[at:]:
                    memo[st] = code
                del path[at:]
                break
            path.append(s)
            nxt = step(s[0], s[1], winner_first) if fast else step_fixed(s, order, runout)
            if nxt.__class__ is int:
                code = 4 | nxt
                memo[path.pop()] = code
                break
            s = nxt  # type: ignore[assignment]
        for st in reversed(path):
            code += 4
            memo[st] = code
        code = memo[start]
        outcome, battles, period = code & 3, (code >> 2) & ((1 << 38) - 1), code >> 40
        counts[outcome] += 1
        if outcome == CYCLE:
            periods[period] = periods.get(period, 0) + 1
            if example is None:
                example = CycleExample(deal, battles, period)
        else:
            total += battles
            if battles > longest:
                longest, longest_deal = battles, deal
        done += 1
        if progress is not None and not done & 4095:
            progress(done)
    return ExactWar(deck, order, runout, done, counts[A_WINS], counts[B_WINS], counts[DRAW],
                    counts[CYCLE], longest, longest_deal, total,
                    tuple(sorted(periods.items())), example, len(memo))


def play_fixed(deal: tuple[int, ...], order: Order, runout: Runout = Runout.LOSE
               ) -> tuple[int, int, int]:
    """One deal under a fixed order: (outcome code, battles until the end or the first
    repeated pile pair, period or 0)."""
    s: Piles = deal_piles(deal)
    seen = {s: 0}
    battles = 0
    while True:
        nxt = step_fixed(s, order, runout)
        battles += 1
        if isinstance(nxt, int):
            return nxt, battles, 0
        if nxt in seen:
            return CYCLE, battles, battles - seen[nxt]
        seen[nxt] = battles
        s = nxt


# ---- the random order: an absorbing Markov chain ------------------------------------------


def _orders(pot: tuple[int, ...], kinds: int) -> list[tuple[int, ...]]:
    counts = [0] * kinds
    for c in pot:
        counts[c] += 1
    return list(arrangements(counts))


@dataclass(frozen=True)
class MarkovWar:
    """The random order solved exactly over a uniformly random deal."""

    deck: Deck
    runout: Runout
    deals: int
    states: int
    p_a: Fraction
    p_b: Fraction
    p_draw: Fraction
    expected_battles: Fraction | None  # None when the game may not end
    expected_battles_if_ends: Fraction
    never_ending_states: int

    @property
    def p_end(self) -> Fraction:
        """The probability that the game ends."""
        return self.p_a + self.p_b + self.p_draw

    def to_json(self) -> dict[str, object]:
        """The JSON result (`p_end`, `expected_battles` as fraction strings, ...)."""
        eb = self.expected_battles
        return {
            "method": "markov", "deck": self.deck.spec(), "order": "random",
            "runout": self.runout.value, "deals": self.deals, "states": self.states,
            "p_a": str(self.p_a), "p_b": str(self.p_b), "p_draw": str(self.p_draw),
            "p_end": str(self.p_end), "p_end_float": float(self.p_end),
            "expected_battles": None if eb is None else str(eb),
            "expected_battles_float": None if eb is None else round(float(eb), 6),
            "expected_battles_if_ends": str(self.expected_battles_if_ends),
            "never_ending_states": self.never_ending_states,
        }


def _random_successors(s: Piles, runout: Runout, kinds: int
                       ) -> int | list[tuple[Piles | int, Fraction]]:
    result = battle(s[0], s[1], runout)
    if result.runout:
        return DRAW if result.winner is None else result.winner
    orders = _orders(result.played[0] + result.played[1], kinds)
    p = Fraction(1, len(orders))
    out: list[tuple[Piles | int, Fraction]] = []
    for o in orders:
        a, b = after(s[0], s[1], result, o)
        out.append((A_WINS if not b else B_WINS if not a else (a, b), p))
    return out


def analyse_random(deck: Deck, runout: Runout = Runout.LOSE, *,
                   max_states: int = DEFAULT_MAX_STATES,
                   progress: Progress | None = None) -> MarkovWar:
    """K2's random order exactly: build the chain from every deal, then solve it."""
    kinds = len(deck.kinds)
    deals = deck.arrangements()
    if deals > max_states * 50:
        raise BudgetExceeded("chain states", max_states, field="max_states",
                       detail=f"{deals} deals: the chain is far beyond the exact budget of "
                              f"{max_states} states")
    starts: dict[Piles, int] = {}
    for d in arrangements(deck.counts):
        p = deal_piles(d)
        starts[p] = starts.get(p, 0) + 1
    trans: dict[Piles, int | list[tuple[Piles | int, Fraction]]] = {}
    stack = list(starts)
    while stack:
        s = stack.pop()
        if s in trans:
            continue
        if len(trans) >= max_states:
            raise BudgetExceeded("chain states", max_states, field="max_states",
                           detail=f"the random-order chain has more than {max_states} states")
        r = _random_successors(s, runout, kinds)
        trans[s] = r
        if not isinstance(r, int):
            stack.extend(t for t, _ in r if not isinstance(t, int) and t not in trans)
    # states that can reach an end
    preds: dict[Piles, list[Piles]] = {s: [] for s in trans}
    good: set[Piles] = set()
    frontier = []
    for s, r in trans.items():
        if isinstance(r, int) or any(isinstance(t, int) for t, _ in r):
            good.add(s)
            frontier.append(s)
        if not isinstance(r, int):
            for t, _ in r:
                if not isinstance(t, int):
                    preds[t].append(s)
    while frontier:
        t = frontier.pop()
        for s in preds[t]:
            if s not in good:
                good.add(s)
                frontier.append(s)
    never = len(trans) - len(good)
    variables = [s for s in good if not isinstance(trans[s], int)]
    index = {s: i for i, s in enumerate(variables)}

    def ending(t: Piles | int) -> int | None:
        """The outcome code of a transition that ends the game within one more battle at
        most: an outcome itself, or a state whose next battle is a run-out."""
        if isinstance(t, int):
            return t
        r = trans[t]
        return r if isinstance(r, int) else None

    def system(rhs_of: Callable[[Piles, list[tuple[Piles | int, Fraction]]], list[Fraction]]
               ) -> list[list[Fraction]]:
        rows: list[tuple[dict[int, Fraction], list[Fraction]]] = []
        for s in variables:
            r = trans[s]
            assert not isinstance(r, int)
            eq: dict[int, Fraction] = {index[s]: Fraction(1)}
            for t, p in r:
                if not isinstance(t, int) and t in index:
                    j = index[t]
                    eq[j] = eq.get(j, Fraction(0)) - p
            rows.append((eq, rhs_of(s, r)))
        return _solve(rows, progress)

    def end_rhs(s: Piles, r: list[tuple[Piles | int, Fraction]]) -> list[Fraction]:
        v = [Fraction(0)] * 4
        v[3] = Fraction(1)  # this battle (the expectation is valid when every state ends)
        for t, p in r:
            code = ending(t)
            if code is not None:
                v[code] += p
                if not isinstance(t, int):
                    v[3] += p  # the run-out battle that follows
        return v

    x = system(end_rhs)

    def value(s: Piles) -> list[Fraction]:
        r = trans[s]
        if isinstance(r, int):
            v = [Fraction(0)] * 4
            v[r] = Fraction(1)
            v[3] = Fraction(1)
            return v
        if s not in index:
            return [Fraction(0)] * 4
        return x[index[s]]

    total = [Fraction(0)] * 4
    for s, n in starts.items():
        v = value(s)
        for k in range(4):
            total[k] += n * v[k]
    p_a, p_b, p_draw = (total[k] / deals for k in range(3))
    p_end = p_a + p_b + p_draw
    if never == 0:
        eb: Fraction | None = total[3] / deals
        eb_if = eb
    else:
        # E[T 1{end}]: y = P(end) + Q y, solved with the end probabilities as the right side
        def y_rhs(s: Piles, r: list[tuple[Piles | int, Fraction]]) -> list[Fraction]:
            extra = sum((p for t, p in r if not isinstance(t, int) and ending(t) is not None),
                        Fraction(0))
            return [sum(x[index[s]][:3], Fraction(0)) + extra]

        y = system(y_rhs)
        tot_y = Fraction(0)
        for s, n in starts.items():
            r = trans[s]
            if isinstance(r, int):
                tot_y += n
            elif s in index:
                tot_y += n * y[index[s]][0]
        eb = None
        eb_if = tot_y / deals / p_end if p_end else Fraction(0)
    assert eb_if is not None
    return MarkovWar(deck, runout, deals, len(trans), p_a, p_b, p_draw, eb, eb_if, never)


def _solve(rows: list[tuple[dict[int, Fraction], list[Fraction]]],
           progress: Progress | None) -> list[list[Fraction]]:
    """Solve the sparse system `sum_j eq[j] x_j = rhs` (one per row, row i for variable i)
    exactly: Gaussian elimination in a Markowitz-style order (fewest fill-ins first), then
    back substitution."""
    n = len(rows)
    cols: dict[int, set[int]] = {i: set() for i in range(n)}
    for i, (eq, _) in enumerate(rows):
        for j in eq:
            cols[j].add(i)
    remaining = set(range(n))
    order: list[int] = []
    width = len(rows[0][1]) if rows else 0
    while remaining:
        v = min(remaining, key=lambda i: (len(rows[i][0]) - 1) * (len(cols[i]) - 1))
        remaining.discard(v)
        eq, rhs = rows[v]
        piv = eq[v]
        eq = {j: c / piv for j, c in eq.items()}
        rhs = [c / piv for c in rhs]
        rows[v] = (eq, rhs)
        for i in list(cols[v]):
            if i == v or i not in remaining:
                continue
            e2, r2 = rows[i]
            f = e2[v]
            for j, c in eq.items():
                nv = e2.get(j, Fraction(0)) - f * c
                if nv == 0:
                    if j in e2:
                        del e2[j]
                        cols[j].discard(i)
                else:
                    if j not in e2:
                        cols[j].add(i)
                    e2[j] = nv
            for k in range(width):
                r2[k] -= f * rhs[k]
        for j in eq:
            if j != v:
                cols[j].discard(v)
        order.append(v)
        if progress is not None and len(order) % 256 == 0:
            progress(len(order))
    val: list[list[Fraction]] = [[] for _ in range(n)]
    for v in reversed(order):
        eq, rhs = rows[v]
        xv = list(rhs)
        for j, c in eq.items():
            if j != v:
                for k in range(width):
                    xv[k] -= c * val[j][k]
        val[v] = xv
    return val


# ---- one game, battle by battle ------------------------------------------------------------


@dataclass(frozen=True)
class BattleLine:
    """One battle of a played game: the cards each played, the winner (None: a run-out
    draw) and the cards returned under the winner's pile; pile sizes after."""

    number: int
    played: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None
    runout: bool
    returned: tuple[int, ...]
    sizes: tuple[int, int]


@dataclass(frozen=True)
class PlayedGame:
    """A seeded game of War from the deal to its end (or its cycle, or the limit)."""

    options: object
    seed: int
    deal: tuple[int, ...]
    lines: tuple[BattleLine, ...]
    outcome: str

    def to_json(self) -> dict[str, object]:
        """The deal, every battle, the outcome."""
        from fleece.rules.cards.war import WarOptions

        opts = self.options
        assert isinstance(opts, WarOptions)
        deck = opts.deck
        return {
            "deck": deck.spec(), "order": opts.order.value, "runout": opts.runout.value,
            "seed": self.seed, "deal": deck.text(self.deal), "outcome": self.outcome,
            "battles": len(self.lines),
            "record": [{"battle": b.number, "a": deck.text(b.played[0]),
                        "b": deck.text(b.played[1]),
                        "winner": None if b.winner is None else "AB"[b.winner],
                        "runout": b.runout, "returned": deck.text(b.returned),
                        "cards": list(b.sizes)} for b in self.lines],
        }


def play_one(options: object, seed: int, start: object | None = None) -> PlayedGame:
    """Play one game of the rules model with random.Random(seed) for the deal (and the random
    return orders); from `start` (a dealt WarState, e.g. a position file) when given."""
    import random

    from fleece.rules.cards.war import Battle, Deal, WarOptions, WarState

    rng = random.Random(seed)
    if start is not None:
        assert isinstance(start, WarState) and start.record
        state = start
        options = state.options
        first = state.record[0]
        assert isinstance(first, Deal)
        deal = first
    else:
        assert isinstance(options, WarOptions)
        state = WarState(options)
        drawn = state.sample_chance(rng)
        assert isinstance(drawn, Deal)
        deal = drawn
        state = state.play(deal)
    assert isinstance(options, WarOptions)
    lines = []
    while not state.is_terminal():
        assert state.piles is not None
        result = battle(state.piles[0], state.piles[1], options.runout)
        move = state.sample_chance(rng)
        assert isinstance(move, Battle)
        state = state.play(move)
        assert state.piles is not None
        lines.append(BattleLine(state.battles, result.played, result.winner, result.runout,
                                move.returned, (len(state.piles[0]), len(state.piles[1]))))
    assert state.outcome is not None
    return PlayedGame(options, seed, deal.cards, tuple(lines), state.outcome.value)
