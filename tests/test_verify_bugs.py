"""The verifier must be able to fail: rule bugs seeded one at a time into a copy of the Python
model (a GameState subclass; rules/ is untouched) must each make `verify` report a failure."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.mutton_bugs import FarmerPassesAfterWolfPass

from fleece.rules.mutton.game import GameState, KillOption, Phase
from fleece.rules.mutton.geometry import Cell
from fleece.verify.mutton import VerifyConfig, run

SECTIONS = frozenset({"crosscheck"})


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


BUGS = [RunnersMayStayAdjacent, KillerNeedNotRun, CorpsesDoNotBlock, KillNextToNoWolf,
        FarmerPassesAfterWolfPass]


@pytest.mark.parametrize("bug", BUGS, ids=lambda b: b.__name__)
def test_verify_reports_each_seeded_m8_m9_m14_bug(bug: type[GameState]) -> None:
    """Each seeded bug (M8, M9, M14) makes the quick verification fail in the cross-check."""
    rep = run(VerifyConfig(quick=True, model=bug, sections=SECTIONS))
    assert not rep.ok
    failed = [r for r in rep.failures() if r.section == "crosscheck"]
    assert failed, [r.ident for r in rep.results]
    assert all(r.outcome == "FAILED" and r.witness for r in failed)


def test_verify_passes_the_reference_model_on_the_same_sections() -> None:
    """Control: the unmodified model passes the very checks the bugs fail (M8-M14)."""
    rep = run(VerifyConfig(quick=True, sections=SECTIONS))
    assert rep.ok, [(r.ident, r.detail) for r in rep.failures()]
    assert {r.section for r in rep.results} == set(SECTIONS)


def test_m24_m14_verify_run_fails_a_model_whose_games_need_not_end() -> None:
    """M24 and M14: with the Farmer allowed to pass after a Wolf pass, the termination
    section fails (the expectation PROVED comes from M24, not from the outcome) with the
    repeating play as witness; the reference model passes the same run."""
    from fleece.rules.mutton.options import RuleSet

    cfg = VerifyConfig(rules=RuleSet(size=2, num_sheep=7, num_wolves=3), quick=True,
                       sections=frozenset({"termination"}))
    rep = run(replace(cfg, model=FarmerPassesAfterWolfPass))
    assert not rep.ok and rep.failures()
    assert all(r.section == "termination" and r.outcome == "FAILED" and r.expected == "PROVED"
               and "repeats forever" in r.witness for r in rep.failures())
    control = run(cfg)
    assert control.ok and {r.outcome for r in control.results} == {"PROVED"}
