"""The ASGI app: FastAPI with one router a game (web.routers: the JSON twins under /api, in
the OpenAPI schema, and the HTML pages), security headers, a host check, exception handlers
by type, the API's documentation page and the worker pool's lifetime. `create_app(config)`
builds it; `serve(config)` runs it under uvicorn (what `fleece serve` calls)."""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from jinja2 import DictLoader, Environment, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fleece.rules.errors import FleeceError
from fleece.web import packs
from fleece.web.body import BadRequest
from fleece.web.docs import api_index, docs_context
from fleece.web.models import ErrorBody, first_message
from fleece.web.pool import TookTooLong, WorkerFailed, WorkerPool, default_size
from fleece.web.routers import ROUTERS
from fleece.web.site import Site, get_site, json_error
from fleece.web.theme import theme_css

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".svg": "image/svg+xml", ".png": "image/png"}
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


@dataclass(frozen=True)
class Config:
    """How the app runs: where it listens, the per-request time budget (seconds) and the
    number of worker processes."""

    host: str = "127.0.0.1"
    port: int = 8000
    budget: float = 20.0
    workers: int = field(default_factory=default_size)


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (the only hosts served without a warning)."""
    if host.strip("[]") in ("localhost", "::1"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Guard:
    """ASGI middleware: every response gets the security headers; on a loopback server a
    request whose Host header is not a loopback name is refused (so a web page elsewhere
    cannot reach the app through DNS rebinding)."""

    def __init__(self, app: ASGIApp, host: str) -> None:
        self.app = app
        self.check_host = is_loopback(host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.check_host and not self._host_ok(scope):
            response = PlainTextResponse("unknown host: this server answers localhost only\n",
                                         status_code=400)
            await response(scope, receive, self._with_headers(send))
            return
        await self.app(scope, receive, self._with_headers(send))

    @staticmethod
    def _host_ok(scope: Scope) -> bool:
        host = ""
        for k, v in scope.get("headers", []):
            if k == b"host":
                host = v.decode("latin-1")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in LOOPBACK_NAMES or (name != "" and is_loopback(name))

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        return wrapped


def _package_files(folder: str, suffixes: tuple[str, ...]) -> dict[str, bytes]:
    """Every file of a folder of fleece.web (templates, static), read once at start."""
    root = resources.files("fleece.web").joinpath(folder)
    return {p.name: p.read_bytes() for p in root.iterdir()
            if p.is_file() and p.name.endswith(suffixes)}


def code_spans(text: str) -> Markup:
    """Text with its `backticked` spans as <code> (everything escaped first): the API's
    descriptions are written that way."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def _environment() -> Environment:
    templates = {name: data.decode("utf-8")
                 for name, data in _package_files("templates", (".html",)).items()}
    env = Environment(loader=DictLoader(templates), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": False}  # show JSON in the CLI's order
    env.filters["ticks"] = code_spans
    for name in templates:  # compiled now, not by the first requests (on the event loop)
        env.get_template(name)
    return env


def _examples() -> dict[str, str]:
    """The bundled example inputs the pages offer (when the package carries them)."""
    out: dict[str, str] = {}
    names = {"mutton": ("mutton", "helppage.txt"), "mutton-typo": ("mutton", "typo.txt"),
             "woof": ("woof", "rulebook5.txt"), "woof-contradiction": ("woof",
                                                                       "contradiction.txt")}
    root = resources.files("fleece").joinpath("examples")
    for key, (game, name) in names.items():
        with contextlib.suppress(OSError):
            out[key] = root.joinpath(game, name).read_text(encoding="utf-8")
    return out


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input: one line naming the field (and the "
          "line and column in a text)"},
    413: {"model": ErrorBody, "description": "the body is larger than the cap"},
    500: {"model": ErrorBody, "description": "an internal error (a bug: please report it)"},
    503: {"model": ErrorBody, "description": "took too long: stopped at the request's time "
          "budget; the server goes on answering"},
}


def _is_api(request: Request) -> bool:
    return request.url.path == "/api" or request.url.path.startswith("/api/")


def _answer(request: Request, status: int, message: str, title: str) -> Response:
    """A refusal or failure: JSON under /api, the error page elsewhere."""
    if _is_api(request):
        return json_error(message, status)
    return get_site(request).page(request, "error.html", status, title=title,
                                  message=message, code=status)


async def on_invalid(request: Request, exc: Exception) -> Response:
    """A body or path the models refuse: 400, `field: what is wrong`."""
    assert isinstance(exc, RequestValidationError)
    return _answer(request, 400, first_message(exc), "Bad input")


async def on_fleece_error(request: Request, exc: Exception) -> Response:
    """The library's input error (or a malformed body): 400 (413 past the size cap)."""
    status = exc.status if isinstance(exc, BadRequest) else 400
    return _answer(request, status, str(exc), "Too large" if status == 413 else "Bad input")


async def on_too_long(request: Request, exc: Exception) -> Response:
    """A job past the request's budget: 503 (the worker was stopped)."""
    return _answer(request, 503, str(exc), "Took too long")


async def on_worker_failed(request: Request, exc: Exception) -> Response:
    """A job that crashed or whose worker died: 500, one line."""
    return _answer(request, 500, f"internal error: {exc}", "Internal error")


