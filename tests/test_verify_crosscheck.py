"""The Python-versus-Z3 cross-checks of verify/ must compare something, and must never read an
undecided Z3 answer as agreement.

Mutton (verify/mutton/crosscheck.py): the position checker is run at hand-built positions of
the reference model (no finding) and of copies of the model with one rule broken each (a
GameState subclass; rules/ is untouched): every comparison the checker makes is shown to
fire on its own bug, with the finding naming what differs. A budget under which Z3 never
decides makes the checker raise Undecided (never an empty list of findings) and the check
UNKNOWN. The check counts the positions it compared.

Woof!! (verify/woof/crosscheck.py): each claim of the random-round cross-check fails on a
round model with that one rule broken (a WoofRound subclass), naming the claim; the game check
fails on a game model with W10 broken; a claim that Z3 cannot reduce to true is a
disagreement, not an agreement.

Positions (size 3, 19 cells; M3 neighbours as in tests/test_mutton_play_rules.py):
K: A a1 (wolf), B a2, C b3, D e5 (wolf), E e4. Kills: B (by A; A and C run) and E (by D).
L: A a1 (wolf), B e5 (wolf), C e4, D c3; A is isolated, so with `escape` it may escape (M12).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import z3
from helpers.mutton_bugs import (  # the seeded M8, M9, M14 bugs of the verification tests
    FarmerPassesAfterWolfPass,
    KillerNeedNotRun,
    KillNextToNoWolf,
    RunnersMayStayAdjacent,
)
from helpers.mutton_positions import c, start

from fleece.rules.mutton.game import Fate, GameState, KillOption, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import ChooseWolves, FarmerMove, FarmerPass, Kill, PlaceCells, Run
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.woof.moves import Ask, CardPick
from fleece.rules.woof.round import AskEvent, WoofRound
from fleece.rules.woof.scoring import Game, RoundScore
from fleece.verify.budget import Budget, Undecided
from fleece.verify.mutton.crosscheck import PositionChecker, crosscheck
from fleece.verify.result import FAILED, PASSED, UNKNOWN


def position_k(model: type[GameState] = GameState, **options: Any) -> GameState:
    return start("a1 a2 b3 e5 e4", "AD", model, **options)


def farmer_after_kill(model: type[GameState] = GameState, **options: Any) -> GameState:
    """K after D eats E (D runs to c1): the Farmer moves."""
    return position_k(model, **options).play(Kill("E", (Run("D", c("c1")),)))


def position_l(model: type[GameState] = GameState, **options: Any) -> GameState:
    return start("a1 e5 e4 c3", "AB", model, escape=True, **options)


def findings(state: GameState, budget: Budget | None = None) -> list[str]:
    return PositionChecker(state, budget).run()


class AlwaysUnknown(Budget):
    """A budget under which Z3 never decides: what a timeout does to a hard query."""

    def check(self, solver: Any, *assumptions: Any) -> Any:
        raise Undecided("forced by the test", self.timeouts)


# ---- Mutton: seeded bugs, one comparison each -------------------------------------------------


class VictimNotRecordedEaten(GameState):
    """M8: the victim of a kill is recorded as shot (the successor position is wrong)."""

    def play(self, move: Any) -> GameState:
        after = super().play(move)
        if isinstance(move, Kill):
            i = self.index(move.victim)
            fates = (*after.fates[:i], Fate.SHOT, *after.fates[i + 1:])
            return replace(after, fates=fates)
        return after


class RunnersStayWhereTheyWere(GameState):
    """M9: play() accepts a kill whose runners are left out (no refusal)."""

    def play(self, move: Any) -> GameState:
        if isinstance(move, Kill) and self.phase is Phase.WOLF:
            given = {r.animal for r in move.runs}
            opt = next((k for k in self.legal_kills() if k.victim == move.victim), None)
            if opt is not None and not set(opt.runners) <= given:
                runs = list(move.runs)
                free = [x for x in opt.free_cells if x not in {r.to for r in runs}]
                for a in opt.runners:
                    if a not in given and free:
                        runs.append(Run(a, free.pop()))
                move = Kill(move.victim, tuple(runs))
        return super().play(move)


class EscapeWithNeighbours(GameState):
    """M12: every hidden wolf may escape."""

    def escapes(self) -> list[str]:
        if self.phase is not Phase.WOLF or not self.rules.escape:
            return []
        return sorted(self.hidden_wolves())


class ShotgunWithoutRunners(GameState):
    """M17: the shotgun's shots are listed as if it were a rifle."""

    def shot_options(self) -> list[KillOption]:
        if self.phase is not Phase.FARMER:
            return []
        return [KillOption(t, (), ()) for t in self.living()]


