"""Mutton's page (paste a chart, see the shaded board, the table, certain facts and advice) and
its JSON twin `POST /api/mutton/solve`, which returns exactly what `fleece mutton solve --json`
prints. Fields (JSON or form): chart (the paste, a record or JSON; required), wolves,
no_reveal, escaped, dictionary (the word list itself), passed, engine."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fleece.solver.core import Engine
from fleece.web import jobs
from fleece.web.common import (
    api,
    form_fields,
    html,
    json_fields,
    page,
    run_api_job,
    run_page_job,
    site,
)
from fleece.web.fields import BadRequest, Fields
from fleece.web.pool import BadJobInput

ENGINES = tuple(e.value for e in Engine)


def options(f: Fields) -> dict[str, Any]:
    """The solve options of a request, as `fleece mutton solve` takes them."""
    opts = {"chart": f.text("chart", required=True), "wolves": f.whole("wolves", 0),
            "no_reveal": f.flag("no_reveal"), "escaped": f.text("escaped", limit=200) or "",
            "dictionary": f.text("dictionary") or None, "passed": f.flag("passed"),
            "engine": f.text("engine", limit=40) or "fast"}
    f.check_known()
    return opts


def form_defaults(f: Fields | None = None) -> dict[str, Any]:
    """The form's values as submitted (or the defaults), to show the form again."""
    d = f.data if f is not None else {}
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
    return jobs.mark_error(text, error.line, error.column, error.message)


@html
async def mutton_page(request: Request) -> Response:
    """The Mutton page: the form (filled with an example when asked), and a result."""
    form = form_defaults()
    example = request.query_params.get("example", "")
    if example in ("mutton", "mutton-typo"):
        form["chart"] = site(request).examples.get(example, "")
    if request.method == "GET":
        return page(request, "mutton.html", form=form, result=None, error=None, marked=None,
                    engines=ENGINES)
    f = await form_fields(request)
    form = form_defaults(f)
    try:
        opts = options(f)
        result = await run_page_job(request, jobs.mutton_solve, opts)
    except (BadRequest, BadJobInput) as exc:
        status = exc.status if isinstance(exc, BadRequest) else 400
        return page(request, "mutton.html", status, form=form, result=None, error=str(exc),
                    marked=marked_error(form["chart"], exc, "chart"), engines=ENGINES)
    return page(request, "mutton.html", form=form, result=result["view"],
                data=result["json_text"], error=None, marked=None, engines=ENGINES)


@api
async def api_solve(request: Request) -> Response:
    """Solve a Mutton chart: what `fleece mutton solve --json` prints."""
    opts = options(await json_fields(request))
    opts["view"] = False
    return await run_api_job(request, jobs.mutton_solve, opts)


def routes() -> list[BaseRoute]:
    """Mutton's routes."""
    return [Route("/mutton", mutton_page, methods=["GET", "POST"]),
            Route("/api/mutton/solve", api_solve, methods=["POST"])]
