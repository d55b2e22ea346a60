"""What every page and API handler shares: the site's settings and loaded files, reading a
capped body, running a job in the worker pool within the request's budget, and the three kinds
of answer (a page, the command line's JSON, a one-line error)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from fleece.web import jobs
from fleece.web.fields import MAX_BODY, BadRequest, Fields
from fleece.web.pool import BadJobInput, TookTooLong, WorkerFailed, WorkerPool

Handler = Callable[[Request], Awaitable[Response]]


@dataclass
class Site:
    """The running app's settings and everything it loaded at start (templates, static files,
    puzzle packs, examples): no request reads the file system."""

    env: Environment
    pool: WorkerPool
    budget: float
    static: dict[str, tuple[bytes, str]]
    puzzles: dict[str, Any] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)


def site(request: Request) -> Site:
    """The site of the app serving `request`."""
    s: Site = request.app.state.site
    return s


async def read_body(request: Request) -> bytes:
    """The request body, refused (413) past MAX_BODY bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared[:12]) > MAX_BODY):
        raise BadRequest(f"the body is too large (at most {MAX_BODY} bytes)", 413)
    chunks = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise BadRequest(f"the body is too large (at most {MAX_BODY} bytes)", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_fields(request: Request) -> Fields:
    """The API request's JSON object."""
    return Fields.from_json(await read_body(request))


async def form_fields(request: Request, repeatable: tuple[str, ...] = ()) -> Fields:
    """The page's submitted form."""
    return Fields.from_form(await read_body(request), repeatable)


async def run_job(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` in a worker within the site's per-request budget."""
    s = site(request)
    return await s.pool.run(fn, *args, budget=s.budget)


async def run_page_job(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """A page's job in a worker: its `json`, `view` and `json_text` (jobs.for_page)."""
    return await run_job(request, jobs.for_page, fn, *args)


async def run_api_job(request: Request, fn: Callable[..., Any], *args: Any) -> Response:
    """A JSON twin's job in a worker: the command's `--json` text, as made in the worker
    (jobs.for_api), served as is."""
    text: str = await run_job(request, jobs.for_api, fn, *args)
    return Response(text, media_type="application/json")


def cli_json(data: Any, status: int = 200) -> Response:
    """Exactly what the command line's `--json` prints: indented JSON and a newline."""
    return Response(json.dumps(data, indent=2) + "\n", status_code=status,
                    media_type="application/json")


def json_error(message: str, status: int) -> Response:
    """A one-line error as JSON: {"error": message}."""
    return cli_json({"error": message}, status)


def page(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    """A page rendered on the server (every value autoescaped)."""
    html = site(request).env.get_template(template).render(
        request_path=request.url.path, budget=site(request).budget, **context)
    return HTMLResponse(html, status_code=status)


def error_status(exc: Exception) -> tuple[int, str]:
    """The HTTP status and one-line message of an error a handler let through."""
    if isinstance(exc, BadRequest):
        return exc.status, str(exc)
    if isinstance(exc, BadJobInput):
        return 400, str(exc)
    if isinstance(exc, TookTooLong):
        return 503, str(exc)
    if isinstance(exc, WorkerFailed):
        return 500, f"internal error: {exc}"
    raise exc


def api(handler: Handler) -> Handler:
    """An API handler whose errors become {"error": ...} with 400, 413, 503 or 500."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (BadRequest, BadJobInput, TookTooLong, WorkerFailed) as exc:
            status, message = error_status(exc)
            return json_error(message, status)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


def html(handler: Handler) -> Handler:
    """A page handler whose unhandled errors (too long, too large, internal) become the error
    page with that status; handlers show bad input next to their form themselves."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (BadRequest, BadJobInput, TookTooLong, WorkerFailed) as exc:
            status, message = error_status(exc)
            title = {503: "Took too long", 413: "Too large", 500: "Internal error"}.get(
                status, "Bad input")
            return page(request, "error.html", status, title=title, message=message,
                        code=status)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped
