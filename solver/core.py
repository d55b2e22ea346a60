"""What every game's solver shares: the engine names and their dispatch, and the search for a
minimal set of facts that contradict each other.

Engines have the same names in every game: `fast` (the exact algorithm written for the game),
`csp` (python-constraint) and `smt` (z3), where they exist. `minimal_core` is the one
deletion-based routine behind Mutton's inconsistent charts and Woof!!'s contradicting
evidence lines; it runs QuickXplain (Junker, 2004), which finds the same minimal core as
deleting facts one by one in preference order but with O(k log(n/k)) consistency checks for a
core of k facts among n instead of n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TypeVar

from fleece.rules.errors import FleeceError


class Engine(StrEnum):
    """The engines, with the same names in every game that has them."""

    FAST = "fast"
    CSP = "csp"
    SMT = "smt"


ENGINE_NAMES = tuple(e.value for e in Engine)

T = TypeVar("T")


def check_engine(name: str, available: Sequence[str] = ENGINE_NAMES) -> Engine:
    """The engine named (any case, surrounding blanks ignored), or FleeceError (field
    `engine`) listing the engines this game has."""
    low = name.strip().lower()
    if low not in available:
        raise FleeceError(f"choose one of {', '.join(available)}", field="engine",
                          value=name[:30])
    return Engine(low)


def minimal_core(items: Sequence[T], consistent: Callable[[list[T]], bool]) -> list[T]:
    """A minimal inconsistent subset of `items` (every element is needed: removing any one
    makes the rest consistent), given `consistent(subset)` and an inconsistent `items`.

    `items` are in order of preference to drop: the result is the core that deleting items one
    at a time from the first to the last would leave (the first items are dropped whenever
    the rest stays inconsistent). It is computed by QuickXplain over the reversed order, in
    O(k log(n/k)) calls of `consistent`. The result keeps the order of `items`."""
    keep_first = list(reversed(items))  # QuickXplain keeps the earliest items it can
    core = _quickxplain([], keep_first, consistent) if consistent([]) else []
    position = {id(x): i for i, x in enumerate(items)}
    return sorted(core, key=lambda x: position[id(x)])


def _quickxplain(background: list[T], items: list[T], consistent: Callable[[list[T]], bool]
                 ) -> list[T]:
    """Junker's QuickXplain: the preferred conflict of `items` given `background`."""

    def qx(base: list[T], delta: bool, cs: list[T]) -> list[T]:
        if delta and not consistent(base):
            return []
        if len(cs) == 1:
            return list(cs)
        half = len(cs) // 2
        first, second = cs[:half], cs[half:]
        d2 = qx(base + first, bool(first), second)
        d1 = qx(base + d2, bool(d2), first)
        return d1 + d2

    if not items:
        return []
    return qx(background, False, items)
