"""The Python model under test, as verification sees it: legal moves and end checks of a
position given by point names. The default is the reference model (fleece.rules.ulvtafl);
tests substitute models with seeded rule bugs to show that verification catches them."""

from __future__ import annotations

from fleece.rules.ulvtafl.game import Rules, end_of, generate
from fleece.rules.ulvtafl.geometry import BY_NAME, NAMES


class PythonModel:
    """Adapter over fleece.rules.ulvtafl.game; subclasses may override `moves` and `end`."""

    name = "fleece.rules.ulvtafl.game"

    def moves(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
              side: int) -> set[tuple[tuple[str, ...], bool]]:
        """Every legal move as (path of point names, capture?)."""
        s, w = _mask(sheep), _mask(wolves)
        return {(tuple(NAMES[p] for p in m.path), m.capture)
                for m in generate(rules, s, w, side)}

    def end(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
            side: int) -> str | None:
        """U10's end checks: "wolves", "sheep" or None."""
        found = end_of(rules, _mask(sheep), _mask(wolves), side)
        return found[0] if found else None


def _mask(names: frozenset[str]) -> int:
    m = 0
    for n in names:
        m |= 1 << BY_NAME[n]
    return m
