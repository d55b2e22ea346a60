"""The puzzle pages: the committed packs (puzzles/mutton, puzzles/woof), read once at start.
Pick the suspects on the chart (or the seats, or a character), check, and see the numbered
solution. JSON twins: `GET /api/puzzles` (the list), `GET /api/puzzles/GAME/GRADE/NNN` (the
puzzle's committed JSON twin, byte for byte), `POST .../check` with {"answer": [...]}, and
`GET .../verdict`, which is `fleece GAME puzzle check FILE --json` (z3 re-proves the puzzle).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fleece.web import jobs
from fleece.web.common import (
    api,
    cli_json,
    form_fields,
    html,
    json_error,
    json_fields,
    page,
    run_api_job,
    site,
)
from fleece.web.fields import BadRequest, Fields

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
    grid: tuple[tuple[str, ...], ...] = ()  # Mutton: the chart as rows of cells
    labels: tuple[str, ...] = ()
    lines: tuple[str, ...] = field(default=())  # Woof!!: the evidence lines

    @property
    def path(self) -> str:
        """The page's path."""
        return f"/puzzles/{self.game}/{self.grade}/{self.number}"

    def summary(self) -> dict[str, Any]:
        """The puzzle in the list."""
        return {"game": self.game, "grade": self.grade, "number": self.number,
                "id": self.ident, "question": self.question, "page": self.path,
                "api": "/api" + self.path}


def _steps(solution: str) -> tuple[str, ...]:
    return tuple(line for line in solution.splitlines() if _STEP.match(line))


def _mutton(grade: str, number: str, text: str, json_text: str, solution: str) -> Puzzle:
    from fleece.rules.mutton.chart import Status
    from fleece.solver.mutton.puzzle.answer import MuttonQuestion
    from fleece.solver.mutton.puzzle.formats import parse_puzzle, parse_solution_answer

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
                  given, tuple(grid), tuple(labels))


def _woof(grade: str, number: str, text: str, json_text: str, solution: str) -> Puzzle:
    from fleece.rules.woof.cards import CHARACTERS
    from fleece.solver.woof.puzzle.answer import WOLVES, question_text
    from fleece.solver.woof.puzzle.formats import parse_puzzle, solution_answer

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


def _find(request: Request) -> Puzzle | None:
    params = request.path_params
    key = f"/puzzles/{params['game']}/{params['grade']}/{params['number']}"
    found: Puzzle | None = site(request).puzzles.get(key)
    return found


def check(p: Puzzle, picked: list[str]) -> dict[str, Any]:
    """The verdict on a player's answer: right or not, with the answer and the steps."""
    if len(picked) > len(p.picks) or any(x not in p.picks for x in picked):
        bad = next((x for x in picked if x not in p.picks), picked[0] if picked else "")
        raise BadRequest(f"answer: {bad[:20]!r} is not one of {', '.join(p.picks)}")
    if p.one_pick and len(picked) != 1:
        raise BadRequest("answer: pick exactly one character")
    chosen = frozenset(picked) | p.given
    return {"id": p.ident, "correct": chosen == p.answer, "answer": sorted(p.answer),
            "given": sorted(chosen), "solution": list(p.steps)}


@html
async def index(request: Request) -> Response:
    """The list of puzzles."""
    packs = site(request).puzzles.values()
    return page(request, "puzzles.html", puzzles=[p.summary() for p in packs])


@html
async def puzzle_page(request: Request) -> Response:
    """One puzzle: pick, check, see the solution."""
    p = _find(request)
    if p is None:
        return page(request, "error.html", 404, title="Not found", message="no such puzzle",
                    code=404)
    if request.method == "GET":
        return page(request, "puzzle.html", p=p, picked=[], verdict=None, error=None)
    f = await form_fields(request, repeatable=("pick",))
    picked = f.words("pick", limit=40)
    give_up = f.flag("show")
    f.check_known()
    try:
        verdict = check(p, picked) if not give_up or picked else None
    except BadRequest as exc:
        return page(request, "puzzle.html", 400, p=p, picked=picked, verdict=None,
                    error=str(exc))
    if give_up:
        verdict = verdict or {"correct": None, "answer": sorted(p.answer), "given": [],
                              "solution": list(p.steps)}
        verdict["correct"] = None
    return page(request, "puzzle.html", p=p, picked=picked, verdict=verdict, error=None)


@api
async def api_index(request: Request) -> Response:
    """The committed puzzles."""
    return cli_json({"puzzles": [p.summary() for p in site(request).puzzles.values()]})


@api
async def api_puzzle(request: Request) -> Response:
    """One puzzle's committed JSON twin (as `puzzle generate` wrote it; no answer)."""
    p = _find(request)
    if p is None:
        return json_error("no such puzzle", 404)
    return Response(p.json_text, media_type="application/json")


@api
async def api_check(request: Request) -> Response:
    """Check an answer {"answer": [letters | seats | a character]}: right or not, the answer
    and the numbered solution."""
    p = _find(request)
    if p is None:
        return json_error("no such puzzle", 404)
    f: Fields = await json_fields(request)
    picked = f.words("answer", limit=40)
    f.check_known()
    return cli_json(check(p, picked))


@api
async def api_verdict(request: Request) -> Response:
    """Re-prove the committed puzzle with z3: what `fleece GAME puzzle check FILE --json`
    prints."""
    p = _find(request)
    if p is None:
        return json_error("no such puzzle", 404)
    fn = jobs.mutton_puzzle_verdict if p.game == "mutton" else jobs.woof_puzzle_verdict
    return await run_api_job(request, fn, p.text, p.solution, f"{p.number}.txt")


def routes() -> list[BaseRoute]:
    """The puzzle routes."""
    tail = "{game}/{grade}/{number}"
    return [Route("/puzzles", index),
            Route(f"/puzzles/{tail}", puzzle_page, methods=["GET", "POST"]),
            Route("/api/puzzles", api_index),
            Route(f"/api/puzzles/{tail}", api_puzzle),
            Route(f"/api/puzzles/{tail}/check", api_check, methods=["POST"]),
            Route(f"/api/puzzles/{tail}/verdict", api_verdict)]
