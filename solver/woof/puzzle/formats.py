"""Woof!! puzzle files: the evidence file with `#` header lines (id, grade, question), its JSON
twin, and the solution file (answer and numbered steps)."""

from __future__ import annotations

from fleece.rules.woof.evidence import Evidence, format_evidence, load_evidence
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.pack import write_files
from fleece.solver.woof.puzzle.answer import WOLVES, question_text
from fleece.solver.woof.puzzle.generate import WoofPuzzle
from fleece.solver.woof.puzzle.human import human_solve


def render_puzzle(p: WoofPuzzle) -> str:
    """The puzzle as an evidence file (`fleece woof solve` reads it) with `#` header lines."""
    head = (f"# fleece Woof!! puzzle\n# Puzzle: {p.ident}\n# Grade: {p.grade.label}\n"
            f"# Question: {question_text(p.question)}\n")
    return head + format_evidence(p.evidence)


def parse_puzzle(text: str, source: str | None = None
                 ) -> tuple[Evidence, int, Grade | None, str]:
    """Read a Woof puzzle file: (evidence, question, labelled grade, id)."""
    import json
    import re

    from fleece.rules.errors import ParseError

    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
            text = str(data["puzzle_text"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ParseError(f"malformed puzzle JSON: {exc}", source=source) from None
    ev = load_evidence(text, source)
    head = dict(re.findall(r"^#\s*(Puzzle|Grade|Question)\s*:\s*(.*?)\s*$", text, re.M))
    qtext = head.get("Question", "")
    m = re.search(r"seat\s+(\d+)", qtext, re.I)
    q = int(m.group(1)) if m else WOLVES
    if m is None and "wolves" not in qtext.lower():
        raise ParseError("no '# Question: Who are the wolves?' (or 'What is seat N?') line",
                         source=source)
    grade = Grade.parse(head["Grade"]) if "Grade" in head else None
    return ev, q, grade, head.get("Puzzle", "")


def puzzle_json(p: WoofPuzzle) -> str:
    """The JSON twin (no answer)."""
    import json

    return json.dumps({"format": "fleece-puzzle", "version": 1, "game": "woof", "id": p.ident,
                       "grade": p.grade.label, "question": question_text(p.question),
                       "puzzle_text": render_puzzle(p)}, indent=2) + "\n"


def render_solution(p: WoofPuzzle) -> str:
    """Answer and the step-by-step deduction in the named rules."""
    sol = human_solve(p.evidence, p.question)
    lines = [f"Puzzle: {p.ident}", f"Answer: {p.answer or 'no wolf'}",
             f"Grade: {sol.grade.label if sol.grade else 'unsolved'}", ""]
    lines += [f"{i}. [{s.rule}] {s.reason}." for i, s in enumerate(sol.steps, start=1)]
    return "\n".join(lines) + "\n"


def solution_answer(text: str) -> str | None:
    """The `Answer:` value of a Woof solution file (`no wolf` reads as the empty answer)."""
    for line in text.splitlines():
        if line.lower().startswith("answer:"):
            value = line.split(":", 1)[1].strip()
            return "" if value == "no wolf" else value
    return None


def puzzle_files(p: WoofPuzzle) -> dict[str, str]:
    """The files of one puzzle by extension: `.txt`, `.json`, `.solution.txt`."""
    return {".txt": render_puzzle(p), ".json": puzzle_json(p),
            ".solution.txt": render_solution(p)}


def write_pack(puzzles: list[WoofPuzzle], out_dir: str, *, force: bool) -> list[str]:
    """Write each puzzle as NNN.txt, NNN.json and NNN.solution.txt under `out_dir`."""
    return write_files([puzzle_files(p) for p in puzzles], out_dir, force=force)
