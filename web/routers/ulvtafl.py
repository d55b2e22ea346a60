"""Ulvtafl: the page (the board as SVG; click a piece and where it goes; play either side
against the solver; "solve this position" draws the best move as an arrow) and its JSON
twins: `POST /api/ulvtafl/board` (`fleece ulvtafl board --json`), `POST /api/ulvtafl/move`
(the board JSON of the position after the move and, when asked, the solver's reply) and
`POST /api/ulvtafl/solve` (`fleece ulvtafl solve --json`), and `POST /api/ulvtafl/fortress`
(`fleece ulvtafl fortress --json`). The solver's time is capped below the request's budget,
so a long search answers "unknown" (a fortress search "stopped") instead of running out of
time."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from fleece.api import ulvtafl
from fleece.api.values import MAX_SECONDS
from fleece.web.body import BadRequest, parse_form, read_body
from fleece.web.jobs import ulvtafl as jobs
from fleece.web.models import (
    Line,
    RequestModel,
    ShortText,
    Word,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.site import REFUSED, Site, SiteDep, refusal

api = APIRouter(prefix="/api/ulvtafl", tags=["ulvtafl"])
pages = APIRouter(include_in_schema=False)

FLAGS = ("orthogonal", "wolf_diagonal_captures_only", "sheep_orthogonal", "no_repetition_draw")
THINK = ulvtafl.THINK  # the solver's seconds a move by default, as `fleece ulvtafl play`
THINK_SHARE = 0.5  # the share of the request's budget a reply may think
# The page's solve enumerates at most this many positions for the retrograde method (as
# `fleece ulvtafl play` does): that phase does not look at the clock, and with the command's
# default of 2,000,000 it alone can outlast a request's budget on a busy machine.
PAGE_RETRO_LIMIT = ulvtafl.REPLY_RETRO_LIMIT
SOLVE_SHARE = 0.4  # the share of the request's budget a solve may use: the searches check the
# clock every so many nodes and were seen overrunning a 3 s timeout by 4.5 s on a busy machine


class PositionBody(RequestModel):
    """A position: `position` (a U8 position string) or `setup` with the wolves' start
    points `wolf`, and the movement rules (U1, U6, U7), as `fleece ulvtafl board` takes
    them."""

    setup: Literal[13, 15, 17, 20] | None = Field(None, description=(
        "a standard setup's number of sheep (default 20)"))
    position: ShortText | None = Field(None, description="a U8 position string")
    wolf: tuple[Word, ...] = Field((), max_length=2, description=(
        "the wolves' start points of a setup"))
    orthogonal: bool = Field(False, description="no diagonal lines (U1)")
    wolf_diagonal_captures_only: bool = Field(False, description=(
        "wolves move diagonally only to capture"))
    sheep_orthogonal: bool = Field(False, description="sheep move along straight lines only")
    no_repetition_draw: bool = Field(False, description="a repeated position is no draw (U7)")

    def position_fields(self) -> dict[str, Any]:
        """The fields of the library's PositionRequest."""
        return {"setup": self.setup, "position": self.position, "wolf": self.wolf,
                **{k: getattr(self, k) for k in FLAGS}}

    def to_request(self) -> ulvtafl.PositionRequest:
        """The library's request."""
        return ulvtafl.PositionRequest(**self.position_fields())


class MoveBody(PositionBody):
    """Play `move` in the position; then, when `solver` names the side to move, the solver
    answers within `think` seconds (at most half the request's budget)."""

    move: Line | None = Field(None, description="a move in U8 notation (`d3-d4`, `d5xd3`)")
    solver: Literal["wolves", "sheep"] | None = Field(None, description=(
        "the side the solver plays"))
    think: float | None = Field(None, gt=0, le=MAX_SECONDS, description=(
        f"the solver's seconds for its reply (default {THINK:g})"))

    def to_request(self, budget: float = 2 * THINK) -> ulvtafl.MoveRequest:
        """The library's request, the solver's time capped by the request's budget."""
        think = min(THINK if self.think is None else self.think, budget * THINK_SHARE)
        return ulvtafl.MoveRequest(move=self.move, solver=self.solver, think=think,
                                   **self.position_fields())


