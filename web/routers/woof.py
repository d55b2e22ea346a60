"""Woof!!: the evidence editor (the beliefs follow as lines are added; contradicting lines are
marked) and its JSON twin `POST /api/woof/solve`, which returns exactly what `fleece woof
solve --json` prints."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from fleece.api import woof
from fleece.solver.core import Engine
from fleece.web.body import parse_form, read_body
from fleece.web.jobs import segments
from fleece.web.jobs import woof as jobs
from fleece.web.models import (
    RequestModel,
    Text,
    Word,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.pool import TookTooLong, WorkerFailed
from fleece.web.routers.mutton import marked_error
from fleece.web.site import REFUSED, Site, SiteDep, refusal

api = APIRouter(prefix="/api/woof", tags=["woof"])
pages = APIRouter(include_in_schema=False)
ENGINES = tuple(e.value for e in Engine)
# What the result fragment shows inside itself: a refusal, a job past its budget, a failure.
FRAGMENT_ERRORS: tuple[type[Exception], ...] = (*REFUSED, TookTooLong, WorkerFailed)


class SolveBody(RequestModel):
    """What `fleece woof solve` takes: the evidence text and its options."""

    evidence: Text = Field(description="the round's evidence, one fact a line (`seats 5`, "
                           "`deck preset`, `me 4`, `hand 4 sheep sheep`, `look 1 4 sheep`, "
                           "`ask 4 3 q1 yes`)")
    engine: Word = Field("fast", description=f"one of {', '.join(ENGINES)}")
    me: int | None = Field(None, ge=0, le=10**18, description=(
        "the point of view: whose suggestion to make (overrides the `me` line)"))
    dog_target: Word | None = Field(None, description=(
        "the Dog's assumed second target (W2; default shepherd)"))

    def to_request(self) -> woof.SolveRequest:
        """The library's request."""
        return woof.SolveRequest(evidence=self.evidence, engine=self.engine, me=self.me,
                                 dog_target=self.dog_target or None, source="evidence")


SolveOut = report_model(woof.SolveReport, "WoofSolveReport")


@api.post("/solve", response_model=SolveOut, openapi_extra=body_schema(SolveBody),
          summary="Solve Woof!! evidence")
async def solve(site: SiteDep,
                body: Annotated[SolveBody, Depends(json_body(SolveBody))]) -> Response:
    """Every seat's exact character distribution, the wolf sets, the certain facts and the
    suggestion for `me`: what `fleece woof solve --json` prints. Contradictory evidence is
    a result (`consistent` false, `contradiction` a minimal set of lines)."""
    return await site.api_job(jobs.solve, body.to_request(), False)


def form_defaults(form: dict[str, Any] | None = None) -> dict[str, Any]:
    """The form's values as submitted (or the defaults)."""
    d = form or {}
    return {"evidence": str(d.get("evidence", "")), "engine": str(d.get("engine", "fast")),
            "me": str(d.get("me", "")), "dog_target": str(d.get("dog_target", ""))}


def evidence_lines(text: str, bad: list[int]) -> list[dict[str, Any]]:
    """The evidence text line by line, the contradicting lines marked."""
    marked = set(bad)
    return [segments(i, line, [(0, len(line), "a contradicting line")]
                     if i in marked and line else [])
            for i, line in enumerate(text.splitlines(), start=1)]


async def _solve(request: Request, site: Site) -> tuple[int, dict[str, Any]]:
    submitted = parse_form(await read_body(request))
    form = form_defaults(submitted)
    context: dict[str, Any] = {"form": form, "result": None, "error": None, "marked": None,
                               "engines": ENGINES}
    try:
        body = from_form(SolveBody, submitted)
        result = await site.page_job(jobs.solve, body.to_request())
    except REFUSED as exc:
        status, context["error"] = refusal(exc)
        context["marked"] = marked_error(form["evidence"], exc, "evidence")
        return status, context
    display = result["display"]
    context["result"] = display
    context["data"] = result["json_text"]
    if not display["consistent"]:
        context["marked"] = evidence_lines(form["evidence"], display["bad_lines"])
    return 200, context


@pages.get("/woof")
async def woof_page(request: Request, site: SiteDep, example: str = "") -> Response:
    """The Woof!! page: the evidence editor (filled with an example when asked)."""
    form = form_defaults()
    if example in ("woof", "woof-contradiction"):
        form["evidence"] = site.examples.get(example, "")
    return site.page(request, "woof.html", form=form, result=None, error=None, marked=None,
                     engines=ENGINES)


@pages.post("/woof")
async def woof_solve_page(request: Request, site: SiteDep) -> Response:
    """The Woof!! page with the beliefs."""
    status, context = await _solve(request, site)
    return site.page(request, "woof.html", status, **context)


@pages.post("/woof/result")
async def woof_fragment(request: Request, site: SiteDep) -> Response:
    """The result part of the Woof!! page alone (the editor's script asks for it as the
    evidence changes); every error is shown inside it."""
    try:
        status, context = await _solve(request, site)
    except FRAGMENT_ERRORS as exc:
        status, message = (503, str(exc)) if isinstance(exc, TookTooLong) else \
            (500, f"internal error: {exc}") if isinstance(exc, WorkerFailed) else refusal(exc)
        context = {"form": form_defaults(), "result": None, "error": message, "marked": None}
    return site.page(request, "woof_result.html", status, **context)
