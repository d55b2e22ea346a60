"""The vocabulary of the Mutton solver: a `Fact` is one constraint on the wolf set W with its
origin in words, and the sentences that describe chart rows and deaths.

Every engine (fast, csp, smt, brute force) counts the wolf sets satisfying the same facts; the
facts themselves are derived from what the Farmer knows in solver.mutton.problem (the
D-clauses listed there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from fleece.rules.mutton.chart import Chart, ChartRow

# ---- constraints -------------------------------------------------------------------------


class Kind(Enum):
    """The shape of a fact's constraint."""

    WOLF = "wolf"  # the animal is in W
    SHEEP = "sheep"  # the animal is not in W
    AT_LEAST_ONE = "at least one"  # W meets `animals` (a chart row)
    COUNT = "count"  # lo <= |W & animals| <= hi
    WORDS = "words"  # W is one of `words`


@dataclass(frozen=True)
class Fact:
    """One piece of the Farmer's knowledge: a constraint on W with its origin in words.

    `key` is stable and short (`row 2`, `status D`, `wolves`, `running`, `score`,
    `dictionary`, `pass 7 B`); `clause` is the D-clause of this module; `text` is a sentence
    for a person.
    """

    key: str
    clause: str
    text: str
    kind: Kind
    animals: frozenset[str] = frozenset()
    lo: int = 0
    hi: int = 0
    words: frozenset[frozenset[str]] | None = field(default=None, compare=False)

    def holds(self, wolves: frozenset[str] | set[str]) -> bool:
        """True when the wolf set satisfies this fact (the reference semantics)."""
        if self.kind is Kind.WOLF:
            return next(iter(self.animals)) in wolves
        if self.kind is Kind.SHEEP:
            return next(iter(self.animals)) not in wolves
        if self.kind is Kind.AT_LEAST_ONE:
            return not self.animals.isdisjoint(wolves)
        if self.kind is Kind.COUNT:
            return self.lo <= len(self.animals & wolves) <= self.hi
        assert self.words is not None
        return frozenset(wolves) in self.words

    @property
    def animal(self) -> str:
        """The animal of a WOLF or SHEEP fact."""
        return next(iter(self.animals))


# ---- sentences ---------------------------------------------------------------------------------


def eaten_in(chart: Chart) -> dict[str, int]:
    """Victim letter -> the round it was eaten in."""
    return {row.victim: row.round for row in chart.rows}


def _and(names: list[str]) -> str:
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def join_letters(letters: list[str] | set[str] | frozenset[str]) -> str:
    """`C, D and S`."""
    return _and(sorted(letters))


def death_words(chart: Chart, letter: str) -> str:
    """`was eaten in round 2` or `was shot` (a dead animal that is no row's victim was shot, or
    devoured after a berserk volley, which ends the game)."""
    rnd = eaten_in(chart).get(letter)
    return f"was eaten in round {rnd}" if rnd is not None else "was shot"


def row_text(row: ChartRow) -> str:
    """`round 2: J was eaten; C, D and S ran, so the killer is one of them`."""
    runners = sorted(row.runners)
    if len(runners) == 1:
        return (f"round {row.round}: {row.victim} was eaten and only {runners[0]} ran, so "
                f"{runners[0]} is the killer")
    return (f"round {row.round}: {row.victim} was eaten; {_and(runners)} ran, so the killer "
            "is one of them")
