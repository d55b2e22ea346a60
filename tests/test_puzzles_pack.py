"""The committed starter pack (puzzles/): every puzzle is still unique and minimal (z3), graded as
its folder and header say, and its solution file gives the same answer and a solution whose
steps use the named rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.mutton.check import z3_verify
from fleece.solver.puzzles.mutton.formats import parse_puzzle, parse_solution_answer
from fleece.solver.puzzles.mutton.human import human_solve
from fleece.solver.puzzles.pack import solution_path

ROOT = Path(__file__).resolve().parent.parent / "puzzles"
MUTTON = sorted((ROOT / "mutton").glob("*/[0-9][0-9][0-9].txt"))


def test_pack_has_ten_per_grade() -> None:
    for g in Grade:
        assert len(list((ROOT / "mutton" / g.label).glob("[0-9][0-9][0-9].txt"))) == 10


@pytest.mark.parametrize("path", MUTTON, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mutton_pack_puzzle(path: Path) -> None:
    spec = parse_puzzle(path.read_text(), str(path))
    twin = parse_puzzle(path.with_suffix(".json").read_text(), str(path))
    assert (twin.chart, twin.wolves, twin.question, twin.grade) == (
        spec.chart, spec.wolves, spec.question, spec.grade)
    v = z3_verify(spec.chart, spec.wolves, spec.question)
    assert v.unique and v.minimal, v
    claimed = parse_solution_answer(Path(solution_path(str(path))).read_text())
    assert claimed == v.answer
    sol = human_solve(spec.chart, spec.wolves, spec.question, target=v.answer)
    assert sol.grade is spec.grade is Grade[path.parent.name.upper()]


WOOF = sorted((ROOT / "woof").glob("*/[0-9][0-9][0-9].txt"))


def test_woof_pack_has_ten_per_grade() -> None:
    for g in Grade:
        assert len(list((ROOT / "woof" / g.label).glob("[0-9][0-9][0-9].txt"))) == 10


@pytest.mark.parametrize("path", WOOF, ids=lambda p: f"woof/{p.parent.name}/{p.name}")
def test_woof_pack_puzzle(path: Path) -> None:
    from fleece.solver.puzzles.woof.answer import answer
    from fleece.solver.puzzles.woof.check import z3_answer
    from fleece.solver.puzzles.woof.formats import parse_puzzle, solution_answer
    from fleece.solver.puzzles.woof.human import human_solve

    ev, q, grade, _ = parse_puzzle(path.read_text(), str(path))
    ans, redundant = z3_answer(ev, q)
    assert ans is not None and redundant == []
    assert ans == answer(ev, q)
    assert solution_answer(Path(solution_path(str(path))).read_text()) == ans
    assert human_solve(ev, q).grade is grade is Grade[path.parent.name.upper()]
