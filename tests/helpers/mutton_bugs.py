"""Mutton rule bugs planted in a copy of the Python model (a GameState subclass; rules/ stays
untouched), shared by the verifier tests that must see them caught."""

from __future__ import annotations

from dataclasses import replace

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import FarmerMove, FarmerPass


class FarmerPassesAfterWolfPass(GameState):
    """Bug: the Farmer may pass right after a Wolf pass (breaks M14, and M24's argument)."""

    def _farmer(self, move: FarmerMove) -> GameState:
        if isinstance(move, FarmerPass) and self.wolf_passed:
            return replace(self, wolf_passed=False)._farmer(move)
        return super()._farmer(move)
