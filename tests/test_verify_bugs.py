"""The verifier must be able to fail: rule bugs seeded one at a time into a copy of the Python
model (a GameState subclass; rules/ is untouched) must each make `verify` report a failure."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.mutton_bugs import (
    CorpsesDoNotBlock,
    FarmerPassesAfterWolfPass,
    KillerNeedNotRun,
    KillNextToNoWolf,
    RunnersMayStayAdjacent,
)

from fleece.rules.mutton.game import GameState
from fleece.verify.mutton import VerifyConfig, run

SECTIONS = frozenset({"crosscheck"})


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
    from fleece.rules.mutton.options import MuttonOptions

    cfg = VerifyConfig(rules=MuttonOptions(size=2, num_sheep=7, num_wolves=3), quick=True,
                       sections=frozenset({"termination"}))
    rep = run(replace(cfg, model=FarmerPassesAfterWolfPass))
    assert not rep.ok and rep.failures()
    assert all(r.section == "termination" and r.outcome == "FAILED" and r.expected == "PROVED"
               and "repeats forever" in r.witness for r in rep.failures())
    control = run(cfg)
    assert control.ok and {r.outcome for r in control.results} == {"PROVED"}