class SolveBody(PositionBody):
    """Solve a position, as `fleece ulvtafl solve` does; `timeout` is capped by the request's
    budget."""

    max_nodes: int | None = Field(None, ge=1, le=10**12, description="a node budget")
    timeout: float | None = Field(None, gt=0, le=MAX_SECONDS, description=(
        "seconds (at most 40% of the request's budget)"))
    retro_limit: int = Field(ulvtafl.RETRO_LIMIT, ge=0, le=200_000_000, description=(
        "positions the retrograde method may enumerate"))

    def to_request(self, budget: float = 20.0) -> ulvtafl.SolveRequest:
        """The library's request, the time capped by the request's budget."""
        cap = budget * SOLVE_SHARE
        timeout = cap if self.timeout is None else min(self.timeout, cap)
        return ulvtafl.SolveRequest(max_nodes=self.max_nodes, timeout=timeout,
                                    retro_limit=self.retro_limit, **self.position_fields())


WEB_FORTRESS_POSITIONS = 200_000  # a fortress search's positions here: 80 MB at most


class FortressBody(PositionBody):
    """Search for a strategy with which `side` never loses, as `fleece ulvtafl fortress`
    does; `seconds` is capped by the request's budget and `max_positions` here."""

    side: Literal["sheep", "wolves"] = Field("sheep", description="the side to never lose")
    forward_steps: int | None = Field(2, ge=0, le=200, description=(
        "the sheep (as the side) take at most this many forward steps in all (null: no "
        "bound)"))
    all_moves: bool = Field(False, description=(
        "the sheep (as the side) may also play moves a wolf can capture after"))
    max_positions: int = Field(WEB_FORTRESS_POSITIONS, ge=1, le=WEB_FORTRESS_POSITIONS,
                               description="positions to explore at most")
    seconds: float | None = Field(None, gt=0, le=MAX_SECONDS, description=(
        "seconds (at most 40% of the request's budget)"))

    def to_request(self, budget: float = 20.0) -> ulvtafl.FortressRequest:
        """The library's request, the time capped by the request's budget."""
        cap = budget * SOLVE_SHARE
        seconds = cap if self.seconds is None else min(self.seconds, cap)
        return ulvtafl.FortressRequest(side=self.side, forward_steps=self.forward_steps,
                                       all_moves=self.all_moves,
                                       max_positions=self.max_positions, seconds=seconds,
                                       **self.position_fields())


BoardOut = report_model(ulvtafl.BoardReport, "UlvtaflBoardReport")
FortressOut = report_model(ulvtafl.FortressReport, "UlvtaflFortressReport")
SolveOut = report_model(ulvtafl.SolveReport, "UlvtaflSolveReport")


@api.post("/board", response_model=BoardOut, openapi_extra=body_schema(PositionBody),
          summary="An Ulvtafl position")
async def board(site: SiteDep,
                body: Annotated[PositionBody, Depends(json_body(PositionBody))]) -> Response:
    """The position, its pieces, the side to move, the result and the legal moves: what
    `fleece ulvtafl board --json` prints."""
    return await site.api_job(jobs.board, body.to_request())


@api.post("/move", response_model=BoardOut, openapi_extra=body_schema(MoveBody),
          summary="Play a move (and the solver's reply)")
async def move(site: SiteDep,
               body: Annotated[MoveBody, Depends(json_body(MoveBody))]) -> Response:
    """Play `move` (and the solver's reply when `solver` names the side then to move): the
    new position as `fleece ulvtafl board --position NEW --json` prints it."""
    return await site.api_job(jobs.move, body.to_request(site.budget))


@api.post("/solve", response_model=SolveOut, openapi_extra=body_schema(SolveBody),
          summary="Solve an Ulvtafl position")
