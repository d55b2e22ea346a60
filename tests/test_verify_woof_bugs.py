"""`fleece verify --game woof` must be able to fail: five rule bugs, each planted into a copy of
the Python model (a WoofRound subclass defined here; rules/woof is untouched), each make the
verification report a failure (never a rules gap), while the reference model passes the very
same sections."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fleece.rules.errors import IllegalMoveError
from fleece.rules.woof.cards import Character
from fleece.rules.woof.moves import CardPick, SuspectEarly
from fleece.rules.woof.round import EarlyEvent, LookEvent, WoofRound
from fleece.rules.woof.scoring import RoundScore
from fleece.verify.result import GAP
from fleece.verify.woof import VerifyConfig, run


class ShepherdTellsTheTruth(WoofRound):
    """Bug (W4): the Shepherd announces the card's true appearance instead of Wolf."""

    def _card(self, pick: CardPick) -> WoofRound:
        look = self.pending
        assert look is not None
        seat = look.viewer
        card = self.hand(look.target)[pick.index]
        said = card.appearance  # the bug: no Shepherd exception
        tokens, gaps = self.tokens, self.gaps
        placed = tokens.can_place(seat, said)
        if placed:
            tokens = tokens.place(seat, said)
        else:
            gaps = (*gaps, f"seat {seat} announced {said or '?'} with no token left (W11)")
        event = LookEvent(seat, look.target, card, said, placed)
        return replace(self, pending=None, tokens=tokens, gaps=gaps)._done(seat, event)


class LowerCardDecides(WoofRound):
    """Bug (W1): a mixed hand's character is the picture of the lower card."""

    def character(self, seat: int) -> Character:
        a, b = self.hand(seat)
        return a.picture if a.value <= b.value else b.picture


class EarlyOnTheFirstTurn(WoofRound):
    """Bug (W6): a seat may suspect early on its first turn."""

    def can_suspect_early(self, seat: int) -> bool:
        return (seat in self.table.acting and seat not in self.barred
                and seat not in self.early)

    def _early(self, move: SuspectEarly) -> WoofRound:
        if move.seat in self.barred:
            raise IllegalMoveError("barred")
        return self._done(move.seat, EarlyEvent(move.seat,
                                                self.make_suspicion(move.seat, move.picks)))


class CorrectEarlyScoresOne(WoofRound):
    """Bug (W8): a correct early suspicion scores 1 point, not 2."""

    def score(self) -> RoundScore:
        got = super().score()
        points = dict(got.points)
        for seat in self.early:
            if got.correct.get(seat):
                points[seat] -= 1
        return replace(got, points=points)


class BonusWithoutTheToken(WoofRound):
    """Bug (W9): the Shepherd's bonus counts whether or not his Wolf token lies on the seat
    wrongly named as Wolf."""

    def shepherd_wolf_tokens(self) -> dict[int, frozenset[int]]:
        every = frozenset(self.table.seat_numbers)
        return dict.fromkeys(self.table.acting, every)


CROSS = frozenset({"crosscheck"})
BUGS = [
    (ShepherdTellsTheTruth, frozenset({"cards"}), "w4-model"),
    (LowerCardDecides, frozenset({"cards"}), "w1-pairs"),
    (EarlyOnTheFirstTurn, CROSS, "rounds"),
    (CorrectEarlyScoresOne, frozenset({"example"}), "example-model"),
    (BonusWithoutTheToken, frozenset({"example"}), "example-model"),
]


@pytest.mark.parametrize("bug,sections,check", BUGS,
                         ids=["w4-shepherd-tells-the-truth", "w1-lower-card-decides",
                              "w6-early-on-the-first-turn", "w8-correct-early-scores-one",
                              "w9-bonus-without-the-token"])
def test_w1_w4_w6_w8_w9_each_seeded_bug_makes_verify_fail(
        bug: type[WoofRound], sections: frozenset[str], check: str) -> None:
    """W1, W4, W6, W8, W9: each seeded bug fails the check named, with a witness, and every
    failure is a disagreement (FAILED), not a rules gap."""
    rep = run(VerifyConfig(quick=True, model=bug, sections=sections, rounds=6))
    assert not rep.ok
    failed = {r.name: r for r in rep.failures()}
    assert check in failed, [(r.name, r.outcome) for r in rep.results]
    assert all(r.outcome == "FAILED" and r.outcome != GAP for r in failed.values())
    assert failed[check].witness or failed[check].detail


def test_w6_early_suspicion_on_the_first_turn_is_named_in_the_crosscheck() -> None:
    """W6: the cross-check names the rule the bug breaks (the legal early suspicion)."""
    rep = run(VerifyConfig(quick=True, model=EarlyOnTheFirstTurn, sections=CROSS, rounds=3))
    rounds = next(r for r in rep.results if r.name == "rounds")
    assert rounds.outcome == "FAILED" and "early suspicion legal (W6)" in rounds.witness


def test_w8_w9_scoring_bugs_also_fail_the_random_rounds() -> None:
    """W8, W9: the scoring bugs are caught by the random cross-check too, not only by the
    rulebook's example (its policy makes right suspicions and Wolf picks misled by tokens)."""
    for bug in (CorrectEarlyScoresOne, BonusWithoutTheToken):
        rep = run(VerifyConfig(quick=True, model=bug, sections=CROSS, rounds=12))
        rounds = next(r for r in rep.results if r.name == "rounds")
        assert rounds.outcome == "FAILED", bug.__name__
        assert "(W8" in rounds.witness or "(W9)" in rounds.witness


def test_reference_model_passes_the_sections_the_bugs_fail() -> None:
    """Control: the unmodified model passes the same sections (W1-W9)."""
    rep = run(VerifyConfig(quick=True, sections=frozenset({"cards", "example", "crosscheck"}),
                           rounds=6))
    assert rep.ok, [(r.ident, r.detail, r.witness[:200]) for r in rep.failures()]
    assert {r.section for r in rep.results} == {"cards", "example", "crosscheck"}
