"""The Farmer's advice on hand-built charts (M13, M15, C3): the documented best-shot tie rule
of solver/mutton/advice.py - highest probability, then most living neighbours, then first
letter - and the berserk set with its exact cost.

Both charts come from one kill on a size-3 board with one wolf: A (c3) is eaten, its two
living neighbours B (b2, the wolf) and C (b3) run. The Farmer's facts: A was a sheep, and one
of the runners B, C is the wolf (M26); so the consistent wolf sets are {B} and {C} and each
runner has probability exactly 1/2, every other animal 0.
"""

from __future__ import annotations

from fractions import Fraction

from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import ChooseWolves, Kill, PlaceCells, Run
from fleece.rules.mutton.options import RuleSet
from fleece.solver.mutton import advise, problem_from_chart, solve
from fleece.solver.mutton.advice import TIE_RULE, Advice

B3 = board(3)


def advice_after_kill(cells: str, b_to: str, c_to: str) -> Advice:
    """Animals A, B, ... on `cells` (A on c3, B on b2, C on b3); wolf B eats A; B runs to
    `b_to`, C to `c_to`; the advice for the Farmer's chart of that position (1 wolf)."""
    names = cells.split()
    rules = RuleSet(size=3, num_sheep=len(names), num_wolves=1)
    s = GameState.new(rules).play(PlaceCells(tuple(B3.cell(n) for n in names)))
    s = s.play(ChooseWolves("B")).play(
        Kill("A", (Run("B", B3.cell(b_to)), Run("C", B3.cell(c_to)))))
    problem = problem_from_chart(farmer_chart(s), wolves=1)
    solution = solve(problem)
    assert solution.count == 2
    assert solution.probabilities() == {a: Fraction(1, 2) if a in "BC" else Fraction(0)
                                        for a in rules.letters}
    return advise(problem, solution)


def test_m13_tie_goes_to_the_most_living_neighbours_before_the_letter() -> None:
    """B runs to a1 (neighbours a2 b1 b2: empty), C to e4 (neighbours e3 e5 d3 d4), between D
    (e5) and E (e3): B has 0 living neighbours, C has 2. Tied at 1/2, C wins the tie though
    B comes first in the alphabet: as a wolf C could eat two animals next turn, B none."""
    adv = advice_after_kill("c3 b2 b3 e5 e3", "a1", "e4")
    assert adv.neighbours == {"B": 0, "C": 2, "D": 1, "E": 1}
    assert adv.best_shot == "C"
    assert adv.tied == ("C", "B")
    assert adv.best_probability == Fraction(1, 2)
    assert adv.tie_rule == TIE_RULE and "most living neighbours" in TIE_RULE


def test_m13_two_living_neighbours_beat_one() -> None:
    """F stands on a2. B runs to a1 (neighbours a2 b1 b2: F alone), C to e4 (between D on
    e5 and E on e3): tied at 1/2, C with 2 living neighbours beats B with 1, although B
    comes first and both have some."""
    adv = advice_after_kill("c3 b2 b3 e5 e3 a2", "a1", "e4")
    assert adv.neighbours["B"] == 1 and adv.neighbours["C"] == 2
    assert adv.best_shot == "C" and adv.tied == ("C", "B")


def test_m13_equal_neighbours_tie_goes_to_the_first_letter_and_probability_comes_first() -> None:
    """B runs to a1, C to a3 (neighbours a2 b3 b4: empty): both have 0 living neighbours, so
    the first letter, B, wins. D (d5) has 2 living neighbours (E on c5, F on e5) but
    probability 0: probability ranks before neighbours."""
    adv = advice_after_kill("c3 b2 b3 d5 c5 e5", "a1", "a3")
    assert adv.neighbours == {"B": 0, "C": 0, "D": 2, "E": 1, "F": 1}
    assert adv.best_shot == "B"
    assert adv.tied == ("B", "C")


def test_c3_berserk_set_and_its_cost_by_hand() -> None:
    """C3: the berserk set is every living possible wolf, {B, C}; exactly one of them is the
    wolf, so the volley kills exactly 1 sheep: expected cost 2 - (1/2 + 1/2) = 1, worst 1;
    living wolves (1, 1). Nothing is a sure kill at probability 1/2."""
    adv = advice_after_kill("c3 b2 b3 e5 e3", "a1", "e4")
    assert adv.berserk_set == ("B", "C")
    assert adv.sheep_cost_expected == 1 and adv.sheep_cost_worst == 1
    assert adv.living_wolves == (1, 1)
    assert adv.sure_kill == ()
