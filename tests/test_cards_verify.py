"""`fleece verify --game cards`: the quick run in the suite, its rules gaps (found with
witnesses, failing the run unless accepted), and seeded rule bugs that each make it fail."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers.clirun import invoke

from fleece.rules.cards.concentration import ConcMove, ConcState, Flip
from fleece.rules.cards.herd import (
    CROOK,
    WOLF1,
    Attack,
    Crook,
    Herd,
    HerdMove,
    HerdState,
    PlayFence,
)
from fleece.rules.cards.war import BattleResult, Pile, Runout
from fleece.verify.cards import GAPS, VerifyConfig, run
from fleece.verify.result import GAP

ALL_GAPS = ["CARDS-WAR-CYCLE", "CARDS-HERD-ENDLESS", "CARDS-CONC-ENDLESS"]


@pytest.fixture(scope="module")
def quick_report() -> object:
    return run(VerifyConfig(quick=True))


def test_k1_k4_quick_verification_passes_with_its_gaps_accepted(quick_report: object) -> None:
    """Every check as docs/rules.md expects; the three gaps are found (K2 cycles, K3 crook loop,
    K4 endless passing) and gate the run until accepted."""
    from fleece.verify.report import Report

    assert isinstance(quick_report, Report)
    assert not quick_report.ok
    assert sorted(g.id for g in quick_report.gaps()) == sorted(ALL_GAPS)
    assert set(GAPS) == set(ALL_GAPS)
    assert not quick_report.unknowns()
    accepted = quick_report.with_accepted(ALL_GAPS)
    assert accepted.ok, [r.ident for r in accepted.failures()]
    covered = {row.clause for row in quick_report.trace if row.covered}
    assert covered == {"K1", "K2", "K3", "K4"}


def test_k2_war_gap_witness_is_a_real_cycle(quick_report: object) -> None:
    from fleece.rules.cards.war import WAR

    gap = next(g for g in quick_report.gaps() if g.id == "CARDS-WAR-CYCLE")  # type: ignore[attr-defined]
    state = WAR.parse_position(gap.record)
    while not state.is_terminal():
        state = state.play(next(state.legal_moves()))
    assert state.outcome is not None and state.outcome.value == "cycle"


def test_random_order_has_no_war_gap() -> None:
    from fleece.rules.cards.war import Order

    rep = run(VerifyConfig(quick=True, order=Order.RANDOM, sections=frozenset({"termination"})))
    assert "CARDS-WAR-CYCLE" not in {g.id for g in rep.gaps()}
    assert next(r for r in rep.results if r.name == "war-ends").outcome == "PROVED"


# ---- seeded rule bugs ------------------------------------------------------------------


def no_face_down(a: Pile, b: Pile, runout: Runout = Runout.LOSE) -> BattleResult:
    """Bug: a war adds only a face-up card (no face-down card)."""
    i = 0
    while a[i] == b[i]:
        if i + 1 >= len(a) or i + 1 >= len(b):
            return BattleResult(None, (a[:i + 1], b[:i + 1]), True)
        i += 1
    return BattleResult(0 if a[i] > b[i] else 1, (a[:i + 1], b[:i + 1]), False)


class PairEatsThree(HerdState):
    """Bug: two one-Wolves eat a three-sheep card."""

    def playable(self) -> list[HerdMove]:
        moves = super().playable()
        if self.hands[self.to_move][WOLF1] >= 2:
            for q, h in enumerate(self.herds):
                if q != self.to_move and h.open[2]:
                    moves.append(Attack(q, 3, (1, 1)))
        return moves


class FenceOthers(HerdState):
    """Bug: a fence may go on another player's unfenced sheep."""

    def playable(self) -> list[HerdMove]:
        moves = super().playable()
        if self.hands[self.to_move][0]:
            for v in (1, 2, 3):
                if not self.herds[self.to_move].open[v - 1] and any(
                        h.open[v - 1] for q, h in enumerate(self.herds) if q != self.to_move):
                    moves.append(PlayFence(v))
        return moves

    def _apply(self, move: HerdMove) -> HerdState:
        p = self.to_move
        if isinstance(move, PlayFence) and not self.herds[p].open[move.value - 1]:
            q = next(q for q, h in enumerate(self.herds)
                     if q != p and h.open[move.value - 1])
            herds = list(self.herds)
            h = herds[q]
            o, f = list(h.open), list(h.fenced)
            o[move.value - 1] -= 1
            f[move.value - 1] += 1
            herds[q] = Herd((o[0], o[1], o[2]), (f[0], f[1], f[2]))
            hand = list(self.hands[p])
            hand[0] -= 1
            hands = list(self.hands)
            hands[p] = tuple(hand)
            from dataclasses import replace

            return replace(self, hands=tuple(hands), herds=tuple(herds),
                           to_move=(p + 1) % self.options.players, turns=self.turns + 1)
        return super()._apply(move)


