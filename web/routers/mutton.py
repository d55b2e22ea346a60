"""Mutton: the page (paste a chart; see the shaded board, the table, certain facts and advice)
and its JSON twin `POST /api/mutton/solve`, which returns exactly what `fleece mutton solve
--json` prints."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from fleece.api import mutton
from fleece.api.values import MAX_DIGITS
from fleece.solver.core import Engine
from fleece.web.body import parse_form, read_body
from fleece.web.jobs import mark_error
from fleece.web.jobs import mutton as jobs
from fleece.web.models import (
    Line,
    RequestModel,
    Text,
    Word,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.pool import BadJobInput
from fleece.web.site import REFUSED, SiteDep, refusal

api = APIRouter(prefix="/api/mutton", tags=["mutton"])
pages = APIRouter(include_in_schema=False)
ENGINES = tuple(e.value for e in Engine)


class SolveBody(RequestModel):
    """What `fleece mutton solve` takes: the chart's text and its options."""

    chart: Text = Field(description="the tracking chart as pbmserv prints it (the board "
                        "diagram and the score line optional), a whole game record, or JSON")
    wolves: int | None = Field(None, ge=0, le=10**MAX_DIGITS, description=(
        "how many wolves (default: the chart's, else 4)"))
    no_reveal: bool = Field(False, description="x marks a dead animal of unknown identity")
    escaped: Line = Field("", description="wolves that escaped, e.g. `G,K`")
    dictionary: Text | None = Field(None, description=(
        "a word list, one word a line: the wolves' letters spell one of them (M23)"))
    passed: bool = Field(False, description="the Wolf passed this turn")
    engine: Word = Field("fast", description=f"one of {', '.join(ENGINES)}")

    def to_request(self) -> mutton.SolveRequest:
        """The library's request."""
        return mutton.SolveRequest(chart=self.chart, wolves=self.wolves,
                                   no_reveal=self.no_reveal, escaped=self.escaped,
                                   dictionary=self.dictionary or None, passed=self.passed,
                                   engine=self.engine, source="chart")


SolveOut = report_model(mutton.SolveReport, "MuttonSolveReport")


@api.post("/solve", response_model=SolveOut, openapi_extra=body_schema(SolveBody),
          summary="Solve a Mutton chart")
async def solve(site: SiteDep,
                body: Annotated[SolveBody, Depends(json_body(SolveBody))]) -> Response:
    """Count the wolf sets consistent with the chart, each animal's exact probability of
    being a wolf, the certain facts with their reasons and the Farmer's advice: what
    `fleece mutton solve --json` prints. An inconsistent chart is a result (`consistent`
    false, `core` the contradicting facts)."""
    return await site.api_job(jobs.solve, body.to_request(), False)


def form_defaults(form: dict[str, Any] | None = None) -> dict[str, Any]:
    """The form's values as submitted (or the defaults), to show the form again."""
    d = form or {}
    return {"chart": str(d.get("chart", "")), "wolves": str(d.get("wolves", "4")),
            "no_reveal": "no_reveal" in d, "escaped": str(d.get("escaped", "")),
            "dictionary": str(d.get("dictionary", "")), "passed": "passed" in d,
            "engine": str(d.get("engine", "fast"))}


def marked_error(text: str, exc: Exception, field: str) -> list[dict[str, Any]] | None:
    """The pasted text with the error's line and column marked, when the error points into
    that field's text."""
    if not isinstance(exc, BadJobInput):
        return None
    error = exc.error
    if error.source != field or error.line is None:
        return None
    return mark_error(text, error.line, error.column, error.message)


@pages.get("/mutton")
async def mutton_page(request: Request, site: SiteDep, example: str = "") -> Response:
    """The Mutton page: the form (filled with an example when asked)."""
    form = form_defaults()
    if example in ("mutton", "mutton-typo"):
        form["chart"] = site.examples.get(example, "")
    return site.page(request, "mutton.html", form=form, result=None, error=None,
                     marked=None, engines=ENGINES)


@pages.post("/mutton")
async def mutton_solve_page(request: Request, site: SiteDep) -> Response:
    """The Mutton page with the solved chart (or the error next to the form)."""
    submitted = parse_form(await read_body(request))
    form = form_defaults(submitted)
    try:
        body = from_form(SolveBody, submitted)
        result = await site.page_job(jobs.solve, body.to_request())
    except REFUSED as exc:
        status, message = refusal(exc)
        return site.page(request, "mutton.html", status, form=form, result=None,
                         error=message, marked=marked_error(form["chart"], exc, "chart"),
                         engines=ENGINES)
    return site.page(request, "mutton.html", form=form, result=result["display"],
                     data=result["json_text"], error=None, marked=None, engines=ENGINES)
