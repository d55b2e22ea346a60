"""The committed Ulvtafl pack: `count` puzzles of each grade, one folder a grade, and an
index file that records the command that made it.

    fleece ulvtafl puzzle generate --grade all --count 10 --seed 1 --out puzzles/ulvtafl

writes puzzles/ulvtafl/{easy,medium,hard,expert}/NNN.{txt,json,solution.txt} (each folder as
one pack, `solver.puzzles.pack.write_files`) and puzzles/ulvtafl/INDEX.md. The puzzles of a
grade are `generate(grade, count, seed)`, the same whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fleece.rules.errors import FleeceError
from fleece.rules.io import atomic_write
from fleece.solver.puzzles.ulvtafl.formats import write_pack
from fleece.solver.puzzles.ulvtafl.generate import generate
from fleece.solver.puzzles.ulvtafl.grading import BANDS, UlvGrade
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle

INDEX = "INDEX.md"


def command(count: int, seed: int) -> str:
    """The command line that makes a pack."""
    return (f"fleece ulvtafl puzzle generate --grade all --count {count} --seed {seed} "
            "--out puzzles/ulvtafl")


def index_text(packs: dict[UlvGrade, list[UlvPuzzle]], count: int, seed: int) -> str:
    """The index file: the command, the counts per grade and kind, and one row a puzzle."""
    lines = ["# Ulvtafl puzzles", "",
             f"Made by `{command(count, seed)}`",
             f"(library: `fleece.solver.puzzles.ulvtafl.generate(grade, {count}, {seed})` for "
             "each grade). Every puzzle is re-checked by tests/test_ulvtafl_puzzles_pack.py.",
             "", "| grade | points | puzzles | unique main line | sheep to move | wolves to "
             "move | one wolf | two wolves |", "|---|---|---|---|---|---|---|---|"]
    lows = {g: least for g, least in BANDS}
    for grade, found in packs.items():
        top = lows.get(UlvGrade(grade + 1)) if grade < UlvGrade.EXPERT else None
        span = f"{lows[grade]}-{top - 1}" if top is not None else f"{lows[grade]} or more"
        sheep = sum(p.side == "sheep" for p in found)
        one = sum(p.state().wolves.bit_count() == 1 for p in found)
        lines.append(f"| {grade.label} | {span} | {len(found)} | "
                     f"{sum(bool(p.unique_line) for p in found)} | {sheep} | "
                     f"{len(found) - sheep} | {one} | {len(found) - one} |")
    lines += ["", "| file | claim | unique | origin |", "|---|---|---|---|"]
    for grade, found in packs.items():
        for i, p in enumerate(found, start=1):
            lines.append(f"| {grade.label}/{i:03d}.txt | {p.claim()} | "
                         f"{'yes' if p.unique_line else 'no'} | {p.origin} |")
    return "\n".join(lines) + "\n"


def build_packs(out: str, count: int, seed: int, *, workers: int = 1, force: bool = False,
                progress: Callable[[str, int, int], None] | None = None
                ) -> dict[UlvGrade, list[UlvPuzzle]]:
    """Generate and write the pack of every grade under `out`, and its index file."""
    root = Path(out)
    if not root.is_dir():
        raise FleeceError(f"{out}: no such folder", field="out")
    index = root / INDEX
    if index.exists() and not force:
        raise FleeceError(f"{index}: already exists (force to replace the packs)", field="out")
    packs: dict[UlvGrade, list[UlvPuzzle]] = {}
    for grade in UlvGrade:
        def tick(found: int, tried: int, label: str = grade.label) -> None:
            if progress is not None:
                progress(label, found, tried)

        packs[grade] = generate(grade, count, seed, workers=workers, progress=tick)
    for grade, found in packs.items():
        write_pack(found, str(root / grade.label), force=force)
    atomic_write(index, index_text(packs, count, seed), overwrite=True)
    return packs