class StuckCrook(HerdState):
    """Bug: the crook cannot take a card from the discard pile (only itself back)."""

    def playable(self) -> list[HerdMove]:
        return [m for m in super().playable()
                if not isinstance(m, Crook) or m.take == CROOK]


class MatchEndsTurn(ConcState):
    """Bug: a pair taken hands the turn to the next player (K4: the player goes again)."""

    def play(self, move: ConcMove) -> ConcState:
        after = super().play(move)
        if (isinstance(move, Flip) and self.first is not None and after.pairs != self.pairs
                and after.outcome is None):
            return replace(after, to_move=(after.to_move + 1) % self.options.players)
        return after


class FreeMatch(ConcState):
    """Bug: a turn that takes a pair is not counted (K4 counts every turn)."""

    def play(self, move: ConcMove) -> ConcState:
        after = super().play(move)
        if isinstance(move, Flip) and self.first is not None and after.pairs != self.pairs:
            return replace(after, turns=self.turns)
        return after


@pytest.mark.parametrize("config,check", [
    (VerifyConfig(quick=True, conc_model=MatchEndsTurn, sections=frozenset({"literature"})),
     "zp-moves"),
    (VerifyConfig(quick=True, conc_model=MatchEndsTurn, sections=frozenset({"rules"})),
     "conc-turns"),
    (VerifyConfig(quick=True, conc_model=FreeMatch, sections=frozenset({"literature"})),
     "vw-small"),
    (VerifyConfig(quick=True, war_battle=no_face_down, sections=frozenset({"rules"})),
     "war-battle"),
    (VerifyConfig(quick=True, herd_model=PairEatsThree, sections=frozenset({"rules"})),
     "herd-moves"),
    (VerifyConfig(quick=True, herd_model=FenceOthers, sections=frozenset({"rules"})),
     "herd-moves"),
    (VerifyConfig(quick=True, herd_model=StuckCrook, sections=frozenset({"rules"})),
     "herd-moves"),
], ids=["k4-match-ends-turn-literature", "k4-match-ends-turn-rules", "k4-free-match",
        "k2-war-without-face-down", "k3-wolf-pair-eats-three", "k3-fence-on-others",
        "k3-crook-cannot-take"])
def test_seeded_rule_bugs_make_verify_fail(config: VerifyConfig, check: str) -> None:
    rep = run(config).with_accepted(ALL_GAPS)
    assert not rep.ok
    failed = {r.name for r in rep.failures()}
    assert check in failed and all(r.outcome != GAP for r in rep.failures())
    assert next(r for r in rep.results if r.name == check).witness


def test_reference_models_pass_the_rules_section() -> None:
    """Control for the bug tests: the same section passes with the reference models."""
    rep = run(VerifyConfig(quick=True, sections=frozenset({"rules"})))
    assert rep.ok


# ---- the command line ------------------------------------------------------------------


def test_cli_gaps_fail_the_run_unless_accepted(tmp_path: Path) -> None:
    base = ["verify", "--game", "cards", "--quick", "--section", "termination",
            "--report", str(tmp_path)]
    r = invoke(base)
    assert r.exit_code == 1 and "GAP CARDS-HERD-ENDLESS" in r.stdout
    accepts = [x for g in ALL_GAPS for x in ("--accept", g)]
    r = invoke([*base, *accepts, "--force"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "verification-cards.md").exists()
    r = invoke([*base, "--accept", "CARDS-NOPE", "--force"])
    assert r.exit_code == 2 and r.stderr.startswith("fleece: error:")
