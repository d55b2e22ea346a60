"""Mutton puzzle files: the human-readable text, its JSON twin, the solution file and an SVG
drawing.

A Mutton puzzle text is `#` comment lines, `Key: value` header lines (`Puzzle`, `Grade`,
`Wolves`, `Question`) and then the chart in pbmserv columns, which `rules.mutton.chart.
parse_chart` reads once the header and comment lines are blanked (line numbers are kept).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from fleece.rules.errors import ParseError
from fleece.rules.mutton.chart import Chart, Status, chart_from_json, parse_chart, render_chart
from fleece.rules.text import (
    json_bool,
    json_dict,
    json_int,
    json_object,
    json_str,
    load_json,
    quote,
    split_lines,
    whole_number,
)
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.mutton.answer import Masks, MuttonQuestion, iter_sets, letters_of
from fleece.solver.puzzles.mutton.generate import MuttonPuzzle
from fleece.solver.puzzles.mutton.human import HumanSolution, Rule
from fleece.solver.puzzles.pack import write_files

FORMAT = "fleece-puzzle"
VERSION = 1
HEADER_KEYS = ("puzzle", "grade", "wolves", "question")
_HEADER_RE = re.compile(r" *([A-Za-z]+) *: *(.*?) *")  # used with fullmatch
_SHEEP_RE = re.compile(r"^ *(sheep|animals?) *:", re.IGNORECASE | re.ASCII)

LEGEND = (
    "# fleece Mutton puzzle. Sheep row: x = dead sheep, w = dead wolf, e = escaped wolf; a plain\n"
    "# letter is an animal whose fate is not given. Each round: x = the victim (w when a wolf\n"
    "# ate a wolf), + = every animal that ran away; the killer is one of that round's runners.\n"
)


@dataclass(frozen=True)
class PuzzleSpec:
    """A puzzle as read from a file: what is asked, with the label it claims (grade may be None)."""

    chart: Chart
    wolves: int
    question: MuttonQuestion
    grade: Grade | None
    ident: str


# ---- Mutton text ------------------------------------------------------------------------------


def render_puzzle(p: MuttonPuzzle) -> str:
    """The puzzle text: legend comment, header lines, blank line, chart."""
    head = [f"Puzzle: {p.ident}", f"Grade: {p.grade.label}", f"Wolves: {p.wolves}",
            f"Question: {p.question.text(p.wolves)}"]
    return LEGEND + "\n".join(head) + "\n\n" + render_chart(p.chart) + "\n"


def _question_of(text: str, wolves: int, line: int) -> MuttonQuestion:
    """`all`, `certain`, or the question sentence a puzzle file prints (any letter case)."""
    t = " ".join(text.lower().split(" "))
    for q in MuttonQuestion:
        if t in (q.value, q.text(wolves).lower(), q.text(wolves).lower().rstrip(".")):
            return q
    raise ParseError(f"unknown question {quote(text)} (all, certain, or "
                     f"'{MuttonQuestion.ALL.text(wolves)}')", line=line, column=1)


def parse_puzzle(text: str, source: str | None = None) -> PuzzleSpec:
    """Read a Mutton puzzle text (or its JSON twin, recognised by a leading `{`)."""
    if text.lstrip(" \t\r\n").startswith("{"):
        return puzzle_from_json(text, source)
    try:
        return _parse_text(text)
    except ParseError as exc:
        raise exc.located(source) if source and exc.source is None else exc from None


def _parse_text(text: str) -> PuzzleSpec:
    lines = split_lines(text)
    head: dict[str, tuple[str, int]] = {}
    kept: list[str] = []
    in_chart = False
    for no, raw in enumerate(lines, start=1):
        line = raw.replace("\u00a0", " ").replace("\t", " ")
        if not in_chart and _SHEEP_RE.match(line):
            in_chart = True
        if in_chart:
            kept.append(raw)
            continue
        kept.append("")
        if not line.strip(" \t") or line.lstrip(" \t").startswith("#"):
            continue
        m = _HEADER_RE.fullmatch(line)
        if m is None or m.group(1).lower() not in HEADER_KEYS:
            raise ParseError(f"expected a header line ({', '.join(k.title() for k in HEADER_KEYS)})"
                             f" or the 'Sheep   :' row, found {quote(line.strip(' '))}",
                             line=no, column=1)
        key = m.group(1).lower()
        if key in head:
            raise ParseError(f"a second '{m.group(1)}:' line", line=no, column=1)
        head[key] = (m.group(2), no)
    if not in_chart:
        raise ParseError("no 'Sheep   :' row: the chart follows the header lines",
                         line=len(lines) or None)
    chart = parse_chart("\n".join(kept))
    if "wolves" not in head:
        raise ParseError("no 'Wolves: K' line before the chart", line=1)
    wtext, wline = head["wolves"]
    top = len(chart.animals) // 2
    wolves = whole_number(wtext, "'Wolves:'", lo=1, hi=top, line=wline, column=1)
    question = MuttonQuestion.ALL
    if "question" in head:
        question = _question_of(head["question"][0], wolves, head["question"][1])
    grade = None
    if "grade" in head:
        gtext, gline = head["grade"]
        try:
            grade = Grade[gtext.upper()] if gtext.isascii() else None
        except KeyError:
            grade = None
        if grade is None:
            raise ParseError(f"unknown grade {quote(gtext)} (easy, medium or hard)", line=gline,
                             column=1)
    ident = head.get("puzzle", ("", 0))[0]
    return PuzzleSpec(chart, wolves, question, grade, ident)


# ---- Mutton JSON twin -------------------------------------------------------------------------


def puzzle_json(p: MuttonPuzzle) -> str:
    """The JSON twin of a puzzle (no answer: that lives in the solution file)."""
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": "mutton", "id": p.ident,
        "grade": p.grade.label, "wolves": p.wolves, "question": p.question.value,
        "question_text": p.question.text(p.wolves), "chart": p.chart.to_json(),
        "chart_text": render_chart(p.chart),
    }
    return json.dumps(data, indent=2) + "\n"


def puzzle_from_json(text: str, source: str | None = None) -> PuzzleSpec:
    """Read a puzzle's JSON twin: strict types, every error a ParseError naming its field."""
    try:
        data = json_object(load_json(text), "")
        if json_str(data, "format", default="") != FORMAT or \
                json_str(data, "game", default="") != "mutton":
            raise ParseError("not a fleece Mutton puzzle (the 'format' and 'game' fields)")
        json_int(data, "version", default=VERSION, lo=VERSION, hi=VERSION)
        inner = json_dict(data, "chart")
        chart = chart_from_json(inner, reveal=json_bool(inner, "reveal", "chart", default=True),
                                path="chart")
        grade_text = json_str(data, "grade", default="")
        grade = None
        if grade_text:
            grade = Grade.__members__.get(grade_text.upper()) if grade_text.isascii() else None
            if grade is None:
                raise ParseError(f"field 'grade' must be easy, medium or hard, got "
                                 f"{quote(grade_text)}")
        wolves = json_int(data, "wolves", lo=1, hi=len(chart.animals) // 2)
        qtext = json_str(data, "question", default="all")
        question = MuttonQuestion.__members__.get(qtext.upper()) if qtext.isascii() else None
        if question is None or question.value != qtext:
            raise ParseError(f"field 'question' must be all or certain, got {quote(qtext)}")
        return PuzzleSpec(chart, wolves, question, grade, json_str(data, "id", default=""))
    except ParseError as exc:
        raise exc.located(source) if source and exc.source is None else exc from None


# ---- solution file ----------------------------------------------------------------------------


def _hardest(sol: HumanSolution) -> Rule | None:
    return max((s.rule for s in sol.steps), key=lambda r: (r.grade, list(Rule).index(r)),
               default=None)


def render_solution(p: MuttonPuzzle, sol: HumanSolution | None = None) -> str:
    """The solution file: answer, grade with its hardest rule, and the numbered deduction."""
    sol = sol or p.solution()
    rule = _hardest(sol)
    grade = sol.grade
    lines = [f"Puzzle: {p.ident}", f"Answer: {' '.join(sorted(p.answer))}",
             f"Grade: {grade.label if grade else 'unsolved'}"
             + (f" (hardest rule: {rule.label})" if rule else ""), ""]
    sheep = [a for a, s in zip(p.chart.animals, p.chart.status, strict=True)
             if s is Status.DEAD_SHEEP]
    wolves = [a for a, s in zip(p.chart.animals, p.chart.status, strict=True)
              if s in (Status.DEAD_WOLF, Status.ESCAPED)]
    given = []
    if sheep:
        given.append(f"{', '.join(sheep)} {'is a' if len(sheep) == 1 else 'are'} dead sheep")
    if wolves:
        known = "is a known wolf" if len(wolves) == 1 else "are known wolves"
        given.append(f"{', '.join(wolves)} {known}")
    if given:
        lines.append("Given: " + "; ".join(given) + ".")
    for i, st in enumerate(sol.steps, start=1):
        lines.append(f"{i}. [{st.rule.label}] {st.reason[0].upper()}{st.reason[1:]}.")
    if p.question is MuttonQuestion.CERTAIN:
        lines.append("")
        lines.append("No other animal is certain: each of these wolf sets fits every clue:")
        for ws in witness_sets(p):
            lines.append("  " + " ".join(ws))
    return "\n".join(lines) + "\n"


def witness_sets(p: MuttonPuzzle) -> list[list[str]]:
    """A few consistent wolf sets whose common part is exactly the certain wolves (and the wolves
    marked w/e): they show that no other animal is certain."""
    m = Masks.of(p.chart, p.wolves)
    common = -1
    out: list[list[str]] = []
    target = m.wolf | sum(1 << p.chart.animals.index(a) for a in p.answer)
    for s in iter_sets(m):
        if common == -1 or common & ~s:
            out.append(letters_of(s, p.chart.animals))
            common = s if common == -1 else common & s
        if common == target:
            break
    return out


def parse_solution_answer(text: str, source: str | None = None) -> frozenset[str]:
    """The `Answer:` line of a solution file."""
    for no, line in enumerate(split_lines(text), start=1):
        if line.lower().startswith("answer:"):
            letters = [a for a in line.split(":", 1)[1].split(" ") if a]
            if not all(len(a) == 1 and "A" <= a <= "Z" for a in letters) or \
                    len(set(letters)) != len(letters):
                raise ParseError("the Answer line lists capital letters", line=no,
                                 source=source)
            return frozenset(letters)
    raise ParseError("no 'Answer:' line", source=source)


# ---- SVG --------------------------------------------------------------------------------------


def puzzle_svg(p: MuttonPuzzle) -> str:
    """The chart as an SVG grid: one column per animal, the Sheep row, then one row per round."""
    cell = 24
    n = len(p.chart.animals)
    left = 80
    top = 40
    rows = len(p.chart.rows) + 1
    width = left + n * cell + 10
    height = top + rows * cell + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="monospace" font-size="14">',
           f'<text x="4" y="20">{p.ident}: {p.question.text(p.wolves)}</text>']
    marks = {Status.DEAD_SHEEP: "x", Status.DEAD_WOLF: "w", Status.ESCAPED: "e",
             Status.DEAD: "x"}
    labels = ["Sheep"] + [f"Round {r.round}" for r in p.chart.rows]
    for j, label in enumerate(labels):
        y = top + j * cell
        fill = "#eee" if j == 0 else "#fff"
        out.append(f'<text x="4" y="{y + 17}">{label}</text>')
        for i, a in enumerate(p.chart.animals):
            x = left + i * cell
            if j == 0:
                st = p.chart.status[i]
                mark = a if st is Status.ALIVE else marks[st]
            else:
                row = p.chart.rows[j - 1]
                mark = "x" if a == row.victim else "+" if a in row.runners else ""
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       'stroke="#888"/>')
            if mark:
                out.append(f'<text x="{x + 7}" y="{y + 17}">{mark}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def puzzle_files(p: MuttonPuzzle, *, svg: bool) -> dict[str, str]:
    """The files of one puzzle by extension: `.txt`, `.json`, `.solution.txt` (and `.svg`)."""
    files = {".txt": render_puzzle(p), ".json": puzzle_json(p),
             ".solution.txt": render_solution(p)}
    if svg:
        files[".svg"] = puzzle_svg(p)
    return files


def write_pack(puzzles: list[MuttonPuzzle], out_dir: str, *, force: bool, svg: bool
               ) -> list[str]:
    """Write each puzzle as NNN.txt, NNN.json, NNN.solution.txt (and NNN.svg) under `out_dir`
    (solver.puzzles.pack.write_pack); return the puzzle text paths."""
    return write_files([puzzle_files(p, svg=svg) for p in puzzles], out_dir, force=force)
