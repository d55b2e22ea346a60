"""The committed Ulvtafl pack (puzzles/ulvtafl): every puzzle re-checked by the independent
pure-Python method, its JSON twin and solution file consistent with it, graded as its folder
says; the pack mixes both sides and one and two wolves; its index is current; and the
command recorded in the index makes the same puzzles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fleece.solver.puzzles.ulvtafl import UlvGrade, check, generate, parse_puzzle
from fleece.solver.puzzles.ulvtafl.formats import render_solution
from fleece.solver.puzzles.ulvtafl.packs import INDEX, index_text

ROOT = Path(__file__).resolve().parent.parent / "puzzles" / "ulvtafl"
FILES = sorted(ROOT.glob("*/[0-9][0-9][0-9].txt"))


def _recorded() -> tuple[int, int]:
    """The count and seed of the command the index records."""
    m = re.search(r"--count (\d+) --seed (\d+)", (ROOT / INDEX).read_text())
    assert m is not None
    return int(m.group(1)), int(m.group(2))


def test_ten_per_grade_both_sides_one_and_two_wolves() -> None:
    count, _ = _recorded()
    assert count >= 10
    kinds = set()
    for grade in UlvGrade:
        files = sorted((ROOT / grade.label).glob("[0-9][0-9][0-9].txt"))
        assert [f.name for f in files] == [f"{i:03d}.txt" for i in range(1, count + 1)]
        for f in files:
            p = parse_puzzle(f.read_text(), str(f))
            kinds.add((p.side, p.state().wolves.bit_count()))
    assert kinds == {("sheep", 1), ("sheep", 2), ("wolves", 1), ("wolves", 2)}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_pack_puzzle(path: Path) -> None:
    p = parse_puzzle(path.read_text(), str(path))
    assert parse_puzzle(path.with_suffix(".json").read_text(), str(path)) == p
    assert p.grade is UlvGrade.parse(path.parent.name)
    assert p.ident == f"ulvtafl-{path.parent.name}-{path.stem}"
    v = check(p)
    assert v.sound, v.reasons
    assert (v.winner, v.plies, v.solution, v.grade, v.unique_line) == (
        p.side, p.plies, p.solution, path.parent.name, p.unique_line)
    assert path.with_name(f"{path.stem}.solution.txt").read_text() == render_solution(p)


def test_index_is_current() -> None:
    count, seed = _recorded()
    packs = {g: [parse_puzzle((ROOT / g.label / f"{i:03d}.txt").read_text())
                 for i in range(1, count + 1)] for g in UlvGrade}
    assert (ROOT / INDEX).read_text() == index_text(packs, count, seed)


def test_recorded_command_makes_the_same_puzzles() -> None:
    """The first medium puzzles of `generate(MEDIUM, count, seed)` are the committed ones
    (the whole pack takes about half a minute: benchmarks/bench_ulvtafl_puzzles.py)."""
    _, seed = _recorded()
    fresh = generate(UlvGrade.MEDIUM, 2, seed)
    assert fresh == [parse_puzzle((ROOT / "medium" / f"{i:03d}.txt").read_text())
                     for i in (1, 2)]
