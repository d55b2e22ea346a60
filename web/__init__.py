"""The local web app of `fleece serve`: every game's main job one paste or click away, with a
JSON twin of each page under /api/... that returns exactly what the command line's `--json`
prints.

Starlette serves pages rendered on the server (Jinja2, autoescaped) with a little plain
JavaScript shipped in the package (no build step, no network). Solver calls run in worker
processes with a per-request time budget (web.pool), so a slow request gets a "took too
long" answer and never hangs the server. This is the top layer: it may import commands,
verify, solver and rules; nothing imports it but commands/serve.py.
"""
