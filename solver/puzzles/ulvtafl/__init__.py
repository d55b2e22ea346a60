"""Ulvtafl puzzles: "X to move and win in N plies", with exactly one winning first move,
graded from data and checked by an independent method.

- `generate(grade, count, seed, ...)`: puzzles from the exact solver (`generate`);
- `check(puzzle)`: every claim re-proved in pure Python over the reference model (`check`);
- `parse_puzzles`, `render_puzzle`, `puzzle_json`, `write_pack`: the files (`formats`);
- `values_for`, `best_move`, `hint`, `step`: playing a puzzle on a board (`play`);
- `UlvGrade` and the grade table (`grading`), `UlvPuzzle` (`puzzle`).

Imports: fleece.rules, fleece.solver.ulvtafl (the compiled retrograde table, for generating
and playing) and fleece.solver.puzzles; the check uses no solver engine.
"""

from fleece.solver.puzzles.ulvtafl.check import UlvVerdict, check
from fleece.solver.puzzles.ulvtafl.formats import (
    parse_puzzle,
    parse_puzzles,
    puzzle_json,
    render_puzzle,
    render_puzzles,
    render_solution,
    write_pack,
)
from fleece.solver.puzzles.ulvtafl.generate import generate
from fleece.solver.puzzles.ulvtafl.grading import Features, UlvGrade
from fleece.solver.puzzles.ulvtafl.play import Hint, Step, best_move, hint, step, values_for
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle

__all__ = ["Features", "Hint", "Step", "UlvGrade", "UlvPuzzle", "UlvVerdict", "best_move",
           "check", "generate", "hint", "parse_puzzle", "parse_puzzles", "puzzle_json",
           "render_puzzle", "render_puzzles", "render_solution", "step", "values_for",
           "write_pack"]
