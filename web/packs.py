"""The committed puzzle packs (puzzles/mutton, puzzles/woof, puzzles/ulvtafl), read once when
the app starts: each puzzle's files and what its page draws."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

GAMES = ("mutton", "woof")
GRADES = ("easy", "medium", "hard")
_STEP = re.compile(r"^\d+\.\s")


@dataclass(frozen=True)
class Puzzle:
    """One committed puzzle: its files' text, the question, the answer and the steps, and
    what the page draws (the chart's columns, or the evidence lines)."""

    game: str
    grade: str
    number: str
    ident: str
    question: str
    text: str
    json_text: str
    solution: str
    answer: frozenset[str]
    steps: tuple[str, ...]
    picks: tuple[str, ...]  # what the player may pick: letters, seats or characters
    one_pick: bool  # a single character (Woof!! "What is seat N?")
    given: frozenset[str] = frozenset()  # Mutton "name all": wolves the chart shows
    wolves: int = 0  # Mutton: the wolves among the animals (the puzzle's header)
    grid: tuple[tuple[str, ...], ...] = ()  # Mutton: the chart as rows of cells
    labels: tuple[str, ...] = ()
    lines: tuple[str, ...] = field(default=())  # Woof!!: the evidence lines

    @property
    def path(self) -> str:
        """The page's path."""
        return f"/puzzles/{self.game}/{self.grade}/{self.number}"

    def summary(self) -> dict[str, Any]:
        """The puzzle in the list."""
        out: dict[str, Any] = {"game": self.game, "grade": self.grade,
                               "number": self.number, "id": self.ident,
                               "question": self.question, "page": self.path,
                               "api": "/api" + self.path}
        if self.game == "mutton":
            out["wolves"] = self.wolves
        return out

    def hidden(self) -> str:
        """Mutton: how many wolves are hidden among the animals, in words."""
        shown = len(self.given)
        left = self.wolves - shown
        text = f"{self.wolves} wol{'ves' if self.wolves != 1 else 'f'} in the flock"
        if shown:
            text += (f"; the chart shows {shown} of them, so {left} "
                     f"{'are' if left != 1 else 'is'} hidden")
        return text


def _steps(solution: str) -> tuple[str, ...]:
    return tuple(line for line in solution.splitlines() if _STEP.match(line))


def _mutton(grade: str, number: str, text: str, json_text: str, solution: str) -> Puzzle:
    from fleece.rules.mutton.chart import Status
    from fleece.solver.puzzles.mutton.answer import MuttonQuestion
    from fleece.solver.puzzles.mutton.formats import parse_puzzle, parse_solution_answer

    spec = parse_puzzle(text, number)
    answer = parse_solution_answer(solution, number)
    chart = spec.chart
    marks = {Status.DEAD_SHEEP: "x", Status.DEAD_WOLF: "w", Status.ESCAPED: "e",
             Status.DEAD: "x"}
    grid = [tuple(a if st is Status.ALIVE else marks[st]
                  for a, st in zip(chart.animals, chart.status, strict=True))]
    labels = ["Sheep"]
    for row in chart.rows:
        grid.append(tuple("x" if a == row.victim else "+" if a in row.runners else ""
                          for a in chart.animals))
        labels.append(f"Round {row.round}")
    shown = frozenset(a for a, st in zip(chart.animals, chart.status, strict=True)
                      if st in (Status.DEAD_WOLF, Status.ESCAPED))
    given = shown if spec.question is MuttonQuestion.ALL else frozenset()
    return Puzzle("mutton", grade, number, spec.ident, spec.question.text(spec.wolves), text,
                  json_text, solution, answer, _steps(solution), tuple(chart.animals), False,
                  given, spec.wolves, tuple(grid), tuple(labels))


def _woof(grade: str, number: str, text: str, json_text: str, solution: str) -> Puzzle:
    from fleece.rules.woof.cards import CHARACTERS
    from fleece.solver.puzzles.woof.answer import WOLVES, question_text
    from fleece.solver.puzzles.woof.formats import parse_puzzle, solution_answer

    ev, q, _, ident = parse_puzzle(text, number)
    answer_text = solution_answer(solution) or ""
    if q == WOLVES:
        picks = tuple(str(s) for s in ev.table.seat_numbers)
        answer = frozenset(answer_text.split())
    else:
        picks = tuple(c.value for c in CHARACTERS)
        answer = frozenset([answer_text.strip().lower()])
    lines = tuple(line for line in text.splitlines() if not line.startswith("#"))
    return Puzzle("woof", grade, number, ident, question_text(q), text, json_text, solution,
                  answer, _steps(solution), picks, q != WOLVES, lines=lines)


def load_packs() -> dict[str, Puzzle]:
    """Every committed puzzle by its page path (an empty dict when the packs are absent)."""
    out: dict[str, Puzzle] = {}
    root = resources.files("fleece").joinpath("puzzles")
    for game in GAMES:
        for grade in GRADES:
            folder = root.joinpath(game, grade)
            with contextlib.suppress(OSError):
                names = sorted(p.name for p in folder.iterdir())
                for name in names:
                    m = re.fullmatch(r"(\d{3})\.txt", name)
                    if m is None:
                        continue
                    number = m.group(1)
                    read = folder.joinpath
                    files = (read(name).read_text(encoding="utf-8"),
                             read(f"{number}.json").read_text(encoding="utf-8"),
                             read(f"{number}.solution.txt").read_text(encoding="utf-8"))
                    make = _mutton if game == "mutton" else _woof
                    p = make(grade, number, *files)
                    out[p.path] = p
    return out




ULV_GRADES = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class UlvPuzzle:
    """One committed Ulvtafl puzzle: its file's text, the solution file's text and the JSON
    twin's fields (position, side, plies, claim, solution, grade, id)."""

    grade: str
    number: str
    text: str
    json_text: str
    solution_text: str
    data: dict[str, Any]

    @property
    def path(self) -> str:
        """The page's path."""
        return f"/ulvtafl/puzzles/{self.grade}/{self.number}"

    @property
    def side(self) -> str:
        """The side to move, which wins."""
        return str(self.data["side"])

    def summary(self) -> dict[str, Any]:
        """The puzzle in the list."""
        return {"grade": self.grade, "number": self.number, "id": self.data.get("id", ""),
                "claim": self.data["claim"], "side": self.side, "plies": self.data["plies"],
                "page": self.path, "api": "/api" + self.path}


def load_ulvtafl_packs() -> dict[str, UlvPuzzle]:
    """Every committed Ulvtafl puzzle by its page path (empty when the pack is absent)."""
    out: dict[str, UlvPuzzle] = {}
    root = resources.files("fleece").joinpath("puzzles", "ulvtafl")
    for grade in ULV_GRADES:
        folder = root.joinpath(grade)
        with contextlib.suppress(OSError):
            for name in sorted(p.name for p in folder.iterdir()):
                m = re.fullmatch(r"(\d{3})\.txt", name)
                if m is None:
                    continue
                number = m.group(1)
                json_text = folder.joinpath(f"{number}.json").read_text(encoding="utf-8")
                p = UlvPuzzle(grade, number, folder.joinpath(name).read_text(encoding="utf-8"),
                              json_text,
                              folder.joinpath(f"{number}.solution.txt").read_text(
                                  encoding="utf-8"),
                              json.loads(json_text))
                out[p.path] = p
    return out
