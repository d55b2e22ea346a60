"""What a card-games verification run checks: its sections and configuration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fleece.rules.cards.concentration import ConcState
from fleece.rules.cards.herd import HerdState
from fleece.rules.cards.war import BattleResult, Order, Pile, Runout, battle

SECTIONS: tuple[tuple[str, str], ...] = (
    ("rules", "Card effects and battles against docs/rules.md (every small situation)"),
    ("conservation", "Conservation: every card in exactly one place"),
    ("termination", "Termination and rules gaps (gate)"),
    ("literature", "Published results"),
)
ALL_SECTIONS = frozenset(key for key, _ in SECTIONS)

BattleFn = Callable[[Pile, Pile, Runout], BattleResult]


@dataclass(frozen=True)
class VerifyConfig:
    """What to verify: quick or full; the War order of the variant under test; the models
    under test (a War battle function, the herd and Concentration state classes, replaceable
    by tests that seed rule bugs); the sections; a seed for the random-play checks."""

    quick: bool = False
    order: Order = Order.WINNER_FIRST
    runout: Runout = Runout.LOSE
    war_battle: BattleFn = battle
    herd_model: type[HerdState] = HerdState
    conc_model: type[ConcState] = ConcState
    sections: frozenset[str] = field(default=ALL_SECTIONS)
    seed: int = 1


