"""Ulvtafl's page (the board as SVG; click a piece and where it goes; play either side against
the solver; "solve this position" draws the best move as an arrow) and its JSON twins:
`POST /api/ulvtafl/board` (`fleece ulvtafl board --json`), `POST /api/ulvtafl/move` (the
board JSON of the position after the move and, when asked, the solver's reply) and
`POST /api/ulvtafl/solve` (`fleece ulvtafl solve --json`).

Fields: position (a U8 position string) or setup (13, 15, 17, 20) with wolf (points); the
rule flags orthogonal, wolf_diagonal_captures_only, sheep_orthogonal, no_repetition_draw;
move (`d3-d4`); solver (the side the solver plays) and think (its seconds a move); for solve
max_nodes, timeout and retro_limit. The solver's time is capped below the request's budget,
so a long search answers "unknown" instead of running out of time.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fleece.web import jobs
from fleece.web.common import (
    api,
    form_fields,
    html,
    json_fields,
    page,
    run_api_job,
    run_job,
    run_page_job,
    site,
)
from fleece.web.fields import BadRequest, Fields
from fleece.web.pool import BadJobInput

SETUPS = ("13", "15", "17", "20")
SIDES = ("wolves", "sheep")
FLAGS = ("orthogonal", "wolf_diagonal_captures_only", "sheep_orthogonal", "no_repetition_draw")
THINK = 2.0  # the solver's seconds a move by default, as `fleece ulvtafl play`
# The page's solve enumerates at most this many positions for the retrograde method (as
# `fleece ulvtafl play` does): that phase does not look at the clock, and with the command's
# default of 2,000,000 it alone can outlast a request's budget on a busy machine.
PAGE_RETRO_LIMIT = 200_000
SOLVE_SHARE = 0.4  # the share of the request's budget a solve may use: the searches check the
# clock every so many nodes and were seen overrunning a 3 s timeout by 4.5 s on a busy machine


def position_options(f: Fields) -> dict[str, Any]:
    """The position and rules of a request (as `fleece ulvtafl board` takes them)."""
    opts: dict[str, Any] = {"position": f.text("position", limit=10_000) or None,
                            "setup": f.choice("setup", SETUPS), "wolf": f.words("wolf", 2)}
    for name in FLAGS:
        opts[name] = f.flag(name)
    if opts["position"] is not None and opts["setup"] is not None:
        raise BadRequest("give a position or a setup, not both")
    return opts


def move_options(f: Fields, budget: float) -> dict[str, Any]:
    """A move request's options: the position, the move, the solver's side and time."""
    opts = position_options(f)
    opts["move"] = f.text("move", limit=200) or None
    opts["solver"] = f.choice("solver", SIDES)
    opts["think"] = f.seconds("think", budget * 0.5, THINK) or THINK
    opts["think"] = min(opts["think"], budget * 0.5)
    return opts


def solve_options(f: Fields, budget: float) -> dict[str, Any]:
    """A solve request's options (as `fleece ulvtafl solve`), the time capped by the budget."""
    opts = position_options(f)
    cap = budget * SOLVE_SHARE
    opts["max_nodes"] = f.whole("max_nodes", 1, 10**12)
    timeout = f.seconds("timeout", 7 * 86400)
    opts["timeout"] = cap if timeout is None else min(timeout, cap)
    opts["retro_limit"] = f.whole("retro_limit", 0, 200_000_000, 2_000_000)
    return opts


def form_defaults(f: Fields | None) -> dict[str, Any]:
    """The form's values (side played by the solver, think time, rule flags)."""
    d = f.data if f is not None else {}
    out: dict[str, Any] = {"solver": str(d.get("solver", "")), "think": str(d.get("think", "2")),
                           "setup": str(d.get("setup", "20")),
                           "position": str(d.get("position", ""))}
    for name in FLAGS:
        out[name] = name in d
    return out


@html
async def ulvtafl_page(request: Request) -> Response:
    """The Ulvtafl page: new game, move, solver reply, solve."""
    budget = site(request).budget
    if request.method == "GET":
        opts = position_options(Fields({}, form=True))
        result = await run_job(request, jobs.ulvtafl_board, opts)
        return page(request, "ulvtafl.html", board=result["view"], form=form_defaults(None),
                    error=None, data=None, command="")
    f = await form_fields(request)
    action = f.choice("action", ("new", "move", "solve", "reply"), "move")
    form = form_defaults(f)
    board = None
    try:
        if action == "solve":
            opts = solve_options(f, budget)
            if f.data.get("retro_limit") in (None, ""):
                opts["retro_limit"] = PAGE_RETRO_LIMIT
            f.check_known(ignore=("solver", "think"))
            result = await run_page_job(request, jobs.ulvtafl_solve, opts)
        elif action == "new":
            opts = move_options(f, budget)
            opts["position"] = None
            opts["move"] = None
            f.check_known()
            result = await run_job(request, jobs.ulvtafl_move, opts)
        else:
            opts = move_options(f, budget)
            opts["setup"] = None
            if action == "move" and opts["move"] is None:
                raise BadRequest("move: missing (click a piece, then where it goes)")
            if action == "reply":
                opts["move"] = None
            f.check_known()
            result = await run_job(request, jobs.ulvtafl_move, opts)
    except (BadRequest, BadJobInput) as exc:
        status = exc.status if isinstance(exc, BadRequest) else 400
        position = f.data.get("position")
        if isinstance(position, str) and position:
            try:
                again = await run_job(request, jobs.ulvtafl_board, {
                    **{k: False for k in FLAGS}, "position": position, "setup": None,
                    "wolf": []})
                board = again["view"]
            except (BadRequest, BadJobInput):
                board = None
        return page(request, "ulvtafl.html", status, board=board, form=form, error=str(exc),
                    data=None, command="")
    command = ""
    if action == "solve":
        command = (f"fleece ulvtafl solve --position P --timeout {opts['timeout']:g} "
                   f"--retro-limit {opts['retro_limit']} --json")
    return page(request, "ulvtafl.html", board=result["view"], form=form, error=None,
                data=result["json_text"] if action == "solve" else None, command=command)


@api
async def api_board(request: Request) -> Response:
    """A position: what `fleece ulvtafl board --json` prints."""
    f = await json_fields(request)
    opts = position_options(f)
    f.check_known()
    return await run_api_job(request, jobs.ulvtafl_board, opts)


@api
async def api_move(request: Request) -> Response:
    """Play a move (and the solver's reply when `solver` names its side): the new position as
    `fleece ulvtafl board --position NEW --json` prints it."""
    f = await json_fields(request)
    opts = move_options(f, site(request).budget)
    f.check_known()
    return await run_api_job(request, jobs.ulvtafl_move, opts)


@api
async def api_solve(request: Request) -> Response:
    """Solve a position: what `fleece ulvtafl solve --json` prints (timeout capped by the
    request's budget)."""
    f = await json_fields(request)
    opts = solve_options(f, site(request).budget)
    f.check_known()
    return await run_api_job(request, jobs.ulvtafl_solve, opts)


def routes() -> list[BaseRoute]:
    """Ulvtafl's routes."""
    return [Route("/ulvtafl", ulvtafl_page, methods=["GET", "POST"]),
            Route("/api/ulvtafl/board", api_board, methods=["POST"]),
            Route("/api/ulvtafl/move", api_move, methods=["POST"]),
            Route("/api/ulvtafl/solve", api_solve, methods=["POST"])]
