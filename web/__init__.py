"""The local web app of `fleece serve`: every game's main job one paste or click away, with a
JSON twin of each page under /api/... that returns exactly what the command line's `--json`
prints.

FastAPI (on Starlette) serves one router a game (web.routers): the JSON twins under /api,
typed by pydantic models and described by the OpenAPI schema and its page /docs, and the
pages rendered on the server (Jinja2, autoescaped) with a little plain JavaScript shipped in
the package (no build step, no network). Jobs (web.jobs) call the library API in worker
processes with a per-request time budget (web.pool), so a slow request gets a "took too
long" answer and never hangs the server. Nothing imports this package but commands/serve.py.

Imports: fleece.web, fleece.api, fleece.verify, fleece.solver and fleece.rules; never
fleece.commands (both sit on the library API).
"""

if __name__ != "fleece.web":
    raise ImportError(f"import fleece.web, not {__name__}: this folder is the package "
                      "fleece.web (a bare name would load a second copy of its classes)")
