"""The Wolf! card games' page: War analysis (exact, Markov or Monte Carlo, as `fleece cards
war analyse` picks) with a plot of game lengths, and Concentration with perfect memory. JSON
twins: `POST /api/cards/war/analyse` (`fleece cards war analyse --json`) and
`POST /api/cards/concentration/solve` (`fleece cards concentration solve --json`).

War fields: deck, order (winner-first, loser-first, random), runout (lose, last-card), samples
(Monte Carlo games), seed, limit, max_deals, max_states. Concentration: deck, players (1, 2),
max_states. The page's plot shows the lengths of seeded games played one by one (`war play`
with seeds seed, seed+1, ...), as many as fit in a second and a half, up to 200.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from fleece.web import jobs
from fleece.web.common import api, form_fields, html, json_fields, page, run_api_job, run_page_job
from fleece.web.fields import BadRequest, Fields
from fleece.web.pool import BadJobInput

ORDERS = ("winner-first", "loser-first", "random")
RUNOUTS = ("lose", "last-card")


def war_options(f: Fields) -> dict[str, Any]:
    """`fleece cards war analyse`'s options (None: the command's default)."""
    return {"deck": f.text("deck", limit=2000) or None,
            "order": f.choice("order", ORDERS), "runout": f.choice("runout", RUNOUTS),
            "samples": f.whole("samples", 1, 10**8), "seed": f.whole("seed", 0, 10**12),
            "limit": f.whole("limit", 1, 10**8), "max_deals": f.whole("max_deals", 1, 10**9),
            "max_states": f.whole("max_states", 1, 10**7)}


def concentration_options(f: Fields) -> dict[str, Any]:
    """`fleece cards concentration solve`'s options (None: the command's default)."""
    return {"deck": f.text("deck", limit=2000) or None,
            "players": f.whole("players", 1, 2),
            "max_states": f.whole("max_states", 1, 10**8)}


WAR_FORM = {"deck": "wolf", "order": "winner-first", "runout": "lose", "samples": "2000",
            "seed": "1", "limit": "100000", "max_deals": "2000000", "max_states": "6000"}
CONC_FORM = {"deck": "pairs:8", "players": "1", "max_states": "3000000"}


def _form(defaults: dict[str, str], f: Fields | None) -> dict[str, str]:
    d = f.data if f is not None else {}
    return {k: str(d.get(k, v)) for k, v in defaults.items()}


@html
async def cards_page(request: Request) -> Response:
    """The forms and, after a submission, the result."""
    return page(request, "cards.html", war=_form(WAR_FORM, None),
                conc=_form(CONC_FORM, None), game=None, result=None, view=None, error=None)


@html
async def war_page(request: Request) -> Response:
    """War analysis from the form."""
    f = await form_fields(request)
    context: dict[str, Any] = {"war": _form(WAR_FORM, f), "conc": _form(CONC_FORM, None),
                               "game": "war", "result": None, "view": None, "error": None}
    try:
        opts = war_options(f)
        f.check_known()
        opts["lengths"] = True
        out = await run_page_job(request, jobs.war_analyse, opts)
    except (BadRequest, BadJobInput) as exc:
        context["error"] = str(exc)
        return page(request, "cards.html", exc.status if isinstance(exc, BadRequest) else 400,
                    **context)
    context.update(result=out["json"], result_text=out["json_text"], view=out["view"])
    return page(request, "cards.html", **context)


@html
async def concentration_page(request: Request) -> Response:
    """Concentration from the form."""
    f = await form_fields(request)
    context: dict[str, Any] = {"war": _form(WAR_FORM, None), "conc": _form(CONC_FORM, f),
                               "game": "concentration", "result": None, "view": None,
                               "error": None}
    try:
        opts = concentration_options(f)
        f.check_known()
        out = await run_page_job(request, jobs.concentration_solve, opts)
    except (BadRequest, BadJobInput) as exc:
        context["error"] = str(exc)
        return page(request, "cards.html", exc.status if isinstance(exc, BadRequest) else 400,
                    **context)
    context.update(result=out["json"], result_text=out["json_text"])
    return page(request, "cards.html", **context)


@api
async def api_war(request: Request) -> Response:
    """War analysis: what `fleece cards war analyse --json` prints."""
    f = await json_fields(request)
    opts = war_options(f)
    f.check_known()
    return await run_api_job(request, jobs.war_analyse, opts)


@api
async def api_concentration(request: Request) -> Response:
    """Concentration: what `fleece cards concentration solve --json` prints."""
    f = await json_fields(request)
    opts = concentration_options(f)
    f.check_known()
    return await run_api_job(request, jobs.concentration_solve, opts)


def routes() -> list[BaseRoute]:
    """The card games' routes."""
    return [Route("/cards", cards_page),
            Route("/cards/war", war_page, methods=["POST"]),
            Route("/cards/concentration", concentration_page, methods=["POST"]),
            Route("/api/cards/war/analyse", api_war, methods=["POST"]),
            Route("/api/cards/concentration/solve", api_concentration, methods=["POST"])]
