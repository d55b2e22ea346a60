"""Mutton against a robot: the page `/mutton/play` (choose a side, a robot and a seed; play by
tapping the board or typing pbmserv moves; the solver's overlay switched on and off; the
record downloaded) and its JSON twins under /api/mutton/play (fleece.api.mutton.play_start,
play_move, play_record). No session: every request carries the game (the seed and the moves
after the set-up), so the same request always gives the same robot replies."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from fleece.api import mutton
from fleece.rules.errors import FleeceError
from fleece.web.body import parse_form, read_body
from fleece.web.jobs import mutton_play as jobs
from fleece.web.models import (
    Line,
    RequestModel,
    Text,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.site import REFUSED, Site, SiteDep, refusal

api = APIRouter(prefix="/api/mutton/play", tags=["mutton play"])
pages = APIRouter(include_in_schema=False)
Person = Literal["farmer", "wolf"]
Robot = Literal["fleece", "random", "v2"]  # mutton.play_robots(), in the same order
ROBOTS = mutton.play_robots()
Layout = Literal["sparse", "random"]
MAX_MOVES = 300  # a game of 26 animals has fewer than 60 moves
SEED_TEXT = "the seed the layout, the robot's wolves and its every reply are drawn from"


class StartBody(RequestModel):
    """A new game: your side, the robot, the seed (absent: a fresh one), the rules."""

    person: Person = Field("farmer", description="the side you play")
    bot: Robot = Field("v2", description="the robot: " + "; ".join(
        f"`{b}` {d}" for b, d in ROBOTS.items()))
    seed: int | None = Field(None, ge=0, le=mutton.MAX_PLAY_SEED, description=(
        SEED_TEXT + " (absent: a fresh one, in the answer)"))
    rules: Line = Field("", description=(
        "pbmserv challenge options, e.g. `-size=3 -num_sheep=10 -num_wolves=2` (empty: "
        "the default game, 26 animals and 4 wolves)"))
    layout: Layout = Field("sparse", description=(
        "the rulebook's sparse layout (26 animals on size 4) or one drawn from the seed"))
    overlay: bool = Field(True, description=(
        "compute the solver's overlay: what the Farmer knows and the Farmer robot's decision"))

    def to_request(self) -> mutton.PlayStartRequest:
        """The library's request."""
        return mutton.PlayStartRequest(person=self.person, bot=self.bot, seed=self.seed,
                                       rules=self.rules, layout=self.layout,
                                       overlay=self.overlay)


class GameBody(RequestModel):
    """A game so far: its settings and seed as the start reported them, and `moves`."""

    person: Person = Field("farmer", description="the side you play")
    bot: Robot = Field("v2", description="the robot")
    seed: int = Field(ge=0, le=mutton.MAX_PLAY_SEED, description=SEED_TEXT)
    rules: Line = Field("", description="pbmserv challenge options (empty: the default)")
    layout: Layout = Field("sparse", description="the layout the game started with")
    overlay: bool = Field(True, description="compute the solver's overlay")
    moves: tuple[Line, ...] = Field((), max_length=MAX_MOVES, description=(
        "every move after the set-up, both sides', as the last answer's `moves`"))

    def to_request(self) -> mutton.PlayMoveRequest:
        """The library's request."""
        return mutton.PlayMoveRequest(person=self.person, bot=self.bot, seed=self.seed,
                                      rules=self.rules, layout=self.layout,
                                      overlay=self.overlay, moves=self.moves)


class MoveBody(GameBody):
    """A game so far and your next move."""

    move: Line = Field(description=(
        "your move in pbmserv notation: `wolves=ABCD` (choose the wolves), `K:L-a2,E-f4` "
        "(eat K, its neighbours run), `G` (shoot G, or a wolf escapes), `G,A,X` (berserk), "
        "`pass`"))

    def to_request(self) -> mutton.PlayMoveRequest:
        """The library's request."""
        return mutton.PlayMoveRequest(person=self.person, bot=self.bot, seed=self.seed,
                                      rules=self.rules, layout=self.layout,
                                      overlay=self.overlay, moves=self.moves, move=self.move)


PlayOut = report_model(mutton.PlayReport, "MuttonPlayReport")
RecordOut = report_model(mutton.PlayRecordReport, "MuttonPlayRecord")


@api.post("/start", response_model=PlayOut, openapi_extra=body_schema(StartBody),
          summary="Start a Mutton game against a robot")
async def start(site: SiteDep,
                body: Annotated[StartBody, Depends(json_body(StartBody))]) -> Response:
    """A new game: the layout and (when the robot plays the Wolf) its secret wolves drawn from
    the seed, and the robot's first moves. The answer is the whole game as you may see it:
    `moves` (send them back with your move), the board (`animals`, `corpses`), what you may
    do (`choices`) and the solver's `overlay` of what the Farmer knows."""
    return await site.api_job(jobs.start, body.to_request())


