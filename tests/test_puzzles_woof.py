"""Woof!! puzzles: the rule-limited solver never rules out a possible character, generated
puzzles are unique, minimal and graded, and the CLI check fails on a broken puzzle."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.woof.cards import character_of
from rules.woof.evidence import evidence_from_round
from rules.woof.round import Table
from rules.woof.simulate import simulate_round
from solver.puzzles import woof
from solver.puzzles.mutton import Grade


@settings(max_examples=20)
@given(st.integers(0, 10**6), st.integers(4, 8))
def test_rule_solver_is_sound(seed: int, players: int) -> None:
    rng = random.Random(seed)
    rnd = simulate_round(Table(players), rng).round
    me = rng.choice(rnd.table.acting)
    ev = evidence_from_round(rnd, me=me)
    exact = woof.possible(ev)
    for s, hand in rnd.hands.items():
        assert character_of(hand) in exact[s]  # the true deal stays possible
    sol = woof.human_solve(ev, woof.WOLVES)
    if sol.solved:
        assert woof.answer(ev, woof.WOLVES) is not None
    for k in range(len(ev.facts)):  # with facts removed too, never a false "solved"
        part = woof.without(ev, k)
        if woof.human_solve(part, woof.WOLVES).solved:
            assert woof.answer(part, woof.WOLVES) is not None


def test_generated_woof_puzzles() -> None:
    for grade in (Grade.EASY, Grade.MEDIUM):
        for p in woof.generate(1, grade, seed=3):
            assert woof.answer(p.evidence, p.question) == p.answer
            assert woof.redundant_facts(p.evidence, p.question) == []
            assert woof.human_solve(p.evidence, p.question).grade is grade
            ev, q, g, ident = woof.parse_puzzle(woof.render_puzzle(p))
            assert (ev.facts, q, g, ident) == (p.evidence.facts, p.question, grade, p.ident)


def test_woof_cli_check_fails_on_a_broken_puzzle(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    src = root / "puzzles" / "woof" / "medium" / "001.txt"
    lines = src.read_text().splitlines()
    (tmp_path / "p.txt").write_text("\n".join(lines[:-1]) + "\n")  # drop the last fact
    proc = subprocess.run([sys.executable, "-m", "cli", "woof", "puzzle", "check",
                           str(tmp_path / "p.txt")], cwd=root, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1 and "FAILED" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "cli", "woof", "puzzle", "check", str(src)],
                          cwd=root, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "result: ok" in proc.stdout
