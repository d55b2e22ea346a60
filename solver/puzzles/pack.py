"""Writing a pack of puzzles (any game): numbered files NNN.ext in one folder, never clobbering
a user's file by accident, and the solution file that belongs to a puzzle file."""

from __future__ import annotations

from pathlib import Path

from fleece.rules.io import atomic_write


def existing_outputs(out_dir: str, count: int, *, svg: bool) -> list[str]:
    """Files a pack of `count` puzzles would overwrite (checked before generating)."""
    exts = [".txt", ".json", ".solution.txt"] + ([".svg"] if svg else [])
    return [str(Path(out_dir) / f"{i:03d}{e}") for i in range(1, count + 1) for e in exts
            if (Path(out_dir) / f"{i:03d}{e}").exists()]


def write_files(puzzles: list[dict[str, str]], out_dir: str, *, force: bool) -> list[str]:
    """Write puzzle i's files (extension -> text) as NNN.ext under `out_dir`, each atomically,
    refusing to replace an existing file unless `force`; return the NNN.txt paths."""
    paths = []
    for i, files in enumerate(puzzles, start=1):
        base = Path(out_dir) / f"{i:03d}"
        for ext, text in files.items():
            atomic_write(Path(f"{base}{ext}"), text, overwrite=force)
        paths.append(f"{base}.txt")
    return paths


def solution_path(puzzle_path: str) -> str:
    """The solution file beside a puzzle file (`NNN.txt` or `NNN.json` -> `NNN.solution.txt`)."""
    for ext in (".txt", ".json"):
        if puzzle_path.endswith(ext):
            return puzzle_path[: -len(ext)] + ".solution.txt"
    return puzzle_path + ".solution.txt"
