"""`fleece verify --game ulvtafl`: the quick run passes with every clause U1-U10 traced; the
gap U7 settles gates a variant without it (ULV-NO-END, --accept); five seeded rule bugs in
the Python model each make verification fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.clirun import invoke

from fleece.rules.ulvtafl.game import Rules
from fleece.rules.ulvtafl.geometry import BY_NAME, NAMES, PADDOCK, STEPS, rank_of
from fleece.verify.ulvtafl import VerifyConfig, run
from fleece.verify.ulvtafl.under_test import PythonModel

Moves = set[tuple[tuple[str, ...], bool]]


def test_u1_u10_quick_verification_passes_and_traces_every_clause() -> None:
    rep = run(VerifyConfig(quick=True, samples=2))
    assert rep.ok, [(r.ident, r.outcome, r.detail) for r in rep.failures()]
    assert {row.clause for row in rep.trace} == {f"U{i}" for i in range(1, 11)}
    assert all(row.covered for row in rep.trace)
    info = next(r for r in rep.results if r.ident == "gaps/no-end-without-u7")
    assert info.data["gap"] == "ULV-NO-END" and "repeats a position" in info.witness


def test_u7_the_no_end_gap_gates_a_variant_without_the_repetition_rule() -> None:
    rep = run(VerifyConfig(rules=Rules(repetition_draw=False), sections=frozenset({"gaps"})))
    assert not rep.ok and [g.id for g in rep.open_gaps()] == ["ULV-NO-END"]
    gap = rep.gaps()[0]
    assert gap.clause == "U7" and gap.record.startswith("setup=20 no-repetition-draw")
    assert rep.with_accepted(["ULV-NO-END"]).ok


class BackwardSheep(PythonModel):
    """Bug 1: sheep may also step backward (U3 forbids it)."""

    def moves(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
              side: int) -> Moves:
        out = super().moves(rules, sheep, wolves, side)
        if side == 1:
            for name in sheep:
                for s in STEPS[BY_NAME[name]]:
                    if s.dy < 0 and not s.diagonal and NAMES[s.to] not in sheep | wolves:
                        out.add(((name, NAMES[s.to]), False))
        return out


class OptionalCapture(PythonModel):
    """Bug 2: the wolves may step even when a capture exists (U4 makes it compulsory)."""

    def moves(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
              side: int) -> Moves:
        out = super().moves(rules, sheep, wolves, side)
        if side == 0 and any(c for _, c in out):
            for name in wolves:
                for s in STEPS[BY_NAME[name]]:
                    if NAMES[s.to] not in sheep | wolves:
                        out.add(((name, NAMES[s.to]), False))
        return out


class ChainStopsEarly(PythonModel):
    """Bug 3: a capture chain may stop while the wolf can still jump (U4, U10)."""

    def moves(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
              side: int) -> Moves:
        out = super().moves(rules, sheep, wolves, side)
        out |= {(path[:k], True) for path, cap in list(out) if cap
                for k in range(2, len(path))}
        return out


class LandOnOccupied(PythonModel):
    """Bug 4: a wolf may step onto an occupied point (U3 needs it empty)."""

    def moves(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
              side: int) -> Moves:
        out = super().moves(rules, sheep, wolves, side)
        if side == 0 and not any(c for _, c in out):
            for name in wolves:
                for s in STEPS[BY_NAME[name]]:
                    if NAMES[s.to] in sheep:
                        out.add(((name, NAMES[s.to]), False))
        return out


class PaddockOnlySheep(PythonModel):
    """Bug 5: only sheep fill the paddock (U5 counts wolves too)."""

    def end(self, rules: Rules, sheep: frozenset[str], wolves: frozenset[str],
            side: int) -> str | None:
        if len(sheep) >= 9 and all(n in sheep or n in wolves for n in _paddock()) \
                and not all(n in sheep for n in _paddock()):
            moves = self.moves(rules, sheep, wolves, side)
            return None if moves else ("sheep" if side == 0 else "wolves")
        return super().end(rules, sheep, wolves, side)


def _paddock() -> list[str]:
    return [NAMES[p] for p in range(33) if PADDOCK >> p & 1]


@pytest.mark.parametrize(("bug", "failing"), [
    (BackwardSheep, "crosscheck/legal-moves"),
    (OptionalCapture, "crosscheck/legal-moves"),
    (ChainStopsEarly, "crosscheck/legal-moves"),
    (LandOnOccupied, "crosscheck/legal-moves"),
    (PaddockOnlySheep, "claims/wolves-in-paddock-python"),
], ids=lambda x: x.__name__ if isinstance(x, type) else x)
def test_seeded_rule_bugs_make_verification_fail(bug: type[PythonModel], failing: str) -> None:
    """Each bug fails the run, in the check that should catch it; the reference model
    passes the same sections."""
    sections = frozenset({failing.split("/")[0]})
    rep = run(VerifyConfig(model=bug(), sections=sections, samples=0))
    assert not rep.ok
    assert failing in {r.ident for r in rep.failures()}
    assert rank_of(0) == 1  # the geometry helpers the bugs use are the reference ones


def test_the_reference_model_passes_the_sections_the_bugs_fail() -> None:
    rep = run(VerifyConfig(sections=frozenset({"claims", "crosscheck"}), samples=0))
    assert rep.ok, [(r.ident, r.detail, r.witness) for r in rep.failures()]


def test_verify_command_line(tmp_path: Path) -> None:
    r = invoke(["verify", "--game", "ulvtafl", "--quick", "--section", "geometry",
                "--report", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "ulvtafl-verification.md").exists() or any(tmp_path.iterdir())
    bad = invoke(["verify", "--game", "ulvtafl", "--accept", "ULV-NOPE", "--report",
                  str(tmp_path)])
    assert bad.exit_code == 2 and "never reports this gap" in bad.stderr
