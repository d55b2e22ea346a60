"""Exact answers of Mutton puzzles: the chart as bit masks, counting the consistent wolf sets,
the question and its answer, the removable clues and minimality.

A puzzle is a Farmer's chart (M25) plus the number of wolves and a question: name all the
wolves (exactly one consistent wolf set) or name every animal that is certainly a wolf. Clues
are the chart's rounds and its standalone status marks (`x`/`w`/`e` of animals that are not
the victim of a kept round). The counter here is specialised to puzzle charts (reveal, no
counters but K) and is cross-checked against the solver's exact engine by a property test.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from math import comb

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import Chart, ChartRow, Status


class MuttonQuestion(Enum):
    """What the puzzle asks."""

    ALL = "all"  # name all the wolves: exactly one consistent wolf set
    CERTAIN = "certain"  # name every animal not shown as a wolf that is certainly a wolf

    def text(self, wolves: int) -> str:
        """The question as printed in a puzzle file."""
        if self is MuttonQuestion.ALL:
            return f"Name all {wolves} wolves."
        return "Name every animal not marked w that is certainly a wolf."


Clue = ChartRow | str  # a round, or the letter of a standalone status mark
MIN_ROUNDS = 2  # a puzzle about a chart should need at least two of its rounds


# ---- the chart as bit masks -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Masks:
    """A chart's constraints as bit masks (bit i = animal i): exact and fast to count."""

    n: int
    k: int
    wolf: int  # shown as a dead or escaped wolf
    sheep: int  # shown as a dead sheep
    rounds: tuple[int, ...]  # runners of each round

    @classmethod
    def of(cls, chart: Chart, k: int) -> Masks:
        """Masks of a chart with `k` wolves; `x` read as a dead sheep (reveal)."""
        wolf = sheep = 0
        for i, st in enumerate(chart.status):
            if st in (Status.DEAD_WOLF, Status.ESCAPED):
                wolf |= 1 << i
            elif st is Status.DEAD_SHEEP:
                sheep |= 1 << i
        idx = {a: i for i, a in enumerate(chart.animals)}
        rounds = tuple(sum(1 << idx[a] for a in r.runners) for r in chart.rows)
        return cls(len(chart.animals), k, wolf, sheep, rounds)


def _count(rounds: Sequence[int], k: int, must: int, never: int, full: int,
           limit: int | None) -> int:
    """Number of k-sets containing `must`, avoiding `never`, meeting every round (branching on the
    most constrained open round; the branches partition the sets, leaves counted by binomials)."""
    r = k - must.bit_count()
    if r < 0:
        return 0
    best = -1
    best_n = 99
    open_rounds = []
    for rm in rounds:
        if rm & must:
            continue
        c = rm & ~never
        if not c:
            return 0
        open_rounds.append(c)
        cn = c.bit_count()
        if cn < best_n:
            best, best_n = c, cn
    if best < 0:
        return comb((full & ~must & ~never).bit_count(), r)
    if r == 0:
        return 0
    total = 0
    excl = never
    c = best
    while c:
        bit = c & -c
        c ^= bit
        total += _count(open_rounds, k, must | bit, excl, full, limit)
        excl |= bit
        if limit is not None and total >= limit:
            return total
    return total


def count_sets(m: Masks, *, must: int = 0, never: int = 0, limit: int | None = None) -> int:
    """Exact number of consistent wolf sets (stops early once `limit` is reached)."""
    must |= m.wolf
    never |= m.sheep
    if must & never:
        return 0
    return _count(m.rounds, m.k, must, never, (1 << m.n) - 1, limit)


def iter_sets(m: Masks) -> Iterator[int]:
    """Every consistent wolf set as a bit mask (same branching as `count_sets`)."""
    full = (1 << m.n) - 1

    def rec(rounds: Sequence[int], must: int, never: int) -> Iterator[int]:
        r = m.k - must.bit_count()
        if r < 0:
            return
        open_rounds = [rm & ~never for rm in rounds if not rm & must]
        if any(not c for c in open_rounds):
            return
        if not open_rounds:
            free = [1 << i for i in range(m.n) if (full & ~must & ~never) >> i & 1]
            yield from _combos(free, r, must)
            return
        if r == 0:
            return
        best = min(open_rounds, key=int.bit_count)
        excl = never
        c = best
        while c:
            bit = c & -c
            c ^= bit
            yield from rec(open_rounds, must | bit, excl)
            excl |= bit

    if not m.wolf & m.sheep:
        yield from rec(m.rounds, m.wolf, m.sheep)


