"""Mutton rule bugs planted in a copy of the Python model (a GameState subclass; rules/ stays
untouched), shared by the verifier tests that must see them caught."""

from __future__ import annotations

from dataclasses import replace

from fleece.rules.mutton.game import GameState, KillOption, Phase
from fleece.rules.mutton.geometry import Cell
from fleece.rules.mutton.moves import FarmerMove, FarmerPass


class FarmerPassesAfterWolfPass(GameState):
    """Bug: the Farmer may pass right after a Wolf pass (breaks M14, and M24's argument)."""

    def _farmer(self, move: FarmerMove) -> GameState:
        if isinstance(move, FarmerPass) and self.wolf_passed:
            return replace(self, wolf_passed=False)._farmer(move)
        return super()._farmer(move)


class RunnersMayStayAdjacent(GameState):
    """Bug: runners may stop next to the corpse (breaks M9)."""

    def _free_cells_around(self, centre: Cell, occ: dict[Cell, str], runners: set[str]
                           ) -> tuple[Cell, ...]:
        return tuple(c for c in self.board.cells if c != centre and c not in self.corpses
                     and (occ.get(c) is None or occ[c] in runners))


class KillerNeedNotRun(GameState):
    """Bug: the hidden wolves next to the victim (the killer) stay put (breaks M9)."""

    def _option_for(self, victim: str, occ: dict[Cell, str]) -> KillOption:
        opt = super()._option_for(victim, occ)
        keep = tuple(a for a in opt.runners if a not in self.hidden_wolves())
        return KillOption(opt.victim, keep, opt.free_cells)


class CorpsesDoNotBlock(GameState):
    """Bug: runners may land on a corpse (breaks M9)."""

    def _free_cells_around(self, centre: Cell, occ: dict[Cell, str], runners: set[str]
                           ) -> tuple[Cell, ...]:
        near = self.board.neighbours(centre)
        return tuple(c for c in self.board.cells if c != centre and c not in near
                     and (occ.get(c) is None or occ[c] in runners))


class KillNextToNoWolf(GameState):
    """Bug: any living animal may be eaten, wolf neighbour or not (breaks M8)."""

    def kill_candidates(self) -> list[KillOption]:
        if self.phase is not Phase.WOLF:
            return []
        occ = self.occupant()
        return [self._option_for(v, occ) for v in self.living()]
