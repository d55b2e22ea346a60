"""Woof!! puzzles: the rule-limited solver never rules out a possible character, generated
puzzles are unique, minimal and graded, the same seed gives the same puzzles whatever the number
of worker processes (library and CLI), and the CLI check fails on a broken puzzle."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest
from helpers.scaling import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.woof.cards import Character, character_of
from fleece.rules.woof.evidence import Evidence, evidence_from_round
from fleece.rules.woof.round import Table
from fleece.rules.woof.simulate import simulate_round
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.woof.answer import (
    WOLVES,
    answer,
    answer_from,
    possible,
    redundant_facts,
    without,
)
from fleece.solver.puzzles.woof.formats import (
    parse_puzzle,
    render_puzzle,
    render_solution,
    solution_answer,
)
from fleece.solver.puzzles.woof.generate import generate
from fleece.solver.puzzles.woof.human import WoofSolution, human_solve


def rule_answer(ev: Evidence, q: int) -> tuple[WoofSolution, dict[int, set[Character]], str | None]:
    """The rule-limited solver's own answer: the solver decides `solved` by calling
    `answer_from` on its narrowed characters, so recording that call gives the characters it
    kept per seat and the answer it reached (the last call is on its final domains)."""
    from fleece.solver.puzzles.woof import human

    seen: list[tuple[dict[int, set[Character]], str | None]] = []

    def recording(poss: dict[int, set[Character]], question: int) -> str | None:
        got = answer_from(poss, question)
        seen.append(({s: set(cs) for s, cs in poss.items()}, got))
        return got

    with patch.object(human, "answer_from", recording):
        sol = human_solve(ev, q)
    assert seen
    return sol, seen[-1][0], seen[-1][1]


@settings(max_examples=examples(20))
@given(st.integers(0, 10**6), st.integers(4, 8))
def test_rule_solver_is_sound(seed: int, players: int) -> None:
    """W1-W12 deductions: the rule solver never rules out a character the exact solver keeps,
    and when it says "solved" its answer is the exact answer (also with facts removed)."""
    rng = random.Random(seed)
    rnd = simulate_round(Table(players), rng).round
    me = rng.choice(rnd.table.acting)
    ev = evidence_from_round(rnd, me=me)
    exact = possible(ev)
    for s, hand in rnd.hands.items():
        assert character_of(hand) in exact[s]  # the true deal stays possible
    cut = rng.sample(range(len(ev.facts)), min(3, len(ev.facts)))
    for part in [ev, *(without(ev, k) for k in cut)]:
        sol, kept, got = rule_answer(part, WOLVES)
        truth = exact if part is ev else possible(part)
        for s, cs in truth.items():
            assert cs <= kept[s], (s, cs, kept[s])
        if sol.solved:
            assert got is not None and got == answer_from(truth, WOLVES)


def test_generated_woof_puzzles() -> None:
    for grade in (Grade.EASY, Grade.MEDIUM):
        for p in generate(1, grade, seed=3):
            assert answer(p.evidence, p.question) == p.answer
            assert redundant_facts(p.evidence, p.question) == []
            assert human_solve(p.evidence, p.question).grade is grade
            sol, _, got = rule_answer(p.evidence, p.question)
            assert sol.solved and got == p.answer
            ev, q, g, ident = parse_puzzle(render_puzzle(p))
            assert (ev.facts, q, g, ident) == (p.evidence.facts, p.question, grade, p.ident)


def test_woof_cli_check_fails_on_a_broken_puzzle(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    src = root / "puzzles" / "woof" / "medium" / "001.txt"
    lines = src.read_text().splitlines()
    (tmp_path / "p.txt").write_text("\n".join(lines[:-1]) + "\n")  # drop the last fact
    proc = subprocess.run([sys.executable, "-m", "fleece", "woof", "puzzle", "check",
                           str(tmp_path / "p.txt")], cwd=root, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1 and "FAILED" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "fleece", "woof", "puzzle", "check", str(src)],
                          cwd=root, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "result: ok" in proc.stdout


def test_same_seed_same_puzzles_with_one_or_two_workers() -> None:
    one = generate(2, Grade.EASY, seed=4)
    two = generate(2, Grade.EASY, seed=4, workers=2)
    assert two == one  # evidence, question, answer, grade and id
    assert [p.ident for p in one] == ["woof-easy-001", "woof-easy-002"]
    assert len({render_puzzle(p) for p in one}) == 2


def _odd(n: int) -> int | None:
    """A stand-in attempt: |n| for odd n, no puzzle for even n (module level: picklable)."""
    return abs(n) if n % 2 else None


@pytest.mark.parametrize("workers", [1, 2])
def test_pool_takes_results_in_job_order_and_stops(workers: int) -> None:
    from fleece.solver.puzzles.pool import collect

    ticks: list[tuple[int, int]] = []
    found, tried = collect(_odd, [-3, 2, 3, 5, -5, 7, 9, 11], 3, workers=workers, key=str,
                           named=lambda p, n: p * 10 + n,
                           progress=lambda f, t: ticks.append((f, t)))
    assert (found, tried) == ([31, 52, 73], 6)  # 2 gives nothing; 3 and -5 repeat 3 and 5
    assert ticks == [(1, 1), (1, 2), (1, 3), (2, 4), (2, 5), (3, 6)]


def test_cli_generate_with_workers(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "pack"
    proc = subprocess.run([sys.executable, "-m", "fleece", "woof", "puzzle", "generate", "--count",
                           "2", "--grade", "easy", "--seed", "4", "--workers", "2", "--out",
                           str(out)], cwd=root, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 2 easy Woof!! puzzles" in proc.stdout
    for i, p in enumerate(generate(2, Grade.EASY, seed=4), start=1):
        assert (out / f"{i:03d}.txt").read_text() == render_puzzle(p)
        assert (out / f"{i:03d}.solution.txt").read_text() == render_solution(p)
    proc = subprocess.run([sys.executable, "-m", "fleece", "woof", "puzzle", "generate", "--count",
                           "1", "--workers", "0", "--out", str(tmp_path / "x")], cwd=root,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2


def test_puzzle_check_tells_no_answer_from_several() -> None:
    """W5: answers are truthful, so q1 about seat 3 answered yes to seat 2 and no to seat 4
    cannot both stand: no deal fits, and the check says NONE rather than NOT UNIQUE."""
    from helpers.clirun import invoke

    text = ("# Question: What is seat 3?\nseats 5\ndeck preset\nme 1\nhand 1 sheep sheep\n"
            "ask 2 3 q1 yes\nask 4 3 q1 no\n")
    r = invoke(["woof", "puzzle", "check", "-"], stdin=text)
    assert r.exit_code == 1 and "answer: NONE (no deal fits the evidence, z3)" in r.stdout
    r2 = invoke(["woof", "puzzle", "check", "-"], stdin=text.replace("ask 4 3 q1 no\n", ""))
    assert r2.exit_code == 1 and "NOT UNIQUE" in r2.stdout


def test_puzzle_check_data_for_a_good_a_contradictory_and_a_mislabelled_puzzle() -> None:
    """check_puzzle's verdict as data (what `--json` prints): the bundled medium puzzle 001 is
    unique, minimal, consistent and ok, and its solution file's answer matches; a wrong
    claimed answer is a MISMATCH; the contradictory evidence above is inconsistent and not
    unique; without a solution file no line about it."""
    from fleece.solver.puzzles.woof.check import check_puzzle

    root = Path(__file__).resolve().parent.parent / "puzzles" / "woof" / "medium"
    ev, q, grade, ident = parse_puzzle((root / "001.txt").read_text())
    claimed = solution_answer((root / "001.solution.txt").read_text())
    good = check_puzzle(ev, q, grade, claimed, ident)
    assert good.ok and good.data["unique"] is True and good.data["minimal"] is True
    assert good.data["answer"] == claimed and "consistent" not in good.data
    assert "solution file: answer matches" in good.lines
    wrong = check_puzzle(ev, q, grade, "9", ident)
    assert not wrong.ok and "solution file: MISMATCH, it says 9" in wrong.lines
    bare = check_puzzle(ev, q, None, None, ident)
    assert bare.ok and not any(line.startswith("solution file") for line in bare.lines)
    text = ("# Question: What is seat 3?\nseats 5\ndeck preset\nme 1\nhand 1 sheep sheep\n"
            "ask 2 3 q1 yes\nask 4 3 q1 no\n")
    ev2, q2, _, _ = parse_puzzle(text)
    none = check_puzzle(ev2, q2, None, None, "x")
    assert not none.ok and none.data["consistent"] is False and none.data["unique"] is False
