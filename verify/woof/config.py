"""What a Woof!! verification run checks: its sections and configuration."""

from __future__ import annotations

from dataclasses import dataclass, field

from fleece.rules.woof.cards import DEFAULT_DOG_SECOND_TARGET, Character
from fleece.rules.woof.round import WoofRound
from fleece.rules.woof.scoring import Game
from fleece.verify.budget import DEFAULT_TIMEOUT_MS

SECTIONS: tuple[tuple[str, str], ...] = (
    ("cards", "Characters, looks, answers (W1-W5)"),
    ("scoring", "Scoring (W8, W9)"),
    ("example", "The rulebook's example (W8, W9)"),
    ("ends", "Round and game ends (W3, W6, W7, W10)"),
    ("tokens", "Token supply (W11)"),
    ("crosscheck", "Python model vs Z3 encoding"),
)
ALL_SECTIONS = frozenset(key for key, _ in SECTIONS)


@dataclass(frozen=True)
class VerifyConfig:
    """What to verify: quick or full; the Dog's assumed second target (W2, any character but
    the Dog) under test; the Python models under test (the round class and the game class,
    replaceable by tests that seed rule bugs); the sections; the seed and number of random
    rounds of the cross-check (None: 12 quick, 150 full); the budget of each Z3 query."""

    quick: bool = False
    dog_target: Character = DEFAULT_DOG_SECOND_TARGET
    model: type[WoofRound] = WoofRound
    game_model: type[Game] = Game
    sections: frozenset[str] = field(default=ALL_SECTIONS)
    seed: int = 1
    rounds: int | None = None
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def __post_init__(self) -> None:
        if self.dog_target is Character.DOG:
            raise ValueError("the Dog's second target cannot be the Dog: W8's '0: no seat has "
                             "it' would be ambiguous for a Dog looking for a Dog")

    @property
    def round_count(self) -> int:
        """Random rounds the cross-check plays."""
        if self.rounds is not None:
            return self.rounds
        return 12 if self.quick else 150