@api.post("/move", response_model=PlayOut, openapi_extra=body_schema(MoveBody),
          summary="Play a move against the robot")
async def move(site: SiteDep,
               body: Annotated[MoveBody, Depends(json_body(MoveBody))]) -> Response:
    """Your move after the game so far, then the robot's replies (`replies`): the same for
    the same seed and moves. A move that is malformed, illegal or out of turn is a 400
    naming it."""
    return await site.api_job(jobs.move, body.to_request())


@api.post("/record", response_model=RecordOut, openapi_extra=body_schema(GameBody),
          summary="The record of a game against the robot")
async def record(site: SiteDep,
                 body: Annotated[GameBody, Depends(json_body(GameBody))]) -> Response:
    """The game's record in the text `fleece mutton replay` reads: the options line, the
    layout, the wolves (the robot's too), then one move a line."""
    return await site.api_job(jobs.record, body.to_request())


# ---- the page ------------------------------------------------------------------------------


class PlayForm(RequestModel):
    """The page's form: the game (moves space-separated), the typed or tapped move, the
    button pressed."""

    person: Person = "farmer"
    bot: Robot = "v2"
    seed: int | None = Field(None, ge=0, le=mutton.MAX_PLAY_SEED)
    rules: Line = ""
    layout: Layout = "sparse"
    overlay: bool = True
    moves: Text = ""
    move: Line | None = None
    action: Literal["start", "move", "overlay"] = "move"

    def game(self, overlay: bool | None = None) -> MoveBody:
        """The game of the form as the API's body (the move as given, or empty)."""
        if self.seed is None:
            raise FleeceError("missing: the game's seed", field="seed")
        return MoveBody(person=self.person, bot=self.bot, seed=self.seed, rules=self.rules,
                        layout=self.layout,
                        overlay=self.overlay if overlay is None else overlay,
                        moves=tuple(self.moves.split()), move=self.move or "")


def _settings(form: dict[str, Any] | None = None) -> dict[str, Any]:
    d = form or {}
    return {"person": str(d.get("person", "farmer")), "bot": str(d.get("bot", "v2")),
            "seed": str(d.get("seed", "")), "rules": str(d.get("rules", "")),
            "layout": str(d.get("layout", "sparse"))}


def _show(request: Request, site: Site, found: dict[str, Any] | None, status: int = 200,
          **context: Any) -> Response:
    context = {"error": None, "settings": _settings(), "tried": "", "overlay_on": True,
               **context}
    return site.page(request, "mutton_play.html", status, game=found and found["json"],
                     display=found and found["display"], bots=list(ROBOTS.items()),
                     **context)


@pages.get("/mutton/play")
async def play_page(request: Request, site: SiteDep) -> Response:
    """The start form: your side, the robot, the seed, the rules."""
    return _show(request, site, None)


@pages.post("/mutton/play")
async def play_action(request: Request, site: SiteDep) -> Response:
    """Start a game, play a move (the robot answers), or switch the overlay."""
    submitted = parse_form(await read_body(request))
    try:
        form = from_form(PlayForm, submitted)
        if form.action == "start":
            found = await site.page_job(jobs.start, mutton.PlayStartRequest(
                person=form.person, bot=form.bot, seed=form.seed, rules=form.rules,
                layout=form.layout, overlay=form.overlay))
            return _show(request, site, found, overlay_on=form.overlay)
        if form.action == "overlay":
            body = form.game(overlay=not form.overlay)
            return _show(request, site, await site.page_job(jobs.state, body.to_request()),
                         overlay_on=body.overlay)
        body = form.game()
    except REFUSED as exc:
        status, message = refusal(exc)
        return _show(request, site, None, status, error=message,
                     settings=_settings(submitted))
    try:
        found = await site.page_job(jobs.move, body.to_request())
    except REFUSED as exc:
        status, message = refusal(exc)
        try:
            shown = await site.page_job(jobs.state, body.to_request())
        except REFUSED:
            return _show(request, site, None, status, error=message,
                         settings=_settings(submitted))
        return _show(request, site, shown, status, error=message, tried=body.move,
                     overlay_on=body.overlay)
    return _show(request, site, found, overlay_on=body.overlay)


@pages.post("/mutton/play/record")
async def play_record(request: Request, site: SiteDep) -> Response:
    """The game's record as a text file to save (`fleece mutton replay FILE` reads it)."""
    submitted = parse_form(await read_body(request))
    try:
        body = from_form(PlayForm, submitted).game()
        found = await site.run(jobs.record, body.to_request())
    except REFUSED as exc:
        status, message = refusal(exc)
        return _show(request, site, None, status, error=message,
                     settings=_settings(submitted))
    data = found["json"]
    return Response(data["record"], media_type="text/plain; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="{data["name"]}"'})
