"""The random robots: uniformly random legal play (rules.mutton.simulate.random_move), the
floor every other robot should beat."""

from __future__ import annotations

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import Move
from fleece.rules.mutton.simulate import FarmerPolicy, random_move
from fleece.solver.mutton.bots.base import Bot, WolfBot

#: The random Farmer passes half the time when it may, and never goes berserk (a random
#: volley ends nearly every game with the flock eaten, which says nothing about the others).
RANDOM_FARMER = FarmerPolicy(p_pass=0.5, p_berserk=0.0)


class RandomFarmer(Bot):
    """Passes (when allowed) with probability 1/2, else shoots a uniformly random animal."""

    name = "random"

    def move(self, state: GameState) -> Move:
        return random_move(state, self.rng, RANDOM_FARMER)


class RandomWolf(WolfBot):
    """A uniformly random legal kill with uniformly random runner destinations; with the
    escape option an isolated wolf escapes with probability 3/10 (always when no kill)."""

    name = "random"

    def move(self, state: GameState) -> Move:
        return random_move(state, self.rng)
