"""Woof!!'s evidence editor (the posterior table updates as lines are added; contradicting
lines are marked) and its JSON twin `POST /api/woof/solve`, which returns exactly what
`fleece woof solve --json` prints. Fields: evidence (the evidence file's text; required),
engine, me, dog_target."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fleece.solver.core import Engine
from fleece.web import jobs
from fleece.web.common import (
    api,
    error_status,
    form_fields,
    html,
    json_fields,
    page,
    run_api_job,
    run_page_job,
    site,
)
from fleece.web.fields import BadRequest, Fields
from fleece.web.mutton import marked_error
from fleece.web.pool import BadJobInput, TookTooLong, WorkerFailed

ENGINES = tuple(e.value for e in Engine)


def options(f: Fields) -> dict[str, Any]:
    """The solve options of a request, as `fleece woof solve` takes them."""
    opts = {"evidence": f.text("evidence", required=True),
            "engine": f.text("engine", limit=40) or "fast", "me": f.whole("me", 0),
            "dog_target": f.text("dog_target", limit=40) or None}
    f.check_known()
    return opts


def form_defaults(f: Fields | None = None) -> dict[str, Any]:
    """The form's values as submitted (or the defaults)."""
    d = f.data if f is not None else {}
    return {"evidence": str(d.get("evidence", "")), "engine": str(d.get("engine", "fast")),
            "me": str(d.get("me", "")), "dog_target": str(d.get("dog_target", ""))}


def evidence_lines(text: str, bad: list[int]) -> list[dict[str, Any]]:
    """The evidence text line by line, the contradicting lines marked."""
    marked = set(bad)
    return [jobs.segments(i, line, [(0, len(line), "a contradicting line")]
                          if i in marked and line else [])
            for i, line in enumerate(text.splitlines(), start=1)]


async def _solve(request: Request) -> tuple[int, dict[str, Any]]:
    f = await form_fields(request)
    form = form_defaults(f)
    context: dict[str, Any] = {"form": form, "result": None, "error": None, "marked": None,
                               "engines": ENGINES}
    try:
        result = await run_page_job(request, jobs.woof_solve, options(f))
    except (BadRequest, BadJobInput) as exc:
        context["error"] = str(exc)
        context["marked"] = marked_error(form["evidence"], exc, "evidence")
        return (exc.status if isinstance(exc, BadRequest) else 400), context
    view = result["view"]
    context["result"] = view
    context["data"] = result["json_text"]
    if not view["consistent"]:
        context["marked"] = evidence_lines(form["evidence"], view["bad_lines"])
    return 200, context


@html
async def woof_page(request: Request) -> Response:
    """The Woof!! page: the evidence editor and the beliefs."""
    if request.method == "GET":
        form = form_defaults()
        example = request.query_params.get("example", "")
        if example in ("woof", "woof-contradiction"):
            form["evidence"] = site(request).examples.get(example, "")
        return page(request, "woof.html", form=form, result=None, error=None, marked=None,
                    engines=ENGINES)
    status, context = await _solve(request)
    return page(request, "woof.html", status, **context)


async def woof_fragment(request: Request) -> Response:
    """The result part of the Woof!! page alone (the editor's script asks for it as the
    evidence changes); every error is shown inside it."""
    try:
        status, context = await _solve(request)
    except (BadRequest, TookTooLong, WorkerFailed) as exc:
        status, message = error_status(exc)
        context = {"form": form_defaults(), "result": None, "error": message, "marked": None}
    return page(request, "woof_result.html", status, **context)


@api
async def api_solve(request: Request) -> Response:
    """Solve Woof!! evidence: what `fleece woof solve --json` prints."""
    opts = options(await json_fields(request))
    opts["view"] = False
    return await run_api_job(request, jobs.woof_solve, opts)


def routes() -> list[BaseRoute]:
    """Woof!!'s routes."""
    return [Route("/woof", woof_page, methods=["GET", "POST"]),
            Route("/woof/result", woof_fragment, methods=["POST"]),
            Route("/api/woof/solve", api_solve, methods=["POST"])]
