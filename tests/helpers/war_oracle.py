"""War (docs/rules.md K1-K2) written out a second time for the tests, with lists instead of the
model's tuples and slices, so that the solvers and the command line are checked against code
they do not share (rules/cards/war.py is not imported).

K2 as read here: A gets the first ceil(n/2) cards of the deal, top first, B the rest. A battle
turns both top cards; on equal cards each adds one face-down and one face-up card and the new
face-up cards decide, again on equality. Run-out `lose`: a player who cannot add both cards
loses, neither can: a draw. Run-out `last-card`: a player with one card left turns it face
up, with none its last face-up card stands; both out of cards on equal cards: a draw. The
winner puts the battle's cards under its pile: `winner-first` its own cards in the order
played then the loser's, `loser-first` the other way round. A player with no card after a
battle has lost. With a fixed order, a pile pair seen at the start of an earlier battle is a
cycle: the game never ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations


@dataclass(frozen=True)
class Battle:
    """One battle: the cards each played (in order), the winner ("A", "B" or None for a
    run-out draw), the cards returned under the winner's pile, the pile sizes after (after a
    run-out, which ends the game inside the battle, the sizes before it)."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    winner: str | None
    runout: bool
    returned: tuple[int, ...]
    sizes: tuple[int, int]


@dataclass(frozen=True)
class Game:
    """A whole game: outcome ("A", "B", "draw", "cycle"), battles played until the end or
    until a pile pair repeated, the cycle's period (0 when the game ends), every battle, and
    the pile pairs at the start of each battle."""

    outcome: str
    battles: int
    period: int
    lines: tuple[Battle, ...]
    starts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def _battle(a: list[int], b: list[int], runout: str
            ) -> tuple[str | None, list[int], list[int], bool]:
    """Take one battle's cards off the tops of `a` and `b` (in place): (winner, A's cards,
    B's cards, ended by a run-out)."""
    pa, pb = [a.pop(0)], [b.pop(0)]
    while pa[-1] == pb[-1]:
        if runout == "lose":
            a_can, b_can = len(a) >= 2, len(b) >= 2
            if not (a_can and b_can):
                winner = "A" if a_can else "B" if b_can else None
                return winner, pa, pb, True
            pa += [a.pop(0), a.pop(0)]
            pb += [b.pop(0), b.pop(0)]
        else:
            if not a and not b:
                return None, pa, pb, True
            pa += [a.pop(0) for _ in range(min(2, len(a)))]
            pb += [b.pop(0) for _ in range(min(2, len(b)))]
    return ("A" if pa[-1] > pb[-1] else "B"), pa, pb, False


def play(deal: tuple[int, ...] | list[int], order: str, runout: str = "lose") -> Game:
    """Play one deal under a fixed order (`winner-first` or `loser-first`)."""
    half = (len(deal) + 1) // 2
    a, b = list(deal[:half]), list(deal[half:])
    seen = {(tuple(a), tuple(b)): 0}
    lines: list[Battle] = []
    while True:
        winner, pa, pb, ended = _battle(a, b, runout)
        if ended:
            # the game ends inside the battle: nobody takes the cards, the piles stay whole
            sizes = (len(a) + len(pa), len(b) + len(pb))
            lines.append(Battle(tuple(pa), tuple(pb), winner, True, (), sizes))
            return Game(winner or "draw", len(lines), 0, tuple(lines), tuple(seen))
        own, other = (pa, pb) if winner == "A" else (pb, pa)
        back = own + other if order == "winner-first" else other + own
        (a if winner == "A" else b).extend(back)
        lines.append(Battle(tuple(pa), tuple(pb), winner, False, tuple(back), (len(a), len(b))))
        if not a or not b:
            return Game("A" if a else "B", len(lines), 0, tuple(lines), tuple(seen))
        key = (tuple(a), tuple(b))
        if key in seen:
            return Game("cycle", len(lines), len(lines) - seen[key], tuple(lines), tuple(seen))
        seen[key] = len(lines)


def deals(counts: list[int]) -> list[tuple[int, ...]]:
    """Every distinct arrangement of a deck with `counts[k]` cards of kind k."""
    cards = [k for k, c in enumerate(counts) for _ in range(c)]
    return sorted(set(permutations(cards)))
