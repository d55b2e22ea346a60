"""Ulvtafl's "to move and win" puzzles (the committed pack, puzzles/ulvtafl): play the moves on
the board, the defence replies with its best move, a hint shows the threat (least to most
telling: the threat in words, the piece, the move), a move that throws the win away says so
and can be taken back. JSON twins under /api/ulvtafl/puzzles: the list, a puzzle's JSON
twin, `.../play` and `.../hint` (fleece.api.ulvtafl.play_puzzle and puzzle_hint) and
`.../verdict` (`fleece ulvtafl puzzle check FILE --json`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from fleece.api import ulvtafl
from fleece.web.body import parse_form, read_body
from fleece.web.jobs import ulvtafl as jobs
from fleece.web.models import (
    ErrorBody,
    Line,
    RequestModel,
    ShortText,
    Word,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.packs import UlvPuzzle
from fleece.web.site import REFUSED, Site, SiteDep, cli_json, json_error, no_such_puzzle, refusal

api = APIRouter(prefix="/api/ulvtafl/puzzles", tags=["ulvtafl puzzles"])
pages = APIRouter(include_in_schema=False)
Grade = Literal["easy", "medium", "hard", "expert"]
Number = Annotated[str, Field(pattern=r"^[0-9]{3}$", description="the puzzle's number, `001`")]
MAX_MOVES = 200
HINTS = ("the threat", "the piece to move", "the move")  # hint levels 1, 2, 3


class UlvPuzzleSummary(BaseModel):
    """One puzzle in the list."""

    grade: str
    number: str
    id: str
    claim: str
    side: str
    plies: int
    page: str
    api: str


class UlvPuzzleList(BaseModel):
    """The committed Ulvtafl puzzles."""

    puzzles: list[UlvPuzzleSummary]


class HintBody(RequestModel):
    """The moves played so far from the puzzle's position (both sides', U8 notation)."""

    moves: tuple[Word, ...] = Field((), max_length=MAX_MOVES, description=(
        "every move played from the puzzle's position, both sides'"))

    def to_request(self, p: UlvPuzzle) -> ulvtafl.PuzzlePlayRequest:
        """The library's request for the puzzle `p`."""
        return ulvtafl.PuzzlePlayRequest(puzzle=p.text, moves=self.moves,
                                         source=f"{p.number}.txt")


class PlayBody(HintBody):
    """The moves played so far and the user's next move."""

    move: Line = Field(description="the user's move in U8 notation (`d3-d4`, `d5xd3`)")

    def to_request(self, p: UlvPuzzle) -> ulvtafl.PuzzlePlayRequest:
        """The library's request for the puzzle `p`."""
        return ulvtafl.PuzzlePlayRequest(puzzle=p.text, moves=self.moves, move=self.move,
                                         source=f"{p.number}.txt")


StepOut = report_model(ulvtafl.PuzzleStepReport, "UlvtaflPuzzleStepReport")
HintOut = report_model(ulvtafl.PuzzleHintReport, "UlvtaflPuzzleHintReport")
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody,
                                                   "description": "no such puzzle"}}


def _find(site: Site, grade: str, number: str) -> UlvPuzzle | None:
    found: UlvPuzzle | None = site.ulvtafl_puzzles.get(f"/ulvtafl/puzzles/{grade}/{number}")
    return found


@api.get("", response_model=UlvPuzzleList, summary="The committed Ulvtafl puzzles")
async def index(site: SiteDep) -> Response:
    """Every puzzle of the committed pack: its claim and where its page and JSON are."""
    return cli_json({"puzzles": [p.summary() for p in site.ulvtafl_puzzles.values()]})