async def on_http(request: Request, exc: Exception) -> Response:
    """404 and 405 as one line (JSON under /api, a page elsewhere); a 405 keeps its `Allow`
    header (the methods the path takes)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    message = {404: "no such page", 405: "method not allowed here"}.get(status, "refused")
    response = _answer(request, status, message,
                       "Not found" if status == 404 else "Not allowed")
    if isinstance(exc, HTTPException) and exc.headers:
        response.headers.update(exc.headers)
    return response


async def server_error(request: Request, exc: Exception) -> Response:
    """An unexpected error in the web process: one line, no traceback in the answer."""
    message = f"internal error: {type(exc).__name__}"
    if _is_api(request):
        return json_error(message, 500)
    return PlainTextResponse(message + "\n", status_code=500)


def create_app(config: Config | None = None) -> FastAPI:
    """The app; its worker pool starts with the app's lifespan (uvicorn, or a TestClient used
    as a context manager)."""
    cfg = config or Config()
    statics = {name: (data, STATIC_TYPES.get(name[name.rfind("."):], "text/plain"))
               for name, data in _package_files("static", tuple(STATIC_TYPES)).items()}
    statics["theme.css"] = (theme_css().encode(), STATIC_TYPES[".css"])
    pool = WorkerPool(cfg.workers)
    the_site = Site(env=_environment(), pool=pool, budget=cfg.budget, static=statics,
                    puzzles=packs.load_packs(), ulvtafl_puzzles=packs.load_ulvtafl_packs(),
                    examples=_examples())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await pool.start()
        # What start-up loaded stays: the collector need not walk it again (a full pass over
        # it would hold the event loop for tens of milliseconds under load).
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await pool.close()

    app = FastAPI(
        title="fleece", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
        openapi_url="/openapi.json",
        description=("The JSON twins of fleece's web pages: each endpoint returns what the "
                     "matching command's `--json` prints. Bodies are JSON objects with "
                     "strict types (a whole number is no bool or float, a flag is true or "
                     "false); an unknown field, a repeated key or NaN is refused in one line "
                     "(400); every request has a time budget (503 past it)."),
        exception_handlers={RequestValidationError: on_invalid, FleeceError: on_fleece_error,
                            TookTooLong: on_too_long, WorkerFailed: on_worker_failed,
                            HTTPException: on_http, Exception: server_error})
    app.state.site = the_site
    app.state.config = cfg
    for module in ROUTERS:
        app.include_router(module.api, responses=ERRORS)
        app.include_router(module.pages)
    app.add_api_route("/", index, include_in_schema=False)
    app.add_api_route("/static/{name}", static, include_in_schema=False)
    app.add_api_route("/docs", docs, include_in_schema=False)
    app.add_api_route("/api", endpoints, summary="The JSON endpoints", tags=["index"],
                      responses=ERRORS)
    app.add_middleware(Guard, host=cfg.host)
    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fleece-toolkit")
    except PackageNotFoundError:
        return "0"


async def index(request: Request) -> Response:
    """The home page: one link per game."""
    return get_site(request).page(request, "index.html")


async def static(request: Request, name: str) -> Response:
    """A file of web/static (or the generated theme.css), from memory."""
    found = get_site(request).static.get(name)
    if found is None:
        return PlainTextResponse("not found\n", status_code=404)
    data, kind = found
    return Response(data, media_type=kind, headers={"cache-control": "max-age=300"})


async def docs(request: Request) -> Response:
    """The API's documentation: the OpenAPI schema as a page (every endpoint, its fields with
    their types and limits, its answers), rendered on the server: no script, no network."""
    schema = request.app.openapi()
    return get_site(request).page(request, "docs.html", **docs_context(schema))


async def endpoints(request: Request) -> Response:
    """Every JSON endpoint: its method, path, what it does (in full) and where its schema
    and documentation are."""
    return api_index(request.app.openapi())


class CannotListen(FleeceError):
    """The address cannot be listened on (an unknown host, a port in use): one line."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); port 0 picks a free port. An unknown host or a
    port in use is a CannotListen naming the address."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise CannotListen(f"cannot listen on {where}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)  # early: browsers connecting during start-up wait in the backlog
    except OSError as exc:
        sock.close()
        raise CannotListen(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return sock


def serve(config: Config, *, open_browser: bool = False) -> int:
    """Run the app under uvicorn until Ctrl-C, which stops it cleanly: exit status 0 (what
    `fleece serve` does)."""
    import uvicorn

    sock = bind(config.host, config.port)
    if not is_loopback(config.host):
        sys.stderr.write(f"fleece serve: warning: listening on {config.host}, not only this "
                         "computer: anyone who can reach it may use the app\n")
    port = sock.getsockname()[1]
    url_host = "127.0.0.1" if config.host in ("0.0.0.0", "::", "") else config.host
    if ":" in url_host:
        url_host = f"[{url_host}]"
    url = f"http://{url_host}:{port}/"
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           server_header=False, lifespan="on"))
    workers = f"{config.workers} worker{'s' if config.workers != 1 else ''}"
    sys.stderr.write(f"fleece serve: {url} (budget {config.budget:g} s a request, {workers}; "
                     "Ctrl-C stops)\n")
    sys.stderr.flush()
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn shut down, then re-raised Ctrl-C
        server.run(sockets=[sock])
    sys.stderr.write("fleece serve: stopped\n")
    return 0
