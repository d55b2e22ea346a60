"""Woof!! puzzle files: the evidence file with `#` header lines (id, grade, question), its JSON
twin, and the solution file (answer and numbered steps)."""

from __future__ import annotations

import re

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.text import (
    in_field,
    json_object,
    json_str,
    load_json,
    quote,
    split_lines,
    whole_number,
)
from fleece.rules.woof.evidence import Evidence, format_evidence, load_evidence
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.pack import write_files
from fleece.solver.puzzles.woof.answer import WOLVES, question_text
from fleece.solver.puzzles.woof.generate import WoofPuzzle
from fleece.solver.puzzles.woof.human import human_solve


def render_puzzle(p: WoofPuzzle) -> str:
    """The puzzle as an evidence file (`fleece woof solve` reads it) with `#` header lines."""
    head = (f"# fleece Woof!! puzzle\n# Puzzle: {p.ident}\n# Grade: {p.grade.label}\n"
            f"# Question: {question_text(p.question)}\n")
    return head + format_evidence(p.evidence)


_HEAD_RE = re.compile(r"# *(Puzzle|Grade|Question) *: *(.*?) *", re.ASCII)  # fullmatch
_QUESTION_RE = re.compile(r"who are the wolves\??|what is seat ([0-9]+)\??",
                          re.IGNORECASE | re.ASCII)  # used with fullmatch


def parse_puzzle(text: str, source: str | None = None
                 ) -> tuple[Evidence, int, Grade | None, str]:
    """Read a Woof puzzle file: (evidence, question, labelled grade, id). Its JSON twin (a
    leading `{`) holds the same text in `puzzle_text`; an error in that text names the field
    and the line inside it. A question about a seat the table does not have is an error."""
    if not text.lstrip(" \t\r\n").startswith("{"):
        try:
            return _parse_text(text, source)
        except ParseError as exc:
            raise exc.located(source) if source and exc.source is None else exc from None
    try:
        data = json_object(load_json(text), "")
        if json_str(data, "format", default="") != "fleece-puzzle" or \
                json_str(data, "game", default="") != "woof":
            raise ParseError("not a fleece Woof!! puzzle (the 'format' and 'game' fields)")
        body = json_str(data, "puzzle_text")
    except ParseError as exc:
        raise exc.located(source) if source and exc.source is None else exc from None
    try:
        return _parse_text(body, None)
    except ParseError as exc:
        raise in_field(exc, "puzzle_text").located(source) if source else \
            in_field(exc, "puzzle_text") from None


def _parse_text(text: str, source: str | None) -> tuple[Evidence, int, Grade | None, str]:
    ev = load_evidence(text, source)
    head: dict[str, tuple[str, int]] = {}
    for no, line in enumerate(split_lines(text), start=1):
        m = _HEAD_RE.fullmatch(line.replace("\t", " ")) if line.startswith("#") else None
        if m is None:
            continue
        if m.group(1) in head:
            raise ParseError(f"a second '# {m.group(1)}:' line", line=no, column=1,
                             source=source)
        head[m.group(1)] = (m.group(2), no)
    if "Question" not in head:
        raise ParseError("no '# Question: Who are the wolves?' (or 'What is seat N?') line",
                         source=source)
    qtext, qline = head["Question"]
    qm = _QUESTION_RE.fullmatch(qtext)
    if qm is None:
        raise ParseError(f"unknown question {quote(qtext)} ('Who are the wolves?' or 'What is "
                         "seat N?')", line=qline, column=1, source=source)
    q = WOLVES
    if qm.group(1) is not None:
        seats = ev.table.seats
        q = whole_number(qm.group(1), "the seat in the question", max_digits=4, line=qline,
                         column=1)
        if not 1 <= q <= seats:
            raise ParseError(f"the question asks about seat {q}, but the table has seats "
                             f"1..{seats}", line=qline, column=1, source=source)
    grade = None
    if "Grade" in head:
        gtext, gline = head["Grade"]
        try:
            grade = Grade.parse(gtext)
        except FleeceError as exc:
            raise ParseError(str(exc), line=gline, column=1, source=source) from None
    return ev, q, grade, head.get("Puzzle", ("", 0))[0]


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
    for line in split_lines(text):
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
