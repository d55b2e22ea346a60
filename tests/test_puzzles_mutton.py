"""Mutton puzzle generator: exact counting against brute force and the solver package,
soundness of every named rule, golden rule examples, generated puzzles unique/minimal/graded,
file formats, and the CLI."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.clirun import invoke
from helpers.scaling import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.errors import ParseError
from fleece.rules.mutton.chart import Chart, parse_chart, render_chart
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.mutton.answer import (
    Masks,
    answer,
    brute_force_sets,
    clues,
    count_sets,
    iter_sets,
    letters_of,
    redundant_clues,
    without,
)
from fleece.solver.puzzles.mutton.answer import MuttonQuestion as Question
from fleece.solver.puzzles.mutton.check import z3_verify
from fleece.solver.puzzles.mutton.formats import (
    parse_puzzle,
    parse_solution_answer,
    puzzle_json,
    render_puzzle,
    render_solution,
)
from fleece.solver.puzzles.mutton.generate import attempt, game_moments, generate
from fleece.solver.puzzles.mutton.human import Rule, human_solve

RULES = MuttonOptions()


def _moments(seed: int) -> list[Chart]:
    return game_moments(RULES, random.Random(seed))


def _reduced(chart: Chart, rng: random.Random) -> Chart:
    """The chart (without board and score) with a random share of its clues dropped."""
    chart = Chart(chart.animals, chart.status, chart.rows)
    for c in clues(chart):
        if rng.random() < 0.4 and not (isinstance(c, str) and
                                       any(r.victim == c for r in chart.rows)):
            chart = without(chart, c)
    return chart


# ---- minimality over status marks as well as rounds -------------------------------------------
# One wolf, six animals. Round 1: E was eaten and A, B ran, so the wolf is A or B (M26); B is
# shown as a dead sheep (x), so the wolf is A. Both clues are needed: without round 1 any of A,
# C, D, F could be the wolf; without B's mark A or B could. D ran in no round, so an x on D
# says nothing about A: a puzzle that shows it is not minimal.
MINIMAL = "Sheep   : A x C D x F\nRound  1: + +     x\n"
SPARE_MARK = "Sheep   : A x C x x F\nRound  1: + +     x\n"
SPARE_ROUND = "Sheep   : A x C D x x\nRound  1: + +     x\nRound  2: + + +     x\n"


def _brute_redundant(chart: Chart, k: int) -> list[str]:
    """Clues whose removal keeps exactly one consistent set, by brute force over k-subsets with
    the removal done here (a mark becomes a plain letter; a round is dropped)."""
    from dataclasses import replace

    from fleece.rules.mutton.chart import Status

    victims = {r.victim for r in chart.rows}
    ans = brute_force_sets(chart, k)
    assert len(ans) == 1
    out = []
    for r in chart.rows:
        if brute_force_sets(replace(chart, rows=tuple(x for x in chart.rows if x != r)), k) == ans:
            out.append(f"round {r.round}")
    for i, a in enumerate(chart.animals):
        if chart.status[i] is not Status.ALIVE and a not in victims:
            status = (*chart.status[:i], Status.ALIVE, *chart.status[i + 1:])
            if brute_force_sets(replace(chart, status=status), k) == ans:
                out.append(f"the mark of {a}")
    return out


def _names(found: list[object]) -> list[str]:
    return [c if isinstance(c, str) else f"round {c.round}" for c in found]  # type: ignore[attr-defined]


def test_minimality_checks_status_marks_not_only_rounds() -> None:
    """A redundant x mark (D) is reported by the exact check, by z3 and by brute force; the
    minimal chart has no redundant clue, and its mark of B is one of its clues."""
    spare = _chart(SPARE_MARK)
    assert answer(spare, 1, Question.ALL) == {"A"}
    assert "D" in clues(spare)
    assert _names(redundant_clues(spare, 1, Question.ALL)) == ["D"]
    assert _brute_redundant(spare, 1) == ["the mark of D"]
    assert z3_verify(spare, 1, Question.ALL).redundant == ("the mark of D",)
    minimal = _chart(MINIMAL)
    assert clues(minimal) == [*minimal.rows, "B"]
    assert redundant_clues(minimal, 1, Question.ALL) == []
    assert _brute_redundant(minimal, 1) == []
    assert z3_verify(minimal, 1, Question.ALL).minimal


def test_minimality_checks_rounds() -> None:
    """Round 2 (F eaten; A, B, C ran) adds nothing to round 1 (A or B) and B's mark; without
    round 1 the wolf could be A or C, without the mark A or B."""
    spare = _chart(SPARE_ROUND)
    assert _names(redundant_clues(spare, 1, Question.ALL)) == ["round 2"]
    assert _brute_redundant(spare, 1) == ["round 2"]
    assert z3_verify(spare, 1, Question.ALL).redundant == ("round 2",)


def test_generator_minimize_drops_a_redundant_mark() -> None:
    """The generator's clue-removal loop removes D's mark (and keeps round 1 and B's mark),
    whatever the random order."""
    from fleece.solver.puzzles.mutton.generate import minimize

    for seed in range(4):
        small = minimize(_chart(SPARE_MARK), 1, Question.ALL, frozenset("A"), Grade.EASY,
                         random.Random(seed))
        assert small == _chart(MINIMAL)


@settings(max_examples=examples(25))
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_counting_matches_brute_force_and_solver_package(seed: int, cut: int) -> None:
    from fleece.solver.mutton import count_sets as package_count
    from fleece.solver.mutton import problem_from_chart

    rng = random.Random(cut)
    for chart in _moments(seed)[::2]:
        ch = _reduced(chart, rng)
        sets = brute_force_sets(ch, 4)
        m = Masks.of(ch, 4)
        assert count_sets(m) == len(sets)
        assert {frozenset(letters_of(s, ch.animals)) for s in iter_sets(m)} == set(sets)
        assert package_count(problem_from_chart(ch, wolves=4)) == len(sets)


@settings(max_examples=examples(25))
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_every_rule_step_is_sound(seed: int, cut: int) -> None:
    """Wolves a step names are in every consistent set; sheep it names in none."""
    rng = random.Random(cut)
    for chart in _moments(seed):
        ch = _reduced(chart, rng)
        sets = brute_force_sets(ch, 4)
        if not sets:
            continue
        certain = frozenset.intersection(*sets)
        possible = frozenset.union(*sets)
        sol = human_solve(ch, 4, Question.ALL)
        for step in sol.steps:
            assert set(step.wolves) <= certain, step
            assert not set(step.sheep) & possible, step
        if sol.solved:
            assert len(sets) == 1 and sol.wolves == sets[0]


def _chart(text: str) -> Chart:
    return parse_chart(text)


def test_golden_lone_suspect_and_pack_complete() -> None:
    ch = _chart("Sheep   : A x C D x F\nRound  1: + +     x\n")
    sol = human_solve(ch, 1, Question.ALL)
    assert [s.rule for s in sol.steps] == [Rule.LONE_SUSPECT, Rule.PACK_COMPLETE]
    assert sol.wolves == {"A"} and sol.grade is Grade.EASY


def test_golden_cleared_by_count() -> None:
    ch = _chart("Sheep   : A B C D E F x x\nRound  1: + +         x\nRound  2:     + +       x\n")
    sol = human_solve(ch, 2, Question.ALL, max_grade=Grade.MEDIUM)
    assert sol.steps[0].rule is Rule.CLEARED_BY_COUNT and set(sol.steps[0].sheep) == {"E", "F"}
    assert not sol.solved and len(sol.steps) == 1
    assert not human_solve(ch, 2, Question.ALL, max_grade=Grade.EASY).steps


HARD_ALL = """\
Sheep   : x B x D E x G H I J K x M N O P Q x S T U V x X w Z
Round  1:   +       x +           +           +     +
Round  2:     +               +                     + x
Round  3:                                   x       +   +   +
Round  4:             +         x +                         +
Round  5:     x       +       +
Round  6:                 +               +               x
Round  7: x             + +
"""


def test_golden_overlapping_rounds_and_known_hard_seed() -> None:
    ch = _chart(HARD_ALL)
    assert brute_force_sets(ch, 4) == [frozenset("GIVY")]
    assert not human_solve(ch, 4, Question.ALL, max_grade=Grade.MEDIUM).solved
    sol = human_solve(ch, 4, Question.ALL)
    assert sol.grade is Grade.HARD and sol.wolves == {"G", "I", "V", "Y"}
    assert [s.rule for s in sol.steps if s.rule.grade is Grade.HARD] == [Rule.OVERLAPPING_ROUNDS]
    p = attempt(RULES, Grade.HARD, Question.ALL, "h:81")
    assert p is not None and p.chart == ch and p.answer == {"G", "I", "V", "Y"}
    assert z3_verify(ch, 4, Question.ALL).minimal


def test_golden_case_split() -> None:
    ch = _chart("Sheep   : A B x x x F G x x J K\n"
                "Round  1:     x       + + + +\n"
                "Round  2:   +       +   x   +\n"
                "Round  3:   +         +   x\n"
                "Round  4: + +   x +         +\n"
                "Round  5: +       x +       + +\n")
    assert answer(ch, 2, Question.CERTAIN) == {"J"}
    assert not human_solve(ch, 2, Question.CERTAIN, max_grade=Grade.MEDIUM).solved
    sol = human_solve(ch, 2, Question.CERTAIN)
    assert sol.grade is Grade.HARD
    assert sol.steps[-1].rule is Rule.CASE_SPLIT and sol.steps[-1].wolves == ("J",)


# hard "all wolves" puzzles are rare in random games (about 1 in 80 attempts): covered by the
# known seed in test_golden_overlapping_rounds_and_known_hard_seed instead
@pytest.mark.parametrize(("grade", "question"), [
    (Grade.EASY, Question.ALL), (Grade.MEDIUM, Question.ALL), (Grade.EASY, Question.CERTAIN),
    (Grade.MEDIUM, Question.CERTAIN), (Grade.HARD, Question.CERTAIN)])
def test_generated_puzzles_are_unique_minimal_and_graded(grade: Grade, question: Question
                                                         ) -> None:
    found = generate(2, grade, question, seed=11)
    for p in found:
        sets = brute_force_sets(p.chart, p.wolves)
        if question is Question.ALL:
            assert sets == [p.answer]
        else:
            assert len(sets) >= 2 and frozenset.intersection(*sets) - _shown(p.chart) == p.answer
        assert redundant_clues(p.chart, p.wolves, question) == []
        for c in clues(p.chart):
            assert answer(without(p.chart, c), p.wolves, question) != p.answer
        assert human_solve(p.chart, p.wolves, question).grade is grade
        assert human_solve(p.chart, p.wolves, question,
                           max_grade=Grade(grade - 1) if grade > 1 else grade).solved is (
            grade is Grade.EASY)
        v = z3_verify(p.chart, p.wolves, question)
        assert v.answer == p.answer and v.minimal


def _shown(chart: Chart) -> frozenset[str]:
    return frozenset(a for a in chart.animals if chart.status_of(a).value != "alive")


def test_z3_detects_redundant_and_ambiguous() -> None:
    from dataclasses import replace

    from fleece.rules.mutton.chart import Status

    p = generate(1, Grade.MEDIUM, Question.ALL, seed=3)[0]
    # an extra x mark on a sheep that ran in no round is a clue nobody needs
    spare = [a for a in p.chart.animals if a not in p.answer
             and p.chart.status_of(a) is Status.ALIVE
             and all(a not in r.runners for r in p.chart.rows)]
    i = p.chart.animals.index(spare[0])
    status = (*p.chart.status[:i], Status.DEAD_SHEEP, *p.chart.status[i + 1:])
    v = z3_verify(replace(p.chart, status=status), p.wolves, Question.ALL)
    assert v.unique and not v.minimal and v.redundant == (f"the mark of {spare[0]}",)
    short = without(p.chart, p.chart.rows[-1])
    assert z3_verify(short, p.wolves, Question.ALL).answer is None


def test_generation_is_deterministic_and_independent_of_workers() -> None:
    a = generate(3, Grade.EASY, None, seed=5)
    b = generate(3, Grade.EASY, None, seed=5, workers=2)
    assert [render_puzzle(p) for p in a] == [render_puzzle(p) for p in b]


def test_formats_round_trip() -> None:
    for p in generate(3, Grade.MEDIUM, None, seed=8):
        text = render_puzzle(p)
        spec = parse_puzzle(text)
        assert (spec.chart, spec.wolves, spec.question, spec.grade, spec.ident) == (
            p.chart, p.wolves, p.question, p.grade, p.ident)
        # a reader that skips the header and comment lines reads the chart with parse_chart
        body = "\n".join(ln for ln in text.splitlines()
                         if not ln.startswith("#")
                         and ln.split(":")[0] not in ("Puzzle", "Grade", "Wolves", "Question"))
        assert parse_chart(body) == p.chart
        js = parse_puzzle(puzzle_json(p))
        assert (js.chart, js.wolves, js.question, js.grade) == (p.chart, p.wolves, p.question,
                                                                 p.grade)
        sol = render_solution(p)
        assert parse_solution_answer(sol) == p.answer
        assert render_chart(p.chart) in text


@pytest.mark.parametrize("bad", [
    "Wolves: 4\nSheep   : A B C\nRound  1: x +\n",  # victim shown alive
    "Wolves: four\nSheep   : x B C D\nRound  1: x +\n",
    "Wolvez: 4\nSheep   : x B C D\nRound  1: x +\n",
    "Sheep   : x B C D\nRound  1: x +\n",  # no Wolves line
    '{"format": "fleece-puzzle", "game": "mutton", "chart": {}}',
])
def test_bad_puzzle_text_is_a_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_puzzle(bad, "p.txt")


def test_cli_generate_check_and_errors(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    r = invoke(["mutton", "puzzle", "generate", "--count", "2", "--grade", "medium",
                            "--seed", "4", "--out", str(out), "--svg"])
    assert r.exit_code == 0, r.output
    assert sorted(f.name for f in out.iterdir()) == [
        "001.json", "001.solution.txt", "001.svg", "001.txt",
        "002.json", "002.solution.txt", "002.svg", "002.txt"]
    r = invoke(["mutton", "puzzle", "check", str(out / "001.txt")])
    assert r.exit_code == 0 and "result: ok" in r.output and "grade: medium" in r.output
    r = invoke(["mutton", "puzzle", "check", str(out / "002.json")])
    assert r.exit_code == 0, r.output
    # no overwrite without --force: one-line error, exit 2
    proc = _fleece("mutton", "puzzle", "generate", "--count", "1", "--seed", "4", "--out",
                   str(out))
    assert proc.returncode == 2 and "already exists" in proc.stderr
    assert proc.stderr.count("\n") == 1
    # a wrong label and a wrong answer are failures (exit 1)
    txt = (out / "001.txt").read_text().replace("Grade: medium", "Grade: easy")
    (out / "bad.txt").write_text(txt)
    (out / "bad.solution.txt").write_text("Answer: A B C D\n")
    r = invoke(["mutton", "puzzle", "check", str(out / "bad.txt")])
    assert r.exit_code == 1 and "MISMATCH" in r.output
    # an ambiguous puzzle (a round removed) fails
    lines = (out / "001.txt").read_text().splitlines()
    (out / "amb.txt").write_text("\n".join(lines[:-1]) + "\n")
    r = invoke(["mutton", "puzzle", "check", str(out / "amb.txt")])
    assert r.exit_code == 1 and "NOT UNIQUE" in r.output
    (out / "junk.txt").write_text("hello\n")
    proc = _fleece("mutton", "puzzle", "check", str(out / "junk.txt"))
    assert proc.returncode == 2 and "junk.txt, line 1" in proc.stderr
    proc = _fleece("mutton", "puzzle", "generate", "--grade", "tricky", "--out",
                   str(tmp_path / "x"))
    assert proc.returncode == 2 and "unknown grade" in proc.stderr


def _fleece(*args: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-m", "fleece", *args], cwd=root, capture_output=True,
                          text=True, check=False)


def test_attempt_is_deterministic() -> None:
    """The same seed gives the same puzzle; the seed is one that yields a puzzle ("z:1" gave
    None twice, which compared equal without testing anything), and its answer is checked
    against brute force."""
    a = attempt(RULES, Grade.EASY, Question.ALL, "z:3")
    b = attempt(RULES, Grade.EASY, Question.ALL, "z:3")
    assert a is not None and b is not None
    assert render_puzzle(a) == render_puzzle(b) and a == b
    assert brute_force_sets(a.chart, a.wolves) == [a.answer]
    assert a.grade is Grade.EASY


NO_ANSWER = """Wolves: 1
Question: Name all 1 wolves.

Sheep   : A B x D E F G H I J K L M N O P Q R S T U V x X Y Z
Round  1: + + x
Round  2:                                           + x +
"""


def test_puzzle_check_tells_no_answer_from_several() -> None:
    """One wolf cannot be a runner of both rounds (A/B and V/X), so no wolf set fits: the
    check says NONE, not NOT UNIQUE; with two wolves the same chart has 4 answers."""
    v = z3_verify(parse_chart(NO_ANSWER.split("\n\n", 1)[1]), 1, Question.ALL)
    assert v.answer is None and not v.consistent
    r = invoke(["mutton", "puzzle", "check", "-"], stdin=NO_ANSWER)
    assert r.exit_code == 1 and "answer: NONE (no wolf set fits the chart, z3)" in r.stdout
    two = NO_ANSWER.replace("Wolves: 1", "Wolves: 2").replace("all 1 wolves", "all 2 wolves")
    v2 = z3_verify(parse_chart(two.split("\n\n", 1)[1]), 2, Question.ALL)
    assert v2.answer is None and v2.consistent
    r2 = invoke(["mutton", "puzzle", "check", "-"], stdin=two)
    assert r2.exit_code == 1 and "NOT UNIQUE" in r2.stdout


def test_certain_question_needs_a_certain_wolf_and_an_open_rest() -> None:
    """`certain`: B, the only runner of round 1, is certainly a wolf. With 2 wolves the other
    is any of C D E, so the answer is {B}; with 1 wolf every wolf is known and the question
    has no answer of its own (it would be the `all` question)."""
    chart = parse_chart("Sheep   : x B C D E\nRound  1: x +")
    two = z3_verify(chart, 2, Question.CERTAIN)
    assert two.answer == {"B"} and two.consistent
    one = z3_verify(chart, 1, Question.CERTAIN)
    assert one.answer is None and one.consistent
    assert z3_verify(chart, 1, Question.ALL).answer == {"B"}