async def solve(site: SiteDep,
                body: Annotated[SolveBody, Depends(json_body(SolveBody))]) -> Response:
    """The value with perfect play (sheep, wolves, draw, or unknown when the time ran out),
    a best move, the distance and the principal line: what `fleece ulvtafl solve --json`
    prints (its `timeout` capped by the request's budget)."""
    return await site.api_job(jobs.solve, body.to_request(site.budget))


@api.post("/fortress", response_model=FortressOut, openapi_extra=body_schema(FortressBody),
          summary="Can a side never lose? (a fortress)")
async def fortress(site: SiteDep,
                   body: Annotated[FortressBody, Depends(json_body(FortressBody))]
                   ) -> Response:
    """A strategy with which `side` never loses, so that the other side cannot force a
    win: "found" (re-checked by the reference rules), "none" (with restricted moves this
    proves nothing), "too-large" or "stopped": what `fleece ulvtafl fortress --json`
    prints (its `seconds` capped by the request's budget; the certificate stays with the
    command line)."""
    return await site.api_job(jobs.fortress, body.to_request(site.budget))


def form_defaults(form: dict[str, Any] | None) -> dict[str, Any]:
    """The form's values (side played by the solver, think time, rule flags)."""
    d = form or {}
    out: dict[str, Any] = {"solver": str(d.get("solver", "")), "think": str(d.get("think", "2")),
                           "setup": str(d.get("setup", "20")),
                           "position": str(d.get("position", ""))}
    for name in FLAGS:
        out[name] = name in d
    return out


@pages.get("/ulvtafl")
async def ulvtafl_page(request: Request, site: SiteDep) -> Response:
    """The Ulvtafl page: the 20-sheep setup, wolves to move."""
    result = await site.run(jobs.board, ulvtafl.PositionRequest())
    return site.page(request, "ulvtafl.html", board=result["display"], form=form_defaults(None),
                     error=None, data=None, command="")


async def _run_action(site: Site, action: str, submitted: dict[str, Any]
                      ) -> tuple[dict[str, Any], str]:
    """The job of one of the page's buttons, and the command its JSON box names."""
    if action == "solve":
        body = from_form(SolveBody, submitted, ignore=("action", "solver", "think"))
        if "retro_limit" not in submitted or submitted["retro_limit"] == "":
            body = body.model_copy(update={"retro_limit": PAGE_RETRO_LIMIT})
        request = body.to_request(site.budget)
        command = (f"fleece ulvtafl solve --position P --timeout {request.timeout:g} "
                   f"--retro-limit {request.retro_limit} --json")
        return await site.page_job(jobs.solve, request), command
    moving = from_form(MoveBody, submitted, ignore=("action",))
    play = moving.to_request(site.budget)
    if action == "new":
        play = dataclasses.replace(play, position=None, move=None)
    else:
        play = dataclasses.replace(play, setup=None)
        if action == "reply":
            play = dataclasses.replace(play, move=None)
        elif play.move is None:
            raise BadRequest("move: missing (click a piece, then where it goes)",
                             field="move")
    return await site.run(jobs.move, play), ""


@pages.post("/ulvtafl")
async def ulvtafl_action(request: Request, site: SiteDep) -> Response:
    """The Ulvtafl page after a button: new game, move, the solver's reply, solve."""
    submitted = parse_form(await read_body(request))
    action = submitted.get("action", "move")
    form = form_defaults(submitted)
    try:
        if action not in ("new", "move", "solve", "reply"):
            raise BadRequest(f"action: {str(action)[:20]!r} is not one of new, move, solve, "
                             "reply", field="action")
        result, command = await _run_action(site, str(action), submitted)
    except REFUSED as exc:
        status, message = refusal(exc)
        board = None
        position = submitted.get("position")
        if isinstance(position, str) and position:
            try:
                again = await site.run(jobs.board, ulvtafl.PositionRequest(position=position))
                board = again["display"]
            except REFUSED:
                board = None
        return site.page(request, "ulvtafl.html", status, board=board, form=form,
                         error=message, data=None, command="")
    return site.page(request, "ulvtafl.html", board=result["display"], form=form, error=None,
                     data=result.get("json_text") if action == "solve" else None,
                     command=command)