def _combos(free: list[int], r: int, base: int) -> Iterator[int]:
    if r == 0:
        yield base
        return
    for i in range(len(free) - r + 1):
        yield from _combos(free[i + 1:], r - 1, base | free[i])


def brute_force_sets(chart: Chart, k: int) -> list[frozenset[str]]:
    """Every consistent wolf set by plain enumeration of k-subsets (an independent cross-check)."""
    from itertools import combinations

    wolves = {a for a, s in zip(chart.animals, chart.status, strict=True)
              if s in (Status.DEAD_WOLF, Status.ESCAPED)}
    sheep = {a for a, s in zip(chart.animals, chart.status, strict=True)
             if s is Status.DEAD_SHEEP}
    out = []
    for combo in combinations(chart.animals, k):
        s = set(combo)
        if wolves <= s and not s & sheep and all(s & (r.runners - sheep) for r in chart.rows):
            out.append(frozenset(s))
    return out


def letters_of(mask: int, animals: str) -> list[str]:
    """The letters of a bit mask, in chart order."""
    return [a for i, a in enumerate(animals) if mask >> i & 1]


# ---- answers, clues, minimality ----------------------------------------------------------------


def answer(chart: Chart, k: int, question: MuttonQuestion) -> frozenset[str] | None:
    """The puzzle's answer, or None when the question has none (ambiguous, empty, inconsistent).

    ALL: the one consistent wolf set. CERTAIN: the animals not marked as wolves that are wolves
    in every consistent set (None when there is no such animal or only one set)."""
    m = Masks.of(chart, k)
    if question is MuttonQuestion.ALL:
        if count_sets(m, limit=2) != 1:
            return None
        only = next(iter_sets(m))
        return frozenset(letters_of(only, chart.animals))
    if count_sets(m, limit=2) < 2:
        return None
    certain = [a for i, a in enumerate(chart.animals)
               if not (m.wolf | m.sheep) >> i & 1 and count_sets(m, never=1 << i, limit=1) == 0]
    return frozenset(certain) or None


def _answer_is(chart: Chart, k: int, question: MuttonQuestion, ans: frozenset[str]) -> bool:
    """Fast test that the answer of `chart` is exactly `ans` (for clue removal)."""
    m = Masks.of(chart, k)
    if question is MuttonQuestion.ALL:
        return count_sets(m, limit=2) == 1
    idx = {a: i for i, a in enumerate(chart.animals)}
    for a in ans:
        if chart.status_of(a) is not Status.ALIVE or count_sets(m, never=1 << idx[a], limit=1):
            return False
    return answer(chart, k, question) == ans


def clues(chart: Chart) -> list[Clue]:
    """The removable clues: every round, and every status mark that no kept round needs."""
    victims = {r.victim for r in chart.rows}
    marks = [a for a, s in zip(chart.animals, chart.status, strict=True)
             if s is not Status.ALIVE and a not in victims]
    return [*chart.rows, *marks]


def without(chart: Chart, clue: Clue) -> Chart:
    """The chart with one clue removed (a status mark becomes a plain letter: fate not given)."""
    if isinstance(clue, ChartRow):
        return replace(chart, rows=tuple(r for r in chart.rows if r != clue))
    if any(r.victim == clue for r in chart.rows):
        raise ValueError(f"{clue} is the victim of a kept round")
    i = chart.animals.index(clue)
    status = (*chart.status[:i], Status.ALIVE, *chart.status[i + 1:])
    return replace(chart, status=status)


def redundant_clues(chart: Chart, k: int, question: MuttonQuestion) -> list[Clue]:
    """Clues whose removal leaves the answer unchanged (empty for a minimal puzzle)."""
    ans = answer(chart, k, question)
    if ans is None:
        raise FleeceError("the puzzle has no unique answer")
    return [c for c in clues(chart) if answer(without(chart, c), k, question) == ans]


def renumbered(chart: Chart) -> Chart:
    """The chart with rounds numbered 1, 2, ... and no board or score (a puzzle's chart)."""
    rows = tuple(ChartRow(i, r.victim, r.runners) for i, r in enumerate(chart.rows, start=1))
    return Chart(chart.animals, chart.status, rows, reveal=True)