class BerserkTwice(GameState):
    """C2: berserk stays available after use (and play() lets it through)."""

    def berserk_available(self) -> bool:
        return self.phase is Phase.FARMER and len(self.living()) >= 2

    def _farmer(self, move: FarmerMove) -> GameState:
        return replace(self, berserk_used=False)._farmer_inner(move) if self.berserk_used \
            else self._farmer_inner(move)

    def _farmer_inner(self, move: FarmerMove) -> GameState:
        return super()._farmer(move)


def test_reference_model_agrees_with_z3_at_every_hand_position() -> None:
    """Control: no finding at K (Wolf), after a kill (Farmer), at L with escape, with the
    shotgun, and after a berserk-free Farmer pass."""
    for state in (position_k(), farmer_after_kill(), position_l(),
                  farmer_after_kill(weapon=Weapon.SHOTGUN),
                  farmer_after_kill().play(FarmerPass())):
        assert findings(state) == [], state.phase


@pytest.mark.parametrize(("bug", "state", "finding"), [
    (RunnersMayStayAdjacent, position_k, "free cells of B"),
    (KillerNeedNotRun, position_k, "runners of B"),
    (KillNextToNoWolf, position_k, "kill candidates"),
    (VictimNotRecordedEaten, position_k, "after killing B"),
    (RunnersStayWhereTheyWere, position_k, "not running"),
    (EscapeWithNeighbours, position_l, "escapes"),
], ids=lambda x: x.__name__ if isinstance(x, type) else "")
def test_each_wolf_phase_comparison_fires_on_its_bug(bug: type[GameState], state: Any,
                                                      finding: str) -> None:
    found = findings(state(bug))
    assert any(finding in f for f in found), found


def test_the_farmer_phase_comparisons_fire_on_their_bugs() -> None:
    """M17 shots: size 2 with 7 animals fills the board, so no shotgun blast has room for
    its runners (M10, M17), but the broken model lists every shot; C2 berserk; M14 the
    Farmer's pass after a Wolf pass."""
    b2 = board(2)
    full = ShotgunWithoutRunners.new(MuttonOptions(size=2, num_sheep=7, num_wolves=3,
                                             weapon=Weapon.SHOTGUN))
    full = full.play(PlaceCells(b2.cells)).play(ChooseWolves("ABC"))
    full = full.play(next(iter(full.legal_moves())))  # the Wolf's only move: a pass
    assert full.phase is Phase.FARMER
    shots = findings(full)
    assert any(f.startswith("shots:") for f in shots), shots
    used = replace(farmer_after_kill(BerserkTwice), berserk_used=True)
    assert any(f.startswith("berserk:") for f in findings(used)), findings(used)
    passed = FarmerPassesAfterWolfPass.new(MuttonOptions(size=2, num_sheep=3, num_wolves=1)).play(
        PlaceCells((b2.cell("b2"), b2.cell("a1"), b2.cell("c3")))).play(ChooseWolves("B"))
    passed = passed.play(next(iter(passed.legal_moves())))  # the only move: a pass
    assert passed.wolf_passed
    assert any("Farmer pass" in f for f in findings(passed)), findings(passed)


def test_an_undecided_z3_answer_is_never_agreement() -> None:
    """M10: under a budget where Z3 never decides, comparing a position raises Undecided
    (an empty list of findings would read the unknown as agreement); the check over a rule
    set is UNKNOWN, not PASSED, and names the undecided query."""
    with pytest.raises(Undecided):
        findings(position_k(), AlwaysUnknown(1))
    [res] = crosscheck([MuttonOptions(size=2, num_sheep=7, num_wolves=3)], 4,
                       budget=AlwaysUnknown(1))
    assert res.outcome == UNKNOWN and not res.ok and "undecided" in res.detail


def test_the_crosscheck_compares_the_positions_it_counts() -> None:
    """The check compares as many positions as asked (both phases), passes the reference
    model and fails a broken one with the disagreement as its witness."""
    rules = MuttonOptions(size=3, num_sheep=10, num_wolves=2, escape=True)
    [ok] = crosscheck([rules], 8)
    assert ok.outcome == PASSED and ok.expected == PASSED
    counted = ok.data["positions"]
    assert counted["wolf"] + counted["farmer"] == 8 and counted["wolf"] > 0 < counted["farmer"]
    [bad] = crosscheck([rules], 8, model=KillerNeedNotRun)
    assert bad.outcome == FAILED and "runners of" in bad.witness


