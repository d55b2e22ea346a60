"""The deduction puzzle pages (the committed Mutton and Woof!! packs): pick the suspects on the
chart (or the seats, or a character), check, and see the numbered solution. JSON twins:
`GET /api/puzzles` (the list), `GET /api/puzzles/GAME/GRADE/NNN` (the puzzle's committed
JSON twin, byte for byte), `POST .../check` with {"answer": [...]}, and `GET .../verdict`,
which is `fleece GAME puzzle check FILE --json` (z3 re-proves the puzzle)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from fleece.api import mutton, woof
from fleece.web.body import BadRequest, parse_form, read_body
from fleece.web.jobs import mutton as mutton_jobs
from fleece.web.jobs import woof as woof_jobs
from fleece.web.models import (
    ErrorBody,
    RequestModel,
    Word,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.packs import Puzzle
from fleece.web.site import REFUSED, SiteDep, cli_json, json_error, no_such_puzzle, refusal

api = APIRouter(prefix="/api/puzzles", tags=["puzzles"])
pages = APIRouter(include_in_schema=False)
Game = Literal["mutton", "woof"]
Grade = Literal["easy", "medium", "hard"]
Number = Annotated[str, Field(pattern=r"^[0-9]{3}$", description="the puzzle's number, `001`")]


class PuzzleSummary(BaseModel):
    """One puzzle in the list (`wolves`: Mutton's number of wolves)."""

    game: str
    grade: str
    number: str
    id: str
    question: str
    page: str
    api: str
    wolves: int | None = None


class PuzzleList(BaseModel):
    """The committed deduction puzzles."""

    puzzles: list[PuzzleSummary]


class AnswerBody(RequestModel):
    """A player's answer: the letters (Mutton), the seats (Woof!! "who are the wolves?") or
    one character (Woof!! "what is seat N?")."""

    answer: tuple[Word, ...] = Field((), max_length=40, description="what the player picks")


class Verdict(BaseModel):
    """Whether the answer is right, the answer, what was counted as named (`given`: the
    picks and, for "name all the wolves", those the chart shows) and the numbered solution."""

    id: str
    correct: bool
    answer: list[str]
    given: list[str]
    solution: list[str]


MuttonCheck = report_model(mutton.PuzzleCheckReport, "MuttonPuzzleCheckReport")
WoofCheck = report_model(woof.PuzzleCheckReport, "WoofPuzzleCheckReport")


def _find(site: Any, game: str, grade: str, number: str) -> Puzzle | None:
    found: Puzzle | None = site.puzzles.get(f"/puzzles/{game}/{grade}/{number}")
    return found


def check(p: Puzzle, picked: list[str]) -> dict[str, Any]:
    """The verdict on a player's answer: right or not, with the answer and the steps."""
    if len(picked) > len(p.picks) or any(x not in p.picks for x in picked):
        bad = next((x for x in picked if x not in p.picks), picked[0] if picked else "")
        raise BadRequest(f"answer: {bad[:20]!r} is not one of {', '.join(p.picks)}",
                         field="answer")
    if p.one_pick and len(picked) != 1:
        raise BadRequest("answer: pick exactly one character", field="answer")
    chosen = frozenset(picked) | p.given
    return {"id": p.ident, "correct": chosen == p.answer, "answer": sorted(p.answer),
            "given": sorted(chosen), "solution": list(p.steps)}


NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody,
                                                   "description": "no such puzzle"}}


@api.get("", response_model=PuzzleList, summary="The committed deduction puzzles")
async def index(site: SiteDep) -> Response:
    """Every puzzle of the committed Mutton and Woof!! packs: its question and where its page
    and JSON twin are."""
    return cli_json({"puzzles": [p.summary() for p in site.puzzles.values()]})


@api.get("/{game}/{grade}/{number}", responses=NOT_FOUND, summary="One puzzle")
async def puzzle(site: SiteDep, game: Game, grade: Grade, number: Number) -> Response:
    """The puzzle's committed JSON twin, byte for byte (as `puzzle generate` wrote it; it
    holds no answer)."""
    p = _find(site, game, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return Response(p.json_text, media_type="application/json")


@api.post("/{game}/{grade}/{number}/check", response_model=Verdict, responses=NOT_FOUND,
          openapi_extra=body_schema(AnswerBody), summary="Check an answer")
async def check_answer(site: SiteDep, game: Game, grade: Grade, number: Number,
                       body: Annotated[AnswerBody, Depends(json_body(AnswerBody))]
                       ) -> Response:
    """Check an answer: right or not, the answer and the numbered solution."""
    p = _find(site, game, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return cli_json(check(p, list(body.answer)))


@api.get("/{game}/{grade}/{number}/verdict", response_model=MuttonCheck | WoofCheck,
         responses=NOT_FOUND, summary="Re-prove a puzzle with z3")
async def verdict(site: SiteDep, game: Game, grade: Grade, number: Number) -> Response:
    """z3 proves again that the answer is unique and every clue needed, and grades the
    puzzle: what `fleece GAME puzzle check FILE --json` prints."""
    p = _find(site, game, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    name = f"{p.number}.txt"
    if p.game == "mutton":
        return await site.api_job(mutton_jobs.puzzle_verdict, mutton.PuzzleCheckRequest(
            puzzle=p.text, solution=p.solution, source=name, solution_source=name))
    return await site.api_job(woof_jobs.puzzle_verdict, woof.PuzzleCheckRequest(
        puzzle=p.text, solution=p.solution, source=name))


class PickForm(RequestModel):
    """The puzzle page's form: the picks and the "show the solution" button."""

    pick: tuple[Word, ...] = Field((), max_length=40)
    show: bool = False


@pages.get("/puzzles")
async def puzzles_page(request: Request, site: SiteDep) -> Response:
    """The list of puzzles."""
    return site.page(request, "puzzles.html", puzzles=[p.summary() for p in
                                                       site.puzzles.values()],
                     ulvtafl=[p.summary() for p in site.ulvtafl_puzzles.values()])


@pages.get("/puzzles/{game}/{grade}/{number}")
async def puzzle_page(request: Request, site: SiteDep, game: str, grade: str,
                      number: str) -> Response:
    """One puzzle: pick, check, see the solution."""
    p = _find(site, game, grade, number)
    if p is None:
        return no_such_puzzle(request, site)
    return site.page(request, "puzzle.html", p=p, picked=[], verdict=None, error=None)


@pages.post("/puzzles/{game}/{grade}/{number}")
async def puzzle_check_page(request: Request, site: SiteDep, game: str, grade: str,
                            number: str) -> Response:
    """One puzzle after Check or Show the solution."""
    p = _find(site, game, grade, number)
    if p is None:
        return no_such_puzzle(request, site)
    submitted = parse_form(await read_body(request), repeatable=("pick",))
    raw = submitted.get("pick", [])
    picked = [x for x in (raw if isinstance(raw, list) else [raw]) if x]
    try:
        form = from_form(PickForm, submitted)
        verdict = check(p, list(form.pick)) if not form.show or form.pick else None
    except REFUSED as exc:
        status, message = refusal(exc)
        return site.page(request, "puzzle.html", status, p=p, picked=picked, verdict=None,
                         error=message)
    if form.show:
        verdict = verdict or {"correct": None, "answer": sorted(p.answer), "given": [],
                              "solution": list(p.steps)}
        verdict["correct"] = None
    return site.page(request, "puzzle.html", p=p, picked=picked, verdict=verdict,
                     error=None)
