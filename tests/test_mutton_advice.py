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
from pathlib import Path

import pytest

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import ChooseWolves, Kill, PlaceCells, Run
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton import advise, analyse, problem_from_chart, problem_from_text, solve
from fleece.solver.mutton.advice import TIE_RULE, Advice

B3 = board(3)


def advice_after_kill(cells: str, b_to: str, c_to: str) -> Advice:
    """Animals A, B, ... on `cells` (A on c3, B on b2, C on b3); wolf B eats A; B runs to
    `b_to`, C to `c_to`; the advice for the Farmer's chart of that position (1 wolf)."""
    names = cells.split()
    rules = MuttonOptions(size=3, num_sheep=len(names), num_wolves=1)
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


# ---- the Farmer robot's decision (Advice.decision) --------------------------------------------

HELPPAGE = Path(__file__).resolve().parent.parent / "examples" / "mutton" / "helppage.txt"


def test_help_page_decision_shoots_the_certain_wolf() -> None:
    """The help page's chart (C is a certain wolf, F a wolf with probability 57/73): the robot
    shoots C now; its line names the best move's expected loss, then waiting and the best
    volley; each shot's chance is the solver's probability; the assumptions name the prior,
    the Wolf model and what the chart cannot say; the JSON carries the same."""
    problem = problem_from_text(HELPPAGE.read_text(encoding="utf-8"))
    solution = solve(problem)
    adv = advise(problem, solution)
    d = adv.decision
    assert d is not None and adv.skipped is None
    assert (d.best.move, d.best.targets, d.best.p_hit) == ("shoot", ("C",), 1.0)
    assert d.line.startswith(f"shoot C now: expected sheep lost {d.best.expected:.1f}; waiting: ")
    assert "; berserk on {" in d.line
    shots = {o.targets[0]: o.p_hit for o in d.options if o.move == "shoot"}
    assert shots["F"] == pytest.approx(57 / 73)
    for letter, p in shots.items():
        assert p == pytest.approx(float(solution.probability(letter)))
    assert [o.expected for o in d.options] == sorted(o.expected for o in d.options)
    assert d.lost == 5 and d.depth == 1
    text = " | ".join(d.assumptions)
    assert "219 consistent wolf sets" in text and "random Wolf" in text
    assert "berserk is allowed and not yet used" in text
    data = analyse(problem).to_json()["advice"]["decision"]
    assert data == d.to_json() and data["line"] == d.line
    assert data["best"]["targets"] == ["C"]


def test_decision_without_a_board_says_what_it_assumes() -> None:
    """The same chart without its board: the Wolf's next kill cannot be foreseen, so waiting
    is one more sheep and nothing learnt, and the assumptions say so."""
    text = HELPPAGE.read_text(encoding="utf-8")
    chart_only = text[text.index("Sheep"):]
    problem = problem_from_text(chart_only)
    assert problem.board is None
    d = advise(problem, solve(problem)).decision
    assert d is not None
    assert any("no board" in a for a in d.assumptions)
    assert d.best.move == "shoot" and d.best.targets == ("C",)
    wait = next(o for o in d.options if o.move == "wait")
    assert wait.expected >= 1


def test_decision_depth_is_checked_and_huge_charts_are_skipped() -> None:
    """`depth` outside 1..3 is a one-line error; a chart with more wolf sets than the robots
    track (13 wolves among 26 animals) gets the plain advice and says why there is no
    decision."""
    problem = problem_from_text(HELPPAGE.read_text(encoding="utf-8"))
    with pytest.raises(FleeceError, match=r"^depth: must be in 1\.\.3, got 4$"):
        advise(problem, solve(problem), depth=4)
    text = HELPPAGE.read_text(encoding="utf-8")
    big = problem_from_text(text[text.index("Sheep"):], wolves=13)
    adv = advise(big, solve(big))
    assert adv.decision is None and adv.best_shot is not None
    assert adv.skipped is not None and "13 wolves among 26 animals" in adv.skipped
    assert "decision_skipped" in analyse(big).to_json()["advice"]


def test_deep_decision_on_a_tiny_board_is_the_exact_expected_loss() -> None:
    """A chart of a tiny game (7 cells, 4 animals, 1 wolf, one kill): searched 3 moves deep,
    every move's expected loss equals the whole game tree's, enumerated with the rules model
    (tests/helpers/mutton_game_tree.py): the chart advice and the robot are the same
    computation."""
    from helpers.mutton_game_tree import consistent, farmer_value

    b2 = board(2)
    rules = MuttonOptions(size=2, num_sheep=4, num_wolves=1)
    checked = 0
    for cells in ("a1 b2 c3 a2", "a1 b1 c3 b3", "b2 a1 c2 b3"):
        s = GameState.new(rules).play(PlaceCells(tuple(b2.cell(c) for c in cells.split(" "))))
        s = s.play(ChooseWolves("B"))
        kills = s.legal_kills()
        if not kills:
            continue
        k = kills[0]
        s = s.play(Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, k.free_cells,
                                                                   strict=False))))
        if s.over:
            continue
        problem = problem_from_chart(farmer_chart(s), wolves=1)
        d = advise(problem, solve(problem), depth=3).decision
        assert d is not None
        _, values = farmer_value(consistent(s))
        by_move = {"wait": "pass"}
        for o in d.options:
            key = by_move.get(o.move, ",".join(o.targets))
            assert float(values[key]) == pytest.approx(o.expected, abs=1e-9), (cells, o)
        checked += 1
    assert checked >= 2