# ---- Woof!!: seeded bugs, one claim each ------------------------------------------------------


class AnswerAboutTheAsker(WoofRound):
    """W5: a question is answered about the asker's hand, not the target's."""

    def _ask(self, move: Ask) -> WoofRound:
        after = super()._ask(move)
        event = after.events[-1]
        assert isinstance(event, AskEvent)
        wrong = AskEvent(event.asker, event.target, event.question,
                         move.question.answer(self.hand(move.asker)))
        return replace(after, events=(*after.events[:-1], wrong))


class QuestionCardsNeverUsedUp(WoofRound):
    """W5: an asked question card stays in the asker's hand (the successor is wrong)."""

    def _ask(self, move: Ask) -> WoofRound:
        after = super()._ask(move)
        return replace(after, held=self.held)


class GapWithATokenLeft(WoofRound):
    """W11: a look records the no-token gap although the seat had a token to lay."""

    def _card(self, pick: CardPick) -> WoofRound:
        after = super()._card(pick)
        return replace(after, gaps=(*after.gaps, "a gap the rules do not have"))


class OneMoreEarlySuspicion(WoofRound):
    """W7: the round goes on one early suspicion longer."""

    def _w7_over(self) -> bool:
        early = len(self._early_seats())
        return early > self.table.early_limit or early >= self.table.players


class WrongEarlyNotBarred(WoofRound):
    """W8: a wrong early suspicion does not bar its seat next round."""

    def score(self) -> RoundScore:
        return replace(super().score(), barred_next_round=frozenset())


class FourRoundGame(Game):
    """W10: a game lasts four rounds."""

    @property
    def over(self) -> bool:
        return self.rounds >= 4 or any(e >= 2 for e in self.errors.values())


def woof_crosscheck(**config: Any) -> dict[str, Any]:
    from fleece.verify.woof import VerifyConfig, run

    rep = run(VerifyConfig(quick=True, sections=frozenset({"crosscheck"}), **config))
    return {r.name: r for r in rep.results}


@pytest.mark.parametrize(("bug", "claim"), [
    (AnswerAboutTheAsker, "answer (W5)"),
    (QuestionCardsNeverUsedUp, "successor state"),
    (GapWithATokenLeft, "token laid or the W11 gap"),
    (OneMoreEarlySuspicion, "round over (W7)"),
    (WrongEarlyNotBarred, "barred next round (W8)"),
], ids=lambda x: x.__name__ if isinstance(x, type) else "")
def test_each_woof_round_claim_fails_on_its_bug(bug: type[WoofRound], claim: str) -> None:
    rounds = woof_crosscheck(model=bug, rounds=12)["rounds"]
    assert rounds.outcome == FAILED and claim in rounds.witness, rounds.witness[:500]


def test_woof_game_end_is_compared() -> None:
    """W10: a game model that plays a fourth round fails the games check; the reference
    passes it, and the rounds check passes the reference model."""
    games = woof_crosscheck(game_model=FourRoundGame, rounds=1)["games"]
    assert games.outcome == FAILED
    assert "after 3 rounds" in games.witness and "model over=False, Z3 True" in games.witness
    ref = woof_crosscheck(rounds=4)
    assert ref["games"].outcome == PASSED and ref["rounds"].outcome == PASSED
    assert ref["rounds"].data["turns"] > 0 and ref["rounds"].data["rounds"] == 4


def test_a_woof_claim_z3_cannot_reduce_is_a_disagreement() -> None:
    """A claim left with a free variable after substitution simplifies to neither true nor
    false: it is reported, never taken as agreement."""
    import random

    from fleece.verify.woof import VerifyConfig
    from fleece.verify.woof.crosscheck import RoundChecker

    checker = RoundChecker(VerifyConfig(quick=True), random.Random(1))
    free = z3.Bool("left_free")
    fixed = z3.Int("fixed")
    claims = [("undecided claim", free), ("true claim", fixed == 1)]
    conj = z3.And(free, fixed == 1)
    assert checker._decide(claims, conj, [(fixed, z3.IntVal(1))]) == ["undecided claim"]
    assert checker._decide(claims[1:], fixed == 1, [(fixed, z3.IntVal(1))]) == []
    assert checker._decide(claims[1:], fixed == 1, [(fixed, z3.IntVal(2))]) == ["true claim"]
