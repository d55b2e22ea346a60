"""What every robot is: a Farmer or a Wolf that, given a game state where its side is to
move, returns one legal move. Robots are deterministic given their seed (each keeps its own
`random.Random`, never the global one)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    FarmerPass,
    Kill,
    Move,
    Run,
    Shoot,
    Side,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton.bots.lookahead import Choice


class Bot(ABC):
    """A robot for one side. `name` is its registry name (`random`, `v2`, `fleece`)."""

    name: str = ""
    side: Side = Side.FARMER

    def __init__(self, rules: MuttonOptions, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def move(self, state: GameState) -> Move:
        """A legal move for this robot's side at `state` (the side must be to move)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class WolfBot(Bot):
    """A Wolf robot: it also chooses the wolves when a game starts (M6)."""

    side = Side.WOLF

    def choose_wolves(self, state: GameState) -> ChooseWolves:
        """A uniformly random allowed wolf set (every robot hides its wolves this way)."""
        return random_wolves(state.rules, self.rng)


def random_wolves(rules: MuttonOptions, rng: random.Random) -> ChooseWolves:
    """A uniformly random allowed wolf set: K of the animals, or a word of the dictionary."""
    if rules.dictionary is not None:
        pool = frozenset(rules.letters)
        usable = sorted("".join(sorted(w)) for w in rules.dictionary
                        if len(w) == rules.num_wolves and w <= pool)
        return ChooseWolves(rng.choice(usable))
    return ChooseWolves("".join(sorted(rng.sample(rules.letters, rules.num_wolves))))


def farmer_move(state: GameState, choice: Choice) -> Move:
    """The rules-model move of a Farmer choice of the lookahead."""
    letters = state.letters
    if choice.kind == "pass":
        return FarmerPass()
    if choice.kind == "berserk":
        return Berserk(tuple(letters[a] for a in choice.targets))
    cells = state.board.cells
    runs = tuple(Run(letters[a], cells[c]) for a, c in choice.runs)
    return Shoot(letters[choice.targets[0]], runs)


def kill_move(state: GameState, victim: str, runners: tuple[str, ...],
              cells: tuple[int, ...]) -> Kill:
    """A kill with each runner sent to the cell of the same position in `cells`."""
    board_cells = state.board.cells
    return Kill(victim, tuple(Run(a, board_cells[c]) for a, c in zip(runners, cells,
                                                                       strict=True)))
