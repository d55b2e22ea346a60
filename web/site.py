"""What every router shares: the running site (templates, static files, puzzle packs,
examples, the worker pool and the per-request budget) as a FastAPI dependency, running a job
in the pool within the budget, and the answers (a page, the command line's JSON, a one-line
error)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from fastapi.exceptions import RequestValidationError
from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from fleece.rules.errors import FleeceError
from fleece.rules.text import escape
from fleece.web import jobs
from fleece.web.body import BadRequest
from fleece.web.models import first_message
from fleece.web.pool import WorkerPool


@dataclass
class Site:
    """The running app's settings and everything it loaded at start (templates, static files,
    puzzle packs, examples): no request reads the file system."""

    env: Environment
    pool: WorkerPool
    budget: float
    static: dict[str, tuple[bytes, str]]
    puzzles: dict[str, Any] = field(default_factory=dict)
    ulvtafl_puzzles: dict[str, Any] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker within the per-request budget."""
        return await self.pool.run(fn, *args, budget=self.budget)

    async def page_job(self, fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
        """A page's job in a worker: its `json`, `display` and `json_text` (jobs.for_page)."""
        result: dict[str, Any] = await self.run(jobs.for_page, fn, *args)
        return result

    async def api_job(self, fn: Callable[..., Any], *args: Any) -> Response:
        """A JSON twin's job in a worker: the command's `--json` text, as made in the worker
        (jobs.for_api), served as is."""
        text: str = await self.run(jobs.for_api, fn, *args)
        return Response(text, media_type="application/json")

    def page(self, request: Request, template: str, status: int = 200,
             **context: Any) -> Response:
        """A page rendered on the server (every value autoescaped)."""
        html = self.env.get_template(template).render(
            request_path=request.url.path, budget=self.budget, **context)
        return HTMLResponse(html, status_code=status)


def no_such_puzzle(request: Request, site: Site) -> Response:
    """The 404 page of a puzzle path that names no committed puzzle."""
    return site.page(request, "error.html", 404, title="Not found", message="no such puzzle",
                     code=404)


def get_site(request: Request) -> Site:
    """The site of the app serving `request` (a dependency; tests may override it)."""
    s: Site = request.app.state.site
    return s


SiteDep = Annotated[Site, Depends(get_site)]


def cli_json(data: Any, status: int = 200) -> Response:
    """Exactly what the command line's `--json` prints: indented JSON and a newline."""
    return Response(json.dumps(data, indent=2) + "\n", status_code=status,
                    media_type="application/json")


def json_error(message: str, status: int) -> Response:
    """A one-line error as JSON: {"error": message}, with any line break or control
    character the message quotes from the input written as an escape."""
    return cli_json({"error": escape(message)}, status)


def refusal(exc: Exception) -> tuple[int, str]:
    """The status and one-line message of a refused request (a malformed body, a field the
    model refuses, the library's input error), as pages show it next to their form."""
    if isinstance(exc, BadRequest):
        return exc.status, escape(exc.message)
    if isinstance(exc, RequestValidationError):
        return 400, escape(first_message(exc))
    if isinstance(exc, FleeceError):
        return 400, escape(str(exc))
    raise exc


# What a page catches to show next to its form (refusal() words them).
REFUSED: tuple[type[Exception], ...] = (FleeceError, RequestValidationError)