@api.get("/{grade}/{number}", responses=NOT_FOUND, summary="One Ulvtafl puzzle")
async def puzzle(site: SiteDep, grade: Grade, number: Number) -> Response:
    """The puzzle's committed JSON twin, byte for byte (position, side, plies, claim,
    solution, grade, unique_line, origin, id)."""
    p = _find(site, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return Response(p.json_text, media_type="application/json")


@api.post("/{grade}/{number}/play", response_model=StepOut, responses=NOT_FOUND,
          openapi_extra=body_schema(PlayBody), summary="Play a move of a puzzle")
async def play(site: SiteDep, grade: Grade, number: Number,
               body: Annotated[PlayBody, Depends(json_body(PlayBody))]) -> Response:
    """Play the user's move after the moves so far, then the defence's best reply: whether
    the user's side still wins (`still_wins`), by the fastest way (`fastest`), and the turn
    in words (`message`). A move that is not legal is a step with `ok` false."""
    p = _find(site, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return await site.api_job(jobs.puzzle_step, body.to_request(p))


@api.post("/{grade}/{number}/hint", response_model=HintOut, responses=NOT_FOUND,
          openapi_extra=body_schema(HintBody), summary="A hint for a puzzle")
async def hint(site: SiteDep, grade: Grade, number: Number,
               body: Annotated[HintBody, Depends(json_body(HintBody))]) -> Response:
    """The position after the moves so far, its exact value and, when the side to move wins,
    a hint from least to most telling: the threat in words, the piece, the move."""
    p = _find(site, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return await site.api_job(jobs.puzzle_hint, body.to_request(p))


@api.get("/{grade}/{number}/verdict", response_model=list[dict[str, Any]], responses=NOT_FOUND,
         summary="Re-prove an Ulvtafl puzzle")
async def verdict(site: SiteDep, grade: Grade, number: Number) -> Response:
    """Every claim of the puzzle proved again by the independent pure-Python check: what
    `fleece ulvtafl puzzle check FILE --json` prints."""
    p = _find(site, grade, number)
    if p is None:
        return json_error("no such puzzle", 404)
    return await site.api_job(jobs.puzzle_check, ulvtafl.PuzzleCheckRequest(
        puzzle=p.text, source=f"{p.number}.txt"))


class PlayForm(RequestModel):
    """The puzzle page's form: the moves so far (space-separated), the clicked move, the
    button, and how telling the hint is (0 to 3)."""

    moves: ShortText = ""
    move: Line | None = None
    action: Literal["move", "back", "hint", "solution"] = "move"
    level: int = Field(0, ge=0, le=len(HINTS))


def take_back(moves: tuple[str, ...]) -> tuple[str, ...]:
    """The moves before the user's last one (and the defence's reply to it): the user plays
    the even-numbered plies from the puzzle's position."""
    if not moves:
        return moves
    return moves[:-1] if len(moves) % 2 else moves[:-2]


async def _show(request: Request, site: Site, p: UlvPuzzle, moves: tuple[str, ...],
                status: int = 200, **context: Any) -> Response:
    """The puzzle page with the position after `moves`, its value and hint."""
    found = await site.page_job(jobs.puzzle_hint, ulvtafl.PuzzlePlayRequest(
        puzzle=p.text, moves=moves, source=f"{p.number}.txt"))
    context = {"step": None, "level": 0, "error": None, "solution": False, **context}
    return site.page(request, "ulvtafl_puzzle.html", status, p=p, board=found["display"],
                     state=found["json"], moves=moves, hints=HINTS, **context)


@pages.get("/ulvtafl/puzzles/{grade}/{number}")
async def puzzle_page(request: Request, site: SiteDep, grade: str, number: str) -> Response:
    """An Ulvtafl puzzle at its start."""
    p = _find(site, grade, number)
    if p is None:
        return no_such_puzzle(request, site)
    return await _show(request, site, p, ())


@pages.post("/ulvtafl/puzzles/{grade}/{number}")
async def puzzle_action(request: Request, site: SiteDep, grade: str, number: str
                        ) -> Response:
    """An Ulvtafl puzzle after a move, a take-back, a hint or "show the solution"."""
    p = _find(site, grade, number)
    if p is None:
        return no_such_puzzle(request, site)
    submitted = parse_form(await read_body(request))
    try:
        form = from_form(PlayForm, submitted)
        moves = tuple(form.moves.split())
        if form.action == "back":
            return await _show(request, site, p, take_back(moves))
        if form.action == "hint":
            return await _show(request, site, p, moves, level=min(form.level + 1, len(HINTS)))
        if form.action == "solution":
            return await _show(request, site, p, moves, level=form.level, solution=True)
        if not form.move:
            return await _show(request, site, p, moves, 400,
                               error="move: missing (click a piece, then where it goes)")
        step = await site.run(jobs.puzzle_step, ulvtafl.PuzzlePlayRequest(
            puzzle=p.text, moves=moves, move=form.move, source=f"{p.number}.txt"))
    except REFUSED as exc:
        status, message = refusal(exc)
        return await _show(request, site, p, (), status, error=message)
    done = step["json"]
    if not done["ok"]:
        return await _show(request, site, p, moves, 400, error=f"move: {done['error']}")
    return await _show(request, site, p, tuple(done["moves"]), step=done)
