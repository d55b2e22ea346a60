"""Advice at its boundaries: the Farmer's best shot and berserk cost when the worst case and the
expectation differ, a sure kill, ties without a board, nothing to advise (M13, M15, C3); the
Woof!! suggestion at exactly 2p = 1, its tie rule and its refusals (W8).

Mutton charts, worked by hand:

- "no-reveal": `Sheep: x B C D E`, identities hidden, 2 wolves, no kill row (A was shot). Any
  2 of the 5 animals may be the wolves: C(5, 2) = 10 sets, each animal a wolf in 4 of them
  (p = 2/5). Living wolves: 1 when A is one of them (4 sets), else 2: (1, 2). The berserk set
  is every living possible wolf, B C D E; its sheep cost is 4 - 1 = 3 in the worst case and
  4 - 4 * 2/5 = 12/5 in expectation.
- "sure": `Sheep: x B C D E`, round 1: A eaten, only B ran, 1 wolf. The killer ran (M9), so B
  is the wolf (p = 1): a sure kill, shooting it costs no sheep.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from fleece.rules.mutton.chart import parse_chart
from fleece.rules.woof.cards import Character
from fleece.solver.mutton import advise, problem_from_chart, solve
from fleece.solver.mutton.advice import Advice
from fleece.solver.woof.analysis import Suggestion, suggest


def mutton_advice(text: str, wolves: int, *, reveal: bool = True) -> Advice:
    problem = problem_from_chart(parse_chart(text, reveal=reveal), wolves)
    return advise(problem, solve(problem))


def test_c3_worst_case_and_expected_cost_differ_when_dead_wolves_are_possible() -> None:
    adv = mutton_advice("Sheep   : x B C D E", 2, reveal=False)
    assert adv.living_wolves == (1, 2)
    assert adv.berserk_set == ("B", "C", "D", "E")
    assert adv.sheep_cost_worst == 3
    assert adv.sheep_cost_expected == Fraction(12, 5)
    assert adv.best_probability == Fraction(2, 5) and adv.sure_kill == ()


def test_m13_ties_without_a_board_go_to_the_first_letter() -> None:
    """No board: every living animal has 0 known neighbours, so the tie among B C D E (2/5
    each) goes to the first letter; the dead A is never advised although it shares the
    probability."""
    adv = mutton_advice("Sheep   : x B C D E", 2, reveal=False)
    assert adv.neighbours == {} and adv.best_shot == "B"
    assert adv.tied == ("B", "C", "D", "E")


def test_c3_a_certain_wolf_is_a_sure_kill_at_no_cost() -> None:
    adv = mutton_advice("Sheep   : x B C D E\nRound  1: x +", 1)
    assert (adv.best_shot, adv.best_probability, adv.tied) == ("B", 1, ("B",))
    assert adv.sure_kill == ("B",)
    assert adv.berserk_set == ("B",) and adv.sheep_cost_worst == 0
    assert adv.sheep_cost_expected == 0 and adv.living_wolves == (1, 1)


def test_m13_the_highest_probability_wins_over_the_first_letter() -> None:
    """`Sheep: x x x D E` (reveal: A B C dead sheep), 1 wolf: D and E at 1/2, the dead at 0;
    the best shot is D, not a dead animal, and one sheep dies in the volley D E."""
    adv = mutton_advice("Sheep   : x x x D E", 1)
    assert (adv.best_shot, adv.best_probability, adv.tied) == ("D", Fraction(1, 2), ("D", "E"))
    assert adv.berserk_set == ("D", "E") and adv.sheep_cost_worst == 1
    assert adv.sheep_cost_expected == 1 and adv.sure_kill == ()  # 1/2 is no sure kill


def test_nothing_to_advise_on_an_inconsistent_chart() -> None:
    """One wolf; round 1: A eaten, only B ran; round 2: C eaten, only D ran. The killer
    runs (M9), so the wolf would be both B and D: no consistent set."""
    adv = mutton_advice("Sheep   : x B x D E\nRound  1: x +\nRound  2:     x +", 1)
    assert adv.best_shot is None and adv.tied == () and adv.berserk_set == ()
    assert (adv.sheep_cost_worst, adv.sheep_cost_expected) == (0, 0)


# ---- Woof!!: 2p >= 1, ties, refusals -------------------------------------------------------


def suggestion(p: Fraction) -> Suggestion:
    return Suggestion(1, Character.DOG, (Character.SHEEP,), (3,), p)


@pytest.mark.parametrize(("p", "advice"), [
    (Fraction(1, 2), "suspect early now"),  # 2p = 1: early scores as much as waiting can
    (Fraction(49, 100), "wait"),
    (Fraction(999, 1000), "suspect early now"),
    (Fraction(0), "wait"),
    (Fraction(1), "suspect early now"),
])
def test_w8_early_suspicion_is_advised_exactly_when_2p_is_at_least_1(p: Fraction,
                                                                    advice: str) -> None:
    s = suggestion(p)
    assert s.advice == advice
    assert (s.early_points, s.final_points, s.error_risk) == (2 * p, p, 1 - p)


class FakePosterior:
    """Just what `suggest` reads: consistency, certain characters, suspicion scores."""

    def __init__(self, scores: dict[tuple[int, ...], Fraction], *, consistent: bool = True,
                 own: Character | None = Character.DOG) -> None:
        self.scores = scores
        self.consistent = consistent
        self.own = own

    def certain(self) -> dict[int, Character]:
        return {} if self.own is None else {1: self.own}

    def suspicion_scores(self, seat: int, targets: Any) -> dict[tuple[int, ...], Fraction]:
        assert seat == 1
        return self.scores


class FakeEvidence:
    """The evidence's rules: the Dog's targets (W2) under the default reading."""

    def __init__(self) -> None:
        from fleece.rules.woof.cards import CardRules

        self.rules = CardRules()


def test_w8_tied_suspicions_go_to_the_smallest_picks_and_alternatives_follow_in_order() -> None:
    third, sixth = Fraction(1, 3), Fraction(1, 6)
    post = FakePosterior({(3, 2): third, (2, 4): third, (4, 0): sixth, (0, 3): sixth})
    got = suggest(post, FakeEvidence(), 1)  # type: ignore[arg-type]
    assert isinstance(got, Suggestion)
    assert (got.picks, got.probability) == ((2, 4), third)
    assert got.alternatives == (((3, 2), third), ((0, 3), sixth), ((4, 0), sixth))
    short = suggest(post, FakeEvidence(), 1, keep=2)  # type: ignore[arg-type]
    assert isinstance(short, Suggestion) and short.alternatives == (((3, 2), third),)
    assert got.targets == FakeEvidence().rules.targets(Character.DOG)


def test_w8_no_suggestion_without_consistency_or_a_certain_character() -> None:
    bad = suggest(FakePosterior({}, consistent=False), FakeEvidence(), 1)  # type: ignore[arg-type]
    assert bad == "the evidence is contradictory"
    unsure = suggest(FakePosterior({}, own=None), FakeEvidence(), 1)  # type: ignore[arg-type]
    assert isinstance(unsure, str) and "seat 1's character is not certain" in unsure
